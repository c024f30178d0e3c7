"""Convenience functions: logistic, log-sum-exp, entropy terms, Box-Cox,
accurate small-argument forms (``cosm1``, ``powm1``, ``exprel``), degrees.

All are elementwise formulas over ``sciax.numpy``; where a branch would give
a NaN derivative in the unused side of a ``where``, its argument is replaced
first (the double-where trick), so gradients are clean at the edges
(``xlogy(0, y)`` has derivative ``log y`` in ``x`` and 0 in ``y``).
"""

from __future__ import annotations

import math
from typing import Any

import sciax
import sciax.nn as _nn
import sciax.numpy as snp
from sciax import lax
from sciax.special import _util
from sciax.special._util import promote

__all__ = ["expit", "logit", "log_expit", "logsumexp", "softmax", "log_softmax",
           "xlogy", "xlog1py", "entr", "rel_entr", "kl_div", "huber",
           "pseudo_huber", "boxcox", "boxcox1p", "inv_boxcox", "inv_boxcox1p",
           "sinc", "cosm1", "powm1", "exp2", "exp10", "cbrt", "round", "expm1",
           "log1p", "exprel", "sindg", "cosdg", "tandg", "cotdg", "radian", "agm"]


def expit(x: Any) -> Any:
    """Logistic sigmoid ``1 / (1 + exp(-x))``.

    sciax implementation of :func:`scipy.special.expit`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import expit
    >>> expit(snp.array([-1.0, 0.0, 40.0])).round(6)
    Array([0.268941, 0.5     , 1.      ], dtype=float64)
    """
    (x,) = promote("expit", x)
    return lax.logistic(x)


def logit(x: Any) -> Any:
    """Log-odds ``log(x / (1 - x))``, the inverse of :func:`expit`.

    sciax implementation of :func:`scipy.special.logit`.

    Parameters
    ----------
    x : array_like
        Probability in ``[0, 1]``.

    Returns
    -------
    Array

    Notes
    -----
    Near ``x = 1/2`` written as ``log1p((2x - 1)/(1 - x))`` (no cancellation).

    Examples
    --------
    >>> from sciax.special import logit
    >>> logit(snp.array([0.25, 0.5, 1.0])).round(6)
    Array([-1.098612,  0.      ,       inf], dtype=float64)
    """
    (x,) = promote("logit", x)
    mid = (x > 0.25) & (x < 0.75)
    xm = _util.safe(mid, x, 0.5)
    v_mid = _util.log1p((2.0 * xm - 1.0) / (1.0 - xm))
    return snp.where(mid, v_mid, snp.log(x / (1.0 - x)))


def log_expit(x: Any) -> Any:
    """Logarithm of the logistic sigmoid, ``-log1p(exp(-x))``, accurate for
    large ``|x|``.

    sciax implementation of :func:`scipy.special.log_expit`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import log_expit
    >>> print(np.asarray(log_expit(snp.array([-1000.0, 0.0, 40.0]))))
    [-1.00000000e+03 -6.93147181e-01 -4.24835426e-18]
    """
    (x,) = promote("log_expit", x)
    # x >= 0: -log1p(e^-x); the tail e^-x below 1e-3 would meet log1p's
    # rounding of a small argument only, so it is exact to an ulp either way
    # e^-|x| written by branch: abs's subgradient 0 at x = 0 gave a derivative
    # of 0 there, not 1/2
    e = snp.exp(snp.where(x >= 0, -x, x))
    return snp.where(x >= 0, -_util.log1p(e), x - _util.log1p(e))


def logsumexp(a: Any, axis: Any = None, b: Any = None, keepdims: bool = False,
              return_sign: bool = False) -> Any:
    """``log(sum(b * exp(a)))`` along ``axis`` without overflow.

    sciax implementation of :func:`scipy.special.logsumexp` (the same
    function as :func:`sciax.nn.logsumexp`).

    Parameters
    ----------
    a : array_like
    axis : int or tuple of ints, optional
        Axes to reduce; all by default.
    b : array_like, optional
        Weights broadcast against ``a``; may be negative.
    keepdims : bool, default False
    return_sign : bool, default False
        Return ``(log|s|, sign(s))``; otherwise a negative sum gives NaN.

    Returns
    -------
    Array or tuple of Array

    Examples
    --------
    >>> from sciax.special import logsumexp
    >>> print(f"{float(logsumexp(snp.array([1000.0, 1000.0]))):.6f}")
    1000.693147
    """
    return _nn.logsumexp(a, axis=axis, b=b, keepdims=keepdims,
                         return_sign=return_sign)


