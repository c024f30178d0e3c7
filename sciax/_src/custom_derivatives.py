"""``custom_jvp`` and ``custom_vjp``: user-defined derivative rules.

A decorated function is bound as a call primitive whose body (the traced
function) is what runs, compiles and batches, and whose parameters carry the
rule.  Under a JVP trace the rule replaces the body:

* ``custom_jvp_call_p``: the JVP rule computes primal and tangent outputs.
* ``custom_vjp_call_p``: ``fwd`` runs on the primals and the tangent output
  is ``custom_lin_p`` applied to the input tangents, a linear primitive whose
  transpose calls ``bwd(residuals, cotangents)``.  Reverse mode transposes it;
  forward mode (evaluating it) is an error, as in JAX.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from sciax._src import dispatch
from sciax._src.backend.pytree import registry
from sciax._src.core.avals import get_aval
from sciax._src.core.jaxpr import ClosedJaxpr, close_over_consts, eval_jaxpr
from sciax._src.core.trace import (Primitive, UnexpectedTracerError, _state, eval_trace,
                                   set_current_trace)
from sciax._src.interpreters import ad, batching, lowering, partial_eval as pe
from sciax._src.tree_util import OutTree, flatten_fun, leaf_paths
from sciax._src.util import check_argnum_spec, safe_zip


def _resolve_kwargs(fun: Callable, args: tuple, kwargs: dict) -> tuple:
    if not kwargs:
        return args
    try:
        bound = inspect.signature(fun).bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{getattr(fun, '__name__', fun)}: {e}") from None
    bound.apply_defaults()
    if bound.kwargs:
        raise TypeError("functions with custom derivatives take keyword arguments only "
                        f"if they can be passed positionally; got {sorted(bound.kwargs)}")
    return tuple(bound.args)


def _split_nondiff(args: tuple, nondiff_argnums: tuple[int, ...]) -> tuple[tuple, tuple]:
    n = len(args)
    if any(not -n <= i < n for i in nondiff_argnums):
        raise ValueError(f"nondiff_argnums={nondiff_argnums!r} is out of range for a "
                         f"call with {n} positional argument(s)")
    nondiff_argnums = tuple(i % n for i in nondiff_argnums)
    nd = tuple(args[i] for i in nondiff_argnums)
    diff = tuple(a for i, a in enumerate(args) if i not in nondiff_argnums)
    return nd, diff


def _merge_nondiff(nd: tuple, diff: Sequence[Any], nondiff_argnums: tuple[int, ...]
                   ) -> list[Any]:
    out, it_nd, it_d = [], iter(nd), iter(diff)
    nondiff_argnums = tuple(i % (len(nd) + len(diff)) for i in nondiff_argnums)
    for i in range(len(nd) + len(diff)):
        out.append(next(it_nd) if i in nondiff_argnums else next(it_d))
    return out


def _trace_flat(fun: Callable, leaves: list[Any], in_tree: Any
                ) -> tuple[ClosedJaxpr, list[Any], Any]:
    flat, out_tree = flatten_fun(fun, in_tree)
    closed = pe.trace_to_jaxpr(flat, [get_aval(x) for x in leaves])
    jaxpr, consts = close_over_consts(closed)
    return jaxpr, consts, out_tree()


def _call_abstract_eval(*avals: Any, call_jaxpr: ClosedJaxpr, **params: Any) -> list:
    return call_jaxpr.out_avals


def _call_impl(*args: Any, call_jaxpr: ClosedJaxpr, **params: Any) -> list:
    return dispatch.execute_closed_jaxpr(call_jaxpr, *args)


def _call_lowering(ctx: Any, *args: Any, call_jaxpr: ClosedJaxpr, **params: Any) -> list:
    return lowering.jaxpr_subcomp(ctx.module_ctx, call_jaxpr.jaxpr, args)


def _define_call(name: str) -> Primitive:
    prim = Primitive(name, multiple_results=True)
    prim.def_abstract_eval(_call_abstract_eval)
    prim.def_impl(_call_impl)
    lowering.register_lowering(prim, _call_lowering)
    # Traces without a dedicated rule (partial evaluation) inline the body;
    # batching has rules below that keep the custom rule.
    pe.call_jaxprs[prim] = lambda *, call_jaxpr, **params: call_jaxpr
    return prim


# --- custom_jvp ------------------------------------------------------------------------

custom_jvp_call_p = _define_call("custom_jvp_call")


def _custom_jvp_call_jvp(primals, tangents, *, call_jaxpr, jvp, num_consts):
    tangents = [ad.instantiate_zeros(t) for t in tangents]
    outs, t_outs = jvp(primals[num_consts:], tangents[num_consts:])
    return outs, t_outs


ad.primitive_jvps[custom_jvp_call_p] = _custom_jvp_call_jvp


def _custom_jvp_closure_jvp(trace, primals, tangents, *, call_jaxpr, jvp, num_consts):
    """JVP of a custom_jvp call when values the function closed over (its
    consts) carry tangents.  The rule only knows the explicit arguments, so the
    tangent is the rule's, for the arguments, plus the ordinary JVP of the body
    with respect to the closed-over values (JAX raises here instead; dropping
    that part would silently give wrong derivatives)."""
    c_t, x_t = tangents[:num_consts], tangents[num_consts:]
    if all(type(t) is ad.Zero for t in c_t):
        return None
    body = lambda *a: eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *a)  # noqa: E731
    x_zero = [ad.Zero(get_aval(p)) for p in primals[num_consts:]]
    with set_current_trace(trace.parent):
        outs, t_outs = ad.jvp_flat(body, primals, [*c_t, *x_zero])
        if all(type(t) is ad.Zero for t in x_t):
            return outs, t_outs
        x_t = [ad.instantiate_zeros(t) for t in x_t]
    # The rule runs under this JVP trace because it may use the closed-over
    # tracers too; its tangent's primal part is the explicit arguments' share
    # (its own tangent part, the rule's derivative, is not needed).
    with set_current_trace(trace):
        _, rule_t = jvp(primals[num_consts:], x_t)
    with set_current_trace(trace.parent):
        return outs, [ad.add_tangents(a, trace.to_primal_tangent(b)[0])
                      for a, b in safe_zip(t_outs, rule_t)]


ad.primitive_jvps_with_trace[custom_jvp_call_p] = _custom_jvp_closure_jvp


class custom_jvp:
    """A function with a custom forward-mode derivative rule.

    Reverse mode follows from it by transposition, so defining the JVP is
    enough for ``grad``.

    Examples
    --------
    >>> @sciax.custom_jvp
    ... def log1pexp(x):
    ...     return snp.log1p(snp.exp(x))
    >>> @log1pexp.defjvp
    ... def _(primals, tangents):
    ...     (x,), (t,) = primals, tangents
    ...     return log1pexp(x), t * sciax.lax.logistic(x)
    >>> float(sciax.grad(log1pexp)(1000.0))
    1.0
    """

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        self.fun = fun
        self.nondiff_argnums = check_argnum_spec(nondiff_argnums,
                                                 "custom_jvp nondiff_argnums", fun)
        self.jvp: Callable | None = None
        functools.update_wrapper(self, fun, updated=())

    def defjvp(self, jvp: Callable) -> Callable:
        """Set the rule ``jvp(primals, tangents) -> (primal_out, tangent_out)``
        (non-differentiable arguments come first, before ``primals``)."""
        self.jvp = jvp
        return jvp

    def defjvps(self, *tangent_fns: Callable | None) -> None:
        """Set the rule from one function per argument:
        ``fn(tangent, primal_out, *primals)`` gives that argument's contribution."""
        def jvp(primals, tangents):
            out = self.fun(*primals)
            acc = None
            for fn, t in zip(tangent_fns, tangents):
                if fn is None:
                    continue
                contrib = fn(t, out, *primals)
                acc = contrib if acc is None else acc + contrib
            if acc is None:
                acc = registry.flatten(out)[1].unflatten(
                    [ad.zeros_like_aval(get_aval(o)) for o in registry.flatten(out)[0]])
            return out, acc
        self.defjvp(jvp)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.jvp is None:
            raise AttributeError(f"no JVP rule defined for custom_jvp function "
                                 f"{self.__name__}; use .defjvp")
        args = _resolve_kwargs(self.fun, args, kwargs)
        if _state.trace is eval_trace:
            # Nothing differentiates an eager call: run the function itself, op
            # by op as JAX does, instead of tracing and compiling its body on
            # every call (a fresh trace per call would be a fresh program).
            return self.fun(*args)
        nd, diff = _split_nondiff(args, self.nondiff_argnums)
        leaves, in_tree = registry.flatten(diff)
        fun = lambda *d: self.fun(*_merge_nondiff(nd, d, self.nondiff_argnums))  # noqa: E731
        jaxpr, consts, out_tree = _trace_flat(fun, leaves, in_tree)
        user_jvp = self.jvp
        name = self.__name__

        def flat_jvp(primals: list, tangents: list) -> tuple[list, list]:
            p_tree = in_tree.unflatten(primals)
            t_tree = in_tree.unflatten(tangents)
            pair = user_jvp(*nd, p_tree, t_tree) if nd else user_jvp(p_tree, t_tree)
            if not (isinstance(pair, tuple | list) and len(pair) == 2):
                raise TypeError(
                    f"custom_jvp rule of {name} must return a pair (primal_out, "
                    f"tangent_out), got {type(pair).__name__}")
            out, t_out = pair
            o_leaves, o_tree = registry.flatten(out)
            t_leaves, t_tree_out = registry.flatten(t_out)
            if o_tree != out_tree or t_tree_out != out_tree:
                raise TypeError(
                    f"custom_jvp rule of {name} must return (primal_out, tangent_out) "
                    f"with the structure of the function's output {out_tree}; got "
                    f"{o_tree} and {t_tree_out}")
            for o, t in safe_zip(o_leaves, t_leaves):
                if get_aval(o).shape != get_aval(t).shape:
                    raise ValueError(
                        f"custom_jvp rule of {name}: tangent output of shape "
                        f"{get_aval(t).shape} for a primal output of shape "
                        f"{get_aval(o).shape}")
            return o_leaves, t_leaves

        outs = custom_jvp_call_p.bind(*consts, *leaves, call_jaxpr=jaxpr, jvp=flat_jvp,
                                      num_consts=len(consts))
        return out_tree.unflatten(outs)


