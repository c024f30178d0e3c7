"""Index helpers (ix_, ravel_multi_index, unravel_index), functional
versions of NumPy's in-place writers (fill_diagonal, put, place, putmask:
pass ``inplace=False`` and use the returned array), bit packing
(packbits, unpackbits), vectorize (through ``vmap``), printing
(array_str, array_repr, array2string and NumPy's print options) and
construction from host buffers (frombuffer, fromiter, fromstring, load).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.api import vmap
from sciax._src.core import dtypes
from sciax._src.core.avals import canonicalize_shape, get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import util
from sciax._src.numpy.creation import asarray
from sciax._src.numpy.sorting import nonzero

ArrayLike = Any

__all__ = ["ix_", "ravel_multi_index", "unravel_index", "fill_diagonal", "put", "place",
           "putmask", "packbits", "unpackbits", "vectorize", "array_str", "array_repr",
           "array2string", "printoptions", "get_printoptions", "set_printoptions",
           "frombuffer", "fromiter", "fromstring", "load"]

# NumPy's print options govern how sciax Arrays print (their repr formats a
# NumPy copy), so these are NumPy's own
printoptions = np.printoptions
get_printoptions = np.get_printoptions
set_printoptions = np.set_printoptions


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


# --- bits ---------------------------------------------------------------------------

def _bit_axis(name: str, a: Any, axis: Any) -> tuple[Any, int]:
    if axis is None:
        return lax.reshape(a, (get_aval(a).size,)), 0
    return a, util.canonicalize_axis(axis, util.ndim(a))


def packbits(a: ArrayLike, axis: int | None = None, bitorder: str = "big") -> Any:
    """Pack the truth values of ``a`` (bool or integer) into uint8 along
    ``axis`` (None: flattened), padding with zeros to a multiple of 8.

    Examples
    --------
    >>> snp.packbits(snp.array([1, 0, 1, 1, 0, 0, 0, 1, 1]))
    Array([177, 128], dtype=uint8)
    """
    a = util.operand("packbits", a)
    if not (dtypes.is_integer(get_aval(a).dtype) or get_aval(a).dtype == dtypes.bool_):
        raise TypeError(f"packbits: expected an input array of integer or boolean data "
                        f"type, got {get_aval(a).dtype}")
    if bitorder not in ("big", "little"):
        raise ValueError(f"packbits: bitorder must be 'big' or 'little', got "
                         f"{bitorder!r}")
    a, ax = _bit_axis("packbits", a, axis)
    bits = util.cast(lax.ne(a, lax.full_like(a, 0)), dtypes.uint8)
    shape = get_aval(bits).shape
    n = shape[ax]
    pad = -n % 8
    if pad:
        widths = [(0, 0, 0)] * len(shape)
        widths[ax] = (0, pad, 0)
        bits = lax.pad(bits, lax.full((), 0, dtypes.uint8), tuple(widths))
    m = (n + pad) // 8
    bits = lax.reshape(bits, (*shape[:ax], m, 8, *shape[ax + 1:]))
    weights = np.array([128, 64, 32, 16, 8, 4, 2, 1] if bitorder == "big"
                       else [1, 2, 4, 8, 16, 32, 64, 128], np.uint8)
    wshape = [1] * (len(shape) + 1)
    wshape[ax + 1] = 8
    w = lax.broadcast_in_dim(lax.convert_element_type(weights.reshape(wshape),
                                                      dtypes.uint8),
                             get_aval(bits).shape, tuple(range(len(shape) + 1)))
    return lax.reduce_sum(lax.mul(bits, w), (ax + 1,))


def unpackbits(a: ArrayLike, axis: int | None = None, count: int | None = None,
               bitorder: str = "big") -> Any:
    """Unpack the uint8 ``a`` into its bits along ``axis`` (None:
    flattened); ``count`` keeps that many bits (negative: drops from the
    end; more than available: pads with zeros).

    Examples
    --------
    >>> snp.unpackbits(snp.array([177], dtype=snp.uint8))
    Array([1, 0, 1, 1, 0, 0, 0, 1], dtype=uint8)
    """
    a = util.operand("unpackbits", a)
    if get_aval(a).dtype != dtypes.uint8:
        raise TypeError(f"unpackbits: expected an input array of unsigned byte data "
                        f"type (uint8), got {get_aval(a).dtype}")
    if bitorder not in ("big", "little"):
        raise ValueError(f"unpackbits: bitorder must be 'big' or 'little', got "
                         f"{bitorder!r}")
    a, ax = _bit_axis("unpackbits", a, axis)
    shape = get_aval(a).shape
    shifts = np.arange(7, -1, -1) if bitorder == "big" else np.arange(8)
    big = (*shape[:ax], shape[ax], 8, *shape[ax + 1:])
    sshape = [1] * len(big)
    sshape[ax + 1] = 8
    s = lax.broadcast_in_dim(lax.convert_element_type(
        shifts.astype(np.uint8).reshape(sshape), dtypes.uint8), big,
        tuple(range(len(big))))
    x = lax.broadcast_in_dim(a, big, tuple(k for k in range(len(big)) if k != ax + 1))
    one = lax.full(big, 1, dtypes.uint8)
    bits = lax.bitwise_and(lax.shift_right_logical(x, s), one)
    n = shape[ax] * 8
    bits = lax.reshape(bits, (*shape[:ax], n, *shape[ax + 1:]))
    if count is not None:
        count = util.concrete_int(count, "unpackbits: count")
        keep = n + count if count < 0 else count
        keep = max(keep, 0)
        if keep <= n:
            bits = lax.slice_in_dim(bits, 0, keep, axis=ax)
        else:
            widths = [(0, 0, 0)] * len(shape)
            widths[ax] = (0, keep - n, 0)
            bits = lax.pad(bits, lax.full((), 0, dtypes.uint8), tuple(widths))
    return bits


# --- vectorize ----------------------------------------------------------------------

_DIMS = r"\((?:\w+(?:,\s*\w+)*)?\)"


def _parse_signature(signature: str) -> tuple[list[tuple[str, ...]],
                                              list[tuple[str, ...]]]:
    sig = signature.replace(" ", "")
    if not re.fullmatch(rf"{_DIMS}(?:,{_DIMS})*->{_DIMS}(?:,{_DIMS})*", sig):
        raise ValueError(f"vectorize: not a valid gufunc signature: {signature!r}")
    ins, outs = sig.split("->")

    def groups(text: str) -> list[tuple[str, ...]]:
        return [tuple(d for d in g.split(",") if d) for g in re.findall(r"\((.*?)\)",
                                                                       text)]
    return groups(ins), groups(outs)


class vectorize:
    """Make a function of scalars (or of core arrays, with a gufunc
    ``signature`` such as ``'(n),(n)->()'``) broadcast over its arguments'
    leading axes, by nested ``vmap``: it traces once and works under jit.

    Arguments named in ``excluded`` (positions or keywords) are passed
    through unchanged.

    Examples
    --------
    >>> f = snp.vectorize(lambda x, y: x * y + 1.0)
    >>> f(snp.arange(3.0), 2.0)
    Array([1., 3., 5.], dtype=float64)
    >>> g = snp.vectorize(lambda u, v: snp.dot(u, v), signature="(n),(n)->()")
    >>> g(snp.ones((4, 3)), snp.ones(3))
    Array([3., 3., 3., 3.], dtype=float64)
    """

    def __init__(self, pyfunc: Callable[..., Any], otypes: Any = None, doc: Any = None,
                 excluded: Any = None, cache: bool = False,
                 signature: str | None = None):
        self.pyfunc = pyfunc
        self.otypes = otypes
        self.excluded = frozenset(excluded or ())
        self.signature = signature
        self._sig = _parse_signature(signature) if signature is not None else None
        functools.update_wrapper(self, pyfunc, updated=())
        if doc is not None:
            self.__doc__ = doc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        excluded_kw = {k: v for k, v in kwargs.items() if k in self.excluded}
        kwargs = {k: v for k, v in kwargs.items() if k not in self.excluded}
        fixed = {i: a for i, a in enumerate(args) if i in self.excluded}
        names = list(kwargs)
        mapped = [util.operand("vectorize", a) for i, a in enumerate(args)
                  if i not in self.excluded] + [util.operand("vectorize", kwargs[k])
                                                for k in names]
        n_pos = len(mapped) - len(names)
        if self._sig is not None:
            cores = [len(c) for c in self._sig[0]]
            if len(cores) != len(mapped):
                raise TypeError(f"vectorize: the signature {self.signature!r} has "
                                f"{len(cores)} inputs but {len(mapped)} were given")
        else:
            cores = [0] * len(mapped)
        for x, c in zip(mapped, cores):
            if util.ndim(x) < c:
                raise ValueError(f"vectorize: an input of shape {get_aval(x).shape} "
                                 "has "
                                 f"fewer dimensions than its core dimensions ({c}) in "
                                 f"the signature {self.signature!r}")
        loops = [get_aval(x).shape[:util.ndim(x) - c] for x, c in zip(mapped, cores)]
        loop = util._broadcast_shapes(*loops, name="vectorize") if loops else ()
        mapped = [util.broadcast_to(x, (*loop, *get_aval(x).shape[len(s):]),
                                    "vectorize") for x, s in zip(mapped, loops)]

        def call(*xs: Any) -> Any:
            pos = iter(xs[:n_pos])
            full = [fixed[i] if i in fixed else next(pos)
                    for i in range(len(args))]
            kw = dict(zip(names, xs[n_pos:]), **excluded_kw)
            out = self.pyfunc(*full, **kw)
            if isinstance(out, tuple):
                return tuple(util.operand("vectorize", o) for o in out)
            return util.operand("vectorize", out)

        fn = call
        for _ in loop:
            fn = vmap(fn)
        if not mapped:
            return call()
        out = fn(*mapped)
        if self.otypes:
            types = list(self.otypes) if not isinstance(self.otypes, str) else \
                list(self.otypes)
            if isinstance(out, tuple):
                out = tuple(util.cast(o, np.dtype(t)) for o, t in zip(out, types))
            else:
                out = util.cast(out, np.dtype(types[0]))
        return out


# --- printing and host construction ---------------------------------------------------

def _host(x: Any) -> np.ndarray:
    if isinstance(x, Tracer):
        raise TypeError("cannot format a traced value (inside jit/vmap/grad); use "
                        "sciax.debug.print to print values from traced code")
    return np.asarray(x)


def array_str(a: ArrayLike, max_line_width: int | None = None,
              precision: int | None = None, suppress_small: bool | None = None) -> str:
    """NumPy's ``array_str`` of the array's values.

    Examples
    --------
    >>> snp.array_str(snp.array([1.0, 2.5]))
    '[1.  2.5]'
    """
    return np.array_str(_host(a), max_line_width, precision, suppress_small)


def array_repr(arr: ArrayLike, max_line_width: int | None = None,
               precision: int | None = None, suppress_small: bool | None = None) -> str:
    """The repr of a sciax Array (NumPy's ``array_repr`` for other input).

    Examples
    --------
    >>> snp.array_repr(snp.array([1, 2]))
    'Array([1, 2], dtype=int64)'
    """
    if hasattr(arr, "aval") and not isinstance(arr, Tracer):
        return repr(arr)
    return np.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array2string(a: ArrayLike, *args: Any, **kwargs: Any) -> str:
    """NumPy's ``array2string`` of the array's values (same options).

    Examples
    --------
    >>> snp.array2string(snp.array([1, 2]), separator=", ")
    '[1, 2]'
    """
    return np.array2string(_host(a), *args, **kwargs)


def _device(x: np.ndarray) -> Any:
    return asarray(x)


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1,
               offset: int = 0) -> Any:
    """An Array from the bytes of ``buffer`` (as NumPy's ``frombuffer``).

    Examples
    --------
    >>> snp.frombuffer(b"\\x01\\x02", dtype=snp.uint8)
    Array([1, 2], dtype=uint8)
    """
    return _device(np.frombuffer(buffer, dtype=np.dtype(dtype), count=count,
                                 offset=offset))


def fromiter(iter: Any, dtype: Any, count: int = -1) -> Any:
    """An Array from the values of an iterable (read on the host).

    Examples
    --------
    >>> snp.fromiter((k * k for k in range(4)), dtype=snp.int32)
    Array([0, 1, 4, 9], dtype=int32)
    """
    return _device(np.fromiter(iter, dtype=np.dtype(dtype), count=count))


def fromstring(string: str, dtype: Any = float, count: int = -1, *, sep: str) -> Any:
    """An Array from numbers in text separated by ``sep``.

    Examples
    --------
    >>> snp.fromstring("1 2 3", dtype=snp.int32, sep=" ")
    Array([1, 2, 3], dtype=int32)
    """
    return _device(np.fromstring(string, dtype=np.dtype(dtype), count=count, sep=sep))


def load(file: Any, *args: Any, **kwargs: Any) -> Any:
    """NumPy's ``load`` of a ``.npy`` file, returned as an Array (``.npz``
    archives come back as NumPy's lazy mapping of NumPy arrays)."""
    out = np.load(file, *args, **kwargs)
    if isinstance(out, np.ndarray) and (out.dtype.kind in "biufc"):
        return _device(out)
    return out
