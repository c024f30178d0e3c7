"""Bessel functions of real order and real argument, and their relatives.

Algorithms
----------
``J_v, Y_v`` and ``I_v, K_v`` for ``v >= 0, x > 0`` follow Temme's method
(N. M. Temme, J. Comput. Phys. 19 (1975) 324 and 21 (1976) 343, as laid out
in Numerical Recipes' ``bessjy``/``bessik``): the order is split as
``v = mu + n`` with ``|mu| <= 1/2``; a continued fraction (CF1) gives the
ratio ``f'_v/f_v``, a downward recurrence carries it to ``mu``; ``Y_mu``
(``K_mu``) comes from Temme's series for ``x < 2`` or Steed's/Temme's second
continued fraction for ``x >= 2``; the Wronskian fixes the scale of
``J_mu`` (``I_mu``), and an upward recurrence gives ``Y_v`` (``K_v``).
The recurrences are rescaled by powers of two so that tiny ``J_v``/``I_v``
underflow gracefully instead of overflowing the intermediate values.
For ``x`` large compared with ``v**2`` Hankel's asymptotic expansions are
used (their terms are then small enough to reach full precision).

Negative orders use the reflection formulas (DLMF 10.4.6, 10.27.2/3),
negative ``x`` the parity of integer orders (a non-integer order at a
negative argument is complex-valued: NaN, as SciPy returns).

Derivatives: in ``x`` by the Bessel differential equation (every derivative
order stays within the (f, f') pair the algorithm returns); in the order by a
fourth-order central difference of ``log|f|`` where ``f`` cannot change sign
across the stencil (``x < v``, and always for ``I_v, K_v``) and of ``f``
itself elsewhere; the relative accuracy is about 1e-11 (tested against
mpmath).  Only real arguments are supported (complex ``z`` raises TypeError).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _sfutil as U
from sciax.special._util import chunked, converge, fast_two_sum, polyval_estrin, two_prod

__all__ = [
    "jv", "yv", "iv", "kv", "jve", "yve", "ive", "kve", "jn", "yn",
    "j0", "j1", "y0", "y1", "i0", "i0e", "i1", "i1e", "k0", "k0e", "k1", "k1e",
    "hankel1", "hankel2", "hankel1e", "hankel2e",
    "spherical_jn", "spherical_yn", "spherical_in", "spherical_kn",
    "airy", "airye", "struve", "modstruve",
]

_PI = np.pi
# whole-block steps of Temme's CF2 before its slow elements go in groups
_CF2_FIRST = 30
_CF2_UNROLL = 1

# Taylor coefficients of 1/Gamma(1+z) at z = 0 (computed with mpmath at 40
# digits; A&S 6.1.34 lists the same numbers to 16 places).
_RGAM = [1.0, 0.57721566490153286061, -0.65587807152025388108,
         -0.042002635034095235529, 0.1665386113822914895,
         -0.042197734555544336748, -0.0096219715278769735621,
         0.0072189432466630995424, -0.0011651675918590651121,
         -0.00021524167411495097282, 0.00012805028238811618615,
         -0.000020134854780788238656, -1.2504934821426706573e-6,
         1.1330272319816958824e-6, -2.0563384169776071035e-7,
         6.1160951044814158179e-9, 5.0020076444692229301e-9,
         -1.1812745704870201446e-9, 1.0434267116911005105e-10,
         7.782263439905071254e-12, -3.6968056186422057082e-12,
         5.100370287454475979e-13, -2.0583260535665067832e-14,
         -5.3481225394230179824e-15, 1.2267786282382607902e-15,
         -1.1812593016974587695e-16, 1.1866922547516003326e-18,
         1.4123806553180317816e-18]


def _temme_gammas(mu):
    """Temme's gamma_1, gamma_2 and 1/Gamma(1 +- mu) for |mu| <= 1/2."""
    m2 = mu * mu
    odd = _RGAM[1::2][::-1]
    even = _RGAM[0::2][::-1]
    g1 = snp.zeros_like(mu)
    for c in odd:
        g1 = g1 * m2 + c
    g2 = snp.zeros_like(mu)
    for c in even:
        g2 = g2 * m2 + c
    g1 = -g1
    return g1, g2, g2 - mu * g1, g2 + mu * g1


def _hankel_region(v, x):
    # Hankel's expansions reach full precision when x is large compared with
    # v**2 (their smallest term, about e^-2x for small v, is then below eps,
    # and their largest not far above 1).  Against mpmath, as a fraction of
    # the envelope sqrt(2/(pi x)): within 1.7e-15 for x > 18 (v < 10) and
    # x > 44 (v < 20), where Temme's method is at 2.5e-15 to 7e-15; near a
    # zero of J_v that is the relative error's scale, and Temme's CF1
    # (about x steps of the recurrence) gave 1.9e-10 relative at
    # jv(0.113, 24.53) where the expansion gives 7e-12 (session 14; before,
    # x > 25 + v**2/2).  Below x = 18 the series diverges before reaching eps.
    return x > 18.0 + 0.1 * v * v


def _hankel_sums(v, x, sign):
    """P, Q (sign=-1: J/Y) or S (sign=+1: I/K) of Hankel's expansions.

    Returns (P, Q) with P = sum over even k and Q over odd k of the terms
    t_k = a_k(v)/x^k, signs alternating every other term for J/Y.
    """
    e = U.eps(x)
    mu4 = 4.0 * v * v
    one = snp.ones_like(x)

    def body(k, st):
        t, p, q = st
        kf = k + 1.0
        t_new = t * (mu4 - (2.0 * kf - 1.0) ** 2) / (8.0 * kf * x)
        is_odd = (kf % 2.0) == 1.0
        sgn = snp.where((kf % 4.0) < 2.0, 1.0, -1.0) if sign < 0 else 1.0
        # J/Y: P = t0 - t2 + t4..., Q = t1 - t3 + ...; I/K: plain signs.
        p = snp.where(is_odd, p, p + sgn * t_new)
        q = snp.where(is_odd, q + sgn * t_new, q)
        more = snp.abs(t_new) > e * (snp.abs(p) + snp.abs(q))
        return (t_new, p, q), more

    st = U.masked_loop(body, (one, one, snp.zeros_like(x)),
                       snp.ones_like(x, dtype=bool), 200)
    return st[1], st[2]


def _jy_hankel(v, x):
    """J, Y, J', Y' from Hankel's expansions (x large)."""
    vv = snp.stack([v, v + 1.0])
    xx = snp.stack([x, x])
    p, q = _hankel_sums(vv, xx, -1)
    # omega = x - (2v+1) pi/4; cos/sin of x and of the phase separately so
    # that the phase is reduced exactly.
    ph = 0.25 * (2.0 * vv + 1.0)
    cp, sp = U.cospi(ph), U.sinpi(ph)
    cx, sx = snp.cos(xx), snp.sin(xx)
    co = cx * cp + sx * sp
    so = sx * cp - cx * sp
    amp = snp.sqrt(2.0 / (_PI * xx))
    j = amp * (p * co - q * so)
    y = amp * (p * so + q * co)
    jp = v / x * j[0] - j[1]
    yp = v / x * y[0] - y[1]
    return j[0], y[0], jp, yp


def _ratio_cf(v, x, s):
    """r = f_{v+1}/f_v from the recurrence f_{k-1} = (2k/x) f_k + s f_{k+1}.

    Continued fraction r = 1/(b_1 + s/(b_2 + s/(b_3 + ...))), b_j = 2(v+j)/x,
    by the modified Lentz method (s = -1: J, about x iterations when x > v;
    s = +1: I).  Also returns the sign of the minimal solution at v relative
    to its values at large order (the product of the signs of the D_j).
    """
    e = U.eps(x)
    tiny = 2.0 ** -900 if x.dtype == snp.float64 else 2.0 ** -100
    xi2 = 2.0 / x

    def body(j, st):
        f, c, d, sg = st
        jj = j + 1.0
        b = (v + jj) * xi2
        a = snp.where(jj == 1.0, 1.0, s)
        d = b + a * d
        d = snp.where(d == 0, tiny, d)
        c = b + a / c
        c = snp.where(c == 0, tiny, c)
        d = 1.0 / d
        de = c * d
        sg = snp.where(d < 0, -sg, sg)
        return (f * de, c, d, sg), snp.abs(de - 1.0) >= e

    t = tiny * snp.ones_like(x)
    f, _, _, sg = U.masked_loop(body, (t, t, 0.0 * t, snp.ones_like(x)),
                                snp.ones_like(x, dtype=bool), 200000)
    return f, sg


def _ratio_down(v, x, nl, s):
    """Carry (f_v, f_v+1) = (sgn, sgn r_v) down nl steps to (f_mu, f_mu+1).

    Returns (sgn, r_v, r_mu = f_mu+1/f_mu, f_mu, ns); the pair is rescaled by
    2**-600 whenever it grows past 2**600 (2**60 in float32; ns counts the
    rescalings), so f_v / f_mu = sgn / f_mu * 2**(-600 ns).
    """
    r, sgn = _ratio_cf(v, x, s)
    e2 = 600 if x.dtype == snp.float64 else 60
    big, scale = 2.0 ** e2, 2.0 ** -e2
    xi2 = 2.0 / x

    mu = v - nl

    def down(i, st):
        n, fk, fk1, ns = st                  # fk = f_{mu+n} (scaled)
        fm = (mu + n) * xi2 * fk + s * fk1
        over = snp.abs(fm) > big
        fm, fk = snp.where(over, fm * scale, fm), snp.where(over, fk * scale, fk)
        return (n - 1.0, fm, fk, snp.where(over, ns + 1.0, ns)), n - 1.0 >= 1.0

    _, fmu, fmu1, ns = U.masked_loop(
        down, (nl, sgn, sgn * r, snp.zeros_like(x)), nl >= 1.0, 1 << 30)
    return sgn, r, fmu1 / fmu, fmu, ns * (e2 / 600.0)


