"""Gather and scatter: XLA's general indexing primitives.

``gather`` reads a window of ``operand`` at each index vector of
``start_indices``; the ``scatter`` family writes (or combines) windows of
``updates`` into ``operand``.  The index vector is always the last axis of the
indices array.  ``dimension_numbers`` say which axes are windows, which are
collapsed and how index components map to operand axes; the StableHLO spec of
``gather``/``scatter`` defines them precisely.

Out-of-bounds indices follow ``mode`` (:class:`GatherScatterMode`).  As in JAX
the default (``mode=None``) is ``FILL_OR_DROP``: a gathered window that is not
entirely in bounds becomes ``fill_value`` and such a scattered window is
dropped.  ``CLIP`` clamps every window into bounds instead.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.interpreters.partial_eval import trace_to_jaxpr
from sciax._src.lax import elementwise as ew
from sciax._src.lax import shape_ops
from sciax._src.lax._rules import _any, _bool, _num, describe, standard_primitive

ArrayLike = Any


class GatherScatterMode(enum.Enum):
    """How gather and scatter treat index vectors whose window is out of bounds.

    ``CLIP``
        Clamp the start index so that the whole window is in bounds (XLA's own
        gather semantics).
    ``FILL_OR_DROP``
        Gather returns ``fill_value`` for the whole window; scatter drops the
        whole window.  The default (``mode=None``), as in JAX.
    ``PROMISE_IN_BOUNDS``
        The caller promises every index is in bounds; the result is whatever
        XLA does otherwise (clamped gathers, dropped scatters).
    """

    CLIP = "clip"
    FILL_OR_DROP = "fill"
    PROMISE_IN_BOUNDS = "promise_in_bounds"

    @staticmethod
    def from_any(mode: str | GatherScatterMode | None) -> GatherScatterMode:
        """Parse ``None``, a mode, or one of ``"clip"``, ``"fill"``, ``"drop"``,
        ``"promise_in_bounds"``."""
        if isinstance(mode, GatherScatterMode):
            return mode
        if mode is None or mode in ("fill", "drop"):
            return GatherScatterMode.FILL_OR_DROP
        if mode == "clip":
            return GatherScatterMode.CLIP
        if mode == "promise_in_bounds":
            return GatherScatterMode.PROMISE_IN_BOUNDS
        raise ValueError(f"unknown gather/scatter mode {mode!r}; expected 'clip', "
                         "'fill', 'drop', 'promise_in_bounds' or None")


class GatherDimensionNumbers(NamedTuple):
    """Dimension numbers of :func:`gather` (see the StableHLO ``gather`` spec).

    offset_dims
        Output axes that hold the window axes (those of ``slice_sizes`` not
        collapsed and not batching), in order.
    collapsed_slice_dims
        Operand axes whose window (size 1) is dropped from the output.
    start_index_map
        ``start_index_map[i]`` is the operand axis that index component ``i``
        addresses.
    operand_batching_dims, start_indices_batching_dims
        Paired axes of the operand and of the indices that are batched over
        (each operand batch element is indexed by its own index vectors).
    """

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """Dimension numbers of the scatter family (see the StableHLO ``scatter`` spec).

    update_window_dims
        Axes of ``updates`` that are window axes (the others are index batch axes,
        matching ``indices.shape[:-1]``).
    inserted_window_dims
        Operand axes that the window lacks (it has size 1 there).
    scatter_dims_to_operand_dims
        ``scatter_dims_to_operand_dims[i]`` is the operand axis that index
        component ``i`` addresses.
    operand_batching_dims, scatter_indices_batching_dims
        Paired batched axes of the operand and of the indices.
    """

    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


def _tuples(dnums: Any, cls: type) -> Any:
    """``dnums`` as a ``cls`` of int tuples (hashable, so it can be a param)."""
    other = (GatherDimensionNumbers, ScatterDimensionNumbers)
    if isinstance(dnums, dict):
        dnums = cls(**dnums)
    elif not isinstance(dnums, cls):
        if isinstance(dnums, other) or not isinstance(dnums, tuple | list):
            raise TypeError(f"dimension_numbers must be a {cls.__name__}, got "
                            f"{type(dnums).__name__}")
        dnums = cls(*dnums)
    try:
        return cls(*(tuple(int(d) for d in f) for f in dnums))
    except TypeError:
        raise TypeError(f"{cls.__name__} fields must be sequences of integers, got "
                        f"{dnums}") from None


def _sorted_axes(op: str, what: str, dims: tuple[int, ...], rank: int,
                 sorted_: bool = True) -> None:
    if any(not 0 <= d < rank for d in dims) or len(set(dims)) != len(dims) or \
            (sorted_ and list(dims) != sorted(dims)):
        order = "sorted, " if sorted_ else ""
        raise ValueError(f"{op}: {what} {dims} must be {order}distinct axes in "
                         f"[0, {rank})")


def _check_indices(op: str, idx: ShapedArray) -> None:
    if not dtypes.is_integer(idx.dtype):
        raise TypeError(f"{op}: indices must have an integer dtype, got {idx.dtype}")
    if idx.ndim < 1:
        raise ValueError(f"{op}: indices must have at least one axis (the last one "
                         f"holds the index vectors), got shape {idx.shape}")


def _check_batching(op: str, x: ShapedArray, idx: ShapedArray,
                    operand_dims: tuple[int, ...], index_dims: tuple[int, ...],
                    names: tuple[str, str]) -> None:
    _sorted_axes(op, names[0], operand_dims, x.ndim)
    _sorted_axes(op, names[1], index_dims, idx.ndim - 1, sorted_=False)
    if len(operand_dims) != len(index_dims):
        raise ValueError(f"{op}: {names[0]} {operand_dims} and {names[1]} "
                         f"{index_dims} must have equal lengths")
    for o, i in zip(operand_dims, index_dims):
        if x.shape[o] != idx.shape[i]:
            raise ValueError(f"{op}: batching axes differ in size: operand axis {o} "
                             f"of shape {x.shape} vs indices axis {i} of shape "
                             f"{idx.shape}")


def _operand_weak(x: ShapedArray, *rest: ShapedArray, **params: Any) -> bool:
    return x.weak_type


# --- helpers of the derivative and batching rules -------------------------------------


# Indices are integers and never differentiable.  Every read-back of a scatter
# (the gather that returns, per update element, the operand element it was
# combined with) uses the scatter's own mode with fill value 0, so a window that
# the scatter drops (fill/drop mode) reads 0 and contributes nothing, and a
# clipped window reads where it was clipped to.  (PROMISE_IN_BOUNDS gathers clamp
# but scatters drop, so out-of-bounds indices, which break that promise, may get
# derivatives inconsistent with the primal.)

def _inverse_gather_dnums(dn: ScatterDimensionNumbers) -> GatherDimensionNumbers:
    """The gather whose output has the shape of the updates of a scatter with
    ``dn`` and reads the operand elements those updates land on."""
    return GatherDimensionNumbers(
        offset_dims=dn.update_window_dims,
        collapsed_slice_dims=dn.inserted_window_dims,
        start_index_map=dn.scatter_dims_to_operand_dims,
        operand_batching_dims=dn.operand_batching_dims,
        start_indices_batching_dims=dn.scatter_indices_batching_dims)


def _inverse_scatter_dnums(dn: GatherDimensionNumbers) -> ScatterDimensionNumbers:
    """The scatter that writes a gather's output back where it was read from."""
    return ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims,
        inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
        operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims)