def softmax(x: Any, axis: Any = None) -> Any:
    """``exp(x) / sum(exp(x))`` over ``axis`` (all axes by default, as SciPy).

    sciax implementation of :func:`scipy.special.softmax`.

    Parameters
    ----------
    x : array_like
    axis : int or tuple of ints, optional

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import softmax
    >>> softmax(snp.array([[1.0, 1.0], [1.0, 1.0]]))
    Array([[0.25, 0.25],
           [0.25, 0.25]], dtype=float64)
    """
    return _nn.softmax(x, axis=axis)


def log_softmax(x: Any, axis: Any = None) -> Any:
    """``x - logsumexp(x)`` over ``axis`` (all axes by default, as SciPy).

    sciax implementation of :func:`scipy.special.log_softmax`.

    Parameters
    ----------
    x : array_like
    axis : int or tuple of ints, optional

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import log_softmax
    >>> log_softmax(snp.array([0.0, 0.0])).round(6)
    Array([-0.693147, -0.693147], dtype=float64)
    """
    return _nn.log_softmax(x, axis=axis)


def xlogy(x: Any, y: Any) -> Any:
    """``x * log(y)``, zero where ``x == 0`` (unless ``y`` is NaN).

    sciax implementation of :func:`scipy.special.xlogy` (real or complex
    arguments).

    Parameters
    ----------
    x, y : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import xlogy
    >>> xlogy(snp.array([0.0, 2.0]), snp.array([0.0, 3.0])).round(6)
    Array([0.      , 2.197225], dtype=float64)
    """
    x, y = promote("xlogy", x, y, complex_ok=True)
    if _is_complex(x):
        # SciPy: 0 where x == 0 unless y is NaN, else x log y
        fix = (x == 0) & ~snp.isnan(y)
        ys = _util.safe(~fix, y, 1.0)
        return snp.where(fix, 0j, x * snp.log(ys))
    return _xlogy_real(x, y)


@sciax.custom_jvp
def _xlogy_real(x: Any, y: Any) -> Any:
    # JAX's program (two compares, log, multiply, one select); the guards
    # that keep the derivatives finite live in the JVP only
    return snp.where((x != 0) | snp.isnan(y), x * snp.log(y), 0.0)


@_xlogy_real.defjvp
def _xlogy_real_jvp(primals: tuple, tangents: tuple) -> tuple:
    (x, y), (tx, ty) = primals, tangents
    # x = 0 with y <= 0 or y = inf: y is replaced by 1, so both partials are
    # 0 there; at x = 0 and finite positive y they are log y and 0
    fix = (x == 0) & ((y <= 0) | (y == snp.inf))
    ys = _util.safe(~fix, y, 1.0)
    return _xlogy_real(x, y), tx * snp.log(ys) + ty * (x / ys)


def xlog1py(x: Any, y: Any) -> Any:
    """``x * log1p(y)``, zero where ``x == 0`` (unless ``y`` is NaN).

    sciax implementation of :func:`scipy.special.xlog1py` (real or complex
    arguments).

    Parameters
    ----------
    x, y : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import xlog1py
    >>> xlog1py(snp.array([0.0, 2.0]), snp.array([-1.0, 1e-10]))
    Array([0.e+00, 2.e-10], dtype=float64)
    """
    x, y = promote("xlog1py", x, y, complex_ok=True)
    if _is_complex(x):
        fix = (x == 0) & ~snp.isnan(y)
        ys = _util.safe(~fix, y, 0.0)
        return snp.where(fix, 0j, x * _clog1p_cj(ys))
    fix = (x == 0) & ~snp.isnan(y) & ~((y > -1) & snp.isfinite(y))
    ys = _util.safe(~fix, y, 0.0)
    return snp.where(fix, 0.0, x * _util.log1p(ys))


def entr(x: Any) -> Any:
    """Elementwise entropy ``-x log x`` (0 at 0, ``-inf`` for ``x < 0``).

    sciax implementation of :func:`scipy.special.entr`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import entr
    >>> entr(snp.array([0.0, 0.5, -1.0])).round(6)
    Array([0.      , 0.346574,     -inf], dtype=float64)
    """
    (x,) = promote("entr", x)
    pos = x > 0
    xs = _util.safe(pos, x, 1.0)
    out = snp.where(pos, -xs * snp.log(xs), snp.where(x == 0, 0.0, -snp.inf))
    return snp.where(snp.isnan(x), snp.nan, out)


