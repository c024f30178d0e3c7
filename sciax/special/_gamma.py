"""Gamma and beta functions, their logarithms and combinatorial relatives.

The incomplete gamma and beta functions and their inverses live in
``_incomplete.py``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _util
from sciax.special._convenience import _clog1p
from sciax.special._util import promote

__all__ = ["gamma", "gammaln", "loggamma", "rgamma", "gammasgn", "digamma", "psi",
           "polygamma", "multigammaln", "beta", "betaln", "poch", "factorial",
           "factorial2", "comb", "perm", "binom"]

_SQRT_2PI = math.sqrt(2 * math.pi)


def _is_nonpos_int(x: Any) -> Any:
    return (x <= 0) & (x == snp.floor(x))


def _gamma(x: Any) -> Any:
    """Gamma of a real array: exact recurrence onto [2, 3) for ``|x| < 33``
    (where ``exp(lgamma)`` is accurate to a few ulp), Stirling's series above,
    the reflection formula below."""
    mid = snp.abs(x) < 33.0
    xm = _util.safe(mid, x, 2.5)
    n = snp.floor(xm) - 2.0
    xr = xm - n
    g = snp.exp(lax.lgamma(xr))
    up = n > 0
    cnt = snp.abs(n)

    def body(k, p):
        kf = k.astype(x.dtype)
        f = snp.where(up, xr + kf, xm + kf)
        return p * snp.where(kf < cnt, f, 1.0)

    prod = lax.fori_loop(0, 36, body, snp.ones_like(x))
    g_mid = snp.where(up | (n == 0), g * prod, g / prod)

    big = snp.abs(x) >= 33.0
    ax = _util.safe(big, snp.abs(x), 40.0)
    v = snp.power(ax, 0.5 * ax - 0.25)
    g_big = _SQRT_2PI * v * (v * snp.exp(-ax)) * snp.exp(_util.lgamma_corr(ax))
    # past the overflow threshold: inf (from ~745, v * e^-ax was inf * 0 = NaN)
    g_big = snp.where(ax > 171.7, snp.inf, g_big)
    refl = math.pi / (ax * _util.sinpi(-ax) * g_big)
    out = snp.where(mid, g_mid, snp.where(x > 0, g_big, refl))
    out = snp.where((x < 0) & (x == snp.floor(x)), snp.nan, out)
    out = snp.where(x == 0, snp.copysign(snp.full_like(x, snp.inf), x), out)
    return snp.where(x == snp.inf, snp.inf, snp.where(snp.isnan(x), snp.nan, out))


def gamma(z: Any) -> Any:
    r"""Gamma function :math:`\Gamma(z)`.

    sciax implementation of :func:`scipy.special.gamma`.

    Parameters
    ----------
    z : array_like
        Real or complex argument (complex: ``exp(loggamma(z))``, NaN at the
        poles, as SciPy).

    Returns
    -------
    Array
        ``inf`` at ``+0`` and overflow (``z > 171.62``), ``-inf`` at ``-0``,
        NaN at the negative integers, as SciPy.

    Notes
    -----
    For ``|z| < 33`` the argument is moved to ``[2, 3)`` by the recurrence
    (an exact product) and ``exp(lgamma)`` is used there; Stirling's series
    and the reflection formula cover larger ``|z|``.  Relative error is a few
    ulp.  Differentiable: ``d/dz gamma = gamma * digamma``.

    Examples
    --------
    >>> from sciax.special import gamma
    >>> gamma(snp.array([0.5, 5.0, -1.5])).round(6)
    Array([ 1.772454, 24.      ,  2.363272], dtype=float64)
    """
    (z,) = promote("gamma", z, complex_ok=True)
    if _is_complex(z):
        return _cgamma(z)
    return _gamma_cj(z)


@sciax.custom_jvp
def _gamma_cj(x: Any) -> Any:
    return _gamma(x)


@_gamma_cj.defjvp
def _gamma_jvp(primals: tuple, tangents: tuple) -> tuple:
    (x,), (t,) = primals, tangents
    y = _gamma_cj(x)
    return y, y * _digamma(x) * t


def gammaln(x: Any) -> Any:
    """Logarithm of the absolute value of the gamma function.

    sciax implementation of :func:`scipy.special.gammaln`.

    Parameters
    ----------
    x : array_like
        Real argument.

    Returns
    -------
    Array
        ``log|Gamma(x)|``; ``inf`` at the poles ``0, -1, -2, ...``.

    Notes
    -----
    Stirling's series for ``x >= 10``; below, the recurrence onto ``[1.5,
    2.5]`` and a polynomial there, so the zeros at 1 and 2 keep their
    relative accuracy (within 5e-16 of mpmath for ``x > 0``; StableHLO's
    ``lgamma`` loses up to 1.6e-6 next to 1, and is twice the work); the
    reflection formula for ``x < 0``.  Derivative ``digamma(x)``.

    Examples
    --------
    >>> from sciax.special import gammaln
    >>> gammaln(snp.array([0.5, 100.0, -2.5])).round(6)
    Array([  0.572365, 359.134205,  -0.056244], dtype=float64)
    """
    (x,) = promote("gammaln", x)
    return _lgamma_cj(x)


# lgamma(2 + u) / u on |u| <= 1/2 (degree 17, interpolated at Chebyshev nodes
# in 60-digit arithmetic; 2.4e-16 relative in double Horner vs mpmath): its
# nearest singularity is the pole of Gamma at u = -2
_LG2 = (0.42278433509846713, 0.3224670334241132, -0.06735230105319563,
        0.02058080842778338, -0.007385551028935545, 0.002890510330865901,
        -0.0011927539009983087, 0.0005096695196526673, -0.00022315497746292723,
        9.945761692157133e-05, -4.4923727564247656e-05, 2.050601970174762e-05,
        -9.45628851510172e-06, 4.3828545383846665e-06, -1.9743106888421067e-06,
        9.242852225162277e-07, -5.811277768921246e-07, 2.7475390051909663e-07)


def _lgamma_pos(y: Any) -> Any:
    """``log Gamma(y)`` for ``y > 0`` (``inf`` at ``inf``).

    ``y >= 10``: Stirling's series.  Below, the recurrence moves ``y`` by
    ``m = round(y) - 2`` (an exact product of at most 8 factors, or of
    ``y (y + 1)`` upwards) onto ``2 + u``, ``|u| <= 1/2``, where
    ``lgamma(2 + u) = u p(u)``.  Near the zeros the result keeps its relative
    accuracy: at 2 it is ``u p(u)`` itself, at 1 ``u p(u) - log(1 + u)`` with
    ``1 + u = y`` exact (``-0.58 u``, no cancellation).  One logarithm (of
    ``y`` or of the product) and one division (``1 / y``) per element, against
    XLA's ``lgamma`` with 9 divisions, a sine and three logarithms."""
    big = y >= 10.0
    r = snp.round(y)
    m = r - 2.0
    u = y - r
    prod = snp.where(m < 0.0, y, 1.0) * snp.where(m < -1.0, y + 1.0, 1.0)
    for i in range(1, 9):
        prod = prod * snp.where(m >= i, y - i, 1.0)
    lg = snp.log(snp.where(big, y, prod))
    small = u * _util.polyval(_LG2[::-1], u) + snp.where(m < 0.0, -lg, lg)
    yb = _util.safe(big, y, 10.0)
    # (y - 1/2) log y - y = (y - 1/2)(log y - 1) - 1/2: inf (not inf - inf) at inf
    large = ((yb - 0.5) * (lg - 1.0) + (_util.LOG_SQRT_2PI - 0.5)
             + _util.lgamma_corr(yb))
    return snp.where(big, large, small)


def _lgamma(x: Any) -> Any:
    """``log|Gamma(x)|`` of a real array; the reflection formula
    ``log(pi / |sin(pi x)|) - lgamma(1 - x)`` below 0 (its sine and logarithm
    computed only where the array has negative elements)."""
    neg = x < 0.0
    y = snp.where(neg, 1.0 - x, x)
    core = _lgamma_pos(snp.where(snp.isnan(y), y, snp.abs(y)))
    refl = _util.if_any(
        neg, lambda v: (math.log(math.pi) - snp.log(snp.abs(_util.sinpi(v))),),
        (0.0,), x)[0]
    out = snp.where(neg, refl - core, core)
    # (-inf gives -inf, as SciPy's)
    return snp.where(_is_nonpos_int(x), snp.where(x == -snp.inf, x, snp.inf), out)


