"""Least squares, pseudo-inverses, norms, ranks and subspaces (SciPy's
``lstsq``, ``pinv``, ``pinvh``, ``norm``, ``null_space``, ``orth``,
``subspace_angles``), by the SVD and the Hermitian eigensolver."""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax.numpy as snp
from sciax.lax import linalg as lla
from sciax.linalg import _util
from sciax.linalg._util import adjoint

__all__ = ["LinAlgError", "lstsq", "matrix_rank", "norm", "null_space", "orth",
           "pinv", "pinvh", "subspace_angles"]

LinAlgError = np.linalg.LinAlgError


def _eps(x: Any) -> float:
    return float(snp.finfo(x.dtype).eps)


def _safe_inverse(s: Any, keep: Any) -> Any:
    """``1 / s`` where ``keep``, else 0 (and a zero derivative there)."""
    return snp.where(keep, 1 / snp.where(keep, s, 1), 0)


def lstsq(a: Any, b: Any, cond: float | None = None, overwrite_a: bool = False,
          overwrite_b: bool = False, check_finite: bool = True,
          lapack_driver: str | None = None) -> tuple[Any, Any, Any, Any]:
    """Least-squares (minimum-norm) solution of ``a @ x = b``.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    b : array_like, shape (M,) or (..., M, K)
    cond : float, optional
        Singular values below ``cond * s[0]`` count as zero (default: the
        machine epsilon of the dtype, as SciPy).
    lapack_driver : {None, 'gelsd', 'gelsy', 'gelss'}
        Accepted; every driver is computed by the SVD (gelsd's answer).
    overwrite_a, overwrite_b, check_finite
        Ignored.

    Returns
    -------
    x : Array, shape (..., N) or (..., N, K)
    residues : Array
        Squared 2-norms of the columns of ``b - a @ x`` when ``M > N`` (a
        scalar per matrix for 1-D ``b``), else an empty array.  SciPy also
        returns an empty array for a rank-deficient ``a``, which depends on
        values; here it is always filled.
    rank : Array of int
        The effective rank of ``a``.
    s : Array, shape (..., min(M, N))
        Singular values of ``a``.

    Notes
    -----
    NaN input gives NaNs.  Differentiable where the rank is locally constant
    and the singular values are distinct (derivatives through the SVD).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
    >>> x, res, rank, s = linalg.lstsq(a, np.array([1.0, 2.0, 2.0]))
    >>> x, rank
    (Array([0.66666667, 0.5       ], dtype=float64), Array(2, dtype=int64))
    """
    del overwrite_a, overwrite_b, check_finite
    if lapack_driver not in (None, "gelsd", "gelsy", "gelss"):
        raise ValueError(f"lstsq: LAPACK driver {lapack_driver!r} is not found; "
                         "expected None, 'gelsd', 'gelsy' or 'gelss'")
    a, b = _util.inexact("lstsq", a, b)
    _util.matrix("lstsq", a)
    m, n = a.shape[-2:]
    vector = b.ndim == 1
    bb = b[:, None] if vector else b
    if bb.ndim < 2 or bb.shape[-2] != m:
        raise ValueError(f"lstsq: shape mismatch: a and b should have the same number "
                         f"of rows, got a {a.shape} and b {b.shape}")
    batch = tuple(np.broadcast_shapes(a.shape[:-2], bb.shape[:-2]))
    a = snp.broadcast_to(a, batch + (m, n))
    bb = snp.broadcast_to(bb, batch + bb.shape[-2:])
    s, u, vh = lla.svd(a, full_matrices=False)
    cutoff = (_eps(s) if cond is None else cond) * snp.max(s, axis=-1, keepdims=True,
                                                            initial=0.0)
    keep = s > cutoff
    rank = snp.sum(keep, axis=-1)
    sinv = _safe_inverse(s, keep).astype(a.dtype)
    x = adjoint(vh) @ (sinv[..., :, None] * (adjoint(u) @ bb))
    if m > n:
        r = bb - a @ x
        resid = snp.sum(snp.abs(r) ** 2, axis=-2)
        if vector:
            resid = resid[..., 0]
    else:
        resid = snp.zeros((0,), _util.real_dtype(a))
    return (x[..., 0] if vector else x), resid, rank, s


def _tolerances(name: str, atol: Any, rtol: Any, shape: tuple[int, ...], s: Any
                ) -> tuple[Any, Any]:
    atol = 0.0 if atol is None else atol
    rtol = max(shape[-2:]) * _eps(s) if rtol is None else rtol
    if (np.ndim(atol) == 0 and not hasattr(atol, "aval") and atol < 0) or \
            (np.ndim(rtol) == 0 and not hasattr(rtol, "aval") and rtol < 0):
        raise ValueError(f"{name}: atol and rtol values must be positive.")
    return atol, rtol


