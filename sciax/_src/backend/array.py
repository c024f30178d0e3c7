"""The :class:`Array` type: an immutable array held by an XLA device.

An Array wraps one jaxlib device buffer and its abstract value.  Its arithmetic
operators and NumPy-style methods are attached by :mod:`sciax._src.numpy`
(they are plain sciax.numpy functions); this module holds only what needs the
buffer itself: conversion to NumPy, printing, and Python's scalar protocols.
"""

from __future__ import annotations

import math
import operator
import sys
from typing import Any

import numpy as np
from jaxlib import _jax

from sciax._src.backend import client as _client
from sciax._src.config import config
from sciax._src.core import dtypes
from sciax._src.core.avals import HasAval, ShapedArray


class Array(HasAval):
    """An n-dimensional array on an XLA device (sciax's ``ndarray``).

    Arrays are immutable: use ``x.at[idx].set(v)`` for functional updates.
    ``np.asarray(x)`` copies the data to the host (once; the copy is cached).

    Examples
    --------
    >>> x = snp.arange(3.0)
    >>> x
    Array([0., 1., 2.], dtype=float64)
    >>> x.shape, x.dtype
    ((3,), dtype('float64'))
    """

    __slots__ = ("_buf", "aval", "_npy", "__weakref__")
    __array_priority__ = 100

    def __init__(self, buf: Any, aval: ShapedArray):
        self._buf = buf
        self.aval = aval
        self._npy = None

    # -- metadata (shape, dtype, ndim, size, ... come from HasAval) -----------
    def devices(self) -> set:
        return {self.device}

    @property
    def device(self) -> Any:
        return self._buf._sharding._device

    # -- host transfer ----------------------------------------------------------
    def _value(self) -> np.ndarray:
        if self._npy is None:
            npy = np.asarray(host_copy(self._buf))
            npy.flags.writeable = False
            self._npy = npy
        return self._npy

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        val = self._value()
        if copy is False and dtype is not None and np.dtype(dtype) != val.dtype:
            raise ValueError("a copy is needed to convert to the requested dtype")
        out = np.asarray(val, dtype=dtype)
        return out.copy() if copy else out

    def block_until_ready(self) -> Array:
        """Wait until the array's computation has finished; returns ``self``."""
        self._buf.block_until_ready()
        return self

    def is_ready(self) -> bool:
        return self._buf.is_ready()

    def item(self, *args: Any) -> Any:
        """The element as a Python scalar (``x.item()`` for size-1 arrays)."""
        return self._value().item(*args)

    def tolist(self) -> Any:
        return self._value().tolist()

    def copy(self) -> Array:
        return device_put(self._value().copy())

    # -- Python protocols -------------------------------------------------------
    def _scalar(self, kind: str) -> np.ndarray:
        if self.size != 1:
            raise TypeError(
                f"only size-1 arrays can be converted to Python {kind}s; this "
                f"array has shape {self.shape}")
        return self._value().reshape(())

    def __bool__(self) -> bool:
        return bool(self._scalar("bool"))

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __complex__(self) -> complex:
        return complex(self._scalar("complex"))

    def __index__(self) -> int:
        if not dtypes.is_integer(self.dtype) and self.dtype != dtypes.bool_:
            raise TypeError(
                f"only integer arrays can be used as an index; got dtype {self.dtype}")
        return operator.index(self._scalar("int").item())

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        for row in self._value():
            yield device_put(row, weak_type=self.weak_type)

    def __setitem__(self, idx: Any, value: Any) -> None:
        raise TypeError(
            "sciax arrays are immutable and do not support item assignment; use "
            "the functional form x = x.at[idx].set(value) (or .add, .multiply, ...)")

    __hash__ = None  # type: ignore[assignment]

    def __format__(self, spec: str) -> str:
        if self.ndim == 0:
            return format(self._value().item(), spec)
        return format(self._value(), spec)

    def __repr__(self) -> str:
        val = self._value()
        prefix = "Array("
        if val.size == 0:
            body = f"[], shape={val.shape}"
        else:
            body = np.array2string(val, separator=", ", prefix=prefix)
        extra = ", weak_type=True" if self.weak_type else ""
        return f"{prefix}{body}, dtype={val.dtype}{extra})"

    def __str__(self) -> str:
        return str(self._value())

    def __reduce__(self):
        return (_reconstruct, (self._value(), self.weak_type))

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self._value().__dlpack__(*args, **kwargs)


def _reconstruct(value: np.ndarray, weak_type: bool) -> Array:
    return device_put(value, weak_type=weak_type)


