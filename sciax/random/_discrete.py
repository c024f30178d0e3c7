"""Samplers of discrete distributions (integers, Bernoulli trials, counts) and
random reorderings: randint, bernoulli, rademacher, geometric, categorical,
choice, permutation, shuffle, poisson, binomial.

Conventions and the rejection scheme are those of :mod:`._continuous`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.random._continuous import (_canonical, _check_shape, _float_dtype,
                                      _open_uniform, _param, _rejection, gumbel,
                                      uniform)
from sciax.random._prng import (canonical_shape, check_key, fold_in, random_bits,
                                rolled_hash, split)

__all__ = ["bernoulli", "randint", "permutation", "shuffle", "choice", "categorical",
           "rademacher", "geometric", "poisson", "binomial"]


def _int_dtype(name: str, dtype: Any) -> np.dtype:
    dt = np.dtype(int if dtype is None else dtype)
    if dt.kind not in "iu":
        raise TypeError(f"{name}: dtype must be an integer dtype, got {dt}")
    return _canonical(dt)


def bernoulli(key: Any, p: Any = 0.5, shape: Sequence[int] | None = None) -> Any:
    """Booleans that are True with probability ``p``.

    Examples
    --------
    >>> sciax.random.bernoulli(sciax.random.key(0), 0.3, (5,)).dtype
    dtype('bool')
    """
    key = check_key("bernoulli", key)
    p = snp.asarray(p)
    dtype = p.dtype if p.dtype.kind == "f" else _float_dtype("bernoulli", None)
    shape = _check_shape("bernoulli", shape, p)
    return uniform(key, shape, dtype) < p


# --- integers ---------------------------------------------------------------------------

def randint(key: Any, shape: Sequence[int], minval: Any, maxval: Any,
            dtype: Any = None) -> Any:
    """Uniform integers in ``[minval, maxval)`` (``minval`` where ``maxval <= minval``).

    ``maxval`` may exceed the dtype's range by one (``randint(k, s, 0, 256,
    np.uint8)`` covers every uint8).  Two random words per value (modulo the
    span) keep the bias below ``span / 2**32`` (``span / 2**64`` for 32-bit
    dtypes with ``enable_x64``).

    Examples
    --------
    >>> r = sciax.random.randint(sciax.random.key(0), (1000,), 3, 7)
    >>> sorted(set(np.asarray(r).tolist()))
    [3, 4, 5, 6]
    """
    key = check_key("randint", key)
    dtype = _int_dtype("randint", dtype)
    shape = _check_shape("randint", shape, minval, maxval)
    wide = np.dtype(np.int64 if sciax.config.enable_x64 else np.int32)
    info = np.iinfo(dtype)
    lo_lim, hi_lim = max(info.min, np.iinfo(wide).min), min(info.max, np.iinfo(wide).max)
    minval = snp.asarray(minval)
    maxval = snp.asarray(maxval)
    for v in (minval, maxval):
        if v.dtype.kind not in "iub":
            raise TypeError(f"randint: minval and maxval must be integers, got {v.dtype}")
    lo = snp.clip(minval.astype(wide), lo_lim, hi_lim)
    hi_max = hi_lim + 1 if hi_lim < np.iinfo(wide).max else hi_lim
    hi = snp.clip(maxval.astype(wide), lo_lim, hi_max)
    nbits = max(32, info.bits)
    uint = np.dtype(f"uint{nbits}")
    span = lax.convert_element_type(snp.broadcast_to(hi - lo, shape), uint)
    span = snp.where(snp.broadcast_to(hi <= lo, shape), snp.ones((), uint), span)
    k1, k2 = split(key)
    if nbits == 32 and sciax.config.enable_x64:
        # one exact 64-bit remainder
        word = lax.bitwise_or(lax.shift_left(random_bits(k1, 32, shape).astype(np.uint64),
                                             32), random_bits(k2, 32, shape).astype(np.uint64))
        off = lax.rem(word, span.astype(np.uint64))
    else:
        # (high * 2**nbits + low) mod span, from the pieces mod span
        high, low = random_bits(k1, nbits, shape), random_bits(k2, nbits, shape)
        mult = lax.rem(snp.full(shape, 2 ** (nbits // 2), uint), span)
        mult = lax.rem(lax.mul(mult, mult), span)
        off = lax.rem(lax.add(lax.mul(lax.rem(high, span), mult), lax.rem(low, span)),
                      span)
    return (lo + off.astype(wide)).astype(dtype)


def _shuffle_rounds(n: int) -> int:
    # enough rounds of 32-bit sort keys that ties are unlikely (as JAX)
    return int(np.ceil(3 * np.log(max(1, n)) / np.log(np.iinfo(np.uint32).max)))


def _sort_by_random_keys(key: Any, x: Any, axis: int, key_shape: tuple[int, ...],
                         rounds: int) -> Any:
    shape = tuple(x.shape)
    for _ in range(rounds):
        key, sub = split(key)
        k = random_bits(sub, 32, key_shape)
        if key_shape != shape:
            k = lax.broadcast_in_dim(k, shape, (axis,))
        x = lax.sort_key_val(k, x, axis)[1]
    return x


def permutation(key: Any, x: Any, axis: int = 0, independent: bool = False) -> Any:
    """A random permutation of ``range(x)`` (int ``x``) or of ``x`` along ``axis``.

    With ``independent=True`` every 1-d slice along ``axis`` is shuffled
    independently; otherwise the same permutation reorders every slice.

    Examples
    --------
    >>> p = sciax.random.permutation(sciax.random.key(0), 5)
    >>> sorted(np.asarray(p).tolist())
    [0, 1, 2, 3, 4]
    """
    key = check_key("permutation", key)
    if isinstance(x, int | np.integer) and not isinstance(x, bool):
        n = operator.index(x)
        if n < 0:
            raise ValueError(f"permutation: x must be >= 0, got {n}")
        r = snp.arange(n)
        return _sort_by_random_keys(key, r, 0, (n,), _shuffle_rounds(n))
    x = snp.asarray(x)
    if x.ndim == 0:
        raise TypeError("permutation: x must be an integer or an array of rank >= 1, "
                        "got a 0-d array")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"permutation: axis {axis} is out of bounds for an array of "
                         f"rank {x.ndim}")
    axis %= x.ndim
    if independent:
        return _sort_by_random_keys(key, x, axis, tuple(x.shape),
                                    _shuffle_rounds(math.prod(x.shape)))
    n = x.shape[axis]
    return _sort_by_random_keys(key, x, axis, (n,), _shuffle_rounds(n))


def shuffle(key: Any, x: Any, axis: int = 0) -> Any:
    """Shuffle each 1-d slice of ``x`` along ``axis`` independently (as JAX's
    deprecated ``shuffle``): ``permutation(key, x, axis, independent=True)``."""
    return permutation(key, x, axis, independent=True)


def _take(a: Any, idx: Any, axis: int) -> Any:
    """``numpy.take(a, idx, axis)`` with in-range indices, as one gather."""
    a = snp.moveaxis(a, axis, 0)
    rest = tuple(a.shape[1:])
    ishape = tuple(idx.shape)
    flat = snp.reshape(idx, (math.prod(ishape), 1)).astype(np.int32)
    dnums = lax.GatherDimensionNumbers(offset_dims=tuple(range(1, 1 + len(rest))),
                                       collapsed_slice_dims=(0,), start_index_map=(0,))
    out = lax.gather(a, flat, dnums, (1, *rest), mode="clip")
    out = snp.reshape(out, ishape + rest)
    return snp.moveaxis(out, tuple(range(len(ishape))),
                        tuple(range(axis, axis + len(ishape))))


def choice(key: Any, a: Any, shape: Sequence[int] = (), replace: bool = True,
           p: Any = None, axis: int = 0) -> Any:
    """Random draws from ``range(a)`` (int ``a``) or from ``a`` along ``axis``.

    With ``p`` the draws follow those probabilities (normalised); without
    replacement ``p`` is honoured by the Gumbel-top-k trick.

    Examples
    --------
    >>> c = sciax.random.choice(sciax.random.key(0), 5, (3,), replace=False)
    >>> len(set(np.asarray(c).tolist()))
    3
    """
    key = check_key("choice", key)
    shape = canonical_shape("choice", shape)
    if isinstance(a, int | np.integer) and not isinstance(a, bool):
        n, arr = operator.index(a), None
        if n <= 0 and math.prod(shape):
            raise ValueError(f"choice: a must be positive when drawing samples, got {n}")
    else:
        arr = snp.asarray(a)
        if arr.ndim == 0:
            raise ValueError("choice: a must be an integer or an array of rank >= 1")
        if not -arr.ndim <= axis < arr.ndim:
            raise ValueError(f"choice: axis {axis} is out of bounds for an array of "
                             f"rank {arr.ndim}")
        axis %= arr.ndim
        n = arr.shape[axis]
    size = math.prod(shape)
    if p is not None:
        p = snp.asarray(p)
        if p.shape != (n,):
            raise ValueError(f"choice: p must have shape ({n},) to match a, got "
                             f"{tuple(p.shape)}")
        if p.dtype.kind != "f":
            p = p.astype(_float_dtype("choice", None))
    if replace:
        if p is None:
            idx = randint(key, shape, 0, n)
        else:
            cdf = snp.cumsum(p)
            r = cdf[-1] * (1 - uniform(key, shape, p.dtype))
            # searchsorted(cdf, r, 'left'): how many cumulative sums fall below r
            idx = snp.sum((cdf < r[..., None]).astype(np.int32), axis=-1)
            idx = snp.minimum(idx, n - 1)
    else:
        if size > n:
            raise ValueError(f"choice: cannot take {size} samples without replacement "
                             f"from a population of {n}")
        if p is None:
            idx = permutation(key, n)[:size] if size else snp.zeros((0,), int)
        else:
            g = gumbel(key, (n,), p.dtype) + snp.log(p)
            idx = lax.top_k(g, size)[1] if size else snp.zeros((0,), int)
        idx = snp.reshape(idx, shape)
    if arr is None:
        return idx
    return _take(arr, idx, axis)


def categorical(key: Any, logits: Any, axis: int = -1, shape: Sequence[int] | None = None,
                replace: bool = True) -> Any:
    """Category indices drawn with probabilities ``softmax(logits, axis)``.

    ``shape`` defaults to the batch shape (``logits`` without ``axis``) and
    must end with it.  Gumbel-max sampling; ``replace=False`` draws distinct
    categories per batch element (Gumbel top-k), at most as many as there are
    categories.

    Examples
    --------
    >>> logits = snp.log(snp.asarray([0.2, 0.8]))
    >>> c = sciax.random.categorical(sciax.random.key(0), logits, shape=(4000,))
    >>> 0.75 < float(c.mean()) < 0.85
    True
    """
    key = check_key("categorical", key)
    logits = snp.asarray(logits)
    if logits.dtype.kind != "f":
        logits = logits.astype(_float_dtype("categorical", None))
    if not -logits.ndim <= axis < logits.ndim:
        raise ValueError(f"categorical: axis {axis} is out of bounds for logits of "
                         f"shape {tuple(logits.shape)}")
    logits = snp.moveaxis(logits, axis, -1)
    batch, k = tuple(logits.shape[:-1]), logits.shape[-1]
    shape = batch if shape is None else canonical_shape("categorical", shape)
    if shape[len(shape) - len(batch):] != batch and batch:
        raise ValueError(f"categorical: shape {shape} must end with the logits' batch "
                         f"shape {batch}")
    if replace:
        g = gumbel(key, shape + (k,), logits.dtype)
        return snp.argmax(g + logits, axis=-1)
    lead = shape[:len(shape) - len(batch)]
    m = math.prod(lead)
    if m > k:
        raise ValueError(f"categorical: cannot draw {m} distinct categories out of {k}")
    g = gumbel(key, batch + (k,), logits.dtype) + logits
    idx = lax.top_k(g, m)[1] if m else snp.zeros(batch + (0,), int)
    idx = snp.moveaxis(idx, -1, 0)
    return snp.reshape(idx, shape)


def rademacher(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Random signs, -1 or +1 with equal probability (integer dtype).

    Examples
    --------
    >>> sorted(set(np.asarray(sciax.random.rademacher(sciax.random.key(0), (50,))).tolist()))
    [-1, 1]
    """
    dtype = _int_dtype("rademacher", dtype)
    b = bernoulli(key, 0.5, canonical_shape("rademacher", shape))
    return (2 * b.astype(dtype) - 1).astype(dtype)


