"""Smaller members of ``scipy.linalg``: structure tests (``bandwidth``,
``issymmetric``, ``ishermitian``), ``diagsvd``, ``cdf2rdf``,
``orthogonal_procrustes``, ``qr_multiply``, ``expm_cond`` and the
Clarkson-Woodruff sketch.

The structure tests answer with Python values when their input is concrete,
as SciPy does; under ``jit``/``vmap`` the same computation returns arrays
(a traced value cannot become a Python ``bool``).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax.lax import linalg as lla
from sciax.linalg import _util
from sciax.linalg._decomp import qr
from sciax.linalg._matfuncs import expm, expm_frechet
from sciax.linalg._util import adjoint, swap

__all__ = ["bandwidth", "cdf2rdf", "clarkson_woodruff_transform", "diagsvd",
           "expm_cond", "ishermitian", "issymmetric", "orthogonal_procrustes",
           "qr_multiply"]


def _host(x: Any) -> Any:
    """``x`` as a NumPy array, or None when it is a tracer."""
    try:
        return np.asarray(x)
    except TypeError:
        return None


def _namespace(a: Any) -> tuple[Any, Any]:
    """NumPy and the host array for a concrete ``a`` (SciPy's answer costs no
    compilation), else sciax.numpy and the traced array."""
    h = _host(a)
    return (np, h) if h is not None else (snp, snp.asarray(a))


def _python(x: Any) -> Any:
    """0-d NumPy results as Python scalars; stacks and traced values as they are."""
    if isinstance(x, np.generic) or (isinstance(x, np.ndarray) and x.ndim == 0):
        return x.item()
    return x


# --- structure tests ------------------------------------------------------------------
# Written once for both namespaces: NumPy for concrete input, sciax.numpy under
# jit/vmap, where the answer has to stay an array.

def bandwidth(a: Any) -> tuple[Any, Any]:
    """Lower and upper bandwidth of a matrix: how far below and above the
    diagonal its nonzero entries reach.

    Parameters
    ----------
    a : array_like, shape (..., N, M)

    Returns
    -------
    lu : tuple of 2 ints
        ``(lower, upper)``; ``0`` means nothing below (above) the diagonal.
        For a stack of matrices, two integer NumPy arrays of the batch shape.
        Under ``jit`` or ``vmap`` two int32 arrays (a traced value cannot
        become a Python int).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3., 0., 0.], [1., 4., 2.], [8., 0., 5.]])
    >>> linalg.bandwidth(a)
    (2, 1)
    """
    xp, a = _namespace(a)
    if a.ndim < 2:
        raise ValueError(f"bandwidth: input array must be a 2D array (or a stack of "
                         f"them), got shape {a.shape}")
    n, m = a.shape[-2:]
    offset = (np.arange(n, dtype=np.int32)[:, None]
              - np.arange(m, dtype=np.int32)[None, :])
    nonzero = a != 0
    lower = xp.max(xp.where(nonzero, offset, 0), axis=(-2, -1), initial=0)
    upper = xp.max(xp.where(nonzero, -offset, 0), axis=(-2, -1), initial=0)
    return _python(lower), _python(upper)


def _symmetric(name: str, a: Any, atol: Any, rtol: Any, conjugate: bool) -> Any:
    xp, a = _namespace(a)
    if a.ndim < 2:
        raise ValueError(f"{name}: input array must be a 2D array (or a stack of "
                         f"them), got shape {a.shape}")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: input array must be square, got shape {a.shape}")
    b = xp.swapaxes(a, -1, -2)
    cplx = xp.iscomplexobj(a)
    if conjugate and cplx:
        b = xp.conj(b)
    if atol is None and rtol is None:
        same = a == b
        diag = np.eye(a.shape[-1], dtype=bool)
        if conjugate and cplx:
            # a Hermitian diagonal is real; its real part is not compared, so
            # NaNs there are ignored as in SciPy
            same = xp.where(diag, xp.imag(a) == 0, same)
        else:
            same = same | diag  # the diagonal is not scanned (SciPy)
        ok = xp.all(same, axis=(-2, -1))
    else:
        atol = 0.0 if atol is None else atol
        rtol = 0.0 if rtol is None else rtol
        ok = xp.all(xp.abs(a - b) <= atol + rtol * xp.abs(b), axis=(-2, -1))
    return _python(ok)


def issymmetric(a: Any, atol: Any = None, rtol: Any = None) -> Any:
    """Whether a square matrix equals its transpose.

    Parameters
    ----------
    a : array_like, shape (..., N, N)
    atol, rtol : float, optional
        Tolerances of ``numpy.allclose(a, a.T)`` (the other one defaults to 0
        when only one is given).  Without either the comparison is exact and
        the diagonal is not looked at.

    Returns
    -------
    sym : bool
        A Python bool (a NumPy bool array for a stack of matrices).  Under
        ``jit`` or ``vmap`` a bool array.  Complex matrices are tested for
        symmetry, not for being Hermitian.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.issymmetric(np.array([[1.0, 2.0], [2.0, 3.0]]))
    True
    >>> linalg.issymmetric(np.array([[1.0, 2.0], [2.1, 3.0]]), atol=0.2)
    True
    """
    return _symmetric("issymmetric", a, atol, rtol, conjugate=False)


def ishermitian(a: Any, atol: Any = None, rtol: Any = None) -> Any:
    """Whether a square matrix equals its conjugate transpose.

    Parameters
    ----------
    a : array_like, shape (..., N, N)
    atol, rtol : float, optional
        As for :func:`issymmetric`.

    Returns
    -------
    her : bool
        A Python bool (a NumPy bool array for a stack of matrices); under
        ``jit`` or ``vmap`` a bool array.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.ishermitian(np.array([[1.0, 2 + 3j], [2 - 3j, 4.0]]))
    True
    >>> linalg.ishermitian(np.array([[1 + 1j, 3j], [3j, 2.0]]))
    False
    """
    return _symmetric("ishermitian", a, atol, rtol, conjugate=True)


# --- diagsvd, cdf2rdf -----------------------------------------------------------------

def diagsvd(s: Any, M: int, N: int) -> Any:
    """The ``M x N`` matrix ``S`` of an SVD, from the singular values.

    Parameters
    ----------
    s : array_like, shape (..., K)
        Singular values; ``K`` must be ``M`` or ``N``.
    M, N : int
        The shape of the result (static).

    Returns
    -------
    S : Array, shape (..., M, N)
        ``s`` on the diagonal, zeros elsewhere; ``s``'s dtype.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.diagsvd(np.array([1.0, 2.0]), 2, 3)
    Array([[1., 0., 0.],
           [0., 2., 0.]], dtype=float64)
    """
    s = snp.asarray(s)
    if s.ndim < 1:
        raise ValueError(f"diagsvd: s must be at least 1-D, got shape {s.shape}")
    M, N = int(M), int(N)
    k = s.shape[-1]
    part = _util.diag_matrix(s)
    batch = [(0, 0)] * (s.ndim - 1)
    if k == M:
        return snp.pad(part, batch + [(0, 0), (0, N - M)])
    if k == N:
        return snp.pad(part, batch + [(0, M - N), (0, 0)])
    raise ValueError(f"diagsvd: Length of s must be M or N; got len(s) = {k} for "
                     f"M = {M}, N = {N}")


def cdf2rdf(w: Any, v: Any) -> tuple[Any, Any]:
    """Complex diagonal form to real block-diagonal form.

    For the eigenvalues ``w`` and eigenvectors ``v`` of a real matrix ``X``
    (``X @ v = v @ diag(w)``), return real ``wr, vr`` with
    ``X @ vr = vr @ wr``, each complex-conjugate pair becoming a 2 x 2 block
    ``[[re, im], [-im, re]]``.

    Parameters
    ----------
    w : array_like, shape (..., M)
        Eigenvalues; complex ones come in conjugate pairs, the pairs in order
        (the first of each pair before the second, as ``eig`` returns them).
    v : array_like, shape (..., M, M)
        Eigenvectors (columns).

    Returns
    -------
    wr : Array, shape (..., M, M)
        Real block-diagonal eigenvalues (``w``'s real dtype).
    vr : Array, shape (..., M, M)
        Real eigenvectors (real dtype of ``v``'s precision; SciPy always
        returns float64).

    Notes
    -----
    A complex eigenvalue without its partner raises ``ValueError`` eagerly;
    under ``jit`` (where nothing can be raised) the results are NaN.

    Examples
    --------
    >>> from sciax import linalg
    >>> x = np.array([[1.0, -2.0], [2.0, 1.0]])
    >>> w, v = np.linalg.eig(x)
    >>> wr, vr = linalg.cdf2rdf(w, v)
    >>> wr
    Array([[ 1.,  2.],
           [-2.,  1.]], dtype=float64)
    >>> bool(np.allclose(x @ vr, vr @ wr))
    True
    """
    w, v = snp.asarray(w), snp.asarray(v)
    if w.ndim < 1:
        raise ValueError("cdf2rdf: expected w to be at least 1D")
    if v.ndim < 2:
        raise ValueError("cdf2rdf: expected v to be at least 2D")
    if v.ndim != w.ndim + 1:
        raise ValueError("cdf2rdf: expected eigenvectors array to have exactly one "
                         f"dimension more than eigenvalues array, got w {w.shape} "
                         f"and v {v.shape}")
    n = w.shape[-1]
    if v.shape[-2] != v.shape[-1]:
        raise ValueError("cdf2rdf: expected v to be a square matrix or stacked "
                         f"square matrices: v.shape[-2] = v.shape[-1], got {v.shape}")
    if v.shape[-1] != n:
        raise ValueError("cdf2rdf: expected the same number of eigenvalues as "
                         f"eigenvectors, got w {w.shape} and v {v.shape}")
    (w,) = _util.inexact("cdf2rdf", w)
    (v,) = _util.inexact("cdf2rdf", v)
    wr, vr, odd = _cdf2rdf(w, v)
    odd_host = _host(snp.any(odd))
    if odd_host is not None and bool(odd_host):
        raise ValueError("cdf2rdf: expected complex-conjugate pairs of eigenvalues")
    return wr, vr


@sciax.jit
def _cdf2rdf(w: Any, v: Any) -> tuple[Any, Any, Any]:
    cdtype = snp.result_type(v.dtype, w.dtype, snp.complex64)
    re, im = snp.real(w), snp.imag(w)
    mask = im != 0
    count = snp.sum(mask, axis=-1)
    odd = count % 2 == 1
    rank = snp.cumsum(mask.astype(np.int32), axis=-1) - 1
    first = mask & (rank % 2 == 0)
    second = mask & ~first
    # pair[j, k]: k is the partner of the first-of-pair eigenvalue j
    pair = (first[..., :, None] & mask[..., None, :]
            & (rank[..., None, :] == rank[..., :, None] + 1))
    pair_t = swap(pair)
    wr = (_util.diag_matrix(re) + snp.where(pair, im[..., :, None], 0)
          + snp.where(pair_t, im[..., :, None], 0))
    d = snp.where(first, 0.5j, snp.where(second, 0.5, 1.0)).astype(cdtype)
    u = (_util.diag_matrix(d) + snp.where(pair, 0.5, 0).astype(cdtype)
         + snp.where(pair_t, -0.5j, 0).astype(cdtype))
    vr = snp.real(v.astype(cdtype) @ u)
    bad = odd[..., None, None]
    return snp.where(bad, np.nan, wr), snp.where(bad, np.nan, vr), odd


# --- orthogonal_procrustes, expm_cond -------------------------------------------------

def orthogonal_procrustes(A: Any, B: Any, check_finite: bool = True
                          ) -> tuple[Any, Any]:
    """The unitary ``R`` minimising ``||A @ R - B||_F``.

    Parameters
    ----------
    A, B : array_like, shape (..., M, N)
    check_finite : bool
        Ignored (a traced value cannot be checked).

    Returns
    -------
    R : Array, shape (..., N, N)
        ``U @ Vh`` from the SVD ``A^H B = U S Vh``.
    scale : Array, shape (...)
        The sum of the singular values of ``A^H B``.

    Notes
    -----
    Differentiable where the singular values of ``A^H B`` are distinct and
    nonzero (the SVD's derivative).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[1.0, 0.0], [0.0, 2.0]])
    >>> r, scale = linalg.orthogonal_procrustes(a, a[:, ::-1])
    >>> np.round(np.asarray(r), 12) + 0.0
    array([[0., 1.],
           [1., 0.]])
    >>> scale
    Array(5., dtype=float64)
    """
    del check_finite
    A, B = _util.inexact("orthogonal_procrustes", A, B)
    if A.ndim < 2:
        raise ValueError(f"orthogonal_procrustes: expected ndim to be 2, but "
                         f"observed {A.ndim}")
    if A.shape != B.shape:
        raise ValueError(f"orthogonal_procrustes: the shapes of A and B differ "
                         f"({A.shape} vs {B.shape})")
    s, u, vh = lla.svd(adjoint(A) @ B, full_matrices=False)
    return u @ vh, snp.sum(s, axis=-1)


def expm_cond(A: Any, check_finite: bool = True) -> Any:
    """Relative condition number of the matrix exponential (Frobenius norm).

    Parameters
    ----------
    A : array_like, shape (..., N, N)
    check_finite : bool
        Ignored.

    Returns
    -------
    kappa : Array, shape (...)
        ``||K||_2 ||A||_F / ||expm(A)||_F`` with ``K`` the ``N^2 x N^2``
        Kronecker form of the Frechet derivative of ``expm`` at ``A``.

    Notes
    -----
    ``K`` is built column by column from :func:`expm_frechet` in the
    ``N^2`` unit directions, as SciPy does: ``O(N^5)`` work, meant for
    small matrices.

    Examples
    --------
    >>> from sciax import linalg
    >>> round(float(linalg.expm_cond(np.array([[-0.5, 1e-4], [0.0, -0.5]]))), 6)
    0.500025
    """
    del check_finite
    (A,) = _util.inexact("expm_cond", A)
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"expm_cond: expected a square matrix, got shape {A.shape}")
    return _expm_cond(A)


@sciax.jit
def _expm_cond(A: Any) -> Any:
    # jitted: eagerly, the N^2 Frechet derivatives would dispatch op by op
    n = A.shape[-1]
    basis = snp.eye(n * n, dtype=A.dtype).reshape(n * n, n, n)
    big = snp.broadcast_to(A[..., None, :, :], A.shape[:-2] + (n * n, n, n))
    frechet = expm_frechet(big, snp.broadcast_to(basis, big.shape),
                           compute_expm=False)
    # rows are the vec'd derivatives: K up to a permutation, so the same 2-norm
    k = frechet.reshape(A.shape[:-2] + (n * n, n * n))
    k_norm = snp.max(lla.svd(k, compute_uv=False), axis=-1) if n else 0.0
    a_norm = snp.sqrt(snp.sum(snp.abs(A) ** 2, axis=(-2, -1)))
    x_norm = snp.sqrt(snp.sum(snp.abs(expm(A)) ** 2, axis=(-2, -1)))
    return k_norm * a_norm / x_norm


# --- qr_multiply ----------------------------------------------------------------------

def qr_multiply(a: Any, c: Any, mode: str = "right", pivoting: bool = False,
                conjugate: bool = False, overwrite_a: bool = False,
                overwrite_c: bool = False) -> tuple[Any, ...]:
    """``Q @ c`` or ``c @ Q`` for the ``Q`` of the QR decomposition of ``a``,
    with ``a``'s ``R``.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    c : array_like, shape (K, P) for ``'left'``, (P, M) for ``'right'``
        ``K = min(M, N)``; a 1-D ``c`` is one column (``'left'``) or row
        (``'right'``) and the product is 1-D too.  Leading axes of a 2-D (or
        higher) ``c`` broadcast with ``a``'s batch axes.
    mode : {'right', 'left'}
        ``c @ Q[:, :K]`` or ``Q[:, :K] @ c``.
    pivoting : bool
        QR with column pivoting (as :func:`qr`); the permutation is appended.
    conjugate : bool
        Use ``conj(Q)`` instead of ``Q``.
    overwrite_a : bool
        Ignored (sciax arrays are immutable).
    overwrite_c : bool
        As in SciPy, it changes the meaning of ``'left'`` for tall ``a``
        (``M > N``): ``c`` then has ``M`` rows and is multiplied by the full
        ``M x M`` ``Q``.

    Returns
    -------
    CQ : Array
        The product.
    R : Array, shape (..., K, N)
        The economic ``R`` of ``a`` (LAPACK's signs, as SciPy's).
    P : Array of int32, shape (..., N)
        Only with ``pivoting``.

    Notes
    -----
    Differentiable as :func:`qr` is (always, except the full ``Q`` used by
    ``overwrite_c=True`` for tall ``a``).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3.0, 1.0], [4.0, 2.0]])
    >>> cq, r = linalg.qr_multiply(a, np.eye(2))
    >>> cq
    Array([[-0.6, -0.8],
           [-0.8,  0.6]], dtype=float64)
    """
    del overwrite_a
    if mode not in ("left", "right"):
        raise ValueError("qr_multiply: Mode argument can only be 'left' or 'right' "
                         f"but not {mode!r}")
    a, c = _util.inexact("qr_multiply", a, c)
    if a.ndim == 1:
        a = a[None, :]
    _util.matrix("qr_multiply", a)
    m, n = a.shape[-2:]
    k = min(m, n)
    onedim = c.ndim < 2
    if onedim:
        c = c.reshape(1, -1) if c.ndim else c.reshape(1, 1)
        if mode == "left":
            c = swap(c)
    full_left = mode == "left" and overwrite_c and m > n
    if mode == "left":
        rows = m if full_left else k
        if c.shape[-2] != rows:
            raise ValueError("qr_multiply: Array shapes are not compatible for Q @ c "
                             f"operation: {a.shape} vs {c.shape}")
    elif c.shape[-1] != m:
        raise ValueError("qr_multiply: Array shapes are not compatible for c @ Q "
                         f"operation: {c.shape} vs {a.shape}")
    return _qr_multiply_core(a, c, left=mode == "left", pivoting=bool(pivoting),
                             conjugate=bool(conjugate), full_left=full_left,
                             onedim=onedim)


# compiled as one program: eagerly, op-by-op dispatch would compile each op
@functools.partial(sciax.jit, static_argnames=("left", "pivoting", "conjugate",
                                               "full_left", "onedim"))
def _qr_multiply_core(a: Any, c: Any, *, left: bool, pivoting: bool, conjugate: bool,
                      full_left: bool, onedim: bool) -> tuple[Any, ...]:
    k = min(a.shape[-2:])
    parts = qr(a, mode="full" if full_left else "economic", pivoting=pivoting)
    q, rest = parts[0], parts[1:]
    if full_left:
        rest = (rest[0][..., :k, :],) + rest[1:]
    if conjugate:
        q = snp.conj(q)
    out = q @ c if left else c @ q
    if onedim:
        out = out.reshape(out.shape[:-2] + (-1,))
    return (out,) + tuple(rest)


# --- Clarkson-Woodruff sketch ---------------------------------------------------------

def _generator(rng: Any, seed: Any) -> Any:
    if seed is not None:
        if rng is not None:
            raise TypeError("clarkson_woodruff_transform: pass rng or the legacy "
                            "seed, not both")
        # SciPy's legacy keyword: np.random.RandomState semantics
        if isinstance(seed, (np.random.Generator, np.random.RandomState)):
            return seed
        return np.random.RandomState(seed)
    return np.random.default_rng(rng)


def clarkson_woodruff_transform(input_matrix: Any, sketch_size: int, rng: Any = None,
                                *, seed: Any = None) -> Any:
    """The Clarkson-Woodruff (CountSketch) transform ``S @ input_matrix``.

    ``S`` is ``sketch_size x n`` with one random ``+-1`` per column in a
    random row, so ``E[||S x||^2] = ||x||^2`` for every ``x``.

    Parameters
    ----------
    input_matrix : array_like, shape (..., n, d)
    sketch_size : int
        Rows of the sketch (static).
    rng : None, int or numpy.random.Generator, optional
        Seeds ``numpy.random.default_rng``.
    seed : None, int, numpy.random.RandomState or Generator, optional
        SciPy's legacy keyword (``RandomState`` semantics); give ``rng`` or
        ``seed``, not both.

    Returns
    -------
    A' : Array, shape (..., sketch_size, d)

    Notes
    -----
    The signs and rows are drawn with NumPy on the host when the function is
    called (or traced): under ``jit`` they are constants of the compiled
    program, so call it outside ``jit`` for a fresh sketch per call.  The
    draw is not SciPy's.  Computed as a scatter-add of the signed rows, in
    ``O(n d)``; linear, hence differentiable, in ``input_matrix``.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.arange(12.0).reshape(6, 2)
    >>> linalg.clarkson_woodruff_transform(a, 3, rng=0).shape
    (3, 2)
    """
    (x,) = _util.inexact("clarkson_woodruff_transform", input_matrix)
    if x.ndim < 2:
        raise ValueError("clarkson_woodruff_transform: input_matrix must be at least "
                         f"2-D, got shape {x.shape}")
    sketch_size = int(sketch_size)
    if sketch_size < 1:
        raise ValueError("clarkson_woodruff_transform: sketch_size must be positive, "
                         f"got {sketch_size}")
    gen = _generator(rng, seed)
    n = x.shape[-2]
    if isinstance(gen, np.random.RandomState):
        rows = gen.randint(0, sketch_size, n)
    else:
        rows = gen.integers(0, sketch_size, n)
    signs = gen.choice([1, -1], n)
    return _sketch(x, rows.astype(np.int32), signs.astype(x.dtype),
                   sketch_size=sketch_size)


@functools.partial(sciax.jit, static_argnames=("sketch_size",))
def _sketch(x: Any, rows: Any, signs: Any, *, sketch_size: int) -> Any:
    xt = snp.moveaxis(x, -2, 0) * signs.reshape((-1,) + (1,) * (x.ndim - 1))
    out = snp.zeros((sketch_size,) + xt.shape[1:], x.dtype).at[rows].add(xt)
    return snp.moveaxis(out, 0, -2)
