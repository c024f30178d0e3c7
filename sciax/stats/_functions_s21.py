"""Sample statistics, quantiles, frequency tables, Bayesian intervals,
probability plots, empirical distribution functions and multidimensional
binned statistics that complete :mod:`scipy.stats`' list of functions
(issue 21), with SciPy's names, signatures and result objects (named tuples,
so they are pytrees).  The issue's hypothesis tests are in ``_tests_s21``,
re-exported at the end of this module.

Shapes follow SciPy's where they depend only on the input shapes, so these
functions run under ``jit`` and ``vmap``; where SciPy's output shape depends
on the data (``sigmaclip``'s clipped sample, ``ecdf``'s distinct values),
the function needs concrete data and says so.
"""
from __future__ import annotations

import functools
import math
from typing import Any, NamedTuple

import sciax
import sciax.numpy as snp
from sciax import lax, special

from sciax.stats import _sf
from sciax.stats._continuous import norm
from sciax.stats._continuous_extra import gengamma
from sciax.stats._continuous_special import invgamma, t as t_dist
from sciax.stats._stats_py import _arr, linregress, rankdata
from sciax.stats._tests_extra import binned_values, dim_bins
from sciax.stats._tests_more import ConfidenceInterval


# --- result objects ----------------------------------------------------------------


class CumfreqResult(NamedTuple):
    cumcount: Any
    lowerlimit: Any
    binsize: Any
    extrapoints: Any


class RelfreqResult(NamedTuple):
    frequency: Any
    lowerlimit: Any
    binsize: Any
    extrapoints: Any


class SigmaclipResult(NamedTuple):
    clipped: Any
    lower: Any
    upper: Any


class Mean(NamedTuple):
    statistic: Any
    minmax: Any


class Variance(NamedTuple):
    statistic: Any
    minmax: Any


class Std_dev(NamedTuple):  # noqa: N801 - SciPy's name
    statistic: Any
    minmax: Any


# --- helpers -----------------------------------------------------------------------


def _check_axis(ndim, axis, name):
    if axis is None:
        return None
    if isinstance(axis, bool) or not isinstance(axis, int):
        try:
            axis = int(axis.__index__())
        except (AttributeError, TypeError):
            raise TypeError(f"{name}: axis must be an integer or None, got "
                            f"{axis!r}") from None
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(f"{name}: axis {axis} is out of bounds for an array of "
                         f"dimension {ndim}")
    return axis % max(ndim, 1)


def _to_last(a, axis, name):
    """``a`` as floats with the sample along the last axis, plus the
    normalised axis (None when ``a`` was ravelled)."""
    a = _arr(a)
    ax = _check_axis(a.ndim, axis, name)
    if ax is None or a.ndim == 0:
        return snp.ravel(a), None, a.ndim
    return snp.moveaxis(a, ax, -1), ax, a.ndim


def _keepdims(x, ax, ndim, keepdims):
    """Put the reduced axis back (SciPy's ``keepdims=True``)."""
    if not keepdims:
        return x
    if ax is None:
        return snp.reshape(x, x.shape + (1,) * max(ndim, 1))
    return _insert_axis(x, ax, ndim)


def _insert_axis(x, ax, ndim):
    # x has the batch axes of the input (ndim - 1 of them) possibly behind
    # leading axes of its own (e.g. one per requested order)
    lead = x.ndim - (ndim - 1)
    return snp.expand_dims(x, lead + ax)


def _nan_policy(nan_policy, name):
    if nan_policy not in ("propagate", "omit", "raise"):
        raise ValueError(f"{name}: nan_policy must be 'propagate', 'omit' or 'raise', "
                         f"got {nan_policy!r}")
    # dropping NaNs changes shapes and checking for them needs concrete data
    if nan_policy != "propagate":
        raise NotImplementedError(f"{name}: nan_policy={nan_policy!r} is not "
                                  "supported; sciax.stats supports only 'propagate'")


def _concrete(fn, name, *args):
    try:
        return fn(*args)
    except (IndexError, TypeError) as e:
        raise TypeError(f"{name} returns an array whose length depends on the data "
                        "values, so it needs concrete data (it cannot run under "
                        "sciax.jit or vmap)") from e


# --- cumulants and moments ---------------------------------------------------------


def _power_sums(a, n):
    return [None] + [snp.sum(a**k, axis=-1) for k in range(1, n + 1)]


def _kstat_last(a, n):
    big_n = float(a.shape[-1])
    s = _power_sums(a, n)
    if n == 1:
        return s[1] / big_n
    if n == 2:
        return (big_n * s[2] - s[1] ** 2) / (big_n * (big_n - 1.0))
    if n == 3:
        return ((2.0 * s[1] ** 3 - 3.0 * big_n * s[1] * s[2] + big_n * big_n * s[3])
                / (big_n * (big_n - 1.0) * (big_n - 2.0)))
    return ((-6.0 * s[1] ** 4 + 12.0 * big_n * s[1] ** 2 * s[2]
             - 3.0 * big_n * (big_n - 1.0) * s[2] ** 2
             - 4.0 * big_n * (big_n + 1.0) * s[1] * s[3]
             + big_n * big_n * (big_n + 1.0) * s[4])
            / (big_n * (big_n - 1.0) * (big_n - 2.0) * (big_n - 3.0)))


