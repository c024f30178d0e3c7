"""The session-24 distributions of ``_distributions_s24.py`` (rv_histogram,
kstwo, levy_stable, landau and the random-matrix samplers) against SciPy.

Tolerances: densities 1e-12 relative and CDFs 1e-12 where SciPy's value is
accurate; each looser or restricted case names why beside it (SciPy's
kstwo density is a numerical derivative, its kstwo moments a quad across
the density's kinks, its levy_stable far tails lose all digits).  Samplers
cannot share SciPy's random streams: they are checked by their algebra
(orthogonality, determinants, norms) and by KS tests of laws that follow
from Haar measure.  Every distribution's program compiles for seconds, so
the default run keeps the doctests and the cheap checks; the comparisons
are ``slow``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats as ss
from scipy.integrate import quad

import sciax
import sciax.numpy as snp
from sciax import stats
from sciax.stats._distributions_s24 import _durbin_one, _to_corr


def _rel(a, b, rtol, atol=1e-300, msg=""):
    np.testing.assert_allclose(np.asarray(a, dtype=float), b, rtol=rtol, atol=atol,
                               err_msg=msg)


# --- rv_histogram ---------------------------------------------------------------------


def test_rv_histogram():
    """Variable bins, counts (density=False), an empty bin: every method
    against SciPy's, and d cdf/dx = pdf."""
    counts = np.array([3.0, 0.0, 5.0, 2.0, 7.0])
    edges = np.array([-1.0, 0.0, 0.5, 2.0, 2.5, 4.0])
    d = stats.rv_histogram((counts, edges), density=False)
    r = ss.rv_histogram((counts, edges), density=False)
    x = np.array([-2.0, -0.5, 0.2, 0.5, 1.3, 2.2, 3.9, 5.0])
    q = np.array([0.0, 0.1, 0.176, 0.4, 0.75, 1.0])
    # one program (the methods' own jits inline)
    pdf, cdf, sf, ppf, g = sciax.jit(lambda v, p: (
        d.pdf(v), d.cdf(v), d.sf(v), d.ppf(p),
        sciax.vmap(sciax.grad(lambda t: d.cdf(t)))(v)))(x, q)
    for m, got in (("pdf", pdf), ("cdf", cdf), ("sf", sf)):
        _rel(got, getattr(r, m)(x), 1e-14, atol=1e-16, msg=m)
    _rel(ppf, r.ppf(q), 1e-14, msg="ppf")
    _rel(g[1:-1], r.pdf(x[1:-1]), 1e-14, msg="d cdf/dx")
    # moments and entropy are host sums over the bins
    _rel(np.array(d.stats(moments="mvsk")), r.stats(moments="mvsk"), 1e-13)
    _rel(d.entropy(), r.entropy(), 1e-13)
    with pytest.warns(RuntimeWarning, match="Bin widths"):
        stats.rv_histogram((counts, edges))
    with pytest.raises(ValueError, match="do not match"):
        stats.rv_histogram((counts, edges[:-1]))


# --- kstwo ----------------------------------------------------------------------------

KS_N = [1, 2, 5, 10, 50, 140, 141, 500, 5000, 20000]


