"""sciax.stats' rank, contingency, homogeneity and normality tests and the
added descriptive statistics, against SciPy 1.17.

Tolerances: statistics 1e-12 relative (the same formulas, summed in another
order); p-values 1e-10 relative where SciPy evaluates the same distribution
function (sciax.special's incomplete gamma/beta agree with cephes to ~1e-14
relative; exact tables are exact rationals rounded once).  The default run
jits one function that computes everything on fixed shapes (one compile); the
sweeps over inputs, alternatives and methods run eagerly and are slow.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
import sciax.stats as xs

RTOL_STAT = 1e-12
RTOL_P = 1e-10
ALTS = ["two-sided", "less", "greater"]


def _close(got, want, rtol, atol=0.0):
    np.testing.assert_allclose(np.asarray(got, dtype=float),
                               np.asarray(want, dtype=float), rtol=rtol, atol=atol)


def _res(got, want, rtol_p=RTOL_P, atol_p=0.0):
    _close(got.statistic, want.statistic, RTOL_STAT, 1e-14)
    _close(got.pvalue, want.pvalue, rtol_p, atol_p)


def _data():
    rng = np.random.default_rng(1234)
    a = rng.normal(size=7)                           # small, continuous (exact paths)
    b = rng.normal(0.8, 1.3, size=6)
    c = np.round(rng.normal(0.3, 1.0, size=11), 1)   # ties
    return a, b, c


# --- default run: one compile of everything ----------------------------------------


def _everything(a, b, c):
    return dict(
        mwu=xs.mannwhitneyu(a, b), mwu_ties=xs.mannwhitneyu(a, c),
        wil=xs.wilcoxon(a), wil_ties=xs.wilcoxon(c),
        rs=xs.ranksums(a, b), kw=xs.kruskal(a, b, c), f1=xs.f_oneway(a, b, c),
        lev=xs.levene(a, b, c), bart=xs.bartlett(a, b, c), fl=xs.fligner(a, b, c),
        kt=xs.kendalltau(a, a**3 - 2 * a + np.arange(7.0)),
        sk=xs.skewtest(c), ku=xs.kurtosistest(c), nt=xs.normaltest(c),
        jb=xs.jarque_bera(c), comb=xs.combine_pvalues(xs.norm.cdf(a)),
        fdc=xs.false_discovery_control(xs.norm.cdf(c)),
        tmean=xs.tmean(c, (-0.5, 1.0)), tvar=xs.tvar(c, (-0.5, 1.0)),
        mode=xs.mode(c), mad=xs.median_abs_deviation(c), circ=xs.circmean(c),
        wd=xs.wasserstein_distance(a, c), ed=xs.energy_distance(a, c))


def _core(a, b, c):
    return dict(mwu=xs.mannwhitneyu(a, b), mwu_ties=xs.mannwhitneyu(a, c),
                wil=xs.wilcoxon(a), wil_ties=xs.wilcoxon(c), kw=xs.kruskal(a, b, c),
                lev=xs.levene(a, b, c), kt=xs.kendalltau(a, a**3 - 2 * a + np.arange(7.0)))


@pytest.mark.slow  # 3-8 s: compiles many statistics
def test_jitted_core_matches_scipy():
    # the exact tables, the permutation branch and the 'auto' where()s, jitted
    a, b, c = _data()
    r = sciax.jit(_core)(a, b, c)
    _res(r["mwu"], ss.mannwhitneyu(a, b))
    _res(r["mwu_ties"], ss.mannwhitneyu(a, c))
    _res(r["wil"], ss.wilcoxon(a))
    _res(r["wil_ties"], ss.wilcoxon(c))
    _res(r["kw"], ss.kruskal(a, b, c))
    _res(r["lev"], ss.levene(a, b, c))
    _res(r["kt"], ss.kendalltau(a, a**3 - 2 * a + np.arange(7.0)))


@pytest.mark.slow
def test_jitted_suite_matches_scipy():
    a, b, c = _data()
    r = sciax.jit(_everything)(a, b, c)
    _res(r["mwu"], ss.mannwhitneyu(a, b))
    _res(r["mwu_ties"], ss.mannwhitneyu(a, c))
    _res(r["wil"], ss.wilcoxon(a))
    _res(r["wil_ties"], ss.wilcoxon(c))
    _res(r["rs"], ss.ranksums(a, b))
    _res(r["kw"], ss.kruskal(a, b, c))
    _res(r["f1"], ss.f_oneway(a, b, c))
    _res(r["lev"], ss.levene(a, b, c))
    _res(r["bart"], ss.bartlett(a, b, c))
    _res(r["fl"], ss.fligner(a, b, c))
    _res(r["kt"], ss.kendalltau(a, a**3 - 2 * a + np.arange(7.0)))
    _res(r["sk"], ss.skewtest(c))
    _res(r["ku"], ss.kurtosistest(c))
    _res(r["nt"], ss.normaltest(c))
    _res(r["jb"], ss.jarque_bera(c))
    _res(r["comb"], ss.combine_pvalues(ss.norm.cdf(a)))
    _close(r["fdc"], ss.false_discovery_control(ss.norm.cdf(c)), 1e-12)
    _close(r["tmean"], ss.tmean(c, (-0.5, 1.0)), RTOL_STAT)
    _close(r["tvar"], ss.tvar(c, (-0.5, 1.0)), RTOL_STAT)
    m = ss.mode(c)
    _close(r["mode"].mode, m.mode, 0)
    assert int(r["mode"].count) == m.count
    _close(r["mad"], ss.median_abs_deviation(c), RTOL_STAT)
    _close(r["circ"], ss.circmean(c), RTOL_STAT)
    _close(r["wd"], ss.wasserstein_distance(a, c), RTOL_STAT)
    _close(r["ed"], ss.energy_distance(a, c), RTOL_STAT)


@pytest.mark.slow  # 3-8 s: compiles many statistics
def test_vmap_matches_per_row():
    rng = np.random.default_rng(7)
    x, y = rng.normal(size=(3, 6)), rng.normal(1.0, size=(3, 5))
    f = sciax.jit(sciax.vmap(lambda u, v: (xs.mannwhitneyu(u, v).pvalue,
                                           xs.wilcoxon(u - v[0]).pvalue,
                                           xs.f_oneway(u, v).statistic)))
    pm, pw, fs = f(x, y)
    for i in range(3):
        _close(pm[i], ss.mannwhitneyu(x[i], y[i]).pvalue, RTOL_P)
        _close(pw[i], ss.wilcoxon(x[i] - y[i, 0]).pvalue, RTOL_P)
        _close(fs[i], ss.f_oneway(x[i], y[i]).statistic, RTOL_STAT)


@pytest.mark.slow  # 3-8 s: compiles many statistics
def test_grad_of_continuous_statistics_matches_finite_differences():
    a, b, c = _data()

    def f(x):
        return (xs.f_oneway(x, b, c).statistic + xs.levene(x, b, c, center="mean").statistic
                + xs.circvar(x) + xs.energy_distance(x, c))

    g = np.asarray(sciax.jit(sciax.grad(f))(a))
    f_np = sciax.jit(f)
    h = 1e-6
    fd = [(float(f_np(a + h * e)) - float(f_np(a - h * e))) / (2 * h) for e in np.eye(7)]
    # central differences: truncation h^2 ~ 1e-12, rounding eps/h ~ 1e-10
    _close(g, fd, 1e-6, 1e-8)


def test_exact_tables_are_distributions():
    from sciax.stats import _tests_more as tm
    cdf, sf = tm._mwu_tables(3, 5)
    assert cdf[-1] == 1.0 and sf[0] == 1.0
    from scipy.stats._mannwhitneyu import _MWU
    _close(sf[:8], [_MWU(3, 5).sf(np.array([k]))[0] for k in range(8)], 1e-15)
    cdf, sf = tm._signrank_tables(6)
    assert np.all(cdf[:, -1] == 1.0)
    cdf, sf = tm._kendall_tables(5)
    _close(cdf[0], 1 / 120, 1e-15)


def test_argument_errors():
    with pytest.raises(ValueError, match="alternative"):
        xs.mannwhitneyu([1.0, 2.0], [3.0, 4.0], alternative="bigger")
    with pytest.raises(ValueError, match="method"):
        xs.wilcoxon([1.0, 2.0], method="perm")
    with pytest.raises(ValueError, match="8 samples"):
        xs.skewtest(np.arange(5.0))
    with pytest.raises(NotImplementedError, match="nan_policy"):
        xs.kruskal([1.0, 2.0], [3.0, 4.0], nan_policy="omit")
    with pytest.raises(TypeError, match="concrete"):
        sciax.jit(lambda k: xs.binomtest(k, 10).pvalue)(3)


# --- slow sweeps, eager --------------------------------------------------------------

slow = pytest.mark.slow


@slow
@pytest.mark.parametrize("alt", ALTS)
@pytest.mark.parametrize("case", ["exact", "ties", "large", "one_small"])
def test_mannwhitneyu(alt, case):
    rng = np.random.default_rng(3)
    x, y = {"exact": (rng.normal(size=5), rng.normal(size=8)),
            "ties": (rng.integers(0, 4, 7) * 1.0, rng.integers(0, 5, 6) * 1.0),
            "large": (rng.normal(size=30), rng.normal(0.5, size=25)),
            "one_small": (rng.normal(size=4), rng.normal(size=20))}[case]
    _res(xs.mannwhitneyu(x, y, alternative=alt), ss.mannwhitneyu(x, y, alternative=alt))
    for method in ("asymptotic", "exact"):
        for cont in (True, False):
            _res(xs.mannwhitneyu(x, y, cont, alt, method=method),
                 ss.mannwhitneyu(x, y, cont, alt, method=method))


@slow
def test_mannwhitneyu_axis_and_keepdims():
    rng = np.random.default_rng(4)
    x, y = rng.normal(size=(6, 3)), rng.normal(size=(4, 3))
    _res(xs.mannwhitneyu(x, y), ss.mannwhitneyu(x, y))
    _res(xs.mannwhitneyu(x.T, y.T, axis=1, keepdims=True),
         ss.mannwhitneyu(x.T, y.T, axis=1, keepdims=True))


@slow
@pytest.mark.parametrize("alt", ALTS)
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("case", ["exact", "ties_small", "ties_large", "zeros", "n60"])
def test_wilcoxon(alt, zero_method, case):
    rng = np.random.default_rng(5)
    d = {"exact": rng.normal(size=12),
         "ties_small": np.round(rng.normal(size=10), 0) + 0.5,
         "ties_large": np.round(rng.normal(0.3, 1, size=30), 1),
         "zeros": np.round(rng.normal(0.3, 1, size=20), 0),
         "n60": rng.normal(0.2, 1, size=60)}[case]
    for correction in (False, True):
        kw = dict(zero_method=zero_method, correction=correction, alternative=alt)
        _res(xs.wilcoxon(d, **kw), ss.wilcoxon(d, **kw))
        _res(xs.wilcoxon(d, method="asymptotic", **kw),
             ss.wilcoxon(d, method="asymptotic", **kw))
    if case == "exact":
        _res(xs.wilcoxon(d, method="exact", alternative=alt),
             ss.wilcoxon(d, method="exact", alternative=alt))


@slow
def test_wilcoxon_two_samples_axis():
    rng = np.random.default_rng(6)
    x, y = rng.normal(size=(3, 9)), rng.normal(size=(3, 9))
    _res(xs.wilcoxon(x, y, axis=1), ss.wilcoxon(x, y, axis=1))


@slow
@pytest.mark.parametrize("alt", ALTS)
def test_ranksums_kruskal(alt):
    rng = np.random.default_rng(8)
    x, y, z = rng.normal(size=9), rng.integers(0, 5, 12) * 1.0, rng.normal(size=(4, 7))
    _res(xs.ranksums(x, y, alternative=alt), ss.ranksums(x, y, alternative=alt))
    _res(xs.kruskal(x, y, y + 1), ss.kruskal(x, y, y + 1))
    _res(xs.kruskal(z, z + 0.5, axis=1), ss.kruskal(z, z + 0.5, axis=1))
    _res(xs.ranksums(z, z[::-1], axis=1, alternative=alt),
         ss.ranksums(z, z[::-1], axis=1, alternative=alt))


@slow
@pytest.mark.parametrize("center", ["median", "mean", "trimmed"])
def test_anova_and_homogeneity(center):
    rng = np.random.default_rng(9)
    g = [rng.normal(0, s, size=n) for s, n in ((1, 8), (2, 13), (0.5, 21))]
    for ev in (True, False):
        _res(xs.f_oneway(*g, equal_var=ev), ss.f_oneway(*g, equal_var=ev))
    _res(xs.levene(*g, center=center, proportiontocut=0.1),
         ss.levene(*g, center=center, proportiontocut=0.1))
    _res(xs.fligner(*g, center=center), ss.fligner(*g, center=center))
    _res(xs.bartlett(*g), ss.bartlett(*g))
    m = rng.normal(size=(5, 6))
    _res(xs.f_oneway(m, m**2, axis=1), ss.f_oneway(m, m**2, axis=1))
    _res(xs.bartlett(m, 2 * m + 1, axis=0), ss.bartlett(m, 2 * m + 1, axis=0))


@slow
@pytest.mark.parametrize("table", [[[12, 5], [7, 9]], [[3, 0], [2, 8]],
                                   [[10, 10, 20], [20, 20, 20]],
                                   [[[5, 6], [7, 2]], [[3, 9], [4, 4]]]])
def test_chi2_contingency(table):
    t = np.asarray(table, float)
    for corr in (True, False):
        for lam in (None, "log-likelihood", 0.5):
            got, want = xs.chi2_contingency(t, corr, lam), ss.chi2_contingency(t, corr, lam)
            _res(got, want)
            assert got.dof == want.dof
            _close(got.expected_freq, want.expected_freq, 1e-14)


@slow
@pytest.mark.parametrize("table", [[[6, 2], [1, 4]], [[8, 2], [1, 5]], [[0, 5], [3, 4]],
                                   [[100, 95], [80, 120]], [[2, 7], [8, 2]],
                                   [[5, 5], [5, 5]]])
@pytest.mark.parametrize("alt", ALTS)
def test_fisher_exact(table, alt):
    got, want = xs.fisher_exact(np.array(table), alt), ss.fisher_exact(table, alt)
    _close(got.statistic, want.statistic, 1e-14)
    _close(got.pvalue, want.pvalue, 1e-10)


@slow
@pytest.mark.parametrize("k,n,p", [(3, 15, 0.1), (7, 20, 0.5), (0, 10, 0.3),
                                   (682, 1000, 0.7), (50, 100, 0.5), (9, 9, 0.4)])
@pytest.mark.parametrize("alt", ALTS)
def test_binomtest(k, n, p, alt):
    got, want = xs.binomtest(k, n, p, alt), ss.binomtest(k, n, p, alt)
    _close(got.statistic, want.statistic, 1e-15)
    _close(got.pvalue, want.pvalue, 1e-10)
    for method in ("exact", "wilson", "wilsoncc"):
        ci, wci = got.proportion_ci(0.9, method), want.proportion_ci(0.9, method)
        _close([ci.low, ci.high], [wci.low, wci.high], 1e-9, 1e-14)


@slow
@pytest.mark.parametrize("alt", ALTS)
@pytest.mark.parametrize("case", ["exact", "ties", "n40", "variant_c"])
def test_kendalltau(alt, case):
    rng = np.random.default_rng(11)
    x = rng.normal(size=40 if case == "n40" else 12)
    y = x + rng.normal(size=x.size)
    if case in ("ties", "variant_c"):
        x, y = np.round(x), np.round(y * 2)
    variant = "c" if case == "variant_c" else "b"
    _res(xs.kendalltau(x, y, alternative=alt, variant=variant),
         ss.kendalltau(x, y, alternative=alt, variant=variant))
    _res(xs.kendalltau(x, y, alternative=alt, method="asymptotic", variant=variant),
         ss.kendalltau(x, y, alternative=alt, method="asymptotic", variant=variant))


@slow
def test_pointbiserial_ttest_from_stats():
    rng = np.random.default_rng(12)
    x, y = (rng.random(15) > 0.5) * 1.0, rng.normal(size=15)
    _res(xs.pointbiserialr(x, y), ss.pointbiserialr(x, y))
    for ev in (True, False):
        for alt in ALTS:
            args = (1.2, 0.7, 10, 0.4, 1.3, 17)
            _res(xs.ttest_ind_from_stats(*args, equal_var=ev, alternative=alt),
                 ss.ttest_ind_from_stats(*args, equal_var=ev, alternative=alt))


@slow
@pytest.mark.parametrize("method", ["fisher", "pearson", "tippett", "stouffer",
                                    "mudholkar_george"])
def test_combine_pvalues(method):
    p = np.array([[0.01, 0.2, 0.3], [0.5, 0.04, 0.9], [0.11, 0.3, 0.002]])
    _res(xs.combine_pvalues(p, method), ss.combine_pvalues(p, method))
    _res(xs.combine_pvalues(p, method, axis=1), ss.combine_pvalues(p, method, axis=1))
    if method == "stouffer":
        w = np.array([1.0, 2.0, 0.5])
        _res(xs.combine_pvalues(p[0], method, w), ss.combine_pvalues(p[0], method, w))


@slow
@pytest.mark.parametrize("method", ["bh", "by"])
def test_false_discovery_control(method):
    p = np.random.default_rng(13).random((4, 9)) ** 3
    for axis in (0, 1, None):
        _close(xs.false_discovery_control(p, axis=axis, method=method),
               ss.false_discovery_control(p, axis=axis, method=method), 1e-13)


@slow
@pytest.mark.parametrize("alt", ALTS)
def test_normality_tests(alt):
    rng = np.random.default_rng(14)
    x = rng.gamma(2.0, size=(3, 25))
    _res(xs.skewtest(x, axis=1, alternative=alt), ss.skewtest(x, axis=1, alternative=alt))
    _res(xs.kurtosistest(x.T, alternative=alt), ss.kurtosistest(x.T, alternative=alt))
    _res(xs.normaltest(x, axis=1), ss.normaltest(x, axis=1))
    _res(xs.jarque_bera(x, axis=1), ss.jarque_bera(x, axis=1))


@slow
def test_descriptive():
    rng = np.random.default_rng(15)
    x = rng.normal(size=(4, 20))
    lim, inc = (-0.8, 1.1), (False, True)
    for f in ("tmean", "tvar", "tstd", "tsem"):
        axis = {"tmean": None}.get(f, 1)
        _close(getattr(xs, f)(x, lim, inc, axis=axis),
               getattr(ss, f)(x, lim, inc, axis=axis), RTOL_STAT)
    _close(xs.tmin(x, -0.5, axis=1), ss.tmin(x, -0.5, axis=1), 0)
    _close(xs.tmax(x, 0.5, axis=1, inclusive=False),
           ss.tmax(x, 0.5, axis=1, inclusive=False), 0)
    pos = np.exp(x)
    _close(xs.variation(pos, axis=1, ddof=1), ss.variation(pos, axis=1, ddof=1),
           RTOL_STAT)
    _close(xs.median_abs_deviation(x, axis=1, scale="normal"),
           ss.median_abs_deviation(x, axis=1, scale="normal"), RTOL_STAT)
    _close(xs.zmap(x[0], x[1:], axis=None, ddof=1),
           ss.zmap(x[0], x[1:], axis=None, ddof=1), RTOL_STAT)
    _close(xs.gzscore(pos, axis=1), ss.gzscore(pos, axis=1), 1e-11)
    _close(xs.gstd(pos, axis=1), ss.gstd(pos, axis=1), RTOL_STAT)
    for hi, lo in ((2 * np.pi, 0), (360.0, 0.0), (1.5, -2.5)):
        for f in ("circmean", "circvar", "circstd"):
            _close(getattr(xs, f)(x, hi, lo, axis=1),
                   getattr(ss, f)(x, hi, lo, axis=1), 1e-11, 1e-14)
    ints = rng.integers(0, 5, size=(3, 15)) * 1.0
    got, want = xs.mode(ints, axis=1), ss.mode(ints, axis=1)
    _close(got.mode, want.mode, 0)
    _close(got.count, want.count, 0)
    for meth in ("fraction", "lower", "higher"):
        _close(xs.scoreatpercentile(x[0], [10, 55], interpolation_method=meth),
               ss.scoreatpercentile(x[0], [10, 55], interpolation_method=meth),
               RTOL_STAT)
    for kind in ("rank", "weak", "strict", "mean"):
        _close(xs.percentileofscore(ints[0], [1.0, 2.5], kind=kind),
               ss.percentileofscore(ints[0], [1.0, 2.5], kind=kind), RTOL_STAT)
    u, v, uw, vw = x[0], x[1, :13], rng.random(20), rng.random(13)
    for f in ("wasserstein_distance", "energy_distance"):
        _close(getattr(xs, f)(u, v), getattr(ss, f)(u, v), RTOL_STAT)
        _close(getattr(xs, f)(u, v, uw, vw), getattr(ss, f)(u, v, uw, vw), 1e-11)


@slow
@pytest.mark.parametrize("n", [5, 12, 40, 140])
@pytest.mark.parametrize("alt", ALTS)
def test_ks_1samp(n, alt):
    rng = np.random.default_rng(16 + n)
    for shift in (0.0, 0.3, 1.0):
        x = rng.normal(shift, size=n)
        for method in ("auto", "exact", "approx", "asymp"):
            got = xs.ks_1samp(x, xs.norm.cdf, alternative=alt, method=method)
            want = ss.ks_1samp(x, ss.norm.cdf, alternative=alt, method=method)
            # 1 - cdf of the exact distribution: absolute rounding ~1e-14
            _res(got, want, RTOL_P, 1e-13)
            _close(got.statistic_location, want.statistic_location, 0)
            assert int(got.statistic_sign) == int(want.statistic_sign)
    _res(xs.kstest(x, "gamma", (2.0,), alternative=alt),
         ss.kstest(x, "gamma", (2.0,), alternative=alt), RTOL_P, 1e-13)


@slow
def test_kstwo_sf_matches_scipy_where_both_are_exact():
    from sciax.stats._tests_more import _kstwo_sf
    for n in (3, 20, 140):
        d = np.array([0.5 / n + 0.01, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.95])
        _close(_kstwo_sf(snp.asarray(d), n), ss.kstwo.sf(d, n), 1e-10, 1e-13)


def test_ks_1samp_exact_default_n20():
    x = np.random.default_rng(21).normal(0.4, size=20)
    _res(xs.ks_1samp(x, xs.norm.cdf), ss.ks_1samp(x, ss.norm.cdf), RTOL_P, 1e-13)


@pytest.mark.parametrize("alt", ALTS)
def test_kstest_with_two_samples_is_ks_2samp(alt):
    """kstest(x, y) with data as its second argument is SciPy's two-sample test."""
    a, b, c = _data()
    for x, y in ((a, b), (a, c)):
        got, want = xs.kstest(x, y, alternative=alt), ss.kstest(x, y, alternative=alt)
        _res(got, want, RTOL_P, 1e-13)
        _close(got.statistic_location, want.statistic_location, 0)
        assert int(got.statistic_sign) == int(want.statistic_sign)
