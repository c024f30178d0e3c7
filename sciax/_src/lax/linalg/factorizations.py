"""Linear-algebra primitives lowered to jaxlib's LAPACK kernels on CPU:
``cholesky``, ``triangular_solve``, ``lu`` (with ``lu_pivots_to_permutation``),
``qr`` (built from ``geqrf`` and ``householder_product``) and
``tridiagonal_solve``.

Every primitive takes a batch of matrices ``(..., m, n)``: the LAPACK FFI
kernels loop over leading batch dimensions themselves, so batching rules only
move the vmapped axis to the front.  Failures are values, not exceptions: a
factorisation LAPACK reports as failed (``info != 0``) comes back as NaNs, as
in JAX.

The first section holds helpers the other modules of this package share
(``spectral`` and the rest import them): :func:`lapack_call` emits a batched LAPACK custom call with the
column-major layouts the kernels expect, :func:`lower_with_lax` runs lax code
inside a lowering rule (post-processing a kernel's outputs), and small batched
matrix helpers (:func:`matmul`, :func:`adjoint`, :func:`tril`, ...).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.backend import lapack
from sciax._src.backend.mlir import ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.trace import Primitive
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax import control_flow, dot, elementwise as ew, reductions, shape_ops
from sciax._src.lax._rules import multi_result_primitive, standard_primitive

ArrayLike = Any

__all__ = ["cholesky", "triangular_solve", "lu", "lu_pivots_to_permutation", "qr",
           "geqrf", "householder_product", "tridiagonal_solve",
           "cholesky_p", "triangular_solve_p", "lu_p", "lu_pivots_to_permutation_p",
           "qr_p", "geqrf_p", "householder_product_p", "tridiagonal_solve_p"]


# --- shared helpers: checks --------------------------------------------------------

# the dtypes LAPACK has kernels for, and the letter that names each kernel
LAPACK_DTYPES = {np.dtype(np.float32): "s", np.dtype(np.float64): "d",
                 np.dtype(np.complex64): "c", np.dtype(np.complex128): "z"}


def check_lapack_dtype(name: str, aval: ShapedArray, what: str = "input") -> None:
    """TypeError unless ``aval`` has a dtype LAPACK supports."""
    if np.dtype(aval.dtype) not in LAPACK_DTYPES:
        raise TypeError(f"{name}: the {what} must have dtype float32, float64, "
                        f"complex64 or complex128, got {aval.dtype}")


def check_matrix(name: str, aval: ShapedArray, *, square: bool = False,
                 what: str = "input") -> tuple[int, ...]:
    """Check ``aval`` is a (batch of) matrix of a LAPACK dtype; returns its shape."""
    shape = aval.shape
    if len(shape) < 2:
        raise ValueError(f"{name}: the {what} must have rank >= 2 (a matrix or a "
                         f"batch of matrices), got shape {shape}")
    if square and shape[-1] != shape[-2]:
        raise ValueError(f"{name}: the {what} must be a square matrix (shape (..., n, "
                         f"n)), got shape {shape}")
    check_lapack_dtype(name, aval, what)
    return shape


# --- shared helpers: lowering ------------------------------------------------------

def lapack_target(name: str, dtype: Any) -> str:
    """``lapack_target("getrf", float64) == "lapack_dgetrf_ffi"``."""
    return f"lapack_{LAPACK_DTYPES[np.dtype(dtype)]}{name}_ffi"


def char_attr(c: str) -> ir.Attribute:
    """A LAPACK character flag (``'L'``, ``'N'``, ...) as the ui8 the kernels read."""
    return ir.IntegerAttr.get(ir.IntegerType.get_unsigned(8), ord(c))


def column_major_layout(ndim: int) -> tuple[int, ...]:
    """Minor-to-major layout of a batch of Fortran-order matrices: rows vary
    fastest, then columns, then the batch dimensions (last to first)."""
    return (ndim - 2, ndim - 1, *range(ndim - 3, -1, -1))


def lapack_call(target: str, operands: Sequence[ir.Value],
                avals_in: Sequence[ShapedArray], avals_out: Sequence[ShapedArray], *,
                attrs: dict[str, ir.Attribute] | None = None,
                aliases: dict[int, int] | None = None,
                transposed: bool = False) -> list[ir.Value]:
    """Emit a call of the LAPACK FFI kernel ``target`` on a batch of matrices.

    Operands and results of the highest operand rank are the matrices and get
    column-major layouts; the others (pivots, taus, diagonals, info) are
    row-major.  Leading dimensions are batch dimensions, which the kernels
    loop over.  ``aliases`` maps a result index to the operand it overwrites.
    With ``transposed`` the matrices keep XLA's row-major layout, so the
    kernel sees (and returns) their transposes and XLA copies nothing.
    """
    rank = max(len(a.shape) for a in avals_in)

    def layout(aval: ShapedArray) -> tuple[int, ...]:
        n = len(aval.shape)
        if n == rank and n >= 2 and not transposed:
            return column_major_layout(n)
        return tuple(range(n - 1, -1, -1))

    return lapack.custom_call(
        target, [lowering.aval_to_ir_type(a) for a in avals_out], list(operands),
        backend_config=attrs or {},
        operand_layouts=[layout(a) for a in avals_in],
        result_layouts=[layout(a) for a in avals_out],
        output_operand_aliases=aliases)


def lower_with_lax(ctx: lowering.LoweringRuleContext, fun: Callable[..., Any],
                   avals_in: Sequence[ShapedArray], *args: ir.Value,
                   multiple_results: bool = True) -> list[ir.Value]:
    """Emit ``fun`` (lax code) applied to ``args`` of ``avals_in`` inside a
    lowering rule, e.g. to post-process a kernel's outputs."""
    sub = lowering.LoweringRuleContext(ctx.module_ctx, None, avals_in, [])
    return lowering.lower_fun(fun, multiple_results=multiple_results)(sub, *args)


