"""Data types: the supported set, canonicalisation under x64, weak types and
the promotion lattice.

Promotion follows NumPy 2 (NEP 50): array dtypes promote as ``numpy.result_type``
does, and Python scalars are *weak*: they take the dtype of the array they meet
when their kind (bool < int < float < complex) allows it, so
``float32_array * 2.0`` stays float32.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from sciax._src.config import config

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (
    np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)
)
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
bfloat16 = np.dtype(ml_dtypes.bfloat16)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

supported_dtypes = frozenset({
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    bfloat16, float16, float32, float64, complex64, complex128,
})
_narrow = {float64: float32, int64: int32, uint64: uint32, complex128: complex64}

_short_names = {
    bool_: "bool", int8: "i8", int16: "i16", int32: "i32", int64: "i64",
    uint8: "u8", uint16: "u16", uint32: "u32", uint64: "u64", bfloat16: "bf16",
    float16: "f16", float32: "f32", float64: "f64", complex64: "c64",
    complex128: "c128",
}


def short_name(dtype: np.dtype) -> str:
    return _short_names.get(dtype, str(dtype))


def canonicalize_dtype(dtype: Any) -> np.dtype:
    """Return the dtype sciax uses for a request of ``dtype``.

    Raises TypeError for dtypes sciax cannot hold (objects, strings, ...).
    """
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{dtype!r} is not a valid dtype") from None
    if dt not in supported_dtypes:
        raise TypeError(
            f"sciax does not support dtype {dt} (kind {dt.kind!r}); supported: "
            "bool, int8-64, uint8-64, bfloat16, float16/32/64, complex64/128")
    if not config.enable_x64:
        return _narrow.get(dt, dt)
    return dt


def default_int() -> np.dtype:
    return int64 if config.enable_x64 else int32


def default_float() -> np.dtype:
    return float64 if config.enable_x64 else float32


def default_complex() -> np.dtype:
    return complex128 if config.enable_x64 else complex64


_python_scalar_kinds = {bool: "b", int: "i", float: "f", complex: "c"}


def python_scalar_dtype(x: Any) -> np.dtype:
    """Default dtype of a Python scalar (bool, int, float, complex)."""
    kind = _python_scalar_kinds[type(x)]
    if kind == "b":
        return bool_
    if kind == "i":
        return default_int()
    if kind == "f":
        return default_float()
    return default_complex()


def is_python_scalar(x: Any) -> bool:
    return type(x) in _python_scalar_kinds


def is_weakly_typed(x: Any) -> bool:
    """Python int, float and complex are weak; bool is not (as in NumPy 2)."""
    return type(x) in (int, float, complex)


def issubdtype(a: Any, b: Any) -> bool:
    if np.dtype(a) == bfloat16:
        return b in (np.floating, np.inexact, np.number, np.generic, bfloat16)
    return np.issubdtype(a, b)


def is_float(dt: np.dtype) -> bool:
    return dt.kind == "f" or dt == bfloat16


def is_inexact(dt: np.dtype) -> bool:
    return dt.kind in "fc" or dt == bfloat16


def is_complex(dt: np.dtype) -> bool:
    return dt.kind == "c"


def is_integer(dt: np.dtype) -> bool:
    return dt.kind in "iu"


def finfo(dt: Any) -> Any:
    return ml_dtypes.finfo(np.dtype(dt))


def iinfo(dt: Any) -> Any:
    return np.iinfo(np.dtype(dt))


_kind_rank = {"b": 0, "i": 1, "u": 1, "f": 2, "V": 2, "c": 3}


def _kind(dt: np.dtype) -> int:
    return _kind_rank[dt.kind] if dt != bfloat16 else 2


def _result_strong(dtypes: list[np.dtype]) -> np.dtype:
    if bfloat16 in dtypes:
        others = [d for d in dtypes if d != bfloat16]
        if not others or all(_kind(d) < 2 for d in others):
            return bfloat16
        # bfloat16 meets float16 -> float32, as NumPy's ml_dtypes rules do
        others = [float32 if d == float16 else d for d in others]
        others.append(float32)
        return np.result_type(*others)
    return np.result_type(*dtypes)


def result_type(*args: tuple[np.dtype, bool]) -> tuple[np.dtype, bool]:
    """Promote ``(dtype, weak_type)`` pairs; returns the result pair.

    A weak operand only widens the result's *kind*; it never widens its size.
    The result is weak only when every operand is.
    """
    strong = [d for d, w in args if not w]
    weak = [d for d, w in args if w]
    if not strong:
        out = max(weak, key=_kind)
        return canonicalize_dtype(out), True
    out = _result_strong(strong)
    if weak:
        top = max(weak, key=_kind)
        if _kind(top) > _kind(out):
            if _kind(top) == 3 and _kind(out) == 2:
                out = complex64 if out in (float16, bfloat16, float32) else complex128
            elif _kind(top) == 1 and out == bool_:
                out = default_int()
            else:
                out = top
    return canonicalize_dtype(out), False
