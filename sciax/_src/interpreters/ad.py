"""Automatic differentiation: forward mode (JVP) and its transpose.

Forward mode is the primitive transformation: :class:`JVPTrace` carries a
tangent beside every primal and applies each primitive's JVP rule.  Reverse
mode is built from it: :func:`linearize` runs the JVP under a
:class:`~sciax._src.interpreters.partial_eval.PartialEvalTrace`, which computes everything that depends only on
primals right away and stages what depends on tangents into a linear jaxpr;
:func:`backward_pass` then transposes that jaxpr, equation by equation in
reverse, with each primitive's transpose rule.

Tangents are symbolic :class:`Zero` where nothing flows, so unused inputs and
stopped gradients cost nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval, ShapedArray
from sciax._src.core.jaxpr import (close_over_consts, ClosedJaxpr, dce_jaxpr,
                                   eval_jaxpr, Jaxpr, Literal, Var)
from sciax._src.core.trace import (current_trace, Primitive, set_current_trace, Trace,
                                   Tracer)
from sciax._src.interpreters import hooks
from sciax._src.interpreters.partial_eval import (PartialEvalTrace, call_jaxprs,
                                                  inline_call, trace_to_jaxpr)
# TODO(issue 11, core-lax merge): sciax/_src/lax/control_flow.py still registers
# and calls these as ad.*; switch it to partial_eval.* and drop this re-export.
from sciax._src.interpreters.partial_eval import (  # noqa: F401
    partial_eval_jaxpr, partial_eval_rules)
from sciax._src.util import safe_map, safe_zip

primitive_jvps: dict[Primitive, Callable[..., Any]] = {}
primitive_transposes: dict[Primitive, Callable[..., Any]] = {}
# rule(trace, primals, tangents, **params) for primitives whose JVP must run under
# the JVP trace itself rather than its parent (custom_jvp: its rule may use values
# the function closed over that are this trace's tracers).  It returns
# (primals_out, tangents_out) free of this trace's tracers, or None to fall back
# to the ordinary handling (the rule in primitive_jvps, or inlining the body).
primitive_jvps_with_trace: dict[Primitive, Callable[..., Any]] = {}


class Zero:
    """A symbolic zero tangent/cotangent of abstract value ``aval``."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"Zero({self.aval.str_short()})"


class UndefinedPrimal:
    """Marks a linear input of an equation during transposition."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"UndefinedPrimal({self.aval.str_short()})"


def is_undefined_primal(x: Any) -> bool:
    return type(x) is UndefinedPrimal


def zeros_like_aval(aval: ShapedArray) -> Any:
    return hooks.zeros_like_aval(aval)


def instantiate_zeros(t: Any) -> Any:
    return zeros_like_aval(t.aval) if type(t) is Zero else t


def add_tangents(x: Any, y: Any) -> Any:
    if type(x) is Zero:
        return y
    if type(y) is Zero:
        return x
    return hooks.add(x, y)


# --- rule helpers ------------------------------------------------------------------

def defjvp(prim: Primitive, *rules: Callable[..., Any] | None) -> None:
    """JVP from one rule per operand: ``rule(t, *primals, **params)`` gives that
    operand's contribution to the output tangent (None: not differentiable)."""
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        acc: Any = Zero(get_aval(out))
        for rule, t in zip(rules, tangents):
            if rule is not None and type(t) is not Zero:
                acc = add_tangents(acc, rule(t, *primals, **params))
        return out, acc

    primitive_jvps[prim] = jvp


def defjvp2(prim: Primitive, *rules: Callable[..., Any] | None) -> None:
    """Like :func:`defjvp`, but rules also see the output: ``rule(t, ans, *primals)``."""
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        acc: Any = Zero(get_aval(out))
        for rule, t in zip(rules, tangents):
            if rule is not None and type(t) is not Zero:
                acc = add_tangents(acc, rule(t, out, *primals, **params))
        return out, acc

    primitive_jvps[prim] = jvp


def defjvp_zero(prim: Primitive) -> None:
    """The output does not depend differentiably on any input."""
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if prim.multiple_results:
            return out, [Zero(get_aval(o)) for o in out]
        return out, Zero(get_aval(out))

    primitive_jvps[prim] = jvp


def deflinear(prim: Primitive, transpose_rule: Callable[..., Any]) -> None:
    """``prim`` is linear in all its operands: its JVP is itself applied to the
    tangents, and ``transpose_rule(ct, *operands, **params)`` gives one cotangent
    per operand (operands being linear are :class:`UndefinedPrimal`)."""
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        t_out = prim.bind(*map(instantiate_zeros, tangents), **params)
        return out, t_out

    primitive_jvps[prim] = jvp
    primitive_transposes[prim] = transpose_rule


