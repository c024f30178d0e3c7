"""sciax.integrate.quad side by side with scipy.integrate.quad, in one process.

Run ``python benchmarks/quad.py`` (``--quick`` is a smoke run with fewer rounds
and a smaller batch).  Cases, all float64 at quad's default tolerances:

* one integral, compiled: ``sciax.jit`` of ``quad`` with the parameter as an
  argument, against ``scipy.integrate.quad`` with a Python integrand (SciPy's
  usual use) — a cheap integrand (a Gaussian on [0, 2], 21 evaluations) and an
  expensive one (``sin(50x)² log x`` on (0, 3], hundreds of evaluations,
  extrapolation);
* a batch of 10,000 parameter values: ``sciax.jit(sciax.vmap(quad))`` against a
  Python loop of ``scipy.integrate.quad`` calls.

Each figure is the median (and the minimum) over rounds in which the two libraries
take turns (so machine load hits both alike); each sciax call waits for its result.
Compile time is excluded (one warm-up call), and the script checks that the values
agree.  ``--rounds N`` sets the rounds; ``--ops`` prints the traced programs'
operation counts instead (a measure that machine load does not touch).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

import numpy as np
import scipy.integrate as si

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from sciax.integrate import quad  # noqa: E402


def _gauss(x, s):
    return snp.exp(-x * x / (2.0 * s * s))


def _gauss_np(x, s):
    return math.exp(-x * x / (2.0 * s * s))


def _osc(x, c):
    return snp.sin(c * x) ** 2 * snp.log(x)


def _osc_np(x, c):
    return math.sin(c * x) ** 2 * math.log(x)



def _count(jaxpr) -> int:
    """Equations of ``jaxpr``, those of nested sub-programs included."""
    n = 0
    for e in jaxpr.eqns:
        n += 1
        for v in e.params.values():
            for sub in (v if isinstance(v, (tuple, list)) else (v,)):
                inner = getattr(sub, "jaxpr", None)
                if inner is not None and hasattr(inner, "eqns"):
                    n += _count(inner)
    return n


def ops() -> None:
    """Operation counts of the traced programs (independent of machine load):
    all equations outside the adaptive loop, the loop body's own equations, and
    the body's equations with its nested sub-programs (the extrapolation)."""
    cases = [("cheap", lambda p: quad(_gauss, 0.0, 2.0, args=(p,))[0], 1.3),
             ("expensive", lambda p: quad(_osc, 0.0, 3.0, args=(p,))[0], 50.0),
             ("batch", sciax.vmap(lambda p: quad(_gauss, 0.0, 2.0, args=(p,))[0]),
              np.linspace(0.5, 3.0, 8))]
    print("| program | outside the loop | loop body | loop body, nested |")
    print("| --- | ---: | ---: | ---: |")
    for name, f, x in cases:
        jaxpr = sciax.make_jaxpr(f)(x)
        jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
        loops = [e for e in jaxpr.eqns if e.primitive.name == "while"]
        body = [getattr(e.params["body_jaxpr"], "jaxpr", e.params["body_jaxpr"])
                for e in loops]
        inside = sum(_count(b) for b in body)
        own = sum(len(b.eqns) for b in body)
        outside = _count(jaxpr) - inside - sum(
            _count(getattr(e.params["cond_jaxpr"], "jaxpr", e.params["cond_jaxpr"]))
            for e in loops)
        print(f"| {name} | {outside} | {own} | {inside} |")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--rounds", type=int, default=0,
                   help="rounds per case (default 9, 3 with --quick; the batch "
                        "takes a third of them)")
    p.add_argument("--ops", action="store_true",
                   help="print the traced programs' operation counts and exit")
    opts = p.parse_args()
    if opts.ops:
        ops()
        return
    rounds = opts.rounds or (3 if opts.quick else 9)
    batch = 500 if opts.quick else 10_000
    rows = []
    cases = [("cheap: Gaussian on [0, 2]", _gauss, _gauss_np, 0.0, 2.0, 1.3),
             ("expensive: sin(50x)^2 log x on (0, 3]", _osc, _osc_np, 0.0, 3.0, 50.0)]
    for name, f, fn, a, b, par in cases:
        one = sciax.jit(lambda p, f=f, a=a, b=b: quad(f, a, b, args=(p,)))
        y = one(par)
        ref = si.quad(fn, a, b, args=(par,), full_output=1)
        assert abs(float(y[0]) - ref[0]) <= 1e-10 * max(1.0, abs(ref[0])), name
        ts, tr = [], []
        for _ in range(rounds):
            t0 = time.perf_counter()
            out = one(par)
            out[0].block_until_ready()
            ts.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            si.quad(fn, a, b, args=(par,))
            tr.append(time.perf_counter() - t0)
        rows.append((name, 1, ts, tr))
    # the batch: 10,000 Gaussian widths
    s = np.linspace(0.5, 3.0, batch)
    many = sciax.jit(sciax.vmap(lambda p: quad(_gauss, 0.0, 2.0, args=(p,))[0]))
    ys = np.asarray(many(s))
    ref = np.array([si.quad(_gauss_np, 0.0, 2.0, args=(v,))[0] for v in s[:50]])
    np.testing.assert_allclose(ys[:50], ref, rtol=1e-12)
    ts, tr = [], []
    for _ in range(max(1, rounds // 3)):
        t0 = time.perf_counter()
        many(s).block_until_ready()
        ts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for v in s:
            si.quad(_gauss_np, 0.0, 2.0, args=(v,))
        tr.append(time.perf_counter() - t0)
    rows.append((f"batch of {batch} Gaussian widths", batch, ts, tr))
    # medians (the figure), and the fastest round of each (less sensitive to
    # other jobs on a shared machine)
    print("| case | integrals | sciax ms | SciPy ms | SciPy/sciax | sciax min ms | "
          "SciPy min ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, n, ts, tr in rows:
        t_s, t_r = statistics.median(ts), statistics.median(tr)
        print(f"| {name} | {n} | {t_s * 1e3:.3f} | {t_r * 1e3:.3f} | "
              f"{t_r / t_s:.2f}x | {min(ts) * 1e3:.3f} | {min(tr) * 1e3:.3f} |")


if __name__ == "__main__":
    main()
