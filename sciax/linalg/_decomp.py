"""Decompositions and eigenvalue problems: SciPy's ``lu``, ``qr``, ``rq``,
``svd``, ``eigh``, ``eig``, ``schur``, ``rsf2csf``, ``hessenberg`` and the
banded/tridiagonal eigensolvers, on the ``sciax.lax.linalg`` primitives."""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax.numpy as snp
from sciax import lax
from sciax.lax import linalg as lla
from sciax.linalg import _schur_sort, _util
from sciax.linalg._decomp_gen import _eig_generalized
from sciax.linalg._solve import cholesky_factor
from sciax.linalg._util import adjoint

__all__ = ["cholesky", "eig", "eig_banded", "eigh", "eigh_tridiagonal", "eigvals",
           "eigvals_banded", "eigvalsh", "eigvalsh_tridiagonal", "hessenberg", "lu",
           "qr", "rq", "rsf2csf", "schur", "svd", "svdvals"]


def cholesky(a: Any, lower: bool = False, overwrite_a: bool = False,
             check_finite: bool = True, *, symmetrize_input: bool = True) -> Any:
    """Cholesky decomposition of a Hermitian positive-definite matrix.

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    lower : bool, default False
        Return the lower factor ``L`` (``a = L @ L^H``), else the upper ``U``
        (``a = U^H @ U``).
    overwrite_a, check_finite : bool
        Ignored (SciPy compatibility).
    symmetrize_input : bool, default True
        Factor ``(a + a^H) / 2``, so the derivative with respect to ``a`` is
        Hermitian (JAX's ``symmetrize_input`` convention) and a gradient step
        keeps ``a`` symmetric.  False reads only the triangle named by
        ``lower``, as SciPy (LAPACK potrf) does; the derivative is then
        triangular.  Both agree in value for Hermitian ``a``.

    Returns
    -------
    c : Array, shape (..., M, M)

    Notes
    -----
    A matrix that is not positive definite, or NaN input, gives a factor of
    NaNs (per batch member) instead of ``LinAlgError``.  Differentiable
    (Murray 2016), batched and jittable.  Differences from SciPy: by default
    both triangles are read (``symmetrize_input``).

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.cholesky(np.array([[1.0, -2j], [2j, 5.0]]), lower=True)
    Array([[1.+0.j, 0.+0.j],
           [0.+2.j, 1.+0.j]], dtype=complex128)
    """
    del overwrite_a, check_finite
    (a,) = _util.inexact("cholesky", a)
    _util.matrix("cholesky", a, square=True)
    if symmetrize_input:
        a = _symmetrize(a)
    return cholesky_factor(a, bool(lower))


def _symmetrize(a: Any) -> Any:
    """``(a + a^H) / 2``: the Hermitian part, whose derivative is Hermitian."""
    return (a + adjoint(a)) / 2


# --- LU, QR, RQ -----------------------------------------------------------------------

def lu(a: Any, permute_l: bool = False, overwrite_a: bool = False,
       check_finite: bool = True, p_indices: bool = False) -> tuple[Any, ...]:
    """LU decomposition with partial pivoting, ``a = p @ l @ u``.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    permute_l : bool, default False
        Return ``(p @ l, u)``.
    overwrite_a, check_finite : bool
        Ignored.
    p_indices : bool, default False
        Return the permutation as row indices, ``a == l[p] @ u``.

    Returns
    -------
    p : Array, shape (..., M, M), or int32 (..., M) with ``p_indices``
    l : Array, shape (..., M, K), unit lower triangular, ``K = min(M, N)``
    u : Array, shape (..., K, N), upper triangular
    pl : Array, shape (..., M, K)
        Only with ``permute_l``, instead of ``p`` and ``l``.

    Notes
    -----
    A singular matrix is factored without error.  Differentiable in ``a``
    (``l`` and ``u``; the permutation is piecewise constant).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[2.0, 5, 8, 7], [5, 2, 2, 8], [7, 5, 6, 6], [5, 4, 4, 8]])
    >>> p, l, u = linalg.lu(a)
    >>> bool(np.allclose(np.asarray(p @ l @ u), a))
    True
    >>> linalg.lu(a, p_indices=True)[0]
    Array([1, 3, 0, 2], dtype=int32)
    """
    del overwrite_a, check_finite
    (a,) = _util.inexact("lu", a)
    _util.matrix("lu", a)
    m, n = a.shape[-2:]
    k = min(m, n)
    packed, _, perm = lla.lu(a)
    lower = snp.tril(packed[..., :, :k], -1) + snp.eye(m, k, dtype=a.dtype)
    upper = snp.triu(packed[..., :k, :])
    p = snp.argsort(perm, axis=-1).astype(np.int32)  # a == l[p] @ u
    if permute_l:
        return snp.take_along_axis(lower, p[..., :, None].astype(np.int32), axis=-2,
                                   mode="promise_in_bounds"), upper
    if p_indices:
        return p, lower, upper
    pmat = (p[..., :, None] == snp.arange(m, dtype=np.int32)).astype(a.dtype)
    return pmat, lower, upper


