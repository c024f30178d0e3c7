"""Statistical functions against SciPy; resampling against loops at fixed keys."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
from sciax import stats
from sciax.stats import _sf
from sciax.stats._resampling import resample_indices

RNG = np.random.default_rng(0)
A = RNG.normal(size=(20, 3))
B = RNG.normal(size=(20, 3)) + 0.3 * A
P = np.abs(A) + 0.1


def _needs(*names):
    missing = [n for n in names if not _sf.has(n)]
    if missing:
        pytest.skip(f"p-values need sciax.special.{', '.join(missing)}, not merged "
                    "into this branch yet")


def test_descriptive():
    w = RNG.uniform(size=20)
    cases = [
        (stats.moment(A, 3), ss.moment(A, 3)),
        (stats.skew(A), ss.skew(A)), (stats.skew(A, bias=False), ss.skew(A, bias=False)),
        (stats.kurtosis(A), ss.kurtosis(A)),
        (stats.kurtosis(A, fisher=False, bias=False), ss.kurtosis(A, fisher=False,
                                                                  bias=False)),
        (stats.zscore(A), ss.zscore(A)), (stats.sem(A), ss.sem(A)),
        (stats.gmean(P), ss.gmean(P)), (stats.hmean(P), ss.hmean(P)),
        (stats.pmean(P, 1.7), ss.pmean(P, 1.7)),
        (stats.gmean(P[:, 0], weights=w), ss.gmean(P[:, 0], weights=w)),
        (stats.trim_mean(A, 0.1), ss.trim_mean(A, 0.1)),
        (stats.iqr(A, axis=0), ss.iqr(A, axis=0)),
        (stats.iqr(A, scale="normal"), ss.iqr(A, scale="normal")),
        (stats.entropy([0.1, 0.2, 0.7]), ss.entropy([0.1, 0.2, 0.7])),
        (stats.entropy([0.1, 0.2, 0.7], [0.3, 0.3, 0.4], base=2),
         ss.entropy([0.1, 0.2, 0.7], [0.3, 0.3, 0.4], base=2)),
    ]
    for i, (got, want) in enumerate(cases):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, err_msg=str(i))
    d, r = stats.describe(A), ss.describe(A)
    assert d.nobs == r.nobs
    for got, want in zip((d.mean, d.variance, d.skewness, d.kurtosis, *d.minmax),
                         (r.mean, r.variance, r.skewness, r.kurtosis, *r.minmax)):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)


def test_rankdata():
    x = np.array([3.0, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
    for m in ("average", "min", "max", "dense", "ordinal"):
        np.testing.assert_array_equal(stats.rankdata(x, m), ss.rankdata(x, m))
    t = np.round(A * 2)
    np.testing.assert_array_equal(stats.rankdata(t, axis=0), ss.rankdata(t, axis=0))
    # ranks are piecewise constant: their gradient is zero, not NaN
    g = sciax.grad(lambda v: snp.sum(stats.zscore(v) ** 3))(snp.asarray(x))
    assert np.all(np.isfinite(g))


def test_correlation_and_tests():
    _needs("betainc", "gammaincc")
    x, y = A[:, 0], B[:, 0]
    pairs = [(stats.pearsonr(x, y), ss.pearsonr(x, y)),
             (stats.spearmanr(x, y), ss.spearmanr(x, y)),
             (stats.ttest_1samp(A, 0.2), ss.ttest_1samp(A, 0.2)),
             (stats.ttest_rel(x, y), ss.ttest_rel(x, y)),
             (stats.ttest_ind(x, y), ss.ttest_ind(x, y)),
             (stats.ttest_ind(x, y, equal_var=False, alternative="less"),
              ss.ttest_ind(x, y, equal_var=False, alternative="less"))]
    for got, want in pairs:
        np.testing.assert_allclose(got.statistic, want.statistic, rtol=1e-12)
        np.testing.assert_allclose(got.pvalue, want.pvalue, rtol=1e-10)
    lr, lw = stats.linregress(x, y), ss.linregress(x, y)
    for f in ("slope", "intercept", "rvalue", "pvalue", "stderr", "intercept_stderr"):
        np.testing.assert_allclose(getattr(lr, f), getattr(lw, f), rtol=1e-10)
    obs = np.array([16.0, 18, 16, 14, 12, 12])
    for lam in ("pearson", "log-likelihood", "freeman-tukey", "mod-log-likelihood",
                "neyman", "cressie-read", 1.5):
        got, want = stats.power_divergence(obs, lambda_=lam), ss.power_divergence(
            obs, lambda_=lam)
        np.testing.assert_allclose([got.statistic, got.pvalue], [want.statistic,
                                                                 want.pvalue],
                                   rtol=1e-12)
    got = stats.chisquare(obs, obs[::-1], ddof=1)
    want = ss.chisquare(obs, obs[::-1], ddof=1)
    np.testing.assert_allclose([got.statistic, got.pvalue],
                               [want.statistic, want.pvalue], rtol=1e-12)


def test_bootstrap_vmap_equals_loop():
    """The vmapped resamples are exactly those a loop over the same keys draws;
    the percentile interval is numpy's percentile of that distribution."""
    x = snp.asarray(RNG.normal(size=25))
    n = 10000
    res = stats.bootstrap((x,), snp.mean, n_resamples=n, random_state=3,
                          method="percentile")
    keys = sciax.random.split(sciax.random.key(3), n)
    first = [float(snp.mean(x[resample_indices(keys[i], 25)])) for i in range(20)]
    # equal up to the summation order of the batched reduction
    np.testing.assert_allclose(res.bootstrap_distribution[:20], first, rtol=1e-13)
    dist = np.asarray(res.bootstrap_distribution)
    np.testing.assert_allclose(res.confidence_interval,
                               np.percentile(dist, [2.5, 97.5]), rtol=1e-14)
    np.testing.assert_allclose(res.standard_error, np.std(dist, ddof=1), rtol=1e-12)
    # the bootstrap standard error of a mean is ~ std / sqrt(n)
    np.testing.assert_allclose(res.standard_error, np.std(x) / 5.0, rtol=0.05)