def _window_sizes(operand_shape: tuple[int, ...], updates_shape: tuple[int, ...],
                  dn: ScatterDimensionNumbers) -> tuple[int, ...]:
    windows = iter(dn.update_window_dims)
    return tuple(
        min(1, n) if d in dn.inserted_window_dims or d in dn.operand_batching_dims
        else updates_shape[next(windows)] for d, n in enumerate(operand_shape))


def _read_back(x: Any, indices: Any, updates_shape: tuple[int, ...],
               dn: ScatterDimensionNumbers, mode: GatherScatterMode) -> Any:
    """Per update element, the element of the operand-shaped ``x`` that a
    scatter with ``dn`` combines it with (0 for windows the scatter drops)."""
    sizes = _window_sizes(get_aval(x).shape, updates_shape, dn)
    return gather(x, indices, _inverse_gather_dnums(dn), sizes, mode=mode,
                  fill_value=0)


def _zeros(shape: tuple[int, ...], dtype: np.dtype) -> Any:
    return shape_ops.full(shape, 0, dtype)


def _as(mask: Any, dtype: np.dtype) -> Any:
    return ew.convert_element_type(mask, dtype)


def _shape_of(x: Any) -> tuple[int, ...]:
    return x.aval.shape if ad.is_undefined_primal(x) else get_aval(x).shape


# Batch axes become an extra window axis (only the operand is batched), an extra
# index batch axis (only the indices/updates are batched), or a pair of batching
# axes (operand_batching_dims / *_indices_batching_dims) when both are, always
# moved to the front first.

