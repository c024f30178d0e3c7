"""Order statistics and histograms: median, quantile, percentile (and the
NaN-ignoring forms), histogram (static bins), bincount (``length=``),
digitize, cov, corrcoef, convolve, correlate."""

from __future__ import annotations

from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import reductions, ufuncs, util
from sciax._src.numpy.creation import diagonal, linspace
from sciax._src.numpy.gather_util import take_along, take_axis
from sciax._src.numpy.products import dot
from sciax._src.numpy.shape import concatenate, moveaxis, stack
from sciax._src.numpy.sorting import searchsorted
from sciax._src.numpy.ufuncs import conj

ArrayLike = Any

__all__ = ["median", "quantile", "percentile", "nanmedian", "nanquantile",
           "nanpercentile", "histogram", "histogram_bin_edges", "histogram2d",
           "histogramdd", "bincount", "digitize", "cov", "corrcoef", "convolve",
           "correlate"]

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
            "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
            "hazen", "weibull", "median_unbiased", "normal_unbiased")


def _quantile(name: str, a: Any, q: Any, axis: Any, method: str, keepdims: bool,
              ignore_nan: bool) -> Any:
    if method not in _METHODS[:5]:
        raise ValueError(f"{name}: method {method!r} is not supported; use one of "
                         f"{_METHODS[:5]}")
    a = util.operand(name, a)
    q = util.operand(name, q)
    av = get_aval(a)
    if dtypes.is_complex(av.dtype):
        raise TypeError(f"{name}: complex input is not supported")
    axes = util.canonicalize_axes(axis, av.ndim)
    a, q = util.promote_dtypes_inexact(a, q)
    dt = get_aval(a).dtype
    if not isinstance(q, Tracer):
        qv = np.asarray(q)
        if np.any((qv < 0) | (qv > 1)):
            raise ValueError(f"{name}: quantiles must be in the range [0, 1]")
    keep = [i for i in range(av.ndim) if i not in axes]
    a = lax.transpose(a, tuple(keep + list(axes))) if av.ndim else a
    rest = tuple(av.shape[i] for i in keep)
    n = 1
    for i in axes:
        n *= av.shape[i]
    a = lax.reshape(a, (*rest, n))
    if n == 0:
        out = lax.full((*get_aval(q).shape, *rest), np.nan, dt)
        return out
    s = lax.sort(a, dimension=len(rest))
    isnan = ufuncs.isnan(s)
    it = dtypes.default_int()
    if ignore_nan:
        count = lax.reduce_sum(util.cast(lax.bitwise_not(isnan), it), (len(rest),))
    else:
        count = lax.full(rest, n, it)
    qs = get_aval(q).shape
    nq = int(np.prod(qs))
    qf = lax.reshape(q, (nq,))
    # positions: q * (count - 1), per slice and quantile: shape rest + (nq,)
    big = (*rest, nq)
    cnt = lax.broadcast_in_dim(util.cast(count, dt), big, tuple(range(len(rest))))
    qb = lax.broadcast_in_dim(qf, big, (len(rest),))
    last = lax.sub(cnt, lax.full_like(cnt, 1))
    pos = lax.mul(qb, lax.max(last, lax.full_like(last, 0)))
    lo = lax.floor(pos)
    hi = lax.ceil(pos)
    lo_i, hi_i = util.cast(lo, it), util.cast(hi, it)
    lo_v = take_along(s, lo_i, len(rest))
    hi_v = take_along(s, hi_i, len(rest))
    if method == "lower":
        out = lo_v
    elif method == "higher":
        out = hi_v
    elif method == "midpoint":
        out = lax.mul(lax.add(lo_v, hi_v), lax.full_like(lo_v, 0.5))
    elif method == "nearest":
        r = lax.round(pos, lax.ROUND_TO_NEAREST_EVEN)
        out = take_along(s, util.cast(r, it), len(rest))
    else:
        t = lax.sub(pos, lo)
        diff = lax.sub(hi_v, lo_v)
        # NumPy's lerp: exact at both ends
        a_part = lax.add(lo_v, lax.mul(diff, t))
        b_part = lax.sub(hi_v, lax.mul(diff, lax.sub(lax.full_like(t, 1), t)))
        out = lax.select(lax.ge(t, lax.full_like(t, 0.5)), b_part, a_part)
        out = lax.select(lax.eq(diff, lax.full_like(diff, 0)), lo_v, out)
    nan = lax.full_like(out, np.nan)
    if ignore_nan:
        bad = lax.eq(cnt, lax.full_like(cnt, 0))
    else:
        last_nan = lax.broadcast_in_dim(
            lax.reshape(lax.slice_in_dim(isnan, n - 1, n, axis=len(rest)), rest), big,
            tuple(range(len(rest))))
        bad = last_nan
    out = lax.select(bad, nan, out)
    # result: q's axes first, then the kept axes
    out = moveaxis(out, -1, 0) if rest else out
    out = lax.reshape(out, (*qs, *rest))
    if keepdims:
        full = tuple(1 if i in axes else d for i, d in enumerate(av.shape))
        out = lax.reshape(out, (*qs, *full))
    return out


