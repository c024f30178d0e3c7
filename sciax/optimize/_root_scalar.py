"""Scalar root finding: SciPy's ``brentq``, ``brenth``, ``bisect``, ``ridder``,
``newton`` (Newton, secant, Halley; vectorised over an array ``x0``) and
``root_scalar``.

Each method is one ``lax.while_loop`` following the iteration of SciPy's C
(``Zeros/*.c``) or Python (``_zeros_py.newton``) code, so counts and roots
match SciPy's and every function works under ``jit`` and ``vmap``.  The root
is differentiable with respect to float ``args`` by the implicit function
theorem: ``f(x*(a), a) = 0`` gives ``dx*/da = -f_a / f_x`` (the loop is never
differentiated).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import OptimizeResult, register_result

_XTOL = 2e-12
_RTOL = 4 * float(np.finfo(float).eps)
_ITER = 100
# SciPy's flags (``scipy.optimize._zeros_py``): the int is the traced value.
CONVERGED, SIGNERR, CONVERR, VALUEERR, INPROGRESS = 0, -1, -2, -3, 1
_FLAGS = {CONVERGED: "converged", SIGNERR: "sign error",
          CONVERR: "convergence error", VALUEERR: "value error",
          INPROGRESS: "No error"}


class RootResults(OptimizeResult):
    """Result of a scalar root finder, as :class:`scipy.optimize.RootResults`.

    Fields ``root``, ``iterations``, ``function_calls``, ``converged``,
    ``flag`` (a string, derived on the host from the traced flag code) and
    ``method``.  A pytree, so it can be returned from ``jit`` and ``vmap``.

    Examples
    --------
    >>> from sciax.optimize import root_scalar
    >>> r = root_scalar(lambda x: x ** 2 - 2, bracket=(0.0, 2.0))
    >>> print(round(float(r.root), 12), bool(r.converged), r.flag)
    1.414213562373 True converged
    """

    def __getattr__(self, name: str) -> Any:
        if name == "flag":
            code = self.get("_flag")
            try:
                c = np.asarray(code)
            except Exception:  # traced
                return "No error"
            if c.ndim == 0:
                return _FLAGS[int(c)]
            return [_FLAGS[int(i)] for i in c.ravel()]
        return super().__getattr__(name)

    def __dir__(self) -> list[str]:
        return [k for k in self.keys() if not k.startswith("_")] + ["flag"]

    def __repr__(self) -> str:
        keys = ["converged", "flag", "function_calls", "iterations", "root",
                "method"]
        vals = [np.asarray(self[k]) if k != "flag" else self.flag
                for k in keys[:2]] + [self[k] for k in keys[2:]]
        w = max(len(k) for k in keys) + 1
        return "\n".join(f"{k.rjust(w)}: {v!r}" for k, v in zip(keys, vals))

    __str__ = __repr__


register_result(RootResults)


# --- bracketing loops (scalar; vmap batches them) ----------------------------------


def _sign_start(f, a, b):
    fa, fb = f(a), f(b)
    flag = snp.where(fa * fb > 0, SIGNERR, INPROGRESS)
    flag = snp.where((flag == INPROGRESS) & ((fa == 0) | (fb == 0)), CONVERGED, flag)
    x0 = snp.where(fa == 0, a, b)
    x0 = snp.where(flag == SIGNERR, snp.nan, x0)
    return fa, fb, flag.astype(snp.int32), x0


def _brent_loop(f, a, b, xtol, rtol, maxiter, hyperbolic):
    """Brent's method (inverse quadratic, or Bus-Dekker hyperbolic
    extrapolation for ``brenth``), as SciPy's ``brentq.c``/``brenth.c``."""
    fpre, fcur, flag, x_end = _sign_start(f, a, b)
    z = snp.zeros_like(a)
    c0 = dict(xpre=a, xcur=b, xblk=z, fpre=fpre, fcur=fcur, fblk=z, spre=z, scur=z,
              it=snp.int32(0), nf=snp.int32(2), flag=flag, x=x_end)

    def body(c):
        xpre, xcur, xblk = c["xpre"], c["xcur"], c["xblk"]
        fpre, fcur, fblk = c["fpre"], c["fcur"], c["fblk"]
        spre, scur = c["spre"], c["scur"]
        it = c["it"] + 1
        newblk = (fpre != 0) & (fcur != 0) & (snp.signbit(fpre) != snp.signbit(fcur))
        xblk, fblk = snp.where(newblk, xpre, xblk), snp.where(newblk, fpre, fblk)
        spre = snp.where(newblk, xcur - xpre, spre)
        scur = snp.where(newblk, xcur - xpre, scur)
        sw = snp.abs(fblk) < snp.abs(fcur)
        xpre, xcur, xblk = (snp.where(sw, xcur, xpre), snp.where(sw, xblk, xcur),
                            snp.where(sw, xcur, xblk))
        fpre, fcur, fblk = (snp.where(sw, fcur, fpre), snp.where(sw, fblk, fcur),
                            snp.where(sw, fcur, fblk))
        delta = (xtol + rtol * snp.abs(xcur)) / 2
        sbis = (xblk - xcur) / 2
        done = (fcur == 0) | (snp.abs(sbis) < delta)
        interp = (snp.abs(spre) > delta) & (snp.abs(fcur) < snp.abs(fpre))
        secant = xpre == xblk
        stry_sec = -fcur * (xcur - xpre) / (fcur - fpre)
        dpre = (fpre - fcur) / (xpre - xcur)
        dblk = (fblk - fcur) / (xblk - xcur)
        if hyperbolic:
            stry_q = -fcur * (fblk - fpre) / (fblk * dpre - fpre * dblk)
        else:
            stry_q = -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
        stry = snp.where(secant, stry_sec, stry_q)
        accept = interp & (2 * snp.abs(stry) < snp.minimum(
            snp.abs(spre), 3 * snp.abs(sbis) - delta))
        spre, scur = snp.where(accept, scur, sbis), snp.where(accept, stry, sbis)
        xpre, fpre = xcur, fcur
        step = snp.where(snp.abs(scur) > delta, scur,
                         snp.where(sbis > 0, delta, -delta))
        xnew = xcur + step
        fnew = f(snp.where(done, xcur, xnew))
        nf = c["nf"] + snp.where(done, 0, 1)
        flag = snp.where(done, CONVERGED,
                         snp.where(it >= maxiter, CONVERR, INPROGRESS))
        # On a stop by ``done`` the answer is xcur (before the step); at the
        # iteration limit SciPy returns the new point.
        x = snp.where(done, xcur, xnew)
        return dict(xpre=xpre, xcur=x, xblk=xblk, fpre=fpre,
                    fcur=snp.where(done, fcur, fnew), fblk=fblk, spre=spre,
                    scur=scur, it=it, nf=nf, flag=flag.astype(snp.int32), x=x)

    c = lax.while_loop(lambda c: c["flag"] == INPROGRESS, body, _first(c0, maxiter))
    return c["x"], c["it"], c["nf"], c["flag"]


