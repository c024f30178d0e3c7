"""Mathematical functions beyond the plain ufuncs: i0, sinc, differences and
integrals (diff, ediff1d, gradient, trapezoid), cross, interp, unwrap,
closeness tests (isclose, allclose, array_equal, array_equiv), complex/real
predicates, nan_to_num, real_if_close, integer gcd/lcm and the float helpers
(heaviside, ldexp, frexp, modf, spacing, nextafter, bitwise_count).

Everything is composed from lax primitives, so it works eagerly, under
``sciax.jit`` and ``vmap``, and differentiates where NumPy's function is
differentiable.
"""

from __future__ import annotations

import builtins
import functools
import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.custom_derivatives import custom_jvp
from sciax._src.numpy import reductions, ufuncs, util

ArrayLike = Any

__all__ = ["i0", "sinc", "diff", "ediff1d", "gradient", "trapezoid", "cross", "interp",
           "unwrap", "isclose", "allclose", "array_equal", "array_equiv", "iscomplex",
           "isreal", "iscomplexobj", "isrealobj", "isscalar", "nan_to_num",
           "real_if_close", "gcd", "lcm", "heaviside", "ldexp", "frexp", "modf",
           "spacing", "nextafter", "isneginf", "isposinf", "bitwise_count", "pow"]

pow = ufuncs.power


def _operand(name: str, a: Any) -> Any:
    util.check_arraylike(name, a)
    a = util.as_operand(name, a)
    if dtypes.is_python_scalar(a):
        a = util.cast(a, dtypes.python_scalar_dtype(a))
    return a


def _dt(x: Any) -> np.dtype:
    return get_aval(x).dtype


def _shape(x: Any) -> tuple[int, ...]:
    return get_aval(x).shape


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
    if dtypes.is_complex(_dt(x)):
        raise TypeError(f"i0 is not supported for complex values (dtype {_dt(x)})")
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


# --- differences and integrals -------------------------------------------------------

def _slice_axis(x: Any, start: int, stop: int, axis: int) -> Any:
    return lax.slice_in_dim(x, start, stop, axis=axis)


def _as_axis_block(name: str, v: Any, shape: tuple[int, ...], axis: int,
                   dtype: np.dtype) -> Any:
    """``prepend``/``append`` as an array that concatenates along ``axis``: a
    scalar (or lower-rank value) is broadcast with that axis of length 1."""
    v = util.cast(_operand(name, v), dtype)
    if util.ndim(v) == 0:
        return lax.broadcast_in_dim(v, (*shape[:axis], 1, *shape[axis + 1:]), ())
    return v


def diff(a: ArrayLike, n: int = 1, axis: int = -1, prepend: ArrayLike = None,
         append: ArrayLike = None) -> Any:
    """The ``n``-th discrete difference along ``axis`` (``a[1:] - a[:-1]``,
    repeated; ``!=`` for booleans), after adding ``prepend``/``append``.

    Examples
    --------
    >>> snp.diff(snp.array([1, 4, 9, 16]))
    Array([3, 5, 7], dtype=int64)
    >>> snp.diff(snp.array([1.0, 4.0, 9.0]), n=2)
    Array([2.], dtype=float64)
    """
    a = _operand("diff", a)
    n = util.concrete_int(n, "diff: n")
    if n < 0:
        raise ValueError(f"diff: order must be non-negative but got {n}")
    if n == 0:
        return a
    nd = util.ndim(a)
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = util.canonicalize_axis(axis, nd)
    parts = []
    if prepend is not None:
        parts.append(_as_axis_block("diff", prepend, _shape(a), ax, _dt(a)))
    parts.append(a)
    if append is not None:
        parts.append(_as_axis_block("diff", append, _shape(a), ax, _dt(a)))
    if len(parts) > 1:
        from sciax._src.numpy.shape import concatenate

        a = concatenate(parts, axis=ax)
    is_bool = _dt(a) == dtypes.bool_
    for _ in range(n):
        m = _shape(a)[ax]
        if m == 0:
            break
        hi, lo = _slice_axis(a, 1, m, ax), _slice_axis(a, 0, m - 1, ax)
        a = lax.ne(hi, lo) if is_bool else lax.sub(hi, lo)
    return a


