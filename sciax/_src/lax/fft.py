"""The fast Fourier transform: ``lax.fft``, one StableHLO ``fft`` op.

``fft(x, fft_type, fft_lengths)`` transforms the trailing ``len(fft_lengths)``
axes of ``x`` (at most 3).  ``fft_type`` is one of

``FFT``
    complex -> complex, unnormalised: ``y[k] = sum_j x[j] exp(-2 pi i jk / n)``.
``IFFT``
    complex -> complex, the inverse (with the ``1/n`` factor).
``RFFT``
    real -> complex; the last axis keeps its ``n // 2 + 1`` non-negative
    frequencies.
``IRFFT``
    complex -> real, the inverse of ``RFFT``; the last input axis must have
    ``n // 2 + 1`` entries and the output has ``fft_lengths[-1]``.

All four are linear, so their JVP is the transform of the tangent; their
transposes are transforms too (the DFT matrix is symmetric).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax import elementwise as ew
from sciax._src.lax import shape_ops
from sciax._src.lax._rules import standard_primitive

ArrayLike = Any

__all__ = ["FftType", "fft", "fft_p"]


class FftType(enum.IntEnum):
    """The four transforms of :func:`fft` (values as in XLA)."""

    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


_complex_of = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}
_real_of = {v: k for k, v in _complex_of.items()}


def _parse_type(fft_type: Any) -> FftType:
    if isinstance(fft_type, FftType):
        return fft_type
    if isinstance(fft_type, str):
        try:
            return FftType[fft_type.upper()]
        except KeyError:
            pass
    else:
        try:
            return FftType(int(fft_type))
        except (TypeError, ValueError):
            pass
    raise ValueError(f"fft: unknown fft_type {fft_type!r}; expected one of "
                     "'FFT', 'IFFT', 'RFFT', 'IRFFT' or an lax.FftType")


def fft(x: ArrayLike, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Any:
    """The discrete Fourier transform of the trailing ``len(fft_lengths)`` axes.

    Parameters
    ----------
    x : array_like
        complex64/complex128 for ``FFT``, ``IFFT`` and ``IRFFT``;
        float32/float64 for ``RFFT``.
    fft_type : FftType or {'FFT', 'IFFT', 'RFFT', 'IRFFT'}
        Which transform (see the module docstring).
    fft_lengths : sequence of int
        The transform length along each of the trailing 1 to 3 axes.

    Returns
    -------
    Array
        Complex, except for ``IRFFT`` (real).

    Examples
    --------
    >>> import numpy as np
    >>> from sciax import lax
    >>> lax.fft(np.array([1.0, 2.0, 3.0, 4.0]), "RFFT", (4,))
    Array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex128)
    """
    lengths = tuple(int(n) for n in fft_lengths)
    return fft_p.bind(x, fft_type=_parse_type(fft_type), fft_lengths=lengths)


def _fft_shape_rule(x: ShapedArray, *, fft_type: FftType,
                    fft_lengths: tuple[int, ...]) -> tuple[int, ...]:
    k = len(fft_lengths)
    if not 1 <= k <= 3:
        raise ValueError(f"fft: 1 to 3 fft_lengths are supported, got {fft_lengths}")
    if x.ndim < k:
        raise ValueError(f"fft: an operand of shape {x.shape} has fewer than the "
                         f"{k} axes of fft_lengths {fft_lengths}")
    if any(n < 0 for n in fft_lengths):
        raise ValueError(f"fft: fft_lengths must be non-negative, got {fft_lengths}")
    lead, tail = x.shape[:-k], x.shape[-k:]
    want = list(fft_lengths)
    if fft_type is FftType.IRFFT:
        want[-1] = fft_lengths[-1] // 2 + 1
    if tuple(want) != tail:
        raise ValueError(f"fft: {fft_type.name} with fft_lengths {fft_lengths} needs "
                         f"trailing axes {tuple(want)}, got operand shape {x.shape}")
    if fft_type is FftType.RFFT:
        return lead + tail[:-1] + (fft_lengths[-1] // 2 + 1,)
    if fft_type is FftType.IRFFT:
        return lead + tail[:-1] + (fft_lengths[-1],)
    return x.shape


def _fft_dtype_rule(x: ShapedArray, *, fft_type: FftType,
                    fft_lengths: tuple[int, ...]) -> np.dtype:
    if fft_type is FftType.RFFT:
        if x.dtype not in _complex_of:
            raise TypeError(f"fft: RFFT needs a float32 or float64 operand, got "
                            f"{x.dtype}")
        return _complex_of[x.dtype]
    if x.dtype not in _real_of:
        raise TypeError(f"fft: {fft_type.name} needs a complex64 or complex128 "
                        f"operand, got {x.dtype}")
    return _real_of[x.dtype] if fft_type is FftType.IRFFT else x.dtype


def _trailing_pad(x: Any, last: int) -> Any:
    """``x`` zero-padded (or sliced) to ``last`` entries on its last axis."""
    shape = get_aval(x).shape
    n = shape[-1]
    if n == last:
        return x
    if n > last:
        return shape_ops.slice(x, (0,) * len(shape), shape[:-1] + (last,))
    zero = ew.convert_element_type(0, get_aval(x).dtype)
    config = [(0, 0, 0)] * (len(shape) - 1) + [(0, last - n, 0)]
    return shape_ops.pad(x, zero, config)


def _fft_transpose(ct: Any, x: Any, *, fft_type: FftType,
                   fft_lengths: tuple[int, ...]) -> list[Any]:
    if fft_type in (FftType.FFT, FftType.IFFT):
        # the (inverse) DFT matrix is symmetric: its transpose is itself
        return [fft(ct, fft_type, fft_lengths)]
    n = fft_lengths[-1]
    if fft_type is FftType.RFFT:
        # rfft = keep the first n//2+1 outputs of fft(complex(x)); transposed:
        # zero-pad the cotangent back to n, fft, and keep the real part (the
        # transpose of embedding reals into complex numbers)
        full = fft(_trailing_pad(ct, n), FftType.FFT, fft_lengths)
        return [ew.real(full)]
    # IRFFT(y) = Re(IFFT(hermitian extension of y)).  Per input frequency k the
    # extension duplicates y[k] (conjugated) at n-k unless k is 0 or n/2, so the
    # transpose is the rfft of the cotangent scaled by 1/N and doubled on the
    # duplicated bins; the conjugate follows the complex cotangent convention
    # (cotangents of complex inputs are conjugates of the gradient of Re).
    y = fft(ct, FftType.RFFT, fft_lengths)
    m = n // 2 + 1
    weights = np.full(m, 2.0)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    dtype = get_aval(y).dtype
    scale = (weights / float(np.prod(fft_lengths))).astype(dtype)
    shape = get_aval(y).shape
    scale_b = shape_ops.broadcast_in_dim(scale, shape, (len(shape) - 1,))
    return [ew.conj(ew.mul(y, scale_b))]


def _fft_batch(vals, dims, *, fft_type, fft_lengths):
    (x,), (d,) = vals, dims
    # the transform acts on trailing axes: put the batch axis in front
    x = batching.bdim_at_front(x, d, get_aval(x).shape[d])
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=fft_lengths), 0


def _fft_lowering(ctx, x, *, fft_type, fft_lengths):
    (out_aval,) = ctx.avals_out
    return hlo.fft(x, hlo.FftTypeAttr.get(fft_type.name),
                   ir.DenseI64ArrayAttr.get(list(fft_lengths)),
                   results=[lowering.aval_to_ir_type(out_aval)])


fft_p = standard_primitive(_fft_shape_rule, _fft_dtype_rule, "fft",
                           lambda x, **params: False)
register_lowering(fft_p, _fft_lowering)
ad.deflinear(fft_p, _fft_transpose)
batching.primitive_batchers[fft_p] = _fft_batch
