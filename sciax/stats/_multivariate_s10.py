"""Session-10 multivariate distributions: :data:`wishart`,
:data:`invwishart`, :data:`matrix_normal`, :data:`vonmises_fisher` and
:data:`multivariate_hypergeom`, with SciPy's argument conventions.

Densities are differentiable in every continuous parameter (and in ``x``);
samplers draw from :mod:`sciax.random` keys (``random_state`` is a key or an
integer seed).  Positive-definite matrices are factored by Cholesky;
``allow_singular``-style arguments are not supported.
"""

from __future__ import annotations

import functools
import math

import numpy as np

import sciax
import sciax.linalg
import sciax.numpy as snp
import sciax.random
import sciax.special
from sciax import lax

from sciax.stats._distn_base import rv_generic

_LOG2 = math.log(2.0)
_LOG2PI = math.log(2.0 * math.pi)


def _size(size):
    return (int(size),) if isinstance(size, (int, np.integer)) else tuple(
        int(n) for n in size)


def _logdet_chol(c):
    return 2.0 * snp.sum(snp.log(snp.diagonal(c, axis1=-2, axis2=-1)), axis=-1)


def _spd(scale, dtype=None):
    s = snp.asarray(scale)
    s = s.astype(snp.result_type(s, 1.0) if dtype is None else dtype)
    if s.ndim == 0:
        s = s.reshape(1, 1)
    elif s.ndim == 1:
        s = snp.diag(s)
    if s.ndim != 2 or s.shape[0] != s.shape[1]:
        raise ValueError(f"scale must be a square matrix, got shape {s.shape}")
    return s


def _multigammaln(a, p):
    j = snp.arange(p, dtype=snp.result_type(a, 1.0))
    return 0.25 * p * (p - 1) * math.log(math.pi) + snp.sum(
        lax.lgamma(snp.asarray(a)[..., None] - 0.5 * j), axis=-1)


def _sum_digamma(a, p):
    j = snp.arange(p, dtype=snp.result_type(a, 1.0))
    return snp.sum(lax.digamma(snp.asarray(a)[..., None] - 0.5 * j), axis=-1)


def _wishart_x(x, p, dtype):
    """SciPy's layout: ``(p, p)`` or ``(p, p, N)`` (a scalar or ``(N,)`` for
    ``p == 1``) -> a stack ``(N, p, p)`` and whether it was a single matrix."""
    x = snp.asarray(x, dtype)
    if p == 1 and (x.ndim <= 1):
        single = x.ndim == 0
        return x.reshape(-1, 1, 1), single
    if x.ndim == 2:
        return x[None], True
    if x.ndim == 3 and x.shape[:2] == (p, p):
        return snp.moveaxis(x, -1, 0), False
    raise ValueError(f"x must have shape ({p}, {p}) or ({p}, {p}, N), got {x.shape}")


def _bartlett(key, df, p, n, dtype):
    """Lower-triangular Bartlett factors A (n, p, p): A_ii^2 ~ chi2(df - i),
    A_ij ~ N(0, 1) below the diagonal; A A^T ~ Wishart(df, I)."""
    k1, k2 = sciax.random.split(key)
    z = sciax.random.normal(k1, (n, p, p), dtype)
    dfs = df - snp.arange(p, dtype=dtype)
    c = sciax.random.chisquare(k2, snp.broadcast_to(dfs, (n, p)), (n, p), dtype)
    eye = snp.eye(p, dtype=dtype)
    return snp.tril(z, -1) + eye * snp.sqrt(c)[..., None]


def _finish_matrix(out, n, p):
    # SciPy: size 1 -> one matrix; p == 1 -> scalars
    if p == 1:
        out = out[..., 0, 0]
        return out[0] if n == (1,) else out.reshape(n)
    return out[0] if n == (1,) else out.reshape(n + (p, p))


# --- Wishart ---------------------------------------------------------------------


