"""Lowering jaxprs to StableHLO modules.

Lowering is an interpreter like any other: :func:`jaxpr_subcomp` walks the
equations and calls each primitive's rule, registered beside the primitive
with :func:`register_lowering`.  A rule has the signature
``rule(ctx, *operands, **params) -> ir.Value | list[ir.Value]``, where
``ctx.avals_in`` / ``ctx.avals_out`` give the abstract values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import (aval_to_ir_type, dense_constant, func, hlo, ir,
                                     make_context)
from sciax._src.config import config
from sciax._src.core.avals import ShapedArray
from sciax._src.core.jaxpr import Jaxpr, Literal, Var
from sciax._src.core.trace import Primitive
from sciax._src.interpreters.partial_eval import trace_to_jaxpr
from sciax._src.util import safe_map

_lowerings: dict[Primitive, Callable[..., Any]] = {}


def register_lowering(prim: Primitive, rule: Callable[..., Any]) -> None:
    """Register ``rule(ctx, *operands, **params)`` as the lowering of ``prim``."""
    _lowerings[prim] = rule


def has_lowering(prim: Primitive) -> bool:
    return prim in _lowerings


class ModuleContext:
    __slots__ = ("context", "module", "host_callbacks", "effect_tokens")

    def __init__(self, context: ir.Context, module: ir.Module):
        self.context = context
        self.module = module
        # Python functions called from the compiled code, by index (debug.print)
        self.host_callbacks: list[Callable[..., Any]] = []
        # the latest ordering token (!stablehlo.token) of each block, threaded
        # through side-effecting custom calls so they run in program order
        self.effect_tokens: dict[ir.Block, ir.Value] = {}

    def add_host_callback(self, fn: Callable[..., Any]) -> int:
        self.host_callbacks.append(fn)
        return len(self.host_callbacks) - 1


class LoweringRuleContext:
    __slots__ = ("module_ctx", "primitive", "avals_in", "avals_out")

    def __init__(self, module_ctx: ModuleContext, primitive: Primitive | None,
                 avals_in: Sequence[ShapedArray], avals_out: Sequence[ShapedArray]):
        self.module_ctx = module_ctx
        self.primitive = primitive
        self.avals_in = list(avals_in)
        self.avals_out = list(avals_out)


def ir_constant(val: Any, aval: ShapedArray) -> ir.Value:
    return dense_constant(np.asarray(val, dtype=aval.dtype))


def jaxpr_subcomp(mctx: ModuleContext, jaxpr: Jaxpr, args: Sequence[ir.Value]
                  ) -> list[ir.Value]:
    """Emit ``jaxpr`` at the current insertion point; ``args`` feed its
    constvars then its invars.  Returns the output values."""
    env: dict[Var, ir.Value] = {}

    def read(a: Any) -> ir.Value:
        return ir_constant(a.val, a.aval) if type(a) is Literal else env[a]

    safe_map(env.__setitem__, [*jaxpr.constvars, *jaxpr.invars], args)
    for eqn in jaxpr.eqns:
        rule = _lowerings.get(eqn.primitive)
        if rule is None:
            raise NotImplementedError(
                f"no lowering rule for primitive {eqn.primitive.name!r}")
        ctx = LoweringRuleContext(mctx, eqn.primitive, [a.aval for a in eqn.invars],
                                  [v.aval for v in eqn.outvars])
        outs = rule(ctx, *map(read, eqn.invars), **eqn.params)
        if isinstance(outs, ir.Value):
            outs = [outs]
        elif not isinstance(outs, list):
            outs = list(outs)
        safe_map(env.__setitem__, eqn.outvars, outs)
    return [read(v) for v in jaxpr.outvars]


# One kernel for a small program of many outputs.  XLA's CPU runtime runs a
# program's kernels one after another when there are at most 8 of them (or all
# its buffers are at most 512 bytes); beyond that it hands ready kernels to its
# thread pool and waits for them, which for microsecond kernels costs more than
# the kernels (ten 8 kB additions, executed: 39 us, against 14 us as one
# kernel).  A program whose every equation is exact elementwise or layout work
# on real or integer values of at most _SMALL_BYTES (and at most
# ``config.cpu_loop_kernel_bytes``; 0 turns this off), with more outputs than
# that limit (each output is at least one kernel: a pytree of parameters
# updated leaf by leaf, say), is therefore lowered as a call that XLA compiles
# as one kernel: the ``xla_cpu_small_call`` attribute, XLA's own for the small
# while loops it hoists, and ``inlineable = "false"`` so that the call survives
# until then.  The call also returns its parameters: XLA's kernel for it
# addresses only buffers that some instruction of the callee reads or writes,
# and aborts the process on a parameter that none uses (an unused argument, or
# one that simplification left unused).  Only IEEE-exact operations qualify,
# so the single kernel computes the same bits as the separate ones (checked in
# tests/test_jit.py, NaN, infinities and out-of-range conversions included).
_SMALL_OPS = frozenset({
    "add", "sub", "mul", "div", "neg", "max", "min", "abs", "sign", "floor", "ceil",
    "round", "sqrt", "select_n", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor",
    "not", "convert_element_type", "broadcast_in_dim", "reshape", "transpose",
    "squeeze", "slice", "concatenate", "iota", "clamp", "stop_gradient"})
_SMALL_BYTES = 1 << 16
_SEQUENTIAL_KERNELS = 8


def _one_kernel(jaxpr: Jaxpr) -> bool:
    """Whether ``jaxpr`` is a small program of many outputs (see above)."""
    limit = min(_SMALL_BYTES, config.cpu_loop_kernel_bytes)
    if len(jaxpr.outvars) <= _SEQUENTIAL_KERNELS or limit <= 0:
        return False

    def small(v: Any) -> bool:
        a = v.aval
        return (isinstance(a, ShapedArray)
                and (a.dtype.kind in "biu" or a.dtype in (np.float32, np.float64))
                and a.size * a.dtype.itemsize <= limit)
    return (all(small(v) for v in [*jaxpr.constvars, *jaxpr.invars])
            and all(e.primitive.name in _SMALL_OPS and all(map(small, e.outvars))
                    for e in jaxpr.eqns))


def lower_jaxpr(jaxpr: Jaxpr, name: str = "main") -> ir.Module:
    """A module whose public ``@main`` takes ``constvars + invars`` and returns
    ``outvars``.  Host callbacks it calls are in ``module_host_callbacks(module)``."""
    context = make_context()
    with context, ir.Location.unknown():
        module = ir.Module.create()
        mctx = ModuleContext(context, module)
        in_types = [aval_to_ir_type(v.aval) for v in [*jaxpr.constvars, *jaxpr.invars]]
        out_types = [aval_to_ir_type(v.aval) for v in jaxpr.outvars]
        ftype = ir.FunctionType.get(in_types, out_types)
        with ir.InsertionPoint(module.body):
            one_kernel = _one_kernel(jaxpr)
            if one_kernel:
                body = func.FuncOp("one_kernel", ir.FunctionType.get(
                    in_types, out_types + in_types))
                body.attributes["sym_visibility"] = ir.StringAttr.get("private")
                with ir.InsertionPoint(body.add_entry_block()):
                    params = list(body.entry_block.arguments)
                    func.ReturnOp(jaxpr_subcomp(mctx, jaxpr, params) + params)
            fn = func.FuncOp("main", ftype)
            fn.attributes["sym_visibility"] = ir.StringAttr.get("public")
            block = fn.add_entry_block()
            with ir.InsertionPoint(block):
                if one_kernel:
                    call = func.CallOp(out_types + in_types,
                                       ir.FlatSymbolRefAttr.get("one_kernel"),
                                       list(block.arguments))
                    call.operation.attributes["mhlo.frontend_attributes"] = ir.DictAttr.get(
                        {"xla_cpu_small_call": ir.StringAttr.get("true"),
                         "inlineable": ir.StringAttr.get("false")})
                    outs = list(call.results)[:len(out_types)]
                else:
                    outs = jaxpr_subcomp(mctx, jaxpr, list(block.arguments))
                func.ReturnOp(outs)
        safe = "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "main"
        module.operation.attributes["sym_name"] = ir.StringAttr.get(safe)
    if mctx.host_callbacks:
        _module_callbacks[id(module)] = (module, mctx.host_callbacks)
        while len(_module_callbacks) > _MAX_UNCOMPILED:
            del _module_callbacks[next(iter(_module_callbacks))]
    return module


# host callbacks of lowered modules, keyed by module identity (ir.Module objects
# take no Python attributes); entries are dropped when the module is compiled.
# Only modules with callbacks are kept, and a bounded number of them: a module
# lowered and never compiled (``jit(f).lower(x).as_text()``) must not stay
# alive forever.
_module_callbacks: dict[int, tuple[ir.Module, list[Callable[..., Any]]]] = {}
_MAX_UNCOMPILED = 256


def module_host_callbacks(module: ir.Module) -> list[Callable[..., Any]]:
    entry = _module_callbacks.get(id(module))
    return entry[1] if entry is not None and entry[0] is module else []


def pop_host_callbacks(module: ir.Module) -> list[Callable[..., Any]]:
    """The host callbacks of ``module``, forgotten here (it is being compiled)."""
    callbacks = module_host_callbacks(module)
    _module_callbacks.pop(id(module), None)
    return callbacks


def lower_fun(fun: Callable[..., Any], multiple_results: bool = False
              ) -> Callable[..., list[ir.Value]]:
    """A lowering rule that traces ``fun`` (written with sciax.lax) and inlines it.

    Composite operations use this rather than hand-written StableHLO.
    """
    def rule(ctx: LoweringRuleContext, *args: ir.Value, **params: Any):
        def flat(*xs):
            out = fun(*xs, **params)
            return list(out) if multiple_results else [out]

        closed = trace_to_jaxpr(flat, ctx.avals_in)
        consts = [ir_constant(np.asarray(c), v.aval)
                  for c, v in zip(closed.consts, closed.jaxpr.constvars)]
        return jaxpr_subcomp(ctx.module_ctx, closed.jaxpr, [*consts, *args])

    return rule


def hlo_op(op_builder: Callable[..., ir.Value]) -> Callable[..., ir.Value]:
    """The lowering rule ``lambda ctx, *args: op_builder(*args)``."""
    def rule(ctx: LoweringRuleContext, *args: ir.Value) -> ir.Value:
        return op_builder(*args)

    return rule


__all__ = ["register_lowering", "jaxpr_subcomp", "lower_jaxpr", "lower_fun", "hlo_op",
           "LoweringRuleContext", "ModuleContext", "ir", "hlo", "ir_constant",
           "aval_to_ir_type"]