def _jy_temme(v, x):
    """J, Y, J', Y' for v >= 0 (a little below 0 is fine), x > 0."""
    dt = x.dtype
    e = U.eps(x)
    fpmin = U.tiny(x) / e
    small = x < 2.0
    nl = snp.where(small, snp.floor(v + 0.5),
                   snp.maximum(0.0, snp.floor(v - x + 1.5)))
    mu = v - nl
    xi = 1.0 / x
    xi2 = 2.0 * xi

    sgn, rv, rmu, fmu, ns = _ratio_down(v, x, nl, -1.0)
    f = mu / x - rmu              # J'_mu / J_mu

    # Temme's series for Y_mu, Y_mu+1 (x < 2).
    xs = snp.where(small, x, 1.0)
    x2 = 0.5 * xs
    pimu = _PI * mu
    fact = snp.where(snp.abs(pimu) < e, 1.0, pimu / snp.where(pimu == 0, 1.0, snp.sin(pimu)))
    dd = -snp.log(x2)
    ee = mu * dd
    fact2 = snp.where(snp.abs(ee) < e, 1.0, snp.sinh(ee) / snp.where(ee == 0, 1.0, ee))
    g1, g2, gpl, gmi = _temme_gammas(mu)
    ff = 2.0 / _PI * fact * (g1 * snp.cosh(ee) + g2 * fact2 * dd)
    ex = snp.exp(ee)
    p = ex / (gpl * _PI)
    q = 1.0 / (ex * _PI * gmi)
    pimu2 = 0.5 * pimu
    fact3 = snp.where(snp.abs(pimu2) < e, 1.0,
                      snp.sin(pimu2) / snp.where(pimu2 == 0, 1.0, pimu2))
    r = _PI * pimu2 * fact3 * fact3
    mu2 = mu * mu

    def temme(i, st):
        ff, c, p, q, s, s1 = st
        k = i + 1.0
        ff = (k * ff + p + q) / (k * k - mu2)
        c = c * (-x2 * x2 / k)
        p = p / (k - mu)
        q = q / (k + mu)
        de = c * (ff + r * q)
        s = s + de
        s1 = s1 + (c * p - k * de)
        return (ff, c, p, q, s, s1), snp.abs(de) >= (1.0 + snp.abs(s)) * e

    st = U.masked_loop(temme, (ff, snp.ones_like(x), p, q, ff + r * q, p), small, 500)
    rymu_s = -st[4]
    ry1_s = -st[5] * 2.0 / xs
    rymup_s = mu / xs * rymu_s - ry1_s
    w_s = 2.0 / (_PI * xs)
    # Wronskian J_mu+1 Y_mu - J_mu Y_mu+1 = 2/(pi x), in the form without
    # cancellation for small x.
    rjmu_s = w_s / (rmu * rymu_s - ry1_s)

    # Steed's CF2 for p + iq = (J'_mu + iY'_mu)/(J_mu + iY_mu) (x >= 2).
    xl = snp.where(small, 3.0, x)
    xil = 1.0 / xl
    a = 0.25 - mu2
    p = -0.5 * xil
    q = snp.ones_like(x)
    br = 2.0 * xl
    bi = 2.0 * snp.ones_like(x)
    fc = a * xil / (p * p + q * q)
    cr = br + q * fc
    ci = bi + p * fc
    den = br * br + bi * bi
    dr = br / den
    di = -bi / den
    dlr = cr * dr - ci * di
    dli = cr * di + ci * dr
    p, q = p * dlr - q * dli, p * dli + q * dlr

    def cf2(i, st):
        a, bi, cr, ci, dr, di, p, q = st
        k = i + 2.0
        a = a + 2.0 * (k - 1.0)
        bi = bi + 2.0
        dr = a * dr + br
        di = a * di + bi
        dr = snp.where(snp.abs(dr) + snp.abs(di) < fpmin, fpmin, dr)
        fc = a / (cr * cr + ci * ci)
        cr = br + cr * fc
        ci = bi - ci * fc
        cr = snp.where(snp.abs(cr) + snp.abs(ci) < fpmin, fpmin, cr)
        den = dr * dr + di * di
        dr = dr / den
        di = -di / den
        dlr = cr * dr - ci * di
        dli = cr * di + ci * dr
        p, q = p * dlr - q * dli, p * dli + q * dlr
        return (a, bi, cr, ci, dr, di, p, q), snp.abs(dlr - 1.0) + snp.abs(dli) >= e

    st = U.masked_loop(cf2, (a, bi, cr, ci, dr, di, p, q), ~small, 100000)
    p, q = st[6], st[7]
    gam = (p - f) / q
    rjmu_l = snp.sqrt(2.0 * xil / _PI / ((p - f) * gam + q))
    rjmu_l = snp.where(fmu < 0, -rjmu_l, rjmu_l)
    rymu_l = rjmu_l * gam
    rymup_l = rymu_l * (p + q / gam)
    ry1_l = mu * xil * rymu_l - rymup_l

    rjmu = snp.where(small, rjmu_s, rjmu_l)
    rymu = snp.where(small, rymu_s, rymu_l)
    ry1 = snp.where(small, ry1_s, ry1_l)

    # Scale the recurrence back: J_v = J_mu * sgn / fmu * 2**(-600 ns).
    j = (rjmu * (sgn / fmu)) * snp.ldexp(snp.ones_like(ns), (-600.0 * ns).astype(snp.int32))
    jp = v * xi * j - j * rv

    # Upward recurrence for Y (stops growing at -inf instead of making NaN).
    def up(i, st):
        k, ym, y1 = st
        yt = (mu + k) * xi2 * y1 - ym
        ok = snp.isfinite(yt)
        # Overflow before the last step: Y_v itself is infinite.
        return (k + 1.0, snp.where(ok | (k >= nl), y1, yt), yt), (k + 1.0 <= nl) & ok

    _, rymu, ry1 = U.masked_loop(up, (snp.ones_like(x), rymu, ry1), nl >= 1.0, 1 << 30)
    y = rymu
    yp = snp.where(snp.isfinite(ry1), v * xi * rymu - ry1, snp.inf)
    return j, y, jp, yp


def _by_region(hankel, temme, v, x):
    """Hankel's expansion where it is exact, Temme's method elsewhere (each
    branch sees harmless inputs where it is not used)."""
    hank = _hankel_region(v, x)
    vh = snp.where(hank, v, 0.5)
    xh = snp.where(hank, x, 30.0)
    vt = snp.where(hank, 0.5, v)
    xt = snp.where(hank, 1.0, x)
    a = hankel(vh, xh)
    b = temme(vt, xt)
    return tuple(snp.where(hank, u, w) for u, w in zip(a, b))


def _jy_pos(v, x):
    """J, Y, J', Y' for v >= 0 (or slightly below, for differencing), x > 0."""
    return _by_region(_jy_hankel, _jy_temme, v, x)


@sciax.custom_jvp
def _jy(v, x):
    # in blocks: the masked loops then run per block (state in cache, each
    # block stops at its own slowest element); see _util.chunked
    return chunked(_jy_pos, *snp.broadcast_arrays(v, x))


@_jy.defjvp
def _jy_jvp(primals, tangents):
    v, x = primals
    dv, dx = tangents
    j, y, jp, yp = out = _jy(v, x)
    # Bessel's equation: f'' = -f'/x - (1 - v^2/x^2) f.
    c = 1.0 - (v / x) ** 2
    jpp = -jp / x - c * j
    ypp = -yp / x - c * y
    # log|f| is smooth in v while x < v (no zeros there).
    lg = x < v - 2.0 * U.FD_STEP
    dj, dy, djp, dyp = U.fd_param(lambda vv: _jy(vv, snp.broadcast_to(x, vv.shape)),
                                  v, (lg, lg, lg, lg))
    return out, (jp * dx + dj * dv, yp * dx + dy * dv,
                 jpp * dx + djp * dv, ypp * dx + dyp * dv)


def _ik_hankel(v, x):
    """I e^-x, K e^x and their x-derivatives (same scaling), x large."""
    vv = snp.stack([v, v + 1.0])
    xx = snp.stack([x, x])
    p, q = _hankel_sums(vv, xx, 1)
    ie = (p - q) / snp.sqrt(2.0 * _PI * xx)
    ke = (p + q) * snp.sqrt(_PI / (2.0 * xx))
    iep = ie[1] + v / x * ie[0]
    kep = v / x * ke[0] - ke[1]
    return ie[0], ke[0], iep, kep


