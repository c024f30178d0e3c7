"""
Optimal control of a cart by adjoint gradients and L-BFGS-B
===========================================================

Move a cart on a track (a double integrator, :math:`\\ddot x = u`) from rest at
:math:`x = 0` to rest at :math:`x = 1` in time :math:`T = 1`, with the least
control effort :math:`\\int_0^T u^2\\,dt`, the motor limited to :math:`|u| \\le 4`.
The control is piecewise constant on :math:`N = 50` intervals; the dynamics are
stepped exactly with ``lax.scan``, and the terminal conditions enter as a
quadratic penalty.

Reverse-mode differentiation of the simulation *is* the discrete adjoint
method: the backward pass runs the costate recursion, at the cost of about one
more simulation, whatever :math:`N`.  L-BFGS-B handles the bounds on :math:`u`.

Checks: the gradient against the hand-written costate recursion; the optimum
against SciPy's exact bounded linear least-squares solver (the problem is a
quadratic program, since the final state is linear in :math:`u`); and, without
the bound, against the continuous optimal control :math:`u(t) = 6 - 12t`.
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.optimize

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.optimize import minimize

N, T = 50, 1.0
dt = T / N
w = 1e4                                      # weight of the terminal penalty
u_max = 4.0


def simulate(u):
    def step(state, uk):
        x, v = state
        x = x + dt * v + 0.5 * dt**2 * uk    # exact for constant u on the step
        v = v + dt * uk
        return (x, v), x

    (x, v), xs = lax.scan(step, (snp.asarray(0.0), snp.asarray(0.0)), u)
    return x, v, xs


def cost(u):
    x, v, _ = simulate(u)
    return dt * snp.sum(u**2) + w * ((x - 1.0) ** 2 + v**2)


# %%
# The adjoint, by hand, for comparison
# ------------------------------------
# With state :math:`s_k = (x_k, v_k)`, :math:`s_{k+1} = A s_k + B u_k`, the costate
# :math:`\lambda_N = \partial\Phi/\partial s_N` runs backwards,
# :math:`\lambda_k = A^\top\lambda_{k+1}`, and
# :math:`\partial J/\partial u_k = 2\,dt\,u_k + B^\top\lambda_{k+1}`.


def adjoint_gradient(u):
    A = np.array([[1.0, dt], [0.0, 1.0]])
    B = np.array([0.5 * dt**2, dt])
    s = np.zeros(2)
    for uk in u:
        s = A @ s + B * uk
    lam = 2 * w * np.array([s[0] - 1.0, s[1]])
    g = np.empty(N)
    for k in reversed(range(N)):
        g[k] = 2 * dt * u[k] + B @ lam
        lam = A.T @ lam
    return g


u_test = np.sin(np.linspace(0, 3, N))
np.testing.assert_allclose(np.asarray(sciax.grad(cost)(snp.asarray(u_test))),
                           adjoint_gradient(u_test), rtol=1e-10, atol=1e-8)

# %%
# Solving with L-BFGS-B
# ---------------------

res = minimize(cost, snp.zeros(N), method="L-BFGS-B", bounds=[(-u_max, u_max)] * N,
               options={"maxiter": 500, "gtol": 1e-10, "ftol": 1e-15})
u_opt = np.asarray(res.x)
x_end, v_end, xs = simulate(res.x)
print(f"cost {float(res.fun):.6f}, final x = {float(x_end):.5f}, v = {float(v_end):.5f}")

# The same QP as bounded linear least squares: rows sqrt(dt) I, sqrt(w) [x_N; v_N].
M = np.vstack([np.sqrt(dt) * np.eye(N),
               np.sqrt(w) * np.array([[dt**2 * (N - k - 0.5) for k in range(N)],
                                      [dt] * N])])
rhs = np.r_[np.zeros(N), np.sqrt(w), 0.0]
ref = scipy.optimize.lsq_linear(M, rhs, bounds=(-u_max, u_max), tol=1e-12)
print(f"SciPy lsq_linear cost {2 * ref.cost:.6f}")
np.testing.assert_allclose(float(res.fun), 2 * ref.cost, rtol=1e-6)
np.testing.assert_allclose(u_opt, ref.x, atol=2e-3)

# %%
# Without the motor limit the discrete optimum approaches the continuous one,
# :math:`u(t) = 6 - 12t` (up to the :math:`O(dt)` of the piecewise-constant
# control and the :math:`O(1/w)` of the penalty).

res_free = minimize(cost, snp.zeros(N), method="L-BFGS-B",
                    options={"maxiter": 500, "gtol": 1e-10, "ftol": 1e-15})
t_mid = (np.arange(N) + 0.5) * dt
np.testing.assert_allclose(np.asarray(res_free.x), 6 - 12 * t_mid, atol=0.05)

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 3.5))
ax0.step(t_mid, u_opt, where="mid", label="|u| <= 4")
ax0.step(t_mid, np.asarray(res_free.x), where="mid", label="unbounded")
ax0.plot(t_mid, 6 - 12 * t_mid, "k--", lw=1, label="6 - 12 t")
ax0.set_xlabel("t")
ax0.set_ylabel("control u")
ax0.legend()
ax1.plot(dt * np.arange(1, N + 1), np.asarray(xs), label="|u| <= 4")
ax1.plot(dt * np.arange(1, N + 1), np.asarray(simulate(res_free.x)[2]), label="unbounded")
ax1.set_xlabel("t")
ax1.set_ylabel("position x")
ax1.legend()
fig.tight_layout()
