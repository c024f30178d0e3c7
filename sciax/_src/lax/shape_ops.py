"""Shape primitives: broadcast_in_dim, reshape, transpose, squeeze, rev, pad,
concatenate, slice, dynamic_slice, dynamic_update_slice and iota, plus the
wrappers built on them (expand_dims, broadcast, full, full_like, ...).

Slicing lives here too: ``slice`` shadows the builtin inside this module, which
never needs the builtin.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching, hooks, lowering
from sciax._src.interpreters import partial_eval as pe
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax import elementwise as ew
from sciax._src.lax._rules import standard_primitive

ArrayLike = Any


def _as_shape(shape: Any, what: str) -> tuple[int, ...]:
    try:
        out = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"{what}: shape must be a sequence of integers, "
                        f"got {shape!r}") from None
    if any(d < 0 for d in out):
        raise ValueError(f"{what}: shape {out} has a negative dimension")
    return out


# --- shared helpers ------------------------------------------------------------------

def _same_dtype(x: ShapedArray, *rest: ShapedArray, **params: Any) -> np.dtype:
    return x.dtype


def _operand_weak(x: ShapedArray, *rest: ShapedArray, **params: Any) -> bool:
    # index operands never make a result strongly typed
    return x.weak_type


def _ints(values: Any, what: str) -> tuple[int, ...]:
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError(f"{what} must be a sequence of integers, "
                        f"got {values!r}") from None


def _axes(dims: Any, ndim: int, op: str, what: str = "dimensions") -> tuple[int, ...]:
    """Normalize possibly-negative axes of an ``ndim``-d array; check range and
    uniqueness."""
    if isinstance(dims, int | np.integer):
        dims = (dims,)
    dims = _ints(dims, f"{op}: {what}")
    out = []
    for d in dims:
        if not -ndim <= d < ndim:
            raise ValueError(f"{op}: {what} {dims} out of range for an array of rank "
                             f"{ndim}")
        out.append(d % ndim if ndim else d)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: {what} {dims} contain repeated axes")
    return tuple(out)


def _aval(x: Any) -> ShapedArray:
    return get_aval(x)


def _as_array(x: Any, dtype: np.dtype, weak_type: bool = False) -> Any:
    """``x`` as an array operand of ``dtype`` (Python scalars converted)."""
    return ew.convert_element_type(x, dtype, weak_type)


def _reduce_sum(x: Any, axes: Sequence[int]) -> Any:
    # function-local: reductions sits above shape_ops (it uses shape ops at import)
    from sciax._src.lax import reductions

    return reductions.reduce_sum(x, tuple(axes)) if axes else x


def _front_batch(fn):
    """A batching rule that moves the batch axis to the front, then applies
    ``fn(x, size, **params) -> out`` with the batch axis first in the output."""
    def rule(vals, dims, **params):
        (x,), (d,) = vals, dims
        x = batching.moveaxis(x, d, 0)
        return fn(x, _aval(x).shape[0], **params), 0
    return rule


def _batched_start_indices(idx, idx_dims, size, operand_shape, sizes):
    """The clamped start indices of every batch member as an ``(n, rank)``
    int array (XLA clamps each start to ``[0, shape - size]``)."""
    dt = _aval(idx[0]).dtype
    cols = []
    for i, d, n, k in zip(idx, idx_dims, operand_shape, sizes):
        i = batching.bdim_at_front(i, d, size)
        i = ew.clamp(_as_array(0, dt), i, _as_array(n - k, dt))
        cols.append(reshape(i, (size, 1)))
    return concatenate(cols, 1)


def _zeros_like_aval(aval: ShapedArray) -> Any:
    zero = _as_array(0, aval.dtype, aval.weak_type)
    return broadcast_in_dim(zero, aval.shape, ()) if aval.shape else zero


# --- broadcast_in_dim --------------------------------------------------------------

def broadcast_in_dim(operand: ArrayLike, shape: Sequence[int],
                     broadcast_dimensions: Sequence[int]) -> Any:
    """Broadcast ``operand`` to ``shape``; operand axis ``i`` maps to output axis
    ``broadcast_dimensions[i]`` (its size must equal it or be 1)."""
    return broadcast_in_dim_p.bind(
        operand, shape=_as_shape(shape, "broadcast_in_dim"),
        broadcast_dimensions=tuple(operator.index(d) for d in broadcast_dimensions))


def _broadcast_in_dim_shape_rule(x: ShapedArray, *, shape: tuple[int, ...],
                                 broadcast_dimensions: tuple[int, ...]
                                 ) -> tuple[int, ...]:
    if len(broadcast_dimensions) != x.ndim:
        raise ValueError(
            f"broadcast_in_dim: broadcast_dimensions {broadcast_dimensions} must have "
            f"one entry per operand axis (operand shape {x.shape})")
    if any(not 0 <= d < len(shape) for d in broadcast_dimensions) or \
            list(broadcast_dimensions) != sorted(set(broadcast_dimensions)):
        raise ValueError(
            f"broadcast_in_dim: broadcast_dimensions {broadcast_dimensions} must be "
            f"strictly increasing axes of the output shape {shape}")
    for i, d in enumerate(broadcast_dimensions):
        if x.shape[i] not in (1, shape[d]):
            raise ValueError(
                f"broadcast_in_dim: operand shape {x.shape} cannot be broadcast to "
                f"{shape}: axis {i} has size {x.shape[i]}, output axis {d} has size "
                f"{shape[d]}")
    return shape


def _broadcast_in_dim_lowering(ctx, x, *, shape, broadcast_dimensions):
    return hlo.broadcast_in_dim(lowering.aval_to_ir_type(ctx.avals_out[0]), x,
                                ir.DenseI64ArrayAttr.get(list(broadcast_dimensions)))


def _broadcast_in_dim_transpose(ct, x, *, shape, broadcast_dimensions):
    in_shape = x.aval.shape
    kept = set(broadcast_dimensions)
    summed = [d for d in range(len(shape)) if d not in kept]
    unit = [d for i, d in enumerate(broadcast_dimensions)
            if in_shape[i] == 1 and shape[d] != 1]
    out = _reduce_sum(ct, sorted(summed + unit))
    return [reshape(out, in_shape)]


def _broadcast_in_dim_batch(vals, dims, *, shape, broadcast_dimensions):
    (x,), (d,) = vals, dims
    x = batching.moveaxis(x, d, 0)
    size = _aval(x).shape[0]
    return broadcast_in_dim(x, (size, *shape),
                            (0, *(b + 1 for b in broadcast_dimensions))), 0


broadcast_in_dim_p = standard_primitive(_broadcast_in_dim_shape_rule,
                                        lambda x, **p: x.dtype, "broadcast_in_dim")
register_lowering(broadcast_in_dim_p, _broadcast_in_dim_lowering)
ad.deflinear(broadcast_in_dim_p, _broadcast_in_dim_transpose)
batching.primitive_batchers[broadcast_in_dim_p] = _broadcast_in_dim_batch


# --- reshape -----------------------------------------------------------------------

def reshape(operand: ArrayLike, new_sizes: Sequence[int]) -> Any:
    """Reshape ``operand`` (row-major) to ``new_sizes``; sizes must match."""
    new_sizes = _as_shape(new_sizes, "reshape")
    if get_aval(operand).shape == new_sizes:
        return operand
    return reshape_p.bind(operand, new_sizes=new_sizes)


def _reshape_shape_rule(x: ShapedArray, *, new_sizes: tuple[int, ...]
                        ) -> tuple[int, ...]:
    if int(np.prod(new_sizes)) != x.size:
        raise ValueError(f"reshape: cannot reshape an array of shape {x.shape} "
                         f"({x.size} elements) into shape {new_sizes}")
    return new_sizes


reshape_p = standard_primitive(_reshape_shape_rule, lambda x, **p: x.dtype, "reshape")
register_lowering(reshape_p, lambda ctx, x, *, new_sizes: hlo.reshape(
    lowering.aval_to_ir_type(ctx.avals_out[0]), x))
ad.deflinear(reshape_p, lambda ct, x, *, new_sizes: [reshape(ct, x.aval.shape)])
batching.primitive_batchers[reshape_p] = _front_batch(
    lambda x, n, *, new_sizes: reshape(x, (n, *new_sizes)))


# --- transpose -----------------------------------------------------------------------

def transpose(operand: ArrayLike, permutation: Sequence[int]) -> Any:
    """Permute the axes of ``operand``: output axis ``i`` is input axis
    ``permutation[i]``.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.transpose(np.arange(6).reshape(2, 3), (1, 0)).shape
    (3, 2)
    """
    permutation = _ints(permutation, "transpose: permutation")
    if permutation == tuple(range(len(permutation))) and \
            len(permutation) == _aval(operand).ndim:
        return operand
    return transpose_p.bind(operand, permutation=permutation)


def _transpose_shape_rule(x: ShapedArray, *, permutation: tuple[int, ...]
                          ) -> tuple[int, ...]:
    if sorted(permutation) != list(range(x.ndim)):
        raise ValueError(f"transpose: permutation {permutation} is not a permutation "
                         f"of the axes of an operand of shape {x.shape}")
    return tuple(x.shape[p] for p in permutation)


def _transpose_lowering(ctx, x, *, permutation):
    return hlo.transpose(x, ir.DenseI64ArrayAttr.get(list(permutation)))


transpose_p = standard_primitive(_transpose_shape_rule, _same_dtype, "transpose")
register_lowering(transpose_p, _transpose_lowering)
ad.deflinear(transpose_p, lambda ct, x, *, permutation: [
    transpose(ct, tuple(np.argsort(permutation)))])
batching.primitive_batchers[transpose_p] = _front_batch(
    lambda x, n, *, permutation: transpose(x, (0, *(p + 1 for p in permutation))))


# --- squeeze / expand_dims ------------------------------------------------------------

def squeeze(array: ArrayLike, dimensions: Sequence[int]) -> Any:
    """Remove the size-1 axes ``dimensions`` (negative axes count from the end).

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.squeeze(np.zeros((1, 3, 1)), (0, -1)).shape
    (3,)
    """
    ndim = _aval(array).ndim
    dims = tuple(sorted(_axes(dimensions, ndim, "squeeze")))
    if not dims:
        return array
    return squeeze_p.bind(array, dimensions=dims)


def _squeeze_shape_rule(x: ShapedArray, *, dimensions: tuple[int, ...]
                        ) -> tuple[int, ...]:
    bad = [d for d in dimensions if not 0 <= d < x.ndim or x.shape[d] != 1]
    if bad:
        raise ValueError(f"squeeze: cannot squeeze axes {tuple(bad)} of an array of "
                         f"shape {x.shape}; only axes of size 1 can be squeezed")
    return tuple(n for i, n in enumerate(x.shape) if i not in dimensions)


squeeze_p = standard_primitive(_squeeze_shape_rule, _same_dtype, "squeeze")
register_lowering(squeeze_p, lambda ctx, x, *, dimensions: hlo.reshape(
    lowering.aval_to_ir_type(ctx.avals_out[0]), x))
ad.deflinear(squeeze_p, lambda ct, x, *, dimensions: [reshape(ct, x.aval.shape)])
batching.primitive_batchers[squeeze_p] = _front_batch(
    lambda x, n, *, dimensions: squeeze(x, tuple(d + 1 for d in dimensions)))


def expand_dims(array: ArrayLike, dimensions: Sequence[int]) -> Any:
    """Insert size-1 axes so that they sit at ``dimensions`` of the result.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.expand_dims(np.zeros(3), (0, -1)).shape
    (1, 3, 1)
    """
    shape = _aval(array).shape
    if isinstance(dimensions, int | np.integer):
        dimensions = (dimensions,)
    dimensions = _ints(dimensions, "expand_dims: dimensions")
    dims = _axes(dimensions, len(shape) + len(dimensions), "expand_dims")
    out = list(shape)
    for d in sorted(dims):
        out.insert(d, 1)
    return reshape(array, out)


# --- rev -----------------------------------------------------------------------------

def rev(operand: ArrayLike, dimensions: Sequence[int]) -> Any:
    """Reverse ``operand`` along the axes ``dimensions``.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.rev(np.arange(3), (0,))
    Array([2, 1, 0], dtype=int64)
    """
    dims = _ints(dimensions, "rev: dimensions")
    if not dims:
        return operand
    return rev_p.bind(operand, dimensions=dims)


def _rev_shape_rule(x: ShapedArray, *, dimensions: tuple[int, ...]) -> tuple[int, ...]:
    if len(set(dimensions)) != len(dimensions) or \
            any(not 0 <= d < x.ndim for d in dimensions):
        raise ValueError(f"rev: dimensions {dimensions} must be distinct axes of an "
                         f"operand of shape {x.shape}")
    return x.shape


rev_p = standard_primitive(_rev_shape_rule, _same_dtype, "rev")
register_lowering(rev_p, lambda ctx, x, *, dimensions: hlo.reverse(
    x, ir.DenseI64ArrayAttr.get(list(dimensions))))
ad.deflinear(rev_p, lambda ct, x, *, dimensions: [rev(ct, dimensions)])
batching.primitive_batchers[rev_p] = _front_batch(
    lambda x, n, *, dimensions: rev(x, tuple(d + 1 for d in dimensions)))


# --- pad -----------------------------------------------------------------------------

def pad(operand: ArrayLike, padding_value: ArrayLike,
        padding_config: Sequence[tuple[int, int, int]]) -> Any:
    """Pad each axis with ``(low, high, interior)`` copies of ``padding_value``.

    ``interior`` values go between neighbouring elements; negative ``low`` or
    ``high`` remove elements from that edge.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.pad(np.array([1, 2, 3]), 0, [(1, -1, 1)])
    Array([0, 1, 0, 2, 0], dtype=int64)
    """
    try:
        config = tuple(_ints(c, "pad: padding_config entries") for c in padding_config)
    except TypeError:
        raise TypeError(f"pad: padding_config must be a sequence of (low, high, "
                        f"interior) triples, got {padding_config!r}") from None
    if any(len(c) != 3 for c in config):
        raise ValueError(f"pad: padding_config must hold (low, high, interior) "
                         f"triples, got {config}")
    if dtypes.is_python_scalar(padding_value):
        aval = _aval(operand)
        padding_value = _as_array(padding_value, aval.dtype, aval.weak_type)
    return pad_p.bind(operand, padding_value, padding_config=config)


def _pad_shape_rule(x: ShapedArray, value: ShapedArray, *,
                    padding_config: tuple[tuple[int, int, int], ...]
                    ) -> tuple[int, ...]:
    if value.shape != ():
        raise ValueError(f"pad: padding_value must be a scalar, got shape "
                         f"{value.shape}")
    if len(padding_config) != x.ndim:
        raise ValueError(f"pad: padding_config has {len(padding_config)} entries for "
                         f"an operand of shape {x.shape}; need one per axis")
    out = []
    for n, (lo, hi, interior) in zip(x.shape, padding_config):
        if interior < 0:
            raise ValueError(f"pad: interior padding must be >= 0, got "
                             f"{padding_config}")
        size = lo + hi + n + max(n - 1, 0) * interior
        if size < 0:
            raise ValueError(f"pad: padding_config {padding_config} gives a negative "
                             f"dimension for an operand of shape {x.shape}")
        out.append(size)
    return tuple(out)


def _pad_dtype_rule(x: ShapedArray, value: ShapedArray, **params: Any) -> np.dtype:
    if x.dtype != value.dtype:
        raise TypeError(f"pad: padding_value dtype {value.dtype} must equal the "
                        f"operand dtype {x.dtype}")
    return x.dtype


def _pad_lowering(ctx, x, value, *, padding_config):
    lo, hi, interior = zip(*padding_config) if padding_config else ((), (), ())
    return hlo.pad(x, value, ir.DenseI64ArrayAttr.get(list(lo)),
                   ir.DenseI64ArrayAttr.get(list(hi)),
                   ir.DenseI64ArrayAttr.get(list(interior)))


def _pad_transpose(ct, x, value, *, padding_config):
    lo, hi, interior = zip(*padding_config) if padding_config else ((), (), ())
    unpadded = pad(ct, _as_array(0, _aval(ct).dtype),
                   [(-a, -b, 0) for a, b in zip(lo, hi)])
    t_x = slice(unpadded, (0,) * len(lo), _aval(unpadded).shape,
                tuple(i + 1 for i in interior))
    t_value = None
    if ad.is_undefined_primal(value):
        all_axes = tuple(range(_aval(ct).ndim))
        t_value = ew.sub(_reduce_sum(ct, all_axes), _reduce_sum(t_x, all_axes))
    return [t_x if ad.is_undefined_primal(x) else None, t_value]


def _pad_batch(vals, dims, *, padding_config):
    (x, value), (dx, dv) = vals, dims
    size = batching.batch_size(vals, dims)
    x = batching.bdim_at_front(x, dx, size)
    config = ((0, 0, 0), *padding_config)
    if dv is batching.not_mapped:
        return pad(x, value, config), 0
    zero = _as_array(0, _aval(x).dtype)
    padded = pad(x, zero, config)
    mask = pad(full(_aval(x).shape, True, np.bool_), _as_array(False, np.bool_), config)
    v = broadcast_in_dim(batching.moveaxis(value, dv, 0), _aval(padded).shape, (0,))
    return ew.select(mask, padded, v), 0


pad_p = standard_primitive(_pad_shape_rule, _pad_dtype_rule, "pad")
register_lowering(pad_p, _pad_lowering)
ad.deflinear(pad_p, _pad_transpose)
batching.primitive_batchers[pad_p] = _pad_batch


# --- concatenate ---------------------------------------------------------------------

def concatenate(operands: Sequence[ArrayLike], dimension: int) -> Any:
    """Join arrays of equal dtype along the existing axis ``dimension``; the
    other axes must match.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.concatenate([np.zeros((2, 1)), np.ones((2, 2))], 1).shape
    (2, 3)
    """
    operands = list(operands)
    if not operands:
        raise ValueError("concatenate: needs at least one operand")
    if len(operands) == 1:
        return operands[0]
    return concatenate_p.bind(*operands, dimension=operator.index(dimension))


def _concatenate_shape_rule(*xs: ShapedArray, dimension: int) -> tuple[int, ...]:
    shapes = [x.shape for x in xs]
    ndim = xs[0].ndim
    if not 0 <= dimension < ndim:
        raise ValueError(f"concatenate: dimension {dimension} out of range for "
                         f"operands of shapes {shapes}")
    if any(x.ndim != ndim or x.shape[:dimension] != xs[0].shape[:dimension]
           or x.shape[dimension + 1:] != xs[0].shape[dimension + 1:] for x in xs):
        raise ValueError(f"concatenate: operand shapes {shapes} must agree except "
                         f"along dimension {dimension}")
    total = sum(x.shape[dimension] for x in xs)
    return (*xs[0].shape[:dimension], total, *xs[0].shape[dimension + 1:])


def _concatenate_dtype_rule(*xs: ShapedArray, dimension: int) -> np.dtype:
    if len({x.dtype for x in xs}) > 1:
        raise TypeError(f"concatenate: operands must have equal dtypes, got "
                        f"{', '.join(str(x.dtype) for x in xs)}")
    return xs[0].dtype


def _concatenate_transpose(ct, *xs, dimension):
    out, offset = [], 0
    for x in xs:
        n = (x.aval if ad.is_undefined_primal(x) else _aval(x)).shape[dimension]
        out.append(slice_in_dim(ct, offset, offset + n, 1, dimension)
                   if ad.is_undefined_primal(x) else None)
        offset += n
    return out


def _concatenate_batch(vals, dims, *, dimension):
    size = batching.batch_size(vals, dims)
    xs = [batching.bdim_at_front(x, d, size) for x, d in zip(vals, dims)]
    return concatenate(xs, dimension + 1), 0


concatenate_p = standard_primitive(_concatenate_shape_rule, _concatenate_dtype_rule,
                                   "concatenate")
def _concatenate_lowering(ctx, *xs, dimension):
    # Zero-size operands add nothing; dropping them also avoids an XLA CPU
    # abort (jaxlib 0.10.2's simplifier on slice(concatenate(x, empty))).
    parts = [x for x, a in zip(xs, ctx.avals_in) if a.shape[dimension]] or [xs[0]]
    return parts[0] if len(parts) == 1 else hlo.concatenate(parts, dimension)


register_lowering(concatenate_p, _concatenate_lowering)
ad.deflinear(concatenate_p, _concatenate_transpose)
batching.primitive_batchers[concatenate_p] = _concatenate_batch


# --- slice ---------------------------------------------------------------------------

def slice(operand: ArrayLike, start_indices: Sequence[int],
          limit_indices: Sequence[int], strides: Sequence[int] | None = None) -> Any:
    """``operand[start:limit:stride]`` on every axis, with static bounds.

    Bounds must satisfy ``0 <= start <= limit <= shape``; strides are >= 1.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.slice(np.arange(10), (1,), (8,), (3,))
    Array([1, 4, 7], dtype=int64)
    """
    start = _ints(start_indices, "slice: start_indices")
    limit = _ints(limit_indices, "slice: limit_indices")
    strides = None if strides is None else _ints(strides, "slice: strides")
    if strides is not None and all(s == 1 for s in strides):
        strides = None
    return slice_p.bind(operand, start_indices=start, limit_indices=limit,
                        strides=strides)


def _slice_shape_rule(x: ShapedArray, *, start_indices: tuple[int, ...],
                      limit_indices: tuple[int, ...],
                      strides: tuple[int, ...] | None) -> tuple[int, ...]:
    strides = strides if strides is not None else (1,) * x.ndim
    if not len(start_indices) == len(limit_indices) == len(strides) == x.ndim:
        raise ValueError(
            f"slice: start_indices {start_indices}, limit_indices {limit_indices} and "
            f"strides {strides} need one entry per axis of the operand shape {x.shape}")
    for lo, hi, n in zip(start_indices, limit_indices, x.shape):
        if not 0 <= lo <= hi <= n:
            raise ValueError(
                f"slice: indices out of range: start_indices {start_indices}, "
                f"limit_indices {limit_indices} for an operand of shape {x.shape} "
                "(need 0 <= start <= limit <= shape)")
    if any(s < 1 for s in strides):
        raise ValueError(f"slice: strides {strides} must be positive")
    return tuple(-(-(hi - lo) // s) for lo, hi, s in
                 zip(start_indices, limit_indices, strides))


def _slice_lowering(ctx, x, *, start_indices, limit_indices, strides):
    strides = strides if strides is not None else (1,) * len(start_indices)
    return hlo.slice(x, ir.DenseI64ArrayAttr.get(list(start_indices)),
                     ir.DenseI64ArrayAttr.get(list(limit_indices)),
                     ir.DenseI64ArrayAttr.get(list(strides)))


def _slice_transpose(ct, x, *, start_indices, limit_indices, strides):
    shape = x.aval.shape
    strides = strides if strides is not None else (1,) * len(shape)
    out_shape = _aval(ct).shape
    config = []
    for lo, n, s, m in zip(start_indices, shape, strides, out_shape):
        last = lo + (m - 1) * s + 1 if m else lo
        config.append((lo, n - last, s - 1) if m else (lo, n - lo, 0))
    return [pad(ct, _as_array(0, _aval(ct).dtype), config)]


slice_p = standard_primitive(_slice_shape_rule, _same_dtype, "slice")
register_lowering(slice_p, _slice_lowering)
ad.deflinear(slice_p, _slice_transpose)
batching.primitive_batchers[slice_p] = _front_batch(
    lambda x, n, *, start_indices, limit_indices, strides: slice(
        x, (0, *start_indices), (n, *limit_indices),
        None if strides is None else (1, *strides)))


def slice_in_dim(operand: ArrayLike, start_index: int | None, limit_index: int | None,
                 stride: int = 1, axis: int = 0) -> Any:
    """:func:`slice` along one axis; ``None`` and negative bounds as in Python.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.slice_in_dim(np.arange(6).reshape(2, 3), 1, None, axis=1).shape
    (2, 2)
    """
    shape = _aval(operand).shape
    axis = _axes(axis, len(shape), "slice_in_dim", "axis")[0]
    n = shape[axis]
    lo = 0 if start_index is None else operator.index(start_index)
    hi = n if limit_index is None else operator.index(limit_index)
    lo, hi = (lo + n if lo < 0 else lo), (hi + n if hi < 0 else hi)
    start, limit, strides = [0] * len(shape), list(shape), [1] * len(shape)
    start[axis], limit[axis], strides[axis] = lo, hi, stride
    return slice(operand, start, limit, strides)


def index_in_dim(operand: ArrayLike, index: int, axis: int = 0,
                 keepdims: bool = True) -> Any:
    """The static ``index`` along ``axis`` (negative counts from the end)."""
    shape = _aval(operand).shape
    axis = _axes(axis, len(shape), "index_in_dim", "axis")[0]
    index = operator.index(index)
    if not -shape[axis] <= index < shape[axis]:
        raise ValueError(f"index_in_dim: index {index} out of range for axis {axis} "
                         f"of size {shape[axis]}")
    index %= shape[axis]
    out = slice_in_dim(operand, index, index + 1, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


# --- dynamic_slice / dynamic_update_slice ---------------------------------------------

def _start_index_operands(op: str, start_indices: Any, shape: tuple[int, ...],
                          allow_negative_indices: bool) -> list[Any]:
    """Scalar integer index operands of one dtype, negative ones wrapped."""
    if not isinstance(start_indices, list | tuple):
        aval = _aval(start_indices)
        if aval.ndim != 1:
            raise ValueError(f"{op}: start_indices must be a sequence of scalars or a "
                             f"1-d array, got shape {aval.shape}")
        start_indices = [reshape(slice(start_indices, (i,), (i + 1,)), ())
                         for i in range(aval.shape[0])]
    if len(start_indices) != len(shape):
        raise ValueError(f"{op}: got {len(start_indices)} start indices for an operand "
                         f"of shape {shape}; need one per axis")
    arrays = [i for i in start_indices if not isinstance(i, int | np.integer)]
    avals = [_aval(i) for i in arrays]
    for a in avals:
        if a.shape != () or not dtypes.is_integer(a.dtype):
            raise TypeError(f"{op}: start indices must be integer scalars, got "
                            f"{a.str_short()}")
    kinds = {a.dtype for a in avals}
    if not kinds:
        dt = np.dtype(np.int32)
    elif len(kinds) == 1:
        dt = kinds.pop()
    else:  # mixed index dtypes: one wide enough for all
        dt = dtypes.canonicalize_dtype(np.int64)
    out = []
    for i, n in zip(start_indices, shape):
        if isinstance(i, int | np.integer):
            i = int(i)
            out.append(_as_array(i + n if i < 0 and allow_negative_indices else i, dt))
            continue
        i = _as_array(i, dt)
        if allow_negative_indices and not dtypes.issubdtype(dt, np.unsignedinteger):
            i = ew.select(ew.lt(i, 0), ew.add(i, n), i)
        out.append(i)
    return out


def _check_index_operands(op: str, x: ShapedArray, idx: Sequence[ShapedArray]) -> None:
    if len(idx) != x.ndim:
        raise ValueError(f"{op}: got {len(idx)} start indices for an operand of shape "
                         f"{x.shape}; need one per axis")
    if any(i.shape != () or not dtypes.is_integer(i.dtype) for i in idx) or \
            len({i.dtype for i in idx}) > 1:
        raise TypeError(f"{op}: start indices must be integer scalars of one dtype, "
                        f"got {', '.join(i.str_short() for i in idx)}")


def dynamic_slice(operand: ArrayLike, start_indices: Any, slice_sizes: Sequence[int],
                  *, allow_negative_indices: bool = True) -> Any:
    """A slice of static size ``slice_sizes`` at traced ``start_indices``.

    As in XLA, each start index is clamped to ``[0, shape - size]`` so the
    slice stays in bounds; with ``allow_negative_indices`` (the default, as in
    JAX) a negative index first counts from the end.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.dynamic_slice(np.arange(5), (3,), (3,))
    Array([2, 3, 4], dtype=int64)
    """
    shape = _aval(operand).shape
    sizes = _ints(slice_sizes, "dynamic_slice: slice_sizes")
    idx = _start_index_operands("dynamic_slice", start_indices, shape,
                                allow_negative_indices)
    return dynamic_slice_p.bind(operand, *idx, slice_sizes=sizes)


def _dynamic_slice_shape_rule(x: ShapedArray, *idx: ShapedArray,
                              slice_sizes: tuple[int, ...]) -> tuple[int, ...]:
    _check_index_operands("dynamic_slice", x, idx)
    if len(slice_sizes) != x.ndim or \
            any(not 0 <= s <= n for s, n in zip(slice_sizes, x.shape)):
        raise ValueError(f"dynamic_slice: slice_sizes {slice_sizes} must have one "
                         f"entry per axis, each between 0 and the operand shape "
                         f"{x.shape}")
    return slice_sizes


def _dynamic_slice_lowering(ctx, x, *idx, slice_sizes):
    return hlo.dynamic_slice(x, list(idx), ir.DenseI64ArrayAttr.get(list(slice_sizes)))


def _dynamic_slice_jvp(primals, tangents, *, slice_sizes):
    x, *idx = primals
    out = dynamic_slice_p.bind(x, *idx, slice_sizes=slice_sizes)
    t = tangents[0]
    if type(t) is ad.Zero:
        return out, ad.Zero(_aval(out))
    return out, dynamic_slice_p.bind(t, *idx, slice_sizes=slice_sizes)


def _dynamic_slice_transpose(ct, x, *idx, slice_sizes):
    zeros = ad.zeros_like_aval(x.aval)
    return [dynamic_update_slice_p.bind(zeros, ct, *idx)] + [None] * len(idx)


def _dynamic_slice_batch(vals, dims, *, slice_sizes):
    x, *idx = vals
    dx, *di = dims
    size = batching.batch_size(vals, dims)
    if all(d is batching.not_mapped for d in di):
        x = batching.moveaxis(x, dx, 0)
        zero = _as_array(0, _aval(idx[0]).dtype) if idx else None
        return dynamic_slice_p.bind(x, *([zero] if idx else []), *idx,
                                    slice_sizes=(size, *slice_sizes)), 0
    # function-local: indexing sits above shape_ops (it uses shape ops at import)
    from sciax._src.lax import indexing

    x = batching.bdim_at_front(x, dx, size)
    shape = _aval(x).shape[1:]
    if size == 0:  # nothing to gather (and a size-1 batch window would not fit)
        return _zeros_like_aval(_aval(x).update(shape=(0, *slice_sizes))), 0
    starts = _batched_start_indices(idx, di, size, shape, slice_sizes)
    rank = len(shape)
    dnums = indexing.GatherDimensionNumbers(
        offset_dims=tuple(range(1, rank + 1)), collapsed_slice_dims=(),
        start_index_map=tuple(range(1, rank + 1)), operand_batching_dims=(0,),
        start_indices_batching_dims=(0,))
    return indexing.gather(x, starts, dnums, (1, *slice_sizes),
                           mode="promise_in_bounds"), 0


dynamic_slice_p = standard_primitive(_dynamic_slice_shape_rule, _same_dtype,
                                     "dynamic_slice", _operand_weak)
register_lowering(dynamic_slice_p, _dynamic_slice_lowering)
ad.primitive_jvps[dynamic_slice_p] = _dynamic_slice_jvp
ad.primitive_transposes[dynamic_slice_p] = _dynamic_slice_transpose
batching.primitive_batchers[dynamic_slice_p] = _dynamic_slice_batch


def dynamic_slice_in_dim(operand: ArrayLike, start_index: Any, slice_size: int,
                         axis: int = 0) -> Any:
    """:func:`dynamic_slice` along one axis (the other axes are kept whole)."""
    shape = _aval(operand).shape
    axis = _axes(axis, len(shape), "dynamic_slice_in_dim", "axis")[0]
    starts: list[Any] = [0] * len(shape)
    starts[axis] = start_index
    sizes = list(shape)
    sizes[axis] = slice_size
    return dynamic_slice(operand, starts, sizes)


def dynamic_index_in_dim(operand: ArrayLike, index: Any, axis: int = 0,
                         keepdims: bool = True) -> Any:
    """The traced ``index`` along ``axis`` (clamped into range)."""
    out = dynamic_slice_in_dim(operand, index, 1, axis)
    if keepdims:
        return out
    return squeeze(out, (_axes(axis, _aval(operand).ndim, "dynamic_index_in_dim",
                               "axis")[0],))


def dynamic_update_slice(operand: ArrayLike, update: ArrayLike, start_indices: Any,
                         *, allow_negative_indices: bool = True) -> Any:
    """``operand`` with the block ``update`` written at traced ``start_indices``.

    Start indices are clamped so that the whole update fits, as in XLA.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.dynamic_update_slice(np.zeros(4, np.int32), np.ones(2, np.int32), (3,))
    Array([0, 0, 1, 1], dtype=int32)
    """
    shape = _aval(operand).shape
    idx = _start_index_operands("dynamic_update_slice", start_indices, shape,
                                allow_negative_indices)
    return dynamic_update_slice_p.bind(operand, update, *idx)


def _dynamic_update_slice_shape_rule(x: ShapedArray, update: ShapedArray,
                                     *idx: ShapedArray) -> tuple[int, ...]:
    _check_index_operands("dynamic_update_slice", x, idx)
    if update.ndim != x.ndim or any(u > n for u, n in zip(update.shape, x.shape)):
        raise ValueError(f"dynamic_update_slice: update shape {update.shape} must have "
                         f"the operand's rank and fit inside its shape {x.shape}")
    return x.shape


def _dynamic_update_slice_dtype_rule(x: ShapedArray, update: ShapedArray,
                                     *idx: ShapedArray) -> np.dtype:
    if x.dtype != update.dtype:
        raise TypeError(f"dynamic_update_slice: update dtype {update.dtype} must equal "
                        f"the operand dtype {x.dtype}")
    return x.dtype


def _dynamic_update_slice_jvp(primals, tangents):
    x, upd, *idx = primals
    tx, tu = tangents[0], tangents[1]
    out = dynamic_update_slice_p.bind(x, upd, *idx)
    if type(tx) is ad.Zero and type(tu) is ad.Zero:
        return out, ad.Zero(_aval(out))
    return out, dynamic_update_slice_p.bind(ad.instantiate_zeros(tx),
                                            ad.instantiate_zeros(tu), *idx)


def _dynamic_update_slice_transpose(ct, x, upd, *idx):
    upd_aval = upd.aval if ad.is_undefined_primal(upd) else _aval(upd)
    t_x = t_u = None
    if ad.is_undefined_primal(x):
        t_x = dynamic_update_slice_p.bind(ct, ad.zeros_like_aval(upd_aval), *idx)
    if ad.is_undefined_primal(upd):
        t_u = dynamic_slice_p.bind(ct, *idx, slice_sizes=upd_aval.shape)
    return [t_x, t_u] + [None] * len(idx)


def _dynamic_update_slice_batch(vals, dims):
    x, upd, *idx = vals
    dx, du, *di = dims
    size = batching.batch_size(vals, dims)
    x = batching.bdim_at_front(x, dx, size)
    upd = batching.bdim_at_front(upd, du, size)
    if all(d is batching.not_mapped for d in di):
        zero = [_as_array(0, _aval(idx[0]).dtype)] if idx else []
        return dynamic_update_slice_p.bind(x, upd, *zero, *idx), 0
    from sciax._src.lax import indexing  # function-local: as in _dynamic_slice_batch

    shape = _aval(x).shape[1:]
    if size == 0:
        return x, 0
    starts = _batched_start_indices(idx, di, size, shape, _aval(upd).shape[1:])
    rank = len(shape)
    dnums = indexing.ScatterDimensionNumbers(
        update_window_dims=tuple(range(1, rank + 1)), inserted_window_dims=(),
        scatter_dims_to_operand_dims=tuple(range(1, rank + 1)),
        operand_batching_dims=(0,), scatter_indices_batching_dims=(0,))
    return indexing.scatter(x, starts, upd, dnums, mode="promise_in_bounds",
                   unique_indices=True), 0


dynamic_update_slice_p = standard_primitive(
    _dynamic_update_slice_shape_rule, _dynamic_update_slice_dtype_rule,
    "dynamic_update_slice", _operand_weak)
register_lowering(dynamic_update_slice_p, lambda ctx, x, update, *idx:
                  hlo.dynamic_update_slice(x, update, list(idx)))
ad.primitive_jvps[dynamic_update_slice_p] = _dynamic_update_slice_jvp
ad.primitive_transposes[dynamic_update_slice_p] = _dynamic_update_slice_transpose
batching.primitive_batchers[dynamic_update_slice_p] = _dynamic_update_slice_batch


def dynamic_update_slice_in_dim(operand: ArrayLike, update: ArrayLike,
                                start_index: Any, axis: int) -> Any:
    """:func:`dynamic_update_slice` at ``start_index`` along ``axis`` (0 elsewhere)."""
    ndim = _aval(operand).ndim
    axis = _axes(axis, ndim, "dynamic_update_slice_in_dim", "axis")[0]
    starts: list[Any] = [0] * ndim
    starts[axis] = start_index
    return dynamic_update_slice(operand, update, starts)


# --- iota ----------------------------------------------------------------------------

def iota(dtype: Any, size: int) -> Any:
    """``[0, 1, ..., size - 1]`` of ``dtype``.

    Examples
    --------
    >>> from sciax import lax
    >>> lax.iota("int32", 4)
    Array([0, 1, 2, 3], dtype=int32)
    """
    return broadcasted_iota(dtype, (size,), 0)


def broadcasted_iota(dtype: Any, shape: Sequence[int], dimension: int) -> Any:
    """An array of ``shape`` whose value is the index along ``dimension``.

    Examples
    --------
    >>> from sciax import lax
    >>> lax.broadcasted_iota("int32", (2, 3), 1)
    Array([[0, 1, 2],
           [0, 1, 2]], dtype=int32)
    """
    shape = _as_shape(shape, "broadcasted_iota")
    dimension = operator.index(dimension)
    return iota_p.bind(dtype=dtypes.canonicalize_dtype(dtype), shape=shape,
                       dimension=dimension)


def _iota_shape_rule(*, dtype: np.dtype, shape: tuple[int, ...], dimension: int
                     ) -> tuple[int, ...]:
    if not 0 <= dimension < len(shape):
        raise ValueError(f"iota: dimension {dimension} out of range for shape {shape}")
    return shape


def _iota_dtype_rule(*, dtype: np.dtype, shape: tuple[int, ...], dimension: int
                     ) -> np.dtype:
    if dtype == dtypes.bool_:
        raise TypeError("iota does not accept dtype bool; expected a numeric dtype")
    return dtype


def _iota_lowering(ctx, *, dtype, shape, dimension):
    return hlo.iota(lowering.aval_to_ir_type(ctx.avals_out[0]),
                    ir.IntegerAttr.get(ir.IntegerType.get_signless(64), dimension))


iota_p = standard_primitive(_iota_shape_rule, _iota_dtype_rule, "iota")
# recomputed from literals in a staged jaxpr rather than saved as residuals
pe.recomputable.update({broadcast_in_dim_p, reshape_p, iota_p})
register_lowering(iota_p, _iota_lowering)
ad.defjvp_zero(iota_p)


# --- broadcast / full (wrappers) -----------------------------------------------------

def broadcast(operand: ArrayLike, sizes: Sequence[int]) -> Any:
    """Add leading axes of ``sizes``: the result has shape ``(*sizes, *operand.shape)``.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.broadcast(np.ones(3), (2,)).shape
    (2, 3)
    """
    sizes = _as_shape(sizes, "broadcast")
    if dtypes.is_python_scalar(operand):
        operand = _as_array(operand, dtypes.python_scalar_dtype(operand), True)
    ndim = _aval(operand).ndim
    if not sizes:
        return operand
    return broadcast_in_dim(operand, (*sizes, *_aval(operand).shape),
                            tuple(range(len(sizes), len(sizes) + ndim)))


def full(shape: Sequence[int], fill_value: ArrayLike, dtype: Any = None) -> Any:
    """An array of ``shape`` filled with the scalar ``fill_value``.

    Without ``dtype`` the result takes the dtype of ``fill_value`` (weakly
    typed for a Python scalar).

    Examples
    --------
    >>> from sciax import lax
    >>> lax.full((2,), 7, "int32")
    Array([7, 7], dtype=int32)
    """
    shape = _as_shape(shape, "full")
    aval = _aval(fill_value)
    if aval.shape != ():
        raise ValueError(f"full: fill_value must be a scalar, got shape {aval.shape}")
    weak = dtype is None and aval.weak_type
    dt = aval.dtype if dtype is None else dtypes.canonicalize_dtype(dtype)
    return broadcast(_as_array(fill_value, dt, weak), shape)


def full_like(x: ArrayLike, fill_value: ArrayLike, dtype: Any = None,
              shape: Sequence[int] | None = None) -> Any:
    """:func:`full` with the shape and dtype (and weak type) of ``x`` by default.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.full_like(np.zeros((2, 2), np.float32), 1.5).dtype
    dtype('float32')
    """
    aval = _aval(x)
    weak = dtype is None and aval.weak_type
    dt = aval.dtype if dtype is None else dtypes.canonicalize_dtype(dtype)
    shape = aval.shape if shape is None else _as_shape(shape, "full_like")
    if _aval(fill_value).shape != ():
        raise ValueError(f"full_like: fill_value must be a scalar, got shape "
                         f"{_aval(fill_value).shape}")
    return broadcast(_as_array(fill_value, dt, weak), shape)


def zeros_like_array(x: ArrayLike) -> Any:
    """Zeros with the shape and dtype of ``x``."""
    return full_like(x, 0)


def ones_like_array(x: ArrayLike) -> Any:
    """Ones with the shape and dtype of ``x``."""
    return full_like(x, 1)


__all__ = [
    "broadcast_in_dim", "reshape", "transpose", "squeeze", "expand_dims", "rev", "pad",
    "concatenate", "slice", "slice_in_dim", "index_in_dim", "dynamic_slice",
    "dynamic_slice_in_dim", "dynamic_index_in_dim", "dynamic_update_slice",
    "dynamic_update_slice_in_dim", "iota", "broadcasted_iota", "broadcast", "full",
    "full_like", "zeros_like_array", "ones_like_array",
    "broadcast_in_dim_p", "reshape_p", "transpose_p", "squeeze_p", "rev_p", "pad_p",
    "concatenate_p", "slice_p", "dynamic_slice_p", "dynamic_update_slice_p", "iota_p",
]


# the few array operations the interpreters need (see interpreters/hooks.py)
hooks.zeros_like_aval = _zeros_like_aval
hooks.broadcast_in_dim = broadcast_in_dim
hooks.transpose = transpose
