"""Session 13 accuracy fixes of ``sciax.special`` (issue 20): the deep tails
of the incomplete gamma and beta functions and of the F distribution,
checked against mpmath.  There the exponent of the prefactor (``a log x -
x`` and its beta analogue, up to ~700) was rounded to double, which alone
moved values below 1e-117 by 1-2e-13; it is now formed in double-double
where it exceeds 64, and fdtr/fdtrc also keep the rounding of their
argument ``dfn x / (dfd + dfn x)``.  One compiled call per test (the eager
values were checked equal when this was written)."""

from __future__ import annotations

import mpmath
import numpy as np

import sciax
import sciax.numpy as snp
import sciax.special as ss
from tests.special.test_accuracy_s12 import _rel  # relative error vs mpmath

mpmath.mp.dps = 40


def test_gammainc_deep_tails():
    # (a, x, upper tail?): Q ~ 1e-254 at x = 2a (a log1pmx(1) rounded),
    # P ~ 1e-278 at x = a/2, Q at x >> a with a >= 10 (gdtrc's 1e-136 row)
    # and a < 10 (e - x rounded), P ~ 1e-58 at a = 1000 (gdtr's row).  The
    # old code lost 2.1e-13, 1.2e-13, 4.8e-14, 2.4e-14 and 2.0e-14; now <=
    # 6e-16.  Tolerance 5e-15.
    pts = [(1887.3887, 3774.7774, True), (3290.34, 1645.17, False),
           (25.6502, 569.608, True), (5.92553, 569.608, True),
           (1000.0, 570.0, False)]
    a, x, up = (np.array(v) for v in zip(*pts))
    f = sciax.jit(lambda a, x: (ss.gammainc(a, x), ss.gammaincc(a, x)))
    p, q = f(snp.asarray(a), snp.asarray(x))
    ref = [mpmath.gammainc(mpmath.mpf(ai), mpmath.mpf(xi) if u else 0,
                           mpmath.inf if u else mpmath.mpf(xi), regularized=True)
           for ai, xi, u in pts]
    ours = np.where(up, np.asarray(q), np.asarray(p))
    assert _rel(ours, ref).max() < 5e-15, _rel(ours, ref)


def test_betainc_deep_tails():
    # the small-shape prefactor (b log y ~ 530 at 1 - I_0.9(0.01, 231) =
    # 5e-236; I_1e-3(20, 30) = 2e-56), the big-shape one (I_1e-5(65.8,
    # 231) = 7e-263), and BGRAT's deep tails (I_0.7(811, 5.34) = 1.3e-117,
    # 1 - I_0.5(0.43, 811) = 1e-246: u = -T log x ~ 290 and ~560, rounded
    # in double).  The old code lost 1.2e-14, 9.0e-15, 1.7e-14, 3.6e-14 and
    # 3.8e-14; now <= 2.5e-15.  Tolerance 5e-15.
    pts = [(0.01, 231.013, 0.9, True), (65.7933, 231.013, 1e-5, False),
           (20.0, 30.0, 1e-3, False), (811.131, 5.3367, 0.7, False),
           (0.432876, 811.131, 0.5, True)]
    a, b, x, up = (np.array(v) for v in zip(*pts))
    i, ic = sciax.jit(lambda a, b, x: (ss.betainc(a, b, x), ss.betaincc(a, b, x)))(
        snp.asarray(a), snp.asarray(b), snp.asarray(x))
    ref = []
    for ai, bi, xi, u in pts:
        A, B, X = mpmath.mpf(ai), mpmath.mpf(bi), mpmath.mpf(xi)
        # each tail as its own integral (1 - X is exact in mpmath)
        ref.append(mpmath.betainc(B, A, 0, 1 - X, regularized=True) if u
                   else mpmath.betainc(A, B, 0, X, regularized=True))
    err = _rel(np.where(up, np.asarray(ic), np.asarray(i)), ref)
    assert err.max() < 5e-15, err


