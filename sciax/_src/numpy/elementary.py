"""Elementwise functions beyond the plain ufuncs: the Bessel function i0, sinc,
integer gcd/lcm and the float helpers (heaviside, ldexp, frexp, modf, spacing,
nextafter, bitwise_count), plus ``pow`` (NumPy 2's alias of power).

Everything is composed from lax primitives, so it works eagerly, under
``sciax.jit`` and ``vmap``, and differentiates where NumPy's function is
differentiable.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.custom_derivatives import custom_jvp
from sciax._src.numpy import reductions, ufuncs, util

ArrayLike = Any

__all__ = ["i0", "sinc", "gcd", "lcm", "heaviside", "ldexp", "frexp", "modf",
           "spacing", "nextafter", "bitwise_count", "pow"]


pow = ufuncs.power


# --- special functions ---------------------------------------------------------------

# Cephes' Chebyshev coefficients for exp(-x) I0(x) on [0, 8] and for
# exp(-x) sqrt(x) I0(x) on (8, inf); NumPy's i0 uses the same expansions.
_I0A = (-4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16,
        1.715391285555133e-15, -1.1685332877993451e-14, 7.676185498604936e-14,
        -4.856446783111929e-13, 2.95505266312964e-12, -1.726826291441556e-11,
        9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
        -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07,
        1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05,
        -5.754195010082104e-05, 0.00018850288509584165, -0.0005763755745385824,
        0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
        -0.02373741480589947, 0.04930528423967071, -0.09490109704804764,
        0.17162090152220877, -0.3046826723431984, 0.6767952744094761)
_I0B = (-7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17,
        3.461222867697461e-17, -2.8276239805165836e-16, -3.425485619677219e-16,
        1.7725601330565263e-15, 3.8116806693526224e-15, -9.554846698828307e-15,
        -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
        7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
        -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10,
        3.3962320257083865e-09, 2.266668990498178e-08, 2.0489185894690638e-07,
        2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
        0.8044904110141088)


def _chbevl(x: Any, coeffs: Sequence[float]) -> Any:
    """Clenshaw's recurrence for a Chebyshev series (Cephes' ``chbevl``)."""
    b0 = lax.full_like(x, coeffs[0])
    b1 = lax.full_like(x, 0)
    b2 = b1
    for c in coeffs[1:]:
        b2, b1 = b1, b0
        b0 = lax.add(lax.sub(lax.mul(x, b1), b2), lax.full_like(x, c))
    return lax.mul(lax.sub(b0, b2), lax.full_like(x, 0.5))


def i0(x: ArrayLike) -> Any:
    """The modified Bessel function of the first kind, order 0, elementwise.

    Real input only (as NumPy's); integers are computed in the default float.
    Differentiable (the derivative is that of the Chebyshev expansions, close
    to ``i1``).

    Examples
    --------
    >>> snp.i0(snp.array([0.0, 1.0]))
    Array([1.       , 1.26606588], dtype=float64)
    """
    util.check_arraylike("i0", x)
    (x,) = util.promote_args_inexact("i0", x)
    if dtypes.is_complex(util.dtype_of(x)):
        raise TypeError(f"i0 is not supported for complex values (dtype {util.dtype_of(x)})")
    x0 = x
    x = lax.abs(x)
    small = lax.le(x, lax.full_like(x, 8.0))
    # each branch sees a safe argument so neither produces inf/NaN (and NaN
    # gradients) where it is not selected
    xs = lax.select(small, x, lax.full_like(x, 8.0))
    xb = lax.select(small, lax.full_like(x, 16.0), x)
    a = lax.mul(lax.exp(xs), _chbevl(lax.sub(lax.mul(xs, lax.full_like(x, 0.5)),
                                             lax.full_like(x, 2.0)), _I0A))
    b = lax.div(lax.mul(lax.exp(xb), _chbevl(
        lax.sub(lax.div(lax.full_like(x, 32.0), xb), lax.full_like(x, 2.0)), _I0B)),
        lax.sqrt(xb))
    # the expansion is in |x|, whose derivative (sign) vanishes at 0 and would
    # make every second derivative there 0 instead of 1/2
    return lax.select(lax.eq(x0, lax.full_like(x0, 0)), _taylor_at_zero("i0", 0)(x0),
                      lax.select(small, a, b))


def sinc(x: ArrayLike, /) -> Any:
    """The normalised sinc function ``sin(pi x) / (pi x)`` (1 at 0).

    Notes
    -----
    Derivatives of every order are exact at 0 (the removable singularity):
    the k-th derivative there is ``(-1)**(k/2) pi**k / (k + 1)`` for even k
    and 0 for odd k.

    Examples
    --------
    >>> snp.sinc(snp.array([0.0, 0.5]))
    Array([1.        , 0.63661977], dtype=float64)
    >>> round(float(sciax.grad(sciax.grad(snp.sinc))(0.0)), 6)  # -pi**2 / 3
    -3.289868
    """
    util.check_arraylike("sinc", x)
    (x,) = util.promote_args_inexact("sinc", x)
    zero = lax.eq(x, lax.full_like(x, 0))
    # a safe denominator keeps the unselected branch (and its gradient) finite
    safe = lax.select(zero, lax.full_like(x, 1), x)
    pix = lax.mul(safe, lax.full_like(x, np.pi))
    return lax.select(zero, _taylor_at_zero("sinc", 0)(x), lax.div(lax.sin(pix), pix))


# k-th derivative at 0 of functions computed by a formula that fails there
_DERIVATIVES_AT_ZERO = {
    # sinc(x) = sum_m (-1)^m (pi x)^(2m) / (2m + 1)!
    "sinc": lambda k: 0.0 if k % 2 else (-1.0) ** (k // 2) * np.pi ** k / (k + 1),
    # i0(x) = sum_m (x / 2)^(2m) / (m!)^2
    "i0": lambda k: 0.0 if k % 2 else
    math.factorial(k) / (4.0 ** (k // 2) * math.factorial(k // 2) ** 2),
}


@functools.lru_cache(maxsize=None)
def _taylor_at_zero(name: str, k: int) -> Any:
    """A function of ``x`` whose value is the k-th derivative of ``name`` at 0
    and whose derivative is the (k+1)-th: selected where ``x == 0``, it makes
    every order of differentiation exact there (the Maclaurin coefficients)."""
    coef = _DERIVATIVES_AT_ZERO[name](k)

    def value(x: Any) -> Any:
        return lax.full_like(x, coef)

    fn = custom_jvp(value)

    @fn.defjvp
    def _jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
        (x,), (t,) = primals, tangents
        return value(x), lax.mul(t, _taylor_at_zero(name, k + 1)(x))

    return fn


# --- integers and float helpers -------------------------------------------------------

def _int_args(name: str, x1: Any, x2: Any) -> list[Any]:
    util.check_arraylike(name, x1, x2)
    x1, x2 = util.promote_args(name, x1, x2)
    if not dtypes.is_integer(util.dtype_of(x1)):
        raise TypeError(f"{name}: arguments must be integers, got dtype {util.dtype_of(x1)}")
    return [x1, x2]


def gcd(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """The greatest common divisor of ``|x1|`` and ``|x2|`` (integers),
    elementwise, by Euclid's algorithm in a while loop.

    Examples
    --------
    >>> snp.gcd(snp.array([12, 20, 0]), 8)
    Array([4, 4, 8], dtype=int64)
    """
    a, b = _int_args("gcd", x1, x2)
    a, b = lax.abs(a), lax.abs(b)
    zero = lax.full_like(b, 0)
    one = lax.full_like(b, 1)

    def cond(ab: Any) -> Any:
        return reductions.any(lax.ne(ab[1], lax.full_like(ab[1], 0)))

    def body(ab: Any) -> Any:
        a, b = ab
        done = lax.eq(b, zero)
        r = lax.rem(a, lax.select(done, one, b))
        return lax.select(done, a, b), lax.select(done, zero, r)

    return lax.while_loop(cond, body, (a, b))[0]


def lcm(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """The least common multiple of ``|x1|`` and ``|x2|`` (0 if either is 0).

    Examples
    --------
    >>> snp.lcm(snp.array([4, 6, 0]), 10)
    Array([20, 30,  0], dtype=int64)
    """
    a, b = _int_args("lcm", x1, x2)
    g = gcd(a, b)
    zero = lax.eq(g, lax.full_like(g, 0))
    q = lax.div(lax.abs(a), lax.select(zero, lax.full_like(g, 1), g))
    return lax.select(zero, lax.full_like(g, 0), lax.mul(q, lax.abs(b)))


def heaviside(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """The Heaviside step: 0 for ``x1 < 0``, ``x2`` at 0, 1 for ``x1 > 0``
    (NaN stays NaN).

    Examples
    --------
    >>> snp.heaviside(snp.array([-1.0, 0.0, 2.0]), 0.5)
    Array([0. , 0.5, 1. ], dtype=float64)
    """
    util.check_arraylike("heaviside", x1, x2)
    x1, x2 = util.promote_args_inexact("heaviside", x1, x2)
    if dtypes.is_complex(util.dtype_of(x1)):
        raise TypeError("heaviside is not supported for complex values")
    out = lax.select(lax.gt(x1, lax.full_like(x1, 0)), lax.full_like(x1, 1), x2)
    out = lax.select(lax.lt(x1, lax.full_like(x1, 0)), lax.full_like(x1, 0), out)
    return lax.select(ufuncs.isnan(x1), x1, out)


def ldexp(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """``x1 * 2**x2`` elementwise (``x2`` integer).

    Examples
    --------
    >>> snp.ldexp(snp.array([1.0, 3.0]), snp.array([3, -1]))
    Array([8. , 1.5], dtype=float64)
    """
    util.check_arraylike("ldexp", x1, x2)
    x1, x2 = util.operand("ldexp", x1), util.operand("ldexp", x2)
    if not dtypes.is_integer(util.dtype_of(x2)) and util.dtype_of(x2) != dtypes.bool_:
        raise TypeError(f"ldexp: the exponent x2 must be an integer array, got dtype "
                        f"{util.dtype_of(x2)}")
    if dtypes.is_complex(util.dtype_of(x1)):
        raise TypeError("ldexp is not supported for complex values")
    (x1,) = util.promote_dtypes_inexact(x1)
    x1, x2 = util.promote_shapes("ldexp", x1, x2)
    return _ldexp(x1, x2)


# float dtype -> (integer dtype of the same width, mantissa bits, exponent bias)
_FLOAT_LAYOUT = {np.dtype(np.float64): (dtypes.int64, 52, 1023),
                 np.dtype(np.float32): (dtypes.int32, 23, 127),
                 np.dtype(np.float16): (dtypes.int16, 10, 15),
                 np.dtype(dtypes.bfloat16): (dtypes.int16, 7, 127)}


def _pow2(k: Any, dt: np.dtype) -> Any:
    """``2.0**k`` exactly, for integer ``k`` in the normal exponent range,
    by writing the exponent bits (``exp2`` is only approximate on XLA)."""
    it, mant, bias = _FLOAT_LAYOUT[np.dtype(dt)]
    k = util.cast(k, it)
    bits = lax.shift_left(lax.add(k, lax.full_like(k, bias)), lax.full_like(k, mant))
    return lax.bitcast_convert_type(bits, dt)


def _ldexp(x: Any, e: Any) -> Any:
    dt = util.dtype_of(x)
    bias = _FLOAT_LAYOUT[np.dtype(dt)][2]
    # three exact power-of-two factors, each in the normal range, cover every
    # exponent whose result is neither 0 nor inf (subnormal mantissas times
    # 2**(2 * bias) included)
    step = bias - 1
    e = util.cast(e, dtypes.int32)
    e = lax.clamp(lax.full_like(e, -3 * step), e, lax.full_like(e, 3 * step))
    for _ in range(3):
        k = lax.clamp(lax.full_like(e, -step), e, lax.full_like(e, step))
        x = lax.mul(x, _pow2(k, dt))
        e = lax.sub(e, k)
    return x


def frexp(x: ArrayLike, /) -> tuple[Any, Any]:
    """Split ``x`` into mantissa (``0.5 <= |m| < 1``, or 0) and int32 exponent
    with ``x == m * 2**e``.

    Examples
    --------
    >>> m, e = snp.frexp(snp.array([8.0, 0.3, 0.0]))
    >>> m, e
    (Array([0.5, 0.6, 0. ], dtype=float64), Array([ 4, -1,  0], dtype=int32))
    """
    util.check_arraylike("frexp", x)
    (x,) = util.promote_args_inexact("frexp", x)
    dt = util.dtype_of(x)
    if dtypes.is_complex(dt):
        raise TypeError("frexp is not supported for complex values")
    special = lax.bitwise_or(lax.eq(x, lax.full_like(x, 0)),
                             lax.bitwise_not(lax.is_finite(x)))
    ax = lax.abs(lax.select(special, lax.full_like(x, 1), x))
    e = lax.add(lax.floor(ufuncs.log2(ax)), lax.full_like(x, 1))
    e = util.cast(e, dtypes.int32)
    m = _ldexp(x, lax.neg(e))
    # log2 may round to the neighbouring integer near powers of two: fix up
    am = lax.abs(m)
    big = lax.ge(am, lax.full_like(am, 1))
    m = lax.select(big, lax.mul(m, lax.full_like(m, 0.5)), m)
    e = lax.select(big, lax.add(e, lax.full_like(e, 1)), e)
    am = lax.abs(m)
    small = lax.lt(am, lax.full_like(am, 0.5))
    m = lax.select(small, lax.mul(m, lax.full_like(m, 2)), m)
    e = lax.select(small, lax.sub(e, lax.full_like(e, 1)), e)
    m = lax.select(special, x, m)
    e = lax.select(special, lax.full_like(e, 0), e)
    return m, e


def modf(x: ArrayLike, /, out: None = None) -> tuple[Any, Any]:
    """Fractional and integral parts of ``x``, both with ``x``'s sign.

    Examples
    --------
    >>> snp.modf(snp.array([2.5, -1.25]))
    (Array([ 0.5 , -0.25], dtype=float64), Array([ 2., -1.], dtype=float64))
    """
    if out is not None:
        raise NotImplementedError("modf: the out argument is not supported")
    util.check_arraylike("modf", x)
    (x,) = util.promote_args_inexact("modf", x)
    if dtypes.is_complex(util.dtype_of(x)):
        raise TypeError("modf is not supported for complex values")
    whole = lax.select(lax.lt(x, lax.full_like(x, 0)), lax.ceil(x), lax.floor(x))
    frac = lax.sub(x, whole)
    frac = lax.select(ufuncs.isinf(x), lax.full_like(x, 0), frac)
    return ufuncs.copysign(frac, x), whole


def nextafter(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """The next representable float after ``x1`` towards ``x2``.

    Examples
    --------
    >>> float(snp.nextafter(snp.float32(1.0), 2.0) - 1.0)
    1.1920928955078125e-07
    """
    util.check_arraylike("nextafter", x1, x2)
    x1, x2 = util.promote_args_inexact("nextafter", x1, x2)
    if dtypes.is_complex(util.dtype_of(x1)):
        raise TypeError("nextafter is not supported for complex values")
    return lax.nextafter(x1, x2)


def spacing(x: ArrayLike, /) -> Any:
    """The distance from ``x`` to the next float away from zero (negative for
    negative ``x``; NaN for infinities and NaN).

    XLA on CPU flushes subnormal numbers to zero, so ``spacing(0.0)`` is 0
    here (NumPy: the smallest subnormal); ``ldexp`` and ``frexp`` likewise
    treat subnormal values as 0.

    Examples
    --------
    >>> float(snp.spacing(snp.float32(1.0)))
    1.1920928955078125e-07
    """
    util.check_arraylike("spacing", x)
    (x,) = util.promote_args_inexact("spacing", x)
    if dtypes.is_complex(util.dtype_of(x)):
        raise TypeError("spacing is not supported for complex values")
    neg = ufuncs.signbit(x)
    target = lax.select(neg, lax.full_like(x, -np.inf), lax.full_like(x, np.inf))
    out = lax.sub(lax.nextafter(x, target), x)
    return lax.select(ufuncs.isinf(x), lax.full_like(x, np.nan), out)


def bitwise_count(x: ArrayLike, /) -> Any:
    """The number of 1 bits in ``|x|`` (integers), as uint8.

    Examples
    --------
    >>> snp.bitwise_count(snp.array([0, 7, -8]))
    Array([0, 3, 1], dtype=uint8)
    """
    x = util.operand("bitwise_count", x)
    dt = util.dtype_of(x)
    if dt == dtypes.bool_:
        x = util.cast(x, dtypes.uint8)
    elif not dtypes.is_integer(dt):
        raise TypeError(f"bitwise_count: only integer (and bool) input is supported, "
                        f"got dtype {dt}")
    if dtypes.issubdtype(util.dtype_of(x), np.signedinteger):
        x = lax.abs(x)
    return util.cast(lax.population_count(x), dtypes.uint8)
