"""``jit`` and ``make_jaxpr``: staging Python functions out to XLA.

``jit(f)(*args)`` flattens the arguments, forms a cache key from their
abstract values, the static arguments and the tree structure, and on a miss
traces ``f`` to a jaxpr, lowers it to StableHLO and compiles it.  A hit runs
the cached executable directly.  Under another transformation (grad, vmap,
an enclosing jit) the traced jaxpr is bound as the :data:`jit_p` call
primitive instead, so the transformation sees one equation.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import inspect
import operator
import os
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from sciax._src import compile_log, dispatch
from sciax._src.config import config
from sciax._src.backend.array import Array
from sciax._src.backend.array import (device_put as _device_put, ndarray_array,
                                      scalar_array)
from sciax._src.backend.pytree import registry

try:  # the optional C accelerator of the cache-hit path (built by setup.py)
    from sciax._src import _fastjit
except ImportError:
    _fastjit = None

_flatten = registry.flatten
_get_key = operator.attrgetter("aval.key")
_get_buf = operator.attrgetter("_buf")
_ARRAY = frozenset({Array})
# Cache keys: (_FLAT, *aval keys) for positional calls whose every argument is
# one leaf; (tree, tag, *aval keys) otherwise, the tag being _POSITIONAL for
# other positional calls (tree of args) or the statics tuple (tree of (args,
# kwargs)).
_FLAT = object()
_POSITIONAL = object()
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.jaxpr import (ClosedJaxpr, Jaxpr, Var, close_over_consts,
                                   eval_jaxpr)
from sciax._src.core.trace import (Primitive, Tracer, UnexpectedTracerError, _state,
                                   eval_trace, set_current_trace)
from sciax._src.interpreters import ad, batching, lowering, partial_eval as pe
from sciax._src.lru import LRUCache
from sciax._src.tree_util import flatten_fun
from sciax._src.util import check_argnum_spec

# --- the call primitive -----------------------------------------------------------
# ``jit_p.bind(*args, jaxpr=closed, name=...)``: ``closed`` has no consts (they are
# passed as leading operands), so the primitive is a pure function of its operands.

jit_p = Primitive("jit", multiple_results=True)


def _jit_abstract_eval(*avals: ShapedArray, jaxpr: ClosedJaxpr, name: str
                       ) -> list[ShapedArray]:
    expected = jaxpr.in_avals
    if len(avals) != len(expected) or any(
            a.shape != e.shape or a.dtype != e.dtype for a, e in zip(avals, expected)):
        raise TypeError(f"jit({name}) called with {[a.str_short() for a in avals]}, "
                        f"traced for {[e.str_short() for e in expected]}")
    return jaxpr.out_avals


def _jit_impl(*args: Any, jaxpr: ClosedJaxpr, name: str) -> list[Array]:
    return dispatch.execute_closed_jaxpr(jaxpr, *args)


def _jit_lowering(ctx: lowering.LoweringRuleContext, *args: Any, jaxpr: ClosedJaxpr,
                  name: str) -> list[Any]:
    return lowering.jaxpr_subcomp(ctx.module_ctx, jaxpr.jaxpr, args)


jit_p.def_abstract_eval(_jit_abstract_eval)
jit_p.def_impl(_jit_impl)
lowering.register_lowering(jit_p, _jit_lowering)
# The body, for transformations that inline it (bodies with collectives).
pe.call_jaxprs[jit_p] = lambda *, jaxpr, name: jaxpr


# --- jit_p under transformations ----------------------------------------------------
# Each rule transforms the body as a whole and binds jit_p again, so jvp, grad
# and vmap of a jitted function run one compiled program per pass (forward,
# backward) instead of dispatching the body's operations one by one.  The
# transformed bodies are cached by the body's structure and the pattern of
# zero/unknown/batched operands.  A body with collectives is inlined instead:
# their axis names belong to the enclosing transformations.

@functools.lru_cache(maxsize=512)
def _uses_axis(closed: ClosedJaxpr) -> bool:
    """Whether the body (or a jaxpr nested in it) has a collective."""
    def scan(jaxpr: Jaxpr) -> bool:
        return any(e.primitive in batching.axis_primitives
                   or any(sub(v) for v in e.params.values()) for e in jaxpr.eqns)

    def sub(v: Any) -> bool:
        if isinstance(v, ClosedJaxpr):
            return scan(v.jaxpr)
        if isinstance(v, Jaxpr):
            return scan(v)
        return isinstance(v, tuple) and any(sub(x) for x in v)
    return scan(closed.jaxpr)


@functools.lru_cache(maxsize=512)
def _jvp_body(jaxpr: ClosedJaxpr, nonzeros: tuple[bool, ...]):
    return ad.jvp_jaxpr(jaxpr, nonzeros, instantiate=False)


def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str):
    if _uses_axis(jaxpr):
        return ad.jvp_flat(lambda *a: eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *a),
                           primals, tangents)
    nonzeros = tuple(type(t) is not ad.Zero for t in tangents)
    body, consts, out_nz = _jvp_body(jaxpr, nonzeros)
    outs = jit_p.bind(*consts, *primals,
                      *(t for t, nz in zip(tangents, nonzeros) if nz),
                      jaxpr=body, name=name)
    m = len(jaxpr.out_avals)
    t_out = iter(outs[m:])
    return outs[:m], [next(t_out) if nz else ad.Zero(a)
                      for nz, a in zip(out_nz, jaxpr.out_avals)]


@functools.lru_cache(maxsize=512)
def _split_body(jaxpr: ClosedJaxpr, unknowns: tuple[bool, ...]):
    """The body split for partial evaluation: which outputs are unknown; the
    known part as a body returning ``known outputs + residuals``; the unknown
    part as a body taking ``residuals + unknown inputs``."""
    out_unknown, run = pe.partial_eval_jaxpr(jaxpr, unknowns)
    staged_box: list[ClosedJaxpr] = []

    def known_part(*known: Any) -> list[Any]:
        outs, staged, _ = run(*known, force_unknown=out_unknown)
        staged_box.append(staged)
        return [*outs, *staged.consts]

    known_avals = [a for a, u in zip(jaxpr.in_avals, unknowns) if not u]
    known_body, known_consts = close_over_consts(pe.trace_to_jaxpr(known_part,
                                                                   known_avals))
    staged_body, residuals = close_over_consts(staged_box[0])
    return out_unknown, known_body, known_consts, staged_body, len(residuals)


def _jit_partial_eval(trace: pe.PartialEvalTrace, args: Sequence[Any], params: dict
                      ) -> list[Any]:
    jaxpr, name = params["jaxpr"], params["name"]
    if _uses_axis(jaxpr):
        return pe.inline_call(trace, jit_p, args, params)
    unknowns = tuple(trace.is_unknown(x) for x in args)
    out_unknown, known_body, known_consts, staged_body, n_res = _split_body(
        jaxpr, unknowns)
    with set_current_trace(trace.parent):
        known = jit_p.bind(*known_consts, *(x for x, u in zip(args, unknowns) if not u),
                           jaxpr=known_body, name=name)
    n_known = len(known) - n_res
    staged = iter(trace.staged.process_primitive(
        jit_p, [*known[n_known:], *(x for x, u in zip(args, unknowns) if u)],
        {"jaxpr": staged_body, "name": name}) if any(out_unknown) else ())
    known_outs = iter(known[:n_known])
    return [next(staged) if u else next(known_outs) for u in out_unknown]


@functools.lru_cache(maxsize=512)
def _transpose_body(jaxpr: ClosedJaxpr, linear: tuple[bool, ...],
                    ct_zero: tuple[bool, ...]):
    """A body from ``non-linear inputs + nonzero output cotangents`` to the
    cotangents of the linear inputs."""
    avals, out_avals = jaxpr.in_avals, jaxpr.out_avals
    n_known = linear.count(False)

    def transposed(*xs: Any) -> list[Any]:
        known, cts = iter(xs[:n_known]), iter(xs[n_known:])
        args = [ad.UndefinedPrimal(a) if lin else next(known)
                for a, lin in zip(avals, linear)]
        cts_out = [ad.Zero(a) if z else next(cts) for a, z in zip(out_avals, ct_zero)]
        cts_in = ad.backward_pass(jaxpr.jaxpr, jaxpr.consts, cts_out, args=args)
        return [ad.instantiate_zeros(c) for c, lin in zip(cts_in, linear) if lin]

    in_avals = [*(a for a, lin in zip(avals, linear) if not lin),
                *(a for a, z in zip(out_avals, ct_zero) if not z)]
    return close_over_consts(pe.trace_to_jaxpr(transposed, in_avals))


def _jit_transpose(cts: Sequence[Any], *args: Any, jaxpr: ClosedJaxpr, name: str
                   ) -> list[Any]:
    linear = tuple(ad.is_undefined_primal(a) for a in args)
    ct_zero = tuple(type(c) is ad.Zero for c in cts)
    body, consts = _transpose_body(jaxpr, linear, ct_zero)
    outs = iter(jit_p.bind(*consts, *(a for a, lin in zip(args, linear) if not lin),
                           *(c for c, z in zip(cts, ct_zero) if not z),
                           jaxpr=body, name=name))
    return [next(outs) if lin else None for lin in linear]


@functools.lru_cache(maxsize=512)
def _batch_body(jaxpr: ClosedJaxpr, dims: tuple[int | None, ...], size: int):
    return batching.batch_jaxpr(jaxpr, dims, size, force_out=False)


def _jit_batch(trace: batching.BatchTrace, vals: Sequence[Any],
               dims: Sequence[int | None], *, jaxpr: ClosedJaxpr, name: str):
    if _uses_axis(jaxpr):
        return None
    body, consts, out_dims = _batch_body(jaxpr, tuple(dims), trace.axis_size)
    with set_current_trace(trace.parent):
        outs = jit_p.bind(*consts, *vals, jaxpr=body, name=name)
    return outs, out_dims


ad.primitive_jvps[jit_p] = _jit_jvp
pe.partial_eval_rules[jit_p] = _jit_partial_eval
ad.primitive_transposes[jit_p] = _jit_transpose
batching.call_batchers[jit_p] = _jit_batch


# --- jit --------------------------------------------------------------------------

def _normalize_static(fun: Callable, static_argnums: int | Iterable[int] | None,
                      static_argnames: str | Iterable[str] | None
                      ) -> tuple[tuple[int, ...], tuple[str, ...]]:
    nums = check_argnum_spec(static_argnums, "static_argnums", fun)
    names = (static_argnames,) if isinstance(static_argnames, str) else static_argnames
    try:
        names = tuple(names or ())
    except TypeError:
        names = (names,)
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"static_argnames={static_argnames!r} is not valid; expected a "
                        "str or a sequence of str (parameter names)")
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return nums, names
    if not any(p.kind is p.VAR_KEYWORD for p in params):
        known = {p.name for p in params if p.kind is not p.POSITIONAL_ONLY}
        for n in names:
            if n not in known:
                raise ValueError(
                    f"static_argnames={static_argnames!r}: {n!r} names no parameter of "
                    f"{getattr(fun, '__name__', fun)!s}, whose parameters are "
                    f"{sorted(known)}")
    positional = [p for p in params
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for n in nums:
        if not isinstance(n, int):
            raise TypeError(f"static_argnums must be ints, got {n!r}")
        if 0 <= n < len(positional) and positional[n].kind is positional[n].POSITIONAL_OR_KEYWORD:
            names += (positional[n].name,)
    by_name = {p.name: i for i, p in enumerate(positional)}
    nums += tuple(by_name[n] for n in names if n in by_name and by_name[n] not in nums)
    return tuple(dict.fromkeys(nums)), tuple(dict.fromkeys(names))


def _check_hashable(value: Any, what: str) -> None:
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"static argument {what} of type {type(value).__name__} is not hashable "
            f"(value {value!r:.60}): static arguments form part of the jit cache key, "
            "so they must be hashable, e.g. a tuple instead of a list") from None


def _used_consts(jaxpr: Jaxpr, consts: Sequence[Any]) -> tuple[Jaxpr, list]:
    """``jaxpr`` without the constvars that no equation or output reads, and
    the remaining consts: dead code removed after tracing (the sign of a
    determinant under ``grad``, say) leaves its constants behind, and every
    call would pass their buffers."""
    used = {v for e in jaxpr.eqns for v in e.invars if type(v) is Var}
    used.update(v for v in jaxpr.outvars if type(v) is Var)
    keep = [i for i, v in enumerate(jaxpr.constvars) if v in used]
    if len(keep) == len(jaxpr.constvars):
        return jaxpr, list(consts)
    return (Jaxpr([jaxpr.constvars[i] for i in keep], jaxpr.invars, jaxpr.outvars,
                  jaxpr.eqns), [consts[i] for i in keep])


@functools.lru_cache(maxsize=64)
def _tuple_tree(n: int) -> Any:
    """The tree of a tuple of ``n`` arrays."""
    return _flatten((0,) * n)[1]


class _Entry:
    """A compiled signature of a jitted function, laid out for the hot path:
    ``run(bufs).consume_with_handlers(handlers)`` executes (jaxlib's
    ``execute_sharded`` and C++ result handlers), ``single`` is the aval of
    the one output when the result is a bare array (no tree to rebuild)."""

    __slots__ = ("exe", "const_bufs", "out_tree", "out_avals", "run", "handlers",
                 "single", "fast")

    def __init__(self, exe, const_bufs, out_tree):
        self.exe = exe
        self.const_bufs = const_bufs
        self.out_tree = out_tree
        self.out_avals = exe.out_avals
        self.run = exe.run
        self.handlers = exe.handlers
        self.single = (self.out_avals[0] if len(self.out_avals) == 1
                       and out_tree.num_nodes == 1 and out_tree.num_leaves == 1
                       else None)
        # the same, as one tuple for the C hot path (sciax/_src/_fastjit.c),
        # which builds a result that is a flat tuple of arrays itself
        flat_out = out_tree == _tuple_tree(len(self.out_avals))
        self.fast = (self.run, self.handlers, self.single, out_tree, self.out_avals,
                     tuple(const_bufs), flat_out)


@contextlib.contextmanager
def _gc_paused() -> Any:
    """Python's cyclic garbage collector off while a program is traced and
    lowered (the outermost caller turns it back on).  Tracing allocates tens
    of thousands of short-lived objects, which set off full collections that
    walk the whole heap: ~20% of the trace time of an ODE solve's gradient.
    What the trace leaves behind is freed by reference counting; any cycles
    are collected once the collector runs again."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class Lowered:
    """The StableHLO of a jitted function for particular argument types."""

    def __init__(self, module: Any, closed: ClosedJaxpr, out_tree: Any, consts: list):
        self._module = module
        self.jaxpr = closed
        self._out_tree = out_tree
        self._consts = consts

    def as_text(self) -> str:
        """The StableHLO module as MLIR text."""
        return str(self._module)

    def compile(self) -> Compiled:
        return Compiled(dispatch.compile_lowered(self._module, self.jaxpr.out_avals),
                        self._out_tree, self._consts)