# --- custom_vjp ------------------------------------------------------------------------

custom_vjp_call_p = _define_call("custom_vjp_call")
custom_lin_p = Primitive("custom_lin", multiple_results=True)


def _custom_lin_abstract_eval(*avals, num_res, bwd, out_avals):
    return list(out_avals)


def _custom_lin_impl(*args, **params):
    raise TypeError("can't apply forward-mode autodiff (jvp, jacfwd, hessian) to a "
                    "custom_vjp function; use custom_jvp, or reverse mode only")


def _custom_lin_transpose(cts, *args, num_res, bwd, out_avals):
    res = args[:num_res]
    cts = [ad.instantiate_zeros(c) for c in cts]
    cts_in = bwd(list(res), cts)
    return [None] * num_res + [None if c is None else c for c in cts_in]


custom_lin_p.def_abstract_eval(_custom_lin_abstract_eval)
custom_lin_p.def_impl(_custom_lin_impl)
ad.primitive_transposes[custom_lin_p] = _custom_lin_transpose


def _custom_vjp_call_jvp(primals, tangents, *, call_jaxpr, fwd, bwd, num_consts,
                         out_tree):
    if any(type(t) is not ad.Zero for t in tangents[:num_consts]):
        raise TypeError(
            "a custom_vjp function was differentiated with respect to a value it "
            "closes over (a traced value captured from an enclosing function); its "
            "bwd rule only gives cotangents for the explicit arguments, so that "
            "derivative would be lost. Pass the value to the custom_vjp function "
            "as an argument (and return its cotangent from bwd).")
    outs, res = fwd(primals[num_consts:])
    out_avals = [get_aval(o) for o in outs]
    t_outs = custom_lin_p.bind(*res, *[ad.instantiate_zeros(t)
                                       for t in tangents[num_consts:]],
                               num_res=len(res), bwd=bwd, out_avals=tuple(out_avals))
    return outs, t_outs


