"""The Bessel, zeta, elliptic and hypergeometric grids, registered from their
table in ``tools/_special_grids_b.py`` (one entry per function; the argument
grids are combined by ``numpy.meshgrid``).  Oscillating functions listed in
its ``ENVELOPE`` are compared relative to their envelope (``hypot(J, Y)``, ...):
both sides are divided by it and measured with ``atol = 1``."""

from __future__ import annotations

import os
import sys

import numpy as np

import sciax

from . import register

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _special_grids_b as _b  # noqa: E402


def _mesh(axes):
    return lambda: tuple(a.ravel() for a in np.meshgrid(*axes))


def _scaled(f, env):
    # the envelope is NumPy/SciPy code: the sciax side is jitted alone, then
    # divided on the host (so the entry is registered with jit=False)
    def scaled(*args):
        args = [np.asarray(a) for a in args]
        return np.asarray(sciax.jit(f)(*args), np.float64) / env(*args)
    return scaled


for _name, _fn, _ref, _axes in _b.grids():
    _module = getattr(_fn, "__module__", "") or ""
    _family = _module.rpartition("._")[2] if _module.startswith("sciax.special") \
        else "special"
    if _name in _b.ENVELOPE:
        _env = _b.ENVELOPE[_name]
        register(_name, _family, _mesh(_axes),
                 reference=lambda *a, _r=_ref, _e=_env: _r(*a) / _e(*a),
                 fn=_scaled(_fn, _env), atol=1.0, jit=False,
                 note="; ".join([f"relative to the envelope {_env.__doc__}"]
                                + ([_b.NOTES[_name]] if _name in _b.NOTES else [])))
    else:
        register(_name, _family, _mesh(_axes), reference=_ref, fn=_fn,
                 note=_b.NOTES.get(_name, ""))