def ediff1d(ary: ArrayLike, to_end: ArrayLike = None,
            to_begin: ArrayLike = None) -> Any:
    """Differences of the flattened ``ary``, with ``to_begin``/``to_end``
    (flattened, cast to ``ary``'s dtype) added at the ends.

    Examples
    --------
    >>> snp.ediff1d(snp.array([1, 2, 4, 7]), to_begin=-99)
    Array([-99,   1,   2,   3], dtype=int64)
    """
    a = _operand("ediff1d", ary)
    a = lax.reshape(a, (get_aval(a).size,))
    dt = _dt(a)
    n = _shape(a)[0]
    d = lax.sub(_slice_axis(a, 1, n, 0), _slice_axis(a, 0, n - 1, 0)) if n else a
    if dt == dtypes.bool_ and n:
        d = lax.ne(_slice_axis(a, 1, n, 0), _slice_axis(a, 0, n - 1, 0))
    def block(v: Any) -> Any:
        v = _operand("ediff1d", v)
        if not np.can_cast(_dt(v), dt, "same_kind"):
            raise TypeError(f"ediff1d: dtype of to_begin/to_end ({_dt(v)}) must be "
                            f"compatible with the dtype of the input ({dt})")
        return lax.reshape(util.cast(v, dt), (get_aval(v).size,))

    parts = ([] if to_begin is None else [block(to_begin)]) + [d] + (
        [] if to_end is None else [block(to_end)])
    return lax.concatenate(parts, 0) if len(parts) > 1 else d


def _float_operand(name: str, a: Any) -> Any:
    a = _operand(name, a)
    (a,) = util.promote_dtypes_inexact(a)
    return a


def _along(v: Any, nd: int, axis: int) -> Any:
    """A 1-d ``v`` shaped to broadcast along ``axis`` of an ``nd``-d array."""
    shape = [1] * nd
    shape[axis] = _shape(v)[0]
    return lax.reshape(v, tuple(shape))


def gradient(f: ArrayLike, *varargs: ArrayLike, axis: Any = None,
             edge_order: int = 1) -> Any:
    """The gradient of sampled ``f`` by second-order central differences in
    the interior and one-sided differences of order ``edge_order`` (1 or 2)
    at the ends.

    ``varargs`` are the spacings: none (1.0 everywhere), one scalar for all
    axes, or one per axis, each a scalar or the 1-d coordinates along that
    axis.  Returns an array for one axis, else a tuple of arrays.

    Examples
    --------
    >>> snp.gradient(snp.array([1.0, 2.0, 4.0, 7.0]))
    Array([1. , 1.5, 2.5, 3. ], dtype=float64)
    >>> snp.gradient(snp.array([1.0, 2.0, 4.0]), snp.array([0.0, 1.0, 3.0]))
    Array([1., 1., 1.], dtype=float64)
    """
    f = _float_operand("gradient", f)
    nd = util.ndim(f)
    if nd == 0:
        raise ValueError("gradient: the input must have at least one dimension")
    axes = util.canonicalize_axes(axis, nd)
    if len(varargs) == 0:
        spacings: list[Any] = [1.0] * len(axes)
    elif len(varargs) == 1 and util.ndim(_operand("gradient", varargs[0])) == 0:
        spacings = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError(f"gradient: expected 0, 1 or {len(axes)} spacing arguments, "
                        "got "
                        f"{len(varargs)}")
    if edge_order not in (1, 2):
        raise ValueError(f"gradient: edge_order must be 1 or 2, got {edge_order!r}")
    out = []
    for ax, h in zip(axes, spacings):
        n = _shape(f)[ax]
        if n < edge_order + 1:
            raise ValueError(
                f"gradient: shape of array too small to calculate a numerical gradient "
                f"along axis {ax} (length {n}); at least (edge_order + 1) = "
                f"{edge_order + 1} elements are required")
        h = _operand("gradient", h)
        if util.ndim(h) == 0:
            out.append(_gradient_uniform(f, h, ax, n, edge_order))
        elif util.ndim(h) == 1:
            if _shape(h)[0] != n:
                raise ValueError(f"gradient: the coordinates for axis {ax} have length "
                                 f"{_shape(h)[0]}, which does not match the length of "
                                 f"the axis ({n})")
            out.append(_gradient_coords(f, h, ax, n, edge_order))
        else:
            raise ValueError(f"gradient: spacing must be a scalar or a 1-d array, got "
                             f"shape {_shape(h)}")
    return out[0] if len(out) == 1 else tuple(out)


