"""``nct`` and ``ncf`` against mpmath (30-40 digits) and SciPy.

References, each independent of our series and of our quadrature:

* nct density: the parabolic cylinder form.  With ``mu = t d / sqrt(n +
  t^2)``, ``f(t) = 2 / (2^(n/2) Gamma(n/2) sqrt(2 pi n)) (1 + t^2/n)^(-(n+1)/2)
  exp(-(d^2 - mu^2)/2) J_n(mu)``, ``J_n(mu) = int_0^inf s^n exp(-(s - mu)^2/2)
  ds = Gamma(n + 1) exp(-mu^2/4) D_{-n-1}(-mu)`` (DLMF 12.5.1), which mpmath
  evaluates at any sign of ``mu`` (no cancellation).
* nct tails where ``t d < 0``: the defining integral over ``S ~ chi(n)``
  (``mp_nct_outer``, mpmath's adaptive tanh-sinh ``quad``, not our
  trapezoid rule).  Elsewhere SciPy (Boost's series) is accurate and is the
  reference.
* ncf: the Poisson mixture of regularized incomplete beta functions, summed in
  mpmath until the weights are negligible.

Tolerances: 1e-12 relative (our series and quadrature are exact to a few
ulps times the number of terms; ``lgamma`` of ``n/2`` at ``n`` in the
hundreds costs ~1e-14), unless a comment says otherwise.
"""

from __future__ import annotations

import functools

import mpmath as mp
import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
from sciax import stats


def _rel(a, b, rtol, msg=""):
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                               rtol=rtol, atol=0.0, err_msg=msg)


@functools.lru_cache(maxsize=None)
def mp_nct_pdf(t, n, d):
    with mp.workdps(40):
        t, n, d = mp.mpf(t), mp.mpf(n), mp.mpf(d)
        mu = t * d / mp.sqrt(n + t * t)
        J = mp.gamma(n + 1) * mp.exp(-mu * mu / 4) * mp.pcfd(-n - 1, -mu)
        k = 2 / (2 ** (n / 2) * mp.gamma(n / 2) * mp.sqrt(2 * mp.pi * n))
        return (k * (1 + t * t / n) ** (-(n + 1) / 2)
                * mp.exp(-(d * d - mu * mu) / 2) * J)


@functools.lru_cache(maxsize=None)
def mp_nct_outer(t, n, d):
    """The tail of nct(n, d) beyond t, on t's side of 0 (the cdf for t < 0),
    for t d < 0: E[Q(|t| S / sqrt(n) + |d|)] over S ~ chi(n), a positive
    integrand, by mpmath's adaptive tanh-sinh ``quad`` in w = log S on a
    partition in quarter widths around the integrand's peak (coarser
    partitions left mpmath 1e-8 off without warning)."""
    with mp.workdps(30):
        t, n, m = abs(mp.mpf(t)), mp.mpf(n), abs(mp.mpf(d))
        a = t / mp.sqrt(n)
        lc = -(n / 2 - 1) * mp.log(2) - mp.loggamma(n / 2)

        def f(w):
            if w > 30:
                return mp.mpf(0)
            s = mp.exp(w)
            return mp.exp(n * w - s * s / 2 + lc) * mp.ncdf(-(a * s + m))

        am = a * m
        s0 = 2 * n / (am + mp.sqrt(am**2 + 4 * (1 + a * a) * n))
        sig = 1 / mp.sqrt(2 * (1 + a * a) * s0**2 + am * s0)
        w0 = mp.log(s0)
        pts = sorted({w0 - 400 / n, w0 - 100 / n, w0 - 30 / n}
                     | {w0 + k * sig / 4 for k in range(-64, 33)})
        return mp.quad(f, [-mp.inf] + pts + [mp.inf])


@functools.lru_cache(maxsize=None)
def mp_ncf(x, n1, n2, nc, upper):
    with mp.workdps(30):
        x, n1, n2, lam = mp.mpf(x), mp.mpf(n1), mp.mpf(n2), mp.mpf(nc) / 2
        z = n1 * x / (n1 * x + n2)
        tot, j = mp.mpf(0), 0
        while True:
            w = mp.exp(-lam + j * mp.log(lam) - mp.loggamma(j + 1)) if lam > 0 else (
                mp.mpf(1) if j == 0 else mp.mpf(0))
            a = n1 / 2 + j
            ib = (mp.betainc(a, n2 / 2, z, 1, regularized=True) if upper
                  else mp.betainc(a, n2 / 2, 0, z, regularized=True))
            tot += w * ib
            if j > lam and w < mp.mpf(10) ** -40:
                return tot
            j += 1