@sciax.custom_jvp
def _lgamma_cj(x: Any) -> Any:
    return _lgamma(x)


@_lgamma_cj.defjvp
def _lgamma_cj_jvp(primals: tuple, tangents: tuple) -> tuple:
    (x,), (t,) = primals, tangents
    return _lgamma_cj(x), _digamma(x) * t


def loggamma(z: Any) -> Any:
    """Principal branch of the logarithm of the gamma function.

    sciax implementation of :func:`scipy.special.loggamma`.

    Parameters
    ----------
    z : array_like
        Real or complex argument.

    Returns
    -------
    Array
        Real input: ``log(Gamma(z))`` for ``z > 0``; NaN for ``z < 0`` (the
        real logarithm of a possibly negative number), ``inf`` at 0, as
        SciPy.  Complex input: SciPy's branch (the principal branch on the
        positive axis continued analytically, so the imaginary part is not
        reduced to ``(-pi, pi]``); NaN at the poles.

    Notes
    -----
    Complex ``z`` as SciPy (Hare's method): Stirling's series for ``Re z >
    7`` or ``|Im z| > 7``, Taylor series about 1 and 2, the reflection
    formula for ``Re z < 0.1`` and the upward recurrence otherwise, with the
    product's branch crossings counted.  Within 5e-15 ``max(1, |loggamma|)``
    of SciPy.  Derivative :func:`digamma`.

    Examples
    --------
    >>> from sciax.special import loggamma
    >>> float(loggamma(10.0).round(6))
    12.801827
    >>> complex(loggamma(-2.5 + 0.1j))  # doctest: +ELLIPSIS
    (-0.1031492440428...-9.3144442683598...j)
    """
    (z,) = promote("loggamma", z, complex_ok=True)
    if _is_complex(z):
        return _cloggamma_cj(z)
    return snp.where(z < 0, snp.nan, gammaln(z))


def rgamma(z: Any) -> Any:
    """Reciprocal of the gamma function, ``1 / gamma(z)``.

    sciax implementation of :func:`scipy.special.rgamma`.

    Parameters
    ----------
    z : array_like
        Real or complex argument (complex: ``exp(-loggamma(z))``).

    Returns
    -------
    Array
        Zero at the poles of gamma and for large ``z``.

    Notes
    -----
    Derivative ``-digamma(z) rgamma(z)``, ``(-1)^n n!`` at ``z = -n``.

    Examples
    --------
    >>> from sciax.special import rgamma
    >>> rgamma(snp.array([-2.0, 0.0, 4.0])).round(6)
    Array([0.      , 0.      , 0.166667], dtype=float64)
    """
    (z,) = promote("rgamma", z, complex_ok=True)
    if _is_complex(z):
        return _crgamma(z)
    return _rgamma_cj(z)


def _drgamma_pole(z: Any) -> Any:
    """``d/dz (1 / Gamma(z))`` at ``z = -n``: ``(-1)^n n!``."""
    return snp.where(snp.remainder(z, 2.0) == 0, 1.0, -1.0) * _gamma(1.0 - z)


@sciax.custom_jvp
def _rgamma_cj(z: Any) -> Any:
    big = z > 171.0
    zb = _util.safe(big, z, 2.0)
    r_big = snp.exp(-lax.lgamma(zb))
    zs = _util.safe(~(big | _is_nonpos_int(z)), z, 2.5)
    out = snp.where(big, r_big, 1.0 / gamma(zs))
    return snp.where(_is_nonpos_int(z), 0.0, out)


@_rgamma_cj.defjvp
def _rgamma_jvp(primals: tuple, tangents: tuple) -> tuple:
    # -digamma / Gamma, not the quotient rule on 1 / Gamma, whose Gamma^2
    # overflowed (grad(rgamma)(100.3) was 0); (-1)^n n! at the poles
    (z,), (t,) = primals, tangents
    r = _rgamma_cj(z)
    pole = _is_nonpos_int(z)
    psi = _digamma(_util.safe(~pole, z, 1.0))
    # beyond 171, r is near or below the normal range: exp(log psi - lgamma)
    big = z > 171.0
    d_big = -snp.exp(snp.log(_util.safe(big, psi, 1.0))
                     - lax.lgamma(_util.safe(big, z, 2.0)))
    d = snp.where(pole, _drgamma_pole(_util.safe(pole, z, 0.0)),
                  snp.where(big, d_big, -r * psi))
    return r, d * t


def gammasgn(x: Any) -> Any:
    """Sign of the gamma function.

    sciax implementation of :func:`scipy.special.gammasgn`.

    Parameters
    ----------
    x : array_like
        Real argument.

    Returns
    -------
    Array
        ``1`` or ``-1``; the sign of zero at ``x = +-0`` and NaN at the
        negative integers, as SciPy.

    Examples
    --------
    >>> from sciax.special import gammasgn
    >>> gammasgn(snp.array([2.0, -0.5, -1.5]))
    Array([ 1., -1.,  1.], dtype=float64)
    """
    (x,) = promote("gammasgn", x)
    fl = snp.floor(x)
    neg = snp.where(snp.remainder(fl, 2.0) == 0, 1.0, -1.0)
    out = snp.where(x > 0, 1.0, neg)
    out = snp.where(x == 0, snp.copysign(snp.ones_like(x), x), out)
    out = snp.where((x < 0) & (x == fl), snp.nan, out)
    return snp.where(snp.isnan(x), snp.nan, out)


# Taylor coefficients psi^(k)(x0)/k! at the positive root x0 of digamma
# (computed with mpmath at 40 digits); near x0 this keeps full relative accuracy.
_PSI_ROOT_HI = 1.4616321449683622
_PSI_ROOT_LO = 9.549995429965697e-17
_PSI_ROOT_TAYLOR = (
    0.9676722454476212, -0.4427631689835921, 0.258499760955651,
    -0.16394270544240652, 0.10782405069126237, -0.07219956125645471,
    0.04880428816414311, -0.03316112647484736, 0.022597648232218104,
    -0.01542476590494896, 0.010538791616612175, -0.007204534386356869,
    0.004926781395729853, -0.003369801655439328, 0.002305126326734928,
    -0.0015769367714301972, 0.0010788252019162967, -0.0007380709389960052,
    0.000504953265834602, -0.0003454680251063077, 0.00023635601564027053)


def _digamma_pos(z: Any) -> Any:
    """``digamma(z)`` for ``z > 0`` (and ``+inf``, NaN): the recurrence
    ``psi(z) = psi(z + n) - sum_{i<n} 1/(z + i)`` up to ``z + n >= 10``, then
    the asymptotic series (DLMF 5.11.2; the first omitted term is below
    5e-17 relative there)."""
    acc = snp.zeros_like(z)
    cnt = snp.zeros_like(z)
    for i in range(10):
        m = z + float(i) < 10.0
        acc = acc + snp.where(m, 1.0 / (z + float(i)), 0.0)
        cnt = cnt + snp.where(m, 1.0, 0.0)
    w = z + cnt
    r = 1.0 / w
    r2 = r * r
    tail = _util.polyval((1 / 12, -691 / 32760, 1 / 132, -1 / 240, 1 / 252,
                          -1 / 120, 1 / 12), r2) * r2
    return snp.log(w) - 0.5 * r - tail - acc


def _digamma(x: Any) -> Any:
    # Taylor series in h = x - x0 = h1 - lo with h1 = x - hi (exact near the
    # root).  Not ((x - hi) - lo): under jit XLA folds that into x - (hi + lo)
    # = x - hi.  Instead psi(x) = T(h1) - lo T'(h1) + O(lo^2), and T'(h1) =
    # psi'(x0) + O(h1): subtracting the constant lo psi'(x0) last leaves an
    # error of about lo |psi''(x0)| |h1|, 1e-16 of psi(x) ~ psi'(x0) h1.
    h1 = x - _PSI_ROOT_HI
    near = snp.abs(h1) < 0.2
    hs = _util.safe(near, h1, 0.0)
    taylor = (_util.polyval(_PSI_ROOT_TAYLOR[::-1], hs) * hs
              - _PSI_ROOT_LO * _PSI_ROOT_TAYLOR[0])
    # reflection psi(x) = psi(1 - x) - pi cot(pi x), with cot exact at
    # half-integers, computed only when some element is negative (the
    # whole array, or the block under _util.chunked)
    neg = x < 0
    xr = snp.where(neg, 1.0 - x, x)

    def refl(x):
        xn = _util.safe(x < 0, x, 0.5)
        return snp.where(x < 0, -math.pi * _util.cospi(xn) / _util.sinpi(xn), 0.0)

    out = _digamma_pos(xr)
    if snp.ndim(x) > 0:
        out = out + lax.cond(snp.any(neg), refl, snp.zeros_like, x)
    else:
        out = out + refl(x)
    out = snp.where(near, taylor, out)
    out = snp.where(x == 0, -snp.copysign(snp.full_like(x, snp.inf), x), out)
    return snp.where((x < 0) & (x == snp.floor(x)), snp.nan, out)