def _gradient_uniform(f: Any, h: Any, ax: int, n: int, edge_order: int) -> Any:
    if not dtypes.is_inexact(_dt(h)):
        h = util.cast(h, _dt(f))
    f, h = util.promote_dtypes(f, h)

    def s(i: int, j: int) -> Any:
        return _slice_axis(f, i, j, ax)

    two_h = lax.mul(h, lax.full_like(h, 2))
    interior = lax.div(lax.sub(s(2, n), s(0, n - 2)), lax.broadcast_in_dim(
        two_h, _shape(s(2, n)), ())) if n > 2 else None
    if edge_order == 1:
        first = lax.sub(s(1, 2), s(0, 1))
        last = lax.sub(s(n - 1, n), s(n - 2, n - 1))
    else:
        def c(v: float) -> Any:
            return lax.full_like(s(0, 1), v)

        first = lax.add(lax.add(lax.mul(c(-1.5), s(0, 1)), lax.mul(c(2.0), s(1, 2))),
                        lax.mul(c(-0.5), s(2, 3)))
        last = lax.add(lax.add(lax.mul(c(0.5), s(n - 3, n - 2)),
                               lax.mul(c(-2.0), s(n - 2, n - 1))),
                       lax.mul(c(1.5), s(n - 1, n)))
    hb = lax.broadcast_in_dim(h, _shape(first), ())
    first, last = lax.div(first, hb), lax.div(last, hb)
    parts = [first] + ([interior] if interior is not None else []) + [last]
    return lax.concatenate(parts, ax)


def _gradient_coords(f: Any, x: Any, ax: int, n: int, edge_order: int) -> Any:
    (x,) = util.promote_dtypes_inexact(x)
    f, x = util.promote_dtypes(f, x)
    nd = util.ndim(f)
    dx = lax.sub(_slice_axis(x, 1, n, 0), _slice_axis(x, 0, n - 1, 0))

    def s(i: int, j: int) -> Any:
        return _slice_axis(f, i, j, ax)

    def at(v: Any, i: int) -> Any:
        return lax.reshape(_slice_axis(v, i, i + 1, 0), ())

    def comb(terms: Sequence[tuple[Any, Any]]) -> Any:
        out = None
        for coef, part in terms:
            if util.ndim(coef) == 0:
                coef = lax.broadcast_in_dim(coef, _shape(part), ())
            else:
                coef = lax.broadcast_in_dim(_along(coef, nd, ax), _shape(part),
                                            tuple(range(nd)))
            t = lax.mul(coef, part)
            out = t if out is None else lax.add(out, t)
        return out

    parts = []
    if edge_order == 1:
        parts.append(lax.div(lax.sub(s(1, 2), s(0, 1)),
                             lax.broadcast_in_dim(at(dx, 0), _shape(s(0, 1)), ())))
    else:
        d1, d2 = at(dx, 0), at(dx, 1)
        parts.append(comb([
            (ufuncs.negative(ufuncs.divide(ufuncs.add(ufuncs.multiply(2.0, d1), d2),
                                           ufuncs.multiply(d1, ufuncs.add(d1, d2)))),
             s(0, 1)),
            (ufuncs.divide(ufuncs.add(d1, d2), ufuncs.multiply(d1, d2)), s(1, 2)),
            (ufuncs.negative(ufuncs.divide(d1, ufuncs.multiply(
                d2, ufuncs.add(d1, d2)))), s(2, 3))]))
    if n > 2:
        d1, d2 = _slice_axis(dx, 0, n - 2, 0), _slice_axis(dx, 1, n - 1, 0)
        s12 = ufuncs.add(d1, d2)
        a = ufuncs.negative(ufuncs.divide(d2, ufuncs.multiply(d1, s12)))
        b = ufuncs.divide(ufuncs.subtract(d2, d1), ufuncs.multiply(d1, d2))
        c = ufuncs.divide(d1, ufuncs.multiply(d2, s12))
        parts.append(comb([(a, s(0, n - 2)), (b, s(1, n - 1)), (c, s(2, n))]))
    if edge_order == 1:
        last_dx = lax.broadcast_in_dim(at(dx, n - 2), _shape(s(0, 1)), ())
        parts.append(lax.div(lax.sub(s(n - 1, n), s(n - 2, n - 1)), last_dx))
    else:
        d1, d2 = at(dx, n - 3), at(dx, n - 2)
        s12 = ufuncs.add(d1, d2)
        parts.append(comb([
            (ufuncs.divide(d2, ufuncs.multiply(d1, s12)), s(n - 3, n - 2)),
            (ufuncs.negative(ufuncs.divide(s12, ufuncs.multiply(d1, d2))),
             s(n - 2, n - 1)),
            (ufuncs.divide(ufuncs.add(ufuncs.multiply(2.0, d2), d1),
                           ufuncs.multiply(d2, s12)), s(n - 1, n))]))
    return lax.concatenate(parts, ax)


