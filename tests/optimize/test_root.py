"""root(method='lm') on MINPACK test systems (Moré, Garbow, Hillstrom 1981),
checked by the residual at the answer and against scipy.optimize.root."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import root


def _rosen(x, m=snp):
    return m.stack([10 * (x[1] - x[0] ** 2), 1 - x[0]])


def _helical(x, m=snp):
    th = m.arctan2(x[1], x[0]) / (2 * np.pi)
    return m.stack([10 * (x[2] - 10 * th), 10 * (m.sqrt(x[0] ** 2 + x[1] ** 2) - 1),
                    x[2]])


def _trig(x, m=snp):
    n = x.shape[0]
    return n - m.sum(m.cos(x)) + m.arange(1, n + 1) * (1 - m.cos(x)) - m.sin(x)


@pytest.mark.slow  # one compilation per system
@pytest.mark.parametrize("fun,x0", [(_rosen, [-1.2, 1.0]),
                                    (_helical, [-1.0, 0.0, 0.0]),
                                    (_trig, [0.2] * 4)])
def test_minpack_systems(fun, x0):
    sol = root(fun, snp.asarray(x0), method="lm")
    ref = so.root(lambda x: fun(x, np), x0, method="lm")
    assert sol.success
    assert np.max(np.abs(np.asarray(sol.fun))) <= max(1e-8, 10 * np.max(
        np.abs(ref.fun)))


@pytest.mark.slow
def test_implicit_derivative_and_errors():
    # x0 + a x1^3 = 1, x1 = a x0: compare dx/da with central differences.
    def f(x, a):
        return snp.stack([x[0] + a * x[1] ** 3 - 1.0, x[1] - a * x[0]])

    def g(x, a):
        return [x[0] + a * x[1] ** 3 - 1.0, x[1] - a * x[0]]

    # Reverse mode: the implicit rule of least_squares is a custom_vjp.
    d = sciax.jacrev(lambda a: root(f, snp.array([0.5, 0.5]), args=(a,),
                                    method="lm", tol=1e-14).x)(snp.float64(0.7))
    h = 1e-6
    fd = (so.root(g, [0.5, 0.5], args=(0.7 + h,), tol=1e-14).x
          - so.root(g, [0.5, 0.5], args=(0.7 - h,), tol=1e-14).x) / (2 * h)
    np.testing.assert_allclose(np.asarray(d), fd, rtol=1e-6)
    with pytest.raises(ValueError, match="not implemented"):
        root(f, snp.zeros(2), args=(0.5,))
