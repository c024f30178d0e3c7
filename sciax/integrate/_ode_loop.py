"""The one stepping loop shared by every explicit solver.

``integrate(...)`` runs attempted steps until the end of the span, a terminal
event, a failure or ``max_steps`` attempts, with SciPy's step-size control.
Everything per step happens inside the loop body: ``t_eval`` points are
interpolated as steps pass them (the output is exactly ``len(t_eval)`` points,
never a buffer sized by ``max_steps``), events are located on the step's
interpolant, and accepted steps are written to ``max_steps``-sized buffers only
when the caller asked for them (no ``t_eval``, or ``dense_output``).

Three loop kinds share the body.  ``"while"`` is a ``lax.while_loop``: fast,
and forward-mode differentiable for the explicit methods.  ``"forward"`` is
the same loop with the implicit methods' converged roots refined for their
implicit-function derivative (forward mode through any method).
``"bounded"`` is a two-level ``lax.scan`` of ``ceil(sqrt(max_steps))`` chunks
(each step a ``lax.cond`` that is a no-op once finished, and finished chunks
skipped): reverse mode can differentiate it (``adjoint='direct'`` with many
inputs, implicit methods).  Wrapping each chunk in ``sciax.checkpoint`` would
store only chunk boundaries plus one chunk's steps (memory ~ sqrt(max_steps));
that is blocked on a ``sciax.checkpoint`` transpose bug, see
``_bounded_loop``.  The explicit methods' reverse mode uses ``replay``
instead: the accepted steps recorded by the ``while`` loop, rerun as a
straight-line scan in checkpointed chunks.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any, Callable, NamedTuple

import numpy as np

import sciax
import sciax.lax as lax
import sciax.numpy as snp
from sciax.integrate import _implicit, _rk

SAFETY, MIN_FACTOR, MAX_FACTOR = 0.9, 0.2, 10.0

# Status codes: SciPy's 0 / 1 / -1, sciax's extra failures below -1, and one
# internal "still running" code that never leaves the loop.
FINISHED, EVENT, STEP_TOO_SMALL, MAX_STEPS, NONFINITE, RUNNING = 0, 1, -1, -2, -3, 2
NEWTON_FAILED, SINGULAR = -4, -5  # implicit methods: why the step size underflowed
MESSAGES = {
    FINISHED: "The solver successfully reached the end of the integration interval.",
    EVENT: "A termination event occurred.",
    STEP_TOO_SMALL: "Required step size is less than spacing between numbers.",
    MAX_STEPS: "The maximum number of steps (max_steps) was reached before the end "
               "of the integration interval; increase max_steps.",
    NONFINITE: "The solution or its derivative became NaN or infinite.",
    NEWTON_FAILED: "Required step size is less than spacing between numbers: the "
                   "Newton iterations of the implicit method did not converge.",
    SINGULAR: "Required step size is less than spacing between numbers: the "
              "iteration matrix of the implicit method is singular.",
}


class Event(NamedTuple):
    fun: Callable  # flat: (t, y_flat) -> scalar
    terminal: int  # occurrences before stopping; 0 for never
    direction: float


class LoopConfig(NamedTuple):
    solver: Any
    fun: Callable          # flat: (t, y_flat) -> f_flat
    max_step: float
    first_step: Any        # None or a scalar
    max_steps: int
    t_eval: Any            # None or a 1-D array
    save_steps: bool       # keep every accepted step (ts, ys)
    dense: bool            # keep every step's interpolant too
    events: tuple
    event_capacity: int
    kind: str              # "while", "forward" or "bounded"
    progress: bool
    jac: Any = None        # implicit methods: None (autodiff), flat callable or array
    mass: Any = None       # Radau: None or a constant (n, n) mass matrix
    split: Any = None      # IMEX: flat (f_explicit, f_implicit); fun is their sum
    sparsity: Any = None   # implicit methods: a boolean numpy (n, n) Jacobian pattern
    record: bool = False   # keep what ``replay`` needs (implies save_steps)


def select_initial_step(fun, t0, y0, t1, f0, direction, order, rtol, atol, max_step):
    """SciPy's initial step (Hairer, Norsett and Wanner, Sec. II.4), traced."""
    span = snp.abs(t1 - t0)
    if y0.shape[0] == 0:  # nothing to resolve: one step to the end, as SciPy
        return snp.minimum(span, max_step)
    scale = atol + snp.abs(y0) * rtol
    d0, d1 = _rk.rms(y0 / scale), _rk.rms(f0 / scale)
    h0 = snp.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6,
                   0.01 * d0 / snp.where(d1 > 0, d1, 1))
    h0 = snp.minimum(h0, span)
    f1 = fun(t0 + h0 * direction, y0 + h0 * direction * f0)
    d2 = _rk.rms((f1 - f0) / scale) / snp.where(h0 > 0, h0, 1)
    dmax = snp.maximum(d1, d2)
    h1 = snp.where((d1 <= 1e-15) & (d2 <= 1e-15), snp.maximum(1e-6, h0 * 1e-3),
                   (0.01 / snp.where(dmax > 0, dmax, 1)) ** (1 / (order + 1)))
    h = snp.minimum(snp.minimum(100 * h0, h1), snp.minimum(span, max_step))
    return snp.where(span > 0, h, 0.0)


