"""sciax.linalg side by side with SciPy/NumPy and JAX 0.10.2, in one process.

Run ``python benchmarks/linalg.py`` (``--large`` adds n = 2000, ``--quick`` is a
smoke run).  Times ``solve`` (one right-hand side), ``cholesky`` (lower and
SciPy's default upper factor), ``eigh`` and
``svd`` at n = 500 (and 2000), ``grad`` of ``slogdet`` at n = 500, and
``grad`` of ``sum(expm(a)**2)`` at n = 20 (issue 13), all in float64 on
well-conditioned random matrices:

* sciax: ``sciax.jit`` of the ``sciax.linalg`` function (LAPACK through
  jaxlib's FFI kernels);
* JAX: ``jax.jit`` of ``jax.scipy.linalg``/``jax.numpy.linalg`` (the same
  kernels), with ``jax_enable_x64``;
* SciPy/NumPy: ``scipy.linalg`` (its own LAPACK build); the reference for
  grad of slogdet is the closed form ``inv(a).T`` after ``slogdet``; that of
  ``sum(expm(a)**2)`` is the adjoint Frechet derivative
  ``expm_frechet(a.T, 2 expm(a))``.

Each figure is the median over rounds in which the three libraries take
turns, so a change of machine load hits all columns alike; each round waits
for its result, and the order rotates from round to round, so that no library
always runs right after SciPy's (multithreaded OpenBLAS) call.  The script checks that the libraries agree before timing.
JAX is imported after sciax has made its client (it is needed only here).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np
import scipy.linalg as sl

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sciax  # noqa: E402
import sciax.numpy  # noqa: E402
from sciax import linalg  # noqa: E402


def _block(x: Any) -> Any:
    for leaf in sciax.tree.leaves(x):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
    return x


def _cases(n: int, jax: Any) -> list[tuple[str, Callable, Callable, Callable, tuple]]:
    jnp, jsl = jax.numpy, jax.scipy.linalg
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
    spd = a @ a.T + n * np.eye(n)
    b = rng.standard_normal(n)
    return [
        ("solve", sciax.jit(linalg.solve), jax.jit(jsl.solve), sl.solve, (a, b)),
        ("cholesky", sciax.jit(lambda x: linalg.cholesky(x, lower=True)),
         jax.jit(lambda x: jsl.cholesky(x, lower=True)),
         lambda x: sl.cholesky(x, lower=True), (spd,)),
        # SciPy's default factor
        ("cholesky upper", sciax.jit(linalg.cholesky), jax.jit(jsl.cholesky),
         sl.cholesky, (spd,)),
        ("eigh", sciax.jit(linalg.eigh), jax.jit(jnp.linalg.eigh), sl.eigh, (spd,)),
        ("svd", sciax.jit(linalg.svd), jax.jit(jnp.linalg.svd), sl.svd, (a,)),
    ]


def _grad_case(n: int, jax: Any) -> tuple[str, Callable, Callable, Callable, tuple]:
    jnp = jax.numpy
    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)

    def numpy_grad(x: np.ndarray) -> np.ndarray:
        np.linalg.slogdet(x)  # the value, as the others compute it too
        return np.linalg.inv(x).T

    return ("grad slogdet", sciax.jit(sciax.grad(lambda x: linalg.slogdet(x)[1])),
            jax.jit(jax.grad(lambda x: jnp.linalg.slogdet(x)[1])), numpy_grad, (a,))


def _expm_grad_case(jax: Any) -> tuple[str, Callable, Callable, Callable, tuple]:
    jnp, jsl = jax.numpy, jax.scipy.linalg
    rng = np.random.default_rng(2)
    a = rng.standard_normal((20, 20)) / 4

    def scipy_grad(x: np.ndarray) -> np.ndarray:
        return sl.expm_frechet(x.T, 2 * sl.expm(x), compute_expm=False)

    return ("grad sum(expm(a)**2)",
            sciax.jit(sciax.grad(lambda x: sciax.numpy.sum(linalg.expm(x) ** 2))),
            jax.jit(jax.grad(lambda x: jnp.sum(jsl.expm(x) ** 2))), scipy_grad, (a,))


def _agree(name: str, outs: list[Any]) -> None:
    """Compare invariant parts (values, not the signs of vectors)."""
    def key(o: Any) -> np.ndarray:
        if name == "eigh":
            return np.asarray(o[0] if not hasattr(o, "eigenvalues") else o.eigenvalues)
        if name == "svd":
            return np.asarray(o[1] if not hasattr(o, "S") else o.S)
        return np.asarray(o)
    ref = key(outs[2])
    for o in outs[:2]:
        np.testing.assert_allclose(key(o), ref, rtol=1e-7, atol=1e-7 * abs(ref).max(),
                                   err_msg=name)


def _run(case: tuple, rounds: int, budget: float) -> tuple[float, float, float]:
    name, fs, fj, fn, args = case
    outs = [_block(f(*args)) for f in (fs, fj, fn)]  # compile, warm up
    _agree(name, outs)
    times: list[list[float]] = [[], [], []]
    t_end = time.perf_counter() + budget
    fns = (fs, fj, fn)
    for r in range(rounds):
        # the order rotates: a library's call after SciPy's finds OpenBLAS's
        # threads still spinning, which on a machine of few cores slows it
        for i in (r % 3, (r + 1) % 3, (r + 2) % 3):
            t0 = time.perf_counter()
            _block(fns[i](*args))
            times[i].append(time.perf_counter() - t0)
        if r >= 2 and time.perf_counter() > t_end:
            break
    s, j, n = (statistics.median(t) * 1e3 for t in times)
    return s, j, n


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true", help="also n = 2000")
    parser.add_argument("--quick", action="store_true", help="n = 100, few rounds")
    parser.add_argument("--only", default=None,
                        help="comma-separated case-name prefixes, e.g. 'grad'")
    opts = parser.parse_args(argv)
    only = None if opts.only is None else tuple(opts.only.split(","))
    import jax  # after sciax: see benchmarks/README.md
    jax.config.update("jax_enable_x64", True)
    sizes = [100] if opts.quick else [500] + ([2000] if opts.large else [])
    rounds = 3 if opts.quick else 9
    print(f"| case | n | sciax ms | jax ms | SciPy/NumPy ms | sciax/jax | "
          f"sciax/SciPy |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in sizes:
        cases = _cases(n, jax)
        if n == sizes[0]:
            cases += [_grad_case(n, jax), _expm_grad_case(jax)]
        for case in cases:
            if only is not None and not case[0].startswith(only):
                continue
            s, j, ref = _run(case, rounds, budget=20.0 if n >= 2000 else 8.0)
            size = 20 if "expm" in case[0] else n
            print(f"| {case[0]} | {size} | {s:.2f} | {j:.2f} | {ref:.2f} | "
                  f"{s / j:.2f}x | {s / ref:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
