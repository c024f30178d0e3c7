"""Differences, integrals and interpolation over arrays: diff, ediff1d, gradient,
trapezoid, cross, interp and unwrap.

Everything is composed from lax primitives, so it works eagerly, under
``sciax.jit`` and ``vmap``, and differentiates where NumPy's function is
differentiable.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import reductions, ufuncs, util
from sciax._src.numpy.shape import concatenate, moveaxis
from sciax._src.numpy.sorting import argsort, searchsorted

__all__ = ["diff", "ediff1d", "gradient", "trapezoid", "cross", "interp", "unwrap"]


ArrayLike = Any


# --- differences and integrals -------------------------------------------------------

def _slice_axis(x: Any, start: int, stop: int, axis: int) -> Any:
    return lax.slice_in_dim(x, start, stop, axis=axis)


def _as_axis_block(name: str, v: Any, shape: tuple[int, ...], axis: int,
                   dtype: np.dtype) -> Any:
    """``prepend``/``append`` as an array that concatenates along ``axis``: a
    scalar (or lower-rank value) is broadcast with that axis of length 1."""
    v = util.cast(util.operand(name, v), dtype)
    if util.ndim(v) == 0:
        return lax.broadcast_in_dim(v, (*shape[:axis], 1, *shape[axis + 1:]), ())
    return v


def diff(a: ArrayLike, n: int = 1, axis: int = -1, prepend: ArrayLike = None,
         append: ArrayLike = None) -> Any:
    """The ``n``-th discrete difference along ``axis`` (``a[1:] - a[:-1]``,
    repeated; ``!=`` for booleans), after adding ``prepend``/``append``.

    Examples
    --------
    >>> snp.diff(snp.array([1, 4, 9, 16]))
    Array([3, 5, 7], dtype=int64)
    >>> snp.diff(snp.array([1.0, 4.0, 9.0]), n=2)
    Array([2.], dtype=float64)
    """
    a = util.operand("diff", a)
    n = util.concrete_int(n, "diff: n")
    if n < 0:
        raise ValueError(f"diff: order must be non-negative but got {n}")
    if n == 0:
        return a
    nd = util.ndim(a)
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = util.canonicalize_axis(axis, nd)
    parts = []
    if prepend is not None:
        parts.append(_as_axis_block("diff", prepend, util.shape_of(a), ax, util.dtype_of(a)))
    parts.append(a)
    if append is not None:
        parts.append(_as_axis_block("diff", append, util.shape_of(a), ax, util.dtype_of(a)))
    if len(parts) > 1:
        a = concatenate(parts, axis=ax)
    is_bool = util.dtype_of(a) == dtypes.bool_
    for _ in range(n):
        m = util.shape_of(a)[ax]
        if m == 0:
            break
        hi, lo = _slice_axis(a, 1, m, ax), _slice_axis(a, 0, m - 1, ax)
        a = lax.ne(hi, lo) if is_bool else lax.sub(hi, lo)
    return a


def ediff1d(ary: ArrayLike, to_end: ArrayLike = None,
            to_begin: ArrayLike = None) -> Any:
    """Differences of the flattened ``ary``, with ``to_begin``/``to_end``
    (flattened, cast to ``ary``'s dtype) added at the ends.

    Examples
    --------
    >>> snp.ediff1d(snp.array([1, 2, 4, 7]), to_begin=-99)
    Array([-99,   1,   2,   3], dtype=int64)
    """
    a = util.operand("ediff1d", ary)
    a = lax.reshape(a, (get_aval(a).size,))
    dt = util.dtype_of(a)
    n = util.shape_of(a)[0]
    d = lax.sub(_slice_axis(a, 1, n, 0), _slice_axis(a, 0, n - 1, 0)) if n else a
    if dt == dtypes.bool_ and n:
        d = lax.ne(_slice_axis(a, 1, n, 0), _slice_axis(a, 0, n - 1, 0))
    def block(v: Any) -> Any:
        v = util.operand("ediff1d", v)
        if not np.can_cast(util.dtype_of(v), dt, "same_kind"):
            raise TypeError(f"ediff1d: dtype of to_begin/to_end ({util.dtype_of(v)}) must be "
                            f"compatible with the dtype of the input ({dt})")
        return lax.reshape(util.cast(v, dt), (get_aval(v).size,))

    parts = ([] if to_begin is None else [block(to_begin)]) + [d] + (
        [] if to_end is None else [block(to_end)])
    return lax.concatenate(parts, 0) if len(parts) > 1 else d


def _float_operand(name: str, a: Any) -> Any:
    a = util.operand(name, a)
    (a,) = util.promote_dtypes_inexact(a)
    return a


def _along(v: Any, nd: int, axis: int) -> Any:
    """A 1-d ``v`` shaped to broadcast along ``axis`` of an ``nd``-d array."""
    shape = [1] * nd
    shape[axis] = util.shape_of(v)[0]
    return lax.reshape(v, tuple(shape))


def gradient(f: ArrayLike, *varargs: ArrayLike, axis: Any = None,
             edge_order: int = 1) -> Any:
    """The gradient of sampled ``f`` by second-order central differences in
    the interior and one-sided differences of order ``edge_order`` (1 or 2)
    at the ends.

    ``varargs`` are the spacings: none (1.0 everywhere), one scalar for all
    axes, or one per axis, each a scalar or the 1-d coordinates along that
    axis.  Returns an array for one axis, else a tuple of arrays.

    Examples
    --------
    >>> snp.gradient(snp.array([1.0, 2.0, 4.0, 7.0]))
    Array([1. , 1.5, 2.5, 3. ], dtype=float64)
    >>> snp.gradient(snp.array([1.0, 2.0, 4.0]), snp.array([0.0, 1.0, 3.0]))
    Array([1., 1., 1.], dtype=float64)
    """
    f = _float_operand("gradient", f)
    nd = util.ndim(f)
    if nd == 0:
        raise ValueError("gradient: the input must have at least one dimension")
    axes = util.canonicalize_axes(axis, nd)
    if len(varargs) == 0:
        spacings: list[Any] = [1.0] * len(axes)
    elif len(varargs) == 1 and util.ndim(util.operand("gradient", varargs[0])) == 0:
        spacings = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError(f"gradient: expected 0, 1 or {len(axes)} spacing arguments, "
                        "got "
                        f"{len(varargs)}")
    if edge_order not in (1, 2):
        raise ValueError(f"gradient: edge_order must be 1 or 2, got {edge_order!r}")
    out = []
    for ax, h in zip(axes, spacings):
        n = util.shape_of(f)[ax]
        if n < edge_order + 1:
            raise ValueError(
                f"gradient: shape of array too small to calculate a numerical gradient "
                f"along axis {ax} (length {n}); at least (edge_order + 1) = "
                f"{edge_order + 1} elements are required")
        h = util.operand("gradient", h)
        if util.ndim(h) == 0:
            out.append(_gradient_uniform(f, h, ax, n, edge_order))
        elif util.ndim(h) == 1:
            if util.shape_of(h)[0] != n:
                raise ValueError(f"gradient: the coordinates for axis {ax} have length "
                                 f"{util.shape_of(h)[0]}, which does not match the length of "
                                 f"the axis ({n})")
            out.append(_gradient_coords(f, h, ax, n, edge_order))
        else:
            raise ValueError(f"gradient: spacing must be a scalar or a 1-d array, got "
                             f"shape {util.shape_of(h)}")
    return out[0] if len(out) == 1 else tuple(out)


def _gradient_uniform(f: Any, h: Any, ax: int, n: int, edge_order: int) -> Any:
    if not dtypes.is_inexact(util.dtype_of(h)):
        h = util.cast(h, util.dtype_of(f))
    f, h = util.promote_dtypes(f, h)

    def s(i: int, j: int) -> Any:
        return _slice_axis(f, i, j, ax)

    two_h = lax.mul(h, lax.full_like(h, 2))
    interior = lax.div(lax.sub(s(2, n), s(0, n - 2)), lax.broadcast_in_dim(
        two_h, util.shape_of(s(2, n)), ())) if n > 2 else None
    if edge_order == 1:
        first = lax.sub(s(1, 2), s(0, 1))
        last = lax.sub(s(n - 1, n), s(n - 2, n - 1))
    else:
        def c(v: float) -> Any:
            return lax.full_like(s(0, 1), v)

        first = lax.add(lax.add(lax.mul(c(-1.5), s(0, 1)), lax.mul(c(2.0), s(1, 2))),
                        lax.mul(c(-0.5), s(2, 3)))
        last = lax.add(lax.add(lax.mul(c(0.5), s(n - 3, n - 2)),
                               lax.mul(c(-2.0), s(n - 2, n - 1))),
                       lax.mul(c(1.5), s(n - 1, n)))
    hb = lax.broadcast_in_dim(h, util.shape_of(first), ())
    first, last = lax.div(first, hb), lax.div(last, hb)
    parts = [first] + ([interior] if interior is not None else []) + [last]
    return lax.concatenate(parts, ax)


def _gradient_coords(f: Any, x: Any, ax: int, n: int, edge_order: int) -> Any:
    (x,) = util.promote_dtypes_inexact(x)
    f, x = util.promote_dtypes(f, x)
    nd = util.ndim(f)
    dx = lax.sub(_slice_axis(x, 1, n, 0), _slice_axis(x, 0, n - 1, 0))

    def s(i: int, j: int) -> Any:
        return _slice_axis(f, i, j, ax)

    def at(v: Any, i: int) -> Any:
        return lax.reshape(_slice_axis(v, i, i + 1, 0), ())

    def comb(terms: Sequence[tuple[Any, Any]]) -> Any:
        out = None
        for coef, part in terms:
            if util.ndim(coef) == 0:
                coef = lax.broadcast_in_dim(coef, util.shape_of(part), ())
            else:
                coef = lax.broadcast_in_dim(_along(coef, nd, ax), util.shape_of(part),
                                            tuple(range(nd)))
            t = lax.mul(coef, part)
            out = t if out is None else lax.add(out, t)
        return out

    parts = []
    if edge_order == 1:
        parts.append(lax.div(lax.sub(s(1, 2), s(0, 1)),
                             lax.broadcast_in_dim(at(dx, 0), util.shape_of(s(0, 1)), ())))
    else:
        d1, d2 = at(dx, 0), at(dx, 1)
        parts.append(comb([
            (ufuncs.negative(ufuncs.divide(ufuncs.add(ufuncs.multiply(2.0, d1), d2),
                                           ufuncs.multiply(d1, ufuncs.add(d1, d2)))),
             s(0, 1)),
            (ufuncs.divide(ufuncs.add(d1, d2), ufuncs.multiply(d1, d2)), s(1, 2)),
            (ufuncs.negative(ufuncs.divide(d1, ufuncs.multiply(
                d2, ufuncs.add(d1, d2)))), s(2, 3))]))
    if n > 2:
        d1, d2 = _slice_axis(dx, 0, n - 2, 0), _slice_axis(dx, 1, n - 1, 0)
        s12 = ufuncs.add(d1, d2)
        a = ufuncs.negative(ufuncs.divide(d2, ufuncs.multiply(d1, s12)))
        b = ufuncs.divide(ufuncs.subtract(d2, d1), ufuncs.multiply(d1, d2))
        c = ufuncs.divide(d1, ufuncs.multiply(d2, s12))
        parts.append(comb([(a, s(0, n - 2)), (b, s(1, n - 1)), (c, s(2, n))]))
    if edge_order == 1:
        last_dx = lax.broadcast_in_dim(at(dx, n - 2), util.shape_of(s(0, 1)), ())
        parts.append(lax.div(lax.sub(s(n - 1, n), s(n - 2, n - 1)), last_dx))
    else:
        d1, d2 = at(dx, n - 3), at(dx, n - 2)
        s12 = ufuncs.add(d1, d2)
        parts.append(comb([
            (ufuncs.divide(d2, ufuncs.multiply(d1, s12)), s(n - 3, n - 2)),
            (ufuncs.negative(ufuncs.divide(s12, ufuncs.multiply(d1, d2))),
             s(n - 2, n - 1)),
            (ufuncs.divide(ufuncs.add(ufuncs.multiply(2.0, d2), d1),
                           ufuncs.multiply(d2, s12)), s(n - 1, n))]))
    return lax.concatenate(parts, ax)


def trapezoid(y: ArrayLike, x: ArrayLike = None, dx: ArrayLike = 1.0,
              axis: int = -1) -> Any:
    """The integral of sampled ``y`` along ``axis`` by the trapezoidal rule,
    at sample points ``x`` (1-d, or shaped like ``y``) or spacing ``dx``.

    Examples
    --------
    >>> snp.trapezoid(snp.array([1.0, 2.0, 3.0]))
    Array(4., dtype=float64)
    >>> snp.trapezoid(snp.array([1.0, 2.0, 3.0]), x=snp.array([0.0, 1.0, 3.0]))
    Array(6.5, dtype=float64)
    """
    y = _float_operand("trapezoid", y)
    nd = util.ndim(y)
    if nd == 0:
        raise ValueError("trapezoid: y must have at least one dimension")
    ax = util.canonicalize_axis(axis, nd)
    n = util.shape_of(y)[ax]
    if x is None:
        d: Any = dx
    else:
        x = _float_operand("trapezoid", x)
        if util.ndim(x) == 1:
            if util.shape_of(x)[0] != n:
                raise ValueError(f"trapezoid: x has length {util.shape_of(x)[0]} but y has "
                                 f"{n} samples along axis {ax}")
            d = _along(diff(x), nd, ax)
        else:
            d = diff(x, axis=ax)
    if n == 0:
        return reductions.sum(y, axis=ax)
    mid = ufuncs.add(_slice_axis(y, 1, n, ax), _slice_axis(y, 0, n - 1, ax))
    return reductions.sum(ufuncs.multiply(ufuncs.multiply(d, mid), 0.5), axis=ax)


def cross(a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1,
          axisc: int = -1, axis: int | None = None) -> Any:
    """The cross product of 2- or 3-element vectors along ``axisa``/``axisb``
    (the result's vector axis is ``axisc``), broadcasting the other axes.

    Two 2-vectors give the scalar z component; a 2-vector and a 3-vector are
    crossed with the 2-vector's z taken as 0.

    Examples
    --------
    >>> snp.cross(snp.array([1.0, 0.0, 0.0]), snp.array([0.0, 1.0, 0.0]))
    Array([0., 0., 1.], dtype=float64)
    >>> snp.cross(snp.array([1, 2]), snp.array([3, 4]))
    Array(-2, dtype=int64)
    """
    a, b = util.operand("cross", a), util.operand("cross", b)
    a, b = util.promote_dtypes(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    if util.ndim(a) == 0 or util.ndim(b) == 0:
        raise ValueError("cross: both inputs must be at least 1-d vectors, got shapes "
                         f"{util.shape_of(a)} and {util.shape_of(b)}")
    a = moveaxis(a, util.canonicalize_axis(axisa, util.ndim(a), "axisa"), -1)
    b = moveaxis(b, util.canonicalize_axis(axisb, util.ndim(b), "axisb"), -1)
    ka, kb = util.shape_of(a)[-1], util.shape_of(b)[-1]
    if ka not in (2, 3) or kb not in (2, 3):
        raise ValueError(f"cross: incompatible dimensions for cross product (dimension "
                         f"must be 2 or 3), got vectors of length {ka} and {kb}")
    comp_a = [lax.index_in_dim(a, k, util.ndim(a) - 1, False) for k in range(ka)]
    comp_b = [lax.index_in_dim(b, k, util.ndim(b) - 1, False) for k in range(kb)]
    mul, sub = ufuncs.multiply, ufuncs.subtract
    if ka == 2 and kb == 2:
        return sub(mul(comp_a[0], comp_b[1]), mul(comp_a[1], comp_b[0]))
    a0, a1 = comp_a[0], comp_a[1]
    b0, b1 = comp_b[0], comp_b[1]
    if ka == 2:
        b2 = comp_b[2]
        parts = [mul(a1, b2), ufuncs.negative(mul(a0, b2)),
                 sub(mul(a0, b1), mul(a1, b0))]
    elif kb == 2:
        a2 = comp_a[2]
        parts = [ufuncs.negative(mul(a2, b1)), mul(a2, b0),
                 sub(mul(a0, b1), mul(a1, b0))]
    else:
        a2, b2 = comp_a[2], comp_b[2]
        parts = [sub(mul(a1, b2), mul(a2, b1)), sub(mul(a2, b0), mul(a0, b2)),
                 sub(mul(a0, b1), mul(a1, b0))]
    parts = util.promote_shapes("cross", *parts)
    nd = util.ndim(parts[0])
    out = lax.concatenate([lax.expand_dims(p, (nd,)) for p in parts], nd)
    return moveaxis(out, -1, util.canonicalize_axis(axisc, nd + 1, "axisc"))


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: ArrayLike = None,
           right: ArrayLike = None, period: ArrayLike = None) -> Any:
    """Piecewise-linear interpolation of the points ``(xp, fp)`` at ``x``.

    ``xp`` must be increasing (not checked, as in NumPy) unless ``period`` is
    given.  Outside ``[xp[0], xp[-1]]`` the result is ``left``/``right``
    (default ``fp[0]``/``fp[-1]``).  Complex ``fp`` is supported.  The result
    dtype is the promoted inexact dtype (NumPy always returns float64 or
    complex128).  Differentiable in ``x``, ``xp`` and ``fp``.

    Examples
    --------
    >>> snp.interp(snp.array([0.5, 2.5, 9.0]), snp.array([0.0, 1.0, 3.0]),
    ...            snp.array([0.0, 10.0, 30.0]))
    Array([ 5., 25., 30.], dtype=float64)
    """
    x, xp, fp = (util.operand("interp", v) for v in (x, xp, fp))
    if util.ndim(xp) != 1 or util.ndim(fp) != 1:
        raise ValueError(f"interp: xp and fp must be 1-d sequences, got shapes "
                         f"{util.shape_of(xp)} and {util.shape_of(fp)}")
    if util.shape_of(xp)[0] != util.shape_of(fp)[0]:
        raise ValueError("interp: fp and xp are not of the same length "
                         f"({util.shape_of(fp)[0]} "
                         f"and {util.shape_of(xp)[0]})")
    if util.shape_of(xp)[0] == 0:
        raise ValueError("interp: array of sample points is empty")
    for v in (x, xp):
        if dtypes.is_complex(util.dtype_of(v)):
            raise TypeError("interp: x and xp must be real")
    x, xp = util.promote_dtypes_inexact(x, xp)
    (fp,) = util.promote_dtypes_inexact(fp)
    if period is not None:
        if not isinstance(period, Tracer) and np.all(np.asarray(period) == 0):
            raise ValueError("interp: period must be a non-zero value")
        period = ufuncs.abs(util.cast(util.operand("interp", period), util.dtype_of(x)))
        x = ufuncs.remainder(x, period)
        xp = ufuncs.remainder(xp, period)
        order = argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = lax.concatenate([ufuncs.subtract(xp[-1:], period), xp,
                              ufuncs.add(xp[0:1], period)], 0)
        fp = lax.concatenate([fp[-1:], fp, fp[0:1]], 0)
        left = right = None
    n = util.shape_of(xp)[0]
    xshape = util.shape_of(x)
    if n == 1:
        f0 = lax.broadcast_in_dim(lax.reshape(fp, ()), xshape, ())
        x0 = lax.broadcast_in_dim(lax.reshape(xp, ()), xshape, ())
        out = f0
    else:
        i = searchsorted(xp, x, side="right")
        i = lax.clamp(lax.full_like(i, 1), i, lax.full_like(i, n - 1))
        im1 = lax.sub(i, lax.full_like(i, 1))
        xlo, xhi, flo, fhi = xp[im1], xp[i], fp[im1], fp[i]
        dxp = lax.sub(xhi, xlo)
        flat = lax.eq(dxp, lax.full_like(dxp, 0))
        slope = ufuncs.divide(ufuncs.subtract(fhi, flo),
                              lax.select(flat, lax.full_like(dxp, 1), dxp))
        out = ufuncs.add(ufuncs.multiply(slope, lax.sub(x, xlo)), flo)
        out = ufuncs.where(flat, flo, out)
        x0 = lax.broadcast_in_dim(lax.reshape(xp[0:1], ()), xshape, ())
        # exactly fp[-1] at the last sample, as NumPy
        xl = lax.broadcast_in_dim(lax.reshape(xp[-1:], ()), xshape, ())
        out = ufuncs.where(lax.eq(x, xl), lax.broadcast_in_dim(
            lax.reshape(fp[-1:], ()), xshape, ()), out)
    odt = util.dtype_of(out)
    lval = fp[0] if left is None else util.cast(util.operand("interp", left), odt)
    rval = fp[-1] if right is None else util.cast(util.operand("interp", right), odt)
    xn = lax.broadcast_in_dim(lax.reshape(xp[-1:], ()), xshape, ())
    out = ufuncs.where(lax.lt(x, x0), lval, out)
    out = ufuncs.where(lax.gt(x, xn), rval, out)
    return util.cast(out, odt)


def unwrap(p: ArrayLike, discont: ArrayLike = None, axis: int = -1, *,
           period: ArrayLike = 2 * np.pi) -> Any:
    """Unwrap ``p`` along ``axis`` by removing jumps larger than ``discont``
    (default ``period / 2``) in steps of ``period``.

    Examples
    --------
    >>> snp.unwrap(snp.array([0.0, 3.0, 6.5, 0.2]))
    Array([0.        , 3.        , 0.21681469, 0.2       ], dtype=float64)
    """
    p = util.operand("unwrap", p)
    nd = util.ndim(p)
    if nd == 0:
        raise ValueError("unwrap: p must have at least one dimension")
    ax = util.canonicalize_axis(axis, nd)
    int_mode = dtypes.is_integer(util.dtype_of(p)) and isinstance(period, int | np.integer)
    if not int_mode:
        p = _float_operand("unwrap", p)
    dd = diff(p, axis=ax)
    if discont is None:
        discont = ufuncs.divide(period, 2) if not int_mode else period / 2
    if int_mode:
        high, rem = builtins.divmod(int(period), 2)
        ambiguous = rem == 0
    else:
        high = ufuncs.divide(period, 2)
        ambiguous = True
    low = ufuncs.negative(high)
    ddmod = ufuncs.add(ufuncs.remainder(ufuncs.subtract(dd, low), period), low)
    ddmod = util.cast(ddmod, util.dtype_of(dd))
    if ambiguous:
        fix = ufuncs.logical_and(ufuncs.equal(ddmod, low), ufuncs.greater(dd, 0))
        high = util.cast(util.operand("unwrap", high), util.dtype_of(dd))
        ddmod = ufuncs.where(fix, high, ddmod)
    correct = ufuncs.subtract(ddmod, dd)
    correct = ufuncs.where(ufuncs.less(ufuncs.abs(dd), discont), 0, correct)
    correct = util.cast(correct, util.dtype_of(p))
    n = util.shape_of(p)[ax]
    if n == 0:
        return p
    csum = lax.cumsum(correct, ax)
    head = _slice_axis(p, 0, 1, ax)
    return lax.concatenate([head, lax.add(_slice_axis(p, 1, n, ax), csum)], ax)
