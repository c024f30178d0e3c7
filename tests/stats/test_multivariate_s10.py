"""wishart, invwishart, matrix_normal, vonmises_fisher and
multivariate_hypergeom against SciPy (densities 1e-12 relative, closed-form
moments 1e-13), sampling moments against the closed forms, gradients against
central differences of SciPy's densities, and jit/vmap against eager."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
from sciax import stats

S = np.array([[1.0, 0.2, 0.1], [0.2, 0.5, 0.05], [0.1, 0.05, 2.0]])


def _rel(a, b, rtol, atol=1e-300, msg=""):
    np.testing.assert_allclose(np.asarray(a, dtype=float), b, rtol=rtol, atol=atol,
                               err_msg=msg)


def _fd(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


# --- Wishart / inverse Wishart -----------------------------------------------------


@pytest.mark.parametrize("name", ["wishart",
                                  pytest.param("invwishart", marks=pytest.mark.slow)])
def test_wishart_family_vs_scipy(name):
    d, ref = getattr(stats, name), getattr(ss, name)
    x = ss.wishart.rvs(6, S, size=4, random_state=1)
    xs = np.moveaxis(x, 0, -1)                      # SciPy's (p, p, N) layout
    for df in (2.5, 6.0, 9.0):
        _rel(d.logpdf(xs, df, S), ref.logpdf(xs, df, S), 1e-12, msg=f"{df}")
        _rel(d.logpdf(x[0], df, S), ref.logpdf(x[0], df, S), 1e-12)
        _rel(d.pdf(x[0], df, S), ref.pdf(x[0], df, S), 1e-12)
        want = ref.mode(df, S)
        if want is None:        # SciPy: None where undefined; sciax: NaN
            assert np.all(np.isnan(np.asarray(d.mode(df, S))))
        else:
            _rel(d.mode(df, S), want, 1e-13)
    _rel(d.mean(9.0, S), ref.mean(9.0, S), 1e-13)
    _rel(d.var(9.0, S), ref.var(9.0, S), 1e-13)
    # p = 1: scalars, as SciPy
    _rel(d.logpdf(np.array([1.0, 2.0]), 3.0, 2.0),
         ref.logpdf(np.array([1.0, 2.0]), 3.0, 2.0), 1e-13)
    # frozen
    _rel(d(6.0, S).logpdf(x[0]), ref(6.0, S).logpdf(x[0]), 1e-12)
    assert np.isnan(float(d.logpdf(x[0], 1.5, S)))            # df <= p - 1


def test_wishart_entropy():
    for df in (2.5, 6.0, 9.0):
        _rel(stats.wishart.entropy(df, S), ss.wishart.entropy(df, S), 1e-13)


@pytest.mark.slow
def test_invwishart_entropy_vs_monte_carlo():
    # SciPy 1.17's invwishart.entropy is off by (p + 1) log 2 (a Monte Carlo
    # estimate, -mean(logpdf), sides with ours): -8.0360 +- 0.004 here
    x = ss.invwishart.rvs(9.0, S, size=200000, random_state=1)
    mc = -ss.invwishart.logpdf(np.moveaxis(x, 0, -1), 9.0, S)
    h = float(stats.invwishart.entropy(9.0, S))
    assert abs(h - mc.mean()) < 5 * mc.std() / np.sqrt(mc.size)
    _rel(h - ss.invwishart.entropy(9.0, S), -4 * np.log(2.0), 1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["wishart", "invwishart"])
def test_wishart_family_rvs(name):
    d, ref = getattr(stats, name), getattr(ss, name)
    df, n = 12.0, 20000
    s = np.asarray(d.rvs(df, S, size=n, random_state=sciax.random.key(3)))
    assert s.shape == (n, 3, 3)
    np.testing.assert_allclose(s, np.swapaxes(s, 1, 2), atol=1e-12)
    assert np.all(np.linalg.eigvalsh(s) > 0)
    se = np.sqrt(np.asarray(ref.var(df, S)) / n)
    assert np.all(np.abs(s.mean(0) - ref.mean(df, S)) < 5 * se)
    # the sampled log-densities follow SciPy's: KS of a 1-D statistic (the
    # (0, 0) entry) against SciPy's own sampler at a large sample
    r = ref.rvs(df, S, size=n, random_state=4)
    assert ss.ks_2samp(s[:, 0, 0], r[:, 0, 0]).pvalue > 1e-3
    assert ss.ks_2samp(np.linalg.det(s), np.linalg.det(r)).pvalue > 1e-3
    assert np.asarray(d.rvs(df, S, random_state=1)).shape == (3, 3)


@pytest.mark.slow
def test_wishart_gradients_and_jit():
    x = ss.wishart.rvs(6, S, size=1, random_state=2)
    g = float(sciax.grad(lambda v: stats.wishart.logpdf(x, v, S))(5.0))
    _rel(g, _fd(lambda v: ss.wishart.logpdf(x, v, S), 5.0), 1e-7)
    g = float(sciax.grad(lambda v: stats.invwishart.logpdf(x, v, S))(5.0))
    _rel(g, _fd(lambda v: ss.invwishart.logpdf(x, v, S), 5.0), 1e-7)
    # d/dscale[0, 1] (a symmetric perturbation of both off-diagonal entries)
    e = np.zeros((3, 3))
    e[0, 1] = e[1, 0] = 1.0
    gs = np.asarray(sciax.grad(lambda s: stats.wishart.logpdf(x, 5.0, s))(S))
    _rel(np.sum(gs * e), _fd(lambda t: ss.wishart.logpdf(x, 5.0, S + t * e), 0.0), 1e-6)
    jt = sciax.jit(lambda v: stats.wishart.logpdf(x, v, S))(5.0)
    _rel(jt, np.asarray(stats.wishart.logpdf(x, 5.0, S)), 1e-15)
    vm = sciax.vmap(lambda v: stats.invwishart.logpdf(x, v, S))(snp.asarray([4.0, 7.0]))
    _rel(vm, [float(stats.invwishart.logpdf(x, v, S)) for v in (4.0, 7.0)], 1e-15)


# --- matrix normal -------------------------------------------------------------------


@pytest.mark.slow
def test_matrix_normal_vs_scipy():
    rng = np.random.default_rng(0)
    m = rng.normal(size=(3, 2))
    v = np.array([[1.0, 0.3], [0.3, 2.0]])
    x = rng.normal(size=(5, 3, 2))
    _rel(stats.matrix_normal.logpdf(x, m, S, v), ss.matrix_normal.logpdf(x, m, S, v),
         1e-13)
    _rel(stats.matrix_normal.pdf(x[0], m, S, v), ss.matrix_normal.pdf(x[0], m, S, v),
         1e-13)
    _rel(stats.matrix_normal.entropy(S, v), ss.matrix_normal.entropy(S, v), 1e-14)
    _rel(stats.matrix_normal.logpdf([[0.5, -0.2]], mean=[[0.0, 0.0]], colcov=v),
         ss.matrix_normal.logpdf([[0.5, -0.2]], mean=[[0.0, 0.0]], colcov=v), 1e-14)
    _rel(stats.matrix_normal(m, S, v).logpdf(x), ss.matrix_normal(m, S, v).logpdf(x),
         1e-13)
    # gradient in the mean: -U^-1 (M - X) V^-1 ... vs central differences
    g = np.asarray(sciax.grad(lambda mm: stats.matrix_normal.logpdf(x[0], mm, S, v))(m))
    e = np.zeros_like(m)
    e[1, 0] = 1.0
    _rel(g[1, 0], _fd(lambda t: ss.matrix_normal.logpdf(x[0], m + t * e, S, v), 0.0),
         1e-7)


@pytest.mark.slow
def test_matrix_normal_rvs():
    m = np.arange(6.0).reshape(3, 2)
    v = np.array([[1.0, 0.3], [0.3, 2.0]])
    s = np.asarray(stats.matrix_normal.rvs(m, S, v, size=20000, random_state=5))
    assert s.shape == (20000, 3, 2)
    vec = s.transpose(0, 2, 1).reshape(20000, 6)       # vec(X), column-major
    np.testing.assert_allclose(np.cov(vec.T), np.kron(v, S), atol=0.06)
    assert np.all(np.abs(s.mean(0) - m) < 5 * np.sqrt(2.0 * 2.0 / 20000))


# --- von Mises-Fisher ----------------------------------------------------------------


MU3 = np.array([0.0, 0.6, 0.8])
MU5 = np.array([1.0, 0.0, 0.0, 0.0, 0.0])


@pytest.mark.slow
def test_vonmises_fisher_vs_scipy():
    for mu in (MU3, MU5):
        for k in (0.3, 3.0, 50.0):
            x = ss.vonmises_fisher.rvs(mu, k, size=5, random_state=2)
            # log C_p(kappa) through ive: 1e-14 absolute on O(1) values
            _rel(stats.vonmises_fisher.logpdf(x, mu, k),
                 ss.vonmises_fisher.logpdf(x, mu, k), 1e-13, atol=1e-14)
            _rel(stats.vonmises_fisher.entropy(mu, k),
                 ss.vonmises_fisher.entropy(mu, k), 1e-13, atol=1e-14)
    g = float(sciax.grad(lambda k: stats.vonmises_fisher.logpdf(x[0], MU5, k))(3.0))
    _rel(g, _fd(lambda k: ss.vonmises_fisher.logpdf(x[0], MU5, k), 3.0), 1e-7)
    assert np.isnan(float(stats.vonmises_fisher.logpdf(MU3, MU3, -1.0)))


@pytest.mark.slow
def test_vonmises_fisher_rvs():
    for mu, k in ((MU3, 3.0), (MU5, 20.0)):
        s = np.asarray(stats.vonmises_fisher.rvs(mu, k, size=20000,
                                                 random_state=sciax.random.key(5)))
        _rel(np.linalg.norm(s, axis=1), 1.0, 1e-12)
        # w = mu . x against SciPy's sampler (KS two-sample), and E[x] = A_p mu
        r = ss.vonmises_fisher.rvs(mu, k, size=20000, random_state=6)
        assert ss.ks_2samp(s @ mu, r @ mu).pvalue > 1e-3
        p = mu.size
        from scipy.special import ive
        ap = ive(p / 2, k) / ive(p / 2 - 1, k)
        assert np.all(np.abs(s.mean(0) - ap * mu) < 0.02)


# --- multivariate hypergeometric ----------------------------------------------


@pytest.mark.slow
def test_multivariate_hypergeom_vs_scipy():
    m = [4, 3, 5]
    x = np.array([[1, 2, 1], [0, 0, 4], [4, 0, 0], [2, 2, 1], [1, 1, 1]])
    _rel(stats.multivariate_hypergeom.pmf(x, m, 4),
         ss.multivariate_hypergeom.pmf(x, m, 4), 1e-13, atol=1e-300)
    ok = np.asarray(stats.multivariate_hypergeom.logpmf(x, m, 4))
    _rel(ok[:3], ss.multivariate_hypergeom.logpmf(x[:3], m, 4), 1e-13)
    assert np.all(np.isneginf(ok[3:]))                       # sum(x) != n
    _rel(stats.multivariate_hypergeom.mean(m, 4), ss.multivariate_hypergeom.mean(m, 4),
         1e-15)
    _rel(stats.multivariate_hypergeom.var(m, 4), ss.multivariate_hypergeom.var(m, 4),
         1e-14)
    _rel(stats.multivariate_hypergeom.cov(m, 4), ss.multivariate_hypergeom.cov(m, 4),
         1e-14, atol=1e-16)
    s = np.asarray(stats.multivariate_hypergeom.rvs(m, 4, size=5000, random_state=1))
    assert s.shape == (5000, 3) and np.all(s.sum(1) == 4)
    se = np.sqrt(np.asarray(ss.multivariate_hypergeom.var(m, 4)) / 5000)
    assert np.all(np.abs(s.mean(0) - ss.multivariate_hypergeom.mean(m, 4)) < 5 * se)
    # the frequencies of each outcome against the pmf (chi-square)
    keys, counts = np.unique(s, axis=0, return_counts=True)
    exp = 5000 * ss.multivariate_hypergeom.pmf(keys.astype(int), m, 4)
    assert ss.chisquare(counts, exp * counts.sum() / exp.sum()).pvalue > 1e-3
    # jit and vmap over x
    vm = sciax.vmap(lambda v: stats.multivariate_hypergeom.logpmf(v, m, 4))(
        snp.asarray(x[:3], float))
    _rel(vm, ok[:3], 1e-15)