def qr(a: Any, overwrite_a: bool = False, lwork: Any = None, mode: str = "full",
       pivoting: bool = False, check_finite: bool = True) -> tuple[Any, ...]:
    """QR decomposition ``a = q @ r`` (Householder, LAPACK geqrf + orgqr), or
    with column pivoting ``a[:, p] = q @ r`` (geqp3).

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    overwrite_a, lwork, check_finite
        Ignored.
    mode : {'full', 'r', 'economic', 'raw'}, default 'full'
        Both factors full (``q`` M x M); only ``r`` (returned as a 1-tuple, as
        SciPy does); the reduced factors (``q`` M x K, ``r`` K x N); or
        LAPACK's packed ``((h, tau), r)`` with the economic ``r``.
    pivoting : bool, default False
        Column pivoting: the largest remaining column goes next, so the
        magnitudes on ``r``'s diagonal do not increase (rank-revealing).  The
        permutation ``p`` is appended to every result.

    Returns
    -------
    q, r : Array
        Signs as LAPACK gives them (as SciPy's).
    p : Array of int32, shape (..., N)
        Only with ``pivoting``: 0-based column indices, ``a[..., :, p] == q @ r``.

    Notes
    -----
    Differentiable (except ``'raw'``) for ``M <= N`` and for the reduced
    factors and ``'r'`` (the full ``q`` of a tall matrix has no unique
    derivative).  With ``pivoting`` the permutation is piecewise constant: it
    is taken from geqp3 without gradient, and ``q, r`` are the differentiable
    QR of ``a[..., :, p]`` (which repeats the factorisation; ``'raw'`` returns
    geqp3's own output).

    Examples
    --------
    >>> from sciax import linalg
    >>> q, r = linalg.qr(np.array([[3.0, 1.0], [4.0, 2.0]]))
    >>> r
    Array([[-5. , -2.2],
           [ 0. ,  0.4]], dtype=float64)
    >>> a = np.array([[1.0, 10.0], [0.0, 1.0]])
    >>> q, r, p = linalg.qr(a, pivoting=True)
    >>> p
    Array([1, 0], dtype=int32)
    >>> bool(np.allclose(np.asarray(q @ r), a[:, np.asarray(p)]))
    True
    """
    del overwrite_a, lwork, check_finite
    if mode not in ("full", "r", "economic", "raw"):
        raise ValueError(f"qr: mode argument must be one of ['full', 'r', "
                         f"'economic', 'raw'], got {mode!r}")
    (a,) = _util.inexact("qr", a)
    _util.matrix("qr", a)
    m, n = a.shape[-2:]
    k = min(m, n)
    perm: tuple[Any, ...] = ()
    if pivoting:
        jpvt = snp.zeros((*a.shape[:-2], n), dtype=np.int32)
        h, jpvt, tau = lla.geqp3(lax.stop_gradient(a), jpvt)
        p = jpvt - 1
        perm = (p,)
        if mode == "raw":
            return ((h, tau), snp.triu(h[..., :k, :])) + perm
        if a.size:  # (an empty matrix has nothing to permute)
            a = snp.take_along_axis(a, p[..., None, :], axis=-1,
                                    mode="promise_in_bounds")
    elif mode == "raw":
        h, tau = lla.geqrf(a)
        return (h, tau), snp.triu(h[..., :k, :])
    if mode == "r":
        # the reduced factorisation has a derivative also for tall a; the
        # full r only adds zero rows
        _, r = lla.qr(a, full_matrices=False)
        if m > n:
            r = snp.concatenate([r, snp.zeros((*a.shape[:-2], m - n, n), a.dtype)],
                                axis=-2)
        return (r,) + perm
    q, r = lla.qr(a, full_matrices=mode != "economic")
    return (q, r) + perm


