"""Zeta functions, exponential and trigonometric integrals, Lambert W.

Algorithms
----------
* Hurwitz zeta: twelve terms summed directly (more where ``q + k < 10``), then
  the Euler-Maclaurin formula with 14 Bernoulli corrections; value and
  ``d/ds`` are carried together (``d/ds`` sums ``-log(q+k) (q+k)^-s`` and the
  derivatives of the correction terms).  Riemann zeta for ``s < 0`` by the
  reflection formula.
* ``exp1``/``expn``: series for ``x <= 1``, Lentz's continued fraction
  beyond; ``expi``: series (positive terms) up to 40, asymptotic beyond.
* ``sici``/``shichi``: Maclaurin series for small arguments, the continued
  fraction of ``E1(ix)`` (``sici``) or ``Ei``/``E1`` (``shichi``) beyond.
* ``spence``: the dilogarithm series after the usual transformations to
  ``|w| <= 1/2``.
* ``lambertw``/``wrightomega``: Halley iterations from the standard initial
  guesses (branch-point series, asymptotic ``log z - log log z``).
"""

from __future__ import annotations

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _sfutil as U

__all__ = ["zeta", "zetac", "expi", "exp1", "expn", "sici", "shichi", "spence",
           "lambertw", "wrightomega"]

_EULER = 0.57721566490153286061
_PI = np.pi

# B_2j / (2j)! for j = 1..14 (Bernoulli numbers, exact rationals; SciPy's
# cephes zeta uses the same Euler-Maclaurin corrections).
_B2J = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
        43867 / 798, -174611 / 330, 854513 / 138, -236364091 / 2730,
        8553103 / 6, -23749461029 / 870]
_B2J_F = [b / float(np.prod(np.arange(1, 2 * j + 3, dtype=np.float64)))
          for j, b in enumerate(_B2J)]


_DIRECT = 12


def _hurwitz_pair(s, q, deriv=True):
    """(zeta(s, q), d/ds zeta(s, q)) for s != 1, q > 0 (or q < 0 with s
    integer); without ``deriv``, (zeta(s, q),).

    The loop for lanes with ``q + 12 < 10`` runs only when some lane of the
    array needs it: a loop in the program, even one that stops at once,
    makes XLA write the direct sums to memory and read them back."""
    if snp.ndim(q) == 0 and snp.ndim(s) == 0:
        return _hurwitz_terms(s, q, deriv, True)
    s, q = snp.broadcast_arrays(s, q)
    return tuple(lax.cond(snp.any(q + _DIRECT < 10.0),
                          lambda s, q: _hurwitz_terms(s, q, deriv, True),
                          lambda s, q: _hurwitz_terms(s, q, deriv, False), s, q))


def _hurwitz_terms(s, q, deriv, loop):
    # Twelve direct terms, unrolled (elementwise code that XLA fuses into one
    # pass over the arrays; a loop until q + k reached s + 28 streamed the
    # whole state through memory 30-50 times), then more only for the rare
    # lanes with a still below 10 (q < -2, integer s).  With a = q + 12 the
    # Euler-Maclaurin tail's 14 corrections are below rounding: where its
    # terms grow ((s + 2j) / (2 pi a) > 1, large s) they are weighted by
    # (q / a)^s relative to the sum.
    z = snp.zeros_like(s)
    dz = snp.zeros_like(s)
    a = q
    for _ in range(_DIRECT):
        t = snp.power(a, -s)
        z = z + t
        dz = dz - snp.log(snp.abs(a)) * t
        a = a + 1.0
    amin = 10.0

    def body(i, st):
        a, z, dz = st
        t = snp.power(a, -s)
        return (a + 1.0, z + t, dz - snp.log(snp.abs(a)) * t), a + 1.0 < amin

    if loop:
        a, z, dz = U.masked_loop(body, (a, z, dz), a < amin, 1 << 30)
    la = snp.log(a)
    ta = snp.power(a, -s)
    # Tail: a^(1-s)/(s-1) + a^-s/2 + sum_j B2j/(2j)! P_j(s) a^(-s-2j+1).
    sm1 = s - 1.0
    tail = a * ta / sm1
    z = z + tail + 0.5 * ta
    dz = dz - la * tail - tail / sm1 - 0.5 * la * ta
    p, dp = s, snp.ones_like(s)          # P_1 = s
    pw = ta / a                           # a^(-s-1)
    ia2 = 1.0 / (a * a)
    for j, c in enumerate(_B2J_F):
        t = c * p * pw
        z = z + t
        dz = dz + c * (dp * pw - la * p * pw)
        # P_{j+1} = P_j (s + 2j + 1)(s + 2j + 2)
        f1, f2 = s + 2.0 * j + 1.0, s + 2.0 * j + 2.0
        dp = dp * f1 * f2 + p * (f1 + f2)
        p = p * f1 * f2
        pw = pw * ia2
    return (z, dz) if deriv else (z,)