def geometric(key: Any, p: Any, shape: Sequence[int] | None = None, dtype: Any = None
              ) -> Any:
    """Number of Bernoulli(p) trials up to the first success (support 1, 2, ...).

    Examples
    --------
    >>> bool((sciax.random.geometric(sciax.random.key(0), 0.3, (10,)) >= 1).all())
    True
    """
    idt = _int_dtype("geometric", dtype)
    fdt = _float_dtype("geometric", None)
    shape = _check_shape("geometric", shape, p)
    u, _ = _open_uniform("geometric", key, shape, fdt)
    g = snp.floor(snp.log(u) / snp.log1p(-_param(p, fdt, shape))) + 1
    return g.astype(idt)


def _two_uniforms(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> tuple[Any, Any]:
    # one hash for both: halves of a (2, *shape) draw
    u = uniform(key, (2,) + shape, dtype)
    return u[0], u[1]


# --- poisson and binomial -------------------------------------------------------------

_KNUTH_MAX_RATE = 10.0


def _poisson_knuth(key: Any, lam: Any) -> Any:
    # count uniforms until their product drops below exp(-lam)
    shape, dtype = tuple(lam.shape), np.dtype(lam.dtype)

    def cond(state):
        return lax.bitwise_not(snp.all(state[1]))

    def body(state):
        i, done, k, logp = state
        with rolled_hash():
            logp = logp + snp.log(uniform(fold_in(key, i), shape, dtype))
        stop = logp < -lam
        k = snp.where(done | stop, k, k + 1)
        return i + 1, done | stop, k, logp

    init = (snp.asarray(np.uint32(0)), snp.zeros(shape, bool), snp.zeros(shape, dtype),
            snp.zeros(shape, dtype))
    return lax.while_loop(cond, body, init)[2]


def _poisson_ptrs(key: Any, lam: Any) -> Any:
    # Hormann (1993), "The transformed rejection method for generating Poisson
    # random variables", algorithm PTRS
    shape, dtype = tuple(lam.shape), np.dtype(lam.dtype)
    slam, loglam = snp.sqrt(lam), snp.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)

    def propose(k):
        u, v = _two_uniforms(k, shape, dtype)
        u = u - 0.5
        us = 0.5 - snp.abs(u)
        kk = snp.floor((2 * a / us + b) * u + lam + 0.43)
        fast = (us >= 0.07) & (v <= v_r)
        ks = snp.maximum(kk, 0)
        lhs = snp.log(v) + snp.log(inv_alpha) - snp.log(a / (us * us) + b)
        slow = ((kk >= 0) & ~((us < 0.013) & (v > us))
                & (lhs <= -lam + ks * loglam - lax.lgamma(ks + 1)))
        return kk, fast | slow

    return _rejection(key, shape, dtype, propose)


