"""Mathieu functions: characteristic values, Fourier coefficients, the angular
functions ``ce_m``/``se_m`` and the modified (radial) functions of the first
and second kinds.

The Fourier coefficients of a Mathieu function of each of the four classes
(``ce_2n``: ``A_0, A_2, ...``; ``ce_2n+1``: ``A_1, A_3, ...``; ``se_2n+1``:
``B_1, B_3, ...``; ``se_2n+2``: ``B_2, B_4, ...``) satisfy a three-term
recurrence (DLMF 28.4.5-28.4.8), i.e. they are an eigenvector of a symmetric
tridiagonal matrix ``D + q P`` (``D`` the squared harmonics, ``P`` the
coupling, with ``sqrt 2`` in its first entries for ``ce_2n``) whose
eigenvalue is the characteristic value.  The matrix is truncated at ``m // 2
+ 41`` coefficients or more (rounded up to a multiple of 8, so that nearby
orders share a compiled kernel; static: the order ``m`` must be concrete,
while the class of each element is an array operand): converged to
rounding for ``|q| <= 1000`` (``m <= 20``; against a truncation at ``m // 2 +
151``), the characteristic values up to ``|q| ~ 3000``; at ``|q| = 2000``
the functions are within ~1e-11, at 5000 within ~1e-5.  The eigenvalue comes
from ``eigh`` (LAPACK keeps these graded matrices' small eigenvalues
relatively accurate); the coefficients are then recomputed from it by the
recurrence's ratios, forward up to the eigenvector's largest component and
backward from the tail down to it (each direction is where the recurrence is
stable), so that the small coefficients are relatively accurate too (an
eigenvector from ``eigh`` is accurate only to ``eps`` of its largest
component, and the modified functions divide by the first coefficient,
which is ``O(q^(m/2))``).

The modified functions are Bessel-product series (DLMF 28.24.1-28.24.4):
SciPy's (Zhang and Jin's ``MTU12``, shift ``s = 0``) for the second kind,
and shifted to the largest coefficient for the first kind, whose ``s = 0``
series cancels catastrophically for ``m >> sqrt(q)``.  ``J_n`` and ``Y_n``
of integer order come from ``J_0, J_1, Y_0, Y_1`` by recurrences (``Y``
forward; ``J`` forward up to ``n ~ u`` and by the continued fraction of
``J_n / J_(n-1)`` above it), and those from the same continued fraction with
Neumann's series below ``u = 25`` and Hankel's expansions above.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _sfutil as U
from sciax.special._util import polyval, safe

__all__ = ["mathieu_a", "mathieu_b", "mathieu_even_coef", "mathieu_odd_coef",
           "mathieu_cem", "mathieu_sem", "mathieu_modcem1", "mathieu_modcem2",
           "mathieu_modsem1", "mathieu_modsem2"]

_EXTRA = 40  # Fourier coefficients kept beyond the m // 2 of the order
_DEG = math.pi / 180.0

# The four classes (SciPy's kd = 1..4, here 0..3), per element: the first
# harmonic (harmonics 2k + h), the q-dependent first diagonal entry and the
# first coupling's factor (sqrt 2 symmetrises ce_2n's: its vector is sqrt(2)
# A_0, A_2, ...).  Classes are array operands of the compiled kernels, so one
# program serves every order of a size bucket.
_HARM = np.array([0, 1, 1, 2])
_D0 = np.array([0.0, 1.0, -1.0, 0.0])
_C0 = np.array([math.sqrt(2.0), 1.0, 1.0, 1.0])


def _concrete_m(name: str, m: Any) -> np.ndarray:
    try:
        mv = np.asarray(m)
    except Exception as e:  # a tracer
        raise TypeError(f"{name}: the order m must be concrete (a Python or "
                        "NumPy integer or array of them): it sets the size of "
                        "the eigenvalue problem, so it cannot be traced "
                        "(jit/vmap/grad over q and x work)") from e
    if mv.dtype.kind not in "biuf":
        raise TypeError(f"{name}: the order m must be real, got dtype {mv.dtype}")
    return mv.astype(float)


def _class_of(m: np.ndarray, sine: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(valid, kd, n)``: where ``m`` is a valid order, the class (0..3) of
    ``ce_m`` (``sine`` false) or ``se_m``, and the index of ``m`` in it."""
    ok = np.isfinite(m) & (m == np.floor(m)) & (m >= (1 if sine else 0))
    mi = np.where(ok, m, 2 if sine else 0).astype(np.int64)
    odd = mi % 2 == 1
    if sine:
        return ok, np.where(odd, 2, 3), np.where(odd, mi // 2, mi // 2 - 1)
    return ok, np.where(odd, 1, 0), mi // 2


def _size(n: np.ndarray, at_least: int = 0) -> int:
    """The truncation: ``max(n) + 41``, rounded up to a multiple of 8 so that
    nearby orders share a compiled kernel."""
    size = max(int(np.max(n, initial=0)) + 1 + _EXTRA, at_least)
    return -(-size // 8) * 8


def _class_consts(kd: Any, dtype: Any) -> tuple:
    k = snp.asarray(kd, np.int32)
    return tuple(snp.asarray(c, dtype)[k] for c in (_HARM, _D0, _C0))


def _eig(kd: Any, n: Any, q: Any, size: int, vectors: bool) -> tuple:
    """The ``n``-th eigenvalue (and the index of its eigenvector's largest
    component) of the matrix ``D + q P`` of class ``kd`` at each ``q``."""
    harm, d0, c0 = _class_consts(kd, q.dtype)
    k = np.arange(size)
    d = (2.0 * k + harm[..., None]) ** 2
    off = snp.asarray(np.eye(size, k=1) + np.eye(size, k=-1), q.dtype)
    e00 = snp.asarray(np.eye(size) * (k == 0), q.dtype)
    e01 = snp.asarray(np.eye(size, k=1) * (k == 0)[:, None]
                      + np.eye(size, k=-1) * (k == 0), q.dtype)
    p = off + d0[..., None, None] * e00 + (c0 - 1.0)[..., None, None] * e01
    a = d[..., None] * snp.asarray(np.eye(size), q.dtype) + q[..., None, None] * p
    nn = snp.asarray(n, np.int32)[..., None]
    if not vectors:
        return snp.take_along_axis(snp.linalg.eigvalsh(a), nn, axis=-1)[..., 0], None
    w, v = snp.linalg.eigh(a)
    lam = snp.take_along_axis(w, nn, axis=-1)[..., 0]
    idx = snp.broadcast_to(nn[..., None], q.shape + (size, 1))
    vec = snp.take_along_axis(v, idx, axis=-1)[..., 0]
    return lam, snp.argmax(snp.abs(vec), axis=-1)


def _nonzero(x: Any) -> Any:
    return snp.where(x == 0, U.tiny(x), x)


def _ratio_vector(dd: Any, up: Any, lo: Any, peak: Any) -> Any:
    """The solution (1 at ``peak``) of the three-term recurrence ``lo_j c_(j-1)
    + dd_j c_j + up_j c_(j+1) = 0`` (``up`` for ``j = 0 .. K-2``, ``lo`` for
    ``j = 1 .. K-1``, last axes) whose ``dd`` holds an eigenvalue, from its
    ratios: ``t_j = c_(j-1) / c_j`` forward for ``j <= peak`` and ``r_j = c_j
    / c_(j-1)`` backward for ``j > peak`` (each is where the recurrence is
    stable: the solution grows towards the peak from both sides)."""
    size = dd.shape[-1]
    ddt, ut, lt = (snp.moveaxis(a, -1, 0) for a in (dd, up, lo))
    zero = snp.zeros_like(dd[..., 0])

    def fwd(t, xs):  # t_(j+1) = -up_j / (dd_j + lo_j t_j)
        dj, lj, uj = xs
        t = -uj / _nonzero(dj + lj * t)
        return t, t

    _, t = lax.scan(fwd, zero, (ddt[:-1], snp.concatenate([zero[None], lt[:-1]]), ut))

    def bwd(r, xs):  # r_j = -lo_j / (dd_j + up_j r_(j+1))
        dj, uj, lj = xs
        r = -lj / _nonzero(dj + uj * r)
        return r, r

    _, r = lax.scan(bwd, zero, (ddt[1:], snp.concatenate([ut[1:], zero[None]]), lt),
                    reverse=True)
    j = np.arange(1, size)
    pk = peak[..., None]
    t = snp.where(j <= pk, snp.moveaxis(t, 0, -1), 1.0)
    r = snp.where(j > pk, snp.moveaxis(r, 0, -1), 1.0)
    one = snp.ones(dd.shape[:-1] + (1,), dd.dtype)
    left = snp.flip(_cumprod(snp.flip(t, -1)), -1)  # prod_{i >= j} t_i
    return snp.concatenate([left, one], -1) * snp.concatenate([one, _cumprod(r)], -1)


def _coefficients(kd: Any, lam: Any, q: Any, peak: Any, size: int) -> Any:
    """The normalised coefficients (SciPy's: ``2 A_0^2 + sum A_2k^2 = 1`` for
    ``ce_2n``, ``sum c_k^2 = 1`` otherwise, first coefficient positive) of
    the eigenvector of eigenvalue ``lam``, by :func:`_ratio_vector`."""
    harm, d0, c0 = _class_consts(kd, q.dtype)
    dd = (2.0 * np.arange(size) + harm[..., None]) ** 2 - lam[..., None]
    dd = dd.at[..., 0].add(d0 * q)
    e = snp.broadcast_to(q[..., None], q.shape + (size - 1,))
    e = e.at[..., 0].multiply(c0)
    c = _ratio_vector(dd, e, e, peak)
    # the symmetric matrix's vector has sqrt(2) A_0 first for ce_2n: its unit
    # norm is SciPy's 2 A_0^2 + sum A_2k^2 = 1
    c = c / snp.sqrt(snp.sum(c * c, axis=-1, keepdims=True))
    c = c.at[..., 0].divide(c0)
    return snp.where(c[..., :1] < 0, -c, c)


def _solution(kd: Any, n: Any, q: Any, size: int) -> tuple:
    """``(lam, coefficients, peak)`` of class ``kd``, index ``n``, at ``q``."""
    lam, peak = _eig(kd, n, q, size, vectors=True)
    return lam, _coefficients(kd, lam, q, peak, size), peak


def _cumprod(x: Any) -> Any:
    """``cumprod(x, axis=-1)`` as one masked product (cheaper to compile than
    a scan, and the rows are short)."""
    n = x.shape[-1]
    tri = np.arange(n)[None, :] <= np.arange(n)[:, None]
    return snp.prod(snp.where(tri, x[..., None, :], 1.0), axis=-1)


def _prepare(name: str, m: Any, sine: bool, *xs: Any) -> tuple:
    """``(ok, kd, n, arrays, out_dtype)``: the classes of the concrete orders
    ``m`` and ``xs`` promoted, all broadcast together."""
    mv = _concrete_m(name, m)
    arrs, out = U.promote_real(name, *xs)
    shape = np.broadcast_shapes(mv.shape, arrs[0].shape)
    ok, kd, n = _class_of(np.broadcast_to(mv, shape), sine)
    return ok, kd, n, [snp.broadcast_to(a, shape) for a in arrs], out


def _char_kernel(q: Any, kd: Any, n: Any, *, size: int) -> Any:
    return _eig(kd, n, q, size, vectors=False)[0]


def _char_value(name: str, m: Any, q: Any, sine: bool) -> Any:
    ok, kd, n, (qb,), out = _prepare(name, m, sine, q)
    a = _char_kernel(qb, kd, n, size=_size(n))
    return U.finish(out, snp.where(ok, a, snp.nan))


def mathieu_a(m: Any, q: Any) -> Any:
    """Characteristic value of the even Mathieu functions, ``a_m(q)``.

    sciax implementation of :func:`scipy.special.mathieu_a`.

    Parameters
    ----------
    m : int or array_like of int
        Order (``>= 0``; others give NaN).  Must be concrete (not traced): it
        sets the size of the eigenvalue problem.
    q : array_like
        Parameter (real, any sign).

    Returns
    -------
    Array
        ``a_m(q)``, broadcast over ``m`` and ``q``.

    Notes
    -----
    The ``m // 2``-th eigenvalue of the symmetric tridiagonal matrix of the
    Fourier coefficients' recurrence of ``ce_m`` (DLMF 28.4.5-28.4.6),
    truncated at ``m // 2 + 41`` coefficients or more: converged to
    rounding for ``|q|`` up to about 3000 (``m <= 20``; checked against
    larger truncations; the functions, to ``|q| <= 1000``).  Negative ``q``
    needs no special case: the matrix of ``ce_2n+1`` at ``-q`` is similar
    to that of ``se_2n+1`` at ``q``, which is DLMF 28.2.26's ``a_2n+1(-q) =
    b_2n+1(q)``.

    *Transformations*: jit/vmap/grad in ``q`` (the derivative is the
    Hellmann-Feynman ``v^T P v``, from the autodiff rule of ``eigh``, and
    higher ones likewise exact); ``m`` is static.

    Examples
    --------
    >>> from sciax.special import mathieu_a
    >>> print(np.round(mathieu_a(np.array([0, 1, 2]), 1.0), 6))
    [-0.455139  1.859108  4.371301]
    """
    return _char_value("mathieu_a", m, q, sine=False)


def mathieu_b(m: Any, q: Any) -> Any:
    """Characteristic value of the odd Mathieu functions, ``b_m(q)``.

    sciax implementation of :func:`scipy.special.mathieu_b`.

    Parameters
    ----------
    m : int or array_like of int
        Order (``>= 1``; others give NaN).  Must be concrete.
    q : array_like
        Parameter (real, any sign).

    Returns
    -------
    Array
        ``b_m(q)``, broadcast over ``m`` and ``q``.

    Notes
    -----
    As :func:`mathieu_a`, from the matrices of ``se_2n+1`` and ``se_2n+2``
    (DLMF 28.4.7-28.4.8).

    Examples
    --------
    >>> from sciax.special import mathieu_b
    >>> print(np.round(mathieu_b(np.array([1, 2, 3]), 1.0), 6))
    [-0.110249  3.917025  9.047739]
    """
    return _char_value("mathieu_b", m, q, sine=True)


# --- Fourier coefficients ----------------------------------------------------


def _scipy_km(m: int, q: float) -> int:
    """SciPy's number of returned coefficients (its truncation estimate)."""
    if q <= 1:
        qm = 7.5 + 56.1 * math.sqrt(q) - 134.7 * q + 90.7 * math.sqrt(q) * q
    else:
        qm = 17.0 + 3.1 * math.sqrt(q) - 0.126 * q + 0.0037 * math.sqrt(q) * q
    return int(qm + 0.5 * m)


def _fourier_coef(name: str, m: Any, q: Any, sine: bool) -> Any:
    mv = _concrete_m(name, m)
    if mv.ndim or snp.ndim(q):
        raise ValueError(f"{name}: m and q must be scalars.")
    ok, kd, n = _class_of(mv, sine)
    if not ok:
        raise ValueError(f"{name}: m must be an integer {'> 0' if sine else '>= 0'}, "
                         f"got {m}")
    (qa,), out = U.promote_real(name, q)
    try:
        qv = float(np.asarray(q))
    except Exception:  # traced q: the static length
        qv = None
    km = None
    if qv is not None:
        if qv < 0:
            raise ValueError(f"{name}: q must be >= 0, got {qv}")
        km = _scipy_km(int(mv), qv)
    size = _size(n, at_least=km or 0)
    c = _angular_kernel(qa, snp.zeros_like(qa), kd, n, size=size)[2]
    c = snp.where(qa < 0, snp.nan, c)
    return U.finish(out, c[:km or _size(n)])


def mathieu_even_coef(m: Any, q: Any) -> Any:
    """Fourier coefficients of the even Mathieu function ``ce_m(x, q)``.

    sciax implementation of :func:`scipy.special.mathieu_even_coef`:
    ``A_0, A_2, ...`` (``ce_m = sum_k A_2k cos 2kx``) for even ``m``,
    ``A_1, A_3, ...`` for odd ``m``.

    Parameters
    ----------
    m : int
        Order (``>= 0``, concrete).
    q : float
        Parameter (``>= 0``).

    Returns
    -------
    Array
        The coefficients, normalised as SciPy's (``2 A_0^2 + sum A_2k^2 =
        1``, resp. ``sum A_2k+1^2 = 1``, so that ``int_0^2pi ce_m^2 = pi``;
        first coefficient positive).

    Raises
    ------
    ValueError
        If ``m`` or ``q`` is not a scalar, ``m`` is not a non-negative
        integer, or a concrete ``q`` is negative.

    Notes
    -----
    The eigenvector of :func:`mathieu_a`'s matrix, recomputed from the
    eigenvalue by the recurrence's ratios so that small coefficients are
    accurate relative to themselves.  *Differences from SciPy*: the length
    is SciPy's (its truncation estimate, a function of ``q``) for a concrete
    ``q``; under jit/vmap/grad it is the static ``m // 2 + 41`` (coefficients
    past convergence are zero to rounding).  A traced negative ``q`` gives
    NaN.  Differentiable in ``q``.

    Examples
    --------
    >>> from sciax.special import mathieu_even_coef
    >>> print(np.round(mathieu_even_coef(2, 1.0)[:4], 6))
    [ 0.216928  0.948257 -0.081767  0.002587]
    """
    return _fourier_coef("mathieu_even_coef", m, q, sine=False)


def mathieu_odd_coef(m: Any, q: Any) -> Any:
    """Fourier coefficients of the odd Mathieu function ``se_m(x, q)``.

    sciax implementation of :func:`scipy.special.mathieu_odd_coef`:
    ``B_2, B_4, ...`` (``se_m = sum_k B_2k sin 2kx``) for even ``m``,
    ``B_1, B_3, ...`` for odd ``m``; ``sum B_k^2 = 1``, first one positive.
    See :func:`mathieu_even_coef`.

    Examples
    --------
    >>> from sciax.special import mathieu_odd_coef
    >>> print(np.round(mathieu_odd_coef(1, 1.0)[:3], 6))
    [ 0.993968 -0.109584  0.004368]
    """
    return _fourier_coef("mathieu_odd_coef", m, q, sine=True)


# --- the angular functions ce_m, se_m ------------------------------------------


def _angular_kernel(q: Any, x: Any, kd: Any, n: Any, *, size: int) -> tuple:
    """``ce``/``se`` of class ``kd`` and their derivatives at ``x`` radians,
    and the coefficients (one program for both)."""
    c = _solution(kd, n, q, size)[1]
    h = 2.0 * np.arange(size) + _class_consts(kd, q.dtype)[0][..., None]
    ph = h * x[..., None]
    cs, sn = snp.cos(ph), snp.sin(ph)
    even = (kd <= 1)[..., None]
    y = snp.sum(c * snp.where(even, cs, sn), -1)
    yp = snp.sum(h * c * snp.where(even, -sn, cs), -1)
    return y, yp, c


def _angular(name: str, m: Any, q: Any, x: Any, sine: bool) -> tuple:
    ok, kd, n, (qb, xb), out = _prepare(name, m, sine, q, x)
    # SciPy's q < 0 (DLMF 28.2.34 at 90 - x) is the natural continuation
    # (coefficients of the same class at -q, first one positive) times a
    # sign: (-1)^(m // 2) for ce_m and se_odd, -(-1)^(m // 2) for se_even.
    mi = np.where(kd == 3, 2 * n + 2, 2 * n + np.where(kd == 0, 0, 1))
    sgn = np.where((mi // 2) % 2 == 0, 1.0, -1.0)
    sgn = np.where(kd == 3, -sgn, sgn)
    sgn = snp.where(qb < 0, snp.asarray(sgn, qb.dtype), 1.0)
    y, yp, _ = _angular_kernel(qb, xb * _DEG, kd, n, size=_size(n))
    y, yp = snp.where(ok, sgn * y, snp.nan), snp.where(ok, sgn * yp, snp.nan)
    if sine:  # SciPy's se_0 = 0
        zero = np.broadcast_to(_concrete_m(name, m) == 0, qb.shape)
        y, yp = snp.where(zero, 0.0, y), snp.where(zero, 0.0, yp)
    return U.finish(out, y, yp)


def mathieu_cem(m: Any, q: Any, x: Any) -> tuple:
    """Even Mathieu function ``ce_m(x, q)`` and its derivative.

    sciax implementation of :func:`scipy.special.mathieu_cem`.

    Parameters
    ----------
    m : int or array_like of int
        Order (``>= 0``; others give NaN).  Must be concrete.
    q : array_like
        Parameter (real; ``q < 0`` by DLMF 28.2.34 as in SciPy).
    x : array_like
        Argument, in DEGREES (SciPy's convention).

    Returns
    -------
    y : Array
        ``ce_m(x, q)``.
    yp : Array
        Its derivative with respect to ``x`` in radians (as SciPy's).

    Notes
    -----
    ``sum_k A_k cos(k x)`` over :func:`mathieu_even_coef`'s coefficients.
    Differentiable in ``q`` and ``x``; ``m`` static.  SciPy's ``q < 0``
    (``ce_2n(x, -q) = (-1)^n ce_2n(90 - x, q)``, ``ce_2n+1(x, -q) = (-1)^n
    se_2n+1(90 - x, q)``) is followed.

    Examples
    --------
    >>> from sciax.special import mathieu_cem
    >>> y, yp = mathieu_cem(2, 1.5, 30.0)
    >>> print(round(float(y), 6), round(float(yp), 6))
    0.794474 -1.149445
    """
    return _angular("mathieu_cem", m, q, x, sine=False)


def mathieu_sem(m: Any, q: Any, x: Any) -> tuple:
    """Odd Mathieu function ``se_m(x, q)`` and its derivative.

    sciax implementation of :func:`scipy.special.mathieu_sem`.  ``x`` in
    degrees, the derivative in radians; ``se_0 = 0`` as in SciPy; ``q < 0``
    by DLMF 28.2.35 (``se_2n+2(x, -q) = (-1)^n se_2n+2(90 - x, q)``,
    ``se_2n+1(x, -q) = (-1)^n ce_2n+1(90 - x, q)``).  See :func:`mathieu_cem`.

    Examples
    --------
    >>> from sciax.special import mathieu_sem
    >>> y, yp = mathieu_sem(1, 1.5, 30.0)
    >>> print(round(float(y), 6), round(float(yp), 6))
    0.345001 0.818494
    """
    return _angular("mathieu_sem", m, q, x, sine=True)


# --- the modified (radial) functions ---------------------------------------------


_HANKEL_U = 25.0  # J_0, J_1, Y_0, Y_1 by Hankel's expansions above this


def _hankel_coefs(nu: int, terms: int) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients of ``P`` and ``Q`` (DLMF 10.17.1-10.17.4) in ``1 / u^2``:
    ``a_k(nu) = prod_(j<=k) (4 nu^2 - (2j - 1)^2) / (k! 8^k)``."""
    a = [1.0]
    for k in range(1, 2 * terms):
        a.append(a[-1] * (4.0 * nu * nu - (2.0 * k - 1.0) ** 2) / (k * 8.0))
    sign = (-1.0) ** np.arange(terms)
    return sign * np.array(a[0::2]), sign * np.array(a[1::2])


_HANKEL = {nu: _hankel_coefs(nu, 16) for nu in (0, 1)}


def _hankel01(u: Any) -> tuple:
    """``J_0, J_1, Y_0, Y_1`` for ``u >= 25`` (the series' smallest term
    there is below 1e-16)."""
    t = 1.0 / (u * u)
    amp = snp.sqrt(2.0 / (math.pi * u))
    out = []
    for nu in (0, 1):
        pc, qc = _HANKEL[nu]
        p = polyval(tuple(pc[::-1]), t)
        q = polyval(tuple(qc[::-1]), t) / u
        chi = u - (0.5 * nu + 0.25) * math.pi
        c, s = snp.cos(chi), snp.sin(chi)
        out.append((amp * (p * c - q * s), amp * (p * s + q * c)))
    (j0, y0), (j1, y1) = out
    return j0, j1, y0, y1


def _ratios(u: Any, top: int) -> Any:
    """``J_k(u) / J_(k-1)(u)``, ``k = 1 .. top - 1`` (last axis), by the
    backward continued fraction from ``k = top``."""
    us = safe(u > 0, u, 1.0)

    def cf(rho, k):
        rho = 1.0 / (2.0 * k / us - rho)
        return rho, rho

    _, rho = lax.scan(cf, snp.zeros_like(u), snp.arange(1, top, dtype=u.dtype),
                      reverse=True)
    return snp.moveaxis(rho, 0, -1)


def _neumann01(u: Any, rho: Any) -> tuple:
    """``J_0, J_1, Y_0, Y_1`` for ``u < 25`` from the ratios: ``J_k = J_0
    prod rho``, normalised by ``J_0 + 2 sum J_2k = 1``, and Neumann's series
    ``Y_0 = 2/pi ((ln(u/2) + gamma) J_0 - 2 sum (-1)^k J_2k / k)`` (A&S
    9.1.88) and its derivative for ``Y_1 = -Y_0'``."""
    us = safe((u > 0) & (u < _HANKEL_U), u, 1.0)
    # J_k relative to J_0, or to J_1 where |J_1| > |J_0| (J_0 may be 0 to
    # rounding: then rho_1 is infinite; J_0 and J_1 have no common zero)
    r1 = rho[..., :1]
    big = snp.abs(r1) > 1.0
    rest = _cumprod(rho[..., 1:])  # J_k / J_1, k >= 2
    one = snp.ones_like(r1)
    v = snp.where(big, snp.concatenate([1.0 / safe(big, r1, 1.0), one, rest], -1),
                  snp.concatenate([one, r1, r1 * rest], -1))
    kk = np.arange(v.shape[-1])
    even = (kk % 2 == 0) & (kk > 0)
    jall = v / (v[..., 0] + 2.0 * snp.sum(snp.where(even, v, 0.0), -1))[..., None]
    j0, j1, jk = jall[..., 0], jall[..., 1], jall[..., 1:]
    kk = kk[1:]
    even = kk % 2 == 0
    half = kk // 2
    alt = np.where(half % 2 == 0, 1.0, -1.0)
    w_even = np.where(even, alt / np.maximum(half, 1), 0.0)  # (-1)^k / k at 2k
    ell = snp.log(0.5 * us) + np.euler_gamma
    y0 = (2.0 / math.pi) * (ell * j0 - 2.0 * snp.sum(w_even * jk, -1))
    # d/du J_2k = (J_(2k-1) - J_(2k+1)) / 2, for 2k = 2 .. top - 2
    jm = snp.concatenate([j0[..., None], jk[..., :-1]], -1)  # J_(k-1)
    jp = snp.concatenate([jk[..., 1:], snp.zeros_like(jk[..., :1])], -1)  # J_(k+1)
    djk = 0.5 * (jm - jp)
    dy0 = (2.0 / math.pi) * (j0 / us - ell * j1 - 2.0 * snp.sum(w_even * djk, -1))
    return j0, j1, y0, -dy0


def _bessel_jy(u1: Any, u2: Any, size: int) -> tuple:
    """``J_n(u1), J_n(u2), Y_n(u2)`` for ``n = 0 .. size - 1`` (last axis),
    with their derivatives in ``u`` (both arguments in one batch)."""
    u = snp.stack([u1, u2])
    rho = _ratios(u, max(size, 30) + 40)
    small = u < _HANKEL_U
    n01 = _neumann01(u, rho)
    h01 = _hankel01(snp.where(small, _HANKEL_U, u))
    j0, j1, y0, y1 = (snp.where(small, a, b) for a, b in zip(n01, h01))
    (j, jp) = _jn(u, j0, j1, rho, size)
    return (j[0], jp[0]), (j[1], jp[1]), _yn(u2, y0[1], y1[1], size)


def _with_derivative(u: Any, f: Any) -> tuple:
    """``(f_n, f'_n)`` from ``f_n`` (``f'_0 = -f_1``, ``f'_n = f_(n-1) - n
    f_n / u``)."""
    n = np.arange(f.shape[-1])
    us = safe(u > 0, u, 1.0)[..., None]
    fp = snp.concatenate([-f[..., 1:2], f[..., :-1] - n[1:] * f[..., 1:] / us], -1)
    return f, fp


def _jn(u: Any, j0: Any, j1: Any, rho: Any, size: int) -> tuple:
    """``J_n(u)``: forward recurrence for ``n <= u`` (the oscillatory region,
    where it is stable), then ``J_n = J_(n-1) rho_n`` with ``rho_n = J_n /
    J_(n-1)`` from the backward continued fraction started well above both
    ``size`` and ``u`` (for ``u`` below ``size``; above it every order is
    in the forward region)."""
    us = safe(u > 0, u, 1.0)
    n0 = snp.clip(snp.floor(us), 1.0, size - 1.0)

    def fwd(c, k):  # J_(k+1) = 2k/u J_k - J_(k-1), for k < n0
        jm, j = c
        jn = snp.where(k < n0, 2.0 * k / us * j - jm, 0.0)
        return (j, jn), jn

    ks = snp.arange(1, size - 1, dtype=u.dtype)
    _, jf = lax.scan(fwd, (j0, j1), ks)
    jf = snp.concatenate([j0[None], j1[None], jf], 0)
    rho = rho[..., :size - 1]
    jf = snp.moveaxis(jf, 0, -1)
    k = np.arange(1, size)
    n0i = n0[..., None]
    start = snp.take_along_axis(jf, n0.astype(np.int32)[..., None], axis=-1)
    up = _cumprod(snp.where(k > n0i, rho, 1.0))
    jn = snp.where(k <= n0i, jf[..., 1:], start * up)
    jn = snp.concatenate([j0[..., None], jn], -1)
    zero = (u == 0)[..., None]
    jn = snp.where(zero, snp.asarray(np.arange(size) == 0, u.dtype), jn)
    return _with_derivative(u, jn)


def _yn(u: Any, y0: Any, y1: Any, size: int) -> tuple:
    """``Y_n(u)`` by the forward recurrence (stable: ``Y`` grows with ``n``)."""
    us = safe(u > 0, u, 1.0)

    def fwd(c, k):
        ym, y = c
        yn = 2.0 * k / us * y - ym
        return (y, yn), yn

    _, yf = lax.scan(fwd, (y0, y1), snp.arange(1, size - 1, dtype=u.dtype))
    yn = snp.moveaxis(snp.concatenate([y0[None], y1[None], yf], 0), 0, -1)
    return _with_derivative(u, yn)


def _at(tab: Any, idx: Any) -> Any:
    """``tab[..., idx]`` for orders ``idx`` of any sign (``f_-n = (-1)^n f_n``
    for ``J``, ``Y`` and their derivatives)."""
    a = snp.abs(idx)
    val = snp.take_along_axis(tab, snp.broadcast_to(a, tab.shape[:-1] + a.shape[-1:]),
                              axis=-1)
    return snp.where((idx < 0) & (a % 2 == 1), -val, val)


def _radial_kernel(q: Any, x: Any, kd: Any, n: Any, *, size: int) -> tuple:
    """DLMF 28.24.1-28.24.4: ``sum_l (-1)^(l+n) c_l / (eps_s c_s) (J_(l-s)(u1)
    C_(l+s+h)(u2) +- J_(l+s+h)(u1) C_(l-s)(u2))`` with ``u1 = sqrt(q) e^-x``,
    ``u2 = sqrt(q) e^x``, ``C = J`` (first kind) or ``Y`` (second kind) and
    ``h`` the class's first harmonic; both kinds with their derivatives.
    Every ``s`` gives the same function; SciPy's series is ``s = 0``, whose
    terms for the first kind are ``O(1)`` while the sum is ``O(q^(m/2))``
    (its ``mathieu_modcem1(10, 0.001, x)`` has no correct digit).  With
    ``s`` at the largest coefficient the sum has no such cancellation.  The
    second kind keeps ``s = 0`` (its sum is as large as its largest term,
    and a large ``s`` would need ``Y`` of order ``2s``)."""
    h = snp.sqrt(q)
    c1, c2 = snp.exp(-x), snp.exp(x)
    u1, u2 = h * c1, h * c2
    _, c, peak = _solution(kd, n, q, size)
    harm = snp.asarray(_HARM, np.int32)[kd][..., None]
    pm = snp.where(kd <= 1, 1.0, -1.0)[..., None]
    (j1, j1p), (j2, j2p), (y2, y2p) = _bessel_jy(u1, u2, 2 * size + 2)
    ell = np.arange(size)
    sgn = snp.where((n[..., None] + ell) % 2 == 0, 1.0, -1.0)
    w = sgn * c
    out = []
    shifts = (peak[..., None], snp.zeros_like(peak)[..., None])
    for s, f2, f2p in ((shifts[0], j2, j2p), (shifts[1], y2, y2p)):
        lo, up = ell - s, ell + s + harm

        def prod(a, b, lo=lo, up=up):
            return _at(a, lo) * _at(b, up) + pm * _at(a, up) * _at(b, lo)

        cs = snp.take_along_axis(c, s, axis=-1)[..., 0]
        cs = snp.where((kd == 0) & (s[..., 0] == 0), 2.0 * cs, cs)
        f = snp.sum(w * prod(j1, f2), -1)
        fp = snp.sum(w * (c2[..., None] * prod(j1, f2p)
                          - c1[..., None] * prod(j1p, f2)), -1)
        out += [f / cs, fp * h / cs]
    return tuple(out)


def _modified(name: str, m: Any, q: Any, x: Any, sine: bool, kind: int) -> tuple:
    ok, kd, n, (qb, xb), out = _prepare(name, m, sine, q, x)
    good = ok & (qb >= 0)
    res = _radial_kernel(safe(good, qb, 1.0), xb, kd, n, size=_size(n))
    y, yp = res[2 * kind - 2: 2 * kind]
    return U.finish(out, snp.where(good, y, snp.nan), snp.where(good, yp, snp.nan))


_MOD_DOC = """Modified Mathieu function {what} and its derivative.

    sciax implementation of :func:`scipy.special.mathieu_{fn}`.

    Parameters
    ----------
    m : int or array_like of int
        Order (``>= {mmin}``; others give NaN).  Must be concrete.
    q : array_like
        Parameter (``>= 0``; negative gives NaN, as in SciPy).
    x : array_like
        Argument (real, not in degrees).

    Returns
    -------
    y, yp : Array
        The function and its derivative with respect to ``x``.

    Notes
    -----
    SciPy's (Zhang and Jin's) series of products of Bessel functions of
    ``sqrt(q) e^-x`` and ``sqrt(q) e^x`` (DLMF 28.24), over the Fourier
    coefficients of :func:`mathieu_{coef}`, divided by the first
    coefficient.  Differentiable in ``q`` and ``x``; ``m`` static.{extra}

    Examples
    --------
    >>> from sciax.special import mathieu_{fn}
    >>> y, yp = mathieu_{fn}({ex_args})
    >>> print(round(float(y), 6), round(float(yp), 6))
    {ex_out}
    """


def mathieu_modcem1(m: Any, q: Any, x: Any) -> tuple:
    return _modified("mathieu_modcem1", m, q, x, False, 1)


def mathieu_modcem2(m: Any, q: Any, x: Any) -> tuple:
    return _modified("mathieu_modcem2", m, q, x, False, 2)


def mathieu_modsem1(m: Any, q: Any, x: Any) -> tuple:
    return _modified("mathieu_modsem1", m, q, x, True, 1)


def mathieu_modsem2(m: Any, q: Any, x: Any) -> tuple:
    return _modified("mathieu_modsem2", m, q, x, True, 2)


_char_kernel = sciax.jit(_char_kernel, static_argnames="size")
_angular_kernel = sciax.jit(_angular_kernel, static_argnames="size")
_radial_kernel = sciax.jit(_radial_kernel, static_argnames="size")

_SECOND = ("  The second kind has ``Y_n`` for the ``J_n`` of ``sqrt(q) e^x``, "
           "and is\n    infinite at ``q = 0``.")
for _f, _what, _mmin, _coef, _ex, _out, _extra in [
        (mathieu_modcem1, "``Mc_m^(1)(x, q)``", 0, "even_coef", "2, 1.5, 0.7",
         "0.501139 0.173772", ""),
        (mathieu_modcem2, "``Mc_m^(2)(x, q)``", 0, "even_coef", "2, 1.5, 0.7",
         "-0.34465 1.150838", _SECOND),
        (mathieu_modsem1, "``Ms_m^(1)(x, q)``", 1, "odd_coef", "1, 1.5, 0.7",
         "0.485189 -0.078383", ""),
        (mathieu_modsem2, "``Ms_m^(2)(x, q)``", 1, "odd_coef", "1, 1.5, 0.7",
         "-0.045915 1.319523", _SECOND)]:
    _f.__doc__ = _MOD_DOC.format(what=_what, fn=_f.__name__[8:], mmin=_mmin,
                                 coef=_coef, ex_args=_ex, ex_out=_out, extra=_extra)
del _f, _what, _mmin, _coef, _ex, _out, _extra
