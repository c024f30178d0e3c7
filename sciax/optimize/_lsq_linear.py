"""Linear least squares with bounds: ``nnls`` and ``lsq_linear``.

``nnls`` is Lawson and Hanson's active-set method (*Solving Least Squares
Problems*, SIAM 1995, ch. 23) and ``lsq_linear`` Stark and Parker's
bounded-variable least squares (BVLS, *Computational Statistics* 10, 1995,
as SciPy's ``method='bvls'``), each as ``lax.while_loop`` over a mask of the
free variables, so both work under ``jit`` and ``vmap``.  The subproblem on
the free variables is solved by ``lstsq`` on the matrix with the other
columns zeroed (its minimum-norm solution is zero there).

Derivatives: the solution is re-expressed, with the final active set held
fixed, through the normal equations on the free variables; the value is the
loop's, the derivative that of this expression (the implicit function theorem
for a fixed active set, valid away from degenerate sets).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import StatusCodedResult
from sciax.optimize._util import Bounds

_MESSAGES = {
    -1: "The algorithm was not able to make progress on the last iteration.",
    0: "The maximum number of iterations is exceeded.",
    1: "The first-order optimality measure is less than `tol`.",
    2: "The relative change of the cost function is less than `tol`.",
    3: "The unconstrained solution is optimal.",
}


class LsqLinearResult(StatusCodedResult):
    """:class:`OptimizeResult` of :func:`lsq_linear`: ``message`` and
    ``success`` follow ``status`` (per lane under ``vmap``)."""

    status_messages = _MESSAGES


def _check_dense(A, name):
    if hasattr(A, "matvec") or hasattr(A, "tocsr") or "sparse" in type(
            A).__module__:
        raise TypeError(f"{name}: `A` must be a dense array; sparse matrices and "
                        f"LinearOperators are not supported by sciax (convert with "
                        f"A.toarray() / A @ np.eye(n))")


def _asarray(v):
    return v if hasattr(v, "dtype") and hasattr(v, "shape") and not isinstance(
        v, np.ndarray) else snp.asarray(np.asarray(v, float))


def _free_solve(A, b, free):
    """Least squares on the free columns (the others zeroed)."""
    return snp.linalg.lstsq(A * free[None, :].astype(A.dtype), b)[0]


def _fixed_set_solution(A, b, free, xfix):
    """The solution for a fixed active set, as a differentiable expression:
    normal equations on the free variables, ``xfix`` elsewhere."""
    f = free.astype(A.dtype)
    G = (A.T @ A) * snp.outer(f, f) + snp.diag(1.0 - f)
    rhs = (A.T @ (b - A @ (xfix * (1.0 - f)))) * f
    return snp.linalg.solve(G, rhs) * f + xfix * (1.0 - f)


# --- nnls ---------------------------------------------------------------------------


def _nnls_core(A, b, maxiter, atol):
    Ad, bd = A, b  # differentiable copies for the fixed-set expression
    A, b = lax.stop_gradient(A), lax.stop_gradient(b)  # the loop is not
    m, n = A.shape
    dt = A.dtype
    eps = float(np.finfo(np.dtype(dt)).eps)
    if atol is None:
        tol = 10.0 * eps * max(m, n) * snp.max(snp.sum(snp.abs(A), axis=0)) * \
            snp.maximum(snp.max(snp.abs(b)), 1e-300)
    else:
        tol = snp.asarray(atol, dt)
    Atb = A.T @ b
    idx = snp.arange(n)

    def grad(x):
        return Atb - A.T @ (A @ x)

    def inner_cond(c):
        x, P, s, it = c
        return snp.any(P & (s <= 0)) & (it < maxiter)

    def inner_body(c):
        x, P, s, it = c
        neg = P & (s <= 0)
        ratio = snp.where(neg, x / snp.where(neg, x - s, 1.0), snp.inf)
        i = snp.argmin(ratio)
        alpha = ratio[i]
        x = x + alpha * (s - x)
        x = snp.where(idx == i, 0.0, x)
        P = P & (x > 0) & (idx != i)
        x = snp.where(P, x, 0.0)
        return x, P, _free_solve(A, b, P), it + 1

    def outer_cond(c):
        return c[3] == 0

    def outer_body(c):
        x, P, it, _ = c
        w = grad(x)
        cand = ~P & (w > tol)
        stop = ~snp.any(cand) | (it >= maxiter)
        j = snp.argmax(snp.where(cand, w, -snp.inf))
        P1 = P | (idx == j)
        s = _free_solve(A, b, P1)
        x1, P1, s, it1 = lax.while_loop(inner_cond, inner_body, (x, P1, s, it + 1))
        x1 = snp.where(P1, s, 0.0)
        status = snp.where(~snp.any(cand), 1, snp.where(it >= maxiter, 3, 0))
        return (snp.where(stop, x, x1), snp.where(stop, P, P1),
                snp.where(stop, it, it1), status.astype(snp.int32))

    c0 = (snp.zeros((n,), dt), snp.zeros((n,), bool), snp.int32(0), snp.int32(0))
    x, P, it, status = lax.while_loop(outer_cond, outer_body, c0)
    xd = _fixed_set_solution(Ad, bd, P, snp.zeros_like(x))
    x = x + (xd - lax.stop_gradient(xd))
    return x, snp.linalg.norm(Ad @ x - bd), status


_NNLS_JIT = sciax.jit(_nnls_core, static_argnums=(2, 3))


def nnls(A, b, maxiter=None, *, atol=None):
    """Solve ``argmin_x || Ax - b ||_2`` for ``x >= 0``.

    sciax implementation of :func:`scipy.optimize.nnls`: Lawson and Hanson's
    active-set method in one ``lax.while_loop`` (jittable and vmappable).

    Parameters
    ----------
    A : (m, n) array_like
        Coefficient matrix (dense).
    b : (m,) array_like
        Right-hand side (an ``(m, 1)`` column is raveled).
    maxiter : int, optional
        Maximum number of iterations (default ``3 * n``).
    atol : float, optional
        Tolerance on the gradient for adding a variable to the free set
        (default ``10 * eps * max(m, n) * ||A||_1 * ||b||_inf``).

    Returns
    -------
    x : Array
        Solution.
    rnorm : Array
        ``||Ax - b||_2``.

    Raises
    ------
    RuntimeError
        ``"Maximum number of iterations reached."`` (eagerly; under ``jit``
        the last iterate is returned).

    Notes
    -----
    ``x`` is differentiable with respect to ``A`` and ``b``: the derivative is
    that of the least-squares solution on the final free set (the active set
    held fixed).

    Examples
    --------
    >>> from sciax.optimize import nnls
    >>> A = snp.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> x, rnorm = nnls(A, snp.array([2.0, 1.0, 1.0]))
    >>> print(np.round(np.asarray(x), 6), round(float(rnorm), 6))
    [1.5 1. ] 0.707107
    >>> x, rnorm = nnls(A, snp.array([-1.0, -1.0, -1.0]))
    >>> print(np.round(np.asarray(x), 6), round(float(rnorm), 6))
    [0. 0.] 1.732051
    """
    _check_dense(A, "nnls")
    A, b = _asarray(A), _asarray(b)
    dt = snp.result_type(A, b, 1.0)
    A, b = A.astype(dt), b.astype(dt)
    if A.ndim != 2:
        raise ValueError(f"Expected a 2D array, but the shape of A is {A.shape}")
    if b.ndim == 2 and b.shape[1] == 1:
        b = b.ravel()
    if b.ndim != 1:
        raise ValueError(f"Expected a 1D array,(or 2D with one column), but the, "
                         f"shape of b is {b.shape}")
    m, n = A.shape
    if m != b.shape[0]:
        raise ValueError(f"Incompatible dimensions. The first dimension of A is {m}, "
                         f"while the shape of b is {(b.shape[0],)}")
    if not maxiter:
        maxiter = 3 * n
    x, rnorm, status = _NNLS_JIT(A, b, int(maxiter),
                                 None if atol is None else float(atol))
    try:
        st = np.asarray(status)
    except Exception:  # traced
        st = None
    if st is not None and st.ndim == 0 and int(st) == 3:
        raise RuntimeError("Maximum number of iterations reached.")
    return x, rnorm


# --- lsq_linear (BVLS) ---------------------------------------------------------------


def _kkt(g, on):
    return snp.max(snp.where(on == 0, snp.abs(g), g * on))


def _bvls_core(A, b, lb, ub, tol, max_iter):
    m, n = A.shape
    dt = A.dtype
    idx = snp.arange(n)
    Ad, bd = A, b  # differentiable copies for the fixed-set expression
    A, b = lax.stop_gradient(A), lax.stop_gradient(b)  # the loops are not
    unbounded = snp.linalg.lstsq(A, b)
    x_lsq = unbounded[0]
    in_b = snp.all((x_lsq >= lb) & (x_lsq <= ub))
    on = snp.where(x_lsq <= lb, -1, 0)
    on = snp.where(x_lsq >= ub, 1, on).astype(dt)
    x = snp.clip(x_lsq, lb, ub)
    r0 = A @ x - b
    cost0 = 0.5 * snp.dot(r0, r0)

    def sub(x, on):
        free = on == 0
        z = _free_solve(A, b - A @ snp.where(free, 0.0, x), free)
        return free, z

    # initialisation: least squares on the free variables until it is feasible
    def init_cond(c):
        x, on, it, go = c
        return go & snp.any(c[1] == 0)

    def init_body(c):
        x, on, it, _ = c
        free, z = sub(x, on)
        lbv = free & (z < lb)
        ubv = free & (z > ub)
        x = snp.where(lbv, lb, snp.where(ubv, ub, snp.where(free, z, x)))
        on = snp.where(lbv, -1.0, snp.where(ubv, 1.0, on))
        return x, on, it + 1, snp.any(lbv | ubv)

    x, on, k0, _ = lax.while_loop(init_cond, init_body, (x, on, snp.int32(0), ~in_b))
    kmax = k0 + (n if max_iter is None else int(max_iter))

    def loop_b(x, on):
        def cond(c):
            return c[2] == 0

        def body(c):
            x, on, _, cnt = c
            free, z = sub(x, on)
            lbv = free & (z < lb)
            ubv = free & (z > ub)
            v = lbv | ubv
            den = snp.where(v, z - x, 1.0)
            alphas = snp.where(lbv, (lb - x) / den, snp.where(ubv, (ub - x) / den,
                                                                snp.inf))
            i = snp.argmin(alphas)
            alpha = alphas[i]
            hit = snp.any(v)
            xs = snp.where(free, x + alpha * (z - x), x)
            xs = snp.where(idx == i, snp.where(lbv[i], lb, ub), xs)
            on_s = snp.where(idx == i, snp.where(lbv[i], -1.0, 1.0), on)
            x = snp.where(hit, xs, snp.where(free, z, x))
            on = snp.where(hit, on_s, on)
            done = ~hit | (cnt >= n)
            return x, on, done.astype(snp.int32), cnt + 1

        x, on, _, _ = lax.while_loop(cond, body, (x, on, snp.int32(0), snp.int32(0)))
        return x, on

    r = A @ x - b
    g = A.T @ r
    c0 = dict(x=x, on=on, k=k0, cost=0.5 * snp.dot(r, r), opt=_kkt(g, on),
              status=snp.where(in_b, 3, -2).astype(snp.int32))

    def main_cond(c):
        return (c["status"] == -2) & (c["k"] < kmax)

    def main_body(c):
        conv = c["opt"] < tol
        move = snp.argmax(g_of(c["x"]) * c["on"])
        on = snp.where(idx == move, 0.0, c["on"])
        x, on = loop_b(c["x"], on)
        r = A @ x - b
        cost = 0.5 * snp.dot(r, r)
        status = snp.where(c["cost"] - cost < tol * c["cost"], 2, -2)
        new = dict(x=x, on=on, k=c["k"] + 1, cost=cost, opt=_kkt(A.T @ r, on),
                   status=status.astype(snp.int32))
        # the optimality test comes first (SciPy's loop top): stop unchanged
        out = {key: snp.where(conv, c[key], v) for key, v in new.items()}
        out["status"] = snp.where(conv, 1, new["status"]).astype(snp.int32)
        return out

    def g_of(x):
        return A.T @ (A @ x - b)

    c = lax.while_loop(main_cond, main_body, c0)
    st, k = c["status"], c["k"]
    # SciPy's loop top tests optimality once more after a cost-change stop
    # (unless the iterations are used up); an exhausted loop is status 0
    status = snp.where((st == 2) & (k < kmax) & (c["opt"] < tol), 1, st)
    status = snp.where(st == -2, 0, status)
    nit = snp.where(st == -2, k, snp.minimum(k + 1, kmax))
    nit = snp.where(in_b, 0, nit)
    x, on = c["x"], c["on"]
    xfix = snp.where(on < 0, lb, snp.where(on > 0, ub, 0.0))
    xd = _fixed_set_solution(Ad, bd, on == 0, xfix)
    x = x + (xd - lax.stop_gradient(xd))
    r = Ad @ x - bd
    return dict(x=x, fun=r, cost=0.5 * snp.dot(r, r), optimality=c["opt"],
                active_mask=on.astype(snp.int32), nit=nit.astype(snp.int32),
                status=status.astype(snp.int32), initial_cost=cost0,
                unbounded_sol=tuple(unbounded))


_BVLS_JIT = sciax.jit(_bvls_core, static_argnums=(4, 5))


def lsq_linear(A, b, bounds=(-np.inf, np.inf), method="trf", tol=1e-10,
               lsq_solver=None, lsmr_tol=None, max_iter=None, verbose=0, *,
               lsmr_maxiter=None):
    """Solve a linear least-squares problem with bounds on the variables.

    sciax implementation of :func:`scipy.optimize.lsq_linear`: minimize
    ``0.5 * ||A x - b||**2`` subject to ``lb <= x <= ub``, for dense ``A``.

    Parameters
    ----------
    A : (m, n) array_like
        Design matrix (dense; sparse matrices and LinearOperators raise).
    b : (m,) array_like
        Target vector.
    bounds : 2-tuple of array_like or Bounds, optional
        Lower and upper bounds (scalars broadcast); default no bounds.
    method : {'trf', 'bvls'}, optional
        Both run bounded-variable least squares (BVLS, Stark and Parker), an
        active-set method that ends on the exact solution (SciPy's ``'trf'``
        is an interior method that stops within ``tol``: the solutions agree
        to that tolerance, ``nit`` does not).
    tol : float, optional
        Stop when the KKT violation is below ``tol``, or when the relative
        change of the cost is below it.
    lsq_solver : {None, 'exact'}, optional
        ``'lsmr'`` is not supported (dense only).
    lsmr_tol, lsmr_maxiter : optional
        Accepted for SciPy compatibility.
    max_iter : int, optional
        Maximum BVLS iterations after the initialisation (default ``n``).
    verbose : {0, 1, 2}, optional
        1 or 2: print the termination report (no per-iteration table).

    Returns
    -------
    res : OptimizeResult
        ``x``, ``cost``, ``fun`` (residuals), ``optimality`` (KKT violation),
        ``active_mask`` (-1 at a lower bound, 1 at an upper one, 0 free),
        ``unbounded_sol`` (``lstsq``'s ``(x, residuals, rank, s)`` without the
        bounds), ``nit``, ``status`` (3: the unconstrained solution is
        feasible; 1, 2: converged; 0: ``max_iter``), ``message``, ``success``.

    Notes
    -----
    Works under ``jit`` and ``vmap``; ``x``, ``cost`` and ``fun`` are
    differentiable with respect to ``A`` and ``b`` for a fixed active set.

    Examples
    --------
    >>> from sciax.optimize import lsq_linear
    >>> A = snp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> b = snp.array([1.0, 2.0, 4.0])
    >>> res = lsq_linear(A, b, bounds=(0.0, [1.0, 0.05]))
    >>> print(np.round(np.asarray(res.x), 6), np.asarray(res.active_mask), res.status)
    [0.708571 0.05    ] [0 1] 1
    """
    if method not in ("trf", "bvls"):
        raise ValueError("`method` must be 'trf' or 'bvls'")
    if lsq_solver not in (None, "exact", "lsmr"):
        raise ValueError("`solver` must be None, 'exact' or 'lsmr'.")
    if verbose not in (0, 1, 2):
        raise ValueError("`verbose` must be in [0, 1, 2].")
    _check_dense(A, "lsq_linear")
    if lsq_solver == "lsmr":
        raise ValueError("lsq_linear: lsq_solver='lsmr' is not supported by sciax "
                         "(dense A only; use None or 'exact')")
    A = _asarray(A)
    if A.ndim < 2:
        A = snp.atleast_2d(A)
    if A.ndim != 2:
        raise ValueError("`A` must have at most 2 dimensions.")
    if max_iter is not None and max_iter <= 0:
        raise ValueError("`max_iter` must be None or positive integer.")
    b = snp.atleast_1d(_asarray(b))
    if b.ndim != 1:
        raise ValueError("`b` must have at most 1 dimension.")
    m, n = A.shape
    if b.shape[0] != m:
        raise ValueError("Inconsistent shapes between `A` and `b`.")
    dt = snp.result_type(A, b, 1.0)
    A, b = A.astype(dt), b.astype(dt)
    if isinstance(bounds, Bounds):
        lb, ub = bounds.lb, bounds.ub
    else:
        lb, ub = bounds
    lb = np.broadcast_to(np.asarray(lb, float), (n,))
    ub = np.broadcast_to(np.asarray(ub, float), (n,))
    if np.any(lb >= ub):
        raise ValueError("Each lower bound must be strictly less than each upper "
                         "bound.")
    if lsmr_maxiter is not None and lsmr_maxiter < 1:
        raise ValueError("`lsmr_maxiter` must be None or positive integer.")
    out = _BVLS_JIT(A, b, snp.asarray(lb, dt), snp.asarray(ub, dt), float(tol),
                    None if max_iter is None else int(max_iter))
    res = LsqLinearResult(x=out["x"], cost=out["cost"], fun=out["fun"],
                          optimality=out["optimality"],
                          active_mask=out["active_mask"],
                          unbounded_sol=out["unbounded_sol"], nit=out["nit"],
                          status=out["status"])
    if verbose:
        try:
            print(res.message)
            print(f"Number of iterations {int(res.nit)}, initial cost "
                  f"{float(out['initial_cost']):.4e}, final cost "
                  f"{float(res.cost):.4e}, first-order optimality "
                  f"{float(res.optimality):.2e}.")
        except Exception:  # traced or batched: nothing to print
            pass
    return res