class wishart_gen(rv_generic):
    r"""sciax implementation of :data:`scipy.stats.wishart`.

    ``logpdf(x, df, scale)``, ``pdf``, ``mean``, ``mode``, ``var``,
    ``entropy`` and ``rvs(df, scale, size, random_state=key)`` (Bartlett's
    decomposition: ``X = L A A^T L^T`` with ``L`` the Cholesky factor of
    ``scale``).  ``x`` is ``(p, p)`` or ``(p, p, N)`` as in SciPy.

    .. math::

        \log f(X) = \tfrac{\nu-p-1}{2}\log|X| - \tfrac12\mathrm{tr}(S^{-1}X)
        - \tfrac{\nu p}{2}\log 2 - \tfrac{\nu}{2}\log|S| - \log\Gamma_p(\nu/2)

    Notes
    -----
    Differentiable in ``x``, ``df`` and ``scale``; ``df <= p - 1`` gives NaN.
    *Differences from SciPy*: ``mode`` returns NaN (not ``None``) when
    ``df < p + 1``; samples are not differentiable in ``df``.

    Examples
    --------
    >>> from sciax.stats import wishart
    >>> round(float(wishart.logpdf([[2.0, 0.3], [0.3, 1.0]], 4.0,
    ...                            [[1.0, 0.2], [0.2, 0.5]])), 10)
    -3.3910404884
    """

    name = "wishart"

    def __call__(self, df=None, scale=None, seed=None):
        return _Frozen(self, df, scale)

    @staticmethod
    def _params(df, scale):
        s = _spd(1.0 if scale is None else scale)
        p = s.shape[0]
        df = snp.asarray(float(p) if df is None else df, s.dtype)
        return df, s, p

    def logpdf(self, x, df, scale):
        """Log-density at ``x``."""
        df, s, p = self._params(df, scale)
        xs, single = _wishart_x(x, p, s.dtype)
        out = _wishart_logpdf(xs, df, s)
        return out[0] if single else out

    def pdf(self, x, df, scale):
        return snp.exp(self.logpdf(x, df, scale))

    def mean(self, df, scale):
        df, s, p = self._params(df, scale)
        return _squeeze1(df * s, p)

    def mode(self, df, scale):
        df, s, p = self._params(df, scale)
        return _squeeze1(snp.where(df >= p + 1, (df - p - 1.0) * s, snp.nan), p)

    def var(self, df, scale):
        df, s, p = self._params(df, scale)
        d = snp.diagonal(s)
        return _squeeze1(df * (s * s + snp.outer(d, d)), p)

    def entropy(self, df, scale):
        df, s, p = self._params(df, scale)
        return _wishart_entropy(df, s)

    def rvs(self, df, scale, size=1, random_state=None):
        df, s, p = self._params(df, scale)
        n = _size(size)
        a = _bartlett(self._key(random_state), lax.stop_gradient(df), p,
                      int(np.prod(n)), s.dtype)
        la = snp.linalg.cholesky(s) @ a
        return _finish_matrix(la @ snp.swapaxes(la, -1, -2), n, p)


def _squeeze1(m, p):
    return m[0, 0] if p == 1 else m


@sciax.jit
def _wishart_logpdf(xs, df, s):
    p = s.shape[0]
    cs = snp.linalg.cholesky(s)
    cx = snp.linalg.cholesky(xs)
    # tr(S^-1 X) = ||L_S^-1 L_X||_F^2
    z = sciax.linalg.solve_triangular(snp.broadcast_to(cs, xs.shape), cx, lower=True)
    tr = snp.sum(z * z, axis=(-2, -1))
    out = (0.5 * (df - p - 1.0) * _logdet_chol(cx) - 0.5 * tr
           - 0.5 * df * p * _LOG2 - 0.5 * df * _logdet_chol(cs)
           - _multigammaln(0.5 * df, p))
    return snp.where(df > p - 1, out, snp.nan)


@sciax.jit
def _wishart_entropy(df, s):
    p = s.shape[0]
    logdet = _logdet_chol(snp.linalg.cholesky(s))
    elogx = _sum_digamma(0.5 * df, p) + p * _LOG2 + logdet
    out = (-0.5 * (df - p - 1.0) * elogx + 0.5 * df * p + 0.5 * df * p * _LOG2
           + 0.5 * df * logdet + _multigammaln(0.5 * df, p))
    return snp.where(df > p - 1, out, snp.nan)


# --- inverse Wishart -------------------------------------------------------------


