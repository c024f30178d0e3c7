"""lebedev_rule: SciPy's points and weights exactly, and exactness on monomials.

The exact integral of a monomial over the unit sphere is
``∫ x^i y^j z^k = 2 Γ((i+1)/2) Γ((j+1)/2) Γ((k+1)/2) / Γ((i+j+k+3)/2)`` for even
``i, j, k`` (zero otherwise; Folland, Amer. Math. Monthly 108, 2001).  The
rules' sums of ~m terms of size ≤ 4π/m·1 round to ~1e-15; 1e-13 absolute
leaves room and is ~1e9 times below the error at degree n + 1.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.integrate as si
from scipy.special import gammaln

import sciax
import sciax.numpy as snp
from sciax.integrate import lebedev_rule

ORDERS = [3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 35, 41, 47, 53, 59,
          65, 71, 77, 83, 89, 95, 101, 107, 113, 119, 125, 131]


def sphere_monomial(i: int, j: int, k: int) -> float:
    if i % 2 or j % 2 or k % 2:
        return 0.0
    return 2.0 * np.exp(gammaln((i + 1) / 2) + gammaln((j + 1) / 2)
                        + gammaln((k + 1) / 2) - gammaln((i + j + k + 3) / 2))


def exactness_error(x: np.ndarray, w: np.ndarray, degree: int, even_only: bool = False
                    ) -> float:
    """Largest error over the monomials of total degree ``degree`` (with
    ``even_only``, those with even exponents: the others vanish by the rules'
    symmetry)."""
    powers = [x[c][None, :] ** np.arange(degree + 1)[:, None] for c in range(3)]
    px, py, pz = powers
    step = 2 if even_only else 1
    worst = 0.0
    for i in range(0, degree + 1, step):
        for j in range(0, degree - i + 1, step):
            k = degree - i - j
            q = np.dot(w * px[i], py[j] * pz[k])
            worst = max(worst, abs(q - sphere_monomial(i, j, k)))
    return worst


def test_scipy_tables_and_exactness():
    for n in ORDERS:
        x, w = (np.asarray(v) for v in lebedev_rule(n))
        xs, ws = si.lebedev_rule(n)
        np.testing.assert_array_equal(x, xs)
        np.testing.assert_array_equal(w, ws)
    for n in (3, 5, 7, 17):
        x, w = (np.asarray(v) for v in lebedev_rule(n))
        np.testing.assert_allclose(np.sum(x * x, axis=0), 1.0, rtol=1e-15)
        assert max(exactness_error(x, w, d) for d in range(n + 1)) < 1e-13
        assert exactness_error(x, w, n + 1) > 1e-6       # the order is sharp


@pytest.mark.slow
def test_exactness_every_order():
    # all monomials of degree <= n for every order (degrees n and n - 1 are the
    # hardest; lower ones are checked up to 41, odd exponents too).  (Degree n + 1 is not checked
    # here: its largest error falls to ~2e-12 by n = 35, near the rounding.)
    for n in ORDERS:
        x, w = (np.asarray(v) for v in lebedev_rule(n))
        degrees = range(n + 1) if n <= 41 else (n - 1, n)
        assert max(exactness_error(x, w, d, even_only=n > 41) for d in degrees) < 1e-13, n


@pytest.mark.slow
def test_integral_of_exp_x_converges_and_differentiates():
    # ∫ exp(c x) over the sphere = 4π sinh(c)/c; derivative in c by grad
    x, w = lebedev_rule(41)

    def integral(c):
        return w @ snp.exp(c * x[0])
    c = 1.5
    np.testing.assert_allclose(float(integral(c)), 4 * np.pi * np.sinh(c) / c, rtol=1e-14)
    d_ref = 4 * np.pi * (np.cosh(c) / c - np.sinh(c) / c ** 2)
    np.testing.assert_allclose(float(sciax.grad(integral)(c)), d_ref, rtol=1e-13)


def test_bad_order_is_named():
    with pytest.raises(ValueError, match="order n must be one of"):
        lebedev_rule(4)
