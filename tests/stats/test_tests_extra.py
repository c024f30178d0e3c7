"""sciax.stats' two-sample KS, Anderson-Darling, Shapiro-Wilk, Theil-Sen and
Siegel lines, binned statistics, differential entropy and monte_carlo_test,
against SciPy 1.17.

Tolerances: statistics 1e-12 relative (the same formulas, summed in another
order; Anderson-Darling's A^2 = -n - sum(...) cancels about two digits, so
1e-12 still leaves room); p-values 1e-10 relative.  The exact two-sample KS
p-value is the same lattice-path fraction as SciPy's but computed by an
associative scan instead of a sequential loop (observed agreement ~1e-14
relative down to p ~ 1e-15); Shapiro-Wilk uses AS R94's own approximations
as SciPy does, so W and p agree to rounding.  Order statistics (slopes,
medians, bins) are compared exactly or to rounding.  monte_carlo_test is
compared with SciPy's given the same draws (SciPy's ``rvs`` returns them),
which makes the p-value comparison exact.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
import sciax.stats as xs

RTOL_STAT = 1e-12
RTOL_P = 1e-10
ALTS = ["two-sided", "less", "greater"]
slow = pytest.mark.slow


def _first_fast(values):
    """Parameters whose first value runs by default and the rest in the slow
    step (each new size or option is a compile: ~1 s with enable_checks)."""
    return [v if i == 0 else pytest.param(v, marks=slow) for i, v in enumerate(values)]


def _close(got, want, rtol, atol=0.0):
    np.testing.assert_allclose(np.asarray(got, dtype=float),
                               np.asarray(want, dtype=float), rtol=rtol, atol=atol)


def _ks(got, want):
    _close(got.statistic, want.statistic, RTOL_STAT, 1e-15)
    _close(got.pvalue, want.pvalue, RTOL_P, 1e-16)
    _close(got.statistic_location, want.statistic_location, 0)
    np.testing.assert_array_equal(np.asarray(got.statistic_sign), want.statistic_sign)


# --- ks_2samp ---------------------------------------------------------------------


@pytest.mark.parametrize("alt", _first_fast(ALTS))
def test_ks_2samp_small(alt):
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=8), rng.normal(0.5, size=7)
    # 'asymp' is a second program: the slow step's alternatives run it
    methods = ("auto", "exact") if alt == "two-sided" else ("auto", "exact", "asymp")
    for method in methods:
        _ks(xs.ks_2samp(a, b, alt, method), ss.ks_2samp(a, b, alt, method))


@slow
@pytest.mark.parametrize("alt", ALTS)
@pytest.mark.parametrize("sizes", [(10, 10), (13, 29), (40, 60), (30, 45), (50, 50),
                                   (20, 200)])
def test_ks_2samp_sweep(alt, sizes):
    # shifts up to 2 sd reach p ~ 1e-15 (the exact tails' relative accuracy)
    rng = np.random.default_rng(sum(sizes))
    for shift in (0.0, 0.7, 2.0):
        a, b = rng.normal(size=sizes[0]), rng.normal(shift, size=sizes[1])
        # 'exact' is 'auto' at these sizes (test_ks_2samp_small checks both)
        for method in ("auto", "asymp"):
            _ks(xs.ks_2samp(a, b, alt, method), ss.ks_2samp(a, b, alt, method))
            _ks(xs.ks_2samp(b, a, alt, method), ss.ks_2samp(b, a, alt, method))


@slow
def test_ks_2samp_ties_axis_and_keepdims():
    rng = np.random.default_rng(5)
    a = np.round(rng.normal(size=(3, 12)), 1)
    b = np.round(rng.normal(0.4, size=(3, 9)), 1)
    got = xs.ks_2samp(a.T, b.T, axis=0)
    for i in range(3):
        want = ss.ks_2samp(a[i], b[i])
        _close(got.statistic[i], want.statistic, RTOL_STAT)
        _close(got.pvalue[i], want.pvalue, RTOL_P)
        _close(got.statistic_location[i], want.statistic_location, 0)
    kd = xs.ks_2samp(a, b, axis=-1, keepdims=True)
    assert kd.pvalue.shape == (3, 1)


@slow
def test_ks_2samp_fallbacks_as_scipy():
    rng = np.random.default_rng(6)
    # one-sided, unequal sizes, binom(n1 + n2, n1) beyond float64: SciPy warns
    # and uses Hodges' formula; so do we
    a, b = rng.normal(size=600), rng.normal(0.1, size=500)
    with pytest.warns(RuntimeWarning, match="Exact calculation unsuccessful"):
        got = xs.ks_2samp(a, b, "less", "exact")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = ss.ks_2samp(a, b, "less", "exact")
    _ks(got, want)
    # two-sided stays exact at these sizes in both
    _ks(xs.ks_2samp(a, b), ss.ks_2samp(a, b))
    # 'auto' above 10,000 observations is asymptotic
    a, b = rng.normal(size=10001), rng.normal(size=20)
    _ks(xs.ks_2samp(a, b), ss.ks_2samp(a, b))


def test_ks_2samp_errors():
    with pytest.raises(ValueError, match="method"):
        xs.ks_2samp([1.0, 2.0], [3.0, 4.0], method="approx")
    with pytest.raises(ValueError, match="alternative"):
        xs.ks_2samp([1.0, 2.0], [3.0, 4.0], alternative="bigger")


# --- anderson, shapiro ------------------------------------------------------------


@pytest.mark.parametrize("dist", _first_fast(["norm", "expon"]))
def test_anderson(dist):
    rng = np.random.default_rng(7)
    for n in (37,) if dist == "norm" else (5, 37, 200):
        x = rng.normal(size=n) if dist == "norm" else rng.exponential(size=n)
        got = xs.anderson(x, dist)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            want = ss.anderson(x, dist)
        _close(got.statistic, want.statistic, RTOL_STAT)
        np.testing.assert_array_equal(np.asarray(got.critical_values),
                                      want.critical_values)
        np.testing.assert_array_equal(np.asarray(got.significance_level),
                                      want.significance_level)
        gi = xs.anderson(x, dist, method="interpolate")
        wi = ss.anderson(x, dist, method="interpolate")
        _close(gi.pvalue, wi.pvalue, RTOL_STAT)
    with pytest.raises(ValueError):
        xs.anderson(x, "cauchy")


@pytest.mark.parametrize("dist", _first_fast(["gumbel_r", "gumbel", "extreme1",
                                              "logistic"]))
def test_anderson_fitted_families(dist):
    """Gumbel: SciPy's maximum-likelihood fit, the statistic to 1e-12.  Logistic:
    SciPy solves its likelihood equations with fsolve(xtol=1e-5), which sometimes
    stops early or at a negative scale (then its statistic is meaningless); we
    compare with SciPy where its root is a true one, and always check our
    (a, b) against the equations themselves (b > 0, residuals ~ rounding)."""
    from sciax.stats._tests_extra import _logistic_fit
    rng = np.random.default_rng(11)
    draw = {"logistic": rng.logistic, "gumbel_r": rng.gumbel, "gumbel": rng.gumbel,
            "extreme1": rng.gumbel}[dist]
    sign = -1.0 if dist in ("gumbel", "extreme1") else 1.0  # gumbel_l samples
    compared = 0
    for n in (8, 50, 400):
        x = sign * (1.7 * draw(size=n) + 0.3)
        got = xs.anderson(x, dist)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ss.anderson(x, dist)
        np.testing.assert_array_equal(np.asarray(got.critical_values),
                                      want.critical_values)
        np.testing.assert_array_equal(np.asarray(got.significance_level),
                                      want.significance_level)
        if dist != "logistic":
            _close(got.statistic, want.statistic, 1e-12)
            continue
        a, b = (float(v) for v in _logistic_fit(snp.asarray(x)))
        t = (x - a) / b
        assert b > 0
        np.testing.assert_allclose([np.sum(1 / (1 + np.exp(t))) - 0.5 * n,
                                    np.sum(t * np.tanh(-t / 2)) + n], 0.0, atol=1e-9 * n)
        sa, sb = want.fit_result.params
        ta = (x - sa) / sb
        if sb > 0 and abs(np.sum(ta * np.tanh(-ta / 2)) + n) < 1e-3 * n:
            # fsolve's xtol=1e-5 on (a, b): the statistic agrees to ~1e-5
            _close(got.statistic, want.statistic, 1e-4)
            compared += 1
    assert dist != "logistic" or compared >= 1


def test_shapiro_and_theilslopes_default():
    rng = np.random.default_rng(21)
    x = rng.normal(size=11)
    got, want = xs.shapiro(x), ss.shapiro(x)
    _close(got.statistic, want.statistic, RTOL_STAT)
    _close(got.pvalue, want.pvalue, RTOL_P)
    xt = np.round(rng.normal(size=9), 1)
    for g, w in zip(xs.theilslopes(x[:9], xt), ss.theilslopes(x[:9], xt)):
        _close(g, w, RTOL_STAT)


@slow
def test_shapiro_small_sizes():
    rng = np.random.default_rng(8)
    # n = 3 (exact formula), 4-5 and 6-11 (two small-n branches), 12+
    for n in (3, 4, 5, 6, 11, 12, 40):
        x = rng.normal(size=n) ** (1 + n % 2)
        got, want = xs.shapiro(x), ss.shapiro(x)
        _close(got.statistic, want.statistic, RTOL_STAT)
        _close(got.pvalue, want.pvalue, RTOL_P)


@slow
def test_shapiro_sweep():
    rng = np.random.default_rng(9)
    for n in list(range(3, 30)) + [57, 300, 1000, 5000]:
        for x in (rng.normal(size=n), rng.exponential(size=n), rng.uniform(size=n)):
            got, want = xs.shapiro(x), ss.shapiro(x)
            _close(got.statistic, want.statistic, RTOL_STAT)
            _close(got.pvalue, want.pvalue, RTOL_P)
    # n = 3 with W below its minimum 0.75 by rounding, and a zero range
    got = xs.shapiro([1.0, 1.0, 1.0])
    assert float(got.statistic) == 1.0 and float(got.pvalue) == 1.0
    with pytest.raises(ValueError):
        xs.shapiro([1.0, 2.0])


# --- robust lines -----------------------------------------------------------------


@slow  # 3-8 s: many sizes and options
def test_theilslopes_siegelslopes_with_ties():
    rng = np.random.default_rng(10)
    for n in (5, 20):
        x = np.round(rng.normal(size=n), 1)
        y = np.round(2.0 * x + rng.normal(size=n), 1)
        for method in ("separate", "joint"):
            for alpha in (0.95, 0.1):
                got = xs.theilslopes(y, x, alpha, method)
                want = ss.theilslopes(y, x, alpha, method)
                for g, w in zip(got, want):
                    _close(g, w, RTOL_STAT)
        for g, w in zip(xs.theilslopes(y), ss.theilslopes(y)):
            _close(g, w, RTOL_STAT)
        for method in ("hierarchical", "separate"):
            got, want = xs.siegelslopes(y, x, method), ss.siegelslopes(y, x, method)
            for g, w in zip(got, want):
                _close(g, w, RTOL_STAT)


# --- binned_statistic -------------------------------------------------------------

STATS = ["mean", "sum", "count", "std", "median", "min", "max"]


def _binned_equal(got, want):
    np.testing.assert_allclose(np.asarray(got.statistic), want.statistic, rtol=1e-13,
                               equal_nan=True)
    _close(got.bin_edges, want.bin_edges, 1e-15)
    np.testing.assert_array_equal(np.asarray(got.binnumber), want.binnumber)


# the default run: "median" on one case
@pytest.mark.parametrize("statistic", _first_fast(["median"] + STATS))
def test_binned_statistic(statistic):
    rng = np.random.default_rng(11)
    x = rng.uniform(0.0, 3.0, size=50)
    v = rng.normal(size=50)
    x[3] = x.max()  # a tie on the last edge: into the last bin, as SciPy
    cases = [(7, None), (5, (0.5, 2.5)), (np.array([0.0, 0.3, 1.0, 2.2, 3.0]), None)]
    for bins, rng_ in cases[:1] if statistic == "median" else cases:
        _binned_equal(xs.binned_statistic(x, v, statistic, bins, rng_),
                      ss.binned_statistic(x, v, statistic, bins, rng_))


@slow
def test_binned_statistic_several_values_and_edge_rounding():
    rng = np.random.default_rng(12)
    x = np.round(rng.normal(size=40), 1)
    v = rng.normal(size=(2, 40))
    for statistic in STATS:
        _binned_equal(xs.binned_statistic(x, v, statistic, bins=6),
                      ss.binned_statistic(x, v, statistic, bins=6))
        _binned_equal(xs.binned_statistic(x, list(v), statistic, bins=6),
                      ss.binned_statistic(x, list(v), statistic, bins=6))
    # a point past the last edge by less than SciPy's rounding goes in the last bin
    x2 = np.array([0.0, 0.5, 1.0, 1.0 + 1e-9, 1.2])
    _binned_equal(xs.binned_statistic(x2, x2, "count", bins=[0.0, 0.5, 1.0]),
                  ss.binned_statistic(x2, x2, "count", bins=[0.0, 0.5, 1.0]))
    # constant data: edges at +-0.5
    _binned_equal(xs.binned_statistic(np.ones(4), np.arange(4.0), "mean", 3),
                  ss.binned_statistic(np.ones(4), np.arange(4.0), "mean", 3))
    with pytest.raises(NotImplementedError):
        xs.binned_statistic(x, v[0], np.mean)
    with pytest.raises(ValueError):
        xs.binned_statistic(x, v[0], "mode")


# --- differential_entropy ---------------------------------------------------------


@pytest.mark.parametrize("method", _first_fast(["correa", "auto", "vasicek", "van es",
                                                 "ebrahimi"]))
def test_differential_entropy(method):
    rng = np.random.default_rng(13)
    for n in (30,) if method == "correa" else (8, 30):
        x = rng.normal(size=(3, n))
        _close(xs.differential_entropy(x, method=method, axis=-1),
               ss.differential_entropy(x, method=method, axis=-1), RTOL_STAT)
        _close(xs.differential_entropy(x.T, method=method, base=2.0, window_length=3),
               ss.differential_entropy(x.T, method=method, base=2.0, window_length=3),
               RTOL_STAT)
    with pytest.raises(ValueError, match="Window length"):
        xs.differential_entropy(np.arange(6.0), window_length=3)


@slow
def test_differential_entropy_auto_large():
    x = np.random.default_rng(14).exponential(size=1500)  # 'auto' is Vasicek
    _close(xs.differential_entropy(x), ss.differential_entropy(x), RTOL_STAT)


# --- transformations --------------------------------------------------------------


def _all(a, b, x):
    return dict(ks=xs.ks_2samp(a, b), ad=xs.anderson(a), sw=xs.shapiro(a),
                th=xs.theilslopes(a, x), si=xs.siegelslopes(a, x),
                bs=xs.binned_statistic(x, a, "median", bins=4),
                de=xs.differential_entropy(a))


def _scipy_all(a, b, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        ad = ss.anderson(a)
    return dict(ks=ss.ks_2samp(a, b), ad=tuple(ad)[:3], sw=ss.shapiro(a),
                th=ss.theilslopes(a, x), si=ss.siegelslopes(a, x),
                bs=ss.binned_statistic(x, a, "median", bins=4),
                de=ss.differential_entropy(a))


@slow  # 3-5 s: vmaps everything, then compares with SciPy row by row
def test_vmap_matches_scipy_per_row():
    rng = np.random.default_rng(15)
    a, b = rng.normal(size=(4, 12)), rng.normal(0.3, size=(4, 9))
    x = np.round(rng.normal(size=(4, 12)), 1)
    got = sciax.vmap(_all)(a, b, x)
    for i in range(4):
        want = _scipy_all(a[i], b[i], x[i])
        for k in want:
            g = got[k] if k == "de" else tuple(got[k])
            w = want[k] if k == "de" else tuple(want[k])
            for gg, ww in zip(g if k != "de" else [g], w if k != "de" else [w]):
                _close(np.asarray(gg)[i], ww, RTOL_P, 1e-14)


@slow  # 3-8 s: compiles everything twice
def test_jit_matches_eager():
    rng = np.random.default_rng(16)
    a, b, x = rng.normal(size=12), rng.normal(size=9), np.round(rng.normal(size=12), 1)
    got, want = sciax.jit(_all)(a, b, x), _all(a, b, x)
    leaves = sciax.tree_util.tree_leaves
    for g, w in zip(leaves(got), leaves(want)):
        _close(g, w, 1e-14, 1e-15)


@slow  # 3-8 s
def test_gradients_of_smooth_statistics():
    # W, A^2 and the spacing estimators are smooth in the data between ties
    x = snp.asarray(np.random.default_rng(17).normal(size=9))
    for f in (lambda v: xs.shapiro(v).statistic, lambda v: xs.anderson(v).statistic,
              lambda v: xs.differential_entropy(v, method="vasicek")):
        g = np.asarray(sciax.grad(f)(x))
        e = np.zeros(9)
        e[2] = 1e-6
        fd = (float(f(x + e)) - float(f(x - e))) / 2e-6
        _close(g[2], fd, 1e-6, 1e-9)


# --- monte_carlo_test -------------------------------------------------------------


@pytest.mark.parametrize("alt", _first_fast(ALTS))
def test_monte_carlo_test_matches_scipy_given_the_draws(alt):
    x = np.random.default_rng(18).normal(0.3, size=15)
    got = xs.monte_carlo_test(x, xs.norm.rvs, xs.skew, n_resamples=300,
                              alternative=alt, random_state=7)
    draws = np.asarray(xs.norm.rvs(size=(300, 15), random_state=sciax.random.key(7)))
    want = ss.monte_carlo_test(x, lambda size: draws, ss.skew, n_resamples=300,
                               alternative=alt)
    _close(got.statistic, want.statistic, RTOL_STAT)
    _close(got.null_distribution, want.null_distribution, 1e-12, 1e-14)
    _close(got.pvalue, want.pvalue, 1e-15)


@slow
def test_monte_carlo_test_two_samples_vmapped_statistic():
    rng = np.random.default_rng(19)
    x, y = rng.normal(size=15), rng.normal(size=11)
    stat = lambda a, b: snp.mean(a) - snp.mean(b)  # noqa: E731 - no axis: vmapped
    got = xs.monte_carlo_test((x, y), (xs.norm.rvs, functools.partial(xs.norm.rvs, 0.0,
                                                                       2.0)),
                              stat, n_resamples=200, random_state=1)
    k1, k2 = sciax.random.split(sciax.random.key(1), 2)
    d1 = np.asarray(xs.norm.rvs(size=(200, 15), random_state=k1))
    d2 = np.asarray(xs.norm.rvs(0.0, 2.0, size=(200, 11), random_state=k2))
    want = ss.monte_carlo_test((x, y), (lambda size: d1, lambda size: d2),
                               lambda a, b, axis: np.mean(a, axis) - np.mean(b, axis),
                               n_resamples=200)
    _close(got.null_distribution, want.null_distribution, 1e-12, 1e-14)
    _close(got.pvalue, want.pvalue, 1e-15)


@slow
def test_monte_carlo_test_batched_data_vmap_and_jit():
    X = np.random.default_rng(20).normal(size=(3, 15))
    got = xs.monte_carlo_test(X, xs.norm.rvs, xs.skew, n_resamples=200, axis=-1,
                              random_state=2)
    draws = np.asarray(xs.norm.rvs(size=(200, 15), random_state=sciax.random.key(2)))
    want = ss.monte_carlo_test(X, lambda size: draws, ss.skew, n_resamples=200, axis=-1)
    _close(got.pvalue, want.pvalue, 1e-15)
    assert got.null_distribution.shape == want.null_distribution.shape

    def p(d):
        return xs.monte_carlo_test(d, xs.norm.rvs, xs.skew, n_resamples=200,
                                   random_state=2).pvalue

    _close(sciax.vmap(p)(X), want.pvalue, 1e-15)
    _close(sciax.jit(p)(X[0]), want.pvalue[0], 1e-15)


def test_monte_carlo_test_errors():
    with pytest.raises(ValueError, match="random_state"):
        xs.monte_carlo_test([1.0, 2.0, 3.0], xs.norm.rvs, xs.skew)
    with pytest.raises(TypeError):
        xs.monte_carlo_test([1.0, 2.0, 3.0], None, xs.skew, random_state=0)
    with pytest.raises(ValueError, match="n_resamples"):
        xs.monte_carlo_test([1.0, 2.0, 3.0], xs.norm.rvs, xs.skew, n_resamples=0,
                            random_state=0)
