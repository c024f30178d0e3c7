"""Helpers shared by the special-function families (not public).

Argument promotion follows SciPy's ufuncs: integer and boolean arguments become
float64, float32 stays float32 when every floating argument is float32, and
Python scalars do not widen an array's dtype.  The numerical kernels here
(``log1pmx``, the Stirling remainder, ``sinpi``, a continued-fraction evaluator
with forward derivatives) are used by several families.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax


def promote(name: str, *args: Any, complex_ok: bool = False,
            broadcast: bool = True) -> list[Any]:
    """Arrays of one inexact dtype, broadcast together, as SciPy's ufuncs do
    (with ``broadcast=False``, 0-d arguments stay 0-d and the others are
    broadcast together)."""
    arrs, kinds = [], []
    for a in args:
        weak = isinstance(a, (int, float, complex)) and not isinstance(a, bool)
        a = snp.asarray(a)
        if a.dtype == np.dtype(bool) or not (
                snp.issubdtype(a.dtype, snp.number)):
            if a.dtype != np.dtype(bool):
                raise TypeError(f"{name}: arguments must be numeric, got dtype "
                                f"{a.dtype}")
        if snp.issubdtype(a.dtype, snp.complexfloating) and not complex_ok:
            raise TypeError(f"{name}: complex arguments are not supported")
        arrs.append(a)
        if not weak:
            kinds.append(np.dtype(a.dtype))
    floats = [d for d in kinds if d.kind in "fc"]
    if any(d.kind in "biu" for d in kinds) or not floats:
        floats.append(np.dtype(np.float64))
    dtype = np.result_type(*floats)
    if dtype == np.float16:
        dtype = np.dtype(np.float32)
    if any(isinstance(a, complex) for a in args) and dtype.kind == "f":
        if not complex_ok:
            raise TypeError(f"{name}: complex arguments are not supported")
        dtype = np.result_type(dtype, np.complex64)
    arrs = [snp.asarray(a, dtype=dtype) for a in arrs]
    if not broadcast:
        big = [i for i, a in enumerate(arrs) if snp.ndim(a) > 0]
        if 0 < len(big) < len(arrs):
            for i, a in zip(big, snp.broadcast_arrays(*(arrs[i] for i in big))):
                arrs[i] = a
            return arrs
    return list(snp.broadcast_arrays(*arrs)) if len(arrs) > 1 else arrs


def eps(x: Any) -> float:
    """Machine epsilon of ``x``'s (real) dtype."""
    return float(snp.finfo(x.dtype).eps)


def complex_dtype(x: Any) -> Any:
    """The complex dtype matching ``x``'s precision."""
    return np.complex64 if np.dtype(x.dtype) in (np.float32, np.complex64) else (
        np.complex128)


def real_dtype(x: Any) -> Any:
    return snp.finfo(x.dtype).dtype


def safe(cond: Any, x: Any, fill: Any) -> Any:
    """``x`` where ``cond``, else a harmless ``fill`` (the first half of the
    double-where trick: the unused branch never sees values that would give
    NaN derivatives)."""
    return snp.where(cond, x, snp.asarray(fill, dtype=x.dtype))


def sinpi(x: Any) -> Any:
    """``sin(pi x)`` exact at integers (the argument is reduced mod 2 first)."""
    r = x - 2.0 * snp.round(0.5 * x)           # exact; r in [-1, 1]
    r = snp.where(r > 0.5, 1.0 - r, r)
    r = snp.where(r < -0.5, -1.0 - r, r)        # r in [-1/2, 1/2]
    return snp.sin(math.pi * r)


def cospi(x: Any) -> Any:
    """``cos(pi x)``, exactly zero at half-integers."""
    return sinpi(snp.abs(x) + 0.5)


