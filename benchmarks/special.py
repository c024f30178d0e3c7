"""sciax.special side by side with SciPy's ufuncs and jax.scipy.special.

Run ``python benchmarks/special.py`` (``--quick`` for a smoke run on 10^4
points, ``--only gammainc,betainc`` for a subset).  For each function, 10^6
float64 points drawn over a typical range are evaluated by sciax (jitted,
steady state), by SciPy's compiled ufunc, and by ``jax.scipy.special`` where
it has the function (jitted, x64 enabled).  Before timing, every result is
checked against SciPy's: the largest error relative to ``max(|SciPy|,
floor)`` must be within the function's tolerance, or the script stops (the
floor, 1e-300 unless stated, makes the measure absolute near the zeros of
``gammaln`` and ``digamma``, where relative error is ill-conditioned).
JAX's error is reported, not enforced.  Timing runs in ``--rounds``
rounds of ``--reps`` repetitions; each repetition calls every library once,
back to back, in an order rotated from one repetition to the next, so that
the calls compared with each other meet the same load (blocks of five calls
per library let a burst of other jobs land on one library only: on 2 shared
cores, identical erfc programs measured 1.7-5.7x apart that way).  A round
takes each library's median call (at least ``--reps`` calls, more for a
fast row: about 0.1 s of sciax calls, at most 50), and a row reports each
library's best round (interference from other jobs only adds time) and the
range over rounds of the median ratio of sciax's call to the JAX call of
the same repetition.  Ratios are sciax's time over SciPy's and over JAX's
(below 1 is faster).  JAX is imported after sciax
has created its client.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import scipy.special as sp  # noqa: E402

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
import sciax.special as ssp  # noqa: E402

FLOOR = 1e-300   # default floor of the relative-error denominator


def _cases(rng: np.random.Generator, n: int) -> list[tuple]:
    """(name, arguments, tolerance on the relative error vs SciPy[, floor])."""
    u = rng.uniform
    return [
        # zeros at 1 and 2 (gammaln), 1.4616 (digamma): absolute error there
        ("gammaln", (u(0.01, 100.0, n),), 1e-13, 1e-2),
        ("digamma", (u(0.01, 50.0, n),), 1e-13, 1e-2),
        ("erf", (rng.normal(0.0, 2.0, n),), 1e-14),
        ("erfc", (u(-3.0, 25.0, n),), 1e-13),
        ("ndtri", (u(0.0, 1.0, n),), 1e-13),
        ("log_ndtr", (u(-30.0, 8.0, n),), 1e-13),
        ("expit", (rng.normal(0.0, 10.0, n),), 1e-14),
        ("xlogy", (u(0.0, 5.0, n), u(0.0, 5.0, n)), 1e-14),
        ("i0e", (u(-50.0, 50.0, n),), 1e-13),
        ("i1e", (u(-50.0, 50.0, n),), 1e-13),
        ("gammainc", (u(0.1, 20.0, n), u(0.0, 30.0, n)), 1e-12),
        ("betainc", (u(0.1, 20.0, n), u(0.1, 20.0, n), u(0.0, 1.0, n)), 1e-11),
        ("zeta", (u(1.1, 20.0, n), u(0.5, 10.0, n)), 1e-13),
        ("jv", (u(0.0, 10.0, n), u(0.0, 30.0, n)), 1e-9),
        ("kv", (u(0.0, 10.0, n), u(0.01, 30.0, n)), 1e-12),
    ]


def _call_ms(fn) -> float:
    t0 = time.perf_counter()
    out = fn()
    if hasattr(out, "block_until_ready"):
        out.block_until_ready()
    return (time.perf_counter() - t0) * 1e3


def _interleaved(calls: list, reps: int) -> tuple:
    """Each library's median ms over ``reps`` repetitions that call every
    library once in a rotated order, and the median sciax/JAX ratio of the
    calls of one repetition (nan without JAX)."""
    k = len(calls)
    ms = [[] for _ in range(k)]
    for r in range(reps):
        for i in range(k):
            j = (i + r) % k
            ms[j].append(_call_ms(calls[j]))
    med = [statistics.median(m) for m in ms] + [float("nan")] * (3 - k)
    ratio = (statistics.median(a / b for a, b in zip(ms[0], ms[2])) if k == 3
             else float("nan"))
    return (*med, ratio)


def _relerr(ours: np.ndarray, ref: np.ndarray, floor: float = FLOOR) -> float:
    ours, ref = np.asarray(ours, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    same = (ours == ref) | (np.isnan(ours) & np.isnan(ref))
    err = np.abs(ours - ref) / np.maximum(np.abs(ref), floor)
    err = np.where(same, 0.0, err)
    return float(np.max(err)) if err.size else 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    n = 10_000 if args.quick else 1_000_000
    reps = 2 if args.quick else args.reps

    import jax
    import jax.numpy as jnp
    import jax.scipy.special as jsp

    jax.config.update("jax_enable_x64", True)
    cases = _cases(np.random.default_rng(0), n)
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c[0] in keep]

    rounds = 1 if args.quick else max(1, args.rounds)
    print(f"{n} float64 points; ms, best of {rounds} alternating rounds of the "
          f"median of at least {reps} interleaved calls; ratio = sciax / other")
    head = (f"{'function':10s} {'sciax':>9s} {'SciPy':>9s} {'JAX':>9s} "
            f"{'vs SciPy':>9s} {'vs JAX':>8s} {'per round':>11s} {'err sciax':>10s}"
            f" {'err JAX':>9s} {'compile s':>9s}")
    print(head)
    rows = []
    for name, xs, tol, *fl in cases:
        floor = fl[0] if fl else FLOOR
        ref = getattr(sp, name)(*xs)
        ours_fn = sciax.jit(getattr(ssp, name))
        t0 = time.perf_counter()
        ours = np.asarray(ours_fn(*xs))
        t_compile = time.perf_counter() - t0
        err = _relerr(ours, ref, floor)
        if not err <= tol:
            raise SystemExit(f"{name}: sciax differs from SciPy by {err:.2e} "
                             f"relative (tolerance {tol:.0e}); not timing it")
        # time on device arrays, as JAX's below: a NumPy argument would add a
        # host-to-device copy of every input to each call
        xd = [snp.asarray(v) for v in xs]
        ours_fn(*xd).block_until_ready()
        # a few-millisecond row gets more repetitions (about 0.1 s of sciax
        # calls a round): its medians of five swung by 2x with the load
        n_rep = reps if args.quick else max(
            reps, min(50, int(0.1 / max(_call_ms(lambda: ours_fn(*xd)) * 1e-3, 1e-6))))
        jf, err_jax = None, float("nan")
        if hasattr(jsp, name):
            jf = jax.jit(getattr(jsp, name))
            xj = [jnp.asarray(v) for v in xs]
            err_jax = _relerr(np.asarray(jf(*xj)), ref, floor)
        calls = [lambda: ours_fn(*xd), lambda: getattr(sp, name)(*xs)]
        if jf is not None:
            calls.append(lambda: jf(*xj))
        per = []                      # (sciax, SciPy, JAX, sciax/JAX) of each round
        for _ in range(rounds):
            per.append(_interleaved(calls, n_rep))
        t_ours, t_sp = min(p[0] for p in per), min(p[1] for p in per)
        t_jax = float("nan") if jf is None else min(p[2] for p in per)
        rr = [p[3] for p in per]
        rng_s = "-" if jf is None else f"{min(rr):.2f}-{max(rr):.2f}"
        row = (name, t_ours, t_sp, t_jax, t_ours / t_sp, t_ours / t_jax, err,
               err_jax, t_compile, rng_s)
        rows.append(row)
        jax_s = "-" if t_jax != t_jax else f"{t_jax:9.1f}"
        rj_s = "-" if t_jax != t_jax else f"{t_ours / t_jax:7.2f}x"
        ej_s = "-" if err_jax != err_jax else f"{err_jax:9.1e}"
        print(f"{name:10s} {t_ours:9.1f} {t_sp:9.1f} {jax_s:>9s} "
              f"{t_ours / t_sp:8.2f}x {rj_s:>8s} {rng_s:>11s} {err:10.1e} "
              f"{ej_s:>9s} {t_compile:9.1f}", flush=True)

    print("\nMarkdown:")
    print("| function | sciax ms | SciPy ms | JAX ms | sciax/SciPy | sciax/JAX "
          "| sciax/JAX per round | max rel. err. sciax | max rel. err. JAX |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, t_o, t_s, t_j, r_s, r_j, e_o, e_j, _, rng_s in rows:
        def fmt(v, f):
            return "-" if v != v else format(v, f)
        print(f"| {name} | {t_o:.1f} | {t_s:.1f} | {fmt(t_j, '.1f')} | "
              f"{r_s:.2f}x | {fmt(r_j, '.2f')}{'' if r_j != r_j else 'x'} | "
              f"{rng_s} | {e_o:.1e} | {fmt(e_j, '.1e')} |")


if __name__ == "__main__":
    main()
