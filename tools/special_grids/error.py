"""Grids of the error functions and the normal distribution."""

from __future__ import annotations

import mpmath
import numpy as np

from . import logspace_signed, register

F = "error"
_X = lambda: (np.concatenate([np.linspace(-38, 38, 761),  # noqa: E731
                              logspace_signed(-300, 4, 60)]),)
for _n in ("erf", "erfc", "dawsn", "erfi"):
    register(_n, F, _X)
register("erfcx", F, _X, note="SciPy loses 5e-14 for x < -20 (vs mpmath)")
register("ndtr", F, _X, note="SciPy loses 1.6e-13 near x = -37 (vs mpmath)")
register("log_ndtr", F, _X, note="SciPy loses 1e-14 for x > 8 (vs mpmath)")
register("fresnel", F, _X)
_P = lambda: (np.concatenate([np.logspace(-300, 0, 200),  # noqa: E731
                              1 - np.logspace(-16, -0.3, 60)]),)
register("ndtri", F, _P)
register("erfinv", F, lambda: (np.concatenate([np.linspace(-1, 1, 401),
                                              1 - np.logspace(-16, -0.5, 60)]),))
register("erfcinv", F, lambda: (np.concatenate([np.logspace(-300, 0.3, 200),
                                               np.linspace(0, 2, 101)]),))
register("ndtri_exp", F, lambda: (-np.logspace(-20, 3, 100),),
         reference=None, note="SciPy loses 5e-13 below y = -1e4")
_R = np.random.default_rng(0)
register("wofz", F, lambda: (_R.normal(0, 5, 400) + 1j * np.abs(_R.normal(0, 5, 400)),),
         note="upper half plane")
register("voigt_profile", F, lambda: (_R.normal(0, 5, 300), np.abs(_R.normal(0, 2, 300)),
                                      np.abs(_R.normal(0, 2, 300)) + 0.01))
register("owens_t", F, lambda: (_R.uniform(-10, 10, 300), _R.uniform(-5, 5, 300)))
del mpmath