@sciax.custom_jvp
def log1p(x: Any) -> Any:
    """``log(1 + x)`` to a few ulp.  StableHLO's ``log1p`` on CPU is off by up
    to 3e-14 relative for ``-0.42 < x < -0.34``: XLA evaluates both
    ``log(1 + x)`` and a rational approximation and takes the latter for
    ``|x| < sqrt(2) - 1``, beyond the approximation's range ``(sqrt(1/2) - 1,
    sqrt(2) - 1)`` on the negative side (its error grows from 3e-16 at -0.35
    to 2.7e-14 at -0.42; session 14).  Below -0.29 this takes ``log(1 + x)``
    itself, whose one rounding of ``1 + x`` (at most 2^-54 there) is 2.6e-16
    of ``|log(1 + x)| > 0.28``: 3.2e-16 relative vs mpmath over [-1, 1].  It
    costs nothing: LLVM merges this ``log(1 + x)`` with the one inside XLA's
    ``log1p`` (``beta.logpdf`` on 10^6 points as fast as with a bare
    ``log1p``; session 10's ``2 log1p(sqrt(1 + x) - 1)`` on the band cost it
    10%).  The derivative is ``1/(1 + x)`` by a custom JVP, so the branch not
    taken adds no ``0 * inf`` at ``x = -1``."""
    return snp.where(x < -0.29, snp.log(1.0 + x), snp.log1p(x))


@log1p.defjvp
def _log1p_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return log1p(x), dx / (1.0 + x)


def log1pmx(t: Any, log1p_t: Any = None) -> Any:
    """``log(1 + t) - t`` accurate for small ``t`` (``t >= -1``).

    With ``u = t / (2 + t)``, ``log(1 + t) = 2 atanh(u)`` and ``t = 2u/(1 - u)``,
    so ``log(1 + t) - t = -2u^2/(1 - u) + 2 (u^3/3 + u^5/5 + ...)``: no
    cancellation, and ``|u| <= 0.43`` on the range where it is used.  Outside
    it, ``log1p_t`` (``log(1 + t)`` computed by the caller from unrounded
    quantities, when ``1 + t`` itself would round) is used if given.
    """
    near = (t > -0.6) & (t < 1.5)
    ts = snp.where(near, t, 0.0)
    u = ts / (2.0 + ts)
    u2 = u * u
    s = snp.zeros_like(u)
    for k in range(27, 0, -1):              # u^3 (1/3 + u^2/5 + ...), Horner
        s = s * u2 + 1.0 / (2 * k + 1)
    series = -2.0 * u2 / (1.0 - u) + 2.0 * u * u2 * s
    if log1p_t is None:
        log1p_t = log1p(t)
    return snp.where(near, series, log1p_t - t)


# --- double-double (a value as an unevaluated sum hi + lo, |lo| <= ulp(hi)/2) --
# Every step is an error-free transformation of rounded operations; none has
# a subexpression XLA's simplifier rewrites (no constant is added and then
# subtracted), and the products are exact with or without FMA contraction.

def two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    """``a + b = s + e`` exactly (Knuth's TwoSum, any magnitudes)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def fast_two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    """``a + b = s + e`` exactly where ``|a| >= |b|`` (or ``a = 0``)."""
    s = a + b
    return s, b - (s - a)


def _split(a: Any) -> tuple[Any, Any]:
    """``a = hi + lo`` with ``hi`` the top 26 bits of ``a`` (its low 27
    significand bits cleared) and ``lo`` exact: masking the bits, unlike
    Veltkamp's ``c - (c - a)``, cannot be changed by a fused multiply-add."""
    if a.dtype == np.float32:        # 24-bit significand: keep 12 bits
        bits = lax.bitcast_convert_type(a, np.uint32)
        hi = lax.bitcast_convert_type(bits & np.uint32(0xFFFFF000), np.float32)
    else:
        bits = lax.bitcast_convert_type(a, np.uint64)
        hi = lax.bitcast_convert_type(bits & np.uint64(0xFFFFFFFFF8000000),
                                      np.float64)
    return hi, a - hi


def two_prod(a: Any, b: Any) -> tuple[Any, Any]:
    """``a b = p + e`` (Dekker's product; ``e`` is exact up to the rounding
    of the last partial product, ~2^-106 of ``p``; float32: ~2^-48)."""
    p = a * b
    a1, a2 = _split(a)
    b1, b2 = _split(b)
    return p, ((a1 * b1 - p) + a1 * b2 + a2 * b1) + a2 * b2


