"""``linprog`` against SciPy's (HiGHS) on random feasible LPs, textbook and
degenerate ones, equality rows with bounds, infeasible and unbounded problems,
under ``jit`` and ``vmap``.

The interior-point method stops when the relative primal, dual and gap
residuals are below ``tol = 1e-10``, so ``fun`` agrees with HiGHS's (a vertex
from the simplex or crossover) to about that relative level; the tests ask for
``1e-8`` as the brief does.  The marginals (duals) are unique on these
nondegenerate random problems and agree to ``1e-6`` (they carry the residual
divided by the complementarity gap of the last iterate).

Each distinct shape and bound layout compiles once (several seconds on two
cores), so the default run shares one layout between the feasible,
infeasible and unbounded cases; the others are ``slow``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import linprog

_SLOW = pytest.mark.slow


def _check(res, ref, rtol=1e-8):
    assert int(res.status) == ref.status, (res.message, ref.message)
    if ref.status == 0:
        assert res.success
        scale = max(1.0, abs(ref.fun))
        assert abs(float(res.fun) - ref.fun) <= rtol * scale
        # feasibility of our x in the original problem
        return True
    assert not res.success
    return False


# --- one layout (n = 5, 4 inequality rows, x >= 0): compiled once -------------------


def _random_lp(seed, n=5, m=4):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((m, n))
    xf = rng.uniform(0.0, 2.0, n)
    b = A @ xf + rng.uniform(0.1, 1.0, m)
    # keep it bounded: one row bounds the sum of x
    A[0] = np.abs(A[0]) + 0.1
    b[0] = A[0] @ xf + 1.0
    c = rng.standard_normal(n)
    return c, A, b


@pytest.mark.parametrize("seed", range(6))
def test_random_feasible_matches_scipy(seed):
    c, A, b = _random_lp(seed)
    res = linprog(c, A_ub=A, b_ub=b)
    ref = so.linprog(c, A_ub=A, b_ub=b)
    assert _check(res, ref)
    x = np.asarray(res.x)
    assert np.all(x >= -1e-9) and np.all(A @ x <= b + 1e-8)
    np.testing.assert_allclose(np.asarray(res.slack), b - A @ x, atol=1e-12)
    np.testing.assert_allclose(np.asarray(res.ineqlin.marginals),
                               ref.ineqlin.marginals, atol=1e-6)
    np.testing.assert_allclose(np.asarray(res.lower.marginals),
                               ref.lower.marginals, atol=1e-6)


def test_infeasible_and_unbounded_same_layout():
    _, A, b = _random_lp(0)
    c = np.ones(5)
    # infeasible: row 1 asks x0 + x1 <= -1 with x >= 0
    A2, b2 = A.copy(), b.copy()
    A2[1] = [1.0, 1.0, 0.0, 0.0, 0.0]
    b2[1] = -1.0
    res = linprog(c, A_ub=A2, b_ub=b2)
    assert int(res.status) == 2 == so.linprog(c, A_ub=A2, b_ub=b2).status
    assert res.message == "The problem is infeasible."
    assert np.all(np.isnan(np.asarray(res.x)))
    # unbounded: every row only bounds x from below along -e0 ... so x0 -> inf
    A3 = -np.abs(A)
    A3[:, 0] = -1.0
    c3 = -np.ones(5)
    res = linprog(c3, A_ub=A3, b_ub=b)
    assert int(res.status) == 3 == so.linprog(c3, A_ub=A3, b_ub=b).status
    assert res.message == "The problem is unbounded."


@_SLOW  # two more compilations (vmap, jit): ~20 s
def test_vmap_and_jit_over_costs():
    _, A, b = _random_lp(3)
    rng = np.random.default_rng(7)
    C = rng.standard_normal((4, 5))
    funs = sciax.vmap(lambda c: linprog(c, A_ub=A, b_ub=b).fun)(snp.asarray(C))
    ref = [so.linprog(ci, A_ub=A, b_ub=b).fun for ci in C]
    np.testing.assert_allclose(np.asarray(funs), ref, rtol=1e-8, atol=1e-8)
    res = sciax.jit(lambda c, bb: linprog(c, A_ub=A, b_ub=bb))(
        snp.asarray(C[0]), snp.asarray(b))
    assert int(res.status) == 0 and res.success
    assert abs(float(res.fun) - ref[0]) <= 1e-8 * max(1, abs(ref[0]))


def test_argument_errors():
    with pytest.raises(ValueError, match="Unknown solver"):
        linprog([1.0], method="foo")
    with pytest.raises(NotImplementedError):
        linprog([1.0], callback=lambda r: None)
    with pytest.raises(NotImplementedError):
        linprog([1.0], integrality=[1])
    with pytest.raises(ValueError):
        linprog([1.0, 2.0], A_ub=[[1.0, 2.0, 3.0]], b_ub=[1.0])
    res = linprog([1.0, 1.0], bounds=[(0, 1), (2, 1)])  # lb > ub: infeasible
    assert int(res.status) == 2


# --- other layouts (one compilation each) -------------------------------------------


_CASES = {
    "textbook": dict(c=[-1, 4], A_ub=[[-3, 1], [1, 2]], b_ub=[6, 4],
                     bounds=[(None, None), (-3, None)]),
    "wikipedia": dict(c=[-2, -3, -4], A_ub=[[3, 2, 1], [2, 5, 3]], b_ub=[10, 15]),
    "equality_bounds": dict(c=[1, 2, -1, 0.5], A_eq=[[1, 1, 1, 1], [1, -1, 0, 2]],
                            b_eq=[4, 1], A_ub=[[1, 0, 1, 0]], b_ub=[3],
                            bounds=[(0, 2), (-1, 3), (None, 2.5), (0.5, None)]),
    "redundant_equalities": dict(c=[1, 2, 3], A_eq=[[1, 1, 1], [2, 2, 2]],
                                 b_eq=[1, 2]),
    "degenerate_vertex": dict(c=[-10, 57, 9, 24],
                              A_ub=[[0.5, -5.5, -2.5, 9], [0.5, -1.5, -0.5, 1],
                                    [1, 0, 0, 0]], b_ub=[0, 0, 1]),
    "ties": dict(c=[1, 1], A_ub=[[-1, -1]], b_ub=[-2]),
    "bounds_only": dict(c=[1, -1], bounds=[(0, 1), (2, 3)]),
    "fixed_variable": dict(c=[1, -1], A_ub=[[1, 1]], b_ub=[4],
                           bounds=[(1, 1), (0, None)]),
    "free_variables": dict(c=[1, 1, 0], A_eq=[[1, -1, 1]], b_eq=[1],
                           A_ub=[[-1, 0, 0], [0, -1, 0]], b_ub=[2, 3],
                           bounds=(None, None)),
    "infeasible_equalities": dict(c=[1, 1], A_eq=[[1, 1], [1, 1]], b_eq=[1, 2]),
    "unbounded_free": dict(c=[1, 0], bounds=(None, None)),
    "infeasible_and_unbounded": dict(c=[-1, -1], A_eq=[[1, -1]], b_eq=[1],
                                     bounds=(None, None)),
}


@_SLOW
@pytest.mark.parametrize("name", sorted(_CASES))
def test_cases_match_scipy(name):
    kw = _CASES[name]
    res = linprog(**kw)
    ref = so.linprog(**kw)
    if name == "infeasible_and_unbounded":
        # x0 - x1 = 1 with both free and c = -(1, 1): unbounded (feasible)
        assert int(res.status) == ref.status == 3
        return
    if _check(res, ref) and "A_eq" in kw:
        np.testing.assert_allclose(np.asarray(res.con), 0.0, atol=1e-8)


@_SLOW
@pytest.mark.parametrize("seed", range(20))
def test_random_mixed_layout(seed):
    """Equality rows, boxes, free variables and upper-only bounds together."""
    rng = np.random.default_rng(100 + seed)
    n, mu, me = 12, 8, 3
    A = rng.standard_normal((mu, n))
    Ae = rng.standard_normal((me, n))
    xf = rng.uniform(0, 2, n)
    b = A @ xf + rng.uniform(0, 1, mu)
    be = Ae @ xf
    c = rng.standard_normal(n)
    bounds = [(0, 5)] * 6 + [(None, None)] * 2 + [(-1, None)] * 2 + [(None, 3)] * 2
    res = linprog(c, A, b, Ae, be, bounds=bounds)
    ref = so.linprog(c, A, b, Ae, be, bounds=bounds)
    if _check(res, ref):
        for key in ("ineqlin", "eqlin", "lower", "upper"):
            np.testing.assert_allclose(np.asarray(res[key].marginals),
                                       ref[key].marginals, atol=1e-6)


@_SLOW
@pytest.mark.parametrize("seed", range(3))
def test_random_degenerate(seed):
    """Primal-degenerate LPs: many rows active at the optimum (b = A x* there)."""
    rng = np.random.default_rng(200 + seed)
    n, m = 8, 12
    A = rng.integers(-3, 4, (m, n)).astype(float)
    xs = np.where(rng.random(n) < 0.5, 0.0, rng.integers(1, 3, n))
    b = A @ xs + np.where(rng.random(m) < 0.6, 0.0, 1.0)
    A = np.vstack([A, np.ones(n)])
    b = np.append(b, xs.sum() + 2.0)
    c = rng.integers(-3, 4, n).astype(float)
    _check(linprog(c, A_ub=A, b_ub=b), so.linprog(c, A_ub=A, b_ub=b))


@_SLOW
def test_fun_gradient_vs_finite_differences():
    """Envelope theorem: d fun/dc = x, d fun/db = marginals, d fun/dA = -y x'.
    Central differences of SciPy's optimal value (h = 1e-6, nondegenerate LP:
    the basis does not change) are accurate to ~1e-9."""
    rng = np.random.default_rng(3)
    n, m, me = 6, 4, 2
    A = rng.standard_normal((m, n))
    Ae = rng.standard_normal((me, n))
    xf = rng.uniform(0, 1, n)
    b, be, c = A @ xf + 0.5, Ae @ xf, rng.standard_normal(n)
    args = [c, b, be, A]

    def F(c, b, be, A):
        return linprog(c, A, b, Ae, be, bounds=(0, 3)).fun

    grads = sciax.grad(F, argnums=(0, 1, 2, 3))(*map(snp.asarray, args))

    def ref(c, b, be, A):
        return so.linprog(c, A, b, Ae, be, bounds=(0, 3)).fun

    h = 1e-6
    for k, arr in enumerate(args):
        fd = np.zeros(arr.shape)
        for idx in np.ndindex(arr.shape):
            ap, am = list(args), list(args)
            ap[k], am[k] = arr.copy(), arr.copy()
            ap[k][idx] += h
            am[k][idx] -= h
            fd[idx] = (ref(*ap) - ref(*am)) / (2 * h)
        np.testing.assert_allclose(np.asarray(grads[k]), fd, atol=1e-7)
