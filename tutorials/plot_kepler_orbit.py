"""
Kepler orbit and its conserved quantities
=========================================

A planet around a fixed sun (:math:`GM = 1`) obeys
:math:`\\ddot{\\mathbf r} = -\\mathbf r / |\\mathbf r|^3`.  Three quantities are
conserved: the energy :math:`E = \\tfrac12|\\mathbf v|^2 - 1/|\\mathbf r|`, the angular
momentum :math:`L = x v_y - y v_x` and the Laplace-Runge-Lenz vector
:math:`\\mathbf A = \\mathbf v \\times \\mathbf L - \\hat{\\mathbf r}`, whose direction
fixes the orbit's axis.  Kepler's third law gives the period,
:math:`T = 2\\pi a^{3/2}` with semi-major axis :math:`a = -1/(2E)`.

The state is a pytree (a dict of position and velocity): ``solve_ivp`` accepts
any pytree of arrays.
"""

import matplotlib.pyplot as plt
import numpy as np

import sciax
import sciax.numpy as snp
from sciax.integrate import solve_ivp


def kepler(t, s):
    r = s["r"]
    return {"r": s["v"], "v": -r / snp.linalg.norm(r) ** 3}


def invariants(r, v):
    """Energy, angular momentum and the LRL vector; r, v have shape (2, n)."""
    rn = snp.sqrt(r[0] ** 2 + r[1] ** 2)
    E = 0.5 * (v[0] ** 2 + v[1] ** 2) - 1.0 / rn
    L = r[0] * v[1] - r[1] * v[0]
    A = snp.stack([v[1] * L - r[0] / rn, -v[0] * L - r[1] / rn])
    return E, L, A


# An eccentric orbit: start at perihelion with more than circular speed.
s0 = {"r": snp.array([1.0, 0.0]), "v": snp.array([0.0, 1.2])}
E0, L0, A0 = invariants(s0["r"][:, None], s0["v"][:, None])
a = -1.0 / (2.0 * float(E0[0]))
T = 2.0 * np.pi * a**1.5
ecc = float(snp.linalg.norm(A0[:, 0]))
print(f"a = {a:.4f}, e = {ecc:.4f}, period T = {T:.4f}")

t_eval = snp.linspace(0.0, 5 * T, 1001)
res = solve_ivp(kepler, (0.0, 5 * T), s0, method="DOP853", t_eval=t_eval,
                rtol=1e-10, atol=1e-12)
assert res.success
r, v = res.y["r"], res.y["v"]
E, L, A = invariants(r, v)

# %%
# The orbit and the drift of the invariants
# -----------------------------------------

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 4))
ax0.plot(np.asarray(r[0]), np.asarray(r[1]))
ax0.plot([0], [0], "o", color="orange")
ax0.set_aspect("equal")
ax0.set_title("five orbits")
t = np.asarray(t_eval)
ax1.semilogy(t, np.abs(np.asarray(E - E0[0])) + 1e-17, label="|E - E0|")
ax1.semilogy(t, np.abs(np.asarray(L - L0[0])) + 1e-17, label="|L - L0|")
ax1.semilogy(t, np.asarray(snp.linalg.norm(A - A0, axis=0)) + 1e-17,
             label="|A - A0|")
ax1.set_xlabel("t")
ax1.legend()
ax1.set_title("conserved quantities")
fig.tight_layout()

# %%
# Checks
# ------
# At these tolerances the invariants hold to about 1e-9 over five orbits, and the
# planet is back at perihelion after each period (Kepler's third law).

assert float(snp.max(snp.abs(E - E0[0]))) < 1e-7
assert float(snp.max(snp.abs(L - L0[0]))) < 1e-7
assert float(snp.max(snp.linalg.norm(A - A0, axis=0))) < 1e-6

back = solve_ivp(kepler, (0.0, 5 * T), s0, method="DOP853",
                 t_eval=snp.array([T, 2 * T, 5 * T]), rtol=1e-10, atol=1e-12)
np.testing.assert_allclose(np.asarray(back.y["r"]).T, [[1.0, 0.0]] * 3, atol=1e-6)

# %%
# The derivative of the period
# ----------------------------
# The period depends on the launch speed :math:`v_0` through
# :math:`T(v_0) = 2\pi (2 - v_0^2)^{-3/2}`.  The derivative of the
# position after one period with respect to :math:`v_0`, by forward mode through
# the solver, shows how sensitive the return point is; its :math:`x` component is
# zero (perihelion is an extremum of the distance) and its :math:`y` component is
# :math:`-v_\mathrm{peri}\,T'(v_0)`, which we check.


def position_after(v0, t1):
    s = {"r": snp.array([1.0, 0.0]), "v": snp.stack([0.0, v0])}
    out = solve_ivp(kepler, (0.0, t1), s, method="DOP853", t_eval=snp.stack([t1]),
                    rtol=1e-10, atol=1e-12, max_steps=512)
    return out.y["r"][:, 0]


v0 = 1.2
dr = sciax.jacfwd(position_after)(v0, T)
dT = 2 * np.pi * 1.5 * (2 - v0**2) ** -2.5 * 2 * v0
print("d r(T) / d v0 =", np.round(np.asarray(dr), 5), "expected", [0.0, -v0 * dT])
np.testing.assert_allclose(np.asarray(dr), [0.0, -v0 * dT], atol=1e-4, rtol=1e-5)