def host_copy(buf: Any) -> np.ndarray:
    """Copy a single-device buffer to the host.

    jaxlib's transfer runs ``import jax.core`` when jax is installed (and
    works without it); that import would cost seconds and break sciax's
    promise never to load jax, so it is blocked for the call unless the user
    has imported jax already.

    On the CPU the buffer protocol gives the same array without that import
    attempt (a failed import per call cost ~10 us of a ~12 us transfer); types
    it does not export (bfloat16, other devices) take jaxlib's transfer.
    """
    try:
        return np.asarray(memoryview(buf))
    except (BufferError, TypeError, ValueError):
        pass
    if "jax" in sys.modules:
        return buf._single_device_array_to_np_array_did_copy()[0]
    sys.modules["jax"] = None  # type: ignore[assignment]
    try:
        return buf._single_device_array_to_np_array_did_copy()[0]
    finally:
        if sys.modules.get("jax", 0) is None:
            del sys.modules["jax"]


def put_buffer(value: np.ndarray, aval: ShapedArray, device: Any = None) -> Any:
    """Copy a NumPy array (already of ``aval.dtype``) to ``device``; returns a buffer."""
    dev = device if device is not None else _client.default_device()
    return _jax.batched_device_put(
        aval, _client.sharding(dev), [value], [dev], True, enable_x64=True)


def device_put(x: Any, device: Any = None, *, weak_type: bool = False) -> Array:
    """Place ``x`` (an array-like) on ``device`` as an :class:`Array`.

    NumPy arrays keep their dtype, narrowed to 32 bits when x64 is disabled;
    Python scalars become weakly typed arrays of the default dtype.

    Examples
    --------
    >>> import numpy as np
    >>> sciax.device_put(np.arange(3)).dtype
    dtype('int64')
    """
    if isinstance(x, Array):
        if device is None or device == x.device:
            return x
        x = x._value()
    if dtypes.is_python_scalar(x):
        dt = dtypes.python_scalar_dtype(x)
        weak_type = weak_type or dtypes.is_weakly_typed(x)
        value = np.asarray(x, dtype=dt)
    elif type(x) is np.ndarray and not weak_type:
        return ndarray_array(x, device)
    else:
        value = np.asarray(x)
        dt = dtypes.canonicalize_dtype(value.dtype)
        if dt != value.dtype:
            value = value.astype(dt)
    aval = ShapedArray(value.shape, dt, weak_type)
    return Array(put_buffer(value, aval, device), aval)


def _array_aval(x: Array) -> ShapedArray:
    return x.aval


from sciax._src.core import avals as _avals  # noqa: E402

_avals.pytype_aval_mappings[Array] = _array_aval


# Python scalars -> their weakly typed 0-d Array on the default device:
# ``x * 2.0`` and ``jit(f)(x, 0.5)`` reuse one device buffer per value instead of
# a host-to-device copy per call (buffers are immutable, and sciax never
# donates them).  Keyed by type, value and sign, so 0.0 and -0.0, 1 and True
# stay apart; NaNs are not kept; the x64 mode changes the dtypes, so a change
# empties it.
_scalar_arrays: dict = {}


def scalar_array(x: bool | int | float | complex) -> Array:
    """The Array of Python scalar ``x`` (as :func:`device_put` makes it), kept
    for reuse."""
    t = type(x)
    key = (t, x, math.copysign(1.0, x.real) if t is float or t is complex else 0)
    arr = _scalar_arrays.get(key)
    if arr is None:
        arr = device_put(x)
        if x == x:
            if len(_scalar_arrays) >= 512:
                _scalar_arrays.clear()
            _scalar_arrays[key] = arr
    return arr


# NumPy arrays -> their abstract values, by (shape, dtype): one ShapedArray per
# signature instead of a new one (and a dtype canonicalisation) per transfer, so
# that a jitted function called with NumPy arrays finds its cache key's parts
# by identity (the C hit path remembers its last key that way).  The x64 mode
# changes the dtypes, so a change empties it.
_ndarray_avals: dict = {}


def ndarray_array(x: np.ndarray, device: Any = None) -> Array:
    """``device_put(x)`` for a NumPy array (exact type ``np.ndarray``), with its
    abstract value from a bounded cache."""
    key = (x.shape, x.dtype)
    aval = _ndarray_avals.get(key)
    if aval is None:
        aval = ShapedArray(x.shape, dtypes.canonicalize_dtype(x.dtype))
        if len(_ndarray_avals) >= 1024:
            _ndarray_avals.clear()
        _ndarray_avals[key] = aval
    if aval.dtype != x.dtype:
        x = x.astype(aval.dtype)
    return Array(put_buffer(x, aval, device), aval)


def _on_config(name: str, value: Any) -> None:
    if name == "enable_x64":
        _scalar_arrays.clear()
        _ndarray_avals.clear()


config.on_change(_on_config)
