"""Structured control flow: cond, switch, while_loop, fori_loop, scan, map,
associative_scan.

Each construct traces its Python callables once to jaxprs (shown by
``make_jaxpr``) and binds one primitive that lowers to the matching StableHLO
region op (``case``, ``while``).  The primitives carry JVP, partial
evaluation, transpose and batching rules:

* ``cond``: forward and reverse mode; a batched predicate turns it into a
  ``select_n`` of all branches.
* ``while``: forward mode; reverse mode is an error (the number of iterations
  is unknown until run time, so there is nothing to store the residuals in);
  a batched predicate keeps the loop running until every member is done, with
  finished members frozen.
* ``scan``: forward and reverse mode (residuals are stacked per iteration).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.backend.pytree import registry
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var, close_over_consts, eval_jaxpr
from sciax._src.core.trace import Primitive, current_trace, set_current_trace
from sciax._src import dispatch
from sciax._src.interpreters import ad, batching, lowering, partial_eval as pe
from sciax._src.lax import elementwise as ew
from sciax._src.lax import shape_ops
from sciax._src.tree_util import OutTree, flatten_fun, leaf_paths
from sciax._src.util import safe_zip, split_list

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "map",
           "associative_scan", "cond_p", "while_p", "scan_p", "optimization_barrier",
           "optimization_barrier_p"]


# --- tracing helpers ---------------------------------------------------------------

def _trace(fun: Callable, in_tree: Any, in_avals: Sequence[ShapedArray]
           ) -> tuple[ClosedJaxpr, list[Any], Any]:
    """Trace ``fun`` (taking the unflattened ``in_tree``) to a const-free jaxpr
    whose leading invars are its consts."""
    flat, out_tree = flatten_fun(fun, in_tree, what="a traced function")
    jaxpr, consts = close_over_consts(pe.trace_to_jaxpr(flat, in_avals))
    return jaxpr, consts, out_tree()


def _trace_flat(fun: Callable, in_avals: Sequence[ShapedArray]
                ) -> tuple[ClosedJaxpr, list[Any]]:
    return close_over_consts(pe.trace_to_jaxpr(fun, in_avals))


def _call(jaxpr: ClosedJaxpr, *args: Any) -> list[Any]:
    return eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)


def _avals_str(avals: Sequence[ShapedArray]) -> str:
    return "(" + ", ".join(a.str_short() for a in avals) + ")"


def _same_types(a: Sequence[ShapedArray], b: Sequence[ShapedArray]) -> bool:
    return len(a) == len(b) and all(
        x.shape == y.shape and x.dtype == y.dtype for x, y in zip(a, b))


def _leaf_names(root: str, tree: Any) -> list[str]:
    """``root`` plus each leaf's key path in the treedef ``tree``."""
    return [root + p for p in leaf_paths(tree.unflatten([0] * tree.num_leaves))]


def _check_types(who: str, rule: str, what: str, names: Sequence[str],
                 expected: Sequence[ShapedArray], got: Sequence[ShapedArray],
                 carry: bool = True) -> None:
    """TypeError ``who: rule: <leaf> is T but <what> U; ...`` naming every leaf
    whose shape or dtype differs.  For a loop carry (``carry``) a weakly typed
    initial value (a Python scalar) whose dtype the body changes gets a hint."""
    bad = []
    for n, a, b in zip(names, expected, got):
        if a.shape == b.shape and a.dtype == b.dtype:
            continue
        weak = " (weakly typed)" if a.weak_type else ""
        note = ""
        if carry and a.weak_type and a.shape == b.shape:
            note = (" (the initial value is weakly typed, e.g. a Python scalar: "
                    f"give it dtype {b.dtype} explicitly)")
        bad.append(f"{n} is {a.str_short()}{weak} but {what} {b.str_short()}{note}")
    if bad:
        raise TypeError(f"{who}: {rule}: " + "; ".join(bad))


def _join_weak(avals_list: Sequence[Sequence[ShapedArray]]) -> list[ShapedArray]:
    return [a.update(weak_type=all(b[i].weak_type for b in avals_list))
            for i, a in enumerate(avals_list[0])]


def _join_consts(parts: Sequence[tuple[ClosedJaxpr, list[Any]]]
                 ) -> tuple[tuple[ClosedJaxpr, ...], list[Any]]:
    """Give several const-free jaxprs (whose first invars are their own consts)
    one shared const list: each takes ``all_consts + rest``."""
    all_consts: list[Any] = [c for _, cs in parts for c in cs]
    out = []
    offset = 0
    for jaxpr, consts in parts:
        j = jaxpr.jaxpr
        k = len(consts)
        own, rest = j.invars[:k], j.invars[k:]
        before = [Var(get_aval(c)) for c in all_consts[:offset]]
        after = [Var(get_aval(c)) for c in all_consts[offset + k:]]
        out.append(ClosedJaxpr(Jaxpr([], [*before, *own, *after, *rest], j.outvars, j.eqns),
                               []))
        offset += k
    return tuple(out), all_consts


def _zeros(aval: ShapedArray) -> Any:
    return ad.zeros_like_aval(aval)


# --- cond / switch ------------------------------------------------------------------

def _cond_abstract_eval(index: ShapedArray, *avals: ShapedArray, branches):
    return _join_weak([b.out_avals for b in branches])


def _cond_lowering(ctx: lowering.LoweringRuleContext, index: ir.Value, *args: ir.Value,
                   branches):
    out_types = [lowering.aval_to_ir_type(a) for a in ctx.avals_out]
    case = hlo.CaseOp(out_types, index, len(branches))
    for i, br in enumerate(branches):
        block = case.regions[i].blocks.append()
        with ir.InsertionPoint(block):
            hlo.ReturnOp(lowering.jaxpr_subcomp(ctx.module_ctx, br.jaxpr, args))
    return list(case.results)


cond_p = Primitive("cond", multiple_results=True)
cond_p.def_abstract_eval(_cond_abstract_eval)
cond_p.def_impl(lambda *args, branches: dispatch.apply_primitive(
    cond_p, *args, branches=branches))
lowering.register_lowering(cond_p, _cond_lowering)


def _check_index(name: str, index: Any) -> Any:
    aval = get_aval(index)
    if aval.shape != ():
        raise TypeError(f"{name}: the predicate/index must be a scalar, got shape "
                        f"{aval.shape}")
    return aval


def _bind_cond(index: Any, branch_funs: Sequence[Callable], operands: tuple,
               name: str, labels: Sequence[str] | None = None) -> Any:
    leaves, in_tree = registry.flatten(operands)
    avals = [get_aval(x) for x in leaves]
    traced = [_trace(f, in_tree, avals) for f in branch_funs]
    out_trees = [t[2] for t in traced]
    labels = labels or [f"branch {i}" for i in range(len(branch_funs))]
    for i, (jx, _, tree) in enumerate(traced[1:], 1):
        if tree != out_trees[0]:
            raise TypeError(f"{name}: {labels[0]} and {labels[i]} return different "
                            f"tree structures: {out_trees[0]} and {tree}")
        out0 = traced[0][0].out_avals
        if not _same_types(jx.out_avals, out0):
            _check_types(name, "the branches must return the same types (shape and "
                         "dtype)", f"{labels[i]} returns",
                         _leaf_names(f"{labels[0]} output", tree), out0, jx.out_avals,
                         carry=False)
    branches, consts = _join_consts([(jx, cs) for jx, cs, _ in traced])
    outs = cond_p.bind(index, *consts, *leaves, branches=branches)
    return out_trees[0].unflatten(outs)