def defbilinear(prim: Primitive, lhs_transpose: Callable[..., Any],
                rhs_transpose: Callable[..., Any]) -> None:
    """``prim(x, y)`` is linear in each operand separately (mul, dot_general)."""
    def jvp(primals, tangents, **params):
        x, y = primals
        tx, ty = tangents
        out = prim.bind(x, y, **params)
        acc: Any = Zero(get_aval(out))
        if type(tx) is not Zero:
            acc = add_tangents(acc, prim.bind(tx, y, **params))
        if type(ty) is not Zero:
            acc = add_tangents(acc, prim.bind(x, ty, **params))
        return out, acc

    def transpose(ct, x, y, **params):
        if type(ct) is Zero:
            return [None, None]
        if is_undefined_primal(x):
            return [lhs_transpose(ct, x, y, **params), None]
        return [None, rhs_transpose(ct, x, y, **params)]

    primitive_jvps[prim] = jvp
    primitive_transposes[prim] = transpose


# --- forward mode -------------------------------------------------------------------

class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent")

    def __init__(self, trace: JVPTrace, primal: Any, tangent: Any):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self) -> ShapedArray:
        return get_aval(self.primal)


class JVPTrace(Trace):
    def __init__(self, parent: Trace):
        self.parent = parent

    def __repr__(self) -> str:
        return "JVPTrace"

    def to_primal_tangent(self, x: Any) -> tuple[Any, Any]:
        if isinstance(x, JVPTracer) and x._trace is self:
            return x.primal, x.tangent
        return x, Zero(get_aval(x))

    def process_primitive(self, primitive: Primitive, args: tuple, params: dict) -> Any:
        primals, tangents = [], []
        for x in args:
            p, t = self.to_primal_tangent(x)
            primals.append(p)
            tangents.append(t)
        if all(type(t) is Zero for t in tangents):
            with set_current_trace(self.parent):
                return primitive.bind(*primals, **params)
        trace_rule = primitive_jvps_with_trace.get(primitive)
        if trace_rule is not None:
            res = trace_rule(self, primals, tangents, **params)
            if res is not None:
                out, t_out = res
                return [self._wrap(p, t) for p, t in safe_zip(out, t_out)]
        rule = primitive_jvps.get(primitive)
        if rule is None:
            if primitive in call_jaxprs:
                return inline_call(self, primitive, args, params)
            raise NotImplementedError(
                f"Differentiation rule for '{primitive.name}' not implemented")
        with set_current_trace(self.parent):
            out, t_out = rule(primals, tangents, **params)
        if primitive.multiple_results:
            return [self._wrap(p, t) for p, t in safe_zip(out, t_out)]
        return self._wrap(out, t_out)

    def _wrap(self, primal: Any, tangent: Any) -> Any:
        return primal if type(tangent) is Zero else JVPTracer(self, primal, tangent)


