"""SciPy 1.15's Legendre functions with derivatives (``legendre_p``,
``assoc_legendre_p``, ``sph_legendre_p``, their ``_all`` forms,
``sph_harm_y_all``) and the Legendre functions of the second kind ``lqn``.

One kernel computes the fully normalized associated Legendre function
``Pbar_n^m = sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!) P_n^m`` (``m >= 0``) and its
first ``k`` derivatives in the variable ``t`` at once: the recurrence in the
degree ``Pbar_l = a_l (x Pbar_{l-1} - b_l Pbar_{l-2})`` (no factorials, so
high degrees neither overflow nor lose digits), differentiated term by term
with Leibniz's rule, from ``Pbar_m^m = c_m s^m`` and its derivatives.  ``x``
and ``s`` are ``z`` and ``sqrt(1 - z^2)`` (``sqrt(z^2 - 1)`` for SciPy's
``branch_cut=3``), or ``cos theta`` and ``|sin theta|`` for the spherical
forms, so the derivatives in ``theta`` are finite at the poles.  The kernel
is a ``while_loop`` over elementwise degrees; a ``custom_jvp`` whose tangent
is the next derivative (the kernel of one order more) makes every output
differentiable in both modes.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _util

__all__ = ["legendre_p", "legendre_p_all", "assoc_legendre_p", "assoc_legendre_p_all",
           "sph_legendre_p", "sph_legendre_p_all", "sph_harm_y_all", "lqn", "lqmn"]

_FOUR_PI = 4.0 * math.pi


def _check_diff_n(name: str, diff_n: Any) -> int:
    if isinstance(diff_n, bool) or not isinstance(diff_n, (int, np.integer)):
        raise TypeError(f"{name}: diff_n must be an int, got {diff_n!r}")
    if diff_n < 0:
        raise ValueError(f"{name}: diff_n must be >= 0, got {diff_n}")
    if diff_n > 2:
        raise NotImplementedError(
            f"{name}: diff_n is only implemented for orders 0, 1 and 2, got {diff_n}")
    return int(diff_n)


def _int_args(name: str, ints: dict, floats: dict) -> tuple:
    """The integer arguments (``n``, ``m``: integer dtypes only, as SciPy's
    ufuncs) as floats and the real ones, all broadcast; the result dtype."""
    out = []
    for key, v in ints.items():
        a = snp.asarray(v)
        if not snp.issubdtype(a.dtype, snp.integer):
            raise TypeError(f"{name}: {key} must be an integer array, got dtype "
                            f"{a.dtype}")
        out.append(a)
    reals = [snp.asarray(v) for v in floats.values()]
    for key, a in zip(floats, reals):
        if snp.issubdtype(a.dtype, snp.complexfloating):
            raise TypeError(f"{name}: complex {key} is not supported")
    dtype = _util.promote(name, *floats.values())[0].dtype
    arrs = snp.broadcast_arrays(*out, *reals)
    return [lax.stop_gradient(a.astype(dtype)) for a in arrs[:len(out)]] + \
        [a.astype(dtype) for a in arrs[len(out):]], dtype


# --- the kernel ----------------------------------------------------------------------

def _taylor(fun: Any, t: Any, order: int) -> list:
    """``[fun(t), fun'(t), ..., fun^(order)(t)]`` (elementwise ``fun``) by
    nested forward-mode derivatives."""
    if order == 0:
        return [fun(t)]
    vals, tans = sciax.jvp(lambda u: _taylor(fun, u, order - 1), (t,),
                           (snp.ones_like(t),))
    return list(vals) + [tans[-1]]


def _pow_m(w: Any, e: Any) -> Any:
    """``w^e`` for ``e`` in ``{0, 1/2, 1, 3/2, ...}``, with the integer cases
    written as products so their derivatives at ``w = 0`` are not ``0 *
    inf``."""
    safe = snp.where(e < 1.5, 0.5, w)
    big = snp.where(e == 1, w, snp.where(e == 2, w * w, snp.power(safe, e)))
    root = snp.sqrt(snp.where(e == 0.5, w, 1.0))
    return snp.where(e == 0, 1.0, snp.where(e == 0.5, root, big))


def _start(t: Any, m: Any, kind: str) -> Any:
    """``s^m`` as a function of ``t``."""
    if kind == "theta":
        s = snp.sin(t)
        return _pow_m(snp.where(s < 0, -s, s), m)
    w = (1.0 - t) * (1.0 + t) if kind == "z2" else (t - 1.0) * (t + 1.0)
    return _pow_m(w, 0.5 * m)


def _xs(t: Any, kind: str, order: int) -> list:
    if kind == "theta":
        c, s = snp.cos(t), snp.sin(t)
        return [c, -s, -c, s][:order + 1]
    return [t, snp.ones_like(t), snp.zeros_like(t), snp.zeros_like(t)][:order + 1]


def _cmm(m: Any, sign: bool) -> Any:
    """``(-1)^m sqrt((2m+1)/(4 pi) prod_{k<=m} (2k-1)/(2k))`` (the sign only
    if ``sign``), by the product (no factorials)."""
    def cond(c):
        return snp.any(c[0] <= m)

    def body(c):
        k, p = c
        return k + 1.0, snp.where(k <= m, p * snp.sqrt((2 * k - 1) / (2 * k)), p)

    _, p = lax.while_loop(cond, body, (snp.ones_like(m), snp.ones_like(m)))
    p = p * snp.sqrt((2 * m + 1) / _FOUR_PI)
    if sign:
        p = snp.where(snp.remainder(m, 2.0) == 0, p, -p)
    return p


def _plm_kernel(n: Any, m: Any, t: Any, kind: str, order: int) -> Any:
    """``Pbar_n^m`` and its first ``order`` derivatives in ``t``, stacked
    (``0 <= m <= n`` integers as floats, all of one shape)."""
    xs = _xs(t, kind, order)
    c = _cmm(m, kind != "z3")
    cur = [c * v for v in _taylor(lambda u: _start(u, m, kind), t, order)]
    prev = [snp.zeros_like(t)] * (order + 1)

    def cond(st):
        return snp.any(st[0] < n)

    def body(st):
        l, prev, cur = st
        ln = l + 1.0
        a = snp.sqrt((4 * ln * ln - 1) / snp.maximum(ln * ln - m * m, 1.0))
        b = snp.sqrt(((ln - 1) ** 2 - m * m) / (4 * (ln - 1) ** 2 - 1))
        new = [a * (sum(math.comb(j, i) * xs[i] * cur[j - i] for i in range(j + 1))
                    - b * prev[j]) for j in range(order + 1)]
        go = l < n
        return (snp.where(go, ln, l),
                tuple(snp.where(go, c_, p_) for c_, p_ in zip(cur, prev)),
                tuple(snp.where(go, v, c_) for v, c_ in zip(new, cur)))

    _, _, cur = lax.while_loop(cond, body, (m, tuple(prev), tuple(cur)))
    return snp.stack(cur)


_PLM: dict = {}


def _plm(kind: str, order: int) -> Any:
    """``_plm_kernel`` for one kind and order with a ``custom_jvp``: the
    tangent in ``t`` is the next derivative (the kernel of order ``order +
    1``), so the outputs are differentiable in both modes (the loop itself
    has no reverse mode)."""
    key = (kind, order)
    f = _PLM.get(key)
    if f is not None:
        return f
    f = sciax.custom_jvp(lambda n, m, t: _plm_kernel(n, m, t, kind, order))

    @f.defjvp
    def rule(primals, tangents):
        full = _plm(kind, order + 1)(*primals)
        return full[:order + 1], full[1:] * tangents[2]

    _PLM[key] = f
    return f


def _log_fact_ratio(n: Any, am: Any) -> Any:
    """``log((n + m)! / (n - m)!)``."""
    return lax.lgamma(n + am + 1.0) - lax.lgamma(n - am + 1.0)


def _assoc(n, m, z, branch_cut, norm, order):
    """The associated Legendre function of SciPy's ``assoc_legendre_p`` and
    its derivatives, stacked; ``n``, ``m``, ``z`` floats of one shape."""
    am = snp.abs(m)
    inside = (n >= 0) & (am <= n)
    ns, ams = _util.safe(inside, n, 0.0), _util.safe(inside, am, 0.0)
    kind = "z2" if branch_cut == 2 else "z3"
    p = _plm(kind, order)(ns, ams, z)
    neg = m < 0
    odd = snp.remainder(ams, 2.0) == 1
    flip = neg & odd if branch_cut == 2 else snp.zeros_like(neg)
    if norm:
        # sqrt((2n+1)/2 (n-|m|)!/(n+|m|)!) P^{|m|} = sqrt(2 pi) Pbar; for
        # negative m the factorials cancel against P^{-m}'s
        scale = snp.full_like(z, math.sqrt(2.0 * math.pi))
    else:
        lr = _log_fact_ratio(ns, ams)
        scale = (snp.sqrt(_FOUR_PI / (2 * ns + 1.0))
                 * snp.exp(snp.where(neg, -0.5, 0.5) * lr))
    p = p * snp.where(flip, -scale, scale)
    # outside the branch's domain: NaN (as SciPy for real z); 0 where |m| > n
    off = (snp.abs(z) > 1) if branch_cut == 2 else ~(z >= 1)
    p = snp.where(off & (am > 0), snp.nan, p)
    return snp.where(inside, p, 0.0)


def _sph(n, m, theta, order):
    am = snp.abs(m)
    inside = (n >= 0) & (am <= n)
    ns, ams = _util.safe(inside, n, 0.0), _util.safe(inside, am, 0.0)
    p = _plm("theta", order)(ns, ams, theta)
    flip = (m < 0) & (snp.remainder(ams, 2.0) == 1)
    return snp.where(inside, snp.where(flip, -p, p), 0.0)


def _orders(m: int) -> np.ndarray:
    """The order axis of the ``_all`` functions: ``0, 1, ..., m, -m, ...,
    -1`` (an order ``k`` at index ``k mod (2m + 1)``, as SciPy)."""
    return np.concatenate([np.arange(m + 1), np.arange(-m, 0)]).astype(float)


def _check_nm(name: str, n: Any, m: Any = 0) -> tuple:
    for key, v in (("n", n), ("m", m)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"{name}: {key} must be a non-negative integer, got {v!r}")
    return int(n), int(m)


def _grid(name: str, n: int, m: int, z: Any) -> tuple:
    """Degrees, orders and argument broadcast to ``(n + 1, 2m + 1) +
    z.shape``."""
    (z,) = _util.promote(name, z)
    extra = (1,) * snp.ndim(z)
    nn = snp.asarray(np.arange(n + 1, dtype=float).reshape((n + 1, 1) + extra), z.dtype)
    mm = snp.asarray(_orders(m).reshape((1, 2 * m + 1) + extra), z.dtype)
    return snp.broadcast_arrays(nn, mm, z[None, None])


# --- public functions ----------------------------------------------------------------

def legendre_p(n: Any, z: Any, *, diff_n: int = 0) -> Any:
    """Legendre polynomial ``P_n(z)`` and its derivatives.

    sciax implementation of :func:`scipy.special.legendre_p`.

    Parameters
    ----------
    n : array_like of int
        Degree (``>= 0``; an integer dtype, as SciPy).
    z : array_like
        Argument (any real).
    diff_n : int, optional
        Also return the derivatives up to this order (0, 1 or 2).

    Returns
    -------
    Array, shape ``(diff_n + 1,) + broadcast shape``
        ``P_n``, ``P_n'``, ``P_n''``.

    Notes
    -----
    The normalized recurrence in the degree, differentiated term by term
    (exact at ``z = +-1``); differentiable in ``z`` (forward and reverse).
    *Differences from SciPy*: NaN for a negative degree.

    Examples
    --------
    >>> from sciax.special import legendre_p
    >>> legendre_p(3, 0.5, diff_n=2).round(6)
    Array([-0.4375,  0.375 ,  7.5   ], dtype=float64)
    """
    d = _check_diff_n("legendre_p", diff_n)
    (n, z), dt = _int_args("legendre_p", {"n": n}, {"z": z})
    ok = n >= 0
    ns = _util.safe(ok, n, 0.0)
    p = _plm("z2", d)(ns, snp.zeros_like(z), z) * snp.sqrt(_FOUR_PI / (2 * ns + 1.0))
    return snp.where(ok, p, snp.nan).astype(dt)


def legendre_p_all(n: int, z: Any, *, diff_n: int = 0) -> Any:
    """All Legendre polynomials ``P_0(z), ..., P_n(z)`` and their derivatives.

    sciax implementation of :func:`scipy.special.legendre_p_all`.

    Parameters
    ----------
    n : int
        Largest degree (a Python int: it sets the output shape).
    z : array_like
        Argument.
    diff_n : int, optional
        Derivatives up to this order (0, 1 or 2).

    Returns
    -------
    Array, shape ``(diff_n + 1, n + 1) + z.shape``

    Examples
    --------
    >>> from sciax.special import legendre_p_all
    >>> legendre_p_all(2, 0.5).round(6)
    Array([[ 1.   ,  0.5  , -0.125]], dtype=float64)
    """
    d = _check_diff_n("legendre_p_all", diff_n)
    n, _ = _check_nm("legendre_p_all", n)
    nn, mm, zz = _grid("legendre_p_all", n, 0, z)
    p = _plm("z2", d)(nn, mm, zz) * snp.sqrt(_FOUR_PI / (2 * nn + 1.0))
    return p[:, :, 0]


def assoc_legendre_p(n: Any, m: Any, z: Any, *, branch_cut: int = 2, norm: bool = False,
                     diff_n: int = 0) -> Any:
    """Associated Legendre function ``P_n^m(z)`` of the first kind and its
    derivatives.

    sciax implementation of :func:`scipy.special.assoc_legendre_p`.

    Parameters
    ----------
    n, m : array_like of int
        Degree (``>= 0``) and order (``0`` where ``|m| > n``).
    z : array_like
        Argument: ``|z| <= 1`` for ``branch_cut=2`` (with the Condon-Shortley
        phase ``(-1)^m (1 - z^2)^(m/2)``), ``z >= 1`` for ``branch_cut=3``
        (``(z^2 - 1)^(m/2)``); NaN elsewhere for ``m != 0``, as SciPy.
    branch_cut : {2, 3}, optional
        SciPy's type.
    norm : bool, optional
        Normalize to ``sqrt((2n+1)/2 (n-m)!/(n+m)!) P_n^m``.
    diff_n : int, optional
        Derivatives in ``z`` up to this order (0, 1 or 2).

    Returns
    -------
    Array, shape ``(diff_n + 1,) + broadcast shape``

    Notes
    -----
    The normalized recurrence (rescaled at the end unless ``norm``): the
    unnormalized values overflow past ``(n + m)! ~ 1e308`` as SciPy's do.
    Differentiable in ``z``.  *Differences from SciPy*: 0 for a negative
    degree, as SciPy, but NaN where SciPy returns its limits at ``|z| = 1``
    for ``branch_cut=3``.

    Examples
    --------
    >>> from sciax.special import assoc_legendre_p
    >>> assoc_legendre_p(3, 1, 0.5, diff_n=1).round(6)
    Array([-0.32476 , -6.278684], dtype=float64)
    """
    d = _check_diff_n("assoc_legendre_p", diff_n)
    if branch_cut not in (2, 3):
        raise ValueError(f"assoc_legendre_p: branch_cut must be 2 or 3, got "
                         f"{branch_cut!r}")
    (n, m, z), dt = _int_args("assoc_legendre_p", {"n": n, "m": m}, {"z": z})
    return _assoc(n, m, z, branch_cut, bool(norm), d).astype(dt)


def assoc_legendre_p_all(n: int, m: int, z: Any, *, branch_cut: int = 2,
                         norm: bool = False, diff_n: int = 0) -> Any:
    """All associated Legendre functions up to degree ``n`` and order ``m``.

    sciax implementation of :func:`scipy.special.assoc_legendre_p_all`.

    Parameters
    ----------
    n, m : int
        Largest degree and order (Python ints).
    z : array_like
        Argument.
    branch_cut : {2, 3}, optional
    norm : bool, optional
    diff_n : int, optional
        As :func:`assoc_legendre_p`.

    Returns
    -------
    Array, shape ``(diff_n + 1, n + 1, 2m + 1) + z.shape``
        Order ``k`` at index ``k mod (2m + 1)`` (``0, ..., m, -m, ..., -1``).

    Examples
    --------
    >>> from sciax.special import assoc_legendre_p_all
    >>> assoc_legendre_p_all(1, 1, 0.5).round(6)
    Array([[[ 1.      ,  0.      ,  0.      ],
            [ 0.5     , -0.866025,  0.433013]]], dtype=float64)
    """
    d = _check_diff_n("assoc_legendre_p_all", diff_n)
    if branch_cut not in (2, 3):
        raise ValueError(f"assoc_legendre_p_all: branch_cut must be 2 or 3, got "
                         f"{branch_cut!r}")
    n, m = _check_nm("assoc_legendre_p_all", n, m)
    nn, mm, zz = _grid("assoc_legendre_p_all", n, m, z)
    return _assoc(nn, mm, zz, branch_cut, bool(norm), d)


def sph_legendre_p(n: Any, m: Any, theta: Any, *, diff_n: int = 0) -> Any:
    """Spherical Legendre function ``sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!)
    P_n^m(cos theta)`` and its derivatives in ``theta``.

    sciax implementation of :func:`scipy.special.sph_legendre_p`.

    Parameters
    ----------
    n, m : array_like of int
        Degree and order (``0`` where ``|m| > n``).
    theta : array_like
        Polar angle (``sin theta`` enters as ``|sin theta|``, as SciPy).
    diff_n : int, optional
        Derivatives in ``theta`` up to this order (0, 1 or 2).

    Returns
    -------
    Array, shape ``(diff_n + 1,) + broadcast shape``

    Notes
    -----
    Finite derivatives at the poles (the recurrence is differentiated in
    ``theta`` itself).  Differentiable in ``theta``.

    Examples
    --------
    >>> from sciax.special import sph_legendre_p
    >>> sph_legendre_p(3, 2, 0.5, diff_n=2).round(6)
    Array([ 0.206146,  0.642078, -0.061561], dtype=float64)
    """
    d = _check_diff_n("sph_legendre_p", diff_n)
    (n, m, theta), dt = _int_args("sph_legendre_p", {"n": n, "m": m}, {"theta": theta})
    return _sph(n, m, theta, d).astype(dt)


def sph_legendre_p_all(n: int, m: int, theta: Any, *, diff_n: int = 0) -> Any:
    """All spherical Legendre functions up to degree ``n`` and order ``m``.

    sciax implementation of :func:`scipy.special.sph_legendre_p_all`.

    Parameters
    ----------
    n, m : int
        Largest degree and order (Python ints).
    theta : array_like
        Polar angle.
    diff_n : int, optional
        Derivatives in ``theta`` up to this order (0, 1 or 2).

    Returns
    -------
    Array, shape ``(diff_n + 1, n + 1, 2m + 1) + theta.shape``

    Examples
    --------
    >>> from sciax.special import sph_legendre_p_all
    >>> sph_legendre_p_all(1, 1, 0.5).round(6)
    Array([[[ 0.282095,  0.      ,  0.      ],
            [ 0.428789, -0.165639,  0.165639]]], dtype=float64)
    """
    d = _check_diff_n("sph_legendre_p_all", diff_n)
    n, m = _check_nm("sph_legendre_p_all", n, m)
    nn, mm, tt = _grid("sph_legendre_p_all", n, m, theta)
    return _sph(nn, mm, tt, d)


def sph_harm_y_all(n: int, m: int, theta: Any, phi: Any, *, diff_n: int = 0) -> Any:
    """All spherical harmonics up to degree ``n`` and order ``m``, with their
    gradient and Hessian in ``(theta, phi)``.

    sciax implementation of :func:`scipy.special.sph_harm_y_all`.

    Parameters
    ----------
    n, m : int
        Largest degree and order (Python ints).
    theta, phi : array_like
        Polar and azimuthal angles.
    diff_n : int, optional
        0: the harmonics; 1: also the gradient; 2: also the Hessian.

    Returns
    -------
    Array or tuple of Arrays
        ``Y`` of shape ``(n + 1, 2m + 1) + shape`` (order ``k`` at index ``k
        mod (2m + 1)``), then for ``diff_n >= 1`` the gradient ``(..., 2)``
        and for ``diff_n = 2`` the Hessian ``(..., 2, 2)``.

    Examples
    --------
    >>> from sciax.special import sph_harm_y_all
    >>> sph_harm_y_all(1, 1, 0.5, 0.3)[1].round(6)
    Array([ 0.428789+0.j     , -0.158241-0.04895j,  0.158241-0.04895j],
          dtype=complex128)
    """
    d = _check_diff_n("sph_harm_y_all", diff_n)
    n, m = _check_nm("sph_harm_y_all", n, m)
    theta, phi = _util.promote("sph_harm_y_all", theta, phi)
    nn, mm, tt = _grid("sph_harm_y_all", n, m, theta)
    pp = snp.broadcast_to(phi[None, None], tt.shape)
    p = _sph(nn, mm, tt, d)
    ctype = _util.complex_dtype(tt)
    e = snp.exp(1j * (mm * pp).astype(ctype))
    ik = 1j * mm.astype(ctype)
    y = p[0] * e
    if d == 0:
        return y
    grad = snp.stack([p[1] * e, ik * y], axis=-1)
    if d == 1:
        return y, grad
    h01 = ik * p[1] * e
    hess = snp.stack([snp.stack([p[2] * e, h01], axis=-1),
                      snp.stack([h01, ik * ik * y], axis=-1)], axis=-2)
    return y, grad, hess


# --- Legendre functions of the second kind -----------------------------------------

def lqn(n: int, z: Any) -> tuple:
    """Legendre functions of the second kind ``Q_0(z), ..., Q_n(z)`` and
    their derivatives.

    sciax implementation of :func:`scipy.special.lqn` (real ``z``).

    Parameters
    ----------
    n : int
        Largest degree (a Python int).
    z : array_like
        Real argument.

    Returns
    -------
    Qn, Qd : Array, shape ``(n + 1,) + z.shape``

    Notes
    -----
    ``Q_0 = atanh(z)`` (``acoth(z)`` for ``|z| > 1``) and the three-term
    recurrence: upward for ``|z| < 1``, where it is stable, and downward
    (Miller's algorithm, normalized by ``Q_0``) for ``|z| > 1``, where
    ``Q_k`` falls like ``(z + sqrt(z^2 - 1))^(-k)``; the downward start is
    far enough above ``n`` for the ratio to reach ``1e-17``.
    ``Q_k' = k (z Q_k - Q_{k-1}) / (z^2 - 1)``.  At ``|z| = 1`` both are
    ``1e300``, SciPy's stand-in for infinity.  The derivative is ``Qd``
    (the downward loop has no reverse mode: ``grad`` of ``Qn`` is not
    supported).

    Examples
    --------
    >>> from sciax.special import lqn
    >>> q, dq = lqn(2, 0.5)
    >>> q.round(6), dq.round(6)
    (Array([ 0.549306, -0.725347, -0.818663], dtype=float64),
     Array([ 1.333333,  1.215973, -0.842707], dtype=float64))
    """
    n, _ = _check_nm("lqn", n)
    (z,) = _util.promote("lqn", z)
    qn, qd = _lqn(n, z)
    edge = snp.abs(z) == 1
    big = snp.full_like(qn, 1e300)
    return snp.where(edge, big, qn), snp.where(edge, big, qd)


def _degrees(n: int, z: Any) -> Any:
    """``0, ..., n`` along a new leading axis of ``z``'s shape."""
    shape = (n + 1,) + (1,) * snp.ndim(z)
    return snp.asarray(np.arange(n + 1, dtype=float).reshape(shape), z.dtype)


def _lqn(n: int, z: Any) -> tuple:
    """``lqn``'s values away from ``|z| = 1``."""
    inner = snp.abs(z) < 1
    edge = snp.abs(z) == 1
    zi = _util.safe(inner, z, 0.5)
    zo = _util.safe(~inner & ~edge, z, 2.0)
    # |z| < 1: upward
    q = [snp.arctanh(zi)]
    if n >= 1:
        q.append(zi * q[0] - 1.0)
    for k in range(1, n):
        q.append(((2 * k + 1) * zi * q[k] - k * q[k - 1]) / (k + 1))
    up = snp.stack(q)
    # |z| > 1: downward from N with N - n such that r^(N - n) < 1e-17
    az = snp.abs(zo)
    r = 1.0 / (az + snp.sqrt((az - 1.0) * (az + 1.0)))
    top = lax.stop_gradient(n + 8.0 + snp.ceil(-39.0 / snp.log(r)))
    top = snp.minimum(top, n + 100000.0)

    def cond(c):
        return snp.any(c[0] > n)

    def body(c):
        k, q1, q0 = c          # q_{k+1}, q_k
        go = k > n
        qm = ((2 * k + 1) * zo * q0 - (k + 1) * q1) / snp.where(go, k, 1.0)
        # rescale to keep the unnormalized values finite
        big = snp.abs(qm) > 1e250
        f = snp.where(big, 1e-250, 1.0)
        return (snp.where(go, k - 1, k), snp.where(go, q0 * f, q1),
                snp.where(go, qm * f, q0))

    _, q1, q0 = lax.while_loop(cond, body, (top, snp.zeros_like(zo),
                                            snp.full_like(zo, 1e-300)))
    dn = [q0]
    for k in range(n, 0, -1):
        qm = ((2 * k + 1) * zo * dn[-1] - (k + 1) * q1) / k
        q1 = dn[-1]
        dn.append(qm)
    down = snp.stack(dn[::-1])
    q0_exact = 0.5 * snp.log((zo + 1.0) / (zo - 1.0))
    down = down * (q0_exact / down[0])
    qn = snp.where(inner, up, down)
    zz = snp.where(inner, zi, zo)
    k = _degrees(n, z)
    prev = snp.concatenate([snp.zeros_like(qn[:1]), qn[:-1]])
    qd = k * (zz * qn - prev) / ((zz - 1.0) * (zz + 1.0))
    qd = snp.concatenate([1.0 / ((1.0 - zz) * (1.0 + zz))[None], qd[1:]])
    return snp.where(snp.isnan(z), snp.nan, qn), snp.where(snp.isnan(z), snp.nan, qd)


def lqmn(m: int, n: int, z: Any) -> tuple:
    """Associated Legendre functions of the second kind ``Q_j^i(z)``, ``0 <=
    i <= m``, ``0 <= j <= n``, and their derivatives.

    sciax implementation of :func:`scipy.special.lqmn` (real ``z``).

    Parameters
    ----------
    m, n : int
        Largest order and degree (Python ints).
    z : array_like
        Real argument: Ferrers' functions ``(-1)^i (1 - z^2)^(i/2) Q_j^(i)``
        for ``|z| < 1``, ``(z^2 - 1)^(i/2) Q_j^(i)`` beyond, as SciPy.

    Returns
    -------
    Qm, Qd : Array, shape ``(m + 1, n + 1) + z.shape``

    Notes
    -----
    The orders 0 and 1 from :func:`lqn` (``Q_j^1 = -+ sqrt(|1 - z^2|)
    Q_j'``), then Zhang and Jin's recurrence upward in the order,
    ``Q_j^i = -2 (i - 1) z / s Q_j^(i-1) - e (j + i - 1)(j - i + 2)
    Q_j^(i-2)`` (``s = sqrt(|1 - z^2|)``, ``e = +-1`` inside and outside
    ``[-1, 1]``), and ``Q_j^i' = e i z / s^2 Q_j^i + (i + j)(j - i + 1) / s
    Q_j^(i-1)``.  ``1e300`` at ``|z| = 1``, as SciPy.

    Examples
    --------
    >>> from sciax.special import lqmn
    >>> q, dq = lqmn(1, 2, 0.5)
    >>> q.round(6)
    Array([[ 0.549306, -0.725347, -0.818663],
           [-1.154701, -1.053063,  0.729806]], dtype=float64)
    """
    m, n = _check_nm("lqmn", m, n)
    (z,) = _util.promote("lqmn", z)
    edge = snp.abs(z) == 1
    zs = _util.safe(~edge, z, 0.5)
    q0, d0 = _lqn(n, zs)
    inner = snp.abs(zs) < 1
    e = snp.where(inner, 1.0, -1.0)
    xs = e * (1.0 - zs) * (1.0 + zs)          # |1 - z^2|
    xq = snp.sqrt(xs)
    rows = [q0, -e * xq * d0][:m + 1]
    j = _degrees(n, z)
    for i in range(2, m + 1):
        rows.append(-2.0 * (i - 1) * zs / xq * rows[i - 1]
                    - e * (j + i - 1) * (j - i + 2) * rows[i - 2])
    qm = snp.stack(rows)
    ds = [d0] + [e * i * zs / xs * rows[i] + (i + j) * (j - i + 1) / xq * rows[i - 1]
                 for i in range(1, m + 1)]
    qd = snp.stack(ds)
    big = snp.full_like(qm, 1e300)
    return snp.where(edge, big, qm), snp.where(edge, big, qd)
