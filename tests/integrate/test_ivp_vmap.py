"""vmap over initial conditions and parameters equals a loop of single solves,
lane by lane (values, nfev, status); odeint against scipy.integrate.odeint."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate as si

import sciax
import sciax.numpy as snp
from sciax.integrate import odeint, solve_ivp

TE = snp.array([0.5, 1.0])


def lorenz(t, y, r):
    return snp.stack([10.0 * (y[1] - y[0]), y[0] * (r - y[2]) - y[1],
                      y[0] * y[1] - 8.0 / 3.0 * y[2]])


def one(y0, r):
    res = solve_ivp(lorenz, (0.0, 1.0), y0, args=(r,), t_eval=TE, rtol=1e-6, atol=1e-8,
                    max_steps=512)
    return res.y, res.nfev, res.status


def _check(n):
    rng = np.random.default_rng(0)
    y0s = 1.0 + rng.standard_normal((n, 3))
    rs = 28.0 + rng.standard_normal(n)
    ys, nfev, status = sciax.vmap(one)(snp.asarray(y0s), snp.asarray(rs))
    assert ys.shape == (n, 3, 2)
    f = sciax.jit(one)
    for i in range(n):
        yi, ni, si_ = f(snp.asarray(y0s[i]), rs[i])
        # Each lane takes its own steps: the same nfev as its solo solve.
        assert int(nfev[i]) == int(ni) and int(status[i]) == int(si_) == 0
        np.testing.assert_allclose(np.asarray(ys[i]), np.asarray(yi), rtol=1e-12,
                                   atol=1e-12)
    assert len(set(np.asarray(nfev).tolist())) > 1  # lanes really differ

@pytest.mark.slow  # compiles a whole solver: CI's second step

def test_vmap_50_initial_conditions_equals_loop():
    _check(50)


@pytest.mark.slow
def test_vmap_1000_initial_conditions_equals_loop():
    _check(1000)


def test_odeint_matches_scipy():
    t = np.linspace(0.0, 2.0, 5)
    ys = odeint(lambda y, t, r: lorenz(t, y, r), snp.array([1.0, 1.0, 1.0]), t, 28.0)
    ref = si.odeint(lambda y, t: np.array([10.0 * (y[1] - y[0]), y[0] * (28.0 - y[2])
                                           - y[1], y[0] * y[1] - 8.0 / 3.0 * y[2]]),
                    [1.0, 1.0, 1.0], t, rtol=1e-12, atol=1e-12)
    assert ys.shape == (5, 3)
    # Both solve to ~1.4e-8 local tolerance; Lorenz amplifies that over [0, 2].
    np.testing.assert_allclose(np.asarray(ys), ref, rtol=1e-5, atol=1e-5)
