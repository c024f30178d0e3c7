"""sciax.stats side by side with SciPy and jax.scipy.stats.

Run ``python benchmarks/stats.py`` (``--quick`` for a smoke run).  Measures

* logpdf and cdf of a dozen distributions on 10^6 points: sciax (jitted,
  steady state), SciPy, and ``jax.scipy.stats`` where it has the function;
* ``bootstrap`` of the mean with 10,000 resamples of 1,000 points: sciax
  (one vmapped program) and SciPy (vectorised statistic);
* ``norm.fit`` and ``gamma.fit(floc=0)`` on 10^4 points: sciax and SciPy
  (closed forms on both sides, tens of microseconds: times in microseconds;
  the first call includes sciax's trace and compile).

Timing runs in ``--rounds`` alternating rounds (sciax, SciPy, JAX, then
again), as in ``benchmarks/special.py``: each round takes the median of
``--reps`` calls per library, and a row reports each library's best round
(interference from other jobs only adds time) and the range of the
per-round sciax/JAX ratios.  Each row also reports the largest error of
sciax and of JAX against SciPy, relative to ``max(|SciPy|, 1)``.
``--only expon,cauchy.cdf`` times a subset (and skips bootstrap and fit).
All in float64.  JAX is imported after sciax has created its client.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import scipy.stats as ss  # noqa: E402

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from sciax import stats  # noqa: E402

# (name, shape parameters, a point inside the support to centre x on)
DISTS = [("norm", (), 0.0), ("expon", (), 1.0), ("logistic", (), 0.0),
         ("cauchy", (), 0.0), ("laplace", (), 0.0), ("gumbel_r", (), 0.0),
         ("lognorm", (0.7,), 1.0), ("weibull_min", (1.5,), 1.0),
         ("pareto", (2.5,), 2.0), ("genextreme", (0.2,), 0.0),
         ("gamma", (2.5,), 2.0), ("t", (4.5,), 0.0), ("beta", (2.0, 3.0), 0.4),
         ("chi2", (3.0,), 2.0)]


def _steady(fn, reps):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        if hasattr(out, "block_until_ready"):
            out.block_until_ready()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _rounds(fns, rounds, reps):
    """Each function's best round, the rounds alternating between them.

    A round times every function in turn (the median of ``reps`` calls each);
    interference from other jobs only adds time, so the best round is the
    estimate, and a burst of load during one library's calls does not decide
    a row.  Returns the best times and the list of per-round times."""
    for f in fns:
        if f is not None:
            f()
    per = [[float("nan") if f is None else _steady(f, reps) for f in fns]
           for _ in range(rounds)]
    return [min(p[i] for p in per) for i in range(len(fns))], per


def _err(ours, ref):
    """Largest error relative to max(|ref|, 1) (absolute where |ref| < 1, as
    at the zeros of a logpdf); equal values and shared NaNs count 0."""
    ours, ref = np.asarray(ours, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    same = (ours == ref) | (np.isnan(ours) & np.isnan(ref))
    with np.errstate(invalid="ignore"):  # -inf - -inf where both are -inf
        err = np.where(same, 0.0, np.abs(ours - ref) / np.maximum(np.abs(ref), 1.0))
    return float(np.max(err))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated dist[.method]")
    args = ap.parse_args()
    n = 10_000 if args.quick else 1_000_000
    reps = 2 if args.quick else args.reps
    rounds = 1 if args.quick else max(1, args.rounds)
    keep = set(args.only.split(",")) if args.only else None
    import jax
    import jax.scipy.stats as jst

    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(0)
    print(f"logpdf/cdf on {n} points: ms, best of {rounds} alternating rounds "
          f"(sciax, SciPy, JAX) of the median of {reps}; - = not available; "
          "err = max |f - SciPy| / max(|SciPy|, 1)")
    print(f"{'dist':12s} {'method':7s} {'sciax':>8s} {'scipy':>8s} {'jax':>8s} "
          f"{'vs JAX':>7s} {'per round':>10s} {'err sciax':>10s} {'err JAX':>9s}")
    for name, shapes, centre in DISTS:
        x = centre + np.abs(rng.normal(size=n)) * (0.5 if name == "beta" else 1.0)
        if name == "beta":
            x = np.clip(x, 1e-3, 1 - 1e-3)
        xs = snp.asarray(x)
        for method in ("logpdf", "cdf"):
            if keep is not None and name not in keep and f"{name}.{method}" not in keep:
                continue
            ours = sciax.jit(lambda v, m=method, d=getattr(stats, name): getattr(d, m)(
                v, *shapes))
            ref = getattr(getattr(ss, name), method)(x, *shapes)
            try:
                e_ours = _err(ours(xs), ref)
                f_ours = lambda: ours(xs)  # noqa: E731
            except NotImplementedError:
                e_ours, f_ours = float("nan"), None
            jd = getattr(jst, name, None)
            f_jax, e_jax = None, float("nan")
            if jd is not None and hasattr(jd, method):
                jf = jax.jit(lambda v, m=method, d=jd: getattr(d, m)(v, *shapes))
                xj = jax.numpy.asarray(x)
                e_jax = _err(jf(xj), ref)
                f_jax = lambda: jf(xj)  # noqa: E731
            best, per = _rounds(
                [f_ours, lambda: getattr(getattr(ss, name), method)(x, *shapes), f_jax],
                rounds, reps)
            t_ours, t_sp, t_jax = (t * 1e3 for t in best)
            rr = [p[0] / p[2] for p in per]
            has_jax = t_jax == t_jax and t_ours == t_ours
            print(f"{name:12s} {method:7s} {t_ours:8.2f} {t_sp:8.2f} "
                  + (f"{t_jax:8.2f} {t_ours / t_jax:6.2f}x "
                     f"{min(rr):4.2f}-{max(rr):4.2f}" if has_jax
                     else f"{'-':>8s} {'-':>7s} {'-':>10s}")
                  + f" {e_ours:10.1e} " + ("-" if e_jax != e_jax else f"{e_jax:9.1e}"),
                  flush=True)
    if keep is not None:
        return

    data = rng.normal(size=1000)
    nb = 1000 if args.quick else 10_000
    t0 = time.perf_counter()
    stats.bootstrap((data,), snp.mean, n_resamples=nb, random_state=0,
                    method="percentile")
    t_first = time.perf_counter() - t0
    (t_ours, t_sp), _ = _rounds(
        [lambda: stats.bootstrap((data,), snp.mean, n_resamples=nb, random_state=1,
                                 method="percentile").bootstrap_distribution,
         lambda: ss.bootstrap((data,), np.mean, n_resamples=nb, random_state=0,
                              method="percentile")], rounds, 3)
    print(f"\nbootstrap, {nb} resamples of 1000: sciax {t_ours * 1e3:.1f} ms "
          f"(first call {t_first:.1f} s), SciPy {t_sp * 1e3:.1f} ms, "
          f"speed-up {t_sp / t_ours:.1f}x")

    for name, true in (("norm", (1.0, 2.0)), ("gamma", (2.5, 0.0, 1.5))):
        sample = getattr(ss, name).rvs(*true, size=10_000, random_state=1)
        kw = {"floc": 0.0} if name == "gamma" else {}
        t0 = time.perf_counter()
        est = getattr(stats, name).fit(sample, **kw)
        t_first = time.perf_counter() - t0
        # SciPy's norm.fit and gamma.fit with floc are closed forms (mean and
        # standard deviation; one root of log(a) - digamma(a)), and since
        # session 14 so are ours, inside one jitted program: tens of
        # microseconds, so both print in microseconds
        (t_ours, t_sp), _ = _rounds(
            [lambda: getattr(stats, name).fit(sample, **kw)[0],
             lambda: getattr(ss, name).fit(sample, **kw)], rounds, reps)
        print(f"{name}.fit on 10^4 points: sciax {t_ours * 1e6:.0f} us (first call "
              f"{t_first:.2f} s), SciPy {t_sp * 1e6:.0f} us; estimates "
              f"{np.round([float(v) for v in est], 4)} vs "
              f"{np.round(getattr(ss, name).fit(sample, **kw), 4)}")


if __name__ == "__main__":
    main()
