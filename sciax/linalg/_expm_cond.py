"""``expm_cond``: the relative condition number of the matrix exponential in the
Frobenius norm.
"""

from __future__ import annotations

from typing import Any

import sciax
import sciax.numpy as snp
from sciax.lax import linalg as lla
from sciax.linalg import _util
from sciax.linalg._matfuncs import expm, expm_frechet

__all__ = ["expm_cond"]


def expm_cond(A: Any, check_finite: bool = True) -> Any:
    """Relative condition number of the matrix exponential (Frobenius norm).

    Parameters
    ----------
    A : array_like, shape (..., N, N)
    check_finite : bool
        Ignored.

    Returns
    -------
    kappa : Array, shape (...)
        ``||K||_2 ||A||_F / ||expm(A)||_F`` with ``K`` the ``N^2 x N^2``
        Kronecker form of the Frechet derivative of ``expm`` at ``A``.

    Notes
    -----
    ``K`` is built column by column from :func:`expm_frechet` in the
    ``N^2`` unit directions, as SciPy does: ``O(N^5)`` work, meant for
    small matrices.

    Examples
    --------
    >>> from sciax import linalg
    >>> round(float(linalg.expm_cond(np.array([[-0.5, 1e-4], [0.0, -0.5]]))), 6)
    0.500025
    """
    del check_finite
    (A,) = _util.inexact("expm_cond", A)
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"expm_cond: expected a square matrix, got shape {A.shape}")
    return _expm_cond(A)


@sciax.jit
def _expm_cond(A: Any) -> Any:
    # jitted: eagerly, the N^2 Frechet derivatives would dispatch op by op
    n = A.shape[-1]
    basis = snp.eye(n * n, dtype=A.dtype).reshape(n * n, n, n)
    big = snp.broadcast_to(A[..., None, :, :], A.shape[:-2] + (n * n, n, n))
    frechet = expm_frechet(big, snp.broadcast_to(basis, big.shape),
                           compute_expm=False)
    # rows are the vec'd derivatives: K up to a permutation, so the same 2-norm
    k = frechet.reshape(A.shape[:-2] + (n * n, n * n))
    k_norm = snp.max(lla.svd(k, compute_uv=False), axis=-1) if n else 0.0
    a_norm = snp.sqrt(snp.sum(snp.abs(A) ** 2, axis=(-2, -1)))
    x_norm = snp.sqrt(snp.sum(snp.abs(expm(A)) ** 2, axis=(-2, -1)))
    return k_norm * a_norm / x_norm
