"""Array manipulation: the split family, tile, repeat, roll, flips, rot90,
pad (all NumPy modes but callables), column_stack/dstack/block, append,
insert/delete with static indices, resize, trim_zeros, apply_along_axis."""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.api import vmap
from sciax._src.core import dtypes
from sciax._src.core.avals import canonicalize_shape, get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import reductions, util
from sciax._src.numpy.creation import linspace
from sciax._src.numpy.gather_util import take_axis
from sciax._src.numpy.shape import (atleast_1d, atleast_2d, concatenate, expand_dims,
                                    moveaxis, ravel, reshape, stack, swapaxes)
from sciax._src.numpy.sorting import searchsorted
from sciax._src.numpy.statistics import median
from sciax._src.numpy.ufuncs import multiply, subtract

ArrayLike = Any

__all__ = ["atleast_3d", "split", "array_split", "hsplit", "vsplit", "dsplit", "tile",
           "repeat", "roll", "rollaxis", "flip", "fliplr", "flipud", "rot90", "pad",
           "column_stack", "dstack", "block", "append", "insert", "delete", "concat",
           "unstack", "resize", "trim_zeros", "apply_along_axis", "apply_over_axes"]


def atleast_3d(*arys: ArrayLike) -> Any:
    """The inputs with at least three dimensions (1-d ``(N,)`` becomes ``(1, N, 1)``)."""
    out = []
    for a in arys:
        a = util.operand("atleast_3d", a, keep_weak=True)
        s = get_aval(a).shape
        if len(s) == 0:
            a = lax.reshape(a, (1, 1, 1))
        elif len(s) == 1:
            a = lax.reshape(a, (1, s[0], 1))
        elif len(s) == 2:
            a = lax.reshape(a, (*s, 1))
        out.append(a)
    return out[0] if len(out) == 1 else out


def _split(name: str, ary: Any, indices_or_sections: Any, axis: int, even: bool
           ) -> list[Any]:
    ary = util.operand(name, ary, keep_weak=True)
    s = get_aval(ary).shape
    ax = util.canonicalize_axis(axis, len(s))
    n = s[ax]
    if isinstance(indices_or_sections, int | np.integer):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"{name}: number sections must be larger than 0")
        if even and n % k:
            raise ValueError(f"{name}: array split does not result in an equal division "
                             f"(axis {ax} of length {n} into {k} sections)")
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()
    else:
        if isinstance(indices_or_sections, Tracer):
            raise TypeError(f"{name}: split indices must be static, got a traced array")
        idx = [int(i) for i in np.asarray(indices_or_sections).ravel()]
        bounds = [0] + [builtins.min(builtins.max(i + n if i < 0 else i, 0), n)
                        for i in idx] + [n]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        hi = builtins.max(lo, hi)
        out.append(lax.slice_in_dim(ary, lo, hi, axis=ax))
    return out


def split(ary: ArrayLike, indices_or_sections: Any, axis: int = 0) -> list[Any]:
    """Split into equal sections (an int) or at static indices (a sequence).

    Examples
    --------
    >>> [p.tolist() for p in snp.split(snp.arange(6), 3)]
    [[0, 1], [2, 3], [4, 5]]
    >>> [p.shape for p in snp.split(snp.arange(6), [1, 4])]
    [(1,), (3,), (2,)]
    """
    return _split("split", ary, indices_or_sections, axis, True)


def array_split(ary: ArrayLike, indices_or_sections: Any, axis: int = 0) -> list[Any]:
    """As :func:`split`, allowing sections of unequal length."""
    return _split("array_split", ary, indices_or_sections, axis, False)


def hsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Any]:
    """Split along axis 1 (axis 0 for 1-d input)."""
    a = util.operand("hsplit", ary, keep_weak=True)
    if util.ndim(a) == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split("hsplit", a, indices_or_sections, 1 if util.ndim(a) > 1 else 0, True)


def vsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Any]:
    """Split along axis 0 (input at least 2-d)."""
    a = util.operand("vsplit", ary, keep_weak=True)
    if util.ndim(a) < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split("vsplit", a, indices_or_sections, 0, True)


def dsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Any]:
    """Split along axis 2 (input at least 3-d)."""
    a = util.operand("dsplit", ary, keep_weak=True)
    if util.ndim(a) < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split("dsplit", a, indices_or_sections, 2, True)


def tile(A: ArrayLike, reps: int | Sequence[int]) -> Any:
    """``A`` repeated ``reps`` times along each axis.

    Examples
    --------
    >>> snp.tile(snp.array([1, 2]), (2, 2))
    Array([[1, 2, 1, 2],
           [1, 2, 1, 2]], dtype=int64)
    """
    A = util.operand("tile", A, keep_weak=True)
    reps = (reps,) if isinstance(reps, int | np.integer) else tuple(reps)
    reps = tuple(util.concrete_int(r, "tile: reps") for r in reps)
    s = get_aval(A).shape
    nd = builtins.max(len(s), len(reps))
    s = (1,) * (nd - len(s)) + s
    reps = (1,) * (nd - len(reps)) + reps
    A = lax.reshape(A, s)
    # broadcast to (r0, s0, r1, s1, ...) then merge each pair
    big = tuple(x for r, d in zip(reps, s) for x in (r, d))
    out = lax.broadcast_in_dim(A, big, tuple(range(1, 2 * nd, 2)))
    return lax.reshape(out, tuple(r * d for r, d in zip(reps, s)))


def repeat(a: ArrayLike, repeats: Any, axis: int | None = None, *,
           total_repeat_length: int | None = None) -> Any:
    """Repeat each element of ``a`` ``repeats`` times (an int or a static
    per-element sequence) along ``axis`` (None: flattened).

    Traced ``repeats`` need a static ``total_repeat_length``.

    Examples
    --------
    >>> snp.repeat(snp.array([1, 2]), 2)
    Array([1, 1, 2, 2], dtype=int64)
    >>> snp.repeat(snp.array([[1, 2]]), [1, 2], axis=1)
    Array([[1, 2, 2]], dtype=int64)
    """
    a = util.operand("repeat", a, keep_weak=True)
    if axis is None:
        a, ax = ravel(a), 0
    else:
        ax = util.canonicalize_axis(axis, util.ndim(a))
    s = get_aval(a).shape
    n = s[ax]
    if isinstance(repeats, int | np.integer):
        r = int(repeats)
        if r < 0:
            raise ValueError("repeat: negative repeats are not allowed")
        big = s[:ax + 1] + (r,) + s[ax + 1:]
        out = lax.broadcast_in_dim(a, big, tuple(i for i in range(len(big))
                                                 if i != ax + 1))
        return lax.reshape(out, s[:ax] + (n * r,) + s[ax + 1:])
    if isinstance(repeats, Tracer) or (hasattr(repeats, "aval") and
                                       isinstance(repeats, Tracer)):
        if total_repeat_length is None:
            raise TypeError("repeat: traced repeats need a static total_repeat_length")
        reps = repeats
        total = util.concrete_int(total_repeat_length, "repeat: total_repeat_length")
    else:
        reps_np = np.broadcast_to(np.asarray(repeats), (n,)).astype(np.int64)
        if (reps_np < 0).any():
            raise ValueError("repeat: negative repeats are not allowed")
        total = int(reps_np.sum()) if total_repeat_length is None else \
            util.concrete_int(total_repeat_length, "repeat: total_repeat_length")
        if total_repeat_length is None:
            return take_axis(a, np.repeat(np.arange(n), reps_np), ax)
        reps = util.as_operand("repeat", reps_np)
    reps = util.broadcast_to(util.cast(reps, dtypes.default_int()), (n,), "repeat")
    ends = lax.cumsum(reps, 0)

    idx = searchsorted(ends, lax.iota(dtypes.default_int(), total), side="right")
    return take_axis(a, idx, ax)