# (df, nc): same-sign and opposite-sign points, small and large df and nc
NCT = [(0.7, 2.0), (5.0, 0.5), (30.0, 3.0), (2.5, -1.5), (300.0, 8.0), (10.0, 20.0)]
XS = [-200.0, -38.4, -7.37, -1.41, -0.27, -0.01, 0.0, 0.05, 0.9, 3.0, 12.0, 150.0]


def _grid(params, xs):
    """Flat (x, df, nc) arrays over params x xs: one call, one compile."""
    g = np.array([(x, n, d) for n, d in params for x in xs])
    return g[:, 0], g[:, 1], g[:, 2]


def test_nct_pdf_vs_mpmath():
    # includes x * nc < 0, where the termwise density has terms of both signs
    # (the former window sum was 2.8e-7 off at (30, 3), -3); ours integrates a
    # positive integrand there
    x, n, d = _grid(NCT + [(4.0, 6.0), (4.0, -6.0)], XS)
    ref = np.array([float(mp_nct_pdf(*v)) for v in zip(x, n, d)])
    ok = ref > 1e-300
    _rel(np.asarray(stats.nct.pdf(x, n, d))[ok], ref[ok], 1e-12)
    # SciPy (Boost) is accurate at these points, except at large df where
    # it returns NaN (asserted, so that a SciPy fix shows up here)
    with np.errstate(all="ignore"):
        assert np.isnan(ss.nct.pdf(-1.41, 300.0, 8.0))
    assert ref[(x == -1.41) & (n == 300.0)][0] > 0


@pytest.mark.slow
def test_nct_logpdf_vs_mpmath():
    x, n, d = _grid(NCT, XS)
    lref = np.array([float(mp.log(mp_nct_pdf(*v))) for v in zip(x, n, d)])
    # relative to max(|log f|, 1): absolute near log f = 0
    np.testing.assert_allclose(np.asarray(stats.nct.logpdf(x, n, d)), lref, rtol=1e-13,
                               atol=1e-13)


@pytest.mark.slow
def test_nct_tails():
    x, n, d = _grid(NCT, XS)
    with np.errstate(all="ignore"):
        rc, rs = ss.nct.cdf(x, n, d), ss.nct.sf(x, n, d)
    cdf, sf = np.asarray(stats.nct.cdf(x, n, d)), np.asarray(stats.nct.sf(x, n, d))
    # SciPy where it sums positive terms: the lower tail for x > 0 ...
    ok = (x * d >= 0) & (rc > 1e-300)
    _rel(cdf[ok], rc[ok], 2e-12)
    ok = (x * d >= 0) & (rs > 1e-300)
    _rel(sf[ok], rs[ok], 2e-12)
    # ... and the tails towards 0 where x d < 0 (both >= 1/2)
    _rel(np.where(x < 0, sf, cdf)[x * d < 0], np.where(x < 0, rs, rc)[x * d < 0], 2e-12)
    # at 0: Phi(-d) and Phi(d)
    z = x == 0
    # (sciax.special.ndtr(-20) is 2.9e-14 off)
    _rel(cdf[z], ss.norm.cdf(-d[z]), 1e-13)
    _rel(sf[z], ss.norm.cdf(d[z]), 1e-13)


@pytest.mark.slow
def test_nct_lower_tail_underflow():
    # nct(10, 20) at 0.05: 7.49e-89 (SciPy agrees with the series summed in
    # mpmath).  I_z(a + k, b) underflows at the Poisson peak k = 200 (z ~
    # 2.5e-4): anchored there, the series read 0 and the cdf Phi(-20) =
    # 2.75e-89; now the anchor moves down (_lower_anchor)
    _rel(stats.nct.cdf(0.05, 10.0, 20.0), ss.nct.cdf(0.05, 10.0, 20.0), 1e-12)


