"""sciax.linalg least squares, pseudo-inverses, norms and subspaces vs
scipy.linalg, with batches, jit, derivatives and bad input; the package's
public names."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
from sciax import linalg
from tests.linalg.test_solve import check_grads, close, rand, spd


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_lstsq_pinv_match_scipy(dtype):
    a = rand((6, 3), dtype)
    for b in (rand(6, dtype, 1), rand((6, 2), dtype, 2)):
        x, res, rank, s = linalg.lstsq(a, b)
        x2, res2, rank2, s2 = sl.lstsq(a, b)
        close(x, x2, dtype)
        close(res, res2, dtype)
        assert int(rank) == rank2
        close(s, s2, dtype)
    close(linalg.pinv(a), sl.pinv(a), dtype)
    h = spd(4, dtype)
    close(linalg.pinvh(h), sl.pinvh(h), dtype)


def test_rank_deficient_inputs():
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    b = np.array([1.0, 2.0, 3.0])
    x, _, rank, _ = linalg.lstsq(a, b)
    close(x, sl.lstsq(a, b)[0], np.float64)
    assert int(rank) == 1
    pinv, rank = linalg.pinv(a, return_rank=True)
    close(pinv, sl.pinv(a), np.float64)
    assert int(rank) == 1
    close(np.abs(linalg.null_space(a)), np.abs(sl.null_space(a)), np.float64)
    close(np.abs(linalg.orth(a)), np.abs(sl.orth(a)), np.float64)
    assert int(linalg.matrix_rank(a)) == 1


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, np.inf])
def test_matrix_norms(ord):
    a = rand((2, 3, 4))
    close(linalg.norm(a, ord, axis=(1, 2)), np.linalg.norm(a, ord, axis=(1, 2)),
          np.float64)
    close(linalg.norm(a[0], ord), sl.norm(a[0], ord), np.float64)


def test_subspace_angles_and_vector_norms():
    a, b = rand((6, 3)), rand((6, 2), seed=1)
    close(linalg.subspace_angles(a, b), sl.subspace_angles(a, b), np.float64)
    close(linalg.subspace_angles(b, a), sl.subspace_angles(b, a), np.float64)
    near = a[:, :2] + 1e-4 * b  # small angles: the arcsin branch
    close(linalg.subspace_angles(a, near), sl.subspace_angles(a, near), np.float64)
    v = rand(5)
    for ord in (None, 1, 3, np.inf, -np.inf, 0):
        close(linalg.norm(v, ord), sl.norm(v, ord), np.float64)
    close(linalg.norm(a, axis=0, keepdims=True), sl.norm(a, axis=0, keepdims=True),
          np.float64)


def test_batches_and_jit():
    a, b = rand((3, 5, 2)), rand((3, 5, 1), seed=1)
    x, res, rank, s = sciax.jit(linalg.lstsq)(a, b)
    p = sciax.vmap(linalg.pinv)(a)
    for i in range(3):
        x2, res2, _, s2 = sl.lstsq(a[i], b[i])
        close(x[i], x2, np.float64)
        close(res[i], res2, np.float64)
        close(p[i], sl.pinv(a[i]), np.float64)
    with pytest.raises(TypeError, match="rank"):
        sciax.jit(linalg.null_space)(a[0])


@pytest.mark.slow  # long: runs in CI's second step
def test_gradients():
    a, b = rand((5, 3)), rand((5,), seed=1)
    check_grads(lambda a, b: linalg.lstsq(a, b)[0], (a, b), order=1)
    check_grads(linalg.pinv, (a,), order=1)
    check_grads(lambda a: linalg.norm(a), (a,), order=2)
    check_grads(lambda a: linalg.norm(a, "nuc"), (a,), order=1)
    check_grads(lambda a: linalg.norm(a, 2), (a,), order=1)
    check_grads(lambda h: linalg.pinvh(h), (spd(3),), order=1)
    check_grads(linalg.subspace_angles, (rand((5, 2)), rand((5, 2), seed=3)), order=1)


def test_bad_input():
    with pytest.raises(ValueError, match="same number of rows"):
        linalg.lstsq(np.ones((3, 2)), np.ones(4))
    with pytest.raises(ValueError, match="driver"):
        linalg.lstsq(np.ones((3, 2)), np.ones(3), lapack_driver="gelsx")
    with pytest.raises(ValueError, match="positive"):
        linalg.pinv(np.eye(2), atol=-1.0)
    with pytest.raises(ValueError, match="square"):
        linalg.pinvh(np.ones((2, 3)))
    with pytest.raises(ValueError, match="same number of rows"):
        linalg.subspace_angles(np.ones((3, 2)), np.ones((4, 2)))
    with pytest.raises(ValueError, match="invalid norm order"):
        linalg.norm(np.eye(2), "bogus")


def test_public_names_are_scipy_callables():
    mine = {"solve", "solve_triangular", "solve_banded", "solveh_banded", "inv",
            "det", "norm", "lstsq", "pinv", "pinvh", "eig", "eigvals", "eigh",
            "eigvalsh", "eig_banded", "eigvals_banded", "eigh_tridiagonal",
            "eigvalsh_tridiagonal", "lu", "lu_factor", "lu_solve", "svd", "svdvals",
            "orth", "null_space", "cholesky", "cho_factor", "cho_solve",
            "cholesky_banded", "cho_solve_banded", "qr", "rq", "schur", "rsf2csf",
            "hessenberg", "subspace_angles", "LinAlgError"}
    for name in mine:
        assert callable(getattr(linalg, name)) and hasattr(sl, name), name
    assert callable(linalg.slogdet) and callable(linalg.matrix_rank)
