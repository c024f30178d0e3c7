"""Edge regions of the noncentral t, F and chi-square kernels
(sciax/special/_noncentral.py), against mpmath: large degrees of freedom,
huge arguments, and the chi-square density far from its noncentrality."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc
import scipy.stats as sst

import sciax
import sciax.numpy as snp
from sciax import special as ss
from sciax import stats as st


def _nct_cdf_mp(df, nc, t):
    """P(T <= t) = E[Phi(t sqrt(s) - nc)], s = V/df, V ~ chi2(df)."""
    with mp.workdps(40):
        df = mp.mpf(df)
        k = df / 2
        lc = k * mp.log(k) - mp.loggamma(k)

        def f(s):
            return mp.exp(lc + (k - 1) * mp.log(s) - k * s) * mp.ncdf(t * mp.sqrt(s) - nc)

        w = mp.sqrt(2 / df)
        pts = sorted({mp.mpf(0)} | {1 + j * w for j in (-30, -8, -3, -1, 0, 1, 3, 8, 30)
                                    if 1 + j * w > 0}) + [mp.inf]
        return float(mp.quad(f, pts, maxdegree=12))


def _ncx2_logpdf_mp(x, k, nc):
    with mp.workdps(40):
        x, nc, nu = mp.mpf(x), mp.mpf(nc), mp.mpf(k) / 2 - 1
        return float(mp.log(mp.exp(-(x + nc) / 2) / 2 * (x / nc) ** (nu / 2)
                            * mp.besseli(nu, mp.sqrt(nc * x))))


@pytest.mark.slow
def test_nctdtr_large_df():
    # the series' t(a + k) took lgamma(a + k + b) - lgamma(b) (eps b log b
    # absolutely) and the opposite-sign quadrature its constant by lgamma(df/2):
    # 1e-11 at df = 1e5, 1e-7 at 1e9 (SciPy is 1e-5 off at t = -3 there)
    pts = [(df, nc, t) for df in (1e3, 1e5, 1e7, 1e9)
           for nc, t in ((1.0, -3.0), (1.0, -1.0), (1.0, 2.0), (-2.0, 2.0), (-2.0, -1.0))]
    df, nc, t = (snp.asarray(v) for v in zip(*pts))
    ours = np.asarray(ss.nctdtr(df, nc, t))
    ref = np.array([_nct_cdf_mp(*p) for p in pts])
    # the quadrature's log-integrand still holds ~eps df^(1/4) absolutely
    np.testing.assert_allclose(ours, ref, rtol=1e-11, atol=0)


@pytest.mark.slow
def test_ncfdtr_large_dfd():
    # same lgamma difference: 1e-8 at dfd = 1e10 before; SciPy (Boost) is
    # accurate here (checked against mpmath in the session's notes)
    dfd = np.array([10.0, 1e4, 1e6, 1e8, 1e10, 1e12])[:, None]
    x = np.array([0.1, 1.0, 3.0, 10.0])[None, :]
    np.testing.assert_allclose(np.asarray(ss.ncfdtr(3.0, snp.asarray(dfd), 2.0,
                                                    snp.asarray(x))),
                               sc.ncfdtr(3.0, dfd, 2.0, x), rtol=5e-14, atol=0)


@pytest.mark.slow  # default-run budget (session 24)
def test_ncx2_huge_arguments():
    x = snp.asarray([1e10, 1e50, 1e100, 1e300, np.inf])
    # the tails were NaN from x ~ 1e50 (0 * inf in a block's ratios), the
    # log-density NaN at inf
    # (the CDF is a sum of Poisson weights times P = 1: an ulp below 1)
    np.testing.assert_allclose(np.asarray(ss.chndtr(x, 3.0, 2.0)), 1.0, rtol=0, atol=3e-16)
    np.testing.assert_array_equal(np.asarray(st.ncx2.sf(x, 3.0, 2.0)), 0.0)
    lp = np.asarray(st.ncx2.logpdf(x, 3.0, 2.0))
    assert lp[-1] == -np.inf and np.all(np.isfinite(lp[:-1]))


@pytest.mark.slow  # default-run budget (session 24)
def test_ncx2_logpdf_far_from_nc():
    # the Poisson window around nc/2 missed the terms' peak: x = 1e8 at nc = 2
    # was 11,646 off in log
    pts = [(1e8, 3.0, 2.0), (1e5, 3.0, 2.0), (1.0, 3.0, 1000.0), (1000.0, 3.0, 1000.0),
           (1e12, 0.5, 3.0), (2.0, 1.5, 0.5), (900.0, 7.0, 1000.0)]
    x, k, nc = (snp.asarray(v) for v in zip(*pts))
    ours = np.asarray(st.ncx2.logpdf(x, k, nc))
    ref = np.array([_ncx2_logpdf_mp(*p) for p in pts])
    np.testing.assert_allclose(ours, ref, rtol=1e-14, atol=4e-15)
    # and the density's derivatives through the Bessel form (ive is
    # differentiable in its order) against SciPy's central differences
    g = sciax.grad(lambda a, b, c: st.ncx2.logpdf(a, b, c), argnums=(0, 1, 2))(
        1e3, 3.0, 1e3)
    h = 1e-5
    fd = [(sst.ncx2.logpdf(1e3 + h, 3, 1e3) - sst.ncx2.logpdf(1e3 - h, 3, 1e3)) / (2 * h),
          (sst.ncx2.logpdf(1e3, 3 + h, 1e3) - sst.ncx2.logpdf(1e3, 3 - h, 1e3)) / (2 * h),
          (sst.ncx2.logpdf(1e3, 3, 1e3 + h) - sst.ncx2.logpdf(1e3, 3, 1e3 - h)) / (2 * h)]
    np.testing.assert_allclose([float(v) for v in g], fd, rtol=1e-6, atol=1e-9)
