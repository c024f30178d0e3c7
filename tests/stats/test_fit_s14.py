"""Session 14: ``fit`` is one jitted program (closed form or start + BFGS,
then the standard errors), and the closed-form MLEs SciPy uses are ours
too: ``halfnorm``, and with ``floc`` fixed ``rayleigh``, ``lognorm`` and
``gamma`` (one scalar root of ``log(a) - digamma(a) = log(mean) -
mean(log)``, or of ``digamma(a) = mean(log) - log(scale)`` with ``fscale``).
Estimates are checked against SciPy's ``fit`` (closed forms on both sides:
1e-12), standard errors against the inverse of a finite-difference hessian
of SciPy's negative log-likelihood."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
from sciax import stats
from tests.stats.test_distributions import fd_hessian

CASES = [
    ("norm", (1.0, 2.0), {"floc": 0.5}), ("norm", (1.0, 2.0), {"fscale": 1.5}),
    ("expon", (0.5, 2.0), {}), ("expon", (0.5, 2.0), {"floc": 0.2}),
    ("halfnorm", (0.3, 2.0), {}), ("halfnorm", (0.3, 2.0), {"floc": 0.0}),
    ("halfnorm", (0.3, 2.0), {"fscale": 2.5}),
    ("rayleigh", (0.0, 2.0), {"floc": 0.0}), ("rayleigh", (0.0, 2.0), {"floc": -0.3}),
    ("lognorm", (0.7, 0.2, 1.5), {"floc": 0.0}),
    ("lognorm", (0.7, 0.2, 1.5), {"floc": 0.1, "fscale": 1.4}),
    ("lognorm", (0.7, 0.2, 1.5), {"floc": 0.1, "f0": 0.6}),
    ("gamma", (2.5, 0.0, 1.5), {"floc": 0.0}),
    ("gamma", (0.3, 0.0, 1.5), {"floc": -0.1}),
    ("gamma", (40.0, 0.0, 1.5), {"floc": 0.0}),
    ("gamma", (2.5, 0.0, 1.5), {"floc": 0.0, "fscale": 1.4}),
    ("gamma", (2.5, 0.0, 1.5), {"floc": 0.0, "fa": 2.0}),
]


@pytest.mark.parametrize("name,true,kw", CASES)
def test_closed_forms_match_scipy(name, true, kw):
    data = getattr(ss, name).rvs(*true, size=500, random_state=4)
    got = np.array([float(v) for v in getattr(stats, name).fit(data, **kw)])
    ref = np.array(getattr(ss, name).fit(data, **kw), dtype=float)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-300)


def test_gamma_floc_se_vs_scipy_hessian():
    data = ss.gamma.rvs(2.5, scale=1.5, size=400, random_state=7)
    est = stats.gamma.fit(data, floc=0.0, return_se=True)
    a, loc, scale = (float(v) for v in est.params)
    f = lambda th: ss.gamma.nnlf((th[0], 0.0, th[1]), data)  # noqa: E731
    th, h = np.array([a, scale]), 1e-4
    H = fd_hessian(f, th, h)
    se_ref = np.sqrt(np.diag(np.linalg.inv(H)))
    np.testing.assert_allclose([est.se[0], est.se[2]], se_ref, rtol=1e-5)
    assert float(est.se[1]) == 0.0
    assert abs(float(est.nllf) - f(th)) < 1e-9 * abs(f(th))


def test_fit_traced_and_bad_data():
    data = ss.lognorm.rvs(0.7, scale=1.5, size=300, random_state=2)
    # traced data: the same program runs inside jit
    got = sciax.jit(lambda d: stats.lognorm.fit(d, floc=0.0))(snp.asarray(data))
    np.testing.assert_allclose([float(v) for v in got],
                               ss.lognorm.fit(data, floc=0.0), rtol=1e-12)
    # data at or below a fixed loc: NaN (SciPy raises FitDataError)
    a, _, scale = stats.gamma.fit(data, floc=1.0)
    assert np.isnan(float(a)) and np.isnan(float(scale))
    # integer data are fitted as float64
    k = np.array([1, 2, 2, 3, 5, 8])
    np.testing.assert_allclose([float(v) for v in stats.norm.fit(k)],
                               ss.norm.fit(k.astype(float)), rtol=1e-14)
