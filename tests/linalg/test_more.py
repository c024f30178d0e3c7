"""The smaller scipy.linalg functions of sciax.linalg (_structure,
_decomp_helpers, _procrustes, _expm_cond, _sketches, _toeplitz, _balance,
_qr_update) against scipy.linalg: values, shapes, batches, jit and
vmap, derivatives of the solvers/products, bad input.  Sizes stay at n <= 5
and compiled functions are reused, so the default run costs a few seconds;
wider sweeps are marked slow."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
from sciax import linalg
from sciax.test_util import check_grads as _check_grads
from tests.linalg.test_solve import rand

# float64 results are a few ulps times small condition numbers (< 100 here)
TOL = {np.float32: 1e-4, np.float64: 1e-10, np.complex128: 1e-10}




def close(actual, expected, dtype=np.float64):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=TOL[dtype],
                               atol=TOL[dtype])


def check_grads(f, args):
    _check_grads(sciax.jit(f), args, order=1, modes=("fwd", "rev"))


# --- structure tests ------------------------------------------------------------------

def test_bandwidth_matches_scipy_and_returns_python_ints():
    a = np.array([[3., 0., 0., 0., 0.], [0., 4., 0., 0., 0.], [0., 0., 5., 1., 0.],
                  [8., 0., 0., 6., 2.], [0., 9., 0., 0., 7.]])
    for m in (a, np.triu(a), np.zeros_like(a)):
        got = linalg.bandwidth(m)
        assert got == sl.bandwidth(m) and all(type(v) is int for v in got)
    lo, up = linalg.bandwidth(np.stack([a, np.triu(a)]))
    np.testing.assert_array_equal(lo, [3, 0])
    np.testing.assert_array_equal(up, [1, 1])
    lo, up = sciax.jit(linalg.bandwidth)(a)  # traced: arrays
    assert (int(lo), int(up)) == (3, 1)
    with pytest.raises(ValueError, match="bandwidth: .*2D"):
        linalg.bandwidth(np.ones(3))


def test_issymmetric_ishermitian_match_scipy():
    s = np.array([[1.0, 2.0], [2.0, 3.0]])
    h = np.array([[1.0, 2 + 3j], [2 - 3j, 4.0]])
    cs = np.array([[1 + 1j, 3j], [3j, 2.0]])
    near = np.array([[0, 1 + 1j], [1 - (1 + 1e-12) * 1j, 0]])
    nan_off = np.array([[1, np.nan], [np.nan, 1.0]])
    nan_diag = np.array([[np.nan, 1], [1, 1.0]])
    for m in (s, h, cs, near, nan_off, nan_diag, np.zeros((0, 0))):
        for fun, ref in ((linalg.issymmetric, sl.issymmetric),
                         (linalg.ishermitian, sl.ishermitian)):
            got = fun(m)
            assert type(got) is bool and got == ref(m), (fun.__name__, m)
    assert linalg.ishermitian(near, atol=5e-11) is True
    assert linalg.issymmetric(s + [[0, 0], [1e-9, 0]], rtol=1e-8) is True
    np.testing.assert_array_equal(linalg.issymmetric(np.stack([s, h])), [True, False])
    assert bool(sciax.jit(linalg.ishermitian)(h))
    with pytest.raises(ValueError, match="issymmetric: .*square"):
        linalg.issymmetric(np.ones((2, 3)))


# --- diagsvd, cdf2rdf, orthogonal_procrustes, expm_cond -------------------------------

def test_diagsvd():
    for m, n, k in ((2, 3, 2), (3, 2, 2), (2, 2, 2)):
        s = np.arange(1.0, k + 1)
        close(linalg.diagsvd(s, m, n), sl.diagsvd(s, m, n))
    assert linalg.diagsvd(np.ones((4, 2)), 2, 3).shape == (4, 2, 3)
    with pytest.raises(ValueError, match="Length of s must be M or N"):
        linalg.diagsvd(np.ones(2), 3, 4)


def test_cdf2rdf_matches_scipy_batched():
    x = rand((3, 5, 5), seed=1)
    w, v = np.linalg.eig(x)
    wr, vr = linalg.cdf2rdf(w, v)
    ewr, evr = sl.cdf2rdf(w, v)
    close(wr, ewr)
    close(vr, evr)
    assert np.allclose(x @ np.asarray(vr), np.asarray(vr) @ np.asarray(wr))
    with pytest.raises(ValueError, match="complex-conjugate pairs"):
        linalg.cdf2rdf(np.array([1 + 1j, 2.0]), np.eye(2))
    with pytest.raises(ValueError, match="same number of eigenvalues"):
        linalg.cdf2rdf(np.ones(2), np.eye(3))


@pytest.mark.parametrize("dtype", [np.complex128])
def test_orthogonal_procrustes(dtype):
    a, b = rand((4, 3), dtype, 2), rand((4, 3), dtype, 3)
    r, scale = linalg.orthogonal_procrustes(a, b)
    er, escale = sl.orthogonal_procrustes(a, b)
    close(r, er, dtype)
    close(scale, escale, dtype)
    with pytest.raises(ValueError, match="shapes of A and B differ"):
        linalg.orthogonal_procrustes(np.ones((3, 2)), np.ones((2, 3)))
    with pytest.raises(ValueError, match="expected ndim to be 2"):
        linalg.orthogonal_procrustes(np.ones(3), np.ones(3))


@pytest.mark.slow  # the docstring example already checks SciPy's value
def test_expm_cond_matches_scipy():
    a = np.array([[-0.5, 1e-4], [0.0, -0.5]])  # the docstring's shape: compiled once
    b = np.array([[0.3, 1.0], [-2.0, 0.1]])
    got = linalg.expm_cond(np.stack([a, b]))
    np.testing.assert_allclose(np.asarray(got), [sl.expm_cond(a), sl.expm_cond(b)],
                               rtol=1e-8)
    with pytest.raises(ValueError, match="square"):
        linalg.expm_cond(np.ones((2, 3)))


# --- qr_multiply ----------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(5, 3),
                                   pytest.param((3, 5), marks=pytest.mark.slow)])
def test_qr_multiply_matches_scipy(shape):
    m, n = shape
    k = min(m, n)
    a = rand(shape, np.complex128, 4)
    cases = [dict(mode="right", c=rand((2, m), seed=5)),
             dict(mode="left", c=rand((k,), seed=6), conjugate=True),
             dict(mode="left", c=rand((m, 2), seed=7), overwrite_c=True, pivoting=True)]
    for kw in cases:
        if kw.get("overwrite_c") and m <= n:
            kw["c"] = kw["c"][:k]
        got = linalg.qr_multiply(a, **kw)
        want = sl.qr_multiply(a, **{**kw, "c": kw["c"].copy()})
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape
            close(g, w, np.complex128)
    with pytest.raises(ValueError, match="Mode argument can only be"):
        linalg.qr_multiply(a, np.ones(m), mode="up")
    with pytest.raises(ValueError, match="not compatible for c @ Q"):
        linalg.qr_multiply(a, np.ones((2, m + 1)))


def test_qr_multiply_grad():
    a, c = rand((4, 3), seed=8), rand((2, 4), seed=9)
    check_grads(lambda a, c: linalg.qr_multiply(a, c)[0], (a, c))


# --- Clarkson-Woodruff ----------------------------------------------------------------

def test_clarkson_woodruff_structure_and_norm_preservation():
    n, s = 6, 3
    sketch = np.asarray(linalg.clarkson_woodruff_transform(np.eye(n), s, rng=0))
    # S itself: one +-1 per column
    assert sketch.shape == (s, n)
    np.testing.assert_array_equal(np.sum(sketch != 0, axis=0), np.ones(n))
    assert set(np.unique(np.abs(sketch[sketch != 0]))) == {1.0}
    # E ||S x||^2 = ||x||^2: the mean over independent sketches
    x = rand((n, 1), seed=10)
    ratios = [float(np.sum(np.asarray(
        linalg.clarkson_woodruff_transform(x, s, rng=seed)) ** 2))
        for seed in range(300)]
    # each ratio has variance <= 2 ||x||^4 / s; 300 draws: sd of the mean < 0.05
    assert abs(np.mean(ratios) / np.sum(x ** 2) - 1) < 0.2
    y = linalg.clarkson_woodruff_transform(rand((2, n, 3)), s, seed=1)
    assert y.shape == (2, s, 3)
    with pytest.raises(TypeError, match="not both"):
        linalg.clarkson_woodruff_transform(x, s, rng=1, seed=1)
    with pytest.raises(ValueError, match="at least 2-D"):
        linalg.clarkson_woodruff_transform(np.ones(3), 2)


# --- circulant and Toeplitz -----------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, pytest.param(np.complex128,
                                                              marks=pytest.mark.slow)])
def test_solve_circulant_matches_scipy(dtype):
    c, b = rand(4, dtype, 11) + 3, rand((4, 2), dtype, 12)
    close(linalg.solve_circulant(c, b), sl.solve_circulant(c, b), dtype)
    cs, bs = rand((3, 4), dtype, 13) + 3, rand((3, 4), dtype, 14)
    for kw in (dict(baxis=-1, outaxis=-1), dict(baxis=1, outaxis=0)):
        close(linalg.solve_circulant(cs, bs, **kw), sl.solve_circulant(cs, bs, **kw),
              dtype)


def test_solve_circulant_singular():
    c, b = np.array([1.0, -1.0, 0.0, 0.0]), np.arange(1.0, 5.0)
    close(linalg.solve_circulant(c, b, singular="lstsq"),
          sl.solve_circulant(c, b, singular="lstsq"))
    with pytest.raises(np.linalg.LinAlgError, match="near singular"):
        linalg.solve_circulant(c, b)
    assert np.all(np.isnan(np.asarray(sciax.jit(linalg.solve_circulant)(c, b))))
    with pytest.raises(ValueError, match="incompatible"):
        linalg.solve_circulant(c, np.ones(3))
    with pytest.raises(ValueError, match="'caxis' entry is out of bounds"):
        linalg.solve_circulant(c, b, caxis=2)


@pytest.mark.parametrize("dtype", [np.float32, pytest.param(np.float64,
                                                             marks=pytest.mark.slow),
                                   np.complex128])
def test_solve_toeplitz_matches_scipy(dtype):
    c, r, b = rand(4, dtype, 15) + 4, rand(4, dtype, 16), rand((4, 2), dtype, 17)
    x = linalg.solve_toeplitz((c, r), b)
    assert x.dtype == dtype
    close(x, sl.solve_toeplitz((c, r), b), dtype)
    close(linalg.solve_toeplitz(c, b[:, 0]), sl.solve_toeplitz(c, b[:, 0]), dtype)


def test_solve_toeplitz_batched_vmap_and_bad_input():
    c, b = rand((2, 4), seed=18) + [4, 0, 0, 0], rand((2, 4, 3), seed=19)
    want = sl.solve_toeplitz(c, b)
    close(linalg.solve_toeplitz(c, b), want)
    close(sciax.vmap(linalg.solve_toeplitz)(c, b), want)
    # a zero leading minor stops Levinson (SciPy raises) but not LU
    close(linalg.solve_toeplitz(np.array([0.0, 1.0]), np.array([1.0, 2.0])), [2.0, 1.0])
    with pytest.raises(ValueError, match="Incompatible dimensions"):
        linalg.solve_toeplitz(c[0], np.ones(3))
    with pytest.raises(ValueError, match="must be an array, not None"):
        linalg.solve_toeplitz(c[0], None)


@pytest.mark.parametrize("dtype", [pytest.param(np.float64, marks=pytest.mark.slow),
                                   np.complex128])
def test_matmul_toeplitz_matches_scipy(dtype):
    c, r, x = rand(5, dtype, 20), rand(3, dtype, 21), rand((3, 2), dtype, 22)
    close(linalg.matmul_toeplitz((c, r), x), sl.matmul_toeplitz((c, r), x), dtype)
    close(linalg.matmul_toeplitz(c, x[:, 0].repeat(2)[:5]),
          sl.matmul_toeplitz(c, x[:, 0].repeat(2)[:5]), dtype)
    with pytest.raises(ValueError, match="Incompatible dimensions"):
        linalg.matmul_toeplitz((c, r), np.ones(4))


def test_toeplitz_and_circulant_grads():
    c, r, b = rand(3, seed=23) + [3, 0, 0], rand(3, seed=24), rand(3, seed=25)
    check_grads(lambda c, r, b: linalg.solve_toeplitz((c, r), b), (c, r, b))
    check_grads(lambda c, r, b: linalg.matmul_toeplitz((c, r), b), (c, r, b))


# --- matrix_balance -------------------------------------------------------------------

def _balance_cases(n, count, complex_=False, seed=26):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        a = rng.standard_normal((n, n)) * np.exp(rng.uniform(-8, 8, (n, n)))
        a[rng.random((n, n)) < 0.4] = 0  # zeros make rows/columns to isolate
        if complex_:
            a = a + 1j * rng.standard_normal((n, n)) * (a != 0)
        out.append(a)
    return np.stack(out)


def _check_balance(stack, **kw):
    fun = sciax.jit(lambda a: linalg.matrix_balance(a, separate=True, **kw))
    b, (s, p) = fun(stack)
    for i, a in enumerate(stack):
        eb, (es, ep) = sl.matrix_balance(a, separate=True, **kw)
        np.testing.assert_allclose(np.asarray(b[i]), eb, rtol=1e-13, atol=0)
        np.testing.assert_array_equal(np.asarray(s[i]), es)
        np.testing.assert_array_equal(np.asarray(p[i]), ep)


@pytest.mark.slow  # long: runs in CI's second step
def test_matrix_balance_matches_scipy():
    # one batched compile covers dense, sparse, triangular and diagonal input
    stack = np.concatenate([_balance_cases(4, 5), np.triu(_balance_cases(4, 1)),
                            np.diag([1.0, 2.0, 3.0, 4.0])[None]])
    _check_balance(stack)  # (T itself is checked by the docstring example)
    with pytest.raises(ValueError, match="should be square"):
        linalg.matrix_balance(np.ones((2, 3)))


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 5])
@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("flags", [dict(permute=True, scale=True),
                                   dict(permute=False, scale=True),
                                   dict(permute=True, scale=False)])
def test_matrix_balance_sweep(n, complex_, flags):
    _check_balance(_balance_cases(n, 6, complex_, seed=n), **flags)


# --- qr_update, qr_insert, qr_delete --------------------------------------------------

def _check_qr(got, want, a1, dtype):
    q1, r1 = (np.asarray(x) for x in got)
    assert q1.shape == want[0].shape and r1.shape == want[1].shape
    close(q1 @ r1, a1, dtype)
    close(np.tril(r1, -1), np.zeros_like(r1), dtype)
    close(q1.conj().T @ q1, np.eye(q1.shape[1]), dtype)


@pytest.mark.parametrize("dtype,mode", [
    (np.float64, "full"), (np.complex128, "economic"),
    pytest.param(np.complex128, "full", marks=pytest.mark.slow),
    pytest.param(np.float64, "economic", marks=pytest.mark.slow)])
def test_qr_update_insert_delete_reconstruct(dtype, mode):
    a = rand((5, 3), dtype, 27)
    q, r = sl.qr(a, mode=mode)
    u, v = rand(5, dtype, 28), rand(3, dtype, 29)
    _check_qr(linalg.qr_update(q, r, u, v), sl.qr_update(q, r, u, v),
              a + np.outer(u, v.conj()), dtype)
    rows, cols = rand((2, 3), dtype, 30), rand((5, 1), dtype, 31)
    _check_qr(linalg.qr_insert(q, r, rows, -1), sl.qr_insert(q, r, rows, -1),
              np.concatenate([a[:4], rows, a[4:]]), dtype)
    _check_qr(linalg.qr_insert(q, r, cols, 1, "col"),
              sl.qr_insert(q, r, cols, 1, "col"),
              np.concatenate([a[:, :1], cols, a[:, 1:]], axis=1), dtype)
    _check_qr(linalg.qr_delete(q, r, 1, 3), sl.qr_delete(q, r, 1, 3),
              np.delete(a, [1, 2, 3], axis=0), dtype)
    _check_qr(linalg.qr_delete(q, r, -1, 1, "col"), sl.qr_delete(q, r, -1, 1, "col"),
              a[:, :2], dtype)


def test_qr_update_family_bad_input():
    a = rand((5, 3), seed=32)
    q, r = sl.qr(a)
    qe, re = sl.qr(a, mode="economic")
    with pytest.raises(ValueError, match="Q and R do not have compatible shapes"):
        linalg.qr_update(q, r[:4], np.ones(5), np.ones(3))
    with pytest.raises(ValueError, match=r"u.shape\[0\] must equal Q.shape\[0\]"):
        linalg.qr_update(q, r, np.ones(4), np.ones(3))
    with pytest.raises(ValueError, match="Second dimension of u and v"):
        linalg.qr_update(q, r, np.ones((5, 2)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="'k' is out of bounds"):
        linalg.qr_insert(q, r, np.ones(3), 6)
    with pytest.raises(ValueError, match="should be either"):
        linalg.qr_insert(q, r, np.ones(4), 2)
    with pytest.raises(ValueError, match="'which' must be either"):
        linalg.qr_insert(q, r, np.ones(3), 2, "foo")
    with pytest.raises(ValueError, match="'p' is out of range"):
        linalg.qr_delete(q, r, 4, 2)
    with pytest.raises(np.linalg.LinAlgError, match="lies in the span of Q"):
        linalg.qr_insert(qe, re, qe[:, :1] + qe[:, 1:2], 1, "col")


@pytest.mark.slow
def test_more_slow_sweeps():
    """Derivatives and dtypes beyond the default run's single cases."""
    for dtype in (np.float32, np.complex128):
        a = rand((3, 3), dtype, 33)
        close(linalg.expm_cond(a), sl.expm_cond(a), np.float32 if dtype ==
              np.float32 else dtype)
    c, b = rand(3, seed=42) + [3, 0, 0], rand(3, seed=43)
    check_grads(lambda c, b: linalg.solve_circulant(c, b, singular="lstsq"), (c, b))
    for dtype in (np.float64, np.complex128):
        a, b = rand((4, 3), dtype, 34), rand((4, 3), dtype, 35)
        check_grads(lambda a, b: linalg.orthogonal_procrustes(a, b)[0], (a, b))
        c, r, x = rand(3, dtype, 36) + 3, rand(3, dtype, 37), rand((3, 2), dtype, 38)
        check_grads(lambda c, r, x: linalg.solve_toeplitz((c, r), x), (c, r, x))
        check_grads(lambda c, r, x: linalg.matmul_toeplitz((c, r), x), (c, r, x))
        q, rr = linalg.qr(rand((4, 3), dtype, 39), mode="economic")
        check_grads(lambda q, rr, u, v: linalg.qr_update(q, rr, u, v)[1],
                    (q, rr, rand(4, dtype, 40), rand(3, dtype, 41)))