def _kmu_pair(mu, x):
    """K_mu e^x and K_mu+1 e^x for |mu| <= 1/2, x > 0: Temme's series for
    x < 2, Temme's CF2 (Steed's algorithm) for x >= 2."""
    e = U.eps(x)
    small = x < 2.0
    mu2 = mu * mu
    # Temme's series for K_mu, K_mu+1 (x < 2), scaled by e^x at the end.
    xs = snp.where(small, x, 1.0)
    x2 = 0.5 * xs
    pimu = _PI * mu
    fact = snp.where(snp.abs(pimu) < e, 1.0, pimu / snp.where(pimu == 0, 1.0, snp.sin(pimu)))
    dd = -snp.log(x2)
    ee = mu * dd
    fact2 = snp.where(snp.abs(ee) < e, 1.0, snp.sinh(ee) / snp.where(ee == 0, 1.0, ee))
    g1, g2, gpl, gmi = _temme_gammas(mu)
    ff = fact * (g1 * snp.cosh(ee) + g2 * fact2 * dd)
    ex = snp.exp(ee)
    p = 0.5 * ex / gpl
    q = 0.5 / (ex * gmi)

    def temme(i, st):
        ff, c, p, q, s, s1 = st
        k = i + 1.0
        # one division for the three: 1/(k -+ mu) = (k +- mu) / (k^2 - mu^2)
        r = 1.0 / (k * k - mu2)
        ff = (k * ff + p + q) * r
        c = c * (x2 * x2 / k)
        p = p * ((k + mu) * r)
        q = q * ((k - mu) * r)
        de = c * ff
        s = s + de
        s1 = s1 + c * (p - k * ff)
        return (ff, c, p, q, s, s1), snp.abs(de) >= snp.abs(s) * e

    st = U.masked_loop(temme, (ff, snp.ones_like(x), p, q, ff, p), small, 500)
    exs = snp.exp(xs)
    rkmu_s = st[4] * exs
    rk1_s = st[5] * 2.0 / xs * exs

    # Temme's CF2 (Steed's algorithm) for K_mu, K_mu+1 (x >= 2), scaled.
    xl = snp.where(small, 3.0, x)
    b = 2.0 * (1.0 + xl)
    d = 1.0 / b
    a1 = 0.25 - mu2

    def cf2(i, st):
        a, b, c, d, dh, h, q1, q2, q, s = st
        k = i + 2.0
        a = a - 2.0 * (k - 1.0)
        c = -a * c * (1.0 / k)             # k is a scalar
        qn = (q1 - b * q2) / a
        q1, q2 = q2, qn
        q = q + c * qn
        b = b + 2.0
        d = 1.0 / (b + a * d)
        dh = (b * d - 1.0) * dh
        h = h + dh
        ds = q * dh
        s = s + ds
        return (a, b, c, d, dh, h, q1, q2, q, s), snp.abs(ds) >= snp.abs(s) * e

    one = snp.ones_like(x)
    def cf2_step(n, st, prm):
        new, more = cf2(n.astype(x.dtype) - 1.0, st)
        return new, ~more

    # the fraction needs ~75 terms at x = 2 but ~25 on average over 2 < x < 30:
    # a block's stragglers are finished in small groups (see _util.converge)
    st = converge(cf2_step, (-a1, b, a1, d, d, d, 0.0 * one, one, a1, 1.0 + a1 * d),
                  max_iter=100000, active=~small, first=_CF2_FIRST, group=64,
                  unroll=_CF2_UNROLL)
    hh = a1 * st[5]
    rkmu_l = snp.sqrt(_PI / (2.0 * xl)) / st[9]
    rk1_l = rkmu_l * (mu + xl + 0.5 - hh) / xl

    rkmu = snp.where(small, rkmu_s, rkmu_l)
    rk1 = snp.where(small, rk1_s, rk1_l)
    return rkmu, rk1


def _k_up(v, mu, nl, x, rkmu, rk1):
    """K e^x, K' e^x at v = mu + nl from (K_mu, K_mu+1) e^x (upward
    recurrence, stable for K)."""
    xi = 1.0 / x
    xi2 = 2.0 * xi
    one = snp.ones_like(x)

    def up(i, st):
        k, km, k1 = st
        kt = (mu + k) * xi2 * k1 + km
        ok = snp.isfinite(kt)
        return (k + 1.0, snp.where(ok | (k >= nl), k1, kt), kt), (k + 1.0 <= nl) & ok

    _, rkmu, rk1 = U.masked_loop(up, (one, rkmu, rk1), nl >= 1.0, 1 << 30)
    ke = rkmu
    kep = v * xi * rkmu - rk1
    return ke, kep


def _ik_temme(v, x):
    """I e^-x, K e^x, I' e^-x, K' e^x for v >= 0 (or a little below), x > 0."""
    nl = snp.floor(v + 0.5)
    mu = v - nl
    xi = 1.0 / x

    _, rv, rmu, fmu, ns = _ratio_down(v, x, nl, 1.0)
    rkmu, rk1 = _kmu_pair(mu, x)
    # Wronskian I_mu K_mu+1 + I_mu+1 K_mu = 1/x (no cancellation).
    rimu = xi / (rk1 + rmu * rkmu)
    ie = (rimu / fmu) * snp.ldexp(snp.ones_like(ns), (-600.0 * ns).astype(snp.int32))
    iep = v * xi * ie + ie * rv
    ke, kep = _k_up(v, mu, nl, x, rkmu, rk1)
    return ie, ke, iep, kep


def _k_temme(v, x):
    """K e^x, K' e^x alone (no I: neither its continued fraction nor the
    downward recurrence runs)."""
    nl = snp.floor(v + 0.5)
    mu = v - nl
    rkmu, rk1 = _kmu_pair(mu, x)
    return _k_up(v, mu, nl, x, rkmu, rk1)


def _ik_pos(v, x):
    return _by_region(_ik_hankel, _ik_temme, v, x)


@sciax.custom_jvp
def _ik(v, x):
    """(I e^-x, K e^x, I' e^-x, K' e^x) for v >= 0, x > 0."""
    return chunked(_ik_pos, *snp.broadcast_arrays(v, x))


@_ik.defjvp
def _ik_jvp(primals, tangents):
    v, x = primals
    dv, dx = tangents
    ie, ke, iep, kep = out = _ik(v, x)
    # Modified Bessel equation: f'' = -f'/x + (1 + v^2/x^2) f.
    c = 1.0 + (v / x) ** 2
    iepp = -iep / x + c * ie
    kepp = -kep / x + c * ke
    t = snp.ones_like(x, dtype=bool)
    di, dk, dip, dkp = U.fd_param(lambda vv: _ik(vv, snp.broadcast_to(x, vv.shape)),
                                  v, (t, t, t, t))
    return out, ((iep - ie) * dx + di * dv, (kep + ke) * dx + dk * dv,
                 (iepp - iep) * dx + dip * dv, (kepp + kep) * dx + dkp * dv)


def _k_hankel(v, x):
    return _ik_hankel(v, x)[1::2]


def _k_pos(v, x):
    return _by_region(_k_hankel, _k_temme, v, x)


@sciax.custom_jvp
def _k(v, x):
    """(K e^x, K' e^x) for v >= 0, x > 0: what kv and kve need, without
    the work for I."""
    return chunked(_k_pos, *snp.broadcast_arrays(v, x))


@_k.defjvp
def _k_jvp(primals, tangents):
    v, x = primals
    dv, dx = tangents
    ke, kep = out = _k(v, x)
    kepp = -kep / x + (1.0 + (v / x) ** 2) * ke
    t = snp.ones_like(x, dtype=bool)
    dk, dkp = U.fd_param(lambda vv: _k(vv, snp.broadcast_to(x, vv.shape)),
                         v, (t, t))
    return out, ((kep + ke) * dx + dk * dv, (kepp + kep) * dx + dkp * dv)


# --------------------------------------------------------------------------
# Real order, any sign, any real argument
# --------------------------------------------------------------------------

def _fix_overflow(x, f, fp, fval, fpval):
    """Where the algorithm over/underflowed into NaN at a valid point."""
    bad = snp.isfinite(x) & (x > 0)
    return (snp.where(bad & snp.isnan(f), fval, f),
            snp.where(bad & snp.isnan(fp), fpval, fp))


def _jy_real(v, x):
    """(J_v(x), Y_v(x), J'_v(x), Y'_v(x)) for real v and x."""
    neg = v < 0
    nu = snp.where(neg, -v, v)
    ax = snp.abs(x)
    pos = ax > 0
    xs = snp.where(pos & snp.isfinite(ax), ax, 1.0)
    j, y, jp, yp = _jy(nu, xs)
    j, jp = _fix_overflow(ax, j, jp, 0.0, 0.0)
    y, yp = _fix_overflow(ax, y, yp, -snp.inf, snp.inf)
    c, s = U.cospi(nu), U.sinpi(nu)
    # DLMF 10.4.6: J_-nu = cos J - sin Y, Y_-nu = sin J + cos Y (an infinite
    # partner of a zero coefficient is dropped, not the term: the term's
    # order derivative, -pi cos Y at integer nu, is not zero; dropping it
    # made grad(yv, 0)(-1.5, 2.2) 0.19 for 0.73)
    def refl_j(a, b):
        return c * a - s * snp.where((s == 0) & snp.isinf(b), 0.0, b)

    def refl_y(a, b):
        return s * a + c * snp.where((c == 0) & snp.isinf(b), 0.0, b)

    jn_, jpn = refl_j(j, y), refl_j(jp, yp)
    yn_, ypn = refl_y(j, y), refl_y(jp, yp)
    j, jp = snp.where(neg, jn_, j), snp.where(neg, jpn, jp)
    y, yp = snp.where(neg, yn_, y), snp.where(neg, ypn, yp)
    # Infinite arguments give NaN, as in SciPy.
    inf = snp.isinf(ax) | snp.isnan(x) | snp.isnan(v)
    j, y, jp, yp = (snp.where(inf, snp.nan, t) for t in (j, y, jp, yp))
    # Negative x: integer orders by parity, otherwise complex (NaN).
    vint = U.is_int(v)
    par = snp.where(U.is_int(0.5 * v), 1.0, -1.0)
    xneg = x < 0
    j = snp.where(xneg, snp.where(vint, par * j, snp.nan), j)
    jp = snp.where(xneg, snp.where(vint, -par * jp, snp.nan), jp)
    y = snp.where(xneg, snp.nan, y)
    yp = snp.where(xneg, snp.nan, yp)
    # x == 0.
    zero = x == 0
    j0v = snp.where(v == 0, 1.0, snp.where(neg & ~vint, snp.where(s > 0, snp.inf, -snp.inf), 0.0))
    y0v = snp.where(neg & (c < 0), snp.inf, -snp.inf)
    j = snp.where(zero & ~snp.isnan(v), j0v, j)
    y = snp.where(zero & ~snp.isnan(v), y0v, y)
    jp0 = snp.where(snp.abs(v) == 1.0, 0.5 * snp.where(v < 0, -1.0, 1.0),
                    snp.where((snp.abs(v) > 1.0) | (v == 0) | vint, 0.0, snp.inf))
    jp = snp.where(zero, jp0, jp)
    yp = snp.where(zero, snp.inf, yp)
    return j, y, jp, yp


