"""Further ``scipy.special`` functions, mostly built on the existing families.

Bessel derivatives (``jvp`` ... ``h2vp``) are SciPy's binomial sums of
``J_{v-n+2k}`` (DLMF 10.6.7, 10.29.5), evaluated with one stacked call of the
Bessel kernel; Riccati-Bessel functions come from the spherical Bessel
functions; Kelvin functions are ``I_0``/``K_0`` at ``x e^{i pi/4}`` by their
power series (small ``x``), the trapezoidal rule on their integral
representations (moderate ``x``) and Hankel's expansion (large ``x``);
Bessel and Kelvin zeros are found host-side by a sign-change scan,
bisection and Newton steps with sciax's own kernels (NumPy results, as in
SciPy); ``tklmbda`` solves the Tukey-lambda quantile equation by safeguarded
Newton steps with an implicit-function derivative; ``wright_bessel`` sums
its positive series in log space; the combinatorial numbers are exact
integer arithmetic on the host.  The Gauss-rule aliases map SciPy's legacy
names to the ``roots_*`` functions.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _bessel, _gamma, _orthogonal
from sciax.special import _sfutil as U
from sciax.special._convenience import exprel as _exprel
from sciax.special._convenience import expit
from sciax.special._convenience import log_expit as _log_expit

__all__ = [
    "kn", "jvp", "yvp", "ivp", "kvp", "h1vp", "h2vp",
    "riccati_jn", "riccati_yn", "softplus",
    "assoc_laguerre", "diric", "factorialk", "stirling2", "bernoulli", "euler",
    "roots_sh_legendre", "roots_sh_chebyt", "roots_sh_chebyu",
    "roots_sh_jacobi", "roots_chebyc", "roots_chebys",
    "p_roots", "t_roots", "u_roots", "c_roots", "s_roots", "j_roots",
    "l_roots", "la_roots", "h_roots", "he_roots", "cg_roots", "js_roots",
    "ps_roots", "ts_roots", "us_roots",
    "ber", "bei", "ker", "kei", "berp", "beip", "kerp", "keip", "kelvin",
    "jn_zeros", "jnp_zeros", "yn_zeros", "ynp_zeros", "jnyn_zeros",
    "y0_zeros", "y1_zeros", "y1p_zeros", "tklmbda",
    "ber_zeros", "bei_zeros", "ker_zeros", "kei_zeros", "berp_zeros",
    "beip_zeros", "kerp_zeros", "keip_zeros", "kelvin_zeros",
    "wright_bessel", "log_wright_bessel", "itj0y0", "iti0k0",
]


# --------------------------------------------------------------------------
# kn and the derivatives of Bessel functions
# --------------------------------------------------------------------------

def kn(n: Any, x: Any) -> Any:
    """Modified Bessel function of the second kind of integer order.

    sciax implementation of :func:`scipy.special.kn`: ``kv(n, x)`` with a
    floating ``n`` truncated towards zero, as SciPy does.

    Parameters
    ----------
    n : array_like
        Order (truncated to an integer).
    x : array_like
        Real argument; ``kn(n, 0) = inf``, negative ``x`` gives NaN.

    Returns
    -------
    Array

    Notes
    -----
    Differences from SciPy: none known.  Transformations: jit, vmap and
    grad in ``x`` (the order is an integer: its derivative is zero).

    Examples
    --------
    >>> from sciax.special import kn
    >>> print(np.round(kn(np.array([0, 1, 2]), 1.5), 6))
    [0.213806 0.277388 0.583656]
    """
    n = snp.asarray(n)
    if snp.issubdtype(n.dtype, snp.floating):
        n = lax.stop_gradient(snp.trunc(n))
    return _bessel.kv(n, x)


def _check_order(name: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{name}: n must be a non-negative Python integer "
                         f"(the derivative order), got {n!r}")
    return int(n)


def _diff_sum(name, fn, v, z, n, phase):
    """``2^-n sum_k C(n, k) phase^k fn(v - n + 2k, z)`` with the orders
    stacked on a leading axis (one evaluation of the Bessel kernel)."""
    n = _check_order(name, n)
    (v, z), out = U.promote_real(name, v, z)
    if n == 0:
        return U.finish(out, fn(v, z))
    shifts = np.arange(n + 1, dtype=np.float64) * 2.0 - n
    coef = np.array([math.comb(n, k) * phase**k for k in range(n + 1)]) / 2.0**n
    # flattened, so that the kernel's compiled program depends only on the
    # total size (a (2, 30) and a (3, 20) stack share one)
    shape = (n + 1,) + v.shape
    vv = (v[None] + snp.asarray(shifts).reshape((n + 1,) + (1,) * v.ndim)).reshape(-1)
    zz = snp.broadcast_to(z[None], shape).reshape(-1)
    vals = fn(vv.astype(v.dtype), zz).reshape(shape)
    c = snp.asarray(coef).reshape((n + 1,) + (1,) * v.ndim)
    return U.finish(out, snp.sum(c.astype(vals.real.dtype) * vals, axis=0))


_DIFF_DOC = """Derivative of order ``n`` of {what} with respect to ``z``.

    sciax implementation of :func:`scipy.special.{name}`.

    Parameters
    ----------
    v : array_like
        Order (real).
    z : array_like
        Real argument (complex ``z`` is not supported: TypeError).
    n : int, default 1
        Order of the derivative (a non-negative Python integer).

    Returns
    -------
    Array
        {ret}

    Notes
    -----
    {formula}  The ``n + 1`` orders are
    evaluated in one stacked call of :func:`sciax.special.{base}`, so the
    accuracy is that of the sum (cancellation as in SciPy, which uses the
    same formula).  Transformations: jit, vmap, and grad in ``v`` and ``z``.

    Examples
    --------
    >>> from sciax.special import {name}
    >>> print(np.round({name}(1.0, 2.0), 6))
    {ex1}
    >>> print(np.round({name}(0.5, 3.0, n=2), 6))
    {ex2}
    """


def jvp(v: Any, z: Any, n: int = 1) -> Any:
    return _diff_sum("jvp", _bessel.jv, v, z, n, -1.0)


def yvp(v: Any, z: Any, n: int = 1) -> Any:
    return _diff_sum("yvp", _bessel.yv, v, z, n, -1.0)


def ivp(v: Any, z: Any, n: int = 1) -> Any:
    return _diff_sum("ivp", _bessel.iv, v, z, n, 1.0)


def kvp(v: Any, z: Any, n: int = 1) -> Any:
    s = _diff_sum("kvp", _bessel.kv, v, z, n, 1.0)
    return -s if n % 2 else s


def h1vp(v: Any, z: Any, n: int = 1) -> Any:
    return _diff_sum("h1vp", _bessel.hankel1, v, z, n, -1.0)


def h2vp(v: Any, z: Any, n: int = 1) -> Any:
    return _diff_sum("h2vp", _bessel.hankel2, v, z, n, -1.0)


_SUM = r"2^{-n} \sum_k \binom{n}{k}"
for _f, _what, _formula, _base, _ex1, _ex2 in [
    (jvp, ":math:`J_v(z)`",
     rf":math:`J_v^{{(n)}} = {_SUM} (-1)^k J_{{v-n+2k}}` (DLMF 10.6.7).",
     "jv", "-0.064472", "0.092425"),
    (yvp, ":math:`Y_v(z)`",
     rf":math:`Y_v^{{(n)}} = {_SUM} (-1)^k Y_{{v-n+2k}}` (DLMF 10.6.7).",
     "yv", "0.563892", "-0.439714"),
    (ivp, ":math:`I_v(z)`",
     rf":math:`I_v^{{(n)}} = {_SUM} I_{{v-n+2k}}` (DLMF 10.29.5).",
     "iv", "1.484267", "3.453472"),
    (kvp, ":math:`K_v(z)`",
     rf":math:`K_v^{{(n)}} = (-1)^n {_SUM} K_{{v-n+2k}}` (DLMF 10.29.5).",
     "kv", "-0.183827", "0.051037"),
    (h1vp, r":math:`H^{(1)}_v(z)`",
     rf":math:`H^{{(1)(n)}}_v = {_SUM} (-1)^k H^{{(1)}}_{{v-n+2k}}`.",
     "hankel1", "(-0.064472+0.563892j)", "(0.092425-0.439714j)"),
    (h2vp, r":math:`H^{(2)}_v(z)`",
     rf":math:`H^{{(2)(n)}}_v = {_SUM} (-1)^k H^{{(2)}}_{{v-n+2k}}`.",
     "hankel2", "(-0.064472-0.563892j)", "(0.092425+0.439714j)"),
]:
    _ret = ("Complex." if _base.startswith("hankel")
            else "Real, broadcast over ``v`` and ``z``.")
    _f.__doc__ = _DIFF_DOC.format(what=_what, name=_f.__name__, ret=_ret,
                                  formula=_formula, base=_base, ex1=_ex1, ex2=_ex2)
del _f, _what, _formula, _base, _ex1, _ex2, _ret


# --------------------------------------------------------------------------
# Riccati-Bessel functions
# --------------------------------------------------------------------------

def _riccati(name, fn, n, x):
    n = _check_order(name, n)
    if snp.ndim(x) != 0:
        raise ValueError(f"{name}: x must be a scalar, got shape {snp.shape(x)}")
    (x,), _ = U.promote_real(name, x)
    out = snp.result_type(x.dtype, snp.float64)    # SciPy: always double
    k = snp.arange(max(n, 1) + 1, dtype=x.dtype)[: n + 1]
    f = fn(k, x)
    fp = fn(k, x, derivative=True)
    val, der = x * f, f + x * fp
    if fn is _bessel.spherical_yn:
        # x = 0: C_0 = -cos 0, C_0' = sin 0; for k >= 1 the limits are
        # -inf and +inf, which SciPy (specfun RCTY) returns as -+1e300
        zero = x == 0
        val = snp.where(zero, snp.where(k == 0, -1.0, -1e300), val)
        der = snp.where(zero, snp.where(k == 0, 0.0, 1e300), der)
    return U.finish(out, val, der)


def riccati_jn(n: int, x: Any) -> tuple:
    r"""Riccati-Bessel functions of the first kind and their derivatives.

    sciax implementation of :func:`scipy.special.riccati_jn`:
    :math:`S_k(x) = x j_k(x)` and :math:`S_k'(x)` for ``k = 0 .. n``.

    Parameters
    ----------
    n : int
        Highest order (a non-negative Python integer: the output length).
    x : float
        Scalar argument.

    Returns
    -------
    jn, jnp : Array
        Shape ``(n + 1,)`` each.

    Notes
    -----
    Computed as ``x * spherical_jn(k, x)`` and ``spherical_jn(k, x) + x *
    spherical_jn(k, x, True)``.  Transformations: jit and grad in ``x``;
    ``x`` must be a scalar (as in SciPy), so vmap over ``x`` is the way to
    batch.

    Examples
    --------
    >>> from sciax.special import riccati_jn
    >>> jn, jnp = riccati_jn(2, 1.5)
    >>> print(np.round(jn, 6), np.round(jnp, 6))
    [0.997495 0.594259 0.191024] [0.070737 0.601322 0.339561]
    """
    return _riccati("riccati_jn", _bessel.spherical_jn, n, x)


def riccati_yn(n: int, x: Any) -> tuple:
    r"""Riccati-Bessel functions of the second kind and their derivatives.

    sciax implementation of :func:`scipy.special.riccati_yn`:
    :math:`C_k(x) = x y_k(x)` and :math:`C_k'(x)` for ``k = 0 .. n``.
    See :func:`riccati_jn`.  At ``x = 0`` the infinite limits for
    ``k >= 1`` are returned as SciPy returns them, ``-1e300`` and ``1e300``.

    Examples
    --------
    >>> from sciax.special import riccati_yn
    >>> yn, ynp = riccati_yn(2, 1.0)
    >>> print(np.round(yn, 6), np.round(ynp, 6))
    [-0.540302 -1.381773 -3.605018] [0.841471 0.841471 5.828262]
    """
    return _riccati("riccati_yn", _bessel.spherical_yn, n, x)


# --------------------------------------------------------------------------
# Elementary and combinatorial functions
# --------------------------------------------------------------------------

@sciax.custom_jvp
def _softplus(x):
    return snp.logaddexp(snp.zeros_like(x), x)


@_softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _softplus(x), expit(x) * t


def softplus(x: Any, **kwargs: Any) -> Any:
    """The softplus function, ``log(1 + exp(x))``.

    sciax implementation of :func:`scipy.special.softplus`.

    Parameters
    ----------
    x : array_like
    **kwargs
        SciPy passes them to ``np.logaddexp`` (``out``, ``where``, ...);
        only ``dtype`` is accepted here (arrays are immutable).

    Returns
    -------
    Array

    Notes
    -----
    ``logaddexp(0, x)``, with derivative ``expit(x)`` (no overflow for large
    ``|x|``).  Transformations: jit, vmap, grad.

    Examples
    --------
    >>> from sciax.special import softplus
    >>> print(np.round(softplus(np.array([-800.0, 0.0, 1.0, 40.0])), 6))
    [ 0.        0.693147  1.313262 40.      ]
    """
    bad = set(kwargs) - {"dtype"}
    if bad:
        raise TypeError(f"softplus: unsupported keyword arguments {sorted(bad)}")
    x = snp.asarray(x, dtype=kwargs.get("dtype"))
    if not snp.issubdtype(x.dtype, snp.inexact):
        x = x.astype(snp.result_type(x.dtype, 1.0))
    return _softplus(x)


def assoc_laguerre(x: Any, n: Any, k: Any = 0.0) -> Any:
    r"""Generalized Laguerre polynomial :math:`L_n^{(k)}(x)`.

    sciax implementation of :func:`scipy.special.assoc_laguerre` (SciPy's
    argument order: ``x`` first); the same as ``eval_genlaguerre(n, k, x)``.

    Examples
    --------
    >>> from sciax.special import assoc_laguerre
    >>> print(np.round(assoc_laguerre(0.5, 2, 1.5), 6))
    2.75
    """
    return _orthogonal.eval_genlaguerre(n, k, x)


def diric(x: Any, n: Any) -> Any:
    r"""Periodic sinc (Dirichlet) function, :math:`\sin(nx/2) / (n \sin(x/2))`.

    sciax implementation of :func:`scipy.special.diric`.

    Parameters
    ----------
    x : array_like
    n : array_like
        Positive integer degree; other values give NaN.

    Returns
    -------
    Array

    Notes
    -----
    Where ``|sin(x/2)|`` is below SciPy's threshold (1e-7 in double, 1e-3
    in single precision) the limit ``(-1)^{(n - 1) round(x/2pi)}`` is
    returned, as SciPy does.  Transformations: jit, vmap, grad in ``x``
    (zero on the limit band).

    Examples
    --------
    >>> from sciax.special import diric
    >>> print(np.round(diric(np.array([0.0, 1.0, 2 * np.pi]), 4), 6))
    [ 1.        0.47416  -1.      ]
    """
    (x, n), out = U.promote_real("diric", x, n)
    minval = 1e-7 if snp.finfo(out).eps < 1e-15 else 1e-3
    bad = (n <= 0) | (n != snp.floor(n))
    h = 0.5 * x
    d = snp.sin(h)
    lim = snp.abs(d) < minval
    ds = snp.where(lim, 1.0, d)
    val = snp.sin(n * h) / (n * ds)
    sign = snp.where(U.is_int(0.5 * (snp.round(h / math.pi) * (n - 1))), 1.0, -1.0)
    val = snp.where(lim, sign, val)
    return U.finish(out, snp.where(bad, snp.nan, val))


def factorialk(n: Any, k: Any, exact: bool = False, extend: str = "zero") -> Any:
    r"""Multifactorial of ``n`` of order ``k``, ``n(!!...!)``.

    sciax implementation of :func:`scipy.special.factorialk`.

    Parameters
    ----------
    n : array_like of int
    k : int
        Order (positive integer).
    exact : bool, default False
        Exact Python integers (concrete input only, not traceable).
    extend : {'zero'}
        Only ``'zero'`` (negative ``n`` give 0) is supported.

    Returns
    -------
    Array or int

    Notes
    -----
    ``exact=False`` uses SciPy's interpolation ``k^{(n-r)/k} Gamma(n/k + 1) /
    Gamma(r/k + 1) max(r, 1)`` with ``r = n mod k``.

    Examples
    --------
    >>> from sciax.special import factorialk
    >>> print(np.round(factorialk(np.array([5, 7, 9]), 3), 6))
    [ 10.  28. 162.]
    >>> factorialk(9, 3, exact=True)
    162
    """
    if extend != "zero":
        raise NotImplementedError("factorialk: only extend='zero' is supported")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"factorialk: k must be a positive integer, got {k!r}")
    k = int(k)
    if exact:
        (v,) = _gamma._concrete_int("factorialk", n)
        return _gamma._exact(lambda m: math.prod(range(m, 0, -k)) if m >= 0 else 0, v)
    n = snp.asarray(n)
    nf = n.astype(snp.result_type(n.dtype, 1.0))
    neg = nf < 0
    m = snp.where(neg, 0.0, nf)
    r = snp.remainder(m, float(k))
    val = (snp.power(float(k), (m - r) / k) * _gamma.gamma(m / k + 1.0)
           / _gamma.gamma(r / k + 1.0) * snp.maximum(r, 1.0))
    return snp.where(neg, 0.0, val)


def _host_ints(name: str, *args: Any) -> list[np.ndarray]:
    try:
        vals = [np.asarray(a) for a in args]
    except Exception as e:  # a tracer
        raise TypeError(f"{name} needs concrete integer arguments (it counts "
                        "with exact integers on the host)") from e
    return vals


def stirling2(N: Any, K: Any, *, exact: bool = False) -> Any:
    r"""Stirling numbers of the second kind, :math:`{N \brace K}`.

    sciax implementation of :func:`scipy.special.stirling2`.

    Parameters
    ----------
    N, K : array_like of int
        Broadcast together; negative values give 0.
    exact : bool, default False
        Return Python integers (an object array for arrays) instead of floats.

    Returns
    -------
    Array or int

    Notes
    -----
    Exact integer recurrence ``S(n, k) = k S(n-1, k) + S(n-1, k-1)`` on the
    host, then one rounding to float64 (SciPy uses floating-point dynamic
    programming for ``N <= 50`` and Temme's approximation, relative error up
    to 5e-5, beyond).  Not traceable (concrete integers only); huge ``N``
    overflow to ``inf``.

    Examples
    --------
    >>> from sciax.special import stirling2
    >>> stirling2(np.array([5, 6]), np.array([2, 3]))
    Array([15., 90.], dtype=float64)
    >>> stirling2(20, 5, exact=True)
    749206090500
    """
    n, k = np.broadcast_arrays(*_host_ints("stirling2", N, K))
    for a in (n, k):
        if a.dtype.kind not in "iub":
            raise TypeError(f"stirling2: N and K must be integers, got {a.dtype}")
    table: dict[int, list[int]] = {}

    def row(m: int) -> list[int]:
        if m not in table:
            r = [1]
            for _ in range(m):
                r = [0] + [j * r[j] + r[j - 1] for j in range(1, len(r))] + [1]
            table[m] = r
        return table[m]

    def one(m: int, j: int) -> int:
        if m < 0 or j < 0 or j > m:
            return 0
        return row(m)[j]

    vals = np.vectorize(lambda a, b: one(int(a), int(b)), otypes=[object])(n, k)
    if exact:
        return int(vals[()]) if vals.ndim == 0 else _gamma._exact(lambda a: a, vals)
    f = np.vectorize(lambda a: float(a) if a < 2**1024 else math.inf,
                     otypes=[float])(vals)
    return snp.asarray(f, dtype=np.float64)


def _check_count(name: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{name}: n must be a non-negative Python integer, got {n!r}")
    return int(n)


def bernoulli(n: int) -> Any:
    r"""Bernoulli numbers :math:`B_0, \dots, B_n` (with :math:`B_1 = -1/2`).

    sciax implementation of :func:`scipy.special.bernoulli`.

    Parameters
    ----------
    n : int
        Highest index (Python integer: the output has ``n + 1`` entries).

    Returns
    -------
    Array

    Notes
    -----
    Exact rational arithmetic on the host (Akiyama-Tanigawa), rounded once.

    Examples
    --------
    >>> from sciax.special import bernoulli
    >>> print(np.round(bernoulli(4), 6))
    [ 1.       -0.5       0.166667  0.       -0.033333]
    """
    m = _check_count("bernoulli", n)
    out, a = [], [Fraction(0)] * (m + 1)
    for i in range(m + 1):
        a[i] = Fraction(1, i + 1)
        for j in range(i, 0, -1):
            a[j - 1] = j * (a[j - 1] - a[j])
        out.append(a[0])
    if m >= 1:
        out[1] = -out[1]          # Akiyama-Tanigawa gives B_1 = +1/2
    return snp.asarray(np.array([float(b) for b in out]))


def euler(n: int) -> Any:
    r"""Euler numbers :math:`E_0, \dots, E_n`.

    sciax implementation of :func:`scipy.special.euler`.

    Parameters
    ----------
    n : int
        Highest index (Python integer: the output has ``n + 1`` entries).

    Returns
    -------
    Array

    Notes
    -----
    Exact integers on the host (``sum_k C(2m, 2k) E_{2k} = 0``), rounded once.

    Examples
    --------
    >>> from sciax.special import euler
    >>> print(euler(6))
    [  1.   0.  -1.   0.   5.   0. -61.]
    """
    m = _check_count("euler", n)
    e = [0] * (m + 1)
    e[0] = 1
    for i in range(2, m + 1, 2):
        e[i] = -sum(math.comb(i, j) * e[j] for j in range(0, i, 2))
    return snp.asarray(np.array([float(v) for v in e]))


# --------------------------------------------------------------------------
# Gauss rules: shifted and scaled variants, and SciPy's short aliases
# --------------------------------------------------------------------------

def _rule(x, w, m, mu):
    return (x, w, m) if mu else (x, w)


def roots_sh_legendre(n: int, mu: bool = False) -> tuple:
    """Gauss-Legendre nodes and weights on ``[0, 1]`` (total weight 1).

    sciax implementation of :func:`scipy.special.roots_sh_legendre`; the
    rule of :func:`roots_legendre` mapped by ``x -> (x + 1)/2``.

    Examples
    --------
    >>> from sciax.special import roots_sh_legendre
    >>> x, w = roots_sh_legendre(2)
    >>> print(np.round(x, 6), np.round(w, 6))
    [0.211325 0.788675] [0.5 0.5]
    """
    x, w = _orthogonal.roots_legendre(n)
    return _rule((x + 1.0) / 2.0, w / 2.0, 1.0, mu)


def roots_sh_chebyt(n: int, mu: bool = False) -> tuple:
    """Gauss nodes and weights for the shifted Chebyshev polynomials ``T*``.

    sciax implementation of :func:`scipy.special.roots_sh_chebyt`: the
    :func:`roots_chebyt` rule with nodes mapped to ``[0, 1]`` (SciPy keeps
    the weights, total ``pi``).

    Examples
    --------
    >>> from sciax.special import roots_sh_chebyt
    >>> x, w = roots_sh_chebyt(2)
    >>> print(np.round(x, 6), np.round(w, 6))
    [0.146447 0.853553] [1.570796 1.570796]
    """
    xw = _orthogonal.roots_chebyt(n, mu)
    return ((xw[0] + 1.0) / 2.0,) + tuple(xw[1:])


def roots_sh_chebyu(n: int, mu: bool = False) -> tuple:
    """Gauss nodes and weights for the shifted Chebyshev polynomials ``U*``.

    sciax implementation of :func:`scipy.special.roots_sh_chebyu` (weight
    ``sqrt(x - x^2)`` on ``[0, 1]``, total ``pi/8``).

    Examples
    --------
    >>> from sciax.special import roots_sh_chebyu
    >>> x, w = roots_sh_chebyu(2)
    >>> print(np.round(x, 6), np.round(w, 6))
    [0.25 0.75] [0.19635 0.19635]
    """
    x, w, m = _orthogonal.roots_chebyu(n, True)
    m_us = math.pi / 8.0
    return _rule((x + 1.0) / 2.0, w * (m_us / m), m_us, mu)


def roots_sh_jacobi(n: int, p1: float, q1: float, mu: bool = False) -> tuple:
    """Gauss nodes and weights for the shifted Jacobi polynomials.

    sciax implementation of :func:`scipy.special.roots_sh_jacobi` (weight
    ``(1 - x)^(p1 - q1) x^(q1 - 1)`` on ``[0, 1]``).

    Raises
    ------
    ValueError
        Unless ``p1 - q1 > -1`` and ``q1 > 0``.

    Examples
    --------
    >>> from sciax.special import roots_sh_jacobi
    >>> x, w = roots_sh_jacobi(2, 2.0, 1.0)
    >>> print(np.round(x, 6), np.round(w, 6))
    [0.155051 0.644949] [0.318041 0.181959]
    """
    if (p1 - q1) <= -1 or q1 <= 0:
        raise ValueError("roots_sh_jacobi: (p - q) must be greater than -1, "
                         "and q must be greater than 0.")
    x, w, m = _orthogonal.roots_jacobi(n, p1 - q1, q1 - 1, True)
    scale = 2.0**p1
    return _rule((x + 1.0) / 2.0, w / scale, m / scale, mu)


def roots_chebyc(n: int, mu: bool = False) -> tuple:
    """Gauss nodes and weights for the Chebyshev polynomials ``C_n`` on ``[-2, 2]``.

    sciax implementation of :func:`scipy.special.roots_chebyc`: the
    :func:`roots_chebyt` rule scaled by 2.

    Examples
    --------
    >>> from sciax.special import roots_chebyc
    >>> x, w = roots_chebyc(2)
    >>> print(np.round(x, 6), np.round(w, 6))
    [-1.414214  1.414214] [3.141593 3.141593]
    """
    x, w, m = _orthogonal.roots_chebyt(n, True)
    return _rule(2.0 * x, 2.0 * w, 2.0 * m, mu)


def roots_chebys(n: int, mu: bool = False) -> tuple:
    """Gauss nodes and weights for the Chebyshev polynomials ``S_n`` on ``[-2, 2]``.

    sciax implementation of :func:`scipy.special.roots_chebys`: the
    :func:`roots_chebyu` rule scaled by 2.

    Examples
    --------
    >>> from sciax.special import roots_chebys
    >>> x, w = roots_chebys(2)
    >>> print(np.round(x, 6), np.round(w, 6))
    [-1.  1.] [1.570796 1.570796]
    """
    x, w, m = _orthogonal.roots_chebyu(n, True)
    return _rule(2.0 * x, 2.0 * w, 2.0 * m, mu)


# SciPy's legacy short names (scipy.special keeps them as aliases).
p_roots = _orthogonal.roots_legendre
t_roots = _orthogonal.roots_chebyt
u_roots = _orthogonal.roots_chebyu
c_roots = roots_chebyc
s_roots = roots_chebys
j_roots = _orthogonal.roots_jacobi
l_roots = _orthogonal.roots_laguerre
la_roots = _orthogonal.roots_genlaguerre
h_roots = _orthogonal.roots_hermite
he_roots = _orthogonal.roots_hermitenorm
cg_roots = _orthogonal.roots_gegenbauer
js_roots = roots_sh_jacobi
ps_roots = roots_sh_legendre
ts_roots = roots_sh_chebyt
us_roots = roots_sh_chebyu


# --------------------------------------------------------------------------
# Kelvin functions: ber + i bei = I_0(x w), ker + i kei = K_0(x w), w = e^{i pi/4}
# --------------------------------------------------------------------------
# Three regions, each accurate to a few ulp of |I_0(xw)| (|K_0(xw)|), the
# envelope of the oscillating real and imaginary parts (checked against
# mpmath on [0, 50] at 600 points: at most 5e-15 relative to it):
#   x < 2    power series (DLMF 10.25.2, 10.31.2), 16 terms;
#   2 <= x   trapezoidal rule: I_0(z) = (1/pi) int_0^pi e^{z cos t} dt is
#            periodic and entire, 40 panels converge to below 1e-17 for
#            |z| < 35 with no cancellation worse than sqrt(2 pi x);
#            K_0(z) = int_0^inf e^{-z cosh t} dt (Re z > 0) is analytic in
#            the strip |Im t| < pi/4, step 0.1 to t = 4.1 is exhausted for
#            2 <= x < 20 (the error grows like e^{x(1 - cos d)/sqrt 2} with
#            x, so larger x go to the next region);
#   large x  Hankel's expansions (DLMF 10.40.2, 10.40.5 without the
#            exponentially small e^{-z} term), 30 terms, for I_0 from x = 35
#            and K_0 from x = 20 (the omitted term of the K_0 series is
#            below 1e-20 there).
# Derivatives (berp, ..., keip) are forward-mode derivatives of the same
# expressions, i.e. the same three methods applied to I_0' = I_1, K_0' = -K_1.

_W = complex(math.cos(math.pi / 4), math.sin(math.pi / 4))
_KEL_SERIES_X, _I_ASY_X, _K_ASY_X = 2.0, 35.0, 20.0
_I_PANELS = 40
_K_STEP, _K_NODES = 0.1, 42
_KEL_ASY = [1.0]
for _k in range(1, 30):
    _KEL_ASY.append(_KEL_ASY[-1] * (2 * _k - 1) ** 2 / (8 * _k))
del _k


def _kelvin_series(x, cdt):
    q = (0.25 * x * x).astype(cdt) * 1j
    t = snp.ones_like(q)
    s, sk, h = t, snp.zeros_like(q), 0.0
    for m in range(1, 17):
        t = t * q / float(m * m)
        h += 1.0 / m
        s, sk = s + t, sk + h * t
    logc = (snp.log(0.5 * x) + np.euler_gamma).astype(cdt) + 1j * (math.pi / 4)
    return s, sk - logc * s


def _kelvin_quad(xi, xk, cdt):
    th = np.cos(np.pi * np.arange(_I_PANELS + 1) / _I_PANELS)
    wi = np.full(_I_PANELS + 1, 1.0 / _I_PANELS)
    wi[[0, -1]] *= 0.5
    zi = (xi.astype(cdt) * _W)[..., None]
    i0 = snp.sum(snp.exp(zi * th.astype(cdt)) * wi.astype(cdt), axis=-1)
    ch = np.cosh(_K_STEP * np.arange(_K_NODES))
    wk = np.full(_K_NODES, _K_STEP)
    wk[0] *= 0.5
    zk = (xk.astype(cdt) * _W)[..., None]
    k0 = snp.sum(snp.exp(-zk * ch.astype(cdt)) * wk.astype(cdt), axis=-1)
    return i0, k0


def _kelvin_asy(xi, xk, cdt):
    def series(x, sign):
        r = 1.0 / (x.astype(cdt) * _W)
        s = snp.zeros_like(r)
        for k in reversed(range(len(_KEL_ASY))):
            s = s * r * sign + _KEL_ASY[k]
        return s

    zi, zk = xi.astype(cdt) * _W, xk.astype(cdt) * _W
    # e^z / sqrt(2 pi z) with the modulus and phase kept apart (no overflow
    # before the result itself overflows)
    i0 = snp.exp(zi - 0.5 * snp.log(2.0 * math.pi * zi)) * series(xi, 1.0)
    k0 = snp.exp(-zk + 0.5 * snp.log(0.5 * math.pi / zk)) * series(xk, -1.0)
    return i0, k0


def _kelvin_core(x):
    """``(I_0(x w), K_0(x w))`` for ``x >= 0`` (complex)."""
    cdt = snp.result_type(x.dtype, np.complex64)
    ser = x < _KEL_SERIES_X
    ia, ka = x >= _I_ASY_X, x >= _K_ASY_X
    i_s, k_s = _kelvin_series(snp.where(ser, x, 1.0), cdt)
    i_q, k_q = _kelvin_quad(snp.where(ser | ia, 3.0, x), snp.where(ser | ka, 3.0, x),
                            cdt)
    i_a, k_a = _kelvin_asy(snp.where(ia, x, _I_ASY_X), snp.where(ka, x, _K_ASY_X), cdt)
    i0 = snp.where(ser, i_s, snp.where(ia, i_a, i_q))
    k0 = snp.where(ser, k_s, snp.where(ka, k_a, k_q))
    return i0, k0


def _kelvin_all(x, deriv):
    """``(Be, Ke)`` (``deriv``: their x-derivatives) for real ``x``:
    ``Be`` is even in ``x`` (``Be'`` odd), ``Ke`` is NaN for ``x < 0``."""
    ax = snp.abs(x)
    xs = snp.where(snp.isfinite(ax) & (ax > 0), ax, 1.0)
    if deriv:
        (i0, k0), (di, dk) = sciax.jvp(_kelvin_core, (xs,), (snp.ones_like(xs),))
        be = snp.where(x < 0, -di, di)
        ke = dk
    else:
        be, ke = _kelvin_core(xs)
    cdt = be.dtype
    zero = ax == 0
    if deriv:
        be = snp.where(zero, snp.zeros_like(be), be)
        ke = snp.where(zero, snp.asarray(complex(-np.inf, 0.0), cdt), ke)
    else:
        be = snp.where(zero, snp.ones_like(be), be)
        ke = snp.where(zero, snp.asarray(complex(np.inf, -math.pi / 4), cdt), ke)
    nan = snp.asarray(complex(np.nan, np.nan), cdt)
    ke = snp.where((x < 0) | ~snp.isfinite(x), nan, ke)
    be = snp.where(~snp.isfinite(x), nan, be)
    return be, ke


def _kelvin_part(name, deriv, which, imag, doc, example):
    def f(x: Any) -> Any:
        (x,), out = U.promote_real(name, x)
        r = _kelvin_all(x, deriv)[which]
        return U.finish(out, r.imag if imag else r.real)

    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    part = "imaginary" if imag else "real"
    of = "the derivative of " if deriv else ""
    fn = "K_0" if which else "I_0"
    f.__doc__ = f"""{doc}

    sciax implementation of :func:`scipy.special.{name}`.

    Parameters
    ----------
    x : array_like
        Real argument{" (NaN for x < 0, as in SciPy)" if which else ""}.

    Returns
    -------
    Array

    Notes
    -----
    The {part} part of {of}:math:`{fn}(x e^{{i\\pi/4}})`: power series for
    ``x < 2``, the trapezoidal rule on an integral representation for
    moderate ``x`` and Hankel's expansion for large ``x``; within 3e-14 of
    the envelope :math:`|{fn}(x e^{{i\\pi/4}})|` (mpmath).
    Relative to the function itself the error grows without bound near its
    zeros, as for any oscillating function.  Transformations: jit, vmap,
    grad (any order).

    Examples
    --------
    >>> from sciax.special import {name}
    >>> print(np.round({name}(np.array([0.5, 2.0, 10.0])), 6))
    {example}
    """
    return f


ber = _kelvin_part("ber", False, 0, False, "Kelvin function ber.",
                   "[  0.999023   0.751734 138.840466]")
bei = _kelvin_part("bei", False, 0, True, "Kelvin function bei.",
                   "[ 0.062493  0.972292 56.370459]")
ker = _kelvin_part("ker", False, 1, False, "Kelvin function ker.",
                   "[ 8.55906e-01 -4.16650e-02  1.29000e-04]")
kei = _kelvin_part("kei", False, 1, True, "Kelvin function kei.",
                   "[-6.71582e-01 -2.02400e-01 -3.08000e-04]")
berp = _kelvin_part("berp", True, 0, False, "Derivative of the Kelvin function ber.",
                    "[-7.8120000e-03 -4.9306700e-01  5.1195258e+01]")
beip = _kelvin_part("beip", True, 0, True, "Derivative of the Kelvin function bei.",
                    "[  0.249919   0.917014 135.309302]")
kerp = _kelvin_part("kerp", True, 1, False, "Derivative of the Kelvin function ker.",
                    "[-1.81980e+00 -1.06601e-01 -3.16000e-04]")
keip = _kelvin_part("keip", True, 1, True, "Derivative of the Kelvin function kei.",
                    "[3.33204e-01 2.19808e-01 1.41000e-04]")


def kelvin(x: Any) -> tuple:
    r"""Kelvin functions as complex numbers.

    sciax implementation of :func:`scipy.special.kelvin`.

    Parameters
    ----------
    x : array_like
        Real argument.

    Returns
    -------
    Be, Ke, Bep, Kep : Array
        ``ber + i bei``, ``ker + i kei`` and their derivatives (complex).

    Notes
    -----
    See :func:`ber`: :math:`\mathrm{Be}(x) = I_0(x e^{i\pi/4})`,
    :math:`\mathrm{Ke}(x) = K_0(x e^{i\pi/4})`.  Transformations: jit,
    vmap, grad of the real or imaginary parts.

    Examples
    --------
    >>> from sciax.special import kelvin
    >>> be, ke, bep, kep = kelvin(2.0)
    >>> print(np.round(complex(be), 6), np.round(complex(kep), 6))
    (0.751734+0.972292j) (-0.106601+0.219808j)
    """
    (x,), out = U.promote_real("kelvin", x)
    be, ke = _kelvin_all(x, False)
    bep, kep = _kelvin_all(x, True)
    return U.finish(out, be, ke, bep, kep)


# --------------------------------------------------------------------------
# Zeros of integer-order Bessel functions and their derivatives
# --------------------------------------------------------------------------
# Host-side drivers over one jitted sciax kernel: J_n, Y_n, J_n' and Y_n' are
# sampled every 0.5 from n/2 (no zero of these lies below n, and consecutive
# zeros are more than 2 apart), sign changes bracket the zeros, three
# bisections narrow each bracket to 1/16 and five Newton steps (the second
# derivative from Bessel's equation) converge to a few ulp.  Every call of the
# kernel (sciax's jitted J/Y kernel itself) is padded to a multiple of
# _ZERO_PAD points, so that all sizes and kinds share one compiled program
# (and with any other J/Y evaluation of that size).

_ZERO_PAD = 256


def _cyl_eval(n, x, kind):
    """``(f, f')`` at ``x`` for ``f`` = J_n, Y_n, J_n', Y_n' (``kind`` 0..3),
    from one call of the jitted J/Y kernel on a padded size."""
    size = -(-x.size // _ZERO_PAD) * _ZERO_PAD
    xp = np.full(size, max(float(n), 1.0))
    xp[: x.size] = x
    out = _bessel._jy_real(np.full(size, float(n)), xp)
    try:
        j, y, jp, yp = (np.asarray(a)[: x.size] for a in out)
    except TypeError as e:
        raise TypeError(
            "the Bessel-zero functions compute on the host and return NumPy "
            "arrays; call them outside jit/vmap/grad (their arguments are "
            "Python integers, so the zeros are constants)") from e
    if kind < 2:
        return (j, jp) if kind == 0 else (y, yp)
    q = 1.0 - (n / x) ** 2          # Bessel's equation gives f''
    return (jp, -jp / x - q * j) if kind == 2 else (yp, -yp / x - q * y)


def _cyl_zeros(name, n, nt, kind):
    if isinstance(n, bool) or isinstance(nt, bool) or not (
            isinstance(n, (int, np.integer)) and isinstance(nt, (int, np.integer))):
        raise ValueError(f"{name}: arguments must be Python integers (static "
                         f"sizes), got {n!r}, {nt!r}")
    if nt <= 0:
        raise ValueError(f"{name}: nt must be positive, got {nt}")
    n = abs(int(n))
    return _scan_zeros(lambda x: _cyl_eval(n, x, kind), max(0.5 * n, 0.05),
                       (nt + 0.5 * n + 1.0) * math.pi + 2.0, nt)


def _scan_zeros(fn, start, stop, nt):
    """The first ``nt`` zeros above ``start`` of ``fn(x) -> (f, f')``, whose
    zeros are more than 1/2 apart; the scan is extended past ``stop`` as
    needed."""
    while True:
        g = np.arange(start, stop, 0.5)
        f = fn(g)[0]
        idx = np.nonzero(np.sign(f[:-1]) * np.sign(f[1:]) < 0)[0]
        if idx.size >= nt:
            break
        stop = 2.0 * stop
    idx = idx[:nt]
    a, b, fa = g[idx], g[idx + 1], f[idx]
    for _ in range(3):
        m = 0.5 * (a + b)
        fm = fn(m)[0]
        left = np.sign(fm) == np.sign(fa)
        a, fa = np.where(left, m, a), np.where(left, fm, fa)
        b = np.where(left, b, m)
    x = 0.5 * (a + b)
    for _ in range(5):
        fx, fpx = fn(x)
        x = x - fx / fpx
    return x


def jn_zeros(n: int, nt: int) -> np.ndarray:
    r"""First ``nt`` positive zeros of :math:`J_n(x)`.

    sciax implementation of :func:`scipy.special.jn_zeros`.

    Parameters
    ----------
    n : int
        Integer order (``|n|`` is used: :math:`J_{-n} = (-1)^n J_n`).
    nt : int
        Number of zeros (a positive Python integer).

    Returns
    -------
    numpy.ndarray
        Shape ``(nt,)``, float64, increasing.

    Notes
    -----
    Computed on the host with sciax's own :math:`J_n`: a sign-change scan
    (step 1/2 from ``n/2``), three bisections and five Newton steps with the
    jitted Bessel kernel, so the result is a NumPy array, as in SciPy, and
    the arguments must be Python integers (TypeError under jit).  Agrees with
    mpmath's ``besseljzero`` to about 1e-15 relative.

    Examples
    --------
    >>> from sciax.special import jn_zeros
    >>> print(np.round(jn_zeros(1, 3), 6))
    [ 3.831706  7.015587 10.173468]
    """
    return _cyl_zeros("jn_zeros", n, nt, 0)


def yn_zeros(n: int, nt: int) -> np.ndarray:
    r"""First ``nt`` positive zeros of :math:`Y_n(x)`.

    sciax implementation of :func:`scipy.special.yn_zeros`; see
    :func:`jn_zeros` for the method.

    Examples
    --------
    >>> from sciax.special import yn_zeros
    >>> print(np.round(yn_zeros(0, 3), 6))
    [0.893577 3.957678 7.086051]
    """
    return _cyl_zeros("yn_zeros", n, nt, 1)


def jnp_zeros(n: int, nt: int) -> np.ndarray:
    r"""First ``nt`` positive zeros of :math:`J_n'(x)` (``x = 0`` excluded).

    sciax implementation of :func:`scipy.special.jnp_zeros`; see
    :func:`jn_zeros` for the method.

    Examples
    --------
    >>> from sciax.special import jnp_zeros
    >>> print(np.round(jnp_zeros(0, 3), 6))
    [ 3.831706  7.015587 10.173468]
    """
    return _cyl_zeros("jnp_zeros", n, nt, 2)


def ynp_zeros(n: int, nt: int) -> np.ndarray:
    r"""First ``nt`` positive zeros of :math:`Y_n'(x)`.

    sciax implementation of :func:`scipy.special.ynp_zeros`; see
    :func:`jn_zeros` for the method.

    Examples
    --------
    >>> from sciax.special import ynp_zeros
    >>> print(np.round(ynp_zeros(0, 3), 6))
    [2.197141 5.429681 8.596006]
    """
    return _cyl_zeros("ynp_zeros", n, nt, 3)


def jnyn_zeros(n: int, nt: int) -> tuple:
    r"""First ``nt`` zeros of :math:`J_n, J_n', Y_n, Y_n'`.

    sciax implementation of :func:`scipy.special.jnyn_zeros`; see
    :func:`jn_zeros` for the method.

    Returns
    -------
    Jn, Jnp, Yn, Ynp : numpy.ndarray

    Examples
    --------
    >>> from sciax.special import jnyn_zeros
    >>> print(np.round(jnyn_zeros(2, 2)[3], 6))
    [5.002583 8.350725]
    """
    return tuple(_cyl_zeros("jnyn_zeros", n, nt, k) for k in (0, 2, 1, 3))


def _y_zeros(name, nt, complex, kind, order):
    if complex:
        raise NotImplementedError(f"{name}: complex zeros are not supported")
    z = _cyl_zeros(name, order, nt, kind)
    fp = _cyl_eval(order, z, kind)[1]
    if order == 0:
        fp = -fp      # SciPy's values (see y0_zeros)
    # SciPy returns complex arrays even for the real zeros
    return z.astype(np.complex128), fp.astype(np.complex128)


def y0_zeros(nt: int, complex: bool = False) -> tuple:
    r"""Zeros of :math:`Y_0(x)` and :math:`Y_0'` at them.

    sciax implementation of :func:`scipy.special.y0_zeros` for real zeros
    (``complex=True``, the zeros in the complex plane, raises
    NotImplementedError).  Host-side, as :func:`jn_zeros`.

    Returns
    -------
    z0n, y0pz0n : numpy.ndarray
        Complex128 (as SciPy returns them), with zero imaginary parts.

    Notes
    -----
    Differences from SciPy: none in the values.  SciPy documents the second
    output as :math:`Y_0'(z_0) = -Y_1(z_0)` but returns :math:`Y_1(z_0)`
    (for ``z_0 = 0.8936``, -0.8794 where :math:`Y_0'` is +0.8794); sciax
    returns the same values as SciPy.

    Examples
    --------
    >>> from sciax.special import y0_zeros
    >>> z, d = y0_zeros(2)
    >>> print(np.round(z.real, 6), np.round(d.real, 6))
    [0.893577 3.957678] [-0.879421  0.402543]
    """
    return _y_zeros("y0_zeros", nt, complex, 1, 0)


def y1_zeros(nt: int, complex: bool = False) -> tuple:
    r"""Zeros of :math:`Y_1(x)` and :math:`Y_1'` at them.

    sciax implementation of :func:`scipy.special.y1_zeros` (real zeros
    only); see :func:`y0_zeros`.

    Examples
    --------
    >>> from sciax.special import y1_zeros
    >>> z, d = y1_zeros(2)
    >>> print(np.round(z.real, 6), np.round(d.real, 6))
    [2.197141 5.429681] [ 0.520786 -0.340318]
    """
    return _y_zeros("y1_zeros", nt, complex, 1, 1)


def y1p_zeros(nt: int, complex: bool = False) -> tuple:
    r"""Zeros of :math:`Y_1'(x)` and :math:`Y_1` at them.

    sciax implementation of :func:`scipy.special.y1p_zeros` (real zeros
    only); see :func:`y0_zeros`.

    Examples
    --------
    >>> from sciax.special import y1p_zeros
    >>> z, v = y1p_zeros(2)
    >>> print(np.round(z.real, 6), np.round(v.real, 6))
    [3.683023 6.9415  ] [ 0.41673  -0.303174]
    """
    if complex:
        raise NotImplementedError("y1p_zeros: complex zeros are not supported")
    z = _cyl_zeros("y1p_zeros", 1, nt, 3)
    f = _cyl_eval(1, z, 1)[0]
    return z.astype(np.complex128), f.astype(np.complex128)


# --------------------------------------------------------------------------
# Tukey-lambda distribution function
# --------------------------------------------------------------------------
# With p = expit(u), a = log p and b = log(1 - p), the quantile function is
# Q = (p^lam - (1-p)^lam)/lam = a exprel(lam a) - b exprel(lam b), smooth
# through lam = 0 (where Q = u) and increasing in u, with
# dQ/du = p^lam (1 - p) + (1 - p)^lam p.  tklmbda solves Q(u) = x by Newton's
# method in u, safeguarded by bisection on [-800, 800] (p = 0 or 1 beyond).

_TK_U = 800.0
_TK_STEPS = 80


def _tk_q(u, lam):
    a, b = _log_expit(u), _log_expit(-u)
    return a * _exprel(lam * a) - b * _exprel(lam * b)


def _tk_dq(u, lam):
    a, b = _log_expit(u), _log_expit(-u)
    return snp.exp(lam * a + b) + snp.exp(lam * b + a)


def _tk_solve(x, lam):
    def body(_, st):
        u, lo, hi = st
        q = _tk_q(u, lam) - x
        lo = snp.where(q <= 0, u, lo)
        hi = snp.where(q >= 0, u, hi)
        un = u - q / _tk_dq(u, lam)
        ok = snp.isfinite(un) & (un >= lo) & (un <= hi)
        un = snp.where(ok, un, 0.5 * (lo + hi))
        return snp.where(q == 0, u, un), lo, hi

    # start from the one-tail solution (p^lam - 1)/lam = x for x < 0 and
    # (1 - (1-p)^lam)/lam = x for x > 0: log p (-log(1-p)) is
    # +-log1p(+-lam x)/lam, close to u in the tails, where Newton's method in
    # u alone would creep (Q is exponential in u there when lam < 0)
    lt = -lam * snp.abs(x)
    small = snp.abs(lt) < 1e-8
    r = snp.log1p(snp.where(small | (lt <= -1.0), 0.5, lt)) / snp.where(small, 1.0, lt)
    u0 = snp.where(small, x, snp.where(lt <= -1.0, snp.sign(x) * _TK_U, x * r))
    u0 = snp.clip(snp.where(snp.isnan(u0), 0.0, u0), -_TK_U, _TK_U)
    lo, hi = snp.full_like(x, -_TK_U), snp.full_like(x, _TK_U)
    return lax.fori_loop(0, _TK_STEPS, body, (u0, lo, hi))[0]


@sciax.custom_jvp
def _tklmbda(x, lam):
    u = _tk_solve(lax.stop_gradient(x), lax.stop_gradient(lam))
    return expit(u)


@_tklmbda.defjvp
def _tklmbda_jvp(primals, tangents):
    x, lam = primals
    dx, dlam = tangents
    u = _tk_solve(x, lam)
    p = expit(u)
    # implicit function theorem on Q(u, lam) = x
    _, q_lam = sciax.jvp(lambda t: _tk_q(u, t), (lam,), (dlam,))
    w = p * (1.0 - p)
    inside = w > 0           # p rounded to 0 or 1 (or outside the support)
    du = (dx - q_lam) / snp.where(inside, _tk_dq(u, lam), 1.0)
    return p, snp.where(inside, w * du, 0.0)


def tklmbda(x: Any, lmbda: Any) -> Any:
    r"""Cumulative distribution function of the Tukey-lambda distribution.

    sciax implementation of :func:`scipy.special.tklmbda`.

    Parameters
    ----------
    x : array_like
        Real argument.
    lmbda : array_like
        Shape parameter.

    Returns
    -------
    Array
        :math:`F(x; \lambda)`, the ``p`` with
        :math:`(p^\lambda - (1-p)^\lambda)/\lambda = x` (0 below and 1 above
        the support :math:`|x| \le 1/\lambda` when :math:`\lambda > 0`).

    Notes
    -----
    The quantile equation is solved for ``u = logit(p)`` by Newton's method
    safeguarded by bisection (80 fixed steps), with the quantile written as
    ``a exprel(lmbda a) - b exprel(lmbda b)`` (``a = log p``, ``b = log(1-p)``),
    which is exact through ``lmbda = 0`` (the logistic distribution).

    Differences from SciPy: SciPy bisects to an absolute 1e-14 in ``p`` and
    returns the logistic CDF for ``|lmbda| < 1e-4`` (an error of order
    ``lmbda``); sciax's result is accurate to a few ulp relative to ``p``,
    so the two differ by up to those amounts.

    Transformations: jit, vmap, and grad in ``x`` and ``lmbda`` (implicit
    function theorem).

    Examples
    --------
    >>> from sciax.special import tklmbda
    >>> print(np.round(tklmbda(np.array([-1.0, 0.0, 0.3, 2.0]), 0.5), 6))
    [0.169281 0.5      0.605468 1.      ]
    """
    (x, lam), out = U.promote_real("tklmbda", x, lmbda)
    p = _tklmbda(x, lam)
    p = snp.where(snp.isnan(x) | snp.isnan(lam), snp.nan, p)
    return U.finish(out, p)


# --- zeros of the Kelvin functions (host-side, as the Bessel zeros) ---------

def _kelvin_pair(x):
    return _kelvin_all(x, False) + _kelvin_all(x, True)


_kelvin_pair = sciax.jit(_kelvin_pair)


def _kelvin_eval(which, x):
    """``(f, f')`` for the Kelvin function ``which`` (0..7: ber, bei, ker,
    kei, berp, beip, kerp, keip); second derivatives from Kelvin's equation
    ``F'' = i F - F'/x``."""
    size = -(-x.size // _ZERO_PAD) * _ZERO_PAD
    xp = np.full(size, 1.0)
    xp[: x.size] = x
    try:
        be, ke, bep, kep = (np.asarray(a)[: x.size] for a in _kelvin_pair(xp))
    except TypeError as e:
        raise TypeError("the Kelvin-zero functions compute on the host and return "
                        "NumPy arrays; call them outside jit/vmap/grad") from e
    f, fp = [(be, bep), (ke, kep)][(which // 2) % 2]
    if which >= 4:
        f, fp = fp, 1j * f - fp / x
    return (f.imag, fp.imag) if which % 2 else (f.real, fp.real)


def _kelvin_zeros(name, nt, which):
    if isinstance(nt, bool) or not isinstance(nt, (int, np.integer)) or nt <= 0:
        raise ValueError(f"{name}: nt must be a positive Python integer, got {nt!r}")
    # zeros are about pi sqrt(2) = 4.44 apart, the first above 1.7
    return _scan_zeros(lambda x: _kelvin_eval(which, x), 0.05, 4.45 * (nt + 1) + 3.0,
                       int(nt))


_KZ_DOC = """First ``nt`` positive zeros of the Kelvin function {f}.

    sciax implementation of :func:`scipy.special.{name}`.

    Parameters
    ----------
    nt : int
        Number of zeros (a positive Python integer).

    Returns
    -------
    numpy.ndarray
        Shape ``(nt,)``, float64.

    Notes
    -----
    Host-side, as :func:`jn_zeros`: a sign-change scan of sciax's own
    Kelvin functions (see :func:`ber`), bisection and Newton steps (second
    derivatives from Kelvin's equation); the result is a NumPy array, as in
    SciPy.  Not traceable (TypeError under jit).

    Examples
    --------
    >>> from sciax.special import {name}
    >>> print(np.round({name}(3), 6))
    {ex}
    """


def _kelvin_zero_fn(name, which, f, ex):
    def fn(nt: int) -> np.ndarray:
        return _kelvin_zeros(name, nt, which)

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    fn.__doc__ = _KZ_DOC.format(f=f, name=name, ex=ex)
    return fn


ber_zeros = _kelvin_zero_fn("ber_zeros", 0, "ber", "[ 2.848918  7.238829 11.673964]")
bei_zeros = _kelvin_zero_fn("bei_zeros", 1, "bei", "[ 5.026224  9.455406 13.893488]")
ker_zeros = _kelvin_zero_fn("ker_zeros", 2, "ker", "[ 1.718543  6.127279 10.562943]")
kei_zeros = _kelvin_zero_fn("kei_zeros", 3, "kei", "[ 3.914668  8.344225 12.782557]")
berp_zeros = _kelvin_zero_fn("berp_zeros", 4, "ber'", "[ 6.038711 10.513643 14.968445]")
beip_zeros = _kelvin_zero_fn("beip_zeros", 5, "bei'", "[ 3.772673  8.280988 12.742148]")
kerp_zeros = _kelvin_zero_fn("kerp_zeros", 6, "ker'", "[ 2.66584   7.172122 11.632186]")
keip_zeros = _kelvin_zero_fn("keip_zeros", 7, "kei'", "[ 4.931812  9.404055 13.858269]")


def kelvin_zeros(nt: int) -> tuple:
    """First ``nt`` zeros of all eight Kelvin functions.

    sciax implementation of :func:`scipy.special.kelvin_zeros`.

    Returns
    -------
    tuple of numpy.ndarray
        Zeros of ber, bei, ker, kei, ber', bei', ker', kei' (see
        :func:`ber_zeros`).

    Examples
    --------
    >>> from sciax.special import kelvin_zeros
    >>> print(np.round(kelvin_zeros(2)[2], 6))
    [1.718543 6.127279]
    """
    return tuple(_kelvin_zeros("kelvin_zeros", nt, k) for k in range(8))


# --------------------------------------------------------------------------
# Wright's generalized Bessel function
# --------------------------------------------------------------------------
# Phi(a, b; x) = sum_k x^k / (k! Gamma(a k + b)) has positive terms for
# a, b, x >= 0, so the series summed in log space (a running log-sum-exp,
# no overflow) is accurate for any x; it is summed until the terms, past
# their peak near k = (x / a^a)^(1/(1+a)), fall below e^-40 of the sum.  The
# order derivatives are the same sums weighted by -psi(a k + b) (b) and
# -k psi(a k + b) (a); d/dx Phi(a, b; x) = Phi(a, a + b; x).  a = 0 is
# e^x / Gamma(b) in closed form.

_WB_MAXITER = 20000


def _wb_sums(a, b, x):
    """``(m, s, sa, sb)``: ``log Phi = m + log s``, ``dPhi/da = e^m sa``,
    ``dPhi/db = e^m sb``."""
    lx = snp.log(snp.where(x > 0, x, 1.0))
    zero_x = x == 0

    def body(k, st):
        m, s, sa, sb, prev = st
        c = a * k + b
        cpos = c > 0
        cs = snp.where(cpos, c, 1.0)
        lt = (snp.where(k == 0, 0.0, k * lx) - _gamma.gammaln(k + 1.0)
              - _gamma.gammaln(cs))
        lt = snp.where(cpos & (~zero_x | (k == 0)), lt, -snp.inf)
        mn = snp.maximum(m, lt)
        mn_s = snp.where(snp.isfinite(mn), mn, 0.0)
        r, e = snp.exp(m - mn_s), snp.exp(lt - mn_s)
        psi = _gamma.digamma(cs)
        s, sa, sb = s * r + e, sa * r - k * psi * e, sb * r - psi * e
        more = (lt > prev) | (lt > mn - 40.0) | (k < 2)
        more = more & ~(zero_x & (k >= 1))
        return (mn, s, sa, sb, lt), more

    z = snp.zeros_like(x)
    init = (z - snp.inf, z, z, z, z - snp.inf)
    m, s, sa, sb, _ = U.masked_loop(body, init, snp.ones(x.shape, bool), _WB_MAXITER)
    return m, s, sa, sb


def _wb_log(a, b, x):
    m, s, sa, sb = _wb_sums(a, b, x)
    return m + snp.log(s), sa / s, sb / s


@sciax.custom_jvp
def _log_wb(a, b, x):
    a0 = a == 0
    lw = _wb_log(snp.where(a0, 1.0, a), b, x)[0]
    closed = x - _gamma.gammaln(snp.where(b > 0, b, 1.0))
    closed = snp.where(b > 0, closed, -snp.inf)
    return snp.where(a0, closed, lw)


@_log_wb.defjvp
def _log_wb_jvp(primals, tangents):
    a, b, x = primals
    da, db, dx = tangents
    lw = _log_wb(a, b, x)
    # d log Phi/da, d log Phi/db from the weighted sums (at a = 0 as well:
    # the series is evaluated there for the derivatives)
    _, ga, gb = _wb_log(a, b, x)
    gx = snp.exp(_log_wb(a, a + b, x) - lw)
    return lw, ga * da + gb * db + gx * dx


def _wb_args(name, a, b, x):
    (a, b, x), out = U.promote_real(name, a, b, x)
    bad = (a < 0) | (b < 0) | (x < 0) | snp.isnan(a) | snp.isnan(b) | snp.isnan(x)
    ok = ~bad & snp.isfinite(x)
    return a, b, x, out, bad, ok


def log_wright_bessel(a: Any, b: Any, x: Any) -> Any:
    r"""Logarithm of Wright's generalized Bessel function.

    sciax implementation of :func:`scipy.special.log_wright_bessel`; see
    :func:`wright_bessel`.  Finite where ``wright_bessel`` overflows.

    Examples
    --------
    >>> from sciax.special import log_wright_bessel
    >>> print(np.round(log_wright_bessel(0.5, 0.5, 1000.0), 6))
    187.86693
    """
    a, b, x, out, bad, ok = _wb_args("log_wright_bessel", a, b, x)
    lw = _log_wb(snp.where(ok, a, 1.0), snp.where(ok, b, 1.0), snp.where(ok, x, 1.0))
    lw = snp.where(ok, lw, snp.where(bad, snp.nan, snp.inf))
    return U.finish(out, lw)


def wright_bessel(a: Any, b: Any, x: Any) -> Any:
    r"""Wright's generalized Bessel function
    :math:`\Phi(a, b; x) = \sum_k x^k / (k!\,\Gamma(a k + b))`.

    sciax implementation of :func:`scipy.special.wright_bessel`.

    Parameters
    ----------
    a, b, x : array_like
        Non-negative reals (others give NaN, as in SciPy).

    Returns
    -------
    Array

    Notes
    -----
    The series has positive terms on this domain and is summed in log space
    (a running log-sum-exp) until the terms, past their peak near
    :math:`k = (x/a^a)^{1/(1+a)}`, are below :math:`e^{-40}` of the sum;
    ``a = 0`` is :math:`e^x/\Gamma(b)`.  The cost grows with that peak index:
    small ``a`` with large ``x`` (e.g. ``a = 0.01, x = 1e4``) need thousands
    of terms (at most 20000; SciPy switches to asymptotic expansions
    there).  Each term carries the rounding of ``gammaln(k + 1)``, so the
    relative accuracy is about ``1e-16 k log k`` at the peak index.

    Transformations: jit, vmap, grad in ``a``, ``b`` and ``x``
    (:math:`\partial_x \Phi(a, b; x) = \Phi(a, a + b; x)`; the parameter
    derivatives are the series weighted by :math:`-\psi(ak + b)` and
    :math:`-k \psi(ak + b)`).

    Examples
    --------
    >>> from sciax.special import wright_bessel
    >>> print(np.round(wright_bessel(0.5, 1.0, np.array([0.0, 2.0])), 6))
    [1.       6.690628]
    """
    a, b, x, out, bad, ok = _wb_args("wright_bessel", a, b, x)
    lw = _log_wb(snp.where(ok, a, 1.0), snp.where(ok, b, 1.0), snp.where(ok, x, 1.0))
    w = snp.exp(lw)
    w = snp.where(ok, w, snp.where(bad, snp.nan, snp.inf))
    return U.finish(out, w)


# --------------------------------------------------------------------------
# Integrals of J_0 and Y_0
# --------------------------------------------------------------------------

def _itj0y0_parts(x):
    """``(int_0^x J_0, int_0^x Y_0, J_0(x), Y_0(x))`` for ``x > 0`` by
    DLMF 10.22.2 (and its Y form, A&S 11.1.8):
    ``x C_0 + (pi x/2)(C_1 H_0 - C_0 H_1)`` with Struve's ``H_0, H_1``."""
    j0, y0, jp, yp = _bessel._jy_real(snp.zeros_like(x), x)
    j1, y1 = -jp, -yp
    h = _bessel.struve(snp.stack([snp.zeros_like(x), snp.ones_like(x)]), x[None])
    h0, h1 = h[0], h[1]
    c = 0.5 * math.pi * x
    return x * j0 + c * (j1 * h0 - j0 * h1), x * y0 + c * (y1 * h0 - y0 * h1), j0, y0


@sciax.custom_jvp
def _itj0y0(x):
    ax = snp.abs(x)
    pos = snp.isfinite(ax) & (ax > 0)
    ij, iy, _, _ = _itj0y0_parts(snp.where(pos, ax, 1.0))
    ij = snp.where(pos, snp.where(x < 0, -ij, ij), snp.where(x == 0, 0.0, snp.nan))
    iy = snp.where(pos & (x > 0), iy, snp.where(x == 0, 0.0, snp.nan))
    return ij, iy


@_itj0y0.defjvp
def _itj0y0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ij, iy = _itj0y0(x)
    ax = snp.abs(x)
    j0, y0 = _bessel._jy_real(snp.zeros_like(x), snp.where(ax > 0, ax, 1.0))[:2]
    j0 = snp.where(ax > 0, j0, 1.0)
    y0 = snp.where(x > 0, y0, snp.where(x == 0, -snp.inf, snp.nan))
    return (ij, iy), (j0 * t, y0 * t)


def itj0y0(x: Any) -> tuple:
    r"""Integrals of the Bessel functions of order 0, :math:`\int_0^x J_0(t)\,dt`
    and :math:`\int_0^x Y_0(t)\,dt`.

    sciax implementation of :func:`scipy.special.itj0y0`.

    Parameters
    ----------
    x : array_like
        Real argument (for ``x < 0`` the first integral is odd in ``x`` and
        the second is NaN, as in SciPy).

    Returns
    -------
    ij0, iy0 : Array

    Notes
    -----
    ``x C_0(x) + (pi x/2)(C_1(x) H_0(x) - C_0(x) H_1(x))`` for ``C = J, Y``
    with Struve's functions ``H`` (DLMF 10.22.2): within about 1e-14 of the
    envelope :math:`\sqrt{2/(\pi x)}` (mpmath quadrature), where SciPy is
    up to 2e-12 off near ``x = 30``.  Transformations: jit, vmap, grad
    (the derivatives are :math:`J_0(x), Y_0(x)`).

    Examples
    --------
    >>> from sciax.special import itj0y0
    >>> ij, iy = itj0y0(np.array([1.0, 10.0]))
    >>> print(np.round(ij, 6), np.round(iy, 6))
    [0.91973  1.067011] [-0.637069  0.24129 ]
    """
    (x,), out = U.promote_real("itj0y0", x)
    ij, iy = _itj0y0(x)
    return U.finish(out, ij, iy)


# --------------------------------------------------------------------------
# Integrals of I_0 and K_0
# --------------------------------------------------------------------------
# int_0^x I_0 = sum_k x (x/2)^{2k} / ((k!)^2 (2k + 1)) has positive terms
# (summed until past their peak at k ~ x/2 and below 1e-18 of the sum; the
# closed form with modified Struve functions cancels as e^x for large x);
# int_0^x K_0 = x K_0 + (pi x/2)(K_1 L_0 + K_0 L_1) (A&S 11.1.8) has none,
# and is pi/2 to double precision beyond x = 40 (where L_0 would overflow
# first).

_K0_INT_FLAT = 40.0


def _int_i0(x):
    q = 0.25 * x * x

    def body(k, st):
        t, s = st
        k1 = k + 1.0
        t = t * q / (k1 * k1) * (2.0 * k1 - 1.0) / (2.0 * k1 + 1.0)
        return (t, s + t), (k1 * k1 < q) | (t > 1e-18 * s)

    return U.masked_loop(body, (x, x), x > 0, 4000)[1]


def _int_k0(x):
    flat = x >= _K0_INT_FLAT
    xs = snp.where(flat, 1.0, x)
    kk = _bessel.kv(snp.stack([snp.zeros_like(xs), snp.ones_like(xs)]), xs[None])
    ll = _bessel.modstruve(snp.stack([snp.zeros_like(xs), snp.ones_like(xs)]), xs[None])
    r = xs * kk[0] + 0.5 * math.pi * xs * (kk[1] * ll[0] + kk[0] * ll[1])
    return snp.where(flat, 0.5 * math.pi, r)


@sciax.custom_jvp
def _iti0k0(x):
    ax = snp.abs(x)
    pos = ax > 0
    xs = snp.where(pos & snp.isfinite(ax), ax, 1.0)
    ii, ik = _int_i0(xs), _int_k0(xs)
    ii = snp.where(snp.isinf(ax), snp.nan, ii)        # SciPy's value
    ik = snp.where(snp.isinf(ax), 0.5 * math.pi, ik)
    ii = snp.where(pos, snp.where(x < 0, -ii, ii), snp.where(x == 0, 0.0, snp.nan))
    ik = snp.where(pos & (x > 0), ik, snp.where(x == 0, 0.0, snp.nan))
    return ii, ik


@_iti0k0.defjvp
def _iti0k0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ii, ik = _iti0k0(x)
    return (ii, ik), (_bessel.i0(x) * t, _bessel.kv(0.0, x) * t)


def iti0k0(x: Any) -> tuple:
    r"""Integrals of the modified Bessel functions of order 0,
    :math:`\int_0^x I_0(t)\,dt` and :math:`\int_0^x K_0(t)\,dt`.

    sciax implementation of :func:`scipy.special.iti0k0`.

    Parameters
    ----------
    x : array_like
        Real argument (for ``x < 0`` the first integral is odd in ``x`` and
        the second is NaN, as in SciPy).

    Returns
    -------
    ii0, ik0 : Array

    Notes
    -----
    The first integral is its power series (positive terms; a loop of about
    ``x/2 + 10 sqrt(x)`` steps), the second ``x K_0 + (pi x/2)(K_1 L_0 +
    K_0 L_1)`` with the modified Struve functions ``L`` (A&S 11.1.8), and
    ``pi/2`` beyond ``x = 40``.  Both within a few ulp of mpmath, where
    SciPy's are up to 4e-11 (``I_0``, near ``x = 39``) and 1e-12 (``K_0``,
    near ``x = 10``) off.
    Transformations: jit, vmap, grad (the derivatives are
    :math:`I_0(x), K_0(x)`).

    Examples
    --------
    >>> from sciax.special import iti0k0
    >>> ii, ik = iti0k0(np.array([1.0, 10.0]))
    >>> print(np.round(ii, 6), np.round(ik, 6))
    [1.08652100e+00 2.99304454e+03] [1.24251  1.570779]
    """
    (x,), out = U.promote_real("iti0k0", x)
    ii, ik = _iti0k0(x)
    return U.finish(out, ii, ik)
