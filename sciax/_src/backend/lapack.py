"""Registration of jaxlib's LAPACK kernels as XLA custom-call targets.

After :func:`register_targets` (run once, when the client is created), a
lowering rule can call e.g. ``lapack_dgetrf_ffi`` through
``stablehlo.custom_call`` with ``api_version = 4`` (see :func:`custom_call`).
"""

from __future__ import annotations

import functools
import os
import sys
import types
from collections.abc import Sequence

import numpy as np

from jaxlib import _jax
from jaxlib import lapack as _lapack

from sciax._src.backend.mlir import hlo, ir


@functools.cache
def register_targets() -> tuple[str, ...]:
    """Register every CPU LAPACK FFI kernel of jaxlib; returns their names.

    Cheap (well under a millisecond); the kernels' LAPACK routines are bound
    later, by :func:`initialize`, when a program first calls one.
    """
    names = []
    for name, capsule, api_version in _lapack.registrations().get("cpu", ()):
        _jax.register_custom_call_target(name, capsule, "cpu", api_version)
        names.append(name)
    return tuple(names)


@functools.cache
def initialize() -> None:
    """Bind the kernels to LAPACK routines.

    jaxlib takes the routines from SciPy's ``scipy.linalg.cython_blas`` and
    ``cython_lapack`` extension modules.  Importing them the usual way first
    runs ``scipy/linalg/__init__.py``, about 1 s on a busy machine, paid by
    the first linear-algebra program of every process (with a warm
    compilation cache too).  Unless the user has imported ``scipy.linalg``
    already, a bare stand-in parent package lets only the two extension
    modules load (about 0.1 s); the stand-in and the two modules then leave
    ``sys.modules``, so a later ``import scipy.linalg`` runs normally.
    """
    if "scipy.linalg" in sys.modules:
        _lapack._lapack.initialize()
        return
    try:
        import scipy
    except ImportError:  # jaxlib's own error message says what is missing
        _lapack._lapack.initialize()
        return
    names = ("scipy.linalg.cython_blas", "scipy.linalg.cython_lapack", "scipy.linalg")
    bare = types.ModuleType("scipy.linalg")
    bare.__path__ = [os.path.join(os.path.dirname(scipy.__file__), "linalg")]
    sys.modules["scipy.linalg"] = bare
    try:
        _lapack._lapack.initialize()
    except Exception:  # noqa: BLE001 - retried below through the usual import
        pass
    finally:
        for name in names:
            sys.modules.pop(name, None)
        if scipy.__dict__.get("linalg") is bare:
            del scipy.linalg
    _lapack._lapack.initialize()  # a no-op once bound


def custom_call(
    target: str,
    result_types: Sequence[ir.Type],
    operands: Sequence[ir.Value],
    *,
    backend_config: dict[str, ir.Attribute] | None = None,
    operand_layouts: Sequence[Sequence[int]] | None = None,
    result_layouts: Sequence[Sequence[int]] | None = None,
    output_operand_aliases: dict[int, int] | None = None,
) -> list[ir.Value]:
    """Emit a typed-FFI ``stablehlo.custom_call`` to ``target``.

    Layouts are minor-to-major lists (``[0, 1]`` is column-major for a matrix);
    ``output_operand_aliases`` maps a result index to the operand it reuses.
    """
    # Every program that runs a kernel was lowered through here first (the
    # persistent cache also lowers before it reloads), so binding LAPACK here
    # precedes any call of a kernel.
    initialize()

    def layouts(ls):
        return ir.ArrayAttr.get([
            ir.DenseIntElementsAttr.get(np.asarray(list(layout), dtype=np.int64),
                                        type=ir.IndexType.get())
            for layout in ls
        ])

    attrs = {
        "call_target_name": ir.StringAttr.get(target),
        "api_version": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 4),
        "backend_config": ir.DictAttr.get(backend_config or {}),
    }
    if operand_layouts is not None:
        attrs["operand_layouts"] = layouts(operand_layouts)
    if result_layouts is not None:
        attrs["result_layouts"] = layouts(result_layouts)
    if output_operand_aliases:
        attrs["output_operand_aliases"] = ir.ArrayAttr.get([
            hlo.OutputOperandAlias.get(
                output_tuple_indices=[out] if len(result_types) > 1 else [],
                operand_index=opnd, operand_tuple_indices=[])
            for out, opnd in output_operand_aliases.items()
        ])
    op = hlo.CustomCallOp(list(result_types), list(operands),
                          call_target_name=attrs["call_target_name"],
                          api_version=attrs["api_version"],
                          backend_config=attrs["backend_config"],
                          operand_layouts=attrs.get("operand_layouts"),
                          result_layouts=attrs.get("result_layouts"),
                          output_operand_aliases=attrs.get("output_operand_aliases"))
    return list(op.results)
