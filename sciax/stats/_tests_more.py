"""Rank, contingency, variance-homogeneity and normality tests with SciPy's
names, signatures and result objects (named tuples, so they are pytrees).

Exact null distributions (Mann-Whitney U, Wilcoxon signed rank, Kendall's
tau) depend only on the sample sizes, which are static shapes: they are
tabulated once per size on the host with exact integer arithmetic and read
with a gather, so the exact p-values also run under ``jit`` and ``vmap``.
SciPy's ``method='auto'`` choices that depend on the data (ties, zeros) are
made with ``where`` between both p-values for the same reason.
"""

from __future__ import annotations

import functools
import math
from typing import Any, NamedTuple

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.stats import _sf
from sciax.stats._continuous_special import beta, chi2, f as f_dist
from sciax.stats._discrete import binom, hypergeom
from sciax.stats._stats_py import (SignificanceResult, _alternative, _arr, _t_pvalue,
                                   kurtosis, pearsonr, power_divergence, rankdata,
                                   skew, trim_mean)


class MannwhitneyuResult(NamedTuple):
    statistic: Any
    pvalue: Any


class WilcoxonResult(NamedTuple):
    statistic: Any
    pvalue: Any


class RanksumsResult(NamedTuple):
    statistic: Any
    pvalue: Any


class KruskalResult(NamedTuple):
    statistic: Any
    pvalue: Any


class F_onewayResult(NamedTuple):  # noqa: N801 - SciPy's name
    statistic: Any
    pvalue: Any


class Chi2ContingencyResult(NamedTuple):
    statistic: Any
    pvalue: Any
    dof: Any
    expected_freq: Any


class Ttest_indResult(NamedTuple):  # noqa: N801 - SciPy's name
    statistic: Any
    pvalue: Any


class LeveneResult(NamedTuple):
    statistic: Any
    pvalue: Any


class BartlettResult(NamedTuple):
    statistic: Any
    pvalue: Any


class FlignerResult(NamedTuple):
    statistic: Any
    pvalue: Any


class SkewtestResult(NamedTuple):
    statistic: Any
    pvalue: Any


class KurtosistestResult(NamedTuple):
    statistic: Any
    pvalue: Any


class NormaltestResult(NamedTuple):
    statistic: Any
    pvalue: Any


class ConfidenceInterval(NamedTuple):
    low: Any
    high: Any


class BinomTestResult(NamedTuple):
    k: Any
    n: Any
    alternative: str
    statistic: Any
    pvalue: Any

    def proportion_ci(self, confidence_level=0.95, method="exact"):
        """The confidence interval of the proportion (``'exact'``:
        Clopper-Pearson, ``'wilson'``, ``'wilsoncc'``), as SciPy's."""
        return _binom_ci(self.k, self.n, self.alternative, confidence_level, method)


# --- helpers -----------------------------------------------------------------------


def _last(a, axis):
    """``a`` as floats with the sample along the last axis."""
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


def _norm_pvalue(z, alternative):
    _alternative(alternative)
    if alternative == "less":
        return _sf.ndtr(z)
    if alternative == "greater":
        return _sf.ndtr(-z)
    return 2.0 * _sf.ndtr(-snp.abs(z))


def _tie_counts(x):
    """For each element of ``x`` (last axis), how many elements equal it."""
    return rankdata(x, "max", axis=-1) - rankdata(x, "min", axis=-1) + 1.0


def _concat_samples(samples, axis):
    samples = [_last(s, axis) for s in samples]
    batch = np.broadcast_shapes(*(s.shape[:-1] for s in samples))
    samples = [snp.broadcast_to(s, batch + s.shape[-1:]) for s in samples]
    return samples, snp.concatenate(samples, axis=-1)


def _split_sums(x, sizes):
    out, start = [], 0
    for n in sizes:
        out.append(snp.sum(x[..., start:start + n], axis=-1))
        start += n
    return out


def _method(method, allowed):
    if method not in allowed:
        raise ValueError(f"method must be one of {allowed}, got {method!r}")


def _exact_tail(counts):
    """(cdf, sf) tables of a count vector: P(X <= k) and P(X >= k), from
    exact integers so that far tails keep their relative accuracy."""
    total = sum(counts)
    cum, acc = [], 0
    for c in counts:
        acc += c
        cum.append(acc)
    cdf = [c / total for c in cum]
    sf = [(total - c + p) / total for c, p in zip(cum, counts)]
    return np.asarray(cdf), np.asarray(sf)


@functools.lru_cache(maxsize=64)
def _mwu_tables(n1, n2):
    # counts of U are the coefficients of the Gaussian binomial [n1+n2, n1]_q
    # = prod_{i=1}^{n1} (1 - q^{n2+i}) / (1 - q^i), exact in integers
    size = n1 * n2 + 1
    c = [1] + [0] * (size - 1)
    for i in range(1, n1 + 1):
        a = n2 + i
        for j in range(size - 1, a - 1, -1):
            c[j] -= c[j - a]
        for j in range(i, size):
            c[j] += c[j - i]
    return _exact_tail(c)


@functools.lru_cache(maxsize=64)
def _signrank_tables(n):
    # row m: the distribution of the signed-rank sum of m nonzero differences,
    # prod_{i=1}^m (1 + q^i), padded to n(n+1)/2 + 1 entries
    size = n * (n + 1) // 2 + 1
    cdf, sf = np.ones((n + 1, size)), np.zeros((n + 1, size))
    c = [1] + [0] * (size - 1)
    for m in range(n + 1):
        if m:
            for j in range(size - 1, m - 1, -1):
                c[j] += c[j - m]
        top = m * (m + 1) // 2 + 1
        cdf[m, :top], sf[m, :top] = _exact_tail(c[:top])
    sf[0, 0] = 1.0
    return cdf, sf


@functools.lru_cache(maxsize=64)
def _kendall_tables(n):
    # Mahonian numbers: permutations of n with c inversions, prod_j [j]_q
    size = n * (n - 1) // 2 + 1
    c = [1] + [0] * (size - 1)
    for j in range(2, n + 1):
        # multiply by 1 + q + ... + q^{j-1}: a running window sum
        new, run = [0] * size, 0
        for k in range(size):
            run += c[k]
            if k >= j:
                run -= c[k - j]
            new[k] = run
        c = new
    return _exact_tail(c)


def _table_pvalue(cdf, sf, k_lo, k_hi, alternative):
    """p-value of a statistic on an integer lattice: ``less`` reads
    P(X <= k_hi), ``greater`` P(X >= k_lo)."""
    cdf, sf = snp.asarray(cdf), snp.asarray(sf)
    last = cdf.shape[-1] - 1
    lo = snp.clip(k_lo, 0, last).astype(snp.int32)
    hi = snp.clip(k_hi, 0, last).astype(snp.int32)
    p_less, p_greater = cdf[hi], sf[lo]
    if alternative == "less":
        return p_less
    if alternative == "greater":
        return p_greater
    return snp.minimum(2.0 * snp.minimum(p_less, p_greater), 1.0)


# --- rank tests --------------------------------------------------------------------


