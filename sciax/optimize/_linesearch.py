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

from typing import Any, Callable, NamedTuple

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import packed_while_loop

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


#: vectors this short get plain products (see :func:`vdot` and :func:`matvec`)
SMALL_N = 2


def matvec(A, v):
    """``A @ v``; for at most :data:`SMALL_N` columns as multiply-and-sum,
    which compiles to a few scalar operations instead of an inlined copy of
    XLA's gemv routine (see :func:`vdot`)."""
    if A.shape[-1] <= SMALL_N:
        return snp.sum(A * v, axis=-1)
    return A @ v


def vdot(a, b, batched=False):
    """``a . b`` of two vectors, as a row of a matrix-vector product.

    XLA rewrites a vector-vector dot into multiply-and-reduce, and its CPU
    compiler splits a reduction over more than 32 elements into a windowed
    reduction and a second reduction, which LLVM unrolls element by element
    inside a solver's loop kernel (~15 ms of compile each at n = 100).  A
    two-row matrix-vector product stays a dot: one small tiled loop.

    ``batched=True`` gives the plain ``dot`` instead, for the batched forms of
    the solvers: under ``vmap`` the two-row product becomes a batched
    matrix-vector product, one small product per lane, which made 1,000
    batched 10-D Rosenbrock solves ~8% slower than multiply-and-reduce.

    Vectors of at most :data:`SMALL_N` elements also take the plain ``dot``:
    their reduction is a couple of additions, while each matrix-vector
    product is a call of XLA's tiled gemv routine (~550 lines of LLVM IR,
    inlined at every call site): 2-D Rosenbrock's BFGS program compiles ~5%
    faster.  The sums are the same up to where XLA contracts a
    multiply-add: of 20 2-D solves checked (BFGS, CG, Newton-CG, L-BFGS-B),
    19 kept every bit and CG on Beale moved in the 13th digit, with the same
    nit and nfev.
    """
    if batched or a.shape[0] <= SMALL_N:
        return snp.dot(a, b)
    return (snp.stack([a, snp.zeros_like(a)]) @ b)[0]


def _keep(v, one):
    """``v``, computed once for all its uses in a compiled loop (``one`` is a
    traced 1 that XLA cannot fold; ``one=None``: ``v`` as it is).

    XLA's fusion pass copies a cheap scalar expression (selects, compares,
    additions) into the fusion of every value that uses it, so a step length
    or a flag that ten of a trip's outputs read is computed ten times, and
    the CPU compiler emits and optimises each copy.  A division it does not
    copy (it counts as expensive): ``v / 1`` becomes a fusion of its own that
    computes ``v`` once, and the users read its result.  ``v / 1`` is ``v``
    exactly (inf, NaN and signed zeros included), so the search's iterates
    do not change; at run time it costs one division.  Integers go through
    ``lax.div`` (exact as well).
    """
    if one is None:
        return v
    if snp.issubdtype(v.dtype, snp.integer):
        return lax.div(v, one.astype(v.dtype))
    return v / one


def _traced_one(v):
    """A 1 of ``v``'s dtype that XLA cannot fold to a constant (for
    :func:`_keep`): ``v / v`` where that is 1, else 1."""
    r = v / v
    return snp.where(r == 1.0, r, snp.ones_like(r))


def _in_range(v, dtype):
    """``v`` as a 0-d array of ``dtype``; a Python float such as the searches'
    1e-100 / 1e100 limits is first held within the dtype's normal range
    (float32 would round them to 0 / inf, with NumPy's overflow warning)."""
    if isinstance(v, (int, float)):
        fi = snp.finfo(dtype)
        v = min(max(float(v), float(fi.tiny)), float(fi.max) / 8.0) if v > 0 else v
    return snp.asarray(v, dtype)


def _zoom_init(f0, d0, alpha1):
    """The search's state before its first trial (``alpha1``).  While
    bracketing, ``(a_lo, phi_lo, dphi_lo)`` is Algorithm 3.5's previous step
    ``alpha_{i-1}`` (0 to start) and ``a1`` the next trial."""
    z = snp.zeros_like(f0)
    return dict(zstage=snp.int32(_BRACKET), i_br=snp.int32(0), i_zoom=snp.int32(0),
                a1=alpha1, a_lo=z, a_hi=z, phi_lo=f0, phi_hi=f0, dphi_lo=d0, a_rec=z,
                phi_rec=f0)