def _illinois(g: Callable, ta: Any, tb: Any, ga: Any, gb: Any, bounded: bool) -> Any:
    """A root of ``g`` in [ta, tb] (``ga``, ``gb`` of opposite sign or zero) by
    the Illinois variant of regula falsi, to a few ulps of t."""
    tol = 4 * np.finfo(np.float64).eps

    def body(c):
        a, b, fa, fb, side, it = c
        den = fb - fa
        m = b - fb * (b - a) / snp.where(den != 0, den, 1)
        lo, hi = snp.minimum(a, b), snp.maximum(a, b)
        m = snp.where((den != 0) & (m > lo) & (m < hi), m, 0.5 * (a + b))
        fm = g(m)
        keep_a = snp.sign(fm) == snp.sign(fb)
        # When g(m) has the sign of g(b), a is kept; kept twice in a row its
        # value is halved (Illinois), which restores superlinear convergence
        # where plain regula falsi keeps one end forever.
        na = snp.where(keep_a, a, b)
        nfa = snp.where(keep_a, snp.where(side == 1, 0.5 * fa, fa), fb)
        return na, m, nfa, fm, snp.where(keep_a, 1, -1), it + 1

    def keep_going(c):
        a, b, fa, fb, _, it = c
        return ((fb != 0) & (snp.abs(b - a) > tol * snp.maximum(1.0, snp.abs(b)))
                & (it < 100))

    init = (ta, tb, ga, gb, snp.asarray(0), snp.asarray(0))
    if bounded:
        def fixed(_, c):
            n = body(c)
            return tuple(snp.where(keep_going(c), x, y) for x, y in zip(n, c))
        out = lax.fori_loop(0, 60, fixed, init)
    else:
        out = lax.while_loop(keep_going, body, init)
    return out[1]


def _progress_cb() -> Callable:
    last = [0.0]

    def show(t, t0, t1, done):
        # Host side: redraw at most five times a second.
        now = time.monotonic()
        if not bool(np.all(done)) and now - last[0] < 0.2:
            return
        last[0] = now
        t, t0, t1 = (float(np.min(x)) for x in (t, t0, t1))
        done = bool(np.all(done))
        frac = float(np.clip((t - t0) / (t1 - t0) if t1 != t0 else 1.0, 0, 1))
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\rsolve_ivp [{bar:<30}] {100 * frac:5.1f}% t={float(t):.4g}")
        if done:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def _initial_state(cfg: LoopConfig, t0: Any, t1: Any, y0: Any, rtol: Any, atol: Any
                   ) -> dict:
    """The loop's state before the first step: ``f0``, the first step size,
    the solver's own state and the output buffers."""
    solver, fun = cfg.solver, cfg.fun
    dtype = y0.dtype
    n = y0.shape[0]
    direction = snp.where(t1 >= t0, 1.0, -1.0)
    f0 = fun(t0, y0)
    nfev = snp.asarray(1)
    if cfg.first_step is not None:
        h_abs = snp.asarray(cfg.first_step, dtype)
    else:
        h_abs = select_initial_step(fun, t0, y0, t1, f0, direction,
                                    solver.error_estimator_order, rtol, atol,
                                    cfg.max_step)
        nfev = nfev + 1
    h_abs = lax.stop_gradient(h_abs)
    stateful = getattr(solver, "stateful", False)

    s: dict[str, Any] = dict(
        t=t0 + 0 * t1, y=y0, f=f0, h_abs=h_abs, rejected=snp.asarray(False),
        n_acc=snp.asarray(0), n_iter=snp.asarray(0), nfev=nfev,
        status=snp.where(t1 == t0, FINISHED,
                         snp.where(snp.all(snp.isfinite(f0)), RUNNING, NONFINITE)),
        nonfinite=snp.asarray(False))
    if stateful:
        prob = _implicit.Problem(fun, cfg.jac, cfg.mass, cfg.split, cfg.sparsity)
        s["ss"] = solver.init(prob, t0, y0, f0, h_abs, direction, rtol, atol)
    if cfg.t_eval is not None:
        te = cfg.t_eval
        at_start = te == t0
        s["ys_eval"] = snp.where(at_start[:, None], y0[None, :],
                                 snp.full((te.shape[0], n), snp.nan, dtype))
        s["i_eval"] = (snp.sum(at_start.astype(np.int32)) if te.shape[0]
                       else snp.asarray(0))
    if cfg.save_steps:
        m = cfg.max_steps + 1
        s["ts"] = snp.full((m,), snp.nan, dtype).at[0].set(t0)
        if not cfg.record:
            s["ys"] = snp.full((m, n), snp.nan, dtype).at[0].set(y0)
    if cfg.dense:
        deg = _dense_rows(solver)
        s["hs"] = snp.zeros((cfg.max_steps,), dtype)
        s["cs"] = snp.zeros((cfg.max_steps, deg, n), dtype)
    if cfg.events:
        k, cap = len(cfg.events), cfg.event_capacity
        s["g"] = snp.stack([snp.asarray(ev.fun(t0, y0), dtype) for ev in cfg.events])
        s["ev_t"] = snp.full((k, cap), snp.nan, dtype)
        s["ev_y"] = snp.full((k, cap, n), snp.nan, dtype)
        s["ev_n"] = snp.zeros((k,), np.int32)
    return s



