"""Shape manipulation and joining: reshape, ravel, transpose, swapaxes,
moveaxis, squeeze, expand_dims, broadcast_to, concatenate, stack, hstack,
vstack, and the shape/ndim/size queries."""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import canonicalize_shape, get_aval
from sciax._src.numpy import util

ArrayLike = Any


def shape(a: ArrayLike) -> tuple[int, ...]:
    """The shape of ``a``."""
    util.check_arraylike("shape", a)
    return get_aval(util.as_operand("shape", a)).shape


def ndim(a: ArrayLike) -> int:
    """The number of dimensions of ``a``."""
    return len(shape(a))


def size(a: ArrayLike, axis: int | None = None) -> int:
    """The number of elements of ``a`` (along ``axis`` if given)."""
    s = shape(a)
    if axis is None:
        return math.prod(s)
    return s[util.canonicalize_axis(axis, len(s))]


def _resolve_shape(name: str, newshape: Any, size: int, old: tuple[int, ...]
                   ) -> tuple[int, ...]:
    if isinstance(newshape, int | np.integer):
        newshape = (newshape,)
    try:
        dims = [operator.index(d) for d in newshape]
    except TypeError:
        raise TypeError(f"{name}: shape must be an integer or a sequence of integers, "
                        f"got {newshape!r}") from None
    unknown = [i for i, d in enumerate(dims) if d == -1]
    if len(unknown) > 1:
        raise ValueError(f"{name}: can only specify one unknown dimension (-1), got "
                         f"{tuple(dims)}")
    if builtins.any(d < -1 for d in dims):
        raise ValueError(f"{name}: negative dimensions are not allowed, got "
                         f"{tuple(dims)}")
    known = math.prod(d for d in dims if d != -1)
    if unknown:
        if known == 0 or size % known:
            raise ValueError(f"{name}: cannot reshape array of size {size} (shape "
                             f"{old}) into shape {tuple(dims)}")
        dims[unknown[0]] = size // known
    if math.prod(dims) != size:
        raise ValueError(f"{name}: cannot reshape array of size {size} (shape {old}) "
                         f"into shape {tuple(dims)}")
    return tuple(dims)


def reshape(a: ArrayLike, shape: Any = None, order: str = "C", *, newshape: Any = None,
            copy: bool | None = None) -> Any:
    """Give ``a`` a new shape (one dimension may be -1); row-major order only.

    Examples
    --------
    >>> snp.reshape(snp.arange(6), (2, -1))
    Array([[0, 1, 2],
           [3, 4, 5]], dtype=int64)
    """
    if order != "C":
        raise NotImplementedError(f"reshape: only order='C' is supported, got "
                                  f"order={order!r}")
    if shape is None:
        shape = newshape
    if shape is None:
        raise TypeError("reshape: missing the new shape")
    a = util.operand("reshape", a, keep_weak=True)
    av = get_aval(a)
    return lax.reshape(a, _resolve_shape("reshape", shape, av.size, av.shape))


def ravel(a: ArrayLike, order: str = "C") -> Any:
    """The elements of ``a`` as a 1-d array (row-major)."""
    if order not in ("C", "K", "A"):
        raise NotImplementedError(f"ravel: only order='C' is supported, got "
                                  f"order={order!r}")
    a = util.operand("ravel", a, keep_weak=True)
    return lax.reshape(a, (get_aval(a).size,))


def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> Any:
    """Permute the axes of ``a`` (reverse them when ``axes`` is None).

    Examples
    --------
    >>> snp.transpose(snp.ones((2, 3, 4)), (1, 0, 2)).shape
    (3, 2, 4)
    """
    a = util.operand("transpose", a, keep_weak=True)
    nd = util.ndim(a)
    if axes is None:
        perm = tuple(range(nd - 1, -1, -1))
    else:
        perm = tuple(util.canonicalize_axis(i, nd, "axes") for i in axes)
        if len(perm) != nd or sorted(perm) != list(range(nd)):
            raise ValueError(f"transpose: axes {tuple(axes)} don't match an array of "
                             f"dimension {nd}")
    if perm == tuple(range(nd)):
        return a
    return lax.transpose(a, perm)


def permute_dims(a: ArrayLike, axes: Sequence[int]) -> Any:
    """Array API name of :func:`transpose`."""
    return transpose(a, axes)


def matrix_transpose(x: ArrayLike, /) -> Any:
    """Swap the last two axes."""
    x = util.operand("matrix_transpose", x, keep_weak=True)
    nd = util.ndim(x)
    if nd < 2:
        raise ValueError(f"matrix_transpose needs at least 2 dimensions, got {nd}")
    return swapaxes(x, -1, -2)


def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> Any:
    """Interchange two axes."""
    a = util.operand("swapaxes", a, keep_weak=True)
    nd = util.ndim(a)
    i, j = util.canonicalize_axis(axis1, nd, "axis1"), util.canonicalize_axis(
        axis2, nd, "axis2")
    perm = list(range(nd))
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(a, perm)


def moveaxis(a: ArrayLike, source: int | Sequence[int],
             destination: int | Sequence[int]) -> Any:
    """Move axes ``source`` to positions ``destination``; others keep their order."""
    a = util.operand("moveaxis", a, keep_weak=True)
    nd = util.ndim(a)
    src = util.canonicalize_axes(source, nd, "source")
    dst = util.canonicalize_axes(destination, nd, "destination")
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same number "
                         f"of elements, got {source} and {destination}")
    order = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(a, order)


