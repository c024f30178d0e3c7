"""``tanhsinh``: elementwise double-exponential (tanh-sinh) quadrature, as SciPy
1.15's :func:`scipy.integrate.tanhsinh`.

Levels ``l = 0, 1, ...`` halve the step ``h = 2^-l`` of the trapezoidal rule in
``t`` after the substitution ``u = tanh(π/2 sinh t)``; each level adds only the new
(odd) nodes.  The levels are a static Python loop (each has its own number of
nodes), each behind a ``lax.cond`` that skips it once every element has
converged, so the whole integration is differentiable array code: derivatives are
those of the rule at the level where each element stopped.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import sciax.numpy as snp
from sciax import lax

__all__ = ["TanhSinhResult", "tanhsinh"]

# |t| beyond which 1 - |u| underflows in float64 (π/2 sinh t > 708)
_TMAX = math.asinh(2.0 * 708.0 / math.pi)


class TanhSinhResult(NamedTuple):
    """Result of :func:`tanhsinh` (SciPy's field names; a pytree)."""
    success: Any
    status: Any
    integral: Any
    error: Any
    maxlevel: Any
    nfev: Any


def _nodes(level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """New nodes of ``level``: t > 0 (mirrored by the caller), the distance
    ``1 - u`` to the end (computed without cancellation) and the weights
    ``du/dt``, all without the factor ``h``."""
    h = 2.0 ** -level
    j = np.arange(1, int(_TMAX / h) + 1)
    if level > 0:
        j = j[j % 2 == 1]
    t = j * h
    s = 0.5 * np.pi * np.sinh(t)
    with np.errstate(over="ignore"):     # far nodes: weights underflow to 0
        dist = 2.0 / (1.0 + np.exp(2.0 * s))          # 1 - tanh(s)
        w = 0.5 * np.pi * np.cosh(t) / np.cosh(s) ** 2
    keep = (dist > 0) & (w > 0)
    return t[keep], dist[keep], w[keep]


def _map(a: Any, b: Any, u: Any, dist: Any, side: float) -> tuple[Any, Any]:
    """Points and Jacobians for nodes at ``±u`` (``side``), elementwise over the
    range types: finite, [a, inf), (-inf, b], (-inf, inf)."""
    ia, ib = snp.isinf(a), snp.isinf(b)
    a0 = snp.where(ia, 0.0, a)
    b0 = snp.where(ib, 0.0, b)
    # finite: measure from the nearer end so that nodes next to it keep precision
    hl = 0.5 * (b0 - a0)
    x_fin = b0 - hl * dist if side > 0 else a0 + hl * dist
    j_fin = hl
    us = side * u
    one_m = dist                       # 1 - |u|
    one_p = 2.0 - dist                 # 1 + |u|
    # [a, inf): x = a + (1+v)/(1-v), v = us
    num = one_p if side > 0 else one_m
    den = one_m if side > 0 else one_p
    x_r = a0 + num / den
    j_r = 2.0 / (den * den)
    # (-inf, b]: x = b - (1-v)/(1+v)
    x_l = b0 - den / num
    j_l = 2.0 / (num * num)
    # (-inf, inf): x = v / (1 - v²)
    q = one_m * one_p
    x_b = us / q
    j_b = (1.0 + us * us) / (q * q)
    both = ia & ib
    x = snp.where(both, x_b, snp.where(ib, x_r, snp.where(ia, x_l, x_fin)))
    jac = snp.where(both, j_b, snp.where(ib, j_r, snp.where(ia, j_l, j_fin)))
    # nodes whose image overflows (next to an infinite end) are dropped: a
    # convergent integrand is negligible there.  They are evaluated at the
    # centre node's image (where f must be finite for the rule to converge, not
    # at 0, where 1/x**2 on [1, inf) is not), with weight 0, which keeps the
    # value and the derivatives finite
    centre = snp.where(both, 0.0, snp.where(ib, a0 + 1.0, snp.where(ia, b0 - 1.0,
                                                                     a0 + hl)))
    ok = snp.isfinite(x) & snp.isfinite(jac)
    return snp.where(ok, x, centre), snp.where(ok, jac, 0.0)


def tanhsinh(f: Callable, a: Any, b: Any, *, args: tuple = (), log: bool = False,
             maxlevel: int | None = None, minlevel: int = 2, atol: float | None = None,
             rtol: float | None = None, preserve_shape: bool = False,
             callback: Any = None) -> TanhSinhResult:
    """Elementwise tanh-sinh quadrature: sciax implementation of SciPy 1.15's
    :func:`scipy.integrate.tanhsinh`.

    Parameters
    ----------
    f : callable
        ``f(x, *args)``, elementwise: called with ``x`` of the broadcast shape of
        ``a``, ``b`` and ``args`` plus one trailing axis of nodes (``args`` get a
        trailing axis of length 1).
    a, b : array_like
        Limits (may be infinite, elementwise), broadcast together with ``args``.
    args : tuple, optional
        Extra arguments (arrays), differentiable.
    log : bool, optional
        Not supported (must be False).
    maxlevel : int, optional
        Highest level (default 10): at most about ``2^maxlevel * 12`` nodes.
    minlevel : int, optional
        First level at which convergence is tested (default 2).
    atol, rtol : float, optional
        Tolerances (default ``atol = 0``, ``rtol = eps**0.75``).
    preserve_shape, callback
        ``preserve_shape`` is accepted (the integrand is always called with the
        broadcast shape); ``callback`` is not supported.

    Returns
    -------
    TanhSinhResult
        ``success``, ``status`` (0 converged, -2 ``maxlevel`` reached, -3 a
        non-finite value), ``integral``, ``error``, ``maxlevel`` (the level
        reached) and ``nfev``, each of the broadcast shape.

    Notes
    -----
    The error estimate is Bailey's, as in SciPy: from the last three levels and
    the size of the outermost terms.  *Transformations*: ``jit``, ``vmap`` and
    ``grad`` (with respect to ``args`` and finite limits) work; the derivative is
    that of the rule at the level where each element stopped.

    Examples
    --------
    >>> from sciax.integrate import tanhsinh
    >>> res = tanhsinh(lambda x: x ** -0.5, 0.0, snp.array([1.0, 4.0]))
    >>> print(np.round(np.asarray(res.integral), 10), np.asarray(res.status))
    [2. 4.] [0 0]
    """
    if log:
        raise NotImplementedError("tanhsinh: log=True is not supported")
    if callback is not None:
        raise NotImplementedError("tanhsinh: callback is not supported")
    maxlevel = 10 if maxlevel is None else int(maxlevel)
    if maxlevel < 0 or int(minlevel) < 0:
        raise ValueError(f"tanhsinh: maxlevel and minlevel must be non-negative "
                         f"ints; got {maxlevel} and {minlevel}")
    dtype = snp.asarray(1.0).dtype
    eps = float(snp.finfo(dtype).eps)
    atol = 0.0 if atol is None else float(atol)
    rtol = eps ** 0.75 if rtol is None else float(rtol)
    args = tuple(snp.asarray(p) for p in (args if isinstance(args, tuple) else (args,)))
    shape = snp.broadcast_shapes(snp.shape(a), snp.shape(b), *[p.shape for p in args])
    a = snp.broadcast_to(snp.asarray(a, dtype), shape)
    b = snp.broadcast_to(snp.asarray(b, dtype), shape)
    pargs = tuple(snp.broadcast_to(p, shape)[..., None] for p in args)
    a_, b_ = a[..., None], b[..., None]

    def level_sum(level: int) -> tuple[Any, Any, Any, int]:
        t, dist, w = _nodes(level)
        u = snp.asarray(1.0 - dist)
        d = snp.asarray(dist)
        total, big, ends = 0.0, 0.0, 0.0
        for side in (1.0, -1.0):
            x, jac = _map(a_, b_, u, d, side)
            fx = snp.asarray(f(x, *pargs)) * jac * snp.asarray(w)
            total = total + snp.sum(fx, axis=-1)
            big = snp.maximum(big, snp.max(snp.abs(fx), axis=-1))
            ends = snp.maximum(ends, snp.abs(fx[..., -1]))
        n = 2 * len(t)
        if level == 0:
            x0, j0 = _map(a_, b_, snp.asarray([0.0]), snp.asarray([1.0]), 1.0)
            f0 = snp.asarray(f(x0, *pargs)) * j0 * (0.5 * np.pi)
            total = total + f0[..., 0]
            n += 1
        return total, big, ends, n

    zero = snp.zeros(shape, dtype)
    raw, big, ends, n0 = level_sum(0)
    s_prev2, s_prev = snp.full(shape, snp.nan), raw * 1.0     # h = 1 at level 0
    raw_sum = raw
    done = snp.zeros(shape, bool)
    status = snp.full(shape, -2, snp.int32)
    integral, error = s_prev, snp.full(shape, snp.nan)
    level_out = snp.zeros(shape, snp.int32)
    nfev = snp.full(shape, n0, snp.int32)
    bad = ~snp.isfinite(raw)
    for level in range(1, maxlevel + 1):
        h = 2.0 ** -level

        def run(carry: tuple, level: int = level) -> tuple:
            return level_sum(level)[:3]

        def skip(carry: tuple) -> tuple:
            return zero, zero, zero

        new, nbig, nends = lax.cond(snp.all(done | bad), skip, run, ())
        n_new = len(_nodes(level)[0]) * 2
        raw_sum = raw_sum + snp.where(done, 0.0, new)
        s = raw_sum * h
        big = snp.maximum(big, nbig)
        d1 = snp.abs(s - s_prev)
        d2 = snp.abs(s - s_prev2)
        # Bailey's estimate in log10: max(d1²/d2, 2 d1, eps·max|term|, last term)
        l1 = snp.log10(snp.maximum(d1, 1e-300))
        l2 = snp.log10(snp.maximum(d2, 1e-300))
        est = snp.maximum(snp.maximum(snp.where(l2 < 0, l1 * l1 / l2, l1), 2 * l1),
                          snp.log10(snp.maximum(eps * big * h, 1e-300)))
        est = snp.maximum(est, snp.log10(snp.maximum(nends * h, 1e-300)))
        err = snp.where(d1 == 0, eps * snp.abs(s), 10.0 ** est)
        err = snp.where(level >= 2, err, snp.nan)
        live = ~done & ~bad
        nonfin = live & ~snp.isfinite(s)
        bad = bad | nonfin
        integral = snp.where(live, s, integral)
        error = snp.where(live, err, error)
        level_out = snp.where(live, level, level_out)
        nfev = snp.where(live, nfev + n_new, nfev)
        conv = live & (level >= max(int(minlevel), 2)) & (
            err <= snp.maximum(atol, rtol * snp.abs(s)))
        done = done | conv
        s_prev2, s_prev = s_prev, s
    status = snp.where(done, 0, snp.where(bad, -3, status))
    return TanhSinhResult(done, status, integral, error, level_out, nfev)
