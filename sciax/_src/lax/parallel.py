"""Collectives over named axes: psum, pmean, pmax, pmin, all_gather, ppermute,
axis_index.

Inside ``vmap(..., axis_name=name)`` a collective over ``name`` acts across the
batch (its batching rule reduces over the batch dimension); inside ``pmap`` it
lowers to the StableHLO cross-replica collective (``all_reduce``,
``all_gather``, ``collective_permute``, ``replica_id``) over all replicas.  An
axis name that no enclosing transformation defines is an error.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.backend.pytree import registry
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.trace import Primitive, current_trace
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.lax import elementwise as ew
from sciax._src.lax import reductions, shape_ops

__all__ = ["psum", "pmean", "pmax", "pmin", "all_gather", "ppermute", "axis_index",
           "pmap_axis_env", "psum_p", "pmax_p", "pmin_p", "all_gather_p", "ppermute_p",
           "axis_index_p"]


def _axes_tuple(axis_name: Any) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, tuple | list) else (axis_name,)


def _unbound(name: Any) -> NameError:
    return NameError(f"unbound axis name: {name!r}; collectives need an enclosing "
                     "vmap(..., axis_name=...) or pmap(..., axis_name=...) with that "
                     "name")


def _collective(name: str) -> Primitive:
    prim = Primitive(name)
    prim.def_abstract_eval(lambda x, *, axes: x)

    def impl(x, *, axes):
        raise _unbound(axes[0])
    prim.def_impl(impl)
    batching.axis_primitives.add(prim)
    return prim


# --- lowering inside pmap -------------------------------------------------------------

# pmap lowers its body with the axis it maps bound here: (name, number of replicas).
# Replica r is member r of the axis, so every collective spans all replicas.
_pmap_axis: list[tuple[Any, int]] = []


@contextlib.contextmanager
def pmap_axis_env(axis_name: Any, size: int) -> Iterator[None]:
    """Bind ``axis_name`` to the ``size`` replicas of the program being lowered."""
    _pmap_axis.append((axis_name, size))
    try:
        yield
    finally:
        _pmap_axis.pop()


def _replica_count(axes: tuple) -> int:
    """The replica count, checking that ``axes`` names exactly the pmapped axis."""
    if not _pmap_axis:
        raise _unbound(axes[0])
    name, size = _pmap_axis[-1]
    for a in axes:
        if a != name:
            raise _unbound(a)
    if len(axes) != 1:
        raise NotImplementedError(f"collective over axes {axes}: only one pmapped axis "
                                  "can be named at a time")
    return size


def _replica_groups(size: int) -> ir.DenseIntElementsAttr:
    return ir.DenseIntElementsAttr.get(np.arange(size, dtype=np.int64).reshape(1, size))


def _all_reduce_lowering(kind: str):
    def rule(ctx, x, *, axes):
        size = _replica_count(axes)
        aval = ctx.avals_in[0]
        ttype = lowering.aval_to_ir_type(aval)
        op = hlo.AllReduceOp([ttype], [x], _replica_groups(size))
        scalar = lowering.aval_to_ir_type(aval.update(shape=()))
        block = op.regions[0].blocks.append(scalar, scalar)
        with ir.InsertionPoint(block):
            a, b = block.arguments
            if aval.dtype == dtypes.bool_:
                out = hlo.and_(a, b) if kind == "min" else hlo.or_(a, b)
            else:
                op_ = {"sum": hlo.add, "max": hlo.maximum, "min": hlo.minimum}[kind]
                out = op_(a, b)
            hlo.return_([out])
        return op.results
    return rule


# --- helpers of the reduction rules ---------------------------------------------------

def _reduce_batch(reducer):
    def rule(trace, vals, dims, *, axes):
        (x,), (d,) = vals, dims
        prim = {_sum: psum_p, _max: pmax_p, _min: pmin_p}[reducer]
        if trace.axis_name not in axes:
            return prim.bind(x, axes=axes), d
        rest = tuple(a for a in axes if a != trace.axis_name)
        if d is batching.not_mapped:
            out = _scale_unmapped(reducer, x, trace.axis_size)
        else:
            out = reducer(x, d)
        if rest:
            out = prim.bind(out, axes=rest)
        return out, batching.not_mapped
    return rule


def _sum(x, d):
    return reductions.reduce_sum(x, (d,))


def _max(x, d):
    return reductions.reduce_max(x, (d,))


def _min(x, d):
    return reductions.reduce_min(x, (d,))


def _scale_unmapped(reducer, x, size):
    if reducer is _sum:
        return ew.mul(x, ew.convert_element_type(size, get_aval(x).dtype))
    return x


def _psum_jvp_zero_safe(prim):
    def jvp(primals, tangents, *, axes):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axes=axes)
        # derivative flows to the arg(s) attaining the extremum
        sel = ew.eq(x, out)
        tz = ad.instantiate_zeros(t)
        contrib = ew.select(sel, tz, ad.zeros_like_aval(get_aval(tz)))
        cnt = psum_p.bind(ew.convert_element_type(sel, get_aval(x).dtype), axes=axes)
        return out, ew.div(psum_p.bind(contrib, axes=axes), cnt)
    ad.primitive_jvps[prim] = jvp


def _tree_apply(prim: Primitive, x: Any, axis_name: Any) -> Any:
    axes = _axes_tuple(axis_name)
    leaves, tree = registry.flatten(x)
    return tree.unflatten([prim.bind(leaf, axes=axes) for leaf in leaves])


def _static_axis_size(axis_name: Any) -> int:
    t = current_trace()
    while t is not None:
        if isinstance(t, batching.BatchTrace) and t.axis_name == axis_name:
            return t.axis_size
        size = getattr(t, "axis_sizes", {}).get(axis_name)
        if size is not None:
            return size
        t = getattr(t, "parent", None)
    raise _unbound(axis_name)


# --- psum -----------------------------------------------------------------------------

psum_p = _collective("psum")
lowering.register_lowering(psum_p, _all_reduce_lowering("sum"))
batching.primitive_batchers[psum_p] = _reduce_batch(_sum)
# Every member's output depends on every member's input, so the cotangent is
# summed over the axis too: inside vmap/pmap, grad of psum(x) is the axis size
# (JAX's convention; the gradient is that of the members' summed outputs).
ad.deflinear(psum_p, lambda ct, x, *, axes: [psum_p.bind(ct, axes=axes)])


def psum(x: Any, axis_name: Any) -> Any:
    """Sum ``x`` (a pytree) over the named mapped axis; every member gets the total.

    Examples
    --------
    >>> sciax.vmap(lambda v: lax.psum(v, "i"), axis_name="i")(snp.arange(4.0))
    Array([6., 6., 6., 6.], dtype=float64)
    """
    return _tree_apply(psum_p, x, axis_name)


# --- pmax -----------------------------------------------------------------------------

pmax_p = _collective("pmax")
lowering.register_lowering(pmax_p, _all_reduce_lowering("max"))
batching.primitive_batchers[pmax_p] = _reduce_batch(_max)
_psum_jvp_zero_safe(pmax_p)


def pmax(x: Any, axis_name: Any) -> Any:
    """Maximum over the named mapped axis."""
    return _tree_apply(pmax_p, x, axis_name)


# --- pmin -----------------------------------------------------------------------------

pmin_p = _collective("pmin")
lowering.register_lowering(pmin_p, _all_reduce_lowering("min"))
batching.primitive_batchers[pmin_p] = _reduce_batch(_min)
_psum_jvp_zero_safe(pmin_p)


def pmin(x: Any, axis_name: Any) -> Any:
    """Minimum over the named mapped axis."""
    return _tree_apply(pmin_p, x, axis_name)


# --- pmean ----------------------------------------------------------------------------

def pmean(x: Any, axis_name: Any) -> Any:
    """Mean over the named mapped axis.

    Examples
    --------
    >>> sciax.vmap(lambda v: lax.pmean(v, "i"), axis_name="i")(snp.arange(4.0))
    Array([1.5, 1.5, 1.5, 1.5], dtype=float64)
    """
    total = psum(x, axis_name)
    n = 1
    for name in _axes_tuple(axis_name):
        n *= _static_axis_size(name)
    leaves, tree = registry.flatten(total)
    # a Python int takes each leaf's dtype and shape (coerce_scalars)
    return tree.unflatten([ew.div(t, n) for t in leaves])


# --- axis_index -----------------------------------------------------------------------

axis_index_p = Primitive("axis_index")
axis_index_p.def_abstract_eval(lambda *, axis_name: ShapedArray((), dtypes.int32))
axis_index_p.def_impl(lambda *, axis_name: (_ for _ in ()).throw(_unbound(axis_name)))
batching.axis_primitives.add(axis_index_p)


def _axis_index_batch(trace, vals, dims, *, axis_name):
    if trace.axis_name != axis_name:
        return axis_index_p.bind(axis_name=axis_name), batching.not_mapped
    return shape_ops.iota(np.int32, trace.axis_size), 0


batching.primitive_batchers[axis_index_p] = _axis_index_batch


def _axis_index_lowering(ctx, *, axis_name):
    _replica_count((axis_name,))
    rid = hlo.replica_id()
    return hlo.convert(lowering.aval_to_ir_type(ctx.avals_out[0]), rid)


lowering.register_lowering(axis_index_p, _axis_index_lowering)
ad.defjvp_zero(axis_index_p)


def axis_index(axis_name: Any) -> Any:
    """The position of the current member along the named mapped axis (int32).

    Examples
    --------
    >>> sciax.vmap(lambda v: lax.axis_index("i") * v, axis_name="i")(snp.ones(3))
    Array([0., 1., 2.], dtype=float64)
    """
    return axis_index_p.bind(axis_name=axis_name)


# --- all_gather -----------------------------------------------------------------------

all_gather_p = Primitive("all_gather")
batching.axis_primitives.add(all_gather_p)


def _all_gather_abstract_eval(x, *, axis_name, axis, size, tiled):
    limit = len(x.shape) - 1 if tiled else len(x.shape)
    if not 0 <= axis <= limit:
        raise ValueError(f"all_gather: axis {axis} is out of range for an operand of "
                         f"shape {x.shape} (tiled={tiled})")
    shape = list(x.shape)
    if tiled:
        shape[axis] *= size
    else:
        shape.insert(axis, size)
    return x.update(shape=tuple(shape))


all_gather_p.def_abstract_eval(_all_gather_abstract_eval)
all_gather_p.def_impl(lambda x, *, axis_name, **_: (_ for _ in ()).throw(
    _unbound(axis_name)))


def _all_gather_batch(trace, vals, dims, *, axis_name, axis, size, tiled):
    (x,), (d,) = vals, dims
    if trace.axis_name != axis_name:
        out = all_gather_p.bind(x, axis_name=axis_name, axis=axis + (d is not None and
                                                                      d <= axis),
                                size=size, tiled=tiled)
        return out, d
    x = batching.bdim_at_front(x, d, trace.axis_size)
    out = batching.moveaxis(x, 0, axis)
    if tiled:
        shape = list(get_aval(out).shape)
        shape[axis:axis + 2] = [shape[axis] * shape[axis + 1]]
        out = shape_ops.reshape(out, shape)
    return out, batching.not_mapped


batching.primitive_batchers[all_gather_p] = _all_gather_batch


def _all_gather_lowering(ctx, x, *, axis_name, axis, size, tiled):
    _replica_count((axis_name,))
    aval = ctx.avals_in[0]
    if not tiled:
        # gather size-1 slabs along a new axis: concatenating them stacks the members
        shape = list(aval.shape)
        shape.insert(axis, 1)
        x = hlo.reshape(lowering.aval_to_ir_type(aval.update(shape=tuple(shape))), x)
    op = hlo.AllGatherOp([lowering.aval_to_ir_type(ctx.avals_out[0])], [x], axis,
                         _replica_groups(size))
    return op.results


lowering.register_lowering(all_gather_p, _all_gather_lowering)


def all_gather(x: Any, axis_name: Any, *, axis: int = 0, tiled: bool = False) -> Any:
    """Stack every member's ``x`` along a new axis ``axis`` (or concatenate if
    ``tiled``); every member gets the whole result.

    Examples
    --------
    >>> gather = sciax.vmap(lambda v: lax.all_gather(v, "i"), axis_name="i")
    >>> gather(snp.arange(3.0)).shape
    (3, 3)
    """
    size = _static_axis_size(axis_name)
    leaves, tree = registry.flatten(x)
    return tree.unflatten([all_gather_p.bind(leaf, axis_name=axis_name, axis=axis,
                                             size=size, tiled=tiled)
                           for leaf in leaves])


# --- ppermute -------------------------------------------------------------------------

ppermute_p = Primitive("ppermute")
ppermute_p.def_abstract_eval(lambda x, *, axis_name, perm: x)
ppermute_p.def_impl(lambda x, *, axis_name, perm: (_ for _ in ()).throw(
    _unbound(axis_name)))
batching.axis_primitives.add(ppermute_p)


def _ppermute_batch(trace, vals, dims, *, axis_name, perm):
    (x,), (d,) = vals, dims
    if trace.axis_name != axis_name:
        return ppermute_p.bind(x, axis_name=axis_name, perm=perm), d
    x = batching.bdim_at_front(x, d, trace.axis_size)
    n = trace.axis_size
    rows = []
    src_of = {t: s for s, t in perm}
    zero = ad.zeros_like_aval(get_aval(x).update(shape=get_aval(x).shape[1:]))
    for i in range(n):
        rows.append(shape_ops.index_in_dim(x, src_of[i], 0, keepdims=True)
                    if i in src_of else shape_ops.expand_dims(zero, (0,)))
    return shape_ops.concatenate(rows, 0), 0


batching.primitive_batchers[ppermute_p] = _ppermute_batch


def _ppermute_lowering(ctx, x, *, axis_name, perm):
    size = _replica_count((axis_name,))
    for s, t in perm:
        if not (0 <= s < size and 0 <= t < size):
            raise ValueError(f"ppermute: perm {perm} names a member outside the "
                             f"{size} members of axis {axis_name!r}")
    if not perm:  # nobody sends: every member receives zeros
        aval = ctx.avals_out[0]
        return lowering.ir_constant(np.zeros(aval.shape, aval.dtype), aval)
    pairs = ir.DenseIntElementsAttr.get(np.asarray(perm, dtype=np.int64).reshape(-1, 2))
    return hlo.collective_permute(x, pairs)


lowering.register_lowering(ppermute_p, _ppermute_lowering)
ad.deflinear(ppermute_p, lambda ct, x, *, axis_name, perm: [
    ppermute_p.bind(ct, axis_name=axis_name, perm=tuple((t, s) for s, t in perm))])


def ppermute(x: Any, axis_name: Any, perm: Sequence[tuple[int, int]]) -> Any:
    """Send member ``src``'s ``x`` to member ``dst`` for each ``(src, dst)`` in
    ``perm``; members that receive nothing get zeros.

    Examples
    --------
    >>> shift = lambda v: lax.ppermute(v, "i", [(0, 1), (1, 2), (2, 0)])
    >>> sciax.vmap(shift, axis_name="i")(snp.arange(3.0))
    Array([2., 0., 1.], dtype=float64)
    """
    perm = tuple((int(s), int(t)) for s, t in perm)
    srcs, dsts = [s for s, _ in perm], [t for _, t in perm]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(
            f"ppermute: perm {perm} must not repeat a source or destination")
    leaves, tree = registry.flatten(x)
    return tree.unflatten([ppermute_p.bind(leaf, axis_name=axis_name, perm=perm)
                           for leaf in leaves])
