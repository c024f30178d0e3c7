"""The JVP of lax.linalg.schur for real input with complex-conjugate eigenvalue
pairs (a quasi-triangular ``T`` with 2x2 blocks).

For distinct eigenvalues LAPACK's gees output is a smooth function of the
input (SciPy calls the same routine), so ``dT`` and ``dZ`` are compared with
central differences of ``scipy.linalg.schur`` directly, not only through
gauge-invariant functions.  A step of 1e-6 in float64 leaves a truncation error
~1e-12 and a rounding error ~eps * |T| / h ~ 1e-10, times the eigenvalue
conditioning (gaps >= 0.5 below), hence the 1e-6 tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import sciax
import sciax.numpy as snp
from sciax.lax import linalg as la
from sciax.test_util import check_grads


def _pair(re: float, im: float, skew: float) -> np.ndarray:
    # eigenvalues re +- i im; skew != 1 keeps the block away from a scaled
    # rotation (b + c = 0), whose standard form does not fix the basis
    return np.array([[re, im * skew], [-im / skew, re]])


def _similar(blocks: list, seed: int) -> np.ndarray:
    """An orthogonal similarity of a block upper triangular matrix with the
    given diagonal blocks (known spectrum, random Schur basis)."""
    rng = np.random.default_rng(seed)
    b = scipy.linalg.block_diag(*[np.atleast_2d(x) for x in blocks])
    n = len(b)
    b = b + np.triu(rng.normal(size=(n, n)), 1) * 0.5 * (b == 0)
    q = np.linalg.qr(rng.normal(size=(n, n)))[0]
    return q @ b @ q.T


# T's 2x2 blocks at the top, in the middle, at the bottom, and two of them
A4 = np.stack([_similar([_pair(1.0, 1.5, 1.5), -1.0, 2.5], 0),
               _similar([-2.0, _pair(0.5, 1.0, 2.0), 3.0], 1),
               _similar([_pair(1.0, 2.0, 1.3), _pair(-1.0, 0.7, 0.6)], 2)])
A5 = _similar([_pair(0.5, 1.0, 1.5), 3.0, _pair(-2.0, 0.8, 0.7)], 3)


def _n_blocks(t: np.ndarray) -> int:
    return int(np.count_nonzero(np.diagonal(t, -1, -2, -1)))


def _schur_fd(a: np.ndarray, da: np.ndarray, h: float = 1e-6):
    t, z = scipy.linalg.schur(a)
    out = []
    for s in (h, -h):
        ts, zs = scipy.linalg.schur(a + s * da)
        # a column sign is LAPACK's choice: align with the unperturbed basis
        sign = np.sign(np.sum(zs * z, axis=0))
        out.append((ts * np.outer(sign, sign), zs * sign))
    (tp, zp), (tm, zm) = out
    return (tp - tm) / (2 * h), (zp - zm) / (2 * h)


def _jvp(a, da):
    return sciax.jvp(la.schur, (a,), (da,))


def _check_tangents(a, t, z, dt, dz, da):
    n = a.shape[-1]
    assert _n_blocks(t) >= 1
    fd_t, fd_z = _schur_fd(a, da)
    np.testing.assert_allclose(dt, fd_t, atol=1e-6 * max(1.0, np.abs(fd_t).max()))
    np.testing.assert_allclose(dz, fd_z, atol=1e-6 * max(1.0, np.abs(fd_z).max()))
    # the tangent of A = Z T Z^T, exactly (no finite differences)
    recon = dz @ t @ z.T + z @ dt @ z.T + z @ t @ dz.T
    np.testing.assert_allclose(recon, da, atol=1e-10 * np.abs(da).max())
    # Z stays orthogonal, T keeps its structure and its blocks' standard form
    omega = z.T @ dz
    np.testing.assert_allclose(omega, -omega.T, atol=1e-10)
    assert np.all(dt[(t == 0) & np.tri(n, k=-1, dtype=bool)] == 0)
    for k in np.flatnonzero(np.diagonal(t, -1)):
        assert abs(dt[k, k] - dt[k + 1, k + 1]) < 1e-9 * max(1.0, np.abs(dt).max())


@pytest.mark.parametrize("mode,a", [("eager", A4), ("jit", A5)],
                         ids=["eager-batch3x4x4", "jit-5x5"])
def test_schur_jvp_matches_lapack_differences(mode, a):
    da = np.random.default_rng(4).normal(size=a.shape)
    f = _jvp if mode == "eager" else sciax.jit(_jvp)
    (t, z), (dt, dz) = [tuple(map(np.asarray, x)) for x in f(a, da)]
    for idx in np.ndindex(a.shape[:-2]):
        _check_tangents(a[idx], t[idx], z[idx], dt[idx], dz[idx], da[idx])


def test_schur_jvp_vmap_matches_batched_jvp():
    # vmap batches the JVP rule's own loop; a batched operand instead runs it
    # per matrix under an inner vmap
    da = np.random.default_rng(5).normal(size=A4.shape)
    batched = _jvp(A4, da)[1]
    mapped = sciax.jit(sciax.vmap(lambda x, dx: _jvp(x, dx)[1]))(A4, da)
    for got, want in zip(mapped, batched):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), atol=1e-12)


def _scalar_of_schur(x):
    t, z = la.schur(x)
    w = np.arange(16.0).reshape(4, 4) / 16
    return snp.sum(t * t * w) + snp.sum(z ** 3 * w.T)


@pytest.mark.slow  # long: runs in CI's second step
def test_schur_grads_real_pair():
    # first-order forward and reverse mode against central differences
    check_grads(sciax.jit(_scalar_of_schur), (A4[2],), order=1, modes=("fwd", "rev"))


def test_schur_jvp_scaled_rotation_block_is_finite():
    # [[1, -2], [2, 1]] commutes with every rotation: the in-block rotation is
    # not determined, and w = 0 is used; the tangent of A = Z T Z^T still holds
    a = np.array([[1.0, -2.0, 0.3], [2.0, 1.0, 0.5], [0.0, 0.0, 3.0]])
    (t, z), (dt, dz) = [tuple(map(np.asarray, x)) for x in _jvp(a, np.ones((3, 3)))]
    assert t[0, 1] + t[1, 0] == 0
    assert np.all(np.isfinite(dt)) and np.all(np.isfinite(dz))
    recon = dz @ t @ z.T + z @ dt @ z.T + z @ t @ dz.T
    np.testing.assert_allclose(recon, np.ones((3, 3)), atol=1e-12)
