"""Helpers for the test suite: random inputs per dtype, per-dtype tolerances
and an ``assert_allclose`` that understands sciax Arrays and bfloat16.

This module imports only NumPy and ml_dtypes (no pytest, hypothesis or SciPy),
so it can live inside the package and be used by downstream test suites.

An *rng factory* takes a NumPy ``Generator`` and returns ``fn(shape, dtype)``
producing a NumPy array of exactly ``dtype``:

>>> import numpy as np
>>> from sciax._src import test_util as tu
>>> x = tu.rand_positive(np.random.default_rng(0))((2, 3), np.float32)
>>> x.dtype, x.shape, bool((x > 0).all())
(dtype('float32'), (2, 3), True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

RandFn = Callable[[tuple[int, ...], Any], np.ndarray]
RngFactory = Callable[[np.random.Generator], RandFn]

bfloat16 = np.dtype(ml_dtypes.bfloat16)
float_dtypes = [bfloat16, *map(np.dtype, ("float16", "float32", "float64"))]
complex_dtypes = list(map(np.dtype, ("complex64", "complex128")))
signed_dtypes = list(map(np.dtype, ("int8", "int16", "int32", "int64")))
unsigned_dtypes = list(map(np.dtype, ("uint8", "uint16", "uint32", "uint64")))
int_dtypes = signed_dtypes + unsigned_dtypes
bool_dtypes = [np.dtype(bool)]
inexact_dtypes = float_dtypes + complex_dtypes
number_dtypes = int_dtypes + inexact_dtypes
all_dtypes = bool_dtypes + number_dtypes


def is_float(dtype: Any) -> bool:
    return np.dtype(dtype) in float_dtypes


def is_complex(dtype: Any) -> bool:
    return np.dtype(dtype).kind == "c"


def is_inexact(dtype: Any) -> bool:
    return is_float(dtype) or is_complex(dtype)


def finfo(dtype: Any) -> Any:
    return ml_dtypes.finfo(np.dtype(dtype))


def real_dtype(dtype: Any) -> np.dtype:
    dt = np.dtype(dtype)
    return {np.dtype("complex64"): np.dtype("float32"),
            np.dtype("complex128"): np.dtype("float64")}.get(dt, dt)


# --- tolerances ----------------------------------------------------------------
# Relative tolerances; the same value is used as the absolute tolerance so that
# results near zero (sin near pi, lgamma near 1 and 2) compare on the scale of
# the O(1) inputs.  References are computed in float64/complex128 from the same
# (already rounded) inputs, so only the output rounding and the algorithm error
# of XLA remain.
#
# "exact" ops (arithmetic, rounding, min/max, conversions): XLA rounds the exact
# result once, so the error is <= 0.5 ulp; one eps of the dtype covers it.
# eps: bfloat16 7.8e-3, float16 9.8e-4, float32 1.2e-7, float64 2.2e-16.
default_tolerance = {
    bfloat16: 1e-2, np.dtype("float16"): 1e-3,
    np.dtype("float32"): 1e-6, np.dtype("float64"): 1e-15,
    np.dtype("complex64"): 1e-6, np.dtype("complex128"): 1e-15,
}
# Transcendental and special functions: XLA CPU evaluates float16/bfloat16 in
# float32 and rounds (~1 ulp of the narrow type, so 2-5 eps is ample); its
# float32 kernels are polynomial approximations good to a few ulps (1e-5 is
# ~80 ulps, matching the "1e-5 plus a few ulps" budget used by JAX's own
# tests); float64 kernels and the CHLO expansions (erf_inv, lgamma, digamma,
# complex inverse trig) are good to ~1e-14, so 1e-12 leaves margin without
# hiding an algorithm that is wrong in the 6th digit.
transcendental_tolerance = {
    bfloat16: 2e-2, np.dtype("float16"): 5e-3,
    np.dtype("float32"): 1e-5, np.dtype("float64"): 1e-12,
    np.dtype("complex64"): 2e-5, np.dtype("complex128"): 1e-12,
}


def tolerance(dtype: Any, tol: dict | float | None = None,
              default: dict | None = None) -> float:
    """The tolerance for ``dtype``: ``tol`` (a number or a dict by dtype) wins
    over ``default`` (``default_tolerance`` if None); integer and bool dtypes get 0."""
    dt = np.dtype(dtype)
    if isinstance(tol, int | float):
        return float(tol)
    if isinstance(tol, dict) and dt in {np.dtype(k) for k in tol}:
        return float({np.dtype(k): v for k, v in tol.items()}[dt])
    table = default_tolerance if default is None else default
    return float(table.get(dt, 0.0))


def _to_comparable(x: Any) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype == bfloat16 or x.dtype == np.float16:
        return x.astype(np.float32)
    return x


def assert_allclose(actual: Any, desired: Any, *, rtol: float | None = None,
                    atol: float | None = None, dtype: Any = None,
                    check_dtype: bool = True, err_msg: str = "") -> None:
    """Assert ``actual`` (a sciax Array or array-like) matches ``desired``.

    Shapes must agree exactly.  If ``dtype`` is given (or ``check_dtype`` and
    ``desired`` is a NumPy array), ``actual`` must have that dtype.  Tolerances
    default to ``default_tolerance`` of the actual dtype (0 for integers and
    bool, i.e. exact); ``atol`` defaults to ``rtol``.  NaNs compare equal, and
    infinities must match in sign.
    """
    a = np.asarray(actual)
    if dtype is not None:
        if a.dtype != np.dtype(dtype):
            raise AssertionError(
                f"dtype {a.dtype} != expected {np.dtype(dtype)}. {err_msg}")
    elif check_dtype and isinstance(desired, np.ndarray) and a.dtype != desired.dtype:
        raise AssertionError(f"dtype {a.dtype} != expected {desired.dtype}. {err_msg}")
    d = np.asarray(desired)
    if a.shape != d.shape:
        raise AssertionError(f"shape {a.shape} != expected {d.shape}. {err_msg}")
    if rtol is None:
        rtol = tolerance(a.dtype)
    if atol is None:
        atol = rtol
    a, d = _to_comparable(a), _to_comparable(d)
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(a, d, err_msg=err_msg, strict=False)
    else:
        np.testing.assert_allclose(a, d, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=err_msg)


def assert_bits_equal(actual: Any, desired: Any, err_msg: str = "") -> None:
    """Assert equal dtype, shape and bit patterns (distinguishes NaN payloads,
    -0.0 and 0.0)."""
    a, d = np.asarray(actual), np.asarray(desired)
    if a.dtype != d.dtype or a.shape != d.shape:
        raise AssertionError(f"{a.dtype}{a.shape} != expected {d.dtype}{d.shape}. "
                             f"{err_msg}")
    if a.dtype == np.bool_:
        np.testing.assert_array_equal(a, d, err_msg=err_msg)
        return
    def raw(x: np.ndarray) -> np.ndarray:  # reshape first: 0-d arrays cannot be viewed
        flat = np.ascontiguousarray(x).reshape(-1)
        return flat.view(np.uint8).reshape(x.size, x.itemsize)
    np.testing.assert_array_equal(raw(a), raw(d), err_msg=err_msg)


# --- rng factories -------------------------------------------------------------

def _cast(x: np.ndarray, dtype: Any) -> np.ndarray:
    return np.asarray(x).astype(np.dtype(dtype))


def _real_and_complex(sample: Callable[[tuple[int, ...]], np.ndarray]) -> RandFn:
    """Lift a float64 sampler to every dtype: complex dtypes draw both parts."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        if dt.kind == "c":
            return _cast(sample(shape) + 1j * sample(shape), dt)
        return _cast(sample(shape), dt)
    return fn


