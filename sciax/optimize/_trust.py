"""Trust-region Newton methods: trust-ncg, trust-exact, trust-krylov and dogleg.

The outer iteration is SciPy's ``_minimize_trust_region`` (radius 1, at most
1000, ``eta = 0.15``, quarter on ``rho < 1/4``, double on ``rho > 3/4`` at the
boundary, stop on ``|g| < gtol``); the subproblem solvers differ:

* trust-ncg: Steihaug's truncated CG on exact hessian-vector products;
* trust-exact: Moré-Sorensen's Cholesky iteration on the damping ``lambda``,
  with SciPy's bounds, safeguards and stopping tests, so its steps retrace
  SciPy's (trust-krylov's small tridiagonal problems are solved exactly from
  an eigendecomposition instead);
* dogleg: Powell's dogleg between the Cauchy and Newton points.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sciax
import sciax.linalg
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import RUNNING, AbstractMinimizer, Status, reason_index


@sciax.tree.register_dataclass
@dataclasses.dataclass
class TrustState:
    x: Any
    f: Any
    g: Any
    H: Any
    radius: Any
    nfev: Any
    njev: Any
    nhev: Any


def _boundary(z, d, r):
    """``(ta, tb)`` with ``|z + t d| = r``."""
    a = snp.dot(d, d)
    b = 2.0 * snp.dot(z, d)
    c = snp.dot(z, z) - r * r
    sq = snp.sqrt(snp.maximum(b * b - 4 * a * c, 0.0))
    aux = b + snp.where(b >= 0, sq, -sq)
    ta, tb = -aux / (2 * a), -2 * c / aux
    return snp.minimum(ta, tb), snp.maximum(ta, tb)


def _steihaug(hvp, g, r):
    gnorm = snp.linalg.norm(g)
    tol = snp.minimum(0.5, snp.sqrt(gnorm)) * gnorm

    def cond(c):
        return ~c["done"]

    def body(c):
        Bd = hvp(c["d"])
        dBd = snp.dot(c["d"], Bd)
        ta, tb = _boundary(c["z"], c["d"], r)
        pa, pb = c["z"] + ta * c["d"], c["z"] + tb * c["d"]
        q = lambda p: snp.dot(g, p) + 0.5 * snp.dot(p, hvp(p))  # noqa: E731
        p_neg = snp.where(q(pa) < q(pb), pa, pb)
        alpha = snp.dot(c["r"], c["r"]) / snp.where(dBd == 0, 1.0, dBd)
        z1 = c["z"] + alpha * c["d"]
        r1 = c["r"] + alpha * Bd
        out_b = snp.linalg.norm(z1) >= r
        neg = dBd <= 0
        conv = snp.linalg.norm(r1) < tol
        beta = snp.dot(r1, r1) / snp.dot(c["r"], c["r"])
        z_new = snp.where(neg, p_neg, snp.where(out_b, c["z"] + tb * c["d"], z1))
        return dict(z=z_new, r=r1, d=-r1 + beta * c["d"], done=neg | out_b | conv
                    | (c["i"] + 1 >= 10 * g.shape[0]), hit=neg | out_b, i=c["i"] + 1,
                    nh=c["nh"] + 2 + neg)

    c0 = dict(z=snp.zeros_like(g), r=g, d=-g, done=gnorm < tol, hit=snp.bool_(False),
              i=snp.int32(0), nh=snp.int32(0))
    c = lax.while_loop(cond, body, c0)
    return c["z"], c["hit"], c["nh"]


def _exact(H, g, r):
    """Global minimiser of ``g.p + p.H.p/2`` over ``|p| <= r`` via ``eigh``."""
    lam, Q = snp.linalg.eigh(H)
    gt = Q.T @ g
    lmin = lam[0]
    eps = snp.finfo(g.dtype).eps

    def pnorm(mu):
        return snp.sqrt(snp.sum((gt / (lam + mu)) ** 2))

    # Interior Newton step when H is positive definite and the step fits.
    p_in = -Q @ (gt / snp.where(lam > 0, lam, 1.0))
    interior = (lmin > 0) & (snp.linalg.norm(p_in) <= r)
    lo = snp.maximum(0.0, -lmin) * (1 + eps) + 1e-300
    # Newton on 1/|p(mu)| - 1/r (Moré-Sorensen's secular equation) from lo.
    hi = snp.linalg.norm(g) / r + snp.maximum(0.0, -lmin) + snp.max(snp.abs(lam))

    def body(c):
        mu, a, b, i = c
        pn = pnorm(mu)
        dpn = -snp.sum(gt ** 2 / (lam + mu) ** 3) / pn
        phi = 1.0 / pn - 1.0 / r
        step = -phi / (-dpn / pn ** 2)
        a = snp.where(phi < 0, mu, a)
        b = snp.where(phi > 0, mu, b)
        mu1 = mu + step
        bad = (mu1 <= a) | (mu1 >= b) | ~snp.isfinite(mu1)
        mu1 = snp.where(bad, 0.5 * (a + b), mu1)
        return mu1, a, b, i + 1

    def cond(c):
        mu, a, b, i = c
        return (i < 100) & (snp.abs(pnorm(mu) - r) > 1e-10 * r) & (b - a > eps * b)

    mu0 = snp.where(pnorm(lo) > r, lo, lo)
    mu, _, _, _ = lax.while_loop(cond, body, (mu0, lo, hi, 0))
    p_b = -Q @ (gt / (lam + mu))
    # Hard case: g orthogonal to the lowest eigenvector, |p(-lmin)| < r.
    hard = (lmin <= 0) & (pnorm(lo) < r)
    p_h = -Q @ snp.where(snp.abs(lam - lmin) > 1e-12 * snp.max(snp.abs(lam)),
                         gt / (lam - lmin), 0.0)
    tau = _boundary(p_h, Q[:, 0], r)[1]
    p_hard = p_h + tau * Q[:, 0]
    p = snp.where(interior, p_in, snp.where(hard, p_hard, p_b))
    return p, ~interior


def _partial_cholesky(A):
    """Upper Cholesky factor of ``A`` as LAPACK's ``potrf`` leaves it, and the
    1-based index ``k`` of the first non-positive pivot (0 on success)."""
    n = A.shape[0]
    cols = snp.arange(n)

    def body(j, c):
        U, k = c
        uj = U[:, j]
        s = A[j, j] - snp.dot(uj, uj)
        ok = (k == 0) & (s > 0)
        d = snp.sqrt(snp.where(ok, s, 1.0))
        row = snp.where(cols > j, (A[j] - uj @ U) / d, snp.where(cols == j, d, 0.0))
        U = snp.where(ok, U.at[j].set(row), U)
        return U, snp.where((k == 0) & ~ok, j + 1, k).astype(snp.int32)

    return lax.fori_loop(0, n, body, (snp.zeros_like(A), snp.int32(0)))


def _singular_leading(A, U, k):
    """SciPy's ``singular_leading_submatrix``: ``delta`` and ``v`` with
    ``(A + delta e_k e_k^T)`` singular on its leading ``k x k`` block and
    ``v`` in that block's null space, from the partial factor of
    :func:`_partial_cholesky` (``k >= 1``)."""
    n = A.shape[0]
    i = snp.arange(n)
    km = k - 1
    uk = U[:, km]
    delta = snp.dot(uk, uk) - A[km, km]
    lead = (i[:, None] < km) & (i[None, :] < km)
    Um = snp.where(lead, U, snp.eye(n, dtype=A.dtype))
    rhs = snp.where(i < km, -uk, 0.0)
    v = sciax.linalg.solve_triangular(Um, rhs, lower=False)
    v = snp.where(i == km, 1.0, snp.where(i < km, v, 0.0))
    return delta, v


def _smallest_singular(U):
    """SciPy's ``estimate_smallest_singular_value`` (the LINPACK condition
    estimator's choice of a right-hand side of +-1 entries): ``(s_min, z_min)``
    for the upper triangular ``U``."""
    n = U.shape[0]
    idx = snp.arange(n)

    def body(k, c):
        p, w = c
        ukk = U[k, k]
        wp, wm = (1.0 - p[k]) / ukk, (-1.0 - p[k]) / ukk
        col = snp.where(idx > k, U[k], 0.0)
        pp, pm = p + col * wp, p + col * wm
        tail = idx > k
        up = snp.abs(wp) + snp.sum(snp.where(tail, snp.abs(pp), 0.0))
        um = snp.abs(wm) + snp.sum(snp.where(tail, snp.abs(pm), 0.0))
        plus = up >= um
        return snp.where(plus, pp, pm), w.at[k].set(snp.where(plus, wp, wm))

    z = snp.zeros((n,), U.dtype)
    _, w = lax.fori_loop(0, n, body, (z, z))
    v = sciax.linalg.solve_triangular(U, w, lower=False)
    vn = snp.linalg.norm(v)
    return snp.linalg.norm(w) / vn, v / vn


def _more_sorensen(H, g, r, k_easy=0.1, k_hard=0.2, maxiter=25):
    """The trust-region subproblem by Moré-Sorensen's iteration on the damping
    ``lam`` with Cholesky factorizations of ``H + lam I`` (Conn, Gould & Toint
    7.3), step for step as SciPy's ``IterativeSubproblem``: the same initial
    bounds, Newton updates, safeguards, stopping tests ``k_easy`` (a boundary
    step within 10% of the radius) and ``k_hard``, at most ``maxiter`` passes."""
    n = g.shape[0]
    dtype = g.dtype
    eye = snp.eye(n, dtype=dtype)
    jac_mag = snp.linalg.norm(g)
    absH = snp.abs(H)
    dg = snp.diag(H)
    rows = snp.sum(absH, axis=1)
    gersh_lb = snp.min(dg + snp.abs(dg) - rows)
    gersh_ub = snp.max(dg - snp.abs(dg) + rows)
    h_inf = snp.max(rows)
    h_fro = snp.sqrt(snp.sum(H * H))
    close0 = n * snp.finfo(dtype).eps * h_inf
    ub0 = snp.maximum(0.0, jac_mag / r + snp.minimum(snp.minimum(-gersh_lb, h_fro),
                                                      h_inf))
    lb0 = snp.maximum(snp.maximum(0.0, -snp.min(dg)), jac_mag / r - snp.minimum(
        snp.minimum(gersh_ub, h_fro), h_inf))

    def mid(lb, ub):
        return snp.maximum(snp.sqrt(snp.abs(lb * ub)), lb + 0.01 * (ub - lb))

    lam0 = snp.where(lb0 == 0, 0.0, mid(lb0, ub0))

    def body(c):
        lc, lb, ub = c["lam"], c["lb"], c["ub"]
        Hl = H + lc * eye
        Lc = snp.linalg.cholesky(Hl)
        fact = snp.all(snp.isfinite(Lc))
        Us = snp.where(fact, Lc.T, eye)
        p = sciax.linalg.cho_solve((Us, False), -g)
        p_norm = snp.linalg.norm(p)
        w = sciax.linalg.solve_triangular(Us, p, trans="T", lower=False)
        w_norm = snp.linalg.norm(w)
        big = jac_mag > close0
        # the estimate is needed only inside the boundary (or for |g| ~ 0)
        need = fact & ((p_norm < r) | ~big)
        s_min, z_min = lax.cond(need, _smallest_singular,
                                lambda u: (snp.ones((), dtype), snp.zeros_like(g)), Us)
        # (a) factorization succeeded, |g| not tiny
        interior = (p_norm <= r) & (lc == 0)
        lam_new = lc + (p_norm / w_norm) ** 2 * (p_norm - r) / r
        inside = p_norm < r
        ta, tb = _boundary(p, z_min, r)
        step_len = snp.where(snp.abs(ta) <= snp.abs(tb), ta, tb)
        quad = snp.dot(p, Hl @ p)
        hard_ok = step_len ** 2 * s_min ** 2 / (quad + lc * r * r) <= k_hard
        easy_ok = snp.abs(p_norm - r) / r <= k_easy
        lb_in = snp.maximum(lb, lc - s_min ** 2)
        # (SciPy factorizes at lam_new only inside the boundary)
        new_ok = lax.cond(fact & big & inside & ~interior, lambda lam: snp.all(
            snp.isfinite(snp.linalg.cholesky(H + lam * eye))),
            lambda lam: snp.bool_(True), lam_new)
        a_lam = snp.where(inside, snp.where(new_ok, lam_new, mid(
            snp.maximum(lb_in, lam_new), lc)), lam_new)
        a_lb = snp.where(inside, snp.where(new_ok, lb_in, snp.maximum(lb_in, lam_new)),
                         lc)
        a_ub = snp.where(inside, lc, ub)
        a_done = interior | snp.where(inside, hard_ok, easy_ok)
        a_p = snp.where(~interior & inside & hard_ok, p + step_len * z_min, p)
        # (b) factorization succeeded, |g| ~ 0
        b_p = snp.where(lc == 0, 0.0 * p, r * z_min)
        b_done = (lc == 0) | (r * r * s_min ** 2 <= k_hard * lc * r * r)
        b_lb = snp.maximum(lb, lc - s_min ** 2)
        b_lam = mid(b_lb, lc)
        # (c) factorization failed: raise the lower bound past the singular
        # leading block
        def fail_bound(A):
            U, k = _partial_cholesky(A)
            delta, v = _singular_leading(A, U, snp.maximum(k, 1))
            return lc + delta / snp.dot(v, v)

        c_lb = snp.maximum(lb, lax.cond(fact, lambda A: lc, fail_bound, Hl))
        c_lam = mid(c_lb, ub)
        sel = lambda a, b, cc: snp.where(fact, snp.where(big, a, b), cc)  # noqa: E731
        done = snp.where(fact, snp.where(big, a_done, b_done), False)
        out = dict(lam=sel(a_lam, b_lam, c_lam), lb=sel(a_lb, b_lb, c_lb),
                   ub=sel(a_ub, lc, ub), p=snp.where(fact, snp.where(big, a_p, b_p),
                                                      c["p"]),
                   hit=~(fact & (lc == 0) & snp.where(big, interior, True)),
                   done=done, i=c["i"] + 1)
        for k in ("lam", "lb", "ub"):  # a finished pass keeps its damping
            out[k] = snp.where(done, c[k], out[k])
        return out

    c0 = dict(lam=lam0, lb=lb0, ub=ub0, p=snp.zeros_like(g), hit=snp.bool_(True),
              done=snp.bool_(False), i=snp.int32(0))
    c = lax.while_loop(lambda c: ~c["done"] & (c["i"] < maxiter), body, c0)
    return c["p"], c["hit"]


def _dogleg(H, g, r):
    L = snp.linalg.cholesky(H)
    pd = snp.all(snp.isfinite(L))
    pb = -sciax.linalg.cho_solve((snp.where(pd, L, snp.eye(g.shape[0])), True), g)
    inside = pd & (snp.linalg.norm(pb) < r)
    pu = -(snp.dot(g, g) / snp.dot(g, H @ g)) * g
    pu_out = snp.linalg.norm(pu) >= r
    p_cauchy = r * pu / snp.linalg.norm(pu)
    tb = _boundary(pu, pb - pu, r)[1]
    p = snp.where(inside, pb, snp.where(pu_out, p_cauchy, pu + tb * (pb - pu)))
    return p, ~inside, pd


@dataclasses.dataclass(frozen=True)
class _TrustRegion(AbstractMinimizer):
    initial_trust_radius: float = 1.0
    max_trust_radius: float = 1000.0
    eta: float = 0.15
    gtol: float = 1e-4
    maxiter: int | None = None
    uses_hess = True
    dense = True

    def init(self, obj, x0, lb, ub):
        f, g = obj.value_and_grad(x0)
        H = obj.dense_hess(x0) if self.dense else snp.zeros((1, 1), x0.dtype)
        one = snp.int32(1)
        return TrustState(x=x0, f=f, g=g, H=H, radius=snp.asarray(
            self.initial_trust_radius, x0.dtype), nfev=one, njev=one,
            nhev=snp.int32(1 if self.dense else 0))

    def terminate(self, obj, st, lb, ub):
        return snp.where(snp.linalg.norm(st.g) < self.gtol, reason_index(
            Status.SUCCESS), RUNNING).astype(snp.int32)

    def _solve(self, obj, st):
        raise NotImplementedError(f"{type(self).__name__}._solve")

    def step(self, obj, st, lb, ub):
        p, hit, nh, bad = self._solve(obj, st)
        Hp = st.H @ p if self.dense else obj.hvp(st.x, p)
        pred = -(snp.dot(st.g, p) + 0.5 * snp.dot(p, Hp))
        x1 = st.x + p
        f1, g1 = obj.value_and_grad(x1)
        rho = (st.f - f1) / pred
        rho = snp.where(snp.isfinite(rho), rho, -1.0)
        r = st.radius
        r = snp.where(rho < 0.25, 0.25 * r, snp.where(
            (rho > 0.75) & hit, snp.minimum(2 * r, self.max_trust_radius), r))
        acc = (rho > self.eta) & (pred > 0)
        H1 = obj.dense_hess(x1) if self.dense else st.H
        new = TrustState(
            x=snp.where(acc, x1, st.x), f=snp.where(acc, f1, st.f),
            g=snp.where(acc, g1, st.g), H=snp.where(acc, H1, st.H), radius=r,
            nfev=st.nfev + 1, njev=st.njev + 1,
            nhev=st.nhev + nh + (1 if self.dense else 0))
        reason = snp.where((pred <= 0) | bad, reason_index(Status.TRUST_NOT_PD),
                           RUNNING)
        return new, reason


@dataclasses.dataclass(frozen=True)
class TrustNCGMinimizer(_TrustRegion):
    """Newton conjugate-gradient trust region (Steihaug) with exact
    hessian-vector products.  Options (SciPy's): ``initial_trust_radius=1``,
    ``max_trust_radius=1000``, ``eta=0.15``, ``gtol=1e-4``, ``maxiter=200*n``.
    """

    name = "trust-ncg"
    dense = False

    def _solve(self, obj, st):
        p, hit, nh = _steihaug(lambda v: obj.hvp(st.x, v), st.g, st.radius)
        return p, hit, nh + 1, snp.bool_(False)


@dataclasses.dataclass(frozen=True)
class TrustExactMinimizer(_TrustRegion):
    """Nearly exact trust region with the exact dense hessian: the subproblem
    by Moré-Sorensen's Cholesky iteration, to SciPy's tolerances (a boundary
    step within 10% of the radius).  Options (SciPy's): ``initial_trust_radius=1``,
    ``max_trust_radius=1000``, ``eta=0.15``, ``gtol=1e-4`` (SciPy's default for
    all its trust-region methods), ``maxiter=200*n``.
    """

    name = "trust-exact"

    def _solve(self, obj, st):
        p, hit = _more_sorensen(st.H, st.g, st.radius)
        return p, hit, 0, snp.bool_(False)


@dataclasses.dataclass(frozen=True)
class DoglegMinimizer(_TrustRegion):
    """Dogleg trust region; needs a positive definite hessian: stops with
    SciPy's status 3 ("A linalg error occurred") before the step, as SciPy's
    does where its Cholesky factorization fails.  Options as trust-ncg."""

    name = "dogleg"

    def terminate(self, obj, st, lb, ub):
        pd = snp.all(snp.isfinite(snp.linalg.cholesky(st.H)))
        return snp.where(pd, super().terminate(obj, st, lb, ub), reason_index(
            Status.TRUST_LINALG)).astype(snp.int32)

    def _solve(self, obj, st):
        p, hit, pd = _dogleg(st.H, st.g, st.radius)
        return p, hit, 0, ~pd


def _lanczos_tr(hvp, g, r, k):
    """The trust-region subproblem on the Krylov space ``K_k(H, g)``: ``k``
    Lanczos steps (full reorthogonalisation) give ``H ~ Q' T Q``, and the small
    tridiagonal problem is solved exactly (as trust-exact).  With ``k = n``
    this is trust-exact's step; SciPy's GLTR (trlib) grows the space until
    the subproblem is solved to its tolerance instead."""
    n = g.shape[0]
    gn = snp.linalg.norm(g)
    Q = snp.zeros((k, n), g.dtype).at[0].set(g / snp.where(gn > 0, gn, 1.0))

    def step(j, c):
        Q, alpha, beta, live = c
        w = hvp(Q[j])
        a = snp.dot(Q[j], w)
        w = w - Q.T @ (Q @ w)  # full reorthogonalisation (twice is enough)
        w = w - Q.T @ (Q @ w)
        b = snp.linalg.norm(w)
        live_next = live & (b > 1e-12 * (snp.abs(a) + 1.0))
        nxt = snp.where(live_next, w / snp.where(b > 0, b, 1.0), 0.0)
        Q = snp.where(j + 1 < k, Q.at[snp.minimum(j + 1, k - 1)].set(nxt), Q)
        return (Q, alpha.at[j].set(snp.where(live, a, 0.0)),
                beta.at[j].set(snp.where(live_next, b, 0.0)), live_next)

    z = snp.zeros((k,), g.dtype)
    Q, alpha, beta, _ = lax.fori_loop(0, k, step, (Q, z, z, snp.asarray(True)))
    # rows past a breakdown are not in the space: a large diagonal keeps the
    # small problem from using them (their gradient entries are zero)
    used = snp.linalg.norm(Q, axis=1) > 0
    big = 1.0 + snp.max(snp.abs(alpha)) + snp.max(snp.abs(beta))
    T = (snp.diag(snp.where(used, alpha, big)) + snp.diag(beta[:-1], 1)
         + snp.diag(beta[:-1], -1))
    y, hit = _exact(T, z.at[0].set(gn), r)
    return Q.T @ y, hit


@dataclasses.dataclass(frozen=True)
class TrustKrylovMinimizer(_TrustRegion):
    """Trust region with the subproblem solved on a Krylov space of exact
    hessian-vector products (Lanczos, then the exact tridiagonal solve; after
    Gould, Lucidi, Roma and Toint's GLTR, SciPy's trust-krylov).

    Options (SciPy's): ``initial_trust_radius=1``, ``max_trust_radius=1000``,
    ``eta=0.15``, ``gtol=1e-4`` (SciPy's), ``maxiter=200*n``, ``inexact`` (``True``:
    Krylov spaces of at most 30 vectors; ``False``: of ``n``, the exact
    subproblem).

    Examples
    --------
    >>> from sciax.optimize import minimize, rosen
    >>> res = minimize(rosen, snp.array([-1.2, 1.0, 0.8]), method="trust-krylov")
    >>> print(np.round(np.asarray(res.x), 6), res.success)
    [1. 1. 1.] True
    """

    gtol: float = 1e-4
    inexact: bool = True
    name = "trust-krylov"
    dense = False

    def _solve(self, obj, st):
        n = st.x.shape[0]
        k = min(n, 30) if self.inexact else n
        p, hit = _lanczos_tr(lambda v: obj.hvp(st.x, v), st.g, st.radius, k)
        return p, hit, k + 1, snp.bool_(False)
