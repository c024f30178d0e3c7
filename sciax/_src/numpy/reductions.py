"""Reductions with NumPy's ``axis``/``keepdims``/``dtype`` conventions: sum,
prod, mean, max/min, all/any, argmax/argmin, cumsum/cumprod."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.numpy import ufuncs, util
from sciax._src.numpy.ufuncs import multiply, subtract

ArrayLike = Any


def _operand(name: str, a: Any) -> Any:
    util.check_arraylike(name, a)
    return util.as_operand(name, a)


def _keepdims(out: Any, shape: tuple[int, ...], axes: tuple[int, ...]) -> Any:
    new_shape = tuple(1 if i in axes else d for i, d in enumerate(shape))
    return lax.reshape(out, new_shape)


def _upcast_int_dtype(dt: np.dtype) -> np.dtype:
    """NumPy's accumulator for sum/prod: small ints widen to the default int
    (unsigned ints to the unsigned int of that width), bool to the default int."""
    if dt == dtypes.bool_:
        return dtypes.default_int()
    if dtypes.issubdtype(dt, np.signedinteger) and dt.itemsize < \
            dtypes.default_int().itemsize:
        return dtypes.default_int()
    if dtypes.issubdtype(dt, np.unsignedinteger) and dt.itemsize < \
            dtypes.default_int().itemsize:
        return dtypes.canonicalize_dtype(np.dtype(f"uint{8 * dtypes.default_int().itemsize}"))
    return dt


def _reduce(name: str, a: Any, axis: Any, keepdims: bool, reducer: Callable,
            dtype: Any = None, initial: Any = None, identity: bool = True,
            upcast: bool = False) -> Any:
    a = _operand(name, a)
    av = get_aval(a)
    axes = util.canonicalize_axes(axis, av.ndim)
    if dtype is not None:
        dt = dtypes.canonicalize_dtype(np.dtype(dtype))
    else:
        dt = _upcast_int_dtype(av.dtype) if upcast else av.dtype
    a = util.cast(a, dt, av.weak_type and dtype is None and dt == av.dtype)
    if not identity and initial is None and builtins.any(av.shape[i] == 0 for i in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no "
                         f"identity (shape {av.shape}, axis {axis})")
    out = reducer(a, axes)
    if initial is not None:
        out = _combine_initial(name, out, initial)
    return _keepdims(out, av.shape, axes) if keepdims else out


def _combine_initial(name: str, out: Any, initial: Any) -> Any:
    op = {"sum": ufuncs.add, "prod": ufuncs.multiply, "max": ufuncs.maximum,
          "min": ufuncs.minimum}[name]
    res = op(out, initial)
    return util.cast(res, get_aval(out).dtype)


def _sum_reducer(a: Any, axes: tuple[int, ...]) -> Any:
    if get_aval(a).dtype == dtypes.bool_:
        return lax.reduce_or(a, axes)
    return lax.reduce_sum(a, axes)


def _prod_reducer(a: Any, axes: tuple[int, ...]) -> Any:
    if get_aval(a).dtype == dtypes.bool_:
        return lax.reduce_and(a, axes)
    return lax.reduce_prod(a, axes)


def sum(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
        keepdims: bool = False, initial: ArrayLike = None, where: None = None) -> Any:
    """Sum of array elements over ``axis`` (None: all axes; an int or a tuple).

    Integers narrower than the default integer are summed in it (bools too),
    as in NumPy.

    Examples
    --------
    >>> x = snp.arange(6).reshape(2, 3)
    >>> snp.sum(x)
    Array(15, dtype=int64)
    >>> snp.sum(x, axis=0, keepdims=True)
    Array([[3, 5, 7]], dtype=int64)
    """
    _no_out("sum", out, where)
    return _reduce("sum", a, axis, keepdims, _sum_reducer, dtype, initial,
                   upcast=True)


def prod(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
         keepdims: bool = False, initial: ArrayLike = None, where: None = None) -> Any:
    """Product of array elements over ``axis`` (integer dtypes widen as in :func:`sum`).

    Examples
    --------
    >>> snp.prod(snp.arange(1, 5))
    Array(24, dtype=int64)
    """
    _no_out("prod", out, where)
    return _reduce("prod", a, axis, keepdims, _prod_reducer, dtype, initial,
                   upcast=True)


def _max_reducer(a: Any, axes: tuple[int, ...]) -> Any:
    return lax.reduce_max(a, axes)


def _min_reducer(a: Any, axes: tuple[int, ...]) -> Any:
    return lax.reduce_min(a, axes)


def max(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False,
        initial: ArrayLike = None, where: None = None) -> Any:
    """Maximum over ``axis``; NaN propagates.  Empty reductions need ``initial``.

    Examples
    --------
    >>> snp.max(snp.array([[1, 5], [7, 2]]), axis=1)
    Array([5, 7], dtype=int64)
    """
    _no_out("max", out, where)
    return _reduce("max", a, axis, keepdims, _max_reducer, None, initial,
                   identity=False)


def min(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False,
        initial: ArrayLike = None, where: None = None) -> Any:
    """Minimum over ``axis``; NaN propagates.  Empty reductions need ``initial``.

    Examples
    --------
    >>> snp.min(snp.array([3.0, -1.0, 2.0]))
    Array(-1., dtype=float64)
    """
    _no_out("min", out, where)
    return _reduce("min", a, axis, keepdims, _min_reducer, None, initial,
                   identity=False)


amax, amin = max, min


def _bool_operand(a: Any) -> Any:
    av = get_aval(a)
    return a if av.dtype == dtypes.bool_ else lax.ne(a, lax.full_like(a, 0))


def all(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False,
        *, where: None = None) -> Any:
    """True where every element over ``axis`` is nonzero.

    Examples
    --------
    >>> snp.all(snp.array([[1, 0], [2, 3]]), axis=1)
    Array([False,  True], dtype=bool)
    """
    _no_out("all", out, where)
    a = _bool_operand(_operand("all", a))
    return _reduce("all", a, axis, keepdims, lax.reduce_and)


def any(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False,
        *, where: None = None) -> Any:
    """True where some element over ``axis`` is nonzero.

    Examples
    --------
    >>> snp.any(snp.array([[1, 0], [0, 0]]), axis=1)
    Array([ True, False], dtype=bool)
    """
    _no_out("any", out, where)
    a = _bool_operand(_operand("any", a))
    return _reduce("any", a, axis, keepdims, lax.reduce_or)


def mean(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
         keepdims: bool = False, *, where: None = None) -> Any:
    """Arithmetic mean over ``axis``; integers average in the default float dtype.

    An empty reduction gives NaN (NumPy also warns).

    Examples
    --------
    >>> snp.mean(snp.arange(4))
    Array(1.5, dtype=float64)
    >>> snp.mean(snp.ones((2, 3), dtype=snp.float32), axis=1)
    Array([1., 1.], dtype=float32)
    """
    _no_out("mean", out, where)
    a = _operand("mean", a)
    av = get_aval(a)
    axes = util.canonicalize_axes(axis, av.ndim)
    if dtype is None:
        dt = util.to_inexact_dtype(av.dtype)
    else:
        dt = dtypes.canonicalize_dtype(np.dtype(dtype))
    count = 1
    for i in axes:
        count *= av.shape[i]
    total = sum(util.cast(a, dt), axis=axes, dtype=dt, keepdims=keepdims)
    return lax.div(total, lax.full_like(total, count))


def _arg_reduce(name: str, a: Any, axis: Any, keepdims: bool,
                op: Callable[..., Any]) -> Any:
    a = _operand(name, a)
    av = get_aval(a)
    if axis is None:
        if av.size == 0:
            raise ValueError(f"attempt to get {name} of an empty sequence")
        flat = lax.reshape(a, (av.size,))
        out = op(flat, 0, dtypes.default_int())
        return lax.reshape(out, (1,) * av.ndim) if keepdims else out
    ax = util.canonicalize_axis(axis, av.ndim)
    if av.shape[ax] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence (axis {ax} of "
                         f"shape {av.shape} has size 0)")
    out = op(a, ax, dtypes.default_int())
    return _keepdims(out, av.shape, (ax,)) if keepdims else out


def argmax(a: ArrayLike, axis: int | None = None, out: None = None, *,
           keepdims: bool = False) -> Any:
    """Index of the (first) maximum along ``axis`` (None: of the flattened array).

    Examples
    --------
    >>> snp.argmax(snp.array([[1, 5], [7, 2]]), axis=1)
    Array([1, 0], dtype=int64)
    """
    _no_out("argmax", out, None)
    return _arg_reduce("argmax", a, axis, keepdims, lax.argmax)


def argmin(a: ArrayLike, axis: int | None = None, out: None = None, *,
           keepdims: bool = False) -> Any:
    """Index of the (first) minimum along ``axis`` (None: of the flattened array)."""
    _no_out("argmin", out, None)
    return _arg_reduce("argmin", a, axis, keepdims, lax.argmin)


def _cumulative(name: str, a: Any, axis: Any, dtype: Any, op: Callable[..., Any]
                ) -> Any:
    a = _operand(name, a)
    av = get_aval(a)
    if axis is None:
        a = lax.reshape(a, (av.size,))
        axis = 0
    ax = util.canonicalize_axis(axis, util.ndim(a))
    if dtype is not None:
        dt = dtypes.canonicalize_dtype(np.dtype(dtype))
    else:
        dt = _upcast_int_dtype(av.dtype)
    a = util.cast(a, dt)
    if dt == dtypes.bool_:
        a = util.cast(a, dtypes.default_int())
        return util.cast(op(a, axis=ax), dt)
    return op(a, axis=ax)


def cumsum(a: ArrayLike, axis: int | None = None, dtype: Any = None,
           out: None = None) -> Any:
    """Cumulative sum along ``axis`` (None: of the flattened array).

    Examples
    --------
    >>> snp.cumsum(snp.array([1, 2, 3]))
    Array([1, 3, 6], dtype=int64)
    """
    _no_out("cumsum", out, None)
    return _cumulative("cumsum", a, axis, dtype, lax.cumsum)


def cumprod(a: ArrayLike, axis: int | None = None, dtype: Any = None,
            out: None = None) -> Any:
    """Cumulative product along ``axis`` (None: of the flattened array)."""
    _no_out("cumprod", out, None)
    return _cumulative("cumprod", a, axis, dtype, lax.cumprod)


def _no_out(name: str, out: Any, where: Any) -> None:
    if out is not None:
        raise NotImplementedError(f"{name}: the out argument is not supported (sciax "
                                  "arrays are immutable); use the return value")
    if where is not None:
        raise NotImplementedError(f"{name}: the where argument is not supported yet")


# --- statistics over axes: var/std/ptp/average/count_nonzero ----------------------

def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    n = 1
    for i in axes:
        n *= shape[i]
    return n


def _abs2(x: Any) -> Any:
    if dtypes.is_complex(get_aval(x).dtype):
        re, im = lax.real(x), lax.imag(x)
        return lax.add(lax.mul(re, re), lax.mul(im, im))
    return lax.mul(x, x)


def var(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
        ddof: int = 0, keepdims: bool = False, *, where: None = None,
        mean: Any = None, correction: Any = None) -> Any:
    """Variance over ``axis``: ``sum(|a - mean(a)|**2) / (N - ddof)``.

    Integers give the default float; complex input a real result.  ``N - ddof
    <= 0`` gives inf/NaN as in NumPy (which also warns).

    Examples
    --------
    >>> snp.var(snp.array([1.0, 2.0, 3.0, 4.0]))
    Array(1.25, dtype=float64)
    >>> snp.var(snp.array([1.0, 2.0, 3.0, 4.0]), ddof=1)
    Array(1.66666667, dtype=float64)
    """
    _no_out("var", out, where)
    if correction is not None:
        ddof = correction
    a = _operand("var", a)
    av = get_aval(a)
    axes = util.canonicalize_axes(axis, av.ndim)
    dt = util.to_inexact_dtype(av.dtype) if dtype is None else \
        dtypes.canonicalize_dtype(np.dtype(dtype))
    a = util.cast(a, dt)
    if mean is None:
        mu = globals()["mean"](a, axis=axes, keepdims=True)
    else:
        mu = util.broadcast_to(util.cast(mean, dt), _kept_shape(av.shape, axes), "var")
    centered = lax.sub(a, lax.broadcast_in_dim(
        lax.reshape(mu, _kept_shape(av.shape, axes)), av.shape, tuple(range(av.ndim))))
    sq = _abs2(centered)
    total = lax.reduce_sum(sq, axes)
    n = _count(av.shape, axes) - ddof
    res = lax.div(total, lax.full_like(total, n if n > 0 else 0))
    return _keepdims(res, av.shape, axes) if keepdims else res


def _kept_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def std(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
        ddof: int = 0, keepdims: bool = False, *, where: None = None,
        mean: Any = None, correction: Any = None) -> Any:
    """Standard deviation over ``axis``: ``sqrt(var(a, axis, ddof=ddof))``.

    Where the variance is 0 (an axis of length 1, or all values equal) the
    derivative is 0: exact for length 1, a subgradient otherwise.

    Examples
    --------
    >>> snp.std(snp.array([1.0, 3.0]))
    Array(1., dtype=float64)
    """
    _no_out("std", out, where)
    return safe_sqrt(var(a, axis, dtype, None, ddof, keepdims, mean=mean,
                         correction=correction))


def safe_sqrt(v: Any) -> Any:
    """``sqrt(v)`` with derivatives of every order 0 where ``v == 0``.

    std is constant (0) over an axis of length 1, and at data that are all
    equal it is not differentiable (0 is a subgradient: std is a seminorm);
    the plain ``sqrt`` would give ``inf * 0 = nan`` there.
    """
    zero = lax.eq(v, lax.full_like(v, 0))
    safe = lax.select(zero, lax.full_like(v, 1), v)
    return lax.select(zero, lax.full_like(v, 0), lax.sqrt(safe))


def ptp(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False
        ) -> Any:
    """Range (maximum minus minimum) over ``axis``.

    Examples
    --------
    >>> snp.ptp(snp.array([[4, 9], [1, 2]]), axis=0)
    Array([3, 7], dtype=int64)
    """
    _no_out("ptp", out, None)

    a = _operand("ptp", a)
    if get_aval(a).dtype == dtypes.bool_:
        raise TypeError("ptp: numpy boolean subtract is not supported; convert the "
                        "input to an integer dtype first")
    return subtract(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


def count_nonzero(a: ArrayLike, axis: Any = None, *, keepdims: bool = False) -> Any:
    """The number of nonzero elements over ``axis`` (the default integer dtype).

    Examples
    --------
    >>> snp.count_nonzero(snp.array([[0, 1], [2, 0]]), axis=1)
    Array([1, 1], dtype=int64)
    """
    a = _bool_operand(_operand("count_nonzero", a))
    return sum(a, axis, dtype=dtypes.default_int(), keepdims=keepdims)


def average(a: ArrayLike, axis: Any = None, weights: ArrayLike = None,
            returned: bool = False, *, keepdims: bool = False) -> Any:
    """Weighted average over ``axis``: ``sum(a * w) / sum(w)``.

    ``weights`` has ``a``'s shape, or is 1-d along a single ``axis``.

    Examples
    --------
    >>> snp.average(snp.array([1.0, 2.0, 4.0]), weights=snp.array([1.0, 1.0, 2.0]))
    Array(2.75, dtype=float64)
    """
    a = _operand("average", a)
    av = get_aval(a)
    axes = util.canonicalize_axes(axis, av.ndim)
    if weights is None:
        avg = mean(a, axes, keepdims=keepdims)
        if not returned:
            return avg
        n = _count(av.shape, axes)
        return avg, lax.full_like(avg, n)
    w = _operand("average", weights)
    ws = get_aval(w).shape
    a, w = util.promote_dtypes_inexact(a, w)
    if ws != av.shape:
        if axis is None:
            raise TypeError(f"average: axis must be specified when shapes of a {av.shape}"
                            f" and weights {ws} differ")
        if len(ws) != 1 or len(axes) != 1:
            raise TypeError(f"average: 1D weights expected when shapes of a {av.shape} "
                            f"and weights {ws} differ")
        if ws[0] != av.shape[axes[0]]:
            raise ValueError(f"average: length of weights {ws[0]} differs from that of "
                             f"a along axis {axes[0]} ({av.shape[axes[0]]})")
        w = lax.broadcast_in_dim(w, av.shape, axes)

    scl = sum(w, axes, keepdims=keepdims)
    avg = lax.div(sum(multiply(a, w), axes, keepdims=keepdims), scl)
    if returned:
        return avg, scl
    return avg


def cumulative_sum(x: ArrayLike, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False) -> Any:
    """Array API cumulative sum; ``include_initial`` prepends a zero."""
    return _cumulative_api("cumulative_sum", x, axis, dtype, include_initial, cumsum, 0)


def cumulative_prod(x: ArrayLike, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False) -> Any:
    """Array API cumulative product; ``include_initial`` prepends a one."""
    return _cumulative_api("cumulative_prod", x, axis, dtype, include_initial, cumprod,
                           1)


def _cumulative_api(name: str, x: Any, axis: Any, dtype: Any, include_initial: bool,
                    fn: Callable, init: int) -> Any:
    x = _operand(name, x)
    nd = util.ndim(x)
    if axis is None:
        if nd > 1:
            raise ValueError(f"{name}: axis must be specified for a {nd}-d input")
        axis = 0
    if nd == 0:
        x = lax.reshape(x, (1,))
    ax = util.canonicalize_axis(axis, util.ndim(x))
    out = fn(x, ax, dtype)
    if include_initial:
        cfg = [(0, 0, 0)] * util.ndim(out)
        cfg[ax] = (1, 0, 0)
        out = lax.pad(out, lax.full((), init, get_aval(out).dtype), tuple(cfg))
    return out


__all__ = ["var", "std", "ptp", "count_nonzero", "average", "cumulative_sum",
           "cumulative_prod"]