class Compiled:
    """An executable for fixed argument types; call it with arrays of those types."""

    def __init__(self, exe: Any, out_tree: Any, consts: list):
        self._exe = exe
        self._out_tree = out_tree
        self._const_bufs = [dispatch.to_buffer(c)[0] for c in consts]

    def as_text(self) -> str:
        """The optimised HLO that XLA produced."""
        return self._exe.as_text()

    def __call__(self, *args: Any) -> Any:
        leaves, _ = registry.flatten(args)
        bufs = [*self._const_bufs, *(dispatch.to_buffer(x)[0] for x in leaves)]
        outs = [Array(b, a) for b, a in zip(self._exe.execute(bufs), self._exe.out_avals)]
        return self._out_tree.unflatten(outs)


_live_jitted: weakref.WeakSet = weakref.WeakSet()


def _fast_base() -> type:
    """The C accelerator's base class for :class:`JitWrapped` (its cache-hit
    path for positional calls of Arrays, Python scalars and tuples/lists of
    them, sciax/_src/_fastjit.c), or ``object`` when the extension was not
    built or ``SCIAX_NO_FASTJIT=1``."""
    if _fastjit is None or os.environ.get("SCIAX_NO_FASTJIT", "") not in ("", "0"):
        return object
    try:
        _fastjit.configure(Array, _state, eval_trace, _FLAT, _POSITIONAL, _flatten,
                           scalar_array, ShapedArray, np.ndarray, ndarray_array)
    except TypeError:  # an extension built from an older source: rebuild it
        return object  # (tests/test_fastjit.py fails until then)
    return _fastjit.FastJit


