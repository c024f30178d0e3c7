"""The generalized eigenproblem (shift and invert) and the CS decomposition
vs scipy.linalg's ggev and orcsd/uncsd: values, structure, jit, vmap,
derivatives, bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
from sciax.linalg._decomp_gen import _eig_generalized
from tests.linalg.test_solve import rand

# Eigenvalues of a random 4x4 pencil have condition numbers up to ~1e2.
EIG_TOL = {np.float32: 2e-3, np.float64: 1e-10, np.complex128: 1e-10}


def _match(got, want, tol):
    """Eigenvalues as multisets: each of ``want`` (finite) has its own nearest
    element of ``got`` (greedy; the spectra here are well separated)."""
    got = list(np.asarray(got))
    for w in want:
        k = int(np.argmin([abs(g - w) for g in got]))
        assert abs(got[k] - w) <= tol * max(1.0, abs(w)), (got, want)
        got.pop(k)


# One compile per dtype (eager dispatch would compile every op separately):
# eigenvalues, left and right vectors, then the homogeneous eigenvalues.
_eig_all = sciax.jit(lambda a, b: (_eig_generalized(a, b, True, True),
                                   _eig_generalized(a, b, False, False, True)))


def _pencil(n, dtype, seed):
    return rand((n, n), dtype, seed), rand((n, n), dtype, seed + 10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_generalized_eig_matches_ggev(dtype):
    a, b = _pencil(4, dtype, 0)
    (w, vl, vr), h = _eig_all(a, b)
    w, vl, vr, h = map(np.asarray, (w, vl, vr, h))
    assert w.dtype == vr.dtype == np.result_type(dtype, np.complex64)
    tol = EIG_TOL[dtype]
    _match(w, sl.eig(a, b, right=False), tol)
    # vectors are unique up to scale: residuals, unit norms
    scale = np.abs(w).max() * np.abs(b).max() + np.abs(a).max()
    assert np.abs(a @ vr - (b @ vr) * w).max() <= 10 * tol * scale
    left = vl.conj().T
    assert np.abs(left @ a - w[:, None] * (left @ b)).max() <= 10 * tol * scale
    np.testing.assert_allclose(np.linalg.norm(vr, axis=0), 1, rtol=tol)
    np.testing.assert_allclose(np.linalg.norm(vl, axis=0), 1, rtol=tol)
    # homogeneous: beta real and nonnegative, same ratios
    assert h.shape == (2, 4) and np.all(h[1].imag == 0) and np.all(h[1].real >= 0)
    np.testing.assert_allclose(h[0] / h[1], w, rtol=tol)


def test_generalized_eig_infinite_and_singular_pencil():
    a, b = _pencil(4, np.float64, 3)
    b[:, 0] = b[:, 1]  # singular b: one infinite eigenvalue
    (w, _, vr), h = map(np.asarray, _eig_all(a, b)[0]), np.asarray(_eig_all(a, b)[1])
    want = sl.eigvals(a, b)
    assert np.sum(np.isinf(w)) == np.sum(np.isinf(want)) == 1
    _match(w[np.isfinite(w)], want[np.isfinite(want)], 1e-10)
    assert np.sum(h[1] == 0) == 1 and np.all(h[0] != 0)
    hs = sl.eigvals(a, b, homogeneous_eigvals=True)  # same ratios, other scale
    _match(h[1] / h[0], hs[1] / hs[0], 1e-10)
    inf_vec = vr[:, np.isinf(w)][:, 0]
    assert np.linalg.norm(b @ inf_vec) < 1e-12  # b v = 0
    # det(a - lambda b) == 0 for all lambda: a common null row
    a[0], b[0] = 0, 0
    for out in _eig_all(a, b)[0]:
        assert np.all(np.isnan(np.asarray(out)))


def test_generalized_eig_vmap_and_grad():
    a, b = _pencil(3, np.float64, 5)
    a = a + np.diag([4.0, 0.0, -4.0])  # real, well separated eigenvalues
    batch_a = np.stack([a, a.T, 2 * a])
    f = sciax.jit(sciax.vmap(lambda a, b: _eig_generalized(a, b, False, True),
                             in_axes=(0, None)))
    w, vr = map(np.asarray, f(batch_a, b))
    for i in range(3):
        _match(w[i], sl.eigvals(batch_a[i], b), 1e-10)
        res = batch_a[i] @ vr[i] - (b @ vr[i]) * w[i]
        assert np.abs(res).max() < 1e-10

    # a gauge-invariant function of the eigenvalues vs central differences
    # of the same function computed by ggev (error ~ h^2 + eps / h ~ 1e-10)
    def ours(a, b):
        return sciax.numpy.sum(sciax.numpy.abs(_eig_generalized(a, b, False, False))
                               ** 2)

    def theirs(a, b):
        return np.sum(np.abs(sl.eigvals(a, b)) ** 2)

    ga, gb = map(np.asarray, sciax.jit(sciax.grad(ours, argnums=(0, 1)))(a, b))
    da, db, h = rand((3, 3), seed=7), rand((3, 3), seed=8), 1e-5
    fd = (theirs(a + h * da, b + h * db) - theirs(a - h * da, b - h * db)) / (2 * h)
    np.testing.assert_allclose(np.sum(ga * da) + np.sum(gb * db), fd, rtol=1e-6)


def test_generalized_eig_bad_input():
    with pytest.raises(ValueError, match="same shape"):
        _eig_generalized(np.eye(3), np.eye(2))
    with pytest.raises(ValueError, match="square"):
        _eig_generalized(np.eye(3), np.ones((3, 2)))
