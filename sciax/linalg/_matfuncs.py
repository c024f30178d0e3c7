"""Matrix functions: expm, expm_frechet, cosm, sinm, tanm, coshm, sinhm, tanhm,
sqrtm, logm, fractional_matrix_power, funm, signm, polar.

How each is computed (all work under jit and vmap, with leading batch axes):

* ``expm``: scaling and squaring with Pade approximants (Higham 2005): the
  degree (3, 5, 7, 9 or 13; 3, 5 or 7 in single precision) is picked by
  ``lax.switch`` on the 1-norm and the squarings run in a fixed-length loop of
  ``max_squarings`` steps, each a ``lax.cond``; derivatives come by tracing
  the Pade evaluation.  ``expm_frechet`` uses the 2n x 2n block matrix
  ``[[A, E], [0, A]]``; the trigonometric and hyperbolic functions follow
  SciPy's formulas through ``expm``.
* ``sqrtm``: SciPy's method, the complex Schur form and the triangular
  recurrence for its square root (Björck-Hammarling), column by column in a
  ``fori_loop``; a custom JVP solves ``X dX + dX X = dA`` in the same Schur
  basis.
* ``logm``: inverse scaling and squaring: square roots (``sqrtm``) until
  ``||A^(1/2^k) - I||_1 <= 1/4``, then the [8/8] Pade approximant of
  ``log(I + Y)`` as an 8-point Gauss-Legendre sum, times ``2^k``;
  differentiable through ``sqrtm``'s rule and the solves.
* ``funm``, ``signm``: the eigendecomposition ``A = V diag(w) V^-1``
  (diagonalisable input; differentiable through ``eig``).
* ``polar``: the SVD.
"""

from __future__ import annotations

import functools
import operator
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.linalg import _util
from sciax.linalg._solvers import triangular_sylvester

__all__ = ["expm", "expm_frechet", "cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm",
           "sqrtm", "logm", "fractional_matrix_power", "funm", "signm", "polar"]


def _mH(x: Any) -> Any:
    x = snp.swapaxes(x, -1, -2)
    return snp.conj(x) if _util.is_complex(x) else x


def _complex(x: Any) -> Any:
    return x if _util.is_complex(x) else x.astype(snp.result_type(x.dtype, snp.complex64))


def _norm1(x: Any) -> Any:
    return snp.max(snp.sum(snp.abs(x), axis=-2), axis=-1)


def _square_input(name: str, a: Any) -> Any:
    (a,) = _util.inexact(name, a)
    return _util.matrix(name, a, square=True, what="A")


def _per_matrix(f: Callable[[Any], Any], a: Any) -> Any:
    """Apply a function of one matrix to each matrix of a batch (via vmap, so
    data-dependent branches become selects only when there is a batch)."""
    if a.ndim == 2:
        return f(a)
    n = a.shape[-1]
    out = sciax.vmap(f)(a.reshape((-1, n, n)))
    return out.reshape(a.shape[:-2] + out.shape[-2:])


# --- expm ------------------------------------------------------------------------

# Pade coefficients b_0..b_m of exp (Higham 2005, table 2.3) and the largest
# 1-norms for which degree m is accurate to unit roundoff (double; single).
_PADE = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160.,
        110880., 3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600.,
         1187353796428800., 129060195264000., 10559470521600., 670442572800.,
         33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.),
}
_THETA64 = ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1),
            (7, 9.504178996162932e-1), (9, 2.097847961257068e0),
            (13, 5.371920351148152e0))
_THETA32 = ((3, 4.258730016922831e-1), (5, 1.880152677804762e0),
            (7, 3.925724783138660e0))


def _pade_uv(a: Any, m: int) -> tuple[Any, Any]:
    b = _PADE[m]
    ident = snp.eye(a.shape[-1], dtype=a.dtype)
    a2 = snp.matmul(a, a)
    if m == 13:  # Higham's evaluation: 6 products instead of 8
        a4 = snp.matmul(a2, a2)
        a6 = snp.matmul(a4, a2)
        u = snp.matmul(a, snp.matmul(a6, b[13] * a6 + b[11] * a4 + b[9] * a2)
                       + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * ident)
        v = (snp.matmul(a6, b[12] * a6 + b[10] * a4 + b[8] * a2)
             + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * ident)
        return u, v
    powers = [ident, a2]
    while len(powers) < (m + 1) // 2:
        powers.append(snp.matmul(powers[-1], a2))
    u = snp.matmul(a, sum(b[2 * j + 1] * p for j, p in enumerate(powers)))
    v = sum(b[2 * j] * p for j, p in enumerate(powers))
    return u, v


