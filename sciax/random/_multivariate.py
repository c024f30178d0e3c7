"""Samplers of multivariate distributions: dirichlet, multivariate_normal and
Haar-random orthogonal matrices.

Conventions are those of :mod:`._continuous`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import sciax
import sciax.numpy as snp
from sciax import lax, linalg
from sciax.random._continuous import _check_shape, _float_dtype, _gamma_common, normal
from sciax.random._prng import canonical_shape, check_key

__all__ = ["dirichlet", "multivariate_normal", "orthogonal"]


def dirichlet(key: Any, alpha: Any, shape: Sequence[int] | None = None,
              dtype: Any = None) -> Any:
    """Dirichlet(alpha) samples: normalised gammas (in logs), shape ``(*shape, K)``.

    Examples
    --------
    >>> x = sciax.random.dirichlet(sciax.random.key(0), snp.ones(3), (2,))
    >>> np.allclose(np.asarray(x).sum(-1), 1)
    True
    """
    key = check_key("dirichlet", key)
    dtype = _float_dtype("dirichlet", dtype)
    alpha = snp.asarray(alpha, dtype)
    if alpha.ndim < 1:
        raise ValueError("dirichlet: alpha must have at least one axis (the categories)")
    batch = _check_shape("dirichlet", shape, alpha[..., 0])
    full = batch + (alpha.shape[-1],)
    logs = _gamma_common("dirichlet", key, snp.broadcast_to(alpha, full), full, dtype)
    logs = logs - lax.stop_gradient(snp.max(logs, axis=-1, keepdims=True))
    x = snp.exp(logs)
    return x / snp.sum(x, axis=-1, keepdims=True)


# --- multivariate ---------------------------------------------------------------------

def _cholesky(a: Any) -> Any:
    """Lower Cholesky factor of one symmetric positive-definite matrix, a column
    per ``fori_loop`` step (NaN where ``a`` is not positive definite)."""
    n = a.shape[-1]
    idx = snp.arange(n)

    def body(j, low):
        row = lax.dynamic_slice(low, (j, 0), (1, n))[0]
        col = lax.dynamic_slice(a, (0, j), (n, 1))[:, 0] - snp.sum(low * row, axis=1)
        d = snp.sqrt(snp.sum(snp.where(idx == j, col, 0), axis=0))
        new = snp.where(idx > j, col / d, snp.where(idx == j, d, 0))
        return lax.dynamic_update_slice(low, new[:, None], (0, j))

    return lax.fori_loop(0, n, body, snp.zeros_like(a))


def _batched(fn: Any, x: Any, core: int) -> Any:
    lead = tuple(x.shape[:x.ndim - core])
    if not lead:
        return fn(x)
    flat = snp.reshape(x, (math.prod(lead),) + tuple(x.shape[x.ndim - core:]))
    out = sciax.vmap(fn)(flat)
    return snp.reshape(out, lead + tuple(out.shape[1:]))


def multivariate_normal(key: Any, mean: Any, cov: Any, shape: Sequence[int] | None = None,
                        dtype: Any = None, method: str = "cholesky") -> Any:
    """Samples of N(mean, cov): ``mean + L z`` with ``cov = L L^T``.

    ``mean`` is ``(..., n)``, ``cov`` ``(..., n, n)``; ``shape`` defaults to
    their broadcast batch shape.  ``method="cholesky"`` uses a built-in
    column-by-column factorisation; ``"eigh"`` and ``"svd"`` use
    :mod:`sciax.linalg` (also for covariances that are only semi-definite).

    Examples
    --------
    >>> cov = snp.asarray([[1.0, 0.5], [0.5, 2.0]])
    >>> sciax.random.multivariate_normal(sciax.random.key(0), snp.zeros(2), cov,
    ...                                  (3,)).shape
    (3, 2)
    """
    key = check_key("multivariate_normal", key)
    dtype = _float_dtype("multivariate_normal", dtype)
    if method not in ("cholesky", "eigh", "svd"):
        raise ValueError(f"multivariate_normal: method must be 'cholesky', 'eigh' or "
                         f"'svd', got {method!r}")
    mean, cov = snp.asarray(mean, dtype), snp.asarray(cov, dtype)
    if mean.ndim < 1 or cov.ndim < 2 or cov.shape[-2:] != (mean.shape[-1],) * 2:
        raise ValueError(f"multivariate_normal: mean must be (..., n) and cov (..., n, n);"
                         f" got shapes {tuple(mean.shape)} and {tuple(cov.shape)}")
    n = mean.shape[-1]
    shape = _check_shape("multivariate_normal", shape, mean[..., 0], cov[..., 0, 0])
    if method == "cholesky":
        factor = _batched(_cholesky, cov, 2)
    else:
        if method == "eigh":
            w, v = linalg.eigh(cov)
        else:
            v, w, _ = linalg.svd(cov)
        factor = v * snp.sqrt(w)[..., None, :]
    z = normal(key, shape + (n,), dtype)
    return mean + snp.sum(factor * z[..., None, :], axis=-1)


def _orthonormal_columns(a: Any) -> Any:
    """``Q`` of ``a = Q R`` with ``diag(R) > 0`` (Gram-Schmidt, reorthogonalised)."""
    n, m = a.shape
    conj = snp.conj if a.dtype.kind == "c" else (lambda v: v)

    def body(j, q):
        v = lax.dynamic_slice(a, (0, j), (n, 1))[:, 0]
        for _ in range(2):   # the second pass restores orthogonality lost to rounding
            v = v - snp.sum(q * snp.sum(conj(q) * v[:, None], axis=0), axis=1)
        v = v / snp.sqrt(snp.sum(snp.abs(v) ** 2))
        return lax.dynamic_update_slice(q, v[:, None], (0, j))

    return lax.fori_loop(0, m, body, snp.zeros_like(a))


def orthogonal(key: Any, n: int, shape: Sequence[int] = (), dtype: Any = None,
               m: int | None = None) -> Any:
    """Haar-random orthogonal (unitary for complex dtypes) ``n x m`` matrices.

    The ``Q`` factor, with positive ``diag(R)``, of a Gaussian matrix.

    Examples
    --------
    >>> q = sciax.random.orthogonal(sciax.random.key(0), 3)
    >>> np.allclose(np.asarray(q) @ np.asarray(q).T, np.eye(3))
    True
    """
    key = check_key("orthogonal", key)
    dtype = _float_dtype("orthogonal", dtype, allow_complex=True)
    shape = canonical_shape("orthogonal", shape)
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    big, small = max(n, m), min(n, m)
    z = normal(key, shape + (big, small), dtype)
    q = _batched(_orthonormal_columns, z, 2)
    return snp.swapaxes(q, -1, -2) if n < m else q
