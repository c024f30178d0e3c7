"""Trimmed, robust, geometric and circular descriptive statistics and the
one-dimensional Wasserstein/energy distances, with SciPy's signatures.

Trimming (``limits``) masks values instead of dropping them, so every
function keeps static shapes and runs under ``jit`` and ``vmap``; all are
differentiable in the data where the statistic is continuous.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import sciax.numpy as snp

from sciax.stats._stats_py import _arr, rankdata


class ModeResult(NamedTuple):
    mode: Any
    count: Any


def _last(a, axis):
    a = _arr(a)
    if axis is None:
        return snp.ravel(a)
    return snp.moveaxis(a, axis, -1)


def _keep(x, keepdims):
    return snp.expand_dims(x, -1) if keepdims else x


def _nan_policy(nan_policy):
    # NaNs propagate through every computation here; dropping them ('omit')
    # changes shapes and checking them ('raise') needs concrete data
    if nan_policy != "propagate":
        raise NotImplementedError(f"nan_policy={nan_policy!r}: sciax.stats supports "
                                  "only 'propagate'")


def _inside(a, limits, inclusive):
    if limits is None:
        return snp.ones(a.shape, bool)
    lo, hi = limits
    li, hi_inc = inclusive
    mask = snp.ones(a.shape, bool)
    if lo is not None:
        mask = mask & ((a >= lo) if li else (a > lo))
    if hi is not None:
        mask = mask & ((a <= hi) if hi_inc else (a < hi))
    return mask


def _masked_moments(a, mask, ddof):
    n = snp.sum(mask, axis=-1).astype(a.dtype)
    mean = snp.sum(snp.where(mask, a, 0.0), axis=-1) / n
    dev = snp.where(mask, a - mean[..., None], 0.0)
    return n, mean, snp.sum(dev * dev, axis=-1) / (n - ddof)


def tmean(a, limits=None, inclusive=(True, True), axis=None, *,
          nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.tmean`, the mean of the
    values inside ``limits``.

    Examples
    --------
    >>> from sciax.stats import tmean
    >>> print(float(tmean(snp.arange(20.0), (3, 17))))
    10.0
    """
    _nan_policy(nan_policy)
    a = _last(a, axis)
    n, mean, _ = _masked_moments(a, _inside(a, limits, inclusive), 0)
    return _keep(mean, keepdims)