def quantile(a: ArrayLike, q: ArrayLike, axis: Any = None, out: None = None,
             overwrite_input: bool = False, method: str = "linear",
             keepdims: bool = False, *, weights: None = None) -> Any:
    """The ``q``-th quantiles (``0 <= q <= 1``) of ``a`` over ``axis``.

    Methods ``linear`` (default), ``lower``, ``higher``, ``nearest`` and
    ``midpoint``; the quantile axes come first in the result.  A NaN in a
    slice gives NaN.  Differentiable in ``a`` (through the sort).

    Examples
    --------
    >>> snp.quantile(snp.array([1.0, 2.0, 3.0, 4.0]), 0.5)
    Array(2.5, dtype=float64)
    >>> snp.quantile(snp.array([1.0, 2.0, 3.0, 4.0]), snp.array([0.0, 1.0]))
    Array([1., 4.], dtype=float64)
    """
    _no_extras("quantile", out, weights)
    return _quantile("quantile", a, q, axis, method, keepdims, False)


def percentile(a: ArrayLike, q: ArrayLike, axis: Any = None, out: None = None,
               overwrite_input: bool = False, method: str = "linear",
               keepdims: bool = False, *, weights: None = None) -> Any:
    """:func:`quantile` with ``q`` in percent (``0 <= q <= 100``).

    Examples
    --------
    >>> snp.percentile(snp.array([1.0, 2.0, 3.0]), 50)
    Array(2., dtype=float64)
    """
    _no_extras("percentile", out, weights)
    q = util.as_operand("percentile", q)
    (q,) = util.promote_dtypes_inexact(q)
    return _quantile("percentile", a, lax.div(q, lax.full_like(q, 100)), axis, method,
                     keepdims, False)


def median(a: ArrayLike, axis: Any = None, out: None = None,
           overwrite_input: bool = False, keepdims: bool = False) -> Any:
    """The median over ``axis`` (the mean of the two middle values for even
    counts).

    Examples
    --------
    >>> snp.median(snp.array([[1.0, 3.0], [2.0, 8.0]]), axis=0)
    Array([1.5, 5.5], dtype=float64)
    """
    _no_extras("median", out, None)
    return _quantile("median", a, 0.5, axis, "midpoint", keepdims, False)


def nanquantile(a: ArrayLike, q: ArrayLike, axis: Any = None, out: None = None,
                overwrite_input: bool = False, method: str = "linear",
                keepdims: bool = False, *, weights: None = None) -> Any:
    """:func:`quantile` ignoring NaNs (all-NaN slices give NaN)."""
    _no_extras("nanquantile", out, weights)
    return _quantile("nanquantile", a, q, axis, method, keepdims, True)


