"""sciax.optimize.curve_fit / least_squares side by side with SciPy.

Run ``python benchmarks/least_squares.py`` (``--quick``: 100 batched fits
instead of 1,000; ``--only batch``: just the batched fits, ``--only single``:
just the single solves; ``--batch-rounds``: alternating rounds of the batch,
default 3).  Cases, float64:

* one fit of the NIST Misra1a model (14 points, 2 parameters) from NIST's
  second start: sciax ``curve_fit`` (eager call of the cached compiled
  program) vs ``scipy.optimize.curve_fit``, and ``least_squares`` (trf);
* ``least_squares(method='dogbox')`` on Misra1a;
* ``root`` on MINPACK's Broyden tridiagonal system, n = 10: ``hybr`` (SciPy
  with the exact Jacobian, ``hybrj``, and without, ``hybrd``), ``broyden1``,
  ``krylov`` and ``df-sane``;
* ``minimize(method='SLSQP')`` on Hock-Schittkowski 71 (equality, inequality
  and bounds);
* N fits of ``a exp(-b x) + c`` (20 points each, different data, one model):
  sciax ``vmap(curve_fit)`` in one compiled call vs a SciPy loop.

"per solve" is the median over rounds in which the libraries take turns.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings

import numpy as np
import scipy.optimize as so

sys.path.insert(0, ".")
import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from sciax.optimize import curve_fit, least_squares, minimize, root  # noqa: E402
from tests.optimize import root_systems  # noqa: E402
from tests.optimize.hock_schittkowski import HS  # noqa: E402
from tests.optimize.nist_strd import PROBLEMS  # noqa: E402


def _time(fn, rounds):
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", choices=("single", "batch"), default=None)
    ap.add_argument("--batch-rounds", type=int, default=None)
    a = ap.parse_args()
    rounds = 5 if a.quick else 15
    if a.only != "batch":
        _singles(rounds)
    if a.only != "single":
        _batch(100 if a.quick else 1000, a.batch_rounds or max(2, rounds // 5))


def _singles(rounds):
    m, mn, x, y, _, s2, _ = PROBLEMS["Misra1a"]
    x, y = np.asarray(x, float), np.asarray(y, float)
    xj, yj = snp.asarray(x), snp.asarray(y)
    p0 = np.asarray(s2, float)

    def res(b, x, y):
        return m(x, b[0], b[1]) - y

    cases = {
        "curve_fit sciax": lambda: np.asarray(curve_fit(m, xj, yj, p0=p0)[0]),
        "curve_fit scipy": lambda: so.curve_fit(mn, x, y, p0=p0)[0],
        "least_squares sciax": lambda: np.asarray(
            least_squares(res, p0, args=(xj, yj)).x),
        "least_squares scipy": lambda: so.least_squares(
            lambda b: mn(x, *b) - y, p0).x,
        "dogbox sciax": lambda: np.asarray(
            least_squares(res, p0, args=(xj, yj), method="dogbox").x),
        "dogbox scipy": lambda: so.least_squares(
            lambda b: mn(x, *b) - y, p0, method="dogbox").x,
    }
    tri = root_systems.broyden_tridiagonal
    x0t = root_systems.problem("broyden_tridiagonal", 10)[1]
    x0tj = snp.asarray(x0t)
    jac_np = sciax.jit(sciax.jacfwd(lambda z: tri(z, snp)))
    ftri = lambda z: tri(z, snp)  # noqa: E731
    for meth in ("hybr", "broyden1", "krylov", "df-sane"):
        cases[f"root {meth} sciax"] = (
            lambda meth=meth: np.asarray(root(ftri, x0tj, method=meth).x))
        cases[f"root {meth} scipy"] = (lambda meth=meth: so.root(
            lambda z: tri(z, np), x0t, method=meth).x)
    cases["root hybr scipy(jac)"] = lambda: so.root(
        lambda z: tri(z, np), x0t, jac=lambda z: np.asarray(jac_np(snp.asarray(z))),
        method="hybr").x
    hs = HS["hs71"]
    fhs = lambda z: hs.fun(z, snp)  # noqa: E731
    cons_s, cons_n = hs.constraints(snp), hs.constraints(np)
    cases["SLSQP hs71 sciax"] = lambda: np.asarray(
        minimize(fhs, snp.asarray(hs.x0), method="SLSQP", bounds=hs.bounds,
                 constraints=cons_s).x)
    cases["SLSQP hs71 scipy"] = lambda: so.minimize(
        lambda z: hs.fun(z, np), hs.x0, method="SLSQP", bounds=hs.bounds,
        constraints=cons_n).x
    for fn in cases.values():
        fn()  # compile / warm up
    times = {k: [] for k in cases}
    for _ in range(rounds):
        for k, fn in cases.items():
            times[k] += _time(fn, 1)
    for k, v in times.items():
        print(f"{k:24s} per solve {1e3 * statistics.median(v):8.3f} ms")
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"curve_fit speed-up vs SciPy: "
          f"{med['curve_fit scipy'] / med['curve_fit sciax']:.1f}x")


def _batch(n, rounds):
    rng = np.random.default_rng(0)
    xs = np.linspace(0, 4, 20)
    A, B = 1 + rng.random(n), 0.5 + rng.random(n)
    ys = A[:, None] * np.exp(-B[:, None] * xs) + 0.3
    ys = ys + 0.01 * rng.standard_normal((n, 20))
    model = lambda x, a, b, c: a * snp.exp(-b * x) + c  # noqa: E731
    model_np = lambda x, a, b, c: a * np.exp(-b * x) + c  # noqa: E731
    xsj, ysj = snp.asarray(xs), snp.asarray(ys)
    p0b = snp.array([1.0, 1.0, 0.0])
    batched = sciax.jit(sciax.vmap(lambda yy: curve_fit(model, xsj, yy, p0=p0b)[0]))
    t = time.perf_counter()
    np.asarray(batched(ysj))
    first = time.perf_counter() - t
    tb, ts = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):
            tb += _time(lambda: np.asarray(batched(ysj)), 1)
            ts += _time(lambda: [so.curve_fit(model_np, xs, yy, p0=[1.0, 1.0, 0.0])
                                 for yy in ys], 1)
    print(f"{n} fits: sciax vmap {1e3 * statistics.median(tb):.1f} ms (range "
          f"{1e3 * min(tb):.1f}-{1e3 * max(tb):.1f}; first call {first:.1f} s), "
          f"SciPy loop {1e3 * statistics.median(ts):.0f} ms (range "
          f"{1e3 * min(ts):.0f}-{1e3 * max(ts):.0f}), speed-up (medians) "
          f"{statistics.median(ts) / statistics.median(tb):.1f}x")


if __name__ == "__main__":
    main()
