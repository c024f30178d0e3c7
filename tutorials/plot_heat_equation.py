"""
Heat equation by the method of lines
====================================

The heat equation :math:`u_t = D\\,u_{xx}` on :math:`0 < x < 1` with
:math:`u = 0` at both ends becomes, after central differences on :math:`N` interior
points, a linear system of ODEs :math:`\\dot u = D\\,A u` that ``solve_ivp``
integrates.  Its sensitivity to the diffusion coefficient,
:math:`\\partial u/\\partial D`, comes from ``sciax.jacfwd`` through the solver.

The semi-discrete system has an exact solution to compare with: the grid function
:math:`\\sin(k\\pi x_i)` is an eigenvector of :math:`A` with eigenvalue
:math:`\\lambda_k = -(4/h^2)\\sin^2(k\\pi h/2)`, so the initial state
:math:`\\sin(\\pi x) + \\tfrac12\\sin(3\\pi x)` evolves as
:math:`e^{D\\lambda_1 t}\\sin(\\pi x) + \\tfrac12 e^{D\\lambda_3 t}\\sin(3\\pi x)`,
and :math:`\\partial u/\\partial D` multiplies each term by :math:`\\lambda_k t`.

The system is *stiff*: its fastest mode decays like :math:`e^{-4Dt/h^2}`, and an
explicit method's step is limited by stability to :math:`O(h^2/D)` even after that
mode has died out.  Refining the grid shows the cost growing like :math:`N^2`;
an implicit (stiff) solver's would not.
"""

import matplotlib.pyplot as plt
import numpy as np

import sciax
import sciax.numpy as snp
from sciax.integrate import solve_ivp

D = 0.5
t_end = 0.2


def heat_rhs(t, u, D, h):
    padded = snp.concatenate([snp.zeros(1), u, snp.zeros(1)])
    return D * (padded[2:] - 2 * u + padded[:-2]) / h**2


def solve(n, D, rtol=1e-8):
    h = 1.0 / (n + 1)
    x = snp.linspace(h, 1 - h, n)
    u0 = snp.sin(np.pi * x) + 0.5 * snp.sin(3 * np.pi * x)
    return solve_ivp(heat_rhs, (0.0, t_end), u0, args=(D, h),
                     t_eval=snp.array([t_end]), rtol=rtol, atol=1e-10, max_steps=4096)


def exact(n, D):
    h = 1.0 / (n + 1)
    x = np.linspace(h, 1 - h, n)
    lam = [-(4 / h**2) * np.sin(k * np.pi * h / 2) ** 2 for k in (1, 3)]
    terms = [np.exp(D * lam[0] * t_end) * np.sin(np.pi * x),
             0.5 * np.exp(D * lam[1] * t_end) * np.sin(3 * np.pi * x)]
    return x, sum(terms), lam[0] * t_end * terms[0] + lam[1] * t_end * terms[1]


# %%
# Solution and sensitivity on a 20-point grid
# -------------------------------------------

n = 20
sol = solve(n, D)
u = np.asarray(sol.y[:, 0])
dudD = np.asarray(sciax.jacfwd(lambda d: solve(n, d).y[:, 0])(D))
x, u_exact, dudD_exact = exact(n, D)
print(f"max |u - exact| = {np.max(np.abs(u - u_exact)):.1e}, "
      f"max |du/dD - exact| = {np.max(np.abs(dudD - dudD_exact)):.1e}")
np.testing.assert_allclose(u, u_exact, atol=1e-7)
np.testing.assert_allclose(dudD, dudD_exact, atol=1e-6)

# %%
# Stiffness: the cost of refining the grid
# ----------------------------------------
# At a loose tolerance the accuracy needed is the same on every grid, but the
# number of right-hand-side evaluations grows about fourfold each time the grid is
# refined twofold: the step is set by stability, not accuracy.

nfev = {}
for m in (10, 20, 40):
    nfev[m] = int(solve(m, D, rtol=1e-4).nfev)
print("nfev by grid size:", nfev)
assert nfev[20] > 3 * nfev[10] and nfev[40] > 3 * nfev[20], nfev

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 3.5))
xx = np.linspace(0, 1, 200)
ax0.plot(xx, np.sin(np.pi * xx) + 0.5 * np.sin(3 * np.pi * xx), "k--", lw=1,
         label="u(x, 0)")
ax0.plot(x, u, "o-", label=f"u(x, {t_end})")
ax0.plot(x, dudD, "s-", label="du/dD")
ax0.set_xlabel("x")
ax0.legend()
ax1.loglog(list(nfev), list(nfev.values()), "o-", label="RK45 nfev")
ax1.loglog(list(nfev), [nfev[10] * (m / 10) ** 2 for m in nfev], "k--", label="~ N^2")
ax1.set_xlabel("grid points N")
ax1.legend()
fig.tight_layout()
