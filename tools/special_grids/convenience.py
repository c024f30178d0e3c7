"""Grids of the convenience functions."""

from __future__ import annotations

import numpy as np

from . import logspace_signed, register

F = "convenience"
_X = lambda: (np.concatenate([np.linspace(-50, 50, 401),  # noqa: E731
                              logspace_signed(-300, 300, 40)]),)
register("sinc", F, _X, atol=1e-15,
         note="exactly 0 at the integers (NumPy's sinc gives ~1e-17 there)")
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
register("kl_div", F, lambda: (_W(), _W() + 2.0),
         note="x ~ y cancels in SciPy's formula and ours alike")
