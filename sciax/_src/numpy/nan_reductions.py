"""NaN-ignoring reductions: nansum, nanprod, nanmax, nanmin, nanmean, nanvar,
nanstd, nanargmax, nanargmin, nancumsum, nancumprod (nanmedian and
nanquantile live in :mod:`statistics`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.numpy import reductions, util
from sciax._src.numpy.ufuncs import isnan, subtract

ArrayLike = Any

__all__ = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd",
           "nanargmax", "nanargmin", "nancumsum", "nancumprod"]


def _replace_nan(a: Any, value: Any) -> tuple[Any, Any]:
    if not dtypes.is_inexact(get_aval(a).dtype):
        return a, None
    mask = isnan(a)
    return lax.select(mask, lax.full_like(a, value), a), mask


def nansum(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
           keepdims: bool = False, initial: Any = None, where: None = None) -> Any:
    """:func:`sum` treating NaNs as zero.

    Examples
    --------
    >>> snp.nansum(snp.array([1.0, snp.nan, 2.0]))
    Array(3., dtype=float64)
    """
    a, _ = _replace_nan(util.operand("nansum", a), 0)
    return reductions.sum(a, axis, dtype, out, keepdims, initial, where)


def nanprod(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
            keepdims: bool = False, initial: Any = None, where: None = None) -> Any:
    """:func:`prod` treating NaNs as one."""
    a, _ = _replace_nan(util.operand("nanprod", a), 1)
    return reductions.prod(a, axis, dtype, out, keepdims, initial, where)


def _nan_extreme(name: str, a: Any, axis: Any, keepdims: bool, fn: Any, fill: float,
                 initial: Any) -> Any:
    a = util.operand(name, a)
    b, mask = _replace_nan(a, fill)
    out = fn(b, axis, keepdims=keepdims, initial=initial)
    if mask is None:
        return out
    all_nan = reductions.all(mask, axis, keepdims=keepdims)
    return lax.select(all_nan, lax.full_like(out, np.nan), out)


def nanmax(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False,
           initial: Any = None, where: None = None) -> Any:
    """:func:`max` ignoring NaNs (all-NaN slices give NaN).

    Examples
    --------
    >>> snp.nanmax(snp.array([1.0, snp.nan, 2.0]))
    Array(2., dtype=float64)
    """
    reductions._no_out("nanmax", out, where)
    return _nan_extreme("nanmax", a, axis, keepdims, reductions.max, -np.inf, initial)


def nanmin(a: ArrayLike, axis: Any = None, out: None = None, keepdims: bool = False,
           initial: Any = None, where: None = None) -> Any:
    """:func:`min` ignoring NaNs (all-NaN slices give NaN)."""
    reductions._no_out("nanmin", out, where)
    return _nan_extreme("nanmin", a, axis, keepdims, reductions.min, np.inf, initial)


def _count(a: Any, mask: Any, axis: Any, keepdims: bool, dt: Any) -> Any:
    if mask is None:
        ones = lax.full_like(a, 1, dt)
        return reductions.sum(ones, axis, dtype=dt, keepdims=keepdims)
    return reductions.sum(util.cast(lax.bitwise_not(mask), dt), axis, dtype=dt,
                          keepdims=keepdims)


def nanmean(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
            keepdims: bool = False, *, where: None = None) -> Any:
    """:func:`mean` ignoring NaNs (all-NaN slices give NaN).

    Examples
    --------
    >>> snp.nanmean(snp.array([1.0, snp.nan, 2.0]))
    Array(1.5, dtype=float64)
    """
    reductions._no_out("nanmean", out, where)
    a = util.operand("nanmean", a)
    dt = util.to_inexact_dtype(get_aval(a).dtype) if dtype is None else \
        dtypes.canonicalize_dtype(np.dtype(dtype))
    a = util.cast(a, dt)
    b, mask = _replace_nan(a, 0)
    total = reductions.sum(b, axis, dtype=dt, keepdims=keepdims)
    n = _count(a, mask, axis, keepdims, get_aval(total).dtype)
    return lax.div(total, n)


def nanvar(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
           ddof: int = 0, keepdims: bool = False, *, where: None = None,
           mean: Any = None, correction: Any = None) -> Any:
    """:func:`var` ignoring NaNs."""
    reductions._no_out("nanvar", out, where)
    if correction is not None:
        ddof = correction
    a = util.operand("nanvar", a)
    dt = util.to_inexact_dtype(get_aval(a).dtype) if dtype is None else \
        dtypes.canonicalize_dtype(np.dtype(dtype))
    a = util.cast(a, dt)
    mu = nanmean(a, axis, keepdims=True) if mean is None else mean

    c = subtract(a, mu)
    b, mask = _replace_nan(reductions._abs2(c), 0)
    total = reductions.sum(b, axis, keepdims=keepdims)
    n = _count(a, mask, axis, keepdims, get_aval(total).dtype)
    d = lax.sub(n, lax.full_like(n, ddof))
    d = lax.max(d, lax.full_like(d, 0))
    return lax.div(total, d)


def nanstd(a: ArrayLike, axis: Any = None, dtype: Any = None, out: None = None,
           ddof: int = 0, keepdims: bool = False, *, where: None = None,
           mean: Any = None, correction: Any = None) -> Any:
    """:func:`std` ignoring NaNs."""
    return reductions.safe_sqrt(nanvar(a, axis, dtype, out, ddof, keepdims,
                                       where=where, mean=mean, correction=correction))


def _nan_arg(name: str, a: Any, axis: Any, keepdims: bool, fn: Any, fill: float
             ) -> Any:
    a = util.operand(name, a)
    b, mask = _replace_nan(a, fill)
    out = fn(b, axis, keepdims=keepdims)
    if mask is None:
        return out
    # all-NaN slices: NumPy raises; traced code cannot, so -1 marks them
    all_nan = reductions.all(mask, axis, keepdims=keepdims)
    return lax.select(all_nan, lax.full_like(out, -1), out)


def nanargmax(a: ArrayLike, axis: int | None = None, out: None = None, *,
              keepdims: bool = False) -> Any:
    """:func:`argmax` ignoring NaNs; -1 for all-NaN slices."""
    reductions._no_out("nanargmax", out, None)
    return _nan_arg("nanargmax", a, axis, keepdims, reductions.argmax, -np.inf)


def nanargmin(a: ArrayLike, axis: int | None = None, out: None = None, *,
              keepdims: bool = False) -> Any:
    """:func:`argmin` ignoring NaNs; -1 for all-NaN slices."""
    reductions._no_out("nanargmin", out, None)
    return _nan_arg("nanargmin", a, axis, keepdims, reductions.argmin, np.inf)


def nancumsum(a: ArrayLike, axis: int | None = None, dtype: Any = None,
              out: None = None) -> Any:
    """:func:`cumsum` treating NaNs as zero."""
    a, _ = _replace_nan(util.operand("nancumsum", a), 0)
    return reductions.cumsum(a, axis, dtype, out)


def nancumprod(a: ArrayLike, axis: int | None = None, dtype: Any = None,
               out: None = None) -> Any:
    """:func:`cumprod` treating NaNs as one."""
    a, _ = _replace_nan(util.operand("nancumprod", a), 1)
    return reductions.cumprod(a, axis, dtype, out)
