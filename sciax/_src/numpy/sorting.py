"""Sorting, searching and data-dependent selections: sort, argsort, lexsort,
searchsorted, partition, nonzero, argwhere, unique, extract, compress, choose,
select, piecewise.

Functions whose output shape depends on the values (nonzero, unique, extract
...) take a static ``size=``: under ``sciax.jit`` it is required (the result
is cut or padded with ``fill_value`` to that length); eagerly the size is read
from the data when it is omitted.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import util
from sciax._src.numpy.gather_util import take_along, take_axis
from sciax._src.numpy.ufuncs import isnan

ArrayLike = Any

__all__ = ["sort", "argsort", "lexsort", "searchsorted", "partition", "argpartition",
           "nonzero", "argwhere", "flatnonzero", "unique", "unique_all",
           "unique_counts", "unique_inverse", "unique_values", "extract", "compress",
           "choose", "select", "piecewise", "sort_complex"]


def _flat_axis(name: str, a: Any, axis: Any) -> tuple[Any, int]:
    if axis is None:
        return lax.reshape(a, (get_aval(a).size,)), 0
    nd = util.ndim(a)
    if nd == 0:
        raise np.exceptions.AxisError(f"{name}: axis {axis} is out of bounds for array "
                                      "of dimension 0")
    return a, util.canonicalize_axis(axis, nd)


def sort(a: ArrayLike, axis: int | None = -1, kind: str | None = None,
         order: None = None, *, stable: bool | None = True,
         descending: bool = False) -> Any:
    """A sorted copy of ``a`` along ``axis`` (None: flattened); NaNs last.

    Examples
    --------
    >>> snp.sort(snp.array([[3, 1], [0, 2]]))
    Array([[1, 3],
           [0, 2]], dtype=int64)
    """
    if order is not None:
        raise NotImplementedError("sort: the order argument (structured arrays) is not "
                                  "supported")
    a, ax = _flat_axis("sort", util.operand("sort", a), axis)
    out = lax.sort(a, dimension=ax, is_stable=True)
    return lax.rev(out, (ax,)) if descending else out


def _iota_like(a: Any, ax: int) -> Any:
    return lax.broadcasted_iota(dtypes.default_int(), get_aval(a).shape, ax)


def argsort(a: ArrayLike, axis: int | None = -1, kind: str | None = None,
            order: None = None, *, stable: bool | None = True,
            descending: bool = False) -> Any:
    """Indices that sort ``a`` along ``axis`` (stable: ties keep their order).

    Examples
    --------
    >>> snp.argsort(snp.array([3.0, 1.0, 2.0]))
    Array([1, 2, 0], dtype=int64)
    """
    if order is not None:
        raise NotImplementedError("argsort: the order argument is not supported")
    a, ax = _flat_axis("argsort", util.operand("argsort", a), axis)
    if descending:
        # stable descending: sort the reversed array, then map indices back
        n = get_aval(a).shape[ax]
        rev = lax.rev(a, (ax,))
        _, idx = lax.sort((rev, _iota_like(rev, ax)), dimension=ax, num_keys=1)
        idx = lax.rev(idx, (ax,))
        return lax.sub(lax.full_like(idx, n - 1), idx)
    _, idx = lax.sort((a, _iota_like(a, ax)), dimension=ax, num_keys=1)
    return idx


def sort_complex(a: ArrayLike) -> Any:
    """Sort along the last axis by real part, then imaginary part; complex result."""
    a = util.operand("sort_complex", a)
    dt = get_aval(a).dtype
    if not dtypes.is_complex(dt):
        dt = np.dtype(np.complex64) if dt.itemsize <= 2 or dt == np.float32 \
            else dtypes.canonicalize_dtype(np.dtype(np.complex128))
    return sort(util.cast(a, dt))


def lexsort(keys: Sequence[ArrayLike], axis: int = -1) -> Any:
    """Indirect stable sort by several keys; the LAST key is the primary one.

    Examples
    --------
    >>> snp.lexsort((snp.array([1, 0, 1]), snp.array([0, 0, 1])))
    Array([1, 0, 2], dtype=int64)
    """
    if isinstance(keys, Tracer) or hasattr(keys, "aval") or isinstance(keys, np.ndarray):
        k = util.operand("lexsort", keys)
        keys = [k[i] for i in range(get_aval(k).shape[0])]
    keys = [util.operand("lexsort", k) for k in keys]
    if not keys:
        raise TypeError("lexsort: need a sequence of keys with length > 0")
    keys = util.promote_shapes("lexsort", *keys)
    nd = util.ndim(keys[0])
    if nd == 0:
        raise TypeError("lexsort: keys must be at least 1-d")
    ax = util.canonicalize_axis(axis, nd)
    out = lax.sort((*keys[::-1], _iota_like(keys[0], ax)), dimension=ax,
                   num_keys=len(keys))
    return out[-1]


def _nan_less(x: Any, y: Any) -> Any:
    """``x < y`` in sort order (NaN after every number)."""
    lt = lax.lt(x, y)
    if dtypes.is_inexact(get_aval(x).dtype) and not dtypes.is_complex(get_aval(x).dtype):
        lt = lax.bitwise_or(lt, lax.bitwise_and(lax.bitwise_not(isnan(x)), isnan(y)))
    return lt


def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left",
                 sorter: ArrayLike = None, *, method: str = "scan") -> Any:
    """Insertion indices of ``v`` into the sorted 1-d ``a`` that keep it sorted.

    ``side='left'`` gives the first suitable index, ``'right'`` the last; NaN
    sorts after every number.  A binary search of ``ceil(log2(len(a) + 1))``
    gathers.

    Examples
    --------
    >>> snp.searchsorted(snp.array([1, 2, 3, 4]), snp.array([2, 5]))
    Array([1, 4], dtype=int64)
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    a = util.operand("searchsorted", a)
    v = util.operand("searchsorted", v)
    if util.ndim(a) != 1:
        raise ValueError(f"searchsorted: a must be 1-d, got shape {get_aval(a).shape}")
    if sorter is not None:
        a = take_axis(a, util.operand("searchsorted", sorter), 0)
    a, v = util.promote_dtypes(a, v)
    n = get_aval(a).shape[0]
    it = dtypes.default_int()
    vshape = get_aval(v).shape
    lo = lax.full(vshape, 0, it)
    hi = lax.full(vshape, n, it)
    steps = builtins.max(1, int(np.ceil(np.log2(n + 1)))) if n else 0
    for _ in range(steps):
        active = lax.lt(lo, hi)
        mid = lax.div(lax.add(lo, hi), lax.full_like(lo, 2))
        am = take_axis(a, mid, 0) if vshape else lax.reshape(
            take_axis(a, lax.reshape(mid, (1,)), 0), ())
        go_right = _nan_less(am, v) if side == "left" else \
            lax.bitwise_not(_nan_less(v, am))
        go_right = lax.bitwise_and(go_right, active)
        stay = lax.bitwise_and(lax.bitwise_not(go_right), active)
        lo = lax.select(go_right, lax.add(mid, lax.full_like(mid, 1)), lo)
        hi = lax.select(stay, mid, hi)
    return lo