def tvar(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *,
         nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.tvar` (``ddof=1``).

    Examples
    --------
    >>> from sciax.stats import tvar
    >>> print(round(float(tvar(snp.arange(20.0), (3, 17))), 6))
    20.0
    """
    _nan_policy(nan_policy)
    a = _last(a, axis)
    _, _, var = _masked_moments(a, _inside(a, limits, inclusive), ddof)
    return _keep(var, keepdims)


def tstd(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *,
         nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.tstd`.

    Examples
    --------
    >>> from sciax.stats import tstd
    >>> print(round(float(tstd(snp.arange(20.0), (3, 17))), 6))
    4.472136
    """
    _nan_policy(nan_policy)
    return snp.sqrt(tvar(a, limits, inclusive, axis, ddof, keepdims=keepdims))


def tsem(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *,
         nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.tsem`, the trimmed standard
    error of the mean.

    Examples
    --------
    >>> from sciax.stats import tsem
    >>> print(round(float(tsem(snp.arange(20.0), (3, 17))), 6))
    1.154701
    """
    _nan_policy(nan_policy)
    a = _last(a, axis)
    n, _, var = _masked_moments(a, _inside(a, limits, inclusive), ddof)
    return _keep(snp.sqrt(var / n), keepdims)


def tmin(a, lowerlimit=None, axis=0, inclusive=True, nan_policy="propagate", *,
         keepdims=False):
    """sciax implementation of :func:`scipy.stats.tmin`, the minimum of the
    values at or above ``lowerlimit``.

    Examples
    --------
    >>> from sciax.stats import tmin
    >>> print(float(tmin(snp.arange(20.0), 13)))
    13.0
    """
    _nan_policy(nan_policy)
    a = _last(a, axis)
    mask = _inside(a, (lowerlimit, None), (inclusive, True))
    return _keep(snp.min(snp.where(mask, a, snp.inf), axis=-1), keepdims)


def tmax(a, upperlimit=None, axis=0, inclusive=True, nan_policy="propagate", *,
         keepdims=False):
    """sciax implementation of :func:`scipy.stats.tmax`.

    Examples
    --------
    >>> from sciax.stats import tmax
    >>> print(float(tmax(snp.arange(20.0), 13)))
    13.0
    """
    _nan_policy(nan_policy)
    a = _last(a, axis)
    mask = _inside(a, (None, upperlimit), (True, inclusive))
    return _keep(snp.max(snp.where(mask, a, -snp.inf), axis=-1), keepdims)


def variation(a, axis=0, nan_policy="propagate", ddof=0, *, keepdims=False):
    """sciax implementation of :func:`scipy.stats.variation`, the
    coefficient of variation ``std / mean``.

    Examples
    --------
    >>> from sciax.stats import variation
    >>> print(round(float(variation(snp.array([1.0, 2.0, 3.0, 4.0, 5.0]))), 6))
    0.471405
    """
    _nan_policy(nan_policy)
    a = _last(a, axis)
    return _keep(snp.std(a, axis=-1, ddof=ddof) / snp.mean(a, axis=-1), keepdims)


def median_abs_deviation(x, axis=0, center=None, scale=1.0, nan_policy="propagate"):
    """sciax implementation of :func:`scipy.stats.median_abs_deviation`
    (``scale='normal'`` divides by the normal distribution's MAD, 0.6745).

    Examples
    --------
    >>> from sciax.stats import median_abs_deviation
    >>> print(float(median_abs_deviation(snp.array([1.0, 2.0, 3.0, 4.0, 100.0]))))
    1.0
    """
    _nan_policy(nan_policy)
    if isinstance(scale, str):
        if scale.lower() != "normal":
            raise ValueError(f"{scale} is not a valid scale value.")
        scale = 0.6744897501960817  # ndtri(3/4)
    x = _last(x, axis)
    center = snp.median if center is None else center
    med = center(x, axis=-1)
    return snp.median(snp.abs(x - snp.expand_dims(med, -1)), axis=-1) / scale


def zmap(scores, compare, axis=0, ddof=0, nan_policy="propagate"):
    """sciax implementation of :func:`scipy.stats.zmap`: z-scores of
    ``scores`` against the mean and standard deviation of ``compare``.

    Examples
    --------
    >>> from sciax.stats import zmap
    >>> print(np.round(zmap(snp.array([1.0, 2.0]), snp.array([0.0, 2.0, 4.0])), 6))
    [-0.612372  0.      ]
    """
    _nan_policy(nan_policy)
    scores, compare = _arr(scores), _arr(compare)
    mn = snp.mean(compare, axis=axis, keepdims=True)
    sd = snp.std(compare, axis=axis, ddof=ddof, keepdims=True)
    return (scores - mn) / sd


def gzscore(a, *, axis=0, ddof=0, nan_policy="propagate"):
    """sciax implementation of :func:`scipy.stats.gzscore`, the z-scores of
    ``log(a)``.

    Examples
    --------
    >>> from sciax.stats import gzscore
    >>> print(np.round(gzscore(snp.array([1.0, 10.0, 100.0])), 6))
    [-1.224745  0.        1.224745]
    """
    _nan_policy(nan_policy)
    la = snp.log(_arr(a))
    return zmap(la, la, axis=axis, ddof=ddof)


def gstd(a, axis=0, ddof=1, *, keepdims=False, nan_policy="propagate"):
    """sciax implementation of :func:`scipy.stats.gstd`, the geometric
    standard deviation ``exp(std(log a))``.

    Examples
    --------
    >>> from sciax.stats import gstd
    >>> print(round(float(gstd(snp.array([1.0, 10.0, 100.0]))), 6))
    10.0
    """
    _nan_policy(nan_policy)
    la = _last(snp.log(_arr(a)), axis)
    return _keep(snp.exp(snp.std(la, axis=-1, ddof=ddof)), keepdims)


def _circ(samples, high, low, axis):
    x = _last(samples, axis)
    ang = (x - low) * (2.0 * math.pi / (high - low))
    return snp.mean(snp.sin(ang), axis=-1), snp.mean(snp.cos(ang), axis=-1)


def circmean(samples, high=2 * math.pi, low=0, axis=None, nan_policy="propagate", *,
             keepdims=False):
    """sciax implementation of :func:`scipy.stats.circmean`, the mean angle
    of samples on ``[low, high)``.

    Examples
    --------
    >>> from sciax.stats import circmean
    >>> print(round(float(circmean(snp.array([0.1, 2 * np.pi - 0.3]))), 6))
    6.183185
    """
    _nan_policy(nan_policy)
    s, c = _circ(samples, high, low, axis)
    res = snp.arctan2(s, c)
    res = snp.where(res < 0, res + 2.0 * math.pi, res)
    return _keep(res * (high - low) / (2.0 * math.pi) + low, keepdims)


def circvar(samples, high=2 * math.pi, low=0, axis=None, nan_policy="propagate", *,
            keepdims=False):
    """sciax implementation of :func:`scipy.stats.circvar`, ``1 - R`` with
    ``R`` the mean resultant length.

    Examples
    --------
    >>> from sciax.stats import circvar
    >>> print(round(float(circvar(snp.array([0.1, 0.2, 0.5]))), 6))
    0.014392
    """
    _nan_policy(nan_policy)
    s, c = _circ(samples, high, low, axis)
    return _keep(1.0 - snp.minimum(snp.hypot(s, c), 1.0), keepdims)


def circstd(samples, high=2 * math.pi, low=0, axis=None, nan_policy="propagate", *,
            normalize=False, keepdims=False):
    """sciax implementation of :func:`scipy.stats.circstd`,
    ``sqrt(-2 log R)`` (scaled to ``[low, high)`` unless ``normalize``).

    Examples
    --------
    >>> from sciax.stats import circstd
    >>> print(round(float(circstd(snp.array([0.1, 0.2, 0.5]))), 6))
    0.170275
    """
    _nan_policy(nan_policy)
    s, c = _circ(samples, high, low, axis)
    r = snp.minimum(snp.hypot(s, c), 1.0)
    res = snp.sqrt(-2.0 * snp.log(r))
    if not normalize:
        res = res * (high - low) / (2.0 * math.pi)
    return _keep(res, keepdims)


def mode(a, axis=0, nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.mode`: the most frequent
    value (the smallest of equally frequent ones) and its count.

    Examples
    --------
    >>> from sciax.stats import mode
    >>> r = mode(snp.array([3.0, 1.0, 3.0, 2.0, 1.0]))
    >>> print(float(r.mode), int(r.count))
    1.0 2
    """
    _nan_policy(nan_policy)
    a = snp.asarray(a)
    a = snp.ravel(a) if axis is None else snp.moveaxis(a, axis, -1)
    s = snp.sort(a, axis=-1)
    counts = rankdata(s, "max", axis=-1) - rankdata(s, "min", axis=-1) + 1.0
    i = snp.argmax(counts, axis=-1)[..., None]
    m = snp.take_along_axis(s, i, axis=-1)[..., 0]
    cnt = snp.take_along_axis(counts, i, axis=-1)[..., 0].astype(snp.int64)
    return ModeResult(_keep(m, keepdims), _keep(cnt, keepdims))


def scoreatpercentile(a, per, limits=None, interpolation_method="fraction",
                      axis=None):
    """sciax implementation of :func:`scipy.stats.scoreatpercentile`
    (``interpolation_method`` ``'fraction'``, ``'lower'`` or ``'higher'``).

    Examples
    --------
    >>> from sciax.stats import scoreatpercentile
    >>> print(float(scoreatpercentile(snp.arange(1.0, 101.0), 50)))
    50.5
    """
    methods = {"fraction": "linear", "lower": "lower", "higher": "higher"}
    if interpolation_method not in methods:
        raise ValueError("interpolation_method can only be 'fraction', 'lower' or "
                         "'higher'")
    a = _arr(a)
    if limits is not None:
        raise NotImplementedError("scoreatpercentile: limits would change the "
                                  "sample's shape; trim the data first")
    return snp.percentile(a, snp.asarray(per, dtype=a.dtype), axis=axis,
                          method=methods[interpolation_method])


def percentileofscore(a, score, kind="rank", nan_policy="propagate"):
    """sciax implementation of :func:`scipy.stats.percentileofscore` (kinds
    ``'rank'``, ``'weak'``, ``'strict'``, ``'mean'``).

    Examples
    --------
    >>> from sciax.stats import percentileofscore
    >>> print(float(percentileofscore(snp.array([1.0, 2.0, 3.0, 4.0]), 3)))
    75.0
    """
    _nan_policy(nan_policy)
    a = snp.ravel(_arr(a))
    score = snp.asarray(score, dtype=a.dtype)
    n = a.shape[0]
    left = snp.sum(a < score[..., None], axis=-1).astype(a.dtype)
    right = snp.sum(a <= score[..., None], axis=-1).astype(a.dtype)
    if kind == "rank":
        return (left + right + (right > left)) * (50.0 / n)
    if kind == "strict":
        return left / n * 100.0
    if kind == "weak":
        return right / n * 100.0
    if kind == "mean":
        return (left + right) * (50.0 / n)
    raise ValueError("kind can only be 'rank', 'strict', 'weak' or 'mean'")


def _cdf_distance(p, u, v, u_w, v_w):
    u, v = snp.ravel(_arr(u)), snp.ravel(_arr(v))
    u_order, v_order = snp.argsort(u), snp.argsort(v)
    u_s, v_s = u[u_order], v[v_order]
    allv = snp.sort(snp.concatenate([u, v]))
    deltas = snp.diff(allv)
    u_idx = snp.searchsorted(u_s, allv[:-1], side="right")
    v_idx = snp.searchsorted(v_s, allv[:-1], side="right")

    def cdf(idx, order, w, n):
        if w is None:
            return idx / n
        w = snp.ravel(_arr(w))[order]
        cw = snp.concatenate([snp.zeros(1, w.dtype), snp.cumsum(w)])
        return cw[idx] / cw[-1]

    du = cdf(u_idx, u_order, u_w, u.shape[0]) - cdf(v_idx, v_order, v_w, v.shape[0])
    if p == 1:
        return snp.sum(snp.abs(du) * deltas)
    return snp.sqrt(snp.sum(du * du * deltas))


def wasserstein_distance(u_values, v_values, u_weights=None, v_weights=None):
    """sciax implementation of :func:`scipy.stats.wasserstein_distance` (the
    first Wasserstein distance between two 1-D empirical distributions).

    Examples
    --------
    >>> from sciax.stats import wasserstein_distance
    >>> print(float(wasserstein_distance(snp.array([0.0, 1.0, 3.0]), snp.array([5.0, 6.0, 8.0]))))
    5.0
    """
    return _cdf_distance(1, u_values, v_values, u_weights, v_weights)


def energy_distance(u_values, v_values, u_weights=None, v_weights=None):
    """sciax implementation of :func:`scipy.stats.energy_distance` between two
    1-D empirical distributions.

    Examples
    --------
    >>> from sciax.stats import energy_distance
    >>> print(round(float(energy_distance(snp.array([0.0]), snp.array([2.0]))), 6))
    2.0
    """
    return math.sqrt(2.0) * _cdf_distance(2, u_values, v_values, u_weights, v_weights)


__all__ = ["ModeResult", "tmean", "tvar", "tstd", "tsem", "tmin", "tmax",
           "variation", "median_abs_deviation", "zmap", "gzscore", "gstd",
           "circmean", "circvar", "circstd", "mode", "scoreatpercentile",
           "percentileofscore", "wasserstein_distance", "energy_distance"]