@sciax.custom_jvp
def _hurwitz(s, q):
    # CHLO's zeta (XLA's Euler-Maclaurin, within 1e-15 of SciPy's for q > 0
    # and s > 1, and faster than the sum below, which XLA's pow makes
    # expensive) where it is accurate; the sum elsewhere, computed only for
    # arrays that have such lanes
    def mixed(s, q):
        f = _fast(s, q)
        own = _hurwitz_pair(snp.where(f, 2.0, s), snp.where(f, 1.0, q), False)[0]
        return snp.where(f, lax.zeta(snp.where(f, s, 2.0), snp.where(f, q, 1.0)),
                         own)

    if snp.ndim(s) == 0 and snp.ndim(q) == 0:
        return mixed(s, q)
    s, q = snp.broadcast_arrays(s, q)
    return lax.cond(snp.all(_fast(s, q)), lax.zeta, mixed, s, q)


def _fast(s, q):
    """Where CHLO's zeta is accurate (and SciPy's edge values need no fix):
    1 < s < inf, 0 < q < 1e4 (near underflow, for huge q, it loses digits)."""
    return (s > 1.0) & (s < np.inf) & (q > 0.0) & (q < 1e4)


@_hurwitz.defjvp
def _hurwitz_jvp(primals, tangents):
    s, q = primals
    ds, dq = tangents
    z, dzs = _hurwitz_pair(s, q)
    # d/dq zeta(s, q) = -s zeta(s+1, q).
    return z, dzs * ds - s * _hurwitz(s + 1.0, q) * dq


@sciax.custom_jvp
def _hurwitz_fast(s, q):
    """``_hurwitz`` where every lane is in :func:`_fast`'s range."""
    return lax.zeta(s, q)


_hurwitz_fast.defjvp(_hurwitz_jvp)


def _riemann(s):
    """Riemann zeta for real s (reflection for s < 0)."""
    neg = s < 0
    sp = snp.where(neg, 1.0 - s, s)
    sp = snp.where(sp == 1.0, 2.0, sp)
    z = _hurwitz(sp, snp.ones_like(s))
    # zeta(s) = 2^s pi^(s-1) sin(pi s/2) Gamma(1-s) zeta(1-s).
    t = snp.where(neg, 1.0 - s, 2.0)
    lg = s * np.log(2.0) + (s - 1.0) * np.log(_PI) + lax.lgamma(t)
    refl = U.sinpi(0.5 * s) * snp.exp(lg) * z
    refl = snp.where(U.is_int(0.5 * s) & neg, 0.0, refl)   # trivial zeros
    r = snp.where(neg, refl, z)
    return snp.where(s == 1.0, snp.inf, r)


def zeta(x, q=None):
    r"""Riemann or Hurwitz zeta function.

    ``zeta(x)`` is :math:`\zeta(x)` for all real ``x`` (reflection for
    ``x < 0``); ``zeta(x, q)`` is :math:`\sum_k (k+q)^{-x}`, defined (as in
    SciPy) for ``x > 1``; NaN for ``x < 1``, ``inf`` at ``x = 1`` and at
    non-positive integer ``q``.  Differentiable in ``x`` (Euler-Maclaurin
    with the derivative carried along) and in ``q``.

    Examples
    --------
    >>> from sciax.special import zeta
    >>> print(np.round(zeta(np.array([2.0, 3.0, -1.0])), 6))
    [ 1.644934  1.202057 -0.083333]
    >>> print(np.round(zeta(2.0, 0.5), 6))
    4.934802
    """
    if q is None:
        (s,), out = U.promote_real("zeta", x)
        r = _riemann(s)
        return U.finish(out, snp.where(snp.isnan(s), snp.nan, r))
    (s, q), out = U.promote_real("zeta", x, q)
    if snp.ndim(s) == 0 and snp.ndim(q) == 0:
        return U.finish(out, _zeta_edges(s, q))
    s, q = snp.broadcast_arrays(s, q)
    # arrays with every lane where CHLO's zeta is accurate need no edge fixes
    r = lax.cond(snp.all(_fast(s, q)), _hurwitz_fast, _zeta_edges, s, q)
    return U.finish(out, r)


