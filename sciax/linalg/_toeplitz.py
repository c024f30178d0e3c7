"""Circulant and Toeplitz systems and products: ``solve_circulant``,
``solve_toeplitz`` and ``matmul_toeplitz``.

``solve_toeplitz`` builds the dense matrix and solves it by LU with partial
pivoting instead of SciPy's Levinson-Durbin recursion.  The recursion is
``O(N^2)`` but needs every leading principal minor to be nonsingular (SciPy
raises otherwise, even for a well-conditioned matrix such as
``[[0, 1], [1, 0]]``) and is only weakly stable; LU is backward stable for any
nonsingular matrix, batches as one XLA call, and its derivative is the implicit
one of :func:`sciax.linalg.solve` (one more pair of triangular solves) rather
than an ``N``-step loop to differentiate through.  The price is ``O(N^3)``
work and ``O(N^2)`` memory, negligible at the sizes where a dense solve fits.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.linalg import _util
from sciax.linalg._basic import LinAlgError
from sciax.linalg._solve import solve

__all__ = ["matmul_toeplitz", "solve_circulant", "solve_toeplitz"]


def _axis_len(name: str, a: Any, axis: int) -> int:
    ax = axis + a.ndim if axis < 0 else axis
    if 0 <= ax < a.ndim:
        return a.shape[ax]
    raise ValueError(f"solve_circulant: '{name}axis' entry is out of bounds "
                     f"({name}axis={axis} for {name} of shape {a.shape})")


def solve_circulant(c: Any, b: Any, singular: str = "raise", tol: Any = None,
                    caxis: int = -1, baxis: int = 0, outaxis: int = 0) -> Any:
    """Solve ``C x = b`` for the circulant matrix ``C`` whose first column is
    ``c``, by FFT: ``x = ifft(fft(b) / fft(c))``.

    Parameters
    ----------
    c : array_like
        First column(s) of the circulant matrix, along ``caxis``; other axes
        broadcast with ``b``'s.
    b : array_like
        Right-hand side(s), along ``baxis``.
    singular : {'raise', 'lstsq'}
        What to do when an eigenvalue ``|fft(c)_k| <= tol``: raise
        :class:`LinAlgError` (eagerly; under ``jit``, where nothing can be
        raised, the whole result is NaN instead), or return the least-squares
        (minimum norm) solution, which drops those components.
    tol : float, optional
        Default ``max|fft(c)| * N * eps`` per circulant, with the ``eps`` of
        the working dtype (SciPy computes in float64 and uses its ``eps``).
    caxis, baxis : int
        Axes of ``c`` and ``b`` holding the vectors.
    outaxis : int
        Axis of the result holding the solution vectors.

    Returns
    -------
    x : Array
        Real when ``c`` and ``b`` are real.

    Notes
    -----
    ``O(N log N)``; differentiable in ``c`` and ``b`` (away from the
    ``tol`` cutoff).

    Examples
    --------
    >>> from sciax import linalg
    >>> x = linalg.solve_circulant(np.array([2.0, 1.0, 0.0]), np.array([1.0, 2.0, 3.0]))
    >>> bool(np.allclose(linalg.circulant([2.0, 1.0, 0.0]) @ x, [1.0, 2.0, 3.0]))
    True
    """
    if singular not in ("raise", "lstsq"):
        raise ValueError(f"solve_circulant: singular must be 'raise' or 'lstsq', got "
                         f"{singular!r}")
    c, b = _util.inexact("solve_circulant", c, b)
    c = c.reshape(1) if c.ndim == 0 else c
    b = b.reshape(1) if b.ndim == 0 else b
    nc = _axis_len("c", c, caxis)
    nb = _axis_len("b", b, baxis)
    if nc != nb:
        raise ValueError(f"solve_circulant: Shapes of c {c.shape} and b {b.shape} are "
                         "incompatible")
    x, any_near = _circulant_core(c, b, tol, caxis=caxis, baxis=baxis,
                                  outaxis=outaxis)
    if singular == "raise":
        try:
            flag = bool(np.asarray(any_near))
        except TypeError:  # traced: NaN stands for the error
            x = snp.where(any_near, np.nan, x)
        else:
            if flag:
                raise LinAlgError("solve_circulant: near singular circulant matrix.")
    return x


# compiled as one program: eagerly, op-by-op dispatch would compile each op
@functools.partial(sciax.jit, static_argnames=("caxis", "baxis", "outaxis"))
def _circulant_core(c: Any, b: Any, tol: Any, *, caxis: int, baxis: int,
                    outaxis: int) -> tuple[Any, Any]:
    real = not (_util.is_complex(c) or _util.is_complex(b))
    nc = c.shape[caxis]
    fc = snp.fft.fft(snp.moveaxis(c, caxis, -1), axis=-1)
    abs_fc = snp.abs(fc)
    if tol is None:
        eps = float(snp.finfo(abs_fc.dtype).eps)
        tol = snp.max(abs_fc, axis=-1, keepdims=True, initial=0.0) * nc * eps
    near = abs_fc <= tol
    fb = snp.fft.fft(snp.moveaxis(b, baxis, -1), axis=-1)
    q = fb / snp.where(near, 1, fc)
    q = snp.where(near, 0, q)
    x = snp.fft.ifft(q, axis=-1)
    if real:
        x = snp.real(x)
    x = snp.moveaxis(x, -1, outaxis) if outaxis != -1 else x
    return x, snp.any(near)


def _c_r(name: str, c_or_cr: Any) -> tuple[Any, Any]:
    if isinstance(c_or_cr, tuple):
        if len(c_or_cr) != 2:
            raise ValueError(f"{name}: c_or_cr must be c or a tuple (c, r), got a "
                             f"tuple of length {len(c_or_cr)}")
        c, r = (snp.asarray(v) for v in c_or_cr)
    else:
        c = snp.asarray(c_or_cr)
        r = snp.conj(c)
    if c.ndim < 1 or r.ndim < 1:
        raise ValueError(f"{name}: c and r must be at least 1-D, got shapes {c.shape} "
                         f"and {r.shape}")
    return c, r


def _toeplitz_dense(c: Any, r: Any) -> Any:
    """``T[..., i, j] = c[..., i - j]`` for ``i >= j`` else ``r[..., j - i]``."""
    m, n = c.shape[-1], r.shape[-1]
    batch = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    c = snp.broadcast_to(c, batch + (m,))
    r = snp.broadcast_to(r, batch + (n,))
    vals = snp.concatenate([snp.flip(r[..., 1:], axis=-1), c], axis=-1)
    index = (lax.broadcasted_iota(np.int32, (m, n), 0)
             - lax.broadcasted_iota(np.int32, (m, n), 1) + (n - 1))
    flat = snp.take(vals, index.reshape(-1), axis=-1)
    return flat.reshape(batch + (m, n))


def solve_toeplitz(c_or_cr: Any, b: Any, check_finite: bool = True) -> Any:
    """Solve ``T x = b`` for the Toeplitz matrix ``T`` with first column ``c``
    and first row ``r``.

    Parameters
    ----------
    c_or_cr : array_like or tuple (c, r)
        ``c`` of shape (..., N) alone means ``r = conj(c)`` (a Hermitian
        ``T`` when ``c[0]`` is real); ``r[0]`` is ignored.
    b : array_like, shape (..., N) for one vector or (..., N, K)
        A 1-D ``b`` is one right-hand side; otherwise the last two axes are
        ``(N, K)`` and leading axes broadcast with ``c``'s.
    check_finite : bool
        Ignored.

    Returns
    -------
    x : Array, the shape of ``b`` (broadcast)

    Notes
    -----
    Dense LU of the built ``T`` (see the module notes for why not
    Levinson-Durbin): ``O(N^3)``, no failure on singular leading minors,
    implicit derivatives in ``c``, ``r`` and ``b``.  A singular ``T`` gives
    infs/NaNs, not SciPy's ``LinAlgError``.  Dtypes follow sciax's rule
    (float32 stays float32; SciPy computes in float64).

    Examples
    --------
    >>> from sciax import linalg
    >>> c, r = np.array([1.0, 3.0, 6.0]), np.array([1.0, -1.0, -2.0])
    >>> x = linalg.solve_toeplitz((c, r), np.array([1.0, 2.0, 2.0]))
    >>> bool(np.allclose(linalg.toeplitz(c, r) @ x, [1.0, 2.0, 2.0]))
    True
    """
    del check_finite
    c, r = _c_r("solve_toeplitz", c_or_cr)
    if b is None:
        raise ValueError("solve_toeplitz: `b` must be an array, not None.")
    c, r, b = _util.inexact("solve_toeplitz", c, r, snp.asarray(b))
    n = c.shape[-1]
    rows = b.shape[-1] if b.ndim == 1 else b.shape[-2] if b.ndim >= 2 else None
    if r.shape[-1] != n or rows != n:
        raise ValueError(f"solve_toeplitz: Incompatible dimensions: c {c.shape}, r "
                         f"{r.shape} and b {b.shape} (b must be (N,) or (..., N, K) "
                         "with N = len(c) = len(r))")
    return _solve_toeplitz_core(c, r, b)


@sciax.jit
def _solve_toeplitz_core(c: Any, r: Any, b: Any) -> Any:
    return solve(_toeplitz_dense(c, r), b)


def matmul_toeplitz(c_or_cr: Any, x: Any, check_finite: bool = False,
                    workers: Any = None) -> Any:
    """``T @ x`` for the Toeplitz matrix ``T`` with first column ``c`` and
    first row ``r``, by FFT (``T`` is never formed).

    Parameters
    ----------
    c_or_cr : array_like or tuple (c, r)
        ``c`` of shape (..., M), ``r`` of shape (..., N); ``c`` alone means
        ``r = conj(c)``.  ``r[0]`` is ignored.
    x : array_like, shape (..., N) for one vector or (..., N, K)
    check_finite, workers : optional
        Ignored (XLA chooses the FFT's threads).

    Returns
    -------
    T @ x : Array, shape (..., M) or (..., M, K)

    Notes
    -----
    ``T`` is embedded in a circulant matrix of order ``M + N - 1`` whose
    product is a circular convolution: ``O((M + N) log(M + N) K)``.  Linear
    in ``x`` and in ``(c, r)``, so differentiable in both.

    Examples
    --------
    >>> from sciax import linalg
    >>> c, r = np.array([1.0, 2.0, 3.0]), np.array([1.0, 5.0])
    >>> linalg.matmul_toeplitz((c, r), np.array([1.0, 1.0]))
    Array([6., 3., 5.], dtype=float64)
    """
    del check_finite, workers
    c, r = _c_r("matmul_toeplitz", c_or_cr)
    if x is None:
        raise ValueError("matmul_toeplitz: `x` must be an array, not None.")
    c, r, x = _util.inexact("matmul_toeplitz", c, r, snp.asarray(x))
    m, n = c.shape[-1], r.shape[-1]
    vector = x.ndim == 1
    if x.ndim == 0 or x.shape[-1 if vector else -2] != n:
        raise ValueError(f"matmul_toeplitz: Incompatible dimensions: r {r.shape} and "
                         f"x {x.shape} (x must be (N,) or (..., N, K) with "
                         f"N = len(r) = {n})")
    if vector:
        x = x[:, None]
    out = _matmul_toeplitz_core(c, r, x)
    return out[..., 0] if vector else out


@sciax.jit
def _matmul_toeplitz_core(c: Any, r: Any, x: Any) -> Any:
    m, n = c.shape[-1], r.shape[-1]
    p = m + n - 1
    batch = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    col = snp.concatenate([snp.broadcast_to(c, batch + (m,)),
                           snp.flip(snp.broadcast_to(r, batch + (n,))[..., 1:], -1)],
                          axis=-1)
    if _util.is_complex(col) or _util.is_complex(x):
        prod = snp.fft.fft(col, axis=-1)[..., None] * snp.fft.fft(x, n=p, axis=-2)
        return snp.fft.ifft(prod, axis=-2)[..., :m, :]
    prod = snp.fft.rfft(col, axis=-1)[..., None] * snp.fft.rfft(x, n=p, axis=-2)
    return snp.fft.irfft(prod, n=p, axis=-2)[..., :m, :]
