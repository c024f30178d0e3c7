"""Scalar root finders against scipy.optimize on SciPy's own test functions
(the classic ``x**3 - 2x - 5``, ``cos(x) - x`` and members of the
``_tstutils`` families), and implicit derivatives against finite differences."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax import optimize as sop

# (sciax f, numpy f, bracket, x0): SciPy's tests of zeros (test_zeros.py,
# _tstutils.py: aps01 = sin(x) - x/2, aps03 = x*exp(-x) family with a=-40,
# aps05 = sin(x) - 1/2, aps11 = (n x - 1)/((n - 1) x) with n=20).
PROBLEMS = [
    (lambda x: x ** 3 - 2 * x - 5, lambda x: x ** 3 - 2 * x - 5, (2.0, 3.0), 2.0),
    (lambda x: snp.cos(x) - x, lambda x: np.cos(x) - x, (0.0, 1.0), 1.0),
    (lambda x: snp.sin(x) - x / 2, lambda x: np.sin(x) - x / 2,
     (np.pi / 2, np.pi), 2.0),
    (lambda x: -40 * x * snp.exp(-x), lambda x: -40 * x * np.exp(-x), (-9.0, 31.0),
     -0.5),
    (lambda x: snp.sin(x) - 0.5, lambda x: np.sin(x) - 0.5, (0.0, 1.5), 0.3),
    (lambda x: (20 * x - 1) / (19 * x), lambda x: (20 * x - 1) / (19 * x),
     (0.01, 1.0), 0.04),
]


@pytest.mark.slow  # compiles one program per method and problem
@pytest.mark.parametrize("name", ["brentq", "brenth", "bisect", "ridder"])
def test_bracketing_matches_scipy(name):
    for f, g, (a, b), _ in PROBLEMS:
        x, r = getattr(sop, name)(f, a, b, full_output=True)
        xs, rs = getattr(so, name)(g, a, b, full_output=True)
        # Same iteration in the same arithmetic: the same root to rounding
        # and the same counts.
        assert abs(float(x) - xs) <= 4e-12 + 4e-15 * abs(xs), (name, float(x), xs)
        assert int(r.iterations) == rs.iterations
        assert int(r.function_calls) == rs.function_calls
        assert r.converged and r.flag == "converged"


@pytest.mark.slow  # compiles one program per method and problem
@pytest.mark.parametrize("kw", [{}, {"fprime": True}, {"fprime": True,
                                                       "fprime2": True}])
def test_newton_secant_halley_match_scipy(kw):
    dfs = [(lambda x: 3 * x ** 2 - 2, lambda x: 6 * x),
           (lambda x: -np.sin(x) - 1, lambda x: -np.cos(x)),
           (lambda x: np.cos(x) - 0.5, lambda x: -np.sin(x))]
    for (f, g, _, x0), (d1, d2) in zip([PROBLEMS[0], PROBLEMS[1], PROBLEMS[2]], dfs):
        skw = {}
        if kw:
            skw["fprime"] = d1
            if "fprime2" in kw:
                skw["fprime2"] = d2
        x, r = sop.newton(f, x0, full_output=True, **kw)
        xs, rs = so.newton(g, x0, full_output=True, **skw)
        np.testing.assert_allclose(float(x), xs, rtol=1e-12)
        assert int(r.iterations) == rs.iterations
        assert int(r.function_calls) == rs.function_calls
        assert r.method == rs.method


@pytest.mark.slow  # compiles one program per method and problem
def test_root_scalar_methods_and_defaults():
    f = PROBLEMS[1][0]
    g = PROBLEMS[1][1]
    for meth in ["brentq", "brenth", "bisect", "ridder"]:
        r = sop.root_scalar(f, bracket=(0.0, 1.0), method=meth)
        s = so.root_scalar(g, bracket=(0.0, 1.0), method=meth)
        np.testing.assert_allclose(float(r.root), s.root, atol=1e-11)
        assert int(r.function_calls) == s.function_calls and r.method == meth
    r = sop.root_scalar(f, x0=1.0, x1=0.5)  # secant by default
    s = so.root_scalar(g, x0=1.0, x1=0.5)
    assert r.method == s.method == "secant"
    np.testing.assert_allclose(float(r.root), s.root, rtol=1e-12)
    # SciPy's fprime=True: f returns (f, f').
    r = sop.root_scalar(lambda x: (snp.cos(x) - x, -snp.sin(x) - 1), x0=1.0,
                        fprime=True)
    s = so.root_scalar(lambda x: (np.cos(x) - x, -np.sin(x) - 1), x0=1.0,
                       fprime=True)
    assert (r.method, int(r.iterations), int(r.function_calls)) == (
        s.method, s.iterations, s.function_calls)
    with pytest.raises(ValueError, match="Unknown solver"):
        sop.root_scalar(f, bracket=(0, 1), method="nope")
    with pytest.raises(ValueError, match="neither bracket"):
        sop.root_scalar(f)


@pytest.mark.slow  # compiles one program per method and problem
def test_errors_and_failure_flags():
    with pytest.raises(ValueError, match="different signs"):
        sop.brentq(lambda x: x ** 2 + 1, 0.0, 1.0)
    with pytest.raises(RuntimeError, match="Failed to converge"):
        sop.bisect(lambda x: x ** 2 - 2, 0.0, 2.0, maxiter=3)
    x, r = sop.bisect(lambda x: x ** 2 - 2, 0.0, 2.0, maxiter=3, disp=False,
                      full_output=True)
    assert r.flag == "convergence error" and not r.converged
    # Under jit no exception can be raised: NaN and a 'sign error' flag.
    out = sciax.jit(lambda a: sop.brentq(lambda x: x ** 2 + a, 0.0, 1.0,
                                         full_output=True)[1])(1.0)
    assert out.flag == "sign error" and np.isnan(float(out.root))
    with pytest.raises(ValueError, match="rtol too small"):
        sop.brentq(lambda x: x, -1.0, 1.0, rtol=1e-20)


def test_array_newton_matches_loop_and_scipy():
    x0 = np.linspace(0.5, 3.0, 7)
    a = np.arange(1.0, 8.0)
    r = sop.newton(lambda x, a: x ** 3 - a, x0, args=(snp.asarray(a),), fprime=True)
    s = so.newton(lambda x, a: x ** 3 - a, x0, args=(a,),
                  fprime=lambda x, a: 3 * x ** 2)
    np.testing.assert_allclose(np.asarray(r), s, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(r), np.cbrt(a), rtol=1e-12)
    root, conv, zero = sop.newton(lambda x: x ** 2 - 4, np.array([1.0, 3.0]),
                                  full_output=True)
    assert np.all(np.asarray(conv)) and not np.any(np.asarray(zero))


@pytest.mark.slow  # compiles one program per method and problem
def test_implicit_derivatives_vs_fd():
    # x*(c) solves x^3 + c x - 5 = 0; compare d x*/dc with central differences of
    # SciPy's root (brentq converged to 2e-12, h = 1e-5: FD error ~ h^2 + 1e-7).
    def s_root(c):
        return so.brentq(lambda x: x ** 3 + c * x - 5, 0.0, 3.0)

    c0, h = 1.3, 1e-5
    fd = (s_root(c0 + h) - s_root(c0 - h)) / (2 * h)
    for name in ["brentq", "brenth", "ridder", "bisect"]:
        fn = getattr(sop, name)
        d = sciax.grad(lambda c: fn(lambda x, c: x ** 3 + c * x - 5, 0.0, 3.0,
                                    args=(c,)))(c0)
        np.testing.assert_allclose(float(d), fd, rtol=1e-6)
    d = sciax.grad(lambda c: sop.newton(lambda x, c: x ** 3 + c * x - 5, 1.5,
                                        fprime=True, args=(c,)))(c0)
    np.testing.assert_allclose(float(d), fd, rtol=1e-6)
    # Forward mode and vmap over the parameter.
    cs = snp.array([0.5, 1.0, 2.0])
    jac = sciax.jacfwd(lambda c: sop.newton(lambda x, c: x ** 3 + c * x - 5,
                                            snp.ones(3) * 1.5, args=(c,)))(cs)
    want = [(s_root(c + h) - s_root(c - h)) / (2 * h) for c in [0.5, 1.0, 2.0]]
    np.testing.assert_allclose(np.diag(np.asarray(jac)), want, rtol=1e-6)
    roots = sciax.vmap(lambda c: sop.brentq(lambda x, c: x ** 3 + c * x - 5, 0.0,
                                            3.0, args=(c,)))(cs)
    np.testing.assert_allclose(np.asarray(roots), [s_root(c) for c in [0.5, 1.0, 2.0]],
                               atol=1e-11)


def _switched(problems):
    """The problems as one function of a traced problem index (one compile)."""
    from sciax import lax

    def f(x, k):
        return lax.switch(k, [lambda x, f=f: f(x) for f, _, _, _ in problems], x)
    return f


@pytest.mark.parametrize("k,count", [(1, 3), pytest.param(1, 6, marks=pytest.mark.slow),
                                     pytest.param(2, 6, marks=pytest.mark.slow)])
def test_toms748_matches_scipy(k, count):
    problems = PROBLEMS[:count]
    f = _switched(problems)
    a = snp.asarray([p[2][0] for p in problems])
    b = snp.asarray([p[2][1] for p in problems])
    idx = snp.arange(len(problems))
    x, r = sciax.vmap(lambda a, b, i: sop.toms748(f, a, b, args=(i,), k=k,
                                                  full_output=True))(a, b, idx)
    for i, (_, g, (lo, hi), _) in enumerate(problems):
        xs, rs = so.toms748(g, lo, hi, k=k, full_output=True)
        # the same iteration: the same root to rounding and the same counts
        assert abs(float(x[i]) - xs) <= 4e-12 + 4e-15 * abs(xs), (i, float(x[i]), xs)
        assert int(r.iterations[i]) == rs.iterations, i
        assert int(r.function_calls[i]) == rs.function_calls, i
    assert all(fl == "converged" for fl in r.flag)


def test_toms748_errors():
    with pytest.raises(ValueError, match="not an interval"):
        sop.toms748(lambda x: x, 1.0, 0.0)
    with pytest.raises(ValueError, match="k too small"):
        sop.toms748(lambda x: x, -1.0, 1.0, k=0)


@pytest.mark.slow  # three compilations
def test_toms748_sign_error_root_scalar_and_grad():
    with pytest.raises(ValueError, match="different signs"):
        sop.toms748(lambda x: x * x + 1.0, -1.0, 1.0)
    r = sop.root_scalar(lambda x, c: x ** 2 - c, args=(2.0,), bracket=(0.0, 2.0),
                        method="toms748")
    assert r.converged and abs(float(r.root) - np.sqrt(2.0)) < 1e-12
    g = sciax.grad(lambda c: sop.toms748(lambda x, c: x ** 2 - c, 0.0, 3.0,
                                         args=(c,)))
    np.testing.assert_allclose(float(g(2.0)), 0.5 / np.sqrt(2.0), rtol=1e-10)


@pytest.mark.parametrize("method", ["brentq", "brenth", "bisect", "ridder", "toms748"])
def test_float32_bracket_converges_to_float32_precision(method):
    # SciPy's default rtol (4 eps of float64) cannot be resolved in float32: the
    # iteration stops at 4 eps of float32 instead of running to maxiter.
    root, r = getattr(sop, method)(lambda x: x ** 3 - 2, np.float32(0),
                                   np.float32(2), full_output=True)
    assert root.dtype == np.float32 and bool(r.converged)
    tol = 4 * np.finfo(np.float32).eps * 2 ** (1 / 3) + 2e-12
    assert abs(float(root) - 2 ** (1 / 3)) <= tol + np.spacing(np.float32(1.26))


@pytest.mark.parametrize("kw", [{}, {"fprime": True}, {"fprime": True, "fprime2": True}])
def test_float32_newton_converges(kw):
    root, r = sop.newton(lambda x: x ** 3 - 2, np.float32(1.5), full_output=True, **kw)
    assert root.dtype == np.float32 and bool(r.converged)
    np.testing.assert_allclose(float(root), 2 ** (1 / 3), rtol=4e-7)