def nan_unless(ok: Any, x: Any) -> Any:
    """``x`` where ``ok`` (batch-shaped bool) holds, NaN in the rest of the batch."""
    aval = get_aval(x)
    batch_dims = tuple(range(len(get_aval(ok).shape)))
    ok = shape_ops.broadcast_in_dim(ok, aval.shape, batch_dims)
    nan = np.nan + 1j * np.nan if dtypes.is_complex(aval.dtype) else np.nan
    return ew.select(ok, x, shape_ops.full(aval.shape, nan, aval.dtype))


def info_aval(aval: ShapedArray) -> ShapedArray:
    """The aval of LAPACK's ``info``: one int32 per matrix of the batch."""
    return ShapedArray(aval.shape[:-2], np.dtype(np.int32))


def with_info(outs: Sequence[Any], return_info: bool) -> Any:
    """A wrapper's result from a primitive's ``[*results, info]``: the results
    (one unwrapped, several as a tuple), or all of them flat, ``info`` last,
    when asked for."""
    if return_info:
        return tuple(outs)
    return outs[0] if len(outs) == 2 else tuple(outs[:-1])


def zero_tangent(info: Any) -> ad.Zero:
    """The zero tangent of an integer output (pivots, permutation, info)."""
    return ad.Zero(get_aval(info))


# --- shared helpers: batched matrix algebra (lax code) -----------------------------

def swap_last(x: Any) -> Any:
    """Transpose the last two axes."""
    n = len(get_aval(x).shape)
    return shape_ops.transpose(x, (*range(n - 2), n - 1, n - 2))


def conj_if_complex(x: Any) -> Any:
    return ew.conj(x) if dtypes.is_complex(get_aval(x).dtype) else x


def adjoint(x: Any) -> Any:
    """Conjugate transpose of the last two axes (transpose for real dtypes)."""
    return conj_if_complex(swap_last(x))


def matmul(a: Any, b: Any) -> Any:
    """``a @ b`` for operands with the same leading batch dimensions."""
    n = len(get_aval(a).shape)
    batch = tuple(range(n - 2))
    return dot.dot_general(a, b, (((n - 1,), (n - 2,)), (batch, batch)))


def _band_mask(shape: tuple[int, ...], k: int, lower: bool) -> Any:
    """Bool ``j - i <= k`` (lower) or ``j - i >= k`` over the last two axes,
    built from iotas so that large matrices do not become large constants."""
    n = len(shape)
    rows = shape_ops.broadcasted_iota(np.int32, shape, n - 2)
    cols = shape_ops.broadcasted_iota(np.int32, shape, n - 1)
    diff = ew.sub(cols, rows)
    return ew.le(diff, k) if lower else ew.ge(diff, k)


def _masked(x: Any, mask: Any) -> Any:
    aval = get_aval(x)
    return ew.select(mask, x, shape_ops.full(aval.shape, 0, aval.dtype))


def tril(x: Any, k: int = 0) -> Any:
    """Entries on and below the ``k``-th diagonal, zeros above (linear in ``x``)."""
    return _masked(x, _band_mask(get_aval(x).shape, k, True))


def triu(x: Any, k: int = 0) -> Any:
    """Entries on and above the ``k``-th diagonal, zeros below (linear in ``x``)."""
    return _masked(x, _band_mask(get_aval(x).shape, k, False))


def eye(shape: tuple[int, ...], dtype: Any, k: int = 0) -> Any:
    """Identity matrices of ``shape[-2:]`` (ones on the ``k``-th diagonal),
    broadcast over ``shape[:-2]``."""
    on_diag = ew.eq(ew.sub(*(shape_ops.broadcasted_iota(np.int32, shape, a)
                             for a in (len(shape) - 1, len(shape) - 2))), k)
    return ew.convert_element_type(on_diag, dtype)


def front_batcher(prim: Primitive) -> Callable[..., Any]:
    """Batching rule for primitives that take leading batch dimensions: move
    every batch axis to the front (broadcasting unbatched operands) and bind
    once; outputs are batched at axis 0."""
    def rule(vals, dims, **params):
        size = batching.batch_size(vals, dims)
        vals = [batching.bdim_at_front(v, d, size) for v, d in zip(vals, dims)]
        out = prim.bind(*vals, **params)
        return out, ([0] * len(out) if prim.multiple_results else 0)
    return rule


def _not_differentiable(name: str) -> Callable[..., Any]:
    def jvp(primals, tangents, **params):
        raise NotImplementedError(
            f"{name} is not differentiable; differentiate the factorisation that "
            "uses it (qr) instead")
    return jvp


# --- cholesky ----------------------------------------------------------------------

def cholesky(x: ArrayLike, *, symmetrize_input: bool = True, upper: bool = False,
             return_info: bool = False) -> Any:
    """The lower Cholesky factor ``L`` of Hermitian positive-definite ``x``.

    Parameters
    ----------
    x : array_like, shape (..., n, n)
        Float32/64 or complex64/128 matrices.
    symmetrize_input : bool, default True
        Use ``(x + x^H) / 2``, so that the result and its derivative depend on
        both triangles.  Otherwise only the lower triangle of ``x`` is read
        (the upper one with ``upper``), as LAPACK potrf does, and the
        derivative is with respect to that triangle (its Hermitian
        extension; the imaginary part of the diagonal is ignored).
    upper : bool, default False
        Return the upper factor ``U`` with ``U^H @ U == x`` instead (a sciax
        extension; costs no transposes).
    return_info : bool, default False
        Also return LAPACK potrf's ``info`` (a sciax extension).

    Returns
    -------
    Array, shape (..., n, n)
        ``L`` lower triangular with ``L @ L^H == x``; NaNs for every matrix of
        the batch that is not positive definite (LAPACK's ``info > 0``).
    info : Array of int32, shape (...)
        Only with ``return_info``: 0 on success; ``k > 0`` when the leading
        minor of order ``k`` is not positive definite.

    Examples
    --------
    >>> import numpy as np
    >>> lax.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 5.0]]))
    Array([[2., 0.],
           [1., 2.]], dtype=float64)
    >>> factor, info = lax.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]),
    ...                                    return_info=True)
    >>> info
    Array(2, dtype=int32)
    """
    if symmetrize_input:
        x = symmetrize(x)
    return with_info(cholesky_p.bind(x, upper=bool(upper)), return_info)


