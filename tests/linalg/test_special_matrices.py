"""sciax.linalg special matrices vs scipy.linalg: values and dtypes, SciPy 1.17's
batch convention, jit, derivatives of the array-built ones, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
import sciax.linalg as sla
from sciax.test_util import check_grads

RNG = np.random.default_rng(3)


def _eq(got, want, exact=False):
    got = np.asarray(got)
    assert got.shape == np.shape(want)
    if exact:
        assert got.dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14)


@pytest.mark.slow  # long: runs in CI's second step
def test_toeplitz_circulant_hankel():
    c = RNG.normal(size=4) + 1j * RNG.normal(size=4)
    r = RNG.normal(size=3)
    _eq(sla.toeplitz(c), sl.toeplitz(c))
    _eq(sla.toeplitz(c, r), sl.toeplitz(c, r))
    _eq(sla.toeplitz(c.real), sl.toeplitz(c.real))
    _eq(sla.circulant(c), sl.circulant(c))
    _eq(sla.hankel(c), sl.hankel(c))
    _eq(sla.hankel(c, r), sl.hankel(c, r))
    _eq(sla.toeplitz([1, 2, 3]), sl.toeplitz([1, 2, 3]), exact=True)
    _eq(sla.toeplitz(5.0), sl.toeplitz(5.0))


def test_batches_follow_scipy_117():
    c = RNG.normal(size=(2, 4))
    _eq(sla.toeplitz(c), sl.toeplitz(c))
    _eq(sla.circulant(c), sl.circulant(c))
    _eq(sla.companion(c), sl.companion(c))
    _eq(sla.fiedler(c), sl.fiedler(c))
    _eq(sla.fiedler_companion(c), sl.fiedler_companion(c))
    _eq(sla.leslie(c, c[:, 1:]), sl.leslie(c, c[:, 1:]))
    _eq(sla.convolution_matrix(c, 3, "same"), sl.convolution_matrix(c, 3, "same"))
    # hankel: leading axes are batch axes (SciPy from 1.19)
    _eq(sla.hankel(c), np.stack([sl.hankel(x) for x in c]))
    _eq(sciax.vmap(sla.toeplitz)(c, c[:, :3]), np.stack([sl.toeplitz(x, x[:3]) for x in c]))


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("size", [2, 3, 4, 5, 7])
def test_companions_and_convolution(size):
    a = RNG.normal(size=size)
    _eq(sla.companion(a), sl.companion(a))
    _eq(sla.fiedler_companion(a), sl.fiedler_companion(a))
    _eq(sla.fiedler(a), sl.fiedler(a))
    for n in (1, 3, 6):
        for mode in ("full", "same", "valid"):
            _eq(sla.convolution_matrix(a, n, mode), sl.convolution_matrix(a, n, mode))


def test_leslie_block_diag_kron_khatri_rao():
    _eq(sla.leslie([0.1, 2.0, 1.5], [0.2, 0.8]), sl.leslie([0.1, 2.0, 1.5], [0.2, 0.8]))
    blocks = ([[1, 2]], 3, RNG.normal(size=(2, 2)), np.zeros((0, 2)), [[1j]])
    _eq(sla.block_diag(*blocks), sl.block_diag(*blocks))
    _eq(sla.block_diag(), sl.block_diag())
    _eq(sla.block_diag([1, 2], [[3]]), sl.block_diag([1, 2], [[3]]), exact=True)
    a, b = RNG.normal(size=(3, 2)), RNG.normal(size=(4, 2))
    _eq(sla.kron(a, b), np.kron(a, b))
    _eq(sla.kron(a[0], b), np.kron(a[0], b))
    _eq(sla.khatri_rao(a, b), sl.khatri_rao(a, b))


def test_constant_matrices():
    for n in range(0, 8):
        _eq(sla.hilbert(n), sl.hilbert(n))
        _eq(sla.invhilbert(n), sl.invhilbert(n))
        _eq(sla.invhilbert(n, exact=True), sl.invhilbert(n, exact=True), exact=True)
        for kind in ("symmetric", "lower", "upper"):
            _eq(sla.pascal(n, kind), sl.pascal(n, kind), exact=True)
            _eq(sla.pascal(n, kind, exact=False), sl.pascal(n, kind, exact=False))
            _eq(sla.invpascal(n, kind), sl.invpascal(n, kind), exact=True)
        for scale in (None, "sqrtn", "n"):
            _eq(sla.dft(n, scale), sl.dft(n, scale))
        if n:
            _eq(sla.helmert(n), sl.helmert(n))
            _eq(sla.helmert(n, full=True), sl.helmert(n, full=True))
    for n in (1, 2, 8):
        _eq(sla.hadamard(n), sl.hadamard(n), exact=True)
        _eq(sla.hadamard(n, dtype=float), sl.hadamard(n, dtype=float), exact=True)


def test_jit_and_grads():
    c, r = RNG.normal(size=3), RNG.normal(size=4)
    _eq(sciax.jit(sla.toeplitz)(c, r), sl.toeplitz(c, r))
    check_grads(sla.toeplitz, (c, r), order=1, modes=("fwd", "rev"))
    check_grads(sla.circulant, (c,), order=1, modes=("fwd", "rev"))
    check_grads(sla.companion, (c,), order=1, modes=("fwd", "rev"))
    check_grads(sla.fiedler_companion, (r,), order=1, modes=("rev",))
    check_grads(lambda a, b: sla.block_diag(a, b), (c[:, None], r[None, :]), order=1,
                modes=("rev",))


def test_bad_input():
    with pytest.raises(ValueError, match="hadamard: n must be .* power of 2"):
        sla.hadamard(6)
    with pytest.raises(ValueError, match="block_diag: .* dimension greater than 2: \\[1\\]"):
        sla.block_diag(1, np.ones((1, 1, 1)))
    with pytest.raises(ValueError, match="companion: the length of a must be at least 2"):
        sla.companion([1.0])
    with pytest.raises(ValueError, match="leslie: incorrect lengths"):
        sla.leslie([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="khatri_rao: the number of columns"):
        sla.khatri_rao(np.ones((2, 2)), np.ones((2, 3)))
    with pytest.raises(ValueError, match="convolution_matrix: 'mode'"):
        sla.convolution_matrix([1.0], 2, "circular")
    with pytest.raises(ValueError, match="convolution_matrix: n must be a positive"):
        sla.convolution_matrix([1.0], 0)
    with pytest.raises(ValueError, match="pascal: kind must be"):
        sla.pascal(3, kind="diag")
    with pytest.raises(ValueError, match="dft: scale must be"):
        sla.dft(3, scale="unitary")
    with pytest.raises(TypeError, match="hilbert: n must be an integer"):
        sla.hilbert(2.5)
    with pytest.raises(OverflowError, match="invhilbert"):
        sla.invhilbert(16, exact=True)
    # a zero leading coefficient cannot raise under jit: infs/NaNs as documented
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert not np.isfinite(np.asarray(sla.companion([0.0, 1.0, 2.0]))).all()
