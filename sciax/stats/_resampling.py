"""Resampling methods batched with ``vmap``: ``bootstrap`` and
``permutation_test``.

Resample ``i`` draws from ``k = sciax.random.split(key, n_resamples)[i]`` (the
indices of one sample or of paired samples are :func:`resample_indices`\
``(k, n)``; of sample ``j`` among several unpaired ones, from ``split(k,
m)[j]``), so a Python loop over the same keys reproduces any resample
exactly; the whole batch is one ``vmap`` of the user's statistic, compiled
once.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from typing import Any, NamedTuple

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.random
from sciax import lax

from sciax.stats import _sf


class ConfidenceInterval(NamedTuple):
    low: Any
    high: Any


class BootstrapResult(NamedTuple):
    confidence_interval: ConfidenceInterval
    bootstrap_distribution: Any
    standard_error: Any


class PermutationTestResult(NamedTuple):
    statistic: Any
    pvalue: Any
    null_distribution: Any


def _as_key(random_state):
    if random_state is None:
        raise ValueError("random_state is required: pass a sciax.random key or an "
                         "integer seed")
    if isinstance(random_state, (int, np.integer)):
        return sciax.random.key(int(random_state))
    return random_state


def _call(statistic, samples):
    """``statistic(*samples)`` on 1-D samples, with ``axis=-1`` when it takes one
    (SciPy's convention for vectorised statistics)."""
    try:
        params = inspect.signature(statistic).parameters
    except (TypeError, ValueError):
        params = {}
    if "axis" in params:
        return statistic(*samples, axis=-1)
    return statistic(*samples)


def _samples(data, axis):
    if not isinstance(data, (tuple, list)) or not data:
        raise ValueError("data must be a non-empty sequence of samples")
    out = []
    for s in data:
        s = snp.asarray(s)
        s = s.astype(snp.result_type(s, 1.0))
        if s.ndim != 1:
            s = snp.moveaxis(s, axis, -1)
            if s.ndim != 1:
                raise ValueError("sciax's resampling functions take 1-D samples "
                                 f"(got a sample of shape {s.shape}); vmap over the "
                                 "other axes")
        out.append(s)
    return out


def resample_indices(key, n):
    """The ``n`` indices in ``[0, n)`` (int32) that :func:`bootstrap` draws for
    one resample of a sample of ``n`` from the key ``key``.

    For ``n <= 2**16`` each 64-bit word ``w_j = random_bits(key, 64, (ceil(n /
    2),))[j]`` gives two indices, ``floor(n h / 2**32)`` of its high and low
    32-bit halves ``h`` (index ``2 j`` from the high half): one threefry block
    per two indices.  Each index then has probability within ``n / 2**32 <=
    1.5e-5`` of ``1/n`` relative.  For larger ``n``, index ``i`` is ``floor(n
    w_i / 2**64)`` of one 64-bit word per index (bias below ``n / 2**64``,
    ``randint``'s own bound; randint itself takes two blocks per index and a
    64-bit remainder that the CPU does not vectorise).  The multiply-highs are
    done in 64-bit integers, products below ``2**64``.  Without ``enable_x64``
    this is ``randint(key, (n,), 0, n)``.

    Examples
    --------
    >>> from sciax.stats._resampling import resample_indices
    >>> i = resample_indices(sciax.random.key(0), 5)
    >>> i.dtype, bool(((0 <= i) & (i < 5)).all())
    (dtype('int32'), True)
    """
    if not sciax.config.enable_x64 or n >= 2 ** 31:
        return sciax.random.randint(key, (n,), 0, n)
    if n <= _TWO_PER_WORD_MAX_N:
        w = sciax.random.random_bits(key, 64, ((n + 1) // 2,))
        s32 = lax.full_like(w, 32)
        hi = lax.shift_right_logical(w, s32)
        lo = lax.bitwise_and(w, lax.full_like(w, 0xFFFFFFFF))
        halves = snp.reshape(snp.stack([hi, lo], axis=-1), (-1,))[:n]
        u = lax.shift_right_logical(halves * lax.full_like(halves, n),
                                    lax.full_like(halves, 32))
        return lax.convert_element_type(u, np.int32)
    w = sciax.random.random_bits(key, 64, (n,))
    s32 = lax.full_like(w, 32)
    hi = lax.shift_right_logical(w, s32)
    lo = lax.bitwise_and(w, lax.full_like(w, 0xFFFFFFFF))
    nn = lax.full_like(w, n)
    # n w / 2**32 = n hi + n lo / 2**32, each product below 2**64
    u = hi * nn + lax.shift_right_logical(lo * nn, s32)
    return lax.convert_element_type(lax.shift_right_logical(u, s32), np.int32)


# two indices per threefry word up to this sample size (bias <= n / 2**32)
_TWO_PER_WORD_MAX_N = 1 << 16


def _draw_one(k, sizes, paired):
    """The index arrays of one resample (one per sample) from its key."""
    if paired or len(sizes) == 1:
        return (resample_indices(k, sizes[0]),)
    ks = sciax.random.split(k, len(sizes))
    return tuple(resample_indices(ks[j], n) for j, n in enumerate(sizes))


def bootstrap(data, statistic, *, n_resamples=9999, batch=None, vectorized=None,
              paired=False, axis=0, confidence_level=0.95, alternative="two-sided",
              method="BCa", bootstrap_result=None, random_state=None):
    """sciax implementation of :func:`scipy.stats.bootstrap`.

    The resamples are drawn with :mod:`sciax.random` keys and the statistic is
    ``vmap``-ed over all of them at once (``batch`` and ``vectorized`` are
    accepted and ignored); ``random_state`` is a key or an integer seed.
    Methods ``'percentile'``, ``'basic'`` and ``'BCa'`` (the default, with the
    jackknife acceleration).  Samples are 1-D (``vmap`` over other axes).

    Examples
    --------
    >>> from sciax.stats import bootstrap
    >>> x = snp.linspace(0.0, 1.0, 30)
    >>> res = bootstrap((x,), snp.mean, n_resamples=1000, random_state=0,
    ...                 method="percentile")
    >>> lo, hi = res.confidence_interval
    >>> print(bool(lo < 0.5 < hi), res.bootstrap_distribution.shape)
    True (1000,)
    """
    if method.lower() not in ("percentile", "basic", "bca"):
        raise ValueError(f"method must be 'percentile', 'basic' or 'BCa', got "
                         f"{method!r}")
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"alternative must be 'two-sided', 'less' or 'greater', got "
                         f"{alternative!r}")
    samples = _samples(data, axis)
    sizes = [int(s.shape[0]) for s in samples]
    if paired and len(set(sizes)) != 1:
        raise ValueError("paired samples must all have the same length")
    if method.lower() == "bca" and len(samples) > 1 and not paired:
        raise ValueError("method='BCa' is supported for one sample or paired "
                         "samples; use 'percentile' or 'basic'")
    key = _as_key(random_state)
    prev = None if bootstrap_result is None else \
        bootstrap_result.bootstrap_distribution
    static = dict(statistic=statistic, n_resamples=int(n_resamples), paired=paired,
                  method=method.lower(), alternative=alternative,
                  confidence_level=float(confidence_level))
    # An eager call runs as one compiled program once the same statistic and
    # options come back (op by op, the resamples and every intermediate were
    # materialised, 10^7 elements for 10^4 resamples of 10^3); under an
    # enclosing transformation the jitted core is traced inline.
    seen = tuple(static.items())
    try:
        known = seen in _SEEN
    except TypeError:  # an unhashable statistic: no program
        known = None
    if known is None:
        core = _bootstrap_core
    elif known:
        _SEEN.move_to_end(seen)
        core = _bootstrap_core_jit
    else:
        _SEEN[seen] = None
        if len(_SEEN) > _SEEN_MAX:
            _SEEN.popitem(last=False)
        core = _bootstrap_core
    lo, hi, theta_b, se = core(samples, key, prev, **static)
    return BootstrapResult(ConfidenceInterval(lo, hi), theta_b, se)


# (statistic, options) of eager bootstrap calls seen: the second call compiles
_SEEN: OrderedDict = OrderedDict()
_SEEN_MAX = 64


def _bootstrap_core(samples, key, prev, *, statistic, n_resamples, paired, method,
                    alternative, confidence_level):
    keys = sciax.random.split(key, n_resamples)
    theta_b = _vmap_draws(statistic, samples, keys, paired)
    if prev is not None:
        theta_b = snp.concatenate([prev, theta_b], axis=-1)
    theta_hat = _call(statistic, samples)
    alpha = (1.0 - confidence_level) / 2.0 if alternative == "two-sided" \
        else 1.0 - confidence_level
    a_lo, a_hi = alpha, 1.0 - alpha
    if method == "bca":
        a_lo, a_hi = _bca_levels(samples, statistic, theta_hat, theta_b, alpha)
    lo = _percentile(theta_b, 100.0 * snp.asarray(a_lo))
    hi = _percentile(theta_b, 100.0 * snp.asarray(a_hi))
    if method == "basic":
        lo, hi = 2.0 * theta_hat - hi, 2.0 * theta_hat - lo
    if alternative == "less":
        lo = snp.full_like(lo, -snp.inf)
    elif alternative == "greater":
        hi = snp.full_like(hi, snp.inf)
    se = snp.std(theta_b, ddof=1, axis=0)
    return lo, hi, theta_b, se


# elements of resampled data per block of resamples (64 KiB of float64: at 256
# KiB, XLA splits the gather over threads and the block took 4x longer)
_BLOCK_ELEMENTS = 1 << 13


def _vmap_resamples(statistic, samples, idx):
    """The statistic of every resample (``idx[j]``, ``(r, n_j)`` indices into
    sample ``j``), ``vmap``-ed over blocks of resamples that ``lax.map`` runs
    one after another: the resampled data of a block stay in cache.  (One
    ``vmap`` over 10^4 resamples of 10^3 wrote and read back an 80 MB gather,
    five times the time of the statistic; padded resamples repeat the last.)"""
    r = int(idx[0].shape[0])
    per = sum(int(i.shape[1]) for i in idx)
    blk = max(1, min(r, _BLOCK_ELEMENTS // max(per, 1)))
    nblk = -(-r // blk)

    def stat_of(ix):
        return _call(statistic, [snp.take(s, i, mode="promise_in_bounds")
                                 for s, i in zip(samples, ix)])

    if nblk == 1:
        return sciax.vmap(stat_of)(list(idx))
    pad = nblk * blk - r
    blocks = []
    for i in idx:
        if pad:
            i = snp.concatenate([i, snp.broadcast_to(i[-1:], (pad,) + i.shape[1:])])
        blocks.append(snp.reshape(i, (nblk, blk) + i.shape[1:]))
    out = lax.map(lambda b: sciax.vmap(stat_of)(list(b)), blocks)
    return snp.reshape(out, (nblk * blk,) + out.shape[2:])[:r]


# indices per block of resamples drawn inside the block loop (on 10^4 resamples
# of 10^3: 2**14 -> 56-64 ms CPU, 2**17 -> 49-51, 2**19 -> 47-49)
_DRAW_BLOCK_ELEMENTS = 1 << 17


def _vmap_draws(statistic, samples, keys, paired):
    """The statistic of the resample of every key, drawn and evaluated in
    blocks of resamples under ``lax.map``.

    Each block's indices are drawn inside a ``cond`` whose two branches are
    the same draw: the conditional is a fusion barrier.  Without it XLA fuses
    the threefry hash into its consumers: into the gather (whose loop it does
    not vectorise) or, with two indices per word, once per half, so the
    saving of half the hash was lost.  The block's indices stay in cache; the
    10^7 indices of 10^4 resamples of 10^3 are never all in memory."""
    sizes = tuple(int(s.shape[0]) for s in samples)
    r = int(keys.shape[0])
    per = sizes[0] if paired else sum(sizes)
    blk = max(1, min(r, _DRAW_BLOCK_ELEMENTS // max(per, 1)))
    nblk = -(-r // blk)
    pad = nblk * blk - r
    if pad:
        keys = snp.concatenate([keys, snp.broadcast_to(keys[-1:],
                                                       (pad,) + keys.shape[1:])])
    keys = snp.reshape(keys, (nblk, blk) + keys.shape[1:])

    def draw(kb):
        return sciax.vmap(lambda k: _draw_one(k, sizes, paired))(kb)

    def block(kb):
        # a predicate XLA cannot fold; both branches draw the same indices
        pred = snp.ravel(kb)[0] != np.asarray(0x9E3779B9, kb.dtype)
        idx = lax.cond(pred, draw, draw, kb)
        idx = list(idx) * (len(samples) if len(idx) == 1 else 1)
        def stat_of(ix):
            return _call(statistic, [snp.take(s, i, mode="promise_in_bounds")
                                     for s, i in zip(samples, ix)])

        return sciax.vmap(stat_of)(idx)

    out = lax.map(block, keys)
    return snp.reshape(out, (nblk * blk,) + out.shape[2:])[:r]


_bootstrap_core_jit = sciax.jit(
    _bootstrap_core, static_argnames=("statistic", "n_resamples", "paired", "method",
                                      "alternative", "confidence_level"))


def _percentile(theta_b, q):
    return snp.percentile(theta_b, q, axis=0)


def _bca_levels(samples, statistic, theta_hat, theta_b, alpha):
    # bias correction: the fraction of resampled statistics below the estimate
    z0 = _sf.ndtri(snp.mean(theta_b < theta_hat, axis=0))
    # acceleration from the jackknife (one sample, or paired samples, as SciPy);
    # row i of idx is 0..n-1 without i
    n = samples[0].shape[0]
    j = snp.arange(n - 1)[None, :]
    idx = j + (j >= snp.arange(n)[:, None])

    theta_j = _vmap_resamples(statistic, samples, [idx] * len(samples))
    d = snp.mean(theta_j, axis=0) - theta_j
    accel = snp.sum(d**3, axis=0) / (6.0 * snp.sum(d**2, axis=0) ** 1.5)
    z_lo, z_hi = _sf.ndtri(alpha), _sf.ndtri(1.0 - alpha)

    def level(z):
        return _sf.ndtr(z0 + (z0 + z) / (1.0 - accel * (z0 + z)))

    return level(z_lo), level(z_hi)


def permutation_test(data, statistic, *, permutation_type="independent",
                     vectorized=None, n_resamples=9999, batch=None,
                     alternative="two-sided", axis=0, random_state=None):
    """sciax implementation of :func:`scipy.stats.permutation_test`.

    Random permutations drawn with :mod:`sciax.random` keys, ``vmap``-ed over
    all resamples; ``permutation_type`` ``'independent'`` (pool and split),
    ``'pairings'`` (shuffle each sample but the first) or ``'samples'`` (swap
    paired observations between samples).  Differences from SciPy: the
    null distribution is always the randomised one (no exact enumeration when
    ``n_resamples`` exceeds the number of distinct permutations), and the
    p-value counts the observed statistic once (``(k + 1)/(n + 1)``).

    Examples
    --------
    >>> from sciax.stats import permutation_test
    >>> x, y = snp.arange(8.0), snp.arange(8.0) + 6.0
    >>> stat = lambda a, b: snp.mean(a) - snp.mean(b)
    >>> res = permutation_test((x, y), stat, n_resamples=999, random_state=0)
    >>> print(float(res.statistic), bool(res.pvalue < 0.01))
    -6.0 True
    """
    if permutation_type not in ("independent", "pairings", "samples"):
        raise ValueError(f"permutation_type must be 'independent', 'pairings' or "
                         f"'samples', got {permutation_type!r}")
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"alternative must be 'two-sided', 'less' or 'greater', got "
                         f"{alternative!r}")
    samples = _samples(data, axis)
    sizes = [int(s.shape[0]) for s in samples]
    if permutation_type != "independent" and len(set(sizes)) != 1:
        raise ValueError(f"permutation_type={permutation_type!r} needs samples of "
                         "equal length")
    key = _as_key(random_state)
    keys = sciax.random.split(key, int(n_resamples))
    pooled = snp.concatenate(samples)
    bounds = np.cumsum([0] + sizes)
    stacked = snp.stack(samples) if permutation_type != "independent" else None

    def one(k):
        if permutation_type == "independent":
            perm = sciax.random.permutation(k, pooled.shape[0])
            p = pooled[perm]
            parts = [p[bounds[j]:bounds[j + 1]] for j in range(len(sizes))]
        elif permutation_type == "pairings":
            ks = sciax.random.split(k, len(samples))
            parts = [samples[0]] + [s[sciax.random.permutation(ks[j + 1], s.shape[0])]
                                    for j, s in enumerate(samples[1:])]
        else:
            # each observation index gets its own permutation of the samples
            ks = sciax.random.split(k, sizes[0])
            order = sciax.vmap(lambda kk: sciax.random.permutation(kk, len(samples)))(ks)
            permuted = snp.take_along_axis(stacked, order.T, axis=0)
            parts = [permuted[j] for j in range(len(samples))]
        return _call(statistic, parts)

    null = sciax.vmap(one)(keys)
    observed = _call(statistic, samples)
    # SciPy's relative tolerance for ties between null and observed statistics
    gamma = snp.abs(1e-14 * observed)
    n = null.shape[0]
    less = (snp.sum(null <= observed + gamma, axis=0) + 1.0) / (n + 1.0)
    greater = (snp.sum(null >= observed - gamma, axis=0) + 1.0) / (n + 1.0)
    if alternative == "less":
        p = less
    elif alternative == "greater":
        p = greater
    else:
        p = snp.minimum(2.0 * snp.minimum(less, greater), 1.0)
    return PermutationTestResult(observed, p, null)


class MonteCarloTestResult(NamedTuple):
    statistic: Any
    pvalue: Any
    null_distribution: Any


def monte_carlo_test(data, rvs, statistic, *, vectorized=None, n_resamples=9999,
                     batch=None, alternative="two-sided", axis=0, random_state=None):
    """sciax implementation of :func:`scipy.stats.monte_carlo_test`.

    Parameters
    ----------
    data : array_like or sequence of array_like
        The sample(s); a sequence when ``rvs`` is one.
    rvs : callable or sequence of callables
        Samplers of the null distribution(s), called as ``rvs(size=(n_resamples,
        n), random_state=key)`` with a :mod:`sciax.random` key, e.g. the
        ``rvs`` method of a sciax.stats distribution (``functools.partial``
        fixes its parameters).
    statistic : callable
        ``statistic(*samples, axis=-1)`` when it takes ``axis`` (or
        ``vectorized=True``); otherwise a function of 1-D samples, ``vmap``-ed
        over the resamples.
    vectorized : bool, optional
    n_resamples : int
    batch : int, optional
        Accepted and ignored: all resamples are drawn and evaluated at once.
    alternative : {'two-sided', 'less', 'greater'}
    axis : int
    random_state : key or int
        A :mod:`sciax.random` key or an integer seed (required).

    Returns
    -------
    MonteCarloTestResult
        ``statistic``, ``pvalue`` (SciPy's ``(k + 1) / (n_resamples + 1)``
        with its relative tolerance ``100 eps`` for ties) and
        ``null_distribution``.

    Notes
    -----
    Sample ``j`` of every resample comes from one call of ``rvs[j]`` with
    ``split(key, m)[j]`` (``key`` itself for one sample), so resample ``i``
    is row ``i`` of that draw; the statistic is evaluated on all rows at once,
    vectorised or by ``vmap``.  Given the same draws (SciPy's ``rvs``
    returning them), the p-value is SciPy's exactly.  *Transformations*:
    jit (``statistic``, ``rvs`` and ``n_resamples`` static) and vmap over
    data.

    Examples
    --------
    >>> import functools
    >>> from sciax.stats import monte_carlo_test, norm, skew
    >>> x = snp.array([0.1, -0.5, 2.2, 0.3, 1.7, 3.1, 0.4, 2.6, 1.2, 4.0])
    >>> res = monte_carlo_test(x, norm.rvs, skew, n_resamples=999, random_state=0)
    >>> print(round(float(res.statistic), 6), res.null_distribution.shape)
    0.261944 (999,)
    >>> print(bool(0.0 < res.pvalue <= 1.0))
    True
    """
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"alternative must be 'two-sided', 'less' or 'greater', got "
                         f"{alternative!r}")
    if not isinstance(rvs, (tuple, list)):
        rvs, data = (rvs,), (data,)
    if not all(callable(r) for r in rvs):
        raise TypeError("`rvs` must be callable or sequence of callables.")
    if not isinstance(data, (tuple, list)) or len(data) != len(rvs):
        raise ValueError("If `rvs` is a sequence, `len(rvs)` must equal `len(data)`.")
    if not callable(statistic):
        raise TypeError("`statistic` must be callable.")
    n_resamples = int(n_resamples)
    if n_resamples <= 0:
        raise ValueError("`n_resamples` must be a positive integer.")
    if vectorized is None:
        try:
            vectorized = "axis" in inspect.signature(statistic).parameters
        except (TypeError, ValueError):
            vectorized = False
    samples = []
    for d in data:
        d = snp.asarray(d)
        d = d.astype(snp.result_type(d, 1.0))
        d = snp.reshape(d, (1,)) if d.ndim == 0 else snp.moveaxis(d, axis, -1)
        samples.append(d)
    batch_shape = np.broadcast_shapes(*(d.shape[:-1] for d in samples))
    samples = [snp.broadcast_to(d, batch_shape + d.shape[-1:]) for d in samples]
    if not vectorized and batch_shape:
        raise ValueError("a statistic without `axis` needs 1-D samples; vmap over "
                         "the other axes")
    key = _as_key(random_state)
    static = dict(rvs=tuple(rvs), statistic=statistic, vectorized=bool(vectorized),
                  n_resamples=n_resamples, alternative=alternative)
    try:
        hash(tuple(static.values()))
        core = _monte_carlo_core_jit
    except TypeError:
        core = _monte_carlo_core
    observed, p, null = core(samples, key, **static)
    return MonteCarloTestResult(observed, p, null)


def _monte_carlo_core(samples, key, *, rvs, statistic, vectorized, n_resamples,
                      alternative):
    keys = [key] if len(samples) == 1 else list(sciax.random.split(key, len(samples)))
    resamples = [r(size=(n_resamples, s.shape[-1]), random_state=k)
                 for r, s, k in zip(rvs, samples, keys)]
    if vectorized:
        observed = snp.asarray(statistic(*samples, axis=-1))
        null = snp.asarray(statistic(*resamples, axis=-1))
    else:
        observed = snp.asarray(statistic(*samples))
        null = sciax.vmap(lambda *r: snp.asarray(statistic(*r)))(*resamples)
    null = snp.reshape(null, (-1,) + (1,) * observed.ndim)
    eps = float(np.finfo(np.dtype(observed.dtype)).eps) * 100.0 \
        if snp.issubdtype(observed.dtype, snp.floating) else 0.0
    gamma = snp.abs(eps * observed)
    denom = n_resamples + 1.0
    less = (snp.sum(null <= observed + gamma, axis=0) + 1.0) / denom
    greater = (snp.sum(null >= observed - gamma, axis=0) + 1.0) / denom
    if alternative == "less":
        p = less
    elif alternative == "greater":
        p = greater
    else:
        p = 2.0 * snp.minimum(less, greater)
    return observed, snp.clip(p, 0.0, 1.0), null


_monte_carlo_core_jit = sciax.jit(
    _monte_carlo_core, static_argnames=("rvs", "statistic", "vectorized", "n_resamples",
                                        "alternative"))


__all__ = ["ConfidenceInterval", "BootstrapResult", "PermutationTestResult",
           "MonteCarloTestResult", "bootstrap", "permutation_test", "monte_carlo_test"]
