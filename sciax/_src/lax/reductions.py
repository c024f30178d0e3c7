"""Reductions over axes (sum, prod, max, min, and, or, xor), argmax/argmin and
cumulative reductions along one axis.

Reductions lower to ``stablehlo.reduce`` with a one-op body; argmax/argmin to
a variadic reduce over ``(value, index)`` pairs; cumulative reductions to
``stablehlo.reduce_window`` with a window spanning the whole axis, which XLA
CPU handles well for moderate sizes.

lax is strict about axes: they are non-negative, in range and distinct
(:mod:`sciax.numpy` normalises negative axes).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax import elementwise as ew
from sciax._src.lax import shape_ops
from sciax._src.lax._rules import (_any, _bool, _complex, _float, _int, _num,
                                   _compare, check_dtypes, standard_primitive)

ArrayLike = Any

__all__ = [
    "reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or",
    "reduce_xor", "argmax", "argmin", "cumsum", "cumprod", "cummax", "cummin",
    "cumlogsumexp",
    "reduce_sum_p", "reduce_prod_p", "reduce_max_p", "reduce_min_p", "reduce_and_p",
    "reduce_or_p", "reduce_xor_p", "argmax_p", "argmin_p", "cumsum_p", "cumprod_p",
    "cummax_p", "cummin_p", "cumlogsumexp_p",
]


# --- helpers shared by the families ---------------------------------------------------

def _as_axes(name: str, axes: Any) -> tuple[int, ...]:
    if isinstance(axes, int | np.integer):
        axes = (axes,)
    try:
        return tuple(operator.index(a) for a in axes)
    except TypeError:
        raise TypeError(f"{name}: axes must be a sequence of integers, got {axes!r}"
                        ) from None


def _as_axis(name: str, axis: Any) -> int:
    try:
        return operator.index(axis)
    except TypeError:
        raise TypeError(f"{name}: axis must be an integer, got {axis!r}") from None


def _check_axes(name: str, x: ShapedArray, axes: tuple[int, ...]) -> None:
    for a in axes:
        if not 0 <= a < x.ndim:
            raise ValueError(f"{name}: axis {a} in axes {axes} is out of range for an "
                             f"operand of shape {x.shape} (rank {x.ndim}); lax axes "
                             f"must be non-negative and less than the rank")
    if len(set(axes)) != len(axes):
        raise ValueError(f"{name}: axes {axes} contain a duplicate (operand shape "
                         f"{x.shape})")


def _scalar_type(dtype: np.dtype) -> ir.Type:
    return lowering.aval_to_ir_type(ShapedArray((), dtype))


def _scalar(value: Any, dtype: np.dtype) -> ir.Value:
    return lowering.ir_constant(np.asarray(value, dtype), ShapedArray((), dtype))


def _with_body(op: Any, region_index: int, dtypes_: Sequence[np.dtype],
               body: Callable[..., Sequence[ir.Value]]) -> None:
    """Fill ``op``'s region with a block ``(accs..., xs...) -> body(...)``."""
    types = [_scalar_type(d) for d in dtypes_]
    block = op.regions[region_index].blocks.append(*types, *types)
    with ir.InsertionPoint(block):
        hlo.return_(list(body(*block.arguments)))


def _isnan(x: ir.Value, dtype: np.dtype) -> ir.Value | None:
    """``x != x`` for floats, (real or imag is NaN) for complex; None for exact types."""
    if dtype in _float:
        return _compare(x, x, "NE", dtype)
    if dtype in _complex:
        re, im = hlo.real(x), hlo.imag(x)
        return hlo.or_(_compare(re, re, "NE", dtype, real=True),
                       _compare(im, im, "NE", dtype, real=True))
    return None