# B_2k / (2k), k = 1..7: psi(z) ~ log z - 1/(2z) - sum_k c_k z^-2k (DLMF 5.11.2)
_PSI_ASYM = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12)


def _psi_diff(x: Any, d: Any) -> Any:
    """``psi(x + d) - psi(x)`` without the cancellation of the difference of
    two digammas (``x > 0``, ``x + d > 0``; the plain difference elsewhere).

    Both arguments are moved up by the same count ``n`` until the smaller
    reaches 10, which adds ``d sum_i 1 / ((x + i)(x + d + i))``, then the
    asymptotic series is differenced term by term:
    ``log1p(d / x) + d u v (1/2 + sum_k c_k sum_{j<2k} u^j v^(2k-1-j))``
    with ``u = 1/x``, ``v = 1/(x + d)``.  Every term has the sign of ``d``,
    so the result is accurate to a few ulp relative even when ``|d| << x``
    (``psi(a) - psi(a + b)`` for ``beta(1e6, 2.5)`` lost 5e-10 as a
    difference).
    """
    y = x + d
    pos = (x > 0) & (y > 0)
    xs, ds = _util.safe(pos, x, 1.0), _util.safe(pos, d, 1.0)
    ys = xs + ds
    m = snp.minimum(xs, ys)
    acc = snp.zeros_like(x)
    cnt = snp.zeros_like(x)
    for i in range(10):
        on = m + float(i) < 10.0
        # psi(y) - psi(x) = psi(y + 1) - psi(x + 1) + d / (x y)
        acc = acc + snp.where(on, 1.0 / ((xs + float(i)) * (ys + float(i))), 0.0)
        cnt = cnt + snp.where(on, 1.0, 0.0)
    xw, yw = xs + cnt, ys + cnt
    u, v = 1.0 / xw, 1.0 / yw
    # S_n = sum_{j<n} u^j v^(n-1-j) by S_{n+1} = v S_n + u^n
    s = snp.zeros_like(x)
    sn, un = snp.zeros_like(x), snp.ones_like(x)
    for c in _PSI_ASYM:
        for _ in range(2):
            sn = v * sn + un
            un = un * u
        s = s + c * sn
    asym = _util.log1p(ds / xw) + ds * u * v * (0.5 + s)
    out = asym + ds * acc
    return snp.where(pos, out, _digamma(y) - _digamma(x))


def digamma(z: Any) -> Any:
    """Digamma function, the logarithmic derivative of gamma.

    sciax implementation of :func:`scipy.special.digamma` (alias ``psi``).

    Parameters
    ----------
    z : array_like
        Real or complex argument.

    Returns
    -------
    Array
        ``-inf`` at ``+0``, ``+inf`` at ``-0``, NaN at the negative integers,
        as SciPy.

    Notes
    -----
    The recurrence up to ``z >= 10`` and the asymptotic series there, the
    reflection formula for ``z < 0``, and near the positive root 1.4616... a
    Taylor series that keeps full relative accuracy.  Derivative
    ``polygamma(1, z)``.  Complex ``z``: the reflection formula for ``Re z <
    0.5``, the recurrence up to ``|z| >= 16`` and the asymptotic series,
    Taylor series about the real roots 1.4616... and -0.5040...;
    differentiated through its own formula.

    Examples
    --------
    >>> from sciax.special import digamma
    >>> digamma(snp.array([1.0, 0.5])).round(6)
    Array([-0.577216, -1.96351 ], dtype=float64)
    """
    (z,) = promote("digamma", z, complex_ok=True)
    if _is_complex(z):
        return _cdigamma(z)
    return _digamma(z)


psi = digamma


def polygamma(n: Any, x: Any) -> Any:
    """Polygamma function, the ``n``-th derivative of digamma.

    sciax implementation of :func:`scipy.special.polygamma`.

    Parameters
    ----------
    n : array_like of int
        Order of the derivative (non-negative integers).
    x : array_like
        Real argument.

    Returns
    -------
    Array

    Notes
    -----
    Lowers to StableHLO's ``polygamma``; ``n = 0`` is :func:`digamma`.  For
    ``x < 0`` the reflection ``psi^(n)(x) = (-1)^n psi^(n)(1 - x) - pi^(n+1)
    cot^(n)(pi x)``, with ``cot^(n)`` a polynomial in ``cot(pi x)`` (``n <=
    100``; 26 in float32; beyond, the recurrence from ``x + ceil(-x)``).
    ``n`` is not differentiated; ``d/dx`` is ``polygamma(n + 1, x)`` (in
    both modes, also for ``x < 0``).

    Examples
    --------
    >>> from sciax.special import polygamma
    >>> polygamma(snp.array([0, 1, 2]), 1.0).round(6)
    Array([-0.577216,  1.644934, -2.404114], dtype=float64)
    """
    n, x = promote("polygamma", n, x)
    return _polygamma_cj(lax.stop_gradient(n), x)


# d^n/dy^n cot(y) = P_n(cot y) with P_0 = c, P_{n+1} = -(1 + c^2) P_n'(c): the
# coefficients of P_n (row n; column j: c^j).  Their signs are all (-1)^n, so
# P_n(c) loses nothing to cancellation, and for even n it is odd in c.  Up to
# n = 100 (float64; 26 for float32) the coefficients stay finite (at most 5e167).
_PG_NMAX = {np.dtype(np.float64): 100, np.dtype(np.float32): 26}


def _cot_derivative_table(nmax: int) -> np.ndarray:
    t = np.zeros((nmax + 1, nmax + 2))
    t[0, 1] = 1.0
    for n in range(nmax):
        d = np.arange(1, nmax + 2) * t[n, 1:]      # P_n'(c), c^0 .. c^nmax
        t[n + 1, :nmax + 1] -= d
        t[n + 1, 2:] -= d[:nmax]
    return t


_COT_DERIV = _cot_derivative_table(100)


def _pg_nmax(dtype: Any) -> int:
    return _PG_NMAX.get(np.dtype(dtype), 0)


def _pi_cot_derivative(n: Any, r: Any) -> Any:
    """``pi^(n+1) cot^(n)(pi r)`` for integer ``0 <= n <= _pg_nmax`` and ``|r| <=
    1/2``, with ``cot(pi r)`` exactly 0 at ``r = +-1/2``."""
    nmax = _pg_nmax(r.dtype)
    a = snp.abs(r)
    # cot(pi a) = tan(pi (1/2 - a)), whose argument is exact for a >= 1/4
    c = snp.where(a > 0.25, snp.tan(math.pi * (0.5 - a)),
                  snp.cos(math.pi * a) / snp.sin(math.pi * _util.safe(a > 0, a, 0.5)))
    c = snp.where(r < 0, -c, c)
    idx = snp.clip(n, 0, nmax).astype(np.int32)
    # row i: the coefficients of c^(nmax+1-i)
    table = snp.asarray(_COT_DERIV[:nmax + 1, :nmax + 2].T[::-1].copy(), r.dtype)

    def horner(i: Any, acc: Any) -> Any:
        return acc * c + snp.take(table[i], idx)

    p = lax.fori_loop(0, nmax + 2, horner, snp.zeros_like(r))
    return snp.exp((n + 1.0) * math.log(math.pi)) * p