def nanpercentile(a: ArrayLike, q: ArrayLike, axis: Any = None, out: None = None,
                  overwrite_input: bool = False, method: str = "linear",
                  keepdims: bool = False, *, weights: None = None) -> Any:
    """:func:`percentile` ignoring NaNs."""
    _no_extras("nanpercentile", out, weights)
    q = util.as_operand("nanpercentile", q)
    (q,) = util.promote_dtypes_inexact(q)
    return _quantile("nanpercentile", a, lax.div(q, lax.full_like(q, 100)), axis,
                     method, keepdims, True)


def nanmedian(a: ArrayLike, axis: Any = None, out: None = None,
              overwrite_input: bool = False, keepdims: bool = False) -> Any:
    """:func:`median` ignoring NaNs."""
    _no_extras("nanmedian", out, None)
    return _quantile("nanmedian", a, 0.5, axis, "midpoint", keepdims, True)


def _no_extras(name: str, out: Any, weights: Any) -> None:
    if out is not None:
        raise NotImplementedError(f"{name}: the out argument is not supported")
    if weights is not None:
        raise NotImplementedError(f"{name}: weights are not supported")


# --- histograms ------------------------------------------------------------------------

def histogram_bin_edges(a: ArrayLike, bins: Any = 10, range: Any = None,
                        weights: ArrayLike = None) -> Any:
    """The bin edges :func:`histogram` uses (``bins`` an int or edges)."""

    a = util.operand("histogram_bin_edges", a)
    if isinstance(bins, str):
        raise NotImplementedError("histogram: string bin estimators are not supported")
    if np.ndim(bins) == 1 or (hasattr(bins, "shape") and util.ndim(bins) == 1):
        b = util.operand("histogram", bins)
        return util.cast(b, util.to_inexact_dtype(get_aval(b).dtype))
    nb = util.concrete_int(bins, "histogram: bins")
    if nb < 1:
        raise ValueError("histogram: bins must be positive")
    (a,) = util.promote_dtypes_inexact(a)
    if range is None:
        if get_aval(a).size == 0:
            lo, hi = util.cast(0.0, get_aval(a).dtype), util.cast(1.0, get_aval(a).dtype)
        else:
            lo, hi = reductions.min(a), reductions.max(a)
    else:
        lo, hi = (util.cast(v, get_aval(a).dtype) for v in range)
        if not isinstance(lo, Tracer) and float(np.asarray(lo)) > float(np.asarray(hi)):
            raise ValueError("histogram: max must be larger than min in range parameter")
    # equal ends: NumPy widens the range by 0.5 each way
    same = lax.eq(lo, hi)
    lo = lax.select(same, lax.sub(lo, lax.full_like(lo, 0.5)), lo)
    hi = lax.select(same, lax.add(hi, lax.full_like(hi, 0.5)), hi)
    return linspace(lo, hi, nb + 1)


