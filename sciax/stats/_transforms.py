"""Power transformations toward normality: Box-Cox and Yeo-Johnson, their
profile log-likelihoods and the maximum-likelihood ``lmbda``.

The transforms and log-likelihoods are elementwise array code (jittable and
differentiable in the data and in ``lmbda``); the log-likelihoods take the
variance in log space (log-sum-exp of the log deviations, as SciPy does) so
they stay finite for large ``|lmbda|``.  The maximum-likelihood ``lmbda`` is
found by :func:`sciax.optimize.minimize_scalar` (Brent's method from the
bracket ``(-2, 2)``, as SciPy's ``optimize.brent``).
"""

from __future__ import annotations

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.optimize
from sciax import lax

def _float(x):
    x = snp.asarray(x)
    return snp.asarray(x, snp.result_type(x, 1.0))


def _concrete_check(x, test, msg):
    """Raise ``ValueError(msg)`` when ``x`` is concrete and fails ``test``
    (under a transform the values are not known: NaN propagates instead)."""
    try:
        arr = np.asarray(x)
    except Exception:  # a tracer
        return
    if arr.dtype != object and test(arr):
        raise ValueError(msg)


def _log_mean_sq_dev(y):
    """log of the population variance of ``y`` along axis 0."""
    n = y.shape[0]
    mean = snp.mean(y, axis=0)
    d = y - mean
    return snp.log(snp.sum(d * d, axis=0) / n)


def _boxcox(x, lmbda):
    lx = snp.log(x)
    zero = lmbda == 0
    lm = snp.where(zero, 1.0, lmbda)
    return snp.where(zero, lx, snp.expm1(lm * lx) / lm)


def _boxcox_logvar(lmbda, logx):
    # log var((x^l - 1)/l) = log var(x^l) - 2 log|l|, with x^l = exp(l log x)
    # kept as log-sum-exp of the log deviations (no overflow for large |l|)
    n = logx.shape[0]
    zero = lmbda == 0
    lm = snp.where(zero, 1.0, lmbda)
    lxl = lm * logx
    m = lax.stop_gradient(snp.max(lxl, axis=0))
    mean = snp.exp(m) * snp.mean(snp.exp(lxl - m), axis=0)
    dev = snp.exp(lxl - m) - mean * snp.exp(-m)      # (x^l - mean) / e^m
    lv = 2.0 * m + snp.log(snp.sum(dev * dev, axis=0) / n) - 2.0 * snp.log(snp.abs(lm))
    return snp.where(zero, _log_mean_sq_dev(logx), lv)


@sciax.jit
def _boxcox_llf(lmb, data):
    logx = snp.log(data)
    n = data.shape[0]
    return (lmb - 1.0) * snp.sum(logx, axis=0) - 0.5 * n * _boxcox_logvar(lmb, logx)


def boxcox_llf(lmb, data):
    """sciax implementation of :func:`scipy.stats.boxcox_llf`.

    The Box-Cox profile log-likelihood ``(lmb - 1) sum(log x) - N/2
    log(var(boxcox(x, lmb)))`` along the first axis of ``data``.

    Parameters
    ----------
    lmb : float
        The transformation parameter.
    data : array_like
        Positive data; the log-likelihood is taken along axis 0.

    Returns
    -------
    llf : Array

    Examples
    --------
    >>> from sciax.stats import boxcox_llf
    >>> round(float(boxcox_llf(0.5, [1.0, 2.0, 3.0, 5.0])), 8)
    -1.29504018
    """
    data = _float(data)
    if data.ndim == 0 or data.shape[0] == 0:
        return snp.asarray(snp.nan, data.dtype)
    return _boxcox_llf(snp.asarray(lmb, data.dtype), data)


def _argmax_llf(llf, data):
    res = sciax.optimize.minimize_scalar(lambda lm: -llf(lm, data),
                                         bracket=(-2.0, 2.0), method="brent")
    return res.x


def boxcox_normmax(x, brack=None, method="mle", optimizer=None, *, ymax=None):
    """sciax implementation of :func:`scipy.stats.boxcox_normmax` (``method='mle'``
    only): the ``lmbda`` that maximises :func:`boxcox_llf`.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax.stats import boxcox_normmax
    >>> x = np.exp(np.linspace(-1.0, 1.0, 9))      # log x symmetric: lmbda = 0
    >>> abs(float(boxcox_normmax(x))) < 1e-6
    True
    """
    if method != "mle":
        raise NotImplementedError("boxcox_normmax supports method='mle' only")
    if optimizer is not None or ymax is not None:
        raise NotImplementedError("optimizer and ymax are not supported")
    x = _float(x)
    _concrete_check(x, lambda a: np.any(a <= 0), "Data must be positive.")
    return _argmax_llf(_boxcox_llf, x)