def poisson(key: Any, lam: Any, shape: Sequence[int] | None = None, dtype: Any = None
            ) -> Any:
    """Poisson(lam) counts: Knuth's product of uniforms for ``lam < 10``, Hormann's
    transformed rejection (PTRS) above; -1 where ``lam`` is negative or NaN.

    Examples
    --------
    >>> x = sciax.random.poisson(sciax.random.key(0), 3.0, (4000,))
    >>> abs(float(x.mean()) - 3.0) < 0.15
    True
    """
    key = check_key("poisson", key)
    idt = _int_dtype("poisson", dtype)
    shape = _check_shape("poisson", shape, lam)
    fdt = _float_dtype("poisson", None)
    lam = lax.stop_gradient(_param(lam, fdt, shape))
    return _poisson(key, lam).astype(idt)


@sciax.jit     # one compiled program per shape, eagerly too
def _poisson(key: Any, lam: Any) -> Any:
    small = lam < _KNUTH_MAX_RATE
    k1, k2 = split(key)
    knuth = _poisson_knuth(k1, snp.where(small, lam, 0.0))
    ptrs = _poisson_ptrs(k2, snp.where(small, 1e5, lam))
    out = snp.where(small, knuth, ptrs)
    return snp.where(lam >= 0, out, -1)