def roll(a: ArrayLike, shift: Any, axis: Any = None) -> Any:
    """Shift elements cyclically by ``shift`` along ``axis`` (None: flattened).
    Shifts may be traced.

    Examples
    --------
    >>> snp.roll(snp.arange(5), 2)
    Array([3, 4, 0, 1, 2], dtype=int64)
    """
    a = util.operand("roll", a, keep_weak=True)
    if axis is None:
        s = get_aval(a).shape
        return reshape(roll(ravel(a), shift, 0), s)
    nd = util.ndim(a)
    axes = (axis,) if isinstance(axis, int | np.integer) else tuple(axis)
    shifts = (shift,) if np.ndim(shift) == 0 and not isinstance(shift, list | tuple) \
        else tuple(shift)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    if len(axes) == 1 and len(shifts) > 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("roll: 'shift' and 'axis' should be scalars or 1D sequences "
                         "of the same length")
    for sh, ax in zip(shifts, axes):
        ax = util.canonicalize_axis(ax, nd)
        n = get_aval(a).shape[ax]
        if n == 0:
            continue
        if isinstance(sh, Tracer) or (hasattr(sh, "aval") and util.ndim(sh) == 0 and
                                      not isinstance(sh, int | np.integer)):
            sh = util.cast(sh, dtypes.default_int())
            k = lax.rem(lax.add(lax.rem(lax.neg(sh), n), n), n)
            doubled = lax.concatenate([a, a], ax)
            a = lax.dynamic_slice_in_dim(doubled, k, n, ax)
        else:
            k = int(sh) % n
            if k:
                a = lax.concatenate([lax.slice_in_dim(a, n - k, n, axis=ax),
                                     lax.slice_in_dim(a, 0, n - k, axis=ax)], ax)
    return a


def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> Any:
    """Roll ``axis`` backwards until it lies before position ``start``."""
    a = util.operand("rollaxis", a, keep_weak=True)
    nd = util.ndim(a)
    axis = util.canonicalize_axis(axis, nd)
    if not -nd <= start <= nd:
        raise np.exceptions.AxisError(f"rollaxis: start {start} out of bounds for array "
                                      f"of dimension {nd}")
    start = start + nd if start < 0 else start
    if axis < start:
        start -= 1
    if axis == start:
        return a
    return moveaxis(a, axis, start)


def flip(m: ArrayLike, axis: Any = None) -> Any:
    """Reverse the order of elements along ``axis`` (None: all axes).

    Examples
    --------
    >>> snp.flip(snp.array([[1, 2], [3, 4]]), 1)
    Array([[2, 1],
           [4, 3]], dtype=int64)
    """
    m = util.operand("flip", m, keep_weak=True)
    axes = util.canonicalize_axes(axis, util.ndim(m))
    return lax.rev(m, axes) if axes else m


def fliplr(m: ArrayLike) -> Any:
    """Reverse the columns (axis 1) of an at least 2-d array."""
    m = util.operand("fliplr", m, keep_weak=True)
    if util.ndim(m) < 2:
        raise ValueError("fliplr: input must be >= 2-d")
    return flip(m, 1)


def flipud(m: ArrayLike) -> Any:
    """Reverse the rows (axis 0) of an at least 1-d array."""
    m = util.operand("flipud", m, keep_weak=True)
    if util.ndim(m) < 1:
        raise ValueError("flipud: input must be >= 1-d")
    return flip(m, 0)


