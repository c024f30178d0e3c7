"""lax.linalg eigen- and Schur-type decompositions (eigh, svd, eig, schur,
hessenberg) against NumPy/SciPy, eagerly and under jit; vmap against a loop;
derivatives against finite differences; NaN and bad-input behaviour.

Decompositions are not unique (eigenvector signs and phases, Schur vectors),
so results are checked through their defining identities (``A v = v w``,
``A = Z T Z^H``, orthonormality) and through unique quantities (eigenvalue
sets, singular values, Hessenberg form from the same LAPACK routine as SciPy).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.lax import linalg as la
from sciax.test_util import check_batching, check_grads

# Backward-stable LAPACK routines have residuals ~ n * eps * |A|; with n <= 5 and
# O(1) entries, 1e-4 (float32, eps 1.2e-7) and 1e-10 (float64, eps 2.2e-16) leave
# margins of ~100x and ~1e4x.  Eigenvectors of random matrices can be mildly
# ill-conditioned, hence the margin.
TOL = {np.float32: 1e-4, np.float64: 1e-10, np.complex64: 1e-4, np.complex128: 1e-10}
DTYPES = [np.float32, np.float64, np.complex128]


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def H(x):
    return np.conj(np.swapaxes(x, -1, -2))


def close(a, b, dtype, scale=1.0):
    tol = TOL[np.dtype(dtype).type] * scale
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


def eye_like(x):
    """Identity matrices of the shape of the (square) batch ``x``."""
    return np.broadcast_to(np.eye(x.shape[-1]), x.shape)


# --- eigh -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3)])
def test_eigh_matches_numpy(run, dtype, shape):
    a = rand(shape, dtype)
    v, w = map(np.asarray, run(la.eigh, a))
    h = (a + H(a)) / 2                       # what symmetrize_input gives
    assert v.dtype == dtype and w.dtype == np.real(np.zeros((), dtype)).dtype
    close(w, np.linalg.eigvalsh(h), dtype)
    close(h @ v, v * w[..., None, :], dtype)
    close(H(v) @ v, eye_like(v), dtype)


@pytest.mark.parametrize("lower", [True, False])
def test_eigh_reads_one_triangle(lower):
    a = rand((4, 4), np.complex128, seed=1)
    v, w = la.eigh(a, lower=lower, symmetrize_input=False)
    close(w, np.linalg.eigvalsh(a, UPLO="L" if lower else "U"), np.complex128)


# --- svd --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (2, 4, 4)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_matches_numpy(run, dtype, shape, full_matrices):
    a = rand(shape, dtype)
    s, u, vh = map(np.asarray, run(lambda x: la.svd(x, full_matrices=full_matrices), a))
    u_np, s_np, vh_np = np.linalg.svd(a, full_matrices=full_matrices)
    assert (s.shape, u.shape, vh.shape) == (s_np.shape, u_np.shape, vh_np.shape)
    assert s.dtype == s_np.dtype and u.dtype == dtype
    close(s, s_np, dtype)
    k = s.shape[-1]
    close((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype)
    close(H(u) @ u, eye_like(H(u) @ u), dtype)
    close(vh @ H(vh), eye_like(vh @ H(vh)), dtype)


@pytest.mark.parametrize("algorithm", ["gesdd", "gesvd"])
def test_svd_values_only_and_drivers(run, algorithm):
    a = rand((2, 5, 3), np.float64)
    s = run(lambda x: la.svd(x, compute_uv=False, algorithm=algorithm), a)
    close(s, np.linalg.svd(a, compute_uv=False), np.float64)
    s, u, vh = la.svd(a, algorithm=algorithm, full_matrices=False)
    close((np.asarray(u) * np.asarray(s)[..., None, :]) @ np.asarray(vh), a, np.float64)


# --- eig --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3)])
def test_eig_matches_scipy(run, dtype, shape):
    a = rand(shape, dtype)
    w, vl, vr = map(np.asarray, run(
        lambda x: la.eig(x, compute_left_eigenvectors=True), a))
    assert w.dtype == vr.dtype == np.result_type(dtype, np.complex64)
    for i in np.ndindex(shape[:-2]):
        w_ref = scipy.linalg.eigvals(a[i])
        close(np.sort_complex(w[i]), np.sort_complex(w_ref), dtype)
    close(a @ vr, vr * w[..., None, :], dtype)
    close(H(vl) @ a, w[..., :, None] * H(vl), dtype)
    close(np.linalg.norm(vr, axis=-2), np.ones(w.shape), dtype)
    # LAPACK's normalisation: the largest component of each vector is real
    k = np.argmax(np.abs(vr), axis=-2)
    close(np.take_along_axis(vr, k[..., None, :], -2).imag, 0 * w[..., None, :].real,
          dtype)


def test_eig_output_selection():
    a = rand((3, 3), np.float64)
    assert len(la.eig(a, compute_right_eigenvectors=False)) == 1
    assert len(la.eig(a, compute_left_eigenvectors=True)) == 3
    w1, = la.eig(a, compute_right_eigenvectors=False)
    w2, _ = la.eig(a)
    close(w1, w2, np.float64)


# --- schur and hessenberg ---------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3)])
def test_schur_reconstructs(run, dtype, shape):
    a = rand(shape, dtype)
    t, z = map(np.asarray, run(la.schur, a))
    close(z @ t @ H(z), a, dtype)
    close(H(z) @ z, eye_like(z), dtype)
    # complex: triangular; real: quasi-triangular (2x2 blocks for complex pairs)
    below = -1 if np.iscomplexobj(a) else -2
    assert np.all(np.tril(t, below) == 0)
    t_only = np.asarray(run(lambda x: la.schur(x, compute_schur_vectors=False), a))
    close(t_only, t, dtype)
    for i in np.ndindex(shape[:-2]):
        close(np.sort_complex(np.linalg.eigvals(t[i])),
              np.sort_complex(np.linalg.eigvals(a[i])), dtype, scale=10)


def _q_from_reflectors(packed, taus):
    """q = H_1 ... H_{n-1} from gehrd's packed output (NumPy reference)."""
    n = packed.shape[-1]
    q = np.eye(n, dtype=packed.dtype)
    for i in range(n - 1):
        v = np.zeros(n, dtype=packed.dtype)
        v[i + 1] = 1
        v[i + 2:] = packed[i + 2:, i]
        q = q @ (np.eye(n) - taus[i] * np.outer(v, np.conj(v)))
    return q


