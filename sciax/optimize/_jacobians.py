"""SciPy's nonlin Jacobian objects: ``BroydenFirst``, ``KrylovJacobian`` and
``InverseJacobian``.

:mod:`scipy.optimize` exposes the Jacobian approximations of its ``nonlin``
solvers as objects with ``setup(x, F, func)``, ``update(x, F)``,
``solve(v, tol)``, ``matvec(v)`` and friends, mostly to build preconditioners
(``newton_krylov(..., inner_M=InverseJacobian(BroydenFirst()))``).  Here each
object is a thin stateful shell over a pure core (``_init``/``_step`` on an
explicit state dict of sciax arrays): the shell gives SciPy's in-place
interface, eager or inside one trace, and the core is what the compiled
``krylov`` iteration carries in its ``lax.while_loop`` when such an object is
its ``inner_M``.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

def gmres(matvec, b, rtol, restart, maxiter):
    """Restarted GMRES from zero for ``A x = b`` to ``||r|| <= rtol ||b||``
    (Saad and Schultz 1986): ``restart`` Arnoldi steps per cycle (modified
    Gram-Schmidt), the small least-squares problem by ``lstsq``."""
    n = b.shape[0]
    m = restart
    bnorm = snp.linalg.norm(b)

    def cycle(c):
        x, r, it = c
        beta = snp.linalg.norm(r)
        V = snp.zeros((m + 1, n), b.dtype).at[0].set(r / snp.where(beta > 0, beta, 1.0))
        H = snp.zeros((m + 1, m), b.dtype)

        def arnoldi(j, vh):
            V, H = vh
            w = matvec(V[j])

            def mgs(i, wh):
                w, h = wh
                hij = snp.where(i <= j, snp.dot(V[i], w), 0.0)
                return w - hij * V[i], h.at[i].set(hij)

            w, h = lax.fori_loop(0, m, mgs, (w, snp.zeros((m + 1,), b.dtype)))
            hn = snp.linalg.norm(w)
            h = h.at[j + 1].set(hn)
            V = V.at[j + 1].set(w / snp.where(hn > 0, hn, 1.0))
            return V, H.at[:, j].set(h)

        V, H = lax.fori_loop(0, m, arnoldi, (V, H))
        e1 = snp.zeros((m + 1,), b.dtype).at[0].set(beta)
        y = snp.linalg.lstsq(H, e1)[0]
        x = x + V[:m].T @ y
        return x, b - matvec(x), it + 1

    c0 = (snp.zeros_like(b), b, snp.int32(0))
    x, r, _ = lax.while_loop(
        lambda c: (snp.linalg.norm(c[1]) > rtol * bnorm) & (c[2] < maxiter), cycle, c0)
    return x



_NAMES = ("solve", "update", "matvec", "rmatvec", "rsolve", "matmat", "todense",
          "shape", "dtype")


class Jacobian:
    """Base of the Jacobian approximations (SciPy's ``nonlin.Jacobian``).

    ``Jacobian(matvec=..., solve=..., ...)`` builds one from functions (the
    names SciPy allows); subclasses define ``setup``, ``update``, ``solve``
    and ``matvec``.
    """

    def __init__(self, **kw):
        for name, value in kw.items():
            if name not in _NAMES:
                raise ValueError(f"Unknown keyword argument {name}")
            if value is not None:
                setattr(self, name, value)

    def aspreconditioner(self) -> "InverseJacobian":
        return InverseJacobian(self)

    def solve(self, v, tol=0):
        raise NotImplementedError

    def update(self, x, F):
        pass

    def setup(self, x, F, func):
        self.func = func
        self.shape = (F.size, x.size)
        self.dtype = F.dtype
        if self.__class__.setup is Jacobian.setup:
            self.update(x, F)


class BroydenFirst(Jacobian):
    """sciax implementation of :class:`scipy.optimize.BroydenFirst`.

    Broyden's first ("good") Jacobian approximation, kept as its inverse
    ``G ~ J^{-1}``: ``G_0 = -alpha I`` and, for a step ``dx`` with residual
    change ``df``, ``G += (dx - G df) (G^T dx)^T / (dx^T G df)`` -- the
    update SciPy applies to its low-rank form, here on a dense matrix.

    Parameters
    ----------
    alpha : float, optional
        Initial guess ``-1/alpha`` of the Jacobian (default, at ``setup``:
        ``0.5 max(||x0||, 1) / ||F(x0)||``).
    reduction_method : {'restart'}, optional
        How the rank is bounded: 'restart' forgets the updates when the rank
        would exceed ``max_rank`` ('simple' and 'svd' need SciPy's low-rank
        form and raise).
    max_rank : int, optional
        Maximum rank of the update (default unbounded).

    Notes
    -----
    ``solve(v) = G v`` (``G`` approximates the inverse), ``matvec(v)`` solves
    ``G u = v``, ``rsolve``/``rmatvec`` use ``G^T``, ``todense()`` is
    ``G^{-1}``.  When ``solve`` is not finite the approximation restarts from
    ``-alpha I``, as SciPy's.  The state is sciax arrays, so the methods work
    eagerly and inside ``jit`` (one object per trace).

    Examples
    --------
    >>> from sciax.optimize import BroydenFirst
    >>> F = lambda x: snp.stack([x[0] + 0.5 * x[1] ** 2 - 1, 2 * x[1] - x[0]])
    >>> J = BroydenFirst(alpha=0.5)
    >>> x0 = snp.zeros(2)
    >>> J.setup(x0, F(x0), F)
    >>> x1 = x0 - J.solve(F(x0))
    >>> J.update(x1, F(x1))
    >>> print(np.asarray(J.solve(F(x1))), np.asarray(J.matvec(snp.array([1.0, 2.0]))))
    [-1.5  0.5] [ 1. -5.]
    """

    def __init__(self, alpha=None, reduction_method="restart", max_rank=None):
        super().__init__()
        method = reduction_method if isinstance(reduction_method, str) else \
            reduction_method[0]
        if method not in ("restart", "simple", "svd"):
            raise ValueError(f"Unknown rank reduction method '{method}'")
        if method != "restart":
            raise ValueError(f"reduction_method={method!r} needs SciPy's low-rank "
                             "form; sciax keeps the inverse dense: use 'restart'")
        self.alpha = alpha
        self.max_rank = max_rank
        self._st = None

    # --- the pure core (compiled once per shape) ----------------------------------
    def _init(self, x, F, func=None) -> dict:
        alpha = np.nan if self.alpha is None else self.alpha
        return _BF_INIT(x, F, snp.asarray(alpha, snp.result_type(x, F, 1.0)))

    def _step(self, st, x, F) -> dict:
        return _BF_STEP(st, x, F, max_rank=None if self.max_rank is None
                        else int(self.max_rank))

    def _solve(self, st, v):
        """``(G v, state)``, restarting a model whose solve is not finite."""
        return _BF_SOLVE(st, v)

    # --- SciPy's interface --------------------------------------------------------
    def setup(self, x, F, func):
        x, F = snp.asarray(x), snp.asarray(F)
        Jacobian.setup(self, x, F, func)
        self._st = self._init(x, F)
        self.alpha = self._st["alpha"]

    def _state(self):
        if self._st is None:
            raise RuntimeError("call setup(x, F, func) first")
        return self._st

    @property
    def last_x(self):
        return self._state()["x"]

    @property
    def last_f(self):
        return self._state()["F"]

    def update(self, x, F):
        self._st = self._step(self._state(), snp.asarray(x), snp.asarray(F))

    def solve(self, f, tol=0):
        r, self._st = self._solve(self._state(), snp.asarray(f))
        return r

    def matvec(self, f):
        return snp.linalg.solve(self._state()["G"], snp.asarray(f))

    def rsolve(self, f, tol=0):
        return self._state()["G"].T @ snp.asarray(f)

    def rmatvec(self, f):
        return snp.linalg.solve(self._state()["G"].T, snp.asarray(f))

    def todense(self):
        return snp.linalg.inv(self._state()["G"])


def _bf_init(x, F, alpha):
    dt = alpha.dtype
    nf = snp.linalg.norm(F)
    default = snp.where(nf > 0, 0.5 * snp.maximum(snp.linalg.norm(x), 1.0)
                        / snp.where(nf > 0, nf, 1.0), 1.0)
    alpha = snp.where(snp.isnan(alpha), default, alpha).astype(dt)
    return dict(G=-alpha * snp.eye(x.shape[0], dtype=dt), alpha=alpha,
                x=x.astype(dt), F=F.astype(dt), rank=snp.int32(0))


def _bf_step(st, x, F, max_rank):
    G, rank = st["G"], st["rank"]
    if max_rank is not None:  # restart first, to keep the secant condition
        reset = rank > max_rank - 1
        G = snp.where(reset, -st["alpha"] * snp.eye(G.shape[0], dtype=G.dtype), G)
        rank = snp.where(reset, 0, rank)
    dx, df = x - st["x"], F - st["F"]
    v = G.T @ dx
    c = dx - G @ df
    return dict(st, G=G + snp.outer(c, v / snp.dot(df, v)), x=x.astype(G.dtype),
                F=F.astype(G.dtype), rank=rank + 1)


def _bf_solve(st, v):
    r = st["G"] @ v
    ok = snp.all(snp.isfinite(r))
    fresh = -st["alpha"] * snp.eye(v.shape[0], dtype=st["G"].dtype)
    st = dict(st, G=snp.where(ok, st["G"], fresh), rank=snp.where(ok, st["rank"], 0))
    return snp.where(ok, r, -st["alpha"] * v), st


_BF_INIT = sciax.jit(_bf_init)
_BF_STEP = sciax.jit(_bf_step, static_argnames="max_rank")
_BF_SOLVE = sciax.jit(_bf_solve)


class InverseJacobian:
    """sciax implementation of :class:`scipy.optimize.InverseJacobian`.

    The inverse of a Jacobian approximation as a linear operator:
    ``matvec`` is the approximation's ``solve`` (and ``rmatvec`` its
    ``rsolve``), ``setup``/``update`` are passed on.  Its use is a
    preconditioner: ``newton_krylov(F, x0, inner_M=InverseJacobian(
    BroydenFirst()))`` or ``root(..., method='krylov', options={'jac_options':
    {'inner_M': ...}})``, where the compiled iteration sets it up at ``x0``
    and updates it after every step, as SciPy's ``KrylovJacobian`` does.

    Parameters
    ----------
    jacobian : Jacobian
        A Jacobian approximation, e.g. :class:`BroydenFirst`.

    Examples
    --------
    >>> from sciax.optimize import BroydenFirst, InverseJacobian, newton_krylov
    >>> F = lambda x: snp.tanh(x) + 0.1 * x ** 3 - snp.arange(1.0, 5.0)
    >>> x = newton_krylov(F, snp.zeros(4), inner_M=InverseJacobian(BroydenFirst()),
    ...                   f_tol=1e-10)
    >>> print(np.round(np.asarray(x), 6))
    [1.191231 2.172666 2.718334 3.108607]
    """

    def __init__(self, jacobian):
        self.jacobian = jacobian
        self.matvec = jacobian.solve
        self.update = jacobian.update
        if hasattr(jacobian, "setup"):
            self.setup = jacobian.setup
        if hasattr(jacobian, "rsolve"):
            self.rmatvec = jacobian.rsolve

    @property
    def shape(self):
        return self.jacobian.shape

    @property
    def dtype(self):
        return self.jacobian.dtype


def preconditioner_core(M) -> tuple[Callable, Callable, Callable] | None:
    """``(init, step, apply)`` pure functions of a preconditioner ``M`` for a
    compiled loop: ``init(x, F) -> state``, ``step(state, x, F) -> state``,
    ``apply(state, v) -> (M v, state)``.  An :class:`InverseJacobian` of a
    model with a pure core is updated along the iteration; any other object
    with a traceable ``matvec`` is a fixed operator; ``None`` for none."""
    if M is None:
        return None
    jac = getattr(M, "jacobian", None)
    if isinstance(M, InverseJacobian) and hasattr(jac, "_init"):
        return (lambda x, F: jac._init(x, F), jac._step, jac._solve)
    mv = getattr(M, "matvec", None)
    if mv is None:
        if not callable(M):
            raise TypeError(f"inner_M must be a preconditioner with a matvec "
                            f"method, got {type(M).__name__}")
        mv = M
    return (lambda x, F: {}, lambda st, x, F: st, lambda st, v: (mv(v), st))


class KrylovJacobian(Jacobian):
    """sciax implementation of :class:`scipy.optimize.KrylovJacobian`.

    The Jacobian of ``func`` at the current point as an operator: ``matvec``
    is an exact Jacobian-vector product (forward mode, where SciPy takes a
    finite difference of step ``rdiff``), and ``solve(rhs, tol)`` runs
    restarted GMRES to the relative residual ``tol``, right-preconditioned
    by ``inner_M`` when given.

    Parameters
    ----------
    rdiff : float, optional
        SciPy's finite-difference step; accepted and unused (the products
        are exact).
    method : str, optional
        SciPy's inner solver name ('lgmres', 'gmres', ...); every name runs
        restarted GMRES here.
    inner_maxiter : int, optional
        GMRES restart cycles (default 20).
    inner_M : preconditioner, optional
        An approximate inverse (e.g. ``InverseJacobian(BroydenFirst())``, set
        up and updated with this object) or an operator with ``matvec``.
    outer_k : int, optional
        SciPy's LGMRES option; accepted and unused.
    **kw
        ``inner_m``: Arnoldi steps per GMRES cycle (default ``min(n, 30)``);
        other ``inner_*`` options of SciPy's solvers are accepted and
        ignored.  Any other keyword raises ``ValueError``.

    Examples
    --------
    >>> from sciax.optimize import KrylovJacobian
    >>> F = lambda x: snp.stack([x[0] ** 2 + x[1], snp.sin(x[1]) + 3 * x[0]])
    >>> J = KrylovJacobian()
    >>> x = snp.array([1.0, 0.5])
    >>> J.setup(x, F(x), F)
    >>> print(np.round(np.asarray(J.matvec(snp.array([1.0, 0.0]))), 6))
    [2. 3.]
    >>> print(np.round(np.asarray(J.solve(snp.array([1.0, 2.0]), tol=1e-12)), 6))
    [ 0.90166  -0.803319]
    """

    def __init__(self, rdiff=None, method="lgmres", inner_maxiter=20, inner_M=None,
                 outer_k=10, **kw):
        super().__init__()
        for key in kw:
            if not key.startswith("inner_"):
                raise ValueError(f"Unknown parameter {key}")
        self.rdiff = rdiff
        self.method = method
        self.inner_maxiter = int(inner_maxiter)
        self.inner_m = kw.get("inner_m")
        self.preconditioner = inner_M
        self.outer_k = outer_k
        self._pre = preconditioner_core(inner_M)
        self._pst = None

    def setup(self, x, f, func):
        x, f = snp.asarray(x), snp.asarray(f)
        Jacobian.setup(self, x, f, func)
        self.x0, self.f0 = x, f
        if self.preconditioner is not None and hasattr(self.preconditioner, "setup"):
            self.preconditioner.setup(x, f, func)

    def update(self, x, f):
        self.x0, self.f0 = snp.asarray(x), snp.asarray(f)
        if self.preconditioner is not None and hasattr(self.preconditioner, "update"):
            self.preconditioner.update(x, f)

    def matvec(self, v):
        v = snp.asarray(v)
        return sciax.jvp(self.func, (self.x0,), (v.astype(self.x0.dtype),))[1]

    def solve(self, rhs, tol=0):
        rhs = snp.asarray(rhs)
        n = rhs.shape[0]
        m = min(n, 30) if self.inner_m is None else max(1, min(int(self.inner_m), n))
        M = self.preconditioner
        if M is None:
            return gmres(self.matvec, rhs, tol, m, self.inner_maxiter)
        jac = getattr(M, "jacobian", None)
        if isinstance(M, InverseJacobian) and hasattr(jac, "_init"):
            st = jac._state()  # read, not updated, inside the GMRES loop

            def pre(u):
                return jac._solve(st, u)[0]
        else:
            pre = M.matvec
        y = gmres(lambda u: self.matvec(pre(u)), rhs, tol, m, self.inner_maxiter)
        return pre(y)
