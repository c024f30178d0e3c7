"""Samplers: every distribution is a transform of :func:`random_bits`.

Signatures follow JAX's (key first, then parameters, shape and dtype).  A
``shape`` of ``None`` means the broadcast shape of the parameters; an explicit
shape must be one the parameters broadcast to.  ``dtype=None`` is the default
float (float64 with ``enable_x64``, else float32) or the default int.

Rejection samplers (gamma, poisson, binomial) are vectorised: one
``while_loop`` draws a fresh proposal for every element per iteration (from
``fold_in(key, iteration)``) until all elements have accepted, so a sample is
a pure function of its key and position, identical eagerly, under ``jit`` and
under ``vmap``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax, linalg
from sciax.random._prng import (canonical_shape, check_key, fold_in, random_bits,
                                rolled_hash, split)

# --- argument helpers ----------------------------------------------------------------


def _float_dtype(name: str, dtype: Any, allow_complex: bool = False) -> np.dtype:
    dt = np.dtype(float if dtype is None else dtype)
    ok = "fc" if allow_complex else "f"
    if dt.kind not in ok and dt.name != "bfloat16":
        kinds = "floating or complex" if allow_complex else "floating"
        raise TypeError(f"{name}: dtype must be a {kinds} dtype, got {dt}")
    return _canonical(dt)


def _int_dtype(name: str, dtype: Any) -> np.dtype:
    dt = np.dtype(int if dtype is None else dtype)
    if dt.kind not in "iu":
        raise TypeError(f"{name}: dtype must be an integer dtype, got {dt}")
    return _canonical(dt)


def _canonical(dt: np.dtype) -> np.dtype:
    if not sciax.config.enable_x64 and dt.itemsize == 8 and dt.kind in "iuf":
        return np.dtype(dt.kind + "4")
    if not sciax.config.enable_x64 and dt == np.complex128:
        return np.dtype(np.complex64)
    return dt


def _shape_of(x: Any) -> tuple[int, ...]:
    return tuple(np.shape(x)) if isinstance(x, int | float | complex) else tuple(x.shape)


def _check_shape(name: str, shape: Any, *params: Any) -> tuple[int, ...]:
    """The sample shape: ``shape`` or the parameters' broadcast shape."""
    pshapes = [_shape_of(p) for p in params]
    if shape is None:
        try:
            return tuple(np.broadcast_shapes(*pshapes))
        except ValueError:
            raise ValueError(f"{name}: parameter shapes {pshapes} do not broadcast "
                             "together") from None
    shape = canonical_shape(name, shape)
    try:
        ok = tuple(np.broadcast_shapes(shape, *pshapes)) == shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{name}: shape {shape} is not a broadcast of the parameter "
                         f"shapes {pshapes}; the parameters must broadcast to shape")
    return shape


def _param(x: Any, dtype: np.dtype, shape: tuple[int, ...]) -> Any:
    return snp.broadcast_to(snp.asarray(x, dtype), shape)


def _nextafter(x: float, toward: float, dtype: np.dtype) -> Any:
    ndt = np.float32 if dtype.name == "bfloat16" else dtype
    return float(np.nextafter(np.array(x, ndt), np.array(toward, ndt)))


def _tiny(dtype: np.dtype) -> float:
    return float(snp.finfo(dtype).tiny)


# --- uniform and normal ---------------------------------------------------------------

