"""Nelder-Mead simplex search, with bounds as SciPy (trial points clipped).

The iteration is SciPy's ``_minimize_neldermead`` (Gao & Han's adaptive
coefficients when ``adaptive=True``): one reflection, then at most one more
evaluation (expansion, outside or inside contraction) through ``lax.cond``,
and a shrink (``n`` evaluations, batched with ``vmap``) only when needed.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import RUNNING, AbstractMinimizer, Status, reason_index


@sciax.tree.register_dataclass
@dataclasses.dataclass
class SimplexState:
    x: Any
    f: Any
    g: Any
    sim: Any
    fsim: Any
    nfev: Any
    njev: Any
    nhev: Any


@dataclasses.dataclass(frozen=True)
class NelderMeadMinimizer(AbstractMinimizer):
    """Nelder-Mead downhill simplex (derivative free).

    Options (SciPy's): ``maxiter`` and ``maxfev`` (both ``200*n`` when
    neither is given), ``xatol=1e-4``, ``fatol=1e-4``, ``adaptive=False``,
    ``initial_simplex``, ``disp``, ``return_all``.
    """

    maxiter: int | None = None
    maxfev: int | None = None
    xatol: float = 1e-4
    fatol: float = 1e-4
    adaptive: bool = False
    initial_simplex: Any = None
    name = "nelder-mead"
    uses_jac = False
    takes_bounds = True
    tol_fields = ("xatol", "fatol")
    status_codes = {Status.MAX_FEV: 1, Status.MAX_ITER: 2}
    nit_offset = 1

    def _limits(self, n):
        if self.maxiter is None and self.maxfev is None:
            return 200 * n, 200 * n
        big = 2 ** 31 - 1
        return (big if self.maxiter is None else int(self.maxiter),
                big if self.maxfev is None else int(self.maxfev))

    def max_iter(self, n):
        # SciPy counts iterations from 1 and stops at ``iterations >= maxiter``.
        return max(self._limits(n)[0] - 1, 0)

    def _coeffs(self, n):
        if self.adaptive:
            return 1.0, 1.0 + 2.0 / n, 0.75 - 1.0 / (2 * n), 1.0 - 1.0 / n
        return 1.0, 2.0, 0.5, 0.5

    def init(self, obj, x0, lb, ub):
        n = x0.shape[0]
        if self.initial_simplex is not None:
            sim = snp.asarray(np.asarray(self.initial_simplex), x0.dtype)
            if sim.shape != (n + 1, n):
                raise ValueError(f"initial_simplex must have shape (N+1, N) = "
                                 f"{(n + 1, n)}, got {tuple(sim.shape)}")
        else:
            eye = snp.eye(n, dtype=x0.dtype)
            bumped = snp.where(x0 != 0, 1.05 * x0, 0.00025)
            sim = snp.concatenate([x0[None], x0[None] * (1 - eye) + eye * bumped], 0)
        # Reflect points above an upper bound into the box, then clip (SciPy).
        sim = snp.clip(snp.where(sim > ub, 2 * ub - sim, sim), lb, ub)
        fsim = sciax.vmap(obj.value)(sim)
        order = snp.argsort(fsim)
        sim, fsim = sim[order], fsim[order]
        return SimplexState(x=sim[0], f=fsim[0], g=snp.zeros_like(x0), sim=sim,
                            fsim=fsim, nfev=snp.int32(n + 1), njev=snp.int32(0),
                            nhev=snp.int32(0))

    def terminate(self, obj, st, lb, ub):
        done = (snp.max(snp.abs(st.sim[1:] - st.sim[0])) <= self.xatol) & (
            snp.max(snp.abs(st.fsim[0] - st.fsim[1:])) <= self.fatol)
        return snp.where(done, reason_index(Status.SUCCESS), RUNNING).astype(snp.int32)

    def extra_stop(self, st):
        maxfev = self._limits(st.x.shape[0])[1]
        return snp.where(st.nfev >= maxfev, reason_index(Status.MAX_FEV),
                         RUNNING).astype(snp.int32)

    def step(self, obj, st, lb, ub):
        n = st.x.shape[0]
        rho, chi, psi, sigma = self._coeffs(n)
        sim, fsim = st.sim, st.fsim
        xbar = snp.sum(sim[:-1], 0) / n
        worst = sim[-1]
        clip = lambda v: snp.clip(v, lb, ub)  # noqa: E731
        xr = clip((1 + rho) * xbar - rho * worst)
        fxr = obj.value(xr)
        expand = fxr < fsim[0]
        accept_r = ~expand & (fxr < fsim[-2])
        outside = ~expand & ~accept_r & (fxr < fsim[-1])
        xe = clip((1 + rho * chi) * xbar - rho * chi * worst)
        xc = clip((1 + psi * rho) * xbar - psi * rho * worst)
        xcc = clip((1 - psi) * xbar + psi * worst)
        xt = snp.where(expand, xe, snp.where(outside, xc, xcc))
        ft = lax.cond(accept_r, lambda v: fxr, obj.value, xt)
        take_t = (expand & (ft < fxr)) | (outside & (ft <= fxr)) | (
            ~expand & ~accept_r & ~outside & (ft < fsim[-1]))
        take_r = accept_r | (expand & ~take_t)
        shrink = ~take_t & ~take_r
        new_last = snp.where(take_t, xt, xr)
        new_flast = snp.where(take_t, ft, fxr)
        sim1 = sim.at[-1].set(new_last)
        fsim1 = fsim.at[-1].set(new_flast)

        def do_shrink(s):
            pts = clip(s[0] + sigma * (s[1:] - s[0]))
            return (snp.concatenate([s[:1], pts], 0),
                    snp.concatenate([fsim[:1], sciax.vmap(obj.value)(pts)]))

        sim2, fsim2 = lax.cond(shrink, do_shrink, lambda s: (sim1, fsim1), sim)
        order = snp.argsort(fsim2)
        sim2, fsim2 = sim2[order], fsim2[order]
        nfev = st.nfev + 1 + snp.where(accept_r, 0, 1) + snp.where(shrink, n, 0)
        new = SimplexState(x=sim2[0], f=fsim2[0], g=st.g, sim=sim2, fsim=fsim2,
                           nfev=nfev.astype(snp.int32), njev=st.njev, nhev=st.nhev)
        return new, snp.int32(RUNNING)

    def postprocess(self, obj, st):
        return {"final_simplex": (st.sim, st.fsim)}