def mannwhitneyu(x, y, use_continuity=True, alternative="two-sided", axis=0,
                 method="auto", *, nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.mannwhitneyu`.

    Parameters
    ----------
    x, y : array_like
        The two samples.
    use_continuity : bool
        Apply the 1/2 continuity correction (asymptotic method).
    alternative : {'two-sided', 'less', 'greater'}
    axis : int or None
    method : {'auto', 'asymptotic', 'exact'}
        ``'auto'`` is exact when one sample has at most 8 observations and
        there are no ties, asymptotic (with tie correction) otherwise.
    nan_policy : str
        Only ``'propagate'`` is meaningful here (no data-dependent shapes).
    keepdims : bool

    Returns
    -------
    MannwhitneyuResult
        ``statistic`` (U of ``x``) and ``pvalue``.

    Notes
    -----
    *Transformations*: jit and vmap (the exact null distribution depends
    only on the static sample sizes; the tie check of ``'auto'`` is a
    ``where``).  Ranks are piecewise constant, so there is no useful gradient.

    Examples
    --------
    >>> from sciax.stats import mannwhitneyu
    >>> r = mannwhitneyu(snp.array([1.0, 4.0, 2.0, 8.0]), snp.array([3.0, 5.0, 9.0, 7.0, 6.0]))
    >>> print(float(r.statistic), round(float(r.pvalue), 6))
    5.0 0.285714
    """
    _nan_policy(nan_policy)
    _alternative(alternative)
    _method(method, ("auto", "asymptotic", "exact"))
    (x, y), xy = _concat_samples([x, y], axis)
    n1, n2 = x.shape[-1], y.shape[-1]
    ranks = rankdata(xy, axis=-1)
    u1 = snp.sum(ranks[..., :n1], axis=-1) - n1 * (n1 + 1) / 2.0
    u2 = n1 * n2 - u1
    if alternative == "greater":
        u, fac = u1, 1.0
    elif alternative == "less":
        u, fac = u2, 1.0
    else:
        u, fac = snp.maximum(u1, u2), 2.0
    counts = _tie_counts(xy)
    n = n1 + n2
    tie_term = snp.sum(counts * counts - 1.0, axis=-1)
    s = snp.sqrt(n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0))))
    z = (u - n1 * n2 / 2.0 - (0.5 if use_continuity else 0.0)) / s
    p_asym = _sf.ndtr(-z) * fac
    if method == "auto" and n1 > 8 and n2 > 8:
        method = "asymptotic"
    if method == "asymptotic":
        p = p_asym
    else:
        _, sf = _mwu_tables(min(n1, n2), max(n1, n2))
        p_exact = snp.asarray(sf)[snp.floor(u).astype(snp.int32)] * fac
        if method == "exact":
            p = p_exact
        else:
            p = snp.where(snp.any(counts > 1, axis=-1), p_asym, p_exact)
    p = snp.clip(p, 0.0, 1.0)
    return MannwhitneyuResult(_keep(u1, keepdims), _keep(p, keepdims))


@functools.lru_cache(maxsize=16)
def _sign_patterns(n):
    return ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(float)


def wilcoxon(x, y=None, zero_method="wilcox", correction=False,
             alternative="two-sided", method="auto", *, axis=0,
             nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.wilcoxon`, the signed-rank
    test of ``x - y`` (or ``x``).

    Parameters
    ----------
    x, y : array_like
    zero_method : {'wilcox', 'pratt', 'zsplit'}
    correction : bool
        Continuity correction of the normal approximation.
    alternative : {'two-sided', 'less', 'greater'}
    method : {'auto', 'exact', 'asymptotic'}
        ``'auto'`` as SciPy: above 50 observations asymptotic; otherwise exact
        without ties or zeros, and with them the exact sign-flip permutation
        distribution (n <= 13) or the normal approximation.
    axis : int or None
    nan_policy : str
        Only ``'propagate'``.
    keepdims : bool

    Returns
    -------
    WilcoxonResult
        ``statistic`` (``min(r_plus, r_minus)`` two-sided, else ``r_plus``) and
        ``pvalue``.

    Notes
    -----
    *Differences from SciPy*: the asymptotic result has no ``zstatistic``
    attribute (named tuples are immutable).  *Transformations*: jit and vmap.

    Examples
    --------
    >>> from sciax.stats import wilcoxon
    >>> d = snp.array([6.0, 8.0, 14.0, 16.0, 23.0, 24.0, 28.0, 29.0, 41.0, -48.0])
    >>> r = wilcoxon(d)
    >>> print(float(r.statistic), round(float(r.pvalue), 6))
    10.0 0.083984
    """
    _nan_policy(nan_policy)
    _alternative(alternative)
    _method(method, ("auto", "asymptotic", "exact"))
    if zero_method not in ("wilcox", "pratt", "zsplit"):
        raise ValueError("zero_method must be 'wilcox', 'pratt' or 'zsplit'")
    d = _last(x, axis) if y is None else _last(x, axis) - _last(y, axis)
    n = d.shape[-1]
    zeros = d == 0
    n_zero = snp.sum(zeros, axis=-1).astype(d.dtype)
    if zero_method == "wilcox":
        d = snp.where(zeros, snp.nan, d)
    absd = snp.abs(d)
    r = rankdata(absd, axis=-1)
    counts = _tie_counts(absd)
    valid = ~snp.isnan(d)
    count = snp.sum(valid, axis=-1).astype(d.dtype)
    r_plus = snp.sum(snp.where(d > 0, r, 0.0), axis=-1)
    r_minus = snp.sum(snp.where(d < 0, r, 0.0), axis=-1)
    tie_mask = valid
    if zero_method == "zsplit":
        half = snp.sum(snp.where(zeros, r, 0.0), axis=-1) / 2.0
        r_plus, r_minus = r_plus + half, r_minus + half
    mn = count * (count + 1.0) * 0.25
    se = count * (count + 1.0) * (2.0 * count + 1.0)
    if zero_method == "pratt":
        mn = mn - n_zero * (n_zero + 1.0) * 0.25
        se = se - n_zero * (n_zero + 1.0) * (2.0 * n_zero + 1.0)
        tie_mask = ~zeros
    tie_term = snp.sum(snp.where(tie_mask, counts * counts - 1.0, 0.0), axis=-1)
    has_ties = snp.any(valid & (counts > 1), axis=-1)
    se = snp.sqrt((se - tie_term / 2.0) / 24.0)
    z = (r_plus - mn) / se
    if correction:
        sign = {"greater": 1.0, "less": -1.0}.get(alternative)
        z = z - (snp.sign(z) if sign is None else sign) * 0.5 / se
    p_asym = _norm_pvalue(z, alternative)

    def p_exact():
        cdf, sf = _signrank_tables(n)
        m = count.astype(snp.int32)
        cdf, sf = snp.asarray(cdf)[m], snp.asarray(sf)[m]
        last = cdf.shape[-1] - 1
        lo = snp.clip(snp.floor(r_plus), 0, last).astype(snp.int32)
        hi = snp.clip(snp.ceil(r_plus), 0, last).astype(snp.int32)
        pl = snp.take_along_axis(cdf, hi[..., None], axis=-1)[..., 0]
        pg = snp.take_along_axis(sf, lo[..., None], axis=-1)[..., 0]
        if alternative == "less":
            return pl
        if alternative == "greater":
            return pg
        return snp.clip(2.0 * snp.minimum(pl, pg), 0.0, 1.0)

    def p_perm():
        # every sign pattern of the nonzero differences, as permutation_test
        # enumerates them (its relative tie tolerance 100 eps included)
        pat = snp.asarray(_sign_patterns(n))
        base = snp.where(valid & (d != 0), r, 0.0)
        null = snp.einsum("pn,...n->...p", pat, base)
        if zero_method == "zsplit":
            null = null + half[..., None]
        gamma = snp.abs(100 * np.finfo(np.float64).eps * r_plus)[..., None]
        obs = r_plus[..., None]
        pl = snp.mean(null <= obs + gamma, axis=-1)
        pg = snp.mean(null >= obs - gamma, axis=-1)
        if alternative == "less":
            return pl
        if alternative == "greater":
            return pg
        return snp.minimum(2.0 * snp.minimum(pl, pg), 1.0)

    if method == "auto" and n > 50:
        method = "asymptotic"
    if method == "asymptotic":
        p = p_asym
    elif method == "exact":
        p = p_exact()
    else:
        other = p_perm() if n <= 13 else p_asym
        p = snp.where(has_ties | snp.any(n_zero > 0), other, p_exact())
    stat = snp.minimum(r_plus, r_minus) if alternative == "two-sided" else r_plus
    return WilcoxonResult(_keep(stat, keepdims), _keep(p, keepdims))


def ranksums(x, y, alternative="two-sided", *, axis=0, nan_policy="propagate",
             keepdims=False):
    """sciax implementation of :func:`scipy.stats.ranksums`, the Wilcoxon
    rank-sum statistic (normal approximation, no tie correction, as SciPy).

    Examples
    --------
    >>> from sciax.stats import ranksums
    >>> r = ranksums(snp.array([1.0, 4.0, 2.0, 8.0]), snp.array([3.0, 5.0, 9.0, 7.0, 6.0]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    -1.224745 0.220671
    """
    _nan_policy(nan_policy)
    (x, y), xy = _concat_samples([x, y], axis)
    n1, n2 = x.shape[-1], y.shape[-1]
    s = snp.sum(rankdata(xy, axis=-1)[..., :n1], axis=-1)
    z = (s - n1 * (n1 + n2 + 1) / 2.0) / math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12.0)
    return RanksumsResult(_keep(z, keepdims),
                          _keep(_norm_pvalue(z, alternative), keepdims))


def kruskal(*samples, nan_policy="propagate", axis=0, keepdims=False):
    """sciax implementation of :func:`scipy.stats.kruskal`, the Kruskal-Wallis
    H test (tie-corrected, chi-squared p-value).

    Examples
    --------
    >>> from sciax.stats import kruskal
    >>> r = kruskal(snp.array([1.0, 3.0, 5.0, 7.0, 9.0]), snp.array([2.0, 4.0, 6.0, 8.0, 10.0]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.272727 0.601508
    """
    _nan_policy(nan_policy)
    if len(samples) < 2:
        raise ValueError("kruskal needs at least two samples")
    samples, allx = _concat_samples(samples, axis)
    sizes = [s.shape[-1] for s in samples]
    n = float(sum(sizes))
    ranks = rankdata(allx, axis=-1)
    h = sum(rs * rs / m for rs, m in zip(_split_sums(ranks, sizes), sizes))
    h = 12.0 / (n * (n + 1.0)) * h - 3.0 * (n + 1.0)
    counts = _tie_counts(allx)
    ties = 1.0 - snp.sum(counts * counts - 1.0, axis=-1) / (n**3 - n)
    h = h / ties
    return KruskalResult(_keep(h, keepdims),
                         _keep(chi2.sf(h, len(samples) - 1.0), keepdims))


# --- one-way ANOVA and variance homogeneity ----------------------------------------


def f_oneway(*samples, axis=0, equal_var=True, nan_policy="propagate",
             keepdims=False):
    """sciax implementation of :func:`scipy.stats.f_oneway` (one-way ANOVA;
    Welch's with ``equal_var=False``).

    Notes
    -----
    *Transformations*: jit, vmap, and differentiable in the data.

    Examples
    --------
    >>> from sciax.stats import f_oneway
    >>> r = f_oneway(snp.array([1.0, 2.0, 3.0]), snp.array([2.0, 4.0, 6.0, 5.0]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    4.036545 0.10076
    """
    _nan_policy(nan_policy)
    if len(samples) < 2:
        raise ValueError("f_oneway needs at least two samples")
    samples = _concat_samples(samples, axis)[0]
    k = len(samples)
    ns = [s.shape[-1] for s in samples]
    n = float(sum(ns))
    means = [snp.mean(s, axis=-1) for s in samples]
    if equal_var:
        grand = sum(m * ni for m, ni in zip(means, ns)) / n
        ssb = sum(ni * (m - grand) ** 2 for m, ni in zip(means, ns))
        ssw = sum(snp.sum((s - m[..., None]) ** 2, axis=-1)
                  for s, m in zip(samples, means))
        dfb, dfw = k - 1.0, n - k
        fstat = (ssb / dfb) / (ssw / dfw)
    else:
        w = [ni / snp.var(s, axis=-1, ddof=1) for s, ni in zip(samples, ns)]
        wsum = sum(w)
        mw = sum(wi * m for wi, m in zip(w, means)) / wsum
        tmp = sum((1.0 - wi / wsum) ** 2 / (ni - 1.0) for wi, ni in zip(w, ns))
        num = sum(wi * (m - mw) ** 2 for wi, m in zip(w, means)) / (k - 1.0)
        fstat = num / (1.0 + 2.0 * (k - 2.0) / (k * k - 1.0) * tmp)
        dfb, dfw = k - 1.0, (k * k - 1.0) / (3.0 * tmp)
    return F_onewayResult(_keep(fstat, keepdims),
                          _keep(f_dist.sf(fstat, dfb, dfw), keepdims))


def _centre(s, center, proportiontocut):
    if center == "median":
        return snp.median(s, axis=-1, keepdims=True)
    if center == "mean":
        return snp.mean(s, axis=-1, keepdims=True)
    if center == "trimmed":
        return trim_mean(s, proportiontocut, axis=-1)[..., None]
    raise ValueError("center must be 'mean', 'median' or 'trimmed'")


def levene(*samples, center="median", proportiontocut=0.05, axis=0,
           nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.levene` (Brown-Forsythe
    with the default ``center='median'``).

    Examples
    --------
    >>> from sciax.stats import levene
    >>> r = levene(snp.array([8.9, 9.1, 9.0, 8.8]), snp.array([7.0, 9.5, 11.2, 8.1]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    9.432558 0.021907
    """
    _nan_policy(nan_policy)
    if len(samples) < 2:
        raise ValueError("levene needs at least two samples")
    samples = _concat_samples(samples, axis)[0]
    k = len(samples)
    ns = [s.shape[-1] for s in samples]
    n = float(sum(ns))
    zs = [snp.abs(s - _centre(s, center, proportiontocut)) for s in samples]
    zbar = [snp.mean(z, axis=-1) for z in zs]
    zbb = sum(zb * ni for zb, ni in zip(zbar, ns)) / n
    num = (n - k) * sum(ni * (zb - zbb) ** 2 for zb, ni in zip(zbar, ns))
    den = (k - 1.0) * sum(snp.sum((z - zb[..., None]) ** 2, axis=-1)
                          for z, zb in zip(zs, zbar))
    w = num / den
    return LeveneResult(_keep(w, keepdims),
                        _keep(f_dist.sf(w, k - 1.0, n - k), keepdims))


def bartlett(*samples, axis=0, nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.bartlett`.

    Examples
    --------
    >>> from sciax.stats import bartlett
    >>> r = bartlett(snp.array([8.9, 9.1, 9.0, 8.8]), snp.array([7.0, 9.5, 11.2, 8.1]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    10.05698 0.001518
    """
    _nan_policy(nan_policy)
    if len(samples) < 2:
        raise ValueError("bartlett needs at least two samples")
    samples = _concat_samples(samples, axis)[0]
    k = len(samples)
    ns = [float(s.shape[-1]) for s in samples]
    n = sum(ns)
    v = [snp.var(s, axis=-1, ddof=1) for s in samples]
    sp = sum((ni - 1.0) * vi for ni, vi in zip(ns, v)) / (n - k)
    num = (n - k) * snp.log(sp) - sum((ni - 1.0) * snp.log(vi) for ni, vi in zip(ns, v))
    den = 1.0 + (sum(1.0 / (ni - 1.0) for ni in ns) - 1.0 / (n - k)) / (3.0 * (k - 1))
    t = num / den
    return BartlettResult(_keep(t, keepdims), _keep(chi2.sf(t, k - 1.0), keepdims))


def fligner(*samples, center="median", proportiontocut=0.05, axis=0,
            nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.fligner` (Fligner-Killeen).

    Examples
    --------
    >>> from sciax.stats import fligner
    >>> r = fligner(snp.array([8.9, 9.1, 9.0, 8.8]), snp.array([7.0, 9.5, 11.2, 8.1]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    4.961705 0.025915
    """
    _nan_policy(nan_policy)
    if len(samples) < 2:
        raise ValueError("fligner needs at least two samples")
    samples = _concat_samples(samples, axis)[0]
    k = len(samples)
    ns = [s.shape[-1] for s in samples]
    n = float(sum(ns))
    allz = snp.concatenate([snp.abs(s - _centre(s, center, proportiontocut))
                            for s in samples], axis=-1)
    a = _sf.ndtri(rankdata(allz, axis=-1) / (2.0 * (n + 1.0)) + 0.5)
    abar = [si / ni for si, ni in zip(_split_sums(a, ns), ns)]
    anbar = snp.mean(a, axis=-1)
    varsq = snp.var(a, axis=-1, ddof=1)
    x = sum(ni * (ab - anbar) ** 2 for ab, ni in zip(abar, ns)) / varsq
    return FlignerResult(_keep(x, keepdims), _keep(chi2.sf(x, k - 1.0), keepdims))


# --- contingency tables and proportions ----------------------------------------------


def chi2_contingency(observed, correction=True, lambda_=None, *, method=None):
    """sciax implementation of :func:`scipy.stats.chi2_contingency`
    (Pearson's test, or any ``power_divergence`` statistic via ``lambda_``;
    Yates' correction when there is one degree of freedom).

    Notes
    -----
    *Differences from SciPy*: ``method`` (resampling) is not supported.
    *Transformations*: jit, vmap (of a function of the table) and
    differentiable in the counts.

    Examples
    --------
    >>> from sciax.stats import chi2_contingency
    >>> r = chi2_contingency(snp.array([[10.0, 10.0, 20.0], [20.0, 20.0, 20.0]]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6), r.dof)
    2.777778 0.249352 2
    """
    if method is not None:
        raise NotImplementedError("chi2_contingency: only method=None")
    observed = _arr(observed)
    ndim = observed.ndim
    total = snp.sum(observed)
    expected = snp.ones_like(observed) * total
    for ax in range(ndim):
        other = tuple(i for i in range(ndim) if i != ax)
        expected = expected * snp.sum(observed, axis=other, keepdims=True) / total
    dof = int(observed.size - sum(observed.shape) + ndim - 1)
    if dof == 0:
        zero = snp.zeros((), observed.dtype) * total
        return Chi2ContingencyResult(zero, zero + 1.0, dof, expected)
    if dof == 1 and correction:
        diff = expected - observed
        observed = observed + snp.minimum(0.5, snp.abs(diff)) * snp.sign(diff)
    res = power_divergence(snp.ravel(observed), snp.ravel(expected),
                           ddof=observed.size - 1 - dof, axis=0, lambda_=lambda_)
    return Chi2ContingencyResult(res.statistic, res.pvalue, dof, expected)


def _concrete_ints(x, what):
    try:
        a = np.asarray(x)
    except Exception as e:  # a tracer
        raise TypeError(f"{what} needs concrete integers (its null distribution's "
                        "support depends on them); it cannot run under jit") from e
    return a.astype(np.int64)


def _tail_sum(pmf, d_ref):
    # SciPy's two-sided rule: the probability of every outcome no more likely
    # than the observed one, with a relative tolerance against rounding
    return snp.minimum(snp.sum(snp.where(pmf <= d_ref, pmf, 0.0)), 1.0)


def fisher_exact(table, alternative="two-sided", *, method=None):
    """sciax implementation of :func:`scipy.stats.fisher_exact` for a 2x2
    table: the sample odds ratio and the hypergeometric p-value.

    Notes
    -----
    *Differences from SciPy*: 2x2 tables only.  *Transformations*: eager
    only; the table must be concrete integers.

    Examples
    --------
    >>> from sciax.stats import fisher_exact
    >>> r = fisher_exact(np.array([[6, 2], [1, 4]]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    12.0 0.102564
    """
    _alternative(alternative)
    c = _concrete_ints(table, "fisher_exact")
    if c.shape != (2, 2):
        raise ValueError("sciax's fisher_exact takes a 2x2 table")
    if (c < 0).any():
        raise ValueError("all values in `table` must be nonnegative")
    if 0 in c.sum(axis=0) or 0 in c.sum(axis=1):
        return SignificanceResult(snp.asarray(snp.nan), snp.asarray(1.0))
    odds = (c[0, 0] * c[1, 1] / (c[1, 0] * c[0, 1]) if c[1, 0] > 0 and c[0, 1] > 0
            else np.inf)
    n1, n2, n = int(c[0].sum()), int(c[1].sum()), int(c[:, 0].sum())
    dist = hypergeom(n1 + n2, n1, n)
    if alternative == "less":
        p = dist.cdf(float(c[0, 0]))
    elif alternative == "greater":
        p = hypergeom.cdf(float(c[0, 1]), n1 + n2, n1, int(c[0, 1] + c[1, 1]))
    else:
        support = snp.arange(max(0, n - n2), min(n, n1) + 1, dtype=float)
        pmf = dist.pmf(support)
        p = _tail_sum(pmf, dist.pmf(float(c[0, 0])) * (1.0 + 1e-14))
    return SignificanceResult(snp.asarray(odds), snp.minimum(p, 1.0))


def binomtest(k, n, p=0.5, alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.binomtest`.

    Returns
    -------
    BinomTestResult
        ``k, n, alternative, statistic`` (k/n) and ``pvalue``, with
        ``proportion_ci(confidence_level, method)``.

    Notes
    -----
    *Transformations*: eager only for the two-sided p-value (its support is
    ``0..n``); ``k`` and ``n`` must be concrete integers.

    Examples
    --------
    >>> from sciax.stats import binomtest
    >>> r = binomtest(3, 15, 0.1)
    >>> print(round(float(r.pvalue), 6))
    0.184061
    """
    _alternative(alternative)
    k, n = int(_concrete_ints(k, "binomtest")), int(_concrete_ints(n, "binomtest"))
    if not 0 <= k <= n or n < 1:
        raise ValueError("binomtest needs 0 <= k <= n and n >= 1")
    if not 0 <= p <= 1:
        raise ValueError("p must be in [0, 1]")
    if alternative == "less":
        pval = binom.cdf(float(k), n, p)
    elif alternative == "greater":
        pval = binom.sf(k - 1.0, n, p)
    elif k == p * n:
        pval = snp.asarray(1.0)
    else:
        pmf = binom.pmf(snp.arange(n + 1, dtype=float), n, p)
        pval = _tail_sum(pmf, binom.pmf(float(k), n, p) * (1.0 + 1e-7))
    return BinomTestResult(k, n, alternative, k / n, pval)


def _binom_ci(k, n, alternative, confidence_level, method):
    if method not in ("exact", "wilson", "wilsoncc"):
        raise ValueError("method must be 'exact', 'wilson' or 'wilsoncc'")
    alpha = (1.0 - confidence_level) / (2.0 if alternative == "two-sided" else 1.0)
    if method == "exact":
        lo = 0.0 if k == 0 or alternative == "less" else beta.ppf(alpha, k, n - k + 1)
        hi = (1.0 if k == n or alternative == "greater"
              else beta.isf(alpha, k + 1, n - k))
        return ConfidenceInterval(snp.asarray(lo), snp.asarray(hi))
    z = float(_sf.ndtri(1.0 - alpha))
    p = k / n
    zz = z * z
    if method == "wilson":
        mid = (k + zz / 2.0) / (n + zz)
        half = z * math.sqrt(k * (n - k) / n + zz / 4.0) / (n + zz)
        lo, hi = mid - half, mid + half
    else:
        den = 2.0 * (n + zz)
        lo = (2 * n * p + zz - 1.0 - z * math.sqrt(zz - 2 - 1.0 / n + 4 * p * (
            n * (1 - p) + 1))) / den if k > 0 else 0.0
        hi = (2 * n * p + zz + 1.0 + z * math.sqrt(zz + 2 - 1.0 / n + 4 * p * (
            n * (1 - p) - 1))) / den if k < n else 1.0
        lo, hi = max(lo, 0.0), min(hi, 1.0)
    if alternative == "less":
        lo = 0.0
    elif alternative == "greater":
        hi = 1.0
    return ConfidenceInterval(snp.asarray(lo), snp.asarray(hi))


# --- correlation -------------------------------------------------------------------


def kendalltau(x, y, *, nan_policy="propagate", method="auto", variant="b",
               alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.kendalltau` (tau-b or
    tau-c; exact or tie-corrected asymptotic p-value, SciPy's ``'auto'``).

    Notes
    -----
    Counts every pair, O(n^2) memory and time.  *Transformations*: jit and
    vmap; ``'auto'`` picks exact or asymptotic with a ``where`` on the ties.

    Examples
    --------
    >>> from sciax.stats import kendalltau
    >>> r = kendalltau(snp.array([12.0, 2.0, 1.0, 12.0, 2.0]), snp.array([1.0, 4.0, 7.0, 1.0, 0.0]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    -0.471405 0.282745
    """
    _nan_policy(nan_policy)
    _alternative(alternative)
    _method(method, ("auto", "asymptotic", "exact"))
    if variant not in ("b", "c"):
        raise ValueError("variant must be 'b' or 'c'")
    x, y = snp.ravel(_arr(x)), snp.ravel(_arr(y))
    if x.shape != y.shape:
        raise ValueError("kendalltau: x and y must have the same size")
    n = x.shape[0]
    sx = snp.sign(x[:, None] - x[None, :])
    sy = snp.sign(y[:, None] - y[None, :])
    upper = snp.triu(snp.ones((n, n), bool), 1)
    s = 0.5 * snp.sum(sx * sy)  # concordant - discordant over i < j
    dis = snp.sum(upper & (sx * sy < 0))
    cx = snp.sum(sx == 0, axis=1).astype(x.dtype)  # tie counts per element
    cy = snp.sum(sy == 0, axis=1).astype(x.dtype)
    tot = n * (n - 1) // 2
    xtie, ytie = snp.sum(cx - 1.0) / 2.0, snp.sum(cy - 1.0) / 2.0
    if variant == "b":
        tau = s / snp.sqrt(tot - xtie) / snp.sqrt(tot - ytie)
    else:
        minclasses = snp.minimum(snp.sum(1.0 / cx), snp.sum(1.0 / cy))
        tau = 2.0 * s / (n * n * (minclasses - 1.0) / minclasses)
    degenerate = (xtie == tot) | (ytie == tot)
    tau = snp.where(degenerate, snp.nan, snp.clip(tau, -1.0, 1.0))
    m = n * (n - 1.0)
    x0, y0 = snp.sum((cx - 1.0) * (cx - 2.0)), snp.sum((cy - 1.0) * (cy - 2.0))
    x1 = snp.sum((cx - 1.0) * (2.0 * cx + 5.0))
    y1 = snp.sum((cy - 1.0) * (2.0 * cy + 5.0))
    var = ((m * (2 * n + 5) - x1 - y1) / 18.0 + 2.0 * xtie * ytie / m
           + (x0 * y0 / (9.0 * m * (n - 2)) if n > 2 else 0.0))
    p_asym = _norm_pvalue(s / snp.sqrt(var), alternative)
    no_ties = (xtie == 0) & (ytie == 0)
    conc = tot - dis
    if n <= 33 or method == "exact":
        cdf, sf = _kendall_tables(n)
        p_exact = _table_pvalue(cdf, sf, conc, conc, alternative)
    else:
        # SciPy's closed forms for c = 0 or 1 inversions; 'auto' uses only them
        cmin = snp.minimum(dis, tot - dis)
        f_n = 1.0 / math.factorial(n) if n < 171 else 0.0
        f_n1 = 1.0 / math.factorial(n - 1) if n < 172 else 0.0
        left = snp.where(cmin == 0, f_n, f_n1)
        mass = snp.where(cmin == 0, f_n, (n - 1.0) * f_n)
        if alternative == "two-sided":
            p_exact = 2.0 * left
        else:
            right_tail = conc >= tot - conc
            agree = right_tail == (alternative == "greater")
            p_exact = snp.where(agree, left, 1.0 - left + mass)
    if method == "exact":
        try:
            tied = not bool(no_ties)
        except Exception:  # traced: the caller vouches for no ties
            tied = False
        if tied:
            raise ValueError("Ties found, exact method cannot be used.")
        p = p_exact
    elif method == "asymptotic":
        p = p_asym
    else:
        use_exact = no_ties & ((n <= 33) | (snp.minimum(dis, tot - dis) <= 1))
        p = snp.where(use_exact, p_exact, p_asym)
    p = snp.where(degenerate, snp.nan, snp.clip(p, 0.0, 1.0))
    return SignificanceResult(tau, p)


def pointbiserialr(x, y):
    """sciax implementation of :func:`scipy.stats.pointbiserialr`: Pearson's r
    between a binary ``x`` and a continuous ``y``.

    Examples
    --------
    >>> from sciax.stats import pointbiserialr
    >>> r = pointbiserialr(snp.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]),
    ...                    snp.arange(7.0))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.866025 0.011725
    """
    res = pearsonr(_arr(x), _arr(y))
    return SignificanceResult(res.statistic, res.pvalue)


# --- tests from summary statistics and of p-values --------------------------------------


def ttest_ind_from_stats(mean1, std1, nobs1, mean2, std2, nobs2, equal_var=True,
                         alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.ttest_ind_from_stats`
    (``std`` with ``ddof=1``).

    Examples
    --------
    >>> from sciax.stats import ttest_ind_from_stats
    >>> r = ttest_ind_from_stats(15.0, 87.5**0.5, 13, 19.0, 39.0**0.5, 11)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    -1.206848 0.240308
    """
    mean1, std1, mean2, std2 = (_arr(v) for v in (mean1, std1, mean2, std2))
    nobs1, nobs2 = _arr(nobs1), _arr(nobs2)
    v1, v2 = std1**2, std2**2
    if equal_var:
        df = nobs1 + nobs2 - 2.0
        svar = ((nobs1 - 1.0) * v1 + (nobs2 - 1.0) * v2) / df
        denom = snp.sqrt(svar * (1.0 / nobs1 + 1.0 / nobs2))
    else:
        vn1, vn2 = v1 / nobs1, v2 / nobs2
        df = (vn1 + vn2) ** 2 / (vn1**2 / (nobs1 - 1.0) + vn2**2 / (nobs2 - 1.0))
        df = snp.where(snp.isnan(df), 1.0, df)
        denom = snp.sqrt(vn1 + vn2)
    t = (mean1 - mean2) / denom
    return Ttest_indResult(t, _t_pvalue(t, df, alternative))


def combine_pvalues(pvalues, method="fisher", weights=None, *, axis=0,
                    nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.combine_pvalues` (methods
    ``'fisher'``, ``'pearson'``, ``'tippett'``, ``'stouffer'``,
    ``'mudholkar_george'``).

    Examples
    --------
    >>> from sciax.stats import combine_pvalues
    >>> r = combine_pvalues(snp.array([0.1, 0.05, 0.02, 0.3]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    20.828626 0.007617
    """
    _nan_policy(nan_policy)
    p = _last(pvalues, axis)
    n = p.shape[-1]
    if method == "fisher":
        stat = -2.0 * snp.sum(snp.log(p), axis=-1)
        pval = chi2.sf(stat, 2.0 * n)
    elif method == "pearson":
        stat = 2.0 * snp.sum(snp.log1p(-p), axis=-1)
        pval = chi2.cdf(-stat, 2.0 * n)
    elif method == "mudholkar_george":
        stat = -snp.sum(snp.log(p), axis=-1) + snp.sum(snp.log1p(-p), axis=-1)
        nu = 5.0 * n + 4.0
        tt = stat * math.sqrt(3.0 / n) / math.pi * math.sqrt(nu / (nu - 2.0))
        pval = _t_pvalue(tt, nu, "greater")
    elif method == "tippett":
        stat = snp.min(p, axis=-1)
        pval = -snp.expm1(n * snp.log1p(-stat))
    elif method == "stouffer":
        w = snp.ones_like(p) if weights is None else _last(weights, axis) + 0 * p
        zi = -_sf.ndtri(p)
        stat = snp.sum(w * zi, axis=-1) / snp.sqrt(snp.sum(w * w, axis=-1))
        pval = _sf.ndtr(-stat)
    else:
        raise ValueError(f"Invalid method {method!r}. Valid methods are 'fisher', "
                         "'pearson', 'mudholkar_george', 'tippett', and 'stouffer'")
    return SignificanceResult(_keep(stat, keepdims), _keep(pval, keepdims))


def false_discovery_control(ps, *, axis=0, method="bh"):
    """sciax implementation of :func:`scipy.stats.false_discovery_control`:
    Benjamini-Hochberg (``'bh'``) or Benjamini-Yekutieli (``'by'``) adjusted
    p-values.

    Examples
    --------
    >>> from sciax.stats import false_discovery_control
    >>> print(np.round(false_discovery_control(snp.array([0.01, 0.04, 0.03, 0.2])), 6))
    [0.04     0.053333 0.053333 0.2     ]
    """
    if method.lower() not in ("bh", "by"):
        raise ValueError("method must be 'bh' or 'by'")
    ps = _arr(ps)
    if axis is None:  # SciPy returns the flattened adjustment
        ps, axis = snp.ravel(ps), -1
    ps = snp.moveaxis(ps, axis, -1)
    m = ps.shape[-1]
    order = snp.argsort(ps, axis=-1)
    s = snp.take_along_axis(ps, order, axis=-1)
    i = snp.arange(1, m + 1, dtype=ps.dtype)
    s = s * (m / i)
    if method.lower() == "by":
        s = s * float(np.sum(1.0 / np.arange(1, m + 1)))
    s = lax.cummin(s, axis=s.ndim - 1, reverse=True)
    out = snp.take_along_axis(s, snp.argsort(order, axis=-1), axis=-1)
    out = snp.clip(out, 0.0, 1.0)
    return snp.moveaxis(out, -1, axis)


# --- normality ---------------------------------------------------------------------


def skewtest(a, axis=0, nan_policy="propagate", alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.skewtest` (D'Agostino's
    transformation of the sample skewness; needs n >= 8).

    Examples
    --------
    >>> from sciax.stats import skewtest
    >>> r = skewtest(snp.array([148.0, 154, 158, 160, 161, 162, 166, 170, 182, 195, 236]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    2.778858 0.005455
    """
    _nan_policy(nan_policy)
    a = _last(a, axis)
    n = float(a.shape[-1])
    if n < 8:
        raise ValueError(f"skewtest is not valid with less than 8 samples; {int(n)} "
                         "samples were given.")
    b2 = skew(a, axis=-1)
    y = b2 * math.sqrt((n + 1) * (n + 3) / (6.0 * (n - 2)))
    beta2 = (3.0 * (n * n + 27 * n - 70) * (n + 1) * (n + 3)
             / ((n - 2.0) * (n + 5) * (n + 7) * (n + 9)))
    w2 = -1.0 + math.sqrt(2 * (beta2 - 1))
    delta = 1.0 / math.sqrt(0.5 * math.log(w2))
    alpha = math.sqrt(2.0 / (w2 - 1))
    y = snp.where(y == 0, 1.0, y)
    z = delta * snp.log(y / alpha + snp.sqrt((y / alpha) ** 2 + 1))
    return SkewtestResult(z, _norm_pvalue(z, alternative))


def kurtosistest(a, axis=0, nan_policy="propagate", alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.kurtosistest` (Anscombe and
    Glynn's transformation of the sample kurtosis).

    Examples
    --------
    >>> from sciax.stats import kurtosistest
    >>> r = kurtosistest(snp.array([148.0, 154, 158, 160, 161, 162, 166, 170, 182, 195, 236]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    2.304824 0.021176
    """
    _nan_policy(nan_policy)
    a = _last(a, axis)
    n = float(a.shape[-1])
    if n < 5:
        raise ValueError("kurtosistest requires at least 5 observations; "
                         f"{int(n)} observations were given.")
    b2 = kurtosis(a, axis=-1, fisher=False)
    e = 3.0 * (n - 1) / (n + 1)
    varb2 = 24.0 * n * (n - 2) * (n - 3) / ((n + 1) ** 2 * (n + 3) * (n + 5))
    x = (b2 - e) / math.sqrt(varb2)
    sb1 = (6.0 * (n * n - 5 * n + 2) / ((n + 7) * (n + 9))
           * math.sqrt(6.0 * (n + 3) * (n + 5) / (n * (n - 2) * (n - 3))))
    aa = 6.0 + 8.0 / sb1 * (2.0 / sb1 + math.sqrt(1 + 4.0 / sb1**2))
    term1 = 1 - 2 / (9.0 * aa)
    denom = 1 + x * math.sqrt(2 / (aa - 4.0))
    term2 = snp.sign(denom) * snp.where(
        denom == 0, snp.nan, ((1 - 2.0 / aa) / snp.abs(denom)) ** (1 / 3.0))
    z = (term1 - term2) / math.sqrt(2 / (9.0 * aa))
    return KurtosistestResult(z, _norm_pvalue(z, alternative))


def normaltest(a, axis=0, nan_policy="propagate"):
    """sciax implementation of :func:`scipy.stats.normaltest` (D'Agostino and
    Pearson's omnibus test).

    Examples
    --------
    >>> from sciax.stats import normaltest
    >>> r = normaltest(snp.array([148.0, 154, 158, 160, 161, 162, 166, 170, 182, 195, 236]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    13.034263 0.001478
    """
    _nan_policy(nan_policy)
    s = skewtest(a, axis).statistic
    k = kurtosistest(a, axis).statistic
    k2 = s * s + k * k
    return NormaltestResult(k2, chi2.sf(k2, 2.0))


def jarque_bera(x, *, axis=None, nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.jarque_bera`.

    Examples
    --------
    >>> from sciax.stats import jarque_bera
    >>> r = jarque_bera(snp.array([148.0, 154, 158, 160, 161, 162, 166, 170, 182, 195, 236]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    6.982848 0.030457
    """
    _nan_policy(nan_policy)
    x = _last(x, axis)
    n = x.shape[-1]
    s, k = skew(x, axis=-1), kurtosis(x, axis=-1)
    jb = n / 6.0 * (s * s + k * k / 4.0)
    return SignificanceResult(_keep(jb, keepdims), _keep(chi2.sf(jb, 2.0), keepdims))


__all__ = ["MannwhitneyuResult", "WilcoxonResult", "RanksumsResult", "KruskalResult",
           "F_onewayResult", "Chi2ContingencyResult", "Ttest_indResult",
           "LeveneResult", "BartlettResult", "FlignerResult", "SkewtestResult",
           "KurtosistestResult", "NormaltestResult", "BinomTestResult",
           "mannwhitneyu", "wilcoxon", "ranksums", "kruskal", "f_oneway", "levene",
           "bartlett", "fligner", "chi2_contingency", "fisher_exact", "binomtest",
           "kendalltau", "pointbiserialr", "ttest_ind_from_stats", "combine_pvalues",
           "false_discovery_control", "skewtest", "kurtosistest", "normaltest",
           "jarque_bera"]


# --- Kolmogorov-Smirnov --------------------------------------------------------------


class KstestResult(NamedTuple):
    statistic: Any
    pvalue: Any
    statistic_location: Any
    statistic_sign: Any


def _kstwo_cdf_dmtw(n, d):
    """P(D_n < d) by Marsaglia, Tsang and Wang's matrix power (exact).

    The k x k matrix (k = 2 floor(nd) + 1) is embedded, zero-padded, in a
    static size: the (k-1, k-1) entry of a power of a Hessenberg block only
    sees that block.  The size covers n d^2 <= 4, where it is used."""
    size = 2 * int(math.isqrt(4 * n)) + 3
    kk = snp.floor(n * d) + 1.0
    m = 2.0 * kk - 1.0
    h = kk - n * d
    i = snp.arange(size, dtype=d.dtype)[:, None]
    j = snp.arange(size, dtype=d.dtype)[None, :]
    inv_fact = snp.asarray([math.exp(-math.lgamma(v + 1.0)) for v in range(size + 1)])
    diff = (i - j + 1.0).astype(snp.int32)
    hmat = snp.where(diff >= 0, inv_fact[snp.clip(diff, 0, size)], 0.0)
    ip1 = (i + 1.0).astype(snp.int32)[:, 0]
    col0 = h ** (i[:, 0] + 1.0) * inv_fact[ip1]
    mj = (m - j[0]).astype(snp.int32)
    lastrow = h ** (m - j[0]) * inv_fact[snp.clip(mj, 0, size)]
    hmat = hmat - snp.where(j == 0, col0[:, None], 0.0)
    hmat = hmat - snp.where(i == m - 1.0, lastrow[None, :], 0.0)
    corner = snp.where(2.0 * h - 1.0 > 0, (2.0 * h - 1.0) ** m
                       * inv_fact[snp.clip(m, 0, size).astype(snp.int32)], 0.0)
    hmat = hmat + snp.where((i == m - 1.0) & (j == 0), corner, 0.0)
    inside = (i < m) & (j < m)
    # scale by c = (n!/n^n)^(1/n) so that (cH)^n carries the n!/n^n factor
    # without overflow or underflow for large n
    c = math.exp((math.lgamma(n + 1.0) - n * math.log(n)) / n)
    hmat = snp.where(inside, c * hmat, 0.0)
    result, base, e = None, hmat, n
    while e:
        if e & 1:
            result = base if result is None else result @ base
        e >>= 1
        if e:
            base = base @ base
    kidx = snp.clip(kk - 1.0, 0, size - 1).astype(snp.int32)
    return result[kidx, kidx]


@functools.partial(sciax.jit, static_argnums=1)
def _kstwo_sf(d, n):
    """sf of the two-sided one-sample statistic D_n, in SciPy's regimes
    (Simard and L'Ecuyer): closed forms at the ends, 2 smirnov where the
    two tails cannot both be crossed or the double crossing is negligible,
    the exact matrix power elsewhere."""
    d = snp.asarray(d)
    smirnov = _sf._require("smirnov")
    t = n * d
    nxx = t * d
    small = (1.0 - snp.exp(math.lgamma(n + 1.0) - n * math.log(n)
                           + n * snp.log(snp.maximum(2.0 * t - 1.0, 1e-300))))
    two_smirnov = 2.0 * smirnov(n, snp.clip(d, 0.0, 1.0))
    use_matrix = (nxx <= 4.0) if n <= 140 else (nxx < 2.2)
    dm = snp.where(use_matrix & (d > 0) & (d < 0.5) & (t > 1.0), d, 0.5 / math.sqrt(n))
    flat = snp.ravel(dm)
    cdf = sciax.vmap(lambda v: _kstwo_cdf_dmtw(n, v))(flat) if flat.shape[0] else flat
    matrix = 1.0 - snp.reshape(cdf, dm.shape)
    sf = snp.where(use_matrix, matrix, two_smirnov)
    sf = snp.where(d >= 0.5, two_smirnov, sf)
    sf = snp.where(t >= n - 1.0, 2.0 * (1.0 - d) ** n, sf)
    sf = snp.where(t <= 1.0, snp.where(t <= 0.5, 1.0, small), sf)
    sf = snp.where(d >= 1.0, 0.0, snp.where(d <= 0.0, 1.0, sf))
    return snp.clip(sf, 0.0, 1.0)


def _cdf_callable(cdf):
    if isinstance(cdf, str):
        import sciax.stats as _stats  # cycle: the package imports this module
        dist = getattr(_stats, cdf, None)
        if dist is None or not hasattr(dist, "cdf"):
            raise ValueError(f"unknown distribution {cdf!r}")
        return dist.cdf
    if not callable(cdf):
        raise TypeError("cdf must be a callable or the name of a distribution")
    return cdf


def ks_1samp(x, cdf, args=(), alternative="two-sided", method="auto", *, axis=0,
             nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.ks_1samp`, the one-sample
    Kolmogorov-Smirnov test.

    Parameters
    ----------
    x : array_like
    cdf : callable or str
        The hypothesised CDF, ``cdf(x, *args)``, or a sciax.stats
        distribution's name.
    args : tuple
    alternative : {'two-sided', 'less', 'greater'}
    method : {'auto', 'exact', 'approx', 'asymp'}
        Two-sided p-value: the exact distribution of D_n (``'auto'``),
        ``2 * smirnov`` (``'approx'``) or Kolmogorov's limit (``'asymp'``).
        One-sided p-values are always exact (``smirnov``).
    axis : int or None
    nan_policy : str
    keepdims : bool

    Returns
    -------
    KstestResult
        ``statistic``, ``pvalue``, ``statistic_location`` and
        ``statistic_sign`` (+1 for D+, -1 for D-).

    Notes
    -----
    *Differences from SciPy*: for n > 140 and n D^2 < 2.2 the exact matrix
    method is used everywhere (SciPy switches to the Pelz-Good asymptotic
    series in part of that range).  *Transformations*: jit and vmap; the
    statistic is differentiable in the CDF's parameters.

    Examples
    --------
    >>> from sciax.stats import ks_1samp, norm
    >>> x = snp.array([-1.2, -0.4, 0.1, 0.3, 0.9, 1.8, 2.2])
    >>> r = ks_1samp(x, norm.cdf)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.254114 0.669284
    """
    _nan_policy(nan_policy)
    _alternative(alternative)
    _method(method, ("auto", "exact", "approx", "asymp"))
    f = _cdf_callable(cdf)
    x = snp.sort(_last(x, axis), axis=-1)
    n = x.shape[-1]
    cdfvals = f(x, *args)
    i = snp.arange(1.0, n + 1.0)
    dplus_all = i / n - cdfvals
    dminus_all = cdfvals - (i - 1.0) / n
    ip, im = snp.argmax(dplus_all, axis=-1), snp.argmax(dminus_all, axis=-1)
    dplus = snp.take_along_axis(dplus_all, ip[..., None], axis=-1)[..., 0]
    dminus = snp.take_along_axis(dminus_all, im[..., None], axis=-1)[..., 0]
    loc_p = snp.take_along_axis(x, ip[..., None], axis=-1)[..., 0]
    loc_m = snp.take_along_axis(x, im[..., None], axis=-1)[..., 0]
    smirnov = _sf._require("smirnov")
    one = snp.ones(dplus.shape, snp.int8)
    if alternative == "greater":
        d, loc, sign = dplus, loc_p, one
        p = smirnov(n, d)
    elif alternative == "less":
        d, loc, sign = dminus, loc_m, -one
        p = smirnov(n, d)
    else:
        plus = dplus > dminus
        d = snp.where(plus, dplus, dminus)
        loc = snp.where(plus, loc_p, loc_m)
        sign = snp.where(plus, one, -one)
        if method in ("auto", "exact"):
            p = _kstwo_sf(d, n)
        elif method == "asymp":
            p = _sf._require("kolmogorov")(d * math.sqrt(n))
        else:
            p = 2.0 * smirnov(n, d)
    p = snp.clip(p, 0.0, 1.0)
    return KstestResult(_keep(d, keepdims), _keep(p, keepdims), _keep(loc, keepdims),
                        _keep(sign, keepdims))


def kstest(rvs, cdf, args=(), N=20, alternative="two-sided", method="auto", *,
           axis=0, nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.kstest`: one sample against
    ``cdf`` (a callable or a distribution's name), or two samples when ``cdf``
    is data (then it is :func:`ks_2samp`).

    Notes
    -----
    *Differences from SciPy*: ``rvs`` must be data (not a generator name).

    Examples
    --------
    >>> from sciax.stats import kstest
    >>> r = kstest(snp.array([0.1, 0.25, 0.33, 0.5, 0.61, 0.8, 0.97]), "uniform")
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.112857 0.999865
    >>> r = kstest(snp.array([0.1, 0.4, 0.7]), snp.array([0.2, 0.5, 0.8, 0.9]))
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.5 0.657143
    """
    _nan_policy(nan_policy)
    if isinstance(rvs, str):
        raise NotImplementedError("kstest: pass the sample, not a generator name")
    if not (isinstance(cdf, str) or callable(cdf)):
        # cycle: _tests_extra imports KstestResult and the KS helpers from here
        from sciax.stats._tests_extra import ks_2samp
        return ks_2samp(rvs, cdf, alternative, method, axis=axis,
                        nan_policy=nan_policy, keepdims=keepdims)
    return ks_1samp(rvs, cdf, args, alternative, method, axis=axis,
                    nan_policy=nan_policy, keepdims=keepdims)


__all__ += ["KstestResult", "ks_1samp", "kstest"]
