"""Mixed-integer linear programming: ``milp`` by branch and bound over the LP
relaxations of :func:`linprog`'s interior-point method.

SciPy's ``milp`` calls HiGHS (presolve, cuts, heuristics, dual simplex with
warm starts).  sciax runs a plain LP-based branch and bound as one compiled
``lax.while_loop``: the open nodes are a fixed-capacity stack of bound vectors
in arrays, each iteration pops one node, solves its LP relaxation with the
homogeneous self-dual interior-point method of ``linprog`` (whose standard
form here keeps the node bounds as traced arrays, so every node runs the same
compiled LP), prunes by the incumbent and branches on the most fractional
integer variable.  Nodes are taken depth-first until an incumbent exists
(diving finds feasible points early), best-bound first afterwards (which
proves optimality with the fewest nodes), and depth-first again while the
stack is more than half full (a dive adds at most one open node per level).

One compiled loop rather than a host loop of compiled LP solves: no
host-device round trip per node, and ``milp`` runs under ``jit`` and ``vmap``
(e.g. over a batch of cost vectors), at the price of a bounded node stack
(``options['node_stack']``).
"""

from __future__ import annotations

import warnings

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import register_result
from sciax.optimize._constraints import LinearConstraint
from sciax.optimize._linprog import (LinprogResult, _build, _hsd_core, _print_message,
                                     _std_layout)
from sciax.optimize._util import Bounds

_MESSAGES = {
    0: "Optimization terminated successfully.",
    1: "Node limit reached (options 'node_limit' or 'node_stack').",
    2: "The problem is infeasible.",
    3: "The problem is unbounded.",
    4: "Numerical difficulties encountered in an LP relaxation (a node was "
       "dropped unexplored; x, where not NaN, is the best integer point found).",
}

_INT_TOL = 1e-6  # HiGHS's mip_feasibility_tolerance
# node LPs stop at 1e-9 (at 1e-10 the interior-point method can stall on
# degenerate nodes, a few iterations short); a node that stalls is solved again
# at 1e-7, and the incumbent's LP is polished at 1e-10 at the end
_LP_TOLS = (1e-9, 1e-7, 1e-10)
_LP_MAXITER = 200


class MilpResult(LinprogResult):
    """:class:`OptimizeResult` of :func:`milp`: ``message`` follows
    ``status`` (milp's messages) and ``success`` is ``status == 0``, as
    :func:`linprog`'s (per lane under ``vmap``)."""

    status_messages = _MESSAGES


register_result(MilpResult)


# --- input validation (SciPy's _milp_iv) ----------------------------------------------


def _constraint_rows(constraints, n):
    message = ("`constraints` (or each element within `constraints`) must be "
               "convertible into an instance of "
               "`scipy.optimize.LinearConstraint`.")

    def one(con):
        if not (hasattr(con, "A") and hasattr(con, "lb") and hasattr(con, "ub")):
            try:
                con = LinearConstraint(*con)
            except (TypeError, ValueError) as err:
                raise ValueError(message) from err
        A = np.atleast_2d(np.asarray(con.A, float))
        m = A.shape[0]
        try:
            lo = np.broadcast_to(np.asarray(con.lb, float), (m,))
            hi = np.broadcast_to(np.asarray(con.ub, float), (m,))
        except ValueError as err:
            raise ValueError("The shape of `A` must be (len(b_l), len(c)).") from err
        return A, lo, hi

    if not constraints:
        return np.zeros((0, n)), np.zeros(0), np.zeros(0)
    if hasattr(constraints, "A"):
        constraints = [constraints]
    else:
        try:
            iter(constraints)
        except TypeError as err:
            raise ValueError(message) from err
        if len(constraints) == 3 and not any(hasattr(c, "A") for c in constraints):
            try:
                constraints = [LinearConstraint(*constraints)]
            except (TypeError, ValueError):
                pass
    parts = [one(con) for con in constraints]
    A = np.concatenate([p[0] for p in parts], axis=0) if parts else np.zeros((0, n))
    lo = np.concatenate([p[1] for p in parts])
    hi = np.concatenate([p[2] for p in parts])
    if A.shape != (lo.size, n):
        raise ValueError("The shape of `A` must be (len(b_l), len(c)).")
    return A, lo, hi