def kstat(data, n=2, *, axis=None, nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.kstat`: the unique
    symmetric unbiased estimator of the ``n``-th cumulant (k-statistic).

    Parameters
    ----------
    data : array_like
    n : {1, 2, 3, 4}
    axis : int or None
        ``None`` (the default, as SciPy) ravels ``data``.
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    kstat : Array
        NaN where there are too few observations (``n`` of them or fewer
        for ``n >= 2``), as SciPy.

    Raises
    ------
    ValueError
        ``n`` outside 1..4, or an axis out of bounds.

    Notes
    -----
    The power-sum formulas of SciPy.  *Transformations*: jit, vmap, and
    differentiable in ``data`` (a polynomial of it).

    Examples
    --------
    >>> from sciax.stats import kstat
    >>> x = snp.array([1.0, 2.5, 3.0, 4.5, 7.0, 2.0])
    >>> print(round(float(kstat(x, 2)), 6), round(float(kstat(x, 3)), 6))
    4.566667 10.558333
    """
    if n not in (1, 2, 3, 4):
        raise ValueError("'n' must satisfy 1 <= n <= 4.")
    _nan_policy(nan_policy, "kstat")
    a, ax, ndim = _to_last(data, axis, "kstat")
    return _keepdims(_kstat_last(a, int(n)), ax, ndim, keepdims)


def kstatvar(data, n=2, *, axis=None, nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.kstatvar`: an unbiased
    estimator of the variance of the k-statistic ``kstat(data, n)``.

    Parameters
    ----------
    data : array_like
    n : {1, 2}
    axis : int or None
    nan_policy : {'propagate'}
    keepdims : bool

    Raises
    ------
    ValueError
        ``n`` other than 1 or 2.

    Notes
    -----
    *Transformations*: jit, vmap, and differentiable in ``data``.

    Examples
    --------
    >>> from sciax.stats import kstatvar
    >>> x = snp.array([1.0, 2.5, 3.0, 4.5, 7.0, 2.0])
    >>> print(round(float(kstatvar(x, 1)), 6))
    0.761111
    """
    if n not in (1, 2):
        raise ValueError("Only n=1 or n=2 supported.")
    _nan_policy(nan_policy, "kstatvar")
    a, ax, ndim = _to_last(data, axis, "kstatvar")
    big_n = float(a.shape[-1])
    k2 = _kstat_last(a, 2)
    if n == 1:
        out = k2 / big_n
    else:
        k4 = _kstat_last(a, 4)
        out = (2.0 * big_n * k2 * k2 + (big_n - 1.0) * k4) / (big_n * (big_n + 1.0))
    return _keepdims(out, ax, ndim, keepdims)


@functools.lru_cache(maxsize=32)
def _lmoment_tables(n, nmom):
    """Host tables, exact in integers: ``w[r, j] = C(j, r) / C(n-1, r) / n``
    (the probability-weighted moment ``b_r`` as a dot with the sorted
    sample) and the shifted-Legendre coefficients ``p[r, k]``."""
    w = [[(math.comb(j, r) / math.comb(n - 1, r) / n) if r < n else 0.0
          for j in range(n)] for r in range(nmom)]
    p = [[(-1) ** (r - k) * math.comb(r, k) * math.comb(r + k, k) if k <= r else 0
          for k in range(nmom)] for r in range(nmom)]
    return w, p


def lmoment(sample, order=None, *, axis=0, sorted=False, standardize=True,  # noqa: A002
            nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.lmoment`: unbiased sample
    L-moments (Hosking's), standardised beyond the second (L-skewness,
    L-kurtosis, ...) unless ``standardize=False``.

    Parameters
    ----------
    sample : array_like
    order : int or sequence of int, optional
        Positive orders; ``[1, 2, 3, 4]`` by default.  A sequence puts the
        orders along a new first axis, as SciPy.
    axis : int or None
    sorted : bool
        Whether ``sample`` is already sorted along ``axis``.
    standardize : bool
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    lmoments : Array
        NaN for orders above the number of observations.

    Raises
    ------
    ValueError
        Non-positive or non-integer orders.

    Notes
    -----
    ``l_{r+1} = sum_k p*_{rk} b_k``, with ``b_k`` the probability-weighted
    moments of the sorted sample; the weights depend only on the static
    sample size and are exact rationals computed once on the host.
    *Transformations*: jit, vmap, and differentiable in ``sample`` (sorting
    is piecewise linear).

    Examples
    --------
    >>> from sciax.stats import lmoment
    >>> x = snp.array([2.0, 3.5, 1.0, 7.0, 4.0, 5.5])
    >>> print(np.round(lmoment(x), 6))
    [3.833333 1.366667 0.060976 0.085366]
    """
    _nan_policy(nan_policy, "lmoment")
    orders = [1, 2, 3, 4] if order is None else order
    scalar = not isinstance(orders, (list, tuple)) and snp.ndim(orders) == 0
    try:
        flat = [orders] if scalar else list(orders)
        ints = [int(o) for o in flat]
    except TypeError:
        raise TypeError("lmoment: order must be concrete integers") from None
    if any(o != f or o < 1 for o, f in zip(ints, flat)):
        raise ValueError("`order` must be a scalar or a non-empty 1D array of "
                         "positive integers.")
    if not ints:
        raise ValueError("`order` must be a scalar or a non-empty 1D array of "
                         "positive integers.")
    x, ax, ndim = _to_last(sample, axis, "lmoment")
    n = x.shape[-1]
    if not sorted:
        x = snp.sort(x, axis=-1)
    nmom = max(ints)
    w, p = _lmoment_tables(n, nmom)
    b = snp.einsum("rj,...j->r...", snp.asarray(w, dtype=x.dtype), x)
    lm = snp.einsum("rk,k...->r...", snp.asarray(p, dtype=x.dtype), b)
    if standardize and nmom > 2:
        lm = snp.concatenate([lm[:2], lm[2:] / lm[1]], axis=0)
    if n < nmom:
        nan_rows = snp.arange(nmom) >= n
        lm = snp.where(nan_rows.reshape((nmom,) + (1,) * (lm.ndim - 1)), snp.nan, lm)
    out = lm[ints[0] - 1] if scalar else lm[snp.asarray([o - 1 for o in ints])]
    return _keepdims(out, ax, ndim, keepdims)


def expectile(a, alpha=0.5, *, weights=None):
    """sciax implementation of :func:`scipy.stats.expectile`: the ``t``
    with ``alpha E[(X - t)_+] = (1 - alpha) E[(t - X)_+]`` under the
    (weighted) empirical distribution of ``a``.

    Parameters
    ----------
    a : array_like
        The sample (all elements).
    alpha : float
        The expectile level, in ``[0, 1]``; 0.5 gives the mean.
    weights : array_like, optional
        Broadcast to ``a``'s shape.

    Returns
    -------
    expectile : Array

    Raises
    ------
    ValueError
        ``alpha`` outside ``[0, 1]``.

    Notes
    -----
    The first-order condition is piecewise linear in ``t`` with kinks at
    the data, so the root is solved exactly on every segment between
    sorted observations and the segment that contains its own root is
    kept.  *Differences from SciPy*: SciPy finds the root with a secant
    iteration, whose result agrees with this exact one to about 1e-12
    relative.  *Transformations*: jit, vmap, and differentiable in ``a``,
    ``weights`` and ``alpha``.

    Examples
    --------
    >>> from sciax.stats import expectile
    >>> a = snp.array([1.0, 4.0, 2.0, -1.0])
    >>> print(round(float(expectile(a, alpha=0.8)), 6))
    2.571429
    """
    if not isinstance(alpha, sciax.Array) or alpha.ndim == 0:
        try:
            bad = not 0.0 <= float(alpha) <= 1.0
        except TypeError:  # traced alpha: no check
            bad = False
        if bad:
            raise ValueError("The expectile level alpha must be in the range [0, 1].")
    a = _arr(a)
    if weights is None:
        w = snp.ones(a.shape, a.dtype)
    else:
        w = snp.broadcast_to(snp.asarray(weights, dtype=a.dtype), a.shape)
    a, w = snp.ravel(a), snp.ravel(w)
    order = snp.argsort(a)
    x, w = a[order], w[order]
    # segment k: t between x[k-1] and x[k]; "lo" are the points at or below t
    zero = snp.zeros((1,), a.dtype)
    wx_lo = snp.concatenate([zero, snp.cumsum(w * x)])
    w_lo = snp.concatenate([zero, snp.cumsum(w)])
    wx_hi, w_hi = wx_lo[-1] - wx_lo, w_lo[-1] - w_lo
    t = (alpha * wx_hi + (1.0 - alpha) * wx_lo) / (alpha * w_hi + (1.0 - alpha) * w_lo)
    lo = snp.concatenate([snp.array([-snp.inf], a.dtype), x])
    hi = snp.concatenate([x, snp.array([snp.inf], a.dtype)])
    inside = (t >= lo) & (t <= hi)
    k = snp.argmax(inside)
    return t[k]


# --- quantiles ---------------------------------------------------------------------

_HF_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation",
               "interpolated_inverted_cdf", "hazen", "weibull", "linear",
               "median_unbiased", "normal_unbiased")
_Q_METHODS = _HF_METHODS + ("harrell-davis", "_lower", "_midpoint", "_higher",
                            "_nearest", "round_outward", "round_inward",
                            "round_nearest")


def _hf_m(method, p):
    return {"inverted_cdf": 0.0, "averaged_inverted_cdf": 0.0,
            "closest_observation": -0.5, "interpolated_inverted_cdf": 0.0,
            "hazen": 0.5, "weibull": p, "linear": 1.0 - p,
            "median_unbiased": p / 3.0 + 1.0 / 3.0,
            "normal_unbiased": p / 4.0 + 3.0 / 8.0}[method]


