"""Elementwise functions with NumPy semantics (broadcasting, NEP 50 promotion).

Every function here checks and promotes its arguments through
:mod:`sciax._src.numpy.util` and then calls strict lax primitives.  Functions
that NumPy computes in floating point (``sin``, ``divide``, ...) raise integer
and bool arguments to the default float dtype.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.custom_derivatives import custom_jvp
from sciax._src.numpy import util

ArrayLike = Any


def _dt(x: Any) -> np.dtype:
    return get_aval(x).dtype


def _is_bool(x: Any) -> bool:
    return _dt(x) == dtypes.bool_


def _zeros(x: Any) -> Any:
    return lax.full_like(x, 0)


def _ones(x: Any) -> Any:
    return lax.full_like(x, 1)


def _scalar_like(x: Any, value: Any) -> Any:
    """``value`` broadcast to ``x``'s shape and dtype (weak if ``x`` is)."""
    return lax.full_like(x, value)


def _unary_inexact(name: str, op: Callable[[Any], Any], doc: str,
                   real_only: bool = False) -> Callable[[ArrayLike], Any]:
    def fn(x: ArrayLike, /) -> Any:
        util.check_arraylike(name, x)
        (x,) = util.promote_args_inexact(name, x)
        if real_only and dtypes.is_complex(_dt(x)):
            raise TypeError(f"{name} is not supported for complex dtype {_dt(x)}")
        return op(x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def _doc(np_name: str, extra: str = "") -> str:
    return (f"Elementwise :func:`numpy.{np_name}` (integers are computed in the "
            f"default float dtype).{extra}")


# --- arithmetic --------------------------------------------------------------------

def add(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Elementwise sum, with NumPy broadcasting and promotion (``or`` for bools).

    Examples
    --------
    >>> snp.add(snp.ones(3, dtype=snp.float32), 2.0)
    Array([3., 3., 3.], dtype=float32)
    """
    x1, x2 = util.promote_args("add", x1, x2)
    return lax.bitwise_or(x1, x2) if _is_bool(x1) else lax.add(x1, x2)


def subtract(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Elementwise difference (bools raise TypeError, as in NumPy).

    Examples
    --------
    >>> snp.subtract(snp.arange(3), 1)
    Array([-1,  0,  1], dtype=int64)
    """
    x1, x2 = util.promote_args("subtract", x1, x2)
    if _is_bool(x1):
        raise TypeError("subtract is not supported for bool arguments; use "
                        "logical_xor or bitwise_xor instead")
    return lax.sub(x1, x2)


def multiply(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Elementwise product (``and`` for bools).

    Examples
    --------
    >>> snp.multiply(snp.arange(3), 2)
    Array([0, 2, 4], dtype=int64)
    """
    x1, x2 = util.promote_args("multiply", x1, x2)
    return lax.bitwise_and(x1, x2) if _is_bool(x1) else lax.mul(x1, x2)


def divide(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """True division; integers are divided in the default float dtype.

    Examples
    --------
    >>> snp.divide(snp.arange(3), 2)
    Array([0. , 0.5, 1. ], dtype=float64)
    """
    x1, x2 = util.promote_args_inexact("divide", x1, x2)
    return lax.div(x1, x2)


true_divide = divide


def _float_divmod(x1: Any, x2: Any) -> tuple[Any, Any]:
    # NumPy's npy_divmod: floor((x1 - fmod(x1, x2)) / x2), corrected so that the
    # remainder takes the divisor's sign.
    mod = lax.rem(x1, x2)
    div = lax.div(lax.sub(x1, mod), x2)
    zero = _zeros(mod)
    fix = lax.bitwise_and(lax.ne(mod, zero), lax.ne(lax.lt(x2, zero), lax.lt(mod, zero)))
    mod = lax.select(fix, lax.add(mod, x2), mod)
    div = lax.select(fix, lax.sub(div, _ones(div)), div)
    # the quotient of exact multiples can land a hair off an integer
    floordiv = lax.floor(div)
    floordiv = lax.select(lax.gt(lax.sub(div, floordiv), _scalar_like(div, 0.5)),
                          lax.add(floordiv, _ones(div)), floordiv)
    # x2 == 0: NumPy gives x1 / x2 (inf or nan) for the quotient
    floordiv = lax.select(lax.eq(x2, zero), lax.div(x1, x2), floordiv)
    return floordiv, mod


def _int_divmod(x1: Any, x2: Any) -> tuple[Any, Any]:
    quot = lax.div(x1, x2)
    mod = lax.rem(x1, x2)
    if dtypes.issubdtype(_dt(x1), np.signedinteger):
        zero = _zeros(mod)
        fix = lax.bitwise_and(lax.ne(mod, zero),
                              lax.ne(lax.lt(x2, zero), lax.lt(mod, zero)))
        quot = lax.select(fix, lax.sub(quot, _ones(quot)), quot)
        mod = lax.select(fix, lax.add(mod, x2), mod)
    return quot, mod


def _divmod_args(name: str, x1: Any, x2: Any) -> tuple[Any, Any]:
    x1, x2 = util.promote_args_numeric(name, x1, x2)
    if dtypes.is_complex(_dt(x1)):
        raise TypeError(f"{name} is not supported for complex dtype {_dt(x1)}")
    return x1, x2


def floor_divide(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Division rounded toward minus infinity, as ``np.floor_divide`` (``//``).

    Examples
    --------
    >>> snp.floor_divide(snp.array([-7, 7]), 2)
    Array([-4,  3], dtype=int64)
    """
    x1, x2 = _divmod_args("floor_divide", x1, x2)
    if dtypes.is_integer(_dt(x1)):
        return _int_divmod(x1, x2)[0]
    return _float_divmod(x1, x2)[0]


def remainder(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Remainder with the sign of the divisor, as ``np.remainder`` (``%``).

    Unlike :func:`sciax.lax.rem` (C's ``fmod``), ``remainder(-1, 3) == 2``.

    Examples
    --------
    >>> snp.remainder(snp.array([-1, 1]), 3)
    Array([2, 1], dtype=int64)
    """
    x1, x2 = _divmod_args("remainder", x1, x2)
    if dtypes.is_integer(_dt(x1)):
        return _int_divmod(x1, x2)[1]
    return _float_divmod(x1, x2)[1]


mod = remainder


def fmod(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """C's ``fmod``: the remainder with the sign of the dividend."""
    x1, x2 = _divmod_args("fmod", x1, x2)
    return lax.rem(x1, x2)


def divmod(x1: ArrayLike, x2: ArrayLike, /) -> tuple[Any, Any]:
    """``(floor_divide(x1, x2), remainder(x1, x2))``."""
    x1, x2 = _divmod_args("divmod", x1, x2)
    if dtypes.is_integer(_dt(x1)):
        return _int_divmod(x1, x2)
    return _float_divmod(x1, x2)


def _int_power(x: Any, y: Any) -> Any:
    # square-and-multiply over the bits of y (non-negative), unrolled over the
    # dtype's width so it needs no control flow
    nbits = _dt(y).itemsize * 8
    one = _ones(x)
    acc, base, zero = one, x, _zeros(y)
    for _ in range(nbits):
        bit = lax.ne(lax.bitwise_and(y, _ones(y)), zero)
        acc = lax.select(bit, lax.mul(acc, base), acc)
        base = lax.mul(base, base)
        y = lax.shift_right_logical(y, _ones(y))
    return acc


def power(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """``x1 ** x2`` elementwise.

    Integer powers of integers are computed exactly by repeated squaring; a
    Python ``int`` exponent uses :func:`sciax.lax.integer_pow` for any base.
    Negative integer powers of integers raise ValueError, as in NumPy.

    Examples
    --------
    >>> snp.power(snp.arange(4), 2)
    Array([0, 1, 4, 9], dtype=int64)
    >>> snp.power(2.0, snp.array([0.5, 2.0])).round(4)
    Array([1.4142, 4.    ], dtype=float64)
    """
    util.check_arraylike("power", x1, x2)
    if type(x2) is int and not isinstance(x1, list | tuple):
        (base,) = util.promote_args_numeric("power", x1)
        dt = util.result_dtype(base, x2)[0]
        if dtypes.is_integer(dt) and x2 < 0:
            raise ValueError("power: integers to negative integer powers are not "
                             "allowed")
        if builtins.abs(x2) <= 1 << 20:
            return lax.integer_pow(base, x2)
    x1, x2 = util.promote_args_numeric("power", x1, x2)
    if dtypes.is_integer(_dt(x1)):
        if dtypes.issubdtype(_dt(x2), np.signedinteger):
            # NumPy raises on negative exponents; data-dependent checks are not
            # possible under jit, so negative exponents give 0 (or +-1 for a
            # base of +-1) like a C loop would.
            neg = lax.lt(x2, _zeros(x2))
            x2_pos = lax.select(neg, _zeros(x2), x2)
            out = _int_power(x1, x2_pos)
            one = _ones(x1)
            inv = lax.select(lax.eq(lax.abs(x1), one), _int_power(x1, lax.abs(x2)),
                             _zeros(x1))
            return lax.select(neg, inv, out)
        return _int_power(x1, x2)
    return lax.pow(x1, x2)


def float_power(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """``x1 ** x2`` computed in float64 (or complex128)."""
    x1, x2 = util.promote_args_inexact("float_power", x1, x2)
    dt = dtypes.canonicalize_dtype(
        dtypes.complex128 if dtypes.is_complex(_dt(x1)) else dtypes.float64)
    return lax.pow(util.cast(x1, dt), util.cast(x2, dt))


def negative(x: ArrayLike, /) -> Any:
    """``-x`` elementwise (bools raise TypeError, as in NumPy)."""
    (x,) = util.promote_args("negative", x)
    if _is_bool(x):
        raise TypeError("negative is not supported for bool arguments; use "
                        "logical_not or ~ instead")
    return lax.neg(x)


def positive(x: ArrayLike, /) -> Any:
    """``+x`` elementwise (a copy of ``x``)."""
    (x,) = util.promote_args("positive", x)
    return x


def absolute(x: ArrayLike, /) -> Any:
    """Absolute value; the modulus (real dtype) for complex input.

    Examples
    --------
    >>> snp.absolute(snp.array([-1.5, 2.0]))
    Array([1.5, 2. ], dtype=float64)
    """
    (x,) = util.promote_args("absolute", x)
    dt = _dt(x)
    if dt == dtypes.bool_ or dtypes.issubdtype(dt, np.unsignedinteger):
        return x
    return lax.abs(x)


abs = absolute


def fabs(x: ArrayLike, /) -> Any:
    """Absolute value of real numbers, as float."""
    (x,) = util.promote_args_inexact("fabs", x)
    util.check_dtype_kind("fabs", x, "f", "a real dtype")
    return lax.abs(x)


def sign(x: ArrayLike, /) -> Any:
    """-1, 0 or 1 by the sign of ``x`` (``x / |x|`` for complex, as NumPy 2)."""
    (x,) = util.promote_args("sign", x)
    if _is_bool(x):
        raise TypeError("sign is not supported for bool arguments")
    return lax.sign(x)


def _int_identity(name: str, op: Callable[[Any], Any]) -> Callable[[ArrayLike], Any]:
    def fn(x: ArrayLike, /) -> Any:
        (x,) = util.promote_args(name, x)
        dt = _dt(x)
        if dtypes.is_complex(dt):
            raise TypeError(f"{name} is not supported for complex dtype {dt}")
        if not dtypes.is_inexact(dt):
            return x  # NumPy 2 keeps integer dtypes for floor/ceil/trunc
        return op(x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"Elementwise :func:`numpy.{name}`; integer and bool input is "
                  "returned unchanged.")
    return fn


def _trunc(x: Any) -> Any:
    return lax.select(lax.lt(x, _zeros(x)), lax.ceil(x), lax.floor(x))


floor = _int_identity("floor", lax.floor)
ceil = _int_identity("ceil", lax.ceil)
trunc = _int_identity("trunc", _trunc)
fix = _int_identity("fix", _trunc)


def _round_float(x: Any, decimals: int) -> Any:
    if decimals == 0:
        return lax.round(x, lax.ROUND_TO_NEAREST_EVEN)
    factor = _scalar_like(x, 10.0 ** builtins.abs(decimals))
    if decimals > 0:
        return lax.div(lax.round(lax.mul(x, factor), lax.ROUND_TO_NEAREST_EVEN), factor)
    return lax.mul(lax.round(lax.div(x, factor), lax.ROUND_TO_NEAREST_EVEN), factor)


def round(a: ArrayLike, decimals: int = 0, out: None = None) -> Any:
    """Round to ``decimals`` decimal places, ties to even (as ``np.round``).

    Examples
    --------
    >>> snp.round(snp.array([0.5, 1.5, 2.675]), 2)
    Array([0.5 , 1.5 , 2.68], dtype=float64)
    >>> snp.round(snp.array([0.5, 1.5, 2.5]))
    Array([0., 2., 2.], dtype=float64)
    """
    if out is not None:
        raise NotImplementedError("round: the out argument is not supported (arrays "
                                  "are immutable)")
    decimals = util.concrete_int(decimals, "round: decimals")
    (a,) = util.promote_args("round", a)
    dt = _dt(a)
    if dtypes.is_complex(dt):
        return lax.complex(_round_float(lax.real(a), decimals),
                           _round_float(lax.imag(a), decimals))
    if dtypes.is_inexact(dt):
        return _round_float(a, decimals)
    if dt == dtypes.bool_ or decimals >= 0:
        return a
    # integers to negative decimals: round half to even on exact integers
    factor = util.cast(10 ** -decimals, dt)
    factor = lax.broadcast_in_dim(factor, get_aval(a).shape, ())
    q, r = _int_divmod(a, factor)
    twice = lax.add(r, r)
    up = lax.bitwise_or(lax.gt(twice, factor), lax.bitwise_and(
        lax.eq(twice, factor), lax.ne(lax.bitwise_and(q, _ones(q)), _zeros(q))))
    q = lax.select(up, lax.add(q, _ones(q)), q)
    return lax.mul(q, factor)


around = round


def rint(x: ArrayLike, /) -> Any:
    """Round to the nearest integer, ties to even; integers become floats."""
    (x,) = util.promote_args_inexact("rint", x)
    if dtypes.is_complex(_dt(x)):
        return round(x)
    return lax.round(x, lax.ROUND_TO_NEAREST_EVEN)


# --- exponents, logarithms, roots ------------------------------------------------------

def _log_base(base: float) -> Callable[[Any], Any]:
    def op(x: Any) -> Any:
        return lax.div(lax.log(x), _scalar_like(x, math.log(base)))
    return op


exp = _unary_inexact("exp", lax.exp, _doc("exp"))
exp2 = _unary_inexact("exp2", lax.exp2, _doc("exp2"))
expm1 = _unary_inexact("expm1", lax.expm1, _doc("expm1"))
log = _unary_inexact("log", lax.log, _doc("log"))
log2 = _unary_inexact("log2", _log_base(2.0), _doc("log2"))
log10 = _unary_inexact("log10", _log_base(10.0), _doc("log10"))
log1p = _unary_inexact("log1p", lax.log1p, _doc("log1p"))
sqrt = _unary_inexact("sqrt", lax.sqrt, _doc("sqrt", """

    Examples
    --------
    >>> snp.sqrt(snp.array([1, 4, 9]))
    Array([1., 2., 3.], dtype=float64)
"""))
cbrt = _unary_inexact("cbrt", lax.cbrt, _doc("cbrt"), real_only=True)
sin = _unary_inexact("sin", lax.sin, _doc("sin"))
cos = _unary_inexact("cos", lax.cos, _doc("cos"))
tan = _unary_inexact("tan", lax.tan, _doc("tan"))
arcsin = _unary_inexact("arcsin", lax.asin, _doc("arcsin"))
arccos = _unary_inexact("arccos", lax.acos, _doc("arccos"))
arctan = _unary_inexact("arctan", lax.atan, _doc("arctan"))
sinh = _unary_inexact("sinh", lax.sinh, _doc("sinh"))
cosh = _unary_inexact("cosh", lax.cosh, _doc("cosh"))
tanh = _unary_inexact("tanh", lax.tanh, _doc("tanh"))
arcsinh = _unary_inexact("arcsinh", lax.asinh, _doc("arcsinh"))
arccosh = _unary_inexact("arccosh", lax.acosh, _doc("arccosh"))
arctanh = _unary_inexact("arctanh", lax.atanh, _doc("arctanh"))
asin, acos, atan = arcsin, arccos, arctan
asinh, acosh, atanh = arcsinh, arccosh, arctanh

deg2rad = _unary_inexact(
    "deg2rad", lambda x: lax.mul(x, _scalar_like(x, math.pi / 180)), _doc("deg2rad"),
    real_only=True)
rad2deg = _unary_inexact(
    "rad2deg", lambda x: lax.mul(x, _scalar_like(x, 180 / math.pi)), _doc("rad2deg"),
    real_only=True)
radians, degrees = deg2rad, rad2deg


def square(x: ArrayLike, /) -> Any:
    """``x * x`` elementwise (keeps integer dtypes)."""
    (x,) = util.promote_args_numeric("square", x)
    return lax.integer_pow(x, 2)


def reciprocal(x: ArrayLike, /) -> Any:
    """``1 / x`` elementwise, computed in floating point.

    Notes
    -----
    Differences from NumPy: integer input gives a float result (NumPy's integer
    reciprocal truncates to 0 for ``|x| > 1``).
    """
    (x,) = util.promote_args_inexact("reciprocal", x)
    return lax.integer_pow(x, -1)


def arctan2(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Quadrant-aware ``arctan(x1 / x2)``."""
    x1, x2 = util.promote_args_inexact("arctan2", x1, x2)
    util.check_dtype_kind("arctan2", x1, "f", "a real dtype")
    return lax.atan2(x1, x2)


atan2 = arctan2


def hypot(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """``sqrt(x1**2 + x2**2)`` without undue overflow or underflow.

    Notes
    -----
    The derivative is ``(x1 dx1 + x2 dx2) / hypot``, smooth wherever
    ``hypot > 0`` (also where ``|x1| == |x2|``); at the origin, where hypot is
    not differentiable, it is 0 (a subgradient).
    """
    x1, x2 = util.promote_args_inexact("hypot", x1, x2)
    util.check_dtype_kind("hypot", x1, "f", "a real dtype")
    return _hypot(x1, x2)


def _hypot_value(x1: Any, x2: Any) -> Any:
    a, b = lax.abs(x1), lax.abs(x2)
    hi, lo = lax.max(a, b), lax.min(a, b)
    zero = _zeros(hi)
    safe_hi = lax.select(lax.eq(hi, zero), _ones(hi), hi)
    ratio = lax.div(lo, safe_hi)
    out = lax.mul(hi, lax.sqrt(lax.add(_ones(hi), lax.mul(ratio, ratio))))
    inf = _scalar_like(hi, np.inf)
    # hypot(inf, nan) is inf in C99 and NumPy
    return lax.select(lax.eq(hi, inf), inf, lax.select(lax.eq(hi, zero), zero, out))


# The max/min inside the stable formula would give the derivative of a
# different (piecewise) function at |x1| == |x2|: its second derivative is 0
# there.  The rule below differentiates sqrt(x1^2 + x2^2) itself.
_hypot = custom_jvp(_hypot_value)


def _hypot_part(x: Any, out: Any) -> Any:
    """``x / out`` (the partial derivative), 0 at the origin, sign(x) at inf."""
    zero, inf = _zeros(out), _scalar_like(out, np.inf)
    bad = lax.bitwise_or(lax.eq(out, zero), lax.eq(out, inf))
    finite = lax.div(x, lax.select(bad, _ones(out), out))
    at_inf = lax.select(lax.eq(lax.abs(x), inf), lax.sign(x), zero)
    return lax.select(lax.eq(out, inf), at_inf, lax.select(bad, zero, finite))


@_hypot.defjvp
def _hypot_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (x1, x2), (t1, t2) = primals, tangents
    out = _hypot(x1, x2)
    return out, lax.add(lax.mul(t1, _hypot_part(x1, out)),
                        lax.mul(t2, _hypot_part(x2, out)))


def logaddexp(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """``log(exp(x1) + exp(x2))`` computed stably.

    Notes
    -----
    The derivative is ``(sigmoid(x1 - x2), sigmoid(x2 - x1))``, so derivatives
    of every order are right at the tie ``x1 == x2`` (the second derivative of
    ``logaddexp(0, z)`` at 0 is 1/4); the max/abs in the stable formula would
    give 0 there.

    Examples
    --------
    >>> float(snp.logaddexp(1000.0, 1000.0))
    1000.6931471805599
    >>> float(sciax.grad(sciax.grad(lambda z: snp.logaddexp(0.0, z)))(0.0))
    0.25
    """
    x1, x2 = util.promote_args_inexact("logaddexp", x1, x2)
    util.check_dtype_kind("logaddexp", x1, "f", "a real dtype")
    return _logaddexp(x1, x2)


def _logaddexp_value(x1: Any, x2: Any) -> Any:
    amax = lax.max(x1, x2)
    delta = lax.sub(x1, x2)
    soft = lax.add(amax, lax.log1p(lax.exp(lax.neg(lax.abs(delta)))))
    # delta is nan for equal infinities and for nan input: x1 + x2 is right for both
    return lax.select(lax.ne(delta, delta), lax.add(x1, x2), soft)


_logaddexp = custom_jvp(_logaddexp_value)


@_logaddexp.defjvp
def _logaddexp_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (x1, x2), (t1, t2) = primals, tangents
    delta = lax.sub(x1, x2)
    # equal infinities (delta nan): split evenly, as the value x1 + x2 does
    delta = lax.select(lax.ne(delta, delta), _zeros(delta), delta)
    w1, w2 = lax.logistic(delta), lax.logistic(lax.neg(delta))
    return _logaddexp(x1, x2), lax.add(lax.mul(t1, w1), lax.mul(t2, w2))


def logaddexp2(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """``log2(2**x1 + 2**x2)`` computed stably (derivatives as
    :func:`logaddexp`)."""
    x1, x2 = util.promote_args_inexact("logaddexp2", x1, x2)
    util.check_dtype_kind("logaddexp2", x1, "f", "a real dtype")
    ln2 = _scalar_like(x1, math.log(2.0))
    return lax.div(_logaddexp(lax.mul(x1, ln2), lax.mul(x2, ln2)), ln2)


def copysign(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """``|x1|`` with the sign (bit) of ``x2``."""
    x1, x2 = util.promote_args_inexact("copysign", x1, x2)
    util.check_dtype_kind("copysign", x1, "f", "a real dtype")
    mag = lax.abs(x1)
    return lax.select(signbit(x2), lax.neg(mag), mag)


# --- comparisons, extrema ----------------------------------------------------------

def maximum(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Elementwise maximum; NaN propagates (see :func:`fmax`)."""
    x1, x2 = util.promote_args("maximum", x1, x2)
    return lax.max(x1, x2)


def minimum(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Elementwise minimum; NaN propagates (see :func:`fmin`)."""
    x1, x2 = util.promote_args("minimum", x1, x2)
    return lax.min(x1, x2)


def fmax(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Elementwise maximum that ignores NaN (unless both are NaN)."""
    x1, x2 = util.promote_args("fmax", x1, x2)
    out = lax.max(x1, x2)
    if dtypes.is_inexact(_dt(x1)):
        out = lax.select(isnan(x2), x1, lax.select(isnan(x1), x2, out))
    return out


def fmin(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Elementwise minimum that ignores NaN (unless both are NaN)."""
    x1, x2 = util.promote_args("fmin", x1, x2)
    out = lax.min(x1, x2)
    if dtypes.is_inexact(_dt(x1)):
        out = lax.select(isnan(x2), x1, lax.select(isnan(x1), x2, out))
    return out


def _comparison(name: str, op: Callable[[Any, Any], Any], sym: str
                ) -> Callable[[ArrayLike, ArrayLike], Any]:
    def fn(x1: ArrayLike, x2: ArrayLike, /) -> Any:
        x1, x2 = util.promote_args(name, x1, x2)
        if sym not in ("==", "!=") and dtypes.is_complex(_dt(x1)):
            raise TypeError(f"{name} ({sym}) is not supported for complex dtype "
                            f"{_dt(x1)}")
        return op(x1, x2)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``x1 {sym} x2`` elementwise, as a bool array."
    return fn


equal = _comparison("equal", lax.eq, "==")
not_equal = _comparison("not_equal", lax.ne, "!=")
less = _comparison("less", lax.lt, "<")
less_equal = _comparison("less_equal", lax.le, "<=")
greater = _comparison("greater", lax.gt, ">")
greater_equal = _comparison("greater_equal", lax.ge, ">=")


# --- logical and bitwise -----------------------------------------------------------

def _to_bool(x: Any) -> Any:
    return x if _is_bool(x) else lax.ne(x, _zeros(x))


def _logical(name: str, op: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    def fn(x1: ArrayLike, x2: ArrayLike, /) -> Any:
        x1, x2 = util.promote_args(name, x1, x2)
        return op(_to_bool(x1), _to_bool(x2))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise :func:`numpy.{name}` of the truth values (a bool array)."
    return fn


logical_and = _logical("logical_and", lax.bitwise_and)
logical_or = _logical("logical_or", lax.bitwise_or)
logical_xor = _logical("logical_xor", lax.bitwise_xor)


def logical_not(x: ArrayLike, /) -> Any:
    """Elementwise NOT of the truth values (a bool array)."""
    (x,) = util.promote_args("logical_not", x)
    return lax.bitwise_not(_to_bool(x))


def _bitwise(name: str, op: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    def fn(x1: ArrayLike, x2: ArrayLike, /) -> Any:
        x1, x2 = util.promote_args(name, x1, x2)
        util.check_dtype_kind(name, x1, "biu", "an integer or bool dtype")
        return op(x1, x2)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise :func:`numpy.{name}` of integers or bools."
    return fn


bitwise_and = _bitwise("bitwise_and", lax.bitwise_and)
bitwise_or = _bitwise("bitwise_or", lax.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", lax.bitwise_xor)


def _right_shift(x1: Any, x2: Any) -> Any:
    if dtypes.issubdtype(_dt(x1), np.signedinteger):
        return lax.shift_right_arithmetic(x1, x2)
    return lax.shift_right_logical(x1, x2)


def _shift(name: str, op: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    def fn(x1: ArrayLike, x2: ArrayLike, /) -> Any:
        x1, x2 = util.promote_args(name, x1, x2)
        util.check_dtype_kind(name, x1, "iu", "an integer dtype")
        return op(x1, x2)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise :func:`numpy.{name}` of integers."
    return fn


left_shift = _shift("left_shift", lax.shift_left)
right_shift = _shift("right_shift", _right_shift)
bitwise_left_shift, bitwise_right_shift = left_shift, right_shift


def bitwise_not(x: ArrayLike, /) -> Any:
    """Elementwise bitwise NOT (``~``) of integers or bools."""
    (x,) = util.promote_args("bitwise_not", x)
    util.check_dtype_kind("bitwise_not", x, "biu", "an integer or bool dtype")
    return lax.bitwise_not(x)


invert = bitwise_invert = bitwise_not


# --- floating-point classification ---------------------------------------------------

def _false_like(x: Any) -> Any:
    return lax.full_like(x, False, dtypes.bool_)


def isnan(x: ArrayLike, /) -> Any:
    """True where ``x`` is NaN (for complex: either part)."""
    (x,) = util.promote_args("isnan", x)
    dt = _dt(x)
    if dtypes.is_complex(dt):
        return lax.bitwise_or(isnan(lax.real(x)), isnan(lax.imag(x)))
    if not dtypes.is_inexact(dt):
        return _false_like(x)
    return lax.ne(x, x)


def isinf(x: ArrayLike, /) -> Any:
    """True where ``x`` is +-inf (for complex: either part)."""
    (x,) = util.promote_args("isinf", x)
    dt = _dt(x)
    if dtypes.is_complex(dt):
        return lax.bitwise_or(isinf(lax.real(x)), isinf(lax.imag(x)))
    if not dtypes.is_inexact(dt):
        return _false_like(x)
    return lax.eq(lax.abs(x), _scalar_like(x, np.inf))


def isfinite(x: ArrayLike, /) -> Any:
    """True where ``x`` is neither inf nor NaN.

    Examples
    --------
    >>> snp.isfinite(snp.array([1.0, np.inf, np.nan]))
    Array([ True, False, False], dtype=bool)
    """
    (x,) = util.promote_args("isfinite", x)
    dt = _dt(x)
    if dtypes.is_complex(dt):
        return lax.bitwise_and(isfinite(lax.real(x)), isfinite(lax.imag(x)))
    if not dtypes.is_inexact(dt):
        return lax.full_like(x, True, dtypes.bool_)
    return lax.is_finite(x)


def signbit(x: ArrayLike, /) -> Any:
    """True where the sign bit is set (``-0.0`` included)."""
    (x,) = util.promote_args("signbit", x)
    dt = _dt(x)
    if dtypes.is_complex(dt):
        raise TypeError(f"signbit is not supported for complex dtype {dt}")
    if dt == dtypes.bool_ or dtypes.issubdtype(dt, np.unsignedinteger):
        return _false_like(x)
    if dtypes.is_integer(dt):
        return lax.lt(x, _zeros(x))
    int_dt = {2: dtypes.int16, 4: dtypes.int32, 8: dtypes.int64}[dt.itemsize]
    bits = lax.bitcast_convert_type(x, int_dt)
    return lax.lt(bits, lax.full_like(bits, 0))


# --- complex numbers -----------------------------------------------------------------

def real(val: ArrayLike, /) -> Any:
    """The real part (``val`` itself for real input)."""
    (val,) = util.promote_args("real", val)
    return lax.real(val) if dtypes.is_complex(_dt(val)) else val


def imag(val: ArrayLike, /) -> Any:
    """The imaginary part (zeros for real input)."""
    (val,) = util.promote_args("imag", val)
    return lax.imag(val) if dtypes.is_complex(_dt(val)) else _zeros(val)


def conjugate(x: ArrayLike, /) -> Any:
    """The complex conjugate (``x`` itself for real input)."""
    (x,) = util.promote_args("conjugate", x)
    return lax.conj(x) if dtypes.is_complex(_dt(x)) else x


conj = conjugate


def angle(z: ArrayLike, deg: bool = False) -> Any:
    """The argument of a complex number, in radians (degrees if ``deg``)."""
    (z,) = util.promote_args_inexact("angle", z)
    if dtypes.is_complex(_dt(z)):
        re, im = lax.real(z), lax.imag(z)
    else:
        re, im = z, _zeros(z)
    out = lax.atan2(im, re)
    return rad2deg(out) if deg else out


# --- selection ---------------------------------------------------------------------

def where(condition: ArrayLike, x: ArrayLike = None, y: ArrayLike = None, /) -> Any:
    """``x`` where ``condition`` holds, else ``y`` (all three broadcast).

    The one-argument form (``nonzero``) has a data-dependent shape and is not
    provided yet.

    Examples
    --------
    >>> x = snp.arange(4.0)
    >>> snp.where(x > 1, x, 0)
    Array([0., 0., 2., 3.], dtype=float64)
    """
    if x is None or y is None:
        if x is None and y is None:
            raise NotImplementedError(
                "where(condition) with one argument (nonzero) has a data-dependent "
                "shape and is not supported yet; pass x and y")
        raise ValueError("where: either both or neither of x and y must be given")
    util.check_arraylike("where", condition, x, y)
    condition = util.as_operand("where", condition)
    x, y = util.promote_dtypes(util.as_operand("where", x), util.as_operand("where", y))
    cond, x, y = util.promote_shapes("where", _to_bool(condition), x, y)
    return lax.select(cond, x, y)


def clip(a: ArrayLike, a_min: ArrayLike = None, a_max: ArrayLike = None, *,
         min: ArrayLike = None, max: ArrayLike = None) -> Any:
    """Limit ``a`` to ``[a_min, a_max]`` (either bound may be None).

    Examples
    --------
    >>> snp.clip(snp.arange(5), 1, 3)
    Array([1, 1, 2, 3, 3], dtype=int64)
    """
    lo = a_min if min is None else min
    hi = a_max if max is None else max
    if (a_min is not None and min is not None) or (a_max is not None and max is not None):
        raise ValueError("clip: pass each bound once (a_min/min, a_max/max)")
    util.check_arraylike("clip", a)
    if lo is not None:
        a = maximum(a, lo)
    if hi is not None:
        a = minimum(a, hi)
    if lo is None and hi is None:
        (a,) = util.promote_args("clip", a)
    return a