def rel_entr(x: Any, y: Any) -> Any:
    """Relative entropy term ``x log(x / y)`` (0 for ``x = 0, y >= 0``; ``inf``
    otherwise outside ``x, y > 0``).

    sciax implementation of :func:`scipy.special.rel_entr`.

    Parameters
    ----------
    x, y : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import rel_entr
    >>> rel_entr(snp.array([0.5, 0.0]), snp.array([0.25, 1.0])).round(6)
    Array([0.346574, 0.      ], dtype=float64)
    """
    x, y = promote("rel_entr", x, y)
    pos = (x > 0) & (y > 0)
    xs, ys = _util.safe(pos, x, 1.0), _util.safe(pos, y, 1.0)
    out = snp.where(pos, xs * _log_ratio(xs, ys),
                    snp.where((x == 0) & (y >= 0), 0.0, snp.inf))
    return snp.where(snp.isnan(x) | snp.isnan(y), snp.nan, out)


def _log_ratio(x: Any, y: Any) -> Any:
    """``log(x / y)`` for positive ``x, y``; ``log1p((x - y) / y)`` when they
    are close, so the rounding of ``x / y`` is not amplified."""
    return snp.where(snp.abs(x - y) < 0.5 * y, _util.log1p((x - y) / y),
                     snp.log(x / y))


def kl_div(x: Any, y: Any) -> Any:
    """Kullback-Leibler divergence term ``x log(x / y) - x + y``.

    sciax implementation of :func:`scipy.special.kl_div`.

    Parameters
    ----------
    x, y : array_like

    Returns
    -------
    Array
        ``y`` for ``x = 0, y >= 0``; ``inf`` outside ``x, y > 0``.

    Examples
    --------
    >>> from sciax.special import kl_div
    >>> kl_div(snp.array([1.0, 0.0]), snp.array([2.0, 3.0])).round(6)
    Array([0.306853, 3.      ], dtype=float64)
    """
    x, y = promote("kl_div", x, y)
    pos = (x > 0) & (y > 0)
    xs, ys = _util.safe(pos, x, 1.0), _util.safe(pos, y, 1.0)
    out = snp.where(pos, _kl_div_pos(xs, ys),
                    snp.where((x == 0) & (y >= 0), y, snp.inf))
    return snp.where(snp.isnan(x) | snp.isnan(y), snp.nan, out)


@sciax.custom_jvp
def _kl_div_pos(x: Any, y: Any) -> Any:
    # With t = (y - x)/x, x log(x/y) - x + y = -x log1pmx(t).  Near y = x the
    # three terms cancel to O(x t^2), amplifying the rounding of each by
    # 1/t^2 (and still 16-fold at y = 1.5 x); log1pmx's series, used for
    # -0.6 < t < 1.5 (its own range, so it needs no log1p(t): 0 is passed),
    # has no cancellation.  t carries at most two roundings (y - x is exact
    # for y >= x/2, by Sterbenz's lemma).  Outside, the terms cancel at most
    # 4-fold, and |log(x/y)| > 0.9 keeps the rounding of x / y harmless.
    t = (y - x) / x
    close = (t > -0.6) & (t < 1.5)
    tc = snp.where(close, t, 0.0)
    return snp.where(close, -x * _util.log1pmx(tc, snp.zeros_like(tc)),
                     x * snp.log(x / y) - x + y)


@_kl_div_pos.defjvp
def _kl_div_pos_jvp(primals: tuple, tangents: tuple) -> tuple:
    # d/dx = log(x/y), d/dy = 1 - x/y = (y - x)/y: two roundings, where
    # differentiating t = (y - x)/x would form 1/x^2 (inf for x < 1e-154)
    (x, y), (tx, ty) = primals, tangents
    return _kl_div_pos(x, y), tx * _log_ratio(x, y) + ty * ((y - x) / y)


def huber(delta: Any, r: Any) -> Any:
    """Huber loss: ``r^2/2`` for ``|r| <= delta``, else ``delta (|r| - delta/2)``.

    sciax implementation of :func:`scipy.special.huber`.

    Parameters
    ----------
    delta, r : array_like

    Returns
    -------
    Array
        ``inf`` for ``delta < 0``.

    Examples
    --------
    >>> from sciax.special import huber
    >>> huber(1.0, snp.array([0.5, 3.0]))
    Array([0.125, 2.5  ], dtype=float64)
    """
    delta, r = promote("huber", delta, r)
    ar = snp.abs(r)
    out = snp.where(ar <= delta, 0.5 * r * r, delta * (ar - 0.5 * delta))
    return snp.where(delta < 0, snp.inf, out)


