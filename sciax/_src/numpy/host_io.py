"""Printing (array_str, array_repr, array2string and NumPy's print options) and
construction from host buffers (frombuffer, fromiter, fromstring, load).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sciax._src.core.trace import Tracer
from sciax._src.numpy.creation import asarray

ArrayLike = Any

__all__ = ["array_str", "array_repr", "array2string", "printoptions",
           "get_printoptions", "set_printoptions", "frombuffer", "fromiter",
           "fromstring", "load"]


# NumPy's print options govern how sciax Arrays print (their repr formats a
# NumPy copy), so these are NumPy's own
printoptions = np.printoptions
get_printoptions = np.get_printoptions
set_printoptions = np.set_printoptions


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