@pytest.mark.parametrize("dtype", DTYPES)
def test_hessenberg_matches_scipy(run, dtype):
    a = rand((2, 5, 5), dtype)
    packed, taus = map(np.asarray, run(la.hessenberg, a))
    assert packed.shape == a.shape and taus.shape == (2, 4)
    for i in range(2):
        h_ref, q_ref = scipy.linalg.hessenberg(a[i], calc_q=True)
        h = np.triu(packed[i], -1)
        close(h, h_ref, dtype, scale=10)
        q = _q_from_reflectors(packed[i], taus[i])
        close(q, q_ref, dtype, scale=10)
        close(run(la.hessenberg_q, packed[i], taus[i]), q_ref, dtype, scale=10)
        close(q @ h @ H(q), a[i], dtype, scale=10)


# --- batching ---------------------------------------------------------------------

def test_batched_equals_loop():
    a = rand((3, 4, 4), np.float64)
    for f in (la.eigh, la.svd, la.eig, la.schur, la.hessenberg):
        batched = f(a)
        for i in range(3):
            for b, one in zip(batched, f(a[i])):
                close(np.asarray(b)[i], one, np.float64)


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("in_axes", [0, 2])
def test_vmap_matches_loop(in_axes):
    a = np.moveaxis(rand((3, 4, 4), np.float64, seed=2), 0, in_axes)
    check_batching(la.eigh, (a,), in_axes=in_axes, atol=1e-10)
    check_batching(lambda x: la.svd(x, full_matrices=False), (a,), in_axes=in_axes,
                   atol=1e-10)
    check_batching(lambda x: la.eig(x, compute_left_eigenvectors=True), (a,),
                   in_axes=in_axes, atol=1e-10)
    check_batching(la.schur, (a,), in_axes=in_axes, atol=1e-10)
    check_batching(la.hessenberg, (a,), in_axes=in_axes, atol=1e-10)
    check_batching(lambda x: la.hessenberg_q(*la.hessenberg(x)), (a,), in_axes=in_axes,
                   atol=1e-10)