def _milp_iv(c, integrality, bounds, constraints, options):
    c = snp.atleast_1d(snp.asarray(c))
    if c.ndim != 1 or c.shape[0] == 0:
        raise ValueError("`c` must be a one-dimensional array of finite numbers "
                         "with at least one element.")
    try:
        finite = bool(np.all(np.isfinite(np.asarray(c, float))))
    except Exception:  # traced: no host value to check
        finite = True
    if not finite:
        raise ValueError("`c` must be a one-dimensional array of finite numbers "
                         "with at least one element.")
    n = c.shape[0]
    message = ("`integrality` must contain integers 0-3 and be broadcastable to "
               "`c.shape`.")
    try:
        integ = np.broadcast_to(np.asarray(0 if integrality is None else integrality),
                                (n,)).astype(np.int64)
    except (ValueError, TypeError) as err:
        raise ValueError(message) from err
    if integ.min() < 0 or integ.max() > 3:
        raise ValueError(message)
    if bounds is None:
        bounds = Bounds(0, np.inf)
    elif not isinstance(bounds, Bounds) and not (hasattr(bounds, "lb")
                                                 and hasattr(bounds, "ub")):
        try:
            bounds = Bounds(*bounds)
        except TypeError as err:
            raise ValueError("`bounds` must be convertible into an instance of "
                             "`scipy.optimize.Bounds`.") from err
    try:
        lb = np.broadcast_to(np.asarray(bounds.lb, float), (n,)).copy()
        ub = np.broadcast_to(np.asarray(bounds.ub, float), (n,)).copy()
    except (ValueError, TypeError) as err:
        raise ValueError("`bounds.lb` and `bounds.ub` must contain reals and be "
                         "broadcastable to `c.shape`.") from err
    try:
        A, lo, hi = _constraint_rows(constraints, n)
    except ValueError as err:
        if "shape of `A`" in str(err):
            raise
        raise ValueError("`constraints` (or each element within `constraints`) "
                         "must be convertible into an instance of "
                         "`scipy.optimize.LinearConstraint`.") from err
    options = dict(options or {})
    unknown = set(options) - {"disp", "presolve", "time_limit", "node_limit",
                              "mip_rel_gap", "node_stack"}
    if unknown:
        warnings.warn(f"Unrecognized options detected: {unknown}. These will be "
                      "passed to HiGHS verbatim.", RuntimeWarning, stacklevel=3)
    return c, integ, lb, ub, A, lo, hi, options


# --- the node LP: linprog's standard form with traced bounds --------------------------


