"""``orthogonal_procrustes``: the orthogonal matrix that best maps one matrix
onto another.
"""

from __future__ import annotations

from typing import Any

import sciax.numpy as snp
from sciax.lax import linalg as lla
from sciax.linalg import _util
from sciax.linalg._util import adjoint

__all__ = ["orthogonal_procrustes"]


# --- orthogonal_procrustes, expm_cond -------------------------------------------------

def orthogonal_procrustes(A: Any, B: Any, check_finite: bool = True
                          ) -> tuple[Any, Any]:
    """The unitary ``R`` minimising ``||A @ R - B||_F``.

    Parameters
    ----------
    A, B : array_like, shape (..., M, N)
    check_finite : bool
        Ignored (a traced value cannot be checked).

    Returns
    -------
    R : Array, shape (..., N, N)
        ``U @ Vh`` from the SVD ``A^H B = U S Vh``.
    scale : Array, shape (...)
        The sum of the singular values of ``A^H B``.

    Notes
    -----
    Differentiable where the singular values of ``A^H B`` are distinct and
    nonzero (the SVD's derivative).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[1.0, 0.0], [0.0, 2.0]])
    >>> r, scale = linalg.orthogonal_procrustes(a, a[:, ::-1])
    >>> np.round(np.asarray(r), 12) + 0.0
    array([[0., 1.],
           [1., 0.]])
    >>> scale
    Array(5., dtype=float64)
    """
    del check_finite
    A, B = _util.inexact("orthogonal_procrustes", A, B)
    if A.ndim < 2:
        raise ValueError(f"orthogonal_procrustes: expected ndim to be 2, but "
                         f"observed {A.ndim}")
    if A.shape != B.shape:
        raise ValueError(f"orthogonal_procrustes: the shapes of A and B differ "
                         f"({A.shape} vs {B.shape})")
    s, u, vh = lla.svd(adjoint(A) @ B, full_matrices=False)
    return u @ vh, snp.sum(s, axis=-1)