def _expm_one(a: Any, max_squarings: int) -> Any:
    single = _util.real_dtype(a) == np.float32
    thetas = _THETA32 if single else _THETA64
    # The degree and the number of squarings are pieces of a step function of
    # A; their derivative is zero, so the norm is kept out of the trace.
    norm = lax.stop_gradient(_norm1(a))
    index = sum((norm > th).astype(np.int32) for _, th in thetas[:-1])
    m_top, th_top = thetas[-1]
    s = snp.maximum(0.0, snp.ceil(snp.log2(norm / th_top)))
    s = snp.where(index == len(thetas) - 1, s, 0.0)
    s = snp.where(snp.isfinite(s), s, max_squarings + 1.0).astype(np.int32)
    scaled = a / (2.0 ** s).astype(a.dtype)

    # The switch picks the Pade numerator and denominator; the one solve comes
    # after it.  (Solving inside each branch made reverse mode carry an LU
    # factorisation per branch through the switch: 2.8x JAX's time per
    # jit(grad(expm)) call at n = 20.)
    u, v = lax.switch(index, [functools.partial(_pade_uv, m=m) for m, _ in thetas],
                      scaled)
    r = snp.linalg.solve(v - u, v + u)

    def square(i, r):
        return lax.cond(i < s, lambda r: snp.matmul(r, r), lambda r: r, r)
    r = lax.fori_loop(0, max_squarings, square, r)
    return snp.where(s > max_squarings, snp.nan, r)


def expm(A: Any, *, max_squarings: int = 16) -> Any:
    """Matrix exponential.

    Parameters
    ----------
    A : array_like, shape (..., n, n)
        Leading axes are batch axes.
    max_squarings : int, default 16 (keyword only, as ``jax.scipy.linalg``)
        Static bound on the number of squarings.  Matrices whose 1-norm needs
        more (``||A||_1 > 5.37 * 2^max_squarings`` in double precision) give
        NaNs; raise it for such input.

    Returns
    -------
    Array, shape (..., n, n)
        ``exp(A)``, of ``A``'s dtype (float64 for integer input).

    Notes
    -----
    Scaling and squaring with the Pade degree chosen from the 1-norm (Higham
    2005); SciPy additionally uses Al-Mohy and Higham's (2009) norm
    estimates, which can take fewer squarings on very non-normal matrices.
    The degree and the squarings are chosen with ``lax.switch``/``lax.cond``,
    so ``expm`` jits; under vmap all branches are computed.  Derivatives
    (forward and reverse) come by differentiating the Pade evaluation.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.expm(np.array([[0.0, 1.0], [0.0, 0.0]]))
    Array([[1., 1.],
           [0., 1.]], dtype=float64)
    """
    A = _square_input("expm", A)
    max_squarings = operator.index(max_squarings)
    if A.shape[-1] == 0:
        return A
    return _per_matrix(lambda a: _expm_one(a, max_squarings), A)


def expm_frechet(A: Any, E: Any, method: str | None = None, compute_expm: bool = True,
                 check_finite: bool = True) -> Any:
    """Frechet derivative of the matrix exponential at ``A`` in direction ``E``.

    Parameters
    ----------
    A, E : array_like, shape (..., n, n)
    method : {None, "SPS", "blockEnlarge"}
        Accepted for SciPy compatibility; both use the block method here.
    compute_expm : bool, default True
        Also return ``expm(A)``.
    check_finite : bool
        Ignored (a traced value cannot be checked).

    Returns
    -------
    expm_A : Array
        Only with ``compute_expm``.
    expm_frechet_AE : Array
        ``L(A, E) = d/dt expm(A + t E)`` at ``t = 0``.

    Notes
    -----
    ``expm([[A, E], [0, A]]) = [[expm(A), L(A, E)], [0, expm(A)]]`` (SciPy's
    "blockEnlarge"; SciPy's default is Al-Mohy and Higham's scaling-squaring
    recurrence, which agrees to rounding).  The 2n x 2n exponential costs
    about 8 times one of size n.  jit, vmap and derivatives work as for
    :func:`expm`.

    Examples
    --------
    >>> import sciax.linalg
    >>> a = np.diag([1.0, 2.0])
    >>> _, l = sciax.linalg.expm_frechet(a, np.eye(2))
    >>> np.allclose(l, np.diag(np.exp([1.0, 2.0])))
    True
    """
    A, E = _util.inexact("expm_frechet", A, E)
    _util.matrix("expm_frechet", A, square=True, what="A")
    if E.shape != A.shape:
        raise ValueError(f"expm_frechet: expected A and E to be the same shape, got "
                         f"{A.shape} and {E.shape}")
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError(f"expm_frechet: unknown implementation {method!r}")
    n = A.shape[-1]
    zero = snp.zeros_like(A)
    big = snp.concatenate([snp.concatenate([A, E], axis=-1),
                           snp.concatenate([zero, A], axis=-1)], axis=-2)
    eb = expm(big)
    l = eb[..., :n, n:]
    return (eb[..., :n, :n], l) if compute_expm else l


