"""multivariate_normal (every covariance form) and dirichlet against SciPy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss

import sciax
from sciax import stats


def test_multivariate_normal_covariance_forms():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(3, 3))
    cov = a @ a.T + np.eye(3)
    mean = rng.normal(size=3)
    x = rng.normal(size=(5, 3))
    forms = [cov, stats.Covariance.from_diagonal(np.array([1.0, 2.0, 3.0])),
             stats.Covariance.from_precision(np.linalg.inv(cov)),
             stats.Covariance.from_cholesky(np.linalg.cholesky(cov))]
    for c in forms:
        dense = np.asarray(c.covariance) if isinstance(c, stats.Covariance) else c
        np.testing.assert_allclose(stats.multivariate_normal.logpdf(x, mean, c),
                                   ss.multivariate_normal.logpdf(x, mean, dense),
                                   rtol=1e-12)
        np.testing.assert_allclose(stats.multivariate_normal.entropy(mean, c),
                                   ss.multivariate_normal.entropy(mean, dense),
                                   rtol=1e-12)
    np.testing.assert_allclose(stats.multivariate_normal.pdf(x, mean, np.diag(cov)),
                               ss.multivariate_normal.pdf(x, mean, np.diag(cov)),
                               rtol=1e-12)
    np.testing.assert_allclose(stats.multivariate_normal(1.0, 2.0).logpdf(0.3),
                               ss.multivariate_normal.logpdf(0.3, 1.0, 2.0), rtol=1e-12)


def test_multivariate_normal_rvs_and_grad():
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    s = np.asarray(stats.multivariate_normal.rvs([1.0, -1.0], cov, size=20000,
                                                  random_state=0))
    assert s.shape == (20000, 2)
    # sample mean and covariance within a few standard errors
    np.testing.assert_allclose(s.mean(0), [1.0, -1.0], atol=4 * np.sqrt(2.0 / 20000))
    np.testing.assert_allclose(np.cov(s.T), cov, atol=0.08)
    # gradient of the log-density in the mean: inv(cov) (x - mean)
    x = np.array([0.3, 0.2])
    g = sciax.grad(lambda m: stats.multivariate_normal.logpdf(x, m, cov))(
        np.array([1.0, -1.0]))
    np.testing.assert_allclose(g, np.linalg.solve(cov, x - [1.0, -1.0]), rtol=1e-12)


def test_dirichlet():
    a = np.array([1.5, 2.0, 3.0])
    x = np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]).T
    np.testing.assert_allclose(stats.dirichlet.logpdf(x, a), ss.dirichlet.logpdf(x, a),
                               rtol=1e-12)
    np.testing.assert_allclose(stats.dirichlet.entropy(a), ss.dirichlet.entropy(a),
                               rtol=1e-12)
    np.testing.assert_allclose(stats.dirichlet.mean(a), ss.dirichlet.mean(a), rtol=1e-14)
    np.testing.assert_allclose(stats.dirichlet.var(a), ss.dirichlet.var(a), rtol=1e-14)
    np.testing.assert_allclose(stats.dirichlet.cov(a), ss.dirichlet.cov(a), rtol=1e-14,
                               atol=1e-16)
    s = np.asarray(stats.dirichlet.rvs(a, size=5000, random_state=2))
    np.testing.assert_allclose(s.sum(1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(s.mean(0), a / a.sum(), atol=0.01)
    assert np.all(np.isnan(stats.dirichlet.logpdf(x, -a)))


@pytest.mark.slow
def test_multinomial():
    p = np.array([0.5, 0.2, 0.3])
    xs = np.array([[3, 1, 2], [6, 0, 0], [2, 2, 1]])
    np.testing.assert_allclose(stats.multinomial.pmf(xs, 6, p),
                               ss.multinomial.pmf(xs, 6, p), rtol=1e-12)
    np.testing.assert_allclose(stats.multinomial.cov(6, p), ss.multinomial.cov(6, p),
                               rtol=1e-14)
    s = np.asarray(stats.multinomial.rvs(6, p, size=4000, random_state=0))
    assert s.shape == (4000, 3) and np.all(s.sum(1) == 6)
    np.testing.assert_allclose(s.mean(0), 6 * p, atol=0.1)