@sciax.custom_jvp
def _polygamma_cj(n: Any, x: Any) -> Any:
    n_safe = snp.where(n >= 1, n, 1.0)
    pole = _is_nonpos_int(x)
    # x < 0 and n <= 100 (float64): reflection, psi^(n)(x) = (-1)^n psi^(n)(1 - x)
    # - pi^(n+1) cot^(n)(pi x), with cot^(n) a polynomial in cot(pi r), r = x -
    # round(x) (exact).  No cancellation at the half-integers, where for even n
    # the cot term is exactly 0 (the recurrence below cancels there: 5e-11 at
    # n = 2, x = -100.5), and no loop of -x trips.
    refl = (x < 0) & ~pole & (n_safe <= _pg_nmax(x.dtype))
    xs = _util.safe(~pole, x, 0.5)
    even = snp.remainder(n_safe, 2.0) == 0
    # beyond that, negative x is shifted up by the recurrence
    # psi^(n)(x) = psi^(n)(x + m) - (-1)^n n! sum_k (x + k)^-(n+1)
    shift = snp.where((x < 0) & ~pole & ~refl, snp.ceil(-x), 0.0)
    sgn_fact = snp.where(even, -1.0, 1.0) * snp.exp(lax.lgamma(n_safe + 1.0))

    def cond(c):
        return snp.any(c[0] < shift)

    def body(c):
        k, acc = c
        term = snp.where(k < shift, snp.power(xs + k, -(n_safe + 1.0)), 0.0)
        return k + 1.0, acc + term

    _, acc = lax.while_loop(cond, body, (snp.zeros_like(x), snp.zeros_like(x)))
    pg = lax.polygamma(n_safe, snp.where(refl, 1.0 - xs, xs + shift))
    r = snp.where(refl, xs - snp.round(xs), 0.5)
    cot_n = lax.cond(snp.any(refl), lambda: _pi_cot_derivative(n_safe, r),
                     lambda: snp.zeros_like(r))
    pg = snp.where(refl, snp.where(even, pg, -pg) - cot_n, pg + sgn_fact * acc)
    pole_val = snp.where(even, -snp.inf, snp.inf)
    pg = snp.where(pole, pole_val, pg)
    out = snp.where(n == 0, _digamma(x), pg)
    return snp.where((n < 0) | (n != snp.floor(n)), snp.nan, out)


@_polygamma_cj.defjvp
def _polygamma_jvp(primals: tuple, tangents: tuple) -> tuple:
    # d/dx psi^(n) = psi^(n+1); the shift loop for x < 0 is a while_loop,
    # which reverse mode cannot differentiate.  n is not differentiated.
    (n, x), (_, t) = primals, tangents
    return _polygamma_cj(n, x), _polygamma_cj(n + 1.0, x) * t


def multigammaln(a: Any, d: int) -> Any:
    r"""Logarithm of the multivariate gamma function,
    :math:`\log\Gamma_d(a) = \frac{d(d-1)}{4}\log\pi + \sum_{j=1}^d
    \log\Gamma(a + (1-j)/2)`.

    sciax implementation of :func:`scipy.special.multigammaln`.

    Parameters
    ----------
    a : array_like
        Argument; must exceed ``(d - 1) / 2``.
    d : int
        Dimension (a Python integer).

    Returns
    -------
    Array

    Notes
    -----
    *Differences from SciPy*: ``a <= (d - 1)/2`` gives NaN instead of raising,
    since ``a`` may be traced.

    Examples
    --------
    >>> from sciax.special import multigammaln
    >>> float(multigammaln(3.0, 2).round(6))
    1.550195
    """
    if not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"multigammaln: d must be a positive integer, got {d!r}")
    (a,) = promote("multigammaln", a)
    s = 0.25 * d * (d - 1) * math.log(math.pi)
    out = snp.full_like(a, s)
    for j in range(1, int(d) + 1):
        out = out + gammaln(a + 0.5 * (1 - j))
    return snp.where(a <= 0.5 * (d - 1), snp.nan, out)


def _betaln(a: Any, b: Any, dd: Any = None) -> Any:
    """``log |B(a, b)|``; with a mask ``dd``, ``(hi, lo)`` whose sum carries
    the both-large branch to ~1e-19 relative where ``dd`` is set (``lo`` is
    0 elsewhere; the double-double work is skipped when no element needs
    it)."""
    lo, hi = snp.minimum(a, b), snp.maximum(a, b)
    # (a negative lo too, where lo + hi >= 10: lgamma(hi) - lgamma(lo + hi)
    # subtracted ~hi log hi, and betaln(-2.5, 1e20) was 0, not 115.07)
    big = (hi >= 10.0) & ((lo > 0) | (lo + hi >= 10.0))
    los = _util.safe(big, lo, 1.0)
    his = _util.safe(big, hi, 10.0)
    v_big = lax.lgamma(los) + _util.lgamma_ratio_large(los, his)
    # both large: Stirling for all three gammas, so no large logarithms cancel
    both = lo >= 10.0
    lob, hib = _util.safe(both, lo, 10.0), _util.safe(both, hi, 10.0)
    rest = (-0.5 * snp.log(lob + hib) + _util.LOG_SQRT_2PI + _util.lgamma_corr(lob)
            + _util.lgamma_corr(hib) - _util.lgamma_corr(lob + hib))
    p = lob / (lob + hib)
    v_both = (lob - 0.5) * snp.log(p) + (hib - 0.5) * _util.log1p(-p) + rest
    if dd is not None:
        # (beyond hi = 1e300, where lo + hi may overflow, B underflows anyway)
        ok = dd & both & (hib < 1e300)

        def dd_sum(lo_, hi_, rest_):
            h, l = _lbeta_main_dd(lo_, hi_)
            return _util.dd_add(h, l, rest_, snp.zeros_like(rest_))

        h, v_lo = _util.if_any(ok, dd_sum, (0.0, 0.0), _util.safe(ok, lob, 10.0),
                               _util.safe(ok, hib, 10.0), rest)
        v_both, v_lo = snp.where(ok, h, v_both), snp.where(ok, v_lo, 0.0)
    v = lax.lgamma(a) + lax.lgamma(b) - lax.lgamma(a + b)
    out = snp.where(both, v_both, snp.where(big, v_big, v))
    return out if dd is None else (out, v_lo)


def _lbeta_main_dd(lo: Any, hi: Any) -> tuple[Any, Any]:
    """``(lo - 1/2) log(lo/s) + (hi - 1/2) log(hi/s)``, ``s = lo + hi``, as a
    double-double (``10 <= lo <= hi``).  The two terms reach -562 for
    ``binom(1830.8, 166.7)``: in double, the roundings of ``p = lo/s`` and of
    the logarithms, amplified by ``lo`` and ``hi``, left 2.6e-13 in ``e^``
    of the sum (its mere rounding to a double, 6e-14)."""
    z = snp.zeros_like(lo)
    sh, sl = _util.two_sum(lo, hi)
    lph, lpl = _util.log_dd(*_util.dd_div(lo, z, sh, sl))
    lqh, lql = _util.log_dd(*_util.dd_div(hi, z, sh, sl))
    # lo - 1/2, hi - 1/2 are exact below 2^52
    ah, al = _util.dd_mul(lo - 0.5, z, lph, lpl)
    bh, bl = _util.dd_mul(hi - 0.5, z, lqh, lql)
    return _util.dd_add(ah, al, bh, bl)


def betaln(a: Any, b: Any) -> Any:
    """Natural logarithm of the absolute value of the beta function.

    sciax implementation of :func:`scipy.special.betaln`.

    Parameters
    ----------
    a, b : array_like
        Real arguments.

    Returns
    -------
    Array

    Notes
    -----
    When the larger argument is at least 10, ``lgamma(b) - lgamma(a + b)`` is
    formed from Stirling's series without cancellation, so
    ``betaln(1, 1e10)`` is accurate.  Derivatives ``psi(a) - psi(a + b)``
    (and in ``b``), the difference summed without cancellation.

    Examples
    --------
    >>> from sciax.special import betaln
    >>> betaln(snp.array([1.0, 2.0]), snp.array([1e10, 3.0])).round(6)
    Array([-23.025851,  -2.484907], dtype=float64)
    """
    a, b = promote("betaln", a, b)
    return _betaln_cj(a, b)


@sciax.custom_jvp
def _betaln_cj(a: Any, b: Any) -> Any:
    out = _betaln(a, b)
    pole = _is_nonpos_int(a) | _is_nonpos_int(b)
    return snp.where(pole & ~_is_nonpos_int(a + b), snp.inf, out)


@_betaln_cj.defjvp
def _betaln_jvp(primals: tuple, tangents: tuple) -> tuple:
    # d/da = psi(a) - psi(a + b) = -(psi(a + b) - psi(a)), formed by
    # _psi_diff: as a difference it lost 3e-11 at betaln(1e-5, 2) (d/db)
    (a, b), (ta, tb) = primals, tangents
    return _betaln_cj(a, b), -_psi_diff(a, b) * ta - _psi_diff(b, a) * tb


