"""``linear_sum_assignment``, ``isotonic_regression`` and ``brute`` against
SciPy's.

* Assignment is combinatorial and exact: on integer matrices the optimal cost
  must equal SciPy's exactly, and the assignment too where it is unique
  (continuous random costs make ties have probability zero).
* PAVA ends on weighted block means: ``x`` agrees to a few ulps (the pooling
  order of the sums may differ), ``blocks`` exactly.
* ``brute`` evaluates the same grid, so the grid values agree to rounding and
  the polished minimum (Nelder-Mead, ``xtol = ftol = 1e-4``) to its tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import brute, isotonic_regression, linear_sum_assignment

_SLOW = pytest.mark.slow


# --- linear_sum_assignment -----------------------------------------------------------


def _lsap_check(C, maximize=False, unique=False):
    r, c = linear_sum_assignment(C, maximize=maximize)
    r, c = np.asarray(r), np.asarray(c)
    r2, c2 = so.linear_sum_assignment(C, maximize=maximize)
    assert len(r) == len(r2) == min(C.shape)
    assert len(set(r.tolist())) == len(r) and len(set(c.tolist())) == len(c)
    assert np.all(np.diff(r) > 0)
    assert C[r, c].sum() == C[r2, c2].sum()
    if unique:
        np.testing.assert_array_equal(r, r2)
        np.testing.assert_array_equal(c, c2)


@pytest.mark.parametrize("shape", [(6, 6), (4, 7), (7, 4)])
def test_lsap_random_and_ties(shape):
    rng = np.random.default_rng(sum(shape))
    for trial in range(10):
        _lsap_check(rng.integers(0, 3, shape))  # tie-heavy: cost only
        _lsap_check(rng.integers(0, 10**6, shape).astype(float), unique=True)
        _lsap_check(rng.integers(0, 3, shape), maximize=True)


def test_lsap_forbidden_and_errors():
    C = np.array([[1.0, np.inf, 3.0], [np.inf, 2.0, np.inf], [4.0, np.inf, 1.0]])
    _lsap_check(C, unique=True)
    with pytest.raises(ValueError, match="infeasible"):
        linear_sum_assignment(np.array([[np.inf, 1.0], [np.inf, 2.0]]))
    with pytest.raises(ValueError, match="invalid numeric entries"):
        linear_sum_assignment(np.array([[np.nan, 1.0], [1.0, 2.0]]))
    with pytest.raises(ValueError):
        linear_sum_assignment(np.ones(3))
    r, c = linear_sum_assignment(np.zeros((0, 3)))
    assert np.asarray(r).shape == np.asarray(c).shape == (0,)


@_SLOW
@pytest.mark.parametrize("shape", [(30, 30), (20, 45), (45, 20), (1, 9), (9, 1)])
def test_lsap_larger(shape):
    rng = np.random.default_rng(shape[0] * 100 + shape[1])
    for trial in range(5):
        _lsap_check(rng.integers(0, 5, shape))
        _lsap_check(rng.random(shape), unique=True)


# --- isotonic_regression -------------------------------------------------------------


@pytest.mark.parametrize("increasing", [True, False])
def test_isotonic_matches_scipy(increasing):
    rng = np.random.default_rng(int(increasing))
    for trial in range(12):  # one compilation: n = 15
        y = (rng.integers(0, 5, 15).astype(float) if trial % 2
             else rng.standard_normal(15))
        w = rng.uniform(0.5, 2.0, 15) if trial % 3 else None
        res = isotonic_regression(y, weights=w, increasing=increasing)
        ref = so.isotonic_regression(y, weights=w, increasing=increasing)
        np.testing.assert_allclose(np.asarray(res.x), ref.x, rtol=1e-14,
                                   atol=1e-14)
        np.testing.assert_array_equal(np.asarray(res.blocks), ref.blocks)
        np.testing.assert_allclose(np.asarray(res.weights), ref.weights,
                                   rtol=1e-14)


def test_isotonic_errors():
    y = np.array([0.3, -1.0, 2.0, 1.0, 1.5, 4.0])
    with pytest.raises(ValueError, match="strictly positive"):
        isotonic_regression(y, weights=np.r_[1.0, 0.0, 1, 1, 1, 1])
    with pytest.raises(ValueError):
        isotonic_regression(y, weights=np.ones(3))


@_SLOW  # compiles the gradient: ~3 s
def test_isotonic_gradient():
    y = np.array([0.3, -1.0, 2.0, 1.0, 1.5, 4.0])
    # block {0, 1} and {2, 3, 4}: x[3] is the mean of y[2:5]
    g = sciax.grad(lambda v: isotonic_regression(v).x[3])(snp.asarray(y))
    np.testing.assert_allclose(np.asarray(g), [0, 0, 1 / 3, 1 / 3, 1 / 3, 0],
                               atol=1e-15)


@_SLOW
def test_isotonic_jit_vmap_padded():
    rng = np.random.default_rng(5)
    Y = rng.standard_normal((4, 10))
    X = sciax.vmap(lambda v: isotonic_regression(v, increasing=False).x)(
        snp.asarray(Y))
    for y, x in zip(Y, np.asarray(X)):
        np.testing.assert_allclose(
            x, so.isotonic_regression(y, increasing=False).x, rtol=1e-14)
    res = sciax.jit(lambda v: isotonic_regression(v, increasing=False))(
        snp.asarray(Y[0]))
    ref = so.isotonic_regression(Y[0], increasing=False)
    k = len(ref.weights)
    np.testing.assert_array_equal(np.asarray(res.blocks)[:k + 1], ref.blocks)
    np.testing.assert_allclose(np.asarray(res.weights)[:k], ref.weights)
    assert np.all(np.asarray(res.weights)[k:] == 0)


# --- brute ---------------------------------------------------------------------------


def _f(z, a):
    return (z[0] - a) ** 2 + 0.5 * (z[1] + 1.0) ** 2 + 0.1 * z[0] * z[1]


def _fn(z, a):
    return (z[0] - a) ** 2 + 0.5 * (z[1] + 1.0) ** 2 + 0.1 * z[0] * z[1]


def test_brute_grid_matches_scipy():
    ranges = (slice(-3, 3, 0.5), (-2, 2))
    x, fval, grid, J = brute(_f, ranges, args=(1.2,), Ns=7, full_output=True,
                             finish=None)
    rx, rf, rgrid, rJ = so.brute(_fn, ranges, args=(1.2,), Ns=7,
                                 full_output=True, finish=None)
    np.testing.assert_array_equal(grid, rgrid)
    np.testing.assert_allclose(J, rJ, rtol=1e-14)
    np.testing.assert_array_equal(np.asarray(x), rx)
    assert fval == pytest.approx(rf, rel=1e-14)


@_SLOW
def test_brute_polished_and_1d():
    ranges = ((-3, 3), (-3, 3))
    x, fval = brute(_f, ranges, args=(1.2,), full_output=True)[:2]
    rx, rf = so.brute(_fn, ranges, args=(1.2,), full_output=True)[:2]
    np.testing.assert_allclose(np.asarray(x), rx, atol=1e-3)
    assert fval == pytest.approx(rf, abs=1e-6)

    def g(x):
        return (x - 0.3) ** 2

    x1 = brute(g, ((-1, 1),), finish=None)
    assert float(x1) == so.brute(g, ((-1, 1),), finish=None)
    x1 = brute(g, ((-1, 1),))
    assert np.asarray(x1).shape == (1,)
    np.testing.assert_allclose(np.asarray(x1), 0.3, atol=1e-3)


# --- fmin_cobyla ---------------------------------------------------------------------


@_SLOW  # compiles COBYLA: about a minute on two loaded cores
def test_fmin_cobyla_scipy_example():
    from sciax.optimize import fmin_cobyla

    def objective(x):
        return x[0] * x[1]

    cons = [lambda x: 1 - x[0] ** 2 - x[1] ** 2, lambda x: x[1]]
    x = fmin_cobyla(objective, [0.0, 0.1], cons, rhoend=1e-7)
    rx = so.fmin_cobyla(lambda x: x[0] * x[1], [0.0, 0.1],
                        [lambda x: 1 - x[0] ** 2 - x[1] ** 2, lambda x: x[1]],
                        rhoend=1e-7)
    # both may violate the disc by up to catol = 2e-4: agree to that level
    np.testing.assert_allclose(np.asarray(x), rx, atol=2e-4)
    np.testing.assert_allclose(np.asarray(x), [-0.5 ** 0.5, 0.5 ** 0.5], atol=2e-4)
    with pytest.raises(TypeError, match="cons must be"):
        fmin_cobyla(objective, [0.0, 0.1], 3)