def _zoom_next(c):
    """The search's next trial step: ``a1`` while bracketing, else the zoom's
    interpolated step."""
    return snp.where(c["zstage"] == _BRACKET, c["a1"], _zoom_trial(c))


def _zoom_update(c, trial, f_t, d_t, ok_extra, f0, d0, c1, c2, amax, maxiter):
    """The search's state after evaluating ``trial`` (value ``f_t``, slope
    ``d_t``); ``ok_extra`` is the caller's extra acceptance test there.  Only
    the search's own fields (those of :func:`_zoom_init`) are returned, with
    ``zstage`` ``_DONE`` when ``trial`` is accepted.

    Bracketing (Algorithm 3.5) and zoom (3.6) update the same pair: with the
    previous step held as ``lo``, bracketing's "zoom(alpha_{i-1}, alpha_i)" is
    zoom's new ``hi``, its "zoom(alpha_i, alpha_{i-1})" zoom's swap, and a
    longer step zoom's new ``lo``; they differ in the remembered third point
    (reset on entering zoom), the counters and the next trial."""
    in_bracket = c["zstage"] == _BRACKET
    finite = snp.isfinite(f_t) & snp.isfinite(d_t)
    armijo = f_t <= f0 + c1 * trial * d0
    curv = (snp.abs(d_t) <= -c2 * d0) & ok_extra
    hi = ~armijo | ((f_t >= c["phi_lo"]) & ((c["i_br"] > 0) | ~in_bracket)) | ~finite
    done = ~hi & curv
    flip = ~hi & ~curv & snp.where(in_bracket, d_t >= 0,
                                   d_t * (c["a_hi"] - c["a_lo"]) >= 0)
    grow = in_bracket & ~hi & ~curv & ~flip
    grow_stop = grow & ((c["i_br"] + 1 >= maxiter) | (trial >= amax))
    enter = in_bracket & (hi | flip)
    out = dict(c)
    # the remembered point: (0, f0) on entering zoom, else the end replaced
    out["a_rec"] = snp.where(enter, 0.0, snp.where(
        in_bracket, c["a_rec"], snp.where(hi | flip, c["a_hi"], c["a_lo"])))
    out["phi_rec"] = snp.where(enter, f0, snp.where(
        in_bracket, c["phi_rec"], snp.where(hi | flip, c["phi_hi"], c["phi_lo"])))
    out["a_hi"] = snp.where(hi, trial, snp.where(flip, c["a_lo"], c["a_hi"]))
    out["phi_hi"] = snp.where(hi, f_t, snp.where(flip, c["phi_lo"], c["phi_hi"]))
    out["a_lo"] = snp.where(hi, c["a_lo"], trial)
    out["phi_lo"] = snp.where(hi, c["phi_lo"], f_t)
    out["dphi_lo"] = snp.where(hi, c["dphi_lo"], d_t)
    out["a1"] = snp.where(grow, snp.minimum(2.0 * trial, amax), c["a1"])
    out["i_br"] = snp.where(in_bracket, c["i_br"] + 1, c["i_br"]).astype(snp.int32)
    out["i_zoom"] = snp.where(enter, 0, snp.where(in_bracket, c["i_zoom"],
                                                  c["i_zoom"] + 1)).astype(snp.int32)
    # Out of doublings (or at amax) with a descent point: accept it, as SciPy.
    out["zstage"] = snp.where(done | grow_stop, _DONE, snp.where(
        in_bracket, snp.where(enter, _ZOOM, _BRACKET),
        snp.where(out["i_zoom"] > maxiter, _FAIL, _ZOOM))).astype(snp.int32)
    return {k: out[k] for k in _ZOOM_KEYS}


_ZOOM_KEYS = ("zstage", "i_br", "i_zoom", "a1", "a_lo", "a_hi", "phi_lo", "phi_hi",
              "dphi_lo", "a_rec", "phi_rec")


