"""Shape primitives: broadcast_in_dim, reshape, transpose, squeeze,
expand_dims, rev, pad, concatenate, iota."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray
from sciax._src.interpreters import lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax._rules import standard_primitive

ArrayLike = Any


def _as_shape(shape: Any, what: str) -> tuple[int, ...]:
    try:
        out = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"{what}: shape must be a sequence of integers, got {shape!r}") from None
    if any(d < 0 for d in out):
        raise ValueError(f"{what}: shape {out} has a negative dimension")
    return out


# --- broadcast_in_dim --------------------------------------------------------------

def broadcast_in_dim(operand: ArrayLike, shape: Sequence[int],
                     broadcast_dimensions: Sequence[int]) -> Any:
    """Broadcast ``operand`` to ``shape``; operand axis ``i`` maps to output axis
    ``broadcast_dimensions[i]`` (its size must equal it or be 1)."""
    return broadcast_in_dim_p.bind(
        operand, shape=_as_shape(shape, "broadcast_in_dim"),
        broadcast_dimensions=tuple(operator.index(d) for d in broadcast_dimensions))


def _broadcast_in_dim_shape_rule(x: ShapedArray, *, shape: tuple[int, ...],
                                 broadcast_dimensions: tuple[int, ...]) -> tuple[int, ...]:
    if len(broadcast_dimensions) != x.ndim:
        raise ValueError(
            f"broadcast_in_dim: broadcast_dimensions {broadcast_dimensions} must have one "
            f"entry per operand axis (operand shape {x.shape})")
    if any(not 0 <= d < len(shape) for d in broadcast_dimensions) or \
            list(broadcast_dimensions) != sorted(set(broadcast_dimensions)):
        raise ValueError(
            f"broadcast_in_dim: broadcast_dimensions {broadcast_dimensions} must be "
            f"strictly increasing axes of the output shape {shape}")
    for i, d in enumerate(broadcast_dimensions):
        if x.shape[i] not in (1, shape[d]):
            raise ValueError(
                f"broadcast_in_dim: operand shape {x.shape} cannot be broadcast to "
                f"{shape}: axis {i} has size {x.shape[i]}, output axis {d} has size "
                f"{shape[d]}")
    return shape


def _broadcast_in_dim_lowering(ctx, x, *, shape, broadcast_dimensions):
    return hlo.broadcast_in_dim(lowering.aval_to_ir_type(ctx.avals_out[0]), x,
                                ir.DenseI64ArrayAttr.get(list(broadcast_dimensions)))


broadcast_in_dim_p = standard_primitive(_broadcast_in_dim_shape_rule,
                                        lambda x, **p: x.dtype, "broadcast_in_dim")
register_lowering(broadcast_in_dim_p, _broadcast_in_dim_lowering)


# --- reshape -----------------------------------------------------------------------

def reshape(operand: ArrayLike, new_sizes: Sequence[int]) -> Any:
    """Reshape ``operand`` (row-major) to ``new_sizes``; sizes must match."""
    from sciax._src.core.avals import get_aval

    new_sizes = _as_shape(new_sizes, "reshape")
    if get_aval(operand).shape == new_sizes:
        return operand
    return reshape_p.bind(operand, new_sizes=new_sizes)


def _reshape_shape_rule(x: ShapedArray, *, new_sizes: tuple[int, ...]) -> tuple[int, ...]:
    if int(np.prod(new_sizes)) != x.size:
        raise ValueError(f"reshape: cannot reshape an array of shape {x.shape} "
                         f"({x.size} elements) into shape {new_sizes}")
    return new_sizes


reshape_p = standard_primitive(_reshape_shape_rule, lambda x, **p: x.dtype, "reshape")
register_lowering(reshape_p, lambda ctx, x, *, new_sizes: hlo.reshape(
    lowering.aval_to_ir_type(ctx.avals_out[0]), x))
