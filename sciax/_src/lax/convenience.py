"""Small ``jax.lax`` conveniences composed of existing primitives: ``square``,
``reciprocal``, ``stack``/``unstack``, ``split``, ``tile``, ``collapse``,
``broadcast_to_rank``, ``broadcast_like``, ``broadcast_shapes``, ``empty`` and
``dynamic_update_index_in_dim``.  None adds a primitive, so each inherits the
derivative, batching and lowering rules of the operations it is made of.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax._src.core.avals import get_aval
from sciax._src.lax import elementwise as ew
from sciax._src.lax import shape_ops

__all__ = ["square", "reciprocal", "stack", "unstack", "split", "tile", "collapse",
           "broadcast_to_rank", "broadcast_like", "broadcast_shapes", "empty",
           "dynamic_update_index_in_dim"]


def square(x: Any) -> Any:
    """``x * x`` elementwise.

    Examples
    --------
    >>> lax.square(snp.array([-2.0, 3.0]))
    Array([4., 9.], dtype=float64)
    """
    return ew.integer_pow(x, 2)


def reciprocal(x: Any) -> Any:
    """``1 / x`` elementwise.

    Examples
    --------
    >>> lax.reciprocal(snp.array([2.0, -4.0]))
    Array([ 0.5 , -0.25], dtype=float64)
    """
    return ew.integer_pow(x, -1)


def _axis(name: str, axis: int, ndim: int) -> int:
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{name}: axis {axis} is out of range for rank {ndim}")
    return axis % ndim


def stack(operands: Sequence[Any], axis: int = 0) -> Any:
    """Join arrays of one shape along a new ``axis``.

    Examples
    --------
    >>> lax.stack([snp.zeros(2), snp.ones(2)], axis=1)
    Array([[0., 1.],
           [0., 1.]], dtype=float64)
    """
    operands = list(operands)
    if not operands:
        raise ValueError("stack: needs at least one array")
    axis = _axis("stack", axis, get_aval(operands[0]).ndim + 1)
    return shape_ops.concatenate([shape_ops.expand_dims(x, (axis,)) for x in operands],
                                 axis)


def unstack(x: Any, axis: int = 0) -> tuple[Any, ...]:
    """The slices of ``x`` along ``axis``, as a tuple.

    Examples
    --------
    >>> [float(v) for v in lax.unstack(snp.array([1.0, 2.0]))]
    [1.0, 2.0]
    """
    aval = get_aval(x)
    axis = _axis("unstack", axis, aval.ndim)
    return tuple(shape_ops.index_in_dim(x, i, axis, keepdims=False)
                 for i in range(aval.shape[axis]))


def split(operand: Any, sizes: Sequence[int], axis: int = 0) -> list[Any]:
    """Consecutive pieces of ``operand`` along ``axis`` with the given ``sizes``.

    Examples
    --------
    >>> [p.shape for p in lax.split(snp.arange(5.0), (2, 3))]
    [(2,), (3,)]
    """
    aval = get_aval(operand)
    axis = _axis("split", axis, aval.ndim)
    sizes = [operator.index(s) for s in sizes]
    if any(s < 0 for s in sizes) or sum(sizes) != aval.shape[axis]:
        raise ValueError(f"split: sizes {sizes} must be non-negative and sum to the "
                         f"axis length {aval.shape[axis]}")
    starts = np.cumsum([0, *sizes])
    return [shape_ops.slice_in_dim(operand, int(a), int(b), 1, axis)
            for a, b in zip(starts[:-1], starts[1:])]


def tile(operand: Any, reps: Sequence[int]) -> Any:
    """``operand`` repeated ``reps[i]`` times along each axis (``len(reps)``
    must equal its rank).

    Examples
    --------
    >>> lax.tile(snp.array([1.0, 2.0]), (3,))
    Array([1., 2., 1., 2., 1., 2.], dtype=float64)
    """
    aval = get_aval(operand)
    reps = tuple(operator.index(r) for r in reps)
    if len(reps) != aval.ndim:
        raise ValueError(f"tile: len(reps) = {len(reps)} must equal the operand's "
                         f"rank {aval.ndim}")
    # broadcast to (r0, n0, r1, n1, ...) then merge each pair
    shape = [d for pair in zip(reps, aval.shape) for d in pair]
    dims = tuple(range(1, 2 * aval.ndim, 2))
    out = shape_ops.broadcast_in_dim(operand, shape, dims)
    return shape_ops.reshape(out, tuple(r * n for r, n in zip(reps, aval.shape)))


def collapse(operand: Any, start_dimension: int, stop_dimension: int | None = None
             ) -> Any:
    """Merge axes ``start_dimension:stop_dimension`` into one.

    Examples
    --------
    >>> lax.collapse(snp.zeros((2, 3, 4)), 1).shape
    (2, 12)
    """
    shape = get_aval(operand).shape
    lo, hi, _ = slice(start_dimension, stop_dimension).indices(len(shape))
    if hi < lo:
        raise ValueError(f"collapse: empty dimension range [{start_dimension}, "
                         f"{stop_dimension}) for shape {shape}")
    new = (*shape[:lo], math.prod(shape[lo:hi]), *shape[hi:])
    return shape_ops.reshape(operand, new)


def broadcast_to_rank(x: Any, rank: int) -> Any:
    """``x`` with leading axes of length 1 added up to ``rank``.

    Examples
    --------
    >>> lax.broadcast_to_rank(snp.ones(3), 3).shape
    (1, 1, 3)
    """
    ndim = get_aval(x).ndim
    if rank < ndim:
        raise ValueError(f"broadcast_to_rank: rank {rank} is below the array's "
                         f"rank {ndim}")
    return shape_ops.expand_dims(x, tuple(range(rank - ndim)))


def broadcast_like(arr: Any, like_arr: Any) -> Any:
    """``arr`` broadcast (NumPy rules) to the shape of ``like_arr``.

    Examples
    --------
    >>> lax.broadcast_like(snp.array([1.0, 2.0]), snp.zeros((2, 2)))
    Array([[1., 2.],
           [1., 2.]], dtype=float64)
    """
    a, like = get_aval(arr), get_aval(like_arr)
    shape = broadcast_shapes(a.shape, like.shape)
    if shape != like.shape:
        raise ValueError(f"broadcast_like: shape {a.shape} does not broadcast to "
                         f"{like.shape}")
    return shape_ops.broadcast_in_dim(arr, shape,
                                      tuple(range(len(shape) - a.ndim, len(shape))))


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The NumPy broadcast of ``shapes``.

    Examples
    --------
    >>> lax.broadcast_shapes((2, 1), (3,))
    (2, 3)
    """
    try:
        return tuple(np.broadcast_shapes(*[tuple(s) for s in shapes]))
    except ValueError:
        raise ValueError(f"broadcast_shapes: incompatible shapes "
                         f"{[tuple(s) for s in shapes]}") from None