def pinv(a: Any, *, atol: Any = None, rtol: Any = None, return_rank: bool = False,
         check_finite: bool = True) -> Any:
    """Moore-Penrose pseudo-inverse by the SVD.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    atol, rtol : float, optional
        Singular values ``<= atol + rtol * max(s)`` count as zero; defaults
        0 and ``max(M, N) * eps``.
    return_rank : bool, default False
    check_finite : bool
        Ignored.

    Returns
    -------
    B : Array, shape (..., N, M)
    rank : Array of int, only with ``return_rank``

    Notes
    -----
    Differentiable where the rank is locally constant and singular values
    are distinct.  NaN input gives NaNs.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.pinv(np.array([[2.0, 0.0], [0.0, 0.0]]))
    Array([[0.5, 0. ],
           [0. , 0. ]], dtype=float64)
    """
    del check_finite
    (a,) = _util.inexact("pinv", a)
    _util.matrix("pinv", a)
    s, u, vh = lla.svd(a, full_matrices=False)
    atol, rtol = _tolerances("pinv", atol, rtol, a.shape, s)
    keep = s > atol + snp.max(s, axis=-1, keepdims=True, initial=0.0) * rtol
    sinv = _safe_inverse(s, keep).astype(a.dtype)
    out = adjoint(vh) @ (sinv[..., :, None] * adjoint(u))
    return (out, snp.sum(keep, axis=-1)) if return_rank else out


def pinvh(a: Any, atol: Any = None, rtol: Any = None, lower: bool = True,
          return_rank: bool = False, check_finite: bool = True) -> Any:
    """Pseudo-inverse of a Hermitian matrix by its eigendecomposition.

    Parameters
    ----------
    a : array_like, shape (..., N, N)
        Only the triangle named by ``lower`` is read.
    atol, rtol : float, optional
        Eigenvalues with ``|w| <= atol + rtol * max|w|`` count as zero.
    lower : bool, default True
    return_rank : bool, default False
    check_finite : bool
        Ignored.

    Returns
    -------
    B : Array, shape (..., N, N)
    rank : Array of int, only with ``return_rank``

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.pinvh(np.array([[4.0, 0.0], [0.0, 0.0]]))
    Array([[0.25, 0.  ],
           [0.  , 0.  ]], dtype=float64)
    """
    del check_finite
    (a,) = _util.inexact("pinvh", a)
    _util.matrix("pinvh", a, square=True)
    v, w = lla.eigh(a, lower=bool(lower), symmetrize_input=False)
    atol, rtol = _tolerances("pinvh", atol, rtol, a.shape, w)
    aw = snp.abs(w)
    keep = aw > atol + snp.max(aw, axis=-1, keepdims=True, initial=0.0) * rtol
    winv = _safe_inverse(w, keep).astype(a.dtype)
    out = (v * winv[..., None, :]) @ adjoint(v)
    return (out, snp.sum(keep, axis=-1)) if return_rank else out


def norm(a: Any, ord: Any = None, axis: Any = None, keepdims: bool = False,
         check_finite: bool = True) -> Any:
    """Matrix or vector norm, by NumPy's rules for ``ord`` and ``axis``.

    Parameters
    ----------
    a : array_like
    ord : {None, 'fro', 'nuc', inf, -inf, int, float}, optional
    axis : int or (int, int), optional
        Vector norm over one axis, matrix norm over two; by default the
        2-norm of the flattened array (``ord=None``), or the matrix/vector
        norm of a 2-D/1-D array.
    keepdims : bool, default False
    check_finite : bool
        Ignored.

    Returns
    -------
    n : Array, real dtype

    Notes
    -----
    Differentiable except at points where the norm is not (``0`` for the
    2-norm, ties for ``inf``/``1``-type norms); the spectral norms go through
    the SVD.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.arange(9.0) - 4
    >>> linalg.norm(a)
    Array(7.74596669, dtype=float64)
    >>> linalg.norm(a.reshape(3, 3), 1)
    Array(7., dtype=float64)
    """
    del check_finite
    (a,) = _util.inexact("norm", a)
    return snp.linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims)


def matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *,
                rtol: Any = None) -> Any:
    """Rank of a matrix by its singular values (as ``numpy.linalg.matrix_rank``;
    SciPy has no ``matrix_rank`` of its own).

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0]]))
    Array(1, dtype=int64)
    """
    return snp.linalg.matrix_rank(A, tol=tol, hermitian=hermitian, rtol=rtol)


def _concrete_count(name: str, keep: Any) -> int:
    """The number of kept singular values, which sets the output's shape."""
    try:
        counts = np.asarray(snp.sum(keep, axis=-1))
    except TypeError as e:  # a tracer: the shape would depend on values
        raise TypeError(f"{name}: the shape of the result depends on the rank of A, "
                        "a value, so it cannot be computed under jit or vmap; call it "
                        "outside the transformation") from e
    if counts.size and np.any(counts != counts.flat[0]):
        raise ValueError(f"{name}: the matrices of the batch have different ranks "
                         f"{sorted(set(counts.ravel().tolist()))}; the result would be "
                         "ragged")
    return int(counts.flat[0]) if counts.size else 0


