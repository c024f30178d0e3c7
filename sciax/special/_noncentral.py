"""Kernels of the noncentral chi-square, t and F distributions.

They live here, below ``sciax.stats``, so that the cdflib-style functions of
``sciax.special`` (``chndtr``, ``nctdtr``, ``ncfdtr`` and their inverses) and
the distributions ``sciax.stats.ncx2``, ``nct``, ``ncf`` share one
implementation (``special`` must not import ``stats``).  Moved unchanged from
``sciax/stats/_continuous_extra.py`` (ncx2) and ``_continuous_s10.py`` (nct,
ncf); their module docstrings there describe the methods.

``ncx2`` is a Poisson mixture of central chi-square laws.  Its density is
summed in log space over a fixed window around the Poisson mode; its CDF and
SF as blocks of terms from one incomplete gamma function at the top (CDF) or
bottom (SF) of the Poisson law's mass (``_ncx2_tail_kernel``), as many as
each point needs.

The noncentral t and F laws are Poisson mixtures of incomplete beta functions
(the series of Lenth, 1989, AS 243, and of Boost's ``non_central_beta`` /
``non_central_t``), summed from an anchor term outwards in both directions
(``_beta_mix``); where ``x`` and ``nc`` have opposite signs the nct tail
beyond ``x`` and the density are integrals of positive functions
(``_nct_opp_log``).  ``while_loop`` has no reverse mode, so each function
carries a ``custom_jvp`` whose partial derivatives come from forward-mode
``jvp``s (``_elementwise_jvp``).
"""

from __future__ import annotations

import functools
import math

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special._bessel import ive
from sciax.special._convenience import xlogy
from sciax.special._error import _log_ndtr, _ndtr
from sciax.special._gamma import betaln
from sciax.special import _util
from sciax.special._incomplete import _ibeta_pair, _igam_pq, _igam_prefactor_plain
from sciax.special._util import chunked

_INF = math.inf
_NAN = math.nan
_LOG2 = math.log(2.0)
_LOGSQRT2PI = 0.5 * math.log(2.0 * math.pi)

__all__: list[str] = []


def _gammainc_pair(a, x):
    """``(gammainc(a, x), gammaincc(a, x))`` from one evaluation, as
    :func:`_betainc_pair`."""
    a, x = snp.broadcast_arrays(*(snp.asarray(v, dtype=float) for v in (a, x)))
    return _igam_pq(a, x)


def _betainc_pair(a, b, x):
    """``(betainc(a, b, x), betaincc(a, b, x))`` from one evaluation of the
    series: where a program needs both (one or the other per element), this
    compiles one incomplete beta function instead of two."""
    a, b, x = snp.broadcast_arrays(*(snp.asarray(v, dtype=float) for v in (a, b, x)))
    return _ibeta_pair(a, b, x)


# --- noncentral chi-square -----------------------------------------------------------

_NCX2_HALF = 150


def _poisson_window(lam, ndim):
    """Poisson(lam) indices ``j`` and log-weights over a window of
    ``2 * _NCX2_HALF + 1`` terms around the mode (a new leading axis)."""
    shape = (-1,) + (1,) * ndim
    offs = snp.arange(-_NCX2_HALF, _NCX2_HALF + 1, dtype=lam.dtype).reshape(shape)
    j0 = snp.maximum(snp.floor(lax.stop_gradient(lam)) - _NCX2_HALF, 0.0)
    j = j0 + _NCX2_HALF + offs
    lam_s = snp.where(lam > 0, lam, 1.0)
    logw = snp.where(lam > 0, j * snp.log(lam_s) - lam - lax.lgamma(j + 1.0),
                     snp.where(j == 0, 0.0, -_INF))
    return j, logw


def _lse0(a):
    m = lax.stop_gradient(snp.max(a, axis=0))
    m = snp.where(snp.isfinite(m), m, 0.0)
    return snp.log(snp.sum(snp.exp(a - m), axis=0)) + m