def histogram(a: ArrayLike, bins: Any = 10, range: Any = None, density: bool = False,
              weights: ArrayLike = None) -> tuple[Any, Any]:
    """Counts (or weights, or a density) of ``a`` in ``bins`` bins (static
    count or edges); the last bin includes its right edge.

    Examples
    --------
    >>> counts, edges = snp.histogram(snp.array([0.0, 0.5, 1.0, 1.0]), bins=2)
    >>> counts
    Array([1, 3], dtype=int64)
    """
    a = util.operand("histogram", a)
    edges = histogram_bin_edges(a, bins, range)
    a = lax.reshape(a, (get_aval(a).size,))
    (a,) = util.promote_dtypes_inexact(a)
    edges = util.cast(edges, get_aval(a).dtype)
    nb = get_aval(edges).shape[0] - 1
    idx = searchsorted(edges, a, side="right")
    last = lax.reshape(lax.slice(edges, (nb,), (nb + 1,)), ())
    idx = lax.select(lax.eq(a, lax.broadcast_in_dim(last, get_aval(a).shape, ())),
                     lax.full_like(idx, nb), idx)
    idx = lax.sub(idx, lax.full_like(idx, 1))
    w = None if weights is None else lax.reshape(util.operand("histogram", weights),
                                                 (get_aval(a).size,))
    counts = bincount(lax.select(lax.lt(idx, lax.full_like(idx, 0)),
                                 lax.full_like(idx, nb), idx), w, length=nb + 1)
    counts = lax.slice(counts, (0,), (nb,))
    if density:
        widths = lax.sub(lax.slice(edges, (1,), (nb + 1,)), lax.slice(edges, (0,), (nb,)))
        c = util.cast(counts, get_aval(edges).dtype)
        counts = ufuncs.divide(ufuncs.divide(c, widths), lax.reduce_sum(c, (0,)))
    return counts, edges


def histogram2d(x: ArrayLike, y: ArrayLike, bins: Any = 10, range: Any = None,
                density: bool | None = None, weights: ArrayLike = None
                ) -> tuple[Any, Any, Any]:
    """The 2-d histogram of ``(x, y)`` samples."""
    x, y = util.operand("histogram2d", x), util.operand("histogram2d", y)
    if np.ndim(bins) == 0 or (isinstance(bins, list | tuple) and len(bins) != 2):
        bins = [bins, bins]
    h, edges = histogramdd(stack(util.promote_dtypes(x, y), 1), bins, range, density,
                           weights)
    return h, edges[0], edges[1]


def histogramdd(sample: ArrayLike, bins: Any = 10, range: Any = None,
                density: bool | None = None, weights: ArrayLike = None
                ) -> tuple[Any, list[Any]]:
    """The D-dimensional histogram of ``(N, D)`` samples (static bins)."""
    s = util.operand("histogramdd", sample)
    if util.ndim(s) == 1:
        s = lax.reshape(s, (get_aval(s).shape[0], 1))
    N, D = get_aval(s).shape
    (s,) = util.promote_dtypes_inexact(s)
    if np.ndim(bins) == 0:
        bins = [bins] * D
    if len(bins) != D:
        raise ValueError("histogramdd: the dimension of bins must be equal to the "
                         "dimension of the sample x")
    ranges = [None] * D if range is None else list(range)
    edges, flat, nbs = [], None, []
    for d in builtins_range(D):
        col = lax.reshape(lax.slice_in_dim(s, d, d + 1, axis=1), (N,))
        e = util.cast(histogram_bin_edges(col, bins[d], ranges[d]), get_aval(s).dtype)
        nb = get_aval(e).shape[0] - 1
        i = searchsorted(e, col, side="right")
        lastv = lax.broadcast_in_dim(lax.reshape(lax.slice(e, (nb,), (nb + 1,)), ()),
                                     (N,), ())
        i = lax.select(lax.eq(col, lastv), lax.full_like(i, nb), i)
        # outside: index 0 or nb+1 -> mark as out of range
        i = lax.sub(i, lax.full_like(i, 1))
        out = lax.bitwise_or(lax.lt(i, lax.full_like(i, 0)), lax.ge(i, lax.full_like(i, nb)))
        i = lax.select(out, lax.full_like(i, -10 ** 9), i)
        flat = i if flat is None else lax.add(lax.mul(flat, lax.full_like(flat, nb)), i)
        edges.append(e)
        nbs.append(nb)
    total = int(np.prod(nbs))
    flat = lax.select(lax.lt(flat, lax.full_like(flat, 0)), lax.full_like(flat, total),
                      flat)
    w = None if weights is None else util.operand("histogramdd", weights)
    counts = lax.slice(bincount(flat, w, length=total + 1), (0,), (total,))
    h = lax.reshape(util.cast(counts, get_aval(s).dtype), tuple(nbs))
    if density:
        h = ufuncs.divide(h, lax.reduce_sum(h, tuple(builtins_range(D))))
        for d, e in enumerate(edges):
            w_ = lax.sub(lax.slice(e, (1,), (nbs[d] + 1,)), lax.slice(e, (0,), (nbs[d],)))
            shape = [1] * D
            shape[d] = nbs[d]
            h = ufuncs.divide(h, lax.reshape(w_, tuple(shape)))
    return h, edges


