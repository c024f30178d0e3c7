"""
Gaussian-process hyperparameters by L-BFGS-B
============================================

A Gaussian process with a squared-exponential kernel,
:math:`k(x, x') = s^2\\exp(-(x-x')^2/2\\ell^2)`, plus noise variance
:math:`\\sigma^2`, has log marginal likelihood

.. math::

    \\log p(y) = -\\tfrac12 y^\\top K^{-1} y - \\sum_i \\log L_{ii}
                 - \\tfrac n2 \\log 2\\pi,\\qquad K = LL^\\top,

computed with a Cholesky factorisation.  ``sciax.grad`` differentiates through
``cho_factor``/``cho_solve`` (LAPACK, via XLA), and ``minimize`` with L-BFGS-B
fits the three hyperparameters within bounds, in log space.

Checks: the gradient against SciPy's finite differences, and the optimum against
SciPy's L-BFGS-B on a NumPy version of the same objective.
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.linalg
import scipy.optimize

import sciax
import sciax.numpy as snp
from sciax import linalg
from sciax.optimize import minimize

rng = np.random.default_rng(6)
n = 30
x_np = np.sort(rng.uniform(-3, 3, n))
y_np = np.sin(1.5 * x_np) + 0.2 * rng.normal(size=n)
x, y = snp.asarray(x_np), snp.asarray(y_np)


def kernel(xa, xb, log_ell, log_s):
    d2 = (xa[:, None] - xb[None, :]) ** 2
    return snp.exp(2 * log_s) * snp.exp(-0.5 * d2 / snp.exp(2 * log_ell))


def neg_log_marginal(theta):
    log_ell, log_s, log_noise = theta[0], theta[1], theta[2]
    K = kernel(x, x, log_ell, log_s) + snp.exp(2 * log_noise) * snp.eye(n)
    c, low = linalg.cho_factor(K, lower=True)
    alpha = linalg.cho_solve((c, low), y)
    return 0.5 * y @ alpha + snp.sum(snp.log(snp.diag(c))) + 0.5 * n * snp.log(2 * snp.pi)


bounds = [(-3.0, 3.0), (-3.0, 3.0), (-5.0, 1.0)]
theta0 = snp.array([0.0, 0.0, -1.0])
res = minimize(neg_log_marginal, theta0, method="L-BFGS-B", bounds=bounds,
               options={"gtol": 1e-9})
print("ell, s, noise =", np.round(np.exp(np.asarray(res.x)), 4),
      " -log p(y) =", round(float(res.fun), 6))

# %%
# Checks against SciPy
# --------------------


def nlm_np(theta):
    ell, s, noise = np.exp(theta)
    K = s**2 * np.exp(-0.5 * (x_np[:, None] - x_np[None, :]) ** 2 / ell**2)
    K = K + noise**2 * np.eye(n)
    c = scipy.linalg.cho_factor(K, lower=True)
    return (0.5 * y_np @ scipy.linalg.cho_solve(c, y_np) + np.sum(np.log(np.diag(c[0])))
            + 0.5 * n * np.log(2 * np.pi))


g = np.asarray(sciax.grad(neg_log_marginal)(theta0))
g_fd = scipy.optimize.approx_fprime(np.asarray(theta0), nlm_np, 1e-7)
np.testing.assert_allclose(g, g_fd, rtol=1e-5, atol=1e-6)

ref = scipy.optimize.minimize(nlm_np, np.asarray(theta0), method="L-BFGS-B",
                              bounds=bounds, options={"gtol": 1e-9})
print("SciPy: ell, s, noise =", np.round(np.exp(ref.x), 4), " -log p(y) =",
      round(ref.fun, 6))
assert float(res.fun) <= ref.fun + 1e-7
np.testing.assert_allclose(np.asarray(res.x), ref.x, atol=2e-3)

# %%
# The posterior
# -------------
# Predictive mean and two standard deviations at the fitted hyperparameters.

log_ell, log_s, log_noise = res.x[0], res.x[1], res.x[2]
xs = snp.linspace(-3.5, 3.5, 200)
K = kernel(x, x, log_ell, log_s) + snp.exp(2 * log_noise) * snp.eye(n)
Ks = kernel(xs, x, log_ell, log_s)
cf = linalg.cho_factor(K, lower=True)
mean = Ks @ linalg.cho_solve(cf, y)
var = snp.exp(2 * log_s) - snp.sum(Ks * linalg.cho_solve(cf, Ks.T).T, axis=1)
sd = snp.sqrt(var)

fig, ax = plt.subplots(figsize=(6.5, 4))
ax.plot(x_np, y_np, "k.", label="data")
ax.plot(np.asarray(xs), np.asarray(mean), label="posterior mean")
ax.fill_between(np.asarray(xs), np.asarray(mean - 2 * sd), np.asarray(mean + 2 * sd),
                alpha=0.3, label="mean +- 2 sd")
ax.plot(np.asarray(xs), np.sin(1.5 * np.asarray(xs)), "--", color="gray",
        label="truth")
ax.legend()
fig.tight_layout()
