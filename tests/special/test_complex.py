"""sciax.special at complex arguments against SciPy (and mpmath where SciPy
is weak), with holomorphic derivatives and jit/vmap against eager.

Errors are measured in the complex norm, ``|ours - ref| / |ref|``, as SciPy's
own tests do.  Where ``f`` grows or decays like ``exp(+-z^2)`` its condition
number ``|z f'(z) / f(z)|`` is about ``2|z|^2``: the rounding of ``z`` alone
moves the value by that many ulp, so tolerances scale with ``1 + 2|z|^2``.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import sciax
import sciax.numpy as snp
from sciax import special as ss


def _grid(rmin: float, rmax: float, nr: int, nth: int) -> np.ndarray:
    """Polar grid with extra points just off the real and imaginary axes."""
    r = np.logspace(np.log10(rmin), np.log10(rmax), nr)
    th = np.concatenate([np.linspace(-np.pi, np.pi, nth, endpoint=False),
                         [1e-9, -1e-9, np.pi / 2 + 1e-9, -np.pi / 2 - 1e-9,
                          np.pi - 1e-6, 1e-3, -np.pi / 2 + 1e-3]])
    z = (r[:, None] * np.exp(1j * th[None, :])).ravel()
    axes = np.concatenate([r, -r, 1j * r, -1j * r])
    return np.concatenate([z, axes])


def _rel(ours, ref) -> np.ndarray:
    ours, ref = np.asarray(ours), np.asarray(ref)
    with np.errstate(all="ignore"):
        e = np.abs(ours - ref) / np.abs(ref)
    return np.where(ours == ref, 0.0, e)


_MP = {"erf": mpmath.erf, "erfc": mpmath.erfc, "erfi": mpmath.erfi,
       "erfcx": lambda v: mpmath.exp(v * v) * mpmath.erfc(v),
       "dawsn": lambda v: mpmath.sqrt(mpmath.pi) / 2 * mpmath.exp(-v * v)
       * mpmath.erfi(v)}

ZE = _grid(1e-4, 25.0, 26, 40)


# Each test compiles the Faddeeva kernel (tens of seconds on two busy
# cores), so all are in the slow step.
@pytest.mark.slow
@pytest.mark.parametrize("name", ["erf", "erfc", "erfcx", "erfi", "dawsn"])
def test_error_functions_vs_scipy(name):
    z = ZE
    with np.errstate(all="ignore"):
        ref = getattr(sc, name)(z)
    # only where the value is representable (|ref| in [1e-300, 1e300])
    ok = np.isfinite(ref) & (np.abs(ref) > 1e-300) & (np.abs(ref) < 1e300)
    z, ref = z[ok], ref[ok].copy()
    # SciPy (the Faddeeva package) is off by up to 1.4e-13 for |z| < 0.5
    # (erf/erfi/dawsn: 1 - erfc and its short Taylor series; checked with
    # mpmath): mpmath there
    mpmath.mp.dps = 30
    small = np.abs(z) < 0.5
    ref[small] = [complex(_MP[name](mpmath.mpc(v))) for v in z[small]]
    ours = np.asarray(sciax.jit(getattr(ss, name))(snp.asarray(z)))
    assert ours.dtype == np.complex128
    err = _rel(ours, ref) / (1.0 + 2.0 * np.abs(z) ** 2)
    # observed: 1.4e-15 (the near-zeros of erf at ~1.45 + 1.88i are not hit
    # by this grid)
    assert err.max() < 5e-15, (name, err.max(), z[np.argmax(err)])


@pytest.mark.slow
def test_error_functions_axes_and_specials():
    x = np.array([-3.0, -0.5, 0.0, 1e-3, 2.0, 30.0])
    for name in ["erf", "erfc", "erfcx", "erfi", "dawsn"]:
        f = getattr(ss, name)
        # real values at complex dtype: imaginary part exactly zero
        o = np.asarray(f(snp.asarray(x + 0j)))
        with np.errstate(all="ignore"):
            ref = getattr(sc, name)(x)
        np.testing.assert_allclose(o.real, ref, rtol=3e-15, atol=0)
        assert np.all(o.imag == 0)
    # erf(iy) = i erfi(y) exactly imaginary; erf at far-right points is 1
    y = np.array([0.3, 2.0, 10.0])
    o = np.asarray(ss.erf(snp.asarray(1j * y)))
    assert np.all(o.real == 0)
    np.testing.assert_allclose(o.imag, sc.erfi(y), rtol=1e-14)
    o = np.asarray(ss.erf(snp.asarray([40.0 + 1.0j, -40.0 - 1.0j])))
    np.testing.assert_array_equal(o, [1.0, -1.0])
    # a Python complex scalar promotes; complex64 stays complex64
    assert complex(ss.erfc(1.0 + 1.0j)) == pytest.approx(sc.erfc(1 + 1j), rel=1e-14)
    z64 = np.array([0.5 + 0.5j, -2.0 + 1.0j], np.complex64)
    for name in ["erf", "erfc", "erfcx", "erfi", "dawsn"]:
        o = getattr(ss, name)(snp.asarray(z64))
        assert o.dtype == np.complex64
        np.testing.assert_allclose(np.asarray(o), getattr(sc, name)(
            z64.astype(np.complex128)), rtol=2e-6)


_DERIV = {
    "erf": lambda z: 2 / np.sqrt(np.pi) * np.exp(-z * z),
    "erfc": lambda z: -2 / np.sqrt(np.pi) * np.exp(-z * z),
    "erfcx": lambda z: 2 * z * sc.erfcx(z) - 2 / np.sqrt(np.pi),
    "erfi": lambda z: 2 / np.sqrt(np.pi) * np.exp(z * z),
    "dawsn": lambda z: 1 - 2 * z * sc.dawsn(z),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["erf", "erfc", "erfcx", "erfi", "dawsn"])
def test_error_functions_holomorphic_derivative(name):
    f = getattr(ss, name)
    z = np.array([0.3 + 0.2j, -1.5 + 2.0j, 2.5 - 0.5j, -0.01 - 3.0j])
    d = _DERIV[name](z)
    for t in (1.0 + 0j, 1j):
        _, dt = sciax.jvp(f, (snp.asarray(z),), (snp.full(z.shape, t),))
        np.testing.assert_allclose(np.asarray(dt), d * t, rtol=1e-13)
    # reverse mode: grad of Re f agrees with that of the linear map d * z,
    # whatever the conjugation convention
    for zi, di in zip(z, d):
        g = sciax.grad(lambda u: snp.real(f(u)))(snp.asarray(zi))
        gl = sciax.grad(lambda u: snp.real(di * u))(snp.asarray(zi))
        np.testing.assert_allclose(complex(g), complex(gl), rtol=1e-13)
    # jit and vmap agree with eager
    zz = snp.asarray(z)
    eager = np.asarray(f(zz))
    np.testing.assert_allclose(np.asarray(sciax.jit(f)(zz)), eager, rtol=1e-15)
    np.testing.assert_allclose(np.asarray(sciax.vmap(f)(zz)), eager, rtol=1e-15)


# --- expm1, log1p, sinc, xlogy, xlog1py -------------------------------------------

_MP_CONV = {"expm1": mpmath.expm1, "log1p": mpmath.log1p, "sinc": mpmath.sincpi}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["expm1", "log1p", "sinc"])
def test_convenience_vs_mpmath(name):
    # tiny |z| (where exp(z) - 1, log(1 + z) and XLA's complex sin lose all
    # relative accuracy), the circle |1 + z| = 1 (log1p's real part cancels),
    # and |z| up to 30; against mpmath at 40 digits, and SciPy (NumPy for
    # sinc) must agree where it is itself accurate
    r = np.logspace(-12, np.log10(30.0), 30)
    th = np.linspace(-np.pi, np.pi, 24, endpoint=False) + 0.01
    z = np.concatenate([(r[:, None] * np.exp(1j * th)).ravel(),
                        -r[:12] ** 2 / 2 + 1j * r[:12], r[:12] - 1e-3j * r[:12],
                        [0.0, 1.0, -2.0, 2.0 + 0j, 1j]])
    mpmath.mp.dps = 40
    ref = np.array([complex(_MP_CONV[name](mpmath.mpc(v))) for v in z])
    ours = np.asarray(sciax.jit(getattr(ss, name))(snp.asarray(z)))
    err = _rel(ours, ref)
    # observed 7e-16 (expm1, log1p); sinc's cosh(pi y) and sinh(pi y) carry
    # the rounding of pi y, a relative pi |y| ulp: 5e-15 at |y| = 30
    tol = 2e-15 * (1.0 + (np.pi * np.abs(z.imag) if name == "sinc" else 0.0))
    assert np.all(err <= tol), (name, err.max(), z[np.argmax(err / tol)])
    if name == "sinc":
        assert ours[np.flatnonzero(z == 0)[0]] == 1.0
    # derivatives: exp(z), 1/(1 + z), (cos(pi z) - sinc z)/z
    zd = np.array([0.3 + 0.4j, -0.2 - 1e-3j, 2.0 + 1.0j])
    d = {"expm1": np.exp(zd), "log1p": 1 / (1 + zd),
         "sinc": (np.cos(np.pi * zd) - np.sinc(zd)) / zd}[name]
    _, dt = sciax.jvp(getattr(ss, name), (snp.asarray(zd),),
                      (snp.full(zd.shape, 1j),))
    np.testing.assert_allclose(np.asarray(dt), 1j * d, rtol=1e-14)


@pytest.mark.slow
def test_xlogy_xlog1py_complex():
    x = np.array([0.0, 0.0, 1.5 + 1.0j, 2.0j, -1.0])
    y = np.array([np.nan, 1.0 + 1.0j, 0.5 - 2.0j, 1e-12 + 1e-9j, -3.0 + 0.0j])
    for name in ["xlogy", "xlog1py"]:
        f = getattr(ss, name)
        o = np.asarray(f(snp.asarray(x), snp.asarray(y)))
        ref = getattr(sc, name)(x, y)
        assert o.dtype == np.complex128
        np.testing.assert_allclose(o, ref, rtol=1e-15)
    # a real x with a complex y promotes; derivative in y is x / y
    assert complex(ss.xlogy(2.0, 1.0j)) == pytest.approx(2j * np.pi / 2)
    _, dt = sciax.jvp(lambda v: ss.xlogy(1.5 + 1.0j, v),
                      (snp.asarray(0.5 - 2.0j),), (snp.asarray(1.0 + 0j),))
    np.testing.assert_allclose(complex(dt), (1.5 + 1.0j) / (0.5 - 2.0j), rtol=1e-14)


# --- gamma, loggamma, rgamma, digamma ---------------------------------------------

def _gamma_grid() -> np.ndarray:
    z = _grid(1e-3, 300.0, 24, 36)
    n = np.arange(1.0, 8.0)
    near_poles = np.concatenate([-n + 1e-6j, -n - 1e-3 + 1e-9j, -n + 0.5 + 2.0j,
                                 -n + 1e-7, -n - 1e-7])
    near_one_two = np.concatenate([1 + 0.15 * np.exp(1j * np.linspace(0, 6, 9)),
                                   2 + 0.15 * np.exp(1j * np.linspace(0, 6, 9))])
    strip = (np.linspace(-30, 30, 41)[:, None]
             + 1j * np.array([-8.0, -6.9, -0.3, 1e-8, 0.3, 6.9, 8.0, 40.0])).ravel()
    return np.concatenate([z, near_poles, near_one_two, strip])


ZG = _gamma_grid()


@pytest.mark.slow
def test_loggamma_gamma_rgamma_vs_scipy():
    z = ZG
    lg = np.asarray(sciax.jit(ss.loggamma)(snp.asarray(z)))
    ref = sc.loggamma(z)
    # the principal branch continued as SciPy's (imaginary parts agree, not
    # just modulo 2 pi); near the zeros at 1 and 2 (and between, where the
    # recurrence subtracts numbers ~8 to leave ~0.1, in SciPy too) the error
    # is measured against max(|ref|, 1): it is what exp(loggamma) feels
    err = np.abs(lg - ref) / np.maximum(np.abs(ref), 1.0)
    assert err.max() < 5e-15, (err.max(), z[np.argmax(err)])   # observed 3.6e-15
    for name in ["gamma", "rgamma"]:
        o = np.asarray(sciax.jit(getattr(ss, name))(snp.asarray(z)))
        with np.errstate(all="ignore"):
            r = getattr(sc, name)(z)
        ok = np.isfinite(r) & (np.abs(r) > 1e-300) & (np.abs(r) < 1e300)
        # exp(loggamma): an absolute error eps |loggamma| in the exponent is
        # a relative error of gamma (observed 2.8e-15)
        tol = 5e-15 * (1.0 + np.abs(ref[ok]))
        e = _rel(o[ok], r[ok])
        assert np.all(e <= tol), (name, e.max(), z[ok][np.argmax(e / tol)])
    # poles: gamma NaN (SciPy's complex gamma), rgamma 0
    p = np.array([0.0, -1.0, -5.0]) + 0j
    assert np.all(np.isnan(np.asarray(ss.gamma(snp.asarray(p)))))
    assert np.all(np.asarray(ss.rgamma(snp.asarray(p))) == 0)
    assert np.all(np.isnan(np.asarray(ss.loggamma(snp.asarray(p)))))


@pytest.mark.slow
def test_digamma_vs_scipy():
    z = ZG[np.abs(ZG) < 1e3]
    z = np.concatenate([z, 1.4616321449683622 + np.array([1e-3, 1e-7j, 0.1 + 0.1j]),
                        -0.5040830082644554 + np.array([1e-3, 1e-7j, 0.03j])])
    o = np.asarray(sciax.jit(ss.digamma)(snp.asarray(z)))
    ref = sc.digamma(z)
    # SciPy loses up to 4e-14 near the negative real axis (checked with
    # mpmath): mpmath where |Re z| > 1 and |Im z| < 1, and near the roots
    mpmath.mp.dps = 30
    use_mp = ((np.abs(z.real) > 1) & (np.abs(z.imag) < 1)) | (np.abs(ref) < 0.1)
    ref[use_mp] = [complex(mpmath.digamma(mpmath.mpc(v))) for v in z[use_mp]]
    ok = np.isfinite(ref)
    # psi(z) - pi cot(pi z) near the poles: cot's condition number pi |z|
    # / |sin(pi z)| is what both lose; within 1e-7 of a pole it is 3e7
    err = _rel(o[ok], ref[ok]) / (1.0 + np.abs(z[ok]))
    dist = np.abs(z[ok] - np.round(z[ok].real))
    err = np.where(dist < 1e-5, err * dist / 1e-5, err)
    assert err.max() < 1e-14, (err.max(), z[ok][np.argmax(err)])   # observed 2.5e-15


@pytest.mark.slow
def test_gamma_family_holomorphic_derivatives():
    z = np.array([0.3 + 0.4j, -2.5 + 1.0j, 5.0 - 3.0j, 0.05 - 8.0j])
    dg = sc.digamma(z)
    for f, d in [(ss.loggamma, dg), (ss.gamma, sc.gamma(z) * dg),
                 (ss.rgamma, -sc.rgamma(z) * dg)]:
        _, dt = sciax.jvp(f, (snp.asarray(z),), (snp.full(z.shape, 1j),))
        np.testing.assert_allclose(np.asarray(dt), 1j * d, rtol=1e-13)
    # digamma by differentiating its own formula: trigamma via mpmath
    mpmath.mp.dps = 30
    tri = np.array([complex(mpmath.psi(1, mpmath.mpc(v))) for v in z])
    _, dt = sciax.jvp(ss.digamma, (snp.asarray(z),), (snp.ones(z.shape, complex),))
    np.testing.assert_allclose(np.asarray(dt), tri, rtol=1e-12)
    zz = snp.asarray(z)
    for f in (ss.loggamma, ss.digamma):
        eager = np.asarray(f(zz))
        np.testing.assert_allclose(np.asarray(sciax.vmap(f)(zz)), eager, rtol=1e-15)
        g = sciax.grad(lambda u: snp.real(f(u)))(zz[0])
        assert np.isfinite(complex(g))