builtins_range = range


def bincount(x: ArrayLike, weights: ArrayLike = None, minlength: int = 0, *,
             length: int | None = None) -> Any:
    """The number of occurrences of each value in the non-negative integer ``x``
    (summed ``weights`` when given).

    The output length is ``max(x) + 1`` (at least ``minlength``), which
    depends on the values: under ``jit`` pass a static ``length``; values at
    or beyond it are dropped.

    Examples
    --------
    >>> snp.bincount(snp.array([0, 1, 1, 3]))
    Array([1, 2, 0, 1], dtype=int64)
    """
    x = util.operand("bincount", x)
    if not dtypes.is_integer(get_aval(x).dtype):
        raise TypeError(f"bincount: x must be an integer array, got {get_aval(x).dtype}")
    if util.ndim(x) != 1:
        raise ValueError(f"bincount: x must be 1-d, got shape {get_aval(x).shape}")
    minlength = util.concrete_int(minlength, "bincount: minlength")
    if minlength < 0:
        raise ValueError("bincount: minlength must be non-negative")
    if length is None:
        if isinstance(x, Tracer):
            raise TypeError("bincount: the output length depends on max(x), which is "
                            "traced here (inside jit/vmap/grad); pass a static length= "
                            "argument")
        v = np.asarray(x)
        if v.size and v.min() < 0:
            raise ValueError("bincount: x must not contain negative values")
        length = max(int(v.max()) + 1 if v.size else 0, minlength)
    length = util.concrete_int(length, "bincount: length")
    n = get_aval(x).shape[0]
    if weights is None:
        w = lax.full((n,), 1, dtypes.default_int())
    else:
        w = util.operand("bincount", weights)
        if get_aval(w).shape != (n,):
            raise ValueError(f"bincount: weights shape {get_aval(w).shape} does not "
                             f"match x shape {(n,)}")
        (w,) = util.promote_dtypes_inexact(w) if not dtypes.is_complex(
            get_aval(w).dtype) else (w,)
    zeros = lax.full((length,), 0, get_aval(w).dtype)
    dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
    idx = lax.reshape(util.cast(x, dtypes.default_int()), (n, 1))
    return lax.scatter_add(zeros, idx, w, dn, mode="drop")


def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False) -> Any:
    """The index of the bin (of monotonic ``bins``) each ``x`` falls in.

    Examples
    --------
    >>> snp.digitize(snp.array([0.2, 6.4, 3.0]), snp.array([0.0, 1.0, 2.5, 4.0]))
    Array([1, 4, 3], dtype=int64)
    """
    x, bins = util.operand("digitize", x), util.operand("digitize", bins)
    if util.ndim(bins) != 1:
        raise ValueError("digitize: bins must be 1-d")
    nb = get_aval(bins).shape[0]
    side = "left" if right else "right"
    if nb < 2:
        return searchsorted(bins, x, side=side)
    b0 = lax.reshape(lax.slice(bins, (0,), (1,)), ())
    b1 = lax.reshape(lax.slice(bins, (nb - 1,), (nb,)), ())
    inc = searchsorted(bins, x, side=side)
    dec = lax.sub(lax.full_like(inc, nb),
                  searchsorted(lax.rev(bins, (0,)), x, side=side))
    increasing = lax.broadcast_in_dim(lax.le(b0, util.cast(b1, get_aval(b0).dtype)),
                                      get_aval(inc).shape, ())
    return lax.select(increasing, inc, dec)