def rq(a: Any, overwrite_a: bool = False, lwork: Any = None, mode: str = "full",
       check_finite: bool = True) -> Any:
    """RQ decomposition ``a = r @ q``, ``r`` upper triangular (anchored at the
    bottom-right corner) and ``q`` unitary.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    overwrite_a, lwork, check_finite
        Ignored.
    mode : {'full', 'r', 'economic'}, default 'full'
        ``r`` M x N and ``q`` N x N; only ``r`` (an array, as SciPy); or
        ``r`` M x K and ``q`` K x N, ``K = min(M, N)``.

    Returns
    -------
    r, q : Array

    Notes
    -----
    Computed as the QR decomposition of ``a^H`` with rows and columns
    reversed, which is what LAPACK's gerqf does, so signs agree with SciPy.
    Differentiable where :func:`qr` is (reduced factors, or ``M >= N``).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> r, q = linalg.rq(a)
    >>> r.shape, q.shape
    ((2, 3), (3, 3))
    >>> bool(np.allclose(np.asarray(r @ q), a))
    True
    """
    del overwrite_a, lwork, check_finite
    if mode not in ("full", "r", "economic"):
        raise ValueError(f"rq: mode argument must be one of ['full', 'r', "
                         f"'economic'], got {mode!r}")
    (a,) = _util.inexact("rq", a)
    _util.matrix("rq", a)
    c = snp.flip(adjoint(a), axis=(-2, -1))
    q1, r1 = lla.qr(c, full_matrices=mode != "economic")
    r = snp.flip(adjoint(r1), axis=(-2, -1))
    q = snp.flip(adjoint(q1), axis=(-2, -1))
    return r if mode == "r" else (r, q)


# --- SVD ------------------------------------------------------------------------------

def svd(a: Any, full_matrices: bool = True, compute_uv: bool = True,
        overwrite_a: bool = False, check_finite: bool = True,
        lapack_driver: str = "gesdd") -> Any:
    """Singular value decomposition ``a = u @ diag(s) @ vh``.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
    full_matrices : bool, default True
        ``u`` M x M and ``vh`` N x N; else M x K and K x N.
    compute_uv : bool, default True
        Return ``(u, s, vh)``; else only ``s``.
    overwrite_a, check_finite : bool
        Ignored.
    lapack_driver : {'gesdd', 'gesvd'}, default 'gesdd'

    Returns
    -------
    u : Array
    s : Array, shape (..., K), descending, real dtype
    vh : Array

    Notes
    -----
    NaN input gives NaN outputs (LAPACK's failure is not raised).
    Derivatives assume distinct nonzero singular values; for repeated ones the
    coupling terms are dropped so that basis-independent quantities (``s``,
    projectors, norms) stay correct (see ``sciax.lax.linalg.svd``).

    Examples
    --------
    >>> from sciax import linalg
    >>> u, s, vh = linalg.svd(np.array([[3.0, 0.0], [0.0, -4.0]]))
    >>> s
    Array([4., 3.], dtype=float64)
    """
    del overwrite_a, check_finite
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f"svd: lapack_driver must be 'gesdd' or 'gesvd', got "
                         f"{lapack_driver!r}")
    (a,) = _util.inexact("svd", a)
    _util.matrix("svd", a)
    if not compute_uv:
        return lla.svd(a, full_matrices=False, compute_uv=False,
                       algorithm=lapack_driver)
    s, u, vh = lla.svd(a, full_matrices=bool(full_matrices), compute_uv=True,
                       algorithm=lapack_driver)
    return u, s, vh


