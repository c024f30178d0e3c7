"""The linear sum assignment problem: ``linear_sum_assignment``.

Shortest augmenting paths with dual variables (Jonker and Volgenant's idea, in
the rectangular form of Crouse, "On implementing 2D rectangular assignment
algorithms", IEEE Trans. Aerospace and Electronic Systems 52, 2016, which
SciPy's C++ follows): one row is added at a time, a Dijkstra search on the
reduced costs ``cost[i, j] - u[i] - v[j]`` finds the cheapest path to a free
column, the duals are updated and the path is flipped.  Each search is a
``lax.while_loop`` over columns, vectorised along the row, inside a
``lax.fori_loop`` over the rows, so the solve compiles once per shape.
"""

from __future__ import annotations

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax


def _lsap_core(cost):
    """Assign each of the ``nr <= nc`` rows; returns ``(col4row, feasible)``."""
    nr, nc = cost.shape
    dt = cost.dtype
    inf = snp.asarray(snp.inf, dt)

    def add_row(cur, carry):
        u, v, col4row, row4col, ok = carry

        # Dijkstra on the reduced costs from row `cur` to the first free column
        def search_cond(s):
            return (s[-1] < 0) & s[-2]

        def search_body(s):
            i, min_val, spc, path, SR, SC, feas, sink = s
            SR = SR.at[i].set(True)
            r = min_val + cost[i] - u[i] - v
            upd = (~SC) & (r < spc)
            path = snp.where(upd, i, path)
            spc = snp.where(upd, r, spc)
            masked = snp.where(SC, inf, spc)
            lowest = snp.min(masked)
            cand = (~SC) & (masked == lowest)
            free = cand & (row4col < 0)
            j = snp.where(snp.any(free), snp.argmax(free), snp.argmax(cand))
            feas = feas & snp.isfinite(lowest)
            SC = SC.at[j].set(True)
            done = row4col[j] < 0
            sink = snp.where(done, j, -1)
            i = snp.where(done, i, row4col[j])
            return i, lowest, spc, path, SR, SC, feas, sink

        s0 = (cur, snp.asarray(0.0, dt), snp.full(nc, inf), snp.full(nc, -1),
              snp.zeros(nr, bool), snp.zeros(nc, bool), snp.asarray(True),
              snp.asarray(-1))
        _, min_val, spc, path, SR, SC, feas, sink = lax.while_loop(
            search_cond, search_body, s0)
        # dual update
        rows = snp.arange(nr)
        spc_row = spc[snp.clip(col4row, 0, nc - 1)]
        du = snp.where(rows == cur, min_val,
                       snp.where(SR, min_val - spc_row, 0.0))
        u = u + snp.where(feas, du, 0.0)
        v = v - snp.where(feas & SC, min_val - spc, 0.0)

        # flip the path back from the sink
        def aug_cond(a):
            return a[-1]

        def aug_body(a):
            j, col4row, row4col, _ = a
            i = path[j]
            row4col = row4col.at[j].set(i)
            old = col4row[i]
            col4row = col4row.at[i].set(j)
            return old, col4row, row4col, i != cur

        sink_ok = snp.where(feas & (sink >= 0), sink, 0)
        a0 = (sink_ok, col4row, row4col, feas & (sink >= 0))
        _, col4row, row4col, _ = lax.while_loop(aug_cond, aug_body, a0)
        return u, v, col4row, row4col, ok & feas

    carry = (snp.zeros(nr, dt), snp.zeros(nc, dt), snp.full(nr, -1),
             snp.full(nc, -1), snp.asarray(True))
    _, _, col4row, _, ok = lax.fori_loop(0, nr, add_row, carry)
    return col4row, ok


_LSAP_JIT = sciax.jit(_lsap_core)


def linear_sum_assignment(cost_matrix, maximize=False):
    """Solve the linear sum assignment problem.

    sciax implementation of :func:`scipy.optimize.linear_sum_assignment`: find
    the one-to-one assignment of rows to columns (each row to at most one
    column and each column to at most one row, ``min(nr, nc)`` pairs) of least
    total cost ``cost_matrix[row_ind, col_ind].sum()``.

    Parameters
    ----------
    cost_matrix : (nr, nc) array_like
        The cost matrix; ``inf`` forbids a pair.
    maximize : bool, optional
        Maximize the total instead (default False).

    Returns
    -------
    row_ind, col_ind : ndarray of int
        The assigned rows (sorted) and their columns.

    Raises
    ------
    ValueError
        If the matrix has NaN or ``-inf`` entries (``+inf`` when maximizing),
        or no complete assignment of finite cost exists.

    Notes
    -----
    Shortest augmenting paths with duals (Crouse 2016, as SciPy), exact for
    real and integer costs; ``O(nr**2 nc)``.  The optimal cost always equals
    SciPy's; when several assignments are optimal the one returned may differ
    (ties are broken by the lowest column index).  The search compiles once per
    shape; the function itself runs eagerly (it raises on infeasible input).

    Examples
    --------
    >>> from sciax.optimize import linear_sum_assignment
    >>> cost = np.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    >>> row_ind, col_ind = linear_sum_assignment(cost)
    >>> print(np.asarray(col_ind), int(cost[np.asarray(row_ind), np.asarray(col_ind)].sum()))
    [1 0 2] 5
    """
    c = np.asarray(cost_matrix)
    if c.ndim != 2:
        raise ValueError(f"expected a matrix (2-D array), got a {c.ndim} array")
    if not (np.issubdtype(c.dtype, np.number) or c.dtype == np.dtype(bool)):
        raise ValueError(f"expected a matrix containing numerical entries, got "
                         f"{c.dtype}")
    c = c.astype(float)
    if maximize:
        c = -c
    if np.any(np.isnan(c)) or np.any(c == -np.inf):
        raise ValueError("matrix contains invalid numeric entries")
    transposed = c.shape[1] < c.shape[0]
    if transposed:
        c = c.T
    nr, nc = c.shape
    if nr == 0:
        e = snp.asarray(np.zeros(0, dtype=np.intp))
        return e, e
    col4row, ok = _LSAP_JIT(snp.asarray(c))
    if not bool(ok):
        raise ValueError("cost matrix is infeasible")
    col4row = np.asarray(col4row)
    rows = np.arange(nr)
    if transposed:
        order = np.argsort(col4row)
        return snp.asarray(col4row[order]), snp.asarray(rows[order])
    return snp.asarray(rows), snp.asarray(col4row)