def _greater(x: ir.Value, y: ir.Value, dtype: np.dtype, direction: str) -> ir.Value:
    """``x > y`` (direction "GT") or ``x < y`` ("LT"); complex lexicographic."""
    if dtype in _complex:
        rx, ry = hlo.real(x), hlo.real(y)
        return hlo.or_(_compare(rx, ry, direction, dtype, real=True),
                       hlo.and_(_compare(rx, ry, "EQ", dtype, real=True),
                                _compare(hlo.imag(x), hlo.imag(y), direction, dtype,
                                         real=True)))
    return _compare(x, y, direction, dtype)


def _minmax_body(dtype: np.dtype, direction: str) -> Callable[[ir.Value, ir.Value],
                                                               list[ir.Value]]:
    """Scalar max (direction "GT") or min ("LT") that propagates NaN like NumPy."""
    def body(x: ir.Value, y: ir.Value) -> list[ir.Value]:
        if dtype in _complex:
            # NumPy orders complex numbers lexicographically; keep a NaN operand
            pick_x = hlo.or_(_greater(x, y, dtype, direction), _isnan(x, dtype))
            return [hlo.select(pick_x, x, y)]
        if dtype == dtypes.bool_:
            return [hlo.or_(x, y) if direction == "GT" else hlo.and_(x, y)]
        # stablehlo maximum/minimum propagate NaN, as np.max/np.min do
        return [hlo.maximum(x, y) if direction == "GT" else hlo.minimum(x, y)]
    return body


def _binary_body(builder: Callable[[ir.Value, ir.Value], ir.Value]):
    return lambda dtype: (lambda x, y: [builder(x, y)])


def _lowest(dtype: np.dtype) -> Any:
    if dtype == dtypes.bool_:
        return False
    if dtype in _int:
        return np.iinfo(dtype).min
    if dtype in _complex:
        return complex(-np.inf, -np.inf)
    return -np.inf


def _highest(dtype: np.dtype) -> Any:
    if dtype == dtypes.bool_:
        return True
    if dtype in _int:
        return np.iinfo(dtype).max
    if dtype in _complex:
        return complex(np.inf, np.inf)
    return np.inf


def _all_ones(dtype: np.dtype) -> Any:
    return True if dtype == dtypes.bool_ else np.array(-1).astype(dtype)


def _kept_dims(ndim: int, axes: Sequence[int]) -> tuple[int, ...]:
    return tuple(i for i in range(ndim) if i not in axes)


def _shift_axis(axis: int, bdim: int) -> int:
    """Where an axis of the unbatched operand lies once ``bdim`` is inserted."""
    return axis + (axis >= bdim)


def _reduce_batch(prim: Any) -> Callable[..., Any]:
    def rule(vals, dims, *, axes):
        (x,), (d,) = vals, dims
        new_axes = tuple(_shift_axis(a, d) for a in axes)
        return prim.bind(x, axes=new_axes), d - sum(a < d for a in new_axes)
    return rule


def _argminmax_batch(prim: Any) -> Callable[..., Any]:
    def rule(vals, dims, *, axis, index_dtype):
        (x,), (d,) = vals, dims
        new_axis = _shift_axis(axis, d)
        return (prim.bind(x, axis=new_axis, index_dtype=index_dtype),
                d - (new_axis < d))
    return rule


def _cumulative_batch(prim: Any) -> Callable[..., Any]:
    def rule(vals, dims, *, axis, reverse):
        (x,), (d,) = vals, dims
        return prim.bind(x, axis=_shift_axis(axis, d), reverse=reverse), d
    return rule


# --- reduce_sum, reduce_prod, reduce_max, reduce_min, reduce_and/or/xor ---------------


# One factory call per reduction gives its wrapper, primitive, lowering and
# batching rule; its derivative follows it.

