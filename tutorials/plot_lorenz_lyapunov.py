"""
Lorenz system: sensitivity and the largest Lyapunov exponent
============================================================

The Lorenz equations with :math:`\\sigma = 10`, :math:`\\rho = 28`,
:math:`\\beta = 8/3` are chaotic: nearby trajectories separate like
:math:`e^{\\lambda t}`, with largest Lyapunov exponent :math:`\\lambda \\approx 0.906`
(Sprott, *Chaos and Time-Series Analysis*, 2003, table A.1).

Two views of the same fact:

1. ``sciax.jacfwd`` of the solution of ``solve_ivp`` with respect to the initial
   state gives the Jacobian of the flow map :math:`\\partial y(t)/\\partial y_0`,
   whose norm grows exponentially (checked against finite differences);
2. pushing one tangent vector along a long trajectory with ``sciax.jvp`` inside a
   ``lax.scan``, renormalising it as it goes, estimates :math:`\\lambda` itself.
"""

import matplotlib.pyplot as plt
import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.integrate import solve_ivp

sigma, rho, beta = 10.0, 28.0, 8.0 / 3.0


def lorenz(t, y):
    x, yy, z = y[0], y[1], y[2]
    return snp.stack([sigma * (yy - x), x * (rho - z) - yy, x * yy - beta * z])


y0 = snp.array([1.0, 1.0, 20.0])
t_eval = snp.linspace(0.5, 8.0, 16)


def trajectory(y0):
    res = solve_ivp(lorenz, (0.0, 8.0), y0, method="DOP853", t_eval=t_eval,
                    rtol=1e-10, atol=1e-10, max_steps=2048)
    return res.y                                      # shape (3, len(t_eval))


# %%
# Sensitivity of the flow map
# ---------------------------
# ``jacfwd`` pushes three tangents (one per component of :math:`y_0`) through
# every step of the solver, in one batched forward pass.

J = sciax.jacfwd(trajectory)(y0)                     # shape (3, 16, 3)
growth = np.linalg.norm(np.asarray(J).transpose(1, 0, 2), ord=2, axis=(1, 2))

# central differences in the first component of y0, for comparison
h = 1e-6
e0 = snp.array([h, 0.0, 0.0])
fd = (np.asarray(trajectory(y0 + e0)) - np.asarray(trajectory(y0 - e0))) / (2 * h)
err = np.max(np.abs(fd - np.asarray(J[:, :, 0])) / (1 + np.abs(fd)))
print(f"jacfwd vs central differences: max relative error {err:.1e}")
assert err < 1e-3

# %%
# The largest Lyapunov exponent
# -----------------------------
# A fixed-step RK4 map written with ``lax``; ``sciax.jvp`` of one step carries a
# tangent vector, which is renormalised every step: the average log of the
# stretching factors is :math:`\lambda`.

dt = 0.01


def rk4(y):
    k1 = lorenz(0.0, y)
    k2 = lorenz(0.0, y + 0.5 * dt * k1)
    k3 = lorenz(0.0, y + 0.5 * dt * k2)
    k4 = lorenz(0.0, y + dt * k3)
    return y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


@sciax.jit
def lyapunov(y0, v0):
    def step(carry, _):
        y, v = carry
        y, v = sciax.jvp(rk4, (y,), (v,))
        n = snp.linalg.norm(v)
        return (y, v / n), snp.log(n)

    # discard a transient, then accumulate 20,000 steps (t = 200)
    (y, v), _ = lax.scan(step, (y0, v0), None, length=1000)
    _, logs = lax.scan(step, (y, v), None, length=20000)
    return snp.cumsum(logs) / (dt * snp.arange(1, 20001))


running = lyapunov(y0, snp.array([1.0, 0.0, 0.0]))
lam = float(running[-1])
print(f"largest Lyapunov exponent ~ {lam:.3f} (reference 0.906)")

# %%
# The norm of the flow map's Jacobian grows like :math:`e^{\lambda t}` (left); the
# running estimate of :math:`\lambda` settles near the reference value (right).

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 3.5))
ax0.semilogy(np.asarray(t_eval), growth, "o-", label="||dy(t)/dy0||")
ax0.semilogy(np.asarray(t_eval), growth[0] * np.exp(0.906 * (np.asarray(t_eval) - 0.5)),
             "--", label="exp(0.906 t)")
ax0.set_xlabel("t")
ax0.legend()
ax1.plot(dt * np.arange(1, 20001), np.asarray(running))
ax1.axhline(0.906, color="k", ls="--")
ax1.set_ylim(0.5, 1.3)
ax1.set_xlabel("t")
ax1.set_ylabel("running estimate of lambda")
fig.tight_layout()

# %%
# Check: a finite-time estimate over :math:`t = 200` is within a few percent of
# the long-time value.

assert abs(lam - 0.906) < 0.06
