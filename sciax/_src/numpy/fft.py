"""``sciax.numpy.fft``: NumPy's discrete Fourier transforms over :func:`lax.fft`.

Every transform takes NumPy's ``n``/``s`` (crop or zero-pad the input to that
length first), ``axis``/``axes`` and ``norm`` ('backward' (default): no
factor forwards, ``1/n`` backwards; 'ortho': ``1/sqrt(n)`` both ways;
'forward': ``1/n`` forwards, none backwards).  Single precision stays single
(float32 -> complex64) as in NumPy 2; integers and bools transform as the
default float.  XLA transforms at most three axes at once; more are done in
groups of three.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.arrays import device_put
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.numpy import ufuncs, util

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn",
           "ifftn", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift"]

_NORMS = ("backward", "ortho", "forward")
_complex_of = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128),
               np.dtype(np.float16): np.dtype(np.complex64),
               dtypes.bfloat16: np.dtype(np.complex64)}


def _check_norm(name: str, norm: str | None) -> str:
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f"{name}: invalid norm {norm!r}; expected None, 'backward', "
                         "'ortho' or 'forward'")
    return norm


def _as_complex(name: str, a: Any) -> Any:
    a = util.as_operand(name, a)
    dt = get_aval(a).dtype
    if dtypes.is_complex(dt):
        return a
    dt = util.to_inexact_dtype(dt)
    return util.cast(a, dtypes.canonicalize_dtype(_complex_of[dt]))


def _as_real(name: str, a: Any) -> Any:
    a = util.as_operand(name, a)
    dt = get_aval(a).dtype
    if dtypes.is_complex(dt):
        raise TypeError(f"{name} needs a real input, got dtype {dt}; use fft for "
                        "complex data")
    dt = util.to_inexact_dtype(dt)
    if dt in (np.dtype(np.float16), dtypes.bfloat16):
        dt = np.dtype(np.float32)
    return util.cast(a, dt)


def _resize(x: Any, axis: int, n: int) -> Any:
    """``x`` cropped or zero-padded to length ``n`` along ``axis``."""
    shape = get_aval(x).shape
    m = shape[axis]
    if m == n:
        return x
    if m > n:
        return lax.slice(x, (0,) * len(shape),
                         shape[:axis] + (n,) + shape[axis + 1:])
    zero = lax.convert_element_type(0, get_aval(x).dtype)
    config = [(0, 0, 0)] * len(shape)
    config[axis] = (0, n - m, 0)
    return lax.pad(x, zero, config)


def _axes_and_lengths(name: str, a: Any, s: Any, axes: Any, inverse_real: bool,
                      default_all: bool = True) -> tuple[tuple[int, ...],
                                                         tuple[int, ...]]:
    nd = util.ndim(a)
    shape = get_aval(a).shape
    if axes is None:
        if s is None:
            axes = tuple(range(nd)) if default_all else (nd - 1,)
        else:
            s_t = tuple(s)
            axes = tuple(range(nd - len(s_t), nd))
    axes = tuple(util.canonicalize_axis(ax, nd) for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"{name}: repeated axes {axes} are not supported")
    if s is None:
        lengths = [shape[ax] for ax in axes]
        if inverse_real and axes:
            lengths[-1] = 2 * (shape[axes[-1]] - 1)
    else:
        lengths = [util.concrete_int(n, f"{name}: s/n") for n in s]
        if len(lengths) != len(axes):
            raise ValueError(f"{name}: s {tuple(s)} and axes {axes} must have the same "
                             "length")
    if any(n < 1 for n in lengths):
        raise ValueError(f"{name}: invalid number of data points {tuple(lengths)} "
                         "specified (each must be at least 1)")
    return axes, tuple(lengths)


def _scale(x: Any, norm: str, n: int, inverse: bool) -> Any:
    """Apply the factor that turns XLA's convention (no factor forwards,
    ``1/n`` backwards) into ``norm``'s."""
    if norm == "backward" or n == 0:
        return x
    if norm == "ortho":
        factor = math.sqrt(n) if inverse else 1 / math.sqrt(n)
    else:  # forward
        factor = float(n) if inverse else 1 / n
    return ufuncs.multiply(x, factor)


