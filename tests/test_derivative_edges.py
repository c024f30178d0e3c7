"""Derivatives at the edges: ties, removable singularities and boundary points.

Every row of the tables below is a function and the points where a naive
implementation goes wrong (x == y in two-argument functions, 0 for sinc-like
functions, size-0 and size-1 reductions, where-guarded branches).  First and
second derivatives are taken in forward mode (``jacfwd`` twice) and reverse mode
(``grad`` twice) and compared with mpmath's high-precision numerical
derivatives (``mpmath.diff`` at 30 digits, accurate far beyond float64) or with
closed forms.

Subgradient conventions, where a function is not differentiable:

* ``maximum``/``minimum``/``fmax``/``fmin``/``clip`` at a tie, and ``max``/
  ``min`` reductions over tied elements: the tangent is split evenly among the
  tied arguments (0.5 each for two), as JAX and autograd do; second
  derivatives are 0.
* ``abs`` and ``sign`` at 0: derivative 0 (a subgradient of ``abs``).
* ``sort`` (and functions built on it: ``median``, ``quantile``) at ties: the
  derivative follows the stable order, so the first of the tied elements gets
  it.
* ``hypot`` and ``linalg.norm`` at the origin, ``std`` where the variance is 0:
  derivative 0 (a subgradient: each is a (semi)norm).
* ``power(x, 0.0)``: 0 for every order, also at x = 0.

Add a row when a new function or a new edge point comes up.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax

mpmath.mp.dps = 30
# mpmath's derivatives are exact to ~1e-25; what is left is float64 rounding in
# sciax's own formulas, amplified by at most a few hundred ulps at these points
RTOL, ATOL = 1e-9, 1e-11


def _mp(fn):
    return lambda *a: float(fn(*a))


def _orders(f, x, n):
    """The n-th derivative of scalar ``f`` at ``x``: (reverse, forward)."""
    rev = fwd = f
    for _ in range(n):
        rev, fwd = sciax.grad(rev), sciax.jacfwd(fwd)
    return float(rev(x)), float(fwd(x))


def _close(got, want, what):
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=what)


# --- unary: (name, sciax function, mpmath function, edge points, other points) -------

def _mp_sinc(x):
    return mpmath.mpf(1) if x == 0 else mpmath.sin(mpmath.pi * x) / (mpmath.pi * x)


UNARY = [
    ("sin", snp.sin, mpmath.sin, [0.0], [0.7]),
    ("cos", snp.cos, mpmath.cos, [0.0], [2.0]),
    ("tan", snp.tan, mpmath.tan, [0.0], [1.2]),
    ("arcsin", snp.arcsin, mpmath.asin, [0.0], [0.5]),
    ("arccos", snp.arccos, mpmath.acos, [0.0], [-0.6]),
    ("arctan", snp.arctan, mpmath.atan, [0.0], [2.0]),
    ("sinh", snp.sinh, mpmath.sinh, [0.0], [-1.5]),
    ("cosh", snp.cosh, mpmath.cosh, [0.0], [1.5]),
    ("tanh", snp.tanh, mpmath.tanh, [0.0], [0.8]),
    ("arcsinh", snp.arcsinh, mpmath.asinh, [0.0], [2.0]),
    ("arccosh", snp.arccosh, mpmath.acosh, [1.5], [3.0]),
    ("arctanh", snp.arctanh, mpmath.atanh, [0.0], [0.5]),
    ("exp", snp.exp, mpmath.exp, [0.0], [-1.5]),
    ("exp2", snp.exp2, lambda x: mpmath.power(2, x), [0.0], [1.5]),
    ("expm1", snp.expm1, mpmath.expm1, [0.0], [1e-8, -2.0]),
    ("log", snp.log, mpmath.log, [1.0], [0.3]),
    ("log2", snp.log2, lambda x: mpmath.log(x, 2), [1.0], [5.0]),
    ("log10", snp.log10, mpmath.log10, [1.0], [0.2]),
    ("log1p", snp.log1p, mpmath.log1p, [0.0], [1e-8, -0.5]),
    ("sqrt", snp.sqrt, mpmath.sqrt, [1.0], [0.25]),
    ("cbrt", snp.cbrt, mpmath.cbrt, [1.0], [8.0]),
    ("square", snp.square, lambda x: x * x, [0.0], [-3.0]),
    ("reciprocal", snp.reciprocal, lambda x: 1 / x, [1.0], [-2.0]),
    ("sinc", snp.sinc, _mp_sinc, [0.0], [0.5, 1.0, -2.5]),
    ("i0", snp.i0, lambda x: mpmath.besseli(0, x), [0.0], [1.0, -3.0, 9.0]),
    ("deg2rad", snp.deg2rad, lambda x: x * mpmath.pi / 180, [0.0], [10.0]),
    ("fabs", snp.fabs, abs, [-1.5], [2.0]),
    ("logistic", lax.logistic, lambda x: 1 / (1 + mpmath.exp(-x)), [0.0], [3.0]),
    ("erf", lax.erf, mpmath.erf, [0.0], [0.5]),
    ("erfc", lax.erfc, mpmath.erfc, [0.0], [1.5]),
    ("erf_inv", lax.erf_inv, mpmath.erfinv, [0.0], [0.5]),
    ("lgamma", lax.lgamma, mpmath.loggamma, [0.5], [3.0]),
    ("digamma", lax.digamma, mpmath.digamma, [1.0], [2.5]),
    ("rsqrt", lax.rsqrt, lambda x: 1 / mpmath.sqrt(x), [1.0], [4.0]),
    ("logaddexp(0, z)", lambda z: snp.logaddexp(0.0, z),
     lambda z: mpmath.log(1 + mpmath.exp(z)), [0.0], [2.0, -30.0]),
    ("logaddexp2(0, z)", lambda z: snp.logaddexp2(0.0, z),
     lambda z: mpmath.log(1 + mpmath.power(2, z), 2), [0.0], [-1.0]),
    ("hypot(z, 1)", lambda z: snp.hypot(z, 1.0),
     lambda z: mpmath.sqrt(z * z + 1), [1.0, -1.0], [0.0]),
    ("power(2, z)", lambda z: snp.power(2.0, z), lambda z: mpmath.power(2, z),
     [0.0], [-1.5]),
    ("power(z, 2.5)", lambda z: snp.power(z, 2.5), lambda z: mpmath.power(z, 2.5),
     [1.0], [0.5]),
]


def _by_point(table):
    """One case per (row, point): the edge points run by default, the other
    points (checks of the same formulas away from the edge) are marked slow."""
    cases = []
    for name, fn, ref, edges, others in table:
        for pt in edges:
            cases.append(pytest.param(name, fn, ref, pt, id=f"{name}@{pt}"))
        for pt in others:
            cases.append(pytest.param(name, fn, ref, pt, id=f"{name}@{pt}",
                                      marks=pytest.mark.slow))
    return cases


@pytest.mark.parametrize("name,fn,ref,x", _by_point(UNARY))
def test_unary_derivatives_match_mpmath(name, fn, ref, x):
    for order in (1, 2):
        want = float(mpmath.diff(ref, mpmath.mpf(x), order))
        rev, fwd = _orders(fn, x, order)
        _close(rev, want, f"{name}: order {order} reverse at {x}")
        _close(fwd, want, f"{name}: order {order} forward at {x}")


@pytest.mark.parametrize("name,fn,k_th", [
    ("sinc", snp.sinc, lambda k: 0.0 if k % 2 else
     (-1.0) ** (k // 2) * math.pi ** k / (k + 1)),
    ("i0", snp.i0, lambda k: 0.0 if k % 2 else
     math.factorial(k) / (4.0 ** (k // 2) * math.factorial(k // 2) ** 2)),
])
def test_higher_orders_at_a_removable_singularity(name, fn, k_th):
    # Maclaurin coefficients: sinc = sum (-1)^m (pi x)^2m / (2m+1)!,
    # i0 = sum (x/2)^2m / (m!)^2; orders 3 and 4 in reverse mode
    f = fn
    for k in range(1, 5):
        f = sciax.grad(f)
        if k >= 3:
            _close(float(f(0.0)), k_th(k), f"{name}: order {k} at 0")


# --- two-argument functions: every partial of order 1 and 2 ---------------------------

BINARY = [
    ("hypot", snp.hypot, lambda x, y: mpmath.sqrt(x * x + y * y),
     [(1.0, 1.0), (1.0, -1.0)], [(-2.0, 2.0), (3.0, 4.0), (0.0, 2.0)]),
    ("arctan2", snp.arctan2, mpmath.atan2, [(1.0, 1.0)],
     [(-1.0, -1.0), (1.0, 0.0), (0.0, 1.0)]),
    ("logaddexp", snp.logaddexp, lambda x, y: mpmath.log(mpmath.exp(x) + mpmath.exp(y)),
     [(0.0, 0.0), (40.0, 40.0)], [(1.0, 1.0), (2.0, -1.0), (-30.0, -30.0)]),
    ("logaddexp2", snp.logaddexp2,
     lambda x, y: mpmath.log(mpmath.power(2, x) + mpmath.power(2, y), 2),
     [(0.0, 0.0)], [(1.0, 3.0)]),
    # (0.5, 0): the exponent at 0, where d2/dxdy x**y = 1/x must survive
    ("power", snp.power, mpmath.power, [(0.5, 0.0)], [(2.0, 3.0), (2.0, 0.5),
                                                      (1.0, 1.0)]),
    ("divide", snp.divide, lambda x, y: x / y, [(0.0, 1.0)], [(1.0, 2.0), (2.0, 2.0)]),
    ("multiply", snp.multiply, lambda x, y: x * y, [(0.0, 0.0)], [(2.0, 2.0)]),
    ("subtract", snp.subtract, lambda x, y: x - y, [(1.0, 1.0)], []),
    # mpmath.fmod is Python's % (floored, as NumPy's remainder); C's fmod
    # truncates the quotient
    ("remainder", snp.remainder, mpmath.fmod, [], [(3.0, 2.0), (-2.5, 0.75)]),
    ("fmod", snp.fmod, lambda x, y: x - y * int(x / y), [], [(-3.0, 2.0)]),
]


def _partials(fn, x, y):
    """Gradient and Hessian of fn(v[0], v[1]): (forward pair, reverse pair)."""
    f = lambda v: fn(v[0], v[1])  # noqa: E731
    v = np.array([x, y])
    fwd = (sciax.jacfwd(f)(v), sciax.jacfwd(sciax.jacfwd(f))(v))
    rev = (sciax.grad(f)(v), sciax.jacrev(sciax.grad(f))(v))
    return fwd, rev


@pytest.mark.parametrize("name,fn,ref,point", _by_point(BINARY))
def test_binary_partials_match_mpmath(name, fn, ref, point):
    x, y = point
    xm, ym = mpmath.mpf(x), mpmath.mpf(y)
    d = lambda i, j: float(mpmath.diff(ref, (xm, ym), (i, j)))  # noqa: E731
    g_want = [d(1, 0), d(0, 1)]
    h_want = [[d(2, 0), d(1, 1)], [d(1, 1), d(0, 2)]]
    for mode, (g, h) in zip(("forward", "reverse"), _partials(fn, x, y)):
        _close(np.asarray(g), g_want, f"{name} gradient ({mode}) at {(x, y)}")
        _close(np.asarray(h), h_want, f"{name} hessian ({mode}) at {(x, y)}")


@pytest.mark.parametrize("fn", [snp.maximum, snp.minimum, snp.fmax, snp.fmin],
                         ids=["maximum", "minimum", "fmax", "fmin"])
def test_extrema_at_a_tie_split_the_derivative_evenly(fn):
    for mode, (g, h) in zip(("forward", "reverse"), _partials(fn, 1.5, 1.5)):
        _close(np.asarray(g), [0.5, 0.5], f"{mode} gradient")
        _close(np.asarray(h), np.zeros((2, 2)), f"{mode} hessian")
    # away from the tie the derivative belongs to the selected argument
    g = np.asarray(_partials(fn, 2.0, 1.0)[1][0])
    _close(g, [1.0, 0.0] if fn in (snp.maximum, snp.fmax) else [0.0, 1.0], "off tie")


def test_clip_abs_sign_sort_at_ties_follow_the_documented_convention():
    clip = lambda x: snp.clip(x, 0.0, 1.0)  # noqa: E731
    for x, want in ((0.0, 0.5), (1.0, 0.5), (0.5, 1.0), (2.0, 0.0)):
        assert _orders(clip, x, 1) == (want, want)
    assert _orders(snp.abs, 0.0, 1) == (0.0, 0.0)
    assert _orders(snp.abs, 0.0, 2) == (0.0, 0.0)
    assert _orders(snp.sign, 0.0, 1) == (0.0, 0.0)
    x = snp.array([1.0, 1.0, 0.0])
    _close(np.asarray(sciax.grad(lambda v: snp.sort(v)[1])(x)), [1.0, 0.0, 0.0],
           "sort: stable order")
    _close(np.asarray(sciax.grad(snp.max)(x)), [0.5, 0.5, 0.0], "max reduction tie")
    _close(np.asarray(sciax.grad(snp.min)(-x)), [0.5, 0.5, 0.0], "min reduction tie")
    # whichever tied element gets it, a sort-invariant sum has gradient ones
    _close(np.asarray(sciax.grad(lambda v: snp.sum(snp.sort(v)))(x)), np.ones(3), "")


@pytest.mark.parametrize("fn", [snp.floor, snp.ceil, snp.round, snp.trunc, snp.rint,
                                snp.sign], ids=lambda f: f.__name__)
def test_piecewise_constant_functions_have_zero_derivative(fn):
    # also at the jumps (integers, and 0 for sign): 0 by convention
    for x in (1.5, 2.0, 0.0):
        assert _orders(fn, x, 1) == (0.0, 0.0)


# --- removable singularities and where-guarded branches ------------------------------

def test_power_with_exponent_zero_is_constant_in_every_order():
    f = lambda x: snp.power(x, 0.0)  # noqa: E731
    for order in (1, 2, 3):
        assert _orders(f, 0.0, order) == (0.0, 0.0)
    g = sciax.grad(lambda x: snp.sum(snp.power(x, snp.array([0.0, 1.0, 2.0]))))
    _close(float(g(0.0)), 1.0, "x**0 + x**1 + x**2 at 0")
    # d/dy x**y at x = 0: 0**y is 0 for y > 0
    _close(float(sciax.grad(lambda y: snp.power(0.0, y))(2.0)), 0.0, "d/dy at x=0")


def test_guarded_functions_have_finite_derivatives_at_their_guard():
    cases = [
        ("hypot at the origin", lambda x: snp.hypot(x, x), 0.0, 0.0),
        ("norm at the origin", lambda x: snp.linalg.norm(snp.stack([x, 2 * x])), 0.0,
         0.0),
        ("sinc at 0", snp.sinc, 0.0, 0.0),
        ("i0 at 0", snp.i0, 0.0, 0.0),
        ("logaddexp(-inf, z)", lambda z: snp.logaddexp(-np.inf, z), 0.0, 1.0),
        ("logaddexp(inf, z)", lambda z: snp.logaddexp(np.inf, z), 0.0, 0.0),
        # the double-where idiom keeps the unselected branch finite
        ("double where", lambda x: snp.where(
            x > 0, snp.sqrt(snp.where(x > 0, x, 1.0)), 0.0), 0.0, 0.0),
    ]
    for what, f, x, want in cases:
        rev, fwd = _orders(f, x, 1)
        assert rev == fwd == want, what
        assert all(np.isfinite(_orders(f, x, 2))), what


def test_logaddexp_at_equal_infinities_splits_evenly():
    g = sciax.grad(snp.logaddexp, (0, 1))(-np.inf, -np.inf)
    _close(np.asarray(g), [0.5, 0.5], "")


# --- reductions over size-0 and size-1 axes -----------------------------------------

@pytest.mark.parametrize("name,fn,want", [
    ("sum", snp.sum, 1.0), ("mean", snp.mean, 1.0), ("prod", snp.prod, 1.0),
    ("max", snp.max, 1.0), ("min", snp.min, 1.0), ("var", snp.var, 0.0),
    ("std", snp.std, 0.0), ("nanstd", snp.nanstd, 0.0), ("median", snp.median, 1.0),
    ("norm", snp.linalg.norm, 1.0), ("ptp", snp.ptp, 0.0),
])
def test_size_one_reductions(name, fn, want):
    x = snp.array([[2.0, -3.0]])  # axis 0 has length 1
    f = lambda v: snp.sum(fn(v, axis=0))  # noqa: E731
    w = np.full((1, 2), want)
    if name == "norm":
        w = np.sign(np.asarray(x))
    _close(np.asarray(sciax.grad(f)(x)), w, f"{name} reverse")
    _close(np.asarray(sciax.jacfwd(f)(x)), w, f"{name} forward")


@pytest.mark.slow
@pytest.mark.parametrize("fn", [snp.std, snp.var, snp.nanstd])
def test_size_one_std_var_have_zero_curvature(fn):
    # constant over a length-1 axis: zero hessian, not nan
    h = sciax.hessian(lambda v: fn(v, axis=0)[0])(snp.array([[2.0, -3.0]]))
    _close(np.asarray(h), np.zeros((1, 2, 1, 2)), "")


def test_std_at_equal_values_uses_the_zero_subgradient():
    g = sciax.grad(snp.std)(snp.full(3, 2.0))
    _close(np.asarray(g), np.zeros(3), "")


@pytest.mark.parametrize("fn", [
    snp.sum, lambda v: snp.sum(v * v), lambda v: snp.max(v, initial=0.0),
    lambda v: snp.sum(snp.cumsum(v)), lambda v: snp.linalg.norm(v),
    lambda v: snp.sum(snp.sort(v)), lambda v: snp.prod(v)],
    ids=["sum", "sumsq", "max-initial", "cumsum", "norm", "sort", "prod"])
def test_size_zero_reductions_give_empty_gradients(fn):
    x = snp.zeros(0)
    for g in (sciax.grad(fn)(x), sciax.jacfwd(fn)(x)):
        assert g.shape == (0,)


def test_mean_of_empty_has_an_empty_gradient():
    # the value is nan (0 / 0, as in NumPy); the gradient has nothing to hold
    assert sciax.grad(snp.mean)(snp.zeros(0)).shape == (0,)


def test_prod_with_zeros_is_the_product_of_the_others():
    _close(np.asarray(sciax.grad(snp.prod)(snp.array([0.0, 2.0, 3.0]))), [6, 0, 0], "")
    _close(np.asarray(sciax.grad(snp.prod)(snp.array([0.0, 0.0, 3.0]))), [0, 0, 0], "")


@pytest.mark.slow
def test_prod_hessian_with_two_zeros():
    h = sciax.hessian(snp.prod)(snp.array([0.0, 0.0, 3.0]))
    _close(np.asarray(h), [[0, 3, 0], [3, 0, 0], [0, 0, 0]], "prod hessian")


# --- the cases reported in issue 12 ---------------------------------------------------

def test_newton_logistic_regression_from_zero_weights():
    # At w = 0 every margin sits on the logaddexp tie: the hessian is
    # X^T diag(p (1 - p)) X with p = 1/2, and must be finite and exact.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 2))
    y = np.array([0.0, 1.0, 1.0, 0.0, 1.0, 1.0])

    def nll(w):
        z = x @ w
        return snp.sum(snp.logaddexp(0.0, z) - y * z)

    w0 = snp.zeros(2)
    h = sciax.hessian(nll)(w0)
    _close(np.asarray(h), 0.25 * x.T @ x, "hessian")
    g = sciax.grad(nll)(w0)
    _close(np.asarray(g), x.T @ (0.5 - y), "gradient")
    step = np.linalg.solve(np.asarray(h), np.asarray(g))  # one Newton step: finite
    assert np.all(np.isfinite(step))


def test_issue_values():
    g = sciax.grad
    _close(float(g(g(lambda z: snp.logaddexp(0.0, z)))(0.0)), 0.25, "logaddexp")
    _close(float(g(g(lambda z: snp.logaddexp2(0.0, z)))(0.0)), math.log(2) / 4,
           "logaddexp2")
    _close(float(g(g(snp.sinc))(0.0)), -math.pi ** 2 / 3, "sinc")
    # d2/dx2 hypot(x, y) = y^2 / r^3 at |x| = |y| = 1
    _close(float(g(g(snp.hypot))(1.0, -1.0)), 2 ** -1.5, "hypot")
    assert float(g(lambda x: snp.power(x, 0.0))(0.0)) == 0.0
    for fn in (snp.std, snp.var):
        gx = g(lambda v: snp.sum(fn(v, axis=0)))(snp.ones((1, 3)))
        assert np.array_equal(np.asarray(gx), np.zeros((1, 3))), fn.__name__


@pytest.mark.parametrize("name,fn,ref,points", [
    ("expm1", lax.expm1, mpmath.expm1, [-40.0, -16.0, -5.0, -1e-8]),
    ("logistic", lax.logistic, lambda x: 1 / (1 + mpmath.exp(-x)),
     [-40.0, 10.0, 20.0, 36.0, 40.0]),
    # near |x| = 1, 1 - x*x cancels: (1 - x)(1 + x)
    ("asin", lax.asin, mpmath.asin, [1 - 2.0**-40, -(1 - 2.0**-30), 0.5]),
    ("acos", lax.acos, mpmath.acos, [1 - 2.0**-40, -(1 - 2.0**-30)]),
    ("atanh", lax.atanh, mpmath.atanh, [1 - 2.0**-40, -(1 - 2.0**-30), 0.5]),
])
def test_unary_derivatives_in_the_tails_are_relatively_accurate(name, fn, ref, points):
    # The tables above allow atol 1e-11, which tiny derivatives always meet.
    # Here the derivatives are small and relative error counts: JAX's rules
    # (expm1(x) + 1, s (1 - s)) cancel there (0 at expm1'(-40) and logistic'(40),
    # 8e-8 relative at expm1'(-16)); e^x and s(x) s(-x) are a few ulp off.
    # The same for 1 - x*x in asin/acos/atanh at 1 - 2^-40: 1e-5 relative.
    for x in points:
        for order in (1, 2):
            want = float(mpmath.diff(ref, mpmath.mpf(x), order))
            rev, fwd = _orders(fn, x, order)
            np.testing.assert_allclose([rev, fwd], want, rtol=1e-14, atol=0,
                                       err_msg=f"{name}: order {order} at {x}")