def _first(c0, maxiter):
    # maxiter=0 with a valid bracket: SciPy stops at once with a convergence error.
    if maxiter <= 0:
        c0 = dict(c0, flag=snp.where(c0["flag"] == INPROGRESS, CONVERR,
                                     c0["flag"]).astype(snp.int32))
    return c0


def _bisect_loop(f, a, b, xtol, rtol, maxiter):
    fa, fb, flag, x_end = _sign_start(f, a, b)
    c0 = dict(xa=a, fa=fa, dm=b - a, it=snp.int32(0), nf=snp.int32(2), flag=flag,
              x=x_end)

    def body(c):
        it = c["it"] + 1
        dm = c["dm"] * 0.5
        xm = c["xa"] + dm
        fm = f(xm)
        xa = snp.where(fm * c["fa"] >= 0, xm, c["xa"])
        fa = snp.where(fm * c["fa"] >= 0, fm, c["fa"])
        done = (fm == 0) | (snp.abs(dm) < xtol + rtol * snp.abs(xm))
        flag = snp.where(done, CONVERGED, snp.where(it >= maxiter, CONVERR, INPROGRESS))
        return dict(xa=xa, fa=fa, dm=dm, it=it, nf=c["nf"] + 1,
                    flag=flag.astype(snp.int32), x=xm)

    c = lax.while_loop(lambda c: c["flag"] == INPROGRESS, body, _first(c0, maxiter))
    return c["x"], c["it"], c["nf"], c["flag"]


def _ridder_loop(f, a, b, xtol, rtol, maxiter):
    fa, fb, flag, x_end = _sign_start(f, a, b)
    tol = xtol + rtol * snp.minimum(snp.abs(a), snp.abs(b))
    c0 = dict(xa=a, xb=b, fa=fa, fb=fb, tol=tol, it=snp.int32(0), nf=snp.int32(2),
              flag=flag, x=x_end)

    def sign(v):
        return snp.where(v > 0, 1.0, -1.0)

    def body(c):
        xa, xb, fa, fb = c["xa"], c["xb"], c["fa"], c["fb"]
        it = c["it"] + 1
        dm = 0.5 * (xb - xa)
        xm = xa + dm
        fm = f(xm)
        dn = sign(fb - fa) * dm * fm / snp.sqrt(fm * fm - fa * fb)
        xn = xm - sign(dn) * snp.minimum(snp.abs(dn), snp.abs(dm) - 0.5 * c["tol"])
        fn = f(xn)
        c1 = fn * fm < 0
        c2 = ~c1 & (fn * fa < 0)
        xa2 = snp.where(c1, xn, snp.where(c2, xa, xn))
        fa2 = snp.where(c1, fn, snp.where(c2, fa, fn))
        xb2 = snp.where(c1, xm, snp.where(c2, xn, xb))
        fb2 = snp.where(c1, fm, snp.where(c2, fn, fb))
        tol = xtol + rtol * xn
        done = (fn == 0) | (snp.abs(xb2 - xa2) < tol)
        flag = snp.where(done, CONVERGED, snp.where(it >= maxiter, CONVERR, INPROGRESS))
        return dict(xa=xa2, xb=xb2, fa=fa2, fb=fb2, tol=tol, it=it, nf=c["nf"] + 2,
                    flag=flag.astype(snp.int32), x=xn)

    c = lax.while_loop(lambda c: c["flag"] == INPROGRESS, body, _first(c0, maxiter))
    return c["x"], c["it"], c["nf"], c["flag"]


def _inverse_cubic_zero(xs, fs):
    """Neville's scheme for the inverse cubic through ``(f_i, x_i)`` at 0
    (Alefeld, Potra and Shi 1995, the step of TOMS 748)."""
    n = len(xs)
    Q = [[None] * n for _ in range(n)]
    D = [[None] * n for _ in range(n)]
    for i in range(n):
        Q[i][0] = D[i][0] = xs[i]
    for k in range(1, n):
        for i in range(k, n):
            alpha = D[i][k - 1] - Q[i - 1][k - 1]
            diff = fs[i - k] - fs[i]
            Q[i][k] = (fs[i] - 0.0) / diff * alpha
            D[i][k] = (fs[i - k] - 0.0) / diff * alpha
    # summed in SciPy's order (the corrections, then the base), so a root hit
    # exactly by SciPy is hit here too
    tail = Q[n - 1][1]
    for v in Q[n - 1][2:]:
        tail = tail + v
    return tail + Q[n - 1][0]


