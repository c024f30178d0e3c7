"""Small public helpers: Bounds, Rosenbrock, finite-difference checks, hessian
update strategies and ``show_options``."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp


class Bounds:
    """sciax implementation of :class:`scipy.optimize.Bounds`.

    Box constraints ``lb <= x <= ub``; ``-inf``/``inf`` mean no bound.

    Parameters
    ----------
    lb, ub : array_like, optional
        Lower and upper bounds (scalars broadcast).
    keep_feasible : bool, optional
        Accepted for SciPy compatibility; L-BFGS-B here never leaves the box.

    Examples
    --------
    >>> from sciax.optimize import Bounds
    >>> b = Bounds([0.0, -1.0], [1.0, np.inf])
    >>> print(b)
    Bounds([ 0. -1.], [ 1. inf])
    """

    def __init__(self, lb: Any = -np.inf, ub: Any = np.inf, keep_feasible: Any = False):
        self.lb = np.asarray(lb, dtype=float)
        self.ub = np.asarray(ub, dtype=float)
        self.keep_feasible = keep_feasible
        if np.any(np.broadcast_arrays(self.lb, self.ub)[0]
                  > np.broadcast_arrays(self.lb, self.ub)[1]):
            raise ValueError(
                "An upper bound is less than the corresponding lower bound.")

    def __repr__(self) -> str:
        return f"Bounds({self.lb}, {self.ub})"

    def residual(self, x: Any) -> tuple:
        """``(x - lb, ub - x)``: non-negative inside the box."""
        x = snp.asarray(x)
        return x - self.lb, self.ub - x


def rosen(x: Any) -> Any:
    """sciax implementation of :func:`scipy.optimize.rosen`.

    The Rosenbrock function ``sum(100 (x[1:] - x[:-1]**2)**2 + (1 - x[:-1])**2)``
    along the first axis.

    Examples
    --------
    >>> from sciax.optimize import rosen
    >>> print(float(rosen(snp.array([-1.2, 1.0]))))
    24.2
    """
    x = snp.asarray(x)
    return snp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2, axis=0)


def rosen_der(x: Any) -> Any:
    """sciax implementation of :func:`scipy.optimize.rosen_der` (the gradient).

    Examples
    --------
    >>> from sciax.optimize import rosen_der
    >>> print(np.asarray(rosen_der(snp.array([1.0, 1.0]))))
    [0. 0.]
    """
    x = snp.asarray(x)
    xm, xm_m1, xm_p1 = x[1:-1], x[:-2], x[2:]
    mid = 200 * (xm - xm_m1 ** 2) - 400 * (xm_p1 - xm ** 2) * xm - 2 * (1 - xm)
    first = -400 * x[0] * (x[1] - x[0] ** 2) - 2 * (1 - x[0])
    last = 200 * (x[-1] - x[-2] ** 2)
    return snp.concatenate([first[None], mid, last[None]])


def rosen_hess(x: Any) -> Any:
    """sciax implementation of :func:`scipy.optimize.rosen_hess` (dense hessian).

    Examples
    --------
    >>> from sciax.optimize import rosen_hess
    >>> print(np.asarray(rosen_hess(snp.array([1.0, 1.0]))))
    [[ 802. -400.]
     [-400.  200.]]
    """
    x = snp.asarray(x)
    off = -400 * x[:-1]
    diag = snp.concatenate([
        (1200 * x[0] ** 2 - 400 * x[1] + 2)[None],
        202 + 1200 * x[1:-1] ** 2 - 400 * x[2:],
        snp.full((1,), 200.0, x.dtype if snp.issubdtype(x.dtype, snp.inexact)
                 else snp.float64)])
    return snp.diag(diag) + snp.diag(off, 1) + snp.diag(off, -1)


def rosen_hess_prod(x: Any, p: Any) -> Any:
    """sciax implementation of :func:`scipy.optimize.rosen_hess_prod`.

    Examples
    --------
    >>> from sciax.optimize import rosen_hess_prod
    >>> print(np.asarray(rosen_hess_prod(snp.array([1.0, 1.0]), snp.array([1.0, 0.0]))))
    [ 802. -400.]
    """
    return rosen_hess(x) @ snp.asarray(p)


def approx_fprime(xk: Any, f: Callable, epsilon: Any = None, *args: Any) -> Any:
    """sciax implementation of :func:`scipy.optimize.approx_fprime`.

    Forward-difference approximation of the gradient (or Jacobian) of ``f``.

    Parameters
    ----------
    xk : array_like
        Point.
    f : callable
        ``f(xk, *args)``, scalar or vector valued.
    epsilon : float or array_like, optional
        Step; SciPy's default ``sqrt(eps)``.
    *args
        Extra arguments of ``f``.

    Examples
    --------
    >>> from sciax.optimize import approx_fprime
    >>> g = approx_fprime(snp.array([1.0, 2.0]), lambda x: snp.sum(x ** 2))
    >>> print(np.round(np.asarray(g), 5))
    [2. 4.]
    """
    xk = snp.asarray(xk, dtype=snp.result_type(xk, 1.0))
    if epsilon is None:
        epsilon = float(np.sqrt(np.finfo(np.float64).eps))
    eps = snp.broadcast_to(snp.asarray(epsilon, xk.dtype), xk.shape)
    f0 = snp.asarray(f(xk, *args))
    steps = snp.diag(eps)
    cols = sciax.vmap(lambda e: (snp.asarray(f(xk + e, *args)) - f0))(steps)
    jac = cols / eps.reshape((-1,) + (1,) * f0.ndim)
    return jac if f0.ndim == 0 else snp.moveaxis(jac, 0, -1)


def check_grad(func: Callable, grad: Callable, x0: Any, *args: Any,
               epsilon: float | None = None, direction: str = "all",
               rng: Any = None) -> Any:
    """sciax implementation of :func:`scipy.optimize.check_grad`.

    The 2-norm of the difference between ``grad(x0, *args)`` and a forward
    difference of ``func``.

    Examples
    --------
    >>> from sciax.optimize import check_grad, rosen, rosen_der
    >>> print(float(check_grad(rosen, rosen_der, snp.array([1.5, -0.5]))) < 1e-4)
    True
    """
    if direction != "all":
        raise ValueError("check_grad: only direction='all' is supported by sciax")
    x0 = snp.asarray(x0, dtype=snp.result_type(x0, 1.0))
    diff = snp.asarray(grad(x0, *args)) - approx_fprime(x0, func, epsilon, *args)
    return snp.sqrt(snp.sum(diff ** 2))


class HessianUpdateStrategy:
    """sciax implementation of :class:`scipy.optimize.HessianUpdateStrategy`.

    A quasi-Newton approximation held as a dense matrix, updated with
    ``update(delta_x, delta_grad)``; an object with state (as SciPy), for use
    outside traced solvers.  ``minimize`` accepts these as ``hess`` and uses
    exact hessians instead.

    Examples
    --------
    >>> from sciax.optimize import BFGS
    >>> h = BFGS()
    >>> h.initialize(2, "hess")
    >>> h.update(snp.array([1.0, 0.0]), snp.array([2.0, 0.0]))
    >>> print(np.asarray(h.get_matrix())[0, 0])
    2.0
    """

    def __init__(self, exception_strategy: str = "skip_update", min_curvature=None,
                 init_scale: Any = "auto"):
        self.init_scale = init_scale
        self.first_iteration = True
        self.min_curvature = min_curvature
        self.exception_strategy = exception_strategy

    def initialize(self, n: int, approx_type: str) -> None:
        if approx_type not in ("hess", "inv_hess"):
            raise ValueError("approx_type must be 'hess' or 'inv_hess'")
        self.n, self.approx_type = n, approx_type
        self.B = snp.eye(n) if approx_type == "hess" else None
        self.H = snp.eye(n) if approx_type == "inv_hess" else None
        self.first_iteration = True

    def _scale(self, s, y):
        if isinstance(self.init_scale, str):
            sy, yy = snp.dot(s, y), snp.dot(y, y)
            return yy / sy if self.approx_type == "hess" else sy / yy
        return self.init_scale

    def update(self, delta_x: Any, delta_grad: Any) -> None:
        s, y = snp.asarray(delta_x, float), snp.asarray(delta_grad, float)
        if float(snp.dot(s, s)) == 0.0 or float(snp.dot(y, y)) == 0.0:
            return
        if self.first_iteration:
            c = self._scale(s, y)
            if self.approx_type == "hess":
                self.B = self.B * c
            else:
                self.H = self.H * c
            self.first_iteration = False
        self._update(s, y)

    def _update(self, s, y):
        raise NotImplementedError(f"{type(self).__name__}._update")

    def dot(self, p: Any) -> Any:
        """Product of the approximation with ``p``."""
        M = self.B if self.approx_type == "hess" else self.H
        return M @ snp.asarray(p)

    def get_matrix(self) -> Any:
        """The current approximation as a dense matrix."""
        return self.B if self.approx_type == "hess" else self.H


class BFGS(HessianUpdateStrategy):
    """sciax implementation of :class:`scipy.optimize.BFGS` (the update strategy).

    Examples
    --------
    >>> from sciax.optimize import BFGS
    >>> h = BFGS(); h.initialize(1, "inv_hess")
    >>> h.update(snp.array([2.0]), snp.array([1.0]))
    >>> print(float(h.get_matrix()[0, 0]))
    2.0
    """

    def _update(self, s, y):
        sy = snp.dot(s, y)
        if float(sy) <= 0 and self.exception_strategy == "skip_update":
            return
        if self.approx_type == "hess":
            Bs = self.B @ s
            self.B = self.B - snp.outer(Bs, Bs) / snp.dot(s, Bs) + snp.outer(y, y) / sy
        else:
            Hy = self.H @ y
            r = 1.0 / sy
            self.H = (self.H - r * (snp.outer(s, Hy) + snp.outer(Hy, s))
                      + (r * r * snp.dot(y, Hy) + r) * snp.outer(s, s))


class SR1(HessianUpdateStrategy):
    """sciax implementation of :class:`scipy.optimize.SR1` (symmetric rank one).

    Examples
    --------
    >>> from sciax.optimize import SR1
    >>> h = SR1(); h.initialize(1, "hess")
    >>> h.update(snp.array([1.0]), snp.array([3.0]))
    >>> print(float(h.get_matrix()[0, 0]))
    3.0
    """

    def __init__(self, min_denominator: float = 1e-8, init_scale: Any = "auto"):
        super().__init__("skip_update", None, init_scale)
        self.min_denominator = min_denominator

    def _update(self, s, y):
        M = self.B if self.approx_type == "hess" else self.H
        a, b = (s, y) if self.approx_type == "hess" else (y, s)
        r = b - M @ a
        den = snp.dot(r, a)
        if abs(float(den)) <= self.min_denominator * float(
                snp.linalg.norm(a) * snp.linalg.norm(r)):
            return
        M = M + snp.outer(r, r) / den
        if self.approx_type == "hess":
            self.B = M
        else:
            self.H = M


def show_options(solver: str | None = None, method: str | None = None,
                 disp: bool = True) -> str | None:
    """sciax implementation of :func:`scipy.optimize.show_options`.

    Print (or return, with ``disp=False``) the options of a method, taken from
    the docstring of its solver class.

    Examples
    --------
    >>> from sciax.optimize import show_options
    >>> print("gtol" in show_options("minimize", "BFGS", disp=False))
    True
    >>> print("xtol" in show_options("root", "hybr", disp=False))
    True
    """
    from sciax.optimize._minimize import _METHODS  # cycle: _minimize imports us
    from sciax.optimize._root import _METHODS as _ROOT  # cycle: as above
    from sciax.optimize._slsqp import SLSQPSolver  # cycle: as above

    if solver not in (None, "minimize", "root"):
        raise ValueError(f"show_options: solver must be 'minimize' or 'root', got "
                         f"{solver!r}")
    table = dict(_ROOT) if solver == "root" else dict(_METHODS, slsqp=SLSQPSolver)
    if solver != "root":
        from sciax.optimize._minimize import _CONSTRAINED_METHODS  # cycle: as above
        table.update({k: cls for k, (cls, _) in _CONSTRAINED_METHODS.items()})
    names = [method.lower()] if method else sorted(table)
    for n in names:
        if n not in table:
            raise ValueError(f"Unknown method {method!r}; known: {sorted(table)}")
    text = "\n\n".join(f"{n}\n{'=' * len(n)}\n{(table[n].__doc__ or '').strip()}"
                       for n in names)
    if disp:
        print(text)
        return None
    return text
