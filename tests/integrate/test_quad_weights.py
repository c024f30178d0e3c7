"""quad's weights and tanhsinh vs scipy.integrate and closed forms."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.integrate as si

import sciax
import sciax.numpy as snp
from sciax.integrate import quad, tanhsinh

WEIGHTED = [
    # (name, f (sciax), f (NumPy), a, b, weight, wvar)
    ("cos_finite", lambda x: snp.exp(-x), lambda x: np.exp(-x), 0.0, 10.0, "cos", 20.0),
    ("sin_finite", lambda x: x * x, lambda x: x * x, 0.0, 3.0, "sin", 7.0),
    ("sin_fourier", lambda x: 1 / (1 + x * x), lambda x: 1 / (1 + x * x), 0.0,
     np.inf, "sin", 3.0),
    ("cos_fourier", lambda x: snp.exp(-x), lambda x: np.exp(-x), 1.0, np.inf, "cos",
     2.0),
    ("cos_fourier_left", lambda x: snp.exp(x), lambda x: np.exp(x), -np.inf, 0.5, "cos",
     1.5),
    ("alg", lambda x: snp.exp(x), lambda x: np.exp(x), 0.0, 1.0, "alg", (-0.5, 0.3)),
    ("alg_loga", lambda x: snp.exp(x), lambda x: np.exp(x), 0.0, 1.0, "alg-loga",
     (-0.5, 0.3)),
    ("alg_log", lambda x: 1 + x, lambda x: 1 + x, -1.0, 2.0, "alg-log", (0.2, -0.4)),
    ("cauchy", lambda x: snp.exp(x), lambda x: np.exp(x), -1.0, 2.0, "cauchy", 0.5),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", WEIGHTED, ids=[c[0] for c in WEIGHTED])
def test_weights_vs_scipy(case):
    _, f, fn, a, b, weight, wvar = case
    y, err = quad(f, a, b, weight=weight, wvar=wvar)
    ref, ref_err = si.quad(fn, a, b, weight=weight, wvar=wvar)
    # both within the default tolerance (1.49e-8) of each other, and the reported
    # error covers the difference (each method's own estimate)
    tol = 1.49e-8 * max(1.0, abs(ref))
    assert abs(float(y) - ref) <= 2 * tol, (float(y), ref)
    assert abs(float(y) - ref) <= float(err) + ref_err + 1e-14


@pytest.mark.slow
def test_weight_derivatives():
    # d/dω ∫_0^1 cos(ωx) dx = (cos ω - sin ω / ω)/ω ... by the product rule
    g = lambda w: quad(lambda x: 1.0 + 0 * x, 0.0, 1.0, weight="cos", wvar=w)[0]  # noqa
    w = 3.0
    exact = (math.cos(w) * w - math.sin(w)) / w ** 2
    assert abs(float(sciax.grad(g)(w)) - exact) < 1e-9
    # Cauchy: d/dc PV∫_{-1}^{2} dx/(x-c) = d/dc log((2-c)/(c+1)) = -1/(2-c) - 1/(c+1)
    def h(c):
        return quad(lambda x: 1.0 + 0 * x, -1.0, 2.0, weight="cauchy", wvar=c)[0]
    assert abs(float(sciax.grad(h)(0.5)) - (-1 / 1.5 - 1 / 1.5)) < 1e-9


def test_weight_bad_input():
    f = lambda x: x  # noqa: E731
    with pytest.raises(ValueError, match="needs wvar"):
        quad(f, 0.0, 1.0, weight="cos")
    with pytest.raises(ValueError, match="from -inf to inf"):
        quad(f, -np.inf, np.inf, weight="cos", wvar=1.0)
    with pytest.raises(ValueError, match="strictly between"):
        quad(f, 0.0, 1.0, weight="cauchy", wvar=2.0)
    with pytest.raises(ValueError, match="both > -1"):
        quad(f, 0.0, 1.0, weight="alg", wvar=(-1.0, 0.0))
    with pytest.raises(ValueError, match="needs a finite range"):
        quad(f, 0.0, np.inf, weight="alg", wvar=(0.0, 0.0))


@pytest.mark.slow
def test_tanhsinh_vs_scipy_and_grad():
    a = np.array([-np.inf, 0.0, -1.0, 0.0])
    b = np.array([np.inf, np.inf, 2.0, 1.0])
    c = np.array([1.0, 2.0, 3.0, 0.5])
    f = lambda x, c: snp.exp(-c * x * x)  # noqa: E731
    res = sciax.jit(lambda c: tanhsinh(f, a, b, args=(c,)))(c)
    ref = si.tanhsinh(lambda x, c: np.exp(-c * x * x), a, b, args=(c,))
    assert np.all(np.asarray(res.status) == 0)
    np.testing.assert_allclose(res.integral, ref.integral, rtol=1e-12)
    # the error estimates bound the true error (closed forms via erf)
    exact = np.array([math.sqrt(math.pi), 0.5 * math.sqrt(math.pi / 2),
                      0.5 * math.sqrt(math.pi / 3) * (math.erf(2 * math.sqrt(3))
                                                      + math.erf(math.sqrt(3))),
                      math.sqrt(math.pi / 0.5) / 2 * math.erf(math.sqrt(0.5))])
    assert np.all(np.abs(np.asarray(res.integral) - exact)
                  <= np.asarray(res.error) + 4e-16 * exact)
    d = sciax.grad(lambda c: tanhsinh(f, -np.inf, np.inf, args=(c,)).integral)(1.0)
    assert abs(float(d) + 0.5 * math.sqrt(math.pi)) < 1e-12
    # endpoint singularity, elementwise limits
    r = tanhsinh(lambda x: x ** -0.5, 0.0, snp.array([1.0, 4.0]))
    np.testing.assert_allclose(r.integral, [2.0, 4.0], rtol=1e-12)
