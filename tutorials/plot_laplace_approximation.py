"""
Laplace approximation of a posterior
====================================

The Laplace approximation replaces a posterior by the Gaussian at its mode whose
precision is the curvature there, :math:`-\\partial^2\\log p`.  It needs the mode
(an optimiser) and a second derivative (``sciax.hessian``), and it also estimates
the normalising constant, the *evidence*:
:math:`\\log Z \\approx \\log p(\\phi^*) + \\tfrac12\\log 2\\pi - \\tfrac12\\log
(-\\partial^2_\\phi \\log p(\\phi^*))`.

The example is a binomial success probability :math:`\\theta` with a
:math:`\\mathrm{Beta}(a, b)` prior, worked on the logit scale
:math:`\\phi = \\log(\\theta/(1-\\theta))` where the posterior is closer to
Gaussian.  Being conjugate, it has exact answers to check against: the mode
:math:`\\theta^* = (k+a)/(n+a+b)` on the logit scale and the evidence
:math:`B(k+a, n-k+b)` (log-beta function from SciPy).  ``vmap`` runs the
approximation for several data sets at once, showing its :math:`O(1/n)` error.
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.special
import scipy.stats

import sciax
import sciax.numpy as snp
from sciax import lax

a, b = 2.0, 3.0


def log_post(phi, k, n):
    """Unnormalised log-posterior of phi = logit(theta), Jacobian included."""
    log_theta = -snp.logaddexp(0.0, -phi)
    log_1m_theta = -snp.logaddexp(0.0, phi)
    return (k + a) * log_theta + (n - k + b) * log_1m_theta


def laplace(k, n):
    d1 = sciax.grad(log_post)
    d2 = sciax.grad(d1)

    # Newton's method for the mode, from phi = 0, as a compiled loop
    phi = lax.fori_loop(0, 30, lambda i, p: p - d1(p, k, n) / d2(p, k, n), 0.0)
    curvature = -sciax.hessian(log_post)(phi, k, n)
    log_z = log_post(phi, k, n) + 0.5 * snp.log(2 * snp.pi) - 0.5 * snp.log(curvature)
    return phi, curvature, log_z


# data sets of growing size, all with a success fraction of 0.3
ns = snp.array([5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 320.0])
ks = 0.3 * ns
phi, curv, log_z = sciax.jit(sciax.vmap(laplace))(ks, ns)

# %%
# Checks
# ------
# The mode agrees with the closed form, and the evidence's relative error is
# :math:`O(1/n)`: for large :math:`n` it halves each time :math:`n` doubles.

phi_exact = scipy.special.logit((ks + a) / (ns + a + b))
np.testing.assert_allclose(np.asarray(phi), phi_exact, rtol=1e-10)

log_z_exact = scipy.special.betaln(np.asarray(ks) + a, np.asarray(ns - ks) + b)
err = np.asarray(log_z) - log_z_exact
for n_, e in zip(np.asarray(ns), err):
    print(f"n = {n_:5.0f}: log Z error {e:+.5f}")
assert np.all(np.abs(err) < 0.05)
ratios = err[1:] / err[:-1]
assert np.all(np.diff(np.abs(err)) < 0), err
assert np.all((ratios[-3:] > 0.45) & (ratios[-3:] < 0.56)), ratios

# %%
# The approximation against the exact posterior
# ---------------------------------------------
# For the smallest data set (:math:`n = 5`), mapped back to :math:`\theta`: the exact
# posterior is :math:`\mathrm{Beta}(k+a, n-k+b)`.

i = 0
theta = np.linspace(0.001, 0.999, 400)
ph = scipy.special.logit(theta)
jac = 1.0 / (theta * (1 - theta))                   # d phi / d theta
approx = scipy.stats.norm.pdf(ph, float(phi[i]), 1 / np.sqrt(float(curv[i]))) * jac
exact = scipy.stats.beta.pdf(theta, float(ks[i]) + a, float(ns[i] - ks[i]) + b)

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 3.5))
ax0.plot(theta, exact, label="exact Beta posterior")
ax0.plot(theta, approx, "--", label="Laplace (logit scale)")
ax0.set_xlabel("theta")
ax0.legend()
ax0.set_title("n = 5")
ax1.loglog(np.asarray(ns), np.abs(err), "o-")
ax1.set_xlabel("n")
ax1.set_ylabel("|log Z error|")
ax1.set_title("evidence error ~ 1/n")
fig.tight_layout()
