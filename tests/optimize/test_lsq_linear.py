"""``nnls`` and ``lsq_linear`` against SciPy's on random well-posed problems,
bounded ones with active bounds, under ``jit`` and ``vmap``, and their
derivatives with respect to ``b`` and ``A`` (active set held fixed) against
central finite differences.

Both are active-set methods that end on the exact solution of the final
active set, solved by ``lstsq`` (SVD): the tolerances below are a small
multiple of ``eps * cond(A)`` (``cond(A) < 30`` for these Gaussian matrices).
SciPy's ``method='trf'`` is an interior method that stops within ``tol = 1e-10``
of optimality, so it is compared to ``1e-7``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import lsq_linear, nnls


def _problem(seed, m, n):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((m, n)), rng.standard_normal(m)


_SLOW = pytest.mark.slow  # one compilation per shape: > 2 s


@pytest.mark.parametrize("seed,m,n", [(0, 8, 5), (1, 8, 5),  # one compilation
                                      pytest.param(1, 20, 10, marks=_SLOW),
                                      pytest.param(2, 5, 8, marks=_SLOW),
                                      pytest.param(3, 30, 3, marks=_SLOW),
                                      pytest.param(4, 12, 12, marks=_SLOW)])
def test_nnls_matches_scipy(seed, m, n):
    A, b = _problem(seed, m, n)
    x, rnorm = nnls(A, b)
    rx, rr = so.nnls(A, b)
    np.testing.assert_allclose(np.asarray(x), rx, atol=1e-12 * max(1, np.abs(rx).max())
                               * 100)
    np.testing.assert_allclose(float(rnorm), rr, rtol=1e-12)
    # KKT: x >= 0, gradient >= 0 where x = 0 and = 0 where x > 0
    g = A.T @ (A @ np.asarray(x) - b)
    xs = np.asarray(x)
    assert np.all(xs >= 0)
    assert np.all(g[xs == 0] >= -1e-12) and np.all(np.abs(g[xs > 0]) < 1e-10)


@pytest.mark.slow  # compiles the active-set loops: > 2 s
def test_nnls_edge_cases_as_scipy():
    A = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    x, r = nnls(A, np.array([-1.0, -1.0, -1.0]))
    np.testing.assert_array_equal(np.asarray(x), [0.0, 0.0])
    assert float(r) == pytest.approx(np.sqrt(3.0), rel=1e-15)
    x, r = nnls(A, np.array([[2.0], [1.0], [1.0]]))  # a column b is raveled
    np.testing.assert_allclose(np.asarray(x), [1.5, 1.0], rtol=1e-14)
    with pytest.raises(ValueError, match="Incompatible dimensions"):
        nnls(A, np.ones(4))
    with pytest.raises(ValueError, match="2D array"):
        nnls(np.ones(3), np.ones(3))
    A5, b5 = _problem(0, 8, 5)
    with pytest.raises(RuntimeError, match="Maximum number of iterations"):
        so.nnls(A5, b5, maxiter=1)
    with pytest.raises(RuntimeError, match="Maximum number of iterations"):
        nnls(A5, b5, maxiter=1)


@pytest.mark.slow  # compiles the active-set loops: > 2 s
def test_nnls_jit_and_vmap_equal_eager():
    As, bs = zip(*[_problem(s, 10, 6) for s in range(4)])
    As, bs = np.stack(As), np.stack(bs)
    eager = [nnls(a, b) for a, b in zip(As, bs)]
    jx, jr = sciax.jit(nnls)(snp.asarray(As[0]), snp.asarray(bs[0]))
    np.testing.assert_allclose(np.asarray(jx), np.asarray(eager[0][0]), atol=1e-14)
    vx, vr = sciax.vmap(nnls)(snp.asarray(As), snp.asarray(bs))
    for i, (x, r) in enumerate(eager):
        np.testing.assert_allclose(np.asarray(vx[i]), np.asarray(x), atol=1e-13)
        np.testing.assert_allclose(float(vr[i]), float(r), rtol=1e-13)
        np.testing.assert_allclose(np.asarray(vx[i]), so.nnls(As[i], bs[i])[0],
                                   atol=1e-12)


def _fd(f, v, h=1e-6):
    out = []
    for i in range(v.size):
        e = np.zeros_like(v)
        e.flat[i] = h
        out.append((f(v + e) - f(v - e)) / (2 * h))
    return np.stack(out, axis=-1)


@pytest.mark.slow  # compiles the active-set loops: > 2 s
def test_nnls_gradient_fixed_active_set():
    A, b = _problem(0, 8, 5)
    x0 = so.nnls(A, b)[0]
    assert np.sum(x0 == 0) >= 2 and np.sum(x0 > 0) >= 1  # both sets non-empty
    w = np.arange(1.0, 6.0)

    def loss(bb):
        return snp.dot(snp.asarray(w), nnls(snp.asarray(A), bb)[0])

    g = np.asarray(sciax.grad(loss)(snp.asarray(b)))
    # the active set is stable under the 1e-6 perturbations of the central
    # difference (the zero components' gradients are bounded away from 0)
    fd = _fd(lambda bb: w @ so.nnls(A, bb)[0], b)
    np.testing.assert_allclose(g, fd, atol=1e-8)
    gA = np.asarray(sciax.grad(lambda AA: nnls(AA, snp.asarray(b))[1])(snp.asarray(A)))
    fdA = _fd(lambda AA: so.nnls(AA.reshape(A.shape), b)[1], A.ravel()).reshape(
        A.shape)
    np.testing.assert_allclose(gA, fdA, atol=1e-8)


def _bounded(seed, m, n):
    A, b = _problem(seed, m, n)
    rng = np.random.default_rng(seed + 100)
    xu = np.linalg.lstsq(A, b, rcond=None)[0]
    # bounds that cut the unconstrained solution on about half the variables
    lb = xu - np.abs(rng.standard_normal(n)) * 0.3 * np.where(
        rng.random(n) < 0.5, 0.0, 1.0) - 0.01
    ub = lb + np.abs(xu - lb) * rng.uniform(0.3, 1.5, n) + 0.01
    return A, b, lb, ub


@pytest.mark.slow  # compiles the active-set loops: > 2 s
@pytest.mark.parametrize("seed,m,n", [(0, 10, 4), (1, 20, 8), (2, 6, 6), (3, 15, 10)])
def test_lsq_linear_bvls_matches_scipy(seed, m, n):
    A, b, lb, ub = _bounded(seed, m, n)
    res = lsq_linear(A, b, bounds=(lb, ub), method="bvls")
    ref = so.lsq_linear(A, b, bounds=(lb, ub), method="bvls")
    assert np.any(ref.active_mask != 0)  # the bounds bite
    np.testing.assert_allclose(np.asarray(res.x), ref.x, atol=1e-12)
    np.testing.assert_allclose(float(res.cost), ref.cost, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(res.active_mask), ref.active_mask)
    assert int(res.status) == ref.status and res.success == ref.success
    assert int(res.nit) == ref.nit  # the same BVLS iterations
    assert res.message == ref.message
    for key in ("x", "cost", "fun", "optimality", "active_mask", "nit", "status",
                "message", "success"):
        assert key in dir(res) and key in ref


@pytest.mark.slow  # compiles the active-set loops: > 2 s
@pytest.mark.parametrize("seed,m,n", [(0, 10, 4), (3, 15, 10)])
def test_lsq_linear_trf_reaches_scipys_solution(seed, m, n):
    A, b, lb, ub = _bounded(seed, m, n)
    res = lsq_linear(A, b, bounds=(lb, ub))
    ref = so.lsq_linear(A, b, bounds=(lb, ub), method="trf")
    np.testing.assert_allclose(np.asarray(res.x), ref.x, atol=1e-7)
    np.testing.assert_allclose(float(res.cost), ref.cost, rtol=1e-9)
    # trf marks a bound active within its tolerance; where it does, BVLS agrees
    # (BVLS may also hold a variable at a bound where the gradient vanishes)
    act = ref.active_mask != 0
    np.testing.assert_array_equal(np.asarray(res.active_mask)[act],
                                  ref.active_mask[act])
    assert res.success and ref.success


@pytest.mark.slow  # compiles the active-set loops: > 2 s
def test_lsq_linear_unbounded_and_one_sided():
    A, b = _problem(5, 9, 4)
    res = lsq_linear(A, b)
    ref = so.lsq_linear(A, b)
    assert int(res.status) == ref.status == 3 and int(res.nit) == 0
    assert len(res.unbounded_sol) == len(ref.unbounded_sol) == 4
    np.testing.assert_allclose(np.asarray(res.unbounded_sol[0]), ref.unbounded_sol[0],
                               atol=1e-13)
    assert res.message == ref.message
    np.testing.assert_allclose(np.asarray(res.x), ref.x, atol=1e-13)
    res = lsq_linear(A, b, bounds=(0.0, np.inf), method="bvls")
    ref = so.lsq_linear(A, b, bounds=(0.0, np.inf), method="bvls")
    np.testing.assert_allclose(np.asarray(res.x), ref.x, atol=1e-12)
    np.testing.assert_allclose(np.asarray(res.x), so.nnls(A, b)[0], atol=1e-12)


def test_lsq_linear_errors():
    import scipy.sparse as sp
    from scipy.sparse.linalg import aslinearoperator

    A, b = _problem(0, 5, 3)
    with pytest.raises(TypeError, match="dense"):
        lsq_linear(sp.csr_array(A), b)
    with pytest.raises(TypeError, match="dense"):
        lsq_linear(aslinearoperator(A), b)
    with pytest.raises(ValueError, match="lsmr"):
        lsq_linear(A, b, lsq_solver="lsmr")
    with pytest.raises(ValueError, match="strictly less"):
        lsq_linear(A, b, bounds=(1.0, 1.0))
    with pytest.raises(ValueError, match="method"):
        lsq_linear(A, b, method="foo")
    with pytest.raises(ValueError, match="Inconsistent shapes"):
        lsq_linear(A, np.ones(4))


@pytest.mark.slow  # compiles the active-set loops: > 2 s
def test_lsq_linear_vmap_jit_and_gradient():
    A, b, lb, ub = _bounded(1, 20, 8)
    ref = so.lsq_linear(A, b, bounds=(lb, ub), method="bvls")
    run = lambda bb: lsq_linear(snp.asarray(A), bb, bounds=(lb, ub)).x  # noqa
    np.testing.assert_allclose(np.asarray(sciax.jit(run)(snp.asarray(b))), ref.x,
                               atol=1e-12)
    bs = np.stack([b, b + 0.01, b - 0.02])
    vx = np.asarray(sciax.vmap(run)(snp.asarray(bs)))
    for i in range(3):
        np.testing.assert_allclose(
            vx[i], so.lsq_linear(A, bs[i], bounds=(lb, ub), method="bvls").x,
            atol=1e-12)
    w = np.linspace(-1.0, 1.0, A.shape[1])
    g = np.asarray(sciax.grad(lambda bb: snp.dot(snp.asarray(w), run(bb)))(
        snp.asarray(b)))
    fd = _fd(lambda bb: w @ so.lsq_linear(A, bb, bounds=(lb, ub), method="bvls").x, b)
    # the active set is fixed under the 1e-6 perturbations (checked below)
    plus = so.lsq_linear(A, b + 1e-6, bounds=(lb, ub), method="bvls")
    np.testing.assert_array_equal(plus.active_mask, ref.active_mask)
    np.testing.assert_allclose(g, fd, atol=1e-8)
    gc = np.asarray(sciax.grad(lambda bb: lsq_linear(snp.asarray(A), bb,
                                                     bounds=(lb, ub)).cost)(
        snp.asarray(b)))
    np.testing.assert_allclose(gc, b - A @ ref.x, atol=1e-10)  # d cost / d b = -r


@pytest.mark.slow  # one compilation, then 30 solves
def test_bvls_and_nnls_take_scipys_steps_on_random_problems():
    # the same active-set iterations as SciPy's BVLS and nnls: equal solutions,
    # active sets, iteration counts and statuses, with infinite bounds mixed in
    m, n = 12, 6
    for seed in range(30):
        rng = np.random.default_rng(seed)
        A = rng.standard_normal((m, n))
        b = rng.standard_normal(m) * rng.uniform(0.1, 10)
        lb = rng.uniform(-1, 0, n)
        ub = lb + rng.uniform(0.05, 1.0, n)
        if seed % 3 == 0:
            lb[::2] = -np.inf
        if seed % 4 == 1:
            ub[1::3] = np.inf
        ref = so.lsq_linear(A, b, bounds=(lb, ub), method="bvls")
        res = lsq_linear(A, b, bounds=(lb, ub), method="bvls")
        np.testing.assert_allclose(np.asarray(res.x), ref.x, atol=1e-10)
        np.testing.assert_array_equal(np.asarray(res.active_mask), ref.active_mask)
        assert (int(res.nit), int(res.status)) == (ref.nit, ref.status)
        np.testing.assert_allclose(np.asarray(nnls(A, b)[0]), so.nnls(A, b)[0],
                                   atol=1e-10)