@functools.lru_cache(maxsize=None)
def mp_nct_lower(t, n, d):
    """P(T <= t) for t, d > 0 by the series of nct's Notes, ``Phi(-d) + 1/2
    sum_j p_j I_z(j + 1/2, n/2) + q_j I_z(j + 1, n/2)``, in mpmath (no
    underflow): each family from j = J (past the Poisson weights' mass) down
    to 0 by ``I_z(a + j) = I_z(a + j + 1) + t(a + j)``, positive terms, from
    one mpmath ``betainc`` at ``a + J``."""
    with mp.workdps(30):
        t, n, d = mp.mpf(t), mp.mpf(n), mp.mpf(d)
        z, y, b, lam = t * t / (n + t * t), n / (n + t * t), n / 2, d * d / 2
        J = int(lam + 25 * mp.sqrt(lam) + 60)
        tot = mp.mpf(0)
        fams = ((mp.mpf(1) / 2, 1, 1), (mp.mpf(1), mp.mpf(3) / 2, d / mp.sqrt(2)))
        for a, e, c in fams:
            ib = mp.betainc(a + J, b, 0, z, regularized=True)
            # t(a + J) = z^(a+J) y^b / ((a + J) B(a + J, b)), w_J
            tj = mp.exp((a + J) * mp.log(z) + b * mp.log(y) - mp.log(a + J)
                        - mp.log(mp.beta(a + J, b)))
            w = c * mp.exp(-lam + J * mp.log(lam) - mp.loggamma(J + e))
            for j in range(J - 1, -1, -1):
                tj = tj * (a + j + 1) / (z * (a + j + b))
                w = w * (j + e) / lam
                ib += tj
                tot += w * ib
        return mp.ncdf(-d) + tot / 2


@pytest.mark.slow
def test_nct_lower_tail_vs_mpmath():
    """Small x > 0, large nc: the lower tail's terms underflow at the Poisson
    peak (the cdf read Phi(-nc) alone: 4.9e-198 for 6.6e-189 at (0.5, 10,
    30)); down to 4.7e-308, where its series part is subnormal.  The worst
    error of a denser grid (280 points, x in [1e-3, 2], df in [1, 100], nc in
    [5, 37.5]) was 1.0e-12, at (2, 10, 37.5): the logs of the weight and of
    t(a + k) at the anchor hold lgamma(~600), which cost as much where the
    anchor stays (8.9e-13 at (2, 2.5, 35), before and after)."""
    x, n, d = _grid([(n, d) for n in (1.0, 2.5, 10.0, 100.0)
                     for d in (5.0, 10.0, 20.0, 30.0, 37.5)], [1e-3, 0.05, 0.5, 2.0])
    ref = [mp_nct_lower(*v) for v in zip(x, n, d)]
    _rel(stats.nct.cdf(x, n, d), np.array([float(r) for r in ref]), 2e-12)
    lref = np.array([float(mp.log(r)) for r in ref])
    _rel(stats.nct.logcdf(x, n, d), lref, 1e-14)
    # ncf's lower tail is the same sum (it read 0 at both)
    p = np.array([(1e-3, 5.0, 10.0, 500.0), (0.3, 5.0, 10.0, 1200.0)])
    _rel(stats.ncf.cdf(*p.T), [float(mp_ncf(*v, False)) for v in p], 1e-12)


# (x, df, nc) with x nc < 0, and the least relative error of SciPy's cdf there
OUTER = [(-7.37, 30.0, 3.0, 1e-5), (-38.4, 30.0, 3.0, 1e-2), (-1.41, 300.0, 8.0, 1e-6),
         (-38.4, 300.0, 8.0, None), (-7.37, 1.5, 10.0, 1.0), (-0.27, 10.0, 20.0, None),
         (-3.0, 0.7, 2.0, None), (-0.05, 2.5, 1.5, None)]


