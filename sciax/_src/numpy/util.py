"""Argument handling shared by every sciax.numpy function.

This is the ONLY place where NumPy broadcasting and dtype promotion happen:
lax stays rank- and dtype-strict, and each numpy function calls
:func:`promote_args` (or a sibling) once.  Promotion follows NumPy 2 (NEP 50)
through :func:`sciax._src.core.dtypes.result_type`: Python ``int``, ``float``
and ``complex`` are weak, so ``float32_array * 2.0`` stays float32 while
``int_array + 2.5`` becomes the default float.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.arrays import Array, device_put
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval, ShapedArray
from sciax._src.core.trace import Tracer

ArrayLike = Any

_bad_kinds = {"O": "object", "U": "str", "S": "bytes", "V": "void", "M": "datetime64",
              "m": "timedelta64"}


def _host_array(x: Any) -> np.ndarray | None:
    """``np.asarray(x)`` for a (nested) list/tuple of numbers, else None."""
    if not isinstance(x, list | tuple):
        return None
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError):  # ragged nesting
        return None
    return arr if arr.dtype.kind in "biufc" else None


def _holds_traced(x: Any) -> bool:
    """True for a (nested) list/tuple with an Array or tracer among its leaves."""
    return isinstance(x, list | tuple) and any(
        isinstance(o, Array | Tracer) or _holds_traced(o) for o in x)


def _is_leaf_arraylike(x: Any) -> bool:
    if isinstance(x, Array | Tracer) or dtypes.is_python_scalar(x):
        return True
    if isinstance(x, np.ndarray | np.generic):
        return x.dtype.kind in "biufc" or x.dtype == dtypes.bfloat16
    return False


def _nested_arraylike(x: Any) -> bool:
    """A list/tuple whose leaves are all array-like (numbers, arrays, tracers)."""
    return all(_nested_arraylike(o) if isinstance(o, list | tuple)
               else _is_leaf_arraylike(o) for o in x)


def is_arraylike(x: Any) -> bool:
    """True for what sciax.numpy functions accept as an array argument.

    Lists and tuples count when NumPy could make an array of them: nestings of
    numbers, and (as ``np.asarray`` accepts lists of arrays) nestings that hold
    sciax Arrays or traced values, which :func:`as_operand` stacks.
    """
    if _is_leaf_arraylike(x):
        return True
    if _host_array(x) is not None:
        return True
    return _holds_traced(x) and _nested_arraylike(x)


def stack_nested(name: str, x: Any) -> Any:
    """A list/tuple of array-likes (some traced) stacked into one array along a
    new leading axis, recursively, with NumPy's dtype promotion (NEP 50)."""
    if not x:
        return device_put(np.zeros((0,), dtypes.default_float()))
    parts = [stack_nested(name, o) if isinstance(o, list | tuple) else o for o in x]
    parts = promote_dtypes(*parts)
    shapes = [get_aval(p).shape for p in parts]
    if len(set(shapes)) > 1:
        raise ValueError(
            f"{name}: cannot make an array of a {type(x).__name__} whose elements "
            "have different shapes (" + ", ".join(str(s) for s in shapes) + ")")
    shape = shapes[0]
    parts = [lax.broadcast_in_dim(p if not dtypes.is_python_scalar(p) else
                                  cast(p, *_aval_pair(p)),
                                  (1,) + shape, tuple(range(1, len(shape) + 1)))
             for p in parts]
    return parts[0] if len(parts) == 1 else lax.concatenate(parts, 0)


def _describe(x: Any) -> str:
    if isinstance(x, np.ndarray | np.generic):
        kind = _bad_kinds.get(x.dtype.kind, str(x.dtype))
        return f"a NumPy array of dtype {x.dtype} ({kind})"
    if isinstance(x, list | tuple):
        return (f"a {type(x).__name__} that is not a (rectangular) nesting of numbers "
                f"({x!r:.60})")
    text = repr(x)
    return f"{type(x).__name__}" + (f" ({text})" if len(text) <= 60 else "")


