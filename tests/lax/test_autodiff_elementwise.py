"""Derivatives of the elementwise lax primitives: forward and reverse mode against
central differences at first and second order in float64 (``check_grads``),
complex inputs for the holomorphic functions, zero tangents of the piecewise
constant ops, and the rejection of integer inputs by ``grad``.

Inputs are drawn inside each function's domain and away from its kinks, poles and
branch cuts by at least 0.2 (finite differences use a step of 1e-4, so the
truncation error stays far below the 1e-5 tolerance).  Shapes come from a small
fixed set because every distinct (primitive, shape) compiles a small XLA program.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
from sciax import lax
from sciax.test_util import check_grads

SHAPES = [(), (3,), (2, 3), (0,)]
SETTINGS = settings(max_examples=5, deadline=None, database=None)
shapes = st.sampled_from(SHAPES)
seeds = st.integers(0, 2 ** 32 - 1)

Sampler = Callable[[np.random.Generator, tuple[int, ...]], np.ndarray]


# --- samplers (float64 unless said otherwise) ----------------------------------------

def uniform(lo: float, hi: float) -> Sampler:
    return lambda rng, s: rng.uniform(lo, hi, s)


def away_from_zero(lo: float = 0.5, hi: float = 2.0) -> Sampler:
    """Magnitudes in (lo, hi) with random signs: divisors, kinks at 0."""
    return lambda rng, s: rng.uniform(lo, hi, s) * rng.choice([-1.0, 1.0], s)


def cplx(re: Sampler, im: Sampler) -> Sampler:
    return lambda rng, s: re(rng, s) + 1j * im(rng, s)


normal = uniform(-2.0, 2.0)
small = uniform(-0.7, 0.7)


@dataclasses.dataclass(frozen=True)
class Case:
    """A function of ``nargs`` arrays (all of the drawn shape) and how to sample
    its arguments (one sampler, or one per argument)."""

    name: str
    fun: Callable[..., Any]
    sample: Sampler | tuple[Sampler, ...]
    nargs: int = 1

    def args(self, seed: int, shape: tuple[int, ...]) -> list[np.ndarray]:
        rng = np.random.default_rng(seed)
        samplers = self.sample if isinstance(self.sample, tuple) else \
            (self.sample,) * self.nargs
        return [np.asarray(f(rng, shape)) for f in samplers]

    def __repr__(self) -> str:
        return self.name


def _minmax_pair(rng: np.random.Generator, s: tuple[int, ...]) -> np.ndarray:
    """(x, y) with |x - y| > 0.5: no ties, where max/min are not differentiable."""
    x = normal(rng, s)
    return np.stack([x, x + away_from_zero(0.5, 1.0)(rng, s)])


def _clamp_triple(rng: np.random.Generator, s: tuple[int, ...]) -> np.ndarray:
    """(lo, x, hi) with x below, inside or above [lo, hi], 0.3 away from both."""
    lo = rng.uniform(-1.0, 0.0, s)
    hi = lo + rng.uniform(1.0, 2.0, s)
    where = rng.integers(0, 3, s)
    x = np.where(where == 0, lo - rng.uniform(0.3, 1.0, s),
                 np.where(where == 1, lo + 0.3 + (hi - lo - 0.6) * rng.random(s),
                          hi + rng.uniform(0.3, 1.0, s)))
    return np.stack([lo, x, hi])


def _rem_pair(rng: np.random.Generator, s: tuple[int, ...]) -> np.ndarray:
    y = away_from_zero(1.0, 2.0)(rng, s)
    q = rng.integers(-2, 3, s) + rng.uniform(0.2, 0.8, s) * rng.choice([-1.0, 1.0], s)
    return np.stack([q * y, y])


@dataclasses.dataclass(frozen=True, repr=False)
class JointCase(Case):
    """Arguments drawn jointly: ``sample`` returns them stacked on axis 0."""

    def args(self, seed: int, shape: tuple[int, ...]) -> list[np.ndarray]:
        rng = np.random.default_rng(seed)
        return list(self.sample(rng, shape))


C = Case
positive = uniform(0.5, 3.0)

REAL_CASES = [
    C("add", lax.add, normal, 2),
    C("sub", lax.sub, normal, 2),
    C("mul", lax.mul, normal, 2),
    C("div", lax.div, (normal, away_from_zero()), 2),
    JointCase("rem", lax.rem, _rem_pair, 2),
    C("pow", lax.pow, (positive, normal), 2),
    C("integer_pow_0", lambda x: lax.integer_pow(x, 0), normal),
    C("integer_pow_1", lambda x: lax.integer_pow(x, 1), normal),
    C("integer_pow_3", lambda x: lax.integer_pow(x, 3), normal),
    C("integer_pow_neg2", lambda x: lax.integer_pow(x, -2), away_from_zero()),
    C("neg", lax.neg, normal),
    C("abs", lax.abs, away_from_zero(0.3, 2.0)),
    JointCase("max", lax.max, _minmax_pair, 2),
    JointCase("min", lax.min, _minmax_pair, 2),
    JointCase("clamp", lax.clamp, _clamp_triple, 3),
    C("exp", lax.exp, normal),
    C("exp2", lax.exp2, normal),
    C("expm1", lax.expm1, normal),
    C("log", lax.log, positive),
    C("log1p", lax.log1p, uniform(-0.5, 3.0)),
    C("sin", lax.sin, normal),
    C("cos", lax.cos, normal),
    C("tan", lax.tan, uniform(-1.2, 1.2)),
    C("asin", lax.asin, small),
    C("acos", lax.acos, small),
    C("atan", lax.atan, normal),
    # atan2(x, y) jumps across y < 0, x = 0: keep x away from zero
    C("atan2", lax.atan2, (away_from_zero(), normal), 2),
    C("sinh", lax.sinh, normal),
    C("cosh", lax.cosh, normal),
    C("tanh", lax.tanh, normal),
    C("asinh", lax.asinh, normal),
    C("acosh", lax.acosh, uniform(1.3, 4.0)),
    C("atanh", lax.atanh, small),
    C("sqrt", lax.sqrt, positive),
    C("rsqrt", lax.rsqrt, positive),
    C("cbrt", lax.cbrt, away_from_zero()),
    C("logistic", lax.logistic, normal),
    C("erf", lax.erf, normal),
    C("erfc", lax.erfc, normal),
    C("erf_inv", lax.erf_inv, small),
    C("lgamma", lax.lgamma, uniform(0.5, 4.0)),
    # negative non-integers: log|Gamma| between the poles
    C("lgamma_negative", lax.lgamma, uniform(-1.8, -1.2)),
    C("digamma", lax.digamma, uniform(1.0, 4.0)),
    # in x at a fixed integer order (the order m is not differentiable)
    C("polygamma", lambda x: lax.polygamma(lax.full_like(x, 1.0), x), uniform(1.0, 4.0)),
    # in q at a fixed s (zeta_p has no derivative in s; sciax.special.zeta has)
    C("zeta", lambda q: lax.zeta(lax.full_like(q, 3.0), q), uniform(0.5, 4.0)),
]

# Holomorphic functions on complex inputs, away from their branch cuts and poles
# (log, sqrt: the negative real axis; asin/acos/atanh: |Re| > 1 on the real axis;
# atan/asinh: |Im| > 1 on the imaginary axis; acosh: Re < 1 on the real axis).
right_half = cplx(uniform(0.5, 2.0), uniform(-1.5, 1.5))
disc = cplx(small, small)
anywhere = cplx(uniform(-1.5, 1.5), uniform(-1.5, 1.5))

COMPLEX_CASES = [
    C("add", lax.add, anywhere, 2),
    C("mul", lax.mul, anywhere, 2),
    C("div", lax.div, (anywhere, right_half), 2),
    C("pow", lax.pow, (right_half, anywhere), 2),
    C("integer_pow_3", lambda x: lax.integer_pow(x, 3), anywhere),
    C("integer_pow_neg2", lambda x: lax.integer_pow(x, -2), right_half),
    C("neg", lax.neg, anywhere),
    C("exp", lax.exp, anywhere),
    C("exp2", lax.exp2, anywhere),
    C("expm1", lax.expm1, anywhere),
    C("log", lax.log, right_half),
    C("log1p", lax.log1p, right_half),
    C("sin", lax.sin, anywhere),
    C("cos", lax.cos, anywhere),
    C("tan", lax.tan, disc),
    C("asin", lax.asin, disc),
    C("acos", lax.acos, disc),
    C("atan", lax.atan, disc),
    C("sinh", lax.sinh, anywhere),
    C("cosh", lax.cosh, anywhere),
    C("tanh", lax.tanh, disc),
    C("asinh", lax.asinh, disc),
    C("acosh", lax.acosh, cplx(uniform(1.5, 3.0), uniform(-1.0, 1.0))),
    C("atanh", lax.atanh, disc),
    C("sqrt", lax.sqrt, right_half),
    C("rsqrt", lax.rsqrt, right_half),
    C("logistic", lax.logistic, disc),
    # complex -> complex linear, and complex <-> real parts
    C("conj", lax.conj, anywhere),
    C("real", lax.real, anywhere),
    C("imag", lax.imag, anywhere),
    # |z| is real-differentiable away from 0 (not holomorphic)
    C("abs", lax.abs, right_half),
]


@pytest.mark.parametrize("case", REAL_CASES, ids=repr)
@SETTINGS
@given(shape=shapes, seed=seeds)
def test_real_grads(case, shape, seed):
    check_grads(case.fun, case.args(seed, shape), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("case", COMPLEX_CASES, ids=repr)
@settings(max_examples=2, deadline=None, database=None)
@given(shape=st.sampled_from([(), (2, 3)]), seed=seeds)
def test_complex_grads(case, shape, seed):
    check_grads(case.fun, case.args(seed, shape), order=2, modes=("fwd", "rev"))


def test_complex_from_parts_grads():
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 2, 3))
    check_grads(lax.complex, (x, y), order=2)
    check_grads(lambda x, y: lax.complex(x, y), (x[0, 0], y[0, 0]), order=2)


def test_holomorphic_grad_matches_derivative():
    # grad(f, holomorphic=True)(z) is f'(z) for a holomorphic f
    z = np.complex128(0.3 + 0.4j)
    for f, df in [(lax.exp, np.exp), (lax.sin, np.cos), (lax.log, lambda z: 1 / z),
                  (lax.tanh, lambda z: 1 - np.tanh(z) ** 2)]:
        np.testing.assert_allclose(complex(sciax.grad(f, holomorphic=True)(z)), df(z),
                                   rtol=1e-14)


def test_real_valued_wrapper_of_complex_function():
    # |exp(z)|^2 = exp(2 Re z): a real function of a complex input
    def f(z):
        w = lax.exp(z)
        re, im = lax.real(w), lax.imag(w)
        return lax.add(lax.mul(re, re), lax.mul(im, im))

    z = np.array([0.2 + 0.5j, -0.4 + 1.0j])
    check_grads(f, (z,), order=2)
    g = np.asarray(sciax.grad(lambda z: lax.reduce_sum(f(z), (0,)))(z))
    # grad of a real function of z = x + iy is df/dx - i df/dy (JAX's convention)
    np.testing.assert_allclose(g, 2 * np.exp(2 * z.real) + 0j, rtol=1e-13)
    np.testing.assert_array_equal(complex(sciax.grad(lax.imag)(z[0])), -1j)
    np.testing.assert_array_equal(complex(sciax.grad(lax.real)(z[0])), 1 + 0j)


def test_clamp_scalar_bounds():
    # scalar bounds broadcast against x: their cotangents sum over the clamped entries
    x = np.array([-2.0, -0.5, 0.25, 1.5, 3.0])
    check_grads(lambda lo, x, hi: lax.clamp(lo, x, hi), (-1.0, x, 1.0), order=2)
    g_lo, g_x, g_hi = sciax.grad(
        lambda lo, x, hi: lax.reduce_sum(lax.clamp(lo, x, hi), (0,)),
        argnums=(0, 1, 2))(np.float64(-1.0), x, np.float64(1.0))
    assert (float(g_lo), float(g_hi)) == (1.0, 2.0)
    np.testing.assert_array_equal(np.asarray(g_x), [0, 1, 1, 0, 0])


def test_max_min_ties_share_the_tangent():
    x = np.array([1.0, 2.0, 3.0])
    y = np.array([1.0, 0.0, 3.0])
    for op in (lax.max, lax.min):
        gx, gy = sciax.grad(lambda x, y: lax.reduce_sum(op(x, y), (0,)),
                            argnums=(0, 1))(x, y)
        winner = (x > y) if op is lax.max else (x < y)
        np.testing.assert_array_equal(np.asarray(gx), np.where(x == y, 0.5, winner))
        np.testing.assert_array_equal(np.asarray(gy), np.where(x == y, 0.5, ~winner))


# --- select_n and convert_element_type ------------------------------------------------

@SETTINGS
@given(shape=st.sampled_from([(), (3,), (2, 3)]), seed=seeds)
def test_select_n_grads(shape, seed):
    rng = np.random.default_rng(seed)
    which = rng.random(shape) < 0.5
    a, b = rng.standard_normal((2, *shape))
    check_grads(lambda a, b: lax.select_n(which, a, b), (a, b), order=2)
    which3 = rng.integers(0, 3, shape).astype(np.int32)
    c = rng.standard_normal(shape)
    check_grads(lambda a, b, c: lax.select_n(which3, a, b, c), (a, b, c), order=2)


def test_select_n_scalar_predicate_and_cotangents():
    a, b = np.arange(3.0), -np.arange(3.0)
    check_grads(lambda a, b: lax.select_n(np.True_, a, b), (a, b), order=2)
    _, vjp = sciax.vjp(lambda a, b: lax.select_n(np.array([True, False, True]), a, b),
                       a, b)
    ga, gb = vjp(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(np.asarray(ga), [0.0, 2.0, 0.0])
    np.testing.assert_array_equal(np.asarray(gb), [1.0, 0.0, 3.0])


@pytest.mark.parametrize("src,dst", [
    (np.float64, np.float64), (np.float64, np.complex128), (np.complex128, np.float64),
    (np.complex128, np.complex128), (np.float32, np.float64)])
def test_convert_element_type_grads(src, dst):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3))
    if np.dtype(src).kind == "c":
        x = x + 1j * rng.standard_normal((2, 3))
    x = x.astype(src)
    check_grads(lambda x: lax.convert_element_type(x, dst), (x,), order=2)


def test_convert_complex_to_real_keeps_real_part_cotangent():
    z = np.array([1.0 + 2.0j, -3.0 + 0.5j])
    _, vjp = sciax.vjp(lambda z: lax.convert_element_type(z, np.float64), z)
    (ct,) = vjp(np.array([1.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(ct), [1.0 + 0j, 2.0 + 0j])


# --- zero tangents and integer inputs -------------------------------------------------

X = np.array([-2.3, -0.5, 0.7, 1.5, 3.25])


@pytest.mark.parametrize("fun", [
    lax.sign, lax.floor, lax.ceil, lax.round, lax.stop_gradient,
    lambda x: lax.convert_element_type(lax.convert_element_type(x, np.int32),
                                       np.float64),
    lambda x: lax.convert_element_type(lax.lt(x, 1.0), np.float64),
    lambda x: lax.convert_element_type(lax.eq(x, x), np.float64),
    lambda x: lax.convert_element_type(lax.is_finite(x), np.float64),
], ids=["sign", "floor", "ceil", "round", "stop_gradient", "via_int32", "lt", "eq",
        "is_finite"])
def test_zero_tangent_ops(fun):
    t = np.ones_like(X)
    out, dout = sciax.jvp(fun, (X,), (t,))
    np.testing.assert_array_equal(np.asarray(dout), np.zeros(X.shape))
    g = sciax.grad(lambda x: lax.reduce_sum(fun(x), (0,)))(X)
    np.testing.assert_array_equal(np.asarray(g), np.zeros(X.shape))


def test_comparison_tangent_is_zero():
    out, dout = sciax.jvp(lambda x: lax.gt(x, 0.0), (X,), (np.ones_like(X),))
    np.testing.assert_array_equal(np.asarray(out), X > 0)
    assert not np.asarray(dout).any()


def test_piecewise_function_through_select():
    # |x| via select(x < 0, ...): the comparison has no tangent, each branch has its own
    def f(x):
        return lax.reduce_sum(lax.select(lax.lt(x, 0.0), lax.neg(x), x), (0,))

    np.testing.assert_array_equal(np.asarray(sciax.grad(f)(X)), np.sign(X))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
def test_grad_rejects_integer_inputs(dtype):
    x = np.array(1, dtype)
    with pytest.raises(TypeError, match=f"{np.dtype(dtype).name}.*allow_int|"
                                        f"dtype {np.dtype(dtype).name}"):
        sciax.grad(lambda x: lax.convert_element_type(x, np.float64))(x)