def rot90(m: ArrayLike, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Any:
    """Rotate by 90 degrees ``k`` times in the plane of ``axes``.

    Examples
    --------
    >>> snp.rot90(snp.array([[1, 2], [3, 4]]))
    Array([[2, 4],
           [1, 3]], dtype=int64)
    """
    m = util.operand("rot90", m, keep_weak=True)
    nd = util.ndim(m)
    if len(axes) != 2:
        raise ValueError("rot90: len(axes) must be 2")
    a0, a1 = (util.canonicalize_axis(x, nd, "axes") for x in axes)
    if a0 == a1:
        raise ValueError("rot90: axes must be different")
    k = util.concrete_int(k, "rot90: k") % 4
    if k == 0:
        return m
    if k == 2:
        return flip(m, (a0, a1))
    if k == 1:
        return swapaxes(flip(m, a1), a0, a1)
    return flip(swapaxes(m, a0, a1), a1)


# --- pad -------------------------------------------------------------------------------

def _pad_widths(name: str, pad_width: Any, nd: int) -> list[tuple[int, int]]:
    if isinstance(pad_width, Tracer):
        raise TypeError(f"{name}: pad_width must be static")
    pw = np.asarray(pad_width)
    if pw.dtype.kind not in "iu":
        if pw.size and not np.all(pw == np.round(pw)):
            raise TypeError(f"{name}: pad_width must be of integral type, got {pad_width}")
        pw = pw.astype(np.int64)
    try:
        pw = np.broadcast_to(pw, (nd, 2))
    except ValueError:
        raise ValueError(f"{name}: pad_width {pad_width!r} cannot be broadcast to "
                         f"({nd}, 2) for an array of dimension {nd}") from None
    if (pw < 0).any():
        raise ValueError(f"{name}: index can't contain negative values ({pad_width})")
    return [(int(a), int(b)) for a, b in pw]


def _per_axis(value: Any, nd: int, dtype: Any = None) -> list[tuple[Any, Any]]:
    v = np.asarray(value, dtype=object if dtype is None else dtype)
    v = np.broadcast_to(v, (nd, 2))
    return [(v[i, 0], v[i, 1]) for i in range(nd)]


def _mode_indices(mode: str, n: int, before: int, after: int, odd: bool
                  ) -> np.ndarray:
    i = np.arange(-before, n + after)
    if mode == "edge":
        return np.clip(i, 0, n - 1)
    if mode == "wrap":
        return i % n
    if mode == "symmetric":
        p = 2 * n
        m = i % p
        return np.where(m < n, m, p - 1 - m)
    # reflect
    if n == 1:
        return np.zeros_like(i)
    p = 2 * (n - 1)
    m = i % p
    return np.where(m < n, m, p - m)


def pad(array: ArrayLike, pad_width: Any, mode: str | Callable = "constant",
        **kwargs: Any) -> Any:
    """Pad an array (NumPy's modes: constant, edge, linear_ramp, maximum, mean,
    median, minimum, reflect, symmetric, wrap, empty).

    ``pad_width`` is static: an int, ``(before, after)`` or one pair per axis.

    Examples
    --------
    >>> snp.pad(snp.array([1, 2, 3]), 2, mode="reflect")
    Array([3, 2, 1, 2, 3, 2, 1], dtype=int64)
    >>> snp.pad(snp.array([1, 2]), (1, 2), constant_values=9)
    Array([9, 1, 2, 9, 9], dtype=int64)
    """
    a = util.operand("pad", array, keep_weak=True)
    nd = util.ndim(a)
    widths = _pad_widths("pad", pad_width, nd)
    allowed = {"constant": {"constant_values"}, "edge": set(), "wrap": set(),
               "linear_ramp": {"end_values"}, "maximum": {"stat_length"},
               "mean": {"stat_length"}, "median": {"stat_length"},
               "minimum": {"stat_length"}, "reflect": {"reflect_type"},
               "symmetric": {"reflect_type"}, "empty": set()}
    if callable(mode):
        raise NotImplementedError("pad: callable modes are not supported")
    if mode not in allowed:
        raise ValueError(f"pad: mode {mode!r} is not supported; use one of "
                         f"{sorted(allowed)}")
    bad = set(kwargs) - allowed[mode]
    if bad:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: "
                         f"{sorted(bad)}")
    dt = get_aval(a).dtype
    if mode in ("constant", "empty"):
        cv = kwargs.get("constant_values", 0)
        if mode == "constant" and np.ndim(cv) == 0 and not isinstance(cv, Tracer):
            cfg = tuple((lo, hi, 0) for lo, hi in widths)
            return lax.pad(a, util.cast(cv, dt), cfg)
        vals = _per_axis(cv, nd) if not isinstance(cv, Tracer) else None
        if vals is None:
            raise TypeError("pad: constant_values must be static scalars or pairs")
        for ax, ((lo, hi), (cl, ch)) in enumerate(zip(widths, vals)):
            cfg = [(0, 0, 0)] * nd
            cfg[ax] = (lo, 0, 0)
            a = lax.pad(a, util.cast(cl, dt), tuple(cfg))
            cfg[ax] = (0, hi, 0)
            a = lax.pad(a, util.cast(ch, dt), tuple(cfg))
        return a
    for ax, (lo, hi) in enumerate(widths):
        if lo == 0 and hi == 0:
            continue
        n = get_aval(a).shape[ax]
        if n == 0:
            raise ValueError(f"pad: can't extend empty axis {ax} using modes other than "
                             "'constant' or 'empty'")
        if mode in ("edge", "wrap", "reflect", "symmetric"):
            odd = kwargs.get("reflect_type", "even") == "odd"
            idx = _mode_indices(mode, n, lo, hi, odd)
            out = take_axis(a, idx, ax)
            if odd and mode in ("reflect", "symmetric"):
                out = _odd_reflect(a, out, ax, n, lo, hi, mode)
            a = out
        elif mode == "linear_ramp":
            ev = _per_axis(kwargs.get("end_values", 0), nd)[ax]
            a = _linear_ramp(a, ax, n, lo, hi, ev)
        else:
            sl = _per_axis(kwargs.get("stat_length", None), nd)[ax]
            a = _stat_pad(a, ax, n, lo, hi, sl, mode)
    return a


