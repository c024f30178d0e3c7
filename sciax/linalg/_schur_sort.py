"""Reordering of a Schur form ``a = z @ t @ z^H`` so that selected eigenvalues
lead the diagonal: what LAPACK's gees does with a SELECT function, built here
because jaxlib's gees kernel takes none.

The unsorted form is reordered as LAPACK's trsen does: the blocks are visited
top to bottom and each selected one is moved up, past the unselected blocks
above it, by swapping adjacent diagonal blocks.  A swap of blocks of sizes
``p, q`` in {1, 2} is the direct method of Bai & Demmel (1993): solve the
small Sylvester equation ``T11 X - X T22 = T12``; the QR factor ``Q`` of
``[-X; I]`` is orthogonal with ``Q^T [T11 T12; 0 T22] Q = [T22' *; 0 T11']``.
The fill below the new blocks (rounding-sized) is zeroed and each new 2x2
block is rotated to the standard form (equal diagonal, as LAPACK's lanv2).
Two 1x1 blocks (every swap of a complex Schur form) swap by one Givens
rotation built from the eigenvector ``[t12, t22 - t11]``, which needs no
division.  Swaps are applied to whole rows and columns of ``t`` and ``z``
through one-hot ``(n, 4)`` window matrices, so the block positions may be
traced values: everything runs in ``while_loop``s, under ``jit`` and ``vmap``.

Not done (LAPACK's trexc does them): scaling against overflow and the
rejection of a swap that would perturb the eigenvalues too much (swapping
nearly equal eigenvalues of 2x2 blocks is ill-conditioned).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.lax import linalg as lla

SORTS = ("lhp", "rhp", "iuc", "ouc")

_WINDOW = 4  # rows and columns a swap touches: two 2x2 blocks


def selection(sort: Any, name: str = "schur") -> Callable[..., Any]:
    """SciPy's named selections as functions of ``(x)`` (complex form) or
    ``(re, im)`` (real form); a callable is returned as it is."""
    if callable(sort):
        return sort
    if not isinstance(sort, str) or sort not in SORTS:
        raise ValueError(f"{name}: 'sort' must be None, a callable or one of "
                         f"{SORTS}, got {sort!r}")

    def select(x: Any, y: Any = None) -> Any:
        re = snp.real(x)
        if sort == "lhp":
            return re < 0
        if sort == "rhp":
            return re >= 0
        mod = snp.abs(x) if y is None else snp.hypot(x, y)
        return mod <= 1 if sort == "iuc" else mod > 1
    return select


def _shift(v: Any, k: int) -> Any:
    """``out[i] = v[i + k]`` with zeros (False) past the ends."""
    n = v.shape[-1]
    pad = snp.zeros(abs(k), v.dtype)
    return (snp.concatenate([v[k:], pad]) if k > 0
            else snp.concatenate([pad, v[:n + k]]))


def selected_positions(t: Any, select: Callable[..., Any]) -> Any:
    """Bool ``(n,)``: which diagonal positions of the Schur form ``t`` (one
    matrix) hold a selected eigenvalue; both halves of a real 2x2 block are
    selected when either of its eigenvalues is (as LAPACK's gees)."""
    d = snp.diagonal(t)
    if snp.iscomplexobj(t):
        return snp.asarray(select(d)).astype(bool)
    sub = snp.concatenate([snp.diagonal(t, -1), snp.zeros(1, t.dtype)])
    sup = snp.concatenate([snp.diagonal(t, 1), snp.zeros(1, t.dtype)])
    starts = sub != 0                     # a 2x2 block starts here
    seconds = _shift(starts, -1)          # ... or ends here
    d_next = _shift(d, 1)
    half = (d - d_next) / 2
    im_pair = snp.sqrt(snp.maximum(-(half * half + sup * sub), 0))
    re_pair = (d + d_next) / 2
    re = snp.where(starts, re_pair, snp.where(seconds, _shift(re_pair, -1), d))
    im = snp.where(starts, im_pair, snp.where(seconds, -_shift(im_pair, -1), 0))
    sel = snp.asarray(select(re, im)).astype(bool)
    pair = (starts & _shift(sel, 1)) | (seconds & _shift(sel, -1))
    return sel | pair


# --- swapping two adjacent diagonal blocks ------------------------------------------

def _pad_window(u: Any) -> Any:
    """A ``(k, k)`` transform as the ``(4, 4)`` one that leaves the rest alone."""
    k = u.shape[-1]
    if k == _WINDOW:
        return u
    out = snp.eye(_WINDOW, dtype=u.dtype)
    return out.at[:k, :k].set(u)


def _swap_1x1(w: Any) -> Any:
    # the rotation whose first column is the eigenvector of t22:
    # (t11 - t22) v1 + t12 v2 = 0
    v1, v2 = w[0, 1], w[1, 1] - w[0, 0]
    r = snp.sqrt(snp.abs(v1) ** 2 + snp.abs(v2) ** 2).astype(w.dtype)
    ok = r != 0  # t11 == t22 and t12 == 0: nothing to do
    r = snp.where(ok, r, 1)
    c1, c2 = snp.where(ok, v1 / r, 1), snp.where(ok, v2 / r, 0)
    g = snp.stack([snp.stack([c1, -snp.conj(c2)]), snp.stack([c2, snp.conj(c1)])])
    return _pad_window(g)


def _standardizing_rotation(b: Any) -> Any:
    """The rotation ``r`` with ``r^T b r`` having equal diagonal entries: for a
    block with complex eigenvalues that is LAPACK's standard form."""
    a, bb, c, d = b[0, 0], b[0, 1], b[1, 0], b[1, 1]
    # (r^T b r)[0, 0] - [1, 1] = (a - d) cos 2th + (bb + c) sin 2th
    theta = snp.arctan2(-(a - d), bb + c) / 2
    cs, sn = snp.cos(theta), snp.sin(theta)
    return snp.stack([snp.stack([cs, -sn]), snp.stack([sn, cs])])


def _swap_direct(p: int, q: int) -> Callable[[Any], Any]:
    """Bai & Demmel's swap of a leading ``p x p`` and a trailing ``q x q``
    block of the window (real)."""
    def swap(w: Any) -> Any:
        k = p + q
        a = w[:k, :k]
        a11, a12, a22 = a[:p, :p], a[:p, p:], a[p:, p:]
        # vec(a11 x - x a22) = (I_q (x) a11 - a22^T (x) I_p) vec(x), column-major
        kron = snp.kron(snp.eye(q, dtype=w.dtype), a11) - snp.kron(
            a22.T, snp.eye(p, dtype=w.dtype))
        x = snp.linalg.solve(kron, a12.T.reshape(-1)).reshape(q, p).T
        basis = snp.concatenate([-x, snp.eye(q, dtype=w.dtype)], axis=0)
        qmat, _ = lla.qr(basis)
        swapped = qmat.T @ a @ qmat
        s = snp.eye(k, dtype=w.dtype)
        if q == 2:
            s = s.at[:2, :2].set(_standardizing_rotation(swapped[:2, :2]))
        if p == 2:
            s = s.at[q:, q:].set(_standardizing_rotation(swapped[q:, q:]))
        return _pad_window(qmat @ s)
    return swap


_REAL_SWAPS = [_swap_1x1, _swap_direct(1, 2), _swap_direct(2, 1), _swap_direct(2, 2)]


def _swap(t: Any, z: Any, j: Any, p: Any, q: Any) -> tuple[Any, Any]:
    """Swap the ``p x p`` block at ``t[j, j]`` with the ``q x q`` block after it."""
    n = t.shape[-1]
    rows = snp.arange(n, dtype=np.int32)
    offsets = snp.arange(_WINDOW, dtype=np.int32)
    window = (rows[:, None] == j + offsets[None, :]).astype(t.dtype)  # (n, 4)
    w = window.T @ t @ window
    if snp.iscomplexobj(t):
        u = _swap_1x1(w)
    else:
        u = lax.switch(2 * (p - 1) + (q - 1), _REAL_SWAPS, w)
    du = u - snp.eye(_WINDOW, dtype=t.dtype)
    # t <- P^H t P and z <- z P for P = I + window (u - I) window^T
    t = t + window @ (snp.conj(du.T) @ (window.T @ t))
    t = t + ((t @ window) @ du) @ window.T
    z = z + ((z @ window) @ du) @ window.T
    # the block now below the new leading one is zero up to rounding
    r, c = rows[:, None], rows[None, :]
    fill = (r >= j + q) & (r < j + p + q) & (c >= j) & (c < j + q)
    return snp.where(fill, 0, t), z


# --- the reordering -------------------------------------------------------------------

def _reorder_one(t: Any, z: Any, sel: Any) -> tuple[Any, Any]:
    n = t.shape[-1]
    idx = snp.arange(n, dtype=np.int32)
    real = not snp.iscomplexobj(t)

    def at(v: Any, k: Any) -> Any:  # v[k], 0 outside, without a gather
        return snp.sum(snp.where(idx == k, v, 0), dtype=np.int32)

    def starts(t: Any) -> Any:  # int (n,): 1 where a 2x2 block starts
        if not real or n < 2:
            return snp.zeros(n, np.int32)
        sub = snp.concatenate([snp.diagonal(t, -1), snp.zeros(1, t.dtype)])
        return (sub != 0).astype(np.int32)

    sel = sel.astype(np.int32)

    def outer(state):
        t, z, k, ks = state
        p = 1 + at(starts(t), k)
        chosen = at(sel, k) == 1

        def inner(s):
            t, z, here = s
            q = 1 + at(starts(t), here - 2)  # the block just above
            t, z = _swap(t, z, here - q, q, p)
            return t, z, here - q

        t, z, _ = lax.while_loop(lambda s: chosen & (s[2] > ks), inner, (t, z, k))
        return t, z, k + p, ks + snp.where(chosen, p, 0)

    zero = snp.zeros((), np.int32)
    t, z, _, _ = lax.while_loop(lambda s: s[2] < n, outer, (t, z, zero, zero))
    return t, z


def sort_schur(t: Any, z: Any, sort: Any) -> tuple[Any, Any, Any]:
    """``(t, z, sdim)``: the Schur form ``t, z`` (batched) reordered so that
    the eigenvalues ``sort`` selects come first; ``sdim`` counts them."""
    select = selection(sort)
    batch, n = t.shape[:-2], t.shape[-1]
    if n == 0:
        return t, z, snp.zeros(batch, np.int32)
    flat_t, flat_z = t.reshape(-1, n, n), z.reshape(-1, n, n)
    sel = sciax.vmap(lambda x: selected_positions(x, select))(flat_t)
    flat_t, flat_z = sciax.vmap(_reorder_one)(flat_t, flat_z, sel)
    sdim = snp.sum(sel, axis=-1, dtype=np.int32)
    return (flat_t.reshape(t.shape), flat_z.reshape(z.shape), sdim.reshape(batch))
