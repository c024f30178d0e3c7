"""solve_ivp against scipy.integrate.solve_ivp: same steps, nfev and values;
dense output, t_eval, backward solves, pytrees, jit shapes, failures, bad input.

The sciax solvers take SciPy's steps (same error norm, controller and initial
step), so step counts and nfev agree exactly and values agree to roundoff
accumulated over the steps (1e-9 relative on Lorenz over [0, 2]).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.integrate as si

import sciax
import sciax.numpy as snp
from sciax.integrate import METHODS, RK45, solve_ivp
from sciax.integrate._tableaux import ButcherTableau


def lorenz(t, y, s=10.0, r=28.0, b=8.0 / 3.0):
    return snp.stack([s * (y[1] - y[0]), y[0] * (r - y[2]) - y[1],
                      y[0] * y[1] - b * y[2]])


def lorenz_np(t, y, s=10.0, r=28.0, b=8.0 / 3.0):
    return np.array([s * (y[1] - y[0]), y[0] * (r - y[2]) - y[1],
                     y[0] * y[1] - b * y[2]])


def test_tableau_checked_at_construction():
    with pytest.raises(ValueError, match="rows do not sum to c"):
        ButcherTableau((0.0, 0.5), ((0, 0), (0.4, 0)), (0.5, 0.5), None,
                       ((0.5,), (0.5,), (0.0,)))
    with pytest.raises(ValueError, match="sum to"):
        ButcherTableau((0.0, 0.5), ((0, 0), (0.5, 0)), (0.5, 0.6), None,
                       ((0.5,), (0.6,), (0.0,)))


def test_method_registry():
    assert set(METHODS) == {"RK23", "RK45", "DOP853", "Tsit5", "RK4", "Euler",
                            "BDF", "Radau", "Kvaerno3", "Kvaerno4", "Kvaerno5",
                            "KenCarp3", "KenCarp4", "KenCarp5", "LSODA"}
    with pytest.raises(ValueError, match="`method` must be one of"):
        solve_ivp(lorenz, (0.0, 1.0), np.ones(3), method="Nope")
    with pytest.raises(ValueError, match="fixed-step"):
        solve_ivp(lorenz, (0.0, 1.0), np.ones(3), method="RK4")


def test_bad_input_raises_at_trace_time():
    y0 = np.ones(3)
    with pytest.raises(ValueError, match="t_span"):
        solve_ivp(lorenz, (0.0, 1.0, 2.0), y0)
    with pytest.raises(ValueError, match="not within"):
        solve_ivp(lorenz, (0.0, 1.0), y0, t_eval=[0.5, 1.5])
    with pytest.raises(ValueError, match="not properly sorted"):
        solve_ivp(lorenz, (0.0, 1.0), y0, t_eval=[0.5, 0.2])
    with pytest.raises(ValueError, match="finite"):
        solve_ivp(lorenz, (0.0, 1.0), np.array([1.0, np.nan, 0.0]))
    with pytest.raises(ValueError, match=r"shape \(2,\).*shape \(3,\)"):
        solve_ivp(lambda t, y: y[:2], (0.0, 1.0), y0)
    with pytest.raises(ValueError, match="atol"):
        solve_ivp(lorenz, (0.0, 1.0), y0, atol=np.ones(2))
    with pytest.warns(UserWarning, match="no effect"):
        with pytest.raises(ValueError, match="t_span"):
            solve_ivp(lorenz, (0.0,), y0, bogus=1)


def test_rk45_matches_scipy_steps_and_values():
    r = solve_ivp(lorenz, (0.0, 2.0), snp.array([1.0, 1.0, 1.0]), rtol=1e-6, atol=1e-8)
    s = si.solve_ivp(lorenz_np, (0.0, 2.0), [1.0, 1.0, 1.0], rtol=1e-6, atol=1e-8)
    assert r.success and r.message == s.message
    assert int(r.nfev) == s.nfev and r.t.shape == s.t.shape
    np.testing.assert_allclose(np.asarray(r.t), s.t, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(r.y), s.y, rtol=1e-9, atol=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["RK23", "DOP853"])
def test_methods_match_scipy_steps(method):
    r = solve_ivp(lorenz, (0.0, 2.0), snp.array([1.0, 1.0, 1.0]), method=method,
                  rtol=1e-6, atol=1e-8)
    s = si.solve_ivp(lorenz_np, (0.0, 2.0), [1.0, 1.0, 1.0], method=method,
                     rtol=1e-6, atol=1e-8)
    assert int(r.nfev) == s.nfev and r.t.shape == s.t.shape
    np.testing.assert_allclose(np.asarray(r.y), s.y, rtol=1e-9, atol=1e-9)


@pytest.mark.slow  # compiles a whole solver: CI's second step
@pytest.mark.parametrize("method", ["RK45",
                                    pytest.param("DOP853", marks=pytest.mark.slow),
                                    pytest.param("RK23", marks=pytest.mark.slow)])
def test_dense_output_and_t_eval_match_scipy(method):
    te = np.linspace(0.0, 2.0, 9)
    r = solve_ivp(lorenz, (0.0, 2.0), snp.array([1.0, 1.0, 1.0]), method=method,
                  t_eval=te, dense_output=True, rtol=1e-6, atol=1e-8)
    s = si.solve_ivp(lorenz_np, (0.0, 2.0), [1.0, 1.0, 1.0], method=method, t_eval=te,
                     dense_output=True, rtol=1e-6, atol=1e-8)
    assert int(r.nfev) == s.nfev
    np.testing.assert_allclose(np.asarray(r.y), s.y, rtol=1e-8, atol=1e-8)
    tq = np.linspace(-0.1, 2.1, 23)  # includes extrapolation at both ends
    np.testing.assert_allclose(np.asarray(r.sol(tq)), s.sol(tq), rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(np.asarray(r.sol(0.7)), s.sol(0.7), rtol=1e-8)

@pytest.mark.slow  # compiles a whole solver: CI's second step

def test_backward_pytree_and_fixed_step():
    # y' = -y on a dict state, integrated from 1 back to 0: y(0) = e y(1).
    y1 = {"a": snp.array(1.0), "b": snp.array([[2.0, 3.0]])}
    r = solve_ivp(lambda t, y: {"a": -y["a"], "b": -y["b"]}, (1.0, 0.0), y1,
                  t_eval=[1.0, 0.5, 0.0], rtol=1e-10, atol=1e-12)
    assert r.y["a"].shape == (3,) and r.y["b"].shape == (1, 2, 3)
    np.testing.assert_allclose(np.asarray(r.y["a"]), np.exp([0.0, 0.5, 1.0]), rtol=1e-8)
    np.testing.assert_allclose(np.asarray(r.y["b"])[0, 1], 3 * np.exp([0.0, 0.5, 1.0]),
                               rtol=1e-8)
    # Fixed-step RK4: h = 0.1 gives the classical 4th-order error ~ h^4 / 120.
    r4 = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]), method="RK4",
                   first_step=0.1)
    assert r4.t.shape == (11,) and int(r4.nfev) == 1 + 4 * 10
    assert abs(float(r4.y[0, -1]) - np.exp(-1)) < 1e-6

@pytest.mark.slow  # compiles a whole solver: CI's second step

def test_jit_shapes_and_counts():
    te = snp.linspace(0.0, 1.0, 5)
    f = sciax.jit(lambda y0: solve_ivp(lorenz, (0.0, 1.0), y0, t_eval=te, max_steps=64))
    r = f(snp.ones(3))
    assert r.t.shape == (5,) and r.y.shape == (3, 5) and int(r.n_points) == 5
    g = sciax.jit(lambda y0: solve_ivp(lorenz, (0.0, 1.0), y0, max_steps=64))
    r = g(snp.ones(3))
    n = int(r.n_points)
    assert r.t.shape == (65,) and r.y.shape == (3, 65) and 2 < n < 65
    assert np.isnan(np.asarray(r.t)[n:]).all() and float(r.t[n - 1]) == 1.0

@pytest.mark.slow  # compiles a whole solver: CI's second step

def test_failures_are_reported():
    r = solve_ivp(lorenz, (0.0, 10.0), snp.ones(3), max_steps=5)
    assert not r.success and int(r.status) == -2 and "max_steps" in r.message
    # y' = y^2 from y(0) = 1 blows up at t = 1.
    r = solve_ivp(lambda t, y: y * y, (0.0, 2.0), snp.array([1.0]))
    assert not r.success and int(r.status) in (-1, -3)
    assert float(r.t[-1]) < 1.0
    r = solve_ivp(lambda t, y: snp.log(y - 2.0), (0.0, 1.0), snp.array([1.0]))
    assert not r.success and int(r.status) == -3 and "NaN" in r.message


def test_rtol_too_small_warns_like_scipy():
    with pytest.warns(UserWarning, match="rtol"):
        r = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]), rtol=1e-20,
                      atol=1e-12)
    assert r.success
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]), method=RK45)


def test_progress_bar_on_stderr(capfd):
    solve_ivp(lambda t, y: -y, (0.0, 5.0), snp.array([1.0]), progress=True,
              max_steps=64)
    err = capfd.readouterr().err
    assert "solve_ivp [" in err and "100.0%" in err


@pytest.mark.parametrize("method", ["RK45", "BDF"])
def test_empty_state_takes_one_step_to_the_end_like_scipy(method):
    # SciPy's initial step is inf for an empty y0 (one step to t1, status 0);
    # sciax ran the step controller on the NaN norm of nothing, to max_steps.
    ref = si.solve_ivp(lambda t, y: -y, (0.0, 2.0), np.zeros(0), method=method)
    r = solve_ivp(lambda t, y: -y, (0.0, 2.0), np.zeros(0), method=method,
                  dense_output=True)
    assert int(r.status) == ref.status == 0
    np.testing.assert_array_equal(np.asarray(r.t), ref.t)
    assert np.asarray(r.y).shape == ref.y.shape == (0, 2)
    assert np.asarray(r.sol(1.0)).shape == (0,)