# The tails are Poisson(lam) mixtures of P(a + j, y) (CDF) or Q(a + j, y) (SF),
# a = df/2, y = x/2, lam = nc/2, summed in blocks of _NCX2_B terms by a
# while_loop that stops per element.  With d_j = y^(a+j) e^-y / Gamma(a+j+1),
# P(a + j) = P(a + j + 1) + d_j and Q(a + j + 1) = Q(a + j) + d_j, so the CDF
# runs down from one P at a top index and the SF up from one Q at a bottom
# index: every P and Q is a sum of positive terms (both tails keep their
# relative precision; the other direction would subtract).  The anchors leave
# out Poisson mass below e^-_NCX2_L (Bernstein's bound above lam, Chernoff's
# below), at most 2 e^-40 = 8e-18 of the sum, since P falls and Q rises with j.
# The far end is where the remaining terms are below _NCX2_TOL of the sum:
# the ratio of consecutive terms is at most r = (j/lam)(1 + (a+j)/y) going
# down (P(a+j-1)/P(a+j) <= 1 + d_{j-1}/d_j) and (lam/(j+1))(1 + y/(a+j)) going
# up, r falls as the sum moves on, so the rest is below t r / (1 - r) once r
# < 1.  Each block takes its first d and Poisson weight exactly (Stirling's
# form, lgamma) and the others by products of ratios from its bottom index, so
# nothing is carried through a long recurrence to underflow.
_NCX2_B = 16
_NCX2_L = 40.0
_NCX2_TOL = 1e-17
_NCX2_MAXBLK = 1024     # 16384 terms: lam up to ~5e5 (18 sqrt(lam) terms)


def _ncx2_tail_kernel(x, df, nc, upf, up):
    """The CDF (``up`` False) or SF (True; None: where ``upf > 0.5``) of
    ncx2 at ``x``, elementwise over arrays of one shape."""
    if up is None:
        up = upf > 0.5

    def sel(a_up, a_down):
        if isinstance(up, bool):
            return a_up() if up else a_down()
        return snp.where(up, a_up(), a_down())

    lam, a, y = 0.5 * nc, 0.5 * df, 0.5 * x
    ok = (y > 0) & snp.isfinite(y)
    ys = snp.where(ok, y, 1.0)
    lam0 = lax.stop_gradient(lam)
    ll = _NCX2_L
    bsz = _NCX2_B
    top = snp.where(lam0 > 0, snp.floor(lam0 + ll / 3.0 + snp.sqrt(
        ll * ll / 9.0 + 2.0 * ll * lam0)), 0.0)
    bot = snp.maximum(snp.floor(lam0 - snp.sqrt(2.0 * ll * lam0)), 0.0)
    # the CDF's blocks are aligned to end at j = 0
    b0 = sel(lambda: bot, lambda: bsz * snp.floor(top / bsz))
    p, q = _gammainc_pair(a + sel(lambda: b0, lambda: b0 + bsz), ys)
    r0 = sel(lambda: q, lambda: p)
    k = snp.arange(bsz, dtype=x.dtype).reshape((bsz,) + (1,) * snp.ndim(x))
    first = k == 0
    lam_s = snp.where(lam > 0, lam, 1.0)
    log_lam = snp.log(lam_s)

    def body(c):
        i, b, r, s, act = c
        idx = b + k
        d0 = _igam_prefactor_plain(a + b, ys)
        logw0 = snp.where(lam > 0, b * log_lam - lam - lax.lgamma(b + 1.0),
                          snp.where(b == 0, 0.0, -_INF))
        # (where d0 underflows, y is large and the ratios' product can
        # overflow: 0 * inf was NaN from x ~ 1e50 on)
        d = snp.where(d0 > 0, d0 * snp.cumprod(snp.where(first, 1.0, ys / (a + idx)),
                                               axis=0), 0.0)
        w = snp.exp(logw0) * snp.cumprod(
            snp.where(first, 1.0, lam / snp.where(first, 1.0, idx)), axis=0)

        def q_terms():     # Q(a + b + k) = Q(a + b) + sum_{i < k} d_{b+i}
            return r + snp.cumsum(snp.concatenate([snp.zeros_like(d[:1]), d[:-1]]),
                                  axis=0)

        def p_terms():     # P(a + b + k) = P(a + b + B) + sum_{i >= k} d_{b+i}
            return r + snp.cumsum(d[::-1], axis=0)[::-1]

        terms = sel(q_terms, p_terms)
        s2 = s + snp.sum(w * terms, axis=0)
        r2 = r + snp.sum(d, axis=0)
        e = b + (bsz - 1.0)
        # the last term added and the bound on the ratio of the next ones
        t = sel(lambda: w[-1] * terms[-1], lambda: w[0] * r2)
        rho = sel(lambda: lam / (e + 1.0) * (1.0 + ys / (a + e)),
                  lambda: b / lam_s * (1.0 + (a + b) / ys))
        done = (rho < 1.0) & (t * rho <= _NCX2_TOL * s2 * (1.0 - rho))
        done = sel(lambda: done, lambda: done | (b <= 0))
        b2 = sel(lambda: b + bsz, lambda: b - bsz)

        def keep(new, old):
            return snp.where(act, new, old)

        return i + 1, keep(b2, b), keep(r2, r), keep(s2, s), act & ~done

    def cond(c):
        return (c[0] < _NCX2_MAXBLK) & snp.any(c[4])

    zero = snp.zeros_like(ys)
    _, _, _, s, _ = lax.while_loop(cond, body, (0, b0 + zero, r0 + zero, zero, ok))
    # outside (0, inf): the CDF is 0 at and below 0 and 1 at inf (SF reversed)
    edge = sel(lambda: snp.where(y > 0, 0.0, 1.0), lambda: snp.where(y > 0, 1.0, 0.0))
    return snp.where(ok, s, snp.where(snp.isnan(y), _NAN, edge))


