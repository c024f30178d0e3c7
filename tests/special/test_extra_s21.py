"""sciax.special functions of _extra_s21 against SciPy (and mpmath where SciPy
is weak).

Bessel-derivative sums are compared relative to the sum of the absolute
values of their terms (``2^-n sum C(n, k) |f_{v-n+2k}|``, with ``hypot(J, Y)``
for the oscillating kinds): the sum cancels near a zero of the derivative,
and the error any double evaluation makes is relative to that scale.  The
kernels' compiled programs depend only on the flattened size, so the grids
below are chosen to give every derivative order the same stacked size.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import sciax
import sciax.numpy as snp
from sciax import special as S
from tests.special._relerr import rel_err

V = np.array([-2.5, -1.0, 0.0, 0.5, 1.0, 3.7])
Z = np.array([0.05, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 50.0, 100.0])
VV, ZZ = (a.ravel() for a in np.meshgrid(V, Z))
# subsets for n = 2 and 3: stacked sizes 3 * 40 = 4 * 30 = 2 * 60
_SUB = {1: np.arange(60), 2: np.arange(60)[np.arange(60) % 3 != 0],
        3: np.arange(60)[np.arange(60) % 2 == 0]}


def _env(n, v, z, f):
    return sum(math.comb(n, k) * f(v - n + 2 * k, z) for k in range(n + 1)) / 2.0**n


def _check_derivatives(n):
    v, z = VV[_SUB[n]], ZZ[_SUB[n]]
    env_jy = _env(n, v, z, lambda a, b: np.hypot(sc.jv(a, b), sc.yv(a, b)))
    env_i = _env(n, v, z, lambda a, b: np.abs(sc.iv(a, b)))
    for f, g, env in [(S.jvp, sc.jvp, env_jy), (S.yvp, sc.yvp, env_jy),
                      (S.ivp, sc.ivp, env_i), (S.kvp, sc.kvp, None),
                      (S.h1vp, sc.h1vp, env_jy), (S.h2vp, sc.h2vp, env_jy)]:
        got, ref = np.asarray(f(v, z, n)), g(v, z, n)
        assert got.dtype == ref.dtype, f.__name__
        assert rel_err(got, ref, env).max() < 1e-13, (f.__name__, n)


def test_bessel_derivatives_and_kn():
    # kn on 120 points reuses kvp's compiled K kernel (2 x 60 orders)
    _check_derivatives(1)
    n = np.resize([0, 1, 2, 5, 10, 3, 2.7], 120)
    x = np.resize([0.0, 1e-3, 0.7, 3.0, 20.0, -1.0, 1.5, 600.0], 120)
    with np.errstate(all="ignore"):
        ref = sc.kn(n, x)
    assert rel_err(S.kn(n, x), ref).max() < 1e-14
    assert np.asarray(S.jvp(V, 1.5, 0)).shape == V.shape
    with pytest.raises(ValueError):
        S.jvp(1.0, 2.0, -1)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3])
def test_bessel_derivatives_higher(n):
    _check_derivatives(n)


@pytest.mark.slow
def test_bessel_derivative_transforms():
    """jit + vmap, and the z- and v-derivatives of jvp/kvp (the z-derivative
    is the next order's value; the v-derivative is checked by a central
    difference of SciPy's value)."""
    v = np.array([0.5, 1.3, 2.0])
    z = np.array([0.7, 4.0, 12.0])

    def f(a, b):
        dz = sciax.grad(lambda t: S.jvp(a, t, 1))(b)
        dv = sciax.grad(lambda t: S.kvp(t, b, 1))(a)
        return S.jvp(a, b, 1), dz, dv

    val, dz, dv = (np.asarray(t) for t in sciax.jit(sciax.vmap(f))(v, z))
    assert rel_err(val, sc.jvp(v, z, 1)).max() < 1e-13
    assert rel_err(dz, sc.jvp(v, z, 2), np.hypot(sc.jv(v, z), sc.yv(v, z))).max() < 1e-12
    h = 1e-5
    fd = (sc.kvp(v + h, z, 1) - sc.kvp(v - h, z, 1)) / (2 * h)
    assert rel_err(dv, fd).max() < 1e-8


def test_riccati():
    """Both kinds under jit + vmap over x, in one program."""
    xs = np.array([0.5, 1e-3, 0.9, 7.5, 40.0])
    f = sciax.jit(sciax.vmap(lambda x: (S.riccati_jn(4, x), S.riccati_yn(4, x))))
    (jn, jnp_), (yn, ynp) = f(xs)
    for i, x in enumerate(xs):
        rj, ry = sc.riccati_jn(4, x), sc.riccati_yn(4, x)
        env = np.hypot(rj[0], ry[0])
        for p, q in zip((jn[i], jnp_[i], yn[i], ynp[i]), rj + ry):
            assert p.shape == q.shape == (5,)
            assert rel_err(p, q, env).max() < 1e-13, x
    with pytest.raises(ValueError):
        S.riccati_jn(2, np.ones(2))


@pytest.mark.slow
def test_riccati_edges_and_grad():
    a, b = S.riccati_jn(0, 0.0)
    assert a.shape == (1,) and float(a[0]) == 0.0 and float(b[0]) == 1.0
    for x in [0.3, 6.0]:
        g = sciax.grad(lambda t: S.riccati_jn(4, t)[0][3] + S.riccati_yn(4, t)[0][2])(x)
        ref = sc.riccati_jn(4, x)[1][3] + sc.riccati_yn(4, x)[1][2]
        assert abs(float(g) - ref) < 1e-13 * abs(sc.riccati_yn(4, x)[0][2])


def test_softplus_diric_laguerre():
    x = np.array([-800.0, -30.0, -1.0, 0.0, 1e-10, 2.0, 37.0, 800.0])
    assert rel_err(S.softplus(x), sc.softplus(x)).max() < 1e-15
    assert S.softplus(np.float32(1.0)).dtype == np.float32
    g = sciax.vmap(sciax.grad(S.softplus))(x)
    assert rel_err(g, sc.expit(x)).max() < 1e-15
    xd = np.array([0.0, 1e-9, 0.3, np.pi, 2 * np.pi, 2 * np.pi + 1e-8, -4 * np.pi, 10.0])
    for n in [1, 2, 5, 6]:
        assert rel_err(S.diric(xd, n), sc.diric(xd, n)).max() < 1e-14
    assert np.all(np.isnan(S.diric(1.0, np.array([0.0, 2.5, -1.0]))))
    gd = sciax.grad(S.diric)(0.4, 5)
    h = 1e-6
    assert abs(float(gd) - (sc.diric(0.4 + h, 5) - sc.diric(0.4 - h, 5)) / (2 * h)) < 1e-8
    xs, ns, ks = np.array([0.5, 3.0, 10.0]), np.array([2, 5, 7]), np.array([0.0, 1.5, 2.0])
    assert rel_err(S.assoc_laguerre(xs, ns, ks), sc.assoc_laguerre(xs, ns, ks)).max() < 1e-13


def test_combinatorics():
    n = np.array([0, 1, 5, 7, 9, 12, -2])
    for k in [1, 2, 3, 4]:
        assert rel_err(S.factorialk(n, k), sc.factorialk(n, k)).max() < 1e-14
        assert list(S.factorialk(n, k, exact=True)) == list(sc.factorialk(n, k, exact=True))
    N = np.array([0, 1, 5, 10, 20, 30, 50, 3, -1, 4])
    K = np.array([0, 0, 2, 4, 7, 15, 25, 5, 0, 4])
    assert rel_err(S.stirling2(N, K), sc.stirling2(N, K, exact=True).astype(float)).max() < 1e-16
    assert S.stirling2(30, 15, exact=True) == sc.stirling2(30, 15, exact=True)
    # SciPy's Bernoulli numbers are floating-point sums (1e-15 off at n = 10,
    # more for large n): exact values from mpmath, SciPy loosely
    for m in [0, 1, 2, 10, 31]:
        exact = np.array([float(mpmath.bernoulli(k)) for k in range(m + 1)])
        exact[1:2] = -0.5
        assert np.array_equal(np.asarray(S.bernoulli(m)), exact)
        assert rel_err(S.bernoulli(m), sc.bernoulli(m)).max() < 1e-11
        assert rel_err(S.euler(m), sc.euler(m)).max() < 1e-13   # SciPy: floats too
    with pytest.raises(TypeError):
        sciax.jit(lambda a: S.stirling2(a, 2))(np.array(5))


_ROOTS = [("roots_sh_legendre", ()), ("roots_sh_chebyt", ()), ("roots_sh_chebyu", ()),
          ("roots_sh_jacobi", (2.5, 1.5)), ("roots_chebyc", ()), ("roots_chebys", ()),
          ("p_roots", ()), ("t_roots", ()), ("u_roots", ()), ("c_roots", ()),
          ("s_roots", ()), ("j_roots", (0.5, -0.3)), ("l_roots", ()), ("la_roots", (1.5,)),
          ("h_roots", ()), ("he_roots", ()), ("cg_roots", (0.7,)), ("js_roots", (2.5, 1.5)),
          ("ps_roots", ()), ("ts_roots", ()), ("us_roots", ())]


@pytest.mark.parametrize("name,args", _ROOTS)
def test_roots(name, args):
    for n in [1, 4, 9]:
        a = getattr(S, name)(n, *args, mu=True)
        b = getattr(sc, name)(n, *args, mu=True)
        assert len(a) == 3
        np.testing.assert_allclose(np.asarray(a[0]), b[0], rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(np.asarray(a[1]), b[1], rtol=1e-12)
        assert abs(float(a[2]) - b[2]) <= 1e-14 * abs(b[2])
        assert len(getattr(S, name)(n, *args)) == 2