def test_vmap_of_grad_and_jit():
    a = rand((3, 4, 4), np.float64, seed=3)
    g = sciax.jit(sciax.vmap(sciax.grad(
        lambda x: lax.reduce_sum(la.svd(x, compute_uv=False), (0,)))))(a)
    u, _, vh = np.linalg.svd(a)
    close(g, u @ vh, np.float64)             # d(nuclear norm)/dA = U V^H


# --- derivatives ------------------------------------------------------------------
# Eigen- and singular vectors are defined up to sign/phase, so the checked
# functions are invariant under it (eigenvalues, projectors v v^H, |v|^2),
# except for eig of complex input, whose vectors LAPACK fixes completely.

def _proj(v):
    """v v^H over the vector index: invariant under each column's phase."""
    nd = v.ndim
    p = lax.dot_general(v, lax.conj(v) if np.iscomplexobj(np.zeros((), v.dtype)) else v,
                        (((nd - 1,), (nd - 1,)), ((), ())))
    return p


def _abs2(v):
    return lax.real(lax.mul(v, lax.conj(v))) if v.dtype.kind == "c" else lax.mul(v, v)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_eigh_grads(dtype):
    a = rand((3, 3), dtype, seed=4)
    check_grads(lambda x: la.eigh(x)[1], (a,), order=2)
    check_grads(lambda x: _abs2(la.eigh(x)[0]), (a,), order=1)
    check_grads(lambda x: _proj(la.eigh(x)[0][:, :2]), (a,), order=1)


def test_eigh_grads_batched_and_lower():
    a = rand((2, 3, 3), np.float64, seed=5)
    check_grads(lambda x: la.eigh(x)[1], (a,), order=1, modes=("fwd",))
    # without symmetrisation only the read triangle matters
    check_grads(lambda x: la.eigh(x, lower=False, symmetrize_input=False)[1], (a,),
                order=1, modes=("fwd",))
    g = np.asarray(sciax.grad(lambda x: lax.reduce_sum(
        la.eigh(x, symmetrize_input=False)[1], (0,)))(a[0]))
    np.testing.assert_allclose(np.triu(g, 1), 0, atol=1e-12)


def test_eigh_repeated_eigenvalues():
    # eigenvalues (1, 1, 3): the sum of w and the projector onto the repeated
    # eigenspace stay differentiable (documented); no NaN appears
    q = np.linalg.qr(rand((3, 3), np.float64, seed=6))[0]
    a = q @ np.diag([1.0, 1.0, 3.0]) @ q.T
    g = np.asarray(sciax.grad(lambda x: lax.reduce_sum(la.eigh(x)[1], (0,)))(a))
    np.testing.assert_allclose(g, np.eye(3), atol=1e-10)
    check_grads(lambda x: _proj(la.eigh(x)[0][:, :2]), (a,), order=1)
    _, jac = sciax.jvp(lambda x: la.eigh(x)[0], (a,), (np.ones((3, 3)),))
    assert np.all(np.isfinite(np.asarray(jac)))


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3)])
@pytest.mark.parametrize("full_matrices", [False, True])
def test_svd_grads(shape, full_matrices):
    a = rand(shape, np.float64, seed=7)

    def invariants(x):
        s, u, vh = la.svd(x, full_matrices=full_matrices)
        return s, _proj(u[:, :2]), _proj(lax.transpose(vh, (1, 0))), _proj(u)

    check_grads(lambda x: la.svd(x, compute_uv=False), (a,), order=2)
    check_grads(invariants, (a,), order=1)


