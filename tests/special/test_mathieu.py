"""Mathieu functions (sciax.special._mathieu) against SciPy, mpmath and
identities.

Which side is accurate where (measured, and the reason for each reference):

* characteristic values: SciPy's ``cva2`` agrees with the eigenvalue of a
  50-digit mpmath eigensolve to ~1e-15 on ``|q| <= 50``, ``m <= 10``; both
  are references there.
* Fourier coefficients: SciPy's ``fcoef`` starts its backward recurrence at
  its own truncation, so its last coefficients are wrong (its last one is
  0), and for ``se_2n+2`` at small ``q`` a middle coefficient can be off by
  20% (``mathieu_odd_coef(10, 1e-6)[3]``); the reference is the 50-digit
  mpmath eigenvector, per component, relative (ours agree to ~3e-15).
* ``ce``/``se``: SciPy's inherit its coefficients' errors (3e-10 absolute at
  ``mathieu_cem(2, 1e-3, x)``): compared with SciPy where its coefficients
  are good, with the mpmath coefficients' sum elsewhere, and with the ODE
  and the orthonormality integrals.
* modified functions: SciPy's first kind is its ``s = 0`` Bessel-product
  series, which cancels catastrophically for ``m >> sqrt(q)``
  (``mathieu_modcem1(10, 1e-3, x)`` has no correct digit; its Wronskian
  ``Mc1 Mc2' - Mc1' Mc2 = 2/pi`` fails by 1e11 there, ours holds to 5e-15).
  Compared with SciPy where its Wronskian holds to 1e-13, and everywhere
  with the Wronskian, the ODE, and (slow) the same series summed by mpmath
  at 50 digits.

Default run: the characteristic values and ``ce``/``se`` (one program each;
the radial functions' kernel compiles for ~5 s, so the default run has only
their doctests); the radial functions, coefficients, identities and
derivatives are ``slow``.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import sciax
import sciax.numpy as snp
from sciax import special as S

# --- references ----------------------------------------------------------------------


def _mp_solution(kd, n, q, size=60, dps=60):
    """Characteristic value and SciPy-normalised coefficients of class ``kd``
    (1..4, SciPy's numbering), index ``n``, at ``dps`` digits: inverse
    iteration on the tridiagonal matrix (Thomas' algorithm in mpmath) from
    SciPy's double characteristic value, three steps (each gains ~15 digits;
    ``size`` coefficients converge far below double rounding for ``q <=
    50``)."""
    m = 2 * n + {1: 0, 2: 1, 3: 1, 4: 2}[kd]
    lam = (sc.mathieu_a if kd <= 2 else sc.mathieu_b)(m, q)
    with mpmath.workdps(dps):
        h = {1: 0, 2: 1, 3: 1, 4: 2}[kd]
        q = mpmath.mpf(q)
        d = [mpmath.mpf((2 * i + h) ** 2) for i in range(size)]
        d[0] += {2: q, 3: -q}.get(kd, 0)
        e = [q] * (size - 1)
        if kd == 1:
            e[0] = mpmath.sqrt(2) * q
        lam = mpmath.mpf(lam)
        x = [mpmath.mpf(1)] * size
        for _ in range(3):
            # solve (A - lam) y = x by elimination (no pivoting: the one tiny
            # pivot is what inverse iteration amplifies)
            piv, rhs = [d[0] - lam], [x[0]]
            for i in range(1, size):
                f = e[i - 1] / piv[-1]
                piv.append(d[i] - lam - f * e[i - 1])
                rhs.append(x[i] - f * rhs[-1])
            y = [rhs[-1] / piv[-1]]
            for i in range(size - 2, -1, -1):
                y.insert(0, (rhs[i] - e[i] * y[0]) / piv[i])
            nrm = mpmath.sqrt(sum(t * t for t in y))
            x = [t / nrm for t in y]
            ax = [d[i] * x[i] + (e[i - 1] * x[i - 1] if i else 0)
                  + (e[i] * x[i + 1] if i + 1 < size else 0) for i in range(size)]
            lam = sum(a * b for a, b in zip(ax, x))
        if kd == 1:
            x[0] /= mpmath.sqrt(2)
        if x[0] < 0:
            x = [-t for t in x]
        return lam, x


def _np(t):
    return tuple(np.asarray(u) for u in t) if isinstance(t, tuple) else np.asarray(t)


# --- default run ------------------------------------------------------------------


def test_characteristic_values_vs_scipy():
    # SciPy agrees with the mpmath eigenvalue to ~1e-15 here (see the module
    # docstring); 1e-13 relative.  Negative q: DLMF 28.2.26 (a_2n+1(-q) =
    # b_2n+1(q)), which SciPy applies explicitly and our matrices contain.
    m = np.arange(0, 9)[:, None]
    q = np.array([-7.5, -1.0, 0.0, 1e-3, 0.7, 4.0, 20.0, 50.0])
    a = np.asarray(S.mathieu_a(m, q))
    np.testing.assert_allclose(a, sc.mathieu_a(m, q), rtol=1e-13, atol=1e-13)
    b = np.asarray(S.mathieu_b(m[1:], q))
    np.testing.assert_allclose(b, sc.mathieu_b(m[1:], q), rtol=1e-13, atol=1e-13)
    # invalid orders are NaN, as in SciPy
    assert np.isnan(np.asarray(S.mathieu_a(np.array([-1.0, 1.5]), 1.0))).all()
    assert np.isnan(np.asarray(S.mathieu_b(0, 1.0)))


def test_cem_sem_vs_scipy():
    # q where SciPy's coefficients are accurate (>= 0.5 or < 0 through its
    # symmetry at 90 - x, DLMF 28.2.34-35): 1e-12 absolute (the functions
    # are O(1); SciPy's own error there is ~1e-14).
    m = np.arange(0, 7)[:, None, None]
    q = np.array([-3.0, 0.5, 6.0, 30.0])[:, None]
    x = np.linspace(-40.0, 220.0, 9)
    for ours, ref in ((S.mathieu_cem, sc.mathieu_cem), (S.mathieu_sem, sc.mathieu_sem)):
        y, yp = _np(ours(m, q, x))
        ry, ryp = ref(m, q, x)
        np.testing.assert_allclose(y, ry, atol=1e-12)
        np.testing.assert_allclose(yp, ryp, atol=1e-11)


def test_argument_errors():
    with pytest.raises(TypeError, match="must be concrete"):
        sciax.jit(lambda m: S.mathieu_a(m, 1.0))(2)
    with pytest.raises(ValueError, match="scalars"):
        S.mathieu_even_coef(np.array([1, 2]), 1.0)
    with pytest.raises(ValueError, match="q must be >= 0"):
        S.mathieu_odd_coef(2, -1.0)
    with pytest.raises(ValueError, match="integer > 0"):
        S.mathieu_odd_coef(0, 1.0)


# --- slow: coefficients, identities, derivatives -----------------------------------
# (orders are passed as NumPy arrays: an array order sends the eager call down
# the direct path, so repeating a call does not compile it again as a program)


@pytest.mark.slow
def test_modified_wronskian_and_scipy():
    # Wronskian W{M^(1), M^(2)} = 2/pi (DLMF 28.20.21) for both parities,
    # across q and x, including m >> sqrt(q) where SciPy's first kind fails;
    # and the values against SciPy for m <= 3, q >= 0.5 (where SciPy's
    # Wronskian holds to 1e-14): 1e-12 relative to the largest value.
    m = np.array([1, 3, 9])[:, None, None]
    q = np.array([1e-3, 0.5, 8.0, 40.0])[:, None]
    x = np.array([0.0, 0.3, 1.0, 2.0])
    res = {name: _np(getattr(S, "mathieu_" + name)(m, q, x))
           for name in ("modcem1", "modcem2", "modsem1", "modsem2")}
    for kind in "cs":
        (y1, p1), (y2, p2) = res[f"mod{kind}em1"], res[f"mod{kind}em2"]
        w = (y1 * p2 - p1 * y2) * np.pi / 2
        np.testing.assert_allclose(w, 1.0, rtol=0, atol=1e-12)
    for name, (y, yp) in res.items():
        ry, ryp = getattr(sc, "mathieu_" + name)(m[:2], q[1:], x)
        for a, b in ((y[:2, 1:], ry), (yp[:2, 1:], ryp)):
            scale = np.max(np.abs(b), axis=-1, keepdims=True)
            np.testing.assert_allclose(a / scale, b / scale, atol=1e-12)
    # q < 0, and m < 1 for the odd ones: NaN, as SciPy
    assert np.isnan(_np(S.mathieu_modcem1(m, -q, x))).all()
    assert np.isnan(_np(S.mathieu_modsem2(m - 1, q, x))[0][0]).all()


@pytest.mark.slow
def test_coefficients_vs_mpmath_and_scipy():
    # Per component against the 60-digit eigenvector: 1e-13 relative (ours
    # measure <= 7e-15; components below 1e-30 are compared absolutely, the
    # reference's accuracy).  SciPy: its length, and its values to 1e-12
    # absolute where its recurrence is accurate (all but its last two, not
    # for se_2n+2 at q < 0.01).
    for m, q in [(0, 1e-6), (2, 1.0), (5, 0.01), (8, 12.0), (10, 45.0)]:
        for ours, ref, kd in ((S.mathieu_even_coef, sc.mathieu_even_coef, 1 + m % 2),
                              (S.mathieu_odd_coef, sc.mathieu_odd_coef, 4 - m % 2)):
            if m == 0 and kd == 4:
                continue
            c = np.asarray(ours(m, q))
            r = ref(m, q)
            assert c.shape == r.shape
            _, mp = _mp_solution(kd, m // 2 - (kd == 4), q)
            mp = np.array([float(t) for t in mp[:len(c)]])
            np.testing.assert_allclose(c, mp, rtol=1e-13, atol=1e-30)
            if kd != 4 or q >= 0.01:
                np.testing.assert_allclose(c[:-2], r[:-2], atol=1e-12)
    # traced q: the static length, the same coefficients
    c = np.asarray(sciax.jit(lambda q: S.mathieu_even_coef(3, q))(2.0))
    r = np.asarray(S.mathieu_even_coef(3, 2.0))
    np.testing.assert_allclose(c[:len(r)], r, atol=1e-15)
    assert np.all(np.abs(c[len(r):]) < 1e-15)


@pytest.mark.slow
def test_cem_sem_small_q_vs_mpmath_and_ode():
    # Where SciPy's coefficients are off (q = 1e-3), the mpmath coefficients'
    # Fourier sums: 1e-14 absolute.
    x = np.linspace(-30.0, 200.0, 12)
    for kd, m, q in [(1, 2, 1e-3), (4, 2, 1e-3), (4, 6, 1e-3), (2, 7, 0.02)]:
        _, c = _mp_solution(kd, m // 2 - (kd == 4), q)
        c = np.array([float(t) for t in c])
        h = 2 * np.arange(len(c)) + {1: 0, 2: 1, 3: 1, 4: 2}[kd]
        trig = np.cos if kd <= 2 else np.sin
        ref = trig(np.outer(np.radians(x), h)) @ c
        f = S.mathieu_cem if kd <= 2 else S.mathieu_sem
        np.testing.assert_allclose(np.asarray(f(np.array(m), q, x)[0]), ref, atol=1e-14)
    # ce_m, se_m solve y'' + (a - 2q cos 2x) y = 0: the derivative output
    # differenced (step 1e-4 rad: truncation ~1e-9 of the fourth derivative)
    # against the equation, 1e-6 relative to |a| + 2|q|.
    m = np.arange(1, 7)[:, None, None, None]
    q = np.array([-2.0, 0.3, 5.0, 40.0])[:, None, None]
    step = 1e-4
    shift = np.array([0.0, 1.0, -1.0])[:, None] * np.degrees(step)
    xd = np.linspace(0.0, 180.0, 7) + shift
    for f, char in ((S.mathieu_cem, S.mathieu_a), (S.mathieu_sem, S.mathieu_b)):
        a = np.asarray(char(m[..., 0], q[..., 0]))
        y, yp = _np(f(m, q, xd))
        ypp = (yp[..., 1, :] - yp[..., 2, :]) / (2 * step)
        qq = q[..., 0, :]
        res = ypp + (a - 2 * qq * np.cos(2 * np.radians(xd[0]))) * y[..., 0, :]
        assert np.max(np.abs(res) / (np.abs(a) + 2 * np.abs(qq))) < 1e-6


@pytest.mark.slow
def test_orthonormality():
    # int_0^2pi ce_m ce_n = pi delta_mn (DLMF 28.2.30-31), likewise se, and ce
    # orthogonal to se: a trapezoid rule on 256 points (exact for these
    # trigonometric polynomials to rounding at q = 7), 1e-13.
    xs = np.arange(256) * (360.0 / 256)
    ce = np.asarray(S.mathieu_cem(np.arange(5)[:, None], 7.0, xs)[0])
    se = np.asarray(S.mathieu_sem(np.arange(1, 6)[:, None], 7.0, xs)[0])
    w = 2 * np.pi / 256
    np.testing.assert_allclose(ce @ ce.T * w / np.pi, np.eye(5), atol=1e-13)
    np.testing.assert_allclose(se @ se.T * w / np.pi, np.eye(5), atol=1e-13)
    np.testing.assert_allclose(ce @ se.T * w, 0.0, atol=1e-13)


@pytest.mark.slow
def test_modified_vs_mpmath_series_and_ode():
    # SciPy's s = 0 series summed by mpmath at 60 digits over the mpmath
    # coefficients (the series is exact; SciPy's double sum cancels): ours
    # to 1e-13 relative, where SciPy's error is up to 100%.
    cases = [(1, 10, 1e-3, 0.4), (3, 9, 0.05, 1.2), (4, 8, 0.5, 0.3)]
    for kd, m, q, x in cases:
        f = S.mathieu_modcem1 if kd <= 2 else S.mathieu_modsem1
        got = float(f(np.array(m), q, x)[0])
        n = m // 2 - (kd == 4)
        _, c = _mp_solution(kd, n, q)
        with mpmath.workdps(60):
            h = mpmath.sqrt(q)
            u1, u2 = h * mpmath.exp(-x), h * mpmath.exp(x)
            j = mpmath.besselj
            tot = 0
            for ell, cl in enumerate(c[:30]):
                if kd == 1:
                    p = j(ell, u1) * j(ell, u2)
                elif kd == 3:
                    p = j(ell, u1) * j(ell + 1, u2) - j(ell + 1, u1) * j(ell, u2)
                else:
                    p = j(ell, u1) * j(ell + 2, u2) - j(ell + 2, u1) * j(ell, u2)
                tot += (-1) ** (ell + n) * cl * p
            ref = float(tot / c[0])
        np.testing.assert_allclose(got, ref, rtol=1e-13)
    # w'' = (a - 2q cosh 2x) w for all four, by differencing the derivative
    # output (step 1e-5: truncation ~1e-10 of the fourth derivative), 1e-7
    # relative to the largest right-hand side
    q, m = 6.0, np.array(4)
    x = np.array([0.2, 0.7, 1.3]) + np.array([0.0, 1e-5, -1e-5])[:, None]
    for name, char in (("modcem1", S.mathieu_a), ("modcem2", S.mathieu_a),
                       ("modsem1", S.mathieu_b), ("modsem2", S.mathieu_b)):
        a = float(char(m, q))
        y, yp = _np(getattr(S, "mathieu_" + name)(m, q, x))
        ypp = (yp[1] - yp[2]) / 2e-5
        rhs = (a - 2 * q * np.cosh(2 * x[0])) * y[0]
        assert np.max(np.abs(ypp - rhs)) < 1e-7 * np.max(np.abs(rhs))


@pytest.mark.slow
def test_derivatives_and_vmap():
    # d a / dq is Hellmann-Feynman through eigh's rule; d2a/dq2 likewise:
    # central differences of SciPy's (accurate) values, 1e-7 / 1e-4.
    h = 1e-4
    m, q = 3, -2.0
    g = float(sciax.grad(lambda t: S.mathieu_a(m, t))(q))
    fd = (sc.mathieu_a(m, q + h) - sc.mathieu_a(m, q - h)) / (2 * h)
    assert abs(g - fd) < 1e-7 * max(1.0, abs(fd))
    g2 = float(sciax.grad(sciax.grad(lambda t: S.mathieu_a(m, t)))(q))
    fd2 = (sc.mathieu_a(m, q + h) - 2 * sc.mathieu_a(m, q)
           + sc.mathieu_a(m, q - h)) / h**2
    assert abs(g2 - fd2) < 1e-4 * max(1.0, abs(fd2))
    # the angular functions in q and x (x in degrees: d/dx = yp * pi / 180)
    gq, gx = (float(t) for t in sciax.grad(lambda t, u: S.mathieu_cem(3, t, u)[0],
                                           argnums=(0, 1))(3.0, 40.0))
    fd = (sc.mathieu_cem(3, 3 + h, 40.0)[0]
          - sc.mathieu_cem(3, 3 - h, 40.0)[0]) / (2 * h)
    assert abs(gq - fd) < 1e-8
    assert abs(gx - sc.mathieu_cem(3, 3.0, 40.0)[1] * np.pi / 180) < 1e-13
    # the radial ones: d/dx is the returned derivative; d/dq by differences
    gq, gx = (float(t) for t in sciax.grad(lambda t, u: S.mathieu_modsem1(3, t, u)[0],
                                           argnums=(0, 1))(2.0, 0.4))
    fd = (sc.mathieu_modsem1(3, 2 + h, 0.4)[0]
          - sc.mathieu_modsem1(3, 2 - h, 0.4)[0]) / (2 * h)
    assert abs(gq - fd) < 1e-8
    assert abs(gx - sc.mathieu_modsem1(3, 2.0, 0.4)[1]) < 1e-12
    # vmap over q matches SciPy; float32 in, float32 out
    qs = snp.array([0.5, 2.0, 9.0])
    v = sciax.vmap(lambda t: S.mathieu_sem(2, t, 10.0))(qs)
    ref = sc.mathieu_sem(2, np.asarray(qs), 10.0)[0]
    np.testing.assert_allclose(np.asarray(v[0]), ref, atol=1e-13)
    y = S.mathieu_cem(2, np.float32(3.0), np.float32(20.0))[0]
    assert y.dtype == np.float32
    np.testing.assert_allclose(float(y), sc.mathieu_cem(2, 3.0, 20.0)[0], rtol=1e-6)
