"""sciax.stats' functions of issue 21 (sample statistics, frequency tables,
Bayesian intervals and tests) against SciPy 1.17.

Tolerances: statistics 1e-12 relative (the same formulas, summed in another
order); p-values 1e-10 relative where SciPy evaluates the same distribution
function or exact table, plus 1e-14 absolute for p-values that are
``1 - cdf`` (Cramer-von Mises: both lose digits to the subtraction);
``expectile`` 1e-10 (SciPy stops a secant iteration, sciax solves the
piecewise-linear equation exactly).

Cost: the default run jits one bundle of the functions whose programs
compile quickly (one compile); those built on incomplete beta, Bessel K or
gamma quantiles (brunnermunzel, cramervonmises, bayes_mvs) take 10-20 s each
to compile or to run eagerly under the suite's jaxpr checks, so they are
checked in the slow run, with the sweeps over methods, alternatives and
shapes.
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
ATOL_P = 1e-14
ALTS = ["two-sided", "less", "greater"]


def _close(got, want, rtol=RTOL, atol=0.0):
    np.testing.assert_allclose(np.asarray(got, dtype=float),
                               np.asarray(want, dtype=float), rtol=rtol, atol=atol)


def _res(got, want, rtol_p=RTOL_P):
    _close(got.statistic, want.statistic, RTOL, 1e-14)
    _close(got.pvalue, want.pvalue, rtol_p, ATOL_P)


def _fd(f, x, i, h=1e-6):
    e = np.zeros_like(x)
    e[i] = h
    return (float(f(x + e)) - float(f(x - e))) / (2 * h)


RNG = np.random.default_rng(2121)
X = RNG.normal(1.0, 2.0, size=9)
M = RNG.gamma(2.0, size=(3, 8))
T = np.round(RNG.normal(size=12), 1)        # ties
A, B, C = RNG.normal(size=(3, 8))
TT = np.round(RNG.normal(size=(3, 9)), 0)   # heavy ties
M3 = RNG.normal(size=(4, 3, 7))
P7 = np.array([0.0, 0.05, 0.25, 0.5, 0.6, 0.99, 1.0])
rankdata_t = ss.rankdata(T)
TABLE = np.array([[27, 25, 14, 7, 0], [7, 14, 18, 35, 12], [1, 3, 2, 7, 17]], float)


# --- default run: one jitted bundle, checked against SciPy -------------------------


def _bundle(x, m, a, b, c, tt):
    return dict(
        k3=xs.kstat(x, 3), k4=xs.kstat(m, 4, axis=1), kv=xs.kstatvar(m, 2, axis=1),
        lm=xs.lmoment(m, axis=1), ex=xs.expectile(x, 0.3),
        q=xs.quantile(m, snp.array([0.2, 0.9]), axis=-1, method="hazen"),
        tc=xs.tiecorrect(rankdata_t), tb=xs.trimboth(x, 0.2),
        ob=xs.obrientransform(a, b, c), cf=xs.cumfreq(x, 4),
        fr=xs.friedmanchisquare(a, b, c), fr_t=xs.friedmanchisquare(*tt),
        mo=xs.mood(a, 2 * b[:6]), mo_t=xs.mood(tt[0], tt[1][:5], alternative="greater"),
        an=xs.ansari(a, 2 * b[:6]), an_t=xs.ansari(tt[0], tt[1][:5], "less"),
        an_odd=xs.ansari(a[:5], 2 * b[:6], "greater"),
        ag=xs.alexandergovern(a, b[:6] + 1, c[:7]),
        xi=xs.chatterjeexi(a, b), xi_c=xs.chatterjeexi(a, b, y_continuous=True),
        med=xs.median_test(a, b, c[:5]), mo_small=xs.mood(a[:1], b[:1]),
        q_nan=xs.quantile(snp.append(x, snp.nan), snp.array([-0.1, 0.5])),
        pp=xs.probplot(x), sd=xs.somersd(tt[0], tt[1], "greater"),
        sd_tab=xs.somersd(snp.asarray(TABLE)), pg=xs.page_trend_test(m),
        c2=xs.cramervonmises_2samp(a, b[:6] + 1.0),
        b2=xs.binned_statistic_2d(a, b, c, "median", bins=(2, 3)))



def test_jit_bundle():
    got = sciax.jit(_bundle)(X, M, A, B, C, TT)
    _close(got["k3"], ss.kstat(X, 3))
    _close(got["k4"], ss.kstat(M, 4, axis=1))
    _close(got["kv"], ss.kstatvar(M, 2, axis=1))
    _close(got["lm"], ss.lmoment(M, axis=1))
    _close(got["ex"], ss.expectile(X, 0.3), 1e-10)
    _close(got["q"], ss.quantile(M, np.array([0.2, 0.9]), axis=-1, method="hazen"))
    _close(got["tc"], ss.tiecorrect(rankdata_t))
    _close(got["tb"], np.sort(ss.trimboth(X, 0.2)))
    _close(got["ob"], ss.obrientransform(A, B, C))
    for g, w in zip(got["cf"], ss.cumfreq(X, 4)):
        _close(g, w)
    _res(got["fr"], ss.friedmanchisquare(A, B, C))
    _res(got["fr_t"], ss.friedmanchisquare(*TT))
    _res(got["mo"], ss.mood(A, 2 * B[:6]))
    _res(got["mo_t"], ss.mood(TT[0], TT[1][:5], alternative="greater"))
    _res(got["an"], ss.ansari(A, 2 * B[:6]))          # exact table
    _res(got["an_t"], ss.ansari(TT[0], TT[1][:5], "less"))  # ties: normal
    _res(got["an_odd"], ss.ansari(A[:5], 2 * B[:6], "greater"))
    _res(got["ag"], ss.alexandergovern(A, B[:6] + 1, C[:7]))
    _res(got["xi"], ss.chatterjeexi(A, B))
    _res(got["xi_c"], ss.chatterjeexi(A, B, y_continuous=True))
    want = ss.median_test(A, B, C[:5])
    _res(got["med"], want)
    _close(got["med"].table, want.table)
    _close(got["med"].median, want.median)
    assert np.isnan(float(got["mo_small"].statistic))  # too few: NaN, as SciPy
    assert np.all(np.isnan(np.asarray(got["q_nan"])))
    (osm, osr), fit = got["pp"]
    (osm_w, osr_w), fit_w = ss.probplot(X)
    _close(osm, osm_w)
    _close(osr, osr_w)
    _close(fit, fit_w)
    _res(got["sd"], ss.somersd(TT[0], TT[1], "greater"))
    assert got["sd"].table is None       # 1-D input: table shape is data-dependent
    _res(got["sd_tab"], ss.somersd(TABLE))
    _res(got["pg"], ss.page_trend_test(M))    # exact
    assert got["pg"].method == "exact"
    _res(got["c2"], ss.cramervonmises_2samp(A, B[:6] + 1.0))   # exact tables
    for g, w in zip(got["b2"], ss.binned_statistic_2d(A, B, C, "median", bins=(2, 3))):
        _close(g, w)


def test_ecdf():
    res, want = xs.ecdf(TT[0]), ss.ecdf(TT[0])
    _close(res.cdf.quantiles, want.cdf.quantiles)
    _close(res.cdf.probabilities, want.cdf.probabilities)
    _close(res.sf.probabilities, want.sf.probabilities)
    pts = np.r_[np.linspace(-3.0, 3.0, 7), TT[0][:3]]
    _close(res.cdf.evaluate(pts), want.cdf.evaluate(pts))
    _close(res.sf.evaluate(pts), want.sf.evaluate(pts))


@pytest.mark.slow  # ~40-50 s: incomplete beta / Bessel K / gamma quantiles, eagerly
def test_eager_special_function_users():
    _res(xs.brunnermunzel(A, B[:6] + 0.5), ss.brunnermunzel(A, B[:6] + 0.5))
    _res(xs.cramervonmises(3 * B + 1, "norm"), ss.cramervonmises(3 * B + 1, "norm"))
    for g, w in zip(xs.bayes_mvs(X, alpha=0.8), ss.bayes_mvs(X, alpha=0.8)):
        _close(g.statistic, w.statistic)
        _close(g.minmax, w.minmax, 1e-10)
    x = np.r_[RNG.normal(size=40), 9.0, -7.0, 5.0]
    for got, want in zip(xs.sigmaclip(x, 2.0, 1.5), ss.sigmaclip(x, 2.0, 1.5)):
        _close(got, want)


_QMETHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
             "interpolated_inverted_cdf", "hazen", "weibull", "linear",
             "median_unbiased", "normal_unbiased", "round_outward", "round_inward",
             "round_nearest", "_lower", "_midpoint", "_higher", "_nearest"]


def test_quantile_methods():
    # discontinuous methods on integer-valued data (ties of p * n with the
    # lattice: their edge cases), the interpolating ones on X
    x8 = np.arange(8.0)
    lattice = _QMETHODS[:3] + _QMETHODS[9:]
    f = sciax.jit(lambda x, y, p: {m: xs.quantile(y if m in lattice else x, p, method=m)
                                   for m in _QMETHODS})
    got = f(X, x8, P7)
    for m in _QMETHODS:
        data = x8 if m in lattice else X
        _close(got[m], ss.quantile(data, P7, method=m), atol=1e-14)


def test_gradients():
    # smooth statistics, differentiated under one jit, against central
    # differences of SciPy's own
    grads = sciax.jit(lambda v: (
        sciax.grad(lambda u: xs.kstat(u, 4))(v),
        sciax.grad(lambda u: xs.expectile(u, 0.8))(v),
        sciax.grad(lambda u: xs.quantile(u, 0.37, method="hazen"))(v)))
    gk, ge, gq = (np.asarray(g) for g in grads(snp.asarray(X)))
    _close(gk[2], _fd(lambda v: ss.kstat(v, 4), X, 2), rtol=1e-6)
    for i in (0, 4):
        _close(ge[i], _fd(lambda v: ss.expectile(v, 0.8), X, i), rtol=1e-6)
    for i in range(len(X)):
        _close(gq[i], _fd(lambda v: ss.quantile(v, 0.37, method="hazen"), X, i),
               rtol=1e-6, atol=1e-9)


def test_shapes_and_errors():
    def shape(f, *args):
        return sciax.eval_shape(f, *args)  # traces only: no compile

    assert shape(lambda m: xs.kstat(m, 3, axis=0, keepdims=True), M).shape == (1, 8)
    assert shape(lambda m: xs.kstat(m, 2, keepdims=True), M).shape == (1, 1)
    assert shape(lambda m: xs.lmoment(m, [1, 3], axis=1, keepdims=True),
                 M).shape == (2, 3, 1)
    r = shape(lambda m: xs.friedmanchisquare(*m, axis=-1, keepdims=True), M3)
    assert r.statistic.shape == (3, 1)
    r = shape(lambda a, b: xs.ansari(a, b, axis=0, keepdims=True), M3[0], M3[1])
    assert r.pvalue.shape == (1, 7)
    assert shape(lambda m: xs.quantile(m, snp.array([[0.1], [0.2], [0.3]]), axis=1),
                 M).shape == (3,)
    cases = [
        (ValueError, "1 <= n <= 4", lambda: xs.kstat(X, 5)),
        (ValueError, "n=1 or n=2", lambda: xs.kstatvar(X, 3)),
        (ValueError, "axis", lambda: xs.kstat(M, 2, axis=2)),
        (NotImplementedError, "omit", lambda: xs.kstat(X, 2, nan_policy="omit")),
        (ValueError, "positive integers", lambda: xs.lmoment(X, 0)),
        (ValueError, "range", lambda: xs.expectile(X, 1.5)),
        (ValueError, "keepdims", lambda: xs.quantile(X, np.array([0.1, 0.5]),
                                                     keepdims=False)),
        (ValueError, "method", lambda: xs.quantile(X, 0.5, method="bogus")),
        (ValueError, "axis", lambda: xs.quantile(X, 0.5, axis=1)),
        (ValueError, "weights", lambda: xs.quantile(X, 0.5, method="harrell-davis",
                                                    weights=np.ones(9))),
        (ValueError, "too big", lambda: xs.trimboth(X, 0.6)),
        (ValueError, "tail", lambda: xs.trim1(X, 0.3, tail="middle")),
        (ValueError, "alpha", lambda: xs.bayes_mvs(X, alpha=1.0)),
        (ValueError, "2 data-points", lambda: xs.mvsdist([1.0])),
        (ValueError, "At least 3", lambda: xs.friedmanchisquare(A, B)),
        (ValueError, "same length", lambda: xs.friedmanchisquare(A, B, C[:5])),
        (ValueError, "axis", lambda: xs.mood(A, B, axis=1)),
        (ValueError, "alternative", lambda: xs.ansari(A, B, "bigger")),
        (ValueError, "Not enough", lambda: xs.ansari(A, B[:0])),
        (ValueError, "distribution", lambda: xs.brunnermunzel(A, B,
                                                              distribution="cauchy")),
        (TypeError, "2 or more", lambda: xs.alexandergovern(A)),
        (ValueError, "greater than one", lambda: xs.alexandergovern(A, B[:1])),
        (ValueError, "boolean", lambda: xs.chatterjeexi(A, B, y_continuous=1)),
        (ValueError, "two observations", lambda: xs.cramervonmises(A[:1], "norm")),
        (ValueError, "unknown distribution", lambda: xs.cramervonmises(A, "nrm")),
        (ValueError, "ties", lambda: xs.median_test(A, B, ties="middle")),
        (ValueError, "more than 1", lambda: xs.tukey_hsd(A)),
        (ValueError, "one-dimensional", lambda: xs.tukey_hsd(A, M)),
        (ValueError, "greater than one", lambda: xs.tukey_hsd(A, B[:1])),
        (ValueError, "finite", lambda: xs.tukey_hsd(A, np.r_[B, np.inf])),
        (TypeError, "boolean", lambda: xs.tukey_hsd(A, B, equal_var=1)),
        (ValueError, "not a valid distribution", lambda: xs.probplot(A, dist="nrm")),
        (ValueError, "equal length", lambda: xs.somersd(A, B[:5])),
        (ValueError, "non-negative", lambda: xs.somersd(-TABLE)),
        (ValueError, "integer", lambda: xs.somersd(TABLE + 0.5)),
        (ValueError, "1D or 2D", lambda: xs.somersd(M3)),
        (ValueError, "2d array", lambda: xs.page_trend_test(A)),
        (ValueError, "two or more rows", lambda: xs.page_trend_test(M[:1])),
        (ValueError, "NaNs",
         lambda: xs.page_trend_test(np.stack([M[0], M[1] + np.nan]))),
        (ValueError, "properly ranked", lambda: xs.page_trend_test(M, ranked=True)),
        (ValueError, "predicted_ranks", lambda: xs.page_trend_test(
            M, predicted_ranks=[1, 1, 2, 3, 4, 5, 6, 7])),
        (ValueError, "method", lambda: xs.page_trend_test(M, method="perm")),
        (ValueError, "two observations", lambda: xs.cramervonmises_2samp(A[:1], B)),
        (ValueError, "method", lambda: xs.cramervonmises_2samp(A, B, "perm")),
        (ValueError, "one-dimensional", lambda: xs.ecdf(M)),
        (ValueError, "at least 5", lambda: xs.epps_singleton_2samp(A[:4], B)),
        (ValueError, "at least two samples", lambda: xs.anderson_ksamp([A])),
        (ValueError, "without observations", lambda: xs.anderson_ksamp([A, B[:0]])),
        (ValueError, "variant", lambda: xs.anderson_ksamp([A, B], variant="left")),
        (NotImplementedError, "permutation", lambda: xs.anderson_ksamp(
            [A, B], variant="midrank", method=object())),
        (ValueError, "invalid statistic",
         lambda: xs.binned_statistic_2d(A, B, C, "mode")),
        (NotImplementedError, "callable",
         lambda: xs.binned_statistic_dd(A, B, np.mean)),
        (AttributeError, "must match", lambda: xs.binned_statistic_2d(A, B, C[:5])),
        (AttributeError, "dimension of bins", lambda: xs.binned_statistic_dd(
            np.c_[A, B], C, bins=[2, 3, 4])),
        (ValueError, "start must be <= stop", lambda: xs.binned_statistic_2d(
            A, B, C, range=[(0, 1), (1, 0)])),
        (ValueError, "non-finite", lambda: xs.binned_statistic_2d(np.r_[A[:7], np.inf],
                                                                   B, C)),
        (ValueError, "1d", lambda: xs.epps_singleton_2samp(A, B, t=[[0.4]])),
        (ValueError, "positive", lambda: xs.epps_singleton_2samp(A, B, t=(0.4, -1.0))),
        (TypeError, "concrete",
         lambda: sciax.jit(lambda v: xs.ecdf(v).cdf.quantiles)(X)),
        (TypeError, "concrete", lambda: sciax.jit(
            lambda v: xs.sigmaclip(v).clipped)(X)),
    ]
    for exc, match, fn in cases:
        with pytest.raises(exc, match=match):
            fn()


# --- slow: sweeps ---------------------------------------------------------------------


@pytest.mark.slow  # ~30-40 s: betainc on many shapes
def test_quantile_harrell_davis_axes_weights():
    _close(xs.quantile(X, P7, method="harrell-davis"),
           ss.quantile(X, P7, method="harrell-davis"), 1e-10)
    p2 = np.array([[0.25, 0.75], [0.5, 1.0], [0.1, 0.2]])
    _close(xs.quantile(M, p2, axis=-1), ss.quantile(M, p2, axis=-1))
    _close(xs.quantile(M, 0.3, axis=1), ss.quantile(M, 0.3, axis=1))
    _close(xs.quantile(M, 0.3, axis=1, keepdims=True),
           ss.quantile(M, 0.3, axis=1, keepdims=True))
    _close(xs.quantile(M, np.array([0.3, 0.8]), axis=None),
           ss.quantile(M, np.array([0.3, 0.8]), axis=None))
    _close(xs.quantile(M.T, p2.T, axis=0), ss.quantile(M.T, p2.T, axis=0))
    w = np.array([1.0, 0.0, 2.0, 3.0, 1.0, 0.0, 1.0, 2.0, 1.0])
    for method in ("linear", "inverted_cdf", "weibull", "closest_observation"):
        p3 = np.array([0.1, 0.5, 0.9])
        _close(xs.quantile(X, p3, method=method, weights=w),
               ss.quantile(X, p3, method=method, weights=w))


@pytest.mark.slow  # ~30 s eagerly
def test_statistics_sweep():
    for n in (1, 2, 3, 4):
        _close(xs.kstat(X, n), ss.kstat(X, n))
        _close(xs.kstat(M, n, axis=1), ss.kstat(M, n, axis=1))
    for n in (1, 2):
        _close(xs.kstatvar(M, n, axis=-1), ss.kstatvar(M, n, axis=-1))
    _close(xs.kstat(M, 3, axis=0, keepdims=True), ss.kstat(M, 3, axis=0, keepdims=True))
    _close(xs.lmoment(X), ss.lmoment(X))
    _close(xs.lmoment(M, 3, axis=0), ss.lmoment(M, 3, axis=0))
    with np.errstate(invalid="ignore"):
        _close(xs.lmoment(X[:3], [1, 4]), ss.lmoment(X[:3], [1, 4]))  # NaN past n
    _close(xs.lmoment(np.sort(X), sorted=True), ss.lmoment(X))
    _close(xs.lmoment(X, [2, 5], standardize=False),
           ss.lmoment(X, [2, 5], standardize=False))
    _close(xs.expectile(X, 0.8, weights=np.arange(9.0)),
           ss.expectile(X, 0.8, weights=np.arange(9.0)), 1e-10)
    _close(xs.trim1(M, 0.3, tail="left", axis=1),
           np.sort(ss.trim1(M, 0.3, tail="left", axis=1), axis=1))
    for alpha in (0.0, 0.1, 0.5, 0.77, 1.0):
        _close(xs.expectile(X, alpha), ss.expectile(X, alpha), rtol=1e-10)
    _close(xs.expectile(M, 0.9), ss.expectile(M, 0.9), rtol=1e-10)
    _close(xs.tiecorrect(np.arange(5.0)), 1.0)
    _close(xs.trimboth(M, 0.25, axis=1), np.sort(ss.trimboth(M, 0.25, axis=1), axis=1))
    _close(xs.trim1(X, 0.3), np.sort(ss.trim1(X, 0.3)))
    for g, w in zip(xs.obrientransform(X[:5], X[5:]), ss.obrientransform(X[:5], X[5:])):
        _close(g, w)
    for kw in (dict(), dict(numbins=5, defaultreallimits=(-1, 3)),
               dict(numbins=3, weights=np.arange(9.0))):
        for got, want in zip(xs.cumfreq(X, **kw), ss.cumfreq(X, **kw)):
            _close(got, want)
        for got, want in zip(xs.relfreq(X, **kw), ss.relfreq(X, **kw)):
            _close(got, want)
    for got, want in zip(xs.relfreq(M, 4), ss.relfreq(M, 4)):
        _close(got, want)
    x = np.r_[RNG.normal(size=40), 9.0, -7.0, 5.0]
    for lo, hi in ((4.0, 4.0), (1.0, 1.0)):
        for got, want in zip(xs.sigmaclip(x, lo, hi), ss.sigmaclip(x, lo, hi)):
            _close(got, want)
    for g, w in zip(xs.bayes_mvs(M), ss.bayes_mvs(M)):
        _close(g.statistic, w.statistic)
        _close(g.minmax, w.minmax, 1e-10)
    big = RNG.normal(size=1200)
    for g, w in zip(xs.mvsdist(big), ss.mvsdist(big)):
        _close(g.mean(), w.mean())
        _close(g.std(), w.std())


@pytest.mark.slow  # ~70-140 s eagerly: every alternative, tie pattern and shape
def test_tests_sweep():
    for alt in ALTS:
        _res(xs.brunnermunzel(A, B[:6] + 0.5, alt),
             ss.brunnermunzel(A, B[:6] + 0.5, alt))
        _res(xs.brunnermunzel(TT[0], TT[1][:7], alt, "normal"),
             ss.brunnermunzel(TT[0], TT[1][:7], alt, "normal"))
        _res(xs.mood(A, 2 * B[:6], alternative=alt), ss.mood(A, 2 * B[:6],
                                                             alternative=alt))
        for x, y in ((A, 2 * B[:6]), (A[:5], 2 * B[:6]), (TT[0], TT[1][:5])):
            _res(xs.ansari(x, y, alt), ss.ansari(x, y, alt))
    x60, y57 = RNG.normal(size=60), 1.5 * RNG.normal(size=57)
    _res(xs.ansari(x60, y57), ss.ansari(x60, y57))          # normal approximation
    _res(xs.ansari(x60, y57[:56]), ss.ansari(x60, y57[:56]))
    _res(xs.friedmanchisquare(*M3, axis=-1), ss.friedmanchisquare(*M3, axis=-1))
    _res(xs.alexandergovern(*M3, axis=1), ss.alexandergovern(*M3, axis=1))
    _res(xs.chatterjeexi(M3[0], M3[1], axis=1), ss.chatterjeexi(M3[0], M3[1], axis=1))
    _res(xs.chatterjeexi(A, TT[0][:8]), ss.chatterjeexi(A, TT[0][:8]))
    u = RNG.uniform(size=30)
    _res(xs.cramervonmises(u, "norm"), ss.cramervonmises(u, "norm"))
    big = RNG.normal(size=200)
    _res(xs.cramervonmises(big, "norm"), ss.cramervonmises(big, "norm"))
    _res(xs.cramervonmises(A, "norm", args=(0.2, 2.0)),
         ss.cramervonmises(A, "norm", args=(0.2, 2.0)))
    _res(xs.cramervonmises(A, xs.norm.cdf), ss.cramervonmises(A, ss.norm.cdf))
    _res(xs.cramervonmises(M3, "norm", axis=-1), ss.cramervonmises(M3, "norm", axis=-1))
    for ties in ("below", "above", "ignore"):
        got, want = xs.median_test(A, B, C[:5], ties=ties), ss.median_test(
            A, B, C[:5], ties=ties)
        _res(got, want)
        _close(got.table, want.table)
    _res(xs.median_test(*TT, lambda_="log-likelihood"),
         ss.median_test(*TT, lambda_="log-likelihood"))


@pytest.mark.slow  # ~60-120 s: studentized range integrals, eagerly
def test_tukey_hsd_probplot_somersd_page_sweep():
    groups = [RNG.normal(size=5) + 0.8 * i for i in range(3)] + [RNG.normal(size=7)]
    for ev in (True, False):
        for gs in (groups[:3], groups):
            got, want = xs.tukey_hsd(*gs, equal_var=ev), ss.tukey_hsd(*gs, equal_var=ev)
            _close(got.statistic, want.statistic, atol=1e-15)
            # SciPy integrates the studentized range adaptively (tolerances
            # ~1e-8); the two agree to ~4e-12 on these inputs
            _close(got.pvalue, want.pvalue, 1e-10)
            ci, ci_w = got.confidence_interval(0.9), want.confidence_interval(0.9)
            _close(ci.low, ci_w.low, 1e-10)
            _close(ci.high, ci_w.high, 1e-10)
    (osm, _), fit = xs.probplot(X, sparams=(3.0,), dist="t")
    (osm_w, _), fit_w = ss.probplot(X, sparams=(3.0,), dist="t")
    _close(osm, osm_w)
    _close(fit, fit_w)
    _close(xs.probplot(X, dist=xs.expon, fit=False)[0],
           ss.probplot(X, dist=ss.expon, fit=False)[0], 1e-13)
    xr = RNG.integers(0, 4, size=15).astype(float)
    yr = RNG.integers(0, 5, size=15).astype(float)
    for alt in ALTS:
        got, want = xs.somersd(xr, yr, alt), ss.somersd(xr, yr, alt)
        _res(got, want)
        _close(got.table, want.table)
        _close(got.correlation, want.correlation)
    for shape, kw in [((6, 5), {}), ((3, 4), dict(predicted_ranks=[2, 1, 3, 4])),
                      ((13, 4), {}), ((5, 9), {}), ((5, 4), dict(method="asymptotic")),
                      ((14, 4), dict(method="exact"))]:
        d = RNG.normal(size=shape) + 0.3 * np.arange(shape[1])
        got, want = xs.page_trend_test(d, **kw), ss.page_trend_test(d, **kw)
        _res(got, want)
        assert got.method == want.method
    _res(xs.page_trend_test(TT), ss.page_trend_test(TT))  # ties: exact at floor(L)
    _res(xs.cramervonmises_2samp(TT[0], TT[1][:6]),
         ss.cramervonmises_2samp(TT[0], TT[1][:6]))
    r = ss.rankdata(RNG.normal(size=(5, 4)), axis=1)
    _res(xs.page_trend_test(r, ranked=True), ss.page_trend_test(r, ranked=True))
    with pytest.raises(ValueError, match="above the grand|below the grand"):
        xs.median_test(np.ones(4), np.ones(3))


@pytest.mark.slow  # ~100-200 s: two-sample tests, binned statistics, ECDF intervals
def test_two_sample_binned_ecdf_sweep():
    for nx, ny, method in ((25, 30, "auto"), (7, 6, "asymptotic"), (4, 6, "exact")):
        x, y = RNG.normal(size=nx), RNG.normal(size=ny) + 0.5
        _res(xs.cramervonmises_2samp(x, y, method),
             ss.cramervonmises_2samp(x, y, method))
    for nx, ny, kw in ((8, 7, {}), (30, 26, {}), (6, 9, dict(t=[0.5]))):
        x, y = RNG.normal(size=nx), RNG.standard_t(3, size=ny) + 0.3
        _res(xs.epps_singleton_2samp(x, y, **kw), ss.epps_singleton_2samp(x, y, **kw))
    # three points: the 6x6 covariance of the cos/sin features is ill
    # conditioned (condition numbers 1e2-1e10 over random draws of these
    # sizes, median 2e5), so two LAPACK pseudo-inverses agree to ~cond * eps
    x, y = RNG.normal(size=10), RNG.standard_t(3, size=12) + 0.3
    got, want = (f.epps_singleton_2samp(x, y, t=(0.3, 0.6, 1.1)) for f in (xs, ss))
    _close(got.statistic, want.statistic, 1e-8)
    _close(got.pvalue, want.pvalue, 1e-8)
    assert np.isnan(float(xs.epps_singleton_2samp(np.r_[x, np.inf], y).pvalue))
    x, y, z = RNG.normal(size=(3, 40))
    x[3] = x.max()      # a point on the last edge
    v2 = RNG.normal(size=(2, 40))
    for stat in ("mean", "sum", "count", "std", "median", "min", "max"):
        for g, w in zip(xs.binned_statistic_2d(x, y, v2[0], stat, bins=(3, 4)),
                        ss.binned_statistic_2d(x, y, v2[0], stat, bins=(3, 4))):
            _close(g, w)
        got = xs.binned_statistic_dd(np.c_[x, y, z], v2, stat, bins=3)
        want = ss.binned_statistic_dd(np.c_[x, y, z], v2, stat, bins=3)
        _close(got.statistic, want.statistic)
        _close(got.binnumber, want.binnumber)
    got = xs.binned_statistic_dd(M.T, A, "std", bins=2, expand_binnumbers=True)
    want = ss.binned_statistic_dd(M.T, A, "std", bins=2, expand_binnumbers=True)
    _close(got.statistic, want.statistic)
    _close(got.binnumber, want.binnumber)
    edges = [np.linspace(-2, 2, 5), [-3, 0, 0.5, 3]]
    for g, w in zip(xs.binned_statistic_2d(x, y, v2[0], "mean", bins=edges,
                                           expand_binnumbers=True),
                    ss.binned_statistic_2d(x, y, v2[0], "mean", bins=edges,
                                           expand_binnumbers=True)):
        _close(g, w)
    rng = [(-1, 1), (-2, 2)]
    for g, w in zip(xs.binned_statistic_2d(x, y, None, "count", bins=4, range=rng),
                    ss.binned_statistic_2d(x, y, None, "count", bins=4, range=rng)):
        _close(g, w)
    got, want = (f.binned_statistic_dd(x, y, "mean", bins=4) for f in (xs, ss))
    _close(got.statistic, want.statistic)
    _close(xs.binned_statistic_dd(x, 2 * y, "max",
                                  binned_statistic_result=got).statistic,
           ss.binned_statistic_dd(x, 2 * y, "max",
                                  binned_statistic_result=want).statistic)
    for shift in (0.0, 1.5):
        smp = [RNG.normal(size=8), RNG.normal(size=11) + shift, RNG.normal(size=6)]
        for data in (smp, [np.round(v, 0) for v in smp]):
            for variant in ("midrank", "right", "continuous"):
                _res(xs.anderson_ksamp(data, variant=variant),
                     ss.anderson_ksamp(data, variant=variant))
            with pytest.warns(UserWarning, match="variant"):
                got = xs.anderson_ksamp(data[:2], midrank=False)
            with pytest.warns(UserWarning, match="variant"):
                want = ss.anderson_ksamp(data[:2], midrank=False)
            _res(got, want)
            _close(got.critical_values, want.critical_values)
    m2, n2 = RNG.normal(size=(3, 7)), RNG.normal(size=(3, 5))
    for fn in ("epps_singleton_2samp", "cramervonmises_2samp"):
        _res(getattr(xs, fn)(m2, n2, axis=1), getattr(ss, fn)(m2, n2, axis=1))
    x = RNG.normal(size=10)
    res, want = xs.ecdf(x), ss.ecdf(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        for method in ("linear", "log-log"):
            for kind in ("cdf", "sf"):
                got = getattr(res, kind).confidence_interval(0.9, method=method)
                exp = getattr(want, kind).confidence_interval(0.9, method=method)
                _close(got.low.probabilities, exp.low.probabilities, 1e-12, 1e-15)
                _close(got.high.probabilities, exp.high.probabilities, 1e-12, 1e-15)


@pytest.mark.slow  # ~40-90 s: compiles the betainc/kv/gammaincinv programs
def test_jit_special_function_users_and_cvm_gradient():
    f = sciax.jit(lambda a, b: (xs.brunnermunzel(a, b, "greater"),
                                xs.cramervonmises(a, "norm"), xs.bayes_mvs(b)))
    bm, cvm, bayes = f(A, B)
    _res(bm, ss.brunnermunzel(A, B, "greater"))
    _res(cvm, ss.cramervonmises(A, "norm"))
    for g, w in zip(bayes, ss.bayes_mvs(B)):
        _close(g.minmax, w.minmax, 1e-10)
    stat = lambda v: xs.cramervonmises(v, "norm").statistic  # noqa: E731
    g = np.asarray(sciax.grad(stat)(snp.asarray(A)))
    for i in (0, 5):
        _close(g[i], _fd(lambda v: ss.cramervonmises(v, "norm").statistic, A, i),
               rtol=1e-6)