def _zeta_edges(s, q):
    qpole = (q <= 0) & U.is_int(q)
    bad = (s < 1.0) | ((q < 0) & ~U.is_int(s))
    ss = snp.where(bad | (s == 1.0), 2.0, s)
    qs = snp.where(qpole, 0.5, q)
    r = _hurwitz(ss, qs)
    r = snp.where(s == 1.0, snp.inf, r)
    r = snp.where(bad, snp.nan, r)
    r = snp.where(qpole & (s >= 1.0), snp.inf, r)
    return snp.where(snp.isnan(s) | snp.isnan(q), snp.nan, r)


def zetac(x):
    r"""Riemann zeta function minus 1, :math:`\zeta(x) - 1`.

    Summed from ``k = 2`` for ``x > 1`` (no cancellation for large ``x``).

    Examples
    --------
    >>> from sciax.special import zetac
    >>> print(zetac(np.array([2.0, 60.0])))
    [6.44934067e-01 8.67361738e-19]
    """
    (s,), out = U.promote_real("zetac", x)
    big = s > 1.0
    r = snp.where(big, _hurwitz(snp.where(big, s, 2.0), snp.full_like(s, 2.0)),
                  _riemann(snp.where(big, 0.0, s)) - 1.0)
    r = snp.where(snp.isposinf(s), 0.0, r)
    return U.finish(out, r)


# --------------------------------------------------------------------------
# Exponential integrals
# --------------------------------------------------------------------------

def _en_pair(n, x):
    """E_n(x) for integer n >= 0, x > 0 (NR's expint, vectorised)."""
    e = U.eps(x)
    tiny = 2.0 ** -900 if x.dtype == snp.float64 else 2.0 ** -100
    cf = x > 1.0
    xc = snp.where(cf, x, 2.0)
    # Lentz's continued fraction.
    b0 = xc + n
    c0 = snp.full_like(x, 1.0 / tiny)
    d0 = 1.0 / b0

    def cfb(i, st):
        b, c, d, h = st
        k = i + 1.0
        an = -k * (n - 1.0 + k)
        b = b + 2.0
        d = 1.0 / (an * d + b)
        c = b + an / c
        de = c * d
        return (b, c, d, h * de), snp.abs(de - 1.0) >= e

    h = U.masked_loop(cfb, (b0, c0, d0, d0), cf, 100000)[3]
    r_cf = h * snp.exp(-xc)
    # Series (x <= 1).
    xs = snp.where(cf, 0.5, x)
    nm1 = n - 1.0
    ans0 = snp.where(nm1 != 0, 1.0 / snp.where(nm1 != 0, nm1, 1.0), -snp.log(xs) - _EULER)

    def ser(i, st):
        fact, ans = st
        k = i + 1.0
        fact = -fact * xs / k
        # psi(n) = -gamma + sum_{m=1}^{n-1} 1/m (n >= 1).
        de_reg = -fact / (k - nm1)
        psi = -_EULER + _harm(nm1)
        de_sp = fact * (-snp.log(xs) + psi)
        de = snp.where(k == nm1, de_sp, de_reg)
        return (fact, ans + de), snp.abs(de) >= snp.abs(ans) * e

    r_s = U.masked_loop(ser, (snp.ones_like(x), ans0), ~cf, 1000)[1]
    return snp.where(cf, r_cf, r_s)


def _harm(m):
    """Harmonic number H_m for integer m >= 0, by digamma."""
    return lax.digamma(m + 1.0) + _EULER


def _en(n, x):
    r = _en_pair(snp.maximum(n, 1.0), x)
    return snp.where(n == 0, snp.exp(-x) / x, r)


@sciax.custom_jvp
def _en_d(n, x):
    return _en(n, x)