_NCX2_TAILS: dict = {}


def _ncx2_tail(up):
    """ncx2's tail, ``f(x, df, nc, upf)``: the CDF for ``up`` False, the SF for
    True, either per element (``upf > 0.5``) for None; blocks of
    ``chunked`` elements each stop at their own slowest element.
    Differentiable (forward and reverse): in ``x`` and ``nc`` by closed forms
    (``dF/dx`` the density, ``dF/dnc = -pdf(x; df + 2, nc)``, both tails of
    positive terms), in ``df`` by forward mode through the sum."""
    f = _NCX2_TAILS.get(up)
    if f is not None:
        return f

    def impl(x, df, nc, upf):
        args = snp.broadcast_arrays(*(snp.asarray(v, dtype=float)
                                      for v in (x, df, nc, upf)))
        return chunked(lambda *v: (_ncx2_tail_kernel(*v, up),), *args)[0]

    f = sciax.custom_jvp(impl)

    def rule(primals, tangents):
        x, df, nc, upf = primals
        tx, tdf, tnc, _ = tangents
        out = f(*primals)
        sgn = snp.where(snp.asarray(upf) > 0.5, -1.0, 1.0)
        pos = x > 0
        xs = snp.where(pos, x, 1.0)
        dens = snp.where(pos, snp.exp(_ncx2_logpdf(xs, df, nc)), 0.0)
        dens2 = snp.where(pos, snp.exp(_ncx2_logpdf(xs, df + 2.0, nc)), 0.0)
        zero = snp.zeros_like(df * upf)
        _, ddf = sciax.jvp(impl, (x, df, nc, upf),
                           (snp.zeros_like(x), snp.ones_like(df), snp.zeros_like(nc),
                            zero))
        return out, sgn * (dens * tx - dens2 * tnc) + ddf * tdf

    f.defjvp(rule)
    _NCX2_TAILS[up] = f
    return f


def _ncx2_logpdf(x, df, nc):
    """The log-density of ncx2: the Poisson(``nc/2``) mixture over a fixed
    window of ``2 * _NCX2_HALF + 1`` terms around the mode, in log space."""
    lam = 0.5 * nc
    j, logw = _poisson_window(lam, snp.ndim(x * lam))
    k = 0.5 * df + j
    lp = xlogy(k - 1.0, 0.5 * x) - 0.5 * x - lax.lgamma(k) - _LOG2
    window = _lse0(logw + lp)
    # The terms peak at j* = (sqrt(a^2 + 4 lam y) - a)/2 (a = df/2, y = x/2),
    # not at the Poisson mode where the window sits: far from nc, x = 1e8 at
    # nc = 2 put j* ~ 7000 terms away (log-density 11,646 off), and x << nc
    # puts it below.  There the Bessel form 1/2 e^-(x+nc)/2 (x/nc)^(nu/2)
    # I_nu(sqrt(nc x)), nu = df/2 - 1, with the exponentially scaled ive.
    a, y = 0.5 * df, 0.5 * x
    jstar = 0.5 * (snp.sqrt(a * a + 4.0 * lam * y) - a)
    # (and for lam > 100, where the terms spread ~sqrt(8 lam) past the
    # window's edges: 3e-13 absolute at x = nc = 1000)
    far = (((snp.abs(jstar - lax.stop_gradient(lam)) > 0.5 * _NCX2_HALF) | (lam > 100.0))
           & (nc > 0) & (x > 0))
    xs_ = snp.where(far, x, 1.0)
    ncs = snp.where(far, nc, 1.0)
    nu = 0.5 * df - 1.0
    rx, rn = snp.sqrt(xs_), snp.sqrt(ncs)
    bessel = (-_LOG2 - 0.5 * (rx - rn) ** 2 + 0.5 * nu * (snp.log(xs_) - snp.log(ncs))
              + snp.log(ive(nu, rx * rn)))
    out = snp.where(far, bessel, window)
    # (at x = inf, xlogy(k - 1, inf) - inf was NaN)
    return snp.where(x == _INF, -_INF, out)


# --- noncentral t and F ------------------------------------------------------------

