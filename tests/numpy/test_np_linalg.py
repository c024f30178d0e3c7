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


# -- det and slogdet: derivatives by trace(a^-1 da) on the primal's LU factors ---------

def _fd_grad(f, a, eps=1e-6):
    g = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        e = np.zeros_like(a)
        e[idx] = eps
        g[idx] = (f(a + e) - f(a - e)) / (2 * eps)
    return g


@pytest.mark.slow  # compiles hessians: runs in CI's second step
@pytest.mark.parametrize("name", ["det", "slogdet"])
def test_det_slogdet_gradient_and_hessian_match_finite_differences(name):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((3, 3))
    if name == "det":
        f, ref = L.det, np.linalg.det
    else:
        f, ref = (lambda x: L.slogdet(x)[1]), (lambda x: np.linalg.slogdet(x)[1])
    g = np.asarray(sciax.grad(f)(a))
    # central differences of a smooth function: truncation ~eps^2 |f'''|,
    # rounding ~1e-16 |f| / eps; both far below 1e-7 here
    np.testing.assert_allclose(g, _fd_grad(ref, a), rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(np.asarray(sciax.jit(sciax.grad(f))(a)), g, rtol=1e-13)
    h = np.asarray(sciax.hessian(f)(a))
    gf = sciax.jit(sciax.grad(f))
    fdh = np.stack([_fd_grad(lambda x: float(np.asarray(gf(x))[idx]), a)
                    for idx in np.ndindex(a.shape)]).reshape(h.shape)
    np.testing.assert_allclose(h, fdh, rtol=1e-6, atol=1e-7)
    batch = rng.standard_normal((3, 3, 3))
    vg = np.asarray(sciax.vmap(sciax.grad(f))(batch))
    for k in range(3):
        np.testing.assert_allclose(vg[k], np.asarray(gf(batch[k])), rtol=1e-13)


def test_slogdet_complex_jvp_and_empty_matrices():
    rng = np.random.default_rng(8)
    c = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    dc = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    (_, _), (ds, dl) = sciax.jvp(L.slogdet, (c,), (dc,))
    eps = 1e-6
    sp, lp = np.linalg.slogdet(c + eps * dc)
    sm, lm = np.linalg.slogdet(c - eps * dc)
    np.testing.assert_allclose(complex(ds), (sp - sm) / (2 * eps), rtol=1e-7)
    np.testing.assert_allclose(float(dl), (lp - lm) / (2 * eps), rtol=1e-7)
    _, dd = sciax.jvp(L.det, (c,), (dc,))
    np.testing.assert_allclose(
        complex(dd), (np.linalg.det(c + eps * dc) - np.linalg.det(c - eps * dc)) / (2 * eps),
        rtol=1e-7)
    for dtype in (np.float64, np.complex64):
        e = np.zeros((2, 0, 0), dtype)
        sign, logabs = L.slogdet(e)
        rs, rl = np.linalg.slogdet(e)
        assert sign.dtype == rs.dtype and logabs.dtype == rl.dtype
        np.testing.assert_array_equal(np.asarray(sign), rs)
        np.testing.assert_array_equal(np.asarray(logabs), rl)