class invwishart_gen(wishart_gen):
    r"""sciax implementation of :data:`scipy.stats.invwishart`.

    ``X ~ W^-1(df, S)`` when ``X^-1 ~ Wishart(df, S^-1)``.

    .. math::

        \log f(X) = \tfrac{\nu}{2}\log|S| - \tfrac{\nu+p+1}{2}\log|X|
        - \tfrac12\mathrm{tr}(S X^{-1}) - \tfrac{\nu p}{2}\log 2
        - \log\Gamma_p(\nu/2)

    ``rvs`` inverts Bartlett draws of ``Wishart(df, S^-1)``.  The mean exists
    for ``df > p + 1`` and the variance for ``df > p + 3`` (NaN otherwise;
    SciPy returns ``None`` for an undefined mean).

    Examples
    --------
    >>> from sciax.stats import invwishart
    >>> round(float(invwishart.logpdf([[2.0, 0.3], [0.3, 1.0]], 4.0,
    ...                               [[1.0, 0.2], [0.2, 0.5]])), 10)
    -7.5342369506
    """

    name = "invwishart"

    def logpdf(self, x, df, scale):
        df, s, p = self._params(df, scale)
        xs, single = _wishart_x(x, p, s.dtype)
        out = _invwishart_logpdf(xs, df, s)
        return out[0] if single else out

    def mean(self, df, scale):
        df, s, p = self._params(df, scale)
        return _squeeze1(snp.where(df > p + 1, s / (df - p - 1.0), snp.nan), p)

    def mode(self, df, scale):
        df, s, p = self._params(df, scale)
        return _squeeze1(s / (df + p + 1.0), p)

    def var(self, df, scale):
        df, s, p = self._params(df, scale)
        d = snp.diagonal(s)
        num = (df - p + 1.0) * s * s + (df - p - 1.0) * snp.outer(d, d)
        den = (df - p) * (df - p - 1.0) ** 2 * (df - p - 3.0)
        return _squeeze1(snp.where(df > p + 3, num / den, snp.nan), p)

    def entropy(self, df, scale):
        df, s, p = self._params(df, scale)
        return _invwishart_entropy(df, s)

    def rvs(self, df, scale, size=1, random_state=None):
        df, s, p = self._params(df, scale)
        n = _size(size)
        a = _bartlett(self._key(random_state), lax.stop_gradient(df), p,
                      int(np.prod(n)), s.dtype)
        # X = (C A A^T C^T)^-1 with C C^T = S^-1, i.e. C^-1 = L_S^T (reversed):
        # X = (A^-1 C^-1)^T (A^-1 C^-1), C^-1 = chol of S taken "upper"
        cinv = _inv_chol_of_inverse(s)
        b = sciax.linalg.solve_triangular(a, snp.broadcast_to(cinv, a.shape),
                                          lower=True)
        return _finish_matrix(snp.swapaxes(b, -1, -2) @ b, n, p)


def _inv_chol_of_inverse(s):
    """``C^-1`` for the lower Cholesky factor ``C`` of ``S^-1``: with ``J`` the
    reversal, ``S^-1 = C C^T`` gives ``C^-1 = J chol(J S J)^T J`` (lower)."""
    r = s[::-1, ::-1]
    lr = snp.linalg.cholesky(r)
    return lr.T[::-1, ::-1]


@sciax.jit
def _invwishart_logpdf(xs, df, s):
    p = s.shape[0]
    cs = snp.linalg.cholesky(s)
    cx = snp.linalg.cholesky(xs)
    # tr(S X^-1) = ||L_X^-1 L_S||_F^2
    z = sciax.linalg.solve_triangular(cx, snp.broadcast_to(cs, xs.shape), lower=True)
    tr = snp.sum(z * z, axis=(-2, -1))
    out = (0.5 * df * _logdet_chol(cs) - 0.5 * (df + p + 1.0) * _logdet_chol(cx)
           - 0.5 * tr - 0.5 * df * p * _LOG2 - _multigammaln(0.5 * df, p))
    return snp.where(df > p - 1, out, snp.nan)


