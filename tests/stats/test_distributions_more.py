"""The distributions, density estimate and transforms added in session 9
against SciPy: t with df = inf, gaussian_kde, the distributions of
``_continuous_extra.py`` and the Box-Cox / Yeo-Johnson transforms.

Tolerances: densities 1e-12 relative, CDFs and quantiles 1e-10 where SciPy's
own value is accurate; where SciPy is the less accurate one (it subtracts
nearly equal terms, or takes generic complements) the looser tolerance is
given with the reason beside the case.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
from sciax import stats

Q = np.array([1e-10, 1e-4, 0.02, 0.3, 0.5, 0.77, 0.98, 1.0 - 1e-6])


def _rel(a, b, rtol, atol=1e-300, msg=""):
    np.testing.assert_allclose(np.asarray(a, dtype=float), b, rtol=rtol, atol=atol,
                               err_msg=msg)


# --- t with df = inf -------------------------------------------------------------


def test_t_df_inf_cdf_pdf():
    # the case: SciPy's 0.8413447460685429 (the normal CDF at 1), was NaN
    x = np.array([-30.0, -3.0, -1.0, 0.0, 0.5, 1.0, 4.0, 30.0])
    got = np.asarray(stats.t.cdf(x, np.inf))
    _rel(got[5], 0.8413447460685429, 1e-15)
    # 1e-12: sciax.special.ndtr at x = -30 (a 1e-198 tail) is good to 1.2e-13
    _rel(got, ss.t.cdf(x, np.inf), 1e-12)


@pytest.mark.slow
def test_t_df_inf_is_normal():
    x = np.array([-30.0, -3.0, -1.0, 0.0, 0.5, 1.0, 4.0, 30.0])
    for m in ("pdf", "logpdf", "cdf", "sf", "logcdf", "logsf"):
        # 1e-12: sciax.special.ndtr at x = -30 (a 1e-198 tail) is good to 1.2e-13
        _rel(getattr(stats.t, m)(x, np.inf), getattr(ss.t, m)(x, np.inf), 1e-12,
             msg=m)
    _rel(stats.t.cdf(1.0, np.inf), 0.8413447460685429, 1e-15)
    for m in ("ppf", "isf"):
        _rel(getattr(stats.t, m)(Q, np.inf), getattr(ss.t, m)(Q, np.inf), 1e-12,
             atol=1e-15, msg=m)
    mvsk = stats.t.stats(np.inf, moments="mvsk")
    _rel(np.array(mvsk, float), np.array(ss.t.stats(np.inf, moments="mvsk"), float),
         1e-15, atol=1e-15)
    _rel(stats.t.entropy(np.inf), ss.t.entropy(np.inf), 1e-15)
    # a batch mixing finite and infinite df; finite df unchanged
    df = np.array([3.0, np.inf, 12.0])
    _rel(stats.t.cdf(0.7, df), ss.t.cdf(0.7, df), 1e-12)
    # the derivative in x is the normal's; finite in df elsewhere
    assert float(sciax.grad(lambda v: stats.t.logpdf(v, np.inf))(1.0)) == -1.0
    s = np.asarray(stats.t.rvs(np.inf, size=4000, random_state=3))
    assert ss.kstest(s, "norm").pvalue > 1e-3


# --- gaussian_kde ---------------------------------------------------------------


def _kde_pair(data, bw=None, weights=None):
    return stats.gaussian_kde(data, bw, weights), ss.gaussian_kde(data, bw, weights)


_SLOW = pytest.mark.slow


@pytest.mark.parametrize("bw,weighted", [
    pytest.param(None, True, marks=_SLOW), pytest.param(None, False, marks=_SLOW),
    pytest.param("silverman", False, marks=_SLOW), pytest.param(0.3, True, marks=_SLOW),
    pytest.param("callable", False, marks=_SLOW)])
def test_kde_1d_vs_scipy(bw, weighted):
    rng = np.random.default_rng(0)
    x = rng.normal(size=60)
    w = rng.uniform(size=60) if weighted else None
    if bw == "callable":
        bw = lambda k: 0.5 * k.scotts_factor()  # noqa: E731
    ours, ref = _kde_pair(x, bw, w)
    pts = np.linspace(-5.0, 5.0, 11)
    # both sum the same Gaussians, ours in log space: exp(z) carries the
    # z * eps error of its argument, ~1e-13 relative at the 1e-52 tail point
    _rel(ours(pts), ref(pts), 1e-12)
    _rel(ours.pdf(pts), ref.pdf(pts), 1e-12)
    np.testing.assert_allclose(np.asarray(ours.logpdf(pts)), ref.logpdf(pts),
                               rtol=1e-13, atol=1e-13)
    _rel(ours.factor, ref.factor, 1e-14)
    _rel(ours.neff, ref.neff, 1e-14)
    _rel(ours.covariance, ref.covariance, 1e-13)
    _rel(ours.integrate_box_1d(-0.5, 1.2), ref.integrate_box_1d(-0.5, 1.2), 1e-13)
    _rel(ours.integrate_box_1d(-np.inf, np.inf), 1.0, 1e-14)
    _rel(ours.integrate_gaussian(0.3, [[0.5]]), ref.integrate_gaussian(0.3, [[0.5]]),
         1e-13)


def test_kde_far_tail_does_not_underflow():
    x = np.array([0.0, 1.0, 2.0, 3.0])
    k = stats.gaussian_kde(x)
    lp = float(k.logpdf([60.0])[0])
    assert np.isfinite(lp)
    # the farthest-from-centre kernel dominates: compare with the exact mixture
    ref = ss.gaussian_kde(x)
    _rel(lp, ref.logpdf([60.0])[0], 1e-12)


@pytest.mark.slow
def test_kde_multivariate_and_methods():
    rng = np.random.default_rng(1)
    data = rng.normal(size=(3, 40))
    w = rng.uniform(size=40)
    ours, ref = _kde_pair(data, None, w)
    pts = rng.normal(size=(3, 6))
    _rel(ours(pts), ref(pts), 1e-13)
    _rel(ours.inv_cov, ref.inv_cov, 1e-12)
    _rel(ours.log_det, ref.log_det, 1e-13)
    mean, cov = np.array([0.1, -0.2, 0.3]), np.diag([0.5, 1.0, 2.0])
    _rel(ours.integrate_gaussian(mean, cov), ref.integrate_gaussian(mean, cov), 1e-13)
    other_o, other_r = _kde_pair(data[:, :10])
    _rel(ours.integrate_kde(other_o), ref.integrate_kde(other_r), 1e-13)
    mo, mr = ours.marginal([0, 2]), ref.marginal([0, 2])
    _rel(mo(pts[[0, 2]]), mr(pts[[0, 2]]), 1e-13)
    # a single point of dimension d given as a (1, d) row, as SciPy accepts
    _rel(ours(pts[:, 0][None]), ref(pts[:, 0][None]), 1e-13)
    with pytest.raises(ValueError):
        ours(np.zeros((2, 4)))
    with pytest.raises(ValueError):
        stats.gaussian_kde(np.ones(5), bw_method="nope")


@pytest.mark.slow
def test_kde_resample_moments():
    rng = np.random.default_rng(2)
    data = rng.normal(size=(2, 50)) * np.array([[1.0], [3.0]])
    w = rng.uniform(size=50)
    k = stats.gaussian_kde(data, weights=w)
    n = 40000
    s = np.asarray(k.resample(n, seed=sciax.random.key(5)))
    assert s.shape == (2, n)
    wn = w / w.sum()
    mean = data @ wn
    c = data - mean[:, None]
    cov = (c * wn) @ c.T + np.asarray(k.covariance)   # mixture covariance
    se = np.sqrt(np.diag(cov) / n)
    assert np.all(np.abs(s.mean(1) - mean) < 5 * se)
    np.testing.assert_allclose(np.cov(s), cov, rtol=0.05, atol=0.05)
    assert np.asarray(k.resample(seed=1)).shape == (2, int(np.asarray(k.neff)))


@pytest.mark.slow
def test_kde_jit_vmap_grad():
    rng = np.random.default_rng(3)
    x = rng.normal(size=25)
    pts = np.linspace(-2.0, 2.0, 5)
    k = stats.gaussian_kde(x)
    eager = np.asarray(k(pts))
    # the estimate is a pytree: through jit as an argument, and built inside jit
    np.testing.assert_array_equal(np.asarray(sciax.jit(lambda k, p: k(p))(k, pts)),
                                  eager)
    built = sciax.jit(lambda d, p: stats.gaussian_kde(d).evaluate(p))(x, pts)
    np.testing.assert_allclose(np.asarray(built), eager, rtol=1e-15)
    vm = sciax.vmap(lambda p: k.logpdf(p[None])[0])(snp.asarray(pts))
    np.testing.assert_allclose(np.asarray(vm), np.asarray(k.logpdf(pts)), rtol=1e-15)

    # d/d(data) and d/d(points) against central differences of SciPy's estimate
    def f(d):
        return stats.gaussian_kde(d).logpdf(snp.asarray([0.3]))[0]

    g = np.asarray(sciax.grad(f)(snp.asarray(x)))
    h = 1e-6
    for i in (0, 7, 19):
        up, dn = x.copy(), x.copy()
        up[i] += h
        dn[i] -= h
        fd = (ss.gaussian_kde(up).logpdf(0.3)[0] - ss.gaussian_kde(dn).logpdf(0.3)[0]) \
            / (2 * h)
        np.testing.assert_allclose(g[i], fd, rtol=1e-6, atol=1e-8)
    gp = float(sciax.grad(lambda p: k.logpdf(snp.reshape(p, (1, 1)))[0])(0.3))
    ref = ss.gaussian_kde(x)
    fd = (ref.logpdf(0.3 + h)[0] - ref.logpdf(0.3 - h)[0]) / (2 * h)
    np.testing.assert_allclose(gp, fd, rtol=1e-6)


# --- the new distributions ------------------------------------------------------

# name -> (parameter tuples (*shapes, loc, scale), {method: rtol} overrides with
# the reason); default tolerances: densities 1e-12, the rest 1e-10
CASES = {
    "laplace_asymmetric": ([(2.0, 0.0, 1.0), (0.4, 1.0, 2.0)], {}),
    "invweibull": ([(4.5, 0.0, 1.0), (6.0, 1.0, 2.0)], {}),
    # SciPy's skewcauchy cdf is (1-a)/2 + ... (cancellation in the lower tail:
    # 1e-16/1e-10 relative at the q = 1e-10 point; ours uses arctan2)
    "skewcauchy": ([(0.5, 0.0, 1.0), (-0.7, 1.0, 2.0)],
                   dict(cdf=1e-5, logcdf=1e-6, logsf=1e-5, ppf=1e-6, isf=1e-5)),
    # SciPy's truncpareto cdf for b < 0 is (1 - x^-b) / (1 - c^-b): the same
    # cancellation near x = 1
    "truncpareto": ([(1.5, 4.0, 0.0, 1.0), (-0.7, 10.0, 1.0, 2.0)],
                    dict(cdf=1e-6, logcdf=1e-7, logsf=1e-6, sf=1e-9)),
    # SciPy's levy_l ppf is -1/ndtri((q+1)/2)^2: loses 1e-16/q at small q
    "levy_l": ([(0.0, 1.0), (1.0, 2.0)], dict(ppf=1e-6)),
    # SciPy's foldcauchy quantiles are its generic root finder (isf = ppf(1-q))
    # SciPy's cdf sums two arctans, which cancel near 0: at q = 1e-10 it is
    # 8.2e-8 off mpmath's 9.999998828210832e-11 (ours equals it; the series
    # check is test_numeric_quantile.py::test_foldcauchy_cdf_near_zero)
    "foldcauchy": ([(0.0, 0.0, 1.0), (1.5, 1.0, 2.0)],
                   dict(ppf=1e-9, isf=1e-5, cdf=1e-7, logcdf=1e-7, logsf=1e-7)),
    # SciPy's genexpon ppf at q = 1e-10 (a Lambert-W formula) is off by ~5e-7
    "genexpon": ([(1.0, 2.0, 3.0, 0.0, 1.0), (0.5, 1.5, 0.7, 1.0, 2.0)],
                 dict(ppf=1e-6, stats=1e-7)),
    "gengamma": ([(2.0, 1.5, 0.0, 1.0), (3.5, -2.0, 1.0, 2.0)], {}),
    "dgamma": ([(0.7, 0.0, 1.0), (3.0, 1.0, 2.0)], {}),
    # both libraries sum 0.5 + x/(2 pi) + V/pi (Hill's series): absolute
    # error ~1e-17, so ~2e-7 relative at the 1e-10 point of either tail
    "vonmises": ([(2.0, 0.0, 1.0), (70.0, 0.5, 1.0)],
                 dict(cdf=1e-6, logcdf=1e-6, sf=1e-6, logsf=1e-6, stats=1e-6,
                      # SciPy's isf is its generic ppf(1 - q)
                      isf=1e-7)),
    "ncx2": ([(3.0, 2.0, 0.0, 1.0), (0.8, 20.0, 1.0, 2.0)], {}),
    # SciPy's rice sf is 1 - cdf: 1.5e-10 off at sf = 1e-6 (mpmath at b = 3:
    # 1.00000000017737e-6; ours 1.000000000177373e-6, SciPy 1.0000000000288e-6);
    # its logcdf there is log(cdf) of the same cdf, its isf the generic
    # ppf(1 - q) (2e-8 off at q = 1e-10)
    "rice": ([(0.5, 0.0, 1.0), (3.0, 1.0, 2.0)],
             dict(sf=1e-9, logsf=1e-9, logcdf=1e-9, isf=1e-7)),
}
FAST = {"laplace_asymmetric"}


def _params(names):
    return [pytest.param(n, marks=[] if n in FAST else [pytest.mark.slow])
            for n in names]


def _methods(d):
    def f(x, q, *p):
        return dict(pdf=d.pdf(x, *p), logpdf=d.logpdf(x, *p), cdf=d.cdf(x, *p),
                    sf=d.sf(x, *p), logcdf=d.logcdf(x, *p), logsf=d.logsf(x, *p),
                    ppf=d.ppf(q, *p), isf=d.isf(q, *p))

    return sciax.jit(f)


@pytest.mark.parametrize("name", _params(CASES))
def test_new_distribution_vs_scipy(name):
    check_against_scipy(name, CASES)


def check_against_scipy(name, cases, entropy_rtol=None):
    """Every method of ``stats.<name>`` against SciPy's on ``cases[name]``'s
    parameter tuples: densities to 1e-12, CDFs and quantiles to 1e-10 unless
    the case says otherwise (with its reason), moments and entropy.  Shared
    with test_distributions_s10.py."""
    grid, over = cases[name]
    d, ref = getattr(stats, name), getattr(ss, name)
    p = np.array(grid, dtype=float).T[..., None]
    x = ref.ppf(Q, *p)
    out = _methods(d)(x, Q, *p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in ("pdf", "logpdf", "cdf", "sf", "logcdf", "logsf"):
            rtol = over.get(m, 1e-12 if m in ("pdf", "logpdf") else 1e-10)
            _rel(out[m], getattr(ref, m)(x, *p), rtol, msg=f"{name}.{m}")
        for m in ("ppf", "isf"):
            _rel(out[m], getattr(ref, m)(Q, *p), over.get(m, 1e-10), atol=1e-15,
                 msg=f"{name}.{m}")
        for pt in grid:
            got = np.array(d.stats(*pt, moments="mvsk"), float)
            want = np.array(ref.stats(*pt, moments="mvsk"), float)
            _rel(got, want, over.get("stats", 1e-10), atol=1e-12,
                 msg=f"{name}.stats{pt}")
            scipy_h = type(ref)._entropy is ss.rv_continuous._entropy
            rtol = entropy_rtol or (1e-7 if scipy_h else 1e-10)
            _rel(d.entropy(*pt), ref.entropy(*pt), rtol, msg=f"{name}.entropy{pt}")


@pytest.mark.parametrize("name", _params(["laplace_asymmetric", "truncpareto",
                                          "gengamma", "vonmises", "ncx2"]))
def test_new_distribution_gradients(name):
    """d/dparam of logpdf and cdf against central differences of SciPy's."""
    grid, _ = CASES[name]
    check_gradients_against_fd(name, np.array(grid[-1], dtype=float))