_FastBase = _fast_base()


def _clear_jit_caches(name: str, value: Any) -> None:
    # Traces depend on enable_x64 (dtype canonicalisation), so a change of it
    # invalidates every jitted function's traces and executables.
    if name == "enable_x64":
        for f in list(_live_jitted):
            f._cache.clear()
            f._trace_cache.clear()
            f._call_cache.clear()
            if _FastBase is not object:  # the C path's last hit goes too
                f._set_fast(None if f._has_statics else f._cache, f._call)


config.on_change(_clear_jit_caches)


class JitWrapped(_FastBase):
    """A function compiled by XLA on first call for each new argument signature.

    Calling it runs :meth:`_call`; with the C accelerator built, a positional
    call of Arrays, Python scalars or tuples/lists of them whose signature is
    cached runs the same steps in C (the base class), and everything else
    falls through to :meth:`_call`.
    """

    def __init__(self, fun: Callable, static_argnums: Any = None,
                 static_argnames: Any = None):
        if not callable(fun):
            raise TypeError(f"jit expects a callable, got {fun!r}")
        self.fun = fun
        self._static_nums, self._static_names = _normalize_static(
            fun, static_argnums, static_argnames)
        self._has_statics = bool(self._static_nums or self._static_names)
        # all bounded by config.jit_cache_size, least recently used first out
        self._cache: LRUCache = LRUCache("jit_cache_size")  # -> _Entry
        self._trace_cache: LRUCache = LRUCache("jit_cache_size")  # -> (jaxpr, tree)
        self._call_cache: LRUCache = LRUCache("jit_cache_size")  # id(jaxpr) -> call
        self._name = getattr(fun, "__name__", None) or repr(fun)
        functools.update_wrapper(self, fun, updated=())
        _live_jitted.add(self)
        if _FastBase is not object:  # static arguments: the Python path only
            self._set_fast(None if self._has_statics else self._cache, self._call)

    def __repr__(self) -> str:
        return f"<jitted function {getattr(self.fun, '__name__', self.fun)!r}>"

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    # -- argument handling -------------------------------------------------------
    def _split(self, args: tuple, kwargs: dict) -> tuple[tuple, dict, tuple]:
        if not (self._static_nums or self._static_names):
            return args, kwargs, ()
        n = len(args)
        nums = {i + n if i < 0 else i for i in self._static_nums}
        statics = []
        dyn_args = []
        for i, a in enumerate(args):
            if i in nums:
                _check_hashable(a, f"at position {i}")
                statics.append((i, a))
            else:
                dyn_args.append(a)
        dyn_kwargs = {}
        for k, v in kwargs.items():
            if k in self._static_names:
                _check_hashable(v, repr(k))
                statics.append((k, v))
            else:
                dyn_kwargs[k] = v
        return tuple(dyn_args), dyn_kwargs, tuple(statics)

    def _call_fun(self, dyn_args: Sequence, dyn_kwargs: dict, statics: tuple) -> Any:
        if not statics:
            return self.fun(*dyn_args, **dyn_kwargs)
        pos = {k: v for k, v in statics if isinstance(k, int)}
        kw = {k: v for k, v in statics if isinstance(k, str)}
        it = iter(dyn_args)
        args = [pos[i] if i in pos else next(it)
                for i in range(len(dyn_args) + len(pos))]
        return self.fun(*args, **dyn_kwargs, **kw)

    def _trace(self, in_tree: Any, statics: tuple, avals: list[ShapedArray]
               ) -> tuple[ClosedJaxpr, Any]:
        key = (in_tree, statics, *avals)
        hit = self._trace_cache.lookup(key)
        if hit is not None:
            return hit
        flat_fun, out_tree = flatten_fun(
            lambda *args, **kwargs: self._call_fun(args, kwargs, statics), in_tree,
            kwargs=True, what=f"jit-compiled function {self._name!r}")
        with _gc_paused():
            closed = pe.trace_to_jaxpr(flat_fun, avals)
        result = (closed, out_tree())
        if not any(isinstance(c, Tracer) for c in closed.consts):
            self._trace_cache.put(key, result)
        return result

    def _flatten_args(self, args: tuple, kwargs: dict) -> tuple:
        dyn_args, dyn_kwargs, statics = self._split(args, kwargs)
        leaves, in_tree = registry.flatten((dyn_args, dyn_kwargs))
        return leaves, in_tree, statics

    # -- calling -----------------------------------------------------------------
    def _call(self, *args: Any, **kwargs: Any) -> Any:
        if _state.trace is eval_trace:
            # The hot path: the signature seen before.  (map with attrgetter
            # runs in C: no comprehension frame; avals' keys are plain tuples.)
            cache = self._cache
            if not (kwargs or self._has_statics) and _ARRAY.issuperset(map(type, args)):
                # positional Arrays only, the commonest call: no tree to flatten
                key = (_FLAT, *map(_get_key, args))
                entry = cache.get(key)
                if entry is None:
                    leaves, in_tree = _flatten(args)
                    key, entry, _ = self._miss(in_tree, _POSITIONAL, leaves, args, kwargs)
                bufs = list(map(_get_buf, args))
            else:
                leaves, in_tree, tag = self._flatten_call(args, kwargs)
                try:
                    key = (in_tree, tag, *map(_get_key, leaves))
                    entry = cache[key]
                    bufs = list(map(_get_buf, leaves))
                except (AttributeError, KeyError):  # a miss, or non-Array leaves
                    key, entry, bufs = self._miss(in_tree, tag, leaves, args, kwargs)
            if len(cache) > 1:  # least-recently-used order (one entry: no order)
                cache.move_to_end(key)
            if entry.const_bufs:
                bufs = [*entry.const_bufs, *bufs]
            outs = entry.run(bufs).consume_with_handlers(entry.handlers)
            if entry.single is not None:
                return Array(outs[0], entry.single)
            return entry.out_tree.unflatten(list(map(Array, outs, entry.out_avals)))
        if self._has_statics:
            leaves, in_tree, statics = self._flatten_args(args, kwargs)
        else:
            leaves, in_tree = _flatten((args, kwargs))
            statics = ()
        avals = [get_aval(x) for x in leaves]
        closed, out_tree = self._trace(in_tree, statics, avals)
        # one ClosedJaxpr object per trace, so the transformation rules' caches
        # hit by identity instead of comparing structures
        call = self._call_cache.lookup(id(closed))
        if call is None or call[0] is not closed:
            call = (closed, *close_over_consts(closed))
            if self._trace_cache.get((in_tree, statics, *avals), (None,))[0] is closed:
                self._call_cache.put(id(closed), call)
        _, jaxpr, consts = call
        outs = jit_p.bind(*consts, *leaves, jaxpr=jaxpr, name=self._name)
        return out_tree.unflatten(outs)

    if _FastBase is object:
        __call__ = _call

    def _flatten_call(self, args: tuple, kwargs: dict) -> tuple:
        """``(leaves, tree, tag)`` of an eager call.  Positional calls flatten
        only ``args`` (one node less to build, walk and hash) and are tagged
        ``_POSITIONAL``; the others flatten ``(args, kwargs)`` and are tagged by
        their statics tuple, so the two kinds of tree never meet in one key."""
        if self._has_statics:
            leaves, in_tree, statics = self._flatten_args(args, kwargs)
            return leaves, in_tree, statics
        if kwargs:
            leaves, in_tree = _flatten((args, kwargs))
            return leaves, in_tree, ()
        leaves, in_tree = _flatten(args)
        return leaves, in_tree, _POSITIONAL

    def _miss(self, tree: Any, tag: Any, leaves: list, args: tuple, kwargs: dict
              ) -> tuple:
        """``(key, entry, buffers)`` for leaves that are not all Arrays or a
        signature not in the cache (compiled now).  ``tree`` and ``tag`` are
        as from ``_flatten_call``; a positional call whose every argument is
        one leaf gets the key of the all-Arrays path, so NumPy arguments and
        Arrays of the same types share one program."""
        bufs, avals = [], []
        for x in leaves:
            b, a = dispatch.to_buffer(x)
            bufs.append(b)
            avals.append(a)
        if (tag is _POSITIONAL and len(leaves) == len(args)
                and tree.num_nodes == len(args) + 1):
            key = (_FLAT, *(a.key for a in avals))
        else:
            key = (tree, tag, *(a.key for a in avals))
        entry = self._cache.get(key)
        if entry is None:
            if tag is _POSITIONAL:
                tree, tag = _flatten((args, kwargs))[1], ()
            entry = self._compile(key, tree, tag, avals)
        return key, entry, bufs

    def _compile(self, key: Any, in_tree: Any, statics: tuple,
                 avals: list[ShapedArray]) -> _Entry:
        t0 = time.perf_counter()
        closed, out_tree = self._trace(in_tree, statics, avals)
        t1 = time.perf_counter()
        jaxpr, consts = _used_consts(closed.jaxpr, closed.consts)
        with _gc_paused():
            exe = dispatch.compile_jaxpr(jaxpr)
        const_bufs = []
        for c in consts:
            if isinstance(c, Tracer):
                raise UnexpectedTracerError(c)
            const_bufs.append(dispatch.to_buffer(c)[0])
        entry = self._cache.put(key, _Entry(exe, const_bufs, out_tree))
        if config.log_compiles:
            compile_log.log_first_call(entry, self._name, avals, t1 - t0,
                                       time.perf_counter() - t1)
        return entry

    def lower(self, *args: Any, **kwargs: Any) -> Lowered:
        """Trace and lower for these arguments; ``.as_text()`` shows the StableHLO."""
        leaves, in_tree, statics = self._flatten_args(args, kwargs)
        avals = [get_aval(x) for x in leaves]
        closed, out_tree = self._trace(in_tree, statics, avals)
        with _gc_paused():
            module = lowering.lower_jaxpr(closed.jaxpr, self._name)
        return Lowered(module, closed, out_tree, closed.consts)

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        leaves, in_tree, statics = self._flatten_args(args, kwargs)
        closed, out_tree = self._trace(in_tree, statics, [get_aval(x) for x in leaves])
        return out_tree.unflatten(closed.out_avals)


