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
    ``(alpha, beta) = (1 + sigma mu, mu)``.  A zero ``mu`` (from a singular
    ``b``) is an infinite eigenvalue, reported with ``beta = 0`` and
    ``w = inf`` as ggev does; "zero" means within the first-order error
    bound ``10 n eps ||M|| / |y^H x|`` (``y``, ``x`` the unit left and right
    eigenvectors of ``M``), inflated by the reciprocal of the LU pivot ratio
    of ``a - sigma b`` for the error of forming ``M``.  Left eigenvectors
    come from the left eigenvectors ``y`` of the same ``M`` (so the order
    matches): ``vl = (a - sigma b)^{-H} y`` satisfies ``vl^H a = w vl^H b``.
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


# --- cosine-sine decomposition --------------------------------------------------------

def _block_diag(x: Any, y: Any) -> Any:
    batch = x.shape[:-2]
    top = snp.concatenate([x, snp.zeros(batch + (x.shape[-2], y.shape[-1]), x.dtype)],
                          axis=-1)
    bottom = snp.concatenate([snp.zeros(batch + (y.shape[-2], x.shape[-1]), y.dtype),
                              y], axis=-1)
    return snp.concatenate([top, bottom], axis=-2)


def _cs_matrix(theta: Any, p: int, q: int, m: int, swap_sign: bool) -> Any:
    """SciPy's middle factor: identity blocks at static places plus ``cos``
    and ``+-sin`` of ``theta`` at static places (see :func:`cossin`)."""
    r = theta.shape[-1]
    n11, n12 = min(p, q) - r, min(p, m - q) - r
    n21, n22 = min(m - p, q) - r, min(m - p, m - q) - r
    sgn = 1.0 if swap_sign else -1.0  # sign of the top-right sine and identity
    fixed = np.zeros((m, m))
    fixed[range(n11), range(n11)] = 1
    fixed[range(n11 + r, p), range(q + n22 + r, m)] = sgn
    fixed[range(p + n22 + r, m), range(n11 + r, q)] = -sgn
    fixed[range(p, p + n22), range(q, q + n22)] = 1
    pc, ps = np.zeros((r, m, m)), np.zeros((r, m, m))
    for i in range(r):
        pc[i, n11 + i, n11 + i] = pc[i, p + n22 + i, q + n22 + i] = 1
        ps[i, n11 + i, q + n22 + i], ps[i, p + n22 + i, n11 + i] = sgn, -sgn
    dt = theta.dtype
    flat = (snp.cos(theta) @ snp.asarray(pc.reshape(r, m * m), dt)
            + snp.sin(theta) @ snp.asarray(ps.reshape(r, m * m), dt))
    return snp.asarray(fixed, dt) + flat.reshape(theta.shape[:-1] + (m, m))


def _cossin_blocks(x11: Any, x12: Any, x21: Any, x22: Any
                   ) -> tuple[Any, Any, Any, Any, Any]:
    """``u1, u2, theta, v1h, v2h`` (SciPy's sign convention, ``swap_sign``
    False) from an SVD of ``x11`` and a QR of ``x21 v1``; see :func:`cossin`."""
    p, q = x11.shape[-2:]
    m = p + x22.shape[-2]
    k, r = min(p, q), min(p, q, m - p, m - q)
    n11, n21 = k - r, q - k
    n22 = m - p - r - n21
    s, u1, v1h = lla.svd(x11, full_matrices=True, compute_uv=True)
    # columns of x21 v1: ~0 (the n11 unit cosines), the sines of the r
    # angles (ascending, as the cosines descend) and n21 orthonormal ones.
    # QR takes the big ones first (so the small sines, whose directions are
    # least certain, are fitted last) and gives u2 with R ~ diag(sines).
    t21 = x21 @ adjoint(v1h)
    z = snp.concatenate([t21[..., :, k:], snp.flip(t21[..., :, n11:k], axis=-1)],
                        axis=-1)
    qz, rz = lla.qr(z, full_matrices=True)
    d = snp.diagonal(rz, 0, -2, -1)
    mag = snp.abs(d)
    phase = snp.where(mag > 0, d / snp.where(mag > 0, mag, 1).astype(d.dtype), 1)
    lead = qz[..., :, :n21 + r] * phase[..., None, :]
    u2 = snp.concatenate([qz[..., :, n21 + r:], snp.flip(lead[..., :, n21:], axis=-1),
                          lead[..., :, :n21]], axis=-1)
    sines = snp.flip(mag[..., n21:], axis=-1)
    # arctan2 of the sine and cosine keeps small and near-right angles
    # accurate (arccos of a cosine near 1 would not)
    theta = snp.arctan2(sines, s[..., n11:k])
    # The right block of u^H x is cs_right @ v2^H, and cs_right has
    # orthonormal columns: v2^H = cs_right^T (u^H x)_right.
    y12 = adjoint(u1) @ x12
    y22 = adjoint(u2) @ x22
    c, sn = snp.cos(theta)[..., :, None], snp.sin(theta)[..., :, None]
    v2h = snp.concatenate([y22[..., :n22, :],
                           (c * y22[..., n22:n22 + r, :] - sn * y12[..., n11:k, :]
                            ).astype(x12.dtype),
                           -y12[..., k:, :]], axis=-2)
    return u1, u2, theta, v1h, v2h


