"""``shgo`` against ``scipy.optimize.shgo`` on SciPy's test functions: the
global minimum (``x`` and ``fun``) must be SciPy's.

Both end in a local SLSQP search (``ftol = 1e-12``) from a candidate near
the global minimum, so ``fun`` agrees to 1e-9 absolute and ``x`` to 1e-5
(SLSQP's stopping test is on ``f``, so ``x`` is known to about the square
root of ``ftol`` times the curvature's scale; Rosenbrock's flat valley is the
worst case).  The candidate sets (nearest-neighbour stars here, Delaunay
stars in SciPy) and so ``xl``, ``nfev`` differ and are not compared.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax.numpy as snp
from sciax.optimize import Bounds, rosen, shgo

_SLOW = pytest.mark.slow


def _ackley(xp):
    def f(x):
        return (-20.0 * xp.exp(-0.2 * xp.sqrt(0.5 * xp.sum(x ** 2)))
                - xp.exp(0.5 * xp.sum(xp.cos(2 * np.pi * x))) + np.e + 20.0)
    return f


def _eggholder(xp):
    def f(x):
        return (-(x[1] + 47.0) * xp.sin(xp.sqrt(xp.abs(x[0] / 2.0 + (x[1] + 47.0))))
                - x[0] * xp.sin(xp.sqrt(xp.abs(x[0] - (x[1] + 47.0)))))
    return f


def _same(res, ref, xtol=1e-5):
    assert res.success and ref.success
    assert abs(float(res.fun) - ref.fun) <= 1e-9 * max(1.0, abs(ref.fun))
    np.testing.assert_allclose(np.asarray(res.x), ref.x, atol=xtol)
    assert res.funl[0] == res.fun and np.all(np.diff(res.funl) >= 0)
    assert res.nfev >= res.nlfev > 0 and res.nit >= 1


def test_one_dimensional_and_bad_input():
    # a 1-D double well, Halton points: the left well is the global one
    def f(x):
        return (x[0] ** 2 - 1.0) ** 2 + 0.3 * x[0]

    res = shgo(f, [(-2.0, 2.0)], n=16, sampling_method="halton")
    ref = so.shgo(f, [(-2.0, 2.0)], n=16, sampling_method="halton")
    _same(res, ref)
    assert res.xl.shape == (2, 1)  # both wells
    with pytest.raises(ValueError, match="lb > ub"):
        shgo(f, [(1.0, 0.0)])
    with pytest.raises(ValueError, match="finite"):
        shgo(f, [(None, 1.0)])
    with pytest.raises(ValueError, match="Unknown sampling_method"):
        shgo(f, [(0.0, 1.0)], sampling_method="grid")


@_SLOW
def test_rosenbrock_and_ackley():
    b = [(0.0, 2.0)] * 4
    _same(shgo(rosen, b, sampling_method="sobol"),
          so.shgo(so.rosen, b, sampling_method="sobol"))
    _same(shgo(_ackley(snp), Bounds([-5.0, -5.0], [5.0, 5.0]), sampling_method="sobol"),
          so.shgo(_ackley(np), so.Bounds([-5.0, -5.0], [5.0, 5.0]),
                  sampling_method="sobol"))


@_SLOW
def test_eggholder():
    # SciPy's docstring example: the minimum sits on the boundary x0 = 512
    b = [(-512.0, 512.0)] * 2
    seen = []
    res = shgo(_eggholder(snp), b, n=64, iters=3, sampling_method="sobol",
               callback=seen.append)
    ref = so.shgo(_eggholder(np), b, n=64, iters=3, sampling_method="sobol")
    _same(res, ref)
    assert res.nit == 3 and len(res.xl) > 10
    assert len(seen) == 3 and np.array_equal(seen[-1], res.x)


@_SLOW
def test_constrained_docstring_example():
    def f(x):
        return 24.55 * x[0] + 26.75 * x[1] + 39 * x[2] + 40.50 * x[3]

    def cons(xp):
        def g2(x):
            return (12 * x[0] + 11.9 * x[1] + 41.8 * x[2] + 52.1 * x[3] - 21
                    - 1.645 * xp.sqrt(0.28 * x[0] ** 2 + 0.19 * x[1] ** 2
                                      + 20.5 * x[2] ** 2 + 0.62 * x[3] ** 2))
        return ({"type": "ineq", "fun": lambda x: 2.3 * x[0] + 5.6 * x[1]
                 + 11.1 * x[2] + 1.3 * x[3] - 5},
                {"type": "ineq", "fun": g2},
                {"type": "eq", "fun": lambda x: x[0] + x[1] + x[2] + x[3] - 1})

    b = [(0.0, 1.0)] * 4
    res = shgo(f, b, n=150, constraints=cons(snp))  # SciPy's call ('simplicial')
    ref = so.shgo(f, b, n=150, constraints=cons(np))
    _same(res, ref)
    x = np.asarray(res.x)
    assert abs(x.sum() - 1.0) < 1e-10
