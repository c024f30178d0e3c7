"""Radau IIA of order 5 with step control and an optional constant mass matrix.

SciPy's ``Radau`` (Hairer and Wanner's RADAU5 design): the three-stage
collocation system is solved by simplified Newton iterations in the
eigenvector basis of the method's matrix, one real and one complex LU of size
``n`` instead of one real LU of size ``3n``; the Jacobian is reused across
steps while Newton converges fast, the LUs while the step size stays within a
factor 1.2; the error estimate is the embedded one filtered through the real
LU; the step size follows the predictive (Gustafsson) controller.  The mass
matrix ``M`` (``M y' = f``) enters the iteration matrices and the error
estimate as in RADAU5, so index-1 DAEs (a singular ``M``) can be solved.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax
import sciax.lax as lax
import sciax.numpy as snp
from sciax.integrate import _implicit as im

# Radau IIA (s = 3) constants, as in Hairer and Wanner (1996), Sec. IV.8 and
# SciPy's radau.py: nodes C, error weights E, the eigenvalues of A^{-1}
# (MU_REAL and the complex pair MU_COMPLEX), the eigenvector transformation T
# and its inverse TI, and the dense-output matrix P.
S6 = 6 ** 0.5
C = np.array([(4 - S6) / 10, (4 + S6) / 10, 1.0])
E = np.array([-13 - 7 * S6, -13 + 7 * S6, -1.0]) / 3
MU_REAL = 3 + 3 ** (2 / 3) - 3 ** (1 / 3)
MU_COMPLEX = (3 + 0.5 * (3 ** (1 / 3) - 3 ** (2 / 3))
              - 0.5j * (3 ** (5 / 6) + 3 ** (7 / 6)))
T = np.array([
    [0.09443876248897524, -0.14125529502095421, 0.03002919410514742],
    [0.25021312296533332, 0.20412935229379994, -0.38294211275726192],
    [1.0, 1.0, 0.0]])
TI = np.array([
    [4.17871859155190428, 0.32768282076106237, 0.52337644549944951],
    [-4.17871859155190428, -0.32768282076106237, 0.47662355450055044],
    [0.50287263494578682, -2.57192694985560522, 0.59603920482822492]])
TI_REAL = TI[0]
TI_COMPLEX = TI[1] + 1j * TI[2]
P = np.array([
    [13 / 3 + 7 * S6 / 3, -23 / 3 - 22 * S6 / 3, 10 / 3 + 5 * S6],
    [13 / 3 - 7 * S6 / 3, -23 / 3 + 22 * S6 / 3, 10 / 3 - 5 * S6],
    [1 / 3, -8 / 3, 10 / 3]])
# The Butcher matrix itself (Hairer and Wanner, Table IV.5.6), for the exact
# derivative of the stage equations.
A = np.array([
    [(88 - 7 * S6) / 360, (296 - 169 * S6) / 1800, (-2 + 3 * S6) / 225],
    [(296 + 169 * S6) / 1800, (88 + 7 * S6) / 360, (-2 - 3 * S6) / 225],
    [(16 - S6) / 36, (16 + S6) / 36, 1 / 9]])

NEWTON_MAXITER = 6
MIN_FACTOR, MAX_FACTOR = 0.2, 10.0


def _predict_factor(h_abs, h_abs_old, err, err_old):
    """Gustafsson's predictive controller (Hairer and Wanner, Sec. IV.8);
    NaN ``h_abs_old``/``err_old`` mean "no history" (a one-step formula)."""
    history = snp.isfinite(h_abs_old) & snp.isfinite(err_old) & (err > 0)
    safe_err = snp.where(err > 0, err, 1.0)
    mult = snp.where(history,
                     h_abs / snp.where(history, h_abs_old, 1.0)
                     * (snp.where(history, err_old, 1.0) / safe_err) ** 0.25, 1.0)
    return snp.where(err > 0, snp.minimum(1.0, mult) * safe_err ** -0.25, snp.inf)


class Radau(im.AbstractImplicitSolver):
    """Implicit Runge-Kutta Radau IIA method of order 5, with a mass matrix.

    SciPy's ``Radau`` algorithm: simplified Newton on the collocation system
    in the eigenbasis of the method (a real and a complex LU of size n), the
    Jacobian (``jac``, or exact by autodiff) reused while Newton converges
    fast, the LUs while the step changes by less than 20%, the embedded error
    estimate and the predictive step controller, and the cubic collocation
    polynomial as dense output.  sciax extra: ``solve_ivp(..., mass=M)`` with
    a constant, possibly singular, ``M`` solves ``M y' = f(t, y)``, which
    includes semi-explicit DAEs of index 1 (give consistent initial values).

    References
    ----------
    E. Hairer and G. Wanner, "Solving Ordinary Differential Equations II:
    Stiff and Differential-Algebraic Problems", 2nd ed., Springer (1996),
    Secs. IV.8 and VI.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> def f(t, y):
    ...     return snp.stack([-1000.0 * (y[0] - snp.cos(t)), -y[1]])
    >>> r = solve_ivp(f, (0.0, 1.0), snp.array([0.0, 1.0]), method="Radau",
    ...               rtol=1e-6)
    >>> print(np.round(np.asarray(r.y[:, -1]), 3), bool(r.success))
    [0.541 0.368] True
    """

    order = 5
    error_estimator_order = 3
    n_stages = 3
    dense_rows = 3
    supports_mass = True

    def init(self, prob, t0, y0, f0, h_abs, direction, rtol, atol):
        n = y0.shape[0]
        zero, nan = snp.asarray(0), snp.asarray(snp.nan, y0.dtype)
        no = snp.asarray(False)
        lu0 = snp.zeros((n, n), y0.dtype)
        return dict(h_abs=h_abs, h_start=h_abs, h_abs_old=nan, err_old=nan,
                    ho_local=nan, eo_local=nan, J=im.jacobian(prob, t0, y0),
                    lu_r=lu0, piv_r=im.pivots_init(n),
                    lu_c=lu0.astype(np.complex128), piv_c=im.pivots_init(n),
                    singular=no, lu_valid=no, current_jac=snp.asarray(True),
                    rejected=no, fresh=snp.asarray(True), has_sol=no,
                    Q=snp.zeros((3, n), y0.dtype), y_prev=y0, t_prev=t0 + 0 * h_abs,
                    h_prev=snp.ones_like(h_abs), last_fail=zero, nfev=zero,
                    njev=snp.asarray(0 if prob.jac_constant else 1), nlu=zero)

    def attempt(self, prob, t, y, f, state, t1, direction, rtol, atol, max_step,
                bounded):
        s = dict(state)
        fun, mass = prob.fun, prob.mass
        mm = (lambda v: v) if mass is None else (lambda v: mass @ v)
        n = y.shape[0]
        h_min = im.min_step(t, direction)
        fresh = s["fresh"]
        h_abs = s["h_abs"]
        # Step entry (SciPy's _step_impl): cap/lift the step, forgetting the
        # controller's history when that changes it.
        clamped = fresh & ((h_abs > max_step) | (h_abs < h_min))
        h_start = snp.where(fresh, h_abs, s["h_start"])
        ho = snp.where(fresh, snp.where(clamped, snp.nan, s["h_abs_old"]),
                       s["ho_local"])
        eo = snp.where(fresh, snp.where(clamped, snp.nan, s["err_old"]), s["eo_local"])
        h_abs = snp.where(fresh, snp.clip(h_abs, h_min, max_step), h_abs)
        rejected = s["rejected"] & ~fresh
        current_jac = s["current_jac"]
        too_small = h_abs < h_min
        t_new = t + direction * h_abs
        t_new = snp.where(direction * (t_new - t1) > 0, t1, t_new)
        h = t_new - t
        h_abs = snp.abs(h)

        # Predictor: the last step's collocation polynomial at the new nodes.
        x = (t + h * snp.asarray(C) - s["t_prev"]) / s["h_prev"]
        powers = x[:, None] ** snp.arange(1, 4)[None, :]  # (stage, degree)
        Z0 = snp.where(s["has_sol"], s["y_prev"] + im.msum(powers, s["Q"]) - y, 0.0)
        scale = atol + snp.abs(y) * rtol

        J = s["J"]
        M = snp.eye(n, dtype=y.dtype) if mass is None else mass

        def factor():
            hs = lax.stop_gradient(h)
            lr, pr, sr = im.lu_factor(MU_REAL / hs * M - J)
            lc, pc, sc = im.lu_factor(MU_COMPLEX / hs * M.astype(np.complex128) - J)
            return lr, pr, lc, pc, sr | sc

        lu_r, piv_r, lu_c, piv_c, singular = lax.cond(
            s["lu_valid"], lambda: (s["lu_r"], s["piv_r"], s["lu_c"], s["piv_c"],
                                    s["singular"]), factor)
        s = im.counters(s, nlu=2 * (~s["lu_valid"]).astype(np.int32))

        conv, n_iter, Z, rate = _collocation(
            fun, mm, t, y, h, Z0, scale, im.newton_tol(rtol),
            (lu_r, piv_r, lu_c, piv_c), bounded)
        conv = conv & ~singular & ~too_small
        s = im.counters(s, nfev=snp.where(too_small, 0, 3 * n_iter))
        if bounded:
            ch = h * snp.asarray(C)

            def residual(zf):
                z = zf.reshape(3, n)
                F = sciax.vmap(fun)(t + ch, y + z)
                return (sciax.vmap(mm)(z) - h * im.msum(A, F)).reshape(-1)
            Z = im.ift_refine(residual, Z.reshape(-1)).reshape(3, n)

        refresh = ~conv & ~current_jac & ~too_small
        halve = ~conv & current_jac & ~too_small

        y_new = y + Z[2]
        # Step-size decisions take no derivative: cut before computing them.
        sg = lax.stop_gradient
        ZE = im.wsum(E, sg(Z)) / sg(h)
        lu_real = (lu_r, piv_r)
        err = im.lu_solve(*lu_real, sg(f) + mm(ZE))
        scale_new = atol + snp.maximum(snp.abs(sg(y)), snp.abs(sg(y_new))) * rtol
        err_norm = im.rms(err / scale_new)
        safety = 0.9 * (2 * NEWTON_MAXITER + 1) / (2 * NEWTON_MAXITER + n_iter)
        # After a rejection, one more filtering of the estimate through f
        # (Hairer and Wanner, Sec. IV.8, (8.20)); it costs an evaluation.
        again = conv & rejected & ~(err_norm <= 1)
        def filtered():
            e2 = im.lu_solve(*lu_real, sg(fun(sg(t), sg(y) + err)) + mm(ZE))
            return im.rms(e2 / scale_new)
        err_norm = lax.cond(again, filtered, lambda: err_norm)
        err_norm = lax.stop_gradient(err_norm)
        s = im.counters(s, nfev=again)
        good = conv & (err_norm <= 1)
        reject = conv & ~good
        fac = _predict_factor(h_abs, ho, err_norm, eo)
        shrink = snp.where(snp.isfinite(err_norm),
                           snp.maximum(MIN_FACTOR, safety * fac), MIN_FACTOR)
        shrink = snp.where(halve, 0.5, shrink)

        recompute = good & (not prob.jac_constant) & (n_iter > 2) & (rate > 1e-3)
        grow = snp.minimum(MAX_FACTOR, safety * fac)
        hold = ~recompute & (grow < 1.2)
        grow = snp.where(hold, 1.0, grow)
        f_new = fun(t_new, y_new)
        s = im.counters(s, nfev=good)
        new_jac = refresh | recompute
        J = lax.cond(new_jac, lambda: im.jacobian(prob, snp.where(refresh, t, t_new),
                                                  snp.where(refresh, y, y_new)),
                     lambda: J)
        s = im.counters(s, njev=new_jac)

        out = dict(s)
        out["J"] = J
        out["lu_r"], out["piv_r"], out["lu_c"], out["piv_c"] = lu_r, piv_r, lu_c, piv_c
        out["singular"] = singular
        out["lu_valid"] = snp.where(good, hold, ~(halve | refresh | reject))
        out["current_jac"] = snp.where(
            good, recompute | prob.jac_constant, current_jac | refresh)
        out["h_abs"] = lax.stop_gradient(snp.where(
            good, h_abs * grow, snp.where(halve | reject, h_abs * shrink, h_abs)))
        out["h_start"], out["ho_local"], out["eo_local"] = h_start, ho, eo
        out["h_abs_old"] = snp.where(good, h_start, s["h_abs_old"])
        out["err_old"] = snp.where(good, err_norm, s["err_old"])
        out["rejected"] = (rejected | reject) & ~good
        out["fresh"] = good
        Q = im.msum(np.asarray(P).T, Z)
        out["has_sol"] = s["has_sol"] | good
        out["Q"] = snp.where(good, Q, s["Q"])
        out["y_prev"] = snp.where(good, y, s["y_prev"])
        out["t_prev"] = snp.where(good, t, s["t_prev"])
        out["h_prev"] = snp.where(good, h, s["h_prev"])
        last = snp.where(~conv, snp.where(singular, im.FAIL_SINGULAR, im.FAIL_NEWTON),
                         snp.where(reject, im.FAIL_ERROR, im.FAIL_NONE))
        out["last_fail"] = snp.where(too_small, s["last_fail"], last)
        return dict(state=out, accept=good, t_new=t_new, y_new=y_new, f_new=f_new,
                    coeffs=Q, fail=snp.where(too_small, s["last_fail"], -1))

    def dense_eval(self, coeffs, y_old, h, theta):
        powers = theta ** snp.arange(1, 4, dtype=coeffs.dtype)
        return y_old + im.wsum(powers, coeffs)


def _collocation(fun, mm, t, y, h, Z0, scale, tol, lus, bounded):
    """SciPy's ``solve_collocation_system`` (with the mass matrix of RADAU5):
    returns (converged, iterations, Z, last contraction rate)."""
    sg = lax.stop_gradient
    t, y, h, Z0, scale = (sg(v) for v in (t, y, h, Z0, scale))
    lu_r, piv_r, lu_c, piv_c = lus
    ch = h * snp.asarray(C)
    m_real, m_complex = MU_REAL / h, MU_COMPLEX / h
    ti, t_mat = snp.asarray(TI), snp.asarray(T)
    ti_r, ti_c = snp.asarray(TI_REAL), snp.asarray(TI_COMPLEX)

    def body(st):
        k, W, Z, norm_old, rate, _, _ = st
        # (cut: fun's closed-over parameters carry tangents)
        F = sg(sciax.vmap(fun)(t + ch, y + Z))
        f_real = im.wsum(ti_r, F) - m_real * mm(W[0])
        f_cplx = (im.wsum(ti_c, F.astype(np.complex128))
                  - m_complex * mm(W[1] + 1j * W[2]))
        dw_r = im.lu_solve(lu_r, piv_r, f_real)
        dw_c = im.lu_solve(lu_c, piv_c, f_cplx)
        dW = snp.stack([dw_r, snp.real(dw_c), snp.imag(dw_c)])
        norm = im.rms(dW / scale)
        norm = snp.where(snp.all(snp.isfinite(F)), norm, snp.nan)
        diverging, converged, new_rate = im.newton_rate_test(k, norm, norm_old,
                                                             NEWTON_MAXITER, tol)
        W = snp.where(diverging, W, W + dW)
        Z = snp.where(diverging, Z, im.msum(t_mat, W))
        rate = snp.where(k > 0, new_rate, rate)
        return k + 1, W, Z, norm, rate, converged, diverging | converged

    def keep_going(st):
        k, *_, done = st
        return ~done & (k < NEWTON_MAXITER)

    one = snp.asarray(1.0, y.dtype)
    init = (snp.asarray(0), im.msum(ti, Z0), Z0, one, snp.asarray(snp.nan, y.dtype),
            snp.asarray(False), snp.asarray(False))
    k, _, Z, _, rate, converged, _ = im.iterate(keep_going, body, init, NEWTON_MAXITER,
                                                bounded)
    return converged, k, Z, rate