def pseudo_huber(delta: Any, r: Any) -> Any:
    """Pseudo-Huber loss ``delta^2 (sqrt(1 + (r/delta)^2) - 1)``.

    sciax implementation of :func:`scipy.special.pseudo_huber`.

    Parameters
    ----------
    delta, r : array_like

    Returns
    -------
    Array
        ``inf`` for ``delta < 0``, 0 for ``delta = 0``.

    Examples
    --------
    >>> from sciax.special import pseudo_huber
    >>> pseudo_huber(1.0, snp.array([1e-10, 2.0])).round(6)
    Array([0.      , 1.236068], dtype=float64)
    """
    delta, r = promote("pseudo_huber", delta, r)
    pos = delta > 0
    ds = _util.safe(pos, delta, 1.0)
    t = r / ds
    t2 = t * t
    # sqrt(1 + t^2) - 1 = t^2 / (sqrt(1 + t^2) + 1): no cancellation
    # r (r / (...)), not delta^2 t^2 / (...): the delta-derivative of
    # delta^2 t^2 = r^2 cancelled (relative error 1.4 at delta = 1, r = 1e-8)
    out = r * (r / (snp.sqrt(1.0 + t2) + 1.0))
    out = snp.where(snp.isinf(t2), ds * snp.abs(r), out)
    return snp.where(pos, out, snp.where(delta == 0, 0.0, snp.inf))


def boxcox(x: Any, lmbda: Any) -> Any:
    """Box-Cox transformation ``(x^lmbda - 1) / lmbda`` (``log x`` at 0).

    sciax implementation of :func:`scipy.special.boxcox`.

    Parameters
    ----------
    x, lmbda : array_like

    Returns
    -------
    Array

    Notes
    -----
    ``expm1(lmbda log x) / lmbda``: accurate for small ``lmbda``.

    Examples
    --------
    >>> from sciax.special import boxcox
    >>> boxcox(snp.array([2.0, 2.0]), snp.array([0.0, 1e-20])).round(6)
    Array([0.693147, 0.693147], dtype=float64)
    """
    x, lmbda = promote("boxcox", x, lmbda)
    return _boxcox_log(snp.log(x), lmbda)


@sciax.custom_jvp
def _boxcox_log(lx: Any, lmbda: Any) -> Any:
    """``expm1(lmbda lx) / lmbda`` (``lx`` at 0)."""
    nz = lmbda != 0
    ls = _util.safe(nz, lmbda, 1.0)
    return snp.where(nz, snp.expm1(ls * lx) / ls, lx)


@_boxcox_log.defjvp
def _boxcox_log_jvp(primals: tuple, tangents: tuple) -> tuple:
    # f = lx h(t), h(t) = expm1(t)/t, t = lmbda lx:  df/dlx = e^t,
    # df/dlmbda = lx^2 h'(t), h'(t) = ((t - 1) e^t + 1) / t^2, summed as
    # sum_k (k + 1) t^k / (k + 2)! for |t| < 1, where the closed form
    # cancels (the quotient rule on expm1(t)/lmbda lost 1.4e-9 at
    # lmbda = 1e-8 and gave 0 at lmbda = 0)
    (lx, lm), (tx, tl) = primals, tangents
    t = lm * lx
    small = snp.abs(t) < 1.0
    ts = _util.safe(small, t, 0.0)
    ser = snp.zeros_like(t)
    for k in range(20, -1, -1):
        ser = ser * ts + (k + 1) / math.factorial(k + 2)
    tb = _util.safe(~small, t, 2.0)
    big = ((tb - 1.0) * snp.exp(tb) + 1.0) / (tb * tb)
    dl = lx * lx * snp.where(small, ser, big)
    return _boxcox_log(lx, lm), snp.exp(t) * tx + dl * tl


