"""One compiled program per eager ``sciax.numpy`` call.

A ``sciax.numpy`` function built from several primitives would, called
eagerly, dispatch each primitive as its own one-op program.  :func:`program`
wraps such a function so that an eager call runs it as ONE cached XLA program
per signature instead, while under an enclosing transformation (jit, grad,
vmap, control flow) the wrapper steps aside and the function is traced inline
as before.

The program is compiled on the second call of a signature: a signature used
once (a script's set-up, most of a test suite) costs no more than before,
while a loop or a notebook cell run again gets the compiled program.

The signature of a call is its argument tree with each leaf classified:

* arrays (sciax arrays, NumPy arrays and scalars of numeric dtype) and Python
  ``float``/``complex`` are *dynamic*: they become the program's operands, so
  new values reuse the compiled program (Python floats stay weakly typed, as
  they would eagerly);
* Python ``int`` and ``bool``, strings, dtypes and other hashable
  non-callables are *static*: axes, shapes, counts, flags and modes are
  compile-time constants, keyed by type and value.  (An int is static even
  where it is data, as in ``add(x, 1)``: functions branch on ``isinstance(n,
  int)`` for NumPy's integer rules -- ``power(x, -1)`` of an integer array
  raises, ``power(x, 2)`` stays exact -- which a traced int would change.);
* anything else (callables, which are typically fresh closures, or
  unhashable objects) makes the call run directly, op by op: caching on them
  would compile a new program per call.

A function that cannot be one program for a signature (its output shape
depends on values, e.g. ``nonzero``; it needs a concrete value, e.g.
``arange`` of a float; it returns Python values) is found out the first time
(the trace raises, or returns non-array leaves) and that signature then always
runs directly.  Both caches (the signatures here, the shapes in each
program's jit cache) are bounded LRUs of ``config.jit_cache_size`` entries
(:mod:`sciax._src.lru`), so a long sweep over shapes cannot grow memory
without limit.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from sciax._src.arrays import Array
from sciax._src.tree_util import flatten as _flatten
from sciax._src.core.trace import Tracer, _state, eval_trace
from sciax._src.jit import JitWrapped, _FastBase, _fastjit
from sciax._src.lru import LRUCache

_ARRAY = frozenset({Array})
_DYNAMIC = object()  # a dynamic leaf in a signature
_DIRECT = object()  # cache value: this signature runs op by op
_SEEN = object()  # cache value: called once so far


class _NotAProgram(Exception):
    """The function returned something other than traced arrays."""


def _classify(leaf: Any) -> Any:
    """``_DYNAMIC``, a hashable static key, or None (run directly)."""
    t = type(leaf)
    if t is Array or t is float or t is complex:
        return _DYNAMIC
    if t is int or t is bool or t is str:
        return (t, leaf)
    if isinstance(leaf, np.ndarray | np.generic):
        return _DYNAMIC if leaf.dtype.kind in "biufc" else None
    if isinstance(leaf, Array):
        return _DYNAMIC
    if callable(leaf) and not isinstance(leaf, type):
        return None
    try:
        hash(leaf)
    except TypeError:
        return None
    return (t, leaf)


def _make_program(fun: Callable, treedef: Any, statics: tuple) -> JitWrapped:
    """A jitted function of the dynamic leaves; ``statics`` holds ``_DYNAMIC``
    or ``(type, value)`` per leaf."""
    def body(*dynamic: Any) -> Any:
        it = iter(dynamic)
        leaves = [next(it) if s is _DYNAMIC else s[1] for s in statics]
        args, kwargs = treedef.unflatten(leaves)
        out = fun(*args, **kwargs)
        out_leaves, _ = _flatten(out)
        if not all(isinstance(x, Tracer) for x in out_leaves):
            raise _NotAProgram
        return out

    body.__name__ = getattr(fun, "__name__", "program")
    return JitWrapped(body)


# Any failure to trace or compile makes the signature run op by op: a genuine
# user error is then raised again, unchanged, by the direct call.
_RETRY = Exception

_MISS = object()  # the hit path does not apply: take the wrapper's slow path
_STATIC = frozenset({str, int, bool, type(None)})  # static leaves, by exact type
_DYN = object()  # in a memo key: a dynamic positional argument
_MEMO_SIZE = 32  # remembered calls per function (each keeps its program alive)


def _memo_key(args: tuple, kwargs: dict) -> tuple[Any, tuple] | None:
    """The hit path's key of a call and the call's dynamic arguments (the
    program's operands), or None when the call is not of the kind remembered.

    Positional arguments that are all Arrays, without keywords (``sin(v)``,
    ``add(v, w)``): the key is their number.  Otherwise ``(n, name, type,
    value, ...)`` for the keywords, which must all be static (str, int, bool,
    None), then ``(type, value)`` per positional argument: static ones (those
    types, or a tuple of ints such as a shape) by value, dynamic ones
    (Arrays, Python floats and complexes) by type alone.  The types keep
    ``True`` and ``1`` apart, as the signature does."""
    if not kwargs and _ARRAY.issuperset(map(type, args)):
        return len(args), args
    key: list = [len(args)]
    for name, value in kwargs.items():
        if type(value) not in _STATIC:
            return None
        key += (name, type(value), value)
    dynamic = []
    for x in args:
        t = type(x)
        if t is Array or t is float or t is complex:
            key += (t, _DYN)
            dynamic.append(x)
        elif t in _STATIC or (t is tuple and all(type(i) is int for i in x)):
            key += (t, x)
        else:
            return None
    return tuple(key), tuple(dynamic)


def _hit_path(arrays: dict, cache: LRUCache) -> Callable:
    """``hit(args, kwargs)``: the program's result for a call that the wrapper
    remembers in ``arrays`` (keyed by :func:`_memo_key`, see :func:`program`),
    else ``_MISS``.  With sciax's C accelerator built (and jit using it) the
    same steps run in C (``_fastjit.EagerHit``), which removes about half of
    an eager ``sin(v)``'s Python overhead; this is their definition."""
    if _FastBase is not object:
        return _fastjit.EagerHit(arrays, cache, _MISS, _DYN)

    def hit(args: tuple, kwargs: dict) -> Any:
        if _state.trace is not eval_trace:
            return _MISS
        memo = _memo_key(args, kwargs)
        entry = None if memo is None else arrays.get(memo[0])
        if entry is None or entry[2] != cache.removals:
            return _MISS
        if len(cache) > 1:
            cache.move_to_end(entry[0])
        try:
            return entry[1](*memo[1])
        except _RETRY:
            del arrays[memo[0]]  # the slow path decides
            return _MISS

    return hit


def program(fun: Callable) -> Callable:
    """``fun``, run eagerly as one cached compiled program per signature.

    See the module docstring for how arguments are classified.  The result
    has ``fun``'s name, docstring and signature, and ``__wrapped__`` is
    ``fun``.
    """
    own = getattr(fun, "__module__", None) or ""
    if own.startswith("sciax._src.") and fun in _OWN:
        return _OWN[fun]
    # static signature -> program (a JitWrapped keeping executables per shape)
    cache = LRUCache("jit_cache_size")
    # calls of the kinds _memo_key knows (``sin(v)``, ``add(v, w)``,
    # ``solve(a, b, assume_a='pos')``, ``arange(1000)``, ``clip(v, 0.2, 0.8)``):
    # key -> (signature, program, cache.removals) once it has run, at most
    # _MEMO_SIZE of them; such a call skips the signature's flattening and
    # classification and goes straight to jit.  The entry is current while nothing has left the
    # bounded cache since (an evicted or cleared program is not kept alive
    # here); comparing a counter costs less than looking the signature up.
    arrays: dict = {}

    hit = _hit_path(arrays, cache)

    @functools.wraps(fun)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        out = hit(args, kwargs)
        if out is not _MISS:
            return out
        if _state.trace is not eval_trace:
            return fun(*args, **kwargs)
        leaves, treedef = _flatten((args, kwargs))
        kinds = []
        for leaf in leaves:
            kind = _classify(leaf)
            if kind is None:
                return fun(*args, **kwargs)
            kinds.append(kind)
        key = (treedef, tuple(kinds))
        prog = cache.lookup(key)
        if prog is None:  # first call: op by op, and remember the signature
            cache.put(key, _SEEN)
            return fun(*args, **kwargs)
        if prog is _SEEN:  # called again: worth compiling
            prog = _make_program(fun, treedef, key[1])
            cache.put(key, prog)
        elif prog is _DIRECT:
            return fun(*args, **kwargs)
        try:
            out = prog(*(x for k, x in zip(kinds, leaves) if k is _DYNAMIC))
        except _RETRY:
            cache.put(key, _DIRECT)
            return fun(*args, **kwargs)
        # remember the call when _memo_key knows its kind: its dynamic
        # leaves are then exactly the dynamic positional arguments
        memo = _memo_key(args, kwargs)
        if memo is not None:
            if len(arrays) >= _MEMO_SIZE and memo[0] not in arrays:
                arrays.clear()
            arrays[memo[0]] = (key, prog, cache.removals)
        return out

    wrapper._eager_cache = cache  # for tests: the signatures seen
    wrapper._eager_memo = arrays  # for tests: the calls the hit path knows
    if own.startswith("sciax._src."):
        _OWN[fun] = wrapper
    return wrapper


# sciax's own functions -> their one wrapper, so that sciax.numpy's namespace and
# the Array methods (``x.mean()``, ``x * 2.0``) share one cache and one compile
# per signature (user functions are not kept here: they may be many and short-lived)
_OWN: dict = {}


# Functions that are conversions, metadata queries or host-side utilities: one
# program would gain nothing or change what they return.
NOT_PROGRAMS = frozenset("""
    array asarray asanyarray ascontiguousarray asarray_chkfinite copy
    array2string array_repr array_str get_printoptions set_printoptions printoptions
    can_cast common_type finfo iinfo isdtype issubdtype iscomplexobj isrealobj
    isscalar iterable load frombuffer fromfile fromiter fromstring fromfunction
    min_scalar_type mintypecode promote_types result_type shape size ndim
    broadcast_shapes einsum_path real_if_close poly roots unwrap
    interp ravel_multi_index unravel_index put place choose quantile percentile
    nanquantile nanpercentile histogram histogram_bin_edges histogram2d histogramdd
""".split())
# (poly and roots choose their output's dtype or length from the values; the
# last two lines validate argument values when they are concrete, as NumPy
# does -- a period of zero, quantiles outside [0, 1], indices out of bounds --
# which a traced program cannot do, so eager calls keep running them directly.)


def compile_namespace(namespace: dict, package: str = "sciax._src.numpy",
                      exclude: frozenset[str] = NOT_PROGRAMS) -> None:
    """Wrap every public function of ``namespace`` (a public module's globals)
    defined under ``package`` with :func:`program`, except those in
    ``exclude``."""
    for name, value in list(namespace.items()):
        if (not name.startswith("_") and name not in exclude
                and isinstance(value, types.FunctionType)
                and value.__module__.startswith(package)):
            namespace[name] = program(value)
