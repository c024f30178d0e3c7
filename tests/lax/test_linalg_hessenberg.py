"""The differentiable Hessenberg decomposition ``lax.linalg.hessenberg_hq`` and
``sciax.linalg.hessenberg`` built on it: values against SciPy (the same LAPACK
gehrd/orghr, so the factors agree entry by entry), vmap against a loop, JVPs
against central differences of SciPy's gehrd/orghr (what
``scipy.linalg.hessenberg`` calls for n > 2), VJPs through ``check_grads``, and
the tangent identities of ``A = Q H Q^H``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import sciax
from sciax import linalg
from sciax.lax import linalg as la
from sciax.test_util import check_batching, check_grads
from tests.lax.test_linalg_eig import H, rand

# gehrd is backward stable: errors ~ n * eps * |A| with n <= 5 and O(1)
# entries, so 1e-4 (float32, eps 1.2e-7) and 1e-10 (float64) leave ~100x margin.
TOL = {np.float32: 1e-4, np.float64: 1e-10, np.complex128: 1e-10}




@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_values_match_scipy(dtype, use_jit=False):
    a = rand((4, 4), dtype)
    wrap = sciax.jit if use_jit else (lambda f: f)
    h, q = map(np.asarray, wrap(lambda x: linalg.hessenberg(x, calc_q=True))(a))
    h_ref, q_ref = scipy.linalg.hessenberg(a, calc_q=True)
    assert h.dtype == q.dtype == dtype
    tol = TOL[dtype]
    np.testing.assert_allclose(h, h_ref, rtol=tol, atol=tol)
    np.testing.assert_allclose(q, q_ref, rtol=tol, atol=tol)
    np.testing.assert_array_equal(np.tril(h, -2), 0)
    h_only = np.asarray(wrap(linalg.hessenberg)(a))
    np.testing.assert_allclose(h_only, h_ref, rtol=tol, atol=tol)


def test_values_under_jit():
    # one dtype: the jit path differs from the eager one only in tracing
    test_values_match_scipy(np.complex128, use_jit=True)


def test_scipy_api_small_matrices_as_scipy():
    # SciPy returns a 2 x 2 as is (gehrd would rotate a complex one)
    a = rand((2, 2), np.complex128, seed=11)
    h, q = linalg.hessenberg(a, calc_q=True)
    np.testing.assert_array_equal(np.asarray(h), a)
    np.testing.assert_array_equal(np.asarray(q), np.eye(2))
    h, q = la.hessenberg_hq(a)
    h_ref, q_ref = _gehrd(a)
    np.testing.assert_allclose(np.asarray(h), h_ref, atol=1e-12)
    np.testing.assert_allclose(np.asarray(q), q_ref, atol=1e-12)


def _jvp(x, dx):
    return sciax.jvp(la.hessenberg_hq, (x,), (dx,))


def test_vmap_matches_loop():
    a = rand((3, 4, 4), np.complex128, seed=1)
    check_batching(la.hessenberg_hq, (a,), atol=1e-12)
    # the JVP rule under vmap too, batched at a non-leading axis (one jit
    # compile instead of many eager batched ops)
    da = rand((4, 3, 4), np.complex128, seed=2)
    batched = sciax.jit(sciax.vmap(lambda x, dx: _jvp(x, dx)[1], in_axes=(0, 1)))(a, da)
    for i in range(3):
        for got, want in zip(batched, _jvp(a[i], da[:, i])[1]):
            np.testing.assert_allclose(np.asarray(got[i]), np.asarray(want), atol=1e-12)


def _gehrd(a):
    """(h, q) from SciPy's gehrd + orghr/unghr, for every n (scipy.linalg.
    hessenberg returns a 2 x 2 input as is, without making a complex
    subdiagonal real as gehrd does)."""
    if len(a) == 1:                          # the f2py wrappers reject tau = []
        return a, np.eye(1, dtype=a.dtype)
    gehrd, orghr = scipy.linalg.lapack.get_lapack_funcs(("gehrd", "orghr"), (a,))
    packed, tau, info = gehrd(a)
    q, info2 = orghr(packed, tau)
    assert info == info2 == 0
    return np.triu(packed, -1), q


def _jvp_fd(a, da, eps=1e-6):
    """Central differences of LAPACK's (h, q) along ``da``; error O(eps^2)."""
    hp, qp = _gehrd(a + eps * da)
    hm, qm = _gehrd(a - eps * da)
    return (hp - hm) / (2 * eps), (qp - qm) / (2 * eps)