def wolfe_search(value_and_grad: Callable, x, p, f0, g0, alpha1, *, c1=1e-4, c2=0.9,
                 amax=1e100, maxiter=10, extra=None, skip=None) -> dict[str, Any]:
    """Find ``alpha`` satisfying the strong Wolfe conditions along ``p``.

    ``extra(alpha, f, g) -> bool``, when given, must also hold at an accepted
    step (SciPy's ``extra_condition``; CG's sufficient-descent test).
    ``skip`` (a boolean), when true, makes the loop take no trip (the result
    is then ``alpha = 0`` with ``ok`` true: the caller's to discard).

    Returns a dict with ``alpha``, ``f``, ``g`` (at ``x + alpha p``), ``nfev``
    (evaluations made) and ``ok``.  On failure ``alpha`` is 0 and ``f``, ``g``
    are those at ``x``.
    """
    dtype = x.dtype
    d0 = snp.dot(g0, p)
    amax = _in_range(amax, dtype)
    alpha1 = snp.minimum(snp.asarray(alpha1, dtype), amax)
    carry = _zoom_init(f0, d0, alpha1)
    carry.update(alpha=snp.zeros((), dtype), f=f0, g=g0, nfev=snp.int32(0))
    # A direction that does not descend cannot satisfy the Wolfe conditions.
    bad_start = ~(d0 < 0) | ~(alpha1 > 0)
    carry["zstage"] = snp.where(bad_start, _FAIL, _BRACKET).astype(snp.int32)
    if skip is not None:
        carry["zstage"] = snp.where(skip, _DONE, carry["zstage"]).astype(snp.int32)

    def body(c):
        trial = _zoom_next(c)
        f_t, g_t = value_and_grad(x + trial * p)
        d_t = snp.dot(g_t, p)
        ok_extra = True if extra is None else extra(trial, f_t, g_t)
        out = dict(c, nfev=c["nfev"] + 1)
        out.update(_zoom_update(c, trial, f_t, d_t, ok_extra, f0, d0, c1, c2, amax,
                                maxiter))
        accepted = out["zstage"] == _DONE
        out["alpha"] = snp.where(accepted, trial, c["alpha"])
        out["f"] = snp.where(accepted, f_t, c["f"])
        out["g"] = snp.where(accepted, g_t, c["g"])
        return out

    c = packed_while_loop(lambda c: c["zstage"] < _DONE, body, carry)
    return dict(alpha=c["alpha"], f=c["f"], g=c["g"], nfev=c["nfev"],
                ok=c["zstage"] == _DONE)


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


# --- More-Thuente (MINPACK-2 dcsrch), SciPy's first choice ---------------------------