def _odd_reflect(a: Any, out: Any, ax: int, n: int, lo: int, hi: int, mode: str
                 ) -> Any:
    # NumPy's odd reflection, applied iteratively: 2 * edge - mirrored value,
    # with the edge itself moving each period.  Computed on the host for the
    # index/sign pattern is not affine, so fall back to repeated one-step pads.
    del out

    s = 0 if mode == "symmetric" else 1
    while lo > 0 or hi > 0:
        cur = get_aval(a).shape[ax]
        span = builtins.max(cur - s, 1)
        take_lo, take_hi = builtins.min(lo, span), builtins.min(hi, span)
        parts = []
        if take_lo:
            edge = lax.slice_in_dim(a, 0, 1, axis=ax)
            mir = lax.rev(lax.slice_in_dim(a, s, s + take_lo, axis=ax), (ax,))
            parts.append(subtract(multiply(2, edge), mir))
        parts.append(a)
        if take_hi:
            edge = lax.slice_in_dim(a, cur - 1, cur, axis=ax)
            mir = lax.rev(lax.slice_in_dim(a, cur - s - take_hi, cur - s, axis=ax), (ax,))
            parts.append(subtract(multiply(2, edge), mir))
        a = util.cast(concatenate(parts, ax), get_aval(a).dtype)
        lo, hi = lo - take_lo, hi - take_hi
    return a


def _linear_ramp(a: Any, ax: int, n: int, lo: int, hi: int, ev: tuple[Any, Any]
                 ) -> Any:
    dt = get_aval(a).dtype
    parts = []
    ft = util.to_inexact_dtype(dt)
    if lo:
        edge = util.cast(lax.slice_in_dim(a, 0, 1, axis=ax), ft)
        ramp = linspace(util.cast(ev[0], ft), edge, lo, endpoint=False, axis=ax)
        ramp = lax.reshape(ramp, get_aval(ramp).shape[:ax] + (lo,) +
                           get_aval(ramp).shape[ax + 2:]) if util.ndim(ramp) > \
            util.ndim(a) else ramp
        parts.append(ramp)
    parts.append(util.cast(a, ft))
    if hi:
        edge = util.cast(lax.slice_in_dim(a, n - 1, n, axis=ax), ft)
        ramp = linspace(util.cast(ev[1], ft), edge, hi, endpoint=False, axis=ax)
        ramp = lax.reshape(ramp, get_aval(ramp).shape[:ax] + (hi,) +
                           get_aval(ramp).shape[ax + 2:]) if util.ndim(ramp) > \
            util.ndim(a) else ramp
        parts.append(lax.rev(ramp, (ax,)))
    out = concatenate(parts, ax)
    if dtypes.is_integer(dt):
        # NumPy's linspace(dtype=int) truncates the float ramp
        out = _trunc(out)
    return util.cast(out, dt)


