"""Multivariate distributions: ``multivariate_normal`` (with covariance
objects) and ``dirichlet``."""

from __future__ import annotations

import math

import numpy as np

import sciax
import sciax.linalg
import sciax.numpy as snp
import sciax.random
from sciax import lax

from sciax.stats import _sf
from sciax.stats._distn_base import rv_generic

_LOG2PI = math.log(2.0 * math.pi)


# --- covariance objects ------------------------------------------------------------


class Covariance:
    """A covariance matrix in a form that makes whitening cheap (as
    :class:`scipy.stats.Covariance`); a pytree.

    Build one with :meth:`from_diagonal`, :meth:`from_precision`,
    :meth:`from_cholesky` or a full matrix (:meth:`from_matrix`).

    Examples
    --------
    >>> from sciax.stats import Covariance, multivariate_normal
    >>> cov = Covariance.from_diagonal(snp.array([1.0, 4.0]))
    >>> print(round(float(multivariate_normal.logpdf([0.0, 0.0], cov=cov)), 6))
    -2.531024
    """

    def __init__(self, kind, data):
        self._kind, self._data = kind, data

    @classmethod
    def from_diagonal(cls, diagonal):
        """Covariance ``diag(diagonal)``."""
        return cls("diag", snp.asarray(diagonal))

    @classmethod
    def from_cholesky(cls, cholesky):
        """Covariance ``L @ L.T`` from its lower Cholesky factor ``L``."""
        return cls("chol", snp.asarray(cholesky))

    @classmethod
    def from_precision(cls, precision, covariance=None):
        """Covariance ``inv(precision)``."""
        p = snp.asarray(precision)
        return cls("prec", snp.linalg.cholesky(p))

    @classmethod
    def from_matrix(cls, covariance):
        """A full (positive definite) covariance matrix."""
        return cls.from_cholesky(snp.linalg.cholesky(snp.asarray(covariance)))

    @property
    def shape(self):
        n = self._data.shape[-1]
        return (n, n)

    @property
    def covariance(self):
        k, d = self._kind, self._data
        if k == "diag":
            return snp.diag(d)
        if k == "chol":
            return d @ d.T
        return snp.linalg.inv(d @ d.T)

    @property
    def log_pdet(self):
        """Log of the determinant of the covariance."""
        k, d = self._kind, self._data
        if k == "diag":
            return snp.sum(snp.log(d))
        ld = 2.0 * snp.sum(snp.log(snp.diagonal(d)))
        return ld if k == "chol" else -ld

    @property
    def rank(self):
        return self._data.shape[-1]

    def whiten(self, x):
        """``z`` with ``z @ z = x @ inv(cov) @ x`` (along the last axis)."""
        k, d = self._kind, self._data
        if k == "diag":
            return x / snp.sqrt(d)
        if k == "chol":
            flat = x.reshape(-1, x.shape[-1]).T
            return _tri_solve(d, flat).T.reshape(x.shape)
        return x @ d  # precision = d d^T: |d^T x|^2

    def colorize(self, z):
        """``x`` with covariance ``cov`` from standard normal ``z``."""
        k, d = self._kind, self._data
        if k == "diag":
            return z * snp.sqrt(d)
        if k == "chol":
            return z @ d.T
        flat = z.reshape(-1, z.shape[-1]).T
        return _tri_solve(d.T, flat, lower=False).T.reshape(z.shape)


def _tri_solve(a, b, lower=True):
    return sciax.linalg.solve_triangular(a, b, lower=lower)


sciax.tree_util.register_pytree_node(
    Covariance, lambda c: ((c._data,), c._kind),
    lambda kind, data: Covariance(kind, data[0]))