def beta(a: Any, b: Any) -> Any:
    """Beta function, ``gamma(a) gamma(b) / gamma(a + b)``.

    sciax implementation of :func:`scipy.special.beta`.

    Parameters
    ----------
    a, b : array_like
        Real arguments.

    Returns
    -------
    Array
        ``inf`` when ``a`` or ``b`` is a pole of gamma, as SciPy.

    Notes
    -----
    Derivatives ``beta (psi(a) - psi(a + b))`` (and in ``b``), the digamma
    difference summed without cancellation, so ``beta(1e6, 2.5)`` and
    ``beta(1e-5, 2)`` keep full relative accuracy.

    Examples
    --------
    >>> from sciax.special import beta
    >>> beta(snp.array([2.0, -1.5]), snp.array([3.0, 2.0])).round(6)
    Array([0.083333, 1.333333], dtype=float64)
    """
    a, b = promote("beta", a, b)
    return _beta_cj(a, b)


@sciax.custom_jvp
def _beta_cj(a: Any, b: Any) -> Any:
    small = (snp.abs(a) < 170) & (snp.abs(b) < 170) & (snp.abs(a + b) < 170)
    ok = small & ~_is_nonpos_int(a) & ~_is_nonpos_int(b)
    as_, bs = _util.safe(ok, a, 1.0), _util.safe(ok, b, 1.0)
    # a + b = s + e exactly (Knuth's TwoSum).  Near a pole of gamma (s close
    # to 0, -1, ...) rgamma's relative slope -digamma(s) is ~1/distance, so
    # the rounding of a + b alone cost 2.6e-13 at beta(-20.3, 6.2966) (a + b
    # 0.0034 from -14); the first-order term puts e back (e <= ulp(s) / 2)
    s = as_ + bs
    bv = s - as_
    e = (as_ - (s - bv)) + (bs - bv)
    rg = rgamma(s)
    rg = rg - e * _digamma(s) * rg
    direct = gamma(as_) * rg * gamma(bs)
    sgn = gammasgn(a) * gammasgn(b) * gammasgn(a + b)
    lh, ll = _betaln(a, b, dd=~ok)
    viaexp = sgn * (snp.exp(lh) * (1.0 + ll))         # e^ll = 1 + ll (|ll| < 1e-13)
    out = snp.where(ok, direct, viaexp)
    return snp.where(_is_nonpos_int(a) | _is_nonpos_int(b), snp.inf, out)


@_beta_cj.defjvp
def _beta_jvp(primals: tuple, tangents: tuple) -> tuple:
    # B (psi(a) - psi(a + b)) with the digamma difference from _psi_diff
    # (autodiff of the formula lost 4e-11 at beta(30, 1e-3), 1e-10 at
    # beta(1e-5, 2)); where a + b is a pole of Gamma (B = 0, a and b not
    # poles) the limit Gamma(a) Gamma(b) (-1)^n n!
    (a, b), (ta, tb) = primals, tangents
    y = _beta_cj(a, b)
    da, db = -y * _psi_diff(a, b), -y * _psi_diff(b, a)
    s = a + b
    zero = _is_nonpos_int(s) & ~_is_nonpos_int(a) & ~_is_nonpos_int(b)
    az, bz = _util.safe(zero, a, 0.5), _util.safe(zero, b, 0.5)
    lim = _gamma(az) * _gamma(bz) * _drgamma_pole(_util.safe(zero, s, 0.0))
    da, db = snp.where(zero, lim, da), snp.where(zero, lim, db)
    return y, da * ta + db * tb


def poch(z: Any, m: Any) -> Any:
    """Pochhammer symbol (rising factorial), ``gamma(z + m) / gamma(z)``.

    sciax implementation of :func:`scipy.special.poch`.

    Parameters
    ----------
    z, m : array_like
        Real arguments.

    Returns
    -------
    Array

    Notes
    -----
    Integer ``m`` with ``|m| <= 40`` is an exact product (so ``poch(-2, 1)``
    is ``-2``, not a ratio of poles); otherwise Stirling's series for
    arguments at least 10, else the gamma ratio.  Derivatives
    ``poch (psi(z + m) - psi(z))`` (summed without cancellation) and
    ``poch psi(z + m)``, also at integer ``m``.

    Examples
    --------
    >>> from sciax.special import poch
    >>> poch(snp.array([3.0, -2.0, 0.5]), snp.array([2.0, 1.0, 1.5])).round(6)
    Array([12.     , -2.     ,  0.56419], dtype=float64)
    """
    z, m = promote("poch", z, m)
    return _poch_cj(z, m)


@sciax.custom_jvp
def _poch_cj(z: Any, m: Any) -> Any:
    m_int = (m == snp.floor(m)) & (snp.abs(m) <= 40)
    up = m > 0
    cnt = snp.abs(_util.safe(m_int, m, 0.0))
    zs = _util.safe(m_int, z, 1.0)

    def body(k, p):
        kf = k.astype(z.dtype)
        f = snp.where(up, zs + kf, zs - kf - 1.0)
        return p * snp.where(kf < cnt, f, 1.0)

    prod = lax.fori_loop(0, 40, body, snp.ones_like(z))
    v_int = snp.where(up | (m == 0), prod,
                      snp.where(prod == 0, snp.inf, 1.0 / prod))
    zpole, zmpole = _is_nonpos_int(z), _is_nonpos_int(z + m)
    # both z and z + m poles (integer m): (z)_m = (-1)^m (1 - z - m)_m
    both = zpole & zmpole & ~m_int
    zr = _util.safe(both, 1.0 - z - m, 1.0)
    mr = _util.safe(both, m, 0.0)
    v_both = (snp.where(snp.remainder(mr, 2.0) == 0, 1.0, -1.0)
              * snp.exp(lax.lgamma(zr + mr) - lax.lgamma(zr)))

    big = (z >= 10) & (z + m >= 10)
    zb, mb = _util.safe(big, z, 10.0), _util.safe(big, m, 0.0)
    v_big = snp.exp(-_util.lgamma_ratio_large(mb, zb))
    gen = ~(m_int | big | zpole | zmpole)
    zg, mg = _util.safe(gen, z, 1.0), _util.safe(gen, m, 0.5)
    v = gamma(zg + mg) * rgamma(zg)
    over = (snp.abs(zg + mg) >= 170) | (snp.abs(zg) >= 170)
    v_exp = (gammasgn(zg + mg) * gammasgn(zg)
             * snp.exp(lax.lgamma(zg + mg) - lax.lgamma(zg)))
    v = snp.where(over, v_exp, v)
    v = snp.where(zmpole & ~zpole, snp.inf, snp.where(zpole & ~zmpole, 0.0, v))
    v = snp.where(both, v_both, v)
    return snp.where(m_int, v_int, snp.where(big, v_big, v))


@_poch_cj.defjvp
def _poch_jvp(primals: tuple, tangents: tuple) -> tuple:
    # d/dz = P (psi(z + m) - psi(z)) (_psi_diff: the difference lost 3e-11
    # at poch(0.5, 1e-5)), d/dm = P psi(z + m); the exact product for
    # integer m had no m-derivative at all (grad was 0).  Limits: z a pole,
    # z + m not (P = 0): d/dz = Gamma(z + m) (-1)^n n!, d/dm = 0; both poles
    # (integer m): P(z) = (-1)^m (1 - z - m)_m, regular there
    (z, m), (tz, tm) = primals, tangents
    y = _poch_cj(z, m)
    zp, zmp = _is_nonpos_int(z), _is_nonpos_int(z + m)
    dz = y * _psi_diff(z, m)
    dm = y * _digamma(z + m)
    only = zp & ~zmp
    zo, mo = _util.safe(only, z, 0.0), _util.safe(only, m, 0.5)
    dz = snp.where(only, _gamma(zo + mo) * _drgamma_pole(zo), dz)
    dm = snp.where(only, 0.0, dm)
    both = zp & zmp
    zb, mb = _util.safe(both, z, 0.0), _util.safe(both, m, 1.0)
    dz = snp.where(both, -y * _psi_diff(1.0 - zb - mb, mb), dz)
    return y, dz * tz + dm * tm


def _concrete_int(name: str, *args: Any) -> list[np.ndarray]:
    try:
        vals = [np.asarray(a) for a in args]
    except Exception as e:  # a tracer
        raise TypeError(f"{name}(exact=True) needs concrete integer arguments "
                        "(it returns Python integers); use exact=False under "
                        "jit/vmap/grad") from e
    for v in vals:
        if v.dtype.kind not in "iub":
            raise ValueError(f"{name}(exact=True) needs integer arguments, got "
                             f"dtype {v.dtype}")
    return vals


