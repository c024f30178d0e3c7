"""
Maximum likelihood with standard errors from the exact hessian
==============================================================

Fit a gamma distribution (shape :math:`k`, scale :math:`\\theta`) to data by
maximum likelihood, then read standard errors off the inverse of the observed
information matrix, the hessian of the negative log-likelihood at the optimum.
``sciax.hessian`` gives that matrix exactly (forward-over-reverse differentiation),
with no finite-difference step to tune.

Checks: the estimates agree with ``scipy.stats.gamma.fit``, and the hessian equals
its closed form :math:`n\\begin{pmatrix}\\psi'(k) & 1/\\theta\\\\ 1/\\theta &
k/\\theta^2\\end{pmatrix}` at the optimum.
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.special
import scipy.stats

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.optimize import minimize

rng = np.random.default_rng(0)
data = rng.gamma(shape=2.5, scale=1.5, size=400)
x = snp.asarray(data)
n = data.size


def nll(params):
    """Negative log-likelihood in the natural parameters (k, theta)."""
    k, theta = params[0], params[1]
    return -snp.sum((k - 1) * snp.log(x) - x / theta - lax.lgamma(k) - k * snp.log(theta))


# %%
# The fit
# -------
# Optimise in log-parameters, so the search cannot leave the positive quadrant;
# ``minimize`` gets the gradient from ``sciax.grad`` automatically.  The gradient
# tolerance is tightened from SciPy's default 1e-5 to 1e-6, not further: near the
# optimum ``f`` (about 831) changes by less than its rounding (1e-13) from one
# step to the next, and a line search cannot make progress on that (SciPy's BFGS
# reports "precision loss" at ``gtol=1e-10`` on this problem, as would ours).

res = minimize(lambda u: nll(snp.exp(u)), snp.log(snp.array([1.0, 1.0])), method="BFGS",
               options={"gtol": 1e-6})
assert bool(res.success)
k_hat, theta_hat = np.exp(np.asarray(res.x))

H = np.asarray(sciax.hessian(nll)(snp.array([k_hat, theta_hat])))
cov = np.linalg.inv(H)
se = np.sqrt(np.diag(cov))
print(f"k     = {k_hat:.4f} +- {se[0]:.4f}")
print(f"theta = {theta_hat:.4f} +- {se[1]:.4f}")

# %%
# Checks against SciPy and the closed form
# ----------------------------------------

k_sp, _, theta_sp = scipy.stats.gamma.fit(data, floc=0)
np.testing.assert_allclose([k_hat, theta_hat], [k_sp, theta_sp], rtol=1e-4)

H_exact = n * np.array([[scipy.special.polygamma(1, k_hat), 1 / theta_hat],
                        [1 / theta_hat, k_hat / theta_hat**2]])
np.testing.assert_allclose(H, H_exact, rtol=1e-6)

# %%
# The likelihood surface and the Wald ellipse
# -------------------------------------------
# The 95% confidence ellipse from the covariance matrix, over the contours of the
# log-likelihood evaluated on a grid by ``vmap``.

ks = np.linspace(k_hat - 4 * se[0], k_hat + 4 * se[0], 60)
ts = np.linspace(theta_hat - 4 * se[1], theta_hat + 4 * se[1], 60)
K, T = np.meshgrid(ks, ts)
grid = snp.stack([snp.asarray(K.ravel()), snp.asarray(T.ravel())], axis=1)
L = -np.asarray(sciax.vmap(nll)(grid)).reshape(K.shape)

angle = np.linspace(0, 2 * np.pi, 200)
chol = np.linalg.cholesky(cov)
ellipse = np.array([k_hat, theta_hat])[:, None] + np.sqrt(scipy.stats.chi2.ppf(
    0.95, 2)) * chol @ np.stack([np.cos(angle), np.sin(angle)])

fig, ax = plt.subplots(figsize=(5, 4))
cs = ax.contour(K, T, L - L.max(), levels=[-8, -4, -2, -1, -0.5])
ax.clabel(cs, fontsize=7)
ax.plot(*ellipse, "k--", label="95% Wald region")
ax.plot(k_hat, theta_hat, "ko")
ax.set_xlabel("shape k")
ax.set_ylabel("scale theta")
ax.legend()
fig.tight_layout()

# %%
# The Wald region is the :math:`-\chi^2_{2,0.95}/2 \approx -3.0` contour of the
# *quadratic* approximation of the log-likelihood.  The true surface is skewed
# (the drop along the ellipse ranges over a few units around -3), but near the
# optimum the hessian describes it exactly: on an ellipse shrunk by a factor
# :math:`s = 0.02` the drop is :math:`-3.0\,s^2` to within a few percent.

center = np.array([k_hat, theta_hat])[:, None]
for s, tol in [(1.0, None), (0.02, 0.05)]:
    pts = center + s * (ellipse - center)
    drop = float(nll(snp.array([k_hat, theta_hat]))) - np.asarray(
        sciax.vmap(nll)(snp.asarray(pts.T)))
    print(f"s = {s}: drop / s^2 in [{drop.min() / s**2:.3f}, {drop.max() / s**2:.3f}]")
    if tol is not None:
        np.testing.assert_allclose(drop / s**2, -scipy.stats.chi2.ppf(0.95, 2) / 2,
                                   rtol=tol)
