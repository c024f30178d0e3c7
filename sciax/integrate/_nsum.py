"""``nsum``: elementwise summation of convergent series, as SciPy 1.15's
:func:`scipy.integrate.nsum`.

A finite sum of at most ``maxterms`` terms is added directly.  A longer one is
split by the integral test: with ``S_l = ∫_a^b f`` (a lower bound of the sum
from :func:`tanhsinh`) and the tolerance ``atol + rtol S_l``, the first term
``f(c)``, ``c = a + n step`` with ``n`` among ``1, 2, 4, ..., maxterms``, that is
below the tolerance (and where ``f`` decreases) ends the direct part, and the
rest is ``∫_c^b f / step + (f(c) + f(b)) / 2`` (the Euler-Maclaurin correction
of first order).  Sums from ``-inf`` are mirrored, and sums over all integers
fold ``f(x) + f(-x)`` onto ``[0, inf)``.

The number of direct terms is data: the terms are added a fixed-size chunk at a
time in one ``lax.while_loop`` (each element stops at its own count), so
``nsum`` jits and vmaps.  Its derivatives are not taken through the loop: a
``custom_jvp`` sums the terms' derivatives (elementwise, since ``f`` is) in a
second loop, which gives forward and reverse mode with respect to ``args``,
``a`` and ``step``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.integrate._tanhsinh import TanhSinhResult, tanhsinh
from sciax.special import logsumexp

__all__ = ["NsumResult", "nsum"]

# terms per chunk of the direct-sum loop (fewer when maxterms is smaller)
_CHUNK = 1024
# first level at which the integrals may stop: at levels 2 and 3 Bailey's estimate can
# be fooled (∫_8193^inf x^-2 is 6e-6 off with an estimate of 6e-14)
_MINLEVEL = 4


class NsumResult(NamedTuple):
    """Result of :func:`nsum` (SciPy's field names; a pytree)."""
    success: Any
    status: Any
    sum: Any
    error: Any
    nfev: Any


def _host_plan(a: Any, b: Any, step: Any, maxterms: int) -> tuple | None:
    """When ``a``, ``b`` and ``step`` are known now (not traced): whether any
    element needs the integrals, whether any sums over all integers, and the
    most terms of a direct sum; else None (then decided at run time)."""
    vals = []
    for v in (a, b, step):
        if not isinstance(v, int | float | np.ndarray | np.generic | sciax.Array):
            return None
        vals.append(np.asarray(v, float))
    a, b, step = np.broadcast_arrays(*vals)
    with np.errstate(invalid="ignore", divide="ignore"):
        valid = (b >= a) & np.isfinite(step) & (step > 0)
        nterms = np.floor((b - a) / step)
    direct = valid & (nterms + 1 <= maxterms)
    tail = valid & ~direct
    fold = tail & ~np.isfinite(a) & ~np.isfinite(b)
    most = float(np.max(np.where(direct, nterms + 1, 1.0), initial=1.0))
    return bool(tail.any()), bool(fold.any()), most


def _folded(f: Callable, log: bool, fold: bool | None) -> Callable:
    """``g(x, mode, *args)``: ``f(x)`` (mode 0), ``f(-x)`` (mode 1, sums from
    ``-inf``) or ``f(x) + f(-x)`` with ``x = 0`` counted once (mode 2, sums over
    all integers), elementwise.  ``f(-x)`` for mode 2 is evaluated only when an
    element needs it (``fold``: known now; None: decided at run time)."""
    def g(x: Any, mode: Any, *args: Any) -> Any:
        fx = snp.asarray(f(snp.where(mode == 1, -x, x), *args))
        if not snp.issubdtype(fx.dtype, snp.floating):
            raise TypeError(f"nsum: f must return real floating values, got dtype "
                            f"{fx.dtype}")
        fx = snp.broadcast_to(fx, x.shape)

        def mirrored(fx: Any) -> Any:
            # elsewhere f is evaluated where it already was, so that its
            # derivatives there are finite
            fm = snp.asarray(f(snp.where(mode == 2, -x, x), *args))
            if log:
                both = snp.logaddexp(fx, fm) + snp.where(x == 0, math.log(0.5), 0.0)
            else:
                both = (fx + fm) * snp.where(x == 0, 0.5, 1.0)
            return snp.where(mode == 2, both, fx)

        if fold is None:
            return lax.cond(snp.any(mode == 2), mirrored, lambda fx: fx, fx)
        return mirrored(fx) if fold else fx
    return g


def _chunk_terms(g: Callable, lo: Any, step: Any, count: Any, i: Any, chunk: int,
                 mode: Any, args: tuple) -> tuple[Any, Any]:
    """Terms ``k = i chunk, ..., (i + 1) chunk - 1`` (trailing axis) and the mask
    ``k < count``; masked terms are evaluated at ``lo`` (a valid point)."""
    k = (i * chunk + snp.arange(chunk)).astype(lo.dtype)
    mask = k < count[..., None]
    x = snp.where(mask, lo[..., None] + k * step[..., None], lo[..., None])
    tail = tuple(p[..., None] for p in (mode, *args))
    return g(x, *tail), mask


def _series_fun(g: Callable, log: bool, chunk: int, lo: Any, step: Any, count: Any,
                mode: Any, args: tuple) -> Any:
    """``sum_{k < count} g(lo + k step)`` (``logsumexp`` if ``log``),
    elementwise, a chunk of terms per iteration."""
    zero = snp.full(lo.shape, -snp.inf if log else 0.0, lo.dtype)

    def body(carry: tuple) -> tuple:
        i, s = carry
        t, mask = _chunk_terms(g, lo, step, count, i, chunk, mode, args)
        if log:
            s = snp.logaddexp(s, logsumexp(snp.where(mask, t, -snp.inf), axis=-1))
        else:
            s = s + snp.sum(snp.where(mask, t, 0.0), axis=-1)
        return i + 1, s

    n_chunks = snp.ceil(snp.max(count, initial=0.0) / chunk)
    _, s = lax.while_loop(lambda c: c[0] < n_chunks, body, (snp.int32(0), zero))
    return s


def _series_jvp(g: Callable, log: bool, chunk: int, primals: tuple, tangents: tuple
                ) -> tuple:
    lo, step, count, mode, args = primals
    s = _series(g, log, chunk, lo, step, count, mode, args)
    # the inexact inputs (lo, step and the float args) and their tangents
    leaves = [lo, step, *args]
    tans = [tangents[0], tangents[1], *tangents[4]]
    live = [i for i, x in enumerate(leaves)
            if snp.issubdtype(snp.result_type(x), snp.inexact)]

    def terms_sum(i: Any, diff: list) -> Any:
        # d/dθ of sum_k phi(g_k): phi = id, or exp(. - s) for log (the weights
        # of d logsumexp), summed over the chunk; elementwise in θ
        vals = list(leaves)
        for j, x in zip(live, diff):
            vals[j] = x
        t, mask = _chunk_terms(g, vals[0], vals[1], count, i, chunk, mode, tuple(vals[2:]))
        t = snp.exp(t - s[..., None]) if log else t
        return snp.sum(snp.where(mask, t, 0.0))

    def body(carry: tuple) -> tuple:
        i, acc = carry
        grads = sciax.grad(terms_sum, argnums=1)(i, [leaves[j] for j in live])
        return i + 1, [a + d for a, d in zip(acc, grads)]

    zeros = [snp.zeros_like(leaves[j]) for j in live]
    n_chunks = snp.ceil(snp.max(count, initial=0.0) / chunk)
    _, sums = lax.while_loop(lambda c: c[0] < n_chunks, body, (snp.int32(0), zeros))
    ds = snp.zeros_like(s)
    for j, d in zip(live, sums):
        ds = ds + d * tans[j]
    return s, ds


_series = sciax.custom_jvp(_series_fun, nondiff_argnums=(0, 1, 2))
_series.defjvp(_series_jvp)


def _validate(f: Any, log: Any, maxterms: Any, tolerances: Any) -> tuple:
    if not callable(f):
        raise TypeError(f"nsum: f must be callable, got {type(f).__name__}")
    if log not in (True, False):
        raise TypeError(f"nsum: log must be True or False, got {log!r}")
    try:
        m = int(maxterms)
    except (TypeError, ValueError):
        m = None
    if m is None or m != maxterms or m < 0:
        raise ValueError(f"nsum: maxterms must be a non-negative integer, got {maxterms!r}")
    tolerances = {} if tolerances is None else dict(tolerances)
    unknown = set(tolerances) - {"atol", "rtol"}
    if unknown:
        raise ValueError(f"nsum: tolerances takes the keys 'atol' and 'rtol'; got "
                         f"{sorted(unknown)}")
    tol = {}
    for key in ("atol", "rtol"):
        v = tolerances.get(key)
        if v is None:
            tol[key] = None
            continue
        try:
            v = float(v)
        except (TypeError, ValueError):
            raise ValueError(f"nsum: {key} must be a real number, got {v!r}") from None
        if log and (v == math.inf or math.isnan(v)):
            raise ValueError(f"nsum: with log=True, {key} (the log of a tolerance) may "
                             f"not be +inf or nan; got {v}")
        if not log and (v < 0 or not math.isfinite(v)):
            raise ValueError(f"nsum: {key} must be non-negative and finite, got {v}")
        tol[key] = v
    return m, tol["atol"], tol["rtol"]


def nsum(f: Callable, a: Any, b: Any, *, step: Any = 1, args: Any = (), log: bool = False,
         maxterms: int = 2 ** 20, tolerances: dict | None = None) -> NsumResult:
    """Sum a convergent finite or infinite series, elementwise: sciax
    implementation of SciPy 1.15's :func:`scipy.integrate.nsum`.

    For finite ``a`` and ``b`` this is ``sum(f(a + k step) for k in range(n))``
    with ``n = floor((b - a) / step) + 1``; long and infinite sums are a partial
    sum plus an integral estimate of the rest.

    Parameters
    ----------
    f : callable
        ``f(x, *args)``, elementwise, smooth, positive and unimodal on the reals
        between ``a`` and ``b`` (it is also evaluated between the terms).  It is
        called with ``x`` of the broadcast shape plus one trailing axis, and
        ``args`` with a trailing axis of length 1.
    a, b : array_like
        Limits (``b`` may be ``inf``, ``a`` may be ``-inf``), broadcast with
        ``step`` and ``args``.
    step : array_like, optional
        Positive, finite step between terms (default 1).
    args : tuple, optional
        Extra arguments of ``f`` (arrays), broadcast with the limits;
        differentiable.
    log : bool, optional
        If True, ``f`` returns the log of the terms, ``atol`` and ``rtol`` are
        logs, and ``sum`` and ``error`` are the logs of the sum and the error.
    maxterms : int, optional
        The most terms added directly (default ``2**20``).
    tolerances : dict, optional
        ``atol`` (default 0) and ``rtol`` (default ``eps**0.5``) for the
        integral part and the end of the direct part.

    Returns
    -------
    NsumResult
        ``success``, ``status`` (0 converged; -1 invalid ``a``, ``b`` or
        ``step``; -2 the integral reached its level limit; -3 a non-finite
        value; -4 the last direct term exceeds the tolerance), ``sum``,
        ``error`` and ``nfev``, each of the broadcast shape.

    Notes
    -----
    SciPy's method (see its notes); the integrals are this module's
    :func:`tanhsinh`, so ``nfev`` on the integral path differs from SciPy's
    (``nfev`` counts the points where ``f`` was evaluated; SciPy's also counts
    one evaluation it makes for input validation).  With ``log=True`` the
    integrals are of ``exp(log f - log f(start))``, so the terms may underflow
    or overflow as a whole, but ``atol`` ends only the direct part, not the
    integrals.  A sum over all integers (``a = -inf``, ``b = inf``) evaluates
    ``f`` at ``x`` and ``-x``.  *Transformations*: ``jit``, ``vmap`` and
    derivatives with respect to ``args``, ``a`` and ``step`` (forward and
    reverse mode, first order in reverse mode; values that ``f`` closes over
    are differentiated in forward mode only).

    Examples
    --------
    Finite sums up to ``maxterms`` terms are added directly:

    >>> from sciax.integrate import nsum
    >>> print(np.asarray(nsum(lambda k: k, 1, snp.array([10.0, 100.0])).sum))
    [  55. 5050.]

    ``nsum(lambda k: k ** -2.0, 1, snp.inf)`` gives ``π²/6`` to about 2e-13
    (the sum of 8192 terms plus the integral from 8193 and half its first term).
    """
    maxterms, atol, rtol = _validate(f, log, maxterms, tolerances)
    plan = _host_plan(a, b, step, maxterms)
    args = tuple(snp.asarray(p) for p in (args if isinstance(args, tuple | list)
                                         else (args,)))
    dtype = snp.result_type(snp.asarray(a), snp.asarray(b), snp.asarray(step), 1.0)
    if not snp.issubdtype(dtype, snp.floating):
        raise TypeError(f"nsum: a, b and step must be real; got dtype {dtype}")
    eps = float(snp.finfo(dtype).eps)
    shape = snp.broadcast_shapes(snp.shape(a), snp.shape(b), snp.shape(step),
                                 *[p.shape for p in args])
    a, b, step = (snp.broadcast_to(snp.asarray(v, dtype), shape) for v in (a, b, step))
    args = tuple(snp.broadcast_to(p, shape) for p in args)
    if rtol is None:
        rtol = 0.5 * math.log(eps) if log else eps ** 0.5
    if atol is None:
        atol = -math.inf if log else 0.0
    zero = -snp.inf if log else 0.0
    g = _folded(f, log, None if plan is None else plan[1])

    # --- which path each element takes
    valid = (b >= a) & snp.isfinite(step) & (step > 0)
    nterms = snp.floor((b - a) / step)
    b = snp.where(snp.isfinite(nterms), a + nterms * step, b)
    direct = valid & (nterms + 1 <= maxterms)
    right = valid & ~direct & snp.isfinite(a)
    left = valid & ~direct & ~right & snp.isfinite(b)
    tail = valid & ~direct
    mode = snp.where(left, 1, snp.where(tail & ~right, 2, 0)).astype(snp.int32)
    # the problem on [lo, hi] after mirroring/folding; elements off the tail
    # integrate over [lo, lo] (a valid point) at no cost to their derivatives
    lo = snp.where(left, -b, snp.where(mode == 2, 0.0, a))
    hi = snp.where(left, -a, b)
    hi_t = snp.where(tail, hi, lo)

    # --- tail: a lower bound ∫_lo^hi, the end c of the direct part, ∫_c^hi.
    # Both integrals are one tanhsinh program run twice (a two-step loop):
    # compiling it is most of nsum's compile time.
    n_steps = [2.0 ** j for j in range(int(math.floor(math.log2(maxterms))) if maxterms
                                       else 0)] + [float(maxterms)]
    n_steps = np.asarray(n_steps)
    integ = _integral(g, log, atol, rtol)
    tail_args = tuple(p[..., None] for p in (mode, *args))
    z, zi = snp.zeros(shape, dtype), snp.zeros(shape, snp.int32)

    def end_of_direct(lb: Any) -> tuple:
        """n, f(lo + n step), whether no term met the tolerance, whether the
        lower bound failed."""
        tol = (snp.logaddexp(atol, rtol + lb.integral) if log
               else atol + rtol * lb.integral)
        skip = lb.status == -3
        ks = lo[..., None] + n_steps * step[..., None]
        fks = g(ks, *tail_args)
        fks1 = g(ks + step[..., None], *tail_args)
        bad = (fks > snp.where(skip, snp.nan, tol)[..., None]) | (fks1 > fks)
        n_bad = snp.sum(bad, axis=-1)
        nt = snp.minimum(n_bad, len(n_steps) - 1)
        fk = snp.take_along_axis(fks, nt[..., None], axis=-1)[..., 0]
        return snp.asarray(n_steps, dtype)[nt], fk, n_bad == len(n_steps), skip

    def two_integrals(_: Any) -> tuple:
        def body(i: Any, carry: tuple) -> tuple:
            lo_i, hi_i, lb, _ = carry
            r = integ(lo_i, hi_i, step, mode, args)
            # only the second integral's value is differentiated: the error
            # estimates' derivatives (0 * inf in reverse mode) are cut off
            r = r._replace(error=lax.stop_gradient(r.error))
            lb = sciax.tree_util.tree_map(lambda u, v: snp.where(i == 0, u, v),
                                          lax.stop_gradient(r), lb)
            n, _, _, skip = end_of_direct(lb)
            c = snp.where(tail, lo + n * step, lo)
            return c, snp.where(tail & ~skip, hi, c), lb, r
        r0 = _tanhsinh_like(z, zi)
        _, _, lb, r = lax.fori_loop(0, 2, body, (lo, hi_t, r0, r0))
        return (*end_of_direct(lb), lb.status, lb.nfev, r.integral, r.error, r.status,
                r.nfev)

    def no_integrals(_: Any) -> tuple:
        return (z, z + zero, zi.astype(bool), zi.astype(bool), zi, zi, z, z, zi, zi)

    if plan is None:
        parts = lax.cond(snp.any(tail), two_integrals, no_integrals, ())
    else:
        parts = (two_integrals if plan[0] else no_integrals)(())
    n, fk, short, skip, lb_status, lb_nfev, r_int, r_err, r_status, r_nfev = parts

    # --- the direct sum (all of a finite sum; the first n terms of a tail)
    count = snp.where(direct, nterms + 1, snp.where(tail, n, 0.0))
    most = maxterms if plan is None or plan[0] else plan[2]
    chunk = min(_CHUNK, 1 << max(int(most) - 1, 0).bit_length())
    s_dir = _series(g, log, chunk, lo, step, count, mode, args)
    e_dir = s_dir + math.log(eps) if log else eps * snp.abs(s_dir)
    left_inf = snp.isposinf(s_dir)

    # --- the tail's estimate: direct part + ∫_c^hi / step + (f(c) + f(hi)) / 2
    fb_fin = tail & ~skip & snp.isfinite(hi)
    fb = snp.where(fb_fin, g(snp.where(fb_fin, hi, lo), mode, *args), zero)
    r_int = snp.where(skip | left_inf, snp.nan, r_int)
    if log:
        log2, lstep = math.log(2.0), snp.log(step)
        s_tail = logsumexp(snp.stack([s_dir, r_int - lstep, fk - log2, fb - log2]), axis=0)
        pos = logsumexp(snp.stack([e_dir, r_err - lstep, fk - log2]), axis=0)
        e_tail = pos + snp.log1p(-snp.exp(fb - log2 - pos))
    else:
        s_tail = s_dir + r_int / step + fk / 2 + fb / 2
        e_tail = e_dir + r_err / step + fk / 2 - fb / 2
    t_status = snp.where(skip, lb_status, snp.where(left_inf, -3, r_status))
    t_status = snp.where((t_status == 0) & short, -4, t_status)

    # --- assemble
    empty = b < a
    total = snp.where(direct, s_dir, snp.where(tail, s_tail, snp.nan))
    total = snp.where(empty, zero, total)
    error = snp.where(direct, e_dir, snp.where(tail, e_tail, snp.nan))
    error = snp.where(empty, zero, error)
    status = snp.where(direct, snp.where(snp.isfinite(s_dir), 0, -3),
                       snp.where(tail, t_status, -1))
    status = snp.where(empty, 0, status).astype(snp.int32)
    per_point = snp.where(mode == 2, 2, 1)
    nfev = count + snp.where(tail, lb_nfev + 2 * len(n_steps) + r_nfev, 0)
    nfev = (nfev * per_point + fb_fin).astype(snp.int32)
    return NsumResult(status == 0, status, total, error, nfev)


def _tanhsinh_like(z: Any, zi: Any) -> TanhSinhResult:
    return TanhSinhResult(zi.astype(bool), zi, z, z, zi, zi)


def _integral(g: Callable, log: bool, atol: float, rtol: float) -> Callable:
    """``∫_lo^hi g`` by :func:`tanhsinh`; with ``log``, of ``exp(g - g(lo))``
    and returned as a log (``atol`` is then not used)."""
    def integ(lo: Any, hi: Any, step: Any, mode: Any, args: tuple) -> Any:
        if not log:
            return tanhsinh(g, lo, hi, args=(mode, *args), atol=atol, rtol=rtol,
                            minlevel=_MINLEVEL)
        ref = g(lo, mode, *args)
        ref = snp.where(snp.isfinite(ref), ref, 0.0)

        def h(x: Any, ref: Any, mode: Any, *args: Any) -> Any:
            return snp.exp(g(x, mode, *args) - ref)

        r = tanhsinh(h, lo, hi, args=(ref, mode, *args), rtol=math.exp(rtol),
                     minlevel=_MINLEVEL)
        with_ref = lambda v: snp.log(v) + ref  # noqa: E731
        return r._replace(integral=with_ref(r.integral), error=with_ref(r.error))
    return integ
