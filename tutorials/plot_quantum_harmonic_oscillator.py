"""
Quantum harmonic oscillator: eigenstates with ``eigh``
======================================================

The time-independent Schrödinger equation for
:math:`V(x) = \\tfrac12 x^2` (units :math:`\\hbar = m = \\omega = 1`),
:math:`-\\tfrac12\\psi'' + V\\psi = E\\psi`, discretised by central differences on a
grid, becomes a symmetric tridiagonal eigenvalue problem :math:`H\\psi = E\\psi`.
``sciax.numpy.linalg.eigh`` solves it (LAPACK's ``syevd`` through XLA), and its
eigenvalues approach :math:`E_n = n + \\tfrac12`.

Checks: the low eigenvalues against the closed form (to the :math:`O(h^2)` error of
the discretisation), the eigenvectors against the Hermite functions, and the
whole spectrum against SciPy's tridiagonal solver.  Then ``grad`` through
``eigh``: the derivative of the ground-state energy with respect to the
potential's stiffness, compared with the Hellmann-Feynman theorem.
"""

import math

import matplotlib.pyplot as plt
import numpy as np
import scipy.linalg
import scipy.special

import sciax
import sciax.numpy as snp

n_grid = 300
L = 10.0
x = snp.linspace(-L, L, n_grid)
h = float(x[1] - x[0])


def hamiltonian(k):
    """Finite-difference H for V(x) = k x^2 / 2."""
    main = 1.0 / h**2 + 0.5 * k * x**2
    off = -0.5 / h**2 * snp.ones(n_grid - 1)
    return snp.diag(main) + snp.diag(off, 1) + snp.diag(off, -1)


E, psi = snp.linalg.eigh(hamiltonian(1.0))
E = np.asarray(E)
print("lowest eigenvalues:", np.round(E[:5], 5))

# %%
# The eigenstates
# ---------------
# Each eigenvector, scaled to unit :math:`L^2` norm on the grid, is drawn at the
# height of its energy inside the potential.

xs = np.asarray(x)
psi = np.asarray(psi) / np.sqrt(h)
fig, ax = plt.subplots(figsize=(6, 4.5))
ax.plot(xs, 0.5 * xs**2, "k", lw=1)
for n in range(5):
    sign = np.sign(psi[np.argmax(np.abs(psi[:, n])), n])
    ax.plot(xs, E[n] + 0.6 * sign * psi[:, n], label=f"n = {n}")
ax.set_ylim(0, 6)
ax.set_xlim(-5, 5)
ax.set_xlabel("x")
ax.set_ylabel("E,  psi (shifted)")
ax.legend(loc="upper right")
fig.tight_layout()

# %%
# Checks
# ------
# The central-difference kinetic energy is :math:`p^2/2 - h^2 p^4/24 + O(h^4)`, so
# first-order perturbation theory, with :math:`\langle p^4\rangle_n =
# \tfrac34(2n^2+2n+1)`, predicts :math:`E_n \approx n + \tfrac12 -
# h^2(2n^2+2n+1)/32`.  The computed eigenvalues follow that prediction to
# :math:`O(h^4)`.


def hermite_function(n, x):
    return (scipy.special.eval_hermite(n, x) * np.exp(-x**2 / 2)
            / np.sqrt(2.0**n * math.factorial(n) * np.sqrt(np.pi)))


nn = np.arange(6)
predicted = nn + 0.5 - h**2 * (2 * nn**2 + 2 * nn + 1) / 32
print("E_n - prediction:", np.round(E[:6] - predicted, 7))
np.testing.assert_allclose(E[:6], predicted, atol=2e-5)
for n in range(4):
    overlap = abs(np.sum(psi[:, n] * hermite_function(n, xs)) * h)
    assert overlap > 1 - 1e-4, (n, overlap)

main = 1.0 / h**2 + 0.5 * xs**2
E_sp = scipy.linalg.eigh_tridiagonal(main, -0.5 / h**2 * np.ones(n_grid - 1),
                                     eigvals_only=True)
np.testing.assert_allclose(E, E_sp, rtol=1e-10, atol=1e-9)

# %%
# A derivative through ``eigh``
# -----------------------------
# Hellmann-Feynman: :math:`dE_0/dk = \langle\psi_0|\partial H/\partial k|\psi_0\rangle
# = \langle x^2/2\rangle`; the exact value for :math:`V = kx^2/2` is
# :math:`E_0 = \sqrt k/2`, so :math:`dE_0/dk = 1/4` at :math:`k = 1`.

dE0 = float(sciax.grad(lambda k: snp.linalg.eigvalsh(hamiltonian(k))[0])(1.0))
expectation = float(np.sum(psi[:, 0] ** 2 * 0.5 * xs**2) * h)
print(f"dE0/dk = {dE0:.6f}, <x^2/2> = {expectation:.6f}, exact 0.25")
np.testing.assert_allclose(dE0, expectation, rtol=1e-8)
np.testing.assert_allclose(dE0, 0.25, atol=1e-3)