def _exact(fn: Any, *vals: np.ndarray) -> Any:
    out = np.vectorize(fn, otypes=[object])(*vals)
    if out.ndim == 0:
        return int(out[()])
    try:
        return out.astype(np.int64)
    except OverflowError:
        return out


def factorial(n: Any, exact: bool = False) -> Any:
    """Factorial, ``n! = gamma(n + 1)``; zero for negative ``n``.

    sciax implementation of :func:`scipy.special.factorial`.

    Parameters
    ----------
    n : array_like
    exact : bool, default False
        If True, compute exactly with Python integers (concrete integer input
        only; not traceable).

    Returns
    -------
    Array or int

    Examples
    --------
    >>> from sciax.special import factorial
    >>> factorial(snp.array([0, 3, 5]))
    Array([  1.,   6., 120.], dtype=float64)
    >>> factorial(25, exact=True)
    15511210043330985984000000
    """
    if exact:
        (v,) = _concrete_int("factorial", n)
        return _exact(lambda k: math.factorial(k) if k >= 0 else 0, v)
    (n,) = promote("factorial", n)
    return snp.where(n < 0, 0.0, gamma(snp.where(n < 0, 0.0, n) + 1.0))


def factorial2(n: Any, exact: bool = False) -> Any:
    """Double factorial ``n!! = n (n - 2) (n - 4) ...``; zero for ``n < 0``.

    sciax implementation of :func:`scipy.special.factorial2`.

    Parameters
    ----------
    n : array_like of int
    exact : bool, default False
        Compute exactly with Python integers (concrete input only).

    Returns
    -------
    Array or int

    Notes
    -----
    ``exact=False`` uses ``2^(n/2) Gamma(n/2 + 1)``, times ``sqrt(2/pi)`` for
    odd ``n``.

    Examples
    --------
    >>> from sciax.special import factorial2
    >>> factorial2(snp.array([5, 6, -1]))
    Array([15., 48.,  0.], dtype=float64)
    """
    if exact:
        (v,) = _concrete_int("factorial2", n)
        return _exact(lambda k: math.prod(range(k, 0, -2)) if k >= 0 else 0, v)
    (n,) = promote("factorial2", n)
    k = 0.5 * snp.where(n < 0, 0.0, n)
    v = snp.exp2(k) * gamma(k + 1.0)
    odd = snp.remainder(n, 2.0) == 1
    v = snp.where(odd, v * math.sqrt(2 / math.pi), v)
    return snp.where(n < 0, 0.0, v)


def _binom(n: Any, k: Any) -> Any:
    kint = k == snp.floor(k)
    nint = n == snp.floor(n)
    # k -> n - k for non-negative integer n (fewer product terms)
    kk = snp.where(nint & (n >= 0) & (n - k < k) & (n - k >= 0), n - k, k)
    prod_ok = kint & (kk >= 0) & (kk < 20)
    cnt = _util.safe(prod_ok, kk, 0.0)
    ns = _util.safe(prod_ok, n, 1.0)

    def body(i, p):
        i = (i + 1).astype(n.dtype)
        return p * snp.where(i <= cnt, (ns - cnt + i) / i, 1.0)

    v_prod = lax.fori_loop(0, 20, body, snp.ones_like(n))
    gen = ~prod_ok & ~(kint & (k < 0))
    # Beta functions of positive arguments only: summed lgammas of large
    # arguments of either sign cancel (binom(-30.5, 158.3) through
    # beta(-187.8, 159.3) lost 1.2e-13), and the rounding of n - k is kept
    # out of the sines, formed from sinpi/cospi of n + 1 and k separately.
    # n < -1: reflecting Gamma(n + 1) and Gamma(n - k + 1), binom =
    # sin(pi (n + 1 - k)) / sin(pi (n + 1)) / ((k - n) B(-n, k + 1)), the
    # sine ratio exactly (-1)^k for integer k (where binom(-30.5, 200) went
    # through beta(-229.5, 201), 2.6e-13, and near n = -1 the rounding of
    # 1 + n - k lost 1.4e-9).  k >> n > -1: reflecting Gamma(n - k + 1),
    # binom = sin(pi (n + 1 - k)) / pi B(n + 1, k - n).
    negn = gen & (n < -1.0) & (k > -1.0)
    refl = gen & (k - n >= 10) & (n > -1) & (n < 150)
    ng, kg = _util.safe(gen, n, 2.0), _util.safe(gen, k, 0.5)
    sn = refl | negn
    nr, kr = _util.safe(sn, n, 0.5), _util.safe(sn, k, 20.0)
    s1 = _util.sinpi(nr + 1.0)
    # cos(pi k), sin(pi k) by parity for k >= 2^52, all integers, where
    # cospi(k) = sinpi(k + 1/2) is 0 (k + 1/2 rounds); below, cospi/sinpi
    # are exact at the integers and keep the k-derivative of the sine ratio
    huge = snp.abs(kr) >= 2.0 ** 52
    ck = snp.where(huge, 1.0 - 2.0 * snp.remainder(kr, 2.0), _util.cospi(kr))
    s = s1 * ck - _util.cospi(nr + 1.0) * snp.where(huge, 0.0, _util.sinpi(kr))
    bv = beta(snp.where(refl, ng + 1.0, snp.where(negn, -ng, 1.0 + ng - kg)),
              snp.where(refl, kg - ng, 1.0 + kg))
    v_gen = snp.where(refl, s / math.pi * bv,
                      snp.where(negn, s / s1, 1.0)
                      / (snp.where(negn, kg - ng, ng + 1.0) * bv))
    out = snp.where(prod_ok, v_prod, snp.where(gen, v_gen, 0.0))
    # SciPy: NaN for a negative integer n (the value depends on the path)
    bad = snp.isnan(n) | snp.isnan(k) | ((n < 0) & nint)
    return snp.where(bad, snp.nan, out)


def binom(x: Any, y: Any) -> Any:
    """Binomial coefficient as a function of two real variables.

    sciax implementation of :func:`scipy.special.binom`.

    Parameters
    ----------
    x, y : array_like
        Real arguments (``x`` choose ``y``).

    Returns
    -------
    Array

    Notes
    -----
    Integer ``y`` below 20 is an exact product (after ``y -> x - y`` when that
    is smaller); otherwise ``1 / ((x + 1) B(x - y + 1, y + 1))``, or, by the
    reflection formula, a beta function of positive arguments times a ratio
    of sines for ``x < -1`` and for ``y - x >= 10``.  The beta function of
    large arguments sums its logarithm as a double-double, so values near
    the overflow threshold keep ~1e-14 relative accuracy.

    Differentiable in both arguments (also at integer ``y``):
    ``binom (psi(x + 1) - psi(x - y + 1))`` and ``binom (psi(x - y + 1) -
    psi(y + 1))``, each digamma difference summed without cancellation
    (after the reflection formula for negative arguments), and the limits
    at the zeros of ``binom`` (e.g. ``binom(3, 5)``).

    Examples
    --------
    >>> from sciax.special import binom
    >>> binom(snp.array([5.0, -3.5, 5.5]), snp.array([2.0, 3.0, 2.5])).round(6)
    Array([ 10.    , -14.4375,  14.4375], dtype=float64)
    """
    x, y = promote("binom", x, y)
    return _binom_cj(x, y)


def _sincos_diff(n1: Any, k: Any) -> tuple[Any, Any, Any]:
    """``sin(pi n1)``, ``sin(pi (n1 - k))`` and ``cos(pi (n1 - k))`` from
    sinpi/cospi of ``n1`` and ``k`` separately (so the rounding of
    ``n1 - k`` stays out, and the sines are exact at the integers); ``k``
    beyond 2^52 is an even or odd integer."""
    huge = snp.abs(k) >= 2.0 ** 52
    ck = snp.where(huge, 1.0 - 2.0 * snp.remainder(k, 2.0), _util.cospi(k))
    sk = snp.where(huge, 0.0, _util.sinpi(k))
    s1, c1 = _util.sinpi(n1), _util.cospi(n1)
    return s1, s1 * ck - c1 * sk, c1 * ck + s1 * sk


@sciax.custom_jvp
def _binom_cj(n: Any, k: Any) -> Any:
    return _binom(n, k)


