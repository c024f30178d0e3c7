"""Spheroidal wave functions: characteristic values and the angular functions
of the first kind, prolate and oblate.

The angular function ``S_mn(c, x) = sum_r d_r P~^m_(m+r)(x)`` (``r`` of the
parity of ``n - m``; ``P~`` the associated Legendre function without the
Condon-Shortley phase, as in SciPy) has coefficients that satisfy Flammer's
three-term recurrence ``gamma_r d_(r-2) + (beta_r - lambda) d_r + alpha_r
d_(r+2) = 0`` (Zhang and Jin 15.1; ``c^2 -> -c^2`` for the oblate
functions).  Since ``alpha_r gamma_(r+2) > 0`` the matrix is similar to a
symmetric tridiagonal one, whose ``(n - m) // 2``-th eigenvalue is the
characteristic value ``lambda_mn(c)``; the coefficients are then recomputed
from it by the recurrence's ratios (as the Mathieu coefficients are, see
:mod:`sciax.special._mathieu`) and normalised as Flammer and SciPy do:
``S_mn(c, 0) = P~^m_n(0)`` for even ``n - m``, ``S'_mn(c, 0) = P~^m_n'(0)``
for odd.  The truncation is ``(n - m) // 2 + 41`` coefficients or more (a
multiple of 8): ``m`` and ``n`` must be concrete.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _sfutil as U
from sciax.special._mathieu import _concrete_m, _ratio_vector, _size
from sciax.special._util import safe

__all__ = ["pro_cv", "obl_cv", "pro_cv_seq", "obl_cv_seq", "pro_ang1", "obl_ang1",
           "pro_ang1_cv", "obl_ang1_cv"]


def _legendre0(m: np.ndarray, r: np.ndarray) -> np.ndarray:
    """``P~^m_(m+r)(0)`` for even ``r >= 0`` (0 for odd or negative ``r``),
    by log-gamma."""
    neg = r < 0
    r = np.where(neg, 0, r)
    h = r // 2
    lg = np.vectorize(math.lgamma)
    val = np.exp(lg(2 * m + r + 1.0) - (m + r) * math.log(2.0) - lg(h + 1.0)
                 - lg(m + h + 1.0))
    return np.where((r % 2 == 0) & ~neg, np.where(h % 2 == 0, 1.0, -1.0) * val, 0.0)


def _orders(name: str, m: Any, n: Any) -> tuple:
    """``(ok, m, n)`` as broadcast host arrays (``ok``: integers ``0 <= m
    <= n``, else NaN as in SciPy)."""
    mv = _concrete_m(name, m)
    nv = _concrete_m(name, n)
    mv, nv = np.broadcast_arrays(mv, nv)
    ok = (np.isfinite(mv) & np.isfinite(nv) & (mv == np.floor(mv))
          & (nv == np.floor(nv)) & (mv >= 0) & (nv >= mv))
    return ok, np.where(ok, mv, 0.0), np.where(ok, nv, 0.0)


def _tables(m: np.ndarray, n: np.ndarray, size: int) -> dict:
    """Host-side constants per element (last axis ``k``, ``r = 2k + ip``): the
    recurrence's ``alpha / c^2``, ``beta = b0 + b1 c^2``, ``gamma / c^2``, and
    the normalisation's weights and target (Zhang and Jin's ``SDMN``)."""
    ip = (n - m) % 2
    r = 2.0 * np.arange(size) + ip[..., None]
    mm = m[..., None]
    dk0, dk1, dk2, d2k = mm + r, mm + r + 1.0, 2.0 * (mm + r), 2.0 * mm + r
    alpha = (d2k + 2.0) * (d2k + 1.0) / ((dk2 + 3.0) * (dk2 + 5.0))
    b1 = (2.0 * dk0 * dk1 - 2.0 * mm * mm - 1.0) / ((dk2 - 1.0) * (dk2 + 3.0))
    gamma = r * (r - 1.0) / ((dk2 - 3.0) * (dk2 - 1.0))
    # even n - m: sum d_r P~(0) = P~^m_n(0); odd: the same for P~'(0), with
    # P~^m_l'(0) = (l + m) P~^m_(l-1)(0)
    ri = r.astype(np.int64)
    mi = np.broadcast_to(mm, r.shape).astype(np.int64)
    w = np.where(ip[..., None] == 0, _legendre0(mi, ri),
                 (2 * mi + ri) * _legendre0(mi, ri - 1))
    nmi = (n - m).astype(np.int64)
    target = np.where(ip == 0, _legendre0(m.astype(np.int64), nmi),
                      (n + m) * _legendre0(m.astype(np.int64), nmi - 1))
    return {"alpha": alpha, "b0": dk0 * dk1, "b1": b1, "gamma": gamma,
            "offd": np.sqrt(alpha[..., :-1] * gamma[..., 1:]), "w": w,
            "target": target, "idx": ((n - m) // 2).astype(np.int32),
            "ip": ip.astype(np.int32), "m": m,
            "pmm": np.vectorize(lambda k: math.prod(range(1, 2 * int(k), 2)))(m)
            .astype(float)}


def _full(t: dict, shape: tuple) -> dict:
    """The tables (shaped like the orders, padded to ``shape``'s rank)
    broadcast to the arguments' shape ``shape`` inside the kernel: the host
    builds them per order, not per argument."""
    return {k: snp.broadcast_to(v, shape + v.shape[len(shape):]) for k, v in t.items()}


def _matrix(t: dict, cs: Any) -> Any:
    size = t["b0"].shape[-1]
    beta = t["b0"] + t["b1"] * cs[..., None]
    e = t["offd"] * cs[..., None]
    eye = snp.asarray(np.eye(size), cs.dtype)
    up = snp.asarray(np.eye(size, k=1), cs.dtype)
    e_full = snp.concatenate([e, snp.zeros_like(e[..., :1])], -1)
    off = e_full[..., :, None] * up
    return beta[..., None] * eye + off + snp.swapaxes(off, -1, -2), beta


def _cv_kernel(cs: Any, t: dict) -> Any:
    t = _full(t, cs.shape)
    a, _ = _matrix(t, cs)
    w = snp.linalg.eigvalsh(a)
    return snp.take_along_axis(w, t["idx"][..., None], axis=-1)[..., 0]


def _ang_kernel(cs: Any, x: Any, cv: Any, use_cv: Any, t: dict) -> tuple:
    """``(S, S')`` at ``x`` with the characteristic value of the matrix, or
    ``cv`` where ``use_cv``."""
    t = _full(t, cs.shape)
    a, beta = _matrix(t, cs)
    w, v = snp.linalg.eigh(a)
    idx = t["idx"][..., None]
    lam = snp.take_along_axis(w, idx, axis=-1)[..., 0]
    size = beta.shape[-1]
    vec = snp.take_along_axis(v, snp.broadcast_to(idx[..., None], cs.shape + (size, 1)),
                              axis=-1)[..., 0]
    peak = snp.argmax(snp.abs(vec), axis=-1)
    lam = snp.where(use_cv, cv, lam)
    alpha, gamma = t["alpha"] * cs[..., None], t["gamma"] * cs[..., None]
    d = _ratio_vector(beta - lam[..., None], alpha[..., :-1], gamma[..., 1:], peak)
    d = d * (t["target"] / snp.sum(t["w"] * d, -1))[..., None]
    # P~^m_(m+j)(x), j = 0 .. 2 size: (j + 1) P_(j+1) = (2(m+j) + 1) x P_j
    # - (2m + j) P_(j-1), from P~^m_m = (2m - 1)!! (1 - x^2)^(m/2)
    m = t["m"]
    s2 = 1.0 - x * x
    p0 = t["pmm"] * snp.where(m == 0, 1.0, s2 ** (0.5 * m))

    def up(c, j):
        pm1, p = c
        pn = ((2.0 * (m + j) + 1.0) * x * p - (2.0 * m + j) * pm1) / (j + 1.0)
        return (p, pn), pn

    js = snp.arange(0, 2 * size, dtype=x.dtype)
    _, ps = lax.scan(up, (snp.zeros_like(p0), p0), js)
    p = snp.moveaxis(snp.concatenate([p0[None], ps], 0), 0, -1)
    jj = np.arange(2 * size + 1)
    pm1 = snp.concatenate([snp.zeros_like(p[..., :1]), p[..., :-1]], -1)
    dp = ((2.0 * m[..., None] + jj) * pm1 - (m[..., None] + jj) * x[..., None] * p)
    r = 2 * np.arange(size) + t["ip"][..., None]
    pr = snp.take_along_axis(p, r, axis=-1)
    dpr = snp.take_along_axis(dp, r, axis=-1)
    return snp.sum(d * pr, -1), snp.sum(d * dpr, -1) / s2


_cv_kernel = sciax.jit(_cv_kernel)
_ang_kernel = sciax.jit(_ang_kernel)


def _prep(name: str, m: Any, n: Any, *xs: Any) -> tuple:
    ok, mv, nv = _orders(name, m, n)
    arrs, out = U.promote_real(name, *xs)
    shape = np.broadcast_shapes(mv.shape, arrs[0].shape)
    pad = (1,) * (len(shape) - mv.ndim)
    mv, nv = mv.reshape(pad + mv.shape), nv.reshape(pad + nv.shape)
    size = _size((nv - mv) // 2)
    return (np.broadcast_to(ok, shape), _tables(mv, nv, size),
            [snp.broadcast_to(a, shape) for a in arrs], out)


def _cv(name: str, m: Any, n: Any, c: Any, sign: float) -> Any:
    ok, t, (cb,), out = _prep(name, m, n, c)
    return U.finish(out, snp.where(ok, _cv_kernel(sign * cb * cb, t), snp.nan))


def pro_cv(m: Any, n: Any, c: Any) -> Any:
    """Characteristic value of the prolate spheroidal wave functions.

    sciax implementation of :func:`scipy.special.pro_cv`.

    Parameters
    ----------
    m, n : int or array_like of int
        Mode parameters, ``0 <= m <= n`` (others give NaN).  Concrete (not
        traced): they set the size of the eigenvalue problem.
    c : array_like
        Spheroidal parameter.

    Returns
    -------
    Array
        ``lambda_mn(c)``; ``n (n + 1)`` at ``c = 0``.

    Notes
    -----
    The ``(n - m) // 2``-th eigenvalue of the symmetrised tridiagonal matrix
    of the Legendre coefficients' recurrence (Zhang and Jin's ``SEGV`` finds
    it by bisection on the same matrix), truncated at ``(n - m) // 2 + 41``
    coefficients or more: converged to rounding for ``|c|`` up to about 40.
    *Differences from SciPy*: the value depends on ``c^2``; SciPy treats
    ``c < 1e-10`` (negative ``c`` included) as ``c = 0``.
    *Transformations*: jit/vmap/grad in ``c`` (``eigh``'s rule, the exact
    Hellmann-Feynman derivative); ``m`` and ``n`` static.

    Examples
    --------
    >>> from sciax.special import pro_cv
    >>> print(np.round(pro_cv(1, np.array([1, 2, 3, 4]), 2.0), 6))
    [ 2.734111  7.65315  13.881493 21.940144]
    """
    return _cv("pro_cv", m, n, c, 1.0)


def obl_cv(m: Any, n: Any, c: Any) -> Any:
    """Characteristic value of the oblate spheroidal wave functions.

    sciax implementation of :func:`scipy.special.obl_cv`: as
    :func:`pro_cv` with ``c^2 -> -c^2``.

    Examples
    --------
    >>> from sciax.special import obl_cv
    >>> print(np.round(obl_cv(1, np.array([1, 2, 3, 4]), 2.0), 6))
    [ 1.118553  4.222747 10.163245 18.097655]
    """
    return _cv("obl_cv", m, n, c, -1.0)


def _cv_seq(name: str, m: Any, n: Any, c: Any, sign: float) -> Any:
    mv, nv = _concrete_m(name, m), _concrete_m(name, n)
    if mv.ndim or nv.ndim or snp.ndim(c):
        raise ValueError(f"{name}: arguments must be scalars.")
    if mv != np.floor(mv) or nv != np.floor(nv):
        raise ValueError(f"{name}: modes must be integers.")
    if nv - mv > 199:
        raise ValueError(f"{name}: difference between n and m is too large.")
    ns = np.arange(float(mv), float(nv) + 1.0)
    return _cv(name, float(mv), ns, snp.broadcast_to(snp.asarray(c), ns.shape), sign)


def pro_cv_seq(m: Any, n: Any, c: Any) -> Any:
    """Characteristic values ``lambda_mn'(c)`` for ``n'`` from ``m`` to ``n``,
    of the prolate spheroidal wave functions.

    sciax implementation of :func:`scipy.special.pro_cv_seq` (scalar
    arguments; ``m`` and ``n`` concrete).  See :func:`pro_cv`.

    Examples
    --------
    >>> from sciax.special import pro_cv_seq
    >>> print(np.round(pro_cv_seq(0, 3, 1.0), 6))
    [ 0.319     2.593085  6.533472 12.514462]
    """
    return _cv_seq("pro_cv_seq", m, n, c, 1.0)


def obl_cv_seq(m: Any, n: Any, c: Any) -> Any:
    """Characteristic values ``lambda_mn'(c)`` for ``n'`` from ``m`` to ``n``,
    of the oblate spheroidal wave functions.

    sciax implementation of :func:`scipy.special.obl_cv_seq`.  See
    :func:`pro_cv_seq`.

    Examples
    --------
    >>> from sciax.special import obl_cv_seq
    >>> print(np.round(obl_cv_seq(0, 3, 1.0), 6))
    [-0.348602  1.393206  5.486800 11.492120]
    """
    return _cv_seq("obl_cv_seq", m, n, c, -1.0)


def _ang(name: str, m: Any, n: Any, c: Any, x: Any, cv: Any, sign: float) -> tuple:
    use_cv = cv is not None
    ok, t, arrs, out = _prep(name, m, n, c, x, 0.0 if cv is None else cv)
    cb, xb, cvb = arrs
    inside = ok & (snp.abs(xb) < 1.0)
    xs = safe(inside, xb, 0.0)
    s, sp = _ang_kernel(sign * cb * cb, xs, cvb, snp.asarray(use_cv), t)
    return U.finish(out, snp.where(inside, s, snp.nan), snp.where(inside, sp, snp.nan))


_ANG_DOC = """{kind} spheroidal angular function of the first kind and its
    derivative{cvtext}.

    sciax implementation of :func:`scipy.special.{fn}`.

    Parameters
    ----------
    m, n : int or array_like of int
        Mode parameters, ``0 <= m <= n`` (others give NaN); concrete.
    c : array_like
        Spheroidal parameter.{cvparam}
    x : array_like
        Argument, ``|x| < 1`` (others give NaN).

    Returns
    -------
    s, sp : Array
        ``S_mn(c, x)`` (Flammer's normalisation, as SciPy's:
        ``P~^m_n(x)`` without the Condon-Shortley phase at ``c = 0``) and
        ``dS/dx``.

    Notes
    -----
    ``sum_r d_r P~^m_(m+r)(x)`` over the coefficients of the eigenvector of
    :func:`{cvfn}`'s matrix{cvnote}, recomputed by the recurrence's ratios
    and normalised by ``S(0) = P~^m_n(0)`` (``S'(0)`` for odd ``n - m``);
    the Legendre functions by the upward recurrence in the degree.
    Differentiable in ``c`` and ``x``{cvdiff}; ``m`` and ``n`` static.

    Examples
    --------
    >>> from sciax.special import {fn}
    >>> s, sp = {fn}({ex_args})
    >>> print(round(float(s), 6), round(float(sp), 6))
    {ex_out}
    """


def pro_ang1(m: Any, n: Any, c: Any, x: Any) -> tuple:
    return _ang("pro_ang1", m, n, c, x, None, 1.0)


def obl_ang1(m: Any, n: Any, c: Any, x: Any) -> tuple:
    return _ang("obl_ang1", m, n, c, x, None, -1.0)


def pro_ang1_cv(m: Any, n: Any, c: Any, cv: Any, x: Any) -> tuple:
    return _ang("pro_ang1_cv", m, n, c, x, cv, 1.0)


def obl_ang1_cv(m: Any, n: Any, c: Any, cv: Any, x: Any) -> tuple:
    return _ang("obl_ang1_cv", m, n, c, x, cv, -1.0)


for _f, _kind, _cvfn, _ex, _out in [
        (pro_ang1, "Prolate", "pro_cv", "1, 2, 1.5, 0.3", "0.846446 2.46222"),
        (obl_ang1, "Oblate", "obl_cv", "1, 2, 1.5, 0.3", "0.871291 2.702523"),
        (pro_ang1_cv, "Prolate", "pro_cv", "1, 2, 1.5, pro_cv(1, 2, 1.5), 0.3",
         "0.846446 2.46222"),
        (obl_ang1_cv, "Oblate", "obl_cv", "1, 2, 1.5, obl_cv(1, 2, 1.5), 0.3",
         "0.871291 2.702523")]:
    _cvgiven = _f.__name__.endswith("_cv")
    _f.__doc__ = _ANG_DOC.format(
        kind=_kind, fn=_f.__name__, cvfn=_cvfn,
        cvtext=", for a given characteristic value" if _cvgiven else "",
        cvparam=("\n    cv : array_like\n        Characteristic value (as from "
                 f":func:`{_cvfn}`)." if _cvgiven else ""),
        cvnote=" (its index picks the eigenvector; ``cv`` is the eigenvalue"
               " in the recurrence)" if _cvgiven else "",
        cvdiff=" (and ``cv``)" if _cvgiven else "",
        ex_args=_ex.replace("pro_cv(", "sciax.special.pro_cv(").replace(
            "obl_cv(", "sciax.special.obl_cv("),
        ex_out=_out)
del _f, _kind, _cvfn, _ex, _out, _cvgiven