def _newton_quadratic(a, b, fa, fb, d, fd, k):
    """``k`` Newton steps on the quadratic through ``a, b, d`` (TOMS 748's
    fallback), kept inside ``(a, b)``."""
    B = (fb - fa) / (b - a)
    A = ((fd - fb) / (d - b) - B) / (d - a)
    P = lambda x: (A * (x - b) + B) * (x - a) + fa  # noqa: E731
    inside = lambda x: (a < x) & (x < b)  # noqa: E731
    r = snp.where(snp.sign(A) * snp.sign(fa) > 0, a, b)
    stop = snp.asarray(False)
    for _ in range(k):
        r1 = r - P(r) / (B + A * (2 * r - a - b))
        out = ~stop & ~inside(r1)
        r = snp.where(stop, r, snp.where(out, snp.where(inside(r), r, (a + b) / 2),
                                         r1))
        stop = stop | out
    lin = a - fa / snp.where(B == 0, 1.0, B)
    return snp.where(A == 0, lin, r)


def _toms748_loop(f, a, b, xtol, rtol, maxiter, k):
    """Alefeld, Potra and Shi's Algorithm 748 (ACM TOMS 21, 1995) as SciPy's
    ``TOMS748Solver``: ``k`` inverse-cubic or Newton-quadratic steps, a
    double-length secant step, and a bisection when the bracket shrank too
    little; one loop iteration is one of SciPy's ``iterate`` calls."""
    eps = float(np.finfo(np.dtype(a.dtype)).eps)
    fa, fb = f(a), f(b)
    flag = snp.where(fa == 0, CONVERGED, snp.where(fb == 0, CONVERGED, INPROGRESS))
    nf = snp.where(fa == 0, 1, 2).astype(snp.int32)
    flag = snp.where((flag == INPROGRESS) & (snp.sign(fa) * snp.sign(fb) > 0), SIGNERR,
                     flag)
    bad = ~snp.isfinite(fa) | ~snp.isfinite(fb)
    flag = snp.where(bad, VALUEERR, flag)
    x0 = snp.where(fa == 0, a, snp.where(fb == 0, b, snp.nan))

    def update(st, c, fc):
        """Replace the end with the sign of ``fc``; return the dropped end."""
        left = snp.sign(st["fa"]) * snp.sign(fc) > 0
        rx = snp.where(left, st["a"], st["b"])
        rf = snp.where(left, st["fa"], st["fb"])
        return dict(st, a=snp.where(left, c, st["a"]), fa=snp.where(left, fc, st["fa"]),
                    b=snp.where(left, st["b"], c), fb=snp.where(left, st["fb"], fc)
                    ), rx, rf

    def evaluate(st, c):
        """``f(c)`` unless already stopped; a zero stops with root ``c``."""
        fc = f(c)
        live = st["flag"] == INPROGRESS
        st = dict(st, nf=st["nf"] + live.astype(snp.int32))
        hit = live & (fc == 0)
        nonfin = live & ~snp.isfinite(fc)
        st = dict(st, flag=snp.where(hit, CONVERGED, snp.where(
            nonfin, VALUEERR, st["flag"])).astype(snp.int32),
            x=snp.where(hit, c, st["x"]))
        return st, fc, live & ~hit & ~nonfin

    def guarded(st, new, go):
        return {key: snp.where(go, new[key], st[key]) for key in st}

    # the first step: secant (or bisection)
    same = fa == fb
    big = snp.abs(fb) > snp.abs(fa)
    sfa, sfb = snp.where(same, 1.0, fa), snp.where(same, 1.0, fb)
    c = snp.where(big, (-fa / sfb * b + a) / (1 - fa / sfb),
                  (-fb / sfa * a + b) / (1 - fb / sfa))
    c = snp.where(same | ~((a < c) & (c < b)), (a + b) / 2, c)
    z = snp.zeros_like(a)
    st = dict(a=a, b=b, fa=fa, fb=fb, d=z, fd=z, e=z, fe=z, have_e=snp.asarray(False),
              it=snp.int32(0), nf=nf, flag=flag.astype(snp.int32), x=x0)
    st, fc, go = evaluate(st, c)
    new, d, fd = update(st, c, fc)
    st = guarded(st, dict(new, d=d, fd=fd, it=st["it"] + 1), go)
    if maxiter <= 0:
        st["flag"] = snp.where(st["flag"] == INPROGRESS, CONVERR, st["flag"]).astype(
            snp.int32)

    def body(st):
        st = dict(st, it=st["it"] + 1)
        width = st["b"] - st["a"]
        d, fd, e, fe = st["d"], st["fd"], st["e"], st["fe"]
        for nsteps in range(2, k + 2):
            a, b, fa, fb = st["a"], st["b"], st["fa"], st["fb"]
            fs = [fa, fb, fd, fe]
            ok = st["have_e"]
            for i in range(4):
                ok = ok & (fs[i] != 0) & snp.isfinite(fs[i])
                for j in range(i + 1, 4):
                    ok = ok & ~(snp.abs(fs[i] - fs[j]) <= 32 * eps)
            fsafe = [snp.where(ok, v, 1.0 + i) for i, v in enumerate(fs)]
            c0 = _inverse_cubic_zero([a, b, d, e], fsafe)
            use = ok & (a < c0) & (c0 < b)
            if nsteps == 2:
                c = snp.where(use, c0, _newton_quadratic(a, b, fa, fb, d, fd, nsteps))
            else:
                # SciPy's c is set once per iteration: a later step without an
                # inverse cubic keeps (and re-evaluates) the previous point
                c = snp.where(use, c0, c)
            st, fc, go = evaluate(st, c)
            new, d2, fd2 = update(st, c, fc)
            st = guarded(st, new, go)
            e, fe = snp.where(go, d, e), snp.where(go, fd, fe)
            d, fd = snp.where(go, d2, d), snp.where(go, fd2, fd)
            st = dict(st, have_e=st["have_e"] | go)
        # the double-length secant step from the end with the smaller |f|
        a, b, fa, fb = st["a"], st["b"], st["fa"], st["fb"]
        left = snp.abs(fa) < snp.abs(fb)
        u, fu = snp.where(left, a, b), snp.where(left, fa, fb)
        other, fother = snp.where(left, b, a), snp.where(left, fb, fa)
        A = (fb - fa) / (b - a)
        c = u - 2 * fu / A
        far = snp.abs(c - u) > 0.5 * (b - a)
        near = snp.abs(c - u) <= eps * snp.abs(u)
        eu, eo = snp.frexp(fu)[1], snp.frexp(fother)[1]
        mm = snp.where(left, 1.0, -1.0)
        c_near = snp.where(eu < eo - 50, (31 * u + other) / 32,
                           u + mm * snp.abs(c) * rtol + mm * xtol)
        c_near = snp.where((a < c_near) & (c_near < b), c_near, (a + b) / 2)
        c = snp.where(far, (a + b) / 2, snp.where(near, c_near, c))
        st, fc, go = evaluate(st, c)
        new, d2, fd2 = update(st, c, fc)
        st = guarded(st, new, go)
        e, fe = snp.where(go, d, e), snp.where(go, fd, fe)
        d, fd = snp.where(go, d2, d), snp.where(go, fd2, fd)
        # bisection when the bracket did not shrink by half
        slow = go & (st["b"] - st["a"] > 0.5 * width)
        e, fe = snp.where(slow, d, e), snp.where(slow, fd, fe)
        zm = (st["a"] + st["b"]) / 2
        st2, fz, go2 = evaluate(st, zm)
        st = guarded(st, st2, slow)
        go2 = slow & go2
        new, d2, fd2 = update(st, zm, fz)
        st = guarded(st, new, go2)
        d, fd = snp.where(go2, d2, d), snp.where(go2, fd2, fd)
        st = dict(st, d=d, fd=fd, e=e, fe=fe)
        # SciPy's get_status
        live = st["flag"] == INPROGRESS
        close = snp.abs(st["a"] - st["b"]) <= xtol + rtol * snp.abs(st["b"])
        mid = (st["a"] + st["b"]) / 2
        flag = snp.where(close, CONVERGED, snp.where(st["it"] >= maxiter, CONVERR,
                                                     INPROGRESS))
        return dict(st, flag=snp.where(live, flag, st["flag"]).astype(snp.int32),
                    x=snp.where(live, mid, st["x"]))

    st = lax.while_loop(lambda s: s["flag"] == INPROGRESS, body, st)
    return st["x"], st["it"], st["nf"], st["flag"]