@pytest.mark.parametrize("n, dtype", [(4, np.float64), (4, np.complex128),
                                      (2, np.complex128), (1, np.float64)])
def test_jvp_matches_finite_differences(n, dtype):
    a, da = rand((n, n), dtype, seed=3), rand((n, n), dtype, seed=4)
    (h, q), (dh, dq) = _jvp(a, da)
    h, q, dh, dq = map(np.asarray, (h, q, dh, dq))
    dh_fd, dq_fd = _jvp_fd(a, da)
    # eps^2 * third derivative ~ 1e-12 plus rounding ~ 1e-16 / 1e-6: 1e-7 is safe
    np.testing.assert_allclose(dh, dh_fd, atol=1e-7)
    np.testing.assert_allclose(dq, dq_fd, atol=1e-7)
    # tangent identities: dA = dQ H Q^H + Q dH Q^H + Q H dQ^H, Q^H dQ
    # skew-Hermitian with zero first row and column, dH upper Hessenberg with a
    # real subdiagonal (complex)
    np.testing.assert_allclose(dq @ h @ H(q) + q @ dh @ H(q) + q @ h @ H(dq), da,
                               atol=1e-12)
    omega = H(q) @ dq
    np.testing.assert_allclose(omega + H(omega), 0, atol=1e-12)
    np.testing.assert_allclose(dq[0], 0, atol=1e-14)
    np.testing.assert_allclose(dq[:, 0], 0, atol=1e-14)
    np.testing.assert_array_equal(np.tril(dh, -2), 0)
    np.testing.assert_allclose(np.diag(dh, -1).imag, 0, atol=1e-12)


def test_jvp_float32():
    a, da = rand((4, 4), np.float32, seed=5), rand((4, 4), np.float32, seed=6)
    _, (dh, dq) = _jvp(a, da)
    assert dh.dtype == dq.dtype == np.float32
    dh_fd, dq_fd = _jvp_fd(a.astype(np.float64), da.astype(np.float64))
    # float32 rounding amplified by the 1/h[j+1, j] divisions (O(1) here)
    np.testing.assert_allclose(np.asarray(dh), dh_fd, atol=1e-4)
    np.testing.assert_allclose(np.asarray(dq), dq_fd, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_check_grads(dtype):
    a = rand((4, 4), dtype, seed=7)
    check_grads(la.hessenberg_hq, (a,), order=1, modes=("fwd", "rev"))


def test_grad_through_scipy_api():
    # a real scalar of h and q; reverse mode against forward mode
    a = rand((4, 4), np.float64, seed=8)

    def f(x):
        h, q = linalg.hessenberg(x, calc_q=True)
        return (h[2, 1] * q[3, 2]).real

    g = np.asarray(sciax.grad(f)(a))
    e = np.zeros_like(a)
    e[1, 3] = 1.0
    _, t = sciax.jvp(f, (a,), (e,))
    np.testing.assert_allclose(g[1, 3], float(t), rtol=1e-12)


def test_zero_subdiagonal_gives_finite_tangents():
    # already upper triangular: gehrd leaves it as is, every subdiagonal entry
    # of h is exactly zero and the derivative does not exist; the tangents must
    # still be finite, with the identities that do not divide by h intact
    a = np.triu(rand((4, 4), np.complex128, seed=9))
    da = rand((4, 4), np.complex128, seed=10)
    (h, q), (dh, dq) = map(lambda t: tuple(map(np.asarray, t)),
                           _jvp(a, da))
    np.testing.assert_array_equal(np.diag(h, -1), 0)
    assert np.isfinite(dh).all() and np.isfinite(dq).all()
    np.testing.assert_allclose(H(q) @ dq + H(dq) @ q, 0, atol=1e-12)


def test_bad_input():
    with pytest.raises(ValueError, match=r"hessenberg_hq.*square.*\(2, 3\)"):
        la.hessenberg_hq(np.ones((2, 3)))
    with pytest.raises(TypeError, match="hessenberg_hq.*int32"):
        la.hessenberg_hq(np.ones((3, 3), np.int32))
    with pytest.raises(ValueError, match="hessenberg"):
        linalg.hessenberg(np.ones((2, 3)))
