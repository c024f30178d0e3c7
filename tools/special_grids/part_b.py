"""The Bessel, zeta, elliptic and hypergeometric grids, registered from their
table in ``tools/_special_grids_b.py`` (one entry per function; the argument
grids are combined by ``numpy.meshgrid``).  Oscillating functions listed in
its ``ENVELOPE`` are compared relative to their envelope (``hypot(J, Y)``):
both sides are divided by it and measured with ``atol = 1``."""

from __future__ import annotations

import os
import sys

import numpy as np

from . import register

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _special_grids_b as _b  # noqa: E402


def _mesh(axes):
    return lambda: tuple(a.ravel() for a in np.meshgrid(*axes))


def _scaled(f, env):
    return lambda *args: np.asarray(f(*args), np.float64) / env(*args)


for _name, _fn, _ref, _axes in _b.grids():
    _module = getattr(_fn, "__module__", "") or ""
    _family = _module.rpartition("._")[2] if _module.startswith("sciax.special") \
        else "special"
    if _name in _b.ENVELOPE:
        _env = _b.ENVELOPE[_name]
        register(_name, _family, _mesh(_axes), reference=_scaled(_ref, _env),
                 fn=_scaled(_fn, _env), atol=1.0,
                 note="relative to the envelope hypot(J, Y)")
    else:
        register(_name, _family, _mesh(_axes), reference=_ref, fn=_fn)
