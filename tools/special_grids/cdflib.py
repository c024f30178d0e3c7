"""Grids of the distribution functions."""

from __future__ import annotations

import numpy as np

from . import mesh, register

F = "cdflib"
_DF = np.logspace(-0.5, 3, 12)
_P = np.array([1e-12, 1e-5, 0.01, 0.25, 0.5, 0.75, 0.99, 1 - 1e-10])
_X = np.logspace(-3, 3, 12)
register("stdtr", F, lambda: mesh(_DF, np.linspace(-40, 40, 41)))
register("stdtrit", F, lambda: mesh(_DF, _P))
register("chdtr", F, lambda: mesh(_DF, _X))
register("chdtrc", F, lambda: mesh(_DF, _X))
register("chdtri", F, lambda: mesh(_DF, _P))
register("gdtr", F, lambda: mesh(np.array([0.5, 2.0]), _DF, _X))
register("gdtrc", F, lambda: mesh(np.array([0.5, 2.0]), _DF, _X))
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