def _take(y, j):
    jj = snp.clip(j, 0, y.shape[-1] - 1).astype(snp.int32)
    return snp.take_along_axis(y, jj, axis=-1)


def _quantile_last(y, p, n, method, cw):
    """Quantiles ``p`` (last axis) of the sorted ``y`` (last axis), with
    ``n`` usable observations; ``cw`` the cumulative weights or None."""
    if method in _HF_METHODS:
        m = _hf_m(method, p)
        if cw is None:
            jg = p * n + m
            jp1 = snp.floor(jg)
            j = jp1 - 1.0
        else:
            total = snp.take_along_axis(cw, (n - 1).astype(snp.int32), axis=-1)
            jg = p * total + m
            jp1 = snp.sum(cw[..., None, :] <= jg[..., :, None], axis=-1).astype(y.dtype)
            j = snp.sum(cw[..., None, :] <= (jg - 1.0)[..., :, None],
                        axis=-1).astype(y.dtype)
        g = jg - snp.floor(jg)
        if method == "inverted_cdf":
            g = (g > 0).astype(y.dtype)
        elif method == "averaged_inverted_cdf":
            g = (1.0 + (g > 0).astype(y.dtype)) / 2.0
        elif method == "closest_observation":
            g = 1.0 - ((g == 0) & (snp.mod(j, 2.0) == 1.0)).astype(y.dtype)
        if method in _HF_METHODS[:3]:
            g = snp.where(jg < 0, 0.0, g)
        g = snp.where(j < 0, 0.0, g)
        j = snp.clip(j, 0.0, n - 1.0)
        jp1 = snp.clip(jp1, 0.0, n - 1.0)
        return (1.0 - g) * _take(y, j) + g * _take(y, jp1)
    if method == "harrell-davis":

        a = (p * (n + 1.0))[..., :, None]
        b = ((1.0 - p) * (n + 1.0))[..., :, None]
        i = snp.arange(y.shape[-1] + 1, dtype=y.dtype)
        cdf = special.betainc(a, b, snp.clip(i / n[..., None], 0.0, 1.0))
        wts = snp.diff(cdf, axis=-1)
        wts = snp.where(snp.isnan(wts), 0.0, wts)
        return snp.sum(wts * y[..., None, :], axis=-1)
    if method.startswith("round_"):
        ops = {"round_outward": (snp.floor, snp.ceil),
               "round_inward": (snp.ceil, snp.floor),
               "round_nearest": (snp.round, snp.round)}[method]
        j = snp.where(p < 0.5, ops[0](p * n), ops[1](n * p - 1.0))
        return _take(y, j)
    ij = p * (n - 1.0)
    if method == "_midpoint":
        return (_take(y, snp.floor(ij)) + _take(y, snp.ceil(ij))) / 2.0
    k = {"_lower": snp.floor, "_higher": snp.ceil, "_nearest": snp.round}[method](ij)
    return _take(y, k)


def _broadcast_but(shapes, axis):
    """Broadcast shapes on every axis but ``axis`` (negative), as SciPy's
    reducing functions do before putting ``axis`` last."""
    nd = max(len(s) for s in shapes)
    shapes = [(1,) * (nd - len(s)) + tuple(s) for s in shapes]
    rest = [s[:axis % nd] + s[axis % nd + 1:] for s in shapes]
    try:
        batch = _broadcast_shapes(rest)
    except ValueError:
        raise ValueError(f"shapes {shapes} cannot be broadcast except along "
                         f"axis {axis}") from None
    return nd, batch


def _broadcast_shapes(shapes):
    out = []
    for dims in zip(*shapes):
        big = max(dims)
        if any(d not in (1, big) for d in dims):
            raise ValueError("incompatible shapes")
        out.append(big)
    return tuple(out)


def quantile(x, p, *, method="linear", axis=0, nan_policy="propagate",
             keepdims=None, weights=None):
    """sciax implementation of :func:`scipy.stats.quantile`: sample
    quantiles with SciPy's broadcasting (``p`` broadcasts against ``x``
    except along ``axis``, which holds the quantiles).

    Parameters
    ----------
    x : array_like of real numbers
    p : array_like of float
        Probabilities in ``[0, 1]``; NaN results elsewhere, as SciPy.
    method : str
        Hyndman and Fan's nine (``'inverted_cdf'`` ... ``'normal_unbiased'``,
        default ``'linear'``), ``'harrell-davis'``, ``'round_outward'``,
        ``'round_inward'``, ``'round_nearest'`` and SciPy's private
        ``'_lower'``, ``'_higher'``, ``'_midpoint'``, ``'_nearest'``.
    axis : int or None
        ``None`` ravels both ``x`` and ``p``.
    nan_policy : {'propagate'}
    keepdims : bool or None
        ``None``: drop the axis when ``p`` has length 1 along it.
    weights : array_like, optional
        Frequency weights (Hyndman and Fan's methods only).

    Returns
    -------
    quantile : Array

    Raises
    ------
    ValueError
        An unknown method, an axis out of bounds, ``keepdims=False`` with
        several quantiles per slice, weights with a method that takes none.

    Notes
    -----
    *Transformations*: jit and vmap; differentiable in ``x`` (and ``p``)
    for the interpolating methods (4-9 and ``'harrell-davis'``).

    Examples
    --------
    >>> from sciax.stats import quantile
    >>> x = snp.array([[10.0, 8.0, 7.0, 5.0, 4.0], [0.0, 1.0, 2.0, 3.0, 5.0]])
    >>> print(quantile(x, 0.5, axis=-1))
    [7. 2.]
    >>> print(quantile(x, snp.array([0.25, 0.75]), axis=-1))
    [[5. 8.]
     [1. 3.]]
    """
    _nan_policy(nan_policy, "quantile")
    if method not in _Q_METHODS:
        raise ValueError(f"`method` must be one of {set(_Q_METHODS)}")
    if keepdims not in (None, True, False):
        raise ValueError("If specified, `keepdims` must be True or False.")
    if weights is not None and method not in _HF_METHODS:
        raise ValueError(f"`method='{method}'` does not support `weights`.")
    x = snp.asarray(x)
    if snp.issubdtype(x.dtype, snp.complexfloating) or x.dtype == bool:
        raise ValueError("`x` must have real dtype.")
    p = snp.asarray(p)
    if not snp.issubdtype(p.dtype, snp.floating):
        raise ValueError("`p` must have real floating dtype.")
    dt = snp.result_type(x, p, 1.0)
    x, p = x.astype(dt), p.astype(dt)
    ndim = max(x.ndim, p.ndim)
    axis_none = axis is None
    if axis_none:
        x, p, axis = snp.ravel(x), snp.ravel(p), 0
        if weights is not None:
            weights = snp.ravel(snp.asarray(weights))
    else:
        if isinstance(axis, bool) or int(axis) != axis:
            raise ValueError("`axis` must be an integer or None.")
        if axis >= ndim or axis < -ndim:
            raise ValueError("`axis` is not compatible with the shapes of the inputs.")
        axis = int(axis)
    nd = max(x.ndim, p.ndim)
    x = snp.reshape(x, (1,) * (nd - x.ndim) + x.shape)
    p = snp.reshape(p, (1,) * (nd - p.ndim) + p.shape)
    axis = axis % nd
    if x.shape[axis] == 0:
        x = snp.full(x.shape[:axis] + (1,) + x.shape[axis + 1:], snp.nan, dt)
    cw = None
    y = snp.moveaxis(x, axis, -1)
    pl = snp.moveaxis(p, axis, -1)
    _, batch = _broadcast_but([y.shape, pl.shape], -1)
    n_obs = y.shape[-1]
    if weights is None:
        y = snp.sort(y, axis=-1)
        n = snp.full(batch + (1,), float(n_obs), dt)
    else:
        wts = snp.asarray(weights).astype(dt)
        wts = snp.moveaxis(snp.broadcast_to(wts, x.shape) if wts.ndim <= x.ndim
                           else wts, axis, -1)
        y, wts = snp.broadcast_arrays(y, wts)
        zero = wts == 0
        y = snp.where(zero, snp.inf, y)
        idx = snp.argsort(y, axis=-1)
        y = snp.take_along_axis(y, idx, axis=-1)
        wts = snp.take_along_axis(wts, idx, axis=-1)
        n = float(n_obs) - snp.sum(zero, axis=-1, keepdims=True).astype(dt)
        n = snp.broadcast_to(n, batch + (1,))
        cw = snp.broadcast_to(snp.cumsum(wts, axis=-1), batch + (n_obs,))
    y = snp.broadcast_to(y, batch + (n_obs,))
    pl = snp.broadcast_to(pl, batch + (pl.shape[-1],))
    if keepdims is False and pl.shape[-1] != 1:
        raise ValueError("`keepdims` may be False only if the length of `p` along "
                         "`axis` is 1.")
    keep = (pl.shape[-1] != 1) if keepdims is None else keepdims
    bad_p = (pl > 1) | (pl < 0) | snp.isnan(pl)
    ps = snp.where(bad_p, 0.5, pl)
    res = _quantile_last(y, ps, n, method, cw)
    has_nan = snp.any(snp.isnan(y if weights is None else
                                snp.where(snp.isinf(y), 0.0, y)), axis=-1,
                      keepdims=True)
    res = snp.where(bad_p | has_nan, snp.nan, res)
    if axis_none and keep:
        res = snp.reshape(res, (1,) * (ndim - 1) + res.shape)
        axis = res.ndim - 1
    res = snp.moveaxis(res, -1, axis)
    if not keep:
        res = snp.squeeze(res, axis=axis)
    return res