# Relative tolerance at which a direction of the series stops (a term below it
# times the running sum), and the bound on the trip count of its loop: each
# trip takes one term on either side of the anchor, and the Poisson weights
# fall below 1e-17 of their peak ~9 sqrt(lam) terms away from it, so the
# bound holds for lam up to ~10^5.
_SER_TOL = 1e-17
_SER_MAXIT = 3000


# Where a lower tail's I_z(a + k, b) underflows at the Poisson peak k, the
# anchor moves down to where t(a + k) = z^(a+k) y^b / ((a + k) B(a + k, b)),
# a lower bound on I_z(a + k, b), is about e^_LOG_ANCHOR: still a normal
# number, and so far above the peak of the terms that the ones beyond the
# anchor do not count, and are not summed (their recurrence subtracts, and
# its rounding, ~1e-16 I_z(a + k, b), would meet weights growing towards the
# Poisson peak).  Checked on x in [1e-6, 20], df in [0.3, 1000], nc in [5,
# 60] where the largest term is a normal number: t(1 + k) at the anchor is
# within [e^-700, e^-671], and the first term beyond it below e^-190 of the
# largest for nc <= 37.5, e^-46 at nc = 60.
_LOG_ANCHOR = -700.0


def _lower_anchor(k, a, b, logz, logy, lower):
    """``(k', moved)``: ``k' = min(k, n)`` with ``n`` the root of ``log t(a + n)
    = _LOG_ANCHOR`` above the peak of ``t`` (three Newton steps from ``k``, in
    ``m = a + n``: from above they stay above it where ``log t`` is concave,
    b >= 1, and land below it otherwise), where ``lower`` and ``log t(a + k)``
    is below ``_LOG_ANCHOR`` and falling; ``moved`` marks those elements."""
    logz, logy = lax.stop_gradient(logz), lax.stop_gradient(logy)
    b = lax.stop_gradient(b)
    c = b * logy - lax.lgamma(b)
    m0 = a + k

    def g(m):
        return m * logz + lax.lgamma(m + b) - lax.lgamma(m + 1.0) + c

    def dg(m):
        return logz + lax.digamma(m + b) - lax.digamma(m + 1.0)

    gm, dm = g(m0), dg(m0)
    moved = lower & (gm < _LOG_ANCHOR) & (dm < 0) & snp.isfinite(gm)
    m = snp.where(moved, m0, a)
    for i in range(3):
        if i:
            gm, dm = g(m), dg(m)
        m = snp.clip(m - (gm - _LOG_ANCHOR) / snp.where(moved, dm, -1.0), a, m0)
    kn = snp.floor(m - a)
    moved = moved & (kn < k)
    return snp.where(moved, kn, k), moved


