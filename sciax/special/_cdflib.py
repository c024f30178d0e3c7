"""Distribution functions: Student t, chi-square, gamma, Poisson, binomial,
negative binomial, F, and the Kolmogorov-Smirnov distributions.

Each is an incomplete gamma or beta function (or its inverse) with the
argument written so that the small tail is computed directly (``bdtr`` is
``betaincc(k + 1, n - k, p)``, not ``betainc(n - k, k + 1, 1 - p)``, so ``1 - p``
never rounds), and inherits their derivatives in every continuous argument.
Integer arguments (``k``, ``n`` of the discrete distributions) are floored as
SciPy does and are not differentiated.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _util
from sciax.special._error import _ndtr, _ndtri_cj
from sciax.special._incomplete import (_ibeta_pair, betainc, betaincc, betainccinv,
                                       betaincinv, gammainc, gammaincc, gammainccinv,
                                       gammaincinv)
from sciax.special._util import promote

__all__ = ["stdtr", "stdtrit", "chdtr", "chdtrc", "chdtri", "gdtr", "gdtrc",
           "gdtrix", "pdtr", "pdtrc", "pdtri", "bdtr", "bdtrc", "bdtri", "nbdtr",
           "nbdtrc", "nbdtri", "fdtr", "fdtrc", "fdtri", "smirnov", "smirnovi",
           "kolmogorov", "kolmogi"]


def stdtr(df: Any, t: Any) -> Any:
    """Student t distribution function.

    sciax implementation of :func:`scipy.special.stdtr`.

    Parameters
    ----------
    df : array_like
        Degrees of freedom (``> 0``; ``inf`` gives the normal distribution).
    t : array_like
        Argument.

    Returns
    -------
    Array

    Notes
    -----
    ``(1 + I_{t^2/(df+t^2)}(1/2, df/2))/2`` for ``|t| <= 1`` and
    ``I_{df/(df+t^2)}(df/2, 1/2) / 2`` (or one minus it) beyond, so the lower
    tail never cancels.  Differentiable in ``df``
    and ``t``.

    Examples
    --------
    >>> from sciax.special import stdtr
    >>> stdtr(3.0, snp.array([-2.0, 0.0, 1.0])).round(6)
    Array([0.069663, 0.5     , 0.804499], dtype=float64)
    """
    df, t = promote("stdtr", df, t)
    t2 = t * t
    # P(|T| < 1) >= 1/2 for df >= 1: beyond |t| = 1 the tail form is the small
    # side, and 0.5 + 0.5 q would cancel
    dfs = _util.safe(snp.isfinite(df), df, 1.0)
    # below df = 1 the centre form's argument t^2/(df + t^2) rounds to 1 where
    # t^2 >> df (stdtr(1e-17, 0.5) was 1, not 1/2): it is kept to t^2 <= df
    centre = t2 <= snp.minimum(dfs, 1.0)
    # one incomplete beta function for both forms (each element needs one).
    # Beyond |t| = 1 the tail is I_x(df/2, 1/2) with x = df/(df + t^2); where
    # t^2 < df, x is near 1 and its rounding costs eps/(1 - x) relative (2e-7
    # at df = 1e10, 1e-5 at 1e12), so there the pair's complement of
    # I_{1-x}(1/2, df/2) is taken, with 1 - x = t^2/(df + t^2) exact to rounding
    half = snp.full_like(dfs, 0.5)
    flip = ~centre & (t2 < dfs)
    small_first = centre | flip
    i, ic = _ibeta_pair(snp.where(small_first, half, 0.5 * dfs),
                        snp.where(small_first, 0.5 * dfs, half),
                        snp.where(small_first, t2 / (dfs + t2), dfs / (dfs + t2)))
    i = snp.where(flip, ic, i)
    v_centre = 0.5 + 0.5 * snp.sign(t) * i
    tail = 0.5 * i
    v_tail = snp.where(t < 0, tail, 1.0 - tail)
    out = snp.where(centre, v_centre, v_tail)
    out = snp.where(snp.isinf(df) & (df > 0), _ndtr(t), out)
    return snp.where(df <= 0, snp.nan, out)


def stdtrit(df: Any, p: Any) -> Any:
    """Inverse of :func:`stdtr` in ``t``.

    sciax implementation of :func:`scipy.special.stdtrit`.

    Parameters
    ----------
    df : array_like
        Degrees of freedom.
    p : array_like
        Probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import stdtrit
    >>> stdtrit(3.0, snp.array([0.069663, 0.975])).round(5)
    Array([-2.     ,  3.18245], dtype=float64)
    """
    df, p = promote("stdtrit", df, p)
    dfs = _util.safe(snp.isfinite(df) & (df > 0), df, 1.0)
    mid = (p >= 0.25) & (p <= 0.75)
    lo = p < 0.5
    pt = snp.where(lo, p, 1.0 - p)
    # one inverse for both forms (each element needs one): z of I_z(1/2, df/2)
    # in the middle, x of I_x(df/2, 1/2) in the tails
    half = snp.full_like(dfs, 0.5)
    z = x = betaincinv(snp.where(mid, half, 0.5 * dfs), snp.where(mid, 0.5 * dfs, half),
                       snp.where(mid, snp.abs(2.0 * p - 1.0), 2.0 * pt))
    t_mid = snp.sign(p - 0.5) * snp.sqrt(dfs * z / (1.0 - z))
    t_tail = snp.sqrt(dfs * (1.0 - x) / x)
    t_tail = snp.where(lo, -t_tail, t_tail)
    out = snp.where(mid, t_mid, t_tail)
    out = snp.where(snp.isinf(df) & (df > 0), _ndtri_cj(p), out)
    return snp.where(df <= 0, snp.nan, out)


def chdtr(v: Any, x: Any) -> Any:
    """Chi-square distribution function, ``gammainc(v/2, x/2)``.

    sciax implementation of :func:`scipy.special.chdtr`.

    Parameters
    ----------
    v : array_like
        Degrees of freedom.
    x : array_like
        Argument.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import chdtr
    >>> float(chdtr(2.0, 2.0).round(6))
    0.632121
    """
    v, x = promote("chdtr", v, x)
    return gammainc(0.5 * v, 0.5 * x)


def chdtrc(v: Any, x: Any) -> Any:
    """Chi-square survival function, ``gammaincc(v/2, x/2)``.

    sciax implementation of :func:`scipy.special.chdtrc`.

    Parameters
    ----------
    v : array_like
        Degrees of freedom.
    x : array_like
        Argument.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import chdtrc
    >>> print(f"{float(chdtrc(3.0, 100.0)):.6e}")
    1.554159e-21
    """
    v, x = promote("chdtrc", v, x)
    return gammaincc(0.5 * v, 0.5 * x)


def chdtri(v: Any, p: Any) -> Any:
    """Inverse of :func:`chdtrc` in ``x``.

    sciax implementation of :func:`scipy.special.chdtri`.

    Parameters
    ----------
    v : array_like
        Degrees of freedom.
    p : array_like
        Survival probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import chdtri
    >>> chdtri(3.0, snp.array([0.5, 1e-10])).round(6)
    Array([ 2.365974, 49.542156], dtype=float64)
    """
    v, p = promote("chdtri", v, p)
    return 2.0 * gammainccinv(0.5 * v, p)


def gdtr(a: Any, b: Any, x: Any) -> Any:
    """Gamma distribution function (rate ``a``, shape ``b``):
    ``gammainc(b, a x)``.

    sciax implementation of :func:`scipy.special.gdtr`.

    Parameters
    ----------
    a, b : array_like
        Rate and shape.
    x : array_like
        Argument.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import gdtr
    >>> float(gdtr(2.0, 3.0, 1.0).round(6))
    0.323324
    """
    a, b, x = promote("gdtr", a, b, x)
    return gammainc(b, a * x)


def gdtrc(a: Any, b: Any, x: Any) -> Any:
    """Gamma survival function (rate ``a``, shape ``b``): ``gammaincc(b, a x)``.

    sciax implementation of :func:`scipy.special.gdtrc`.

    Parameters
    ----------
    a, b : array_like
        Rate and shape.
    x : array_like
        Argument.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import gdtrc
    >>> float(gdtrc(2.0, 3.0, 1.0).round(6))
    0.676676
    """
    a, b, x = promote("gdtrc", a, b, x)
    return gammaincc(b, a * x)


def gdtrix(a: Any, b: Any, p: Any) -> Any:
    """Inverse of :func:`gdtr` in ``x``.

    sciax implementation of :func:`scipy.special.gdtrix`.

    Parameters
    ----------
    a, b : array_like
        Rate and shape.
    p : array_like
        Probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import gdtrix
    >>> float(gdtrix(2.0, 3.0, 0.323324).round(5))
    1.0
    """
    a, b, p = promote("gdtrix", a, b, p)
    return gammaincinv(b, p) / a


def _int_arg(k: Any) -> Any:
    return lax.stop_gradient(snp.floor(k))


def pdtr(k: Any, m: Any) -> Any:
    """Poisson distribution function: ``P(N <= k)`` for mean ``m``.

    sciax implementation of :func:`scipy.special.pdtr`.

    Parameters
    ----------
    k : array_like
        Number of events (floored; NaN if negative).
    m : array_like
        Mean.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import pdtr
    >>> pdtr(snp.array([0.0, 2.0]), 2.0).round(6)
    Array([0.135335, 0.676676], dtype=float64)
    """
    k, m = promote("pdtr", k, m)
    kf = _int_arg(k)
    out = gammaincc(snp.maximum(kf, 0.0) + 1.0, m)
    return snp.where(k < 0, snp.nan, out)


def pdtrc(k: Any, m: Any) -> Any:
    """Poisson survival function ``P(N > k)``.

    sciax implementation of :func:`scipy.special.pdtrc`.

    Parameters
    ----------
    k : array_like
        Number of events (floored).
    m : array_like
        Mean.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import pdtrc
    >>> pdtrc(snp.array([0.0, 2.0]), 2.0).round(6)
    Array([0.864665, 0.323324], dtype=float64)
    """
    k, m = promote("pdtrc", k, m)
    kf = _int_arg(k)
    out = gammainc(snp.maximum(kf, 0.0) + 1.0, m)
    return snp.where(k < 0, snp.nan, out)


def pdtri(k: Any, y: Any) -> Any:
    """Inverse of :func:`pdtr` in the mean ``m``.

    sciax implementation of :func:`scipy.special.pdtri`.

    Parameters
    ----------
    k : array_like
        Number of events (floored).
    y : array_like
        Probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import pdtri
    >>> pdtri(snp.array([0.0, 2.0]), 0.3).round(6)
    Array([1.203973, 3.615568], dtype=float64)
    """
    k, y = promote("pdtri", k, y)
    kf = _int_arg(k)
    out = gammainccinv(snp.maximum(kf, 0.0) + 1.0, y)
    return snp.where(k < 0, snp.nan, out)


def bdtr(k: Any, n: Any, p: Any) -> Any:
    """Binomial distribution function ``P(X <= k)`` for ``n`` trials.

    sciax implementation of :func:`scipy.special.bdtr`.

    Parameters
    ----------
    k : array_like
        Number of successes (floored).
    n : array_like
        Number of trials.
    p : array_like
        Success probability.

    Returns
    -------
    Array
        NaN for ``k < 0`` or ``k > n``, as SciPy.

    Examples
    --------
    >>> from sciax.special import bdtr
    >>> bdtr(snp.array([0.0, 2.0, 5.0]), 5, 0.3).round(6)
    Array([0.16807, 0.83692, 1.     ], dtype=float64)
    """
    k, n, p = promote("bdtr", k, n, p)
    kf = _int_arg(k)
    inner = (kf >= 0) & (kf < n)
    ks = _util.safe(inner, kf, 0.0)
    ns = _util.safe(inner, n, 1.0)
    out = betaincc(ks + 1.0, ns - ks, p)
    out = snp.where(kf == n, 1.0, out)
    # as SciPy: NaN for k outside [0, n] and for p outside [0, 1] (NaN too),
    # also where the value would not depend on p
    bad = (kf < 0) | (kf > n) | ~((p >= 0) & (p <= 1))
    return snp.where(bad, snp.nan, out)


def bdtrc(k: Any, n: Any, p: Any) -> Any:
    """Binomial survival function ``P(X > k)``.

    sciax implementation of :func:`scipy.special.bdtrc`.

    Parameters
    ----------
    k : array_like
        Number of successes (floored).
    n : array_like
        Number of trials.
    p : array_like
        Success probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import bdtrc
    >>> bdtrc(snp.array([0.0, 2.0]), 5, 0.3).round(6)
    Array([0.83193, 0.16308], dtype=float64)
    """
    k, n, p = promote("bdtrc", k, n, p)
    kf = _int_arg(k)
    inner = (kf >= 0) & (kf < n)
    ks = _util.safe(inner, kf, 0.0)
    ns = _util.safe(inner, n, 1.0)
    out = betainc(ks + 1.0, ns - ks, p)
    out = snp.where(kf < 0, 1.0, snp.where(kf == n, 0.0, out))
    return snp.where((kf > n) | ~((p >= 0) & (p <= 1)), snp.nan, out)


def bdtri(k: Any, n: Any, y: Any) -> Any:
    """Inverse of :func:`bdtr` in ``p``.

    sciax implementation of :func:`scipy.special.bdtri`.

    Parameters
    ----------
    k : array_like
        Number of successes (floored).
    n : array_like
        Number of trials.
    y : array_like
        Probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import bdtri
    >>> bdtri(snp.array([0.0, 2.0]), 5, 0.4).round(6)
    Array([0.167447, 0.553746], dtype=float64)
    """
    k, n, y = promote("bdtri", k, n, y)
    kf = _int_arg(k)
    inner = (kf >= 0) & (kf < n)
    ks = _util.safe(inner, kf, 0.0)
    ns = _util.safe(inner, n, 1.0)
    out = betainccinv(ks + 1.0, ns - ks, y)
    return snp.where(inner, out, snp.nan)


def nbdtr(k: Any, n: Any, p: Any) -> Any:
    """Negative binomial distribution function: ``P(K <= k)`` failures before
    the ``n``-th success, ``betainc(n, k + 1, p)``.

    sciax implementation of :func:`scipy.special.nbdtr`.

    Parameters
    ----------
    k : array_like
        Number of failures (floored).
    n : array_like
        Number of successes.
    p : array_like
        Success probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import nbdtr
    >>> nbdtr(snp.array([0.0, 2.0]), 3, 0.4).round(6)
    Array([0.064  , 0.31744], dtype=float64)
    """
    k, n, p = promote("nbdtr", k, n, p)
    kf = _int_arg(k)
    out = betainc(n, snp.maximum(kf, 0.0) + 1.0, p)
    return snp.where(kf < 0, snp.nan, out)


def nbdtrc(k: Any, n: Any, p: Any) -> Any:
    """Negative binomial survival function ``P(K > k)``.

    sciax implementation of :func:`scipy.special.nbdtrc`.

    Parameters
    ----------
    k : array_like
        Number of failures (floored).
    n : array_like
        Number of successes.
    p : array_like
        Success probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import nbdtrc
    >>> nbdtrc(snp.array([0.0, 2.0]), 3, 0.4).round(6)
    Array([0.936  , 0.68256], dtype=float64)
    """
    k, n, p = promote("nbdtrc", k, n, p)
    kf = _int_arg(k)
    out = betaincc(n, snp.maximum(kf, 0.0) + 1.0, p)
    return snp.where(kf < 0, snp.nan, out)


def nbdtri(k: Any, n: Any, y: Any) -> Any:
    """Inverse of :func:`nbdtr` in ``p``.

    sciax implementation of :func:`scipy.special.nbdtri`.

    Parameters
    ----------
    k : array_like
        Number of failures (floored).
    n : array_like
        Number of successes.
    y : array_like
        Probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import nbdtri
    >>> nbdtri(snp.array([0.0, 2.0]), 3, 0.3).round(6)
    Array([0.669433, 0.389818], dtype=float64)
    """
    k, n, y = promote("nbdtri", k, n, y)
    kf = _int_arg(k)
    out = betaincinv(n, snp.maximum(kf, 0.0) + 1.0, y)
    return snp.where(kf < 0, snp.nan, out)


def _f_args(dfn: Any, dfd: Any, x: Any) -> tuple:
    """``(w, w_lo, wc, wc_lo)``: ``w = dfn x / (dfd + dfn x)`` and ``wc =
    dfd / (dfd + dfn x)`` as double-doubles (float64; elsewhere, and where
    one is not finite, the plain quotients with low parts 0)."""
    den = dfd + dfn * x
    w, wc = dfn * x / den, dfd / den
    if w.dtype != np.float64:
        z = snp.zeros_like(w)
        return w, z, wc, z
    nh, nl = _util.two_prod(dfn, x)
    dh, dl = _util.dd_add(dfd, snp.zeros_like(nh), nh, nl)
    wh, wl = _util.dd_div(nh, nl, dh, dl)
    ch, cl = _util.dd_div(dfd, snp.zeros_like(dh), dh, dl)

    def pick(hi, lo, plain):
        ok = snp.isfinite(hi) & snp.isfinite(lo)
        return snp.where(ok, hi, plain), snp.where(ok, lo, 0.0)

    return (*pick(wh, wl, w), *pick(ch, cl, wc))


def _tail_fix(v: Any, p: Any, q: Any, w: Any, w_lo: Any) -> Any:
    """``v`` (a tail ``<= 1/2`` of a beta distribution with exponents ``w^p
    (1 - w)^q``, taken at the rounded ``w``) moved to ``w + w_lo``, to first
    order in the exponent: ``v (1 + w_lo (p/w - q/(1 - w)))``.  In the deep
    tails ``p`` or ``q`` is ~500 and the rounding of ``w`` (~2 ulp) moved
    ``v`` by 1e-13; the fraction's own slope is ``O(1)``.  Not
    differentiated (a ~1e-16 relative term)."""
    ok = (v <= 0.5) & (w_lo != 0) & (w > 0) & (w < 1)
    ws = _util.safe(ok, w, 0.5)
    f = lax.stop_gradient(snp.where(ok, w_lo * (p / ws - q / (1.0 - ws)), 0.0))
    return v * (1.0 + f)


def _f_tails(dfn: Any, dfd: Any, x: Any) -> tuple[Any, Any]:
    """``(fdtr, fdtrc)``: ``I_w(dfn/2, dfd/2)`` and its complement where ``w <=
    1/2``, else ``I_{1-w}(dfd/2, dfn/2)``'s complement and itself, from one
    incomplete beta evaluation (``_ibeta_pair``) with the arguments chosen per
    element."""
    w, w_lo, wc, wc_lo = _f_args(dfn, dfd, x)
    lo = w <= 0.5
    a, b = 0.5 * dfn, 0.5 * dfd
    w_s, wc_s = _util.safe(lo, w, 0.25), _util.safe(~lo, wc, 0.25)
    i, ic = _ibeta_pair(*snp.broadcast_arrays(
        snp.where(lo, a, b), snp.where(lo, b, a), snp.where(lo, w_s, wc_s)))
    # lo: I_w(a, b) and 1 - I; else 1 - I_{1-w}(b, a) and I
    cdf = snp.where(lo, _tail_fix(i, a, b, w_s, w_lo), _tail_fix(ic, b, a, wc_s, wc_lo))
    sf = snp.where(lo, _tail_fix(ic, a, b, w_s, w_lo), _tail_fix(i, b, a, wc_s, wc_lo))
    bad = x < 0
    return snp.where(bad, snp.nan, cdf), snp.where(bad, snp.nan, sf)


def fdtr(dfn: Any, dfd: Any, x: Any) -> Any:
    """F distribution function.

    sciax implementation of :func:`scipy.special.fdtr`.

    Parameters
    ----------
    dfn, dfd : array_like
        Degrees of freedom of the numerator and denominator.
    x : array_like
        Argument (``>= 0``).

    Returns
    -------
    Array

    Notes
    -----
    ``I_w(dfn/2, dfd/2)`` with ``w = dfn x / (dfd + dfn x)``, or its complement
    in ``1 - w = dfd / (dfd + dfn x)`` (formed without rounding) when ``w >
    1/2``.

    Examples
    --------
    >>> from sciax.special import fdtr
    >>> fdtr(3.0, 4.0, snp.array([0.5, 3.0])).round(6)
    Array([0.297802, 0.841897], dtype=float64)
    """
    dfn, dfd, x = promote("fdtr", dfn, dfd, x)
    return _f_tails(dfn, dfd, x)[0]


def fdtrc(dfn: Any, dfd: Any, x: Any) -> Any:
    """F survival function.

    sciax implementation of :func:`scipy.special.fdtrc`.

    Parameters
    ----------
    dfn, dfd : array_like
        Degrees of freedom.
    x : array_like
        Argument.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import fdtrc
    >>> print(f"{float(fdtrc(3.0, 4.0, 1e4)):.6e}")
    3.332297e-08
    """
    dfn, dfd, x = promote("fdtrc", dfn, dfd, x)
    return _f_tails(dfn, dfd, x)[1]


def fdtri(dfn: Any, dfd: Any, p: Any) -> Any:
    """Inverse of :func:`fdtr` in ``x``.

    sciax implementation of :func:`scipy.special.fdtri`.

    Parameters
    ----------
    dfn, dfd : array_like
        Degrees of freedom.
    p : array_like
        Probability.

    Returns
    -------
    Array

    Examples
    --------
    >>> from sciax.special import fdtri
    >>> fdtri(3.0, 4.0, snp.array([0.5, 1e-5])).round(6)
    Array([0.940534, 0.000336], dtype=float64)
    """
    dfn, dfd, p = promote("fdtri", dfn, dfd, p)
    # the branch whose unknown is the small one of w and 1 - w: p <= I_{1/2}
    # puts w <= 1/2.  (Choosing by p <= 1/2 took 1 - w from w = 1 - 1.4e-4 at
    # dfn = 111, dfd = 0.32, p = 0.5 and lost 3.6e-13.)
    lo = p <= betainc(0.5 * dfn, 0.5 * dfd, snp.full_like(p, 0.5))
    w = betaincinv(0.5 * dfn, 0.5 * dfd, _util.safe(lo, p, 0.25))
    x_lo = dfd * w / (dfn * (1.0 - w))
    v = betainccinv(0.5 * dfd, 0.5 * dfn, _util.safe(~lo, p, 0.75))
    x_hi = dfd * (1.0 - v) / (dfn * v)
    return snp.where(lo, x_lo, x_hi)


# --- Kolmogorov-Smirnov ----------------------------------------------------------

def _smirnov(n: Any, d: Any) -> Any:
    """Birnbaum and Tingey's exact sum for ``P(D_n^+ >= d)``:
    ``d sum_j C(n, j) (1 - d - j/n)^(n-j) (d + j/n)^(j-1)``, in logarithms
    (all terms are positive)."""
    ok = (d > 0) & (d < 1) & (n >= 1)
    ns = _util.safe(ok, n, 1.0)
    ds = _util.safe(ok, d, 0.5)
    jmax = snp.floor(ns * (1.0 - ds))

    def cond(c):
        return snp.any(c[0] <= jmax)

    def body(c):
        j, logc, acc = c
        use = j <= jmax
        a = (ns * (1.0 - ds) - j) / ns
        b = ds + j / ns
        lt = (logc + (ns - j) * snp.log(snp.where(use & (a > 0), a, 1.0))
              + (j - 1.0) * snp.log(b))
        term = snp.where(use & (a > 0), snp.exp(lt), 0.0)
        logc = logc + snp.log((ns - j) / (j + 1.0))
        return j + 1.0, logc, acc + term

    z = snp.zeros_like(ns)
    _, _, acc = lax.while_loop(cond, body, (z, z, z))
    out = ds * acc
    out = snp.where(d <= 0, 1.0, snp.where(d >= 1, 0.0, out))
    return snp.where((n < 1) | snp.isnan(n) | snp.isnan(d), snp.nan, out)


def smirnov(n: Any, d: Any) -> Any:
    """Kolmogorov-Smirnov one-sided survival function ``P(D_n^+ >= d)``.

    sciax implementation of :func:`scipy.special.smirnov`.

    Parameters
    ----------
    n : array_like
        Sample size (integer).
    d : array_like
        Deviation in ``[0, 1]``.

    Returns
    -------
    Array

    Notes
    -----
    Birnbaum and Tingey's exact sum (``n(1 - d)`` terms), so the cost grows
    with ``n``.  Differentiable in ``d``.

    Examples
    --------
    >>> from sciax.special import smirnov
    >>> smirnov(snp.array([1, 5, 10]), snp.array([0.3, 0.3, 0.1])).round(6)
    Array([0.7     , 0.34282 , 0.764205], dtype=float64)
    """
    n, d = promote("smirnov", n, d)
    return _smirnov_cj(lax.stop_gradient(snp.floor(n)), d)


@sciax.custom_jvp
def _smirnov_cj(n: Any, d: Any) -> Any:
    return _smirnov(n, d)


@_smirnov_cj.defjvp
def _smirnov_jvp(primals: tuple, tangents: tuple) -> tuple:
    # the sum's while_loop has a forward derivative only: its slope, taken
    # here apart from the tangent, makes the rule linear in it, so reverse
    # mode (grad raised) transposes a product
    (n, d), (_, t) = primals, tangents
    y, dy = sciax.jvp(lambda d: _smirnov(n, d), (d,), (snp.ones_like(d),))
    return y, dy * t


def _bisect_decreasing(f: Any, target: Any, lo: Any, hi: Any, iters: int) -> Any:
    def body(_, c):
        a, b = c
        m = 0.5 * (a + b)
        above = f(m) > target
        return snp.where(above, m, a), snp.where(above, b, m)

    a, b = lax.fori_loop(0, iters, body, (lo, hi))
    return 0.5 * (a + b)


def smirnovi(n: Any, p: Any) -> Any:
    """Inverse of :func:`smirnov` in ``d``.

    sciax implementation of :func:`scipy.special.smirnovi`.

    Parameters
    ----------
    n : array_like
        Sample size.
    p : array_like
        Probability.

    Returns
    -------
    Array

    Notes
    -----
    Bisection (60 halvings) of the decreasing :func:`smirnov`; the
    derivative in ``p`` is implicit, ``1 / smirnov'(d)``.

    Examples
    --------
    >>> from sciax.special import smirnovi
    >>> smirnovi(snp.array([5, 10]), snp.array([0.3, 0.5])).round(6)
    Array([0.319189, 0.171579], dtype=float64)
    """
    n, p = promote("smirnovi", n, p)
    return _smirnovi_cj(lax.stop_gradient(snp.floor(n)), p)


@sciax.custom_jvp
def _smirnovi_cj(n: Any, p: Any) -> Any:
    return _smirnovi(n, p)


@_smirnovi_cj.defjvp
def _smirnovi_jvp(primals: tuple, tangents: tuple) -> tuple:
    # (the derivative was 0: p went through stop_gradient)
    (n, p), (_, t) = primals, tangents
    d = _smirnovi_cj(n, p)
    _, ds = sciax.jvp(lambda d: _smirnov(n, d), (d,), (snp.ones_like(d),))
    return d, t / ds


def _smirnovi(n: Any, p: Any) -> Any:
    d = _bisect_decreasing(lambda d: _smirnov(n, d), p, snp.zeros_like(p),
                           snp.ones_like(p), 60)
    d = snp.where(p == 1, 0.0, snp.where(p == 0, 1.0, d))
    return snp.where((p < 0) | (p > 1), snp.nan, d)


def _kolmogorov_pair(y: Any) -> tuple[Any, Any]:
    """``(kolmogorov(y), 1 - kolmogorov(y))``, each from the series in which
    it is a sum of positive or alternating small terms (the other one is
    ``1 -`` it), so both keep their relative accuracy where they are small."""
    big = y >= 1.0
    yb = _util.safe(big, y, 1.0)
    s = snp.zeros_like(y)
    for k in range(8, 0, -1):
        s = s + (-1.0) ** (k - 1) * snp.exp(-2.0 * k * k * yb * yb)
    q_big = 2.0 * s
    ys = _util.safe(~big & (y > 0), y, 0.5)
    t = snp.zeros_like(y)
    for k in range(8, 0, -1):
        t = t + snp.exp(-((2 * k - 1) ** 2) * math.pi ** 2 / (8.0 * ys * ys))
    c_small = math.sqrt(2 * math.pi) / ys * t
    q = snp.where(big, q_big, 1.0 - c_small)
    c = snp.where(big, 1.0 - q_big, c_small)
    q = snp.where(y <= 0, 1.0, snp.where(snp.isnan(y), snp.nan, q))
    c = snp.where(y <= 0, 0.0, snp.where(snp.isnan(y), snp.nan, c))
    return q, c


def _kolmogorov(y: Any) -> Any:
    return _kolmogorov_pair(y)[0]


def kolmogorov(y: Any) -> Any:
    """Survival function of the limiting Kolmogorov distribution,
    ``2 sum_k (-1)^(k-1) exp(-2 k^2 y^2)``.

    sciax implementation of :func:`scipy.special.kolmogorov`.

    Parameters
    ----------
    y : array_like

    Returns
    -------
    Array

    Notes
    -----
    The alternating series for ``y >= 1`` and Jacobi's transformed series
    ``1 - sqrt(2 pi)/y sum exp(-(2k-1)^2 pi^2/(8 y^2))`` below.

    Examples
    --------
    >>> from sciax.special import kolmogorov
    >>> kolmogorov(snp.array([0.5, 1.0, 1.5])).round(6)
    Array([0.963945, 0.27    , 0.022218], dtype=float64)
    """
    (y,) = promote("kolmogorov", y)
    return _kolmogorov(y)


def _kolmogi(p: Any) -> Any:
    # Above p = 1/2 the bisection compares the CDF 1 - kolmogorov(y), whose
    # series keeps relative accuracy, with 1 - p (exact there): comparing
    # kolmogorov(y) = 1 - tiny with p lost 1e-8 at p = 1 - 1e-10.
    upper = p > 0.5
    target = snp.where(upper, -(1.0 - p), p)

    def f(y):
        q, c = _kolmogorov_pair(y)
        return snp.where(upper, -c, q)

    y = _bisect_decreasing(f, target, snp.zeros_like(p), snp.full_like(p, 40.0), 80)
    y = snp.where(p == 1, 0.0, snp.where(p == 0, snp.inf, y))
    return snp.where((p < 0) | (p > 1) | snp.isnan(p), snp.nan, y)


@sciax.custom_jvp
def _kolmogi_cj(p: Any) -> Any:
    return _kolmogi(p)


@_kolmogi_cj.defjvp
def _kolmogi_jvp(primals: tuple, tangents: tuple) -> tuple:
    (p,), (t,) = primals, tangents
    y = _kolmogi_cj(p)
    _, dq = sciax.jvp(_kolmogorov, (y,), (snp.ones_like(y),))
    return y, t / dq


def kolmogi(p: Any) -> Any:
    """Inverse of :func:`kolmogorov`.

    sciax implementation of :func:`scipy.special.kolmogi`.

    Parameters
    ----------
    p : array_like
        Survival probability.

    Returns
    -------
    Array

    Notes
    -----
    Bisection on ``[0, 40]`` (80 halvings) of :func:`kolmogorov`, or above
    ``p = 1/2`` of ``1 - kolmogorov`` against ``1 - p`` (relative accuracy
    where ``kolmogorov`` is flat near 1); the derivative is implicit.

    Examples
    --------
    >>> from sciax.special import kolmogi
    >>> kolmogi(snp.array([0.5, 1e-10])).round(6)
    Array([0.827574, 3.443762], dtype=float64)
    """
    (p,) = promote("kolmogi", p)
    return _kolmogi_cj(p)
