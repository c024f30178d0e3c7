"""sciax.numpy.linalg against numpy.linalg, eagerly and under jit; grads of the
LU-based functions; bad input."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax.test_util import check_grads

L = snp.linalg
RNG = np.random.default_rng(0)
A = RNG.normal(size=(2, 4, 4))
B = RNG.normal(size=(2, 4, 3))
V = RNG.normal(size=4)
SPD = A @ np.swapaxes(A, -1, -2) + np.eye(4)


def _close(got, want, tol=1e-9):
    got = np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, atol=tol, rtol=tol)


@pytest.mark.slow  # long: runs in CI's second step
def test_decomposition_based():
    _close(L.solve(A, B), np.linalg.solve(A, B))
    _close(L.solve(A[0], V), np.linalg.solve(A[0], V))
    _close(L.inv(A), np.linalg.inv(A))
    _close(L.det(A), np.linalg.det(A))
    sign, logdet = L.slogdet(A)
    _close(sign, np.linalg.slogdet(A)[0])
    _close(logdet, np.linalg.slogdet(A)[1])
    _close(L.cholesky(SPD), np.linalg.cholesky(SPD))
    _close(L.cholesky(SPD, upper=True), np.linalg.cholesky(SPD, upper=True))
    q, r = L.qr(B)
    _close(q @ r, B)
    _close(L.svd(B, compute_uv=False), np.linalg.svd(B, compute_uv=False))
    u, s, vh = L.svd(B, full_matrices=False)
    _close((u * s[..., None, :]) @ vh, B)
    _close(L.eigvalsh(SPD), np.linalg.eigvalsh(SPD))
    _close(np.sort_complex(np.asarray(L.eigvals(A[0]))),
           np.sort_complex(np.linalg.eigvals(A[0])))
    _close(L.pinv(B), np.linalg.pinv(B))
    _close(L.matrix_rank(np.diag([1.0, 2.0, 0.0])), 2)
    _close(L.cond(A), np.linalg.cond(A), 1e-7)
    for got, want in zip(L.lstsq(B[0], V), np.linalg.lstsq(B[0], V)):
        _close(got, want)
    t = RNG.normal(size=(2, 3, 6))
    _close(L.tensorinv(t), np.linalg.tensorinv(t))
    _close(L.tensorsolve(t, B[0, :2]), np.linalg.tensorsolve(t, B[0, :2]))


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
def test_matrix_norms(ord):
    _close(L.norm(A, ord, axis=(1, 2)), np.linalg.norm(A, ord, axis=(1, 2)))
    _close(L.norm(A, ord, axis=(2, 0), keepdims=True),
           np.linalg.norm(A, ord, axis=(2, 0), keepdims=True))


@pytest.mark.slow  # long: runs in CI's second step
def test_vector_norms_and_products():
    for ord in [None, 0, 1, 2, 3, np.inf, -np.inf, -1]:
        _close(L.norm(V, ord), np.linalg.norm(V, ord))
    _close(L.norm(A), np.linalg.norm(A))
    _close(L.vector_norm(A, ord=3, axis=(0, 2)), np.linalg.vector_norm(A, ord=3,
                                                                       axis=(0, 2)))
    _close(L.matrix_norm(A, ord="nuc"), np.linalg.matrix_norm(A, ord="nuc"))
    for n in (0, 1, 5, -2):
        _close(L.matrix_power(A, n), np.linalg.matrix_power(A, n), 1e-7)
    chain = [RNG.normal(size=s) for s in [(3,), (3, 5), (5, 2), (2, 6)]]
    _close(L.multi_dot(chain), np.linalg.multi_dot(chain))
    x, y = RNG.normal(size=(4, 3)), RNG.normal(size=3)
    _close(L.cross(x, y), np.linalg.cross(x, y))
    _close(L.vecdot(x, y), np.linalg.vecdot(x, y))
    _close(L.outer(V, y), np.linalg.outer(V, y))
    _close(L.diagonal(A, offset=1), np.linalg.diagonal(A, offset=1))
    _close(L.trace(A), np.linalg.trace(A))


@pytest.mark.slow  # long: runs in CI's second step
def test_jit_and_grads():
    f = sciax.jit(lambda a, b: (L.solve(a, b), L.det(a), L.norm(a, 2, axis=(1, 2))))
    s, d, n = f(A, B)
    _close(s, np.linalg.solve(A, B))
    _close(d, np.linalg.det(A))
    _close(n, np.linalg.norm(A, 2, axis=(1, 2)))
    check_grads(L.solve, (A[0], B[0]), order=1)
    check_grads(L.det, (A[0],), order=1)
    check_grads(lambda a: L.norm(a, axis=1), (A[0],), order=2)
    check_grads(lambda a: L.multi_dot([a, a, a]), (A[0],), order=1)


def test_bad_input():
    with pytest.raises(L.LinAlgError, match="square"):
        L.inv(B)
    with pytest.raises(L.LinAlgError, match="two-dimensional"):
        L.det(V)
    with pytest.raises(ValueError, match="invalid norm order"):
        L.norm(A[0], "bad")
    with pytest.raises(TypeError, match="integer"):
        L.matrix_power(A, 1.5)
    with pytest.raises(ValueError, match="3 elements"):
        L.cross(A, A)


def test_norm_gradient_at_zero_is_zero_not_nan():
    # the 2-norm's sqrt has a custom JVP so the origin gets the subgradient 0
    g = sciax.grad(snp.linalg.norm)(snp.zeros(3))
    np.testing.assert_array_equal(np.asarray(g), np.zeros(3))
    g = sciax.grad(snp.linalg.norm)(snp.array([3.0, 4.0]))
    np.testing.assert_allclose(np.asarray(g), [0.6, 0.8], rtol=1e-15)
    g = sciax.grad(lambda x: snp.linalg.norm(x, axis=0).sum())(snp.zeros((2, 2)))
    assert np.all(np.isfinite(np.asarray(g)))