def partition(a: ArrayLike, kth: int | Sequence[int], axis: int = -1) -> Any:
    """``a`` rearranged so the ``kth`` element is in its sorted place, smaller
    ones before it, larger ones after (here: fully sorted, which satisfies it).

    Examples
    --------
    >>> snp.partition(snp.array([3, 4, 2, 1]), 2)[2]
    Array(3, dtype=int64)
    """
    a = util.operand("partition", a)
    _check_kth("partition", a, kth, axis)
    return sort(a, axis)


def argpartition(a: ArrayLike, kth: int | Sequence[int], axis: int = -1) -> Any:
    """Indices that :func:`partition` ``a`` (a stable full argsort here)."""
    a = util.operand("argpartition", a)
    _check_kth("argpartition", a, kth, axis)
    return argsort(a, axis)


def _check_kth(name: str, a: Any, kth: Any, axis: Any) -> None:
    a, ax = _flat_axis(name, a, axis)
    n = get_aval(a).shape[ax]
    for k in np.atleast_1d(np.asarray(kth)):
        if not -n <= int(k) < n:
            raise ValueError(f"{name}: kth(={int(k)}) out of bounds ({n})")


# --- data-dependent sizes ------------------------------------------------------------

def _static_size(name: str, size: Any, count: Callable[[], Any], *args: Any) -> int:
    """``size`` as an int; read from the data (``count()``) when None, which
    needs concrete inputs."""
    if size is not None:
        return util.concrete_int(size, f"{name}: size")
    if builtins.any(isinstance(x, Tracer) for x in args):
        raise TypeError(
            f"{name}: the size of the result depends on the values of its input, "
            f"which are traced here (inside jit/vmap/grad); pass a static size= "
            f"argument (and optionally fill_value=) to {name}")
    return int(np.asarray(count()))


