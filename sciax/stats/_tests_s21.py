"""Hypothesis tests that complete :mod:`scipy.stats`' list (issue 21):
rank, dispersion, trend, goodness-of-fit and multiple-comparison tests, with
SciPy's names, signatures and result objects (named tuples, so pytrees).

Null distributions that depend only on the sample sizes (Ansari-Bradley,
Page's L, the two-sample Cramer-von Mises statistic) are counted once per
size on the host in exact integers and read with gathers, so the exact
p-values run under ``jit`` and ``vmap``; SciPy's data-dependent choices
(tie branches) are ``where``s for the same reason.  Imported by
``_functions_s21``, which holds the shared helpers.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from typing import Any, NamedTuple

import sciax
import sciax.numpy as snp

from sciax.stats import _sf
from sciax.stats._continuous_special import chi2
from sciax.stats._functions_s21 import (_arr, _broadcast_shapes, _check_axis,
                                        _keepdims, _nan_policy, _to_last)
from sciax import special
from sciax.stats._stats_py import (SignificanceResult, _alternative, _t_pvalue, iqr,
                                   rankdata)
from sciax.stats._studentized_range import studentized_range
from sciax.stats._tests_more import ConfidenceInterval, _norm_pvalue, chi2_contingency


# --- rank and dispersion tests -----------------------------------------------------


class FriedmanchisquareResult(NamedTuple):
    statistic: Any
    pvalue: Any


class BrunnerMunzelResult(NamedTuple):
    statistic: Any
    pvalue: Any


class AnsariResult(NamedTuple):
    statistic: Any
    pvalue: Any


class AlexanderGovernResult(NamedTuple):
    statistic: Any
    pvalue: Any


class CramerVonMisesResult(NamedTuple):
    statistic: Any
    pvalue: Any


class MedianTestResult(NamedTuple):
    statistic: Any
    pvalue: Any
    median: Any
    table: Any


def _samples(samples, axis, name, paired=False):
    """Samples as floats with the observations along the last axis and the
    other axes broadcast; the normalised axis and the common ndim."""
    arrs = [_arr(s) for s in samples]
    if axis is None:
        arrs = [snp.ravel(a) for a in arrs]
        ax, ndim = None, 1
    else:
        ndim = max(a.ndim for a in arrs)
        arrs = [snp.reshape(a, (1,) * (ndim - a.ndim) + a.shape) for a in arrs]
        if ndim == 0:
            arrs, ndim = [snp.reshape(a, (1,)) for a in arrs], 1
        ax = _check_axis(ndim, axis, name)
        arrs = [snp.moveaxis(a, ax, -1) for a in arrs]
    try:
        batch = _broadcast_shapes([a.shape[:-1] for a in arrs])
    except ValueError:
        raise ValueError(f"{name}: the samples' shapes {[a.shape for a in arrs]} do "
                         "not broadcast except along axis") from None
    if paired:
        lens = {a.shape[-1] for a in arrs}
        if len(lens) > 1:
            raise ValueError(f"{name}: paired samples must have the same length "
                             f"along axis, got {sorted(lens)}")
    arrs = [snp.broadcast_to(a, batch + a.shape[-1:]) for a in arrs]
    return arrs, (ax if ax is not None else 0), ndim


def _keep_last(x, ax, ndim, keepdims):
    return snp.expand_dims(x, ax) if keepdims else x


def _ties(x):
    """Per element: the first and last 1-based ranks of its tie group."""
    return rankdata(x, "min", axis=-1), rankdata(x, "max", axis=-1)


def friedmanchisquare(*samples, axis=0, nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.friedmanchisquare`, the
    Friedman test for repeated measurements (tie-corrected, chi-squared
    p-value).

    Parameters
    ----------
    *samples : array_like
        At least three paired samples (equal lengths along ``axis``).
    axis : int or None
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    FriedmanchisquareResult
        ``statistic`` and ``pvalue``.

    Raises
    ------
    ValueError
        Fewer than three samples, unequal lengths, a bad axis.

    Notes
    -----
    *Transformations*: jit and vmap; ranks are piecewise constant, so the
    statistic has no useful gradient.

    Examples
    --------
    >>> from sciax.stats import friedmanchisquare
    >>> a = snp.array([72.0, 96.0, 88.0, 92.0, 74.0, 76.0, 82.0])
    >>> b = snp.array([120.0, 95.0, 94.0, 101.0, 77.0, 96.0, 99.0])
    >>> c = snp.array([76.0, 95.0, 104.0, 96.0, 79.0, 73.0, 68.0])
    >>> r = friedmanchisquare(a, b, c)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    3.185185 0.203398
    """
    k = len(samples)
    if k < 3:
        raise ValueError(f"At least 3 samples must be given for Friedman test, "
                         f"got {k}.")
    _nan_policy(nan_policy, "friedmanchisquare")
    arrs, ax, ndim = _samples(samples, axis, "friedmanchisquare", paired=True)
    n = float(arrs[0].shape[-1])
    if n == 0:
        raise ValueError("One or more sample arguments is too small.")
    data = snp.stack(arrs, axis=-1)  # batch + (n, k): rank within each block
    ranks = rankdata(data, axis=-1)
    lo, hi = _ties(data)
    c = hi - lo + 1.0
    ties = snp.sum(c * c - 1.0, axis=(-2, -1))
    corr = 1.0 - ties / (k * (k * k - 1.0) * n)
    ssbn = snp.sum(snp.sum(ranks, axis=-2) ** 2, axis=-1)
    stat = (12.0 / (k * n * (k + 1.0)) * ssbn - 3.0 * n * (k + 1.0)) / corr
    p = chi2.sf(stat, k - 1.0)
    return FriedmanchisquareResult(_keep_last(stat, ax, ndim, keepdims),
                                   _keep_last(p, ax, ndim, keepdims))


def brunnermunzel(x, y, alternative="two-sided", distribution="t",
                  nan_policy="propagate", *, axis=0, keepdims=False):
    """sciax implementation of :func:`scipy.stats.brunnermunzel`, the
    Brunner-Munzel test of stochastic equality (no equal-variance
    assumption).

    Parameters
    ----------
    x, y : array_like
    alternative : {'two-sided', 'less', 'greater'}
    distribution : {'t', 'normal'}
        The null distribution of the statistic.
    nan_policy : {'propagate'}
    axis : int or None
    keepdims : bool

    Returns
    -------
    BrunnerMunzelResult
        ``statistic`` and ``pvalue``.

    Notes
    -----
    *Transformations*: jit and vmap (ranks: no useful gradient).
    *Differences from SciPy*: no ``RuntimeWarning`` when the t degrees of
    freedom are 0/0 (the p-value is NaN there, as SciPy's).

    Examples
    --------
    >>> from sciax.stats import brunnermunzel
    >>> x = snp.array([1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 4.0, 1.0, 1.0])
    >>> y = snp.array([3.0, 3.0, 4.0, 3.0, 1.0, 2.0, 3.0, 1.0, 1.0, 5.0, 4.0])
    >>> r = brunnermunzel(x, y)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    3.137467 0.005786
    """
    _nan_policy(nan_policy, "brunnermunzel")
    _alternative(alternative)
    if distribution not in ("t", "normal"):
        raise ValueError("distribution should be 't' or 'normal'")
    (x, y), ax, ndim = _samples([x, y], axis, "brunnermunzel")
    nx, ny = x.shape[-1], y.shape[-1]
    rankc = rankdata(snp.concatenate([x, y], axis=-1), axis=-1)
    rcx, rcy = rankc[..., :nx], rankc[..., nx:]
    rx, ry = rankdata(x, axis=-1), rankdata(y, axis=-1)
    mcx, mcy = snp.mean(rcx, axis=-1), snp.mean(rcy, axis=-1)
    tx = rcx - rx - mcx[..., None] + snp.mean(rx, axis=-1, keepdims=True)
    ty = rcy - ry - mcy[..., None] + snp.mean(ry, axis=-1, keepdims=True)
    sx = snp.sum(tx * tx, axis=-1) / (nx - 1.0)
    sy = snp.sum(ty * ty, axis=-1) / (ny - 1.0)
    w = nx * ny * (mcy - mcx) / ((nx + ny) * snp.sqrt(nx * sx + ny * sy))
    if distribution == "t":
        df = (nx * sx + ny * sy) ** 2 / ((nx * sx) ** 2 / (nx - 1.0)
                                         + (ny * sy) ** 2 / (ny - 1.0))
        p = _t_pvalue(-w, df, alternative)
    else:
        p = _norm_pvalue(-w, alternative)
    return BrunnerMunzelResult(_keep_last(w, ax, ndim, keepdims),
                               _keep_last(p, ax, ndim, keepdims))