def _finite_or(s: Any, hi: Any, lo: Any) -> tuple[Any, Any]:
    # where the rounded result s is inf or NaN, (s, 0) rather than the NaN
    # of inf - inf in the error terms
    fin = snp.isfinite(s)
    return snp.where(fin, hi, s), snp.where(fin, lo, 0.0)


def dd_add(ah: Any, al: Any, bh: Any, bl: Any) -> tuple[Any, Any]:
    s, e = two_sum(ah, bh)
    return _finite_or(s, *fast_two_sum(s, e + (al + bl)))


def dd_mul(ah: Any, al: Any, bh: Any, bl: Any) -> tuple[Any, Any]:
    p, e = two_prod(ah, bh)
    return _finite_or(p, *fast_two_sum(p, e + (ah * bl + al * bh)))


def dd_div(ah: Any, al: Any, bh: Any, bl: Any) -> tuple[Any, Any]:
    q = ah / bh
    p, e = two_prod(q, bh)
    return fast_two_sum(q, (((ah - p) - e) + al - q * bl) / bh)


# log 2 = LN2_HI + LN2_LO, LN2_HI with 32 trailing zero bits (k LN2_HI is
# exact for |k| < 2^20)
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_SQRT_HALF = 0.7071067811865476


def log_dd(rh: Any, rl: Any) -> tuple[Any, Any]:
    """``log(rh + rl)`` as a double-double, for a double-double ``r > 0``
    (``rh`` normal; elsewhere ``log(rh)``), with an error of ~1e-19 relative to ``max(|log r|, |r -
    1|)``: ``r = 2^k m`` with ``m`` in ``[1/sqrt 2, sqrt 2)``, ``log m = 2
    atanh(u)``, ``u = (m - 1)/(m + 1)`` (``|u| <= 0.172``) in double-double,
    the series' tail ``2u^3 (1/3 + u^2/5 + ...)`` (< 1% of ``2u``) in double,
    and ``log(1 + rl/rh) = rl/rh`` to first order."""
    ok = (rh >= np.finfo(rh.dtype).tiny) & (rh < np.inf)
    rh_ = safe(ok, rh, 1.0)
    m, k = snp.frexp(rh_)                         # m in [1/2, 1)
    low = m < _SQRT_HALF
    m = snp.where(low, 2.0 * m, m)
    k = (k - low.astype(k.dtype)).astype(rh_.dtype)
    f = m - 1.0                                   # exact (Sterbenz)
    dh, dl = two_sum(m, 1.0)
    uh, ul = dd_div(f, snp.zeros_like(f), dh, dl)
    u2 = uh * uh
    tail = 2.0 * uh * u2 * polyval(tuple(1.0 / (2 * j + 1) for j in range(12, 0, -1)),
                                   u2)
    sh, sl = two_sum(k * _LN2_HI, 2.0 * uh)
    hi, lo = fast_two_sum(sh, sl + (2.0 * ul + tail + k * _LN2_LO + rl / rh_))
    # (0, subnormal, inf, NaN: the double logarithm, low part 0)
    return snp.where(ok, hi, snp.log(rh)), snp.where(ok, lo, 0.0)


def xlogx_over_a(a: Any, x: Any) -> tuple[Any, Any]:
    """``a log(x/a) - (x - a) = a log1pmx(x/a - 1)`` as a double-double,
    for ``a, x > 0`` (the exponent of ``x^a e^-x / Gamma(a)``, up to ~700 in
    the deep tails, where rounding it in double cost 1e-13 of the value)."""
    z = snp.zeros_like(x)
    rh, rl = dd_div(x, z, a, z)
    lh, ll = log_dd(rh, rl)
    ph, pl = dd_mul(a, z, lh, ll)
    dh, dl = two_sum(x, -a)
    return dd_add(ph, pl, -dh, -dl)


# B_{2k} / (2k (2k - 1)): the Stirling series of log Gamma (DLMF 5.11.1)
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360,
             1 / 156, -3617 / 122400, 43867 / 244188)
LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def lgamma_corr(a: Any) -> Any:
    """``lgamma(a) - ((a - 1/2) log a - a + log(2 pi)/2)`` for ``a >= 10``
    (the Stirling series; the first omitted term is below 1e-18 there)."""
    z = 1.0 / a
    z2 = z * z
    s = snp.zeros_like(z)
    for c in reversed(_STIRLING):
        s = s * z2 + c
    return s * z


def lgamma_ratio_large(a: Any, b: Any) -> Any:
    """``lgamma(b) - lgamma(a + b)`` for ``b >= 10``, ``a + b >= 10``, without
    the cancellation of subtracting two large logarithms."""
    return (-(b - 0.5) * log1p(a / b) - a * snp.log(a + b) + a
            + lgamma_corr(b) - lgamma_corr(a + b))


def polyval(coefs: tuple, x: Any) -> Any:
    """``coefs[0] x^(n-1) + ... + coefs[-1]`` by Horner's rule."""
    s = snp.full_like(x, coefs[0])
    for c in coefs[1:]:
        s = s * x + c
    return s


def polyval_estrin(coefs: tuple, x: Any) -> Any:
    """``polyval(coefs, x)`` by Estrin's scheme: pairs ``c_k + c_{k+1} x``,
    then pairs of those with ``x^2``, ``x^4``, ...  About as many operations
    as Horner's rule, but a dependency chain of ``2 log2(n)`` rather than
    ``2 n``: XLA's CPU loops are scalar, so for long polynomials (dozens of
    terms) the chain, not the operation count, sets the time.  Use it where
    the terms do not cancel badly (positive terms, or a quickly decreasing
    series); the rounding is then a few ulp, as Horner's."""
    c = coefs[::-1]                               # c[k] multiplies x^k
    level = [c[k] + c[k + 1] * x if k + 1 < len(c) else snp.full_like(x, c[k])
             for k in range(0, len(c), 2)]
    p = x
    while len(level) > 1:
        p = p * p
        level = [level[k] + level[k + 1] * p if k + 1 < len(level) else level[k]
                 for k in range(0, len(level), 2)]
    return level[0]


def by_block(mask: Any, f_true: Callable, f_false: Callable, *ops: Any) -> tuple:
    """``where(mask, f_true(*ops), f_false(*ops))`` for tuple-valued
    elementwise branches, computing one branch only where ``mask`` is all
    true or all false (``lax.switch`` on the whole array: under
    :func:`chunked`, on each block).  Each branch must be safe on every
    element (fill the other branch's elements as :func:`safe` does).  Under a
    batching ``vmap`` both branches run, as ``where`` would."""
    def mixed(m, *o):
        return tuple(snp.where(m, u, v) for u, v in zip(f_true(*o), f_false(*o)))

    idx = (snp.any(mask).astype(np.int32) + snp.all(mask).astype(np.int32))
    return tuple(lax.switch(idx, (lambda m, *o: tuple(f_false(*o)), mixed,
                                  lambda m, *o: tuple(f_true(*o))), mask, *ops))


def if_any(mask: Any, fn: Callable, fill: tuple, *ops: Any) -> tuple:
    """``fn(*ops)`` (a tuple of arrays shaped like ``mask``) where any element
    of ``mask`` is set, else ``fill`` (a tuple of scalars, broadcast): skips
    the work of a region that no element of the array (the block, under
    :func:`chunked`) falls in."""
    def skip(*o):
        return tuple(snp.full(snp.shape(mask), f, dtype=o[0].dtype) for f in fill)

    return tuple(lax.cond(snp.any(mask), lambda *o: tuple(fn(*o)), skip, *ops))


