"""solve_bvp against scipy.integrate.solve_bvp and closed forms.

SciPy runs the same algorithm with finite-difference Jacobians where sciax
differentiates exactly, so the Newton iterates differ at the level of the
Newton tolerance (about 5e-2 tol relative), and a mesh decision can flip at a
residual right on ``tol``: meshes are compared where the margin is wide.
Closed-form errors are bounded by the residual control: with ``tol`` the RMS
relative residual on every interval, the solution error is O(tol) times the
problem's conditioning, so the tolerances below are a small multiple of tol.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate as si
from scipy.optimize import brentq

import sciax
import sciax.numpy as snp
from sciax.integrate import BVPResult, solve_bvp

# Module-level problems: the compiled per-mesh programs are cached on the
# identity of fun and bc, so tests sharing a problem share its compiles.


def bratu(x, y):
    return snp.vstack([y[1], -snp.exp(y[0])])


def bratu_np(x, y):
    return np.vstack([y[1], -np.exp(y[0])])


def dirichlet0(ya, yb):
    return snp.array([ya[0], yb[0]])


def dirichlet0_np(ya, yb):
    return np.array([ya[0], yb[0]])


def bratu_exact(x, lower):
    # y = -2 log(cosh((x - 1/2) th/2) / cosh(th/4)), th = sqrt(2) cosh(th/4).
    g = lambda th: th - np.sqrt(2) * np.cosh(th / 4)
    th = brentq(g, 0.5, 4.0) if lower else brentq(g, 4.0, 20.0)
    return -2 * np.log(np.cosh((x - 0.5) * th / 2) / np.cosh(th / 4))


def bratu_guess(lower):
    x = np.linspace(0, 1, 5)
    y = np.zeros((2, 5))
    if not lower:
        y[0] = 3.0
    return x, y


@pytest.mark.parametrize(
    "lower", [True, pytest.param(False, marks=pytest.mark.slow)])
def test_bratu_both_solutions(lower):
    x, y = bratu_guess(lower)
    res = solve_bvp(bratu, dirichlet0, x, y)
    ref = si.solve_bvp(bratu_np, dirichlet0_np, x, y)
    assert res.status == 0 and res.success and ref.status == 0
    assert res.message == ref.message
    assert res.niter == ref.niter
    assert res.x.shape == ref.x.shape
    np.testing.assert_allclose(np.asarray(res.x), ref.x, rtol=0, atol=1e-15)
    # Same mesh, same equations: the two solves agree to Newton accuracy.
    np.testing.assert_allclose(np.asarray(res.y), ref.y, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(np.asarray(res.yp), ref.yp, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(np.asarray(res.rms_residuals), ref.rms_residuals,
                               rtol=1e-4, atol=1e-10)
    t = np.linspace(0, 1, 101)
    np.testing.assert_allclose(np.asarray(res.sol(t)), ref.sol(t), rtol=1e-7,
                               atol=1e-9)
    np.testing.assert_allclose(np.asarray(res.sol(t, 1)), ref.sol(t, 1),
                               rtol=1e-7, atol=1e-9)
    # The lower solution peaks at 0.1405, the upper at 4.0915; tol = 1e-3
    # residual control gives a few 1e-4 absolute error on these meshes.
    err = np.max(np.abs(np.asarray(res.sol(t)[0]) - bratu_exact(t, lower)))
    assert err < (1e-4 if lower else 2e-3)
    assert res.p is None


def test_result_is_pytree_and_sol_traces():
    x, y = bratu_guess(True)
    res = solve_bvp(bratu, dirichlet0, x, y)
    assert isinstance(res, BVPResult)
    leaves = sciax.tree.leaves(res)
    assert len(leaves) >= 6
    back = sciax.tree.unflatten(sciax.tree.structure(res), leaves)
    assert back.status == res.status and back.message == res.message
    # sol is a pytree of arrays: evaluate and differentiate it under jit.
    f = sciax.jit(lambda s, t: s(t)[0])
    assert abs(float(f(res.sol, 0.3)) - float(res.sol(0.3)[0])) < 1e-14
    d = sciax.grad(lambda t: res.sol(t)[0])(0.3)
    assert abs(float(d) - float(res.sol(0.3, 1)[0])) < 1e-12
    # C1 interpolant: sol' equals fun at the nodes.
    np.testing.assert_allclose(np.asarray(res.sol(res.x, 1)), np.asarray(res.yp),
                               rtol=1e-12, atol=1e-12)
    assert res.sol(0.5).shape == (2,)
    assert res.sol(snp.linspace(0, 1, 7)).shape == (2, 7)


def test_verbose_output(capsys):
    x, y = bratu_guess(True)
    solve_bvp(bratu, dirichlet0, x, y, verbose=2)
    out = capsys.readouterr().out
    assert "Iteration" in out and "Solved in 1 iterations" in out


def test_argument_errors():
    x, y = bratu_guess(True)
    with pytest.raises(ValueError, match="strictly increasing"):
        solve_bvp(bratu, dirichlet0, x[::-1], y)
    with pytest.raises(ValueError, match="columns"):
        solve_bvp(bratu, dirichlet0, x, y[:, :3])
    with pytest.raises(ValueError, match="2 dimensional"):
        solve_bvp(bratu, dirichlet0, x, y[0])
    with pytest.raises(ValueError, match="verbose"):
        solve_bvp(bratu, dirichlet0, x, y, verbose=3)
    with pytest.raises(ValueError, match="`bc` return"):
        solve_bvp(bratu, lambda ya, yb: snp.array([ya[0]]), x, y)
    with pytest.raises(ValueError, match="`fun` return"):
        solve_bvp(lambda x, y: y[:1], dirichlet0, x, y)


def test_raises_under_jit():
    x, y = bratu_guess(True)
    f = sciax.jit(lambda y: solve_bvp(bratu, dirichlet0, x, y).y)
    with pytest.raises(TypeError, match="runs eagerly"):
        f(snp.asarray(y))


# --- boundary layer: eps y'' = y, y(0) = 1, y(1) = 0 ---------------------------

EPS_BL = 1e-3


def layer(x, y):
    return snp.vstack([y[1], y[0] / EPS_BL])


def layer_np(x, y):
    return np.vstack([y[1], y[0] / EPS_BL])


def layer_bc(ya, yb):
    return snp.array([ya[0] - 1.0, yb[0]])


def layer_bc_np(ya, yb):
    return np.array([ya[0] - 1.0, yb[0]])


def layer_exact(x):
    r = 1 / np.sqrt(EPS_BL)
    return np.sinh(r * (1 - x)) / np.sinh(r)


def test_max_nodes_exceeded():
    x = np.linspace(0, 1, 6)
    y = np.zeros((2, 6))
    res = solve_bvp(layer, layer_bc, x, y, max_nodes=10)
    ref = si.solve_bvp(layer_np, layer_bc_np, x, y, max_nodes=10)
    assert res.status == 1 == ref.status
    assert not res.success
    assert res.message == "The maximum number of mesh nodes is exceeded."
    assert res.x.shape == ref.x.shape


@pytest.mark.slow
def test_boundary_layer_refines():
    x = np.linspace(0, 1, 6)
    y = np.zeros((2, 6))
    res = solve_bvp(layer, layer_bc, x, y, tol=1e-4)
    ref = si.solve_bvp(layer_np, layer_bc_np, x, y, tol=1e-4)
    assert res.status == 0 == ref.status
    assert res.niter > 2
    # The refinement concentrated nodes in the layer at x = 0 (width 0.03).
    xs = np.asarray(res.x)
    assert np.sum(xs < 0.1) > np.sum(xs > 0.9) + 10
    # Mesh decisions follow SciPy's within a few nodes (see module docstring).
    assert abs(xs.size - ref.x.size) <= max(3, ref.x.size // 10)
    t = np.linspace(0, 1, 401)
    np.testing.assert_allclose(np.asarray(res.sol(t)[0]), layer_exact(t),
                               rtol=0, atol=5e-4)
    assert np.max(np.asarray(res.rms_residuals)) < 1e-4


# --- Sturm-Liouville eigenvalue: y'' + k^2 y = 0, y(0) = y(1) = 0, y'(0) = k ---


def sl_fun(x, y, p):
    return snp.vstack([y[1], -p[0] ** 2 * y[0]])


def sl_bc(ya, yb, p):
    return snp.array([ya[0], yb[0], ya[1] - p[0]])


@pytest.mark.slow
def test_sturm_liouville_eigenvalue():
    x = np.linspace(0, 1, 5)
    y = np.zeros((2, 5))
    y[0, 1], y[0, 3] = 1.0, -1.0
    res = solve_bvp(sl_fun, sl_bc, x, y, p=[6.0])
    ref = si.solve_bvp(
        lambda x, y, p: np.vstack([y[1], -p[0] ** 2 * y[0]]),
        lambda ya, yb, p: np.array([ya[0], yb[0], ya[1] - p[0]]), x, y, p=[6.0])
    assert res.status == 0 == ref.status
    assert res.p.shape == (1,)
    # Eigenvalue 2 pi; SciPy's example reports 6.28329 on its final mesh.
    np.testing.assert_allclose(float(res.p[0]), float(ref.p[0]), rtol=1e-6)
    assert abs(float(res.p[0]) - 2 * np.pi) < 1e-3
    t = np.linspace(0, 1, 51)
    np.testing.assert_allclose(np.asarray(res.sol(t)[0]), np.sin(2 * np.pi * t),
                               atol=2e-3)


@pytest.mark.slow
def test_user_jacobians_match_autodiff():
    def fun_jac(x, y, p):
        m = x.shape[0]
        z, o = snp.zeros(m), snp.ones(m)
        dfdy = snp.stack([snp.stack([z, o]), snp.stack([-p[0] ** 2 * o, z])])
        dfdp = snp.stack([snp.stack([z]), snp.stack([-2 * p[0] * y[0]])])
        return dfdy, dfdp

    def bc_jac(ya, yb, p):
        return (snp.array([[1.0, 0], [0, 0], [0, 1]]),
                snp.array([[0.0, 0], [1, 0], [0, 0]]),
                snp.array([[0.0], [0], [-1]]))

    x = np.linspace(0, 1, 5)
    y = np.zeros((2, 5))
    y[0, 1], y[0, 3] = 1.0, -1.0
    a = solve_bvp(sl_fun, sl_bc, x, y, p=[6.0])
    b = solve_bvp(sl_fun, sl_bc, x, y, p=[6.0], fun_jac=fun_jac, bc_jac=bc_jac)
    assert a.status == b.status == 0 and a.niter == b.niter
    np.testing.assert_allclose(np.asarray(b.y), np.asarray(a.y), atol=1e-12)
    np.testing.assert_allclose(np.asarray(b.p), np.asarray(a.p), rtol=1e-13)


# --- singular term: Emden, y'' + 2/x y' + y^5 = 0, y'(0) = 0, y(1) = sqrt(3/4) --


def emden(x, y):
    return snp.vstack([y[1], -y[0] ** 5])


def emden_bc(ya, yb):
    return snp.array([ya[1], yb[0] - (3 / 4) ** 0.5])


@pytest.mark.slow
def test_singular_term_emden():
    S = np.array([[0.0, 0.0], [0.0, -2.0]])
    x = np.linspace(0, 1, 10)
    y = np.empty((2, 10))
    y[0], y[1] = (3 / 4) ** 0.5, -1e-4
    res = solve_bvp(emden, emden_bc, x, y, S=S)
    ref = si.solve_bvp(lambda x, y: np.vstack([y[1], -y[0] ** 5]),
                       lambda ya, yb: np.array([ya[1], yb[0] - (3 / 4) ** 0.5]),
                       x, y, S=S)
    assert res.status == 0 == ref.status
    t = np.linspace(0, 1, 41)
    exact = (1 + t ** 2 / 3) ** -0.5
    np.testing.assert_allclose(np.asarray(res.sol(t)[0]), exact, atol=1e-4)
    np.testing.assert_allclose(np.asarray(res.sol(t)), ref.sol(t), atol=1e-6)


@pytest.mark.slow
def test_singular_jacobian_status():
    # bc pins y(0) twice and y(1) never: the collocation Jacobian is singular.
    x, y = bratu_guess(True)
    res = solve_bvp(bratu, lambda ya, yb: snp.array([ya[0], 2 * ya[0]]), x, y)
    ref = si.solve_bvp(bratu_np, lambda ya, yb: np.array([ya[0], 2 * ya[0]]),
                       x, y)
    assert res.status == 2 == ref.status
    assert not res.success