def _binomial_inversion(key: Any, n: Any, p: Any) -> Any:
    # sum geometric waiting times until they pass n (Devroye 1986, X.4.3)
    shape, dtype = tuple(n.shape), np.dtype(n.dtype)
    log1mp = snp.log1p(-p)

    def cond(state):
        return lax.bitwise_not(snp.all(state[1]))

    def body(state):
        i, done, count, total = state
        with rolled_hash():
            u = uniform(fold_in(key, i), shape, dtype)
        total = total + snp.ceil(snp.log1p(-u) / log1mp)
        stop = total > n
        count = snp.where(done | stop, count, count + 1)
        return i + 1, done | stop, count, total

    init = (snp.asarray(np.uint32(0)), snp.zeros(shape, bool), snp.zeros(shape, dtype),
            snp.zeros(shape, dtype))
    return lax.while_loop(cond, body, init)[2]


def _binomial_btrs(key: Any, n: Any, p: Any) -> Any:
    # Hormann (1993), "The generation of binomial random variates", BTRS
    shape, dtype = tuple(n.shape), np.dtype(n.dtype)
    q = 1 - p
    spq = snp.sqrt(n * p * q)
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    v_r = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = snp.log(p / q)
    m = snp.floor((n + 1) * p)
    h = lax.lgamma(m + 1) + lax.lgamma(n - m + 1)

    def propose(k):
        u, v = _two_uniforms(k, shape, dtype)
        u = u - 0.5
        us = 0.5 - snp.abs(u)
        kk = snp.floor((2 * a / us + b) * u + c)
        fast = (us >= 0.07) & (v <= v_r)
        inside = (kk >= 0) & (kk <= n)
        ks = snp.clip(kk, 0, n)
        lv = snp.log(v * alpha / (a / (us * us) + b))
        slow = inside & (lv <= h - lax.lgamma(ks + 1) - lax.lgamma(n - ks + 1)
                         + (ks - m) * lpq)
        return kk, fast | slow

    return _rejection(key, shape, dtype, propose)


