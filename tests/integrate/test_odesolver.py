"""SciPy's step-wise interface (OdeSolver, DenseOutput, ``RK45(fun, t0, y0,
t_bound)``) against scipy.integrate's solvers.

The steppers run solve_ivp's loop, which follows SciPy's algorithms for
RK23/RK45/DOP853/BDF/Radau: the step sequences are solve_ivp's exactly, and the
counters are SciPy's; the times agree with SciPy's to rounding amplified by the
step-size control.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.integrate as si

import sciax.numpy as snp
from sciax.integrate import (BDF, DOP853, LSODA, RK23, RK45, DenseOutput, Euler, Kvaerno5,
                             OdeSolver, Radau, solve_ivp)

SCIPY = {RK23: si.RK23, RK45: si.RK45, DOP853: si.DOP853, BDF: si.BDF, Radau: si.Radau}


def oscillator(t, y):
    return snp.stack([y[1], -y[0] - 0.1 * y[1]])


def oscillator_np(t, y):
    return np.array([y[1], -y[0] - 0.1 * y[1]])


def run_both(method, t_bound=3.0, **kw):
    ours = method(oscillator, 0.0, snp.array([1.0, 0.0]), t_bound, **kw)
    ref = SCIPY[method](oscillator_np, 0.0, np.array([1.0, 0.0]), t_bound, **kw)
    ts, ts_ref = [], []
    while ours.status == "running":
        assert ours.step() is None
        ts.append(ours.t)
    while ref.status == "running":
        ref.step()
        ts_ref.append(ref.t)
    return ours, ref, np.array(ts), np.array(ts_ref)


def test_rk45_steps_as_scipy_and_traces_once():
    traces = []

    def fun(t, y):
        traces.append(1)            # runs when traced, not when a step runs
        return oscillator(t, y)
    s = RK45(fun, 0.0, snp.array([1.0, 0.0]), 3.0, rtol=1e-6, atol=1e-9)
    assert isinstance(s, OdeSolver) and s.t_old is None and s.step_size is None
    ref = si.RK45(oscillator_np, 0.0, np.array([1.0, 0.0]), 3.0, rtol=1e-6, atol=1e-9)
    s.step()
    n_traced = len(traces)
    while s.status == "running":
        ref.step()
        np.testing.assert_allclose(s.t, ref.t, rtol=1e-9)
        np.testing.assert_allclose(np.asarray(s.y), ref.y, rtol=1e-10, atol=1e-13)
        s.step()
    ref.step()
    assert len(traces) == n_traced                   # no step traced again
    assert s.status == ref.status == "finished" and s.t == 3.0
    assert (s.nfev, s.njev, s.nlu) == (ref.nfev, ref.njev, ref.nlu)
    d, e = s.dense_output(), ref.dense_output()
    assert isinstance(d, DenseOutput)
    np.testing.assert_allclose([d.t_min, d.t_max], [e.t_min, e.t_max], rtol=1e-9)
    tq = np.linspace(s.t_old, s.t, 4)
    np.testing.assert_allclose(np.asarray(d(tq)), e(tq), rtol=1e-10, atol=1e-13)
    assert np.asarray(d(tq[1])).shape == (2,)
    with pytest.raises(RuntimeError, match="failed or finished"):
        s.step()
    # the stateless solver is unchanged
    assert RK45() == RK45() and not isinstance(RK45(), OdeSolver)


@pytest.mark.slow
@pytest.mark.parametrize("method", [RK23, DOP853, BDF, Radau])
def test_methods_step_as_solve_ivp_and_count_as_scipy(method):
    # the steps are solve_ivp's, exactly (the same loop); solve_ivp's own steps
    # follow SciPy's to rounding amplified by the step-size control (up to 4e-4
    # relative in t for Radau here, 1e-7 for DOP853), so the counters are
    # compared with SciPy's and the steps with solve_ivp's
    ours, ref, ts, ts_ref = run_both(method, rtol=1e-6, atol=1e-9)
    sol = solve_ivp(oscillator, (0.0, 3.0), snp.array([1.0, 0.0]), method=method.__name__,
                    rtol=1e-6, atol=1e-9, dense_output=True)
    assert ours.status == ref.status == "finished" and len(ts) == len(ts_ref)
    np.testing.assert_array_equal(ts, np.asarray(sol.t)[1:])
    np.testing.assert_array_equal(np.asarray(ours.y), np.asarray(sol.y)[:, -1])
    # DOP853 builds its interpolant every step (3 evaluations), SciPy on demand
    extra = 3 * len(ts) if method is DOP853 else 0
    assert (ours.nfev - extra, ours.njev, ours.nlu) == (ref.nfev, ref.njev, ref.nlu)
    tq = np.linspace(ours.t_old, ours.t, 5)
    np.testing.assert_allclose(np.asarray(ours.dense_output()(tq)),
                               np.asarray(sol.sol(snp.asarray(tq))), rtol=1e-13, atol=1e-15)


@pytest.mark.slow
def test_other_methods_backward_and_warnings():
    # sciax's own methods step the same way; backwards in time too
    for method in (LSODA, Kvaerno5, Euler):
        kw = {"first_step": 0.01} if method is Euler else {"rtol": 1e-8, "atol": 1e-10}
        s = method(lambda t, y: -y, 2.0, snp.array([1.0]), 0.0, **kw)
        while s.status == "running":
            s.step()
        assert s.t == 0.0 and s.direction == -1.0
        # Euler's relative global error at h = 0.01 over a span of 2: ~ h t / 2 = 1%
        np.testing.assert_allclose(float(s.y[0]), np.exp(2.0), rtol=0.015 if method is Euler
                                   else 1e-6)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        RK45(lambda t, y: -y, 0.0, snp.array([1.0]), 1.0, foo=1)
    assert "`foo`" in str(w[0].message)
    with pytest.raises(ValueError, match="1-dimensional"):
        RK45(lambda t, y: -y, 0.0, snp.ones((2, 2)), 1.0)


def test_subclass_with_scipys_template():
    # a user solver written for SciPy's OdeSolver: explicit Euler
    class Stepper(OdeSolver):
        def __init__(self, fun, t0, y0, t_bound, h):
            super().__init__(fun, t0, y0, t_bound, vectorized=False)
            self.h = h

        def _step_impl(self):
            h = min(self.h, self.t_bound - self.t)
            self.y_old = self.y
            self.y = self.y + h * self.fun(self.t, self.y)
            self.t += h
            return True, None

        def _dense_output_impl(self):
            outer = self

            class Linear(DenseOutput):
                def _call_impl(self, t):
                    x = (t - self.t_old) / (self.t - self.t_old)
                    return outer.y_old + x * (outer.y - outer.y_old) if t.ndim == 0 \
                        else outer.y_old[:, None] + x * (outer.y - outer.y_old)[:, None]
            return Linear(self.t_old, self.t)

    s = Stepper(lambda t, y: -y, 0.0, snp.array([1.0]), 1.0, 0.25)
    while s.status == "running":
        s.step()
    assert s.nfev == 4 and s.t == 1.0 and float(s.y[0]) == 0.75 ** 4
    np.testing.assert_allclose(np.asarray(s.dense_output()(0.875)), [0.75 ** 3 * 0.875])
