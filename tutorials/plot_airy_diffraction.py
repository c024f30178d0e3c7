"""
Diffraction by a circular aperture: the Airy pattern with Bessel functions
==========================================================================

Light of wavenumber :math:`k` passing a circular aperture of radius :math:`a`
makes, far away, the Airy pattern

.. math:: I(x) = I_0 \\left(\\frac{2 J_1(x)}{x}\\right)^2, \\qquad x = k a \\sin\\theta,

with :math:`J_1` the Bessel function of the first kind.  The fraction of the light
inside the ring of radius :math:`X` has Rayleigh's closed form

.. math:: E(X) = 2\\int_0^X \\frac{J_1(x)^2}{x}\\,dx = 1 - J_0(X)^2 - J_1(X)^2 .

This example evaluates the pattern with :mod:`sciax.special`, finds the dark rings
by Newton's method on exact derivatives of :math:`J_1`, and checks the
encircled-energy formula against adaptive quadrature (:func:`sciax.integrate.quad`)
and its derivative :math:`E'(X) = 2 J_1(X)^2 / X` against ``sciax.grad``.

Checks: the zeros agree with ``scipy.special.jn_zeros``; the pattern with SciPy's
``j1``; the integral and the derivative with the closed form.
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.special

import sciax
import sciax.numpy as snp
from sciax import special
from sciax.integrate import quad


def intensity(x):
    """Normalised Airy intensity; the limit 1 at x = 0."""
    safe = snp.where(x == 0, 1.0, x)
    return snp.where(x == 0, 1.0, (2 * special.j1(safe) / safe) ** 2)


x = np.linspace(0.0, 14.0, 701)
I = np.asarray(sciax.vmap(intensity)(snp.asarray(x)))
with np.errstate(invalid="ignore", divide="ignore"):
    I_ref = np.where(x == 0, 1.0, (2 * scipy.special.j1(x) / x) ** 2)
np.testing.assert_allclose(I, I_ref, rtol=1e-13, atol=1e-16)

# %%
# The dark rings
# --------------
# The minima are the zeros of :math:`J_1`.  Newton's method needs
# :math:`J_1'`, which ``sciax.grad`` gives exactly (it is
# :math:`(J_0 - J_2)/2`); ten steps from the rough guesses
# :math:`x \approx (m + 1/4)\pi` converge to machine precision.  The whole
# iteration is vectorised over the rings with ``vmap``.

dj1 = sciax.grad(special.j1)


def newton(x0):
    def step(_, z):
        return z - special.j1(z) / dj1(z)
    return sciax.lax.fori_loop(0, 10, step, x0)


guess = (np.arange(1, 5) + 0.25) * np.pi
zeros = np.asarray(sciax.jit(sciax.vmap(newton))(snp.asarray(guess)))
print("zeros of J1:", np.round(zeros, 6))
np.testing.assert_allclose(zeros, scipy.special.jn_zeros(1, 4), rtol=1e-13)
# the derivative itself against the recurrence J1' = (J0 - J2) / 2
np.testing.assert_allclose(
    np.asarray(sciax.vmap(dj1)(snp.asarray(x[1:]))),
    0.5 * (scipy.special.j0(x[1:]) - scipy.special.jv(2, x[1:])), atol=1e-13)

# %%
# Encircled energy
# ----------------
# Rayleigh's formula against quadrature of :math:`2 J_1(x)^2/x` (the integrand
# tends to :math:`x/2` at the origin, which Gauss–Kronrod never evaluates), for
# every radius at once with ``vmap``.


def encircled_quad(X):
    return quad(lambda t: 2 * special.j1(t) ** 2 / t, 0.0, X)[0]


def encircled_closed(X):
    return 1 - special.j0(X) ** 2 - special.j1(X) ** 2


radii = snp.asarray(np.linspace(0.5, 14.0, 28))
E_quad = np.asarray(sciax.jit(sciax.vmap(encircled_quad))(radii))
E_closed = np.asarray(sciax.vmap(encircled_closed)(radii))
np.testing.assert_allclose(E_quad, E_closed, rtol=1e-10, atol=1e-14)
for m, z in enumerate(zeros[:3], 1):
    print(f"inside dark ring {m} (x = {z:.4f}): {float(encircled_closed(z)):.4f}")
# inside the first dark ring: 1 - J0(z1)^2, about 83.8% of the light
assert abs(float(encircled_closed(zeros[0])) - (1 - scipy.special.j0(zeros[0]) ** 2)) < 1e-14

# The derivative of the closed form is the integrand (the fundamental theorem of
# calculus): sciax.grad through j0 and j1.
dE = np.asarray(sciax.vmap(sciax.grad(encircled_closed))(radii))
np.testing.assert_allclose(dE, 2 * scipy.special.j1(np.asarray(radii)) ** 2
                           / np.asarray(radii), rtol=1e-12, atol=1e-15)

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.5))
ax1.semilogy(x, I, label=r"$(2J_1(x)/x)^2$")
for z in zeros:
    ax1.axvline(z, color="0.7", lw=0.8)
ax1.set_ylim(1e-5, 1.5)
ax1.set_xlabel(r"$x = ka\sin\theta$")
ax1.set_ylabel("intensity")
ax1.legend()
ax2.plot(np.asarray(radii), E_closed, "k-", label="closed form")
ax2.plot(np.asarray(radii), E_quad, "o", ms=3, label="quad")
ax2.set_xlabel("radius X")
ax2.set_ylabel("encircled energy")
ax2.legend()
fig.tight_layout()