def _reducer(name: str, accepted: frozenset, identity: Callable[[np.dtype], Any],
             body: Callable[[np.dtype], Callable[..., list[ir.Value]]]):
    """Wrapper, primitive and lowering of one single-operand reduction."""
    def shape_rule(x: ShapedArray, *, axes: tuple[int, ...]) -> tuple[int, ...]:
        _check_axes(name, x, axes)
        return tuple(d for i, d in enumerate(x.shape) if i not in axes)

    def dtype_rule(x: ShapedArray, *, axes: tuple[int, ...]) -> np.dtype:
        check_dtypes(name, [accepted], x)
        return x.dtype

    prim = standard_primitive(shape_rule, dtype_rule, name)

    def lower(ctx: lowering.LoweringRuleContext, x: ir.Value, *, axes: tuple[int, ...]
              ) -> ir.Value:
        dtype = ctx.avals_in[0].dtype
        op = hlo.ReduceOp([lowering.aval_to_ir_type(ctx.avals_out[0])], [x],
                          [_scalar(identity(dtype), dtype)], list(axes))
        _with_body(op, 0, [dtype], body(dtype))
        return op.result

    register_lowering(prim, lower)
    batching.primitive_batchers[prim] = _reduce_batch(prim)

    def wrapper(operand: ArrayLike, axes: Sequence[int]) -> Any:
        return prim.bind(operand, axes=_as_axes(name, axes))

    wrapper.__name__ = wrapper.__qualname__ = name
    return wrapper, prim


def _reduce_sum_transpose(ct: Any, x: ad.UndefinedPrimal, *, axes: tuple[int, ...]
                          ) -> list[Any]:
    # reduce_sum is linear; its transpose copies the cotangent back along the
    # reduced axes
    shape = x.aval.shape
    return [shape_ops.broadcast_in_dim(ct, shape, _kept_dims(len(shape), axes))]


reduce_sum, reduce_sum_p = _reducer("reduce_sum", _num, lambda d: 0,
                                    _binary_body(hlo.add))
reduce_sum.__doc__ = """Sum of ``operand`` over ``axes``.

Parameters
----------
operand : array_like
    A numeric array (bool is rejected: convert it first).
axes : sequence of int
    Distinct, non-negative axes of ``operand``; ``()`` returns ``operand``.

Returns
-------
Array
    ``operand`` with ``axes`` removed, of the same dtype.

Examples
--------
>>> import numpy as np
>>> lax.reduce_sum(np.arange(6.0).reshape(2, 3), (1,))
Array([ 3., 12.], dtype=float64)
"""
ad.deflinear(reduce_sum_p, _reduce_sum_transpose)


def _exclusive_cumprod(y: Any, reverse: bool) -> Any:
    """Products of the elements strictly before (after, if ``reverse``) each
    position along axis 0: shift by one, fill with 1, then cumprod."""
    aval = get_aval(y)
    first = (-1, 1, 0) if reverse else (1, -1, 0)
    one = ew.convert_element_type(1, aval.dtype)
    shifted = shape_ops.pad(y, one, [first] + [(0, 0, 0)] * (aval.ndim - 1))
    return cumprod(shifted, 0, reverse=reverse)


def _reduce_prod_jvp(primals, tangents, *, axes):
    # d prod(x) = sum_i t_i * prod_{j != i} x_j.  The product of all the other
    # elements is (product before i) * (product after i), two exclusive
    # cumulative products, so no division by x_i is needed and the rule is
    # exact with any number of zeros in the operand.
    (x,), (t,) = primals, tangents
    ans = reduce_prod_p.bind(x, axes=axes)
    if not axes:
        return ans, t
    shape = get_aval(x).shape
    rest = _kept_dims(len(shape), axes)
    # reduced axes first, flattened into one
    perm = (*axes, *rest)
    flat_shape = (int(np.prod([shape[a] for a in axes])), *(shape[i] for i in rest))

    def flatten(v: Any) -> Any:
        return shape_ops.reshape(shape_ops.transpose(v, perm), flat_shape)

    y, ty = flatten(x), flatten(t)
    others = ew.mul(_exclusive_cumprod(y, False), _exclusive_cumprod(y, True))
    return ans, reduce_sum(ew.mul(ty, others), (0,))


