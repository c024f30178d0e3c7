"""Strong-Wolfe line search: bracketing, then zoom with cubic interpolation.

Nocedal & Wright, *Numerical Optimization* (2006), Algorithms 3.5 and 3.6, with
the safeguards of SciPy's ``scalar_search_wolfe2``: a cubic through the two
bracket ends and the previous ``hi``, a quadratic when the cubic lands too near
an end, bisection when both do (or when an end is not finite).  The whole
search is one ``lax.while_loop`` that evaluates ``fun`` once per iteration, and
no trial step ever exceeds ``amax`` (the projected search of L-BFGS-B relies on
that to stay inside the box).
"""

from __future__ import annotations

from typing import Any, Callable

import sciax
import sciax.numpy as snp
from sciax import lax

_BRACKET, _ZOOM, _DONE, _FAIL = 0, 1, 2, 3


def _cubicmin(a, fa, fpa, b, fb, c, fc):
    # Minimiser of the cubic through (a, fa, fpa), (b, fb), (c, fc); NaN if none.
    db, dc = b - a, c - a
    denom = (db * dc) ** 2 * (db - dc)
    r1 = fb - fa - fpa * db
    r2 = fc - fa - fpa * dc
    A = (dc ** 2 * r1 - db ** 2 * r2) / denom
    B = (-dc ** 3 * r1 + db ** 3 * r2) / denom
    radical = B * B - 3.0 * A * fpa
    xmin = a + (-B + snp.sqrt(radical)) / (3.0 * A)
    ok = (radical >= 0) & (A != 0) & (denom != 0) & snp.isfinite(xmin)
    return snp.where(ok, xmin, snp.nan)


def _quadmin(a, fa, fpa, b, fb):
    db = b - a
    B = (fb - fa - fpa * db) / (db * db)
    xmin = a - fpa / (2.0 * B)
    ok = (B > 0) & (db != 0) & snp.isfinite(xmin)
    return snp.where(ok, xmin, snp.nan)


def _zoom_trial(c):
    dalpha = c["a_hi"] - c["a_lo"]
    lo = snp.minimum(c["a_lo"], c["a_hi"])
    hi = snp.maximum(c["a_lo"], c["a_hi"])
    aj = _cubicmin(c["a_lo"], c["phi_lo"], c["dphi_lo"], c["a_hi"], c["phi_hi"],
                   c["a_rec"], c["phi_rec"])
    cchk = 0.2 * snp.abs(dalpha)
    bad = (c["i_zoom"] == 0) | snp.isnan(aj) | (aj > hi - cchk) | (aj < lo + cchk)
    aq = _quadmin(c["a_lo"], c["phi_lo"], c["dphi_lo"], c["a_hi"], c["phi_hi"])
    qchk = 0.1 * snp.abs(dalpha)
    qbad = snp.isnan(aq) | (aq > hi - qchk) | (aq < lo + qchk)
    aq = snp.where(qbad, c["a_lo"] + 0.5 * dalpha, aq)
    return snp.where(bad, aq, aj)


