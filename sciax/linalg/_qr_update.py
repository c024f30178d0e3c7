"""``qr_update``, ``qr_insert`` and ``qr_delete``: the QR decomposition of a
matrix changed by a rank-k term or by inserted/deleted rows or columns.

SciPy updates the factors with Givens rotations in ``O(N^2)``; here the
changed matrix ``A1`` is formed from ``Q @ R`` and decomposed afresh, which is
``O(N^3)`` but has the derivative of :func:`sciax.linalg.qr` for free and
runs as one batched XLA factorisation.  The result keeps SciPy's contract:
``Q1 @ R1 == A1`` with ``Q1`` unitary and ``R1`` upper triangular, full
factors in, full factors out, economic in, economic out.  Individual columns
of ``Q1`` (and rows of ``R1``) may differ from SciPy's by a unit factor, and
for a tall full ``Q`` its trailing columns are another basis of the same
orthogonal complement; SciPy itself does not promise signs.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax.lax import linalg as lla
from sciax.linalg import _util
from sciax.linalg._basic import LinAlgError
from sciax.linalg._util import adjoint

__all__ = ["qr_delete", "qr_insert", "qr_update"]


def _factors(name: str, Q: Any, R: Any, *others: Any) -> tuple[Any, ...]:
    """Promote; check ``(M,M) (M,N)`` (full) or ``(M,N) (N,N)`` (economic).
    Returns ``Q, R, *others, economic``."""
    Q, R, *others = _util.inexact(name, Q, R, *others)
    if Q.ndim < 2 or R.ndim < 2:
        raise ValueError(f"{name}: Q and R must be 2-D (or stacks of matrices), got "
                         f"shapes {Q.shape} and {R.shape}")
    (m, mq), (mr, n) = Q.shape[-2:], R.shape[-2:]
    full = m == mq and mr == m
    economic = not full and mq == mr == n and m > n
    if not (full or economic):
        raise ValueError(f"{name}: Q and R do not have compatible shapes. Expected "
                         "(M,M) (M,N) or (M,N) (N,N) but found "
                         f"{Q.shape[-2:]} {R.shape[-2:]} for Q and R respectively")
    return (Q, R, *others, economic)


def _refactor(a: Any, economic: bool) -> tuple[Any, Any]:
    q, r = lla.qr(a, full_matrices=not economic)
    return q, r


# Each change is compiled as one program (with the refactorisation): eagerly,
# op-by-op dispatch would compile every op separately.

@functools.partial(sciax.jit, static_argnames=("economic",))
def _update_core(Q: Any, R: Any, u: Any, v: Any, *, economic: bool) -> Any:
    return _refactor(Q @ R + u @ adjoint(v), economic)


@functools.partial(sciax.jit, static_argnames=("k", "axis", "economic"))
def _insert_core(Q: Any, R: Any, u: Any, *, k: int, axis: int, economic: bool
                 ) -> Any:
    return _refactor(_insert(Q @ R, u, k, axis), economic)


@functools.partial(sciax.jit, static_argnames=("k", "p", "axis", "economic"))
def _delete_core(Q: Any, R: Any, *, k: int, p: int, axis: int, economic: bool
                 ) -> Any:
    a = Q @ R
    if axis == -2:
        a1 = snp.concatenate([a[..., :k, :], a[..., k + p:, :]], axis=-2)
    else:
        a1 = snp.concatenate([a[..., :k], a[..., k + p:]], axis=-1)
    return _refactor(a1, economic)


def qr_update(Q: Any, R: Any, u: Any, v: Any, overwrite_qruv: bool = False,
              check_finite: bool = True) -> tuple[Any, Any]:
    """QR decomposition of ``A + u @ v^H`` from that of ``A = Q @ R``.

    Parameters
    ----------
    Q, R : array_like
        Full ``(..., M, M)``, ``(..., M, N)`` or economic ``(..., M, N)``,
        ``(..., N, N)`` factors.
    u : array_like, shape (M,) or (..., M, k)
    v : array_like, shape (N,) or (..., N, k)
        The update is ``u @ v^H`` (``u @ v.T`` for real input); ``u`` and
        ``v`` have the same number of dimensions.
    overwrite_qruv, check_finite : bool
        Ignored.

    Returns
    -------
    Q1, R1 : Array
        Factors of the updated matrix, full or economic as given.

    Notes
    -----
    Recomputes the QR of the updated matrix, ``O(N^3)`` (see the module
    notes); differentiable as :func:`qr` is.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3.0, -2.0], [6.0, -9.0], [-3.0, 10.0]])
    >>> q, r = linalg.qr(a)
    >>> u, v = np.array([1.0, 0.0, 2.0]), np.array([1.0, -1.0])
    >>> q1, r1 = linalg.qr_update(q, r, u, v)
    >>> bool(np.allclose(q1 @ r1, a + np.outer(u, v)))
    True
    """
    del overwrite_qruv, check_finite
    Q, R, u, v, economic = _factors("qr_update", Q, R, u, v)
    if u.ndim != v.ndim:
        raise ValueError(f"qr_update: u and v must have the same number of "
                         f"dimensions, got shapes {u.shape} and {v.shape}")
    if u.ndim == 0:
        raise ValueError("qr_update: u and v must be vectors or matrices")
    if u.ndim == 1:
        u, v = u[:, None], v[:, None]
    m, n = Q.shape[-2], R.shape[-1]
    if u.shape[-2] != m:
        raise ValueError(f"qr_update: u.shape[0] must equal Q.shape[0], got u "
                         f"{u.shape} and Q {Q.shape}")
    if v.shape[-2] != n:
        raise ValueError(f"qr_update: v.shape[0] must equal R.shape[1], got v "
                         f"{v.shape} and R {R.shape}")
    if u.shape[-1] != v.shape[-1]:
        raise ValueError(f"qr_update: Second dimension of u and v must be the same, "
                         f"got u {u.shape} and v {v.shape}")
    return _update_core(Q, R, u, v, economic=economic)


def _which(name: str, which: str) -> str:
    if which not in ("row", "col"):
        raise ValueError(f"{name}: 'which' must be either 'row' or 'col', got "
                         f"{which!r}")
    return which


def _insert(a: Any, u: Any, k: int, axis: int) -> Any:
    n = a.shape[axis]
    head = a[..., :k, :] if axis == -2 else a[..., :k]
    tail = a[..., k:n, :] if axis == -2 else a[..., k:n]
    batch = np.broadcast_shapes(a.shape[:-2], u.shape[:-2])

    def b(x: Any) -> Any:
        return snp.broadcast_to(x, batch + x.shape[-2:])

    return snp.concatenate([b(head), b(u), b(tail)], axis=axis)


def _span_check(Q: Any, u: Any, rcond: Any, q1: Any, r1: Any) -> tuple[Any, Any]:
    """SciPy's check for economic column insertion: the reciprocal condition
    number of ``[Q, u/||u||]`` must not be below ``rcond``."""
    if rcond is None:
        rcond = float(snp.finfo(_util.real_dtype(Q)).eps)
    w = u / snp.sqrt(snp.sum(snp.abs(u) ** 2, axis=-2, keepdims=True))
    batch = np.broadcast_shapes(Q.shape[:-2], w.shape[:-2])
    aug = snp.concatenate([snp.broadcast_to(Q, batch + Q.shape[-2:]),
                           snp.broadcast_to(w, batch + w.shape[-2:])], axis=-1)
    s = lla.svd(aug, compute_uv=False)
    rc = snp.min(s, axis=-1) / snp.max(s, axis=-1)
    bad = rc < rcond
    try:
        rc_host = np.asarray(snp.min(rc))
    except TypeError:  # traced: NaN stands for the error
        return (snp.where(bad[..., None, None], np.nan, q1),
                snp.where(bad[..., None, None], np.nan, r1))
    if rc_host < rcond:
        raise LinAlgError("qr_insert: One of the columns of u lies in the span of Q. "
                          f"Found reciprocal condition number of {float(rc_host)} "
                          "for Q augmented with u/||u||.")
    return q1, r1


def qr_insert(Q: Any, R: Any, u: Any, k: int, which: str = "row", rcond: Any = None,
              overwrite_qru: bool = False, check_finite: bool = True
              ) -> tuple[Any, Any]:
    """QR decomposition of ``A = Q @ R`` with rows or columns inserted before
    row or column ``k``.

    Parameters
    ----------
    Q, R : array_like
        Full ``(..., M, M)``, ``(..., M, N)`` or economic ``(..., M, N)``,
        ``(..., N, N)`` factors.
    u : array_like
        ``(N,)`` or ``(..., p, N)`` rows for ``which='row'``; ``(M,)`` or
        ``(..., M, p)`` columns for ``which='col'``.
    k : int
        Index before which ``u`` goes; negative counts from the end
        (``-M <= k <= M`` for rows, ``-N <= k <= N`` for columns).
    which : {'row', 'col'}
    rcond : float, optional
        For economic factors and columns: the smallest acceptable reciprocal
        condition number (2-norm) of ``[Q, u/||u||]``; default the machine
        epsilon.  Below it a column of ``u`` lies in the span of ``Q``:
        ``LinAlgError`` eagerly, NaN results under ``jit``.
    overwrite_qru, check_finite : bool
        Ignored.

    Returns
    -------
    Q1, R1 : Array
        Factors of the enlarged matrix, full or economic as given.

    Notes
    -----
    Recomputes the QR of the enlarged matrix, ``O(N^3)`` (see the module
    notes).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3.0, -2.0], [6.0, -9.0], [-3.0, 10.0]])
    >>> q, r = linalg.qr(a)
    >>> q1, r1 = linalg.qr_insert(q, r, np.array([1.0, 1.0]), 1)
    >>> bool(np.allclose(q1 @ r1, np.insert(a, 1, [1.0, 1.0], axis=0)))
    True
    """
    del overwrite_qru, check_finite
    which = _which("qr_insert", which)
    Q, R, u, economic = _factors("qr_insert", Q, R, u)
    m, n = Q.shape[-2], R.shape[-1]
    k = int(k)
    if which == "row":
        if u.ndim == 1:
            u = u[None, :]
        if u.ndim == 0 or u.shape[-1] != n:
            raise ValueError("qr_insert: 'u' should be either (N,) or (p,N) when "
                             f"inserting rows. Found {u.shape} (N = {n}).")
        size, axis = m, -2
    else:
        if u.ndim == 1:
            u = u[:, None]
        if u.ndim == 0 or u.shape[-2] != m:
            raise ValueError("qr_insert: 'u' should be either (M,) or (M,p) when "
                             f"inserting columns. Found {u.shape} (M = {m}).")
        size, axis = n, -1
    if not -size <= k <= size:
        raise ValueError(f"qr_insert: 'k' is out of bounds: k = {k} for {size} "
                         f"{which}s")
    k = k + size if k < 0 else k
    q1, r1 = _insert_core(Q, R, u, k=k, axis=axis, economic=economic)
    if economic and which == "col":
        q1, r1 = _span_check(Q, u, rcond, q1, r1)
    return q1, r1


def qr_delete(Q: Any, R: Any, k: int, p: int = 1, which: str = "row",
              overwrite_qr: bool = False, check_finite: bool = True
              ) -> tuple[Any, Any]:
    """QR decomposition of ``A = Q @ R`` with ``p`` rows or columns removed,
    starting at row or column ``k``.

    Parameters
    ----------
    Q, R : array_like
        Full ``(..., M, M)``, ``(..., M, N)`` or economic ``(..., M, N)``,
        ``(..., N, N)`` factors.
    k : int
        First row or column to delete; negative counts from the end.
    p : int, default 1
        How many; ``k + p`` must not pass the end.
    which : {'row', 'col'}
    overwrite_qr, check_finite : bool
        Ignored.

    Returns
    -------
    Q1, R1 : Array
        Factors of the reduced matrix: full as given, or economic (with
        ``min(M1, N1)`` columns of ``Q1`` when rows ran short).

    Notes
    -----
    Recomputes the QR of the reduced matrix, ``O(N^3)`` (see the module
    notes).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3.0, -2.0], [6.0, -9.0], [-3.0, 10.0]])
    >>> q, r = linalg.qr(a)
    >>> q1, r1 = linalg.qr_delete(q, r, 0, 1, 'row')
    >>> q1.shape, r1.shape
    ((2, 2), (2, 2))
    >>> bool(np.allclose(q1 @ r1, a[1:]))
    True
    """
    del overwrite_qr, check_finite
    which = _which("qr_delete", which)
    Q, R, economic = _factors("qr_delete", Q, R)
    size = Q.shape[-2] if which == "row" else R.shape[-1]
    k, p = int(k), int(p)
    k = k + size if k < 0 else k
    if not 0 <= k < size:
        raise ValueError(f"qr_delete: 'k' is out of bounds: k = {k} for {size} "
                         f"{which}s")
    if p <= 0 or k + p > size:
        raise ValueError(f"qr_delete: 'p' is out of range: p = {p} {which}s from "
                         f"k = {k} of {size}")
    return _delete_core(Q, R, k=k, p=p, axis=-2 if which == "row" else -1,
                        economic=economic)