def symmetrize(x: ArrayLike) -> Any:
    """``(x + x^H) / 2``."""
    check_matrix("cholesky", get_aval(x), square=True)
    return ew.mul(ew.add(x, adjoint(x)), 0.5)


def _cholesky_abstract_eval(x: ShapedArray, *, upper: bool) -> list[ShapedArray]:
    check_matrix("cholesky", x, square=True)
    return [ShapedArray(x.shape, x.dtype), info_aval(x)]


def _cholesky_lowering(ctx, x, *, upper):
    (aval,) = ctx.avals_in
    # potrf sees the row-major x as x^T.  For the lower factor it reads the
    # upper triangle of x^T (x's lower one) and returns U' with U'^H U' = x^T
    # = conj(x); read back row-major that is L = U'^T with L L^H = x.  The
    # upper factor is the mirror image.  So XLA copies nothing into LAPACK's
    # column-major layout and back (SciPy's cholesky does the same).
    factor, info = lapack_call(lapack_target("potrf", aval.dtype), [x], [aval],
                               ctx.avals_out,
                               attrs={"uplo": char_attr("L" if upper else "U")},
                               aliases={0: 0}, transposed=True)
    # potrf leaves the other triangle as it found it
    keep = triu if upper else tril
    return lower_with_lax(
        ctx, lambda f, i: [nan_unless(ew.eq(i, 0), keep(f)), i],
        ctx.avals_out, factor, info)


def hermitian_from_triangle(x: Any, lower: bool) -> Any:
    """The Hermitian matrix potrf sees when it reads one triangle of ``x``
    (the imaginary part of the diagonal ignored)."""
    strict = tril(x, -1) if lower else triu(x, 1)
    aval = get_aval(x)
    diag = ew.mul(x, eye(aval.shape, aval.dtype))
    if dtypes.is_complex(aval.dtype):
        diag = ew.convert_element_type(ew.real(diag), aval.dtype)
    return ew.add(ew.add(strict, adjoint(strict)), diag)


def _cholesky_jvp(primals, tangents, **params):
    # Murray (2016), arXiv:1602.07527: dL = L phi(L^{-1} dA L^{-H}), where phi
    # keeps the lower triangle and halves the diagonal
    (x,), (dx,) = primals, tangents
    upper = params["upper"]
    factor, info = cholesky_p.bind(x, upper=upper)
    low = adjoint(factor) if upper else factor
    dx = hermitian_from_triangle(ad.instantiate_zeros(dx), lower=not upper)
    tmp = triangular_solve(low, dx, left_side=False, lower=True, transpose_a=True,
                           conjugate_a=True)
    inner = triangular_solve(low, tmp, left_side=True, lower=True)
    shape, dtype = get_aval(x).shape, get_aval(x).dtype
    half_diag = ew.sub(shape_ops.full(shape, 1, dtype), ew.mul(eye(shape, dtype), 0.5))
    d_low = matmul(low, ew.mul(tril(inner), half_diag))
    return [factor, info], [adjoint(d_low) if upper else d_low, zero_tangent(info)]


cholesky_p = multi_result_primitive(_cholesky_abstract_eval, "cholesky")
ad.primitive_jvps[cholesky_p] = _cholesky_jvp
batching.primitive_batchers[cholesky_p] = front_batcher(cholesky_p)
register_lowering(cholesky_p, _cholesky_lowering)


# --- triangular_solve --------------------------------------------------------------

def triangular_solve(a: ArrayLike, b: ArrayLike, *, left_side: bool = False,
                     lower: bool = False, transpose_a: bool = False,
                     conjugate_a: bool = False, unit_diagonal: bool = False) -> Any:
    """Solve ``op(a) @ x = b`` (``left_side``) or ``x @ op(a) = b`` for ``x``.

    Parameters
    ----------
    a : array_like, shape (..., m, m)
        Triangular matrices; only the triangle named by ``lower`` is read (and
        not the diagonal when ``unit_diagonal``).
    b : array_like, shape (..., m, n) if ``left_side`` else (..., n, m)
        Right-hand sides, with the same batch dimensions and dtype as ``a``.
    left_side, lower, unit_diagonal : bool
        Which side ``a`` is on, which triangle it is, whether its diagonal is
        taken to be ones.
    transpose_a, conjugate_a : bool
        ``op(a)`` is ``a``, ``a^T``, ``conj(a)`` or ``a^H``.

    Returns
    -------
    Array
        ``x``, of ``b``'s shape.  A singular ``a`` gives infs/NaNs, no error.

    Examples
    --------
    >>> import numpy as np
    >>> a, b = np.array([[2.0, 0.0], [1.0, 1.0]]), np.array([[2.0], [3.0]])
    >>> lax.linalg.triangular_solve(a, b, left_side=True, lower=True)
    Array([[1.],
           [2.]], dtype=float64)
    """
    return triangular_solve_p.bind(
        a, b, left_side=bool(left_side), lower=bool(lower),
        transpose_a=bool(transpose_a), conjugate_a=bool(conjugate_a),
        unit_diagonal=bool(unit_diagonal))


def _triangular_solve_shape_rule(a, b, *, left_side, **params):
    name = "triangular_solve"
    check_matrix(name, a, square=True, what="matrix a")
    check_matrix(name, b, what="right-hand side b")
    if a.dtype != b.dtype:
        raise TypeError(f"{name}: a and b must have the same dtype, got {a.dtype} "
                        f"and {b.dtype}")
    if a.shape[:-2] != b.shape[:-2]:
        raise ValueError(f"{name}: a and b must have the same batch dimensions, got "
                         f"shapes {a.shape} and {b.shape}")
    m = a.shape[-1]
    k = b.shape[-2] if left_side else b.shape[-1]
    if k != m:
        side = "rows" if left_side else "columns"
        raise ValueError(f"{name}: with left_side={left_side}, b must have as many "
                         f"{side} as a has ({m}), got shapes {a.shape} and {b.shape}")
    return b.shape


