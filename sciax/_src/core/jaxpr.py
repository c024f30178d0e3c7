"""The IR: jaxprs, their pretty-printer, checker and evaluator.

Grammar::

    jaxpr  ::= { lambda constvars ; invars . let eqn* in ( outvars ) }
    eqn    ::= outvars = primitive[params] atoms
    atom   ::= Var | Literal

A :class:`Var` is a typed SSA name; a :class:`Literal` is a scalar constant
known at trace time.  A :class:`ClosedJaxpr` pairs a jaxpr with the values of
its constvars.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray
from sciax._src.core.trace import Primitive
from sciax._src.util import safe_map, safe_zip


# Primitives with side effects (host callbacks): never removed as dead code.
side_effecting: set[Primitive] = set()


class Var:
    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"Var({self.aval.str_short()})"


class Literal:
    __slots__ = ("val", "aval")

    def __init__(self, val: Any, aval: ShapedArray):
        self.val = val
        self.aval = aval

    def __repr__(self) -> str:
        return f"Literal({self.val})"


Atom = Var | Literal


class JaxprEqn(NamedTuple):
    primitive: Primitive
    invars: list[Atom]
    outvars: list[Var]
    params: dict[str, Any]


class Jaxpr:
    __slots__ = ("constvars", "invars", "outvars", "eqns")

    def __init__(self, constvars: Sequence[Var], invars: Sequence[Var],
                 outvars: Sequence[Atom], eqns: Sequence[JaxprEqn]):
        self.constvars = list(constvars)
        self.invars = list(invars)
        self.outvars = list(outvars)
        self.eqns = list(eqns)

    @property
    def in_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.invars]

    @property
    def out_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.outvars]

    def __str__(self) -> str:
        return pp_jaxpr(self)

    __repr__ = __str__


class ClosedJaxpr:
    """A jaxpr with the values of its constvars.

    Closed jaxprs compare and hash *structurally* (same equations, types,
    literals and parameters; consts by identity), so that primitives carrying
    them as parameters (cond branches, loop bodies) hit the eager executable
    cache when the same Python function is traced again.
    """

    __slots__ = ("jaxpr", "consts", "_key", "_hash")

    def __init__(self, jaxpr: Jaxpr, consts: Sequence[Any]):
        assert len(jaxpr.constvars) == len(consts)
        self.jaxpr = jaxpr
        self.consts = list(consts)
        self._key: Any = None
        self._hash: int | None = None

    def structural_key(self) -> Any:
        if self._key is None:
            self._key = (jaxpr_key(self.jaxpr), tuple(_IdKey(c) for c in self.consts))
        return self._key

    def __hash__(self) -> int:
        # cached: hashing the nested key walks the whole jaxpr
        if self._hash is None:
            self._hash = hash(self.structural_key())
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is ClosedJaxpr
                                 and self.structural_key() == other.structural_key())

    @property
    def in_avals(self) -> list[ShapedArray]:
        return self.jaxpr.in_avals

    @property
    def out_avals(self) -> list[ShapedArray]:
        return self.jaxpr.out_avals

    @property
    def eqns(self) -> list[JaxprEqn]:
        return self.jaxpr.eqns

    def __str__(self) -> str:
        return pp_jaxpr(self.jaxpr)

    __repr__ = __str__


def close_over_consts(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list[Any]]:
    """Turn constvars into leading invars; returns the new jaxpr and the consts."""
    j = closed.jaxpr
    return (ClosedJaxpr(Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), []),
            list(closed.consts))


class _IdKey:
    """Compares by identity, keeping its object alive (so ids are not reused)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any):
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return type(other) is _IdKey and other.obj is self.obj


def _param_key(v: Any) -> Any:
    if isinstance(v, ClosedJaxpr):
        return ("closed_jaxpr", v.structural_key())
    if isinstance(v, Jaxpr):
        return ("jaxpr", jaxpr_key(v))
    if v is None or isinstance(v, bool | int | float | complex | str | np.dtype):
        return (type(v), v)
    if isinstance(v, tuple):
        return (type(v), tuple(_param_key(x) for x in v))
    return _IdKey(v)


def jaxpr_key(jaxpr: Jaxpr) -> tuple:
    """A hashable description of ``jaxpr`` up to renaming of its variables."""
    names: dict[Var, int] = {}

    def var(v: Var) -> tuple:
        if v not in names:
            names[v] = len(names)
        return ("v", names[v], v.aval)

    def atom(a: Any) -> tuple:
        if type(a) is Literal:
            val = np.asarray(a.val)
            return ("l", a.aval, val.tobytes())
        return var(a)

    head = (tuple(var(v) for v in jaxpr.constvars), tuple(var(v) for v in jaxpr.invars))
    eqns = tuple(
        (eqn.primitive, tuple(atom(a) for a in eqn.invars),
         tuple(var(v) for v in eqn.outvars),
         tuple((k, _param_key(p)) for k, p in sorted(eqn.params.items())))
        for eqn in jaxpr.eqns)
    return (head, eqns, tuple(atom(a) for a in jaxpr.outvars))


def has_effect(eqn: JaxprEqn) -> bool:
    """Whether ``eqn`` has a side effect, itself or in a jaxpr it runs (a loop
    or branch body that prints must stay even when its outputs are unused)."""
    if eqn.primitive in side_effecting:
        return True

    def nested(v: Any) -> bool:
        if isinstance(v, ClosedJaxpr):
            v = v.jaxpr
        if isinstance(v, Jaxpr):
            return any(has_effect(e) for e in v.eqns)
        return isinstance(v, tuple | list) and any(nested(x) for x in v)

    return any(nested(v) for v in eqn.params.values())


