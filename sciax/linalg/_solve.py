"""Linear systems, inverses and determinants: SciPy's ``solve`` family.

Derivatives of the solves are implicit: the tangent of ``x = A^{-1} b`` is
another solve with the same factorisation, ``A dx = db - dA x`` (so ``grad``
through a solve costs one more pair of triangular solves, not a
differentiated factorisation), and ``d log|det A| = Re tr(A^{-1} dA)`` reuses
the LU factors of the primal computation.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.lax import linalg as lla
from sciax.linalg import _util
from sciax.linalg._util import adjoint, swap

__all__ = ["cho_factor", "cho_solve", "cho_solve_banded", "cholesky_banded", "det",
           "inv", "lu_factor", "lu_solve", "slogdet", "solve", "solve_banded",
           "solve_triangular", "solveh_banded"]


# --- factor application (linear in the right-hand side) -------------------------------

def _take_rows(b: Any, perm: Any) -> Any:
    """``b[..., perm, :]`` per batch member."""
    return snp.take_along_axis(b, perm[..., :, None], axis=-2, mode="promise_in_bounds")


def _lu_apply(lu: Any, perm: Any, b: Any, trans: int) -> Any:
    """Solve ``op(A) x = b`` given ``A[perm] = L @ U`` packed in ``lu``."""
    if trans == 0:
        y = lla.triangular_solve(lu, _take_rows(b, perm), left_side=True, lower=True,
                                 unit_diagonal=True)
        return lla.triangular_solve(lu, y, left_side=True, lower=False)
    conj = trans == 2
    z = lla.triangular_solve(lu, b, left_side=True, lower=False, transpose_a=True,
                             conjugate_a=conj)
    y = lla.triangular_solve(lu, z, left_side=True, lower=True, transpose_a=True,
                             conjugate_a=conj, unit_diagonal=True)
    return _take_rows(y, snp.argsort(perm, axis=-1))


def _cho_apply(c: Any, b: Any, lower: bool = True) -> Any:
    """Solve ``L L^H x = b`` for lower-triangular ``c = L``, or ``U^H U x = b``
    for upper-triangular ``c = U``."""
    if lower:
        y = lla.triangular_solve(c, b, left_side=True, lower=True)
        return lla.triangular_solve(c, y, left_side=True, lower=True, transpose_a=True,
                                    conjugate_a=True)
    y = lla.triangular_solve(c, b, left_side=True, lower=False, transpose_a=True,
                             conjugate_a=True)
    return lla.triangular_solve(c, y, left_side=True, lower=False)


def _op(a: Any, trans: int) -> Any:
    return a if trans == 0 else swap(a) if trans == 1 else adjoint(a)


# --- solves with implicit derivatives -------------------------------------------------

def _gen_solve_fun(a: Any, b: Any, trans: int) -> Any:
    lu, _, perm = lla.lu(a)
    return _lu_apply(lu, perm, b, trans)


def _gen_solve_jvp(trans: int, primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (a, b), (da, db) = primals, tangents
    lu, _, perm = lla.lu(a)
    x = _lu_apply(lu, perm, b, trans)
    return x, _lu_apply(lu, perm, db - _op(da, trans) @ x, trans)


# op(a) x = b by LU with partial pivoting; trans (static) as in LAPACK's getrs
_gen_solve = sciax.custom_jvp(lambda trans, a, b: _gen_solve_fun(a, b, trans),
                              nondiff_argnums=(0,))
_gen_solve.defjvp(_gen_solve_jvp)


def _pos_solve_fun(lower: bool, a: Any, b: Any) -> Any:
    c = lla.cholesky(a, symmetrize_input=False, upper=not lower)
    return _cho_apply(c, b, lower)


def _pos_solve_jvp(lower: bool, primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (a, b), (da, db) = primals, tangents
    c = lla.cholesky(a, symmetrize_input=False, upper=not lower)
    x = _cho_apply(c, b, lower)
    da = _util.hermitian_from_triangle(da, lower)
    return x, _cho_apply(c, db - da @ x, lower)


# a x = b for Hermitian positive-definite a given by one triangle (lower, static),
# by Cholesky.  potrf reads that triangle itself, so the primal builds no full
# matrix; only the tangent is extended to the Hermitian matrix potrf saw.
_pos_solve = sciax.custom_jvp(_pos_solve_fun, nondiff_argnums=(0,))
_pos_solve.defjvp(_pos_solve_jvp)


_STRUCTURES = {
    None: "gen", "general": "gen", "gen": "gen", "banded": "gen",
    "diagonal": "diagonal", "tridiagonal": "tridiagonal",
    "upper triangular": "upper", "lower triangular": "lower",
    "pos": "pos", "positive definite": "pos",
    "sym": "sym", "symmetric": "sym", "her": "her", "hermitian": "her",
}


def _structure(name: str, assume_a: Any) -> str:
    try:
        return _STRUCTURES[assume_a]
    except (KeyError, TypeError):
        known = sorted(k for k in _STRUCTURES if k)
        raise ValueError(f"{name}: {assume_a!r} is not a recognized matrix structure; "
                         f"assume_a must be one of {known} or None") from None


def _solve_structured(kind: str, a: Any, b: Any, lower: bool, trans: int) -> Any:
    """``op(a) x = b`` with a and b already broadcast, ``b`` of rank >= 2."""
    if kind == "gen":
        return _gen_solve(trans, a, b)
    if kind in ("upper", "lower"):
        return lla.triangular_solve(a, b, left_side=True, lower=kind == "lower",
                                    transpose_a=trans > 0, conjugate_a=trans == 2)
    if kind == "diagonal":
        d = snp.diagonal(a, 0, -2, -1)
        return b / (snp.conj(d) if trans == 2 else d)[..., None]
    if kind == "tridiagonal":
        sub, sup = snp.diagonal(a, -1, -2, -1), snp.diagonal(a, 1, -2, -1)
        d = snp.diagonal(a, 0, -2, -1)
        if trans:
            sub, sup = sup, sub
            if trans == 2:
                sub, sup, d = snp.conj(sub), snp.conj(sup), snp.conj(d)
        pad = [(0, 0)] * (d.ndim - 1)
        dl = snp.pad(sub, pad + [(1, 0)])
        du = snp.pad(sup, pad + [(0, 1)])
        return lla.tridiagonal_solve(dl, d, du, b)
    if kind == "pos":  # op(a) = a: real a is symmetric, complex a has trans == 0
        return _pos_solve(lower, a, b)
    # sym/her read one triangle; op(a) of the Hermitian or symmetric matrix
    full = _util.hermitian_from_triangle(a, lower, conjugate=kind != "sym")
    return _gen_solve(0, _op(full, trans), b)


def solve(a: Any, b: Any, lower: bool = False, overwrite_a: bool = False,
          overwrite_b: bool = False, check_finite: bool = True,
          assume_a: str | None = None, transposed: bool = False) -> Any:
    """Solve the linear equation set ``a @ x == b`` for ``x``.

    Parameters
    ----------
    a : array_like, shape (..., N, N)
        Square matrix or batch of matrices.
    b : array_like, shape (N,) or (..., N, NRHS)
        Right-hand side(s); batch axes broadcast with ``a``'s.
    lower : bool, default False
        With ``assume_a`` 'sym', 'her' or 'pos', read only the lower triangle
        of ``a`` (else only the upper one).
    overwrite_a, overwrite_b, check_finite : bool
        Accepted for SciPy compatibility and ignored (arrays are immutable;
        see Notes for non-finite input).
    assume_a : str, optional
        'gen'/'general' (LU with partial pivoting, the default), 'sym'/
        'symmetric', 'her'/'hermitian' (LU of the matrix built from one
        triangle), 'pos'/'positive definite' (Cholesky), 'diagonal',
        'tridiagonal' (LAPACK gtsv), 'upper triangular', 'lower triangular',
        'banded' (treated as 'gen').
    transposed : bool, default False
        Solve ``a.T @ x == b``; NotImplementedError for complex ``a``, as in
        SciPy.

    Returns
    -------
    x : Array, shape (..., N, NRHS) or (..., N)
        The solution, 1-D per batch member when ``b`` is 1-D.

    Raises
    ------
    ValueError
        ``a`` not square, ``b`` of a mismatched shape, or an unknown
        ``assume_a``.

    Notes
    -----
    Differences from SciPy: ``assume_a=None`` does not inspect the values
    (which is impossible under ``jit``) and uses LU; a singular matrix, a
    matrix that is not positive definite for 'pos', or NaN/inf input gives
    infs/NaNs in ``x`` (eagerly and under ``jit``) instead of
    ``LinAlgError``; no ill-conditioning warning is issued.

    Differentiable in ``a`` and ``b`` (forward and reverse, any order) by the
    implicit rule ``a @ dx = db - da @ x`` solved with the same factorisation
    of ``a``; batched under ``vmap`` and usable in ``jit``.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3, 2, 0], [1, -1, 0], [0, 5, 1]])
    >>> linalg.solve(a, np.array([2, 4, -1]))
    Array([ 2., -2.,  9.], dtype=float64)
    >>> spd = np.array([[4.0, 2.0], [2.0, 3.0]])
    >>> linalg.solve(spd, np.array([2.0, 1.0]), assume_a="pos")
    Array([0.5, 0. ], dtype=float64)
    """
    del overwrite_a, overwrite_b, check_finite
    kind = _structure("solve", assume_a)
    a, b = _util.inexact("solve", a, b)
    _util.matrix("solve", a, square=True)
    if transposed and _util.is_complex(a):
        raise NotImplementedError("solve: transposed=True is not supported for "
                                  "complex a (as in SciPy)")
    a, b, vector = _util.rhs("solve", a, b)
    if a.shape[-1] == 0 or b.size == 0:
        x = snp.zeros(b.shape, b.dtype)
    else:
        x = _solve_structured(kind, a, b, bool(lower), int(bool(transposed)))
    return x[..., 0] if vector else x


def solve_triangular(a: Any, b: Any, trans: Any = 0, lower: bool = False,
                     unit_diagonal: bool = False, overwrite_b: bool = False,
                     check_finite: bool = True) -> Any:
    """Solve ``op(a) @ x == b`` for ``x``, ``a`` triangular.

    Parameters
    ----------
    a : array_like, shape (..., N, N)
        Triangular matrix; only the triangle named by ``lower`` is read.
    b : array_like, shape (N,) or (..., N, NRHS)
    trans : {0, 1, 2, 'N', 'T', 'C'}, default 0
        ``op(a)`` is ``a``, ``a.T`` or ``a.conj().T``.
    lower : bool, default False
        Use the lower triangle of ``a``.
    unit_diagonal : bool, default False
        Take the diagonal of ``a`` to be ones (it is not read).
    overwrite_b, check_finite : bool
        Ignored (SciPy compatibility).

    Returns
    -------
    x : Array of ``b``'s shape (batch axes broadcast).

    Notes
    -----
    A zero on the diagonal gives infs/NaNs rather than ``LinAlgError``.
    Differentiable in ``a`` and ``b``, batched and jittable (the
    ``lax.linalg.triangular_solve`` primitive).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3.0, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1]])
    >>> linalg.solve_triangular(a, np.array([4.0, 2, 4, 2]), lower=True)
    Array([ 1.33333333, -0.66666667,  2.66666667, -1.33333333], dtype=float64)
    """
    del overwrite_b, check_finite
    t = _util.trans_code("solve_triangular", trans)
    a, b = _util.inexact("solve_triangular", a, b)
    _util.matrix("solve_triangular", a, square=True)
    a, b, vector = _util.rhs("solve_triangular", a, b)
    x = lla.triangular_solve(a, b, left_side=True, lower=bool(lower),
                             transpose_a=t > 0, conjugate_a=t == 2,
                             unit_diagonal=bool(unit_diagonal))
    return x[..., 0] if vector else x


def inv(a: Any, overwrite_a: bool = False, check_finite: bool = True, *,
        assume_a: str | None = None, lower: bool = False) -> Any:
    """The inverse of a square matrix (or of each one in a batch).

    Parameters
    ----------
    a : array_like, shape (..., N, N)
    overwrite_a, check_finite : bool
        Ignored (SciPy compatibility).
    assume_a : str, optional
        The structure of ``a``, as for :func:`solve` (default: general, LU).
    lower : bool, default False
        Which triangle to read for 'sym', 'her' and 'pos'.

    Returns
    -------
    ainv : Array, shape (..., N, N)

    Notes
    -----
    A singular matrix gives infs/NaNs instead of ``LinAlgError``.  The
    derivative ``d(a^{-1}) = -a^{-1} da a^{-1}`` reuses the factorisation.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.inv(np.array([[1.0, 2.0], [3.0, 4.0]]))
    Array([[-2. ,  1. ],
           [ 1.5, -0.5]], dtype=float64)
    """
    del overwrite_a, check_finite
    kind = _structure("inv", assume_a)
    (a,) = _util.inexact("inv", a)
    _util.matrix("inv", a, square=True)
    if a.shape[-1] == 0:
        return a
    return _solve_structured(kind, a, _util.eye_like(a, a.shape[:-2]), bool(lower), 0)


# --- determinants ---------------------------------------------------------------------

def _lu_det_parts(a: Any) -> tuple[Any, Any, Any, Any]:
    """LU factors, permutation, diagonal of U and the sign of the permutation."""
    lu, piv, perm = lla.lu(a)
    n = piv.shape[-1]
    swaps = snp.sum(piv != snp.arange(n, dtype=piv.dtype), axis=-1)
    sign = (1 - 2 * (swaps % 2)).astype(a.dtype)
    return lu, perm, snp.diagonal(lu, 0, -2, -1), sign


def _trace_inv_times(lu: Any, perm: Any, da: Any) -> Any:
    """``tr(A^{-1} dA)`` from A's LU factors (one solve with N right-hand
    sides, computed from the primal only, so reverse mode reuses it)."""
    ainv = _lu_apply(lu, perm, _util.eye_like(lu, lu.shape[:-2]), 0)
    return snp.sum(swap(ainv) * da, axis=(-2, -1))


def _det_fun(a: Any) -> Any:
    _, _, d, sign = _lu_det_parts(a)
    return sign * snp.prod(d, axis=-1)


def _exclusive_prod(s: Any) -> Any:
    """``out[..., i] = prod_{j != i} s[..., j]``, without dividing."""
    ones = snp.ones_like(s[..., :1])
    before = snp.concatenate([ones, snp.cumprod(s, axis=-1)[..., :-1]], axis=-1)
    after = snp.flip(snp.cumprod(snp.flip(s, -1), axis=-1), -1)
    return before * snp.concatenate([after[..., 1:], ones], axis=-1)


def _adjugate_by_svd(a: Any) -> Any:
    """``adj(a)`` from ``a = U S V^H``: ``det(U) det(V^H) V adj(S) U^H`` with
    ``adj(S) = diag(prod_{j != i} s_j)``, finite at singular ``a``."""
    s, u, vh = lla.svd(a)
    phase = _det_fun(u) * _det_fun(vh)
    excl = _exclusive_prod(s).astype(a.dtype)
    return phase[..., None, None] * ((adjoint(vh) * excl[..., None, :]) @ adjoint(u))


def _det_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    # d det = tr(adj(a) da); adj(a) = det(a) a^{-1} from the LU factors, or,
    # when a pivot is exactly zero (where that is 0 * inf), from an SVD
    (a,), (da,) = primals, tangents
    lu, perm, d, sign = _lu_det_parts(a)
    det_a = sign * snp.prod(d, axis=-1)

    def by_lu(_: Any) -> Any:
        ainv = _lu_apply(lu, perm, _util.eye_like(lu, lu.shape[:-2]), 0)
        return det_a[..., None, None] * ainv

    adj = lax.cond(snp.any(d == 0), lambda _: _adjugate_by_svd(a), by_lu, None)
    return det_a, snp.sum(swap(adj) * da, axis=(-2, -1))


_det = sciax.custom_jvp(_det_fun)
_det.defjvp(_det_jvp)


def det(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """The determinant of a square matrix (or of each one in a batch), by LU.

    Parameters
    ----------
    a : array_like, shape (..., N, N)
    overwrite_a, check_finite : bool
        Ignored (SciPy compatibility).

    Returns
    -------
    det : Array, shape (...)
        float64 for integer input (SciPy's rule); float32 stays float32.

    Notes
    -----
    NaN input gives NaN.  The derivative ``d det = tr(adj(a) da)`` takes
    ``adj(a) = det(a) a^{-1}`` from the LU factors, or from an SVD when a
    pivot is exactly zero, so it is finite at singular matrices too.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.det(np.array([[1.0, 2.0], [3.0, 4.0]]))
    Array(-2., dtype=float64)
    """
    del overwrite_a, check_finite
    (a,) = _util.inexact("det", a)
    _util.matrix("det", a, square=True)
    if a.shape[-1] == 0:
        return snp.ones(a.shape[:-2], a.dtype)
    return _det(a)


def _slogdet_fun(a: Any) -> tuple[Any, Any]:
    _, _, d, sign = _lu_det_parts(a)
    absd = snp.abs(d)
    logabs = snp.sum(snp.log(absd), axis=-1)
    if _util.is_complex(a):
        sign = sign * snp.prod(d / absd.astype(d.dtype), axis=-1)
    else:
        sign = sign * snp.prod(snp.sign(d), axis=-1)
    return sign, logabs


def _slogdet_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (a,), (da,) = primals, tangents
    lu, perm, _, _ = _lu_det_parts(a)
    sign, logabs = _slogdet_fun(a)
    t = _trace_inv_times(lu, perm, da)
    if _util.is_complex(a):
        dsign = sign * (1j * snp.imag(t)).astype(sign.dtype)
    else:
        dsign = snp.zeros_like(sign)
    return (sign, logabs), (dsign, snp.real(t))


_slogdet = sciax.custom_jvp(_slogdet_fun)
_slogdet.defjvp(_slogdet_jvp)


def slogdet(a: Any, overwrite_a: bool = False, check_finite: bool = True
            ) -> tuple[Any, Any]:
    """Sign and natural log of the absolute determinant (sciax extra; SciPy
    has no ``slogdet``, NumPy's is ``numpy.linalg.slogdet``).

    Parameters
    ----------
    a : array_like, shape (..., N, N)
    overwrite_a, check_finite : bool
        Ignored.

    Returns
    -------
    sign : Array, shape (...)
        +-1 (real) or a unit complex number; 0 for a singular matrix.
    logabsdet : Array, shape (...)
        ``log|det a|`` (real dtype); ``-inf`` for a singular matrix.

    Notes
    -----
    ``d logabsdet = Re tr(a^{-1} da)`` from the LU factors of the primal: the
    gradient costs one extra solve with ``N`` right-hand sides.  Does not
    overflow where :func:`det` would.

    Examples
    --------
    >>> from sciax import linalg
    >>> sign, logdet = linalg.slogdet(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> float(sign), round(float(logdet), 6)
    (-1.0, 0.693147)
    """
    del overwrite_a, check_finite
    (a,) = _util.inexact("slogdet", a)
    _util.matrix("slogdet", a, square=True)
    if a.shape[-1] == 0:
        return (snp.ones(a.shape[:-2], a.dtype),
                snp.zeros(a.shape[:-2], _util.real_dtype(a)))
    return _slogdet(a)


# --- LU -------------------------------------------------------------------------------

def lu_factor(a: Any, overwrite_a: bool = False, check_finite: bool = True
              ) -> tuple[Any, Any]:
    """LU decomposition with partial pivoting in LAPACK's packed form.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    overwrite_a, check_finite : bool
        Ignored.

    Returns
    -------
    lu : Array, shape (..., M, N)
        ``U`` in the upper triangle, the strict lower part of unit-diagonal
        ``L`` below it.
    piv : Array of int32, shape (..., min(M, N))
        0-based pivots: row ``i`` was swapped with row ``piv[i]``.

    Notes
    -----
    A singular matrix is factored without error (zero on ``U``'s diagonal);
    SciPy warns.  Differentiable (``lu``); ``piv`` has no derivative.

    Examples
    --------
    >>> from sciax import linalg
    >>> lu, piv = linalg.lu_factor(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> piv
    Array([1, 1], dtype=int32)
    """
    del overwrite_a, check_finite
    (a,) = _util.inexact("lu_factor", a)
    _util.matrix("lu_factor", a)
    lu, piv, _ = lla.lu(a)
    return lu, piv


def lu_solve(lu_and_piv: tuple[Any, Any], b: Any, trans: Any = 0,
             overwrite_b: bool = False, check_finite: bool = True) -> Any:
    """Solve ``op(a) @ x == b`` given the LU factorisation of ``a``.

    Parameters
    ----------
    lu_and_piv : (lu, piv)
        :func:`lu_factor`'s output, ``lu`` of shape (..., N, N).
    b : array_like, shape (N,) or (..., N, NRHS)
    trans : {0, 1, 2, 'N', 'T', 'C'}, default 0
        Solve ``a x = b``, ``a^T x = b`` or ``a^H x = b``.
    overwrite_b, check_finite : bool
        Ignored.

    Returns
    -------
    x : Array of ``b``'s shape (batch axes broadcast).

    Notes
    -----
    Differentiable in ``lu`` and ``b`` through the triangular solves.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[2.0, 5, 8, 7], [5, 2, 2, 8], [7, 5, 6, 6], [5, 4, 4, 8]])
    >>> x = linalg.lu_solve(linalg.lu_factor(a), np.array([1.0, 1, 1, 1]))
    >>> bool(np.allclose(a @ np.asarray(x), 1.0))
    True
    """
    del overwrite_b, check_finite
    t = _util.trans_code("lu_solve", trans)
    lu, piv = lu_and_piv
    lu, b = _util.inexact("lu_solve", lu, b)
    piv = snp.asarray(piv)
    _util.matrix("lu_solve", lu, square=True, what="lu")
    n = lu.shape[-1]
    if piv.shape[-1:] != (n,):
        raise ValueError(f"lu_solve: piv of shape {piv.shape} does not match lu of "
                         f"shape {lu.shape} (expected (..., {n}))")
    lu, b, vector = _util.rhs("lu_solve", lu, b)
    piv = snp.broadcast_to(piv.astype(np.int32), lu.shape[:-1])
    perm = lla.lu_pivots_to_permutation(piv, n)
    x = _lu_apply(lu, perm, b, t) if n else b
    return x[..., 0] if vector else x


# --- Cholesky -------------------------------------------------------------------------

def cholesky_factor(a: Any, lower: bool) -> Any:
    """The Cholesky factor of the Hermitian matrix in one triangle of ``a``
    (as LAPACK potrf reads it)."""
    return lla.cholesky(a, symmetrize_input=False, upper=not lower)


def cho_factor(a: Any, lower: bool = False, overwrite_a: bool = False,
               check_finite: bool = True) -> tuple[Any, bool]:
    """Cholesky decomposition for :func:`cho_solve`.

    Parameters
    ----------
    a : array_like, shape (..., M, M)
        Hermitian positive definite; only the triangle named by ``lower``
        is read.
    lower : bool, default False
        Return the lower factor ``L`` (``a = L L^H``), else the upper ``U``
        (``a = U^H U``).
    overwrite_a, check_finite : bool
        Ignored.

    Returns
    -------
    c : Array, shape (..., M, M)
        The factor; zeros in the other triangle (SciPy leaves arbitrary
        values there).
    lower : bool

    Notes
    -----
    A matrix that is not positive definite (or NaN input) gives a factor of
    NaNs, not ``LinAlgError``.

    Examples
    --------
    >>> from sciax import linalg
    >>> c, low = linalg.cho_factor(np.array([[4.0, 2.0], [2.0, 5.0]]))
    >>> c
    Array([[2., 1.],
           [0., 2.]], dtype=float64)
    """
    del overwrite_a, check_finite
    (a,) = _util.inexact("cho_factor", a)
    _util.matrix("cho_factor", a, square=True)
    return cholesky_factor(a, bool(lower)), bool(lower)


def cho_solve(c_and_lower: tuple[Any, bool], b: Any, overwrite_b: bool = False,
              check_finite: bool = True) -> Any:
    """Solve ``a @ x == b`` given :func:`cho_factor`'s factorisation of ``a``.

    Parameters
    ----------
    c_and_lower : (c, lower)
        The factor and which triangle it is in.
    b : array_like, shape (M,) or (..., M, NRHS)
    overwrite_b, check_finite : bool
        Ignored.

    Returns
    -------
    x : Array of ``b``'s shape (batch axes broadcast).

    Notes
    -----
    Differentiable in ``c`` and ``b`` through the triangular solves.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[4.0, 2.0], [2.0, 5.0]])
    >>> linalg.cho_solve(linalg.cho_factor(a), np.array([6.0, 7.0]))
    Array([1., 1.], dtype=float64)
    """
    del overwrite_b, check_finite
    c, lower = c_and_lower
    c, b = _util.inexact("cho_solve", c, b)
    _util.matrix("cho_solve", c, square=True, what="c")
    c, b, vector = _util.rhs("cho_solve", c, b)
    x = _cho_apply(c, b, bool(lower))
    return x[..., 0] if vector else x


# --- banded ---------------------------------------------------------------------------

def _check_band(name: str, ab: Any, rows: int) -> None:
    if ab.ndim < 2:
        raise ValueError(f"{name}: ab must be at least 2-D (band storage), got shape "
                         f"{ab.shape}")
    if ab.shape[-2] != rows:
        raise ValueError(f"{name}: invalid values for the number of lower and upper "
                         f"diagonals: l + u + 1 ({rows}) does not equal ab.shape[-2] "
                         f"({ab.shape[-2]})")


def solve_banded(l_and_u: tuple[int, int], ab: Any, b: Any, overwrite_ab: bool = False,
                 overwrite_b: bool = False, check_finite: bool = True) -> Any:
    """Solve ``a @ x == b`` for a banded ``a`` given in LAPACK band storage.

    Parameters
    ----------
    l_and_u : (int, int)
        Numbers of nonzero lower and upper diagonals.
    ab : array_like, shape (..., l + u + 1, M)
        ``ab[u + i - j, j] == a[i, j]``.
    b : array_like, shape (M,) or (..., M, K)
    overwrite_ab, overwrite_b, check_finite : bool
        Ignored.

    Returns
    -------
    x : Array of ``b``'s shape.

    Notes
    -----
    ``(1, 1)`` uses LAPACK's tridiagonal solver (gtsv, as SciPy); other
    bandwidths solve the dense matrix by LU (O(M^3) rather than gbsv's
    O(M l u)).  A singular matrix gives infs/NaNs.  Differentiable in ``ab``
    and ``b`` (implicit rule), batched and jittable.

    Examples
    --------
    >>> from sciax import linalg
    >>> ab = np.array([[0.0, -1, -1], [2, 2, 2], [-1, -1, 0]])
    >>> linalg.solve_banded((1, 1), ab, np.array([1.0, 0, 1]))
    Array([1., 1., 1.], dtype=float64)
    """
    del overwrite_ab, overwrite_b, check_finite
    l, u = (int(v) for v in l_and_u)
    ab, b = _util.inexact("solve_banded", ab, b)
    _check_band("solve_banded", ab, l + u + 1)
    n = ab.shape[-1]
    if l == 1 and u == 1:
        pad = [(0, 0)] * (ab.ndim - 2)
        dl = snp.pad(ab[..., 2, :-1], pad + [(1, 0)])
        du = snp.pad(ab[..., 0, 1:], pad + [(0, 1)])
        d = ab[..., 1, :]
        a_like = snp.zeros(ab.shape[:-2] + (n, n), ab.dtype)
        _, b, vector = _util.rhs("solve_banded", a_like, b)
        batch = b.shape[:-2]
        dl, d, du = (snp.broadcast_to(v, batch + (n,)) for v in (dl, d, du))
        x = lla.tridiagonal_solve(dl, d, du, b) if n else b
        return x[..., 0] if vector else x
    return solve(_util.banded_to_dense(ab, l, u, n), b)


def _hermitian_band_dense(ab: Any, lower: bool) -> Any:
    k, n = ab.shape[-2] - 1, ab.shape[-1]
    tri = _util.banded_to_dense(ab, k, 0, n) if lower else \
        _util.banded_to_dense(ab, 0, k, n)
    return _util.hermitian_from_triangle(tri, lower)


def solveh_banded(ab: Any, b: Any, overwrite_ab: bool = False,
                  overwrite_b: bool = False, lower: bool = False,
                  check_finite: bool = True) -> Any:
    """Solve ``a @ x == b`` for a Hermitian positive-definite banded ``a``.

    Parameters
    ----------
    ab : array_like, shape (..., u + 1, M)
        Upper form ``ab[u + i - j, j] == a[i, j]`` (``i <= j``), or with
        ``lower`` the lower form ``ab[i - j, j] == a[i, j]`` (``i >= j``).
    b : array_like, shape (M,) or (..., M, K)
    overwrite_ab, overwrite_b, check_finite : bool
        Ignored.
    lower : bool, default False

    Returns
    -------
    x : Array of ``b``'s shape.

    Notes
    -----
    Solved by a dense Cholesky factorisation (pbsv's banded one is not in
    jaxlib); a matrix that is not positive definite gives NaNs.

    Examples
    --------
    >>> from sciax import linalg
    >>> ab = np.array([[0.0, -1, -1], [2, 2, 2]])
    >>> linalg.solveh_banded(ab, np.array([1.0, 0, 1]))
    Array([1., 1., 1.], dtype=float64)
    """
    del overwrite_ab, overwrite_b, check_finite
    ab, b = _util.inexact("solveh_banded", ab, b)
    if ab.ndim < 2:
        raise ValueError(f"solveh_banded: ab must be at least 2-D, got shape "
                         f"{ab.shape}")
    return solve(_hermitian_band_dense(ab, bool(lower)), b, assume_a="pos",
                 lower=bool(lower))


def cholesky_banded(ab: Any, overwrite_ab: bool = False, lower: bool = False,
                    check_finite: bool = True) -> Any:
    """Cholesky factor of a Hermitian positive-definite banded matrix, in
    the same band storage as ``ab`` (see :func:`solveh_banded`).

    Notes
    -----
    Computed densely; NaNs for a matrix that is not positive definite.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.cholesky_banded(np.array([[0.0, 2.0], [4.0, 5.0]]))
    Array([[0., 1.],
           [2., 2.]], dtype=float64)
    """
    del overwrite_ab, check_finite
    (ab,) = _util.inexact("cholesky_banded", ab)
    if ab.ndim < 2:
        raise ValueError(f"cholesky_banded: ab must be at least 2-D, got shape "
                         f"{ab.shape}")
    k = ab.shape[-2] - 1
    c = cholesky_factor(_hermitian_band_dense(ab, bool(lower)), bool(lower))
    return _util.dense_to_banded(c, k, 0) if lower else _util.dense_to_banded(c, 0, k)


def cho_solve_banded(cb_and_lower: tuple[Any, bool], b: Any, overwrite_b: bool = False,
                     check_finite: bool = True) -> Any:
    """Solve ``a @ x == b`` given :func:`cholesky_banded`'s factor of ``a``.

    Examples
    --------
    >>> from sciax import linalg
    >>> cb = linalg.cholesky_banded(np.array([[0.0, 2.0], [4.0, 5.0]]))
    >>> linalg.cho_solve_banded((cb, False), np.array([6.0, 7.0]))
    Array([1., 1.], dtype=float64)
    """
    del overwrite_b, check_finite
    cb, lower = cb_and_lower
    (cb,) = _util.inexact("cho_solve_banded", cb)
    if cb.ndim < 2:
        raise ValueError(f"cho_solve_banded: cb must be at least 2-D, got shape "
                         f"{cb.shape}")
    k, n = cb.shape[-2] - 1, cb.shape[-1]
    c = _util.banded_to_dense(cb, k, 0, n) if lower else \
        _util.banded_to_dense(cb, 0, k, n)
    return cho_solve((c, bool(lower)), b)
