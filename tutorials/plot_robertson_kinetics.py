"""
Chemical kinetics: fitting Robertson's rate constants through a stiff solver
============================================================================

Robertson's three-species reaction system,

.. math::

    \\dot y_1 = -k_1 y_1 + k_3 y_2 y_3,\\quad
    \\dot y_2 = k_1 y_1 - k_2 y_2^2 - k_3 y_2 y_3,\\quad
    \\dot y_3 = k_2 y_2^2,

with :math:`k = (0.04, 3\\times10^7, 10^4)`, is the classic stiff problem: its rate
constants span nine orders of magnitude, and an explicit method needs a step
below about :math:`10^{-3}` for stability long after the fast transient is over.
The implicit ``BDF`` method takes steps set by accuracy alone.

We fit :math:`\\log k_1` and :math:`\\log k_3` to noisy measurements of
:math:`y_1` and :math:`y_3` with ``least_squares``.  The residual Jacobian is the
derivative of the stiff solution with respect to the rate constants, which sciax
computes by differentiating through the BDF steps.

Checks: the solution against SciPy's ``Radau``, conservation of
:math:`y_1 + y_2 + y_3 = 1` (a linear invariant, which BDF preserves to rounding
error), and the fitted constants within their reported standard errors of the
truth.
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.integrate

import sciax
import sciax.numpy as snp
from sciax.integrate import solve_ivp
from sciax.optimize import least_squares

k_true = np.array([0.04, 3e7, 1e4])
y0 = snp.array([1.0, 0.0, 0.0])
t_obs = snp.asarray(np.geomspace(0.1, 40.0, 12))


def robertson(t, y, k):
    y1, y2, y3 = y[0], y[1], y[2]
    return snp.stack([-k[0] * y1 + k[2] * y2 * y3,
                      k[0] * y1 - k[1] * y2**2 - k[2] * y2 * y3,
                      k[1] * y2**2])


def simulate(k):
    sol = solve_ivp(robertson, (0.0, 40.0), y0, method="BDF", args=(k,), t_eval=t_obs,
                    rtol=1e-7, atol=1e-10, max_steps=1000)
    return sol.y


# %%
# The forward problem, against SciPy
# ----------------------------------

sol = solve_ivp(robertson, (0.0, 40.0), y0, method="BDF", args=(snp.asarray(k_true),),
                t_eval=t_obs, rtol=1e-7, atol=1e-10, max_steps=1000)
print(f"BDF: {int(sol.nfev)} function evaluations, {int(sol.njev)} Jacobians, "
      f"{int(sol.nlu)} LU factorisations")
ref = scipy.integrate.solve_ivp(lambda t, y: np.asarray(robertson(t, y, k_true)),
                                (0.0, 40.0), [1.0, 0.0, 0.0], method="Radau",
                                t_eval=np.asarray(t_obs), rtol=1e-10, atol=1e-13)
y = np.asarray(sol.y)
np.testing.assert_allclose(y[0], ref.y[0], rtol=1e-5)
np.testing.assert_allclose(y[2], ref.y[2], rtol=1e-4, atol=1e-8)
np.testing.assert_allclose(y.sum(axis=0), 1.0, atol=1e-12)

# %%
# The fit
# -------
# Measurements of :math:`y_1` and :math:`y_3` with 0.2% noise; :math:`k_2` is
# held at its true value.

rng = np.random.default_rng(8)
sigma = 2e-3
data = y[[0, 2]] + sigma * rng.normal(size=(2, t_obs.shape[0]))


def residuals(logk):
    k = snp.stack([snp.exp(logk[0]), k_true[1], snp.exp(logk[1])])
    return ((simulate(k)[snp.array([0, 2])] - data) / sigma).ravel()


fit = least_squares(residuals, snp.log(snp.array([0.02, 3e3])), method="lm")
J = np.asarray(fit.jac)
cov = np.linalg.inv(J.T @ J)
logk_hat, se = np.asarray(fit.x), np.sqrt(np.diag(cov))
print("fitted k1, k3:", np.round(np.exp(logk_hat), 5), " true:", k_true[[0, 2]])
print("standard errors of log k:", np.round(se, 4))
assert bool(fit.success)
assert np.all(np.abs(logk_hat - np.log(k_true[[0, 2]])) < 3 * se)

# %%
# Concentrations over time
# ------------------------
# :math:`y_2` is scaled by :math:`10^4` to be visible.

t_fine = snp.asarray(np.geomspace(1e-5, 40.0, 200))
k_hat = snp.asarray([np.exp(logk_hat[0]), k_true[1], np.exp(logk_hat[1])])
curve = np.asarray(solve_ivp(robertson, (0.0, 40.0), y0, method="BDF", args=(k_hat,),
                             t_eval=t_fine, rtol=1e-7, atol=1e-10, max_steps=1000).y)
fig, ax = plt.subplots(figsize=(6.5, 4))
tf = np.asarray(t_fine)
ax.semilogx(tf, curve[0], label="y1")
ax.semilogx(tf, 1e4 * curve[1], label="1e4 y2")
ax.semilogx(tf, curve[2], label="y3")
ax.semilogx(np.asarray(t_obs), data[0], "k.", label="data")
ax.semilogx(np.asarray(t_obs), data[1], "k.")
ax.set_xlabel("t")
ax.legend()
fig.tight_layout()
