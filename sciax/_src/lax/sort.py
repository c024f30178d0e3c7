"""Sorting: ``sort`` of several operands by their leading keys, ``sort_key_val``
and ``top_k``.

The comparator is a strict total order that matches :func:`numpy.sort`:
``-0.0`` equals ``0.0`` (a stable sort keeps their order), every NaN sorts
after ``+inf``, and complex numbers compare lexicographically by (real, imag),
with NumPy's placement of NaNs: ``[R + Rj, R + nanj, nan + Rj, nan + nanj]``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import chlo, hlo, ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax import elementwise as ew
from sciax._src.lax import shape_ops
from sciax._src.lax._rules import (_any, _compare, _complex, _float, check_dtypes,
                                   multi_result_primitive)
from sciax._src.lax.dot import dot_general

ArrayLike = Any

__all__ = ["sort", "sort_key_val", "top_k", "sort_p", "top_k_p"]


# Sorting permutes; the tangents are permuted the same way.  The permutation is
# applied with sort itself (sorting by unique integer keys), which keeps the
# rules closed under sort: the transpose of "permute by keys" is "permute by
# the keys' argsort", another sort, and everything batches like sort does.


# --- sort -----------------------------------------------------------------------------

def sort(operand: ArrayLike | Sequence[ArrayLike], dimension: int = -1,
         is_stable: bool = True, num_keys: int = 1) -> Any:
    """Sort ``operand`` along ``dimension``, or several operands together.

    Parameters
    ----------
    operand : array_like or sequence of array_like
        One array, or a tuple/list of arrays of the same shape (dtypes may
        differ).  A sequence is sorted lexicographically by its first
        ``num_keys`` arrays and the others are permuted along.
    dimension : int, default -1
        The axis to sort along (negative counts from the end).
    is_stable : bool, default True
        Keep the input order of equal keys.
    num_keys : int, default 1
        How many leading operands are sort keys.

    Returns
    -------
    Array or tuple of Array
        An array for an array input, a tuple for a sequence.

    Notes
    -----
    NaNs sort to the end and ``-0.0 == 0.0``, as in :func:`numpy.sort`;
    complex numbers sort by real part, then imaginary part, values with a NaN
    part last in NumPy's order ``[R + Rj, R + nanj, nan + Rj, nan + nanj]``.
    Derivatives move each tangent with its element (ties follow the same
    order as the values).

    Examples
    --------
    >>> import numpy as np
    >>> lax.sort(np.array([3.0, np.nan, 1.0, 2.0]))
    Array([ 1.,  2.,  3., nan], dtype=float64)

    An argsort: sort the keys together with their positions.

    >>> keys = np.array([2, 0, 2, 1], np.int32)
    >>> lax.sort((keys, np.arange(4, dtype=np.int32)), num_keys=1)[1]
    Array([1, 3, 0, 2], dtype=int32)
    """
    single = not isinstance(operand, tuple | list)
    operands = [operand] if single else list(operand)
    if not operands:
        raise ValueError("sort needs at least one operand")
    ndim = len(get_aval(operands[0]).shape)
    if ndim == 0:
        raise ValueError("sort: operands must have rank 1 or more, got shape ()")
    try:
        dim = operator.index(dimension)
    except TypeError:
        raise TypeError(f"sort: dimension must be an integer, got {dimension!r}") from None
    if not -ndim <= dim < ndim:
        raise ValueError(f"sort: dimension {dimension} is out of range for operands of "
                         f"rank {ndim} (shape {get_aval(operands[0]).shape})")
    out = sort_p.bind(*operands, dimension=dim % ndim, is_stable=bool(is_stable),
                      num_keys=operator.index(num_keys))
    return out[0] if single else tuple(out)


def _sort_abstract_eval(*avals: ShapedArray, dimension: int, is_stable: bool,
                        num_keys: int) -> list[ShapedArray]:
    shapes = {a.shape for a in avals}
    if len(shapes) != 1:
        raise ValueError("sort: all operands must have the same shape, got shapes "
                         f"{', '.join(str(a.shape) for a in avals)}")
    shape = avals[0].shape
    if not shape:
        raise ValueError("sort: operands must have rank 1 or more, got shape ()")
    if not 0 <= dimension < len(shape):
        raise ValueError(f"sort: dimension {dimension} is out of range for shape {shape}")
    if not 1 <= num_keys <= len(avals):
        raise ValueError(f"sort: num_keys must be between 1 and the number of operands "
                         f"({len(avals)}), got {num_keys}")
    check_dtypes("sort", [_any] * len(avals), *avals)
    return list(avals)


def _canonical_float(x: ir.Value, dtype: np.dtype) -> ir.Value:
    """-0.0 -> +0.0 and every NaN -> +NaN, so that the total order of compare
    (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN) becomes NumPy's order."""
    scalar = ShapedArray((), dtype)
    zero = lowering.ir_constant(np.zeros((), dtype), scalar)
    nan = lowering.ir_constant(np.full((), np.nan, dtype), scalar)
    x = hlo.select(_compare(x, zero, "EQ", dtype), zero, x)
    return hlo.select(_compare(x, x, "NE", dtype), nan, x)


