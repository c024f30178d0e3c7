"""
Phonons in a diatomic chain: ``eigh`` under ``vmap`` and ``grad``
=================================================================

A one-dimensional crystal of alternating masses :math:`m_1, m_2` joined by springs
:math:`K` (lattice constant :math:`a`) has two branches of vibrational modes,
acoustic and optical, with

.. math::

    \\omega^2_\\pm(k) = K\\left(\\frac1{m_1} + \\frac1{m_2}\\right) \\pm K\\sqrt{
        \\left(\\frac1{m_1} + \\frac1{m_2}\\right)^2 - \\frac{4\\sin^2(ka/2)}{m_1 m_2}}.

Numerically, each wavevector :math:`k` gives a 2x2 dynamical matrix whose
eigenvalues are :math:`\\omega^2`.  ``vmap`` over :math:`k` diagonalises all of them
in one batched call of ``eigvalsh``, and ``grad`` through ``eigvalsh`` gives the
group velocity :math:`d\\omega/dk`.  A finite periodic chain, diagonalised as one
real symmetric matrix, must have exactly the frequencies of the allowed
wavevectors :math:`k = 2\\pi j / (N a)`.
"""

import matplotlib.pyplot as plt
import numpy as np

import sciax
import sciax.numpy as snp

K, m1, m2, a = 1.0, 1.0, 2.5, 1.0


def dynamical_matrix(k):
    # The Hermitian matrix [[2K/m1, -K(1 + e^{-ika})/sqrt(m1 m2)], [conj, 2K/m2]] has
    # the same eigenvalues as this real one (only |off-diagonal| matters for 2x2).
    off = -2 * K * snp.abs(snp.cos(k * a / 2)) / np.sqrt(m1 * m2)
    return snp.array([[2 * K / m1, off], [off, 2 * K / m2]])


def frequencies(k):
    return snp.sqrt(snp.maximum(snp.linalg.eigvalsh(dynamical_matrix(k)), 0.0))


def omega_exact(k):
    s = 1 / m1 + 1 / m2
    root = np.sqrt(s**2 - 4 * np.sin(k * a / 2) ** 2 / (m1 * m2))
    return np.sqrt(np.maximum(K * (s - root), 0)), np.sqrt(K * (s + root))


ks = snp.linspace(-np.pi / a, np.pi / a, 201)
w = np.asarray(sciax.vmap(frequencies)(ks))          # shape (201, 2)
w_ac, w_op = omega_exact(np.asarray(ks))
np.testing.assert_allclose(w[:, 0], w_ac, atol=1e-7)
np.testing.assert_allclose(w[:, 1], w_op, rtol=1e-12)

# %%
# Group velocity by ``grad`` through ``eigvalsh``
# -----------------------------------------------
# Compared with central differences of the closed form, away from k = 0 where the
# acoustic branch has a kink.

kg = snp.linspace(0.2, 3.0, 15)
v_ac = np.asarray(sciax.vmap(sciax.grad(lambda k: frequencies(k)[0]))(kg))
h = 1e-6
v_fd = (omega_exact(np.asarray(kg) + h)[0] - omega_exact(np.asarray(kg) - h)[0]) / (2 * h)
np.testing.assert_allclose(v_ac, v_fd, rtol=1e-6)

# the speed of sound, the acoustic slope at k -> 0: a sqrt(K / (2 (m1 + m2)))
c_sound = a * np.sqrt(K / (2 * (m1 + m2)))
slope = float(sciax.grad(lambda k: frequencies(k)[0])(1e-4))
print(f"speed of sound: grad {slope:.6f}, closed form {c_sound:.6f}")
np.testing.assert_allclose(slope, c_sound, rtol=1e-6)

# %%
# A finite periodic chain
# -----------------------
# N cells, 2N atoms: the mass-weighted force-constant matrix of the whole ring.

N = 12
n_atoms = 2 * N
masses = np.tile([m1, m2], N)
Phi = 2 * K * np.eye(n_atoms) - K * (np.eye(n_atoms, k=1) + np.eye(n_atoms, k=-1))
Phi[0, -1] = Phi[-1, 0] = -K                         # periodic boundary
Dmat = snp.asarray(Phi / np.sqrt(np.outer(masses, masses)))
w_chain = np.sqrt(np.maximum(np.asarray(snp.linalg.eigvalsh(Dmat)), 0.0))

k_allowed = 2 * np.pi * np.arange(N) / (N * a)
expected = np.sort(np.concatenate(omega_exact(k_allowed)))
np.testing.assert_allclose(w_chain, expected, atol=1e-7)

# %%
# The curves are the batched ``eigvalsh`` results; the dots mark the ring's allowed
# wavevectors on the exact branches, which its 24 eigenvalues reproduce (the check
# above).

fig, ax = plt.subplots(figsize=(6, 4))
kk = np.asarray(ks)
ax.plot(kk, w[:, 0], label="acoustic")
ax.plot(kk, w[:, 1], label="optical")
k_wrapped = np.where(k_allowed > np.pi / a, k_allowed - 2 * np.pi / a, k_allowed)
for branch in omega_exact(k_allowed):
    ax.plot(k_wrapped, branch, "ko", ms=4)
ax.plot([], [], "ko", ms=4, label=f"ring of {N} cells")
ax.set_xlabel("wavevector k")
ax.set_ylabel("frequency omega")
ax.legend()
fig.tight_layout()