# --- ties, trimming, transforms ----------------------------------------------------


def tiecorrect(rankvals):
    """sciax implementation of :func:`scipy.stats.tiecorrect`: the tie
    correction factor ``1 - sum(t^3 - t) / (n^3 - n)`` of Mann-Whitney U and
    Kruskal-Wallis H, from ranks (or any values: only ties matter).

    Notes
    -----
    *Transformations*: jit and vmap (ties are counted from sorted values
    with ``where``, no data-dependent shapes).

    Examples
    --------
    >>> from sciax.stats import tiecorrect
    >>> print(round(float(tiecorrect(snp.array([1.0, 2.5, 2.5, 4.0]))), 6))
    0.9
    """
    r = _arr(rankvals)
    r = snp.ravel(r)
    n = r.shape[0]
    if n < 2:
        return snp.asarray(1.0, dtype=r.dtype)
    counts = rankdata(r, "max") - rankdata(r, "min") + 1.0
    return 1.0 - snp.sum(counts * counts - 1.0) / (float(n) ** 3 - n)


def _trim_sorted(a, proportiontocut, axis, name):
    a = snp.asarray(a)
    if axis is None:
        a, axis = snp.ravel(a), 0
    axis = _check_axis(a.ndim, axis, name)
    if a.ndim == 0:
        raise ValueError(f"{name}: a must have at least one dimension")
    return a, axis, a.shape[axis]


def trimboth(a, proportiontocut, axis=0):
    """sciax implementation of :func:`scipy.stats.trimboth`: drop
    ``int(proportiontocut * n)`` of the smallest and of the largest values
    along ``axis``.

    Raises
    ------
    ValueError
        ``proportiontocut`` too big (nothing would remain).

    Notes
    -----
    *Differences from SciPy*: SciPy returns the kept values in
    ``numpy.partition``'s unspecified order; sciax returns them sorted.
    *Transformations*: jit, vmap, differentiable in ``a``.

    Examples
    --------
    >>> from sciax.stats import trimboth
    >>> print(trimboth(snp.array([5.0, 1.0, 9.0, 3.0, 7.0, 0.0, 8.0, 2.0]), 0.25))
    [2. 3. 5. 7.]
    """
    a, axis, nobs = _trim_sorted(a, proportiontocut, axis, "trimboth")
    lowercut = int(proportiontocut * nobs)
    uppercut = nobs - lowercut
    if lowercut > uppercut:
        raise ValueError("Proportion too big.")
    s = snp.sort(a, axis=axis)
    return lax.slice_in_dim(s, lowercut, uppercut, axis=axis)


def trim1(a, proportiontocut, tail="right", axis=0):
    """sciax implementation of :func:`scipy.stats.trim1`: drop the
    ``int(proportiontocut * n)`` largest (``tail='right'``) or smallest
    (``'left'``) values along ``axis``.

    Raises
    ------
    ValueError
        ``tail`` other than 'left' or 'right'.

    Notes
    -----
    *Differences from SciPy*: the kept values come back sorted (SciPy's
    order is ``numpy.partition``'s, unspecified); ``proportiontocut >= 1``
    returns an empty array of the input's other dimensions rather than a
    Python list.  *Transformations*: jit, vmap, differentiable in ``a``.

    Examples
    --------
    >>> from sciax.stats import trim1
    >>> print(trim1(snp.array([5.0, 1.0, 9.0, 3.0, 7.0]), 0.4, tail="left"))
    [5. 7. 9.]
    """
    a, axis, nobs = _trim_sorted(a, proportiontocut, axis, "trim1")
    if proportiontocut >= 1:
        return lax.slice_in_dim(a, 0, 0, axis=axis)
    if tail.lower() == "right":
        lowercut, uppercut = 0, nobs - int(proportiontocut * nobs)
    elif tail.lower() == "left":
        lowercut, uppercut = int(proportiontocut * nobs), nobs
    else:
        raise ValueError(f"tail must be 'left' or 'right', got {tail!r}")
    s = snp.sort(a, axis=axis)
    return lax.slice_in_dim(s, lowercut, uppercut, axis=axis)


def obrientransform(*samples):
    """sciax implementation of :func:`scipy.stats.obrientransform`: O'Brien's
    transform, whose one-way ANOVA tests equality of variances.

    Returns
    -------
    transformed : Array or tuple of Array
        One row per sample, stacked when the samples have equal shapes (as
        SciPy's 2-D array); a tuple of arrays otherwise (SciPy: an object
        array).

    Notes
    -----
    *Differences from SciPy*: SciPy checks that each transformed sample's
    mean equals its variance and raises ``ValueError('Lack of convergence
    ...')``; that identity holds algebraically, and checking it needs
    concrete data, so sciax skips it.  *Transformations*: jit, vmap and
    differentiable.

    Examples
    --------
    >>> from sciax.stats import obrientransform
    >>> print(np.round(obrientransform(snp.array([1.0, 2.0, 4.0, 7.0])), 4))
    [[ 8.6667  2.     -1.3333 18.6667]]
    """
    out = []
    for s in samples:
        a = _arr(s)
        if a.ndim == 0:
            raise ValueError("obrientransform: each sample must have at least one "
                             "dimension")
        n = float(a.shape[0])
        sq = (a - snp.mean(a, axis=0)) ** 2
        sumsq = snp.sum(sq, axis=0)
        out.append(((n - 1.5) * n * sq - 0.5 * sumsq) / ((n - 1.0) * (n - 2.0)))
    if out and all(o.shape == out[-1].shape for o in out):
        return snp.stack(out)
    return tuple(out)


