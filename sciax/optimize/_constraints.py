"""Constraint objects (SciPy's ``NonlinearConstraint``, ``LinearConstraint`` and
dict constraints) and their normal form for the constrained solvers:
``c_eq(x) = 0`` and ``c_in(x) >= 0``, each a flat vector, with exact Jacobians
(forward mode, or the user's ``jac``)."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp


class NonlinearConstraint:
    """sciax implementation of :class:`scipy.optimize.NonlinearConstraint`.

    ``lb <= fun(x) <= ub``; ``lb == ub`` makes an equality, infinite sides are
    absent.

    Parameters
    ----------
    fun : callable
        ``fun(x)`` returning a scalar or 1-D array, written with sciax.
    lb, ub : array_like
        Bounds of ``fun(x)`` (scalars broadcast).
    jac : callable, optional
        Jacobian ``jac(x)`` of shape ``(m, n)``; by default the exact one by
        automatic differentiation (SciPy's ``'2-point'``, ``'3-point'``,
        ``'cs'`` mean the same).
    hess, keep_feasible, finite_diff_rel_step, finite_diff_jac_sparsity
        Accepted for SciPy compatibility (hessians are exact, by automatic
        differentiation).

    Examples
    --------
    >>> from sciax.optimize import NonlinearConstraint, minimize
    >>> disk = NonlinearConstraint(lambda x: x[0] ** 2 + x[1] ** 2, -np.inf, 1.0)
    >>> res = minimize(lambda x: -x[0] - x[1], snp.array([0.1, 0.0]),
    ...                constraints=disk)
    >>> print(np.round(np.asarray(res.x), 6), res.success)
    [0.707107 0.707107] True
    """

    def __init__(self, fun: Callable, lb: Any, ub: Any, jac: Any = "2-point",
                 hess: Any = None, keep_feasible: Any = False,
                 finite_diff_rel_step: Any = None,
                 finite_diff_jac_sparsity: Any = None):
        if not callable(fun):
            raise TypeError(f"NonlinearConstraint: fun must be callable, got "
                            f"{type(fun).__name__}")
        self.fun = fun
        self.lb = np.asarray(lb, float)
        self.ub = np.asarray(ub, float)
        self.jac = jac
        self.hess = hess
        self.keep_feasible = keep_feasible
        if np.any(self.lb > self.ub):
            raise ValueError("NonlinearConstraint: a lower bound is greater than the "
                             "upper bound")


class LinearConstraint:
    """sciax implementation of :class:`scipy.optimize.LinearConstraint`.

    ``lb <= A @ x <= ub``.

    Parameters
    ----------
    A : array_like, shape (m, n)
        The matrix (a 1-D ``A`` is one row).
    lb, ub : array_like, optional
        Bounds of ``A @ x`` (default ``-inf`` and ``inf``).
    keep_feasible : bool, optional
        Accepted for SciPy compatibility.

    Examples
    --------
    >>> from sciax.optimize import LinearConstraint, minimize
    >>> line = LinearConstraint([[1.0, 1.0]], 1.0, 1.0)  # x0 + x1 = 1
    >>> res = minimize(lambda x: x[0] ** 2 + 2 * x[1] ** 2, snp.zeros(2),
    ...                constraints=[line])
    >>> print(np.round(np.asarray(res.x), 6))
    [0.666667 0.333333]
    """

    def __init__(self, A: Any, lb: Any = -np.inf, ub: Any = np.inf,
                 keep_feasible: Any = False):
        self.A = np.atleast_2d(np.asarray(A, float))
        self.lb = np.asarray(lb, float)
        self.ub = np.asarray(ub, float)
        self.keep_feasible = keep_feasible
        if np.any(self.lb > self.ub):
            raise ValueError("LinearConstraint: a lower bound is greater than the "
                             "upper bound")

    def residual(self, x: Any) -> tuple:
        """``(A x - lb, ub - A x)``: non-negative where the constraint holds."""
        Ax = snp.asarray(self.A) @ snp.asarray(x)
        return Ax - self.lb, self.ub - Ax


@dataclasses.dataclass(frozen=True, eq=False)
class _Piece:
    """One constraint in normal form: ``fun(x)`` (flat), its optional Jacobian,
    and the static row maps ``(kind, sign, offset, rows)``: the rows of
    ``fun`` used for equalities / inequalities and how."""

    fun: Callable
    jac: Any
    eq_rows: np.ndarray      # rows r with c_eq = fun[r] - target[r]
    eq_target: np.ndarray
    lo_rows: np.ndarray      # rows with c_in = fun[r] - lb[r]
    lo: np.ndarray
    up_rows: np.ndarray      # rows with c_in = ub[r] - fun[r]
    up: np.ndarray


def _piece_from_bounds(fun, jac, lb, ub, m):
    lb = np.broadcast_to(lb, (m,)).astype(float)
    ub = np.broadcast_to(ub, (m,)).astype(float)
    eq = lb == ub
    lo = ~eq & np.isfinite(lb)
    up = ~eq & np.isfinite(ub)
    r = np.arange(m)
    return _Piece(fun, jac, r[eq], lb[eq], r[lo], lb[lo], r[up], ub[up])


def normalize(constraints: Any, n: int, x0) -> tuple:
    """SciPy's constraints (a dict, a constraint object or a sequence of them)
    as a tuple of :class:`_Piece` (``x0`` gives the output sizes)."""
    if constraints is None:
        return ()
    if isinstance(constraints, (dict, NonlinearConstraint, LinearConstraint)):
        constraints = [constraints]
    pieces = []
    for c in constraints:
        if isinstance(c, dict):
            kind = c.get("type")
            if kind not in ("eq", "ineq"):
                raise ValueError(f"Constraint type must be 'eq' or 'ineq', got "
                                 f"{kind!r}")
            if "fun" not in c or not callable(c["fun"]):
                raise ValueError("Constraint dict has no callable 'fun'")
            extra = set(c) - {"type", "fun", "jac", "args"}
            if extra:
                raise ValueError(f"Unknown constraint keys {sorted(extra)}")
            cargs = tuple(c.get("args", ()))
            f = (lambda fun, a: lambda x: snp.ravel(snp.asarray(fun(x, *a))))(
                c["fun"], cargs)
            j = c.get("jac")
            jf = ((lambda jac, a: lambda x: jac(x, *a))(j, cargs) if callable(j)
                  else None)
            m = int(np.prod(sciax.eval_shape(f, x0).shape))
            zero = np.zeros(m)
            if kind == "eq":
                pieces.append(_piece_from_bounds(f, jf, zero, zero, m))
            else:
                pieces.append(_piece_from_bounds(f, jf, zero, np.inf, m))
        elif isinstance(c, NonlinearConstraint):
            f = (lambda fun: lambda x: snp.ravel(snp.asarray(fun(x))))(c.fun)
            jf = c.jac if callable(c.jac) else None
            m = int(np.prod(sciax.eval_shape(f, x0).shape))
            pieces.append(_piece_from_bounds(f, jf, c.lb, c.ub, m))
        elif isinstance(c, LinearConstraint):
            A = c.A
            if A.shape[1] != n:
                raise ValueError(f"LinearConstraint: A has {A.shape[1]} columns, x0 "
                                 f"has {n} entries")
            f = (lambda A: lambda x: snp.asarray(A, x.dtype) @ x)(A)
            jf = (lambda A: lambda x: snp.asarray(A, x.dtype))(A)
            pieces.append(_piece_from_bounds(f, jf, c.lb, c.ub, A.shape[0]))
        else:
            raise TypeError(f"constraints must be dicts, NonlinearConstraint or "
                            f"LinearConstraint objects, got {type(c).__name__}")
    return tuple(pieces)


def cache_key(constraints: Any) -> Any:
    """A hashable key of SciPy-style constraints (functions by identity,
    arrays by value), so equal specifications share one compiled program."""
    if constraints is None:
        return ()
    if isinstance(constraints, (dict, NonlinearConstraint, LinearConstraint)):
        constraints = [constraints]
    out = []
    for c in constraints:
        if isinstance(c, dict):
            out.append(("dict", c.get("type"), c.get("fun"), c.get("jac"),
                        tuple(c.get("args", ()))))
        elif isinstance(c, NonlinearConstraint):
            out.append(("nl", c.fun, c.jac if callable(c.jac) else None,
                        c.lb.tobytes(), c.lb.shape, c.ub.tobytes(), c.ub.shape))
        elif isinstance(c, LinearConstraint):
            out.append(("lin", c.A.tobytes(), c.A.shape, c.lb.tobytes(), c.lb.shape,
                        c.ub.tobytes(), c.ub.shape))
        else:
            out.append(c)
    return tuple(out)


def sizes(pieces) -> tuple[int, int]:
    """``(number of equalities, number of inequalities)``."""
    me = sum(len(p.eq_rows) for p in pieces)
    mi = sum(len(p.lo_rows) + len(p.up_rows) for p in pieces)
    return me, mi


def evaluate(pieces, x, with_jac: bool = True):
    """``(c_eq, c_in, J_eq, J_in)`` at ``x`` (Jacobians ``None`` if not asked)."""
    n = x.shape[0]
    ce, ci, je, ji = [], [], [], []
    for p in pieces:
        v = p.fun(x).astype(x.dtype)
        J = None
        if with_jac:
            if p.jac is not None:
                J = snp.asarray(p.jac(x), x.dtype).reshape(v.shape[0], n)
            else:
                J = sciax.jacfwd(p.fun)(x).reshape(v.shape[0], n).astype(x.dtype)
        if len(p.eq_rows):
            ce.append(v[p.eq_rows] - snp.asarray(p.eq_target, x.dtype))
            if with_jac:
                je.append(J[p.eq_rows])
        if len(p.lo_rows):
            ci.append(v[p.lo_rows] - snp.asarray(p.lo, x.dtype))
            if with_jac:
                ji.append(J[p.lo_rows])
        if len(p.up_rows):
            ci.append(snp.asarray(p.up, x.dtype) - v[p.up_rows])
            if with_jac:
                ji.append(-J[p.up_rows])

    def cat(parts, shape):
        return snp.concatenate(parts) if parts else snp.zeros(shape, x.dtype)

    c_eq = cat(ce, (0,))
    c_in = cat(ci, (0,))
    if not with_jac:
        return c_eq, c_in, None, None
    return c_eq, c_in, cat(je, (0, n)), cat(ji, (0, n))
