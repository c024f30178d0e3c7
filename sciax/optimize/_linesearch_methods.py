"""Line-search methods: BFGS, CG (Polak-Ribiere+) and Newton-CG.

Each follows the iteration of the SciPy method of the same name (same defaults,
same stopping tests) so that iteration counts are comparable; see
``tests/optimize`` for the side-by-side counts.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import (RUNNING, AbstractMinimizer, Status, reason_index)
from sciax.optimize._linesearch import SMALL_N, initial_step, matvec, vdot, wolfe12


def _vecnorm(x, ord):
    if ord == float("inf"):
        return snp.max(snp.abs(x))
    if ord == -float("inf"):
        return snp.min(snp.abs(x))
    return snp.sum(snp.abs(x) ** ord) ** (1.0 / ord)


@sciax.tree.register_dataclass
@dataclasses.dataclass
class LineSearchState:
    """Iterate, value, gradient, previous value, method matrix/direction, counts."""

    x: Any
    f: Any
    g: Any
    f_prev: Any
    mat: Any
    nfev: Any
    njev: Any
    nhev: Any
    last_step: Any


def _start(obj, x0, mat):
    f, g = obj.value_and_grad(x0)
    one = snp.int32(1)
    # SciPy's ``old_old_fval = f0 + |g0| / 2`` makes the first step |dx| ~ 1.
    return LineSearchState(x=x0, f=f, g=g, f_prev=f + snp.linalg.norm(g) / 2,
                           mat=mat, nfev=one, njev=one, nhev=snp.int32(0),
                           last_step=snp.full_like(x0, snp.inf))


@dataclasses.dataclass(frozen=True)
class BFGSMinimizer(AbstractMinimizer):
    """Broyden-Fletcher-Goldfarb-Shanno with a dense inverse hessian.

    Options (SciPy's): ``gtol=1e-5``, ``norm=inf``, ``maxiter=200*n``,
    ``c1=1e-4``, ``c2=0.9``, ``xrtol=0``, ``disp``, ``return_all`` (accepted,
    not stored), ``eps``/``finite_diff_rel_step`` (ignored: derivatives are
    exact), ``hess_inv0``.
    """

    gtol: float = 1e-5
    norm: float = float("inf")
    maxiter: int | None = None
    c1: float = 1e-4
    c2: float = 0.9
    xrtol: float = 0.0
    hess_inv0: Any = None
    name = "bfgs"
    idle_on_zero_gradient = True

    # batched, wolfe12 evaluates its first trial before its loop
    has_batched_form = True

    def init(self, obj, x0, lb, ub):
        n = x0.shape[0]
        h0 = (snp.eye(n, dtype=x0.dtype) if self.hess_inv0 is None
              else snp.asarray(self.hess_inv0, x0.dtype))
        return _start(obj, x0, h0)

    def terminate(self, obj, st, lb, ub):
        return snp.where(_vecnorm(st.g, self.norm) <= self.gtol,
                         reason_index(Status.SUCCESS), RUNNING).astype(snp.int32)

    def step(self, obj, st, lb, ub):
        H = st.mat
        p = -matvec(H, st.g)
        d0 = vdot(st.g, p, self.batched)
        ls = wolfe12(obj.value_and_grad, st.x, p, st.f, st.g,
                     initial_step(st.f, st.f_prev, d0), c1=self.c1, c2=self.c2,
                     batched=self.batched)
        s = ls["alpha"] * p
        x1 = st.x + s
        y = ls["g"] - st.g
        Hy = matvec(H, y)
        if self.batched or s.shape[0] <= SMALL_N:
            rho_inv, yHy = snp.dot(s, y), snp.dot(Hy, y)
        else:  # y.s and y.Hy as one matrix-vector product (see vdot)
            rho_inv, yHy = snp.stack([s, Hy]) @ y
        rho = snp.where(rho_inv == 0, 1000.0, 1.0 / snp.where(rho_inv == 0, 1.0,
                                                                rho_inv))
        # (I - rho s y^T) H (I - rho y s^T) + rho s s^T, expanded.
        H1 = (H - rho * (snp.outer(s, Hy) + snp.outer(Hy, s))
              + (rho * rho * yHy + rho) * snp.outer(s, s))
        ok = ls["ok"]
        new = LineSearchState(
            x=snp.where(ok, x1, st.x), f=snp.where(ok, ls["f"], st.f),
            g=snp.where(ok, ls["g"], st.g), f_prev=snp.where(ok, st.f, st.f_prev),
            mat=snp.where(ok, H1, H), nfev=st.nfev + ls["nfev"],
            njev=st.njev + ls["nfev"], nhev=st.nhev, last_step=s)
        if self.xrtol == 0:
            # SciPy's default: |s| <= 0, i.e. s.s <= 0 (as numpy's norm, s.s
            # underflows to 0 only with every s_i^2), as a matrix-vector dot
            small = vdot(s, s, self.batched) <= 0
        else:
            small = snp.linalg.norm(s) <= self.xrtol * (self.xrtol + snp.linalg.norm(x1))
        grad_ok = _vecnorm(new.g, self.norm) <= self.gtol
        reason = snp.where(~ok, reason_index(Status.PRECISION_LOSS), snp.where(
            small & ~grad_ok, reason_index(Status.SUCCESS), RUNNING))
        return new, reason

    def postprocess(self, obj, st):
        return {"hess_inv": st.mat}


@dataclasses.dataclass(frozen=True)
class CGMinimizer(AbstractMinimizer):
    """Nonlinear conjugate gradients, Polak-Ribiere+ with restarts.

    Options (SciPy's): ``gtol=1e-5``, ``norm=inf``, ``maxiter=200*n``,
    ``c1=1e-4``, ``c2=0.4``, ``disp``, ``return_all``, ``eps`` (ignored).
    """

    gtol: float = 1e-5
    norm: float = float("inf")
    maxiter: int | None = None
    c1: float = 1e-4
    c2: float = 0.4
    name = "cg"
    idle_on_zero_gradient = True

    # batched, wolfe12 evaluates its first trial before its loop
    has_batched_form = True

    def init(self, obj, x0, lb, ub):
        st = _start(obj, x0, None)
        return dataclasses.replace(st, mat=-st.g)

    def terminate(self, obj, st, lb, ub):
        return snp.where(_vecnorm(st.g, self.norm) <= self.gtol,
                         reason_index(Status.SUCCESS), RUNNING).astype(snp.int32)

    def step(self, obj, st, lb, ub):
        p = st.mat
        d0 = snp.dot(st.g, p)
        gg = snp.dot(st.g, st.g)

        def descent(alpha, f1, g1):
            # SciPy's extra condition: accept a step only where the next
            # Polak-Ribiere+ direction descends enough (or |g| meets gtol).
            beta = snp.maximum(0.0, snp.dot(g1 - st.g, g1) / gg)
            p1 = -g1 + beta * p
            return (_vecnorm(g1, self.norm) <= self.gtol) | (
                snp.dot(p1, g1) <= -0.01 * snp.dot(g1, g1))

        ls = wolfe12(obj.value_and_grad, st.x, p, st.f, st.g,
                     initial_step(st.f, st.f_prev, d0), c1=self.c1, c2=self.c2,
                     extra=descent, batched=self.batched)
        g1 = ls["g"]
        y = g1 - st.g
        beta = snp.maximum(0.0, snp.dot(y, g1) / snp.dot(st.g, st.g))
        p1 = -g1 + beta * p
        # SciPy's descent condition; when it fails restart along -g.
        descent = snp.dot(p1, g1) <= -0.01 * snp.dot(g1, g1)
        p1 = snp.where(descent, p1, -g1)
        ok = ls["ok"]
        new = LineSearchState(
            x=snp.where(ok, st.x + ls["alpha"] * p, st.x),
            f=snp.where(ok, ls["f"], st.f),
            g=snp.where(ok, g1, st.g), f_prev=snp.where(ok, st.f, st.f_prev),
            mat=snp.where(ok, p1, p), nfev=st.nfev + ls["nfev"],
            njev=st.njev + ls["nfev"], nhev=st.nhev, last_step=ls["alpha"] * p)
        return new, snp.where(ok, RUNNING, reason_index(Status.PRECISION_LOSS))


@dataclasses.dataclass(frozen=True)
class NewtonCGMinimizer(AbstractMinimizer):
    """Line-search Newton with a truncated-CG inner solve on exact
    hessian-vector products (forward-over-reverse unless ``hessp``/``hess``).

    Options (SciPy's): ``xtol=1e-5`` (mean absolute step), ``maxiter=200*n``,
    ``c1=1e-4``, ``c2=0.9``, ``disp``, ``return_all``, ``eps`` (ignored).
    """

    xtol: float = 1e-5
    maxiter: int | None = None
    c1: float = 1e-4
    c2: float = 0.9
    name = "newton-cg"
    idle_on_zero_gradient = True
    uses_hess = True
    maxiter_status = Status.NEWTON_MAX_ITER
    failed_step_counts = False

    # batched, wolfe12 evaluates its first trial before its loop
    has_batched_form = True

    def init(self, obj, x0, lb, ub):
        st = _start(obj, x0, None)
        # Newton-CG starts with a unit step (no previous value).
        return dataclasses.replace(st, f_prev=snp.full_like(st.f, snp.nan), mat=x0 * 0)

    def terminate(self, obj, st, lb, ub):
        done = snp.sum(snp.abs(st.last_step)) <= self.xtol * st.x.shape[0]
        return snp.where(done, reason_index(Status.SUCCESS), RUNNING).astype(snp.int32)

    def step(self, obj, st, lb, ub):
        n = st.x.shape[0]
        g = st.g
        maggrad = snp.sum(snp.abs(g))
        eta = snp.minimum(0.5, snp.sqrt(maggrad))
        termcond = eta * maggrad
        eps = 3.0 * snp.finfo(st.x.dtype).eps

        def cg_cond(c):
            return c["go"]

        def cg_body(c):
            Ap = obj.hvp(st.x, c["p"])
            curv = snp.dot(c["p"], Ap)
            flat = (curv >= 0) & (curv <= eps)
            neg = curv < 0
            first = c["i"] == 0
            # Negative curvature on the first iteration: a scaled steepest step.
            z_neg = snp.where(first, c["dri0"] / (-curv) * (-g), c["z"])
            alpha = c["dri0"] / snp.where(curv == 0, 1.0, curv)
            z1 = c["z"] + alpha * c["p"]
            r1 = c["r"] + alpha * Ap
            dri1 = snp.dot(r1, r1)
            p1 = -r1 + dri1 / c["dri0"] * c["p"]
            stop = flat | neg
            out = dict(z=snp.where(neg, z_neg, snp.where(flat, c["z"], z1)),
                       r=snp.where(stop, c["r"], r1), p=snp.where(stop, c["p"], p1),
                       dri0=snp.where(stop, c["dri0"], dri1), i=c["i"] + 1,
                       nh=c["nh"] + 1, brk=stop)
            more = ~stop & (snp.sum(snp.abs(out["r"])) > termcond) & (
                out["i"] < 20 * n)
            out["go"] = more
            return out

        r0 = g
        c0 = dict(z=snp.zeros_like(g), r=r0, p=-r0, dri0=snp.dot(r0, r0),
                  i=snp.int32(0), nh=snp.int32(0), brk=snp.bool_(False),
                  go=snp.sum(snp.abs(r0)) > termcond)
        c = lax.while_loop(cg_cond, cg_body, c0)
        # SciPy's inner loop is a ``for`` over 20 n iterations whose ``else`` (all
        # of them run, none ended on flat or negative curvature) stops the method
        # with status 3 before the line search.
        exhausted = (c["i"] >= 20 * n) & ~c["brk"]
        pk = c["z"]
        d0 = snp.dot(g, pk)
        # SciPy passes the previous value (old_old_fval) to the line search
        # from the second iteration on: the first trial is min(1, 2.02 df / d0)
        ls = wolfe12(obj.value_and_grad, st.x, pk, st.f, g,
                     initial_step(st.f, st.f_prev, d0), c1=self.c1, c2=self.c2,
                     batched=self.batched)
        # At an exact stationary point (g = 0, so p = 0) SciPy's line search
        # accepts its first trial and the zero update ends the method with
        # success; a search along p = 0 has no descent to find.
        zero = ~snp.any(pk != 0)
        ok = ls["ok"] | zero
        upd = snp.where(zero, 0.0, ls["alpha"] * pk)
        new = LineSearchState(
            x=snp.where(ok, st.x + upd, st.x), f=snp.where(ls["ok"], ls["f"], st.f),
            g=snp.where(ls["ok"], ls["g"], g), f_prev=snp.where(ok, st.f, st.f_prev),
            mat=st.mat,
            nfev=st.nfev + ls["nfev"], njev=st.njev + ls["nfev"],
            nhev=st.nhev + c["nh"], last_step=upd)
        kept = dataclasses.replace(st, nhev=st.nhev + c["nh"])
        new = sciax.tree_util.tree_map(lambda a, b: snp.where(exhausted, a, b), kept, new)
        return new, snp.where(exhausted, reason_index(Status.NEWTON_CG_NOT_PD),
                              snp.where(ok, RUNNING, reason_index(Status.NEWTON_PR_LOSS)))