def boxcox1p(x: Any, lmbda: Any) -> Any:
    """Box-Cox transformation of ``1 + x``: ``((1 + x)^lmbda - 1) / lmbda``.

    sciax implementation of :func:`scipy.special.boxcox1p`.

    Parameters
    ----------
    x, lmbda : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import boxcox1p
    >>> print(np.asarray(boxcox1p(snp.array([1e-10, 1.0]), 0.5)))
    [1.00000000e-10 8.28427125e-01]
    """
    x, lmbda = promote("boxcox1p", x, lmbda)
    return _boxcox_log(_util.log1p(x), lmbda)


def inv_boxcox(y: Any, lmbda: Any) -> Any:
    """Inverse of :func:`boxcox`: ``(1 + lmbda y)^(1/lmbda)``.

    sciax implementation of :func:`scipy.special.inv_boxcox`.

    Parameters
    ----------
    y, lmbda : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import inv_boxcox
    >>> inv_boxcox(snp.array([0.693147180559945, 1.0]), snp.array([0.0, 1.0]))
    Array([2., 2.], dtype=float64)
    """
    y, lmbda = promote("inv_boxcox", y, lmbda)
    return snp.exp(_inv_boxcox_exponent(y, lmbda))


def inv_boxcox1p(y: Any, lmbda: Any) -> Any:
    """Inverse of :func:`boxcox1p`: ``(1 + lmbda y)^(1/lmbda) - 1``.

    sciax implementation of :func:`scipy.special.inv_boxcox1p`.

    Parameters
    ----------
    y, lmbda : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import inv_boxcox1p
    >>> inv_boxcox1p(snp.array([1e-10, 1.0]), 0.0)
    Array([1.00000000e-10, 1.71828183e+00], dtype=float64)
    """
    y, lmbda = promote("inv_boxcox1p", y, lmbda)
    return snp.expm1(_inv_boxcox_exponent(y, lmbda))


def _inv_boxcox_exponent(y: Any, lmbda: Any) -> Any:
    """``log1p(lmbda y) / lmbda`` (``y`` at 0).  For ``|u| < 0.1``, ``u =
    lmbda y``, it is ``y sum_k (-u)^k / (k + 1)`` (18 terms, the next below
    1e-19), whose lmbda-derivative does not cancel: the quotient's lost
    1.2e-8 at lmbda = 1e-8 and a where gave 0 at lmbda = 0."""
    u = lmbda * y
    small = (lmbda == 0) | (snp.abs(u) < 0.1)
    # (lmbda y with y = +-inf, lmbda = 0 is NaN; the series wants 0 there)
    us = _util.safe(small, lmbda * snp.where(snp.isinf(y), 0.0, y), 0.0)
    ser = snp.zeros_like(us)
    for k in range(17, -1, -1):
        ser = ser * -us + 1.0 / (k + 1)
    lb = _util.safe(~small, lmbda, 1.0)
    return snp.where(small, y * ser, _util.log1p(lb * y) / lb)


def sinc(x: Any) -> Any:
    """Normalized sinc ``sin(pi x) / (pi x)``.

    sciax implementation of :func:`scipy.special.sinc`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import sinc
    >>> sinc(snp.array([0.0, 0.5, 1.0])).round(6)
    Array([1.     , 0.63662, 0.     ], dtype=float64)
    """
    (x,) = promote("sinc", x, complex_ok=True)
    if _is_complex(x):
        return _csinc_cj(x)
    # |x| < 0.1: the Taylor series in (pi x)^2 (8 terms, the next one is
    # 7e-20), whose derivative is accurate; that of sin(pi x) / (pi x) cancels
    # as (pi x)^-2 (4e-1 relative error at x = 1e-8, 7e-15 at 0.1)
    small = snp.abs(x) < 0.1
    xs = _util.safe(~small, x, 1.0)
    z = math.pi * _util.safe(small, x, 0.0)
    z = z * z
    taylor = snp.zeros_like(z)
    for k in range(7, -1, -1):
        taylor = taylor * z + (-1.0) ** k / math.factorial(2 * k + 1)
    return snp.where(small, taylor, _util.sinpi(xs) / (math.pi * xs))


def cosm1(x: Any) -> Any:
    """``cos(x) - 1`` without cancellation for small ``x``.

    sciax implementation of :func:`scipy.special.cosm1`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import cosm1
    >>> print(float(cosm1(1e-5)))
    -4.99999999995833e-11
    """
    (x,) = promote("cosm1", x)
    s = snp.sin(0.5 * x)
    return -2.0 * s * s