_jy_real = sciax.jit(_jy_real)


def _ik_real(v, x):
    """(I_v e^-|x|, K_v e^x, I'_v e^-|x|, K'_v e^x) for real v and x."""
    neg = v < 0
    nu = snp.where(neg, -v, v)
    ax = snp.abs(x)
    pos = ax > 0
    xs = snp.where(pos & snp.isfinite(ax), ax, 1.0)
    ie, ke, iep, kep = _ik(nu, xs)
    ie, iep = _fix_overflow(ax, ie, iep, 0.0, 0.0)
    ke, kep = _fix_overflow(ax, ke, kep, snp.inf, -snp.inf)
    s = U.sinpi(nu)
    # DLMF 10.27.2: I_-nu = I_nu + (2/pi) sin(nu pi) K_nu (scaled: e^-2x).
    e2 = snp.exp(-2.0 * xs)
    # (the K term kept at integer nu, where its order derivative 2 cos K is
    # not zero; an infinite K there dropped)
    ken = snp.where((s == 0) & snp.isinf(ke), 0.0, ke)
    kepn = snp.where((s == 0) & snp.isinf(kep), 0.0, kep)
    ien = ie + (2.0 / _PI) * s * ken * e2
    iepn = iep + (2.0 / _PI) * s * kepn * e2
    ie, iep = snp.where(neg, ien, ie), snp.where(neg, iepn, iep)
    vint = U.is_int(v)
    par = snp.where(U.is_int(0.5 * v), 1.0, -1.0)
    xneg = x < 0
    ie = snp.where(xneg, snp.where(vint, par * ie, snp.nan), ie)
    iep = snp.where(xneg, snp.where(vint, -par * iep, snp.nan), iep)
    ke = snp.where(xneg, snp.nan, ke)
    kep = snp.where(xneg, snp.nan, kep)
    zero = x == 0
    i0v = snp.where(v == 0, 1.0, snp.where(neg & ~vint, snp.where(s > 0, snp.inf, -snp.inf), 0.0))
    ie = snp.where(zero, i0v, ie)
    ke = snp.where(zero, snp.inf, ke)
    # SciPy: I_v(+-inf) and the scaled functions at inf are NaN, K_v(inf) = 0
    # (set by the caller, which knows whether it is scaled).
    nan = snp.isinf(x) | snp.isnan(x) | snp.isnan(v)
    ie, ke, iep, kep = (snp.where(nan, snp.nan, t) for t in (ie, ke, iep, kep))
    return ie, ke, iep, kep


_ik_real = sciax.jit(_ik_real)


def _k_real(v, x):
    """``K_v e^x`` for real v and x, as ``_ik_real(v, x)[1]`` but without
    computing I (``K_-v = K_v``)."""
    nu = snp.where(v < 0, -v, v)
    ax = snp.abs(x)
    xs = snp.where((ax > 0) & snp.isfinite(ax), ax, 1.0)
    ke, kep = _k(nu, xs)
    ke, _ = _fix_overflow(ax, ke, kep, snp.inf, -snp.inf)
    ke = snp.where(x < 0, snp.nan, ke)
    ke = snp.where(x == 0, snp.inf, ke)
    return snp.where(snp.isinf(x) | snp.isnan(x) | snp.isnan(v), snp.nan, ke)


_k_real = sciax.jit(_k_real)


def _vx(name, v, x):
    (v, x), out = U.promote_real(name, v, x)
    return v, x, out


def jv(v, z):
    r"""Bessel function of the first kind of real order, :math:`J_v(z)`.

    Parameters
    ----------
    v : array_like
        Order (real; negative orders use :math:`J_{-v} = \cos(v\pi) J_v -
        \sin(v\pi) Y_v`).
    z : array_like
        Real argument.  At a negative argument a non-integer order gives NaN
        (the value is complex); complex ``z`` is not supported (TypeError).

    Returns
    -------
    Array
        :math:`J_v(z)`, broadcast over ``v`` and ``z``.

    Notes
    -----
    Temme's method with continued fractions and Hankel's expansions for
    large ``z``; differentiable in ``z`` (recurrences) and in ``v``
    (difference of the analytic continuation, about 1e-11 relative).

    Examples
    --------
    >>> from sciax.special import jv
    >>> print(np.round(jv(np.array([0.0, 0.5, 2.5]), 3.0), 6))
    [-0.260052  0.065008  0.41271 ]
    """
    v, x, out = _vx("jv", v, z)
    return U.finish(out, _jy_real(v, x)[0])


def yv(v, z):
    r"""Bessel function of the second kind of real order, :math:`Y_v(z)`.

    ``Y_v(0) = -inf``; a negative argument gives NaN.  See :func:`jv`.

    Examples
    --------
    >>> from sciax.special import yv
    >>> print(np.round(yv(np.array([0.0, 1.5, 3.0]), 2.0), 6))
    [ 0.510376 -0.395623 -1.127784]
    """
    v, x, out = _vx("yv", v, z)
    return U.finish(out, _jy_real(v, x)[1])


def jve(v, z):
    """Exponentially scaled :func:`jv`; for real ``z`` the scale is 1.

    Examples
    --------
    >>> from sciax.special import jve
    >>> print(np.round(jve(1.0, 2.0), 6))
    0.576725
    """
    return jv(v, z)


def yve(v, z):
    """Exponentially scaled :func:`yv`; for real ``z`` the scale is 1.

    Examples
    --------
    >>> from sciax.special import yve
    >>> print(np.round(yve(1.0, 2.0), 6))
    -0.107032
    """
    return yv(v, z)


def iv(v, z):
    r"""Modified Bessel function of the first kind of real order, :math:`I_v(z)`.

    Negative orders use :math:`I_{-v} = I_v + (2/\pi)\sin(v\pi) K_v`; a
    negative argument with a non-integer order gives NaN.

    Examples
    --------
    >>> from sciax.special import iv
    >>> print(np.round(iv(np.array([0.0, 1.5, 3.0]), 2.0), 6))
    [2.279585 1.099473 0.21274 ]
    """
    v, x, out = _vx("iv", v, z)
    ie = _ik_real(v, x)[0]
    h = snp.exp(0.5 * snp.abs(x))
    return U.finish(out, (ie * h) * h)


def ive(v, z):
    r"""Exponentially scaled modified Bessel function :math:`I_v(z) e^{-|z|}`.

    Examples
    --------
    >>> from sciax.special import ive
    >>> print(np.round(ive(0.0, 1e4), 8))
    0.00398947
    """
    v, x, out = _vx("ive", v, z)
    r = _ik_real(v, x)[0]
    # SciPy returns NaN (not inf) for the scaled function at 0, v < 0.
    return U.finish(out, snp.where(snp.isinf(r) & (x == 0), snp.nan, r))


def kv(v, z):
    r"""Modified Bessel function of the second kind of real order, :math:`K_v(z)`.

    ``K_v(0) = inf``; a negative argument gives NaN.

    Examples
    --------
    >>> from sciax.special import kv
    >>> print(np.round(kv(np.array([0.0, 2.5, 3.0]), 1.0), 6))
    [0.421024 3.22748  7.101263]
    """
    v, x, out = _vx("kv", v, z)
    ke = _k_real(v, x)
    h = snp.exp(-0.5 * x)
    return U.finish(out, snp.where(snp.isposinf(x) & ~snp.isnan(v), 0.0, (ke * h) * h))


def kve(v, z):
    r"""Exponentially scaled modified Bessel function :math:`K_v(z) e^{z}`.

    Examples
    --------
    >>> from sciax.special import kve
    >>> print(np.round(kve(0.5, 3.0), 6))
    0.723601
    """
    v, x, out = _vx("kve", v, z)
    return U.finish(out, _k_real(v, x))


jn = jv


def yn(n, x):
    """Bessel function of the second kind of integer order (``yv`` at ``n``).

    Examples
    --------
    >>> from sciax.special import yn
    >>> print(np.round(yn(2, 1.0), 6))
    -1.650683
    """
    return yv(snp.trunc(snp.asarray(n)) if snp.issubdtype(snp.asarray(n).dtype, snp.floating)
              else n, x)


