"""Set operations on 1-d arrays: isin, union1d, intersect1d, setdiff1d,
setxor1d.

Results are sorted and unique, as in NumPy.  Their length depends on the
values, so under ``sciax.jit`` a static ``size=`` is required (the result is
cut, or padded with ``fill_value``, default the smallest result value); eagerly
the length is read from the data when it is omitted.  ``isin`` has no such
restriction.
"""

from __future__ import annotations

from typing import Any

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.numpy import util
from sciax._src.numpy.gather_util import take_axis
from sciax._src.numpy.sorting import _compact, _static_size, searchsorted, unique
from sciax._src.numpy.ufuncs import isnan

ArrayLike = Any

__all__ = ["isin", "union1d", "intersect1d", "setdiff1d", "setxor1d"]


def _flat(name: str, a: Any) -> Any:
    util.check_arraylike(name, a)
    a = util.as_operand(name, a)
    if dtypes.is_python_scalar(a):
        a = util.cast(a, dtypes.python_scalar_dtype(a))
    return lax.reshape(a, (get_aval(a).size,))


def _flat_pair(name: str, a: Any, b: Any) -> tuple[Any, Any]:
    a, b = util.promote_dtypes(_flat(name, a), _flat(name, b))
    return a, b


def _sorted_firsts(a: Any) -> tuple[Any, Any, Any]:
    """``(sorted a, original index of each, mask of each value's first
    occurrence)`` for a 1-d ``a``; NaNs count as one value (as np.unique)."""
    n = get_aval(a).shape[0]
    it = dtypes.default_int()
    s, perm = lax.sort((a, lax.iota(it, n)), dimension=0, num_keys=1)
    if n == 0:
        return s, perm, lax.full((0,), True, dtypes.bool_)
    prev, cur = lax.slice(s, (0,), (n - 1,)), lax.slice(s, (1,), (n,))
    new = lax.ne(cur, prev)
    if dtypes.is_inexact(get_aval(s).dtype):
        new = lax.bitwise_and(new, lax.bitwise_not(lax.bitwise_and(isnan(cur),
                                                                   isnan(prev))))
    first = lax.concatenate([lax.full((1,), True, dtypes.bool_), new], 0)
    return s, perm, first


def _contains(values: Any, test: Any) -> Any:
    """Elementwise: is each entry of ``values`` (any shape) in the 1-d
    ``test``?  (Both of one dtype.)"""
    m = get_aval(test).shape[0]
    shape = get_aval(values).shape
    if m == 0:
        return lax.full(shape, False, dtypes.bool_)
    if dtypes.is_complex(get_aval(test).dtype) or get_aval(test).dtype == dtypes.bool_:
        # no order to binary-search in: compare against every test value
        nd = len(shape)
        v = lax.broadcast_in_dim(values, (*shape, m), tuple(range(nd)))
        t = lax.broadcast_in_dim(test, (*shape, m), (nd,))
        return lax.reduce_or(lax.eq(v, t), (nd,))
    t = lax.sort(test, dimension=0)
    pos = searchsorted(t, values, side="left")
    inside = lax.lt(pos, lax.full_like(pos, m))
    pos = lax.min(pos, lax.full_like(pos, m - 1))
    found = take_axis(t, lax.reshape(pos, (get_aval(pos).size,)), 0)
    found = lax.reshape(found, shape)
    return lax.bitwise_and(inside, lax.eq(found, values))


