"""minimize(method='TNC') against SciPy's TNC: the same bounded minimisers,
with SciPy's statuses and messages (the iterates differ: exact hessian-vector
products, no preconditioner, see sciax/optimize/_tnc.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import minimize, rosen


def _scipy(x0, bounds):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return so.minimize(so.rosen, x0, jac=so.rosen_der, method="TNC", bounds=bounds,
                           options={"maxfun": 1000})


def test_bounded_rosenbrock_vmapped_starts():
    # the box cuts off the minimum: x1 = 0.8 is active at the answer
    bounds = [(-2, 2), (-2, 0.8)]
    starts = np.array([[-1.2, 1.0], [1.5, -1.5], [0.0, 0.0]])
    r = sciax.vmap(lambda x0: minimize(rosen, x0, method="TNC", bounds=bounds))(
        snp.asarray(np.clip(starts, [-2, -2], [2, 0.8])))
    # converged by one of TNC's tests (SciPy stops two of these on |f_n - f_(n-1)|)
    assert np.all(np.asarray(r.success)), r.message
    for i, x0 in enumerate(np.clip(starts, [-2, -2], [2, 0.8])):
        s = _scipy(x0, bounds)
        assert s.success
        np.testing.assert_allclose(np.asarray(r.x)[i], s.x, atol=1e-4)
        assert float(r.fun[i]) <= s.fun + 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("x0,bounds", [
    ([-1.2, 1.0], None),
    ([0.5, 0.5, 0.5, 0.5], [(0, 0.9)] * 4)])
def test_tnc_vs_scipy(x0, bounds):
    r = minimize(rosen, snp.asarray(x0), method="TNC", bounds=bounds)
    s = _scipy(x0, bounds)
    assert r.success and s.success
    np.testing.assert_allclose(np.asarray(r.x), s.x, atol=2e-4)
    assert float(r.fun) <= s.fun + 1e-9


@pytest.mark.slow
def test_maxfun_status():
    r = minimize(rosen, snp.array([-1.2, 1.0]), method="TNC", options={"maxfun": 10})
    assert int(r.status) == 3 and not r.success
    assert r.message == "Max. number of function evaluations reached"
