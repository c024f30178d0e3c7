"""The session-24 functions of ``_functions_s24.py`` (MonteCarloMethod,
BootstrapMethod, spearmanrho) against SciPy.

spearmanrho's statistic and default p-value are deterministic: 1e-12
against SciPy's (slow: the p-value's incomplete beta compiles for seconds;
the doctest is the default run's check).  The permutation and Monte Carlo
p-values cannot share
SciPy's random streams: they are checked against the exact null's p-value
within 0.04 (2000 resamples: a standard error below 0.011, and SciPy's own
estimates at 20000 spread by 0.02 on these data).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
import scipy.stats as ss

import sciax.numpy as snp
from sciax import stats


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 20))
    return x, x + 2.0 * rng.normal(size=(3, 20))


@pytest.mark.slow
def test_spearmanrho():
    x, y = _data()
    y[1, 4] = y[1, 7]                        # a tie
    got = stats.spearmanrho(x, y, axis=1)
    want = ss.spearmanrho(x, y, axis=1)
    np.testing.assert_allclose(np.asarray(got.statistic), want.statistic, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(got.pvalue), want.pvalue, rtol=1e-12)
    got = stats.spearmanrho(x.T, y.T, keepdims=True)
    want = ss.spearmanrho(x.T, y.T, keepdims=True)
    assert got.statistic.shape == want.statistic.shape
    x2 = x.copy()
    x2[0, 3] = np.nan
    got = stats.spearmanrho(x2, y, axis=1)
    assert np.isnan(got.statistic[0]) and np.isfinite(got.statistic[1])
    with pytest.raises(ValueError, match="nan"):
        stats.spearmanrho(x2, y, axis=1, nan_policy="raise")
    with pytest.raises(ValueError, match="method"):
        stats.spearmanrho(x, y, axis=1, method="permutation")


def test_method_objects():
    m = stats.MonteCarloMethod(n_resamples=99, rng=3)
    assert m._asdict() == dict(n_resamples=99, batch=None, rvs=None, rng=3)
    b = stats.BootstrapMethod(method="basic", rng=2)
    assert b.method == "basic" and b.n_resamples == ss.BootstrapMethod().n_resamples
    with pytest.raises(ValueError, match="method"):
        stats.BootstrapMethod(method="bogus")
    with pytest.raises(ValueError, match="not both"):
        stats.BootstrapMethod(random_state=1, rng=2)


@pytest.mark.slow
def test_spearmanrho_resampled():
    x, y = _data()
    for alt in ("less", "greater"):
        got = stats.spearmanrho(x, y, axis=1, alternative=alt)
        want = ss.spearmanrho(x, y, axis=1, alternative=alt)
        np.testing.assert_allclose(np.asarray(got.pvalue), want.pvalue, rtol=1e-12)
    exact = ss.spearmanrho(x, y, axis=1).pvalue
    for method in (stats.PermutationMethod(n_resamples=2000, rng=1),
                   stats.MonteCarloMethod(n_resamples=2000, rng=1)):
        got = stats.spearmanrho(x, y, axis=1, method=method)
        np.testing.assert_allclose(np.asarray(got.pvalue), exact, atol=0.04)
        np.testing.assert_allclose(np.asarray(got.statistic),
                                   ss.spearmanrho(x, y, axis=1).statistic, rtol=1e-12)


def test_censored_data():
    """Constructors, counts and repr as SciPy's (host data)."""
    for make in (lambda m: m.CensoredData.right_censored([1.0, 2.0, 3.0], [0, 1, 0]),
                 lambda m: m.CensoredData.left_censored([1.0, 2.0, 3.0], [1, 0, 0]),
                 lambda m: m.CensoredData.interval_censored([1.0, 2.0, -np.inf, 4.0],
                                                           [1.0, 3.0, 4.0, np.inf]),
                 lambda m: m.CensoredData([0.5], right=[2.0], interval=[[1.0, 2.0]])):
        got, want = make(stats), make(ss)
        assert repr(got) == repr(want)
        assert len(got) == len(want) and got.num_censored() == want.num_censored()
    with pytest.raises(ValueError, match="nan"):
        stats.CensoredData([1.0, np.nan])


@pytest.mark.slow
def test_logrank():
    """Against SciPy's on tied, right-censored samples (1e-12), every
    alternative, and plain arrays."""
    rng = np.random.default_rng(0)
    a = np.round(rng.exponential(size=30), 1)
    b = np.round(rng.exponential(1.5, size=25), 1)
    ca, cb = rng.random(30) < 0.3, rng.random(25) < 0.2
    for alt in ("two-sided", "less", "greater"):
        got = stats.logrank(stats.CensoredData.right_censored(a, ca),
                            stats.CensoredData.right_censored(b, cb), alternative=alt)
        want = ss.logrank(ss.CensoredData.right_censored(a, ca),
                          ss.CensoredData.right_censored(b, cb), alternative=alt)
        np.testing.assert_allclose([float(got.statistic), float(got.pvalue)],
                                   [want.statistic, want.pvalue], rtol=1e-12)
    got, want = stats.logrank(a, b), ss.logrank(a, b)
    np.testing.assert_allclose(float(got.statistic), want.statistic, rtol=1e-12)
    with pytest.raises(ValueError, match="right-censored"):
        stats.logrank(stats.CensoredData(left=[1.0]), b)


def _ztest1(x, axis=-1):
    return 2 * stats.norm.sf(abs(np.sqrt(x.shape[axis]) * snp.mean(x, axis=axis)))


def _ztest2(x, y, axis=-1):
    se = np.sqrt(1.0 / x.shape[axis] + 1.0 / y.shape[axis])
    return 2 * stats.norm.sf(abs(snp.mean(x, axis=axis) - snp.mean(y, axis=axis)) / se)


@pytest.mark.slow
def test_power():
    """A one-sample z test's power against the exact normal value
    (2000 resamples: standard error 0.011, checked within 0.035); shapes of
    a two-sample, two-level, broadcast call as SciPy's."""
    rvs = functools.partial(stats.norm.rvs, loc=0.5)
    res = stats.power(_ztest1, rvs, 20, significance=0.05, n_resamples=2000,
                      random_state=0)
    shift = 0.5 * np.sqrt(20)
    zc = ss.norm.ppf(0.975)
    exact = ss.norm.cdf(shift - zc) + ss.norm.cdf(-shift - zc)
    assert abs(float(res.power) - exact) < 0.035
    two = (stats.norm.rvs, functools.partial(stats.norm.rvs, loc=0.8))
    got = stats.power(_ztest2, two, (np.array([10, 20]), 15),
                      significance=np.array([0.01, 0.05]), n_resamples=20,
                      random_state=1)
    want = ss.power(ss.ttest_ind, (np.random.default_rng(0).normal,) * 2,
                    (np.array([10, 20]), 15), significance=np.array([0.01, 0.05]),
                    n_resamples=20)
    assert got.power.shape == want.power.shape
    assert got.pvalues.shape == want.pvalues.shape
    with pytest.raises(ValueError, match="random_state"):
        stats.power(_ztest1, rvs, 10)