def trapezoid(y: ArrayLike, x: ArrayLike = None, dx: ArrayLike = 1.0,
              axis: int = -1) -> Any:
    """The integral of sampled ``y`` along ``axis`` by the trapezoidal rule,
    at sample points ``x`` (1-d, or shaped like ``y``) or spacing ``dx``.

    Examples
    --------
    >>> snp.trapezoid(snp.array([1.0, 2.0, 3.0]))
    Array(4., dtype=float64)
    >>> snp.trapezoid(snp.array([1.0, 2.0, 3.0]), x=snp.array([0.0, 1.0, 3.0]))
    Array(6.5, dtype=float64)
    """
    y = _float_operand("trapezoid", y)
    nd = util.ndim(y)
    if nd == 0:
        raise ValueError("trapezoid: y must have at least one dimension")
    ax = util.canonicalize_axis(axis, nd)
    n = _shape(y)[ax]
    if x is None:
        d: Any = dx
    else:
        x = _float_operand("trapezoid", x)
        if util.ndim(x) == 1:
            if _shape(x)[0] != n:
                raise ValueError(f"trapezoid: x has length {_shape(x)[0]} but y has "
                                 f"{n} samples along axis {ax}")
            d = _along(diff(x), nd, ax)
        else:
            d = diff(x, axis=ax)
    if n == 0:
        return reductions.sum(y, axis=ax)
    mid = ufuncs.add(_slice_axis(y, 1, n, ax), _slice_axis(y, 0, n - 1, ax))
    return reductions.sum(ufuncs.multiply(ufuncs.multiply(d, mid), 0.5), axis=ax)


