"""The large-scale root methods of SciPy's ``nonlin`` module and ``df-sane``.

``broyden1``, ``broyden2``, ``anderson``, ``linearmixing``, ``diagbroyden``,
``excitingmixing`` and ``krylov`` share one inexact-Newton iteration (Kelley,
*Iterative Methods for Linear and Nonlinear Equations*, SIAM 1995): a step
``dx = -J^{-1} F`` from the method's Jacobian model, an Armijo backtracking
line search on ``||F||^2``, then the model's update; they differ only in
``_solve`` and ``_update`` over their own state.  Quasi-Newton inverses are
kept dense (these are the small and medium systems a compiled program
serves); ``krylov`` solves with restarted GMRES on exact Jacobian-vector
products and Eisenstat-Walker forcing terms, as SciPy's ``nonlin_solve``.

``df-sane`` is the derivative-free spectral residual method of La Cruz,
Martinez and Raydan (*Math. Comp.* 75, 2006) with their non-monotone line
search.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

import sciax.numpy as snp
from sciax import lax

from sciax.optimize._jacobians import gmres as _gmres
from sciax.optimize._jacobians import preconditioner_core
from sciax.optimize._root import RUNNING, AbstractRootSolver, safe_norm

_NONFINITE = 3


def _maxnorm(v):
    return snp.max(snp.abs(v))


def _armijo(phi, phi0, derphi0, amin, c1=1e-4, maxit=40):
    """SciPy's ``scalar_search_armijo`` (quadratic, then cubic interpolation,
    Nocedal and Wright 1999, pp. 56-57) on ``phi(s) -> (value, payload)``.

    Returns ``(s, payload, found)``; the payload is that of the accepted step.
    """
    p1, F1 = phi(1.0)
    ok1 = p1 <= phi0 + c1 * derphi0
    a1 = -derphi0 / 2.0 / (p1 - phi0 - derphi0)
    dt = phi0.dtype
    c0 = dict(k=snp.int32(1), a0=snp.asarray(1.0, dt), pa0=p1, a1=a1.astype(dt),
              pa1=p1, s=snp.asarray(1.0, dt), F=F1,
              state=snp.where(ok1, 1, 0).astype(snp.int32))

    def body(c):
        a0, a1, pa0, pa1 = c["a0"], c["a1"], c["pa0"], c["pa1"]
        cubic = c["k"] >= 2
        fac = a0 ** 2 * a1 ** 2 * (a1 - a0)
        fac = snp.where(fac == 0, 1.0, fac)
        r1, r0 = pa1 - phi0 - derphi0 * a1, pa0 - phi0 - derphi0 * a0
        a = (a0 ** 2 * r1 - a1 ** 2 * r0) / fac
        b = (-a0 ** 3 * r1 + a1 ** 3 * r0) / fac
        a2 = (-b + snp.sqrt(snp.abs(b ** 2 - 3 * a * derphi0))) / (3.0 * snp.where(
            a == 0, 1.0, a))
        give_up = cubic & ~(a1 > amin)
        trial = snp.where(cubic, a2, a1)
        pt, Ft = phi(trial)
        ok = pt <= phi0 + c1 * trial * derphi0
        # SciPy halves a cubic step that moved too much (after evaluating it)
        a2h = snp.where((a1 - trial > a1 / 2.0) | (1 - trial / a1 < 0.96), a1 / 2.0,
                        trial)
        nxt = dict(k=c["k"] + 1, a0=snp.where(cubic, a1, a0),
                   pa0=snp.where(cubic, pa1, pa0), a1=snp.where(cubic, a2h, a1),
                   pa1=pt, s=trial, F=Ft,
                   state=snp.where(ok, 1, snp.where(c["k"] + 1 >= maxit, 2, 0)
                                   ).astype(snp.int32))
        failed = dict(c, state=snp.asarray(2, c["state"].dtype))
        out = {k: snp.where(give_up, failed[k], nxt[k]) for k in c}
        return out

    c = lax.while_loop(lambda c: c["state"] == 0, body, c0)
    return c["s"], c["F"], c["state"] == 1


def _default_alpha(x0, F0):
    nf = snp.linalg.norm(F0)
    return snp.where(nf > 0, 0.5 * snp.maximum(snp.linalg.norm(x0), 1.0)
                     / snp.where(nf > 0, nf, 1.0), 1.0)


@dataclasses.dataclass(frozen=True)
class NonlinSolver(AbstractRootSolver):
    """The iteration shared by SciPy's ``nonlin`` methods (``nonlin_solve``).

    Parameters (SciPy's options)
    ----------------------------
    nit : int, optional
        Number of iterations to make (stops with status 2 after it).
    maxiter : int, optional
        Maximum iterations (default ``100 * (n + 1)``).
    ftol, fatol, xtol, xatol : float, optional
        Relative and absolute tolerances on ``||F||`` and on the step ``dx``
        (``fatol`` defaults to ``6e-6``, the others to ``inf``).
    tol_norm : callable, optional
        Norm of the convergence tests (default: the maximum norm).
    line_search : {'armijo', None}
        Backtracking on ``||F||^2`` or the full step.
    jac_options : dict, optional
        The Jacobian model's options (``alpha`` and the method's own).
    disp : bool
        Accepted; progress is not printed.
    """

    nit: Any = None
    maxiter: Any = None
    ftol: Any = None
    fatol: Any = None
    xtol: Any = None
    xatol: Any = None
    tol_norm: Any = None
    line_search: Any = "armijo"
    jac_options: Any = None
    disp: bool = False

    #: the Jacobian-model options the method takes (with their defaults)
    model_options: ClassVar[tuple] = ()

    def __post_init__(self):
        if self.line_search not in ("armijo", None):
            if self.line_search == "wolfe":
                raise ValueError("root: line_search='wolfe' is not implemented in "
                                 "sciax; use 'armijo' (the default) or None")
            raise ValueError("Invalid line search")
        jo = self.jac_options
        if isinstance(jo, dict):
            object.__setattr__(self, "jac_options", tuple(sorted(jo.items())))
            jo = self.jac_options
        known = dict(self.model_options)
        for k, _ in (jo or ()):
            if k not in known:
                raise ValueError(f"root(method={self.name!r}): unknown jac_options "
                                 f"{k!r}; it takes {sorted(known)}")

    def opt(self, name):
        d = dict(self.model_options)
        d.update(dict(self.jac_options or ()))
        return d[name]

    def messages(self, n):
        return {1: "A solution was found at the specified tolerance.",
                2: "The maximum number of iterations allowed has been reached.",
                _NONFINITE: "The iteration stopped: NaN or inf in the function or "
                            "in the Jacobian model, or a zero step."}

    def _maxiter(self, n):
        if self.nit is not None:
            return int(self.nit) + 1
        return 100 * (n + 1) if self.maxiter is None else int(self.maxiter)

    # --- the Jacobian model: subclasses override -----------------------------------
    def _setup(self, prob, x, F) -> dict:
        return {}

    def _solve(self, prob, js, x, F, tol):
        raise NotImplementedError

    def _update(self, js, x, F, x_new, F_new):
        return js

    # --- the iteration --------------------------------------------------------------
    def _check(self, F, x, dx, f0n, k):
        norm = self.tol_norm if callable(self.tol_norm) else _maxnorm
        f_tol = (float(np.finfo(float).eps) ** (1.0 / 3) if self.fatol is None
                 else float(self.fatol))
        f_rtol = np.inf if self.ftol is None else float(self.ftol)
        x_tol = np.inf if self.xatol is None else float(self.xatol)
        x_rtol = np.inf if self.xtol is None else float(self.xtol)
        fn, xn, dn = norm(F), norm(x), norm(dx)
        if self.nit is not None:
            return snp.where(fn == 0, 1, RUNNING)
        ok = (fn <= f_tol) & (fn / f_rtol <= f0n) & (dn <= x_tol) & (dn / x_rtol <= xn)
        return snp.where((fn == 0) | ok, 1, RUNNING)

    def init(self, prob, x0):
        F = prob.F(x0)
        norm = self.tol_norm if callable(self.tol_norm) else _maxnorm
        dx = snp.full_like(x0, snp.inf)
        f0n = norm(F)
        fin = snp.all(snp.isfinite(F))
        status = snp.where(fin, self._check(F, x0, dx, f0n, 0), _NONFINITE)
        status = snp.where((status == RUNNING) & (self._maxiter(x0.shape[0]) <= 0), 2,
                           status)
        return dict(x=x0, F=F, Fn=snp.linalg.norm(F), f0n=f0n, dx=dx,
                    eta=snp.asarray(1e-3, x0.dtype), k=snp.int32(0), nit=snp.int32(1),
                    js=self._setup(prob, x0, F), status=status.astype(snp.int32))

    def step(self, prob, c):
        x, F, Fn = c["x"], c["F"], c["Fn"]
        tol = snp.minimum(c["eta"], c["eta"] * Fn)
        dx, js = self._solve(prob, c["js"], x, F, tol)
        bad = ~snp.all(snp.isfinite(dx)) | snp.all(dx == 0)
        dx = snp.where(bad, 0.0, dx)
        if self.line_search == "armijo":
            def phi(s):
                Fs = prob.F(x + s * dx)
                return safe_norm(Fs) ** 2, Fs

            s, F_new, found = _armijo(phi, Fn ** 2, -Fn ** 2, 1e-2)
            s = snp.where(found, s, 1.0)
            F_new = lax.cond(found, lambda _: F_new, lambda _: prob.F(x + dx), None)
        else:
            s = snp.asarray(1.0, x.dtype)
            F_new = prob.F(x + dx)
        x_new = x + s * dx
        js = self._update(js, x, F, x_new, F_new)
        Fn_new = snp.linalg.norm(F_new)
        # Eisenstat-Walker forcing terms (gamma 0.9, eta_max 0.9999, threshold 0.1)
        eta_a = 0.9 * Fn_new ** 2 / Fn ** 2
        eta = snp.where(0.9 * c["eta"] ** 2 < 0.1, snp.minimum(0.9999, eta_a),
                        snp.minimum(0.9999, snp.maximum(eta_a, 0.9 * c["eta"] ** 2)))
        k = c["k"] + 1
        last = k >= self._maxiter(x.shape[0])
        status = snp.where(last, 2, self._check(F_new, x_new, dx, c["f0n"], k))
        status = snp.where(bad | ~snp.all(snp.isfinite(F_new)), _NONFINITE, status)
        new = dict(x=x_new, F=F_new, Fn=Fn_new, f0n=c["f0n"], dx=dx,
                   eta=eta.astype(x.dtype), k=k,
                   nit=c["nit"] + snp.where(last, 0, 1), js=js,
                   status=status.astype(snp.int32))
        # a failed step leaves the last good iterate in place
        return {key: (snp.where(bad, c[key], v) if key in ("x", "F", "Fn") else v)
                for key, v in new.items()}

    def fields(self, prob, st):
        return dict(nit=st["nit"])


def _broyden_dense(self, prob, x, F):
    alpha = self.opt("alpha")
    alpha = _default_alpha(x, F) if alpha is None else snp.asarray(alpha, x.dtype)
    n = x.shape[0]
    return dict(G=-alpha * snp.eye(n, dtype=x.dtype), alpha=alpha.astype(x.dtype),
                rank=snp.int32(0))


@dataclasses.dataclass(frozen=True)
class BroydenSolver(NonlinSolver):
    """Broyden's good method (``'broyden1'``; ``second=True``: the bad method,
    ``'broyden2'``) on a dense inverse Jacobian ``-alpha I + low rank``.

    ``jac_options``: ``alpha`` (default ``0.5 max(||x0||, 1) / ||F0||``),
    ``reduction_method`` (``'restart'`` only) and ``max_rank`` (restart when
    the update rank would exceed it).  See :class:`NonlinSolver` for the
    other options.

    Examples
    --------
    >>> from sciax.optimize import root
    >>> f = lambda x: snp.stack([x[0] - 0.5 * snp.cos(x[1]),
    ...                          x[1] - 0.5 * snp.sin(x[0])])
    >>> sol = root(f, snp.zeros(2), method="broyden1", tol=1e-12)
    >>> print(np.round(np.asarray(sol.x), 6), sol.success)
    [0.486405 0.233726] True
    """

    second: bool = False
    model_options: ClassVar[tuple] = (("alpha", None), ("reduction_method", "restart"),
                            ("max_rank", None))

    def __post_init__(self):
        super().__post_init__()
        if self.opt("reduction_method") != "restart":
            raise ValueError("root: only reduction_method='restart' is implemented")

    _setup = _broyden_dense

    def _solve(self, prob, js, x, F, tol):
        dx = -js["G"] @ F
        # SciPy restarts the model when its solve is not finite
        fresh = -js["alpha"] * snp.eye(x.shape[0], dtype=x.dtype)
        ok = snp.all(snp.isfinite(dx))
        G = snp.where(ok, js["G"], fresh)
        return snp.where(ok, dx, js["alpha"] * F), dict(js, G=G, rank=snp.where(
            ok, js["rank"], 0))

    def _update(self, js, x, F, x_new, F_new):
        G = js["G"]
        max_rank = self.opt("max_rank")
        rank = js["rank"]
        if max_rank is not None:
            reset = rank > int(max_rank) - 1
            G = snp.where(reset, -js["alpha"] * snp.eye(x.shape[0], dtype=x.dtype), G)
            rank = snp.where(reset, 0, rank)
        dx, df = x_new - x, F_new - F
        c = dx - G @ df
        if self.second:
            d = df / snp.dot(df, df)
        else:
            v = G.T @ dx
            d = v / snp.dot(df, v)
        return dict(js, G=G + snp.outer(c, d), rank=rank + 1)


@dataclasses.dataclass(frozen=True)
class AndersonSolver(NonlinSolver):
    """Anderson mixing (``'anderson'``; Eyert, Journal of Computational Physics 124,
    1996).

    ``jac_options``: ``alpha``, ``M`` (history length, default 5) and ``w0``
    (regularisation, default 0.01).

    Examples
    --------
    >>> from sciax.optimize import root
    >>> f = lambda x: snp.stack([x[0] - 0.5 * snp.cos(x[1]),
    ...                          x[1] - 0.5 * snp.sin(x[0])])
    >>> sol = root(f, snp.zeros(2), method="anderson", tol=1e-12)
    >>> print(np.round(np.asarray(sol.x), 6), sol.success)
    [0.486405 0.233726] True
    """

    model_options: ClassVar[tuple] = (("alpha", None), ("M", 5), ("w0", 0.01))

    def _setup(self, prob, x, F):
        alpha = self.opt("alpha")
        alpha = _default_alpha(x, F) if alpha is None else snp.asarray(alpha, x.dtype)
        M = max(int(self.opt("M")), 1)
        n = x.shape[0]
        return dict(alpha=alpha.astype(x.dtype), DX=snp.zeros((M, n), x.dtype),
                    DF=snp.zeros((M, n), x.dtype), count=snp.int32(0))

    def _solve(self, prob, js, x, F, tol):
        alpha, DX, DF = js["alpha"], js["DX"], js["DF"]
        M = DX.shape[0]
        w0 = float(self.opt("w0"))
        used = snp.arange(M) < js["count"]
        a = (DF @ DF.T) * (1 + w0 ** 2 * snp.eye(M, dtype=x.dtype))
        mask = snp.outer(used, used)
        a = snp.where(mask, a, snp.eye(M, dtype=x.dtype))
        rhs = snp.where(used, DF @ F, 0.0)
        gamma = snp.linalg.solve(a, rhs)
        ok = snp.all(snp.isfinite(gamma))
        gamma = snp.where(ok & used, gamma, 0.0)
        dx = -alpha * F + gamma @ (DX + alpha * DF)
        # SciPy drops the history when the small system is singular
        js = dict(js, count=snp.where(ok, js["count"], 0))
        if int(self.opt("M")) == 0:
            dx = -alpha * F
        return -dx, js

    def _update(self, js, x, F, x_new, F_new):
        if int(self.opt("M")) == 0:
            return js
        M = js["DX"].shape[0]
        full = js["count"] >= M
        # keep the last M pairs (order does not change the solve)
        slot = snp.where(full, 0, js["count"])
        DX = snp.where(full, snp.roll(js["DX"], -1, axis=0), js["DX"])
        DF = snp.where(full, snp.roll(js["DF"], -1, axis=0), js["DF"])
        slot = snp.where(full, M - 1, slot)
        DX = DX.at[slot].set(x_new - x)
        DF = DF.at[slot].set(F_new - F)
        return dict(js, DX=DX, DF=DF, count=snp.minimum(js["count"] + 1, M))


@dataclasses.dataclass(frozen=True)
class DiagonalSolver(NonlinSolver):
    """The diagonal Jacobian models: ``kind='linearmixing'`` (``-I / alpha``),
    ``'diagbroyden'`` (a diagonal Broyden update) and ``'excitingmixing'``
    (per-variable step sizes grown while the residual keeps its sign, up to
    ``alphamax``).

    ``jac_options``: ``alpha`` and, for exciting mixing, ``alphamax``
    (default 1.0).

    Examples
    --------
    >>> from sciax.optimize import root
    >>> f = lambda x: snp.stack([x[0] - 0.5 * snp.cos(x[1]),
    ...                          x[1] - 0.5 * snp.sin(x[0])])
    >>> sol = root(f, snp.zeros(2), method="diagbroyden", tol=1e-12)
    >>> print(np.round(np.asarray(sol.x), 6), sol.success)
    [0.486405 0.233726] True
    """

    kind: str = "linearmixing"
    model_options: ClassVar[tuple] = (("alpha", None), ("alphamax", 1.0))

    def _setup(self, prob, x, F):
        alpha = self.opt("alpha")
        alpha = _default_alpha(x, F) if alpha is None else snp.asarray(alpha, x.dtype)
        alpha = alpha.astype(x.dtype)
        # ``w``: the inverse Jacobian is ``-diag(w)``
        return dict(alpha=alpha, w=snp.full_like(x, 1.0) * alpha)

    def _solve(self, prob, js, x, F, tol):
        return js["w"] * F, js

    def _update(self, js, x, F, x_new, F_new):
        if self.kind == "diagbroyden":
            dx, df = x_new - x, F_new - F
            d = 1.0 / js["w"]  # the Jacobian model is -diag(d)
            d = d - (df + d * dx) * dx / snp.dot(dx, dx)
            return dict(js, w=1.0 / d)
        if self.kind == "excitingmixing":
            inc = F_new * F > 0
            w = snp.where(inc, js["w"] + js["alpha"], js["alpha"])
            return dict(js, w=snp.clip(w, 0.0, float(self.opt("alphamax"))))
        return js


@dataclasses.dataclass(frozen=True)
class KrylovSolver(NonlinSolver):
    """Newton-Krylov (``'krylov'``): each Newton system ``J dx = -F`` solved by
    restarted GMRES on exact Jacobian-vector products (forward mode), to the
    Eisenstat-Walker forcing tolerance.

    ``jac_options``: ``inner_maxiter`` (GMRES restart cycles, default 20),
    ``inner_m`` (Arnoldi steps per cycle, default ``min(n, 30)``) and
    ``inner_M``, a right preconditioner: ``InverseJacobian(BroydenFirst())``
    (set up at ``x0`` and updated after every step, inside the compiled loop,
    as SciPy's ``KrylovJacobian`` does) or any operator with a traceable
    ``matvec``.  SciPy's ``method``, ``rdiff`` and ``outer_k`` are accepted
    and ignored (the products are exact, the solver is GMRES).

    Examples
    --------
    >>> from sciax.optimize import root
    >>> f = lambda x: snp.stack([x[0] - 0.5 * snp.cos(x[1]),
    ...                          x[1] - 0.5 * snp.sin(x[0])])
    >>> sol = root(f, snp.zeros(2), method="krylov", tol=1e-12)
    >>> print(np.round(np.asarray(sol.x), 6), sol.success)
    [0.486405 0.233726] True
    """

    model_options: ClassVar[tuple] = (("inner_maxiter", 20), ("inner_m", None),
                            ("method", "lgmres"), ("rdiff", None), ("inner_M", None),
                            ("outer_k", 10))

    def _pre(self):
        return preconditioner_core(self.opt("inner_M"))

    def _setup(self, prob, x, F):
        pre = self._pre()
        return {} if pre is None else {"M": pre[0](x, F)}

    def _solve(self, prob, js, x, F, tol):
        n = x.shape[0]
        m = self.opt("inner_m")
        m = min(n, 30) if m is None else max(1, min(int(m), n))
        maxit = int(self.opt("inner_maxiter"))
        pre = self._pre()
        if pre is None:
            return _gmres(lambda v: prob.jvp(x, v), -F, tol, m, maxit), js
        apply = pre[2]
        y = _gmres(lambda v: prob.jvp(x, apply(js["M"], v)[0]), -F, tol, m, maxit)
        dx, st = apply(js["M"], y)
        return dx, dict(js, M=st)

    def _update(self, js, x, F, x_new, F_new):
        pre = self._pre()
        return js if pre is None else dict(js, M=pre[1](js["M"], x_new, F_new))


# --- df-sane --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DFSaneSolver(AbstractRootSolver):
    """The spectral residual method DF-SANE (``'df-sane'``; La Cruz, Martinez and
    Raydan 2006), derivative-free.

    Parameters
    ----------
    ftol, fatol : float
        Stop when ``||F|| < ftol * ||F0|| + fatol``.
    maxfev : int
        Limit on the calls of ``fun`` (default 1000).
    fnorm : callable, optional
        Norm of the stop test (default the 2-norm).
    M : int
        Length of the non-monotone window (default 10).
    eta_strategy : callable, optional
        ``eta(k, x, F)``; default ``||F0||^2 / (1 + k)^2``.
    sigma_eps, sigma_0 : float
        Spectral coefficient safeguard and start.
    line_search : {'cruz', 'cheng'}
        The non-monotone line search.
    disp : bool
        Accepted; progress is not printed.

    Examples
    --------
    >>> from sciax.optimize import root
    >>> f = lambda x: snp.stack([x[0] - 0.5 * snp.cos(x[1]),
    ...                          x[1] - 0.5 * snp.sin(x[0])])
    >>> sol = root(f, snp.zeros(2), method="df-sane", tol=1e-12)
    >>> print(np.round(np.asarray(sol.x), 6), sol.success, int(sol.nfev) < 40)
    [0.486405 0.233726] True True
    """

    ftol: float = 1e-8
    fatol: float = 1e-300
    maxfev: int = 1000
    fnorm: Any = None
    disp: bool = False
    M: int = 10
    eta_strategy: Any = None
    sigma_eps: float = 1e-10
    sigma_0: float = 1.0
    line_search: str = "cruz"

    def __post_init__(self):
        if self.line_search not in ("cruz", "cheng"):
            raise ValueError(f"Invalid value {self.line_search!r} for 'line_search'")

    def messages(self, n):
        return {1: "successful convergence",
                2: "too many function evaluations required",
                _NONFINITE: "NaN or inf in the function"}

    def _norm(self, F, f):
        return self.fnorm(F) if callable(self.fnorm) else snp.sqrt(f)

    def init(self, prob, x0):
        F = prob.F(x0)
        f = snp.dot(F, F)
        M = max(int(self.M), 1)
        fs = snp.full((M,), -snp.inf, x0.dtype).at[0].set(f)
        n0 = self._norm(F, f)
        status = snp.where(n0 < self.ftol * n0 + self.fatol, 1, RUNNING)
        status = snp.where(snp.all(snp.isfinite(F)), status, _NONFINITE)
        one = snp.asarray(1.0, x0.dtype)
        return dict(x=x0, F=F, f=f, f0=f, n0=n0, sigma=one * self.sigma_0, fs=fs,
                    slot=snp.int32(1 % M), k=snp.int32(0), nfev=snp.int32(1),
                    C=f, Q=one, status=status.astype(snp.int32))

    def step(self, prob, c):
        x, F, f = c["x"], c["F"], c["f"]
        sig = c["sigma"]
        big = 1.0 / self.sigma_eps
        sig = snp.where(snp.abs(sig) > big, big * snp.sign(sig),
                        snp.where(snp.abs(sig) < self.sigma_eps, self.sigma_eps, sig))
        d = -sig * F
        if callable(self.eta_strategy):
            eta = snp.asarray(self.eta_strategy(c["k"], x, F), x.dtype)
        else:
            eta = c["f0"] / (1.0 + c["k"]) ** 2
        cruz = self.line_search == "cruz"
        ref = snp.max(c["fs"]) if cruz else c["C"]
        gamma, tmin, tmax = 1e-4, 0.1, 0.5

        def ls_body(s):
            # one or two evaluations: x + a_p d, then x - a_m d
            ap, am, nfev = s["ap"], s["am"], s["nfev"]
            can1 = nfev < self.maxfev
            Fp = prob.F(x + ap * d)
            fp = snp.dot(Fp, Fp)
            okp = can1 & (fp <= ref + eta - gamma * ap ** 2 * f)
            nfev1 = nfev + can1.astype(snp.int32)
            can2 = ~okp & can1 & (nfev1 < self.maxfev)
            Fm = prob.F(x - am * d)
            fm = snp.dot(Fm, Fm)
            okm = can2 & (fm <= ref + eta - gamma * am ** 2 * f)
            nfev2 = nfev1 + can2.astype(snp.int32)
            atp = ap ** 2 * f / (fp + (2 * ap - 1) * f)
            atm = am ** 2 * f / (fm + (2 * am - 1) * f)
            state = snp.where(okp | okm, 1, snp.where(can1 & can2, 0, 2))
            return dict(ap=snp.clip(atp, tmin * ap, tmax * ap),
                        am=snp.clip(atm, tmin * am, tmax * am), nfev=nfev2,
                        xp=snp.where(okp, x + ap * d, x - am * d),
                        Fp=snp.where(okp, Fp, Fm), fp=snp.where(okp, fp, fm),
                        state=state.astype(snp.int32))

        one = snp.asarray(1.0, x.dtype)
        s0 = dict(ap=one, am=one, nfev=c["nfev"], xp=x, Fp=F, fp=f, state=snp.int32(0))
        s = lax.while_loop(lambda s: s["state"] == 0, ls_body, s0)
        found = s["state"] == 1
        xp, Fp, fp = s["xp"], s["Fp"], s["fp"]
        sk, yk = xp - x, Fp - F
        sigma = snp.dot(sk, sk) / snp.dot(sk, yk)
        M = c["fs"].shape[0]
        fs = c["fs"].at[c["slot"]].set(fp) if cruz else c["fs"]
        Qn = 0.85 * c["Q"] + 1
        C = (0.85 * c["Q"] * (c["C"] + eta) + fp) / Qn
        nrm = self._norm(Fp, fp)
        status = snp.where(~found, 2, snp.where(nrm < self.ftol * c["n0"] + self.fatol,
                                                 1, RUNNING))
        status = snp.where(found & ~snp.all(snp.isfinite(Fp)), _NONFINITE, status)
        new = dict(x=xp, F=Fp, f=fp, f0=c["f0"], n0=c["n0"], sigma=sigma, fs=fs,
                   slot=(c["slot"] + 1) % M, k=c["k"] + 1, nfev=s["nfev"],
                   C=snp.where(cruz, c["C"], C), Q=snp.where(cruz, c["Q"], Qn),
                   status=status.astype(snp.int32))
        keep = ~found
        return {k: (snp.where(keep, c[k], v) if k not in ("nfev", "status") else v)
                for k, v in new.items()}

    def fields(self, prob, st):
        return dict(nfev=st["nfev"], nit=st["k"])


Broyden1Solver = BroydenSolver


@dataclasses.dataclass(frozen=True)
class Broyden2Solver(BroydenSolver):
    """Broyden's bad method (``'broyden2'``); see :class:`BroydenSolver`."""

    second: bool = True


@dataclasses.dataclass(frozen=True)
class LinearMixingSolver(DiagonalSolver):
    """``'linearmixing'``: the fixed model ``J = -I / alpha``."""

    kind: str = "linearmixing"


@dataclasses.dataclass(frozen=True)
class DiagBroydenSolver(DiagonalSolver):
    """``'diagbroyden'``: a diagonal Broyden update of ``J``."""

    kind: str = "diagbroyden"


@dataclasses.dataclass(frozen=True)
class ExcitingMixingSolver(DiagonalSolver):
    """``'excitingmixing'``: per-variable mixing grown while ``F`` keeps its sign."""

    kind: str = "excitingmixing"