def jvp_flat(fun: Callable[..., list[Any]], primals: Sequence[Any],
             tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """Forward mode on a flat function; output tangents may be :class:`Zero`."""
    trace = JVPTrace(current_trace())
    tracers = [JVPTracer(trace, p, t) if type(t) is not Zero else p
               for p, t in safe_zip(primals, tangents)]
    with set_current_trace(trace):
        outs = fun(*tracers)
    pairs = [trace.to_primal_tangent(o) for o in outs]
    return [p for p, _ in pairs], [t for _, t in pairs]


def linearize_flat(fun: Callable[..., list[Any]], primals: Sequence[Any]
                   ) -> tuple[list[Any], ClosedJaxpr, list[bool]]:
    """Primal outputs and the linear map from input to output tangents as a
    closed jaxpr (its consts are the residuals).  Also returns, per output,
    whether its tangent is symbolically zero."""
    pe_trace = PartialEvalTrace(current_trace())
    tangents_in = [pe_trace.staged.new_arg(tangent_aval(get_aval(p))) for p in primals]
    jvp_trace = JVPTrace(pe_trace)
    tracers = [JVPTracer(jvp_trace, p, t) for p, t in safe_zip(primals, tangents_in)]
    with set_current_trace(jvp_trace):
        outs = fun(*tracers)
    pairs = [jvp_trace.to_primal_tangent(o) for o in outs]
    primals_out = [p for p, _ in pairs]
    zero_outs = [type(t) is Zero for _, t in pairs]
    with set_current_trace(pe_trace):
        tangents_out = [instantiate_zeros(t) for _, t in pairs]
    linear = pe_trace.staged.to_jaxpr(tangents_out)
    return primals_out, linear, zero_outs


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    return aval


# --- transposition ------------------------------------------------------------------

def backward_pass(jaxpr: Jaxpr, consts: Sequence[Any], cts_out: Sequence[Any],
                  args: Sequence[Any] | None = None) -> list[Any]:
    """Transpose ``jaxpr`` with respect to its linear inputs.

    ``args`` gives a value per invar, :class:`UndefinedPrimal` for the linear
    ones (default: all invars are linear).  Equations that do not depend on a
    linear input are evaluated forward first (this is where checkpointed
    computations are recomputed).  Returns a cotangent per invar
    (:class:`Zero` for none, and for known inputs).
    """
    if args is None:
        args = [UndefinedPrimal(v.aval) for v in jaxpr.invars]
    primal_env: dict[Var, Any] = dict(safe_zip(jaxpr.constvars, consts))
    linear: set[Var] = set()
    for v, a in safe_zip(jaxpr.invars, args):
        if is_undefined_primal(a):
            linear.add(v)
        else:
            primal_env[v] = a
    lin_eqns = []
    for eqn in jaxpr.eqns:
        if any(type(v) is Var and v in linear for v in eqn.invars):
            linear.update(eqn.outvars)
            lin_eqns.append(eqn)
        else:
            vals = [v.val if type(v) is Literal else primal_env[v] for v in eqn.invars]
            outs = eqn.primitive.bind(*vals, **eqn.params)
            outs = outs if eqn.primitive.multiple_results else [outs]
            primal_env.update(safe_zip(eqn.outvars, outs))

    ct_env: dict[Var, Any] = {}

    def write_ct(v: Any, ct: Any) -> None:
        if type(v) is Var and v in linear and ct is not None and type(ct) is not Zero:
            ct_env[v] = add_tangents(ct_env[v], ct) if v in ct_env else ct

    def read_ct(v: Var) -> Any:
        ct = ct_env.pop(v, None)
        return Zero(v.aval) if ct is None else ct

    def read_primal(v: Any) -> Any:
        if type(v) is Literal:
            return v.val
        return UndefinedPrimal(v.aval) if v in linear else primal_env[v]

    for v, ct in safe_zip(jaxpr.outvars, cts_out):
        write_ct(v, ct)
    for eqn in reversed(lin_eqns):
        cts = [read_ct(v) for v in eqn.outvars]
        if all(type(c) is Zero for c in cts):
            continue
        rule = primitive_transposes.get(eqn.primitive)
        if rule is None:
            raise NotImplementedError(
                f"Transpose rule (for reverse-mode differentiation) for "
                f"'{eqn.primitive.name}' not implemented")
        invals = [read_primal(v) for v in eqn.invars]
        ct_arg = cts if eqn.primitive.multiple_results else cts[0]
        cts_in = rule(ct_arg, *invals, **eqn.params)
        for v, ct in safe_zip(eqn.invars, cts_in):
            write_ct(v, ct)
    return [read_ct(v) for v in jaxpr.invars]


def is_differentiable_dtype(dtype: Any) -> bool:
    return dtypes.is_inexact(dtype)


def jvp_jaxpr(closed: ClosedJaxpr, nonzeros: Sequence[bool], instantiate: bool | Sequence[bool]
              ) -> tuple[ClosedJaxpr, list[Any], list[bool]]:
    """The JVP of ``closed`` as a jaxpr taking ``primals + nonzero tangents`` and
    returning ``primals_out + tangents_out`` (for outputs whose tangent is
    nonzero or instantiated).  Returns (jaxpr without consts, its consts, which
    output tangents are present).

    Cached on the jaxpr and the patterns: loop rules call it in a fixpoint
    over the carries, and each call traces every nested body again, so
    without the cache the cost grows exponentially with the nesting depth."""
    m = len(closed.out_avals)
    inst = (instantiate,) * m if isinstance(instantiate, bool) else tuple(
        bool(i) for i in instantiate)
    jaxpr, consts, out_nz = _jvp_jaxpr_cached(closed, tuple(bool(z) for z in nonzeros),
                                              inst)
    return jaxpr, list(consts), list(out_nz)


@functools.lru_cache(maxsize=2048)
def _jvp_jaxpr_cached(closed: ClosedJaxpr, nonzeros: tuple[bool, ...],
                      inst: tuple[bool, ...]
                      ) -> tuple[ClosedJaxpr, list[Any], list[bool]]:
    n = len(closed.in_avals)
    out_nz: list[bool] = []

    def fun(*xs: Any) -> list[Any]:
        ps, ts = list(xs[:n]), iter(xs[n:])
        t_in = [next(ts) if nz else Zero(a) for nz, a in zip(nonzeros, closed.in_avals)]
        outs, t_outs = jvp_flat(
            lambda *a: eval_jaxpr(closed.jaxpr, closed.consts, *a), ps, t_in)
        out_nz[:] = [type(t) is not Zero or i for t, i in zip(t_outs, inst)]
        return [*outs, *(instantiate_zeros(t) for t, nz in zip(t_outs, out_nz) if nz)]

    avals = [*closed.in_avals, *(a for a, nz in zip(closed.in_avals, nonzeros) if nz)]
    jaxpr, consts = close_over_consts(trace_to_jaxpr(fun, avals))
    return jaxpr, consts, out_nz