def _keys(x: ir.Value, dtype: np.dtype) -> list[tuple[ir.Value, np.dtype]]:
    if dtype in _complex:
        # NumPy's complex order: [R + Rj, R + nanj, nan + Rj, nan + nanj], each
        # group lexicographic; so first the NaN pattern (real is NaN, imag is
        # NaN), then the canonicalised parts.
        part = np.dtype(np.float64 if dtype == dtypes.complex128 else np.float32)
        re, im = hlo.real(x), hlo.imag(x)
        return [(_compare(re, re, "NE", part), dtypes.bool_),
                (_compare(im, im, "NE", part), dtypes.bool_),
                (_canonical_float(re, part), part), (_canonical_float(im, part), part)]
    if dtype in _float:
        return [(_canonical_float(x, dtype), dtype)]
    return [(x, dtype)]


def _less(x: ir.Value, y: ir.Value, dtype: np.dtype, direction: str) -> ir.Value:
    if dtype in _float:
        return hlo.compare(x, y, hlo.ComparisonDirectionAttr.get(direction),
                           compare_type=hlo.ComparisonTypeAttr.get("TOTALORDER"))
    return _compare(x, y, direction, dtype)


def _sort_lowering(ctx: lowering.LoweringRuleContext, *operands: ir.Value,
                   dimension: int, is_stable: bool, num_keys: int) -> list[ir.Value]:
    in_dtypes = [a.dtype for a in ctx.avals_in]
    op = hlo.SortOp([lowering.aval_to_ir_type(a) for a in ctx.avals_out], list(operands),
                    dimension=dimension, is_stable=is_stable)
    # the comparator's arguments come in (lhs_i, rhs_i) pairs, one per operand
    types = [lowering.aval_to_ir_type(ShapedArray((), d)) for d in in_dtypes]
    block = op.comparator.blocks.append(*[t for t in types for _ in (0, 1)])
    with ir.InsertionPoint(block):
        args = list(block.arguments)
        xkeys, ykeys = [], []
        for i in range(num_keys):
            xkeys += _keys(args[2 * i], in_dtypes[i])
            ykeys += _keys(args[2 * i + 1], in_dtypes[i])
        # lexicographic x < y, built from the last key outwards
        less = None
        for (xk, dt), (yk, _) in zip(reversed(xkeys), reversed(ykeys)):
            lt = _less(xk, yk, dt, "LT")
            less = lt if less is None else hlo.or_(
                lt, hlo.and_(_less(xk, yk, dt, "EQ"), less))
        hlo.return_([less])
    return list(op.results)


def _iota_like(shape: tuple[int, ...], dimension: int) -> Any:
    dtype = np.int32 if shape[dimension] < 2**31 else np.int64
    return shape_ops.broadcasted_iota(dtype, shape, dimension)


def _permute(keys: Sequence[Any], values: Sequence[Any], dimension: int,
             num_keys: int) -> list[Any]:
    """``values`` in the order that sorting by ``keys`` gives (stably)."""
    return sort_p.bind(*keys, *values, dimension=dimension, is_stable=True,
                       num_keys=num_keys)[num_keys:]


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    shape = get_aval(primals[0]).shape
    iota = _iota_like(shape, dimension)
    *out, perm = sort_p.bind(*primals, iota, dimension=dimension,
                             is_stable=is_stable, num_keys=num_keys)
    # out[i] = x[perm[i]]; sorting by the inverse permutation (unique keys, so
    # any sort order agrees) moves each tangent entry to the same place
    (inv,) = _permute([perm], [iota], dimension, 1)
    nonzero = [t for t in tangents if type(t) is not ad.Zero]
    moved = iter(_permute([inv], nonzero, dimension, 1))
    t_out = [t if type(t) is ad.Zero else next(moved) for t in tangents]
    return out, t_out


def _sort_transpose(cts, *operands, dimension, is_stable, num_keys):
    # Reached for the linear non-key operands of the sorts made by _sort_jvp:
    # out = x[argsort(keys)], so x_bar[argsort(keys)[i]] = ct[i], i.e. ct sorted
    # by argsort(keys).
    keys = operands[:num_keys]
    if any(ad.is_undefined_primal(k) for k in keys):
        raise NotImplementedError("sort: cannot transpose with respect to sort keys")
    linear = [i for i, x in enumerate(operands) if ad.is_undefined_primal(x)]
    shape = operands[linear[0]].aval.shape
    iota = _iota_like(shape, dimension)
    perm = sort_p.bind(*keys, iota, dimension=dimension, is_stable=is_stable,
                       num_keys=num_keys)[-1]
    moved = _permute([perm], [ad.instantiate_zeros(cts[i]) for i in linear],
                     dimension, 1)
    out: list[Any] = [None] * len(operands)
    for i, ct in zip(linear, moved):
        out[i] = ct
    return out


