"""``milp`` against SciPy's (HiGHS) on small standard MILPs: SciPy's docstring
example, knapsacks, an assignment problem, a set cover, general integers with
negative and infinite bounds, semi-continuous variables, infeasible and
unbounded problems, the node limit, ``vmap`` over cost vectors, and SciPy's
input errors.

Both solvers prove optimality (HiGHS to its default ``mip_rel_gap = 1e-4``,
sciax to the same gap); on these small instances both reach the exact
optimum, whose value is a sum of a few integers times the costs, so ``fun``
agrees to 1e-9 relative (the LP relaxations stop at residuals of 1e-10, and
integer components are rounded exactly).  ``x`` is compared only through
feasibility and ``c @ x == fun``, as optima tie (the docstring example has
two).

Each constraint layout compiles its own branch-and-bound loop (a few seconds
on two cores), so only the docstring example runs in the default run.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import Bounds, LinearConstraint, milp

_SLOW = pytest.mark.slow


def _check(c, A, lo, hi, lb, ub, integrality, res=None, **kw):
    ref = so.milp(c, integrality=integrality, bounds=so.Bounds(lb, ub),
                  constraints=so.LinearConstraint(A, lo, hi))
    if res is None:
        res = milp(c, integrality=integrality, bounds=Bounds(lb, ub),
                   constraints=LinearConstraint(A, lo, hi), **kw)
    assert int(res.status) == ref.status, (res.message, ref.message)
    if ref.status != 0:
        return res
    assert res.success
    fun = float(res.fun)
    assert abs(fun - ref.fun) <= 1e-9 * max(1.0, abs(ref.fun))
    x = np.asarray(res.x)
    integ = np.broadcast_to(integrality, x.shape)
    assert np.all(x[integ == 1] == np.round(x[integ == 1]))
    Ax = np.asarray(A, float) @ x
    assert np.all(Ax >= np.asarray(lo) - 1e-7) and np.all(Ax <= np.asarray(hi) + 1e-7)
    inside = (x >= np.asarray(lb) - 1e-7) & (x <= np.asarray(ub) + 1e-7)
    assert np.all(inside | ((integ >= 2) & (x == 0)))
    assert abs(np.asarray(c, float) @ x - fun) <= 1e-9 * max(1.0, abs(fun))
    assert float(res.mip_dual_bound) <= fun + 1e-9 * max(1.0, abs(fun))
    assert 0 <= float(res.mip_gap) <= 1e-4
    return res


def test_scipy_docstring_example():
    c = -np.array([0.0, 1.0])
    A = np.array([[-1, 1], [3, 2], [2, 3]])
    res = _check(c, A, -np.inf, [1, 12, 12], 0, np.inf, np.ones(2))
    assert int(res.mip_node_count) >= 1


@_SLOW
def test_relaxation_infeasible_unbounded():
    # three problems of the docstring example's layout (2 variables in [0, inf),
    # 3 rows bounded above), so one compiled program
    A = np.array([[-1, 1], [3, 2], [2, 3]])
    lp = milp([0.0, -1.0], constraints=(A, -np.inf, [1, 12, 12]))
    assert lp.success and int(lp.mip_node_count) == 1
    np.testing.assert_allclose(np.asarray(lp.x), [1.8, 2.8], rtol=1e-9)
    # no integer x with x0 + x1 = 5.5 (two rows), plus a redundant row
    A2 = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, 0.0]])
    _check(np.ones(2), A2, -np.inf, [5.5, -5.5, 10.0], 0, np.inf, 1)
    # unbounded LP relaxation: status 3 (HiGHS reports 4 for the MILP)
    A3 = np.array([[1.0, -1.0], [1.0, -1.0], [1.0, -1.0]])
    res = milp([-1.0, -1.0], integrality=[1, 0], constraints=(A3, -np.inf, [1, 2, 3]))
    assert int(res.status) == 3 and not res.success
    assert np.isnan(float(res.fun))


@_SLOW
def test_knapsacks_under_vmap():
    # one compiled loop for a batch of value vectors (vmap over ``c``)
    rng = np.random.default_rng(0)
    n = 14
    w = rng.integers(3, 20, n).astype(float)
    V = rng.integers(5, 30, (4, n)).astype(float)
    A, hi = w[None], [0.4 * w.sum()]
    batched = sciax.vmap(lambda c: milp(c, integrality=1, bounds=Bounds(0, 1),
                                        constraints=LinearConstraint(A, -np.inf, hi)))
    out = batched(snp.asarray(-V))
    for k in range(V.shape[0]):
        res = {key: (v[k] if np.ndim(v) else v) for key, v in out.items()}
        res = type(out)(res)
        _check(-V[k], A, -np.inf, hi, 0, 1, 1, res=res)
    # stopped after 3 nodes: status 1 (the node limit is an argument of the
    # same compiled program)
    limited = sciax.vmap(lambda c: milp(c, integrality=1, bounds=Bounds(0, 1),
                                        constraints=LinearConstraint(A, -np.inf, hi),
                                        options={"node_limit": 3}))(snp.asarray(-V))
    assert np.all(np.asarray(limited.status) == 1)
    assert np.all(np.asarray(limited.mip_node_count) == 3)
    assert all("Node limit" in m for m in limited.message)


@_SLOW
def test_assignment_and_set_cover():
    rng = np.random.default_rng(1)
    k = 4  # 4 x 4 assignment: permutation matrices, equality rows
    C = rng.uniform(1, 10, (k, k))
    rows = np.kron(np.eye(k), np.ones(k))
    cols = np.kron(np.ones(k), np.eye(k))
    A = np.vstack([rows, cols])
    res = _check(C.ravel(), A, 1, 1, 0, 1, 1)
    x = np.asarray(res.x).reshape(k, k)
    assert np.all(x.sum(0) == 1) and np.all(x.sum(1) == 1)
    # set cover: 10 elements, 12 random subsets with costs
    S = (rng.uniform(size=(10, 12)) < 0.3).astype(float)
    S[np.arange(10), rng.integers(0, 12, 10)] = 1.0  # every element coverable
    _check(rng.uniform(1, 3, 12), S, 1, np.inf, 0, 1, 1)


@_SLOW
def test_general_integers_free_and_mixed():
    rng = np.random.default_rng(2)
    n, m = 5, 6
    A = rng.uniform(-5, 5, (m, n))
    x0 = rng.integers(-3, 4, n).astype(float)
    hi = A @ x0 + rng.uniform(0.5, 3, m)
    c = rng.uniform(-2, 2, n)
    # two free integer variables, one only bounded above, two continuous
    lb = np.array([-np.inf, -np.inf, -np.inf, -4, -4])
    ub = np.array([np.inf, np.inf, 6.5, 4, 4])
    box = np.vstack([A, np.eye(n)[:2], -np.eye(n)[:2]])
    hi_box = np.concatenate([hi, [8, 8, 8, 8]])
    _check(c, box, -np.inf, hi_box, lb, ub, [1, 1, 1, 0, 0])


@_SLOW
def test_random_mixed_integer_programs():
    # 12 random problems of one layout (one compiled program): 4 integer and 2
    # continuous variables in [-3, 5], 4 random integer rows bounded above
    rng = np.random.default_rng(5)
    for _ in range(12):
        A = rng.integers(-5, 6, (4, 6)).astype(float)
        hi = A @ rng.integers(-2, 4, 6) + rng.uniform(0, 4, 4)
        _check(rng.uniform(-3, 3, 6), A, -np.inf, hi, -3.0, 5.0, [1, 1, 1, 1, 0, 0])


@_SLOW
def test_semicontinuous_semiinteger():
    # x0 in {0} or [2, 5] (semi-continuous), x1 in {0} or {3, 4, ..., 8}
    c = np.array([-1.0, -1.5, 0.3])
    A = np.array([[1.0, 1.0, -1.0], [1.0, 2.0, 0.0]])
    _check(c, A, -np.inf, [1.5, 10.2], [2, 3, 0], [5, 8, 1], [2, 3, 0])


def test_bad_input():
    with pytest.raises(ValueError, match="`c` must be a one-dimensional"):
        milp([[1.0, 2.0]])
    with pytest.raises(ValueError, match="`c` must be a one-dimensional"):
        milp([1.0, np.inf])
    with pytest.raises(ValueError, match="`integrality` must contain integers 0-3"):
        milp([1.0, 2.0], integrality=[0, 4])
    with pytest.raises(ValueError, match="`integrality` must contain integers 0-3"):
        milp([1.0, 2.0], integrality=[0, 1, 1])
    with pytest.raises(ValueError, match="`bounds.lb` and `bounds.ub`"):
        milp([1.0, 2.0], bounds=Bounds([0, 0, 0], 1))
    with pytest.raises(ValueError, match="`bounds` must be convertible"):
        milp([1.0, 2.0], bounds=3)
    with pytest.raises(ValueError, match="`constraints`"):
        milp([1.0, 2.0], constraints=5)
    with pytest.raises(ValueError, match="The shape of `A`"):
        milp([1.0, 2.0], constraints=LinearConstraint(np.ones((2, 3)), 0, 1))
    with pytest.warns(RuntimeWarning, match="Unrecognized options"):
        # integer bounds rounded inwards cross: infeasible without a solve
        res = milp([1.0], integrality=1, bounds=(0.2, 0.8), options={"bogus": 1})
    assert int(res.status) == 2