# --- frequency tables and clipping -------------------------------------------------


def _histogram(a, numbins, defaultlimits, weights):
    a = snp.ravel(_arr(a))
    if numbins < 1 or int(numbins) != numbins:
        raise ValueError("numbins must be a positive integer")
    numbins = int(numbins)
    if defaultlimits is None:
        if a.size == 0:
            lo, hi = snp.asarray(0.0, a.dtype), snp.asarray(1.0, a.dtype)
        else:
            dmin, dmax = snp.min(a), snp.max(a)
            s = (dmax - dmin) / (2.0 * (numbins - 1.0))
            lo, hi = dmin - s, dmax + s
    else:
        lo, hi = (snp.asarray(v, dtype=a.dtype) for v in defaultlimits)
    w = None if weights is None else snp.ravel(snp.asarray(weights, dtype=a.dtype))
    hist, edges = snp.histogram(a, bins=numbins, range=(lo, hi), weights=w)
    extra = snp.sum((a < lo) | (a > hi))
    return hist.astype(a.dtype), lo, edges[1] - edges[0], extra


def cumfreq(a, numbins=10, defaultreallimits=None, weights=None):
    """sciax implementation of :func:`scipy.stats.cumfreq`: a cumulative
    frequency histogram of all elements of ``a``.

    Parameters
    ----------
    a : array_like
    numbins : int
        Static.
    defaultreallimits : (float, float), optional
        The histogram's range; by default the data range widened by half a
        bin on each side.
    weights : array_like, optional

    Returns
    -------
    CumfreqResult
        ``cumcount``, ``lowerlimit``, ``binsize``, ``extrapoints`` (the
        number of values outside the limits).

    Notes
    -----
    *Transformations*: jit and vmap (``numbins`` is static).

    Examples
    --------
    >>> from sciax.stats import cumfreq
    >>> r = cumfreq(snp.array([1.0, 4.0, 2.0, 1.0, 3.0, 1.0]), numbins=4)
    >>> print(r.cumcount, round(float(r.lowerlimit), 6), round(float(r.binsize), 6))
    [3. 4. 5. 6.] 0.5 1.0
    """
    h, lo, b, e = _histogram(a, numbins, defaultreallimits, weights)
    return CumfreqResult(snp.cumsum(h), lo, b, e)


def relfreq(a, numbins=10, defaultreallimits=None, weights=None):
    """sciax implementation of :func:`scipy.stats.relfreq`: a relative
    frequency histogram (counts divided by ``a.shape[0]``, as SciPy).

    Returns
    -------
    RelfreqResult
        ``frequency``, ``lowerlimit``, ``binsize``, ``extrapoints``.

    Notes
    -----
    *Transformations*: jit and vmap (``numbins`` is static).

    Examples
    --------
    >>> from sciax.stats import relfreq
    >>> r = relfreq(snp.array([2.0, 4.0, 1.0, 2.0, 3.0, 2.0]), numbins=4)
    >>> print(np.round(r.frequency, 6))
    [0.166667 0.5      0.166667 0.166667]
    """
    arr = snp.asarray(a)
    h, lo, b, e = _histogram(arr, numbins, defaultreallimits, weights)
    return RelfreqResult(h / (arr.shape[0] if arr.ndim else 1), lo, b, e)


@functools.partial(sciax.jit, static_argnames=())
def _sigmaclip_mask(c, low, high):
    def stats(mask):
        cnt = snp.sum(mask).astype(c.dtype)
        mean = snp.sum(snp.where(mask, c, 0.0)) / cnt
        std = snp.sqrt(snp.sum(snp.where(mask, (c - mean) ** 2, 0.0)) / cnt)
        return mean - std * low, mean + std * high

    def body(state):
        mask, _ = state
        lo, hi = stats(mask)
        new = mask & (c >= lo) & (c <= hi)
        return new, snp.sum(mask) != snp.sum(new)

    mask, _ = lax.while_loop(lambda s: s[1], body,
                             (snp.ones(c.shape, bool), snp.asarray(True)))
    lo, hi = stats(mask)
    return mask, lo, hi


def sigmaclip(a, low=4.0, high=4.0):
    """sciax implementation of :func:`scipy.stats.sigmaclip`: iteratively
    drop the values outside ``mean - low * std`` and ``mean + high * std``
    until none is dropped.

    Returns
    -------
    SigmaclipResult
        ``clipped`` (the kept values of the ravelled input, in order),
        ``lower`` and ``upper`` (the final bounds).

    Raises
    ------
    TypeError
        Under ``jit``/``vmap``: the length of ``clipped`` depends on the data.

    Notes
    -----
    The iteration runs as one compiled ``while_loop`` over a mask; only the
    final selection needs concrete values.  *Transformations*: needs
    concrete data (see Raises).

    Examples
    --------
    >>> from sciax.stats import sigmaclip
    >>> x = snp.concatenate([snp.linspace(9.5, 10.5, 31), snp.array([20.0])])
    >>> r = sigmaclip(x, 1.8, 1.8)
    >>> print(r.clipped.shape, round(float(r.lower), 6), round(float(r.upper), 6))
    (31,) 9.463344 10.536656
    """
    c = snp.ravel(_arr(a))
    mask, lo, hi = _sigmaclip_mask(c, snp.asarray(low, c.dtype),
                                   snp.asarray(high, c.dtype))
    clipped = _concrete(lambda: c[mask], "sigmaclip")
    return SigmaclipResult(clipped, lo, hi)


# --- Bayesian intervals ------------------------------------------------------------


def mvsdist(data):
    """sciax implementation of :func:`scipy.stats.mvsdist`: the posterior
    distributions of the mean, variance and standard deviation of normal
    data under Jeffreys' prior, as frozen distributions.

    Returns
    -------
    mdist, vdist, sdist : rv_frozen
        ``t(n - 1, loc=mean, scale=sqrt(C / (n - 1)))``,
        ``invgamma((n - 1) / 2, scale=n C / 2)`` and
        ``gengamma((n - 1) / 2, -2, scale=sqrt(n C / 2))`` with ``C`` the
        biased variance; normal approximations above 1000 observations,
        as SciPy.

    Raises
    ------
    ValueError
        Fewer than 2 observations.

    Notes
    -----
    *Transformations*: the distributions' methods run under jit and are
    differentiable in ``data``.

    Examples
    --------
    >>> from sciax.stats import mvsdist
    >>> m, v, s = mvsdist(snp.array([6.0, 9.0, 12.0, 7.0, 8.0, 8.0, 13.0]))
    >>> print(round(float(m.mean()), 6), round(float(v.mean()), 6))
    9.0 10.0
    """
    x = snp.ravel(_arr(data))
    n = x.shape[0]
    if n < 2:
        raise ValueError("Need at least 2 data-points.")
    xbar = snp.mean(x)
    c = snp.var(x)
    if n > 1000:
        return (norm(loc=xbar, scale=snp.sqrt(c / n)),
                norm(loc=c, scale=math.sqrt(2.0 / n) * c),
                norm(loc=snp.sqrt(c), scale=snp.sqrt(c / (2.0 * n))))
    fac, val = n * c / 2.0, (n - 1) / 2.0
    return (t_dist(n - 1.0, loc=xbar, scale=snp.sqrt(c / (n - 1.0))),
            invgamma(val, scale=fac),
            gengamma(val, -2.0, scale=snp.sqrt(fac)))