def _as_cov(cov, dim, dtype):
    if isinstance(cov, Covariance):
        return cov
    c = snp.asarray(cov, dtype=dtype)
    if c.ndim == 0:
        return Covariance("diag", snp.full((dim,), c, dtype=dtype))
    if c.ndim == 1:
        return Covariance("diag", c)
    if c.ndim == 2:
        return Covariance.from_matrix(c)
    raise ValueError(f"cov must be a scalar, a vector (diagonal), a matrix or a "
                     f"Covariance, got an array of shape {c.shape}")


def _dim(mean, cov):
    if isinstance(cov, Covariance):
        return cov.shape[0]
    if mean is not None and snp.ndim(mean) > 0:
        return snp.shape(mean)[-1]
    if snp.ndim(cov) > 0:
        return snp.shape(cov)[-1]
    return 1


class multivariate_normal_gen(rv_generic):
    """The multivariate normal distribution (as
    :data:`scipy.stats.multivariate_normal`), with ``cov`` a scalar, a
    diagonal vector, a full matrix or a :class:`Covariance`.

    ``logpdf``/``pdf`` take ``x`` with the dimension on the last axis and
    squeeze it as SciPy; ``rvs(mean, cov, size, random_state=key)`` is
    differentiable in ``mean`` and ``cov``.  Singular covariances
    (``allow_singular=True``) are not supported.

    Examples
    --------
    >>> from sciax.stats import multivariate_normal
    >>> x = snp.array([[0.0, 0.0], [1.0, -1.0]])
    >>> print(np.round(multivariate_normal.logpdf(x, [0.0, 0.0], [[2.0, 0.3], [0.3, 1.0]]), 6))
    [-2.161429 -3.103837]
    """

    name = "multivariate_normal"

    def __call__(self, mean=None, cov=1, allow_singular=False, seed=None):
        return multivariate_normal_frozen(mean, cov)

    def _prep(self, x, mean, cov):
        dim = _dim(mean, cov)
        dtype = snp.result_type(*(v for v in (x, mean) if v is not None), 1.0)
        cov = _as_cov(cov, dim, dtype)
        mean = snp.zeros((dim,), dtype) if mean is None else snp.asarray(mean, dtype=dtype)
        if mean.shape[-1:] != (dim,) and mean.ndim > 0:
            raise ValueError(f"mean has dimension {mean.shape[-1]} but cov is "
                             f"{dim} x {dim}")
        if x is None:
            return None, mean, cov, dim
        x = snp.asarray(x, dtype=dtype)
        if x.ndim == 0:
            x = x[None]
        if dim == 1 and x.shape[-1:] != (1,):
            x = x[..., None]
        if x.shape[-1] != dim:
            raise ValueError(f"x has dimension {x.shape[-1]} on its last axis, the "
                             f"distribution {dim}")
        return x, mean, cov, dim

    def logpdf(self, x, mean=None, cov=1, allow_singular=False):
        """Log-density at ``x`` (dimension on the last axis)."""
        x, mean, cov, dim = self._prep(x, mean, cov)
        z = cov.whiten(x - mean)
        out = -0.5 * (dim * _LOG2PI + cov.log_pdet + snp.sum(z * z, axis=-1))
        return out if out.ndim else out[()]

    def pdf(self, x, mean=None, cov=1, allow_singular=False):
        """Density at ``x``."""
        return snp.exp(self.logpdf(x, mean, cov, allow_singular))

    def entropy(self, mean=None, cov=1):
        """Differential entropy."""
        _, _, cov, dim = self._prep(None, mean, cov)
        return 0.5 * (dim * (1.0 + _LOG2PI) + cov.log_pdet)

    def rvs(self, mean=None, cov=1, size=1, random_state=None):
        """Samples of shape ``(*size, dim)`` (squeezed as SciPy)."""
        _, mean, cov, dim = self._prep(None, mean, cov)
        key = self._key(random_state)
        shape = (int(size),) if isinstance(size, (int, np.integer)) else tuple(size)
        z = sciax.random.normal(key, shape + (dim,), mean.dtype)
        out = mean + cov.colorize(z)
        return snp.squeeze(out) if out.size == max(dim, 1) or dim == 1 else out


