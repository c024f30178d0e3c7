"""``minimize(method='trust-constr')`` against SciPy's trust-constr and the
Hock-Schittkowski optima.

sciax uses the exact Hessian of the Lagrangian; SciPy's default is a BFGS
approximation, so the reference runs here give SciPy the same exact
derivatives (``jac``, ``hess`` and the constraints' ``jac``/``hess``, from
sciax's autodiff, jitted).  With them SciPy's algorithm and sciax's walk the
same iterates: solutions agree to rounding, and iteration and evaluation
counts are equal.  Each compile takes several seconds, so the solves are
marked slow; the validation tests run by default.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import (Bounds, LinearConstraint, NonlinearConstraint,
                            TrustConstrSolver, minimize, rosen)

from tests.optimize.hock_schittkowski import HS


def _scipy_exact(fun, x0, cons=(), bounds=None, **options):
    """SciPy's trust-constr with exact derivatives.  ``cons``: sequence of
    ``(c, lb, ub)`` with ``c`` written with sciax."""
    f = sciax.jit(fun)
    g = sciax.jit(sciax.grad(fun))
    h = sciax.jit(sciax.hessian(fun))
    sc = []
    for c, lb, ub in cons:
        cj = sciax.jit(c)
        jj = sciax.jit(sciax.jacfwd(c))
        hh = sciax.jit(lambda x, v, c=c: sciax.hessian(lambda y: snp.dot(v, c(y)))(x))
        sc.append(so.NonlinearConstraint(
            (lambda cj: lambda x: np.asarray(cj(snp.asarray(x))))(cj), lb, ub,
            jac=(lambda jj: lambda x: np.asarray(jj(snp.asarray(x))))(jj),
            hess=(lambda hh: lambda x, v: np.asarray(hh(snp.asarray(x),
                                                        snp.asarray(v))))(hh)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return so.minimize(lambda x: float(f(snp.asarray(x))), np.asarray(x0, float),
                           jac=lambda x: np.asarray(g(snp.asarray(x))),
                           hess=lambda x: np.asarray(h(snp.asarray(x))),
                           method="trust-constr", bounds=bounds, constraints=sc,
                           options=options)


def _same_run(r, s, atol=1e-9):
    """Same algorithm, same derivatives: same iterates and counts.  The
    evaluation count may differ by one or two: whether a step needs a second-
    order correction (one more evaluation) can turn on rounding, which differs
    between CPUs (on the bounds-only problem: SciPy 18, sciax 18 on an Intel
    Xeon and 19 on an AMD EPYC with AVX-512, same iterates)."""
    np.testing.assert_allclose(np.asarray(r.x), s.x, atol=atol, rtol=1e-9)
    assert int(r.nit) == s.nit and int(r.status) == s.status, (
        int(r.nit), s.nit, int(r.status), s.status)
    assert abs(int(r.nfev) - s.nfev) <= 2, (int(r.nfev), s.nfev)
    assert int(r.cg_niter) == s.cg_niter
    assert r.method == s.method


def _hs_cons(p):
    return ([((lambda c: lambda x: c(x, snp))(c), 0.0, 0.0) for c in p.eq]
            + [((lambda c: lambda x: c(x, snp))(c), 0.0, np.inf) for c in p.ineq])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hs6", "hs7", "hs21", "hs35", "hs39", "hs71",
                                  "hs76"])
def test_hock_schittkowski(name):
    p = HS[name]
    fun = lambda x: p.fun(x, snp)  # noqa: E731
    r = minimize(fun, snp.asarray(p.x0), method="trust-constr", bounds=p.bounds,
                 constraints=p.constraints(snp))
    s = _scipy_exact(fun, p.x0, _hs_cons(p), p.bounds)
    assert r.success and int(r.status) == 1, (name, r.message)
    _same_run(r, s)
    # the published optimum, as close as SciPy's trust-constr gets (the
    # barrier method stops with the barrier parameter at ~1e-4 on some, so
    # HS 21/35/71/76 are within 1e-4 relative, the equality ones to 1e-12)
    err = abs(float(r.fun) - p.fstar)
    assert err <= max(1.01 * abs(s.fun - p.fstar), 1e-7 * (1 + abs(p.fstar))), (
        name, float(r.fun), s.fun, p.fstar)
    assert err <= 1e-4 * (1 + abs(p.fstar))
    np.testing.assert_allclose(np.asarray(r.x), p.xstar, atol=1e-3, err_msg=name)
    assert float(r.constr_violation) <= 1e-8 and float(r.optimality) < 1e-8


@pytest.mark.slow
def test_equality_only_multipliers_and_fields():
    # min x0^2 + 2 x1^2 + x2^2 s.t. x0 + x1 + x2 = 1 (linear) and
    # x0^2 + x1^2 = 0.5 (nonlinear): the SQP method; multipliers per
    # constraint of fun(x) itself (SciPy's sign: grad L = grad f + J' v)
    lin = LinearConstraint([[1.0, 1.0, 1.0]], 1.0, 1.0)
    circ = NonlinearConstraint(lambda x: x[0] ** 2 + x[1] ** 2, 0.5, 0.5)
    fun = lambda x: x[0] ** 2 + 2 * x[1] ** 2 + x[2] ** 2  # noqa: E731
    x0 = [1.0, 0.5, 0.0]
    r = minimize(fun, snp.asarray(x0), method="trust-constr", constraints=[lin, circ])
    s = _scipy_exact(fun, x0, [(lambda x: snp.sum(x)[None], 1.0, 1.0),
                               (lambda x: (x[0] ** 2 + x[1] ** 2)[None], 0.5, 0.5)])
    _same_run(r, s)
    assert r.method == "equality_constrained_sqp" and r.success
    for a, b in zip(r.v, s.v):
        np.testing.assert_allclose(np.asarray(a), b, rtol=1e-7, atol=1e-10)
    lg = np.asarray(r.grad) + sum(np.asarray(J).T @ np.asarray(v)
                                  for J, v in zip(r.jac, r.v))
    np.testing.assert_allclose(np.asarray(r.lagrangian_grad), lg, atol=1e-12)
    np.testing.assert_allclose(np.asarray(r.constr[0]), [1.0], atol=1e-10)
    np.testing.assert_allclose(np.asarray(r.constr[1]), [0.5], atol=1e-10)
    np.testing.assert_allclose(np.asarray(r.jac[0]), [[1.0, 1.0, 1.0]])


@pytest.mark.slow
def test_inequality_only_matches_scipy():
    # max x0 + 2 x1 in the unit disk: the barrier method; SciPy stops where
    # gtol holds with the barrier parameter still 8e-4, and so does sciax
    disk = NonlinearConstraint(lambda x: x[0] ** 2 + x[1] ** 2, -np.inf, 1.0)
    fun = lambda x: -x[0] - 2 * x[1]  # noqa: E731
    r = minimize(fun, snp.zeros(2), method="trust-constr", constraints=disk)
    s = _scipy_exact(fun, [0.0, 0.0],
                     [(lambda x: (x[0] ** 2 + x[1] ** 2)[None], -np.inf, 1.0)])
    _same_run(r, s)
    np.testing.assert_allclose(float(r.barrier_parameter), s.barrier_parameter)
    np.testing.assert_allclose(np.asarray(r.v[0]), s.v[0], rtol=1e-6)
    # (|x|^2 = 1 - 6.5e-4 there: the slack of the last barrier problem)
    np.testing.assert_allclose(np.asarray(r.x), np.array([1, 2]) / np.sqrt(5),
                               atol=5e-4)


@pytest.mark.slow
def test_bounds_only_matches_scipy():
    b = Bounds([-2.0, 0.0], [0.5, 0.2])
    r = minimize(rosen, snp.array([-1.0, 0.5]), method="trust-constr", bounds=b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = so.minimize(so.rosen, [-1.0, 0.5], jac=so.rosen_der, hess=so.rosen_hess,
                        method="trust-constr", bounds=so.Bounds(b.lb, b.ub))
        # SciPy's default (BFGS hessian) reaches the same point
        sd = so.minimize(so.rosen, [-1.0, 0.5], method="trust-constr",
                         bounds=so.Bounds(b.lb, b.ub))
    _same_run(r, s)
    np.testing.assert_allclose(np.asarray(r.v[0]), s.v[0], rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(np.asarray(r.x), sd.x, atol=1e-4)
    assert r.method == "tr_interior_point"


@pytest.mark.slow
def test_mixed_constraint_objects_hs71():
    # HS 71 as a two-sided NonlinearConstraint pair and a Bounds object; SciPy's
    # default run (BFGS hessian) agrees to its accuracy, the exact-hessian one
    # to rounding
    p = HS["hs71"]
    nl = [NonlinearConstraint(lambda x: snp.sum(x ** 2), 40.0, 40.0),
          NonlinearConstraint(lambda x: snp.prod(x), 25.0, np.inf)]
    fun = lambda x: p.fun(x, snp)  # noqa: E731
    r = minimize(fun, snp.asarray(p.x0), method="trust-constr",
                 bounds=Bounds(1.0, 5.0), constraints=nl)
    s = _scipy_exact(fun, p.x0, [(lambda x: snp.sum(x ** 2)[None], 40.0, 40.0),
                                 (lambda x: snp.prod(x)[None], 25.0, np.inf)],
                     so.Bounds(1.0, 5.0))
    _same_run(r, s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sd = so.minimize(lambda x: p.fun(x, np), p.x0, method="trust-constr",
                         bounds=so.Bounds(1.0, 5.0), constraints=[
                             so.NonlinearConstraint(lambda x: np.sum(x ** 2), 40, 40),
                             so.NonlinearConstraint(np.prod, 25.0, np.inf)])
    np.testing.assert_allclose(np.asarray(r.x), sd.x, atol=1e-4)
    assert len(r.v) == 3 and np.asarray(r.v[2]).shape == (4,)  # bounds last


@pytest.mark.slow
def test_unconstrained_tol_and_solver_object():
    # no constraints: the SQP method with no constraints (a trust-region
    # Newton-CG); tol maps to gtol, xtol and barrier_tol as SciPy
    r = minimize(rosen, snp.array([-1.0, 0.5]), method="trust-constr", tol=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = so.minimize(so.rosen, [-1.0, 0.5], jac=so.rosen_der, hess=so.rosen_hess,
                        method="trust-constr", tol=1e-10)
    _same_run(r, s)
    r2 = minimize(rosen, snp.array([-1.0, 0.5]),
                  method=TrustConstrSolver(gtol=1e-10, xtol=1e-10))
    np.testing.assert_allclose(np.asarray(r2.x), np.asarray(r.x), atol=0)
    assert r.v == [] and r.method == "equality_constrained_sqp"


@pytest.mark.slow
def test_maxiter_status_and_callback():
    p = HS["hs71"]
    fun = lambda x: p.fun(x, snp)  # noqa: E731
    seen = []
    r = minimize(fun, snp.asarray(p.x0), method="trust-constr", bounds=p.bounds,
                 constraints=p.constraints(snp), options={"maxiter": 5},
                 callback=lambda xk, state: seen.append(float(state.fun)))
    s = _scipy_exact(fun, p.x0, _hs_cons(p), p.bounds, maxiter=5)
    assert int(r.status) == 0 and not r.success and int(r.nit) == 5
    assert r.message == s.message
    _same_run(r, s)
    assert len(seen) == 5  # once per iteration, as SciPy's callback


@pytest.mark.slow
def test_jit_equals_eager_and_vmap():
    p = HS["hs35"]
    fun = lambda x: p.fun(x, snp)  # noqa: E731
    cons = p.constraints(snp)

    def solve(x0):
        r = minimize(fun, x0, method="trust-constr", bounds=p.bounds, constraints=cons)
        return r.x, r.nit, r.status

    starts = np.array([p.x0, [1.0, 0.2, 0.3], [0.1, 1.0, 0.5]])
    xe, ne, se = solve(snp.asarray(starts[0]))
    xj, nj, sj = sciax.jit(solve)(snp.asarray(starts[0]))
    np.testing.assert_allclose(np.asarray(xj), np.asarray(xe), atol=1e-13)
    assert int(nj) == int(ne) and int(sj) == int(se) == 1
    xv, nv, sv = sciax.vmap(solve)(snp.asarray(starts))
    for i, x0 in enumerate(starts):
        xi, ni, si = solve(snp.asarray(x0))
        np.testing.assert_allclose(np.asarray(xv)[i], np.asarray(xi), atol=1e-10)
        assert int(nv[i]) == int(ni) and int(sv[i]) == int(si)


@pytest.mark.slow
def test_implicit_derivative_active_inequality():
    # max a.x on the unit disk: x* = a/|a|, dx*/da = (I - x x')/|a|.  The
    # barrier method stops ~1e-5 inside the disk; the constraint counts as
    # active by its multiplier, and the KKT rule gives the derivative to the
    # solution's accuracy.
    disk = {"type": "ineq", "fun": lambda x: 1.0 - x[0] ** 2 - x[1] ** 2}

    def sol(a):
        return minimize(lambda x, a: -snp.dot(a, x), snp.array([0.1, 0.0]),
                        args=(a,), method="trust-constr", constraints=[disk]).x

    a = np.array([1.5, 0.8])
    x = a / np.linalg.norm(a)
    np.testing.assert_allclose(np.asarray(sol(snp.asarray(a))), x, atol=5e-5)
    J = np.asarray(sciax.jacrev(sol)(snp.asarray(a)))
    np.testing.assert_allclose(J, (np.eye(2) - np.outer(x, x)) / np.linalg.norm(a),
                               atol=1e-4)


@pytest.mark.slow
def test_implicit_derivative_bound_and_linear():
    # min (x0 - a)^2 + (x1 - 2)^2 + x2^2  s.t. x0 + x1 <= 1, x2 >= 0.5:
    # x = ((a - 1)/2, (3 - a)/2, 0.5), dx/da = (1/2, -1/2, 0), df/da = a + 1
    def f(x, a):
        return (x[0] - a) ** 2 + (x[1] - 2.0) ** 2 + x[2] ** 2

    lin = LinearConstraint([[1.0, 1.0, 0.0]], -np.inf, 1.0)
    bounds = [(None, None), (None, None), (0.5, None)]

    def sol(a):
        r = minimize(f, snp.zeros(3), args=(a,), bounds=bounds, constraints=lin,
                     method="trust-constr")
        return r.x, r.fun

    a = 0.3
    dx = np.asarray(sciax.jacrev(lambda a: sol(a)[0])(snp.float64(a)))
    np.testing.assert_allclose(dx, [0.5, -0.5, 0.0], atol=1e-6)
    df = float(sciax.grad(lambda a: sol(a)[1])(snp.float64(a)))
    np.testing.assert_allclose(df, a + 1.0, rtol=1e-4)


def test_bad_constraints_raise():
    f = lambda x: snp.sum(x ** 2)  # noqa: E731
    tc = "trust-constr"
    with pytest.raises(ValueError, match="'eq' or 'ineq'"):
        minimize(f, snp.ones(2), method=tc, constraints={"type": "le",
                                                         "fun": lambda x: x[0]})
    with pytest.raises(ValueError, match="no callable 'fun'"):
        minimize(f, snp.ones(2), method=tc, constraints={"type": "eq"})
    with pytest.raises(TypeError, match="constraints must be"):
        minimize(f, snp.ones(2), method=tc, constraints=[3.0])
    with pytest.raises(ValueError, match="more equality constraints"):
        minimize(f, snp.ones(1), method=tc,
                 constraints=[LinearConstraint(np.eye(2)[:, :1], 0, 0)] * 2)
    with pytest.raises(ValueError, match="columns"):
        minimize(f, snp.ones(2), method=tc,
                 constraints=LinearConstraint([[1.0, 2.0, 3.0]], 0, 1))
    with pytest.raises(ValueError, match="lower bound"):
        minimize(f, snp.ones(2), method=tc, bounds=[(1, 0), (0, 1)])
    with pytest.warns(Warning, match="Unknown solver options"):
        with pytest.raises(ValueError, match="'eq' or 'ineq'"):
            minimize(f, snp.ones(2), method=tc, options={"gtoll": 1.0},
                     constraints={"type": "x", "fun": f})


@pytest.mark.slow
def test_pytree_x0_user_jac_and_hess():
    # a dict x0 comes back as a dict (x, grad, lagrangian_grad); then jac=True
    # and a hess callable are used as given (min |x - 1|^2, x0 + x1 <= 1)
    f = lambda p: (p["a"] - 1.0) ** 2 + snp.sum((p["b"] - 2.0) ** 2)  # noqa: E731
    c = {"type": "eq", "fun": lambda p: p["a"] + snp.sum(p["b"]) - 1.0}
    r = minimize(f, {"a": snp.float64(0.0), "b": snp.zeros(2)}, method="trust-constr",
                 constraints=c)
    # closed form: x = t + lam (1, 1, 1) with t = (1, 2, 2), sum x = 1
    np.testing.assert_allclose(float(r.x["a"]), -1.0 / 3.0, atol=1e-10)
    np.testing.assert_allclose(np.asarray(r.x["b"]), [2.0 / 3.0] * 2, atol=1e-10)
    np.testing.assert_allclose(np.asarray(r.lagrangian_grad["b"]), 0.0, atol=1e-9)
    fg = lambda x: (snp.sum((x - 1.0) ** 2), 2.0 * (x - 1.0))  # noqa: E731
    half = {"type": "ineq", "fun": lambda x: 1.0 - x[0] - x[1]}
    r = minimize(fg, snp.zeros(2), jac=True, hess=lambda x: 2.0 * snp.eye(2),
                 method="trust-constr", constraints=half)
    s = _scipy_exact(lambda x: snp.sum((x - 1.0) ** 2), [0.0, 0.0],
                     [(lambda x: (1.0 - x[0] - x[1])[None], 0.0, np.inf)])
    _same_run(r, s)


@pytest.mark.slow
@pytest.mark.parametrize("bounded", [False, True])
def test_verbose_report_matches_scipy(capsys, bounded):
    # verbose=2: SciPy's table row for row (same iterates, same derivatives)
    # and its two closing lines, up to the execution time
    kw = dict(bounds=Bounds([-2.0, 0.0], [0.5, 0.2])) if bounded else {}
    minimize(rosen, snp.array([-1.0, 0.5]), method="trust-constr",
             options={"verbose": 2, "maxiter": 4}, **kw)
    ours = capsys.readouterr().out.splitlines()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        so.minimize(so.rosen, [-1.0, 0.5], jac=so.rosen_der, hess=so.rosen_hess,
                    method="trust-constr", options={"verbose": 2, "maxiter": 4},
                    **({"bounds": so.Bounds([-2.0, 0.0], [0.5, 0.2])} if bounded
                       else {}))
    ref = capsys.readouterr().out.splitlines()
    assert len(ours) == len(ref) == 9  # header (2), 4 rows, blank, 2 closing
    assert ours[:-1] == ref[:-1]
    cut = ", execution time"
    assert ours[-1].split(cut)[0] == ref[-1].split(cut)[0]