# --- covariance, correlation -----------------------------------------------------------

def cov(m: ArrayLike, y: ArrayLike = None, rowvar: bool = True, bias: bool = False,
        ddof: int | None = None, fweights: ArrayLike = None,
        aweights: ArrayLike = None, *, dtype: Any = None) -> Any:
    """The covariance matrix of the variables in the rows (``rowvar``) of ``m``.

    Examples
    --------
    >>> snp.cov(snp.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    Array([[ 1., -1.],
           [-1.,  1.]], dtype=float64)
    """

    m = util.operand("cov", m)
    if util.ndim(m) > 2:
        raise ValueError("cov: m has more than 2 dimensions")
    X = lax.reshape(m, (1, get_aval(m).size)) if util.ndim(m) < 2 else m
    if not rowvar and util.ndim(m) == 2:
        X = lax.transpose(X, (1, 0))
    if y is not None:
        y = util.operand("cov", y)
        Y = lax.reshape(y, (1, get_aval(y).size)) if util.ndim(y) < 2 else y
        if not rowvar and util.ndim(y) == 2:
            Y = lax.transpose(Y, (1, 0))
        X, Y = util.promote_dtypes_inexact(X, Y)

        X = concatenate([X, Y], 0)
    (X,) = util.promote_dtypes_inexact(X)
    if dtype is not None:
        X = util.cast(X, dtypes.canonicalize_dtype(np.dtype(dtype)))
    if ddof is None:
        ddof = 0 if bias else 1
    nobs = get_aval(X).shape[1]
    dt = get_aval(X).dtype
    w = None
    if fweights is not None:
        w = util.cast(util.operand("cov", fweights), dt)
    if aweights is not None:
        aw = util.cast(util.operand("cov", aweights), dt)
        w = aw if w is None else lax.mul(w, aw)
    if w is None:
        avg = lax.div(lax.reduce_sum(X, (1,)), lax.full((get_aval(X).shape[0],), nobs,
                                                         dt))
        fact = nobs - ddof
        fact_v = lax.full((), max(fact, 0), dt)
    else:
        w = util.cast(w, util.to_inexact_dtype(get_aval(w).dtype))
        wsum = lax.reduce_sum(w, (0,))
        avg = ufuncs.divide(dot(X, w), util.cast(wsum, dt))
        if ddof == 0:
            fact_v = util.cast(wsum, dt)
        elif aweights is None:
            fact_v = util.cast(lax.sub(wsum, lax.full_like(wsum, ddof)), dt)
        else:
            aw = util.cast(util.operand("cov", aweights), dt)
            fact_v = util.cast(lax.sub(wsum, lax.div(lax.mul(lax.full_like(wsum, ddof),
                                                             lax.reduce_sum(lax.mul(
                                                                 w, aw), (0,))),
                                                     wsum)), dt)
    Xc = ufuncs.subtract(X, lax.reshape(avg, (get_aval(X).shape[0], 1)))
    Xw = Xc if w is None else ufuncs.multiply(Xc, w)
    c = dot(Xw, ufuncs.conj(lax.transpose(Xc, (1, 0))))
    c = ufuncs.divide(c, fact_v)
    if get_aval(c).shape == (1, 1):
        return lax.reshape(c, ())
    return c


def corrcoef(x: ArrayLike, y: ArrayLike = None, rowvar: bool = True, *,
             dtype: Any = None) -> Any:
    """Pearson correlation coefficients (the normalised :func:`cov`), clipped
    to ``[-1, 1]``."""
    c = cov(x, y, rowvar, dtype=dtype)
    if util.ndim(c) == 0:
        return ufuncs.divide(c, c)
    d = ufuncs.real(lax.reshape(_diag_of(c), (get_aval(c).shape[0],)))
    sd = ufuncs.sqrt(d)
    c = ufuncs.divide(c, lax.reshape(sd, (-1 if False else get_aval(sd).shape[0], 1)))
    c = ufuncs.divide(c, lax.reshape(sd, (1, get_aval(sd).shape[0])))
    if dtypes.is_complex(get_aval(c).dtype):
        return lax.complex(ufuncs.clip(ufuncs.real(c), -1, 1),
                           ufuncs.clip(ufuncs.imag(c), -1, 1))
    return ufuncs.clip(c, -1, 1)


