"""jaxlib's MLIR bindings, re-exported for lowering rules.

Lowering rules write ``from sciax._src.backend.mlir import ir, hlo`` and never
import jaxlib themselves, so a jaxlib upgrade touches this folder only.
"""

from __future__ import annotations

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo, func
from jaxlib.mlir.dialects import stablehlo as hlo

from sciax._src.core import dtypes

__all__ = ["ir", "hlo", "chlo", "func", "make_context", "dtype_to_ir_type",
           "aval_to_ir_type", "dense_constant"]


def make_context() -> ir.Context:
    """A fresh MLIR context that knows the func, StableHLO and CHLO dialects."""
    ctx = ir.Context()
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx.append_dialect_registry(registry)
    # Load only the dialects that lowering emits: loading every registered one
    # (load_all_available_dialects) took 40-90 ms per context, paid by every
    # lowering, eager single-op programs included; these three take ~1 ms.
    ctx.dialects["func"]  # noqa: B018 - indexing loads the dialect
    hlo.register_dialect(ctx)
    chlo.register_dialect(ctx)
    return ctx


_ir_type_makers = {
    dtypes.bool_: lambda: ir.IntegerType.get_signless(1),
    dtypes.int8: lambda: ir.IntegerType.get_signless(8),
    dtypes.int16: lambda: ir.IntegerType.get_signless(16),
    dtypes.int32: lambda: ir.IntegerType.get_signless(32),
    dtypes.int64: lambda: ir.IntegerType.get_signless(64),
    dtypes.uint8: lambda: ir.IntegerType.get_unsigned(8),
    dtypes.uint16: lambda: ir.IntegerType.get_unsigned(16),
    dtypes.uint32: lambda: ir.IntegerType.get_unsigned(32),
    dtypes.uint64: lambda: ir.IntegerType.get_unsigned(64),
    dtypes.bfloat16: ir.BF16Type.get,
    dtypes.float16: ir.F16Type.get,
    dtypes.float32: ir.F32Type.get,
    dtypes.float64: ir.F64Type.get,
    dtypes.complex64: lambda: ir.ComplexType.get(ir.F32Type.get()),
    dtypes.complex128: lambda: ir.ComplexType.get(ir.F64Type.get()),
}


def dtype_to_ir_type(dtype: np.dtype) -> ir.Type:
    return _ir_type_makers[np.dtype(dtype)]()


def aval_to_ir_type(aval) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(aval.shape, dtype_to_ir_type(aval.dtype))


def dense_constant(value: np.ndarray, dtype: np.dtype | None = None) -> ir.Value:
    """A ``stablehlo.constant`` holding ``value`` (a NumPy array or scalar)."""
    arr = np.asarray(value, dtype=dtype)
    ttype = ir.RankedTensorType.get(arr.shape, dtype_to_ir_type(arr.dtype))
    if arr.dtype == dtypes.bool_:
        attr = ir.DenseElementsAttr.get(
            np.packbits(arr, bitorder="little"), type=ttype, signless=True)
        if arr.size == 1 or arr.size == 0:
            attr = ir.DenseElementsAttr.get(
                np.asarray(arr, np.uint8), type=ttype, signless=True)
    elif arr.dtype == dtypes.bfloat16:
        attr = ir.DenseElementsAttr.get(arr.view(np.uint16), type=ttype)
    else:
        attr = ir.DenseElementsAttr.get(np.ascontiguousarray(arr), type=ttype)
    return hlo.constant(attr)