@pytest.mark.slow
def test_nct_far_tails_vs_mpmath():
    """x nc < 0: the tail beyond x, where the series has terms of both signs.

    Boost (SciPy) forms it as 1 - (the other tail), so its relative error
    grows like the inverse of the tail; ours integrates a positive function.
    Where SciPy's error is listed, it is asserted to stay above it (so that
    a SciPy fix shows up here)."""
    x = np.array([c[0] for c in OUTER])
    n = np.array([c[1] for c in OUTER])
    d = np.array([c[2] for c in OUTER])
    ref = np.array([float(mp_nct_outer(*c[:3])) for c in OUTER])
    _rel(stats.nct.cdf(x, n, d), ref, 1e-12)
    _rel(stats.nct.sf(-x, n, -d), ref, 1e-12)
    _rel(np.exp(np.asarray(stats.nct.logcdf(x, n, d))), ref, 1e-12)
    with np.errstate(all="ignore"):
        theirs = ss.nct.cdf(x, n, d)
    for c, t, r in zip(OUTER, theirs, ref):
        if c[3] is not None:
            assert not abs(t / r - 1) < c[3], (c, t, r)
    # SciPy's density is off there too, e.g. 3.5e-9 at nct(30, 3), x = -3.008
    x0 = -3.0083332952131148
    r = float(mp_nct_pdf(x0, 30.0, 3.0))
    _rel(stats.nct.pdf(x0, 30.0, 3.0), r, 1e-12)
    assert not abs(ss.nct.pdf(x0, 30.0, 3.0) / r - 1) < 1e-9


@pytest.mark.slow
def test_ncf_vs_mpmath_and_scipy():
    for p in ((3.0, 10.0, 1.5), (7.0, 25.0, 80.0), (0.8, 3.0, 0.0), (20.0, 4.0, 600.0)):
        q = np.array([1e-12, 1e-6, 0.1, 0.5, 0.9, 1 - 1e-6])
        x = ss.ncf.ppf(q, *p)
        for upper, fn in ((False, stats.ncf.cdf), (True, stats.ncf.sf)):
            ref = np.array([float(mp_ncf(v, *p, upper)) for v in x])
            _rel(fn(x, *p), ref, 1e-12, f"{fn.__name__} {p}")
        # the densities against SciPy's (Boost's series), accurate here
        _rel(stats.ncf.pdf(x, *p), ss.ncf.pdf(x, *p), 1e-11)
        _rel(stats.ncf.logpdf(x, *p), ss.ncf.logpdf(x, *p), 1e-12)
    # at 0 and below: cdf 0, sf 1
    np.testing.assert_array_equal(
        np.asarray(stats.ncf.cdf([0.0, -1.0], 3.0, 10.0, 2.0)), [0.0, 0.0])


@pytest.mark.slow
def test_transforms():
    """jit agrees with eager; grad of sf in x is minus the density, in the
    parameters central differences of SciPy's sf.  One compiled program per
    distribution serves both parameter sets (they are traced arguments); jit
    and vmap of logpdf and cdf, and their parameter gradients, are in
    test_distributions_s10.py."""
    x = np.array([-2.0, -0.3, 0.4, 1.7, 6.0])
    for d, p in ((stats.nct, (4.0, 0.7)), (stats.nct, (6.0, -2.0)),
                 (stats.ncf, (4.0, 12.0, 2.0))):
        xx = np.abs(x) if d is stats.ncf else x
        ref = ss.ncf if d is stats.ncf else ss.nct
        # jit fuses differently from the eager per-op programs: a few ulps
        _rel(sciax.jit(lambda v, q: d.logpdf(v, *q))(xx, snp.asarray(p)),
             np.asarray(d.logpdf(xx, *p)), 1e-14)
        gx, gp = sciax.vmap(sciax.grad(lambda v, q: d.sf(v, *q), argnums=(0, 1)),
                            in_axes=(0, None))(snp.asarray(xx), snp.asarray(p))
        _rel(gx, -np.exp(np.asarray(d.logpdf(xx, *p))), 1e-13)
        for i in range(len(p)):
            h = 1e-6 * (1.0 + abs(p[i]))
            up, dn = list(p), list(p)
            up[i] += h
            dn[i] -= h
            fd = (ref.sf(xx, *up) - ref.sf(xx, *dn)) / (2 * h)
            np.testing.assert_allclose(np.asarray(gp)[:, i], fd, rtol=1e-6,
                                       atol=1e-9, err_msg=f"sf d{i}")