def _stat_pad(a: Any, ax: int, n: int, lo: int, hi: int, sl: tuple[Any, Any],
              mode: str) -> Any:
    def stat(part: Any) -> Any:
        if mode == "maximum":
            return reductions.max(part, ax, keepdims=True)
        if mode == "minimum":
            return reductions.min(part, ax, keepdims=True)
        if mode == "mean":
            v = reductions.mean(part, ax, keepdims=True)
        else:
            v = median(part, ax, keepdims=True)
        dt = get_aval(a).dtype
        if dtypes.is_integer(dt):
            v = lax.round(v, lax.ROUND_TO_NEAREST_EVEN)
        return util.cast(v, dt)

    s = get_aval(a).shape
    parts = []
    ln = n if sl[0] is None else builtins.max(1, builtins.min(int(sl[0]), n))
    hn = n if sl[1] is None else builtins.max(1, builtins.min(int(sl[1]), n))
    if lo:
        v = stat(lax.slice_in_dim(a, 0, ln, axis=ax))
        parts.append(lax.broadcast_in_dim(lax.reshape(v, s[:ax] + s[ax + 1:]),
                                          s[:ax] + (lo,) + s[ax + 1:],
                                          tuple(i for i in range(len(s)) if i != ax)))
    parts.append(a)
    if hi:
        v = stat(lax.slice_in_dim(a, n - hn, n, axis=ax))
        parts.append(lax.broadcast_in_dim(lax.reshape(v, s[:ax] + s[ax + 1:]),
                                          s[:ax] + (hi,) + s[ax + 1:],
                                          tuple(i for i in range(len(s)) if i != ax)))
    return concatenate(parts, ax)


# --- joining -----------------------------------------------------------------------------

def column_stack(tup: Sequence[ArrayLike]) -> Any:
    """Stack 1-d arrays as columns of a 2-d array (2-d arrays as they are)."""
    arrs = []
    for a in tup:
        a = util.operand("column_stack", a, keep_weak=True)
        if util.ndim(a) < 2:
            a = lax.reshape(a, (get_aval(a).size, 1))
        arrs.append(a)
    return concatenate(arrs, 1)


def dstack(tup: Sequence[ArrayLike], dtype: Any = None) -> Any:
    """Join along the third axis after making inputs at least 3-d."""
    arrs = [atleast_3d(util.operand("dstack", a, keep_weak=True)) for a in tup]
    return concatenate(arrs, 2, dtype)


def concat(arrays: Sequence[ArrayLike], /, *, axis: int | None = 0) -> Any:
    """Array API name of :func:`concatenate`."""
    return concatenate(arrays, axis)


def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple[Any, ...]:
    """Split ``x`` into the tuple of its slices along ``axis``."""
    x = util.operand("unstack", x, keep_weak=True)
    nd = util.ndim(x)
    if nd == 0:
        raise ValueError("unstack: input must be at least 1-d")
    ax = util.canonicalize_axis(axis, nd)
    s = get_aval(x).shape
    return tuple(lax.reshape(lax.slice_in_dim(x, i, i + 1, axis=ax),
                             s[:ax] + s[ax + 1:]) for i in range(s[ax]))


def block(arrays: Any) -> Any:
    """Assemble an array from nested lists of blocks (the innermost lists join
    along the last axis, the outer ones along earlier axes).

    Examples
    --------
    >>> A = snp.ones((2, 2), dtype=int)
    >>> snp.block([[A, 2 * A], [3 * A, 4 * A]]).shape
    (4, 4)
    """
    def depth(x: Any) -> int:
        if isinstance(x, list):
            if not x:
                raise ValueError("block: lists cannot be empty")
            ds = {depth(e) for e in x}
            if len(ds) != 1:
                raise ValueError("block: list depths are mismatched")
            return 1 + ds.pop()
        if isinstance(x, tuple):
            raise TypeError("block: arrays is a tuple; only lists can be used to "
                            "arrange blocks")
        return 0

    d = depth(arrays)
    leaves: list[Any] = []

    def collect(x: Any) -> None:
        if isinstance(x, list):
            for e in x:
                collect(e)
        else:
            leaves.append(util.operand("block", x, keep_weak=True))
    collect(arrays)
    ndim = builtins.max(d, builtins.max(util.ndim(x) for x in leaves))
    dt = util.result_dtype(*leaves)[0]

    def rec(x: Any, level: int) -> Any:
        if not isinstance(x, list):
            x = util.cast(util.operand("block", x, keep_weak=True), dt)
            s = get_aval(x).shape
            return lax.reshape(x, (1,) * (ndim - len(s)) + s)
        parts = [rec(e, level + 1) for e in x]
        return concatenate(parts, -(d - level))
    return rec(arrays, 0)


