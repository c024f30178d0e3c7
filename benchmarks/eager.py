"""Eager ``sciax.numpy`` calls side by side with ``jax.numpy``, in one process.

Run ``python benchmarks/eager.py`` (``--quick`` for a smoke run).  Each case is
one eager call of a common NumPy-style function on a 1000-vector or a 50 x 50
matrix (float64 in both libraries, jax with x64 enabled, both on jaxlib
0.10.2's CPU client).  Results are first checked equal (to 1e-12 relative, or
exactly for integer/bool results), then each case is timed with the two
libraries taking turns (``dispatch.time_per_call``), as microseconds per call.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from dispatch import time_per_call  # noqa: E402


def cases(np_: Any, random: Any, key: Any, put: Callable, sla: Any
          ) -> dict[str, Callable]:
    """The benchmark calls, written once for both libraries' NumPy modules
    (``sla``: their SciPy-style linalg, sciax.linalg or jax.scipy.linalg)."""
    rng = np.random.default_rng(0)
    v = put(rng.standard_normal(1000))
    w = put(rng.standard_normal(1000))
    m = put(rng.standard_normal((50, 50)) + 50 * np.eye(50))
    s = put(rng.standard_normal((50, 50)))
    spd = put(np.asarray(s) @ np.asarray(s).T + 50 * np.eye(50))
    b = put(rng.standard_normal(50))
    idx = put(rng.integers(0, 1000, 100).astype(np.int32))
    e = put(rng.standard_normal((50, 50)) / 50)
    return {
        "linspace(0, 1, 1000)": lambda: np_.linspace(0.0, 1.0, 1000),
        "arange(1000.)": lambda: np_.arange(1000.0),
        "zeros((50, 50))": lambda: np_.zeros((50, 50)),
        "sin(v)": lambda: np_.sin(v),
        "exp(v)": lambda: np_.exp(v),
        "add(v, w)": lambda: np_.add(v, w),
        "v * 2.0 + w": lambda: v * 2.0 + w,
        "mean(v)": lambda: np_.mean(v),
        "std(v)": lambda: np_.std(v),
        "var(m, axis=0)": lambda: np_.var(m, axis=0),
        "sum(m, axis=1)": lambda: np_.sum(m, axis=1),
        "where(v > 0, v, w)": lambda: np_.where(v > 0, v, w),
        "take(v, idx)": lambda: np_.take(v, idx),
        "clip(v, -0.5, 0.5)": lambda: np_.clip(v, -0.5, 0.5),
        "outer(v[:50], w[:50])": lambda: np_.outer(v[:50], w[:50]),
        "cumsum(v)": lambda: np_.cumsum(v),
        "sort(v)": lambda: np_.sort(v),
        "argsort(v)": lambda: np_.argsort(v),
        "concatenate([v, w])": lambda: np_.concatenate([v, w]),
        "stack([v, w])": lambda: np_.stack([v, w]),
        "einsum('ij,j->i', m, b)": lambda: np_.einsum("ij,j->i", m, b),
        "matmul(m, m)": lambda: np_.matmul(m, m),
        "v[10:20]": lambda: v[10:20],
        "v.at[3].set(1.0)": lambda: v.at[3].set(1.0),
        "linalg.norm(v)": lambda: np_.linalg.norm(v),
        "linalg.solve(m, b)": lambda: np_.linalg.solve(m, b),
        "linalg.inv(m)": lambda: np_.linalg.inv(m),
        "linalg.eigh(spd)": lambda: np_.linalg.eigh(spd)[0],
        "fft.fft(v)": lambda: np_.fft.fft(v),
        "random.normal(key, (1000,))": lambda: random.normal(key, (1000,)),
        "scipy.linalg.expm(e)": lambda: sla.expm(e),
        "scipy.linalg.solve(spd, b, pos)": lambda: sla.solve(spd, b, assume_a="pos"),
        "scipy.linalg.cholesky(spd)": lambda: sla.cholesky(spd),
        "scipy.linalg.det(m)": lambda: sla.det(m),
    }


def check_agreement(ours: dict, theirs: dict) -> None:
    for name, fn in ours.items():
        a, b = np.asarray(fn()), np.asarray(theirs[name]())
        exact = not np.issubdtype(a.dtype, np.inexact)
        ok = (a.shape == b.shape and (np.array_equal(a, b) if exact else
                                      np.allclose(a, b, rtol=1e-12, atol=1e-12)))
        if not ok:
            raise SystemExit(f"{name}: sciax and jax disagree: {a.ravel()[:3]} "
                             f"vs {b.ravel()[:3]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--target", type=float, default=0.1,
                        help="seconds per timed loop")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated case prefixes")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.target = 3, 0.02

    import sciax.linalg
    ours = cases(snp, sciax.random, sciax.random.key(0), sciax.device_put,
                 sciax.linalg)
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import jax.scipy.linalg
    theirs = cases(jnp, jax.random, jax.random.key(0), jax.device_put,
                   jax.scipy.linalg)
    if args.only:
        keep = tuple(args.only.split(","))
        ours = {k: f for k, f in ours.items() if k.startswith(keep)}
    check_agreement(ours, theirs)

    print(f"# {datetime.date.today()}  {platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, NumPy {np.__version__}, "
          f"jax {jax.__version__}")
    print(f"# microseconds per eager call, median of {args.repeat} loops of "
          f"~{args.target:g} s, the libraries alternating; float64")
    header = f"{'case':<30}{'sciax':>10}{'jax':>10}{'sciax/jax':>11}"
    print(header)
    print("-" * len(header))
    logs = []
    for name, fn in ours.items():
        t_ours, t_jax = time_per_call([fn, theirs[name]], repeat=args.repeat,
                                      target_s=args.target)
        logs.append(math.log(t_ours / t_jax))
        print(f"{name:<30}{t_ours:10.1f}{t_jax:10.1f}{t_ours / t_jax:10.2f}x",
              flush=True)
    print(f"\ngeometric mean sciax/jax: {math.exp(sum(logs) / len(logs)):.2f}x "
          f"over {len(logs)} calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
