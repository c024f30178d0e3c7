"""sciax.special elliptic integrals against SciPy, closed forms and mpmath."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import sciax
from sciax import special as S
from tests.special._relerr import rel_err


_err = rel_err


# Arguments spanning 300 decades (SciPy itself returns NaN for some pairs of
# arguments near 1e-300; spreads beyond ~1e300 are not supported).
G = np.array([0.0, 1e-150, 1e-10, 0.3, 1.0, 2.5, 1e5, 1e150])
X3 = [a.ravel() for a in np.meshgrid(G, G, G)]
G4 = np.array([1e-10, 0.3, 1.0, 2.5, 1e5])
P4 = np.array([-2.0, -1e-3, 1e-3, 0.7, 5.0, 1e4])
X4 = [a.ravel() for a in np.meshgrid(G4, G4, G4, P4)]
XC = [a.ravel() for a in np.meshgrid(np.array([0.0, 1e-10, 0.3, 1.0, 2.5, 1e5]),
                                     np.array([-3.0, -1e-3, 1e-10, 0.3, 1.0, 2.5, 1e5]))]
M = np.array([-1e5, -1.0, 0.0, 1e-10, 0.3, 0.5, 0.9, 1 - 1e-10, 1.0, 1.5])
PM1 = np.array([0.0, 1e-300, 1e-10, 0.3, 1.0, 2.0, 1e5])
PH = [a.ravel() for a in np.meshgrid(
    np.array([-10.0, -2.0, -0.3, 0.0, 1e-8, 0.3, 1.5, np.pi / 2, 2.0, 10.0, 100.0]),
    np.array([-3.0, 0.0, 0.3, 0.5, 0.99, 1.0, 1.5]))]
UJ = [a.ravel() for a in np.meshgrid(np.array([-10.0, -2.0, -0.3, 0.0, 1e-8, 0.3, 1.5, 2.0,
                                                10.0, 100.0]),
                                     np.array([-1.0, 0.0, 1e-10, 0.3, 0.5, 0.99, 1.0, 1.5]))]


@sciax.jit
def _all(x3, x4, xc, m, pm1, ph, uj):
    return (S.elliprf(*x3), S.elliprd(*x3), S.elliprg(*x3), S.elliprj(*x4),
            S.elliprc(*xc), S.ellipk(m), S.ellipe(m), S.ellipkm1(pm1),
            S.ellipkinc(*ph), S.ellipeinc(*ph), S.ellipj(*uj))


def test_values_grid():
    got = _all(X3, X4, XC, M, PM1, PH, UJ)
    rf, rd, rg, rj, rc, k, e, km1, fi, ei, (sn, cn, dn, am) = got
    ok3 = ~((X3[0] == 1e-150) & (X3[1] == 1e-150) & (X3[2] == 1e-150))
    checks = [
        ("rf", rf, sc.elliprf(*X3), 1e-14), ("rd", rd, sc.elliprd(*X3), 1e-14),
        # R_G near two small arguments: c R_F - (a-c)(b-c) R_D / 3 cancels ~25x.
        ("rg", np.asarray(rg)[ok3], sc.elliprg(*X3)[ok3], 2e-14),
        ("rj", rj, sc.elliprj(*X4), 1e-13), ("rc", rc, sc.elliprc(*XC), 1e-14),
        ("k", k, sc.ellipk(M), 1e-15), ("e", e, sc.ellipe(M), 2e-14),
        ("km1", km1, sc.ellipkm1(PM1), 1e-15), ("kinc", fi, sc.ellipkinc(*PH), 1e-14),
        # E(phi|m) at m = 1, phi = pi/2: sin(phi) R_F - m sin^3 R_D / 3 with
        # both terms ~ 1/cos(phi): cancellation of ~50x.
        ("einc", ei, sc.ellipeinc(*PH), 2e-14),
    ]
    for name, a, b, tol in checks:
        assert _err(a, b).max() < tol, (name, _err(a, b).max())
    for a, b in zip((sn, cn, dn, am), sc.ellipj(*UJ)):
        assert np.allclose(a, b, rtol=1e-14, atol=1e-14, equal_nan=True)
    # R_G(x, x, x) = sqrt(x) where SciPy underflows.
    np.testing.assert_allclose(S.elliprg(1e-150, 1e-150, 1e-150), 1e-75, rtol=1e-15)


@pytest.mark.slow  # a heavy compile (default-run budget): runs in CI's slow step
def test_derivatives():
    m = np.array([-2.0, 0.1, 0.5, 0.9])
    dk = sciax.vmap(sciax.grad(S.ellipk))(m)
    de = sciax.vmap(sciax.grad(S.ellipe))(m)
    k, e = sc.ellipk(m), sc.ellipe(m)
    # DLMF 19.4.1.
    np.testing.assert_allclose(dk, (e - (1 - m) * k) / (2 * m * (1 - m)), rtol=1e-13)
    np.testing.assert_allclose(de, (e - k) / (2 * m), rtol=1e-13)
    x = np.array([0.5, 1.0, 2.0, 3.0])
    g = sciax.grad(lambda x: S.elliprf(x[0], x[1], x[2]))(x[:3])
    # DLMF 19.18.1: d R_F / dz = -R_D(x, y, z) / 6.
    np.testing.assert_allclose(g[2], -sc.elliprd(0.5, 1.0, 2.0) / 6, rtol=1e-13)
    mp.mp.dps = 30
    gj = sciax.grad(lambda p: S.elliprj(0.5, 1.0, 2.0, p))(3.0)
    ref = mp.diff(lambda p: mp.elliprj(0.5, 1.0, 2.0, p), 3.0)
    np.testing.assert_allclose(gj, float(ref), rtol=1e-12)
    gphi = sciax.grad(lambda p: S.ellipeinc(p, 0.7))(1.1)
    np.testing.assert_allclose(gphi, np.sqrt(1 - 0.7 * np.sin(1.1) ** 2), rtol=1e-13)
    u = np.array([0.3, 1.5])
    gs = sciax.vmap(sciax.grad(lambda t: S.ellipj(t, 0.6)[0]))(u)
    _, cn, dn, _ = sc.ellipj(u, 0.6)
    np.testing.assert_allclose(gs, cn * dn, rtol=1e-13)


@pytest.mark.slow
def test_elliprj_principal_value_mpmath():
    mp.mp.dps = 30
    rng = np.random.default_rng(2)
    x, y, z = 10.0 ** rng.uniform(-3, 3, (3, 40))
    p = -(10.0 ** rng.uniform(-3, 3, 40))
    ref = np.array([float(mp.re(mp.elliprj(*t))) for t in zip(x, y, z, p)])
    assert _err(S.elliprj(x, y, z, p), ref).max() < 1e-12