ad.primitive_jvps[custom_vjp_call_p] = _custom_vjp_call_jvp


class custom_vjp:
    """A function with a custom reverse-mode derivative rule.

    ``f.defvjp(fwd, bwd)``: ``fwd(*args) -> (out, residuals)`` and
    ``bwd(residuals, out_cotangent) -> tuple`` with one cotangent per
    (differentiable) argument, ``None`` for a zero one.

    Examples
    --------
    >>> @sciax.custom_vjp
    ... def clip_gradient(x):
    ...     return x
    >>> def fwd(x):
    ...     return x, None
    >>> def bwd(_, g):
    ...     return (snp.clip(g, -1.0, 1.0),)
    >>> clip_gradient.defvjp(fwd, bwd)
    >>> float(sciax.grad(lambda x: 3.0 * clip_gradient(x))(2.0))
    1.0
    """

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        self.fun = fun
        self.nondiff_argnums = check_argnum_spec(nondiff_argnums,
                                                 "custom_vjp nondiff_argnums", fun)
        self.fwd: Callable | None = None
        self.bwd: Callable | None = None
        functools.update_wrapper(self, fun, updated=())

    def defvjp(self, fwd: Callable, bwd: Callable) -> None:
        self.fwd = fwd
        self.bwd = bwd

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.fwd is None or self.bwd is None:
            raise AttributeError(f"no VJP rule defined for custom_vjp function "
                                 f"{self.__name__}; use .defvjp(fwd, bwd)")
        args = _resolve_kwargs(self.fun, args, kwargs)
        if _state.trace is eval_trace:
            # Nothing differentiates an eager call: run the function itself, op
            # by op as JAX does, instead of tracing and compiling its body on
            # every call (a fresh trace per call would be a fresh program).
            return self.fun(*args)
        nd, diff = _split_nondiff(args, self.nondiff_argnums)
        leaves, in_tree = registry.flatten(diff)
        fun = lambda *d: self.fun(*_merge_nondiff(nd, d, self.nondiff_argnums))  # noqa: E731
        jaxpr, consts, out_tree = _trace_flat(fun, leaves, in_tree)
        user_fwd, user_bwd, name = self.fwd, self.bwd, self.__name__
        nondiff_argnums = self.nondiff_argnums
        res_tree = OutTree()

        def flat_fwd(primals: list) -> tuple[list, list]:
            full = _merge_nondiff(nd, in_tree.unflatten(primals), nondiff_argnums)
            pair = user_fwd(*full)
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise TypeError(f"custom_vjp fwd of {name} must return (output, "
                                f"residuals), got {type(pair).__name__}")
            out, res = pair
            o_leaves, o_tree = registry.flatten(out)
            if o_tree != out_tree:
                raise TypeError(f"custom_vjp fwd of {name} returned an output of "
                                f"structure {o_tree}, expected {out_tree}")
            r_leaves, res_tree.tree = registry.flatten(res)
            return o_leaves, r_leaves

        def flat_bwd(res: list, cts: list) -> list:
            ct = out_tree.unflatten(cts)
            r = res_tree().unflatten(res)
            cts_in = user_bwd(*nd, r, ct) if nd else user_bwd(r, ct)
            if not isinstance(cts_in, tuple) or len(cts_in) != len(diff):
                raise TypeError(
                    f"custom_vjp bwd of {name} must return a tuple with one cotangent "
                    f"per differentiable argument ({len(diff)}), got {cts_in!r:.80}")
            out = []
            for i, (arg, c) in enumerate(zip(diff, cts_in)):
                a_leaves, a_tree = registry.flatten(arg)
                if c is None:
                    out.extend(None for _ in a_leaves)
                    continue
                c_leaves, c_tree = registry.flatten(c)
                if c_tree != a_tree:
                    raise TypeError(f"custom_vjp bwd of {name}: cotangent structure "
                                    f"{c_tree} does not match the argument's {a_tree}")
                for path, a, c in zip(leaf_paths(arg), a_leaves, c_leaves):
                    if c is not None and get_aval(c).shape != get_aval(a).shape:
                        raise ValueError(
                            f"custom_vjp bwd of {name}: the cotangent for "
                            f"differentiable argument {i}{path} has shape "
                            f"{get_aval(c).shape}, expected the argument's shape "
                            f"{get_aval(a).shape}")
                out.extend(c_leaves)
            return out

        outs = custom_vjp_call_p.bind(*consts, *leaves, call_jaxpr=jaxpr, fwd=flat_fwd,
                                      bwd=flat_bwd, num_consts=len(consts),
                                      out_tree=out_tree)
        return out_tree.unflatten(outs)


