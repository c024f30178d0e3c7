"""Array creation: array/asarray, zeros/ones/full/empty and their ``_like``
forms, arange, linspace, eye, identity."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.arrays import Array, device_put
from sciax._src.core import dtypes
from sciax._src.core.avals import canonicalize_shape, get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import ufuncs, util
from sciax._src.numpy.elementary import i0
from sciax._src.numpy.gather_util import take_axis
from sciax._src.numpy.shape import concatenate, expand_dims, moveaxis, stack

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
    shape = canonicalize_shape(shape, name)
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


# --- more creation routines -------------------------------------------------------

def asanyarray(a: Any, dtype: Any = None, order: str | None = None) -> Any:
    """Same as :func:`asarray` (sciax has no array subclasses)."""
    return asarray(a, dtype=dtype, order=order)


def ascontiguousarray(a: Any, dtype: Any = None) -> Any:
    """Same as :func:`asarray`, with at least one dimension (as NumPy)."""
    return array(a, dtype=dtype, ndmin=1)


def asarray_chkfinite(a: Any, dtype: Any = None, order: str | None = None) -> Any:
    """:func:`asarray` that raises ValueError for NaN or inf (concrete input only)."""
    out = asarray(a, dtype=dtype, order=order)
    if isinstance(out, Tracer):
        raise TypeError("asarray_chkfinite needs a concrete array (it checks the "
                        "values); it cannot be used on traced values inside jit")
    v = np.asarray(out)
    if v.dtype.kind in "fc" and not np.isfinite(v).all():
        raise ValueError("asarray_chkfinite: array must not contain infs or NaNs")
    return out


def copy(a: Any, order: str = "K", subok: bool = False) -> Any:
    """A copy of ``a`` (arrays are immutable, so this is :func:`asarray`)."""
    return asarray(a)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    """``x`` converted to ``dtype`` (Array API function).

    Examples
    --------
    >>> snp.astype(snp.arange(3), snp.float32)
    Array([0., 1., 2.], dtype=float32)
    """
    util.check_arraylike("astype", x)
    return util.cast(util.as_operand("astype", x), _dtype_arg(dtype))


def logspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
             base: ArrayLike = 10.0, dtype: Any = None, axis: int = 0) -> Any:
    """``base ** linspace(start, stop, num)``.

    Examples
    --------
    >>> snp.logspace(0.0, 2.0, 3)
    Array([  1.,  10., 100.], dtype=float64)
    """
    y = linspace(start, stop, num, endpoint=endpoint, axis=axis)
    base = util.as_operand("logspace", base)
    if util.ndim(base):
        base = expand_dims(base, util.canonicalize_axis(axis, util.ndim(y)))
    out = ufuncs.power(base, y)
    return out if dtype is None else _cast_result(out, dtype)


def _cast_result(x: Any, dtype: Any) -> Any:
    dt = _dtype_arg(dtype)
    if dtypes.is_integer(dt) and not dtypes.is_integer(get_aval(x).dtype):
        x = lax.floor(x)
    return util.cast(x, dt)


def geomspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
              dtype: Any = None, axis: int = 0) -> Any:
    """Numbers spaced evenly on a log scale from ``start`` to ``stop`` (a
    geometric progression); the end points are exact.

    Examples
    --------
    >>> snp.geomspace(1.0, 1000.0, 4)
    Array([   1.,   10.,  100., 1000.], dtype=float64)
    """
    start, stop = util.promote_args_inexact("geomspace", start, stop)
    if isinstance(start, Array) and isinstance(stop, Array) and (
            np.any(np.asarray(start) == 0) or np.any(np.asarray(stop) == 0)):
        raise ValueError("geomspace: a sequence cannot include zero")
    dt = get_aval(start).dtype
    if dtypes.is_complex(dt):
        y = ufuncs.exp(linspace(ufuncs.log(start), ufuncs.log(stop), num,
                                endpoint=endpoint, axis=0))
    else:
        # the sign of start gives the sign of every sample (same-sign end points)
        sign = ufuncs.sign(start)
        la, lb = ufuncs.log10(ufuncs.abs(start)), ufuncs.log10(ufuncs.abs(stop))
        y = ufuncs.multiply(sign, ufuncs.power(10.0, linspace(la, lb, num,
                                                              endpoint=endpoint)))
    if num > 0:
        parts = [expand_dims(start, 0)]
        if endpoint and num > 1:
            parts += [y[1:-1], expand_dims(stop, 0)]
        else:
            parts.append(y[1:])
        y = concatenate([util.cast(p, get_aval(y).dtype) for p in parts], 0)
    ax = util.canonicalize_axis(axis, util.ndim(y))
    if ax:
        y = moveaxis(y, 0, ax)
    return y if dtype is None else _cast_result(y, dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Any:
    """An ``N x M`` array with ones at and below the ``k``-th diagonal.

    Examples
    --------
    >>> snp.tri(3, dtype=int)
    Array([[1, 0, 0],
           [1, 1, 0],
           [1, 1, 1]], dtype=int64)
    """
    N = util.concrete_int(N, "tri: N")
    M = N if M is None else util.concrete_int(M, "tri: M")
    k = util.concrete_int(k, "tri: k")
    dt = _dtype_arg(dtype) or dtypes.default_float()
    return util.cast(_tri_mask((N, M), k), dt)


def _tri_mask(shape: tuple[int, int], k: int) -> Any:
    rows = lax.broadcasted_iota(dtypes.int64, shape, 0)
    cols = lax.broadcasted_iota(dtypes.int64, shape, 1)
    return lax.ge(lax.add(rows, k), cols)


def _tri_select(name: str, m: Any, k: int, lower: bool) -> Any:
    util.check_arraylike(name, m)
    m = util.as_operand(name, m)
    k = util.concrete_int(k, f"{name}: k")
    s = get_aval(m).shape
    if len(s) < 1:
        raise ValueError(f"{name}: input must be at least 1-d, got a scalar")
    if len(s) == 1:
        m = util.broadcast_to(m, (s[0], s[0]), name)
        s = get_aval(m).shape
    mask = _tri_mask(s[-2:], k if lower else k - 1)
    if not lower:
        mask = lax.bitwise_not(mask)
    mask = lax.broadcast_in_dim(mask, s, (len(s) - 2, len(s) - 1))
    return lax.select(mask, m, lax.full_like(m, 0))


def tril(m: ArrayLike, k: int = 0) -> Any:
    """``m`` with the elements above the ``k``-th diagonal zeroed (on the last
    two axes).

    Examples
    --------
    >>> snp.tril(snp.ones((2, 3), dtype=int))
    Array([[1, 0, 0],
           [1, 1, 0]], dtype=int64)
    """
    return _tri_select("tril", m, k, True)


def triu(m: ArrayLike, k: int = 0) -> Any:
    """``m`` with the elements below the ``k``-th diagonal zeroed (on the last
    two axes)."""
    return _tri_select("triu", m, k, False)


def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """The ``offset`` diagonal of the 2-d sub-arrays on ``axis1``/``axis2``; it
    becomes the last axis of the result.

    Examples
    --------
    >>> snp.diagonal(snp.arange(9).reshape(3, 3), 1)
    Array([1, 5], dtype=int64)
    """
    util.check_arraylike("diagonal", a)
    a = util.as_operand("diagonal", a)
    nd = util.ndim(a)
    if nd < 2:
        raise ValueError(f"diagonal requires an array of at least two dimensions, got "
                         f"{nd}")
    i = util.canonicalize_axis(axis1, nd, "axis1")
    j = util.canonicalize_axis(axis2, nd, "axis2")
    if i == j:
        raise ValueError("diagonal: axis1 and axis2 cannot be the same")
    offset = util.concrete_int(offset, "diagonal: offset")
    a = moveaxis(a, (i, j), (-2, -1))
    s = get_aval(a).shape
    n, m = s[-2], s[-1]
    length = builtins_max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))
    rows = np.arange(length) + builtins_max(-offset, 0)
    cols = np.arange(length) + builtins_max(offset, 0)
    flat = lax.reshape(a, (*s[:-2], n * m))

    return take_axis(flat, rows * m + cols, len(s) - 2)


def builtins_max(a: int, b: int) -> int:
    return a if a >= b else b


def diag(v: ArrayLike, k: int = 0) -> Any:
    """The ``k``-th diagonal of a 2-d ``v``, or a 2-d array with the 1-d ``v`` on
    its ``k``-th diagonal.

    Examples
    --------
    >>> snp.diag(snp.array([1, 2]))
    Array([[1, 0],
           [0, 2]], dtype=int64)
    >>> snp.diag(snp.arange(4).reshape(2, 2))
    Array([0, 3], dtype=int64)
    """
    util.check_arraylike("diag", v)
    v = util.as_operand("diag", v)
    s = get_aval(v).shape
    k = util.concrete_int(k, "diag: k")
    if len(s) == 2:
        return diagonal(v, k)
    if len(s) != 1:
        raise ValueError(f"diag: input must be 1-d or 2-d, got shape {s}")
    n = s[0] + abs(k)
    rows = lax.broadcasted_iota(dtypes.int64, (n, n), 0)
    cols = lax.broadcasted_iota(dtypes.int64, (n, n), 1)
    mask = lax.eq(lax.add(rows, k), cols)
    # row r holds v[r] (k >= 0), column c holds v[c] (k < 0); v padded to n
    vp = lax.pad(v, lax.full((), 0, get_aval(v).dtype), ((0, abs(k), 0),))
    src = lax.broadcast_in_dim(vp, (n, n), (0 if k >= 0 else 1,))
    return lax.select(mask, src, lax.full_like(src, 0))


def diagflat(v: ArrayLike, k: int = 0) -> Any:
    """A 2-d array with the flattened ``v`` on its ``k``-th diagonal."""
    util.check_arraylike("diagflat", v)
    v = util.as_operand("diagflat", v)
    return diag(lax.reshape(v, (get_aval(v).size,)), k)


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Any:
    """The Vandermonde matrix of the 1-d ``x``: columns are powers of ``x``.

    Examples
    --------
    >>> snp.vander(snp.array([1, 2, 3]), 3)
    Array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]], dtype=int64)
    """
    util.check_arraylike("vander", x)
    x = util.as_operand("vander", x)
    if util.ndim(x) != 1:
        raise ValueError(f"vander: x must be a one-dimensional array, got shape "
                         f"{get_aval(x).shape}")
    n = get_aval(x).shape[0]
    N = n if N is None else util.concrete_int(N, "vander: N")
    powers = np.arange(N) if increasing else np.arange(N - 1, -1, -1)
    if N == 0:
        return zeros((n, 0), get_aval(x).dtype)
    xb = lax.broadcast_in_dim(x, (n, N), (0,))
    return ufuncs.power(xb, device_put(powers.astype(
        get_aval(x).dtype if dtypes.is_integer(get_aval(x).dtype) else np.int64)))


def meshgrid(*xi: ArrayLike, copy: bool = True, sparse: bool = False,
             indexing: str = "xy") -> list[Any]:
    """Coordinate matrices from coordinate vectors (``indexing='xy'``:
    Cartesian, the first two axes swapped; ``'ij'``: matrix indexing).

    Examples
    --------
    >>> X, Y = snp.meshgrid(snp.arange(3), snp.arange(2))
    >>> X.shape, Y.shape
    ((2, 3), (2, 3))
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    util.check_arraylike("meshgrid", *xi)
    xs = [util.as_operand("meshgrid", x) for x in xi]
    xs = [lax.reshape(x, (get_aval(x).size,)) for x in xs]
    shape = [get_aval(x).shape[0] for x in xs]
    if indexing == "xy" and len(xs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        d = i
        if indexing == "xy" and len(xs) > 1 and i < 2:
            d = 1 - i
        if sparse:
            s = [1] * len(xs)
            s[d] = shape[d]
            out.append(lax.reshape(x, tuple(s)))
        else:
            out.append(lax.broadcast_in_dim(x, tuple(shape), (d,)))
    return out


def indices(dimensions: Any, dtype: Any = None, sparse: bool = False) -> Any:
    """An array of the index grids of an array of shape ``dimensions``.

    Examples
    --------
    >>> snp.indices((2, 3))[1]
    Array([[0, 1, 2],
           [0, 1, 2]], dtype=int64)
    """
    dims = canonicalize_shape(dimensions, "indices")
    dt = _dtype_arg(dtype) or dtypes.default_int()
    grids = []
    for i, n in enumerate(dims):
        if sparse:
            s = [1] * len(dims)
            s[i] = n
            grids.append(lax.broadcasted_iota(dt, tuple(s), i))
        else:
            grids.append(lax.broadcasted_iota(dt, dims, i))
    if sparse:
        return tuple(grids)

    if not grids:
        return zeros((0,), dt)
    return stack(grids)


def fromfunction(function: Any, shape: Any, *, dtype: Any = float, **kwargs: Any) -> Any:
    """``function(*indices(shape, dtype))``: the function is called once with
    the index grids (it must work on arrays).

    Examples
    --------
    >>> snp.fromfunction(lambda i, j: i + j, (2, 2), dtype=int)
    Array([[0, 1],
           [1, 2]], dtype=int64)
    """
    shape = canonicalize_shape(shape, "fromfunction")
    grids = indices(shape, dtype=dtype)
    return function(*[grids[i] for i in range(len(shape))], **kwargs)


class _IndexGrid:
    """``mgrid``/``ogrid``: slices in, index grids out (``snp.mgrid[0:3, 0:2]``)."""

    def __init__(self, sparse: bool, name: str) -> None:
        self.sparse = sparse
        self.name = name

    def __getitem__(self, key: Any) -> Any:
        single = not isinstance(key, tuple)
        keys = (key,) if single else key
        axes = []
        for k in keys:
            if not isinstance(k, slice):
                raise TypeError(f"{self.name}: indices must be slices, got {k!r}")
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, complex):
                axes.append(linspace(start, k.stop, int(abs(step)), endpoint=True))
            else:
                axes.append(arange(start, k.stop, step))
        if single:
            return axes[0]
        dt = util.result_dtype(*axes)[0]
        axes = [util.cast(a, dt) for a in axes]
        grids = meshgrid(*axes, indexing="ij", sparse=self.sparse)
        if self.sparse:
            return tuple(grids)

        return stack(grids)