def _node_lp_factory(lbf, ubf, A_ub, b_ub, A_eq, b_eq):
    """The LP relaxation at node bounds ``(nlb, nub)`` as a function of
    ``(c, nlb, nub)``.  The standard form's shape follows the root bounds'
    pattern (``lbf``, ``ubf``: which are finite): a column shifted by a finite
    lower bound, reflected about a finite upper bound, or split; branching
    only makes bounds finite, so a shifted or reflected column's offset stays
    finite and its new upper bound enters as a traced mask, and a free
    variable gets two inequality rows that are all zero (and inactive) while
    their bound is infinite."""
    n = lbf.size
    T, _, _, _ = _std_layout(np.where(lbf, 0.0, -np.inf),
                             np.where(ubf, 1.0, np.inf))
    nc = T.shape[1]
    col_var = np.argmax(np.abs(T), axis=0)
    kind = np.where(lbf[col_var], 0, np.where(ubf[col_var], 1, 2))
    free_int = np.flatnonzero(~lbf & ~ubf)
    E = np.zeros((free_int.size, n))
    E[np.arange(free_int.size), free_int] = 1.0

    def solve(c, nlb, nub, tol):
        dt = c.dtype
        # a fixed variable (a branch closed its range) leaves the LP: its
        # columns are zeroed and its value is the offset (an interior-point
        # method cannot keep x and its bound slack both positive in [0, 0])
        fixed = nlb == nub
        offset = snp.where(lbf, nlb, snp.where(ubf, nub, 0.0))
        offset = snp.where(fixed, nlb, snp.where(snp.isfinite(offset), offset, 0.0))
        Tm = snp.asarray(T, dt) * (~fixed[col_var]).astype(dt)[None, :]
        lo_c, hi_c = nlb[col_var], nub[col_var]
        has_u = snp.where(kind == 0, snp.isfinite(hi_c),
                          snp.where(kind == 1, snp.isfinite(lo_c), False))
        has_u = has_u | fixed[col_var]
        u = snp.where(fixed[col_var], 1.0, snp.where(has_u, hi_c - lo_c, 0.0))
        Au, bu = A_ub, b_ub
        if free_int.size:
            on_u = snp.isfinite(nub[free_int]) & ~fixed[free_int]
            on_l = snp.isfinite(nlb[free_int]) & ~fixed[free_int]
            Ej = snp.asarray(E, dt)
            rows = snp.concatenate([Ej * on_u[:, None], -Ej * on_l[:, None]])
            rhs = snp.concatenate([snp.where(on_u, nub[free_int], 1.0),
                                   snp.where(on_l, -nlb[free_int], 1.0)])
            Au = rows if Au is None else snp.concatenate([Au, rows])
            bu = rhs if bu is None else snp.concatenate([bu, rhs])
        A, b, cs, _ = _build(c, Au, bu, A_eq, b_eq, Tm, offset, dt)
        m_ub = 0 if Au is None else Au.shape[0]
        uvec = snp.concatenate([u, snp.zeros(m_ub, dt)])
        umask = snp.concatenate([has_u.astype(dt), snp.zeros(m_ub, dt)])
        rn = snp.linalg.norm(A, axis=1)
        rn = snp.where(rn > 0, rn, 1.0)
        xs, _, _, _, tau, _, _, st = _hsd_core(A / rn[:, None], b / rn, cs, uvec,
                                               umask, _LP_MAXITER, tol)
        x = Tm @ (xs[:nc] / tau) + offset
        return x, c @ x, st

    return solve


# --- branch and bound -----------------------------------------------------------------


