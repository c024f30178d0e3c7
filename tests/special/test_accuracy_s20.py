"""Session 20 accuracy fixes of ``sciax.special`` (issue 20), against mpmath:
``polygamma`` for ``x < 0``.

It used the recurrence ``psi^(n)(x) = psi^(n)(x + m) - (-1)^n n! sum (x +
k)^-(n+1)``, whose terms cancel wherever the result is small beside them: at
the negative half-integers for even ``n`` (5e-11 relative at ``n = 2, x =
-100.5``, 0.74 at ``n = 6``; SciPy is 1.6e-11 and 0.07 off there), and it
took ``-x`` loop trips.  It now reflects, ``psi^(n)(x) = (-1)^n psi^(n)(1 - x)
- pi^(n+1) cot^(n)(pi x)``, with ``cot^(n)`` a polynomial of same-signed
coefficients in ``cot(pi r)``, ``r = x - round(x)`` (exact), which is exactly
0 at the half-integers.  One compiled call per test."""

from __future__ import annotations

import mpmath
import numpy as np

import sciax
import sciax.numpy as snp
import sciax.special as ss

EPS = np.finfo(np.float64).eps


def _ref(n, x):
    # mpmath's polygamma at x < 0 recurs up from x: it cancels as ours did
    # (233 digits lost at n = 100, x = -100.5, hence the working precision) and
    # takes -x steps.  Below x = -150 the reference is DLMF 5.15.6's
    # reflection with mpmath's numerical n-th derivative of pi cot(pi x).
    with mpmath.workdps(60 + 4 * int(n)):
        xm = mpmath.mpf(float(x))

        def f(k):
            if xm > -150:
                return mpmath.polygamma(k, xm)
            return ((-1) ** k * mpmath.polygamma(k, 1 - xm)
                    - mpmath.pi * mpmath.diff(lambda s: mpmath.cot(mpmath.pi * s), xm, k))

        v = f(int(n))
        return float(v), float(abs(xm * f(int(n) + 1) / v))


def test_polygamma_negative_vs_mpmath():
    rng = np.random.default_rng(20)
    x = np.concatenate([-rng.uniform(0, 30, 24), -np.arange(1, 8) + 0.5, [-100.5],
                        -np.arange(1, 5) + 1e-6, [-1e-9, -0.3]])
    far = np.array([-1000.5, -12345.678, -1e8 + 0.3])
    ns = [1, 2, 3, 4, 6, 10, 25, 40, 100]
    n = np.concatenate([np.repeat(ns, x.size), np.repeat(ns[:6], far.size)]).astype(float)
    xx = np.concatenate([np.tile(x, len(ns)), np.tile(far, 6)])
    ours = np.asarray(sciax.jit(ss.polygamma)(snp.asarray(n), snp.asarray(xx)))
    ref = np.array([_ref(a, b) for a, b in zip(n, xx)])
    keep = np.abs(ref[:, 0]) < 1e300
    err = np.abs(ours[keep] - ref[keep, 0]) / np.abs(ref[keep, 0])
    # the rounding of x alone moves the value by cond * eps / 2; the
    # evaluation adds a few dozen roundings
    bound = 400 * EPS * np.maximum(1.0, ref[keep, 1])
    bad = err > bound
    assert not bad.any(), list(zip(n[keep][bad], xx[keep][bad], err[bad]))
    # at the half-integers of even n the cot term is exactly 0: the value is
    # the positive side's, psi^(n)(x) = psi^(n)(1 - x), to the last bit
    half = (xx - np.floor(xx) == 0.5) & (n % 2 == 0)
    assert half.sum() == 52          # 8 per even n, and -1000.5 for n <= 10
    mirror = np.asarray(sciax.jit(ss.polygamma)(snp.asarray(n[half]), snp.asarray(1 - xx[half])))
    np.testing.assert_array_equal(ours[half], mirror)


def test_polygamma_negative_beyond_table_and_float32():
    # n > 100 keeps the recurrence (finite, and SciPy's accuracy there);
    # float32 reflects up to n = 26
    n = np.array([101.0, 120.0])
    x = np.array([-1.5, -3.25])
    ours = np.asarray(ss.polygamma(snp.asarray(n), snp.asarray(x)))
    ref = np.array([_ref(a, b)[0] for a, b in zip(n, x)])
    np.testing.assert_allclose(ours, ref, rtol=1e-12)
    # (not -100.5 at n = 20: XLA's float32 polygamma(20, 101.5) underflows to 0)
    x32 = np.array([-2.5, -7.5, -0.3], np.float32)
    for k in (2, 20):
        ours = np.asarray(ss.polygamma(np.float32(k), snp.asarray(x32)))
        assert ours.dtype == np.float32
        ref = np.array([_ref(k, v)[0] for v in x32])
        np.testing.assert_allclose(ours, ref, rtol=2e-5)


def test_polygamma_negative_derivative():
    # d/dx psi^(n) = psi^(n+1), reflected too
    x = snp.asarray([-3.7, -0.5, -100.5, -2.2])
    g = np.asarray(sciax.vmap(sciax.grad(lambda t: ss.polygamma(2, t)))(x))
    ref = np.array([_ref(3, v)[0] for v in np.asarray(x)])
    np.testing.assert_allclose(g, ref, rtol=1e-13)
