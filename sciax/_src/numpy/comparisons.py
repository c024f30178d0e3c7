"""Closeness tests (isclose, allclose, array_equal, array_equiv), value and type
predicates (iscomplex, isreal, iscomplexobj, isrealobj, isscalar, isneginf,
isposinf) and value clean-up (nan_to_num, real_if_close).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.trace import Tracer
from sciax._src.numpy import reductions, ufuncs, util

ArrayLike = Any

__all__ = ["isclose", "allclose", "array_equal", "array_equiv", "iscomplex", "isreal",
           "iscomplexobj", "isrealobj", "isscalar", "isneginf", "isposinf",
           "nan_to_num", "real_if_close"]


# --- comparisons ---------------------------------------------------------------------

def isclose(a: ArrayLike, b: ArrayLike, rtol: ArrayLike = 1e-05,
            atol: ArrayLike = 1e-08, equal_nan: bool = False) -> Any:
    """``abs(a - b) <= atol + rtol * abs(b)`` elementwise; infinities are close
    only to themselves and NaNs to NaNs only when ``equal_nan``.

    Examples
    --------
    >>> snp.isclose(snp.array([1.0, 1.1, snp.nan]), 1.0)
    Array([ True, False, False], dtype=bool)
    """
    util.check_arraylike("isclose", a, b)
    a, b = util.promote_args_inexact("isclose", a, b)
    dt = util.dtype_of(a)
    rdt = dtypes.finfo(dt).dtype if dtypes.is_complex(dt) else dt
    rtol = util.cast(util.operand("isclose", rtol), rdt)
    atol = util.cast(util.operand("isclose", atol), rdt)
    err = ufuncs.abs(ufuncs.subtract(a, b))
    tol = ufuncs.add(atol, ufuncs.multiply(rtol, ufuncs.abs(b)))
    close = ufuncs.logical_and(ufuncs.less_equal(err, tol), ufuncs.isfinite(b))
    out = ufuncs.logical_or(close, ufuncs.equal(a, b))
    if equal_nan:
        out = ufuncs.logical_or(out, ufuncs.logical_and(ufuncs.isnan(a),
                                                        ufuncs.isnan(b)))
    return out


def allclose(a: ArrayLike, b: ArrayLike, rtol: ArrayLike = 1e-05,
             atol: ArrayLike = 1e-08, equal_nan: bool = False) -> Any:
    """True if every element of ``a`` is :func:`isclose` to ``b`` (a 0-d
    bool Array, so it also works under jit).

    Examples
    --------
    >>> bool(snp.allclose(snp.array([1.0, 2.0]), snp.array([1.0, 2.0 + 1e-9])))
    True
    """
    return reductions.all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> Any:
    """True if the inputs have the same shape and elements (a 0-d bool
    Array; different shapes give False).

    Examples
    --------
    >>> bool(snp.array_equal(snp.array([1, 2]), snp.array([1, 2])))
    True
    >>> bool(snp.array_equal(snp.array([1, 2]), snp.array([[1, 2]])))
    False
    """
    a1, a2 = util.operand("array_equal", a1), util.operand("array_equal", a2)
    if util.shape_of(a1) != util.shape_of(a2):
        return lax.full((), False, dtypes.bool_)
    a1, a2 = util.promote_dtypes(a1, a2)
    eq = lax.eq(a1, a2)
    if equal_nan and dtypes.is_inexact(util.dtype_of(a1)):
        eq = lax.bitwise_or(eq, lax.bitwise_and(ufuncs.isnan(a1), ufuncs.isnan(a2)))
    return reductions.all(eq)


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> Any:
    """True if the inputs broadcast together and are equal elementwise.

    Examples
    --------
    >>> bool(snp.array_equiv(snp.array([1, 2]), snp.array([[1, 2], [1, 2]])))
    True
    """
    a1, a2 = util.operand("array_equiv", a1), util.operand("array_equiv", a2)
    try:
        util._broadcast_shapes(util.shape_of(a1), util.shape_of(a2))
    except ValueError:
        return lax.full((), False, dtypes.bool_)
    return reductions.all(ufuncs.equal(a1, a2))


def iscomplex(x: ArrayLike) -> Any:
    """Elementwise: True where the imaginary part is nonzero.

    Examples
    --------
    >>> snp.iscomplex(snp.array([1 + 1j, 2 + 0j]))
    Array([ True, False], dtype=bool)
    """
    x = util.operand("iscomplex", x)
    if not dtypes.is_complex(util.dtype_of(x)):
        return lax.full(util.shape_of(x), False, dtypes.bool_)
    im = lax.imag(x)
    return lax.ne(im, lax.full_like(im, 0))


def isreal(x: ArrayLike) -> Any:
    """Elementwise: True where the imaginary part is zero (always, for real
    dtypes).

    Examples
    --------
    >>> snp.isreal(snp.array([1 + 1j, 2 + 0j]))
    Array([False,  True], dtype=bool)
    """
    return ufuncs.logical_not(iscomplex(x))


def iscomplexobj(x: Any) -> bool:
    """True if ``x`` has a complex dtype (a static check of the type, not the
    values).

    Examples
    --------
    >>> snp.iscomplexobj(snp.array([1.0 + 0j]))
    True
    """
    if hasattr(x, "dtype"):
        dt = x.dtype
    else:
        try:
            dt = np.asarray(x).dtype
        except (TypeError, ValueError):
            return False
    try:
        return dtypes.is_complex(np.dtype(dt))
    except TypeError:
        return False


def isrealobj(x: Any) -> bool:
    """True unless ``x`` has a complex dtype.

    Examples
    --------
    >>> snp.isrealobj(snp.array([1.0]))
    True
    """
    return not iscomplexobj(x)


def isscalar(element: Any) -> bool:
    """True for scalars (Python numbers, strings, NumPy scalars); False for
    arrays, including sciax's 0-d arrays (as for NumPy's 0-d arrays).

    Examples
    --------
    >>> snp.isscalar(3.0), snp.isscalar(snp.array(3.0))
    (True, False)
    """
    if hasattr(element, "aval"):
        return False
    return bool(np.isscalar(element)) or isinstance(element, numbers.Number)


def isneginf(x: ArrayLike, out: None = None) -> Any:
    """Elementwise: True at negative infinity.

    Examples
    --------
    >>> snp.isneginf(snp.array([-snp.inf, 0.0, snp.inf]))
    Array([ True, False, False], dtype=bool)
    """
    return _isinf_sign("isneginf", x, out, -np.inf)


def isposinf(x: ArrayLike, out: None = None) -> Any:
    """Elementwise: True at positive infinity.

    Examples
    --------
    >>> snp.isposinf(snp.array([-snp.inf, 0.0, snp.inf]))
    Array([False, False,  True], dtype=bool)
    """
    return _isinf_sign("isposinf", x, out, np.inf)


def _isinf_sign(name: str, x: Any, out: Any, value: float) -> Any:
    if out is not None:
        raise NotImplementedError(f"{name}: the out argument is not supported")
    x = util.operand(name, x)
    if dtypes.is_complex(util.dtype_of(x)):
        raise TypeError(f"{name}: this operation is not supported for complex values "
                        "because it would be ambiguous")
    if not dtypes.is_inexact(util.dtype_of(x)):
        return lax.full(util.shape_of(x), False, dtypes.bool_)
    return lax.eq(x, lax.full_like(x, value))


def nan_to_num(x: ArrayLike, copy: bool = True, nan: ArrayLike = 0.0,
               posinf: ArrayLike = None, neginf: ArrayLike = None) -> Any:
    """``x`` with NaN replaced by ``nan`` and infinities by ``posinf`` /
    ``neginf`` (default: the largest / most negative finite value); for
    complex input, real and imaginary parts separately.

    Examples
    --------
    >>> snp.nan_to_num(snp.array([snp.nan, snp.inf, -snp.inf, 1.0]), posinf=9.0)
    Array([ 0.00000000e+000,  9.00000000e+000, -1.79769313e+308,  1.00000000e+000],
          dtype=float64)
    """
    x = util.operand("nan_to_num", x)
    dt = util.dtype_of(x)
    if not dtypes.is_inexact(dt):
        return x
    if dtypes.is_complex(dt):
        re = nan_to_num(lax.real(x), copy, nan, posinf, neginf)
        im = nan_to_num(lax.imag(x), copy, nan, posinf, neginf)
        return lax.complex(re, im)
    info = dtypes.finfo(dt)
    big = float(info.max) if posinf is None else posinf
    small = float(info.min) if neginf is None else neginf

    def fill(v: Any) -> Any:
        v = util.cast(util.operand("nan_to_num", v), dt)
        return util.broadcast_to(v, util.shape_of(x), "nan_to_num")

    x = lax.select(ufuncs.isnan(x), fill(nan), x)
    x = lax.select(lax.eq(x, lax.full_like(x, np.inf)), fill(big), x)
    return lax.select(lax.eq(x, lax.full_like(x, -np.inf)), fill(small), x)


def real_if_close(a: ArrayLike, tol: float = 100) -> Any:
    """The real part of complex ``a`` if every imaginary part is within
    ``tol`` machine epsilons of zero (``tol > 1``; an absolute tolerance
    otherwise), else ``a`` unchanged.

    The result dtype depends on the values, so ``a`` must be concrete (not
    traced under jit/vmap/grad); use :func:`sciax.numpy.real` there.

    Examples
    --------
    >>> snp.real_if_close(snp.array([2.1 + 4e-14j, 5.2 + 3e-15j]), tol=1000)
    Array([2.1, 5.2], dtype=float64)
    """
    a = util.operand("real_if_close", a)
    if not dtypes.is_complex(util.dtype_of(a)):
        return a
    if isinstance(a, Tracer):
        raise TypeError("real_if_close: whether the result is real depends on the "
                        "values of its input, which are traced here (inside "
                        "jit/vmap/grad); call sciax.numpy.real explicitly instead")
    if tol > 1:
        tol = float(dtypes.finfo(util.dtype_of(a)).eps) * tol
    if np.all(np.abs(np.imag(np.asarray(a))) < tol):
        return lax.real(a)
    return a