def mood(x, y, axis=0, alternative="two-sided", *, nan_policy="propagate",
         keepdims=False):
    """sciax implementation of :func:`scipy.stats.mood`, Mood's two-sample
    test for equal scale (normal approximation; Mielke's tie correction).

    Parameters
    ----------
    x, y : array_like
    axis : int or None
    alternative : {'two-sided', 'less', 'greater'}
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    SignificanceResult
        ``statistic`` (the z-score) and ``pvalue``; NaN for fewer than 3
        observations in all, as SciPy.

    Notes
    -----
    As SciPy, the tie-corrected statistic is used for every slice when any
    slice has ties (a ``where``, so it also runs under jit).
    *Transformations*: jit and vmap (ranks: no useful gradient).

    Examples
    --------
    >>> from sciax.stats import mood
    >>> x = snp.array([2.1, -0.3, 0.8, 1.9, -1.2, 0.4, 3.3])
    >>> y = snp.array([0.2, 0.5, -0.1, 0.3, 0.9, 0.6])
    >>> r = mood(x, y)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    1.938287 0.052588
    """

    _nan_policy(nan_policy, "mood")
    _alternative(alternative)
    (x, y), ax, ndim = _samples([x, y], axis, "mood")
    m, n = x.shape[-1], y.shape[-1]
    big_n = float(m + n)
    xy = snp.concatenate([x, y], axis=-1)
    if m == 0 or n == 0 or big_n < 3:
        nan = snp.full(xy.shape[:-1], snp.nan, xy.dtype)
        return SignificanceResult(_keep_last(nan, ax, ndim, keepdims),
                                  _keep_last(nan, ax, ndim, keepdims))
    r = rankdata(xy, axis=-1)
    e0 = m * (big_n * big_n - 1.0) / 12.0
    z_plain = ((snp.sum((r[..., :m] - (big_n + 1.0) / 2.0) ** 2, axis=-1) - e0)
               / math.sqrt(m * n * (big_n + 1.0) * (big_n + 2.0) * (big_n - 2.0)
                           / 180.0))
    lo, hi = _ties(xy)
    cnt = hi - lo + 1.0
    cmid = (big_n + 1.0) / 2.0

    def sum_i2(k):
        return k * (k + 1.0) * (2.0 * k + 1.0) / 6.0

    def sum_i(k):
        return k * (k + 1.0) / 2.0

    # the mean of (rank - c)^2 over the ranks of each element's tie group
    s2 = sum_i2(hi) - sum_i2(lo) + lo * lo
    s1 = sum_i(hi) - sum_i(lo) + lo
    phi = (s2 - 2.0 * cmid * s1 + cnt * cmid * cmid) / cnt
    tstat = snp.sum(phi[..., :m], axis=-1)
    var_m = (m * n * (big_n + 1.0) * (big_n**2 - 4.0) / 180.0
             - m * n / (180.0 * big_n * (big_n - 1.0))
             * snp.sum((cnt * cnt - 1.0) * (cnt * cnt - 4.0
                                            + 15.0 * (big_n - hi - lo + 1.0) ** 2),
                       axis=-1))
    z_ties = (tstat - e0) / snp.sqrt(var_m)
    z = snp.where(snp.any(cnt > 1.0), z_ties, z_plain)
    return SignificanceResult(_keep_last(z, ax, ndim, keepdims),
                              _keep_last(_norm_pvalue(z, alternative), ax, ndim, keepdims))


@functools.lru_cache(maxsize=32)
def _ansari_tables(n, m):
    """(astart, cdf, sf) of the Ansari-Bradley statistic of ``n`` of ``N =
    n + m`` symmetric ranks ``min(i, N + 1 - i)``, by an exact subset-sum
    count in integers."""
    big_n = n + m
    scores = [min(i, big_n + 1 - i) for i in range(1, big_n + 1)]
    top = sum(sorted(scores)[-n:])
    # ways[k][s]: k-subsets of the scores seen so far with sum s
    ways = [[0] * (top + 1) for _ in range(n + 1)]
    ways[0][0] = 1
    for a in scores:
        for k in range(n, 0, -1):
            row, prev = ways[k], ways[k - 1]
            for s in range(top, a - 1, -1):
                if prev[s - a]:
                    row[s] += prev[s - a]
    counts = ways[n]
    astart = next(i for i, c in enumerate(counts) if c)
    counts = counts[astart:]
    total = sum(counts)
    cdf, sf, acc = [], [], 0
    for c in counts:
        acc += c
        cdf.append(acc / total)
        sf.append((total - acc + c) / total)
    return astart, cdf, sf


def ansari(x, y, alternative="two-sided", *, axis=0, nan_policy="propagate",
           keepdims=False):
    """sciax implementation of :func:`scipy.stats.ansari`, the Ansari-Bradley
    test for equal scale.

    Parameters
    ----------
    x, y : array_like
    alternative : {'two-sided', 'less', 'greater'}
        ``'greater'``: the scale of ``x`` is greater than that of ``y``.
    axis : int or None
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    AnsariResult
        ``statistic`` (AB) and ``pvalue``.

    Raises
    ------
    ValueError
        An empty sample.

    Notes
    -----
    As SciPy: the exact null distribution when both samples have fewer than
    55 observations and no slice has ties, else the normal approximation
    (with a tie-corrected variance when there are ties).  The exact
    distribution depends only on the static sizes: it is counted once on
    the host in integers, and the data-dependent choice is a ``where``.
    *Transformations*: jit and vmap (ranks: no useful gradient).

    Examples
    --------
    >>> from sciax.stats import ansari
    >>> x = snp.array([2.1, -0.3, 0.8, 1.9, -1.2, 0.4, 3.3])
    >>> y = snp.array([0.2, 0.5, -0.1, 0.3, 0.9, 0.6])
    >>> r = ansari(x, y)
    >>> print(float(r.statistic), round(float(r.pvalue), 6))
    20.0 0.096737
    """
    _nan_policy(nan_policy, "ansari")
    if alternative not in ("two-sided", "greater", "less"):
        raise ValueError("'alternative' must be 'two-sided', 'greater', or 'less'.")
    (x, y), ax, ndim = _samples([x, y], axis, "ansari")
    n, m = x.shape[-1], y.shape[-1]
    if m < 1:
        raise ValueError("Not enough other observations.")
    if n < 1:
        raise ValueError("Not enough test observations.")
    big_n = n + m
    xy = snp.concatenate([x, y], axis=-1)
    rank = rankdata(xy, axis=-1)
    lo, hi = _ties(xy)
    repeats = snp.any(hi > lo)
    symrank = snp.minimum(rank, big_n - rank + 1.0)
    ab = snp.sum(symrank[..., :n], axis=-1)
    if big_n % 2:
        mn_ab = n * (big_n + 1.0) ** 2 / 4.0 / big_n
        var_plain = n * m * (big_n + 1.0) * (3.0 + big_n**2) / (48.0 * big_n**2)
    else:
        mn_ab = n * (big_n + 2.0) / 4.0
        var_plain = m * n * (big_n + 2.0) * (big_n - 2.0) / 48.0 / (big_n - 1.0)
    fac = snp.sum(symrank**2, axis=-1)
    if big_n % 2:
        var_ties = m * n * (16.0 * big_n * fac - (big_n + 1.0) ** 4) / (
            16.0 * big_n**2 * (big_n - 1.0))
    else:
        var_ties = m * n * (16.0 * fac - big_n * (big_n + 2.0) ** 2) / (
            16.0 * big_n * (big_n - 1.0))
    z = (mn_ab - ab) / snp.sqrt(snp.where(repeats, var_ties, var_plain))
    p = _norm_pvalue(z, alternative)
    if m < 55 and n < 55:
        astart, cdf, sf = _ansari_tables(n, m)
        cdf, sf = snp.asarray(cdf, ab.dtype), snp.asarray(sf, ab.dtype)
        last = cdf.shape[0] - 1
        # SciPy's convention: cdf at ceil(AB), sf at floor(AB)
        i_cdf = snp.clip(snp.ceil(ab - astart), 0, last).astype(snp.int32)
        i_sf = snp.clip(snp.floor(ab - astart), 0, last).astype(snp.int32)
        p_cdf, p_sf = cdf[i_cdf], sf[i_sf]
        if alternative == "two-sided":
            p_exact = snp.minimum(2.0 * snp.minimum(p_cdf, p_sf), 1.0)
        elif alternative == "greater":
            p_exact = p_cdf
        else:
            p_exact = p_sf
        p = snp.where(repeats, p, p_exact)
    return AnsariResult(_keep_last(ab, ax, ndim, keepdims),
                        _keep_last(p, ax, ndim, keepdims))


