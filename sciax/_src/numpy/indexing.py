"""NumPy indexing, ``x[idx]``, and functional updates, ``x.at[idx].set(v)``.

Basic indices (integers, slices with any step, ``None`` and ``...``) lower to
one rev, one slice, dynamic slices for traced integers and one reshape.
Integer-array ("advanced") indices, mixed with any of those, lower to one
``lax.gather``; boolean masks become integer arrays (``np.nonzero``) and so
need a concrete mask: under ``jit`` a traced mask raises an IndexError, since
the result's shape would depend on the mask's values.

Out-of-bounds indices: a concrete index raises IndexError as in NumPy.  A
traced index cannot be checked; negative values count from the end and the
rest are clamped into bounds (as in JAX), so ``x[i]`` under ``jit`` never
reads outside ``x``.

Functional updates (``x.at[idx]``) share the index translation: the gather
that reads ``x[idx]`` becomes a scatter with the same dimension numbers.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from sciax import lax
from sciax._src.arrays import Array
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import reductions, ufuncs, util

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
          "integer or boolean arrays are valid indices")


def _is_int_scalar(i: Any) -> bool:
    return isinstance(i, int | np.integer) and not isinstance(i, bool | np.bool_)


def _array_index_kind(i: Any) -> str | None:
    """'int0' for a 0-d integer array, 'bool' for a boolean array or scalar,
    'advanced' for other integer arrays (or lists), else None."""
    if isinstance(i, bool | np.bool_):
        return "bool"
    if isinstance(i, list | tuple):
        try:
            arr = np.asarray(i)
        except (ValueError, TypeError):
            raise IndexError(f"{_VALID}; got a ragged sequence {i!r:.60}") from None
        if arr.dtype == np.bool_:
            return "bool"
        if arr.size == 0 or arr.dtype.kind in "iu":
            return "advanced"
        raise IndexError(f"{_VALID}; got a sequence of dtype {arr.dtype} "
                         f"({i!r:.60}); index arrays must hold integers or booleans")
    if isinstance(i, np.ndarray | Array | Tracer):
        aval = get_aval(i)
        dt, nd = aval.dtype, aval.ndim
    else:
        return None
    if dt == dtypes.bool_:
        return "bool"
    if dt.kind in "iu":
        return "int0" if nd == 0 else "advanced"
    raise IndexError(f"{_VALID}; got an index array of dtype {dt} (arrays used as "
                     "indices must be of integer or boolean type)")


_EMPTY = type("_EmptyAxis", (), {"__repr__": lambda self: "<empty axis>"})()


class _Mask(NamedTuple):
    value: np.ndarray


def _expand(idx: Any, shape: tuple[int, ...]) -> tuple[list[Any], bool]:
    """``idx`` as a list with one entry per operand axis or ``None``.

    Boolean masks become integer arrays (one per masked axis) and the ellipsis
    is replaced by full slices.  Returns ``(entries, advanced)`` where
    ``advanced`` says whether any integer array (or mask) is present.
    """
    if not isinstance(idx, tuple):
        idx = (idx,)
    items: list[Any] = []
    advanced = False
    for i in idx:
        kind = _array_index_kind(i)
        if kind is None and not (_is_int_scalar(i) or i is None or i is Ellipsis
                                 or isinstance(i, slice)):
            raise IndexError(f"{_VALID}; got {type(i).__name__} {i!r:.40}")
        if kind == "bool":
            _check_concrete_mask(i)
            i = _Mask(np.asarray(i))
            advanced = True
        elif kind == "advanced":
            i = np.asarray(i) if isinstance(i, list | tuple) else i
            advanced = True
        items.append(i)
    if sum(i is Ellipsis for i in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    nd = len(shape)
    n_real = sum(i.value.ndim if isinstance(i, _Mask) else
                 not (i is None or i is Ellipsis) for i in items)
    if n_real > nd:
        raise IndexError(f"too many indices for array: array is {nd}-dimensional, but "
                         f"{n_real} were indexed")
    fill = [slice(None)] * (nd - n_real)
    if any(i is Ellipsis for i in items):
        k = next(j for j, i in enumerate(items) if i is Ellipsis)
        items = items[:k] + fill + items[k + 1:]
    else:
        items = items + fill
    out: list[Any] = []
    axis = 0
    for i in items:
        if isinstance(i, _Mask):
            m = i.value
            got = shape[axis:axis + m.ndim]
            if got != m.shape:
                raise IndexError(
                    f"boolean index of shape {m.shape} does not match the indexed "
                    f"array's shape {got} along axes {axis}..{axis + m.ndim - 1} "
                    f"(array shape {shape})")
            axis += m.ndim
            if m.ndim == 0:
                # x[True] adds an axis of length 1, x[False] one of length 0
                out.append(None if m else _EMPTY)
            else:
                out.extend(np.nonzero(m))
        else:
            axis += i is not None
            out.append(i)
    return out, advanced


def _check_concrete_mask(mask: Any) -> None:
    if isinstance(mask, Tracer):
        raise IndexError(
            f"boolean mask indexing needs a concrete mask, but the mask (shape "
            f"{get_aval(mask).shape}) is traced (e.g. under sciax.jit): the result's "
            "shape would depend on the mask's values. Use snp.where(mask, x, fill) to "
            "keep the shape, or integer indices from snp.nonzero(mask, size=...) with "
            "a static size")


def _as_array(x: Any) -> Any:
    if dtypes.is_python_scalar(x):
        return lax.convert_element_type(x, dtypes.python_scalar_dtype(x),
                                        dtypes.is_weakly_typed(x))
    if isinstance(x, np.ndarray | np.generic):
        return lax.convert_element_type(x, dtypes.canonicalize_dtype(x.dtype))
    return x


def getitem(x: Any, idx: Any) -> Any:
    """``x[idx]`` with NumPy's basic and advanced indexing.

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
    >>> x[[0, 2], -1]
    Array([ 3, 11], dtype=int64)
    >>> x[x[:, 0] > 0]
    Array([[ 4,  5,  6,  7],
           [ 8,  9, 10, 11]], dtype=int64)
    """
    shape = get_aval(x).shape
    entries, advanced = _expand(idx, shape)
    if advanced:
        return _gather(x, entries, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS,
                       fill_value=None, check_bounds=True)
    return _basic(x, entries)


def _basic(x: Any, idx: list[Any]) -> Any:
    shape = get_aval(x).shape
    nd = len(shape)
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
            j = _concrete_int(i)
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

    out = _as_array(x)
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


def _concrete_int(i: Any) -> int:
    try:
        return operator.index(i)
    except TypeError:
        return int(np.asarray(i))


def _dynamic_index(x: Any, dynamic: list[tuple[int, Any]]) -> Any:
    shape = get_aval(x).shape
    starts: list[Any] = [0] * len(shape)
    sizes = list(shape)
    for axis, i in dynamic:
        starts[axis] = _normalize(i, shape[axis])
        sizes[axis] = 1
    return lax.dynamic_slice(x, starts, sizes)


def _normalize(i: Any, n: int) -> Any:
    """Negative indices count from the end (a traced index cannot be checked,
    so out-of-range values are left to the gather/scatter mode)."""
    if dtypes.is_integer(get_aval(i).dtype) and get_aval(i).dtype.kind == "u":
        return i
    return lax.select(lax.lt(i, lax.full_like(i, 0)), lax.add(i, lax.full_like(i, n)),
                      i)


# --- the general path: one gather / scatter -------------------------------------------

class _Spec(NamedTuple):
    indices: Any                      # batch_shape + (k,) integer array
    gather_dnums: lax.GatherDimensionNumbers
    slice_sizes: tuple[int, ...]
    out_shape: tuple[int, ...]        # the shape of x[idx]


def _index_dtype(arrays: list[Any]) -> np.dtype:
    return dtypes.default_int()


def _spec(x: Any, entries: list[Any], check_bounds: bool) -> _Spec:
    """Translate expanded ``entries`` into a gather of ``x``.

    Integers and integer arrays form NumPy's "advanced" group: their broadcast
    shape B replaces them in the output if they are adjacent in the index,
    else it goes first.  Unit-step slices are gather windows; other slices and
    ``None`` become batch axes of the index array (an iota and a length-1
    axis), so the gather's output is exactly ``x[idx]`` and the same dimension
    numbers serve the scatter of ``x.at[idx]``.
    """
    shape = get_aval(x).shape
    idt = dtypes.default_int()
    # classify entries
    adv_pos = [j for j, i in enumerate(entries)
               if not (i is None or i is _EMPTY or isinstance(i, slice))]
    adv_arrays, adv_axes = [], []
    axis = 0
    axis_of: list[int | None] = []
    for i in entries:
        new_axis = i is None or i is _EMPTY
        axis_of.append(None if new_axis else axis)
        axis += not new_axis
    for j in adv_pos:
        i, ax = entries[j], axis_of[j]
        n = shape[ax]
        if not isinstance(i, Tracer):
            if isinstance(i, Array | np.ndarray | np.generic) or _is_int_scalar(i):
                if check_bounds:
                    v = np.asarray(i)
                    if v.size and (v.min() < -n or v.max() >= n):
                        bad = v[(v < -n) | (v >= n)].flat[0]
                        raise IndexError(f"index {bad} is out of bounds for axis {ax} "
                                         f"with size {n}")
        i = _as_array(i)
        i = lax.convert_element_type(i, idt) if get_aval(i).dtype != idt else i
        adv_arrays.append(_normalize(i, n))
        adv_axes.append(ax)
    b_shape: tuple[int, ...] = ()
    if adv_arrays:
        b_shape = tuple(np.broadcast_shapes(*(get_aval(a).shape for a in adv_arrays)))
    contiguous = bool(adv_pos) and adv_pos[-1] - adv_pos[0] + 1 == len(adv_pos)

    # output layout: a list of items ('b',), ('none',), ('win', axis), ('iota', axis)
    layout: list[tuple] = []
    if adv_pos and not contiguous:
        layout.append(("b",))
    for j, i in enumerate(entries):
        if i is None or i is _EMPTY:
            layout.append(("none", 0 if i is _EMPTY else 1))
        elif isinstance(i, slice):
            start, stop, step = i.indices(shape[axis_of[j]])
            length = len(range(start, stop, step))
            if step == 1 or length <= 1:
                layout.append(("win", axis_of[j], start if length else 0, length))
            else:
                layout.append(("iota", axis_of[j], start, step, length))
        elif contiguous and j == adv_pos[0]:
            layout.append(("b",))

    out_shape: list[int] = []
    batch_shape: list[int] = []
    offset_dims: list[int] = []
    b_at = None                       # where B starts among the batch axes
    iota_at: dict[int, int] = {}      # operand axis -> its batch axis
    for item in layout:
        if item[0] == "b":
            b_at = len(batch_shape)
            batch_shape.extend(b_shape)
            out_shape.extend(b_shape)
        elif item[0] == "none":
            batch_shape.append(item[1])
            out_shape.append(item[1])
        elif item[0] == "iota":
            iota_at[item[1]] = len(batch_shape)
            batch_shape.append(item[4])
            out_shape.append(item[4])
        else:
            offset_dims.append(len(out_shape))
            out_shape.append(item[3])
    batch = tuple(batch_shape)

    columns: list[Any] = []
    start_index_map: list[int] = []
    collapsed: list[int] = []
    slice_sizes = list(shape)
    for a, ax in zip(adv_arrays, adv_axes):
        ash = get_aval(a).shape
        dims = tuple(range(b_at + len(b_shape) - len(ash), b_at + len(b_shape)))
        columns.append(lax.broadcast_in_dim(a, batch, dims))
        start_index_map.append(ax)
        collapsed.append(ax)
        slice_sizes[ax] = 1
    for item in layout:
        if item[0] == "iota":
            _, ax, start, step, length = item
            d = iota_at[ax]
            col = lax.broadcasted_iota(idt, batch, d)
            columns.append(lax.add(lax.mul(col, lax.full(batch, step, idt)),
                                   lax.full(batch, start, idt)))
            start_index_map.append(ax)
            collapsed.append(ax)
            slice_sizes[ax] = 1
        elif item[0] == "win":
            _, ax, start, length = item
            slice_sizes[ax] = length
            if start != 0 or length != shape[ax]:
                columns.append(lax.full(batch, start, idt))
                start_index_map.append(ax)
    if columns:
        columns = [lax.reshape(c, batch + (1,)) for c in columns]
        indices = columns[0] if len(columns) == 1 else lax.concatenate(columns,
                                                                        len(batch))
    else:
        indices = lax.full(batch + (0,), 0, idt)
    dnums = lax.GatherDimensionNumbers(
        offset_dims=tuple(offset_dims), collapsed_slice_dims=tuple(sorted(collapsed)),
        start_index_map=tuple(start_index_map))
    return _Spec(indices, dnums, tuple(slice_sizes), tuple(out_shape))


def _gather(x: Any, entries: list[Any], *, mode: Any, fill_value: Any,
            check_bounds: bool, indices_are_sorted: bool = False,
            unique_indices: bool = False) -> Any:
    x = _as_array(x)
    spec = _spec(x, entries, check_bounds)
    return lax.gather(x, spec.indices, spec.gather_dnums, spec.slice_sizes,
                      mode=mode, fill_value=fill_value,
                      indices_are_sorted=indices_are_sorted,
                      unique_indices=unique_indices)


# --- x.at[idx] ------------------------------------------------------------------------

def _scatter(x: Any, idx: Any, values: Any, scatter_fn: Callable[..., Any], *,
             indices_are_sorted: bool, unique_indices: bool, mode: Any,
             name: str) -> Any:
    x = _as_array(util.as_operand(f"at[].{name}", x))
    shape = get_aval(x).shape
    entries, _ = _expand(idx, shape)
    spec = _spec(x, entries, check_bounds=False)
    dt = get_aval(x).dtype
    values = util.as_operand(f"at[].{name}", values)
    values = lax.convert_element_type(values, dt, get_aval(x).weak_type) \
        if get_aval(values).dtype != dt else values
    values = util.broadcast_to(values, spec.out_shape, f"at[].{name}")
    dn = spec.gather_dnums
    sdn = lax.ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims, inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map)
    return scatter_fn(x, spec.indices, values, sdn,
                      indices_are_sorted=indices_are_sorted,
                      unique_indices=unique_indices,
                      mode=lax.GatherScatterMode.FILL_OR_DROP if mode is None else mode)


class _IndexUpdateHelper:
    """``x.at``: ``x.at[idx]`` gives an :class:`_IndexUpdateRef`."""

    __slots__ = ("array",)

    def __init__(self, array: Any):
        self.array = array

    def __getitem__(self, idx: Any) -> _IndexUpdateRef:
        return _IndexUpdateRef(self.array, idx)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.array!r})"


class _IndexUpdateRef:
    """Functional updates of ``x[idx]``; each method returns a new array.

    ``mode`` says what out-of-bounds indices do: in the updates the default
    (``None``, ``'drop'`` or ``'fill'``) drops them, ``'clip'`` clamps them into
    bounds and ``'promise_in_bounds'`` lets XLA assume they do not occur.  In
    :meth:`get` the default clamps them as ``x[idx]`` does under jit; ``'fill'``
    returns ``fill_value`` for them.  Negative indices count from the end.
    With repeated indices ``set`` keeps one of the values (unspecified
    which), the others accumulate as ``np.add.at`` and friends do.

    Examples
    --------
    >>> x = snp.zeros(4)
    >>> x.at[1].set(5.0)
    Array([0., 5., 0., 0.], dtype=float64)
    >>> x.at[snp.array([0, 0, 3])].add(1.0)
    Array([2., 0., 0., 1.], dtype=float64)
    >>> x.at[9].get(mode="fill", fill_value=-1.0)
    Array(-1., dtype=float64)
    """

    __slots__ = ("array", "index")

    def __init__(self, array: Any, index: Any):
        self.array = array
        self.index = index

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    def get(self, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: Any = None, fill_value: Any = None) -> Any:
        """``x[idx]``, with out-of-bounds handling chosen by ``mode``."""
        if mode is None and fill_value is None and not (indices_are_sorted
                                                        or unique_indices):
            shape = get_aval(self.array).shape
            entries, advanced = _expand(self.index, shape)
            if not advanced:
                return _basic(self.array, entries)
            return _gather(self.array, entries,
                           mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS,
                           fill_value=None, check_bounds=False)
        shape = get_aval(self.array).shape
        entries, _ = _expand(self.index, shape)
        if mode is None:
            mode = lax.GatherScatterMode.PROMISE_IN_BOUNDS
        return _gather(self.array, entries, mode=mode, fill_value=fill_value,
                       check_bounds=False, indices_are_sorted=indices_are_sorted,
                       unique_indices=unique_indices)

    def _update(self, values: Any, fn: Callable[..., Any], name: str,
                indices_are_sorted: bool, unique_indices: bool, mode: Any) -> Any:
        return _scatter(self.array, self.index, values, fn,
                        indices_are_sorted=indices_are_sorted,
                        unique_indices=unique_indices, mode=mode, name=name)

    def set(self, values: Any, *, indices_are_sorted: bool = False,
            unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] = values``, functionally."""
        return self._update(values, lax.scatter, "set", indices_are_sorted,
                            unique_indices, mode)

    def add(self, values: Any, *, indices_are_sorted: bool = False,
            unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] += values``, repeated indices accumulating (``np.add.at``)."""
        return self._update(values, lax.scatter_add, "add", indices_are_sorted,
                            unique_indices, mode)

    def subtract(self, values: Any, *, indices_are_sorted: bool = False,
                 unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] -= values`` (``np.subtract.at``)."""
        return self._update(values, lax.scatter_sub, "subtract", indices_are_sorted,
                            unique_indices, mode)

    def multiply(self, values: Any, *, indices_are_sorted: bool = False,
                 unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] *= values`` (``np.multiply.at``)."""
        return self._update(values, lax.scatter_mul, "multiply", indices_are_sorted,
                            unique_indices, mode)

    mul = multiply

    def divide(self, values: Any, *, indices_are_sorted: bool = False,
               unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] /= values``; repeated indices divide by every value."""
        ones = _ones_like(self.array)
        den = _scatter(ones, self.index, values, lax.scatter_mul,
                       indices_are_sorted=indices_are_sorted,
                       unique_indices=unique_indices, mode=mode, name="divide")
        return ufuncs.divide(self.array, den)

    def power(self, values: Any, *, indices_are_sorted: bool = False,
              unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] **= values``; repeated indices apply every exponent."""
        ones = _ones_like(self.array)
        exps = _scatter(ones, self.index, values, lax.scatter_mul,
                        indices_are_sorted=indices_are_sorted,
                        unique_indices=unique_indices, mode=mode, name="power")
        return ufuncs.power(self.array, exps)

    def min(self, values: Any, *, indices_are_sorted: bool = False,
            unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] = minimum(x[idx], values)`` (``np.minimum.at``)."""
        return self._update(values, lax.scatter_min, "min", indices_are_sorted,
                            unique_indices, mode)

    def max(self, values: Any, *, indices_are_sorted: bool = False,
            unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] = maximum(x[idx], values)`` (``np.maximum.at``)."""
        return self._update(values, lax.scatter_max, "max", indices_are_sorted,
                            unique_indices, mode)

    def apply(self, func: Callable[[Any], Any], *, indices_are_sorted: bool = False,
              unique_indices: bool = False, mode: Any = None) -> Any:
        """``x[idx] = func(x[idx])`` (``func`` elementwise)."""
        new = func(self.get(mode=mode if mode in (None, "clip") else None))
        return self.set(new, indices_are_sorted=indices_are_sorted,
                        unique_indices=unique_indices, mode=mode)


def _ones_like(x: Any) -> Any:
    a = get_aval(x)
    return lax.full(a.shape, 1, a.dtype)


# --- take, take_along_axis, put_along_axis, diagonal ---------------------------------

def _mode_index(idx: Any, n: int, mode: str | None) -> tuple[Any, Any]:
    """Indices for NumPy's ``mode='wrap'`` (reduced modulo ``n``) and the gather
    mode to use for the others ('raise' is only possible for concrete indices)."""
    if mode == "wrap":
        return ufuncs.remainder(idx, n), lax.GatherScatterMode.PROMISE_IN_BOUNDS
    if mode == "raise":
        if isinstance(idx, Tracer):
            raise ValueError("take: mode='raise' needs concrete indices; under jit use "
                             "mode='fill', 'clip' or 'wrap'")
        v = np.asarray(idx)
        if v.size and (v.min() < -n or v.max() >= n):
            bad = v[(v < -n) | (v >= n)].flat[0]
            raise IndexError(f"index {bad} is out of bounds for size {n}")
        return idx, lax.GatherScatterMode.PROMISE_IN_BOUNDS
    return idx, lax.GatherScatterMode.from_any(mode)


def _index_operand(name: str, idx: Any) -> Any:
    kind = _array_index_kind(idx)
    if kind == "bool" or (kind is None and not _is_int_scalar(idx)):
        raise IndexError(f"{name}: indices must be integers or an integer array, got "
                         f"{type(idx).__name__} {idx!r:.40}")
    return np.asarray(idx) if isinstance(idx, list | tuple) else idx


def take(a: Any, indices: Any, axis: int | None = None, out: None = None,
         mode: str | None = None, unique_indices: bool = False,
         indices_are_sorted: bool = False, fill_value: Any = None) -> Any:
    """Elements of ``a`` at ``indices`` along ``axis`` (``np.take``).

    ``axis=None`` indexes the flattened array.  ``mode`` handles out-of-range
    indices: ``None``/``'fill'`` (the default, as in JAX) gives ``fill_value``
    (NaN for inexact dtypes), ``'clip'`` clamps, ``'wrap'`` wraps around and
    ``'raise'`` raises IndexError (concrete indices only).

    Examples
    --------
    >>> snp.take(snp.array([[1, 2], [3, 4]]), snp.array([1, 0, 1]), axis=1)
    Array([[2, 1, 2],
           [4, 3, 4]], dtype=int64)
    """
    if out is not None:
        raise TypeError("take: the 'out' argument is not supported (arrays are "
                        "immutable)")
    a = _as_array(util.as_operand("take", a))
    indices = _index_operand("take", indices)
    if axis is None:
        a = lax.reshape(a, (get_aval(a).size,))
        axis = 0
    nd = get_aval(a).ndim
    axis = util.canonicalize_axis(axis, nd)
    n = get_aval(a).shape[axis]
    indices, gmode = _mode_index(indices, n, mode)
    entries = [slice(None)] * axis + [indices] + [slice(None)] * (nd - axis - 1)
    return _gather(a, entries, mode=gmode, fill_value=fill_value, check_bounds=False,
                   indices_are_sorted=indices_are_sorted, unique_indices=unique_indices)


def _along_axis_entries(name: str, shape: tuple[int, ...], idx: Any,
                        axis: int | None) -> tuple[list[Any], int]:
    ishape = get_aval(idx).shape
    nd = len(shape)
    if len(ishape) != nd:
        raise ValueError(f"{name}: indices and arr must have the same number of "
                         f"dimensions, got shapes {ishape} and {shape}")
    axis = util.canonicalize_axis(axis, nd)
    out_shape = []
    for d, (s, i) in enumerate(zip(shape, ishape)):
        if d == axis:
            out_shape.append(i)
        elif s == i or i == 1 or s == 1:
            out_shape.append(max(s, i) if min(s, i) else 0)
        else:
            raise ValueError(f"{name}: shape mismatch between arr {shape} and indices "
                             f"{ishape} along axis {d}")
    entries: list[Any] = []
    for d in range(nd):
        if d == axis:
            entries.append(idx)
            continue
        ar_shape = [1] * nd
        ar_shape[d] = out_shape[d]
        ar = np.arange(out_shape[d]) if shape[d] != 1 else np.zeros(out_shape[d], int)
        entries.append(ar.reshape(ar_shape))
    return entries, axis


def take_along_axis(arr: Any, indices: Any, axis: int | None, mode: str | None = None,
                    fill_value: Any = None) -> Any:
    """``np.take_along_axis``: pick values of ``arr`` along ``axis`` at matching
    positions of ``indices`` (as returned by argsort or argmax with keepdims).

    Out-of-range indices follow ``mode`` as in :func:`take` (default 'fill').

    Examples
    --------
    >>> x = snp.array([[3, 1, 2], [9, 7, 8]])
    >>> snp.take_along_axis(x, snp.array([[1], [0]]), axis=1)
    Array([[1],
           [9]], dtype=int64)
    """
    arr = _as_array(util.as_operand("take_along_axis", arr))
    indices = _as_array(_index_operand("take_along_axis", indices))
    if axis is None:
        arr = lax.reshape(arr, (get_aval(arr).size,))
        indices = lax.reshape(indices, (get_aval(indices).size,))
        axis = 0
    entries, axis = _along_axis_entries("take_along_axis", get_aval(arr).shape,
                                        indices, axis)
    entries[axis], gmode = _mode_index(indices, get_aval(arr).shape[axis], mode)
    return _gather(arr, entries, mode=gmode, fill_value=fill_value, check_bounds=False)


def put_along_axis(arr: Any, indices: Any, values: Any, axis: int | None,
                   inplace: bool = False, mode: str | None = None) -> Any:
    """``np.put_along_axis`` as a functional update: returns a new array.

    Examples
    --------
    >>> x = snp.zeros((2, 3))
    >>> snp.put_along_axis(x, snp.array([[2], [0]]), 1.0, axis=1)
    Array([[0., 0., 1.],
           [1., 0., 0.]], dtype=float64)
    """
    if inplace:
        raise ValueError("put_along_axis: sciax arrays are immutable, so inplace=True "
                         "is not supported; use the returned array")
    arr = _as_array(util.as_operand("put_along_axis", arr))
    indices = _as_array(_index_operand("put_along_axis", indices))
    shape = get_aval(arr).shape
    if axis is None:
        flat = lax.reshape(arr, (get_aval(arr).size,))
        out = put_along_axis(flat, lax.reshape(indices, (get_aval(indices).size,)),
                             values, 0, mode=mode)
        return lax.reshape(out, shape)
    entries, axis = _along_axis_entries("put_along_axis", shape, indices, axis)
    return _scatter(arr, tuple(entries), values, lax.scatter,
                    indices_are_sorted=False, unique_indices=False,
                    mode=mode, name="put_along_axis")


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """``np.diagonal``: the ``offset`` diagonal of the ``(axis1, axis2)`` planes,
    as the last axis of the result.

    Examples
    --------
    >>> snp.diagonal(snp.arange(9).reshape(3, 3), 1)
    Array([1, 5], dtype=int64)
    """
    a = _as_array(util.as_operand("diagonal", a))
    shape = get_aval(a).shape
    nd = len(shape)
    if nd < 2:
        raise ValueError(f"diagonal requires an array of at least two dimensions, got "
                         f"shape {shape}")
    a1 = util.canonicalize_axis(axis1, nd, "axis1")
    a2 = util.canonicalize_axis(axis2, nd, "axis2")
    if a1 == a2:
        raise ValueError(f"diagonal: axis1 and axis2 cannot be the same ({axis1})")
    offset = util.concrete_int(offset, "diagonal offset")
    perm = tuple(d for d in range(nd) if d not in (a1, a2)) + (a1, a2)
    if perm != tuple(range(nd)):
        a = lax.transpose(a, perm)
    n, m = shape[a1], shape[a2]
    k = max(0, min(n + min(offset, 0), m - max(offset, 0)))
    i = np.arange(k)
    rows, cols = i + max(-offset, 0), i + max(offset, 0)
    return _gather(a, [slice(None)] * (nd - 2) + [rows, cols],
                   mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS, fill_value=None,
                   check_bounds=False, indices_are_sorted=True, unique_indices=True)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
          out: None = None) -> Any:
    """``np.trace``: the sum of the ``offset`` diagonal of each ``(axis1, axis2)``
    plane.

    Examples
    --------
    >>> snp.trace(snp.eye(3))
    Array(3., dtype=float64)
    """
    if out is not None:
        raise TypeError("trace: the 'out' argument is not supported")
    return reductions.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)
