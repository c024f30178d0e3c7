"""``lax.reduce`` with an arbitrary (associative) combining function, and
``lax.map``'s ``batch_size`` (a scan over vmapped chunks).

``reduce(operands, init_values, computation, dimensions)`` folds ``operands``
over ``dimensions`` with ``computation``, as XLA's ``reduce``: ``init_values``
must be an identity of ``computation`` and ``computation`` associative and
commutative.  Known monoids (``lax.add``/``mul``/``max``/``min`` with their
identity) use the dedicated reduction primitives; any other function is applied
as a balanced tree of elementwise combinations (log2(n) levels), so it is
differentiable and batchable like the operations it is made of.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.backend.pytree import registry
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.interpreters import batching
from sciax._src.lax import elementwise as ew
from sciax._src.lax import reductions, shape_ops

__all__ = ["reduce", "batched_map"]

_MONOIDS = {ew.add: (reductions.reduce_sum, 0), ew.mul: (reductions.reduce_prod, 1),
            ew.max: (reductions.reduce_max, -np.inf), ew.min: (reductions.reduce_min,
                                                              np.inf)}


def _is_identity(init: Any, identity: Any, dtype: np.dtype) -> bool:
    if isinstance(init, Tracer):
        return False
    try:
        value = np.asarray(init)
    except Exception:  # noqa: BLE001 - not concrete
        return False
    if value.shape != ():
        return False
    if np.isinf(identity) and dtype.kind in "iub":
        info = np.iinfo(dtype) if dtype.kind in "iu" else None
        identity = (info.min if identity < 0 else info.max) if info else (
            identity > 0)
    return bool(value == identity)


def reduce(operands: Any, init_values: Any,
           computation: Callable[[Any, Any], Any],
           dimensions: Sequence[int]) -> Any:
    """Reduce ``operands`` over ``dimensions`` with ``computation``.

    Parameters
    ----------
    operands : array or pytree of arrays
        Arrays of one shape, reduced together (``computation`` sees pytrees).
    init_values : scalar or pytree of scalars
        The identity of ``computation``, one per operand (the result of an
        empty reduction).
    computation : callable
        ``computation(a, b)`` combining two pytrees like ``init_values``
        elementwise; must be associative and commutative.
    dimensions : sequence of int
        The axes to reduce.

    Returns
    -------
    The reduced arrays, structured as ``operands``.

    Examples
    --------
    >>> x = snp.arange(6.0).reshape(2, 3)
    >>> lax.reduce(x, 0.0, lax.add, (1,))
    Array([ 3., 12.], dtype=float64)
    >>> # a max that also tracks its position: a reduction over a pair
    >>> def pick(a, b):
    ...     take = a[0] >= b[0]
    ...     return lax.select(take, a[0], b[0]), lax.select(take, a[1], b[1])
    >>> v = snp.array([3.0, 9.0, 4.0])
    >>> lax.reduce((v, snp.arange(3)), (-snp.inf, 0), pick, (0,))
    (Array(9., dtype=float64), Array(1, dtype=int64))
    """
    leaves, tree = registry.flatten(operands)
    inits, init_tree = registry.flatten(init_values)
    if init_tree != tree:
        raise TypeError(f"reduce: init_values must have the structure of operands, "
                        f"{tree}; got {init_tree}")
    if not leaves:
        raise ValueError("reduce: operands is empty")
    avals = [get_aval(x) for x in leaves]
    shape = avals[0].shape
    if any(a.shape != shape for a in avals):
        raise TypeError(f"reduce: operands must have one shape, got "
                        f"{[a.str_short() for a in avals]}")
    ndim = len(shape)
    try:
        dims = tuple(operator.index(d) for d in dimensions)
    except TypeError:
        raise TypeError(f"reduce: dimensions must be a sequence of ints, got "
                        f"{dimensions!r}") from None
    for d in dims:
        if not 0 <= d < ndim:
            raise ValueError(f"reduce: dimension {d} is out of range for operands "
                             f"of rank {ndim} (shape {shape})")
    if len(set(dims)) != len(dims):
        raise ValueError(f"reduce: duplicate dimensions {dims}")
    for i, (v, a) in enumerate(zip(inits, avals)):
        if get_aval(v).shape != ():
            raise TypeError(f"reduce: init value {i} must be a scalar, got "
                            f"{get_aval(v).str_short()}")
    if len(leaves) == 1 and computation in _MONOIDS:
        reducer, identity = _MONOIDS[computation]
        if _is_identity(inits[0], identity, avals[0].dtype):
            return tree.unflatten([reducer(leaves[0], dims)])
    inits = [ew.convert_element_type(v, a.dtype) if get_aval(v).dtype != a.dtype
             else v for v, a in zip(inits, avals)]

    kept = [d for d in range(ndim) if d not in dims]
    n = int(np.prod([shape[d] for d in dims], dtype=np.int64))
    out_shape = tuple(shape[d] for d in kept)
    # reduced axes last and merged into one of length n
    xs = [shape_ops.reshape(shape_ops.transpose(x, (*kept, *dims)), (*out_shape, n))
          for x in leaves]

    def combine(a: list[Any], b: list[Any]) -> list[Any]:
        out, out_tree = registry.flatten(computation(tree.unflatten(a),
                                                     tree.unflatten(b)))
        if out_tree != tree:
            raise TypeError(f"reduce: computation must return the structure of "
                            f"operands, {tree}; got {out_tree}")
        return [ew.convert_element_type(o, a_.dtype) for o, a_ in zip(out, avals)]

    axis = len(out_shape)
    if n == 0:
        return tree.unflatten([shape_ops.full(out_shape, v, a.dtype)
                               for v, a in zip(inits, avals)])
    # pad to a power of two with the identity, then halve: log2(n) levels
    size = 1 << (n - 1).bit_length()
    if size != n:
        pads = [(0, 0, 0)] * axis + [(0, size - n, 0)]
        xs = [shape_ops.pad(x, v, pads) for x, v in zip(xs, inits)]
    while size > 1:
        size //= 2
        xs = combine([shape_ops.slice_in_dim(x, 0, size, 1, axis) for x in xs],
                     [shape_ops.slice_in_dim(x, size, 2 * size, 1, axis) for x in xs])
    return tree.unflatten([shape_ops.reshape(x, out_shape) for x in xs])


def batched_map(f: Callable[[Any], Any], xs: Any, batch_size: int) -> Any:
    """``lax.map(f, xs, batch_size=...)``: ``vmap(f)`` over chunks of
    ``batch_size`` slices, the chunks in a ``scan``, then the remainder."""
    from sciax._src.lax.control_flow import scan  # cycle: control_flow.map calls us

    try:
        batch_size = operator.index(batch_size)
    except TypeError:
        raise TypeError(f"map: batch_size must be an int, got {batch_size!r}") from None
    if batch_size < 1:
        raise ValueError(f"map: batch_size must be >= 1, got {batch_size}")
    leaves, tree = registry.flatten(xs)
    if not leaves:
        raise ValueError("map: xs has no arrays to map over")
    n = get_aval(leaves[0]).shape[0] if get_aval(leaves[0]).shape else None
    if n is None or any(get_aval(x).shape[:1] != (n,) for x in leaves):
        raise ValueError(f"map: every array in xs needs the same leading axis; got "
                         f"shapes {[get_aval(x).shape for x in leaves]}")
    num_batches, rem = divmod(n, batch_size)
    def fv(x: Any) -> Any:  # f over the leading axis of every leaf of x
        x_leaves, x_tree = registry.flatten(x)
        box = []

        def flat(*a: Any) -> list[Any]:
            out, out_tree = registry.flatten(f(x_tree.unflatten(a)))
            box.append(out_tree)
            return out
        outs = batching.vmap_flat(flat, x_leaves, [0] * len(x_leaves),
                                  lambda k: [0] * k, get_aval(x_leaves[0]).shape[0])
        return box[0].unflatten(outs)
    parts = []
    if num_batches:
        chunked = [shape_ops.reshape(
            shape_ops.slice_in_dim(x, 0, num_batches * batch_size, 1, 0),
            (num_batches, batch_size, *get_aval(x).shape[1:])) for x in leaves]
        _, ys = scan(lambda c, xb: (c, fv(tree.unflatten(xb))), (), chunked)
        y_leaves, y_tree = registry.flatten(ys)
        parts.append(([shape_ops.reshape(y, (num_batches * batch_size,
                                             *get_aval(y).shape[2:]))
                       for y in y_leaves], y_tree))
    if rem:
        tail = fv(tree.unflatten([shape_ops.slice_in_dim(x, n - rem, n, 1, 0)
                                  for x in leaves]))
        parts.append(registry.flatten(tail))
    if len(parts) == 1:
        return parts[0][1].unflatten(parts[0][0])
    (a, a_tree), (b, _) = parts
    return a_tree.unflatten([shape_ops.concatenate([u, v], 0) for u, v in zip(a, b)])