def _order_fn(fn, order, doc):
    def f(x):
        return fn(order, x)
    f.__name__ = doc[0]
    f.__qualname__ = doc[0]
    f.__doc__ = f"""{doc[1]}

    Same as ``{fn.__name__}({order}, x)``.

    Examples
    --------
    >>> from sciax.special import {doc[0]}
    >>> print(np.round({doc[0]}(np.array([1.5, 1.5, 1.5]))[0], 6))
    {doc[2]}
    """
    return f


j0 = _order_fn(jv, 0.0, ("j0", "Bessel function of the first kind of order 0.", "0.511828"))
j1 = _order_fn(jv, 1.0, ("j1", "Bessel function of the first kind of order 1.", "0.557937"))
y0 = _order_fn(yv, 0.0, ("y0", "Bessel function of the second kind of order 0.", "0.382449"))
y1 = _order_fn(yv, 1.0, ("y1", "Bessel function of the second kind of order 1.", "-0.412309"))
# I_0 and I_1 by fixed-length polynomials (no loops: these are the orders
# users evaluate on big batches).  |x| <= 18: the power series
# I_nu(x) = (x/2)^nu sum_k (x^2/4)^k / (k! (k+nu)!), 45 terms (positive, so
# Horner's rule keeps a few ulp; the first omitted term is below 1e-19 of the
# sum at x = 18).  |x| > 18: the asymptotic expansion (DLMF 10.40.1)
# I_nu(x) e^-x ~ (2 pi x)^-1/2 sum_k (-1)^k a_k(nu) / x^k with 30 terms (its
# smallest term at x = 18 is below 1e-17); both within ~1e-15 of mpmath.
_I_SERIES_X = 18.0


def _i_series_coefs(nu, n=45):
    return tuple(1.0 / (math.factorial(k) * math.factorial(k + nu))
                 for k in reversed(range(n)))


def _i_asym_coefs(nu, n=30):
    out, a = [], 1.0
    for k in range(n):
        out.append(a)
        j = k + 1
        a = a * -(4 * nu * nu - (2 * j - 1) ** 2) / (8 * j)
    return tuple(reversed(out))


_I_COEFS = {nu: (_i_series_coefs(nu), _i_asym_coefs(nu)) for nu in (0, 1)}


def _i01(nu, name, x, scaled):
    """``I_nu(x)`` (``scaled``: ``I_nu(x) e^-|x|``) for ``nu`` in {0, 1}."""
    (x,), out = U.promote_real(name, x)
    res = _i01_core(nu, x, True) if scaled else _i01_unscaled(nu, x)
    return U.finish(out, res)


@partial(sciax.custom_jvp, nondiff_argnums=(0,))
def _i01_unscaled(nu, x):
    return _i01_core(nu, x, False)


@_i01_unscaled.defjvp
def _i01_unscaled_jvp(nu, primals, tangents):
    # I_0' = I_1, I_1' = I_0 - I_1/x: no cancellation, and I_1/x is the
    # power series itself for |x| <= 18 (so higher derivatives at tiny x
    # stay accurate).  Reverse mode through the asymptotic series overflowed
    # instead: near |x| = 700 the cotangent e^|x| times its partial sums
    # passes 1.8e308 (grad was -inf at x = 700, where I_0' = 1.5e302)
    (x,), (t,) = primals, tangents
    y = _i01_unscaled(nu, x)
    if nu == 0:
        return y, _i01_unscaled(1, x) * t
    small = snp.abs(x) <= _I_SERIES_X
    xs = snp.where(small, x, 1.0)
    over_x = snp.where(small, 0.5 * polyval_estrin(_I_COEFS[1][0], 0.25 * xs * xs),
                       y / snp.where(small, 1.0, x))
    return y, (_i01_unscaled(0, x) - over_x) * t


def _i01_core(nu, x, scaled):
    ser_c, asy_c = _I_COEFS[nu]
    ax = snp.abs(x)
    small = ax <= _I_SERIES_X
    xs = snp.where(small, x, 1.0)
    y = 0.25 * xs * xs
    # Estrin's scheme, not Horner's rule: the same accuracy here (positive
    # terms; a quickly decreasing asymptotic series) and about 30% faster
    # on 10^6 points, as XLA's scalar CPU loop is bound by Horner's
    # 75-deep dependency chain
    ser = polyval_estrin(ser_c, y)
    if nu == 1:
        ser = ser * (0.5 * xs)
    xl = snp.where(small, 2.0 * _I_SERIES_X, ax)
    asy = polyval_estrin(asy_c, 1.0 / xl) / snp.sqrt(2.0 * _PI * xl)
    if nu == 1:
        asy = snp.where(x < 0, -asy, asy)
    if scaled:
        # at +-inf, asy is (+-1) / inf = +-0, SciPy's value
        res = snp.where(small, ser * snp.exp(-snp.abs(xs)), asy)
    else:
        # e^|x| in two halves: I_nu stays finite to |x| ~ 713
        h = snp.exp(0.5 * xl)
        res = snp.where(small, ser, (asy * h) * h)
        res = snp.where(snp.isinf(x), snp.nan, res)
    return res


def _i01_fn(nu, scaled, doc):
    name = doc[0]

    def f(x):
        return _i01(nu, name, x, scaled)
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = f"""{doc[1]}

    sciax implementation of :func:`scipy.special.{name}`; equal to
    ``{'ive' if scaled else 'iv'}({nu}, x)``, but evaluated by a fixed-length
    power series (``|x| <= 18``) or asymptotic expansion (DLMF 10.40.1)
    rather than the general real-order algorithm, so big batches cost a few
    dozen multiply-adds per element.  Differentiable in ``x``.

    Examples
    --------
    >>> from sciax.special import {name}
    >>> print(np.round({name}(np.array([1.5, 30.0])), 6))
    {doc[2]}
    """
    return f


i0 = _i01_fn(0, False, ("i0", "Modified Bessel function of the first kind of order 0.",
                        "[1.646723e+00 7.816723e+11]"))
i1 = _i01_fn(1, False, ("i1", "Modified Bessel function of the first kind of order 1.",
                        "[9.81666e-01 7.685320e+11]"))
i0e = _i01_fn(0, True, ("i0e", "Exponentially scaled modified Bessel function I_0.",
                        "[0.367434 0.073146]"))
i1e = _i01_fn(1, True, ("i1e", "Exponentially scaled modified Bessel function I_1.",
                        "[0.219039 0.071916]"))
k0 = _order_fn(kv, 0.0, ("k0", "Modified Bessel function of the second kind of order 0.",
                         "0.213806"))
k1 = _order_fn(kv, 1.0, ("k1", "Modified Bessel function of the second kind of order 1.",
                         "0.277388"))
k0e = _order_fn(kve, 0.0, ("k0e", "Exponentially scaled modified Bessel function K_0.",
                           "0.95821"))
k1e = _order_fn(kve, 1.0, ("k1e", "Exponentially scaled modified Bessel function K_1.",
                           "1.243166"))


def _hankel(name, v, z, sign, scaled):
    v, x, out = _vx(name, v, z)
    j, y = _jy_real(v, x)[:2]
    h = lax.complex(j, sign * y)
    if scaled:
        h = h * lax.complex(snp.cos(x), -sign * snp.sin(x))
    return U.finish(out, h)


def hankel1(v, z):
    r"""Hankel function of the first kind, :math:`H^{(1)}_v(z) = J_v + i Y_v`.

    Real ``z`` only (NaN for ``z < 0``); the result is complex.

    Examples
    --------
    >>> from sciax.special import hankel1
    >>> h = hankel1(0.0, 1.0)
    >>> print(np.round(float(h.real), 6), np.round(float(h.imag), 6))
    0.765198 0.088257
    """
    return _hankel("hankel1", v, z, 1.0, False)


def hankel2(v, z):
    r"""Hankel function of the second kind, :math:`H^{(2)}_v(z) = J_v - i Y_v`.

    Examples
    --------
    >>> from sciax.special import hankel2
    >>> h = hankel2(0.0, 1.0)
    >>> print(np.round(float(h.real), 6), np.round(float(h.imag), 6))
    0.765198 -0.088257
    """
    return _hankel("hankel2", v, z, -1.0, False)


def hankel1e(v, z):
    r"""Exponentially scaled Hankel function :math:`H^{(1)}_v(z) e^{-iz}`.

    Examples
    --------
    >>> from sciax.special import hankel1e
    >>> h = hankel1e(0.5, 2.0)
    >>> print(np.round(float(h.real), 6), np.round(float(h.imag), 6))
    0.0 -0.56419
    """
    return _hankel("hankel1e", v, z, 1.0, True)


def hankel2e(v, z):
    r"""Exponentially scaled Hankel function :math:`H^{(2)}_v(z) e^{iz}`.

    Examples
    --------
    >>> from sciax.special import hankel2e
    >>> h = hankel2e(0.5, 2.0)
    >>> print(np.round(float(h.real), 6), np.round(float(h.imag), 6))
    0.0 0.56419
    """
    return _hankel("hankel2e", v, z, -1.0, True)


# --------------------------------------------------------------------------
# Spherical Bessel functions (integer order n >= 0)
# --------------------------------------------------------------------------