def cosm(A: Any) -> Any:
    """Matrix cosine, ``(expm(iA) + expm(-iA)) / 2`` (the real part of
    ``expm(iA)`` for real ``A``), as SciPy.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.cosm(np.zeros((2, 2)))
    Array([[1., 0.],
           [0., 1.]], dtype=float64)
    """
    A = _square_input("cosm", A)
    if _util.is_complex(A):
        return (expm(1j * A) + expm(-1j * A)) / 2
    return snp.real(expm(1j * A))


def sinm(A: Any) -> Any:
    """Matrix sine, ``(expm(iA) - expm(-iA)) / 2i`` (the imaginary part of
    ``expm(iA)`` for real ``A``), as SciPy.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.sinm(np.zeros((2, 2)))
    Array([[0., 0.],
           [0., 0.]], dtype=float64)
    """
    A = _square_input("sinm", A)
    if _util.is_complex(A):
        return -0.5j * (expm(1j * A) - expm(-1j * A))
    return snp.imag(expm(1j * A))


def tanm(A: Any) -> Any:
    """Matrix tangent, ``cosm(A)^-1 sinm(A)``.

    Examples
    --------
    >>> import sciax.linalg
    >>> x = sciax.linalg.tanm(np.diag([0.5, 1.0]))
    >>> np.allclose(np.diag(x), np.tan([0.5, 1.0]))
    True
    """
    A = _square_input("tanm", A)
    return snp.linalg.solve(cosm(A), sinm(A))


def coshm(A: Any) -> Any:
    """Matrix hyperbolic cosine, ``(expm(A) + expm(-A)) / 2``.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.coshm(np.zeros((1, 1)))
    Array([[1.]], dtype=float64)
    """
    A = _square_input("coshm", A)
    return (expm(A) + expm(-A)) / 2


def sinhm(A: Any) -> Any:
    """Matrix hyperbolic sine, ``(expm(A) - expm(-A)) / 2``.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.sinhm(np.zeros((1, 1)))
    Array([[0.]], dtype=float64)
    """
    A = _square_input("sinhm", A)
    return (expm(A) - expm(-A)) / 2


def tanhm(A: Any) -> Any:
    """Matrix hyperbolic tangent, ``coshm(A)^-1 sinhm(A)``.

    Examples
    --------
    >>> import sciax.linalg
    >>> x = sciax.linalg.tanhm(np.diag([0.5, 1.0]))
    >>> np.allclose(np.diag(x), np.tanh([0.5, 1.0]))
    True
    """
    A = _square_input("tanhm", A)
    return snp.linalg.solve(coshm(A), sinhm(A))


# --- sqrtm -------------------------------------------------------------------------

def _triangular_sqrt(t: Any) -> Any:
    """Principal square root of upper triangular ``t``: column ``j`` above the
    diagonal solves ``(R[:j, :j] + r_j I) x = t[:j, j]`` (Björck-Hammarling)."""
    n = t.shape[-1]
    r_diag = snp.sqrt(snp.diagonal(t, 0, -2, -1))
    idx = snp.arange(n)
    eye = snp.eye(n, dtype=t.dtype)

    def column(j, r):
        above = (idx < j)
        rj = snp.sum(snp.where(idx == j, r_diag, 0), axis=-1)
        mask = (above[:, None] & above[None, :]).astype(t.dtype)
        m = r * mask + snp.where(above, rj, 1.0).astype(t.dtype) * eye
        rhs = snp.where(above[:, None], snp.matmul(t, (idx == j).astype(t.dtype)[:, None]),
                        0).astype(t.dtype)
        x = lax.linalg.triangular_solve(m, rhs, left_side=True, lower=False)
        return r + x * (idx == j).astype(t.dtype)
    return lax.fori_loop(0, n, column, r_diag[..., :, None] * eye)