def check_arraylike(name: str, *args: Any) -> None:
    """Raise TypeError naming ``name`` and the offending type unless every
    argument is array-like (an Array, tracer, NumPy numeric array or scalar,
    Python number, or a nested list/tuple of numbers)."""
    for i, x in enumerate(args):
        if not is_arraylike(x):
            raise TypeError(
                f"{name} requires array-like arguments (sciax or NumPy arrays of a "
                f"numeric dtype, Python numbers or lists of numbers); argument {i} "
                f"is {_describe(x)}")


def as_operand(name: str, x: Any) -> Any:
    """``x`` in a form lax accepts: lists become Arrays, the rest pass through."""
    host = _host_array(x)
    if host is not None:
        return device_put(host)
    if _holds_traced(x) and _nested_arraylike(x):
        return stack_nested(name, x)
    if not is_arraylike(x):
        check_arraylike(name, x)
    return x


def operand(name: str, a: Any, keep_weak: bool = False) -> Any:
    """``a`` as the array operand of the NumPy function ``name``.

    TypeError (naming ``name``) unless ``a`` is array-like; lists and NumPy
    values become Arrays; a Python scalar becomes a 0-d array of its default
    dtype (weakly typed if ``keep_weak``), so shape and dtype queries work on it.
    """
    check_arraylike(name, a)
    a = as_operand(name, a)
    if dtypes.is_python_scalar(a):
        weak = dtypes.is_weakly_typed(a) if keep_weak else False
        a = cast(a, dtypes.python_scalar_dtype(a), weak)
    return a


def dtype_of(x: Any) -> np.dtype:
    """The dtype of an array-like (its abstract value's)."""
    return get_aval(x).dtype


def shape_of(x: Any) -> tuple[int, ...]:
    """The shape of an array-like (its abstract value's)."""
    return get_aval(x).shape


def _aval_pair(x: Any) -> tuple[np.dtype, bool]:
    aval = get_aval(x)
    return aval.dtype, aval.weak_type


def result_dtype(*args: Any) -> tuple[np.dtype, bool]:
    """The promoted ``(dtype, weak_type)`` of array-like ``args`` (NEP 50)."""
    return dtypes.result_type(*(_aval_pair(a) for a in args))


def cast(x: Any, dtype: Any, weak_type: bool = False) -> Any:
    """``x`` converted to ``dtype`` (a no-op when it already has it)."""
    return lax.convert_element_type(x, dtype, weak_type)


def promote_dtypes(*args: Any) -> list[Any]:
    """Convert ``args`` to their common dtype, keeping weak types weak.

    Examples
    --------
    >>> from sciax._src.numpy.util import promote_dtypes
    >>> x, y = promote_dtypes(np.float32(1), 2.0)
    >>> x.dtype, y.dtype
    (dtype('float32'), dtype('float32'))
    """
    if len(args) < 2:
        return list(args)
    dt, weak = result_dtype(*args)
    return [cast(a, dt, weak) for a in args]


def promote_dtypes_inexact(*args: Any) -> list[Any]:
    """As :func:`promote_dtypes`, then integers and bools become the default
    float (as ``np.sin`` does for int32/int64)."""
    dt, weak = result_dtype(*args)
    dt = to_inexact_dtype(dt)
    return [cast(a, dt, weak) for a in args]


def to_inexact_dtype(dt: np.dtype) -> np.dtype:
    return dt if dtypes.is_inexact(dt) else dtypes.default_float()


