"""lax.linalg primitives (cholesky, triangular_solve, lu, qr, tridiagonal_solve)
against NumPy/SciPy, eagerly and under jit, batched, vmapped and differentiated.

Inputs are random and well conditioned (diagonally dominated), so float64
results agree with LAPACK-through-SciPy to ~1e-12 relative; float32 gets 1e-4
(a few ulps times a condition number of ~10).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
from sciax import lax
from sciax.lax import linalg
from sciax.test_util import check_batching, check_grads

DTYPES = [np.float32, np.float64, np.complex128]
TOL = {np.float32: 1e-4, np.float64: 1e-10, np.complex128: 1e-10}


def _rand(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _spd(rng, shape, dtype):
    """Hermitian positive-definite matrices, eigenvalues in about [n, 5n]."""
    m = _rand(rng, shape, dtype)
    n = shape[-1]
    return (m @ np.conj(np.swapaxes(m, -1, -2)) / n + n * np.eye(n)).astype(dtype)


def _well_conditioned(rng, shape, dtype):
    m = _rand(rng, shape, dtype)
    k = min(shape[-2:])
    idx = np.arange(k)
    m[..., idx, idx] += 3 * np.sqrt(max(shape[-2:]))
    return m


def _close(got, want, dtype):
    np.testing.assert_allclose(np.asarray(got), want, rtol=TOL[dtype], atol=TOL[dtype])


# --- cholesky -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_matches_numpy_batched(run, dtype):
    a = _spd(np.random.default_rng(0), (2, 3, 4, 4), dtype)
    got = run(linalg.cholesky, a)
    assert got.dtype == dtype and got.shape == a.shape
    want = np.stack([[np.linalg.cholesky(a[i, j]) for j in range(3)] for i in range(2)])
    _close(got, want, dtype)


def test_cholesky_reads_lower_triangle_without_symmetrize():
    a = _spd(np.random.default_rng(1), (3, 3), np.float64)
    junk = a + np.triu(np.full((3, 3), 7.0), 1)
    got = linalg.cholesky(junk, symmetrize_input=False)
    _close(got, np.linalg.cholesky(a), np.float64)
    junk_lower = a + np.tril(np.full((3, 3), 7.0), -1)
    upper = linalg.cholesky(junk_lower, symmetrize_input=False, upper=True)
    _close(upper, sl.cholesky(a, lower=False), np.float64)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_one_triangle_grads(dtype, upper):
    # without symmetrize_input the factor is a function of one triangle only
    # (and of the real part of the diagonal), so finite differences in any
    # direction of the full matrix test that the JVP ignores the rest
    rng = np.random.default_rng(13)
    junk = _spd(rng, (3, 3), dtype) + (np.tril if upper else np.triu)(
        _rand(rng, (3, 3), dtype), 1 if not upper else -1)
    if np.issubdtype(dtype, np.complexfloating):
        junk = junk + 0.3j * np.eye(3)
    check_grads(lambda x: linalg.cholesky(x, symmetrize_input=False, upper=upper),
                (junk,), order=1, modes=("fwd", "rev"))


def test_cholesky_not_positive_definite_gives_nan_per_batch_member(run):
    good = _spd(np.random.default_rng(2), (3, 3), np.float64)
    bad = np.diag([1.0, -1.0, 1.0])
    got = np.asarray(run(linalg.cholesky, np.stack([good, bad, good])))
    assert np.isnan(got[1]).all()
    _close(got[0], np.linalg.cholesky(good), np.float64)
    _close(got[2], np.linalg.cholesky(good), np.float64)


# --- triangular_solve ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("trans", [0, 1, 2])
def test_triangular_solve_left_matches_scipy(dtype, lower, trans):
    unit_diagonal = trans == 1  # one case each way keeps the compile count down
    rng = np.random.default_rng(3)
    a = _well_conditioned(rng, (2, 4, 4), dtype)
    b = _rand(rng, (2, 4, 3), dtype)
    got = linalg.triangular_solve(a, b, left_side=True, lower=lower,
                                  transpose_a=trans > 0, conjugate_a=trans == 2,
                                  unit_diagonal=unit_diagonal)
    want = np.stack([sl.solve_triangular(a[i], b[i], trans=trans, lower=lower,
                                         unit_diagonal=unit_diagonal)
                     for i in range(2)])
    _close(got, want, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("transpose_a,conjugate_a",
                         [(False, False), (True, False), (True, True), (False, True)])
def test_triangular_solve_right_side(run, dtype, transpose_a, conjugate_a):
    rng = np.random.default_rng(4)
    a = np.triu(_well_conditioned(rng, (4, 4), dtype))
    b = _rand(rng, (2, 4), dtype)

    def f(a, b):
        return linalg.triangular_solve(a, b, left_side=False, lower=False,
                                       transpose_a=transpose_a, conjugate_a=conjugate_a)

    x = np.asarray(run(f, a, b))
    op = a.T if transpose_a else a
    op = np.conj(op) if conjugate_a else op
    _close(x @ op, b, dtype)


# --- lu -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_lu_square_matches_scipy_lu_factor(run, dtype):
    a = _rand(np.random.default_rng(5), (3, 5, 5), dtype)
    lu_, piv, perm = run(linalg.lu, a)
    assert piv.dtype == perm.dtype == np.int32
    for i in range(3):
        lu_ref, piv_ref = sl.lu_factor(a[i])
        _close(lu_[i], lu_ref, dtype)
        np.testing.assert_array_equal(np.asarray(piv[i]), piv_ref)
        p, _, _ = sl.lu(a[i])  # a = p @ l @ u, so a[perm] = l @ u with p[perm, i] = 1
        np.testing.assert_array_equal(np.asarray(perm[i]), np.argmax(p, axis=0))


@pytest.mark.parametrize("shape", [(4, 2), (2, 4)])
def test_lu_rectangular_reconstructs(shape):
    a = _rand(np.random.default_rng(6), shape, np.float64)
    lu_, _, perm = map(np.asarray, linalg.lu(a))
    m, n = shape
    k = min(m, n)
    low = np.tril(lu_[:, :k], -1) + np.eye(m, k)
    _close(low @ np.triu(lu_[:k]), a[perm], np.float64)
    _, l_ref, u_ref = sl.lu(a)
    _close(low, l_ref, np.float64)
    _close(np.triu(lu_[:k]), u_ref, np.float64)


def test_lu_singular_matrix_is_factored_without_nan():
    lu_, _, perm = map(np.asarray, linalg.lu(np.ones((3, 3))))
    assert np.isfinite(lu_).all() and lu_[1, 1] == 0 and sorted(perm) == [0, 1, 2]


def test_lu_pivots_to_permutation_matches_swaps():
    rng = np.random.default_rng(7)
    m, k = 6, 4
    piv = np.stack([rng.integers(i, m, size=2) for i in range(k)], axis=1)
    piv = piv.astype(np.int32)  # (2, k): valid LAPACK swaps (piv[i] >= i)
    got = np.asarray(linalg.lu_pivots_to_permutation(piv, m))
    for b in range(2):
        perm = np.arange(m)
        for i, j in enumerate(piv[b]):
            perm[[i, j]] = perm[[j, i]]
        np.testing.assert_array_equal(got[b], perm)


# --- qr -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 4, 4), (5, 3), (3, 5)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_qr_matches_numpy(dtype, shape, full_matrices):
    a = _rand(np.random.default_rng(8), shape, dtype)
    q, r = linalg.qr(a, full_matrices=full_matrices)
    q_ref, r_ref = np.linalg.qr(a, mode="complete" if full_matrices else "reduced")
    assert q.shape == q_ref.shape and r.shape == r_ref.shape
    _close(q, q_ref, dtype)
    _close(r, r_ref, dtype)


def test_qr_under_jit_batched_reconstructs():
    a = _rand(np.random.default_rng(9), (3, 4, 3), np.complex128)
    q, r = map(np.asarray, sciax.jit(lambda x: linalg.qr(x, full_matrices=False))(a))
    _close(q @ r, a, np.complex128)
    _close(np.conj(np.swapaxes(q, -1, -2)) @ q, np.broadcast_to(np.eye(3), (3, 3, 3)),
           np.complex128)


# --- tridiagonal_solve --------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_tridiagonal_solve_matches_solve_banded(run, dtype):
    rng = np.random.default_rng(10)
    m = 6
    dl, d, du = (_rand(rng, (2, m), dtype) for _ in range(3))
    d = d + 4
    b = _rand(rng, (2, m, 3), dtype)
    got = run(linalg.tridiagonal_solve, dl, d, du, b)
    for i in range(2):
        ab = np.stack([np.r_[0, du[i, :-1]], d[i], np.r_[dl[i, 1:], 0]])
        _close(got[i], sl.solve_banded((1, 1), ab, b[i]), dtype)


def test_tridiagonal_solve_singular_gives_nan():
    z = np.zeros(3)
    got = np.asarray(linalg.tridiagonal_solve(z, z, z, np.ones((3, 1))))
    assert np.isnan(got).all()


# --- vmap ---------------------------------------------------------------------------

@pytest.mark.slow  # long: runs in CI's second step
def test_batching_rules_match_loops():
    rng = np.random.default_rng(11)
    spd = _spd(rng, (3, 2, 3, 3), np.float64)
    check_batching(linalg.cholesky, (spd,), in_axes=1, atol=1e-10)
    a = _well_conditioned(rng, (3, 3, 3), np.float64)
    b = _rand(rng, (3, 3, 2), np.float64)
    for left in (True, False):
        bb = b if left else np.swapaxes(b, -1, -2)

        def solve(a, b):
            return linalg.triangular_solve(a, b, left_side=left, lower=True)

        check_batching(solve, (a, bb), in_axes=(0, 0), atol=1e-10)
        # one matrix for every right-hand side: folded into a single solve
        check_batching(solve, (a[0], np.moveaxis(bb, 0, 2)), in_axes=(None, 2),
                       atol=1e-10)
        check_batching(solve, (a, bb[0]), in_axes=(0, None), atol=1e-10)
    check_batching(linalg.lu, (a,), in_axes=2, atol=1e-10)
    check_batching(lambda x: linalg.qr(x, full_matrices=False), (b,), atol=1e-10)
    piv = np.array([[2, 2], [1, 2], [0, 1]], np.int32)
    check_batching(lambda p: linalg.lu_pivots_to_permutation(p, 3), (piv,), atol=0)
    dl, d, du = (_rand(rng, (3, 4), np.float64) for _ in range(3))
    rhs = _rand(rng, (4, 2), np.float64)
    check_batching(linalg.tridiagonal_solve, (dl, d + 4, du, rhs),
                   in_axes=(0, 0, 0, None), atol=1e-10)


# --- derivatives --------------------------------------------------------------------

def _sym_pd(a):
    n = a.shape[-1]
    h = lax.mul(lax.add(a, linalg_adjoint(a)), 0.5)
    return lax.add(h, np.eye(n, dtype=a.dtype) * n)


def linalg_adjoint(a):
    at = lax.transpose(a, (1, 0))
    return lax.conj(at) if np.issubdtype(a.dtype, np.complexfloating) else at


def test_cholesky_grads():
    rng = np.random.default_rng(12)
    a = rng.standard_normal((3, 3))
    check_grads(lambda a: linalg.cholesky(_sym_pd(a)), (a,), order=2)
    c = _rand(rng, (3, 3), np.complex128)
    check_grads(lambda a: linalg.cholesky(_sym_pd(a)), (c,), order=1)


def test_triangular_solve_grads():
    rng = np.random.default_rng(13)
    a = np.tril(_well_conditioned(rng, (3, 3), np.float64))
    b = rng.standard_normal((3, 2))
    check_grads(lambda a, b: linalg.triangular_solve(a, b, left_side=True, lower=True),
                (a, b), order=2)
    check_grads(lambda a, b: linalg.triangular_solve(
        a, b, left_side=False, lower=True, transpose_a=True, unit_diagonal=True),
        (a, b.T.copy()), order=1)
    ac = np.tril(_well_conditioned(rng, (3, 3), np.complex128))
    bc = _rand(rng, (3, 2), np.complex128)
    check_grads(lambda a, b: linalg.triangular_solve(
        a, b, left_side=True, lower=True, transpose_a=True, conjugate_a=True),
        (ac, bc), order=1)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2)])
def test_lu_grads(shape):
    a = _well_conditioned(np.random.default_rng(14), shape, np.float64)
    check_grads(lambda a: linalg.lu(a)[0], (a,), order=2 if shape == (3, 3) else 1)


@pytest.mark.parametrize("shape,full", [((3, 3), True), ((4, 2), False), ((2, 4), True)])
def test_qr_grads(shape, full):
    a = _well_conditioned(np.random.default_rng(15), shape, np.float64)
    check_grads(lambda a: linalg.qr(a, full_matrices=full), (a,),
                order=2 if shape == (3, 3) else 1)


def test_qr_grads_complex():
    a = _well_conditioned(np.random.default_rng(16), (3, 2), np.complex128)
    check_grads(lambda a: linalg.qr(a, full_matrices=False), (a,), order=1)


def test_tridiagonal_solve_grads():
    rng = np.random.default_rng(17)
    dl, d, du = (rng.standard_normal(4) for _ in range(3))
    b = rng.standard_normal((4, 2))
    check_grads(lambda dl, d, du, b: linalg.tridiagonal_solve(dl, d + 4, du, b),
                (dl, d, du, b), order=2)


def test_grad_under_jit_and_vmap():
    a = _rand(np.random.default_rng(18), (2, 3, 3), np.float64)

    def loss(a):
        low = linalg.cholesky(_sym_pd(a))
        return lax.reduce_sum(lax.mul(low, low), (0, 1))

    g = sciax.jit(sciax.vmap(sciax.grad(loss)))(a)
    for i in range(2):
        _close(g[i], np.asarray(sciax.grad(loss)(a[i])), np.float64)


# --- bad input ----------------------------------------------------------------------

@pytest.mark.parametrize("fn", [linalg.cholesky, lambda x: linalg.lu(x),
                                lambda x: linalg.qr(x)])
def test_rank_and_dtype_errors(fn):
    with pytest.raises(ValueError, match=r"rank >= 2.*\(3,\)"):
        fn(np.ones(3))
    with pytest.raises(TypeError, match="float32, float64, complex64 or complex128.*int32"):
        fn(np.ones((2, 2), np.int32))


def test_shape_errors():
    with pytest.raises(ValueError, match=r"cholesky.*square.*\(2, 3\)"):
        linalg.cholesky(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"triangular_solve.*square.*\(2, 3\)"):
        linalg.triangular_solve(np.ones((2, 3)), np.ones((2, 2)), left_side=True)
    with pytest.raises(ValueError, match=r"triangular_solve.*rows.*\(3, 3\).*\(2, 2\)"):
        linalg.triangular_solve(np.eye(3), np.ones((2, 2)), left_side=True)
    with pytest.raises(ValueError, match="batch dimensions"):
        linalg.triangular_solve(np.ones((2, 3, 3)), np.ones((3, 3, 1)), left_side=True)
    with pytest.raises(TypeError, match="same dtype"):
        linalg.triangular_solve(np.eye(2), np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match=r"tridiagonal_solve.*\(3,\).*dl.*\(2,\)"):
        linalg.tridiagonal_solve(np.ones(2), np.ones(3), np.ones(3), np.ones((3, 1)))
    with pytest.raises(ValueError, match="permutation_size"):
        linalg.lu_pivots_to_permutation(np.zeros(4, np.int32), 3)
    with pytest.raises(NotImplementedError, match="full_matrices=False"):
        sciax.jvp(lambda a: linalg.qr(a)[0], (np.ones((3, 2)),), (np.ones((3, 2)),))