def integrate(cfg: LoopConfig, t0: Any, t1: Any, y0: Any, rtol: Any, atol: Any,
              mode: str = "solve", state: dict | None = None) -> dict:
    """Run the loop; returns a dict of final state, buffers and counters.

    ``mode="init"`` returns the initial state without stepping, and
    ``mode="step"`` continues from ``state`` (such a state, with ``n_acc`` and
    ``n_iter`` reset to 0) until one step is accepted, the solve fails or
    ``max_steps`` attempts pass, leaving ``status`` RUNNING while it may go
    on: SciPy's ``OdeSolver.step`` (``_odesolver.py``).
    """
    solver, fun = cfg.solver, cfg.fun
    dtype = y0.dtype
    n = y0.shape[0]
    direction = snp.where(t1 >= t0, 1.0, -1.0)
    bounded = cfg.kind == "bounded"
    # "forward": the while loop, with the implicit methods' roots carrying
    # their implicit-function derivative (forward mode differentiates it).
    roots_mode = True if bounded else (_implicit.IFT if cfg.kind == "forward"
                                       else False)
    need_dense = cfg.dense or cfg.t_eval is not None or bool(cfg.events)

    if stateful := getattr(solver, "stateful", False):
        prob = _implicit.Problem(fun, cfg.jac, cfg.mass, cfg.split, cfg.sparsity)
    show = _progress_cb() if cfg.progress else None
    s = _initial_state(cfg, t0, t1, y0, rtol, atol) if state is None else dict(state)
    if mode == "init":
        return s

    def cond(s):
        going = (s["status"] == RUNNING) & (s["n_iter"] < cfg.max_steps)
        return going & (s["n_acc"] == 0) if mode == "step" else going

    def body_stateful(s):
        s = dict(s)
        t, y, f = s["t"], s["y"], s["f"]
        r = solver.attempt(prob, t, y, f, s["ss"], t1, direction, rtol, atol,
                           cfg.max_step, roots_mode)
        s["ss"] = r["state"]
        s["n_iter"] = s["n_iter"] + 1
        fail = r["fail"]
        s["status"] = snp.where(
            fail == _implicit.FAIL_NEWTON, NEWTON_FAILED,
            snp.where(fail == _implicit.FAIL_SINGULAR, SINGULAR,
                      snp.where(fail >= 0, STEP_TOO_SMALL, s["status"])))
        step = (t, y, r["t_new"], r["y_new"], r["f_new"], r["coeffs"], r["t_new"] - t)
        if cfg.events or bounded:
            s = lax.cond(r["accept"], lambda s: _accept(s, step), lambda s: s, s)
        else:
            # As for the explicit methods: straight-line, no cond over the
            # whole state (which made XLA pass every entry as its own buffer).
            s = _accept_masked(s, step, r["accept"])
        if show is not None:
            sciax.debug.callback(show, s["t"], t0, t1, s["status"] != RUNNING)
        return s

    def body(s):
        s = dict(s)
        t, y, f = s["t"], s["y"], s["f"]
        min_step = _implicit.min_step(t, direction)
        h_abs = s["h_abs"]
        too_small = snp.asarray(False)
        if solver.adaptive:
            h_abs = snp.minimum(h_abs, cfg.max_step)
            too_small = s["rejected"] & ~(h_abs >= min_step)  # NaN-safe
            h_abs = snp.where(s["rejected"], h_abs, snp.maximum(h_abs, min_step))
        t_new = t + direction * h_abs
        if not solver.adaptive:
            # Fixed steps: t0 + k h without accumulated roundoff, and no sliver
            # of a step left before t1.
            t_new = t0 + direction * h_abs * (s["n_acc"] + 1)
            t_new = snp.where(direction * (t1 - t_new) < 1e-9 * h_abs, t1, t_new)
        t_new = snp.where(direction * (t_new - t1) > 0, t1, t_new)
        h = t_new - t
        if cfg.record:
            # Only derivative programs record, and they compile the loop
            # with the replay: the rolled stages keep that program small.
            y_new, f_new, K = solver.stages_rolled(fun, t, y, f, h)
        elif hasattr(solver, "stages"):
            y_new, f_new, K = solver.stages(fun, t, y, f, h)
        else:
            y_new, f_new, K = solver.step(fun, t, y, f, h)
        if solver.adaptive:
            scale = atol + snp.maximum(snp.abs(y), snp.abs(y_new)) * rtol
            if getattr(solver, "norm_propagates_nan", False):
                # One reduction for the error and the finiteness check: a NaN
                # or inf in y_new or f_new makes the scale, hence err, NaN
                # (0 * finite is exactly 0, so finite values are unchanged).
                scale = scale + (y_new * 0 + f_new * 0)
                err = lax.stop_gradient(solver.error_norm(K, h, scale))
                finite = snp.isfinite(err)
            else:
                err = lax.stop_gradient(solver.error_norm(K, h, scale))
                finite = (snp.all(snp.isfinite(y_new)) & snp.all(snp.isfinite(f_new))
                          & snp.isfinite(err))
            accept = (err < 1) & finite & ~too_small
            expo = -1.0 / (solver.error_estimator_order + 1)
            safe_err = snp.where((err > 0) & finite, err, 1.0)
            grow = snp.where(err == 0, MAX_FACTOR,
                             snp.minimum(MAX_FACTOR, SAFETY * safe_err ** expo))
            grow = snp.where(s["rejected"], snp.minimum(1.0, grow), grow)
            shrink = snp.where(finite,
                               snp.maximum(MIN_FACTOR, SAFETY * safe_err ** expo),
                               MIN_FACTOR)
            s["h_abs"] = lax.stop_gradient(h_abs * snp.where(accept, grow, shrink))
            s["rejected"] = ~accept
        else:
            finite = snp.all(snp.isfinite(y_new)) & snp.all(snp.isfinite(f_new))
            accept = finite
        s["nonfinite"] = ~finite
        s["nfev"] = s["nfev"] + solver.n_stages
        s["n_iter"] = s["n_iter"] + 1
        failed = ~accept & (too_small | ~solver.adaptive)
        s["status"] = snp.where(failed, snp.where(s["nonfinite"], NONFINITE,
                                                  STEP_TOO_SMALL), s["status"])
        step = (t, y, t_new, y_new, f_new, K, h)
        if cfg.events or bounded:
            # Events, and the bounded loop that reverse mode differentiates:
            # there the accept cond compiles ~10% faster than the masked
            # update (measured on the Lorenz grad program), so keep it.
            s = lax.cond(accept, lambda s: _accept(s, step), lambda s: s, s)
        else:
            s = _accept_masked(s, step, accept)
        if show is not None:
            # Every attempt calls the host, which redraws at most 5 times a
            # second: a callback inside lax.cond is dropped by sciax today.
            sciax.debug.callback(show, s["t"], t0, t1, s["status"] != RUNNING)
        return s

    def _accept(s, step):
        t, y, t_new, y_new, f_new, K, h = step
        s = dict(s)
        coeffs = None
        ev_signs = _event_signs(s, y_new, t_new) if cfg.events else None
        if need_dense and solver.dense_nfev:
            # An interpolant that costs evaluations (DOP853) is built only for
            # steps that use it, as SciPy does: so nfev matches SciPy's.
            need = snp.asarray(cfg.dense)
            if cfg.t_eval is not None:
                te = cfg.t_eval
                need = need | snp.any((direction * (te - t) > 0)
                                      & (direction * (te - t_new) <= 0))
            if cfg.events:
                need = need | snp.any(ev_signs[1])
            deg = _dense_rows(solver)
            coeffs = lax.cond(need, lambda: solver.dense_coeffs(fun, t, y, y_new, K, h),
                              lambda: snp.zeros((deg, n), dtype))
            s["nfev"] = s["nfev"] + solver.dense_nfev * need.astype(s["nfev"].dtype)
        elif need_dense:
            coeffs = solver.dense_coeffs(fun, t, y, y_new, K, h)

        def interp(tq):
            return solver.dense_eval(coeffs, y, h, (tq - t) / h)

        t_end, y_end, f_end = t_new, y_new, f_new
        stop = snp.asarray(False)
        if cfg.events:
            t_end, y_end, stop = _events(s, t, t_new, ev_signs, interp, y_new)
            f_end = snp.where(stop, f_new * 0, f_new)  # unused after a stop
        if cfg.t_eval is not None:
            _fill_t_eval(s, t, t_end, interp)
        if cfg.save_steps:
            i = s["n_acc"] + 1
            s["ts"] = s["ts"].at[i].set(t_end)
            if not cfg.record:
                s["ys"] = s["ys"].at[i].set(y_end)
        if cfg.dense:
            s["hs"] = s["hs"].at[s["n_acc"]].set(h)
            s["cs"] = s["cs"].at[s["n_acc"]].set(coeffs)
        s["t"], s["y"], s["f"] = t_end, y_end, f_end
        s["n_acc"] = s["n_acc"] + 1
        s["status"] = snp.where(stop, EVENT, snp.where(t_new == t1, FINISHED,
                                                       s["status"]))
        return s

    def _accept_masked(s, step, accept):
        """``_accept`` without events, as straight-line code: the state moves
        to the step's end under ``where(accept, ...)`` and the buffers get
        their row (NaN or zero, as initialised, on a rejected step), so the
        common step runs no conditional at all.  Only a step that passes a
        ``t_eval`` point builds the interpolant and fills the output, in a
        ``lax.cond`` (its nested loop and the dense coefficients are skipped on
        every other step)."""
        t, y, t_new, y_new, f_new, K, h = step
        s = dict(s)
        coeffs = None
        if cfg.dense:
            if solver.dense_nfev:
                deg = _dense_rows(solver)
                coeffs = lax.cond(
                    accept, lambda: solver.dense_coeffs(fun, t, y, y_new, K, h),
                    lambda: snp.zeros((deg, n), dtype))
                s["nfev"] = s["nfev"] + solver.dense_nfev * accept.astype(
                    s["nfev"].dtype)
            else:
                coeffs = solver.dense_coeffs(fun, t, y, y_new, K, h)
        if cfg.t_eval is not None and cfg.t_eval.shape[0]:
            te = cfg.t_eval
            m = te.shape[0]
            if bounded:
                hit = accept & snp.any((direction * (te - t) > 0)
                                       & (direction * (te - t_new) <= 0))
            else:
                # t_eval is sorted along the direction: the next point due is
                # te[i_eval], and the step passes it or no point at all.
                i = s["i_eval"]
                hit = accept & (i < m) & (
                    direction * (te[snp.minimum(i, m - 1)] - t_new) <= 0)

            # nfev goes through the cond only when the interpolant costs
            # evaluations (one operand and one kernel fewer per step else).
            count = bool(solver.dense_nfev) and coeffs is None

            def fill(c):
                i_eval, ys_eval, *nfev = c
                cs = coeffs
                if cs is None:
                    cs = solver.dense_coeffs(fun, t, y, y_new, K, h)
                    if count:
                        nfev = [nfev[0] + solver.dense_nfev]

                def interp(tq):
                    return solver.dense_eval(cs, y, h, (tq - t) / h)
                o = dict(i_eval=i_eval, ys_eval=ys_eval)
                _fill_t_eval(o, t, t_new, interp)
                return (o["i_eval"], o["ys_eval"], *nfev)
            ops = (s["i_eval"], s["ys_eval"]) + ((s["nfev"],) if count else ())
            s["i_eval"], s["ys_eval"], *nf = lax.cond(hit, fill, lambda c: c, ops)
            if count:
                s["nfev"] = nf[0]
        if cfg.save_steps:
            i = s["n_acc"] + 1
            s["ts"] = s["ts"].at[i].set(snp.where(accept, t_new, snp.nan))
            if not cfg.record:
                s["ys"] = s["ys"].at[i].set(snp.where(accept, y_new, snp.nan))
        if cfg.dense:
            s["hs"] = s["hs"].at[s["n_acc"]].set(snp.where(accept, h, 0.0))
            s["cs"] = s["cs"].at[s["n_acc"]].set(snp.where(accept, coeffs, 0.0))
        s["t"] = snp.where(accept, t_new, t)
        s["y"] = snp.where(accept, y_new, y)
        s["f"] = snp.where(accept, f_new, s["f"])
        s["n_acc"] = s["n_acc"] + accept.astype(s["n_acc"].dtype)
        s["status"] = snp.where(accept & (t_new == t1), FINISHED, s["status"])
        return s

    def _fill_t_eval(s, t, t_end, interp):
        te = cfg.t_eval
        if bounded or cfg.kind == "forward":
            # No data-dependent loop under reverse mode: interpolate every point
            # and keep those this step covers (the forward kind too: it runs
            # only with a few t_eval points, and one loop less compiles faster).
            inside = ((direction * (te - t) > 0) & (direction * (te - t_end) <= 0))
            vals = sciax.vmap(interp)(te)
            s["ys_eval"] = snp.where(inside[:, None], vals, s["ys_eval"])
            s["i_eval"] = s["i_eval"] + snp.sum(inside.astype(np.int32))
            return

        def more(c):
            i, _ = c
            ii = snp.minimum(i, te.shape[0] - 1)
            return (i < te.shape[0]) & (direction * (te[ii] - t_end) <= 0)

        def put(c):
            i, buf = c
            return i + 1, buf.at[i].set(interp(te[i]))
        s["i_eval"], s["ys_eval"] = lax.while_loop(more, put,
                                                   (s["i_eval"], s["ys_eval"]))

    def _event_signs(s, y_new, t_new):
        g_new = snp.stack([snp.asarray(ev.fun(t_new, y_new), dtype)
                           for ev in cfg.events])
        g_old = s["g"]
        up = (g_old <= 0) & (g_new >= 0)
        down = (g_old >= 0) & (g_new <= 0)
        dirs = snp.asarray([ev.direction for ev in cfg.events], dtype)
        active = ((up & (dirs > 0)) | (down & (dirs < 0)) | ((up | down) & (dirs == 0)))
        # A zero at the step start belongs to the previous step (or to t0).
        return g_new, active & (g_old != 0)

    def _events(s, t, t_new, signs, interp, y_new):
        g_new, active = signs
        g_old = s["g"]
        roots = []
        for i, ev in enumerate(cfg.events):
            gi = lambda tq, ev=ev: snp.asarray(ev.fun(tq, interp(tq)), dtype)
            r = lax.cond(active[i], lambda: _illinois(gi, t, t_new, g_old[i], g_new[i],
                                                      bounded), lambda: t_new)
            roots.append(_ift_time(gi, lax.stop_gradient(r)))
        roots = snp.stack(roots)
        terminal = snp.asarray([ev.terminal for ev in cfg.events])
        fires = active & (terminal > 0) & (s["ev_n"] + 1 >= terminal)
        key = snp.where(fires, direction * roots, snp.inf)
        first = snp.argmin(key)
        stop = snp.any(fires)
        t_stop = snp.where(stop, roots[first], t_new)
        record = active & (direction * (roots - t_stop) <= 0)
        cap = cfg.event_capacity
        ys_root = sciax.vmap(interp)(roots)
        for i in range(len(cfg.events)):
            j = snp.minimum(s["ev_n"][i], cap - 1)
            ok = record[i] & (s["ev_n"][i] < cap)
            s["ev_t"] = s["ev_t"].at[i, j].set(snp.where(ok, roots[i], s["ev_t"][i, j]))
            s["ev_y"] = s["ev_y"].at[i, j].set(snp.where(ok, ys_root[i],
                                                         s["ev_y"][i, j]))
        s["ev_n"] = s["ev_n"] + record.astype(np.int32)
        s["g"] = g_new
        y_end = snp.where(stop, ys_root[first], y_new)
        return t_stop, y_end, stop

    step_body = body_stateful if stateful else body
    # Only the explicit while loop packs: the implicit solvers' and the
    # bounded loop's bodies pass the whole state through a lax.cond, which
    # then needs every scalar as its own buffer (more kernels, not fewer).
    pack, unpack = _scalar_packer(s, enable=not (bounded or cfg.events),
                                  skip=("ss",))
    if bounded:
        s = unpack(_bounded_loop(lambda p: cond(unpack(p)),
                                 lambda p: pack(step_body(unpack(p))), pack(s),
                                 cfg.max_steps))
    else:
        s = unpack(lax.while_loop(lambda p: cond(unpack(p)),
                                  lambda p: pack(step_body(unpack(p))), pack(s)))
    if mode == "step":
        return s
    s["status"] = snp.where(s["status"] == RUNNING, MAX_STEPS, s["status"])
    if stateful:
        s["nfev"] = s["nfev"] + s["ss"]["nfev"]
        s["njev"], s["nlu"] = s["ss"]["njev"], s["ss"]["nlu"]
    return s


