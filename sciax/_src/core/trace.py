"""Primitives, traces and tracers.

sciax follows the "current trace" design: one trace is current at a time (a
context variable).  ``prim.bind(*args, **params)`` hands the primitive to the
current trace, which decides what to do with it: the :class:`EvalTrace` runs it
(eagerly, on XLA), a JVP trace pushes tangents through it, a staging trace
records it into a jaxpr.  A trace that needs to compute with its inputs' own
values rebinds primitives under its parent trace, so transformations nest.

Arrays are positional arguments of ``bind`` and static parameters are
keywords; parameters must be hashable.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from typing import Any

from sciax._src.core.avals import HasAval, ShapedArray


class Primitive:
    """An operation that transformations know how to handle.

    ``impl`` runs it on concrete arrays; ``abstract_eval`` maps input avals to
    output avals (raising TypeError/ValueError on bad input).  Other rules
    (JVP, transpose, batching, lowering) live in the interpreters' tables.
    """

    multiple_results = False

    def __init__(self, name: str, *, multiple_results: bool = False):
        self.name = name
        self.multiple_results = multiple_results

    def __repr__(self) -> str:
        return self.name

    def bind(self, *args: Any, **params: Any) -> Any:
        return _state.trace.process_primitive(self, args, params)

    def impl(self, *args: Any, **params: Any) -> Any:
        raise NotImplementedError(f"primitive {self.name!r} has no eager implementation")

    def abstract_eval(self, *avals: ShapedArray, **params: Any) -> Any:
        raise NotImplementedError(f"primitive {self.name!r} has no abstract evaluation rule")

    def def_impl(self, fn):
        self.impl = fn
        return fn

    def def_abstract_eval(self, fn):
        self.abstract_eval = fn
        return fn


class Trace:
    """Base class of the interpreters' traces."""

    def process_primitive(self, primitive: Primitive, args: tuple, params: dict) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} cannot process primitive {primitive.name!r}")


class EvalTrace(Trace):
    """The bottom trace: runs primitives on concrete values."""

    def process_primitive(self, primitive: Primitive, args: tuple, params: dict) -> Any:
        for a in args:
            if isinstance(a, Tracer):
                raise UnexpectedTracerError(a)
        return primitive.impl(*args, **params)

    def __repr__(self) -> str:
        return "EvalTrace"


eval_trace = EvalTrace()


class _TraceState(threading.local):
    trace: Trace = eval_trace


_state = _TraceState()


def current_trace() -> Trace:
    return _state.trace


@contextlib.contextmanager
def set_current_trace(trace: Trace) -> Iterator[None]:
    prev = _state.trace
    _state.trace = trace
    try:
        yield
    finally:
        _state.trace = prev


class Tracer(HasAval):
    """A stand-in for an array while a function is being transformed.

    Subclasses hold what their trace needs (a primal and a tangent, a value and
    a batch dimension, a jaxpr variable) and say what they know through
    :attr:`aval`.  NumPy-style operators and methods are attached by
    :mod:`sciax._src.numpy`, as for :class:`~sciax.Array`.
    """

    __slots__ = ("_trace",)
    __array_priority__ = 1000

    @property
    def aval(self) -> ShapedArray:
        raise NotImplementedError

    def __iter__(self):
        if not self.aval.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.aval.shape[0]))

    def __bool__(self) -> bool:
        raise ConcretizationTypeError(self, "bool()")

    def __int__(self) -> int:
        raise ConcretizationTypeError(self, "int()")

    def __float__(self) -> float:
        raise ConcretizationTypeError(self, "float()")

    def __complex__(self) -> complex:
        raise ConcretizationTypeError(self, "complex()")

    def __index__(self) -> int:
        raise ConcretizationTypeError(self, "use as an index (__index__)")

    def item(self, *args: Any) -> Any:
        raise ConcretizationTypeError(self, ".item()")

    def tolist(self) -> Any:
        raise ConcretizationTypeError(self, ".tolist()")

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise TracerArrayConversionError(self)

    def __setitem__(self, idx: Any, value: Any) -> None:
        raise TypeError(
            "sciax arrays are immutable and do not support item assignment; use "
            "the functional form x = x.at[idx].set(value) (or .add, .multiply, ...)")

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Traced<{self.aval.str_short()}>with<{self._trace!r}>"


# The folder of the sciax package (sciax/_src/core/trace.py is three levels in),
# found without importing the package from the bottom layer.
_SCIAX_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))


def _user_frame() -> str:
    """'file:line (function)' of the innermost frame outside sciax itself."""
    root = _SCIAX_ROOT
    frame = sys._getframe(2)
    while frame is not None:
        fname = frame.f_code.co_filename
        if not fname.startswith(root) and "contextlib" not in fname:
            return f"{fname}:{frame.f_lineno} ({frame.f_code.co_name})"
        frame = frame.f_back
    return "<unknown>"


class ConcretizationTypeError(TypeError):
    """A traced value was used where Python needs a concrete one."""

    def __init__(self, tracer: Tracer, what: str):
        aval = tracer.aval
        super().__init__(
            f"{what} was called on a traced value of shape {aval.shape} and dtype "
            f"{aval.dtype} (at {_user_frame()}). Under sciax.jit (and inside "
            "lax control flow) values are abstract: Python control flow such as "
            "`if x > 0` or int(x) cannot depend on them. Use sciax.lax.cond or "
            "sciax.numpy.where for data-dependent choices, or mark the argument "
            "static with jit(..., static_argnums=...) if it is a compile-time "
            "constant.")


class TracerArrayConversionError(TypeError):
    def __init__(self, tracer: Tracer):
        aval = tracer.aval
        super().__init__(
            f"a traced value of shape {aval.shape} and dtype {aval.dtype} cannot be "
            f"converted to a NumPy array (at {_user_frame()}). NumPy functions "
            "cannot see inside a transformed function: use sciax.numpy instead.")


class UnexpectedTracerError(TypeError):
    def __init__(self, tracer: Tracer):
        super().__init__(
            f"a tracer ({tracer!r}) escaped the transformation that created it, for "
            "example by being stored in a global or returned through a side "
            "channel, and was then used outside it. Return values from the "
            "transformed function instead.")
