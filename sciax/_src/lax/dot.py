"""``dot_general``: contractions with batch dimensions, and ``dot``.

The output layout is XLA's: batch dimensions (in the order given), then the
free dimensions of ``lhs``, then the free dimensions of ``rhs``.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax._rules import _bool, _float, _int, _num, standard_primitive
from sciax._src.lax.elementwise import convert_element_type, real
from sciax._src.lax.shape_ops import transpose

ArrayLike = Any
DimensionNumbers = tuple[tuple[tuple[int, ...], tuple[int, ...]],
                         tuple[tuple[int, ...], tuple[int, ...]]]

__all__ = ["dot_general", "dot", "dot_general_p"]

_PRECISIONS = ("DEFAULT", "HIGH", "HIGHEST")


def _canonical_precision(precision: Any) -> tuple[str, str] | None:
    """None, or one name per operand from "default", "high", "highest"."""
    if precision is None:
        return None
    pair = (precision, precision) if isinstance(precision, str) else tuple(precision)
    if len(pair) != 2 or not all(isinstance(p, str) and p.upper() in _PRECISIONS
                                 for p in pair):
        raise ValueError(f"dot_general: precision must be None, one of "
                         f"{[p.lower() for p in _PRECISIONS]}, or a pair of them; got "
                         f"{precision!r}")
    return (pair[0].upper(), pair[1].upper())


def _canonical_dimension_numbers(dimension_numbers: Any) -> DimensionNumbers:
    try:
        (lc, rc), (lb, rb) = dimension_numbers
        return ((tuple(map(operator.index, lc)), tuple(map(operator.index, rc))),
                (tuple(map(operator.index, lb)), tuple(map(operator.index, rb))))
    except (TypeError, ValueError):
        raise TypeError(
            "dot_general: dimension_numbers must be ((lhs_contracting, "
            "rhs_contracting), (lhs_batch, rhs_batch)), each a sequence of ints; got "
            f"{dimension_numbers!r}") from None


# --- dot_general ----------------------------------------------------------------------

def dot_general(lhs: ArrayLike, rhs: ArrayLike, dimension_numbers: Any,
                precision: Any = None, preferred_element_type: Any = None) -> Any:
    """General tensor contraction, as XLA's DotGeneral.

    Parameters
    ----------
    lhs, rhs : array_like
        Numeric arrays of the same dtype (unless ``preferred_element_type`` is
        given).
    dimension_numbers : tuple
        ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``: paired
        axes summed over, and paired axes kept as batch dimensions.  Paired axes
        must have equal sizes; all axes are non-negative.
    precision : str or pair of str, optional
        ``"default"``, ``"high"`` or ``"highest"`` (per operand): a hint for
        accelerators, ignored on CPU.
    preferred_element_type : dtype, optional
        The result dtype; operands of other dtypes are converted to it first, so
        it also allows mixed operand dtypes.  It must not lose the kind of an
        operand (e.g. float operands and an integer result).

    Returns
    -------
    Array
        Shape ``batch + lhs_free + rhs_free``.

    Examples
    --------
    A batched matrix product, ``einsum("bij,bjk->bik")``:

    >>> import numpy as np
    >>> a = np.ones((2, 3, 4)); b = np.ones((2, 4, 5))
    >>> lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))).shape
    (2, 3, 5)
    """
    pref = (None if preferred_element_type is None
            else dtypes.canonicalize_dtype(preferred_element_type))
    return dot_general_p.bind(
        lhs, rhs, dimension_numbers=_canonical_dimension_numbers(dimension_numbers),
        precision=_canonical_precision(precision), preferred_element_type=pref)


def _check_dims(what: str, dims: tuple[int, ...], aval: ShapedArray) -> None:
    for d in dims:
        if not 0 <= d < aval.ndim:
            raise ValueError(f"dot_general: {what} dimension {d} (in {dims}) is out of "
                             f"range for an operand of shape {aval.shape}")


def _dot_general_shape_rule(lhs: ShapedArray, rhs: ShapedArray, *,
                            dimension_numbers: DimensionNumbers, precision: Any,
                            preferred_element_type: Any) -> tuple[int, ...]:
    (lc, rc), (lb, rb) = dimension_numbers
    for side, aval, contract, batch in (("lhs", lhs, lc, lb), ("rhs", rhs, rc, rb)):
        _check_dims(f"{side} contracting", contract, aval)
        _check_dims(f"{side} batch", batch, aval)
        if len(set(contract + batch)) != len(contract) + len(batch):
            raise ValueError(f"dot_general: {side} contracting dimensions {contract} "
                             f"and batch dimensions {batch} must be distinct axes "
                             f"(operand shape {aval.shape})")
    for kind, ld, rd in (("contracting", lc, rc), ("batch", lb, rb)):
        if len(ld) != len(rd):
            raise ValueError(f"dot_general: lhs and rhs need the same number of {kind} "
                             f"dimensions, got {ld} and {rd}")
        lsz = tuple(lhs.shape[d] for d in ld)
        rsz = tuple(rhs.shape[d] for d in rd)
        if lsz != rsz:
            raise ValueError(
                f"dot_general: {kind} dimensions must have equal sizes, but lhs "
                f"{kind} dimensions {ld} of shape {lhs.shape} have sizes {lsz} and rhs "
                f"{kind} dimensions {rd} of shape {rhs.shape} have sizes {rsz}")
    lfree = [d for i, d in enumerate(lhs.shape) if i not in lc and i not in lb]
    rfree = [d for i, d in enumerate(rhs.shape) if i not in rc and i not in rb]
    return (*(lhs.shape[d] for d in lb), *lfree, *rfree)


def _kind_rank(dt: np.dtype) -> int:
    return 0 if dt in _bool else 1 if dt in _int else 2 if dt in _float else 3


def _dot_general_dtype_rule(lhs: ShapedArray, rhs: ShapedArray, *,
                            dimension_numbers: DimensionNumbers, precision: Any,
                            preferred_element_type: Any) -> np.dtype:
    for side, aval in (("lhs", lhs), ("rhs", rhs)):
        if aval.dtype not in _num:
            raise TypeError(f"dot_general does not accept dtype {aval.dtype} for {side}"
                            f"; expected a numeric dtype")
    if preferred_element_type is None:
        if lhs.dtype != rhs.dtype:
            raise TypeError(
                f"dot_general requires lhs and rhs to have the same dtype, got "
                f"{lhs.dtype} and {rhs.dtype} (convert one, or pass "
                "preferred_element_type)")
        return lhs.dtype
    pref = np.dtype(preferred_element_type)
    if pref not in _num:
        raise TypeError(f"dot_general: preferred_element_type must be numeric, got "
                        f"{pref}")
    for side, aval in (("lhs", lhs), ("rhs", rhs)):
        if _kind_rank(aval.dtype) > _kind_rank(pref):
            raise TypeError(f"dot_general: preferred_element_type {pref} cannot hold "
                            f"the {side} dtype {aval.dtype}")
    return pref


def _dot_general_weak_type(lhs: ShapedArray, rhs: ShapedArray, *,
                           preferred_element_type: Any, **params: Any) -> bool:
    return preferred_element_type is None and lhs.weak_type and rhs.weak_type


def _dot_general_lowering(ctx: lowering.LoweringRuleContext, lhs: ir.Value,
                          rhs: ir.Value, *, dimension_numbers: DimensionNumbers,
                          precision: Any, preferred_element_type: Any) -> ir.Value:
    (lc, rc), (lb, rb) = dimension_numbers
    out_aval = ctx.avals_out[0]
    operands = []
    for x, aval in zip((lhs, rhs), ctx.avals_in):
        if aval.dtype != out_aval.dtype:
            # exact conversion to the result dtype, so the product and the
            # accumulation both happen in it
            x = hlo.convert(lowering.aval_to_ir_type(aval.update(dtype=out_aval.dtype)),
                            x)
        operands.append(x)
    if not lc and out_aval.dtype != np.dtype(bool):
        return _outer_product(operands, ctx.avals_in, out_aval, lb, rb)
    dnums = hlo.DotDimensionNumbers.get(
        lhs_batching_dimensions=list(lb), rhs_batching_dimensions=list(rb),
        lhs_contracting_dimensions=list(lc), rhs_contracting_dimensions=list(rc))
    config = (None if precision is None else
              ir.ArrayAttr.get([hlo.PrecisionAttr.get(p) for p in precision]))
    return hlo.dot_general(lowering.aval_to_ir_type(out_aval), *operands, dnums,
                           precision_config=config)


def _outer_product(operands, avals, out_aval, lb, rb):
    """A dot_general without contracting dimensions is an elementwise product of
    broadcasts; XLA's CPU backend runs that as one fused loop, where a batched
    dot with nothing to contract becomes a sequence of tiny matrix products
    (seen in per-example gradients, whose transposed dots have this form)."""
    nb = len(lb)
    lhs_aval, rhs_aval = avals
    l_free = [d for d in range(lhs_aval.ndim) if d not in lb]
    r_free = [d for d in range(rhs_aval.ndim) if d not in rb]
    out_type = lowering.aval_to_ir_type(out_aval)
    pieces = []
    for x, aval, batch, free, offset in ((operands[0], lhs_aval, lb, l_free, nb),
                                         (operands[1], rhs_aval, rb, r_free,
                                          nb + len(l_free))):
        perm = [*batch, *free]
        if perm != list(range(aval.ndim)):
            x = hlo.transpose(x, ir.DenseI64ArrayAttr.get(perm))
        dims = [*range(nb), *range(offset, offset + len(free))]
        pieces.append(hlo.broadcast_in_dim(out_type, x, ir.DenseI64ArrayAttr.get(dims)))
    return hlo.multiply(*pieces)


def _free_dims(ndim: int, contracting: tuple[int, ...], batch: tuple[int, ...]
               ) -> list[int]:
    return [i for i in range(ndim) if i not in contracting and i not in batch]


def _transpose_operand(ct: Any, x: ad.UndefinedPrimal, other: Any, x_contract,
                       other_contract, x_batch, other_batch, ct_free_start: int,
                       precision: Any) -> Any:
    """Cotangent of ``x`` in ``out = dot_general(x, other)`` (or with the
    operands swapped, ``ct_free_start`` then pointing at ``other``'s free dims
    in ``ct``): contract ``ct`` with ``other`` over ``other``'s free dims and
    batch over the batch dims, then put the axes back in ``x``'s order."""
    x_aval, other_aval = x.aval, get_aval(other)
    n_batch = len(x_batch)
    other_free = _free_dims(other_aval.ndim, other_contract, other_batch)
    ct_other_free = tuple(range(ct_free_start, ct_free_start + len(other_free)))
    ct_dtype = get_aval(ct).dtype
    pref = None if ct_dtype == other_aval.dtype else ct_dtype
    res = dot_general(ct, other, ((ct_other_free, tuple(other_free)),
                                  (tuple(range(n_batch)), tuple(other_batch))),
                      precision=precision, preferred_element_type=pref)
    # res axes: batch, x's free dims (ascending), then other's contracting dims in
    # ascending order of other's axes, each standing for its paired x axis
    pairs = sorted(zip(other_contract, x_contract))
    res_axes = [*x_batch, *_free_dims(x_aval.ndim, x_contract, x_batch),
                *(xc for _, xc in pairs)]
    res = transpose(res, tuple(int(i) for i in np.argsort(res_axes)))
    if get_aval(res).dtype != x_aval.dtype:
        if (dtypes.is_complex(get_aval(res).dtype)
                and not dtypes.is_complex(x_aval.dtype)):
            res = real(res)  # a real operand's cotangent is the real part
        res = convert_element_type(res, x_aval.dtype)
    return res