mgrid = _IndexGrid(False, "mgrid")
ogrid = _IndexGrid(True, "ogrid")


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Any, Any]:
    """Row and column indices of the lower triangle of an ``n x m`` array."""
    r, c = np.tril_indices(util.concrete_int(n, "tril_indices: n"), k, m)
    return device_put(r), device_put(c)


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Any, Any]:
    """Row and column indices of the upper triangle of an ``n x m`` array."""
    r, c = np.triu_indices(util.concrete_int(n, "triu_indices: n"), k, m)
    return device_put(r), device_put(c)


def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Any, Any]:
    """:func:`tril_indices` for the shape of the 2-d ``arr``."""
    s = get_aval(util.as_operand("tril_indices_from", arr)).shape
    if len(s) != 2:
        raise ValueError(f"tril_indices_from: input array must be 2-d, got shape {s}")
    return tril_indices(s[0], k, s[1])


def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Any, Any]:
    """:func:`triu_indices` for the shape of the 2-d ``arr``."""
    s = get_aval(util.as_operand("triu_indices_from", arr)).shape
    if len(s) != 2:
        raise ValueError(f"triu_indices_from: input array must be 2-d, got shape {s}")
    return triu_indices(s[0], k, s[1])


def diag_indices(n: int, ndim: int = 2) -> tuple[Any, ...]:
    """Indices of the main diagonal of an ``n``-sided ``ndim``-d array."""
    idx = lax.iota(dtypes.default_int(), util.concrete_int(n, "diag_indices: n"))
    return (idx,) * ndim