def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> Any:
    """``values`` appended to ``arr`` (both flattened when ``axis`` is None).

    Examples
    --------
    >>> snp.append(snp.array([1, 2]), [[3, 4]])
    Array([1, 2, 3, 4], dtype=int64)
    """
    arr = util.operand("append", arr, keep_weak=True)
    values = util.operand("append", values, keep_weak=True)
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def _static_index_list(name: str, obj: Any, n: int) -> np.ndarray:
    if isinstance(obj, Tracer):
        raise TypeError(f"{name}: indices must be static (concrete) values, got a "
                        "traced array")
    if isinstance(obj, slice):
        return np.arange(n)[obj]
    idx = np.asarray(obj)
    if idx.dtype == bool:
        if idx.shape != (n,):
            raise ValueError(f"{name}: boolean array argument obj to {name} must be one "
                             f"dimensional and match the axis length of {n}")
        return np.nonzero(idx)[0]
    if idx.dtype.kind not in "iu":
        if idx.size == 0:
            return idx.astype(np.int64)
        raise IndexError(f"{name}: index arrays must be integers, got dtype {idx.dtype}")
    return idx.astype(np.int64)


def delete(arr: ArrayLike, obj: Any, axis: int | None = None, *,
           assume_unique_indices: bool = False) -> Any:
    """``arr`` without the sub-arrays at the static indices ``obj`` along ``axis``.

    Examples
    --------
    >>> snp.delete(snp.arange(5), [0, 2])
    Array([1, 3, 4], dtype=int64)
    """
    a = util.operand("delete", arr, keep_weak=True)
    if axis is None:
        a, ax = ravel(a), 0
    else:
        ax = util.canonicalize_axis(axis, util.ndim(a))
    n = get_aval(a).shape[ax]
    idx = _static_index_list("delete", obj, n)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"delete: index {int(idx.max() if idx.max() >= n else idx.min())}"
                         f" is out of bounds for axis {ax} with size {n}")
    keep = np.ones(n, bool)
    keep[idx % n if n else idx] = False
    return take_axis(a, np.nonzero(keep)[0], ax)


def insert(arr: ArrayLike, obj: Any, values: ArrayLike, axis: int | None = None) -> Any:
    """``values`` inserted before the static indices ``obj`` along ``axis``.

    Examples
    --------
    >>> snp.insert(snp.array([1, 2, 3]), 1, 9)
    Array([1, 9, 2, 3], dtype=int64)
    """
    a = util.operand("insert", arr, keep_weak=True)
    values = util.operand("insert", values, keep_weak=True)
    if axis is None:
        a, ax = ravel(a), 0
    else:
        ax = util.canonicalize_axis(axis, util.ndim(a))
    s = get_aval(a).shape
    n = s[ax]
    scalar_obj = isinstance(obj, int | np.integer) or (
        not isinstance(obj, slice) and np.ndim(obj) == 0)
    idx = _static_index_list("insert", obj, n + 1) if not isinstance(obj, slice) else \
        np.arange(n)[obj]
    idx = np.atleast_1d(idx)
    if idx.size and (idx.min() < -n or idx.max() > n):
        raise IndexError(f"insert: index {int(idx.max())} is out of bounds for axis {ax} "
                         f"with size {n}")
    idx = np.where(idx < 0, idx + n, idx)
    values = util.cast(values, get_aval(a).dtype)
    vs = get_aval(values).shape
    if len(vs) < len(s):  # NumPy: array(values, ndmin=arr.ndim)
        values = lax.reshape(values, (1,) * (len(s) - len(vs)) + vs)
    if scalar_obj:
        values = moveaxis(values, 0, ax)
        k = get_aval(values).shape[ax]
        v = util.broadcast_to(values, s[:ax] + (k,) + s[ax + 1:], "insert")
        i = int(idx[0])
        return concatenate([lax.slice_in_dim(a, 0, i, axis=ax), v,
                            lax.slice_in_dim(a, i, n, axis=ax)], ax)
    m = idx.size
    v = util.broadcast_to(values, s[:ax] + (m,) + s[ax + 1:], "insert")
    order = np.argsort(idx, kind="stable")
    new_pos = idx[order] + np.arange(m)
    total = n + m
    src = np.empty(total, np.int64)
    is_new = np.zeros(total, bool)
    is_new[new_pos] = True
    src[~is_new] = np.arange(n)
    src[new_pos] = n + order
    return take_axis(concatenate([a, v], ax), src, ax)


