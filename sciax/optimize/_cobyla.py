"""``minimize(method='COBYLA')``: Powell's derivative-free constrained
optimisation by linear approximations.

M. J. D. Powell, *A direct search optimization method that models the
objective and constraint functions by linear interpolation*, in Advances in
Optimization and Numerical Analysis, Kluwer 1994, pp. 51-67.  The iteration
follows the modern restatement in Zaikun Zhang's PRIMA (SciPy's COBYLA since
1.14): a simplex of ``n + 1`` points defines linear models of the objective
and of every constraint; each step minimises the linear objective model
subject to the linearised constraints in a trust region (or, where they
cannot be met, the greatest linearised violation first), judged by the merit
``f + cpen * max(0, max violation)``; geometry steps keep the simplex well
shaped, and the radius ``rho`` falls from ``rhobeg`` to ``tol``.

Difference from PRIMA: the trust-region subproblem (a linear program in a
ball, Powell's two stages merged by an exact penalty on the greatest
violation) is solved by a barrier method rather than Powell's active-set
``TRSTLP``, a fixed-shape loop that suits ``jit`` and ``vmap``; the
iterates are therefore not SciPy's, the solutions agree to the final radius.
The best point is tracked over all evaluations (PRIMA keeps a filter).
No derivatives are used.
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
from sciax.optimize._base import Objective, callback_stop, register_result
from sciax.optimize._minimize import _make_unravel
from sciax.optimize._root import RootResult
from sciax.optimize._root_scalar import _cached, _rebuild, _split_args

RUNNING = -100
SMALL_TR_RADIUS, FTARGET_ACHIEVED, MAXFUN_REACHED = 0, 1, 3
MAXTR_REACHED, NAN_INF_X, NAN_INF_F, DAMAGING_ROUNDING = 20, -1, -2, 7
CALLBACK_TERMINATE = 30
_REASONS = {FTARGET_ACHIEVED: "the target function value is achieved.",
            MAXFUN_REACHED: "the objective function has been evaluated MAXFUN times.",
            MAXTR_REACHED: "the maximal number of trust region iterations has been "
                           "reached.",
            SMALL_TR_RADIUS: "the trust region radius reaches its lower bound.",
            NAN_INF_X: "NaN or Inf occurs in x.",
            NAN_INF_F: "the objective function returns NaN/+Inf.",
            DAMAGING_ROUNDING: "rounding errors are becoming damaging.",
            CALLBACK_TERMINATE: "the callback function requested termination"}
_MESSAGES = {k: f"Return from COBYLA because {v}" for k, v in _REASONS.items()}
_ETA1, _ETA2, _GAMMA1, _GAMMA2 = 0.1, 0.7, 0.5, 2.0
_EPS = float(np.finfo(float).eps)


@dataclasses.dataclass(frozen=True)
class COBYLASolver:
    """Options of ``minimize(method='COBYLA')``, SciPy's names.

    Parameters
    ----------
    rhobeg : float
        Initial trust radius (default 1).
    tol : float
        Final trust radius (default 1e-4): a lower bound on the accuracy.
    maxiter : int
        Maximum number of function evaluations (default 1000).
    catol : float, optional
        Constraint violation tolerance (default ``sqrt(eps)``).
    f_target : float
        Stop when a feasible point has ``f <= f_target`` (default ``-inf``).
    disp : bool
        Print the final message.

    Examples
    --------
    The closest point to ``(1, 2)`` in the half-plane ``x0 + x1 <= 1``, no
    derivatives used:

    >>> from sciax.optimize import minimize
    >>> half = {"type": "ineq", "fun": lambda x: 1.0 - x[0] - x[1]}
    >>> res = minimize(lambda x: (x[0] - 1) ** 2 + (x[1] - 2) ** 2, snp.zeros(2),
    ...                method="COBYLA", constraints=half, options={"tol": 1e-8})
    >>> print(np.round(np.asarray(res.x), 6), res.success, int(res.status))
    [0. 1.] True 0
    """

    rhobeg: float = 1.0
    tol: float = 1e-4
    maxiter: int = 1000
    catol: Any = None
    f_target: float = -np.inf
    disp: bool = False

    tol_fields = ("tol",)


# --- the trust-region subproblem: a linear program in a ball -----------------------


def _trlp(A, b, delta, g, iters=60):
    """``d`` with ``|d| <= delta`` minimising first the greatest violation of
    ``A' d <= b`` and then ``g.d`` (Powell's ``TRSTLP`` problem), as one
    penalised problem ``min g.d + M t``, ``A' d - b <= t``, ``t >= 0``,
    solved by a path-following barrier method in ``u = d / delta``."""
    n, m = A.shape
    dt = g.dtype
    gd = delta * g
    gn = snp.linalg.norm(gd)
    if m == 0:
        # the steepest-descent step to the ball's edge (gn is |delta g|)
        return snp.where(gn > 0, -delta * gd / snp.where(gn > 0, gn, 1.0), 0.0)
    Ad = delta * A
    an = snp.sqrt(snp.sum(Ad * Ad, axis=0))
    amax = snp.max(an)
    amin = snp.maximum(snp.min(snp.where(an > 0, an, snp.inf)), 1e-8 * amax)
    amin = snp.where(snp.isfinite(amin) & (amin > 0), amin, 1.0)
    M = 1e4 * (gn / amin) + 1.0
    bmax = snp.max(snp.abs(b))
    t0 = snp.maximum(0.0, -snp.min(b)) + 0.5 * (bmax + amax) + 1e-300
    scale = gn + M * t0
    tau0 = 1.0 / scale
    # duality gap goal: relative to the objective's scale in u (the step's
    # accuracy), or to the violation's when there is no objective gradient
    gap_goal = 1e-13 * snp.where(gn > 0, gn, M * (bmax + amax) + 1e-300)
    q = snp.concatenate([gd, snp.reshape(M, (1,))])

    def slacks(y):
        u, t = y[:n], y[n]
        return b + t - Ad.T @ u, t, 1.0 - snp.dot(u, u)

    def barrier(y, tau):
        s, t, w = slacks(y)
        ok = snp.all(s > 0) & (t > 0) & (w > 0)
        val = (tau * snp.dot(q, y) - snp.sum(snp.log(snp.where(s > 0, s, 1.0)))
               - snp.log(snp.where(t > 0, t, 1.0)) - snp.log(snp.where(w > 0, w, 1.0)))
        return snp.where(ok, val, snp.inf)

    R = snp.concatenate([Ad, -snp.ones((1, m), dt)], axis=0)  # ds/dy = -R

    def newton(y, tau):
        s, t, w = slacks(y)
        u = y[:n]
        grad = tau * q + R @ (1.0 / s)
        grad = grad.at[n].add(-1.0 / t)
        grad = grad.at[:n].add(2.0 * u / w)
        H = (R / s ** 2) @ R.T
        H = H.at[n, n].add(1.0 / t ** 2)
        H = H.at[:n, :n].add(2.0 / w * snp.eye(n, dtype=dt) + 4.0 / w ** 2
                             * snp.outer(u, u))
        step = -snp.linalg.solve(H, grad)
        return step, -snp.dot(grad, step)

    def inner(c):
        y, tau, k, done = c
        step, lam2 = newton(y, tau)
        f0 = barrier(y, tau)

        def ls(s_):
            a, _ = s_
            ok = barrier(y + a * step, tau) <= f0 - 0.25 * a * lam2
            return snp.where(ok, a, 0.5 * a), ok

        a, _ = lax.while_loop(lambda s_: ~s_[1] & (s_[0] > 1e-12), ls,
                              (snp.asarray(1.0, dt), snp.asarray(False)))
        good = snp.isfinite(lam2) & (a > 1e-12)
        y1 = snp.where(good, y + a * step, y)
        return y1, tau, k + 1, ~good | (lam2 < 1e-10)

    def outer(c):
        y, tau, j = c
        y, _, _, _ = lax.while_loop(lambda s_: ~s_[3] & (s_[2] < 50), inner,
                                    (y, tau, snp.int32(0), snp.asarray(False)))
        return y, tau * 10.0, j + 1

    y0 = snp.concatenate([snp.zeros((n,), dt), snp.reshape(t0, (1,)).astype(dt)])
    y, _, _ = lax.while_loop(lambda c: ((m + 2) / c[1] > gap_goal) & (c[2] < iters),
                             outer, (y0, tau0.astype(dt), snp.int32(0)))
    return delta * y[:n]


# --- simplex bookkeeping (PRIMA's updatepole, updatexfc, setdrop_tr, geostep) -------


def _findpole(cpen, cval, fval):
    n = fval.shape[0] - 1
    phi = fval + cpen * cval
    phimin = snp.min(phi)
    move = (phimin < phi[n]) | snp.any((cval < cval[n]) & (phi <= phi[n]))
    j = snp.argmin(snp.where(phi <= phimin, cval, snp.inf))
    return snp.where(move, j, n)


def _inv_check(sim, simi, sim_old, simi_old):
    """PRIMA's guard: recompute the inverse when it has drifted; revert and
    flag damaging rounding when even that fails."""
    n = sim.shape[0]
    eye = snp.eye(n, dtype=sim.dtype)
    S = sim[:, :n]
    erri = snp.max(snp.abs(simi @ S - eye))
    bad = ~(erri <= 0.1)
    simi_t = snp.linalg.inv(S)
    erri_t = snp.max(snp.abs(simi_t @ S - eye))
    better = bad & ((erri_t < erri) | (snp.isnan(erri) & ~snp.isnan(erri_t)))
    simi = snp.where(better, simi_t, simi)
    erri = snp.where(better, erri_t, erri)
    ok = erri <= 1.0
    return snp.where(ok, sim, sim_old), snp.where(ok, simi, simi_old), ok


def _updatepole(cpen, S):
    sim, simi = S["sim"], S["simi"]
    n = sim.shape[0]
    j = _findpole(cpen, S["cval"], S["fval"])
    mv = j < n
    jj = snp.minimum(j, n - 1)
    col = sim[:, jj]
    sim2 = sim.at[:, n].add(col).at[:, jj].set(0.0)
    sim2 = sim2.at[:, :n].add(-col[:, None])
    simi2 = simi.at[jj].set(-snp.sum(simi, axis=0))
    sim2, simi2 = snp.where(mv, sim2, sim), snp.where(mv, simi2, simi)
    sim2, simi2, ok = _inv_check(sim2, simi2, sim, simi)
    swap = mv & ok
    idx = snp.arange(n + 1)
    perm = snp.where(swap & (idx == jj), n, snp.where(swap & (idx == n), jj, idx))
    out = dict(S, sim=sim2, simi=simi2, fval=S["fval"][perm], cval=S["cval"][perm],
               conmat=S["conmat"][:, perm])
    return out, ok


def _updatexfc(jdrop, x_d, f, con, cstrv, cpen, S):
    """Replace vertex ``jdrop`` (``n``: the pole) by ``pole + d``."""
    sim, simi = S["sim"], S["simi"]
    n = sim.shape[0]
    d = x_d
    is_pole = jdrop == n
    jj = snp.minimum(jdrop, n - 1)
    # a non-pole vertex
    simi_j = simi[jj] / snp.dot(simi[jj], d)
    simi_a = (simi - snp.outer(simi @ d, simi_j)).at[jj].set(simi_j)
    sim_a = sim.at[:, jj].set(d)
    # the pole
    sim_b = sim.at[:, n].add(d).at[:, :n].add(-d[:, None])
    simid = simi @ d
    simi_b = simi + snp.outer(simid, snp.sum(simi, axis=0) / (1.0 - snp.sum(simid)))
    sim2 = snp.where(is_pole, sim_b, sim_a)
    simi2 = snp.where(is_pole, simi_b, simi_a)
    sim2, simi2, ok = _inv_check(sim2, simi2, sim, simi)
    sel = ok & (snp.arange(n + 1) == jdrop)
    S2 = dict(S, sim=sim2, simi=simi2, fval=snp.where(sel, f, S["fval"]),
              cval=snp.where(sel, cstrv, S["cval"]),
              conmat=snp.where(sel[None, :], con[:, None], S["conmat"]))
    S3, ok2 = _updatepole(cpen, S2)
    return S3, ok & ok2


def _setdrop_tr(ximproved, d, delta, rho, sim, simi):
    n = sim.shape[0]
    S = sim[:, :n]
    dist_imp = snp.concatenate([snp.sum((S - d[:, None]) ** 2, axis=0),
                                snp.reshape(snp.dot(d, d), (1,))])
    dist_not = snp.concatenate([snp.sum(S ** 2, axis=0), snp.zeros((1,), d.dtype)])
    distsq = snp.where(ximproved, dist_imp, dist_not)
    weight = snp.maximum(1.0, distsq / snp.maximum(rho, delta / 10) ** 2)
    simid = simi @ d
    score = weight * snp.abs(snp.concatenate([simid, snp.reshape(
        1.0 - snp.sum(simid), (1,))]))
    score = score.at[n].set(snp.where(ximproved, score[n], -1.0))
    score = snp.where(snp.isnan(score), -1.0, score)
    anyp = snp.any(score > 0)
    j = snp.where(anyp, snp.argmax(score), snp.where(ximproved, snp.argmax(distsq), -1))
    return j


def _models(S):
    n = S["sim"].shape[0]
    simi = S["simi"]
    g = (S["fval"][:n] - S["fval"][n]) @ simi
    A = ((S["conmat"][:, :n] - S["conmat"][:, n:n + 1]) @ simi).T
    return g, A


def _fcratio(conmat, fval):
    if conmat.shape[0] == 0:  # no constraints: no penalty to scale
        return snp.zeros((), fval.dtype)
    cmin = snp.min(-conmat, axis=1)
    cmax = snp.max(-conmat, axis=1)
    fmin, fmax = snp.min(fval), snp.max(fval)
    sel = cmin < 0.5 * cmax
    denom = snp.min(snp.where(sel, snp.maximum(cmax, 0.0) - cmin, snp.inf))
    return snp.where(snp.any(sel) & (fmin < fmax), (fmax - fmin) / denom, 0.0)


def _redrho(rho, rhoend):
    r = rho / rhoend
    return snp.where(r > 250, 0.1 * rho, snp.where(r <= 16, rhoend,
                                                   snp.sqrt(r) * rhoend))


# --- the iteration -------------------------------------------------------------------


def _solve(obj: Objective, pieces, lb, ub, x0, opts: COBYLASolver, callback):
    n = x0.shape[0]
    dt = x0.dtype
    rhobeg, rhoend = float(opts.rhobeg), float(opts.tol)
    ctol = float(np.sqrt(_EPS) if opts.catol is None else opts.catol)
    maxfun = int(opts.maxiter)
    ftarget = float(opts.f_target)
    fin_lb, fin_ub = np.isfinite(lb), np.isfinite(ub)
    lbr, ubr = np.asarray(lb)[fin_lb], np.asarray(ub)[fin_ub]
    gamma3 = max(1.0, min(0.75 * _GAMMA2, 1.5))

    def calc(x):
        """``(f, constr, cstrv)``, PRIMA's sign: ``constr <= 0`` is feasible."""
        f = obj.value(x)
        ce, ci, _, _ = cons.evaluate(pieces, x, with_jac=False)
        con = snp.concatenate([ce, -ce, -ci, snp.asarray(lbr, dt) - x[fin_lb],
                               x[fin_ub] - snp.asarray(ubr, dt)])
        f = snp.where(snp.isnan(f), snp.inf, f)
        cstrv = snp.maximum(0.0, snp.max(con)) if con.shape[0] else snp.zeros((), dt)
        return f, con, cstrv

    f0, c0, v0 = calc(x0)
    mc = c0.shape[0]

    def better(f, c, bf, bc):
        key = f + 1e8 * snp.maximum(c - ctol, 0.0)
        bkey = bf + 1e8 * snp.maximum(bc - ctol, 0.0)
        return (key < bkey) | ((key == bkey) & (c < bc)) | snp.isnan(bkey)

    def record(B, x, f, con, c):
        take = better(f, c, B["bf"], B["bc"])
        return dict(bx=snp.where(take, x, B["bx"]), bf=snp.where(take, f, B["bf"]),
                    bc=snp.where(take, c, B["bc"]),
                    bcon=snp.where(take, con, B["bcon"]))

    # initial simplex: x0 and x0 + rhobeg e_j, the best one as the pole
    sim = (snp.eye(n, n + 1, dtype=dt) * rhobeg).at[:, n].set(x0)
    S = dict(sim=sim, simi=snp.eye(n, dtype=dt) / rhobeg,
             fval=snp.full((n + 1,), snp.inf, dt).at[n].set(f0),
             cval=snp.full((n + 1,), snp.inf, dt).at[n].set(v0),
             conmat=snp.zeros((mc, n + 1), dt).at[:, n].set(c0))
    B = dict(bx=x0, bf=f0, bc=v0, bcon=c0)

    def init_body(j, c):
        S, B = c
        x = S["sim"][:, n].at[j].add(rhobeg)
        f, con, cv = calc(x)
        B = record(B, x, f, con, cv)
        fval = S["fval"].at[j].set(f)
        cval = S["cval"].at[j].set(cv)
        conmat = S["conmat"].at[:, j].set(con)
        sw = f < fval[n]
        idx = snp.arange(n + 1)
        perm = snp.where(sw & (idx == j), n, snp.where(sw & (idx == n), j, idx))
        sim = S["sim"]
        cols = snp.arange(n + 1)
        sim_x = sim.at[:, n].set(x)
        sim_sw = sim_x.at[j].set(snp.where(cols <= j, -rhobeg, sim_x[j]))
        return dict(S, sim=snp.where(sw, sim_sw, sim), fval=fval[perm],
                    cval=cval[perm], conmat=conmat[:, perm]), B

    S, B = lax.fori_loop(0, n, init_body, (S, B))
    S = dict(S, simi=snp.linalg.inv(S["sim"][:, :n]))
    i32 = snp.int32
    cpen0 = snp.maximum(_EPS, snp.minimum(1e3, _fcratio(S["conmat"], S["fval"])))
    nf0 = i32(n + 1)
    info0 = snp.where(nf0 >= maxfun, MAXFUN_REACHED, RUNNING)
    st = dict(S=S, B=B, rho=snp.asarray(rhobeg, dt), delta=snp.asarray(rhobeg, dt),
              cpen=cpen0.astype(dt), nf=nf0, tr=i32(0), info=info0.astype(i32),
              d=snp.zeros((n,), dt), shortd=snp.asarray(False),
              ratio=snp.asarray(-1.0, dt), jdrop_ok=snp.asarray(False))

    def trstep(S, cpen, delta):
        g, A = _models(S)
        d = _trlp(A, -S["conmat"][:, n], delta, g)
        preref = -snp.dot(d, g)
        lin = S["conmat"][:, n] + A.T @ d
        prerec = S["cval"][n] - (snp.maximum(0.0, snp.max(lin)) if mc else 0.0)
        return d, preref, prerec

    def getcpen(S, cpen, delta):
        def body(c):
            S, cpen, k, done = c
            S, ok = _updatepole(cpen, S)
            d, preref, prerec = trstep(S, cpen, delta)
            stop = ~ok | ~((prerec > 0) & (preref < 0))
            cpen1 = snp.where(stop, cpen, snp.maximum(cpen, snp.minimum(
                -2.0 * preref / snp.where(prerec > 0, prerec, 1.0), 1e300)))
            stop = stop | (_findpole(cpen1, S["cval"], S["fval"]) == n)
            return S, cpen1, k + 1, stop

        if mc == 0:
            return cpen
        _, cpen, _, _ = lax.while_loop(lambda c: ~c[3] & (c[2] < n + 1), body,
                                       (S, cpen, i32(0), snp.asarray(False)))
        return cpen

    def evaluate_at(S, B, x):
        pole = S["sim"][:, n]
        verts = pole[:, None] + S["sim"][:, :n]
        distsq = snp.concatenate([snp.sum((x[:, None] - verts) ** 2, axis=0),
                                  snp.reshape(snp.sum((x - pole) ** 2), (1,))])
        j = snp.argmin(distsq)
        near = distsq[j] <= (1e-4 * rhoend) ** 2

        def fresh(_):
            f, con, cv = calc(x)
            return f, con, cv, i32(1)

        f, con, cv, k = lax.cond(near, lambda _: (S["fval"][j], S["conmat"][:, j],
                                                  S["cval"][j], i32(0)), fresh, None)
        return f, con, cv, k, record(B, x, f, con, cv)

    def check(nf, cv, f, x):
        info = snp.where(nf >= maxfun, MAXFUN_REACHED, RUNNING)
        info = snp.where((f <= ftarget) & (cv <= ctol), FTARGET_ACHIEVED, info)
        info = snp.where(snp.isnan(f) | snp.isposinf(f) | snp.isnan(cv)
                         | snp.isposinf(cv), NAN_INF_F, info)
        info = snp.where(~snp.all(snp.isfinite(x)), NAN_INF_X, info)
        return info.astype(i32)

    def body(st):
        S, B, rho, delta = st["S"], st["B"], st["rho"], st["delta"]
        cpen = getcpen(S, st["cpen"], delta)
        S, ok = _updatepole(cpen, S)
        info = snp.where(ok, RUNNING, DAMAGING_ROUNDING).astype(i32)
        n2 = snp.sum(S["sim"][:, :n] ** 2, axis=0)
        adequate = snp.all(n2 <= 4.0 * delta ** 2)
        d, preref, prerec = trstep(S, cpen, delta)
        dnorm = snp.minimum(delta, snp.linalg.norm(d))
        shortd = dnorm <= 0.1 * rho
        prerem = preref + cpen * prerec
        trfail = ~(prerem > 1e-6 * snp.minimum(cpen, 1.0) * rho)
        skip = shortd | trfail
        nf, ratio, jdrop_ok = st["nf"], st["ratio"], st["jdrop_ok"]
        go = (info == RUNNING) & ~skip

        def take_step(_):
            x = S["sim"][:, n] + d
            f, con, cv, k, B1 = evaluate_at(S, B, x)
            actrem = (S["fval"][n] + cpen * S["cval"][n]) - (f + cpen * cv)
            r = snp.where(snp.isnan(actrem), -1e300, snp.where(
                snp.isnan(prerem) | (prerem <= 0),
                snp.where(actrem > 0, _ETA1 / 2, -1e300), actrem / prerem))
            dl = snp.where(r <= _ETA1, _GAMMA1 * dnorm, snp.where(
                r <= _ETA2, snp.maximum(_GAMMA1 * delta, dnorm),
                snp.maximum(_GAMMA1 * delta, _GAMMA2 * dnorm)))
            dl = snp.where(dl <= gamma3 * rho, rho, dl)
            ximp = actrem > 0
            jd = _setdrop_tr(ximp, d, dl, rho, S["sim"], S["simi"])
            S1, ok1 = lax.cond(jd >= 0, lambda _: _updatexfc(
                jd, d, f, con, cv, cpen, S), lambda _: (S, snp.asarray(True)), None)
            nf1 = nf + k
            inf = snp.where(ok1, check(nf1, cv, f, x), DAMAGING_ROUNDING)
            return S1, B1, dl, r, jd >= 0, nf1, inf.astype(i32)

        def no_step(_):
            dl = delta * 0.1
            dl = snp.where(dl <= gamma3 * rho, rho, dl)
            dl = snp.where(info == RUNNING, dl, delta)
            return S, B, dl, ratio, jdrop_ok, nf, info

        S, B, delta, ratio, jdrop_ok, nf, info = lax.cond(go, take_step, no_step, None)
        running = info == RUNNING
        bad = shortd | trfail | (ratio <= 0) | ~jdrop_ok
        improve_geo = running & bad & ~adequate
        reduce = running & bad & adequate & (snp.maximum(delta, dnorm) <= rho)
        n2 = snp.sum(S["sim"][:, :n] ** 2, axis=0)
        geo = improve_geo & ~snp.all(n2 <= 4.0 * delta ** 2)

        def geostep(_):
            jg = snp.argmax(n2)
            dd = S["simi"][jg]
            dd = (delta / 2) * dd / snp.linalg.norm(dd)
            g, A = _models(S)
            cp = S["conmat"][:, n]
            cvpd = snp.maximum(0.0, snp.max(cp + A.T @ dd)) if mc else 0.0
            cvnd = snp.maximum(0.0, snp.max(cp - A.T @ dd)) if mc else 0.0
            dd = snp.where(-snp.dot(dd, g) + cpen * cvnd < snp.dot(dd, g) + cpen * cvpd,
                           -dd, dd)
            x = S["sim"][:, n] + dd
            f, con, cv, k, B1 = evaluate_at(S, B, x)
            S1, ok1 = _updatexfc(jg, dd, f, con, cv, cpen, S)
            nf1 = nf + k
            inf = snp.where(ok1, check(nf1, cv, f, x), DAMAGING_ROUNDING)
            return S1, B1, nf1, inf.astype(i32)

        S, B, nf, info = lax.cond(geo, geostep, lambda _: (S, B, nf, info), None)
        reduce = reduce & (info == RUNNING)
        done_rho = reduce & (rho <= rhoend)
        info = snp.where(done_rho, SMALL_TR_RADIUS, info).astype(i32)
        red = reduce & ~done_rho

        def reduce_rho(_):
            rho1 = _redrho(rho, rhoend)
            dl = snp.maximum(0.5 * rho, rho1)
            cp = snp.maximum(_EPS, snp.minimum(cpen, _fcratio(S["conmat"], S["fval"])))
            S1, ok1 = _updatepole(cp, S)
            return S1, rho1, dl, cp, snp.where(ok1, info, DAMAGING_ROUNDING).astype(i32)

        S, rho, delta, cpen, info = lax.cond(
            red, reduce_rho, lambda _: (S, rho, delta, cpen, info), None)
        tr = st["tr"] + 1
        if callback is not None:
            stop = callback_stop(callback, obj.unravel, S["sim"][:, n], S["fval"][n])
            info = snp.where(stop & (info == RUNNING), CALLBACK_TERMINATE,
                             info).astype(i32)
        return dict(S=S, B=B, rho=rho, delta=delta, cpen=cpen, nf=nf, tr=tr, info=info,
                    d=d, shortd=shortd, ratio=ratio, jdrop_ok=jdrop_ok)

    st = lax.while_loop(lambda s: s["info"] == RUNNING, body, st)
    S, B = st["S"], st["B"]
    # PRIMA's last look: the short step not taken when rho reached its end
    x = S["sim"][:, n] + st["d"]
    last = ((st["info"] == SMALL_TR_RADIUS) & st["shortd"]
            & (snp.linalg.norm(st["d"]) > 1e-3 * rhoend) & (st["nf"] < maxfun))

    def final(_):
        f, con, cv = calc(x)
        return record(B, x, f, con, cv), st["nf"] + 1

    B, nf = lax.cond(last, final, lambda _: (B, st["nf"]), None)
    return B, nf, st["info"], st["tr"]