def dce_jaxpr(jaxpr: Jaxpr, used_outputs: Sequence[bool]) -> Jaxpr:
    """``jaxpr`` restricted to the outputs marked used, without dead equations
    (equations with side effects, also nested in their jaxprs, are kept)."""
    outvars = [v for v, u in safe_zip(jaxpr.outvars, used_outputs) if u]
    live = {v for v in outvars if type(v) is Var}
    eqns = []
    for eqn in reversed(jaxpr.eqns):
        if any(v in live for v in eqn.outvars) or has_effect(eqn):
            eqns.append(eqn)
            live.update(v for v in eqn.invars if type(v) is Var)
    return Jaxpr(jaxpr.constvars, jaxpr.invars, outvars, eqns[::-1])


# -- evaluation ------------------------------------------------------------------

def eval_jaxpr(jaxpr: Jaxpr, consts: Sequence[Any], *args: Any) -> list[Any]:
    """Evaluate ``jaxpr`` by binding its primitives (so it is itself traceable)."""
    env: dict[Var, Any] = {}

    def read(atom: Atom) -> Any:
        return atom.val if type(atom) is Literal else env[atom]

    def write(v: Var, val: Any) -> None:
        env[v] = val

    safe_map(write, jaxpr.constvars, consts)
    safe_map(write, jaxpr.invars, args)
    for eqn in jaxpr.eqns:
        outs = eqn.primitive.bind(*map(read, eqn.invars), **eqn.params)
        if not eqn.primitive.multiple_results:
            outs = [outs]
        safe_map(write, eqn.outvars, outs)
    return [read(v) for v in jaxpr.outvars]


# -- checking --------------------------------------------------------------------

class JaxprTypeError(TypeError):
    pass


def _same_type(a: ShapedArray, b: ShapedArray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def check_jaxpr(jaxpr: Jaxpr) -> None:
    """Check that every variable is defined once before use and that each
    equation's outputs have the types its primitive's abstract eval gives."""
    defined: set[Var] = set()

    def define(v: Var) -> None:
        if v in defined:
            raise JaxprTypeError(f"variable {v} defined twice")
        defined.add(v)

    def use(a: Atom) -> ShapedArray:
        if type(a) is Var and a not in defined:
            raise JaxprTypeError(f"variable {a} used before definition")
        return a.aval

    for v in [*jaxpr.constvars, *jaxpr.invars]:
        define(v)
    for eqn in jaxpr.eqns:
        in_avals = [use(a) for a in eqn.invars]
        out = eqn.primitive.abstract_eval(*in_avals, **eqn.params)
        out = list(out) if eqn.primitive.multiple_results else [out]
        if len(out) != len(eqn.outvars):
            raise JaxprTypeError(f"{eqn.primitive} gives {len(out)} outputs, "
                                 f"equation has {len(eqn.outvars)}")
        for o, v in safe_zip(out, eqn.outvars):
            if not _same_type(o, v.aval):
                raise JaxprTypeError(
                    f"{eqn.primitive} output typed {v.aval.str_short()}, rule gives "
                    f"{o.str_short()}")
            define(v)
    for v in jaxpr.outvars:
        use(v)


# -- pretty-printing -------------------------------------------------------------

def _names() -> Any:
    letters = "abcdefghijklmnopqrstuvwxyz"
    for n in itertools.count(1):
        for combo in itertools.product(letters, repeat=n):
            yield "".join(combo)


def _pp_param(v: Any) -> str:
    if isinstance(v, ClosedJaxpr | Jaxpr):
        inner = pp_jaxpr(v.jaxpr if isinstance(v, ClosedJaxpr) else v)
        return "\n      " + inner.replace("\n", "\n      ")
    if isinstance(v, np.dtype):
        return dtypes.short_name(v)
    return repr(v) if isinstance(v, str) else str(v)


def pp_jaxpr(jaxpr: Jaxpr) -> str:
    """A readable listing, e.g. ``{ lambda ; a:f64[3]. let b:f64[3] = sin a in (b,) }``."""
    gen = _names()
    names: dict[Var, str] = {}

    def name(a: Atom) -> str:
        if type(a) is Literal:
            v = a.val
            return str(v.item() if hasattr(v, "item") else v)
        if a not in names:
            names[a] = next(gen)
        return names[a]

    def binder(v: Var) -> str:
        return f"{name(v)}:{v.aval.str_short()}"

    consts = " ".join(binder(v) for v in jaxpr.constvars)
    ins = " ".join(binder(v) for v in jaxpr.invars)
    lines = []
    for eqn in jaxpr.eqns:
        outs = " ".join(binder(v) for v in eqn.outvars)
        args = " ".join(name(a) for a in eqn.invars)
        params = ""
        if eqn.params:
            params = "[" + " ".join(
                f"{k}={_pp_param(v)}" for k, v in sorted(eqn.params.items())) + "]"
        lines.append(f"    {outs} = {eqn.primitive.name}{params} {args}".rstrip())
    outs = ", ".join(name(v) for v in jaxpr.outvars)
    body = "\n".join(lines)
    sep = "\n" if lines else ""
    return f"{{ lambda {consts}; {ins}. let{sep}{body}\n  in ({outs},) }}"
