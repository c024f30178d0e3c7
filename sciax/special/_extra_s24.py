"""Parabolic cylinder functions, integrals of Airy and Struve functions,
``jnjnp_zeros`` and SciPy's special-function error-handling API.

Parabolic cylinder functions (``pbdv``, ``pbvv``, ``pbwa`` and the
sequences): ``D_v(x) = U(-v - 1/2, x)`` is Tricomi's function for ``x > 0``
(``2^(v/2) e^(-x^2/4) U(-v/2, 1/2, x^2/2)``, DLMF 12.7.14) and, for ``x <= 0``,
the combination of the even and odd solutions ``e^(-x^2/4) M(-v/2, 1/2,
x^2/2)`` and ``x e^(-x^2/4) M((1-v)/2, 3/2, x^2/2)`` with the values at 0
(DLMF 12.4.1, 12.2.6-7), where both terms grow together.  ``V`` uses the
same two solutions (DLMF 12.2.8-9) except for ``x < 0`` away from the
non-negative integer orders, where ``V_v(x) = Gamma(-v)/pi (D_v(-x) -
cos(pi v) D_v(x))`` (DLMF 12.2.15) keeps the decaying cases (half-integer
orders) accurate.  Derivatives come from the recurrences DLMF 12.8.2/12.8.9.
``W(a, x)`` is the Maclaurin series DLMF 12.14.15-17, as SciPy's.
"""

from __future__ import annotations

import contextlib
import math
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _bessel, _extra_s21, _gamma, _hyper, _zeta
from sciax.special import _sfutil as U
from sciax.special import _util
from sciax.special._error import wofz

__all__ = ["pbdv", "pbvv", "pbwa", "pbdv_seq", "pbvv_seq", "pbdn_seq",
           "errstate", "geterr", "seterr", "jnjnp_zeros", "itairy",
           "itstruve0", "it2struve0", "itmodstruve0", "it2i0k0", "it2j0y0"]

_SQRT_PI = math.sqrt(math.pi)
_LN2 = math.log(2.0)


# --------------------------------------------------------------------------
# Parabolic cylinder functions D_v and V_v (real order and argument)
# --------------------------------------------------------------------------

def _parts(v, y):
    """``(D_v(y), D_v(-y), u1(y), u2(y))`` for ``y >= 0``: ``D_v(y)`` from
    Tricomi's ``U`` (``y > 0``), the even and odd solutions ``u1 =
    e^(-y^2/4) M(-v/2, 1/2, y^2/2)`` and ``u2 = y e^(-y^2/4) M((1-v)/2, 3/2,
    y^2/2)`` (``u1(0) = 1``, ``u2'(0) = 1``; one call of the Kummer kernel
    for both, with the scale inside: ``M`` alone overflows long before the
    product), and ``D_v(-y) = D_v(0) u1 - D_v'(0) u2``."""
    h = 0.5 * y * y
    two = snp.stack([h, h])
    m = _hyper._m(snp.stack([-0.5 * v, 0.5 - 0.5 * v]),
                  snp.stack([snp.full_like(v, 0.5), snp.full_like(v, 1.5)]),
                  two, -0.5 * two, snp.zeros_like(two))
    u1, u2 = m[0], y * m[1]
    d0 = _SQRT_PI * snp.exp2(0.5 * v) * _gamma.rgamma(0.5 - 0.5 * v)
    dp0 = -_SQRT_PI * snp.exp2(0.5 * v + 0.5) * _gamma.rgamma(-0.5 * v)
    dl = d0 * u1 - dp0 * u2
    pos = y > 0
    hs = snp.where(pos, h, 1.0)
    dr = snp.exp(0.5 * _LN2 * v - 0.5 * hs) * _hyper._u(
        -0.5 * v, snp.full_like(v, 0.5), hs)
    return snp.where(pos, dr, dl), dl, u1, u2


def _d(v, x):
    y = snp.abs(x)
    fin = snp.isfinite(y)
    dr, dl, _, _ = _parts(v, snp.where(fin, y, 0.0))
    d = snp.where(x > 0, dr, dl)
    return snp.where(snp.isposinf(x), 0.0, snp.where(fin, d, snp.nan))


def _v(v, x):
    y = snp.abs(x)
    fin = snp.isfinite(y)
    dr, dl, u1, u2 = _parts(v, snp.where(fin, y, 0.0))
    vk = (-snp.exp2(-0.5 * v) * U.sinpi(0.5 * v) * _gamma.rgamma(1.0 + 0.5 * v) * u1
          + snp.exp2(0.5 - 0.5 * v) * U.cospi(0.5 * v) * _gamma.rgamma(0.5 + 0.5 * v)
          * snp.where(x < 0, -u2, u2))
    # Gamma(-v) has poles at v = 0, 1, 2, ...: the Kummer form near them
    near = (v > -0.25) & (snp.abs(v - snp.round(v)) < 0.25)
    use_d = (x < 0) & ~near
    vd = (dr - U.cospi(v) * dl) / (math.pi * _gamma.rgamma(snp.where(use_d, -v, 0.5)))
    r = snp.where(use_d, vd, vk)
    return snp.where(fin, r, snp.nan)


def _with_derivative(fn, v, x, coef):
    """``(f_v(x), f_v'(x))`` with ``f_v' = x/2 f_v - c(v) f_{v+1}`` (DLMF
    12.8.2 for ``D``, 12.8.9 for ``V``): both orders in one evaluation."""
    both = fn(snp.stack([v, v + 1.0]), snp.stack([x, x]))
    f, f1 = both[0], both[1]
    return f, 0.5 * x * f - coef(v) * f1


def pbdv(v: Any, x: Any) -> tuple:
    r"""Parabolic cylinder function :math:`D_v(x)` and its derivative.

    sciax implementation of :func:`scipy.special.pbdv`.

    Parameters
    ----------
    v : array_like
        Real order.
    x : array_like
        Real argument.

    Returns
    -------
    d, dp : Array
        :math:`D_v(x)` and :math:`D_v'(x)`.

    Notes
    -----
    For ``x > 0``, :math:`D_v(x) = 2^{v/2} e^{-x^2/4} U(-v/2, 1/2, x^2/2)`
    (Tricomi's function, :func:`hyperu`); for ``x <= 0`` the even and odd
    solutions :math:`e^{-x^2/4} M(-v/2, 1/2, x^2/2)` and :math:`x e^{-x^2/4}
    M((1-v)/2, 3/2, x^2/2)` times :math:`D_v(0)` and :math:`D_v'(0)` (DLMF
    12.4.1), whose terms do not cancel where :math:`D_v` grows.  The
    derivative is :math:`x D_v/2 - D_{v+1}` (DLMF 12.8.2).  Within about
    1e-13 relative of mpmath's ``pcfd`` for ``|v| <= 10``, ``|x| <= 20``
    (tested), where SciPy's is up to 1e-9 off for ``v < 0`` and wrong for
    ``x < 0`` and ``v > 2`` (1e-4 at ``v = 2.7, x = -20``, no digit at
    ``v = 9.2, x = -11``).  Overflows to inf where :math:`|D_v|` does
    (``x`` below about ``-53`` for non-integer ``v``).

    Transformations: jit, vmap, grad in ``x`` and ``v`` (the order through
    the parameter derivatives of :func:`hyperu`, a fourth-order difference,
    and of :func:`hyp1f1`).

    Examples
    --------
    >>> from sciax.special import pbdv
    >>> d, dp = pbdv(1.5, np.array([-1.0, 2.0]))
    >>> print(np.round(d, 6), np.round(dp, 6))
    [-0.720196  0.946518] [-0.652599 -0.145498]
    """
    (v, x), out = U.promote_real("pbdv", v, x)
    d, dp = _with_derivative(_d, v, x, lambda w: 1.0)
    return U.finish(out, d, dp)


