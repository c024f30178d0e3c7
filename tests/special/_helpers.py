"""Comparison helpers for the special-function tests."""

from __future__ import annotations

import numpy as np

TINY = np.finfo(np.float64).tiny


def assert_close(ours, ref, rtol, atol=0.0, *args, name=""):
    """Elementwise ``|ours - ref| <= atol + rtol |ref|``; NaN and infinities
    must match exactly; references in the subnormal range (flushed to zero by
    XLA on CPU) are skipped."""
    ours = np.asarray(ours, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    ours, ref = np.broadcast_arrays(ours, ref)
    sub = (ref != 0) & (np.abs(ref) < TINY)
    nan_bad = np.isnan(ours) != np.isnan(ref)
    inf_bad = np.isinf(ref) & (ours != ref)
    fin = np.isfinite(ref) & ~sub
    atol = np.broadcast_to(np.asarray(atol, dtype=np.float64), ref.shape)
    err = np.zeros_like(ref)
    with np.errstate(invalid="ignore"):
        err[fin] = (np.abs(ours[fin] - ref[fin]) - atol[fin]
                    - rtol * np.abs(ref[fin]))
    bad = nan_bad | inf_bad | (err > 0) | (fin & ~np.isfinite(ours))
    bad &= ~sub
    if bad.any():
        i = np.flatnonzero(bad)[:5]
        pts = [tuple(float(np.broadcast_to(a, ref.shape).flat[j]) for a in args)
               for j in i]
        with np.errstate(invalid="ignore", divide="ignore"):
            rel = np.abs(ours.flat[i] - ref.flat[i]) / np.abs(ref.flat[i])
        raise AssertionError(
            f"{name}: {bad.sum()} of {bad.size} outside rtol={rtol}; "
            f"first at {pts}: ours {ours.flat[i]}, ref {ref.flat[i]}, rel {rel}")


def max_rel(ours, ref) -> float:
    ours = np.asarray(ours, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    m = np.isfinite(ref) & (np.abs(ref) >= TINY)
    if not m.any():
        return 0.0
    return float(np.max(np.abs(ours[m] - ref[m]) / np.abs(ref[m])))