def cossin(X: Any, p: int | None = None, q: int | None = None,
           separate: bool = False, swap_sign: bool = False, compute_u: bool = True,
           compute_vh: bool = True) -> tuple[Any, Any, Any]:
    """Cosine-sine (CS) decomposition of an orthogonal or unitary matrix.

    ``X`` (``m x m``), partitioned with a ``p x q`` upper-left block, is
    factored as ``X = U @ CS @ VDH`` with block-diagonal unitary
    ``U = diag(U1, U2)`` (blocks ``p`` and ``m - p``), ``VDH = diag(V1^H,
    V2^H)`` (blocks ``q`` and ``m - q``) and::

             ┌                   ┐
             │ I  0  0 │ 0  0  0 │
             │ 0  C  0 │ 0 -S  0 │
             │ 0  0  0 │ 0  0 -I │
        CS = │─────────┼─────────│    C = diag(cos theta), S = diag(sin theta)
             │ 0  0  0 │ I  0  0 │
             │ 0  S  0 │ 0  C  0 │
             │ 0  0  I │ 0  0  0 │
             └                   ┘

    with ``r = min(p, m - p, q, m - q)`` angles ``0 <= theta <= pi/2``
    (ascending) and identity blocks of sizes ``min(p, q) - r``,
    ``min(p, m - q) - r``, ``min(m - p, q) - r`` and ``min(m - p, m - q) - r``.

    Parameters
    ----------
    X : array_like, shape (..., M, M), or a sequence of four arrays
        The unitary matrix (with ``p`` and ``q``), or its blocks ``(X11, X12,
        X21, X22)`` when ``p`` and ``q`` are omitted.
    p, q : int, optional
        Rows and columns of ``X11`` (``0 < p, q < M``); if only one is given
        the other is 1, as in SciPy.
    separate : bool, default False
        Return ``(U1, U2), theta, (V1H, V2H)`` instead of ``U, CS, VDH``.
    swap_sign : bool, default False
        Put ``-S`` and ``-I`` in the lower-left block instead.
    compute_u, compute_vh : bool, default True
        If False, that factor (or each of its blocks) is an empty ``(0, 0)``
        array.

    Returns
    -------
    u : Array, shape (..., M, M), or (U1, U2)
    cs : Array, shape (..., M, M), real, or theta, shape (..., r)
    vdh : Array, shape (..., M, M), or (V1H, V2H)

    Raises
    ------
    ValueError
        ``X`` not square, ``p`` or ``q`` out of range, blocks of mismatched
        or empty sizes, or not four blocks.  As in SciPy, ``X`` is not checked
        for being unitary (a non-unitary ``X`` gives a meaningless result).

    Notes
    -----
    SciPy calls LAPACK's orcsd/uncsd (Sutton's simultaneous bidiagonalisation),
    which jaxlib lacks.  Here ``U1, cos theta, V1`` come from an SVD of
    ``X11``; ``U2`` and the sines from a QR of ``X21 V1`` (largest sines
    first), and ``V2^H`` from the right block of ``U^H X`` projected onto the
    structure of ``CS``.  The factors are unitary and reproduce ``X`` to
    working accuracy, and the angles are accurate, but the CS structure of
    ``U^H X V`` can carry errors up to ``eps / sin(theta)`` for angles near
    ``sqrt(eps)``, where orcsd's are ``O(eps)``.  The factors are not
    unique (repeated angles, and the signs or phases of paired columns), so
    they may differ from SciPy's by those freedoms; ``theta`` and ``cs``
    agree.  Works under ``jit`` and ``vmap``; derivatives follow from the
    SVD and QR and exist only for distinct angles strictly between 0 and
    ``pi/2`` (``theta`` is not smooth where angles meet or hit the ends).

    Examples
    --------
    >>> from sciax import linalg
    >>> c, s = np.cos(0.3), np.sin(0.3)
    >>> x = np.array([[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]])
    >>> u, cs, vdh = linalg.cossin(x, p=1, q=1)
    >>> bool(np.allclose(np.asarray(u @ cs @ vdh), x))
    True
    >>> linalg.cossin(x, p=1, q=1, separate=True)[1]
    Array([0.3], dtype=float64)
    """
    if p or q:
        p = 1 if p is None else int(p)
        q = 1 if q is None else int(q)
        (x,) = _util.inexact("cossin", X)
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ValueError(f"cossin: Cosine Sine decomposition only supports "
                             f"square matrices, got shape {x.shape}")
        m = x.shape[-1]
        if not 0 < p < m:
            raise ValueError(f"cossin: invalid p={p}, 0<p<{m} must hold")
        if not 0 < q < m:
            raise ValueError(f"cossin: invalid q={q}, 0<q<{m} must hold")
        blocks = [x[..., :p, :q], x[..., :p, q:], x[..., p:, :q], x[..., p:, q:]]
    elif not isinstance(X, Iterable):
        raise ValueError("cossin: when p and q are None, X must be an iterable "
                         "containing the subblocks of X")
    else:
        if len(X) != 4:
            raise ValueError(f"cossin: when p and q are None, exactly four arrays "
                             f"should be in X, got {len(X)}")
        blocks = [snp.atleast_2d(b) for b in _util.inexact("cossin", *X)]
    for name, blk in zip(("x11", "x12", "x21", "x22"), blocks):
        if blk.shape[-1] == 0:
            raise ValueError(f"cossin: {name} can't be empty")
    x11, x12, x21, x22 = blocks
    p, q = x11.shape[-2:]
    mmp, mmq = x22.shape[-2:]
    if x12.shape[-2:] != (p, mmq):
        raise ValueError(f"cossin: invalid x12 dimensions: desired {(p, mmq)}, got "
                         f"{x12.shape[-2:]}")
    if x21.shape[-2:] != (mmp, q):
        raise ValueError(f"cossin: invalid x21 dimensions: desired {(mmp, q)}, got "
                         f"{x21.shape[-2:]}")
    if p + mmp != q + mmq:
        raise ValueError(f"cossin: the subblocks have compatible sizes but don't "
                         f"form a square array (they form a {p + mmp}x{q + mmq} "
                         "array); are the p, q arguments missing?")
    m = p + mmp
    batch = tuple(np.broadcast_shapes(*(b.shape[:-2] for b in blocks)))
    x11, x12, x21, x22 = (snp.broadcast_to(b, batch + b.shape[-2:]) for b in blocks)
    u1, u2, theta, v1h, v2h = _cossin_blocks(x11, x12, x21, x22)
    if swap_sign:
        u2, v2h = -u2, -v2h
    empty = snp.zeros((0, 0), x11.dtype)
    if separate:
        return ((u1, u2) if compute_u else (empty, empty), theta,
                (v1h, v2h) if compute_vh else (empty, empty))
    return (_block_diag(u1, u2) if compute_u else empty,
            _cs_matrix(theta, p, q, m, bool(swap_sign)),
            _block_diag(v1h, v2h) if compute_vh else empty)