def check_gradients_against_fd(name, pt):
    """d/dparam of ``stats.<name>``'s logpdf and cdf at the parameters ``pt``
    against central differences of SciPy's (shared with
    test_distributions_s10.py)."""
    d, ref = getattr(stats, name), getattr(ss, name)
    xs = ref.ppf(np.array([0.1, 0.4, 0.8]), *pt)
    for fn, rfn in ((d.logpdf, ref.logpdf), (d.cdf, ref.cdf)):
        g = sciax.jit(sciax.vmap(sciax.grad(lambda x, p: fn(x, *p), argnums=1),
                                 in_axes=(0, None)))(xs, pt)
        for i in range(len(pt)):
            h = 1e-6 * (1.0 + abs(pt[i]))
            up, dn = pt.copy(), pt.copy()
            up[i] += h
            dn[i] -= h
            fd = (rfn(xs, *up) - rfn(xs, *dn)) / (2 * h)
            np.testing.assert_allclose(np.asarray(g)[:, i], fd, rtol=2e-5, atol=1e-7,
                                       err_msg=f"{name}.{fn.__name__} d/dp{i}")


@pytest.mark.parametrize("name", _params(["laplace_asymmetric", "skewcauchy",
                                          "vonmises", "ncx2", "rice"]))
def test_new_distribution_rvs_and_vmap(name):
    grid, _ = CASES[name]
    d, ref = getattr(stats, name), getattr(ss, name)
    pt = tuple(float(v) for v in grid[-1])
    s = np.asarray(d.rvs(*pt, size=3000, random_state=sciax.random.key(11)))
    assert np.all(np.isfinite(s))
    assert ss.kstest(s, ref.cdf, args=pt).pvalue > 1e-3
    # vmap over points equals the batched eager call
    x = ref.ppf(np.array([0.2, 0.5, 0.9]), *pt)
    vm = sciax.vmap(lambda v: d.logpdf(v, *pt))(snp.asarray(x))
    np.testing.assert_allclose(np.asarray(vm), np.asarray(d.logpdf(x, *pt)),
                               rtol=1e-15)