@pytest.mark.slow
def test_kstwo_vs_scipy():
    """cdf and sf in every one of SciPy's regions (Ruben-Gambino, Durbin,
    Pomeranz, 2 smirnov, Pelz-Good) at 1e-12 (the exact methods agree to
    rounding); the density against SciPy's numerical derivative (3e-9: its
    5-point rule with step x/2^16) up to q = 0.8 and in the upper tail
    against the exact Durbin matrix's derivative."""
    q = np.array([1e-6, 0.01, 0.2, 0.5, 0.8, 0.99])
    n = np.repeat(np.array(KS_N, float), len(q))
    x = ss.kstwo.ppf(np.tile(q, len(KS_N)), n)
    x = np.concatenate([x, [0.5 / 7 + 0.01, 0.99, 0.7]])
    n = np.concatenate([n, [7.0, 30.0, 3.0]])
    cdf, sf, pdf = sciax.jit(lambda v, m: (stats.kstwo.cdf(v, m), stats.kstwo.sf(v, m),
                                           stats.kstwo.pdf(v, m)))(x, n)
    _rel(cdf, ss.kstwo.cdf(x, n), 1e-12, msg="cdf")
    # sf = 1 - cdf for n <= 140 in both (3e-14 absolute apart at sf =
    # 0.01); above, 2 smirnov in both, sciax.special's and SciPy's smirnov
    # 2e-11 apart at n = 20000
    _rel(sf, ss.kstwo.sf(x, n), 3e-11, atol=1e-13, msg="sf")
    mid = np.tile(q <= 0.8, len(KS_N))
    mid = np.concatenate([mid, [True, True, True]])
    _rel(np.asarray(pdf)[mid], ss.kstwo.pdf(x, n)[mid], 3e-9, msg="pdf")
    # the upper tail for n > 140, where SciPy's sf is 2 smirnov (Miller's
    # approximation, 1e-7 relative at sf = 0.01) and its pdf a difference of
    # its Pelz-Good CDF (2.4e-5 off at sf = 0.01, 3e-3 at 1e-6): against the
    # exact Durbin matrix's derivative (its range reaches these points)
    nt = np.array([141.0, 500.0, 141.0, 500.0])
    xt = ss.kstwo.isf(np.array([0.01, 0.01, 1e-6, 1e-4]), nt)
    exact = [sciax.jvp(lambda v, m=m: _durbin_one(snp.asarray(m), v, 117),
                       (snp.asarray(v),), (snp.asarray(1.0),))[1]
             for m, v in zip(nt, xt)]
    _rel(stats.kstwo.pdf(xt, nt), np.array(exact, float), 5e-7, msg="pdf tail")
    # reverse mode: d cdf/dx = pdf, at a knot of the Durbin matrix (n x = 4)
    # and inside pieces
    xs, ns = np.array([0.2, 0.31, 0.012]), np.array([20.0, 20.0, 5000.0])
    g = sciax.vmap(sciax.grad(lambda v, m: stats.kstwo.cdf(v, m)))(xs, ns)
    _rel(g, np.asarray(stats.kstwo.pdf(xs, ns)), 1e-12, msg="grad")


@pytest.mark.slow
def test_kstwo_quantiles_and_moments():
    """ppf against SciPy's (which solves its CDF) up to q = 0.9; isf by its
    own sf (SciPy's isf also solves the CDF, with the Pelz-Good CDF against
    the 2 smirnov SF: 1e-4 apart at sf = 1e-6, n = 200), and against SciPy
    where both tails are exact (n <= 140); moments against piecewise quad of
    SciPy's exact sf between the kinks j/(2n) (SciPy's own integrates across
    them: 4e-5 off in n = 10's kurtosis)."""
    q = np.array([1e-10, 1e-4, 0.3, 0.9])
    n = np.array([3.0, 10.0, 60.0, 200.0])[:, None]
    _rel(stats.kstwo.ppf(q, n), ss.kstwo.ppf(q, n), 1e-10, msg="ppf")
    xi = np.asarray(stats.kstwo.isf(q, n))
    _rel(stats.kstwo.sf(xi, n), np.broadcast_to(q, xi.shape), 1e-10, msg="sf(isf)")
    # (SciPy's isf at q = 1e-10 solves cdf = 1 - 1e-10: 4e-9 off at n = 60)
    _rel(xi[:3, 1:], ss.kstwo.isf(q[1:], n[:3]), 1e-10, msg="isf")
    nn = 10
    pts = np.arange(1, 2 * nn + 1) / (2 * nn)
    raw = [pts[0] ** k + sum(
        quad(lambda t: k * t ** (k - 1) * ss.kstwo.sf(t, nn), a, b,
             epsabs=1e-16, epsrel=1e-13)[0] for a, b in zip(pts[:-1], pts[1:]))
        for k in (1, 2, 3, 4)]
    mu, m2, m3, m4 = raw
    var = m2 - mu**2
    skew = (m3 - 3 * mu * m2 + 2 * mu**3) / var**1.5
    kurt = (m4 - 4 * mu * m3 + 6 * mu**2 * m2 - 3 * mu**4) / var**2 - 3
    _rel(np.array(stats.kstwo.stats(nn, moments="mvsk")), [mu, var, skew, kurt], 1e-11)


