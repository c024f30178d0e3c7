"""Modified Fresnel integrals, ``besselpoly``, ``lmbda``, and the zeros of
the Airy functions, of ``erf`` and of the Fresnel integrals.

``modfresnelp``/``modfresnelm`` are the Faddeeva function in closed form
(no cancellation for large ``x``); ``besselpoly`` is cephes' series.  The
zeros are host-side (their number sets the output shape): asymptotic
starting points (DLMF 9.9.6-9.9.9 for Airy, Zhang and Jin's for erf and the
Fresnel integrals) refined by Newton's method.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _util
from sciax.special._bessel import _airy
from sciax.special._error import _erf_c, _wofz_upper
from sciax.special._hyper import hyp0f1
from sciax.special._util import promote

__all__ = ["modfresnelp", "modfresnelm", "besselpoly", "ai_zeros", "bi_zeros",
           "erf_zeros", "fresnel_zeros", "fresnelc_zeros", "fresnels_zeros", "lmbda"]

_SQRT_HALF = math.sqrt(0.5)


def _modfresnel(x: Any) -> tuple:
    """``(F+(x), K+(x))``: ``F+ = int_x^inf exp(i t^2) dt = sqrt(pi/2) (1 +
    i)/2 exp(i x^2) w((1 + i) x / sqrt 2)`` for ``x >= 0`` (from ``C + i S =
    (1 + i)/2 (1 - exp(i pi u^2/2) w((1 + i) sqrt(pi) u / 2))``), ``2 F+(0) -
    F+(|x|)`` below; ``K+ = exp(-i (x^2 + pi/4)) F+ / sqrt(pi)``, which is
    ``w/2`` for ``x >= 0``."""
    ax = snp.abs(x)
    ctype = _util.complex_dtype(x)
    w = _wofz_upper(((1.0 + 1.0j) * _SQRT_HALF) * ax.astype(ctype))
    ph = snp.exp(1j * (ax * ax).astype(ctype))
    fp_pos = math.sqrt(0.5 * math.pi) * (0.5 + 0.5j) * ph * w
    f0 = math.sqrt(0.5 * math.pi) * (0.5 + 0.5j) * 2.0
    fp = snp.where(x < 0, f0 - fp_pos, fp_pos)
    ph_neg = snp.exp(-1j * (ax * ax + 0.25 * math.pi).astype(ctype))
    kp_neg = ph_neg * fp / math.sqrt(math.pi)
    kp = snp.where(x < 0, kp_neg, 0.5 * w)
    return fp, kp


def modfresnelp(x: Any) -> tuple:
    """Modified Fresnel integrals ``F+(x) = int_x^inf exp(i t^2) dt`` and
    ``K+(x) = exp(-i (x^2 + pi/4)) F+(x) / sqrt(pi)``.

    sciax implementation of :func:`scipy.special.modfresnelp`.

    Parameters
    ----------
    x : array_like
        Real argument.

    Returns
    -------
    fp, kp : Array
        Complex.

    Notes
    -----
    Both from the Faddeeva function, ``F+(x) = sqrt(pi/2) (1 + i)/2
    exp(i x^2) w((1 + i) x / sqrt 2)`` and ``K+(x) = w((1 + i) x / sqrt 2) /
    2`` for ``x >= 0`` (``F+(x) = 2 F+(0) - F+(-x)`` below): no cancellation
    in the tail.  Differentiable in ``x``.  *Differences from SciPy*: SciPy's
    ``fp`` (and ``modfresnelm``'s ``fm``) is wrong for ``x < 0`` (0.7
    relative error at ``x = -1.3`` against mpmath's ``sqrt(pi)/2 e^(i pi/4)
    erfc(e^(-i pi/4) x)``); its ``kp`` is right.

    Examples
    --------
    >>> from sciax.special import modfresnelp
    >>> fp, kp = modfresnelp(0.5)
    >>> complex(fp.round(6)), complex(kp.round(6))
    ((0.129773+0.585176j), (0.321305+0.105466j))
    """
    (x,) = promote("modfresnelp", x)
    return _modfresnel(x)


def modfresnelm(x: Any) -> tuple:
    """Modified Fresnel integrals ``F-(x) = int_x^inf exp(-i t^2) dt`` and
    ``K-(x) = exp(i (x^2 + pi/4)) F-(x) / sqrt(pi)``.

    sciax implementation of :func:`scipy.special.modfresnelm`.

    Parameters
    ----------
    x : array_like
        Real argument.

    Returns
    -------
    fm, km : Array
        Complex: the conjugates of :func:`modfresnelp`'s.

    Examples
    --------
    >>> from sciax.special import modfresnelm
    >>> fm, km = modfresnelm(-1.3)
    >>> complex(fm.round(6)), complex(km.round(6))
    ((1.601346-1.22251j), (-0.284033+1.100588j))
    """
    (x,) = promote("modfresnelm", x)
    fp, kp = _modfresnel(x)
    return snp.conj(fp), snp.conj(kp)


def besselpoly(a: Any, lmb: Any, nu: Any) -> Any:
    """Weighted integral of the Bessel function, ``int_0^1 x^lmb J_nu(2 a x)
    dx``.

    sciax implementation of :func:`scipy.special.besselpoly`.

    Parameters
    ----------
    a : array_like
        Scale factor.
    lmb : array_like
        Power of ``x`` (``> -1 - nu``).
    nu : array_like
        Order.

    Returns
    -------
    Array

    Notes
    -----
    Cephes' series ``sum_k (-1)^k a^(2k+nu) / (k! Gamma(k+nu+1) (2k+nu+lmb+1))``
    (negative integer orders by ``J_{-n} = (-1)^n J_n``), until a term is
    below ``1e-17`` of the sum (at most 1000 terms): like SciPy's, it
    cancels for large ``a`` (digits lost grow like ``2a / ln 10``).
    Differentiable in ``a`` and ``lmb``.  *Differences from SciPy*: for
    ``a < 0`` and an integer order the real value, where SciPy gives NaN.

    Examples
    --------
    >>> from sciax.special import besselpoly
    >>> round(float(besselpoly(2.0, 1.5, 0.5)), 12)
    0.046321487089
    """
    a, lmb, nu = promote("besselpoly", a, lmb, nu)
    nu = lax.stop_gradient(nu)
    neg_int = (nu < 0) & (nu == snp.floor(nu))
    factor = snp.where(neg_int & (snp.remainder(nu, 2.0) == 1), -1.0, 1.0)
    v = snp.where(neg_int, -nu, nu)
    a0 = a == 0
    az = _util.safe(~a0, a, 1.0)
    # the first term, a^v / (Gamma(v + 1) (lmb + v + 1)), with a^v signed for a < 0
    odd_neg = (az < 0) & (snp.remainder(v, 2.0) == 1)
    first = snp.power(snp.abs(az), v) * snp.where(odd_neg, -1.0, 1.0)
    first = first / (lax.exp(lax.lgamma(v + 1.0)) * (lmb + v + 1.0))

    def cond(c):
        return snp.any(c[3])

    def body(c):
        m, term, s, act = c
        s2 = s + term
        nxt = term * (-az * az * (lmb + v + 1.0 + 2.0 * m)
                      / ((v + m + 1.0) * (m + 1.0) * (lmb + v + 3.0 + 2.0 * m)))
        act2 = act & (snp.abs(nxt) > 1e-17 * snp.abs(s2)) & (m < 1000.0)
        return (m + 1.0, snp.where(act, nxt, term), snp.where(act, s2, s), act2)

    z = snp.zeros_like(az)
    _, _, s, _ = lax.while_loop(cond, body, (z, first, z, snp.ones(az.shape, bool)))
    at0 = snp.where(nu == 0, 1.0 / (lmb + 1.0), 0.0)
    out = snp.where(a0, at0, factor * s)
    # J_v(2 a x) is complex for a < 0 and non-integer v
    return snp.where((a < 0) & (v != snp.floor(v)), snp.nan, out)


# --- Airy zeros (host-side) ----------------------------------------------------------

def _t_series(t: np.ndarray) -> np.ndarray:
    # DLMF 9.9.18: T(t) ~ t^(2/3) (1 + 5/48 t^-2 - 5/36 t^-4 + ...)
    return t ** (2.0 / 3.0) * (1 + 5 / 48 * t ** -2 - 5 / 36 * t ** -4
                               + 77125 / 82944 * t ** -6)


def _u_series(t: np.ndarray) -> np.ndarray:
    # DLMF 9.9.19: U(t) ~ t^(2/3) (1 - 7/48 t^-2 + 35/288 t^-4 - ...)
    return t ** (2.0 / 3.0) * (1 - 7 / 48 * t ** -2 + 35 / 288 * t ** -4
                               - 181223 / 207360 * t ** -6)


def _newton(x: np.ndarray, step: Any, iters: int = 8) -> np.ndarray:
    x = snp.asarray(x)
    for _ in range(iters):
        x = x - step(x)
    return x


def _airy_zeros(nt: int, j: int, off: int, off_p: int) -> tuple:
    """Zeros of ``f = airy(x)[j]`` (Ai for 0, Bi for 2) and of ``f'`` from the
    asymptotic ``-T(3 pi/8 (4k - off))`` and ``-U(3 pi/8 (4k - off_p))``, by
    Newton (``f'' = x f``), with ``f(zeros of f')`` and ``f'(zeros of f)``.
    (Eager: the compiled airy program is reused by every step; traced as one
    program the eight steps compiled for 10 s.)"""
    k = np.arange(1, nt + 1, dtype=float)
    z = _newton(-_t_series(3 * np.pi / 8 * (4 * k - off)),
                lambda x: _airy(x)[j] / _airy(x)[j + 1])
    zp = _newton(-_u_series(3 * np.pi / 8 * (4 * k - off_p)),
                 lambda x: _airy(x)[j + 1] / (x * _airy(x)[j]))
    return z, zp, _airy(zp)[j], _airy(z)[j + 1]


def _check_nt(name: str, nt: Any) -> int:
    if isinstance(nt, bool) or not isinstance(nt, (int, np.integer)) or nt <= 0:
        raise ValueError(f"{name}: nt must be a positive integer, got {nt!r}")
    return int(nt)


def ai_zeros(nt: int) -> tuple:
    """The first ``nt`` zeros of the Airy function ``Ai`` and its derivative,
    and the values there.

    sciax implementation of :func:`scipy.special.ai_zeros`.

    Parameters
    ----------
    nt : int
        Number of zeros (a Python int).

    Returns
    -------
    a, ap, ai, aip : Array
        The zeros of ``Ai`` and ``Ai'``, ``Ai(ap)`` and ``Ai'(a)``.

    Notes
    -----
    Host-side ``nt``: DLMF 9.9.6 and 9.9.7's asymptotic expansions refined
    by eight Newton steps on :func:`airy` (``Ai'' = x Ai``).

    Examples
    --------
    >>> from sciax.special import ai_zeros
    >>> a, ap, ai, aip = ai_zeros(2)
    >>> a.round(6), ap.round(6)
    (Array([-2.338107, -4.087949], dtype=float64),
     Array([-1.018793, -3.248198], dtype=float64))
    """
    return _airy_zeros(_check_nt("ai_zeros", nt), 0, 1, 3)


def bi_zeros(nt: int) -> tuple:
    """The first ``nt`` zeros of the Airy function ``Bi`` and its derivative,
    and the values there.

    sciax implementation of :func:`scipy.special.bi_zeros`.

    Parameters
    ----------
    nt : int
        Number of zeros (a Python int).

    Returns
    -------
    b, bp, bi, bip : Array
        The zeros of ``Bi`` and ``Bi'``, ``Bi(bp)`` and ``Bi'(b)``.

    Notes
    -----
    Host-side ``nt``: DLMF 9.9.8 and 9.9.9's asymptotic expansions refined
    by eight Newton steps on :func:`airy` (``Bi'' = x Bi``).

    Examples
    --------
    >>> from sciax.special import bi_zeros
    >>> b, bp, bi, bip = bi_zeros(2)
    >>> b.round(6), bp.round(6)
    (Array([-1.173713, -3.271093], dtype=float64),
     Array([-2.29444 , -4.073155], dtype=float64))
    """
    return _airy_zeros(_check_nt("bi_zeros", nt), 2, 3, 1)


# --- complex zeros of erf and of the Fresnel integrals (host-side) -----------------

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_NEWTON_STEPS = 10


@sciax.jit
def _erf_newton(z):
    # erf' = 2/sqrt(pi) exp(-z^2): the starting points are within ~1e-2
    # of the zeros, where Newton converges quadratically (10 steps)
    def step(_, z):
        return z - _erf_c(z) / (_TWO_OVER_SQRT_PI * snp.exp(-z * z))
    return lax.fori_loop(0, _NEWTON_STEPS, step, z)


def _fresnel_cs(z):
    """``(C(z), S(z))`` for complex ``z`` from ``C +- i S = (1 +- i)/2
    erf((1 -+ i) sqrt(pi) z / 2)`` (C and S are entire with real
    coefficients)."""
    h = 0.5 * math.sqrt(math.pi)
    e = (0.5 + 0.5j) * _erf_c((h - h * 1j) * z)
    f = (0.5 - 0.5j) * _erf_c((h + h * 1j) * z)
    return 0.5 * (e + f), -0.5j * (e - f)


@sciax.jit
def _fresnel_newton(z, which):
    # C' = cos(pi z^2/2), S' = sin(pi z^2/2); which = 0 for C, 1 for S
    def step(_, z):
        c, s = _fresnel_cs(z)
        u = 0.5 * math.pi * z * z
        return z - snp.where(which == 0, c / snp.cos(u), s / snp.sin(u))
    return lax.fori_loop(0, _NEWTON_STEPS, step, z)


def erf_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of ``erf`` in the first quadrant.

    sciax implementation of :func:`scipy.special.erf_zeros`.

    Parameters
    ----------
    nt : int
        Number of zeros (a Python int).

    Returns
    -------
    Array
        Complex, ordered by modulus (the others are ``-z``, ``conj(z)``,
        ``-conj(z)``).

    Notes
    -----
    Host-side ``nt``: Zhang and Jin's starting points (``CERZO``:
    ``sqrt(pi (4k - 1/2))/2 (1 + i) +- log(pi sqrt(2k - 1/4)) / (2
    sqrt(pi (4k - 1/2)))``) refined by ten Newton steps on the complex
    :func:`erf`.

    Examples
    --------
    >>> from sciax.special import erf_zeros
    >>> erf_zeros(2).round(6)
    Array([1.450616+1.880943j, 2.244659+2.616575j], dtype=complex128)
    """
    nt = _check_nt("erf_zeros", nt)
    k = np.arange(1, nt + 1, dtype=float)
    pu = np.sqrt(np.pi * (4 * k - 0.5))
    pv = np.pi * np.sqrt(2 * k - 0.25)
    z0 = (0.5 * pu - 0.5 * np.log(pv) / pu) + 1j * (0.5 * pu + 0.5 * np.log(pv) / pu)
    return _erf_newton(snp.asarray(z0))


def _fresnel_start(nt: int, which: int) -> np.ndarray:
    # Zhang and Jin's FCSZO: |z|^2 ~ 4k - 1 (C) or 4k (S), the imaginary
    # part ~ log(pi |z|) / (pi |z|)
    k = np.arange(1, nt + 1, dtype=float)
    psq = np.sqrt(4 * k - 1) if which == 0 else 2 * np.sqrt(k)
    return (psq - np.log(np.pi * psq) / (np.pi ** 2 * psq ** 3)
            + 1j * np.log(np.pi * psq) / (np.pi * psq))


def fresnelc_zeros(nt: int) -> Any:
    """The first ``nt`` complex zeros of the Fresnel integral ``C(z)`` in the
    first quadrant.

    sciax implementation of :func:`scipy.special.fresnelc_zeros`.

    Parameters
    ----------
    nt : int
        Number of zeros (a Python int).

    Returns
    -------
    Array
        Complex.

    Notes
    -----
    Host-side ``nt``: Zhang and Jin's starting points refined by ten Newton
    steps, with ``C + i S`` from the complex :func:`erf`.

    Examples
    --------
    >>> from sciax.special import fresnelc_zeros
    >>> fresnelc_zeros(2).round(6)
    Array([1.743667+0.305735j, 2.65146 +0.252904j], dtype=complex128)
    """
    nt = _check_nt("fresnelc_zeros", nt)
    return _fresnel_newton(snp.asarray(_fresnel_start(nt, 0)), 0)


def fresnels_zeros(nt: int) -> Any:
    """The first ``nt`` complex zeros of the Fresnel integral ``S(z)`` in the
    first quadrant.

    sciax implementation of :func:`scipy.special.fresnels_zeros`.

    Parameters
    ----------
    nt : int
        Number of zeros (a Python int).

    Returns
    -------
    Array
        Complex.

    Examples
    --------
    >>> from sciax.special import fresnels_zeros
    >>> fresnels_zeros(2).round(6)
    Array([2.009257+0.288548j, 2.833477+0.244285j], dtype=complex128)
    """
    nt = _check_nt("fresnels_zeros", nt)
    return _fresnel_newton(snp.asarray(_fresnel_start(nt, 1)), 1)


def fresnel_zeros(nt: int) -> tuple:
    """The first ``nt`` complex zeros of ``S(z)`` and of ``C(z)``.

    sciax implementation of :func:`scipy.special.fresnel_zeros`.

    Parameters
    ----------
    nt : int
        Number of zeros (a Python int).

    Returns
    -------
    zs, zc : Array
        Zeros of ``S`` and of ``C`` (as SciPy: ``S``'s first).

    Examples
    --------
    >>> from sciax.special import fresnel_zeros
    >>> zs, zc = fresnel_zeros(1)
    >>> complex(zs[0].round(6)), complex(zc[0].round(6))
    ((2.009257+0.288548j), (1.743667+0.305735j))
    """
    return fresnels_zeros(nt), fresnelc_zeros(nt)


def lmbda(v: float, x: Any) -> tuple:
    """Lambda functions ``Gamma(n + 1) J_n(x) / (x/2)^n`` for the orders
    ``n = v0, v0 + 1, ..., v`` (``v0 = v - floor(v)``) and their derivatives.

    sciax implementation of :func:`scipy.special.lmbda`.

    Parameters
    ----------
    v : float
        Largest order (a Python number: ``floor(v)`` sets the output shape).
    x : array_like
        Argument.

    Returns
    -------
    vl, dl : Array, shape ``(floor(v) + 1,) + x.shape``

    Notes
    -----
    ``Lambda_n(x) = 0F1(; n + 1; -x^2/4)`` (:func:`hyp0f1`: no underflow of
    ``J_n`` and ``(x/2)^n`` near 0), and ``Lambda_n' = -x / (2 (n + 1))
    Lambda_{n+1}``.  Differentiable in ``x``.

    Examples
    --------
    >>> from sciax.special import lmbda
    >>> vl, dl = lmbda(1.0, 2.0)
    >>> vl.round(6), dl.round(6)
    (Array([0.223891, 0.576725], dtype=float64),
     Array([-0.576725, -0.352834], dtype=float64))
    """
    v = float(v)
    if not v >= 0:
        raise ValueError(f"lmbda: v must be >= 0, got {v}")
    (x,) = promote("lmbda", x)
    nv = int(math.floor(v))
    orders = snp.asarray(np.arange(nv + 2, dtype=float) + (v - nv), x.dtype)
    orders = orders.reshape((nv + 2,) + (1,) * snp.ndim(x))
    lam = hyp0f1(orders + 1.0, snp.broadcast_to(-0.25 * x * x, (nv + 2,) + x.shape))
    dl = -x / (2.0 * (orders[:-1] + 1.0)) * lam[1:]
    return lam[:-1], dl