def _sqrtm_parts(a: Any) -> tuple[Any, Any, Any]:
    t, z = lax.linalg.schur(_complex(a))
    r = _triangular_sqrt(t)
    x = snp.matmul(z, snp.matmul(r, _mH(z)))
    if not _util.is_complex(a):
        # The principal root of a real matrix is real unless it has a negative
        # eigenvalue, where SciPy returns a complex root: a real dtype cannot
        # hold it, so NaN (as snp.sqrt(-1.0)); pass complex input for it.
        w = snp.diagonal(t, 0, -2, -1)
        tol = 100 * float(snp.finfo(a.dtype).eps) * snp.max(snp.abs(w))
        bad = snp.any((snp.real(w) < 0) & (snp.abs(snp.imag(w)) <= tol))
        x = snp.where(bad, snp.nan, snp.real(x))
    return x, r, z


@sciax.custom_jvp
def _sqrtm(a: Any) -> Any:
    return _sqrtm_parts(a)[0]


@_sqrtm.defjvp
def _sqrtm_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    x, r, z = _sqrtm_parts(a)
    # X dX + dX X = dA  <=>  R Y + Y R = Z^H dA Z with dX = Z Y Z^H
    y = triangular_sylvester(r, r, snp.matmul(_mH(z), snp.matmul(_complex(da), z)))
    dx = snp.matmul(z, snp.matmul(y, _mH(z)))
    return x, (dx if _util.is_complex(a) else snp.real(dx))


def _with_errest(name: str, x: Any, a: Any, disp: Any, residual: Any) -> Any:
    if disp is True or disp is None:
        return x
    if disp is False:
        return x, residual
    raise TypeError(f"{name}: disp must be True or False, got {disp!r}")


def sqrtm(A: Any, disp: bool = True, blocksize: int = 64) -> Any:
    """Principal matrix square root.

    Parameters
    ----------
    A : array_like, shape (..., n, n)
    disp : bool, default True
        If False, also return the error estimate
        ``||X @ X - A||_F / ||A||_F`` (SciPy's; the argument is deprecated there).
    blocksize : int
        Accepted for SciPy compatibility (no blocking).

    Returns
    -------
    sqrtm : Array
        ``X`` with ``X @ X = A`` and eigenvalues in the open right half plane.
        Real input gives a real result, NaN where SciPy would return a
        complex root (a negative real eigenvalue); pass complex input to get
        it.

    Notes
    -----
    SciPy's method: complex Schur form ``A = Z T Z^H`` and the triangular
    recurrence for ``sqrt(T)`` (Björck and Hammarling 1983), here column by
    column in a ``fori_loop`` of triangular solves, O(n^3).  Singular input
    with a repeated zero eigenvalue divides by zero (infs/NaNs).  Works under
    jit and vmap.  Derivatives (forward and reverse) through a custom JVP:
    ``dX`` solves the Sylvester equation ``X dX + dX X = dA`` in the same
    Schur basis.

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.sqrtm(np.array([[4.0, 1.0], [0.0, 9.0]]))
    Array([[2. , 0.2],
           [0. , 3. ]], dtype=float64)
    """
    A = _square_input("sqrtm", A)
    del blocksize
    if A.shape[-1] == 0:
        return _with_errest("sqrtm", A, A, disp, snp.zeros(A.shape[:-2]))
    x = _per_matrix(_sqrtm, A)
    if disp is False:
        res = snp.linalg.norm(snp.matmul(x, x) - A, axis=(-2, -1))
        res = res / snp.linalg.norm(A, axis=(-2, -1))
        return x, res
    return _with_errest("sqrtm", x, A, disp, None)


# --- logm ------------------------------------------------------------------------

_GAUSS_X, _GAUSS_W = np.polynomial.legendre.leggauss(8)
_GAUSS_X, _GAUSS_W = (_GAUSS_X + 1) / 2, _GAUSS_W / 2  # on [0, 1]


def _logm_one(a: Any, max_roots: int) -> Any:
    n = a.shape[-1]
    eye = snp.eye(n, dtype=a.dtype)

    def root(i, carry):
        x, k = carry
        far = lax.stop_gradient(_norm1(x - eye)) > 0.25
        return lax.cond(far, lambda c: (_sqrtm(c[0]), c[1] + 1), lambda c: c, (x, k))
    x, k = lax.fori_loop(0, max_roots, root, (a, snp.zeros((), np.int32)))
    y = x - eye
    # [8/8] Pade approximant of log(I + Y) = int_0^1 Y (I + tY)^-1 dt
    terms = [w * snp.linalg.solve(eye + float(t) * y, y) for t, w in zip(_GAUSS_X, _GAUSS_W)]
    out = sum(terms) * (2.0 ** k).astype(a.dtype)
    unconverged = lax.stop_gradient(_norm1(y)) > 0.25
    return snp.where(unconverged, snp.nan, out)