def bayes_mvs(data, alpha=0.9):
    """sciax implementation of :func:`scipy.stats.bayes_mvs`: posterior
    means and central ``alpha`` credible intervals of the mean, variance
    and standard deviation (see :func:`mvsdist`).

    Returns
    -------
    mean_cntr, var_cntr, std_cntr : Mean, Variance, Std_dev
        Each ``(statistic, minmax)`` with ``minmax = (low, high)``.

    Raises
    ------
    ValueError
        ``alpha`` outside ``(0, 1)``, or fewer than 2 observations.

    Notes
    -----
    *Transformations*: jit and differentiable in ``data`` (the intervals
    are quantiles of t, inverse-gamma and generalised-gamma laws, whose
    parameters are smooth in the data).

    Examples
    --------
    >>> from sciax.stats import bayes_mvs
    >>> m, v, s = bayes_mvs(snp.array([6.0, 9.0, 12.0, 7.0, 8.0, 8.0, 13.0]))
    >>> print(round(float(m.minmax[0]), 6), round(float(m.minmax[1]), 6))
    7.10365 10.89635
    """
    if snp.size(data) < 2:
        raise ValueError("Need at least 2 data-points.")
    if alpha >= 1 or alpha <= 0:
        raise ValueError(f"0 < alpha < 1 is required, but alpha={alpha!r} was given.")
    m, v, s = mvsdist(data)
    return (Mean(m.mean(), tuple(m.interval(alpha))),
            Variance(v.mean(), tuple(v.interval(alpha))),
            Std_dev(s.mean(), tuple(s.interval(alpha))))



# --- probability plots -------------------------------------------------------------


def _order_statistic_medians(n):
    # Filliben's estimate, as SciPy's _calc_uniform_order_statistic_medians
    last = 0.5 ** (1.0 / n)
    mid = [(i - 0.3175) / (n + 0.365) for i in range(2, n)]
    return [1.0 - last] + mid + [last] if n > 1 else [last]


def probplot(x, sparams=(), dist="norm", fit=True, plot=None, rvalue=False):
    """sciax implementation of :func:`scipy.stats.probplot`: ordered data
    against theoretical quantiles, with a least-squares line.

    Parameters
    ----------
    x : array_like
        The sample (all elements).
    sparams : tuple or float
        Shape parameters of ``dist``.
    dist : str or distribution
        A sciax.stats distribution name or an object with ``ppf``.
    fit : bool
        Whether to fit a line (and return its slope, intercept and r).
    plot : object, optional
        Something with matplotlib's ``plot`` (and ``set_title`` /
        ``title``) methods; needs concrete data.
    rvalue : bool
        Print ``R^2`` on the plot.

    Returns
    -------
    (osm, osr), (slope, intercept, r)
        ``(osm, osr)`` only when ``fit=False``.

    Notes
    -----
    The plotting positions are Filliben's order-statistic medians of the
    uniform distribution mapped through ``dist.ppf``.  *Transformations*:
    jit and vmap; differentiable in ``x`` and ``sparams``.

    Examples
    --------
    >>> from sciax.stats import probplot
    >>> (osm, osr), (slope, intercept, r) = probplot(snp.array([0.3, -1.1, 0.8, 2.0, -0.2]))
    >>> print(np.round(osm, 6))
    [-1.128998 -0.485653  0.        0.485653  1.128998]
    >>> print(round(float(slope), 6), round(float(r), 6))
    1.319285 0.993043
    """
    x = _arr(x)
    if x.size == 0:
        return ((x, x), (snp.nan, snp.nan, 0.0)) if fit else (x, x)
    n = x.size
    if isinstance(dist, str):
        import sciax.stats as stats  # cycle: the package imports this module

        name = dist
        dist = getattr(stats, name, None)
        if dist is None or not hasattr(dist, "ppf"):
            raise ValueError(f"{name!r} is not a valid distribution name")
    elif not hasattr(dist, "ppf"):
        raise ValueError(f"{dist!r} is not a valid distribution name or object "
                         "with a ppf method")
    if sparams is None:
        sparams = ()
    if not isinstance(sparams, (tuple, list)):
        sparams = (sparams,)
    osm = dist.ppf(snp.asarray(_order_statistic_medians(n), x.dtype), *sparams)
    osr = snp.sort(snp.ravel(x))
    if fit:

        res = linregress(osm, osr)
        slope, intercept, r = res.slope, res.intercept, res.rvalue
    if plot is not None:
        plot.plot(osm, osr, "bo")
        if fit:
            plot.plot(osm, slope * osm + intercept, "r-")
        for attr, text in (("title", "Probability Plot"),
                           ("xlabel", "Theoretical quantiles"),
                           ("ylabel", "Ordered Values")):
            setter = getattr(plot, "set_" + attr, None) or getattr(plot, attr)
            setter(text)
        if fit and rvalue:
            xmin, xmax = float(snp.min(osm)), float(snp.max(osm))
            ymin, ymax = float(snp.min(x)), float(snp.max(x))
            plot.text(xmin + 0.70 * (xmax - xmin), ymin + 0.01 * (ymax - ymin),
                      f"$R^2={float(r) ** 2:1.4f}$")
    if fit:
        return (osm, osr), (slope, intercept, r)
    return osm, osr


# --- empirical distribution functions -------------------------------------------------


class EmpiricalDistributionFunction:
    """An empirical CDF or SF from :func:`ecdf`: ``quantiles`` (the distinct
    observations), ``probabilities`` (the function's value there),
    ``evaluate(x)`` and ``confidence_interval(...)``, as SciPy's."""

    def __init__(self, q, p, n, d, kind):
        self.quantiles, self.probabilities = q, p
        self._n, self._d, self._kind = n, d, kind
        self._sf = p if kind == "sf" else 1.0 - p

    def __repr__(self):
        return (f"EmpiricalDistributionFunction(quantiles={self.quantiles!r}, "
                f"probabilities={self.probabilities!r})")

    def evaluate(self, x):
        """The step function (right-continuous) at ``x``; jit, vmap."""
        f0 = 1.0 if self._kind == "sf" else 0.0
        q = snp.asarray(self.quantiles)
        y = snp.concatenate([snp.full((1,), f0, q.dtype),
                             snp.asarray(self.probabilities, q.dtype)])
        return y[snp.searchsorted(q, snp.asarray(x, q.dtype), side="right")]

    def confidence_interval(self, confidence_level=0.95, *, method="linear"):
        """Pointwise confidence intervals by Greenwood's formula:
        ``'linear'`` or ``'log-log'``; NaN where the formula is undefined
        (SciPy also warns there).  Returns a ``ConfidenceInterval`` of two
        ``EmpiricalDistributionFunction``."""

        if self._n is None:
            raise NotImplementedError("The confidence interval is available only "
                                      "for the ECDF returned by `ecdf`.")
        if not isinstance(method, str) or method.lower() not in ("linear", "log-log"):
            raise ValueError("`method` must be one of {'linear', 'log-log'}.")
        try:
            cl = float(confidence_level)
        except TypeError:
            raise ValueError("`confidence_level` must be a scalar between 0 and "
                             "1.") from None
        if not 0 <= cl <= 1:
            raise ValueError("`confidence_level` must be a scalar between 0 and 1.")
        sf, d, n = self._sf, self._d, self._n
        z = _sf.ndtri(0.5 + cl / 2.0)
        cum = snp.cumsum(d / (n * (n - d)))
        if method.lower() == "linear":
            z_se = z * snp.sqrt(sf**2 * cum)
            low, high = self.probabilities - z_se, self.probabilities + z_se
        else:
            z_se = z * snp.sqrt(1.0 / snp.log(sf) ** 2 * cum)
            lnl = snp.log(-snp.log(sf))
            low, high = snp.exp(-snp.exp(lnl + z_se)), snp.exp(-snp.exp(lnl - z_se))
            if self._kind == "cdf":
                low, high = 1.0 - high, 1.0 - low
        low, high = snp.clip(low, 0.0, 1.0), snp.clip(high, 0.0, 1.0)
        return ConfidenceInterval(
            EmpiricalDistributionFunction(self.quantiles, low, None, None, self._kind),
            EmpiricalDistributionFunction(self.quantiles, high, None, None,
                                          self._kind))


