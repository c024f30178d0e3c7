"""``minimize_scalar``: Brent, golden section and bounded Brent, each one
``lax.while_loop`` evaluating ``fun`` once per iteration (so all of them work
under ``jit`` and ``vmap``)."""

from __future__ import annotations

import math
import warnings
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import (OptimizeResult, OptimizeWarning, Status,
                                  reason_index, scipy_status)

_GOLD = 1.618034
_CG = 0.3819660


def _scalar_fun(fun, args):
    def f(x):
        v = snp.asarray(fun(x, *args))
        if v.size != 1:
            raise ValueError(f"minimize_scalar: the objective must return a scalar, "
                             f"got shape {tuple(v.shape)}")
        return v.reshape(()).astype(x.dtype)
    return f


def _bracket(f, xa, xb):
    """Downhill bracket ``xa, xb, xc`` with ``f(xb) < f(xa), f(xc)`` by golden
    expansion (Numerical Recipes' ``mnbrak`` without the parabolic jump)."""
    fa, fb = f(xa), f(xb)
    swap = fa < fb
    xa, xb, fa, fb = (snp.where(swap, xb, xa), snp.where(swap, xa, xb),
                      snp.where(swap, fb, fa), snp.where(swap, fa, fb))
    xc = xb + _GOLD * (xb - xa)
    fc = f(xc)

    def cond(c):
        return (c[5] < c[4]) & (c[6] < 1000) & snp.isfinite(c[5])

    def body(c):
        xa, xb, xc, fa, fb, fc, i = c
        w = xc + _GOLD * (xc - xb)
        return xb, xc, w, fb, fc, f(w), i + 1

    xa, xb, xc, fa, fb, fc, i = lax.while_loop(cond, body, (xa, xb, xc, fa, fb, fc, 0))
    return xa, xb, xc, fa, fb, fc, i + 3


def _brent(f, xa, xb, xc, fb, tol, maxiter):
    a, b = snp.minimum(xa, xc), snp.maximum(xa, xc)
    z = snp.zeros_like(xb)
    c0 = dict(a=a, b=b, x=xb, w=xb, v=xb, fx=fb, fw=fb, fv=fb, dx=z, rat=z,
              it=0, nf=0)

    def done(c):
        tol1 = tol * snp.abs(c["x"]) + 1e-11
        xmid = 0.5 * (c["a"] + c["b"])
        return snp.abs(c["x"] - xmid) < (2 * tol1 - 0.5 * (c["b"] - c["a"]))

    def body(c):
        a, b, x, w, v = c["a"], c["b"], c["x"], c["w"], c["v"]
        fx, fw, fv = c["fx"], c["fw"], c["fv"]
        tol1 = tol * snp.abs(x) + 1e-11
        tol2 = 2 * tol1
        xmid = 0.5 * (a + b)
        golden_dx = snp.where(x >= xmid, a - x, b - x)
        t1 = (x - w) * (fx - fv)
        t2 = (x - v) * (fx - fw)
        p = (x - v) * t2 - (x - w) * t1
        q = 2.0 * (t2 - t1)
        p = snp.where(q > 0, -p, p)
        q = snp.abs(q)
        para_ok = (p > q * (a - x)) & (p < q * (b - x)) & (
            snp.abs(p) < snp.abs(0.5 * q * c["dx"]))
        rat_p = p / snp.where(q == 0, 1.0, q)
        u = x + rat_p
        rat_p = snp.where(((u - a) < tol2) | ((b - u) < tol2),
                          snp.where(xmid - x >= 0, tol1, -tol1), rat_p)
        use_golden = snp.abs(c["dx"]) <= tol1
        dx_new = snp.where(use_golden, golden_dx,
                           snp.where(para_ok, c["rat"], golden_dx))
        rat = snp.where(use_golden | ~para_ok, _CG * dx_new, rat_p)
        u = snp.where(snp.abs(rat) >= tol1, x + rat,
                      snp.where(rat >= 0, x + tol1, x - tol1))
        fu = f(u)
        worse = fu > fx
        a1 = snp.where(worse, snp.where(u < x, u, a), snp.where(u >= x, x, a))
        b1 = snp.where(worse, snp.where(u < x, b, u), snp.where(u >= x, b, x))
        c1 = worse & ((fu <= fw) | (w == x))
        c2 = worse & ~c1 & ((fu <= fv) | (v == x) | (v == w))
        nv = snp.where(~worse | c1, w, snp.where(c2, u, v))
        nfv = snp.where(~worse | c1, fw, snp.where(c2, fu, fv))
        nw = snp.where(~worse, x, snp.where(c1, u, w))
        nfw = snp.where(~worse, fx, snp.where(c1, fu, fw))
        return dict(a=a1, b=b1, x=snp.where(worse, x, u), fx=snp.where(worse, fx, fu),
                    w=nw, fw=nfw, v=nv, fv=nfv, dx=dx_new, rat=rat, it=c["it"] + 1,
                    nf=c["nf"] + 1)

    c = lax.while_loop(lambda c: ~done(c) & (c["it"] < maxiter), body, c0)
    return c["x"], c["fx"], c["it"], c["nf"], done(c)