def logm(A: Any, disp: bool = True) -> Any:
    """Principal matrix logarithm.

    Parameters
    ----------
    A : array_like, shape (..., n, n)
    disp : bool, default True
        If False, also return SciPy's error estimate
        ``||expm(L) - A||_1 / ||A||_1``.

    Returns
    -------
    logm : Array
        ``L`` with ``expm(L) = A`` and eigenvalues' imaginary parts in
        ``(-pi, pi)``.  Real input gives a real result, NaN where SciPy returns
        a complex one (a negative real eigenvalue); pass complex input for it.

    Notes
    -----
    Inverse scaling and squaring (Higham 2008, ch. 11): ``k`` square roots by
    :func:`sqrtm` until ``||A^(1/2^k) - I||_1 <= 1/4`` (at most 40, each a
    ``lax.cond`` so the function jits), then ``log(I + Y)`` by its [8/8] Pade
    approximant, written as the 8-point Gauss-Legendre rule for
    ``int_0^1 Y (I + tY)^-1 dt``, times ``2^k``.  SciPy uses the Schur-based
    variant with degree selection (Al-Mohy and Higham 2012); results agree
    to about ``1e-12`` relative on well-conditioned input.  Singular input
    gives NaNs (SciPy returns ``-inf`` entries).  jit and vmap work;
    derivatives (forward and reverse) come through ``sqrtm``'s rule and the
    solves.

    Examples
    --------
    >>> import sciax.linalg
    >>> l = sciax.linalg.logm(np.diag([1.0, np.e]))
    >>> np.allclose(l, np.diag([0.0, 1.0]))
    True
    """
    A = _square_input("logm", A)
    if A.shape[-1] == 0:
        return A if disp is not False else (A, snp.zeros(A.shape[:-2]))
    out = _per_matrix(lambda a: _logm_one(a, 40), A)
    if disp is False:
        err = _norm1(expm(out) - A) / _norm1(A)
        return out, err
    return _with_errest("logm", out, A, disp, None)


def fractional_matrix_power(A: Any, t: Any) -> Any:
    """Fractional power ``A^t`` of a matrix.

    Parameters
    ----------
    A : array_like, shape (..., n, n)
    t : float
        The exponent.  A Python integer uses repeated squaring (negative:
        of the inverse), as SciPy.

    Returns
    -------
    Array
        Real for real input, NaN where SciPy returns a complex power (a
        negative real eigenvalue and non-integer ``t``).

    Notes
    -----
    For non-integer ``t``: ``expm(t * logm(A))``.  SciPy uses the Schur-Pade
    algorithm of Higham and Lin (2011); the results agree to about ``1e-12``
    relative on well-conditioned input, and derivatives follow from
    :func:`expm` and :func:`logm` (``t`` may be traced).

    Examples
    --------
    >>> import sciax.linalg
    >>> x = sciax.linalg.fractional_matrix_power(np.diag([4.0, 9.0]), 0.5)
    >>> np.allclose(x, np.diag([2.0, 3.0]))
    True
    """
    A = _square_input("fractional_matrix_power", A)
    if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
        return snp.linalg.matrix_power(A, int(t))
    t = snp.asarray(t)
    if t.ndim:
        raise ValueError(f"fractional_matrix_power: t must be a scalar, got shape "
                         f"{t.shape}")
    return expm(t.astype(A.dtype) * logm(A))


# --- funm, signm, polar -------------------------------------------------------------

def _eig_function(a: Any, f: Callable[[Any], Any]) -> Any:
    w, v = snp.linalg.eig(a)
    fw = snp.asarray(f(w))
    x = snp.matmul(v * fw.astype(v.dtype)[..., None, :], snp.linalg.inv(v))
    return x if _util.is_complex(a) else snp.real(x)


