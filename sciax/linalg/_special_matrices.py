"""Special matrices of ``scipy.linalg``: block_diag, toeplitz, circulant, hankel,
companion, hilbert, invhilbert, leslie, helmert, hadamard, pascal, invpascal, dft,
fiedler, fiedler_companion, convolution_matrix, kron, khatri_rao.

Matrices built from array arguments are gathers or products with constant 0/1
tensors, so they are differentiable in those arguments and batch over leading
axes (SciPy 1.17's batch convention; ``hankel`` follows it too, which SciPy
only does from 1.19).  Matrices that depend on a size alone (``hilbert``,
``pascal``, ...) are constants computed on the host with exact integers.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

import sciax.numpy as snp

__all__ = ["block_diag", "toeplitz", "circulant", "hankel", "companion", "hilbert",
           "invhilbert", "leslie", "helmert", "hadamard", "pascal", "invpascal", "dft",
           "fiedler", "fiedler_companion", "convolution_matrix", "kron", "khatri_rao"]


def _vector(name: str, what: str, x: Any) -> Any:
    x = snp.asarray(x)
    return x.reshape(1) if x.ndim == 0 else x


def _size(name: str, n: Any) -> int:
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{name}: n must be an integer (a static size), got "
                        f"{type(n).__name__}") from None
    if n < 0:
        raise ValueError(f"{name}: n must be non-negative, got {n}")
    return n


def _linear_fill(coeffs: Any, pattern: np.ndarray) -> Any:
    """``sum_k coeffs[..., k] * pattern[k]``: scatter of coefficients into fixed
    positions, written as a product so it is linear, batched and cheap to
    differentiate."""
    k, m, n = pattern.shape
    flat = snp.matmul(coeffs, snp.asarray(pattern.reshape(k, m * n), dtype=coeffs.dtype))
    return flat.reshape(coeffs.shape[:-1] + (m, n))


# --- block_diag ------------------------------------------------------------------

def block_diag(*arrs: Any) -> Any:
    """Block diagonal matrix from the given arrays.

    Parameters
    ----------
    *arrs : array_like, each up to 2-D
        The blocks; a 1-D array of length ``n`` is a ``(1, n)`` block and a
        scalar a ``(1, 1)`` block.

    Returns
    -------
    Array
        Shape ``(sum of rows, sum of columns)``, the blocks' result dtype.  With
        no blocks, an empty ``(1, 0)`` array as SciPy.

    Notes
    -----
    As SciPy, blocks must be at most 2-D (ValueError otherwise).  Works under
    jit (shapes are static), and gradients flow to every block.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.block_diag([[1, 2]], 3)
    Array([[1, 2, 0],
           [0, 0, 3]], dtype=int64)
    """
    if not arrs:
        return snp.zeros((1, 0))
    blocks = [snp.atleast_2d(snp.asarray(a)) for a in arrs]
    bad = [i for i, b in enumerate(blocks) if b.ndim > 2]
    if bad:
        raise ValueError(f"block_diag: arguments in the following positions have "
                         f"dimension greater than 2: {bad}")
    dtype = snp.result_type(*blocks)
    ncols = sum(b.shape[1] for b in blocks)
    rows, before = [], 0
    for b in blocks:
        after = ncols - before - b.shape[1]
        rows.append(snp.pad(b.astype(dtype), ((0, 0), (before, after))))
        before += b.shape[1]
    return snp.concatenate(rows, axis=0)


# --- toeplitz, circulant, hankel ---------------------------------------------------

def toeplitz(c: Any, r: Any = None) -> Any:
    """Toeplitz matrix with first column ``c`` and first row ``r``.

    Parameters
    ----------
    c : array_like, shape (..., m)
        First column; leading axes are batch axes (SciPy 1.17).
    r : array_like, shape (..., n), optional
        First row (``r[0]`` is ignored).  Default ``conjugate(c)``, which gives
        a Hermitian matrix when ``c[0]`` is real.

    Returns
    -------
    Array, shape (..., m, n)
        ``A[i, j] = c[i - j]`` for ``i >= j`` and ``r[j - i]`` otherwise.

    Notes
    -----
    A gather, so differentiable in ``c`` and ``r`` and usable under jit/vmap.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.toeplitz([1.0, 2.0, 3.0], [1.0, 4.0])
    Array([[1., 4.],
           [2., 1.],
           [3., 2.]], dtype=float64)
    """
    c = _vector("toeplitz", "c", c)
    r = snp.conj(c) if r is None else _vector("toeplitz", "r", r)
    dtype = snp.result_type(c, r)
    m, n = c.shape[-1], r.shape[-1]
    batch = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    c = snp.broadcast_to(c.astype(dtype), batch + (m,))
    r = snp.broadcast_to(r.astype(dtype), batch + (n,))
    # vals = [r[n-1], ..., r[1], c[0], ..., c[m-1]];  A[i, j] = vals[n - 1 + i - j]
    vals = snp.concatenate([snp.flip(r[..., 1:], axis=-1), c], axis=-1)
    idx = n - 1 + np.arange(m)[:, None] - np.arange(n)[None, :]
    return vals[..., idx]


def circulant(c: Any) -> Any:
    """Circulant matrix with first column ``c``.

    Parameters
    ----------
    c : array_like, shape (..., n)
        First column; leading axes are batch axes.

    Returns
    -------
    Array, shape (..., n, n)
        ``A[i, j] = c[(i - j) % n]``.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.circulant([1, 2, 3])
    Array([[1, 3, 2],
           [2, 1, 3],
           [3, 2, 1]], dtype=int64)
    """
    c = _vector("circulant", "c", c)
    n = c.shape[-1]
    idx = (np.arange(n)[:, None] - np.arange(n)[None, :]) % max(n, 1)
    return c[..., idx]


def hankel(c: Any, r: Any = None) -> Any:
    """Hankel matrix with first column ``c`` and last row ``r``.

    Parameters
    ----------
    c : array_like, shape (..., m)
        First column.
    r : array_like, shape (..., n), optional
        Last row (``r[0]`` is ignored).  Default zeros, of ``c``'s length.

    Returns
    -------
    Array, shape (..., m, n)
        ``A[i, j] = c[i + j]`` for ``i + j < m`` and ``r[i + j - m + 1]`` otherwise.

    Notes
    -----
    Leading axes are batch axes, the convention SciPy adopts in 1.19 (1.17
    still ravels multi-dimensional input, with a FutureWarning).

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.hankel([1, 2, 3], [3, 4, 5])
    Array([[1, 2, 3],
           [2, 3, 4],
           [3, 4, 5]], dtype=int64)
    """
    c = _vector("hankel", "c", c)
    r = snp.zeros_like(c) if r is None else _vector("hankel", "r", r)
    dtype = snp.result_type(c, r)
    m, n = c.shape[-1], r.shape[-1]
    batch = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    c = snp.broadcast_to(c.astype(dtype), batch + (m,))
    r = snp.broadcast_to(r.astype(dtype), batch + (n,))
    vals = snp.concatenate([c, r[..., 1:]], axis=-1)
    return vals[..., np.arange(m)[:, None] + np.arange(n)[None, :]]


# --- companion matrices ---------------------------------------------------------

def _polynomial(name: str, a: Any) -> Any:
    a = _vector(name, "a", a)
    if a.shape[-1] < 2:
        raise ValueError(f"{name}: the length of a must be at least 2, got shape "
                         f"{a.shape}")
    if not snp.issubdtype(a.dtype, snp.inexact):
        a = a.astype(snp.result_type(a.dtype, snp.float64))
    return a


def companion(a: Any) -> Any:
    """Companion matrix of the polynomial with coefficients ``a`` (highest first).

    Parameters
    ----------
    a : array_like, shape (..., n)
        Coefficients, ``n >= 2``; leading axes are batch axes.

    Returns
    -------
    Array, shape (..., n - 1, n - 1)
        First row ``-a[1:] / a[0]``, ones on the first subdiagonal; its
        eigenvalues are the roots of the polynomial.

    Notes
    -----
    SciPy raises ValueError for ``a[0] == 0``; a traced value cannot, so the
    first row holds infs/NaNs instead.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.companion([1.0, -10.0, 31.0, -30.0])
    Array([[ 10., -31.,  30.],
           [  1.,   0.,   0.],
           [  0.,   1.,   0.]], dtype=float64)
    """
    a = _polynomial("companion", a)
    n = a.shape[-1] - 1
    first = -a[..., 1:] / a[..., :1]
    rest = snp.broadcast_to(snp.eye(n - 1, n, dtype=a.dtype), a.shape[:-1] + (n - 1, n))
    return snp.concatenate([first[..., None, :], rest], axis=-2)


def fiedler_companion(a: Any) -> Any:
    """Fiedler's pentadiagonal companion matrix of a polynomial.

    Parameters
    ----------
    a : array_like, shape (..., n)
        Coefficients, highest first; leading axes are batch axes.

    Returns
    -------
    Array, shape (..., n - 1, n - 1)
        A matrix whose eigenvalues are the roots of the polynomial (SciPy's
        layout).  ``n == 1`` gives an empty array as SciPy.

    Notes
    -----
    A zero leading coefficient gives infs/NaNs (SciPy raises ValueError).

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.fiedler_companion([1.0, 2.0, 3.0])
    Array([[-2., -3.],
           [ 1.,  0.]], dtype=float64)
    """
    a = _vector("fiedler_companion", "a", a)
    if not snp.issubdtype(a.dtype, snp.inexact):
        a = a.astype(snp.result_type(a.dtype, snp.float64))
    if a.shape[-1] < 2:
        return snp.zeros(a.shape[:-1] + (0,), a.dtype)
    a = a / a[..., :1]
    n = a.shape[-1] - 1
    # pattern[k] places coefficient k (index 0 is the constant 1 after scaling)
    pattern = np.zeros((n + 1, n, n))
    ones = [(i, i - 2) for i in range(3, n, 2)] + [(i, i + 2) for i in range(0, n - 2, 2)]
    for i, j in ones:
        pattern[0, i, j] = 1.0
    for i, j in zip(range(2, n, 2), range(1, n - 1, 2)):
        pattern[i + 1, i, j] = -1.0  # -a[3::2]
    for i, j in zip(range(0, n - 1, 2), range(1, n, 2)):
        pattern[i + 2, i, j] = -1.0  # -a[2::2]
    pattern[1, 0, 0] = -1.0
    if n > 1:
        pattern[0, 1, 0] = 1.0
    return _linear_fill(a, pattern)


def leslie(f: Any, s: Any) -> Any:
    """Leslie (population projection) matrix.

    Parameters
    ----------
    f : array_like, shape (..., n)
        Fecundity coefficients (the first row).
    s : array_like, shape (..., n - 1)
        Survival coefficients (the first subdiagonal), ``n >= 2``.

    Returns
    -------
    Array, shape (..., n, n)

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.leslie([0.1, 2.0], [0.2])
    Array([[0.1, 2. ],
           [0.2, 0. ]], dtype=float64)
    """
    f, s = _vector("leslie", "f", f), _vector("leslie", "s", s)
    if f.shape[-1] != s.shape[-1] + 1:
        raise ValueError("leslie: incorrect lengths for f and s; the length of s along "
                         f"the last axis must be one less than f's, got shapes {f.shape}"
                         f" and {s.shape}")
    if s.shape[-1] == 0:
        raise ValueError("leslie: the length of s must be at least 1")
    dtype = snp.result_type(f, s)
    n = f.shape[-1]
    batch = np.broadcast_shapes(f.shape[:-1], s.shape[:-1])
    coeffs = snp.concatenate([snp.broadcast_to(f.astype(dtype), batch + (n,)),
                              snp.broadcast_to(s.astype(dtype), batch + (n - 1,))], -1)
    pattern = np.zeros((2 * n - 1, n, n))
    pattern[np.arange(n), 0, np.arange(n)] = 1.0
    pattern[n + np.arange(n - 1), np.arange(1, n), np.arange(n - 1)] = 1.0
    return _linear_fill(coeffs, pattern)


def fiedler(a: Any) -> Any:
    """Fiedler matrix ``F[i, j] = |a[i] - a[j]|``.

    Parameters
    ----------
    a : array_like, shape (..., n)

    Returns
    -------
    Array, shape (..., n, n)

    Notes
    -----
    Differentiable where the entries of ``a`` are distinct (``abs``).

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.fiedler([1, 4, 12])
    Array([[ 0,  3, 11],
           [ 3,  0,  8],
           [11,  8,  0]], dtype=int64)
    """
    a = _vector("fiedler", "a", a)
    return snp.abs(a[..., :, None] - a[..., None, :])


def convolution_matrix(a: Any, n: int, mode: str = "full") -> Any:
    """Matrix ``A`` with ``A @ v == numpy.convolve(a, v, mode)`` for ``len(v) == n``.

    Parameters
    ----------
    a : array_like, shape (..., m)
        The kernel, ``m >= 1``.
    n : int
        Length of the vectors ``A`` is applied to (static).
    mode : {"full", "valid", "same"}
        As :func:`numpy.convolve`.

    Returns
    -------
    Array
        Shape (..., m + n - 1, n), (..., max(m, n) - min(m, n) + 1, n) or
        (..., max(m, n), n) by mode.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.convolution_matrix([1.0, -1.0], 3)
    Array([[ 1.,  0.,  0.],
           [-1.,  1.,  0.],
           [ 0., -1.,  1.],
           [ 0.,  0., -1.]], dtype=float64)
    """
    n = operator.index(n)
    if n <= 0:
        raise ValueError(f"convolution_matrix: n must be a positive integer, got {n}")
    a = snp.asarray(a)
    if a.size == 0 or a.ndim == 0:
        raise ValueError(f"convolution_matrix: len(a) must be at least 1, got shape "
                         f"{a.shape}")
    if mode not in ("full", "valid", "same"):
        raise ValueError("convolution_matrix: 'mode' argument must be one of ('full', "
                         f"'valid', 'same'), got {mode!r}")
    m = a.shape[-1]
    pad = [(0, 0)] * (a.ndim - 1) + [(0, n - 1)]
    az = snp.pad(a, pad)
    raz = snp.pad(snp.flip(a, axis=-1), pad)
    length = m + n - 1
    if mode == "full":
        tb = te = 0
    elif mode == "same":
        trim = min(n, m) - 1
        tb, te = trim // 2, trim - trim // 2
    else:
        tb = te = min(n, m) - 1
    col0 = az[..., tb:length - te]
    row0 = raz[..., length - n - tb:length - tb]
    return toeplitz(col0, row0)


# --- constant matrices ------------------------------------------------------------

def hilbert(n: int) -> Any:
    """Hilbert matrix ``H[i, j] = 1 / (i + j + 1)`` of order ``n`` (float64).

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.hilbert(2)
    Array([[1.        , 0.5       ],
           [0.5       , 0.33333333]], dtype=float64)
    """
    n = _size("hilbert", n)
    i = np.arange(n, dtype=np.float64)
    return snp.asarray(1.0 / (i[:, None] + i[None, :] + 1.0))


def invhilbert(n: int, exact: bool = False) -> Any:
    """Inverse of the Hilbert matrix of order ``n``, from exact integers.

    Parameters
    ----------
    n : int
    exact : bool, default False
        int64 entries (exact) instead of float64.

    Notes
    -----
    SciPy returns an object array of Python ints once int64 overflows
    (``n >= 15``); sciax arrays have no object dtype, so ``exact=True`` raises
    OverflowError there.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.invhilbert(2, exact=True)
    Array([[ 4, -6],
           [-6, 12]], dtype=int64)
    """
    n = _size("invhilbert", n)
    ints = [[(-1) ** (i + j) * (i + j + 1) * math.comb(n + i, n - j - 1)
             * math.comb(n + j, n - i - 1) * math.comb(i + j, i) ** 2
             for j in range(n)] for i in range(n)]
    if exact:
        if any(abs(v) > np.iinfo(np.int64).max for row in ints for v in row):
            raise OverflowError(f"invhilbert: the exact inverse of order {n} overflows "
                                "int64; use exact=False")
        return snp.asarray(np.array(ints, dtype=np.int64).reshape(n, n))
    return snp.asarray(np.array(ints, dtype=np.float64).reshape(n, n))


def _pascal_ints(n: int, kind: str) -> list[list[int]]:
    if kind == "symmetric":
        return [[math.comb(i + j, i) for j in range(n)] for i in range(n)]
    lower = [[math.comb(i, j) for j in range(n)] for i in range(n)]
    return lower if kind == "lower" else [list(r) for r in zip(*lower)]


def _exact_array(name: str, ints: list[list[int]], n: int, exact: bool,
                 signed: bool) -> Any:
    if not exact:
        return snp.asarray(np.array(ints, dtype=np.float64).reshape(n, n))
    dtype = np.int64 if signed else np.uint64
    if any(abs(v) > np.iinfo(dtype).max for row in ints for v in row):
        raise OverflowError(f"{name}: the exact matrix of order {n} overflows "
                            f"{np.dtype(dtype).name}; use exact=False")
    return snp.asarray(np.array(ints, dtype=dtype).reshape(n, n))


def pascal(n: int, kind: str = "symmetric", exact: bool = True) -> Any:
    """Pascal matrix: binomial coefficients.

    Parameters
    ----------
    n : int
    kind : {"symmetric", "lower", "upper"}
    exact : bool, default True
        uint64 entries (SciPy's dtype) instead of float64.

    Notes
    -----
    SciPy falls back to an object array when uint64 overflows (``n > 34`` for
    the symmetric kind); here ``exact=True`` raises OverflowError there.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.pascal(3)
    Array([[1, 1, 1],
           [1, 2, 3],
           [1, 3, 6]], dtype=uint64)
    """
    n = _size("pascal", n)
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("pascal: kind must be 'symmetric', 'lower', or 'upper', got "
                         f"{kind!r}")
    return _exact_array("pascal", _pascal_ints(n, kind), n, exact, signed=False)


def invpascal(n: int, kind: str = "symmetric", exact: bool = True) -> Any:
    """Inverse of the Pascal matrix, from exact integers.

    Parameters
    ----------
    n : int
    kind : {"symmetric", "lower", "upper"}
    exact : bool, default True
        int64 entries (SciPy's dtype) instead of float64.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.invpascal(3)
    Array([[ 3, -3,  1],
           [-3,  5, -2],
           [ 1, -2,  1]], dtype=int64)
    """
    n = _size("invpascal", n)
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("invpascal: kind must be 'symmetric', 'lower', or 'upper', "
                         f"got {kind!r}")
    # inverse of the lower factor L is D L D with D = diag((-1)^i)
    linv = [[(-1) ** (i + j) * math.comb(i, j) for j in range(n)] for i in range(n)]
    if kind == "lower":
        ints = linv
    elif kind == "upper":
        ints = [list(r) for r in zip(*linv)]
    else:  # (L L^T)^-1 = L^-T L^-1
        ints = [[sum(linv[k][i] * linv[k][j] for k in range(n)) for j in range(n)]
                for i in range(n)]
    return _exact_array("invpascal", ints, n, exact, signed=True)


def hadamard(n: int, dtype: Any = int) -> Any:
    """Sylvester's Hadamard matrix of order ``n``, a power of 2.

    Parameters
    ----------
    n : int
        Order, a power of 2 (static).
    dtype : dtype, default int

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.hadamard(2, dtype=float)
    Array([[ 1.,  1.],
           [ 1., -1.]], dtype=float64)
    """
    n = _size("hadamard", n)
    if n < 1 or n & (n - 1):
        raise ValueError(f"hadamard: n must be a positive integer, and n must be a "
                         f"power of 2, got {n}")
    h = np.array([[1]], dtype=dtype)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return snp.asarray(h)


def helmert(n: int, full: bool = False) -> Any:
    """Helmert matrix of order ``n`` (float64).

    Parameters
    ----------
    n : int
    full : bool, default False
        Return the full ``(n, n)`` orthogonal matrix, else drop its first row.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.helmert(2, full=True)
    Array([[ 0.70710678,  0.70710678],
           [ 0.70710678, -0.70710678]], dtype=float64)
    """
    n = _size("helmert", n)
    h = np.tril(np.ones((n, n)), -1) - np.diag(np.arange(n, dtype=np.float64))
    d = np.arange(n) * np.arange(1, n + 1)
    h[0] = 1.0
    d[0] = n
    h = h / np.sqrt(d)[:, np.newaxis]
    return snp.asarray(h if full else h[1:])


def dft(n: int, scale: str | None = None) -> Any:
    """Discrete Fourier transform matrix (complex128): ``dft(n) @ x == fft(x)``.

    Parameters
    ----------
    n : int
    scale : {None, "sqrtn", "n"}
        Divide by ``sqrt(n)`` (unitary) or ``n``.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.dft(2)
    Array([[ 1.+0.j,  1.+0.j],
           [ 1.+0.j, -1.-0.j]], dtype=complex128)
    """
    n = _size("dft", n)
    if scale not in (None, "sqrtn", "n"):
        raise ValueError("dft: scale must be None, 'sqrtn', or 'n'; "
                         f"{scale!r} is not valid")
    k = np.arange(n)
    m = np.exp(-2j * np.pi * ((k[:, None] * k[None, :]) % max(n, 1)) / max(n, 1))
    if scale == "sqrtn":
        m = m / math.sqrt(n)
    elif scale == "n":
        m = m / n
    return snp.asarray(m)


# --- products ----------------------------------------------------------------------

# NumPy's kron (scipy.linalg.kron before SciPy 1.17)
kron = snp.kron


def khatri_rao(a: Any, b: Any) -> Any:
    """Khatri-Rao product: the column-wise Kronecker product.

    Parameters
    ----------
    a : array_like, shape (..., n, k)
    b : array_like, shape (..., m, k)

    Returns
    -------
    Array, shape (..., n * m, k)
        Column ``j`` is ``kron(a[:, j], b[:, j])``.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.khatri_rao([[1, 2], [3, 4]], [[1, 1], [2, 2]])
    Array([[1, 2],
           [2, 4],
           [3, 4],
           [6, 8]], dtype=int64)
    """
    a, b = snp.asarray(a), snp.asarray(b)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"khatri_rao: the both arrays must be at least 2-D, got shapes "
                         f"{a.shape} and {b.shape}")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("khatri_rao: the number of columns for both arrays should be "
                         f"equal, got shapes {a.shape} and {b.shape}")
    out = a[..., :, None, :] * b[..., None, :, :]
    return out.reshape(out.shape[:-3] + (a.shape[-2] * b.shape[-2], a.shape[-1]))