# --- levy_stable and landau ----------------------------------------------------------

STABLE = [(1.5, 0.3), (0.7, -0.5), (1.0, 0.8), (1.0, 0.0), (1.9, 1.0), (0.5, 0.0),
          (1.3, -1.0), (2.0, 0.0), (0.3, 0.9), (0.6, 1.0)]


@pytest.mark.slow
def test_levy_stable_vs_scipy():
    """pdf, cdf and sf on |x| <= 25 against SciPy's Nolan integrals (its
    quad at epsrel 1.2e-14: 1e-12 here), one program for every (alpha,
    beta); the far left tail of a totally skewed law (1.9, 1) only where
    SciPy's value is above 1e-100 (both are unreliable below)."""
    x = np.array([-5.0, -1.3, -0.2, 0.3, 1.1, 4.0, 25.0])
    p = np.array(STABLE)
    a, b = p[:, :1], p[:, 1:]
    pdf, cdf, sf = sciax.jit(lambda v, a, b: (
        stats.levy_stable.pdf(v, a, b), stats.levy_stable.cdf(v, a, b),
        stats.levy_stable.sf(v, a, b)))(x, a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = {m: np.array([getattr(ss.levy_stable, m)(x, *pt) for pt in STABLE])
               for m in ("pdf", "cdf", "sf")}
    _rel(pdf, ref["pdf"], 1e-12, msg="pdf")
    _rel(cdf, ref["cdf"], 1e-12, msg="cdf")
    # SciPy's sf is 1 - cdf (no digits below 1e-12)
    ok = ref["sf"] > 1e-4
    _rel(np.asarray(sf)[ok], ref["sf"][ok], 1e-12, msg="sf")


@pytest.mark.slow
def test_levy_stable_tails_quantiles_and_rvs():
    """The alpha = 1 tail against its asymptote (1 + beta)/(pi x^2), whose
    next term is O(log(x)/x) relative (SciPy's value is 0.37 of it at x =
    1e3); ppf against SciPy's; scale at alpha = 1 shifts loc as SciPy; d
    pdf/d alpha; CMS variates by a KS test."""
    x = np.array([1e3, 1e4, 1e5])
    r = np.asarray(stats.levy_stable.pdf(x, 1.0, 0.8)) / (1.8 / (np.pi * x**2)) - 1
    assert np.all(np.abs(r) < 20 * np.log(x) / x)
    q = np.array([1e-4, 0.3, 0.8, 0.999])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _rel(stats.levy_stable.ppf(q, 1.5, 0.3), ss.levy_stable.ppf(q, 1.5, 0.3), 1e-10)
        _rel(stats.levy_stable.pdf(0.7, 1.0, 0.5, loc=0.2, scale=2.5),
             ss.levy_stable.pdf(0.7, 1.0, 0.5, loc=0.2, scale=2.5), 1e-12)
    # d pdf/d alpha (forward mode) against central differences of SciPy's
    xs = np.array([-1.0, 0.4, 3.0])
    _, g = sciax.jvp(lambda a: stats.levy_stable.pdf(xs, a, 0.3), (1.5,), (1.0,))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fd = (ss.levy_stable.pdf(xs, 1.5 + 1e-5, 0.3)
              - ss.levy_stable.pdf(xs, 1.5 - 1e-5, 0.3)) / 2e-5
    _rel(g, fd, 1e-7)
    r = np.asarray(stats.levy_stable.rvs(1.5, 0.3, size=2000, random_state=5))
    assert ss.kstest(r, lambda t: ss.levy_stable.cdf(t, 1.5, 0.3)).pvalue > 1e-3


@pytest.mark.slow
def test_landau_vs_scipy():
    """pdf, cdf, sf against SciPy's (Boost's approximations): 1e-11 (4e-12
    apart at x = 25); the left tail's double-exponential decay to 1e-260;
    ppf up to q = 0.999 and isf down to 1e-6 (SciPy's ppf at 1 - 1e-9 is
    1e-8 off: it inverts the lower tail)."""
    x = np.array([-5.0, -3.5, -1.3, -0.2, 0.3, 1.1, 4.0, 25.0, 1e3])
    _rel(stats.landau.pdf(x), ss.landau.pdf(x), 1e-11, msg="pdf")
    _rel(stats.landau.cdf(x), ss.landau.cdf(x), 1e-11, msg="cdf")
    _rel(stats.landau.sf(x), ss.landau.sf(x), 1e-11, msg="sf")
    q = np.array([1e-10, 1e-3, 0.3, 0.999])
    _rel(stats.landau.ppf(q), ss.landau.ppf(q), 1e-10, msg="ppf")
    q = np.array([1e-6, 0.01, 0.5])
    _rel(stats.landau.isf(q), ss.landau.isf(q), 1e-10, msg="isf")
    r = np.asarray(stats.landau.rvs(size=2000, random_state=7))
    assert ss.kstest(r, ss.landau.cdf).pvalue > 1e-3


# --- samplers -------------------------------------------------------------------------


def test_group_samplers():
    """Orthogonality, determinants, unit norms, shapes as SciPy's; the first
    column of a Haar rotation of R^3 is uniform on the sphere, so its first
    coordinate is uniform on [-1, 1] (Archimedes)."""
    q = np.asarray(stats.ortho_group.rvs(3, size=400, random_state=1))
    assert q.shape == (400, 3, 3)
    _rel(q @ q.transpose(0, 2, 1), np.broadcast_to(np.eye(3), q.shape), 0, atol=1e-13)
    dets = np.linalg.det(q)
    assert 0.3 < np.mean(dets > 0) < 0.7
    assert ss.kstest(q[:, 0, 0], ss.uniform(-1, 2).cdf).pvalue > 1e-3
    r = np.asarray(stats.special_ortho_group.rvs(3, size=50, random_state=2))
    _rel(np.linalg.det(r), np.ones(50), 1e-13)
    assert stats.special_ortho_group(3, seed=4).rvs().shape == (3, 3)
    x = np.asarray(stats.uniform_direction.rvs(3, size=(400,), random_state=3))
    _rel(np.linalg.norm(x, axis=-1), np.ones(400), 1e-14)
    assert ss.kstest(x[:, 2], ss.uniform(-1, 2).cdf).pvalue > 1e-3
    with pytest.raises(ValueError, match="dimension"):
        stats.ortho_group.rvs(0)


@pytest.mark.slow
def test_unitary_group():
    """Unitarity; |U_11|^2 of a Haar unitary n x n matrix is Beta(1, n - 1)."""
    u = np.asarray(stats.unitary_group.rvs(4, size=500, random_state=1))
    assert u.dtype == np.complex128
    np.testing.assert_allclose(u @ u.conj().transpose(0, 2, 1),
                               np.broadcast_to(np.eye(4), u.shape), rtol=0, atol=1e-13)
    assert ss.kstest(np.abs(u[:, 0, 0]) ** 2, ss.beta(1, 3).cdf).pvalue > 1e-3


# --- normal_inverse_gamma -------------------------------------------------------------


def test_normal_inverse_gamma():
    """logpdf, mean and var against SciPy's closed forms (1e-13); the
    variates (slow below): s2 against invgamma(a, scale=b) and the
    standardised x | s2 against N(0, 1) by KS tests."""
    x = np.array([-1.0, 0.5, 2.0, 0.1])
    s2 = np.array([0.3, 1.2, -1.0, 4.0])
    p = (0.3, 2.0, 3.0, 2.0)
    _rel(stats.normal_inverse_gamma.logpdf(x, s2, *p),
         ss.normal_inverse_gamma.logpdf(x, s2, *p), 1e-13)
    mu = np.array([0.0, 1.0])
    for m in ("mean", "var"):
        for a in (1.5, 3.0):
            got = getattr(stats.normal_inverse_gamma(mu=mu, a=a), m)()
            want = getattr(ss.normal_inverse_gamma(mu=mu, a=a), m)()
            for g, w in zip(got, want):
                _rel(g, w, 1e-13, msg=f"{m} a={a}")
    assert np.isnan(float(stats.normal_inverse_gamma.logpdf(0.0, 1.0, 0.0, -1.0)))


@pytest.mark.slow
def test_normal_inverse_gamma_rvs():
    p = (0.3, 2.0, 3.0, 2.0)
    xs, s2s = stats.normal_inverse_gamma.rvs(*p, size=2000, random_state=1)
    assert ss.kstest(np.asarray(s2s), ss.invgamma(3.0, scale=2.0).cdf).pvalue > 1e-3
    z = (np.asarray(xs) - 0.3) / np.sqrt(np.asarray(s2s) / 2.0)
    assert ss.kstest(z, ss.norm.cdf).pvalue > 1e-3


# --- matrix_t -----------------------------------------------------------------------


def _matt_params():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(2, 2)), rng.normal(size=(3, 3))
    return rng.normal(size=(2, 3)), a @ a.T + np.eye(2), b @ b.T + np.eye(3)