@_en_d.defjvp
def _en_d_jvp(primals, tangents):
    n, x = primals
    _, dx = tangents
    r = _en_d(n, x)
    prev = snp.where(n >= 1.0, _en_d(snp.maximum(n - 1.0, 0.0), x), 0.0)
    # d/dx E_n = -E_{n-1}; E_0' = -(1 + 1/x) E_0.
    d = snp.where(n >= 1.0, -prev, -(1.0 + 1.0 / x) * r)
    return r, d * dx


def exp1(x):
    r"""Exponential integral :math:`E_1(x) = \int_x^\infty e^{-t}/t\,dt`.

    Real ``x``: ``inf`` at 0 and NaN for ``x < 0`` (as SciPy's real ufunc).

    Examples
    --------
    >>> from sciax.special import exp1
    >>> print(np.round(exp1(np.array([0.5, 1.0, 2.0])), 6))
    [0.559774 0.219384 0.048901]
    """
    (x,), out = U.promote_real("exp1", x)
    pos = x > 0
    r = _en_d(snp.ones_like(x), snp.where(pos, x, 1.0))
    r = snp.where(x == 0, snp.inf, snp.where(pos, r, snp.nan))
    r = snp.where(snp.isposinf(x), 0.0, r)
    return U.finish(out, r)


def expn(n, x):
    r"""Generalised exponential integral :math:`E_n(x)`.

    Integer ``n >= 0`` (a float ``n`` is truncated, as in SciPy), ``x >= 0``;
    differentiable in ``x`` (:math:`E_n' = -E_{n-1}`), not in ``n``.

    Examples
    --------
    >>> from sciax.special import expn
    >>> print(np.round(expn(np.array([0, 1, 3]), 1.0), 6))
    [0.367879 0.219384 0.109692]
    """
    (nf, x), out = U.promote_real("expn", n, x)
    nf = lax.stop_gradient(snp.trunc(nf))
    ok = (nf >= 0) & (x >= 0)
    pos = x > 0
    r = _en_d(snp.where(ok, nf, 1.0), snp.where(pos, x, 1.0))
    r0 = snp.where(nf > 1, 1.0 / snp.maximum(nf - 1.0, 1.0), snp.inf)
    r = snp.where(x == 0, r0, r)
    r = snp.where(snp.isposinf(x), 0.0, r)
    r = snp.where(ok, r, snp.nan)
    return U.finish(out, r)


def _ei_pos(x):
    """Ei(x) for x > 0: series up to 40, asymptotic expansion beyond."""
    e = U.eps(x)
    small = x <= 40.0
    xs = snp.where(small, x, 1.0)

    def ser(i, st):
        t, s = st
        k = i + 1.0
        t = t * xs / k
        de = t / k
        return (t, s + de), de >= e * s

    s = U.masked_loop(ser, (snp.ones_like(x), snp.zeros_like(x)), small, 1000)[1]
    r_s = _EULER + snp.log(xs) + s
    xl = snp.where(small, 50.0, x)

    def asy(i, st):
        t, s = st
        k = i + 1.0
        tn = t * k / xl
        ok = tn < t
        return (tn, s + snp.where(ok, tn, 0.0)), ok & (tn >= e * s)

    s = U.masked_loop(asy, (snp.ones_like(x), snp.ones_like(x)), ~small, 1000)[1]
    h = snp.exp(0.5 * xl)
    r_a = (h / xl) * s * h
    return snp.where(small, r_s, r_a)


@sciax.custom_jvp
def _ei(x):
    pos = x > 0
    e1 = _en(snp.ones_like(x), snp.where(pos, 1.0, -x))
    return snp.where(pos, _ei_pos(snp.where(pos, x, 1.0)), -e1)


@_ei.defjvp
def _ei_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _ei(x), snp.exp(x) / x * dx


def expi(x):
    r"""Exponential integral :math:`\mathrm{Ei}(x)`.

    ``Ei(x) = -E_1(-x)`` for ``x < 0``; ``-inf`` at 0.

    Examples
    --------
    >>> from sciax.special import expi
    >>> print(np.round(expi(np.array([-1.0, 1.0, 50.0])), 6))
    [-2.19384e-01  1.895118e+00  1.058563e+20]
    """
    (x,), out = U.promote_real("expi", x)
    xs = snp.where((x == 0) | snp.isinf(x), 1.0, x)
    r = _ei(xs)
    r = snp.where(x == 0, -snp.inf, r)
    r = snp.where(snp.isposinf(x), snp.inf, snp.where(snp.isneginf(x), 0.0, r))
    return U.finish(out, r)