def _scalar_packer(s: dict, enable: bool = True, skip: tuple = ()
                   ) -> tuple[Callable, Callable]:
    """``(pack, unpack)`` for the loop state: its integer and boolean scalars
    (counters, status, flags) travel as one integer vector.  XLA's CPU
    backend runs each updated loop output as its own kernel, so the step's
    scalar bookkeeping becomes one kernel instead of one per scalar: fewer
    kernels per step (faster steps) and in the program (faster compiles).
    Floating scalars stay apart (their derivatives differ: ``t`` carries one,
    the step size none), and so do the entries named in ``skip`` (the
    implicit solvers' own state, whose scalars feed conds inside their
    attempt: a cond needs each operand as its own buffer, so packing them
    would add kernels)."""
    leaves, tree = sciax.tree.flatten({k: v for k, v in s.items() if k not in skip})
    idx = [i for i, x in enumerate(leaves)
           if np.ndim(x) == 0 and not np.issubdtype(np.dtype(x.dtype), np.inexact)]
    if len(idx) < 2 or not enable:
        return (lambda s: s), (lambda s: s)
    dtypes = [np.dtype(leaves[i].dtype) for i in idx]
    wide = np.result_type(np.int32, *[d for d in dtypes if d != np.bool_])
    pos = {i: k for k, i in enumerate(idx)}

    def pack(s):
        lv = sciax.tree.leaves({k: v for k, v in s.items() if k not in skip})
        ints = snp.stack([snp.asarray(lv[i]).astype(wide) for i in idx])
        return (ints, [x for i, x in enumerate(lv) if i not in pos],
                {k: s[k] for k in skip if k in s})

    def unpack(p):
        ints, rest, skipped = p
        it = iter(rest)
        lv = [ints[pos[i]].astype(dtypes[pos[i]]) if i in pos else next(it)
              for i in range(len(leaves))]
        out = dict(tree.unflatten(lv))
        out.update(skipped)
        return out
    return pack, unpack