def diag_indices_from(arr: ArrayLike) -> tuple[Any, ...]:
    """:func:`diag_indices` for ``arr`` (all sides equal)."""
    s = get_aval(util.as_operand("diag_indices_from", arr)).shape
    if len(s) < 2 or len(set(s)) != 1:
        raise ValueError(f"diag_indices_from: input array must be at least 2-d with all "
                         f"dimensions equal, got shape {s}")
    return diag_indices(s[0], len(s))


def mask_indices(n: int, mask_func: Any, k: int = 0) -> tuple[Any, Any]:
    """Indices where ``mask_func(ones((n, n)), k)`` is nonzero (e.g. triu)."""
    m = np.asarray(mask_func(ones((n, n), dtypes.int64), k))
    r, c = np.nonzero(m)
    return device_put(r), device_put(c)


def _window(name: str, M: int, fn: Any) -> Any:
    M = util.concrete_int(M, f"{name}: M")
    dt = dtypes.default_float()
    if M < 1:
        return zeros((0,), dt)
    if M == 1:
        return ones((1,), dt)
    n = lax.iota(dt, M)
    return fn(n, M)


def bartlett(M: int) -> Any:
    """The Bartlett (triangular) window of ``M`` points."""
    return _window("bartlett", M, lambda n, M: ufuncs.subtract(
        1.0, ufuncs.abs(ufuncs.subtract(ufuncs.multiply(2.0 / (M - 1), n), 1.0))))