@pytest.mark.slow
def test_new_distribution_bad_parameters():
    assert np.isnan(float(stats.skewcauchy.pdf(0.0, 1.0)))
    assert np.isnan(float(stats.truncpareto.pdf(1.5, 0.0, 2.0)))
    assert np.isnan(float(stats.truncpareto.pdf(1.5, 1.0, 1.0)))
    assert np.isnan(float(stats.laplace_asymmetric.cdf(0.0, -1.0)))
    # support handling: truncpareto's upper end depends on c
    assert float(stats.truncpareto.pdf(5.0, 1.0, 4.0)) == 0.0
    assert float(stats.truncpareto.cdf(5.0, 1.0, 4.0)) == 1.0


# --- Box-Cox and Yeo-Johnson ----------------------------------------------------


def test_boxcox_yeojohnson_fixed_lmbda():
    rng = np.random.default_rng(4)
    x = rng.lognormal(size=40)
    z = 2.0 * rng.normal(size=40)
    for lm in (-1.5, 0.0, 0.5, 2.0, 7.0):
        # llf: a sum of 40 terms and a log-variance, 1e-13 relative
        _rel(stats.boxcox_llf(lm, x), ss.boxcox_llf(lm, x), 1e-13)
        _rel(stats.yeojohnson_llf(lm, z), ss.yeojohnson_llf(lm, z), 1e-13)
        _rel(stats.boxcox(x, lm), ss.boxcox(x, lm), 1e-13, atol=1e-15)
        _rel(stats.yeojohnson(z, lm), ss.yeojohnson(z, lm), 1e-13, atol=1e-15)
    with pytest.raises(ValueError):
        stats.boxcox(np.array([1.0, -2.0, 3.0]), 0.5)


