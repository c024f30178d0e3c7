"""The multivariate t distribution: :data:`multivariate_t`."""

from __future__ import annotations

import math

import sciax
import sciax.linalg
import sciax.numpy as snp
import sciax.random
from sciax import lax

from sciax.stats._distn_base import rv_generic

_LOGPI = math.log(math.pi)


def _params(loc, shape, df):
    shape = snp.asarray(shape)
    dtype = snp.result_type(shape, loc if loc is not None else 0.0, df, 1.0)
    shape = snp.asarray(shape, dtype)
    if shape.ndim == 0:
        dim = 1 if loc is None or snp.ndim(loc) == 0 else snp.shape(loc)[0]
        shape = shape * snp.eye(dim, dtype=dtype)
    elif shape.ndim == 1:
        shape = snp.diag(shape)
    dim = shape.shape[0]
    if shape.shape != (dim, dim):
        raise ValueError("shape must be a square matrix")
    loc = snp.zeros((dim,), dtype) if loc is None else snp.broadcast_to(
        snp.asarray(loc, dtype), (dim,))
    return loc, shape, snp.asarray(df, dtype), dim


@sciax.jit
def _logpdf(x, loc, shape, df):
    dim = loc.shape[0]
    cho = snp.linalg.cholesky(shape)
    dev = (x - loc).reshape(-1, dim).T
    z = sciax.linalg.solve_triangular(cho, dev, lower=True)
    maha = snp.sum(z * z, axis=0).reshape(x.shape[:-1])
    half_logdet = snp.sum(snp.log(snp.diagonal(cho)))
    inf = snp.isinf(df)
    d = snp.where(inf, 1.0, df)
    finite = (lax.lgamma(0.5 * (d + dim)) - lax.lgamma(0.5 * d)
              - 0.5 * dim * (snp.log(d) + _LOGPI)
              - 0.5 * (d + dim) * snp.log1p(maha / d))
    normal = -0.5 * dim * math.log(2.0 * math.pi) - 0.5 * maha
    out = snp.where(inf, normal, finite) - half_logdet
    return snp.where(df > 0, out, snp.nan)


class multivariate_t_gen(rv_generic):
    """sciax implementation of :data:`scipy.stats.multivariate_t`.

    ``logpdf(x, loc=None, shape=1, df=1)``, ``pdf``, ``rvs(loc, shape, df,
    size, random_state=key)``; ``df = inf`` gives the multivariate normal.
    ``x`` has the dimension on its last axis; results drop it (a single point
    gives a scalar).  Differentiable in ``x``, ``loc``, ``shape`` and ``df``;
    ``shape`` must be positive definite (``allow_singular`` is not supported).

    Examples
    --------
    >>> from sciax.stats import multivariate_t
    >>> round(float(multivariate_t.pdf([0.0, 0.0], shape=[[1.0, 0.0], [0.0, 1.0]],
    ...                                  df=3.0)), 10)
    0.1591549431
    """

    name = "multivariate_t"

    def __call__(self, loc=None, shape=1, df=1, allow_singular=False, seed=None):
        return multivariate_t_frozen(loc, shape, df)

    def logpdf(self, x, loc=None, shape=1, df=1):
        """Log-density at ``x`` (dimension on the last axis)."""
        loc, shape, df, dim = _params(loc, shape, df)
        x = snp.asarray(x, loc.dtype)
        if dim == 1 and (x.ndim == 0 or x.shape[-1] != 1):
            x = x[..., None]
        return _logpdf(x, loc, shape, df)

    def pdf(self, x, loc=None, shape=1, df=1):
        """Density at ``x``."""
        return snp.exp(self.logpdf(x, loc, shape, df))

    def rvs(self, loc=None, shape=1, df=1, size=1, random_state=None):
        """Draws ``loc + L z / sqrt(w / df)`` with ``z`` standard normal and
        ``w`` chi-square(df); shape ``size + (dim,)`` (a size of 1 gives one
        point of shape ``(dim,)``, as SciPy)."""
        loc, shape, df, dim = _params(loc, shape, df)
        key = self._key(random_state)
        n = (int(size),) if isinstance(size, int) else tuple(size)
        k1, k2 = sciax.random.split(key)
        z = sciax.random.normal(k1, n + (dim,), loc.dtype)
        inf = snp.isinf(df)
        d = snp.where(inf, 1.0, df)
        w = 2.0 * sciax.random.gamma(k2, lax.stop_gradient(0.5 * d), n, loc.dtype)
        scale = snp.where(inf, 1.0, snp.sqrt(d / w))
        out = loc + scale[..., None] * (z @ snp.linalg.cholesky(shape).T)
        if n == (1,):
            out = out[0]
        return out[..., 0] if dim == 1 else out


class multivariate_t_frozen:
    """A multivariate t distribution with fixed ``loc``, ``shape``, ``df``."""

    def __init__(self, loc=None, shape=1, df=1):
        self.loc, self.shape, self.df, self.dim = _params(loc, shape, df)

    def logpdf(self, x):
        return multivariate_t.logpdf(x, self.loc, self.shape, self.df)

    def pdf(self, x):
        return multivariate_t.pdf(x, self.loc, self.shape, self.df)

    def rvs(self, size=1, random_state=None):
        return multivariate_t.rvs(self.loc, self.shape, self.df, size, random_state)


multivariate_t = multivariate_t_gen()

__all__ = ["multivariate_t"]
