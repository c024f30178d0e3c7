"""sciax.stats side by side with SciPy and jax.scipy.stats.

Run ``python benchmarks/stats.py`` (``--quick`` for a smoke run).  Measures

* logpdf and cdf of a dozen distributions on 10^6 points: sciax (jitted,
  steady state), SciPy, and ``jax.scipy.stats`` where it has the function;
* ``bootstrap`` of the mean with 10,000 resamples of 1,000 points: sciax
  (one vmapped program) and SciPy (vectorised statistic);
* ``norm.fit`` and ``gamma.fit`` on 10^4 points: sciax (BFGS with exact
  gradients) and SciPy.

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


def _steady(fn, repeats):
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        if hasattr(out, "block_until_ready"):
            out.block_until_ready()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 10_000 if args.quick else 1_000_000
    reps = 2 if args.quick else 5
    import jax
    import jax.scipy.stats as jst

    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(0)
    print(f"logpdf/cdf on {n} points (ms, median of {reps}); - = not available")
    print(f"{'dist':12s} {'method':7s} {'sciax':>8s} {'scipy':>8s} {'jax':>8s}")
    for name, shapes, centre in DISTS:
        x = centre + np.abs(rng.normal(size=n)) * (0.5 if name == "beta" else 1.0)
        if name == "beta":
            x = np.clip(x, 1e-3, 1 - 1e-3)
        xs = snp.asarray(x)
        for method in ("logpdf", "cdf"):
            ours = sciax.jit(lambda v, m=method, d=getattr(stats, name): getattr(d, m)(
                v, *shapes))
            try:
                t_ours = _steady(lambda: ours(xs), reps) * 1e3
            except NotImplementedError:
                t_ours = float("nan")
            t_sp = _steady(lambda: getattr(getattr(ss, name), method)(x, *shapes),
                           reps) * 1e3
            jd = getattr(jst, name, None)
            t_jax = float("nan")
            if jd is not None and hasattr(jd, method):
                jf = jax.jit(lambda v, m=method, d=jd: getattr(d, m)(v, *shapes))
                xj = jax.numpy.asarray(x)
                t_jax = _steady(lambda: jf(xj), reps) * 1e3
            print(f"{name:12s} {method:7s} {t_ours:8.2f} {t_sp:8.2f} "
                  + (f"{t_jax:8.2f}" if t_jax == t_jax else f"{'-':>8s}"))

    data = rng.normal(size=1000)
    nb = 1000 if args.quick else 10_000
    t0 = time.perf_counter()
    stats.bootstrap((data,), snp.mean, n_resamples=nb, random_state=0,
                    method="percentile")
    t_first = time.perf_counter() - t0
    t_ours = _steady(lambda: stats.bootstrap((data,), snp.mean, n_resamples=nb,
                                             random_state=1, method="percentile")
                     .bootstrap_distribution, 3)
    t_sp = _steady(lambda: ss.bootstrap((data,), np.mean, n_resamples=nb,
                                        random_state=0, method="percentile"), 3)
    print(f"\nbootstrap, {nb} resamples of 1000: sciax {t_ours * 1e3:.1f} ms "
          f"(first call {t_first:.1f} s), SciPy {t_sp * 1e3:.1f} ms, "
          f"speed-up {t_sp / t_ours:.1f}x")

    for name, true in (("norm", (1.0, 2.0)), ("gamma", (2.5, 0.0, 1.5))):
        sample = getattr(ss, name).rvs(*true, size=10_000, random_state=1)
        kw = {"floc": 0.0} if name == "gamma" else {}
        t0 = time.perf_counter()
        est = getattr(stats, name).fit(sample, **kw)
        t_first = time.perf_counter() - t0
        t_ours = _steady(lambda: getattr(stats, name).fit(sample, **kw)[0], 3)
        t_sp = _steady(lambda: getattr(ss, name).fit(sample, **kw), 3)
        print(f"{name}.fit on 10^4 points: sciax {t_ours * 1e3:.1f} ms (first call "
              f"{t_first:.1f} s), SciPy {t_sp * 1e3:.1f} ms; estimates "
              f"{np.round([float(v) for v in est], 4)} vs "
              f"{np.round(getattr(ss, name).fit(sample, **kw), 4)}")


if __name__ == "__main__":
    main()