def pbvv(v: Any, x: Any) -> tuple:
    r"""Parabolic cylinder function :math:`V_v(x)` and its derivative.

    sciax implementation of :func:`scipy.special.pbvv`
    (:math:`V_v(x) = V(-v - 1/2, x)` in DLMF's notation, mpmath's
    ``pcfv(-v - 1/2, x)``).

    Parameters
    ----------
    v : array_like
        Real order.
    x : array_like
        Real argument.

    Returns
    -------
    v, vp : Array
        :math:`V_v(x)` and :math:`V_v'(x)`.

    Notes
    -----
    The even and odd solutions of :func:`pbdv` times :math:`V(a, 0)` and
    :math:`V'(a, 0)` (DLMF 12.2.8-9, here :math:`-2^{-v/2}
    \sin(\pi v/2)/\Gamma(1 + v/2)` and :math:`2^{(1-v)/2} \cos(\pi v/2) /
    \Gamma((1+v)/2)`), except for ``x < 0`` with ``v`` more than 1/4 from
    the non-negative integers: there :math:`V_v(x) = \Gamma(-v)/\pi\,
    (D_v(-x) - \cos(\pi v) D_v(x))` (DLMF 12.2.15), which keeps the cases
    where :math:`V_v` decays to the left (half-integer ``v``) accurate.  The
    derivative is :math:`x V_v/2 - (v + 1) V_{v+1}` (DLMF 12.8.9).  Within
    about 2e-13 relative of mpmath (DLMF 12.2.15 at 60 digits) for ``|v| <=
    10``, ``|x| <= 20`` (tested), where SciPy's has no digit left for
    ``x < -10`` at half-integer ``v`` or ``x < 0`` and ``v > 5``.

    Transformations: jit, vmap, grad in ``x`` and ``v``.

    Examples
    --------
    >>> from sciax.special import pbvv
    >>> w, wp = pbvv(1.3, np.array([-1.0, 0.7]))
    >>> print(np.round(w, 6), np.round(wp, 6))
    [ 0.17136  -0.639661] [-0.920851  0.405473]
    """
    (v, x), out = U.promote_real("pbvv", v, x)
    f, fp = _with_derivative(_v, v, x, lambda w: w + 1.0)
    return U.finish(out, f, fp)


# --------------------------------------------------------------------------
# W(a, x)
# --------------------------------------------------------------------------

_W_TERMS = 72           # x^(2n)/(2n)! alpha_n < 1e-30 for |a|, |x| <= 5


def _w_series(a, x):
    """``(w1, w1', w2, w2')``: DLMF 12.14.15-17, the even solution
    ``sum alpha_n x^(2n)/(2n)!`` and the odd one ``sum beta_n
    x^(2n+1)/(2n+1)!`` of ``w'' = (a - x^2/4) w``."""
    zero = snp.zeros_like(x)
    one = snp.ones_like(x)

    def body(n, st):
        al0, al1, be0, be1, p, w1, w1p, w2, w2p = st
        # p = x^(2n)/(2n)!, the terms of index n; then the next coefficients
        # alpha_{n+2} = a alpha_{n+1} - (n+1)(2n+1)/2 alpha_n and
        # beta_{n+2} = a beta_{n+1} - (n+1)(2n+3)/2 beta_n.
        nf = n.astype(x.dtype)
        w1 = w1 + al0 * p
        w2p = w2p + be0 * p
        q = p * x / (2.0 * nf + 1.0)            # x^(2n+1)/(2n+1)!
        w2 = w2 + be0 * q
        w1p = w1p + al1 * q
        al2 = a * al1 - 0.5 * (nf + 1.0) * (2.0 * nf + 1.0) * al0
        be2 = a * be1 - 0.5 * (nf + 1.0) * (2.0 * nf + 3.0) * be0
        p = q * x / (2.0 * nf + 2.0)
        return al1, al2, be1, be2, p, w1, w1p, w2, w2p

    st = (one, a * one, one, a * one, one, zero, zero, zero, zero)
    st = lax.fori_loop(0, _W_TERMS, body, st)
    return st[5], st[6], st[7], st[8]


_STIRLING = (1.0 / 12.0, -1.0 / 360.0, 1.0 / 1260.0, -1.0 / 1680.0, 1.0 / 1188.0)
_SHIFT = 16


def _log_gamma_ratio(y):
    """``log |Gamma(1/4 + i y)| - log |Gamma(3/4 + i y)|``: Stirling's series
    for ``log Gamma(w + 1/2) - log Gamma(w)`` at ``w = 16 + 1/4 + i y``
    (written without cancellation: ``w log1p(1/(2w)) - 1/2`` as its series),
    shifted back by ``|Gamma(z + 1)| = |z| |Gamma(z)|``; about 1e-16
    absolute, which the cancellation in ``W`` multiplies."""
    w = (0.25 + _SHIFT + 1j * y).astype(_util.complex_dtype(y))
    u = 0.5 / w
    t = snp.zeros_like(w)
    for j in range(16, 1, -1):
        t = t * u + (-1.0) ** (j + 1) / (2.0 * j)
    d = t * u + 0.5 * snp.log(w)
    wh = w + 0.5
    for k, c in enumerate(_STIRLING):
        e = 2 * k + 1
        d = d + c * (wh ** -e - w ** -e)
    back = sum(0.5 * snp.log1p((k + 0.5) / ((0.25 + k) ** 2 + y * y)) for k in range(_SHIFT))
    return back - snp.real(d)


def pbwa(a: Any, x: Any) -> tuple:
    r"""Parabolic cylinder function :math:`W(a, x)` and its derivative.

    sciax implementation of :func:`scipy.special.pbwa`.

    Parameters
    ----------
    a : array_like
        Real parameter, ``|a| <= 5``.
    x : array_like
        Real argument, ``|x| <= 5``.

    Returns
    -------
    w, wp : Array
        :math:`W(a, x)` and :math:`W'(a, x)`; NaN outside ``|a| <= 5,
        |x| <= 5``, as SciPy.

    Notes
    -----
    :math:`W(a, x) = 2^{-3/4} (\sqrt{G_1/G_3}\, w_1(a, x) - \sqrt{2 G_3/G_1}\,
    w_2(a, x))` with :math:`G_1 = |\Gamma(1/4 + ia/2)|`, :math:`G_3 =
    |\Gamma(3/4 + ia/2)|` and the Maclaurin series of the even and odd
    solutions (DLMF 12.14.4, 12.14.15-17), 72 terms each: the method of
    Zhang and Jin that SciPy uses, and like SciPy's restricted to ``|a|,
    |x| <= 5``, where the series' terms grow to about :math:`e^{x^2/4}`
    times the result.  Within 1e-11 of the larger of ``|W|`` and 1e-3
    against mpmath's ``pcfw`` on that square (tested; the largest errors,
    4e-14 absolute, where ``W`` is small at ``a = 4, x = 2.5``).

    Transformations: jit, vmap, grad in ``a`` and ``x``.

    Examples
    --------
    >>> from sciax.special import pbwa
    >>> w, wp = pbwa(1.3, np.array([-1.0, 0.7, 6.0]))
    >>> print(np.round(w, 6), np.round(wp, 6))
    [2.047218 0.329615      nan] [-2.217227 -0.31333        nan]
    """
    (a, x), out = U.promote_real("pbwa", a, x)
    ok = (snp.abs(a) <= 5.0) & (snp.abs(x) <= 5.0)
    as_ = snp.where(ok, a, 0.0)
    xs = snp.where(ok, x, 0.0)
    k1 = snp.exp(0.5 * _log_gamma_ratio(0.5 * as_))     # sqrt(G1/G3)
    k2 = math.sqrt(2.0) / k1                         # sqrt(2 G3/G1)
    w1, w1p, w2, w2p = _w_series(as_, xs)
    s = 2.0 ** -0.75
    w = s * (k1 * w1 - k2 * w2)
    wp = s * (k1 * w1p - k2 * w2p)
    return U.finish(out, snp.where(ok, w, snp.nan), snp.where(ok, wp, snp.nan))