def if_any_grouped(mask: Any, fn: Callable, fill: tuple, *ops: Any,
                   group: int = 64) -> tuple:
    """:func:`if_any` for a region that is rare but may touch every block:
    ``fn`` runs on the elements of ``mask`` only, gathered ``group`` at a
    time (the last group padded with copies of the first element of its
    group), and its results are scattered back; elsewhere ``fill``.  ``ops``
    are arrays shaped like ``mask``; ``fn`` is elementwise and sees only
    elements of ``mask``.  Arrays of at most ``2 group`` elements run
    :func:`if_any` as a whole."""
    shape = snp.shape(mask)
    size = int(np.prod(shape, dtype=np.int64))
    if size <= 2 * group:
        return if_any(mask, fn, fill, *ops)
    flat = tuple(snp.reshape(v, (size,)) for v in ops)
    left0 = snp.reshape(mask, (size,))
    dt = flat[0].dtype
    out0 = tuple(snp.full((size,), f, dtype=dt) for f in fill)

    def cond(c):
        return snp.any(c[1])

    def body(c):
        out, left = c
        # the first ``group`` elements left (a prefix sum numbers them, as in
        # converge's straggler groups), padded with the first
        pos = snp.cumsum(left.astype(np.int32)) - 1
        slot = snp.where(left & (pos < group), pos, group)
        idx = snp.full((group + 1,), snp.argmax(left).astype(np.int32))
        idx = idx.at[slot].set(snp.arange(size, dtype=np.int32))[:group]
        res = fn(*(v[idx] for v in flat))
        out = tuple(o.at[idx].set(r) for o, r in zip(out, res))
        return out, left.at[idx].set(False)

    out, _ = lax.while_loop(cond, body, (out0, left0))
    return tuple(snp.reshape(o, shape) for o in out)


def converge(step: Callable, init: tuple, params: tuple = (), *,
             max_iter: int, active: Any = None, first: int | None = None,
             group: int = 64, unroll: int = 1) -> tuple:
    """Run the elementwise iteration ``step(n, state, params) -> (state,
    converged)`` until every element has converged or after ``max_iter``
    steps; an element's state is frozen from the step it converges.  ``n`` is
    the traced iteration number (int32, from 1), ``params`` a tuple of
    per-element arrays the step reads (shaped like the state), ``active`` a
    mask of the elements to iterate (the others start converged and keep
    ``init``).  Returns the final state.

    A whole-array loop runs until its slowest element has converged: where a
    few elements need many more steps than the rest (the bulk of a block
    converges in ``first`` steps), that is mostly wasted.  With ``first``,
    the whole-array loop stops after ``first`` steps and the elements left
    are finished ``group`` at a time: gathered into a small array, iterated
    to convergence, and scattered back.
    """
    shape = snp.shape(init[0])
    size = int(np.prod(shape, dtype=np.int64))
    flat = first is not None and size > 2 * group
    if flat:
        init = tuple(snp.reshape(v, (size,)) for v in init)
        params = tuple(snp.reshape(v, (size,)) for v in params)
        if active is not None:
            active = snp.reshape(active, (size,))
    done0 = (snp.zeros(snp.shape(init[0]), dtype=bool) if active is None
             else ~active)
    lim = min(first, max_iter) if flat else max_iter

    def run(st, prm, done, n0, limit):
        def cond(c):
            return (c[0] <= limit) & ~snp.all(c[2])

        def body(c):
            n, s, d = c
            if unroll == 1:
                new, conv = step(n, s, prm)
                return n + 1, tuple(snp.where(d, o, v) for o, v in zip(s, new)), d | conv
            # Several steps a trip freeze an element at the end of the trip in
            # which it converged (it may take up to unroll - 1 more steps;
            # every user's extra terms are below its tolerance).  Freezing it
            # after the very step, through the mask ``d | conv`` inside the
            # trip, returned mixed states (one component a step behind the
            # others): XLA recomputes ``conv`` in each fusion that reads it,
            # and with different floating-point contraction an element at
            # the threshold tested converged in one fusion and not in another.
            new, conv = s, d
            for j in range(unroll):
                new, cj = step(n + j, new, prm)
                conv = conv | cj
            return n + unroll, tuple(snp.where(d, o, v) for o, v in zip(s, new)), conv

        return lax.while_loop(cond, body, (n0, st, done))

    n1, st, done = run(init, params, done0, snp.asarray(1, dtype=np.int32), lim)
    if not flat:
        return st

    # the stragglers, ``group`` at a time (resuming at step n1; elements that
    # reach max_iter unconverged are released as they are)
    def cond2(c):
        return ~snp.all(c[1])

    def body2(c):
        s, d = c
        live = ~d
        # the first ``group`` live elements (a prefix sum numbers them; a
        # sort, as nonzero uses, costs ten times more), padded with the first
        pos = snp.cumsum(live.astype(np.int32)) - 1
        slot = snp.where(live & (pos < group), pos, group)
        idx = snp.full((group + 1,), snp.argmax(live).astype(np.int32))
        idx = idx.at[slot].set(snp.arange(size, dtype=np.int32))[:group]
        sub = tuple(v[idx] for v in s)
        prm = tuple(v[idx] for v in params)
        _, sub, _ = run(sub, prm, d[idx], n1, max_iter)
        s = tuple(v.at[idx].set(w) for v, w in zip(s, sub))
        return s, d.at[idx].set(True)

    st, _ = lax.while_loop(cond2, body2, (st, done))
    return tuple(snp.reshape(v, shape) for v in st)