def uniform(key: Any, shape: Sequence[int] = (), dtype: Any = None,
            minval: Any = 0.0, maxval: Any = 1.0) -> Any:
    """Uniform floats in ``[minval, maxval)``.

    The mantissa bits of a float in ``[1, 2)`` are filled with random bits,
    then 1 is subtracted: every value is a multiple of the dtype's epsilon,
    and the numbers equal JAX's for the same key.

    Examples
    --------
    >>> u = sciax.random.uniform(sciax.random.key(0), (1000,))
    >>> bool((u >= 0).all() and (u < 1).all())
    True
    """
    key = check_key("uniform", key)
    dtype = _float_dtype("uniform", dtype)
    shape = _check_shape("uniform", shape, minval, maxval)
    finfo = snp.finfo(dtype)
    nbits, nmant = finfo.bits, finfo.nmant
    uint = np.dtype(f"uint{nbits}")
    rng_bits = 8 if nmant < 8 else nbits
    b = random_bits(key, rng_bits, shape)
    if rng_bits != nbits:
        b = lax.convert_element_type(b, uint)
    one_bits = int(np.array(1.0, np.float32 if dtype.name == "bfloat16" else dtype)
                   .view(f"uint{32 if dtype.name == 'bfloat16' else nbits}"))
    if dtype.name == "bfloat16":
        one_bits >>= 16
    fbits = lax.bitwise_or(lax.shift_right_logical(b, rng_bits - nmant), one_bits)
    floats = lax.bitcast_convert_type(fbits, dtype) - 1.0
    lo = snp.asarray(minval, dtype)
    hi = snp.asarray(maxval, dtype)
    # rounding of the affine map can land below minval; clamp it back
    return snp.maximum(lo, floats * (hi - lo) + lo)