def _spherical_args(name, n, z):
    n = snp.asarray(n)
    if not (snp.issubdtype(n.dtype, snp.integer) or snp.issubdtype(n.dtype, snp.floating)):
        raise TypeError(f"{name}: the order n must be an integer array, got {n.dtype}")
    (nf, x), out = U.promote_real(name, n, z)
    if snp.issubdtype(n.dtype, snp.integer):
        out = snp.result_type(snp.asarray(z).dtype, 1.0)
        if not snp.issubdtype(out, snp.floating):
            out = snp.float64 if sciax.config.enable_x64 else snp.float32
    bad = (nf < 0) | ~U.is_int(nf)
    return snp.where(bad, 0.0, nf), x, bad, out


def _up_recurrence(nf, x, f0, f1, s):
    """f_n from f_0, f_1 by f_{k+1} = s f_{k-1} + (2k+1)/x f_k (k < n).

    Returns (f_n, f_{n-1}); stable upward for the dominant solutions (y_n,
    k_n).
    """
    def body(i, st):
        k, fm, f = st
        fn = s * fm + (2.0 * k + 1.0) / x * f
        return (k + 1.0, f, fn), k + 1.0 < nf

    k, fm, f = U.masked_loop(body, (snp.ones_like(x), f0, f1), nf >= 2.0, 1 << 30)
    fn = snp.where(nf == 0, f0, f)
    fprev = snp.where(nf == 0, s * f1 + f0 / x * 0.0, snp.where(nf == 1, f0, fm))
    return fn, fprev


@partial(sciax.jit, static_argnums=2)
def _spherical_jn_k(nf, x, derivative):
    ax = snp.abs(x)
    xs = snp.where(ax > 0, ax, 1.0)
    up = (ax > nf) & snp.isfinite(ax)
    xj = snp.where(up, 0.5, xs)        # J is not used there: a cheap argument
    j = _jy_real(snp.stack([nf + 0.5, nf + 1.5]), snp.stack([xj, xj]))[0]
    c = snp.sqrt(_PI / (2.0 * xs))
    par = snp.where(U.is_int(0.5 * nf), 1.0, -1.0)
    # |x| > n: the upward recurrence from j_0 = sin x / x and j_1 = (j_0 -
    # cos x) / x, as SciPy (neutrally stable where j_n oscillates; its error
    # is an ulp or two of the envelope, where J_{n+1/2}'s large-x expansion
    # leaves tens: 3.7e-13 of j_20(200), a value 1% of its envelope)

    def upward(n_, x_):
        s_, c_ = snp.sin(x_), snp.cos(x_)
        j0 = s_ / x_
        jn_, jm_ = _up_recurrence(n_, x_, j0, (j0 - c_) / x_, -1.0)
        return jn_, snp.where(n_ == 0, c_ / x_, jm_)     # j_{-1} = cos x / x

    jn_up, jm_up = chunked(upward, *snp.broadcast_arrays(snp.where(up, nf, 0.0), xs))
    if derivative:
        # j_n' = (n/x) j_n - j_{n+1} (no cancellation at small x); above n,
        # j_n' = j_{n-1} - (n+1)/x j_n from the recurrence's last two values.
        r = snp.where(up, jm_up - (nf + 1.0) / xs * jn_up, c * (nf / xs * j[0] - j[1]))
        r = snp.where(x < 0, -par, 1.0) * r
        r = snp.where(x == 0, snp.where(nf == 1, 1.0 / 3.0, 0.0), r)
    else:
        r = snp.where(x < 0, par, 1.0) * snp.where(up, jn_up, c * j[0])
        r = snp.where(x == 0, snp.where(nf == 0, 1.0, 0.0), r)
    r = snp.where(snp.isinf(x), 0.0, r)
    return r


def spherical_jn(n, z, derivative=False):
    r"""Spherical Bessel function of the first kind, :math:`j_n(z)`.

    :math:`j_n(z) = \sqrt{\pi/(2z)} J_{n+1/2}(z)`, for integer ``n >= 0``
    and real ``z`` (``j_n(-z) = (-1)^n j_n(z)``); NaN for a negative or
    non-integer ``n``.  With ``derivative=True`` returns :math:`j_n'(z)`.

    Examples
    --------
    >>> from sciax.special import spherical_jn
    >>> print(np.round(spherical_jn(np.array([0, 1, 2]), 1.5), 6))
    [0.664997 0.396173 0.127349]
    """
    nf, x, bad, out = _spherical_args("spherical_jn", n, z)
    return U.finish(out, snp.where(bad, snp.nan, _SPH_D["jn"][bool(derivative)](nf, x)))


@partial(sciax.jit, static_argnums=2)
def _spherical_yn_k(nf, x, derivative):
    xs = snp.where(x == 0, 1.0, x)
    cx, sx = snp.cos(xs), snp.sin(xs)
    y0_ = -cx / xs
    y1_ = -cx / xs ** 2 - sx / xs
    yn_, ym = _up_recurrence(nf, xs, y0_, y1_, -1.0)
    if derivative:
        ym = snp.where(nf == 0, sx / xs, ym)          # y_{-1} = j_0
        r = ym - (nf + 1.0) / xs * yn_
        r = snp.where(x == 0, snp.where(nf == 0, snp.inf, snp.nan), r)
    else:
        r = snp.where(x == 0, -snp.inf, yn_)
    r = snp.where(snp.isinf(x), 0.0, r)
    return r


def spherical_yn(n, z, derivative=False):
    r"""Spherical Bessel function of the second kind, :math:`y_n(z)`.

    Computed by the (stable) upward recurrence from
    :math:`y_0 = -\cos z/z`, :math:`y_1 = -\cos z/z^2 - \sin z/z`.

    Examples
    --------
    >>> from sciax.special import spherical_yn
    >>> print(np.round(spherical_yn(np.array([0, 1, 2]), 1.5), 6))
    [-0.047158 -0.696435 -1.345713]
    """
    nf, x, bad, out = _spherical_args("spherical_yn", n, z)
    return U.finish(out, snp.where(bad, snp.nan, _SPH_D["yn"][bool(derivative)](nf, x)))


@partial(sciax.jit, static_argnums=2)
def _spherical_in_k(nf, x, derivative):
    ax = snp.abs(x)
    xs = snp.where((ax > 0) & snp.isfinite(ax), ax, 1.0)
    ie = _ik_real(snp.stack([nf + 0.5, nf + 1.5]), snp.stack([xs, xs]))[0]
    c = snp.sqrt(_PI / (2.0 * xs))
    h = snp.exp(0.5 * xs)
    par = snp.where(U.is_int(0.5 * nf), 1.0, -1.0)
    if derivative:
        # i_n' = (n/x) i_n + i_{n+1}.
        r = snp.where(x < 0, -par, 1.0) * c * ((nf / xs * ie[0] + ie[1]) * h) * h
        r = snp.where(x == 0, snp.where(nf == 1, 1.0 / 3.0, 0.0), r)
    else:
        r = snp.where(x < 0, par, 1.0) * c * (ie[0] * h) * h
        r = snp.where(x == 0, snp.where(nf == 0, 1.0, 0.0), r)
    r = snp.where(snp.isinf(x), snp.where(x > 0, snp.inf, par * snp.inf), r)
    return r


def spherical_in(n, z, derivative=False):
    r"""Modified spherical Bessel function of the first kind, :math:`i_n(z)`.

    :math:`i_n(z) = \sqrt{\pi/(2z)} I_{n+1/2}(z)`, ``i_n(-z) = (-1)^n i_n(z)``.

    Examples
    --------
    >>> from sciax.special import spherical_in
    >>> print(np.round(spherical_in(np.array([0, 1, 2]), 1.5), 6))
    [1.4195   0.621927 0.175666]
    """
    nf, x, bad, out = _spherical_args("spherical_in", n, z)
    return U.finish(out, snp.where(bad, snp.nan, _spherical_in_k(nf, x, bool(derivative))))


@partial(sciax.jit, static_argnums=2)
def _spherical_kn_k(nf, x, derivative):
    xs = snp.where(x == 0, 1.0, x)
    k0_ = 0.5 * _PI * snp.exp(-xs) / xs
    k1_ = k0_ * (1.0 + 1.0 / xs)
    kn_, km = _up_recurrence(nf, xs, k0_, k1_, 1.0)
    if derivative:
        r = snp.where(nf == 0, -k1_, -km - (nf + 1.0) / xs * kn_)
        r = snp.where(x == 0, -snp.inf, r)
    else:
        r = snp.where(x == 0, snp.inf, kn_)
    r = snp.where(snp.isposinf(x), 0.0, r)
    return r


def _sph_diff(kernel, sign, regular=False):
    """(f, f') of a spherical Bessel kernel, differentiable in x through
    x^2 f'' + 2x f' + (sign x^2 - n(n+1)) f = 0 (sign +1: j_n, y_n; -1:
    k_n); for the ``regular`` j_n, f''(0) is -1/3 for n = 0, 2/15 for n = 2,
    else 0."""
    @sciax.custom_jvp
    def val(n, x):
        return kernel(n, x, False)

    @sciax.custom_jvp
    def der(n, x):
        return kernel(n, x, True)

    @val.defjvp
    def val_jvp(primals, tangents):
        n, x = primals
        return val(n, x), der(n, x) * tangents[1]

    @der.defjvp
    def der_jvp(primals, tangents):
        n, x = primals
        f, fp = val(n, x), der(n, x)
        if not regular:
            fpp = -2.0 / x * fp - (sign - n * (n + 1.0) / (x * x)) * f
            return fp, fpp * tangents[1]
        xs = snp.where(x == 0, 1.0, x)
        fpp = -2.0 / xs * fp - (sign - n * (n + 1.0) / (xs * xs)) * f
        at0 = snp.where(n == 0, -1.0 / 3.0, snp.where(n == 2, 2.0 / 15.0, 0.0))
        return fp, snp.where(x == 0, at0, fpp) * tangents[1]

    return {False: val, True: der}