# --- batching: keep the rule --------------------------------------------------------
# Under vmap the call stays a custom_*_call whose body is the batched body and whose
# rule is the rule vmapped, so grad(vmap(f)) still uses the user's rule.  Every
# argument and output is batched at axis 0 (unbatched ones are broadcast).


def _batch_prologue(trace, vals, dims, call_jaxpr, num_consts):
    if any(d is not batching.not_mapped for d in dims[:num_consts]):
        # The rule's Python closure holds these batched values, so it cannot
        # be vmapped as a separate function: inline the body instead.
        return None
    size = trace.axis_size
    with set_current_trace(trace.parent):
        args = [batching.bdim_at_front(v, d, size)
                for v, d in safe_zip(vals[num_consts:], dims[num_consts:])]
    in_dims = [batching.not_mapped] * num_consts + [0] * len(args)
    body, bconsts, _ = batching.batch_jaxpr(call_jaxpr, in_dims, size, trace.axis_name)
    return [*bconsts, *vals[:num_consts], *args], body, len(bconsts) + num_consts


def _vmapped(trace, fn, what):
    """``fn`` (a flat list in, a flat list out, per example) mapped over axis 0.

    It runs under a fresh batch trace, possibly after ``trace`` has ended (a
    bwd rule runs in the backward pass), so a rule must not use the vmapped
    values it closes over."""
    def mapped(*xs):
        try:
            return batching.vmap_flat(fn, xs, [0] * len(xs), lambda k: [0] * k,
                                      trace.axis_size, trace.axis_name)
        except UnexpectedTracerError as e:
            raise TypeError(
                f"the {what} rule of a vmapped function uses a vmapped value that "
                "it closes over (captured from the function being vmapped); the "
                "rule is applied apart from that vmap. Pass the value to the "
                f"custom function as an argument instead. ({e})") from None
    return mapped