def normal(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard normal samples by inverting the CDF: ``sqrt(2) erfinv(u)``.

    Complex dtypes draw real and imaginary parts with variance 1/2 each.

    Examples
    --------
    >>> z = sciax.random.normal(sciax.random.key(0), (4000,))
    >>> abs(float(z.mean())) < 0.1 and abs(float(z.std()) - 1) < 0.1
    True
    """
    key = check_key("normal", key)
    dtype = _float_dtype("normal", dtype, allow_complex=True)
    shape = canonical_shape("normal", shape)
    if dtype.kind == "c":
        real = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
        kr, ki = split(key)
        re, im = _normal_real(kr, shape, real), _normal_real(ki, shape, real)
        return lax.complex(re, im) * np.array(1 / np.sqrt(2), real).item()
    return _normal_real(key, shape, dtype)


def _normal_real(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    u = uniform(key, shape, dtype, _nextafter(-1.0, 0.0, dtype), 1.0)
    return lax.erf_inv(u) * math.sqrt(2)


def truncated_normal(key: Any, lower: Any, upper: Any, shape: Sequence[int] | None = None,
                     dtype: Any = None) -> Any:
    """Standard normal samples conditioned on ``lower < x < upper``.

    Inverse-CDF sampling through ``erf``; deep in one tail (beyond about 5
    standard deviations in float32) the samples pile up at the bound.

    Examples
    --------
    >>> x = sciax.random.truncated_normal(sciax.random.key(0), -1.0, 2.0, (100,))
    >>> bool((x > -1).all() and (x < 2).all())
    True
    """
    key = check_key("truncated_normal", key)
    dtype = _float_dtype("truncated_normal", dtype)
    shape = _check_shape("truncated_normal", shape, lower, upper)
    lower, upper = _param(lower, dtype, shape), _param(upper, dtype, shape)
    s2 = math.sqrt(2)
    a, b = lax.erf(lower / s2), lax.erf(upper / s2)
    u = uniform(key, shape, dtype, a, b)
    out = lax.erf_inv(u) * s2
    # keep the open interval even where erf_inv rounds onto a bound
    lo = lax.nextafter(lower, snp.full_like(lower, np.inf))
    hi = lax.nextafter(upper, snp.full_like(upper, -np.inf))
    return snp.clip(out, lo, hi)


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


# --- simple transforms of a uniform --------------------------------------------------

def _open_uniform(name: str, key: Any, shape: Any, dtype: Any) -> tuple[Any, np.dtype]:
    key = check_key(name, key)
    dtype = _float_dtype(name, dtype)
    shape = canonical_shape(name, shape)
    return uniform(key, shape, dtype, _tiny(dtype), 1.0), dtype


def exponential(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Exponential(1) samples, ``-log(1 - u)``.

    Examples
    --------
    >>> bool((sciax.random.exponential(sciax.random.key(0), (10,)) >= 0).all())
    True
    """
    key = check_key("exponential", key)
    dtype = _float_dtype("exponential", dtype)
    u = uniform(key, canonical_shape("exponential", shape), dtype)
    return -snp.log1p(-u)


def laplace(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Laplace(0, 1) samples (inverse CDF).

    Examples
    --------
    >>> sciax.random.laplace(sciax.random.key(0), (3,)).shape
    (3,)
    """
    key = check_key("laplace", key)
    dtype = _float_dtype("laplace", dtype)
    u = uniform(key, canonical_shape("laplace", shape), dtype,
                _nextafter(-1.0, 0.0, dtype), 1.0)
    return snp.sign(u) * snp.log1p(-snp.abs(u))


def cauchy(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard Cauchy samples, ``tan(pi (u - 1/2))``.

    Examples
    --------
    >>> sciax.random.cauchy(sciax.random.key(0), (3,)).shape
    (3,)
    """
    u, dtype = _open_uniform("cauchy", key, shape, dtype)
    return snp.tan(math.pi * (u - 0.5))


def logistic(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard logistic samples, ``log(u / (1 - u))``.

    Examples
    --------
    >>> sciax.random.logistic(sciax.random.key(0), (3,)).shape
    (3,)
    """
    u, dtype = _open_uniform("logistic", key, shape, dtype)
    return snp.log(u) - snp.log1p(-u)


def gumbel(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard Gumbel samples, ``-log(-log(u))``.

    Examples
    --------
    >>> sciax.random.gumbel(sciax.random.key(0), (3,)).shape
    (3,)
    """
    u, dtype = _open_uniform("gumbel", key, shape, dtype)
    return -snp.log(-snp.log(u))


def lognormal(key: Any, sigma: Any = 1.0, shape: Sequence[int] | None = None,
              dtype: Any = None) -> Any:
    """Log-normal samples, ``exp(sigma * z)``.

    Examples
    --------
    >>> bool((sciax.random.lognormal(sciax.random.key(0), 0.5, (10,)) > 0).all())
    True
    """
    key = check_key("lognormal", key)
    dtype = _float_dtype("lognormal", dtype)
    shape = _check_shape("lognormal", shape, sigma)
    return snp.exp(_param(sigma, dtype, shape) * normal(key, shape, dtype))


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


def pareto(key: Any, b: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Pareto samples with shape ``b`` (support ``[1, inf)``), ``exp(E / b)``.

    Examples
    --------
    >>> bool((sciax.random.pareto(sciax.random.key(0), 3.0, (10,)) >= 1).all())
    True
    """
    dtype = _float_dtype("pareto", dtype)
    shape = _check_shape("pareto", shape, b)
    return snp.exp(exponential(key, shape, dtype) / _param(b, dtype, shape))


def rayleigh(key: Any, scale: Any = 1.0, shape: Sequence[int] | None = None,
             dtype: Any = None) -> Any:
    """Rayleigh samples, ``scale * sqrt(2 E)``.

    Examples
    --------
    >>> sciax.random.rayleigh(sciax.random.key(0), 2.0, (3,)).shape
    (3,)
    """
    dtype = _float_dtype("rayleigh", dtype)
    shape = _check_shape("rayleigh", shape, scale)
    return _param(scale, dtype, shape) * snp.sqrt(2 * exponential(key, shape, dtype))


def weibull_min(key: Any, scale: Any, concentration: Any,
                shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Weibull samples, ``scale * E ** (1 / concentration)``.

    Examples
    --------
    >>> sciax.random.weibull_min(sciax.random.key(0), 1.0, 2.0, (3,)).shape
    (3,)
    """
    dtype = _float_dtype("weibull_min", dtype)
    shape = _check_shape("weibull_min", shape, scale, concentration)
    e = exponential(key, shape, dtype)
    return _param(scale, dtype, shape) * e ** (1 / _param(concentration, dtype, shape))


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


# --- gamma and friends ----------------------------------------------------------------

def _rejection(key: Any, shape: tuple[int, ...], dtype: np.dtype, propose: Any) -> Any:
    """Elementwise rejection sampling.

    ``propose(k) -> (values, accepted)`` draws one proposal per element from
    the key ``k``; iteration ``i`` uses ``fold_in(key, i)``.  Each element
    keeps its first accepted proposal; the loop ends when all have one.
    """
    def cond(state):
        return lax.bitwise_not(snp.all(state[1]))

    def body(state):
        i, done, val = state
        with rolled_hash():
            v, ok = propose(fold_in(key, i))
        new = lax.bitwise_and(ok, lax.bitwise_not(done))
        return i + 1, lax.bitwise_or(done, ok), snp.where(new, v, val)

    init = (snp.asarray(np.uint32(0)), snp.zeros(shape, bool), snp.zeros(shape, dtype))
    return lax.while_loop(cond, body, init)[2]


def _two_uniforms(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> tuple[Any, Any]:
    # one hash for both: halves of a (2, *shape) draw
    u = uniform(key, (2,) + shape, dtype)
    return u[0], u[1]


def _normal_and_uniform(key: Any, shape: tuple[int, ...], dtype: np.dtype
                        ) -> tuple[Any, Any]:
    u = uniform(key, (2,) + shape, dtype, _nextafter(-1.0, 0.0, dtype), 1.0)
    return lax.erf_inv(u[0]) * math.sqrt(2), (u[1] + 1) * 0.5


@sciax.jit
def _gamma_log_sample(key: Any, a: Any) -> Any:
    """``log`` of Gamma(a, 1) samples (``a`` already has the sample shape).

    Marsaglia and Tsang (2000): for ``a >= 1`` a cubed normal proposal with a
    squeeze-free log acceptance test; ``a < 1`` samples ``a + 1`` and
    multiplies by ``U ** (1 / a)`` (in logs, so tiny ``a`` does not underflow).
    """
    shape, dtype = tuple(a.shape), np.dtype(a.dtype)
    k_loop, k_boost = split(key)
    boost = a < 1
    alpha = snp.where(boost, a + 1, a)
    d = alpha - 1 / 3
    c = lax.rsqrt(9 * d)

    def propose(k):
        x, u = _normal_and_uniform(k, shape, dtype)
        v = 1 + c * x
        pos = v > 0
        v3 = snp.where(pos, v * v * v, 1)
        ok = pos & (snp.log(u) < 0.5 * x * x + d - d * v3 + d * snp.log(v3))
        return snp.log(d) + snp.log(v3), ok

    logx = _rejection(k_loop, shape, dtype, propose)
    logu = snp.log1p(-uniform(k_boost, shape, dtype))   # log of a (0, 1] uniform
    return snp.where(boost, logx + logu / snp.where(boost, a, 1), logx)


_GAMMA_TERMS = 256       # series / continued-fraction terms of the implicit gradient
_GAMMA_ASYMPTOTIC = 800  # above this shape the Wilson-Hilferty form is used


def _dlogx_da(a: Any, logx: Any) -> Any:
    """``d log x / d a`` at fixed ``P(a, x)`` (implicit reparameterisation).

    With ``P`` the regularised lower incomplete gamma function and ``f`` the
    density, ``dx/da = -(dP/da) / f``.  Below ``x = a + 1`` the series
    ``P = x**a e**-x / Gamma(a+1) * S`` gives ``dlogx/da = -(S (log x -
    digamma(a+1)) + dS/da) / a``; above it the continued fraction
    ``Q = x**a e**-x / Gamma(a) * C`` gives ``C (log x - digamma(a)) + dC/da``.
    Both are summed with their ``a``-derivatives carried alongside (a
    hand-written forward mode), with a fixed number of terms; for very large
    ``a`` the Wilson-Hilferty cube-root normal form is differentiated instead.
    """
    a, logx = lax.stop_gradient(a), lax.stop_gradient(logx)
    big = a > _GAMMA_ASYMPTOTIC
    a_s = snp.where(big, 1, a)      # keep the discarded branches finite
    x = snp.exp(logx)
    use_series = x < a_s + 1
    xs = snp.where(use_series, x, 0.5 * a_s)

    def series_step(n, carry):
        t, dt, s, ds = carry
        an = a_s + n.astype(a.dtype)
        r = xs / an
        dt = r * (dt - t / an)
        t = t * r
        return t, dt, s + t, ds + dt

    one, zero = snp.ones_like(a), snp.zeros_like(a)
    _, _, s, ds = lax.fori_loop(1, _GAMMA_TERMS, series_step, (one, zero, one, zero))
    d_series = -(s * (snp.log(xs) - lax.digamma(a_s + 1)) + ds) / a_s

    xc = snp.where(use_series, a_s + 2, x)

    def cf_step(i, carry):
        # g_{n-1} = b_{n-1} + a_n / g_n, going down from n = N
        g, dg = carry
        n = (_GAMMA_TERMS - i).astype(a.dtype)
        an = n * (a_s - n)
        dan = n
        new_g = xc + 2 * n - 1 - a_s + an / g
        new_dg = -1 + (dan * g - an * dg) / (g * g)
        return new_g, new_dg

    g0 = xc + 2 * _GAMMA_TERMS + 1 - a_s
    g, dg = lax.fori_loop(0, _GAMMA_TERMS, cf_step, (g0, -one))
    cf = 1 / g
    d_cf = cf * (snp.log(xc) - lax.digamma(a_s)) - dg / (g * g)

    # Wilson-Hilferty: x = a w**3, w = 1 - 1/(9a) + z / (3 sqrt(a)), z held fixed
    a_b = snp.where(big, a, 1000.0)
    w = snp.exp((logx - snp.log(a_b)) / 3)
    z = 3 * snp.sqrt(a_b) * (w - 1 + 1 / (9 * a_b))
    dw = 1 / (9 * a_b * a_b) - z / (6 * a_b * snp.sqrt(a_b))
    d_big = 1 / a_b + 3 * dw / w
    return snp.where(big, d_big, snp.where(use_series, d_series, d_cf))


@sciax.custom_jvp
def _with_gamma_grad(a: Any, logx: Any) -> Any:
    return logx


@_with_gamma_grad.defjvp
def _with_gamma_grad_jvp(primals, tangents):
    a, logx = primals
    ta, _ = tangents        # the sample itself carries no derivative
    return logx, _dlogx_da(a, logx) * ta


def _gamma_common(name: str, key: Any, a: Any, shape: Any, dtype: Any) -> Any:
    key = check_key(name, key)
    dtype = _float_dtype(name, dtype)
    shape = _check_shape(name, shape, a)
    a = _param(a, dtype, shape)
    logx = _gamma_log_sample(key, lax.stop_gradient(a))
    return _with_gamma_grad(a, logx)


def gamma(key: Any, a: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Gamma(a, 1) samples, differentiable in ``a``.

    Marsaglia-Tsang rejection sampling (a ``while_loop``); the derivative is
    the implicit reparameterisation gradient ``dx/da = -(dP/da)(x, a) / p(x, a)``
    (Figurnov et al. 2018), so ``grad`` of an expectation estimate is unbiased.

    Examples
    --------
    >>> x = sciax.random.gamma(sciax.random.key(0), 2.0, (4000,))
    >>> abs(float(x.mean()) - 2.0) < 0.1
    True
    >>> g = sciax.grad(lambda a: sciax.random.gamma(sciax.random.key(0), a))(2.0)
    >>> bool(g > 0)
    True
    """
    return snp.exp(_gamma_common("gamma", key, a, shape, dtype))


def loggamma(key: Any, a: Any, shape: Sequence[int] | None = None, dtype: Any = None
             ) -> Any:
    """``log`` of Gamma(a, 1) samples, accurate for small ``a`` where the
    samples themselves underflow.

    Examples
    --------
    >>> bool(sciax.random.loggamma(sciax.random.key(0), 1e-3, (5,)).max() < 0)
    True
    """
    return _gamma_common("loggamma", key, a, shape, dtype)


def beta(key: Any, a: Any, b: Any, shape: Sequence[int] | None = None,
         dtype: Any = None) -> Any:
    """Beta(a, b) samples, ``X / (X + Y)`` for gamma ``X``, ``Y`` (in logs).

    Examples
    --------
    >>> x = sciax.random.beta(sciax.random.key(0), 2.0, 3.0, (10,))
    >>> bool(((x > 0) & (x < 1)).all())
    True
    """
    key = check_key("beta", key)
    dtype = _float_dtype("beta", dtype)
    shape = _check_shape("beta", shape, a, b)
    ka, kb = split(key)
    la = _gamma_common("beta", ka, a, shape, dtype)
    lb = _gamma_common("beta", kb, b, shape, dtype)
    m = lax.stop_gradient(snp.maximum(la, lb))
    xa, xb = snp.exp(la - m), snp.exp(lb - m)
    return xa / (xa + xb)


def dirichlet(key: Any, alpha: Any, shape: Sequence[int] | None = None,
              dtype: Any = None) -> Any:
    """Dirichlet(alpha) samples: normalised gammas (in logs), shape ``(*shape, K)``.

    Examples
    --------
    >>> x = sciax.random.dirichlet(sciax.random.key(0), snp.ones(3), (2,))
    >>> np.allclose(np.asarray(x).sum(-1), 1)
    True
    """
    key = check_key("dirichlet", key)
    dtype = _float_dtype("dirichlet", dtype)
    alpha = snp.asarray(alpha, dtype)
    if alpha.ndim < 1:
        raise ValueError("dirichlet: alpha must have at least one axis (the categories)")
    batch = _check_shape("dirichlet", shape, alpha[..., 0])
    full = batch + (alpha.shape[-1],)
    logs = _gamma_common("dirichlet", key, snp.broadcast_to(alpha, full), full, dtype)
    logs = logs - lax.stop_gradient(snp.max(logs, axis=-1, keepdims=True))
    x = snp.exp(logs)
    return x / snp.sum(x, axis=-1, keepdims=True)


def chisquare(key: Any, df: Any, shape: Sequence[int] | None = None, dtype: Any = None
              ) -> Any:
    """Chi-square samples, ``2 Gamma(df / 2)``.

    Examples
    --------
    >>> sciax.random.chisquare(sciax.random.key(0), 3.0, (4,)).shape
    (4,)
    """
    dtype = _float_dtype("chisquare", dtype)
    shape = _check_shape("chisquare", shape, df)
    return 2 * gamma(key, _param(df, dtype, shape) / 2, shape, dtype)


def t(key: Any, df: Any, shape: Sequence[int] | None = None, dtype: Any = None) -> Any:
    """Student's t samples, ``z sqrt(df / (2 Gamma(df / 2)))``.

    Examples
    --------
    >>> sciax.random.t(sciax.random.key(0), 5.0, (4,)).shape
    (4,)
    """
    key = check_key("t", key)
    dtype = _float_dtype("t", dtype)
    shape = _check_shape("t", shape, df)
    kn, kg = split(key)
    df = _param(df, dtype, shape)
    z = normal(kn, shape, dtype)
    g = gamma(kg, df / 2, shape, dtype)
    return z * snp.sqrt(df / (2 * g))


def f(key: Any, dfnum: Any, dfden: Any, shape: Sequence[int] | None = None,
      dtype: Any = None) -> Any:
    """F samples, the ratio of two scaled chi-squares.

    Examples
    --------
    >>> sciax.random.f(sciax.random.key(0), 3.0, 5.0, (4,)).shape
    (4,)
    """
    key = check_key("f", key)
    dtype = _float_dtype("f", dtype)
    shape = _check_shape("f", shape, dfnum, dfden)
    k1, k2 = split(key)
    dn, dd = _param(dfnum, dtype, shape), _param(dfden, dtype, shape)
    return (chisquare(k1, dn, shape, dtype) / dn) / (chisquare(k2, dd, shape, dtype) / dd)


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


# --- multivariate ---------------------------------------------------------------------

def _cholesky(a: Any) -> Any:
    """Lower Cholesky factor of one symmetric positive-definite matrix, a column
    per ``fori_loop`` step (NaN where ``a`` is not positive definite)."""
    n = a.shape[-1]
    idx = snp.arange(n)

    def body(j, low):
        row = lax.dynamic_slice(low, (j, 0), (1, n))[0]
        col = lax.dynamic_slice(a, (0, j), (n, 1))[:, 0] - snp.sum(low * row, axis=1)
        d = snp.sqrt(snp.sum(snp.where(idx == j, col, 0), axis=0))
        new = snp.where(idx > j, col / d, snp.where(idx == j, d, 0))
        return lax.dynamic_update_slice(low, new[:, None], (0, j))

    return lax.fori_loop(0, n, body, snp.zeros_like(a))


def _batched(fn: Any, x: Any, core: int) -> Any:
    lead = tuple(x.shape[:x.ndim - core])
    if not lead:
        return fn(x)
    flat = snp.reshape(x, (math.prod(lead),) + tuple(x.shape[x.ndim - core:]))
    out = sciax.vmap(fn)(flat)
    return snp.reshape(out, lead + tuple(out.shape[1:]))


def multivariate_normal(key: Any, mean: Any, cov: Any, shape: Sequence[int] | None = None,
                        dtype: Any = None, method: str = "cholesky") -> Any:
    """Samples of N(mean, cov): ``mean + L z`` with ``cov = L L^T``.

    ``mean`` is ``(..., n)``, ``cov`` ``(..., n, n)``; ``shape`` defaults to
    their broadcast batch shape.  ``method="cholesky"`` uses a built-in
    column-by-column factorisation; ``"eigh"`` and ``"svd"`` use
    :mod:`sciax.linalg` (also for covariances that are only semi-definite).

    Examples
    --------
    >>> cov = snp.asarray([[1.0, 0.5], [0.5, 2.0]])
    >>> sciax.random.multivariate_normal(sciax.random.key(0), snp.zeros(2), cov,
    ...                                  (3,)).shape
    (3, 2)
    """
    key = check_key("multivariate_normal", key)
    dtype = _float_dtype("multivariate_normal", dtype)
    if method not in ("cholesky", "eigh", "svd"):
        raise ValueError(f"multivariate_normal: method must be 'cholesky', 'eigh' or "
                         f"'svd', got {method!r}")
    mean, cov = snp.asarray(mean, dtype), snp.asarray(cov, dtype)
    if mean.ndim < 1 or cov.ndim < 2 or cov.shape[-2:] != (mean.shape[-1],) * 2:
        raise ValueError(f"multivariate_normal: mean must be (..., n) and cov (..., n, n);"
                         f" got shapes {tuple(mean.shape)} and {tuple(cov.shape)}")
    n = mean.shape[-1]
    shape = _check_shape("multivariate_normal", shape, mean[..., 0], cov[..., 0, 0])
    if method == "cholesky":
        factor = _batched(_cholesky, cov, 2)
    else:
        if method == "eigh":
            w, v = linalg.eigh(cov)
        else:
            v, w, _ = linalg.svd(cov)
        factor = v * snp.sqrt(w)[..., None, :]
    z = normal(key, shape + (n,), dtype)
    return mean + snp.sum(factor * z[..., None, :], axis=-1)


def _orthonormal_columns(a: Any) -> Any:
    """``Q`` of ``a = Q R`` with ``diag(R) > 0`` (Gram-Schmidt, reorthogonalised)."""
    n, m = a.shape
    conj = snp.conj if a.dtype.kind == "c" else (lambda v: v)

    def body(j, q):
        v = lax.dynamic_slice(a, (0, j), (n, 1))[:, 0]
        for _ in range(2):   # the second pass restores orthogonality lost to rounding
            v = v - snp.sum(q * snp.sum(conj(q) * v[:, None], axis=0), axis=1)
        v = v / snp.sqrt(snp.sum(snp.abs(v) ** 2))
        return lax.dynamic_update_slice(q, v[:, None], (0, j))

    return lax.fori_loop(0, m, body, snp.zeros_like(a))


def orthogonal(key: Any, n: int, shape: Sequence[int] = (), dtype: Any = None,
               m: int | None = None) -> Any:
    """Haar-random orthogonal (unitary for complex dtypes) ``n x m`` matrices.

    The ``Q`` factor, with positive ``diag(R)``, of a Gaussian matrix.

    Examples
    --------
    >>> q = sciax.random.orthogonal(sciax.random.key(0), 3)
    >>> np.allclose(np.asarray(q) @ np.asarray(q).T, np.eye(3))
    True
    """
    key = check_key("orthogonal", key)
    dtype = _float_dtype("orthogonal", dtype, allow_complex=True)
    shape = canonical_shape("orthogonal", shape)
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    big, small = max(n, m), min(n, m)
    z = normal(key, shape + (big, small), dtype)
    q = _batched(_orthonormal_columns, z, 2)
    return snp.swapaxes(q, -1, -2) if n < m else q
