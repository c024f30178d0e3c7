"""Bit packing: packbits and unpackbits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.numpy import util

ArrayLike = Any

__all__ = ["packbits", "unpackbits"]


# --- bits ---------------------------------------------------------------------------

def _bit_axis(name: str, a: Any, axis: Any) -> tuple[Any, int]:
    if axis is None:
        return lax.reshape(a, (get_aval(a).size,)), 0
    return a, util.canonicalize_axis(axis, util.ndim(a))


def packbits(a: ArrayLike, axis: int | None = None, bitorder: str = "big") -> Any:
    """Pack the truth values of ``a`` (bool or integer) into uint8 along
    ``axis`` (None: flattened), padding with zeros to a multiple of 8.

    Examples
    --------
    >>> snp.packbits(snp.array([1, 0, 1, 1, 0, 0, 0, 1, 1]))
    Array([177, 128], dtype=uint8)
    """
    a = util.operand("packbits", a)
    if not (dtypes.is_integer(get_aval(a).dtype) or get_aval(a).dtype == dtypes.bool_):
        raise TypeError(f"packbits: expected an input array of integer or boolean data "
                        f"type, got {get_aval(a).dtype}")
    if bitorder not in ("big", "little"):
        raise ValueError(f"packbits: bitorder must be 'big' or 'little', got "
                         f"{bitorder!r}")
    a, ax = _bit_axis("packbits", a, axis)
    bits = util.cast(lax.ne(a, lax.full_like(a, 0)), dtypes.uint8)
    shape = get_aval(bits).shape
    n = shape[ax]
    pad = -n % 8
    if pad:
        widths = [(0, 0, 0)] * len(shape)
        widths[ax] = (0, pad, 0)
        bits = lax.pad(bits, lax.full((), 0, dtypes.uint8), tuple(widths))
    m = (n + pad) // 8
    bits = lax.reshape(bits, (*shape[:ax], m, 8, *shape[ax + 1:]))
    weights = np.array([128, 64, 32, 16, 8, 4, 2, 1] if bitorder == "big"
                       else [1, 2, 4, 8, 16, 32, 64, 128], np.uint8)
    wshape = [1] * (len(shape) + 1)
    wshape[ax + 1] = 8
    w = lax.broadcast_in_dim(lax.convert_element_type(weights.reshape(wshape),
                                                      dtypes.uint8),
                             get_aval(bits).shape, tuple(range(len(shape) + 1)))
    return lax.reduce_sum(lax.mul(bits, w), (ax + 1,))


def unpackbits(a: ArrayLike, axis: int | None = None, count: int | None = None,
               bitorder: str = "big") -> Any:
    """Unpack the uint8 ``a`` into its bits along ``axis`` (None:
    flattened); ``count`` keeps that many bits (negative: drops from the
    end; more than available: pads with zeros).

    Examples
    --------
    >>> snp.unpackbits(snp.array([177], dtype=snp.uint8))
    Array([1, 0, 1, 1, 0, 0, 0, 1], dtype=uint8)
    """
    a = util.operand("unpackbits", a)
    if get_aval(a).dtype != dtypes.uint8:
        raise TypeError(f"unpackbits: expected an input array of unsigned byte data "
                        f"type (uint8), got {get_aval(a).dtype}")
    if bitorder not in ("big", "little"):
        raise ValueError(f"unpackbits: bitorder must be 'big' or 'little', got "
                         f"{bitorder!r}")
    a, ax = _bit_axis("unpackbits", a, axis)
    shape = get_aval(a).shape
    shifts = np.arange(7, -1, -1) if bitorder == "big" else np.arange(8)
    big = (*shape[:ax], shape[ax], 8, *shape[ax + 1:])
    sshape = [1] * len(big)
    sshape[ax + 1] = 8
    s = lax.broadcast_in_dim(lax.convert_element_type(
        shifts.astype(np.uint8).reshape(sshape), dtypes.uint8), big,
        tuple(range(len(big))))
    x = lax.broadcast_in_dim(a, big, tuple(k for k in range(len(big)) if k != ax + 1))
    one = lax.full(big, 1, dtypes.uint8)
    bits = lax.bitwise_and(lax.shift_right_logical(x, s), one)
    n = shape[ax] * 8
    bits = lax.reshape(bits, (*shape[:ax], n, *shape[ax + 1:]))
    if count is not None:
        count = util.concrete_int(count, "unpackbits: count")
        keep = n + count if count < 0 else count
        keep = max(keep, 0)
        if keep <= n:
            bits = lax.slice_in_dim(bits, 0, keep, axis=ax)
        else:
            widths = [(0, 0, 0)] * len(shape)
            widths[ax] = (0, keep - n, 0)
            bits = lax.pad(bits, lax.full((), 0, dtypes.uint8), tuple(widths))
    return bits