def _ift_time(g: Callable, r: Any) -> Any:
    """``r`` with the derivative of the root by the implicit function theorem:
    ``r - g(r) / g'(r)`` has value ``r`` (``g(r)`` is ~0) and derivative
    ``-dg / (dg/dt)`` with respect to whatever ``g`` depends on."""
    dg = lax.stop_gradient(sciax.jvp(g, (r,), (snp.ones_like(r),))[1])
    dg = snp.where(dg != 0, dg, 1.0)
    val = g(r)
    return r - (val - lax.stop_gradient(val)) / dg


def _dense_rows(solver: Any) -> int:
    if getattr(solver, "stateful", False):
        return solver.dense_rows
    if isinstance(solver, _rk.DOP853):
        return 7
    return solver.tableau.p.shape[1]


def _bounded_loop(cond: Callable, body: Callable, s: Any, max_steps: int) -> Any:
    inner = max(1, int(math.ceil(math.sqrt(max_steps))))
    outer = int(math.ceil(max_steps / inner))

    def one(c, _):
        return lax.cond(cond(c), body, lambda c: c, c), None

    # TODO(sciax.checkpoint): wrapping ``chunk`` in sciax.checkpoint would store
    # only chunk boundaries, but checkpoint's transpose currently fails on a
    # scan whose body branches on a boolean carry (UndefinedPrimal(bool)), so
    # reverse mode stores every step's residuals for now.
    def chunk(c):
        return lax.scan(one, c, None, length=inner)[0]

    def chunk_if(c, _):
        return lax.cond(cond(c), chunk, lambda c: c, c), None

    return lax.scan(chunk_if, s, None, length=outer)[0]