def continued_fraction(terms: Callable, shape_like: Any, nderiv: int,
                       params: tuple = (), *, max_iter: int, tol: float,
                       active: Any = None, first: int | None = None,
                       group: int = 64, unroll: int = 1) -> tuple[Any, tuple]:
    """Evaluate ``f = a1/(b1 + a2/(b2 + a3/(b3 + ...)))`` and its derivatives
    with respect to ``nderiv`` parameters by the forward three-term recurrence
    (Wallis), rescaled each step so nothing overflows.

    ``terms(n, params)`` (``n`` a traced iteration number starting at 1,
    ``params`` the per-element arrays given) returns ``(a_n, b_n, da_n,
    db_n)`` with ``da_n``/``db_n`` tuples of length ``nderiv``.  Stops when
    every element's value and derivatives change by less than ``tol``
    relative, or after ``max_iter`` terms; ``active``, ``first`` and
    ``group`` as in :func:`converge`.
    """
    z = snp.zeros_like(shape_like)
    o = snp.ones_like(shape_like)
    if nderiv == 0:
        # value only: with B_{n-1} rescaled to 1 the state is (A_{n-1} = f,
        # A_{n-2}, B_{n-2}), and the previous value is A_{n-1} itself
        def step0(n, c, prm):
            f_old, A2, B2 = c
            an, bn, _, _ = terms(n.astype(shape_like.dtype), prm)
            s = 1.0 / (bn + an * B2)
            f = (bn * f_old + an * A2) * s
            small = snp.abs(f - f_old) <= tol * snp.abs(f)
            return (f, f_old * s, s), small | ~snp.isfinite(f)

        out = converge(step0, (z, o, z), params, max_iter=max_iter,
                       active=active, first=first, group=group, unroll=unroll)
        return out[0], ()
    dz = tuple(z for _ in range(nderiv))
    # (A_{n-1}, A_{n-2}, B_{n-1}, B_{n-2}) with A_0 = 0, A_{-1} = 1, B_0 = 1, B_{-1} = 0
    init = (z, o, o, z) + dz * 4 + (z,) + dz

    def step(n, c, prm):
        A1, A2, B1, B2 = c[:4]
        dA1, dA2, dB1, dB2 = (c[4 + i * nderiv:4 + (i + 1) * nderiv]
                              for i in range(4))
        f_old = c[4 + 4 * nderiv]
        df_old = c[5 + 4 * nderiv:]
        an, bn, dan, dbn = terms(n.astype(shape_like.dtype), prm)
        A = bn * A1 + an * A2
        B = bn * B1 + an * B2
        dA = tuple(dbn[i] * A1 + bn * dA1[i] + dan[i] * A2 + an * dA2[i]
                   for i in range(nderiv))
        dB = tuple(dbn[i] * B1 + bn * dB1[i] + dan[i] * B2 + an * dB2[i]
                   for i in range(nderiv))
        # rescale to B_n = 1 (one division a step): then f = A_n; where B_n
        # is 0, f comes out infinite or NaN and the element stops
        s = 1.0 / B
        A, A1, B, B1 = A * s, A1 * s, B * s, B1 * s
        dA = tuple(d * s for d in dA)
        dB = tuple(d * s for d in dB)
        dA1 = tuple(d * s for d in dA1)
        dB1 = tuple(d * s for d in dB1)
        f = A
        df = tuple(dA[i] - f * dB[i] for i in range(nderiv))
        small = snp.abs(f - f_old) <= tol * snp.abs(f)
        # the derivatives carry rounding noise of a few ulps of the
        # recurrences' terms, which can be far larger than a derivative that
        # cancels to near zero: test them against |df| + |f| (callers use
        # them as ``c f + df`` with ``c`` of order one), or the loop may never
        # stop (it ran to max_iter for betainc with b near 1)
        for i in range(nderiv):
            small = small & (snp.abs(df[i] - df_old[i])
                             <= 8 * tol * (snp.abs(df[i]) + snp.abs(f)))
        # converged elements keep their value (converge freezes them): later
        # terms, run for the slower elements, would only add rounding
        new = (A, A1, B, B1) + dA + dA1 + dB + dB1 + (f,) + df
        return new, small | ~snp.isfinite(f)

    out = converge(step, init, params, max_iter=max_iter, active=active,
                   first=first, group=group, unroll=unroll)
    return out[4 + 4 * nderiv], tuple(out[5 + 4 * nderiv:])


