"""``minimize(method='trust-constr')``: a trust-region method for equality and
inequality constraints and bounds, SciPy's algorithm.

Equality constraints alone are solved by the Byrd-Omojokun trust-region SQP
method (Lalee, Nocedal and Plantenga, *SIAM J. Optim.* 8 (1998) 682-706):
each step is a normal step towards the linearised constraints (a dogleg in
a shrunk trust region) plus a tangential step in their null space (projected
conjugate gradients), judged by an l2 exact-penalty merit function, with a
second-order correction against the Maratos effect.  Inequalities and bounds
are turned into equalities with slack variables ``c(x) - s = 0, s > 0`` under a
logarithmic barrier (Byrd, Hribar and Nocedal, *SIAM J. Optim.* 9 (1999)
877-900); each barrier problem is solved by the SQP above in the variables
scaled by the slacks, and the barrier parameter and tolerance shrink by 0.2
between them (SciPy's ``tr_interior_point``).

Differences from SciPy: the Hessian of the Lagrangian is exact (forward over
reverse mode) where SciPy's default is a BFGS approximation, and the
constraint Jacobians are exact, so the iterates differ while the solutions
agree; the projections use a dense SVD of the Jacobian (SciPy: a QR, or an
augmented system for sparse Jacobians); the callback gets ``x`` and ``fun``
(not SciPy's whole state); ``verbose=3`` prints ``verbose=2``'s table; ``keep_feasible`` of
constraints and bounds is accepted and not enforced.  The whole iteration is
one ``lax.while_loop`` (barrier updates are iterations that take no step, as
SciPy counts them), so it runs under ``jit`` and ``vmap``.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Callable

import numpy as np

import sciax
import sciax.debug
import sciax.numpy as snp
from sciax import lax

from sciax.optimize import _constraints as cons
from sciax.optimize._base import Objective, callback_stop
from sciax.optimize._minimize import _make_unravel
from sciax.optimize._root import RootResult
from sciax.optimize._root_scalar import _cached, _rebuild, _split_args
from sciax.optimize._slsqp import _active_set, _attach_kkt

RUNNING = -1
_MESSAGES = {0: "The maximum number of function evaluations is exceeded.",
             1: "`gtol` termination condition is satisfied.",
             2: "`xtol` termination condition is satisfied.",
             3: "`callback` raised `StopIteration`.",
             4: "Constraint violation exceeds 'gtol'"}

# SciPy's constants (equality_constrained_sqp, tr_interior_point)
_PENALTY_FACTOR = 0.3
_LARGE_RATIO, _MID_RATIO, _SUFFICIENT_RATIO = 0.9, 0.3, 1e-8
_ENLARGE_L, _ENLARGE_S = 7.0, 2.0
_MAX_TR_REDUCTION, _MIN_TR_REDUCTION = 0.5, 0.1
_SOC_THRESHOLD, _TR_FACTOR, _BOX_FACTOR = 0.1, 0.8, 0.5
_BOUNDARY, _BARRIER_DECAY, _TR_ENLARGEMENT = 0.995, 0.2, 5.0


@dataclasses.dataclass(frozen=True)
class TrustConstrSolver:
    """Options of ``minimize(method='trust-constr')``, SciPy's names.

    Parameters
    ----------
    gtol : float
        Stop when the infinity norm of the Lagrangian's gradient and the
        constraint violation are both below ``gtol`` (default 1e-8).
    xtol : float
        Stop when the trust radius falls below ``xtol`` (and, with
        inequalities, the barrier parameter below ``barrier_tol``).
    barrier_tol : float
        See ``xtol`` (default 1e-8).
    maxiter : int
        Maximum iterations, barrier updates included (default 1000).
    initial_tr_radius, initial_constr_penalty : float
        Initial trust radius and merit penalty (default 1).
    initial_barrier_parameter, initial_barrier_tolerance : float
        Initial barrier parameter and the tolerance of the first barrier
        subproblem (default 0.1).
    verbose : int
        ``1`` prints the final message and counts (as ``disp``), ``2`` (and
        ``3``) also a row per iteration, in SciPy's format; from inside the
        compiled loop, so also under ``jit``.
    sparse_jacobian, factorization_method, finite_diff_rel_step, workers, disp
        Accepted for compatibility (Jacobians are dense and exact).

    Examples
    --------
    Maximise ``x0 + 2 x1`` on the unit circle (an equality: the SQP method):

    >>> from sciax.optimize import minimize, NonlinearConstraint
    >>> circle = NonlinearConstraint(lambda x: x[0] ** 2 + x[1] ** 2, 1.0, 1.0)
    >>> res = minimize(lambda x: -x[0] - 2 * x[1], snp.array([1.0, 0.0]),
    ...                method="trust-constr", constraints=circle)
    >>> print(np.round(np.asarray(res.x), 6), int(res.status), res.method)
    [0.447214 0.894427] 1 equality_constrained_sqp
    >>> print(np.round(np.asarray(res.v[0]), 6))  # its multiplier, sqrt(5)/2
    [1.118034]

    With bounds (inequalities: the barrier method), HS 21:

    >>> res = minimize(lambda x: 0.01 * x[0] ** 2 + x[1] ** 2 - 100,
    ...                snp.array([-1.0, -1.0]), method="trust-constr",
    ...                constraints={"type": "ineq",
    ...                             "fun": lambda x: 10 * x[0] - x[1] - 10},
    ...                bounds=[(2, 50), (-50, 50)])
    >>> print(round(float(res.fun), 4), res.success, res.method)
    -99.96 True tr_interior_point
    """

    gtol: float = 1e-8
    xtol: float = 1e-8
    barrier_tol: float = 1e-8
    maxiter: int = 1000
    verbose: int = 0
    initial_tr_radius: float = 1.0
    initial_constr_penalty: float = 1.0
    initial_barrier_parameter: float = 0.1
    initial_barrier_tolerance: float = 0.1
    sparse_jacobian: Any = None
    factorization_method: Any = None
    finite_diff_rel_step: Any = None
    workers: Any = None
    disp: bool = False

    tol_fields = ("gtol", "xtol", "barrier_tol")


# --- geometry: intersections of a segment with a box and a sphere ------------------


def _box_intersections(z, d, lb, ub, entire_line=False):
    dt = z.dtype
    dn0 = snp.all(d == 0)
    zero_d = d == 0
    bad = snp.any(zero_d & ((z < lb) | (z > ub)))
    dsafe = snp.where(zero_d, 1.0, d)
    t_lb = snp.where(zero_d, -snp.inf, (lb - z) / dsafe)
    t_ub = snp.where(zero_d, snp.inf, (ub - z) / dsafe)
    ta = snp.max(snp.minimum(t_lb, t_ub))
    tb = snp.min(snp.maximum(t_lb, t_ub))
    inter = ta <= tb
    if not entire_line:
        out = (tb < 0) | (ta > 1)
        inter = inter & ~out
        ta = snp.where(out, 0.0, snp.maximum(0.0, ta))
        tb = snp.where(out, 0.0, snp.minimum(1.0, tb))
    none = dn0 | bad
    zero = snp.zeros((), dt)
    return (snp.where(none, zero, ta), snp.where(none, zero, tb), inter & ~none)


def _sphere_intersections(z, d, radius, entire_line=False):
    dt = z.dtype
    a = snp.dot(d, d)
    b = 2.0 * snp.dot(z, d)
    c = snp.dot(z, z) - radius ** 2
    disc = b * b - 4.0 * a * c
    sq = snp.sqrt(snp.maximum(disc, 0.0))
    aux = b + snp.where(b >= 0, sq, -sq)
    aux_s = snp.where(aux == 0, 1.0, aux)
    a_s = snp.where(a == 0, 1.0, a)
    t1, t2 = -aux / (2.0 * a_s), -2.0 * c / aux_s
    ta, tb = snp.minimum(t1, t2), snp.maximum(t1, t2)
    inter = disc >= 0
    if not entire_line:
        out = (tb < 0) | (ta > 1)
        inter = inter & ~out
        ta = snp.where(out, 0.0, snp.maximum(0.0, ta))
        tb = snp.where(out, 0.0, snp.minimum(1.0, tb))
    none = (a == 0) | (disc < 0)
    zero = snp.zeros((), dt)
    return snp.where(none, zero, ta), snp.where(none, zero, tb), inter & ~none


def _box_sphere(z, d, lb, ub, radius, entire_line=False):
    ta_b, tb_b, ib = _box_intersections(z, d, lb, ub, entire_line)
    ta_s, tb_s, is_ = _sphere_intersections(z, d, radius, entire_line)
    ta, tb = snp.maximum(ta_b, ta_s), snp.minimum(tb_b, tb_s)
    return ta, tb, ib & is_ & (ta <= tb)


def _inside(x, lb, ub):
    return snp.all((lb <= x) & (x <= ub))


# --- projections onto the null and row spaces of the Jacobian ----------------------


class _Proj:
    """``Z`` (projection onto the null space of ``A``), ``LS`` (least-squares
    multipliers, ``argmin |A' v - x|``) and ``Y`` (minimum-norm solution of
    ``A y = b``) from a thin SVD ``A' = U diag(sv) Vt`` with tiny singular
    values dropped (rank-deficient Jacobians stay well defined)."""

    def __init__(self, U, svi, Vt):
        self.U, self.svi, self.Vt = U, svi, Vt

    @staticmethod
    def factors(A):
        m, N = A.shape
        dt = A.dtype
        if m == 0:
            return snp.zeros((N, 0), dt), snp.zeros((0,), dt), snp.zeros((0, 0), dt)
        U, sv, Vt = snp.linalg.svd(A.T, full_matrices=False)
        keep = sv > snp.max(sv) * (N * float(np.finfo(np.dtype(dt)).eps))
        svi = snp.where(keep, 1.0 / snp.where(keep, sv, 1.0), 0.0)
        return U * keep.astype(dt), svi, Vt

    def Z(self, x):
        if self.U.shape[1] == 0:
            return x
        z = x - self.U @ (self.U.T @ x)
        return z - self.U @ (self.U.T @ z)  # one refinement, as SciPy's

    def LS(self, x):
        return self.Vt.T @ (self.svi * (self.U.T @ x))

    def Y(self, b):
        return self.U @ (self.svi * (self.Vt @ b))


# --- the two step computations -------------------------------------------------------


def _modified_dogleg(A, P: _Proj, b, radius, lb, ub):
    """Normal step: approximately minimise ``|A d + b|`` in ``|d| <= radius``
    and the box, along the dogleg path (SciPy's ``modified_dogleg``)."""
    N = A.shape[1]
    if A.shape[0] == 0:
        return snp.zeros((N,), A.dtype)
    newton = -P.Y(b)
    newton_ok = _inside(newton, lb, ub) & (snp.linalg.norm(newton) <= radius)
    g = A.T @ b
    Ag = A @ g
    AgAg = snp.dot(Ag, Ag)
    cauchy = -snp.dot(g, g) / snp.where(AgAg > 0, AgAg, 1.0) * g
    zero = snp.zeros_like(cauchy)
    _, al, inter = _box_sphere(cauchy, newton - cauchy, lb, ub, radius)
    _, al0, _ = _box_sphere(zero, cauchy, lb, ub, radius)
    x1 = snp.where(inter, cauchy + al * (newton - cauchy), al0 * cauchy)
    _, al2, _ = _box_sphere(zero, newton, lb, ub, radius)
    x2 = al2 * newton
    x = snp.where(snp.linalg.norm(A @ x1 + b) < snp.linalg.norm(A @ x2 + b), x1, x2)
    return snp.where(newton_ok, newton, x)


def _projected_cg(H, c, P: _Proj, m, radius, lb, ub):
    """Tangential step: ``min 0.5 d'Hd + c'd`` on the null space of ``A``
    (``A d = 0``), in ``|d| <= radius`` and the box, by projected CG with
    SciPy's stopping rules (``projected_cg`` with ``b = 0``).  Returns the
    step and the CG iterations."""
    N = c.shape[0]
    dt = c.dtype
    max_iter = N - m
    x0 = snp.zeros((N,), dt)
    if max_iter <= 0:
        return x0, snp.int32(0)
    r = P.Z(c)
    g = P.Z(r)
    p = -g
    rt_g = snp.dot(g, g)
    tol = snp.maximum(snp.minimum(0.01 * snp.sqrt(rt_g), 0.1 * rt_g), 1e-25)

    def body(s):
        x, r, g, p, rt_g, counter, last, k, i, done = s
        small = rt_g < tol
        Hp = H @ p
        pHp = snp.dot(p, Hp)
        neg = pHp <= 0
        _, a_n, in_n = _box_sphere(x, p, lb, ub, radius, entire_line=True)
        x_neg = snp.clip(x + snp.where(in_n, a_n, 0.0) * p, lb, ub)
        alpha = rt_g / snp.where(neg, 1.0, pHp)
        x_next = x + alpha * p
        out = snp.linalg.norm(x_next) >= radius
        _, th, in_o = _box_sphere(x, alpha * p, lb, ub, radius)
        x_out = snp.clip(x + snp.where(in_o, th, 0.0) * alpha * p, lb, ub)
        counter1 = snp.where(_inside(x_next, lb, ub), 0, counter + 1)
        feas = (counter1 > 0) & in_o
        last1 = snp.where(feas, x_out, last)
        counter1 = snp.where(feas, 0, counter1)
        exceed = counter1 > max_iter
        r1 = r + alpha * Hp
        g1 = P.Z(r1)
        rt1 = snp.dot(g1, g1)
        p1 = -g1 + rt1 / rt_g * p
        normal = ~small & ~neg & ~out & ~exceed
        xn = snp.where(small | exceed, x, snp.where(neg, x_neg, snp.where(
            out, x_out, x_next)))
        stop = small | neg | out | exceed
        keep = lambda new, old: snp.where(normal, new, old)  # noqa: E731
        lastn = snp.where(small | neg | out, last, last1)
        return (xn, keep(g1, r), keep(g1, g), keep(p1, p), keep(rt1, rt_g),
                snp.where(small | neg | out, counter, counter1), lastn,
                k + (~small).astype(snp.int32), i + 1, stop)

    s0 = (x0, r, g, p, rt_g, snp.int32(0), x0, snp.int32(0), snp.int32(0),
          snp.asarray(radius < 1e-25))
    x, _, _, _, _, _, last, k, _, _ = lax.while_loop(
        lambda s: ~s[9] & (s[8] < max_iter), body, s0)
    return snp.where(_inside(x, lb, ub), x, last), k


# --- SciPy's verbose report, printed from the compiled loop --------------------------

_HEAD = ("| niter |f evals|CG iter|  obj func   |tr radius |   opt    |  c viol  |\n"
         "|-------|-------|-------|-------------|----------|----------|----------|")


class _Report:
    """``verbose >= 2``'s table and ``verbose >= 1``'s summary (host callbacks;
    the header's call starts the clock that the summary reads).  Under
    ``vmap`` the values come batched: one row or summary per lane."""

    def __init__(self, verbose: int):
        self.verbose = verbose
        self.t0 = time.perf_counter()

    def header(self, _):
        self.t0 = time.perf_counter()
        if self.verbose >= 2:
            print(_HEAD)

    def row(self, *vals):
        for nit, nfev, cg, f, tr, opt, cv in zip(*(np.ravel(v) for v in vals)):
            print(f"|{int(nit):^7}|{int(nfev):^7}|{int(cg):^7}|{float(f):^+13.4e}|"
                  f"{float(tr):^10.2e}|{float(opt):^10.2e}|{float(cv):^10.2e}|")

    def footer(self, *vals):
        elapsed = time.perf_counter() - self.t0
        if self.verbose >= 2:
            print()
        for status, nit, nfev, cg, opt, cv in zip(*(np.ravel(v) for v in vals)):
            print(_MESSAGES[int(status)])
            print(f"Number of iterations: {int(nit)}, function evaluations: "
                  f"{int(nfev)}, CG iterations: {int(cg)}, optimality: "
                  f"{float(opt):.2e}, constraint violation: {float(cv):.2e}, "
                  f"execution time: {elapsed:4.2} s.")


# --- the iteration -------------------------------------------------------------------


def _solve(obj: Objective, pieces, x0, opts: TrustConstrSolver, callback):
    n = x0.shape[0]
    dt = x0.dtype
    me, mi = cons.sizes(pieces)
    N, m = n + mi, me + mi
    ip = mi > 0
    gtol, xtol, btol_final = float(opts.gtol), float(opts.xtol), float(opts.barrier_tol)
    tr0, pen0 = float(opts.initial_tr_radius), float(opts.initial_constr_penalty)
    trust_lb = snp.concatenate([snp.full((n,), -snp.inf, dt),
                                snp.full((mi,), -_BOUNDARY, dt)])
    trust_ub = snp.full((N,), snp.inf, dt)

    def values(x):
        f = obj.value(x)
        ce, ci, _, _ = cons.evaluate(pieces, x, with_jac=False)
        return f, ce, ci

    def derivs(x):
        g = obj.grad(x)
        _, _, Je, Ji = cons.evaluate(pieces, x)
        return g, Je, Ji

    def barrier_fun(f, ci, s, mu):
        if not ip:
            return f
        logs = snp.where(s > 0, snp.log(snp.where(s > 0, s, 1.0)), -snp.inf)
        return f - mu * snp.sum(logs)

    def barrier_constr(ce, ci, s):
        return snp.concatenate([ce, -ci + s]) if ip else ce

    def hess_x(x, v):
        # exact Hessian of f + v_eq.c_eq + v_in.(-c_in): forward over reverse
        H = obj.dense_hess(x)
        if m == 0:
            return H

        def lag_c(xx):
            ce, ci, _, _ = cons.evaluate(pieces, xx, with_jac=False)
            return snp.dot(v[:me], ce) - snp.dot(v[me:], ci)
        return H + sciax.jacfwd(sciax.grad(lag_c))(x)

    def prep(st, mu):
        """Barrier-problem quantities at the accepted point: scaled gradient,
        Jacobian, projections, least-squares multipliers, Hessian, and the
        optimality and violation of both problems."""
        x, s = st["x"], st["s"]
        g, Je, Ji, ce, ci = st["g"], st["Je"], st["Ji"], st["ce"], st["ci"]
        if ip:
            cg = snp.concatenate([g, -mu * snp.ones((mi,), dt)])
            A = snp.concatenate([
                snp.concatenate([Je, snp.zeros((me, mi), dt)], axis=1),
                snp.concatenate([-Ji, snp.diag(s)], axis=1)], axis=0)
        else:
            cg, A = g, Je
        U, svi, Vt = _Proj.factors(A)
        P = _Proj(U, svi, Vt)
        v = -P.LS(cg)
        Hx = hess_x(x, v)
        if ip:
            vs = v[me:]
            hs = snp.where(vs > 0, vs * s, mu)
            H = snp.zeros((N, N), dt).at[:n, :n].set(Hx).at[n:, n:].set(snp.diag(hs))
        else:
            H = Hx
        bc = barrier_constr(ce, ci, s)
        lg = g + Je.T @ v[:me] - Ji.T @ v[me:]
        viol = snp.maximum(snp.max(snp.abs(ce)) if me else 0.0,
                           snp.max(-ci) if mi else 0.0)
        return dict(fb=barrier_fun(st["f"], ci, s, mu), bc=bc, cg=cg, A=A, U=U,
                    svi=svi, Vt=Vt, v=v, H=H,
                    bopt=snp.max(snp.abs(cg + A.T @ v)),
                    bcv=snp.max(snp.abs(bc)) if m else snp.zeros((), dt),
                    lag_grad=lg, optimality=snp.max(snp.abs(lg)),
                    constr_violation=snp.maximum(viol, 0.0).astype(dt))

    f0, ce0, ci0 = values(x0)
    g0, Je0, Ji0 = derivs(x0)
    s0 = snp.maximum(1.5 * ci0, 1.0)
    mu0 = snp.asarray(opts.initial_barrier_parameter, dt)
    st = dict(x=x0, s=s0, f=f0, g=g0, ce=ce0, ci=ci0, Je=Je0, Ji=Ji0)
    st.update(prep(st, mu0))
    i32 = snp.int32
    st.update(mu=mu0, btol=snp.asarray(opts.initial_barrier_tolerance, dt),
              tr=snp.asarray(tr0, dt), penalty=snp.asarray(pen0, dt),
              nit=i32(0), nfev=i32(1), njev=i32(1), nhev=i32(1), cg_niter=i32(0),
              status=i32(RUNNING))

    def step(st):
        x, s, tr, pen = st["x"], st["s"], st["tr"], st["penalty"]
        mu = st["mu"]
        P = _Proj(st["U"], st["svi"], st["Vt"])
        H, c, b, A = st["H"], st["cg"], st["bc"], st["A"]
        dn = _modified_dogleg(A, P, b, _TR_FACTOR * tr, _BOX_FACTOR * trust_lb,
                              _BOX_FACTOR * trust_ub)
        c_t = H @ dn + c
        tr_t = snp.sqrt(snp.maximum(tr ** 2 - snp.dot(dn, dn), 0.0))
        dtan, k = _projected_cg(H, c_t, P, m, tr_t, trust_lb - dn, trust_ub - dn)
        d = dn + dtan
        qm = 0.5 * snp.dot(H @ d, d) + snp.dot(c, d)
        nb = snp.linalg.norm(b) if m else snp.zeros((), dt)
        vpred = snp.maximum(1e-16, nb - (snp.linalg.norm(A @ d + b) if m else 0.0))
        pen1 = snp.where(qm > 0, snp.maximum(pen, qm / ((1 - _PENALTY_FACTOR) * vpred)),
                         pen)
        pred = -qm + pen1 * vpred
        merit = st["fb"] + pen1 * nb

        def trial(dd):
            xt, stt = x + dd[:n], s + s * dd[n:]
            ft, cet, cit = values(xt)
            bct = barrier_constr(cet, cit, stt)
            mt = barrier_fun(ft, cit, stt, mu) + pen1 * (snp.linalg.norm(bct) if m
                                                         else 0.0)
            return xt, stt, ft, cet, cit, (merit - mt) / pred

        xt, stt, ft, cet, cit, ratio = trial(d)
        nf = i32(1)
        if m:
            do_soc = (ratio < _SUFFICIENT_RATIO) & (
                snp.linalg.norm(dn) <= _SOC_THRESHOLD * snp.linalg.norm(dtan))

            def soc(_):
                y = -P.Y(barrier_constr(cet, cit, stt))
                _, t, inter = _box_intersections(d, y, trust_lb, trust_ub)
                xs_, ss_, fs_, ces_, cis_, rs_ = trial(d + t * y)
                take = inter & (rs_ >= _SUFFICIENT_RATIO)
                sel = lambda a, b_: snp.where(take, a, b_)  # noqa: E731
                return (sel(xs_, xt), sel(ss_, stt), sel(fs_, ft), sel(ces_, cet),
                        sel(cis_, cit), sel(rs_, ratio))

            xt, stt, ft, cet, cit, ratio = lax.cond(
                do_soc, soc, lambda _: (xt, stt, ft, cet, cit, ratio), None)
            nf = nf + do_soc.astype(i32)
        nd = snp.linalg.norm(d)
        red = (1 - _SUFFICIENT_RATIO) / (1 - ratio)
        new_tr = red * nd
        shrunk = snp.where(new_tr >= _MAX_TR_REDUCTION * tr, _MAX_TR_REDUCTION * tr,
                           snp.where(new_tr >= _MIN_TR_REDUCTION * tr, new_tr,
                                     _MIN_TR_REDUCTION * tr))
        tr1 = snp.where(ratio >= _LARGE_RATIO, snp.maximum(_ENLARGE_L * nd, tr),
                        snp.where(ratio >= _MID_RATIO, snp.maximum(_ENLARGE_S * nd, tr),
                                  snp.where(ratio < _SUFFICIENT_RATIO, shrunk, tr)))
        accept = ratio >= _SUFFICIENT_RATIO

        def take(_):
            g1, Je1, Ji1 = derivs(xt)
            new = dict(x=xt, s=stt, f=ft, g=g1, ce=cet, ci=cit, Je=Je1, Ji=Ji1)
            new.update(prep(new, mu))
            return new

        keys = ("x", "s", "f", "g", "ce", "ci", "Je", "Ji", "fb", "bc", "cg", "A", "U",
                "svi", "Vt", "v", "H", "bopt", "bcv", "lag_grad", "optimality",
                "constr_violation")
        new = lax.cond(accept, take, lambda _: {kk: st[kk] for kk in keys}, None)
        out = dict(st)
        out.update(new)
        acc = accept.astype(i32)
        out.update(tr=tr1, penalty=snp.where(accept, pen1, pen),
                   nfev=st["nfev"] + nf, njev=st["njev"] + acc,
                   nhev=st["nhev"] + acc, cg_niter=st["cg_niter"] + k)
        return out

    def barrier_update(st):
        out = dict(st)
        mu = st["mu"] * _BARRIER_DECAY
        out.update(mu=mu, btol=st["btol"] * _BARRIER_DECAY,
                   tr=snp.maximum(tr0, _TR_ENLARGEMENT * st["tr"]),
                   penalty=snp.asarray(pen0, dt), nhev=st["nhev"] + 1)
        out.update(prep(out, mu))
        return out

    report = _Report(opts.verbose) if opts.verbose or opts.disp else None

    def body(st):
        nit = st["nit"] + 1
        if report is not None and report.verbose >= 2:
            sciax.debug.callback(report.row, nit, st["nfev"], st["cg_niter"], st["f"],
                                 st["tr"], st["optimality"], st["constr_violation"])
        x_stop = st["tr"] < xtol
        if ip:
            x_stop = x_stop & (st["mu"] < btol_final)
        status = snp.where((st["optimality"] < gtol) & (st["constr_violation"] < gtol),
                           1, snp.where(x_stop, 2, snp.where(nit >= opts.maxiter, 0,
                                                             RUNNING)))
        if callback is not None:  # SciPy asks the callback before the tests
            stop = callback_stop(callback, obj.unravel, st["x"], st["f"],
                                 legacy_state=True, stop_on_true=True)
            status = snp.where(stop, 3, status)
        running = status == RUNNING
        st = dict(st, nit=nit, status=status.astype(i32))
        if ip:
            inner = (((st["bopt"] < st["btol"]) & (st["bcv"] < st["btol"]))
                     | (st["tr"] < xtol))
            st = lax.cond(running & inner, barrier_update, lambda s_: s_, st)
            return lax.cond(running & ~inner, step, lambda s_: s_, st)
        return lax.cond(running, step, lambda s_: s_, st)

    if opts.maxiter <= 0:
        st["status"] = i32(0)
    if report is not None:  # (x0 as operand: the call stays in place)
        sciax.debug.callback(report.header, st["x"])
    st = lax.while_loop(lambda s_: s_["status"] == RUNNING, body, st)
    bad = ((st["status"] == 1) | (st["status"] == 2)) & (st["constr_violation"] > gtol)
    st["status"] = snp.where(bad, 4, st["status"]).astype(i32)
    if report is not None:
        sciax.debug.callback(report.footer, st["status"], st["nit"], st["nfev"],
                             st["cg_niter"], st["optimality"], st["constr_violation"])
    return st


def _per_piece(pieces, x, v, me):
    """SciPy's per-constraint ``constr``, ``jac`` and ``v`` (multipliers of
    ``fun(x)`` itself, so ``lagrangian_grad = grad + sum(jac' v)``)."""
    constr, jac, mult = [], [], []
    oe, oi = 0, me
    n = x.shape[0]
    for p in pieces:
        val = p.fun(x).astype(x.dtype)
        k = val.shape[0]
        J = (snp.asarray(p.jac(x), x.dtype).reshape(k, n) if p.jac is not None
             else sciax.jacfwd(p.fun)(x).reshape(k, n).astype(x.dtype))
        w = snp.zeros((k,), x.dtype)
        ne, nl, nu = len(p.eq_rows), len(p.lo_rows), len(p.up_rows)
        if ne:
            w = w.at[p.eq_rows].add(v[oe:oe + ne])
        if nl:
            w = w.at[p.lo_rows].add(-v[oi:oi + nl])
        if nu:
            w = w.at[p.up_rows].add(v[oi + nl:oi + nl + nu])
        oe, oi = oe + ne, oi + nl + nu
        constr.append(val)
        jac.append(J)
        mult.append(w)
    return constr, jac, mult


# --- front door (called by minimize) ------------------------------------------------


def minimize_trust_constr(fun: Callable, x0f, unravel_key, args, jac, hess, hessp,
                          lb, ub, constraints, options: TrustConstrSolver,
                          callback) -> RootResult:
    """Run trust-constr, compiled and cached per function, options and argument
    structure (``minimize`` validates and ravels first)."""
    n = x0f.shape[0]
    unravel = _make_unravel(unravel_key)
    user = cons.normalize(constraints, n, x0f, unravel) if constraints else ()
    bounded = lb is not None and (np.any(np.isfinite(lb)) or np.any(np.isfinite(ub)))
    lbn = np.full(n, -np.inf) if lb is None else np.asarray(lb, float)
    ubn = np.full(n, np.inf) if ub is None else np.asarray(ub, float)
    pieces = user
    if bounded:
        # bounds are one more (linear) constraint, as SciPy's trust-constr
        eye = np.eye(n)
        pieces = user + (cons._piece_from_bounds(
            lambda x: x, lambda x: snp.asarray(eye, x.dtype), lbn, ubn, n),)
    me, mi = cons.sizes(pieces)
    if me > n:
        raise ValueError(f"trust-constr: more equality constraints ({me}) than "
                         f"independent variables ({n})")
    dyn, akey = _split_args(args)
    method = "tr_interior_point" if mi else "equality_constrained_sqp"

    def build():
        def run(x0, dyn):
            def obj_for(d):
                return Objective(fun, tuple(_rebuild(akey, d)), unravel, jac, hess,
                                 hessp)

            dyn_nd = [lax.stop_gradient(d) for d in dyn]
            obj = obj_for(dyn_nd)
            st = _solve(obj, pieces, x0, options, callback)
            x, f = st["x"], st["f"]
            float_ok = bool(dyn) and all(snp.issubdtype(snp.asarray(d).dtype,
                                                        snp.inexact) for d in dyn)
            if float_ok:
                lbj, ubj = snp.asarray(lbn, x.dtype), snp.asarray(ubn, x.dtype)
                act_i, act_b = _active_set(user, x, lbj, ubj, st["g"], 1e-6)
                # an interior point stops short of its active constraints:
                # those whose multiplier exceeds their slack count as active
                mi_user = cons.sizes(user)[1]
                vin = st["v"][me:]
                act_i = act_i | (vin[:mi_user] > st["ci"][:mi_user])
                if bounded:
                    w = _per_piece(pieces[-1:], x, vin[mi_user:], 0)[2][0]
                    act_b = (act_b | ((w < 0) & (-w > x - lbj))
                             | ((w > 0) & (w > ubj - x)))
                x, f = _attach_kkt(obj_for, user, x, f, list(dyn), act_i, act_b)
            constr, jacs, mult = _per_piece(pieces, st["x"], st["v"], me)
            out = RootResult(
                x=unravel(x), fun=f, grad=unravel(st["g"]),
                lagrangian_grad=unravel(st["lag_grad"]), constr=constr, jac=jacs,
                v=mult, nit=st["nit"], nfev=st["nfev"], njev=st["njev"],
                nhev=st["nhev"], cg_niter=st["cg_niter"],
                constr_violation=st["constr_violation"],
                optimality=st["optimality"], tr_radius=st["tr"],
                constr_penalty=st["penalty"], status=st["status"], method=method,
                _messages=tuple(sorted(_MESSAGES.items())), _success_codes=(1, 2))
            if mi:
                out["barrier_parameter"] = st["mu"]
                out["barrier_tolerance"] = st["btol"]
            return out
        return run

    key = ("trust-constr", fun, jac, hess, hessp, options, callback, unravel_key, akey,
           cons.cache_key(constraints), tuple(lbn.tolist()), tuple(ubn.tolist()))
    return _cached(key, build)(x0f, dyn)


def run_from_minimize(fun, x0, args, jac, hess, hessp, bounds, constraints, callback,
                      solver: TrustConstrSolver, disp: bool):
    """``minimize``'s entry: validate, ravel ``x0`` and the bounds, run."""
    from sciax.optimize._minimize import _bounds_arrays, _ravel_x0  # cycle: as above

    if isinstance(jac, str) or jac is False:
        jac = None
    if isinstance(hess, str) or (hess is not None and not callable(hess)):
        hess = None  # '2-point', a HessianUpdateStrategy...: exact hessians instead
    if disp and not solver.verbose:
        solver = dataclasses.replace(solver, verbose=1)
    x0f, xkey = _ravel_x0(x0)
    lb, ub = _bounds_arrays(bounds, x0f.shape[0], x0f.dtype)
    return minimize_trust_constr(fun, x0f, xkey, args, jac, hess, hessp, lb, ub,
                                 constraints, solver, callback)
