"""direct against scipy.optimize.direct, known global minima and SciPy's tests.

sciax's DIRECT makes the same divisions as SciPy's C code (Gablonsky's
DIRECT 2.0.4), so on the same function values it samples the same points:
``nfev``, ``nit``, ``status`` and ``message`` are compared exactly and ``x``,
``fun`` to rounding, SciPy getting each function's NumPy twin.  Exact ties
between values decide some of DIRECT's choices, and XLA may round a
function differently from NumPy (it contracts ``a * b + c`` into one fused
operation in optimised builds): on a symmetric function, whose twin points
tie exactly, the last bit then picks one twin or the other.  The test
functions are compared where no such tie decides (54 of 54 SciPy runs agree
at XLA -O0, the slow step's setting); ``x`` may be the mirror image of
SciPy's for the point-symmetric six-hump camel.

One search compiles in ~2 s of CPU (a new function, dimension, variant,
``maxfun`` or ``maxiter`` recompiles; tolerances, ``eps`` and ``args`` do
not), so the default run keeps one program; the function library runs in the
slow step.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import Bounds, direct

SLOW = pytest.mark.slow


def _same_as_scipy(fun, bounds, fun_np=None, **kw):
    """Run both; SciPy gets ``fun_np`` (default: ``fun`` with NumPy)."""
    r = direct(fun, bounds, **kw)
    s = so.direct(fun_np or (lambda x, *a: fun(x, *a, xp=np)), bounds, **kw)
    assert (int(r.nfev), int(r.nit), int(r.status)) == (s.nfev, s.nit, s.status)
    assert r.message == s.message and r.success == s.success
    np.testing.assert_allclose(float(r.fun), s.fun, rtol=1e-13, atol=1e-15)
    x = np.asarray(r.x)
    if not np.allclose(x, s.x, rtol=1e-13, atol=1e-15):  # the mirror-image twin
        np.testing.assert_allclose(float(fun(snp.asarray(s.x))), float(r.fun),
                                   rtol=1e-13)
    return r, s


def styblinski_tang(p, xp=snp):
    return 0.5 * xp.sum(p ** 4 - 16 * p ** 2 + 5 * p)


def branin(x, xp=snp):
    b, c, t = 5.1 / (4 * np.pi ** 2), 5 / np.pi, 1 / (8 * np.pi)
    return (x[1] - b * x[0] ** 2 + c * x[0] - 6) ** 2 + 10 * (1 - t) * xp.cos(x[0]) + 10


BRANIN_MIN = 0.39788735772973816  # 10 (1 - t) cos(pi) + 10 + 0 at (+-pi, ...)


def test_branin_as_scipy_every_stop():
    """Branin's function with each of DIRECT-L's stopping rules: SciPy's
    evaluations, iterations and stop (one compiled program: the tolerances
    are operands)."""
    b = so.Bounds([-5.0, 0.0], [10.0, 15.0])  # SciPy takes only its own Bounds
    r, _ = _same_as_scipy(branin, b, len_tol=1e-3)
    assert int(r.status) == 5
    r, _ = _same_as_scipy(branin, b, vol_tol=1e-7)
    assert int(r.status) == 4
    r, _ = _same_as_scipy(branin, b, f_min=BRANIN_MIN, f_min_rtol=1e-6)
    assert int(r.status) == 3 and float(r.fun) <= BRANIN_MIN * (1 + 1e-6)
    r, _ = _same_as_scipy(branin, b)
    assert int(r.status) == 1 and int(r.nfev) >= 2000
    # one of the three global minimisers
    assert np.min(np.abs(np.asarray(r.x)[0] - np.array([-np.pi, np.pi, 9.42478]))) < 1e-3


@pytest.mark.parametrize("kw, match", [
    (dict(bounds="bounds"), "bounds must be a sequence or instance of Bounds"),
    (dict(bounds=so.Bounds([-1.0, -1.0], [-2.0, 1.0])), "not consistent min < max"),
    (dict(bounds=[(-1.0, 1.0), (2.0, 2.0)]), "not consistent min < max"),
    (dict(bounds=[(-np.inf, 1.0), (0.0, 1.0)]), "Bounds must not be inf"),
    (dict(vol_tol=2.0), "vol_tol must be between 0 and 1"),
    (dict(len_tol=-1.0), "len_tol must be between 0 and 1"),
    (dict(f_min_rtol=2.0, f_min=0.0), "f_min_rtol must be between 0 and 1"),
    (dict(maxfun=1.5), "maxfun must be of type int"),
    (dict(maxiter=-1), "maxiter must be > 0"),
    (dict(locally_biased="bias"), "locally_biased must be True or False"),
])
def test_bad_input_as_scipy(kw, match):
    kw = dict(dict(bounds=[(-4.0, 4.0)] * 2), **kw)
    with pytest.raises(ValueError, match=match):
        direct(styblinski_tang, **kw)
    with pytest.raises(ValueError, match=match):
        so.direct(lambda x: 0.0, **kw)


# --- the function library (slow step) --------------------------------------------------

def six_hump_camel(x, xp=snp):
    a, b = x[0], x[1]
    return (4 - 2.1 * a ** 2 + a ** 4 / 3) * a ** 2 + a * b + (-4 + 4 * b ** 2) * b ** 2


def goldstein_price(x, xp=snp):
    a, b = x[0], x[1]
    u = 1 + (a + b + 1) ** 2 * (19 - 14 * a + 3 * a ** 2 - 14 * b + 6 * a * b + 3 * b ** 2)
    v = 30 + (2 * a - 3 * b) ** 2 * (18 - 32 * a + 12 * a ** 2 + 48 * b - 36 * a * b
                                     + 27 * b ** 2)
    return u * v


_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])
_A3 = np.array([[3.0, 10, 30], [0.1, 10, 35], [3.0, 10, 30], [0.1, 10, 35]])
_P3 = 1e-4 * np.array([[3689.0, 1170, 2673], [4699, 4387, 7470], [1091, 8732, 5547],
                       [381, 5743, 8828]])
_A6 = np.array([[10.0, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14],
                [3, 3.5, 1.7, 10, 17, 8], [17, 8, 0.05, 10, 0.1, 14]])
_P6 = 1e-4 * np.array([[1312.0, 1696, 5569, 124, 8283, 5886],
                       [2329, 4135, 8307, 3736, 1004, 9991],
                       [2348, 1451, 3522, 2883, 3047, 6650],
                       [4047, 8828, 8732, 5743, 1091, 381]])
_C = np.array([[4.0, 4, 4, 4], [1, 1, 1, 1], [8, 8, 8, 8], [6, 6, 6, 6], [3, 7, 3, 7],
               [2, 9, 2, 9], [5, 5, 3, 3], [8, 1, 8, 1], [6, 2, 6, 2], [7, 3.6, 7, 3.6]])
_BETA = 0.1 * np.array([1.0, 2, 2, 4, 4, 6, 3, 7, 5, 5])


def hartmann3(x, xp=snp):
    return -xp.sum(_ALPHA * xp.exp(-xp.sum(_A3 * (x - _P3) ** 2, axis=1)))


def hartmann6(x, xp=snp):
    return -xp.sum(_ALPHA * xp.exp(-xp.sum(_A6 * (x - _P6) ** 2, axis=1)))


def shekel10(x, xp=snp):
    return -xp.sum(1.0 / (xp.sum((x - _C) ** 2, axis=1) + _BETA))


def sphere(x, xp=snp):
    return xp.sum(x * x)


# (function, bounds, global minimum, its tolerance on ``fun`` at f_min_rtol=1e-4):
# Branin, camel, Goldstein-Price, Hartmann and Shekel from Dixon and Szego's
# test set (minima as in Jamil & Yang 2013, "A literature survey of benchmark
# functions for global optimization problems")
LIBRARY = {
    "branin": (branin, [(-5.0, 10.0), (0.0, 15.0)], BRANIN_MIN),
    "six_hump_camel": (six_hump_camel, [(-3.0, 3.0), (-2.0, 2.0)], -1.0316284534898774),
    "goldstein_price": (goldstein_price, [(-2.0, 2.0)] * 2, 3.0),
    "hartmann3": (hartmann3, [(0.0, 1.0)] * 3, -3.862779787332),
    "hartmann6": (hartmann6, [(0.0, 1.0)] * 6, -3.322368011391339),
    "shekel10": (shekel10, [(0.0, 10.0)] * 4, -10.536409816692046),
    "sphere": (sphere, [(-2.0, 3.0)] * 4, 0.0),
}


@SLOW
@pytest.mark.parametrize("locally_biased", [True, False])
@pytest.mark.parametrize("name", list(LIBRARY))
def test_library_as_scipy_and_known_minima(name, locally_biased):
    """Default options (the maxfun stop, or vol_tol for Hartmann 6 and Shekel
    with DIRECT-L) and the f_min stop: the same run as SciPy, and the known
    minimum reached (within f_min_rtol, or within 1e-4 of the scale at the
    maxfun / vol_tol stop)."""
    fun, bounds, fmin = LIBRARY[name]
    r, _ = _same_as_scipy(fun, bounds, locally_biased=locally_biased)
    assert abs(float(r.fun) - fmin) <= 1e-4 * max(1.0, abs(fmin))
    r, _ = _same_as_scipy(fun, bounds, locally_biased=locally_biased, f_min=fmin,
                          f_min_rtol=1e-4, len_tol=1e-10, vol_tol=0.0)
    if int(r.status) == 3:
        assert (float(r.fun) - fmin) / max(abs(fmin), 1.0) <= 1e-4
    else:  # the budget ran out first, as in SciPy
        assert int(r.status) == 1


@SLOW
@pytest.mark.parametrize("locally_biased", [True, False])
def test_scipy_tests(locally_biased):
    """scipy/optimize/tests/test_direct.py: the sphere with nfev equal to
    the calls made, bounds objects, the maxfun / maxiter failures and their
    messages, len_tol / vol_tol stops, a function of args, NaN and inf."""
    calls = []

    def counted(x):
        return sciax.pure_callback(lambda v: calls.append(1) or np.float64(
            np.sum(np.square(v))), sciax.ShapeDtypeStruct((), snp.float64), x)

    r = direct(counted, 4 * [(-2, 3)], maxfun=600, locally_biased=locally_biased)
    assert int(r.nfev) == len(calls) and int(r.nit) <= 1000
    assert float(r.fun) < 1e-2 and np.all(np.abs(np.asarray(r.x)) < 0.1)
    # SciPy's len_tol, vol_tol and f_min tests (the minimum at the centre of
    # the box, where DIRECT starts: x is exactly 0)
    for len_tol in (1e-3, 1e-4):
        r = direct(sphere, 4 * [(-10.0, 10.0)], len_tol=len_tol, vol_tol=1e-30,
                   locally_biased=locally_biased)
        assert int(r.status) == 5 and r.success
        assert np.all(np.asarray(r.x) == 0)
        assert r.message == ("The side length measure of the hyperrectangle "
                             "containing the lowest function value found is below "
                             f"len_tol={len_tol}")
    for vol_tol in (1e-6, 1e-8):
        r = direct(sphere, 4 * [(-10.0, 10.0)], vol_tol=vol_tol, len_tol=0.0,
                   locally_biased=locally_biased)
        assert int(r.status) == 4 and r.success and np.all(np.asarray(r.x) == 0)
        assert r.message == ("The volume of the hyperrectangle containing the "
                             f"lowest function value found is below vol_tol={vol_tol}")
    for rtol in (1e-3, 1e-5, 1e-7):
        r = direct(sphere, 4 * [(-2.0, 10.0)], f_min=1.0, f_min_rtol=rtol,
                   locally_biased=locally_biased)
        assert int(r.status) == 3 and float(r.fun) < 1.0 + rtol
        assert r.message == ("The best function value found is within a relative "
                             f"error={rtol} of the (known) global optimum f_min")
    b = so.Bounds([-4.0, -4.0], [4.0, 4.0])  # SciPy takes only its own Bounds
    r, _ = _same_as_scipy(styblinski_tang, b, maxfun=100, locally_biased=locally_biased)
    assert not r.success and int(r.status) == 1 and int(r.nfev) >= 100
    assert r.message == "Number of function evaluations done is larger than maxfun=100"
    r, _ = _same_as_scipy(styblinski_tang, b, maxiter=10, locally_biased=locally_biased)
    assert not r.success and int(r.status) == 2 and int(r.nit) >= 10
    old = direct(sphere, [(-6.0, -1.0), (1.0, 3.0), (-5.0, 5.0)],
                 locally_biased=locally_biased)
    new = direct(sphere, Bounds([-6.0, 1.0, -5.0], [-1.0, 3.0, 5.0]),
                 locally_biased=locally_biased)
    assert (int(old.nfev), int(old.nit)) == (int(new.nfev), int(new.nit))
    np.testing.assert_allclose(np.asarray(new.x), [-1.0, 1.0, 0.0], rtol=1e-2)

    def circle(x, a, b):
        return (x[0] - a) ** 2 + (x[1] - b) ** 2

    r = direct(circle, 2 * [(-2.0, 2.0)], args=(1.0, 1.0), maxfun=1250,
               locally_biased=locally_biased)
    np.testing.assert_allclose(np.asarray(r.x), [1.0, 1.0], rtol=1e-5)
    # NaN values rank as +inf (SciPy's C code compares NaNs as it happens to);
    # neither crashes, and the budget stops both
    for bad in (lambda x: snp.nan * x[0], lambda x: snp.inf * (1 + x[0] ** 2)):
        r = direct(bad, 2 * [(-5.0, 5.0)], locally_biased=locally_biased)
        assert int(r.status) == 1 and int(r.nfev) > 2000


@SLOW
@pytest.mark.parametrize("locally_biased", [True, False])
def test_eps_callback_and_short_runs(locally_biased):
    b = so.Bounds([-4.0, -4.0], [4.0, 4.0])  # SciPy takes only its own Bounds
    for eps in (1e-5, 1e-3, -1e-4):  # negative: Jones' update of eps
        _same_as_scipy(styblinski_tang, b, eps=eps, vol_tol=1e-6,
                       locally_biased=locally_biased)
    for maxiter in (1, 3):
        _same_as_scipy(styblinski_tang, b, maxiter=maxiter, maxfun=300,
                       locally_biased=locally_biased)
    mine, theirs = [], []
    r = direct(styblinski_tang, b, len_tol=1e-4, locally_biased=locally_biased,
               callback=lambda x: mine.append(np.array(x)))
    so.direct(lambda x: styblinski_tang(x, np), b, len_tol=1e-4,
              locally_biased=locally_biased, callback=lambda x: theirs.append(1))
    # one call per completed iteration, as SciPy; the last with the best point
    assert len(mine) == len(theirs) == int(r.nit) - 2
    assert float(styblinski_tang(snp.asarray(mine[-1]))) <= float(r.fun) + 1e-6


@SLOW
def test_jit_and_vmap_over_args_equal_eager_and_scipy():
    def circle(x, a, b, xp=None):
        return (x[0] - a) ** 2 + (x[1] - b) ** 2

    bounds = [(-2.0, 2.0)] * 2
    A = np.array([0.3, -0.7, 1.1])
    res = sciax.vmap(lambda a: direct(circle, bounds, args=(a, 1.0), len_tol=1e-4))(
        snp.asarray(A))
    jitted = sciax.jit(lambda a: direct(circle, bounds, args=(a, 1.0), len_tol=1e-4))
    for i, a in enumerate(A):
        s = so.direct(circle, bounds, args=(a, 1.0), len_tol=1e-4)
        j = jitted(a)
        for r in (j, {k: np.asarray(v)[i] for k, v in res.items() if k[0] != "_"}):
            assert (int(r["nfev"]), int(r["nit"]), int(r["status"])) == (
                s.nfev, s.nit, s.status)
            np.testing.assert_allclose(np.asarray(r["x"]), s.x, rtol=1e-15, atol=1e-15)
    assert res.message == [s.message] * 3