def series(step: Callable, init: tuple, params: tuple = (), *, max_iter: int,
           active: Any = None, first: int | None = None,
           group: int = 64, unroll: int = 1) -> tuple:
    """Sum a series with a state machine: ``step(n, state, params)`` returns
    ``(state, converged)`` where ``converged`` is an elementwise bool; see
    :func:`converge`.  Returns the final state."""
    return converge(step, init, params, max_iter=max_iter, active=active,
                    first=first, group=group, unroll=unroll)


# zeta(k) for k = 2..27 (mpmath), the Taylor coefficients of lgamma(1 + a)
_ZETA = (1.6449340668482264, 1.2020569031595942, 1.0823232337111381,
         1.03692775514337, 1.0173430619844492, 1.008349277381923,
         1.0040773561979444, 1.0020083928260821, 1.000994575127818,
         1.0004941886041194, 1.000246086553308, 1.0001227133475785,
         1.0000612481350588, 1.000030588236307, 1.0000152822594086,
         1.0000076371976379, 1.000003817293265, 1.0000019082127165,
         1.0000009539620338, 1.0000004769329869, 1.0000002384505027,
         1.000000119219926, 1.000000059608189, 1.0000000298035034)
_EULER = 0.5772156649015329


# lgamma(2 + u) / u on -1 <= u <= 1/2 (degree 23, interpolated at Chebyshev
# nodes in 60-digit arithmetic; within 4.1e-16 of mpmath relative to max(|.|,
# 0.2) in double Horner: it has a zero at u = -1, where lgam1p's -log1p(a)
# dominates); its nearest singularity is the pole of Gamma at u = -2
LG2W = (0.42278433509846713, 0.3224670334241129, -0.06735230105319644,
        0.020580808427842195, -0.007385551028809959, 0.0028905103274175035,
        -0.0011927539086018994, 0.0005096696133565703, -0.0002231547569126016,
        9.945622989742501e-05, -4.492721111094682e-05, 2.0517845730718764e-05,
        -9.424238376296578e-06, 4.326254953433956e-06, -2.1493249343498703e-06,
        1.0479757961225149e-06, -3.516847058532047e-08, 3.2812277393165133e-07,
        -8.265027035413716e-07, -7.490487715378635e-07, 1.8931080161331232e-07,
        9.225077896765621e-07, 6.310275295889384e-07, 1.6056278274881798e-07)
