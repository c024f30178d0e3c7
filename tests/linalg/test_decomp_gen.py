"""The generalized eigenproblem (shift and invert) and the CS decomposition
vs scipy.linalg's ggev and orcsd/uncsd: values, structure, jit, vmap,
derivatives, bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from scipy.stats import ortho_group, unitary_group

import sciax
from sciax import linalg
from sciax.linalg._decomp_gen import _eig_generalized, cossin
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


@pytest.mark.slow  # long: runs in CI's second step
def test_public_eig_and_eigvals_route_b():
    a, b = _pencil(3, np.float64, 3)
    w, vr = linalg.eig(a, b)
    _match(np.asarray(w), sl.eig(a, b, right=False), EIG_TOL[np.float64])
    _match(np.asarray(linalg.eigvals(a, b)), sl.eigvals(a, b), EIG_TOL[np.float64])


def test_generalized_eig_infinite_and_singular_pencil():
    a, b = _pencil(4, np.float64, 3)
    b[:, 0] = b[:, 1]  # singular b: one infinite eigenvalue
    (w, _, vr), h = _eig_all(a, b)
    w, vr, h = np.asarray(w), np.asarray(vr), np.asarray(h)
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


# --- cossin ---------------------------------------------------------------------------

def _unitary_batch(m, complex_, seed):
    """A random unitary matrix, the identity (all angles 0) and the reversal
    permutation (angles pi/2 where the blocks allow): the degenerate ends."""
    group = unitary_group if complex_ else ortho_group
    x = group.rvs(m, random_state=seed)
    return np.stack([x, np.eye(m, dtype=x.dtype), np.eye(m, dtype=x.dtype)[::-1]])


@pytest.mark.parametrize("m,p,q,complex_", [(5, 2, 4, False), (5, 4, 2, True),
                                            (6, 4, 5, False)])
def test_cossin_matches_scipy(m, p, q, complex_):
    xs = _unitary_batch(m, complex_, seed=m + p + q)

    def all_forms(x):
        return (cossin(x, p, q), cossin(x, p, q, swap_sign=True),
                cossin(x, p, q, separate=True))

    plain, swapped, (us, theta, vhs) = sciax.jit(sciax.vmap(all_forms))(xs)
    eye = np.eye(m)
    for i, x in enumerate(xs):
        for sw, (u, cs, vdh) in ((False, plain), (True, swapped)):
            u, cs, vdh = np.asarray(u[i]), np.asarray(cs[i]), np.asarray(vdh[i])
            assert u.dtype == vdh.dtype == x.dtype and cs.dtype == np.float64
            np.testing.assert_allclose(u @ cs @ vdh, x, atol=1e-13)
            # block-diagonal unitary factors of the right block sizes
            for f, k in ((u, p), (vdh, q)):
                np.testing.assert_allclose(f @ f.conj().T, eye, atol=1e-13)
                assert not f[:k, k:].any() and not f[k:, :k].any()
            np.testing.assert_allclose(cs, sl.cossin(x, p, q, swap_sign=sw)[1],
                                       atol=1e-12)
        np.testing.assert_allclose(theta[i], sl.cossin(x, p, q, separate=True)[1],
                                   atol=1e-12)
        u1, u2 = (np.asarray(t[i]) for t in us)
        v1h, v2h = (np.asarray(t[i]) for t in vhs)
        np.testing.assert_allclose(sl.block_diag(u1, u2), plain[0][i], atol=0)
        np.testing.assert_allclose(sl.block_diag(v1h, v2h), plain[2][i], atol=0)


def test_cossin_blocks_and_flags():
    x = ortho_group.rvs(4, random_state=3)
    blocks = (x[:1, :3], x[:1, 3:], x[1:, :3], x[1:, 3:])
    f = sciax.jit(lambda x, *b: (cossin(b, compute_u=False),
                                 cossin(x, q=3, compute_vh=False, separate=True)))
    (u, cs, vdh), ((u1, u2), theta, (e1, e2)) = f(x, *blocks)  # p = 1 by default
    assert u.shape == e1.shape == e2.shape == (0, 0) and u1.shape == (1, 1)
    np.testing.assert_allclose(cs, sl.cossin(x, 1, 3)[1], atol=1e-12)
    vdh = np.asarray(vdh)  # unique only up to signs: check it is orthogonal
    np.testing.assert_allclose(vdh @ vdh.T, np.eye(4), atol=1e-13)
    np.testing.assert_allclose(theta, sl.cossin(x, 1, 3, separate=True)[1],
                               atol=1e-12)


def test_cossin_bad_input():
    x = np.eye(4)
    with pytest.raises(ValueError, match="p=4"):
        cossin(x, 4, 2)
    with pytest.raises(ValueError, match="q=0"):
        cossin(x, 2, 0)
    with pytest.raises(ValueError, match="square"):
        cossin(np.ones((3, 4)), 1, 1)
    with pytest.raises(ValueError, match="four arrays"):
        cossin([x, x])
    with pytest.raises(ValueError, match="x12 dimensions"):
        cossin((x[:2, :2], x[:2, :1], x[2:, :2], x[2:, 2:]))
    with pytest.raises(ValueError, match="iterable"):
        cossin(3.0)
    # as in SciPy, unitarity is not checked (traced only: no compile needed)
    sciax.make_jaxpr(lambda x: cossin(x, 2, 2))(2 * x)
