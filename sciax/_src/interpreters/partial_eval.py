"""Staging and partial evaluation: tracing Python functions into jaxprs.

:class:`DynamicJaxprTrace` records every primitive bound while it is the
current trace as an equation.  Values that are not its own tracers (arrays
captured by closure, tracers of an enclosing transformation) become constvars;
Python scalars become literals.

:class:`PartialEvalTrace` computes what its known inputs determine right away
and stages the rest (``linearize`` runs the JVP under it);
:func:`partial_eval_jaxpr` splits a jaxpr the same way, for the partial-eval
rules of call-like and control-flow primitives (``partial_eval_rules``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.backend.array import Array
from sciax._src.config import config
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval, ShapedArray
from sciax._src.core.jaxpr import (check_jaxpr, ClosedJaxpr, dce_jaxpr, eval_jaxpr,
                                   Jaxpr, JaxprEqn, Literal, Var)
from sciax._src.core.trace import (current_trace, Primitive, set_current_trace, Trace,
                                   Tracer)
from sciax._src.util import safe_zip


class DynamicJaxprTracer(Tracer):
    __slots__ = ("_aval", "atom")

    def __init__(self, trace: DynamicJaxprTrace, aval: ShapedArray, atom: Any):
        self._trace = trace
        self._aval = aval
        self.atom = atom

    @property
    def aval(self) -> ShapedArray:
        return self._aval


class DynamicJaxprTrace(Trace):
    """Records primitives into a jaxpr."""

    def __init__(self) -> None:
        self.eqns: list[JaxprEqn] = []
        self.invars: list[Var] = []
        self.constvars: list[Var] = []
        self.consts: list[Any] = []
        self._const_ids: dict[int, DynamicJaxprTracer] = {}

    def __repr__(self) -> str:
        return "DynamicJaxprTrace"

    def new_arg(self, aval: ShapedArray) -> DynamicJaxprTracer:
        v = Var(aval)
        self.invars.append(v)
        return DynamicJaxprTracer(self, aval, v)

    def to_tracer(self, x: Any) -> DynamicJaxprTracer:
        if isinstance(x, DynamicJaxprTracer) and x._trace is self:
            return x
        tracer = self._const_ids.get(id(x))
        if tracer is not None:
            return tracer
        aval = get_aval(x)
        if (dtypes.is_python_scalar(x) or isinstance(x, np.generic)
                or (type(x) is Array and not x.aval.shape)):
            return DynamicJaxprTracer(self, aval, Literal(x, aval))
        v = Var(aval)
        self.constvars.append(v)
        self.consts.append(x)
        tracer = DynamicJaxprTracer(self, aval, v)
        # keep ``x`` alive through self.consts, so its id stays unique
        self._const_ids[id(x)] = tracer
        return tracer

    def process_primitive(self, primitive: Primitive, args: tuple, params: dict) -> Any:
        tracers = [self.to_tracer(a) for a in args]
        out_avals = primitive.abstract_eval(*(t.aval for t in tracers), **params)
        if primitive.multiple_results:
            outs = [DynamicJaxprTracer(self, a, Var(a)) for a in out_avals]
        else:
            outs = [DynamicJaxprTracer(self, out_avals, Var(out_avals))]
        self.eqns.append(JaxprEqn(primitive, [t.atom for t in tracers],
                                  [t.atom for t in outs], params))
        return outs if primitive.multiple_results else outs[0]

    def to_jaxpr(self, out_tracers: Sequence[Any]) -> ClosedJaxpr:
        outvars = [self.to_tracer(t).atom for t in out_tracers]
        jaxpr = dce_jaxpr(Jaxpr(self.constvars, self.invars, outvars, self.eqns),
                          [True] * len(outvars))
        if config.enable_checks:
            check_jaxpr(jaxpr)
        return ClosedJaxpr(jaxpr, self.consts)


def trace_to_jaxpr(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray]
                   ) -> ClosedJaxpr:
    """Trace ``fun`` (flat arrays in, a flat list of arrays out) to a jaxpr."""
    trace = DynamicJaxprTrace()
    args = [trace.new_arg(a) for a in in_avals]
    with set_current_trace(trace):
        outs = fun(*args)
    return trace.to_jaxpr(outs)


# --- call-like primitives ------------------------------------------------------------
# Call-like primitives (jit_p, ...) whose body is inlined by a trace without a
# dedicated rule; maps the primitive to a function returning its closed jaxpr.
call_jaxprs: dict[Primitive, Callable[..., ClosedJaxpr]] = {}


def inline_call(trace: Trace, primitive: Primitive, args: Sequence[Any],
                params: dict) -> Any:
    """Evaluate a call-like primitive's body under ``trace`` (no dedicated rule)."""
    closed = call_jaxprs[primitive](**params)
    with set_current_trace(trace):
        outs = eval_jaxpr(closed.jaxpr, closed.consts, *args)
    return outs if primitive.multiple_results else outs[0]