def isin(element: ArrayLike, test_elements: ArrayLike, assume_unique: bool = False,
         invert: bool = False, *, kind: str | None = None) -> Any:
    """Elementwise: is each entry of ``element`` in ``test_elements``?  Shaped
    like ``element``; ``invert`` negates.  NaN is never found.

    Sorts ``test_elements`` and binary-searches (complex and bool values are
    compared against every test value).

    Examples
    --------
    >>> snp.isin(snp.array([[1, 2], [3, 4]]), snp.array([2, 4, 6]))
    Array([[False,  True],
           [False,  True]], dtype=bool)
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"isin: kind must be None, 'sort' or 'table', got {kind!r}")
    util.check_arraylike("isin", element, test_elements)
    e = util.as_operand("isin", element)
    if dtypes.is_python_scalar(e):
        e = util.cast(e, dtypes.python_scalar_dtype(e))
    t = _flat("isin", test_elements)
    e, t = util.promote_dtypes(e, t)
    out = _contains(e, t)
    return lax.bitwise_not(out) if invert else out


def _result(name: str, keep: Any, values: list[Any], size: Any, fill_value: Any,
            extra_fills: list[Any], *args: Any) -> list[Any]:
    """The entries of the 1-d ``values`` where ``keep``, in order, cut or padded
    to ``size`` (required under jit).  The first array is padded with
    ``fill_value`` (default: its first, i.e. smallest, kept entry), the
    others with ``extra_fills``."""
    it = dtypes.default_int()
    size = _static_size(name, size, lambda: lax.reduce_sum(util.cast(keep, it), (0,)),
                        *args)
    out = _compact(keep, values, size, [0, *extra_fills])
    if size:
        v = out[0]
        if fill_value is None:
            fill = lax.broadcast_in_dim(lax.reshape(lax.slice(v, (0,), (1,)), ()),
                                        (size,), ())
        else:
            fill = util.broadcast_to(util.cast(util.as_operand(name, fill_value),
                                               get_aval(v).dtype), (size,), name)
        count = lax.reduce_sum(util.cast(keep, it), (0,))
        valid = lax.lt(lax.iota(it, size), lax.broadcast_in_dim(count, (size,), ()))
        out[0] = lax.select(valid, v, fill)
    return out


def union1d(ar1: ArrayLike, ar2: ArrayLike, *, size: int | None = None,
            fill_value: ArrayLike = None) -> Any:
    """The sorted unique values in either (flattened) input.

    Examples
    --------
    >>> snp.union1d(snp.array([3, 1]), snp.array([[2, 1]]))
    Array([1, 2, 3], dtype=int64)
    """
    a, b = _flat_pair("union1d", ar1, ar2)
    both = lax.concatenate([a, b], 0)
    if size is None:
        _static_size("union1d", None, lambda: 0, a, b)
    return unique(both, size=size, fill_value=fill_value)


def intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False,
                return_indices: bool = False, *, size: int | None = None,
                fill_value: ArrayLike = None) -> Any:
    """The sorted unique values in both (flattened) inputs; with
    ``return_indices``, also the index of each value's first occurrence in
    each input.

    Examples
    --------
    >>> snp.intersect1d(snp.array([1, 3, 4, 3]), snp.array([3, 1, 2, 1]))
    Array([1, 3], dtype=int64)
    >>> v, i1, i2 = snp.intersect1d(snp.array([1, 3, 4]), snp.array([3, 1]),
    ...                             return_indices=True)
    >>> i1, i2
    (Array([0, 1], dtype=int64), Array([1, 0], dtype=int64))
    """
    del assume_unique  # the result is the same for unique inputs
    a, b = _flat_pair("intersect1d", ar1, ar2)
    s1, p1, first1 = _sorted_firsts(a)
    keep = lax.bitwise_and(first1, _contains(s1, b))
    vals, idx1 = _result("intersect1d", keep, [s1, p1], size, fill_value, [0], a, b)
    if not return_indices:
        return vals
    m = get_aval(b).shape[0]
    s2, p2 = lax.sort((b, lax.iota(dtypes.default_int(), m)), dimension=0, num_keys=1)
    if m == 0 or get_aval(vals).shape[0] == 0:
        return vals, idx1, lax.full(get_aval(idx1).shape, 0, dtypes.default_int())
    pos = searchsorted(s2, vals, side="left")
    pos = lax.min(pos, lax.full_like(pos, m - 1))
    idx2 = take_axis(p2, pos, 0)
    # padding entries point at index 0 of each input
    n_keep = lax.reduce_sum(util.cast(keep, dtypes.default_int()), (0,))
    k = get_aval(vals).shape[0]
    valid = lax.lt(lax.iota(dtypes.default_int(), k),
                   lax.broadcast_in_dim(n_keep, (k,), ()))
    idx2 = lax.select(valid, idx2, lax.full_like(idx2, 0))
    return vals, idx1, idx2


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *,
              size: int | None = None, fill_value: ArrayLike = None) -> Any:
    """The sorted unique values of ``ar1`` that are not in ``ar2`` (with
    ``assume_unique``: the values of ``ar1`` in their original order).

    Examples
    --------
    >>> snp.setdiff1d(snp.array([5, 1, 2, 5, 3]), snp.array([2, 4]))
    Array([1, 3, 5], dtype=int64)
    """
    a, b = _flat_pair("setdiff1d", ar1, ar2)
    if assume_unique:
        keep = lax.bitwise_not(_contains(a, b))
        return _result("setdiff1d", keep, [a], size, fill_value, [], a, b)[0]
    s1, _, first1 = _sorted_firsts(a)
    keep = lax.bitwise_and(first1, lax.bitwise_not(_contains(s1, b)))
    return _result("setdiff1d", keep, [s1], size, fill_value, [], a, b)[0]


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *,
             size: int | None = None, fill_value: ArrayLike = None) -> Any:
    """The sorted unique values in exactly one of the inputs.

    Examples
    --------
    >>> snp.setxor1d(snp.array([1, 2, 3, 2]), snp.array([2, 3, 5, 7]))
    Array([1, 5, 7], dtype=int64)
    """
    del assume_unique
    a, b = _flat_pair("setxor1d", ar1, ar2)
    s1, _, first1 = _sorted_firsts(a)
    s2, _, first2 = _sorted_firsts(b)
    keep1 = lax.bitwise_and(first1, lax.bitwise_not(_contains(s1, b)))
    keep2 = lax.bitwise_and(first2, lax.bitwise_not(_contains(s2, a)))
    vals = lax.concatenate([s1, s2], 0)
    keep = lax.concatenate([keep1, keep2], 0)
    # merge the two sorted runs: kept values first, in value order
    drop = util.cast(lax.bitwise_not(keep), dtypes.int8)
    drop, vals = lax.sort((drop, vals), dimension=0, num_keys=2)
    keep = lax.eq(drop, lax.full_like(drop, 0))
    return _result("setxor1d", keep, [vals], size, fill_value, [], a, b)[0]