# --- open methods (elementwise over an array x0) -----------------------------------


def _newton_loop(f, fp, fpp, x0, tol, rtol, maxiter):
    """Newton (``fpp is None``) or Halley iterations, as SciPy's ``newton``;
    each element of ``x0`` keeps its own counters and stops on its own."""
    zi = snp.zeros(x0.shape, snp.int32)
    c0 = dict(p=x0, it=zi, nf=zi, flag=zi + INPROGRESS)
    per_it = 2 if fpp is None else 3

    def body(c):
        run = c["flag"] == INPROGRESS
        p = c["p"]
        fval = f(p)
        root = fval == 0
        fder = fp(p)
        zero_der = ~root & (fder == 0)
        step = fval / snp.where(fder == 0, 1.0, fder)
        if fpp is not None:
            adj = step * fpp(p) / snp.where(fder == 0, 1.0, fder) / 2
            step = snp.where(snp.abs(adj) < 1, step / (1.0 - adj), step)
        pn = p - step
        close = snp.abs(pn - p) <= tol + rtol * snp.abs(p)
        it = c["it"] + snp.where(run & ~root, 1, 0)
        nf = c["nf"] + snp.where(run, snp.where(root, 1, snp.where(zero_der, 2,
                                                                  per_it)), 0)
        new_flag = snp.where(root | (~zero_der & close), CONVERGED,
                             snp.where(zero_der, CONVERR, INPROGRESS))
        new_flag = snp.where((new_flag == INPROGRESS) & (it >= maxiter), CONVERR,
                             new_flag)
        upd = run & ~root & ~zero_der
        return dict(p=snp.where(upd, pn, p), it=it, nf=nf,
                    flag=snp.where(run, new_flag, c["flag"]).astype(snp.int32))

    c = lax.while_loop(lambda c: snp.any(c["flag"] == INPROGRESS), body, c0)
    return c["p"], c["it"], c["nf"], c["flag"]


def _secant_loop(f, x0, x1, tol, rtol, maxiter):
    if x1 is None:
        p1 = x0 * (1 + 1e-4)
        p1 = p1 + snp.where(p1 >= 0, 1e-4, -1e-4)
    else:
        p1 = snp.broadcast_to(snp.asarray(x1, x0.dtype), x0.shape)
    p0 = x0
    q0, q1 = f(p0), f(p1)
    sw = snp.abs(q1) < snp.abs(q0)
    p0, p1, q0, q1 = (snp.where(sw, p1, p0), snp.where(sw, p0, p1),
                      snp.where(sw, q1, q0), snp.where(sw, q0, q1))
    zi = snp.zeros(x0.shape, snp.int32)
    c0 = dict(p0=p0, p1=p1, q0=q0, q1=q1, p=p1, it=zi, nf=zi + 2,
              flag=zi + INPROGRESS)

    def body(c):
        run = c["flag"] == INPROGRESS
        p0, p1, q0, q1 = c["p0"], c["p1"], c["q0"], c["q1"]
        it = c["it"] + snp.where(run, 1, 0)
        flat = q1 == q0
        big = snp.abs(q1) > snp.abs(q0)
        sq1 = snp.where(flat, 1.0, q1)
        sq0 = snp.where(flat, 1.0, q0)
        p = snp.where(big, (-q0 / sq1 * p1 + p0) / (1 - q0 / sq1),
                      (-q1 / sq0 * p0 + p1) / (1 - q1 / sq0))
        p = snp.where(flat, (p1 + p0) / 2.0, p)
        close = ~flat & (snp.abs(p - p1) <= tol + rtol * snp.abs(p1))
        go = run & ~flat & ~close
        qn = f(snp.where(go, p, p1))
        flag = snp.where(flat, CONVERR, snp.where(close, CONVERGED, INPROGRESS))
        flag = snp.where((flag == INPROGRESS) & (it >= maxiter), CONVERR, flag)
        return dict(p0=snp.where(go, p1, p0), q0=snp.where(go, q1, q0),
                    p1=snp.where(go, p, p1), q1=snp.where(go, qn, q1),
                    p=snp.where(run, p, c["p"]), it=it,
                    nf=c["nf"] + snp.where(go, 1, 0),
                    flag=snp.where(run, flag, c["flag"]).astype(snp.int32))

    c = lax.while_loop(lambda c: snp.any(c["flag"] == INPROGRESS), body, c0)
    return c["p"], c["it"], c["nf"], c["flag"]


