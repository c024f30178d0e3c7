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
         reference=mp(mpmath.binomial), note="vs mpmath: SciPy is off by 3e-12")
_A = np.logspace(-3, 4, 30)
_RATIO = np.array([1e-3, 0.1, 0.5, 0.9, 1.0, 1.1, 2.0, 10.0, 50.0])


def _ax():
    """x around a: the ratios where the series meets the continued fraction."""
    return np.repeat(_A, _RATIO.size), np.repeat(_A, _RATIO.size) * np.tile(
        _RATIO, _A.size)


register("gammainc", F, _ax)
register("gammaincc", F, _ax)
_P = np.array([1e-50, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-10])
register("gammaincinv", F, lambda: mesh(_A[::3], _P))
register("gammainccinv", F, lambda: mesh(_A[::3], _P))
_B = np.logspace(-2, 4, 12)
register("betainc", F, lambda: mesh(_B, _B, np.array([1e-5, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999])))
register("betaincc", F, lambda: mesh(_B, _B, np.array([1e-5, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999])))
register("betaincinv", F, lambda: mesh(_B[::2], _B[::2], _P))
register("betainccinv", F, lambda: mesh(_B[::2], _B[::2], _P))