@_binom_cj.defjvp
def _binom_jvp(primals: tuple, tangents: tuple) -> tuple:
    # binom = Gamma(n + 1) / (Gamma(k + 1) Gamma(n - k + 1)), so
    #   d/dn = binom (psi(n + 1) - psi(n - k + 1)),
    #   d/dk = binom (psi(n - k + 1) - psi(k + 1)),
    # each digamma difference formed by _psi_diff from arguments that are
    # positive, after the reflection psi(x) = psi(1 - x) - pi cot(pi x) of
    # those that are not.  Autodiff of the formula overflowed at
    # binom(2000, 200) (inf/NaN), and the exact product for integer k had
    # no k-derivative (grad was 0 or wrong).
    (n, k), (tn, tk) = primals, tangents
    y = _binom_cj(n, k)
    n1, k1, r1 = n + 1.0, k + 1.0, n - k + 1.0
    # ln = sn D(xn, en) + cn, lk = sk D(xk, ek) + ck with D = _psi_diff:
    #   n + 1, k + 1, n - k + 1 > 0: D(n - k + 1, k), D(k + 1, n - 2k)
    #   n < -1 < k:  -D(-n, k) + pi sin(pi k) / (sin(pi (n + 1)) sin(pi (n - k + 1))),
    #                 D(k + 1, -n - 1) - pi cot(pi (n - k + 1))
    #   k > n + 1 > 0: -D(n + 1, k - 2n - 1) + pi cot(pi (n - k + 1)),
    #                 -D(k - n, n + 1) - pi cot(pi (n - k + 1))
    # (elsewhere D is the plain difference of digammas, the first line)
    negn = (n < -1.0) & (k1 > 0)
    bigk = (n1 > 0) & (r1 < 0)
    refl = negn | bigk
    s1, s2, c2 = _sincos_diff(_util.safe(refl, n1, -0.5), _util.safe(refl, k, 0.5))
    cot = math.pi * c2 / s2
    one = snp.ones_like(n)
    sn = snp.where(refl, -1.0, one)
    xn = snp.where(negn, -n, snp.where(bigk, n1, r1))
    en = snp.where(bigk, k - 2.0 * n - 1.0, k)
    cn = snp.where(negn, math.pi * _util.sinpi(k) / (s1 * s2),
                   snp.where(bigk, cot, 0.0))
    sk = snp.where(bigk, -1.0, one)
    xk = snp.where(bigk, k - n, k1)
    ek = snp.where(negn, -n1, snp.where(bigk, n1, n - 2.0 * k))
    ck = snp.where(refl, -cot, 0.0)
    dn = y * (sn * _psi_diff(xn, en) + cn)
    dk = y * (sk * _psi_diff(xk, ek) + ck)
    # zeros of binom at a pole of Gamma(n - k + 1) (e.g. binom(3, 5)) or of
    # Gamma(k + 1) (k a negative integer), n + 1 not a pole: with
    # 1 / Gamma(-j)' = (-1)^j j!,
    #   d/dn = -d/dk = Gamma(n + 1) / Gamma(k + 1) (-1)^j j!, j = k - n - 1,
    #   d/dn = 0, d/dk = Gamma(n + 1) / Gamma(n - k + 1) (-1)^j j!, j = -k - 1
    ok = ~_is_nonpos_int(n1)
    rp = ok & _is_nonpos_int(r1) & ~_is_nonpos_int(k1)
    kp = ok & _is_nonpos_int(k1) & ~_is_nonpos_int(r1)
    # (Gamma(n + 1) j! / Gamma(n + 1 + j + 1) = B(n + 1, j + 1); as exp of
    # three lgammas it lost 1e-13 at binom(0.5, 100.5))
    lim_on = rp | kp
    a = _util.safe(lim_on, n1, 1.0)
    jj = _util.safe(lim_on, snp.where(rp, k - n1, -k1), 0.0)
    lim = (snp.where(snp.remainder(jj, 2.0) == 0, 1.0, -1.0)
           * _beta_cj(a, jj + 1.0))
    dn = snp.where(rp, lim, snp.where(kp, 0.0, dn))
    dk = snp.where(rp, -lim, snp.where(kp, lim, dk))
    return y, dn * tn + dk * tk


def comb(N: Any, k: Any, *, exact: bool = False, repetition: bool = False) -> Any:
    """Number of combinations of ``N`` things taken ``k`` at a time.

    sciax implementation of :func:`scipy.special.comb`.

    Parameters
    ----------
    N, k : array_like
    exact : bool, default False
        Exact Python integers (concrete integer input only).
    repetition : bool, default False
        Count combinations with repetition.

    Returns
    -------
    Array or int
        Zero where ``k > N``, ``N < 0`` or ``k < 0``.

    Examples
    --------
    >>> from sciax.special import comb
    >>> comb(10, snp.array([3, 11]))
    Array([120.,   0.], dtype=float64)
    >>> comb(50, 25, exact=True)
    126410606437752
    """
    if exact:
        nv, kv = _concrete_int("comb", N, k)
        if repetition:
            nv = nv + kv - 1
        return _exact(lambda a, b: math.comb(a, b) if a >= 0 and b >= 0 else 0,
                      nv, kv)
    N, k = promote("comb", N, k)
    if repetition:
        N = N + k - 1
    ok = (k <= N) & (N >= 0) & (k >= 0)
    return snp.where(ok, _binom_cj(_util.safe(ok, N, 1.0), _util.safe(ok, k, 0.0)),
                     0.0)


def perm(N: Any, k: Any, exact: bool = False) -> Any:
    """Number of permutations of ``N`` things taken ``k`` at a time,
    ``N! / (N - k)!``.

    sciax implementation of :func:`scipy.special.perm`.

    Parameters
    ----------
    N, k : array_like
    exact : bool, default False
        Exact Python integers (concrete integer input only).

    Returns
    -------
    Array or int
        Zero where ``k > N``, ``N < 0`` or ``k < 0``.

    Examples
    --------
    >>> from sciax.special import perm
    >>> perm(10, snp.array([3, 11]))
    Array([720.,   0.], dtype=float64)
    """
    if exact:
        nv, kv = _concrete_int("perm", N, k)
        return _exact(lambda a, b: math.perm(a, b) if a >= 0 and b >= 0 else 0,
                      nv, kv)
    N, k = promote("perm", N, k)
    ok = (k <= N) & (N >= 0) & (k >= 0)
    Ns, ks = _util.safe(ok, N, 1.0), _util.safe(ok, k, 0.0)
    return snp.where(ok, poch(Ns - ks + 1.0, ks), 0.0)


# --- complex arguments --------------------------------------------------------------
# loggamma on SciPy's branch (Hare, "Computing the principal branch of
# log-Gamma", J. Algorithms 25 (1997)): the principal branch of log Gamma
# continued analytically off the real axis, as scipy.special.loggamma.
# Regions as SciPy's: Stirling's series for Re z > 7 or |Im z| > 7, Taylor
# series about 1 and 2 (radius 0.2), the reflection formula for Re z < 0.1
# and the recurrence up to Re z > 7 elsewhere, counting the branch crossings
# of the product's logarithm.

# log Gamma(1 + h) = -gamma h + sum_{k>=2} (-1)^k zeta(k) / k h^k (mpmath)
_LG1_TAYLOR = (
    -0.5772156649015329, 0.8224670334241132, -0.40068563438653143,
    0.27058080842778454, -0.20738555102867398, 0.1695571769974082,
    -0.1440498967688461, 0.12550966952474304, -0.11133426586956469,
    0.1000994575127818, -0.09095401714582904, 0.083353840546109,
    -0.0769325164113522, 0.07143294629536133, -0.06666870588242046,
    0.06250095514121304, -0.058823978658684585, 0.055555767627403614,
    -0.05263167937961666, 0.05000004769810169, -0.047619070330142226,
    0.04545455629320467)
_LOG_PI = math.log(math.pi)


def _is_complex(z: Any) -> bool:
    return bool(snp.issubdtype(z.dtype, snp.complexfloating))


def _cpolyval(coefs: tuple, z: Any) -> Any:
    s = snp.zeros_like(z)
    for c in reversed(coefs):
        s = s * z + c
    return s


def _cstirling(z: Any) -> Any:
    """``(z - 1/2) log z - z + log(2 pi)/2 + sum B_2k / (2k (2k-1) z^(2k-1))``."""
    r = 1.0 / z
    return ((z - 0.5) * snp.log(z) - z + _util.LOG_SQRT_2PI
            + r * _cpolyval(_util._STIRLING, r * r))


