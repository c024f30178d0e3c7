"""sciax.linalg solves, inverses and determinants vs scipy.linalg: dtypes,
batches vs a loop, jit, implicit derivatives (check_grads), bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
import sciax.numpy
from sciax import linalg
from sciax.test_util import check_grads as _check_grads

# float32 results carry ~1e-6 relative error times the condition number
# (< 10 for these diagonally dominant matrices); float64 about 1e-14.
TOL = {np.float32: 2e-4, np.float64: 1e-10, np.complex128: 1e-10}


def check_grads(f, args, order):
    # jit: one compile per derivative instead of one per primitive per call
    _check_grads(sciax.jit(f), args, order=order)


def rand(shape, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def well_conditioned(n, dtype=np.float64, batch=(), seed=0):
    return rand(batch + (n, n), dtype, seed) + 2 * n * np.eye(n, dtype=dtype)


def spd(n, dtype=np.float64, batch=(), seed=0):
    a = rand(batch + (n, n), dtype, seed)
    return a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=dtype)


def close(actual, expected, dtype):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=TOL[dtype],
                               atol=TOL[dtype])


STRUCTURES = [None, "gen", "sym", "her", "pos", "diagonal", "tridiagonal",
              "upper triangular", "lower triangular", "banded"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("assume_a", STRUCTURES)
def test_solve_matches_scipy(dtype, assume_a):
    hermitian = assume_a in ("sym", "her", "pos")
    a = spd(4, dtype) if hermitian else well_conditioned(4, dtype)
    b = rand((4, 2), dtype, 1)
    for lower in (False, True):
        x = linalg.solve(a, b, assume_a=assume_a, lower=lower)
        assert x.dtype == dtype
        close(x, sl.solve(a, b, assume_a=assume_a, lower=lower), dtype)


def test_solve_reads_one_triangle_and_transposes():
    a, b = spd(3), rand(3, seed=2)
    garbage = np.triu(a) + 100 * np.tril(np.ones((3, 3)), -1)  # lower part unread
    close(linalg.solve(garbage, b, assume_a="pos"), sl.solve(a, b), np.float64)
    g = well_conditioned(3)
    close(linalg.solve(g, b, transposed=True), sl.solve(g, b, transposed=True),
          np.float64)
    close(linalg.solve_triangular(g, b, trans="C", lower=True),
          sl.solve_triangular(g, b, trans="C", lower=True), np.float64)
    assert linalg.solve(np.eye(2, dtype=int), np.ones(2, dtype=int)).dtype == np.float64


@pytest.mark.slow  # long: runs in CI's second step
def test_batched_solves_equal_a_loop_and_jit():
    a, b = well_conditioned(3, batch=(2, 3)), rand((3, 2), seed=1)
    x = sciax.jit(linalg.solve)(a, b)  # b broadcasts against a's batch
    assert x.shape == (2, 3, 3, 2)
    for i in np.ndindex(2, 3):
        close(x[i], sl.solve(a[i], b), np.float64)
    bv = rand((3,), seed=3)
    xs = sciax.vmap(lambda m: linalg.solve(m, bv, assume_a="pos"))(spd(3, batch=(4,)))
    for i, m in enumerate(spd(3, batch=(4,))):
        close(xs[i], sl.solve(m, bv), np.float64)
    close(linalg.det(a), np.linalg.det(a), np.float64)
    close(linalg.inv(a), np.linalg.inv(a), np.float64)
    lu, piv = linalg.lu_factor(a)
    close(linalg.lu_solve((lu, piv), b[None, None]), np.linalg.solve(a, b), np.float64)


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_inverse_determinant_factorisations(dtype):
    a, b = well_conditioned(4, dtype), rand((4,), dtype, 1)
    close(linalg.inv(a), sl.inv(a), dtype)
    close(linalg.inv(spd(4, dtype), assume_a="pos"), sl.inv(spd(4, dtype)), dtype)
    np.testing.assert_allclose(np.asarray(linalg.det(a)), sl.det(a),
                               rtol=TOL[dtype] * 10)
    sign, logdet = linalg.slogdet(a)
    nsign, nlog = np.linalg.slogdet(a)
    close(sign, nsign, dtype)
    close(logdet, nlog, dtype)
    lu, piv = linalg.lu_factor(a)
    slu, spiv = sl.lu_factor(a)
    close(lu, slu, dtype)
    np.testing.assert_array_equal(np.asarray(piv), spiv)
    for trans in (0, 1, 2):
        close(linalg.lu_solve((lu, piv), b, trans=trans),
              sl.lu_solve((slu, spiv), b, trans=trans), dtype)
    for lower in (False, True):
        c = linalg.cho_factor(spd(4, dtype), lower=lower)
        sc = sl.cho_factor(spd(4, dtype), lower=lower)
        mask = np.tril(np.ones((4, 4))) if lower else np.triu(np.ones((4, 4)))
        close(c[0], sc[0] * mask, dtype)  # SciPy leaves garbage off the triangle
        close(linalg.cho_solve(c, b), sl.cho_solve(sc, b), dtype)


@pytest.mark.slow  # long: runs in CI's second step
def test_banded_solvers():
    rng = np.random.default_rng(4)
    b = rng.standard_normal((6, 2))
    for lu_ in ((1, 1), (2, 1), (0, 2)):
        ab = rng.standard_normal((sum(lu_) + 1, 6))
        ab[lu_[1]] += 6  # the diagonal dominates
        close(linalg.solve_banded(lu_, ab, b), sl.solve_banded(lu_, ab, b), np.float64)
    ab = rng.standard_normal((3, 6))
    ab[-1] = np.abs(ab[-1]) + 6
    close(linalg.solveh_banded(ab, b), sl.solveh_banded(ab, b), np.float64)
    abl = np.zeros_like(ab)  # the same matrix in lower storage
    abl[0], abl[1, :-1], abl[2, :-2] = ab[2], ab[1, 1:], ab[0, 2:]
    close(linalg.solveh_banded(abl, b, lower=True), sl.solveh_banded(ab, b),
          np.float64)
    cb = linalg.cholesky_banded(ab)
    keep = np.arange(6)[None] >= 2 - np.arange(3)[:, None]  # SciPy leaves corners as-is
    close(np.where(keep, cb, 0), np.where(keep, sl.cholesky_banded(ab), 0), np.float64)
    close(linalg.cho_solve_banded((cb, False), b),
          sl.cho_solve_banded((sl.cholesky_banded(ab), False), b), np.float64)


def test_singular_and_nan_input_give_nonfinite_results():
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert not np.all(np.isfinite(np.asarray(linalg.solve(sing, np.ones(2)))))
    assert not np.all(np.isfinite(np.asarray(linalg.inv(sing))))
    assert float(linalg.det(sing)) == 0.0
    sign, logdet = linalg.slogdet(sing)
    assert float(sign) == 0.0 and float(logdet) == -np.inf
    assert np.all(np.isnan(np.asarray(linalg.solve(-np.eye(2), np.ones(2),
                                                   assume_a="pos"))))
    assert np.all(np.isnan(np.asarray(linalg.solve(np.full((2, 2), np.nan),
                                                   np.ones(2)))))


def test_bad_input_raises_naming_the_problem():
    with pytest.raises(ValueError, match="not a recognized matrix structure"):
        linalg.solve(np.eye(2), np.ones(2), assume_a="spd")
    with pytest.raises(ValueError, match="square"):
        linalg.solve(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="incompatible shapes"):
        linalg.solve(np.eye(3), np.ones(2))
    with pytest.raises(ValueError, match="at least 2-D"):
        linalg.det(np.ones(3))
    with pytest.raises(ValueError, match="square"):
        linalg.inv(np.ones((2, 3)))
    with pytest.raises(ValueError, match="trans"):
        linalg.solve_triangular(np.eye(2), np.ones(2), trans="X")
    with pytest.raises(ValueError, match="l \\+ u \\+ 1"):
        linalg.solve_banded((1, 1), np.ones((2, 4)), np.ones(4))
    with pytest.raises(NotImplementedError, match="complex"):
        linalg.solve(np.eye(2) * 1j, np.ones(2), transposed=True)
    with pytest.raises(ValueError, match="piv"):
        linalg.lu_solve((np.eye(3), np.zeros(2, np.int32)), np.ones(3))


# --- derivatives ----------------------------------------------------------------------

@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("assume_a", ["gen", "pos", "sym", "tridiagonal"])
def test_solve_gradients(assume_a):
    a = spd(3) if assume_a in ("pos", "sym") else well_conditioned(3)
    b = rand((3, 2), seed=1)
    order = 2 if assume_a == "gen" else 1  # second order: the general path only
    check_grads(lambda a, b: linalg.solve(a, b, assume_a=assume_a), (a, b), order=order)


@pytest.mark.slow  # long: runs in CI's second step
def test_inverse_and_determinant_gradients():
    a = well_conditioned(3)
    check_grads(linalg.inv, (a,), order=2)
    check_grads(linalg.det, (a,), order=1)
    check_grads(lambda a: linalg.slogdet(a)[1], (a,), order=2)
    ac = well_conditioned(3, np.complex128)
    check_grads(linalg.slogdet, (ac,), order=1)
    check_grads(lambda a, b: linalg.solve(a, b, transposed=True), (a, rand(3)), order=1)


@pytest.mark.slow  # long: runs in CI's second step
def test_factor_based_solve_gradients():
    a, b = spd(3), rand((3,), seed=1)
    check_grads(lambda a, b: linalg.cho_solve(linalg.cho_factor(a), b), (a, b), order=1)
    check_grads(lambda a, b: linalg.lu_solve(linalg.lu_factor(a), b, trans=1), (a, b),
                order=1)
    check_grads(lambda a, b: linalg.solve_triangular(a, b, lower=True),
                (well_conditioned(3), b), order=1)
    ab = np.array([[0.0, 1.0, 1.0], [5.0, 5.0, 5.0], [1.0, 1.0, 0.0]])
    check_grads(lambda ab, b: linalg.solve_banded((1, 1), ab, b), (ab, b), order=1)


def test_slogdet_gradient_reuses_the_factorisation():
    # grad of logdet: one LU and one solve with N right-hand sides, no more
    jaxpr = str(sciax.make_jaxpr(sciax.grad(lambda a: linalg.slogdet(a)[1]))(
        well_conditioned(3)))
    assert jaxpr.count(" lu ") == 1 and jaxpr.count("triangular_solve") == 2
    jaxpr = str(sciax.make_jaxpr(sciax.grad(lambda a, b: linalg.solve(a, b).sum()))(
        well_conditioned(3), rand(3)))
    assert jaxpr.count(" lu ") == 1 and jaxpr.count("triangular_solve") == 4


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_pos_solve_derivative_is_with_respect_to_the_read_triangle(lower, dtype):
    # potrf reads one triangle; the derivative is that of the Hermitian matrix it
    # sees: zero for the other triangle, and equal to finite differences.
    a, b = spd(3, dtype), rand((3,), dtype, 1)
    tri = np.tril(a) if lower else np.triu(a)
    f = lambda a: sciax.numpy.real(sciax.numpy.sum(
        linalg.solve(a, b, assume_a="pos", lower=lower)))
    g = np.asarray(sciax.grad(f)(tri))
    other = np.triu(np.ones((3, 3)), 1) if lower else np.tril(np.ones((3, 3)), -1)
    assert np.all(g[other == 1] == 0)
    check_grads(lambda a: linalg.solve(a, b, assume_a="pos", lower=lower), (tri,),
                order=1)