def boxcox(x, lmbda=None, alpha=None, optimizer=None):
    """sciax implementation of :func:`scipy.stats.boxcox`.

    ``(x**lmbda - 1) / lmbda`` (``log(x)`` at ``lmbda = 0``) for positive
    one-dimensional ``x``.  With ``lmbda`` given, returns the transformed
    array (differentiable in ``x`` and ``lmbda``); without it, returns
    ``(y, lmbda)`` with the maximum-likelihood ``lmbda``
    (:func:`boxcox_normmax`).  ``alpha`` (a confidence interval for
    ``lmbda``) and ``optimizer`` are not supported.

    Examples
    --------
    >>> from sciax.stats import boxcox
    >>> [round(float(v), 6) for v in boxcox([1.0, 4.0], 0.5)]
    [0.0, 2.0]
    """
    if alpha is not None or optimizer is not None:
        raise NotImplementedError("boxcox: alpha and optimizer are not supported")
    x = _float(x)
    if x.ndim != 1:
        raise ValueError("Data must be 1-dimensional.")
    if x.shape[0] == 0:
        return x
    _concrete_check(x, lambda a: np.all(a == a[0]), "Data must not be constant.")
    _concrete_check(x, lambda a: np.any(a <= 0), "Data must be positive.")
    if lmbda is not None:
        return _boxcox(x, snp.asarray(lmbda, x.dtype))
    lm = boxcox_normmax(x)
    return _boxcox(x, lm), lm


def _yeojohnson(x, lmbda):
    pos = x >= 0
    xp = snp.where(pos, x, 0.0)
    xn = snp.where(pos, 0.0, x)
    l0 = lmbda == 0
    l2 = lmbda == 2
    lp = snp.where(l0, 1.0, lmbda)
    ln = snp.where(l2, 1.0, 2.0 - lmbda)
    yp = snp.where(l0, snp.log1p(xp), snp.expm1(lp * snp.log1p(xp)) / lp)
    yn = snp.where(l2, -snp.log1p(-xn), -snp.expm1(ln * snp.log1p(-xn)) / ln)
    return snp.where(pos, yp, yn)


@sciax.jit
def _yeojohnson_llf(lmb, data):
    n = data.shape[0]
    y = _yeojohnson(data, lmb)
    slog = snp.sum(snp.sign(data) * snp.log1p(snp.abs(data)), axis=0)
    return -0.5 * n * _log_mean_sq_dev(y) + (lmb - 1.0) * slog


def yeojohnson_llf(lmb, data):
    """sciax implementation of :func:`scipy.stats.yeojohnson_llf`.

    ``-N/2 log(var(yeojohnson(x, lmb))) + (lmb - 1) sum(sign(x) log1p(|x|))``
    along axis 0 of ``data``.

    Examples
    --------
    >>> from sciax.stats import yeojohnson_llf
    >>> round(float(yeojohnson_llf(1.0, [-1.0, 0.0, 2.0, 3.0])), 8)
    -1.83258146
    """
    data = _float(data)
    if data.ndim == 0 or data.shape[0] == 0:
        return snp.asarray(snp.nan, data.dtype)
    return _yeojohnson_llf(snp.asarray(lmb, data.dtype), data)


def yeojohnson_normmax(x, brack=None):
    """sciax implementation of :func:`scipy.stats.yeojohnson_normmax`: the
    ``lmbda`` that maximises :func:`yeojohnson_llf` (Brent's method).

    Examples
    --------
    >>> import numpy as np
    >>> from sciax.stats import yeojohnson_normmax
    >>> x = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])  # symmetric: lmbda = 1
    >>> round(float(yeojohnson_normmax(x)), 5)
    1.0
    """
    x = _float(x)
    return _argmax_llf(_yeojohnson_llf, x)


def yeojohnson(x, lmbda=None):
    """sciax implementation of :func:`scipy.stats.yeojohnson`.

    With ``lmbda`` given, the transformed array; without it, ``(y, lmbda)``
    with the maximum-likelihood ``lmbda`` (:func:`yeojohnson_normmax`).

    Examples
    --------
    >>> from sciax.stats import yeojohnson
    >>> [round(float(v), 6) for v in yeojohnson([-1.0, 0.0, 3.0], 0.0)]
    [-1.5, 0.0, 1.386294]
    """
    x = _float(x)
    if x.size == 0:
        return x
    if lmbda is not None:
        return _yeojohnson(x, snp.asarray(lmbda, x.dtype))
    lm = yeojohnson_normmax(x)
    return _yeojohnson(x, lm), lm


__all__ = ["boxcox", "boxcox_llf", "boxcox_normmax", "yeojohnson", "yeojohnson_llf",
           "yeojohnson_normmax"]
