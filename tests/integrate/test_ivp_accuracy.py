"""Accuracy and cost on the DETEST non-stiff set (classes A-E), Lorenz, Kepler
(energy and angular momentum), Arenstorf's orbit and Van der Pol (mu = 1).

References are SciPy's DOP853 at rtol = 1e-13 (atol 1e-13).  At the same
tolerances (rtol 1e-6, atol 1e-9) sciax and SciPy take the same steps, so the
errors against the reference must be of the same order (within 10x plus the
reference's own error; chaotic Lorenz amplifies roundoff, so it is compared
over t <= 10 only) and nfev within 1.2x of SciPy's for the same method.  The
table of errors and nfev is in benchmarks/README.md (``python -m
tests.integrate.test_ivp_accuracy`` prints it).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
import scipy.integrate as si

import sciax.numpy as snp
from sciax.integrate import solve_ivp
from tests.integrate.detest import DETEST, OTHERS, _kepler, _kepler_y0

RTOL, ATOL = 1e-6, 1e-9
PROBLEMS = {p[0]: p for p in DETEST + OTHERS}


@functools.lru_cache(maxsize=None)
def reference(name):
    _, rhs, y0, t1 = PROBLEMS[name]
    s = si.solve_ivp(lambda t, y: rhs(t, y, np), (0.0, t1), y0, method="DOP853",
                     rtol=1e-13, atol=1e-13)
    return s.y[:, -1]


def compare(name, method):
    _, rhs, y0, t1 = PROBLEMS[name]
    r = solve_ivp(lambda t, y: rhs(t, y, snp), (0.0, t1), snp.asarray(y0),
                  method=method, rtol=RTOL, atol=ATOL, t_eval=[t1], max_steps=20000)
    s = si.solve_ivp(lambda t, y: rhs(t, y, np), (0.0, t1), y0, method=method,
                     rtol=RTOL, atol=ATOL, t_eval=[t1])
    ref = reference(name)
    err = float(np.max(np.abs(np.asarray(r.y)[:, -1] - ref)))
    err_s = float(np.max(np.abs(s.y[:, -1] - ref)))
    return err, err_s, int(r.nfev), int(s.nfev), bool(r.success)


def _check(name, method):
    err, err_s, nfev, nfev_s, ok = compare(name, method)
    assert ok
    assert err <= 10 * err_s + 1e-11, (err, err_s)
    assert nfev <= 1.2 * nfev_s, (nfev, nfev_s)


def test_a1_rk45():
    _check("A1", "RK45")


@pytest.mark.slow
@pytest.mark.parametrize("method", ["RK23", "RK45", "DOP853"])
@pytest.mark.parametrize("name", list(PROBLEMS))
def test_problem_set(name, method):
    _check(name, method)


@pytest.mark.slow
def test_kepler_invariants():
    # Energy and angular momentum drift at rtol 1e-10 over ~3 orbits, as small
    # as SciPy's own drift with the same method.
    y0 = _kepler_y0(0.5)

    def inv(y):
        r = np.hypot(y[0], y[1])
        return 0.5 * (y[2] ** 2 + y[3] ** 2) - 1 / r, y[0] * y[3] - y[1] * y[2]

    r = solve_ivp(lambda t, y: _kepler(t, y, snp), (0.0, 20.0), snp.asarray(y0),
                  method="DOP853", rtol=1e-10, atol=1e-12)
    s = si.solve_ivp(lambda t, y: _kepler(t, y, np), (0.0, 20.0), y0, method="DOP853",
                     rtol=1e-10, atol=1e-12)
    e0, l0 = inv(y0)
    e, ang = inv(np.asarray(r.y)[:, -1])
    es, angs = inv(s.y[:, -1])
    assert abs(e - e0) <= 2 * abs(es - e0) + 1e-13 and abs(e - e0) < 1e-8
    assert abs(ang - l0) <= 2 * abs(angs - l0) + 1e-13 and abs(ang - l0) < 1e-8


if __name__ == "__main__":
    print("| problem | method | sciax error | SciPy error | sciax nfev | SciPy nfev |")
    print("|---|---|---|---|---|---|")
    for name in PROBLEMS:
        for method in ("RK23", "RK45", "DOP853"):
            err, err_s, n, ns, _ = compare(name, method)
            print(f"| {name} | {method} | {err:.2e} | {err_s:.2e} | {n} | {ns} |")