class multivariate_normal_frozen:
    """``multivariate_normal(mean, cov)`` with the parameters fixed."""

    def __init__(self, mean=None, cov=1):
        self.mean, self.cov = mean, cov

    def logpdf(self, x):
        return multivariate_normal.logpdf(x, self.mean, self.cov)

    def pdf(self, x):
        return multivariate_normal.pdf(x, self.mean, self.cov)

    def entropy(self):
        return multivariate_normal.entropy(self.mean, self.cov)

    def rvs(self, size=1, random_state=None):
        return multivariate_normal.rvs(self.mean, self.cov, size, random_state)


class dirichlet_gen(rv_generic):
    """The Dirichlet distribution with concentration ``alpha`` (as
    :data:`scipy.stats.dirichlet`): ``x`` has the components on its first
    axis, as SciPy.

    Examples
    --------
    >>> from sciax.stats import dirichlet
    >>> print(round(float(dirichlet.logpdf([0.2, 0.3, 0.5], [1.5, 2.0, 3.0])), 6))
    1.695211
    """

    name = "dirichlet"

    def __call__(self, alpha, seed=None):
        return dirichlet_frozen(alpha)

    @staticmethod
    def _alpha(alpha):
        a = snp.asarray(alpha)
        if a.ndim != 1 or a.shape[0] < 2:
            raise ValueError(f"alpha must be a vector of at least 2 concentrations, "
                             f"got shape {a.shape}")
        return a.astype(snp.result_type(a, 1.0))

    def logpdf(self, x, alpha):
        """Log-density at ``x`` (components on the first axis, summing to 1);
        NaN for non-positive concentrations."""
        a = self._alpha(alpha)
        x = snp.asarray(x, dtype=a.dtype)
        ax = a.reshape((-1,) + (1,) * (x.ndim - 1))
        lnb = snp.sum(lax.lgamma(a)) - lax.lgamma(snp.sum(a))
        out = snp.sum(_sf.xlogy(ax - 1.0, x), axis=0) - lnb
        return snp.where(snp.all(a > 0), out, snp.nan)

    def pdf(self, x, alpha):
        return snp.exp(self.logpdf(x, alpha))

    def mean(self, alpha):
        a = self._alpha(alpha)
        return a / snp.sum(a)

    def var(self, alpha):
        a = self._alpha(alpha)
        a0 = snp.sum(a)
        return a * (a0 - a) / (a0 * a0 * (a0 + 1.0))

    def cov(self, alpha):
        a = self._alpha(alpha)
        a0 = snp.sum(a)
        m = a / a0
        return (snp.diag(m) - snp.outer(m, m)) / (a0 + 1.0)

    def entropy(self, alpha):
        a = self._alpha(alpha)
        a0, k = snp.sum(a), a.shape[0]
        lnb = snp.sum(lax.lgamma(a)) - lax.lgamma(a0)
        return (lnb + (a0 - k) * lax.digamma(a0)
                - snp.sum((a - 1.0) * lax.digamma(a)))

    def rvs(self, alpha, size=1, random_state=None):
        """Samples of shape ``(*size, k)``, differentiable in ``alpha``."""
        a = self._alpha(alpha)
        shape = (int(size),) if isinstance(size, (int, np.integer)) else tuple(size)
        return sciax.random.dirichlet(self._key(random_state), a, shape, a.dtype)


class dirichlet_frozen:
    """``dirichlet(alpha)`` with the parameter fixed."""

    def __init__(self, alpha):
        self.alpha = alpha

    def logpdf(self, x):
        return dirichlet.logpdf(x, self.alpha)

    def pdf(self, x):
        return dirichlet.pdf(x, self.alpha)

    def mean(self):
        return dirichlet.mean(self.alpha)

    def var(self):
        return dirichlet.var(self.alpha)

    def entropy(self):
        return dirichlet.entropy(self.alpha)

    def rvs(self, size=1, random_state=None):
        return dirichlet.rvs(self.alpha, size, random_state)