# --- front door ----------------------------------------------------------------------

_INFEASIBLE_MSG = ("Did not converge to a solution satisfying the constraints. See "
                   "`maxcv` for the magnitude of the violation.")


class COBYLAResult(RootResult):
    """COBYLA's result: ``success`` also needs ``maxcv <= catol`` (SciPy's
    rule), and the message says so when it fails on that ground."""

    def __getattr__(self, name: str) -> Any:
        if name in ("message", "success"):
            try:
                ok = np.asarray(self["_ok"])
                feas = np.asarray(self["_feasible"])
            except Exception:  # traced
                return "" if name == "message" else False
            if name == "success":
                return bool(ok) if ok.ndim == 0 else ok
            msg = super().__getattr__("message")
            if feas.ndim == 0:
                return msg if bool(feas) else _INFEASIBLE_MSG
            return [m if f else _INFEASIBLE_MSG for m, f in zip(msg, feas.ravel())]
        return super().__getattr__(name)


register_result(COBYLAResult, (str, bool, tuple))


def minimize_cobyla(fun: Callable, x0f, unravel_key, args, lb, ub, constraints,
                    options: COBYLASolver, callback) -> RootResult:
    """Run COBYLA, compiled and cached per function, options and arguments'
    structure."""
    n = x0f.shape[0]
    unravel = _make_unravel(unravel_key)
    pieces = cons.normalize(constraints, n, x0f, unravel) if constraints else ()
    lbn = np.full(n, -np.inf) if lb is None else np.asarray(lb, float)
    ubn = np.full(n, np.inf) if ub is None else np.asarray(ub, float)
    dyn, akey = _split_args(args)
    ctol = float(np.sqrt(_EPS) if options.catol is None else options.catol)

    def build():
        def run(x0, dyn):
            obj = Objective(fun, tuple(_rebuild(akey, [lax.stop_gradient(d)
                                                         for d in dyn])), unravel)
            B, nf, info, tr = _solve(obj, pieces, lbn, ubn, x0, options, callback)
            feasible = B["bc"] <= ctol
            ok_info = (info == SMALL_TR_RADIUS) | (info == FTARGET_ACHIEVED)
            return COBYLAResult(x=unravel(B["bx"]), fun=B["bf"], nfev=nf, nit=tr,
                                maxcv=B["bc"], status=info, _ok=ok_info & feasible,
                                _feasible=feasible,
                                _messages=tuple(sorted(_MESSAGES.items())),
                                _success_codes=(SMALL_TR_RADIUS, FTARGET_ACHIEVED))
        return run

    key = ("cobyla", fun, options, callback, unravel_key, akey,
           cons.cache_key(constraints), tuple(lbn.tolist()), tuple(ubn.tolist()))
    return _cached(key, build)(x0f, dyn)


def run_from_minimize(fun, x0, args, jac, hess, hessp, bounds, constraints, callback,
                      solver: COBYLASolver, disp: bool):
    """``minimize``'s entry: ravel ``x0`` and the bounds, run (derivatives
    are not used: ``jac``, ``hess``, ``hessp`` are ignored, as SciPy)."""
    from sciax.optimize._minimize import _bounds_arrays, _ravel_x0  # cycle: as above

    x0f, xkey = _ravel_x0(x0)
    lb, ub = _bounds_arrays(bounds, x0f.shape[0], x0f.dtype)
    res = minimize_cobyla(fun, x0f, xkey, args, lb, ub, constraints, solver, callback)
    if disp or solver.disp:
        try:
            print(res.message)
        except Exception:  # traced: nothing to print
            pass
    return res
