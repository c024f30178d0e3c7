"""Staging: tracing Python functions into jaxprs.

:class:`DynamicJaxprTrace` records every primitive bound while it is the
current trace as an equation.  Values that are not its own tracers (arrays
captured by closure, tracers of an enclosing transformation) become constvars;
Python scalars become literals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.backend.array import Array
from sciax._src.config import config
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.jaxpr import (ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, check_jaxpr,
                                   dce_jaxpr)
from sciax._src.core.trace import Primitive, Trace, Tracer, set_current_trace


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