def _dot_general_transpose_lhs(ct, x, y, *, dimension_numbers, precision,
                               preferred_element_type):
    (xc, yc), (xb, yb) = dimension_numbers
    n_xfree = len(_free_dims(x.aval.ndim, xc, xb))
    return _transpose_operand(ct, x, y, xc, yc, xb, yb, len(xb) + n_xfree, precision)


def _dot_general_transpose_rhs(ct, x, y, *, dimension_numbers, precision,
                               preferred_element_type):
    (xc, yc), (xb, yb) = dimension_numbers
    swapped = None if precision is None else (precision[1], precision[0])
    return _transpose_operand(ct, y, x, yc, xc, yb, xb, len(xb), swapped)


def _dot_general_batch(vals, dims, *, dimension_numbers, precision,
                       preferred_element_type):
    (lhs, rhs), (ld, rd) = vals, dims
    (lc, rc), (lb, rb) = dimension_numbers
    params = dict(precision=precision, preferred_element_type=preferred_element_type)

    def shift(axes: tuple[int, ...], d: int) -> tuple[int, ...]:
        return tuple(a + (a >= d) for a in axes)

    if ld is not batching.not_mapped and rd is not batching.not_mapped:
        # both batched: the batch axis becomes a new leading batch dimension
        lhs, rhs = batching.moveaxis(lhs, ld, 0), batching.moveaxis(rhs, rd, 0)
        dn = ((shift(lc, 0), shift(rc, 0)), ((0, *shift(lb, 0)), (0, *shift(rb, 0))))
        return dot_general_p.bind(lhs, rhs, dimension_numbers=dn, **params), 0
    if ld is not batching.not_mapped:
        # only lhs batched: its batch axis is one more free dimension of lhs
        lc2, lb2 = shift(lc, ld), shift(lb, ld)
        free = _free_dims(get_aval(lhs).ndim, lc2, lb2)
        out = dot_general_p.bind(lhs, rhs, dimension_numbers=((lc2, rc), (lb2, rb)),
                                 **params)
        return out, len(lb) + free.index(ld)
    rc2, rb2 = shift(rc, rd), shift(rb, rd)
    free = _free_dims(get_aval(rhs).ndim, rc2, rb2)
    n_lfree = get_aval(lhs).ndim - len(lc) - len(lb)
    out = dot_general_p.bind(lhs, rhs, dimension_numbers=((lc, rc2), (lb, rb2)),
                             **params)
    return out, len(lb) + n_lfree + free.index(rd)