# --------------------------------------------------------------------------
# Sine/cosine and hyperbolic sine/cosine integrals
# --------------------------------------------------------------------------

def _sici_pos(t):
    """(Si, Ci) for t > 0."""
    e = U.eps(t)
    small = t <= 2.0
    ts = snp.where(small, t, 1.0)
    t2 = ts * ts

    def ser(i, st):
        term, si, ci = st                      # term = (-1)^k t^k / k!
        k = i + 1.0
        term = term * ts / k
        odd = (k % 2.0) == 1.0
        sgn = snp.where((k % 4.0) < 2.0, 1.0, -1.0)   # k=1:+ (Si), k=2:- (Ci), ...
        de = sgn * term / k
        si = snp.where(odd, si + de, si)
        ci = snp.where(odd, ci, ci + de)
        return (term, si, ci), snp.abs(de) >= e * (snp.abs(si) + snp.abs(ci))

    _, si, ci = U.masked_loop(ser, (snp.ones_like(t), snp.zeros_like(t),
                                    snp.zeros_like(t)), small, 200)
    si_s, ci_s = si, _EULER + snp.log(ts) + ci
    del t2
    # E1(i t) by its continued fraction in complex arithmetic (t > 2).
    tl = snp.where(small, 3.0, t)
    br, bi = snp.ones_like(t), tl
    tiny = 2.0 ** -900 if t.dtype == snp.float64 else 2.0 ** -100
    cr, ci_ = snp.full_like(t, 1.0 / tiny), snp.zeros_like(t)
    den = br * br + bi * bi
    dr, di = br / den, -bi / den
    hr, hi = dr, di

    def cfb(i, st):
        br, cr, ci_, dr, di, hr, hi = st
        k = i + 2.0
        a = -(k - 1.0) ** 2
        br = br + 2.0
        # d = 1/(a d + b)
        ur, ui = a * dr + br, a * di + bi
        den = ur * ur + ui * ui
        dr, di = ur / den, -ui / den
        # c = b + a/c
        den = cr * cr + ci_ * ci_
        cr, ci_ = br + a * cr / den, bi - a * ci_ / den
        der, dei = cr * dr - ci_ * di, cr * di + ci_ * dr
        hr, hi = hr * der - hi * dei, hr * dei + hi * der
        return (br, cr, ci_, dr, di, hr, hi), snp.abs(der - 1.0) + snp.abs(dei) >= e

    st = U.masked_loop(cfb, (br, cr, ci_, dr, di, hr, hi), ~small, 100000)
    hr, hi = st[5], st[6]
    c, s = snp.cos(tl), snp.sin(tl)
    hr, hi = hr * c + hi * s, hi * c - hr * s
    si_l, ci_l = 0.5 * _PI + hi, -hr
    return snp.where(small, si_s, si_l), snp.where(small, ci_s, ci_l)


@sciax.custom_jvp
def _sici(x):
    return _sici_pos(x)


@_sici.defjvp
def _sici_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _sici(x), (snp.sin(x) / x * dx, snp.cos(x) / x * dx)


def sici(x):
    r"""Sine and cosine integrals :math:`\mathrm{Si}(x)`, :math:`\mathrm{Ci}(x)`.

    For ``x < 0``, ``Si`` is odd and ``Ci`` returns the real part
    ``Ci(|x|)``, as SciPy does.

    Examples
    --------
    >>> from sciax.special import sici
    >>> si, ci = sici(np.array([1.0, 10.0]))
    >>> print(np.round(si, 6), np.round(ci, 6))
    [0.946083 1.658348] [ 0.337404 -0.045456]
    """
    (x,), out = U.promote_real("sici", x)
    ax = snp.abs(x)
    xs = snp.where((ax > 0) & snp.isfinite(ax), ax, 1.0)
    si, ci = _sici(xs)
    si = snp.where(x < 0, -si, si)
    si = snp.where(x == 0, 0.0, snp.where(snp.isinf(x), snp.sign(x) * 0.5 * _PI, si))
    ci = snp.where(x == 0, -snp.inf, snp.where(snp.isinf(x), 0.0, ci))
    nan = snp.isnan(x)
    return U.finish(out, snp.where(nan, snp.nan, si), snp.where(nan, snp.nan, ci))