@sciax.jit
def _invwishart_entropy(df, s):
    p = s.shape[0]
    logdet = _logdet_chol(snp.linalg.cholesky(s))
    elogx = -(_sum_digamma(0.5 * df, p) + p * _LOG2 - logdet)
    out = (-0.5 * df * logdet + 0.5 * (df + p + 1.0) * elogx + 0.5 * df * p
           + 0.5 * df * p * _LOG2 + _multigammaln(0.5 * df, p))
    return snp.where(df > p - 1, out, snp.nan)


class _Frozen:
    """A frozen matrix-variate distribution (``dist(df, scale)``)."""

    def __init__(self, dist, *params):
        self.dist, self.params = dist, params

    def logpdf(self, x):
        return self.dist.logpdf(x, *self.params)

    def pdf(self, x):
        return self.dist.pdf(x, *self.params)

    def mean(self):
        return self.dist.mean(*self.params)

    def mode(self):
        return self.dist.mode(*self.params)

    def var(self):
        return self.dist.var(*self.params)

    def cov(self):
        return self.dist.cov(*self.params)

    def entropy(self):
        return self.dist.entropy(*self.params)

    def rvs(self, size=1, random_state=None):
        return self.dist.rvs(*self.params, size=size, random_state=random_state)


# --- matrix normal ---------------------------------------------------------------


class matrix_normal_gen(rv_generic):
    r"""sciax implementation of :data:`scipy.stats.matrix_normal`.

    ``X`` (``n x p``) with mean ``M``, among-row covariance ``U`` and
    among-column covariance ``V``: ``vec(X) ~ N(vec(M), V (x) U)``.

    .. math::

        \log f(X) = -\tfrac{np}{2}\log 2\pi - \tfrac p2\log|U| - \tfrac n2\log|V|
        - \tfrac12\mathrm{tr}(V^{-1}(X-M)^T U^{-1}(X-M))

    ``x`` may carry leading batch axes (``(..., n, p)``); ``rvs`` draws
    ``M + A Z B^T`` with ``U = A A^T`` and ``V = B B^T`` (differentiable in all
    three parameters).

    Examples
    --------
    >>> from sciax.stats import matrix_normal
    >>> v = [[1.0, 0.3], [0.3, 2.0]]
    >>> round(float(matrix_normal.logpdf([[0.5, -0.2]], mean=[[0.0, 0.0]],
    ...                                  rowcov=1.0, colcov=v)), 10)
    -2.3184967503
    """

    name = "matrix_normal"

    def __call__(self, mean=None, rowcov=1, colcov=1, seed=None):
        return _Frozen(self, mean, rowcov, colcov)

    @staticmethod
    def _params(mean, rowcov, colcov):
        dtype = snp.result_type(snp.asarray(rowcov), snp.asarray(colcov),
                                0.0 if mean is None else snp.asarray(mean), 1.0)
        if mean is not None:
            m = snp.asarray(mean, dtype)
            if m.ndim == 1:
                m = m[:, None] if snp.ndim(rowcov) == 2 and m.shape[0] == snp.shape(
                    rowcov)[0] and m.shape[0] != 1 else m[None, :]
            n, p = m.shape
        else:
            n = 1 if snp.ndim(rowcov) == 0 else snp.shape(rowcov)[0]
            p = 1 if snp.ndim(colcov) == 0 else snp.shape(colcov)[0]
            m = snp.zeros((n, p), dtype)
        u = _spd(rowcov, dtype)
        v = _spd(colcov, dtype)
        if u.shape[0] == 1 and n > 1:
            u = u[0, 0] * snp.eye(n, dtype=dtype)
        if v.shape[0] == 1 and p > 1:
            v = v[0, 0] * snp.eye(p, dtype=dtype)
        if u.shape != (n, n) or v.shape != (p, p):
            raise ValueError(f"rowcov {u.shape} and colcov {v.shape} do not match "
                             f"the mean's shape ({n}, {p})")
        return m, u, v

    def logpdf(self, x, mean=None, rowcov=1, colcov=1):
        """Log-density at ``x`` (``(n, p)`` or ``(..., n, p)``)."""
        m, u, v = self._params(mean, rowcov, colcov)
        x = snp.asarray(x, m.dtype)
        if x.ndim < 2:
            x = x.reshape(m.shape)
        return _matnorm_logpdf(x, m, u, v)

    def pdf(self, x, mean=None, rowcov=1, colcov=1):
        return snp.exp(self.logpdf(x, mean, rowcov, colcov))

    def entropy(self, rowcov=1, colcov=1):
        """``np/2 (1 + log 2 pi) + p/2 log|U| + n/2 log|V|``."""
        u, v = _spd(rowcov), _spd(colcov)
        n, p = u.shape[0], v.shape[0]
        lu = _logdet_chol(snp.linalg.cholesky(u))
        lv = _logdet_chol(snp.linalg.cholesky(v))
        return 0.5 * n * p * (1.0 + _LOG2PI) + 0.5 * p * lu + 0.5 * n * lv

    def rvs(self, mean=None, rowcov=1, colcov=1, size=1, random_state=None):
        m, u, v = self._params(mean, rowcov, colcov)
        sz = _size(size)
        z = sciax.random.normal(self._key(random_state), sz + m.shape, m.dtype)
        out = m + snp.linalg.cholesky(u) @ z @ snp.linalg.cholesky(v).T
        return out[0] if sz == (1,) else out


