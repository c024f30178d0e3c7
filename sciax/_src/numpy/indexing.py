"""Basic indexing, ``x[idx]``: integers (negative too), slices with any step,
``None`` and ``...``, lowered to one rev, one slice, dynamic slices for traced
integer indices, and one reshape.

Integer-array and boolean indexing (NumPy's "advanced" indexing) come with the
full NumPy layer; they raise a NotImplementedError that says so.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.backend.array import Array
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
          "integer or boolean arrays are valid indices")


def _is_int_scalar(i: Any) -> bool:
    return isinstance(i, int | np.integer) and not isinstance(i, bool | np.bool_)


def _array_index_kind(i: Any) -> str | None:
    """'int0' for a 0-d integer array, 'advanced' for other arrays, else None."""
    if isinstance(i, bool | np.bool_ | list | tuple):
        return "advanced"
    if isinstance(i, np.ndarray):
        dt, nd = i.dtype, i.ndim
    elif isinstance(i, Array | Tracer):
        dt, nd = get_aval(i).dtype, get_aval(i).ndim
    else:
        return None
    if dt.kind in "iu" and nd == 0:
        return "int0"
    if dt.kind in "biu":
        return "advanced"
    raise IndexError(f"{_VALID}; got an array of dtype {dt}")


def getitem(x: Any, idx: Any) -> Any:
    """``x[idx]`` for basic indices (see the module docstring).

    Examples
    --------
    >>> x = snp.arange(12).reshape(3, 4)
    >>> x[1]
    Array([4, 5, 6, 7], dtype=int64)
    >>> x[::-1, 1:3]
    Array([[ 9, 10],
           [ 5,  6],
           [ 1,  2]], dtype=int64)
    >>> x[..., None].shape
    (3, 4, 1)
    """
    if not isinstance(idx, tuple):
        idx = (idx,)
    shape = get_aval(x).shape
    nd = len(shape)
    for i in idx:
        kind = _array_index_kind(i)
        if kind == "advanced":
            raise NotImplementedError(
                "integer-array and boolean indexing are not supported yet; use basic "
                "indices (integers, slices, None, ...) or sciax.lax.gather")
        if not (kind or _is_int_scalar(i) or i is None or i is Ellipsis
                or isinstance(i, slice)):
            raise IndexError(f"{_VALID}; got {type(i).__name__} {i!r:.40}")
    n_ellipsis = sum(i is Ellipsis for i in idx)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(i is not None and i is not Ellipsis for i in idx)
    if n_real > nd:
        raise IndexError(f"too many indices for array: array is {nd}-dimensional, but "
                         f"{n_real} were indexed")
    if n_ellipsis:
        k = idx.index(Ellipsis)
        idx = idx[:k] + (slice(None),) * (nd - n_real) + idx[k + 1:]
    else:
        idx = idx + (slice(None),) * (nd - n_real)

    starts, limits, strides, rev_dims = [], [], [], []
    dynamic: list[tuple[int, Any]] = []
    out_shape: list[int] = []
    axis = 0
    for i in idx:
        if i is None:
            out_shape.append(1)
            continue
        n = shape[axis]
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            length = len(range(start, stop, step))
            if step < 0:
                rev_dims.append(axis)
                start = n - 1 - start
                step = -step
            if length == 0:
                start = 0
            starts.append(start)
            limits.append(start + (length - 1) * step + 1 if length else start)
            strides.append(step)
            out_shape.append(length)
        elif _is_int_scalar(i) or isinstance(i, Array | np.ndarray):
            try:
                j = operator.index(i)
            except TypeError:
                j = int(np.asarray(i))
            if not -n <= j < n:
                raise IndexError(f"index {j} is out of bounds for axis {axis} with size "
                                 f"{n}")
            j %= n
            starts.append(j)
            limits.append(j + 1)
            strides.append(1)
        else:  # a traced 0-d integer: a dynamic slice of size 1 on this axis
            starts.append(0)
            limits.append(n)
            strides.append(1)
            dynamic.append((axis, i))
        axis += 1

    out = x
    if dtypes.is_python_scalar(out):
        out = lax.convert_element_type(out, dtypes.python_scalar_dtype(out),
                                       dtypes.is_weakly_typed(out))
    if rev_dims:
        out = lax.rev(out, tuple(rev_dims))
    if (tuple(starts) != (0,) * nd or tuple(limits) != shape
            or any(s != 1 for s in strides)):
        out = lax.slice(out, tuple(starts), tuple(limits), tuple(strides))
    if dynamic:
        out = _dynamic_index(out, dynamic)
    if get_aval(out).shape != tuple(out_shape):
        out = lax.reshape(out, tuple(out_shape))
    return out


def _dynamic_index(x: Any, dynamic: list[tuple[int, Any]]) -> Any:
    shape = get_aval(x).shape
    starts: list[Any] = [0] * len(shape)
    sizes = list(shape)
    for axis, i in dynamic:
        n = shape[axis]
        # negative indices count from the end; out-of-range ones are clamped
        # (an index error cannot be raised on a traced value)
        i = lax.select(lax.lt(i, lax.full_like(i, 0)), lax.add(i, lax.full_like(i, n)), i)
        starts[axis] = i
        sizes[axis] = 1
    return lax.dynamic_slice(x, starts, sizes)
