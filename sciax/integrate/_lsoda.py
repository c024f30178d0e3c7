"""LSODA-style automatic stiffness switching: Dormand-Prince 5(4) and BDF.

The solve starts with the explicit RK45 (cheap steps, no Jacobian).  After
each accepted RK step Shampine's stiffness estimate ``h * rho`` (rho from the
two stages at ``c = 1``, which Dormand-Prince provides for free) is compared
with the method's stability boundary along the negative real axis, about
3.3; after 15 steps beyond it (not interrupted by 6 steps within it) the
problem is taken as stiff and the
solve continues with BDF from the current point (as Hairer's DOPRI5 detects
stiffness).  While in BDF, the Jacobian the method already holds bounds the
spectral radius (its infinity norm); once 15 accepted BDF steps in a row
would also be stable for RK45 (``h * ||J|| < 3.3``, safety included), the
solve returns to RK45.  Petzold's LSODA switches between Adams and BDF with
finer estimates; the idea is the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax.lax as lax
import sciax.numpy as snp
from sciax.integrate import _implicit as im
from sciax.integrate import _rk
from sciax.integrate._bdf import BDF

RK_STABILITY = 3.25   # Hairer's DOPRI5 threshold for h * rho
SWITCH_AFTER = 15     # stiff-looking steps before switching to BDF
RESET_AFTER = 6       # non-stiff steps in a row that reset that count


class LSODA(im.AbstractImplicitSolver):
    """Automatic switching between explicit RK45 and BDF by a stiffness test.

    An LSODA-style method: non-stiff stretches are integrated by RK45 (no
    Jacobians, no linear algebra), stiff ones by BDF, switching on stiffness
    estimates (see the module notes).  sciax's ``'LSODA'`` uses Dormand-Prince
    where ODEPACK's LSODA uses Adams methods, so its steps differ from
    SciPy's ``LSODA``; ``nfev``, ``njev`` and ``nlu`` count both methods.

    References
    ----------
    L. Petzold, "Automatic selection of methods for solving stiff and nonstiff
    systems of ordinary differential equations", SIAM J. Sci. Stat. Comput. 4
    (1983) 136-148; E. Hairer and G. Wanner, "Solving Ordinary Differential
    Equations II", Sec. IV.2 (stiffness detection for DOPRI5).

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> def f(t, y):
    ...     return snp.stack([-1000.0 * (y[0] - snp.cos(t)), -y[1]])
    >>> r = solve_ivp(f, (0.0, 1.0), snp.array([0.0, 1.0]), method="LSODA", rtol=1e-6)
    >>> print(np.round(np.asarray(r.y[:, -1]), 3), bool(r.success))
    [0.541 0.368] True
    """

    order = 5
    error_estimator_order = 4
    n_stages = 6
    dense_rows = 8  # BDF's 6 rows or RK45's 4, and a row telling which

    def __init__(self):
        self.rk, self.bdf = _rk.RK45(), BDF()

    def init(self, prob, t0, y0, f0, h_abs, direction, rtol, atol):
        zero = snp.asarray(0)
        return dict(mode=zero, h_rk=h_abs, rejected=snp.asarray(False), count=zero,
                    calm=zero, switches=zero,
                    bdf=self.bdf.init(prob, t0, y0, f0, h_abs, direction, rtol, atol),
                    nfev=zero, njev=zero, nlu=zero)

    def attempt(self, prob, t, y, f, state, t1, direction, rtol, atol, max_step,
                bounded):
        rk_out = self._rk_attempt(prob, t, y, f, state, t1, direction, rtol, atol,
                                  max_step)
        bdf_out = self._bdf_attempt(prob, t, y, f, state, t1, direction, rtol, atol,
                                    max_step, bounded)
        return lax.cond(state["mode"] == 0, lambda: rk_out(), lambda: bdf_out())

    def _rk_attempt(self, prob, t, y, f, s, t1, direction, rtol, atol, max_step):
        def run():
            st = dict(s)
            h_min = im.min_step(t, direction)
            h_abs = snp.minimum(st["h_rk"], max_step)
            too_small = st["rejected"] & ~(h_abs >= h_min)
            h_abs = snp.where(st["rejected"], h_abs, snp.maximum(h_abs, h_min))
            t_new = t + direction * h_abs
            t_new = snp.where(direction * (t_new - t1) > 0, t1, t_new)
            h = t_new - t
            y_new, f_new, K = self.rk.step(prob.fun, t, y, f, h)
            scale = atol + snp.maximum(snp.abs(y), snp.abs(y_new)) * rtol
            err = lax.stop_gradient(self.rk.error_norm(K, h, scale))
            finite = snp.all(snp.isfinite(y_new)) & snp.isfinite(err)
            good = (err < 1) & finite & ~too_small
            grow, shrink = im.step_factors(err, st["rejected"], finite,
                                           self.rk.error_estimator_order)
            st["h_rk"] = lax.stop_gradient(h_abs * snp.where(good, grow, shrink))
            st["rejected"] = ~good
            st = im.counters(st, nfev=self.rk.n_stages)
            # Shampine's estimate from the two stages at c = 1 (Hairer and
            # Wanner II, (IV.2.11)): rho = |k7 - k6| / |y_new - y6|.
            a6 = np.asarray(self.rk.tableau.a)[5]
            dy = h * ((snp.asarray(self.rk.tableau.b) - snp.asarray(a6[:6])) @ K[:6])
            num, den = im.rms(K[6] - K[5]), im.rms(dy)
            h_rho = snp.where(den > 0, snp.abs(h) * num / snp.where(den > 0, den, 1.0),
                              0.0)
            # Hairer's DOPRI5 rule: 15 stiff-looking accepted steps, forgotten
            # only after 6 non-stiff ones in a row.
            stiff = lax.stop_gradient(h_rho > RK_STABILITY)
            calm = snp.where(good & ~stiff, st["calm"] + 1, snp.where(good, 0, st["calm"]))
            count = snp.where(good & stiff, st["count"] + 1,
                              snp.where(calm >= RESET_AFTER, 0, st["count"]))
            st["calm"] = snp.where(calm >= RESET_AFTER, 0, calm)
            switch = good & (count >= SWITCH_AFTER)
            # To BDF: start it afresh at the new point with the RK step size.
            fresh = lax.cond(switch, lambda: self.bdf.init(
                prob, t_new, y_new, f_new, lax.stop_gradient(snp.abs(h)), direction,
                rtol, atol), lambda: st["bdf"])
            st = im.counters(st, njev=snp.where(switch, fresh["njev"], 0))
            st["bdf"] = {k: (v if k in ("nfev", "njev", "nlu") else fresh[k])
                         for k, v in st["bdf"].items()}
            st["mode"] = snp.where(switch, 1, 0)
            st["count"] = snp.where(switch, 0, count)
            st["switches"] = st["switches"] + switch.astype(st["switches"].dtype)
            coeffs = snp.concatenate([self.rk.dense_coeffs(prob.fun, t, y, y_new, K, h),
                                      snp.zeros((3, y.shape[0]), y.dtype),
                                      snp.zeros((1, y.shape[0]), y.dtype)])
            return dict(state=st, accept=good, t_new=t_new, y_new=y_new, f_new=f_new,
                        coeffs=coeffs,
                        fail=snp.where(too_small, im.FAIL_ERROR, -1))
        return run

    def _bdf_attempt(self, prob, t, y, f, s, t1, direction, rtol, atol, max_step,
                     bounded):
        def run():
            st = dict(s)
            inner = dict(st["bdf"], nfev=snp.asarray(0), njev=snp.asarray(0),
                         nlu=snp.asarray(0))
            r = self.bdf.attempt(prob, t, y, f, inner, t1, direction, rtol, atol,
                                 max_step, bounded)
            b = r["state"]
            st = im.counters(st, nfev=b["nfev"], njev=b["njev"], nlu=b["nlu"])
            st["bdf"] = dict(b, nfev=st["bdf"]["nfev"], njev=st["bdf"]["njev"],
                             nlu=st["bdf"]["nlu"])
            good = r["accept"]
            # Would RK45 be stable at this step?  ||J||_inf bounds the spectral
            # radius of the Jacobian BDF holds.
            norm_j = snp.max(snp.sum(snp.abs(b["J"]), axis=1))
            h = r["t_new"] - t
            calm = lax.stop_gradient(snp.abs(h) * norm_j < RK_STABILITY / 2)
            count = snp.where(good, snp.where(calm, st["count"] + 1, 0), st["count"])
            switch = good & (count >= SWITCH_AFTER)
            st["mode"] = snp.where(switch, 0, 1)
            st["count"] = snp.where(switch, 0, count)
            st["switches"] = st["switches"] + switch.astype(st["switches"].dtype)
            st["h_rk"] = snp.where(switch, lax.stop_gradient(snp.abs(h)), st["h_rk"])
            st["rejected"] = snp.asarray(False)
            # RK45 needs f at the new point; BDF never evaluates it.
            f_new = lax.cond(switch, lambda: prob.fun(r["t_new"], r["y_new"]),
                             lambda: r["f_new"])
            st = im.counters(st, nfev=switch)
            coeffs = snp.concatenate([r["coeffs"], snp.ones((1, y.shape[0]), y.dtype)])
            coeffs = snp.concatenate([coeffs[:6], snp.zeros((1, y.shape[0]), y.dtype),
                                      coeffs[6:]])
            return dict(state=st, accept=good, t_new=r["t_new"], y_new=r["y_new"],
                        f_new=f_new, coeffs=coeffs, fail=r["fail"])
        return run

    def dense_eval(self, coeffs, y_old, h, theta):
        rk = self.rk.dense_eval(coeffs[:4], y_old, h, theta)
        bdf = self.bdf.dense_eval(coeffs[:6], y_old, h, theta)
        return snp.where(coeffs[7, 0] > 0.5, bdf, rk)
