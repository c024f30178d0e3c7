"""
Lennard-Jones molecular dynamics: forces from ``grad``
======================================================

A small cluster of atoms interacting through the Lennard-Jones potential
:math:`u(r) = 4(r^{-12} - r^{-6})` (reduced units).  The total potential energy is
a sum over pairs, written as a ``vmap`` over the pair list; the forces are its
negative gradient, :math:`F = -\\nabla U`, from ``sciax.grad``, so they are always
consistent with the energy.  Velocity Verlet, inside ``lax.scan``, then conserves
the total energy to :math:`O(\\Delta t^2)` without drift.

Checks: the forces against the analytic pair force, Newton's third law (total force
and torque zero), and conservation of energy and momentum along the trajectory.
"""

import itertools

import matplotlib.pyplot as plt
import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

# 13 atoms: a slightly perturbed icosahedral shell around a centre atom
golden = (1 + 5**0.5) / 2
ico = np.array([p for s1 in (-1, 1) for s2 in (-1, 1)
                for p in ([0, s1, s2 * golden], [s1, s2 * golden, 0],
                          [s2 * golden, 0, s1])])
ico = ico / np.linalg.norm(ico, axis=1, keepdims=True) * 1.1
rng = np.random.default_rng(4)
pos0 = snp.asarray(np.vstack([np.zeros(3), ico]) + 0.03 * rng.normal(size=(13, 3)))
n_atoms = pos0.shape[0]
pairs = snp.asarray(np.array(list(itertools.combinations(range(n_atoms), 2))))


def pair_energy(ri, rj):
    r2 = snp.sum((ri - rj) ** 2)
    inv6 = 1.0 / r2**3
    return 4.0 * (inv6**2 - inv6)


def potential(pos):
    return snp.sum(sciax.vmap(lambda p: pair_energy(pos[p[0]], pos[p[1]]))(pairs))


forces = sciax.jit(lambda pos: -sciax.grad(potential)(pos))

# %%
# Forces: checked against the analytic pair force
# -----------------------------------------------
# :math:`\mathbf F_i = \sum_j 24(2r^{-14} - r^{-8})(\mathbf r_i - \mathbf r_j)`.

F = np.asarray(forces(pos0))
P = np.asarray(pos0)
d = P[:, None, :] - P[None, :, :]
r2 = np.sum(d**2, axis=-1) + np.eye(n_atoms)
coef = 24.0 * (2.0 / r2**7 - 1.0 / r2**4) * (1 - np.eye(n_atoms))
F_exact = np.sum(coef[:, :, None] * d, axis=1)
np.testing.assert_allclose(F, F_exact, rtol=1e-10, atol=1e-10)
np.testing.assert_allclose(F.sum(axis=0), 0.0, atol=1e-10)                # momentum
np.testing.assert_allclose(np.cross(P, F).sum(axis=0), 0.0, atol=1e-10)    # torque

# %%
# Velocity Verlet in ``lax.scan``
# -------------------------------

dt = 0.002
n_steps = 2000
vel0 = snp.asarray(0.3 * rng.normal(size=(n_atoms, 3)))
vel0 = vel0 - vel0.mean(axis=0)                        # zero total momentum


@sciax.jit
def run(pos, vel):
    def step(state, _):
        pos, vel, f = state
        vel = vel + 0.5 * dt * f
        pos = pos + dt * vel
        f = forces(pos)
        vel = vel + 0.5 * dt * f
        kinetic = 0.5 * snp.sum(vel**2)
        return (pos, vel, f), (kinetic, potential(pos), vel.sum(axis=0))

    _, out = lax.scan(step, (pos, vel, forces(pos)), None, length=n_steps)
    return out


kinetic, pot, momentum = (np.asarray(a) for a in run(pos0, vel0))
total = kinetic + pot
E0 = float(0.5 * snp.sum(vel0**2) + potential(pos0))
t = dt * np.arange(1, n_steps + 1)

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 3.5))
ax0.plot(t, kinetic, label="kinetic")
ax0.plot(t, pot - pot[0], label="potential - U(0)")
ax0.set_xlabel("t")
ax0.legend()
ax1.plot(t, total - E0)
ax1.set_xlabel("t")
ax1.set_ylabel("E(t) - E(0)")
fig.tight_layout()

# %%
# Checks
# ------
# Energy is exchanged between kinetic and potential, but the total is conserved to
# a small fraction of the kinetic energy's fluctuation, with no drift between the
# two halves of the run; momentum is conserved to round-off.

swing = kinetic.max() - kinetic.min()
print(f"kinetic energy swing {swing:.3f}, total energy error {np.abs(total - E0).max():.2e}")
assert np.abs(total - E0).max() < 1e-3 * swing
half = n_steps // 2
assert abs(np.mean(total[half:]) - np.mean(total[:half])) < 2e-4 * swing
np.testing.assert_allclose(momentum, 0.0, atol=1e-10)
