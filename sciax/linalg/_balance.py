"""``matrix_balance``: LAPACK's gebal (permutation to isolate eigenvalues,
then diagonal scaling by powers of 2) written in lax loops, since jaxlib ships
no gebal kernel.

The iteration is the one of reference LAPACK 3.11+ (``dgebal``/``zgebal``):
rows with no off-diagonal nonzero in the active block are pushed to the
bottom, then columns to the left, repeating each search until nothing moves;
then each row/column pair of the active block ``k..l`` is scaled by the power
of 2 that most nearly equalises the column and row 2-norms, sweeping until no
scaling reduces ``c + r`` by 5%.  Every step is a ``while_loop`` whose state is
the whole matrix, so the function works under ``jit`` and ``vmap``; powers of
2 are exact, so the balanced matrix is an exact similarity transform.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.linalg import _util

__all__ = ["matrix_balance"]

_FACTOR = 0.95  # LAPACK: a scaling must reduce c + r below 95%
_MAX_SWEEPS = 4096  # a guard only: LAPACK's iteration terminates by itself


def _swap(a: Any, perm: Any, i: Any, j: Any) -> tuple[Any, Any]:
    """Exchange rows and columns ``i`` and ``j`` (a permutation similarity)."""
    idx = snp.arange(a.shape[-1])
    idx = snp.where(idx == i, j, snp.where(idx == j, i, idx))
    return snp.take(snp.take(a, idx, axis=0), idx, axis=1), snp.take(perm, idx)


def _permute(a: Any) -> tuple[Any, Any, Any, Any, Any]:
    """The permutation phase; returns ``a, perm, k, l, isolated_all``."""
    n = a.shape[-1]
    idx = snp.arange(n)
    perm = snp.arange(n)
    nz = lambda x: x != 0  # noqa: E731

    # rows isolating an eigenvalue go to the bottom: (a, perm, i, l, noconv,
    # done, all_isolated); i runs from the l of the sweep's start down to 0
    def row_cond(s):
        return ~s[5]

    def row_body(s):
        a, perm, i, l, noconv, done, early = s
        restart = i < 0
        row = snp.take(a, snp.maximum(i, 0), axis=0)
        can = ~snp.any(nz(row) & (idx <= l) & (idx != i)) & ~restart
        a2, perm2 = _swap(a, perm, i, l)
        a = snp.where(can, a2, a)
        perm = snp.where(can, perm2, perm)
        early = can & (l == 0)
        new_l = snp.where(can & ~early, l - 1, l)
        new_i = snp.where(restart, l, i - 1)
        done = (restart & ~noconv) | early
        noconv = snp.where(restart, False, noconv | can)
        return a, perm, new_i, new_l, noconv, done, early

    i0 = snp.asarray(n - 1)
    a, perm, _, l, _, _, early = lax.while_loop(
        row_cond, row_body, (a, perm, i0, i0, False, False, False))

    # columns isolating an eigenvalue go to the left: j runs from the k of the
    # sweep's start up to l
    def col_cond(s):
        return ~s[5]

    def col_body(s):
        a, perm, j, k, noconv, done = s
        restart = j > l
        col = snp.take(a, snp.minimum(j, n - 1), axis=1)
        can = ~snp.any(nz(col) & (idx >= k) & (idx <= l) & (idx != j)) & ~restart
        a2, perm2 = _swap(a, perm, j, k)
        a = snp.where(can, a2, a)
        perm = snp.where(can, perm2, perm)
        new_k = snp.where(can, k + 1, k)
        new_j = snp.where(restart, k, j + 1)
        done = restart & ~noconv
        noconv = snp.where(restart, False, noconv | can)
        return a, perm, new_j, new_k, noconv, done

    zero = snp.asarray(0)
    a, perm, _, k, _, _ = lax.while_loop(
        col_cond, col_body, (a, perm, zero, zero, False, early))
    return a, perm, k, l, early


def _power_of_two(c, r, ca, ra, sfmin2, sfmax2):
    """LAPACK's two loops choosing the factor ``f`` (a power of 2)."""
    one = snp.ones_like(c)

    def up_cond(s):
        f, c, ca, r, g, ra = s
        return ((c < g) & (snp.maximum(snp.maximum(f, c), ca) < sfmax2)
                & (snp.minimum(snp.minimum(r, g), ra) > sfmin2))

    def up_body(s):
        f, c, ca, r, g, ra = s
        return f * 2, c * 2, ca * 2, r / 2, g / 2, ra / 2

    f, c, ca, r, _, ra = lax.while_loop(up_cond, up_body, (one, c, ca, r, r / 2, ra))

    def down_cond(s):
        f, c, ca, r, g, ra = s
        return ((g >= r) & (snp.maximum(r, ra) < sfmax2)
                & (snp.minimum(snp.minimum(snp.minimum(f, c), g), ca) > sfmin2))

    def down_body(s):
        f, c, ca, r, g, ra = s
        return f / 2, c / 2, ca / 2, r * 2, g / 2, ra * 2

    f, c, _, r, _, _ = lax.while_loop(down_cond, down_body, (f, c, ca, r, c / 2, ra))
    return f, c, r