def _triangular_solve_lowering(ctx, a, b, *, left_side, lower, transpose_a,
                               conjugate_a, unit_diagonal):
    a_aval, b_aval = ctx.avals_in
    complex_ = dtypes.is_complex(a_aval.dtype)
    if conjugate_a and not transpose_a and complex_:
        # trsm has no "conjugate, do not transpose" mode
        (a,) = lower_with_lax(ctx, lambda m: [ew.conj(m)], [a_aval], a)
    trans = "N"
    if transpose_a:
        trans = "C" if conjugate_a and complex_ else "T"
    (out,) = lapack_call(
        lapack_target("trsm", a_aval.dtype), [a, b], [a_aval, b_aval], [b_aval],
        attrs={"side": char_attr("L" if left_side else "R"),
               "uplo": char_attr("L" if lower else "U"),
               "trans_x": char_attr(trans),
               "diag": char_attr("U" if unit_diagonal else "N")},
        aliases={0: 1})
    return out


def _triangular_solve_jvp_a(g_a, ans, a, b, *, left_side, lower, transpose_a,
                            conjugate_a, unit_diagonal):
    # d(op(A)^{-1} B) = -op(A)^{-1} op(dA) X, only dA's triangle counts
    k = 1 if unit_diagonal else 0
    g_a = tril(g_a, -k) if lower else triu(g_a, k)
    g_a = ew.neg(g_a)
    if transpose_a:
        g_a = swap_last(g_a)
    if conjugate_a:
        g_a = conj_if_complex(g_a)
    params = dict(left_side=left_side, lower=lower, transpose_a=transpose_a,
                  conjugate_a=conjugate_a, unit_diagonal=unit_diagonal)
    if left_side:
        return triangular_solve(a, matmul(g_a, ans), **params)
    return triangular_solve(a, matmul(ans, g_a), **params)


def _triangular_solve_transpose(ct, a, b, *, left_side, lower, transpose_a,
                                conjugate_a, unit_diagonal):
    if ad.is_undefined_primal(a):
        raise NotImplementedError("triangular_solve is not linear in a")
    if type(ct) is ad.Zero:
        return [None, ad.Zero(b.aval)]
    # the transpose of B -> op(A)^{-1} B is C -> op(A)^{-T} C
    return [None, triangular_solve(a, ct, left_side=left_side, lower=lower,
                                   transpose_a=not transpose_a,
                                   conjugate_a=conjugate_a,
                                   unit_diagonal=unit_diagonal)]


def _triangular_solve_batch(vals, dims, *, left_side, **params):
    (a, b), (da, db) = vals, dims
    if da is batching.not_mapped:
        # one matrix for the whole batch: fold the batch into b's free axis
        # and solve once rather than broadcasting a
        shape = get_aval(b).shape
        nb = len(shape)
        if left_side:
            b = batching.moveaxis(b, db, nb - 1)
            s = get_aval(b).shape
            flat = shape_ops.reshape(b, (*s[:-3], s[-3], s[-2] * s[-1]))
            out = triangular_solve_p.bind(a, flat, left_side=left_side, **params)
            return shape_ops.reshape(out, s), nb - 1
        b = batching.moveaxis(b, db, nb - 3)
        s = get_aval(b).shape
        flat = shape_ops.reshape(b, (*s[:-3], s[-3] * s[-2], s[-1]))
        out = triangular_solve_p.bind(a, flat, left_side=left_side, **params)
        return shape_ops.reshape(out, s), nb - 3
    size = batching.batch_size(vals, dims)
    a, b = batching.bdim_at_front(a, da, size), batching.bdim_at_front(b, db, size)
    return triangular_solve_p.bind(a, b, left_side=left_side, **params), 0


triangular_solve_p = standard_primitive(
    _triangular_solve_shape_rule, lambda a, b, **p: a.dtype, "triangular_solve",
    lambda a, b, **p: False)
ad.defjvp2(triangular_solve_p, _triangular_solve_jvp_a,
           lambda g_b, ans, a, b, **params: triangular_solve(a, g_b, **params))
ad.primitive_transposes[triangular_solve_p] = _triangular_solve_transpose
batching.primitive_batchers[triangular_solve_p] = _triangular_solve_batch
register_lowering(triangular_solve_p, _triangular_solve_lowering)


# --- lu_pivots_to_permutation ------------------------------------------------------

def lu_pivots_to_permutation(pivots: ArrayLike, permutation_size: int) -> Any:
    """The row permutation that LAPACK-style row swaps ``pivots`` perform.

    Parameters
    ----------
    pivots : array_like of int32, shape (..., k)
        0-based swaps: row ``i`` was exchanged with row ``pivots[..., i]``, in
        order ``i = 0, 1, ..., k - 1``.
    permutation_size : int
        ``m >= k``, the number of rows.

    Returns
    -------
    Array of int32, shape (..., m)
        ``perm`` such that ``a[perm]`` applies the swaps to the rows of ``a``.

    Examples
    --------
    >>> import numpy as np
    >>> lax.linalg.lu_pivots_to_permutation(np.array([2, 2], np.int32), 3)
    Array([2, 0, 1], dtype=int32)
    """
    return lu_pivots_to_permutation_p.bind(
        pivots, permutation_size=operator.index(permutation_size))


def _pivots_shape_rule(p: ShapedArray, *, permutation_size: int) -> tuple[int, ...]:
    if p.dtype != np.dtype(np.int32):
        raise TypeError("lu_pivots_to_permutation: pivots must have dtype int32, got "
                        f"{p.dtype}")
    if len(p.shape) < 1:
        raise ValueError("lu_pivots_to_permutation: pivots must have rank >= 1, got "
                         f"shape {p.shape}")
    if permutation_size < p.shape[-1]:
        raise ValueError(f"lu_pivots_to_permutation: permutation_size "
                         f"{permutation_size} must be at least the number of pivots "
                         f"{p.shape[-1]} (pivots shape {p.shape})")
    return (*p.shape[:-1], permutation_size)


