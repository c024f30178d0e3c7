"""sciax.integrate.quad side by side with scipy.integrate.quad, in one process.

Run ``python benchmarks/quad.py`` (``--quick`` is a smoke run with fewer
rounds).  Cases, all float64 at quad's default tolerances:

* one integral, compiled: ``sciax.jit`` of ``quad`` with the parameter as an
  argument, against ``scipy.integrate.quad`` with a Python integrand (SciPy's
  usual use) — a cheap integrand (a Gaussian on [0, 2], 21 evaluations) and an
  expensive one (``sin(50x)² log x`` on (0, 3], hundreds of evaluations,
  extrapolation);
* the cheap integral again with the parameter passed as an array (``jit``'s
  fast path; a Python float takes a slower one), next to a trivial jitted
  function of one array (the floor of any compiled call);
* the cheap integral's own cost inside a compiled program: 1,000 integrals in
  one ``lax.map`` (a loop, not ``vmap``), per integral;
* a batch of 10,000 parameter values: ``sciax.jit(sciax.vmap(quad))`` against a
  Python loop of ``scipy.integrate.quad`` calls.

Each figure (microseconds, per integral) is the median (and the minimum) over
rounds in which the two libraries take turns (so machine load hits both alike);
each sciax call waits for its result.  A round of a one-integral case is 20
calls, and those cases take ten times the rounds.  Compile time is excluded (one
warm-up call), and the script checks that the values agree.  ``--rounds N`` sets
the rounds; ``--ops`` prints the traced programs' operation counts instead (a
measure that machine load does not touch).
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
from sciax import lax  # noqa: E402
from sciax.integrate import quad  # noqa: E402


REPS = 20  # calls per timed round of the one-integral cases


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


def _whiles(jaxpr) -> list:
    """The while loops of ``jaxpr``, those nested in sub-programs included."""
    out = []
    for e in jaxpr.eqns:
        if e.primitive.name == "while":
            out.append(e)
        for v in e.params.values():
            for sub in (v if isinstance(v, (tuple, list)) else (v,)):
                inner = getattr(sub, "jaxpr", None)
                if inner is not None and hasattr(inner, "eqns"):
                    out.extend(_whiles(inner))
    return out


def ops() -> None:
    """Operation counts of the traced programs (independent of machine load):
    all equations, nested sub-programs included, and those of the largest loop
    body (the adaptive loop; in the batch, the loop over groups of undecided
    members), its own and with its nested sub-programs."""
    cases = [("cheap", lambda p: quad(_gauss, 0.0, 2.0, args=(p,))[0], 1.3),
             ("expensive", lambda p: quad(_osc, 0.0, 3.0, args=(p,))[0], 50.0),
             ("batch", sciax.vmap(lambda p: quad(_gauss, 0.0, 2.0, args=(p,))[0]),
              np.linspace(0.5, 3.0, 8))]
    print("| program | all | largest loop body | loop body, nested |")
    print("| --- | ---: | ---: | ---: |")
    for name, f, x in cases:
        jaxpr = sciax.make_jaxpr(f)(x)
        jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
        body = [getattr(e.params["body_jaxpr"], "jaxpr", e.params["body_jaxpr"])
                for e in _whiles(jaxpr)]
        big = max(body, key=_count)
        print(f"| {name} | {_count(jaxpr)} | {len(big.eqns)} | {_count(big)} |")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--rounds", type=int, default=0,
                   help="rounds per case (default 9, 3 with --quick)")
    p.add_argument("--ops", action="store_true",
                   help="print the traced programs' operation counts and exit")
    opts = p.parse_args()
    if opts.ops:
        ops()
        return
    rounds = opts.rounds or (3 if opts.quick else 9)
    batch = 10_000
    rows = []
    cases = [("cheap: Gaussian on [0, 2]", _gauss, _gauss_np, 0.0, 2.0, 1.3),
             ("expensive: sin(50x)^2 log x on (0, 3]", _osc, _osc_np, 0.0, 3.0, 50.0)]
    for name, f, fn, a, b, par in cases:
        one = sciax.jit(lambda p, f=f, a=a, b=b: quad(f, a, b, args=(p,)))
        y = one(par)
        ref = si.quad(fn, a, b, args=(par,), full_output=1)
        assert abs(float(y[0]) - ref[0]) <= 1e-10 * max(1.0, abs(ref[0])), name
        ts, tr = [], []
        for _ in range(rounds * 10):
            # a round: REPS calls of each (a single call is too short to time)
            t0 = time.perf_counter()
            for _ in range(REPS):
                out = one(par)
                out[0].block_until_ready()
            ts.append((time.perf_counter() - t0) / REPS)
            t0 = time.perf_counter()
            for _ in range(REPS):
                si.quad(fn, a, b, args=(par,))
            tr.append((time.perf_counter() - t0) / REPS)
        rows.append((name, 1, ts, tr))
    # the cheap integral with an array parameter, a trivial compiled call (no SciPy
    # counterpart: its column repeats the cheap SciPy call), and 1,000 cheap
    # integrals in one program
    f, fn, a, b, par = _gauss, _gauss_np, 0.0, 2.0, 1.3
    one = sciax.jit(lambda p: quad(f, a, b, args=(p,)))
    triv = sciax.jit(lambda p: (2.0 * p, 3.0 * p))
    pa = snp.asarray(par)
    ws = np.linspace(0.5, 3.0, 1000)
    ws_list = ws.tolist()  # SciPy's integrand gets Python floats, as usual
    in_one = sciax.jit(lambda ps: lax.map(lambda p: quad(f, a, b, args=(p,))[0], ps))
    ref = np.array([si.quad(fn, a, b, args=(v,))[0] for v in ws])
    np.testing.assert_allclose(np.asarray(in_one(ws)), ref, rtol=1e-12)
    triv(pa)[0].block_until_ready()
    one(pa)[0].block_until_ready()
    # the same trivial function jitted by JAX (with the bench extra): the floor of
    # any XLA-compiled call, against SciPy's cheapest integral (x**2 on [0, 1])
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        jtriv = jax.jit(lambda p: (2.0 * p, 3.0 * p))
        jpa = jax.numpy.asarray(par)
        jtriv(jpa)[0].block_until_ready()
    except ImportError:
        jtriv = None
    square = lambda x: x ** 2  # noqa: E731
    t_arr, t_triv, t_map, t_sp, t_sp1k, t_jax, t_sq = [], [], [], [], [], [], []
    for _ in range(rounds * 10):
        for fun, acc, arg in ((one, t_arr, pa), (triv, t_triv, pa),
                              (jtriv, t_jax, jpa if jtriv else None)):
            if fun is None:
                continue
            t0 = time.perf_counter()
            for _ in range(REPS):
                fun(arg)[0].block_until_ready()
            acc.append((time.perf_counter() - t0) / REPS)
        t0 = time.perf_counter()
        for _ in range(REPS):
            si.quad(fn, a, b, args=(par,))
        t_sp.append((time.perf_counter() - t0) / REPS)
        t0 = time.perf_counter()
        for _ in range(REPS):
            si.quad(square, 0.0, 1.0)
        t_sq.append((time.perf_counter() - t0) / REPS)
    for _ in range(rounds):
        t0 = time.perf_counter()
        in_one(ws).block_until_ready()
        t_map.append((time.perf_counter() - t0) / len(ws))
        t0 = time.perf_counter()
        for v in ws_list:
            si.quad(fn, a, b, args=(v,))
        t_sp1k.append((time.perf_counter() - t0) / len(ws))
    rows.append(("cheap, the parameter an array", 1, t_arr, t_sp))
    rows.append(("a trivial jitted function of one array (floor)", 1, t_triv, t_sp))
    if t_jax:
        rows.append(("the same trivial function under jax.jit, vs SciPy's x**2 on [0, 1]",
                     1, t_jax, t_sq))
    rows.append(("cheap, 1000 in one program (lax.map), per integral", 1, t_map,
                 t_sp1k))
    # the batch: 10,000 Gaussian widths
    s = np.linspace(0.5, 3.0, batch)
    many = sciax.jit(sciax.vmap(lambda p: quad(_gauss, 0.0, 2.0, args=(p,))[0]))
    ys = np.asarray(many(s))
    ref = np.array([si.quad(_gauss_np, 0.0, 2.0, args=(v,))[0] for v in s])
    np.testing.assert_allclose(ys, ref, rtol=1e-12)
    ts, tr = [], []
    for _ in range(rounds):
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
    print("| case | integrals | sciax us | SciPy us | SciPy/sciax | sciax min us | "
          "SciPy min us |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, n, ts, tr in rows:
        t_s, t_r = statistics.median(ts), statistics.median(tr)
        print(f"| {name} | {n} | {t_s * 1e6:.1f} | {t_r * 1e6:.1f} | "
              f"{t_r / t_s:.2f}x | {min(ts) * 1e6:.1f} | {min(tr) * 1e6:.1f} |")
    print(f"\nload average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
