"""``sciax.numpy.linalg``: NumPy's linear-algebra API over ``sciax.lax.linalg``.

Every function takes stacks of matrices ``(..., M, N)`` (batch axes
broadcast where NumPy broadcasts them).  Integer and bool inputs compute in
the default float; float32 stays float32.  Failures that NumPy reports with
``LinAlgError`` (a singular matrix in :func:`solve`/:func:`inv`, a matrix that
is not positive definite in :func:`cholesky`) give infs/NaNs instead, eagerly
as under ``jit``, since a traced value cannot raise.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.custom_derivatives import custom_jvp
from sciax._src.lax import linalg
from sciax._src.lax.linalg import spectral as linalg_eig
from sciax._src.numpy import (einsum, indexing, products, reductions, sorting, ufuncs,
                               util)

LinAlgError = np.linalg.LinAlgError

__all__ = ["LinAlgError", "cholesky", "cond", "cross", "det", "diagonal", "eig",
           "eigh", "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot", "norm",
           "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot",
           "tensorinv", "tensorsolve", "trace", "vecdot", "vector_norm"]


class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class EigResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


def _lla() -> Any:
    return linalg


def _lle() -> Any:
    return linalg_eig


def _inexact(name: str, *args: Any) -> list[Any]:
    args = [util.as_operand(name, a) for a in args]
    out = util.promote_dtypes_inexact(*args)
    fix = []
    for a in out:
        if dtypes.is_python_scalar(a) or get_aval(a).weak_type:
            a = util.cast(a, get_aval(a).dtype)
        if get_aval(a).dtype in (np.dtype(np.float16), dtypes.bfloat16):
            a = util.cast(a, np.float32)  # LAPACK has no half precision
        fix.append(a)
    return fix


def _matrix(name: str, a: Any, square: bool = False) -> Any:
    (a,) = _inexact(name, a)
    shape = get_aval(a).shape
    if len(shape) < 2:
        raise LinAlgError(f"{name}: {len(shape)}-dimensional array given; the array "
                          "must be at least two-dimensional")
    if square and shape[-1] != shape[-2]:
        raise LinAlgError(f"{name}: last 2 dimensions of the array must be square, "
                          f"got shape {shape}")
    return a


def _swap(x: Any) -> Any:
    nd = util.ndim(x)
    return lax.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def _adjoint(x: Any) -> Any:
    x = _swap(x)
    return ufuncs.conjugate(x) if dtypes.is_complex(get_aval(x).dtype) else x


def _eye(n: int, batch: tuple[int, ...], dtype: np.dtype) -> Any:
    return util.broadcast_to(util.cast(np.eye(n), dtype), batch + (n, n))


def _batch_broadcast(name: str, a: Any, b: Any, b_core: int) -> tuple[Any, Any]:
    """Broadcast the batch axes of ``a`` (core rank 2) and ``b`` (core rank
    ``b_core``)."""
    sa, sb = get_aval(a).shape, get_aval(b).shape
    batch = util._broadcast_shapes(sa[:-2], sb[:len(sb) - b_core], name=name)
    return (util.broadcast_to(a, batch + sa[-2:], name),
            util.broadcast_to(b, batch + sb[len(sb) - b_core:], name))


# --- solving and inverting ------------------------------------------------------------

def solve(a: Any, b: Any) -> Any:
    """Solve ``a @ x = b`` (``np.linalg.solve``) by LU with partial pivoting.

    ``b`` is a vector when it is 1-D, else a stack of matrices (NumPy 2).

    Examples
    --------
    >>> snp.linalg.solve(snp.array([[2.0, 0.0], [0.0, 4.0]]), snp.array([2.0, 2.0]))
    Array([1. , 0.5], dtype=float64)
    """
    a = _matrix("solve", a, square=True)
    a, b = _inexact("solve", a, b)
    vector = util.ndim(b) == 1
    if vector:
        b = lax.reshape(b, get_aval(b).shape + (1,))
    if get_aval(b).shape[-2] != get_aval(a).shape[-1]:
        raise ValueError(f"solve: a of shape {get_aval(a).shape} and b of shape "
                         f"{get_aval(b).shape} do not match (b.shape[-2] must be "
                         "a.shape[-1])")
    a, b = _batch_broadcast("solve", a, b, 2)
    x = _lu_solve(a, b)
    if vector:
        x = lax.reshape(x, get_aval(x).shape[:-1])
    return x


def _lu_solve(a: Any, b: Any, factors: tuple[Any, Any] | None = None) -> Any:
    """``a^-1 b`` for stacks ``a`` (..., n, n) and ``b`` (..., n, k) of equal
    batch shape, by one LU factorisation, differentiated implicitly
    (``lax.custom_linear_solve``): the derivative reuses the factors, ``dx =
    a^-1 (db - da x)``, and reverse mode solves with the transposed factors,
    instead of differentiating the factorisation itself (which cost about 6x
    JAX's time in ``jit(grad)`` of a 20x20 solve).  ``factors``: ``(lu,
    perm)`` of ``a`` from ``lax.linalg.lu`` when the caller has them."""
    lla = _lla()
    if factors is None:
        lu, _, perm = lla.lu(lax.stop_gradient(a))
    else:
        lu, perm = (lax.stop_gradient(f) for f in factors)
    nd = util.ndim(b)
    perm = lax.reshape(util.cast(perm, dtypes.default_int()), get_aval(perm).shape + (1,))

    def solve(_: Any, rhs: Any) -> Any:  # P a = L U: x = U^-1 L^-1 P rhs
        pb = indexing.take_along_axis(rhs, perm, axis=nd - 2, mode="promise_in_bounds")
        y = lla.triangular_solve(lu, pb, left_side=True, lower=True, unit_diagonal=True)
        return lla.triangular_solve(lu, y, left_side=True, lower=False)

    def transpose_solve(_: Any, rhs: Any) -> Any:  # a^T = U^T L^T P
        y = lla.triangular_solve(lu, rhs, left_side=True, lower=False, transpose_a=True)
        z = lla.triangular_solve(lu, y, left_side=True, lower=True, unit_diagonal=True,
                                 transpose_a=True)
        inverse = lax.reshape(sorting.argsort(perm[..., 0], axis=-1),
                              get_aval(perm).shape)
        return indexing.take_along_axis(z, inverse, axis=nd - 2,
                                        mode="promise_in_bounds")

    return lax.custom_linear_solve(lambda x: products.matmul(a, x), b, solve,
                                   transpose_solve)


def inv(a: Any) -> Any:
    """The inverse of each square matrix (``np.linalg.inv``).

    Examples
    --------
    >>> snp.linalg.inv(snp.array([[2.0, 0.0], [0.0, 4.0]]))
    Array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float64)
    """
    a = _matrix("inv", a, square=True)
    shape = get_aval(a).shape
    return _lu_solve(a, _eye(shape[-1], shape[:-2], get_aval(a).dtype))


def _lu_det_parts(a: Any, lu: Any = None, pivots: Any = None) -> tuple[Any, Any]:
    """The diagonal of U and the permutation's sign (from ``a``'s LU factors
    when given)."""
    if lu is None:
        lu, pivots, _ = _lla().lu(a)
    diag = indexing.diagonal(lu, 0, -2, -1)
    n = get_aval(pivots).shape[-1]
    moved = ufuncs.not_equal(pivots, np.arange(n, dtype=get_aval(pivots).dtype))
    swaps = reductions.sum(moved, axis=-1)
    sign = ufuncs.subtract(1, ufuncs.multiply(2, ufuncs.remainder(swaps, 2)))
    return diag, util.cast(sign, get_aval(a).dtype)


def det(a: Any) -> Any:
    """The determinant of each square matrix (``np.linalg.det``), by LU.

    Examples
    --------
    >>> snp.linalg.det(snp.array([[1.0, 2.0], [3.0, 4.0]]))
    Array(-2., dtype=float64)
    """
    a = _matrix("det", a, square=True)
    if get_aval(a).shape[-1] == 0:
        shape = get_aval(a).shape
        return util.broadcast_to(util.cast(1, get_aval(a).dtype), shape[:-2])
    return _det(a)


def _det_from_lu(a: Any, lu: Any, pivots: Any) -> Any:
    diag, sign = _lu_det_parts(a, lu, pivots)
    return ufuncs.multiply(sign, reductions.prod(diag, axis=-1))


def _value_and_trace_solve(from_lu: Any, a: Any, da: Any) -> tuple[Any, Any]:
    """``from_lu(a, lu, pivots)`` and ``trace(a^-1 da)`` (the derivative of
    ``log det a`` along ``da``) from one LU factorisation of ``a``: reverse
    mode then transposes two triangular solves with the same factors (as for
    ``inv``), instead of differentiating the factorisation (two extra n^3
    products and a scatter)."""
    lu, pivots, perm = _lla().lu(a)
    t = indexing.trace(_lu_solve(a, da, (lu, perm)), 0, -2, -1)
    return from_lu(a, lu, pivots), t


def _by_lu(from_lu: Any, a: Any) -> Any:
    lu, pivots, _ = _lla().lu(a)
    return from_lu(a, lu, pivots)


def _slogdet_from_lu(a: Any, lu: Any, pivots: Any) -> tuple[Any, Any]:
    diag, sign = _lu_det_parts(a, lu, pivots)
    absd = ufuncs.absolute(diag)
    logabs = reductions.sum(ufuncs.log(absd), axis=-1)
    phase = reductions.prod(ufuncs.divide(diag, util.cast(absd, get_aval(diag).dtype)),
                            axis=-1)
    return ufuncs.multiply(sign, phase), logabs


_det = custom_jvp(lambda a: _by_lu(_det_from_lu, a))
_slogdet = custom_jvp(lambda a: _by_lu(_slogdet_from_lu, a))


@_det.defjvp
def _det_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    d, t = _value_and_trace_solve(_det_from_lu, primals[0], tangents[0])
    return d, ufuncs.multiply(d, t)


@_slogdet.defjvp
def _slogdet_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (sign, logabs), t = _value_and_trace_solve(_slogdet_from_lu, primals[0], tangents[0])
    if dtypes.is_complex(get_aval(primals[0]).dtype):
        # d sign = i sign Im t, d log|det| = Re t
        return (sign, logabs), (ufuncs.multiply(sign, ufuncs.multiply(1j, ufuncs.imag(t))),
                                ufuncs.real(t))
    return (sign, logabs), (ufuncs.multiply(sign, 0.0), t)


def slogdet(a: Any) -> SlogdetResult:
    """``(sign, log|det|)`` of each square matrix (``np.linalg.slogdet``).

    Examples
    --------
    >>> sign, logdet = snp.linalg.slogdet(snp.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> float(sign), round(float(logdet), 6)
    (-1.0, 0.693147)
    """
    a = _matrix("slogdet", a, square=True)
    shape, dtype = get_aval(a).shape, get_aval(a).dtype
    if shape[-1] == 0:  # the empty product: det 1, as NumPy
        real = np.zeros((), dtype).real.dtype
        return SlogdetResult(util.broadcast_to(util.cast(1, dtype), shape[:-2]),
                             util.broadcast_to(util.cast(0, real), shape[:-2]))
    return SlogdetResult(*_slogdet(a))


def cholesky(a: Any, /, *, upper: bool = False, symmetrize_input: bool = True) -> Any:
    """The Cholesky factor of Hermitian positive-definite matrices
    (``np.linalg.cholesky``): lower ``L`` with ``a = L @ L^H`` (or upper).

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    upper : bool, default False
        Return the upper factor ``U = L^H``.
    symmetrize_input : bool, default True
        Factor ``(a + a^H) / 2`` (JAX's convention): the derivative with
        respect to ``a`` is then Hermitian, so a gradient step keeps ``a``
        symmetric.  False reads only the lower triangle, as NumPy does (the
        derivative is then lower triangular).  The two agree in value for
        Hermitian ``a``.

    Examples
    --------
    >>> snp.linalg.cholesky(snp.array([[4.0, 2.0], [2.0, 2.0]]))
    Array([[2., 0.],
           [1., 1.]], dtype=float64)
    """
    a = _matrix("cholesky", a, square=True)
    # NumPy reads the lower triangle whichever factor it returns
    low = _lla().cholesky(a, symmetrize_input=bool(symmetrize_input))
    return _adjoint(low) if upper else low


def qr(a: Any, mode: str = "reduced") -> Any:
    """The QR decomposition (``np.linalg.qr``); ``mode`` 'reduced', 'complete'
    or 'r'.

    Examples
    --------
    >>> q, r = snp.linalg.qr(snp.array([[3.0, 0.0], [4.0, 5.0]]))
    >>> bool(np.allclose(q @ r, [[3.0, 0.0], [4.0, 5.0]]))
    True
    """
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: unsupported mode {mode!r}; expected 'reduced', "
                         "'complete' or 'r'")
    a = _matrix("qr", a)
    q, r = _lla().qr(a, full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)


# --- spectral -------------------------------------------------------------------------

def svd(a: Any, full_matrices: bool = True, compute_uv: bool = True,
        hermitian: bool = False) -> Any:
    """The singular value decomposition ``a = U @ diag(S) @ Vh``
    (``np.linalg.svd``); only ``S`` when ``compute_uv`` is False.

    Examples
    --------
    >>> snp.linalg.svd(snp.array([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False)
    Array([4., 3.], dtype=float64)
    """
    a = _matrix("svd", a)
    if not compute_uv:
        return _lle().svd(a, full_matrices=False, compute_uv=False)
    s, u, vh = _lle().svd(a, full_matrices=full_matrices, compute_uv=True)
    return SVDResult(u, s, vh)


def svdvals(x: Any, /) -> Any:
    """The singular values, descending (``np.linalg.svdvals``).

    Examples
    --------
    >>> snp.linalg.svdvals(snp.array([[0.0, 2.0], [1.0, 0.0]]))
    Array([2., 1.], dtype=float64)
    """
    return svd(x, compute_uv=False)


def eigh(a: Any, UPLO: str = "L", *, symmetrize_input: bool = True) -> EighResult:
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices
    (``np.linalg.eigh``).

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    UPLO : {'L', 'U'}, default 'L'
        The triangle read when ``symmetrize_input`` is False.
    symmetrize_input : bool, default True
        Decompose ``(a + a^H) / 2`` (JAX's convention): derivatives with
        respect to ``a`` are Hermitian, so a gradient step keeps ``a``
        symmetric.  False reads only the ``UPLO`` triangle, as NumPy does
        (derivatives are then triangular).  Both agree for Hermitian ``a``.

    Examples
    --------
    >>> w, v = snp.linalg.eigh(snp.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> w
    Array([1., 3.], dtype=float64)
    """
    if UPLO not in ("L", "U"):
        raise ValueError(f"eigh: UPLO must be 'L' or 'U', got {UPLO!r}")
    a = _matrix("eigh", a, square=True)
    v, w = _lle().eigh(a, lower=UPLO == "L", symmetrize_input=bool(symmetrize_input))
    return EighResult(w, v)


def eigvalsh(a: Any, UPLO: str = "L", *, symmetrize_input: bool = True) -> Any:
    """The eigenvalues of Hermitian matrices, ascending (``np.linalg.eigvalsh``);
    ``UPLO`` and ``symmetrize_input`` as in :func:`eigh`.

    Examples
    --------
    >>> snp.linalg.eigvalsh(snp.array([[2.0, 1.0], [1.0, 2.0]]))
    Array([1., 3.], dtype=float64)
    """
    return eigh(a, UPLO, symmetrize_input=symmetrize_input).eigenvalues


def eig(a: Any) -> EigResult:
    """Eigenvalues and right eigenvectors of general square matrices
    (``np.linalg.eig``).  Always complex, as in JAX (NumPy returns real arrays
    when every eigenvalue is real, a value-dependent type).

    Examples
    --------
    >>> w, v = snp.linalg.eig(snp.array([[2.0, 0.0], [0.0, 3.0]]))
    >>> w
    Array([2.+0.j, 3.+0.j], dtype=complex128)
    """
    a = _matrix("eig", a, square=True)
    w, v = _lle().eig(a)
    return EigResult(w, v)


def eigvals(a: Any) -> Any:
    """The eigenvalues of general square matrices (``np.linalg.eigvals``).

    Examples
    --------
    >>> snp.linalg.eigvals(snp.array([[0.0, -1.0], [1.0, 0.0]]))
    Array([0.+1.j, 0.-1.j], dtype=complex128)
    """
    a = _matrix("eigvals", a, square=True)
    return _lle().eig(a, compute_right_eigenvectors=False)[0]


# --- norms ----------------------------------------------------------------------------

def _abs2_sum(x: Any, axis: Any, keepdims: bool) -> Any:
    ax = ufuncs.absolute(x)
    return reductions.sum(ufuncs.multiply(ax, ax), axis=axis, keepdims=keepdims)


def _vector_norm(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
    if ord is None or ord == 2:
        return _norm_sqrt(_abs2_sum(x, axis, keepdims))
    ax = ufuncs.absolute(x)
    if ord == np.inf:
        return reductions.max(ax, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return reductions.min(ax, axis=axis, keepdims=keepdims)
    if ord == 0:
        nz = util.cast(ufuncs.not_equal(x, 0), get_aval(ax).dtype)
        return reductions.sum(nz, axis=axis, keepdims=keepdims)
    if ord == 1:
        return reductions.sum(ax, axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"norm: invalid norm order {ord!r} for vectors")
    p = float(ord)
    s = reductions.sum(ufuncs.power(ax, p), axis=axis, keepdims=keepdims)
    return ufuncs.power(s, 1.0 / p)


def _matrix_norm(x: Any, ord: Any, axes: tuple[int, int], keepdims: bool) -> Any:
    r, c = axes
    if ord is None or ord == "fro":
        return _norm_sqrt(_abs2_sum(x, axes, keepdims))
    if ord in (1, -1, np.inf, -np.inf):
        ax = ufuncs.absolute(x)
        sum_axis, red_axis = (r, c) if ord in (1, -1) else (c, r)
        sums = reductions.sum(ax, axis=sum_axis, keepdims=True)
        red = reductions.max if ord in (1, np.inf) else reductions.min
        out = red(sums, axis=red_axis, keepdims=True)
        return out if keepdims else lax.reshape(
            out, tuple(d for i, d in enumerate(get_aval(out).shape) if i not in axes))
    if ord in (2, -2, "nuc"):
        nd = util.ndim(x)
        perm = tuple(d for d in range(nd) if d not in axes) + axes
        s = svdvals(lax.transpose(x, perm))
        if ord == "nuc":
            out = reductions.sum(s, axis=-1)
        else:
            out = (reductions.max if ord == 2 else reductions.min)(s, axis=-1)
        if keepdims:
            for d in sorted(axes):
                out = lax.expand_dims(out, (d,))
        return out
    raise ValueError(f"norm: invalid norm order {ord!r} for matrices")


@custom_jvp
def _norm_sqrt(s: Any) -> Any:
    """``sqrt`` of a sum of squares whose derivative at 0 is 0, not inf: the
    chain rule then gives the 2-norm the subgradient 0 at the origin instead
    of ``0 * inf = nan``."""
    return ufuncs.sqrt(s)


@_norm_sqrt.defjvp
def _norm_sqrt_jvp(primals, tangents):
    (s,), (t,) = primals, tangents
    zero = s == 0
    # sqrt of a safe argument: sqrt(s) itself would put an infinite slope at 0
    # into second derivatives (0 * inf = nan in reverse mode)
    safe = ufuncs.sqrt(ufuncs.where(zero, 1.0, s))
    return _norm_sqrt(s), ufuncs.where(zero, 0.0, t / (2.0 * safe))


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """Vector or matrix norm (``np.linalg.norm``), by NumPy's rules for
    ``ord`` and ``axis``.

    Examples
    --------
    >>> snp.linalg.norm(snp.array([3.0, 4.0]))
    Array(5., dtype=float64)
    >>> snp.linalg.norm(snp.array([[1.0, -2.0], [3.0, 4.0]]), ord=1)
    Array(6., dtype=float64)
    """
    (x,) = _inexact("norm", x)
    nd = util.ndim(x)
    if axis is None:
        if ord is None:
            out = _norm_sqrt(_abs2_sum(x, None, False))
            return lax.reshape(out, (1,) * nd) if keepdims else out
        if nd == 1:
            return _vector_norm(x, ord, 0, keepdims)
        if nd == 2:
            return _matrix_norm(x, ord, (0, 1), keepdims)
        raise ValueError(f"norm: improper number of dimensions to norm (an array of "
                         f"{nd} dimensions with ord={ord!r} needs an axis)")
    axes = util.canonicalize_axes(axis, nd)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes, keepdims)
    raise ValueError(f"norm: improper number of dimensions to norm (axis={axis})")


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False,
                ord: Any = 2) -> Any:
    """The vector norm over ``axis`` (all axes, flattened, by default)
    (``np.linalg.vector_norm``).

    Examples
    --------
    >>> snp.linalg.vector_norm(snp.ones((2, 2)), ord=1)
    Array(4., dtype=float64)
    """
    (x,) = _inexact("vector_norm", x)
    if axis is None:
        out = _vector_norm(lax.reshape(x, (get_aval(x).size,)), ord, 0, False)
        return lax.reshape(out, (1,) * util.ndim(x)) if keepdims else out
    axes = util.canonicalize_axes(axis, util.ndim(x))
    return _vector_norm(x, ord, axes, keepdims)


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    """The matrix norm of the last two axes (``np.linalg.matrix_norm``).

    Examples
    --------
    >>> snp.linalg.matrix_norm(snp.eye(3), ord="nuc")
    Array(3., dtype=float64)
    """
    x = _matrix("matrix_norm", x)
    nd = util.ndim(x)
    return _matrix_norm(x, ord, (nd - 2, nd - 1), keepdims)


def cond(x: Any, p: Any = None) -> Any:
    """The condition number (``np.linalg.cond``).

    Examples
    --------
    >>> snp.linalg.cond(snp.array([[1.0, 0.0], [0.0, 4.0]]))
    Array(4., dtype=float64)
    """
    x = _matrix("cond", x)
    if p is None or p in (2, -2):
        s = svdvals(x)
        hi, lo = reductions.max(s, axis=-1), reductions.min(s, axis=-1)
        return ufuncs.divide(lo, hi) if p == -2 else ufuncs.divide(hi, lo)
    return ufuncs.multiply(norm(x, p, axis=(-2, -1)), norm(inv(x), p, axis=(-2, -1)))


def _default_rtol(shape: tuple[int, ...], dtype: np.dtype) -> float:
    return max(shape[-2:]) * float(np.finfo(dtypes.finfo(dtype).dtype).eps)


def matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *,
                rtol: Any = None) -> Any:
    """The number of singular values above a tolerance
    (``np.linalg.matrix_rank``).

    Examples
    --------
    >>> snp.linalg.matrix_rank(snp.array([[1.0, 2.0], [2.0, 4.0]]))
    Array(1, dtype=int64)
    """
    (A,) = _inexact("matrix_rank", A)
    if util.ndim(A) < 2:
        return util.cast(reductions.any(ufuncs.not_equal(A, 0)), dtypes.default_int())
    s = svdvals(A)
    smax = reductions.max(s, axis=-1, keepdims=True)
    if tol is None:
        r = _default_rtol(get_aval(A).shape, get_aval(s).dtype) if rtol is None \
            else rtol
        tol = ufuncs.multiply(smax, r)
    else:
        tol = util.as_operand("matrix_rank", tol)
        if util.ndim(tol):
            tol = lax.expand_dims(tol, (util.ndim(tol),))
    return reductions.sum(ufuncs.greater(s, tol), axis=-1, dtype=dtypes.default_int())


def pinv(a: Any, rcond: Any = None, hermitian: bool = False, *,
         rtol: Any = None) -> Any:
    """The Moore-Penrose pseudo-inverse by SVD (``np.linalg.pinv``); singular
    values below ``rcond * max(s)`` count as zero.

    Examples
    --------
    >>> snp.linalg.pinv(snp.array([[2.0, 0.0], [0.0, 0.0]]))
    Array([[0.5, 0. ],
           [0. , 0. ]], dtype=float64)
    """
    a = _matrix("pinv", a)
    u, s, vh = svd(a, full_matrices=False)
    if rcond is None:
        rcond = _default_rtol(get_aval(a).shape, get_aval(s).dtype) if rtol is None \
            else rtol
    smax = reductions.max(s, axis=-1, keepdims=True)
    keep = ufuncs.greater(s, ufuncs.multiply(smax, rcond))
    sinv = ufuncs.where(keep, ufuncs.divide(1, ufuncs.where(keep, s, 1)), 0)
    sinv = util.cast(sinv, get_aval(u).dtype)
    scaled = ufuncs.multiply(lax.expand_dims(sinv, (util.ndim(sinv),)), _adjoint(u))
    return products.matmul(_adjoint(vh), scaled)


def lstsq(a: Any, b: Any, rcond: Any = None) -> tuple[Any, Any, Any, Any]:
    """Least-squares solution of ``a @ x = b`` (``np.linalg.lstsq``) by SVD:
    ``(x, residuals, rank, s)``.

    ``residuals`` (squared 2-norms of ``b - a @ x`` per column) has NumPy's
    shape when ``M > N``; NumPy returns an empty array instead when ``a`` is
    rank deficient, which depends on values, so here it is always filled.

    Examples
    --------
    >>> x, res, rank, s = snp.linalg.lstsq(snp.array([[1.0], [1.0]]),
    ...                                    snp.array([1.0, 3.0]))
    >>> x, res, rank
    (Array([2.], dtype=float64), Array([2.], dtype=float64), Array(1, dtype=int64))
    """
    a = _matrix("lstsq", a)
    a, b = _inexact("lstsq", a, b)
    if util.ndim(a) != 2 or util.ndim(b) not in (1, 2):
        raise LinAlgError(f"lstsq: a must be 2-D and b 1-D or 2-D, got shapes "
                          f"{get_aval(a).shape} and {get_aval(b).shape}")
    m, n = get_aval(a).shape
    if get_aval(b).shape[0] != m:
        raise LinAlgError(f"lstsq: incompatible dimensions: a {get_aval(a).shape}, b "
                          f"{get_aval(b).shape}")
    u, s, vh = svd(a, full_matrices=False)
    if rcond is None:
        rcond = float(np.finfo(dtypes.finfo(get_aval(s).dtype).dtype).eps) * max(m, n)
    smax = reductions.max(s, axis=-1, keepdims=True) if n and m else s
    keep = ufuncs.greater(s, ufuncs.multiply(smax, rcond))
    rank = reductions.sum(keep, dtype=dtypes.default_int())
    sinv = util.cast(ufuncs.where(keep, ufuncs.divide(1, ufuncs.where(keep, s, 1)), 0),
                     get_aval(u).dtype)
    uhb = products.matmul(_adjoint(u), b)
    if util.ndim(b) == 1:
        x = products.matmul(_adjoint(vh), ufuncs.multiply(sinv, uhb))
    else:
        x = products.matmul(_adjoint(vh), ufuncs.multiply(
            lax.expand_dims(sinv, (1,)), uhb))
    if m > n:
        r = ufuncs.subtract(b, products.matmul(a, x))
        resid = _abs2_sum(r, 0, False)
        if util.ndim(b) == 1:
            resid = lax.reshape(resid, (1,))
    else:
        resid = lax.full((0,), 0, dtypes.finfo(get_aval(s).dtype).dtype)
    return x, resid, rank, s


# --- products and the rest ------------------------------------------------------------

def matrix_power(a: Any, n: int) -> Any:
    """``a`` multiplied by itself ``n`` times (``np.linalg.matrix_power``); ``n``
    is a static integer, negative powers invert first.

    Examples
    --------
    >>> snp.linalg.matrix_power(snp.array([[1, 1], [0, 1]]), 3)
    Array([[1, 3],
           [0, 1]], dtype=int64)
    """
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"matrix_power: exponent must be an integer, got {n!r}") \
            from None
    a = util.as_operand("matrix_power", a)
    shape = get_aval(a).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise LinAlgError(f"matrix_power: needs stacks of square matrices, got shape "
                          f"{shape}")
    if n == 0:
        return _eye(shape[-1], shape[:-2], get_aval(a).dtype)
    if n < 0:
        a, n = inv(a), -n
    result = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else products.matmul(result, base)
        n >>= 1
        if n:
            base = products.matmul(base, base)
    return result


def multi_dot(arrays: Sequence[Any], *, out: None = None) -> Any:
    """The product of a chain of matrices, multiplied in the cheapest order
    (``np.linalg.multi_dot``); the first and last may be vectors.

    Examples
    --------
    >>> snp.linalg.multi_dot([snp.ones(3), snp.ones((3, 4)), snp.ones(4)])
    Array(12., dtype=float64)
    """
    if out is not None:
        raise TypeError("multi_dot: the 'out' argument is not supported")
    arrays = [util.as_operand("multi_dot", a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("multi_dot: expecting at least two arrays")
    if len(arrays) == 2:
        return products.dot(arrays[0], arrays[1])
    first_vec = util.ndim(arrays[0]) == 1
    last_vec = util.ndim(arrays[-1]) == 1
    if first_vec:
        arrays[0] = lax.reshape(arrays[0], (1,) + get_aval(arrays[0]).shape)
    if last_vec:
        arrays[-1] = lax.reshape(arrays[-1], get_aval(arrays[-1]).shape + (1,))
    for i, a in enumerate(arrays):
        if util.ndim(a) != 2:
            raise ValueError(f"multi_dot: array {i} has {util.ndim(a)} dimensions; "
                             "all but the first and last must be 2-D")
    dims = [get_aval(arrays[0]).shape[0]] + [get_aval(a).shape[1] for a in arrays]
    order = _chain_order(dims)

    def build(i: int, j: int) -> Any:
        if i == j:
            return arrays[i]
        k = order[i][j]
        return products.dot(build(i, k), build(k + 1, j))

    out_ = build(0, len(arrays) - 1)
    shape = get_aval(out_).shape
    if first_vec and last_vec:
        return lax.reshape(out_, ())
    if first_vec:
        return lax.reshape(out_, shape[1:])
    if last_vec:
        return lax.reshape(out_, shape[:1])
    return out_


def _chain_order(dims: list[int]) -> list[list[int]]:
    """Matrix-chain dynamic programme: ``split[i][j]`` is where to split the
    product of matrices ``i..j`` (cost in multiply-adds)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def tensorinv(a: Any, ind: int = 2) -> Any:
    """The inverse of ``a`` seen as a linear map from its first ``ind`` axes'
    space (``np.linalg.tensorinv``).

    Examples
    --------
    >>> snp.linalg.tensorinv(snp.eye(4).reshape(4, 2, 2), ind=1).shape
    (2, 2, 4)
    """
    a = util.as_operand("tensorinv", a)
    shape = get_aval(a).shape
    if ind <= 0:
        raise ValueError(f"tensorinv: ind must be a positive integer, got {ind}")
    rows, cols = math.prod(shape[:ind]), math.prod(shape[ind:])
    if rows != cols:
        raise LinAlgError(f"tensorinv: prod(a.shape[:ind]) = {rows} must equal "
                          f"prod(a.shape[ind:]) = {cols} (shape {shape})")
    inv_a = inv(lax.reshape(_inexact("tensorinv", a)[0], (rows, cols)))
    return lax.reshape(inv_a, shape[ind:] + shape[:ind])


def tensorsolve(a: Any, b: Any, axes: Sequence[int] | None = None) -> Any:
    """Solve ``tensordot(a, x, x.ndim) = b`` for ``x`` (``np.linalg.tensorsolve``).

    Examples
    --------
    >>> snp.linalg.tensorsolve(snp.eye(4).reshape(2, 2, 4), snp.ones((2, 2))).shape
    (4,)
    """
    a, b = _inexact("tensorsolve", a, b)
    nd = util.ndim(a)
    if axes is not None:
        axes = [util.canonicalize_axis(ax, nd) for ax in axes]
        perm = tuple(d for d in range(nd) if d not in axes) + tuple(axes)
        a = lax.transpose(a, perm)
    shape = get_aval(a).shape
    bshape = get_aval(b).shape
    xshape = shape[len(bshape):] if bshape == shape[:len(bshape)] else None
    if xshape is None:
        raise LinAlgError(f"tensorsolve: b of shape {bshape} does not match the "
                          f"leading axes of a (shape {shape})")
    rows, cols = math.prod(bshape), math.prod(xshape)
    if rows != cols:
        raise LinAlgError(f"tensorsolve: a must be 'square': prod(b.shape) = {rows} "
                          f"!= prod of the remaining axes of a = {cols}")
    x = solve(lax.reshape(a, (rows, cols)), lax.reshape(b, (rows,)))
    return lax.reshape(x, xshape)


def outer(x1: Any, x2: Any, /) -> Any:
    """The outer product of two vectors (``np.linalg.outer``: 1-D only).

    Examples
    --------
    >>> snp.linalg.outer(snp.array([1, 2]), snp.array([1, 10]))
    Array([[ 1, 10],
           [ 2, 20]], dtype=int64)
    """
    for i, x in enumerate((x1, x2)):
        if util.ndim(util.as_operand("outer", x)) != 1:
            raise ValueError(f"linalg.outer: input {i + 1} must be 1-D, got shape "
                             f"{get_aval(util.as_operand('outer', x)).shape}")
    return products.outer(x1, x2)


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """The cross product of 3-element vectors along ``axis``
    (``np.linalg.cross``), broadcasting the other axes.

    Examples
    --------
    >>> snp.linalg.cross(snp.array([1.0, 0.0, 0.0]), snp.array([0.0, 1.0, 0.0]))
    Array([0., 0., 1.], dtype=float64)
    """
    a, b = util.promote_dtypes(util.as_operand("cross", x1),
                               util.as_operand("cross", x2))
    for i, x in enumerate((a, b)):
        sh = get_aval(x).shape
        if not sh or sh[util.canonicalize_axis(axis, len(sh))] != 3:
            raise ValueError(f"linalg.cross: both inputs must have 3 elements along "
                             f"axis {axis}, input {i + 1} has shape {sh}")
    a = _moveaxis_last(a, axis)
    b = _moveaxis_last(b, axis)
    a, b = util.promote_shapes("cross", a, b)
    comp = [lax.index_in_dim(v, k, axis=util.ndim(v) - 1, keepdims=False)
            for v in (a, b) for k in range(3)]
    a0, a1, a2, b0, b1, b2 = comp
    parts = [ufuncs.subtract(ufuncs.multiply(a1, b2), ufuncs.multiply(a2, b1)),
             ufuncs.subtract(ufuncs.multiply(a2, b0), ufuncs.multiply(a0, b2)),
             ufuncs.subtract(ufuncs.multiply(a0, b1), ufuncs.multiply(a1, b0))]
    nd = util.ndim(parts[0])
    out = lax.concatenate([lax.expand_dims(p, (nd,)) for p in parts], nd)
    return _moveaxis_from_last(out, axis)


def _moveaxis_last(x: Any, axis: int) -> Any:
    nd = util.ndim(x)
    ax = util.canonicalize_axis(axis, nd)
    if ax == nd - 1:
        return x
    return lax.transpose(x, tuple(d for d in range(nd) if d != ax) + (ax,))


def _moveaxis_from_last(x: Any, axis: int) -> Any:
    nd = util.ndim(x)
    ax = util.canonicalize_axis(axis, nd)
    if ax == nd - 1:
        return x
    perm = list(range(nd - 1))
    perm.insert(ax, nd - 1)
    return lax.transpose(x, tuple(perm))


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """``sum(conj(x1) * x2, axis)`` with broadcasting (``np.linalg.vecdot``).

    Examples
    --------
    >>> snp.linalg.vecdot(snp.array([1.0, 2.0]), snp.array([[3.0, 4.0]]))
    Array([11.], dtype=float64)
    """
    a, b = util.promote_args("vecdot", x1, x2)
    sa = get_aval(a).shape
    ax = util.canonicalize_axis(axis, len(sa))
    if dtypes.is_complex(get_aval(a).dtype):
        a = ufuncs.conjugate(a)
    return reductions.sum(ufuncs.multiply(a, b), axis=ax)


def matmul(x1: Any, x2: Any, /) -> Any:
    """``x1 @ x2`` (``np.linalg.matmul``)."""
    return products.matmul(x1, x2)


def matrix_transpose(x: Any, /) -> Any:
    """Swap the last two axes (``np.linalg.matrix_transpose``)."""
    x = util.as_operand("matrix_transpose", x)
    if util.ndim(x) < 2:
        raise ValueError(f"matrix_transpose: needs at least 2 dimensions, got shape "
                         f"{get_aval(x).shape}")
    return _swap(x)


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    """``np.linalg.tensordot`` (as ``sciax.numpy.tensordot``)."""
    return einsum.tensordot(x1, x2, axes=axes)


def diagonal(x: Any, /, *, offset: int = 0) -> Any:
    """The ``offset`` diagonal of the last two axes (``np.linalg.diagonal``).

    Examples
    --------
    >>> snp.linalg.diagonal(snp.arange(4).reshape(2, 2))
    Array([0, 3], dtype=int64)
    """
    return indexing.diagonal(x, offset, -2, -1)


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    """The sum of the ``offset`` diagonal of the last two axes
    (``np.linalg.trace``).

    Examples
    --------
    >>> snp.linalg.trace(snp.eye(3))
    Array(3., dtype=float64)
    """
    return indexing.trace(x, offset, -2, -1, dtype)