def _int_range(dtype: np.dtype, low: int, high: int) -> tuple[int, int]:
    info = np.iinfo(dtype)
    return max(low, int(info.min)), min(high, int(info.max))


def rand_default(rng: np.random.Generator, scale: float = 3.0) -> RandFn:
    """Floats uniform in ``(-scale, scale)``; integers in [-20, 20] (unsigned
    [0, 40]); bools fair coins.  Bounded so that exp/cosh of the values stay
    finite in float16."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        if dt == np.bool_:
            return rng.random(shape) < 0.5
        if dt.kind in "iu":
            signed = dt.kind == "i"
            lo, hi = _int_range(dt, -20 if signed else 0, 20 if signed else 40)
            return rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
        return _real_and_complex(lambda s: rng.uniform(-scale, scale, s))(shape, dt)
    return fn


def rand_small(rng: np.random.Generator) -> RandFn:
    """Values of magnitude below 1 (integers: [-3, 3])."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        if dt.kind in "iub":
            return rand_int(rng, -3, 3)(shape, dt)
        return _real_and_complex(lambda s: rng.uniform(-1.0, 1.0, s))(shape, dt)
    return fn


def rand_uniform(rng: np.random.Generator, low: float = 0.0, high: float = 1.0,
                 closed: bool = False) -> RandFn:
    """Floats in the open interval ``(low, high)`` *after* rounding to the dtype
    (values that round onto an endpoint are moved inside), so that domain
    limits such as ``erf_inv``'s (-1, 1) hold exactly.  ``closed=True`` allows
    the endpoints.  Complex dtypes draw both parts from the interval."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        x = _real_and_complex(lambda s: rng.uniform(low, high, s))(shape, dt)
        if dt.kind == "c" or closed:
            return x
        x64 = x.astype(np.float64)
        bad = ~((x64 > low) & (x64 < high))
        x[bad] = _cast(np.asarray((low + high) / 2), dt)
        return x
    return fn


def rand_positive(rng: np.random.Generator) -> RandFn:
    """Positive values: floats in (0.1, 5), integers in [1, 20]."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        if dt.kind in "iu":
            return rand_int(rng, 1, 20)(shape, dt)
        return rand_uniform(rng, 0.1, 5.0)(shape, dt)
    return fn