reduce_prod, reduce_prod_p = _reducer("reduce_prod", _num, lambda d: 1,
                                      _binary_body(hlo.multiply))
reduce_prod.__doc__ = """Product of ``operand`` over ``axes`` (see :func:`reduce_sum`).

Notes
-----
Derivatives are exact, to any order, also where the operand has zeros: the
derivative with respect to one element is the product of the others, formed
from products before and after it rather than by dividing by the element.

Examples
--------
>>> import numpy as np
>>> lax.reduce_prod(np.arange(1.0, 7.0).reshape(2, 3), (0, 1))
Array(720., dtype=float64)
"""
ad.primitive_jvps[reduce_prod_p] = _reduce_prod_jvp


def _chooser_jvp(prim: Any) -> Callable[..., Any]:
    """JVP of max/min: the tangent at the extremum, averaged over ties (so a
    tie shares the derivative equally, as ``max(x, y)`` does elementwise)."""
    def jvp(primals, tangents, *, axes):
        (x,), (t,) = primals, tangents
        ans = prim.bind(x, axes=axes)
        shape = get_aval(x).shape
        at_ans = ew.eq(x, shape_ops.broadcast_in_dim(ans, shape,
                                                      _kept_dims(len(shape), axes)))
        weights = ew.convert_element_type(at_ans, get_aval(t).dtype)
        counts = reduce_sum(weights, axes)
        return ans, ew.div(reduce_sum(ew.mul(t, weights), axes), counts)
    return jvp


reduce_max, reduce_max_p = _reducer("reduce_max", _any, _lowest,
                                    lambda d: _minmax_body(d, "GT"))
reduce_max.__doc__ = """Maximum of ``operand`` over ``axes``; NaN propagates, complex
numbers compare lexicographically, an empty reduction gives the dtype's lowest value.

Examples
--------
>>> import numpy as np
>>> lax.reduce_max(np.array([[1, 5], [7, 2]], np.int32), (1,))
Array([5, 7], dtype=int32)
"""
ad.primitive_jvps[reduce_max_p] = _chooser_jvp(reduce_max_p)
reduce_min, reduce_min_p = _reducer("reduce_min", _any, _highest,
                                    lambda d: _minmax_body(d, "LT"))
reduce_min.__doc__ = """Minimum of ``operand`` over ``axes`` (see :func:`reduce_max`).

Examples
--------
>>> import numpy as np
>>> lax.reduce_min(np.array([3.0, -1.0, 2.0]), (0,))
Array(-1., dtype=float64)
"""
ad.primitive_jvps[reduce_min_p] = _chooser_jvp(reduce_min_p)
reduce_and, reduce_and_p = _reducer("reduce_and", _int | _bool, _all_ones,
                                    _binary_body(hlo.and_))
reduce_and.__doc__ = """Logical (bool) or bitwise (integer) AND over ``axes``.

Examples
--------
>>> import numpy as np
>>> lax.reduce_and(np.array([[True, False], [True, True]]), (1,))
Array([False,  True], dtype=bool)
"""
ad.defjvp_zero(reduce_and_p)  # bitwise: zero derivative
reduce_or, reduce_or_p = _reducer("reduce_or", _int | _bool, lambda d: 0,
                                  _binary_body(hlo.or_))
reduce_or.__doc__ = """Logical (bool) or bitwise (integer) OR over ``axes``.

Examples
--------
>>> import numpy as np
>>> lax.reduce_or(np.array([[True, False], [False, False]]), (1,))
Array([ True, False], dtype=bool)
"""
ad.defjvp_zero(reduce_or_p)
reduce_xor, reduce_xor_p = _reducer("reduce_xor", _int | _bool, lambda d: 0,
                                    _binary_body(hlo.xor))
reduce_xor.__doc__ = """Logical (bool) or bitwise (integer) XOR over ``axes``.

Examples
--------
>>> import numpy as np
>>> lax.reduce_xor(np.array([True, True, True]), (0,))
Array(True, dtype=bool)
"""
ad.defjvp_zero(reduce_xor_p)


