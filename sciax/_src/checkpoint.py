"""``checkpoint`` (rematerialisation): trade memory for recomputation.

The checkpointed function becomes one ``checkpoint`` equation.  When it is
linearized, only its *inputs* are kept as residuals: partial evaluation
computes the primal outputs now and stages the whole JVP computation into
the linear program, so the backward pass recomputes the intermediates
instead of storing them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from sciax._src import dispatch
from sciax._src.backend.pytree import registry
from sciax._src.core.avals import get_aval
from sciax._src.core.jaxpr import ClosedJaxpr, close_over_consts, eval_jaxpr
from sciax._src.core.trace import Primitive, set_current_trace
from sciax._src.interpreters import ad, lowering, partial_eval as pe
from sciax._src.tree_util import flatten_fun
from sciax._src.util import check_argnum_spec

checkpoint_p = Primitive("checkpoint", multiple_results=True)
checkpoint_p.def_abstract_eval(lambda *avals, jaxpr, prevent_cse: jaxpr.out_avals)
checkpoint_p.def_impl(
    lambda *args, jaxpr, prevent_cse: dispatch.execute_closed_jaxpr(jaxpr, *args))
lowering.register_lowering(
    checkpoint_p, lambda ctx, *args, jaxpr, prevent_cse:
    lowering.jaxpr_subcomp(ctx.module_ctx, jaxpr.jaxpr, args))
pe.call_jaxprs[checkpoint_p] = lambda *, jaxpr, prevent_cse: jaxpr  # under vmap


def _checkpoint_jvp(primals, tangents, *, jaxpr, prevent_cse):
    n = len(primals)
    nonzero = [type(t) is not ad.Zero for t in tangents]
    t_avals = [t.aval if type(t) is ad.Zero else get_aval(t) for t in tangents]

    def jvp_fun(*xs: Any) -> list[Any]:
        ps, ts = list(xs[:n]), iter(xs[n:])
        t_in = [next(ts) if nz else ad.Zero(a) for nz, a in zip(nonzero, t_avals)]
        outs, t_outs = ad.jvp_flat(
            lambda *a: eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *a), ps, t_in)
        return [*outs, *map(ad.instantiate_zeros, t_outs)]

    in_avals = [get_aval(p) for p in primals] + [
        a for a, nz in zip(t_avals, nonzero) if nz]
    jvp_jaxpr, consts = close_over_consts(pe.trace_to_jaxpr(jvp_fun, in_avals))
    outs = checkpoint_p.bind(*consts, *primals,
                             *[t for t, nz in zip(tangents, nonzero) if nz],
                             jaxpr=jvp_jaxpr, prevent_cse=prevent_cse)
    m = len(jaxpr.out_avals)
    return outs[:m], outs[m:]


def _checkpoint_partial_eval(trace: pe.PartialEvalTrace, args, params):
    jaxpr = params["jaxpr"]
    unknown = [trace.is_unknown(a) for a in args]
    # Which outputs are unknown must be found by partial evaluation itself, not
    # by syntactic dependence: a JVP'd loop inside carries primals and tangents
    # in one equation, and its primal outputs must stay known (else the primals
    # become carries of an enclosing linear loop, or a cond predicate unknown).
    _, run = pe.partial_eval_jaxpr(jaxpr, unknown)
    with set_current_trace(trace.parent):
        known_outs, _, out_unknown = run(*[a for a, u in zip(args, unknown) if not u])
    known_outs = iter(known_outs)
    staged = ClosedJaxpr(ad.dce_jaxpr(jaxpr.jaxpr, out_unknown), jaxpr.consts)
    staged_outs = iter(trace.staged.process_primitive(
        checkpoint_p, args, {**params, "jaxpr": staged}))
    return [next(staged_outs) if u else next(known_outs) for u in out_unknown]


def _checkpoint_transpose(cts, *args, jaxpr, prevent_cse):
    # Rematerialise: recompute the known (primal) part now, in the backward
    # pass, then transpose the linear part that it leaves.
    undefined = [ad.is_undefined_primal(a) for a in args]
    out_u, run = pe.partial_eval_jaxpr(jaxpr, undefined)
    _, staged, out_u = run(*[a for a, u in zip(args, undefined) if not u])
    lin_cts = [ct for ct, u in zip(cts, out_u) if u]
    cts_in = iter(ad.backward_pass(staged.jaxpr, staged.consts, lin_cts))
    return [next(cts_in) if u else None for u in undefined]


ad.primitive_jvps[checkpoint_p] = _checkpoint_jvp
pe.partial_eval_rules[checkpoint_p] = _checkpoint_partial_eval
ad.primitive_transposes[checkpoint_p] = _checkpoint_transpose


def checkpoint(fun: Callable, *, prevent_cse: bool = True,
               static_argnums: tuple[int, ...] = ()) -> Callable:
    """Make ``fun`` recompute its intermediates during reverse-mode
    differentiation instead of storing them.

    Examples
    --------
    >>> f = sciax.checkpoint(lambda x: snp.sin(snp.sin(x)))
    >>> print(f"{float(sciax.grad(f)(1.0)):.6f}")
    0.360039
    """
    nums = check_argnum_spec(static_argnums, "checkpoint static_argnums", fun)

    @functools.wraps(fun)
    def wrapped(*args: Any) -> Any:
        n = len(args)
        if any(not -n <= i < n for i in nums):
            raise ValueError(f"checkpoint static_argnums={static_argnums!r} is out of "
                             f"range for a call with {n} positional argument(s)")
        statics = {i % n: args[i] for i in nums}
        dyn = [a for i, a in enumerate(args) if i not in statics]
        leaves, in_tree = registry.flatten(tuple(dyn))
        def with_statics(*dyn: Any) -> Any:
            it = iter(dyn)
            return fun(*[statics[i] if i in statics else next(it)
                         for i in range(len(args))])

        flat, out_tree = flatten_fun(with_statics, in_tree)
        closed = pe.trace_to_jaxpr(flat, [get_aval(x) for x in leaves])
        jaxpr, consts = close_over_consts(closed)
        outs = checkpoint_p.bind(*consts, *leaves, jaxpr=jaxpr, prevent_cse=prevent_cse)
        return out_tree().unflatten(outs)

    return wrapped


remat = checkpoint
