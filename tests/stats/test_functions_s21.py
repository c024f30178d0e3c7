"""sciax.stats' functions of issue 21 (sample statistics, frequency tables,
Bayesian intervals and tests) against SciPy 1.17.

Tolerances: closed-form statistics 1e-12 relative (the same formulas, summed
in another order); p-values 1e-10 relative where SciPy evaluates the same
distribution function; ``expectile`` 1e-10 (SciPy stops a secant iteration,
sciax solves the piecewise-linear equation exactly).  One jitted bundle
checks the jit paths with one compile per bundle.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
import sciax.stats as xs

RTOL = 1e-12
RTOL_P = 1e-10


def _close(got, want, rtol=RTOL, atol=0.0):
    np.testing.assert_allclose(np.asarray(got, dtype=float),
                               np.asarray(want, dtype=float), rtol=rtol, atol=atol)


def _res(got, want, rtol_p=RTOL_P):
    _close(got.statistic, want.statistic, RTOL, 1e-14)
    _close(got.pvalue, want.pvalue, rtol_p, 1e-300)


def _fd(f, x, i, h=1e-6):
    e = np.zeros_like(x)
    e[i] = h
    return (float(f(x + e)) - float(f(x - e))) / (2 * h)


RNG = np.random.default_rng(2121)
X = RNG.normal(1.0, 2.0, size=9)
M = RNG.gamma(2.0, size=(3, 8))
T = np.round(RNG.normal(size=12), 1)   # ties


# --- cumulants, L-moments, expectiles ----------------------------------------------


def test_kstat_kstatvar():
    for n in (1, 2, 3, 4):
        _close(xs.kstat(X, n), ss.kstat(X, n))
        _close(xs.kstat(M, n, axis=1), ss.kstat(M, n, axis=1))
    for n in (1, 2):
        _close(xs.kstatvar(M, n, axis=-1), ss.kstatvar(M, n, axis=-1))
    got = xs.kstat(M, 3, axis=0, keepdims=True)
    _close(got, ss.kstat(M, 3, axis=0, keepdims=True))
    assert got.shape == (1, 8)
    assert xs.kstat(M, 2, keepdims=True).shape == (1, 1)
    with pytest.raises(ValueError, match="1 <= n <= 4"):
        xs.kstat(X, 5)
    with pytest.raises(ValueError, match="n=1 or n=2"):
        xs.kstatvar(X, 3)
    with pytest.raises(ValueError, match="axis"):
        xs.kstat(M, 2, axis=2)
    with pytest.raises(NotImplementedError):
        xs.kstat(X, 2, nan_policy="omit")


def test_kstat_gradient():
    for n in (2, 4):
        g = np.asarray(sciax.grad(lambda v: xs.kstat(v, n))(snp.asarray(X)))
        _close(g[2], _fd(lambda v: ss.kstat(v, n), X, 2), rtol=1e-6)


def test_lmoment():
    _close(xs.lmoment(X), ss.lmoment(X))
    _close(xs.lmoment(M, axis=1), ss.lmoment(M, axis=1))
    _close(xs.lmoment(M, [2, 5], axis=-1, standardize=False),
           ss.lmoment(M, [2, 5], axis=-1, standardize=False))
    _close(xs.lmoment(M, 3, axis=0), ss.lmoment(M, 3, axis=0))
    _close(xs.lmoment(X[:3], [1, 4]), ss.lmoment(X[:3], [1, 4]))  # NaN past n
    _close(xs.lmoment(np.sort(X), sorted=True), ss.lmoment(X))
    with pytest.raises(ValueError, match="positive integers"):
        xs.lmoment(X, 0)


def test_expectile():
    w = RNG.uniform(0.5, 2.0, size=X.shape)
    for alpha in (0.0, 0.1, 0.5, 0.77, 1.0):
        _close(xs.expectile(X, alpha), ss.expectile(X, alpha), rtol=1e-10)
    _close(xs.expectile(X, 0.3, weights=w), ss.expectile(X, 0.3, weights=w),
           rtol=1e-10)
    _close(xs.expectile(M, 0.9), ss.expectile(M, 0.9), rtol=1e-10)
    with pytest.raises(ValueError, match="range"):
        xs.expectile(X, 1.5)
    g = np.asarray(sciax.grad(lambda v: xs.expectile(v, 0.8))(snp.asarray(X)))
    for i in (0, 4):
        _close(g[i], _fd(lambda v: ss.expectile(v, 0.8), X, i), rtol=1e-6)


# --- quantiles ---------------------------------------------------------------------


@pytest.mark.parametrize("method", ["inverted_cdf", "averaged_inverted_cdf",
                                    "closest_observation", "interpolated_inverted_cdf",
                                    "hazen", "weibull", "linear", "median_unbiased",
                                    "normal_unbiased", "harrell-davis", "round_outward",
                                    "round_inward", "round_nearest", "_lower",
                                    "_midpoint", "_higher", "_nearest"])
def test_quantile_methods(method):
    p = np.array([0.0, 0.05, 0.25, 0.5, 0.6, 0.99, 1.0])
    rtol = 1e-10 if method == "harrell-davis" else RTOL
    _close(xs.quantile(X, p, method=method), ss.quantile(X, p, method=method),
           rtol=rtol)
    x8 = np.arange(8.0)  # integer positions: the discontinuous methods' edge cases
    _close(xs.quantile(x8, p, method=method), ss.quantile(x8, p, method=method),
           rtol=rtol, atol=1e-14)


def test_quantile_axes_keepdims_weights():
    p2 = np.array([[0.25, 0.75], [0.5, 1.0], [0.1, 0.2]])
    _close(xs.quantile(M, p2, axis=-1), ss.quantile(M, p2, axis=-1))
    _close(xs.quantile(M, 0.3, axis=1), ss.quantile(M, 0.3, axis=1))
    _close(xs.quantile(M, 0.3, axis=1, keepdims=True),
           ss.quantile(M, 0.3, axis=1, keepdims=True))
    _close(xs.quantile(M, np.array([0.3, 0.8]), axis=None),
           ss.quantile(M, np.array([0.3, 0.8]), axis=None))
    _close(xs.quantile(M.T, p2.T, axis=0), ss.quantile(M.T, p2.T, axis=0))
    w = np.array([1.0, 0.0, 2.0, 3.0, 1.0, 0.0, 1.0, 2.0, 1.0])
    for method in ("linear", "inverted_cdf", "weibull"):
        _close(xs.quantile(X, np.array([0.1, 0.5, 0.9]), method=method, weights=w),
               ss.quantile(X, np.array([0.1, 0.5, 0.9]), method=method, weights=w))
    bad = xs.quantile(np.r_[X, np.nan], np.array([-0.1, 0.5]))
    assert np.all(np.isnan(np.asarray(bad)))
    with pytest.raises(ValueError, match="keepdims"):
        xs.quantile(X, np.array([0.1, 0.5]), keepdims=False)
    with pytest.raises(ValueError, match="method"):
        xs.quantile(X, 0.5, method="bogus")
    with pytest.raises(ValueError, match="axis"):
        xs.quantile(X, 0.5, axis=1)
    with pytest.raises(ValueError, match="weights"):
        xs.quantile(X, 0.5, method="harrell-davis", weights=w)


def test_quantile_gradient():
    g = np.asarray(sciax.grad(lambda v: xs.quantile(v, 0.37, method="hazen"))(
        snp.asarray(X)))
    for i in range(len(X)):
        _close(g[i], _fd(lambda v: ss.quantile(v, 0.37, method="hazen"), X, i),
               rtol=1e-6, atol=1e-9)


# --- ties, trimming, transforms, frequencies ---------------------------------------


def test_tiecorrect_trim_obrien():
    r = ss.rankdata(T)
    _close(xs.tiecorrect(r), ss.tiecorrect(r))
    _close(xs.tiecorrect(np.arange(5.0)), 1.0)
    _close(xs.trimboth(X, 0.2), np.sort(ss.trimboth(X, 0.2)))
    _close(xs.trimboth(M, 0.25, axis=1), np.sort(ss.trimboth(M, 0.25, axis=1), axis=1))
    _close(xs.trim1(X, 0.3), np.sort(ss.trim1(X, 0.3)))
    _close(xs.trim1(M, 0.3, tail="left", axis=None),
           np.sort(ss.trim1(M, 0.3, tail="left", axis=None)))
    with pytest.raises(ValueError, match="too big"):
        xs.trimboth(X, 0.6)
    with pytest.raises(ValueError, match="tail"):
        xs.trim1(X, 0.3, tail="middle")
    _close(xs.obrientransform(X[:5], X[4:], X[1:6]),
           ss.obrientransform(X[:5], X[4:], X[1:6]))
    ragged = xs.obrientransform(X[:5], X[5:])
    want = ss.obrientransform(X[:5], X[5:])
    for g, w in zip(ragged, want):
        _close(g, w)


def test_cumfreq_relfreq_sigmaclip():
    for kw in (dict(), dict(numbins=4), dict(numbins=5, defaultreallimits=(-1, 3)),
               dict(numbins=3, weights=np.arange(9.0))):
        for got, want in zip(xs.cumfreq(X, **kw), ss.cumfreq(X, **kw)):
            _close(got, want)
        for got, want in zip(xs.relfreq(X, **kw), ss.relfreq(X, **kw)):
            _close(got, want)
    for got, want in zip(xs.relfreq(M, 4), ss.relfreq(M, 4)):
        _close(got, want)
    x = np.r_[RNG.normal(size=40), 9.0, -7.0, 5.0]
    for lo, hi in ((4.0, 4.0), (2.0, 1.5), (1.0, 1.0)):
        for got, want in zip(xs.sigmaclip(x, lo, hi), ss.sigmaclip(x, lo, hi)):
            _close(got, want)
    with pytest.raises(TypeError, match="concrete"):
        sciax.jit(lambda v: xs.sigmaclip(v).clipped)(x)


def test_bayes_mvs_mvsdist():
    for data in (X, M):
        got, want = xs.bayes_mvs(data, alpha=0.8), ss.bayes_mvs(data, alpha=0.8)
        for g, w in zip(got, want):
            _close(g.statistic, w.statistic, 1e-12)
            _close(g.minmax, w.minmax, 1e-10)
    big = RNG.normal(size=1200)
    for g, w in zip(xs.mvsdist(big), ss.mvsdist(big)):
        _close(g.mean(), w.mean())
        _close(g.std(), w.std())
    with pytest.raises(ValueError, match="alpha"):
        xs.bayes_mvs(X, alpha=1.0)
    with pytest.raises(ValueError, match="2 data-points"):
        xs.mvsdist([1.0])


# --- jit -----------------------------------------------------------------------------


def _bundle1(x, m):
    return dict(k=xs.kstat(x, 3), kv=xs.kstatvar(m, 2, axis=1),
                lm=xs.lmoment(m, axis=1), ex=xs.expectile(x, 0.3),
                q=xs.quantile(m, snp.array([0.2, 0.9]), axis=-1, method="hazen"),
                tc=xs.tiecorrect(x), tb=xs.trimboth(x, 0.2),
                cf=xs.cumfreq(x, 4), bm=xs.bayes_mvs(x)[0])


def test_jit_bundle1():
    r = sciax.jit(_bundle1)(X, M)
    _close(r["k"], ss.kstat(X, 3))
    _close(r["kv"], ss.kstatvar(M, 2, axis=1))
    _close(r["lm"], ss.lmoment(M, axis=1))
    _close(r["ex"], ss.expectile(X, 0.3), rtol=1e-10)
    _close(r["q"], ss.quantile(M, np.array([0.2, 0.9]), axis=-1, method="hazen"))
    _close(r["tc"], 1.0)
    _close(r["tb"], np.sort(ss.trimboth(X, 0.2)))
    _close(r["cf"].cumcount, ss.cumfreq(X, 4).cumcount)
    _close(r["bm"].minmax, ss.bayes_mvs(X)[0].minmax, 1e-10)