def _beta_mix(lam, fams, b, z, logz, logy, lower, active, anchor_log=None):
    r"""``sum_n sum_f w_f(n) B_f(n)`` over ``n >= 0`` for families ``f`` of
    weights ``w_f(n) = c_f e^{-lam} lam^n / Gamma(n + e_f)`` (``fams`` is a
    tuple of ``(a_f, e_f, c_f)``), summed as Boost's ``non_central_beta_p`` /
    ``non_central_t2_p`` do: from an anchor ``k`` (the Poisson peak for the
    tails, the peak of the terms for the density) outwards in both directions
    at once, each direction stopping when
    its term falls below ``_SER_TOL`` of the sum (the terms are unimodal in
    ``n``, so a small term is past the peak on its side).

    Without ``anchor_log``, ``B_f(n)`` is ``I_z(a_f + n, b)`` where ``lower``
    and ``I_y(b, a_f + n) = 1 - I_z(a_f + n, b)`` elsewhere (``y = 1 - z``):
    one incomplete beta function per family at the anchor, the rest from
    ``I_z(a + 1, b) = I_z(a, b) - t(a)``, ``t(a) = z^a y^b / (a B(a, b))``
    (DLMF 8.17.20) and ``t(a + 1) = t(a) z (a + b) / (a + 1)``.  With it,
    ``B_f(n)`` is a density term whose log at the anchor is
    ``anchor_log(a_f + k)`` and whose ratio from ``n`` to ``n + 1`` is the
    beta densities' ``z (a + n + b) / (a + n)``.  Returns ``(sum exp(-scale),
    scale)`` (``scale`` 0 for a tail, unless its anchor moved:
    :func:`_lower_anchor`).  Elements where ``active`` is false skip the loop
    (and return a meaningless sum)."""
    F = len(fams)
    af = [f[0] for f in fams]
    ef = [f[1] for f in fams]
    density = anchor_log is not None
    # The anchor.  For the tails, the Poisson peak (Boost's): the recurrence
    # that subtracts (I going up in n, 1 - I going down) then runs where the
    # weights fall, so its absolute error ~eps I(k) stays below eps times the
    # sum; anchored lower, it would meet growing weights (tried: 1e-1 errors
    # at nct(10, 20)).  Where a lower tail's terms underflow there (small z),
    # it moves down (_lower_anchor), and the weights are scaled.  For the
    # density, whose recurrences only multiply, the peak of the terms w(n)
    # z^n Gamma(a + n + b) / Gamma(a + n), the root of n^2 + (a + 1 - lam z)
    # n + a - lam z (a + b) = 0 (at the Poisson peak the scaled terms
    # overflowed for small z).
    a0, lz = af[0], lam * z
    c1, c0 = a0 + 1.0 - lz, a0 - lz * (a0 + b)
    npk = snp.maximum(0.5 * (snp.sqrt(snp.maximum(c1 * c1 - 4.0 * c0, 0.0)) - c1), 0.0)
    npk = npk if density else lam
    k = lax.stop_gradient(snp.floor(npk))
    k = snp.where(z > 0, k, 0.0)
    lam_s = snp.where(lam > 0, lam, 1.0)
    zs = snp.where(z > 0, z, 1.0)
    logzs = snp.where(z > 0, logz, 0.0)
    moved = snp.zeros(snp.shape(k), bool)
    if not density:
        k, moved = _lower_anchor(k, max(af), b, logzs, logy, lower & (z > 0))
    logw = [xlogy(k, lam) - lam - lax.lgamma(k + e) for e in ef]
    # where the anchor moved, the weights are scaled to 1 there: below the
    # Poisson peak they fall to e^-lam, and w(k) I_z(a + k, b) underflowed
    wscale = lax.stop_gradient(snp.where(moved, logw[0], 0.0))
    w0 = [f[2] * snp.exp(lw - wscale) for f, lw in zip(fams, logw)]
    sgn = snp.where(lower, 1.0, -1.0)
    if density:
        g = [anchor_log(a + k) for a in af]
        scale = lax.stop_gradient(functools.reduce(snp.maximum, g))
        scale = snp.where(snp.isfinite(scale), scale, 0.0)
        B0 = [snp.exp(gi - scale) for gi in g]
        t0 = tm0 = [snp.zeros_like(z)] * F
    else:
        # I_z(a, b) and 1 - I_z(a, b) = I_y(b, a) at the anchor, from the
        # smaller of z and y (the other one, 1 minus it, is rounded: taken
        # near 1, I_y(1.5, 0.4) at y = 1 - 6e-16 was 1.2e-7 off its 1e-6 tail)
        ak = snp.stack([a + k for a in af])
        bb = snp.broadcast_to(b, ak.shape)
        zsmall = z <= 0.5
        p_, q_ = snp.where(zsmall, ak, bb), snp.where(zsmall, bb, ak)
        v_ = snp.where(zsmall, z, snp.exp(logy))
        i_, ic_ = _betainc_pair(p_, q_, v_)
        B0 = list(snp.where(zsmall == lower, i_, ic_))
        # log t(a + k) = log(z^(a+k) y^b / ((a + k) B(a + k, b))), by betaln:
        # lgamma(a + k + b) - lgamma(b) cost eps b log b absolutely (1.2e-10
        # of nct's CDF at df = 1e5)
        lt = [(a + k) * logz + b * logy - betaln(a + k, b) - snp.log(a + k)
              for a in af]
        t0 = [snp.exp(v) for v in lt]
        # t(a + k - 1), from t(a + k) (in logs: no 0 * inf where t underflows)
        tm0 = [snp.where(k > 0, snp.exp(
            v + snp.log(a + k) - logzs - snp.log(snp.maximum(a + k - 1.0 + b, 1e-300))),
            0.0) for v, a in zip(lt, af)]

    def fwd(n, w, B, t):
        """(w, B, t) at n -> at n + 1."""
        w = [wi * lam / (n + e) for wi, e in zip(w, ef)]
        if density:
            B = [Bi * z * (a + n + b) / (a + n) for Bi, a in zip(B, af)]
        else:
            B = [Bi - sgn * ti for Bi, ti in zip(B, t)]
            t = [ti * z * (a + n + b) / (a + n + 1.0) for ti, a in zip(t, af)]
        return w, B, t

    def bwd(n, w, B, t):
        """(w, B, t(n - 1)) at n -> at n - 1."""
        w = [wi * (n - 1.0 + e) / lam_s for wi, e in zip(w, ef)]
        if density:
            B = [Bi * (a + n - 1.0) / (zs * snp.maximum(a + n - 1.0 + b, 1e-300))
                 for Bi, a in zip(B, af)]
        else:
            B = [Bi + sgn * ti for Bi, ti in zip(B, t)]
            t = [ti * (a + n - 1.0) / (zs * snp.maximum(a + n - 2.0 + b, 1e-300))
                 for ti, a in zip(t, af)]
        return w, B, t

    s0 = sum(wi * Bi for wi, Bi in zip(w0, B0))
    f0 = fwd(k, w0, B0, t0)
    b0 = bwd(k, w0, B0, tm0)
    # (beyond a moved anchor the terms do not count: see _LOG_ANCHOR)
    init = (snp.zeros((), z.dtype), s0, k + 1.0, *f0, active & ~moved, k - 1.0, *b0,
            active & (k > 0))

    def cond(c):
        return (c[0] < _SER_MAXIT) & snp.any(c[6] | c[11])

    def body(c):
        i, s, nf, wf, Bf, tf, af_, nb, wb, Bb, tb, ab_ = c
        tfw = sum(wi * Bi for wi, Bi in zip(wf, Bf))
        tbw = sum(wi * Bi for wi, Bi in zip(wb, Bb))
        s = s + snp.where(af_, tfw, 0.0) + snp.where(ab_, tbw, 0.0)
        small = _SER_TOL * snp.abs(s)
        nwf, nBf, ntf = fwd(nf, wf, Bf, tf)
        nwb, nBb, ntb = bwd(nb, wb, Bb, tb)
        def sel(m, new, old):
            return [snp.where(m, p, q) for p, q in zip(new, old)]

        wf, Bf, tf = sel(af_, nwf, wf), sel(af_, nBf, Bf), sel(af_, ntf, tf)
        wb, Bb, tb = sel(ab_, nwb, wb), sel(ab_, nBb, Bb), sel(ab_, ntb, tb)
        af2 = af_ & (snp.abs(tfw) > small)
        ab2 = ab_ & (snp.abs(tbw) > small) & (nb > 0)
        return (i + 1.0, s, snp.where(af_, nf + 1.0, nf), wf, Bf, tf, af2,
                snp.where(ab_, nb - 1.0, nb), wb, Bb, tb, ab2)

    # lists in the carry: flatten to tuples of fixed length
    def pack(c):
        i, s, nf, wf, Bf, tf, af_, nb, wb, Bb, tb, ab_ = c
        return (i, s, nf, tuple(wf), tuple(Bf), tuple(tf), af_, nb, tuple(wb),
                tuple(Bb), tuple(tb), ab_)

    def unpack(c):
        i, s, nf, wf, Bf, tf, af_, nb, wb, Bb, tb, ab_ = c
        return (i, s, nf, list(wf), list(Bf), list(tf), af_, nb, list(wb), list(Bb),
                list(tb), ab_)

    out = lax.while_loop(cond, lambda c: pack(body(unpack(c))), pack(init))
    return out[1], (scale if density else wscale)