def _sort_batch(vals, dims, *, dimension, is_stable, num_keys):
    size = batching.batch_size(vals, dims)
    if len(set(dims)) == 1:
        (d,) = set(dims)
        new_dim = dimension + (dimension >= d)
        out = sort_p.bind(*vals, dimension=new_dim, is_stable=is_stable,
                          num_keys=num_keys)
        return out, [d] * len(out)
    # mixed: every operand needs the batch axis (sort wants equal shapes)
    vals = [batching.bdim_at_front(v, d, size) for v, d in zip(vals, dims)]
    out = sort_p.bind(*vals, dimension=dimension + 1, is_stable=is_stable,
                      num_keys=num_keys)
    return out, [0] * len(out)


sort_p = multi_result_primitive(_sort_abstract_eval, "sort")
register_lowering(sort_p, _sort_lowering)
ad.primitive_jvps[sort_p] = _sort_jvp
ad.primitive_transposes[sort_p] = _sort_transpose
batching.primitive_batchers[sort_p] = _sort_batch


def sort_key_val(keys: ArrayLike, values: ArrayLike, dimension: int = -1,
                 is_stable: bool = True) -> tuple[Any, Any]:
    """Sort ``keys`` along ``dimension`` and permute ``values`` the same way.

    Examples
    --------
    >>> import numpy as np
    >>> k, v = lax.sort_key_val(np.array([3, 1, 2], np.int32), np.array([30.0, 10.0, 20.0]))
    >>> v
    Array([10., 20., 30.], dtype=float64)
    """
    k, v = sort((keys, values), dimension=dimension, is_stable=is_stable, num_keys=1)
    return k, v


# --- top_k ----------------------------------------------------------------------------

def top_k(operand: ArrayLike, k: int) -> tuple[Any, Any]:
    """The ``k`` largest entries along the last axis and their indices (int32),
    largest first; ties keep the lower index first.  A NaN counts as larger
    than every number, so NaNs come first (the mirror of :func:`sort`).

    Examples
    --------
    >>> import numpy as np
    >>> vals, idx = lax.top_k(np.array([1.0, 4.0, 2.0, 3.0]), 2)
    >>> vals, idx
    (Array([4., 3.], dtype=float64), Array([1, 3], dtype=int32))
    """
    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"top_k: k must be an integer, got {k!r}") from None
    return tuple(top_k_p.bind(operand, k=k))


def _top_k_abstract_eval(x: ShapedArray, *, k: int) -> list[ShapedArray]:
    if x.dtype in _complex or x.dtype not in _any:
        raise TypeError(f"top_k does not accept dtype {x.dtype}; expected a real "
                        "numeric or bool dtype")
    if not x.shape:
        raise ValueError("top_k: the operand must have rank 1 or more, got shape ()")
    if not 0 <= k <= x.shape[-1]:
        raise ValueError(f"top_k: k={k} must be between 0 and the size of the last "
                         f"axis of the operand shape {x.shape}")
    shape = (*x.shape[:-1], k)
    return [ShapedArray(shape, x.dtype, x.weak_type),
            ShapedArray(shape, np.dtype(np.int32))]


def _top_k_lowering(ctx: lowering.LoweringRuleContext, x: ir.Value, *, k: int
                    ) -> list[ir.Value]:
    op = chlo.TopKOp(x, k, results=[lowering.aval_to_ir_type(a) for a in ctx.avals_out])
    return list(op.results)


def _top_k_jvp(primals, tangents, *, k):
    # the tangent entries at the returned indices, gathered with a one-hot
    # contraction over the last axis (linear in t, so it transposes and batches
    # through dot_general)
    (x,), (t,) = primals, tangents
    vals, idx = top_k_p.bind(x, k=k)
    shape = get_aval(x).shape
    r = len(shape)
    onehot_shape = (*shape[:-1], k, shape[-1])
    pos = shape_ops.broadcasted_iota(np.int32, onehot_shape, r)
    picked = shape_ops.broadcast_in_dim(idx, onehot_shape, tuple(range(r)))
    onehot = ew.convert_element_type(ew.eq(pos, picked), get_aval(t).dtype)
    lead = tuple(range(r - 1))
    t_out = dot_general(onehot, t, (((r,), (r - 1,)), (lead, lead)))
    return [vals, idx], [t_out, ad.Zero(get_aval(idx))]


def _top_k_batch(vals, dims, *, k):
    (x,), (d,) = vals, dims
    if d == get_aval(x).ndim - 1:
        # top_k works on the last axis: move the batch axis out of the way
        x, d = batching.moveaxis(x, d, 0), 0
    return top_k_p.bind(x, k=k), [d, d]


top_k_p = multi_result_primitive(_top_k_abstract_eval, "top_k")
register_lowering(top_k_p, _top_k_lowering)
ad.primitive_jvps[top_k_p] = _top_k_jvp
batching.primitive_batchers[top_k_p] = _top_k_batch