def test_resample_indices_multiply_high():
    """bootstrap's indices 2j, 2j + 1 are floor(n h / 2**32) of the high and
    low halves h of the 64-bit word w_j for n <= 2**16, index i floor(n w_i /
    2**64) above (checked in Python integers); the counts of 10^6 draws over
    n = 7 are within 5 standard deviations of uniform."""
    k = sciax.random.key(11)
    for n in (1, 7, 1000, 65536, 100_003):
        m = min(n, 4096)
        if n <= 2**16:
            w = np.asarray(sciax.random.random_bits(k, 64, ((n + 1) // 2,)))
            halves = [h for v in w for h in (int(v) >> 32, int(v) & 0xFFFFFFFF)][:m]
            want = np.array([(h * n) >> 32 for h in halves])
        else:
            w = np.asarray(sciax.random.random_bits(k, 64, (n,)))[:m]
            want = np.array([(int(v) * n) >> 64 for v in w])
        got = np.asarray(resample_indices(k, n))[:m]
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, want)
    idx = np.asarray(sciax.jit(sciax.vmap(lambda kk: resample_indices(kk, 7)))(
        sciax.random.split(k, 1000 * 1000 // 7)))
    counts = np.bincount(idx.ravel(), minlength=7)
    p = 1 / 7
    sd = np.sqrt(idx.size * p * (1 - p))
    assert np.all(np.abs(counts - idx.size * p) < 5 * sd)


@pytest.mark.slow  # a heavy compile (default-run budget): runs in CI's slow step
def test_bootstrap_bca_and_basic():
    """BCa levels from SciPy's formulas evaluated independently (NumPy/SciPy on
    our bootstrap distribution and jackknife)."""
    x = RNG.exponential(size=30)
    stat = lambda v, axis=-1: snp.std(v, axis=axis)  # noqa: E731
    res = stats.bootstrap((x,), stat, n_resamples=2000, random_state=1)
    dist = np.asarray(res.bootstrap_distribution)
    th = np.std(x)
    z0 = ss.norm.ppf(np.mean(dist < th))
    jack = np.array([np.std(np.delete(x, i)) for i in range(30)])
    d = jack.mean() - jack
    acc = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    lv = [ss.norm.cdf(z0 + (z0 + z) / (1 - acc * (z0 + z)))
          for z in ss.norm.ppf([0.025, 0.975])]
    rtol = 1e-12 if _sf.has("ndtri") else 1e-6
    np.testing.assert_allclose(res.confidence_interval,
                               np.percentile(dist, 100 * np.array(lv)), rtol=rtol)
    basic = stats.bootstrap((x,), stat, n_resamples=2000, random_state=1,
                            method="basic")
    lo, hi = np.percentile(dist, [2.5, 97.5])
    np.testing.assert_allclose(basic.confidence_interval, (2 * th - hi, 2 * th - lo),
                               rtol=1e-12)


@pytest.mark.slow  # a heavy compile (default-run budget): runs in CI's slow step
def test_permutation_test():
    x, y = RNG.normal(size=12), RNG.normal(size=15) + 0.8
    stat = lambda a, b: snp.mean(a) - snp.mean(b)  # noqa: E731
    res = stats.permutation_test((x, y), stat, n_resamples=4000, random_state=2)
    ref = ss.permutation_test((x, y), lambda a, b, axis: np.mean(a, axis) - np.mean(
        b, axis), n_resamples=5000, random_state=0)
    np.testing.assert_allclose(res.statistic, ref.statistic, rtol=1e-12)
    # Monte Carlo p-values agree within their sampling error
    assert abs(float(res.pvalue) - ref.pvalue) < 4 * np.sqrt(ref.pvalue / 2000) + 1e-3
    # the null distribution is a loop over the same keys
    keys = sciax.random.split(sciax.random.key(2), 4000)
    pooled = np.concatenate([x, y])
    for i in range(5):
        p = pooled[np.asarray(sciax.random.permutation(keys[i], 27))]
        np.testing.assert_allclose(res.null_distribution[i],
                                   p[:12].mean() - p[12:].mean(), rtol=1e-13)
    paired = stats.permutation_test((x[:10], y[:10]), stat, n_resamples=999,
                                    permutation_type="samples", random_state=0)
    assert 0 < float(paired.pvalue) <= 1
