"""Powell's conjugate-direction method (derivative free), with bounds as SciPy.

The iteration is SciPy's ``_minimize_powell`` (M. J. D. Powell, *Computer J.*
7, 1964, with the direction-replacement test of Numerical Recipes): a line
minimisation along each of ``n`` directions, then an extrapolated point and
possibly a line search along ``x_new - x_old``, which replaces the direction
of largest decrease.  Line searches are Brent's method from a downhill
bracket when the line is unbounded, bounded Brent on the feasible segment
when it is bounded, and bounded Brent on ``arctan``-transformed steps when it
is half-bounded (SciPy's ``_linesearch_powell``).  SciPy's bracket takes a
parabolic step that sciax's golden expansion does not, so the iterates are
close to SciPy's but not identical.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import RUNNING, AbstractMinimizer, Status, reason_index
from sciax.optimize._scalar import _bounded, _bracket, _brent


@sciax.tree.register_dataclass
@dataclasses.dataclass
class PowellState:
    x: Any
    f: Any
    g: Any
    direc: Any
    it: Any
    nfev: Any
    njev: Any
    nhev: Any


def _line_bounds(x, d, lb, ub):
    """``(lmin, lmax)`` with ``lb <= x + l d <= ub`` (SciPy's
    ``_line_for_search``); ``(-inf, inf)`` for a zero direction."""
    nz = d != 0
    ds = snp.where(nz, d, 1.0)
    lo, hi = (lb - x) / ds, (ub - x) / ds
    pos = d > 0
    lmin = snp.where(nz, snp.where(pos, lo, hi), -snp.inf)
    lmax = snp.where(nz, snp.where(pos, hi, lo), snp.inf)
    # NaN from inf/inf or 0*inf never binds
    lmin = snp.where(snp.isnan(lmin), -snp.inf, lmin)
    lmax = snp.where(snp.isnan(lmax), snp.inf, lmax)
    return snp.max(lmin), snp.min(lmax)


def _line_search(value, x, d, fval, tol, lb, ub):
    """Minimise ``value(x + a d)`` over ``a``; returns ``(f, x_new, a d, nfev)``."""
    dt = x.dtype
    lmin, lmax = _line_bounds(x, d, lb, ub)
    phi = lambda a: value(x + a * d)  # noqa: E731

    def free(_):
        xa, xb, xc, _, fb, _, nb = _bracket(phi, snp.asarray(0.0, dt),
                                            snp.asarray(1.0, dt))
        a, fa, _, nf, _ = _brent(phi, xa, xb, xc, fb, tol, 500)
        return a, fa, (nb + nf).astype(snp.int32)

    def boxed(_):
        a, fa, nf, _, _ = _bounded(phi, lmin, lmax, tol / 100, 500)
        return a, fa, snp.asarray(nf, snp.int32)

    def half(_):
        lo = snp.arctan(lmin)
        hi = snp.arctan(lmax)
        t, fa, nf, _, _ = _bounded(lambda t: phi(snp.tan(t)), lo, hi, tol / 100, 500)
        return snp.tan(t), fa, snp.asarray(nf, snp.int32)

    fin_lo, fin_hi = snp.isfinite(lmin), snp.isfinite(lmax)
    case = snp.where(~fin_lo & ~fin_hi, 0, snp.where(fin_lo & fin_hi, 1, 2))
    a, fa, nf = lax.switch(case, [free, boxed, half], None)
    zero = snp.all(d == 0)
    step = snp.where(zero, 0.0, a * d)
    return (snp.where(zero, fval, fa), x + step, step,
            snp.where(zero, 0, nf).astype(snp.int32))


@dataclasses.dataclass(frozen=True)
class PowellMinimizer(AbstractMinimizer):
    """Powell's conjugate-direction method (derivative free).

    Options (SciPy's): ``maxiter`` and ``maxfev`` (both ``1000 * n`` when
    neither is given), ``xtol=1e-4`` (line searches to ``100 * xtol``),
    ``ftol=1e-4`` (relative decrease per iteration), ``direc`` (initial
    directions, rows), ``disp``, ``return_all``.

    Examples
    --------
    >>> from sciax.optimize import minimize, rosen
    >>> res = minimize(rosen, snp.array([-1.2, 1.0]), method="Powell",
    ...                options={"xtol": 1e-8, "ftol": 1e-10})
    >>> print(np.round(np.asarray(res.x), 5), res.success)
    [1. 1.] True
    """

    maxiter: int | None = None
    maxfev: int | None = None
    xtol: float = 1e-4
    ftol: float = 1e-4
    direc: Any = None
    name = "powell"
    uses_jac = False
    takes_bounds = True
    tol_fields = ("xtol", "ftol")
    status_codes = {Status.MAX_FEV: 1, Status.MAX_ITER: 2}

    def _limits(self, n):
        if self.maxiter is None and self.maxfev is None:
            return 1000 * n, 1000 * n
        big = 2 ** 31 - 1
        return (big if self.maxiter is None else int(self.maxiter),
                big if self.maxfev is None else int(self.maxfev))

    def max_iter(self, n):
        return self._limits(n)[0]

    def init(self, obj, x0, lb, ub):
        n = x0.shape[0]
        if self.direc is not None:
            direc = snp.asarray(np.asarray(self.direc), x0.dtype)
            if direc.shape != (n, n):
                raise ValueError(f"direc must have shape (N, N) = {(n, n)}, got "
                                 f"{tuple(direc.shape)}")
        else:
            direc = snp.eye(n, dtype=x0.dtype)
        f = obj.value(x0)
        z = snp.int32(0)
        return PowellState(x=x0, f=f, g=snp.zeros_like(x0), direc=direc, it=z,
                           nfev=snp.int32(1), njev=z, nhev=z)

    def terminate(self, obj, st, lb, ub):
        return snp.int32(RUNNING)

    def extra_stop(self, st):
        maxfev = self._limits(st.x.shape[0])[1]
        return snp.where(st.nfev >= maxfev, reason_index(Status.MAX_FEV),
                         RUNNING).astype(snp.int32)

    def step(self, obj, st, lb, ub):
        # One loop over n + 1 line searches: the n directions, then (unless the
        # iteration stops) the extrapolation test and the search along
        # x_new - x_old, so the program holds one line search, not two.
        n = st.x.shape[0]
        maxiter, maxfev = self._limits(n)
        tol = 100 * self.xtol
        fx, x0 = st.f, st.x
        it = st.it + 1
        dt = x0.dtype

        def trivial(c):
            x, fval = c
            return fval, x, snp.zeros_like(x), snp.int32(0)

        def body(i, c):
            x, fval, delta, big, nfev, direc, conv = c
            last = i == n
            bnd = self.ftol * (snp.abs(fx) + snp.abs(fval)) + 1e-20
            conv = snp.where(last, 2.0 * (fx - fval) <= bnd, conv)
            stop = conv | (nfev >= maxfev) | (it >= maxiter) | snp.isnan(fval)
            d1 = x - x0

            def extrapolate(_):
                _, lmax = _line_bounds(x, d1, lb, ub)
                fx2 = obj.value(x + snp.minimum(lmax, 1.0) * d1)
                t = 2.0 * (fx + fx2 - 2.0 * fval) * (fx - fval - delta) ** 2
                t = t - delta * (fx - fx2) ** 2
                return (fx > fx2) & (t < 0.0), snp.int32(1)

            search, nf2 = lax.cond(last & ~stop, extrapolate,
                                   lambda _: (snp.asarray(False), snp.int32(0)), None)
            d = snp.where(last, snp.where(search, d1, 0.0),
                          direc[snp.minimum(i, n - 1)])
            f_new, x_new, step, nf = lax.cond(
                snp.all(d == 0), trivial,
                lambda c: _line_search(obj.value, c[0], d, c[1], tol, lb, ub),
                (x, fval))
            gain = fval - f_new
            better = ~last & (gain > delta)
            swap = last & search & snp.any(step != 0)
            direc = snp.where(swap, direc.at[big].set(direc[-1]).at[-1].set(step),
                              direc)
            return (x_new, f_new, snp.where(better, gain, delta),
                    snp.where(better, i, big), nfev + nf + nf2, direc, conv)

        c0 = (x0, fx, snp.zeros((), dt), snp.int32(0), st.nfev, st.direc,
              snp.asarray(False))
        x, fval, _, _, nfev, direc, conv = lax.fori_loop(0, n + 1, body, c0)
        reason = snp.where(conv, reason_index(Status.SUCCESS), RUNNING)
        return (PowellState(x=x, f=fval, g=st.g, direc=direc, it=it,
                            nfev=nfev.astype(snp.int32), njev=st.njev, nhev=st.nhev),
                reason.astype(snp.int32))

    def postprocess(self, obj, st):
        return {"direc": st.direc}