def wolfe_search(value_and_grad: Callable, x, p, f0, g0, alpha1, *, c1=1e-4, c2=0.9,
                 amax=1e100, maxiter=10) -> dict[str, Any]:
    """Find ``alpha`` satisfying the strong Wolfe conditions along ``p``.

    Returns a dict with ``alpha``, ``f``, ``g`` (at ``x + alpha p``), ``nfev``
    (evaluations made) and ``ok``.  On failure ``alpha`` is 0 and ``f``, ``g``
    are those at ``x``.
    """
    dtype = x.dtype
    d0 = snp.dot(g0, p)
    amax = snp.asarray(amax, dtype)
    alpha1 = snp.minimum(snp.asarray(alpha1, dtype), amax)
    z = snp.zeros((), dtype)
    carry = dict(stage=snp.int32(_BRACKET), i_br=snp.int32(0), i_zoom=snp.int32(0),
                 a0=z, phi_a0=f0, dphi_a0=d0, a1=alpha1,
                 a_lo=z, a_hi=z, phi_lo=f0, phi_hi=f0, dphi_lo=d0, a_rec=z,
                 phi_rec=f0, alpha=z, f=f0, g=g0, nfev=snp.int32(0))
    # A direction that does not descend cannot satisfy the Wolfe conditions.
    bad_start = ~(d0 < 0) | ~(alpha1 > 0)
    carry["stage"] = snp.where(bad_start, _FAIL, _BRACKET).astype(snp.int32)

    def cond(c):
        return c["stage"] < _DONE

    def body(c):
        in_bracket = c["stage"] == _BRACKET
        trial = snp.where(in_bracket, c["a1"], _zoom_trial(c))
        f_t, g_t = value_and_grad(x + trial * p)
        d_t = snp.dot(g_t, p)
        finite = snp.isfinite(f_t) & snp.isfinite(d_t)
        armijo = f_t <= f0 + c1 * trial * d0
        curv = snp.abs(d_t) <= -c2 * d0
        n = dict(c, nfev=c["nfev"] + 1)

        # --- bracketing phase (Algorithm 3.5)
        b_hi = ~armijo | ((f_t >= c["phi_a0"]) & (c["i_br"] > 0)) | ~finite
        b_done = ~b_hi & curv
        b_rev = ~b_hi & ~curv & (d_t >= 0)
        b_grow = ~b_hi & ~curv & ~b_rev
        grow_stop = b_grow & ((c["i_br"] + 1 >= maxiter) | (trial >= amax))
        # Entering zoom: (lo, hi) = (a0, trial) or (trial, a0).
        enter = b_hi | b_rev
        zl = dict(a_lo=snp.where(b_hi, c["a0"], trial),
                  a_hi=snp.where(b_hi, trial, c["a0"]),
                  phi_lo=snp.where(b_hi, c["phi_a0"], f_t),
                  phi_hi=snp.where(b_hi, f_t, c["phi_a0"]),
                  dphi_lo=snp.where(b_hi, c["dphi_a0"], d_t))
        br = dict(n)
        for k, v in zl.items():
            br[k] = snp.where(enter, v, c[k])
        br["a_rec"] = snp.where(enter, 0.0, c["a_rec"])
        br["phi_rec"] = snp.where(enter, f0, c["phi_rec"])
        br["i_zoom"] = snp.where(enter, 0, c["i_zoom"]).astype(snp.int32)
        br["a0"] = snp.where(b_grow, trial, c["a0"])
        br["phi_a0"] = snp.where(b_grow, f_t, c["phi_a0"])
        br["dphi_a0"] = snp.where(b_grow, d_t, c["dphi_a0"])
        br["a1"] = snp.where(b_grow, snp.minimum(2.0 * trial, amax), c["a1"])
        br["i_br"] = c["i_br"] + 1
        # Out of doublings (or at amax) with a descent point: accept it, as SciPy.
        accept_b = b_done | grow_stop
        br["stage"] = snp.where(accept_b, _DONE,
                                snp.where(enter, _ZOOM, _BRACKET)).astype(snp.int32)

        # --- zoom phase (Algorithm 3.6)
        z_hi = ~armijo | (f_t >= c["phi_lo"]) | ~finite
        z_done = ~z_hi & curv
        flip = ~z_hi & ~curv & (d_t * (c["a_hi"] - c["a_lo"]) >= 0)
        zm = dict(n)
        zm["phi_rec"] = snp.where(z_hi | flip, c["phi_hi"], c["phi_lo"])
        zm["a_rec"] = snp.where(z_hi | flip, c["a_hi"], c["a_lo"])
        zm["a_hi"] = snp.where(z_hi, trial, snp.where(flip, c["a_lo"], c["a_hi"]))
        zm["phi_hi"] = snp.where(z_hi, f_t, snp.where(flip, c["phi_lo"], c["phi_hi"]))
        zm["a_lo"] = snp.where(z_hi, c["a_lo"], trial)
        zm["phi_lo"] = snp.where(z_hi, c["phi_lo"], f_t)
        zm["dphi_lo"] = snp.where(z_hi, c["dphi_lo"], d_t)
        zm["i_zoom"] = c["i_zoom"] + 1
        zm["stage"] = snp.where(z_done, _DONE, snp.where(
            zm["i_zoom"] > maxiter, _FAIL, _ZOOM)).astype(snp.int32)

        out = {k: snp.where(in_bracket, br[k], zm[k]) for k in c}
        accepted = snp.where(in_bracket, accept_b, z_done)
        out["alpha"] = snp.where(accepted, trial, c["alpha"])
        out["f"] = snp.where(accepted, f_t, c["f"])
        out["g"] = snp.where(accepted, g_t, c["g"])
        return out

    c = lax.while_loop(cond, body, carry)
    return dict(alpha=c["alpha"], f=c["f"], g=c["g"], nfev=c["nfev"],
                ok=c["stage"] == _DONE)