def _rank_svd(name: str, A: Any, rcond: Any, full: bool) -> tuple[Any, Any, Any, Any]:
    (A,) = _util.inexact(name, A)
    _util.matrix(name, A, what="A")
    s, u, vh = lla.svd(A, full_matrices=full)
    if rcond is None:
        rcond = _eps(s) * max(A.shape[-2:])
    keep = s > snp.max(s, axis=-1, keepdims=True, initial=0.0) * rcond
    return A, u, vh, keep


def null_space(A: Any, rcond: Any = None, *, overwrite_a: bool = False,
               check_finite: bool = True, lapack_driver: str = "gesdd") -> Any:
    """Orthonormal basis of the null space of ``A`` by the SVD.

    Parameters
    ----------
    A : array_like, shape (..., M, N)
    rcond : float, optional
        Singular values below ``rcond * max(s)`` count as zero (default
        ``eps * max(M, N)``).
    overwrite_a, check_finite, lapack_driver
        Ignored.

    Returns
    -------
    Z : Array, shape (..., N, K)
        ``K = N - rank(A)``.

    Notes
    -----
    The shape depends on the rank, a value: not usable under ``jit`` or
    ``vmap`` (TypeError), and every matrix of a batch must have the same
    rank.

    Examples
    --------
    >>> from sciax import linalg
    >>> z = linalg.null_space(np.array([[1.0, 1.0], [1.0, 1.0]]))
    >>> z.shape, bool(np.allclose(np.abs(np.asarray(z)), np.sqrt(0.5)))
    ((2, 1), True)
    """
    del overwrite_a, check_finite, lapack_driver
    A, _, vh, keep = _rank_svd("null_space", A, rcond, True)
    num = _concrete_count("null_space", keep)
    return adjoint(vh[..., num:, :])


def orth(A: Any, rcond: Any = None) -> Any:
    """Orthonormal basis of the range of ``A`` by the SVD.

    Parameters
    ----------
    A : array_like, shape (..., M, N)
    rcond : float, optional
        As for :func:`null_space`.

    Returns
    -------
    Q : Array, shape (..., M, K), ``K = rank(A)``

    Notes
    -----
    As :func:`null_space`: the shape depends on the rank, so not under
    ``jit``/``vmap``.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.orth(np.array([[2.0, 0.0, 0.0], [0.0, 5.0, 0.0]]))
    Array([[0., 1.],
           [1., 0.]], dtype=float64)
    """
    A, u, _, keep = _rank_svd("orth", A, rcond, False)
    num = _concrete_count("orth", keep)
    return u[..., :, :num]


def subspace_angles(A: Any, B: Any) -> Any:
    """Principal angles between the column spaces of ``A`` and ``B``.

    Parameters
    ----------
    A : array_like, shape (..., M, N)
    B : array_like, shape (..., M, K)

    Returns
    -------
    angles : Array, shape (..., min(N, K)), descending, in radians

    Notes
    -----
    SciPy's algorithm (Knyazev and Argentati 2002: arccos for large angles,
    arcsin for small ones), with the orthonormal bases taken from the thin
    SVD of each input instead of :func:`orth`, so it is jittable and
    differentiable; it assumes ``A`` and ``B`` have full column rank (SciPy
    drops dependent columns first).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    >>> b = np.array([[1.0], [0.0], [1.0]])
    >>> linalg.subspace_angles(a, b)
    Array([0.78539816], dtype=float64)
    """
    A, B = _util.inexact("subspace_angles", A, B)
    _util.matrix("subspace_angles", A, what="A")
    _util.matrix("subspace_angles", B, what="B")
    if A.shape[-2] != B.shape[-2]:
        raise ValueError(f"subspace_angles: A and B must have the same number of rows, "
                         f"got {A.shape} and {B.shape}")
    qa = lla.svd(A, full_matrices=False)[1]
    qb = lla.svd(B, full_matrices=False)[1]
    qa_qb = adjoint(qa) @ qb
    sigma = lla.svd(qa_qb, compute_uv=False)
    if qa.shape[-1] >= qb.shape[-1]:
        rest = qb - qa @ qa_qb
    else:
        rest = qa - qb @ adjoint(qa_qb)
    mask = sigma ** 2 >= 0.5
    small = snp.arcsin(snp.clip(lla.svd(rest, compute_uv=False), -1.0, 1.0))
    large = snp.arccos(snp.clip(snp.flip(sigma, axis=-1), -1.0, 1.0))
    return snp.where(mask, small, large)
