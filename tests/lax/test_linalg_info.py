"""LAPACK's ``info`` from the lax.linalg factorisations (``return_info=True``)
against the same LAPACK routines called through ``scipy.linalg.lapack``:
non-positive-definite and singular inputs report the same index, a batch
reports one ``info`` per matrix, and the flag survives jit, vmap and jvp.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg.lapack as sll

import sciax
from sciax.lax import linalg


def _not_pd(k: int, n: int = 4) -> np.ndarray:
    """Symmetric, with a leading minor of order ``k`` that is indefinite."""
    a = np.eye(n) * 4.0
    a[k - 1, k - 1] = -1.0
    return a


def test_cholesky_info_matches_potrf(run):
    a = np.stack([_not_pd(3), 4.0 * np.eye(4), _not_pd(1)])
    factor, info = run(lambda x: linalg.cholesky(x, return_info=True), a)
    want = [sll.dpotrf(m, lower=True)[1] for m in a]
    np.testing.assert_array_equal(np.asarray(info), want)
    assert want == [3, 0, 1]
    factor = np.asarray(factor)
    assert np.isnan(factor[0]).all() and np.isnan(factor[2]).all()
    np.testing.assert_allclose(factor[1], 2.0 * np.eye(4))


def test_lu_info_matches_getrf(run):
    singular = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    a = np.stack([singular, np.eye(3), np.zeros((3, 3))])
    *_, info = run(lambda x: linalg.lu(x, return_info=True), a)
    want = [sll.dgetrf(m)[2] for m in a]
    np.testing.assert_array_equal(np.asarray(info), want)
    assert want[1] == 0 and want[0] > 0 and want[2] == 1


def test_tridiagonal_info_matches_gtsv(run):
    # A = [[0, 1, 0], [0, 0, 1], [0, 0, 0]]: singular, gtsv stops at pivot 1
    dl, d, du = np.zeros(3), np.zeros(3), np.array([1.0, 1.0, 0.0])
    b = np.ones((3, 1))
    x, info = run(lambda *a: linalg.tridiagonal_solve(*a, return_info=True), dl, d, du, b)
    want = sll.dgtsv(dl[1:], d, du[:-1], b)[4]
    assert int(info) == want > 0
    assert np.isnan(np.asarray(x)).all()


def test_info_is_batched_by_vmap_and_ignored_by_jvp():
    a = np.stack([_not_pd(2), 4.0 * np.eye(4)])
    _, info = sciax.vmap(lambda m: linalg.cholesky(m, return_info=True))(a)
    np.testing.assert_array_equal(np.asarray(info), [2, 0])
    (_, info), (dfactor, _) = sciax.jvp(
        lambda m: linalg.cholesky(m, return_info=True), (4.0 * np.eye(2),),
        (np.eye(2),))
    assert int(info) == 0
    # L = 2 I, dA = I: dL = L phi(L^-1 dA L^-T) = 2 * (I / 4) / 2
    np.testing.assert_allclose(np.asarray(dfactor), 0.25 * np.eye(2))


def test_default_results_unchanged():
    out = linalg.lu(np.eye(2))
    assert isinstance(out, tuple) and len(out) == 3
    assert linalg.cholesky(np.eye(2)).shape == (2, 2)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_cholesky_info_dtypes(dtype):
    _, info = linalg.cholesky(_not_pd(2).astype(dtype), return_info=True)
    assert info.dtype == np.int32 and int(info) == 2


# --- eigh, svd, eig, schur: info 0, LAPACK's negative info, -1 for NaN input ------

def _decomps():
    return {
        "eigh": lambda x: linalg.eigh(x, return_info=True)[-1],
        "svd": lambda x: linalg.svd(x, compute_uv=False, return_info=True)[-1],
        "eig": lambda x: linalg.eig(x, return_info=True)[-1],
        "schur": lambda x: linalg.schur(x, return_info=True)[-1],
    }


@pytest.mark.parametrize("name", ["eigh", "svd", "eig", "schur"])
def test_decomposition_info_nan_input_per_batch_member(name):
    good = np.array([[2.0, 1.0], [1.0, 3.0]])
    bad = np.array([[1.0, np.nan], [np.nan, 1.0]])
    info = sciax.jit(_decomps()[name])(np.stack([good, bad, good]))
    np.testing.assert_array_equal(np.asarray(info), [0, -1, 0])


def test_eig_info_matches_geev_on_inf_input():
    # geev's balancing rejects an infinite entry: the same negative info as
    # scipy.linalg.lapack.dgeev reports, and NaN results
    a = np.array([[1.0, np.inf], [np.inf, 2.0]])
    w, vr, info = linalg.eig(a, return_info=True)
    assert int(info) == sll.dgeev(a)[-1] < 0
    assert np.isnan(np.asarray(w)).all() and np.isnan(np.asarray(vr)).all()


def test_decomposition_info_under_jvp():
    x = np.array([[2.0, 1.0], [1.0, 3.0]])
    (v, w, info), (dv, dw, _) = sciax.jvp(
        lambda a: linalg.eigh(a, return_info=True), (x,), (np.eye(2),))
    assert int(info) == 0
    np.testing.assert_allclose(np.asarray(dw), [1.0, 1.0])  # d eig(A + tI)/dt