@pytest.mark.slow  # long: runs in CI's second step
def test_svd_grads_complex():
    a = rand((3, 2), np.complex128, seed=8)

    def invariants(x):
        s, u, vh = la.svd(x, full_matrices=False)
        # u_j v_j^H does not depend on the phase shared by u_j and v_j
        us = lax.mul(u, lax.broadcast_in_dim(lax.convert_element_type(s, u.dtype),
                                             u.shape, (1,)))
        return s, lax.dot_general(us, vh, (((1,), (0,)), ((), ()))), _abs2(u)

    check_grads(invariants, (a,), order=1)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_eig_grads(dtype):
    a = rand((3, 3), dtype, seed=9)
    check_grads(lambda x: la.eig(x, compute_right_eigenvectors=False)[0], (a,),
                order=2)
    check_grads(lambda x: [_abs2(v) for v in
                           la.eig(x, compute_left_eigenvectors=True)[1:]], (a,),
                order=1)
    if dtype == np.complex128:
        # the phase is fixed too: the vectors themselves are differentiable
        check_grads(lambda x: la.eig(x, compute_left_eigenvectors=True)[1:], (a,),
                    order=1)


def _schur_invariants(x):
    # gauge-invariant functions of the Schur form: eigenvalues, |T_ij|^2 and the
    # projector onto the first invariant subspace
    t, z = la.schur(x)
    z1 = lax.slice_in_dim(z, 0, 1, 1, 1)
    proj = lax.dot_general(z1, snp.conj(z1), (((1,), (1,)), ((), ())))
    return (lax.mul(t, snp.conj(t)), proj)


@pytest.mark.slow  # long: runs in CI's second step
def test_schur_jvp_complex_and_real_spectrum():
    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 4)) + 1j * rng.normal(size=(4, 4))
    check_grads(_schur_invariants, (a,), order=1, modes=("fwd", "rev"))
    # real input with a real, well separated spectrum: T is triangular
    q = np.linalg.qr(rng.normal(size=(4, 4)))[0]
    r = np.triu(rng.normal(size=(4, 4)), 1) * 0.5 + np.diag([1.0, 2.0, 3.0, 4.0])
    check_grads(_schur_invariants, (q @ r @ q.T,), order=1, modes=("fwd", "rev"))


def test_hessenberg_not_differentiable():
    a = rand((3, 3), np.float64)
    with pytest.raises(NotImplementedError, match="hessenberg"):
        sciax.grad(lambda x: lax.reduce_sum(la.hessenberg(x)[0], (0, 1)))(a)


# --- NaN, empty and bad input -----------------------------------------------------

def test_nan_input_gives_nan_for_that_member_only():
    a = rand((2, 3, 3), np.float64)
    a[1, 0, 0] = np.nan
    for f in (la.eigh, la.svd, la.eig, la.schur, la.hessenberg):
        for out in f(a):
            out = np.asarray(out)
            assert np.all(np.isfinite(out[0])) and np.all(np.isnan(out[1])), f


def test_empty_matrices():
    for shape in [(0, 0), (2, 0, 0), (0, 3, 3)]:
        v, w = la.eigh(np.ones(shape))
        assert v.shape == shape and w.shape == shape[:-1]
    s, u, vh = la.svd(np.ones((2, 0, 3)))
    assert s.shape == (2, 0) and u.shape == (2, 0, 0) and vh.shape == (2, 3, 3)
    np.testing.assert_array_equal(np.asarray(vh)[1], np.eye(3))
    packed, taus = la.hessenberg(np.ones((1, 1)))
    assert taus.shape == (0,)
    np.testing.assert_array_equal(np.asarray(la.hessenberg_q(packed, taus)), [[1.0]])


@pytest.mark.parametrize("f", [la.eigh, la.eig, la.schur, la.hessenberg])
def test_square_errors(f):
    with pytest.raises(ValueError, match=r"square.*\(3, 4\)"):
        f(np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"rank >= 2.*\(3,\)"):
        f(np.ones(3))
    with pytest.raises(TypeError, match="int32"):
        f(np.ones((3, 3), np.int32))
    with pytest.raises(TypeError, match="float16"):
        f(np.ones((3, 3), np.float16))


def test_svd_errors():
    with pytest.raises(ValueError, match=r"svd.*rank >= 2.*\(3,\)"):
        la.svd(np.ones(3))
    with pytest.raises(TypeError, match="svd.*int32"):
        la.svd(np.ones((3, 2), np.int32))
    with pytest.raises(ValueError, match="algorithm"):
        la.svd(np.ones((3, 2)), algorithm="jacobi")


def test_schur_sort_not_supported():
    with pytest.raises(NotImplementedError, match="sort_eig_vals"):
        la.schur(np.eye(2), sort_eig_vals=True)