_SPH_D = {"yn": _sph_diff(_spherical_yn_k, 1.0), "kn": _sph_diff(_spherical_kn_k, -1.0),
          "jn": _sph_diff(_spherical_jn_k, 1.0, regular=True)}


def spherical_kn(n, z, derivative=False):
    r"""Modified spherical Bessel function of the second kind, :math:`k_n(z)`.

    :math:`k_n(z) = \sqrt{\pi/(2z)} K_{n+1/2}(z)`, by the upward recurrence
    from :math:`k_0 = (\pi/2) e^{-z}/z`; real ``z`` of either sign.

    Examples
    --------
    >>> from sciax.special import spherical_kn
    >>> print(np.round(spherical_kn(np.array([0, 1, 2]), 1.5), 6))
    [0.233661 0.389436 1.012533]
    """
    nf, x, bad, out = _spherical_args("spherical_kn", n, z)
    return U.finish(out, snp.where(bad, snp.nan, _SPH_D["kn"][bool(derivative)](nf, x)))


# --------------------------------------------------------------------------
# Airy functions
# --------------------------------------------------------------------------

# Ai(0) and -Ai'(0) (DLMF 9.2.3, 9.2.4).
_AI0 = 0.355028053887817239260
_AIP0 = 0.258819403792806798405
_SQ3 = np.sqrt(3.0)


def _airy_series(x):
    """Maclaurin series (DLMF 9.4.1-9.4.4) for |x| <= 2.

    Returns (f, g, f', g') with Ai = c1 f - c2 g, Bi = sqrt3 (c1 f + c2 g).
    """
    e = U.eps(x)
    x3 = x * x * x
    one = snp.ones_like(x)

    def body(i, st):
        tf, tg, f, g, fp, gp = st
        k = i + 1.0
        tf = tf * x3 / ((3.0 * k - 1.0) * (3.0 * k))         # x^3k stuff of f
        tg = tg * x3 / ((3.0 * k) * (3.0 * k + 1.0))
        f = f + tf
        g = g + tg
        fp = fp + 3.0 * k * tf
        gp = gp + (3.0 * k + 1.0) * tg
        return (tf, tg, f, g, fp, gp), (snp.abs(tf) + snp.abs(tg)) > e * (snp.abs(f) + snp.abs(g))

    st = U.masked_loop(body, (one, x, one, x, 0.0 * one, x), snp.abs(x) <= 2.0, 200)
    _, _, f, g, fp, gp = st
    xs = snp.where(x == 0, 1.0, x)
    return f, g, snp.where(x == 0, 0.0, fp / xs), snp.where(x == 0, 1.0, gp / xs)


# 2/3 = _TWO3 + _TWO3_LO in float64
_TWO3 = 2.0 / 3.0
_TWO3_LO = 3.700743415417188e-17


def _zeta_dd(ax):
    """``zeta = (2/3) ax^(3/2)`` as a double-double ``hi + lo``.

    ``Ai(x) = eAi e^-zeta``: the three roundings of a plain ``zeta`` (the
    constant, the sqrt, the product) are amplified by ``zeta`` (1.5e-13
    relative at ``x = 100``, where ``zeta = 667``).  Here ``sqrt(x) = s +
    (x - s^2)/(2s)`` with ``x - s^2`` exact, and the products are Dekker's."""
    s = snp.sqrt(ax)
    p, e = two_prod(s, s)
    sl = ((ax - p) - e) / (2.0 * s)
    vh, vl = two_prod(ax, s)
    vl = vl + ax * sl
    c = np.asarray(_TWO3, vh.dtype)                  # 2/3 = c + c_lo
    c_lo = np.asarray(_TWO3 - float(c) + _TWO3_LO, vh.dtype)
    zh, zl = two_prod(snp.full_like(vh, c), vh)
    return fast_two_sum(zh, zl + (c * vl + c_lo * vh))


def _airy_all(x):
    """(Ai, Ai', Bi, Bi') and the scaled (eAi, eAi', eBi, eBi') for x > 0."""
    ax = snp.abs(x)
    zeta = 2.0 / 3.0 * ax * snp.sqrt(ax)
    # x < 0 (past the series): the functions oscillate with phase zeta, and a
    # plain zeta's rounding (eps zeta) is the error (2.9e-12 at x = -1e3, where
    # zeta = 21082).  They are evaluated at zeta's double-double head nh and
    # moved to nh + nl.
    osc = (x < -2.0) & (ax < 1e100)
    nh, nl = _zeta_dd(snp.where(osc, ax, 1.0))
    nl = snp.where(osc, nl, 0.0)
    zeta = snp.where(osc, nh, zeta)
    zs = snp.where(zeta > 0, zeta, 1.0)
    # x > 0: K and I of order 1/3, 2/3 (DLMF 9.6.1-9.6.4), scaled.
    v = snp.stack([snp.full_like(x, 1.0 / 3.0), snp.full_like(x, 2.0 / 3.0)])
    zz = snp.stack([zs, zs])
    ie, ke, _, _ = _ik(v, zz)
    e2 = snp.exp(-2.0 * zs)
    sx = snp.sqrt(ax)
    eai = sx / (_PI * _SQ3) * ke[0]
    eaip = -ax / (_PI * _SQ3) * ke[1]
    # I_-nu = I_nu + (2/pi) sin(nu pi) K_nu, sin(pi/3) = sin(2pi/3) = sqrt3/2.
    ebi = sx / _SQ3 * (2.0 * ie[0] + _SQ3 / _PI * ke[0] * e2)
    ebip = ax / _SQ3 * (2.0 * ie[1] + _SQ3 / _PI * ke[1] * e2)
    # x < 0: J and Y of order 1/3, 2/3 (DLMF 9.6.6-9.6.9 with the
    # reflection J_-nu = cos J - sin Y).
    j, y, _, _ = _jy(v, zz)
    # J + iY ~ e^{i zeta} (slowly varying): a shift by nl is a rotation (its
    # amplitude change, nl / (2 zeta) ~ eps, is negligible)
    cl, sl = snp.cos(nl), snp.sin(nl)
    j, y = j * cl - y * sl, j * sl + y * cl
    nai = 0.5 * sx * (j[0] - y[0] / _SQ3)
    naip = 0.5 * ax * (j[1] + y[1] / _SQ3)
    nbi = -0.5 * sx * (j[0] / _SQ3 + y[0])
    nbip = 0.5 * ax * (j[1] / _SQ3 - y[1])
    # Small |x|: Maclaurin series.
    f, g, fp, gp = _airy_series(snp.where(ax <= 2.0, x, 0.0))
    sai = _AI0 * f - _AIP0 * g
    saip = _AI0 * fp - _AIP0 * gp
    sbi = _SQ3 * (_AI0 * f + _AIP0 * g)
    sbip = _SQ3 * (_AI0 * fp + _AIP0 * gp)
    ser = (x >= -2.0) & (x <= 1.0)
    pos = x > 0
    # e^+-zeta from zeta = zh + zl: e^zl = 1 + zl to 1e-26 (|zl| < 1e-13
    # below zeta = 1e3, beyond which e^-zeta is 0 and e^zeta inf)
    dd = pos & (zeta < 1e3)
    zh, zl = _zeta_dd(snp.where(dd, ax, 1.0))
    zh, zl = snp.where(dd, zh, snp.where(pos, zeta, 0.0)), snp.where(dd, zl, 0.0)
    ez = snp.exp(zh) * (1.0 + zl)
    emz = snp.exp(-zh) * (1.0 - zl)
    hz = snp.exp(0.5 * zh) * (1.0 + 0.5 * zl)
    ai = snp.where(ser, sai, snp.where(pos, eai * emz, nai))
    aip = snp.where(ser, saip, snp.where(pos, eaip * emz, naip))
    bi = snp.where(ser, sbi, snp.where(pos, (ebi * hz) * hz, nbi))
    bip = snp.where(ser, sbip, snp.where(pos, (ebip * hz) * hz, nbip))
    sc_ai = snp.where(ser, sai * ez, eai)
    sc_aip = snp.where(ser, saip * ez, eaip)
    sc_bi = snp.where(ser, sbi * emz, snp.where(pos, ebi, nbi))
    sc_bip = snp.where(ser, sbip * emz, snp.where(pos, ebip, nbip))
    inf_p, inf_n = snp.isposinf(x), snp.isneginf(x)
    ai, aip = snp.where(inf_p | inf_n, 0.0, ai), snp.where(inf_p | inf_n, 0.0, aip)
    bi = snp.where(inf_p, snp.inf, snp.where(inf_n, 0.0, bi))
    bip = snp.where(inf_p, snp.inf, snp.where(inf_n, 0.0, bip))
    return (ai, aip, bi, bip), (sc_ai, sc_aip, sc_bi, sc_bip)


_airy_all = sciax.jit(_airy_all)


@sciax.custom_jvp
def _airy(x):
    return _airy_all(x)[0]


@_airy.defjvp
def _airy_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    ai, aip, bi, bip = out = _airy(x)
    # Airy's equation w'' = x w.
    return out, (aip * dx, x * ai * dx, bip * dx, x * bi * dx)


