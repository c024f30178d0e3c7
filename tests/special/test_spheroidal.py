"""Spheroidal wave functions (sciax.special._spheroidal) against SciPy,
closed forms and the differential equation.

SciPy's characteristic values (Zhang and Jin's bisection on the same
matrix) agree with ours to ~1e-14 relative; its angular functions to ~1e-13
for ``c <= 10``, but its truncation (``25 + (n - m)/2 + c`` coefficients
from a backward recurrence) loses accuracy for larger ``c`` (4e-3 relative
at ``pro_ang1(5, 20, 40, x)``, where ours agrees with a 3.5 times longer
truncation to 2e-15): there the reference is the spheroidal equation
itself.  At ``c = 0`` the functions are ``P^m_n`` without the
Condon-Shortley phase.

Default run: the characteristic values (one program; the angular functions
run in their doctests there); the angular functions' grid, sequences, the
equation and derivatives are ``slow``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import sciax
from sciax import special as S


def test_characteristic_values_vs_scipy():
    # 1e-13 relative to max(1, |lambda|); NaN where n < m, as SciPy
    m = np.arange(0, 4)[:, None, None]
    n = np.arange(0, 8)[:, None]
    c = np.array([0.0, 0.5, 2.0, 5.0, 10.0])
    for ours, ref in ((S.pro_cv, sc.pro_cv), (S.obl_cv, sc.obl_cv)):
        a = np.asarray(ours(m, n, c))
        r = ref(m, n, c)
        assert np.array_equal(np.isnan(a), np.isnan(r))
        ok = ~np.isnan(r)
        assert np.max(np.abs(a - r)[ok] / np.maximum(1.0, np.abs(r[ok]))) < 1e-13


@pytest.mark.slow
def test_angular_vs_scipy():
    # c <= 10, where SciPy's truncation converges: 1e-12 relative to the
    # largest value of each function (and derivative) over x
    m = np.array([0, 1, 2, 1])[:, None, None]
    n = np.array([0, 2, 5, 4])[:, None, None]
    c = np.array([0.5, 3.0, 9.0])[:, None]
    x = np.array([-0.9, -0.3, 0.0, 0.4, 0.95])
    for ours, ref in ((S.pro_ang1, sc.pro_ang1), (S.obl_ang1, sc.obl_ang1)):
        for a, b in zip((np.asarray(t) for t in ours(m, n, c, x)), ref(m, n, c, x)):
            scale = np.max(np.abs(b), axis=-1, keepdims=True)
            np.testing.assert_allclose(a / scale, b / scale, atol=1e-12)
    # outside |x| < 1 and bad modes: NaN, as SciPy
    assert np.isnan(np.asarray(S.pro_ang1(m, n, c, 1.0 + x * 0)[0])).all()


@pytest.mark.slow
def test_sequences_cv_variants_and_c0():
    for ours, ref in ((S.pro_cv_seq, sc.pro_cv_seq), (S.obl_cv_seq, sc.obl_cv_seq)):
        a, r = np.asarray(ours(1, 9, 4.5)), ref(1, 9, 4.5)
        assert a.shape == r.shape
        np.testing.assert_allclose(a, r, rtol=1e-13)
    with pytest.raises(ValueError, match="scalars"):
        S.pro_cv_seq(np.array([0, 1]), 3, 1.0)
    # the _cv variants with SciPy's characteristic value: as SciPy's
    x = np.array([-0.5, 0.2, 0.7])
    for ours, ref, cvf in ((S.pro_ang1_cv, sc.pro_ang1_cv, sc.pro_cv),
                           (S.obl_ang1_cv, sc.obl_ang1_cv, sc.obl_cv)):
        cv = cvf(2, 4, 3.0)
        for a, b in zip((np.asarray(t) for t in ours(2, 4, 3.0, cv, x)),
                        ref(2, 4, 3.0, cv, x)):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13 * np.max(np.abs(b)))
    # c = 0: P^m_n(x) without the Condon-Shortley phase, and its derivative
    m, n = np.array(2), np.array(5)
    y, yp = (np.asarray(t) for t in S.pro_ang1(m, n, 0.0, x))
    p = (-1.0) ** 2 * sc.lpmv(2, 5, x)
    np.testing.assert_allclose(y, p, rtol=1e-13)
    h = 1e-6
    dp = (sc.lpmv(2, 5, x + h) - sc.lpmv(2, 5, x - h)) / (2 * h)
    np.testing.assert_allclose(yp, dp, rtol=1e-8)


@pytest.mark.slow
def test_spheroidal_equation_large_c():
    # (1 - x^2) S'' - 2x S' + (lambda -+ c^2 x^2 - m^2 / (1 - x^2)) S = 0
    # (DLMF 30.2.1; + c^2 for oblate), S'' by differencing the derivative
    # output (step 1e-5), at c up to 40 for the prolate functions (where
    # SciPy's are off by up to 4e-3) and 20 for the oblate ones (whose
    # normalisation S(0) = P(0) cancels for large c, as SciPy's): residual
    # below 1e-7 of the largest term.
    x = np.array([-0.8, -0.2, 0.3, 0.75]) + np.array([0.0, 1e-5, -1e-5])[:, None]
    for ours, cvf, sign, cs in ((S.pro_ang1, S.pro_cv, 1.0, (10.0, 40.0)),
                                (S.obl_ang1, S.obl_cv, -1.0, (5.0, 20.0))):
        for m, n in ((0, 0), (2, 7), (5, 20)):
            mm, nn = np.array(m), np.array(n)
            for c in cs:
                lam = float(cvf(mm, nn, c))
                y, yp = (np.asarray(t) for t in ours(mm, nn, c, x))
                ypp = (yp[1] - yp[2]) / 2e-5
                x0, s0, d0 = x[0], y[0], yp[0]
                terms = ((1 - x0**2) * ypp, 2 * x0 * d0,
                         (lam - sign * c**2 * x0**2 - m**2 / (1 - x0**2)) * s0)
                res = terms[0] - terms[1] + terms[2]
                big = max(np.max(np.abs(t)) for t in terms)
                assert np.max(np.abs(res)) < 1e-7 * big, (ours.__name__, m, n, c)


@pytest.mark.slow
def test_derivatives():
    # d lambda / dc (eigh's rule) against differences of SciPy's values;
    # d S / dx against the returned derivative; d S / dc by differences
    h = 1e-5
    g = float(sciax.grad(lambda c: S.obl_cv(1, 4, c))(2.5))
    fd = (sc.obl_cv(1, 4, 2.5 + h) - sc.obl_cv(1, 4, 2.5 - h)) / (2 * h)
    assert abs(g - fd) < 1e-7 * abs(fd)
    gc, gx = (float(t) for t in sciax.grad(lambda c, x: S.pro_ang1(1, 3, c, x)[0],
                                           argnums=(0, 1))(2.0, 0.3))
    fd = (sc.pro_ang1(1, 3, 2.0 + h, 0.3)[0]
          - sc.pro_ang1(1, 3, 2.0 - h, 0.3)[0]) / (2 * h)
    assert abs(gc - fd) < 1e-8
    assert abs(gx - sc.pro_ang1(1, 3, 2.0, 0.3)[1]) < 1e-12