# --- implicit derivative, argument handling, cached runners ------------------------


def _attach_implicit(fx_of, x, dyn):
    """``x`` with derivative ``-f_a da / f_x`` w.r.t. the float leaves ``dyn``
    (``f`` elementwise in ``x``, so ``f_x`` is one jvp with a ones tangent)."""

    @sciax.custom_jvp
    def ident(x, dyn):
        return x

    @ident.defjvp
    def _jvp(primals, tangents):
        xs, d = primals
        _, dd = tangents
        _, f_a = sciax.jvp(lambda dd_: fx_of(xs, dd_), (d,), (dd,))
        _, f_x = sciax.jvp(lambda xx: fx_of(xx, d), (xs,), (snp.ones_like(xs),))
        return xs, -f_a / f_x

    return ident(lax.stop_gradient(x), dyn)


def _split_args(args):
    if not isinstance(args, tuple):
        args = (args,)
    leaves, tree = sciax.tree.flatten(args)
    pos = tuple((hasattr(v, "shape") and hasattr(v, "dtype")) or isinstance(
        v, (float, complex)) for v in leaves)
    dyn = [v if hasattr(v, "dtype") else snp.asarray(v)
           for v, d in zip(leaves, pos) if d]
    statics = tuple(v for v, d in zip(leaves, pos) if not d)
    return dyn, (tree, statics, pos)


def _rebuild(key, dyn):
    tree, statics, pos = key
    it_d, it_s = iter(dyn), iter(statics)
    return tuple(tree.unflatten([next(it_d) if p else next(it_s) for p in pos]))


def _values(fun, args, x, which=0):
    out = fun(x, *args)
    if isinstance(out, (tuple, list)):
        out = out[which]
    v = snp.asarray(out)
    if v.shape != x.shape:
        if v.size == x.size:
            v = v.reshape(x.shape)
        else:
            raise ValueError(f"the function must return one value per entry of x "
                             f"(shape {tuple(x.shape)}), got shape {tuple(v.shape)}")
    return v.astype(x.dtype)


_CACHE: dict = {}


def _cached(key, build):
    try:
        hash(key)
    except TypeError:
        return sciax.jit(build())
    fn = _CACHE.get(key)
    if fn is None:
        if len(_CACHE) >= 256:
            _CACHE.pop(next(iter(_CACHE)))
        fn = _CACHE[key] = sciax.jit(build())
    return fn


def _run(kind, fun, fprime, fprime2, args, opts, *points):
    """Solve once, compiled and cached per (function, method, options, args
    structure); returns ``(root, iterations, function_calls, flag)``."""
    dyn, akey = _split_args(args)
    float_ok = bool(dyn) and all(snp.issubdtype(snp.asarray(d).dtype, snp.inexact)
                                 for d in dyn)

    def build():
        def run(pts, dyn):
            def f_of(which):
                return lambda x, d=None: _values(
                    fun, _rebuild(akey, dyn if d is None else d), x, which)

            dyn_nd = [lax.stop_gradient(d) for d in dyn]
            f = lambda x: f_of(0)(x, dyn_nd)  # noqa: E731
            if kind in ("brentq", "brenth"):
                out = _brent_loop(f, *pts, *opts, hyperbolic=kind == "brenth")
            elif kind == "bisect":
                out = _bisect_loop(f, *pts, *opts)
            elif kind == "ridder":
                out = _ridder_loop(f, *pts, *opts)
            elif kind == "toms748":
                out = _toms748_loop(f, *pts, *opts)
            elif kind == "secant":
                out = _secant_loop(f, pts[0], pts[1] if len(pts) > 1 else None,
                                   *opts)
            else:
                fp = _deriv(fun, fprime, 1, akey, dyn_nd, f)
                fpp = None if kind == "newton" else _deriv(
                    fun, fprime2, 2, akey, dyn_nd, fp)
                out = _newton_loop(f, fp, fpp, pts[0], *opts)
            x = out[0]
            if float_ok:
                x = _attach_implicit(lambda xx, d: f_of(0)(xx, d), x, list(dyn))
            return (x,) + tuple(out[1:])
        return run

    key = (kind, fun, fprime, fprime2, opts, akey, len(points))
    return _cached(key, build)(tuple(points), dyn)


def _deriv(fun, given, order, akey, dyn, lower):
    """The ``order``-th derivative: the user's callable, or exact forward mode
    of ``lower`` (``given`` None or True)."""
    if callable(given):
        return lambda x: _values(given, _rebuild(akey, dyn), x)
    return lambda x: sciax.jvp(lower, (x,), (snp.ones_like(x),))[1]


def _scalar_point(v, name):
    a = v if hasattr(v, "dtype") else snp.asarray(v)
    if a.size != 1:
        raise ValueError(f"{name} must be a scalar, got shape {tuple(a.shape)}")
    a = a.reshape(())
    return a.astype(snp.result_type(a, 1.0))


def _concrete(v):
    try:
        return np.asarray(v)
    except Exception:  # a tracer
        return None


def _check_tols(xtol, rtol, maxiter, name):
    if xtol <= 0:
        raise ValueError(f"xtol too small ({xtol:g} <= 0)")
    if rtol < _RTOL / 4:
        raise ValueError(f"rtol too small ({rtol:g} < {_RTOL / 4:g})")
    if int(maxiter) < 0:
        raise ValueError(f"maxiter must be >= 0 for {name}, got {maxiter}")