def rand_nonzero(rng: np.random.Generator) -> RandFn:
    """Like :func:`rand_default` with zeros replaced (integers by +-1..20,
    floats by magnitudes in (0.5, 3)), for divisors."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        if dt.kind in "iu":
            mag = rng.integers(1, 20, size=shape, endpoint=True)
            sign = rng.choice([-1, 1], size=shape) if dt.kind == "i" else 1
            return (mag * sign).astype(dt)
        def sample(s):
            return rng.uniform(0.5, 3.0, s) * rng.choice([-1.0, 1.0], size=s)
        return _real_and_complex(sample)(shape, dt)
    return fn


def rand_int(rng: np.random.Generator, low: int, high: int) -> RandFn:
    """Integers in ``[low, high]`` (clipped to the dtype's range) in any dtype;
    bool draws coins."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        if dt == np.bool_:
            return rng.random(shape) < 0.5
        if dt.kind in "iu":
            lo, hi = _int_range(dt, low, high)
            return rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
        return _real_and_complex(lambda s: rng.integers(low, high, s, endpoint=True)
                                 .astype(np.float64))(shape, dt)
    return fn


def rand_full_range(rng: np.random.Generator) -> RandFn:
    """Integers over the whole range of the dtype (wrap-around behaviour);
    other dtypes as :func:`rand_default`."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        if dt.kind in "iu":
            info = np.iinfo(dt)
            return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dt)
        return rand_default(rng)(shape, dt)
    return fn


def rand_some_equal(rng: np.random.Generator) -> RandFn:
    """Small integer values (in any dtype) so that two draws often tie: for
    comparisons, max/min and select."""
    return rand_int(rng, -2, 2)


def rand_ties(rng: np.random.Generator) -> RandFn:
    """Multiples of 1/4 in (-8, 8): exact halves exercise rounding ties."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        return _cast(rng.integers(-32, 32, size=shape) / 4.0, dtype)
    return fn


def rand_some_inf_and_nan(rng: np.random.Generator) -> RandFn:
    """Default floats with about a quarter of the entries replaced by +inf,
    -inf or NaN."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        x = rand_default(rng)(shape, dt)
        if dt.kind not in "fcV" and dt != bfloat16:
            return x
        special = np.array([np.inf, -np.inf, np.nan]).astype(dt)
        mask = rng.random(shape) < 0.25
        picks = special[rng.integers(0, 3, size=shape)]
        return np.where(mask, picks, x).astype(dt)
    return fn


def rand_bool(rng: np.random.Generator) -> RandFn:
    def fn(shape: tuple[int, ...], dtype: Any = np.bool_) -> np.ndarray:
        return rng.random(shape) < 0.5
    return fn


def rand_shift(rng: np.random.Generator) -> RandFn:
    """Shift amounts in ``[0, bits)`` of the integer dtype."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        return rng.integers(0, 8 * dt.itemsize, size=shape).astype(dt)
    return fn


def rand_bits(rng: np.random.Generator) -> RandFn:
    """Uniformly random bit patterns (any non-bool dtype), including NaNs and
    subnormals for floating dtypes."""
    def fn(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        dt = np.dtype(dtype)
        if dt == np.bool_:
            return rng.random(shape) < 0.5
        raw = rng.integers(0, 256, size=(*shape, dt.itemsize), dtype=np.uint8)
        return np.ascontiguousarray(raw).view(dt).reshape(shape)
    return fn