def alexandergovern(*samples, nan_policy="propagate", axis=0, keepdims=False):
    """sciax implementation of :func:`scipy.stats.alexandergovern`, the
    Alexander-Govern test of equal means under unequal variances.

    Parameters
    ----------
    *samples : array_like
        Two or more samples, each with more than one observation.
    nan_policy : {'propagate'}
    axis : int or None
    keepdims : bool

    Returns
    -------
    AlexanderGovernResult
        ``statistic`` and ``pvalue`` (chi-squared with ``k - 1`` degrees
        of freedom).

    Raises
    ------
    TypeError
        Fewer than two samples (as SciPy).
    ValueError
        A sample of one observation.

    Notes
    -----
    *Transformations*: jit, vmap, and differentiable in the data.

    Examples
    --------
    >>> from sciax.stats import alexandergovern
    >>> a = snp.array([482.43, 484.36, 488.84, 495.15, 495.24, 502.69])
    >>> b = snp.array([462.11, 473.49, 489.94, 495.14, 498.53, 504.08, 507.83])
    >>> c = snp.array([453.37, 471.99, 486.43, 501.54, 505.61, 509.93])
    >>> r = alexandergovern(a, b, c)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.124732 0.939539
    """
    if len(samples) < 2:
        raise TypeError(f"2 or more inputs required, got {len(samples)}")
    _nan_policy(nan_policy, "alexandergovern")
    arrs, ax, ndim = _samples(samples, axis, "alexandergovern")
    if any(a.shape[-1] <= 1 for a in arrs):
        raise ValueError("Input sample size must be greater than one.")
    lengths = [a.shape[-1] for a in arrs]
    means = snp.stack([snp.mean(a, axis=-1) for a in arrs])
    se2 = snp.stack([snp.var(a, axis=-1, ddof=1) / k for a, k in zip(arrs, lengths)])
    se = snp.sqrt(se2)
    eps = snp.finfo(se.dtype).eps
    se = snp.where(se <= snp.abs(eps * means), snp.nan, se)
    inv = 1.0 / se2
    wts = inv / snp.sum(inv, axis=0, keepdims=True)
    var_w = snp.sum(wts * means, axis=0, keepdims=True)
    t = (means - var_w) / se
    v = snp.asarray([k - 1.0 for k in lengths], t.dtype).reshape(
        (-1,) + (1,) * (t.ndim - 1))
    a = v - 0.5
    b = 48.0 * a * a
    c = snp.sqrt(a * snp.log1p(t * t / v))
    z = (c + (c**3 + 3.0 * c) / b
         - (4.0 * c**7 + 33.0 * c**5 + 240.0 * c**3 + 855.0 * c)
         / (b * b * 10.0 + 8.0 * b * c**4 + 1000.0 * b))
    stat = snp.sum(z * z, axis=0)
    p = chi2.sf(stat, len(arrs) - 1.0)
    return AlexanderGovernResult(_keep_last(stat, ax, ndim, keepdims),
                                 _keep_last(p, ax, ndim, keepdims))