def funm(A: Any, func: Callable[[Any], Any], disp: bool = True) -> Any:
    """Matrix function of a diagonalisable matrix.

    Parameters
    ----------
    A : array_like, shape (..., n, n)
    func : callable
        Elementwise function on (complex) arrays written with sciax.numpy,
        e.g. ``snp.exp``.
    disp : bool, default True
        If False, also return an error estimate, here the relative
        commutator ``||F A - A F||_1 / (||F||_1 ||A||_1)`` (zero in exact
        arithmetic; SciPy's estimate comes from its Parlett recurrence).

    Returns
    -------
    funm : Array
        ``V diag(func(w)) V^-1`` with ``A = V diag(w) V^-1``; real for real
        input (the real part: right for functions with real Taylor
        coefficients, as SciPy's real result).

    Notes
    -----
    SciPy evaluates ``func`` on the Schur form with Parlett's recurrence,
    which also copes with non-diagonalisable matrices when eigenvalues are
    distinct on the diagonal; here the eigendecomposition (LAPACK geev) is
    used, accurate when the eigenvector matrix is well conditioned; defective
    input gives garbage or infs.  jit and vmap work; derivatives come through
    ``eig``'s rule (distinct eigenvalues).

    Examples
    --------
    >>> import sciax.linalg
    >>> x = sciax.linalg.funm(np.array([[1.0, 2.0], [3.0, 4.0]]), snp.exp)
    >>> np.allclose(x, sciax.linalg.expm(np.array([[1.0, 2.0], [3.0, 4.0]])))
    True
    """
    A = _square_input("funm", A)
    if not callable(func):
        raise TypeError(f"funm: func must be callable, got {type(func).__name__}")
    x = _eig_function(A, func)
    if disp is False:
        err = _norm1(snp.matmul(x, A) - snp.matmul(A, x)) / (_norm1(x) * _norm1(A))
        return x, err
    return _with_errest("funm", x, A, disp, None)


def signm(A: Any, disp: bool = True) -> Any:
    """Matrix sign function.

    Parameters
    ----------
    A : array_like, shape (..., n, n)
        No eigenvalue on the imaginary axis.
    disp : bool, default True
        If False, also return the error estimate ``||S @ S - I||_1``.

    Returns
    -------
    signm : Array
        ``V diag(sign(Re w)) V^-1``: ``S @ S = I``.

    Notes
    -----
    Through the eigendecomposition as :func:`funm` (SciPy refines a Schur
    based value with Newton steps); diagonalisable input.  An eigenvalue on
    the imaginary axis gets sign 0 (SciPy's result is undefined there).

    Examples
    --------
    >>> import sciax.linalg
    >>> sciax.linalg.signm(np.diag([-2.0, 3.0]))
    Array([[-1.,  0.],
           [ 0.,  1.]], dtype=float64)
    """
    A = _square_input("signm", A)
    x = _eig_function(A, lambda w: snp.sign(snp.real(w)))
    if disp is False:
        eye = snp.eye(A.shape[-1], dtype=x.dtype)
        return x, _norm1(snp.matmul(x, x) - eye)
    return _with_errest("signm", x, A, disp, None)


def polar(a: Any, side: str = "right") -> tuple[Any, Any]:
    """Polar decomposition ``a = u p`` (right) or ``a = p u`` (left).

    Parameters
    ----------
    a : array_like, shape (..., m, n)
    side : {"right", "left"}

    Returns
    -------
    u : Array, shape (..., m, n)
        Orthonormal columns (``m >= n``) or rows (``m < n``).
    p : Array
        Hermitian positive semidefinite, (..., n, n) for "right" and
        (..., m, m) for "left".

    Notes
    -----
    From the thin SVD ``a = W S V^H`` as SciPy: ``u = W V^H`` and ``p = V S
    V^H`` (or ``W S W^H``).  jit and vmap work; derivatives come through
    ``svd``'s rule (distinct nonzero singular values for ``u``).

    Examples
    --------
    >>> import sciax.linalg
    >>> u, p = sciax.linalg.polar(np.array([[2.0, 0.0], [0.0, -3.0]]))
    >>> u
    Array([[ 1.,  0.],
           [ 0., -1.]], dtype=float64)
    """
    if side not in ("right", "left"):
        raise ValueError(f"polar: side must be either 'right' or 'left', got {side!r}")
    (a,) = _util.inexact("polar", a)
    _util.matrix("polar", a, what="a")
    w, s, vh = snp.linalg.svd(a, full_matrices=False)
    u = snp.matmul(w, vh)
    if side == "right":
        p = snp.matmul(_mH(vh) * s.astype(a.dtype)[..., None, :], vh)
    else:
        p = snp.matmul(w * s.astype(a.dtype)[..., None, :], _mH(w))
    return u, p