def _scale(a: Any, k: Any, l: Any) -> tuple[Any, Any, Any]:
    """The scaling phase on the active block ``k..l``; returns ``a``, the
    scale factors and whether a NaN stopped it (LAPACK's info = -3)."""
    n = a.shape[-1]
    rdt = _util.real_dtype(a)
    fi = snp.finfo(rdt)
    sfmin1 = float(fi.tiny) / float(fi.eps)
    sfmax1 = 1.0 / sfmin1
    sfmin2 = sfmin1 * 2
    sfmax2 = 1.0 / sfmin2
    idx = snp.arange(n)
    active = (idx >= k) & (idx <= l)

    def mag(x):  # izamax's measure: |re| + |im|
        return snp.abs(snp.real(x)) + snp.abs(snp.imag(x)) if _util.is_complex(x) \
            else snp.abs(x)

    def one_index(i, s):
        a, scale, noconv, nan = s
        col = snp.take(a, i, axis=1)
        row = snp.take(a, i, axis=0)
        c = snp.sqrt(snp.sum(snp.where(active, snp.abs(col) ** 2, 0), axis=-1))
        r = snp.sqrt(snp.sum(snp.where(active, snp.abs(row) ** 2, 0), axis=-1))
        ica = snp.argmax(snp.where(idx <= l, mag(col), -1), axis=-1)
        ca = snp.abs(snp.take(col, ica))
        ira = snp.argmax(snp.where(idx >= k, mag(row), -1), axis=-1)
        ra = snp.abs(snp.take(row, ira))
        visit = (i >= k) & (i <= l) & (c != 0) & (r != 0) & ~nan
        is_nan = visit & snp.isnan(c + ca + r + ra)
        visit = visit & ~is_nan
        s0 = c + r
        safe = lambda x: snp.where(visit, x, 1)  # noqa: E731  keeps loops short
        f, c, r = _power_of_two(safe(c), safe(r), safe(ca), safe(ra), sfmin2, sfmax2)
        sc = snp.take(scale, i)
        ok = visit & (c + r < _FACTOR * s0)
        ok = ok & ~((f < 1) & (sc < 1) & (f * sc <= sfmin1))
        ok = ok & ~((f > 1) & (sc > 1) & (sc >= sfmax1 / f))
        f = snp.where(ok, f, 1).astype(rdt)
        onehot = idx == i
        row_f = snp.where(onehot, 1 / f, 1).astype(a.dtype)
        col_f = snp.where(onehot, f, 1).astype(a.dtype)
        a = a * row_f[:, None] * col_f[None, :]
        scale = scale * snp.where(onehot, f, 1)
        return a, scale, noconv | ok, nan | is_nan

    def sweep_cond(s):
        _, _, noconv, nan, sweeps = s
        return noconv & ~nan & (sweeps < _MAX_SWEEPS)

    def sweep(s):
        a, scale, _, nan, sweeps = s
        a, scale, noconv, nan = lax.fori_loop(0, n, one_index, (a, scale, False, nan))
        return a, scale, noconv, nan, sweeps + 1

    a, scale, _, nan, _ = lax.while_loop(
        sweep_cond, sweep, (a, snp.ones(n, rdt), True, False, 0))
    return a, scale, nan