def _elementwise_jvp(impl, ndiff, dx=None):
    """``impl`` (elementwise in its arguments, the first ``ndiff`` of them
    differentiable) with a ``custom_jvp`` whose tangent is ``sum_i d_i
    impl * t_i``: the partials ``d_i impl`` come from forward-mode ``jvp``s
    of ``impl`` (which run through its ``while_loop``s), so the rule is
    linear in the tangents and reverse mode works, though a ``while_loop``
    cannot be transposed itself.  ``dx``, if given, is the partial in the
    first argument in closed form (a tail's: minus or plus the density, exact
    to its relative accuracy, where the derivative of the series of a tail
    near 1 holds only its absolute one)."""
    f = sciax.custom_jvp(impl)

    def rule(primals, tangents):
        out = f(*primals)
        dout = snp.zeros_like(out)
        for i in range(ndiff):
            if i == 0 and dx is not None:
                dout = dout + dx(*primals) * tangents[0]
                continue
            e = tuple(snp.ones_like(p) if j == i else snp.zeros_like(p)
                      for j, p in enumerate(primals))
            dout = dout + sciax.jvp(impl, primals, e)[1] * tangents[i]
        return out, dout

    f.defjvp(rule)
    return f


def _chunked(kernel):
    """``kernel`` over broadcast arguments, in cache-sized blocks (each block's
    loops stop at its own slowest element)."""
    def run(*args):
        args = snp.broadcast_arrays(*[snp.asarray(v, dtype=float) for v in args])
        return chunked(lambda *a: (kernel(*a),), *args)[0]
    return run