def _whitened(d, cu, cv):
    """``L_V^-1 D^T L_U^-T`` for a stack of residuals ``D`` (``(..., n, p)``)
    and the Cholesky factors of the row and column covariances (shared with
    matrix_t)."""
    n, p = cu.shape[-1], cv.shape[-1]
    a = sciax.linalg.solve_triangular(snp.broadcast_to(cu, d.shape[:-2] + (n, n)), d,
                                      lower=True)
    return sciax.linalg.solve_triangular(snp.broadcast_to(cv, d.shape[:-2] + (p, p)),
                                         snp.swapaxes(a, -1, -2), lower=True)


@sciax.jit
def _matnorm_logpdf(x, m, u, v):
    n, p = m.shape
    cu, cv = snp.linalg.cholesky(u), snp.linalg.cholesky(v)
    # tr(V^-1 D^T U^-1 D) = ||L_U^-1 D L_V^-T||_F^2
    b = _whitened(x - m, cu, cv)
    q = snp.sum(b * b, axis=(-2, -1))
    return (-0.5 * n * p * _LOG2PI - 0.5 * p * _logdet_chol(cu)
            - 0.5 * n * _logdet_chol(cv) - 0.5 * q)


# --- von Mises-Fisher ------------------------------------------------------------


def _vmf_logc(kappa, dim):
    # log C_p(kappa) = (p/2 - 1) log kappa - p/2 log 2 pi - log I_{p/2-1}(kappa)
    nu = 0.5 * dim - 1.0
    return (nu * snp.log(kappa) - 0.5 * dim * _LOG2PI
            - snp.log(sciax.special.ive(nu, kappa)) - kappa)


class vonmises_fisher_gen(rv_generic):
    r"""sciax implementation of :data:`scipy.stats.vonmises_fisher`.

    The von Mises-Fisher distribution on the unit sphere in ``R^p`` with mean
    direction ``mu`` (a unit vector) and concentration ``kappa > 0``:
    ``f(x) = C_p(kappa) exp(kappa mu^T x)``,
    ``C_p(kappa) = kappa^(p/2-1) / ((2 pi)^(p/2) I_(p/2-1)(kappa))``.

    ``rvs`` is Wood's (1994) algorithm: the component ``w = mu^T x`` by
    rejection from a beta proposal (vectorised under ``lax.while_loop``), a
    uniform direction orthogonal to ``mu``, and a Householder reflection
    taking ``e_1`` to ``mu``.  ``entropy = -log C_p(kappa) - kappa A_p(kappa)``
    with ``A_p = I_(p/2) / I_(p/2-1)``.

    Examples
    --------
    >>> from sciax.stats import vonmises_fisher
    >>> round(float(vonmises_fisher.logpdf([0.0, 0.0, 1.0], [0.0, 0.0, 1.0], 2.0)), 10)
    -1.126244439
    """

    name = "vonmises_fisher"

    def __call__(self, mu=None, kappa=1, seed=None):
        return _Frozen(self, mu, kappa)

    @staticmethod
    def _params(mu, kappa):
        m = snp.asarray(mu)
        m = m.astype(snp.result_type(m, kappa, 1.0))
        if m.ndim != 1 or m.shape[0] < 2:
            raise ValueError(f"mu must be a vector of dimension >= 2, got {m.shape}")
        return m, snp.asarray(kappa, m.dtype), m.shape[0]

    def logpdf(self, x, mu=None, kappa=1):
        """Log-density at ``x`` (unit vectors on the last axis)."""
        m, k, p = self._params(mu, kappa)
        x = snp.asarray(x, m.dtype)
        out = _vmf_logc(k, p) + k * (x @ m)
        return snp.where(k > 0, out, snp.nan)

    def pdf(self, x, mu=None, kappa=1):
        return snp.exp(self.logpdf(x, mu, kappa))

    def entropy(self, mu=None, kappa=1):
        m, k, p = self._params(mu, kappa)
        nu = 0.5 * p - 1.0
        ap = sciax.special.ive(nu + 1.0, k) / sciax.special.ive(nu, k)
        return snp.where(k > 0, -_vmf_logc(k, p) - k * ap, snp.nan)

    def rvs(self, mu=None, kappa=1, size=1, random_state=None):
        m, k, p = self._params(mu, kappa)
        sz = _size(size)
        out = _vmf_rvs(self._key(random_state), m, k, int(np.prod(sz)))
        return out.reshape(sz + (p,))