# --- argmax, argmin -------------------------------------------------------------------

def _argminmax(name: str, direction: str):
    def shape_rule(x: ShapedArray, *, axis: int, index_dtype: np.dtype
                   ) -> tuple[int, ...]:
        _check_axes(name, x, (axis,))
        if x.shape[axis] == 0:
            raise ValueError(f"{name}: cannot take the {name} of an empty axis: axis "
                             f"{axis} of the operand shape {x.shape} has size 0")
        return x.shape[:axis] + x.shape[axis + 1:]

    def dtype_rule(x: ShapedArray, *, axis: int, index_dtype: np.dtype) -> np.dtype:
        check_dtypes(name, [_any], x)
        if index_dtype not in _int:
            raise TypeError(f"{name}: index_dtype must be an integer dtype, got "
                            f"{index_dtype}")
        return index_dtype

    prim = standard_primitive(shape_rule, dtype_rule, name, lambda x, **p: False)

    def lower(ctx: lowering.LoweringRuleContext, x: ir.Value, *, axis: int,
              index_dtype: np.dtype) -> ir.Value:
        aval = ctx.avals_in[0]
        dtype = aval.dtype
        idx_type = lowering.aval_to_ir_type(aval.update(dtype=index_dtype))
        iota = hlo.iota(idx_type, axis)
        out_types = [lowering.aval_to_ir_type(ctx.avals_out[0].update(dtype=dtype)),
                     lowering.aval_to_ir_type(ctx.avals_out[0])]
        init = _lowest(dtype) if direction == "GT" else _highest(dtype)
        op = hlo.ReduceOp(out_types, [x, iota],
                          [_scalar(init, dtype), _scalar(0, index_dtype)], [axis])

        def body(xv: ir.Value, xi: ir.Value, yv: ir.Value, yi: ir.Value
                 ) -> list[ir.Value]:
            # The body must be symmetric: XLA may combine partial results in any
            # order.  Order: NaN beats everything (NumPy returns the first NaN),
            # then the better value, then on ties (or two NaNs) the lower index.
            lower_index = _compare(xi, yi, "LT", index_dtype)
            better = _greater(xv, yv, dtype, direction)
            if dtype in _complex:
                equal = hlo.and_(_compare(hlo.real(xv), hlo.real(yv), "EQ", dtype,
                                          real=True),
                                 _compare(hlo.imag(xv), hlo.imag(yv), "EQ", dtype,
                                          real=True))
            else:
                equal = _compare(xv, yv, "EQ", dtype)
            pick_x = hlo.or_(better, hlo.and_(equal, lower_index))
            x_nan, y_nan = _isnan(xv, dtype), _isnan(yv, dtype)
            if x_nan is not None:
                # if y is NaN: keep x only when it is an earlier NaN
                pick_x = hlo.select(y_nan, hlo.and_(x_nan, lower_index),
                                    hlo.or_(x_nan, pick_x))
            return [hlo.select(pick_x, xv, yv), hlo.select(pick_x, xi, yi)]

        _with_body(op, 0, [dtype, index_dtype], body)
        return op.results[1]

    register_lowering(prim, lower)
    batching.primitive_batchers[prim] = _argminmax_batch(prim)
    ad.defjvp_zero(prim)  # integer-valued

    def wrapper(operand: ArrayLike, axis: int, index_dtype: Any) -> Any:
        return prim.bind(operand, axis=_as_axis(name, axis),
                         index_dtype=dtypes.canonicalize_dtype(index_dtype))

    wrapper.__name__ = wrapper.__qualname__ = name
    return wrapper, prim


