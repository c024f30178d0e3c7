"""Grids of the orthogonal polynomials (integer degrees: SciPy's float-degree
path goes through hyp2f1 and is less accurate)."""

from __future__ import annotations

import numpy as np
import scipy.special as sc

from . import mesh, register

F = "orthogonal"
_N, _X = mesh(np.arange(0, 40, 3), np.linspace(-1, 1, 25))


def _int_ref(name):
    f = getattr(sc, name)
    return lambda n, *a: f(n.astype(int), *a)


for _name, _scale in (("eval_legendre", 1), ("eval_chebyt", 1), ("eval_chebyu", 1),
                      ("eval_hermite", 3), ("eval_hermitenorm", 3)):
    register(_name, F, lambda s=_scale: (_N, s * _X), reference=_int_ref(_name),
             atol=1e-2, note="error relative to max(|p|, 0.01): zeros")
register("eval_laguerre", F, lambda: (_N, 5 * (_X + 1)),
         reference=_int_ref("eval_laguerre"), atol=1e-2)
register("eval_genlaguerre", F, lambda: (_N, np.full_like(_X, 0.7), 5 * (_X + 1)),
         reference=_int_ref("eval_genlaguerre"), atol=1e-2)
register("eval_jacobi", F, lambda: (_N, np.full_like(_X, 0.5), np.full_like(_X, -0.3), _X),
         reference=_int_ref("eval_jacobi"), atol=1e-2)
register("eval_gegenbauer", F, lambda: (_N, np.full_like(_X, 1.3), _X),
         reference=_int_ref("eval_gegenbauer"), atol=1e-2)
register("lpmv", F, lambda: mesh(np.arange(-3, 4.0), np.arange(3, 12.0),
                                 np.linspace(-0.95, 0.95, 9)),
         atol=1e-2)