def _custom_jvp_call_batch(trace, vals, dims, *, call_jaxpr, jvp, num_consts):
    pro = _batch_prologue(trace, vals, dims, call_jaxpr, num_consts)
    if pro is None:
        return None
    ops, body, n_consts = pro

    def per_example(*xs):
        n = len(xs) // 2
        outs, t_outs = jvp(list(xs[:n]), list(xs[n:]))
        return [*outs, *t_outs]

    def batched_jvp(primals, tangents):
        res = _vmapped(trace, per_example, "custom_jvp")(*primals, *tangents)
        return res[:len(res) // 2], res[len(res) // 2:]

    with set_current_trace(trace.parent):
        outs = custom_jvp_call_p.bind(*ops, call_jaxpr=body, jvp=batched_jvp,
                                      num_consts=n_consts)
    return outs, [0] * len(outs)


def _custom_vjp_call_batch(trace, vals, dims, *, call_jaxpr, fwd, bwd, num_consts,
                           out_tree):
    pro = _batch_prologue(trace, vals, dims, call_jaxpr, num_consts)
    if pro is None:
        return None
    ops, body, n_consts = pro
    n_out = len(call_jaxpr.out_avals)
    arg_avals = call_jaxpr.in_avals[num_consts:]

    def fwd_example(*xs):
        outs, res = fwd(list(xs))
        return [*outs, *res]

    def bwd_example(*xs):
        n_res = len(xs) - n_out
        cts = bwd(list(xs[:n_res]), list(xs[n_res:]))
        # a zero (None) cotangent must be an array to come out of vmap
        return [ad.zeros_like_aval(a) if c is None else c
                for c, a in safe_zip(cts, arg_avals)]

    def batched_fwd(primals):
        res = _vmapped(trace, fwd_example, "custom_vjp fwd")(*primals)
        return res[:n_out], res[n_out:]

    def batched_bwd(res, cts):
        return _vmapped(trace, bwd_example, "custom_vjp bwd")(*res, *cts)

    with set_current_trace(trace.parent):
        outs = custom_vjp_call_p.bind(*ops, call_jaxpr=body, fwd=batched_fwd,
                                      bwd=batched_bwd, num_consts=n_consts,
                                      out_tree=out_tree)
    return outs, [0] * len(outs)


batching.call_batchers[custom_jvp_call_p] = _custom_jvp_call_batch
batching.call_batchers[custom_vjp_call_p] = _custom_vjp_call_batch
