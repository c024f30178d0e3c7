"""
``curve_fit`` with ``pcov``, beside SciPy's
===========================================

``sciax.optimize.curve_fit`` has SciPy's signature and returns the same
``(popt, pcov)``; the covariance comes from the exact Jacobian of the model (by
automatic differentiation) instead of finite differences.  Here both fit a
decaying exponential with an offset, and we propagate the parameter covariance
to a confidence band for the fitted curve with ``sciax.jacfwd`` (the delta
method).
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.optimize

import sciax
import sciax.numpy as snp
from sciax.optimize import curve_fit


def model(x, a, k, c):
    return a * snp.exp(-k * x) + c


def model_np(x, a, k, c):
    return a * np.exp(-k * x) + c


rng = np.random.default_rng(5)
x_np = np.linspace(0.0, 4.0, 40)
sigma = 0.05 + 0.02 * x_np
y_np = model_np(x_np, 2.0, 1.3, 0.5) + sigma * rng.normal(size=x_np.size)
x, y = snp.asarray(x_np), snp.asarray(y_np)

p0 = [1.0, 1.0, 0.0]
popt, pcov = curve_fit(model, x, y, p0=p0, sigma=snp.asarray(sigma),
                       absolute_sigma=True)
popt_sp, pcov_sp = scipy.optimize.curve_fit(model_np, x_np, y_np, p0=p0, sigma=sigma,
                                            absolute_sigma=True)
print("sciax popt", np.round(np.asarray(popt), 6), " SciPy", np.round(popt_sp, 6))
print("sciax std ", np.round(np.sqrt(np.diag(np.asarray(pcov))), 6),
      " SciPy", np.round(np.sqrt(np.diag(pcov_sp)), 6))

# %%
# Checks
# ------
# The parameters agree to the solvers' tolerances.  SciPy's ``pcov`` uses a
# finite-difference Jacobian, so the two covariances agree to about the
# finite-difference error, not to round-off.

np.testing.assert_allclose(np.asarray(popt), popt_sp, rtol=1e-6)
np.testing.assert_allclose(np.asarray(pcov), pcov_sp, rtol=1e-4)

# %%
# A confidence band by the delta method
# -------------------------------------
# :math:`\mathrm{Var}\,f(x; \hat p) \approx J\,\mathrm{pcov}\,J^\top`, with
# :math:`J = \partial f/\partial p` from ``jacfwd``, evaluated on a fine grid.

xg = snp.linspace(0.0, 4.0, 200)
J = sciax.jacfwd(lambda p: model(xg, *p))(popt)                 # shape (200, 3)
band = 2 * snp.sqrt(snp.einsum("ij,jk,ik->i", J, pcov, J))
fit = model(xg, *popt)

fig, ax = plt.subplots(figsize=(6, 4))
ax.errorbar(x_np, y_np, yerr=sigma, fmt=".", color="k", label="data")
ax.plot(np.asarray(xg), np.asarray(fit), label="fit")
ax.fill_between(np.asarray(xg), np.asarray(fit - band), np.asarray(fit + band),
                alpha=0.3, label="95% band")
ax.set_xlabel("x")
ax.legend()
fig.tight_layout()

# The band at x = 0 is the standard error of a + c: check it against pcov directly.
var0 = pcov[0, 0] + pcov[2, 2] + 2 * pcov[0, 2]
np.testing.assert_allclose(float(band[0]), 2 * float(snp.sqrt(var0)), rtol=1e-10)
