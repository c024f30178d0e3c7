"""``minimize(method='SLSQP')``: sequential quadratic programming with
equality and inequality constraints and bounds.

The outer iteration follows Kraft's SLSQP (D. Kraft, *A software package for
sequential quadratic programming*, DFVLR-FB 88-28, 1988), SciPy's method: a
quadratic model of the Lagrangian with a BFGS matrix kept positive definite by
Powell's damping, the linearised constraints, an L1 exact-penalty merit
function with Powell's penalty update and a backtracking line search by
quadratic interpolation.  Kraft solves the QP subproblem by a least-squares
active-set method (LSQ/NNLS); here it is a dense primal-dual interior-point
method (Mehrotra's predictor-corrector), a fixed-shape loop that suits
``jit`` and ``vmap``, so the iterates are not SciPy's but the solutions are.
When the linearised constraints are inconsistent the QP is relaxed as
Kraft's (one more variable scaling back the violated constraints).
Constraint Jacobians are exact (forward mode) unless given.

``res.x`` and ``res.fun`` are differentiable with respect to float ``args`` by
the implicit function theorem on the KKT system with the active set held
(the exact Hessian of the Lagrangian, multipliers by least squares).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

import sciax
import sciax.debug
import sciax.numpy as snp
from sciax import lax

from sciax.optimize import _constraints as cons
from sciax.optimize._base import Objective, OptimizeResult, callback_stop
from sciax.optimize._minimize import _make_unravel
from sciax.optimize._root import RootResult
from sciax.optimize._root_scalar import _cached, _rebuild, _split_args

RUNNING = -2
_MESSAGES = {0: "Optimization terminated successfully",
             4: "Inequality constraints incompatible",
             8: "Positive directional derivative for linesearch",
             9: "Iteration limit reached",
             10: "NaN result encountered.",
             99: "`callback` raised `StopIteration`."}


# --- the QP subproblem --------------------------------------------------------------


def qp_solve(B, g, A, b, G, h, tol=1e-12, maxiter=60):
    """``min 0.5 d'Bd + g'd  s.t.  A d = b,  G d <= h`` by a primal-dual
    interior-point method with Mehrotra's predictor-corrector (Nocedal and
    Wright, *Numerical Optimization*, 2nd ed., sec. 16.6), ``B`` positive
    definite.  Returns ``(d, y, z, converged)`` with multipliers ``y`` (for
    ``A d = b``) and ``z >= 0`` (for ``G d <= h``), so that
    ``B d + g + A'y + G'z = 0``."""
    n, me, mi = g.shape[0], A.shape[0], G.shape[0]
    dt = g.dtype
    scale = 1.0 + snp.max(snp.abs(g)) + snp.max(snp.abs(B))

    def residuals(d, y, z, s):
        rd = B @ d + g + A.T @ y + G.T @ z
        return rd, A @ d - b, G @ d + s - h

    def solve(d, y, z, s, rd, re, ri, rc):
        W = z / s
        K11 = B + (G.T * W) @ G
        K = snp.concatenate([snp.concatenate([K11, A.T], axis=1),
                             snp.concatenate(
                                 [A, -1e-13 * scale * snp.eye(me, dtype=dt)], axis=1)],
                            axis=0)
        rhs = snp.concatenate([-rd + G.T @ ((rc - z * ri) / s), -re])
        sol = snp.linalg.solve(K, rhs)
        dd, dy = sol[:n], sol[n:]
        dz = (-rc + z * ri + z * (G @ dd)) / s
        ds = -ri - G @ dd
        return dd, dy, dz, ds

    def max_step(v, dv):
        if v.shape[0] == 0:
            return snp.asarray(snp.inf, dt)
        neg = dv < 0
        return snp.min(snp.where(neg, -v / snp.where(neg, dv, -1.0), snp.inf))

    def amax(v):
        return snp.max(snp.abs(v)) if v.shape[0] else snp.asarray(0.0, dt)

    def body(c):
        d, y, z, s, it, _ = c
        rd, re, ri = residuals(d, y, z, s)
        mu = snp.dot(s, z) / max(mi, 1)
        a_dd, a_dy, a_dz, a_ds = solve(d, y, z, s, rd, re, ri, s * z)
        a_aff = snp.minimum(1.0, snp.minimum(max_step(s, a_ds), max_step(z, a_dz)))
        mu_aff = snp.dot(s + a_aff * a_ds, z + a_aff * a_dz) / max(mi, 1)
        sigma = (mu_aff / snp.where(mu > 0, mu, 1.0)) ** 3
        rc = s * z + a_ds * a_dz - sigma * mu
        dd, dy, dz, ds = solve(d, y, z, s, rd, re, ri, rc)
        alpha = snp.minimum(1.0, 0.99 * snp.minimum(max_step(s, ds), max_step(z, dz)))
        d, y, z, s = d + alpha * dd, y + alpha * dy, z + alpha * dz, s + alpha * ds
        rd, re, ri = residuals(d, y, z, s)
        err = snp.maximum(amax(rd) / scale, snp.maximum(amax(re), amax(ri)))
        gap = snp.dot(s, z) / max(mi, 1)
        done = (err <= tol * 1e3) & (gap <= tol)
        return d, y, z, s, it + 1, done

    z0 = snp.ones((mi,), dt)
    s0 = snp.maximum(h, 1.0)
    c0 = (snp.zeros((n,), dt), snp.zeros((me,), dt), z0, s0, snp.int32(0),
          snp.asarray(False))
    d, y, z, s, it, done = lax.while_loop(lambda c: ~c[5] & (c[4] < maxiter), body, c0)
    ok = done & snp.all(snp.isfinite(d))
    return d, y, z, ok


# --- the SQP iteration --------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SLSQPSolver:
    """Options of ``minimize(method='SLSQP')``, SciPy's names.

    Parameters
    ----------
    ftol : float
        Precision goal for the objective at the solution (default 1e-6).
    maxiter : int
        Maximum SQP iterations (default 100).
    eps, disp, iprint, finite_diff_rel_step, workers
        Accepted for compatibility (derivatives are exact; ``disp`` prints the
        final summary).

    Examples
    --------
    A solver object is a ``method``, with its options (see
    :class:`NonlinearConstraint` and :class:`LinearConstraint` for solves):

    >>> from sciax.optimize import SLSQPSolver
    >>> SLSQPSolver(ftol=1e-10).ftol
    1e-10
    """

    ftol: float = 1e-6
    maxiter: int = 100
    eps: Any = None
    disp: bool = False
    iprint: Any = None
    finite_diff_rel_step: Any = None
    workers: Any = None


def _lagrangian_grad(g, Je, Ji, y, z, zb_up, zb_lo):
    return g + Je.T @ y - Ji.T @ z + zb_up - zb_lo


def _sqp(obj: Objective, pieces, x0, lb, ub, opts: SLSQPSolver, callback):
    n = x0.shape[0]
    dt = x0.dtype
    acc = float(opts.ftol)
    fin_lb, fin_ub = snp.isfinite(lb), snp.isfinite(ub)

    def point(x):
        f, g = obj.value_and_grad(x)
        ce, ci, Je, Ji = cons.evaluate(pieces, x)
        return dict(f=f, g=g, ce=ce, ci=ci, Je=Je, Ji=Ji)

    def viol(ce, ci):
        return (snp.sum(snp.abs(ce)) + snp.sum(snp.maximum(-ci, 0.0)))

    def merit(f, ce, ci, re, ri):
        return f + snp.dot(re, snp.abs(ce)) + snp.dot(ri, snp.maximum(-ci, 0.0))

    p0 = point(x0)
    me, mi = p0["ce"].shape[0], p0["ci"].shape[0]
    zero = snp.zeros((), dt)
    st0 = dict(x=x0, **p0, B=snp.eye(n, dtype=dt), rho_e=snp.zeros((me,), dt),
               rho_i=snp.zeros((mi,), dt), y=snp.zeros((me,), dt),
               z=snp.zeros((mi,), dt), zu=snp.zeros((n,), dt), zl=snp.zeros((n,), dt),
               nit=snp.int32(0), nfev=snp.int32(1), njev=snp.int32(1),
               status=snp.int32(RUNNING), fold=zero)
    finite0 = snp.isfinite(p0["f"]) & snp.all(snp.isfinite(p0["g"]))
    st0["status"] = snp.where(finite0, RUNNING, 10).astype(snp.int32)
    if opts.maxiter <= 0:
        st0["status"] = snp.where(finite0, 9, 10).astype(snp.int32)

    eye = snp.eye(n, dtype=dt)

    def body(c):
        x, B = c["x"], c["B"]
        # the QP: linearised constraints and the bounds (infinite ones masked)
        G = snp.concatenate([-c["Ji"], snp.where(fin_ub[:, None], eye, 0.0),
                             snp.where(fin_lb[:, None], -eye, 0.0)], axis=0)
        h = snp.concatenate([c["ci"], snp.where(fin_ub, ub - x, 1.0),
                             snp.where(fin_lb, x - lb, 1.0)])
        d, y, zall, qp_ok = qp_solve(B, c["g"], c["Je"], -c["ce"], G, h)

        def elastic(_):
            # Inconsistent linearisation: Kraft's relaxation, one more variable
            # 0 <= delta <= 1 scaling back the violated constraints,
            # J d + (1 - delta) c = 0 and J d + c - delta min(c, 0) >= 0, with
            # delta penalised (rho delta^2 / 2, rho = 100 (1 + |g|))
            rho = 100.0 * (1.0 + snp.max(snp.abs(c["g"])))
            Ba = snp.zeros((n + 1, n + 1), dt).at[:n, :n].set(B).at[n, n].set(rho)
            ga = snp.concatenate([c["g"], snp.zeros((1,), dt)])
            Aa = snp.concatenate([c["Je"], -c["ce"][:, None]], axis=1)
            cin_neg = snp.minimum(c["ci"], 0.0)
            Ga = snp.concatenate([
                snp.concatenate([G, snp.concatenate(
                    [cin_neg, snp.zeros((2 * n,), dt)])[:, None]], axis=1),
                snp.concatenate([snp.zeros((2, n), dt),
                                 snp.array([[1.0], [-1.0]], dt)], axis=1)], axis=0)
            ha = snp.concatenate([h, snp.array([1.0, 0.0], dt)])
            da, ya, za, ok = qp_solve(Ba, ga, Aa, -c["ce"], Ga, ha)
            return da[:n], ya, za[:mi + 2 * n], ok

        d, y, zall, qp_ok = lax.cond(qp_ok, lambda _: (d, y, zall, qp_ok), elastic,
                                     None)
        z, zu, zl = zall[:mi], zall[mi:mi + n], zall[mi + n:]
        # Kraft's convergence test before the step
        v0 = viol(c["ce"], c["ci"])
        pred = snp.abs(snp.dot(c["g"], d)) + snp.sum(snp.abs(y * c["ce"])) + snp.sum(
            snp.abs(z * c["ci"]))
        conv0 = qp_ok & (pred < acc) & (v0 < acc)
        # Powell's penalty update and the merit's directional derivative
        rho_e = snp.maximum(snp.abs(y), 0.5 * (c["rho_e"] + snp.abs(y)))
        rho_i = snp.maximum(snp.abs(z), 0.5 * (c["rho_i"] + snp.abs(z)))
        phi0 = merit(c["f"], c["ce"], c["ci"], rho_e, rho_i)
        h3 = snp.dot(c["g"], d) - snp.dot(rho_e, snp.abs(c["ce"])) - snp.dot(
            rho_i, snp.maximum(-c["ci"], 0.0))

        def ls_body(s):
            alpha, _, _, _, _, nf, k, _ = s
            xa = snp.clip(x + alpha * d, lb, ub)
            fa = obj.value(xa)
            cea, cia, _, _ = cons.evaluate(pieces, xa, with_jac=False)
            phia = merit(fa, cea, cia, rho_e, rho_i)
            ok = snp.isfinite(phia) & (phia <= phi0 + 0.1 * alpha * h3)
            denom = 2.0 * (phia - phi0 - h3 * alpha)
            a_new = snp.where(snp.isfinite(phia) & (denom > 0),
                              -h3 * alpha ** 2 / snp.where(denom > 0, denom, 1.0),
                              0.1 * alpha)
            a_new = snp.clip(a_new, 0.1 * alpha, 0.5 * alpha)
            return (snp.where(ok, alpha, a_new), xa, fa, cea, cia, nf + 1, k + 1, ok)

        one = snp.asarray(1.0, dt)
        ls0 = (one, x, c["f"], c["ce"], c["ci"], snp.int32(0), snp.int32(0),
               snp.asarray(False))
        go = ~conv0 & qp_ok & (h3 < 0)
        ls = lax.while_loop(lambda s: go & ~s[7] & (s[6] < 10), ls_body, ls0)
        alpha, xa, fa, _, _, nf, _, _ = ls
        # Kraft takes the last trial after ten backtracks
        xn = snp.where(go, xa, x)
        pn = lax.cond(go, lambda _: point(xn),
                      lambda _: {k: c[k] for k in ("f", "g", "ce", "ci", "Je", "Ji")},
                      None)
        # damped BFGS on the Lagrangian (Powell 1978)
        s_ = xn - x
        gl_new = _lagrangian_grad(pn["g"], pn["Je"], pn["Ji"], y, z, zu, zl)
        gl_old = _lagrangian_grad(c["g"], c["Je"], c["Ji"], y, z, zu, zl)
        q = gl_new - gl_old
        Bs = B @ s_
        sBs = snp.dot(s_, Bs)
        sq = snp.dot(s_, q)
        theta = snp.where(sq < 0.2 * sBs, 0.8 * sBs / snp.where(sBs - sq != 0,
                                                              sBs - sq, 1.0), 1.0)
        q = theta * q + (1 - theta) * Bs
        sq = snp.dot(s_, q)
        upd = go & (sBs > 0) & (sq > 0)
        Bn = (B + snp.outer(q, q) / snp.where(upd, sq, 1.0)
              - snp.outer(Bs, Bs) / snp.where(upd, sBs, 1.0))
        Bn = snp.where(upd, Bn, B)
        nit = c["nit"] + 1
        vn = viol(pn["ce"], pn["ci"])
        small = (snp.abs(pn["f"] - c["f"]) < acc) | (snp.linalg.norm(s_) < acc)
        conv1 = go & small & (vn < acc)
        status = snp.where(conv0 | conv1, 0, RUNNING)
        status = snp.where((status == RUNNING) & ~qp_ok, 4, status)
        status = snp.where((status == RUNNING) & ~conv0 & qp_ok & (h3 >= 0), 8, status)
        finite = snp.isfinite(pn["f"]) & snp.all(snp.isfinite(pn["g"]))
        status = snp.where(finite, status, 10)
        status = snp.where((status == RUNNING) & (nit >= opts.maxiter), 9, status)
        if callback is not None:  # SciPy: StopIteration wins over any other status
            status = snp.where(callback_stop(callback, obj.unravel, xn, pn["f"]), 99,
                               status)
        new = dict(x=xn, **pn, B=Bn, rho_e=rho_e, rho_i=rho_i, y=y, z=z, zu=zu, zl=zl,
                   nit=nit, nfev=c["nfev"] + nf,
                   njev=c["njev"] + go.astype(snp.int32),
                   status=status.astype(snp.int32), fold=c["f"])
        return new

    return lax.while_loop(lambda c: c["status"] == RUNNING, body, st0)


# --- implicit differentiation on the KKT system ------------------------------------


def _active_set(pieces, x, lb, ub, g, tol):
    """Active rows at a solution: the equalities, inequalities within ``tol``
    and bounds within ``tol`` (those pushing outwards)."""
    ce, ci, Je, Ji = cons.evaluate(pieces, x)
    act_i = ci <= tol * (1.0 + snp.abs(ci))
    at_up = snp.isfinite(ub) & (ub - x <= tol * (1.0 + snp.abs(ub)))
    at_lo = snp.isfinite(lb) & (x - lb <= tol * (1.0 + snp.abs(lb)))
    return act_i, at_up | at_lo


def _attach_kkt(obj_for, pieces, x, f, dyn, act_i, act_b):
    """``(x, f)`` whose reverse-mode derivatives w.r.t. ``dyn`` follow the KKT
    conditions ``grad L = 0``, active constraints ``= 0`` (a ``custom_vjp``)."""

    @sciax.custom_vjp
    def ident(x, f, dyn, act_i, act_b):
        return x, f

    def fwd(x, f, dyn, act_i, act_b):
        return (x, f), (x, dyn, act_i, act_b)

    def bwd(res, ct):
        xs, d, ai, ab = res
        ctx, ctf = ct
        n = xs.shape[0]
        dt = xs.dtype
        obj = obj_for(d)
        g = obj.grad(xs)
        _, _, Je, Ji = cons.evaluate(pieces, xs)
        eye = snp.eye(n, dtype=dt)
        # active constraint rows C (inactive rows zeroed), multipliers by lstsq
        C = snp.concatenate([Je, Ji * ai[:, None], eye * ab[:, None]], axis=0)
        lam = snp.linalg.lstsq(C.T, -g)[0]
        me, mi = Je.shape[0], Ji.shape[0]

        def lag(xx, dd):
            ce, ci, _, _ = cons.evaluate(pieces, xx, with_jac=False)
            return (obj_for(dd).value(xx) + snp.dot(lam[:me], ce)
                    + snp.dot(lam[me:me + mi] * ai, ci))

        H = sciax.jacfwd(sciax.grad(lag), argnums=0)(xs, d)
        m = C.shape[0]
        active_rows = snp.concatenate([snp.ones((me,), dt), ai.astype(dt),
                                       ab.astype(dt)])
        K = snp.concatenate([
            snp.concatenate([H, C.T], axis=1),
            snp.concatenate([C, snp.diag(1.0 - active_rows)], axis=1)], axis=0)
        # x's cotangent through f too: df = g dx at the optimum
        rhs = snp.concatenate([ctx + ctf * g, snp.zeros((m,), dt)])
        w = snp.linalg.solve(K.T, rhs)
        u = w[:n]
        # F(x, a) = [grad_x L; C_active]; dx/da = -K^{-1} dF/da
        _, vjp_g = sciax.vjp(lambda dd: sciax.grad(lag)(xs, dd), d)
        (cg,) = vjp_g(-u)
        _, vjp_f = sciax.vjp(lambda dd: obj_for(dd).value(xs), d)
        (cf,) = vjp_f(ctf)
        total = sciax.tree.map(lambda a, b: a + b, cf, cg)
        return (snp.zeros_like(xs), snp.zeros_like(ctf), total,
                snp.zeros_like(ai), snp.zeros_like(ab))

    ident.defvjp(fwd, bwd)
    return ident(x, f, dyn, act_i, act_b)


# --- front door (called by minimize) ------------------------------------------------


def minimize_slsqp(fun: Callable, x0f, unravel_key, args, jac, lb, ub,
                   constraints, options: SLSQPSolver, callback) -> RootResult:
    """Run SLSQP, compiled and cached per function, options and argument
    structure (``minimize`` validates and ravels first)."""
    n = x0f.shape[0]
    unravel = _make_unravel(unravel_key)
    pieces = cons.normalize(constraints, n, x0f, unravel) if constraints else ()
    me, mi = cons.sizes(pieces)
    if me > n:
        raise ValueError(f"SLSQP: more equality constraints ({me}) than independent "
                         f"variables ({n})")
    dyn, akey = _split_args(args)
    lbn = np.full(n, -np.inf) if lb is None else np.asarray(lb, float)
    ubn = np.full(n, np.inf) if ub is None else np.asarray(ub, float)

    def build():
        def run(x0, dyn):
            def obj_for(d):
                return Objective(fun, tuple(_rebuild(akey, d)), unravel, jac)

            lbj, ubj = snp.asarray(lbn, x0.dtype), snp.asarray(ubn, x0.dtype)
            x0 = snp.clip(x0, lbj, ubj)
            dyn_nd = [lax.stop_gradient(d) for d in dyn]
            obj = obj_for(dyn_nd)
            st = _sqp(obj, pieces, x0, lbj, ubj, options, callback)
            x, f = st["x"], st["f"]
            float_ok = bool(dyn) and all(snp.issubdtype(snp.asarray(d).dtype,
                                                        snp.inexact) for d in dyn)
            if float_ok:
                act_i, act_b = _active_set(pieces, x, lbj, ubj, st["g"], 1e-6)
                x, f = _attach_kkt(obj_for, pieces, x, f, list(dyn), act_i, act_b)
            return RootResult(x=unravel(x), fun=f, jac=unravel(st["g"]), nit=st["nit"],
                              nfev=st["nfev"], njev=st["njev"], status=st["status"],
                              multipliers=snp.concatenate([-st["y"], st["z"]]),
                              _messages=tuple(sorted(_MESSAGES.items())),
                              _success_codes=(0,))
        return run

    key = ("slsqp", fun, jac, options, callback, unravel_key, akey,
           cons.cache_key(constraints),
           tuple(lbn.tolist()), tuple(ubn.tolist()))
    return _cached(key, build)(x0f, dyn)