def _branch_and_bound(c, lp, lb0, ub0, integ, slb, sub, node_limit, cap, gap):
    """One ``lax.while_loop`` over a node stack of capacity ``cap``; returns the
    incumbent, the dual bound, the node count and the status."""
    n = c.shape[0]
    dt = c.dtype
    is_int = (integ == 1) | (integ == 3)
    is_semi = integ >= 2
    slb_j, sub_j = slb, sub
    idx = snp.arange(cap)
    inf = snp.asarray(snp.inf, dt)

    def cutoff(inc_f):
        tol = snp.maximum(gap * snp.abs(inc_f), 1e-9 * snp.maximum(1.0, snp.abs(inc_f)))
        return snp.where(snp.isfinite(inc_f), inc_f - tol, inf)

    def polish_bounds(inc_x):
        zero = is_semi & (inc_x == 0)
        p_lb = snp.where(is_int | zero, inc_x, snp.where(is_semi, slb_j, lb0))
        p_ub = snp.where(is_int | zero, inc_x, snp.where(is_semi, sub_j, ub0))
        return p_lb, p_ub

    def body(s):
        (S_lb, S_ub, S_bd, sp, inc_x, inc_f, lost, nodes, unb, trouble, full,
         retry, polished) = s
        # three kinds of iteration, one LP solve each (one copy of the
        # interior-point method in the program): a node popped from the stack;
        # the same node again at a looser tolerance after its LP stalled
        # (``retry``); and, once the stack is empty, the incumbent's LP with its
        # integers fixed at the tightest tolerance (``polish``)
        polish = sp == 0
        have = snp.isfinite(inc_f)
        best = snp.argmin(snp.where(idx < sp, S_bd, inf))
        pick = snp.where(retry, sp - 1,
                         snp.where(have & (2 * sp <= cap), best, sp - 1))
        pick = snp.maximum(pick, 0)
        top = snp.maximum(sp - 1, 0)
        nlb, nub, bd = S_lb[pick], S_ub[pick], S_bd[pick]
        S_lb = S_lb.at[pick].set(S_lb[top]).at[top].set(nlb)
        S_ub = S_ub.at[pick].set(S_ub[top]).at[top].set(nub)
        S_bd = S_bd.at[pick].set(S_bd[top]).at[top].set(inf)
        sp = top
        p_lb, p_ub = polish_bounds(inc_x)
        nlb = snp.where(polish, p_lb, nlb)
        nub = snp.where(polish, p_ub, nub)
        tol = snp.where(polish, _LP_TOLS[2], snp.where(retry, _LP_TOLS[1],
                                                       _LP_TOLS[0]))
        empty = snp.any(nlb > nub)
        x, f, st = lp(c, nlb, snp.where(empty, nlb, nub), tol.astype(dt))
        st = snp.where(empty, 2, st)
        nodes = nodes + (~polish).astype(nodes.dtype)  # polishing is no node
        stalled = (st == 1) | (st == 4)
        again = stalled & ~retry & ~polish
        normal = ~polish & ~again
        # the polished incumbent: same integers, continuous part more accurate
        pol_ok = polish & (st == 0) & (f <= inc_f + 1e-9 * snp.maximum(
            1.0, snp.abs(inc_f)))
        inc_px = snp.where(is_int, inc_x, x)
        inc_x = snp.where(pol_ok, inc_px, inc_x)
        inc_f = snp.where(pol_ok, c @ inc_px, inc_f)
        polished = polished | polish
        unb = unb | (normal & (st == 3))
        trouble = trouble + (normal & stalled).astype(snp.int32)
        ok = normal & (st == 0)
        cut = cutoff(inc_f)
        lost = snp.where(ok & (f >= cut) & (f < inc_f), snp.minimum(lost, f), lost)
        live = ok & (f < cut)
        x = snp.clip(x, nlb, nub)
        frac = x - snp.floor(x)
        score = snp.where(is_int, snp.minimum(frac, 1.0 - frac), 0.0)
        semi_bad = is_semi & (snp.abs(x) > _INT_TOL) & (
            (x < slb_j - _INT_TOL) | (x > sub_j + _INT_TOL))
        score = snp.where(semi_bad, 1.0, score)
        j = snp.argmax(score)
        feasible = score[j] <= _INT_TOL
        xr = snp.where(is_int, snp.round(x), x)
        new_inc = live & feasible
        fr = c @ xr
        inc_x = snp.where(new_inc, xr, inc_x)
        inc_f = snp.where(new_inc, fr, inc_f)
        branch = live & ~feasible
        full = full | (branch & (sp + 2 > cap))
        branch = branch & (sp + 2 <= cap)
        xj = x[j]
        semi = semi_bad[j]
        # down child: x_j <= floor(x_j), or x_j = 0 for a semi variable
        d_lb = nlb.at[j].set(snp.where(semi, 0.0, nlb[j]))
        d_ub = nub.at[j].set(snp.where(semi, 0.0, snp.floor(xj)))
        u_lb = nlb.at[j].set(snp.where(semi, snp.maximum(nlb[j], slb_j[j]),
                                       snp.ceil(xj)))
        u_ub = nub.at[j].set(snp.where(semi, snp.minimum(nub[j], sub_j[j]), nub[j]))
        # the child on the rounding side goes on top (explored first); a
        # stalled node goes back on top for its retry
        up_first = (xj - snp.floor(xj) >= 0.5) & ~semi
        first_lb = snp.where(up_first, u_lb, d_lb)
        first_ub = snp.where(up_first, u_ub, d_ub)
        second_lb = snp.where(up_first, d_lb, u_lb)
        second_ub = snp.where(up_first, d_ub, u_ub)
        i0 = snp.minimum(sp, cap - 1)
        i1 = snp.minimum(sp + 1, cap - 1)
        S_lb = snp.where(branch, S_lb.at[i0].set(second_lb).at[i1].set(first_lb),
                         snp.where(again, S_lb.at[i0].set(nlb), S_lb))
        S_ub = snp.where(branch, S_ub.at[i0].set(second_ub).at[i1].set(first_ub),
                         snp.where(again, S_ub.at[i0].set(nub), S_ub))
        S_bd = snp.where(branch, S_bd.at[i0].set(f).at[i1].set(f),
                         snp.where(again, S_bd.at[i0].set(bd), S_bd))
        sp = sp + 2 * branch.astype(sp.dtype) + again.astype(sp.dtype)
        # drop the open nodes the incumbent has cut off, keeping the order
        cut = cutoff(inc_f)
        keep = (idx < sp) & (S_bd < cut)
        gone = (idx < sp) & ~keep
        lost = snp.minimum(lost, snp.min(snp.where(gone & (S_bd < inc_f), S_bd, inf)))
        order = snp.argsort(snp.where(keep, idx, cap + idx))
        S_lb, S_ub, S_bd = S_lb[order], S_ub[order], S_bd[order]
        sp = snp.sum(keep).astype(sp.dtype)
        return (S_lb, S_ub, S_bd, sp, inc_x, inc_f, lost, nodes, unb, trouble, full,
                again, polished)

    def cond(s):
        sp, inc_f, nodes, unb, full, polished = s[3], s[5], s[7], s[8], s[10], s[12]
        pending = (sp > 0) | (snp.isfinite(inc_f) & ~polished)
        return pending & ((nodes < node_limit) | (sp == 0)) & ~unb & ~full

    S_lb = snp.zeros((cap, n), dt).at[0].set(snp.asarray(lb0, dt))
    S_ub = snp.zeros((cap, n), dt).at[0].set(snp.asarray(ub0, dt))
    S_bd = snp.full((cap,), inf, dt).at[0].set(-inf)
    zero = snp.asarray(0, snp.int32)
    false = snp.asarray(False)
    state = (S_lb, S_ub, S_bd, snp.asarray(1, snp.int32), snp.full((n,), snp.nan, dt),
             inf, inf, zero, false, zero, false, false, false)
    (S_lb, S_ub, S_bd, sp, inc_x, inc_f, lost, nodes, unb, trouble,
     full, _, _) = lax.while_loop(cond, body, state)
    have = snp.isfinite(inc_f)
    open_min = snp.min(snp.where(idx < sp, S_bd, inf))
    dual = snp.minimum(snp.minimum(inc_f, lost), open_min)
    # a node whose LP failed was dropped unexplored: no proof of optimality
    status = snp.where(
        unb, 3, snp.where((sp > 0) | full, 1, snp.where(
            trouble > 0, 4, snp.where(have, 0, 2))))
    fun = snp.where(have & ~unb, inc_f, snp.nan)
    x = snp.where(have & ~unb, inc_x, snp.nan)
    dual = snp.where(unb, snp.nan, snp.where(have | (sp > 0), dual, snp.nan))
    mip_gap = snp.where(fun == dual, 0.0, (fun - dual) / snp.abs(fun))
    return x, fun, dual, mip_gap, nodes, status.astype(snp.int32)