def _pivots_to_permutation(pivots: Any, *, permutation_size: int) -> Any:
    # lax code: one swap per loop step, each a masked select over the row axis
    # (no per-batch dynamic indexing needed)
    shape = get_aval(pivots).shape
    out_shape = (*shape[:-1], permutation_size)
    last = len(out_shape) - 1
    iota = shape_ops.broadcasted_iota(np.int32, out_shape, last)
    if shape[-1] == 0:
        return iota

    def spread(v):  # (..., 1) or () -> out_shape
        dims = tuple(range(len(get_aval(v).shape)))
        return shape_ops.broadcast_in_dim(v, out_shape, dims)

    def pick(perm, mask):  # perm at the single True of mask, broadcast back
        got = reductions.reduce_sum(ew.select(mask, perm, ew.mul(perm, 0)), (last,))
        return shape_ops.broadcast_in_dim(got, out_shape, tuple(range(last)))

    def body(i, perm):
        i = ew.convert_element_type(i, np.int32)
        j = shape_ops.dynamic_slice_in_dim(pivots, i, 1, axis=last)
        at_i, at_j = ew.eq(iota, spread(i)), ew.eq(iota, spread(j))
        x, y = pick(perm, at_i), pick(perm, at_j)
        return ew.select(at_i, y, ew.select(at_j, x, perm))

    def swap(i, perm):  # one vector of pivots: scalar slices and updates
        i = ew.convert_element_type(i, np.int32)
        j = shape_ops.reshape(shape_ops.dynamic_slice_in_dim(pivots, i, 1), ())
        x = shape_ops.dynamic_slice_in_dim(perm, i, 1)
        y = shape_ops.dynamic_slice_in_dim(perm, j, 1)
        perm = shape_ops.dynamic_update_slice_in_dim(perm, y, i, 0)
        return shape_ops.dynamic_update_slice_in_dim(perm, x, j, 0)

    # (The unbatched loop body is small enough for XLA's CPU backend to run
    # the whole loop as one kernel instead of ~9 kernel launches a trip:
    # linalg.solve at n = 50 spent more time in this loop than in LAPACK.)
    return control_flow.fori_loop(0, shape[-1], swap if len(shape) == 1 else body, iota)


lu_pivots_to_permutation_p = standard_primitive(
    _pivots_shape_rule, lambda p, **params: np.dtype(np.int32),
    "lu_pivots_to_permutation", lambda p, **params: False)
ad.defjvp_zero(lu_pivots_to_permutation_p)
batching.primitive_batchers[lu_pivots_to_permutation_p] = front_batcher(
    lu_pivots_to_permutation_p)
register_lowering(lu_pivots_to_permutation_p,
                  lowering.lower_fun(_pivots_to_permutation))


# --- lu --------------------------------------------------------------------------

def lu(x: ArrayLike, *, return_info: bool = False) -> tuple[Any, ...]:
    """LU decomposition with partial pivoting, ``a[perm] = L @ U``.

    Parameters
    ----------
    x : array_like, shape (..., m, n)
    return_info : bool, default False
        Also return LAPACK getrf's ``info`` (a sciax extension).

    Returns
    -------
    lu : Array, shape (..., m, n)
        ``U`` in the upper triangle, the strictly lower part of unit-diagonal
        ``L`` below it (LAPACK's ``getrf`` layout, as ``scipy.linalg.lu_factor``).
    pivots : Array of int32, shape (..., min(m, n))
        0-based row swaps (``scipy.linalg.lu_factor``'s ``piv``).
    permutation : Array of int32, shape (..., m)
        The same swaps as a permutation: ``x[..., permutation, :] == L @ U``.
    info : Array of int32, shape (...)
        Only with ``return_info``: 0, or ``k > 0`` when ``U[k-1, k-1]`` is
        exactly zero (the matrix is singular).

    Notes
    -----
    A singular matrix is factored (``U`` has a zero on its diagonal) without
    error, as LAPACK does; solving with it gives infs/NaNs.

    Examples
    --------
    >>> import numpy as np
    >>> lu_, piv, perm = lax.linalg.lu(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> lu_
    Array([[3.        , 4.        ],
           [0.33333333, 0.66666667]], dtype=float64)
    >>> piv, perm
    (Array([1, 1], dtype=int32), Array([1, 0], dtype=int32))
    >>> lax.linalg.lu(np.ones((2, 2)), return_info=True)[3]
    Array(2, dtype=int32)
    """
    return with_info(lu_p.bind(x), return_info)


def _lu_abstract_eval(x: ShapedArray) -> list[ShapedArray]:
    shape = check_matrix("lu", x)
    *batch, m, n = shape
    i32 = np.dtype(np.int32)
    return [ShapedArray(shape, x.dtype), ShapedArray((*batch, min(m, n)), i32),
            ShapedArray((*batch, m), i32), info_aval(x)]


def _lu_lowering(ctx, x):
    (aval,) = ctx.avals_in
    lu_aval, piv_aval, perm_aval, i_aval = ctx.avals_out
    m = aval.shape[-2]
    if 0 in aval.shape[-2:]:
        return lower_with_lax(
            ctx, lambda a: [a, shape_ops.full(piv_aval.shape, 0, np.int32),
                            shape_ops.broadcasted_iota(np.int32, perm_aval.shape,
                                                       len(perm_aval.shape) - 1),
                            shape_ops.full(i_aval.shape, 0, np.int32)],
            [aval], x)
    factor, piv, info = lapack_call(lapack_target("getrf", aval.dtype), [x], [aval],
                                    [lu_aval, piv_aval, i_aval], aliases={0: 0})

    def finish(f, p, i):
        # LAPACK's pivots are 1-based; info > 0 only flags an exactly singular U
        # (still a valid factorisation), info < 0 a bad argument
        p = ew.sub(p, 1)
        return [nan_unless(ew.ge(i, 0), f), p,
                lu_pivots_to_permutation(p, permutation_size=m), i]

    return lower_with_lax(ctx, finish, [lu_aval, piv_aval, i_aval], factor, piv, info)


