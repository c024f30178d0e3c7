"""What the implicit solvers share: the problem, Jacobians, LU, Newton loops.

An implicit solver is *stateful*: besides ``(t, y, f)`` it carries a dict of
arrays between attempted steps (its Jacobian and LU factors, its step size,
BDF's difference array and order, Radau's last collocation polynomial, and
the ``nfev``/``njev``/``nlu`` counters).  It makes its own step-size and
acceptance decisions, so the shared loop in ``_ode_loop.py`` asks it for one
attempt at a time (``init`` once, then ``attempt`` per loop iteration) and
keeps doing the rest as for the explicit methods: ``t_eval``, events, dense
output buffers, per-lane status under ``vmap``.

Derivatives (``adjoint='direct'``).  Newton iterations are run on values cut
from the derivative (the iteration matrix is an approximation, and
differentiating a truncated iteration gives a truncated derivative).  In the
loop kind used for derivatives (``bounded``), the converged stage values are
then passed through :func:`ift_refine`, which gives them exactly the
derivative of the root of the discrete equations by the implicit function
theorem, with the exact Jacobian at the root; the primal values are unchanged.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import numpy as np

import sciax
import sciax.lax as lax
import sciax.linalg as sla
import sciax.numpy as snp
from sciax.integrate._rk import AbstractODESolver, rms  # noqa: F401 (im.rms)

# Why a failed attempt failed: kept so that a step-size underflow reports the
# cause (the loop maps these to its status codes).
FAIL_NONE, FAIL_NEWTON, FAIL_SINGULAR, FAIL_ERROR = 0, 1, 2, 3

# ``attempt``'s ``bounded`` argument: False (the fast loop, no derivative
# through the roots), True (fixed-trip loops and the implicit-function
# derivative, for reverse mode) or IFT (``while`` loops and the
# implicit-function derivative, for forward mode).  Both truthy values refine.
IFT = "ift"


class Problem(NamedTuple):
    """The flat problem an implicit solver sees.

    ``jac`` is None (Jacobian by forward-mode autodiff), a callable ``(t, y) ->
    (n, n)`` or a constant ``(n, n)`` array; ``mass`` is None or a constant
    ``(n, n)`` array (``M y' = f(t, y)``, Radau only); ``split`` is None or
    the IMEX pair ``(f_explicit, f_implicit)`` (``jac`` is then that of
    ``f_implicit``).
    """
    fun: Callable
    jac: Any = None
    mass: Any = None
    split: Any = None  # IMEX: (f_explicit, f_implicit), whose sum is ``fun``
    sparsity: Any = None  # None or a constant boolean (n, n) pattern of df/dy

    @property
    def jac_constant(self) -> bool:
        return self.jac is not None and not callable(self.jac)


def jacobian(prob: Problem, t: Any, y: Any) -> Any:
    """``df/dy`` at ``(t, y)``, cut from derivatives (it only shapes iterations)."""
    t, y = lax.stop_gradient(t), lax.stop_gradient(y)
    if prob.jac is None:
        f = prob.fun if prob.split is None else prob.split[1]
        if prob.sparsity is None:
            J = sciax.jacfwd(lambda v: f(t, v))(y)
        else:
            J = _coloured_jacobian(lambda v: f(t, v), y, prob.sparsity)
    elif callable(prob.jac):
        J = prob.jac(t, y)
    else:
        J = prob.jac
    return lax.stop_gradient(snp.asarray(J, y.dtype))


def column_groups(sparsity: np.ndarray) -> np.ndarray:
    """Greedy colouring of the columns of a sparsity pattern: columns in one
    group share no nonzero row, so one directional derivative along the sum
    of their unit vectors recovers all of them (Curtis, Powell and Reid, "On
    the estimation of sparse Jacobian matrices", IMA J. Appl. Math. 13 (1974)
    117-119)."""
    n = sparsity.shape[1]
    groups = -np.ones(n, int)
    rows_used: list[np.ndarray] = []
    for j in range(n):
        col = sparsity[:, j]
        for g, used in enumerate(rows_used):
            if not np.any(used & col):
                groups[j] = g
                rows_used[g] = used | col
                break
        else:
            groups[j] = len(rows_used)
            rows_used.append(col.copy())
    return groups


def _coloured_jacobian(f: Callable, y: Any, sparsity: np.ndarray) -> Any:
    """``df/dy`` from one forward-mode derivative per column group."""
    groups = column_groups(sparsity)
    k = int(groups.max()) + 1
    seeds = snp.asarray((groups[None, :] == np.arange(k)[:, None]).astype(float),
                        y.dtype)
    compressed = sciax.vmap(lambda v: sciax.jvp(f, (y,), (v,))[1])(seeds)  # (k, n)
    # J[i, j] is row i of the derivative along column j's group.
    J = compressed[snp.asarray(groups)].T
    return snp.where(snp.asarray(sparsity), J, 0.0)


def lu_factor(a: Any) -> tuple[Any, Any, Any]:
    """``(lu, piv, singular)``: the LU factors of ``a``, its row pivots in the
    form :func:`lu_solve` takes (see :func:`pivots`), and whether a pivot is
    zero (or the matrix not finite), which the solvers treat as a failed
    attempt.

    Up to ``_UNROLLED_SWAPS`` unknowns the factorisation is written in array
    operations (:func:`_lu_small`), not LAPACK's: a loop body that holds no
    library call is compiled by XLA's CPU backend as one kernel (see
    ``sciax.config.cpu_loop_kernel_bytes``), which makes the implicit solvers'
    programs several times faster to compile and to run at such sizes."""
    if _small(a.shape[-1]) and a.ndim == 2:
        lu, perm = _lu_small(a)
    else:
        lu, piv = sla.lu_factor(a)
        perm = pivots(piv)
    d = snp.diagonal(lu)
    singular = snp.any(d == 0) | ~snp.all(snp.isfinite(d))
    return lu, perm, singular


def _lu_small(a: Any) -> tuple[Any, Any]:
    """LU with partial pivoting as getrf computes it (the largest pivot by
    LAPACK's magnitude, ``|re| + |im|`` for complex; a zero pivot leaves its
    column unscaled), one column per trip of a ``fori_loop`` (a body of the
    same size for every ``n``; rows and columns by dynamic slices, no library
    call).  Returns the packed factors and the permutation matrix ``P``
    (float) with ``P a = L U``."""
    n = a.shape[0]
    idx = snp.arange(n)
    rows, cols = idx[:, None], idx[None, :]
    cplx = snp.iscomplexobj(a)

    def column(k, c):
        a, perm = c
        col = lax.dynamic_index_in_dim(a, k, axis=1, keepdims=False)
        mag = (snp.abs(snp.real(col)) + snp.abs(snp.imag(col)) if cplx
               else snp.abs(col))
        # Swap rows k and p (the first largest magnitude at or below k).
        p = snp.argmax(snp.where(idx >= k, mag, -1.0))
        row_k = lax.dynamic_index_in_dim(a, k, axis=0, keepdims=False)
        row_p = lax.dynamic_index_in_dim(a, p, axis=0, keepdims=False)
        a = snp.where(rows == k, row_p, snp.where(rows == p, row_k, a))
        pk = lax.dynamic_index_in_dim(perm, k, keepdims=False)
        pp = lax.dynamic_index_in_dim(perm, p, keepdims=False)
        perm = snp.where(idx == k, pp, snp.where(idx == p, pk, perm))
        pivot = lax.dynamic_index_in_dim(row_p, k, keepdims=False)
        inv = snp.where(pivot != 0, 1 / snp.where(pivot != 0, pivot, 1), 0)
        col_k = lax.dynamic_index_in_dim(col, k, keepdims=False)
        col_p = lax.dynamic_index_in_dim(col, p, keepdims=False)
        col = snp.where(idx == k, col_p, snp.where(idx == p, col_k, col))
        mult = snp.where(idx > k, col * inv, 0)[:, None]
        below = rows > k
        a = snp.where(below & (cols > k), a - mult * row_p[None, :],
                      snp.where(below & (cols == k), mult, a))
        return a, perm

    a, perm = lax.fori_loop(0, n - 1, column, (a, idx))
    return a, (perm[:, None] == cols).astype(np.float64)


def _small(n: int) -> bool:
    return 0 < n <= _UNROLLED_SWAPS


def pivots(piv: Any) -> Any:
    """LAPACK's row interchanges ``piv`` as :func:`lu_solve` takes them: for
    up to ``_UNROLLED_SWAPS`` unknowns, the permutation matrix ``P`` (float)
    with ``P @ b`` the right-hand side with the swaps applied in order
    (getrs's laswp).  The swaps are decoded once per factorisation, where
    the solvers keep their LU; each solve is then one fused product, where
    decoding the pivots at every solve site took a kernel per pivot in every
    Newton iteration and every attempt."""
    n = piv.shape[-1]
    if not _small(n) or piv.ndim != 1:
        return piv
    idx = snp.arange(n)
    perm = idx
    for i in range(n):
        p = piv[i]
        at_p = snp.sum(snp.where(idx == p, perm, 0))
        perm = snp.where(idx == i, at_p, snp.where(idx == p, perm[i], perm))
    return (perm[:, None] == idx[None, :]).astype(np.float64)


def pivots_init(n: int) -> Any:
    """Pivots of no factorisation yet (a placeholder for the solvers' state)."""
    return (snp.eye(n, dtype=np.float64) if _small(n)
            else snp.zeros((n,), np.int32))


def lu_solve(lu: Any, piv: Any, b: Any) -> Any:
    """Solve with ``(lu, piv)`` from :func:`lu_factor`."""
    if piv.ndim != 2 or lu.ndim != 2:
        return sla.lu_solve((lu, piv), b)
    n = lu.shape[-1]
    # The row swaps as a product with the permutation matrix, written as a
    # broadcast product and a sum: one fused kernel.
    trail = (1,) * (b.ndim - 1)
    P = piv.reshape((n, n) + trail).astype(b.dtype)
    x = snp.sum(P * b[None], axis=1)
    # Forward and back substitution by columns (no triangular-solve library
    # call; see lu_factor): straight-line, so it batches and transposes as
    # any linear array code.
    # The row masks are NumPy constants: literals in the program (an iota
    # compare would be a kernel of its own, hoisted out of the solver's loop).
    rows = np.arange(n).reshape((n,) + trail)
    for i in range(n - 1):
        x = x - snp.where(rows > i, lu[:, i].reshape((n,) + trail), 0) * x[i]
    for i in range(n - 1, -1, -1):
        x = snp.where(rows == i, x / lu[i, i], x)
        if i:
            x = x - snp.where(rows < i, lu[:, i].reshape((n,) + trail), 0) * x[i]
    return x


# Up to this many unknowns the LU is array code (_lu_small) and the pivots
# travel as a permutation matrix.
_UNROLLED_SWAPS = 16


def iterate(keep_going: Callable, body: Callable, init: Any, max_iter: int,
            bounded: bool) -> Any:
    """``while keep_going: body`` for at most ``max_iter`` rounds; in the
    ``bounded`` kind (``bounded is True``) a fixed-trip loop with the finished
    rounds masked, which reverse mode can handle.  ``bounded == IFT`` (the
    forward-mode loop) keeps the ``while`` loop; the solvers then refine the
    converged roots with :func:`ift_refine` as in the bounded kind."""
    if bounded is not True:
        return lax.while_loop(keep_going, body, init)

    def fixed(_, c):
        new = body(c)
        go = keep_going(c)
        return sciax.tree.map(lambda a, b: snp.where(go, a, b), new, c)
    return lax.fori_loop(0, max_iter, fixed, init)


def newton_rate_test(k: Any, norm: Any, norm_old: Any, max_iter: int, tol: Any
                     ) -> tuple[Any, Any, Any]:
    """Hairer and Wanner's convergence monitor for simplified Newton (their
    Sec. IV.8, as in SciPy's Radau and BDF): from the contraction ``rate`` of
    successive corrections, ``diverging`` when the rate is >= 1 or the
    remaining iterations cannot reach ``tol``; ``converged`` when the
    estimated remaining error is below ``tol``.  Returns ``(diverging,
    converged, rate)``; with no rate yet (``k == 0``) only an exact zero
    correction converges."""
    has_rate = k > 0
    rate = norm / snp.where(has_rate & (norm_old > 0), norm_old, 1.0)
    one_minus = snp.where(rate < 1, 1 - rate, 1.0)
    hopeless = (rate >= 1) | (rate ** (max_iter - k) / one_minus * norm > tol)
    diverging = ~snp.isfinite(norm) | (has_rate & hopeless)
    small = has_rate & (rate / one_minus * norm < tol)
    converged = ~diverging & ((norm == 0) | small)
    return diverging, converged, snp.where(has_rate, rate, snp.nan)


def ift_refine(residual: Callable, x: Any) -> Any:
    """``x`` (a root of ``residual``) with the implicit-function derivative.

    The value is ``x``; the derivative is ``-A^{-1} d residual`` with ``A`` the
    exact Jacobian of ``residual`` at ``x`` (computed here, so only derivative
    programs pay for it)."""
    x = lax.stop_gradient(x)
    A = lax.stop_gradient(sciax.jacfwd(residual)(x))
    lu, piv, _ = lu_factor(A)
    return _root_tangent(x, lu, piv, residual(x))


@sciax.custom_jvp
def _root_tangent(x: Any, lu: Any, piv: Any, r: Any) -> Any:
    """``x``, whose tangent is ``-A^{-1} dr`` (``A = (lu, piv)``): the value
    needs no solve at all, and the tangent one pair of triangular solves, so
    the derivative program stays small (a general ``solve`` carries its own
    derivative rules and a primal solve of a zero right-hand side)."""
    return x


@_root_tangent.defjvp
def _root_tangent_jvp(primals: tuple, tangents: tuple) -> tuple:
    x, lu, piv, _ = primals
    dr = tangents[3]
    return x, -lu_solve(lu, piv, dr)


def step_factors(err: Any, rejected: Any, finite: Any, q: int) -> tuple[Any, Any]:
    """SciPy's RK controller: the factors ``(grow, shrink)`` for an accepted or
    a rejected step from the error norm ``err`` of an order-``q`` estimate
    (safety 0.9, factors within [0.2, 10], no growth right after a
    rejection)."""
    expo = -1.0 / (q + 1)
    safe = snp.where(finite & (err > 0), err, 1.0)
    grow = snp.where(err == 0, 10.0, snp.minimum(10.0, 0.9 * safe ** expo))
    grow = snp.where(rejected, snp.minimum(1.0, grow), grow)
    shrink = snp.where(finite, snp.maximum(0.2, 0.9 * safe ** expo), 0.2)
    return grow, shrink


def newton_tol(rtol: Any) -> Any:
    """SciPy's Newton tolerance for BDF and Radau, ``max(10 eps / rtol,
    min(0.03, sqrt(rtol)))`` (the smallest ``rtol`` when it is an array)."""
    r = snp.min(rtol)
    eps = np.finfo(np.float64).eps
    return snp.maximum(10 * eps / r, snp.minimum(0.03, snp.sqrt(r)))


def min_step(t: Any, direction: Any) -> Any:
    # A roundoff guard: no derivative (else every step size would carry one).
    t = lax.stop_gradient(t)
    return 10 * snp.abs(lax.nextafter(t, direction * snp.inf) - t)


class AbstractImplicitSolver(AbstractODESolver):
    """Interface of a stateful (implicit) solver run by the shared loop.

    ``init(prob, t0, y0, f0, h_abs, direction, rtol, atol)`` returns the state
    dict (with integer counters ``nfev``, ``njev``, ``nlu``); ``attempt(prob,
    t, y, f, state, t1, direction, rtol, atol, max_step, bounded)`` tries one
    step and returns a dict with ``state``, ``accept``, ``t_new``, ``y_new``,
    ``f_new``, ``coeffs`` (the step's interpolant, ``dense_rows`` rows) and
    ``fail`` (a ``FAIL_*`` code when the step size underflowed, else -1).
    """

    stateful = True
    dense_nfev = 0
    dense_rows: int
    needs_mass: bool = False

    def init(self, prob: Problem, t0: Any, y0: Any, f0: Any, h_abs: Any,
             direction: Any, rtol: Any, atol: Any) -> dict:
        raise NotImplementedError(f"{type(self).__name__} must implement init")

    def attempt(self, prob: Problem, t: Any, y: Any, f: Any, state: dict, t1: Any,
                direction: Any, rtol: Any, atol: Any, max_step: float,
                bounded: bool) -> dict:
        raise NotImplementedError(f"{type(self).__name__} must implement attempt")

    def step(self, fun, t, y, f, h):
        raise TypeError(f"{type(self).__name__} is stateful: the loop calls attempt")

    def dense_coeffs(self, fun, t, y, y_new, K, h):
        # ``attempt`` already returns the interpolant's coefficients as ``K``.
        return K


def counters(state: dict, nfev: Any = 0, njev: Any = 0, nlu: Any = 0) -> dict:
    """``state`` with its counters increased (booleans count as 0/1)."""
    state = dict(state)
    for k, v in (("nfev", nfev), ("njev", njev), ("nlu", nlu)):
        state[k] = state[k] + snp.asarray(v).astype(state[k].dtype)
    return state


def wsum(w: Any, x: Any) -> Any:
    """``w @ x`` for a short weight vector ``w`` and rows ``x``, as a
    broadcast product and a sum: one fused reduction, where a tiny dot that
    forward mode batches over tangents needs layout copies around it."""
    w = snp.asarray(w)
    return snp.sum(w.reshape(w.shape + (1,) * (x.ndim - 1)) * x, axis=0)


def msum(a: Any, x: Any) -> Any:
    """``a @ x`` for a small matrix ``a`` (m, k) and rows ``x`` (k, ...), as a
    broadcast product and a sum (see :func:`wsum`): XLA's CPU backend does
    not compile a loop that holds a ``dot`` as one kernel."""
    a = snp.asarray(a)
    return snp.sum(a.reshape(a.shape + (1,) * (x.ndim - 1)) * x[None], axis=1)


def set_row(a: Any, i: Any, v: Any) -> Any:
    """``a.at[i].set(v)`` for a row ``i`` (traced or not) as a ``where``: its
    derivative is a select, where a scatter's carries a gather and a
    scatter-add of index masks (more kernels in derivative programs)."""
    rows = snp.arange(a.shape[0]).reshape((-1,) + (1,) * (a.ndim - 1))
    return snp.where(rows == i, v, a)


def select(pred: Any, a: dict, b: dict) -> dict:
    """Entry-wise ``where(pred, a, b)`` over two dicts of arrays."""
    return {k: snp.where(pred, a[k], b[k]) for k in a}