# nct in the opposite-sign region: quadrature of positive integrands.  For
# T ~ nct(df, -m), m > 0, and u >= 0, with S ~ chi(df) and a = u / sqrt(df),
#   P(T > u) = E[Q(a S + m)],   f(u) = E[S / sqrt(df) phi(a S + m)],
# integrated in w = log S (the integrand e^{p w - e^{2w}/2} g(e^w) is log-
# concave) by the trapezoid rule in tau, w = w0 + sigma sinh(tau), centred at
# the peak w0 of the density's integrand (the root of (1 + a^2) s^2 + a m s -
# p = 0, p = df + 1 for the density, df for the tail) with sigma its width.
# The sinh map makes the slow left tail e^{p w} decay doubly exponentially.
# Steps checked against mpmath (tests/stats/test_noncentral.py) and at x = 0
# (closed forms): h = 0.1 over |tau| <= 5 is exact to ~1e-14 for df >= 10;
# below, h = 1/16 (5e-13 at df = 2.5 with h = 0.1), and |tau| <= 7.5 for
# df < 2 (the left tail e^{df w}).
_Q_NMAX = 120


def _nct_opp_log(u, df, m, density, active):
    m = snp.where(active, m, 1.0)
    a = u / snp.sqrt(df)
    p = df + 1.0 if density else df
    am = a * m
    s0 = 2.0 * p / (am + snp.sqrt(am * am + 4.0 * (1.0 + a * a) * p))
    w0 = snp.log(s0)
    sig = 1.0 / snp.sqrt(2.0 * (1.0 + a * a) * s0 * s0 + am * s0)
    h = snp.where(df < 10.0, 1.0 / 16.0, 0.1)
    nh = snp.floor(snp.where(df < 2.0, 7.5, 5.0) / h)

    # the chi density's log in w with its constant: for df >= 20 in v = w -
    # log(df)/2 and Stirling's series for lgamma(df/2), where the terms
    # p w, s^2/2 and lgamma(df/2) (~df log df) cancel to O(1) (eps df log df
    # absolutely: 2e-7 of the lower tail at df = 1e3 and 2e-9 of the log
    # density at 1e6); below, as written
    k = 0.5 * df
    stable = df >= 20.0
    ks = _util.safe(stable, k, 10.0)
    c_stable = (_LOG2 + 0.5 * snp.log(ks) - _LOGSQRT2PI - _util.lgamma_corr(ks))
    c = -(k - 1.0) * _LOG2 - lax.lgamma(k)
    if density:
        c = c - 0.5 * snp.log(df) - _LOGSQRT2PI
    half_log_df = 0.5 * snp.log(df)

    def logf(w):
        s = snp.exp(snp.minimum(w, 300.0))     # e^{-s^2/2} = 0 beyond
        v2 = 2.0 * (w - half_log_df)
        core = ks * _util.log1pmx(snp.expm1(v2), v2) + c_stable
        if density:
            core = core + 0.5 * v2 - _LOGSQRT2PI
        core = snp.where(stable, core, p * w - 0.5 * s * s + c)
        if density:
            return core - 0.5 * (a * s + m) ** 2
        return core + _log_ndtr(-(a * s + m))

    ref = lax.stop_gradient(logf(w0))
    ref = snp.where(snp.isfinite(ref), ref, 0.0)

    def cond(c):
        return (c[0] <= 2.0 * _Q_NMAX) & snp.any(c[2])

    def body(c):
        i, acc, act = c
        tau = (i - nh) * h
        w = w0 + sig * snp.sinh(tau)
        v = h * sig * snp.cosh(tau) * snp.exp(logf(w) - ref)
        acc = acc + snp.where(act, v, 0.0)
        return i + 1.0, acc, act & (i + 1.0 <= 2.0 * nh)

    _, acc, _ = lax.while_loop(cond, body, (snp.zeros((), u.dtype), snp.zeros_like(u),
                                            active))
    return snp.log(acc) + ref


