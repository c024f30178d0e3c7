"""BDF: variable-order (1 to 5) numerical differentiation formulas.

The algorithm is SciPy's ``BDF`` (Shampine and Reichelt's ``ode15s`` design):
quasi-constant step sizes on a backward-difference array ``D`` that is
rescaled when the step changes, NDF coefficients, simplified Newton with an
LU of ``I - c J`` kept across steps until the step size or order changes, and
order/step selection from the error estimates of orders ``k - 1, k, k + 1``
after ``k + 1`` steps of equal size.  Written as one attempt per loop
iteration over an explicit state, with the variable order handled by masks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax.lax as lax
import sciax.numpy as snp
from sciax.integrate import _implicit as im

MAX_ORDER = 5
NEWTON_MAXITER = 4
MIN_FACTOR, MAX_FACTOR = 0.2, 10.0

# NDF coefficients kappa_k (Shampine and Reichelt, "The MATLAB ODE suite",
# SIAM J. Sci. Comput. 18 (1997), Table 3.1; as in SciPy's BDF); gamma_k =
# sum_{j<=k} 1/j; alpha_k = (1 - kappa_k) gamma_k; the error constant of order
# k is kappa_k gamma_k + 1/(k + 1).
KAPPA = np.array([0.0, -0.1850, -1 / 9, -0.0823, -0.0415, 0.0])
GAMMA = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, MAX_ORDER + 1))])
ALPHA = (1 - KAPPA) * GAMMA
ERROR_CONST = KAPPA * GAMMA + 1.0 / np.arange(1, MAX_ORDER + 2)

_K = np.arange(MAX_ORDER + 1)


def _r_rows(factor: Any) -> Any:
    """The unmasked (MAX_ORDER + 1)^2 matrix of ``_r_matrix``: entry ``(k,
    j)`` is ``prod_{m=1..k} (m - 1 - factor j) / m``.  Written as a chain of
    elementwise products over ``m`` on the whole matrix, which XLA fuses
    into one kernel (a ``cumprod`` lowers to a windowed reduction and
    differentiates through an associative scan of slices and pads)."""
    k, j = _K[:, None], _K[None, :]
    r = None
    for m in range(1, MAX_ORDER + 1):
        term = snp.where(m <= k, (m - 1 - factor * j) / m, 1.0)
        r = term if r is None else r * term
    return r


def _r_matrix(order: Any, factor: Any) -> Any:
    """The (MAX_ORDER + 1)^2 matrix changing differences for a step ratio
    ``factor`` (zero outside the leading ``order + 1`` block)."""
    inside = (_K[:, None] <= order) & (_K[None, :] <= order)
    r = _R1 if isinstance(factor, float) and factor == 1.0 else _r_rows(factor)
    return snp.where(inside, r, 0.0)


def _r_rows_np(factor: float) -> np.ndarray:
    i, j = _K[1:, None], _K[None, 1:]
    m = np.vstack([np.ones(MAX_ORDER + 1),
                   np.hstack([np.zeros((MAX_ORDER, 1)), (i - 1 - factor * j) / i])])
    return np.cumprod(m, axis=0)


_R1 = _r_rows_np(1.0)  # R(1) does not depend on the step: a constant


def change_D(D: Any, order: Any, factor: Any) -> Any:
    """``D`` rescaled from step ``h`` to ``factor * h`` (rows up to ``order``)."""
    r, u = _r_matrix(order, factor), _r_matrix(order, 1.0)
    ru = snp.sum(r[:, :, None] * u[None, :, :], axis=1)
    # ru.T @ D as a broadcast product and a sum: for these tiny matrices one
    # fused reduction, where a dot (batched over tangents) needs layout copies.
    new = snp.sum(ru[:, :, None] * D[:MAX_ORDER + 1, None, :], axis=0)
    rows = (_K <= order)[:, None]
    return snp.concatenate([snp.where(rows, new, D[:MAX_ORDER + 1]),
                            D[MAX_ORDER + 1:]])


def _rescale(D: Any, first: tuple, second: tuple) -> Any:
    """``D`` after two rescalings in turn, each ``(do, order, factor)``:
    :func:`change_D` when ``do``.  Both run through one call site (a scan of
    two trips), where two calls in the step compiled two copies of the
    rescaling, its step-ratio matrix and, in derivative programs, its
    tangents: about a quarter of BDF's compile time."""
    def one(D, step):
        do, order, factor = step
        return snp.where(do, change_D(D, order, factor), D), None

    steps = tuple(snp.stack([snp.asarray(a), snp.asarray(b)])
                  for a, b in zip(first, second))
    return lax.scan(one, D, steps)[0]