def _golden(f, xa, xb, xc, tol, maxiter):
    gr, gc = 0.61803399, 1.0 - 0.61803399
    far = snp.abs(xc - xb) > snp.abs(xb - xa)
    x1 = snp.where(far, xb, xb - gc * (xb - xa))
    x2 = snp.where(far, xb + gc * (xc - xb), xb)
    c0 = (xa, x1, x2, xc, f(x1), f(x2), 0)

    def cond(c):
        x0, x1, x2, x3, _, _, it = c
        return (snp.abs(x3 - x0) > tol * (snp.abs(x1) + snp.abs(x2))) & (it < maxiter)

    def body(c):
        x0, x1, x2, x3, f1, f2, it = c
        right = f2 < f1
        new = snp.where(right, gr * x2 + gc * x3, gr * x1 + gc * x0)
        fn = f(new)
        return (snp.where(right, x1, x0), snp.where(right, x2, new),
                snp.where(right, new, x1), snp.where(right, x3, x2),
                snp.where(right, f2, fn), snp.where(right, fn, f1), it + 1)

    x0, x1, x2, x3, f1, f2, it = lax.while_loop(cond, body, c0)
    ok = snp.abs(x3 - x0) <= tol * (snp.abs(x1) + snp.abs(x2))
    return snp.where(f1 < f2, x1, x2), snp.minimum(f1, f2), it, it + 2, ok


def _bounded(f, lo, hi, xatol, maxiter):
    sqrt_eps = math.sqrt(2.2e-16)
    gm = 0.5 * (3.0 - math.sqrt(5.0))
    xf = lo + gm * (hi - lo)
    fx = f(xf)
    z = snp.zeros_like(xf)
    c0 = dict(a=lo, b=hi, xf=xf, fx=fx, nfc=xf, fnfc=fx, fulc=xf, ffulc=fx, e=z, rat=z,
              num=1)

    def tols(c):
        tol1 = sqrt_eps * snp.abs(c["xf"]) + xatol / 3.0
        return tol1, 2 * tol1, 0.5 * (c["a"] + c["b"])

    def cond(c):
        tol1, tol2, xm = tols(c)
        # SciPy stops (status 1) once maxiter evaluations are made, counting the
        # first; one step always runs when the start has not converged
        return (snp.abs(c["xf"] - xm) > (tol2 - 0.5 * (c["b"] - c["a"]))) & (
            (c["num"] < maxiter) | (c["num"] == 1))

    def body(c):
        a, b, xf, fx = c["a"], c["b"], c["xf"], c["fx"]
        tol1, tol2, xm = tols(c)
        r = (xf - c["nfc"]) * (fx - c["ffulc"])
        q = (xf - c["fulc"]) * (fx - c["fnfc"])
        p = (xf - c["fulc"]) * q - (xf - c["nfc"]) * r
        q = 2.0 * (q - r)
        p = snp.where(q > 0, -p, p)
        q = snp.abs(q)
        try_para = snp.abs(c["e"]) > tol1
        para = try_para & (snp.abs(p) < snp.abs(0.5 * q * c["e"])) & (
            p > q * (a - xf)) & (p < q * (b - xf))
        rat_p = p / snp.where(q == 0, 1.0, q)
        xp = xf + rat_p
        si = snp.sign(xm - xf) + ((xm - xf) == 0)
        rat_p = snp.where(((xp - a) < tol2) | ((b - xp) < tol2), tol1 * si, rat_p)
        e_g = snp.where(xf >= xm, a - xf, b - xf)
        e = snp.where(para, c["rat"], e_g)
        rat = snp.where(para, rat_p, gm * e_g)
        si = snp.sign(rat) + (rat == 0)
        x = xf + si * snp.maximum(snp.abs(rat), tol1)
        fu = f(x)
        better = fu <= fx
        n = dict(c, e=e, rat=rat, num=c["num"] + 1)
        n["a"] = snp.where(better, snp.where(x >= xf, xf, a), snp.where(x < xf, x, a))
        n["b"] = snp.where(better, snp.where(x >= xf, b, xf), snp.where(x < xf, b, x))
        w1 = ~better & ((fu <= c["fnfc"]) | (c["nfc"] == xf))
        w2 = ~better & ~w1 & ((fu <= c["ffulc"]) | (c["fulc"] == xf)
                              | (c["fulc"] == c["nfc"]))
        n["fulc"] = snp.where(better | w1, c["nfc"], snp.where(w2, x, c["fulc"]))
        n["ffulc"] = snp.where(better | w1, c["fnfc"], snp.where(w2, fu, c["ffulc"]))
        n["nfc"] = snp.where(better, xf, snp.where(w1, x, c["nfc"]))
        n["fnfc"] = snp.where(better, fx, snp.where(w1, fu, c["fnfc"]))
        n["xf"] = snp.where(better, x, xf)
        n["fx"] = snp.where(better, fu, fx)
        return n

    c = lax.while_loop(cond, body, c0)
    ok = (c["num"] < maxiter) | (c["num"] == 1)
    return c["xf"], c["fx"], c["num"], c["num"], ok