def _shichi_pos(t):
    e = U.eps(t)
    small = t <= 40.0
    ts = snp.where(small, t, 1.0)

    def ser(i, st):
        term, sh, ch = st
        k = i + 1.0
        term = term * ts / k
        odd = (k % 2.0) == 1.0
        de = term / k
        sh = snp.where(odd, sh + de, sh)
        ch = snp.where(odd, ch, ch + de)
        return (term, sh, ch), de >= e * (sh + ch)

    _, sh, ch = U.masked_loop(ser, (snp.ones_like(t), snp.zeros_like(t),
                                    snp.zeros_like(t)), small, 1000)
    tl = snp.where(small, 50.0, t)
    ei = _ei_pos(tl)
    e1 = _en(snp.ones_like(t), tl)
    return (snp.where(small, sh, 0.5 * (ei - e1)),
            snp.where(small, _EULER + snp.log(ts) + ch, 0.5 * (ei + e1)))


@sciax.custom_jvp
def _shichi(x):
    return _shichi_pos(x)


@_shichi.defjvp
def _shichi_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _shichi(x), (snp.sinh(x) / x * dx, snp.cosh(x) / x * dx)


def shichi(x):
    r"""Hyperbolic sine and cosine integrals :math:`\mathrm{Shi}`, :math:`\mathrm{Chi}`.

    For ``x < 0``, ``Shi`` is odd and ``Chi`` returns the real part
    ``Chi(|x|)``, as SciPy does.

    Examples
    --------
    >>> from sciax.special import shichi
    >>> sh, ch = shichi(np.array([0.5, 2.0]))
    >>> print(np.round(sh, 6), np.round(ch, 6))
    [0.506997 2.501567] [-0.052777  2.452667]
    """
    (x,), out = U.promote_real("shichi", x)
    ax = snp.abs(x)
    xs = snp.where((ax > 0) & snp.isfinite(ax), ax, 1.0)
    sh, ch = _shichi(xs)
    sh = snp.where(x < 0, -sh, sh)
    sh = snp.where(x == 0, 0.0, snp.where(snp.isinf(x), x, sh))
    ch = snp.where(x == 0, -snp.inf, snp.where(snp.isinf(x), snp.inf, ch))
    nan = snp.isnan(x)
    return U.finish(out, snp.where(nan, snp.nan, sh), snp.where(nan, snp.nan, ch))


# --------------------------------------------------------------------------
# Dilogarithm
# --------------------------------------------------------------------------

def _li2_small(w):
    """Li2(w) = sum w^k/k^2 for |w| <= 1/2."""
    e = U.eps(w)

    def body(i, st):
        p, s = st
        k = i + 1.0
        p = p * w
        de = p / (k * k)
        return (p, s + de), snp.abs(de) >= e * snp.abs(s)

    return U.masked_loop(body, (snp.ones_like(w), snp.zeros_like(w)),
                         snp.ones_like(w, dtype=bool), 200)[1]


def _li2(w):
    """Li2(w) for real w <= 1."""
    z6 = _PI * _PI / 6.0
    # w < -1: Li2(w) = -pi^2/6 - log(-w)^2/2 - Li2(1/w).
    inv = w < -1.0
    u = snp.where(inv, 1.0 / snp.where(inv, w, 1.0), w)          # u in [-1, 1]
    # u in [-1, -1/2): Li2(u) = -log(1-u)^2/2 - Li2(u/(u-1)), u/(u-1) in (1/3, 1/2].
    a = u < -0.5
    # u in (1/2, 1]: Li2(u) = pi^2/6 - log(u) log(1-u) - Li2(1-u).
    b = u > 0.5
    arg = snp.where(a, u / (u - 1.0), snp.where(b, 1.0 - u, u))
    l = _li2_small(arg)
    l1u = snp.log1p(-snp.where(b | (u == 1.0), 0.0, u))
    lu = snp.log(snp.where(b, u, 1.0))
    lb = snp.log(snp.where(b & (u < 1.0), 1.0 - u, 1.0))
    r = snp.where(a, -0.5 * l1u * l1u - l,
                  snp.where(b, z6 - lu * lb - l, l))
    lw = snp.log(snp.where(inv, -w, 1.0))
    return snp.where(inv, -z6 - 0.5 * lw * lw - r, r)


