"""Batching: the ``vmap`` interpreter.

A :class:`BatchTracer` holds a value with one extra axis, ``batch_dim`` (or
:data:`not_mapped` when the value is the same for every member of the batch).
Each primitive's batching rule, ``rule(vals, dims, **params) -> (out, out_dim)``,
computes the batched result, preferably by moving batch dimensions rather than
materialising broadcasts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sciax._src.core.avals import get_aval, ShapedArray
from sciax._src.core.jaxpr import close_over_consts, eval_jaxpr
from sciax._src.core.trace import (current_trace, Primitive, set_current_trace, Trace,
                                   Tracer)
from sciax._src.interpreters import hooks
from sciax._src.interpreters.partial_eval import (call_jaxprs, inline_call,
                                                  trace_to_jaxpr)
from sciax._src.util import safe_zip


not_mapped: Any = None  # the batch dimension of a value that is not batched
primitive_batchers: dict[Primitive, Callable[..., Any]] = {}


class BatchTracer(Tracer):
    __slots__ = ("val", "batch_dim")

    def __init__(self, trace: BatchTrace, val: Any, batch_dim: int | None):
        self._trace = trace
        self.val = val
        self.batch_dim = batch_dim

    @property
    def aval(self) -> ShapedArray:
        aval = get_aval(self.val)
        if self.batch_dim is not_mapped:
            return aval
        shape = list(aval.shape)
        del shape[self.batch_dim]
        return aval.update(shape=tuple(shape))


class BatchTrace(Trace):
    def __init__(self, parent: Trace, axis_size: int, axis_name: Any = None):
        self.parent = parent
        self.axis_size = axis_size
        self.axis_name = axis_name

    def __repr__(self) -> str:
        return f"BatchTrace(size={self.axis_size})"

    def to_batch_info(self, x: Any) -> tuple[Any, int | None]:
        if isinstance(x, BatchTracer) and x._trace is self:
            return x.val, x.batch_dim
        return x, not_mapped

    def process_primitive(self, primitive: Primitive, args: tuple, params: dict) -> Any:
        vals, dims = [], []
        for x in args:
            v, d = self.to_batch_info(x)
            vals.append(v)
            dims.append(d)
        if all(d is not_mapped for d in dims) and primitive not in axis_primitives:
            with set_current_trace(self.parent):
                return primitive.bind(*vals, **params)
        rule = primitive_batchers.get(primitive)
        if rule is None:
            call_rule = call_batchers.get(primitive)
            if call_rule is not None:
                res = call_rule(self, vals, dims, **params)
                if res is not None:
                    out, out_dim = res
                    return [self._wrap(o, d) for o, d in safe_zip(out, out_dim)]
            if primitive in call_jaxprs:
                return inline_call(self, primitive, args, params)
            raise NotImplementedError(
                f"Batching rule for '{primitive.name}' not implemented")
        with set_current_trace(self.parent):
            if primitive in axis_primitives:
                out, out_dim = rule(self, vals, dims, **params)
            else:
                out, out_dim = rule(vals, dims, **params)
        if primitive.multiple_results:
            return [self._wrap(o, d) for o, d in safe_zip(out, out_dim)]
        return self._wrap(out, out_dim)

    def _wrap(self, val: Any, dim: int | None) -> Any:
        return val if dim is not_mapped else BatchTracer(self, val, dim)


# primitives whose batching rule needs the trace itself (collectives over a
# named axis): rule(trace, vals, dims, **params)
axis_primitives: set[Primitive] = set()
# call primitives (multiple results) batched as a whole: rule(trace, vals, dims,
# **params) returns (outs, out_dims), or None to inline the body instead
call_batchers: dict[Primitive, Callable[..., Any]] = {}


# --- helpers for rules -------------------------------------------------------------

def moveaxis(x: Any, src: int, dst: int) -> Any:
    ndim = get_aval(x).ndim
    src, dst = src % ndim, dst % ndim
    if src == dst:
        return x
    perm = [i for i in range(ndim) if i != src]
    perm.insert(dst, src)
    return hooks.transpose(x, perm)


def broadcast_batched(x: Any, size: int, axis: int = 0) -> Any:
    """``x`` with a new axis of length ``size`` at ``axis`` (materialised)."""
    aval = get_aval(x)
    shape = list(aval.shape)
    shape.insert(axis, size)
    dims = [i for i in range(len(shape)) if i != axis]
    return hooks.broadcast_in_dim(x, tuple(shape), tuple(dims))


def bdim_at_front(x: Any, bdim: int | None, size: int) -> Any:
    """``x`` with its batch axis first, broadcasting an unmapped value."""
    if bdim is not_mapped:
        return broadcast_batched(x, size, 0)
    return moveaxis(x, bdim, 0)


def batch_size(vals: Sequence[Any], dims: Sequence[int | None]) -> int:
    for v, d in zip(vals, dims):
        if d is not not_mapped:
            return get_aval(v).shape[d]
    raise AssertionError("no batched operand")


def defvectorized(prim: Primitive) -> None:
    """Unary elementwise ops: the batch axis stays where it is."""
    def rule(vals, dims, **params):
        (x,), (d,) = vals, dims
        return prim.bind(x, **params), d

    primitive_batchers[prim] = rule


def broadcasting_rule(prim: Primitive) -> Callable[..., Any]:
    """The rule of n-ary elementwise ops on equal shapes: align batch axes
    (moving them to the front unless all batched operands already agree),
    broadcast unbatched operands, then apply the op once."""
    def rule(vals, dims, **params):
        size = batch_size(vals, dims)
        batched = {d for d in dims if d is not not_mapped}
        ndims = {get_aval(v).ndim for v, d in zip(vals, dims) if d is not not_mapped}
        if len(batched) == 1 and len(ndims) == 1:
            out_dim = batched.pop()
        else:
            out_dim = 0
        args = []
        for v, d in zip(vals, dims):
            if d is not_mapped:
                args.append(broadcast_batched(v, size, out_dim))
            elif d != out_dim:
                args.append(moveaxis(v, d, out_dim))
            else:
                args.append(v)
        out = prim.bind(*args, **params)
        if prim.multiple_results:
            return out, [out_dim] * len(out)
        return out, out_dim

    return rule


def defbroadcasting(prim: Primitive) -> None:
    primitive_batchers[prim] = broadcasting_rule(prim)


# --- vmap ----------------------------------------------------------------------------

def vmap_flat(fun: Callable[..., list[Any]], args: Sequence[Any],
              in_dims: Sequence[int | None], out_dims: Sequence[int | None] | Callable,
              axis_size: int, axis_name: Any = None) -> list[Any]:
    """Batch a flat function.  ``out_dims`` may be a callable of the number of
    outputs (used when it is known only after tracing)."""
    trace = BatchTrace(current_trace(), axis_size, axis_name)
    tracers = [BatchTracer(trace, a, d) if d is not not_mapped else a
               for a, d in safe_zip(args, in_dims)]
    with set_current_trace(trace):
        outs = fun(*tracers)
    if callable(out_dims):
        out_dims = out_dims(len(outs))
    results = []
    for k, (o, od) in enumerate(safe_zip(outs, out_dims)):
        val, d = trace.to_batch_info(o)
        if od is not not_mapped:
            # the mapped output has one more axis than the per-example value
            rank = get_aval(val).ndim + (d is not_mapped)
            if not -rank <= od < rank:
                raise ValueError(
                    f"vmap out_axes={od} is out of range for output {k}, of shape "
                    f"{tuple(get_aval(o).shape)} per example (rank {rank} once "
                    f"mapped); expected an axis in [{-rank}, {rank})")
        if od is not_mapped:
            if d is not not_mapped:
                raise ValueError(
                    "vmap has out_axes=None for an output that is batched; only "
                    "outputs that do not depend on the mapped inputs may be unmapped")
            results.append(val)
            continue
        if d is not_mapped:
            val = broadcast_batched(val, axis_size, od % (get_aval(val).ndim + 1))
        else:
            val = moveaxis(val, d, od)
        results.append(val)
    return results


def batch_jaxpr(closed: Any, in_dims: Sequence[int | None], size: int,
                axis_name: Any = None, force_out: bool | Sequence[bool] = True
                ) -> tuple[Any, list[Any], list[int | None]]:
    """Batch ``closed`` with inputs batched at ``in_dims``.

    Outputs come out batched at axis 0, or unbatched (``None``) where they do not
    depend on batched inputs and ``force_out`` is False for them.  Returns
    (jaxpr without consts, its consts, out dims).
    """

    m = len(closed.out_avals)
    force = [force_out] * m if isinstance(force_out, bool) else list(force_out)
    out_dims: list[int | None] = []

    def fun(*xs: Any) -> list[Any]:
        trace = BatchTrace(current_trace(), size, axis_name)
        tracers = [BatchTracer(trace, x, d) if d is not not_mapped else x
                   for x, d in safe_zip(xs, in_dims)]
        with set_current_trace(trace):
            outs = eval_jaxpr(closed.jaxpr, closed.consts, *tracers)
        res = []
        out_dims.clear()
        for o, f in safe_zip(outs, force):
            val, d = trace.to_batch_info(o)
            if d is not_mapped and not f:
                out_dims.append(not_mapped)
                res.append(val)
            else:
                res.append(bdim_at_front(val, d, size))
                out_dims.append(0)
        return res

    avals = []
    for a, d in safe_zip(closed.in_avals, in_dims):
        if d is not_mapped:
            avals.append(a)
        else:
            shape = list(a.shape)
            shape.insert(d, size)
            avals.append(a.update(shape=tuple(shape)))
    jaxpr, consts = close_over_consts(trace_to_jaxpr(fun, avals))
    return jaxpr, consts, list(out_dims)