def _dcstep(stx, fx, dx, sty, fy, dy, stp, fp, dp, brackt, stpmin, stpmax):
    """One safeguarded step of More & Thuente (1994), section 4: MINPACK-2's
    ``dcstep``, its four cases all computed and one selected.

    Each case does MINPACK's operations in MINPACK's order; cases 1-3 share
    the cubic through (stx, fx, dx) and (stp, fp, dp).  (The cases were once
    computed as vectors of four lanes, which took fewer kernels when each
    fusion of a loop was a kernel of its own; inside the line search's
    one-kernel loop the lanes' stacking and slicing cost ~15 ms of compile,
    for the same bits.)
    """
    sgnd = snp.sign(dp) * snp.sign(dx)
    # cases 1-3 share the cubic through (stx, fx, dx) and (stp, fp, dp)
    theta = 3.0 * (fx - fp) / (stp - stx) + dx + dp
    s = snp.maximum(snp.maximum(snp.abs(theta), snp.abs(dx)), snp.abs(dp))
    disc = (theta / s) ** 2 - (dx / s) * (dp / s)
    g = s * snp.sqrt(disc)
    g3 = s * snp.sqrt(snp.maximum(0.0, disc))
    # case 1: u = stx, v = stp
    g1 = snp.where(stp < stx, -g, g)
    r1 = ((g1 - dx) + theta) / (((g1 - dx) + g1) + dp)
    stpc1 = stx + r1 * (stp - stx)
    # case 2: u = stp, v = stx
    g2 = snp.where(stx < stp, -g, g)
    r2 = ((g2 - dp) + theta) / (((g2 - dp) + g2) + dx)
    stpc2 = stp + r2 * (stx - stp)
    # case 3: as case 2 with the discriminant clipped and MINPACK's denominator
    g3 = snp.where(stx < stp, -g3, g3)
    r3 = ((g3 - dp) + theta) / ((g3 + (dx - dp)) + g3)
    stpc3_ = stp + r3 * (stx - stp)
    # case 4: the cubic through (stp, fp, dp) and (sty, fy, dy)
    theta4 = 3.0 * (fp - fy) / (sty - stp) + dy + dp
    s4 = snp.maximum(snp.maximum(snp.abs(theta4), snp.abs(dy)), snp.abs(dp))
    g4 = s4 * snp.sqrt((theta4 / s4) ** 2 - (dy / s4) * (dp / s4))
    g4 = snp.where(sty < stp, -g4, g4)
    r4 = ((g4 - dp) + theta4) / (((g4 - dp) + g4) + dy)
    stpc4 = stp + r4 * (sty - stp)
    # the quadratic step of case 1 and the secant step of cases 2 and 3
    stpq1 = stx + ((dx / ((fx - fp) / (stp - stx) + dx)) / 2.0) * (stp - stx)
    stpq2 = stp + (dp / (dp - dx)) * (stx - stp)
    f1 = snp.where(snp.abs(stpc1 - stx) <= snp.abs(stpq1 - stx), stpc1,
                   stpc1 + (stpq1 - stpc1) / 2.0)
    f2 = snp.where(snp.abs(stpc2 - stp) > snp.abs(stpq2 - stp), stpc2, stpq2)
    stpc3 = snp.where((r3 < 0) & (g3 != 0), stpc3_,
                      snp.where(stp > stx, stpmax, stpmin))
    f3b = snp.where(snp.abs(stpc3 - stp) < snp.abs(stpq2 - stp), stpc3, stpq2)
    f3b = snp.where(stp > stx, snp.minimum(stp + 0.66 * (sty - stp), f3b),
                    snp.maximum(stp + 0.66 * (sty - stp), f3b))
    f3u = snp.where(snp.abs(stpc3 - stp) > snp.abs(stpq2 - stp), stpc3, stpq2)
    f3u = snp.clip(f3u, stpmin, stpmax)
    f3 = snp.where(brackt, f3b, f3u)
    f4 = snp.where(brackt, stpc4, snp.where(stp > stx, stpmax, stpmin))
    c1, c2 = fp > fx, sgnd < 0
    c3 = snp.abs(dp) < snp.abs(dx)
    stpf = snp.where(c1, f1, snp.where(c2, f2, snp.where(c3, f3, f4)))
    brackt = brackt | c1 | (~c1 & c2)
    hi = fp > fx
    swap = ~hi & (sgnd < 0)
    nsty = snp.where(hi, stp, snp.where(swap, stx, sty))
    nfy = snp.where(hi, fp, snp.where(swap, fx, fy))
    ndy = snp.where(hi, dp, snp.where(swap, dx, dy))
    nstx = snp.where(hi, stx, stp)
    nfx = snp.where(hi, fx, fp)
    ndx = snp.where(hi, dx, dp)
    return nstx, nfx, ndx, nsty, nfy, ndy, stpf, brackt


class _MTConsts(NamedTuple):
    """dcsrch's fixed quantities for one search."""

    f0: Any
    ginit: Any
    gtest: Any
    gtol: Any
    xtol: Any
    stpmin: Any
    stpmax: Any
    maxiter: int
    #: a traced 1 for :func:`_keep` (None: no fusion barriers)
    one: Any = None


