"""Grids of the convenience functions."""

from __future__ import annotations

import mpmath
import numpy as np

from . import logspace_signed, mp, register

F = "convenience"
_X = lambda: (np.concatenate([np.linspace(-50, 50, 401),  # noqa: E731
                              logspace_signed(-300, 300, 40)]),)
register("sinc", F, _X, atol=1e-2,
         note="error relative to max(|sinc|, 0.01): ours is exactly 0 at the "
         "integers, where NumPy's sin(pi x)/(pi x) gives up to ~1e-16")
for _n in ("expit", "log_expit", "exp2", "exp10", "cbrt", "round", "expm1",
           "log1p", "exprel", "entr", "sindg", "cosdg"):
    register(_n, F, _X)
register("cosm1", F, lambda: (np.linspace(-0.8, 0.8, 401),),
         note="|x| < pi/4 (beyond, SciPy's cos(x) - 1 cancels)")
register("logit", F, lambda: (np.concatenate([np.linspace(0, 1, 201),
                                             np.logspace(-300, -1, 40)]),))
_R = np.random.default_rng(0)
_W = lambda: np.abs(_R.normal(0, 2, 300))  # noqa: E731
for _n in ("xlogy", "xlog1py", "huber", "pseudo_huber", "boxcox", "boxcox1p",
           "inv_boxcox", "inv_boxcox1p", "powm1", "agm"):
    register(_n, F, lambda: (_W(), _W() * 0.3))
register("rel_entr", F, lambda: (_W(), _W() + 2.0))


def _kl_grid():
    x, y = _W(), _W() + 2.0
    # and y/x = 1 +- 1e-8..1e-1, where x log(x/y) - x + y cancels
    c, d = np.meshgrid([0.01, 0.7, 3.0, 50.0], 10.0 ** np.arange(-8.0, 0.0))
    c, d = c.ravel(), d.ravel()
    return (np.concatenate([x, c, c]), np.concatenate([y, c * (1 + d), c * (1 - d)]))


register("kl_div", F, _kl_grid,
         mp(lambda x, y: x * mpmath.log(x / y) - x + y, dps=40),
         note="vs mpmath: SciPy's x log(x/y) - x + y cancels for x ~ y (no "
         "correct digit at y = x (1 +- 1e-8)); ours is -x log1pmx((y - x)/x) there")
