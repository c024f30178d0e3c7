"""``custom_vmap``: a function with a user-defined batching rule.

The decorated function is bound as a call primitive, ``custom_vmap_call``, whose
body (the traced function) is what runs, compiles and is differentiated, and
whose parameters carry the rule.  Under ``vmap`` the rule replaces the body: it
is called as ``rule(axis_size, in_batched, *args)`` with every batched argument
leaf carrying its batch axis first, and returns ``(out, out_batched)``.  The rule
runs on the trace below the ``vmap``, so what it computes is ordinary sciax code
(it may itself ``vmap``, loop or gather).

Differentiation sees the body: a JVP with non-zero tangents (and so ``grad``)
differentiates the function as written, without the rule (JAX's custom_vmap
instead keeps the rule for the derivative program; here ``vmap`` of a derivative
batches the body).  Arguments without tangents pass the call through untouched,
so a function whose inputs are ``stop_gradient``-ed keeps its rule under
``vmap(grad(...))``.  A call whose closed-over values are themselves batched is
batched through its body too: the rule only knows its explicit arguments.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from sciax._src.backend.pytree import registry
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import _state, eval_trace, set_current_trace
from sciax._src.custom_derivatives import _define_call, _resolve_kwargs, _trace_flat
from sciax._src.interpreters import batching
from sciax._src.util import safe_zip

__all__ = ["custom_vmap", "custom_vmap_call_p"]

custom_vmap_call_p = _define_call("custom_vmap_call")


def _custom_vmap_call_batch(trace, vals, dims, *, call_jaxpr, rule, num_consts):
    if any(d is not batching.not_mapped for d in dims[:num_consts]):
        # the function closes over a batched value, which the rule cannot see:
        # batch the body instead
        return None
    size = trace.axis_size
    with set_current_trace(trace.parent):
        args = [v if d is batching.not_mapped else batching.moveaxis(v, d, 0)
                for v, d in safe_zip(vals[num_consts:], dims[num_consts:])]
        in_batched = [d is not batching.not_mapped for d in dims[num_consts:]]
        outs, out_batched = rule(size, in_batched, args)
    return outs, [0 if b else batching.not_mapped for b in out_batched]


batching.call_batchers[custom_vmap_call_p] = _custom_vmap_call_batch


def _check_out(name: str, outs: list, out_batched: list, avals: list,
               size: int) -> None:
    for k, (o, b, a) in enumerate(safe_zip(outs, out_batched, avals)):
        oa = get_aval(o)
        want = ((size,) + tuple(a.shape)) if b else tuple(a.shape)
        if tuple(oa.shape) != want or oa.dtype != a.dtype:
            raise ValueError(
                f"custom_vmap rule of {name}: output leaf {k} has shape "
                f"{tuple(oa.shape)} and dtype {oa.dtype}; expected shape {want} "
                f"({'batched' if b else 'unbatched'}) and dtype {a.dtype}")


class custom_vmap:
    """A function with a custom batching rule (as ``jax.custom_batching.custom_vmap``).

    ``f.def_vmap(rule)`` sets ``rule(axis_size, in_batched, *args) -> (out,
    out_batched)``: ``in_batched`` has one entry per positional argument, a
    pytree of bools like the argument (which leaves are batched; those carry the
    batch axis first, of length ``axis_size``); ``out_batched`` is a pytree of
    bools like ``out`` (or one bool for all of it).  Outside ``vmap`` the
    function itself runs.

    Examples
    --------
    >>> from sciax.custom_batching import custom_vmap
    >>> @custom_vmap
    ... def total(x):
    ...     return snp.sum(x)
    >>> @total.def_vmap
    ... def _(axis_size, in_batched, x):
    ...     return snp.sum(x, axis=1) if in_batched[0] else snp.sum(x), in_batched[0]
    >>> sciax.vmap(total)(snp.ones((3, 4))).tolist()
    [4.0, 4.0, 4.0]
    """

    def __init__(self, fun: Callable):
        self.fun = fun
        self.vmap_rule: Callable | None = None
        functools.update_wrapper(self, fun, updated=())

    def def_vmap(self, rule: Callable) -> Callable:
        """Set the batching rule; returns it (usable as a decorator)."""
        self.vmap_rule = rule
        return rule

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.vmap_rule is None:
            raise AttributeError(f"no batching rule defined for custom_vmap function "
                                 f"{self.__name__}; use .def_vmap")
        args = _resolve_kwargs(self.fun, args, kwargs)
        if _state.trace is eval_trace:
            # nothing batches an eager call
            return self.fun(*args)
        leaves, in_tree = registry.flatten(args)
        jaxpr, consts, out_tree = _trace_flat(self.fun, leaves, in_tree)
        user_rule, name = self.vmap_rule, self.__name__
        out_avals = jaxpr.out_avals

        def flat_rule(size: int, in_batched: list, flat_args: list
                      ) -> tuple[list, list]:
            tree_args = in_tree.unflatten(flat_args)
            tree_b = in_tree.unflatten(in_batched)
            pair = user_rule(size, list(tree_b), *tree_args)
            if not (isinstance(pair, tuple | list) and len(pair) == 2):
                raise TypeError(f"custom_vmap rule of {name} must return a pair (out, "
                                f"out_batched), got {type(pair).__name__}")
            out, out_b = pair
            o_leaves, o_tree = registry.flatten(out)
            if o_tree != out_tree:
                raise TypeError(f"custom_vmap rule of {name} returned an output of "
                                f"structure {o_tree}, expected {out_tree}")
            if isinstance(out_b, bool):
                b_leaves = [out_b] * len(o_leaves)
            else:
                b_leaves, b_tree = registry.flatten(out_b)
                if b_tree != out_tree:
                    raise TypeError(f"custom_vmap rule of {name}: out_batched has "
                                    f"structure {b_tree}, expected {out_tree} (or "
                                    f"one bool)")
            b_leaves = [bool(b) for b in b_leaves]
            _check_out(name, o_leaves, b_leaves, out_avals, size)
            return o_leaves, b_leaves

        outs = custom_vmap_call_p.bind(*consts, *leaves, call_jaxpr=jaxpr,
                                       rule=flat_rule, num_consts=len(consts))
        return out_tree.unflatten(outs)