@pytest.mark.slow
def test_boxcox_yeojohnson_mle():
    rng = np.random.default_rng(4)
    x = rng.lognormal(size=40)
    z = 2.0 * rng.normal(size=40)
    # MLE lmbda: both are Brent's method to its default tolerance (~1e-8)
    y, lm = stats.boxcox(x)
    y_r, lm_r = ss.boxcox(x)
    np.testing.assert_allclose(float(lm), lm_r, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(y), y_r, rtol=1e-6)
    y, lm = stats.yeojohnson(z)
    y_r, lm_r = ss.yeojohnson(z)
    np.testing.assert_allclose(float(lm), lm_r, rtol=1e-6)
    # at the MLE the llf's derivative vanishes (checks the gradient path too)
    g = float(sciax.grad(lambda v: stats.yeojohnson_llf(v, z))(lm))
    assert abs(g) < 1e-4
    # gradients in lmbda vs central differences of SciPy's llf
    h = 1e-6
    g = float(sciax.grad(lambda v: stats.boxcox_llf(v, x))(0.3))
    fd = (ss.boxcox_llf(0.3 + h, x) - ss.boxcox_llf(0.3 - h, x)) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6)


# --- multivariate t ------------------------------------------------------------


@pytest.mark.slow
def test_multivariate_t_vs_scipy():
    rng = np.random.default_rng(5)
    a = rng.normal(size=(3, 3))
    shape = a @ a.T + np.eye(3)
    loc = rng.normal(size=3)
    x = 2.0 * rng.normal(size=(4, 5, 3))
    for df in (0.7, 3.0, 50.0, np.inf):
        _rel(stats.multivariate_t.logpdf(x, loc, shape, df),
             ss.multivariate_t.logpdf(x, loc, shape, df), 1e-13, msg=str(df))
    _rel(stats.multivariate_t.pdf([0.5, 1.0], loc=1.0, shape=2.0, df=4.0),
         ss.multivariate_t.pdf([0.5, 1.0], loc=1.0, shape=2.0, df=4.0), 1e-13)
    frozen = stats.multivariate_t(loc, shape, 5.0)
    s = np.asarray(frozen.rvs(size=40000, random_state=2))
    assert s.shape == (40000, 3)
    cov = shape * 5.0 / 3.0
    assert np.all(np.abs(s.mean(0) - loc) < 5 * np.sqrt(np.diag(cov) / 40000))
    np.testing.assert_allclose(np.cov(s.T), cov, rtol=0.1, atol=0.1)
    # d/ddf against central differences of SciPy's
    g = float(sciax.grad(lambda d: stats.multivariate_t.logpdf(x[0, 0], loc, shape,
                                                               d))(3.0))
    h = 1e-6
    fd = (ss.multivariate_t.logpdf(x[0, 0], loc, shape, 3.0 + h)
          - ss.multivariate_t.logpdf(x[0, 0], loc, shape, 3.0 - h)) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6)