# --- partial evaluation ----------------------------------------------------------------
# rule(pe_trace, args, params) for primitives that partial evaluation must not
# simply stage or inline (checkpoint, jit, control flow).
partial_eval_rules: dict[Primitive, Callable[..., Any]] = {}

# Cheap primitives (broadcasts of a scalar, iotas, conversions, elementwise
# arithmetic) whose known results, when they come from literals alone, are
# recomputed in the staged jaxpr instead of being passed to it as residuals:
# a scalar coefficient broadcast to a matrix and multiplied into a
# differentiated value would otherwise be a matrix-sized residual (one per
# coefficient, per loop iteration in a scan, per branch in a cond).  Filled by
# the lax modules that define them.
recomputable: set[Primitive] = set()


class PartialEvalTrace(Trace):
    """Computes known values now (under the parent trace) and stages every
    operation with an unknown operand into ``self.staged``.  Unknown values are
    the staging trace's own tracers; known operands of staged operations become
    the staged jaxpr's constants (the residuals)."""

    def __init__(self, parent: Trace):
        self.parent = parent
        self.staged = DynamicJaxprTrace()
        # id(known value) -> (value, primitive, args, params) for the values
        # ``recomputable`` from literals; id -> its staged copy once made
        self._recipes: dict[int, tuple] = {}
        self._restaged: dict[int, Any] = {}

    def __repr__(self) -> str:
        return "PartialEvalTrace"

    def is_unknown(self, x: Any) -> bool:
        return isinstance(x, DynamicJaxprTracer) and x._trace is self.staged

    def process_primitive(self, primitive: Primitive, args: tuple, params: dict) -> Any:
        if not any(self.is_unknown(x) for x in args):
            with set_current_trace(self.parent):
                out = primitive.bind(*args, **params)
            if (primitive in recomputable and not primitive.multiple_results
                    and all(self._from_literals(x) for x in args)):
                self._recipes[id(out)] = (out, primitive, args, params)
            return out
        rule = partial_eval_rules.get(primitive)
        if rule is not None:
            return rule(self, args, params)
        if primitive in call_jaxprs:
            return inline_call(self, primitive, args, params)
        if self._recipes:
            args = tuple(self._restage(x) for x in args)
        return self.staged.process_primitive(primitive, args, params)

    def _from_literals(self, x: Any) -> bool:
        return (id(x) in self._recipes or dtypes.is_python_scalar(x)
                or isinstance(x, np.generic)
                or (type(x) is Array and not x.aval.shape))

    def _restage(self, x: Any) -> Any:
        """``x``, or its recomputation in the staged jaxpr when it has a recipe."""
        recipe = self._recipes.get(id(x))
        if recipe is None:
            return x
        copy = self._restaged.get(id(x))
        if copy is None:
            _, primitive, args, params = recipe
            copy = self.staged.process_primitive(
                primitive, tuple(self._restage(a) for a in args), params)
            self._restaged[id(x)] = copy
        return copy