def _diag_of(c: Any) -> Any:
    return diagonal(c)


# --- convolution -------------------------------------------------------------------------

def _conv(name: str, a: Any, v: Any, mode: str, flip: bool) -> Any:
    a, v = util.operand(name, a), util.operand(name, v)
    if util.ndim(a) != 1 or util.ndim(v) != 1:
        raise ValueError(f"{name}: inputs must be 1-d, got shapes {get_aval(a).shape} "
                         f"and {get_aval(v).shape}")
    a, v = util.promote_dtypes(a, v)
    if get_aval(a).dtype == dtypes.bool_:
        a, v = util.cast(a, dtypes.default_int()), util.cast(v, dtypes.default_int())
    n, m = get_aval(a).shape[0], get_aval(v).shape[0]
    if n == 0 or m == 0:
        raise ValueError(f"{name}: inputs cannot be empty")
    if not flip and m > n:
        # NumPy: correlate(a, v) = conj(correlate(v, a))[::-1] for longer v
        res = lax.rev(_conv(name, v, a, mode, False), (0,))
        return conj(res) if dtypes.is_complex(get_aval(res).dtype) else res
    if not flip:
        v = conj(v) if dtypes.is_complex(get_aval(v).dtype) else v
        v = lax.rev(v, (0,))
    swapped = m > n
    if swapped:
        a, v, n, m = v, a, m, n
    # full convolution: out[k] = sum_j a[k - j] v[j]; build the (n+m-1, m)
    # matrix of shifted copies of a with a padded gather, then one dot.
    full = n + m - 1
    k = np.arange(full)[:, None] - np.arange(m)[None, :]
    valid = (k >= 0) & (k < n)

    rows = take_axis(a, np.where(valid, k, 0), 0)
    rows = lax.select(util.broadcast_to(util.as_operand(name, valid), (full, m), name),
                      rows, lax.full_like(rows, 0))
    out = lax.dot_general(rows, v, (((1,), (0,)), ((), ())))
    if mode == "full":
        res = out
    elif mode == "same":
        big, small = max(n, m), min(n, m)
        start = (small - 1) // 2
        res = lax.slice(out, (start,), (start + big,))
    elif mode == "valid":
        res = lax.slice(out, (m - 1,), (n,))
    else:
        raise ValueError(f"{name}: mode must be 'full', 'same' or 'valid', got {mode!r}")
    return res


def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full", *,
             precision: Any = None, preferred_element_type: Any = None) -> Any:
    """The discrete linear convolution of two 1-d arrays (modes ``full``,
    ``same``, ``valid``).

    Examples
    --------
    >>> snp.convolve(snp.array([1.0, 2.0, 3.0]), snp.array([0.0, 1.0, 0.5]))
    Array([0. , 1. , 2.5, 4. , 1.5], dtype=float64)
    """
    return _conv("convolve", a, v, mode, True)


def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid", *,
              precision: Any = None, preferred_element_type: Any = None) -> Any:
    """The cross-correlation of two 1-d arrays, ``c[k] = sum_n a[n + k] *
    conj(v[n])`` (modes ``valid`` (default), ``same``, ``full``).

    Examples
    --------
    >>> snp.correlate(snp.array([1.0, 2.0, 3.0]), snp.array([0.0, 1.0, 0.5]))
    Array([3.5], dtype=float64)
    """
    return _conv("correlate", a, v, mode, False)
