"""The session-10 distributions (``nct, ncf, argus, crystalball, kappa3,
skellam``) against SciPy, and against mpmath where SciPy is the weaker one.

Tolerances: densities 1e-12 relative, CDFs and quantiles 1e-10 where SciPy's
own value is accurate; each looser case names why beside it.  The noncentral
laws compile large programs (incomplete-beta series in ``while_loop``s
inside the quantile solver), so most tests here are ``slow``.
"""

from __future__ import annotations


import mpmath as mp
import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
from sciax import stats

from tests.stats.test_distributions_more import (check_against_scipy,
                                                  check_gradients_against_fd)

Q = np.array([1e-10, 1e-4, 0.02, 0.3, 0.5, 0.77, 0.98, 1.0 - 1e-6])


def _rel(a, b, rtol, atol=1e-300, msg=""):
    np.testing.assert_allclose(np.asarray(a, dtype=float), b, rtol=rtol, atol=atol,
                               err_msg=msg)


# name -> (parameter tuples (*shapes, loc, scale), {method: rtol} with reasons)
CASES = {
    # SciPy's nct is Boost's (series in the incomplete beta function, as ours)
    "nct": ([(5.0, 0.5, 0.0, 1.0), (2.5, -1.5, 1.0, 2.0)], {}),
    "ncf": ([(3.0, 10.0, 1.5, 0.0, 1.0), (7.0, 25.0, 8.0, 1.0, 2.0)], {}),
    # SciPy's argus cdf is 1 - sf: at q = 1e-10 it is 1e-6 off (mpmath below:
    # ours agrees with mpmath to 1e-15); its logsf and ppf inherit that, and
    # its isf is the generic ppf(1 - q) (1.2e-10 off at q = 1 - 1e-6)
    "argus": ([(1.0, 0.0, 1.0), (3.5, 1.0, 2.0)],
              dict(cdf=3e-6, logcdf=1e-7, logsf=3e-6, ppf=1e-6, isf=1e-9,
                   stats=1e-7)),
    # SciPy's crystalball isf is the generic ppf(1 - q): 1e-8 off at 1e-10
    "crystalball": ([(2.0, 3.0, 0.0, 1.0), (0.8, 5.5, 1.0, 2.0)], dict(isf=1e-7)),
    # SciPy integrates kappa3's moments with quad (1e-12 here)
    "kappa3": ([(2.0, 0.0, 1.0), (5.0, 1.0, 2.0)], dict(stats=1e-9)),
}
# > 2 s (a compile each) elsewhere: slow
FAST = {"kappa3"}


def _params(names):
    return [pytest.param(n, marks=[] if n in FAST else [pytest.mark.slow])
            for n in names]


@pytest.mark.parametrize("name", _params(CASES))
def test_vs_scipy(name):
    # SciPy's entropies of these are its generic quad integral (~1e-8)
    check_against_scipy(name, CASES, entropy_rtol=1e-7)
    d, ref = getattr(stats, name), getattr(ss, name)
    grid, over = CASES[name]
    for pt in grid:
        _rel(d.moment(1, *pt), ref.moment(1, *pt), over.get("stats", 1e-10))
    # frozen == unfrozen
    x = ref.ppf(Q, *np.array(grid, dtype=float).T[..., None])
    fz = d(*grid[0])
    _rel(fz.cdf(x[:, 0]), np.asarray(d.cdf(x[:, 0], *grid[0])), 1e-15)


@pytest.mark.slow
def test_kappa3_crystalball_moment_edges():
    # moments of order >= a (kappa3) are NaN, as SciPy's; crystalball's
    # variance for m <= 3 is infinite, as SciPy's
    m, v, s, k = (float(t) for t in stats.kappa3.stats(2.0, moments="mvsk"))
    _rel(m, ss.kappa3.mean(2.0), 1e-12)
    assert np.isnan(v) and np.isnan(s) and np.isnan(k)
    assert np.isinf(float(stats.crystalball.var(2.0, 3.0)))
    assert np.isnan(float(stats.kappa3.pdf(1.0, -1.0)))
    assert np.isnan(float(stats.crystalball.pdf(0.0, 1.0, 0.5)))
    assert np.isnan(float(stats.argus.cdf(0.5, 0.0)))