def _dtype_rtol(rtol, dtype):
    """``rtol`` raised to ``4 eps`` of a float type narrower than float64.

    SciPy computes in C doubles, and its defaults (``rtol = 4 eps`` for the
    bracketing methods) are float64's; a float32 iteration cannot resolve them,
    and would run to ``maxiter`` and report a failure at a root that is exact to
    its own precision.  float64 keeps ``rtol`` as given (SciPy's iterates)."""
    eps = float(np.finfo(np.dtype(dtype)).eps)
    return float(rtol) if eps <= np.finfo(np.float64).eps else max(float(rtol), 4 * eps)


def _bracketed(kind, f, a, b, args, xtol, rtol, maxiter, full_output, disp,
               extra=()):
    if not callable(f):
        raise TypeError(f"f must be callable, got {type(f).__name__}")
    _check_tols(xtol, rtol, maxiter, kind)
    a, b = _scalar_point(a, "a"), _scalar_point(b, "b")
    dt = snp.result_type(a, b)
    x, it, nf, flag = _run(kind, f, None, None, args,
                           (float(xtol), _dtype_rtol(rtol, dt), int(maxiter))
                           + tuple(extra), a.astype(dt), b.astype(dt))
    fl = _concrete(flag)
    if fl is not None and fl.ndim == 0:
        if int(fl) == SIGNERR:
            raise ValueError("f(a) and f(b) must have different signs")
        if disp and int(fl) == CONVERR:
            raise RuntimeError(f"Failed to converge after {int(np.asarray(it))} "
                               f"iterations, value is {float(np.asarray(x))}.")
    if full_output:
        return x, _results(x, it, nf, flag, kind)
    return x


def _results(x, it, nf, flag, method):
    return RootResults(root=x, iterations=it, function_calls=nf,
                       converged=flag == CONVERGED, _flag=flag, method=method)


_BRACKET_DOC = """{summary}

    sciax implementation of :func:`scipy.optimize.{name}`: the same signature,
    iteration and counts (SciPy's C ``{name}``), compiled as one
    ``lax.while_loop``.

    Parameters
    ----------
    f : callable
        ``f(x, *args) -> float``, written with sciax; ``f(a)`` and ``f(b)``
        must have opposite signs.
    a, b : float
        The bracketing interval.
    args : tuple, optional
        Extra arguments of ``f``; float leaves are traced and differentiable.
    xtol, rtol : float, optional
        The root is found to ``xtol + rtol * |x|`` (``rtol`` at least ``eps``;
        a float32 bracket iterates in float32 with ``rtol`` at least its ``4 eps``).
    maxiter : int, optional
        Iteration limit (default 100).
    full_output : bool, optional
        Also return a :class:`RootResults`.
    disp : bool, optional
        Raise ``RuntimeError`` when the iteration did not converge (only when
        the result is concrete, i.e. outside ``jit``).

    Returns
    -------
    x0 : Array
        The root.
    r : RootResults
        With ``full_output=True``.

    Raises
    ------
    ValueError
        ``f(a)`` and ``f(b)`` have the same sign (outside ``jit``; inside it
        the root is NaN and the flag is ``'sign error'``), bad tolerances.

    Notes
    -----
    Works under ``jit`` and ``vmap``; derivatives of the root with respect to
    float ``args`` follow the implicit function theorem
    (``dx/da = -f_a / f_x``), those with respect to ``a``, ``b`` are zero.

    Examples
    --------
    >>> from sciax.optimize import {name}
    >>> f = lambda x: x ** 3 - 2 * x - 5
    >>> print(round(float({name}(f, 2.0, 3.0)), 10))
    2.0945514815
    >>> g = sciax.grad(lambda c: {name}(lambda x, c: x ** 2 - c, 0.0, 3.0, args=(c,)))
    >>> print(round(float(g(2.0)), 8))  # d sqrt(c)/dc = 1 / (2 sqrt(c))
    0.35355339
    """


def _make_bracketed(kind, summary):
    def fn(f: Callable, a: Any, b: Any, args: Any = (), xtol: float = _XTOL,
           rtol: float = _RTOL, maxiter: int = _ITER, full_output: bool = False,
           disp: bool = True) -> Any:
        return _bracketed(kind, f, a, b, args, xtol, rtol, maxiter, full_output,
                          disp)
    fn.__name__ = fn.__qualname__ = kind
    fn.__doc__ = _BRACKET_DOC.format(summary=summary, name=kind)
    fn.__module__ = __name__
    return fn


brentq = _make_bracketed("brentq", "Find a root in a bracket by Brent's method "
                         "(inverse quadratic interpolation).")
brenth = _make_bracketed("brenth", "Find a root in a bracket by Brent's method "
                         "with hyperbolic extrapolation (Bus and Dekker).")
bisect = _make_bracketed("bisect", "Find a root in a bracket by bisection.")
ridder = _make_bracketed("ridder", "Find a root in a bracket by Ridder's method.")


