"""``minimize(method='TNC')``: truncated Newton with bounds.

The structure is that of Nash's truncated Newton method as in SciPy's
``tnc.c`` (S. G. Nash, *SIAM J. Numer. Anal.* 21, 1984; J.-S. Roy's
implementation): variables on a bound whose gradient pushes outwards are
held (the active set), the Newton equations on the free variables are solved
approximately by conjugate gradients, and a line search along the projected
path keeps the iterate in the box.  Here the hessian-vector products are
exact (forward-over-reverse) instead of finite differences of the gradient,
the CG is unpreconditioned and the line search is a backtracking Armijo
search (quadratic interpolation) on the projected path, so the iterates are
not SciPy's; the stationary points and statuses are.
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
class TNCState:
    x: Any
    f: Any
    g: Any
    scale: Any
    nfev: Any
    njev: Any
    nhev: Any


def _binding(x, g, lb, ub):
    """Variables held at a bound: on it, with the gradient pushing outwards."""
    return ((x <= lb) & (g > 0)) | ((x >= ub) & (g < 0))


def _truncated_cg(hvp, g, free, maxit, eta):
    """CG on ``H_FF d = -g_F`` from zero, stopped at ``||r|| <= eta ||g_F||``,
    after ``maxit`` steps, or at negative curvature (then the last iterate, or
    ``-g_F`` on the first step)."""
    gF = g * free
    gn = snp.linalg.norm(gF)
    Hm = lambda v: hvp(v * free) * free  # noqa: E731

    def body(c):
        d, r, p, rr, i, _, nh = c
        Hp = Hm(p)
        pHp = snp.dot(p, Hp)
        neg = pHp <= 0
        a = rr / snp.where(neg, 1.0, pHp)
        d1 = d + a * p
        r1 = r - a * Hp
        rr1 = snp.dot(r1, r1)
        stop = neg | (snp.sqrt(rr1) <= eta * gn) | (i + 1 >= maxit)
        d_out = snp.where(neg, snp.where(i == 0, -gF, d), d1)
        return (d_out, r1, r1 + rr1 / rr * p, rr1, i + 1, stop, nh + 1)

    c0 = (snp.zeros_like(g), -gF, -gF, gn * gn, snp.int32(0), gn == 0,
          snp.int32(0))
    d, _, _, _, _, _, nh = lax.while_loop(lambda c: ~c[5], body, c0)
    return d, nh


@dataclasses.dataclass(frozen=True)
class TNCMinimizer(AbstractMinimizer):
    """Truncated Newton with bounds (SciPy's ``'TNC'`` options and statuses).

    Options: ``maxfun`` (default ``max(100, 10 n)``), ``maxCGit`` (``-1``:
    ``min(50, n)``; SciPy's ``max(1, min(50, n // 2))`` counts preconditioned
    steps), ``eta`` (CG tolerance factor, ``-1``: 0.25),
    ``stepmx`` (maximum step, ``0``: 10), ``gtol`` (projected gradient in the
    scaled variables, ``-1``: ``1e-2 sqrt(sqrt(eps))``), ``ftol`` (change of
    ``f`` between iterates, ``-1``: 0), ``xtol`` (2-norm of the step in the scaled
    variables, ``-1``: ``sqrt(eps)``), ``scale`` (default ``ub - lb`` for bounded variables and
    ``1 + |x0|`` otherwise), ``maxiter``; ``offset``, ``mesg_num``,
    ``accuracy``, ``minfev``, ``rescale``, ``eps``, ``disp``,
    ``finite_diff_rel_step`` are accepted.

    Examples
    --------
    >>> from sciax.optimize import minimize, rosen
    >>> res = minimize(rosen, snp.array([-1.2, 1.0]), method="TNC",
    ...                bounds=[(-2, 2), (-2, 0.8)])
    >>> print(np.round(np.asarray(res.x), 4), res.message)
    [0.8948 0.8   ] Local minimum reached (|pg| ~= 0)
    """

    maxfun: int | None = None
    maxCGit: int = -1
    eta: float = -1
    stepmx: float = 0
    gtol: float = -1
    ftol: float = -1
    xtol: float = -1
    scale: Any = None
    maxiter: int | None = None
    offset: Any = None
    mesg_num: Any = None
    accuracy: float = 0
    minfev: float = 0
    rescale: float = -1
    eps: Any = None
    disp: bool = False
    finite_diff_rel_step: Any = None
    name = "tnc"
    takes_bounds = True
    uses_hess = True
    tol_fields = ("gtol",)
    maxiter_status = Status.TNC_MAXFUN

    def max_iter(self, n):
        return 2 ** 31 - 1 if self.maxiter is None else int(self.maxiter)

    def _maxfun(self, n):
        return max(100, 10 * n) if self.maxfun is None else int(self.maxfun)

    def _gtol(self):
        return 1e-2 * float(np.finfo(float).eps) ** 0.25 if self.gtol < 0 else self.gtol

    def init(self, obj, x0, lb, ub):
        f, g = obj.value_and_grad(x0)
        if self.scale is not None:
            scale = snp.broadcast_to(snp.asarray(np.asarray(self.scale, float),
                                                 x0.dtype), x0.shape)
        else:
            fin = snp.isfinite(lb) & snp.isfinite(ub)
            scale = snp.where(fin, ub - lb, 1.0 + snp.abs(x0))
            scale = snp.where(scale == 0, 1.0, scale)
        one = snp.int32(1)
        return TNCState(x=x0, f=f, g=g, scale=scale, nfev=one, njev=one,
                        nhev=snp.int32(0))

    def terminate(self, obj, st, lb, ub):
        pg = snp.where(_binding(st.x, st.g, lb, ub), 0.0, st.g) * st.scale
        done = snp.max(snp.abs(pg)) <= self._gtol()
        return snp.where(done, reason_index(Status.TNC_LOCAL_MIN),
                         RUNNING).astype(snp.int32)

    def extra_stop(self, st):
        return snp.where(st.nfev >= self._maxfun(st.x.shape[0]),
                         reason_index(Status.TNC_MAXFUN), RUNNING).astype(snp.int32)

    def step(self, obj, st, lb, ub):
        n = st.x.shape[0]
        # SciPy's default is max(1, min(50, n // 2)) preconditioned steps; with
        # no preconditioner here, up to min(50, n) steps carry the curvature
        maxcg = min(50, n) if self.maxCGit < 0 else max(1, self.maxCGit)
        eta = 0.25 if self.eta < 0 else self.eta
        stepmx = 10.0 if self.stepmx <= 0 else self.stepmx
        x, f, g = st.x, st.f, st.g
        free = snp.where(_binding(x, g, lb, ub), 0.0, 1.0).astype(x.dtype)
        d, nh = _truncated_cg(lambda v: obj.hvp(x, v), g, free, maxcg, eta)
        descent = snp.dot(g, d) < 0
        d = snp.where(descent, d, -g * free)
        dn = snp.linalg.norm(d)
        a0 = snp.minimum(1.0, stepmx / snp.where(dn > 0, dn, 1.0))
        maxfun = self._maxfun(n)

        gd = snp.dot(g, d)

        def ls_body(c):
            # backtracking on the projected path, quadratic interpolation
            # safeguarded to [0.1, 0.5] of the last step
            a, _, _, _, k, _ = c
            xa = snp.clip(x + a * d, lb, ub)
            fa, ga = obj.value_and_grad(xa)
            ok = snp.isfinite(fa) & (fa <= f + 1e-4 * snp.dot(g, xa - x))
            den = 2.0 * (fa - f - gd * a)
            a_q = -gd * a * a / snp.where(den > 0, den, 1.0)
            a_q = snp.where(snp.isfinite(fa) & (den > 0), a_q, 0.1 * a)
            a_new = snp.clip(a_q, 0.1 * a, 0.5 * a)
            return snp.where(ok, a, a_new), xa, fa, ga, k + 1, ok

        c0 = (a0, x, f, g, snp.int32(0), snp.asarray(False))
        _, xa, fa, ga, k, ok = lax.while_loop(
            lambda c: ~c[5] & (c[4] < 30) & (st.nfev + c[4] < maxfun), ls_body, c0)
        x1 = snp.where(ok, xa, x)
        f1 = snp.where(ok, fa, f)
        g1 = snp.where(ok, ga, g)
        reason = snp.where(ok | (st.nfev + k >= maxfun), RUNNING,
                           reason_index(Status.TNC_LINESEARCH))
        # tnc's tests: |f_n - f_(n-1)| <= ftol (its f scaling cancels; ftol < 0
        # means 0) and |x_n - x_(n-1)| <= xtol in the scaled variables (xtol < 0
        # means sqrt(eps))
        ftol = max(self.ftol, 0.0)
        xtol = float(np.sqrt(np.finfo(float).eps)) if self.xtol < 0 else self.xtol
        reason = snp.where(ok & (snp.abs(f1 - f) <= ftol),
                           reason_index(Status.TNC_FCONV), reason)
        small = snp.linalg.norm((x1 - x) / st.scale) <= xtol
        reason = snp.where(ok & small & (snp.abs(f1 - f) > ftol),
                           reason_index(Status.TNC_XCONV), reason)
        new = TNCState(x=x1, f=f1, g=g1, scale=st.scale, nfev=st.nfev + k,
                       njev=st.njev + k, nhev=st.nhev + nh)
        return new, reason.astype(snp.int32)