@functools.lru_cache(maxsize=2048)
def _split_jaxpr(jaxpr: ClosedJaxpr, unknown_ins: tuple[bool, ...]
                 ) -> tuple[list[bool], ClosedJaxpr, Jaxpr]:
    """Partially evaluate ``jaxpr`` once for the pattern ``unknown_ins``.

    Returns which outputs are unknown, the known part (a closed jaxpr from the
    known inputs to ``known outputs + residuals``) and the staged part (a
    jaxpr whose constvars are the residuals, from the unknown inputs to the
    unknown outputs).  Cached: a control-flow rule needs the split of a body
    several times (its unknown outputs in a fixpoint, then its known and
    staged parts), and re-running partial evaluation each time would re-run
    it for every nested body as well, exponentially in the nesting depth.
    """
    box: list = []

    def known_part(*known_args: Any) -> list[Any]:
        pe_trace = PartialEvalTrace(current_trace())
        it = iter(known_args)
        full = [pe_trace.staged.new_arg(a) if u else next(it)
                for a, u in safe_zip(jaxpr.in_avals, unknown_ins)]
        with set_current_trace(pe_trace):
            outs = eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *full)
        out_u = [pe_trace.is_unknown(o) for o in outs]
        staged = pe_trace.staged.to_jaxpr([o for o, u in safe_zip(outs, out_u) if u])
        box.append((out_u, staged.jaxpr))
        return [*(o for o, u in safe_zip(outs, out_u) if not u), *staged.consts]

    known_avals = [a for a, u in safe_zip(jaxpr.in_avals, unknown_ins) if not u]
    known = trace_to_jaxpr(known_part, known_avals)
    out_u, staged = box[0]
    return out_u, known, staged


def partial_eval_jaxpr(jaxpr: ClosedJaxpr, unknown_ins: Sequence[bool]
                      ) -> tuple[list[bool], Callable[..., tuple[list[Any], ClosedJaxpr]]]:
    """Split ``jaxpr`` into what known inputs determine and what is left.

    Returns which outputs are unknown (exactly as partial evaluation finds
    them, nested control flow included) and ``run(*known_args)``, which
    evaluates the known part under the current trace and returns
    ``(known outputs, staged, out_unknown)``: ``staged`` is a closed jaxpr from
    the unknown inputs to the unknown outputs whose consts are the residuals.
    ``force_unknown`` marks known outputs to be returned by ``staged`` instead
    (fed by extra residuals).  The split itself is computed once per jaxpr and
    pattern (:func:`_split_jaxpr`); ``run`` only replays its known part.
    """
    unknown_ins = tuple(bool(u) for u in unknown_ins)
    out_u0, known, staged = _split_jaxpr(jaxpr, unknown_ins)

    def run(*known_args: Any, force_unknown: Sequence[bool] | None = None):
        outs = eval_jaxpr(known.jaxpr, known.consts, *known_args)
        n_known = out_u0.count(False)
        kouts, residuals = outs[:n_known], outs[n_known:]
        if force_unknown is None or not any(
                f and not u for f, u in safe_zip(force_unknown, out_u0)):
            return list(kouts), ClosedJaxpr(staged, residuals), list(out_u0)
        # Known outputs forced unknown: the staged part returns them, fed by
        # extra residuals.
        k_avals = iter(known.out_avals[:n_known])
        kit, sit = iter(kouts), iter(staged.outvars)
        known_outs, out_vars, extra_vars, extra_vals, out_u = [], [], [], [], []
        for u0, f in safe_zip(out_u0, force_unknown):
            if u0:
                out_vars.append(next(sit))
            else:
                val, aval = next(kit), next(k_avals)
                if f:
                    v = Var(aval)
                    extra_vars.append(v)
                    extra_vals.append(val)
                    out_vars.append(v)
                else:
                    known_outs.append(val)
            out_u.append(u0 or bool(f))
        forced = Jaxpr([*staged.constvars, *extra_vars], staged.invars, out_vars,
                       staged.eqns)
        return known_outs, ClosedJaxpr(forced, [*residuals, *extra_vals]), out_u

    return list(out_u0), run


def dependent_outputs(jaxpr: Jaxpr, unknown_ins: Sequence[bool]) -> list[bool]:
    """Which outputs of ``jaxpr`` depend on the invars marked unknown."""
    unknown = {v for v, u in safe_zip(jaxpr.invars, unknown_ins) if u}
    for eqn in jaxpr.eqns:
        if any(type(v) is Var and v in unknown for v in eqn.invars):
            unknown.update(eqn.outvars)
    return [type(v) is Var and v in unknown for v in jaxpr.outvars]