def powm1(x: Any, y: Any) -> Any:
    """``x**y - 1``, accurate when ``y`` is small or ``x`` is close to 1.

    sciax implementation of :func:`scipy.special.powm1`.

    Parameters
    ----------
    x, y : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import powm1
    >>> print(float(powm1(1.0001, 1e-6)))
    9.99950003382968e-11
    """
    x, y = promote("powm1", x, y)
    pos = x > 0
    xs = _util.safe(pos, x, 1.0)
    w = y * snp.log(xs)
    # below w = -1, exp(w) - 1 (no cancellation): expm1's derivative
    # expm1(w) + 1 lost e^w's relative accuracy (8e-8 at x = 1e-5, y = 2)
    v_pos = snp.where(w < -1.0, snp.exp(w) - 1.0, snp.expm1(w))
    yint = y == snp.floor(y)
    v_neg = snp.power(x, y) - 1.0
    out = snp.where(pos, v_pos, snp.where(yint, v_neg, snp.nan))
    out = snp.where(x == 0, snp.where(y > 0, -1.0, snp.where(y < 0, snp.inf, 0.0)),
                    out)
    # only where the formula gives NaN (inf * 0, nan ** 0): elsewhere it is
    # already 0 there, and the derivative (y at x = 1, log x at y = 0) flows
    return snp.where(((y == 0) | (x == 1)) & snp.isnan(out), 0.0, out)


def exp2(x: Any) -> Any:
    """``2**x``.

    sciax implementation of :func:`scipy.special.exp2`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import exp2
    >>> exp2(snp.array([3.0, 0.5])).round(6)
    Array([8.      , 1.414214], dtype=float64)
    """
    (x,) = promote("exp2", x)
    return snp.power(2.0, x)      # exact at integers (StableHLO's exp2 is not)


def exp10(x: Any) -> Any:
    """``10**x``.

    sciax implementation of :func:`scipy.special.exp10`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import exp10
    >>> exp10(snp.array([3.0, -1.0]))
    Array([1.e+03, 1.e-01], dtype=float64)
    """
    (x,) = promote("exp10", x)
    return snp.power(10.0, x)


def cbrt(x: Any) -> Any:
    """Real cube root.

    sciax implementation of :func:`scipy.special.cbrt`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import cbrt
    >>> cbrt(snp.array([27.0, -8.0]))
    Array([ 3., -2.], dtype=float64)
    """
    (x,) = promote("cbrt", x)
    return lax.cbrt(x)


def round(x: Any) -> Any:  # noqa: A001 - SciPy's name
    """Round to the nearest integer, halfway cases to even.

    sciax implementation of :func:`scipy.special.round`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import round
    >>> round(snp.array([0.5, 1.5, 2.5, -2.7]))
    Array([ 0.,  2.,  2., -3.], dtype=float64)
    """
    (x,) = promote("round", x)
    return lax.round(x, lax.ROUND_TO_NEAREST_EVEN)


def expm1(x: Any) -> Any:
    """``exp(x) - 1``, accurate for small ``x``.

    sciax implementation of :func:`scipy.special.expm1` (real or complex
    arguments).

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import expm1
    >>> print(float(expm1(1e-10)))
    1.00000000005e-10
    """
    (x,) = promote("expm1", x, complex_ok=True)
    if _is_complex(x):
        return _cexpm1_cj(x)
    return snp.expm1(x)


def log1p(x: Any) -> Any:
    """``log(1 + x)``, accurate for small ``x``.

    sciax implementation of :func:`scipy.special.log1p` (real or complex
    arguments).

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import log1p
    >>> print(float(log1p(1e-10)))
    9.9999999995e-11
    """
    (x,) = promote("log1p", x, complex_ok=True)
    if _is_complex(x):
        return _clog1p_cj(x)
    return _util.log1p(x)


def exprel(x: Any) -> Any:
    """Relative error exponential ``(exp(x) - 1) / x`` (1 at 0).

    sciax implementation of :func:`scipy.special.exprel`.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import exprel
    >>> exprel(snp.array([0.0, 1e-10, 1.0])).round(6)
    Array([1.      , 1.      , 1.718282], dtype=float64)
    """
    (x,) = promote("exprel", x)
    # |x| < 0.1: sum x^k / (k + 1)!, 11 terms (the next is 2e-18): the
    # derivative of expm1(x) / x cancels as 1/x (2.5e-11 relative error at
    # x = -1e-5, 5e-15 at 0.1)
    small = snp.abs(x) < 0.1
    xs = _util.safe(~small, x, 1.0)
    xt = _util.safe(small, x, 0.0)
    taylor = snp.zeros_like(xt)
    for k in range(10, -1, -1):
        taylor = taylor * xt + 1.0 / math.factorial(k + 1)
    out = snp.where(small, taylor, snp.expm1(xs) / xs)
    return snp.where(x == snp.inf, snp.inf, out)


