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

import sciax.numpy as snp
from sciax import lax
from sciax.special import _bessel, _extra_s21, _gamma, _hyper
from sciax.special import _sfutil as U
from sciax.special import _util
from sciax.special._error import wofz

__all__ = ["pbdv", "pbvv", "pbwa", "pbdv_seq", "pbvv_seq", "pbdn_seq",
           "errstate", "geterr", "seterr", "jnjnp_zeros"]

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