def toms748(f: Callable, a: Any, b: Any, args: Any = (), k: int = 1,
            xtol: float = _XTOL, rtol: float = _RTOL, maxiter: int = _ITER,
            full_output: bool = False, disp: bool = True) -> Any:
    """Find a root in a bracket by Alefeld, Potra and Shi's Algorithm 748.

    sciax implementation of :func:`scipy.optimize.toms748`: the same
    iteration and counts as SciPy's ``TOMS748Solver`` (inverse cubic
    interpolation or Newton steps on a quadratic, a double-length secant step,
    bisection when the bracket shrinks too little), one ``lax.while_loop``.

    Parameters
    ----------
    f : callable
        ``f(x, *args) -> float``, written with sciax; ``f(a)`` and ``f(b)``
        must have opposite signs.
    a, b : float
        The bracketing interval, ``a < b``.
    args : tuple, optional
        Extra arguments of ``f``; float leaves are traced and differentiable.
    k : int, optional
        Newton-quadratic steps per iteration (``k >= 1``; static).
    xtol, rtol : float, optional
        Stop when the bracket is within ``xtol + rtol * |b|``.
    maxiter : int, optional
        Iteration limit (default 100).
    full_output : bool, optional
        Also return a :class:`RootResults`.
    disp : bool, optional
        Raise ``RuntimeError`` when the iteration did not converge (outside
        ``jit`` only).

    Returns
    -------
    x0 : Array
        The root (and a :class:`RootResults` with ``full_output``).

    Raises
    ------
    ValueError
        ``f(a)`` and ``f(b)`` of the same sign (outside ``jit``), ``a >= b``,
        non-finite ends, ``k < 1``, bad tolerances.

    Notes
    -----
    A NaN or inf value of ``f`` stops with the ``'value error'`` flag (SciPy
    raises).  The root is differentiable with respect to float ``args``
    (implicit function theorem).

    Examples
    --------
    >>> from sciax.optimize import toms748
    >>> f = lambda x: x ** 3 - 2 * x - 5
    >>> x, r = toms748(f, 2.0, 3.0, full_output=True)
    >>> print(round(float(x), 10), int(r.function_calls), r.flag)
    2.0945514815 11 converged
    """
    if int(maxiter) < 1:
        raise ValueError("maxiter must be greater than 0")
    ac, bc = _concrete(snp.asarray(a)), _concrete(snp.asarray(b))
    if ac is not None and not np.all(np.isfinite(ac)):
        raise ValueError(f"a is not finite {a}")
    if bc is not None and not np.all(np.isfinite(bc)):
        raise ValueError(f"b is not finite {b}")
    if ac is not None and bc is not None and np.all(ac >= bc):
        raise ValueError(f"a and b are not an interval [{a}, {b}]")
    if not k >= 1:
        raise ValueError(f"k too small ({k} < 1)")
    return _bracketed("toms748", f, a, b, args, xtol, rtol, maxiter, full_output,
                      disp, (int(k),))


def newton(func: Callable, x0: Any, fprime: Any = None, args: Any = (),
           tol: float = 1.48e-8, maxiter: int = 50, fprime2: Any = None,
           x1: Any = None, rtol: float = 0.0, full_output: bool = False,
           disp: bool = True) -> Any:
    """Find a root by Newton's, Halley's or the secant method.

    sciax implementation of :func:`scipy.optimize.newton`, one
    ``lax.while_loop``.  With ``fprime=None`` the secant method is used (as
    SciPy), with ``fprime`` Newton's method, with ``fprime2`` too Halley's.

    Parameters
    ----------
    func : callable
        ``func(x, *args)``; for an array ``x0`` it must be elementwise.
    x0 : float or array_like
        Starting point(s); an array solves one independent problem per entry
        (each entry stops on its own).
    fprime, fprime2 : callable or True, optional
        First and second derivatives.  ``True`` (a sciax extension) means the
        exact derivative by forward-mode automatic differentiation.
    args : tuple, optional
        Extra arguments; float leaves are traced and differentiable.
    tol, rtol : float, optional
        Stop when ``|x_new - x| <= tol + rtol * |x|``.
    maxiter : int, optional
        Iteration limit.
    x1 : float, optional
        Second starting point of the secant method.
    full_output : bool, optional
        Scalar ``x0``: return ``(x, RootResults)``; array ``x0``: return
        ``(x, converged, zero_der)``.
    disp : bool, optional
        Scalar ``x0``: raise ``RuntimeError`` when not converged (outside
        ``jit`` only).

    Returns
    -------
    root : Array
        The root(s); see ``full_output``.

    Notes
    -----
    For an array ``x0`` SciPy iterates until all entries converge; here each
    entry is frozen once it has converged, which gives each the iterate it
    would have alone (as a loop of scalar calls).  The root is differentiable
    with respect to float ``args`` (implicit function theorem).

    Examples
    --------
    >>> from sciax.optimize import newton
    >>> f = lambda x: x ** 3 - 1
    >>> print(round(float(newton(f, 1.5)), 10))
    1.0
    >>> r = newton(lambda x, a: x ** 2 - a, snp.ones(3), fprime=True,
    ...            args=(snp.array([4.0, 9.0, 16.0]),))
    >>> print(np.round(np.asarray(r), 10))
    [2. 3. 4.]
    """
    if not callable(func):
        raise TypeError(f"func must be callable, got {type(func).__name__}")
    if tol <= 0:
        raise ValueError(f"tol too small ({tol:g} <= 0)")
    if int(maxiter) < 1:
        raise ValueError("maxiter must be greater than 0")
    x = x0 if hasattr(x0, "dtype") else snp.asarray(x0)
    x = x.astype(snp.result_type(x, 1.0))
    scalar = x.size == 1 and x.ndim == 0
    opts = (float(tol), _dtype_rtol(rtol, x.dtype), int(maxiter))
    if fprime is None:
        kind = "secant"
        if x1 is not None:
            c0, c1 = _concrete(x), _concrete(x1)
            if c0 is not None and c1 is not None and np.all(c0 == c1):
                raise ValueError("x1 and x0 must be different")
        pts = (x,) if x1 is None else (x, snp.asarray(x1, x.dtype))
    else:
        kind = "newton" if fprime2 is None else "halley"
        pts = (x,)
    root, it, nf, flag = _run(kind, func, fprime, fprime2, args, opts, *pts)
    fl = _concrete(flag)
    if not scalar:
        if fl is not None and np.any(fl != CONVERGED) and not full_output:
            warnings.warn(f"{int(np.sum(fl != CONVERGED))} of {fl.size} failed to "
                          f"converge after {maxiter} iterations", RuntimeWarning,
                          stacklevel=2)
        if full_output:
            zero_der = (flag == CONVERR) & (it < maxiter)
            return root, flag == CONVERGED, zero_der
        return root
    if fl is not None and disp and int(fl) != CONVERGED:
        raise RuntimeError(f"Failed to converge after {int(np.asarray(it))} "
                           f"iterations, value is {float(np.asarray(root))}.")
    if full_output:
        return root, _results(root, it, nf, flag, kind)
    return root


