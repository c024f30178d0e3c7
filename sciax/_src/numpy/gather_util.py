"""Gathers along one axis, shared by the sorting, set, statistics and padding
code: ``take_axis`` (one index vector applied to an axis) and
``take_along`` (``np.take_along_axis``).  Both lower to one ``lax.gather``,
so they differentiate and batch like it."""

from __future__ import annotations

from typing import Any

import numpy as np

from sciax import lax
from sciax._src.arrays import device_put
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.numpy import util


def index_array(idx: Any) -> Any:
    """An integer Array from static (NumPy) or traced indices."""
    if isinstance(idx, np.ndarray | list | tuple | int | np.integer):
        return device_put(np.asarray(idx, dtype=dtypes.default_int()))
    return idx


def wrap_negative(idx: Any, n: int) -> Any:
    """``idx + n`` where ``idx < 0`` (NumPy's negative indices)."""
    zero = lax.full_like(idx, 0)
    return lax.select(lax.lt(idx, zero), lax.add(idx, lax.full_like(idx, n)), idx)


def take_axis(x: Any, idx: Any, axis: int, mode: str = "clip",
              fill_value: Any = None) -> Any:
    """``np.take(x, idx, axis)`` for an index array ``idx`` of any shape:
    the axis is replaced by ``idx``'s axes.  ``mode='clip'`` clamps,
    ``'fill'`` gives ``fill_value`` out of bounds."""
    idx = index_array(idx)
    shape = get_aval(x).shape
    nd = len(shape)
    ishape = get_aval(idx).shape
    flat = lax.reshape(idx, (*ishape, 1))
    offset = tuple(range(axis)) + tuple(range(axis + len(ishape), nd - 1 + len(ishape)))
    dn = lax.GatherDimensionNumbers(offset_dims=offset, collapsed_slice_dims=(axis,),
                                    start_index_map=(axis,))
    sizes = tuple(1 if d == axis else s for d, s in enumerate(shape))
    # the index (batch) axes fill the output positions not in ``offset``
    return lax.gather(x, flat, dn, sizes, mode=mode, fill_value=fill_value)


def take_along(x: Any, idx: Any, axis: int, mode: str = "clip") -> Any:
    """``np.take_along_axis(x, idx, axis)``: ``idx`` has ``x``'s rank and
    broadcasts against it on the other axes."""
    idx = index_array(idx)
    xs, is_ = get_aval(x).shape, get_aval(idx).shape
    nd = len(xs)
    if len(is_) != nd:
        raise ValueError(f"take_along_axis: indices and arr must have the same number "
                         f"of dimensions, got shapes {is_} and {xs}")
    out_shape = tuple(i if d == axis else util._broadcast_shapes(
        (a,), (i,), name="take_along_axis")[0] for d, (a, i) in enumerate(zip(xs, is_)))
    x = util.broadcast_to(x, tuple(xs[axis] if d == axis else s
                                   for d, s in enumerate(out_shape)), "take_along_axis")
    idx = util.broadcast_to(idx, out_shape, "take_along_axis")
    if nd == 0:
        return x
    itype = get_aval(idx).dtype
    comps = [lax.reshape(idx if d == axis else lax.broadcasted_iota(itype, out_shape, d),
                         (*out_shape, 1)) for d in range(nd)]
    indices = comps[0] if nd == 1 else lax.concatenate(comps, nd)
    dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=tuple(range(nd)),
                                    start_index_map=tuple(range(nd)))
    return lax.gather(x, indices, dn, (1,) * nd, mode=mode)
