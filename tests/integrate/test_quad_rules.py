"""Fixed rules (trapezoid, simpson, romb, cumulative_*, newton_cotes, fixed_quad,
roots_legendre) vs scipy.integrate / scipy.special, and their derivatives."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate as si
import scipy.special as sps

import sciax
import sciax.numpy as snp
from sciax import integrate as I

# the rules are short weighted sums: agreement to a few ulps of the sum
TOL = 1e-13


@pytest.mark.slow  # compiles a whole solver: CI's second step
@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 9])
def test_sample_rules_vs_scipy(n):
    rng = np.random.default_rng(n)
    x = np.sort(rng.uniform(0.0, 2.0, n))
    y = rng.normal(size=(3, n))
    np.testing.assert_allclose(I.trapezoid(y, x), si.trapezoid(y, x), atol=TOL)
    np.testing.assert_allclose(I.trapezoid(y.T, dx=0.3, axis=0),
                               si.trapezoid(y.T, dx=0.3, axis=0), atol=TOL)
    np.testing.assert_allclose(I.simpson(y, x=x), si.simpson(y, x=x), atol=TOL)
    np.testing.assert_allclose(I.simpson(y, dx=0.2), si.simpson(y, dx=0.2), atol=TOL)
    np.testing.assert_allclose(I.cumulative_trapezoid(y, x, initial=0),
                               si.cumulative_trapezoid(y, x, initial=0), atol=TOL)
    np.testing.assert_allclose(I.cumulative_simpson(y, x=x),
                               si.cumulative_simpson(y, x=x), atol=TOL)
    np.testing.assert_allclose(I.cumulative_simpson(y.T, dx=0.5, axis=0, initial=1.0),
                               si.cumulative_simpson(y.T, dx=0.5, axis=0, initial=1.0),
                               atol=TOL)


def test_romb_and_errors():
    y = np.random.default_rng(1).normal(size=(2, 17))
    np.testing.assert_allclose(I.romb(y, dx=0.1), si.romb(y, dx=0.1), atol=TOL)
    np.testing.assert_allclose(I.romb(y[:, :2]), si.romb(y[:, :2]), atol=TOL)
    with pytest.raises(ValueError, match="2\\*\\*k \\+ 1"):
        I.romb(np.ones(6))
    with pytest.raises(ValueError, match="x has 3 points"):
        I.trapezoid(np.ones(4), np.ones(3))


@pytest.mark.parametrize("order", [1, 2, 3, 4, 7, 10, 14])
def test_newton_cotes(order):
    an, b = I.newton_cotes(order, 1)
    an2, b2 = si.newton_cotes(order, 1)
    # SciPy tabulates exact rationals up to order 14; ours are exact rationals
    np.testing.assert_allclose(an, an2, rtol=1e-15)
    assert abs(b - b2) <= 1e-15 * abs(b2)


@pytest.mark.parametrize("n", [1, 2, 5, 20, 100])
def test_roots_legendre(n):
    x, w = I.roots_legendre(n)
    x2, w2 = sps.roots_legendre(n)
    np.testing.assert_allclose(x, x2, atol=2e-15)
    # SciPy's weights near the ends carry ~3e-13 relative error at n = 100 (checked
    # against mpmath at 40 digits, where ours are within 5e-15): compare loosely...
    np.testing.assert_allclose(w, w2, rtol=1e-11, atol=1e-16)
    # ...and tightly against the exact sum of the weights and a polynomial moment
    assert abs(float(snp.sum(w)) - 2.0) < 1e-14
    if n >= 3:
        assert abs(float(snp.sum(w * x ** 4)) - 0.4) < 1e-14


def test_fixed_quad_and_grads():
    val, none = I.fixed_quad(lambda x, c: snp.exp(c * x), 0.0, 1.0, args=(0.7,), n=8)
    ref, _ = si.fixed_quad(lambda x, c: np.exp(c * x), 0.0, 1.0, args=(0.7,), n=8)
    assert none is None and abs(float(val) - ref) < 1e-15
    # d/dc ∫_0^b e^{cx} and d/db: the rule is exact to ~1e-15 for n = 8 here
    def g(c, b):
        return I.fixed_quad(lambda x, c: snp.exp(c * x), 0.0, b, args=(c,), n=8)[0]
    dc, db = sciax.grad(g, argnums=(0, 1))(0.7, 1.0)
    assert abs(float(dc) - (np.exp(0.7) * (0.7 - 1) + 1) / 0.49) < 1e-13
    assert abs(float(db) - np.exp(0.7)) < 1e-13
    # simpson is differentiable in the samples: d/dy equals its weights
    x = np.linspace(0.0, 1.0, 7)
    w = sciax.grad(lambda y: I.simpson(y, x=x))(snp.ones(7))
    np.testing.assert_allclose(w, np.array([1, 4, 2, 4, 2, 4, 1]) / 18.0, atol=1e-15)


@pytest.mark.parametrize("n", [1, 3, 10, 30])
def test_roots_hermite_laguerre(n):
    x, w = I.roots_hermite(n)
    x2, w2 = sps.roots_hermite(n)
    np.testing.assert_allclose(x, x2, rtol=1e-12, atol=1e-13)
    # Golub-Welsch weights are accurate relative to the largest weight
    np.testing.assert_allclose(w, w2, rtol=0, atol=1e-13 * w2.max())
    x, w = I.roots_laguerre(n)
    x2, w2 = sps.roots_laguerre(n)
    np.testing.assert_allclose(x, x2, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(w, w2, rtol=0, atol=1e-13 * w2.max())