def replayable(solver: Any) -> bool:
    """Whether ``replay`` can rerun ``solver``'s recorded steps (the explicit
    Runge-Kutta methods; an implicit method would also need its stage roots
    recorded, and their implicit-function derivative, which is not done)."""
    return (isinstance(solver, _rk.AbstractExplicitRK)
            and not getattr(solver, "stateful", False))


def replay(cfg: LoopConfig, rec: dict, t0: Any, t1: Any, y0: Any) -> dict:
    """The accepted steps of a recorded solve (``rec``, from ``integrate`` with
    ``record``), rerun as a scan over ``max_steps`` slots with no step-size
    controller and no error estimate: what reverse mode differentiates for
    ``adjoint='direct'`` with many inputs.  Slot ``k < n_acc`` takes the
    recorded step from ``ts[k]`` to ``ts[k + 1]``; later slots are no-ops.
    The slots run in checkpointed chunks of ``ceil(sqrt(max_steps))``, and a
    chunk past the last step is skipped by a ``lax.cond``.

    The step sizes carry no derivative (as in the loop, where ``h`` is cut
    from derivatives): a step ends at ``ts[k + 1] + (t - stop_gradient(t))``,
    the recorded value with the derivative of its start, except the step
    that ends at ``t1``, which ends at ``t1`` itself.  ``t_eval`` points are
    interpolated after the scan on the step that covers each (found from the
    recorded times), so the scan body holds only the steps."""
    solver, fun = cfg.solver, cfg.fun
    sg = lax.stop_gradient
    dtype, n = y0.dtype, y0.shape[0]
    direction = snp.where(t1 >= t0, 1.0, -1.0)
    n_acc, ts_rec = rec["n_acc"], rec["ts"]
    t_start = t0 + 0 * t1
    t1v = sg(t1)

    def body(c, k):
        t, y, f = c
        active = k < n_acc
        tr = snp.where(active, ts_rec[k + 1], sg(t))
        t_new = snp.where(active & (tr == t1v), t1, tr + (t - sg(t)))
        h = t_new - t
        y_new, f_new, K = solver.stages_rolled(fun, t, y, f, h)
        t_new = snp.where(active, t_new, t)
        y_new = snp.where(active, y_new, y)
        f_new = snp.where(active, f_new, f)
        return (t_new, y_new, f_new), (t, y, K)

    f0 = fun(t0, y0)
    m_steps = cfg.max_steps
    inner = max(1, int(math.ceil(math.sqrt(m_steps))))
    outer = int(math.ceil(m_steps / inner))

    def chunk(c, j):
        # Chunks past the last recorded step are skipped (their outputs are
        # never read), so a derivative costs the steps taken, not max_steps.
        ks = j * inner + snp.arange(inner)
        return lax.cond(j * inner < n_acc, lambda c: lax.scan(body, c, ks),
                        lambda c: (c, _zeros_like_scan(body, c, ks)), c)

    # Reverse mode stores the chunk boundaries and reruns one chunk at a time
    # (memory ~ sqrt(max_steps) steps' residuals).
    chunk = sciax.checkpoint(chunk)
    (t_f, y_f, _), ys = lax.scan(chunk, (t_start, y0, f0), snp.arange(outer))
    tk, yk, Kk = (v.reshape((outer * inner,) + v.shape[2:])[:m_steps] for v in ys)
    # A step ends where the next starts (the last one at the final state).
    nxt = (snp.arange(m_steps) + 1 < n_acc)
    tnk = snp.where(nxt, snp.concatenate([tk[1:], t_f[None]]), t_f)
    ynk = snp.where(nxt[:, None], snp.concatenate([yk[1:], y_f[None]]), y_f)
    hk = tnk - tk
    out = dict(t=t_f, y=y_f)

    def coeffs(t, y, y_new, K, h):
        return solver.dense_coeffs(fun, t, y, y_new, K, h)

    if cfg.t_eval is not None:
        te = cfg.t_eval
        idx = snp.arange(cfg.max_steps + 1)
        key = snp.where(idx <= n_acc, direction * ts_rec, snp.inf)
        # Step k covers (ts[k], ts[k + 1]]: i = k + 1 recorded times lie
        # before te (a count, which compiles smaller than a binary search).
        i = snp.sum((key[None, :] < sg(direction * te)[:, None]).astype(np.int32),
                    axis=1)
        valid = (i >= 1) & (i <= n_acc)
        k = snp.clip(i - 1, 0, cfg.max_steps - 1)
        hq = snp.where(valid, hk[k], 1.0)
        cq = sciax.vmap(coeffs)(tk[k], yk[k], ynk[k], Kk[k], hq)
        vals = sciax.vmap(solver.dense_eval)(cq, yk[k], hq, (te - tk[k]) / hq)
        start = snp.where((te == t0)[:, None], y0[None, :],
                          snp.full((te.shape[0], n), snp.nan, dtype))
        out["ys_eval"] = snp.where(valid[:, None], vals, start)
        out["i_eval"] = (snp.sum((te == t0).astype(np.int32))
                         + snp.sum(valid.astype(np.int32)))
        if solver.dense_nfev and not cfg.dense:
            # The loop builds a costly interpolant once per step that passes
            # a t_eval point; the record (no t_eval) did not count those.
            first = valid & snp.concatenate([snp.asarray([True]), k[1:] != k[:-1]])
            out["nfev"] = rec["nfev"] + solver.dense_nfev * snp.sum(
                first.astype(rec["nfev"].dtype))
    active = snp.arange(cfg.max_steps) < n_acc
    if cfg.save_steps:
        out["ts"] = snp.concatenate([t0[None], snp.where(active, tnk, snp.nan)])
        out["ys"] = snp.concatenate([y0[None, :],
                                     snp.where(active[:, None], ynk, snp.nan)])
    if cfg.dense:
        if solver.dense_nfev:
            out["nfev"] = rec["nfev"] + solver.dense_nfev * n_acc
        hs = snp.where(active, hk, 0.0)
        out["hs"] = hs
        cs = sciax.vmap(coeffs)(tk, yk, ynk, Kk, snp.where(active, hk, 1.0))
        out["cs"] = snp.where(active[:, None, None], cs, 0.0)
    return out


def _zeros_like_scan(body: Callable, c: Any, xs: Any) -> Any:
    """Zeros shaped as the stacked outputs of ``lax.scan(body, c, xs)``."""
    shapes = sciax.eval_shape(lambda c, xs: lax.scan(body, c, xs)[1], c, xs)
    return sciax.tree.map(lambda a: snp.zeros(a.shape, a.dtype), shapes)
