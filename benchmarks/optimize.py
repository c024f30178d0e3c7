"""sciax.optimize side by side with SciPy, jax.scipy.optimize and optimistix.

Run ``python benchmarks/optimize.py`` (``--quick`` for fewer rounds and 100
instead of 1,000 batched problems).  Cases, all float64:

* BFGS on Rosenbrock, n = 2 and n = 100 (from (-1.2, 1, -1.2, 1, ...)):
  ``sciax.optimize.minimize`` (eager call, compiled once and cached), SciPy
  with the exact gradient ``rosen_der``, ``jax.scipy.optimize.minimize``
  under ``jax.jit``, and optimistix's BFGS when it is installed;
* L-BFGS-B, same problems: sciax and SciPy;
* Newton-CG and trust-exact at n = 100 with exact hessians (SciPy gets
  ``rosen_hess``/``rosen_hess_prod``);
* 1,000 vmapped 10-D Rosenbrock problems from random starts in [-2, 2]:
  sciax ``vmap(minimize)``, ``jax.vmap`` of jax.scipy's BFGS, optimistix
  under ``jax.vmap``; the number of converged problems is printed too;
* DIRECT-L (``direct``, default options) on Hartmann 6 (the vol_tol stop
  after 733 evaluations, the same divisions in both): sciax (compiled once
  per function) and SciPy (C, one Python call per evaluation);
* Levenberg-Marquardt on the NIST StRD problems Misra1a and MGH09 (second
  NIST start): sciax ``least_squares(method='lm')`` and ``curve_fit``,
  SciPy's (MINPACK), optimistix's ``LevenbergMarquardt``.

"sciax jit" is ``jit(lambda x0: minimize(...).x)``: the compiled solve
returning one array, as the optimistix column (its ``.value``); "sciax" is
the eager call, which also returns the whole ``OptimizeResult``.
"first call" is trace + compile + one run of a function object not seen
before, with sciax's persistent compilation cache switched off (``--cache``
keeps it on: a first call then loads a program compiled by an earlier run
from disk, ~0.1 s instead of ~0.3 s for BFGS, while jax's persistent cache
is off by default); "per solve" is the median over rounds in which the
libraries take turns, so a change of machine load hits all columns alike
(``--cpu``: the minimum over rounds of the process's CPU time instead, which
another job's load disturbs less than wall time on a shared machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np
import scipy.optimize as so

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from sciax import optimize  # noqa: E402


def _block(x: Any) -> Any:
    for leaf in sciax.tree.leaves(x):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
    return x


def _x0(n: int) -> np.ndarray:
    x = np.full(n, -1.2)
    x[1::2] = 1.0
    return x


_CLOCK = [time.perf_counter]


def _time(f: Callable) -> float:
    clock = _CLOCK[0]
    t = clock()
    f()
    return clock() - t


def _reps(f: Callable) -> int:
    """How many calls of ``f`` make about 20 ms (1 to 50)."""
    t = max(_time(f), 1e-6)
    return int(min(50, max(1, 0.02 / t)))


def _first(make: Callable) -> float:
    return _time(make)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cpu", action="store_true",
                    help="minimum CPU time over the rounds instead of the median "
                         "wall time")
    ap.add_argument("--only", default="",
                    help="comma-separated case names to run (BFGS, L-BFGS-B, "
                         "Newton-CG, trust-exact, dual_annealing, direct, vmap, "
                         "lm); "
                         "default all")
    ap.add_argument("--cache", action="store_true",
                    help="keep sciax's persistent compilation cache on (first "
                         "calls then load earlier runs' programs from disk)")
    ap.add_argument("--rounds", type=int, default=0,
                    help="rounds of turns (default 7, 3 with --quick)")
    opts = ap.parse_args()
    if not opts.cache:
        sciax.config.update("compilation_cache_dir", None)
    only = set(opts.only.split(",")) if opts.only else None
    reduce = statistics.median
    if opts.cpu:
        _CLOCK[0] = time.process_time
        reduce = min
    rounds = opts.rounds or (3 if opts.quick else 7)
    nbatch = 100 if opts.quick else 1000

    import jax
    import jax.numpy as jnp
    from jax.scipy.optimize import minimize as jminimize

    jax.config.update("jax_enable_x64", True)
    try:
        import optimistix as optx
    except ImportError:
        optx = None

    def jrosen(x):
        return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

    rows = []

    def bench(case, n, runners):
        """runners: name -> (first_call_fn, steady_fn, nit_of_result)."""
        if only is not None and case.split()[0] not in only and not (
                "vmap" in only and "vmap" in case):
            return
        firsts = {k: _first(v[0]) for k, v in runners.items()}
        times: dict[str, list] = {k: [] for k in runners}
        for _ in range(rounds):
            for k, v in runners.items():
                if reduce is min:  # --cpu: the fastest of a few calls per turn
                    times[k].append(min(_time(v[1]) for _ in range(_reps(v[1]))))
                else:
                    times[k].append(_time(v[1]))
        med = {k: reduce(v) for k, v in times.items()}
        rows.append((case, n, med, firsts))
        line = " | ".join(f"{k} {1e3 * med[k]:.2f} ms (first {firsts[k]:.2f} s)"
                          for k in runners)
        print(f"{case} n={n}: {line}", flush=True)

    for n in (2, 100):
        x0 = _x0(n)
        xs = snp.asarray(x0)
        xj = jnp.asarray(x0)
        jfun = jax.jit(lambda x: jminimize(jrosen, x, method="BFGS").x)
        sjit = sciax.jit(lambda x: optimize.minimize(optimize.rosen, x).x)
        runners = {
            "sciax": (lambda: _block(optimize.minimize(
                lambda x: optimize.rosen(x), xs)),
                      lambda: _block(optimize.minimize(optimize.rosen, xs))),
            "sciax jit": (lambda: _block(sciax.jit(lambda x: optimize.minimize(
                lambda y: optimize.rosen(y), x).x)(xs)),
                          lambda: _block(sjit(xs))),
            "scipy": (lambda: so.minimize(so.rosen, x0, jac=so.rosen_der),
                      lambda: so.minimize(so.rosen, x0, jac=so.rosen_der)),
            "jax.scipy": (lambda: jax.jit(lambda x: jminimize(
                jrosen, x, method="BFGS").x)(xj).block_until_ready(),
                lambda: jfun(xj).block_until_ready()),
        }
        if optx is not None:
            solver = optx.BFGS(rtol=1e-8, atol=1e-8)
            ofun = jax.jit(lambda x: optx.minimise(lambda y, _: jrosen(y), solver, x,
                                                   max_steps=10000, throw=False).value)
            runners["optimistix"] = (
                lambda: jax.jit(lambda x: optx.minimise(
                    lambda y, _: jrosen(y), solver, x, max_steps=10000,
                    throw=False).value)(xj).block_until_ready(),
                lambda: ofun(xj).block_until_ready())
        bench("BFGS", n, runners)
        bench("L-BFGS-B", n, {
            "sciax": (lambda: _block(optimize.minimize(
                lambda x: optimize.rosen(x), xs, method="L-BFGS-B")),
                lambda: _block(optimize.minimize(optimize.rosen, xs,
                                                 method="L-BFGS-B"))),
            "scipy": (lambda: so.minimize(so.rosen, x0, jac=so.rosen_der,
                                          method="L-BFGS-B"),
                      lambda: so.minimize(so.rosen, x0, jac=so.rosen_der,
                                          method="L-BFGS-B")),
        })
    x0 = _x0(100)
    xs = snp.asarray(x0)
    bench("Newton-CG", 100, {
        "sciax": (lambda: _block(optimize.minimize(lambda x: optimize.rosen(x), xs,
                                                   method="Newton-CG")),
                  lambda: _block(optimize.minimize(optimize.rosen, xs,
                                                   method="Newton-CG"))),
        "scipy": (lambda: so.minimize(so.rosen, x0, jac=so.rosen_der,
                                      hessp=so.rosen_hess_prod, method="Newton-CG"),
                  lambda: so.minimize(so.rosen, x0, jac=so.rosen_der,
                                      hessp=so.rosen_hess_prod, method="Newton-CG")),
    })
    bench("trust-exact", 100, {
        "sciax": (lambda: _block(optimize.minimize(lambda x: optimize.rosen(x), xs,
                                                   method="trust-exact")),
                  lambda: _block(optimize.minimize(optimize.rosen, xs,
                                                   method="trust-exact"))),
        "scipy": (lambda: so.minimize(so.rosen, x0, jac=so.rosen_der,
                                      hess=so.rosen_hess, method="trust-exact"),
                  lambda: so.minimize(so.rosen, x0, jac=so.rosen_der,
                                      hess=so.rosen_hess, method="trust-exact")),
    })

    # dual annealing on 10-D Rastrigin (SciPy's docstring example), a new seed
    # each call (the program is compiled once for the function)
    def rast(x):
        return 10.0 * x.shape[0] + snp.sum(x * x - 10.0 * snp.cos(2 * np.pi * x))

    def rast_np(x):
        return 10.0 * x.size + np.sum(x * x - 10.0 * np.cos(2 * np.pi * x))

    box, seeds = [(-5.12, 5.12)] * 10, iter(range(1, 10 ** 6))
    bench("dual_annealing", 10, {
        "sciax": (lambda: _block(optimize.dual_annealing(lambda x: rast(x), box, seed=0)),
                  lambda: _block(optimize.dual_annealing(rast, box, seed=next(seeds)))),
        "scipy": (lambda: so.dual_annealing(rast_np, box, rng=0),
                  lambda: so.dual_annealing(rast_np, box, rng=next(seeds))),
    })

    # DIRECT-L on Hartmann 6 (Dixon and Szego), SciPy's default options
    a6 = np.array([[10.0, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14],
                   [3, 3.5, 1.7, 10, 17, 8], [17, 8, 0.05, 10, 0.1, 14]])
    p6 = 1e-4 * np.array([[1312.0, 1696, 5569, 124, 8283, 5886],
                          [2329, 4135, 8307, 3736, 1004, 9991],
                          [2348, 1451, 3522, 2883, 3047, 6650],
                          [4047, 8828, 8732, 5743, 1091, 381]])
    al = np.array([1.0, 1.2, 3.0, 3.2])

    def h6(x):
        return -snp.sum(al * snp.exp(-snp.sum(a6 * (x - p6) ** 2, axis=1)))

    def h6_np(x):
        return -np.sum(al * np.exp(-np.sum(a6 * (x - p6) ** 2, axis=1)))

    unit = [(0.0, 1.0)] * 6
    bench("direct", 6, {
        "sciax": (lambda: _block(optimize.direct(lambda x: h6(x), unit)),
                  lambda: _block(optimize.direct(h6, unit))),
        "scipy": (lambda: so.direct(h6_np, unit), lambda: so.direct(h6_np, unit)),
    })

    if only is not None and "vmap" not in only:
        _bench_lm(bench, optx, jax, jnp, only)
        for case, n, med, firsts in rows:
            ref = "optimistix" if "optimistix" in med else "scipy"
            print(f"| {case} | {n} | " + " | ".join(
                f"{k} {1e3 * med[k]:.3f} ms ({firsts[k]:.1f} s, "
                f"{med[k] / med[ref]:.2f}x)" for k in med) + " |")
        return
    starts = np.random.default_rng(0).uniform(-2, 2, (nbatch, 10))
    ss, sj = snp.asarray(starts), jnp.asarray(starts)
    sfun = sciax.jit(sciax.vmap(lambda x: optimize.minimize(optimize.rosen, x)))
    jvfun = jax.jit(jax.vmap(lambda x: jminimize(jrosen, x, method="BFGS")))
    runners = {
        "sciax": (lambda: _block(sfun(ss)), lambda: _block(sfun(ss))),
        "jax.scipy": (lambda: jax.block_until_ready(jvfun(sj)),
                      lambda: jax.block_until_ready(jvfun(sj))),
    }
    if optx is not None:
        solver = optx.BFGS(rtol=1e-8, atol=1e-8)
        ovfun = jax.jit(jax.vmap(lambda x: optx.minimise(
            lambda y, _: jrosen(y), solver, x, max_steps=10000, throw=False)))
        runners["optimistix"] = (lambda: jax.block_until_ready(ovfun(sj)),
                                 lambda: jax.block_until_ready(ovfun(sj)))
    bench(f"BFGS vmap x{nbatch}", 10, runners)
    rs = sfun(ss)

    def conv(x):
        return int(np.sum(np.all(np.abs(np.asarray(x) - 1) < 1e-4, 1)))

    line = (f"converged (|x - 1| < 1e-4): sciax {conv(rs.x)} (success "
            f"{int(np.sum(rs.success))}), jax.scipy {conv(jvfun(sj).x)}")
    if optx is not None:
        line += f", optimistix {conv(ovfun(sj).value)}"
    print(line + f" of {nbatch}")
    _bench_lm(bench, optx, jax, jnp, only)
    print()
    for case, n, med, firsts in rows:
        ref = "optimistix" if "optimistix" in med else "scipy"
        print(f"| {case} | {n} | " + " | ".join(
            f"{k} {1e3 * med[k]:.3f} ms ({firsts[k]:.1f} s, {med[k] / med[ref]:.2f}x)"
            for k in med) + " |")


def _bench_lm(bench, optx, jax, jnp, only) -> None:
    """Levenberg-Marquardt rows: NIST Misra1a and MGH09 from NIST's second
    start, sciax (least_squares 'lm', eager and jitted; curve_fit), SciPy
    (MINPACK, finite-difference Jacobian as its default), optimistix."""
    if only is not None and "lm" not in only:
        return
    from tests.optimize.nist_strd import PROBLEMS

    jmodels = {
        "Misra1a": lambda x, b: b[0] * (1 - jnp.exp(-b[1] * x)),
        "MGH09": lambda x, b: b[0] * (x ** 2 + x * b[1]) / (x ** 2 + x * b[2] + b[3]),
    }
    for name, jm in jmodels.items():
        model, model_np, x, y, _, start2, cert = PROBLEMS[name]
        x, y = np.asarray(x, float), np.asarray(y, float)
        p0 = np.asarray(start2, float)
        xs, ys, p0s = snp.asarray(x), snp.asarray(y), snp.asarray(p0)
        npar = p0.shape[0]

        def res(b, x, y):
            return model(x, *[b[i] for i in range(npar)]) - y

        def res_np(b):
            return model_np(x, *b) - y

        sjit = sciax.jit(lambda p: optimize.least_squares(res, p, args=(xs, ys),
                                                          method="lm").x)
        runners = {
            "sciax": (lambda: _block(optimize.least_squares(
                lambda b, x, y: res(b, x, y), p0s, args=(xs, ys), method="lm")),
                lambda: _block(optimize.least_squares(res, p0s, args=(xs, ys),
                                                      method="lm"))),
            "sciax jit": (lambda: _block(sciax.jit(lambda p: optimize.least_squares(
                lambda b, x, y: res(b, x, y), p, args=(xs, ys), method="lm").x)(p0s)),
                lambda: _block(sjit(p0s))),
            "sciax curve_fit": (lambda: _block(optimize.curve_fit(
                lambda x, *b: model(x, *b), xs, ys, p0=p0s)),
                lambda: _block(optimize.curve_fit(model, xs, ys, p0=p0s))),
            "scipy": (lambda: so.least_squares(res_np, p0, method="lm"),
                      lambda: so.least_squares(res_np, p0, method="lm")),
        }
        if optx is not None:
            xj, yj, p0j = jnp.asarray(x), jnp.asarray(y), jnp.asarray(p0)
            solver = optx.LevenbergMarquardt(rtol=1e-8, atol=1e-8)

            def ofn(p, jm=jm):
                return optx.least_squares(lambda b, a: jm(a[0], b) - a[1], solver, p,
                                          args=(xj, yj), max_steps=10000,
                                          throw=False).value

            ojit = jax.jit(ofn)
            runners["optimistix"] = (
                lambda ofn=ofn, p0j=p0j: jax.jit(
                    lambda p: ofn(p) + 0.0)(p0j).block_until_ready(),
                lambda ojit=ojit, p0j=p0j: ojit(p0j).block_until_ready())
        bench(f"lm {name}", npar, runners)
        r = optimize.least_squares(res, p0s, args=(xs, ys), method="lm")
        rs = so.least_squares(res_np, p0, method="lm")
        def err(v, cert=np.asarray(cert)):
            return float(np.max(np.abs(np.asarray(v) - cert) / np.abs(cert)))

        line = (f"  {name}: sciax nfev {int(r.nfev)}, max rel. error {err(r.x):.1e}; "
                f"SciPy nfev {rs.nfev}, {err(rs.x):.1e}")
        if optx is not None:
            line += f"; optimistix {err(ojit(p0j)):.1e}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