_SOLVERS = {}


def _get_solver(lbf, ubf, row_kind, cap):
    """The compiled solver for one layout: which root bounds are finite, which
    constraint rows are equalities, upper-, lower- or two-sided (``row_kind``)
    and the stack capacity; the numbers themselves are traced."""
    key = (lbf.tobytes(), ubf.tobytes(), row_kind.tobytes(), cap)
    fn = _SOLVERS.get(key)
    if fn is not None:
        return fn
    eq = np.flatnonzero(row_kind == 0)
    up = np.flatnonzero((row_kind == 1) | (row_kind == 3))
    dn = np.flatnonzero((row_kind == 2) | (row_kind == 3))

    def run(c, lb, ub, integ, slb, sub, A, lo, hi, node_limit, gap):
        dt = c.dtype
        A_ub = snp.concatenate([A[up], -A[dn]])
        b_ub = snp.concatenate([hi[up], -lo[dn]])
        A_eq, b_eq = A[eq], lo[eq]
        some = lambda a: a if a.shape[0] else None  # noqa: E731
        lp = _node_lp_factory(lbf, ubf, some(A_ub), some(b_ub), some(A_eq), some(b_eq))
        return _branch_and_bound(c, lp, lb, ub, integ, slb, sub, node_limit, cap,
                                 gap.astype(dt))

    fn = sciax.jit(run)
    if len(_SOLVERS) > 32:
        _SOLVERS.clear()
    _SOLVERS[key] = fn
    return fn


