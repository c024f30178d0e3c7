"""Array creation: array/asarray, zeros/ones/full/empty and their ``_like``
forms, arange, linspace, eye, identity."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.backend.array import Array, device_put
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import util

ArrayLike = Any


def _dtype_arg(dtype: Any) -> np.dtype | None:
    return None if dtype is None else dtypes.canonicalize_dtype(np.dtype(dtype))


def _has_traced(obj: Any) -> bool:
    if isinstance(obj, Array | Tracer):
        return True
    if isinstance(obj, list | tuple):
        return any(_has_traced(o) for o in obj)
    return False


def array(object: Any, dtype: Any = None, copy: bool = True, order: str | None = "K",
          ndmin: int = 0) -> Any:
    """Create an array from ``object`` (an Array, NumPy array, scalar or nested
    sequence).

    Parameters
    ----------
    object : array_like
        Nested lists may mix numbers and sciax arrays (they are stacked).
    dtype : dtype, optional
        Defaults to the dtype of ``object``; Python ints and floats give the
        default integer/float dtype (64-bit unless x64 is disabled).
    copy : bool
        Arrays are immutable, so sharing storage is never observable: accepted
        for compatibility.
    order : {'K', 'A', 'C', None}
        Only C order exists; 'F' raises NotImplementedError.
    ndmin : int
        Leading axes of size 1 are added up to this number of dimensions.

    Returns
    -------
    Array

    Raises
    ------
    TypeError
        For objects, strings and other values that are not numbers.

    Examples
    --------
    >>> snp.array([[1, 2], [3, 4]])
    Array([[1, 2],
           [3, 4]], dtype=int64)
    >>> snp.array([1, 2], dtype=snp.float32)
    Array([1., 2.], dtype=float32)
    """
    if order not in (None, "K", "A", "C"):
        raise NotImplementedError(f"array: only C order is supported, got order={order!r}")
    dt = _dtype_arg(dtype)
    if isinstance(object, Array | Tracer):
        out = object if dt is None else util.cast(object, dt)
    elif isinstance(object, list | tuple) and _has_traced(object):
        from sciax._src.numpy.shape import stack

        if not object:
            out = device_put(np.zeros((0,), dt or dtypes.default_float()))
        else:
            out = stack([array(o, dtype) for o in object])
    elif dtypes.is_python_scalar(object):
        out = util.cast(object, dt or dtypes.python_scalar_dtype(object),
                        dt is None and dtypes.is_weakly_typed(object))
    else:
        if hasattr(object, "__array__") or isinstance(
                object, np.ndarray | np.generic | list | tuple):
            try:
                value = np.asarray(object)
            except (ValueError, TypeError) as err:
                raise TypeError(f"array: cannot convert {util._describe(object)} to an "
                                f"array ({err})") from None
        else:
            raise TypeError(f"array: cannot convert {util._describe(object)} to a sciax "
                            "array; expected numbers, sequences of numbers or arrays")
        if value.dtype.kind not in "biufc" and value.dtype != dtypes.bfloat16:
            raise TypeError(
                f"array: cannot convert {util._describe(object)} to a sciax array: "
                f"dtype {value.dtype} ({util._bad_kinds.get(value.dtype.kind, 'other')})"
                " is not numeric")
        if dt is not None:
            value = value.astype(dt)
        out = device_put(value)
    nd = util.ndim(out)
    if ndmin > nd:
        out = lax.reshape(out, (1,) * (ndmin - nd) + get_aval(out).shape)
    return out


def asarray(a: Any, dtype: Any = None, order: str | None = None, *,
            copy: bool | None = None) -> Any:
    """Convert ``a`` to an array; Arrays of the right dtype are returned as is.

    Examples
    --------
    >>> snp.asarray([1.0, 2.0]).dtype
    dtype('float64')
    """
    return array(a, dtype=dtype, copy=bool(copy), order=order)


def _full(name: str, shape: Any, fill_value: Any, dtype: np.dtype, weak: bool = False
          ) -> Any:
    shape = util.as_shape(shape, name)
    return util.broadcast_to(util.cast(fill_value, dtype, weak), shape, name)


def zeros(shape: Any, dtype: Any = None) -> Any:
    """An array of zeros (default dtype: the default float).

    Examples
    --------
    >>> snp.zeros((2, 3)).shape
    (2, 3)
    """
    return _full("zeros", shape, 0, _dtype_arg(dtype) or dtypes.default_float())


def ones(shape: Any, dtype: Any = None) -> Any:
    """An array of ones (default dtype: the default float).

    Examples
    --------
    >>> snp.ones(3, dtype=snp.int32)
    Array([1, 1, 1], dtype=int32)
    """
    return _full("ones", shape, 1, _dtype_arg(dtype) or dtypes.default_float())


def empty(shape: Any, dtype: Any = None) -> Any:
    """Same as :func:`zeros`: sciax arrays are never uninitialised."""
    return _full("empty", shape, 0, _dtype_arg(dtype) or dtypes.default_float())


def full(shape: Any, fill_value: ArrayLike, dtype: Any = None) -> Any:
    """An array of ``shape`` filled with ``fill_value`` (broadcast if an array).

    Examples
    --------
    >>> snp.full((2,), 7)
    Array([7, 7], dtype=int64)
    """
    util.check_arraylike("full", fill_value)
    fill_value = util.as_operand("full", fill_value)
    dt = _dtype_arg(dtype) or get_aval(fill_value).dtype
    return _full("full", shape, fill_value, dt)


def _like(name: str, a: Any, fill_value: Any, dtype: Any, shape: Any) -> Any:
    util.check_arraylike(name, a)
    a = util.as_operand(name, a)
    av = get_aval(a)
    dt = _dtype_arg(dtype) or av.dtype
    weak = dtype is None and av.weak_type
    return _full(name, av.shape if shape is None else shape, fill_value, dt, weak)


def zeros_like(a: ArrayLike, dtype: Any = None, shape: Any = None) -> Any:
    """Zeros with the shape and dtype of ``a``."""
    return _like("zeros_like", a, 0, dtype, shape)


def ones_like(a: ArrayLike, dtype: Any = None, shape: Any = None) -> Any:
    """Ones with the shape and dtype of ``a``."""
    return _like("ones_like", a, 1, dtype, shape)


def empty_like(a: ArrayLike, dtype: Any = None, shape: Any = None) -> Any:
    """Same as :func:`zeros_like`."""
    return _like("empty_like", a, 0, dtype, shape)


def full_like(a: ArrayLike, fill_value: ArrayLike, dtype: Any = None,
              shape: Any = None) -> Any:
    """``fill_value`` with the shape and dtype of ``a``."""
    util.check_arraylike("full_like", fill_value)
    return _like("full_like", a, util.as_operand("full_like", fill_value), dtype, shape)


def _concrete_scalar(x: Any, name: str) -> Any:
    if isinstance(x, Tracer):
        raise TypeError(f"{name}: arguments must be concrete numbers (they fix the "
                        f"output shape), got a traced value of shape {x.shape}")
    if isinstance(x, Array | np.ndarray | np.generic):
        if np.ndim(x) != 0:
            raise ValueError(f"{name}: expected a scalar, got an array of shape "
                             f"{np.shape(x)}")
        return np.asarray(x)[()]
    util.check_arraylike(name, x)
    return x


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Any:
    """Evenly spaced values in ``[start, stop)``, as ``np.arange``.

    Integer arguments give an integer array; the length is
    ``ceil((stop - start) / step)``, as in NumPy.  The arguments fix the output
    shape, so they must be concrete (not traced).

    Examples
    --------
    >>> snp.arange(4)
    Array([0, 1, 2, 3], dtype=int64)
    >>> snp.arange(1.0, 2.0, 0.25)
    Array([1.  , 1.25, 1.5 , 1.75], dtype=float64)
    """
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    start, stop, step = (_concrete_scalar(v, "arange") for v in (start, stop, step))
    dt = _dtype_arg(dtype) or util.result_dtype(start, stop, step)[0]
    if step == 0:
        raise ValueError("arange: step must not be zero")
    if dtypes.is_integer(dt) and all(
            isinstance(v, int | np.integer) for v in (start, stop, step)):
        n = max(0, -(-(int(stop) - int(start)) // int(step)))
        idx = lax.iota(dt, n)
        if step != 1:
            idx = lax.mul(idx, int(step))
        return idx if start == 0 else lax.add(idx, int(start))
    # Float ranges are filled on the host so every value is bit-for-bit NumPy's.
    return device_put(np.arange(start, stop, step, dtype=dt))


def linspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
             retstep: bool = False, dtype: Any = None, axis: int = 0) -> Any:
    """``num`` evenly spaced samples from ``start`` to ``stop``.

    ``start`` and ``stop`` may be arrays (they broadcast); the samples run
    along ``axis`` of the result.

    Examples
    --------
    >>> snp.linspace(0.0, 1.0, 5)
    Array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float64)
    """
    num = util.concrete_int(num, "linspace: num")
    if num < 0:
        raise ValueError(f"linspace: number of samples, {num}, must be non-negative")
    start, stop = util.promote_args_inexact("linspace", start, stop)
    dt = get_aval(start).dtype
    out_dt = _dtype_arg(dtype) or dt
    div = (num - 1) if endpoint else num
    bshape = get_aval(start).shape
    shape = (num, *bshape)
    dims = tuple(range(1, len(shape)))
    delta = lax.sub(stop, start)
    idx = lax.broadcasted_iota(dt, shape, 0)
    start_b = lax.broadcast_in_dim(start, shape, dims)
    step = lax.div(delta, float(div)) if div > 0 else None
    if step is not None:
        y = lax.add(lax.mul(idx, lax.broadcast_in_dim(step, shape, dims)), start_b)
    else:
        y = start_b
    if endpoint and num > 1:
        last = lax.eq(idx, float(num - 1))
        y = lax.select(last, lax.broadcast_in_dim(stop, shape, dims), y)
    if dtypes.is_integer(out_dt) and not dtypes.is_integer(dt):
        y = lax.floor(y)
    y = util.cast(y, out_dt)
    axis = util.canonicalize_axis(axis, len(shape))
    if axis != 0:
        from sciax._src.numpy.shape import moveaxis

        y = moveaxis(y, 0, axis)
    if retstep:
        return y, (step if step is not None else util.cast(math.nan, dt))
    return y


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Any:
    """A 2-d array with ones on the ``k``-th diagonal.

    Examples
    --------
    >>> snp.eye(2, 3, k=1, dtype=int)
    Array([[0, 1, 0],
           [0, 0, 1]], dtype=int64)
    """
    N = util.concrete_int(N, "eye: N")
    M = N if M is None else util.concrete_int(M, "eye: M")
    k = operator.index(k)
    if N < 0 or M < 0:
        raise ValueError(f"eye: negative dimensions are not allowed (N={N}, M={M})")
    dt = _dtype_arg(dtype) or dtypes.default_float()
    rows = lax.broadcasted_iota(dtypes.int64, (N, M), 0)
    cols = lax.broadcasted_iota(dtypes.int64, (N, M), 1)
    return util.cast(lax.eq(lax.add(rows, k), cols), dt)


def identity(n: int, dtype: Any = None) -> Any:
    """The ``n`` by ``n`` identity matrix."""
    return eye(n, dtype=dtype)
