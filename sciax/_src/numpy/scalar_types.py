"""dtype objects (``snp.float32`` ...), ``finfo``/``iinfo`` and constants.

``snp.float32`` is a class, as ``np.float32`` is: it can be passed wherever a
dtype is expected (``np.dtype(snp.float32)`` works through its ``dtype``
attribute) and calling it makes a 0-d sciax Array, ``snp.float32(2.5)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sciax._src.core import dtypes
from sciax._src.numpy.creation import asarray
from sciax._src.numpy.util import as_operand, result_dtype


class _ScalarMeta(type):
    dtype: np.dtype

    def __call__(cls, x: Any = 0) -> Any:
        return asarray(x, dtype=cls.dtype)

    def __eq__(cls, other: Any) -> bool:
        if isinstance(other, _ScalarMeta):
            return cls is other
        try:
            return np.dtype(other) == cls.dtype
        except TypeError:
            return False

    def __hash__(cls) -> int:
        return hash(cls.dtype)

    def __repr__(cls) -> str:
        return f"<class 'sciax.numpy.{cls.__name__}'>"

    def __instancecheck__(cls, instance: Any) -> bool:
        return getattr(instance, "dtype", None) == cls.dtype


def _make(name: str, dtype: Any) -> type:
    return _ScalarMeta(name, (), {"dtype": np.dtype(dtype), "__module__": "sciax.numpy",
                                  "__doc__": f"The ``{name}`` dtype (callable: makes a "
                                             "0-d Array)."})


bool_ = _make("bool_", dtypes.bool_)
int8 = _make("int8", dtypes.int8)
int16 = _make("int16", dtypes.int16)
int32 = _make("int32", dtypes.int32)
int64 = _make("int64", dtypes.int64)
uint8 = _make("uint8", dtypes.uint8)
uint16 = _make("uint16", dtypes.uint16)
uint32 = _make("uint32", dtypes.uint32)
uint64 = _make("uint64", dtypes.uint64)
bfloat16 = _make("bfloat16", dtypes.bfloat16)
float16 = _make("float16", dtypes.float16)
float32 = _make("float32", dtypes.float32)
float64 = _make("float64", dtypes.float64)
complex64 = _make("complex64", dtypes.complex64)
complex128 = _make("complex128", dtypes.complex128)
float_ = float64
complex_ = complex128
int_ = int64
uint = uint64
single, double = float32, float64
csingle, cdouble = complex64, complex128
half = float16

# abstract classes for issubdtype, as NumPy's
generic, number, inexact, floating = np.generic, np.number, np.inexact, np.floating
complexfloating, integer = np.complexfloating, np.integer
signedinteger, unsignedinteger = np.signedinteger, np.unsignedinteger
dtype = np.dtype

pi = np.pi
e = np.e
euler_gamma = np.euler_gamma
inf = np.inf
nan = np.nan
newaxis = None


def finfo(dtype: Any) -> Any:
    """Machine limits for a floating dtype (bfloat16 included, via ml_dtypes).

    Examples
    --------
    >>> float(snp.finfo(snp.float32).eps)
    1.1920928955078125e-07
    """
    return dtypes.finfo(_as_np_dtype(dtype))


def iinfo(dtype: Any) -> Any:
    """Machine limits for an integer dtype.

    Examples
    --------
    >>> snp.iinfo(snp.int8).max
    127
    """
    return dtypes.iinfo(_as_np_dtype(dtype))


def _as_np_dtype(x: Any) -> np.dtype:
    if hasattr(x, "dtype") and not isinstance(x, type | np.dtype):
        return np.dtype(x.dtype)
    return np.dtype(x)


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """``np.issubdtype`` that also knows bfloat16 and sciax's dtype classes."""
    if isinstance(arg2, _ScalarMeta):
        arg2 = arg2.dtype
    return dtypes.issubdtype(_as_np_dtype(arg1), arg2)


def result_type(*args: Any) -> np.dtype:
    """The dtype NumPy 2 promotion (with weak Python scalars) gives ``args``.

    Examples
    --------
    >>> snp.result_type(snp.float32, 2.0)
    dtype('float32')
    """
    pairs = []
    for a in args:
        if dtypes.is_python_scalar(a):
            pairs.append((dtypes.python_scalar_dtype(a), dtypes.is_weakly_typed(a)))
        elif isinstance(a, _ScalarMeta | np.dtype | str) or (
                isinstance(a, type) and issubclass(a, np.generic)):
            pairs.append((dtypes.canonicalize_dtype(_as_np_dtype(a)), False))
        else:
            pairs.append(result_dtype(as_operand("result_type", a)))
    return dtypes.result_type(*pairs)[0]


def can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    return np.can_cast(_as_np_dtype(from_), _as_np_dtype(to), casting=casting)
