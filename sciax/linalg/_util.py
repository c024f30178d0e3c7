"""Helpers shared by the ``sciax.linalg`` modules: argument checks, dtype
rules and small matrix operations written on the public API."""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax.numpy as snp
from sciax import lax

# SciPy's check_finite and overwrite_* arguments are accepted everywhere: a
# traced value cannot be checked, and sciax arrays are immutable.


def host_value(x: Any) -> Any:
    """``x`` as a NumPy array, or None when it is a tracer (no concrete value)."""
    try:
        return np.asarray(x)
    except TypeError:
        return None


def inexact(name: str, *arrays: Any) -> list[Any]:
    """``arrays`` as arrays of one LAPACK dtype: SciPy's rules (integers and
    bools compute in float64, half precision in float32, float32 stays)."""
    out = [snp.asarray(a) for a in arrays]
    dtype = snp.result_type(*out)
    if not snp.issubdtype(dtype, snp.inexact):
        dtype = snp.result_type(dtype, snp.float64)
        if not snp.issubdtype(dtype, snp.inexact):
            dtype = np.dtype(np.float64)
    if dtype in (np.dtype(np.float16), np.dtype(snp.bfloat16)):
        dtype = np.dtype(np.float32)
    return [a if a.dtype == dtype else a.astype(dtype) for a in out]


def is_complex(x: Any) -> bool:
    return bool(snp.issubdtype(x.dtype, snp.complexfloating))


def real_dtype(x: Any) -> np.dtype:
    return np.dtype(snp.finfo(x.dtype).dtype)


def matrix(name: str, a: Any, square: bool = False, what: str = "a") -> Any:
    """Check that ``a`` is a (stack of) matrices; ValueError naming ``name``."""
    if a.ndim < 2:
        raise ValueError(f"{name}: expected {what} to be at least 2-D (a matrix or a "
                         f"stack of matrices), got shape {a.shape}")
    if square and a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: expected {what} to be a square matrix (or a stack "
                         f"of them), got shape {a.shape}")
    return a


def swap(x: Any) -> Any:
    return snp.swapaxes(x, -1, -2)


def adjoint(x: Any) -> Any:
    return snp.conj(swap(x)) if is_complex(x) else swap(x)


def eye_like(a: Any, batch: tuple[int, ...] = ()) -> Any:
    n = a.shape[-1]
    return snp.broadcast_to(snp.eye(n, dtype=a.dtype), batch + (n, n))


def hermitian_from_triangle(a: Any, lower: bool, conjugate: bool = True) -> Any:
    """The Hermitian (or, without ``conjugate``, complex symmetric) matrix that
    LAPACK sees when it reads only one triangle of ``a``."""
    tri = snp.tril(a) if lower else snp.triu(a)
    strict = snp.tril(a, -1) if lower else snp.triu(a, 1)
    other = adjoint(strict) if conjugate else swap(strict)
    full = tri + other
    if conjugate and is_complex(a):
        # LAPACK ignores the imaginary part of a Hermitian matrix's diagonal
        d = snp.diagonal(full, 0, -2, -1)
        full = full - snp.imag(d)[..., None] * eye_like(a) * 1j
    return full


def rhs(name: str, a: Any, b: Any) -> tuple[Any, Any, bool]:
    """SciPy's convention for right-hand sides: a 1-D ``b`` is one column;
    otherwise ``b`` is ``(..., N, NRHS)`` and its batch axes broadcast with
    ``a``'s.  Returns ``a``, ``b`` broadcast and whether ``b`` was 1-D."""
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"{name}: incompatible shapes: a {a.shape} and b "
                         f"{b.shape if not vector else b.shape[:1]} (b must be (N,) "
                         f"or (..., N, NRHS) with N = a.shape[-1] = {a.shape[-1]})")
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    return (snp.broadcast_to(a, batch + a.shape[-2:]),
            snp.broadcast_to(b, batch + b.shape[-2:]), vector)


def trans_code(name: str, trans: Any) -> int:
    """LAPACK's ``trans`` argument: 0/'N', 1/'T' or 2/'C'."""
    codes = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2, "n": 0, "t": 1, "c": 2}
    try:
        return codes[trans]
    except (KeyError, TypeError):
        raise ValueError(f"{name}: trans must be 0, 1, 2, 'N', 'T' or 'C', got "
                         f"{trans!r}") from None


def diag_matrix(d: Any) -> Any:
    """``(..., n)`` -> ``(..., n, n)`` with ``d`` on the diagonal."""
    n = d.shape[-1]
    return d[..., None] * snp.eye(n, dtype=d.dtype)


def banded_to_dense(ab: Any, l: int, u: int, n: int) -> Any:
    """LAPACK band storage ``ab[u + i - j, j] = a[i, j]`` (rows of ``ab`` are
    the diagonals, top one first) to a dense ``(..., n, n)`` matrix."""
    i = lax.broadcasted_iota(np.int32, (n, n), 0)
    j = lax.broadcasted_iota(np.int32, (n, n), 1)
    out = snp.zeros(ab.shape[:-2] + (n, n), ab.dtype)
    for k in range(-u, l + 1):
        row = ab[..., u + k, :][..., None, :]  # value of column j
        out = snp.where((i - j) == k, row, out)
    return out


def dense_to_banded(a: Any, l: int, u: int) -> Any:
    """Inverse of :func:`banded_to_dense` (zeros where the band is short)."""
    n = a.shape[-1]
    rows = []
    for k in range(-u, l + 1):
        # column j of row u + k holds a[j + k, j]
        d = snp.diagonal(a, -k, -2, -1)
        pad = [(0, 0)] * (d.ndim - 1) + ([(-k, 0)] if k < 0 else [(0, k)])
        rows.append(snp.pad(d, pad))
    return snp.stack(rows, axis=-2) if rows else snp.zeros(a.shape[:-2] + (0, n),
                                                           a.dtype)