# --- mpmath where SciPy is weak ---------------------------------------------------


def _mp_argus_cdf(x, chi):
    x, chi = mp.mpf(x), mp.mpf(chi)
    psi = mp.ncdf(chi) - chi * mp.npdf(chi) - mp.mpf(1) / 2
    c = chi**3 / (mp.sqrt(2 * mp.pi) * psi)
    def f(t):
        return c * t * mp.sqrt(1 - t * t) * mp.exp(-chi**2 * (1 - t * t) / 2)

    return mp.quad(f, [0, x])


@pytest.mark.slow
def test_argus_small_cdf_vs_mpmath():
    with mp.workdps(30):
        for chi in (1.0, 3.5):
            x = ss.argus.ppf(np.array([1e-10, 1e-4, 0.3]), chi)
            ref = np.array([float(_mp_argus_cdf(v, chi)) for v in x])
            _rel(stats.argus.cdf(x, chi), ref, 1e-14)
    # the quantiles invert that CDF to rounding, down to q = 1e-20
    q = np.array([1e-20, 1e-10, 1e-4, 0.3, 0.7])
    for chi in (0.05, 1.0, 12.0):
        _rel(stats.argus.cdf(stats.argus.ppf(q, chi), chi), q, 1e-11)
        _rel(stats.argus.sf(stats.argus.isf(1.0 - q[1:], chi), chi), 1.0 - q[1:], 1e-11)


def _mp_nct(t, n, d, density):
    t, n, d = mp.mpf(t), mp.mpf(n), mp.mpf(d)

    def f(v):
        w = mp.exp((n / 2 - 1) * mp.log(v) - v / 2 - mp.loggamma(n / 2)
                   - n / 2 * mp.log(2))
        z = t * mp.sqrt(v / n) - d
        return w * (mp.npdf(z) * mp.sqrt(v / n) if density else mp.ncdf(z))

    return mp.quad(f, [0, n / 4, n, 4 * n, mp.inf])


@pytest.mark.slow
def test_nct_tails_vs_mpmath():
    with mp.workdps(30):
        # upper tails and same-sign lower tails: relative 1e-13
        for p, xs in (((30.0, 3.0), [0.94, 7.5]), ((5.0, 0.5), [-122.3, -7.5, 40.0]),
                      ((2.5, -1.5), [-20201.0, -80.4, 3.0])):
            for xv in xs:
                cdf = float(_mp_nct(xv, *p, False))
                pdf = float(_mp_nct(xv, *p, True))
                _rel(stats.nct.cdf(xv, *p), cdf, 1e-13, msg=f"cdf{p} {xv}")
                _rel(stats.nct.pdf(xv, *p), pdf, 1e-13, msg=f"pdf{p} {xv}")
        # x < 0 < nc, where the series has terms of both signs: cdf and pdf
        # come from positive integrands (SciPy's cdf, 1 - q there, is 1.9e-6
        # off); more in test_noncentral.py
        xv, p = -4.137487853896934, (30.0, 3.0)
        _rel(stats.nct.cdf(xv, *p), float(_mp_nct(xv, *p, False)), 1e-12)
        _rel(stats.nct.pdf(xv, *p), float(_mp_nct(xv, *p, True)), 1e-12)


# --- skellam ---------------------------------------------------------------------


