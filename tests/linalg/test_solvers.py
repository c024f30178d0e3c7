"""sciax.linalg matrix-equation solvers vs scipy.linalg: Sylvester, Lyapunov and
Riccati equations (real and complex, eager and jit, batched vs a loop,
derivatives vs finite differences, bad input)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
import sciax.linalg as sla
from sciax.test_util import check_grads

RNG = np.random.default_rng(1234)


@pytest.fixture(autouse=True)
def _fresh_rng():
    """Every test draws from the same fresh stream, so its inputs (and the
    finite-difference accuracy of the derivative checks) do not depend on
    which tests ran before it in the same xdist worker."""
    global RNG
    RNG = np.random.default_rng(1234)


def _rel(x, y):
    x = np.asarray(x)
    return np.abs(x - y).max() / max(np.abs(y).max(), 1e-300)


def _sylvester_args(n, m, dtype=np.float64, batch=()):
    def mat(*shape):
        x = RNG.normal(size=batch + shape)
        if np.issubdtype(dtype, np.complexfloating):
            x = x + 1j * RNG.normal(size=batch + shape)
        return x.astype(dtype)
    # shift b so that a and -b have no eigenvalue in common (well-conditioned)
    return mat(n, n), mat(m, m) + 4 * np.eye(m, dtype=dtype), mat(n, m)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_solve_sylvester_matches_scipy(dtype):
    a, b, q = _sylvester_args(4, 3, dtype)
    want = sl.solve_sylvester(a, b, q)
    for f in (sla.solve_sylvester, sciax.jit(sla.solve_sylvester)):
        x = f(a, b, q)
        assert np.asarray(x).dtype == dtype
        assert _rel(x, want) < 1e-12


def test_solve_sylvester_mixed_real_and_complex_input_solves_the_equation():
    # scipy 1.17 returns a wrong answer for complex a with real b; check the
    # residual instead
    a, _, q = _sylvester_args(3, 2, np.complex128)
    b = RNG.normal(size=(2, 2)) + 4 * np.eye(2)
    x = np.asarray(sla.solve_sylvester(a, b, q))
    assert np.abs(a @ x + x @ b - q).max() < 1e-12


def test_solve_sylvester_float32_smoke():
    a, b, q = (x.astype(np.float32) for x in _sylvester_args(3, 3))
    x = sla.solve_sylvester(a, b, q)
    assert np.asarray(x).dtype == np.float32
    assert _rel(x, sl.solve_sylvester(a, b, q)) < 1e-4


@pytest.mark.slow  # long: runs in CI's second step
def test_solve_sylvester_batched_equals_loop_and_vmap():
    a, b, q = _sylvester_args(3, 2, batch=(3,))
    want = np.stack([sl.solve_sylvester(a[i], b[i], q[i]) for i in range(3)])
    assert _rel(sla.solve_sylvester(a, b, q), want) < 1e-12
    assert _rel(sciax.vmap(sla.solve_sylvester)(a, b, q), want) < 1e-12
    # broadcasting: one b for a batch of a and q
    want1 = np.stack([sl.solve_sylvester(a[i], b[0], q[i]) for i in range(3)])
    assert _rel(sla.solve_sylvester(a, b[0], q), want1) < 1e-12


@pytest.mark.slow  # long: runs in CI's second step
def test_solve_sylvester_grads():
    a, b, q = _sylvester_args(3, 2)
    check_grads(sla.solve_sylvester, (a, b, q), order=1, modes=("fwd", "rev"))


@pytest.mark.slow  # long: runs in CI's second step
def test_solve_sylvester_complex_grads():
    a, b, q = _sylvester_args(2, 2, np.complex128)
    check_grads(lambda q: sla.solve_sylvester(a, b, q), (q,), order=1,
                modes=("fwd", "rev"))


def test_continuous_lyapunov():
    a = RNG.normal(size=(4, 4)) - 2 * np.eye(4)
    q = RNG.normal(size=(4, 4))
    assert _rel(sla.solve_continuous_lyapunov(a, q), sl.solve_continuous_lyapunov(a, q)
                ) < 1e-12
    ac = a + 1j * RNG.normal(size=(4, 4))
    assert _rel(sla.solve_lyapunov(ac, q), sl.solve_continuous_lyapunov(ac, q)) < 1e-12


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("method", [None, "direct", "bilinear"])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_discrete_lyapunov(method, dtype):
    a = 0.3 * RNG.normal(size=(4, 4))
    if dtype == np.complex128:
        a = a + 0.3j * RNG.normal(size=(4, 4))
    q = RNG.normal(size=(4, 4))
    want = sl.solve_discrete_lyapunov(a, q, method)
    assert _rel(sla.solve_discrete_lyapunov(a, q, method), want) < 1e-12
    assert _rel(sciax.jit(lambda a, q: sla.solve_discrete_lyapunov(a, q, method))(a, q),
                want) < 1e-12


@pytest.mark.slow  # long: runs in CI's second step
def test_discrete_lyapunov_grads_and_vmap():
    a = 0.3 * RNG.normal(size=(2, 3, 3))
    q = RNG.normal(size=(2, 3, 3))
    want = np.stack([sl.solve_discrete_lyapunov(a[i], q[i]) for i in range(2)])
    assert _rel(sciax.vmap(sla.solve_discrete_lyapunov)(a, q), want) < 1e-12
    check_grads(sla.solve_discrete_lyapunov, (a[0], q[0]), order=1, modes=("fwd", "rev"))


def _riccati_problem(n=4, m=2, complex_=False, seed=0):
    # its own generator: the problem must not depend on which tests ran
    # before in the same worker (a draw with a nearly unstable closed loop has
    # derivatives ~1e4 that central differences resolve only to ~1e-4)
    rng = np.random.default_rng(seed)
    a = 0.4 * rng.normal(size=(n, n))
    b = rng.normal(size=(n, m))
    if complex_:
        a = a + 0.3j * rng.normal(size=(n, n))
        b = b + 1j * rng.normal(size=(n, m))
    q = rng.normal(size=(n, n))
    q = q @ q.T + np.eye(n)
    r = np.eye(m) + 0.1 * np.ones((m, m))
    e = np.eye(n) + 0.05 * rng.normal(size=(n, n))
    s = 0.1 * rng.normal(size=(n, m))
    return a, b, q, r, e, s


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("which", ["continuous", "discrete"])
@pytest.mark.parametrize("extra", [(), ("s",), ("e",), ("e", "s")])
def test_riccati_matches_scipy(which, extra):
    a, b, q, r, e, s = _riccati_problem()
    kw = {k: v for k, v in (("e", e), ("s", s)) if k in extra}
    ours = sla.solve_continuous_are if which == "continuous" else sla.solve_discrete_are
    theirs = sl.solve_continuous_are if which == "continuous" else sl.solve_discrete_are
    # scipy 1.17's balancing returns a wrong X when e is given; compare unbalanced
    want = theirs(a, b, q, r, balanced=False, **kw)
    assert _rel(ours(a, b, q, r, **kw), want) < 1e-10
    assert _rel(sciax.jit(lambda *xs: ours(*xs, **kw))(a, b, q, r), want) < 1e-10


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("which", ["continuous", "discrete"])
def test_riccati_complex_and_batched(which):
    ours = sla.solve_continuous_are if which == "continuous" else sla.solve_discrete_are
    theirs = sl.solve_continuous_are if which == "continuous" else sl.solve_discrete_are
    a, b, q, r, _, _ = _riccati_problem(3, 1, complex_=True)
    assert _rel(ours(a, b, q, r), theirs(a, b, q, r)) < 1e-10
    probs = [_riccati_problem(3, 1, seed=i) for i in range(2)]
    stacked = [np.stack(xs) for xs in zip(*probs)][:4]
    want = np.stack([theirs(*p[:4]) for p in probs])
    assert _rel(ours(*stacked), want) < 1e-10
    assert _rel(sciax.vmap(ours)(*stacked), want) < 1e-10


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("which", ["continuous", "discrete"])
def test_riccati_grads(which):
    ours = sla.solve_continuous_are if which == "continuous" else sla.solve_discrete_are
    a, b, q, r, _, _ = _riccati_problem(3, 1)
    check_grads(lambda a, q: ours(a, b, q, r), (a, q), order=1, modes=("fwd", "rev"))


def test_bad_input():
    with pytest.raises(ValueError, match="solve_sylvester.*square"):
        sla.solve_sylvester(np.ones((2, 3)), np.eye(2), np.ones((2, 2)))
    with pytest.raises(ValueError, match="solve_sylvester: q must have shape"):
        sla.solve_sylvester(np.eye(2), np.eye(3), np.ones((2, 2)))
    with pytest.raises(ValueError, match="same shape"):
        sla.solve_continuous_lyapunov(np.eye(2), np.eye(3))
    with pytest.raises(ValueError, match="unknown solver 'fast'"):
        sla.solve_discrete_lyapunov(np.eye(2), np.eye(2), method="fast")
    with pytest.raises(ValueError, match="solve_continuous_are: incompatible shapes"):
        sla.solve_continuous_are(np.eye(2), np.ones((3, 1)), np.eye(2), np.eye(1))
    with pytest.raises(ValueError, match="solve_discrete_are: s must be"):
        sla.solve_discrete_are(np.eye(2), np.ones((2, 1)), np.eye(2), np.eye(1),
                               s=np.ones((2, 2)))


def test_singular_sylvester_gives_nonfinite_not_an_error():
    # a and -b share the eigenvalue 1
    x = sla.solve_sylvester(np.eye(2), -np.eye(2), np.ones((2, 2)))
    assert not np.isfinite(np.asarray(x)).all()
