"""L-BFGS-B: limited-memory BFGS with box constraints.

After Byrd, Lu, Nocedal & Zhu, "A limited memory algorithm for bound
constrained optimization", SIAM J. Sci. Comput. 16 (1995) 1190-1208, with the
subspace step of Morales & Nocedal, ACM TOMS 38 (2011) 7 (project, and fall
back to the truncated step when the projection is not a descent direction):

1. the generalized Cauchy point along the projected steepest-descent path,
   visiting the breakpoints in order with the compact representation
   ``B = theta I - W M W^T`` (section 4, algorithm CP);
2. direct primal subspace minimisation over the variables left free (5.1);
3. a strong-Wolfe line search whose largest step keeps ``x`` in the box; the
   trial points are clipped to the box as well, so ``fun`` is never evaluated
   outside it.

The memory is a fixed ``(maxcor, n)`` buffer with a validity mask, so the
state keeps its shape in ``lax.while_loop``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import RUNNING, AbstractMinimizer, Status, reason_index
from sciax.optimize._linesearch import more_thuente


class LbfgsInvHessProduct:
    """The L-BFGS inverse-hessian approximation as an operator, as SciPy's
    ``LbfgsInvHessProduct``: ``matvec``, ``dot``, ``@`` and ``todense``.

    Examples
    --------
    >>> from sciax.optimize import minimize
    >>> res = minimize(lambda x: snp.sum(x ** 2), snp.ones(2), method="L-BFGS-B")
    >>> print(res.hess_inv.todense().shape)
    (2, 2)
    """

    def __init__(self, sk, yk, valid):
        self.sk, self.yk, self.valid = sk, yk, valid
        # (transformations rebuild the object around placeholders: no shape)
        n = sk.shape[-1] if hasattr(sk, "shape") else None
        self.shape = (n, n)

    def matvec(self, v):
        """``H v`` by the two-loop recursion (``H0 = I``)."""
        return _two_loop(self.sk, self.yk, self.valid, 1.0, snp.asarray(v))

    dot = matvec

    def __repr__(self) -> str:
        return f"<{self.shape[0]}x{self.shape[1]} LbfgsInvHessProduct with " \
               f"dtype={self.sk.dtype}>"

    def __matmul__(self, v):
        v = snp.asarray(v)
        return self.matvec(v) if v.ndim == 1 else sciax.vmap(self.matvec, 1, 1)(v)

    def todense(self):
        """The dense ``n x n`` matrix."""
        return sciax.vmap(self.matvec)(snp.eye(self.shape[0], dtype=self.sk.dtype)).T


sciax.tree.register_node(LbfgsInvHessProduct,
                         lambda h: ((h.sk, h.yk, h.valid), None),
                         lambda _, c: LbfgsInvHessProduct(*c))


@sciax.tree.register_dataclass
@dataclasses.dataclass
class LBFGSBState:
    x: Any
    f: Any
    g: Any
    S: Any
    Y: Any
    valid: Any
    theta: Any
    f_prev: Any
    nfev: Any
    njev: Any
    nhev: Any


def _two_loop(S, Y, valid, theta, v):
    """``H v`` for the L-BFGS inverse hessian with ``H0 = I / theta`` and the
    pairs ``(S[i], Y[i])`` (oldest first, invalid ones skipped): Nocedal's
    two-loop recursion, each loop a ``fori_loop`` over the memory so that the
    program does not grow with ``maxcor``."""
    sy = snp.sum(S * Y, axis=-1)
    rho = snp.where(valid, 1.0 / snp.where(valid, sy, 1.0), 0.0)
    m = S.shape[0]

    def newest_first(j, c):
        q, alpha = c
        i = m - 1 - j
        a = rho[i] * snp.dot(S[i], q)
        return q - a * Y[i], alpha.at[i].set(a)

    def oldest_first(i, r):
        return r + S[i] * (alpha[i] - rho[i] * snp.dot(Y[i], r))

    q, alpha = lax.fori_loop(0, m, newest_first, (v, snp.zeros(m, v.dtype)))
    return lax.fori_loop(0, m, oldest_first, q / theta)


def _middle(S, Y, valid, theta):
    """``W`` (n, 2m) and ``M`` (2m, 2m) of the compact form, invalid pairs masked
    to identity blocks so the inverse exists from the first iteration."""
    m = S.shape[0]
    SY = S @ Y.T  # (i, j) = s_i . y_j
    D = snp.diag(snp.diag(SY))
    L = snp.tril(SY, -1)
    K = snp.block([[-D, L.T], [L, theta * (S @ S.T)]])
    v2 = snp.concatenate([valid, valid]).astype(S.dtype)
    K = K * snp.outer(v2, v2) + snp.diag(1.0 - v2)
    M = snp.linalg.inv(K) * snp.outer(v2, v2)
    W = snp.concatenate([Y.T, theta * S.T], axis=1) * v2
    del m
    return W, M


def _cauchy(x, g, lb, ub, W, M, theta):
    """Generalized Cauchy point (BLNZ algorithm CP). Returns ``(xcp, c)``."""
    dtype = x.dtype
    inf = snp.asarray(snp.inf, dtype)
    t = snp.where(g < 0, (x - ub) / snp.where(g < 0, g, 1.0),
                  snp.where(g > 0, (x - lb) / snp.where(g > 0, g, 1.0), inf))
    t = snp.where(snp.isnan(t), inf, t)
    d = snp.where(t <= 0, 0.0, -g)
    p = W.T @ d
    fp = -snp.dot(d, d)
    fpp = -theta * fp - p @ (M @ p)
    fpp0 = fpp
    dtmin = -fp / snp.where(fpp == 0, 1.0, fpp)
    carry = dict(j=0, c=snp.zeros_like(p), p=p, fp=fp, fpp=fpp, dtmin=dtmin,
                 told=snp.zeros((), dtype), d=d, xcp=x, done=fp >= 0)
    order = snp.argsort(snp.where(t > 0, t, inf))
    ts = snp.where(t > 0, t, inf)[order]
    n = x.shape[0]

    def cond(cy):
        j = snp.minimum(cy["j"], n - 1)
        return (~cy["done"]) & (cy["j"] < n) & snp.isfinite(ts[j])

    def body(cy):
        j = cy["j"]
        b = order[j]
        tb = ts[j]
        dt = tb - cy["told"]
        stop = cy["dtmin"] < dt
        gb = g[b]
        zb = snp.where(cy["d"][b] > 0, ub[b], lb[b]) - x[b]
        wb = W[b]
        c = cy["c"] + dt * cy["p"]
        Mc, Mp, Mw = M @ c, M @ cy["p"], M @ wb
        fp = cy["fp"] + dt * cy["fpp"] + gb * gb + theta * gb * zb - gb * (wb @ Mc)
        fpp = cy["fpp"] - theta * gb * gb - 2.0 * gb * (wb @ Mp) - gb * gb * (wb @ Mw)
        # Guard against a vanishing f'' (BLNZ use eps * f''_0).
        fpp = snp.maximum(fpp, snp.finfo(dtype).eps * fpp0)
        new = dict(j=j + 1, c=c, p=cy["p"] + gb * wb, fp=fp, fpp=fpp,
                   dtmin=-fp / fpp, told=tb, d=cy["d"].at[b].set(0.0),
                   xcp=cy["xcp"].at[b].set(x[b] + zb), done=fp >= 0)
        out = {k: snp.where(stop, cy[k], new[k]) for k in cy}
        out["done"] = stop | new["done"]
        return out

    cy = lax.while_loop(cond, body, carry)
    dtmin = snp.maximum(cy["dtmin"], 0.0)
    dtmin = snp.where(cy["fp"] >= 0, 0.0, dtmin)
    told = cy["told"] + dtmin
    xcp = snp.where(cy["d"] != 0, x + told * cy["d"], cy["xcp"])
    c = cy["c"] + dtmin * cy["p"]
    return snp.clip(xcp, lb, ub), c


def _subspace(x, g, lb, ub, xcp, c, W, M, theta):
    """Direct primal subspace minimisation (BLNZ 5.1) and Morales-Nocedal's
    projection; returns the point the line search aims at."""
    free = ((xcp > lb) & (xcp < ub)).astype(x.dtype)
    r = (g + theta * (xcp - x) - W @ (M @ c)) * free
    Wz = W * free[:, None]
    v = M @ (Wz.T @ r)
    N = snp.eye(M.shape[0], dtype=x.dtype) - (M @ (Wz.T @ Wz)) / theta
    v = snp.linalg.solve(N, v)
    du = (-r / theta - (Wz @ v) / theta ** 2) * free
    du = snp.where(snp.isfinite(du), du, 0.0)
    xbar = snp.clip(xcp + du, lb, ub)
    # If the projected point does not descend, take the longest feasible
    # fraction of the unprojected step instead (Morales & Nocedal 2011).
    pos = snp.where(du > 0, (ub - xcp) / snp.where(du > 0, du, 1.0), snp.inf)
    neg = snp.where(du < 0, (lb - xcp) / snp.where(du < 0, du, 1.0), snp.inf)
    astar = snp.minimum(1.0, snp.min(snp.minimum(pos, neg)))
    xtrunc = snp.clip(xcp + astar * du, lb, ub)
    return snp.where(snp.dot(xbar - x, g) < 0, xbar, xtrunc)


def _proj_grad_norm(x, g, lb, ub):
    return snp.max(snp.abs(snp.clip(x - g, lb, ub) - x))


@dataclasses.dataclass(frozen=True)
class LBFGSBMinimizer(AbstractMinimizer):
    """L-BFGS-B (Byrd, Lu, Nocedal & Zhu) for box-constrained problems.

    Options (SciPy's): ``maxcor=10``, ``ftol=2.220446049250313e-09``,
    ``gtol=1e-5`` (projected gradient, sup-norm), ``maxfun=15000``,
    ``maxiter=15000``, ``maxls=20``, ``disp``, ``iprint``, ``eps``
    (ignored).
    """

    maxcor: int = 10
    ftol: float = 2.220446049250313e-09
    gtol: float = 1e-5
    maxfun: int = 15000
    maxiter: int = 15000
    maxls: int = 20
    name = "l-bfgs-b"
    takes_bounds = True
    maxiter_status = Status.LBFGSB_MAXITER
    tol_fields = ("ftol", "gtol")
    def for_unbounded(self):
        return _LBFGSBNoBounds(**{f.name: getattr(self, f.name)
                                  for f in dataclasses.fields(self)})

    def init(self, obj, x0, lb, ub):
        f, g = obj.value_and_grad(x0)
        m, n = self.maxcor, x0.shape[0]
        z = snp.zeros((m, n), x0.dtype)
        one = snp.int32(1)
        return LBFGSBState(x=x0, f=f, g=g, S=z, Y=z, valid=snp.zeros(m, bool),
                           theta=snp.ones((), x0.dtype),
                           f_prev=snp.full_like(f, snp.inf), nfev=one, njev=one,
                           nhev=snp.int32(0))

    def terminate(self, obj, st, lb, ub):
        pg = _proj_grad_norm(st.x, st.g, lb, ub)
        rel = (st.f_prev - st.f) / snp.maximum(
            snp.maximum(snp.abs(st.f_prev), snp.abs(st.f)), 1.0)
        return snp.where(pg <= self.gtol, reason_index(Status.LBFGSB_PGTOL), snp.where(
            rel <= self.ftol, reason_index(Status.LBFGSB_FTOL), RUNNING)).astype(
                snp.int32)

    def extra_stop(self, st):
        return snp.where(st.nfev >= self.maxfun, reason_index(Status.LBFGSB_MAXFEV),
                         RUNNING).astype(snp.int32)

    def direction(self, st, lb, ub):
        """The search direction: to the subspace minimiser from the Cauchy point."""
        W, M = _middle(st.S, st.Y, st.valid, st.theta)
        xcp, c = _cauchy(st.x, st.g, lb, ub, W, M, st.theta)
        return _subspace(st.x, st.g, lb, ub, xcp, c, W, M, st.theta) - st.x

    def step(self, obj, st, lb, ub):
        d = self.direction(st, lb, ub)
        # Largest step keeping x + a d in the box (a >= 1 since xbar is inside).
        pos = snp.where(d > 0, (ub - st.x) / snp.where(d > 0, d, 1.0), snp.inf)
        neg = snp.where(d < 0, (lb - st.x) / snp.where(d < 0, d, 1.0), snp.inf)
        stpmx = snp.minimum(snp.min(snp.minimum(pos, neg)), 1e10)
        first = ~snp.any(st.valid)
        bounded = snp.any(snp.isfinite(lb) | snp.isfinite(ub))
        boxed = snp.all(snp.isfinite(lb) & snp.isfinite(ub))
        stpmx = snp.where(first & bounded, 1.0, stpmx)
        dnorm = snp.linalg.norm(d)
        a1 = snp.where(first & ~boxed, snp.minimum(1.0 / dnorm, stpmx), 1.0)

        def vg(z):
            # Rounding in x + a d must not leave the box either.
            return obj.value_and_grad(snp.clip(z, lb, ub))

        # dcsrch with L-BFGS-B's parameters; warnings still give a step.
        ls = more_thuente(vg, st.x, d, st.f, st.g, a1, ftol=1e-3, gtol=0.9, xtol=0.1,
                          stpmin=0.0, stpmax=stpmx, maxiter=self.maxls,
                          accept_warnings=True)
        ok = ls["ok"] & (dnorm > 0)
        x1 = snp.clip(st.x + ls["alpha"] * d, lb, ub)
        s, y = x1 - st.x, ls["g"] - st.g
        sy = snp.dot(s, y)
        keep = ok & (sy > snp.finfo(st.x.dtype).eps * (-snp.dot(st.g, d)) * ls["alpha"])
        S = snp.where(keep, snp.concatenate([st.S[1:], s[None]]), st.S)
        Y = snp.where(keep, snp.concatenate([st.Y[1:], y[None]]), st.Y)
        valid = snp.where(keep, snp.concatenate([st.valid[1:], snp.ones(1, bool)]),
                          st.valid)
        theta = snp.where(keep, snp.dot(y, y) / snp.where(keep, sy, 1.0), st.theta)
        # A failed search with memory: drop the memory and retry (as SciPy);
        # without memory it is an abnormal termination.
        reset = ~ok & ~first
        new = LBFGSBState(
            x=snp.where(ok, x1, st.x), f=snp.where(ok, ls["f"], st.f),
            g=snp.where(ok, ls["g"], st.g), S=S, Y=Y,
            valid=snp.where(reset, snp.zeros_like(valid), valid),
            theta=snp.where(reset, 1.0, theta),
            f_prev=snp.where(ok, st.f, st.f_prev), nfev=st.nfev + ls["nfev"],
            njev=st.njev + ls["nfev"], nhev=st.nhev)
        reason = snp.where(~ok & first, reason_index(Status.LBFGSB_ABNORMAL), RUNNING)
        return new, reason

    def postprocess(self, obj, st):
        return {"hess_inv": LbfgsInvHessProduct(st.S, st.Y, st.valid)}



@dataclasses.dataclass(frozen=True)
class _LBFGSBNoBounds(LBFGSBMinimizer):
    """L-BFGS-B when ``minimize`` got no bounds.

    With every variable free the Cauchy point has no breakpoint and the
    subspace minimisation frees all variables, so the point the line search
    aims at is ``x - H g`` with ``H = B^{-1}`` the L-BFGS inverse of the compact
    matrix ``B = theta I - W M W^T`` (the subspace step cancels the Cauchy
    step: ``xcp + du = x - B^{-1} g`` exactly).  The two-loop recursion gives
    that product with the same pairs and ``H0 = I / theta`` in ``O(m n)``
    operations and no factorisation of the ``2m x 2m`` middle matrix, so the
    iterates equal the compact form's up to rounding.
    """

    def direction(self, st, lb, ub):
        return -_two_loop(st.S, st.Y, st.valid, st.theta, st.g)
