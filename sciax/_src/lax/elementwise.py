"""Elementwise primitives: arithmetic, transcendental, comparison, logical,
bitwise, type conversion and complex parts.

Each primitive is one block: primitive, public wrapper, lowering, JVP (and
transpose where linear), batching.  The factories :func:`_unop` and
:func:`_naryop` give a whole family its abstract eval, eager impl, HLO
lowering and batching rule in one call, so most blocks are three lines:
the primitive, its wrapper and its derivative.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from sciax._src.backend.array import device_put
from sciax._src.backend.mlir import chlo, hlo, ir
from sciax._src.backend.pytree import registry
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.trace import Primitive
from sciax._src.interpreters import ad, batching, hooks, lowering
from sciax._src.interpreters import partial_eval as pe
from sciax._src.interpreters.lowering import hlo_op, register_lowering
from sciax._src.lax import shape_ops
from sciax._src.lax._rules import (_any, _bool, _compare, _complex, _float, _inexact,
                                   _int, _num, _signed, _unsigned, coerce_scalars,
                                   complex_dtype, naryop_dtype_rule, naryop_shape_rule,
                                   real_dtype, same_shapes, scalar_array,
                                   standard_primitive)

ArrayLike = Any


# --- factories and derivative helpers ----------------------------------------------

def _unop(name: str, accepted: frozenset, builder: Callable | None = None,
          result_dtype: Callable | None = None, weak: bool = True) -> Primitive:
    """A unary elementwise primitive: abstract eval, eager impl, batching
    (vectorized) and, given an HLO ``builder``, its lowering."""
    def shape_rule(x: ShapedArray, **params: Any) -> tuple[int, ...]:
        return x.shape

    weak_rule = (lambda x, **p: x.weak_type) if weak else (lambda x, **p: False)
    prim = standard_primitive(shape_rule, naryop_dtype_rule(name, [accepted], result_dtype),
                              name, weak_rule)
    batching.defvectorized(prim)
    if builder is not None:
        register_lowering(prim, hlo_op(builder))
    return prim


def _naryop(name: str, accepted: list[frozenset], builder: Callable | None = None,
            result_dtype: Callable | None = None, weak: bool = True) -> Primitive:
    """An n-ary elementwise primitive (equal shapes and dtypes): abstract eval,
    eager impl, batching (broadcasting) and, given ``builder``, its lowering."""
    weak_rule = None if weak else (lambda *a, **p: False)
    prim = standard_primitive(naryop_shape_rule(name),
                              naryop_dtype_rule(name, accepted, result_dtype),
                              name, weak_rule)
    batching.defbroadcasting(prim)
    if builder is not None:
        register_lowering(prim, hlo_op(builder))
    return prim


def _binary(prim: Primitive) -> Callable[[ArrayLike, ArrayLike], Any]:
    def op(x: ArrayLike, y: ArrayLike) -> Any:
        return prim.bind(*coerce_scalars(prim.name, x, y))
    op.__name__ = op.__qualname__ = prim.name
    op.__doc__ = f"Elementwise ``{prim.name}`` (lax: equal shapes and dtypes)."
    return op


def _unary(prim: Primitive) -> Callable[[ArrayLike], Any]:
    def op(x: ArrayLike) -> Any:
        return prim.bind(x)
    op.__name__ = op.__qualname__ = prim.name
    op.__doc__ = f"Elementwise ``{prim.name}``."
    return op


# The derivative rules below are written with the public wrappers of this module
# (``mul``, ``cos``, ...), looked up when a rule runs, so a block may use an
# operation defined further down.

def _full_like(x: Any, value: Any) -> Any:
    aval = get_aval(x)
    s = scalar_array(value, aval.dtype)
    return shape_ops.broadcast_in_dim(s, aval.shape, ()) if aval.shape else s


def _bcast_like(v: Any, x: Any) -> Any:
    va, xa = get_aval(v), get_aval(x)
    return v if va.shape == xa.shape else shape_ops.broadcast_in_dim(v, xa.shape, ())


def get_dtype(x: Any) -> np.dtype:
    return get_aval(x).dtype


# --- add, sub, mul, div, neg ---------------------------------------------------------

add_p = _naryop("add", [_num, _num], hlo.add)
add = _binary(add_p)
ad.defjvp(add_p, lambda g, x, y: g, lambda g, x, y: g)
ad.primitive_transposes[add_p] = lambda ct, x, y: [ct, ct]
hooks.add = add

sub_p = _naryop("sub", [_num, _num], hlo.subtract)
sub = _binary(sub_p)
ad.defjvp(sub_p, lambda g, x, y: g, lambda g, x, y: neg(g))
ad.primitive_transposes[sub_p] = lambda ct, x, y: [ct, neg(ct)]

mul_p = _naryop("mul", [_num, _num], hlo.multiply)
mul = _binary(mul_p)
ad.defbilinear(mul_p, lambda ct, x, y: mul(ct, y), lambda ct, x, y: mul(x, ct))

div_p = _naryop("div", [_num, _num], hlo.divide)
div = _binary(div_p)
ad.defjvp2(div_p, lambda g, ans, x, y: div(g, y),
           lambda g, ans, x, y: neg(mul(g, div(ans, y))))
ad.primitive_transposes[div_p] = lambda ct, x, y: [div(ct, y), None]

neg_p = _unop("neg", _num, hlo.negate)
neg = _unary(neg_p)
ad.deflinear(neg_p, lambda ct, x: [neg(ct)])


# --- rem -----------------------------------------------------------------------------

rem_p = _naryop("rem", [_int | _float, _int | _float], hlo.remainder)
rem = _binary(rem_p)


def _trunc(z: Any) -> Any:
    return select(lt(z, _full_like(z, 0)), ceil(z), floor(z))


ad.defjvp(rem_p, lambda g, x, y: g, lambda g, x, y: mul(neg(g), _trunc(div(x, y))))


# --- max, min -------------------------------------------------------------------------

def _minmax_lowering(op: Callable, direction: str):
    def rule(ctx: lowering.LoweringRuleContext, x: ir.Value, y: ir.Value) -> ir.Value:
        if dtypes.is_complex(ctx.avals_in[0].dtype):
            # lexicographic order on (real, imag), as NumPy's maximum/minimum
            rx, ry, ix, iy = hlo.real(x), hlo.real(y), hlo.imag(x), hlo.imag(y)
            real_cmp = _compare(rx, ry, direction, ctx.avals_in[0].dtype, real=True)
            real_eq = _compare(rx, ry, "EQ", ctx.avals_in[0].dtype, real=True)
            imag_cmp = _compare(ix, iy, direction, ctx.avals_in[0].dtype, real=True)
            pick_x = hlo.or_(real_cmp, hlo.and_(real_eq, imag_cmp))
            return hlo.select(pick_x, x, y)
        return op(x, y)
    return rule


def _balanced_eq(x: Any, z: Any, y: Any) -> Any:
    # Where x and y tie, each gets half of the tangent (as JAX and autograd do).
    return select(eq(x, z), select(eq(y, z), _full_like(x, 0.5), _full_like(x, 1)),
                  _full_like(x, 0))


max_p = _naryop("max", [_any, _any])
max = _binary(max_p)
register_lowering(max_p, _minmax_lowering(hlo.maximum, "GT"))
ad.defjvp2(max_p, lambda g, ans, x, y: mul(g, _balanced_eq(x, ans, y)),
           lambda g, ans, x, y: mul(g, _balanced_eq(y, ans, x)))

min_p = _naryop("min", [_any, _any])
min = _binary(min_p)
register_lowering(min_p, _minmax_lowering(hlo.minimum, "LT"))
ad.defjvp2(min_p, lambda g, ans, x, y: mul(g, _balanced_eq(x, ans, y)),
           lambda g, ans, x, y: mul(g, _balanced_eq(y, ans, x)))


# --- atan2, nextafter -----------------------------------------------------------------

atan2_p = _naryop("atan2", [_float, _float], hlo.atan2)
atan2 = _binary(atan2_p)
ad.defjvp(atan2_p,
          lambda g, x, y: mul(g, div(y, add(mul(x, x), mul(y, y)))),
          lambda g, x, y: mul(g, div(neg(x), add(mul(x, x), mul(y, y)))))

nextafter_p = _naryop("nextafter", [_float, _float], chlo.next_after)
nextafter = _binary(nextafter_p)
ad.defjvp_zero(nextafter_p)


# --- pow ------------------------------------------------------------------------------

def pow(x: ArrayLike, y: ArrayLike) -> Any:
    """Elementwise ``x ** y`` for a floating/complex base (integer or same-dtype exponent)."""
    return pow_p.bind(*coerce_scalars("pow", x, y))


def _pow_dtype_rule(x: ShapedArray, y: ShapedArray) -> np.dtype:
    if x.dtype not in _inexact:
        raise TypeError(f"pow does not accept dtype {x.dtype} for its base; expected "
                        "a floating or complex dtype (use integer_pow for integer "
                        "exponents of integers)")
    if y.dtype not in _int and y.dtype != x.dtype:
        raise TypeError(f"pow needs an exponent of the base's dtype {x.dtype} or an "
                        f"integer dtype, got {y.dtype}")
    return x.dtype


def _pow_lowering(ctx: lowering.LoweringRuleContext, x: ir.Value, y: ir.Value) -> ir.Value:
    if ctx.avals_in[1].dtype != ctx.avals_in[0].dtype:
        y = hlo.convert(lowering.aval_to_ir_type(ctx.avals_in[0].update(
            shape=ctx.avals_in[1].shape)), y)
    return hlo.power(x, y)


def _pow_jvp_x(g, ans, x, y):
    yx = convert_element_type(y, get_dtype(x)) if get_dtype(y) != get_dtype(x) else y
    # at x == y == 0, y * x**(y-1) is 0 * inf: x**0 is constant, so the
    # derivative is 0; the base is made safe (1) only at that point, so higher
    # orders stay finite and d/dy of this term (x**-1 at y == 0) stays right
    zero = _full_like(x, 0)
    both0 = bitwise_and(eq(x, zero), eq(yx, zero))
    xs = select(both0, _full_like(x, 1), x)
    dx = mul(yx, pow(xs, sub(y, _full_like(y, 1))))
    return mul(g, select(both0, zero, dx))


def _pow_jvp_y(g, ans, x, y):
    zero = _full_like(x, 0)
    safe_log = select(eq(x, zero), zero, log(select(eq(x, zero), _full_like(x, 1), x)))
    return mul(g, mul(safe_log, ans))


pow_p = standard_primitive(naryop_shape_rule("pow"), _pow_dtype_rule, "pow")
register_lowering(pow_p, _pow_lowering)
ad.defjvp2(pow_p, _pow_jvp_x, _pow_jvp_y)
batching.defbroadcasting(pow_p)


# --- integer_pow ----------------------------------------------------------------------

def integer_pow(x: ArrayLike, y: int) -> Any:
    """``x ** y`` for a static Python int ``y``, by repeated squaring."""
    if not isinstance(y, int | np.integer):
        raise TypeError(f"integer_pow needs a Python int exponent, got {y!r}")
    return integer_pow_p.bind(x, y=int(y))


def _integer_pow_dtype(x: ShapedArray, *, y: int) -> np.dtype:
    if x.dtype not in _num:
        raise TypeError(f"integer_pow does not accept dtype {x.dtype}")
    if y < 0 and x.dtype in _int:
        raise ValueError(f"integer_pow: integers cannot be raised to a negative power {y}")
    return x.dtype


def _integer_pow_lowering(ctx: lowering.LoweringRuleContext, x: ir.Value, *, y: int
                          ) -> ir.Value:
    aval = ctx.avals_in[0]
    if y == 0:
        return lowering.ir_constant(np.ones(aval.shape), aval)
    acc, base, n = None, x, -y if y < 0 else y  # (abs is lax.abs here)
    while n:
        if n & 1:
            acc = base if acc is None else hlo.multiply(acc, base)
        n >>= 1
        if n:
            base = hlo.multiply(base, base)
    if y < 0:
        acc = hlo.divide(lowering.ir_constant(np.ones(aval.shape), aval), acc)
    return acc


def _integer_pow_jvp(g, x, *, y):
    if y == 0:
        return ad.Zero(ad.get_aval(g))
    return mul(g, mul(_full_like(x, y), integer_pow(x, y - 1)))


integer_pow_p = standard_primitive(lambda x, *, y: x.shape, _integer_pow_dtype,
                                   "integer_pow", lambda x, *, y: x.weak_type)
register_lowering(integer_pow_p, _integer_pow_lowering)
ad.defjvp(integer_pow_p, _integer_pow_jvp)
batching.defvectorized(integer_pow_p)


# --- sign, floor, ceil, round, abs ----------------------------------------------------

def _sign_lowering(ctx: lowering.LoweringRuleContext, x: ir.Value) -> ir.Value:
    if ctx.avals_in[0].dtype in _int - _signed:
        zero = lowering.ir_constant(np.zeros(ctx.avals_in[0].shape), ctx.avals_in[0])
        one = lowering.ir_constant(np.ones(ctx.avals_in[0].shape), ctx.avals_in[0])
        return hlo.select(_compare(x, zero, "EQ", ctx.avals_in[0].dtype), zero, one)
    return hlo.sign(x)


sign_p = _unop("sign", _num)
sign = _unary(sign_p)
register_lowering(sign_p, _sign_lowering)
ad.defjvp_zero(sign_p)

floor_p = _unop("floor", _float, hlo.floor)
floor = _unary(floor_p)
ad.defjvp_zero(floor_p)

ceil_p = _unop("ceil", _float, hlo.ceil)
ceil = _unary(ceil_p)
ad.defjvp_zero(ceil_p)

ROUND_AWAY_FROM_ZERO, ROUND_TO_NEAREST_EVEN = 0, 1


def round(x: ArrayLike, rounding_method: int = ROUND_AWAY_FROM_ZERO) -> Any:
    """Round to the nearest integer; ties away from zero (default) or to even (1)."""
    if rounding_method not in (0, 1):
        raise ValueError(f"round: rounding_method must be 0 (away from zero) or 1 "
                         f"(to nearest even), got {rounding_method!r}")
    return round_p.bind(x, rounding_method=int(rounding_method))


def _round_lowering(ctx, x, *, rounding_method):
    if rounding_method == ROUND_TO_NEAREST_EVEN:
        return hlo.round_nearest_even(x)
    return hlo.round_nearest_afz(x)


round_p = _unop("round", _float)
register_lowering(round_p, _round_lowering)
ad.defjvp_zero(round_p)


def _abs_jvp(g, ans, x):
    if dtypes.is_complex(get_dtype(x)):
        zero = _full_like(ans, 0)
        safe = select(eq(ans, zero), _full_like(ans, 1), ans)
        return select(eq(ans, zero), zero, div(real(mul(conj(x), g)), safe))
    return mul(g, sign(x))


abs_p = _unop("abs", _num, result_dtype=real_dtype)
abs = _unary(abs_p)
register_lowering(abs_p, lambda ctx, x: x if ctx.avals_in[0].dtype in _unsigned
                  else hlo.abs(x))
ad.defjvp2(abs_p, _abs_jvp)


# --- clamp ----------------------------------------------------------------------------

def clamp(min: ArrayLike, x: ArrayLike, max: ArrayLike) -> Any:
    """``min <= x <= max`` elementwise; ``min``/``max`` may be scalars."""
    lo, x, hi = _coerce_clamp(min, x, max)
    return clamp_p.bind(lo, x, hi)


def _coerce_clamp(lo, x, hi):
    xa = get_aval(x)
    if dtypes.is_python_scalar(lo):
        lo = scalar_array(lo, xa.dtype)
    if dtypes.is_python_scalar(hi):
        hi = scalar_array(hi, xa.dtype)
    return lo, x, hi


def _clamp_shape(lo: ShapedArray, x: ShapedArray, hi: ShapedArray) -> tuple[int, ...]:
    for name, b in (("min", lo), ("max", hi)):
        if b.shape and b.shape != x.shape:
            raise ValueError(f"clamp: {name} must be a scalar or have the operand's "
                             f"shape {x.shape}, got {b.shape}")
    return x.shape


def _clamp_dtype(lo: ShapedArray, x: ShapedArray, hi: ShapedArray) -> np.dtype:
    if not lo.dtype == x.dtype == hi.dtype:
        raise TypeError(f"clamp needs equal dtypes, got min {lo.dtype}, operand "
                        f"{x.dtype}, max {hi.dtype}")
    if x.dtype in _complex:
        raise TypeError("clamp does not accept complex operands")
    return x.dtype


def _clamp_jvp(primals, tangents):
    lo, x, hi = primals
    out = clamp_p.bind(lo, x, hi)
    acc: Any = ad.Zero(ad.get_aval(out))
    zero = _full_like(x, 0)
    t_lo, t_x, t_hi = tangents
    if type(t_lo) is not ad.Zero:
        acc = ad.add_tangents(acc, select(gt(_bcast_like(lo, x), x),
                                          _bcast_like(t_lo, x), zero))
    if type(t_x) is not ad.Zero:
        inside = bitwise_and(ge(x, _bcast_like(lo, x)), le(x, _bcast_like(hi, x)))
        acc = ad.add_tangents(acc, select(inside, t_x, zero))
    if type(t_hi) is not ad.Zero:
        acc = ad.add_tangents(acc, select(lt(_bcast_like(hi, x), x),
                                          _bcast_like(t_hi, x), zero))
    return out, acc


def _full_rank_batch(vals, dims, ref: int):
    """Broadcast scalar-allowed operands (clamp bounds, select predicate) to the
    shape of operand ``ref`` so that the broadcasting rule applies."""
    ref_shape = batching.get_aval(vals[ref]).shape
    ref_dim = dims[ref]
    ref_unbatched = list(ref_shape)
    if ref_dim is not batching.not_mapped:
        del ref_unbatched[ref_dim]
    out_vals, out_dims = [], []
    for v, d in zip(vals, dims):
        shape = batching.get_aval(v).shape
        rank = len(shape) - (d is not batching.not_mapped)
        if rank == 0 and ref_unbatched:
            if d is batching.not_mapped:
                v = shape_ops.broadcast_in_dim(v, tuple(ref_unbatched), ())
            else:
                v = shape_ops.broadcast_in_dim(v, (shape[0], *ref_unbatched), (0,))
                d = 0
        out_vals.append(v)
        out_dims.append(d)
    return out_vals, out_dims


def _clamp_batch(vals, dims):
    vals, dims = _full_rank_batch(vals, dims, 1)
    return batching.broadcasting_rule(clamp_p)(vals, dims)


clamp_p = standard_primitive(_clamp_shape, _clamp_dtype, "clamp",
                             lambda lo, x, hi: x.weak_type)
register_lowering(clamp_p, hlo_op(hlo.clamp))
ad.primitive_jvps[clamp_p] = _clamp_jvp
batching.primitive_batchers[clamp_p] = _clamp_batch


# --- transcendental -------------------------------------------------------------------
# One block per function: primitive (dtypes, HLO op), wrapper, derivative.

exp_p = _unop("exp", _inexact, hlo.exponential)
exp = _unary(exp_p)
ad.defjvp2(exp_p, lambda g, ans, x: mul(g, ans))


def _exp2_lowering(ctx: lowering.LoweringRuleContext, x: ir.Value) -> ir.Value:
    aval = ctx.avals_in[0]
    ln2 = lowering.ir_constant(np.full(aval.shape, math.log(2.0)), aval)
    return hlo.exponential(hlo.multiply(x, ln2))


exp2_p = _unop("exp2", _inexact)
exp2 = _unary(exp2_p)
register_lowering(exp2_p, _exp2_lowering)
ad.defjvp2(exp2_p, lambda g, ans, x: mul(g, mul(ans, _full_like(ans, math.log(2.0)))))

expm1_p = _unop("expm1", _inexact, hlo.exponential_minus_one)
expm1 = _unary(expm1_p)
# d expm1(x) = e^x, not expm1(x) + 1 (JAX's form), which cancels to 0 below
# x = -37 and loses digits below -1 (8e-8 relative at -16)
ad.defjvp(expm1_p, lambda g, x: mul(g, exp(x)))

log_p = _unop("log", _inexact, hlo.log)
log = _unary(log_p)
ad.defjvp(log_p, lambda g, x: div(g, x))

log1p_p = _unop("log1p", _inexact, hlo.log_plus_one)
log1p = _unary(log1p_p)
ad.defjvp(log1p_p, lambda g, x: div(g, add(x, _full_like(x, 1))))

sin_p = _unop("sin", _inexact, hlo.sine)
sin = _unary(sin_p)
ad.defjvp(sin_p, lambda g, x: mul(g, cos(x)))

cos_p = _unop("cos", _inexact, hlo.cosine)
cos = _unary(cos_p)
ad.defjvp(cos_p, lambda g, x: neg(mul(g, sin(x))))

tan_p = _unop("tan", _inexact, hlo.tan)
tan = _unary(tan_p)
ad.defjvp2(tan_p, lambda g, ans, x: mul(g, add(_full_like(x, 1), mul(ans, ans))))

asin_p = _unop("asin", _inexact, chlo.asin)
asin = _unary(asin_p)


def _one_minus_sq(x):
    # (1 - x)(1 + x): 1 - x*x loses the digits of x*x's rounding near |x| = 1
    # (5e-7 relative at x = 1 - 1e-10); 1 - x is exact there
    one = _full_like(x, 1)
    return mul(sub(one, x), add(one, x))


ad.defjvp(asin_p, lambda g, x: mul(g, rsqrt(_one_minus_sq(x))))

acos_p = _unop("acos", _inexact, chlo.acos)
acos = _unary(acos_p)
ad.defjvp(acos_p, lambda g, x: neg(mul(g, rsqrt(_one_minus_sq(x)))))

atan_p = _unop("atan", _inexact, chlo.atan)
atan = _unary(atan_p)
ad.defjvp(atan_p, lambda g, x: div(g, add(_full_like(x, 1), mul(x, x))))

sinh_p = _unop("sinh", _inexact, chlo.sinh)
sinh = _unary(sinh_p)
ad.defjvp(sinh_p, lambda g, x: mul(g, cosh(x)))

cosh_p = _unop("cosh", _inexact, chlo.cosh)
cosh = _unary(cosh_p)
ad.defjvp(cosh_p, lambda g, x: mul(g, sinh(x)))

tanh_p = _unop("tanh", _inexact, hlo.tanh)
tanh = _unary(tanh_p)
ad.defjvp2(tanh_p, lambda g, ans, x: mul(g, sub(_full_like(x, 1), mul(ans, ans))))

asinh_p = _unop("asinh", _inexact, chlo.asinh)
asinh = _unary(asinh_p)
ad.defjvp(asinh_p, lambda g, x: mul(g, rsqrt(add(mul(x, x), _full_like(x, 1)))))

acosh_p = _unop("acosh", _inexact, chlo.acosh)
acosh = _unary(acosh_p)
ad.defjvp(acosh_p, lambda g, x: mul(g, rsqrt(mul(sub(x, _full_like(x, 1)),
                                                  add(x, _full_like(x, 1))))))

atanh_p = _unop("atanh", _inexact, chlo.atanh)
atanh = _unary(atanh_p)
ad.defjvp(atanh_p, lambda g, x: div(g, _one_minus_sq(x)))

sqrt_p = _unop("sqrt", _inexact, hlo.sqrt)
sqrt = _unary(sqrt_p)
ad.defjvp2(sqrt_p, lambda g, ans, x: div(g, mul(_full_like(x, 2), ans)))

rsqrt_p = _unop("rsqrt", _inexact, hlo.rsqrt)
rsqrt = _unary(rsqrt_p)
ad.defjvp2(rsqrt_p, lambda g, ans, x: mul(g, mul(_full_like(x, -0.5), div(ans, x))))

cbrt_p = _unop("cbrt", _float, hlo.cbrt)
cbrt = _unary(cbrt_p)
ad.defjvp2(cbrt_p, lambda g, ans, x: mul(g, mul(_full_like(x, 1 / 3),
                                                 integer_pow(ans, -2))))

logistic_p = _unop("logistic", _inexact, hlo.logistic)
logistic = _unary(logistic_p)
# s(x) s(-x), not s(x) (1 - s(x)) (JAX's form), whose 1 - s cancels for x > 0
# (relative error ~eps e^x: 0.4 at x = 36, where it is 0)
ad.defjvp(logistic_p, lambda g, x: mul(g, mul(logistic(x), logistic(neg(x)))))

erf_p = _unop("erf", _float, chlo.erf)
erf = _unary(erf_p)
ad.defjvp(erf_p, lambda g, x: mul(g, mul(_full_like(x, 2 / math.sqrt(math.pi)),
                                         exp(neg(mul(x, x))))))

erfc_p = _unop("erfc", _float, chlo.erfc)
erfc = _unary(erfc_p)
ad.defjvp(erfc_p, lambda g, x: mul(g, mul(_full_like(x, -2 / math.sqrt(math.pi)),
                                          exp(neg(mul(x, x))))))

erf_inv_p = _unop("erf_inv", _float, chlo.erf_inv)
erf_inv = _unary(erf_inv_p)
ad.defjvp2(erf_inv_p, lambda g, ans, x: mul(g, mul(_full_like(x, math.sqrt(math.pi) / 2),
                                                   exp(mul(ans, ans)))))

lgamma_p = _unop("lgamma", _float, chlo.lgamma)
lgamma = _unary(lgamma_p)
ad.defjvp(lgamma_p, lambda g, x: mul(g, digamma(x)))

digamma_p = _unop("digamma", _float, chlo.digamma)
digamma = _unary(digamma_p)
ad.defjvp(digamma_p, lambda g, x: mul(g, polygamma(_full_like(x, 1), x)))


def polygamma(m: ArrayLike, x: ArrayLike) -> Any:
    """The polygamma function of integer order ``m`` (given as a float array)."""
    return polygamma_p.bind(*coerce_scalars("polygamma", m, x))


polygamma_p = _naryop("polygamma", [_float, _float], chlo.polygamma)
ad.defjvp(polygamma_p, None,
          lambda g, m, x: mul(g, polygamma(add(m, _full_like(m, 1)), x)))


def zeta(x: ArrayLike, q: ArrayLike) -> Any:
    """The Hurwitz zeta function ``sum_k (q + k)^-x`` (CHLO's ``zeta``; NaN
    outside ``x > 1``, ``q > 0``).  Differentiable in ``q`` only
    (``d/dq = -x zeta(x + 1, q)``).

    Examples
    --------
    >>> print(f"{float(lax.zeta(2.0, 1.0)):.12f} {np.pi ** 2 / 6:.12f}")  # zeta(2) = pi^2/6
    1.644934066848 1.644934066848
    """
    return zeta_p.bind(*coerce_scalars("zeta", x, q))


zeta_p = _naryop("zeta", [_float, _float], chlo.zeta)
ad.defjvp(zeta_p, None,
          lambda g, x, q: mul(g, mul(neg(x), zeta(add(x, _full_like(x, 1)), q))))

is_finite_p = _unop("is_finite", _float, hlo.is_finite, lambda dt: dtypes.bool_,
                    weak=False)
is_finite = _unary(is_finite_p)
ad.defjvp_zero(is_finite_p)


# --- comparisons ----------------------------------------------------------------------

def _cmp_lowering(direction: str):
    def rule(ctx: lowering.LoweringRuleContext, x: ir.Value, y: ir.Value) -> ir.Value:
        return _compare(x, y, direction, ctx.avals_in[0].dtype)
    return rule


def _bool_result(dt: np.dtype) -> np.dtype:
    return dtypes.bool_


def _comparison(name: str, accepted: frozenset, direction: str) -> Primitive:
    """A comparison primitive: bool result, HLO compare, zero derivative."""
    prim = _naryop(name, [accepted, accepted], None, _bool_result, weak=False)
    register_lowering(prim, _cmp_lowering(direction))
    ad.defjvp_zero(prim)
    return prim


eq_p = _comparison("eq", _any, "EQ")
eq = _binary(eq_p)
ne_p = _comparison("ne", _any, "NE")
ne = _binary(ne_p)
lt_p = _comparison("lt", _any - _complex, "LT")
lt = _binary(lt_p)
le_p = _comparison("le", _any - _complex, "LE")
le = _binary(le_p)
gt_p = _comparison("gt", _any - _complex, "GT")
gt = _binary(gt_p)
ge_p = _comparison("ge", _any - _complex, "GE")
ge = _binary(ge_p)


# --- select_n -------------------------------------------------------------------------

def select_n(which: ArrayLike, *cases: ArrayLike) -> Any:
    """``cases[which]`` elementwise; ``which`` is bool (2 cases) or int32."""
    return select_n_p.bind(which, *coerce_scalars("select_n", *cases))


def select(pred: ArrayLike, on_true: ArrayLike, on_false: ArrayLike) -> Any:
    """``on_true`` where ``pred`` holds, else ``on_false`` (equal shapes and dtypes)."""
    return select_n(pred, on_false, on_true)


def _select_n_shape(which: ShapedArray, *cases: ShapedArray) -> tuple[int, ...]:
    if not cases:
        raise ValueError("select_n needs at least one case")
    shape = same_shapes("select_n", *cases)
    if which.shape and which.shape != shape:
        raise ValueError(f"select_n: the predicate must be a scalar or have the cases' "
                         f"shape {shape}, got {which.shape}")
    return shape


def _select_n_dtype(which: ShapedArray, *cases: ShapedArray) -> np.dtype:
    if which.dtype != dtypes.bool_ and which.dtype != dtypes.int32:
        raise TypeError(f"select_n: the predicate must be bool or int32, got {which.dtype}")
    if which.dtype == dtypes.bool_ and len(cases) > 2:
        raise ValueError("select_n: a bool predicate selects between at most 2 cases")
    dts = {c.dtype for c in cases}
    if len(dts) > 1:
        raise TypeError(f"select_n: cases must have equal dtypes, got "
                        f"{[str(c.dtype) for c in cases]}")
    return cases[0].dtype


def _select_n_lowering(ctx: lowering.LoweringRuleContext, which: ir.Value,
                       *cases: ir.Value) -> ir.Value:
    which_aval, case_aval = ctx.avals_in[0], ctx.avals_in[1]
    if which_aval.shape != case_aval.shape:
        which = hlo.broadcast_in_dim(
            lowering.aval_to_ir_type(which_aval.update(shape=case_aval.shape)), which,
            ir.DenseI64ArrayAttr.get([]))
    if len(cases) == 1:
        return cases[0]
    if which_aval.dtype == dtypes.bool_:
        return hlo.select(which, cases[1], cases[0])
    out = cases[-1]
    shape_aval = which_aval.update(shape=case_aval.shape)
    for i in range(len(cases) - 2, -1, -1):
        idx = lowering.ir_constant(np.full(case_aval.shape, i), shape_aval)
        out = hlo.select(_compare(which, idx, "LE", dtypes.int32), cases[i], out) \
            if i == 0 else hlo.select(_compare(which, idx, "EQ", dtypes.int32), cases[i], out)
    return out


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    out = select_n_p.bind(which, *cases)
    if all(type(t) is ad.Zero for t in tangents[1:]):
        return out, ad.Zero(ad.get_aval(out))
    return out, select_n_p.bind(which, *map(ad.instantiate_zeros, tangents[1:]))


def _select_n_transpose(ct, which, *cases):
    zero = ad.zeros_like_aval(ad.get_aval(ct))
    return [None] + [
        select_n_p.bind(which, *[ct if j == i else zero for j in range(len(cases))])
        if ad.is_undefined_primal(c) else None
        for i, c in enumerate(cases)]


def _select_n_batch(vals, dims):
    vals, dims = _full_rank_batch(vals, dims, 1)
    return batching.broadcasting_rule(select_n_p)(vals, dims)


select_n_p = standard_primitive(_select_n_shape, _select_n_dtype, "select_n",
                                lambda w, *cs: all(c.weak_type for c in cs))
register_lowering(select_n_p, _select_n_lowering)
ad.primitive_jvps[select_n_p] = _select_n_jvp
ad.primitive_transposes[select_n_p] = _select_n_transpose
batching.primitive_batchers[select_n_p] = _select_n_batch


# --- logical, bitwise, shifts (integer-valued: zero derivative) -----------------------

and_p = _naryop("and", [_int | _bool, _int | _bool], hlo.and_)
bitwise_and = _binary(and_p)
ad.defjvp_zero(and_p)

or_p = _naryop("or", [_int | _bool, _int | _bool], hlo.or_)
bitwise_or = _binary(or_p)
ad.defjvp_zero(or_p)

xor_p = _naryop("xor", [_int | _bool, _int | _bool], hlo.xor)
bitwise_xor = _binary(xor_p)
ad.defjvp_zero(xor_p)

not_p = _unop("not", _int | _bool, hlo.not_)
bitwise_not = _unary(not_p)
ad.defjvp_zero(not_p)

shift_left_p = _naryop("shift_left", [_int, _int], hlo.shift_left)
shift_left = _binary(shift_left_p)
ad.defjvp_zero(shift_left_p)

shift_right_arithmetic_p = _naryop("shift_right_arithmetic", [_int, _int],
                                   hlo.shift_right_arithmetic)
shift_right_arithmetic = _binary(shift_right_arithmetic_p)
ad.defjvp_zero(shift_right_arithmetic_p)

shift_right_logical_p = _naryop("shift_right_logical", [_int, _int],
                                hlo.shift_right_logical)
shift_right_logical = _binary(shift_right_logical_p)
ad.defjvp_zero(shift_right_logical_p)

population_count_p = _unop("population_count", _int, hlo.popcnt)
population_count = _unary(population_count_p)
ad.defjvp_zero(population_count_p)

clz_p = _unop("clz", _int, hlo.count_leading_zeros)
clz = _unary(clz_p)
ad.defjvp_zero(clz_p)


# --- convert_element_type -------------------------------------------------------------

def convert_element_type(x: ArrayLike, new_dtype: Any, weak_type: bool = False) -> Any:
    """Cast ``x`` to ``new_dtype`` (complex to real keeps the real part).

    A no-op when ``x`` already has that dtype and weak type.
    """
    dt = dtypes.canonicalize_dtype(new_dtype)
    if dtypes.is_python_scalar(x):
        return scalar_array(x, dt, weak_type)
    aval = get_aval(x)
    if aval.dtype == dt and aval.weak_type == weak_type:
        if isinstance(x, np.ndarray | np.generic):
            return device_put(x)
        return x
    return convert_element_type_p.bind(x, new_dtype=dt, weak_type=bool(weak_type))


def _convert_dtype_rule(x: ShapedArray, *, new_dtype: np.dtype, weak_type: bool
                        ) -> np.dtype:
    if x.dtype not in _any:
        raise TypeError(f"convert_element_type: unsupported operand dtype {x.dtype}")
    return new_dtype


def _convert_lowering(ctx: lowering.LoweringRuleContext, x: ir.Value, *,
                      new_dtype: np.dtype, weak_type: bool) -> ir.Value:
    aval_in, aval_out = ctx.avals_in[0], ctx.avals_out[0]
    if aval_in.dtype == new_dtype:
        return x
    if aval_in.dtype in _complex and new_dtype not in _complex:
        x = hlo.real(x)
        aval_in = aval_in.update(dtype=real_dtype(aval_in.dtype))
    if new_dtype == dtypes.bool_:
        zero = lowering.ir_constant(np.zeros(aval_in.shape), aval_in)
        return _compare(x, zero, "NE", aval_in.dtype)
    return hlo.convert(lowering.aval_to_ir_type(aval_out), x)


def _convert_jvp(primals, tangents, *, new_dtype, weak_type):
    (x,), (t,) = primals, tangents
    out = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    if not (dtypes.is_inexact(get_dtype(x)) and dtypes.is_inexact(new_dtype)):
        return out, ad.Zero(ad.get_aval(out))
    return out, convert_element_type_p.bind(t, new_dtype=new_dtype, weak_type=weak_type)


def _convert_transpose(ct, x, *, new_dtype, weak_type):
    aval = x.aval
    return [convert_element_type_p.bind(ct, new_dtype=aval.dtype,
                                        weak_type=aval.weak_type)]


convert_element_type_p = standard_primitive(
    lambda x, **p: x.shape, _convert_dtype_rule, "convert_element_type",
    lambda x, *, new_dtype, weak_type: weak_type)
register_lowering(convert_element_type_p, _convert_lowering)
# recomputed from literals in a staged jaxpr rather than saved as residuals
pe.recomputable.update({add_p, sub_p, mul_p, neg_p, eq_p, convert_element_type_p})
ad.primitive_jvps[convert_element_type_p] = _convert_jvp
ad.primitive_transposes[convert_element_type_p] = _convert_transpose
batching.defvectorized(convert_element_type_p)


# --- bitcast_convert_type -------------------------------------------------------------

def bitcast_convert_type(x: ArrayLike, new_dtype: Any) -> Any:
    """Reinterpret the bits of ``x`` as ``new_dtype`` (sizes may differ: a
    trailing axis is added or removed)."""
    return bitcast_convert_type_p.bind(x, new_dtype=dtypes.canonicalize_dtype(new_dtype))


def _bitcast_shape(x: ShapedArray, *, new_dtype: np.dtype) -> tuple[int, ...]:
    old, new = x.dtype.itemsize, np.dtype(new_dtype).itemsize
    if old == new:
        return x.shape
    if old > new:
        return (*x.shape, old // new)
    if not x.shape or x.shape[-1] * old != new:
        raise ValueError(f"bitcast_convert_type from {x.dtype} to {new_dtype} needs a "
                         f"last dimension of {new // old}, got shape {x.shape}")
    return x.shape[:-1]


def _bitcast_dtype(x: ShapedArray, *, new_dtype: np.dtype) -> np.dtype:
    if (x.dtype == dtypes.bool_) != (np.dtype(new_dtype) == dtypes.bool_):
        raise TypeError("bitcast_convert_type cannot convert to or from bool")
    if x.dtype in _complex or np.dtype(new_dtype) in _complex:
        raise TypeError("bitcast_convert_type does not support complex dtypes")
    return np.dtype(new_dtype)


def _bitcast_lowering(ctx, x, *, new_dtype):
    return hlo.bitcast_convert(lowering.aval_to_ir_type(ctx.avals_out[0]), x)


def _bitcast_batch(vals, dims, *, new_dtype):
    # A size-changing bitcast adds or consumes the last axis: keep the batch
    # axis out of its way by moving it to the front.
    (x,), (d,) = vals, dims
    x = batching.moveaxis(x, d, 0)
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), 0


bitcast_convert_type_p = standard_primitive(_bitcast_shape, _bitcast_dtype,
                                            "bitcast_convert_type",
                                            lambda x, **p: False)
register_lowering(bitcast_convert_type_p, _bitcast_lowering)
ad.defjvp_zero(bitcast_convert_type_p)
batching.primitive_batchers[bitcast_convert_type_p] = _bitcast_batch


# --- complex parts --------------------------------------------------------------------

real_p = _unop("real", _complex, hlo.real, result_dtype=real_dtype)
real = _unary(real_p)
ad.deflinear(real_p, lambda ct, x: [complex(ct, _full_like(ct, 0))])

imag_p = _unop("imag", _complex, hlo.imag, result_dtype=real_dtype)
imag = _unary(imag_p)
ad.deflinear(imag_p, lambda ct, x: [complex(_full_like(ct, 0), neg(ct))])

conj_p = _unop("conj", _complex, chlo.conj)
conj = _unary(conj_p)
ad.deflinear(conj_p, lambda ct, x: [conj(ct)])


def complex(x: ArrayLike, y: ArrayLike) -> Any:
    """``x + 1j * y`` from float32/float64 parts."""
    return complex_p.bind(*coerce_scalars("complex", x, y))


complex_p = _naryop("complex", [_float - {dtypes.bfloat16, dtypes.float16}] * 2,
                    hlo.complex, result_dtype=complex_dtype)
ad.deflinear(complex_p, lambda ct, x, y: [real(ct), neg(imag(ct))])


# --- stop_gradient --------------------------------------------------------------------

def stop_gradient(x: Any) -> Any:
    """The identity, with zero derivative: differentiation treats ``x`` (a pytree)
    as a constant.

    Examples
    --------
    >>> float(sciax.grad(lambda t: t * lax.stop_gradient(t))(3.0))
    3.0
    """
    leaves, tree = registry.flatten(x)
    return tree.unflatten([stop_gradient_p.bind(leaf) for leaf in leaves])


stop_gradient_p = _unop("stop_gradient", _any)
register_lowering(stop_gradient_p, lambda ctx, x: x)
ad.defjvp_zero(stop_gradient_p)


__all__ = [
    "add", "sub", "mul", "div", "rem", "pow", "integer_pow", "neg", "sign", "floor",
    "ceil", "round", "abs", "max", "min", "clamp", "nextafter", "exp", "exp2", "expm1",
    "log", "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
    "tanh", "asinh", "acosh", "atanh", "sqrt", "rsqrt", "cbrt", "logistic", "erf",
    "erfc", "erf_inv", "lgamma", "digamma", "polygamma", "zeta", "is_finite", "eq", "ne", "lt",
    "le", "gt", "ge", "select_n", "select", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_not", "shift_left", "shift_right_arithmetic", "shift_right_logical",
    "population_count", "clz", "convert_element_type", "bitcast_convert_type", "real",
    "imag", "conj", "complex", "ROUND_AWAY_FROM_ZERO", "ROUND_TO_NEAREST_EVEN",
    "stop_gradient",
]