def _rows_upto(D: Any, order: Any) -> Any:
    return snp.where((_K <= order)[:, None], D[:MAX_ORDER + 1], 0.0)


class BDF(im.AbstractImplicitSolver):
    """Implicit variable-order (1 to 5) BDF/NDF method for stiff problems.

    The algorithm, coefficients, Newton iteration, error estimate and order
    and step selection are SciPy's ``BDF``; the Jacobian comes from ``jac``
    (``solve_ivp``'s option: a callable ``jac(t, y, *args)``, a constant
    array) or, by default, exactly by forward-mode autodiff.  The LU of the
    iteration matrix is reused across steps until the step size or order
    changes (``nlu``), and the Jacobian is recomputed only when Newton fails to
    converge with an old one (``njev``).

    Notes
    -----
    Newton iterations that cannot converge even with a fresh Jacobian halve
    the step; when the step size underflows the status says why (Newton
    divergence, a singular iteration matrix, or the error test).  The dense
    output is the BDF interpolating polynomial of each step.

    References
    ----------
    L. F. Shampine and M. W. Reichelt, "The MATLAB ODE suite", SIAM J. Sci.
    Comput. 18 (1997) 1-22; G. D. Byrne and A. C. Hindmarsh, "A polyalgorithm
    for the numerical solution of ordinary differential equations", ACM TOMS
    1 (1975) 71-96.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> def f(t, y):
    ...     return snp.stack([-1000.0 * (y[0] - snp.cos(t)), -y[1]])
    >>> r = solve_ivp(f, (0.0, 1.0), snp.array([0.0, 1.0]), method="BDF", rtol=1e-6)
    >>> print(np.round(np.asarray(r.y[:, -1]), 3), bool(r.success))
    [0.541 0.368] True
    """

    order = 5
    error_estimator_order = 1  # SciPy's initial-step order for BDF
    n_stages = 1
    dense_rows = MAX_ORDER + 1

    def init(self, prob, t0, y0, f0, h_abs, direction, rtol, atol):
        n = y0.shape[0]
        D = snp.concatenate([y0[None], (f0 * h_abs * direction)[None],
                             snp.zeros((MAX_ORDER + 1, n), y0.dtype)])
        zero = snp.asarray(0)
        # ``rescale``: the rescaling of D that the last attempt chose, done at
        # the start of the next one (with the start's own, see _rescale).
        rescale = (snp.asarray(False), snp.asarray(1), snp.ones_like(h_abs))
        return dict(D=D, order=snp.asarray(1), n_equal=zero, h_abs=h_abs,
                    rescale=rescale,
                    J=im.jacobian(prob, t0, y0), lu=snp.zeros((n, n), y0.dtype),
                    piv=im.pivots_init(n), singular=snp.asarray(False),
                    lu_valid=snp.asarray(False), current_jac=snp.asarray(False),
                    fresh=snp.asarray(True), last_fail=zero, nfev=zero,
                    njev=snp.asarray(0 if prob.jac_constant else 1), nlu=zero)

    def attempt(self, prob, t, y, f, state, t1, direction, rtol, atol, max_step,
                bounded):
        s = dict(state)
        fun = prob.fun
        D, order, h_abs = s["D"], s["order"], s["h_abs"]
        h_min = im.min_step(t, direction)
        fresh = s["fresh"]
        # At the start of a step (not after a rejection) SciPy caps the step
        # at max_step and lifts it to the minimum, rescaling D.
        target = snp.clip(h_abs, h_min, max_step)
        factor = snp.where(fresh, target / h_abs, 1.0)
        h_abs = snp.where(fresh, target, h_abs)
        current_jac = snp.where(fresh, prob.jac_constant, s["current_jac"])
        too_small = h_abs < h_min
        t_new = t + direction * h_abs
        past = direction * (t_new - t1) > 0
        t_new = snp.where(past, t1, t_new)
        factor = factor * snp.where(past, snp.abs(t_new - t) / h_abs, 1.0)
        D = _rescale(D, s["rescale"], (factor != 1.0, order, factor))
        n_equal = snp.where(factor != 1.0, 0, s["n_equal"])
        lu_valid = s["lu_valid"] & ~past
        h = t_new - t
        h_abs = snp.abs(h)

        Dk = _rows_upto(D, order)
        y_pred = snp.sum(Dk, axis=0)
        scale = atol + rtol * snp.abs(y_pred)
        gam = snp.where(_K >= 1, snp.asarray(GAMMA), 0.0)
        alpha = snp.asarray(ALPHA)[order]
        psi = im.wsum(gam, Dk) / alpha
        c = h / alpha
        eye = snp.eye(y.shape[0], dtype=y.dtype)
        J = s["J"]
        lu, piv, singular = lax.cond(
            lu_valid, lambda: (s["lu"], s["piv"], s["singular"]),
            lambda: im.lu_factor(eye - lax.stop_gradient(c) * J))
        s = im.counters(s, nlu=~lu_valid)

        conv, n_iter, y_new, d = _newton(fun, t_new, y_pred, c, psi, lu, piv, scale,
                                         im.newton_tol(rtol), bounded)
        conv = conv & ~singular & ~too_small
        s = im.counters(s, nfev=snp.where(too_small, 0, n_iter))
        if bounded:
            y_new = im.ift_refine(
                lambda v: c * fun(t_new, v) - psi - (v - y_pred), y_new)
            d = y_new - y_pred

        # Newton failed: a fresh Jacobian first, then halve the step.
        refresh = ~conv & ~current_jac & ~too_small
        J = lax.cond(refresh, lambda: im.jacobian(prob, t_new, y_pred), lambda: J)
        s = im.counters(s, njev=refresh)
        halve = ~conv & current_jac & ~too_small

        safety = 0.9 * (2 * NEWTON_MAXITER + 1) / (2 * NEWTON_MAXITER + n_iter)
        # Step-size decisions take no derivative: cut before computing them.
        sg = lax.stop_gradient
        scale_new = atol + rtol * snp.abs(sg(y_new))
        err = im.rms(snp.asarray(ERROR_CONST)[order] * sg(d) / scale_new)
        good = conv & (err <= 1)  # NaN fails
        reject = conv & ~good
        safe_err = snp.where(snp.isfinite(err) & (err > 0), err, 1.0)
        shrink = snp.maximum(MIN_FACTOR, safety * safe_err ** (-1.0 / (order + 1)))
        shrink = snp.where(snp.isfinite(err), shrink, MIN_FACTOR)
        shrink = snp.where(halve, 0.5, shrink)

        # Accepted: update the differences, then (after order + 1 equal steps)
        # choose the order from the error estimates of orders k - 1, k, k + 1.
        D_acc = im.set_row(im.set_row(D, order + 2, d - D[order + 1]), order + 1, d)
        # D[i] += D[i + 1] for i = order, ..., 0: row i becomes the sum of rows
        # i..order + 1, as a masked broadcast sum (one fused reduction; a
        # reversed cumsum is a reduce-window kernel, and another for its
        # tangent).
        rows7 = np.arange(MAX_ORDER + 3)
        upper = ((rows7[None, :] >= rows7[:, None])[:, :, None]
                 & (rows7 <= order + 1)[None, :, None])
        tail = snp.sum(snp.where(upper, D_acc[None], 0.0), axis=1)
        D_acc = snp.where((rows7 <= order)[:, None], tail, D_acc)
        coeffs = _rows_upto(D_acc, order)
        n_eq = n_equal + 1
        ec = snp.asarray(ERROR_CONST)
        D_sg = sg(D_acc)
        below = ec[snp.maximum(order - 1, 0)] * D_sg[order]
        above = ec[snp.minimum(order + 1, MAX_ORDER)] * D_sg[order + 2]
        err_m = snp.where(order > 1, im.rms(below / scale_new), snp.inf)
        err_p = snp.where(order < MAX_ORDER, im.rms(above / scale_new), snp.inf)
        norms = snp.stack([err_m, err, err_p])
        expo = -1.0 / (order + snp.arange(3))
        facs = snp.where(norms == 0, snp.inf,
                         snp.where(snp.isinf(norms), 0.0,
                                   snp.where(norms > 0, norms, 1.0) ** expo))
        choose = n_eq >= order + 1
        new_order = snp.where(choose, order + snp.argmax(facs) - 1, order)
        grow = snp.where(choose, snp.minimum(MAX_FACTOR, safety * snp.max(facs)), 1.0)
        # One rescaling serves both outcomes: D_acc to the new order and step
        # after an order choice, or D to the shrunk step after a rejection.
        rescale = snp.where(good, choose, halve | reject)
        base = snp.where(good, D_acc, D)
        pending = (rescale, snp.where(good, new_order, order),
                   snp.where(good, grow, shrink))
        out = dict(s)
        out["J"], out["lu"], out["piv"], out["singular"] = J, lu, piv, singular
        # D moves to the new order and step at the next attempt's start (D is
        # read nowhere else; the steps' interpolants are coeffs).
        out["D"], out["rescale"] = base, pending
        out["order"] = snp.where(good, new_order, order)
        out["h_abs"] = lax.stop_gradient(snp.where(
            good, h_abs * grow, snp.where(halve | reject, h_abs * shrink, h_abs)))
        out["n_equal"] = snp.where(good, snp.where(choose, 0, n_eq),
                                   snp.where(halve | reject, 0, n_equal))
        # SciPy keeps the LU after an error-test rejection (simplified Newton).
        out["lu_valid"] = snp.where(good, ~choose, ~(halve | refresh))
        out["current_jac"] = current_jac | refresh
        out["fresh"] = good
        out["last_fail"] = snp.where(
            ~conv, snp.where(singular, im.FAIL_SINGULAR, im.FAIL_NEWTON),
            snp.where(reject, im.FAIL_ERROR, im.FAIL_NONE))
        out["last_fail"] = snp.where(too_small, s["last_fail"], out["last_fail"])
        return dict(state=out, accept=good, t_new=t_new, y_new=y_new,
                    f_new=snp.zeros_like(y_new), coeffs=coeffs,
                    fail=snp.where(too_small, s["last_fail"], -1))

    def dense_eval(self, coeffs, y_old, h, theta):
        # The step's interpolating polynomial through t_new - m h, m = 0..order,
        # in Newton form on backward differences (rows past the order are 0).
        # p[k] = prod_{m<=k} (theta - 1 + m) / (1 + m), as one fused chain
        k = np.arange(MAX_ORDER)
        p = None
        for m in range(MAX_ORDER):
            term = snp.where(m <= k, (theta - 1 + m) / (1 + m), 1.0)
            p = term if p is None else p * term
        return coeffs[0] + im.wsum(p, coeffs[1:])