def minimize_scalar(fun: Callable, bracket: Any = None, bounds: Any = None,
                    args: tuple = (), method: str | None = None,
                    tol: float | None = None, options: dict | None = None
                    ) -> OptimizeResult:
    """sciax implementation of :func:`scipy.optimize.minimize_scalar`.

    Minimize a scalar function of one variable.

    Parameters
    ----------
    fun : callable
        ``fun(x, *args) -> float``, written with sciax.
    bracket : sequence, optional
        ``(xa, xb)`` to start the downhill bracket search, or ``(xa, xb, xc)``
        with ``f(xb) < f(xa), f(xc)``; default ``(0, 1)``.
    bounds : sequence, optional
        ``(lo, hi)`` for ``method='bounded'`` (the default when given).
    args : tuple, optional
        Extra arguments of ``fun``.
    method : {'brent', 'golden', 'bounded'}, optional
    tol : float, optional
        Relative tolerance (``xatol`` for bounded).
    options : dict, optional
        ``maxiter``, ``xtol`` (brent/golden), ``xatol`` (bounded), ``disp``.

    Returns
    -------
    res : OptimizeResult
        ``x``, ``fun``, ``nit``, ``nfev``, ``status``, ``success``,
        ``message``.

    Notes
    -----
    Differences from SciPy: the bracket search expands by the golden ratio
    only (no parabolic extrapolation), so ``nfev`` can differ slightly.

    Transformations: traceable; works under ``jit`` and ``vmap`` (over
    ``args`` or the bracket), not differentiable with respect to ``args``.

    Examples
    --------
    >>> from sciax.optimize import minimize_scalar
    >>> res = minimize_scalar(lambda x: (x - 2.0) ** 2 + 1.0)
    >>> print(round(float(res.x), 6), round(float(res.fun), 6))
    2.0 1.0
    >>> res = minimize_scalar(lambda x: snp.sin(x), bounds=(0.0, 6.0))
    >>> print(round(float(res.x), 4))
    4.7124
    """
    options = dict(options or {})
    options.pop("disp", None)
    if method is None:
        method = "bounded" if bounds is not None else "brent"
    if not isinstance(method, str) or method.lower() not in ("brent", "golden",
                                                             "bounded"):
        raise ValueError(f"Unknown solver {method!r}; minimize_scalar knows 'brent', "
                         f"'golden', 'bounded'")
    method = method.lower()
    if not isinstance(args, tuple):
        args = (args,)
    valid = {"brent": {"xtol", "maxiter"}, "golden": {"xtol", "maxiter"},
             "bounded": {"xatol", "maxiter"}}[method]
    unknown = sorted(set(options) - valid)
    if unknown:
        warnings.warn(f"Unknown solver options: {', '.join(unknown)}. {method} takes "
                      f"{', '.join(sorted(valid | {'disp'}))}", OptimizeWarning,
                      stacklevel=2)
    f = _scalar_fun(fun, args)
    dt = snp.float64 if sciax.config.enable_x64 else snp.float32
    if method == "bounded":
        if bounds is None or len(bounds) != 2:
            raise ValueError("The `bounds` parameter is mandatory for method `bounded` "
                             "and must be a (lower, upper) pair.")
        lo, hi = (snp.asarray(b, dt) for b in bounds)
        if np.ndim(bounds[0]) == 0 and not isinstance(bounds[0], sciax.Array) and \
                float(bounds[0]) > float(bounds[1]):
            raise ValueError("The lower bound exceeds the upper bound.")
        xatol = options.get("xatol", 1e-5 if tol is None else tol)
        x, fx, nit, nfev, ok = _bounded(f, lo, hi, xatol, options.get("maxiter", 500))
    else:
        if bounds is not None:
            raise ValueError(f"Use of `bounds` is incompatible with 'method={method}'.")
        br = (0.0, 1.0) if bracket is None else tuple(bracket)
        xtol = options.get("xtol", (1.48e-8 if method == "brent" else
                                    1.4901161193847656e-08) if tol is None else tol)
        if len(br) == 2:
            xa, xb, xc, fa, fb, fc, nb = _bracket(f, snp.asarray(br[0], dt),
                                                  snp.asarray(br[1], dt))
        elif len(br) == 3:
            xa, xb, xc = (snp.asarray(b, dt) for b in br)
            fb, nb = f(xb), 1
        else:
            raise ValueError("bracket must have 2 or 3 elements")
        if method == "brent":
            x, fx, nit, nfev, ok = _brent(f, xa, xb, xc, fb, xtol,
                                          options.get("maxiter", 500))
        else:
            x, fx, nit, nfev, ok = _golden(f, xa, xb, xc, xtol,
                                           options.get("maxiter", 5000))
            nb = nb - 1 if len(br) == 3 else nb
        nfev = nfev + nb
    reason = snp.where(ok, reason_index(Status.SUCCESS),
                       reason_index(Status.MAX_ITER)).astype(snp.int32)
    return OptimizeResult(x=x, fun=fx, nit=snp.asarray(nit, snp.int32),
                          nfev=snp.asarray(nfev, snp.int32),
                          status=scipy_status(reason),
                          _reason=reason)