def _permutation_matrix(perm: Any, dtype: Any) -> Any:
    """``P`` with ``P @ a == a[..., perm, :]``."""
    shape = get_aval(perm).shape
    full = (*shape, shape[-1])
    rows = shape_ops.broadcast_in_dim(perm, full, tuple(range(len(shape))))
    cols = shape_ops.broadcasted_iota(np.int32, full, len(shape))
    return ew.convert_element_type(ew.eq(rows, cols), dtype)


def _pad_last2(x: Any, rows: int, cols: int) -> Any:
    """Zero-pad the last two axes at the end up to ``(rows, cols)``."""
    shape = get_aval(x).shape
    config = [(0, 0, 0)] * (len(shape) - 2) + [(0, rows - shape[-2], 0),
                                               (0, cols - shape[-1], 0)]
    return shape_ops.pad(x, np.zeros((), get_aval(x).dtype), config)


def _slice_last2(x: Any, rows: tuple[int, int], cols: tuple[int, int]) -> Any:
    shape = get_aval(x).shape
    lead = len(shape) - 2
    return shape_ops.slice(x, (0,) * lead + (rows[0], cols[0]),
                           (*shape[:-2], rows[1], cols[1]))


def _lu_jvp(primals, tangents):
    # De Hoog, Anderssen & Lukas: with P A = L U,
    #   L^{-1} P dA U^{-1} = L^{-1} dL + dU U^{-1}
    # splits into its strictly lower part (L^{-1} dL) and upper part (dU U^{-1})
    (x,), (dx,) = primals, tangents
    factor, piv, perm, info = lu_p.bind(x)
    *batch, m, n = get_aval(x).shape
    dtype = get_aval(x).dtype
    k = min(m, n)
    l_mat = ew.add(_pad_last2(tril(_slice_last2(factor, (0, m), (0, k)), -1), m, m),
                   eye((*batch, m, m), dtype))
    # U padded to (n, n) with ones on the diagonal below its k rows
    u_eye = ew.convert_element_type(
        ew.ge(shape_ops.broadcasted_iota(np.int32, (*batch, n, n), len(batch)), k),
        dtype)
    u_eye = ew.mul(eye((*batch, n, n), dtype), u_eye)
    u_mat = ew.add(_pad_last2(triu(_slice_last2(factor, (0, k), (0, n))), n, n), u_eye)
    pdx = matmul(_permutation_matrix(perm, dtype), dx)
    la = triangular_solve(l_mat, pdx, left_side=True, lower=True, unit_diagonal=True)
    lau = triangular_solve(u_mat, la, left_side=False, lower=False)
    d_factor = ew.add(matmul(l_mat, tril(lau, -1)), matmul(triu(lau), u_mat))
    return [factor, piv, perm, info], [d_factor, zero_tangent(piv), zero_tangent(perm),
                                       zero_tangent(info)]


lu_p = multi_result_primitive(_lu_abstract_eval, "lu")
ad.primitive_jvps[lu_p] = _lu_jvp
batching.primitive_batchers[lu_p] = front_batcher(lu_p)
register_lowering(lu_p, _lu_lowering)


# --- geqrf and householder_product -------------------------------------------------

def geqrf(x: ArrayLike) -> tuple[Any, Any]:
    """LAPACK's Householder QR: ``R`` in the upper triangle of the first
    result, the reflectors below it and their scales ``taus``.

    Examples
    --------
    >>> import numpy as np
    >>> a, taus = lax.linalg.geqrf(np.array([[3.0], [4.0]]))
    >>> a[0, 0], taus.shape
    (Array(-5., dtype=float64), (1,))
    """
    a, taus = geqrf_p.bind(x)
    return a, taus


def _geqrf_abstract_eval(x: ShapedArray) -> list[ShapedArray]:
    *batch, m, n = check_matrix("geqrf", x)
    return [ShapedArray(x.shape, x.dtype), ShapedArray((*batch, min(m, n)), x.dtype)]


def _geqrf_lowering(ctx, x):
    return lapack_call(lapack_target("geqrf", ctx.avals_in[0].dtype), [x],
                       ctx.avals_in, ctx.avals_out, aliases={0: 0})


geqrf_p = multi_result_primitive(_geqrf_abstract_eval, "geqrf")
ad.primitive_jvps[geqrf_p] = _not_differentiable("geqrf")
batching.primitive_batchers[geqrf_p] = front_batcher(geqrf_p)
register_lowering(geqrf_p, _geqrf_lowering)


def householder_product(a: ArrayLike, taus: ArrayLike) -> Any:
    """The ``(..., m, n)`` matrix with orthonormal columns that the Householder
    reflectors of :func:`geqrf` (below the diagonal of ``a``, scaled by
    ``taus``) represent (LAPACK's ``orgqr``/``ungqr``).

    Examples
    --------
    >>> import numpy as np
    >>> lax.linalg.householder_product(*lax.linalg.geqrf(np.array([[3.0], [4.0]])))
    Array([[-0.6],
           [-0.8]], dtype=float64)
    """
    return householder_product_p.bind(a, taus)


def _householder_shape_rule(a: ShapedArray, taus: ShapedArray) -> tuple[int, ...]:
    name = "householder_product"
    *batch, m, n = check_matrix(name, a)
    check_lapack_dtype(name, taus, "taus")
    if a.dtype != taus.dtype:
        raise TypeError(f"{name}: a and taus must have the same dtype, got {a.dtype} "
                        f"and {taus.dtype}")
    if m < n:
        raise ValueError(f"{name}: a must have at least as many rows as columns, got "
                         f"shape {a.shape}")
    if taus.shape[:-1] != tuple(batch) or taus.shape[-1:] > (n,) or not taus.shape:
        raise ValueError(f"{name}: taus must have shape (..., k) with a's batch "
                         f"dimensions and k <= {n}, got shapes {a.shape} and "
                         f"{taus.shape}")
    return a.shape