@pytest.mark.slow
def test_matrix_t():
    """logpdf on a batch against SciPy's (1e-13 absolute); variates: an
    element's marginal t_df(scale sqrt(U_ii V_jj / df)) by a KS test, and a
    linear functional against SciPy's own variates (two-sample KS)."""
    m, u, v = _matt_params()
    x = np.random.default_rng(1).normal(size=(4, 2, 3))
    _rel(stats.matrix_t.logpdf(x, m, u, v, 3.5), ss.matrix_t.logpdf(x, m, u, v, 3.5), 0,
         atol=1e-13)
    r = np.asarray(stats.matrix_t(m, u, v, 3.5).rvs(size=2000, random_state=2))
    z = (r[:, 1, 2] - m[1, 2]) / np.sqrt(u[1, 1] * v[2, 2] / 3.5)
    assert ss.kstest(z, ss.t(3.5).cdf).pvalue > 1e-3
    rs = ss.matrix_t.rvs(m, u, v, 3.5, size=2000, random_state=2)
    w = np.array([[1.0, -2.0, 0.5], [0.3, 1.0, 1.0]])
    assert ss.ks_2samp(np.einsum("nij,ij->n", r - m, w),
                       np.einsum("nij,ij->n", rs - m, w)).pvalue > 1e-3


