"""Far tails and support ends of sciax.stats distributions (session 24's
sweep against SciPy at x = ppf/isf(1e-300 .. 0.3) and |x| up to 1e300),
against mpmath or closed forms.  SciPy is the wrong side at many of these
points (its -inf where the log is finite, or 1e-6 relative off from
cancellation): the references here never come from SciPy."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import stats as st

_INF = math.inf


def _run(dist, method, x, *params):
    """One compiled call of dist.method on the vector x."""
    return np.asarray(getattr(dist, method)(snp.asarray(np.asarray(x, float)), *params))


def _close(ours, ref, rtol):
    ours, ref = np.asarray(ours), np.asarray(ref, float)
    inf = np.isinf(ref)
    assert np.array_equal(ours[inf], ref[inf]), (ours, ref)
    np.testing.assert_allclose(ours[~inf], ref[~inf], rtol=rtol, atol=0)


# -- references ---------------------------------------------------------------

def _cauchy_logpdf(x):
    with mp.workdps(30):
        return float(-mp.log(mp.pi) - mp.log1p(mp.mpf(x) ** 2))


def _exponweib_logcdf_logsf(x, a, c):
    # 1 - (1 - e^-u)^a needs digits beyond u/ln(10) (u up to 700)
    with mp.workdps(400):
        u = mp.mpf(x) ** c
        lc = a * mp.log(-mp.expm1(-u))
        return float(lc), float(mp.log(-mp.expm1(lc)))


def _invgauss_logsf(x, mu):
    # sf = phi(z1) (R(z1) - R(z2)), R the Mills ratio; R(z1) - R(z2) ~ 2 mu/x
    # relative, so the digits grow with log10(x)
    with mp.workdps(60 + 2 * int(math.log10(x))):
        x, mu = mp.mpf(x), mp.mpf(mu)
        z1, z2 = (x / mu - 1) / mp.sqrt(x), (x / mu + 1) / mp.sqrt(x)

        def mills(z):
            return mp.erfc(z / mp.sqrt(2)) * mp.sqrt(mp.pi / 2) * mp.exp(z * z / 2)

        return float(mp.log(mp.npdf(z1) * (mills(z1) - mills(z2))))


def _loggamma_logcdf(x, c):
    with mp.workdps(40):
        return float(mp.log(mp.gammainc(c, 0, mp.exp(x), regularized=True)))


def _skewnorm_logcdf(x, a):
    # ndtr(x) - 2 T(x, a) directly, T by quadrature, with the digits its
    # cancellation (e^(-a^2 x^2/2)) and log near 1 (e^(-x^2/2)) take
    with mp.workdps(40 + int((1 + a * a) * x * x / 4.6)):
        x, a = mp.mpf(x), mp.mpf(a)
        t = mp.quad(lambda t: mp.exp(-x * x * (1 + t * t) / 2) / (1 + t * t), [0, a])
        return float(mp.log(mp.ncdf(x) - t / mp.pi))


def _skewnorm_logcdf_far(x, a):
    # x < 0 < a: cdf = (1/pi) int_a^inf e^(-x^2 (1 + t^2)/2)/(1 + t^2) dt
    # (T(x, inf) - T(x, a)), adaptive quadrature in v = x^2 (t^2 - a^2)/2
    with mp.workdps(40):
        x, a = mp.mpf(x), mp.mpf(a)

        def g(v):
            t2 = a * a + 2 * v / (x * x)
            return mp.exp(-v) / (x * x * mp.sqrt(t2) * (1 + t2))

        q = mp.quad(g, [0, 0.01, 0.1, 1, 5, 20, mp.inf])
        return float(-(1 + a * a) * x * x / 2 + mp.log(q / mp.pi))


def _foldnorm_logcdf(x, c):
    with mp.workdps(40):
        x, c = mp.mpf(x), mp.mpf(c)
        return float(mp.log(mp.ncdf(x - c) - mp.ncdf(-x - c)))


# -- default run: one compiled call per distribution and method ---------------

def test_cauchy_logpdf_huge_x():
    # log1p(x * x) overflowed from |x| = 1.3e154 (-inf; true -1382.7 at 1e300)
    x = [-1e300, -3.18e299, -1e155, -1e8, -0.5, 2.0, 1e9, 1e300]
    _close(_run(st.cauchy, "logpdf", x), [_cauchy_logpdf(v) for v in x], 1e-15)


def test_support_end_limits():
    # inf - inf at the finite end x = 1/c was NaN: the limits of the closed
    # forms there ((1/c - 1) log(1 - c x) + ...) are -inf / a finite value / +inf
    c = np.array([0.2, 1.0, 2.0, -0.5])
    ours = np.asarray(st.genextreme.logpdf(snp.asarray(1.0 / c), snp.asarray(c)))
    np.testing.assert_array_equal(ours, [-_INF, 0.0, _INF, -_INF])
    c = np.array([0.6, 1.0, 1.5])
    ours = np.asarray(st.genhalflogistic.logpdf(snp.asarray(1.0 / c), snp.asarray(c)))
    np.testing.assert_array_equal(ours[[0, 2]], [-_INF, _INF])
    assert abs(ours[1] - math.log(2.0)) < 1e-15
    # the log-normal factor wins at x = 0
    assert float(st.powerlognorm.logpdf(0.0, 2.1, 0.5)) == -_INF
    assert float(st.lognorm.logpdf(0.0, 1.3)) == -_INF
    # densities ~ A x^(k - 1) at x = 0 (k = c d for burr, c for fisk)
    c = np.array([10.5, 2.0, 0.5])
    d = np.array([0.7, 0.5, 0.7])
    ours = np.asarray(st.burr.logpdf(snp.zeros(3), snp.asarray(c), snp.asarray(d)))
    np.testing.assert_array_equal(ours, [-_INF, 0.0, _INF])
    ours = np.asarray(st.fisk.logpdf(snp.zeros(3), snp.asarray([5.5, 1.0, 0.5])))
    np.testing.assert_array_equal(ours, [-_INF, 0.0, _INF])


def test_exponweib_log_tails():
    # the logsf was log(-expm1(logcdf)) with logcdf = a log(-expm1(-x^c)) = 0
    # to double from x^c ~ 37: -inf at x = 202 (true -68.95)
    x = [0.5, 3.0, 66.0, 202.0, 901.0, 3550.0]
    refs = np.array([_exponweib_logcdf_logsf(v, 2.5, 0.8) for v in x])
    ours = np.asarray(sciax.jit(lambda x: snp.stack(
        [st.exponweib.logcdf(x, 2.5, 0.8), st.exponweib.logsf(x, 2.5, 0.8)]))(
            snp.asarray(x)))
    # log cdf ~ -a e^-u carries u eps of u = x^c's rounding (u = 690 at 3550)
    np.testing.assert_allclose(ours[0], refs[:, 0], rtol=2e-13, atol=0)
    np.testing.assert_allclose(ours[1], refs[:, 1], rtol=2e-14, atol=0)
    # far past e^-u's underflow: log a - u
    assert float(st.exponweib.logsf(1e5, 2.5, 0.8)) == pytest.approx(
        math.log(2.5) - 1e5**0.8, rel=1e-15)


def test_invgauss_logsf_far():
    # the Mills difference cancelled to 0 (wald logsf -inf at x = 1e8, true
    # -5.0000027e7) and the double-double exponent overflowed (NaN from 1e248)
    x = [0.5, 3.0, 50.0, 500.0, 1e5, 1e20, 1e248, 1e300, 3.0, 3000.0, 1e8, 1e300]
    mu = [0.4] * 8 + [1.0] * 4
    ours = np.asarray(st.invgauss.logsf(snp.asarray(x), snp.asarray(mu)))
    _close(ours, [_invgauss_logsf(v, m) for v, m in zip(x, mu)], 3e-15)


@pytest.mark.slow
def test_wald_logsf_far():
    x = [3.0, 50.0, 3000.0, 1e8, 1e300]
    _close(_run(st.wald, "logsf", x), [_invgauss_logsf(v, 1.0) for v in x], 3e-15)


@pytest.mark.slow
def test_loggamma_logcdf_far_left():
    # gammainc(c, e^x) underflowed: -inf at x = -987 (true -690.8)
    x = [-987.0, -100.0, -31.0, -29.0, -5.0, 0.0]
    _close(_run(st.loggamma, "logcdf", x, 0.7), [_loggamma_logcdf(v, 0.7) for v in x], 1e-15)


def test_skewnorm_log_tails():
    # ndtr(x) - 2 T(x, a) cancelled (1e-6 relative at cdf = 1e-12) and went
    # negative (NaN) below x = -8 at a = 3; SciPy is -inf below x ~ -10.
    # rtol: log cdf near 0 is -sf, whose e^(log sf) carries |log sf| eps
    x = np.array([-8.19, -2.08, -0.5, 0.5, 2.08, 8.19] * 2)
    a = np.array([3.0] * 6 + [-3.0] * 6)
    ours = np.asarray(st.skewnorm.logcdf(snp.asarray(x), snp.asarray(a)))
    ref = [_skewnorm_logcdf(v, b) for v, b in zip(x, a)]
    np.testing.assert_allclose(ours, ref, rtol=5e-14, atol=0)


@pytest.mark.slow
def test_skewnorm_logsf_mirror():
    # sf(x; a) = cdf(-x; -a): the same values by the other method
    x = np.array([-8.19, -2.08, 0.5, 8.19])
    ref = [_skewnorm_logcdf(v, 3.0) for v in x]
    np.testing.assert_allclose(_run(st.skewnorm, "logsf", -x, -3.0), ref, rtol=5e-14, atol=0)


def test_near_end_cancellations():
    # q = 1e-12 .. 1e-30 ends that lost 1e-6 .. 1e-11 relative (SciPy is the
    # inaccurate side at most of the sweep's others: semicircular, bradford,
    # burr, fisk, triang, truncnorm, loguniform; checked against mpmath)
    x = [1.420184280047931e-12, 1e-4, 0.02, 0.5]
    _close(_run(st.foldnorm, "logcdf", x, 0.5), [_foldnorm_logcdf(v, 0.5) for v in x], 1e-15)
    with mp.workdps(40):
        xc = mp.mpf(-3.1415926532544853)
        ref = float(mp.log((mp.pi + xc + mp.sin(xc)) / (2 * mp.pi)))
        xg, c = mp.mpf(1.6666665972881536), mp.mpf(0.6)
        t = (1 - c * xg) ** (1 / c)
        refg = float(mp.log(2 * t / (1 + t)))
    ours = _run(st.cosine, "logcdf", [-3.1415926532544853, 0.0])
    np.testing.assert_allclose(ours, [ref, -math.log(2.0)], rtol=1e-15)
    assert float(st.cosine.logsf(3.1415926532544853)) == pytest.approx(ref, rel=1e-15)
    assert float(st.genhalflogistic.logsf(1.6666665972881536, 0.6)) == pytest.approx(
        refg, rel=1e-15)
    # genhalflogistic's 1 - t near 0 (6.7e-7 off at cdf = 1e-12, c = 1.5) and
    # loguniform's log x - log a near a or b (1e-3 off at sf = 1e-15)
    with mp.workdps(40):
        xg, c = mp.mpf(2.0001037862963735e-12), mp.mpf(1.5)
        t = (1 - c * xg) ** (1 / c)
        refg = float(mp.log((1 - t) / (1 + t)))
        xl = mp.mpf(29.999999999999897)
        refl = float(mp.log(mp.log(30 / xl) / mp.log(30)))
    assert float(st.genhalflogistic.logcdf(2.0001037862963735e-12, 1.5)) == pytest.approx(
        refg, rel=1e-15)
    assert float(st.loguniform.logsf(29.999999999999897, 1.0, 30.0)) == pytest.approx(
        refl, rel=1e-15)


def test_discrete_log_tails():
    # logcdf/logsf were log(cdf)/log(sf): geom's sf (1 - p)^k underflowed
    # (-inf at k = 1e4, p = 0.3); dlaplace's cdf left of 0 likewise, and its
    # 1 - e^(-a k)/(1 + e^a) lost the tail near 1 (SciPy is 4e-5 off at k = 33)
    k = np.array([1e4, 1e8, 1e300])
    np.testing.assert_allclose(_run(st.geom, "logsf", k, 0.3), k * math.log1p(-0.3),
                               rtol=1e-15)
    k = np.array([-1e4, -35.0, -1.0, 0.0, 33.0, 1e4])
    a = 0.8
    with mp.workdps(60):
        A = mp.mpf(a)

        def sf(j):
            j = mp.mpf(j)
            return (mp.exp(-A * (j + 1)) / (1 + mp.exp(-A)) if j >= 0
                    else 1 - mp.exp(A * (j + 1)) / (1 + mp.exp(A)))

        lcdf = [float(mp.log(1 - sf(j))) if j >= 0 else float(A * (j + 1) - mp.log1p(mp.exp(A)))
                for j in k]
        lsf = [float(mp.log(sf(j))) if j >= 0 else float(mp.log1p(-mp.exp(A * (j + 1))
                                                                   / (1 + mp.exp(A))))
               for j in k]
    ours = np.asarray(sciax.jit(lambda k: snp.stack(
        [st.dlaplace.logcdf(k, a), st.dlaplace.logsf(k, a)]))(snp.asarray(k)))
    np.testing.assert_allclose(ours[0], lcdf, rtol=1e-15, atol=1e-300)
    np.testing.assert_allclose(ours[1], lsf, rtol=1e-15, atol=1e-300)


def test_logser_far_tail():
    # the cdf summed the pmf up to k itself (k = 1e20 never finished) and the
    # tail sum underflowed from k ~ 1400 (logsf -inf); reference: the Lerch
    # transcendent, sf(k) = p^(k+1) Phi(p, 1, k + 1) / -log(1 - p)
    k = np.array([1.0, 50.0, 1e3, 1e8, 1e20])
    with mp.workdps(40):
        p = mp.mpf(0.6)
        ref = [float((j + 1) * mp.log(p) + mp.log(mp.lerchphi(p, 1, j + 1))
                     - mp.log(-mp.log1p(-p))) for j in k]
    # the log of p^(k+1) carries (k + 1) log p's rounding: eps relative
    np.testing.assert_allclose(_run(st.logser, "logsf", k, 0.6), ref, rtol=1e-15)


@pytest.mark.slow
def test_skewnorm_far_tail():
    # deep in the tail (|x| = 40) and at large / small a, where the direct
    # reference would need thousands of digits
    x = np.array([-40.0, -8.19, -40.0, -1.0, -40.0, -8.19])
    a = np.array([3.0, 3.0, 30.0, 30.0, 0.2, 0.2])
    ours = np.asarray(st.skewnorm.logcdf(snp.asarray(x), snp.asarray(a)))
    ref = [_skewnorm_logcdf_far(v, b) for v, b in zip(x, a)]
    np.testing.assert_allclose(ours, ref, rtol=2e-15, atol=0)
    # past |x| ~ 1e154 (x^2 overflows) the log tails are -inf, not NaN
    x = np.array([-1e300, 1e300])
    np.testing.assert_array_equal(_run(st.skewnorm, "logcdf", x, 3.0), [-_INF, 0.0])
    np.testing.assert_array_equal(_run(st.skewnorm, "logsf", x, 3.0), [0.0, -_INF])


# -- slow: derivatives against central differences, one point per fix ---------

_GRAD_CASES = [
    # (dist, method, x, shapes); x inside each fix's new branch
    ("cauchy", "logpdf", 3e9, ()),
    ("genextreme", "logpdf", 4.9, (0.2,)),
    ("genhalflogistic", "logpdf", 1.6, (0.6,)),
    ("powerlognorm", "logpdf", 1e-3, (2.1, 0.5)),
    ("exponweib", "logsf", 200.0, (2.5, 0.8)),
    ("exponweib", "logcdf", 60.0, (2.5, 0.8)),
    ("invgauss", "logsf", 1e3, (0.4,)),
    ("invgauss", "logsf", 20.0, (0.4,)),
    ("wald", "logsf", 1e4, ()),
    ("loggamma", "logcdf", -40.0, (0.7,)),
    ("skewnorm", "logcdf", -8.0, (3.0,)),
    ("skewnorm", "logcdf", 2.5, (3.0,)),
    ("skewnorm", "logsf", -3.0, (-2.0,)),
    ("foldnorm", "logcdf", 1e-3, (0.5,)),
    ("cosine", "logcdf", -3.1, ()),
    ("genhalflogistic", "logsf", 1.66, (0.6,)),
    ("genhalflogistic", "logcdf", 0.01, (1.5,)),
    ("loguniform", "logsf", 29.9, (1.0, 30.0)),
    ("burr", "logpdf", 0.3, (10.5, 0.7)),
    ("fisk", "logpdf", 0.3, (5.5,)),
]


@pytest.mark.slow
def test_tail_derivatives():
    # d/dx and d/dshape of each new branch against central differences
    # (h = 1e-6 relative; their error ~ h^2 f''' + eps f/h: 1e-7 relative
    # suffices to catch a wrong branch derivative, which is O(1) off)
    for name, method, x0, shapes in _GRAD_CASES:
        dist = getattr(st, name)

        def f(x, *s, dist=dist, method=method):
            return getattr(dist, method)(x, *s)

        args = (x0,) + tuple(shapes)
        grads = sciax.grad(f, argnums=tuple(range(len(args))))(*args)
        for i, g in enumerate(grads):
            h = 1e-6 * max(abs(args[i]), 1e-3)
            up = list(args)
            dn = list(args)
            up[i] += h
            dn[i] -= h
            fd = (float(f(*up)) - float(f(*dn))) / (2 * h)
            assert float(g) == pytest.approx(fd, rel=1e-6, abs=1e-8), (name, method, i)


@pytest.mark.slow
def test_discrete_log_tail_derivatives():
    # geom logsf in p, dlaplace logcdf/logsf in a (k is discrete); logser's
    # sums are while loops: forward mode, as before
    for fn, p0, diff in ((lambda p: st.geom.logsf(1e4, p), 0.3, sciax.grad),
                         (lambda p: st.logser.logsf(1e3, p), 0.6, sciax.jacfwd),
                         (lambda a: st.dlaplace.logcdf(-40.0, a), 0.8, sciax.grad),
                         (lambda a: st.dlaplace.logsf(33.0, a), 0.8, sciax.grad)):
        h = 1e-6
        fd = (float(fn(p0 + h)) - float(fn(p0 - h))) / (2 * h)
        assert float(diff(fn)(p0)) == pytest.approx(fd, rel=1e-7)
