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


# The recurrences run in double-double: against mpmath (40 digits) every
# eval_* below is correctly rounded on its grid (error 0 relative to
# max(|p|, 0.01)), so the worst error against SciPy is SciPy's own.
_DD = "SciPy's error: vs mpmath ours 0 (double-double recurrence), SciPy "
_SCIPY_ERR = {"eval_legendre": "9.1e-14", "eval_hermite": "4.5e-14",
              "eval_hermitenorm": "6.6e-13", "eval_laguerre": "6.1e-14",
              "eval_genlaguerre": "2.7e-14", "eval_jacobi": "1.2e-13",
              "eval_gegenbauer": "1.2e-13"}


def _note(name, zeros=True):
    parts = ["error relative to max(|p|, 0.01): zeros"] if zeros else []
    if name in _SCIPY_ERR:
        parts.append(_DD + _SCIPY_ERR[name])
    return "; ".join(parts)


for _name, _scale in (("eval_legendre", 1), ("eval_chebyt", 1), ("eval_chebyu", 1),
                      ("eval_hermite", 3), ("eval_hermitenorm", 3)):
    register(_name, F, lambda s=_scale: (_N, s * _X), reference=_int_ref(_name),
             atol=1e-2, note=_note(_name))
register("eval_laguerre", F, lambda: (_N, 5 * (_X + 1)),
         reference=_int_ref("eval_laguerre"), atol=1e-2,
         note=_note("eval_laguerre", False))
register("eval_genlaguerre", F, lambda: (_N, np.full_like(_X, 0.7), 5 * (_X + 1)),
         reference=_int_ref("eval_genlaguerre"), atol=1e-2,
         note=_note("eval_genlaguerre", False))
register("eval_jacobi", F, lambda: (_N, np.full_like(_X, 0.5), np.full_like(_X, -0.3), _X),
         reference=_int_ref("eval_jacobi"), atol=1e-2, note=_note("eval_jacobi", False))
register("eval_gegenbauer", F, lambda: (_N, np.full_like(_X, 1.3), _X),
         reference=_int_ref("eval_gegenbauer"), atol=1e-2,
         note=_note("eval_gegenbauer", False))
register("lpmv", F, lambda: mesh(np.arange(-3, 4.0), np.arange(3, 12.0),
                                 np.linspace(-0.95, 0.95, 9)),
         atol=1e-2)