@sciax.custom_jvp
def _airye(x):
    return _airy_all(x)[1]


@_airye.defjvp
def _airye_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    a, ap, b, bp = out = _airye(x)
    # eAi = Ai e^zeta, eBi = Bi e^-zeta (x > 0), zeta' = sqrt(x).
    sq = snp.sqrt(snp.maximum(x, 0.0))
    return out, ((ap + sq * a) * dx, (x * a + sq * ap) * dx,
                 (bp - sq * b) * dx, (x * b - sq * bp) * dx)


def airy(z):
    r"""Airy functions and their derivatives, ``Ai, Ai', Bi, Bi'``.

    Real ``z``: Maclaurin series for ``-2 <= z <= 1``, otherwise Bessel
    functions of order 1/3 and 2/3 of :math:`\zeta = \frac23 |z|^{3/2}`.
    Differentiable by Airy's equation :math:`w'' = z w`.

    Examples
    --------
    >>> from sciax.special import airy
    >>> ai, aip, bi, bip = airy(np.array([-2.0, 0.0, 2.0]))
    >>> print(np.round(ai, 6), np.round(bi, 6))
    [0.227407 0.355028 0.034924] [-0.412303  0.614927  3.298095]
    """
    (x,), out = U.promote_real("airy", z)
    return U.finish(out, *_airy(x))


def airye(z):
    r"""Exponentially scaled Airy functions.

    ``eAi = Ai e^{zeta}``, ``eAi' = Ai' e^{zeta}``, ``eBi = Bi e^{-|zeta|}``,
    ``eBi' = Bi' e^{-|zeta|}`` with :math:`\zeta = \frac23 z^{3/2}`; as in
    SciPy, ``eAi`` and ``eAi'`` are NaN for real ``z < 0`` and ``eBi``,
    ``eBi'`` equal ``Bi``, ``Bi'`` there.

    Examples
    --------
    >>> from sciax.special import airye
    >>> eai, eaip, ebi, ebip = airye(np.array([0.0, 1.0, 2.0]))
    >>> print(np.round(eai, 6), np.round(ebi, 6))
    [0.355028 0.263514 0.230165] [0.614927 0.619912 0.500437]
    """
    (x,), out = U.promote_real("airye", z)
    a, ap, b, bp = _airye(x)
    neg = x < 0
    return U.finish(out, snp.where(neg, snp.nan, a), snp.where(neg, snp.nan, ap), b, bp)


# --------------------------------------------------------------------------
# Struve functions
# --------------------------------------------------------------------------

def _rgamma(z):
    """1/Gamma(z) for real z (zero at the poles), from lax.lgamma."""
    pole = (z <= 0) & U.is_int(z)
    zs = snp.where(pole, 0.5, z)
    sg = snp.where((zs > 0) | (snp.floor(zs) % 2.0 == 0.0), 1.0, -1.0)
    return snp.where(pole, 0.0, sg * snp.exp(-lax.lgamma(zs)))


def _struve_series(v, x, sign):
    """sum_k sign^k (x/2)^(2k+v+1) / (Gamma(k+3/2) Gamma(k+v+3/2))."""
    e = U.eps(x)
    h = 0.5 * x
    h2 = h * h
    t0 = snp.power(h, v + 1.0) / (0.5 * np.sqrt(_PI))     # / Gamma(3/2)
    r0 = _rgamma(v + 1.5)

    def body(i, st):
        a, r, s, big = st
        k = i + 1.0
        a = a * sign * h2 / (k + 0.5)
        r = snp.where(r == 0, _rgamma(k + v + 1.5), r / (k + v + 0.5))
        t = a * r
        s = s + t
        big = snp.maximum(big, snp.abs(t))
        return (a, r, s, big), (snp.abs(t) > e * snp.abs(s)) | (r == 0) | (k < v + 2.0)

    st = U.masked_loop(body, (t0, r0, t0 * r0, snp.abs(t0 * r0)),
                       snp.ones_like(x, dtype=bool), 100000)
    return st[2]


# Gauss-Laguerre rule for int_0^inf e^-u g(u) du (numpy.polynomial.laguerre).
_GL_U, _GL_W = np.polynomial.laguerre.laggauss(80)


def _struve_h_minus_y(v, x):
    """H_v(x) - Y_v(x), DLMF 11.5.2, by Gauss-Laguerre in u = x t."""
    u = snp.asarray(_GL_U, x.dtype)
    w = snp.asarray(_GL_W, x.dtype)
    xe, ve = x[..., None], v[..., None]
    rg = _rgamma(v + 0.5)
    lg = ve * snp.log(0.5 * xe) + (ve - 0.5) * snp.log1p((u / xe) ** 2)
    s = snp.sum(w * snp.exp(lg), axis=-1)
    return 2.0 * rg / (np.sqrt(_PI) * x) * s


def _struve_m_asym(v, x):
    """L_v(x) - I_v(x) for large x, DLMF 11.6.2."""
    e = U.eps(x)
    h2 = 0.25 * x * x
    t0 = -np.sqrt(_PI) * snp.power(0.5 * x, v - 1.0) * _rgamma(v + 0.5) / _PI

    def body(i, st):
        t, s = st
        k = i + 1.0
        tn = -t * (k - 0.5) * (v + 0.5 - k) / h2
        ok = snp.abs(tn) < snp.abs(t)
        return (snp.where(ok, tn, 0.0 * t), s + snp.where(ok, tn, 0.0)), \
            ok & (snp.abs(tn) > e * snp.abs(s))

    return U.masked_loop(body, (t0, t0), snp.ones_like(x, dtype=bool), 500)[1]


def _struve_h(v, x):
    ser = (x <= 6.0) | (0.25 * x * x <= v + 1.5)
    xs = snp.where(ser, x, 1.0)
    xi = snp.where(ser, 10.0, x)
    hs = _struve_series(v, xs, -1.0)
    y = _jy_real(v, xi)[1]
    hi = y + _struve_h_minus_y(v, xi)
    return snp.where(ser, hs, hi)


def _struve_l(v, x):
    ser = (x <= 40.0) | (v >= 0.5 * x)
    xs = snp.where(ser, x, 1.0)
    xa = snp.where(ser, 50.0, x)
    ls = _struve_series(v, xs, 1.0)
    ie = _ik_real(v, xa)[0]
    h = snp.exp(0.5 * xa)
    la = (ie * h) * h + _struve_m_asym(v, xa)
    return snp.where(ser, ls, la)


_struve_h = sciax.jit(_struve_h)
_struve_l = sciax.jit(_struve_l)


def _struve_diff(kernel):
    """kernel(v, x) with derivatives: x by H'_v = H_{v-1} - (v/x) H_v (DLMF
    11.4.28, the same for L_v), v by a fourth-order central difference."""
    @sciax.custom_jvp
    def f(v, x):
        return kernel(v, x)

    @f.defjvp
    def f_jvp(primals, tangents):
        v, x = primals
        dv, dx = tangents
        r = f(v, x)
        (rv,) = U.fd_param(lambda vv: (f(vv, snp.broadcast_to(x, vv.shape)),), v,
                           snp.zeros_like(x, dtype=bool))
        return r, (f(v - 1.0, x) - v / x * r) * dx + rv * dv

    return f


_struve_h_d = _struve_diff(_struve_h)
_struve_l_d = _struve_diff(_struve_l)


def _struve_common(name, v, z, fn, odd_sign):
    (v, x), out = U.promote_real(name, v, z)
    ax = snp.abs(x)
    r = fn(v, snp.where(ax > 0, ax, 1.0))
    # x^-(v+1) H_v(x) is even: H_v(-x) = (-1)^(v+1) H_v(x) for integer v.
    vint = U.is_int(v)
    par = snp.where(U.is_int(0.5 * (v + 1.0)), 1.0, -1.0)
    r = snp.where(x < 0, snp.where(vint, par * r, snp.nan), r)
    r0 = snp.where(v > -1.0, 0.0, snp.where(v == -1.0, 2.0 / _PI, snp.inf))
    r = snp.where(x == 0, r0, r)
    return U.finish(out, r)


def struve(v, x):
    r"""Struve function :math:`H_v(x)`.

    Power series for small ``x`` (or ``x**2/4 <= v + 3/2``); otherwise
    :math:`H_v = Y_v + (H_v - Y_v)` with the integral DLMF 11.5.2 by an
    80-point Gauss-Laguerre rule.  Real ``x``; negative ``x`` only for integer
    ``v``.  Differentiable in ``x`` (:math:`H_v' = H_{v-1} - (v/x) H_v`) and
    in ``v`` (fourth-order central difference, ~1e-10).

    Examples
    --------
    >>> from sciax.special import struve
    >>> print(np.round(struve(np.array([0.0, 1.0]), 2.0), 6))
    [0.790859 0.646764]
    """
    return _struve_common("struve", v, x, _struve_h_d, -1.0)


def modstruve(v, x):
    r"""Modified Struve function :math:`L_v(x)`.

    Power series (positive terms) for ``x <= 40``, :math:`I_v` plus the
    asymptotic expansion of :math:`L_v - I_v` (DLMF 11.6.2) beyond.

    Examples
    --------
    >>> from sciax.special import modstruve
    >>> print(np.round(modstruve(np.array([0.0, 1.0]), 2.0), 6))
    [1.937434 1.10276 ]
    """
    return _struve_common("modstruve", v, x, _struve_l_d, 1.0)