def _balance_one(a: Any, permute: bool, scale: bool) -> tuple[Any, Any, Any]:
    n = a.shape[-1]
    if permute:
        a, perm, k, l, early = _permute(a)
    else:
        perm, k, l, early = snp.arange(n), snp.asarray(0), snp.asarray(n - 1), False
    if scale:
        # an early return of the row search (everything isolated) skips scaling
        b, s, nan = _scale(a, snp.where(early, n, k), snp.where(early, -1, l))
        b = snp.where(nan, np.nan, b)
    else:
        b, s = a, snp.ones(n, _util.real_dtype(a))
    return b, s, perm


@functools.lru_cache(maxsize=None)
def _balancer(permute: bool, scale: bool) -> Any:
    # one compiled program per flag pair: eagerly, dispatching the loops' ops
    # one by one would cost far more than compiling them together
    return sciax.jit(sciax.vmap(lambda a: _balance_one(a, permute, scale)))


def matrix_balance(A: Any, permute: bool = True, scale: bool = True,
                   separate: bool = False, overwrite_a: bool = False
                   ) -> tuple[Any, Any]:
    """Balance a square matrix: ``B = T^{-1} A T`` with ``T`` a permuted
    diagonal matrix of powers of 2, so that row and column norms of ``B`` are
    close (this improves the accuracy of eigenvalue computations).

    Parameters
    ----------
    A : array_like, shape (..., N, N)
    permute : bool, default True
        First permute rows and columns to isolate eigenvalues (rows or
        columns that are zero off the diagonal within the active block).
    scale : bool, default True
        Scale the active block by powers of 2.
    separate : bool, default False
        Return the scale factors and the permutation instead of ``T``.
    overwrite_a : bool
        Ignored (sciax arrays are immutable).

    Returns
    -------
    B : Array, shape (..., N, N)
        The balanced matrix.
    T : Array, shape (..., N, N)
        Real; ``B = inv(T) @ A @ T``.  Only without ``separate``.
    (scale, perm) : tuple of Arrays, shapes (..., N)
        Only with ``separate``: ``B = A[perm][:, perm]`` with row ``i``
        divided and column ``i`` multiplied by ``scale[i]``; ``perm`` is
        int32 (SciPy: the platform int).

    Notes
    -----
    Follows reference LAPACK's gebal step by step (see the module notes),
    so results agree with SciPy's; a different LAPACK version could pick a
    different, equally valid permutation.  NaN input gives a NaN ``B``
    (SciPy raises ``ValueError`` for non-finite input).  The loops are data
    dependent, so there is no derivative.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[1.0, 2.0, 0.0], [9.0, 1.0, 0.01], [1.0, 2.0, 10.0]])
    >>> b, t = linalg.matrix_balance(a)
    >>> b
    Array([[ 1.  ,  4.  ,  0.  ],
           [ 4.5 ,  1.  ,  0.01],
           [ 0.5 ,  2.  , 10.  ]], dtype=float64)
    >>> bool(np.allclose(np.linalg.solve(t, a) @ t, b))
    True
    """
    del overwrite_a
    (A,) = _util.inexact("matrix_balance", A)
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError("matrix_balance: The data matrix for balancing should be "
                         f"square, got shape {A.shape}")
    n = A.shape[-1]
    batch = A.shape[:-2]
    flat = A.reshape((-1, n, n))
    if n == 0:
        b, s, perm = flat, snp.ones((flat.shape[0], 0), _util.real_dtype(A)), \
            snp.zeros((flat.shape[0], 0), np.int32)
    else:
        b, s, perm = _balancer(bool(permute), bool(scale))(flat)
    b = b.reshape(A.shape)
    s = s.reshape(batch + (n,))
    perm = perm.astype(np.int32).reshape(batch + (n,))
    if separate:
        return b, (s, perm)
    iperm = snp.argsort(perm, axis=-1)
    t = (iperm[..., :, None] == snp.arange(n)) * s[..., None, :]
    return b, t.astype(s.dtype)
