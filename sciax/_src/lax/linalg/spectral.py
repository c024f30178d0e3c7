"""Eigen- and Schur-type decompositions: ``eigh``, ``svd``, ``eig``, ``schur``
and ``hessenberg``.

Each primitive works on the trailing two axes of its operand (leading axes are
a batch) and lowers on CPU to jaxlib's LAPACK FFI kernel for the dtype
(float32, float64, complex64, complex128): syevd/heevd, gesdd (or gesvd),
geev, gees and gehrd.  LAPACK's column-major layout is requested through the
custom call's operand/result layouts, so no transposes are emitted.

When LAPACK reports a failure (``info != 0``, e.g. a non-converged QR
iteration) or the input matrix holds a NaN, the outputs of that batch member
are NaN; nothing raises at run time.  Every primitive has LAPACK's ``info`` as
its last output (-1 for NaN input, which is not passed to LAPACK's verdict);
the wrappers return it with ``return_info=True``.

Derivatives are the closed forms of nondegenerate perturbation theory
(Giles 2008, "An extended collection of matrix derivative results"); the
docstring of each wrapper says what happens at repeated eigenvalues or
singular values.  ``schur`` is differentiable for distinct eigenvalues (real
input with complex-conjugate pairs included).  ``hessenberg`` lives in
``hessenberg_reduction``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import dense_constant, hlo, ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax import elementwise as ew
from sciax._src.lax import control_flow, reductions, shape_ops
from sciax._src.lax._rules import complex_dtype, multi_result_primitive, real_dtype
from sciax._src.lax.linalg.factorizations import (adjoint as _H, char_attr, check_matrix,
                                   eye as _eye, front_batcher,
                                   hermitian_from_triangle as _hermitian_from_triangle,
                                   householder_product, info_aval as _info_aval,
                                   lapack_call, lapack_target, lower_with_lax,
                                   matmul as _mm, tril, triu, with_info as _with_info,
                                   zero_tangent as _zero_tangent)

ArrayLike = Any

__all__ = ["eigh", "svd", "eig", "schur", "eigh_p", "svd_p", "eig_p", "schur_p"]


# --- shared checks and lowering helpers (generic ones: factorizations.py) -------

def _check_operand(name: str, x: ShapedArray, square: bool = True) -> None:
    """Rank >= 2, (square,) and a dtype LAPACK supports; errors name the op."""
    check_matrix(name, x, square=square)


def _i32(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(32), value)


def _lapack_call(kernel: str, dtype: np.dtype, operands: Sequence[ir.Value],
                 avals_in: Sequence[ShapedArray], avals_out: Sequence[ShapedArray],
                 aliases: dict[int, int] | None = None, **attrs: ir.Attribute
                 ) -> list[ir.Value]:
    """Call ``lapack_<prefix><kernel>_ffi`` (batched, column-major matrices)."""
    return lapack_call(lapack_target(kernel, dtype), operands, avals_in, avals_out,
                       attrs=attrs, aliases=aliases)


def _full(aval: ShapedArray, value: Any) -> ir.Value:
    scalar = dense_constant(np.asarray(value, dtype=aval.dtype))
    return hlo.broadcast_in_dim(lowering.aval_to_ir_type(aval), scalar,
                                ir.DenseI64ArrayAttr.get([]))


def _has_no_nan(x: Any) -> Any:
    nd = get_aval(x).ndim
    return reductions.reduce_and(ew.eq(x, x), (nd - 2, nd - 1))


def _input_has_no_nan(ctx, x: ir.Value) -> ir.Value:
    """Per batch member of the operand: no NaN entry.  Emitted before the
    kernel call, which may overwrite its operand in place."""
    a = ctx.avals_in[0]
    (finite,) = lower_with_lax(ctx, _has_no_nan, [a], x, multiple_results=False)
    return finite


def _success(no_nan: ir.Value, info: ir.Value, batch: tuple[int, ...]
             ) -> tuple[ir.Value, ir.Value]:
    """``(ok, info)``: LAPACK reported success and the input had no NaN (some
    kernels return finite garbage for NaN input); the info to report, -1 where
    the input had a NaN."""
    i_aval = ShapedArray(batch, np.dtype(np.int32))
    info = hlo.select(no_nan, info, _full(i_aval, -1))
    return ew._compare(info, _full(i_aval, 0), "EQ", np.dtype(np.int32)), info


def _nan_where_failed(ok: ir.Value, batch: tuple[int, ...], x: ir.Value,
                      aval: ShapedArray) -> ir.Value:
    """``x`` with the batch members where ``ok`` is false replaced by NaN."""
    ok = hlo.broadcast_in_dim(
        lowering.aval_to_ir_type(ShapedArray(aval.shape, np.dtype(bool))), ok,
        ir.DenseI64ArrayAttr.get(list(range(len(batch)))))
    return hlo.select(ok, x, _full(aval, np.nan))


def _eye_ir(aval: ShapedArray) -> ir.Value:
    """A batch of identity matrices of ``aval`` (for empty decompositions)."""
    *batch, m, n = aval.shape
    eye = np.broadcast_to(np.eye(m, n, dtype=aval.dtype), aval.shape)
    return dense_constant(np.ascontiguousarray(eye))


# --- matrix helpers for the derivative rules (plain lax code) ---------------------

def _is_complex(x: Any) -> bool:
    return dtypes.is_complex(get_aval(x).dtype)


def _real(x: Any) -> Any:
    return ew.real(x) if _is_complex(x) else x


def _cast(x: Any, dtype: np.dtype) -> Any:
    return ew.convert_element_type(x, dtype)


def _diag(x: Any) -> Any:
    """The diagonal of each (square) matrix: shape ``(..., n)``."""
    aval = get_aval(x)
    return reductions.reduce_sum(ew.mul(x, _eye(aval.shape, aval.dtype)),
                                 (aval.ndim - 1,))


def _rows(v: Any, shape: tuple[int, ...]) -> Any:
    """``out[..., i, j] = v[..., j]``."""
    nd = len(shape)
    return shape_ops.broadcast_in_dim(v, shape, (*range(nd - 2), nd - 1))


def _cols(v: Any, shape: tuple[int, ...]) -> Any:
    """``out[..., i, j] = v[..., i]``."""
    nd = len(shape)
    return shape_ops.broadcast_in_dim(v, shape, tuple(range(nd - 1)))


def _safe_reciprocal_diff(w: Any, square: bool = False) -> Any:
    """``F[i, j] = 1 / (w_j - w_i)`` (or ``1 / (w_j**2 - w_i**2)``), and 0 where
    the two are equal to working accuracy (on the diagonal and for repeated
    values).

    LAPACK computes the eigenvalues of a matrix with a repeated eigenvalue to
    within a few ``n * eps * max|w|`` of each other, so "equal" means a gap
    below ``10 * n * eps * max|w|`` (squared values: ``max|w|**2``); the
    division sees 1 where the result is 0, so no inf enters the graph and
    higher derivatives stay finite.
    """
    aval = get_aval(w)
    n = aval.shape[-1]
    shape = (*aval.shape[:-1], n, n)
    wj, wi = _rows(w, shape), _cols(w, shape)
    if square:
        wj, wi = ew.mul(wj, wj), ew.mul(wi, wi)
    diff = ew.sub(wj, wi)
    gap = ew.abs(diff)
    scale = reductions.reduce_max(ew.max(ew.abs(wj), ew.abs(wi)), (aval.ndim,))
    eps = float(np.finfo(aval.dtype).eps)
    tol = ew.mul(_cols(scale, shape), shape_ops.full_like(gap, 10 * n * eps))
    same = ew.le(gap, tol)
    one = shape_ops.full_like(diff, 1)
    zero = shape_ops.full_like(diff, 0)
    return ew.select(same, zero, ew.div(one, ew.select(same, one, diff)))


def _safe_reciprocal(s: Any) -> Any:
    """``1 / s``, and 0 where ``s == 0``."""
    zero, one = shape_ops.full_like(s, 0), shape_ops.full_like(s, 1)
    is_zero = ew.eq(s, zero)
    return ew.select(is_zero, zero, ew.div(one, ew.select(is_zero, one, s)))


def _not_differentiable(name: str, why: str):
    def jvp(primals, tangents, **params):
        raise NotImplementedError(f"Differentiation of lax.linalg.{name} is not "
                                  f"implemented: {why}")
    return jvp


# --- eigh ---------------------------------------------------------------------------

def eigh(x: ArrayLike, *, lower: bool = True, symmetrize_input: bool = True,
         sort_eigenvalues: bool = True, return_info: bool = False) -> tuple[Any, ...]:
    """Eigendecomposition of a batch of symmetric or Hermitian matrices.

    Parameters
    ----------
    x : array_like, shape (..., n, n)
        float32, float64, complex64 or complex128.
    lower : bool, default True
        Read the lower triangle of ``x`` (else the upper one); the other
        triangle is ignored and the imaginary part of the diagonal too.
    symmetrize_input : bool, default True
        Replace ``x`` by ``(x + x^H) / 2`` first, so that both triangles count
        (and derivatives are symmetric).
    sort_eigenvalues : bool, default True
        Accepted for JAX compatibility; LAPACK's syevd/heevd always returns the
        eigenvalues in ascending order.
    return_info : bool, default False
        Also return syevd/heevd's ``info`` (a sciax extension).

    Returns
    -------
    v : Array, shape (..., n, n)
        Orthonormal eigenvectors in the columns, dtype of ``x``.
    w : Array, shape (..., n)
        Eigenvalues in ascending order, the real dtype of ``x``.
    info : Array of int32, shape (...)
        Only with ``return_info``: 0, ``> 0`` when the algorithm failed to
        converge, -1 for NaN input (the results are NaN in both cases).

    The order ``(v, w)`` is JAX's; ``x @ v == v * w``.  scipy.linalg.eigh
    returns ``(w, v)``.

    Notes
    -----
    Derivatives follow first-order perturbation theory: ``dw = Re diag(V^H dA
    V)`` and ``dv = V (F * (V^H dA V))`` with ``F[i, j] = 1 / (w_j - w_i)``.
    For repeated eigenvalues the terms coupling equal eigenvalues are dropped
    (``F[i, j] = 0`` where ``|w_i - w_j| <= 10 n eps max|w|``, the accuracy to
    which LAPACK separates a repeated eigenvalue): derivatives of quantities
    that do not depend on the choice of basis inside an eigenspace (the sum of
    the repeated eigenvalues, the projector ``v_c v_c^H`` onto the eigenspace,
    functions of the whole spectrum) are then correct, while individual
    eigenvectors of a repeated eigenvalue have no derivative (it is not
    defined) and individual repeated eigenvalues get the diagonal of the
    projected tangent rather than its eigenvalues.  Nearly equal eigenvalues
    give large, ill-conditioned eigenvector derivatives.  The phase of each
    eigenvector is LAPACK's and its derivative is chosen with
    ``Re(v_j^H dv_j) = 0``, so differentiate phase-invariant functions of ``v``.

    Examples
    --------
    >>> import numpy as np
    >>> v, w = lax.linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> w
    Array([1., 3.], dtype=float64)
    """
    _check_operand("eigh", get_aval(x))
    if symmetrize_input:
        x = ew.div(ew.add(x, _H(x)), shape_ops.full_like(x, 2))
    out = eigh_p.bind(x, lower=bool(lower), sort_eigenvalues=bool(sort_eigenvalues))
    return _with_info(out, return_info)


def _eigh_abstract_eval(x: ShapedArray, *, lower: bool, sort_eigenvalues: bool
                        ) -> list[ShapedArray]:
    _check_operand("eigh", x)
    return [ShapedArray(x.shape, x.dtype),
            ShapedArray(x.shape[:-1], real_dtype(x.dtype)), _info_aval(x)]


def _eigh_lowering(ctx, x, *, lower, sort_eigenvalues):
    del sort_eigenvalues  # syevd/heevd always sort ascending
    (a,), (v_aval, w_aval, i_aval) = ctx.avals_in, ctx.avals_out
    if 0 in a.shape:
        return [_full(aval, 0) for aval in ctx.avals_out]
    batch = a.shape[:-2]
    kernel = "heevd" if dtypes.is_complex(a.dtype) else "syevd"
    no_nan = _input_has_no_nan(ctx, x)
    v, w, info = _lapack_call(kernel, a.dtype, [x], [a], [v_aval, w_aval, i_aval],
                              {0: 0}, mode=char_attr("V"),
                              uplo=char_attr("L" if lower else "U"))
    ok, info = _success(no_nan, info, batch)
    return [_nan_where_failed(ok, batch, v, v_aval),
            _nan_where_failed(ok, batch, w, w_aval), info]


def _eigh_jvp(primals, tangents, *, lower, sort_eigenvalues):
    (x,), (dx,) = primals, tangents
    v, w, info = eigh_p.bind(x, lower=lower, sort_eigenvalues=sort_eigenvalues)
    dh = _hermitian_from_triangle(ad.instantiate_zeros(dx), lower)
    vdv = _mm(_H(v), _mm(dh, v))
    dw = _real(_diag(vdv))
    f = _cast(_safe_reciprocal_diff(w), get_aval(x).dtype)
    dv = _mm(v, ew.mul(f, vdv))
    return [v, w, info], [dv, dw, _zero_tangent(info)]


eigh_p = multi_result_primitive(_eigh_abstract_eval, "eigh")
ad.primitive_jvps[eigh_p] = _eigh_jvp
batching.primitive_batchers[eigh_p] = front_batcher(eigh_p)
register_lowering(eigh_p, _eigh_lowering)


# --- svd ----------------------------------------------------------------------------

_SVD_DRIVERS = ("gesdd", "gesvd")


def svd(x: ArrayLike, *, full_matrices: bool = True, compute_uv: bool = True,
        algorithm: str = "gesdd", return_info: bool = False) -> Any:
    """Singular value decomposition ``x = u @ diag(s) @ vh`` of a batch of matrices.

    Parameters
    ----------
    x : array_like, shape (..., m, n)
        float32, float64, complex64 or complex128.
    full_matrices : bool, default True
        ``u`` of shape (..., m, m) and ``vh`` of shape (..., n, n); else the
        thin factors (..., m, k) and (..., k, n), ``k = min(m, n)``.
    compute_uv : bool, default True
        Return ``(s, u, vh)``; if False only ``s``.
    algorithm : {"gesdd", "gesvd"}, default "gesdd"
        The LAPACK driver (SciPy's ``lapack_driver``): divide and conquer, or
        the slower QR iteration that is more robust on hard inputs.
    return_info : bool, default False
        Also return the driver's ``info`` (a sciax extension).

    Returns
    -------
    s : Array, shape (..., k)
        Singular values in descending order, the real dtype of ``x``.
    u, vh : Array
        Only with ``compute_uv``; dtype of ``x``.
    info : Array of int32, shape (...)
        Only with ``return_info``: 0, ``> 0`` when LAPACK's iteration did not
        converge, -1 for NaN input (the results are NaN in both cases).

    Notes
    -----
    Derivatives (thin and full) assume distinct, nonzero singular values:
    ``ds = Re diag(U^H dA V)``; ``du``/``dvh`` use ``1 / (s_j^2 - s_i^2)``.
    Terms coupling singular values equal to working accuracy are dropped (as
    in :func:`eigh`) and ``1 / s`` is
    taken as 0 where ``s == 0``, so basis-independent quantities (``s``
    itself, projectors onto singular subspaces) keep correct derivatives
    while individual vectors of repeated or zero singular values have none.
    ``s`` is not differentiable where a singular value is 0 (like ``abs``).
    With ``full_matrices`` and ``m != n`` the columns beyond ``k`` span the
    orthogonal complement; their derivative is the one that keeps that
    complement orthogonal with no rotation inside it.  Singular vectors carry
    LAPACK's phases, so differentiate phase-invariant functions of them.

    Examples
    --------
    >>> import numpy as np
    >>> lax.linalg.svd(np.array([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False)
    Array([4., 3.], dtype=float64)
    """
    if algorithm not in _SVD_DRIVERS:
        raise ValueError(f"svd: algorithm must be one of {_SVD_DRIVERS}, got "
                         f"{algorithm!r}")
    out = svd_p.bind(x, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv),
                     algorithm=algorithm)
    return _with_info(out, return_info)


def _svd_shapes(shape, full_matrices):
    *batch, m, n = shape
    k = min(m, n)
    return ((*batch, k), (*batch, m, m if full_matrices else k),
            (*batch, n if full_matrices else k, n))


def _svd_abstract_eval(x: ShapedArray, *, full_matrices: bool, compute_uv: bool,
                       algorithm: str) -> list[ShapedArray]:
    _check_operand("svd", x, square=False)
    s, u, vh = _svd_shapes(x.shape, full_matrices)
    out = [ShapedArray(s, real_dtype(x.dtype))]
    if compute_uv:
        out += [ShapedArray(u, x.dtype), ShapedArray(vh, x.dtype)]
    return [*out, _info_aval(x)]


def _svd_lowering(ctx, x, *, full_matrices, compute_uv, algorithm):
    (a,) = ctx.avals_in
    batch = a.shape[:-2]
    s_shape, u_shape, vh_shape = _svd_shapes(a.shape, full_matrices or not compute_uv)
    if not compute_uv:
        # the kernel still wants u/vt buffers; with mode N it does not touch them
        s_shape, u_shape, vh_shape = _svd_shapes(a.shape, False)
    s_aval = ShapedArray(s_shape, real_dtype(a.dtype))
    u_aval, vh_aval = ShapedArray(u_shape, a.dtype), ShapedArray(vh_shape, a.dtype)
    if 0 in a.shape:
        # nothing to decompose: no singular values, identity factors
        outs = [_full(s_aval, 0), _eye_ir(u_aval), _eye_ir(vh_aval)]
        return [*(outs if compute_uv else outs[:1]), _full(ctx.avals_out[-1], 0)]
    mode = "N" if not compute_uv else ("A" if full_matrices else "S")
    no_nan = _input_has_no_nan(ctx, x)
    _, s, u, vh, info = _lapack_call(
        algorithm, a.dtype, [x], [a], [a, s_aval, u_aval, vh_aval, ctx.avals_out[-1]],
        {0: 0}, mode=char_attr(mode))
    ok, info = _success(no_nan, info, batch)
    outs = [_nan_where_failed(ok, batch, s, s_aval)]
    if compute_uv:
        outs += [_nan_where_failed(ok, batch, u, u_aval),
                 _nan_where_failed(ok, batch, vh, vh_aval)]
    return [*outs, info]


def _complement_tangent(q1: Any, dq1: Any, q2: Any) -> Any:
    """Tangent of the orthonormal complement ``q2`` of ``q1``: keeps
    ``q1^H q2 = 0`` and does not rotate within the complement."""
    return ew.neg(_mm(q1, _mm(_H(dq1), q2)))


def _svd_jvp(primals, tangents, *, full_matrices, compute_uv, algorithm):
    (x,), (dx,) = primals, tangents
    dx = ad.instantiate_zeros(dx)
    dtype = get_aval(x).dtype
    *_, m, n = get_aval(x).shape
    k = min(m, n)
    full = full_matrices and m != n and compute_uv
    s, u, vh, info = svd_p.bind(x, full_matrices=full, compute_uv=True,
                                algorithm=algorithm)
    u1, vh1 = u, vh
    if full:
        u1 = shape_ops.slice_in_dim(u, 0, k, axis=u.ndim - 1) if m > n else u
        vh1 = shape_ops.slice_in_dim(vh, 0, k, axis=vh.ndim - 2) if n > m else vh
    v1 = _H(vh1)
    ds_mat = _mm(_H(u1), _mm(dx, v1))
    ds = _real(_diag(ds_mat))
    if not compute_uv:
        return [s, info], [ds, _zero_tangent(info)]
    shape = get_aval(ds_mat).shape
    s_c = _cast(s, dtype)
    s_rows, s_cols = _rows(s_c, shape), _cols(s_c, shape)
    f = _cast(_safe_reciprocal_diff(s, square=True), dtype)
    ds_s = ew.mul(ds_mat, s_rows)            # dS S
    s_ds = ew.mul(s_cols, ds_mat)            # S dS
    s_inv = _cast(_safe_reciprocal(s), dtype)
    # the imaginary part of diag(dS) fixes the relative phase of u_j and v_j
    # (zero for real input)
    phase = ew.mul(ew.mul(ew.sub(ds_mat, _H(ds_mat)), _eye(shape, dtype)),
                   shape_ops.full_like(ds_mat, 0.5))
    phase = ew.mul(phase, _rows(s_inv, shape))
    du = _mm(u1, ew.add(ew.mul(f, ew.add(ds_s, _H(ds_s))), phase))
    dv = _mm(v1, ew.mul(f, ew.add(s_ds, _H(s_ds))))
    if m > n:
        dxv = _mm(dx, v1)
        proj = ew.sub(dxv, _mm(u1, _mm(_H(u1), dxv)))
        du = ew.add(du, ew.mul(proj, _rows(s_inv, get_aval(proj).shape)))
    if n > m:
        dxu = _mm(_H(dx), u1)
        proj = ew.sub(dxu, _mm(v1, _mm(_H(v1), dxu)))
        dv = ew.add(dv, ew.mul(proj, _rows(s_inv, get_aval(proj).shape)))
    dvh = _H(dv)
    if full and m > n:
        u2 = shape_ops.slice_in_dim(u, k, m, axis=u.ndim - 1)
        du = shape_ops.concatenate([du, _complement_tangent(u1, du, u2)], u.ndim - 1)
    if full and n > m:
        v2 = _H(shape_ops.slice_in_dim(vh, k, n, axis=vh.ndim - 2))
        dv2 = _complement_tangent(v1, dv, v2)
        dvh = shape_ops.concatenate([dvh, _H(dv2)], vh.ndim - 2)
    return [s, u, vh, info], [ds, du, dvh, _zero_tangent(info)]


svd_p = multi_result_primitive(_svd_abstract_eval, "svd")
ad.primitive_jvps[svd_p] = _svd_jvp
batching.primitive_batchers[svd_p] = front_batcher(svd_p)
register_lowering(svd_p, _svd_lowering)


# --- eig ----------------------------------------------------------------------------

def eig(x: ArrayLike, *, compute_left_eigenvectors: bool = False,
        compute_right_eigenvectors: bool = True, return_info: bool = False
        ) -> list[Any]:
    """Eigendecomposition of a batch of general square matrices (LAPACK geev).

    Parameters
    ----------
    x : array_like, shape (..., n, n)
        float32, float64, complex64 or complex128.
    compute_left_eigenvectors, compute_right_eigenvectors : bool
        Which eigenvector matrices to return.
    return_info : bool, default False
        Also return geev's ``info`` (a sciax extension).

    Returns
    -------
    list of Array
        ``[w]``, then ``vl`` if asked, then ``vr`` if asked, then with
        ``return_info`` the int32 ``info`` (0, ``> 0`` when the QR algorithm
        did not converge, -1 for NaN input); all but info complex
        (complex64 for float32 input).  ``x @ vr == vr * w`` and
        ``vl^H @ x == w[:, None] * vl^H``; each eigenvector has unit 2-norm and
        its largest component real (LAPACK's normalisation).  Eigenvalues are
        in LAPACK's order (not sorted).

    Notes
    -----
    Derivatives assume distinct eigenvalues (a diagonalisable matrix):
    ``dw_j = (vl_j^H dA vr_j) / (vl_j^H vr_j)``, and eigenvector tangents come
    from ``F[i, j] = 1 / (w_j - w_i)`` plus the term that keeps LAPACK's
    normalisation (unit norm, real largest component).  As in :func:`eigh`,
    terms coupling eigenvalues equal to working accuracy are dropped, which
    gives the right answer for basis-independent quantities of normal
    matrices; for a defective matrix the derivative does not exist and the
    finite values returned are meaningless.

    Examples
    --------
    >>> import numpy as np
    >>> rotation = np.array([[0.0, 1.0], [-1.0, 0.0]])
    >>> w, = lax.linalg.eig(rotation, compute_right_eigenvectors=False)
    >>> np.sort_complex(np.asarray(w))
    array([0.-1.j, 0.+1.j])
    """
    out = eig_p.bind(x, compute_left_eigenvectors=bool(compute_left_eigenvectors),
                     compute_right_eigenvectors=bool(compute_right_eigenvectors))
    # a list, as JAX's eig returns it, whatever the number of results
    return list(out) if return_info else list(out[:-1])


def _eig_abstract_eval(x: ShapedArray, *, compute_left_eigenvectors: bool,
                       compute_right_eigenvectors: bool) -> list[ShapedArray]:
    _check_operand("eig", x)
    cdt = complex_dtype(x.dtype) if not dtypes.is_complex(x.dtype) else x.dtype
    count = int(compute_left_eigenvectors) + int(compute_right_eigenvectors)
    return ([ShapedArray(x.shape[:-1], cdt)] + [ShapedArray(x.shape, cdt)] * count
            + [_info_aval(x)])


def _eig_lowering(ctx, x, *, compute_left_eigenvectors, compute_right_eigenvectors):
    (a,) = ctx.avals_in
    w_aval = ctx.avals_out[0]
    v_aval = ShapedArray(a.shape, w_aval.dtype)
    if 0 in a.shape:
        return [_full(aval, 0) for aval in ctx.avals_out]
    batch = a.shape[:-2]
    real = not dtypes.is_complex(a.dtype)
    part = ShapedArray(a.shape[:-1], a.dtype)
    avals_out = [*([part, part] if real else [w_aval]), v_aval, v_aval,
                 ctx.avals_out[-1]]
    flag = {True: char_attr("V"), False: char_attr("N")}
    no_nan = _input_has_no_nan(ctx, x)
    *w, vl, vr, info = _lapack_call("geev", a.dtype, [x], [a], avals_out,
                                    compute_left=flag[compute_left_eigenvectors],
                                    compute_right=flag[compute_right_eigenvectors])
    ok, info = _success(no_nan, info, batch)
    w = hlo.complex(w[0], w[1]) if real else w[0]
    outs = [_nan_where_failed(ok, batch, w, w_aval)]
    if compute_left_eigenvectors:
        outs.append(_nan_where_failed(ok, batch, vl, v_aval))
    if compute_right_eigenvectors:
        outs.append(_nan_where_failed(ok, batch, vr, v_aval))
    return [*outs, info]


def _eigvec_tangent(w: Any, vr: Any, vl: Any, da: Any) -> tuple[Any, Any]:
    """Tangents of the eigenvalues ``w`` and of the right eigenvectors ``vr``
    (normalised as LAPACK does), given the left eigenvectors ``vl``.

    ``vr^{-1} = diag(1 / (vl_j^H vr_j)) vl^H`` for distinct eigenvalues, so no
    linear solve is needed.
    """
    shape = get_aval(vr).shape
    nd = len(shape)
    norms = reductions.reduce_sum(ew.mul(ew.conj(vl), vr), (nd - 2,))  # vl_j^H vr_j
    p = ew.div(_mm(_H(vl), _mm(da, vr)), _cols(norms, shape))         # vr^-1 dA vr
    dw = _diag(p)
    du = _mm(vr, ew.mul(_cast(_safe_reciprocal_diff(w), get_aval(vr).dtype), p))
    # dv_j = du_j + c_j v_j: pick c_j so that |v_j| stays 1 and the component
    # of largest magnitude (index k_j, fixed) stays real
    k = reductions.argmax(ew.abs(vr), nd - 2, np.int32)
    rows = shape_ops.broadcasted_iota(np.int32, shape, nd - 2)
    pick = _cast(ew.eq(rows, _rows(k, shape)), get_aval(vr).dtype)
    du_k = reductions.reduce_sum(ew.mul(pick, du), (nd - 2,))
    v_k = ew.real(reductions.reduce_sum(ew.mul(pick, vr), (nd - 2,)))
    re = ew.neg(ew.real(reductions.reduce_sum(ew.mul(ew.conj(vr), du), (nd - 2,))))
    im = ew.neg(ew.div(ew.imag(du_k), v_k))
    dv = ew.add(du, ew.mul(vr, _rows(ew.complex(re, im), shape)))
    return dw, dv


def _eig_jvp(primals, tangents, *, compute_left_eigenvectors,
             compute_right_eigenvectors):
    (x,), (dx,) = primals, tangents
    w, vl, vr, info = eig_p.bind(x, compute_left_eigenvectors=True,
                                 compute_right_eigenvectors=True)
    da = _cast(ad.instantiate_zeros(dx), get_aval(vr).dtype)
    dw, dvr = _eigvec_tangent(w, vr, vl, da)
    primal_out, tangent_out = [w], [dw]
    if compute_left_eigenvectors:
        # left eigenvectors of A are the right ones of A^H, eigenvalues conj(w)
        _, dvl = _eigvec_tangent(ew.conj(w), vl, vr, _H(da))
        primal_out.append(vl)
        tangent_out.append(dvl)
    if compute_right_eigenvectors:
        primal_out.append(vr)
        tangent_out.append(dvr)
    return [*primal_out, info], [*tangent_out, _zero_tangent(info)]


eig_p = multi_result_primitive(_eig_abstract_eval, "eig")
ad.primitive_jvps[eig_p] = _eig_jvp
batching.primitive_batchers[eig_p] = front_batcher(eig_p)
register_lowering(eig_p, _eig_lowering)


# --- schur --------------------------------------------------------------------------

def schur(x: ArrayLike, *, compute_schur_vectors: bool = True,
          sort_eig_vals: bool = False, return_info: bool = False) -> Any:
    """Schur decomposition ``x = z @ t @ z^H`` (LAPACK gees).

    Parameters
    ----------
    x : array_like, shape (..., n, n)
        float32, float64, complex64 or complex128.
    compute_schur_vectors : bool, default True
        Return ``(t, z)``; if False only ``t``.
    sort_eig_vals : bool, default False
        Not supported: jaxlib's gees kernel takes no selection callback.
    return_info : bool, default False
        Also return gees's ``info`` (a sciax extension).

    Returns
    -------
    t : Array
        Upper triangular (complex input) or quasi upper triangular with 2x2
        blocks for complex conjugate eigenvalue pairs (real input: SciPy's
        ``output='real'``).
    z : Array
        Unitary Schur vectors, only with ``compute_schur_vectors``.
    info : Array of int32, shape (...)
        Only with ``return_info``: 0, ``> 0`` when LAPACK's iteration did not
        converge, -1 for NaN input (the results are NaN in both cases).

    Notes
    -----
    Differentiable where the eigenvalues are distinct: ``dZ = Z Omega`` with
    ``Omega`` skew-Hermitian, chosen so that ``dT`` keeps the (quasi)
    triangular structure; for real input each 2x2 block also keeps LAPACK's
    standard form (equal diagonal entries).  A 2x2 block that is a scaled
    rotation (``t[k, k+1] == -t[k+1, k]``) does not fix its basis; there the
    rotation inside the block is taken to be zero.

    Examples
    --------
    >>> import numpy as np
    >>> t, z = lax.linalg.schur(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> np.allclose(np.asarray(z @ t @ z.T), [[1.0, 2.0], [0.0, 3.0]])
    True
    """
    if sort_eig_vals:
        raise NotImplementedError(
            "schur: sort_eig_vals=True is not supported (jaxlib's LAPACK gees kernel "
            "takes no eigenvalue selection function)")
    out = schur_p.bind(x, compute_schur_vectors=bool(compute_schur_vectors))
    return _with_info(out, return_info)


def _schur_abstract_eval(x: ShapedArray, *, compute_schur_vectors: bool
                         ) -> list[ShapedArray]:
    _check_operand("schur", x)
    aval = ShapedArray(x.shape, x.dtype)
    return [*([aval, aval] if compute_schur_vectors else [aval]), _info_aval(x)]


def _schur_lowering(ctx, x, *, compute_schur_vectors):
    (a,) = ctx.avals_in
    if 0 in a.shape:
        return [_full(aval, 0) for aval in ctx.avals_out]
    batch = a.shape[:-2]
    i_aval = ctx.avals_out[-1]
    w_aval = ShapedArray(a.shape[:-1], a.dtype)
    w_avals = [w_aval] if dtypes.is_complex(a.dtype) else [w_aval, w_aval]
    no_nan = _input_has_no_nan(ctx, x)
    t, z, *_, info = _lapack_call(
        "gees", a.dtype, [x], [a], [a, a, *w_avals, i_aval, i_aval], {0: 0},
        mode=char_attr("V" if compute_schur_vectors else "N"), sort=char_attr("N"))
    ok, info = _success(no_nan, info, batch)
    outs = [_nan_where_failed(ok, batch, t, a)]
    if compute_schur_vectors:
        outs.append(_nan_where_failed(ok, batch, z, a))
    return [*outs, info]


schur_p = multi_result_primitive(_schur_abstract_eval, "schur")


def _schur_omega_triangular(t: Any, c: Any) -> Any:
    """The strictly lower part ``W`` of ``Omega = Z^H dZ`` for one matrix with
    an upper triangular ``T``: the lower triangle of ``C + T Omega - Omega T``
    must vanish, a triangular Sylvester equation solved entry by entry, rows
    from the bottom up and columns left to right (Omega's diagonal is set to
    zero, a gauge choice)."""

    n = get_aval(t).shape[-1]
    pairs = [(i, j) for i in range(n - 1, 0, -1) for j in range(i)]
    if not pairs:
        return shape_ops.full_like(c, 0)
    rows = np.array([i for i, _ in pairs], np.int32)
    cols = np.array([j for _, j in pairs], np.int32)
    k = shape_ops.iota(np.int32, n)

    def body(p, w):
        i = shape_ops.dynamic_index_in_dim(rows, p, 0, keepdims=False)
        j = shape_ops.dynamic_index_in_dim(cols, p, 0, keepdims=False)
        t_row = shape_ops.dynamic_index_in_dim(t, i, 0, keepdims=False)
        t_col = shape_ops.dynamic_index_in_dim(t, j, 1, keepdims=False)
        w_col = shape_ops.dynamic_index_in_dim(w, j, 1, keepdims=False)
        w_row = shape_ops.dynamic_index_in_dim(w, i, 0, keepdims=False)
        zero = shape_ops.full_like(t_row, 0)
        i_n, j_n = (shape_ops.broadcast_in_dim(v, (n,), ()) for v in (i, j))
        below = reductions.reduce_sum(
            ew.select(ew.gt(k, i_n), ew.mul(t_row, w_col), zero), (0,))
        left = reductions.reduce_sum(
            ew.select(ew.lt(k, j_n), ew.mul(w_row, t_col), zero), (0,))
        c_ij = shape_ops.dynamic_slice(c, (i, j), (1, 1))
        t_ii = shape_ops.dynamic_slice(t, (i, i), (1, 1))
        t_jj = shape_ops.dynamic_slice(t, (j, j), (1, 1))
        val = ew.div(ew.sub(ew.neg(ew.add(c_ij, shape_ops.broadcast_in_dim(
            below, (1, 1), ()))), ew.neg(shape_ops.broadcast_in_dim(left, (1, 1), ()))),
            ew.sub(t_ii, t_jj))
        return shape_ops.dynamic_update_slice(w, val, (i, j))

    return control_flow.fori_loop(0, len(pairs), body, shape_ops.full_like(c, 0))


def _pad_block(x: Any, active: Any) -> Any:
    """A 1x1 or 2x2 diagonal block in a 2x2 window; a 1x1 block ``x[0, 0]``
    (``active[1]`` false) becomes ``x[0, 0] I``, which decouples the padding
    row or column of the Sylvester equation."""
    both = ew.bitwise_and(shape_ops.broadcast_in_dim(active, (2, 2), (0,)),
                          shape_ops.broadcast_in_dim(active, (2, 2), (1,)))
    x00 = shape_ops.broadcast_in_dim(_scalar_at(x, 0, 0), (2, 2), ())
    return ew.select(both, x, ew.mul(x00, np.eye(2, dtype=get_aval(x).dtype)))


def _scalar_at(x: Any, i: int, j: int) -> Any:
    return shape_ops.reshape(shape_ops.slice(x, (i, j), (i + 1, j + 1)), ())


def _sylvester_2x2(a: Any, b: Any, r: Any) -> Any:
    """``X`` with ``A X - X B = R`` for 2x2 ``A``, ``B`` without common
    eigenvalues, by Cayley-Hamilton: ``p(B) = B^2 - tr(B) B + det(B) I = 0``
    gives ``p(A) X = A R + R B - tr(B) R``, and ``p(A)`` is inverted through its
    adjugate.  Linear in ``R``; a handful of ops instead of a pivoted 4x4
    elimination (``p(A)`` has about the square of the 4x4 system's condition
    number, harmless for derivatives of well separated eigenvalues)."""
    dtype = get_aval(a).dtype
    tr = ew.add(_scalar_at(b, 0, 0), _scalar_at(b, 1, 1))
    det = ew.sub(ew.mul(_scalar_at(b, 0, 0), _scalar_at(b, 1, 1)),
                 ew.mul(_scalar_at(b, 0, 1), _scalar_at(b, 1, 0)))
    tr2, det2 = (shape_ops.broadcast_in_dim(v, (2, 2), ()) for v in (tr, det))
    eye2 = np.eye(2, dtype=dtype)
    pa = ew.add(ew.sub(_mm(a, a), ew.mul(tr2, a)), ew.mul(det2, eye2))
    rhs = ew.sub(ew.add(_mm(a, r), _mm(r, b)), ew.mul(tr2, r))
    # adj(P) = [[p11, -p01], [-p10, p00]]
    adj = ew.mul(_H(shape_ops.rev(pa, (0, 1))), np.array([[1, -1], [-1, 1]], dtype))
    det_pa = ew.sub(ew.mul(_scalar_at(pa, 0, 0), _scalar_at(pa, 1, 1)),
                    ew.mul(_scalar_at(pa, 0, 1), _scalar_at(pa, 1, 0)))
    return ew.div(_mm(adj, rhs), shape_ops.broadcast_in_dim(det_pa, (2, 2), ()))


def _schur_omega_quasi(t: Any, c: Any) -> Any:
    """The block strictly lower part ``W`` of ``Omega = Z^T dZ`` for one real
    quasi-triangular ``T`` (1x1 and 2x2 diagonal blocks).

    Block ``(I, J)`` below the block diagonal solves ``T_II X - X T_JJ = R``
    with ``R = -(C + T W - W T)[I, J]`` over the blocks found so far (rows
    bottom-up, columns left to right; ``W`` is zero where not yet computed).
    The partition is data dependent (``t[k+1, k] != 0`` opens a 2x2 block), so
    every entry ``(i, j)`` is visited and only block corners act, solving a
    2x2 Sylvester equation in which a 1x1 block is padded to a multiple of
    the identity (its padding row or column is then discarded).
    ``T``, ``C`` and ``W`` carry one extra zero row and column so that 2x2
    windows never leave the matrix.
    """

    aval = get_aval(t)
    n, dtype = aval.shape[-1], aval.dtype
    pairs = [(i, j) for i in range(n - 1, 0, -1) for j in range(i)]
    if not pairs:
        return shape_ops.full_like(c, 0)
    rows = np.array([i for i, _ in pairs], np.int32)
    cols = np.array([j for _, j in pairs], np.int32)
    tp = shape_ops.pad(t, np.zeros((), dtype), ((0, 1, 0), (0, 1, 0)))
    cp = shape_ops.pad(c, np.zeros((), dtype), ((0, 1, 0), (0, 1, 0)))
    first = ew.eq(shape_ops.iota(np.int32, 2), 0)

    def scalar(x, i, j):
        return shape_ops.reshape(shape_ops.dynamic_slice(x, (i, j), (1, 1)), ())

    def opens_block(k):  # t[k+1, k] != 0
        return ew.ne(scalar(tp, ew.add(k, 1), k), np.zeros((), dtype))

    def block_start(k):  # k == 0 or t[k, k-1] == 0
        left = scalar(tp, k, ew.max(ew.sub(k, 1), 0))
        return ew.bitwise_or(ew.eq(k, 0), ew.eq(left, np.zeros((), dtype)))

    def body(p, w):
        i = shape_ops.dynamic_index_in_dim(rows, p, 0, keepdims=False)
        j = shape_ops.dynamic_index_in_dim(cols, p, 0, keepdims=False)
        zero = ew.mul(i, 0)
        t_rows = shape_ops.dynamic_slice(tp, (i, zero), (2, n + 1))
        t_cols = shape_ops.dynamic_slice(tp, (zero, j), (n + 1, 2))
        w_rows = shape_ops.dynamic_slice(w, (i, zero), (2, n + 1))
        w_cols = shape_ops.dynamic_slice(w, (zero, j), (n + 1, 2))
        rhs = ew.neg(ew.add(shape_ops.dynamic_slice(cp, (i, j), (2, 2)),
                            ew.sub(_mm(t_rows, w_cols), _mm(w_rows, t_cols))))
        act_r, act_c = (ew.bitwise_or(first, shape_ops.broadcast_in_dim(
            opens_block(k), (2,), ())) for k in (i, j))
        act = ew.bitwise_and(shape_ops.broadcast_in_dim(act_r, (2, 2), (0,)),
                             shape_ops.broadcast_in_dim(act_c, (2, 2), (1,)))
        corner = shape_ops.broadcast_in_dim(
            ew.bitwise_and(block_start(i), block_start(j)), (2, 2), ())
        # away from block corners solve A X - X 0 = R with A = I instead: the
        # result is discarded, and a singular system there would put NaN into
        # the transpose (0 / 0)
        a = ew.select(corner, _pad_block(shape_ops.dynamic_slice(tp, (i, i), (2, 2)),
                                         act_r), np.eye(2, dtype=dtype))
        b = ew.select(corner, _pad_block(shape_ops.dynamic_slice(tp, (j, j), (2, 2)),
                                         act_c), np.zeros((2, 2), dtype))
        x = _sylvester_2x2(a, b, rhs)
        write = ew.bitwise_and(act, corner)
        upd = ew.select(write, x, shape_ops.dynamic_slice(w, (i, j), (2, 2)))
        return shape_ops.dynamic_update_slice(w, upd, (i, j))

    w = control_flow.fori_loop(0, len(pairs), body, shape_ops.full_like(tp, 0))
    return shape_ops.slice(w, (0, 0), (n, n))


def _schur_block_rotations(t: Any, c: Any, omega: Any) -> Any:
    """``omega`` plus the rotation inside each 2x2 block of a real ``T``.

    A block ``[[a, b], [c, a]]`` must keep LAPACK's standard form (dlanv2:
    equal diagonal entries), and ``Omega_II = w [[0, -1], [1, 0]]`` adds
    ``w (b + c) diag(1, -1)`` to ``dT_II``, so ``w = (R_22 - R_11) / (2 (b + c))``
    with ``R = C + T Omega - Omega T``.  A scaled rotation block (``b + c = 0``)
    commutes with every rotation: its standard form does not fix the basis,
    and ``w = 0`` is used."""
    aval = get_aval(t)
    n = aval.shape[-1]
    shape = (n, n)
    resid = ew.add(c, ew.sub(_mm(t, omega), _mm(omega, t)))
    d = _diag(resid)
    d_next = shape_ops.pad(d, np.zeros((), aval.dtype), ((-1, 1, 0),))
    sub = reductions.reduce_sum(ew.mul(t, _eye(shape, aval.dtype, -1)), (0,))
    sup = reductions.reduce_sum(ew.mul(t, _eye(shape, aval.dtype, 1)), (1,))
    rot = ew.mul(ew.sub(d_next, d), _safe_reciprocal(ew.mul(ew.add(sup, sub), 2.0)))
    zero = shape_ops.full_like(rot, 0)
    rot = ew.select(ew.ne(sub, zero), rot, zero)
    low = ew.mul(_eye(shape, aval.dtype, -1), _rows(rot, shape))
    return ew.add(omega, ew.sub(low, _H(low)))


def _schur_omega(t: Any, c: Any) -> Any:
    """``Omega = Z^H dZ`` (skew-Hermitian) for one matrix: ``dT = C + T Omega
    - Omega T`` keeps the Schur form's structure."""
    if _is_complex(t):
        w = _schur_omega_triangular(t, c)
        return ew.sub(w, _H(w))
    w = _schur_omega_quasi(t, c)
    return _schur_block_rotations(t, c, ew.sub(w, _H(w)))


def _map_leading(fun: Any) -> Any:
    """``fun`` mapped over the leading axis of every argument (``vmap`` with
    ``in_axes=0``, through the batching interpreter)."""
    def mapped(*args: Any) -> Any:
        size = get_aval(args[0]).shape[0]
        (out,) = batching.vmap_flat(lambda *a: [fun(*a)], args, [0] * len(args), [0],
                                    size)
        return out
    return mapped


def _schur_tangents(t: Any, z: Any, dx: Any) -> tuple[Any, Any]:
    """``(dT, dZ)`` from ``T``, ``Z`` and ``dA`` (see :func:`_schur_jvp`)."""
    c = _mm(_mm(_H(z), dx), z)
    solve = _schur_omega
    for _ in get_aval(t).shape[:-2]:
        solve = _map_leading(solve)
    omega = solve(t, c)
    dz = _mm(z, omega)
    # T's structure: the upper triangle and the subdiagonals of its 2x2 blocks
    # (its only nonzero entries below the diagonal); the rest is zero up to
    # rounding
    dt = ew.add(c, ew.sub(_mm(t, omega), _mm(omega, t)))
    dt = ew.select(ew.ne(t, shape_ops.full_like(t, 0)), dt, triu(dt))
    return dt, dz


_schur_tangents_jit: list[Any] = []


def _schur_jvp(primals, tangents, *, compute_schur_vectors):
    """Derivative of ``A = Z T Z^H``: ``dZ = Z Omega`` and ``dT = C + T Omega
    - Omega T`` with ``C = Z^H dA Z`` and ``Omega`` skew-Hermitian, chosen so
    that ``dT`` is (quasi) upper triangular like ``T`` and, for real input,
    every 2x2 block keeps equal diagonal entries (LAPACK's standard form).
    Needs distinct eigenvalues (and, for a 2x2 block, ``b + c != 0``).

    The tangent map runs as one jitted function: eagerly that is one compiled
    program instead of ~100 one-op dispatches; under a transformation the call
    is inlined."""
    (x,), (dx,) = primals, tangents
    t, z, info = schur_p.bind(x, compute_schur_vectors=True)
    if not _schur_tangents_jit:
        # function-local: jit sits above lax (used for eager speed only)
        from sciax._src.jit import jit
        _schur_tangents_jit.append(jit(_schur_tangents))
    dt, dz = _schur_tangents_jit[0](t, z, ad.instantiate_zeros(dx))
    outs = [t, z] if compute_schur_vectors else [t]
    touts = [dt, dz] if compute_schur_vectors else [dt]
    return [*outs, info], [*touts, _zero_tangent(info)]


ad.primitive_jvps[schur_p] = _schur_jvp
batching.primitive_batchers[schur_p] = front_batcher(schur_p)
register_lowering(schur_p, _schur_lowering)