def _shift(dims: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(d + 1 for d in dims)


# --- gather ---------------------------------------------------------------------------

def gather(operand: ArrayLike, start_indices: ArrayLike,
           dimension_numbers: GatherDimensionNumbers, slice_sizes: Sequence[int], *,
           unique_indices: bool = False, indices_are_sorted: bool = False,
           mode: str | GatherScatterMode | None = None,
           fill_value: Any = None) -> Any:
    """Gather windows of ``operand`` at the index vectors ``start_indices[..., :]``.

    Parameters
    ----------
    operand : array_like
        The array to read from.
    start_indices : array_like
        Integer indices; the last axis holds the index vectors.
    dimension_numbers : GatherDimensionNumbers
        How windows and index components map to operand and output axes.
    slice_sizes : sequence of int
        The window size along each operand axis (1 on collapsed axes).
    unique_indices, indices_are_sorted : bool
        Promises that let XLA pick faster code; wrong promises give wrong results.
    mode : {None, 'fill', 'drop', 'clip', 'promise_in_bounds'} or GatherScatterMode
        Out-of-bounds handling; ``None`` means ``FILL_OR_DROP`` as in JAX.
    fill_value : scalar, optional
        The value of out-of-bounds windows in fill mode; defaults to NaN for
        inexact dtypes, the minimum for signed, the maximum for unsigned
        integers and True for bool.

    Returns
    -------
    Array
        Batch axes (``start_indices.shape[:-1]``) interleaved with the window
        axes at ``offset_dims``.

    Examples
    --------
    Take rows 2 and 0 of a matrix (``np.take(x, [2, 0], axis=0)``):

    >>> import numpy as np
    >>> from sciax import lax
    >>> x = np.arange(6).reshape(3, 2)
    >>> dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
    ...                                 start_index_map=(0,))
    >>> lax.gather(x, np.array([[2], [0]]), dn, (1, 2))
    Array([[4, 5],
           [0, 1]], dtype=int64)
    """
    dnums = _tuples(dimension_numbers, GatherDimensionNumbers)
    parsed = GatherScatterMode.from_any(mode)
    if parsed is not GatherScatterMode.FILL_OR_DROP:
        fill_value = None
    elif fill_value is not None:
        if not dtypes.is_python_scalar(fill_value):
            arr = np.asarray(fill_value)
            if arr.shape != ():
                raise ValueError(f"gather: fill_value must be a scalar, got shape "
                                 f"{arr.shape}")
            fill_value = arr.item()
    return gather_p.bind(
        operand, start_indices, dimension_numbers=dnums,
        slice_sizes=tuple(int(s) for s in slice_sizes),
        unique_indices=bool(unique_indices),
        indices_are_sorted=bool(indices_are_sorted),
        mode=parsed, fill_value=fill_value)


def _gather_shape_rule(x: ShapedArray, idx: ShapedArray, *,
                       dimension_numbers: GatherDimensionNumbers,
                       slice_sizes: tuple[int, ...], **params: Any) -> tuple[int, ...]:
    dn = dimension_numbers
    _check_indices("gather", idx)
    batch_shape = idx.shape[:-1]
    out_rank = len(batch_shape) + len(dn.offset_dims)
    _sorted_axes("gather", "offset_dims", dn.offset_dims, out_rank)
    _sorted_axes("gather", "collapsed_slice_dims", dn.collapsed_slice_dims, x.ndim)
    _check_batching("gather", x, idx, dn.operand_batching_dims,
                    dn.start_indices_batching_dims,
                    ("operand_batching_dims", "start_indices_batching_dims"))
    if set(dn.collapsed_slice_dims) & set(dn.operand_batching_dims):
        raise ValueError(f"gather: collapsed_slice_dims {dn.collapsed_slice_dims} and "
                         f"operand_batching_dims {dn.operand_batching_dims} overlap")
    if len(slice_sizes) != x.ndim:
        raise ValueError(f"gather: slice_sizes {slice_sizes} need one entry per axis "
                         f"of the operand shape {x.shape}")
    if any(not 0 <= s <= n for s, n in zip(slice_sizes, x.shape)):
        raise ValueError(f"gather: slice_sizes {slice_sizes} must lie between 0 and "
                         f"the operand shape {x.shape}")
    for d in (*dn.collapsed_slice_dims, *dn.operand_batching_dims):
        if slice_sizes[d] > 1:  # 0 when the operand axis is empty, as in JAX
            raise ValueError(f"gather: slice_sizes {slice_sizes} must be 0 or 1 on "
                             f"collapsed and batching axis {d}")
    if len(dn.offset_dims) + len(dn.collapsed_slice_dims) + \
            len(dn.operand_batching_dims) != x.ndim:
        raise ValueError(
            f"gather: offset_dims {dn.offset_dims}, collapsed_slice_dims "
            f"{dn.collapsed_slice_dims} and operand_batching_dims "
            f"{dn.operand_batching_dims} must account for every axis of the operand "
            f"shape {x.shape}")
    if len(dn.start_index_map) != idx.shape[-1]:
        raise ValueError(f"gather: start_index_map {dn.start_index_map} needs one "
                         f"entry per index component; indices have shape {idx.shape}")
    _sorted_axes("gather", "start_index_map", dn.start_index_map, x.ndim, sorted_=False)
    if set(dn.start_index_map) & set(dn.operand_batching_dims):
        raise ValueError(f"gather: start_index_map {dn.start_index_map} must not "
                         f"address operand_batching_dims {dn.operand_batching_dims}")
    window = [s for d, s in enumerate(slice_sizes)
              if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims]
    offsets, batches = iter(window), iter(batch_shape)
    return tuple(next(offsets) if d in dn.offset_dims else next(batches)
                 for d in range(out_rank))


def _gather_dtype_rule(x: ShapedArray, idx: ShapedArray, **params: Any) -> np.dtype:
    return x.dtype


def _default_fill(dtype: np.dtype) -> Any:
    if dtypes.is_inexact(dtype):
        return np.nan
    if dtype == dtypes.bool_:
        return True
    if dtypes.issubdtype(dtype, np.signedinteger):
        return int(np.iinfo(dtype).min)
    return int(np.iinfo(dtype).max)


def _gather_fill(operand: Any, indices: Any, *, dimension_numbers, slice_sizes,
                 unique_indices, indices_are_sorted, mode, fill_value) -> Any:
    """Fill mode as lax code: an in-bounds gather, then ``fill_value`` wherever
    the window of an index vector is not entirely in bounds."""
    dn = dimension_numbers
    out = gather(operand, indices, dn, slice_sizes, unique_indices=unique_indices,
                 indices_are_sorted=indices_are_sorted,
                 mode=GatherScatterMode.PROMISE_IN_BOUNDS)
    x, idx, out_aval = get_aval(operand), get_aval(indices), get_aval(out)
    batch_shape = idx.shape[:-1]
    big = np.iinfo(idx.dtype).max
    mask = None
    for i, d in enumerate(dn.start_index_map):
        comp = shape_ops.reshape(
            shape_ops.slice_in_dim(indices, i, i + 1, axis=idx.ndim - 1), batch_shape)
        ok = ew.ge(comp, 0)
        # a size-0 window on a collapsed (empty) axis has nothing to read
        upper = x.shape[d] - max(slice_sizes[d], 1)
        if upper < big:  # otherwise every representable index is in bounds
            ok = ew.bitwise_and(ok, ew.le(comp, upper))
        mask = ok if mask is None else ew.bitwise_and(mask, ok)
    if mask is None:
        return out
    fill = _default_fill(x.dtype) if fill_value is None else fill_value
    batch_axes = [d for d in range(out_aval.ndim) if d not in dn.offset_dims]
    mask = shape_ops.broadcast_in_dim(mask, out_aval.shape, batch_axes)
    return ew.select(mask, out, shape_ops.full(out_aval.shape, fill, x.dtype))


def _gather_lowering(ctx, operand, indices, *, dimension_numbers, slice_sizes,
                     unique_indices, indices_are_sorted, mode, fill_value):
    if mode is GatherScatterMode.FILL_OR_DROP:
        return lowering.lower_fun(_gather_fill)(
            ctx, operand, indices, dimension_numbers=dimension_numbers,
            slice_sizes=slice_sizes, unique_indices=unique_indices,
            indices_are_sorted=indices_are_sorted, mode=mode, fill_value=fill_value)
    out_aval = ctx.avals_out[0]
    if out_aval.size == 0 or ctx.avals_in[0].size == 0:  # nothing to read
        return lowering.ir_constant(np.zeros(out_aval.shape), out_aval)
    dn = dimension_numbers
    attr = hlo.GatherDimensionNumbers.get(
        offset_dims=list(dn.offset_dims),
        collapsed_slice_dims=list(dn.collapsed_slice_dims),
        operand_batching_dims=list(dn.operand_batching_dims),
        start_indices_batching_dims=list(dn.start_indices_batching_dims),
        start_index_map=list(dn.start_index_map),
        index_vector_dim=ctx.avals_in[1].ndim - 1)
    # XLA's gather clamps windows into bounds, which is CLIP (and a valid
    # answer for PROMISE_IN_BOUNDS)
    return hlo.gather(operand, indices, attr,
                      ir.DenseI64ArrayAttr.get(list(slice_sizes)),
                      indices_are_sorted=ir.BoolAttr.get(indices_are_sorted))


# gather is linear in the operand: its JVP gathers the tangent (out-of-bounds
# windows of fill mode have a zero tangent, whatever fill_value is) and its
# transpose adds the cotangent back into zeros at the same windows, with the same
# mode, so that fill mode's out-of-bounds windows are dropped again.

def _gather_jvp(t, operand, indices, *, dimension_numbers, slice_sizes,
                unique_indices, indices_are_sorted, mode, fill_value):
    return gather(t, indices, dimension_numbers, slice_sizes,
                  unique_indices=unique_indices, indices_are_sorted=indices_are_sorted,
                  mode=mode, fill_value=0)


def _gather_transpose(ct, operand, indices, *, dimension_numbers, slice_sizes,
                      unique_indices, indices_are_sorted, mode, fill_value):
    if type(ct) is ad.Zero:
        return [ad.Zero(operand.aval), None]
    zeros = _zeros(operand.aval.shape, operand.aval.dtype)
    return [scatter_add(zeros, indices, ct, _inverse_scatter_dnums(dimension_numbers),
                        indices_are_sorted=indices_are_sorted,
                        unique_indices=unique_indices, mode=mode), None]


def _gather_batch(vals, dims, *, dimension_numbers, slice_sizes, unique_indices,
                  indices_are_sorted, mode, fill_value):
    x, idx = vals
    x_dim, idx_dim = dims
    dn = dimension_numbers
    kw = dict(mode=mode, fill_value=fill_value)
    if idx_dim is batching.not_mapped:
        # the batch axis is one more (whole) window axis, the first one
        x = batching.moveaxis(x, x_dim, 0)
        dnums = GatherDimensionNumbers(
            offset_dims=(0, *_shift(dn.offset_dims)),
            collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
            start_index_map=_shift(dn.start_index_map),
            operand_batching_dims=_shift(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims)
        sizes = (get_aval(x).shape[0], *slice_sizes)
        return gather(x, idx, dnums, sizes, unique_indices=unique_indices,
                      indices_are_sorted=indices_are_sorted, **kw), 0
    idx = batching.moveaxis(idx, idx_dim, 0)
    if x_dim is batching.not_mapped:
        # one more index batch axis, first among the output's batch axes; batch
        # members may read the same elements, so the promises no longer hold
        dnums = dn._replace(offset_dims=_shift(dn.offset_dims),
                            start_indices_batching_dims=_shift(
                                dn.start_indices_batching_dims))
        return gather(x, idx, dnums, slice_sizes, **kw), 0
    x = batching.moveaxis(x, x_dim, 0)
    dnums = GatherDimensionNumbers(
        offset_dims=_shift(dn.offset_dims),
        collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
        start_index_map=_shift(dn.start_index_map),
        operand_batching_dims=(0, *_shift(dn.operand_batching_dims)),
        start_indices_batching_dims=(0, *_shift(dn.start_indices_batching_dims)))
    sizes = (min(1, get_aval(x).shape[0]), *slice_sizes)
    return gather(x, idx, dnums, sizes, unique_indices=unique_indices, **kw), 0


gather_p = standard_primitive(_gather_shape_rule, _gather_dtype_rule, "gather",
                              _operand_weak)
register_lowering(gather_p, _gather_lowering)
ad.defjvp(gather_p, _gather_jvp, None)
ad.primitive_transposes[gather_p] = _gather_transpose
batching.primitive_batchers[gather_p] = _gather_batch


# --- scatter family -------------------------------------------------------------------

def _scatter_shape_rule(op: str):
    def rule(x: ShapedArray, idx: ShapedArray, upd: ShapedArray, *,
             dimension_numbers: ScatterDimensionNumbers, **params: Any
             ) -> tuple[int, ...]:
        return _scatter_shape(op, x, idx, upd, dimension_numbers)
    return rule


def _scatter_shape(op: str, x: ShapedArray, idx: ShapedArray, upd: ShapedArray,
                   dn: ScatterDimensionNumbers) -> tuple[int, ...]:
    _check_indices(op, idx)
    _sorted_axes(op, "update_window_dims", dn.update_window_dims, upd.ndim)
    _sorted_axes(op, "inserted_window_dims", dn.inserted_window_dims, x.ndim)
    _check_batching(op, x, idx, dn.operand_batching_dims,
                    dn.scatter_indices_batching_dims,
                    ("operand_batching_dims", "scatter_indices_batching_dims"))
    if set(dn.inserted_window_dims) & set(dn.operand_batching_dims):
        raise ValueError(f"{op}: inserted_window_dims {dn.inserted_window_dims} and "
                         f"operand_batching_dims {dn.operand_batching_dims} overlap")
    if len(dn.update_window_dims) + len(dn.inserted_window_dims) + \
            len(dn.operand_batching_dims) != x.ndim:
        raise ValueError(
            f"{op}: update_window_dims {dn.update_window_dims}, inserted_window_dims "
            f"{dn.inserted_window_dims} and operand_batching_dims "
            f"{dn.operand_batching_dims} must account for every axis of the operand "
            f"shape {x.shape}")
    if len(dn.scatter_dims_to_operand_dims) != idx.shape[-1]:
        raise ValueError(f"{op}: scatter_dims_to_operand_dims "
                         f"{dn.scatter_dims_to_operand_dims} needs one entry per index "
                         f"component; indices have shape {idx.shape}")
    _sorted_axes(op, "scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims,
                 x.ndim, sorted_=False)
    if set(dn.scatter_dims_to_operand_dims) & set(dn.operand_batching_dims):
        raise ValueError(f"{op}: scatter_dims_to_operand_dims must not address "
                         f"operand_batching_dims {dn.operand_batching_dims}")
    scatter_shape = tuple(n for d, n in enumerate(upd.shape)
                          if d not in dn.update_window_dims)
    if scatter_shape != idx.shape[:-1]:
        raise ValueError(f"{op}: updates shape {upd.shape} has scatter axes of shape "
                         f"{scatter_shape}, which must equal the indices batch shape "
                         f"{idx.shape[:-1]}")
    window_axes = [d for d in range(x.ndim) if d not in dn.inserted_window_dims
                   and d not in dn.operand_batching_dims]
    for d, u in zip(window_axes, dn.update_window_dims):
        if upd.shape[u] > x.shape[d]:
            raise ValueError(f"{op}: update window of shape {upd.shape} does not fit "
                             f"in operand of shape {x.shape} (updates axis {u} vs "
                             f"operand axis {d})")
    return x.shape


def _scatter_dtype_rule(name: str, accepted: frozenset):
    def rule(x: ShapedArray, idx: ShapedArray, upd: ShapedArray, **params: Any
             ) -> np.dtype:
        if x.dtype != upd.dtype:
            raise TypeError(f"{name}: updates dtype {upd.dtype} must equal the operand "
                            f"dtype {x.dtype}")
        if x.dtype not in accepted:
            raise TypeError(f"{name} does not accept dtype {x.dtype}; expected a "
                            f"{describe(accepted)} dtype")
        return x.dtype
    return rule


def _clamp_scatter_indices(operand: Any, indices: Any, updates: Any, *,
                           dimension_numbers: ScatterDimensionNumbers) -> Any:
    """Clamp every index component so that its whole window is in bounds."""
    dn = dimension_numbers
    x, idx, upd = get_aval(operand), get_aval(indices), get_aval(updates)
    window = [1] * x.ndim
    window_axes = [d for d in range(x.ndim) if d not in dn.inserted_window_dims
                   and d not in dn.operand_batching_dims]
    for d, u in zip(window_axes, dn.update_window_dims):
        window[d] = upd.shape[u]
    upper = np.array([x.shape[d] - window[d] for d in dn.scatter_dims_to_operand_dims],
                     idx.dtype)
    upper = shape_ops.broadcast_in_dim(upper, idx.shape, (idx.ndim - 1,))
    return ew.clamp(0, indices, upper)


@functools.lru_cache(maxsize=None)
def _combiner_jaxpr(combine: Callable[[Any, Any], Any], dtype: np.dtype) -> Any:
    scalar = ShapedArray((), dtype)
    return trace_to_jaxpr(lambda a, b: [combine(a, b)], [scalar, scalar])


def _scatter_lowering(combine: Callable[[Any, Any], Any] | None):
    """The lowering of a scatter whose region combines ``(old, update)`` with
    ``combine`` (written in lax), or replaces when ``combine`` is None."""
    def rule(ctx, operand, indices, updates, *, dimension_numbers, indices_are_sorted,
             unique_indices, mode):
        x, idx, upd = ctx.avals_in
        if x.size == 0 or upd.size == 0:  # nothing is written
            return operand
        if mode is GatherScatterMode.CLIP:
            sub = lowering.LoweringRuleContext(ctx.module_ctx, None, ctx.avals_in,
                                               [idx])
            indices, = lowering.lower_fun(_clamp_scatter_indices)(
                sub, operand, indices, updates, dimension_numbers=dimension_numbers)
        dn = dimension_numbers
        attr = hlo.ScatterDimensionNumbers.get(
            update_window_dims=list(dn.update_window_dims),
            inserted_window_dims=list(dn.inserted_window_dims),
            input_batching_dims=list(dn.operand_batching_dims),
            scatter_indices_batching_dims=list(dn.scatter_indices_batching_dims),
            scattered_dims_to_operand_dims=list(dn.scatter_dims_to_operand_dims),
            index_vector_dim=idx.ndim - 1)
        # XLA's scatter drops windows that are not entirely in bounds: that is
        # FILL_OR_DROP, and CLIP has clamped the indices above
        op = hlo.ScatterOp([lowering.aval_to_ir_type(ctx.avals_out[0])], [operand],
                           indices, [updates], attr,
                           indices_are_sorted=ir.BoolAttr.get(indices_are_sorted),
                           unique_indices=ir.BoolAttr.get(unique_indices))
        scalar = lowering.aval_to_ir_type(ShapedArray((), x.dtype))
        block = op.update_computation.blocks.append(scalar, scalar)
        with ir.InsertionPoint(block):
            old, new = block.arguments
            if combine is None:
                out = new
            else:
                closed = _combiner_jaxpr(combine, x.dtype)
                consts = [lowering.ir_constant(np.asarray(c), v.aval)
                          for c, v in zip(closed.consts, closed.jaxpr.constvars)]
                out, = lowering.jaxpr_subcomp(ctx.module_ctx, closed.jaxpr,
                                              [*consts, old, new])
            hlo.return_([out])
        return op.result
    return rule


def _scatter_batch(prim):
    def rule(vals, dims, *, dimension_numbers, indices_are_sorted, unique_indices,
             mode):
        x, idx, upd = vals
        x_dim, idx_dim, upd_dim = dims
        dn = dimension_numbers
        size = batching.batch_size(vals, dims)
        # the result is batched, so an unbatched operand is materialised
        x = batching.bdim_at_front(x, x_dim, size)
        upd = batching.bdim_at_front(upd, upd_dim, size)
        if idx_dim is batching.not_mapped:
            dnums = ScatterDimensionNumbers(
                update_window_dims=(0, *_shift(dn.update_window_dims)),
                inserted_window_dims=_shift(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=_shift(dn.operand_batching_dims),
                scatter_indices_batching_dims=dn.scatter_indices_batching_dims)
            sorted_ = indices_are_sorted
        else:
            idx = batching.moveaxis(idx, idx_dim, 0)
            dnums = ScatterDimensionNumbers(
                update_window_dims=_shift(dn.update_window_dims),
                inserted_window_dims=_shift(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=(0, *_shift(dn.operand_batching_dims)),
                scatter_indices_batching_dims=(
                    0, *_shift(dn.scatter_indices_batching_dims)))
            sorted_ = False
        # each batch member writes only its own slice: uniqueness is preserved
        return prim.bind(x, idx, upd, dimension_numbers=dnums,
                         indices_are_sorted=sorted_, unique_indices=unique_indices,
                         mode=mode), 0
    return rule


def _scatter_primitive(name: str, accepted: frozenset,
                       combine: Callable[[Any, Any], Any] | None):
    prim = standard_primitive(_scatter_shape_rule(name),
                              _scatter_dtype_rule(name, accepted),
                              name, _operand_weak)
    register_lowering(prim, _scatter_lowering(combine))
    batching.primitive_batchers[prim] = _scatter_batch(prim)
    return prim


def _bind_scatter(prim, operand, scatter_indices, updates, dimension_numbers,
                  indices_are_sorted, unique_indices, mode):
    return prim.bind(operand, scatter_indices, updates,
                     dimension_numbers=_tuples(dimension_numbers,
                                               ScatterDimensionNumbers),
                     indices_are_sorted=bool(indices_are_sorted),
                     unique_indices=bool(unique_indices),
                     mode=GatherScatterMode.from_any(mode))


_SCATTER_DOC = """{summary}

    Parameters
    ----------
    operand : array_like
        The array to update (it is not modified; a new array is returned).
    scatter_indices : array_like
        Integer indices; the last axis holds the index vectors.
    updates : array_like
        The windows to apply, of ``operand``'s dtype; its non-window axes match
        ``scatter_indices.shape[:-1]``.
    dimension_numbers : ScatterDimensionNumbers
        How window and index axes map to operand axes.
    indices_are_sorted, unique_indices : bool
        Promises that let XLA pick faster code; wrong promises give wrong results.
    mode : {{None, 'fill', 'drop', 'clip', 'promise_in_bounds'}} or GatherScatterMode
        Out-of-bounds handling; ``None`` (as in JAX) drops windows that are not
        entirely in bounds, ``'clip'`` clamps them into bounds.

    Returns
    -------
    Array
        ``operand`` with the updates applied.  {dups}

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> dn = lax.ScatterDimensionNumbers(update_window_dims=(),
    ...     inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    >>> lax.{name}(np.array([1, 5, 2]), np.array({indices}),
    ...            np.array([4, 3, 7]), dn)
    {example}
    """


def _scatter_wrapper(prim, name: str, summary: str, dups: str, example: str,
                     indices: str = "[[0], [0], [2]]"):
    def op(operand: ArrayLike, scatter_indices: ArrayLike, updates: ArrayLike,
           dimension_numbers: ScatterDimensionNumbers, *,
           indices_are_sorted: bool = False, unique_indices: bool = False,
           mode: str | GatherScatterMode | None = None) -> Any:
        return _bind_scatter(prim, operand, scatter_indices, updates,
                             dimension_numbers, indices_are_sorted, unique_indices,
                             mode)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = _SCATTER_DOC.format(summary=summary, dups=dups, name=name,
                                     example=example, indices=indices)
    return op


_dups = "With repeated indices, {0}."


# --- scatter --------------------------------------------------------------------------


# scatter (overwrite).  With repeated indices XLA does not specify which update is
# written.  The JVP does not guess: it scatters a distinct id per index vector
# with the same scatter, reads the ids back, and so learns which update element
# was written and which operand elements were kept; the primal and the tangent
# are then both computed from these masks with scatter_add, so they agree with
# each other whichever update XLA picked.  The masks make the result linear in
# (operand, updates), so reverse mode needs only scatter_add's transpose.

def _scatter_winners(operand_shape: tuple[int, ...], indices: Any,
                     updates_shape: tuple[int, ...], dn: ScatterDimensionNumbers,
                     indices_are_sorted: bool, mode: GatherScatterMode
                     ) -> tuple[Any, Any]:
    """``(won, kept)``: boolean masks of the update elements that a scatter
    writes and of the operand elements that no update overwrites."""
    scatter_axes = [d for d in range(len(updates_shape))
                    if d not in dn.update_window_dims]
    scatter_shape = tuple(updates_shape[d] for d in scatter_axes)
    n = int(np.prod(scatter_shape, dtype=np.int64))
    id_dtype = dtypes.canonicalize_dtype(np.int32 if n < 2**31 - 1 else np.int64)
    ids = ew.add(shape_ops.reshape(shape_ops.iota(id_dtype, n), scatter_shape), 1)
    if scatter_shape != updates_shape:
        ids = shape_ops.broadcast_in_dim(ids, updates_shape, scatter_axes)
    written = scatter(_zeros(operand_shape, id_dtype), indices, ids, dn,
                      indices_are_sorted=indices_are_sorted, mode=mode)
    won = ew.eq(_read_back(written, indices, updates_shape, dn, mode), ids)
    return won, ew.eq(written, 0)


def _scatter_jvp(primals, tangents, *, dimension_numbers, indices_are_sorted,
                 unique_indices, mode):
    x, i, y = primals
    tx, _, ty = tangents
    params = dict(dimension_numbers=dimension_numbers,
                  indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                  mode=mode)
    if unique_indices:
        out = scatter_p.bind(x, i, y, **params)
        return out, scatter_p.bind(ad.instantiate_zeros(tx), i,
                                   ad.instantiate_zeros(ty), **params)
    xa, ya = get_aval(x), get_aval(y)
    won, kept = _scatter_winners(xa.shape, i, ya.shape, dimension_numbers,
                                 indices_are_sorted, mode)
    zx, zy = _zeros(xa.shape, xa.dtype), _zeros(ya.shape, ya.dtype)
    out = scatter_add_p.bind(ew.select(kept, x, zx), i, ew.select(won, y, zy),
                             **params)
    t_x = zx if type(tx) is ad.Zero else ew.select(kept, tx, zx)
    if type(ty) is ad.Zero:
        return out, t_x
    return out, scatter_add_p.bind(t_x, i, ew.select(won, ty, zy), **params)


def _scatter_transpose(ct, x, i, y, *, dimension_numbers, indices_are_sorted,
                       unique_indices, mode):
    # scatter is linear in (operand, updates) jointly: the operand's cotangent is
    # ct with the written elements zeroed, the updates' is ct read back at the
    # elements each update wrote (masked to the winners if indices repeat)
    if type(ct) is ad.Zero:
        return [None, None, None]
    dn = dimension_numbers
    y_shape = _shape_of(y)
    ct_x = ct_y = None
    if ad.is_undefined_primal(x):
        ct_x = scatter(ct, i, _zeros(y_shape, get_aval(ct).dtype), dn,
                       indices_are_sorted=indices_are_sorted,
                       unique_indices=unique_indices, mode=mode)
    if ad.is_undefined_primal(y):
        ct_y = _read_back(ct, i, y_shape, dn, mode)
        if not unique_indices:
            won, _ = _scatter_winners(get_aval(ct).shape, i, y_shape, dn,
                                      indices_are_sorted, mode)
            ct_y = ew.select(won, ct_y, _zeros(y_shape, get_aval(ct).dtype))
    return [ct_x, None, ct_y]


scatter_p = _scatter_primitive("scatter", _any, None)
scatter = _scatter_wrapper(
    scatter_p, "scatter", "Write windows of ``updates`` into ``operand``.",
    "With repeated indices, which update wins is unspecified.",
    "Array([4, 3, 7], dtype=int64)", "[[0], [1], [2]]")
ad.primitive_jvps[scatter_p] = _scatter_jvp
ad.primitive_transposes[scatter_p] = _scatter_transpose


# --- scatter_add, scatter_sub ---------------------------------------------------------


# scatter_add and scatter_sub are linear in (operand, updates) jointly.

def _scatter_addsub_jvp(prim):
    def jvp(primals, tangents, **params):
        x, i, y = primals
        tx, _, ty = tangents
        out = prim.bind(x, i, y, **params)
        if type(ty) is ad.Zero:  # adding zeros: the operand tangent passes through
            return out, tx
        tx = _zeros(get_aval(x).shape, get_aval(x).dtype) if type(tx) is ad.Zero \
            else tx
        return out, prim.bind(tx, i, ty, **params)
    return jvp


def _scatter_addsub_transpose(prim):
    def rule(ct, x, i, y, *, dimension_numbers, indices_are_sorted, unique_indices,
             mode):
        if type(ct) is ad.Zero:
            return [None, None, None]
        ct_y = None
        if ad.is_undefined_primal(y):
            ct_y = _read_back(ct, i, y.aval.shape, dimension_numbers, mode)
            if prim is scatter_sub_p:
                ct_y = ew.neg(ct_y)
        return [ct if ad.is_undefined_primal(x) else None, None, ct_y]
    return rule


def _add_or_or(a, b):
    # bool scatter_add is logical or, as StableHLO's add on i1
    return ew.bitwise_or(a, b) if get_aval(a).dtype == dtypes.bool_ else ew.add(a, b)


scatter_add_p = _scatter_primitive("scatter_add", _num | _bool, _add_or_or)
scatter_add = _scatter_wrapper(
    scatter_add_p, "scatter_add", "Add windows of ``updates`` into ``operand``, as "
    "``np.add.at``.", _dups.format("all updates are added"),
    "Array([8, 5, 9], dtype=int64)")
ad.primitive_jvps[scatter_add_p] = _scatter_addsub_jvp(scatter_add_p)
ad.primitive_transposes[scatter_add_p] = _scatter_addsub_transpose(scatter_add_p)

scatter_sub_p = _scatter_primitive("scatter_sub", _num, ew.sub)
scatter_sub = _scatter_wrapper(
    scatter_sub_p, "scatter_sub", "Subtract windows of ``updates`` from "
    "``operand``, as ``np.subtract.at``.", _dups.format(
        "all updates are subtracted"), "Array([-6,  5, -5], dtype=int64)")
ad.primitive_jvps[scatter_sub_p] = _scatter_addsub_jvp(scatter_sub_p)
ad.primitive_transposes[scatter_sub_p] = _scatter_addsub_transpose(scatter_sub_p)


# --- scatter_mul ----------------------------------------------------------------------


# scatter_mul: out = x * prod(updates landing on x).  d out / d y_k is x times
# the product of the *other* factors landing on the same element.  With unique
# indices there are none.  Otherwise, to stay exact when some factors are zero,
# the other factors' product is formed from the product P of the nonzero factors
# and the count Z of zero factors at each element: for y_k != 0 it is P / y_k if
# Z == 0 and 0 otherwise; for y_k == 0 it is P if Z == 1 and 0 otherwise.  (At a
# point where two factors on one element are both zero the first derivative is
# exact but a second derivative across those two factors is reported as 0.)

def _other_factors(x_shape: tuple[int, ...], i: Any, y: Any,
                   dn: ScatterDimensionNumbers, params: dict) -> Any:
    ya = get_aval(y)
    zero_y = ew.eq(y, 0)
    ones_y = shape_ops.full(ya.shape, 1, ya.dtype)
    safe_y = ew.select(zero_y, ones_y, y)
    prod = scatter_mul_p.bind(shape_ops.full(x_shape, 1, ya.dtype), i, safe_y,
                              **params)
    nzero = scatter_add_p.bind(_zeros(x_shape, ya.dtype), i, _as(zero_y, ya.dtype),
                               **params)
    prod = _read_back(prod, i, ya.shape, dn, params["mode"])
    nzero = _read_back(nzero, i, ya.shape, dn, params["mode"])
    zy = _zeros(ya.shape, ya.dtype)
    if_zero = ew.select(ew.eq(nzero, 1), prod, zy)
    if_nonzero = ew.select(ew.eq(nzero, 0), ew.div(prod, safe_y), zy)
    return ew.select(zero_y, if_zero, if_nonzero)


def _scatter_mul_jvp(primals, tangents, **params):
    x, i, y = primals
    tx, _, ty = tangents
    out = scatter_mul_p.bind(x, i, y, **params)
    acc: Any = ad.Zero(get_aval(out))
    if type(tx) is not ad.Zero:
        acc = scatter_mul_p.bind(tx, i, y, **params)
    if type(ty) is not ad.Zero:
        xa = get_aval(x)
        if not params["unique_indices"]:
            ty = ew.mul(ty, _other_factors(xa.shape, i, y,
                                           params["dimension_numbers"], params))
        acc = ad.add_tangents(acc, ew.mul(x, scatter_add_p.bind(
            _zeros(xa.shape, xa.dtype), i, ty, **params)))
    return out, acc


def _scatter_mul_transpose(ct, x, i, y, **params):
    if ad.is_undefined_primal(y):
        raise NotImplementedError(
            "scatter_mul is linear in its operand only, not in its updates; it "
            "cannot be transposed with respect to the updates")
    if type(ct) is ad.Zero:
        return [None, None, None]
    return [scatter_mul_p.bind(ct, i, y, **params), None, None]


def _mul_or_and(a, b):
    return ew.bitwise_and(a, b) if get_aval(a).dtype == dtypes.bool_ else ew.mul(a, b)


scatter_mul_p = _scatter_primitive("scatter_mul", _num | _bool, _mul_or_and)
scatter_mul = _scatter_wrapper(
    scatter_mul_p, "scatter_mul", "Multiply ``operand`` by windows of ``updates``, "
    "as ``np.multiply.at``.", _dups.format("all factors apply"),
    "Array([12,  5, 14], dtype=int64)")
ad.primitive_jvps[scatter_mul_p] = _scatter_mul_jvp
ad.primitive_transposes[scatter_mul_p] = _scatter_mul_transpose


# --- scatter_min, scatter_max ---------------------------------------------------------


# scatter_min/max: each output element takes the tangent of whichever of its
# operand element and the updates landing on it equal the result; ties share the
# tangent equally (as lax.max and lax.min do).  A NaN result keeps the operand's
# tangent.

def _scatter_extremum_jvp(prim):
    def jvp(primals, tangents, **params):
        x, i, y = primals
        tx, _, ty = tangents
        dn, mode = params["dimension_numbers"], params["mode"]
        out = prim.bind(x, i, y, **params)
        xa, ya = get_aval(x), get_aval(y)
        won = _as(ew.eq(y, _read_back(out, i, ya.shape, dn, mode)), ya.dtype)
        kept = _as(ew.bitwise_or(ew.eq(x, out), ew.ne(out, out)), xa.dtype)
        zx = _zeros(xa.shape, xa.dtype)
        count = ew.add(kept, scatter_add_p.bind(zx, i, won, **params))
        num: Any = ad.Zero(xa)
        if type(tx) is not ad.Zero:
            num = ew.mul(kept, tx)
        if type(ty) is not ad.Zero:
            num = ad.add_tangents(num, scatter_add_p.bind(zx, i, ew.mul(won, ty),
                                                          **params))
        return out, ew.div(num, ew.max(count, 1))
    return jvp


scatter_min_p = _scatter_primitive("scatter_min", _any, ew.min)
scatter_min = _scatter_wrapper(
    scatter_min_p, "scatter_min", "Elementwise minimum of ``operand`` and windows of "
    "``updates``, as ``np.minimum.at``.", _dups.format(
        "the smallest wins"), "Array([1, 5, 2], dtype=int64)")
ad.primitive_jvps[scatter_min_p] = _scatter_extremum_jvp(scatter_min_p)

scatter_max_p = _scatter_primitive("scatter_max", _any, ew.max)
scatter_max = _scatter_wrapper(
    scatter_max_p, "scatter_max", "Elementwise maximum of ``operand`` and windows of "
    "``updates``, as ``np.maximum.at``.", _dups.format(
        "the largest wins"), "Array([4, 5, 7], dtype=int64)")
ad.primitive_jvps[scatter_max_p] = _scatter_extremum_jvp(scatter_max_p)


__all__ = [
    "GatherScatterMode", "GatherDimensionNumbers", "ScatterDimensionNumbers",
    "gather", "scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min",
    "scatter_max", "gather_p", "scatter_p", "scatter_add_p", "scatter_sub_p",
    "scatter_mul_p", "scatter_min_p", "scatter_max_p",
]