def _wood_w(key, kappa, p, n, dtype):
    """``w = mu^T x`` for n draws (Wood, 1994, with the stable form of b)."""
    d1 = p - 1.0
    b = d1 / (2.0 * kappa + snp.sqrt(4.0 * kappa * kappa + d1 * d1))
    x0 = (1.0 - b) / (1.0 + b)
    c = kappa * x0 + d1 * snp.log1p(-x0 * x0)

    def propose(k):
        ka, kb = sciax.random.split(k)
        z = sciax.random.beta(ka, 0.5 * d1, 0.5 * d1, (n,), dtype)
        u = sciax.random.uniform(kb, (n,), dtype)
        w = (1.0 - (1.0 + b) * z) / (1.0 - (1.0 - b) * z)
        ok = kappa * w + d1 * snp.log1p(-x0 * w) - c >= snp.log(u)
        return w, ok

    def cond(state):
        _, _, done, i = state
        return ~snp.all(done) & (i < 1000)

    def body(state):
        k, w, done, i = state
        k, sub = sciax.random.split(k)
        w_new, ok = propose(sub)
        take = ok & ~done
        return k, snp.where(take, w_new, w), done | ok, i + 1

    w0 = snp.zeros((n,), dtype)
    _, w, _, _ = lax.while_loop(cond, body, (key, w0, snp.zeros((n,), bool), 0))
    return w


@functools.partial(sciax.jit, static_argnums=(3,))
def _vmf_rvs(key, mu, kappa, n):
    p = mu.shape[0]
    dtype = mu.dtype
    k1, k2 = sciax.random.split(key)
    w = _wood_w(k1, lax.stop_gradient(kappa), p, n, dtype)
    v = sciax.random.normal(k2, (n, p - 1), dtype)
    v = v / snp.linalg.norm(v, axis=-1, keepdims=True)
    y = snp.concatenate([w[:, None], snp.sqrt(snp.maximum(1.0 - w * w, 0.0))[:, None]
                         * v], axis=-1)
    # Householder reflection H = I - 2 u u^T / u^T u, u = e1 - mu: H e1 = mu
    e1 = snp.zeros((p,), dtype).at[0].set(1.0)
    u = e1 - mu
    uu = snp.sum(u * u)
    safe = uu > 1e-30
    uu = snp.where(safe, uu, 1.0)
    ry = y - 2.0 * (y @ u)[:, None] * u / uu
    return snp.where(safe, ry, y)


# --- multivariate hypergeometric -------------------------------------------------


