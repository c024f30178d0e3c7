"""
Debye heat capacity: differentiating an integral
================================================

In the Debye model of a solid the thermal energy of :math:`N` atoms is

.. math::

    U(T) = 9 N k T \\left(\\frac{T}{\\Theta}\\right)^3
           \\int_0^{\\Theta/T} \\frac{x^3}{e^x - 1}\\,dx,

and the heat capacity is its derivative, :math:`C_V = dU/dT`.  Here ``quad``
computes the integral (QUADPACK's adaptive scheme) and ``sciax.grad`` differentiates
*through* it: the temperature appears both in the integrand's prefactor and in the
upper limit, which ``quad`` differentiates by Leibniz's rule.  ``vmap`` evaluates a
whole temperature sweep in one program.

Checks: the textbook closed form of :math:`C_V` (another integral, computed by
SciPy's ``quad``), the Dulong-Petit limit :math:`3Nk` at high temperature, the
Debye :math:`T^3` law at low temperature, and the Planck integral
:math:`\\int_0^\\infty x^3/(e^x-1)\\,dx = \\pi^4/15` on an infinite range.
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.integrate

import sciax
import sciax.numpy as snp
from sciax.integrate import quad

# units: N k = 1, Debye temperature Theta = 1


def planck(x):
    return x**3 / snp.expm1(x)


def energy(T):
    integral, _ = quad(planck, 0.0, 1.0 / T)
    return 9.0 * T * T**3 * integral


heat_capacity = sciax.jit(sciax.vmap(sciax.grad(energy)))
T = snp.geomspace(0.02, 3.0, 40)
C = np.asarray(heat_capacity(T))

# %%
# Checks
# ------
# The closed form :math:`C_V = 9Nk(T/\Theta)^3\int_0^{\Theta/T} x^4e^x/(e^x-1)^2\,dx`,
# by SciPy:


def cv_reference(t):
    val, _ = scipy.integrate.quad(lambda x: x**4 * np.exp(x) / np.expm1(x) ** 2,
                                  0.0, 1.0 / t, epsabs=1e-13, epsrel=1e-12)
    return 9.0 * t**3 * val


C_ref = np.array([cv_reference(t) for t in np.asarray(T)])
print("max relative difference from the closed form:",
      f"{np.max(np.abs(C - C_ref) / C_ref):.1e}")
np.testing.assert_allclose(C, C_ref, rtol=1e-9)

# Dulong-Petit at high T; the T^3 law (12 pi^4 / 5) T^3 at low T
assert abs(C[-1] - 3.0) < 0.02
np.testing.assert_allclose(C[0], 12 * np.pi**4 / 5 * float(T[0]) ** 3, rtol=1e-6)

# The Planck integral on [0, inf)
val, err = quad(planck, 0.0, snp.inf)
print(f"Planck integral {float(val):.12f}, pi^4/15 = {np.pi**4 / 15:.12f}")
np.testing.assert_allclose(float(val), np.pi**4 / 15, rtol=1e-10)

# %%
# The curve
# ---------

Tn = np.asarray(T)
fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(Tn, C, "o", ms=4, label="grad of quad")
ax.plot(Tn, C_ref, "-", label="closed form (SciPy)")
ax.plot(Tn, np.minimum(12 * np.pi**4 / 5 * Tn**3, 3.2), "--", label="T^3 law")
ax.axhline(3.0, color="gray", ls=":", label="Dulong-Petit")
ax.set_xscale("log")
ax.set_xlabel("T / Theta")
ax.set_ylabel("C_V / Nk")
ax.legend()
fig.tight_layout()
