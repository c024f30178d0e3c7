"""Per-call overhead of sciax, side by side with JAX and NumPy, in one process.

Run ``python benchmarks/dispatch.py`` (``--quick`` for a fast smoke run).  JAX
is timed only when the ``bench`` extra (``jax==0.10.2``) is installed; it is
imported *after* sciax has created its client, and with x64 enabled, so both
libraries compute in float64 on the same jaxlib.

What is timed, in microseconds per call (the median over repeats, each repeat
timing a loop of calls and waiting for the last result, as ``timeit`` does):

* ``jit x+1``: a jitted ``x + 1`` on a 0-d array and on a 1000-vector, the
  cost of a cache hit: flatten, look up, execute, wrap the result;
* ``jit 3 leaves``, ``jit 10 leaves``: the same on a tuple of 3 or 10 arrays,
  returning a tuple of as many (``tuple(x + 1 for x in xs)``): the cost of
  flattening and rebuilding pytrees;
* ``eager add``: one op outside jit, ``lax.add(x, x)`` (and ``snp.add`` when
  sciax.numpy has it), which runs a cached one-op executable.

NumPy's column is the same operation done by NumPy, as a floor for overhead.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

# Run from a checkout without installing: make the repository importable.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from sciax import lax  # noqa: E402


def _block(out: Any) -> None:
    if isinstance(out, tuple):
        out = out[-1]
    if hasattr(out, "block_until_ready"):
        out.block_until_ready()


def _loop(fn: Callable[[], Any], number: int) -> float:
    t0 = time.perf_counter()
    for _ in range(number):
        out = fn()
    _block(out)  # wait for the last result: queued work is not hidden
    return time.perf_counter() - t0


def _calibrate(fn: Callable[[], Any], target_s: float) -> int:
    for _ in range(3):  # warm caches: tracing, compiling, first transfers
        _block(fn())
    number = 1
    while (elapsed := _loop(fn, number)) < target_s / 5:
        number *= 4
    return max(1, int(number * target_s / elapsed))


def time_per_call(fns: list[Callable[[], Any]], *, repeat: int, target_s: float,
                  stat: Callable[[list[float]], float] = statistics.median
                  ) -> list[float]:
    """Microseconds per call of each of ``fns``: ``stat`` (the median) over
    ``repeat`` loops.

    Each repeat times one loop of about ``target_s`` seconds per function, the
    functions taking turns, so a change of machine load touches all columns
    alike.  On a loaded machine ``stat=min`` (``--stat min``) estimates the
    uncontended cost: load only ever adds time.
    """
    numbers = [_calibrate(fn, target_s) for fn in fns]
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, number, out in zip(fns, numbers, samples):
            out.append(_loop(fn, number) / number * 1e6)
    return [stat(s) for s in samples]


def _leaf_cases(fn: Callable[[Any], Any], x0: Any, x1: Any
                ) -> dict[str, Callable[[], Any]]:
    """``fn`` on tuples of 3 and 10 leaves, 0-d and 1000-vectors."""
    out = {}
    for n in (3, 10):
        for x, what in ((x0, "0-d"), (x1, "1000-vector")):
            xs = (x,) * n
            out[f"jit {n} leaves, {what}"] = lambda xs=xs: fn(xs)
    return out


def sciax_cases() -> dict[str, Callable[[], Any]]:
    x0 = sciax.device_put(np.float64(1.5))
    x1 = sciax.device_put(np.linspace(0.0, 1.0, 1000))
    add_one = sciax.jit(lambda x: lax.add(x, 1.0))
    add_each = sciax.jit(lambda xs: tuple(lax.add(x, 1.0) for x in xs))
    cases = {
        "jit x+1, 0-d": lambda: add_one(x0),
        "jit x+1, 1000-vector": lambda: add_one(x1),
        **_leaf_cases(add_each, x0, x1),
        "eager lax.add(x, x), 0-d": lambda: lax.add(x0, x0),
        "eager lax.add(x, x), 1000-vector": lambda: lax.add(x1, x1),
    }
    if hasattr(snp, "add"):
        cases["eager numpy add(x, x), 1000-vector"] = lambda: snp.add(x1, x1)
    return cases


def jax_cases() -> dict[str, Callable[[], Any]] | str:
    try:
        import jax
    except ImportError:
        return "jax is not installed (pip install '.[bench]'); its column is skipped"
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    x0 = jax.device_put(np.float64(1.5))
    x1 = jax.device_put(np.linspace(0.0, 1.0, 1000))
    add_one = jax.jit(lambda x: x + 1.0)
    add_each = jax.jit(lambda xs: tuple(x + 1.0 for x in xs))
    return {
        "jit x+1, 0-d": lambda: add_one(x0),
        "jit x+1, 1000-vector": lambda: add_one(x1),
        **_leaf_cases(add_each, x0, x1),
        "eager lax.add(x, x), 0-d": lambda: jax.lax.add(x0, x0),
        "eager lax.add(x, x), 1000-vector": lambda: jax.lax.add(x1, x1),
        "eager numpy add(x, x), 1000-vector": lambda: jnp.add(x1, x1),
    }


def numpy_cases() -> dict[str, Callable[[], Any]]:
    x0 = np.float64(1.5)
    x1 = np.linspace(0.0, 1.0, 1000)
    return {
        "jit x+1, 0-d": lambda: x0 + 1.0,
        "jit x+1, 1000-vector": lambda: x1 + 1.0,
        **_leaf_cases(lambda xs: tuple(x + 1.0 for x in xs), x0, x1),
        "eager lax.add(x, x), 0-d": lambda: np.add(x0, x0),
        "eager lax.add(x, x), 1000-vector": lambda: np.add(x1, x1),
        "eager numpy add(x, x), 1000-vector": lambda: np.add(x1, x1),
    }


def check_agreement(ours: dict, theirs: dict) -> None:
    """Both libraries must compute the same numbers, or the timing means nothing."""
    for name, fn in ours.items():
        if name in theirs:
            a, b = np.asarray(fn()), np.asarray(theirs[name]())
            if a.dtype == object:  # tuples of arrays of different shapes
                a, b = np.stack(fn()), np.stack(theirs[name]())
            if a.dtype != b.dtype or not np.allclose(a, b, rtol=0, atol=0):
                raise SystemExit(f"{name}: sciax gives {a.dtype} {a.ravel()[:3]}, "
                                 f"the reference {b.dtype} {b.ravel()[:3]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed loops per case")
    parser.add_argument("--target", type=float, default=0.2,
                        help="seconds per timed loop")
    parser.add_argument("--quick", action="store_true", help="3 short loops per case")
    parser.add_argument("--no-jax", action="store_true", help="skip the jax column")
    parser.add_argument("--stat", choices=("median", "min"), default="median",
                        help="statistic over the loops (min: for a loaded machine)")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.target = 3, 0.02

    ours = sciax_cases()  # creates sciax's client before jax is imported
    theirs = "skipped (--no-jax)" if args.no_jax else jax_cases()
    ref = numpy_cases()
    check_agreement(ours, ref)
    if isinstance(theirs, dict):
        check_agreement(ours, theirs)
        import jax
        jax_version = jax.__version__
    else:
        print(theirs)
        jax_version = None

    print(f"# {datetime.date.today()}  {platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, NumPy {np.__version__}, "
          f"sciax {sciax.__version__}, jax {jax_version or '-'}")
    print(f"# microseconds per call, {args.stat} of {args.repeat} loops of "
          f"~{args.target:g} s; float64 everywhere")
    header = f"{'case':<38}{'sciax':>9}{'jax':>9}{'numpy':>9}{'sciax/jax':>11}"
    print(header)
    print("-" * len(header))
    worst = 0.0
    for name, fn in ours.items():
        fns = [fn, ref[name]]
        if isinstance(theirs, dict) and name in theirs:
            fns.append(theirs[name])
        t_ours, t_np, *t_jax = time_per_call(
            fns, repeat=args.repeat, target_s=args.target,
            stat=min if args.stat == "min" else statistics.median)
        if t_jax:
            ratio = t_ours / t_jax[0]
            if name.startswith("jit"):
                worst = max(worst, ratio)
            jax_col, ratio_col = f"{t_jax[0]:9.2f}", f"{ratio:10.2f}x"
        else:
            jax_col, ratio_col = f"{'-':>9}", f"{'-':>11}"
        print(f"{name:<38}{t_ours:9.2f}{jax_col}{t_np:9.2f}{ratio_col}", flush=True)
    if worst:
        print(f"\nworst jitted-call ratio sciax/jax: {worst:.2f}x (target: at most 1x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
