"""Small helpers shared by the Bessel, zeta, elliptic and hypergeometric families.

Argument promotion (SciPy's rules: integers become float64, float32 stays
float32), exact ``sin(pi x)``/``cos(pi x)``, a masked ``while_loop`` for
elementwise series and continued fractions, and a finite-difference helper
for derivatives in a parameter.
"""

from __future__ import annotations

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax


def promote_real(name, *args):
    """Broadcast ``args`` to one real floating dtype.

    Returns ``(arrays, out_dtype)``; the arrays are in the *working* dtype
    (float64 when x64 is enabled, so float32 inputs are computed in double
    precision and rounded once at the end).
    """
    arrs = [snp.asarray(a) for a in args]
    for i, a in enumerate(arrs):
        if snp.issubdtype(a.dtype, snp.complexfloating):
            raise TypeError(f"{name}: argument {i} is complex ({a.dtype}); "
                            "only real arguments are supported")
        if not (snp.issubdtype(a.dtype, snp.number) or a.dtype == snp.bool_):
            raise TypeError(f"{name}: argument {i} has non-numeric dtype {a.dtype}")
    out = snp.result_type(*arrs, 1.0)
    if not snp.issubdtype(out, snp.floating):
        out = snp.result_type(out, snp.float32)
    work = snp.result_type(out, snp.float64) if sciax.config.enable_x64 else out
    arrs = snp.broadcast_arrays(*[a.astype(work) for a in arrs])
    return arrs, out


def finish(out_dtype, *results):
    """Cast results to the user's dtype (one rounding)."""
    res = tuple(r.astype(out_dtype) if not snp.issubdtype(r.dtype, snp.complexfloating)
                else r.astype(snp.result_type(out_dtype, snp.complex64)) for r in results)
    return res[0] if len(res) == 1 else res


def eps(x):
    return float(np.finfo(np.dtype(x.dtype)).eps)


def tiny(x):
    return float(np.finfo(np.dtype(x.dtype)).tiny)


def sinpi(x):
    """``sin(pi x)``, exactly zero at integers (reduction mod 2 is exact)."""
    r = x - 2.0 * snp.round(0.5 * x)           # r in [-1, 1]
    r = snp.where(r > 0.5, 1.0 - r, snp.where(r < -0.5, -1.0 - r, r))
    return snp.sin(np.pi * r)


def cospi(x):
    """``cos(pi x)``, exactly zero at half-integers."""
    return sinpi(0.5 - snp.abs(x - 2.0 * snp.round(0.5 * x)))


def is_int(x):
    return x == snp.floor(x)


def masked_loop(body, init, active, maxiter):
    """Run ``body(i, state) -> (state, keep_going)`` per element until done.

    ``i`` counts steps from 0 as a float of the state's dtype.  Elements
    whose ``active`` flag is false keep their state; the loop stops
    when no element is active or after ``maxiter`` steps.
    """
    i0 = snp.zeros((), snp.asarray(init[0]).real.dtype)   # float counter for the body

    def cond(c):
        i, _, act = c
        return (i < maxiter) & snp.any(act)

    def step(c):
        i, st, act = c
        new, more = body(i, st)
        st = tuple(snp.where(act, n, o) for n, o in zip(new, st))
        return i + 1.0, st, act & more

    _, st, _ = lax.while_loop(cond, step, (i0, tuple(init), active))
    return st


# Five-point central difference in a parameter (fourth order), differencing
# log|f| where the caller says the sign is constant over the stencil (then
# the relative accuracy does not depend on how steep f is).
FD_STEP = 2e-3


def fd_param(fun, p, use_log, h=FD_STEP):
    """``d fun / dp`` by a fourth-order central difference, for each output.

    ``fun(p) -> tuple`` of arrays shaped like ``p``; ``use_log`` a boolean
    array or a tuple of them (one per output).  The four shifted evaluations
    are made in one batched call.
    """
    shifts = snp.array([-2.0, -1.0, 1.0, 2.0], p.dtype) * h
    pp = p[None] + shifts.reshape((4,) + (1,) * p.ndim)
    f0 = fun(p)
    fs = fun(pp)
    if not isinstance(use_log, tuple):
        use_log = (use_log,) * len(f0)
    out = []
    for c, fk, lg in zip(f0, fs, use_log):
        lk = snp.log(snp.abs(snp.where(lg, fk, 1.0)))
        fk = snp.where(lg, lk, fk)
        d = (fk[0] - 8.0 * fk[1] + 8.0 * fk[2] - fk[3]) / (12.0 * h)
        out.append(snp.where(lg, c * d, d))
    return tuple(out)