def cond(pred: Any, true_fun: Callable, false_fun: Callable, *operands: Any) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, staged so
    that ``pred`` may be a traced value.

    Both branches are traced and must return the same types.  Under ``vmap``
    with a batched ``pred`` both branches run and the results are selected.

    Examples
    --------
    >>> f = sciax.jit(lambda x: lax.cond(x > 0, lambda v: v * 2.0, lambda v: -v, x))
    >>> float(f(3.0)), float(f(-1.5))
    (6.0, 1.5)
    """
    aval = _check_index("cond", pred)
    if aval.dtype == dtypes.bool_:
        index = ew.convert_element_type(pred, np.int32)
    elif dtypes.is_integer(aval.dtype):
        index = ew.convert_element_type(ew.ne(pred, ew.convert_element_type(0, aval.dtype)),
                                        np.int32)
    else:
        raise TypeError(f"cond: the predicate must be a boolean (or integer) scalar, got "
                        f"dtype {aval.dtype}; compare explicitly, e.g. `x > 0`")
    return _bind_cond(index, (false_fun, true_fun), operands, "cond",
                      ("false_fun", "true_fun"))


def switch(index: Any, branches: Sequence[Callable], *operands: Any) -> Any:
    """``branches[index](*operands)`` with a traced integer ``index``.

    ``index`` is clamped to ``[0, len(branches) - 1]`` (out-of-range values pick
    the first or last branch; no error is raised at run time).

    Examples
    --------
    >>> fs = [lambda x: x + 1.0, lambda x: x * 10.0, lambda x: -x]
    >>> [float(lax.switch(i, fs, 2.0)) for i in (0, 1, 2, 7)]
    [3.0, 20.0, -2.0, -2.0]
    """
    branches = list(branches)
    if not branches:
        raise ValueError("switch needs at least one branch")
    aval = _check_index("switch", index)
    if not dtypes.is_integer(aval.dtype):
        raise TypeError(f"switch: the index must be an integer scalar, got dtype "
                        f"{aval.dtype}")
    idx = ew.convert_element_type(index, np.int32)
    idx = ew.clamp(0, idx, len(branches) - 1)
    if len(branches) == 1:
        return branches[0](*operands)
    return _bind_cond(idx, branches, operands, "switch")


def _cond_jvp(primals, tangents, *, branches):
    index, *ops = primals
    nz = [type(t) is not ad.Zero for t in tangents[1:]]
    # An output's tangent is nonzero only where some branch makes it so;
    # the others stay symbolic zeros (a Jacobian cut from derivatives, say,
    # must not carry a materialized zero tangent into the ops after the cond
    # or around a loop).
    m = len(branches[0].out_avals)
    out_nz = [False] * m
    first = []
    for b in branches:
        jx, cs, onz = ad.jvp_jaxpr(b, nz, instantiate=False)
        first.append((jx, cs, onz))
        out_nz = [x or y for x, y in zip(out_nz, onz)]
    parts = []
    for b, (jx, cs, onz) in zip(branches, first):
        if list(onz) != out_nz:
            jx, cs, _ = ad.jvp_jaxpr(b, nz, instantiate=out_nz)
        parts.append((jx, cs))
    new_branches, consts = _join_consts(parts)
    outs = cond_p.bind(index, *consts, *ops,
                       *[t for t, z in zip(tangents[1:], nz) if z], branches=new_branches)
    t_outs = iter(outs[m:])
    return outs[:m], [next(t_outs) if z else ad.Zero(a)
                      for z, a in zip(out_nz, branches[0].out_avals)]


def _share_slots(res_avals: Sequence[Sequence[ShapedArray]]
                 ) -> tuple[list[ShapedArray], list[list[int]]]:
    """Residual slots shared by branches: ``(slot avals, per branch the slot
    of each of its residuals)``; the k-th residual of one type in a branch
    goes to the k-th slot of that type."""
    slots: list[ShapedArray] = []
    by_type: dict[ShapedArray, list[int]] = {}
    where = []
    for avals in res_avals:
        used: dict[ShapedArray, int] = {}
        mine = []
        for a in avals:
            k = used.get(a, 0)
            used[a] = k + 1
            free = by_type.setdefault(a, [])
            if k == len(free):
                free.append(len(slots))
                slots.append(a)
            mine.append(free[k])
        where.append(mine)
    return slots, where


def _cond_partial_eval(trace: ad.PartialEvalTrace, args, params):
    branches = params["branches"]
    index, ops = args[0], args[1:]
    unknown = [trace.is_unknown(a) for a in ops]
    if trace.is_unknown(index):
        raise TypeError("cond: the predicate cannot depend on differentiated values")
    splits = [ad.partial_eval_jaxpr(b, unknown) for b in branches]
    out_unknown = [any(col) for col in zip(*[u for u, _ in splits])]
    known_ops = [a for a, u in zip(ops, unknown) if not u]
    known_avals = [get_aval(a) for a in known_ops]
    # Each branch's known part returns its known outputs and its residuals in
    # slots shared between branches: the k-th residual of a given type in a
    # branch takes the k-th slot of that type, so there are as many slots of a
    # type as the branch with the most residuals of that type needs (not the
    # sum over branches), and a branch fills the slots it does not use with
    # zeros.
    res_avals: list[list[ShapedArray]] = []
    staged: list[ClosedJaxpr] = []
    for _, run in splits:
        def probe(*xs, run=run):
            known, st, _ = run(*xs, force_unknown=out_unknown)
            staged.append(st)
            res_avals.append([get_aval(c) for c in st.consts])
            return known
        _trace_flat(probe, known_avals)
    all_res, where = _share_slots(res_avals)
    parts = []
    for i, (_, run) in enumerate(splits):
        def known_branch(*xs, run=run, slot_of=where[i]):
            known, st, _ = run(*xs, force_unknown=out_unknown)
            filled: list[Any] = [None] * len(all_res)
            for k, c in enumerate(st.consts):
                filled[slot_of[k]] = c
            return [*known, *(_zeros(a) if c is None else c
                              for c, a in zip(filled, all_res))]
        parts.append(_trace_flat(known_branch, known_avals))
    known_branches, kconsts = _join_consts(parts)
    with set_current_trace(trace.parent):
        kouts = cond_p.bind(index, *kconsts, *known_ops, branches=known_branches)
    n_known = sum(1 for u in out_unknown if not u)
    known_outs, residuals = kouts[:n_known], kouts[n_known:]
    staged_branches = []
    for st, slot_of in zip(staged, where):
        j = st.jaxpr
        slot_vars = [Var(a) for a in all_res]
        for k, v in enumerate(j.constvars):
            slot_vars[slot_of[k]] = v
        staged_branches.append(ClosedJaxpr(
            Jaxpr([], [*slot_vars, *j.invars], j.outvars, j.eqns), []))
    souts = iter(trace.staged.process_primitive(
        cond_p, [index, *residuals, *(a for a, u in zip(ops, unknown) if u)],
        {"branches": tuple(staged_branches)}))
    kit = iter(known_outs)
    return [next(souts) if u else next(kit) for u in out_unknown]


def _cond_transpose(cts, index, *args, branches):
    linear = [ad.is_undefined_primal(a) for a in args]
    known = [a for a, lin in zip(args, linear) if not lin]
    cts = [ad.instantiate_zeros(c) for c in cts]
    in_avals = [get_aval(k) for k in known] + [get_aval(c) for c in cts]
    parts = []
    for b in branches:
        def transposed(*xs, b=b):
            kn, ct = iter(xs[:len(known)]), list(xs[len(known):])
            full = [ad.UndefinedPrimal(a.aval) if lin else next(kn)
                    for a, lin in zip(b.jaxpr.invars, linear)]
            res = ad.backward_pass(b.jaxpr, b.consts, ct, args=full)
            return [ad.instantiate_zeros(r) for r, lin in zip(res, linear) if lin]
        parts.append(_trace_flat(transposed, in_avals))
    new_branches, consts = _join_consts(parts)
    outs = iter(cond_p.bind(index, *consts, *known, *cts, branches=new_branches))
    return [None] + [next(outs) if lin else None for lin in linear]


def _cond_batch(vals, dims, *, branches):
    index, ops = vals[0], vals[1:]
    idx_dim, op_dims = dims[0], dims[1:]
    size = batching.batch_size(vals, dims)
    if idx_dim is not batching.not_mapped:
        # every member may take a different branch: run all, then select
        idx = batching.moveaxis(index, idx_dim, 0)
        outs_per_branch = []
        for b in branches:
            jx, cs, _ = batching.batch_jaxpr(b, op_dims, size)
            outs_per_branch.append(_call(jx, *cs, *ops))
        results = []
        for outs in zip(*outs_per_branch):
            shape = get_aval(outs[0]).shape
            which = shape_ops.broadcast_in_dim(idx, shape, (0,))
            results.append(ew.select_n(which, *outs))
        return results, [0] * len(results)
    # An output is batched only where some branch batches it: an unbatched
    # output (say a loop's status next to batched tangents) must stay so, or
    # a predicate computed from it gets batched and every later cond turns
    # into a select that runs all its branches.
    out_b = [False] * len(branches[0].out_avals)
    first = []
    for b in branches:
        jx, cs, od = batching.batch_jaxpr(b, op_dims, size, force_out=False)
        first.append((jx, cs, od))
        out_b = [x or d is not batching.not_mapped for x, d in zip(out_b, od)]
    parts = []
    for b, (jx, cs, od) in zip(branches, first):
        if [d is not batching.not_mapped for d in od] != out_b:  # else reuse
            jx, cs, _ = batching.batch_jaxpr(b, op_dims, size, force_out=out_b)
        parts.append((jx, cs))
    new_branches, consts = _join_consts(parts)
    outs = cond_p.bind(index, *consts, *ops, branches=new_branches)
    return outs, [0 if x else batching.not_mapped for x in out_b]


ad.primitive_jvps[cond_p] = _cond_jvp
ad.partial_eval_rules[cond_p] = _cond_partial_eval
ad.primitive_transposes[cond_p] = _cond_transpose
batching.primitive_batchers[cond_p] = _cond_batch


# --- while_loop ---------------------------------------------------------------------

def _while_abstract_eval(*avals, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    return body_jaxpr.out_avals


def _while_lowering(ctx: lowering.LoweringRuleContext, *args: ir.Value, cond_jaxpr,
                    body_jaxpr, cond_nconsts, body_nconsts):
    cc, bc, init = split_list(args, [cond_nconsts, body_nconsts])
    types = [lowering.aval_to_ir_type(a) for a in ctx.avals_out]
    # Consts travel in the carry: stablehlo.while regions are isolated from above.
    const_types = [lowering.aval_to_ir_type(a) for a in ctx.avals_in[:len(cc) + len(bc)]]
    loop = hlo.WhileOp([*const_types, *types], [*cc, *bc, *init])
    nc = len(cc) + len(bc)
    cond_block = loop.cond.blocks.append(*const_types, *types)
    with ir.InsertionPoint(cond_block):
        a = list(cond_block.arguments)
        (pred,) = lowering.jaxpr_subcomp(ctx.module_ctx, cond_jaxpr.jaxpr,
                                         [*a[:len(cc)], *a[nc:]])
        hlo.ReturnOp([pred])
    body_block = loop.body.blocks.append(*const_types, *types)
    with ir.InsertionPoint(body_block):
        a = list(body_block.arguments)
        outs = lowering.jaxpr_subcomp(ctx.module_ctx, body_jaxpr.jaxpr,
                                      [*a[len(cc):nc], *a[nc:]])
        hlo.ReturnOp([*a[:nc], *outs])
    return list(loop.results)[nc:]


while_p = Primitive("while", multiple_results=True)
while_p.def_abstract_eval(_while_abstract_eval)
while_p.def_impl(lambda *args, **params: dispatch.apply_primitive(while_p, *args, **params))
lowering.register_lowering(while_p, _while_lowering)


def while_loop(cond_fun: Callable[[Any], Any], body_fun: Callable[[Any], Any],
               init_val: Any, *, _names: Sequence[str] | None = None) -> Any:
    """Repeat ``val = body_fun(val)`` while ``cond_fun(val)`` holds; returns ``val``.

    The carry must keep its structure, shapes and dtypes.  Forward-mode
    differentiation works; reverse mode does not (see the module notes): use
    :func:`fori_loop` with static bounds, :func:`scan`, or implicit
    differentiation with ``custom_vjp``.

    Examples
    --------
    >>> def newton_sqrt(a):
    ...     body = lambda x: 0.5 * (x + a / x)
    ...     return lax.while_loop(lambda x: snp.abs(x * x - a) > 1e-12, body, a)
    >>> print(f"{float(sciax.jit(newton_sqrt)(2.0)):.12f}")
    1.414213562373
    """
    leaves, in_tree = registry.flatten(init_val)
    avals = [get_aval(x) for x in leaves]
    cond_jaxpr, cond_consts, _ = _trace(cond_fun, _single_tree(in_tree), avals)
    out_avals = cond_jaxpr.out_avals
    if len(out_avals) != 1 or out_avals[0].shape != () or out_avals[0].dtype != dtypes.bool_:
        raise TypeError(f"while_loop: cond_fun must return a boolean scalar, got "
                        f"{_avals_str(out_avals)}")
    body_jaxpr, body_consts, body_tree = _trace(body_fun, _single_tree(in_tree), avals)
    if body_tree != in_tree:
        raise TypeError(f"while_loop: body_fun must return the carry's structure "
                        f"{in_tree}, got {body_tree}")
    if not _same_types(body_jaxpr.out_avals, avals):
        _check_types("fori_loop" if _names else "while_loop",
                     "body_fun must keep the carry's types (shape and dtype)",
                     "body_fun returns", _names or _leaf_names("init_val", in_tree),
                     avals, body_jaxpr.out_avals)
    leaves = [ew.convert_element_type(x, a.dtype, b.weak_type) if a.weak_type != b.weak_type
              else x for x, a, b in zip(leaves, avals, body_jaxpr.out_avals)]
    outs = while_p.bind(*cond_consts, *body_consts, *leaves, cond_jaxpr=cond_jaxpr,
                        body_jaxpr=body_jaxpr, cond_nconsts=len(cond_consts),
                        body_nconsts=len(body_consts))
    return in_tree.unflatten(outs)


class _single_tree:
    """Adapts a treedef so ``_trace`` calls ``fun(value)`` with the whole tree."""

    def __init__(self, tree: Any):
        self.tree = tree

    def unflatten(self, leaves: Sequence[Any]) -> tuple:
        return (self.tree.unflatten(leaves),)


def _while_jvp(primals, tangents, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc, bc, init = split_list(primals, [cond_nconsts, body_nconsts])
    _, tbc, tinit = split_list(tangents, [cond_nconsts, body_nconsts])
    bc_nz = [type(t) is not ad.Zero for t in tbc]
    carry_nz = [type(t) is not ad.Zero for t in tinit]
    while True:  # which carries get nonzero tangents: a fixed point
        _, _, out_nz = ad.jvp_jaxpr(body_jaxpr, bc_nz + carry_nz, instantiate=carry_nz)
        new = [a or b for a, b in zip(carry_nz, out_nz)]
        if new == carry_nz:
            break
        carry_nz = new
    body_jvp, jconsts, _ = ad.jvp_jaxpr(body_jaxpr, bc_nz + carry_nz,
                                        instantiate=carry_nz)
    nb, nk = len(bc), len(init)
    n_bct = sum(bc_nz)
    n_ct = sum(carry_nz)

    def body(*xs):
        jc, b, bt, carry, ct = split_list(xs, [len(jconsts), nb, n_bct, nk])
        outs = _call(body_jvp, *jc, *b, *carry, *bt, *ct)
        return outs
    body_avals = ([get_aval(c) for c in jconsts] + [get_aval(x) for x in bc] +
                  [get_aval(t) for t, z in zip(tbc, bc_nz) if z] +
                  [get_aval(x) for x in init] +
                  [a for a, z in zip(body_jaxpr.out_avals, carry_nz) if z])
    new_body, new_bconsts = _trace_flat(body, body_avals)

    def cond_f(*xs):
        c, carry, _ = split_list(xs, [len(cc), nk])
        return _call(cond_jaxpr, *c, *carry)
    new_cond, new_cconsts = _trace_flat(
        cond_f, [get_aval(c) for c in cc] + body_avals[-(nk + n_ct):])
    t_init = [ad.instantiate_zeros(t) for t, z in zip(tinit, carry_nz) if z]
    outs = while_p.bind(*new_cconsts, *cc, *new_bconsts, *jconsts, *bc,
                        *[t for t, z in zip(tbc, bc_nz) if z], *init, *t_init,
                        cond_jaxpr=new_cond, body_jaxpr=new_body,
                        cond_nconsts=len(new_cconsts) + len(cc),
                        body_nconsts=len(new_bconsts) + len(jconsts) + nb + n_bct)
    p_out, t_out = outs[:nk], iter(outs[nk:])
    return p_out, [next(t_out) if z else ad.Zero(a)
                   for z, a in zip(carry_nz, body_jaxpr.out_avals)]


def _while_partial_eval(trace: ad.PartialEvalTrace, args, params):
    if any(trace.is_unknown(a) for a in args):
        raise TypeError(
            "Reverse-mode differentiation does not work for lax.while_loop: the "
            "number of iterations is only known at run time, so the intermediate "
            "values cannot be stored for the backward pass. Use lax.fori_loop with "
            "static (Python int) bounds or lax.scan, which support reverse mode, or "
            "differentiate the solution implicitly (custom_vjp / implicit function "
            "theorem). Forward mode (jvp, jacfwd) works with while_loop.")
    with set_current_trace(trace.parent):
        return while_p.bind(*args, **params)


def _while_batch(vals, dims, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    size = batching.batch_size(vals, dims)
    cc, bc, init = split_list(vals, [cond_nconsts, body_nconsts])
    ccd, bcd, initd = split_list(dims, [cond_nconsts, body_nconsts])
    carry_b = [d is not batching.not_mapped for d in initd]
    while True:
        cond_b = carry_b
        bcond, bcond_c, cd = batching.batch_jaxpr(
            cond_jaxpr, ccd + [0 if b else None for b in carry_b], size, force_out=False)
        if cd[0] is not batching.not_mapped:
            carry_b = [True] * len(carry_b)
        bbody, bbody_c, od = batching.batch_jaxpr(
            body_jaxpr, bcd + [0 if b else None for b in carry_b], size, force_out=carry_b)
        new = [b or d is not batching.not_mapped for b, d in zip(carry_b, od)]
        if new == carry_b:
            break
        carry_b = new
    # The last round batched the body (and, unless the predicate forced every
    # carry, the condition) with the final carry dims: keep those jaxprs
    # instead of batching again (a nested loop's body is traced once less
    # per level).
    carry_dims = [0 if b else None for b in carry_b]
    if cond_b != carry_b:
        bcond, bcond_c, cd = batching.batch_jaxpr(cond_jaxpr, ccd + carry_dims, size,
                                                  force_out=False)
    init = [batching.bdim_at_front(x, d, size) if b else x
            for x, d, b in zip(init, initd, carry_b)]
    nk = len(init)
    if cd[0] is batching.not_mapped:
        outs = while_p.bind(*bcond_c, *cc, *bbody_c, *bc, *init, cond_jaxpr=bcond,
                            body_jaxpr=bbody, cond_nconsts=len(bcond_c) + len(cc),
                            body_nconsts=len(bbody_c) + len(bc))
        return outs, carry_dims
    from sciax._src.lax.reductions import reduce_or

    # Batched predicate: run until every member is done; finished ones stay frozen.
    cavals = [get_aval(c) for c in [*bcond_c, *cc]]
    bavals = [get_aval(c) for c in [*bbody_c, *bc]]
    kavals = [get_aval(x) for x in init]

    def new_cond(*xs):
        c, carry = xs[:len(cavals)], xs[len(cavals):]
        (pred,) = _call(bcond, *c, *carry)
        return [reduce_or(pred, (0,))]

    def new_body(*xs):
        c, b, carry = split_list(xs, [len(cavals), len(bavals)])
        (pred,) = _call(bcond, *c, *carry)
        new = _call(bbody, *b, *carry)
        out = []
        for n, o in zip(new, carry):
            shape = get_aval(o).shape
            p = shape_ops.broadcast_in_dim(pred, shape, (0,)) if len(shape) > 1 else pred
            out.append(ew.select(p, n, o))
        return out

    ncond, ncond_c = _trace_flat(new_cond, cavals + kavals)
    nbody, nbody_c = _trace_flat(new_body, cavals + bavals + kavals)
    outs = while_p.bind(*ncond_c, *bcond_c, *cc, *nbody_c, *bcond_c, *cc, *bbody_c, *bc,
                        *init, cond_jaxpr=ncond, body_jaxpr=nbody,
                        cond_nconsts=len(ncond_c) + len(cavals),
                        body_nconsts=len(nbody_c) + len(cavals) + len(bavals))
    return outs, [0] * nk


ad.primitive_jvps[while_p] = _while_jvp
ad.partial_eval_rules[while_p] = _while_partial_eval
batching.primitive_batchers[while_p] = _while_batch


# --- scan -----------------------------------------------------------------------------
# scan_p operands: consts, init carry, xs (each with a leading axis of ``length``).
# ``jaxpr`` maps (consts, carry, x slices) to (carry, y slices).

def _scan_abstract_eval(*avals, jaxpr, num_consts, num_carry, length, reverse, unroll):
    out = jaxpr.out_avals
    carry, ys = out[:num_carry], out[num_carry:]
    return [*carry, *(a.update(shape=(length, *a.shape)) for a in ys)]


def _scan_impl_fun(*args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    """scan as lax code: a while loop over the iteration counter."""
    from sciax._src.lax.shape_ops import dynamic_slice, dynamic_update_slice

    consts, init, xs = split_list(args, [num_consts, num_carry])
    y_avals = jaxpr.out_avals[num_carry:]
    ys0 = [_zeros(a.update(shape=(length, *a.shape))) for a in y_avals]
    if length == 0:
        return [*init, *ys0]

    def body(state):
        i, carry, ys = state
        idx = ew.sub(length - 1, i) if reverse else i
        # idx lies in [0, length): no negative-index wrapping is needed, and
        # leaving it out keeps a compare/add/select per slice out of the
        # program XLA compiles (JAX's scan emits none either)
        x = [shape_ops.squeeze(dynamic_slice(v, [idx] + [0] * (get_aval(v).ndim - 1),
                                             (1, *get_aval(v).shape[1:]),
                                             allow_negative_indices=False), (0,))
             for v in xs]
        outs = _call(jaxpr, *consts, *carry, *x)
        new_carry, y = outs[:num_carry], outs[num_carry:]
        ys = [dynamic_update_slice(acc, shape_ops.expand_dims(v, (0,)),
                                   [idx] + [0] * (get_aval(acc).ndim - 1),
                                   allow_negative_indices=False)
              for acc, v in zip(ys, y)]
        return ew.add(i, 1), list(new_carry), ys

    # The counter has fori_loop's index type (the default int), so that a
    # fori_loop from 0 -- a scan carrying its own index -- compiles to a loop
    # with one counter: XLA merges loop-carried values that start equal and
    # are updated alike, which an int32 and an int64 counter are not (two
    # more kernels an iteration).
    i0 = ew.convert_element_type(0, dtypes.default_int())
    _, carry, ys = while_loop(lambda s: ew.lt(s[0], length), body, (i0, list(init), ys0))
    return [*carry, *ys]


scan_p = Primitive("scan", multiple_results=True)
scan_p.def_abstract_eval(_scan_abstract_eval)
scan_p.def_impl(lambda *args, **params: dispatch.apply_primitive(scan_p, *args, **params))
lowering.register_lowering(scan_p, lowering.lower_fun(_scan_impl_fun, multiple_results=True))


def scan(f: Callable[[Any, Any], tuple[Any, Any]], init: Any, xs: Any = None,
         length: int | None = None, reverse: bool = False, unroll: int = 1, *,
         _names: Sequence[str] | None = None) -> Any:
    """Loop ``carry, y = f(carry, x)`` over the leading axis of ``xs``.

    Returns ``(final_carry, ys)`` with the ``y`` values stacked.  Both forward
    and reverse mode work (per-iteration residuals are stacked).

    Examples
    --------
    >>> def step(c, x):
    ...     c = c + x
    ...     return c, c * 2.0
    >>> c, ys = lax.scan(step, 0.0, snp.arange(4.0))
    >>> float(c), np.asarray(ys).tolist()
    (6.0, [0.0, 2.0, 6.0, 12.0])
    """
    x_leaves, x_tree = registry.flatten(xs)
    lengths = {get_aval(x).shape[0] if get_aval(x).shape else None for x in x_leaves}
    if None in lengths:
        raise ValueError("scan: every leaf of xs needs a leading axis to scan over; got "
                         "a scalar")
    if length is not None:
        length = operator.index(length)
        lengths.add(length)
    if len(lengths) > 1:
        raise ValueError(f"scan got inconsistent lengths for the leading axes of xs (and "
                         f"length=): {sorted(lengths)}")
    if not lengths:
        raise ValueError("scan needs xs with a leading axis or an explicit length")
    length = lengths.pop()
    c_leaves, c_tree = registry.flatten(init)
    c_avals = [get_aval(c) for c in c_leaves]
    x_avals = [get_aval(x).update(shape=get_aval(x).shape[1:]) for x in x_leaves]
    y_tree = OutTree()

    def flat(*vals):
        carry = c_tree.unflatten(vals[:len(c_leaves)])
        x = x_tree.unflatten(vals[len(c_leaves):])
        out = f(carry, x)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise TypeError("scan: f must return a pair (carry, y), got "
                            f"{type(out).__name__}")
        new_c, y = out
        nc_leaves, nc_tree = registry.flatten(new_c)
        if nc_tree != c_tree:
            raise TypeError(f"scan: f must return a carry of the input structure "
                            f"{c_tree}, got {nc_tree}")
        y_leaves, y_tree.tree = registry.flatten(y)
        return [*nc_leaves, *y_leaves]

    jaxpr, consts = _trace_flat(flat, c_avals + x_avals)
    carry_out = jaxpr.out_avals[len(consts) * 0:len(c_leaves)]
    if not _same_types(carry_out, c_avals):
        fn = "body_fun" if _names else "f"
        _check_types("fori_loop" if _names else "scan",
                     f"{fn} must keep the carry's types (shape and dtype)",
                     f"{fn} returns", _names or _leaf_names("init", c_tree), c_avals,
                     carry_out)
    c_leaves = [ew.convert_element_type(x, a.dtype, b.weak_type) if a.weak_type != b.weak_type
                else x for x, a, b in zip(c_leaves, c_avals, carry_out)]
    outs = scan_p.bind(*consts, *c_leaves, *x_leaves, jaxpr=jaxpr,
                       num_consts=len(consts), num_carry=len(c_leaves), length=length,
                       reverse=bool(reverse), unroll=int(unroll))
    carry, ys = outs[:len(c_leaves)], outs[len(c_leaves):]
    return c_tree.unflatten(carry), y_tree().unflatten(ys)


def _scan_jvp(primals, tangents, *, jaxpr, num_consts, num_carry, length, reverse,
              unroll):
    consts, init, xs = split_list(primals, [num_consts, num_carry])
    tc, tinit, txs = split_list(tangents, [num_consts, num_carry])
    c_nz = [type(t) is not ad.Zero for t in tc]
    k_nz = [type(t) is not ad.Zero for t in tinit]
    x_nz = [type(t) is not ad.Zero for t in txs]
    ny = len(jaxpr.out_avals) - num_carry
    while True:
        _, _, out_nz = ad.jvp_jaxpr(jaxpr, c_nz + k_nz + x_nz,
                                    instantiate=k_nz + [False] * ny)
        new = [a or b for a, b in zip(k_nz, out_nz[:num_carry])]
        if new == k_nz:
            break
        k_nz = new
    jx, jc, out_nz = ad.jvp_jaxpr(jaxpr, c_nz + k_nz + x_nz,
                                  instantiate=k_nz + [False] * ny)
    y_nz = out_nz[num_carry:]
    n_ct, n_kt, n_xt = sum(c_nz), sum(k_nz), sum(x_nz)

    # reorder (jc, consts, consts_t, carry, carry_t, x, x_t) for the jvp jaxpr,
    # whose inputs are (jc, consts, carry, x, consts_t, carry_t, x_t)
    def body(*v):
        j, c, ct, k, kt, x, xt = split_list(v, [len(jc), num_consts, n_ct, num_carry,
                                                n_kt, len(xs)])
        outs = _call(jx, *j, *c, *k, *x, *ct, *kt, *xt)
        p, t = outs[:num_carry + ny], outs[num_carry + ny:]
        kt_out, yt_out = t[:n_kt], t[n_kt:]
        return [*p[:num_carry], *kt_out, *p[num_carry:], *yt_out]

    ins = jaxpr.in_avals
    c_av, k_av, x_av = split_list(ins, [num_consts, num_carry])
    avals = ([get_aval(c) for c in jc] + c_av + [a for a, z in zip(c_av, c_nz) if z] +
             k_av + [a for a, z in zip(k_av, k_nz) if z] + x_av +
             [a for a, z in zip(x_av, x_nz) if z])
    new_jaxpr, new_consts = _trace_flat(body, avals)
    outs = scan_p.bind(*new_consts, *jc, *consts, *[t for t, z in zip(tc, c_nz) if z],
                       *init, *[ad.instantiate_zeros(t) for t, z in zip(tinit, k_nz) if z],
                       *xs, *[t for t, z in zip(txs, x_nz) if z], jaxpr=new_jaxpr,
                       num_consts=len(new_consts) + len(jc) + num_consts + n_ct,
                       num_carry=num_carry + n_kt, length=length, reverse=reverse,
                       unroll=unroll)
    carry, kt, ys, yt = split_list(outs, [num_carry, n_kt, ny])
    kt, yt = iter(kt), iter(yt)
    y_avals = _scan_abstract_eval(*ins, jaxpr=jaxpr, num_consts=num_consts,
                                  num_carry=num_carry, length=length, reverse=reverse,
                                  unroll=unroll)[num_carry:]
    t_carry = [next(kt) if z else ad.Zero(a) for z, a in zip(k_nz, k_av)]
    t_ys = [next(yt) if z else ad.Zero(a) for z, a in zip(y_nz, y_avals)]
    return [*carry, *ys], [*t_carry, *t_ys]


def _scan_partial_eval(trace: ad.PartialEvalTrace, args, params):
    jaxpr, nc, nk = params["jaxpr"], params["num_consts"], params["num_carry"]
    unknown = [trace.is_unknown(a) for a in args]
    c_u, k_u, x_u = split_list(unknown, [nc, nk])
    while True:
        out_u, _ = ad.partial_eval_jaxpr(jaxpr, c_u + k_u + x_u)
        new = [a or b for a, b in zip(k_u, out_u[:nk])]
        if new == k_u:
            break
        k_u = new
    if not any(c_u + k_u + x_u):
        with set_current_trace(trace.parent):
            return scan_p.bind(*args, **params)
    out_u = [*k_u, *out_u[nk:]]
    in_u = c_u + k_u + x_u
    consts, init, xs = split_list(args, [nc, nk])
    staged_box: list = []

    _, run = ad.partial_eval_jaxpr(jaxpr, in_u)

    n_known_c = nc - sum(c_u)
    n_known_k = nk - sum(k_u)

    def known_body(*vals):
        known, staged, _ = run(*vals, force_unknown=out_u)
        # A residual that is one of the known consts is the same in every
        # iteration: it goes to the staged scan as a const instead of being
        # stacked ``length`` times (for ``h @ w`` that is the weight matrix).
        # Likewise a residual that is a known ``xs`` slice: the staged scan
        # slices the known ``xs`` itself rather than a stacked copy of it.
        # ``invariant[j]``: (0, i) for the i-th known const, (1, i) for the
        # i-th known xs, None for a residual stacked per iteration.
        n_vals = len(vals)
        x0 = n_known_c + n_known_k
        invariant = [next(((0, i) if i < n_known_c else (1, i - x0)
                           for i in [*range(n_known_c), *range(x0, n_vals)]
                           if r is vals[i]), None)
                     for r in staged.consts]
        staged_box.append((staged, invariant))
        return [*known, *(r for r, i in zip(staged.consts, invariant) if i is None)]

    known_avals = [a for a, u in zip(jaxpr.in_avals, in_u) if not u]
    kjaxpr, kconsts = _trace_flat(known_body, known_avals)
    staged, invariant = staged_box[-1]
    with set_current_trace(trace.parent):
        kouts = scan_p.bind(*kconsts, *[a for a, u in zip(args, in_u) if not u],
                            jaxpr=kjaxpr, num_consts=len(kconsts) + n_known_c,
                            num_carry=n_known_k, length=params["length"],
                            reverse=params["reverse"], unroll=params["unroll"])
    n_known_y = sum(1 for u in out_u[nk:] if not u)
    k_carry, k_ys, residuals = split_list(kouts, [n_known_k, n_known_y])
    sj = staged.jaxpr
    uc_vars, uk_vars, ux_vars = split_list(sj.invars, [sum(c_u), sum(k_u)])
    known_consts = [c for c, u in zip(consts, c_u) if not u]
    known_xs = [x for x, u in zip(xs, x_u) if not u]
    inv_vars = [v for v, i in zip(sj.constvars, invariant) if i and i[0] == 0]
    inv_ops = [known_consts[i[1]] for i in invariant if i and i[0] == 0]
    # stacked residuals and known xs slices both enter as xs
    res_vars = [v for v, i in zip(sj.constvars, invariant) if i is None or i[0] == 1]
    res_it = iter(residuals)
    res_ops = [next(res_it) if i is None else known_xs[i[1]]
               for i in invariant if i is None or i[0] == 1]
    body = ClosedJaxpr(Jaxpr([], [*uc_vars, *inv_vars, *uk_vars, *res_vars, *ux_vars],
                             sj.outvars, sj.eqns), [])
    u_ops = ([c for c, u in zip(consts, c_u) if u] + inv_ops
             + [k for k, u in zip(init, k_u) if u]
             + res_ops + [x for x, u in zip(xs, x_u) if u])
    souts = trace.staged.process_primitive(
        scan_p, u_ops, {**params, "jaxpr": body, "num_consts": sum(c_u) + len(inv_ops),
                        "num_carry": sum(k_u)})
    s_carry, s_ys = iter(souts[:sum(k_u)]), iter(souts[sum(k_u):])
    kc_it, ky_it = iter(k_carry), iter(k_ys)
    carry = [next(s_carry) if u else next(kc_it) for u in k_u]
    ys = [next(s_ys) if u else next(ky_it) for u in out_u[nk:]]
    return [*carry, *ys]


def _scan_transpose(cts, *args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    consts, init, xs = split_list(args, [num_consts, num_carry])
    c_lin = [ad.is_undefined_primal(c) for c in consts]
    k_lin = [ad.is_undefined_primal(k) for k in init]
    x_lin = [ad.is_undefined_primal(x) for x in xs]
    # A known carry init can only reach a linear scan as an instantiated zero
    # tangent (partial evaluation forces the whole carry unknown): it is
    # transposed like a linear input and its cotangent dropped.
    c_av, k_av, x_av = split_list(jaxpr.in_avals, [num_consts, num_carry])
    ct_carry = [ad.instantiate_zeros(c) for c in cts[:num_carry]]
    ct_ys = [ad.instantiate_zeros(c) for c in cts[num_carry:]]
    kc = [c for c, lin in zip(consts, c_lin) if not lin]
    kx = [x for x, lin in zip(xs, x_lin) if not lin]
    lin_c_av = [a for a, lin in zip(c_av, c_lin) if lin]
    acc0 = [_zeros(a) for a in lin_c_av]
    y_av = jaxpr.out_avals[num_carry:]

    def tbody(*vals):
        kc_, acc, ctk, kx_, cty = split_list(
            vals, [len(kc), len(acc0), num_carry, len(kx)])
        kci, kxi = iter(kc_), iter(kx_)
        full = ([ad.UndefinedPrimal(a) if lin else next(kci) for a, lin in zip(c_av, c_lin)]
                + [ad.UndefinedPrimal(a) for a in k_av]
                + [ad.UndefinedPrimal(a) if lin else next(kxi) for a, lin in zip(x_av, x_lin)])
        res = ad.backward_pass(jaxpr.jaxpr, jaxpr.consts, [*ctk, *cty], args=full)
        ct_c, ct_k, ct_x = split_list(res, [num_consts, num_carry])
        lin_ct_c = [ad.instantiate_zeros(c) for c, lin in zip(ct_c, c_lin) if lin]
        new_acc = [ew.add(a, c) for a, c in zip(acc, lin_ct_c)]
        return [*new_acc, *(ad.instantiate_zeros(c) for c in ct_k),
                *(ad.instantiate_zeros(c) for c, lin in zip(ct_x, x_lin) if lin)]

    avals = ([get_aval(c) for c in kc] + lin_c_av + k_av +
             [a for a, lin in zip(x_av, x_lin) if not lin] + list(y_av))
    tj, tconsts = _trace_flat(tbody, avals)
    outs = scan_p.bind(*tconsts, *kc, *acc0, *ct_carry, *kx, *ct_ys, jaxpr=tj,
                       num_consts=len(tconsts) + len(kc),
                       num_carry=len(acc0) + num_carry, length=length,
                       reverse=not reverse, unroll=unroll)
    acc, ct_init, ct_xs = split_list(outs, [len(acc0), num_carry])
    acc_it, ctx_it = iter(acc), iter(ct_xs)
    return ([next(acc_it) if lin else None for lin in c_lin] +
            [c if lin else None for c, lin in zip(ct_init, k_lin)] +
            [next(ctx_it) if lin else None for lin in x_lin])


def _scan_batch(vals, dims, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    size = batching.batch_size(vals, dims)
    consts, init, xs = split_list(vals, [num_consts, num_carry])
    cd, kd, xd = split_list(dims, [num_consts, num_carry])
    ny = len(jaxpr.out_avals) - num_carry
    xs = [x if d is batching.not_mapped else batching.moveaxis(x, d, 1)
          for x, d in zip(xs, xd)]
    x_in = [batching.not_mapped if d is batching.not_mapped else 0 for d in xd]
    carry_b = [d is not batching.not_mapped for d in kd]
    while True:
        k_in = [0 if b else None for b in carry_b]
        _, _, od = batching.batch_jaxpr(jaxpr, cd + k_in + x_in, size,
                                        force_out=carry_b + [False] * ny)
        new = [b or d is not batching.not_mapped for b, d in zip(carry_b, od[:num_carry])]
        if new == carry_b:
            break
        carry_b = new
    k_in = [0 if b else None for b in carry_b]
    bj, bc, od = batching.batch_jaxpr(jaxpr, cd + k_in + x_in, size,
                                      force_out=carry_b + [False] * ny)
    init = [batching.bdim_at_front(k, d, size) if b else k
            for k, d, b in zip(init, kd, carry_b)]
    outs = scan_p.bind(*bc, *consts, *init, *xs, jaxpr=bj,
                       num_consts=len(bc) + num_consts, num_carry=num_carry,
                       length=length, reverse=reverse, unroll=unroll)
    out_dims = k_in + [batching.not_mapped if d is batching.not_mapped else 1
                       for d in od[num_carry:]]
    return outs, out_dims


ad.primitive_jvps[scan_p] = _scan_jvp
ad.partial_eval_rules[scan_p] = _scan_partial_eval
ad.primitive_transposes[scan_p] = _scan_transpose
batching.primitive_batchers[scan_p] = _scan_batch


# --- derived loops ---------------------------------------------------------------------

def _static_int(x: Any) -> int | None:
    if isinstance(x, int | np.integer) and not isinstance(x, bool):
        return int(x)
    return None


def fori_loop(lower: Any, upper: Any, body_fun: Callable[[Any, Any], Any],
              init_val: Any) -> Any:
    """``for i in range(lower, upper): val = body_fun(i, val)``; returns ``val``.

    With Python-int bounds the loop is a :func:`scan` (so reverse-mode
    differentiation works); with traced bounds it is a :func:`while_loop`.

    Examples
    --------
    >>> float(lax.fori_loop(0, 5, lambda i, x: x + i, 0.0))
    10.0
    """
    lo, hi = _static_int(lower), _static_int(upper)
    if lo is not None and hi is not None:
        def step(carry, _):
            i, val = carry
            return (ew.add(i, 1), body_fun(i, val)), None
        # the index is a weak default int, as a Python int would be
        i0 = ew.convert_element_type(lo, dtypes.default_int(), weak_type=True)
        names = ["i", *_leaf_names("init_val", registry.flatten(init_val)[1])]
        (_, val), _ = scan(step, (i0, init_val), None, length=max(hi - lo, 0),
                           _names=names)
        return val
    dt = np.result_type(*(get_aval(b).dtype if not dtypes.is_python_scalar(b)
                          else np.int32 for b in (lower, upper)))
    lower = ew.convert_element_type(lower, dt)
    upper = ew.convert_element_type(upper, dt)

    def cond_f(state):
        return ew.lt(state[0], state[1])

    def body_f(state):
        i, u, val = state
        return ew.add(i, ew.convert_element_type(1, dt)), u, body_fun(i, val)
    names = ["i", "upper", *_leaf_names("init_val", registry.flatten(init_val)[1])]
    return while_loop(cond_f, body_f, (lower, upper, init_val), _names=names)[2]


def map(f: Callable[[Any], Any], xs: Any, *, batch_size: int | None = None) -> Any:
    """``f`` applied to each slice of ``xs`` along its leading axis, as a scan.

    With ``batch_size``, ``vmap(f)`` runs on chunks of that many slices (the
    chunks in a scan, then the remainder): more parallel work per step.

    Examples
    --------
    >>> np.asarray(lax.map(lambda x: x ** 2, snp.arange(4.0))).tolist()
    [0.0, 1.0, 4.0, 9.0]
    >>> np.asarray(lax.map(lambda x: x ** 2, snp.arange(5.0), batch_size=2)).tolist()
    [0.0, 1.0, 4.0, 9.0, 16.0]
    """
    if batch_size is not None:
        from sciax._src.lax.scan_extras import batched_map

        return batched_map(f, xs, batch_size)
    _, ys = scan(lambda c, x: (c, f(x)), (), xs)
    return ys


def associative_scan(fn: Callable[[Any, Any], Any], elems: Any, reverse: bool = False,
                     axis: int = 0) -> Any:
    """Inclusive scan with an associative ``fn`` in O(log n) depth.

    ``fn(a, b)`` combines two pytrees of arrays elementwise along ``axis``.
    The algorithm combines adjacent pairs, recurses on the half-size result,
    then fills in the even positions (Ladner–Fischer style).

    Examples
    --------
    >>> np.asarray(lax.associative_scan(lax.add, snp.arange(1.0, 6.0))).tolist()
    [1.0, 3.0, 6.0, 10.0, 15.0]
    """
    leaves, tree = registry.flatten(elems)
    if not leaves:
        return elems
    ndim = get_aval(leaves[0]).ndim
    axis = axis % ndim if ndim else 0
    lengths = {get_aval(x).shape[axis] for x in leaves}
    if len(lengths) != 1:
        raise ValueError(f"associative_scan: leaves have different lengths along axis "
                         f"{axis}: {sorted(lengths)}")
    if reverse:
        leaves = [shape_ops.rev(x, (axis,)) for x in leaves]

    def combine(a, b):
        out = fn(tree.unflatten(a), tree.unflatten(b))
        return registry.flatten(out)[0]

    def sl(x, start, stop, step=1):
        return shape_ops.slice_in_dim(x, start, stop, step, axis)

    def rec(xs):
        n = get_aval(xs[0]).shape[axis]
        if n < 2:
            return xs
        reduced = combine([sl(x, 0, n - 1, 2) for x in xs], [sl(x, 1, n, 2) for x in xs])
        odd = rec(reduced)
        if n % 2 == 0:
            even = combine([sl(o, 0, get_aval(o).shape[axis] - 1) for o in odd],
                           [sl(x, 2, n, 2) for x in xs])
        else:
            even = combine(odd, [sl(x, 2, n, 2) for x in xs])
        even = [shape_ops.concatenate([sl(x, 0, 1), e], axis) for x, e in zip(xs, even)]
        return [_interleave(e, o, axis) for e, o in zip(even, odd)]

    out = rec(leaves)
    if reverse:
        out = [shape_ops.rev(x, (axis,)) for x in out]
    return tree.unflatten(out)


def _interleave(a: Any, b: Any, axis: int) -> Any:
    """Elements of ``a`` at even and of ``b`` at odd positions along ``axis``."""
    a_av, b_av = get_aval(a), get_aval(b)
    n = a_av.shape[axis] + b_av.shape[axis]
    shape = list(a_av.shape)
    shape[axis] = n
    pad_a = [(0, 0, 0)] * a_av.ndim
    pad_a[axis] = (0, n - (2 * a_av.shape[axis] - 1), 1)
    pad_b = [(0, 0, 0)] * b_av.ndim
    pad_b[axis] = (1, n - 1 - (2 * b_av.shape[axis] - 1), 1)
    zero = ew.convert_element_type(0, a_av.dtype)
    return ew.add(shape_ops.pad(a, zero, pad_a), shape_ops.pad(b, zero, pad_b))


# --- optimization_barrier ------------------------------------------------------------

def optimization_barrier(operand: Any) -> Any:
    """The identity on a pytree of arrays, which XLA may not compute through.

    Every leaf is computed before any is used, and the compiler neither
    fuses the computation of a leaf into its users nor moves work across
    the barrier.  Use it to keep a small value that many elements of a large
    computation read (a key split off inside a sampler, say) from being
    recomputed inside the large computation's fused loop.  Derivatives and
    batching treat it as the identity.

    Examples
    --------
    >>> x, y = lax.optimization_barrier((snp.float32(1), snp.arange(3)))
    >>> float(sciax.grad(lambda t: lax.optimization_barrier(t) ** 2)(3.0))
    6.0
    """
    leaves, tree = registry.flatten(operand)
    if not leaves:
        return operand
    return tree.unflatten(optimization_barrier_p.bind(*leaves))


def _barrier_jvp(primals: Sequence[Any], tangents: Sequence[Any]
                 ) -> tuple[list[Any], list[Any]]:
    # the identity's derivative; the tangents need no barrier of their own
    return optimization_barrier_p.bind(*primals), list(tangents)


def _barrier_batch(vals: Sequence[Any], dims: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    return optimization_barrier_p.bind(*vals), list(dims)


optimization_barrier_p = Primitive("optimization_barrier", multiple_results=True)
optimization_barrier_p.def_abstract_eval(lambda *avals: list(avals))
optimization_barrier_p.def_impl(lambda *args: list(args))
lowering.register_lowering(
    optimization_barrier_p,
    lambda ctx, *operands: list(hlo.OptimizationBarrierOp(list(operands)).results))
ad.primitive_jvps[optimization_barrier_p] = _barrier_jvp
batching.primitive_batchers[optimization_barrier_p] = _barrier_batch