def resize(a: ArrayLike, new_shape: Any) -> Any:
    """An array of ``new_shape`` filled with repeated copies of ``a`` (flattened)."""
    a = ravel(util.operand("resize", a, keep_weak=True))
    shape = canonicalize_shape(new_shape, "resize")
    total = math.prod(shape)
    n = get_aval(a).size
    if total == 0 or n == 0:
        return lax.full(shape, 0, get_aval(a).dtype)
    reps = -(-total // n)
    return reshape(lax.slice(tile(a, reps), (0,), (total,)), shape)


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: Any = None) -> Any:
    """``filt`` without leading ('f') and/or trailing ('b') zeros (concrete 1-d
    input: the result length depends on the values)."""
    f = util.operand("trim_zeros", filt, keep_weak=True)
    if isinstance(f, Tracer):
        raise TypeError("trim_zeros: the result length depends on the values, so the "
                        "input must be concrete (not traced inside jit)")
    v = np.asarray(f)
    nz = np.nonzero(v)[0]
    if nz.size == 0:
        return lax.slice(f, (0,), (0,))
    lo = int(nz[0]) if "f" in trim.lower() else 0
    hi = int(nz[-1]) + 1 if "b" in trim.lower() else v.shape[0]
    return lax.slice(f, (lo,), (hi,))


def apply_along_axis(func1d: Callable, axis: int, arr: ArrayLike, *args: Any,
                     **kwargs: Any) -> Any:
    """``func1d`` applied to the 1-d slices of ``arr`` along ``axis`` (through
    ``sciax.vmap``, so ``func1d`` is traced once).

    Examples
    --------
    >>> snp.apply_along_axis(lambda v: v.sum(), 1, snp.ones((2, 3)))
    Array([3., 3.], dtype=float64)
    """
    arr = util.operand("apply_along_axis", arr, keep_weak=True)
    nd = util.ndim(arr)
    ax = util.canonicalize_axis(axis, nd)
    fn = lambda v: func1d(v, *args, **kwargs)  # noqa: E731
    for _ in range(nd - 1):
        fn = vmap(fn)
    out = util.as_operand("apply_along_axis", fn(moveaxis(arr, ax, -1)))
    # the batch axes lead; NumPy puts the function's own output axes at ``axis``
    k = util.ndim(out) - (nd - 1)
    if k and ax != nd - 1:
        out = moveaxis(out, tuple(range(nd - 1, nd - 1 + k)), tuple(range(ax, ax + k)))
    return out


def apply_over_axes(func: Callable, a: ArrayLike, axes: Any) -> Any:
    """Apply ``func(a, axis)`` repeatedly over ``axes``, keeping dimensions."""
    a = util.operand("apply_over_axes", a, keep_weak=True)
    nd = util.ndim(a)
    for ax in np.atleast_1d(np.asarray(axes)):
        ax = util.canonicalize_axis(int(ax), nd)
        res = util.as_operand("apply_over_axes", func(a, ax))
        if util.ndim(res) == nd:
            a = res
        elif util.ndim(res) == nd - 1:
            a = expand_dims(res, ax)
        else:
            raise ValueError("apply_over_axes: function is not returning an array of "
                             "the correct shape")
    return a


_ = (atleast_1d, atleast_2d, stack)
