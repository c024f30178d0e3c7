"""Helpers that make defining a primitive a few lines: ``standard_primitive``,
the elementwise shape/dtype rules, dtype-class checks, and argument handling
for the public lax wrappers.

lax is strict: n-ary elementwise primitives need equal shapes and dtypes.
Python scalars are the one convenience: a wrapper converts them to the dtype
of the array operand they meet and broadcasts them to its shape.

Import order inside ``sciax._src.lax``: this module (imports no family) <
``elementwise`` <-> ``shape_ops`` (each imports the other as a module and
looks names up when a rule runs) < ``dot``, ``reductions``, ``indexing``,
``fft`` < ``sort`` (uses ``dot``), ``parallel`` (uses ``reductions``) <
``control_flow`` < ``linalg``.  A family may use a lower one at import time; a
reference upwards is a function-local import that says why.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src import dispatch
from sciax._src.backend.array import Array, device_put
from sciax._src.backend.mlir import hlo, ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.trace import Primitive

# dtype classes, used in primitive definitions and error messages
_bool = frozenset({dtypes.bool_})
_signed = frozenset({dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64})
_unsigned = frozenset({dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64})
_int = _signed | _unsigned
_float = frozenset({dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64})
_complex = frozenset({dtypes.complex64, dtypes.complex128})
_num = _int | _float | _complex
_any = _num | _bool
_inexact = _float | _complex

_class_names = {
    _bool: "bool", _int: "integer", _signed: "signed integer", _float: "floating",
    _complex: "complex", _num: "numeric", _inexact: "floating or complex",
    _int | _bool: "integer or bool", _float | _int: "real numeric",
    _signed | _float | _complex: "signed numeric",
}


def describe(accepted: frozenset) -> str:
    return _class_names.get(accepted) or ", ".join(sorted(str(d) for d in accepted))


def standard_primitive(shape_rule: Callable[..., tuple[int, ...]],
                       dtype_rule: Callable[..., np.dtype], name: str,
                       weak_type_rule: Callable[..., bool] | None = None) -> Primitive:
    """A primitive whose abstract eval is ``ShapedArray(shape_rule, dtype_rule,
    weak_type_rule)`` and whose eager impl is a cached one-op XLA program."""
    prim = Primitive(name)

    def abstract_eval(*avals: ShapedArray, **params: Any) -> ShapedArray:
        shape = shape_rule(*avals, **params)
        dtype = dtype_rule(*avals, **params)
        weak = (weak_type_rule(*avals, **params) if weak_type_rule is not None
                else bool(avals) and all(a.weak_type for a in avals))
        return ShapedArray(shape, dtype, weak)

    prim.def_abstract_eval(abstract_eval)
    prim.def_impl(functools.partial(dispatch.apply_primitive, prim))
    return prim


def multi_result_primitive(abstract_eval: Callable[..., list[ShapedArray]],
                           name: str) -> Primitive:
    prim = Primitive(name, multiple_results=True)
    prim.def_abstract_eval(abstract_eval)
    prim.def_impl(functools.partial(dispatch.apply_primitive, prim))
    return prim


# -- standard rules --------------------------------------------------------------

def check_dtypes(name: str, accepted: Sequence[frozenset], *avals: ShapedArray) -> None:
    for i, (a, ok) in enumerate(zip(avals, accepted)):
        if a.dtype not in ok:
            raise TypeError(f"{name} does not accept dtype {a.dtype} for operand {i}; "
                            f"expected a {describe(ok)} dtype")


def same_shapes(name: str, *avals: ShapedArray) -> tuple[int, ...]:
    shapes = {a.shape for a in avals}
    if len(shapes) > 1:
        raise ValueError(
            f"{name} got incompatible shapes {', '.join(str(a.shape) for a in avals)}; "
            "lax operations need equal shapes (use sciax.numpy for broadcasting)")
    return avals[0].shape


def same_dtypes(name: str, *avals: ShapedArray) -> np.dtype:
    dts = {a.dtype for a in avals}
    if len(dts) > 1:
        raise TypeError(
            f"{name} requires arguments to have the same dtypes, got "
            f"{', '.join(str(a.dtype) for a in avals)} (use sciax.numpy for "
            "promotion, or lax.convert_element_type)")
    return avals[0].dtype


def naryop_dtype_rule(name: str, accepted: Sequence[frozenset], result: Any = None):
    """Checks operand dtype classes and equality; returns ``result(dtype)`` or
    the common dtype."""
    def rule(*avals: ShapedArray, **params: Any) -> np.dtype:
        check_dtypes(name, accepted, *avals)
        dt = same_dtypes(name, *avals)
        return dt if result is None else np.dtype(result(dt))
    return rule


def naryop_shape_rule(name: str):
    def rule(*avals: ShapedArray, **params: Any) -> tuple[int, ...]:
        return same_shapes(name, *avals)
    return rule


def _compare_type(dtype: np.dtype) -> str:
    if dtype in _float or dtype in _complex:
        return "FLOAT"
    if dtype in _signed:
        return "SIGNED"
    return "UNSIGNED"


def _compare(x: ir.Value, y: ir.Value, direction: str, dtype: np.dtype,
             real: bool = False) -> ir.Value:
    """``hlo.compare`` with the comparison type of ``dtype`` (shared by the
    comparison, min/max, sort and reduction lowerings)."""
    ctype = "FLOAT" if real else _compare_type(np.dtype(dtype))
    return hlo.compare(x, y, hlo.ComparisonDirectionAttr.get(direction),
                       compare_type=hlo.ComparisonTypeAttr.get(ctype))


def real_dtype(dt: np.dtype) -> np.dtype:
    return {dtypes.complex64: dtypes.float32,
            dtypes.complex128: dtypes.float64}.get(np.dtype(dt), np.dtype(dt))


def complex_dtype(dt: np.dtype) -> np.dtype:
    return dtypes.complex128 if np.dtype(dt) == dtypes.float64 else dtypes.complex64


# -- argument handling for wrappers ----------------------------------------------

def scalar_array(value: Any, dtype: np.dtype, weak_type: bool = False) -> Array:
    """A 0-d Array of ``dtype`` holding ``value`` (a Python scalar)."""
    return device_put(np.asarray(value, dtype=dtype), weak_type=weak_type)


def coerce_scalars(name: str, *args: Any) -> list[Any]:
    """Give Python scalars in ``args`` the dtype and shape of the array operands.

    With no array operand, scalars stay Python scalars (weakly typed).
    """
    ref = None
    for a in args:
        if not dtypes.is_python_scalar(a):
            ref = get_aval(a)
            break
    if ref is None:
        return list(args)
    # function-local: every family imports this module by name at import time
    from sciax._src.lax.shape_ops import broadcast_in_dim

    out = []
    for a in args:
        if dtypes.is_python_scalar(a):
            a = scalar_array(a, ref.dtype, ref.weak_type)
            if ref.shape:
                a = broadcast_in_dim(a, ref.shape, ())
        out.append(a)
    return out