dot_general_p = standard_primitive(_dot_general_shape_rule, _dot_general_dtype_rule,
                                   "dot_general", _dot_general_weak_type)
register_lowering(dot_general_p, _dot_general_lowering)
ad.defbilinear(dot_general_p, _dot_general_transpose_lhs, _dot_general_transpose_rhs)
batching.primitive_batchers[dot_general_p] = _dot_general_batch


# --- dot ------------------------------------------------------------------------------

def dot(lhs: ArrayLike, rhs: ArrayLike, precision: Any = None,
        preferred_element_type: Any = None) -> Any:
    """Vector/matrix product: contracts the last axis of ``lhs`` with the first
    axis of ``rhs``; each operand has rank 1 or 2.

    Examples
    --------
    >>> import numpy as np
    >>> lax.dot(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 1.0]))
    Array([3., 7.], dtype=float64)
    """
    lshape, rshape = get_aval(lhs).shape, get_aval(rhs).shape
    if len(lshape) not in (1, 2) or len(rshape) not in (1, 2):
        raise ValueError(f"dot expects operands of rank 1 or 2, got shapes {lshape} and "
                        f"{rshape}; use dot_general for other ranks")
    if lshape[-1] != rshape[0]:
        raise ValueError(f"dot: incompatible shapes {lshape} and {rshape}: the last "
                        f"axis of lhs ({lshape[-1]}) must match the first axis of rhs "
                        f"({rshape[0]})")
    return dot_general(lhs, rhs, (((len(lshape) - 1,), (0,)), ((), ())),
                       precision=precision, preferred_element_type=preferred_element_type)
