"""Events: a bouncing ball (terminal count, direction), two events in one step
in the right order, event-time gradients vs the closed form and finite
differences.

Free fall from height h0 with velocity v0 hits the ground at
t* = (v0 + sqrt(v0^2 + 2 g h0)) / g; RK45's interpolant is exact for the
quadratic trajectory, so crossings agree to the root finder's tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate as si

import sciax
import sciax.numpy as snp
from sciax.integrate import solve_ivp

G = 9.81


def fall(t, y):
    return snp.stack([y[1], -G + 0.0 * y[0]])


def ground(t, y):
    return y[0]


def apex(t, y):
    return y[1]


def test_bouncing_ball_terminal_and_direction():
    ground.terminal, ground.direction = True, -1
    apex.terminal, apex.direction = False, -1  # velocity crossing downward
    r = solve_ivp(fall, (0.0, 10.0), snp.array([1.0, 3.0]), events=[ground, apex],
                  rtol=1e-8, atol=1e-10)
    t_hit = (3.0 + np.sqrt(9.0 + 2 * G)) / G
    assert int(r.status) == 1 and r.message == "A termination event occurred."
    np.testing.assert_allclose(np.asarray(r.t_events[0]), [t_hit], rtol=1e-12)
    np.testing.assert_allclose(np.asarray(r.t_events[1]), [3.0 / G], rtol=1e-12)
    np.testing.assert_allclose(float(r.t[-1]), t_hit, rtol=1e-12)
    assert abs(float(r.y_events[0][0, 0])) < 1e-12
    # direction=+1 never fires on the way down (SciPy agrees).
    apex.direction = 1
    r2 = solve_ivp(fall, (0.0, 10.0), snp.array([1.0, 3.0]), events=[ground, apex],
                   rtol=1e-8, atol=1e-10)
    s2 = si.solve_ivp(lambda t, y: [y[1], -G], (0.0, 10.0), [1.0, 3.0],
                      events=[ground, apex], rtol=1e-8, atol=1e-10)
    assert len(r2.t_events[1]) == len(s2.t_events[1]) == 0

@pytest.mark.slow  # compiles a whole solver: CI's second step

def test_terminal_count_and_two_events_in_one_step():
    # sin(t) crosses zero at pi, 2 pi, 3 pi; terminal=2 stops at the second.
    def zero(t, y):
        return snp.sin(t)
    zero.terminal = 2

    def early(t, y):
        return t - 1.0

    def late(t, y):
        return t - 1.2
    late.terminal = True
    early.terminal = True
    r = solve_ivp(lambda t, y: -y, (0.1, 20.0), snp.array([1.0]), events=zero,
                  rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(r.t_events[0]), [np.pi, 2 * np.pi], rtol=1e-9)
    assert int(r.status) == 1 and abs(float(r.t[-1]) - 2 * np.pi) < 1e-9
    # One step of length 2 holds both crossings: the earliest terminal one
    # stops, whatever the order in the list, and the later one is not recorded.
    # y' = 1 has zero error estimate, so the first step (length 2) is accepted.
    r = solve_ivp(lambda t, y: snp.ones_like(y), (0.0, 2.0), snp.array([1.0]),
                  events=[late, early], first_step=2.0)
    assert int(r.n_points) == 2  # a single step
    np.testing.assert_allclose(float(r.t[-1]), 1.0, rtol=1e-12)
    assert len(r.t_events[0]) == 0 and len(r.t_events[1]) == 1
    late.terminal = early.terminal = False
    r = solve_ivp(lambda t, y: snp.ones_like(y), (0.0, 2.0), snp.array([1.0]),
                  events=[late, early], first_step=2.0)
    assert int(r.n_points) == 2
    np.testing.assert_allclose([float(r.t_events[0][0]), float(r.t_events[1][0])],
                               [1.2, 1.0], rtol=1e-12)


@pytest.mark.slow
def test_event_time_gradient():
    # d t*/d h0 = 1 / sqrt(v0^2 + 2 g h0) for the ground hit.
    ground.terminal, ground.direction = True, -1

    def t_hit(h0):
        r = solve_ivp(fall, (0.0, 10.0), snp.stack([h0, 3.0]), events=ground,
                      rtol=1e-10, atol=1e-12, max_steps=256)
        return r.t_events[0][0]

    g = float(sciax.grad(t_hit)(1.0))
    np.testing.assert_allclose(g, 1.0 / np.sqrt(9.0 + 2 * G), rtol=1e-8)
    eps = 1e-6
    fd = (float(t_hit(1.0 + eps)) - float(t_hit(1.0 - eps))) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=1e-6)