def _nct_tail_kernel(x, df, nc, upper):
    """The CDF (``upper`` 0) or SF (1) of nct at ``x``, elementwise."""
    u = snp.abs(x)
    neg = x < 0
    d = snp.where(neg, -nc, nc)
    lower = neg == (upper > 0.5)       # the lower tail of T(df, d) at u = |x|
    opp = ~lower & (d < 0)             # the tail whose series has both signs
    lam = 0.5 * d * d
    L = snp.log(df + u * u)
    logz = 2.0 * snp.log(u) - L                # u^2 / (df + u^2)
    # df / (df + u^2), to its relative accuracy: y^b = e^(b log y) with b =
    # df/2, and log(df) - L costs eps log(df) absolutely (1.7e-11 of the CDF
    # at df = 1e5, 1e-3 at 1e12)
    logy = -_util.log1p(u * u / df)
    fams = ((0.5, 1.0, 1.0), (1.0, 1.5, d / math.sqrt(2.0)))
    s, sc = _beta_mix(lam, fams, 0.5 * df, snp.exp(logz), logz, logy, lower, ~opp)
    # s is scaled by e^-sc, sc < 0 where the anchor moved down (_lower_anchor):
    # there s e^sc, and Phi(-d) for nc near 37.5, can be subnormal (flushed to
    # 0 by XLA) where their sum is normal.  Phi(-d) e^-sc is below 1/d (Mills'
    # ratio, -sc <= lam), but e^-sc alone overflows for lam > 709; capped at
    # e^708, beyond which Phi(-d) < e^-lam / (d sqrt(2 pi)) is subnormal, 0
    e = snp.exp(snp.minimum(-0.5 * sc, 354.0))
    ser = snp.where(lower, _ndtr(-d) * e * e + 0.5 * s, 0.5 * s)
    ser = snp.where(sc < 0, snp.exp(snp.log(ser) + sc), ser)
    q = snp.exp(_nct_opp_log(u, df, -d, False, opp))
    return snp.where(opp, q, ser)


def _nct_logpdf_kernel(x, df, nc):
    u = snp.abs(x)
    d = snp.where(x < 0, -nc, nc)
    opp = d < 0
    lam = 0.5 * d * d
    L = snp.log(df + u * u)
    logz = 2.0 * snp.log(u) - L
    logy = -_util.log1p(u * u / df)            # (as in _nct_tail_kernel)
    b = 0.5 * df

    def anchor_log(a):
        # log of d/du I_z(a, b) = z^(a-1) y^(b-1) / B(a, b) dz/du, in u:
        # 2 u^(2a - 1) y^b (df + u^2)^-a / B(a, b)
        return _LOG2 + xlogy(2.0 * a - 1.0, u) + b * logy - a * L - betaln(a, b)

    fams = ((0.5, 1.0, 1.0), (1.0, 1.5, d / math.sqrt(2.0)))
    s, scale = _beta_mix(lam, fams, b, snp.exp(logz), logz, logy, True, ~opp,
                         anchor_log)
    ser = snp.log(0.5 * s) + scale
    q = _nct_opp_log(u, df, -d, True, opp)
    return snp.where(opp, q, ser)


def _ncf_tail_kernel(x, dfn, dfd, nc, upper):
    L = snp.log(dfn * x + dfd)
    logz = snp.log(dfn * x) - L
    logy = -_util.log1p(dfn * x / dfd)         # (as in _nct_tail_kernel)
    s, sc = _beta_mix(0.5 * nc, ((0.5 * dfn, 1.0, 1.0),), 0.5 * dfd, snp.exp(logz),
                      logz, logy, ~(upper > 0.5), snp.ones(snp.shape(x), bool))
    return snp.where(sc < 0, snp.exp(snp.log(s) + sc), s)


def _ncf_logpdf_kernel(x, dfn, dfd, nc):
    b = 0.5 * dfd
    L = snp.log(dfn * x + dfd)
    logz = snp.log(dfn * x) - L
    logy = -_util.log1p(dfn * x / dfd)         # (as in _nct_tail_kernel)
    c = snp.log(dfn)

    def anchor_log(a):
        # the beta density of z at (a, b) times dz/dx = dfn dfd / (dfn x + dfd)^2:
        # (dfn x)^(a-1) dfn y^b (dfn x + dfd)^-a / B(a, b)
        return xlogy(a - 1.0, dfn * x) + c + b * logy - a * L - betaln(a, b)

    s, scale = _beta_mix(0.5 * nc, ((0.5 * dfn, 1.0, 1.0),), b, snp.exp(logz), logz,
                         logy, True, snp.ones(snp.shape(x), bool), anchor_log)
    return snp.log(s) + scale


_nct_logpdf = _elementwise_jvp(_chunked(_nct_logpdf_kernel), 3)
_ncf_logpdf = _elementwise_jvp(_chunked(_ncf_logpdf_kernel), 4)


def _nct_tail_dx(x, df, nc, up):
    return snp.where(up > 0.5, -1.0, 1.0) * snp.exp(_nct_logpdf(x, df, nc))


def _ncf_tail_dx(x, dfn, dfd, nc, up):
    f = snp.exp(_ncf_logpdf(snp.where(x > 0, x, 1.0), dfn, dfd, nc))
    return snp.where(up > 0.5, -1.0, 1.0) * snp.where(x > 0, f, 0.0)


_nct_tail = _elementwise_jvp(_chunked(_nct_tail_kernel), 3, _nct_tail_dx)
_ncf_tail = _elementwise_jvp(_chunked(_ncf_tail_kernel), 4, _ncf_tail_dx)