def cross(a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1,
          axisc: int = -1, axis: int | None = None) -> Any:
    """The cross product of 2- or 3-element vectors along ``axisa``/``axisb``
    (the result's vector axis is ``axisc``), broadcasting the other axes.

    Two 2-vectors give the scalar z component; a 2-vector and a 3-vector are
    crossed with the 2-vector's z taken as 0.

    Examples
    --------
    >>> snp.cross(snp.array([1.0, 0.0, 0.0]), snp.array([0.0, 1.0, 0.0]))
    Array([0., 0., 1.], dtype=float64)
    >>> snp.cross(snp.array([1, 2]), snp.array([3, 4]))
    Array(-2, dtype=int64)
    """
    from sciax._src.numpy.shape import moveaxis

    a, b = _operand("cross", a), _operand("cross", b)
    a, b = util.promote_dtypes(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    if util.ndim(a) == 0 or util.ndim(b) == 0:
        raise ValueError("cross: both inputs must be at least 1-d vectors, got shapes "
                         f"{_shape(a)} and {_shape(b)}")
    a = moveaxis(a, util.canonicalize_axis(axisa, util.ndim(a), "axisa"), -1)
    b = moveaxis(b, util.canonicalize_axis(axisb, util.ndim(b), "axisb"), -1)
    ka, kb = _shape(a)[-1], _shape(b)[-1]
    if ka not in (2, 3) or kb not in (2, 3):
        raise ValueError(f"cross: incompatible dimensions for cross product (dimension "
                         f"must be 2 or 3), got vectors of length {ka} and {kb}")
    comp_a = [lax.index_in_dim(a, k, util.ndim(a) - 1, False) for k in range(ka)]
    comp_b = [lax.index_in_dim(b, k, util.ndim(b) - 1, False) for k in range(kb)]
    mul, sub = ufuncs.multiply, ufuncs.subtract
    if ka == 2 and kb == 2:
        return sub(mul(comp_a[0], comp_b[1]), mul(comp_a[1], comp_b[0]))
    a0, a1 = comp_a[0], comp_a[1]
    b0, b1 = comp_b[0], comp_b[1]
    if ka == 2:
        b2 = comp_b[2]
        parts = [mul(a1, b2), ufuncs.negative(mul(a0, b2)),
                 sub(mul(a0, b1), mul(a1, b0))]
    elif kb == 2:
        a2 = comp_a[2]
        parts = [ufuncs.negative(mul(a2, b1)), mul(a2, b0),
                 sub(mul(a0, b1), mul(a1, b0))]
    else:
        a2, b2 = comp_a[2], comp_b[2]
        parts = [sub(mul(a1, b2), mul(a2, b1)), sub(mul(a2, b0), mul(a0, b2)),
                 sub(mul(a0, b1), mul(a1, b0))]
    parts = util.promote_shapes("cross", *parts)
    nd = util.ndim(parts[0])
    out = lax.concatenate([lax.expand_dims(p, (nd,)) for p in parts], nd)
    return moveaxis(out, -1, util.canonicalize_axis(axisc, nd + 1, "axisc"))


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: ArrayLike = None,
           right: ArrayLike = None, period: ArrayLike = None) -> Any:
    """Piecewise-linear interpolation of the points ``(xp, fp)`` at ``x``.

    ``xp`` must be increasing (not checked, as in NumPy) unless ``period`` is
    given.  Outside ``[xp[0], xp[-1]]`` the result is ``left``/``right``
    (default ``fp[0]``/``fp[-1]``).  Complex ``fp`` is supported.  The result
    dtype is the promoted inexact dtype (NumPy always returns float64 or
    complex128).  Differentiable in ``x``, ``xp`` and ``fp``.

    Examples
    --------
    >>> snp.interp(snp.array([0.5, 2.5, 9.0]), snp.array([0.0, 1.0, 3.0]),
    ...            snp.array([0.0, 10.0, 30.0]))
    Array([ 5., 25., 30.], dtype=float64)
    """
    from sciax._src.numpy.sorting import argsort, searchsorted

    x, xp, fp = (_operand("interp", v) for v in (x, xp, fp))
    if util.ndim(xp) != 1 or util.ndim(fp) != 1:
        raise ValueError(f"interp: xp and fp must be 1-d sequences, got shapes "
                         f"{_shape(xp)} and {_shape(fp)}")
    if _shape(xp)[0] != _shape(fp)[0]:
        raise ValueError("interp: fp and xp are not of the same length "
                         f"({_shape(fp)[0]} "
                         f"and {_shape(xp)[0]})")
    if _shape(xp)[0] == 0:
        raise ValueError("interp: array of sample points is empty")
    for v in (x, xp):
        if dtypes.is_complex(_dt(v)):
            raise TypeError("interp: x and xp must be real")
    x, xp = util.promote_dtypes_inexact(x, xp)
    (fp,) = util.promote_dtypes_inexact(fp)
    if period is not None:
        if not isinstance(period, Tracer) and np.all(np.asarray(period) == 0):
            raise ValueError("interp: period must be a non-zero value")
        period = ufuncs.abs(util.cast(_operand("interp", period), _dt(x)))
        x = ufuncs.remainder(x, period)
        xp = ufuncs.remainder(xp, period)
        order = argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = lax.concatenate([ufuncs.subtract(xp[-1:], period), xp,
                              ufuncs.add(xp[0:1], period)], 0)
        fp = lax.concatenate([fp[-1:], fp, fp[0:1]], 0)
        left = right = None
    n = _shape(xp)[0]
    xshape = _shape(x)
    if n == 1:
        f0 = lax.broadcast_in_dim(lax.reshape(fp, ()), xshape, ())
        x0 = lax.broadcast_in_dim(lax.reshape(xp, ()), xshape, ())
        out = f0
    else:
        i = searchsorted(xp, x, side="right")
        i = lax.clamp(lax.full_like(i, 1), i, lax.full_like(i, n - 1))
        im1 = lax.sub(i, lax.full_like(i, 1))
        xlo, xhi, flo, fhi = xp[im1], xp[i], fp[im1], fp[i]
        dxp = lax.sub(xhi, xlo)
        flat = lax.eq(dxp, lax.full_like(dxp, 0))
        slope = ufuncs.divide(ufuncs.subtract(fhi, flo),
                              lax.select(flat, lax.full_like(dxp, 1), dxp))
        out = ufuncs.add(ufuncs.multiply(slope, lax.sub(x, xlo)), flo)
        out = ufuncs.where(flat, flo, out)
        x0 = lax.broadcast_in_dim(lax.reshape(xp[0:1], ()), xshape, ())
        # exactly fp[-1] at the last sample, as NumPy
        xl = lax.broadcast_in_dim(lax.reshape(xp[-1:], ()), xshape, ())
        out = ufuncs.where(lax.eq(x, xl), lax.broadcast_in_dim(
            lax.reshape(fp[-1:], ()), xshape, ()), out)
    odt = _dt(out)
    lval = fp[0] if left is None else util.cast(_operand("interp", left), odt)
    rval = fp[-1] if right is None else util.cast(_operand("interp", right), odt)
    xn = lax.broadcast_in_dim(lax.reshape(xp[-1:], ()), xshape, ())
    out = ufuncs.where(lax.lt(x, x0), lval, out)
    out = ufuncs.where(lax.gt(x, xn), rval, out)
    return util.cast(out, odt)