class ECDFResult:
    """``cdf`` and ``sf``, two :class:`EmpiricalDistributionFunction`."""

    def __init__(self, q, cdf, sf, n, d):
        self.cdf = EmpiricalDistributionFunction(q, cdf, n, d, "cdf")
        self.sf = EmpiricalDistributionFunction(q, sf, n, d, "sf")

    def __repr__(self):
        return f"ECDFResult(cdf={self.cdf!r}, sf={self.sf!r})"


def ecdf(sample):
    """sciax implementation of :func:`scipy.stats.ecdf` for uncensored data:
    the empirical CDF and SF.

    Parameters
    ----------
    sample : array_like
        One-dimensional, without NaNs.

    Returns
    -------
    ECDFResult
        ``cdf`` and ``sf``, each with ``quantiles`` (the distinct values),
        ``probabilities``, ``evaluate(x)`` and
        ``confidence_interval(confidence_level=0.95, *, method='linear')``.

    Raises
    ------
    ValueError
        A sample that is not one-dimensional or contains NaN.
    NotImplementedError
        Censored data (SciPy's ``CensoredData``), which sciax lacks.
    TypeError
        Under ``jit``/``vmap``: the number of distinct values fixes the
        output shapes, so ``ecdf`` needs concrete data.

    Notes
    -----
    *Transformations*: ``ecdf`` itself needs concrete data; ``evaluate`` and
    ``confidence_interval`` of its result run under jit and vmap, and
    ``evaluate`` is differentiable in nothing useful (a step function).

    Examples
    --------
    >>> from sciax.stats import ecdf
    >>> res = ecdf(snp.array([1.0, 2.0, 2.0, 3.0]))
    >>> print(res.cdf.quantiles, res.cdf.probabilities)
    [1. 2. 3.] [0.25 0.75 1.  ]
    >>> print(res.cdf.evaluate(snp.array([0.5, 2.0, 2.5])))
    [0.   0.75 0.75]
    """
    if type(sample).__name__ == "CensoredData":
        raise NotImplementedError("sciax's ecdf supports only uncensored samples "
                                  "(arrays); CensoredData is not available")
    x = _arr(sample)
    if x.ndim != 1:
        raise ValueError("`sample` must be a one-dimensional sequence.")

    def build():
        if bool(snp.any(snp.isnan(x))):
            raise ValueError("`sample` must not contain nan.")
        q, counts = snp.unique(x, return_counts=True)
        return q, counts.astype(x.dtype)

    try:
        q, counts = build()
    except (TypeError, IndexError) as e:
        raise TypeError("ecdf returns one value per distinct observation, so it "
                        "needs concrete data (it cannot run under sciax.jit or "
                        "vmap)") from e
    n = float(x.shape[0])
    events = snp.cumsum(counts)
    cdf = events / n
    at_risk = snp.concatenate([snp.full((1,), n, x.dtype), n - events[:-1]])
    return ECDFResult(q, cdf, 1.0 - cdf, at_risk, counts)


# --- multidimensional binned statistics -------------------------------------------


class BinnedStatisticddResult(NamedTuple):
    statistic: Any
    bin_edges: Any
    binnumber: Any


class BinnedStatistic2dResult(NamedTuple):
    statistic: Any
    x_edge: Any
    y_edge: Any
    binnumber: Any


_BIN_STATS = ("mean", "median", "count", "sum", "std", "min", "max")


def _bin_reduce(vals, flat, total, statistic):
    """The statistic of ``vals`` (rows) over the ``total`` flat bins."""
    count = snp.zeros(total, vals.dtype).at[flat].add(1.0)
    has = count > 0

    def seg_sum(v):
        return snp.zeros(total, v.dtype).at[flat].add(v)

    if statistic == "count":
        return snp.broadcast_to(count, (vals.shape[0], total))
    if statistic == "sum":
        return sciax.vmap(seg_sum)(vals)
    if statistic in ("mean", "std"):
        safe = snp.where(has, count, 1.0)
        mean = sciax.vmap(seg_sum)(vals) / safe
        if statistic == "std":
            dev = vals - mean[:, flat]
            mean = snp.sqrt(sciax.vmap(seg_sum)(dev * dev) / safe)
        return snp.where(has, mean, snp.nan)
    if statistic in ("min", "max"):
        fill = snp.inf if statistic == "min" else -snp.inf

        def seg(v):
            z = snp.full(total, fill, v.dtype).at[flat]
            return z.min(v) if statistic == "min" else z.max(v)

        return snp.where(has, sciax.vmap(seg)(vals), snp.nan)
    start = snp.cumsum(count) - count

    def med(v):
        sv = v[snp.lexsort((v, flat))]
        a = (start + snp.floor((count - 1.0) / 2.0)).astype(snp.int32)
        b = (start + snp.ceil((count - 1.0) / 2.0)).astype(snp.int32)
        return (snp.take(sv, a, mode="clip") + snp.take(sv, b, mode="clip")) / 2.0

    return snp.where(has, sciax.vmap(med)(vals), snp.nan)


@functools.partial(sciax.jit, static_argnames=("statistic", "nbs", "expand"))
def _binned_dd_core(sample, vals, los, his, edges, binnums, *, statistic, nbs,
                    expand):
    ndim = sample.shape[1]
    if binnums is None:
        out_edges, per_dim = [], []
        for d in range(ndim):
            e, b = dim_bins(sample[:, d], los[d], his[d], edges[d], nbs[d])
            out_edges.append(e)
            per_dim.append(b)
        flat = snp.zeros(sample.shape[0], snp.int32)
        for d in range(ndim):
            flat = flat * (nbs[d] + 2) + per_dim[d]
    else:
        out_edges, flat = list(edges), binnums.astype(snp.int32)
        per_dim = None
    full = tuple(nb + 2 for nb in nbs)
    total = math.prod(full)
    res = _bin_reduce(vals, flat, total, statistic)
    res = snp.reshape(res, (vals.shape[0],) + full)
    res = res[(slice(None),) + (slice(1, -1),) * ndim]
    if expand and ndim > 1:
        if per_dim is None:
            rest, per_dim = flat, []
            for d in reversed(range(ndim)):
                per_dim.append(rest % full[d])
                rest = rest // full[d]
            per_dim = per_dim[::-1]
        binnumber = snp.stack(per_dim)
    else:
        binnumber = flat
    return res, out_edges, binnumber