def root_scalar(f: Callable, args: Any = (), method: str | None = None,
                bracket: Any = None, fprime: Any = None, fprime2: Any = None,
                x0: Any = None, x1: Any = None, xtol: float | None = None,
                rtol: float | None = None, maxiter: int | None = None,
                options: dict | None = None) -> RootResults:
    """Find a root of a scalar function.

    sciax implementation of :func:`scipy.optimize.root_scalar`, with methods
    ``'brentq'``, ``'brenth'``, ``'bisect'``, ``'ridder'``, ``'toms748'``
    (bracketing),
    ``'newton'``, ``'secant'`` and ``'halley'``.

    Parameters
    ----------
    f : callable
        ``f(x, *args)``; with ``fprime=True`` it returns ``(f, f')``, with
        ``fprime2=True`` too ``(f, f', f'')`` (SciPy's convention).
    args : tuple, optional
        Extra arguments; float leaves are traced and differentiable.
    method : str, optional
        Chosen as SciPy when omitted: a bracket gives ``'brentq'``, ``x0`` with
        ``fprime`` gives ``'newton'`` (``'halley'`` with ``fprime2``), ``x0``
        alone ``'secant'``.
    bracket : (float, float), optional
        Interval with a sign change, for bracketing methods.
    fprime, fprime2 : callable or bool, optional
        Derivatives for Newton and Halley.  When Newton or Halley is asked
        for without them the exact derivatives (forward mode) are used; SciPy
        raises instead.
    x0, x1 : float, optional
        Starting points of the open methods.
    xtol, rtol, maxiter : optional
        Tolerances and iteration limit (each method's SciPy defaults).
    options : dict, optional
        Same keys as above, as SciPy.

    Returns
    -------
    sol : RootResults
        ``root``, ``iterations``, ``function_calls``, ``converged``, ``flag``,
        ``method``.

    Examples
    --------
    >>> from sciax.optimize import root_scalar
    >>> f = lambda x: snp.cos(x) - x
    >>> sol = root_scalar(f, bracket=(0.0, 1.0), method="brentq")
    >>> print(round(float(sol.root), 10), int(sol.function_calls))
    0.7390851332 8
    >>> sol = root_scalar(f, x0=1.0, method="halley")
    >>> print(round(float(sol.root), 10), sol.flag)
    0.7390851332 converged
    """
    opts = dict(options or {})
    xtol = opts.pop("xtol", xtol)
    rtol = opts.pop("rtol", rtol)
    maxiter = opts.pop("maxiter", maxiter)
    if opts:
        raise ValueError(f"unknown options {sorted(opts)}; root_scalar takes xtol, "
                         f"rtol, maxiter")
    if method is None:
        if bracket is not None:
            method = "brentq"
        elif x0 is not None:
            method = ("halley" if fprime2 else "newton") if fprime else "secant"
        else:
            raise ValueError("Unable to select a solver as neither bracket nor "
                             "starting point provided.")
    meth = method.lower()
    if meth in ("brentq", "brenth", "bisect", "ridder", "toms748"):
        if bracket is None or len(bracket) != 2:
            raise ValueError(f"Bracket needed for {method}: two numbers (a, b)")
        kw = dict(xtol=_XTOL if xtol is None else xtol,
                  rtol=_RTOL if rtol is None else rtol,
                  maxiter=_ITER if maxiter is None else maxiter)
        _, r = _bracketed(meth, f, bracket[0], bracket[1], args, kw["xtol"],
                          kw["rtol"], kw["maxiter"], True, False,
                          (1,) if meth == "toms748" else ())
        return r
    if meth in ("newton", "secant", "halley"):
        if x0 is None:
            raise ValueError(f"x0 must not be None for {method}")
        x = _scalar_point(x0, "x0")
        if meth == "secant":
            fprime = fprime2 = None
        else:
            # Newton/Halley without derivatives: exact ones (SciPy raises).
            fprime = True if fprime is None else fprime
            fprime2 = None if meth == "newton" else (
                True if fprime2 is None else fprime2)
        func, tupled = f, False
        if fprime is True and _tuple_convention(f, args):
            tupled = True
            func = _first_of(f)
            fprime = _tuple_deriv(f, 1)
            fprime2 = _tuple_deriv(f, 2) if fprime2 is True else fprime2
        _, r = newton(func, x, fprime=fprime, args=args,
                      tol=1.48e-8 if xtol is None else xtol,
                      maxiter=50 if maxiter is None else maxiter, fprime2=fprime2,
                      x1=x1, rtol=0.0 if rtol is None else rtol, full_output=True,
                      disp=False)
        r["method"] = meth
        if tupled:  # SciPy memoizes: one call of f gives f, f' (and f'')
            r["function_calls"] = r["function_calls"] // (2 if meth == "newton" else 3)
        return r
    raise ValueError(f"Unknown solver {method!r}; root_scalar knows brentq, brenth, "
                     f"bisect, ridder, toms748, newton, secant, halley")


_TUPLE_FUNS: dict = {}


def _tuple_convention(f, args) -> bool:
    """SciPy's ``fprime=True``: ``f`` returns ``(f, f'[, f''])``.  Known only
    by calling ``f`` once on a float (a function that returns a plain value
    gets exact derivatives instead)."""
    try:
        out = f(snp.float64(0.5), *(args if isinstance(args, tuple) else (args,)))
    except Exception:
        return False
    return isinstance(out, (tuple, list))


def _first_of(f):
    key = ("first", f)
    if key not in _TUPLE_FUNS:
        _TUPLE_FUNS[key] = lambda x, *a: f(x, *a)[0]
    return _TUPLE_FUNS[key]


def _tuple_deriv(f, i):
    key = (i, f)
    if key not in _TUPLE_FUNS:
        _TUPLE_FUNS[key] = lambda x, *a: f(x, *a)[i]
    return _TUPLE_FUNS[key]
