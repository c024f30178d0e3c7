"""sciax.linalg.qr(pivoting=True) and lax.linalg.geqp3 vs scipy.linalg: every
mode, dtypes, batches, jit, vmap, derivatives with the permutation fixed, bad
input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
from sciax import lax, linalg
from tests.linalg.test_solve import check_grads, close, rand

MODES = ("full", "r", "economic", "raw")


def _flat(x):
    """Results as a flat list of arrays (``raw`` nests ``(h, tau)``)."""
    out = []
    for y in x:
        out.extend(_flat(y) if isinstance(y, tuple) else [y])
    return out


# each dtype once, each shape class once: eager calls compile one program per
# primitive, shape and dtype
@pytest.mark.parametrize("dtype, shape", [(np.float32, (5, 3)), (np.float64, (4, 4)),
                                          (np.complex128, (3, 5))])
def test_matches_scipy(dtype, shape):
    a = rand(shape, dtype)
    # one compiled program for all modes (eager calls would compile each op)
    every = sciax.jit(lambda a: [linalg.qr(a, mode=m, pivoting=True) for m in MODES])
    for mode, got in zip(MODES, every(a)):
        want = sl.qr(a, mode=mode, pivoting=True)
        assert len(got) == len(want)
        for x, y in zip(_flat(got), _flat(want)):
            assert x.shape == y.shape and x.dtype == y.dtype, (mode, x, y)
            close(x, y, dtype)
    q, r, p = every(a)[0]
    d = np.abs(np.diagonal(np.asarray(r)))
    assert np.all(d[1:] <= d[:-1] * (1 + 1e-6))


def test_geqp3_matches_lapack_and_batches():
    a = rand((2, 5, 3), np.complex128, seed=3)
    zeros = np.zeros((2, 3), np.int32)
    h, jpvt, tau = lax.linalg.geqp3(a, zeros)
    for i in range(2):
        h2, jpvt2, tau2, _, _ = sl.lapack.zgeqp3(a[i])
        close(h[i], h2, np.complex128)
        close(tau[i], tau2, np.complex128)
        np.testing.assert_array_equal(np.asarray(jpvt[i]), jpvt2)
    # a fixed column (nonzero jpvt) goes first, as in LAPACK
    fixed = np.array([0, 0, 1], np.int32)
    assert int(lax.linalg.geqp3(a[0], fixed)[1][0]) == 3
    # an empty matrix leaves the free columns in place
    np.testing.assert_array_equal(np.asarray(lax.linalg.geqp3(
        np.zeros((0, 3)), np.zeros(3, np.int32))[1]), [1, 2, 3])


def test_jit_vmap_and_empty():
    a = rand((3, 4, 3), np.float64, seed=1)
    f = sciax.jit(lambda x: (linalg.qr(x, pivoting=True, mode="economic"),
                             sciax.vmap(lambda y: linalg.qr(y, pivoting=True,
                                                            mode="economic"))(x)))
    for q, r, p in f(a):
        for i in range(3):
            q2, r2, p2 = sl.qr(a[i], pivoting=True, mode="economic")
            np.testing.assert_array_equal(np.asarray(p[i]), p2)
            close(q[i], q2, np.float64)
            close(r[i], r2, np.float64)
    q, r, p = linalg.qr(np.zeros((0, 2)), pivoting=True)
    assert q.shape == (0, 0) and r.shape == (0, 2)
    np.testing.assert_array_equal(np.asarray(p), [0, 1])


def test_derivatives():
    # distinct column norms keep the permutation away from its switching points
    a = rand((4, 3), seed=2) * np.array([1.0, 4.0, 2.0])
    # (the wide case runs the same code; lax.linalg.qr's tests cover its JVP)
    check_grads(lambda a: (linalg.qr(a, pivoting=True, mode="economic")[:2],
                           linalg.qr(a, pivoting=True, mode="r")[0]), (a,), order=1)


def test_bad_input():
    with pytest.raises(TypeError, match="int32"):
        lax.linalg.geqp3(np.eye(2), np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="jpvt must have shape"):
        lax.linalg.geqp3(np.eye(2), np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="mode"):
        linalg.qr(np.eye(2), mode="reduced", pivoting=True)
    with pytest.raises(NotImplementedError, match="geqp3"):
        sciax.grad(lambda x: lax.linalg.geqp3(x, np.zeros(2, np.int32))[0].sum())(
            np.eye(2))
