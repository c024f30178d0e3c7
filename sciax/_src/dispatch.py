"""Eager execution: each primitive runs as a cached single-op XLA executable.

Eager and compiled code share one semantics because both go through the same
lowering rules; NumPy is only ever a test reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax._src.backend.array import Array, device_put, ndarray_array, scalar_array
from sciax._src.backend.compile import Executable
from sciax._src.config import config
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from sciax._src.core.trace import Primitive, Tracer, UnexpectedTracerError
from sciax._src.interpreters import lowering
from sciax._src.lru import LRUCache

# One-op executables by (primitive, params, avals), and executables of eagerly
# run closed jaxprs (jit_p, checkpoint and custom-rule calls outside any
# transformation) by the jaxpr's structure: a jaxpr traced afresh from the same
# function on every call hits.  Both bounded (config.eager_cache_size).
_primitive_cache: LRUCache = LRUCache("eager_cache_size")
_jaxpr_cache: LRUCache = LRUCache("eager_cache_size")


def _clear_caches(name: str, value: Any) -> None:
    if name == "enable_x64":
        _primitive_cache.clear()
        _jaxpr_cache.clear()


config.on_change(_clear_caches)


_SCALAR_TYPES = (bool, int, float, complex)


def to_buffer(x: Any) -> tuple[Any, ShapedArray]:
    """``(device buffer, aval)`` for an array-like argument of an executable."""
    if type(x) is Array:
        return x._buf, x.aval
    if type(x) in _SCALAR_TYPES:
        arr = scalar_array(x)
        return arr._buf, arr.aval
    if type(x) is np.ndarray:
        arr = ndarray_array(x)
        return arr._buf, arr.aval
    if isinstance(x, Tracer):
        raise UnexpectedTracerError(x)
    get_aval(x)  # TypeError naming the type for anything that is not array-like
    arr = device_put(x)
    return arr._buf, arr.aval


def compile_lowered(module: Any, out_avals: Sequence[ShapedArray]) -> Executable:
    """An executable for a module from :func:`lowering.lower_jaxpr`, with its host
    callbacks; the backend's ``compile_module`` does the compiling."""
    callbacks = lowering.pop_host_callbacks(module)
    return Executable(module, out_avals, host_callbacks=callbacks)


def compile_jaxpr(jaxpr: Jaxpr) -> Executable:
    """Lower and compile a jaxpr (eager ops, ``jit`` and cached closed jaxprs)."""
    return compile_lowered(lowering.lower_jaxpr(jaxpr), jaxpr.out_avals)


def _compile_primitive(prim: Primitive, params: dict, avals: list[ShapedArray]
                       ) -> Executable:
    out = prim.abstract_eval(*avals, **params)
    out_avals = list(out) if prim.multiple_results else [out]
    invars = [Var(a) for a in avals]
    outvars = [Var(a) for a in out_avals]
    jaxpr = Jaxpr([], invars, outvars, [JaxprEqn(prim, invars, outvars, params)])
    return compile_jaxpr(jaxpr)


def apply_primitive(prim: Primitive, *args: Any, **params: Any) -> Any:
    """Run ``prim`` on concrete arguments (the default eager ``impl``)."""
    bufs, avals = [], []
    for x in args:
        if type(x) is Array:
            bufs.append(x._buf)
            avals.append(x.aval)
        else:
            b, a = to_buffer(x)
            bufs.append(b)
            avals.append(a)
    key = (prim, tuple(params.items()), tuple(avals))
    try:
        exe = _primitive_cache.lookup(key)
    except TypeError:
        raise TypeError(f"{prim.name}: parameters must be hashable, got {params}") from None
    if exe is None:
        exe = _primitive_cache.put(key, _compile_primitive(prim, params, avals))
    outs = [Array(b, a) for b, a in zip(exe.execute(bufs), exe.out_avals)]
    return outs if prim.multiple_results else outs[0]


def execute_closed_jaxpr(closed: ClosedJaxpr, *args: Any) -> list[Array]:
    """Compile (once per jaxpr structure) and run a closed jaxpr."""
    entry = _jaxpr_cache.lookup(closed)
    if entry is None:
        exe = compile_jaxpr(closed.jaxpr)
        const_bufs = [to_buffer(c)[0] for c in closed.consts]
        entry = _jaxpr_cache.put(closed, (exe, const_bufs))
    exe, const_bufs = entry
    bufs = [*const_bufs, *(to_buffer(x)[0] for x in args)]
    return [Array(b, a) for b, a in zip(exe.execute(bufs), exe.out_avals)]