def lgam1p(a: Any) -> Any:
    """``lgamma(1 + a)`` for ``a > -1``, accurate near ``a = 0`` (and at the
    zero ``a = 1``) without rounding ``1 + a``.

    For ``a < 1/2``, ``lgamma(2 + a) - log1p(a)`` with ``lgamma(2 + u) = u
    p(u)`` on ``-1 <= u <= 1/2`` (near 0: ``-0.58 a``, no cancellation).
    Above, ``1 + a`` moves down by ``m = round(1 + a) - 2`` (at most 8 exact
    factors ``a + 1 - i``) onto ``2 + u``, ``u = a - (m + 1)`` exact, the
    product entering through the same ``log1p``; Stirling's series for ``1 +
    a >= 10``.  Within 5e-16 of mpmath on ``(-1, 100)``; one logarithm and one
    division per element, against XLA's ``lgamma`` with 9 divisions, a sine
    and three logarithms (and the Taylor series of 24 terms that stood in
    near 0): 13 ms against 38 on 10^6 points."""
    y = 1.0 + a
    big = y >= 10.0
    low = a < 0.5
    m = snp.floor(y + 0.5) - 2.0
    u = snp.where(low, a, a - (m + 1.0))
    prod = snp.ones_like(a)
    for i in range(1, 9):
        prod = prod * snp.where(m >= i, a + (1.0 - i), 1.0)
    # log y (a < 1/2, or big) or the log of the product
    lg = log1p(snp.where(big | low, a, prod - 1.0))
    small = u * polyval(LG2W[::-1], u) + snp.where(low, -lg, lg)
    yb = safe(big, y, 10.0)
    large = (yb - 0.5) * (lg - 1.0) + (LOG_SQRT_2PI - 0.5) + lgamma_corr(yb)
    return snp.where(big, large, small)


def lgam1p_series(s: Any, nterms: int = len(_ZETA)) -> Any:
    """The Taylor series of ``lgamma(1 + s)`` alone (for callers that have
    already confined ``s`` to the window of :func:`lgam1p`)."""
    acc = snp.zeros_like(s)
    for k in range(nterms + 1, 1, -1):
        acc = acc * s + (-1) ** k * _ZETA[k - 2] / k
    return s * (-_EULER + s * acc)


# Elements per block for :func:`chunked`: a block's loop state (a dozen arrays)
# stays in the CPU's L2 cache, and a block's loop stops at its own slowest
# element rather than the whole batch's.
CHUNK = 1024


def chunked(fn: Callable, *args: Any, chunk: int = CHUNK) -> tuple:
    """Apply the elementwise ``fn`` (arrays of one shape in, a tuple of arrays
    of that shape out) block by block with ``lax.map``.

    Iterative kernels (``while_loop`` until every element has converged) are
    memory-bound on big batches: each iteration streams the whole loop state
    through memory, and every element waits for the slowest.  Blocks of
    ``chunk`` elements keep the state in cache and let each block stop early.
    Inputs of at most ``chunk`` elements are passed through unchanged.  The
    last block is padded with copies of the last element.  0-d arguments
    (a distribution's shape parameter, say) are passed to every block as they
    are, so ``fn`` can compute what depends on them alone once; ``fn`` must
    then broadcast them itself.
    """
    arrays = [v for v in args if snp.ndim(v) > 0]
    if not arrays:
        return tuple(fn(*args))
    shape = arrays[0].shape
    size = int(np.prod(shape, dtype=np.int64))
    if size <= chunk:
        return tuple(fn(*args))
    nblk = -(-size // chunk)
    pad = nblk * chunk - size
    blocks = []
    for v in arrays:
        v = snp.reshape(v, (size,))
        if pad:
            v = snp.concatenate([v, snp.broadcast_to(v[-1:], (pad,))])
        blocks.append(snp.reshape(v, (nblk, chunk)))

    def body(blk):
        it = iter(blk)
        return tuple(fn(*(next(it) if snp.ndim(v) > 0 else v for v in args)))

    out = lax.map(body, tuple(blocks))
    return tuple(snp.reshape(snp.reshape(o, (nblk * chunk,))[:size], shape)
                 for o in out)
