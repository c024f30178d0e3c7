"""
Hamiltonian Monte Carlo with ``grad`` and ``lax.scan``
======================================================

Hamiltonian Monte Carlo samples a density :math:`p(q) \\propto e^{-U(q)}` by
simulating Hamiltonian dynamics with potential :math:`U` and a random momentum,
then accepting or rejecting the end point (Neal, "MCMC using Hamiltonian
dynamics", 2011).  Everything it needs is here: ``sciax.grad`` for
:math:`\\nabla U`, ``lax.fori_loop`` for the leapfrog trajectory, ``lax.scan`` for
the chain and ``sciax.random`` keys for the momenta and the accept step.  The
whole sampler is one compiled program.

The target is a strongly correlated Gaussian, so the sample mean and covariance
can be checked against the truth within Monte Carlo error.
"""

import matplotlib.pyplot as plt
import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax, random

mean = snp.array([1.0, -1.0])
cov = snp.array([[1.0, 0.95], [0.95, 1.0]])
prec = snp.linalg.inv(cov)


def U(q):
    d = q - mean
    return 0.5 * d @ prec @ d


grad_U = sciax.grad(U)
step_size, n_leapfrog = 0.18, 12


def hmc_step(q, key):
    k_mom, k_acc = random.split(key)
    p0 = random.normal(k_mom, q.shape)

    def leapfrog(i, state):
        q, p = state
        p = p - 0.5 * step_size * grad_U(q)
        q = q + step_size * p
        p = p - 0.5 * step_size * grad_U(q)
        return q, p

    q1, p1 = lax.fori_loop(0, n_leapfrog, leapfrog, (q, p0))
    log_ratio = U(q) + 0.5 * p0 @ p0 - U(q1) - 0.5 * p1 @ p1
    accept = snp.log(random.uniform(k_acc)) < log_ratio
    return snp.where(accept, q1, q), (snp.where(accept, q1, q), accept)


n_samples = 4000


@sciax.jit
def sample(key, q0):
    _, (qs, acc) = lax.scan(hmc_step, q0, random.split(key, n_samples))
    return qs, acc


qs, acc = sample(random.key(0), snp.array([-3.0, 3.0]))
qs = np.asarray(qs)[500:]                      # drop the warm-up
print(f"acceptance rate {float(np.mean(np.asarray(acc))):.2f}")
print("sample mean", np.round(qs.mean(axis=0), 3))
print("sample cov\n", np.round(np.cov(qs.T), 3))

# %%
# Samples and the target's contours
# ---------------------------------

g = np.linspace(-3, 3, 100)
X, Y = np.meshgrid(g + 1, g - 1)
pts = snp.asarray(np.stack([X.ravel(), Y.ravel()], axis=1))
Z = np.asarray(sciax.vmap(U)(pts)).reshape(X.shape)

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 4))
ax0.contour(X, Y, Z, levels=[0.5, 2, 4.5], colors="k")
ax0.plot(qs[:, 0], qs[:, 1], ".", ms=2, alpha=0.4)
ax0.set_aspect("equal")
ax0.set_title("HMC samples")
ax1.plot(qs[:300, 0], lw=0.8)
ax1.set_xlabel("iteration")
ax1.set_ylabel("q[0]")
ax1.set_title("trace")
fig.tight_layout()

# %%
# Checks
# ------
# The chain is close to independent at this step size, so the standard error of
# each mean is about :math:`1/\sqrt{3500} \approx 0.017`; allow four of them, plus
# some autocorrelation.  The acceptance rate is high, as the leapfrog integrator's
# energy error is small.

assert float(np.mean(np.asarray(acc))) > 0.8
np.testing.assert_allclose(qs.mean(axis=0), np.asarray(mean), atol=0.1)
np.testing.assert_allclose(np.cov(qs.T), np.asarray(cov), atol=0.1)