class multivariate_hypergeom_gen(rv_generic):
    r"""sciax implementation of :data:`scipy.stats.multivariate_hypergeom`.

    Draws of ``n`` objects without replacement from ``m[i]`` objects of each
    type ``i`` (``M = sum(m)``):
    ``pmf(x) = prod_i C(m_i, x_i) / C(M, n)`` for ``sum(x) = n``.

    ``logpmf``, ``pmf``, ``mean``, ``var``, ``cov`` are jittable and vmappable;
    ``rvs`` needs concrete ``m`` and ``n`` (it shuffles the ``M`` labels with
    :func:`sciax.random.permutation` and counts the first ``n``).

    Examples
    --------
    >>> from sciax.stats import multivariate_hypergeom
    >>> round(float(multivariate_hypergeom.pmf([1, 2, 1], [4, 3, 5], 4)), 10)
    0.1212121212
    """

    name = "multivariate_hypergeom"

    def __call__(self, m, n, seed=None):
        return _Frozen(self, m, n)

    @staticmethod
    def _params(m, n):
        m = snp.asarray(m)
        m = m.astype(snp.result_type(m, 1.0))
        return m, snp.asarray(n, m.dtype)

    def logpmf(self, x, m, n):
        """Log-probability of the counts ``x`` (types on the last axis)."""
        m, n = self._params(m, n)
        x = snp.asarray(x, m.dtype)
        tot = snp.sum(m, axis=-1)

        def lbinom(a, b):
            return lax.lgamma(a + 1.0) - lax.lgamma(b + 1.0) - lax.lgamma(a - b + 1.0)

        ok = (x >= 0) & (x <= m) & (x == snp.floor(x))
        xs = snp.where(ok, x, 0.0)
        out = snp.sum(lbinom(m, xs), axis=-1) - lbinom(tot, n)
        ok = snp.all(ok, axis=-1) & (snp.sum(x, axis=-1) == n)
        valid = snp.all(m >= 0, axis=-1) & (n >= 0) & (n <= tot)
        return snp.where(valid, snp.where(ok, out, -snp.inf), snp.nan)

    def pmf(self, x, m, n):
        return snp.exp(self.logpmf(x, m, n))

    def mean(self, m, n):
        m, n = self._params(m, n)
        return n[..., None] * m / snp.sum(m, axis=-1, keepdims=True)

    def var(self, m, n):
        m, n = self._params(m, n)
        tot = snp.sum(m, axis=-1, keepdims=True)
        nn = n[..., None]
        return nn * (m / tot) * (1.0 - m / tot) * (tot - nn) / (tot - 1.0)

    def cov(self, m, n):
        m, n = self._params(m, n)
        tot = snp.sum(m, axis=-1)
        f = n * (tot - n) / (tot - 1.0) / (tot * tot)
        c = -f[..., None, None] * m[..., :, None] * m[..., None, :]
        d = n[..., None] * (m / tot[..., None]) * (1.0 - m / tot[..., None]) * (
            (tot - n) / (tot - 1.0))[..., None]
        k = m.shape[-1]
        eye = snp.eye(k, dtype=m.dtype)
        return c * (1.0 - eye) + eye * d[..., None, :]

    def rvs(self, m, n, size=1, random_state=None):
        counts = np.asarray(m, dtype=np.int64)
        nd = int(n)
        if counts.ndim != 1 or np.any(counts < 0) or nd < 0 or nd > counts.sum():
            raise ValueError("rvs needs a vector of non-negative counts m and "
                             "0 <= n <= sum(m)")
        sz = _size(size)
        labels = snp.asarray(np.repeat(np.arange(counts.size), counts))
        keys = sciax.random.split(self._key(random_state), int(np.prod(sz)))
        out = _mvhg_rvs(keys, labels, nd, counts.size)
        return out.reshape(sz + (counts.size,))


@functools.partial(sciax.jit, static_argnums=(2, 3))
def _mvhg_rvs(keys, labels, n, k):
    def one(key):
        drawn = sciax.random.permutation(key, labels)[:n]
        return snp.sum(drawn[:, None] == snp.arange(k)[None, :], axis=0)

    return sciax.vmap(one)(keys).astype(snp.result_type(1.0))


wishart = wishart_gen()
invwishart = invwishart_gen()
matrix_normal = matrix_normal_gen()
vonmises_fisher = vonmises_fisher_gen()
multivariate_hypergeom = multivariate_hypergeom_gen()

__all__ = ["wishart", "invwishart", "matrix_normal", "vonmises_fisher",
           "multivariate_hypergeom"]