def _compact(mask: Any, values: Sequence[Any], size: int, fills: Sequence[Any]
             ) -> list[Any]:
    """The entries of each 1-d ``values`` where ``mask``, in order, cut or
    padded to ``size`` with the matching ``fills``."""
    n = get_aval(mask).shape[0]
    key = util.cast(lax.bitwise_not(mask), dtypes.int8)
    out = lax.sort((key, *values), dimension=0, num_keys=1)[1:]
    count = lax.reduce_sum(util.cast(mask, dtypes.default_int()), (0,))
    res = []
    for v, f in zip(out, fills):
        if size <= n:
            v = lax.slice(v, (0,), (size,))
        else:
            v = lax.pad(v, lax.full((), 0, get_aval(v).dtype), ((0, size - n, 0),))
        pos = lax.iota(dtypes.default_int(), size)
        keep = lax.lt(pos, lax.broadcast_in_dim(count, (size,), ()))
        fill = lax.broadcast_in_dim(util.cast(f, get_aval(v).dtype), (size,), ())
        res.append(lax.select(keep, v, fill))
    return res


def nonzero(a: ArrayLike, *, size: int | None = None,
            fill_value: ArrayLike | Sequence[ArrayLike] | None = None) -> tuple[Any, ...]:
    """Indices of the nonzero elements, one array per dimension.

    Under ``jit`` pass a static ``size``: the result is cut or padded (with
    ``fill_value``, default 0) to that length.

    Examples
    --------
    >>> snp.nonzero(snp.array([0, 3, 0, 4]))
    (Array([1, 3], dtype=int64),)
    >>> snp.nonzero(snp.array([0, 3, 0, 4]), size=3, fill_value=-1)
    (Array([ 1,  3, -1], dtype=int64),)
    """
    a = util.operand("nonzero", a)
    shape = get_aval(a).shape
    if not shape:
        raise ValueError("nonzero: calling nonzero on 0d arrays is not allowed; use "
                         "atleast_1d(a).nonzero() instead")
    mask = a if get_aval(a).dtype == dtypes.bool_ else lax.ne(a, lax.full_like(a, 0))
    flat = lax.reshape(mask, (get_aval(a).size,))
    size = _static_size("nonzero", size, lambda: lax.reduce_sum(
        util.cast(flat, dtypes.default_int()), (0,)), a)
    it = dtypes.default_int()
    idx = [lax.reshape(lax.broadcasted_iota(it, shape, d), (get_aval(a).size,))
           for d in range(len(shape))]
    if fill_value is None:
        fills = [0] * len(shape)
    elif np.ndim(fill_value) == 0 and not isinstance(fill_value, tuple | list):
        fills = [fill_value] * len(shape)
    else:
        fills = list(fill_value)
        if len(fills) != len(shape):
            raise ValueError(f"nonzero: fill_value must be a scalar or a tuple of length "
                             f"{len(shape)}, got {fill_value!r}")
    return tuple(_compact(flat, idx, size, fills))


def argwhere(a: ArrayLike, *, size: int | None = None,
             fill_value: ArrayLike | None = None) -> Any:
    """Indices of the nonzero elements as an ``(N, a.ndim)`` array.

    Examples
    --------
    >>> snp.argwhere(snp.array([[0, 1], [1, 0]]))
    Array([[0, 1],
           [1, 0]], dtype=int64)
    """
    a = util.operand("argwhere", a)
    if util.ndim(a) == 0:
        a = lax.reshape(a, (1,))
        out = nonzero(a, size=size, fill_value=fill_value)
        return lax.reshape(out[0], (get_aval(out[0]).shape[0], 0))
    parts = nonzero(a, size=size, fill_value=fill_value)
    n = get_aval(parts[0]).shape[0]
    return lax.concatenate([lax.reshape(p, (n, 1)) for p in parts], 1)


def flatnonzero(a: ArrayLike, *, size: int | None = None,
                fill_value: ArrayLike | None = None) -> Any:
    """Indices of the nonzero elements of the flattened ``a``."""
    a = util.operand("flatnonzero", a)
    return nonzero(lax.reshape(a, (get_aval(a).size,)), size=size,
                   fill_value=fill_value)[0]