def _clgamma_taylor1(h: Any) -> Any:
    return h * _cpolyval(_LG1_TAYLOR, h)


def _csinpi(z: Any) -> Any:
    x, y = snp.real(z), snp.imag(z)
    return lax.complex(_util.sinpi(x) * snp.cosh(math.pi * y),
                       _util.cospi(x) * snp.sinh(math.pi * y))


def _cloggamma_right(z: Any) -> Any:
    """Re z >= 0.1 (or |Im z| > 7)."""
    lower = snp.signbit(snp.imag(z))
    z = snp.where(lower, snp.conj(z), z)
    x, y = snp.real(z), snp.imag(z)
    stir = (x > 7.0) | (snp.abs(y) > 7.0)
    # recurrence: log Gamma(z) = log Gamma(z + n) - log(z (z+1) ... (z+n-1)),
    # the product's logarithm taken step by step: each time the running
    # product's imaginary part turns negative, log(prod) has dropped 2 pi i
    zr = snp.where(stir, 8.0 + 0j, z)
    prod = zr
    flips = snp.zeros_like(x)
    sb = snp.zeros(snp.shape(x), dtype=bool)      # Im z >= 0 here
    zk = zr
    for k in range(1, 8):
        zn = zr + float(k)
        act = snp.real(zn) <= 7.0
        prod = snp.where(act, prod * zn, prod)
        nsb = snp.signbit(snp.imag(prod))
        flips = flips + snp.where(act & nsb & ~sb, 1.0, 0.0)
        sb = snp.where(act, nsb, sb)
        zk = snp.where(act, zn, zk)
    zk = zk + 1.0
    rec = (_cstirling(zk) - snp.log(prod)
           - lax.complex(snp.zeros_like(x), 2.0 * math.pi * flips))
    out = snp.where(stir, _cstirling(snp.where(stir, z, 8.0 + 0j)), rec)
    t1 = snp.abs(z - 1.0) < 0.2
    t2 = snp.abs(z - 2.0) < 0.2
    h1 = snp.where(t1, z - 1.0, 0j)
    h2 = snp.where(t2, z - 2.0, 0j)
    # log Gamma(z) = log(z - 1) + log Gamma(z - 1) near 2, log(z - 1) =
    # log1p(z - 2) with z - 2 exact
    out = snp.where(t1, _clgamma_taylor1(h1), out)
    out = snp.where(t2, _clog1p(h2) + _clgamma_taylor1(h2), out)
    return snp.where(lower, snp.conj(out), out)


def _cloggamma(z: Any) -> Any:
    # log Gamma(conj z) = conj log Gamma(z): work in the upper half plane
    # (where the recurrence's crossings are all of one direction)
    lower = snp.signbit(snp.imag(z))
    z = snp.where(lower, snp.conj(z), z)
    x, y = snp.real(z), snp.imag(z)
    refl = (x < 0.1) & (snp.abs(y) <= 7.0)
    w = snp.where(refl, 1.0 - z, z)
    main = _cloggamma_right(w)
    # log Gamma(z) = log pi - log sin(pi z) - log Gamma(1 - z)
    #                + 2 pi i sgn(y) floor(x/2 + 1/4)   (Hare, Prop. 3.1)
    zr = snp.where(refl, z, 0.5 + 0j)
    xr, yr = snp.real(zr), snp.imag(zr)
    k = snp.copysign(snp.full_like(xr, 2.0 * math.pi), yr) * snp.floor(0.5 * xr + 0.25)
    rv = lax.complex(_LOG_PI + snp.zeros_like(xr), k) - snp.log(_csinpi(zr)) - main
    out = snp.where(refl, rv, main)
    out = snp.where(lower, snp.conj(out), out)
    pole = (x <= 0) & (x == snp.floor(x)) & (y == 0)
    nan = snp.full_like(z, complex(math.nan, math.nan))
    return snp.where(pole | snp.isnan(x) | snp.isnan(y), nan, out)


# digamma: the reflection formula for Re z < 0.5 (|Im z| <= 16), the
# recurrence up to |z| >= 16 and the asymptotic series there; Taylor series
# about the real roots 1.4616... and -0.5040... keep relative accuracy near
# the zeros.
_PSI_NEGROOT = -0.5040830082644554
_PSI_NEGROOT_LO = -8.15428206243813e-18     # root - _PSI_NEGROOT (mpmath)
_PSI_NEGROOT_TAYLOR = (
    8.939798558792134, -0.8093454625306507, 32.258572064915505,
    -2.761011648790828, 128.27342343090902, -14.70672173553036,
    513.2704629562862, -75.37700066344631, 2055.5357119463315,
    -368.5783503832191, 8234.667099203069, -1743.364608867363,
    32997.785655255044, -8051.818155363498, 132262.95480834588,
    -36529.94596948565, 530280.3912420176)


def _cdigamma(z: Any) -> Any:
    x, y = snp.real(z), snp.imag(z)
    refl = (x < 0.5) & (snp.abs(y) <= 16.0)
    w = snp.where(refl, 1.0 - z, z)
    # recurrence psi(w) = psi(w + n) - sum 1/(w + i) until |w + n| >= 16
    acc = snp.zeros_like(w)
    wk = w
    for _ in range(17):
        act = snp.abs(wk) < 16.0
        acc = acc + snp.where(act, 1.0 / snp.where(act, wk, 1.0 + 0j), 0j)
        wk = snp.where(act, wk + 1.0, wk)
    r = 1.0 / wk
    r2 = r * r
    tail = _util.polyval((1 / 12, -691 / 32760, 1 / 132, -1 / 240, 1 / 252,
                          -1 / 120, 1 / 12), r2) * r2
    out = snp.log(wk) - 0.5 * r - tail - acc
    zr = snp.where(refl, z, 0.5 + 0j)
    # psi(z) = psi(1 - z) - pi cot(pi z)
    cot = _ccospi(zr) / _csinpi(zr)
    out = snp.where(refl, out - math.pi * cot, out)
    # psi(r + h - lo) = h P(h) - lo P'(h), P'(h) ~ P(0) to 1e-17: the low
    # part of the root enters last (XLA folds (z - hi) - lo into z - hi)
    h = z - _PSI_ROOT_HI
    near = snp.abs(h) < 0.2
    hs = snp.where(near, h, 0j)
    out = snp.where(near, _cpolyval(_PSI_ROOT_TAYLOR, hs) * hs
                    - _PSI_ROOT_LO * _PSI_ROOT_TAYLOR[0], out)
    hn = z - _PSI_NEGROOT
    nearn = snp.abs(hn) < 0.05
    hns = snp.where(nearn, hn, 0j)
    out = snp.where(nearn, _cpolyval(_PSI_NEGROOT_TAYLOR, hns) * hns
                    - _PSI_NEGROOT_LO * _PSI_NEGROOT_TAYLOR[0], out)
    pole = (x <= 0) & (x == snp.floor(x)) & (y == 0)
    nan = snp.full_like(z, complex(math.nan, math.nan))
    return snp.where(pole | snp.isnan(x) | snp.isnan(y), nan, out)


def _ccospi(z: Any) -> Any:
    x, y = snp.real(z), snp.imag(z)
    return lax.complex(_util.cospi(x) * snp.cosh(math.pi * y),
                       -_util.sinpi(x) * snp.sinh(math.pi * y))


@sciax.custom_jvp
def _cloggamma_cj(z: Any) -> Any:
    return _cloggamma(z)


@_cloggamma_cj.defjvp
def _cloggamma_jvp(primals: tuple, tangents: tuple) -> tuple:
    (z,), (t,) = primals, tangents
    return _cloggamma_cj(z), _cdigamma(z) * t


def _cgamma(z: Any) -> Any:
    x, y = snp.real(z), snp.imag(z)
    pole = (x <= 0) & (x == snp.floor(x)) & (y == 0)
    nan = snp.full_like(z, complex(math.nan, math.nan))
    return snp.where(pole, nan, snp.exp(_cloggamma_cj(z)))


def _crgamma(z: Any) -> Any:
    x, y = snp.real(z), snp.imag(z)
    pole = (x <= 0) & (x == snp.floor(x)) & (y == 0)
    zs = snp.where(pole, 1.0 + 0j, z)
    return snp.where(pole, 0j, snp.exp(-_cloggamma_cj(zs)))