def binned_statistic_dd(sample, values, statistic="mean", bins=10, range=None,  # noqa: A002
                        expand_binnumbers=False, binned_statistic_result=None):
    """sciax implementation of :func:`scipy.stats.binned_statistic_dd`: a
    statistic of ``values`` over a D-dimensional histogram of ``sample``.

    Parameters
    ----------
    sample : array_like
        ``(N, D)`` positions, or a sequence of D arrays of length N.
    values : array_like
        Shape ``(N,)`` or ``(k, N)`` (or a list of such); ignored for
        ``'count'``.
    statistic : {'mean', 'sum', 'count', 'std', 'median', 'min', 'max'}
        Empty bins are NaN except for ``'sum'`` and ``'count'`` (0).
    bins : int, sequence of int, or sequence of edges
        Per dimension: a number of equal bins over ``range`` (default the
        data's extent) or monotonically increasing edges.
    range : sequence of (float, float), optional
    expand_binnumbers : bool
        Return the per-dimension bin numbers, shape ``(D, N)``, instead of
        the flat (raveled) ones.
    binned_statistic_result : BinnedStatisticddResult, optional
        Reuse its edges and bin numbers (flat).

    Returns
    -------
    BinnedStatisticddResult
        ``statistic`` (``values.shape[:-1] + nbins``), ``bin_edges`` (a list
        of D arrays) and ``binnumber`` (0 and ``nbins + 1`` in a dimension
        for points outside, as SciPy).

    Raises
    ------
    ValueError
        An unknown statistic, a range with start > stop or of the wrong
        length; with concrete data, non-finite samples and integer bins.
    AttributeError
        ``values`` not matching the sample's length, or ``bins`` of the
        wrong length (SciPy's exception types).
    NotImplementedError
        A callable statistic (the bins' contents would be ragged).

    Notes
    -----
    Bins are assigned per dimension as SciPy does, with its rounding rule
    for points on the last edge; the statistics are scatter-adds over the
    raveled bins (the median a lexicographic sort by bin, then value).
    *Differences from SciPy*: SciPy raises when two edges coincide
    numerically; sciax does not check.  *Transformations*: jit and vmap
    (``bins`` static); 'mean', 'sum' and 'std' are differentiable in
    ``values``.

    Examples
    --------
    >>> from sciax.stats import binned_statistic_dd
    >>> pts = snp.array([[0.1, 0.2], [0.4, 0.9], [0.8, 0.1], [0.9, 0.8], [0.3, 0.3]])
    >>> r = binned_statistic_dd(pts, snp.array([1.0, 2.0, 3.0, 4.0, 5.0]), "sum", bins=2)
    >>> print(r.statistic)
    [[6. 2.]
     [3. 4.]]
    >>> print(r.binnumber)
    [ 5  6  9 10  5]
    """
    if callable(statistic):
        raise NotImplementedError("binned_statistic_dd: a callable statistic is not "
                                  "supported; use one of " + ", ".join(_BIN_STATS))
    if statistic not in _BIN_STATS:
        raise ValueError(f"invalid statistic {statistic!r}")
    if isinstance(sample, (list, tuple)):
        sample = snp.stack([snp.ravel(_arr(v)) for v in sample], axis=1)
    else:
        sample = _arr(sample)
        if sample.ndim != 2:
            sample = snp.reshape(sample, (-1, 1)) if sample.ndim <= 1 else \
                snp.reshape(sample, (sample.shape[0], -1)).T
    n, ndim = sample.shape
    if values is None and statistic == "count":
        values = snp.zeros(n, sample.dtype)
    values, vshape, vals = binned_values(values, n, statistic)
    scalar_bins = not hasattr(bins, "__len__") and snp.ndim(bins) == 0
    if scalar_bins:
        try:
            finite = bool(snp.all(snp.isfinite(sample)))
        except TypeError:  # traced: no check
            finite = True
        if not finite:
            raise ValueError("sample contains non-finite values.")
        bins = [bins] * ndim
    elif len(bins) != ndim:
        raise AttributeError("The dimension of bins must be equal to the dimension "
                             "of the sample x.")
    los, his = [None] * ndim, [None] * ndim
    if range is not None:
        if len(range) != ndim:
            raise ValueError(f"range given for {len(range)} dimensions; {ndim} "
                             "required")
        for d, (lo, hi) in enumerate(range):
            if hi < lo:
                where = f"dimension {d + 1} of " if ndim > 1 else ""
                raise ValueError(f"In {where}range, start must be <= stop")
            los[d] = snp.asarray(lo, sample.dtype)
            his[d] = snp.asarray(hi, sample.dtype)
    edges, nbs = [], []
    for b in bins:
        if not hasattr(b, "__len__") and snp.ndim(b) == 0:
            edges.append(None)
            nbs.append(int(b))
        else:
            e = snp.asarray(b, sample.dtype)
            edges.append(e)
            nbs.append(e.shape[0] - 1)
    binnums = None
    if binned_statistic_result is not None:
        edges = [snp.asarray(e, sample.dtype)
                 for e in binned_statistic_result.bin_edges]
        nbs = [e.shape[0] - 1 for e in edges]
        binnums = snp.asarray(binned_statistic_result.binnumber)
    res, out_edges, binnumber = _binned_dd_core(
        sample, vals, los, his, edges, binnums, statistic=statistic, nbs=tuple(nbs),
        expand=bool(expand_binnumbers))
    res = snp.reshape(res, tuple(vshape[:-1]) + tuple(nbs)) if values.ndim else res[0]
    return BinnedStatisticddResult(res, out_edges, binnumber)


def binned_statistic_2d(x, y, values, statistic="mean", bins=10, range=None,  # noqa: A002
                        expand_binnumbers=False):
    """sciax implementation of :func:`scipy.stats.binned_statistic_2d`: a
    statistic of ``values`` over a 2-D histogram of ``(x, y)``.

    Parameters
    ----------
    x, y : array_like
        The positions (length N).
    values : array_like
        Shape ``(N,)`` or ``(k, N)``; ignored for ``'count'``.
    statistic, range, expand_binnumbers
        As :func:`binned_statistic_dd`.
    bins : int, (int, int), array_like or (array_like, array_like)
        A single sequence of more than two numbers is the edges of both
        dimensions, as SciPy.

    Returns
    -------
    BinnedStatistic2dResult
        ``statistic``, ``x_edge``, ``y_edge`` and ``binnumber``.

    Notes
    -----
    *Transformations*: jit and vmap (``bins`` static); 'mean', 'sum' and
    'std' are differentiable in ``values``.

    Examples
    --------
    >>> from sciax.stats import binned_statistic_2d
    >>> x = snp.array([0.1, 0.4, 0.8, 0.9, 0.3])
    >>> y = snp.array([0.2, 0.9, 0.1, 0.8, 0.3])
    >>> r = binned_statistic_2d(x, y, None, "count", bins=2)
    >>> print(r.statistic)
    [[2. 1.]
     [1. 1.]]
    """
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb not in (1, 2):
        e = snp.asarray(bins, float)
        bins = [e, e]
    res = binned_statistic_dd([x, y], values, statistic, bins, range,
                              expand_binnumbers=expand_binnumbers)
    return BinnedStatistic2dResult(res.statistic, res.bin_edges[0], res.bin_edges[1],
                                   res.binnumber)


__all__ = ["CumfreqResult", "RelfreqResult", "SigmaclipResult", "Mean", "Variance",
           "Std_dev", "kstat", "kstatvar", "lmoment", "expectile", "quantile",
           "tiecorrect", "trimboth", "trim1", "obrientransform", "cumfreq", "relfreq",
           "sigmaclip", "mvsdist", "bayes_mvs", "probplot", "ECDFResult",
           "EmpiricalDistributionFunction", "ecdf", "BinnedStatisticddResult",
           "BinnedStatistic2dResult", "binned_statistic_dd", "binned_statistic_2d"]


# the hypothesis tests live in their own module (the line budget); importing
# them here keeps this package's one import line for issue 21
from sciax.stats import _tests_s21  # noqa: E402
from sciax.stats._tests_s21 import *  # noqa: E402,F401,F403

__all__ += _tests_s21.__all__