def _householder_lowering(ctx, a, taus):
    dtype = ctx.avals_in[0].dtype
    name = "ungqr" if dtypes.is_complex(dtype) else "orgqr"
    return lapack_call(lapack_target(name, dtype), [a, taus], ctx.avals_in,
                       ctx.avals_out, aliases={0: 0})


householder_product_p = standard_primitive(
    _householder_shape_rule, lambda a, taus: a.dtype, "householder_product",
    lambda a, taus: False)
ad.primitive_jvps[householder_product_p] = _not_differentiable("householder_product")
batching.primitive_batchers[householder_product_p] = front_batcher(
    householder_product_p)
register_lowering(householder_product_p, _householder_lowering)


# --- qr ----------------------------------------------------------------------------

def qr(x: ArrayLike, *, full_matrices: bool = True) -> tuple[Any, Any]:
    """QR decomposition ``x = Q @ R`` by Householder reflections.

    Parameters
    ----------
    x : array_like, shape (..., m, n)
    full_matrices : bool, default True
        ``Q`` is ``(..., m, m)`` and ``R`` ``(..., m, n)``; otherwise the
        reduced factors ``(..., m, k)`` and ``(..., k, n)``, ``k = min(m, n)``.

    Returns
    -------
    q, r : Array
        ``Q`` with orthonormal columns and upper-triangular ``R``, signs as
        LAPACK gives them (``numpy.linalg.qr``'s).

    Notes
    -----
    Differentiable for ``m <= n`` and for the reduced factors; the derivative
    of the full ``Q`` of a tall matrix (``full_matrices=True``, ``m > n``) is
    not unique and raises NotImplementedError.

    Examples
    --------
    >>> import numpy as np
    >>> q, r = lax.linalg.qr(np.array([[3.0, 1.0], [4.0, 2.0]]))
    >>> r
    Array([[-5. , -2.2],
           [ 0. ,  0.4]], dtype=float64)
    """
    q, r = qr_p.bind(x, full_matrices=bool(full_matrices))
    return q, r


def _qr_abstract_eval(x: ShapedArray, *, full_matrices: bool) -> list[ShapedArray]:
    *batch, m, n = check_matrix("qr", x)
    k = m if full_matrices else min(m, n)
    return [ShapedArray((*batch, m, k), x.dtype), ShapedArray((*batch, k, n), x.dtype)]


def _qr_composite(x: Any, *, full_matrices: bool) -> list[Any]:
    *batch, m, n = get_aval(x).shape
    dtype = get_aval(x).dtype
    if m == 0 or n == 0:
        k = m if full_matrices else min(m, n)
        return [eye((*batch, m, k), dtype), shape_ops.full((*batch, k, n), 0, dtype)]
    r, taus = geqrf(x)
    if m < n:
        q = householder_product(_slice_last2(r, (0, m), (0, m)), taus)
    elif full_matrices:
        q = householder_product(_pad_last2(r, m, m), taus)
    else:
        q = householder_product(r, taus)
        r = _slice_last2(r, (0, n), (0, n))
    return [q, triu(r)]


def _thin_qr_jvp(q: Any, r: Any, dx: Any) -> tuple[Any, Any]:
    # m >= n, Q (m, n), R (n, n); see J. Townsend, "Differentiating the QR
    # decomposition": with C = Q^H dX R^{-1}, dR R^{-1} is upper triangular and
    # Q^H dQ skew-Hermitian (with the imaginary diagonal of C, for complex)
    dtype = get_aval(r).dtype
    dx_rinv = triangular_solve(r, dx)
    c = matmul(adjoint(q), dx_rinv)
    c_low = tril(c, -1)
    omega = ew.sub(c_low, adjoint(c_low))
    if dtypes.is_complex(dtype):
        imag = ew.sub(c, ew.convert_element_type(ew.real(c), dtype))
        omega = ew.add(omega, ew.mul(imag, eye(get_aval(c).shape, dtype)))
    dq = ew.add(matmul(q, ew.sub(omega, c)), dx_rinv)
    dr = matmul(ew.sub(c, omega), r)
    return dq, dr


def _qr_jvp(primals, tangents, *, full_matrices):
    (x,), (dx,) = primals, tangents
    q, r = qr_p.bind(x, full_matrices=full_matrices)
    *_, m, n = get_aval(x).shape
    if m < n:
        # X = [X1 X2] with X1 square: (Q, R1) is X1's QR and R2 = Q^H X2
        x2 = _slice_last2(x, (0, m), (m, n))
        dx1 = _slice_last2(dx, (0, m), (0, m))
        dx2 = _slice_last2(dx, (0, m), (m, n))
        dq, dr1 = _thin_qr_jvp(q, _slice_last2(r, (0, m), (0, m)), dx1)
        dr2 = ew.add(matmul(adjoint(dq), x2), matmul(adjoint(q), dx2))
        last = len(get_aval(x).shape) - 1
        return [q, r], [dq, shape_ops.concatenate([dr1, dr2], last)]
    if full_matrices and m > n:
        raise NotImplementedError(
            "qr: the derivative of the full Q of a tall matrix (m > n) is not "
            "implemented; use full_matrices=False")
    dq, dr = _thin_qr_jvp(q, r, dx)
    return [q, r], [dq, dr]


qr_p = multi_result_primitive(_qr_abstract_eval, "qr")
ad.primitive_jvps[qr_p] = _qr_jvp
batching.primitive_batchers[qr_p] = front_batcher(qr_p)
register_lowering(qr_p, lowering.lower_fun(_qr_composite, multiple_results=True))


# --- tridiagonal_solve -------------------------------------------------------------

