"""sciax.special hypergeometric functions against SciPy and mpmath."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import sciax
from sciax import special as S
from tests.special._relerr import rel_err


_err = rel_err


G01 = [t.ravel() for t in np.meshgrid(np.array([-2.5, 0.5, 1.0, 2.5, 10.0, 50.0]),
                                      np.array([-1e4, -100.0, -5.0, -1.0, -0.5, 0.0, 0.3,
                                                1.0, 10.0, 100.0, 1e4]))]
G11 = [t.ravel() for t in np.meshgrid(np.array([-3.0, -0.5, 0.5, 1.0, 2.5, 10.0]),
                                      np.array([-2.5, 0.5, 1.0, 3.7, 20.0]),
                                      np.array([-800.0, -50.0, -5.0, -0.5, 0.0, 0.3, 2.0,
                                                20.0, 100.0, 650.0]))]
G21 = [t.ravel() for t in np.meshgrid(np.array([-3.0, 0.5, 1.5]), np.array([-0.5, 1.0, 2.5]),
                                      np.array([0.5, 3.7, 10.0]),
                                      np.array([-50.0, -2.0, -0.5, 0.0, 0.3, 0.7, 0.95, 1.0]))]
GU = [t.ravel() for t in np.meshgrid(np.array([-2.0, -0.5, 0.5, 1.0, 2.5]),
                                     np.array([-1.5, 0.5, 1.0, 2.0, 3.7]),
                                     np.array([0.01, 0.5, 2.0, 20.0, 100.0]))]


@sciax.jit
def _all(g01, g11, g21, gu):
    return S.hyp0f1(*g01), S.hyp1f1(*g11), S.hyp2f1(*g21), S.hyperu(*gu)


def test_values_grid():
    f01, f11, f21, fu = _all(G01, G11, G21, GU)
    # 0F1 for z < -1 goes through Gamma(v) x^(1-v)/2 J: exp(lgamma) costs
    # ~eps * lgamma(50) = 5e-14.
    assert _err(f01, sc.hyp0f1(*G01)).max() < 1e-13
    # 1F1 against mpmath: SciPy loses up to 4e-13 (a = 1, b = -2.5, x = -50)
    # and returns +inf where the value overflows to -inf.  Series with terms
    # of both signs (Kummer's transform of M(10, 0.5, -5) sums terms 3300
    # times its value) run in double-double; the rest measures <= 1.5e-14
    # (x = -800, the asymptotic expansion).
    mp.mp.dps = 30
    ref = np.array([float(mp.hyp1f1(*t)) for t in zip(*G11)])
    assert _err(f11, ref).max() < 5e-14
    assert _err(f21, sc.hyp2f1(*G21)).max() < 1e-13
    # SciPy's hyperu loses up to 2e-10 on this grid (and 3e-9 for a = 10):
    # mpmath is the reference.
    ref = np.array([float(mp.hyperu(*t)) for t in zip(*GU)])
    assert _err(fu, ref).max() < 1e-13


def test_hyp1f1_cancellation_mpmath():
    # Series whose terms have both signs and sum to far more than the value:
    # the float64 sum lost 1.1e-13 at M(10, 0.5, -5) and everything (relative
    # error 1) at M(31.7, 3.7, -300) = 1.06e-62, whose Kummer image sums terms
    # ~1e13 times larger; the double-double series leaves the rounding of
    # e^-y and of the result (measured <= 2.2e-16 here), and x = -800 goes
    # through the asymptotic expansion (1.6e-15; it lost 9.8e-14 adding and
    # taking away y = 800 in the exponent).
    pts = [(10, 0.5, -5), (10, -2.5, -5), (31.7, 3.7, -300), (-20.5, 60.5, 100),
           (31.7, -7.5, -50), (31.7, 0.5, -50), (-7.3, 0.5, 20), (1, 3.7, -800)]
    a, b, x = (np.array(v, float) for v in zip(*pts))
    mp.mp.dps = 30
    ref = np.array([float(mp.hyp1f1(*(mp.mpf(float(t)) for t in p))) for p in pts])
    assert _err(sciax.jit(S.hyp1f1)(a, b, x), ref).max() < 1e-14


# Compiles the derivative programs of every function: slow step.
@pytest.mark.slow
def test_parameter_derivatives():
    mp.mp.dps = 30
    a, b, x = 0.7, 2.3, 1.9
    g = sciax.grad(lambda p: S.hyp1f1(p[0], p[1], p[2]))(np.array([a, b, x]))
    ref = [mp.diff(lambda t: mp.hyp1f1(t, b, x), a), mp.diff(lambda t: mp.hyp1f1(a, t, x), b),
           mp.diff(lambda t: mp.hyp1f1(a, b, t), x)]
    np.testing.assert_allclose(g, [float(r) for r in ref], rtol=1e-12)
    g = sciax.grad(lambda p: S.hyp1f1(p[0], p[1], p[2]))(np.array([a, b, -30.0]))
    ref = [mp.diff(lambda t: mp.hyp1f1(t, b, -30), a), mp.diff(lambda t: mp.hyp1f1(a, t, -30), b)]
    np.testing.assert_allclose(g[:2], [float(r) for r in ref], rtol=1e-11)
    c = 3.1
    g = sciax.grad(lambda p: S.hyp2f1(p[0], p[1], p[2], p[3]))(np.array([a, b, c, -0.8]))
    ref = [mp.diff(lambda t: mp.hyp2f1(t, b, c, -0.8), a),
           mp.diff(lambda t: mp.hyp2f1(a, t, c, -0.8), b),
           mp.diff(lambda t: mp.hyp2f1(a, b, t, -0.8), c),
           mp.diff(lambda t: mp.hyp2f1(a, b, c, t), -0.8)]
    np.testing.assert_allclose(g, [float(r) for r in ref], rtol=1e-12)
    g = sciax.grad(lambda p: S.hyp0f1(p[0], p[1]))(np.array([1.7, 3.0]))
    ref = [mp.diff(lambda t: mp.hyp0f1(t, 3.0), 1.7), mp.diff(lambda t: mp.hyp0f1(1.7, t), 3.0)]
    np.testing.assert_allclose(g, [float(r) for r in ref], rtol=1e-12)
    g = sciax.grad(lambda p: S.hyperu(p[0], p[1], p[2]))(np.array([1.3, 0.4, 2.0]))
    ref = [mp.diff(lambda t: mp.hyperu(t, 0.4, 2.0), 1.3),
           mp.diff(lambda t: mp.hyperu(1.3, t, 2.0), 0.4),
           mp.diff(lambda t: mp.hyperu(1.3, 0.4, t), 2.0)]
    np.testing.assert_allclose(g, [float(r) for r in ref], rtol=1e-9)


@pytest.mark.slow
def test_hyperu_mpmath():
    mp.mp.dps = 30
    a, b, x = (t.ravel() for t in np.meshgrid(np.array([-2.5, 0.3, 4.0, 10.0]),
                                             np.array([-1.5, 0.5, 2.0]),
                                             np.array([0.05, 2.0, 30.0])))
    ref = np.array([float(mp.hyperu(*t)) for t in zip(a, b, x)])
    # a = -2.5, b = -1.5 (neither a nor a-b+1 positive): three steps of the
    # downward recurrence in a lose up to 1.6e-12 at x = 0.05.
    assert _err(S.hyperu(a, b, x), ref).max() < 5e-12