def _transform(name: str, a: Any, s: Any, axes: Any, norm: str | None,
               kind: str, default_all: bool = True) -> Any:
    """The n-dimensional transform ``kind`` in {'fft', 'ifft', 'rfft', 'irfft'}."""
    norm = _check_norm(name, norm)
    a = _as_real(name, a) if kind == "rfft" else _as_complex(name, a)
    axes, lengths = _axes_and_lengths(name, a, s, axes, kind == "irfft", default_all)
    if not axes:
        return a
    # crop or pad each axis (irfft's last axis to the n//2+1 it reads)
    for ax, n in zip(axes, lengths):
        need = n // 2 + 1 if (kind == "irfft" and ax == axes[-1]) else n
        a = _resize(a, ax, need)
    nd = util.ndim(a)
    rest = tuple(d for d in range(nd) if d not in axes)
    perm = rest + axes
    if perm != tuple(range(nd)):
        a = lax.transpose(a, perm)
    k = len(axes)
    if kind in ("fft", "ifft"):
        ftype = "FFT" if kind == "fft" else "IFFT"
        # transforms along different axes commute: groups of at most three
        for lo in range(0, k, 3):
            a = _grouped(a, ftype, lengths, lo, min(lo + 3, k), k)
    elif kind == "rfft":
        hi = max(k - 3, 0)
        a = lax.fft(a, "RFFT", lengths[hi:])
        if hi:
            out_lengths = lengths[:-1] + (lengths[-1] // 2 + 1,)
            a = _fft_leading(a, "FFT", out_lengths, hi, k)
    else:
        hi = max(k - 3, 0)
        if hi:
            in_lengths = lengths[:-1] + (lengths[-1] // 2 + 1,)
            a = _fft_leading(a, "IFFT", in_lengths, hi, k)
        a = lax.fft(a, "IRFFT", lengths[hi:])
    a = _scale(a, norm, math.prod(lengths), kind in ("ifft", "irfft"))
    if perm != tuple(range(nd)):
        a = lax.transpose(a, tuple(np.argsort(perm)))
    return a


def _grouped(a: Any, ftype: str, lengths: tuple[int, ...], lo: int, hi: int,
             k: int) -> Any:
    """Transform the transform axes ``lo:hi`` (of the trailing ``k``)."""
    nd = util.ndim(a)
    if hi == k:
        return lax.fft(a, ftype, lengths[lo:hi])
    first = nd - k
    group = tuple(range(first + lo, first + hi))
    perm = tuple(d for d in range(nd) if d not in group) + group
    out = lax.fft(lax.transpose(a, perm), ftype, lengths[lo:hi])
    return lax.transpose(out, tuple(np.argsort(perm)))


def _fft_leading(a: Any, ftype: str, lengths: tuple[int, ...], hi: int, k: int
                 ) -> Any:
    """Complex transforms of the first ``hi`` of the trailing ``k`` axes."""
    for lo in range(0, hi, 3):
        a = _grouped(a, ftype, lengths, lo, min(lo + 3, hi), k)
    return a


def _one_axis(n: Any, axis: int) -> tuple[Any, tuple[int]]:
    return (None if n is None else (n,)), (axis,)


def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The one-dimensional discrete Fourier transform (``np.fft.fft``).

    Examples
    --------
    >>> snp.fft.fft(snp.array([1.0, 0.0, 0.0, 0.0]))
    Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128)
    """
    s, axes = _one_axis(n, axis)
    return _transform("fft", a, s, axes, norm, "fft")


def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The inverse of :func:`fft` (``np.fft.ifft``).

    Examples
    --------
    >>> snp.fft.ifft(snp.array([4.0, 0.0, 0.0, 0.0]))
    Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128)
    """
    s, axes = _one_axis(n, axis)
    return _transform("ifft", a, s, axes, norm, "ifft")


def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The transform of real input, non-negative frequencies only
    (``np.fft.rfft``).

    Examples
    --------
    >>> snp.fft.rfft(snp.array([1.0, 2.0, 3.0, 4.0]))
    Array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex128)
    """
    s, axes = _one_axis(n, axis)
    return _transform("rfft", a, s, axes, norm, "rfft")


def irfft(a: Any, n: int | None = None, axis: int = -1,
          norm: str | None = None) -> Any:
    """The inverse of :func:`rfft`; ``n`` defaults to ``2 * (m - 1)``
    (``np.fft.irfft``).

    Examples
    --------
    >>> snp.fft.irfft(snp.array([10.0, -2 + 2j, -2.0]))
    Array([1., 2., 3., 4.], dtype=float64)
    """
    s, axes = _one_axis(n, axis)
    return _transform("irfft", a, s, axes, norm, "irfft")


def fftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str | None = None) -> Any:
    """The n-dimensional transform (``np.fft.fftn``; all axes by default).

    Examples
    --------
    >>> snp.fft.fftn(snp.ones((2, 2))).real
    Array([[4., 0.],
           [0., 0.]], dtype=float64)
    """
    return _transform("fftn", a, s, axes, norm, "fft")


def ifftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None) -> Any:
    """The inverse of :func:`fftn` (``np.fft.ifftn``).

    Examples
    --------
    >>> snp.fft.ifftn(snp.array([[4.0, 0.0], [0.0, 0.0]])).real
    Array([[1., 1.],
           [1., 1.]], dtype=float64)
    """
    return _transform("ifftn", a, s, axes, norm, "ifft")


def rfftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None) -> Any:
    """The n-dimensional transform of real input (``np.fft.rfftn``): the last
    transformed axis keeps ``n // 2 + 1`` frequencies.

    Examples
    --------
    >>> snp.fft.rfftn(snp.ones((2, 4))).shape
    (2, 3)
    """
    return _transform("rfftn", a, s, axes, norm, "rfft")


def irfftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: str | None = None) -> Any:
    """The inverse of :func:`rfftn` (``np.fft.irfftn``).

    Examples
    --------
    >>> snp.fft.irfftn(snp.fft.rfftn(snp.ones((2, 4)))).shape
    (2, 4)
    """
    return _transform("irfftn", a, s, axes, norm, "irfft")


def fft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
         norm: str | None = None) -> Any:
    """The two-dimensional transform (``np.fft.fft2``).

    Examples
    --------
    >>> snp.fft.fft2(snp.ones((2, 2)))[0, 0]
    Array(4.+0.j, dtype=complex128)
    """
    return _transform("fft2", a, s, axes, norm, "fft")


def ifft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Any:
    """The inverse of :func:`fft2` (``np.fft.ifft2``).

    Examples
    --------
    >>> snp.fft.ifft2(snp.full((2, 2), 4.0))[0, 0]
    Array(4.+0.j, dtype=complex128)
    """
    return _transform("ifft2", a, s, axes, norm, "ifft")


def rfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Any:
    """The two-dimensional transform of real input (``np.fft.rfft2``).

    Examples
    --------
    >>> snp.fft.rfft2(snp.ones((2, 4))).shape
    (2, 3)
    """
    return _transform("rfft2", a, s, axes, norm, "rfft")


def irfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
           norm: str | None = None) -> Any:
    """The inverse of :func:`rfft2` (``np.fft.irfft2``).

    Examples
    --------
    >>> snp.fft.irfft2(snp.fft.rfft2(snp.ones((2, 4)))).shape
    (2, 4)
    """
    return _transform("irfft2", a, s, axes, norm, "irfft")


_swap = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """The transform of a Hermitian-symmetric signal given by its first half:
    a real spectrum (``np.fft.hfft``).

    Examples
    --------
    >>> snp.fft.hfft(snp.array([1.0, 2.0, 3.0]))
    Array([ 8., -2.,  0., -2.], dtype=float64)
    """
    norm = _check_norm("hfft", norm)
    a = ufuncs.conjugate(_as_complex("hfft", a))
    return irfft(a, n, axis, _swap[norm])


def ihfft(a: Any, n: int | None = None, axis: int = -1,
          norm: str | None = None) -> Any:
    """The inverse of :func:`hfft` (``np.fft.ihfft``).

    Examples
    --------
    >>> snp.fft.ihfft(snp.array([8.0, -2.0, 0.0, -2.0]))
    Array([1.-0.j, 2.-0.j, 3.-0.j], dtype=complex128)
    """
    norm = _check_norm("ihfft", norm)
    return ufuncs.conjugate(rfft(a, n, axis, _swap[norm]))


def _freq_dtype(dtype: Any) -> np.dtype:
    if dtype is None:
        return dtypes.default_float()
    return dtypes.canonicalize_dtype(np.dtype(dtype))


def fftfreq(n: int, d: Any = 1.0, *, dtype: Any = None, device: Any = None) -> Any:
    """The sample frequencies of :func:`fft`'s outputs, in cycles per unit of
    the sample spacing ``d`` (``np.fft.fftfreq``).

    Examples
    --------
    >>> snp.fft.fftfreq(4, d=0.5)
    Array([ 0. ,  0.5, -1. , -0.5], dtype=float64)
    """
    n = util.concrete_int(n, "fftfreq: n")
    if n < 1:
        raise ValueError(f"fftfreq: n must be positive, got {n}")
    k = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return _freqs(k, n, d, dtype)


def rfftfreq(n: int, d: Any = 1.0, *, dtype: Any = None, device: Any = None) -> Any:
    """The sample frequencies of :func:`rfft`'s outputs (``np.fft.rfftfreq``).

    Examples
    --------
    >>> snp.fft.rfftfreq(4)
    Array([0.  , 0.25, 0.5 ], dtype=float64)
    """
    n = util.concrete_int(n, "rfftfreq: n")
    if n < 1:
        raise ValueError(f"rfftfreq: n must be positive, got {n}")
    return _freqs(np.arange(0, n // 2 + 1), n, d, dtype)


def _freqs(k: np.ndarray, n: int, d: Any, dtype: Any) -> Any:
    dt = _freq_dtype(dtype)
    if isinstance(d, int | float | np.number):
        return device_put((k / (float(d) * n)).astype(dt))
    # a traced spacing: the integer frequencies are static, the scale is not
    k_arr = util.cast(device_put(k.astype(dt)), dt)
    return ufuncs.divide(k_arr, ufuncs.multiply(util.cast(d, dt), float(n)))


def _roll_axes(name: str, x: Any, axes: Any, sign: int) -> Any:
    x = util.as_operand(name, x)
    if dtypes.is_python_scalar(x):
        x = util.cast(x, dtypes.python_scalar_dtype(x))
    shape = get_aval(x).shape
    if axes is None:
        axes = tuple(range(len(shape)))
    elif isinstance(axes, int | np.integer):
        axes = (axes,)
    for ax in axes:
        ax = util.canonicalize_axis(ax, len(shape))
        n = shape[ax]
        shift = (sign * (n // 2)) % n if n else 0
        if shift == 0:
            continue
        # roll right by `shift`: the last `shift` entries come first
        lo = lax.slice_in_dim(x, n - shift, n, axis=ax)
        hi = lax.slice_in_dim(x, 0, n - shift, axis=ax)
        x = lax.concatenate([lo, hi], ax)
    return x


def fftshift(x: Any, axes: Any = None) -> Any:
    """Move the zero frequency to the centre (``np.fft.fftshift``).

    Examples
    --------
    >>> snp.fft.fftshift(snp.fft.fftfreq(5))
    Array([-0.4, -0.2,  0. ,  0.2,  0.4], dtype=float64)
    """
    return _roll_axes("fftshift", x, axes, 1)


def ifftshift(x: Any, axes: Any = None) -> Any:
    """The inverse of :func:`fftshift` (``np.fft.ifftshift``).

    Examples
    --------
    >>> snp.fft.ifftshift(snp.fft.fftshift(snp.arange(5)))
    Array([0, 1, 2, 3, 4], dtype=int64)
    """
    return _roll_axes("ifftshift", x, axes, -1)