def _mt_init(f0, ginit, stp, k: _MTConsts) -> dict[str, Any]:
    """dcsrch's state before its first trial ``stp``; ``stp``/``fe``/``ge`` hold
    the last evaluated step, value and slope (none yet: ``stp``, ``f0``, ``ginit``)."""
    z = snp.zeros_like(f0)
    width = k.stpmax - k.stpmin
    # task: 0 evaluate, 1 converged, 2 warning, 3 failed
    task = snp.where((ginit < 0) & (stp >= k.stpmin) & (stp <= k.stpmax), 0, 3)
    return dict(stp=stp, stx=z, fx=f0, gx=ginit, sty=z, fy=f0, gy=ginit,
                brackt=snp.bool_(False), stage=snp.int32(1), stmin=z,
                stmax=stp + 4.0 * stp, width=width, width1=width / 0.5,
                task=task.astype(snp.int32), fe=f0, ge=ginit, nfev=snp.int32(0))


def _mt_test(c, stp, f, g, k: _MTConsts) -> dict[str, Any]:
    """dcsrch's tests at the trial ``stp`` with value ``f`` and slope ``g``:
    the state with ``task`` set (1 converged, 2 a warning, 3 out of
    evaluations, 0 go on) and the trial recorded; the interval is updated by
    :func:`_mt_advance` before the next trial."""
    ftest = k.f0 + stp * k.gtest
    stage = snp.where((c["stage"] == 1) & (f <= ftest) & (g >= 0), 2, c["stage"])
    br = c["brackt"]
    warn = (br & ((stp <= c["stmin"]) | (stp >= c["stmax"]))) | (
        br & (c["stmax"] - c["stmin"] <= k.xtol * c["stmax"])) | (
        (stp == k.stpmax) & (f <= ftest) & (g <= k.gtest)) | (
        (stp == k.stpmin) & ((f > ftest) | (g >= k.gtest)))
    conv = (f <= ftest) & (snp.abs(g) <= k.gtol * -k.ginit)
    stop = conv | (warn & snp.isfinite(f) & snp.isfinite(g))
    task = snp.where(conv, 1, snp.where(stop, 2, 0))
    task = snp.where(~stop & (c["nfev"] + 1 >= k.maxiter), 3, task).astype(snp.int32)
    return dict(c, stp=stp, fe=f, ge=g, stage=stage.astype(snp.int32), task=task,
                nfev=c["nfev"] + 1)


def _mt_advance(c, k: _MTConsts):
    """dcsrch's update of the interval after an evaluation that did not stop
    the search; returns the state and the next trial step."""
    stp, f, g, stage = c["stp"], c["fe"], c["ge"], c["stage"]
    nonfinite = ~snp.isfinite(f) | ~snp.isfinite(g)
    br = c["brackt"]
    ftest = k.f0 + stp * k.gtest
    mod = (stage == 1) & (f <= c["fx"]) & (f > ftest)
    shift = snp.where(mod, k.gtest, 0.0)
    out = _dcstep(c["stx"], c["fx"] - c["stx"] * shift, c["gx"] - shift, c["sty"],
                  c["fy"] - c["sty"] * shift, c["gy"] - shift, stp,
                  f - stp * shift, g - shift, br, c["stmin"], c["stmax"])
    stx, fx, gx, sty, fy, gy, nstp, br = out
    # dcstep's step feeds stmin, stmax and the next trial: one copy of its
    # select tree instead of three
    nstp = _keep(nstp, k.one)
    fx, fy = fx + stx * shift, fy + sty * shift
    gx, gy = gx + shift, gy + shift
    far = br & (snp.abs(sty - stx) >= 0.66 * c["width1"])
    nstp = snp.where(far, stx + 0.5 * (sty - stx), nstp)
    width1 = snp.where(br, c["width"], c["width1"])
    width = snp.where(br, snp.abs(sty - stx), c["width"])
    stmin = snp.where(br, snp.minimum(stx, sty), nstp + 1.1 * (nstp - stx))
    stmax = snp.where(br, snp.maximum(stx, sty), nstp + 4.0 * (nstp - stx))
    nstp = snp.clip(nstp, k.stpmin, k.stpmax)
    back = br & ((nstp <= stmin) | (nstp >= stmax) | (stmax - stmin <= k.xtol * stmax))
    nstp = snp.where(back, stx, nstp)
    # A non-finite trial: halve the step towards the best point so far.
    nstp = snp.where(nonfinite, c["stx"] + 0.5 * (stp - c["stx"]), nstp)
    keep = nonfinite
    new = dict(c, stx=snp.where(keep, c["stx"], stx),
               fx=snp.where(keep, c["fx"], fx), gx=snp.where(keep, c["gx"], gx),
               sty=snp.where(keep, stp, sty), fy=snp.where(keep, c["fy"], fy),
               gy=snp.where(keep, c["gy"], gy),
               brackt=snp.where(keep, True, br), stmin=stmin, stmax=stmax,
               width=width, width1=width1)
    return new, nstp


