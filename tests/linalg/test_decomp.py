"""sciax.linalg decompositions and eigensolvers vs scipy.linalg: dtypes,
batches, jit, derivatives of the differentiable ones, bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
from sciax import linalg
from tests.linalg.test_solve import TOL, check_grads, close, rand, spd

DTYPES = [np.float32, np.float64, np.complex128]


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
def test_lu_qr_rq_svd_match_scipy(dtype, shape):
    a = rand(shape, dtype)
    for kw in ({}, {"p_indices": True}, {"permute_l": True}):
        for x, y in zip(linalg.lu(a, **kw), sl.lu(a, **kw)):
            close(x, y, dtype)
    for mode in ("full", "economic", "r"):
        for x, y in zip(linalg.qr(a, mode=mode), sl.qr(a, mode=mode)):
            close(x, y, dtype)
        got, want = linalg.rq(a, mode=mode), sl.rq(a, mode=mode)
        for x, y in zip(*((got, want) if mode != "r" else ((got,), (want,)))):
            close(x, y, dtype)
    u, s, vh = linalg.svd(a)
    close(s, sl.svdvals(a), dtype)
    close((u[..., :, :s.shape[-1]] * s) @ vh[..., :s.shape[-1], :], a, dtype)
    close(linalg.svdvals(a), sl.svdvals(a), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_hermitian_eigenproblems(dtype):
    a, b = spd(4, dtype, seed=1) - 3 * np.eye(4), spd(4, dtype, seed=2)
    for lower in (True, False):
        w, v = linalg.eigh(a, lower=lower)
        close(w, sl.eigh(a, lower=lower)[0], dtype)
        close(v @ np.diag(np.asarray(w)).astype(dtype) @ np.conj(np.asarray(v).T), a,
              dtype)
        for typ in (1, 2, 3):
            w, v = linalg.eigh(a, b, type=typ, lower=lower)
            w2, v2 = sl.eigh(a, b, type=typ, lower=lower)
            close(w / np.abs(w2).max(), w2 / np.abs(w2).max(), dtype)
            if dtype == np.float64:  # float32/complex: vectors of close pairs rotate
                close(np.abs(v), np.abs(v2), dtype)
    close(linalg.eigvalsh(a, subset_by_index=(1, 2)),
          sl.eigvalsh(a, subset_by_index=(1, 2)), dtype)
    c = linalg.cholesky(spd(4, dtype))
    close(c, sl.cholesky(spd(4, dtype)), dtype)


def test_general_eigenproblems_schur_hessenberg():
    a = rand((5, 5))
    w, vl, vr = linalg.eig(a, left=True)
    w2, vl2, vr2 = sl.eig(a, left=True)
    close(w, w2, np.float64)
    close(np.abs(vl), np.abs(vl2), np.float64)
    close(np.abs(vr), np.abs(vr2), np.float64)
    close(linalg.eigvals(a, homogeneous_eigvals=True),
          sl.eigvals(a, homogeneous_eigvals=True), np.float64)
    for output in ("real", "complex"):
        t, z = linalg.schur(a, output)
        t2, z2 = sl.schur(a, output)
        close(t, t2, np.float64)
        close(np.asarray(z) @ np.asarray(t) @ np.conj(np.asarray(z).T), a, np.float64)
    t, z = sl.schur(a)
    for x, y in zip(sciax.jit(linalg.rsf2csf)(t, z), sl.rsf2csf(t, z)):
        close(x, y, np.float64)
    for x, y in zip(linalg.hessenberg(a, calc_q=True), sl.hessenberg(a, calc_q=True)):
        close(x, y, np.float64)


def test_banded_and_tridiagonal_eigensolvers():
    rng = np.random.default_rng(3)
    d, e = rng.standard_normal(5), rng.standard_normal(4)
    for x, y in zip(linalg.eigh_tridiagonal(d, e), sl.eigh_tridiagonal(d, e)):
        close(np.abs(x), np.abs(y), np.float64)
    close(linalg.eigvalsh_tridiagonal(d, e, select="i", select_range=(1, 3)),
          sl.eigvalsh_tridiagonal(d, e, select="i", select_range=(1, 3)), np.float64)
    ab = rng.standard_normal((3, 6))
    for lower in (False, True):
        close(linalg.eigvals_banded(ab, lower=lower),
              sl.eigvals_banded(ab, lower=lower), np.float64)


def test_batches_equal_a_loop_under_jit():
    a = rand((2, 3, 4, 4))
    h = spd(4, batch=(2, 3))
    got = sciax.jit(lambda a, h: (linalg.lu(a), linalg.qr(a), linalg.svd(a),
                                  linalg.eigh(h), linalg.cholesky(h)))(a, h)
    for i in np.ndindex(2, 3):
        want = (sl.lu(a[i]), sl.qr(a[i]), sl.svd(a[i]), sl.eigh(h[i]),
                sl.cholesky(h[i]))
        for g, w in zip(got, want):
            g = g if isinstance(g, tuple) else (g,)
            w = w if isinstance(w, tuple) else (w,)
            for x, y in zip(g, w):
                close(np.abs(x[i]), np.abs(y), np.float64)


def test_failures_give_nans():
    assert np.all(np.isnan(np.asarray(linalg.cholesky(-np.eye(3)))))
    w = linalg.eigvalsh(np.full((3, 3), np.nan))
    assert np.all(np.isnan(np.asarray(w)))
    assert np.all(np.isnan(np.asarray(linalg.svdvals(np.full((2, 3), np.nan)))))


@pytest.mark.slow  # long: runs in CI's second step
def test_decomposition_gradients():
    h = spd(3)
    check_grads(lambda h: linalg.cholesky(h, lower=True), (h,), order=2)
    check_grads(lambda h: linalg.eigvalsh(h), (h + np.diag([0.0, 1.0, 3.0]),), order=1)
    check_grads(linalg.svdvals, (rand((4, 3)) + np.eye(4, 3) * 3,), order=1)
    check_grads(lambda a: linalg.qr(a, mode="economic"), (rand((4, 3)),), order=1)
    check_grads(lambda a, b: linalg.eigh(a, b, eigvals_only=True),
                (h + np.diag([0.0, 1.0, 3.0]), spd(3, seed=5)), order=1)


def test_bad_input():
    with pytest.raises(ValueError, match="square"):
        linalg.cholesky(np.ones((2, 3)))
    with pytest.raises(ValueError, match="mode"):
        linalg.qr(np.eye(2), mode="reduced")
    with pytest.raises(ValueError, match="indices"):
        linalg.eigh(np.eye(3), subset_by_index=(1, 5))
    with pytest.raises(NotImplementedError, match="subset_by_value"):
        linalg.eigh(np.eye(3), subset_by_value=(0, 1))
    with pytest.raises(ValueError, match="type"):
        linalg.eigh(np.eye(3), np.eye(3), type=4)
    with pytest.raises(ValueError, match="b"):
        linalg.eig(np.eye(2), np.eye(3))
    with pytest.raises(ValueError, match="output"):
        linalg.schur(np.eye(2), output="x")
    with pytest.raises(ValueError, match="one element less"):
        linalg.eigh_tridiagonal(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="lapack_driver"):
        linalg.svd(np.eye(2), lapack_driver="gesvj")
    with pytest.raises(ValueError, match="must be square"):
        linalg.rsf2csf(np.eye(2), np.ones((2, 3)))
