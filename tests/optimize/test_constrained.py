"""Constrained ``minimize`` (SLSQP) on Hock-Schittkowski problems against the
book's optima and SciPy's SLSQP, the constraint objects, and the implicit
derivative of a constrained minimiser (KKT system, active set held)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import LinearConstraint, NonlinearConstraint, minimize

from tests.optimize.hock_schittkowski import HS


def _solve(p):
    return minimize(lambda x: p.fun(x, snp), snp.asarray(p.x0), method="SLSQP",
                    bounds=p.bounds, constraints=p.constraints(snp))


def _check(p, r):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = so.minimize(lambda x: p.fun(x, np), p.x0, method="SLSQP", bounds=p.bounds,
                        constraints=p.constraints(np))
    assert r.success and int(r.status) == 0, (p.name, r.message)
    # the published optimum (given to 7-10 digits), as close as SciPy gets
    err = abs(float(r.fun) - p.fstar)
    assert err <= max(2 * abs(s.fun - p.fstar), 1e-7 * (1 + abs(p.fstar))), (
        p.name, float(r.fun), s.fun, p.fstar)
    np.testing.assert_allclose(np.asarray(r.x), p.xstar, atol=2e-5, err_msg=p.name)
    # the same SQP iteration (QP solved differently): iterations within 1.5x
    assert int(r.nit) <= max(1.5 * s.nit, s.nit + 2), (p.name, int(r.nit), s.nit)


@pytest.mark.parametrize("name", ["hs71", pytest.param("hs6", marks=pytest.mark.slow),
                                  *[pytest.param(k, marks=pytest.mark.slow)
                                    for k in ("hs7", "hs21", "hs35", "hs39", "hs76")]])
def test_hock_schittkowski(name):
    _check(HS[name], _solve(HS[name]))


@pytest.mark.slow
def test_constraint_objects_hs35():
    # HS 35 with its inequality as a LinearConstraint and bounds as Bounds-like
    # pairs; the default method with constraints is SLSQP (as SciPy).
    p = HS["hs35"]
    lin = LinearConstraint([[1.0, 1.0, 2.0]], -np.inf, 3.0)
    r = minimize(lambda x: p.fun(x, snp), snp.asarray(p.x0), bounds=p.bounds,
                 constraints=lin)
    _check(p, r)


@pytest.mark.slow
def test_nonlinear_constraint_two_sided_hs71():
    p = HS["hs71"]
    nl = [NonlinearConstraint(lambda x: snp.sum(x ** 2), 40.0, 40.0),
          NonlinearConstraint(lambda x: snp.prod(x), 25.0, np.inf)]
    r = minimize(lambda x: p.fun(x, snp), snp.asarray(p.x0), bounds=p.bounds,
                 constraints=nl)
    _check(p, r)


@pytest.mark.slow  # a heavy compile (default-run budget): runs in CI's slow step
def test_implicit_derivative_active_constraint():
    # max a.x on the unit disk: x* = a / |a|, dx*/da = (I - x x') / |a|, with
    # the (nonlinear) constraint active; reverse mode through the KKT system.
    disk = {"type": "ineq", "fun": lambda x: 1.0 - x[0] ** 2 - x[1] ** 2}

    def sol(a):
        return minimize(lambda x, a: -snp.dot(a, x), snp.array([0.1, 0.0]), args=(a,),
                        constraints=[disk], options={"ftol": 1e-12}).x

    a = np.array([1.5, 0.8])
    J = np.asarray(sciax.jacrev(sol)(snp.asarray(a)))
    x = a / np.linalg.norm(a)
    np.testing.assert_allclose(np.asarray(sol(snp.asarray(a))), x, atol=1e-8)
    np.testing.assert_allclose(J, (np.eye(2) - np.outer(x, x)) / np.linalg.norm(a),
                               atol=1e-6)


@pytest.mark.slow
def test_implicit_derivative_active_bound_and_linear():
    # min (x0 - a)^2 + (x1 - 2)^2 + x2^2  s.t. x0 + x1 <= 1, x2 >= 0.5 (bound):
    # x = ((a - 1)/2, (3 - a)/2, 0.5), dx/da = (1/2, -1/2, 0); f too.
    def f(x, a):
        return (x[0] - a) ** 2 + (x[1] - 2.0) ** 2 + x[2] ** 2

    lin = LinearConstraint([[1.0, 1.0, 0.0]], -np.inf, 1.0)
    bounds = [(None, None), (None, None), (0.5, None)]

    def sol(a):
        r = minimize(f, snp.zeros(3), args=(a,), bounds=bounds, constraints=lin,
                     options={"ftol": 1e-12})
        return r.x, r.fun

    a = 0.3
    dx = np.asarray(sciax.jacrev(lambda a: sol(a)[0])(snp.float64(a)))
    np.testing.assert_allclose(dx, [0.5, -0.5, 0.0], atol=1e-6)
    # f* = (a + 1)^2 / 2 + 0.25  ->  df/da = a + 1
    df = float(sciax.grad(lambda a: sol(a)[1])(snp.float64(a)))
    np.testing.assert_allclose(df, a + 1.0, rtol=1e-6)


def test_errors_and_warnings():
    f = lambda x: snp.sum(x ** 2)  # noqa: E731
    with pytest.raises(ValueError, match="'eq' or 'ineq'"):
        minimize(f, snp.ones(2), constraints={"type": "le", "fun": lambda x: x[0]})
    with pytest.raises(ValueError, match="lower bound is greater"):
        NonlinearConstraint(lambda x: x, 1.0, 0.0)
    with pytest.raises(TypeError, match="constraints must be"):
        minimize(f, snp.ones(2), constraints=[3.0])
    with pytest.raises(ValueError, match="more equality constraints"):
        minimize(f, snp.ones(1), constraints=[LinearConstraint(np.eye(2)[:, :1], 0, 0)
                                              ] * 2)


@pytest.mark.slow
def test_other_methods_warn_and_ignore_constraints():
    with pytest.warns(RuntimeWarning, match="cannot handle constraints"):
        r = minimize(lambda x: snp.sum(x ** 2), snp.ones(2), method="BFGS",
                     constraints={"type": "eq", "fun": lambda x: x[0] - 1})
    np.testing.assert_allclose(np.asarray(r.x), 0.0, atol=1e-6)


@pytest.mark.slow
def test_inconsistent_linearisation_is_relaxed():
    # At the origin the circle constraint's Jacobian vanishes: the linearised
    # constraint 0 d = 1 has no solution.  The relaxed QP steps anyway and the
    # iteration reaches the minimiser of x + y on the circle, (-1, -1)/sqrt(2)
    # (SciPy's SLSQP ends at the maximiser (1, 1)/sqrt(2) from here).
    circle = {"type": "eq", "fun": lambda x: x[0] ** 2 + x[1] ** 2 - 1.0}
    r = minimize(lambda x: x[0] + x[1], snp.zeros(2), method="SLSQP",
                 constraints=[circle])
    assert r.success
    np.testing.assert_allclose(np.asarray(r.x), -np.sqrt(0.5), atol=1e-6)
    # two disks' linearisations are incompatible at the origin; SciPy stops
    # with status 4 there, sciax's relaxed QP goes on to the answer (2.5, 0)
    cons = [{"type": "ineq", "fun": lambda x: x[0] ** 2 + x[1] ** 2 - 1.0},
            {"type": "ineq", "fun": lambda x: 0.25 - (x[0] - 3.0) ** 2 - x[1] ** 2}]
    r = minimize(lambda x: x[0] ** 2 + x[1] ** 2, snp.zeros(2), method="SLSQP",
                 constraints=cons)
    assert r.success
    np.testing.assert_allclose(np.asarray(r.x), [2.5, 0.0], atol=1e-6)


@pytest.mark.slow
def test_vmap_over_starts_equals_loop():
    # per-lane iterates, statuses and counters under vmap (HS 71 from three
    # feasible-box starts)
    p = HS["hs71"]
    f = lambda x: p.fun(x, snp)  # noqa: E731
    cons = p.constraints(snp)
    starts = np.array([p.x0, [1.5, 4.0, 4.0, 1.5], [2.0, 3.0, 3.0, 2.0]])
    rv = sciax.vmap(lambda x0: minimize(f, x0, method="SLSQP", bounds=p.bounds,
                                        constraints=cons))(snp.asarray(starts))
    for i, x0 in enumerate(starts):
        r = minimize(f, snp.asarray(x0), method="SLSQP", bounds=p.bounds,
                     constraints=cons)
        np.testing.assert_allclose(np.asarray(rv.x)[i], np.asarray(r.x), atol=1e-10)
        assert int(rv.nit[i]) == int(r.nit) and int(rv.status[i]) == int(r.status)