@sciax.custom_jvp
def _spence(z):
    return _li2(1.0 - z)


@_spence.defjvp
def _spence_jvp(primals, tangents):
    (z,), (dz,) = primals, tangents
    # d/dz Li2(1 - z) = log(z) / (1 - z), -1 at z = 1.
    one = z == 1.0
    d = snp.where(one, -1.0, snp.log(z) / snp.where(one, 2.0, 1.0 - z))
    return _spence(z), d * dz


def spence(z):
    r"""Spence's function :math:`\int_1^z \log t/(1-t)\,dt = \mathrm{Li}_2(1-z)`.

    Real ``z >= 0`` (NaN for ``z < 0``, as SciPy's real ufunc).

    Examples
    --------
    >>> from sciax.special import spence
    >>> print(np.round(spence(np.array([0.0, 1.0, 2.0])), 6))
    [ 1.644934  0.       -0.822467]
    """
    (z,), out = U.promote_real("spence", z)
    ok = z >= 0
    r = _spence(snp.where(ok & snp.isfinite(z), z, 1.0))
    r = snp.where(snp.isposinf(z), -snp.inf, r)
    return U.finish(out, snp.where(ok, r, snp.nan))


# --------------------------------------------------------------------------
# Lambert W and Wright omega
# --------------------------------------------------------------------------

# e = _E_HI + _E_LO (double-double), and _E_HI = _E_HH + _E_HL (Dekker split).
_E_HI = float(np.e)
_E_LO = 1.4456468917292502e-16
_E_HH = 2.7182818055152893
_E_HL = 2.2943755784154973e-08


def _lambertw_c(z, k):
    """Principal-value-consistent branch k of W for complex z (Halley)."""
    e = U.eps(z.real)
    # e z + 1 in double-double arithmetic (Dekker's exact product): near the
    # branch point -1/e it cancels, and W depends on its square root.
    x = z.real
    h = _E_HI * x
    sp = 134217729.0 * x                                  # Dekker split, 2^27 + 1
    xh = sp - (sp - x)
    xl = x - xh
    lo = ((_E_HH * xh - h) + _E_HH * xl + _E_HL * xh) + _E_HL * xl
    ez1 = lax.complex((h + 1.0) + (lo + _E_LO * x), np.e * z.imag)
    # Branch-point series (Corless et al. 1996, eq. 4.22) in p = sqrt(2(ez+1)).
    p = snp.sqrt(2.0 * ez1)
    near = snp.abs(ez1) < 0.3
    p = snp.where((k == -1) & (z.imag <= 0) & near, -p, p)
    w_bp = snp.zeros_like(p)
    for c in [226287557 / 37623398400, -1963 / 204120, 680863 / 43545600,
              -221 / 8505, 769 / 17280, -43 / 540, 11 / 72, -1 / 3, 1.0, -1.0]:
        w_bp = w_bp * p + c
    # Asymptotic guess log z + 2 pi i k - log(log z + 2 pi i k).
    lz = snp.log(snp.where(z == 0, 1.0, z)) + 2j * _PI * k
    w_as = lz - snp.log(snp.where(lz == 0, 1.0, lz))
    # Near 0 on the principal branch: W ~ z.
    # Moderate z on the principal branch: W ~ log(1 + z).
    w_0 = snp.log(1.0 + z)
    use_bp = near & ((k == 0) | ((k == -1) & (z.imag <= 0) & (snp.abs(z) < 1.0)))
    w = snp.where(use_bp, w_bp, snp.where((k == 0) & (snp.abs(z) < 3.0) & (z.real > -0.3), w_0, w_as))
    w = snp.where((k == -1) & (z.imag == 0) & (z.real < 0) & (z.real > -0.25),
                  snp.log(-z.real) - snp.log(-snp.log(-z.real)) + 0j, w)

    def body(i, st):
        (w,) = st
        ew = snp.exp(w)
        f = w * ew - z
        wp1 = w + 1.0
        dn = ew * wp1 - (w + 2.0) * f / (2.0 * snp.where(wp1 == 0, 1e-300, wp1))
        wn = snp.where((dn == 0) | (f == 0), w, w - f / snp.where(dn == 0, 1.0, dn))
        return (wn,), snp.abs(wn - w) > 4.0 * e * snp.abs(wn)

    # Close to the branch point the series is exact (error ~ p^10/300).
    run = ~(use_bp & (snp.abs(p) < 0.03))
    (w,) = U.masked_loop(body, (w,), run, 100)
    return w