class multinomial_gen(rv_generic):
    """The multinomial distribution (as :data:`scipy.stats.multinomial`):
    ``n`` trials over categories with probabilities ``p`` (last axis).

    Examples
    --------
    >>> from sciax.stats import multinomial
    >>> print(round(float(multinomial.pmf([3, 1, 2], 6, [0.5, 0.2, 0.3])), 6))
    0.135
    """

    name = "multinomial"

    def __call__(self, n, p, seed=None):
        return multinomial_frozen(n, p)

    def logpmf(self, x, n, p):
        """Log-probability of the counts ``x`` (-inf unless they sum to ``n``;
        NaN for invalid ``n`` or ``p``)."""
        p = snp.asarray(p)
        p = p.astype(snp.result_type(p, 1.0))
        x = snp.asarray(x, dtype=p.dtype)
        n = snp.asarray(n, dtype=p.dtype)
        out = (lax.lgamma(n + 1.0) - snp.sum(lax.lgamma(x + 1.0), axis=-1)
               + snp.sum(_sf.xlogy(x, p), axis=-1))
        ok_x = (snp.sum(x, axis=-1) == n) & snp.all((x >= 0) & (x == snp.floor(x)),
                                                   axis=-1)
        ok_p = snp.all((p >= 0) & (p <= 1), axis=-1) & (
            snp.abs(snp.sum(p, axis=-1) - 1.0) < 1e-8) & (n >= 0) & (n == snp.floor(n))
        return snp.where(ok_p, snp.where(ok_x, out, -snp.inf), snp.nan)

    def pmf(self, x, n, p):
        return snp.exp(self.logpmf(x, n, p))

    def mean(self, n, p):
        return snp.asarray(n)[..., None] * snp.asarray(p)

    def cov(self, n, p):
        p = snp.asarray(p)
        n = snp.asarray(n)[..., None, None]
        eye = snp.eye(p.shape[-1], dtype=p.dtype)
        return n * (p[..., :, None] * eye - p[..., :, None] * p[..., None, :])

    def rvs(self, n, p, size=1, random_state=None):
        """Counts of shape ``(*size, k)``: one binomial per category, each
        conditional on the counts before it."""
        p = snp.asarray(p)
        p = p.astype(snp.result_type(p, 1.0))
        shape = (int(size),) if isinstance(size, (int, np.integer)) else tuple(size)
        keys = sciax.random.split(self._key(random_state), p.shape[-1])
        left = snp.full(shape, float(n), dtype=p.dtype)
        mass = snp.ones((), dtype=p.dtype)
        out = []
        for j in range(p.shape[-1] - 1):
            prob = snp.clip(p[j] / snp.maximum(mass, 1e-300), 0.0, 1.0)
            c = sciax.random.binomial(keys[j], left, prob, shape, p.dtype)
            out.append(c)
            left = left - c
            mass = mass - p[j]
        out.append(left)
        return snp.stack(out, axis=-1)


class multinomial_frozen:
    """``multinomial(n, p)`` with the parameters fixed."""

    def __init__(self, n, p):
        self.n, self.p = n, p

    def logpmf(self, x):
        return multinomial.logpmf(x, self.n, self.p)

    def pmf(self, x):
        return multinomial.pmf(x, self.n, self.p)

    def mean(self):
        return multinomial.mean(self.n, self.p)

    def cov(self):
        return multinomial.cov(self.n, self.p)

    def rvs(self, size=1, random_state=None):
        return multinomial.rvs(self.n, self.p, size, random_state)


multivariate_normal = multivariate_normal_gen()
multinomial = multinomial_gen()
dirichlet = dirichlet_gen()

__all__ = ["Covariance", "multivariate_normal", "dirichlet", "multinomial"]