def _broadcast_shapes(*shapes: Sequence[int], name: str | None = None
                      ) -> tuple[int, ...]:
    """NumPy's broadcast of ``shapes``; ValueError naming all shapes otherwise."""
    shapes = [tuple(s) for s in shapes]
    if len(set(shapes)) <= 1:
        return shapes[0] if shapes else ()
    ndim = max(len(s) for s in shapes)
    out = []
    for axis in range(ndim):
        sizes = {s[axis - ndim + len(s)] for s in shapes if axis - ndim + len(s) >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            where = f"{name}: " if name else ""
            raise ValueError(
                f"{where}operands could not be broadcast together with shapes "
                + " ".join(str(s) for s in shapes))
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def broadcast_to(x: Any, shape: Sequence[int], name: str = "broadcast_to") -> Any:
    """Broadcast ``x`` to ``shape`` by NumPy's rules (leading axes added)."""
    shape = tuple(shape)
    xs = get_aval(x).shape
    if xs == shape:
        return x
    if len(xs) > len(shape) or any(
            a not in (1, b) for a, b in zip(xs[::-1], shape[::-1])):
        raise ValueError(f"{name}: cannot broadcast an array of shape {xs} to shape "
                         f"{shape}")
    if dtypes.is_python_scalar(x):
        x = cast(x, dtypes.python_scalar_dtype(x), dtypes.is_weakly_typed(x))
    return lax.broadcast_in_dim(x, shape, tuple(range(len(shape) - len(xs), len(shape))))


def promote_shapes(name: str, *args: Any) -> list[Any]:
    """Broadcast ``args`` to their common shape (ValueError naming the shapes)."""
    if len(args) < 2:
        return list(args)
    shapes = [get_aval(a).shape for a in args]
    shape = _broadcast_shapes(*shapes, name=name)
    return [a if s == shape else broadcast_to(a, shape, name)
            for a, s in zip(args, shapes)]


def promote_args(name: str, *args: Any) -> list[Any]:
    """Check, promote (dtype) and broadcast (shape) the arguments of ``name``.

    Examples
    --------
    >>> from sciax._src.numpy.util import promote_args
    >>> x, y = promote_args("add", np.ones((2, 1), np.float32), 3)
    >>> x.shape, y.shape, y.dtype
    ((2, 1), (2, 1), dtype('float32'))
    """
    if len(args) == 2:
        a, b = args
        # fast path: two arrays (or tracers) of one type need no promotion
        if (type(a) is Array or isinstance(a, Tracer)) and \
                (type(b) is Array or isinstance(b, Tracer)) and a.aval == b.aval:
            return [a, b]
    args = [as_operand(name, a) for a in args]
    return promote_shapes(name, *promote_dtypes(*args))


def promote_args_inexact(name: str, *args: Any) -> list[Any]:
    """As :func:`promote_args`, with integer/bool results raised to the default float."""
    args = [as_operand(name, a) for a in args]
    return promote_shapes(name, *promote_dtypes_inexact(*args))


def promote_args_numeric(name: str, *args: Any) -> list[Any]:
    """As :func:`promote_args`; bools become int8 (NumPy's loops for ``power``,
    ``floor_divide`` and friends have no bool kernel)."""
    out = promote_args(name, *args)
    if out and get_aval(out[0]).dtype == dtypes.bool_:
        out = [cast(a, dtypes.int8) for a in out]
    return out


def check_dtype_kind(name: str, x: Any, kinds: str, what: str) -> None:
    """TypeError unless ``x``'s dtype kind is in ``kinds`` (NumPy kind codes)."""
    dt = get_aval(x).dtype
    kind = "f" if dt == dtypes.bfloat16 else dt.kind
    if kind not in kinds:
        raise TypeError(f"{name} is not supported for dtype {dt}; expected {what}")


def aval(x: Any) -> ShapedArray:
    return get_aval(x)


def ndim(x: Any) -> int:
    return len(get_aval(x).shape)


def canonicalize_axis(axis: Any, ndim: int, name: str = "axis") -> int:
    """A non-negative axis; :class:`numpy.exceptions.AxisError` if out of range."""
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {axis!r}") from None
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(
            f"{name} {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else axis


def canonicalize_axes(axis: Any, ndim: int, name: str = "axis") -> tuple[int, ...]:
    """``axis`` (None, an int or a sequence of ints) as a tuple of distinct
    non-negative axes; None means all axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, Sequence) and not isinstance(axis, str):
        axes = tuple(canonicalize_axis(a, ndim, name) for a in axis)
    else:
        axes = (canonicalize_axis(axis, ndim, name),)
    if len(set(axes)) != len(axes):
        raise ValueError(f"duplicate value in '{name}': {axis}")
    return axes


def concrete_int(x: Any, what: str) -> int:
    """A Python int from ``x``; TypeError naming ``what`` for traced or
    non-integer values (shapes, counts and axes must be static)."""
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{what} must be a static integer, got {x!r}") from None
