"""Descriptive statistics, correlation and classical tests, with SciPy's
signatures and result objects (named tuples, so they are pytrees).

p-values come from the t and chi-squared distributions of this package, so
they need :mod:`sciax.special`'s incomplete beta/gamma functions.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import sciax.numpy as snp
from sciax import lax

from sciax.stats import _sf
from sciax.stats._continuous_special import chi2, t as t_dist


class DescribeResult(NamedTuple):
    nobs: Any
    minmax: Any
    mean: Any
    variance: Any
    skewness: Any
    kurtosis: Any


class PearsonRResult(NamedTuple):
    statistic: Any
    pvalue: Any


class SignificanceResult(NamedTuple):
    statistic: Any
    pvalue: Any


class TtestResult(NamedTuple):
    statistic: Any
    pvalue: Any
    df: Any


class Power_divergenceResult(NamedTuple):  # noqa: N801 - SciPy's name
    statistic: Any
    pvalue: Any


class LinregressResult(NamedTuple):
    slope: Any
    intercept: Any
    rvalue: Any
    pvalue: Any
    stderr: Any
    intercept_stderr: Any


def _arr(a):
    a = snp.asarray(a)
    return a.astype(snp.result_type(a, 1.0))


def _axis_data(a, axis):
    a = _arr(a)
    if axis is None:
        return snp.ravel(a), 0
    return a, axis


def _alternative(alternative):
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"alternative must be 'two-sided', 'less' or 'greater', got "
                         f"{alternative!r}")


def _t_pvalue(t, df, alternative):
    _alternative(alternative)
    if alternative == "less":
        return t_dist.cdf(t, df)
    if alternative == "greater":
        return t_dist.sf(t, df)
    return snp.minimum(2.0 * t_dist.sf(snp.abs(t), df), 1.0)


# --- descriptive -------------------------------------------------------------------


def moment(a, order=1, axis=0, *, center=None):
    """sciax implementation of :func:`scipy.stats.moment`: the ``order``-th
    moment about ``center`` (the mean by default).

    Examples
    --------
    >>> from sciax.stats import moment
    >>> print(float(moment(snp.array([1.0, 2.0, 3.0, 4.0]), order=2)))
    1.25
    """
    a, axis = _axis_data(a, axis)
    c = snp.mean(a, axis=axis, keepdims=True) if center is None else center
    return snp.mean((a - c) ** order, axis=axis)


def skew(a, axis=0, bias=True):
    """sciax implementation of :func:`scipy.stats.skew` (``bias=False``: the
    adjusted Fisher-Pearson coefficient).

    Examples
    --------
    >>> from sciax.stats import skew
    >>> print(round(float(skew(snp.array([1.0, 2.0, 3.0, 10.0]))), 6))
    1.018234
    """
    a, axis = _axis_data(a, axis)
    n = a.shape[axis]
    m2, m3 = moment(a, 2, axis), moment(a, 3, axis)
    g1 = m3 / m2**1.5
    if not bias and n > 2:
        g1 = math.sqrt(n * (n - 1.0)) / (n - 2.0) * g1
    return g1


def kurtosis(a, axis=0, fisher=True, bias=True):
    """sciax implementation of :func:`scipy.stats.kurtosis` (Fisher's excess
    kurtosis by default).

    Examples
    --------
    >>> from sciax.stats import kurtosis
    >>> print(round(float(kurtosis(snp.array([1.0, 2.0, 3.0, 10.0]))), 6))
    -0.7696
    """
    a, axis = _axis_data(a, axis)
    n = a.shape[axis]
    m2, m4 = moment(a, 2, axis), moment(a, 4, axis)
    g2 = m4 / m2**2
    if not bias and n > 3:
        g2 = ((n * n - 1.0) * g2 - 3.0 * (n - 1.0) ** 2) / ((n - 2.0) * (n - 3.0)) + 3.0
    return g2 - 3.0 if fisher else g2


def describe(a, axis=0, ddof=1, bias=True):
    """sciax implementation of :func:`scipy.stats.describe`.

    Examples
    --------
    >>> from sciax.stats import describe
    >>> r = describe(snp.array([1.0, 2.0, 4.0]))
    >>> print(r.nobs, round(float(r.mean), 6), round(float(r.variance), 6))
    3 2.333333 2.333333
    """
    a, axis = _axis_data(a, axis)
    n = a.shape[axis]
    return DescribeResult(n, (snp.min(a, axis=axis), snp.max(a, axis=axis)),
                          snp.mean(a, axis=axis), snp.var(a, axis=axis, ddof=ddof),
                          skew(a, axis, bias=bias), kurtosis(a, axis, bias=bias))


def zscore(a, axis=0, ddof=0):
    """sciax implementation of :func:`scipy.stats.zscore`.

    Examples
    --------
    >>> from sciax.stats import zscore
    >>> print(np.round(zscore(snp.array([1.0, 2.0, 3.0])), 6))
    [-1.224745  0.        1.224745]
    """
    a, axis = _axis_data(a, axis)
    return ((a - snp.mean(a, axis=axis, keepdims=True))
            / snp.std(a, axis=axis, ddof=ddof, keepdims=True))


def sem(a, axis=0, ddof=1):
    """sciax implementation of :func:`scipy.stats.sem`, the standard error of
    the mean.

    Examples
    --------
    >>> from sciax.stats import sem
    >>> print(round(float(sem(snp.array([1.0, 2.0, 3.0, 4.0]))), 6))
    0.645497
    """
    a, axis = _axis_data(a, axis)
    return snp.std(a, axis=axis, ddof=ddof) / math.sqrt(a.shape[axis])


def _weighted_mean(v, axis, weights):
    if weights is None:
        return snp.mean(v, axis=axis)
    w = snp.asarray(weights, dtype=v.dtype)
    return snp.sum(v * w, axis=axis) / snp.sum(w, axis=axis)


def pmean(a, p, *, axis=0, dtype=None, weights=None):
    """sciax implementation of :func:`scipy.stats.pmean`, the power mean
    ``(mean(a**p))**(1/p)`` (``p = 0`` is the geometric mean).

    Examples
    --------
    >>> from sciax.stats import pmean
    >>> print(round(float(pmean(snp.array([1.0, 2.0, 4.0]), 2.0)), 6))
    2.645751
    """
    a, axis = _axis_data(a, axis)
    if p == 0:
        return gmean(a, axis=axis, weights=weights)
    return _weighted_mean(a**p, axis, weights) ** (1.0 / p)


def gmean(a, axis=0, dtype=None, weights=None):
    """sciax implementation of :func:`scipy.stats.gmean`.

    Examples
    --------
    >>> from sciax.stats import gmean
    >>> print(round(float(gmean(snp.array([1.0, 2.0, 4.0]))), 6))
    2.0
    """
    a, axis = _axis_data(a, axis)
    return snp.exp(_weighted_mean(snp.log(a), axis, weights))


def hmean(a, axis=0, dtype=None, *, weights=None):
    """sciax implementation of :func:`scipy.stats.hmean`.

    Examples
    --------
    >>> from sciax.stats import hmean
    >>> print(round(float(hmean(snp.array([1.0, 2.0, 4.0]))), 6))
    1.714286
    """
    a, axis = _axis_data(a, axis)
    return 1.0 / _weighted_mean(1.0 / a, axis, weights)


def trim_mean(a, proportiontocut, axis=0):
    """sciax implementation of :func:`scipy.stats.trim_mean`: the mean after
    cutting ``int(proportiontocut * n)`` values from each end.

    Examples
    --------
    >>> from sciax.stats import trim_mean
    >>> print(float(trim_mean(snp.arange(10.0), 0.1)))
    4.5
    """
    a, axis = _axis_data(a, axis)
    n = a.shape[axis]
    cut = int(proportiontocut * n)
    if cut >= n - cut:
        raise ValueError("proportiontocut too big: nothing is left to average")
    s = snp.sort(a, axis=axis)
    return snp.mean(lax.slice_in_dim(s, cut, n - cut, axis=axis % a.ndim), axis=axis)


def iqr(x, axis=None, rng=(25, 75), scale=1.0, interpolation="linear",
        keepdims=False):
    """sciax implementation of :func:`scipy.stats.iqr` (``scale='normal'``
    divides by the normal distribution's IQR, 1.349).

    Examples
    --------
    >>> from sciax.stats import iqr
    >>> print(float(iqr(snp.arange(11.0))))
    5.0
    """
    x = _arr(x)
    lo, hi = snp.percentile(x, snp.asarray(rng, dtype=x.dtype), axis=axis,
                            method=interpolation, keepdims=keepdims)
    if isinstance(scale, str):
        if scale != "normal":
            raise ValueError(f"scale must be a number or 'normal', got {scale!r}")
        scale = 2.0 * math.sqrt(2.0) * 0.4769362762044699  # 2 sqrt(2) erfinv(1/2)
    return (hi - lo) / scale


def rankdata(a, method="average", *, axis=None, nan_policy="propagate"):
    """sciax implementation of :func:`scipy.stats.rankdata` (methods
    ``'average'``, ``'min'``, ``'max'``, ``'dense'``, ``'ordinal'``).

    Examples
    --------
    >>> from sciax.stats import rankdata
    >>> print(rankdata(snp.array([0.0, 2.0, 3.0, 2.0])))
    [1.  2.5 4.  2.5]
    """
    if method not in ("average", "min", "max", "dense", "ordinal"):
        raise ValueError(f"unknown method {method!r}: use 'average', 'min', 'max', "
                         "'dense' or 'ordinal'")
    a = snp.asarray(a)
    if axis is None:
        return _rank_last(snp.ravel(a), method)
    a = snp.moveaxis(a, axis, -1)
    return snp.moveaxis(_rank_last(a, method), -1, axis)


def _rank_last(a, method):
    n = a.shape[-1]
    order = snp.argsort(a, axis=-1, stable=True)
    s = snp.take_along_axis(a, order, axis=-1)
    idx = snp.broadcast_to(snp.arange(n), s.shape)
    new = snp.concatenate([snp.ones(s.shape[:-1] + (1,), bool),
                           s[..., 1:] != s[..., :-1]], axis=-1)
    first = lax.cummax(snp.where(new, idx, 0), axis=s.ndim - 1)
    last_new = snp.concatenate([new[..., 1:], snp.ones(s.shape[:-1] + (1,), bool)],
                               axis=-1)
    last = lax.cummin(snp.where(last_new, idx, n), axis=s.ndim - 1, reverse=True)
    if method == "average":
        r = 0.5 * (first + last) + 1.0
    elif method == "min":
        r = first + 1.0
    elif method == "max":
        r = last + 1.0
    elif method == "dense":
        r = snp.cumsum(new, axis=-1).astype(float)
    else:
        r = idx + 1.0
    inv = snp.argsort(order, axis=-1)
    out = snp.take_along_axis(r, inv, axis=-1)
    return out


def entropy(pk, qk=None, base=None, axis=0):
    """sciax implementation of :func:`scipy.stats.entropy`: Shannon entropy of
    ``pk``, or the Kullback-Leibler divergence from ``qk`` (both normalised).

    Examples
    --------
    >>> from sciax.stats import entropy
    >>> print(round(float(entropy(snp.array([0.5, 0.5]), base=2)), 6))
    1.0
    """
    pk = _arr(pk)
    pk = pk / snp.sum(pk, axis=axis, keepdims=True)
    if qk is None:
        vec = -_sf.xlogy(pk, pk)
    else:
        qk = snp.asarray(qk, dtype=pk.dtype)
        qk = qk / snp.sum(qk, axis=axis, keepdims=True)
        vec = _sf.xlogy(pk, pk) - _sf.xlogy(pk, qk)
    s = snp.sum(vec, axis=axis)
    return s / math.log(base) if base is not None else s


# --- correlation and regression ----------------------------------------------------


def pearsonr(x, y, *, alternative="two-sided", axis=0):
    """sciax implementation of :func:`scipy.stats.pearsonr` (the p-value from
    the exact null distribution, a beta distribution of r).

    Examples
    --------
    >>> from sciax.stats import pearsonr
    >>> r = pearsonr(snp.array([1.0, 2.0, 3.0, 4.0]), snp.array([1.0, 3.0, 2.0, 5.0]))
    >>> print(round(float(r.statistic), 6))
    0.831522
    """
    x, y = _arr(x), _arr(y)
    x, y = snp.moveaxis(x, axis, -1), snp.moveaxis(y, axis, -1)
    n = x.shape[-1]
    if n < 2:
        raise ValueError("pearsonr needs at least 2 observations")
    xm = x - snp.mean(x, axis=-1, keepdims=True)
    ym = y - snp.mean(y, axis=-1, keepdims=True)
    xm = xm / snp.linalg.norm(xm, axis=-1, keepdims=True)
    ym = ym / snp.linalg.norm(ym, axis=-1, keepdims=True)
    r = snp.clip(snp.sum(xm * ym, axis=-1), -1.0, 1.0)
    return PearsonRResult(r, _r_pvalue(r, n, alternative))


def _r_pvalue(r, n, alternative):
    df = n - 2.0
    # t = r sqrt(df / (1 - r^2)), with the r = +-1 limits exact
    t = r * snp.sqrt(df / snp.maximum(1.0 - r * r, 1e-300))
    return _t_pvalue(t, df, alternative)


def spearmanr(a, b=None, axis=0, nan_policy="propagate", alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.spearmanr` for two samples
    (p-value from the t approximation, as SciPy).

    Examples
    --------
    >>> from sciax.stats import spearmanr
    >>> r = spearmanr(snp.array([1.0, 2.0, 3.0, 4.0]), snp.array([1.0, 3.0, 2.0, 5.0]))
    >>> print(round(float(r.statistic), 6))
    0.8
    """
    if b is None:
        raise ValueError("sciax's spearmanr takes two samples (a, b)")
    a, b = _arr(a), _arr(b)
    ra = rankdata(a, axis=axis)
    rb = rankdata(b, axis=axis)
    res = pearsonr(ra, rb, alternative=alternative, axis=axis)
    return SignificanceResult(res.statistic, res.pvalue)


def linregress(x, y=None, alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.linregress`.

    Examples
    --------
    >>> from sciax.stats import linregress
    >>> r = linregress(snp.array([0.0, 1.0, 2.0, 3.0]), snp.array([1.0, 3.0, 5.2, 6.9]))
    >>> print(round(float(r.slope), 6), round(float(r.intercept), 6))
    1.99 1.04
    """
    if y is None:
        xy = _arr(x)
        x, y = xy[0], xy[1]
    x, y = _arr(x), _arr(y)
    n = x.shape[0]
    xmean, ymean = snp.mean(x), snp.mean(y)
    ssxm = snp.mean((x - xmean) ** 2)
    ssym = snp.mean((y - ymean) ** 2)
    ssxym = snp.mean((x - xmean) * (y - ymean))
    r = snp.clip(ssxym / snp.sqrt(ssxm * ssym), -1.0, 1.0)
    slope = ssxym / ssxm
    intercept = ymean - slope * xmean
    df = n - 2.0
    pvalue = _r_pvalue(r, n, alternative)
    stderr = snp.sqrt((1.0 - r * r) * ssym / ssxm / df)
    return LinregressResult(slope, intercept, r, pvalue, stderr,
                            stderr * snp.sqrt(ssxm + xmean * xmean))


# --- tests -------------------------------------------------------------------------


def ttest_1samp(a, popmean, axis=0, nan_policy="propagate", alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.ttest_1samp`.

    Examples
    --------
    >>> from sciax.stats import ttest_1samp
    >>> r = ttest_1samp(snp.array([5.1, 4.9, 5.6, 5.8, 6.0]), 5.0)
    >>> print(round(float(r.statistic), 6), float(r.df))
    2.304074 4.0
    """
    a, axis = _axis_data(a, axis)
    n = a.shape[axis]
    df = snp.asarray(n - 1.0, dtype=a.dtype)
    d = snp.mean(a, axis=axis) - popmean
    t = d / (snp.std(a, axis=axis, ddof=1) / math.sqrt(n))
    return TtestResult(t, _t_pvalue(t, df, alternative), df + 0 * t)


def ttest_rel(a, b, axis=0, nan_policy="propagate", alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.ttest_rel` (paired samples)."""
    return ttest_1samp(_arr(a) - _arr(b), 0.0, axis=axis, alternative=alternative)


def ttest_ind(a, b, *, axis=0, equal_var=True, nan_policy="propagate",
              alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.ttest_ind` (Student's, or
    Welch's with ``equal_var=False``).

    Examples
    --------
    >>> from sciax.stats import ttest_ind
    >>> r = ttest_ind(snp.array([1.0, 2.0, 3.0, 4.0]), snp.array([2.0, 4.0, 6.0, 9.0]))
    >>> print(round(float(r.statistic), 6), float(r.df))
    -1.690641 6.0
    """
    a, b = _arr(a), _arr(b)
    n1, n2 = a.shape[axis], b.shape[axis]
    v1, v2 = snp.var(a, axis=axis, ddof=1), snp.var(b, axis=axis, ddof=1)
    d = snp.mean(a, axis=axis) - snp.mean(b, axis=axis)
    if equal_var:
        df = snp.asarray(n1 + n2 - 2.0, dtype=d.dtype) + 0 * d
        svar = ((n1 - 1) * v1 + (n2 - 1) * v2) / (n1 + n2 - 2.0)
        denom = snp.sqrt(svar * (1.0 / n1 + 1.0 / n2))
    else:
        vn1, vn2 = v1 / n1, v2 / n2
        df = (vn1 + vn2) ** 2 / (vn1**2 / (n1 - 1.0) + vn2**2 / (n2 - 1.0))
        denom = snp.sqrt(vn1 + vn2)
    t = d / denom
    return TtestResult(t, _t_pvalue(t, df, alternative), df)


_LAMBDAS = {"pearson": 1.0, "log-likelihood": 0.0, "freeman-tukey": -0.5,
            "mod-log-likelihood": -1.0, "neyman": -2.0, "cressie-read": 2.0 / 3.0}


def power_divergence(f_obs, f_exp=None, ddof=0, axis=0, lambda_=None):
    """sciax implementation of :func:`scipy.stats.power_divergence`
    (Cressie-Read statistics; p-value from the chi-squared distribution).

    Examples
    --------
    >>> from sciax.stats import power_divergence
    >>> r = power_divergence(snp.array([16.0, 18.0, 16.0, 14.0, 12.0, 12.0]),
    ...                      lambda_="log-likelihood")
    >>> print(round(float(r.statistic), 6))
    2.006573
    """
    if isinstance(lambda_, str):
        if lambda_ not in _LAMBDAS:
            raise ValueError(f"unknown lambda_ {lambda_!r}; use a number or one of "
                             f"{sorted(_LAMBDAS)}")
        lambda_ = _LAMBDAS[lambda_]
    elif lambda_ is None:
        lambda_ = 1.0
    f_obs = _arr(f_obs)
    k = f_obs.shape[axis]
    if f_exp is None:
        f_exp = snp.mean(f_obs, axis=axis, keepdims=True)
    f_exp = snp.asarray(f_exp, dtype=f_obs.dtype)
    if lambda_ == 1:
        terms = (f_obs - f_exp) ** 2 / f_exp
    elif lambda_ == 0:
        terms = 2.0 * _sf.xlogy(f_obs, f_obs / f_exp)
    elif lambda_ == -1:
        terms = 2.0 * _sf.xlogy(f_exp, f_exp / f_obs)
    else:
        terms = f_obs * ((f_obs / f_exp) ** lambda_ - 1.0)
        terms = terms * 2.0 / (lambda_ * (lambda_ + 1.0))
    stat = snp.sum(terms, axis=axis)
    return Power_divergenceResult(stat, chi2.sf(stat, k - 1 - ddof))


def chisquare(f_obs, f_exp=None, ddof=0, axis=0):
    """sciax implementation of :func:`scipy.stats.chisquare` (Pearson's
    chi-squared test).

    Examples
    --------
    >>> from sciax.stats import chisquare
    >>> r = chisquare(snp.array([16.0, 18.0, 16.0, 14.0, 12.0, 12.0]))
    >>> print(float(r.statistic))
    2.0
    """
    return power_divergence(f_obs, f_exp, ddof, axis, "pearson")


__all__ = ["DescribeResult", "PearsonRResult", "SignificanceResult", "TtestResult",
           "Power_divergenceResult", "LinregressResult", "moment", "skew",
           "kurtosis", "describe", "zscore", "sem", "pmean", "gmean", "hmean",
           "trim_mean", "iqr", "rankdata", "entropy", "pearsonr", "spearmanr",
           "linregress", "ttest_1samp", "ttest_rel", "ttest_ind",
           "power_divergence", "chisquare"]