def svdvals(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """The singular values of ``a``, descending.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.svdvals(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    Array([9.508032  , 0.77286964], dtype=float64)
    """
    return svd(a, compute_uv=False)


# --- Hermitian eigenproblems ----------------------------------------------------------

def _subset(name: str, w: Any, v: Any, subset_by_index: Any, subset_by_value: Any
            ) -> tuple[Any, Any]:
    if subset_by_value is not None:
        raise NotImplementedError(
            f"{name}: subset_by_value selects a value-dependent number of "
            "eigenvalues, which has no static shape; use subset_by_index")
    if subset_by_index is None:
        return w, v
    n = w.shape[-1]
    lo, hi = (int(i) for i in subset_by_index)
    if not 0 <= lo <= hi < n:
        raise ValueError(f"{name}: requested eigenvalue indices {subset_by_index} are "
                         f"not valid for an {n} x {n} matrix (need 0 <= lo <= hi < "
                         f"{n})")
    return w[..., lo:hi + 1], None if v is None else v[..., :, lo:hi + 1]


def eigh(a: Any, b: Any = None, *, lower: bool = True, eigvals_only: bool = False,
         overwrite_a: bool = False, overwrite_b: bool = False, type: int = 1,
         check_finite: bool = True, subset_by_index: Any = None,
         subset_by_value: Any = None, driver: Any = None,
         symmetrize_input: bool = True) -> Any:
    """Eigenvalues and eigenvectors of a Hermitian matrix, or of the
    generalized problem with a Hermitian positive-definite ``b``.

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    b : array_like, shape (..., M, M), optional
        Solve ``a v = w b v`` (``type=1``), ``a b v = w v`` (2) or
        ``b a v = w v`` (3) by reduction with the Cholesky factor of ``b``.
    lower : bool, default True
        The triangle(s) read when ``symmetrize_input`` is False.
    eigvals_only : bool, default False
    type : {1, 2, 3}, default 1
    subset_by_index : (int, int), optional
        Inclusive range of eigenvalue indices (ascending order) to return.
    subset_by_value : optional
        Not supported (the number of eigenvalues in a range is not static):
        NotImplementedError.
    overwrite_a, overwrite_b, check_finite, driver
        Ignored (one LAPACK driver, syevd/heevd).
    symmetrize_input : bool, default True
        Use the Hermitian parts ``(a + a^H) / 2`` (and of ``b``), JAX's
        convention: derivatives with respect to ``a`` and ``b`` are then
        Hermitian, so a gradient step keeps them symmetric.  False reads
        only the ``lower`` (or upper) triangles, as SciPy does, and the
        derivatives are triangular.  Both agree in value for Hermitian input.

    Returns
    -------
    w : Array, shape (..., K)
        Eigenvalues, ascending, real dtype.
    v : Array, shape (..., M, K)
        Eigenvectors in the columns (only without ``eigvals_only``);
        ``b``-orthonormal for the generalized problem.

    Notes
    -----
    NaN input gives NaNs; a ``b`` that is not positive definite gives NaNs
    (SciPy raises ``LinAlgError``).  Differences from SciPy: both triangles
    are read by default (``symmetrize_input``).  Differentiable; repeated
    eigenvalues: basis-independent quantities have
    correct derivatives, individual eigenvectors of a repeated eigenvalue do
    not (see ``sciax.lax.linalg.eigh``).

    Examples
    --------
    >>> from sciax import linalg
    >>> w, v = linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> w
    Array([1., 3.], dtype=float64)
    >>> linalg.eigh(np.diag([3.0, 1.0, 2.0]), eigvals_only=True,
    ...             subset_by_index=(1, 2))
    Array([2., 3.], dtype=float64)
    """
    del overwrite_a, overwrite_b, check_finite, driver
    if type not in (1, 2, 3):
        raise ValueError(f"eigh: type must be 1, 2 or 3, got {type!r}")
    args = (a,) if b is None else (a, b)
    arrs = _util.inexact("eigh", *args)
    a = _util.matrix("eigh", arrs[0], square=True)
    if symmetrize_input:
        a = _symmetrize(a)
    if b is None:
        v, w = lla.eigh(a, lower=bool(lower), symmetrize_input=False)
    else:
        b = _util.matrix("eigh", arrs[1], square=True, what="b")
        if symmetrize_input:
            b = _symmetrize(b)
        if b.shape[-1] != a.shape[-1]:
            raise ValueError(f"eigh: wrong b dimensions {b.shape}, should be "
                             f"{a.shape}")
        batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        a = _util.hermitian_from_triangle(a, bool(lower))
        a = snp.broadcast_to(a, batch + a.shape[-2:])
        c = snp.broadcast_to(cholesky_factor(b, bool(lower)) if lower else
                             adjoint(cholesky_factor(b, False)), batch + b.shape[-2:])
        tri = lla.triangular_solve
        if type == 1:  # C = L^-1 A L^-H, v = L^-H y
            t = tri(c, a, left_side=True, lower=True)
            cm = tri(c, t, left_side=False, lower=True, transpose_a=True,
                     conjugate_a=True)
        else:  # C = L^H A L
            cm = adjoint(c) @ a @ c
        v, w = lla.eigh(cm, lower=True, symmetrize_input=True)
        if type in (1, 2):
            v = tri(c, v, left_side=True, lower=True, transpose_a=True,
                    conjugate_a=True)
        else:
            v = c @ v
    w, v = _subset("eigh", w, v, subset_by_index, subset_by_value)
    return w if eigvals_only else (w, v)


def eigvalsh(a: Any, b: Any = None, *, lower: bool = True, overwrite_a: bool = False,
             overwrite_b: bool = False, type: int = 1, check_finite: bool = True,
             subset_by_index: Any = None, subset_by_value: Any = None,
             driver: Any = None, symmetrize_input: bool = True) -> Any:
    """Eigenvalues of a Hermitian (or generalized Hermitian-definite)
    problem, ascending; see :func:`eigh` (also for ``symmetrize_input``).

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.eigvalsh(np.array([[2.0, 1.0], [1.0, 2.0]]))
    Array([1., 3.], dtype=float64)
    """
    return eigh(a, b, lower=lower, eigvals_only=True, type=type,
                subset_by_index=subset_by_index, subset_by_value=subset_by_value,
                symmetrize_input=symmetrize_input)


def _select(name: str, select: str, select_range: Any) -> Any:
    if select in ("a", "all", 0):
        return None
    if select in ("i", "index", 2):
        if select_range is None:
            raise ValueError(f"{name}: select='i' needs select_range=(lo, hi)")
        return tuple(select_range)
    if select in ("v", "value", 1):
        raise NotImplementedError(f"{name}: select='v' selects a value-dependent "
                                  "number of eigenvalues (no static shape); use "
                                  "select='i'")
    raise ValueError(f"{name}: invalid select {select!r}; expected 'a', 'v' or 'i'")


def _tridiagonal_dense(name: str, d: Any, e: Any) -> Any:
    d, e = _util.inexact(name, d, e)
    if _util.is_complex(d) or _util.is_complex(e):
        raise TypeError(f"{name}: d and e must be real (a real symmetric "
                        "tridiagonal matrix), got complex input")
    if d.ndim < 1 or e.shape[:-1] != d.shape[:-1] or \
            e.shape[-1:] != (max(d.shape[-1] - 1, 0),):
        raise ValueError(f"{name}: e must have one element less than d along the "
                         f"last axis, got d {d.shape} and e {e.shape}")
    n = d.shape[-1]
    pad = [(0, 0)] * (e.ndim - 1)
    ab = snp.stack([snp.pad(e, pad + [(1, 0)]), d], axis=-2)
    return _util.hermitian_from_triangle(_util.banded_to_dense(ab, 0, 1, n), False)


def eigh_tridiagonal(d: Any, e: Any, eigvals_only: bool = False, select: str = "a",
                     select_range: Any = None, check_finite: bool = True,
                     tol: float = 0.0, lapack_driver: str = "auto") -> Any:
    """Eigenvalues and eigenvectors of a real symmetric tridiagonal matrix.

    Parameters
    ----------
    d : array_like, shape (..., N)
        The diagonal.
    e : array_like, shape (..., N - 1)
        The off-diagonal.
    eigvals_only : bool, default False
    select : {'a', 'i'}, default 'a'
        All eigenvalues, or those with indices in ``select_range`` (inclusive).
        'v' (a value range) raises NotImplementedError.
    select_range : (int, int), optional
    check_finite, tol, lapack_driver
        Ignored.

    Returns
    -------
    w : Array, shape (..., K), ascending
    v : Array, shape (..., N, K)

    Notes
    -----
    Computed by the dense symmetric eigensolver (syevd) on the assembled
    matrix: O(N^3) rather than stemr's O(N^2), same results.  Differentiable
    in ``d`` and ``e``.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.eigh_tridiagonal(np.array([2.0, 2.0, 2.0]), np.array([-1.0, -1.0]),
    ...                         eigvals_only=True)
    Array([0.58578644, 2.        , 3.41421356], dtype=float64)
    """
    del check_finite, tol, lapack_driver
    rng = _select("eigh_tridiagonal", select, select_range)
    return eigh(_tridiagonal_dense("eigh_tridiagonal", d, e), lower=False,
                eigvals_only=eigvals_only, subset_by_index=rng,
                symmetrize_input=False)


def eigvalsh_tridiagonal(d: Any, e: Any, select: str = "a", select_range: Any = None,
                         check_finite: bool = True, tol: float = 0.0,
                         lapack_driver: str = "auto") -> Any:
    """Eigenvalues of a real symmetric tridiagonal matrix; see
    :func:`eigh_tridiagonal`.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.eigvalsh_tridiagonal(np.array([1.0, 1.0]), np.array([1.0]))
    Array([0., 2.], dtype=float64)
    """
    return eigh_tridiagonal(d, e, eigvals_only=True, select=select,
                            select_range=select_range)


def eig_banded(a_band: Any, lower: bool = False, eigvals_only: bool = False,
               overwrite_a_band: bool = False, select: str = "a",
               select_range: Any = None, max_ev: int = 0, check_finite: bool = True
               ) -> Any:
    """Eigenvalues and eigenvectors of a Hermitian banded matrix in band
    storage (upper form ``a_band[u + i - j, j] == a[i, j]``, or lower form
    ``a_band[i - j, j] == a[i, j]``).

    Notes
    -----
    Assembled densely and solved by syevd/heevd (O(N^3)); select='v' raises
    NotImplementedError; ``max_ev`` is ignored.

    Examples
    --------
    >>> from sciax import linalg
    >>> ab = np.array([[0.0, 1.0, 1.0], [2.0, 2.0, 2.0]])
    >>> linalg.eig_banded(ab, eigvals_only=True)
    Array([0.58578644, 2.        , 3.41421356], dtype=float64)
    """
    del overwrite_a_band, max_ev, check_finite
    rng = _select("eig_banded", select, select_range)
    (ab,) = _util.inexact("eig_banded", a_band)
    if ab.ndim < 2:
        raise ValueError(f"eig_banded: a_band must be at least 2-D, got shape "
                         f"{ab.shape}")
    k, n = ab.shape[-2] - 1, ab.shape[-1]
    dense = _util.banded_to_dense(ab, k, 0, n) if lower else \
        _util.banded_to_dense(ab, 0, k, n)
    return eigh(dense, lower=bool(lower), eigvals_only=eigvals_only,
                subset_by_index=rng, symmetrize_input=False)


def eigvals_banded(a_band: Any, lower: bool = False, overwrite_a_band: bool = False,
                   select: str = "a", select_range: Any = None,
                   check_finite: bool = True) -> Any:
    """Eigenvalues of a Hermitian banded matrix; see :func:`eig_banded`.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.eigvals_banded(np.array([[0.0, 1.0], [1.0, 1.0]]))
    Array([0., 2.], dtype=float64)
    """
    return eig_banded(a_band, lower=lower, eigvals_only=True, select=select,
                      select_range=select_range)


# --- general eigenproblems, Schur, Hessenberg -----------------------------------------

def _homogeneous(w: Any) -> Any:
    return snp.stack([w, snp.ones_like(w)], axis=-2)


def eig(a: Any, b: Any = None, left: bool = False, right: bool = True,
        overwrite_a: bool = False, overwrite_b: bool = False,
        check_finite: bool = True, homogeneous_eigvals: bool = False) -> Any:
    """Eigenvalues and left and/or right eigenvectors of a general square
    matrix (LAPACK geev), or of the pencil ``(a, b)``.

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    b : array_like, shape (..., M, M), optional
        The generalized problem ``a vr = w b vr``, solved by shift and invert
        (eigenvalues of ``(a - sigma b)^{-1} b`` for the best conditioned of
        three shifts; jaxlib ships no QZ/ggev).  An eigenvalue of a singular
        ``b`` comes back as ``inf`` (beta 0); a singular pencil (``det(a -
        lambda b) == 0`` for every lambda) gives NaNs.  Accuracy degrades with
        the conditioning of ``a - sigma b``, unlike the backward-stable QZ.
    left, right : bool
        Whether to return ``vl`` (``vl^H a = w vl^H``, times ``b`` in the
        generalized problem) and ``vr`` (``a vr = w vr``).
    homogeneous_eigvals : bool, default False
        Return ``w`` as ``(..., 2, M)`` pairs ``(alpha, beta)`` with
        ``w = alpha / beta`` (beta 1 without ``b``; with ``b``, scaled so that
        beta is real and non-negative and ``|alpha|^2 + |beta|^2 = 1``).
    overwrite_a, overwrite_b, check_finite
        Ignored.

    Returns
    -------
    w : Array, complex
    vl, vr : Array, complex, unit-norm columns (only if asked)

    Notes
    -----
    The outputs are always complex (SciPy returns real eigenvectors for a real
    matrix whose eigenvalues are all real: a value-dependent dtype).  NaN
    input gives NaNs.  Differentiable for distinct eigenvalues (see
    ``sciax.lax.linalg.eig``).

    Examples
    --------
    >>> from sciax import linalg
    >>> w, v = linalg.eig(np.array([[0.0, -1.0], [1.0, 0.0]]))
    >>> w
    Array([0.+1.j, 0.-1.j], dtype=complex128)
    >>> w = linalg.eigvals(np.diag([2.0, 6.0]), np.diag([1.0, 2.0]))
    >>> np.allclose(np.sort(np.asarray(w).real), [2.0, 3.0])
    True
    """
    del overwrite_a, overwrite_b, check_finite
    if b is not None:
        return _eig_generalized(a, b, bool(left), bool(right), bool(homogeneous_eigvals))
    (a,) = _util.inexact("eig", a)
    _util.matrix("eig", a, square=True)
    out = list(lla.eig(a, compute_left_eigenvectors=bool(left),
                       compute_right_eigenvectors=bool(right)))
    if homogeneous_eigvals:
        out[0] = _homogeneous(out[0])
    return out[0] if len(out) == 1 else tuple(out)


def eigvals(a: Any, b: Any = None, overwrite_a: bool = False,
            check_finite: bool = True, homogeneous_eigvals: bool = False) -> Any:
    """Eigenvalues of a general square matrix (complex, LAPACK's order), or of
    the pencil ``(a, b)`` (see :func:`eig`).

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.eigvals(np.array([[2.0, 0.0], [0.0, 3.0]]))
    Array([2.+0.j, 3.+0.j], dtype=complex128)
    """
    return eig(a, b, left=False, right=False, homogeneous_eigvals=homogeneous_eigvals)


def schur(a: Any, output: str = "real", lwork: Any = None, overwrite_a: bool = False,
          sort: Any = None, check_finite: bool = True) -> tuple[Any, ...]:
    """Schur decomposition ``a = z @ t @ z^H`` (LAPACK gees).

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    output : {'real', 'complex'}, default 'real'
        Quasi-triangular ``t`` with 2x2 blocks for complex pairs (real input),
        or triangular complex ``t``.
    sort : {None, 'lhp', 'rhp', 'iuc', 'ouc'} or callable, optional
        Move the selected eigenvalues to the leading diagonal positions:
        real part < 0 ('lhp'), >= 0 ('rhp'), modulus <= 1 ('iuc'), > 1
        ('ouc').  A callable is called as SciPy calls it, ``sort(x)`` with the
        complex eigenvalues for a complex ``t`` and ``sort(re, im)`` for a real
        one, but once with arrays of all eigenvalues (sciax arrays, traced
        under ``jit``): it must work elementwise (``sciax.numpy`` operations)
        and return booleans of the same shape.  A complex pair of a real ``t``
        is selected if either eigenvalue is.
    lwork, overwrite_a, check_finite
        Ignored.

    Returns
    -------
    t, z : Array
    sdim : Array of int32, shape (...)
        Only with ``sort``: the number of selected eigenvalues (a complex pair
        of a real ``t`` counts 2).

    Notes
    -----
    Differentiable without ``sort`` as ``lax.linalg.schur`` is (derivatives
    through the reordering are not supported or tested).  NaN input gives
    NaNs.  jaxlib's gees takes no
    selection function, so ``sort`` reorders the unsorted form by swapping
    adjacent diagonal blocks with orthogonal transformations (LAPACK's trsen
    method; see ``sciax/linalg/_schur_sort.py``): ``t``, ``z`` may differ
    from SciPy's by the choice of basis within the two eigenvalue groups, and
    ``sdim`` counts the selection made on the unsorted eigenvalues.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[1.0, 2.0], [0.0, 3.0]])
    >>> t, z = linalg.schur(a)
    >>> bool(np.allclose(np.asarray(z @ t @ z.T), a))
    True
    >>> a = np.array([[1.0, 6.0], [0.0, -2.0]])
    >>> t, z, sdim = linalg.schur(a, sort="lhp")
    >>> np.diag(np.asarray(t)).round(6), int(sdim)
    (array([-2.,  1.]), 1)
    >>> t, z, sdim = linalg.schur(a, sort=lambda re, im: re > 0)
    >>> np.diag(np.asarray(t)).round(6), int(sdim)
    (array([ 1., -2.]), 1)
    """
    del lwork, overwrite_a, check_finite
    if output not in ("real", "complex", "r", "c"):
        raise ValueError(f"schur: argument 'output' must be 'real' or 'complex', got "
                         f"{output!r}")
    if sort is not None:
        _schur_sort.selection(sort)  # the error for a bad name, before any work
    (a,) = _util.inexact("schur", a)
    _util.matrix("schur", a, square=True)
    if output in ("complex", "c") and not _util.is_complex(a):
        a = a.astype(snp.result_type(a.dtype, snp.complex64))
    t, z = lla.schur(a)
    if sort is None:
        return t, z
    return _schur_sort.sort_schur(t, z, sort)


def rsf2csf(T: Any, Z: Any, check_finite: bool = True) -> tuple[Any, Any]:
    """Convert a real Schur form to the complex Schur form.

    Parameters
    ----------
    T, Z : array_like, shape (..., N, N)
        Real Schur form and Schur vectors, as from ``schur(a, 'real')``.

    Returns
    -------
    T, Z : Array, complex
        Upper-triangular ``T`` and unitary ``Z`` with the same product.

    Notes
    -----
    SciPy's Givens sweep with its data-dependent test turned into a select,
    so it runs under ``jit`` and ``vmap`` (a loop of N-1 static steps).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[0.0, -2.0], [1.0, 0.0]])
    >>> t, z = linalg.rsf2csf(*linalg.schur(a))
    >>> bool(np.allclose(np.asarray(z @ t @ z.conj().T), a))
    True
    """
    del check_finite
    T, Z = _util.inexact("rsf2csf", T, Z)
    for name, x in (("T", T), ("Z", Z)):
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ValueError(f"rsf2csf: input '{name}' must be square, got shape "
                             f"{x.shape}")
    if T.shape[-1] != Z.shape[-1]:
        raise ValueError(f"rsf2csf: input array shapes must match: Z {Z.shape} vs "
                         f"T {T.shape}")
    cdt = snp.result_type(T.dtype, snp.complex64)
    T, Z = T.astype(cdt), Z.astype(cdt)
    eps = float(snp.finfo(cdt).eps)
    n = T.shape[-1]
    for m in range(n - 1, 0, -1):
        a, bb = T[..., m - 1, m - 1], T[..., m - 1, m]
        c_, d = T[..., m, m - 1], T[..., m, m]
        half = (a - d) / 2
        mu = half + snp.sqrt(half * half + bb * c_)  # eigenvalue - T[m, m]
        r = snp.sqrt(snp.abs(mu) ** 2 + snp.abs(c_) ** 2).astype(cdt)
        split = snp.abs(c_) > eps * (snp.abs(a) + snp.abs(d))
        safe_r = snp.where(split, r, 1)
        cos = snp.where(split, mu / safe_r, 1)
        sin = snp.where(split, c_ / safe_r, 0)
        g = snp.stack([snp.stack([snp.conj(cos), sin], -1),
                       snp.stack([-sin, cos], -1)], -2)  # (..., 2, 2)
        gh = adjoint(g)
        rows = g @ T[..., m - 1:m + 1, m - 1:]
        T = T.at[..., m - 1:m + 1, m - 1:].set(rows)
        cols = T[..., :m + 1, m - 1:m + 1] @ gh
        T = T.at[..., :m + 1, m - 1:m + 1].set(cols)
        Z = Z.at[..., :, m - 1:m + 1].set(Z[..., :, m - 1:m + 1] @ gh)
        T = T.at[..., m, m - 1].set(0)
    return T, Z


def hessenberg(a: Any, calc_q: bool = False, overwrite_a: bool = False,
               check_finite: bool = True) -> Any:
    """Hessenberg form ``a = q @ h @ q^H`` (LAPACK gehrd + orghr).

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    calc_q : bool, default False
        Also return the unitary ``q``.
    overwrite_a, check_finite : bool
        Ignored.

    Returns
    -------
    h : Array, shape (..., M, M)
        Upper Hessenberg, as SciPy's: for ``M > 2`` and complex input its
        subdiagonal is real; for ``M <= 2`` it is ``a`` itself.
    q : Array, shape (..., M, M)
        Only with ``calc_q``; its first row and column are ``e_1`` (the
        identity for ``M <= 2``).

    Notes
    -----
    Differentiable in forward and reverse mode
    (:func:`sciax.lax.linalg.hessenberg_hq`) where ``h`` is unreduced, i.e.
    has no zero subdiagonal entry; at an exactly zero subdiagonal entry the
    tangents are a finite but arbitrary choice.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[2.0, 5, 8, 7], [5, 2, 2, 8], [7, 5, 6, 6], [5, 4, 4, 8]])
    >>> h, q = linalg.hessenberg(a, calc_q=True)
    >>> bool(np.allclose(np.asarray(q @ h @ q.T), a))
    True
    >>> g = sciax.grad(lambda x: linalg.hessenberg(x)[1, 0])(a)
    >>> g.shape
    (4, 4)
    """
    del overwrite_a, check_finite
    (a,) = _util.inexact("hessenberg", a)
    _util.matrix("hessenberg", a, square=True)
    if a.shape[-1] <= 2:
        # already Hessenberg: SciPy returns it as is (gehrd would still make a
        # complex 2 x 2 subdiagonal real)
        return (a, snp.broadcast_to(snp.eye(a.shape[-1], dtype=a.dtype), a.shape)
                ) if calc_q else a
    h, q = lla.hessenberg_hq(a)
    return (h, q) if calc_q else h
