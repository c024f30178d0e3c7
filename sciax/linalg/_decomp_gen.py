"""The generalized eigenproblem ``a v = w b v`` (SciPy's ``eig(a, b)`` and
``eigvals(a, b)``) and the cosine-sine decomposition ``cossin``.

jaxlib ships neither LAPACK's QZ driver (ggev) nor its CS drivers
(orcsd/uncsd), so both are composed here from the primitives that exist:
LU, solve and geev for the pencil, SVD and QR for the CS decomposition.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

import sciax.numpy as snp
from sciax import lax
from sciax.lax import linalg as lla
from sciax.linalg import _util
from sciax.linalg._solve import solve
from sciax.linalg._util import adjoint

__all__ = ["cossin"]


# --- generalized eigenproblem (shift and invert) --------------------------------------

# Shifts are these fractions of ||a|| / ||b||: irrational-looking, so that a
# pencil with a "nice" spectrum (integers, symmetric about 0) does not put an
# eigenvalue on all of them; of several, the best conditioned LU wins.
_SHIFTS = (0.6180339887498949, -1.3247179572447460, 2.2360679774997896)
# Complex input gets the shifts rotated off the real axis (a complex spectrum
# has no reason to be symmetric about this direction).
_UNIT = complex(np.cos(0.9), np.sin(0.9))


def _best_shift(a: Any, b: Any) -> tuple[Any, Any]:
    """The shift ``sigma`` (one per batch member) whose ``a - sigma b`` has
    the LU factor with the largest ``min |u_ii| / max |u_ii|``, and that ratio.
    The choice is piecewise constant, so it carries no derivative."""
    a, b = lax.stop_gradient(a), lax.stop_gradient(b)
    rdt = _util.real_dtype(a)
    na = snp.sqrt(snp.sum(snp.abs(a) ** 2, axis=(-2, -1)))
    nb = snp.sqrt(snp.sum(snp.abs(b) ** 2, axis=(-2, -1)))
    ok = (na > 0) & (nb > 0) & snp.isfinite(na) & snp.isfinite(nb)
    scale = snp.where(ok, na / snp.where(ok, nb, 1), 1).astype(rdt)
    unit = _UNIT if _util.is_complex(a) else 1.0
    fracs = snp.asarray(np.array(_SHIFTS) * unit, dtype=a.dtype)
    sig = scale[..., None].astype(a.dtype) * fracs  # (..., K)
    shifted = a[..., None, :, :] - sig[..., :, None, None] * b[..., None, :, :]
    packed, _, _ = lla.lu(shifted)
    d = snp.abs(snp.diagonal(packed, 0, -2, -1))  # (..., K, n)
    big = snp.max(d, axis=-1)
    quality = snp.where(big > 0, snp.min(d, axis=-1) / snp.where(big > 0, big, 1), 0)
    quality = snp.where(snp.isnan(quality), 0, quality)
    k = snp.argmax(quality, axis=-1)
    sigma = snp.take_along_axis(sig, k[..., None], axis=-1)[..., 0]
    return sigma, snp.max(quality, axis=-1)


def _unit_columns(v: Any) -> Any:
    n = snp.sqrt(snp.sum(snp.abs(v) ** 2, axis=-2, keepdims=True))
    return v / snp.where(n > 0, n, 1).astype(v.dtype)


def _eig_generalized(a: Any, b: Any, left: bool = False, right: bool = True,
                     homogeneous_eigvals: bool = False) -> Any:
    """``scipy.linalg.eig(a, b, left=left, right=right,
    homogeneous_eigvals=homogeneous_eigvals)`` (and, with neither ``left`` nor
    ``right``, ``eigvals(a, b)``): the backend of :func:`sciax.linalg.eig`
    and :func:`sciax.linalg.eigvals` when ``b`` is given.

    Method
    ------
    Shift and invert: for a shift ``sigma`` with ``a - sigma b`` invertible,
    the eigenpairs ``(mu, v)`` of ``M = solve(a - sigma b, b)`` give those of
    the pencil, ``a v = (sigma + 1/mu) b v``, in homogeneous form
    ``(alpha, beta) = (1 + sigma mu, mu)``.  A zero ``mu`` (``|mu| <= n eps
    ||M||``, a singular ``b``) is an infinite eigenvalue, reported with
    ``beta = 0`` and ``w = inf`` as ggev does; "zero" means within the
    first-order error bound ``10 n eps ||M|| / |y^H x|`` (``y``, ``x`` the unit
    left and right eigenvectors of ``M``), inflated by the reciprocal of the
    LU pivot ratio of ``a - sigma b`` for the error of forming ``M``.  Left eigenvectors come from
    the left eigenvectors ``y`` of the same ``M`` (so the order matches):
    ``vl = (a - sigma b)^{-H} y`` satisfies ``vl^H a = w vl^H b``.
    ``(alpha, beta)`` are scaled so that ``beta`` is real, nonnegative and
    ``|alpha|^2 + |beta|^2 = 1`` (ggev's scaling is that of its Schur form:
    only the ratio is comparable); eigenvectors have unit 2-norm, as SciPy
    makes them.

    This is not the backward-stable QZ algorithm: eigenvalues far from the
    shift (``|w - sigma| >> ||a|| / ||b||``) lose accuracy in proportion to
    the conditioning of ``a - sigma b``.  A singular pencil
    (``det(a - lambda b) == 0`` for every ``lambda``), for which every shift
    gives a numerically singular ``a - sigma b``, gives NaN eigenvalues and
    eigenvectors.  Differentiable by composition (solve + eig) where the
    eigenvalues are finite and distinct.
    """
    a, b = _util.inexact("eig", a, b)
    _util.matrix("eig", a, square=True)
    _util.matrix("eig", b, square=True, what="b")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"eig: a and b must have the same shape, got a {a.shape} "
                         f"and b {b.shape}")
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    n = a.shape[-1]
    a = snp.broadcast_to(a, batch + (n, n))
    b = snp.broadcast_to(b, batch + (n, n))
    cdt = np.dtype(snp.result_type(a.dtype, snp.complex64))
    rdt = _util.real_dtype(a)
    if n == 0:
        w = snp.zeros(batch + ((2, 0) if homogeneous_eigvals else (0,)), cdt)
        v = snp.zeros(batch + (0, 0), cdt)
        out = [w] + [v] * (int(bool(left)) + int(bool(right)))
        return out[0] if len(out) == 1 else tuple(out)

    sigma, quality = _best_shift(a, b)
    # Real input keeps a real shift, so M is real and geev returns exact
    # complex-conjugate pairs, as ggev does for a real pencil.
    shifted = a - sigma[..., None, None] * b
    m = solve(shifted, b)
    mu, y, x = lla.eig(m, compute_left_eigenvectors=True,
                       compute_right_eigenvectors=True)
    # mu is zero (an infinite eigenvalue) when it lies within its own
    # first-order error bound: eps ||M|| times its condition number
    # 1 / |y^H x|, times 1 / quality for the error made in forming M.
    eps = float(snp.finfo(rdt).eps)
    stop = lax.stop_gradient
    norm_m = snp.sqrt(snp.sum(snp.abs(stop(m)) ** 2, axis=(-2, -1)))
    yx = snp.abs(snp.sum(snp.conj(stop(y)) * stop(x), axis=-2))
    bound = (10 * n * eps) * (norm_m / snp.maximum(quality, eps))[..., None]
    infinite = stop(snp.abs(mu)) * yx <= bound
    # Every shift singular to working accuracy: a singular pencil.
    singular = (quality <= n * eps)[..., None]
    nan = snp.asarray(complex(np.nan, np.nan), cdt)

    sig_c = sigma[..., None].astype(cdt)
    alpha = 1 + sig_c * mu
    if homogeneous_eigvals:
        amag = snp.abs(mu)
        phase = snp.where(amag > 0, snp.conj(mu) / snp.where(amag > 0, amag, 1)
                          .astype(cdt), 1)
        alpha_r = alpha * phase
        beta = snp.where(infinite, 0, amag)
        h = snp.sqrt(snp.abs(alpha_r) ** 2 + beta ** 2)
        h = snp.where(h > 0, h, 1)
        w = snp.stack([alpha_r / h.astype(cdt), (beta / h).astype(cdt)], axis=-2)
        w = snp.where(singular[..., None, :], nan, w)
    else:
        safe_mu = snp.where(infinite, 1, mu)
        w = snp.where(infinite, snp.asarray(complex(np.inf, 0), cdt),
                      sig_c + 1 / safe_mu)
        w = snp.where(singular, nan, w)
    out = [w]
    if left:
        vl = _unit_columns(solve(adjoint(shifted), y))
        out.append(snp.where(singular[..., None, :], nan, vl))
    if right:
        vr = _unit_columns(x)
        out.append(snp.where(singular[..., None, :], nan, vr))
    return out[0] if len(out) == 1 else tuple(out)