@pytest.mark.slow
def test_skellam_vs_scipy():
    k = np.arange(-30.0, 31.0)
    for p in ((2.0, 1.0, 0.0), (7.5, 12.0, 1.0)):
        _rel(stats.skellam.pmf(k, *p), ss.skellam.pmf(k, *p), 1e-12)
        _rel(stats.skellam.logpmf(k, *p), ss.skellam.logpmf(k, *p), 1e-12)
        _rel(stats.skellam.cdf(k, *p), ss.skellam.cdf(k, *p), 1e-12)
        # SciPy's sf is 1 - cdf (0 beyond k ~ 20); the reference is the
        # tail sum of SciPy's pmf (positive terms, accurate to rounding)
        tail = np.array([ss.skellam.pmf(np.arange(kk + 1, kk + 400), *p).sum()
                         for kk in k])
        _rel(stats.skellam.sf(k, *p), tail, 1e-12)
        qs = np.array([1e-6, 0.1, 0.5, 0.9, 1 - 1e-6])
        np.testing.assert_array_equal(np.asarray(stats.skellam.ppf(qs, *p)),
                                      ss.skellam.ppf(qs, *p))
        np.testing.assert_array_equal(np.asarray(stats.skellam.isf(qs, *p)),
                                      ss.skellam.isf(qs, *p))
        _rel(np.array(stats.skellam.stats(*p, moments="mvsk"), float),
             np.array(ss.skellam.stats(*p, moments="mvsk"), float), 1e-14)
        _rel(stats.skellam.entropy(*p), ss.skellam.entropy(*p), 1e-12)
    s = np.asarray(stats.skellam.rvs(3.0, 5.0, size=4000, random_state=4))
    assert abs(s.mean() - (-2.0)) < 5 * np.sqrt(8.0 / 4000)
    # a chi-square goodness-of-fit over the central values
    ks = np.arange(-8, 5)
    obs = np.array([(s == v).sum() for v in ks])
    exp = 4000 * ss.skellam.pmf(ks, 3.0, 5.0)
    assert ss.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-3
    # d/dmu of logpmf vs central differences of SciPy's
    g = sciax.grad(lambda m: stats.skellam.logpmf(2.0, m, 1.5))(3.0)
    h = 1e-6
    fd = (ss.skellam.logpmf(2, 3.0 + h, 1.5)
          - ss.skellam.logpmf(2, 3.0 - h, 1.5)) / (2 * h)
    _rel(g, fd, 1e-6)


# --- gradients, sampling, transformations -------------------------------------------

GRAD = {"nct": (4.0, 0.7), "ncf": (4.0, 12.0, 2.0), "argus": (1.7,),
        "crystalball": (1.5, 3.5), "kappa3": (2.5,)}


@pytest.mark.parametrize("name", _params(GRAD))
def test_parameter_gradients(name):
    """d/dparam of logpdf and cdf against central differences of SciPy's."""
    check_gradients_against_fd(name, np.array(GRAD[name] + (0.3, 1.4)))


@pytest.mark.parametrize("name", _params(GRAD))
def test_rvs_ks_and_transformations(name):
    d, ref = getattr(stats, name), getattr(ss, name)
    pt = GRAD[name] + (0.3, 1.4)
    s = np.asarray(d.rvs(*pt, size=3000, random_state=sciax.random.key(11)))
    assert np.all(np.isfinite(s))
    assert ss.kstest(s, ref.cdf, args=pt).pvalue > 1e-3
    # jit and vmap equal eager
    x = ref.ppf(np.array([0.2, 0.5, 0.9]), *pt)
    eager = np.asarray(d.logpdf(x, *pt))
    vm = sciax.vmap(lambda v: d.logpdf(v, *pt))(snp.asarray(x))
    _rel(vm, eager, 1e-15)
    jt = sciax.jit(lambda v, p: d.cdf(v, *p))(x, snp.asarray(pt))
    _rel(jt, np.asarray(d.cdf(x, *pt)), 1e-15)
    # frozen distributions are pytrees: through jit as an argument
    fz = d(*pt)
    _rel(sciax.jit(lambda f, v: f.logpdf(v))(fz, x), eager, 1e-15)


@pytest.mark.slow
def test_fit_kappa3_and_crystalball():
    # the base class's MLE (BFGS, exact gradients): its likelihood is at least
    # SciPy's at SciPy's own estimate, and the parameters are recovered
    data = ss.kappa3.rvs(3.0, scale=2.0, size=2000, random_state=7)
    est = stats.kappa3.fit(data, floc=0.0)
    ref = ss.kappa3.fit(data, floc=0.0)
    assert ss.kappa3.nnlf(est, data) <= ss.kappa3.nnlf(ref, data) + 1e-6
    assert abs(est[0] - 3.0) < 0.5 and abs(est[2] - 2.0) < 0.3
    data = ss.crystalball.rvs(1.5, 3.0, loc=0.5, size=2000, random_state=8)
    est = stats.crystalball.fit(data, 1.0, 2.0, loc=0.0, scale=1.0)
    assert abs(est[0] - 1.5) < 0.3 and abs(est[2] - 0.5) < 0.2
    assert abs(est[3] - 1.0) < 0.1
