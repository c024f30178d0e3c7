"""NumPy's C-style dtype names (``intc``, ``long``, ``ubyte`` ...) and dtype
utilities: promote_types, min_scalar_type, common_type, mintypecode,
isdtype, iterable.

The C-style names resolve as NumPy does on 64-bit Linux (``long`` and
``intp`` are int64, ``intc`` is int32).  Promotion follows sciax's lattice
(NumPy 2 rules, see :func:`sciax.numpy.result_type`), so
``promote_types`` agrees with :func:`sciax.numpy.result_type` on dtypes.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from sciax._src.core import dtypes
from sciax._src.core.trace import Tracer
from sciax._src.numpy import scalar_types as st

__all__ = ["bool", "byte", "short", "intc", "intp", "long", "longlong", "ubyte",
           "ushort", "uintc", "uintp", "ulong", "ulonglong", "character", "flexible",
           "promote_types", "min_scalar_type", "common_type", "mintypecode", "isdtype",
           "iterable"]

bool = st.bool_  # noqa: A001 - NumPy 2's name for bool_
byte, short, intc = st.int8, st.int16, st.int32
intp = long = longlong = st.int64
ubyte, ushort, uintc = st.uint8, st.uint16, st.uint32
uintp = ulong = ulonglong = st.uint64
# abstract classes for issubdtype (no sciax array has these dtypes)
character, flexible = np.character, np.flexible

_CLASSES = {np.dtype(c.dtype): c for c in (
    st.bool_, st.int8, st.int16, st.int32, st.int64, st.uint8, st.uint16, st.uint32,
    st.uint64, st.bfloat16, st.float16, st.float32, st.float64, st.complex64,
    st.complex128)}


def _dtype(x: Any) -> np.dtype:
    """A NumPy dtype from a dtype-like or an array (its dtype)."""
    if isinstance(x, st._ScalarMeta):
        return x.dtype
    if hasattr(x, "dtype") and not isinstance(x, type | np.dtype):
        return np.dtype(x.dtype)
    return np.dtype(x)


def promote_types(type1: Any, type2: Any) -> np.dtype:
    """The dtype both ``type1`` and ``type2`` promote to (no weak types).

    Examples
    --------
    >>> snp.promote_types(snp.int8, snp.float32)
    dtype('float32')
    >>> snp.promote_types("uint8", "int8")
    dtype('int16')
    """
    a, b = _dtype(type1), _dtype(type2)
    return dtypes.result_type((a, False), (b, False))[0]


def min_scalar_type(a: Any, /) -> np.dtype:
    """NumPy's ``min_scalar_type``: the smallest dtype that holds the value
    of a scalar (or the dtype of an array).  Needs a concrete value.

    Examples
    --------
    >>> snp.min_scalar_type(10)
    dtype('uint8')
    """
    if isinstance(a, Tracer):
        raise TypeError("min_scalar_type depends on the value of its argument, which "
                        "is "
                        "traced here (inside jit/vmap/grad)")
    return np.min_scalar_type(np.asarray(a))


def common_type(*arrays: Any) -> type:
    """The inexact scalar type of the arrays' common precision: integers
    count as float64, a complex input makes the result complex.

    Examples
    --------
    >>> snp.common_type(snp.array([1, 2]), snp.array([1.0], dtype=snp.float32))
    <class 'sciax.numpy.float64'>
    """
    if not arrays:
        return st.float16
    is_complex = False
    size = 0
    for a in arrays:
        dt = _dtype(a)
        if dtypes.is_complex(dt):
            is_complex = True
            size = builtins.max(size, dt.itemsize // 2)
        elif dtypes.is_float(dt):
            size = builtins.max(size, dt.itemsize)
        elif dtypes.is_integer(dt) or dt == dtypes.bool_:
            size = builtins.max(size, 8)
        else:
            raise TypeError(f"common_type: can't get a common type for dtype {dt}")
    if is_complex:
        return st.complex64 if size <= 4 else st.complex128
    return {2: st.float16, 4: st.float32}.get(size, st.float64)


_TYPECODES_BY_ELSIZE = "GDFgdfQqLlIiHhBb?"


def mintypecode(typechars: Any, typeset: str = "GDFgdf", default: str = "d") -> str:
    """The character of the smallest type in ``typeset`` that can hold all of
    ``typechars`` (type characters or arrays), NumPy's legacy helper.

    Examples
    --------
    >>> snp.mintypecode(["d", "f", "S"])
    'd'
    """
    codes = {t if isinstance(t, str) else _dtype(t).char for t in typechars}
    hit = {t for t in codes if t in typeset}
    if not hit:
        return default
    if "F" in hit and "d" in hit:
        return "D"
    return builtins.min(hit, key=_TYPECODES_BY_ELSIZE.index)


_KINDS = {
    "bool": lambda d: d == dtypes.bool_,
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: dtypes.is_float(d),
    "complex floating": lambda d: dtypes.is_complex(d),
    "numeric": lambda d: d != dtypes.bool_ and (d.kind in "iuc" or dtypes.is_float(d)),
}


def isdtype(dtype: Any, kind: Any) -> builtins.bool:
    """The array API's ``isdtype``: is ``dtype`` of ``kind`` (a dtype, one of
    ``'bool'``, ``'signed integer'``, ``'unsigned integer'``, ``'integral'``,
    ``'real floating'``, ``'complex floating'``, ``'numeric'``, or a tuple of
    these)?  bfloat16 is a real floating dtype.

    Examples
    --------
    >>> snp.isdtype(snp.float32, "real floating"), snp.isdtype(snp.int8, "numeric")
    (True, True)
    >>> snp.isdtype(snp.bfloat16, ("integral", "complex floating"))
    False
    """
    if isinstance(dtype, str) or not (isinstance(dtype, np.dtype | st._ScalarMeta) or (
            isinstance(dtype, type) and issubclass(dtype, np.generic))):
        raise TypeError(f"isdtype: dtype argument must be a NumPy dtype (or a sciax/"
                        f"NumPy dtype class), got {dtype!r}")
    dt = _dtype(dtype)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str):
            if k not in _KINDS:
                raise ValueError("isdtype: kind argument must be one of "
                                 f"{list(_KINDS)} "
                                 f"(or a dtype, or a tuple of these), got {k!r}")
            if _KINDS[k](dt):
                return True
        else:
            try:
                if _dtype(k) == dt:
                    return True
            except TypeError:
                raise TypeError(f"isdtype: kind argument must be a string, a dtype or "
                                f"a tuple of these, got {k!r}") from None
    return False


def iterable(y: Any) -> builtins.bool:
    """True if ``iter(y)`` works (so False for 0-d arrays and scalars).

    Examples
    --------
    >>> snp.iterable(snp.array([1, 2])), snp.iterable(snp.array(1))
    (True, False)
    """
    if hasattr(y, "aval"):
        return len(y.shape) > 0
    try:
        iter(y)
    except TypeError:
        return False
    return True