def extract(condition: ArrayLike, arr: ArrayLike, *, size: int | None = None,
            fill_value: ArrayLike = 0) -> Any:
    """The elements of the flattened ``arr`` where the flattened ``condition``
    is nonzero.

    Examples
    --------
    >>> snp.extract(snp.array([True, False, True]), snp.array([1, 2, 3]))
    Array([1, 3], dtype=int64)
    """
    c = util.operand("extract", condition)
    arr = util.operand("extract", arr)
    c = lax.reshape(c, (get_aval(c).size,))
    arr = lax.reshape(arr, (get_aval(arr).size,))
    n = get_aval(arr).shape[0]
    if get_aval(c).shape[0] != n:
        # NumPy takes the first len(arr) condition entries / pads with False
        m = get_aval(c).shape[0]
        c = lax.slice(c, (0,), (n,)) if m > n else lax.pad(
            c, lax.full((), 0, get_aval(c).dtype), ((0, n - m, 0),))
    mask = c if get_aval(c).dtype == dtypes.bool_ else lax.ne(c, lax.full_like(c, 0))
    size = _static_size("extract", size, lambda: lax.reduce_sum(
        util.cast(mask, dtypes.default_int()), (0,)), c)
    return _compact(mask, [arr], size, [fill_value])[0]


def compress(condition: ArrayLike, a: ArrayLike, axis: int | None = None, *,
             size: int | None = None, fill_value: ArrayLike = 0) -> Any:
    """The slices of ``a`` along ``axis`` where the 1-d ``condition`` is True.

    Examples
    --------
    >>> snp.compress(snp.array([False, True]), snp.array([[1, 2], [3, 4]]), axis=0)
    Array([[3, 4]], dtype=int64)
    """
    c = util.operand("compress", condition)
    a, ax = _flat_axis("compress", util.operand("compress", a), axis)
    if util.ndim(c) != 1:
        raise ValueError("compress: condition must be a 1-d array")
    n = get_aval(a).shape[ax]
    m = get_aval(c).shape[0]
    if m > n:
        raise IndexError(f"compress: condition of length {m} is longer than axis {ax} "
                         f"of length {n}")
    if m < n:
        c = lax.pad(c, lax.full((), 0, get_aval(c).dtype), ((0, n - m, 0),))
    mask = c if get_aval(c).dtype == dtypes.bool_ else lax.ne(c, lax.full_like(c, 0))
    size = _static_size("compress", size, lambda: lax.reduce_sum(
        util.cast(mask, dtypes.default_int()), (0,)), c)
    (idx,) = _compact(mask, [lax.iota(dtypes.default_int(), n)], size, [n])
    return take_axis(a, idx, ax, mode="fill", fill_value=fill_value)


