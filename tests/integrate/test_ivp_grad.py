"""Derivatives of solve_ivp for every adjoint.

A parameterised linear system y' = A(k) y has the closed form
y(t) = expm(t A(k)) y0, so d y(t1)/d(y0, k, t1) come from scipy.linalg.expm
(k by central differences of the closed form, whose error is ~1e-10).  Lorenz
over a short horizon (t = 0.5) is checked against central differences of the
solve itself at rtol = 1e-10 (differences of two solves carry ~1e-8).
Compiling a reverse-mode solve takes tens of seconds on the 2-core VM, so these
are marked slow (the doctests keep a forward-mode derivative in the default run).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
import sciax.numpy as snp
from sciax.integrate import odeint, solve_ivp

A0 = np.array([[-0.5, 1.0], [-1.0, -0.3]])
B = np.array([[0.0, 0.2], [0.1, 0.0]])


def lin(t, y, k):
    return (snp.asarray(A0) + k * snp.asarray(B)) @ y


def closed(y0, k, t0, t1):
    return sl.expm((t1 - t0) * (A0 + k * B)) @ y0


def solve_lin(y0, k, t0, t1, adjoint, method="RK45"):
    r = solve_ivp(lin, (t0, t1), y0, method=method, args=(k,), t_eval=snp.stack([t1]),
                  rtol=1e-10, atol=1e-12, adjoint=adjoint,
                  max_steps=4096 if method == "RK23" else 512)  # RK23: ~2,000 steps
    return r.y[:, -1]


def _check_linear(adjoint, argnums):
    y0, k, t0, t1 = np.array([1.0, 0.5]), 0.7, 0.0, 1.5
    w = np.array([0.3, -1.1])

    def loss(y0, k, t0, t1):
        return snp.dot(snp.asarray(w), solve_lin(y0, k, t0, t1, adjoint))

    grads = sciax.grad(loss, argnums=argnums)(snp.asarray(y0), k, t0, t1)
    ref = closed(y0, k, t0, t1)
    np.testing.assert_allclose(float(loss(y0, k, t0, t1)), w @ ref, rtol=1e-8)
    expected = {0: sl.expm((t1 - t0) * (A0 + k * B)).T @ w,
                1: (w @ closed(y0, k + 1e-5, t0, t1) - w @ closed(y0, k - 1e-5, t0, t1))
                / 2e-5,
                2: -w @ (A0 + k * B) @ ref,
                3: w @ (A0 + k * B) @ ref}
    for i, g in zip(argnums, grads):
        np.testing.assert_allclose(np.asarray(g), expected[i], rtol=1e-6, atol=1e-8)


@pytest.fixture(params=["forward", "replay"])
def direct_path(request, monkeypatch):
    """``adjoint='direct'`` has two programs: a forward-mode Jacobian when the
    inputs are few (every problem here) and the replay of the recorded steps
    (differentiated by reverse mode) otherwise; "replay" forces the second."""
    from sciax.integrate import _adjoint
    if request.param == "replay":
        monkeypatch.setattr(_adjoint, "FORWARD_MAX_INPUTS", 0)
    return request.param


@pytest.mark.slow
def test_direct_gradient_linear_closed_form(direct_path):
    _check_linear("direct", (0, 1, 2, 3))


@pytest.mark.slow
@pytest.mark.parametrize("adjoint", ["backsolve", "interpolated"])
def test_continuous_adjoints_linear_closed_form(adjoint):
    # t1 enters only through t_eval (the cotangent's time), t0 through y0's time.
    _check_linear(adjoint, (0, 1, 2))


@pytest.mark.slow
@pytest.mark.parametrize("method", ["RK23", "DOP853", "Tsit5"])
def test_forward_mode_every_method(method, direct_path):
    y0, k = np.array([1.0, 0.5]), 0.7
    def f(k):
        return solve_lin(snp.asarray(y0), k, 0.0, 1.0, "direct", method)
    _, tan = sciax.jvp(f, (k,), (1.0,))
    fd = (closed(y0, k + 1e-5, 0.0, 1.0) - closed(y0, k - 1e-5, 0.0, 1.0)) / 2e-5
    np.testing.assert_allclose(np.asarray(tan), fd, rtol=1e-6, atol=1e-8)
    jac = sciax.jacfwd(lambda y: solve_lin(y, k, 0.0, 1.0, "direct", method))(
        snp.asarray(y0))
    np.testing.assert_allclose(np.asarray(jac), sl.expm(A0 + k * B), rtol=1e-6,
                               atol=1e-8)


def lorenz(t, y, s, r, b):
    return snp.stack([s * (y[1] - y[0]), y[0] * (r - y[2]) - y[1],
                      y[0] * y[1] - b * y[2]])


@pytest.mark.slow
@pytest.mark.parametrize("adjoint", ["direct", "replay", "backsolve", "interpolated"])
def test_lorenz_short_horizon_vs_finite_differences(adjoint, monkeypatch):
    if adjoint == "replay":  # adjoint='direct' through the replay (see direct_path)
        from sciax.integrate import _adjoint
        monkeypatch.setattr(_adjoint, "FORWARD_MAX_INPUTS", 0)
        adjoint = "direct"
    te = snp.array([0.25, 0.5])
    w = np.array([[0.2, -0.4, 0.1], [1.0, 0.3, -0.2]]).T

    def loss(y0, p):
        r = solve_ivp(lorenz, (0.0, 0.5), y0, args=tuple(p), t_eval=te, rtol=1e-10,
                      atol=1e-10, adjoint=adjoint, max_steps=1024)
        return snp.sum(r.y * snp.asarray(w))

    y0, p = np.array([1.0, 2.0, 3.0]), np.array([10.0, 28.0, 8.0 / 3.0])
    gy, gp = sciax.grad(loss, argnums=(0, 1))(snp.asarray(y0), snp.asarray(p))
    eps = 1e-6
    for x, g, which in ((y0, gy, 0), (p, gp, 1)):
        fd = []
        for i in range(len(x)):
            e = np.zeros_like(x)
            e[i] = eps * max(1.0, abs(x[i]))
            args_p = [y0, p]
            args_m = [y0, p]
            args_p[which], args_m[which] = x + e, x - e
            fd.append((float(loss(*args_p)) - float(loss(*args_m))) / (2 * e[i]))
        np.testing.assert_allclose(np.asarray(g), fd, rtol=2e-5, atol=1e-6)


@pytest.mark.slow
def test_odeint_gradient_wrt_t_and_args():
    t = snp.array([0.0, 0.5, 1.0])

    def loss(t, k):
        return snp.sum(odeint(lambda y, t, k: -k * y, snp.array([2.0]), t, k))

    gt, gk = sciax.grad(loss, argnums=(0, 1))(t, 0.8)
    e = np.exp(-0.8 * np.array([0.0, 0.5, 1.0]))
    # d/dt_i of 2 exp(-k (t_i - t_0)) for i >= 1, and minus their sum for t_0.
    dti = -0.8 * 2 * e
    np.testing.assert_allclose(np.asarray(gt), [-dti[1:].sum(), dti[1], dti[2]],
                               rtol=1e-6, atol=1e-9)
    ts = np.array([0.0, 0.5, 1.0])
    np.testing.assert_allclose(float(gk), float(np.sum(-2 * ts * e)), rtol=1e-6)


@pytest.mark.slow
def test_direct_gradient_wrt_many_t_eval_points(direct_path):
    # The forward Jacobian counts t_eval as one direction (each point depends
    # only on its own time): d/dte_j of w_j . y(te_j) is w_j . A y(te_j).
    y0, k = np.array([1.0, 0.5]), 0.7
    te = np.array([0.1, 0.4, 0.5, 0.9, 1.3])
    w = np.array([[0.3, -1.1], [1.0, 0.2], [-0.4, 0.6], [0.5, 0.5], [2.0, -0.3]])
    a = A0 + k * B

    def loss(te, y0):
        r = solve_ivp(lin, (0.0, 1.5), y0, args=(k,), t_eval=te, rtol=1e-10,
                      atol=1e-12, max_steps=512)
        return snp.sum(r.y.T * snp.asarray(w))

    gt, gy = sciax.grad(loss, argnums=(0, 1))(snp.asarray(te), snp.asarray(y0))
    ys = [sl.expm(t * a) @ y0 for t in te]
    np.testing.assert_allclose(np.asarray(gt), [wj @ a @ yj for wj, yj in zip(w, ys)],
                               rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(np.asarray(gy),
                               sum(sl.expm(t * a).T @ wj for t, wj in zip(te, w)),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.slow
def test_second_derivatives():
    # The forward-mode Jacobian's own derivative runs the bounded loop, so
    # reverse over reverse works as well as forward over reverse.
    def f(k):
        return solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), snp.array([1.0]),
                         args=(k,), t_eval=snp.array([1.0]), rtol=1e-10, atol=1e-12,
                         max_steps=256).y[0, -1]
    np.testing.assert_allclose(float(sciax.grad(sciax.grad(f))(0.5)), np.exp(-0.5),
                               rtol=1e-7)
    np.testing.assert_allclose(float(sciax.jacfwd(sciax.grad(f))(0.5)),
                               np.exp(-0.5), rtol=1e-7)


@pytest.mark.slow
def test_direct_constant_inputs_take_no_direction():
    # Inputs that are concrete arrays at the call (here y0, t_span and t_eval
    # inside jit(grad), or k inside jacfwd over y0) take no forward-mode
    # direction; the derivatives w.r.t. the traced ones are unchanged.
    y0, k, t1 = np.array([1.0, 0.5]), 0.7, 1.5
    w = np.array([0.3, -1.1])

    def by_k(k):
        return snp.dot(snp.asarray(w), solve_lin(snp.asarray(y0), k, 0.0, t1, "direct"))

    gk = sciax.jit(sciax.grad(by_k))(k)
    ref = (w @ closed(y0, k + 1e-5, 0.0, t1) - w @ closed(y0, k - 1e-5, 0.0, t1)) / 2e-5
    np.testing.assert_allclose(float(gk), ref, rtol=1e-6)
    jy = sciax.jit(sciax.jacfwd(lambda y: solve_lin(y, k, 0.0, t1, "direct")))(
        snp.asarray(y0))
    np.testing.assert_allclose(np.asarray(jy), sl.expm(t1 * (A0 + k * B)), rtol=1e-7,
                               atol=1e-9)