# --------------------------------------------------------------------------
# Sequences (host-side, as SciPy's)
# --------------------------------------------------------------------------

def _scalar(name, *args):
    vals = []
    for a in args:
        if np.ndim(a) != 0:
            raise ValueError(f"{name}: arguments must be scalars.")
        vals.append(a)
    return vals


def _host(name, arrays):
    try:
        return tuple(np.asarray(a) for a in arrays)
    except TypeError as e:
        raise TypeError(f"{name} computes on the host and returns NumPy arrays; "
                        "call it outside jit/vmap/grad") from e


def _seq_orders(v):
    """SciPy's orders for ``pbdv_seq``/``pbvv_seq``: ``v0, v0 + 1, ...,
    v0 + max(n, 1)`` with ``n = int(v)``, ``v0 = v - n``; for ``v0 < 0``
    specfun's arrays start one order up, at ``v0 + 1``."""
    n = int(v)
    v0 = float(v) - n
    n1 = max(n, 1)
    if v0 < 0:
        v0 += 1.0
    return v0 + np.arange(n1 + 1, dtype=np.float64)


def _seq_eval(name, fn, v, x):
    """``fn`` at SciPy's orders, padded to a multiple of 8 points so that
    sequences of different lengths share compiled programs."""
    v, x = _scalar(name, v, x)
    orders = _seq_orders(v)
    k = orders.size
    pad = np.full(-(-k // 8) * 8, orders[-1])
    pad[:k] = orders
    f, fp = _host(name, fn(pad, np.full_like(pad, float(x))))
    return f[:k], fp[:k]


def pbdv_seq(v: float, x: float) -> tuple:
    r"""Parabolic cylinder functions :math:`D_{v_k}(x)` of a sequence of
    orders, and their derivatives.

    sciax implementation of :func:`scipy.special.pbdv_seq`.

    Parameters
    ----------
    v : float
        Order (a Python or NumPy scalar).
    x : float
        Argument (a scalar).

    Returns
    -------
    dv, dp : numpy.ndarray
        :math:`D_{v_k}(x)` and :math:`D_{v_k}'(x)` for :math:`v_k = v_0 + k`,
        ``k = 0, ..., max(int(v), 1)``, ``v0 = v - int(v)``.

    Notes
    -----
    Host-side (NumPy results, as SciPy; not traceable), the orders in one
    call of :func:`pbdv`.  *Differences from SciPy*: for negative
    non-integer ``v``, SciPy's arrays hold the orders ``v0 + 1, v0 + 2``
    (``v0 < 0``), with 0 as the last derivative; sciax returns the same
    orders with the true derivative.

    Examples
    --------
    >>> from sciax.special import pbdv_seq
    >>> dv, dp = pbdv_seq(2.3, 0.5)
    >>> print(np.round(dv, 6))
    [ 0.878865  0.171434 -1.056807]
    """
    return _seq_eval("pbdv_seq", pbdv, v, x)


def pbvv_seq(v: float, x: float) -> tuple:
    r"""Parabolic cylinder functions :math:`V_{v_k}(x)` of a sequence of
    orders, and their derivatives.

    sciax implementation of :func:`scipy.special.pbvv_seq`; the orders are
    those of :func:`pbdv_seq` (with the same difference from SciPy for
    negative non-integer ``v``).

    Parameters
    ----------
    v : float
        Order (a scalar).
    x : float
        Argument (a scalar).

    Returns
    -------
    dv, dp : numpy.ndarray

    Examples
    --------
    >>> from sciax.special import pbvv_seq
    >>> dv, dp = pbvv_seq(2.3, 0.5)
    >>> print(np.round(dv, 6))
    [ 0.000881 -0.69822  -0.15217 ]
    """
    return _seq_eval("pbvv_seq", pbvv, v, x)


def pbdn_seq(n: int, z: complex) -> tuple:
    r"""Parabolic cylinder functions :math:`D_k(z)` of integer orders for a
    complex argument, and their derivatives.

    sciax implementation of :func:`scipy.special.pbdn_seq`.

    Parameters
    ----------
    n : int
        Order.
    z : complex
        Argument (a scalar).

    Returns
    -------
    dv, dp : numpy.ndarray
        Complex: :math:`D_k(z)` and :math:`D_k'(z)` for ``k = 0, ...,
        max(n, 1)`` if ``n >= -1``; for ``n <= -2``, SciPy's arrays hold
        ``k = 0, -1, -2`` (whatever ``n``), and so do these.

    Notes
    -----
    Host-side.  :math:`D_0 = e^{-z^2/4}`, :math:`D_k = e^{-z^2/4}
    He_k(z)` by the recurrence :math:`D_{k+1} = z D_k - k D_{k-1}`, and
    :math:`D_{-1}(z) = \sqrt{\pi/2}\, e^{-z^2/4} w(iz/\sqrt{2})` with the
    Faddeeva function (:func:`wofz`), :math:`D_{-2} = D_0 - z D_{-1}`.
    Derivatives :math:`D_k' = k D_{k-1} - z D_k/2` and, for negative
    ``k``, :math:`z D_k/2 - D_{k+1}` (DLMF 12.8.2-3).

    Examples
    --------
    >>> from sciax.special import pbdn_seq
    >>> dv, dp = pbdn_seq(3, 0.5)
    >>> print(np.round(dv.real, 6))
    [ 0.939413  0.469707 -0.704560 -1.291693]
    """
    n, z = _scalar("pbdn_seq", n, z)
    if float(n) != math.floor(float(n)):
        raise ValueError("pbdn_seq: n must be an integer.")
    n = int(n)
    z = complex(z)
    e = np.exp(-z * z / 4.0)
    if n >= -1:
        m = max(n, 1)
        d = np.empty(m + 1, np.complex128)
        d[0], d[1] = e, z * e
        for k in range(1, m):
            d[k + 1] = z * d[k] - k * d[k - 1]
        dp = np.empty_like(d)
        dp[0] = -0.5 * z * d[0]
        dp[1:] = np.arange(1, m + 1) * d[:-1] - 0.5 * z * d[1:]
        return d, dp
    (w,) = _host("pbdn_seq", (wofz(np.complex128(1j * z / math.sqrt(2.0))),))
    dm1 = math.sqrt(0.5 * math.pi) * e * complex(w)
    d = np.array([e, dm1, e - z * dm1], np.complex128)
    up = np.array([z * e, e, dm1], np.complex128)          # D_{k+1}
    dp = 0.5 * z * d - up
    return d, dp


# --------------------------------------------------------------------------
# Error handling (SciPy's API; recorded, not acted on)
# --------------------------------------------------------------------------

_ERR_KEYS = ("singular", "underflow", "overflow", "slow", "loss", "no_result",
             "domain", "arg", "other", "memory")
_ERR_ACTIONS = ("ignore", "warn", "raise")
_errstate = {k: "ignore" for k in _ERR_KEYS}
_errstate["memory"] = "raise"


def geterr() -> dict:
    """The current special-function error-handling settings.

    sciax implementation of :func:`scipy.special.geterr`.

    Returns
    -------
    err : dict
        SciPy's keys (``singular``, ``underflow``, ``overflow``, ``slow``,
        ``loss``, ``no_result``, ``domain``, ``arg``, ``other``, ``memory``)
        mapped to ``'ignore'``, ``'warn'`` or ``'raise'``; SciPy's defaults
        (all ``'ignore'`` except ``memory='raise'``).

    Notes
    -----
    sciax's special functions run as compiled XLA programs and report
    errors through their values only (NaN for a domain error, inf or 0 for
    overflow and underflow, as SciPy's results); they never consult these
    settings, which are kept (per process, not per thread) so that code
    written for SciPy's API runs unchanged.  No setting makes a sciax
    function warn or raise.

    Examples
    --------
    >>> from sciax.special import geterr
    >>> geterr()["singular"]
    'ignore'
    """
    return dict(_errstate)


def seterr(**kwargs: str) -> dict:
    """Set how special-function errors are handled (recorded only).

    sciax implementation of :func:`scipy.special.seterr`.

    Parameters
    ----------
    all : {'ignore', 'warn', 'raise'}, optional
        Set every category first; the other keywords then apply.
    singular, underflow, overflow, slow, loss, no_result, domain, arg, other, memory : {'ignore', 'warn', 'raise'}, optional
        One category each.

    Returns
    -------
    olderr : dict
        The settings before the call (pass it back as ``seterr(**olderr)``).

    Raises
    ------
    KeyError
        For an unknown category or action (as SciPy).

    Notes
    -----
    The settings are recorded and returned by :func:`geterr`; sciax's
    functions do not act on them (see :func:`geterr`): results stay NaN or
    inf where SciPy's would be, with no warning or exception, whatever is
    set here.

    Examples
    --------
    >>> from sciax.special import seterr, geterr
    >>> old = seterr(all="warn", singular="raise")
    >>> geterr()["singular"], geterr()["domain"]
    ('raise', 'warn')
    >>> _ = seterr(**old)
    """
    for key, val in kwargs.items():
        if key != "all" and key not in _ERR_KEYS:
            raise KeyError(f"seterr: unknown error category {key!r}; valid: "
                           f"'all', {', '.join(map(repr, _ERR_KEYS))}")
        if val not in _ERR_ACTIONS:
            raise KeyError(f"seterr: {key}={val!r}: the action must be one of "
                           f"{', '.join(map(repr, _ERR_ACTIONS))}")
    old = dict(_errstate)
    if "all" in kwargs:
        for k in _ERR_KEYS:
            _errstate[k] = kwargs["all"]
    for key, val in kwargs.items():
        if key != "all":
            _errstate[key] = val
    return old


class errstate(contextlib.ContextDecorator):
    """Context manager for special-function error handling.

    sciax implementation of :class:`scipy.special.errstate`: on entry the
    keyword settings are applied with :func:`seterr`, on exit the previous
    ones are restored (also usable as a decorator).

    Parameters
    ----------
    **kwargs : {'ignore', 'warn', 'raise'}
        ``all`` and the categories of :func:`seterr`.

    Notes
    -----
    Recorded only: sciax's functions report errors through NaN/inf values
    and never warn or raise inside compiled code, so inside the context
    results are the same as outside (see :func:`geterr`).

    Examples
    --------
    >>> from sciax.special import errstate, geterr
    >>> with errstate(all="raise"):
    ...     print(geterr()["overflow"])
    raise
    >>> geterr()["overflow"]
    'ignore'
    """

    def __init__(self, **kwargs: str) -> None:
        self.kwargs = kwargs
        self._old: list[dict] = []

    def __enter__(self) -> None:
        self._old.append(seterr(**self.kwargs))

    def __exit__(self, *exc_info: Any) -> None:
        seterr(**self._old.pop())


# --------------------------------------------------------------------------
# Zeros of J_n and J_n' in increasing order
# --------------------------------------------------------------------------

def jnjnp_zeros(nt: int) -> tuple:
    r"""The first ``nt`` zeros of the integer-order Bessel functions
    :math:`J_n` and :math:`J_n'`, in increasing order.

    sciax implementation of :func:`scipy.special.jnjnp_zeros`.

    Parameters
    ----------
    nt : int
        Number of zeros, ``1 <= nt <= 1200`` (SciPy's limit).

    Returns
    -------
    zo : numpy.ndarray
        The zeros (float64); the first is ``x = 0``, the zero of
        :math:`J_0'`.
    n : numpy.ndarray
        Order of the function each zero belongs to (int32).
    m : numpy.ndarray
        Serial number of the zero among those of its function (int32; 0
        for ``x = 0``).
    t : numpy.ndarray
        0 for a zero of :math:`J_n`, 1 for one of :math:`J_n'` (int32).

    Notes
    -----
    Host-side: the zeros of each :math:`J_n` and :math:`J_n'` below a bound
    from :func:`jn_zeros` and :func:`jnp_zeros`, merged; where a zero of
    :math:`J_{n+1}` and of :math:`J_n'` coincide (:math:`J_0' = -J_1`) the
    one of :math:`J_{n+1}` comes first, as in SciPy.

    Examples
    --------
    >>> from sciax.special import jnjnp_zeros
    >>> zo, n, m, t = jnjnp_zeros(5)
    >>> print(np.round(zo, 6), n, m, t)
    [0.       1.841184 2.404826 3.054237 3.831706] [0 1 0 2 1] [0 1 1 1 1] [1 1 0 1 0]
    """
    if isinstance(nt, bool) or not isinstance(nt, (int, np.integer)) or not (
            1 <= nt <= 1200):
        raise ValueError(f"jnjnp_zeros: nt must be an integer with 1 <= nt <= 1200, "
                         f"got {nt!r}")
    nt = int(nt)
    # The zeros below X number about X^2/pi^2 * 2 (both families); take X
    # with room to spare, and grow it if too few are found.
    bound = math.pi * math.sqrt(nt) + 4.0
    while True:
        rows = [(0.0, 0, 0, 1)]
        n = 0
        while n + 0.5 < bound:          # j_{n,1}, j'_{n,1} > n
            k = max(1, int((bound - n) / math.pi) + 2)
            for t, fn in ((0, _extra_s21.jn_zeros), (1, _extra_s21.jnp_zeros)):
                zs = fn(n, k)
                rows += [(float(z), n, i + 1, t) for i, z in enumerate(zs) if z < bound]
            n += 1
        if len(rows) >= nt:
            break
        bound *= 1.3
    # ties (J_{n+1} and J_n' at once) go to J first, then the higher order
    rows.sort(key=lambda r: (round(r[0], 10), r[3], -r[1]))
    rows = rows[:nt]
    zo = np.array([r[0] for r in rows])
    return (zo, np.array([r[1] for r in rows], np.int32),
            np.array([r[2] for r in rows], np.int32),
            np.array([r[3] for r in rows], np.int32))



# --------------------------------------------------------------------------
# Integrals of Airy, Struve and Bessel functions: shared pieces
# --------------------------------------------------------------------------

_EULER = 0.5772156649015329


def _series(x, t0, ratio, maxiter=4000):
    """``sum_k t_k`` with ``t_{k+1} = t_k ratio(k)``, until past the largest
    term and below ``eps`` of the sum (positive terms need about ``x``
    steps for the modified functions; the alternating ones are used only
    for small arguments)."""
    e = U.eps(x)

    def body(k, st):
        t, s = st
        t = t * ratio(k)
        return (t, s + t), (snp.abs(t) > e * snp.abs(s)) | (k < 3.0)

    return U.masked_loop(body, (t0, t0), snp.ones_like(x, dtype=bool), maxiter)[1]


def _a_coefs(nu, n):
    """Hankel's ``a_k(nu)`` (DLMF 10.17.1), k < n."""
    a = [1.0]
    for k in range(1, n):
        a.append(a[-1] * (4.0 * nu * nu - (2 * k - 1) ** 2) / (8.0 * k))
    return np.array(a)


_TAIL_TERMS = 40     # the tails' asymptotic series at x >= 40: term 40 < 1e-17


def _hankel_tail(nu, p, x):
    """``int_x^inf H^(1)_nu(t) t^(-p) dt`` (complex) for ``x >= 40``: with
    ``H^(1)_nu(t) ~ sqrt(2/(pi t)) e^(i w) sum_k i^k a_k t^(-k)``, the
    integral is ``-sqrt(2/pi) e^(-i(nu pi/2 + pi/4)) e^(ix) x^(-1/2-p) sum_k
    d_k x^(-k)`` with ``i d_k - (k - 1/2 + p) d_(k-1) = i^k a_k`` (matching
    the derivative term by term); the ``d_k`` grow like ``Gamma(k + 1/2)``,
    so the series is good to ``e^(-x)``."""
    a = _a_coefs(nu, _TAIL_TERMS)
    d = [-1j * a[0]]
    for k in range(1, _TAIL_TERMS):
        d.append(-1j * ((1j ** k) * a[k] + (k - 0.5 + p) * d[-1]))
    cdt = _util.complex_dtype(x)
    r = (1.0 / x).astype(cdt)
    s = snp.zeros_like(r)
    for c in reversed(d):
        s = s * r + complex(c)
    ph = (x - (0.5 * nu + 0.25) * math.pi).astype(cdt)
    pre = -math.sqrt(2.0 / math.pi) * snp.exp(-(0.5 + p) * snp.log(x))
    return (pre * snp.exp(1j * ph)) * s


def _gl(f, a, b, n=64):
    """Gauss-Legendre with ``n`` nodes of ``f`` over ``[a, b]`` (arrays)."""
    xi, wi = np.polynomial.legendre.leggauss(n)
    shape = (n,) + (1,) * a.ndim
    h = 0.5 * (b - a)
    t = (a + h)[None] + h[None] * snp.asarray(xi.reshape(shape), a.dtype)
    return h * snp.sum(snp.asarray(wi.reshape(shape), a.dtype) * f(t), axis=0)


# --------------------------------------------------------------------------
# itairy
# --------------------------------------------------------------------------

_AI0 = 0.35502805388781723926       # Ai(0)
_AIP0 = 0.25881940379280679840      # -Ai'(0)
_SQRT3 = math.sqrt(3.0)
_AIRY_SMALL = 2.0                   # Maclaurin series below (terms cancel as e^zeta)
_ZETA_BIG = 40.0                    # asymptotic tails above (zeta = 2/3 y^1.5)
_MILLER_TOP = 90                    # Miller's start for the J_nu sums (zeta <= 40)


def _airy_pq(s):
    """``P(s), Q(s)`` with ``int_0^y Ai = Ai(0) y P(y^3) + Ai'(0) y^2 Q(y^3)``:
    ``P = sum 3^k (1/3)_k s^k / (3k+1)!``, ``Q = sum 3^k (2/3)_k s^k /
    (3k+2)!``."""
    p = _series(s, snp.ones_like(s),
                lambda k: (3 * k + 1.0) * s / ((3 * k + 2.0) * (3 * k + 3.0) * (3 * k + 4.0)))
    q = _series(s, 0.5 * snp.ones_like(s),
                lambda k: (3 * k + 2.0) * s / ((3 * k + 3.0) * (3 * k + 4.0) * (3 * k + 5.0)))
    return p, q


def _j_integrals(z):
    """``int_0^z J_nu`` for ``nu = 1/3, -1/3`` (stacked on a leading axis) as
    ``2 sum_k J_(nu+2k+1)(z)`` (DLMF 10.22.6 with ``nu > -1``), the orders by
    Miller's backward recurrence from order ``nu + 90`` (with rescaling),
    normalised by ``J_nu, J_(nu+1)`` from the Bessel kernel; ``z <= 40``."""
    nu = snp.asarray(np.array([1.0 / 3.0, -1.0 / 3.0]).reshape((2,) + (1,) * z.ndim), z.dtype)
    zz = snp.broadcast_to(z[None], (2,) + z.shape)
    nu = snp.broadcast_to(nu, zz.shape)

    def body(i, st):
        f1, f2, s = st                          # f1 = f_mu, f2 = f_(mu+1)
        mu = nu + (_MILLER_TOP - i).astype(z.dtype)
        f0 = (2.0 * mu / zz) * f1 - f2          # f_(mu-1)
        # f0 has order nu + 90 - i - 1: odd offsets are the sum's terms
        odd = ((_MILLER_TOP - i - 1) % 2) == 1
        s = s + snp.where(odd, f0, 0.0)
        big = snp.abs(f0) > 1e100
        sc_ = snp.where(big, 1e-100, 1.0)
        return f0 * sc_, f1 * sc_, s * sc_

    one = snp.ones_like(zz)
    f1, f2, s = lax.fori_loop(0, _MILLER_TOP, body, (one, 0.0 * one, 0.0 * one))
    # f1 = f_nu, f2 = f_(nu+1)
    j, _, jp, _ = _bessel._jy_real(nu, zz)
    j1 = (nu / zz) * j - jp
    scale = (j * f1 + j1 * f2) / (f1 * f1 + f2 * f2)
    return 2.0 * s * scale


def _i_asym_coefs():
    a = _a_coefs(1.0 / 3.0, _TAIL_TERMS)
    c = [1.0]
    for k in range(1, _TAIL_TERMS):
        c.append((-1) ** k * a[k] + (k - 0.5) * c[-1])
    return tuple(c)


_I_INT = _i_asym_coefs()


def _k_tail(z):
    """``int_z^inf K_(1/3)(s) ds = int_0^inf e^(-z cosh u) cosh(u/3)/cosh u
    du`` by the trapezoidal rule on ``[0, acosh(1 + 40/z)]`` (64 steps;
    exponentially convergent: the integrand is analytic for ``|Im u| <
    pi/2``)."""
    n = 64
    top = snp.arccosh(1.0 + 40.0 / z)
    h = top / n
    u = snp.asarray(np.arange(n + 1, dtype=np.float64).reshape((n + 1,) + (1,) * z.ndim),
                    z.dtype) * h[None]
    ch = snp.cosh(u)
    f = snp.exp(-z[None] * (ch - 1.0)) * snp.cosh(u / 3.0) / ch
    w = snp.asarray(np.r_[0.5, np.ones(n)].reshape((n + 1,) + (1,) * z.ndim), z.dtype)
    return h * snp.exp(-z) * snp.sum(w * f, axis=0)


def _itairy_pos(y):
    """``(int_0^y Ai, int_0^y Bi, int_0^y Ai(-t), int_0^y Bi(-t))``, ``y >= 0``."""
    z = (2.0 / 3.0) * y * snp.sqrt(y)
    small = y <= _AIRY_SMALL
    big = z > _ZETA_BIG
    # Maclaurin (Bi's with positive terms up to zeta = 40)
    ys = snp.where(big, 1.0, y)
    y3 = ys * ys * ys
    pq = _airy_pq(snp.stack([y3, -y3]))
    (pp, pm), (qp, qm) = (pq[0][0], pq[0][1]), (pq[1][0], pq[1][1])
    a1, a2 = _AI0 * ys, _AIP0 * ys * ys
    apt_s, bpt_s = a1 * pp - a2 * qp, _SQRT3 * (a1 * pp + a2 * qp)
    ant_s, bnt_s = a1 * pm + a2 * qm, _SQRT3 * (a1 * pm - a2 * qm)
    # Ai: 1/3 minus the tail of K_(1/3)
    zk = snp.where(small, 1.0, z)
    apt_l = 1.0 / 3.0 - _k_tail(zk) / (math.pi * _SQRT3)
    # Ai(-t), Bi(-t): J_(+-1/3) integrals by Miller, or 1 - the Hankel tail
    zm = snp.where(small | big, 5.0, z)
    sj = _j_integrals(zm)
    ant_m = (sj[0] + sj[1]) / 3.0
    bnt_m = (sj[1] - sj[0]) / _SQRT3
    zb = snp.where(big, z, 2.0 * _ZETA_BIG)
    tp = 1.0 - snp.real(_hankel_tail(1.0 / 3.0, 0.0, zb))
    tm = 1.0 - snp.real(_hankel_tail(-1.0 / 3.0, 0.0, zb))
    ant_b, bnt_b = (tp + tm) / 3.0, (tm - tp) / _SQRT3
    # Bi: e^z / sqrt(2 pi z) sum c_k z^-k for each of I_(+-1/3)
    r = 1.0 / zb
    ser = snp.zeros_like(zb)
    for c in reversed(_I_INT):
        ser = ser * r + c
    lg = zb - 0.5 * snp.log(2.0 * math.pi * zb)
    bpt_b = (2.0 / _SQRT3) * snp.exp(lg) * ser
    apt = snp.where(small, apt_s, apt_l)
    bpt = snp.where(big, bpt_b, bpt_s)
    ant = snp.where(small, ant_s, snp.where(big, ant_b, ant_m))
    bnt = snp.where(small, bnt_s, snp.where(big, bnt_b, bnt_m))
    return apt, bpt, ant, bnt


@sciax.custom_jvp
def _itairy(x):
    y = snp.abs(x)
    fin = snp.isfinite(y)
    apt, bpt, ant, bnt = _itairy_pos(snp.where(fin, y, 1.0))
    apt = snp.where(fin, apt, 1.0 / 3.0)
    bpt = snp.where(fin, bpt, snp.inf)
    ant = snp.where(fin, ant, 2.0 / 3.0)
    bnt = snp.where(fin, bnt, 0.0)
    neg = x < 0
    # int_0^-y f(t) dt = -int_0^y f(-t) dt: the roles swap
    return (snp.where(neg, -ant, apt), snp.where(neg, -bnt, bpt),
            snp.where(neg, -apt, ant), snp.where(neg, -bpt, bnt))


@_itairy.defjvp
def _itairy_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _itairy(x)
    a = _bessel._airy(snp.stack([x, -x]))
    return out, (a[0][0] * t, a[2][0] * t, a[0][1] * t, a[2][1] * t)


def itairy(x: Any) -> tuple:
    r"""Integrals of the Airy functions from 0 to ``x``.

    sciax implementation of :func:`scipy.special.itairy`.

    Parameters
    ----------
    x : array_like
        Real upper limit.

    Returns
    -------
    apt, bpt, ant, bnt : Array
        :math:`\int_0^x Ai(t)\,dt`, :math:`\int_0^x Bi(t)\,dt`,
        :math:`\int_0^x Ai(-t)\,dt`, :math:`\int_0^x Bi(-t)\,dt`.

    Notes
    -----
    With :math:`\zeta = \tfrac23 |x|^{3/2}`: the Maclaurin series below
    ``|x| = 2`` (and for ``Bi`` up to :math:`\zeta = 40`, where its terms
    are positive); ``1/3`` minus :math:`\int_\zeta^\infty K_{1/3} /
    (\pi\sqrt3)` by the trapezoidal rule for ``Ai`` above 2; for
    :math:`Ai(-t), Bi(-t)` the integrals of :math:`J_{\pm 1/3}` as
    :math:`2\sum_k J_{\nu+2k+1}(\zeta)` (DLMF 10.22.6, Miller's recurrence)
    up to :math:`\zeta = 40` and one minus the Hankel asymptotic tail
    beyond; :math:`e^\zeta` times an asymptotic series for ``Bi`` there.
    For ``x < 0`` the four swap roles (``apt(x) = -ant(-x)``, ...), as in
    SciPy.  Within about 1e-14 of mpmath's quadrature relative to
    ``max(|value|, 1)`` (tested), where SciPy's is about 1e-10 off near
    ``|x| = 9``.

    Transformations: jit, vmap, grad (the derivatives are the integrands).

    Examples
    --------
    >>> from sciax.special import itairy
    >>> apt, bpt, ant, bnt = itairy(2.0)
    >>> print(np.round([float(apt), float(bpt), float(ant), float(bnt)], 6))
    [0.312533 2.873408 0.901773 0.193547]
    """
    (x,), out = U.promote_real("itairy", x)
    return U.finish(out, *_itairy(x))


# --------------------------------------------------------------------------
# Integrals of H_0, L_0, I_0, K_0, J_0 and Y_0
# --------------------------------------------------------------------------
# Alternating Maclaurin series up to x = 2, Gauss-Legendre (64 nodes) up to
# x = 40, asymptotic expansions beyond (good to e^-x there).  The
# non-oscillating ones sum their positive terms for every x.

_SMALL = 2.0
_BIG = 40.0


def _struve_k_coefs(n, p):
    """``H_0 - Y_0 ~ (2/pi) sum_k (-1)^k Gamma(k+1/2)^2 4^k / (pi t^(2k+1))``
    (DLMF 11.6.1): the coefficients of its integrals, ``int_x^inf t^(-p)
    (...) dt`` term by term (``p = 0`` without ``k = 0``)."""
    out = []
    for k in range(1 - p, n):
        g = math.exp(2.0 * math.lgamma(k + 0.5)) * 4.0 ** k * 2.0 / math.pi ** 2
        out.append((-1) ** k * g / (2 * k + p))
    return tuple(out)


_K0S_INT = _struve_k_coefs(20, 0)      # times x^(-2k), k >= 1
_K0S_INT_T = _struve_k_coefs(20, 1)    # times x^(-2k-1), k >= 0


def _poly_inv(coefs, x, first):
    """``sum_j coefs[j] x^-(first + 2j)``."""
    r2 = 1.0 / (x * x)
    s = snp.zeros_like(x)
    for c in reversed(coefs):
        s = s * r2 + c
    return s * snp.exp(-first * snp.log(x))


def _h0(t):
    return _bessel.struve(snp.zeros_like(t), t)


def _itstruve0_pos(y):
    small, big = y <= _SMALL, y > _BIG
    ys = snp.where(small, y, 1.0)
    q = ys * ys
    s = (2.0 / math.pi) * _series(ys, 0.5 * q, lambda k: -q * (2 * k + 2.0) / (
        (2 * k + 4.0) * (2 * k + 3.0) ** 2), 200)
    ym = snp.where(small | big, 10.0, y)
    m = _gl(_h0, snp.zeros_like(ym), ym)
    yb = snp.where(big, y, 2.0 * _BIG)
    iy = _extra_s21._itj0y0_parts(yb)[1]
    b = iy + (2.0 / math.pi) * (snp.log(2.0 * yb) + _EULER) - _poly_inv(_K0S_INT, yb, 2.0)
    return snp.where(small, s, snp.where(big, b, m))


def _it2struve0_pos(y):
    small, big = y <= _SMALL, y > _BIG
    ys = snp.where(small, y, 1.0)
    q = ys * ys
    s = 0.5 * math.pi - (2.0 / math.pi) * _series(
        ys, ys, lambda k: -q * (2 * k + 1.0) / (2 * k + 3.0) ** 3, 200)
    ym = snp.where(small | big, 10.0, y)
    m = 0.5 * math.pi - _gl(lambda t: _h0(t) / t, snp.zeros_like(ym), ym)
    yb = snp.where(big, y, 2.0 * _BIG)
    b = snp.imag(_hankel_tail(0.0, 1.0, yb)) + _poly_inv(_K0S_INT_T, yb, 1.0)
    return snp.where(small, s, snp.where(big, b, m))


def _itmodstruve0_pos(y):
    q = y * y
    return (2.0 / math.pi) * _series(y, 0.5 * q, lambda k: q * (2 * k + 2.0) / (
        (2 * k + 4.0) * (2 * k + 3.0) ** 2))


def _log_series(y, sign, extra):
    """``sum_(k>=1) sign^(k+1) (y/2)^(2k) / ((k!)^2 2k) (H_k + 1/(2k) +
    extra)`` and the same sum without the bracket, for ``y <= 2`` (``H_k``
    the harmonic numbers)."""
    q = 0.25 * y * y
    e = U.eps(y)

    def body(i, st):
        k, t, h, s, s0 = st                    # t_k, H_k at k
        k1 = k + 1.0
        t = t * sign * q * k / (k1 * k1 * k1)
        h = h + 1.0 / k1
        s = s + t * (h + 0.5 / k1 + extra)
        s0 = s0 + t
        return (k1, t, h, s, s0), snp.abs(t) > e * snp.abs(s0)

    one = snp.ones_like(y)
    t1 = 0.5 * q
    st = U.masked_loop(body, (one, t1, one, t1 * (1.5 + extra), t1),
                       snp.ones_like(y, dtype=bool), 200)
    return st[3], st[4]


def _k0_tail(y):
    """``int_y^inf K_0(t)/t dt = int_0^inf E_1(y cosh u) du``: the trapezoidal
    rule on ``[0, acosh(1 + 40/y)]``, 64 steps (``y > 2``)."""
    n = 64
    top = snp.arccosh(1.0 + 40.0 / y)
    h = top / n
    u = snp.asarray(np.arange(n + 1, dtype=np.float64).reshape((n + 1,) + (1,) * y.ndim),
                    y.dtype) * h[None]
    f = _zeta.exp1(y[None] * snp.cosh(u))
    w = snp.asarray(np.r_[0.5, np.ones(n)].reshape((n + 1,) + (1,) * y.ndim), y.dtype)
    return h * snp.sum(w * f, axis=0)


def _it2i0k0_pos(y):
    q = y * y
    ii = _series(y, 0.125 * q, lambda k: 0.25 * q * (k + 1.0) / (k + 2.0) ** 3)
    small = y <= _SMALL
    ys = snp.where(small, y, 1.0)
    lg = snp.log(0.5 * ys) + _EULER
    s, _ = _log_series(ys, 1.0, -lg)
    ks = math.pi ** 2 / 24.0 + 0.5 * lg * lg - s
    kb = _k0_tail(snp.where(small, 2.0 * _SMALL, y))
    return ii, snp.where(small, ks, kb)


def _it2j0y0_pos(y):
    small, big = y <= _SMALL, y > _BIG
    ys = snp.where(small, y, _SMALL)
    lg = snp.log(0.5 * ys) + _EULER
    # sum (-1)^(k+1) (y/2)^2k/((k!)^2 2k) [L - 1/(2k) - H_k] = -(s - (L) s0)...
    s, s0 = _log_series(ys, -1.0, 0.0)
    j_s = s0
    y_s = math.pi / 6.0 - lg * lg / math.pi + (2.0 / math.pi) * (lg * s0 - s)
    ym = snp.where(small | big, 10.0, y)
    zero = snp.zeros_like(ym)
    j_m = _gl(lambda t: (1.0 - _bessel.j0(t)) / t, zero, ym)
    y_m = y_s - _gl(lambda t: _bessel.y0(t) / t, zero + _SMALL, ym)
    yb = snp.where(big, y, 2.0 * _BIG)
    tail = _hankel_tail(0.0, 1.0, yb)
    j_b = snp.log(0.5 * yb) + _EULER + snp.real(tail)
    y_b = snp.imag(tail)
    return (snp.where(small, j_s, snp.where(big, j_b, j_m)),
            snp.where(small, y_s, snp.where(big, y_b, y_m)))


def _finite(fn, y, inf_vals):
    """``fn`` on finite ``y >= 0`` (a tuple), with its limits at ``inf``."""
    fin = snp.isfinite(y)
    res = fn(snp.where(fin, y, 1.0))
    res = res if isinstance(res, tuple) else (res,)
    return tuple(snp.where(fin, r, v) for r, v in zip(res, inf_vals))


@sciax.custom_jvp
def _itstruve0(x):
    (r,) = _finite(_itstruve0_pos, snp.abs(x), (snp.inf,))
    return r


@_itstruve0.defjvp
def _itstruve0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _itstruve0(x), _h0(x) * t


@sciax.custom_jvp
def _it2struve0(x):
    (r,) = _finite(_it2struve0_pos, snp.abs(x), (0.0,))
    return snp.where(x < 0, math.pi - r, r)


@_it2struve0.defjvp
def _it2struve0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    xs = snp.where(x == 0, 1.0, x)
    return _it2struve0(x), snp.where(x == 0, -2.0 / math.pi, -_h0(xs) / xs) * t


@sciax.custom_jvp
def _itmodstruve0(x):
    (r,) = _finite(_itmodstruve0_pos, snp.abs(x), (snp.inf,))
    return r


@_itmodstruve0.defjvp
def _itmodstruve0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _itmodstruve0(x), _bessel.modstruve(snp.zeros_like(x), x) * t


@sciax.custom_jvp
def _it2i0k0(x):
    ii, ik = _finite(_it2i0k0_pos, snp.abs(x), (snp.inf, 0.0))
    ik = snp.where(x == 0, 1e300, snp.where(x < 0, snp.nan, ik))   # SciPy's values
    return ii, ik


@_it2i0k0.defjvp
def _it2i0k0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    xs = snp.where(x == 0, 1.0, x)
    di = snp.where(x == 0, 0.0, (_bessel.i0(xs) - 1.0) / xs)
    dk = -_bessel.kv(snp.zeros_like(xs), xs) / xs
    return _it2i0k0(x), (di * t, dk * t)


@sciax.custom_jvp
def _it2j0y0(x):
    ij, iy = _finite(_it2j0y0_pos, snp.abs(x), (snp.inf, 0.0))
    iy = snp.where(x == 0, -1e300, snp.where(x < 0, snp.nan, iy))  # SciPy's values
    return ij, iy


@_it2j0y0.defjvp
def _it2j0y0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    xs = snp.where(x == 0, 1.0, x)
    dj = snp.where(x == 0, 0.0, (1.0 - _bessel.j0(xs)) / xs)
    dy = -_bessel.y0(xs) / xs
    return _it2j0y0(x), (dj * t, dy * t)


def itstruve0(x: Any) -> Any:
    r"""Integral of the Struve function of order 0, :math:`\int_0^x
    H_0(t)\,dt`.

    sciax implementation of :func:`scipy.special.itstruve0`.

    Parameters
    ----------
    x : array_like
        Real upper limit (the integral is even in ``x``).

    Returns
    -------
    Array

    Notes
    -----
    The Maclaurin series up to ``|x| = 2``, Gauss-Legendre quadrature (64
    nodes) of :func:`struve` up to 40, and :math:`\int_0^x Y_0 + (2/\pi)
    (\ln 2x + \gamma)` plus the asymptotic series of :math:`\int_x^\infty
    (H_0 - Y_0 - 2/(\pi t))` beyond (DLMF 11.6.1; :math:`\int_0^x Y_0` as
    in :func:`itj0y0`).  Within about 1e-14 of mpmath's quadrature relative
    to ``max(|value|, 1)`` (tested).

    Transformations: jit, vmap, grad (the derivative is :math:`H_0(x)`).

    Examples
    --------
    >>> from sciax.special import itstruve0
    >>> print(np.round(itstruve0(np.array([1.0, 10.0])), 6))
    [0.30109  2.518958]
    """
    (x,), out = U.promote_real("itstruve0", x)
    return U.finish(out, _itstruve0(x))


def it2struve0(x: Any) -> Any:
    r"""Integral :math:`\int_x^\infty H_0(t)/t\,dt` of the Struve function
    of order 0.

    sciax implementation of :func:`scipy.special.it2struve0`.

    Parameters
    ----------
    x : array_like
        Real lower limit (``pi`` minus the value at ``-x`` for ``x < 0``,
        :math:`\int_0^\infty H_0(t)/t\,dt = \pi/2`).

    Returns
    -------
    Array

    Notes
    -----
    :math:`\pi/2` minus the Maclaurin series up to ``|x| = 2`` or minus
    Gauss-Legendre quadrature (64 nodes) up to 40; beyond, the asymptotic
    tails of :math:`Y_0/t` (Hankel's expansion integrated term by term)
    and of :math:`(H_0 - Y_0)/t` (DLMF 11.6.1).  Within 1e-12 of mpmath
    relative to ``max(|value|, 1e-2)`` (tested; the subtraction from
    :math:`\pi/2` costs digits just below ``x = 40``).

    Transformations: jit, vmap, grad (the derivative is :math:`-H_0(x)/x`).

    Examples
    --------
    >>> from sciax.special import it2struve0
    >>> print(np.round(it2struve0(np.array([1.0, 10.0])), 6))
    [0.957197 0.040472]
    """
    (x,), out = U.promote_real("it2struve0", x)
    return U.finish(out, _it2struve0(x))


def itmodstruve0(x: Any) -> Any:
    r"""Integral of the modified Struve function of order 0, :math:`\int_0^x
    L_0(t)\,dt`.

    sciax implementation of :func:`scipy.special.itmodstruve0`.

    Parameters
    ----------
    x : array_like
        Real upper limit (the integral is even in ``x``).

    Returns
    -------
    Array

    Notes
    -----
    The Maclaurin series, whose terms are positive, for every ``x`` (about
    ``x/2 + 10 sqrt(x)`` terms; inf beyond ``x = 713``, as SciPy).  Within
    about 1e-14 relative of mpmath's quadrature (tested).

    Transformations: jit, vmap, grad (the derivative is :math:`L_0(x)`).

    Examples
    --------
    >>> from sciax.special import itmodstruve0
    >>> print(np.round(itmodstruve0(np.array([1.0, 10.0])), 6))
    [3.3647300e-01 2.9907733e+03]
    """
    (x,), out = U.promote_real("itmodstruve0", x)
    return U.finish(out, _itmodstruve0(x))


def it2i0k0(x: Any) -> tuple:
    r"""Integrals :math:`\int_0^x (I_0(t) - 1)/t\,dt` and
    :math:`\int_x^\infty K_0(t)/t\,dt`.

    sciax implementation of :func:`scipy.special.it2i0k0`.

    Parameters
    ----------
    x : array_like
        Real limit (the first integral is even in ``x``; the second is NaN
        for ``x < 0`` and 1e300 at 0, SciPy's values).

    Returns
    -------
    ii0, ik0 : Array

    Notes
    -----
    The first is its Maclaurin series (positive terms) for every ``x``; the
    second :math:`\pi^2/24 + L^2/2 + \sum_{k\ge1} (x/2)^{2k} (H_k + 1/(2k)
    - L)/(2k\,(k!)^2)` with :math:`L = \ln(x/2) + \gamma` up to ``x = 2``
    (from the series of :math:`K_0`), and :math:`\int_0^\infty E_1(x \cosh
    u)\,du` by the trapezoidal rule beyond.  Within about 1e-14 relative of
    mpmath's quadrature up to ``x = 41`` (tested; at ``x = 70`` the two
    differ by 2e-8, not resolved).

    Transformations: jit, vmap, grad (the derivatives are the integrands).

    Examples
    --------
    >>> from sciax.special import it2i0k0
    >>> ii, ik = it2i0k0(np.array([1.0, 10.0]))
    >>> print(np.round(ii, 6), np.round(ik, 6))
    [1.28979000e-01 3.40815367e+02] [2.08518e-01 2.00000e-06]
    """
    (x,), out = U.promote_real("it2i0k0", x)
    return U.finish(out, *_it2i0k0(x))


def it2j0y0(x: Any) -> tuple:
    r"""Integrals :math:`\int_0^x (1 - J_0(t))/t\,dt` and
    :math:`\int_x^\infty Y_0(t)/t\,dt`.

    sciax implementation of :func:`scipy.special.it2j0y0`.

    Parameters
    ----------
    x : array_like
        Real limit (the first integral is even in ``x``; the second is NaN
        for ``x < 0`` and -1e300 at 0, SciPy's values).

    Returns
    -------
    ij0, iy0 : Array

    Notes
    -----
    Maclaurin series up to ``x = 2`` (the second as :math:`\pi/6 - L^2/\pi
    + (2/\pi)\sum_{k\ge1} (-1)^{k+1} (x/2)^{2k} (L - 1/(2k) - H_k)/(2k\,
    (k!)^2)`, :math:`L = \ln(x/2) + \gamma`, from the series of
    :math:`Y_0`), Gauss-Legendre quadrature (64 nodes) up to 40 (from 2 for
    the second), and beyond :math:`\ln(x/2) + \gamma + \int_x^\infty
    J_0(t)/t\,dt` and :math:`\int_x^\infty Y_0(t)/t\,dt` from Hankel's
    expansion integrated term by term.  Within about 1e-14 of mpmath
    relative to ``max(|value|, 1e-2)`` (tested).

    Transformations: jit, vmap, grad (the derivatives are the integrands).

    Examples
    --------
    >>> from sciax.special import it2j0y0
    >>> ij, iy = it2j0y0(np.array([1.0, 10.0]))
    >>> print(np.round(ij, 6), np.round(iy, 6))
    [0.121165 2.177866] [ 0.395273 -0.022988]
    """
    (x,), out = U.promote_real("it2j0y0", x)
    return U.finish(out, *_it2j0y0(x))