def choose(a: ArrayLike, choices: Sequence[ArrayLike], out: None = None,
           mode: str = "raise") -> Any:
    """``choices[a[i]][i]`` for every index ``i`` (all broadcast together).

    ``mode='raise'`` checks bounds of concrete indices (traced ones are
    clipped); ``'wrap'`` wraps and ``'clip'`` clips.

    Examples
    --------
    >>> snp.choose(snp.array([0, 1, 0]), [snp.array([1, 2, 3]), snp.array([10, 20, 30])])
    Array([ 1, 20,  3], dtype=int64)
    """
    if out is not None:
        raise NotImplementedError("choose: the out argument is not supported")
    a = util.operand("choose", a)
    if not dtypes.is_integer(get_aval(a).dtype):
        raise TypeError(f"choose: a must be an integer array, got {get_aval(a).dtype}")
    if isinstance(choices, Tracer) or hasattr(choices, "aval"):
        choices = [choices[i] for i in range(get_aval(choices).shape[0])]
    choices = [util.operand("choose", c) for c in choices]
    n = len(choices)
    if mode == "raise":
        if not isinstance(a, Tracer):
            v = np.asarray(a)
            if v.size and (v.min() < 0 or v.max() >= n):
                raise ValueError(f"choose: invalid entry in choice array (indices must "
                                 f"be in [0, {n}))")
        mode = "clip"
    if mode == "wrap":
        a = lax.rem(lax.add(lax.rem(a, lax.full_like(a, n)), lax.full_like(a, n)),
                    lax.full_like(a, n))
    elif mode == "clip":
        a = lax.clamp(lax.full_like(a, 0), a, lax.full_like(a, n - 1))
    else:
        raise ValueError(f"choose: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    args = util.promote_dtypes(*choices)
    args = util.promote_shapes("choose", a, *args)
    a, args = args[0], args[1:]
    out = args[0]
    for i in range(1, n):
        out = lax.select(lax.eq(a, lax.full_like(a, i)), args[i], out)
    return out


def select(condlist: Sequence[ArrayLike], choicelist: Sequence[ArrayLike],
           default: ArrayLike = 0) -> Any:
    """``choicelist[i]`` where ``condlist[i]`` is the first true condition,
    ``default`` where none is.

    Examples
    --------
    >>> x = snp.arange(5)
    >>> snp.select([x < 2, x > 3], [x, x ** 2], -1)
    Array([ 0,  1, -1, -1, 16], dtype=int64)
    """
    if len(condlist) != len(choicelist):
        raise ValueError(f"select: list of cases must be same length as list of "
                         f"conditions ({len(condlist)} != {len(choicelist)})")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    conds = [util.operand("select", c) for c in condlist]
    for c in conds:
        if get_aval(c).dtype != dtypes.bool_:
            raise TypeError(f"select: condlist entries must be boolean arrays, got "
                            f"dtype {get_aval(c).dtype}")
    choices = util.promote_dtypes(*[util.as_operand("select", c)
                                    for c in (*choicelist, default)])
    allv = util.promote_shapes("select", *conds, *choices)
    n = len(conds)
    conds, choices = allv[:n], allv[n:]
    out = choices[-1]
    for c, v in zip(conds[::-1], choices[:-1][::-1]):
        out = lax.select(c, v, out)
    return out


def piecewise(x: ArrayLike, condlist: Any, funclist: Sequence[Any], *args: Any,
              **kw: Any) -> Any:
    """Evaluate a piecewise function: ``funclist[i](x)`` where ``condlist[i]``.

    Every function is evaluated on all of ``x`` and the results are merged
    (so it traces); one extra function is the default for where no condition
    holds.  Entries of ``funclist`` may be scalars.

    Examples
    --------
    >>> x = snp.array([-1.0, 0.5, 2.0])
    >>> snp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2])
    Array([1.  , 0.25, 4.  ], dtype=float64)
    """
    x = util.operand("piecewise", x)
    if isinstance(condlist, list | tuple):
        conds = [util.operand("piecewise", c) for c in condlist]
    else:
        c = util.operand("piecewise", condlist)
        conds = [c] if get_aval(c).shape == get_aval(x).shape or util.ndim(c) <= \
            util.ndim(x) else [c[i] for i in range(get_aval(c).shape[0])]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"piecewise: with {n} condition(s), either {n} or {n + 1} "
                         f"functions are expected, got {len(funclist)}")
    shape, dt = get_aval(x).shape, get_aval(x).dtype

    def value(f: Any) -> Any:
        v = f(x, *args, **kw) if callable(f) else f
        return util.broadcast_to(util.cast(util.as_operand("piecewise", v), dt), shape,
                                 "piecewise")

    out = value(funclist[n]) if len(funclist) == n + 1 else lax.full(shape, 0, dt)
    for c, f in zip(conds, funclist[:n]):
        c = util.broadcast_to(c, shape, "piecewise")
        if get_aval(c).dtype != dtypes.bool_:
            c = lax.ne(c, lax.full_like(c, 0))
        out = lax.select(c, value(f), out)
    return out


# --- unique --------------------------------------------------------------------------

