"""minimize_scalar against scipy.optimize.minimize_scalar, method by method."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import minimize_scalar

CASES = [
    (lambda x: x ** 4 - 3 * x ** 2 + x, lambda x: x ** 4 - 3 * x ** 2 + x),
    (lambda x: snp.cosh(x - 0.3), lambda x: np.cosh(x - 0.3)),
]


SLOW = pytest.mark.slow


@pytest.mark.parametrize("method,kw", [
    pytest.param("brent", {}, marks=SLOW), pytest.param("golden", {}, marks=SLOW),
    ("bounded", {"bounds": (-1.5, 3.0)}),
    pytest.param("brent", {"bracket": (-2.5, -1.0, 0.5)}, marks=SLOW)])
def test_matches_scipy(method, kw):
    f, g = CASES[0]
    r = minimize_scalar(f, method=method, **kw)
    s = so.minimize_scalar(g, method=method, **kw)
    # Both stop at their own xtol (relative 1.5e-8, or xatol 1e-5 for bounded).
    np.testing.assert_allclose(float(r.x), s.x, atol=1e-5 if method == "bounded"
                               else 1e-7)
    assert r.success
    assert abs(int(r.nfev) - s.nfev) <= 3


@pytest.mark.slow
def test_vmap_over_args_and_errors():
    xs = sciax.vmap(lambda a: minimize_scalar(lambda x: (x - a) ** 2).x)(
        snp.array([0.5, 2.0, -3.0]))
    np.testing.assert_allclose(np.asarray(xs), [0.5, 2.0, -3.0], atol=1e-6)
    with pytest.raises(ValueError, match="bounds"):
        minimize_scalar(lambda x: x * x, method="bounded")
    with pytest.raises(ValueError, match="Unknown"):
        minimize_scalar(lambda x: x * x, method="newton")


@pytest.mark.parametrize("maxiter", [1, 2, 3, 8, 500])
def test_bounded_evaluation_limit_as_scipy(maxiter):
    # SciPy's bounded method counts the first evaluation and stops (status 1)
    # at maxiter evaluations; one step always runs from an unconverged start
    f = lambda x: (x - 0.3) ** 2 * snp.cos(3 * x) + x  # noqa: E731
    fn = lambda x: (x - 0.3) ** 2 * np.cos(3 * x) + x  # noqa: E731
    a = minimize_scalar(f, bounds=(-1, 2), method="bounded",
                        options={"maxiter": maxiter})
    b = so.minimize_scalar(fn, bounds=(-1, 2), method="bounded",
                           options={"maxiter": maxiter})
    assert (int(a.nfev), int(a.status)) == (b.nfev, b.status)
    np.testing.assert_allclose(float(a.x), b.x, rtol=1e-12)