argmax, argmax_p = _argminmax("argmax", "GT")
argmax.__doc__ = """Index of the largest element along ``axis``.

Ties pick the lowest index; a NaN counts as the largest value, so the first
NaN wins, as in :func:`numpy.argmax`.  Complex numbers compare
lexicographically.

Parameters
----------
operand : array_like
    Array with a non-empty ``axis``.
axis : int
    A non-negative axis of ``operand``.
index_dtype : dtype
    Integer dtype of the result.

Examples
--------
>>> import numpy as np
>>> lax.argmax(np.array([1.0, 3.0, 3.0, 0.0]), 0, np.int32)
Array(1, dtype=int32)
"""
argmin, argmin_p = _argminmax("argmin", "LT")
argmin.__doc__ = """Index of the smallest element along ``axis`` (see :func:`argmax`;
the first NaN wins here too).

Examples
--------
>>> import numpy as np
>>> lax.argmin(np.array([[4, 1, 1], [0, 2, 0]], np.int32), 1, np.int32)
Array([1, 0], dtype=int32)
"""


# --- cumsum, cumprod, cummax, cummin, cumlogsumexp ------------------------------------

def _logaddexp_body(dtype: np.dtype):
    def body(x: ir.Value, y: ir.Value) -> list[ir.Value]:
        # log(e^x + e^y) = max + log1p(exp(-|x - y|)); when x - y is NaN (both
        # -inf, both +inf, or a NaN operand) the max alone is the answer.
        m = hlo.maximum(x, y)
        d = hlo.subtract(x, y)
        safe = hlo.add(m, hlo.log_plus_one(hlo.exponential(hlo.negate(hlo.abs(d)))))
        return [hlo.select(_compare(d, d, "NE", dtype), m, safe)]
    return body