def _deg_turns(x: Any) -> Any:
    """``x / 180`` after the exact reduction of ``x`` modulo 360 (so the
    division's rounding is that of a number below 2); beyond ``1e14`` degrees
    SciPy (Cephes) returns 0 for total loss of precision, and so do we."""
    return snp.where(snp.abs(x) > 1e14, 0.0, snp.fmod(x, 360.0) / 180.0)


def sindg(x: Any) -> Any:
    """Sine of an angle in degrees (exactly 0 at multiples of 180).

    sciax implementation of :func:`scipy.special.sindg`.

    Parameters
    ----------
    x : array_like
        Angle in degrees.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import sindg
    >>> sindg(snp.array([30.0, 180.0, 270.0])).round(12)
    Array([ 0.5,  0. , -1. ], dtype=float64)
    """
    (x,) = promote("sindg", x)
    return _util.sinpi(_deg_turns(x))


def cosdg(x: Any) -> Any:
    """Cosine of an angle in degrees (exactly 0 at odd multiples of 90).

    sciax implementation of :func:`scipy.special.cosdg`.

    Parameters
    ----------
    x : array_like
        Angle in degrees.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import cosdg
    >>> cosdg(snp.array([60.0, 90.0])).round(12)
    Array([0.5, 0. ], dtype=float64)
    """
    (x,) = promote("cosdg", x)
    return snp.where(snp.abs(x) > 1e14, 0.0, _util.cospi(_deg_turns(x)))


def tandg(x: Any) -> Any:
    """Tangent of an angle in degrees (``inf`` at odd multiples of 90, as
    SciPy).

    sciax implementation of :func:`scipy.special.tandg`.

    Parameters
    ----------
    x : array_like
        Angle in degrees.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import tandg
    >>> tandg(snp.array([45.0, 135.0])).round(12)
    Array([ 1., -1.], dtype=float64)
    """
    (x,) = promote("tandg", x)
    c = _util.cospi(_deg_turns(x))
    s = _util.sinpi(_deg_turns(x))
    return snp.where(c == 0, snp.inf, s / snp.where(c == 0, 1.0, c))


def cotdg(x: Any) -> Any:
    """Cotangent of an angle in degrees (``inf`` at multiples of 180, as
    SciPy).

    sciax implementation of :func:`scipy.special.cotdg`.

    Parameters
    ----------
    x : array_like
        Angle in degrees.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import cotdg
    >>> cotdg(snp.array([45.0, 90.0])).round(12)
    Array([1., 0.], dtype=float64)
    """
    (x,) = promote("cotdg", x)
    c = _util.cospi(_deg_turns(x))
    s = _util.sinpi(_deg_turns(x))
    return snp.where(s == 0, snp.inf, c / snp.where(s == 0, 1.0, s))


def radian(d: Any, m: Any, s: Any) -> Any:
    """Degrees, minutes and seconds to radians.

    sciax implementation of :func:`scipy.special.radian`.

    Parameters
    ----------
    d, m, s : array_like

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import radian
    >>> float(radian(90, 0, 0).round(12))
    1.570796326795
    """
    d, m, s = promote("radian", d, m, s)
    return (d + m / 60.0 + s / 3600.0) * (math.pi / 180.0)


def agm(a: Any, b: Any) -> Any:
    """Arithmetic-geometric mean of ``a`` and ``b``.

    sciax implementation of :func:`scipy.special.agm`.

    Parameters
    ----------
    a, b : array_like
        Real arguments of one sign (NaN otherwise, as SciPy).

    Returns
    -------
    Array

    Notes
    -----
    Fixed 60 iterations of ``(a, b) -> ((a + b)/2, sqrt(a b))`` (quadratic
    convergence; the geometric mean is taken as ``sqrt(a) sqrt(b)`` so it does
    not overflow).

    Examples
    --------
    >>> from sciax.special import agm
    >>> float(agm(24.0, 6.0).round(10))
    13.4581714817
    """
    a, b = promote("agm", a, b)
    sgn = snp.sign(a)
    ok = (a * b > 0) | ((a == 0) | (b == 0))
    x, y = snp.abs(a), snp.abs(b)

    def body(_, c):
        u, v = c
        return 0.5 * u + 0.5 * v, snp.sqrt(u) * snp.sqrt(v)

    u, _ = lax.fori_loop(0, 60, body, (x, y))
    out = sgn * u
    out = snp.where((a == 0) | (b == 0), 0.0, out)
    return snp.where(ok, out, snp.nan)


