"""Index helpers (ix_, ravel_multi_index, unravel_index) and functional versions
of NumPy's in-place writers (fill_diagonal, put, place, putmask: pass
``inplace=False`` and use the returned array).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import canonicalize_shape, get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import util
from sciax._src.numpy.sorting import nonzero

__all__ = ["ix_", "ravel_multi_index", "unravel_index", "fill_diagonal", "put",
           "place", "putmask"]


ArrayLike = Any


def _int_operand(name: str, a: Any, what: str) -> Any:
    a = util.operand(name, a)
    if not dtypes.is_integer(get_aval(a).dtype):
        raise TypeError(f"{name}: {what} must be integers, got dtype "
                        f"{get_aval(a).dtype}")
    return a


# --- index helpers -------------------------------------------------------------------

def ix_(*args: ArrayLike) -> tuple[Any, ...]:
    """Open-mesh index arrays from 1-d sequences: ``a[ix_(rows, cols)]`` picks
    the sub-array at those rows and columns.  Boolean sequences become their
    nonzero indices (concrete input only).

    Examples
    --------
    >>> i, j = snp.ix_(snp.array([0, 1]), snp.array([2, 4]))
    >>> i.shape, j.shape
    ((2, 1), (1, 2))
    """
    out = []
    n = len(args)
    for k, a in enumerate(args):
        a = util.operand("ix_", a)
        if util.ndim(a) != 1:
            raise ValueError(f"ix_: cross index must be 1 dimensional, argument {k} "
                             "has "
                             f"shape {get_aval(a).shape}")
        if get_aval(a).dtype == dtypes.bool_:
            (a,) = nonzero(a)
        elif not dtypes.is_integer(get_aval(a).dtype):
            if get_aval(a).shape[0] != 0:
                raise TypeError("ix_: index arrays must be integer or boolean, "
                                "argument "
                                f"{k} has dtype {get_aval(a).dtype}")
            a = util.cast(a, dtypes.default_int())
        shape = [1] * n
        shape[k] = get_aval(a).shape[0]
        out.append(lax.reshape(a, tuple(shape)))
    return tuple(out)


def _dims(name: str, dims: Any) -> tuple[int, ...]:
    if isinstance(dims, int | np.integer):
        dims = (int(dims),)
    return canonicalize_shape(dims, name)


def _modes(name: str, mode: Any, n: int) -> list[str]:
    modes = [mode] * n if isinstance(mode, str) else list(mode)
    if len(modes) != n:
        raise ValueError(f"{name}: expected {n} modes, got {len(modes)}")
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"{name}: clipmode must be one of 'clip', 'raise', or "
                             f"'wrap', got {m!r}")
    return modes


def ravel_multi_index(multi_index: Sequence[ArrayLike], dims: Any, mode: Any = "raise",
                      order: str = "C") -> Any:
    """Flat indices of the index tuple ``multi_index`` into an array of shape
    ``dims`` (``order`` 'C' or 'F').

    ``mode='raise'`` checks bounds of concrete indices (traced ones are
    clipped, as :func:`choose` does); ``'wrap'`` and ``'clip'`` per NumPy.

    Examples
    --------
    >>> snp.ravel_multi_index((snp.array([0, 1, 2]), snp.array([1, 0, 3])), (3, 4))
    Array([ 1,  4, 11], dtype=int64)
    """
    dims = _dims("ravel_multi_index", dims)
    if order not in ("C", "F"):
        raise ValueError(f"ravel_multi_index: order must be 'C' or 'F', got {order!r}")
    idx = [_int_operand("ravel_multi_index", i, "multi_index entries")
           for i in multi_index]
    if len(idx) != len(dims):
        raise ValueError(f"ravel_multi_index: parameter multi_index must be a sequence "
                         f"of length {len(dims)}, got {len(idx)}")
    modes = _modes("ravel_multi_index", mode, len(dims))
    idx = util.promote_shapes("ravel_multi_index", *[
        util.cast(i, dtypes.default_int()) for i in idx])
    fixed = []
    for k, (i, d, m) in enumerate(zip(idx, dims, modes)):
        if m == "raise" and not isinstance(i, Tracer):
            v = np.asarray(i)
            if v.size and (v.min() < 0 or v.max() >= d):
                raise ValueError("ravel_multi_index: invalid entry in coordinates "
                                 "array "
                                 f"{k} (out of bounds for a dimension of size {d})")
        if m == "wrap":
            dd = lax.full_like(i, d)
            i = lax.rem(lax.add(lax.rem(i, dd), dd), dd)
        else:
            i = lax.clamp(lax.full_like(i, 0), i, lax.full_like(i, max(d - 1, 0)))
        fixed.append(i)
    strides = np.cumprod((1, *dims[::-1][:-1]))[::-1] if order == "C" else \
        np.cumprod((1, *dims[:-1]))
    out = lax.full_like(fixed[0], 0) if fixed else lax.full((), 0, dtypes.default_int())
    for i, s in zip(fixed, strides):
        out = lax.add(out, lax.mul(i, lax.full_like(i, int(s))))
    return out


def unravel_index(indices: ArrayLike, shape: Any, order: str = "C") -> tuple[Any, ...]:
    """The index tuple, into an array of ``shape``, of each flat index.

    Concrete out-of-range indices raise ValueError; traced ones are clipped.

    Examples
    --------
    >>> snp.unravel_index(snp.array([1, 4, 11]), (3, 4))
    (Array([0, 1, 2], dtype=int64), Array([1, 0, 3], dtype=int64))
    """
    shape = _dims("unravel_index", shape)
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: order must be 'C' or 'F', got {order!r}")
    i = _int_operand("unravel_index", indices, "indices")
    i = util.cast(i, dtypes.default_int())
    total = int(np.prod(shape))
    if not isinstance(i, Tracer):
        v = np.asarray(i)
        if v.size and (v.min() < 0 or v.max() >= total):
            bad = int(v.max()) if v.max() >= total else int(v.min())
            raise ValueError(f"unravel_index: index {bad} is out of bounds for array "
                             f"with size {total}")
    i = lax.clamp(lax.full_like(i, 0), i, lax.full_like(i, max(total - 1, 0)))
    out = []
    dims = shape[::-1] if order == "C" else shape
    for d in dims:
        dd = lax.full_like(i, d)
        out.append(lax.rem(i, dd))
        i = lax.div(i, dd)
    return tuple(out[::-1] if order == "C" else out)


# --- functional in-place writers ----------------------------------------------------

def _not_inplace(name: str, inplace: bool) -> None:
    if inplace:
        raise ValueError(f"{name}: sciax arrays are immutable, so {name} cannot modify "
                         f"its argument in place; call {name}(..., inplace=False) and "
                         f"use the returned array")


def _cycled(name: str, v: Any, n: int, dtype: np.dtype) -> Any:
    """The flattened ``v`` repeated (or cut) to length ``n``."""
    v = util.cast(util.operand(name, v), dtype)
    v = lax.reshape(v, (get_aval(v).size,))
    m = get_aval(v).shape[0]
    if m == 0:
        raise ValueError(f"{name}: cannot fill with an empty array of values")
    if m == n:
        return v
    reps = -(-n // m)
    return lax.slice(lax.concatenate([v] * reps, 0), (0,), (n,)) if reps > 1 else \
        lax.slice(v, (0,), (n,))


def fill_diagonal(a: ArrayLike, val: ArrayLike, wrap: bool = False, *,
                  inplace: bool = True) -> Any:
    """``a`` with its main diagonal set to ``val`` (cycled), functionally:
    pass ``inplace=False``.  For tall 2-d arrays ``wrap`` restarts the
    diagonal every ``ncols + 1`` rows, as NumPy.

    Examples
    --------
    >>> snp.fill_diagonal(snp.zeros((2, 3)), 5.0, inplace=False)
    Array([[5., 0., 0.],
           [0., 5., 0.]], dtype=float64)
    """
    _not_inplace("fill_diagonal", inplace)
    a = util.operand("fill_diagonal", a)
    shape = get_aval(a).shape
    if len(shape) < 2:
        raise ValueError("fill_diagonal: array must be at least 2-d")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError(f"fill_diagonal: all dimensions of input must be of equal "
                         f"length, got shape {shape}")
    size = int(np.prod(shape))
    if len(shape) == 2:
        step = shape[1] + 1
        end = size if wrap else min(shape[0], shape[1]) * shape[1]
    else:
        step = 1 + int(np.sum(np.cumprod(shape[:-1])))
        end = size
    pos = np.arange(0, end, step)
    flat = lax.reshape(a, (size,))
    vals = _cycled("fill_diagonal", val, len(pos), get_aval(a).dtype)
    return lax.reshape(flat.at[pos].set(vals), shape)


def put(a: ArrayLike, ind: ArrayLike, v: ArrayLike, mode: str | None = None, *,
        inplace: bool = True) -> Any:
    """``a`` with ``a.flat[ind] = v`` (``v`` cycled), functionally: pass
    ``inplace=False``.  ``mode``: 'raise' (default; concrete indices are
    checked, traced ones clipped), 'wrap' or 'clip'.

    Examples
    --------
    >>> snp.put(snp.arange(5), snp.array([0, 2]), snp.array([-1, -2]), inplace=False)
    Array([-1,  1, -2,  3,  4], dtype=int64)
    """
    _not_inplace("put", inplace)
    a = util.operand("put", a)
    shape = get_aval(a).shape
    size = int(np.prod(shape))
    ind = _int_operand("put", ind, "indices")
    ind = lax.reshape(util.cast(ind, dtypes.default_int()), (get_aval(ind).size,))
    n = get_aval(ind).shape[0]
    mode = "raise" if mode is None else mode
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"put: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    if mode == "raise" and not isinstance(ind, Tracer) and n:
        iv = np.asarray(ind)
        if iv.min() < -size or iv.max() >= size:
            bad = int(iv.max()) if iv.max() >= size else int(iv.min())
            raise IndexError(f"put: index {bad} is out of bounds for size {size}")
        ind = lax.select(lax.lt(ind, lax.full_like(ind, 0)),
                         lax.add(ind, lax.full_like(ind, size)), ind)
    if mode == "wrap":
        s = lax.full_like(ind, size)
        ind = lax.rem(lax.add(lax.rem(ind, s), s), s)
    ind = lax.clamp(lax.full_like(ind, 0), ind, lax.full_like(ind, max(size - 1, 0)))
    if n == 0:
        return a
    vals = _cycled("put", v, n, get_aval(a).dtype)
    flat = lax.reshape(a, (size,))
    return lax.reshape(flat.at[ind].set(vals), shape)


def place(arr: ArrayLike, mask: ArrayLike, vals: ArrayLike, *,
          inplace: bool = True) -> Any:
    """``arr`` with the positions where ``mask`` is true set, in order, to
    the (cycled) ``vals``, functionally: pass ``inplace=False``.  Works under
    jit (the k-th true position takes ``vals[k % len(vals)]``).

    Examples
    --------
    >>> snp.place(snp.arange(5), snp.arange(5) % 2 == 1, snp.array([10, 20]),
    ...           inplace=False)
    Array([ 0, 10,  2, 20,  4], dtype=int64)
    """
    _not_inplace("place", inplace)
    a = util.operand("place", arr)
    m = util.operand("place", mask)
    shape = get_aval(a).shape
    size = int(np.prod(shape))
    if get_aval(m).size != size:
        raise ValueError(f"place: mask and data must be the same size, got shapes "
                         f"{get_aval(m).shape} and {shape}")
    m = lax.reshape(m, (size,))
    if get_aval(m).dtype != dtypes.bool_:
        m = lax.ne(m, lax.full_like(m, 0))
    v = util.cast(util.operand("place", vals), get_aval(a).dtype)
    v = lax.reshape(v, (get_aval(v).size,))
    nv = get_aval(v).shape[0]
    if nv == 0:
        if not isinstance(m, Tracer) and not np.any(np.asarray(m)):
            return a
        raise ValueError("place: cannot place values from an empty array into a "
                         "non-empty mask")
    it = dtypes.default_int()
    k = lax.sub(lax.cumsum(util.cast(m, it), 0), lax.full((size,), 1, it))
    k = lax.rem(lax.max(k, lax.full_like(k, 0)), lax.full_like(k, nv))
    picked = v.at[k].get(mode="clip")
    return lax.reshape(lax.select(m, picked, lax.reshape(a, (size,))), shape)


def putmask(a: ArrayLike, mask: ArrayLike, values: ArrayLike, *,
            inplace: bool = True) -> Any:
    """``a`` with ``a.flat[i] = values.flat[i % len(values)]`` wherever
    ``mask`` is true, functionally: pass ``inplace=False``.

    Examples
    --------
    >>> snp.putmask(snp.arange(4), snp.arange(4) > 1, snp.array([7, 8]),
    ...             inplace=False)
    Array([0, 1, 7, 8], dtype=int64)
    """
    _not_inplace("putmask", inplace)
    a = util.operand("putmask", a)
    m = util.operand("putmask", mask)
    shape = get_aval(a).shape
    if get_aval(m).shape != shape:
        raise ValueError(f"putmask: mask and data must be the same size, got shapes "
                         f"{get_aval(m).shape} and {shape}")
    size = int(np.prod(shape))
    if get_aval(m).dtype != dtypes.bool_:
        m = lax.ne(m, lax.full_like(m, 0))
    vals = lax.reshape(_cycled("putmask", values, size, get_aval(a).dtype), shape) \
        if size else a
    return lax.select(m, vals, a)
