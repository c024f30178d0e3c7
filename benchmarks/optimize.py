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
  under ``jax.vmap``; the number of converged problems is printed too.

"first call" is trace + compile + one run of a function object not seen
before; "per solve" is the median over rounds in which the libraries take
turns, so a change of machine load hits all columns alike.
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


def _time(f: Callable) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def _first(make: Callable) -> float:
    return _time(make)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    rounds = 3 if opts.quick else 7
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
        firsts = {k: _first(v[0]) for k, v in runners.items()}
        times: dict[str, list] = {k: [] for k in runners}
        for _ in range(rounds):
            for k, v in runners.items():
                times[k].append(_time(v[1]))
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append((case, n, med, firsts))
        line = " | ".join(f"{k} {1e3 * med[k]:.2f} ms (first {firsts[k]:.2f} s)"
                          for k in runners)
        print(f"{case} n={n}: {line}", flush=True)

    for n in (2, 100):
        x0 = _x0(n)
        xs = snp.asarray(x0)
        xj = jnp.asarray(x0)
        jfun = jax.jit(lambda x: jminimize(jrosen, x, method="BFGS").x)
        runners = {
            "sciax": (lambda: _block(optimize.minimize(
                lambda x: optimize.rosen(x), xs)),
                      lambda: _block(optimize.minimize(optimize.rosen, xs))),
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
    print()
    print("| case | n | " + " | ".join(f"{k} ms (first s)" for k in rows[0][2]) + " |")
    for case, n, med, firsts in rows:
        print(f"| {case} | {n} | " + " | ".join(
            f"{1e3 * med[k]:.2f} ({firsts[k]:.1f})" for k in med) + " |")


if __name__ == "__main__":
    main()
