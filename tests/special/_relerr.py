"""Elementwise relative error for the Bessel/zeta/elliptic/hypergeometric tests."""

from __future__ import annotations

import numpy as np


def rel_err(a, b, env=None):
    """``|a - b| / max(|b|, env)``; equal values (infinities, zeros) and NaN
    in both give 0, NaN in one only gives inf.

    ``env`` is the local amplitude of an oscillating function (e.g.
    ``hypot(J, Y)``): near a zero the relative error of any double
    evaluation is unbounded, the error relative to the amplitude is not.
    """
    a = np.asarray(a, np.float64) if not np.iscomplexobj(a) else np.asarray(a)
    b = np.asarray(b, np.float64) if not np.iscomplexobj(b) else np.asarray(b)
    env = np.abs(b) if env is None else np.maximum(np.abs(b), env)
    with np.errstate(all="ignore"):
        e = np.abs(a - b) / env
    e = np.where(a == b, 0.0, e)
    e = np.where(np.isnan(a) & np.isnan(b), 0.0, e)
    return np.where(np.isnan(e), np.inf, e)