def unique(ar: ArrayLike, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *,
           equal_nan: bool = True, size: int | None = None,
           fill_value: ArrayLike | None = None, sorted: bool = True) -> Any:
    """The sorted unique elements of ``ar`` (flattened), optionally with the
    first index of each, the inverse map and the counts.

    Under ``jit`` pass a static ``size``: the result is padded with
    ``fill_value`` (default: the smallest unique value) or cut to it.  NaNs
    count as one value when ``equal_nan``.  Only ``axis=None`` (or 0 for 1-d
    input) is supported.

    Examples
    --------
    >>> snp.unique(snp.array([3, 1, 3, 2]))
    Array([1, 2, 3], dtype=int64)
    >>> vals, counts = snp.unique(snp.array([3, 1, 3]), return_counts=True)
    >>> counts
    Array([1, 2], dtype=int64)
    """
    ar = util.operand("unique", ar)
    shape = get_aval(ar).shape
    if axis is not None:
        ax = util.canonicalize_axis(axis, builtins.max(len(shape), 1))
        if len(shape) > 1:
            raise NotImplementedError("unique: axis is only supported for 1-d input")
        del ax
    n = get_aval(ar).size
    flat = lax.reshape(ar, (n,))
    it = dtypes.default_int()
    s, perm = lax.sort((flat, lax.iota(it, n)), dimension=0, num_keys=1)
    if n:
        prev, cur = lax.slice(s, (0,), (n - 1,)), lax.slice(s, (1,), (n,))
        new = lax.ne(cur, prev)
        if equal_nan and dtypes.is_inexact(get_aval(s).dtype):
            new = lax.bitwise_and(new, lax.bitwise_not(lax.bitwise_and(
                isnan(cur), isnan(prev))))
        mask = lax.concatenate([lax.full((1,), True, dtypes.bool_), new], 0)
    else:
        mask = lax.full((0,), True, dtypes.bool_)
    size = _static_size("unique", size, lambda: lax.reduce_sum(
        util.cast(mask, it), (0,)), ar)
    if fill_value is None:
        fill = lax.reshape(lax.slice(s, (0,), (1,)), ()) if n else 0
    else:
        fill = fill_value
    starts_src = lax.iota(it, n)
    vals, starts = _compact(mask, [s, starts_src], size, [fill, n])
    results = [vals]
    if return_index:
        # perm at each run start: the first occurrence (the sort is stable)
        results.append(take_axis(perm, starts, 0, mode="fill", fill_value=0))
    if return_inverse:
        group = lax.sub(lax.cumsum(util.cast(mask, it), 0), lax.full((n,), 1, it))
        inv_perm = lax.sort((perm, lax.iota(it, n)), dimension=0, num_keys=1)[1]
        inverse = take_axis(group, inv_perm, 0)
        if axis is None and len(shape) != 1:
            inverse = lax.reshape(inverse, shape)
        results.append(inverse)
    if return_counts:
        ends = lax.concatenate([lax.slice(starts, (1,), (size,)),
                                lax.full((1,), n, it)], 0) if size else starts
        valid = lax.lt(starts, lax.full_like(starts, n))
        nxt = lax.select(lax.lt(ends, lax.full_like(ends, n)), ends,
                         lax.full_like(ends, n))
        counts = lax.select(valid, lax.sub(nxt, starts), lax.full_like(starts, 0))
        results.append(counts)
    return results[0] if len(results) == 1 else tuple(results)


class UniqueAllResult(tuple):
    """``(values, indices, inverse_indices, counts)`` with named fields."""

    _fields = ("values", "indices", "inverse_indices", "counts")

    def __new__(cls, *args: Any) -> Any:
        return super().__new__(cls, args)

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])
    inverse_indices = property(lambda self: self[2])
    counts = property(lambda self: self[3])


class UniqueCountsResult(tuple):
    """``(values, counts)`` with named fields."""

    def __new__(cls, *args: Any) -> Any:
        return super().__new__(cls, args)

    values = property(lambda self: self[0])
    counts = property(lambda self: self[1])


class UniqueInverseResult(tuple):
    """``(values, inverse_indices)`` with named fields."""

    def __new__(cls, *args: Any) -> Any:
        return super().__new__(cls, args)

    values = property(lambda self: self[0])
    inverse_indices = property(lambda self: self[1])


def unique_all(x: ArrayLike, /, *, size: int | None = None,
               fill_value: ArrayLike | None = None) -> UniqueAllResult:
    """Array API: unique values, first indices, inverse indices and counts."""
    v, i, inv, c = unique(x, True, True, True, size=size, fill_value=fill_value)
    inv = lax.reshape(inv, get_aval(util.operand("unique_all", x)).shape)
    return UniqueAllResult(v, i, inv, c)


def unique_counts(x: ArrayLike, /, *, size: int | None = None,
                  fill_value: ArrayLike | None = None) -> UniqueCountsResult:
    """Array API: unique values and their counts."""
    return UniqueCountsResult(*unique(x, return_counts=True, size=size,
                                      fill_value=fill_value))


def unique_inverse(x: ArrayLike, /, *, size: int | None = None,
                   fill_value: ArrayLike | None = None) -> UniqueInverseResult:
    """Array API: unique values and the inverse indices (shaped like ``x``)."""
    v, inv = unique(x, return_inverse=True, size=size, fill_value=fill_value)
    inv = lax.reshape(inv, get_aval(util.operand("unique_inverse", x)).shape)
    return UniqueInverseResult(v, inv)


def unique_values(x: ArrayLike, /, *, size: int | None = None,
                  fill_value: ArrayLike | None = None) -> Any:
    """Array API: the unique values."""
    return unique(x, size=size, fill_value=fill_value)


_ = take_along