def unwrap(p: ArrayLike, discont: ArrayLike = None, axis: int = -1, *,
           period: ArrayLike = 2 * np.pi) -> Any:
    """Unwrap ``p`` along ``axis`` by removing jumps larger than ``discont``
    (default ``period / 2``) in steps of ``period``.

    Examples
    --------
    >>> snp.unwrap(snp.array([0.0, 3.0, 6.5, 0.2]))
    Array([0.        , 3.        , 0.21681469, 0.2       ], dtype=float64)
    """
    p = _operand("unwrap", p)
    nd = util.ndim(p)
    if nd == 0:
        raise ValueError("unwrap: p must have at least one dimension")
    ax = util.canonicalize_axis(axis, nd)
    int_mode = dtypes.is_integer(_dt(p)) and isinstance(period, int | np.integer)
    if not int_mode:
        p = _float_operand("unwrap", p)
    dd = diff(p, axis=ax)
    if discont is None:
        discont = ufuncs.divide(period, 2) if not int_mode else period / 2
    if int_mode:
        high, rem = builtins.divmod(int(period), 2)
        ambiguous = rem == 0
    else:
        high = ufuncs.divide(period, 2)
        ambiguous = True
    low = ufuncs.negative(high)
    ddmod = ufuncs.add(ufuncs.remainder(ufuncs.subtract(dd, low), period), low)
    ddmod = util.cast(ddmod, _dt(dd))
    if ambiguous:
        fix = ufuncs.logical_and(ufuncs.equal(ddmod, low), ufuncs.greater(dd, 0))
        ddmod = ufuncs.where(fix, util.cast(_operand("unwrap", high), _dt(dd)), ddmod)
    correct = ufuncs.subtract(ddmod, dd)
    correct = ufuncs.where(ufuncs.less(ufuncs.abs(dd), discont), 0, correct)
    correct = util.cast(correct, _dt(p))
    n = _shape(p)[ax]
    if n == 0:
        return p
    csum = lax.cumsum(correct, ax)
    head = _slice_axis(p, 0, 1, ax)
    return lax.concatenate([head, lax.add(_slice_axis(p, 1, n, ax), csum)], ax)


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
    dt = _dt(a)
    rdt = dtypes.finfo(dt).dtype if dtypes.is_complex(dt) else dt
    rtol = util.cast(_operand("isclose", rtol), rdt)
    atol = util.cast(_operand("isclose", atol), rdt)
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
    a1, a2 = _operand("array_equal", a1), _operand("array_equal", a2)
    if _shape(a1) != _shape(a2):
        return lax.full((), False, dtypes.bool_)
    a1, a2 = util.promote_dtypes(a1, a2)
    eq = lax.eq(a1, a2)
    if equal_nan and dtypes.is_inexact(_dt(a1)):
        eq = lax.bitwise_or(eq, lax.bitwise_and(ufuncs.isnan(a1), ufuncs.isnan(a2)))
    return reductions.all(eq)


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> Any:
    """True if the inputs broadcast together and are equal elementwise.

    Examples
    --------
    >>> bool(snp.array_equiv(snp.array([1, 2]), snp.array([[1, 2], [1, 2]])))
    True
    """
    a1, a2 = _operand("array_equiv", a1), _operand("array_equiv", a2)
    try:
        util._broadcast_shapes(_shape(a1), _shape(a2))
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
    x = _operand("iscomplex", x)
    if not dtypes.is_complex(_dt(x)):
        return lax.full(_shape(x), False, dtypes.bool_)
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
    x = _operand(name, x)
    if dtypes.is_complex(_dt(x)):
        raise TypeError(f"{name}: this operation is not supported for complex values "
                        "because it would be ambiguous")
    if not dtypes.is_inexact(_dt(x)):
        return lax.full(_shape(x), False, dtypes.bool_)
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
    x = _operand("nan_to_num", x)
    dt = _dt(x)
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
        return util.broadcast_to(util.cast(_operand("nan_to_num", v), dt), _shape(x),
                                 "nan_to_num")

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
    a = _operand("real_if_close", a)
    if not dtypes.is_complex(_dt(a)):
        return a
    if isinstance(a, Tracer):
        raise TypeError("real_if_close: whether the result is real depends on the "
                        "values of its input, which are traced here (inside "
                        "jit/vmap/grad); call sciax.numpy.real explicitly instead")
    if tol > 1:
        tol = float(dtypes.finfo(_dt(a)).eps) * tol
    if np.all(np.abs(np.imag(np.asarray(a))) < tol):
        return lax.real(a)
    return a


