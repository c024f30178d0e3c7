"""sciax.special Bessel family against SciPy (and mpmath where SciPy is weak).

Oscillating functions (J, Y, Airy on the negative axis, spherical j/y) are
compared relative to their envelope ``hypot(J, Y)``: near a zero the
relative error of any double-precision evaluation is unbounded, while the
error relative to the local amplitude is what the algorithms control.
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import sciax
import sciax.numpy as snp
from sciax import special as S
from tests.special._relerr import rel_err

V = np.array([-7.5, -2.3, -1.0, -0.5, 0.0, 0.3, 1.0, 2.5, 10.0, 30.7, 100.0])
X = np.array([1e-8, 1e-3, 0.1, 0.5, 1.9, 2.0, 2.1, 5.0, 10.0, 25.0, 40.0, 100.0,
              1e3, 1e4])
VV, XX = (a.ravel() for a in np.meshgrid(V, X))


_err = rel_err


def _mp_fix(ref, v, x, f, mask):
    """Replace SciPy's value by mpmath's where SciPy is known to be weak."""
    ref = ref.copy()
    for i in np.nonzero(mask)[0]:
        ref[i] = float(f(mp.mpf(v[i]), mp.mpf(x[i])))
    return ref


@sciax.jit
def _all_real_order(v, x):
    return (S.jv(v, x), S.yv(v, x), S.iv(v, x), S.kv(v, x), S.ive(v, x), S.kve(v, x))


def test_real_order_grid():
    mp.mp.dps = 30
    j, y, i, k, ie, ke = (np.asarray(t) for t in _all_real_order(VV, XX))
    rj, ry = sc.jv(VV, XX), sc.yv(VV, XX)
    # SciPy (AMOS) loses ~4e-13 for order 100 at x = 1000.
    weak = (np.abs(VV) >= 50) & (XX >= 500) & (XX < 5000)
    rj = _mp_fix(rj, VV, XX, mp.besselj, weak)
    ry = _mp_fix(ry, VV, XX, mp.bessely, weak)
    env = np.hypot(rj, ry)
    assert _err(j, rj, env).max() < 1e-13
    assert _err(y, ry, env).max() < 1e-13
    assert _err(i, sc.iv(VV, XX)).max() < 1e-13
    assert _err(k, sc.kv(VV, XX)).max() < 1e-13
    assert _err(ie, sc.ive(VV, XX)).max() < 1e-13
    assert _err(ke, sc.kve(VV, XX)).max() < 1e-13


# Compiles the Bessel kernels again for other shapes/dtypes (or their
# derivatives): minutes on two busy cores, so in the slow step.
@pytest.mark.slow
def test_edges_and_integer_orders():
    v = np.array([0.0, 1.0, 2.0, -1.0, -0.5, 0.5, 3.0, 2.5, np.nan, 1.0])
    x = np.array([0.0, 0.0, -3.0, -2.0, 0.0, -1.0, np.inf, 0.0, 1.0, np.nan])
    for f, g in [(S.jv, sc.jv), (S.yv, sc.yv), (S.iv, sc.iv), (S.kv, sc.kv),
                 (S.ive, sc.ive), (S.kve, sc.kve)]:
        a, b = np.asarray(f(v, x)), g(v, x)
        np.testing.assert_allclose(a, b, rtol=1e-14, atol=0, err_msg=f.__name__)
    xs = np.array([0.0, 1e-5, 0.7, 3.0, 20.0, 700.0])
    for f, g in [(S.j0, sc.j0), (S.j1, sc.j1), (S.y0, sc.y0), (S.y1, sc.y1),
                 (S.i0, sc.i0), (S.i1, sc.i1), (S.i0e, sc.i0e), (S.i1e, sc.i1e),
                 (S.k0, sc.k0), (S.k1, sc.k1), (S.k0e, sc.k0e), (S.k1e, sc.k1e)]:
        env = np.hypot(sc.j0(xs), sc.y0(xs)) if f in (S.j0, S.j1, S.y0, S.y1) else None
        assert _err(f(xs), g(xs), env).max() < 1e-13, f.__name__
    assert _err(S.yn(3, xs[1:]), sc.yn(3, xs[1:])).max() < 1e-13


# Compiles the Bessel kernels again for other shapes/dtypes (or their
# derivatives): minutes on two busy cores, so in the slow step.
@pytest.mark.slow
def test_dtypes_and_errors():
    x32 = np.array([0.5, 3.0], np.float32)
    assert S.jv(1.0, x32).dtype == np.float32
    assert S.kve(np.float32(0.5), x32).dtype == np.float32
    assert S.hankel1(0.5, x32).dtype == np.complex64
    assert S.spherical_jn(2, x32).dtype == np.float32
    assert S.jv(1, 2).dtype == np.float64
    with pytest.raises(TypeError, match="complex"):
        S.jv(1.0, 1.0 + 1j)


# Compiles the Bessel kernels again for other shapes/dtypes (or their
# derivatives): minutes on two busy cores, so in the slow step.
@pytest.mark.slow
def test_hankel_spherical_airy_struve():
    x = np.array([0.3, 2.0, 7.5, 40.0])
    v = np.array([0.5, -1.2, 3.0, 0.0])
    for f, g in [(S.hankel1, sc.hankel1), (S.hankel2, sc.hankel2),
                 (S.hankel1e, sc.hankel1e), (S.hankel2e, sc.hankel2e)]:
        b = g(v, x)
        assert _err(f(v, x), b, np.abs(b)).max() < 1e-13, f.__name__
    xs = np.array([-3.0, -0.1, 0.0, 1e-3, 0.5, 1.5, 7.0, 30.0, 200.0])
    for n in [0, 1, 2, 5, 20]:
        env = np.hypot(sc.spherical_jn(n, xs), sc.spherical_yn(n, xs))
        for d in (False, True):
            for f in ["spherical_jn", "spherical_yn", "spherical_in", "spherical_kn"]:
                a = getattr(S, f)(n, xs, derivative=d)
                b = getattr(sc, f)(n, xs, derivative=d)
                e = env if f in ("spherical_jn", "spherical_yn") else None
                assert _err(a, b, e).max() < 1e-13, (f, n, d)
    # (x <= -30 against mpmath: test_airy_negative_vs_mpmath; SciPy's phase is
    # 1.6e-12 off at -1e3)
    xa = np.array([-30.0, -3.0, -2.0, -0.1, 0.0, 0.5, 1.01, 7.0, 30.0, 100.0])
    ref = sc.airy(xa)
    env_a, env_b = np.hypot(ref[0], ref[2]), np.hypot(ref[1], ref[3])
    # (SciPy's exp(zeta) carries the rounding of zeta = 2/3 x^1.5, eps * zeta:
    # 6e-14 at x = 100 vs mpmath; ours, test_airy_positive_vs_mpmath)
    for a, b, e in zip(S.airy(xa), ref, (env_a, env_b, env_a, env_b)):
        assert (_err(a, b, e) < 1e-13).all()
    for a, b in zip(S.airye(xa), sc.airye(xa)):
        assert _err(a, b, np.abs(b)).max() < 1e-13
    vs = np.array([0.0, 0.5, 1.0, 2.5, -0.3, 3.2, 10.0])
    for xx in [1e-3, 0.5, 3.0, 6.1, 10.0, 30.0, 100.0]:
        assert _err(S.struve(vs, xx), sc.struve(vs, xx)).max() < 1e-13, xx
        assert _err(S.modstruve(vs, xx), sc.modstruve(vs, xx)).max() < 1e-13, xx


# (compiles the Airy program: 11 s on two busy cores)
@pytest.mark.slow
def test_airy_positive_vs_mpmath():
    # x > 1: Ai = eAi e^-zeta, Bi = eBi e^zeta with zeta = 2/3 x^1.5 up to 717
    # (Bi overflows beyond x = 104): a zeta rounded once is off by eps * zeta
    # relative (1.5e-13 for SciPy's Airy at x = 100), ours is a double-double.
    # Measured 3.4e-15 for Ai'(2) (K_2/3 at zeta = 1.9), <= 1e-15 elsewhere.
    x = np.concatenate([[1.01, 2.0, 5.0, 20.0, 50.0, 100.0, 103.0],
                        np.random.default_rng(1).uniform(1, 103, 20)])
    mp.mp.dps = 30
    ref = np.array([[float(mp.airyai(t)), float(mp.airyai(t, 1)), float(mp.airybi(t)),
                     float(mp.airybi(t, 1))] for t in x]).T
    for k, (a, b) in enumerate(zip(S.airy(x), ref)):
        assert _err(a, b).max() < 5e-15, (k, x[_err(a, b).argmax()])


# (compiles the Airy program)
@pytest.mark.slow
def test_airy_negative_vs_mpmath():
    # x < -2: Ai, Bi oscillate with phase zeta = 2/3 |x|^1.5.  A zeta rounded
    # once is off by eps * zeta radians: relative to the envelope, SciPy is
    # 1.6e-12 off at x = -1e3 and 3.9e-8 at -1e6.  Ours takes zeta as a
    # double-double and rotates (J, Y) by its low part: measured <= 8e-16 of
    # the envelope out to -1e12 (where eps^2 zeta is still below 1e-14).
    x = -np.concatenate([[2.5, 10.0, 37.7, 1e3, 3333.3, 1e5, 1e6, 1.234e9, 1e12],
                         np.exp(np.random.default_rng(2).uniform(1, 25, 12))])
    mp.mp.dps = 40
    ref = np.array([[float(mp.airyai(t)), float(mp.airyai(t, 1)), float(mp.airybi(t)),
                     float(mp.airybi(t, 1))] for t in x]).T
    env_v, env_d = np.hypot(ref[0], ref[2]), np.hypot(ref[1], ref[3])
    for k, (a, b) in enumerate(zip(S.airy(x), ref)):
        e = _err(a, b, env_v if k % 2 == 0 else env_d)
        assert e.max() < 4e-15, (k, x[e.argmax()], e.max())
    # SciPy is still off where this test says (a fix there shows up here)
    theirs = sc.airy(np.array([-1e3, -1e6]))[0]
    assert (_err(theirs, ref[0][[3, 6]], env_v[[3, 6]]) > 1e-13).all()


# Compiles the Bessel kernels again for other shapes/dtypes (or their
# derivatives): minutes on two busy cores, so in the slow step.
@pytest.mark.slow
def test_derivatives():
    v = np.array([0.0, 0.4, 1.0, 2.5, 7.2, -1.3, 20.0, 3.0])
    x = np.array([0.7, 3.0, 12.0, 1.5, 30.0, 2.2, 5.0, 80.0])

    def f(v, x):
        return (S.jv(v, x), S.yv(v, x), S.iv(v, x), S.kv(v, x))

    dx = sciax.jit(sciax.vmap(sciax.jacfwd(f, argnums=1)))(v, x)
    dv = sciax.jit(sciax.vmap(sciax.grad(lambda v, x: f(v, x)[0] + 2 * f(v, x)[3])))(v, x)
    for a, b in zip(dx, (sc.jvp(v, x), sc.yvp(v, x), sc.ivp(v, x), sc.kvp(v, x))):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    mp.mp.dps = 30
    ref = [float(mp.diff(lambda t: mp.besselj(t, xx) + 2 * mp.besselk(t, xx), mp.mpf(vv)))
           for vv, xx in zip(v, x)]
    np.testing.assert_allclose(dv, ref, rtol=1e-10)
    # vmap agrees with eager to rounding: separate programs, and LLVM -O0 (CI's
    # slow step) forms other multiply-adds (1 ulp seen).
    np.testing.assert_allclose(np.asarray(sciax.vmap(S.jv)(v, x)), np.asarray(S.jv(v, x)),
                               rtol=1e-15)
    # Airy: w'' = x w.
    xa = np.array([-5.0, -1.0, 0.5, 3.0])
    g = sciax.vmap(sciax.grad(lambda t: S.airy(t)[0]))(xa)
    np.testing.assert_allclose(g, sc.airy(xa)[1], rtol=1e-12)


@pytest.mark.slow
def test_against_mpmath_wide():
    mp.mp.dps = 30
    rng = np.random.default_rng(0)
    v = np.concatenate([rng.uniform(-20, 20, 60), rng.uniform(50, 300, 20)])
    x = 10.0 ** rng.uniform(-5, 4, 80)
    j, y = (np.asarray(t) for t in _all_real_order(v, x)[:2])
    rj = np.array([float(mp.besselj(a, b)) for a, b in zip(v, x)])
    ry = np.array([float(mp.bessely(a, b)) for a, b in zip(v, x)])
    env = np.hypot(rj, ry)
    assert _err(j, rj, env).max() < 1e-12
    assert _err(y, ry, env).max() < 1e-12


@pytest.mark.slow
def test_struve_spherical_derivatives():
    x = np.array([0.7, 2.0, 9.0])
    g = sciax.vmap(sciax.grad(lambda t: S.struve(1.5, t)))(x)
    np.testing.assert_allclose(g, sc.struve(0.5, x) - 1.5 / x * sc.struve(1.5, x), rtol=1e-12)
    g = sciax.vmap(sciax.grad(lambda t: S.modstruve(0.5, t)))(x)
    np.testing.assert_allclose(g, sc.modstruve(-0.5, x) - 0.5 / x * sc.modstruve(0.5, x),
                               rtol=1e-12)
    gv = sciax.grad(lambda v: S.struve(v, 2.0))(1.5)
    mp.mp.dps = 30
    np.testing.assert_allclose(gv, float(mp.diff(lambda v: mp.struveh(v, 2), 1.5)), rtol=1e-10)
    for f in ("spherical_yn", "spherical_kn", "spherical_jn", "spherical_in"):
        g = sciax.vmap(sciax.grad(lambda t: getattr(S, f)(2, t)))(x)
        np.testing.assert_allclose(g, getattr(sc, f)(2, x, derivative=True), rtol=1e-12,
                                   err_msg=f)


def test_i0_i1_polynomial_kernels():
    # i0, i1, i0e, i1e have their own fixed-length series/asymptotic kernels
    # (not the real-order algorithm): vs SciPy (Cephes' Chebyshev fits, good
    # to ~1e-15) on both sides of the switch at |x| = 18 and in the tails,
    # and d/dx vs the closed forms I0' = I1, I1' = I0 - I1/x.  2e-14 allows
    # the ~1e-15 of each side plus the x-scaling of the exponential factor.
    x = np.concatenate([np.linspace(-60.0, 60.0, 241), [1e-300, 1e-8, 17.999,
                        18.001, 300.0, 700.0, -0.0, np.inf, -np.inf, np.nan]])
    for f, g in [(S.i0, sc.i0), (S.i1, sc.i1), (S.i0e, sc.i0e), (S.i1e, sc.i1e)]:
        a, b = np.asarray(f(x)), g(x)
        np.testing.assert_allclose(a, b, rtol=2e-14, atol=0, err_msg=f.__name__)
    xd = np.array([0.3, 5.0, 17.9, 18.5, 40.0, -7.0])
    d0 = np.asarray(sciax.vmap(sciax.grad(S.i0))(xd))
    d1 = np.asarray(sciax.vmap(sciax.grad(S.i1))(xd))
    np.testing.assert_allclose(d0, sc.i1(xd), rtol=1e-14)
    np.testing.assert_allclose(d1, sc.i0(xd) - sc.i1(xd) / xd, rtol=1e-14)


# Compiles the order-derivative program of both Bessel kernels: slow step.
@pytest.mark.slow
def test_order_derivatives_each_vs_mpmath():
    # d/dv of jv, yv, iv, kv separately (test_derivatives checks jv + 2 kv)
    # against mpmath's numerical derivative.  The order derivative is a
    # finite difference in v inside the JVP (U.fd_param), accurate to ~1e-11
    # of the function's own magnitude: tolerance 1e-10 * (|f'| + |f|).  At
    # v = 0, dK/dv = 0 exactly (K is even in v); ours is ~1e-13.
    mp.mp.dps = 30
    v = np.array([0.0, 0.4, 2.5, 7.2, -1.3, 20.0])
    x = np.array([0.7, 3.0, 1.5, 30.0, 2.2, 5.0])
    fns = [(S.jv, mp.besselj), (S.yv, mp.bessely), (S.iv, mp.besseli),
           (S.kv, mp.besselk)]
    # one forward-mode program: jv/yv share one kernel's JVP, iv/kv another
    grads = sciax.jit(sciax.vmap(sciax.jacfwd(
        lambda v, x: tuple(f(v, x) for f, _ in fns))))(v, x)
    for (f, mf), g in zip(fns, grads):
        ref = np.array([float(mp.diff(lambda t: mf(t, b), mp.mpf(a))) for a, b in zip(v, x)])
        val = np.array([float(mf(a, b)) for a, b in zip(v, x)])
        err = np.abs(np.asarray(g) - ref) / (np.abs(ref) + np.abs(val))
        assert err.max() < 1e-10, (f.__name__, err)


def test_spherical_jn_above_n_vs_mpmath():
    # |x| > n: the upward recurrence from sin x / x and cos x / x (SciPy's
    # method) keeps the error to about an ulp of the envelope sqrt(j^2 + y^2),
    # measured <= 7.7e-16 (value) and 5.8e-16 (derivative) here, where
    # J_{n+1/2}'s expansion left 1.5e-14 and 1.6e-14; j_20(200) is 1% of its
    # envelope: relative error 3.5e-13 before, 1.7e-14 now.
    rng = np.random.default_rng(3)
    n = np.repeat([0, 1, 5, 20, 50], 4)
    x = np.concatenate([[200.0], rng.uniform(0, 1, n.size - 1)]) * (300 - n) + n + 0.5
    x[1::5] *= -1.0
    mp.mp.dps = 30

    def ref(k, t, d):
        def f(z):
            return mp.sqrt(mp.pi / (2 * z)) * mp.besselj(k + 0.5, z)
        s = (-1) ** (k + d) if t < 0 else 1
        t = mp.mpf(abs(float(t)))
        v = mp.diff(f, t) if d else f(t)
        env = mp.sqrt(mp.pi / (2 * t)) * mp.hypot(mp.besselj(k + 0.5, t),
                                                  mp.bessely(k + 0.5, t))
        return float(s * v), float(env)

    f = sciax.jit(lambda n, x: (S.spherical_jn(n, x),
                                S.spherical_jn(n, x, derivative=True)))
    for d, got in enumerate(f(n, x)):
        r, env = np.array([ref(int(k), t, d) for k, t in zip(n, x)]).T
        assert _err(got, r, env).max() < 2e-15, d
        if not d:
            assert abs(float(got[0]) / r[0] - 1) < 5e-14
