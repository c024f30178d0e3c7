"""Helpers around the decompositions: ``diagsvd`` (the sigma matrix of an SVD),
``cdf2rdf`` (complex to real block-diagonal eigenvalue form) and
``qr_multiply`` (apply the Q of a QR decomposition).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax.linalg import _util
from sciax.linalg._decomp import qr
from sciax.linalg._util import swap

__all__ = ["diagsvd", "cdf2rdf", "qr_multiply"]


# --- diagsvd, cdf2rdf -----------------------------------------------------------------

def diagsvd(s: Any, M: int, N: int) -> Any:
    """The ``M x N`` matrix ``S`` of an SVD, from the singular values.

    Parameters
    ----------
    s : array_like, shape (..., K)
        Singular values; ``K`` must be ``M`` or ``N``.
    M, N : int
        The shape of the result (static).

    Returns
    -------
    S : Array, shape (..., M, N)
        ``s`` on the diagonal, zeros elsewhere; ``s``'s dtype.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.diagsvd(np.array([1.0, 2.0]), 2, 3)
    Array([[1., 0., 0.],
           [0., 2., 0.]], dtype=float64)
    """
    s = snp.asarray(s)
    if s.ndim < 1:
        raise ValueError(f"diagsvd: s must be at least 1-D, got shape {s.shape}")
    M, N = int(M), int(N)
    k = s.shape[-1]
    part = _util.diag_matrix(s)
    batch = [(0, 0)] * (s.ndim - 1)
    if k == M:
        return snp.pad(part, batch + [(0, 0), (0, N - M)])
    if k == N:
        return snp.pad(part, batch + [(0, M - N), (0, 0)])
    raise ValueError(f"diagsvd: Length of s must be M or N; got len(s) = {k} for "
                     f"M = {M}, N = {N}")


def cdf2rdf(w: Any, v: Any) -> tuple[Any, Any]:
    """Complex diagonal form to real block-diagonal form.

    For the eigenvalues ``w`` and eigenvectors ``v`` of a real matrix ``X``
    (``X @ v = v @ diag(w)``), return real ``wr, vr`` with
    ``X @ vr = vr @ wr``, each complex-conjugate pair becoming a 2 x 2 block
    ``[[re, im], [-im, re]]``.

    Parameters
    ----------
    w : array_like, shape (..., M)
        Eigenvalues; complex ones come in conjugate pairs, the pairs in order
        (the first of each pair before the second, as ``eig`` returns them).
    v : array_like, shape (..., M, M)
        Eigenvectors (columns).

    Returns
    -------
    wr : Array, shape (..., M, M)
        Real block-diagonal eigenvalues (``w``'s real dtype).
    vr : Array, shape (..., M, M)
        Real eigenvectors (real dtype of ``v``'s precision; SciPy always
        returns float64).

    Notes
    -----
    A complex eigenvalue without its partner raises ``ValueError`` eagerly;
    under ``jit`` (where nothing can be raised) the results are NaN.

    Examples
    --------
    >>> from sciax import linalg
    >>> x = np.array([[1.0, -2.0], [2.0, 1.0]])
    >>> w, v = np.linalg.eig(x)
    >>> wr, vr = linalg.cdf2rdf(w, v)
    >>> wr
    Array([[ 1.,  2.],
           [-2.,  1.]], dtype=float64)
    >>> bool(np.allclose(x @ vr, vr @ wr))
    True
    """
    w, v = snp.asarray(w), snp.asarray(v)
    if w.ndim < 1:
        raise ValueError("cdf2rdf: expected w to be at least 1D")
    if v.ndim < 2:
        raise ValueError("cdf2rdf: expected v to be at least 2D")
    if v.ndim != w.ndim + 1:
        raise ValueError("cdf2rdf: expected eigenvectors array to have exactly one "
                         f"dimension more than eigenvalues array, got w {w.shape} "
                         f"and v {v.shape}")
    n = w.shape[-1]
    if v.shape[-2] != v.shape[-1]:
        raise ValueError("cdf2rdf: expected v to be a square matrix or stacked "
                         f"square matrices: v.shape[-2] = v.shape[-1], got {v.shape}")
    if v.shape[-1] != n:
        raise ValueError("cdf2rdf: expected the same number of eigenvalues as "
                         f"eigenvectors, got w {w.shape} and v {v.shape}")
    (w,) = _util.inexact("cdf2rdf", w)
    (v,) = _util.inexact("cdf2rdf", v)
    wr, vr, odd = _cdf2rdf(w, v)
    odd_host = _util.host_value(snp.any(odd))
    if odd_host is not None and bool(odd_host):
        raise ValueError("cdf2rdf: expected complex-conjugate pairs of eigenvalues")
    return wr, vr


@sciax.jit
def _cdf2rdf(w: Any, v: Any) -> tuple[Any, Any, Any]:
    cdtype = snp.result_type(v.dtype, w.dtype, snp.complex64)
    re, im = snp.real(w), snp.imag(w)
    mask = im != 0
    count = snp.sum(mask, axis=-1)
    odd = count % 2 == 1
    rank = snp.cumsum(mask.astype(np.int32), axis=-1) - 1
    first = mask & (rank % 2 == 0)
    second = mask & ~first
    # pair[j, k]: k is the partner of the first-of-pair eigenvalue j
    pair = (first[..., :, None] & mask[..., None, :]
            & (rank[..., None, :] == rank[..., :, None] + 1))
    pair_t = swap(pair)
    wr = (_util.diag_matrix(re) + snp.where(pair, im[..., :, None], 0)
          + snp.where(pair_t, im[..., :, None], 0))
    d = snp.where(first, 0.5j, snp.where(second, 0.5, 1.0)).astype(cdtype)
    u = (_util.diag_matrix(d) + snp.where(pair, 0.5, 0).astype(cdtype)
         + snp.where(pair_t, -0.5j, 0).astype(cdtype))
    vr = snp.real(v.astype(cdtype) @ u)
    bad = odd[..., None, None]
    return snp.where(bad, np.nan, wr), snp.where(bad, np.nan, vr), odd


# --- qr_multiply ----------------------------------------------------------------------

def qr_multiply(a: Any, c: Any, mode: str = "right", pivoting: bool = False,
                conjugate: bool = False, overwrite_a: bool = False,
                overwrite_c: bool = False) -> tuple[Any, ...]:
    """``Q @ c`` or ``c @ Q`` for the ``Q`` of the QR decomposition of ``a``,
    with ``a``'s ``R``.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    c : array_like, shape (K, P) for ``'left'``, (P, M) for ``'right'``
        ``K = min(M, N)``; a 1-D ``c`` is one column (``'left'``) or row
        (``'right'``) and the product is 1-D too.  Leading axes of a 2-D (or
        higher) ``c`` broadcast with ``a``'s batch axes.
    mode : {'right', 'left'}
        ``c @ Q[:, :K]`` or ``Q[:, :K] @ c``.
    pivoting : bool
        QR with column pivoting (as :func:`qr`); the permutation is appended.
    conjugate : bool
        Use ``conj(Q)`` instead of ``Q``.
    overwrite_a : bool
        Ignored (sciax arrays are immutable).
    overwrite_c : bool
        As in SciPy, it changes the meaning of ``'left'`` for tall ``a``
        (``M > N``): ``c`` then has ``M`` rows and is multiplied by the full
        ``M x M`` ``Q``.

    Returns
    -------
    CQ : Array
        The product.
    R : Array, shape (..., K, N)
        The economic ``R`` of ``a`` (LAPACK's signs, as SciPy's).
    P : Array of int32, shape (..., N)
        Only with ``pivoting``.

    Notes
    -----
    Differentiable as :func:`qr` is (always, except the full ``Q`` used by
    ``overwrite_c=True`` for tall ``a``).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3.0, 1.0], [4.0, 2.0]])
    >>> cq, r = linalg.qr_multiply(a, np.eye(2))
    >>> cq
    Array([[-0.6, -0.8],
           [-0.8,  0.6]], dtype=float64)
    """
    del overwrite_a
    if mode not in ("left", "right"):
        raise ValueError("qr_multiply: Mode argument can only be 'left' or 'right' "
                         f"but not {mode!r}")
    a, c = _util.inexact("qr_multiply", a, c)
    if a.ndim == 1:
        a = a[None, :]
    _util.matrix("qr_multiply", a)
    m, n = a.shape[-2:]
    k = min(m, n)
    onedim = c.ndim < 2
    if onedim:
        c = c.reshape(1, -1) if c.ndim else c.reshape(1, 1)
        if mode == "left":
            c = swap(c)
    full_left = mode == "left" and overwrite_c and m > n
    if mode == "left":
        rows = m if full_left else k
        if c.shape[-2] != rows:
            raise ValueError("qr_multiply: Array shapes are not compatible for Q @ c "
                             f"operation: {a.shape} vs {c.shape}")
    elif c.shape[-1] != m:
        raise ValueError("qr_multiply: Array shapes are not compatible for c @ Q "
                         f"operation: {c.shape} vs {a.shape}")
    return _qr_multiply_core(a, c, left=mode == "left", pivoting=bool(pivoting),
                             conjugate=bool(conjugate), full_left=full_left,
                             onedim=onedim)


# compiled as one program: eagerly, op-by-op dispatch would compile each op
@functools.partial(sciax.jit, static_argnames=("left", "pivoting", "conjugate",
                                               "full_left", "onedim"))
def _qr_multiply_core(a: Any, c: Any, *, left: bool, pivoting: bool, conjugate: bool,
                      full_left: bool, onedim: bool) -> tuple[Any, ...]:
    k = min(a.shape[-2:])
    parts = qr(a, mode="full" if full_left else "economic", pivoting=pivoting)
    q, rest = parts[0], parts[1:]
    if full_left:
        rest = (rest[0][..., :k, :],) + rest[1:]
    if conjugate:
        q = snp.conj(q)
    out = q @ c if left else c @ q
    if onedim:
        out = out.reshape(out.shape[:-2] + (-1,))
    return (out,) + tuple(rest)