def tridiagonal_solve(dl: ArrayLike, d: ArrayLike, du: ArrayLike, b: ArrayLike, *,
                      return_info: bool = False) -> Any:
    """Solve ``A @ x = b`` for a tridiagonal ``A`` given by its diagonals.

    Parameters
    ----------
    dl, d, du : array_like, shape (..., m)
        ``A[i, i-1] = dl[i]`` (``dl[0]`` is ignored), ``A[i, i] = d[i]``,
        ``A[i, i+1] = du[i]`` (``du[m-1]`` is ignored).
    b : array_like, shape (..., m, n)
        Right-hand sides; all four share dtype and batch dimensions.
    return_info : bool, default False
        Also return LAPACK gtsv's ``info`` (a sciax extension).

    Returns
    -------
    Array, shape (..., m, n)
        ``x``; NaNs for a batch member whose ``A`` is singular (LAPACK ``gtsv``
        with partial pivoting reports a zero pivot).
    info : Array of int32, shape (...)
        Only with ``return_info``: 0, or ``k > 0`` when the ``k``-th pivot of
        the elimination is exactly zero.

    Examples
    --------
    >>> import numpy as np
    >>> one, b = np.ones(3), np.array([[1.0], [0.0], [1.0]])
    >>> lax.linalg.tridiagonal_solve(-one, 2 * one, -one, b)
    Array([[1.],
           [1.],
           [1.]], dtype=float64)
    """
    return with_info(tridiagonal_solve_p.bind(dl, d, du, b), return_info)


def _tridiagonal_abstract_eval(dl, d, du, b) -> list[ShapedArray]:
    name = "tridiagonal_solve"
    check_matrix(name, b, what="right-hand side b")
    for what, v in (("dl", dl), ("d", d), ("du", du)):
        check_lapack_dtype(name, v, what)
        if v.dtype != b.dtype:
            raise TypeError(f"{name}: {what} and b must have the same dtype, got "
                            f"{v.dtype} and {b.dtype}")
        if v.shape != b.shape[:-1]:
            raise ValueError(f"{name}: the diagonals must have shape b.shape[:-1] = "
                             f"{b.shape[:-1]}, got {what} of shape {v.shape} (shapes "
                             f"{dl.shape}, {d.shape}, {du.shape}, {b.shape})")
    return [ShapedArray(b.shape, b.dtype), info_aval(b)]


def _tridiagonal_lowering(ctx, dl, d, du, b):
    avals = ctx.avals_in
    *_, x, info = lapack_call(lapack_target("gtsv", avals[3].dtype), [dl, d, du, b],
                              avals, [*avals, ctx.avals_out[1]],
                              aliases={0: 0, 1: 1, 2: 2, 3: 3})
    return lower_with_lax(ctx, lambda v, i: [nan_unless(ew.eq(i, 0), v), i],
                          ctx.avals_out, x, info)


def _shift(v: Any, down: bool) -> Any:
    """Along the last axis: ``[0, v0, .., v_{m-2}]`` (down) or ``[v1, .., 0]``."""
    shape = get_aval(v).shape
    m = shape[-1]
    lead = len(shape) - 1
    if down:
        part = shape_ops.slice(v, (0,) * len(shape), (*shape[:-1], m - 1))
        config = [(0, 0, 0)] * lead + [(1, 0, 0)]
    else:
        part = shape_ops.slice(v, (0,) * lead + (1,), shape)
        config = [(0, 0, 0)] * lead + [(0, 1, 0)]
    return shape_ops.pad(part, np.zeros((), get_aval(v).dtype), config)


def _shift_rows(x: Any, down: bool) -> Any:
    """Rows of ``(..., m, n)`` moved one place down (zero first row) or up."""
    return swap_last(_shift(swap_last(x), down))


def _tridiagonal_matmul(dl: Any, d: Any, du: Any, x: Any) -> Any:
    """``A @ x`` (linear in the diagonals and in ``x``)."""
    shape = get_aval(x).shape
    col = tuple(range(len(shape) - 1))

    def spread(v):
        return shape_ops.broadcast_in_dim(v, shape, col)

    y = ew.mul(spread(d), x)
    # (A x)_i += dl_i x_{i-1} + du_i x_{i+1}; dl_0 and du_{m-1} are unused
    y = ew.add(y, ew.mul(spread(dl), _shift_rows(x, down=True)))
    return ew.add(y, ew.mul(spread(du), _shift_rows(x, down=False)))


def _tridiagonal_jvp(primals, tangents):
    dl, d, du, b = primals
    ans, info = tridiagonal_solve_p.bind(dl, d, du, b)
    *t_diags, t_b = tangents
    rhs = t_b
    if not all(type(t) is ad.Zero for t in t_diags):
        # dX = A^{-1} (dB - dA X)
        t_diags = [ad.instantiate_zeros(t) for t in t_diags]
        rhs = ad.add_tangents(rhs, ew.neg(_tridiagonal_matmul(*t_diags, ans)))
    dx = tridiagonal_solve(dl, d, du, ad.instantiate_zeros(rhs))
    return [ans, info], [dx, zero_tangent(info)]


def _tridiagonal_transpose(cts, dl, d, du, b):
    if any(ad.is_undefined_primal(v) for v in (dl, d, du)):
        raise NotImplementedError("tridiagonal_solve is not linear in the diagonals")
    ct = cts[0]  # info has no cotangent
    if type(ct) is ad.Zero:
        return [None, None, None, ad.Zero(b.aval)]
    # A^T has sub-diagonal du shifted down and super-diagonal dl shifted up
    return [None, None, None,
            tridiagonal_solve(_shift(du, down=True), d, _shift(dl, down=False), ct)]


tridiagonal_solve_p = multi_result_primitive(_tridiagonal_abstract_eval,
                                             "tridiagonal_solve")
ad.primitive_jvps[tridiagonal_solve_p] = _tridiagonal_jvp
ad.primitive_transposes[tridiagonal_solve_p] = _tridiagonal_transpose
batching.primitive_batchers[tridiagonal_solve_p] = front_batcher(tridiagonal_solve_p)
register_lowering(tridiagonal_solve_p, _tridiagonal_lowering)