@pytest.mark.slow
def test_random_correlation():
    """The rotations against SciPy's ``_to_corr`` on the same matrices
    (1e-14 absolute: the same arithmetic step for step), and the variates'
    unit diagonal and eigenvalues."""
    e = np.array([0.1, 0.4, 1.0, 1.5, 2.0])
    for seed in range(3):
        q = ss.ortho_group.rvs(5, random_state=seed)
        m = (q * e) @ q.T
        _rel(_to_corr(snp.asarray(m)), ss.random_correlation._to_corr(m.copy()), 0,
             atol=1e-14)
    c = np.asarray(stats.random_correlation(e, seed=4).rvs())
    _rel(np.diag(c), np.ones(5), 0, atol=1e-12)
    _rel(np.linalg.eigvalsh(c), e, 1e-12)
    with pytest.raises(ValueError, match="Sum of eigenvalues"):
        stats.random_correlation.rvs((0.5, 0.6))


@pytest.mark.slow
def test_random_table():
    """logpmf against SciPy's (1e-13; -inf off the margins), mean, and the
    variates: margins exact, the cell (0, 0) hypergeometric(n, row_0,
    col_0) by a chi-square test of its frequencies."""
    r, c = [3, 2, 5], [4, 1, 5]
    x = np.array([[[1, 0, 2], [1, 1, 0], [2, 0, 3]], [[1, 0, 2], [1, 1, 0], [2, 0, 2]]])
    got = np.asarray(stats.random_table.logpmf(x, r, c))
    want = ss.random_table.logpmf(x, r, c)
    _rel(got[0], want[0], 1e-13)
    assert got[1] == -np.inf and want[1] == -np.inf
    _rel(stats.random_table.mean(r, c), ss.random_table.mean(r, c), 1e-15)
    tabs = np.asarray(stats.random_table(r, c, seed=1).rvs(size=3000))
    assert (tabs.sum(-1) == r).all() and (tabs.sum(-2) == c).all()
    k = np.arange(4)
    obs = np.array([(tabs[:, 0, 0] == v).sum() for v in k])
    exp = ss.hypergeom(10, 3, 4).pmf(k) * 3000
    assert ss.chisquare(obs, exp).pvalue > 1e-3