def lambertw(z, k=0, tol=1e-8):
    r"""Lambert W function, branch ``k``: the solution of :math:`w e^w = z`.

    Complex output (as SciPy), real or complex ``z``.  Halley iterations to
    full precision (``tol`` is accepted for SciPy compatibility).  The
    derivative is :math:`W/(z(1+W))`.

    Examples
    --------
    >>> from sciax.special import lambertw
    >>> w = lambertw(np.array([1.0, -0.2]))
    >>> print(np.round(w.real, 6), np.round(w.imag, 6))
    [ 0.567143 -0.259171] [0. 0.]
    """
    del tol
    z = snp.asarray(z)
    if snp.issubdtype(z.dtype, snp.complexfloating):
        zc = z.astype(snp.complex128 if sciax.config.enable_x64 else snp.complex64)
        out = z.dtype
    else:
        (zr,), outr = U.promote_real("lambertw", z)
        zc = lax.complex(zr, snp.zeros_like(zr))
        out = snp.result_type(outr, snp.complex64)
    kk = snp.asarray(k)
    if not snp.issubdtype(kk.dtype, snp.integer):
        raise TypeError(f"lambertw: the branch k must be an integer, got {kk.dtype}")
    zc, kk = snp.broadcast_arrays(zc, kk.astype(zc.real.dtype))
    w = _lambertw_c_d(zc, kk)
    w = snp.where((zc == 0) & (kk == 0), 0.0 + 0j, w)
    w = snp.where((zc == 0) & (kk != 0), -snp.inf + 0j, w)
    return w.astype(out)


@sciax.custom_jvp
def _lambertw_c_d(z, k):
    return _lambertw_c(z, k)


@_lambertw_c_d.defjvp
def _lambertw_jvp(primals, tangents):
    z, k = primals
    dz, _ = tangents
    w = _lambertw_c_d(z, k)
    zs = snp.where(z == 0, 1.0, z)
    d = snp.where(z == 0, 1.0 + 0j, w / (zs * (1.0 + w)))
    return w, d * dz


def _wright_real(x):
    e = U.eps(x)
    # Initial guesses: x - log x for large x, log(1 + e^x) otherwise.
    w = snp.where(x > 2.0, x - snp.log(snp.abs(x)), snp.log1p(snp.exp(x)))

    def body(i, st):
        (w,) = st
        # Halley on f(w) = w + log w - x.
        f = w + snp.log(w) - x
        f1 = 1.0 + 1.0 / w
        f2 = -1.0 / (w * w)
        wn = w - f / (f1 - 0.5 * f * f2 / f1)
        wn = snp.where(wn <= 0, 0.5 * w, wn)
        return (wn,), snp.abs(wn - w) > 2.0 * e * snp.abs(wn)

    (w,) = U.masked_loop(body, (w,), snp.ones_like(x, dtype=bool) & (x > -700.0), 100)
    return snp.where(x <= -700.0, snp.exp(x), w)


@sciax.custom_jvp
def _wright(x):
    return _wright_real(x)


@_wright.defjvp
def _wright_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    w = _wright(x)
    return w, w / (1.0 + w) * dx


def wrightomega(z):
    r"""Wright omega function, the solution of :math:`\omega + \log\omega = z`.

    Real ``z`` (complex ``z`` is not supported: TypeError).  The derivative is
    :math:`\omega/(1+\omega)`.

    Examples
    --------
    >>> from sciax.special import wrightomega
    >>> print(np.round(wrightomega(np.array([-2.0, 0.0, 10.0])), 6))
    [0.120028 0.567143 7.92942 ]
    """
    (x,), out = U.promote_real("wrightomega", z)
    xs = snp.where(snp.isfinite(x), x, 0.0)
    r = _wright(xs)
    r = snp.where(snp.isposinf(x), snp.inf, snp.where(snp.isneginf(x), 0.0, r))
    return U.finish(out, snp.where(snp.isnan(x), snp.nan, r))