def _newton(fun, t_new, y_pred, c, psi, lu, piv, scale, tol, bounded):
    """SciPy's ``solve_bdf_system``: solve ``c f(t_new, y) - psi - d = 0`` for
    ``y = y_pred + d`` by simplified Newton.  Returns (converged, iterations,
    y, d); inputs are cut from derivatives (see ``_implicit``)."""
    sg = lax.stop_gradient
    t_new, y_pred, c, psi, scale = (sg(x) for x in (t_new, y_pred, c, psi, scale))

    def body(st):
        k, y, d, norm_old, _, _ = st
        # The parameters fun closes over carry tangents: cut them here too,
        # or forward mode would carry a dead tangent through the iterations.
        fy = sg(fun(t_new, y))
        dy = im.lu_solve(lu, piv, c * fy - psi - d)
        norm = im.rms(dy / scale)
        norm = snp.where(snp.all(snp.isfinite(fy)), norm, snp.nan)
        diverging, converged, _ = im.newton_rate_test(k, norm, norm_old,
                                                      NEWTON_MAXITER, tol)
        y = snp.where(diverging, y, y + dy)
        d = snp.where(diverging, d, d + dy)
        return k + 1, y, d, norm, converged, diverging | converged

    def keep_going(st):
        k, *_, done = st
        return ~done & (k < NEWTON_MAXITER)

    no = snp.asarray(False)
    init = (snp.asarray(0), y_pred, snp.zeros_like(y_pred),
            snp.asarray(1.0, y_pred.dtype), no, no)
    k, y, d, _, converged, _ = im.iterate(keep_going, body, init, NEWTON_MAXITER,
                                          bounded)
    return converged, k, y, d
