"""``sciax.stats.studentized_range`` against SciPy 1.17 and closed forms.

SciPy integrates adaptively with ``nquad(epsabs=1e-11, epsrel=1e-12)``, so
its CDF and density carry an *absolute* error of up to ~1e-11 (and its
``sf`` is ``1 - cdf``): the comparison allows ``1e-10`` relative plus
``2e-11`` absolute (observed: 2e-12 absolute, 6e-12 relative where the
values exceed 1e-3).  The tails are checked where an exact reference
exists: for ``k = 2`` the range is ``sqrt(2) |Z1 - Z2| / sqrt(2)``, so
``Q = sqrt(2) |T_df|`` (``erf``/``erfc`` for ``df = inf``), whose CDF, SF and
density SciPy's ``betainc``/``t`` give to full precision; there the
tolerance is 1e-12 relative down to values of 1e-100 (observed 2e-13).

Every test evaluates its whole grid in one compiled program (vmap), and
SciPy's slow integrals (~10 ms a point) are kept to ~130 points.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
import scipy.special as sc
import scipy.stats as ss

import sciax
import sciax.numpy as snp
import sciax.stats as xs

# Each test compiles the two-level quadrature (the shared program alone ~27 s on
# two cores): the file runs with the slow tests, in CI's second step.
pytestmark = pytest.mark.slow

sr = xs.studentized_range
KS = (2.0, 3.0, 5.0, 10.0, 20.0)
DFS = (2.0, 5.0, 10.0, 30.0, 120.0, math.inf)
RTOL_SCIPY, ATOL_SCIPY = 1e-10, 2e-11
RTOL_EXACT = 1e-12
RTOL_DX = 5e-10


def _grid():
    """(x, k, df) over KS x DFS at a low, a central and a high point of each
    law (x scaled by 1 + log k, about the median of the range)."""
    k, df, f = np.meshgrid(KS, DFS, (0.4, 1.0, 2.2), indexing="ij")
    return (f * (1.0 + np.log(k))).ravel(), k.ravel(), df.ravel()


def _k2_exact():
    """Points and exact (cdf, sf, pdf) for k = 2, into both tails."""
    q, df = np.meshgrid((1e-3, 0.05, 3.0, 9.0, 25.0), (2.0, 5.0, 30.0, math.inf),
                        indexing="ij")
    q, df = q.ravel(), df.ravel()
    u = q / math.sqrt(2.0)
    dff = np.where(np.isinf(df), 1.0, df)
    cdf = np.where(np.isinf(df), sc.erf(q / 2.0),
                   sc.betainc(0.5, dff / 2.0, u * u / (dff + u * u)))
    sf = np.where(np.isinf(df), sc.erfc(q / 2.0), 2.0 * ss.t.sf(u, dff))
    pdf = np.where(np.isinf(df), np.exp(-q * q / 4.0) / math.sqrt(math.pi),
                   math.sqrt(2.0) * ss.t.pdf(u, dff))
    return q, np.full_like(q, 2.0), df, (cdf, sf, pdf)


def _point(x, k, df):
    cdf = lambda x, df: sr.cdf(x, k, df)  # noqa: E731
    dx, ddf = sciax.grad(cdf, argnums=(0, 1))(x, df)
    return cdf(x, df), sr.sf(x, k, df), sr.pdf(x, k, df), dx, ddf


# The points of the grid, the exact k = 2 tails, and the neighbours of six
# points for central differences in x and in df (step 1e-5 relative:
# truncation <~3e-8 relative, rounding <~1e-10), all evaluated by one compiled
# program: compiling this quadrature is what costs time (each method's
# program takes seconds), so the tests share it.
_FD_X = np.array([0.3, 1.5, 3.0, 4.5, 6.0, 9.0])
_FD_K = np.array([2.0, 3.0, 5.0, 10.0, 20.0, 5.0])
_FD_DF = np.array([2.0, 5.0, 10.0, 30.0, 120.0, math.inf])


@functools.lru_cache(maxsize=None)
def _evaluated():
    x, k, df = _grid()
    q2, k2, df2, exact = _k2_exact()
    hx = 1e-5 * _FD_X
    hd = 1e-5 * np.where(np.isinf(_FD_DF), 1.0, _FD_DF)
    fx = np.concatenate([_FD_X, _FD_X + hx, _FD_X - hx, _FD_X, _FD_X])
    fk = np.tile(_FD_K, 5)
    fdf = np.concatenate([_FD_DF, _FD_DF, _FD_DF, _FD_DF + hd, _FD_DF - hd])
    parts = [(x, k, df), (q2, k2, df2), (fx, fk, fdf)]
    allx, allk, alldf = (np.concatenate(v) for v in zip(*parts))
    out = [np.asarray(v) for v in sciax.jit(sciax.vmap(_point))(allx, allk, alldf)]
    ends = np.cumsum([0] + [p[0].size for p in parts])
    split = [[v[a:b] for v in out] for a, b in zip(ends[:-1], ends[1:])]
    return (x, k, df), split[0], exact, split[1], (hx, hd), split[2]


def test_values_against_scipy():
    (x, k, df), (cdf, sf, pdf, dx, _), *_ = _evaluated()
    want_cdf = ss.studentized_range.cdf(x, k, df)
    np.testing.assert_allclose(cdf, want_cdf, rtol=RTOL_SCIPY, atol=ATOL_SCIPY)
    np.testing.assert_allclose(sf, 1.0 - want_cdf, rtol=RTOL_SCIPY, atol=ATOL_SCIPY)
    sel = slice(0, x.size, 2)  # half the points for the density (SciPy's is as slow)
    np.testing.assert_allclose(pdf[sel], ss.studentized_range.pdf(x[sel], k[sel],
                                                                  df[sel]),
                               rtol=RTOL_SCIPY, atol=ATOL_SCIPY)
    # each tail is summed directly, the other is its complement
    np.testing.assert_allclose(cdf + sf, 1.0, rtol=0, atol=1e-15)
    # d cdf / dx (reverse mode through the quadrature) is the density: the
    # derivative of the CDF's rule is a rule for the density on the CDF's nodes
    # and windows, less accurate than the density's own (observed 9e-11)
    np.testing.assert_allclose(dx, pdf, rtol=RTOL_DX)


def test_tails_against_exact_k2():
    _, _, exact, got, *_ = _evaluated()
    for g, want in zip(got[:3], exact):
        keep = want > 1e-100
        np.testing.assert_allclose(g[keep], want[keep], rtol=RTOL_EXACT)


def test_derivatives_against_finite_differences():
    *_, (hx, hd), (cdf, sf, pdf, dx, ddf) = _evaluated()
    n = _FD_X.size
    c, s = cdf.reshape(5, n), sf.reshape(5, n)
    # differences of the smaller tail (no cancellation against 1)
    low = c[0] < 0.5
    fd_x = np.where(low, c[1] - c[2], s[2] - s[1]) / (2 * hx)
    fd_df = np.where(low, c[3] - c[4], s[4] - s[3]) / (2 * hd)
    np.testing.assert_allclose(dx[:n], pdf[:n], rtol=RTOL_DX)
    np.testing.assert_allclose(dx[:n], fd_x, rtol=1e-6)
    fin = np.isfinite(_FD_DF)
    np.testing.assert_allclose(ddf[:n][fin], fd_df[fin], rtol=1e-6)
    assert np.all(ddf[:n][~fin] == 0.0)


def test_ppf_round_trip_and_moments():
    """ppf (eager, its own program) inverts the vmapped/jitted CDF of the
    shared evaluation, in both tails; Tukey's table; moments for k = 2."""
    (x, k, df), (cdf, sf, *_), *_ = _evaluated()
    sel = np.array([0, 13, 31, 50, 70, 88])        # lower, central, upper points
    p = np.where(cdf[sel] < 0.5, cdf[sel], 1.0 - sf[sel])
    got = np.asarray(sr.ppf(np.append(p, 0.95), np.append(k[sel], 3.0),
                            np.append(df[sel], 10.0)))
    np.testing.assert_allclose(got[:-1], x[sel], rtol=1e-10)
    # Tukey's HSD table (k = 3, df = 10, alpha = 0.05): 3.877
    assert abs(got[-1] - 3.877) < 5e-4
    # moments: for k = 2, Q = sqrt(2) |T_df|
    mean, var = sr.stats(snp.asarray([2.0, 2.0]), snp.asarray([10.0, math.inf]),
                         moments="mv")
    e_abs_t = math.sqrt(10.0) * math.gamma(4.5) / (math.sqrt(math.pi)
                                                   * math.gamma(5.0))
    np.testing.assert_allclose(np.asarray(mean),
                               [math.sqrt(2.0) * e_abs_t, 2.0 / math.sqrt(math.pi)],
                               rtol=1e-12)
    np.testing.assert_allclose(np.asarray(var),
                               [2.0 * 10.0 / 8.0 - 2.0 * e_abs_t**2,
                                2.0 - 4.0 / math.pi], rtol=1e-12)