def binomial(key: Any, n: Any, p: Any, shape: Sequence[int] | None = None,
             dtype: Any = None) -> Any:
    """Binomial(n, p) counts (as floats, like JAX): inversion by geometric waiting
    times when ``n min(p, 1-p) < 10``, Hormann's BTRS rejection otherwise.

    Examples
    --------
    >>> x = sciax.random.binomial(sciax.random.key(0), 20.0, 0.3, (4000,))
    >>> abs(float(x.mean()) - 6.0) < 0.2
    True
    """
    key = check_key("binomial", key)
    dtype = _float_dtype("binomial", dtype)
    shape = _check_shape("binomial", shape, n, p)
    n = lax.stop_gradient(_param(n, dtype, shape))
    p = lax.stop_gradient(_param(p, dtype, shape))
    return _binomial(key, n, p)


@sciax.jit
def _binomial(key: Any, n: Any, p: Any) -> Any:
    flip = p > 0.5
    ps = snp.where(flip, 1 - p, p)
    small = n * ps < _KNUTH_MAX_RATE
    k1, k2 = split(key)
    inv = _binomial_inversion(k1, snp.where(small, n, 0.0), snp.where(small, ps, 0.0))
    btrs = _binomial_btrs(k2, snp.where(small, 100.0, n), snp.where(small, 0.5, ps))
    out = snp.where(small, inv, btrs)
    out = snp.where(flip, n - out, out)
    bad = ~((p >= 0) & (p <= 1) & (n >= 0))
    return snp.where(bad, np.nan, out)