def check_donation(fun: Callable[..., Any], donate_argnums: Any, donate_argnames: Any,
                   static: tuple[tuple[int, ...], tuple[str, ...]]
                   ) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``jit``'s ``donate_argnums``/``donate_argnames``, validated against
    ``fun``'s signature and the static arguments ``static = (nums, names)``.

    Returns the normalised ``(argnums, argnames)``.  Donation is a promise by
    the caller (the donated inputs are not used again); sciax accepts it but
    does not yet reuse the buffers (see :func:`sciax.jit`).
    """
    import inspect

    def as_tuple(v: Any, kind: type, what: str) -> tuple:
        if v is None:
            return ()
        items = (v,) if isinstance(v, kind) else v
        try:
            items = tuple(items)
        except TypeError:
            raise TypeError(f"jit: {what} must be {kind.__name__} or a sequence of "
                            f"them, got {v!r}") from None
        for x in items:
            if not isinstance(x, kind) or isinstance(x, bool):
                raise TypeError(f"jit: {what} must be {kind.__name__}s, got "
                                f"{x!r} in {v!r}")
        return items

    nums = as_tuple(donate_argnums, int, "donate_argnums")
    names = as_tuple(donate_argnames, str, "donate_argnames")
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        params = None
    if params is not None:
        positional = [p for p in params
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        var_pos = any(p.kind is p.VAR_POSITIONAL for p in params)
        var_kw = any(p.kind is p.VAR_KEYWORD for p in params)
        for n in nums:
            if not var_pos and not -len(positional) <= n < len(positional):
                raise ValueError(
                    f"jit: donate_argnums={n} is out of range for {fun.__name__!r}, "
                    f"which takes {len(positional)} positional arguments")
        by_name = {p.name: p for p in params
                   if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        for s in names:
            if s not in by_name and not var_kw:
                raise ValueError(
                    f"jit: donate_argnames={s!r} names no parameter of "
                    f"{getattr(fun, '__name__', fun)!r} (parameters: "
                    f"{list(by_name)})")
        # the same argument donated by position and by name, as JAX
        pos_names = [p.name for p in positional]
        nums = tuple(dict.fromkeys(
            (*nums, *(pos_names.index(s) for s in names if s in pos_names))))
    static_nums, static_names = static
    both = {n for n in nums if n in static_nums} | (set(names) & set(static_names))
    if both:
        raise ValueError(f"jit: arguments {sorted(map(str, both))} are both static "
                         "and donated; a static argument has no buffer to donate")
    return nums, names


# --- devices and processes ---------------------------------------------------------


def jit(fun: Callable, *, static_argnums: int | Sequence[int] | None = None,
        static_argnames: str | Sequence[str] | None = None,
        donate_argnums: int | Sequence[int] | None = None,
        donate_argnames: str | Sequence[str] | None = None) -> JitWrapped:
    """Compile ``fun`` with XLA.

    The first call for each new combination of argument shapes/dtypes, static
    argument values and pytree structure traces ``fun`` and compiles it; later
    calls with the same signature run the compiled program directly.

    Parameters
    ----------
    fun : callable
        A function of arrays (or pytrees of arrays) that returns arrays.
    static_argnums, static_argnames : int or sequence, optional
        Arguments treated as compile-time constants. They must be hashable;
        a new value triggers a new trace.
    donate_argnums, donate_argnames : int/str or sequence, optional
        Arguments whose buffers the caller will not use again (as in JAX).
        They are validated (in range, naming a parameter, not static) and
        recorded; sciax does not reuse their memory yet, so donated inputs
        stay valid and results are the same with or without donation.

    Returns
    -------
    JitWrapped
        A callable with the signature of ``fun``; ``.lower(*args).as_text()``
        shows the StableHLO it compiles.

    Notes
    -----
    Inside ``fun`` values are abstract: Python ``if`` on an array value raises
    a ``ConcretizationTypeError``; use :func:`sciax.numpy.where` or make the
    argument static.

    Examples
    --------
    >>> f = sciax.jit(lambda x, n: x ** n, static_argnums=1)
    >>> f(snp.arange(3.0), 2)
    Array([0., 1., 4.], dtype=float64)
    """
    wrapped = JitWrapped(fun, static_argnums, static_argnames)
    if donate_argnums is not None or donate_argnames is not None:
        wrapped.donate_argnums, wrapped.donate_argnames = check_donation(
            fun, donate_argnums, donate_argnames,
            (wrapped._static_nums, wrapped._static_names))
    return wrapped


def make_jaxpr(fun: Callable, static_argnums: int | Sequence[int] = ()
               ) -> Callable[..., ClosedJaxpr]:
    """A function that returns the jaxpr of ``fun`` for given example arguments.

    Examples
    --------
    >>> print(sciax.make_jaxpr(lambda x: snp.sin(x) * 2.0)(1.0))
    { lambda ; a:f64[]. let
        b:f64[] = sin a
        c:f64[] = mul b 2.0
      in (c,) }
    """
    wrapped = JitWrapped(fun, static_argnums, None)

    @functools.wraps(fun)
    def make(*args: Any, **kwargs: Any) -> ClosedJaxpr:
        leaves, in_tree, statics = wrapped._flatten_args(args, kwargs)
        closed, _ = wrapped._trace(in_tree, statics, [get_aval(x) for x in leaves])
        return closed

    return make


def device_put(x: Any, device: Any = None) -> Any:
    """Place every leaf of pytree ``x`` on ``device`` (the default device if None).

    Examples
    --------
    >>> import numpy as np
    >>> sciax.device_put({"w": np.ones(2)})
    {'w': Array([1., 1.], dtype=float64)}
    """
    leaves, tree = registry.flatten(x)
    out = []
    for leaf in leaves:
        get_aval(leaf)
        out.append(_device_put(leaf, device))
    return tree.unflatten(out)