def _mt_consts(x, p, f0, g0, ftol, gtol, xtol, stpmin, stpmax, maxiter,
               batched=False) -> _MTConsts:
    dtype = x.dtype
    ginit = vdot(g0, p, batched)
    return _MTConsts(f0=f0, ginit=ginit, gtest=ftol * ginit, gtol=gtol, xtol=xtol,
                     stpmin=_in_range(stpmin, dtype), stpmax=_in_range(stpmax, dtype),
                     maxiter=maxiter)


def more_thuente(value_and_grad: Callable, x, p, f0, g0, stp, *, ftol=1e-4, gtol=0.9,
                 xtol=1e-14, stpmin=1e-100, stpmax=1e100, maxiter=100,
                 accept_warnings=False) -> dict[str, Any]:
    """More-Thuente line search (MINPACK-2 ``dcsrch``), one evaluation per
    iteration; returns the same dict as :func:`wolfe_search`.

    With ``accept_warnings`` (L-BFGS-B's use) a search that stops on one of
    dcsrch's warnings (rounding, xtol, stpmax) still returns its step.
    """
    k = _mt_consts(x, p, f0, g0, ftol, gtol, xtol, stpmin, stpmax, maxiter)
    stp = snp.asarray(stp, x.dtype)
    c0 = _mt_init(f0, k.ginit, stp, k)
    c0["g"] = g0  # the gradient at the last evaluated step

    def evaluate(c, stp):
        f, gv = value_and_grad(x + stp * p)
        return dict(_mt_test(c, stp, f, vdot(gv, p), k), g=gv)

    # The loop is rotated: the first trial is evaluated and tested before it,
    # and each trip advances the interval and then evaluates, so the common
    # case (the first trial step accepted) takes no trip of the loop body with
    # its dcstep.  A search that cannot start (not a descent direction, or
    # the trial outside [stpmin, stpmax]: L-BFGS-B's box) evaluates at x,
    # never at the trial, and that evaluation is not counted.  The search
    # stops at the evaluation that passes (or fails) its tests, so the step,
    # value and gradient it returns are the last evaluated ones.
    start = c0["task"] == 0
    c1 = evaluate(c0, snp.where(start, stp, 0.0))
    c1 = {key: snp.where(start, c1[key], c0[key]) for key in c0}

    def body(c):
        c, nstp = _mt_advance(c, k)
        return evaluate(c, nstp)

    c = packed_while_loop(lambda c: c["task"] == 0, body, c1)
    ok = (c["task"] == 1) | ((c["task"] == 2) & accept_warnings)
    return dict(alpha=snp.where(ok, c["stp"], 0.0), f=snp.where(ok, c["fe"], f0),
                g=snp.where(ok, c["g"], g0), nfev=c["nfev"], ok=ok)