def _cumulative(name: str, accepted: frozenset, identity: Callable[[np.dtype], Any],
                body: Callable[[np.dtype], Callable[..., list[ir.Value]]]):
    def shape_rule(x: ShapedArray, *, axis: int, reverse: bool) -> tuple[int, ...]:
        _check_axes(name, x, (axis,))
        return x.shape

    def dtype_rule(x: ShapedArray, *, axis: int, reverse: bool) -> np.dtype:
        check_dtypes(name, [accepted], x)
        return x.dtype

    prim = standard_primitive(shape_rule, dtype_rule, name)

    def lower(ctx: lowering.LoweringRuleContext, x: ir.Value, *, axis: int,
              reverse: bool) -> ir.Value:
        aval = ctx.avals_in[0]
        n = aval.shape[axis]
        if aval.size == 0 or n == 1:
            return x
        # Output i reduces the window [i - (n-1), i] of the input padded with n-1
        # identities in front (behind, when reversed), i.e. inputs 0..i.
        window = [1] * aval.ndim
        window[axis] = n
        pads = np.zeros((aval.ndim, 2), np.int64)
        pads[axis, 1 if reverse else 0] = n - 1
        op = hlo.ReduceWindowOp(
            [lowering.aval_to_ir_type(aval)], [x], [_scalar(identity(aval.dtype),
                                                            aval.dtype)],
            window, window_strides=[1] * aval.ndim,
            padding=ir.DenseIntElementsAttr.get(pads))
        _with_body(op, 0, [aval.dtype], body(aval.dtype))
        return op.result

    register_lowering(prim, lower)
    batching.primitive_batchers[prim] = _cumulative_batch(prim)

    def wrapper(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Any:
        return prim.bind(operand, axis=_as_axis(name, axis), reverse=bool(reverse))

    wrapper.__name__ = wrapper.__qualname__ = name
    return wrapper, prim


def _logaddexp(a: Any, b: Any) -> Any:
    """``log(exp(a) + exp(b))`` for the cumlogsumexp JVP.  Where ``a - b`` is
    NaN (both infinite with the same sign) the difference is taken as 0, so the
    tangent stays finite; the primal there is the maximum, as it should be."""
    m = ew.max(a, b)
    d = ew.sub(a, b)
    d = ew.select(ew.ne(d, d), shape_ops.full_like(d, 0), d)
    return ew.add(m, ew.log1p(ew.exp(ew.neg(ew.abs(d)))))


def _cumulative_jvp(prim: Any, combine: Callable[[Any, Any], Any]
                    ) -> Callable[..., Any]:
    """JVP of a cumulative reduction as the JVP of the equivalent associative
    scan of ``combine``: O(n) work, O(log n) depth, correct with zeros (cumprod)
    and ties (cummax/cummin share the tangent as elementwise max/min do)."""
    def jvp(primals, tangents, *, axis, reverse):
        # function-local: control_flow sits above reductions in the lax order
        from sciax._src.lax.control_flow import associative_scan

        (x,), (t,) = primals, tangents
        out = prim.bind(x, axis=axis, reverse=reverse)

        def scan(v: Any) -> list[Any]:
            return [associative_scan(combine, v, reverse=reverse, axis=axis)]

        _, (t_out,) = ad.jvp_flat(scan, [x], [t])
        return out, t_out
    return jvp


cumsum, cumsum_p = _cumulative("cumsum", _num, lambda d: 0, _binary_body(hlo.add))
cumsum.__doc__ = """Cumulative sum of ``operand`` along ``axis``.

Parameters
----------
operand : array_like
    A numeric array.
axis : int, default 0
    A non-negative axis of ``operand``.
reverse : bool, default False
    Accumulate from the end of the axis towards its start.

Examples
--------
>>> import numpy as np
>>> lax.cumsum(np.array([1.0, 2.0, 3.0]))
Array([1., 3., 6.], dtype=float64)
>>> lax.cumsum(np.array([1.0, 2.0, 3.0]), reverse=True)
Array([6., 5., 3.], dtype=float64)
"""
ad.deflinear(cumsum_p, lambda ct, x, *, axis, reverse: [cumsum(ct, axis, not reverse)])
cumprod, cumprod_p = _cumulative("cumprod", _num, lambda d: 1,
                                 _binary_body(hlo.multiply))
cumprod.__doc__ = """Cumulative product along ``axis`` (see :func:`cumsum`).

Examples
--------
>>> import numpy as np
>>> lax.cumprod(np.array([1, 2, 3, 4], np.int32))
Array([ 1,  2,  6, 24], dtype=int32)
"""
ad.primitive_jvps[cumprod_p] = _cumulative_jvp(cumprod_p, ew.mul)
cummax, cummax_p = _cumulative("cummax", _any, _lowest, lambda d: _minmax_body(d, "GT"))
cummax.__doc__ = """Running maximum along ``axis`` (``np.maximum.accumulate``).

Examples
--------
>>> import numpy as np
>>> lax.cummax(np.array([1.0, 3.0, 2.0, 5.0]))
Array([1., 3., 3., 5.], dtype=float64)
"""
ad.primitive_jvps[cummax_p] = _cumulative_jvp(cummax_p, ew.max)
cummin, cummin_p = _cumulative("cummin", _any, _highest,
                               lambda d: _minmax_body(d, "LT"))
cummin.__doc__ = """Running minimum along ``axis`` (``np.minimum.accumulate``).

Examples
--------
>>> import numpy as np
>>> lax.cummin(np.array([4.0, 3.0, 5.0, 1.0]))
Array([4., 3., 3., 1.], dtype=float64)
"""
ad.primitive_jvps[cummin_p] = _cumulative_jvp(cummin_p, ew.min)
cumlogsumexp, cumlogsumexp_p = _cumulative("cumlogsumexp", _float, lambda d: -np.inf,
                                           _logaddexp_body)
cumlogsumexp.__doc__ = """Running ``log(sum(exp(x)))`` along ``axis``, computed
without overflow (``np.logaddexp.accumulate``); floating dtypes only.

Examples
--------
>>> import numpy as np
>>> lax.cumlogsumexp(np.log(np.array([1.0, 2.0, 3.0])))
Array([0.        , 1.09861229, 1.79175947], dtype=float64)
"""
ad.primitive_jvps[cumlogsumexp_p] = _cumulative_jvp(cumlogsumexp_p, _logaddexp)