def empty(shape: Sequence[int], dtype: Any, *, out_sharding: Any = None) -> Any:
    """An array of ``shape`` and ``dtype`` whose values must not be relied on
    (sciax fills it with zeros).

    Examples
    --------
    >>> lax.empty((2,), np.float32).shape
    (2,)
    """
    return shape_ops.full(tuple(shape), 0, dtype)


def dynamic_update_index_in_dim(operand: Any, update: Any, index: Any, axis: int,
                                *, allow_negative_indices: bool = True) -> Any:
    """``operand`` with its slice at ``index`` along ``axis`` replaced by
    ``update`` (which lacks that axis, or has it with length 1).

    Examples
    --------
    >>> lax.dynamic_update_index_in_dim(snp.zeros(3), 5.0, 1, 0)
    Array([0., 5., 0.], dtype=float64)
    """
    aval = get_aval(operand)
    axis = _axis("dynamic_update_index_in_dim", axis, aval.ndim)
    if get_aval(update).ndim == aval.ndim - 1:
        update = shape_ops.expand_dims(update, (axis,))
    if allow_negative_indices and isinstance(index, int | np.integer) and index < 0:
        index = int(index) + aval.shape[axis]
    return shape_ops.dynamic_update_slice_in_dim(
        operand, ew.convert_element_type(update, aval.dtype), index, axis)