def wolfe12(value_and_grad: Callable, x, p, f0, g0, alpha1, *, c1=1e-4, c2=0.9,
            extra=None, batched=False):
    """SciPy's ``_line_search_wolfe12``: More-Thuente first, and the
    bracketing/zoom search when it fails (or when its step fails ``extra``,
    which the fallback search then also requires).

    Both searches are one loop with one evaluation of ``value_and_grad`` in
    its body: each trip takes the next trial of the search in progress
    (More-Thuente's, ``phase`` 0, or the fallback's, ``phase`` 1), evaluates
    there and runs that search's tests; More-Thuente's failure switches the
    phase, and the fallback starts from its own initial state (SciPy's
    second search starts afresh, re-evaluating at ``alpha1``).  XLA compiles
    every traced evaluation of the objective and every loop separately (a
    kernel per fusion, ~25 ms of compile each on the CPU), so one loop with
    one evaluation instead of two loops with two keeps BFGS's program
    smaller.  The objective is evaluated only in the loop (the common case,
    More-Thuente's first trial accepted, is one trip): an evaluation before
    the loop as well cost BFGS ~0.15 s of compile at n = 100 (~5 kernels and
    two n-element reductions) to save ~1 us per 2-D Rosenbrock solve (the
    trip's loop overhead; dcsrch's update is skipped when the trial is
    accepted).  Under ``vmap`` a lane's phase is its own.

    ``batched=True`` is the form for batched solves (``vmap``), where a loop
    runs while any lane's search goes on and every trip computes the whole
    body for every lane: More-Thuente's first trial is evaluated and tested
    before the loop, so the loop takes a trip only when some lane needs a
    second trial, and each trip starts with dcsrch's interval update (no
    ``cond``: under ``vmap`` it would be a select that runs both branches);
    dot products are plain (see :func:`vdot`).  The trials, and so the
    searches, are the same.  1,000 batched 10-D Rosenbrock solves: 1.4x ->
    ~0.9x optimistix's time.
    """
    k = _mt_consts(x, p, f0, g0, c1, c2, 1e-14, 1e-100, 1e100, 100, batched)
    d0 = k.ginit
    amax = _in_range(1e100, x.dtype)
    alpha1 = snp.minimum(snp.asarray(alpha1, x.dtype), amax)
    c0 = _mt_init(f0, d0, alpha1, k)
    zinit = _zoom_init(f0, d0, alpha1)
    c0.update({key: v for key, v in zinit.items() if key not in _SHARED})
    c0["g"] = g0
    # The fallback cannot start on a direction that does not descend.
    zoom_phase = snp.where(~(d0 < 0) | ~(alpha1 > 0), _PH_FAIL, _PH_ZOOM)

    def accept(trial, f, g):
        return True if extra is None else extra(trial, f, g)

    def mt_phase(c, ok_extra):
        """The phase after More-Thuente's tests (``c["task"]``)."""
        return snp.where(c["task"] == 0, _PH_MT, snp.where(
            (c["task"] == 1) & ok_extra, _PH_DONE, zoom_phase)).astype(snp.int32)

    # A search More-Thuente cannot start (not a descent direction, or the
    # trial below stpmin) goes straight to the fallback, or fails.
    c0["phase"] = snp.where(c0["task"] == 0, _PH_MT, zoom_phase).astype(snp.int32)

    def fallback(c, zc, trial, f_t, d_t, ok_extra):
        """The state after the fallback's tests at ``trial``."""
        z = dict(c, stp=trial, fe=f_t, ge=d_t, nfev=c["nfev"] + 1)
        upd = _zoom_update(zc, trial, f_t, d_t, ok_extra, f0, d0, c1, c2, amax, 10)
        z.update({_SHARED.get(key, key): v for key, v in upd.items()})
        z["phase"] = snp.where(z["zstage"] == _DONE, _PH_DONE, snp.where(
            z["zstage"] == _FAIL, _PH_FAIL, _PH_ZOOM)).astype(snp.int32)
        return z

    if batched:
        # More-Thuente's first trial before the loop (evaluation and tests
        # only); each trip then advances the interval from the last trial
        # (or interpolates the fallback's), evaluates and tests.
        start = c0["task"] == 0
        t1 = snp.where(start, alpha1, 0.0)  # a search that cannot start: at x
        f1, g1 = value_and_grad(x + t1 * p)
        m1 = dict(_mt_test(c0, t1, f1, vdot(g1, p, True), k), g=g1)
        m1["phase"] = mt_phase(m1, accept(t1, f1, g1))
        carry = _to_zoom({key: snp.where(start, m1[key], v) for key, v in c0.items()},
                         zinit)

        def body(c):
            in_mt = c["phase"] == _PH_MT
            cm, nstp = _mt_advance(c, k)
            zc = {key: c[_SHARED.get(key, key)] for key in _ZOOM_KEYS}
            trial = snp.where(in_mt, nstp, _zoom_next(zc))
            f_t, g_t = value_and_grad(x + trial * p)
            d_t = vdot(g_t, p, True)
            ok_extra = accept(trial, f_t, g_t)
            m = _mt_test(cm, trial, f_t, d_t, k)
            m["phase"] = mt_phase(m, ok_extra)
            m = _to_zoom(m, zinit)
            z = fallback(c, zc, trial, f_t, d_t, ok_extra)
            out = {key: snp.where(in_mt, m[key], z[key]) for key in c}
            out["g"] = g_t
            return out
    else:
        c0["trial"] = alpha1  # More-Thuente's next trial
        # the slope at the last trial is read only in the trip that evaluates
        # it, and dcsrch's task only in the trip that sets it (its phase is
        # carried): neither is carried
        del c0["ge"], c0["task"]
        carry = _to_zoom(c0, zinit)
        # fusion barriers (see _keep) on the values most of a trip reads:
        # the trial, its value and slope, the phase after More-Thuente's
        # tests, and dcstep's step (2-D Rosenbrock's BFGS program: 2,724 ->
        # ~2,260 HLO instructions after fusion)
        one = _traced_one(d0)
        k = k._replace(one=one)

        def body(c):
            # Each trip evaluates one trial and runs the tests of the search
            # in progress (so the objective is traced once, in this body);
            # More-Thuente's next trial comes from the trip before (its
            # interval update follows its tests), the fallback's is
            # interpolated here from the carried state.
            in_mt = c["phase"] == _PH_MT
            zc = {key: c[_SHARED.get(key, key)] for key in _ZOOM_KEYS}
            # (Interpolated at the end of the trip instead, each of its
            # divisions was a kernel of its own that XLA filled with a copy of
            # the trip's whole update.)
            trial = _keep(snp.where(in_mt, c["trial"], _zoom_next(zc)), one)
            f_t, g_t = value_and_grad(x + trial * p)
            d_t = vdot(g_t, p)
            f_t, d_t = _keep(f_t, one), _keep(d_t, one)
            ok_extra = accept(trial, f_t, g_t)
            m = _mt_test(c, trial, f_t, d_t, k)
            m["phase"] = _keep(mt_phase(m, ok_extra), one)
            # dcsrch's interval update for the next trial, skipped where the
            # tests stopped More-Thuente (the common case, the first trial
            # accepted, then costs no dcstep: 16 -> 13 us a solve of 2-D
            # Rosenbrock); its state is then kept as tested (the slots it
            # writes are unused, or rewritten by _to_zoom).  Under vmap the
            # cond would be a select that runs both branches (hence the
            # batched form above).
            m, nstp = lax.cond(m["phase"] == _PH_MT, lambda m: _mt_advance(m, k),
                               lambda m: (m, m["stp"]), m)
            m = _to_zoom(m, zinit)
            z = fallback(c, zc, trial, f_t, d_t, ok_extra)
            out = {key: snp.where(in_mt, m[key], z[key]) for key in c}
            out["trial"] = nstp  # More-Thuente's next trial (read while it runs)
            out["g"] = g_t
            return out

    c = packed_while_loop(lambda c: c["phase"] < _PH_DONE, body, carry)
    ok = c["phase"] == _PH_DONE
    return dict(alpha=snp.where(ok, c["stp"], 0.0), f=snp.where(ok, c["fe"], f0),
                g=snp.where(ok, c["g"], g0), nfev=c["nfev"], ok=ok)


_PH_MT, _PH_ZOOM, _PH_DONE, _PH_FAIL = 0, 1, 2, 3

# The fallback search's scalars live in More-Thuente's slots (More-Thuente is
# finished when the fallback starts): 14 float scalars in the loop instead of
# 24, two packed vectors instead of three.
_SHARED = dict(a_rec="stx", phi_rec="fx", a1="sty", a_lo="fy", a_hi="gy",
               phi_lo="stmin", phi_hi="stmax", dphi_lo="width")


def _to_zoom(c, zinit):
    """``c`` with the fallback's initial state written into the shared slots
    where the phase has just become the fallback's."""
    switch = c["phase"] == _PH_ZOOM
    out = dict(c)
    for key, slot in _SHARED.items():
        out[slot] = snp.where(switch, zinit[key], c[slot])
    return out