def _cosine_window(coefs: tuple[float, ...]) -> Any:
    def fn(n: Any, M: int) -> Any:
        out = None
        for i, c in enumerate(coefs):
            term = c if i == 0 else ufuncs.multiply(
                c, ufuncs.cos(ufuncs.multiply(2.0 * np.pi * i / (M - 1), n)))
            out = term if out is None else ufuncs.add(out, term)
        return out
    return fn


def blackman(M: int) -> Any:
    """The Blackman window of ``M`` points."""
    return _window("blackman", M, _cosine_window((0.42, -0.5, 0.08)))


def hamming(M: int) -> Any:
    """The Hamming window of ``M`` points."""
    return _window("hamming", M, _cosine_window((0.54, -0.46)))


def hanning(M: int) -> Any:
    """The Hann window of ``M`` points."""
    return _window("hanning", M, _cosine_window((0.5, -0.5)))


def kaiser(M: int, beta: ArrayLike) -> Any:
    """The Kaiser window of ``M`` points with shape parameter ``beta``."""

    def fn(n: Any, M: int) -> Any:
        alpha = (M - 1) / 2.0
        r = ufuncs.divide(ufuncs.subtract(n, alpha), alpha)
        arg = ufuncs.multiply(beta, ufuncs.sqrt(ufuncs.subtract(1.0, ufuncs.square(r))))
        return ufuncs.divide(i0(arg), i0(util.cast(beta, get_aval(n).dtype)))
    return _window("kaiser", M, fn)


__all__ = [
    "asanyarray", "ascontiguousarray", "asarray_chkfinite", "copy", "astype",
    "logspace", "geomspace", "tri", "tril", "triu", "diagonal", "diag", "diagflat",
    "vander", "meshgrid", "indices", "fromfunction", "mgrid", "ogrid", "tril_indices",
    "triu_indices", "tril_indices_from", "triu_indices_from", "diag_indices",
    "diag_indices_from", "mask_indices", "bartlett", "blackman", "hamming", "hanning",
    "kaiser",
]
