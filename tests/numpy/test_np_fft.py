"""sciax.numpy.fft against numpy.fft (n/s, axes, norms), eagerly and under jit,
plus derivatives, vmap and bad input."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax.test_util import check_batching, check_grads

RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 4, 6))
Z = X + 1j * RNG.normal(size=X.shape)


def _close(got, want, tol=1e-10):
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, atol=tol, rtol=tol)


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_one_dimensional(name, norm):
    a = X if name in ("rfft", "ihfft") else Z
    for n, axis in [(None, -1), (5, 1), (8, 0)]:
        _close(getattr(snp.fft, name)(a, n, axis, norm),
               getattr(np.fft, name)(a, n, axis, norm))


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2",
                                  "rfft2", "irfft2"])
def test_multi_dimensional(name):
    a = X if name.startswith("rfft") else Z
    fn, ref = getattr(snp.fft, name), getattr(np.fft, name)
    _close(fn(a), ref(a))
    _close(fn(a, (4, 4), (0, 2), "ortho"), ref(a, (4, 4), (0, 2), "ortho"))
    _close(sciax.jit(lambda v: fn(v, axes=(2, 0)))(a), ref(a, axes=(2, 0)))


def test_more_than_three_axes_and_dtypes():
    a = RNG.normal(size=(2, 3, 2, 4))
    _close(snp.fft.fftn(a), np.fft.fftn(a))
    _close(snp.fft.rfftn(a), np.fft.rfftn(a))
    _close(snp.fft.irfftn(np.fft.rfftn(a), a.shape), a)
    assert snp.fft.fft(np.ones(4, np.float32)).dtype == np.complex64
    assert snp.fft.rfft(np.arange(4)).dtype == np.fft.rfft(np.arange(4)).dtype


def test_freqs_and_shifts():
    for n in (1, 4, 5):
        _close(snp.fft.fftfreq(n, 0.3), np.fft.fftfreq(n, 0.3))
        _close(snp.fft.rfftfreq(n), np.fft.rfftfreq(n))
        m = np.arange(3 * n).reshape(n, 3)
        _close(snp.fft.fftshift(m), np.fft.fftshift(m))
        _close(snp.fft.ifftshift(m, axes=0), np.fft.ifftshift(m, axes=0))
    _close(sciax.jit(lambda d: snp.fft.fftfreq(4, d))(0.5), np.fft.fftfreq(4, 0.5))


def test_grads_and_vmap():
    x, z = X[0, :, :5], Z[0]
    check_grads(lambda a: snp.fft.fft(a, axis=0), (z,), order=2, modes=("fwd", "rev"))
    check_grads(lambda a: snp.fft.rfft2(a, norm="ortho"), (x,), order=1)
    check_grads(lambda a: snp.fft.irfft(a, 7), (z,), order=1)
    check_grads(lambda a: snp.fft.ihfft(a, 6), (x,), order=1)
    check_batching(lambda a: snp.fft.fftn(a), (Z,), in_axes=1)
    check_batching(lambda a: snp.fft.irfft(a), (Z,), in_axes=2)


def test_bad_input():
    with pytest.raises(ValueError, match="invalid norm"):
        snp.fft.fft(Z, norm="bad")
    with pytest.raises(TypeError, match="real input"):
        snp.fft.rfft(Z)
    with pytest.raises(ValueError, match="number of data points"):
        snp.fft.fft(Z, 0)
    with pytest.raises(np.exceptions.AxisError):
        snp.fft.fft(Z, axis=3)
    with pytest.raises(ValueError, match="fft_lengths"):
        sciax.lax.fft(Z, "FFT", (5,))
    with pytest.raises(TypeError, match="complex64 or complex128"):
        sciax.lax.fft(X, "FFT", (6,))