def chatterjeexi(x, y, *, axis=0, y_continuous=False, method="asymptotic",
                 nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.chatterjeexi`, Chatterjee's
    xi correlation coefficient and its asymptotic test of independence.

    Parameters
    ----------
    x, y : array_like
        Paired samples.
    axis : int or None
    y_continuous : bool
        Whether ``y`` is assumed continuous (no ties): simpler formulas.
    method : {'asymptotic'}
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    SignificanceResult
        ``statistic`` (xi) and ``pvalue`` (one-sided, ``'greater'``).

    Raises
    ------
    ValueError
        A non-boolean ``y_continuous`` or another method.

    Notes
    -----
    *Differences from SciPy*: permutation p-values
    (``method=PermutationMethod(...)``) are not supported; with ties in
    ``x``, sciax orders tied ``x`` by position (a stable sort) while SciPy's
    order is NumPy's unstable sort's, so xi may differ there.
    *Transformations*: jit and vmap (ranks: no useful gradient).

    Examples
    --------
    >>> from sciax.stats import chatterjeexi
    >>> x = snp.linspace(-3.0, 3.0, 12)
    >>> y = snp.sin(x) + 0.1 * snp.cos(7.0 * x)
    >>> r = chatterjeexi(x, y)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.559441 0.001276
    """

    if not isinstance(y_continuous, bool):
        raise ValueError("`y_continuous` must be boolean.")
    if method != "asymptotic":
        raise ValueError("sciax's chatterjeexi supports only method='asymptotic' "
                         "(no permutation p-values)")
    _nan_policy(nan_policy, "chatterjeexi")
    (x, y), ax, ndim = _samples([x, y], axis, "chatterjeexi", paired=True)
    n = x.shape[-1]
    j = snp.argsort(x, axis=-1, stable=True)
    ys = snp.take_along_axis(y, j, axis=-1)
    r = rankdata(ys, "max", axis=-1)
    el = rankdata(-ys, "max", axis=-1)
    num = snp.sum(snp.abs(snp.diff(r, axis=-1)), axis=-1)
    if y_continuous:
        xi = 1.0 - 3.0 * num / (n * n - 1.0)
        std = snp.full(xi.shape, math.sqrt(2.0 / 5.0) / math.sqrt(n), xi.dtype)
    else:
        xi = 1.0 - n * num / (2.0 * snp.sum((n - el) * el, axis=-1))
        i = snp.arange(1, n + 1, dtype=r.dtype)
        u = snp.sort(r, axis=-1)
        v = snp.cumsum(u, axis=-1)
        an = snp.sum((2.0 * n - 2.0 * i + 1.0) * u * u, axis=-1) / float(n) ** 4
        bn = snp.sum((v + (n - i) * u) ** 2, axis=-1) / float(n) ** 5
        cn = snp.sum((2.0 * n - 2.0 * i + 1.0) * u, axis=-1) / float(n) ** 3
        dn = snp.sum(el * (n - el), axis=-1) / float(n) ** 3
        std = snp.sqrt((an - 2.0 * bn + cn * cn) / (dn * dn)) / math.sqrt(n)
    p = _sf.ndtr(-(xi / std))
    return SignificanceResult(_keep_last(xi, ax, ndim, keepdims),
                              _keep_last(p, ax, ndim, keepdims))


# --- Cramer-von Mises ----------------------------------------------------------------


def _cvm_terms(n):
    # enough series terms that the last is below SciPy's 1e-7 cut-off at the
    # largest argument used, x = n / 3: exp(-(4k + 1)^2 / (16 x)) < 1e-20
    return int(math.sqrt(16.0 * max(n, 3) / 3.0 * 46.0) / 4.0) + 4


def _cut_series(terms):
    """Sum ``terms`` (series index first) up to and including the first
    term below 1e-7 in absolute value, as SciPy's loop does."""
    small = snp.abs(terms) < 1e-7
    before = snp.cumsum(small.astype(terms.dtype), axis=0) - small.astype(terms.dtype)
    return snp.sum(snp.where(before == 0, terms, 0.0), axis=0)


def _cdf_cvm_inf(x, kmax):

    k = snp.arange(kmax, dtype=x.dtype).reshape((-1,) + (1,) * x.ndim)
    u = snp.exp(special.gammaln(k + 0.5) - special.gammaln(k + 1.0)) / (
        math.pi**1.5 * snp.sqrt(x))
    y = 4.0 * k + 1.0
    q = y * y / (16.0 * x)
    return _cut_series(u * snp.sqrt(y) * snp.exp(-q) * special.kv(0.25, q))


def _psi1_mod(x, kmax):

    def ed2(y):
        z = y * y / 4.0
        return (snp.exp(-z) * (y / 2.0) ** 1.5
                * (special.kv(0.25, z) + special.kv(0.75, z)) / math.sqrt(math.pi))

    def ed3(y):
        z = y * y / 4.0
        return (snp.exp(-z) / math.sqrt(math.pi) * (y / 2.0) ** 2.5
                * (2.0 * special.kv(0.25, z) + 3.0 * special.kv(0.75, z)
                   - special.kv(1.25, z)))

    k = snp.arange(kmax, dtype=x.dtype).reshape((-1,) + (1,) * x.ndim)
    m = 2.0 * k + 1.0
    sx = 2.0 * snp.sqrt(x)
    y1, y2 = x**0.75, x**1.25
    g12 = snp.exp(special.gammaln(k + 0.5))
    g32 = snp.exp(special.gammaln(k + 1.5))
    ak = (m * g12 * ed2((4.0 * k + 3.0) / sx) / (9.0 * y1)
          + g12 * ed3((4.0 * k + 1.0) / sx) / (72.0 * y2)
          + 2.0 * (m + 2.0) * g32 * ed3((4.0 * k + 5.0) / sx) / (12.0 * y2)
          + 7.0 * m * g12 * ed2((4.0 * k + 1.0) / sx) / (144.0 * y1)
          + 7.0 * m * g12 * ed2((4.0 * k + 5.0) / sx) / (144.0 * y1))
    return _cut_series(-ak / (math.pi * snp.exp(special.gammaln(k + 1.0))))


def _cdf_cvm(w, n):
    """Csorgo and Faraway's finite-sample approximation of the CDF of the
    Cramer-von Mises statistic (SciPy's ``_cdf_cvm``)."""
    kmax = _cvm_terms(n)
    sup = (1.0 / (12.0 * n) < w) & (w < n / 3.0)
    xs = snp.where(sup, w, 1.0)  # keep the series' arguments finite
    y = _cdf_cvm_inf(xs, kmax) * (1.0 + 1.0 / (12.0 * n)) + _psi1_mod(xs, kmax) / n
    return snp.where(sup, y, snp.where(w >= n / 3.0, 1.0, 0.0))


def cramervonmises(rvs, cdf, args=(), *, axis=0, nan_policy="propagate",
                   keepdims=False):
    """sciax implementation of :func:`scipy.stats.cramervonmises`, the
    one-sample Cramer-von Mises goodness-of-fit test.

    Parameters
    ----------
    rvs : array_like
        The sample.
    cdf : str or callable
        The name of a sciax.stats distribution, or a CDF ``cdf(x, *args)``
        written with sciax.numpy.
    args : tuple
        Parameters of the distribution.
    axis : int or None
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    CramerVonMisesResult
        ``statistic`` and ``pvalue``.

    Raises
    ------
    ValueError
        Fewer than two observations, or an unknown distribution name.

    Notes
    -----
    The p-value is Csorgo and Faraway's approximation, as SciPy, with both
    series truncated where SciPy's loops stop (the first term below 1e-7),
    on a static number of terms.  *Transformations*: jit, vmap, and the
    statistic is differentiable in ``rvs`` and ``args``.

    Examples
    --------
    >>> from sciax.stats import cramervonmises
    >>> x = snp.array([0.31, -1.2, 0.55, 1.7, -0.4, 0.05, 0.9, -2.1, 0.2, 1.1])
    >>> r = cramervonmises(x, "norm")
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.078307 0.712523
    """
    _nan_policy(nan_policy, "cramervonmises")
    if isinstance(cdf, str):
        import sciax.stats as stats  # cycle: the package imports this module

        dist = getattr(stats, cdf, None)
        if dist is None or not hasattr(dist, "cdf"):
            raise ValueError(f"cramervonmises: unknown distribution {cdf!r}")
        cdf = dist.cdf
    x, ax, ndim = _to_last(rvs, axis, "cramervonmises")
    n = x.shape[-1]
    if n <= 1:
        raise ValueError("The sample must contain at least two observations.")
    vals = snp.sort(x, axis=-1)
    u = (2.0 * snp.arange(1, n + 1, dtype=x.dtype) - 1.0) / (2.0 * n)
    w = 1.0 / (12.0 * n) + snp.sum((u - cdf(vals, *args)) ** 2, axis=-1)
    p = snp.clip(1.0 - _cdf_cvm(w, float(n)), 0.0, None)
    if ax is None:
        keep = lambda v: _keepdims(v, None, ndim, keepdims)  # noqa: E731
    else:
        keep = lambda v: _keep_last(v, ax, ndim, keepdims)  # noqa: E731
    return CramerVonMisesResult(keep(w), keep(p))


@functools.lru_cache(maxsize=16)
def _cvm2_exact_table(m, n):
    """Sorted values of the integer form ``zeta`` of the two-sample
    statistic and ``P(zeta >= value)``, counted exactly over the
    ``C(m + n, m)`` lattice paths (Xiao, Gordon and Yakovlev 2006)."""
    lcm = m * n // math.gcd(m, n)
    a, b = lcm // m, lcm // n
    gs = [{0: 1}] + [{} for _ in range(m)]
    for u in range(n + 1):
        nxt, tmp = [], {}
        for v, g in enumerate(gs):
            merged = dict(tmp)
            for val, c in g.items():
                merged[val] = merged.get(val, 0) + c
            res = (a * v - b * u) ** 2
            tmp = {val + res: c for val, c in merged.items()}
            nxt.append(tmp)
        gs = nxt
    items = sorted(gs[m].items())
    total = math.comb(m + n, m)
    values, sf, acc = [], [], total
    for val, c in items:
        values.append(float(val))
        sf.append(acc / total)
        acc -= c
    return values, sf


def cramervonmises_2samp(x, y, method="auto", *, axis=0, nan_policy="propagate",
                         keepdims=False):
    """sciax implementation of :func:`scipy.stats.cramervonmises_2samp`, the
    two-sample Cramer-von Mises test.

    Parameters
    ----------
    x, y : array_like
        The samples (at least two observations each).
    method : {'auto', 'exact', 'asymptotic'}
        ``'auto'``: exact when both samples have at most 20 observations.
    axis : int or None
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    CramerVonMisesResult
        ``statistic`` and ``pvalue``.

    Raises
    ------
    ValueError
        Fewer than two observations in a sample, an unknown method.

    Notes
    -----
    The exact null distribution depends only on the static sizes: it is
    counted once per size on the host in integers and read with a
    ``searchsorted``.  The asymptotic p-value is Anderson's normalisation
    with the one-sample limiting CDF, its series truncated where SciPy's
    stops.  *Transformations*: jit and vmap; the statistic is a function of
    ranks (no useful gradient).

    Examples
    --------
    >>> from sciax.stats import cramervonmises_2samp
    >>> x = snp.array([0.31, -1.2, 0.55, 1.7, -0.4, 0.05, 0.9])
    >>> y = snp.array([1.9, 0.7, 2.5, 1.2, 0.3, 3.1])
    >>> r = cramervonmises_2samp(x, y)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.435897 0.065268
    """
    _nan_policy(nan_policy, "cramervonmises_2samp")
    (x, y), ax, ndim = _samples([x, y], axis, "cramervonmises_2samp")
    nx, ny = x.shape[-1], y.shape[-1]
    if nx <= 1 or ny <= 1:
        raise ValueError("x and y must contain at least two observations.")
    if method not in ("auto", "exact", "asymptotic"):
        raise ValueError("method must be either auto, exact or asymptotic.")
    if method == "auto":
        method = "asymptotic" if max(nx, ny) > 20 else "exact"
    z = snp.concatenate([snp.sort(x, axis=-1), snp.sort(y, axis=-1)], axis=-1)
    r = rankdata(z, axis=-1)
    u = (nx * snp.sum((r[..., :nx] - snp.arange(1, nx + 1, dtype=r.dtype)) ** 2,
                      axis=-1)
         + ny * snp.sum((r[..., nx:] - snp.arange(1, ny + 1, dtype=r.dtype)) ** 2,
                        axis=-1))
    k, big_n = nx * ny, nx + ny
    t = u / (k * big_n) - (4.0 * k - 1.0) / (6.0 * big_n)
    if method == "exact":
        values, sf = _cvm2_exact_table(nx, ny)
        lcm = nx * ny // math.gcd(nx, ny)
        zeta = snp.floor(float(lcm**2 * big_n) * (6.0 * u - k * (4.0 * k - 1.0))
                         / float(6 * k**2))
        idx = snp.searchsorted(snp.asarray(values, u.dtype), zeta, side="left")
        p = snp.concatenate([snp.asarray(sf, u.dtype), snp.zeros((1,), u.dtype)])[idx]
    else:
        et = (1.0 + 1.0 / big_n) / 6.0
        vt = (big_n + 1.0) * (4.0 * k * big_n - 3.0 * (nx**2 + ny**2) - 2.0 * k)
        vt = vt / (45.0 * big_n**2 * 4.0 * k)
        tn = 1.0 / 6.0 + (t - et) / math.sqrt(45.0 * vt)
        ok = tn >= 0.003
        tail = 1.0 - _cdf_cvm_inf(snp.where(ok, tn, 1.0), _cvm_terms(big_n))
        p = snp.where(ok, snp.clip(tail, 0.0, None), 1.0)
    return CramerVonMisesResult(_keep_last(t, ax, ndim, keepdims),
                                _keep_last(p, ax, ndim, keepdims))


class Epps_Singleton_2sampResult(NamedTuple):  # noqa: N801 - SciPy's name
    statistic: Any
    pvalue: Any


def epps_singleton_2samp(x, y, t=(0.4, 0.8), *, axis=0, nan_policy="propagate",
                         keepdims=False):
    """sciax implementation of :func:`scipy.stats.epps_singleton_2samp`, the
    Epps-Singleton test that two samples share a distribution, from their
    empirical characteristic functions at the points ``t``.

    Parameters
    ----------
    x, y : array_like
        The samples (at least five observations each).
    t : sequence of float
        Positive points, rescaled by the pooled semi-interquartile range.
    axis : int or None
    nan_policy : {'propagate'}
    keepdims : bool

    Returns
    -------
    Epps_Singleton_2sampResult
        ``statistic`` (with the small-sample correction below 25
        observations) and ``pvalue`` (chi-squared on the rank of the
        covariance estimate); NaN for slices with non-finite values.

    Raises
    ------
    ValueError
        Fewer than five observations, ``t`` not 1-D or not positive.

    Notes
    -----
    *Differences from SciPy*: no warning when the covariance estimate is
    rank deficient (the p-value then uses its rank, as SciPy's).  With
    several points ``t`` the covariance can be ill conditioned; the
    statistic then agrees with SciPy's to about ``cond * eps`` (the two
    pseudo-inverses come from different LAPACK paths).
    *Transformations*: jit, vmap, and differentiable in the data.

    Examples
    --------
    >>> from sciax.stats import epps_singleton_2samp
    >>> x = snp.array([0.31, -1.2, 0.55, 1.7, -0.4, 0.05, 0.9, -2.1])
    >>> y = snp.array([1.9, 0.7, 2.5, 1.2, 0.3, 3.1, 1.4])
    >>> r = epps_singleton_2samp(x, y)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    5.302367 0.257655
    """

    _nan_policy(nan_policy, "epps_singleton_2samp")
    (x, y), ax, ndim = _samples([x, y], axis, "epps_singleton_2samp")
    nx, ny = x.shape[-1], y.shape[-1]
    if nx < 5 or ny < 5:
        raise ValueError(f"x and y should have at least 5 elements, but len(x) = "
                         f"{nx} and len(y) = {ny}.")
    t = snp.asarray(t, x.dtype)
    if t.ndim > 1:
        raise ValueError(f"t must be 1d, but t.ndim equals {t.ndim}.")
    try:
        bad_t = bool(snp.any(t <= 0))
    except TypeError:  # traced: no check
        bad_t = False
    if bad_t:
        raise ValueError("t must contain positive elements only.")
    n = nx + ny
    ix, iy = ~snp.isfinite(x), ~snp.isfinite(y)
    x, y = snp.where(ix, 1.0, x), snp.where(iy, 1.0, y)
    invalid = snp.any(ix, axis=-1) | snp.any(iy, axis=-1)
    sigma = iqr(snp.concatenate([x, y], axis=-1), axis=-1, keepdims=True) / 2.0
    ts = snp.reshape(t, (-1,) + (1,) * x.ndim) / sigma
    gx = snp.moveaxis(snp.concatenate([snp.cos(ts * x), snp.sin(ts * x)]), 0, -2)
    gy = snp.moveaxis(snp.concatenate([snp.cos(ts * y), snp.sin(ts * y)]), 0, -2)

    def bias_cov(g, m):
        d = g - snp.mean(g, axis=-1, keepdims=True)
        return snp.matmul(d, snp.swapaxes(d, -1, -2)) / m

    est_cov = (n / nx) * bias_cov(gx, nx) + (n / ny) * bias_cov(gy, ny)
    inv = snp.linalg.pinv(est_cov)
    rank = snp.linalg.matrix_rank(inv).astype(x.dtype)
    g_diff = snp.mean(gx, axis=-1) - snp.mean(gy, axis=-1)
    w = n * snp.einsum("...i,...ij,...j->...", g_diff, inv, g_diff)
    if max(nx, ny) < 25:
        w = w / (1.0 + n**-0.45 + 10.1 * (nx**-1.7 + ny**-1.7))
    p = chi2.sf(w, rank)
    w, p = snp.where(invalid, snp.nan, w), snp.where(invalid, snp.nan, p)
    return Epps_Singleton_2sampResult(_keep_last(w, ax, ndim, keepdims),
                                      _keep_last(p, ax, ndim, keepdims))


class Anderson_ksampResult(NamedTuple):  # noqa: N801 - SciPy's name
    statistic: Any
    critical_values: Any
    pvalue: Any

    @property
    def significance_level(self):
        """SciPy's older name of ``pvalue``."""
        return self.pvalue


_NO_VALUE = object()


def _anderson_ksamp_stat(samples, variant):
    """A2kN (Scholz and Stephens), with sums over the distinct values done
    as masked sums over the sorted pooled sample (static shapes)."""
    z = snp.sort(snp.concatenate(samples))
    big_n = z.shape[0]
    first = snp.concatenate([snp.ones((1,), bool), z[1:] != z[:-1]])
    left = snp.sum(z[None, :] < z[:, None], axis=1).astype(z.dtype)
    lj = snp.sum(z[None, :] == z[:, None], axis=1).astype(z.dtype)
    total = 0.0
    for smp in samples:
        ni = float(smp.shape[0])
        m_right = snp.sum(smp[None, :] <= z[:, None], axis=1).astype(z.dtype)
        if variant == "midrank":
            m_left = snp.sum(smp[None, :] < z[:, None], axis=1).astype(z.dtype)
            bj = left + lj / 2.0
            mij = m_right - (m_right - m_left) / 2.0
            inner = (lj / big_n * (big_n * mij - bj * ni) ** 2
                     / (bj * (big_n - bj) - big_n * lj / 4.0))
            total = total + snp.sum(snp.where(first, inner, 0.0)) / ni
        elif variant == "right":
            bj = left + lj
            keep = first & (z != z[-1])
            inner = lj / big_n * (big_n * m_right - bj * ni) ** 2 / snp.where(
                keep, bj * (big_n - bj), 1.0)
            total = total + snp.sum(snp.where(keep, inner, 0.0)) / ni
        else:
            j = snp.arange(1, big_n, dtype=z.dtype)
            mij = m_right[:-1]
            total = total + snp.sum((big_n * mij - j * ni) ** 2
                                    / (j * (big_n - j))) / ni
    if variant == "midrank":
        return total * (big_n - 1.0) / big_n
    if variant == "continuous":
        return total / big_n
    return total


def anderson_ksamp(samples, midrank=_NO_VALUE, *, variant=_NO_VALUE, method=None):
    """sciax implementation of :func:`scipy.stats.anderson_ksamp`, the
    k-sample Anderson-Darling test.

    Parameters
    ----------
    samples : sequence of array_like
        Two or more one-dimensional samples.
    midrank : bool, optional
        Deprecated in SciPy in favour of ``variant``.
    variant : {'midrank', 'right', 'continuous'}, optional
        Without it, SciPy (and sciax) warns and returns the older result
        with critical values.
    method : None
        Permutation p-values are not supported.

    Returns
    -------
    Anderson_ksampResult or SignificanceResult
        ``statistic``, ``critical_values`` (at 25%, 10%, 5%, 2.5%, 1%,
        0.5%, 0.1%) and ``pvalue`` without ``variant``; ``statistic`` and
        ``pvalue`` with it.  The p-value interpolates the tabulated levels
        (a quadratic in the critical values, fitted in logs) and is capped
        to ``[0.001, 0.25]``.

    Raises
    ------
    ValueError
        Fewer than two samples, an empty sample, an unknown variant; with
        concrete data, a single distinct value.
    NotImplementedError
        ``method`` other than None.

    Notes
    -----
    *Differences from SciPy*: the capping warning is given only for
    concrete data.  *Transformations*: jit (sizes static); the statistic is
    a function of ranks.

    Examples
    --------
    >>> from sciax.stats import anderson_ksamp
    >>> x = snp.array([0.31, -1.2, 0.55, 1.7, -0.4, 0.05, 0.9, -2.1])
    >>> y = snp.array([1.9, 0.7, 2.5, 1.2, 0.3, 3.1, 1.4])
    >>> r = anderson_ksamp([x, y], variant="midrank")
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    2.990036 0.019649
    """


    k = len(samples)
    if k < 2:
        raise ValueError("anderson_ksamp needs at least two samples")
    if method is not None:
        raise NotImplementedError("anderson_ksamp: permutation p-values (method=) "
                                  "are not supported")
    samples = [snp.ravel(_arr(smp)) for smp in samples]
    if any(smp.shape[0] == 0 for smp in samples):
        raise ValueError("anderson_ksamp encountered sample without observations")
    try:
        pooled = snp.concatenate(samples)
        distinct = bool(snp.any(pooled != pooled[0]))
    except TypeError:  # traced: no check
        distinct = True
    if not distinct:
        raise ValueError("anderson_ksamp needs more than one distinct observation")
    if variant is _NO_VALUE or midrank is not _NO_VALUE:
        warnings.warn("Parameter `variant` has been introduced to replace `midrank`; "
                      "`midrank` will be removed in SciPy 1.19.0. Specify `variant` "
                      "to silence this warning. Note that the returned object will "
                      "no longer be unpackable as a tuple, and `critical_values` "
                      "will be omitted.", UserWarning, stacklevel=2)
    old_result = variant is _NO_VALUE
    if old_result:
        variant = "midrank" if (midrank is _NO_VALUE or midrank) else "right"
    if variant not in ("midrank", "right", "continuous"):
        raise ValueError("`variant` must be one of 'midrank', 'right', or "
                         "'continuous'.")
    a2kn = _anderson_ksamp_stat(samples, variant)
    ns = [smp.shape[0] for smp in samples]
    big_n = sum(ns)
    hs = [1.0 / v for v in range(big_n - 1, 1, -1)]
    hs_cs, acc = [], 0.0
    for v in hs:
        acc += v
        hs_cs.append(acc)
    big_h = sum(1.0 / v for v in ns)
    h = hs_cs[-1] + 1.0 if hs_cs else 1.0
    g = sum(c / j for c, j in zip(hs_cs, range(2, big_n)))
    a = (4 * g - 6) * (k - 1) + (10 - 6 * g) * big_h
    b = ((2 * g - 4) * k**2 + 8 * h * k + (2 * g - 14 * h - 4) * big_h - 8 * h
         + 4 * g - 6)
    c = (6 * h + 2 * g - 2) * k**2 + (4 * h - 4 * g + 6) * k + (2 * h - 6) * big_h \
        + 4 * h
    d = (2 * h + 6) * k**2 - 4 * h * k
    sigmasq = (a * big_n**3 + b * big_n**2 + c * big_n + d) / (
        (big_n - 1.0) * (big_n - 2.0) * (big_n - 3.0))
    m = k - 1
    a2 = (a2kn - m) / math.sqrt(sigmasq)
    b0 = [0.675, 1.281, 1.645, 1.96, 2.326, 2.573, 3.085]
    b1 = [-0.245, 0.25, 0.678, 1.149, 1.822, 2.364, 3.615]
    b2 = [-0.105, -0.305, -0.362, -0.391, -0.396, -0.345, -0.154]
    crit = [u + v / math.sqrt(m) + w / m for u, v, w in zip(b0, b1, b2)]
    sig = [0.25, 0.1, 0.05, 0.025, 0.01, 0.005, 0.001]
    coef = snp.polyfit(snp.asarray(crit, a2.dtype), snp.log(snp.asarray(sig, a2.dtype)),
                       2)
    p = snp.exp(snp.polyval(coef, a2))
    p = snp.where(a2 < min(crit), max(sig), snp.where(a2 > max(crit), min(sig), p))
    try:
        a2_val = float(a2)
    except TypeError:  # traced: no warning
        a2_val = None
    if a2_val is not None and a2_val < min(crit):
        warnings.warn(f"p-value capped: true value larger than {max(sig)}. "
                      "Permutation p-values are not available in sciax.",
                      stacklevel=2)
    elif a2_val is not None and a2_val > max(crit):
        warnings.warn(f"p-value floored: true value smaller than {min(sig)}. "
                      "Permutation p-values are not available in sciax.",
                      stacklevel=2)
    if old_result:
        return Anderson_ksampResult(a2, snp.asarray(crit, a2.dtype), p)
    return SignificanceResult(a2, p)


def median_test(*samples, ties="below", correction=True, lambda_=1,
                nan_policy="propagate"):
    """sciax implementation of :func:`scipy.stats.median_test`, Mood's
    median test: a chi-squared contingency test of the counts above and
    below the grand median.

    Parameters
    ----------
    *samples : array_like
        Two or more one-dimensional samples.
    ties : {'below', 'above', 'ignore'}
        Where values equal to the grand median are counted.
    correction : bool
        Yates' correction for a 2x2 table.
    lambda_ : float or str
        The power-divergence statistic (see :func:`power_divergence`).
    nan_policy : {'propagate'}

    Returns
    -------
    MedianTestResult
        ``statistic``, ``pvalue``, ``median`` and the 2 x k ``table``
        (counts as floats).

    Raises
    ------
    ValueError
        Fewer than two samples, an empty or multi-dimensional sample, an
        unknown ``ties``; with concrete data, all values on one side of the
        grand median (as SciPy).

    Notes
    -----
    *Differences from SciPy*: with NaNs SciPy returns ``table=None``;
    sciax returns a table of NaNs.  The checks on the table need concrete
    data and are skipped under jit.  *Transformations*: jit and vmap.

    Examples
    --------
    >>> from sciax.stats import median_test
    >>> g1 = snp.array([10.0, 14.0, 14.0, 18.0, 20.0, 22.0, 24.0, 25.0, 31.0, 31.0])
    >>> g2 = snp.array([28.0, 30.0, 31.0, 33.0, 34.0, 35.0, 36.0, 40.0, 44.0])
    >>> r = median_test(g1, g2)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6), float(r.median))
    4.236883 0.039555 30.0
    """

    if len(samples) < 2:
        raise ValueError("median_test requires two or more samples.")
    if ties not in ("below", "above", "ignore"):
        raise ValueError(f"invalid 'ties' option '{ties}'; 'ties' must be one of: "
                         "'below', 'above', 'ignore'")
    _nan_policy(nan_policy, "median_test")
    data = [_arr(s) for s in samples]
    for k, d in enumerate(data):
        if d.size == 0:
            raise ValueError(f"Sample {k + 1} is empty. All samples must contain at "
                             "least one value.")
        if d.ndim != 1:
            raise ValueError(f"Sample {k + 1} has {d.ndim} dimensions. All samples "
                             "must be one-dimensional sequences.")
    allx = snp.concatenate(data)
    med = snp.median(allx)
    above = snp.stack([snp.sum(d > med) for d in data]).astype(allx.dtype)
    below = snp.stack([snp.sum(d < med) for d in data]).astype(allx.dtype)
    equal = snp.asarray([float(d.shape[0]) for d in data], allx.dtype) - above - below
    if ties == "below":
        below = below + equal
    elif ties == "above":
        above = above + equal
    table = snp.stack([above, below])
    try:
        rows = [float(v) for v in snp.sum(table, axis=1)]
        cols_empty = [bool(v) for v in snp.all(table == 0, axis=0)]
        concrete = True
    except TypeError:  # traced: skip the checks
        concrete = False
    if concrete and not math.isnan(rows[0]):
        if rows[0] == 0:
            raise ValueError(f"All values are below the grand median ({float(med)}).")
        if rows[1] == 0:
            raise ValueError(f"All values are above the grand median ({float(med)}).")
        if ties == "ignore" and any(cols_empty):
            k = cols_empty.index(True)
            raise ValueError(f"All values in sample {k + 1} are equal to the grand "
                             f"median ({float(med)!r}), so they are ignored, "
                             "resulting in an empty sample.")
    res = chi2_contingency(table, correction=correction, lambda_=lambda_)
    has_nan = snp.any(snp.isnan(allx))
    nan = snp.asarray(snp.nan, allx.dtype)
    return MedianTestResult(snp.where(has_nan, nan, res.statistic),
                            snp.where(has_nan, nan, res.pvalue),
                            snp.where(has_nan, nan, med),
                            snp.where(has_nan, nan, table))


# --- Tukey's HSD and Somers' D ---------------------------------------------------


class SomersDResult(NamedTuple):
    statistic: Any
    pvalue: Any
    table: Any

    @property
    def correlation(self):
        """SciPy's alias of ``statistic``."""
        return self.statistic


class TukeyHSDResult(NamedTuple):
    statistic: Any
    pvalue: Any
    df: Any
    stand_err: Any

    def confidence_interval(self, confidence_level=0.95):
        """Simultaneous confidence intervals of the mean differences
        (Tukey-Kramer), as SciPy's ``TukeyHSDResult.confidence_interval``."""

        if not 0 < confidence_level < 1:
            raise ValueError("Confidence level must be between 0 and 1.")
        k = self.statistic.shape[0]
        crit = studentized_range.ppf(confidence_level, k, self.df) * self.stand_err
        return ConfidenceInterval(self.statistic - crit, self.statistic + crit)


def tukey_hsd(*args, equal_var=True):
    """sciax implementation of :func:`scipy.stats.tukey_hsd`: Tukey's
    honestly significant difference test of all pairs of means (Tukey-Kramer
    for unequal sizes; Games-Howell with ``equal_var=False``).

    Parameters
    ----------
    *args : array_like
        Two or more one-dimensional samples.
    equal_var : bool

    Returns
    -------
    TukeyHSDResult
        ``statistic`` (``mean_i - mean_j``), ``pvalue`` (from the
        studentized range distribution), ``df`` and ``stand_err``, and the
        method ``confidence_interval(confidence_level=0.95)``.

    Raises
    ------
    ValueError
        Fewer than two samples, a sample that is not one-dimensional or has
        fewer than two observations; with concrete data, non-finite values.
    TypeError
        A non-boolean ``equal_var``.

    Notes
    -----
    *Differences from SciPy*: the result is a named tuple; SciPy keeps the
    degrees of freedom and standard errors in private attributes.
    SciPy's ``studentized_range`` integrates numerically with tolerances
    near 1e-8 relative and sciax's uses fixed Gauss-Legendre rules, so the
    p-values agree to about 1e-11 relative, not to rounding.
    *Transformations*: jit; differentiable in the data.

    Examples
    --------
    >>> from sciax.stats import tukey_hsd
    >>> g0 = snp.array([24.5, 23.5, 26.4, 27.1, 29.9])
    >>> g1 = snp.array([28.4, 34.2, 29.5, 32.2, 30.1])
    >>> g2 = snp.array([26.1, 28.3, 24.3, 26.2, 27.8])
    >>> r = tukey_hsd(g0, g1, g2)
    >>> print(np.round(r.pvalue, 4))
    [[1.     0.0144 0.9803]
     [0.0144 1.     0.0203]
     [0.9803 0.0203 1.    ]]
    """

    if len(args) < 2:
        raise ValueError("There must be more than 1 treatment.")
    if not isinstance(equal_var, bool):
        raise TypeError("Expected a boolean value for 'equal_var'")
    args = [_arr(a) for a in args]
    for a in args:
        if a.ndim != 1:
            raise ValueError("Input samples must be one-dimensional.")
        if a.size <= 1:
            raise ValueError("Input sample size must be greater than one.")
        try:
            inf = bool(snp.any(snp.isinf(a)))
        except TypeError:  # traced: no check
            inf = False
        if inf:
            raise ValueError("Input samples must be finite.")
    k = len(args)
    ns = [a.size for a in args]
    nobs = sum(ns)
    means = snp.stack([snp.mean(a) for a in args])
    vars_ = snp.stack([snp.var(a, ddof=1) for a in args])
    nsa = snp.asarray(ns, means.dtype)
    if equal_var:
        mse = snp.sum(vars_ * (nsa - 1.0)) / (nobs - k)
        if len(set(ns)) == 1:
            normalize = snp.full((k, k), 2.0 / ns[0], means.dtype)
        else:
            normalize = 1.0 / nsa + 1.0 / nsa[:, None]
        stand_err = snp.sqrt(normalize * mse / 2.0)
        df = snp.full((k, k), float(nobs - k), means.dtype)
    else:
        sj = vars_ / nsa
        si = sj[:, None]
        stand_err = snp.sqrt(si + sj) / math.sqrt(2.0)
        nj1 = nsa - 1.0
        df = (si + sj) ** 2 / (si**2 / nj1[:, None] + sj**2 / nj1)
    diff = means[:, None] - means
    pvalue = studentized_range.sf(snp.abs(diff) / stand_err, float(k), df)
    return TukeyHSDResult(diff, pvalue, df if not equal_var else df[0, 0], stand_err)


def _somers_from_table(a):
    """(P - Q, N^2 - sum of squared row sums, sum a_ij (A_ij - D_ij)^2, N)."""
    def cum(t):
        return snp.cumsum(snp.cumsum(t, axis=0), axis=1)

    def pad(t):
        return snp.pad(t, ((1, 0), (1, 0)))

    # cells strictly above-left / below-right / above-right / below-left
    ul = pad(cum(a))[:-1, :-1]
    lr = pad(cum(a[::-1, ::-1]))[:-1, :-1][::-1, ::-1]
    ur = pad(cum(a[:, ::-1]))[:-1, :-1][:, ::-1]
    ll = pad(cum(a[::-1, :]))[:-1, :-1][::-1, :]
    conc, disc = ul + lr, ur + ll
    n = snp.sum(a)
    pq = snp.sum(a * (conc - disc))
    denom = n * n - snp.sum(snp.sum(a, axis=1) ** 2)
    s2 = snp.sum(a * (conc - disc) ** 2)
    return pq, denom, s2, n


def _somers_from_pairs(x, y):
    sx = snp.sign(x[:, None] - x[None, :])
    sy = snp.sign(y[:, None] - y[None, :])
    per = snp.sum(sx * sy, axis=1)   # concordant minus discordant, per point
    n = float(x.shape[0])
    denom = n * n - snp.sum((x[:, None] == x[None, :]).astype(x.dtype))
    return snp.sum(per), denom, snp.sum(per * per), n


def somersd(x, y=None, alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.somersd`: Somers' D(Y|X),
    an asymmetric rank correlation, with its asymptotic normal test.

    Parameters
    ----------
    x : array_like
        A 1-D ranking (with ``y``) or a 2-D contingency table (rows: the
        categories of the independent variable).
    y : array_like, optional
        The second 1-D ranking.
    alternative : {'two-sided', 'less', 'greater'}

    Returns
    -------
    SomersDResult
        ``statistic`` (also ``correlation``), ``pvalue`` and ``table`` (the
        contingency table; ``None`` under jit for 1-D input, whose table
        shape depends on the number of distinct values).

    Raises
    ------
    ValueError
        Rankings of unequal length, input of another rank; with concrete
        data, a table with negative, non-integer or fewer than two nonzero
        entries.

    Notes
    -----
    For rankings, concordant and discordant pairs are counted from the
    pairwise signs (``O(n^2)`` memory), which gives the same sums as
    SciPy's table formulas without the data-dependent table shape.
    *Transformations*: jit and vmap (ranks: no useful gradient).

    Examples
    --------
    >>> from sciax.stats import somersd
    >>> table = snp.array([[27.0, 25.0, 14.0, 7.0, 0.0], [7.0, 14.0, 18.0, 35.0, 12.0],
    ...                    [1.0, 3.0, 2.0, 7.0, 17.0]])
    >>> r = somersd(table)
    >>> print(round(float(r.statistic), 6), float(r.pvalue) < 1e-20)
    0.603277 True
    """
    _alternative(alternative)
    x = _arr(x)
    if x.ndim == 1:
        if y is None:
            raise ValueError("somersd: y is required with a 1-D x")
        y = _arr(y)
        if x.size != y.size:
            raise ValueError("Rankings must be of equal length.")
        pq, denom, s2, n = _somers_from_pairs(x, y)
        try:
            ux, uy = snp.unique(x), snp.unique(y)
            table = snp.sum((x[:, None, None] == ux[:, None])
                            & (y[:, None, None] == uy[None, :]), axis=0)
        except Exception:  # noqa: BLE001 - traced: the table's shape is unknown
            table = None
    elif x.ndim == 2:
        try:
            neg = bool(snp.any(x < 0))
            nonint = bool(snp.any(x != snp.round(x)))
            nnz = int(snp.sum(x != 0))
        except TypeError:  # traced: no checks
            neg = nonint = False
            nnz = 2
        if neg:
            raise ValueError("All elements of the contingency table must be "
                             "non-negative.")
        if nonint:
            raise ValueError("All elements of the contingency table must be "
                             "integer.")
        if nnz < 2:
            raise ValueError("At least two elements of the contingency table must "
                             "be nonzero.")
        table = x
        if x.shape[0] <= 1 or x.shape[1] <= 1:
            nan = snp.asarray(snp.nan, x.dtype)
            return SomersDResult(nan, nan, table)
        pq, denom, s2, n = _somers_from_table(x)
    else:
        raise ValueError("x must be either a 1D or 2D array")
    d = pq / denom
    s = s2 - pq * pq / n
    z = pq / snp.sqrt(4.0 * s)
    return SomersDResult(d, _norm_pvalue(z, alternative), table)


# --- Page's trend test ----------------------------------------------------------------


@sciax.tree_util.register_pytree_node_class
class PageTrendTestResult:
    """``statistic``, ``pvalue`` and ``method`` (static: chosen from the
    data's shape), a pytree whose leaves are the two arrays."""

    def __init__(self, statistic, pvalue, method):
        self.statistic, self.pvalue, self.method = statistic, pvalue, method

    def tree_flatten(self):
        return (self.statistic, self.pvalue), self.method

    @classmethod
    def tree_unflatten(cls, method, children):
        return cls(*children, method)

    def __iter__(self):
        return iter((self.statistic, self.pvalue, self.method))

    def __repr__(self):
        return (f"PageTrendTestResult(statistic={self.statistic!r}, "
                f"pvalue={self.pvalue!r}, method={self.method!r})")


@functools.lru_cache(maxsize=32)
def _page_sf_table(m, n):
    """(lowest L, P(L >= l) for l from there), exact in integers: the
    distribution of one row's ``sum_j j pi(j)`` over the n! permutations,
    convolved over ``m`` independent rows."""

    a = n * (n + 1) * (n + 2) // 6
    b = n * (n + 1) * (2 * n + 1) // 6
    row = [0] * (b - a + 1)
    for perm in itertools.permutations(range(1, n + 1)):
        row[sum(j * p for j, p in zip(range(1, n + 1), perm)) - a] += 1
    dist = [1]
    for _ in range(m):
        new = [0] * (len(dist) + len(row) - 1)
        for i, c in enumerate(dist):
            if c:
                for j, r in enumerate(row):
                    new[i + j] += c * r
        dist = new
    total = sum(dist)
    sf, acc = [], total
    for c in dist:
        sf.append(acc / total)
        acc -= c
    return m * a, sf


def page_trend_test(data, ranked=False, predicted_ranks=None, method="auto"):
    """sciax implementation of :func:`scipy.stats.page_trend_test`, Page's
    test for a monotonic trend across treatments (columns) in blocks (rows).

    Parameters
    ----------
    data : array_like, shape (m, n)
        ``m >= 2`` blocks (rows), ``n >= 3`` treatments (columns).
    ranked : bool
        Whether ``data`` already holds ranks within rows.
    predicted_ranks : sequence of int, optional
        The predicted rank of each column (a permutation of ``1..n``);
        ``1..n`` by default.
    method : {'auto', 'asymptotic', 'exact'}
        ``'auto'``: exact unless ``n > 8``, ``m > 20``, or ``m > 12`` and
        ``n > 3`` (SciPy's rule, from the shape).

    Returns
    -------
    PageTrendTestResult
        ``statistic`` (L), ``pvalue`` (one-sided: an increasing trend) and
        ``method``; a pytree whose ``method`` is static.

    Raises
    ------
    ValueError
        Data not 2-D or too small, bad ``predicted_ranks`` or method; with
        concrete data, NaNs or improperly ranked data.
    TypeError
        A non-boolean ``ranked``.

    Notes
    -----
    The exact null distribution depends only on ``(m, n)``: it is counted
    once on the host in integers (SciPy sums floating-point
    probabilities), and the exact p-value is read at ``floor(L)``, as SciPy.
    *Transformations*: jit and vmap (ranks: no useful gradient).

    Examples
    --------
    >>> from sciax.stats import page_trend_test
    >>> data = snp.array([[1.0, 2.0, 3.0], [1.5, 1.4, 2.2], [0.3, 0.9, 0.8],
    ...                   [2.0, 2.5, 3.1]])
    >>> r = page_trend_test(data)
    >>> print(float(r.statistic), round(float(r.pvalue), 6), r.method)
    54.0 0.025463 exact
    """
    if method not in ("asymptotic", "exact", "auto"):
        raise ValueError("`method` must be in {'asymptotic', 'exact', 'auto'}")
    x = _arr(data)
    if x.ndim != 2:
        raise ValueError("`data` must be a 2d array.")
    m, n = x.shape
    if m < 2 or n < 3:
        raise ValueError("Page's L is only appropriate for data with two or more "
                         "rows and three or more columns.")
    try:
        has_nan = bool(snp.any(snp.isnan(x)))
        lo, hi = float(snp.min(x)), float(snp.max(x))
    except TypeError:  # traced: no checks
        has_nan, lo, hi = False, 1.0, float(n)
    if has_nan:
        raise ValueError("`data` contains NaNs, which cannot be ranked meaningfully")
    if not isinstance(ranked, bool):
        raise TypeError("`ranked` must be boolean.")
    if predicted_ranks is None:
        pred = list(range(1, n + 1))
    else:
        try:
            pred = [int(v) for v in predicted_ranks]
        except TypeError:
            pred = []
        if sorted(pred) != list(range(1, n + 1)):
            raise ValueError(f"`predicted_ranks` must include each integer from 1 to "
                             f"{n} (the number of columns in `data`) exactly once.")
    if ranked:
        if not (lo >= 1 and hi <= n):
            raise ValueError("`data` is not properly ranked. Rank the data or pass "
                             "`ranked=False`.")
        ranks = x
    else:
        ranks = rankdata(x, axis=-1)
    big_l = snp.sum(snp.asarray(pred, x.dtype) * snp.sum(ranks, axis=0))
    if method == "auto":
        method = ("asymptotic" if n > 8 or (m > 12 and n > 3) or m > 20
                  else "exact")
    if method == "asymptotic":
        e0 = m * n * (n + 1.0) ** 2 / 4.0
        v0 = m * n**2 * (n + 1.0) * (n * n - 1.0) / 144.0
        p = _sf.ndtr(-(big_l - e0) / math.sqrt(v0))
    else:
        start, sf = _page_sf_table(m, n)
        k = snp.clip(snp.floor(big_l) - start, 0, len(sf) - 1).astype(snp.int32)
        p = snp.asarray(sf, x.dtype)[k]
    return PageTrendTestResult(big_l, p, method)


__all__ = ["FriedmanchisquareResult", "BrunnerMunzelResult", "AnsariResult",
           "AlexanderGovernResult", "CramerVonMisesResult", "MedianTestResult",
           "friedmanchisquare", "brunnermunzel", "mood", "ansari", "alexandergovern",
           "chatterjeexi", "cramervonmises", "median_test", "SomersDResult",
           "TukeyHSDResult", "tukey_hsd", "somersd", "PageTrendTestResult",
           "page_trend_test", "cramervonmises_2samp", "Epps_Singleton_2sampResult",
           "epps_singleton_2samp", "Anderson_ksampResult", "anderson_ksamp"]