# --- integers and float helpers -------------------------------------------------------

def _int_args(name: str, x1: Any, x2: Any) -> list[Any]:
    util.check_arraylike(name, x1, x2)
    x1, x2 = util.promote_args(name, x1, x2)
    if not dtypes.is_integer(_dt(x1)):
        raise TypeError(f"{name}: arguments must be integers, got dtype {_dt(x1)}")
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
    if dtypes.is_complex(_dt(x1)):
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
    x1, x2 = _operand("ldexp", x1), _operand("ldexp", x2)
    if not dtypes.is_integer(_dt(x2)) and _dt(x2) != dtypes.bool_:
        raise TypeError(f"ldexp: the exponent x2 must be an integer array, got dtype "
                        f"{_dt(x2)}")
    if dtypes.is_complex(_dt(x1)):
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
    dt = _dt(x)
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
    dt = _dt(x)
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
    if dtypes.is_complex(_dt(x)):
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
    if dtypes.is_complex(_dt(x1)):
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
    if dtypes.is_complex(_dt(x)):
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
    x = _operand("bitwise_count", x)
    dt = _dt(x)
    if dt == dtypes.bool_:
        x = util.cast(x, dtypes.uint8)
    elif not dtypes.is_integer(dt):
        raise TypeError(f"bitwise_count: only integer (and bool) input is supported, "
                        f"got dtype {dt}")
    if dtypes.issubdtype(_dt(x), np.signedinteger):
        x = lax.abs(x)
    return util.cast(lax.population_count(x), dtypes.uint8)
