"""Grids of the distribution functions."""

from __future__ import annotations

import numpy as np

from . import mesh, mp, register
from .gamma import _SCIPY_TAILS, mp_igam

F = "cdflib"
_DF = np.logspace(-0.5, 3, 12)
_P = np.array([1e-12, 1e-5, 0.01, 0.25, 0.5, 0.75, 0.99, 1 - 1e-10])
_X = np.logspace(-3, 3, 12)
register("stdtr", F, lambda: mesh(_DF, np.linspace(-40, 40, 41)),
         note="SciPy's error: at (1000, -22), 4e-88, vs mpmath ours 1.7e-14, SciPy 6.2e-14")
register("stdtrit", F, lambda: mesh(_DF, _P))
register("chdtr", F, lambda: mesh(_DF, _X),
         reference=mp(lambda v, x: mp_igam(v / 2, x / 2, False)),
         note=_SCIPY_TAILS.format("4.4e-13", "df = 481, x = 23: 1e-219"))
register("chdtrc", F, lambda: mesh(_DF, _X),
         reference=mp(lambda v, x: mp_igam(v / 2, x / 2, True)),
         note=_SCIPY_TAILS.format("5.5e-13", "df = 481, x = 1000: 1e-38"))
register("chdtri", F, lambda: mesh(_DF, _P))
register("gdtr", F, lambda: mesh(np.array([0.5, 2.0]), _DF, _X),
         reference=mp(lambda a, b, x: mp_igam(b, a * x, False)),
         note=_SCIPY_TAILS.format("1.1e-12", "b = 1000, a x = 570: 1e-60"))
register("gdtrc", F, lambda: mesh(np.array([0.5, 2.0]), _DF, _X),
         reference=mp(lambda a, b, x: mp_igam(b, a * x, True)),
         note=_SCIPY_TAILS.format("4.4e-13", "b = 1000, a x = 2000: 1e-136"))
register("pdtr", F, lambda: mesh(np.arange(0, 40, 3.0), _X))
register("pdtrc", F, lambda: mesh(np.arange(0, 40, 3.0), _X))
register("pdtri", F, lambda: mesh(np.arange(0, 40, 3.0), _P))
_K, _N = mesh(np.arange(0, 30, 4.0), np.arange(30, 60, 7.0))
register("bdtr", F, lambda: (np.repeat(_K, 5), np.repeat(_N, 5),
                             np.tile([0.01, 0.2, 0.5, 0.8, 0.99], _K.size)))
register("bdtrc", F, lambda: (np.repeat(_K, 5), np.repeat(_N, 5),
                              np.tile([0.01, 0.2, 0.5, 0.8, 0.99], _K.size)))
register("nbdtr", F, lambda: (np.repeat(_K, 5), np.repeat(_N, 5),
                              np.tile([0.01, 0.2, 0.5, 0.8, 0.99], _K.size)))
register("fdtr", F, lambda: mesh(_DF[::2], _DF[::2], _X))
register("fdtrc", F, lambda: mesh(_DF[::2], _DF[::2], _X))
register("fdtri", F, lambda: mesh(_DF[::2], _DF[::2], _P))
register("smirnov", F, lambda: mesh(np.array([1.0, 5.0, 20.0, 100.0]),
                                    np.linspace(0.01, 0.99, 25)))
register("kolmogorov", F, lambda: (np.linspace(0.01, 5, 200),))
register("kolmogi", F, lambda: (np.concatenate([_P, np.linspace(0.01, 0.99, 30)]),))