def line_search(f: Callable, myfprime: Callable, xk: Any, pk: Any, gfk: Any = None,
                old_fval: Any = None, old_old_fval: Any = None, args: tuple = (),
                c1: float = 1e-4, c2: float = 0.9, amax: float | None = None,
                extra_condition: Callable | None = None, maxiter: int = 10) -> tuple:
    """sciax implementation of :func:`scipy.optimize.line_search`.

    Find a step ``alpha`` along ``pk`` from ``xk`` that satisfies the strong
    Wolfe conditions.

    Parameters
    ----------
    f, myfprime : callable
        The objective ``f(x, *args)`` and its gradient ``myfprime(x, *args)``.
    xk, pk : array_like
        Starting point and search direction.
    gfk, old_fval : array_like, optional
        Gradient and value at ``xk`` (computed if not given).
    old_old_fval : float, optional
        Value at the previous point, used for the first trial step as SciPy.
    args : tuple, optional
        Extra arguments of ``f`` and ``myfprime``.
    c1, c2 : float, optional
        Armijo and curvature parameters.
    amax : float, optional
        Largest step.
    extra_condition : callable, optional
        Not supported (must be None).
    maxiter : int, optional
        Bracketing and zoom iterations.

    Returns
    -------
    alpha : float or None
        The step, ``None`` when the search failed (an eager call; under ``jit``
        a failed search returns NaN).
    fc, gc : int
        Function and gradient evaluations.
    new_fval : float or None
        ``f(xk + alpha pk)``.
    old_fval : float
        ``f(xk)``.
    new_slope : float or None
        ``myfprime(xk + alpha pk) @ pk``.

    Notes
    -----
    Differences from SciPy: the search is one bracketing-then-zoom loop
    (SciPy's ``scalar_search_wolfe2``); ``extra_condition`` is not supported.

    Transformations: traceable; under ``jit``/``vmap`` a failure gives NaN.

    Examples
    --------
    >>> from sciax.optimize import line_search, rosen, rosen_der
    >>> x = snp.array([-1.2, 1.0])
    >>> alpha = line_search(rosen, rosen_der, x, -rosen_der(x))[0]
    >>> print(bool(rosen(x - alpha * rosen_der(x)) < rosen(x)))
    True
    """
    if extra_condition is not None:
        raise ValueError("line_search: extra_condition is not supported by sciax")
    xk = snp.asarray(xk, dtype=snp.result_type(xk, 1.0))
    pk = snp.asarray(pk, dtype=xk.dtype)

    def vg(x):
        return snp.asarray(f(x, *args), xk.dtype), snp.asarray(myfprime(x, *args),
                                                                xk.dtype)

    extra = 0
    if old_fval is None or gfk is None:
        f0, g0 = vg(xk)
        extra = 1
        old_fval = f0 if old_fval is None else old_fval
        gfk = g0 if gfk is None else gfk
    f0 = snp.asarray(old_fval, xk.dtype)
    g0 = snp.asarray(gfk, xk.dtype)
    d0 = snp.dot(g0, pk)
    alpha1 = initial_step(f0, old_old_fval, d0)
    r = wolfe_search(vg, xk, pk, f0, g0, alpha1, c1=c1, c2=c2,
                     amax=1e100 if amax is None else amax, maxiter=maxiter)
    fc = r["nfev"] + extra
    alpha = snp.where(r["ok"], r["alpha"], snp.nan)
    new_f = snp.where(r["ok"], r["f"], snp.nan)
    slope = snp.where(r["ok"], snp.dot(r["g"], pk), snp.nan)
    if isinstance(alpha, sciax.Array) and not bool(r["ok"]):
        return None, int(fc), int(fc), None, old_fval, None
    return alpha, fc, fc, new_f, old_fval, slope


def initial_step(f0, f_prev, d0):
    """SciPy's first trial step: ``min(1, 2.02 (f0 - f_prev) / d0)``, or 1."""
    if f_prev is None:
        return snp.ones((), snp.result_type(f0))
    a = 1.01 * 2.0 * (f0 - f_prev) / d0
    ok = snp.isfinite(a) & (a > 0) & (d0 != 0)
    return snp.where(ok, snp.minimum(1.0, a), 1.0)