def milp(c, *, integrality=None, bounds=None, constraints=None, options=None):
    r"""Mixed-integer linear programming.

    sciax implementation of :func:`scipy.optimize.milp`::

        min_x  c @ x
        such that  b_l <= A @ x <= b_u,  l <= x <= u,
                   x_i integer for the integral variables.

    Parameters
    ----------
    c : 1-D array_like
        Coefficients of the linear objective (may be traced).
    integrality : 1-D array_like, optional
        Per variable: ``0`` continuous (default), ``1`` integer, ``2``
        semi-continuous (``0`` or within ``bounds``), ``3`` semi-integer
        (``0`` or an integer within ``bounds``); broadcast to ``c.shape``.
    bounds : Bounds or (lb, ub), optional
        Bounds on ``x``; default ``0 <= x < inf``.  Concrete.
    constraints : LinearConstraint, (A, b_l, b_u) or a sequence of them, optional
        ``b_l <= A @ x <= b_u`` (dense, concrete); a row with ``b_l == b_u``
        is an equality.
    options : dict, optional
        ``node_limit`` (most LP relaxations solved; default 100000),
        ``mip_rel_gap`` (stop proving once the incumbent is within this
        relative gap of the dual bound; default 1e-4, HiGHS's), ``disp``
        (prints the message), ``node_stack`` (sciax: capacity of the open-node
        stack, default 512), ``presolve`` and ``time_limit`` (accepted and
        ignored: there is no presolve, and a compiled loop cannot read a
        clock; bound the work with ``node_limit``).  Others warn, as SciPy's.

    Returns
    -------
    res : OptimizeResult
        ``x``, ``fun``, ``status`` (0 optimal, 1 node limit, 2 infeasible, 3
        unbounded, 4 numerical difficulties), ``message``, ``success``,
        ``mip_node_count`` (LP relaxations solved), ``mip_dual_bound`` (the
        least bound of the nodes not explored, or ``fun``) and ``mip_gap``
        (``(fun - mip_dual_bound) / |fun|``).  Where SciPy returns ``None``
        (no feasible point), these are NaN, which keeps the result a
        fixed-shape pytree.

    Notes
    -----
    *Algorithm.*  LP-based branch and bound, compiled as one ``lax.while_loop``
    (module docstring): LP relaxations by :func:`linprog`'s interior-point
    method, most-fractional branching (a semi-continuous variable strictly
    between 0 and its bounds is branched first, into ``x = 0`` and its
    bounds), depth-first node selection until an incumbent is found, then
    best-bound.  A value within 1e-6 of an integer counts as integral
    (HiGHS's feasibility tolerance), and the integer components of ``x`` are
    rounded exactly.

    *Differences from SciPy.*  HiGHS adds presolve, cutting planes and
    primal heuristics; this solver has none of them, so it needs many more
    nodes on hard instances (it suits small and medium problems), and it
    counts nodes differently (``mip_node_count``).  Where several optimal
    ``x`` exist it may return another one with the same ``fun``.  An
    unbounded relaxation gives status 3 (HiGHS reports 4, "unbounded or
    infeasible", for an unbounded MILP).  ``time_limit`` is ignored.

    *Transformations.*  ``c`` may be traced: ``milp`` runs under ``jit`` and
    ``vmap`` (a batch of cost vectors runs until the slowest lane is done).
    Bounds, constraints and integrality are concrete (they fix the compiled
    program).  No derivatives (the solution is piecewise constant in ``c``).

    Examples
    --------
    SciPy's example (Wikipedia's integer-programming example):

    >>> from sciax.optimize import milp, LinearConstraint
    >>> c = -np.array([0, 1])
    >>> A = np.array([[-1, 1], [3, 2], [2, 3]])
    >>> cons = LinearConstraint(A, -np.inf, [1, 12, 12])
    >>> res = milp(c, constraints=cons, integrality=np.ones_like(c))
    >>> print(res.status, round(float(res.fun), 9))
    0 -2.0

    ``x = (1, 2)`` and ``(2, 2)`` tie; SciPy returns the first, sciax the second:

    >>> print(np.asarray(res.x))
    [2. 2.]
    >>> print(res.message)
    Optimization terminated successfully.
    """
    c, integ, lb, ub, A, lo, hi, options = _milp_iv(c, integrality, bounds,
                                                     constraints, options)
    node_limit = options.get("node_limit")
    node_limit = 100000 if node_limit is None else int(node_limit)
    gap = options.get("mip_rel_gap")
    gap = 1e-4 if gap is None else float(gap)
    cap = int(options.get("node_stack", 512))
    if cap < 2:
        raise ValueError("milp: options['node_stack'] must be at least 2")
    disp = bool(options.get("disp", False))
    dt = snp.result_type(c, 1.0)
    c = c.astype(dt)
    n = c.shape[0]
    if np.any(np.isnan(lb)) or np.any(np.isnan(ub)):
        raise ValueError("`bounds.lb` and `bounds.ub` must contain reals and be "
                         "broadcastable to `c.shape`.")
    # integer bounds rounded inwards; a semi variable relaxes to [min(0, l), max(0, u)]
    isint = (integ == 1) | (integ == 3)
    lb = np.where(isint, np.ceil(lb - _INT_TOL), lb)
    ub = np.where(isint, np.floor(ub + _INT_TOL), ub)
    slb, sub = lb.copy(), ub.copy()
    semi = integ >= 2
    lb = np.where(semi, np.minimum(lb, 0.0), lb)
    ub = np.where(semi, np.maximum(ub, 0.0), ub)
    if np.any(lb > ub) or np.any(lb == np.inf) or np.any(ub == -np.inf):
        nan = snp.full((n,), snp.nan, dt)
        res = MilpResult(x=nan, fun=snp.asarray(snp.nan, dt),
                         mip_node_count=snp.asarray(0, snp.int32),
                         mip_dual_bound=snp.asarray(snp.nan, dt),
                         mip_gap=snp.asarray(snp.nan, dt),
                         status=snp.asarray(2, snp.int32))
    else:
        keep = np.isfinite(lo) | np.isfinite(hi)
        A, lo, hi = A[keep], lo[keep], hi[keep]
        row_kind = np.where(lo == hi, 0, np.where(
            np.isfinite(lo), np.where(np.isfinite(hi), 3, 2), 1)).astype(np.int8)
        arr = lambda a: snp.asarray(a, dt)  # noqa: E731
        x, fun, dual, mgap, nodes, status = _get_solver(
            np.isfinite(lb), np.isfinite(ub), row_kind, cap)(
            c, arr(lb), arr(ub), snp.asarray(integ, snp.int32), arr(slb), arr(sub),
            arr(A), arr(lo), arr(hi), snp.asarray(node_limit, snp.int32), arr(gap))
        res = MilpResult(x=x, fun=fun, mip_node_count=nodes, mip_dual_bound=dual,
                         mip_gap=mgap, status=status)
    if disp:
        _print_message(res)
    return res