# --- complex arguments --------------------------------------------------------------

def _is_complex(z: Any) -> bool:
    return bool(snp.issubdtype(z.dtype, snp.complexfloating))


def _cexpm1(z: Any) -> Any:
    # Re = expm1(x) cos y - 2 sin^2(y/2) (= Re e^z - 1 without the
    # cancellation of cos y - 1), Im = e^x sin y; below x = -40, Re = -1
    x, y = snp.real(z), snp.imag(z)
    s = snp.sin(0.5 * y)
    re = snp.expm1(x) * snp.cos(y) - 2.0 * s * s
    re = snp.where(x < -40.0, -1.0, re)
    return lax.complex(re, snp.exp(x) * snp.sin(y))


def _two_prod(a: Any, b: Any) -> tuple[Any, Any]:
    """``a b = p + e`` exactly (Dekker's product with Veltkamp's split)."""
    p = a * b
    ca, cb = 134217729.0 * a, 134217729.0 * b
    a1 = ca - (ca - a)
    b1 = cb - (cb - b)
    a2, b2 = a - a1, b - b1
    return p, ((a1 * b1 - p) + a1 * b2 + a2 * b1) + a2 * b2


def _two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _clog1p(z: Any) -> Any:
    x, y = snp.real(z), snp.imag(z)
    # |z| < 0.707 (SciPy's region): Re log(1 + z) = log1p(2x + x^2 + y^2)/2
    # with the sum in double-double, since 2x may cancel x^2 + y^2 (near
    # the circle |1 + z| = 1); Im = atan2(y, 1 + x)
    small = snp.abs(z) < 0.707
    xs = snp.where(small, x, 0.0)
    ys = snp.where(small, y, 0.0)
    p1, e1 = _two_prod(xs, xs)
    p2, e2 = _two_prod(ys, ys)
    s1, r1 = _two_sum(2.0 * xs, p1)
    s2, r2 = _two_sum(s1, p2)
    t = s2 + (((r1 + r2) + e1) + e2)
    near = lax.complex(0.5 * _util.log1p(t), snp.arctan2(ys, 1.0 + xs))
    out = snp.where(small, near, snp.log(1.0 + z))
    axis = (y == 0) & (x >= -1.0)
    return snp.where(axis, lax.complex(_util.log1p(snp.where(axis, x, 0.0)), y),
                     out)


def _csinc(z: Any) -> Any:
    # sin(pi z) = sinpi(x) cosh(pi y) + i cospi(x) sinh(pi y), with sinpi and
    # cospi exact at the integers and half-integers (XLA's complex sin loses
    # its relative accuracy near 0)
    x, y = snp.real(z), snp.imag(z)
    nz = (x != 0) | (y != 0)
    zs = snp.where(nz, z, 1.0 + 0j)
    xs, ys = snp.real(zs), snp.imag(zs)
    s = lax.complex(_util.sinpi(xs) * snp.cosh(math.pi * ys),
                    _util.cospi(xs) * snp.sinh(math.pi * ys))
    return snp.where(nz, s / (math.pi * zs), 1.0 + 0j)


def _holo(fn: Any, deriv: Any) -> Any:
    """``fn`` with the holomorphic derivative ``deriv(z, fn(z))``."""
    f = sciax.custom_jvp(fn)

    @f.defjvp
    def _jvp(primals: tuple, tangents: tuple) -> tuple:
        (z,), (t,) = primals, tangents
        v = f(z)
        return v, deriv(z, v) * t

    return f


def _csinc_deriv(z: Any, v: Any) -> Any:
    # (cos(pi z) - sinc z) / z, 0 at z = 0
    nz = z != 0
    zs = snp.where(nz, z, 1.0 + 0j)
    return snp.where(nz, (snp.cos(math.pi * zs) - v) / zs, 0j)


_cexpm1_cj = _holo(_cexpm1, lambda z, v: v + 1.0)
_clog1p_cj = _holo(_clog1p, lambda z, v: 1.0 / (1.0 + z))
_csinc_cj = _holo(_csinc, _csinc_deriv)
