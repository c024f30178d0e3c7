"""NumPy's legacy polynomial functions (coefficients highest power first):
poly, polyval, polyfit, polyder, polyint, polyadd, polysub, polymul, polydiv,
roots and the poly1d class.

They work under ``sciax.jit`` with static lengths.  Two NumPy behaviours
depend on the values and so happen only on concrete (not traced) input:
stripping leading zeros (``roots``, ``polydiv``'s remainder, ``poly1d``) and
returning a real array from ``poly`` when complex roots come in conjugate
pairs.  ``roots`` always returns complex values (as the eigenvalues of the
companion matrix).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import reductions, ufuncs, util
from sciax._src.numpy.creation import vander
from sciax._src.numpy.linalg import eigvals, inv, lstsq
from sciax._src.numpy.products import matmul
from sciax._src.numpy.statistics import convolve

ArrayLike = Any

__all__ = ["poly", "polyval", "polyfit", "polyder", "polyint", "polyadd", "polysub",
           "polymul", "polydiv", "roots", "poly1d"]


def _coeffs(name: str, p: Any) -> Any:
    """``p`` as a 1-d array (scalars become length 1); TypeError otherwise."""
    if isinstance(p, poly1d):
        return p.coeffs
    util.check_arraylike(name, p)
    p = util.as_operand(name, p)
    if dtypes.is_python_scalar(p):
        p = util.cast(p, dtypes.python_scalar_dtype(p))
    if util.ndim(p) == 0:
        return lax.reshape(p, (1,))
    if util.ndim(p) != 1:
        raise ValueError(f"{name}: polynomial coefficients must be a 1-d array, got "
                         f"shape {get_aval(p).shape}")
    return p


def _len(p: Any) -> int:
    return get_aval(p).shape[0]


def _pad_front(p: Any, n: int) -> Any:
    """``p`` with ``n - len(p)`` leading zeros."""
    k = n - _len(p)
    return p if k <= 0 else lax.pad(p, lax.full((), 0, get_aval(p).dtype),
                                    ((k, 0, 0),))


def _is_concrete(*xs: Any) -> bool:
    return not any(isinstance(x, Tracer) for x in xs)


def _trim_leading_zeros(p: Any) -> Any:
    """Strip leading zeros of a concrete ``p`` (keeping at least one entry)."""
    if not _is_concrete(p):
        return p
    v = np.asarray(p)
    nz = np.flatnonzero(v)
    start = int(nz[0]) if nz.size else max(v.shape[0] - 1, 0)
    return p[start:] if start else p


def poly(seq_of_zeros: ArrayLike) -> Any:
    """The coefficients of the monic polynomial with the given roots (or the
    characteristic polynomial of a square matrix).

    Examples
    --------
    >>> snp.poly(snp.array([1.0, 2.0]))
    Array([ 1., -3.,  2.], dtype=float64)
    """
    util.check_arraylike("poly", seq_of_zeros)
    a = util.as_operand("poly", seq_of_zeros)
    if dtypes.is_python_scalar(a):
        a = util.cast(a, dtypes.python_scalar_dtype(a))
    shape = get_aval(a).shape
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        a = eigvals(a)
    elif len(shape) == 0:
        a = lax.reshape(a, (1,))
    elif len(shape) != 1:
        raise ValueError(f"poly: input must be 1d or non-empty square 2d array, got "
                         f"shape {shape}")
    (a,) = util.promote_dtypes_inexact(a)
    dt = get_aval(a).dtype
    c = lax.full((1,), 1, dt)
    zero = lax.full((1,), 0, dt)
    for k in range(_len(a)):
        r = lax.broadcast_in_dim(lax.reshape(lax.slice(a, (k,), (k + 1,)), ()),
                                 (k + 2,), ())
        c = lax.sub(lax.concatenate([c, zero], 0),
                    lax.mul(r, lax.concatenate([zero, c], 0)))
    if dtypes.is_complex(dt) and _is_concrete(a):
        # conjugate pairs give real coefficients: NumPy returns them as real
        roots = np.asarray(a)
        if np.array_equal(np.sort_complex(roots), np.sort_complex(roots.conjugate())):
            c = lax.real(c)
    return c


def polyval(p: ArrayLike, x: ArrayLike, *, unroll: int = 16) -> Any:
    """The polynomial ``p`` (highest power first) at ``x``, by Horner's rule.

    ``unroll`` is accepted for compatibility (the loop is always unrolled).

    Examples
    --------
    >>> snp.polyval(snp.array([3.0, 0.0, 1.0]), snp.array([1.0, 2.0]))
    Array([ 4., 13.], dtype=float64)
    """
    p = _coeffs("polyval", p)
    util.check_arraylike("polyval", x)
    x = util.as_operand("polyval", x)
    p, x = util.promote_dtypes(p, x)
    shape = get_aval(x).shape
    y = lax.full(shape, 0, get_aval(x).dtype)
    for k in range(_len(p)):
        c = lax.broadcast_in_dim(lax.reshape(lax.slice(p, (k,), (k + 1,)), ()), shape,
                                 ())
        y = lax.add(lax.mul(y, x), c)
    return y


def polyder(p: ArrayLike, m: int = 1) -> Any:
    """The ``m``-th derivative of the polynomial ``p``.

    Examples
    --------
    >>> snp.polyder(snp.array([1, 2, 3, 4]))
    Array([3, 4, 3], dtype=int64)
    """
    p = _coeffs("polyder", p)
    m = util.concrete_int(m, "polyder: m")
    if m < 0:
        raise ValueError("polyder: order of derivative must be positive (see "
                         "polyint), "
                         f"got {m}")
    for _ in range(m):
        n = max(_len(p) - 1, 0)
        powers = lax.convert_element_type(np.arange(n, 0, -1), get_aval(p).dtype)
        p = ufuncs.multiply(lax.slice(p, (0,), (n,)), powers)
    return p


def polyint(p: ArrayLike, m: int = 1, k: ArrayLike = None) -> Any:
    """The ``m``-th antiderivative of ``p``; ``k`` holds the integration
    constants (a scalar for all, or one per integration, the first applied
    first).

    Examples
    --------
    >>> snp.polyint(snp.array([3.0, 2.0, 1.0]))
    Array([1., 1., 1., 0.], dtype=float64)
    """
    p = _coeffs("polyint", p)
    m = util.concrete_int(m, "polyint: m")
    if m < 0:
        raise ValueError(f"polyint: order of integral must be positive (see polyder), "
                         f"got {m}")
    (p,) = util.promote_dtypes_inexact(p)
    if m == 0:
        return p
    dt = get_aval(p).dtype
    if k is None:
        ks = lax.full((m,), 0, dt)
    else:
        ks = util.cast(util.as_operand("polyint", k), dt)
        if util.ndim(ks) == 0:
            ks = lax.broadcast_in_dim(ks, (m,), ())
        elif get_aval(ks).shape != (m,) and get_aval(ks).shape != (1,):
            raise ValueError("polyint: k must be a scalar or a rank-1 array of "
                             "length 1 "
                             f"or m (= {m}), got shape {get_aval(ks).shape}")
        elif get_aval(ks).shape == (1,):
            ks = lax.broadcast_in_dim(lax.reshape(ks, ()), (m,), ())
    for i in range(m):
        n = _len(p)
        powers = lax.convert_element_type(np.arange(n, 0, -1), dt)
        p = lax.concatenate([lax.div(p, powers), lax.slice(ks, (i,), (i + 1,))], 0)
    return p


def polyadd(a1: ArrayLike, a2: ArrayLike) -> Any:
    """The sum of two polynomials.

    Examples
    --------
    >>> snp.polyadd(snp.array([1, 2]), snp.array([9, 5, 4]))
    Array([9, 6, 6], dtype=int64)
    """
    a, b = _coeffs("polyadd", a1), _coeffs("polyadd", a2)
    n = max(_len(a), _len(b))
    return ufuncs.add(_pad_front(a, n), _pad_front(b, n))


def polysub(a1: ArrayLike, a2: ArrayLike) -> Any:
    """The difference of two polynomials.

    Examples
    --------
    >>> snp.polysub(snp.array([2, 10, -2]), snp.array([3, 10, -4]))
    Array([-1,  0,  2], dtype=int64)
    """
    a, b = _coeffs("polysub", a1), _coeffs("polysub", a2)
    n = max(_len(a), _len(b))
    return ufuncs.subtract(_pad_front(a, n), _pad_front(b, n))


def polymul(a1: ArrayLike, a2: ArrayLike) -> Any:
    """The product of two polynomials (a full convolution of coefficients).

    Examples
    --------
    >>> snp.polymul(snp.array([1, 2, 3]), snp.array([9, 5, 1]))
    Array([ 9, 23, 38, 17,  3], dtype=int64)
    """
    a, b = _coeffs("polymul", a1), _coeffs("polymul", a2)
    return convolve(a, b)


def polydiv(u: ArrayLike, v: ArrayLike) -> tuple[Any, Any]:
    """Quotient and remainder of polynomial division ``u / v``.

    On concrete input the remainder's leading (near-)zeros are stripped as in
    NumPy; under jit the remainder has the fixed length ``len(v) - 1`` (or
    ``len(u)`` when ``u`` has the lower degree).

    Examples
    --------
    >>> q, r = snp.polydiv(snp.array([3.0, 5.0, 2.0]), snp.array([2.0, 1.0]))
    >>> q, r
    (Array([1.5 , 1.75], dtype=float64), Array([0.25], dtype=float64))
    """
    u, v = _coeffs("polydiv", u), _coeffs("polydiv", v)
    u, v = util.promote_dtypes_inexact(u, v)
    m, n = _len(u) - 1, _len(v) - 1
    dt = get_aval(u).dtype
    v0 = lax.reshape(lax.slice(v, (0,), (1,)), ())
    scale = lax.div(lax.full((), 1, dt), v0)
    r = u
    qs = []
    for k in range(m - n + 1):
        d = lax.mul(scale, lax.reshape(lax.slice(r, (k,), (k + 1,)), ()))
        qs.append(lax.reshape(d, (1,)))
        sub = lax.mul(lax.broadcast_in_dim(d, (n + 1,), ()), v)
        sub = lax.pad(sub, lax.full((), 0, dt), ((k, m - n - k, 0),))
        r = lax.sub(r, sub)
    q = lax.concatenate(qs, 0) if qs else lax.full((1,), 0, dt)
    if _is_concrete(r):
        rv = np.asarray(r)
        start = 0
        while start < rv.shape[0] - 1 and np.allclose(rv[start], 0, rtol=1e-14):
            start += 1
        return q, r[start:]
    if m >= n:
        r = lax.slice(r, (m - n + 1,), (m + 1,)) if n else lax.full((1,), 0, dt)
    return q, r


def polyfit(x: ArrayLike, y: ArrayLike, deg: int, rcond: float | None = None,
            full: bool = False, w: ArrayLike = None, cov: bool | str = False) -> Any:
    """Least-squares fit of a polynomial of degree ``deg`` to ``(x, y)``
    (``y`` may hold several data sets as columns).

    Solved with :func:`sciax.numpy.linalg.lstsq` on the column-scaled
    Vandermonde matrix, as NumPy does.  ``full`` also returns ``(residuals,
    rank, singular_values, rcond)``; ``cov`` the covariance of the
    coefficients.  Differentiable in ``x``, ``y`` and ``w``.

    Examples
    --------
    >>> x = snp.array([0.0, 1.0, 2.0, 3.0])
    >>> snp.polyfit(x, 2 * x ** 2 - 1, 2)
    Array([ 2.,  0., -1.], dtype=float64)
    """

    deg = util.concrete_int(deg, "polyfit: deg")
    order = deg + 1
    util.check_arraylike("polyfit", x, y)
    x, y = util.as_operand("polyfit", x), util.as_operand("polyfit", y)
    x, y = util.promote_dtypes_inexact(x, y)
    if deg < 0:
        raise ValueError(f"polyfit: expected deg >= 0, got {deg}")
    if util.ndim(x) != 1:
        raise TypeError(f"polyfit: expected a 1-d vector for x, got shape "
                        f"{get_aval(x).shape}")
    nx = get_aval(x).shape[0]
    if nx == 0:
        raise TypeError("polyfit: expected a non-empty vector for x")
    if util.ndim(y) < 1 or util.ndim(y) > 2:
        raise TypeError(f"polyfit: expected a 1-d or 2-d array for y, got shape "
                        f"{get_aval(y).shape}")
    if get_aval(y).shape[0] != nx:
        raise TypeError(f"polyfit: expected x and y to have the same length, got "
                        f"{nx} and {get_aval(y).shape[0]}")
    if rcond is None:
        rcond = nx * float(dtypes.finfo(get_aval(x).dtype).eps)
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = util.cast(util.as_operand("polyfit", w), get_aval(x).dtype)
        if util.ndim(w) != 1 or get_aval(w).shape[0] != nx:
            raise TypeError(f"polyfit: expected a 1-d w of length {nx}, got shape "
                            f"{get_aval(w).shape}")
        lhs = ufuncs.multiply(lhs, lax.reshape(w, (nx, 1)))
        rhs = ufuncs.multiply(rhs, w if util.ndim(rhs) == 1 else
                              lax.reshape(w, (nx, 1)))
    scale = ufuncs.sqrt(reductions.sum(ufuncs.multiply(lhs, lhs), axis=0))
    lhs = ufuncs.divide(lhs, scale)
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = ufuncs.divide(c, scale if util.ndim(c) == 1 else lax.reshape(scale, (order, 1)))
    if _is_concrete(rank) and int(np.asarray(rank)) != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = inv(matmul(lax.transpose(lhs, (1, 0)), lhs))
        vbase = ufuncs.divide(vbase, ufuncs.multiply(lax.reshape(scale, (order, 1)),
                                                     lax.reshape(scale, (1, order))))
        if cov == "unscaled":
            fac = lax.full((), 1, get_aval(vbase).dtype)
        else:
            if nx <= order:
                raise ValueError("polyfit: the number of data points must exceed order "
                                 "to scale the covariance matrix")
            fac = ufuncs.divide(resids, nx - order)
        if util.ndim(y) == 1:
            return c, ufuncs.multiply(vbase, lax.reshape(fac, ()) if get_aval(
                fac).shape else fac)
        return c, ufuncs.multiply(lax.expand_dims(vbase, (2,)), fac)
    return c


def roots(p: ArrayLike, *, strip_zeros: bool = True) -> Any:
    """The roots of the polynomial ``p`` (highest power first), as the
    eigenvalues of its companion matrix; complex dtype.

    On concrete input (and ``strip_zeros``) leading zeros are dropped and
    trailing zeros give roots at 0, as in NumPy.  Under jit nothing is
    stripped: ``p[0]`` must then be nonzero (the roots are otherwise NaN/inf).

    Examples
    --------
    >>> r = snp.roots(snp.array([1.0, -3.0, 2.0]))
    >>> snp.sort(r.real)
    Array([1., 2.], dtype=float64)
    """
    p = _coeffs("roots", p)
    (p,) = util.promote_dtypes_inexact(p)
    dt = get_aval(p).dtype
    cdt = dt if dtypes.is_complex(dt) else np.dtype(
        np.complex64 if dt.itemsize <= 4 else dtypes.complex128)
    trailing = 0
    if strip_zeros and _is_concrete(p):
        v = np.asarray(p)
        nz = np.flatnonzero(v)
        if nz.size == 0:
            return lax.full((0,), 0, cdt)
        trailing = v.shape[0] - int(nz[-1]) - 1
        p = p[int(nz[0]):int(nz[-1]) + 1]
    n = _len(p)
    if n > 1:
        lead = lax.broadcast_in_dim(lax.reshape(lax.slice(p, (0,), (1,)), ()), (n - 1,),
                                    ())
        top = lax.neg(lax.div(lax.slice(p, (1,), (n,)), lead))
        rest = lax.convert_element_type(np.eye(n - 2, n - 1), dt)
        comp = lax.concatenate([lax.reshape(top, (1, n - 1)), rest], 0)
        r = util.cast(eigvals(comp), cdt)
    else:
        r = lax.full((0,), 0, cdt)
    if trailing:
        r = lax.concatenate([r, lax.full((trailing,), 0, cdt)], 0)
    return r


class poly1d:
    """A one-dimensional polynomial (NumPy's legacy class): ``p(x)``
    evaluates, ``+ - * **`` combine, :meth:`deriv`/:meth:`integ` differentiate
    and integrate, ``p.roots`` solves.

    Leading zeros are stripped from concrete coefficients.  With
    ``r=True`` the argument holds the roots instead.

    Examples
    --------
    >>> p = snp.poly1d([1.0, 2.0, 3.0])
    >>> p(2.0)
    Array(11., dtype=float64)
    >>> (p * p).coeffs
    Array([ 1.,  4., 10., 12.,  9.], dtype=float64)
    """

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        c = poly(c_or_r) if r else _coeffs("poly1d", c_or_r)
        self._coeffs = _trim_leading_zeros(c)
        self._variable = variable or "x"

    coeffs = property(lambda self: self._coeffs)
    c = coef = coefficients = coeffs
    variable = property(lambda self: self._variable)
    order = property(lambda self: _len(self._coeffs) - 1)
    o = order
    roots = property(lambda self: roots(self._coeffs))
    r = roots

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self._coeffs, dtype=dtype)

    def __repr__(self) -> str:
        return f"poly1d({np.asarray(self._coeffs).tolist()!r})"

    def __len__(self) -> int:
        return self.order

    def __call__(self, val: Any) -> Any:
        if isinstance(val, poly1d):
            out = poly1d([0])
            for k in range(_len(self._coeffs)):
                out = out * val + poly1d(self._coeffs[k:k + 1])
            return out
        return polyval(self._coeffs, val)

    def __neg__(self) -> poly1d:
        return poly1d(ufuncs.negative(self._coeffs))

    def __pos__(self) -> poly1d:
        return self

    def __add__(self, other: Any) -> poly1d:
        return poly1d(polyadd(self._coeffs, _coeffs("poly1d", other)))

    __radd__ = __add__

    def __sub__(self, other: Any) -> poly1d:
        return poly1d(polysub(self._coeffs, _coeffs("poly1d", other)))

    def __rsub__(self, other: Any) -> poly1d:
        return poly1d(polysub(_coeffs("poly1d", other), self._coeffs))

    def __mul__(self, other: Any) -> poly1d:
        if isinstance(other, poly1d) or util.ndim(util.as_operand("poly1d", other)):
            return poly1d(polymul(self._coeffs, _coeffs("poly1d", other)))
        return poly1d(ufuncs.multiply(self._coeffs, other))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        if isinstance(other, poly1d) or util.ndim(util.as_operand("poly1d", other)):
            q, r = polydiv(self._coeffs, _coeffs("poly1d", other))
            return poly1d(q), poly1d(r)
        return poly1d(ufuncs.divide(self._coeffs, other))

    def __pow__(self, n: int) -> poly1d:
        n = util.concrete_int(n, "poly1d: the power")
        if n < 0:
            raise ValueError("poly1d: power to non-negative integers only")
        out = poly1d([1])
        for _ in range(n):
            out = out * self
        return out

    def __eq__(self, other: Any) -> bool:  # type: ignore[override]
        if not isinstance(other, poly1d):
            return NotImplemented
        a, b = np.asarray(self._coeffs), np.asarray(other._coeffs)
        return a.shape == b.shape and bool(np.all(a == b))

    def __ne__(self, other: Any) -> bool:  # type: ignore[override]
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __getitem__(self, power: int) -> Any:
        ind = self.order - power
        if ind < 0 or ind > self.order:
            return lax.full((), 0, get_aval(self._coeffs).dtype)
        return self._coeffs[ind]

    def __iter__(self) -> Any:
        return iter(self._coeffs)

    def deriv(self, m: int = 1) -> poly1d:
        """The ``m``-th derivative."""
        return poly1d(polyder(self._coeffs, m))

    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        """The ``m``-th antiderivative with integration constants ``k``."""
        return poly1d(polyint(self._coeffs, m, k))
