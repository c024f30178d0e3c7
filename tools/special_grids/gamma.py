"""Grids of the gamma family and the incomplete gamma/beta functions."""

from __future__ import annotations

import mpmath
import numpy as np

from . import logspace_signed, mesh, mp, register

F = "gamma"
_X1 = lambda: (np.concatenate([logspace_signed(-300, 2.2, 80) - 0.25,  # noqa: E731
                               np.linspace(-40.3, 171.5, 300)]),)
for _n in ("gamma", "gammaln", "rgamma", "gammasgn", "loggamma"):
    register(_n, F, _X1)
register("digamma", F, lambda: (np.concatenate([np.logspace(-300, 5, 100),
                                               np.linspace(0.5, 3, 200)]),),
         note="x > 0 (x < 0 is ill-conditioned: x psi'(x)/psi(x) up to 1e5)")
register("polygamma", F, lambda: mesh(np.array([1.0, 2.0, 3.0, 5.0]),
                                      np.linspace(-9.7, 40, 50)))
register("beta", F, lambda: mesh(np.linspace(-20.3, 60, 30), np.linspace(0.1, 60, 30)),
         reference=mp(mpmath.beta))
register("betaln", F, lambda: mesh(np.logspace(-3, 5, 25), np.logspace(-3, 10, 25)),
         reference=mp(lambda a, b: mpmath.log(mpmath.beta(a, b))),
         note="vs mpmath: SciPy is off by 5e-9 for b/a > 1e6")
register("poch", F, lambda: mesh(np.linspace(-30.5, 200, 25), np.linspace(-10.3, 50, 25)),
         reference=mp(mpmath.rf))
register("binom", F, lambda: mesh(np.linspace(-30.5, 2000, 25), np.linspace(0, 200, 25)),
         reference=mp(mpmath.binomial), note="vs mpmath: SciPy is off by 3e-12 (at "
         "values ~1e240, where a log-beta summed in double lost ours 2.6e-13 "
         "before session 16)")
_A = np.logspace(-3, 4, 30)
_RATIO = np.array([1e-3, 0.1, 0.5, 0.9, 1.0, 1.1, 2.0, 10.0, 50.0])


def _ax():
    """x around a: the ratios where the series meets the continued fraction."""
    return np.repeat(_A, _RATIO.size), np.repeat(_A, _RATIO.size) * np.tile(
        _RATIO, _A.size)


def mp_igam(a: float, x: float, upper: bool) -> float:
    """``P(a, x)`` (or ``Q``) by mpmath: the positive series ``x^a e^-x /
    Gamma(a+1) 1F1(1; a+1; x)`` for ``x <= a``, mpmath's upper function
    above (the other one is ``1 -`` it, >= ~1/2 there)."""
    a, x = mpmath.mpf(a), mpmath.mpf(x)
    if x == 0:
        return 1.0 if upper else 0.0
    if x <= a:
        p = (mpmath.exp(a * mpmath.log(x) - x - mpmath.loggamma(a + 1))
             * mpmath.hyp1f1(1, a + 1, x, maxterms=10 ** 6))
        return 1 - p if upper else p
    q = mpmath.gammainc(a, x, mpmath.inf, regularized=True)
    return q if upper else 1 - q


_SCIPY_TAILS = "vs mpmath: SciPy is off by up to {} in the deep tails ({})"
register("gammainc", F, _ax, reference=mp(lambda a, x: mp_igam(a, x, False)),
         note=_SCIPY_TAILS.format("3.7e-12", "P ~ 1e-278 at a = 3290, x = a/2"))
register("gammaincc", F, _ax, reference=mp(lambda a, x: mp_igam(a, x, True)),
         note=_SCIPY_TAILS.format("1.8e-12", "Q ~ 1e-254 at a = 1887, x = 2a"))
_P = np.array([1e-50, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-10])
def mp_igaminv(a: float, y: float, upper: bool) -> float:
    """``x`` with ``P(a, x) = y`` (``Q`` with ``upper``) by mpmath: Newton in
    ``log x`` on the log of the smaller of ``P`` and ``Q``, from SciPy's
    value (0 and inf, under- and overflow, are returned as they are)."""
    import scipy.special as sc

    x0 = (sc.gammainccinv if upper else sc.gammaincinv)(float(a), float(y))
    if not 0 < x0 < np.inf:
        return x0
    # the smaller of P and Q at the root, from y without rounding 1 - y
    use_q = (y < 0.5) if upper else (y > 0.5)
    t = mpmath.log(y if use_q == upper else 1 - y)
    u = mpmath.findroot(lambda u: mpmath.log(mp_igam(a, mpmath.exp(u), use_q)) - t,
                        mpmath.log(mpmath.mpf(x0)))
    return mpmath.exp(u)


register("gammaincinv", F, lambda: mesh(_A[::3], _P),
         reference=mp(lambda a, y: mp_igaminv(a, y, False)),
         note="vs mpmath: SciPy is off by 5.7e-13 at a = 1e-3 (x ~ 1e-301)")
register("gammainccinv", F, lambda: mesh(_A[::3], _P),
         reference=mp(lambda a, y: mp_igaminv(a, y, True)),
         note="vs mpmath: SciPy is off by 5.7e-13 at a = 1e-3 (x ~ 1e-301)")
_B = np.logspace(-2, 4, 12)
register("betainc", F, lambda: mesh(_B, _B, np.array([1e-5, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999])),
         note="SciPy's error: at I = 1.3e-117 (811, 5.34, 0.7) vs mpmath ours 1.1e-15, "
         "SciPy 1.2e-13")
register("betaincc", F, lambda: mesh(_B, _B, np.array([1e-5, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999])))
register("betaincinv", F, lambda: mesh(_B[::2], _B[::2], _P))
register("betainccinv", F, lambda: mesh(_B[::2], _B[::2], _P))