def squeeze(a: ArrayLike, axis: int | Sequence[int] | None = None) -> Any:
    """Remove axes of length one (all of them when ``axis`` is None)."""
    a = util.operand("squeeze", a, keep_weak=True)
    s = get_aval(a).shape
    if axis is None:
        axes = tuple(i for i, d in enumerate(s) if d == 1)
    else:
        axes = util.canonicalize_axes(axis, len(s))
        bad = [i for i in axes if s[i] != 1]
        if bad:
            raise ValueError(f"squeeze: cannot select an axis to squeeze out which has "
                             f"size not equal to one (axis {bad[0]} of shape {s})")
    if not axes:
        return a
    return lax.reshape(a, tuple(d for i, d in enumerate(s) if i not in axes))


def expand_dims(a: ArrayLike, axis: int | Sequence[int]) -> Any:
    """Insert axes of length one at positions ``axis`` of the result."""
    a = util.operand("expand_dims", a, keep_weak=True)
    s = get_aval(a).shape
    axes = util.canonicalize_axes(axis, len(s) + (1 if isinstance(axis, int | np.integer)
                                                  else len(axis)))
    out = list(s)
    for i in sorted(axes):
        out.insert(i, 1)
    return lax.reshape(a, tuple(out))


def broadcast_to(array: ArrayLike, shape: Any) -> Any:
    """Broadcast ``array`` to ``shape`` (ValueError naming both when impossible).

    Examples
    --------
    >>> snp.broadcast_to(snp.arange(3), (2, 3)).shape
    (2, 3)
    """
    array = util.operand("broadcast_to", array, keep_weak=True)
    return util.broadcast_to(array, canonicalize_shape(shape, "broadcast_to"))


def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    """The shape that ``shapes`` broadcast to."""
    return util._broadcast_shapes(*(canonicalize_shape(s, "broadcast_shapes")
                                    for s in shapes), name="broadcast_shapes")


def broadcast_arrays(*args: ArrayLike) -> list[Any]:
    """``args`` broadcast to their common shape."""
    ops = [util.operand("broadcast_arrays", a, keep_weak=True) for a in args]
    return util.promote_shapes("broadcast_arrays", *ops)


def _sequence(name: str, arrays: Any) -> list[Any]:
    if not isinstance(arrays, Sequence) or isinstance(arrays, str):
        if hasattr(arrays, "shape") and len(get_aval(arrays).shape) > 0:
            return [arrays[i] for i in range(get_aval(arrays).shape[0])]
        raise TypeError(f"{name} expects a sequence of arrays, got {type(arrays).__name__}")
    if not arrays:
        raise ValueError(f"{name}: need at least one array to concatenate")
    return [util.operand(name, a) for a in arrays]


def concatenate(arrays: Sequence[ArrayLike], axis: int | None = 0,
                dtype: Any = None) -> Any:
    """Join arrays along an existing axis (``axis=None`` flattens them first).

    Examples
    --------
    >>> snp.concatenate([snp.zeros(2), snp.ones(1)])
    Array([0., 0., 1.], dtype=float64)
    """
    arrays = _sequence("concatenate", arrays)
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    arrays = util.promote_dtypes(*arrays)
    if dtype is not None:
        arrays = [util.cast(a, dtypes.canonicalize_dtype(np.dtype(dtype)))
                  for a in arrays]
    shapes = [get_aval(a).shape for a in arrays]
    nd = len(shapes[0])
    if nd == 0:
        raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
    ax = util.canonicalize_axis(axis, nd)
    for s in shapes[1:]:
        if len(s) != nd or s[:ax] + s[ax + 1:] != shapes[0][:ax] + shapes[0][ax + 1:]:
            raise ValueError(
                f"concatenate: all the input array dimensions except for the "
                f"concatenation axis {ax} must match exactly; got shapes "
                + ", ".join(map(str, shapes)))
    if len(arrays) == 1:
        return arrays[0]
    return lax.concatenate(arrays, ax)


def stack(arrays: Sequence[ArrayLike], axis: int = 0, dtype: Any = None) -> Any:
    """Join arrays of equal shape along a new axis.

    Examples
    --------
    >>> snp.stack([snp.zeros(2), snp.ones(2)], axis=1)
    Array([[0., 1.],
           [0., 1.]], dtype=float64)
    """
    arrays = _sequence("stack", arrays)
    shapes = {get_aval(a).shape for a in arrays}
    if len(shapes) > 1:
        raise ValueError("stack: all input arrays must have the same shape; got "
                         + ", ".join(str(get_aval(a).shape) for a in arrays))
    nd = util.ndim(arrays[0]) + 1
    ax = util.canonicalize_axis(axis, nd)
    return concatenate([expand_dims(a, ax) for a in arrays], ax, dtype)


def atleast_1d(*arys: ArrayLike) -> Any:
    """Views of the inputs with at least one dimension."""
    out = [util.operand("atleast_1d", a, keep_weak=True) for a in arys]
    out = [lax.reshape(a, (1,)) if util.ndim(a) == 0 else a for a in out]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: ArrayLike) -> Any:
    """Views of the inputs with at least two dimensions."""
    out = []
    for a in arys:
        a = util.operand("atleast_2d", a, keep_weak=True)
        s = get_aval(a).shape
        out.append(lax.reshape(a, (1,) * (2 - len(s)) + s) if len(s) < 2 else a)
    return out[0] if len(out) == 1 else out


def hstack(tup: Sequence[ArrayLike], dtype: Any = None) -> Any:
    """Join along axis 1 (axis 0 for 1-d inputs)."""
    arrays = [atleast_1d(a) for a in _sequence("hstack", tup)]
    axis = 0 if util.ndim(arrays[0]) == 1 else 1
    return concatenate(arrays, axis, dtype)


def vstack(tup: Sequence[ArrayLike], dtype: Any = None) -> Any:
    """Join along axis 0 after making inputs at least 2-d."""
    arrays = [atleast_2d(a) for a in _sequence("vstack", tup)]
    return concatenate(arrays, 0, dtype)


row_stack = vstack