def test_fdtrc_deep_tails():
    # fdtrc down to 4e-253 (both of its branches, I and 1 - I), where the
    # rounding of w = dfn x / (dfd + dfn x) (~2 ulp, times an exponent
    # ~240) also moved the value.  The old code lost 4.1e-14 (5e-49) and
    # 4.7e-14 (4e-253); now <= 1e-15.  Of the other two points, BGRAT's
    # at 1.8e-63 measures 4.6e-16, and the one at 4e-15 through I_wc(12.8,
    # 240) 5.5e-15 (old 8e-15): betainc's error at the exact argument, its
    # log-beta term rounded in double.
    # Tolerance 1e-14.  (fdtr shares the argument's code.)
    pts = [(111.034, 480.638, 6.57933), (111.034, 480.638, 81.1131),
           (1.36887, 480.638, 284.804), (480.638, 25.6502, 30.0)]
    d1, d2, x = (np.array(v) for v in zip(*pts))
    fc = sciax.jit(ss.fdtrc)(snp.asarray(d1), snp.asarray(d2), snp.asarray(x))
    ref = []
    for u, v, y in pts:
        D1, D2, X = mpmath.mpf(u), mpmath.mpf(v), mpmath.mpf(y)
        # fdtrc = I_{d2 / (d2 + d1 x)}(d2/2, d1/2)
        ref.append(mpmath.betainc(D2 / 2, D1 / 2, 0, D2 / (D2 + D1 * X),
                                  regularized=True))
    err = _rel(fc, ref)
    assert err.max() < 1e-14, err


def test_double_double_helpers_under_jit():
    # the error-free transformations must survive XLA's simplifier and
    # code generation: under jit (and eagerly; the two differ only below
    # these bounds, where FMA contraction changes the last partial product),
    # two_prod is exact to ~2^-106 of the product, log_dd is within 1e-17
    # of max(|log r|, |r - 1|) (the series tail in double: measured 5e-18)
    # and xlogx_over_a within 1e-16 of max(|a log(x/a) - (x - a)|, 1)
    # (measured 2.5e-17).
    from sciax.special import _util
    rng = np.random.default_rng(3)
    a = np.exp(rng.uniform(-40, 40, 60)) * rng.choice([-1, 1], 60)
    b = np.exp(rng.uniform(-40, 40, 60))
    r = np.concatenate([np.exp(rng.uniform(-700, 700, 40)),
                        1 + rng.uniform(-0.5, 0.5, 40),
                        1 + np.exp(rng.uniform(-40, -2, 20))])
    ga = np.exp(rng.uniform(np.log(10), np.log(1e8), 60))
    gx = ga * np.exp(rng.uniform(-3, 3, 60))

    def all_(a, b, r, ga, gx):
        return (_util.two_prod(a, b), _util.log_dd(r, snp.zeros_like(r)),
                _util.xlogx_over_a(ga, gx))

    args = tuple(snp.asarray(v) for v in (a, b, r, ga, gx))
    m = mpmath.mpf
    for out in (sciax.jit(all_)(*args), all_(*args)):
        (p, e), (lh, ll), (xh, xl) = [tuple(np.asarray(v) for v in t) for t in out]
        err_p = max(abs((m(u) * m(v) - m(pi) - m(ei)) / (m(u) * m(v)))
                    for u, v, pi, ei in zip(a, b, p, e))
        err_l = max(abs(mpmath.log(m(ri)) - m(h) - m(lo))
                    / max(abs(mpmath.log(m(ri))), abs(m(ri) - 1))
                    for ri, h, lo in zip(r, lh, ll))
        err_x = []
        for ai, xi, h, lo in zip(ga, gx, xh, xl):
            ex = m(ai) * mpmath.log(m(xi) / m(ai)) - (m(xi) - m(ai))
            err_x.append(abs(ex - m(h) - m(lo)) / max(abs(ex), 1))
        assert err_p < 1e-30 and err_l < 1e-17 and max(err_x) < 1e-16, (
            float(err_p), float(err_l), float(max(err_x)))
