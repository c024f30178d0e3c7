"""
Linear algebra (:mod:`sciax.linalg`)
====================================

SciPy's ``scipy.linalg`` with SciPy's names, signatures and result
conventions, built on the primitives of :mod:`sciax.lax.linalg`.  Every
function takes stacks of matrices ``(..., M, N)`` (leading axes are batch
axes) and works eagerly, under ``sciax.jit``, ``sciax.vmap`` and ``sciax.grad``.
Where a traced value cannot raise (a singular matrix, a matrix that is not
positive definite, NaN input) the result holds infs/NaNs instead of SciPy's
``LinAlgError``; shape errors raise ``ValueError`` as in SciPy.

Basics
------
   solve - Solve a linear system (general, symmetric, Hermitian, positive
       definite, diagonal, triangular, banded or tridiagonal)
   solve_triangular - Solve a triangular system
   solve_banded - Solve a banded system
   solveh_banded - Solve a Hermitian positive-definite banded system
   inv - Inverse of a square matrix
   det - Determinant of a square matrix
   slogdet - Sign and log of the absolute determinant (sciax extra)
   norm - Matrix or vector norm
   lstsq - Least-squares solution of a linear system
   pinv - Moore-Penrose pseudo-inverse
   pinvh - Pseudo-inverse of a Hermitian matrix
   matrix_rank - Rank by singular values (also in sciax.numpy.linalg)

Eigenvalue problems
-------------------
   eig - Eigenvalues and left/right eigenvectors of a general matrix
   eigvals - Eigenvalues of a general matrix
   eigh - Eigenvalues and eigenvectors of a Hermitian matrix
   eigvalsh - Eigenvalues of a Hermitian matrix
   eig_banded - Eigenvalues and eigenvectors of a Hermitian banded matrix
   eigvals_banded - Eigenvalues of a Hermitian banded matrix
   eigh_tridiagonal - Eigenvalues and eigenvectors of a real symmetric
       tridiagonal matrix
   eigvalsh_tridiagonal - Eigenvalues of a real symmetric tridiagonal matrix

Decompositions
--------------
   lu - LU decomposition
   lu_factor - LU decomposition in LAPACK's packed form
   lu_solve - Solve a system with the factors from lu_factor
   svd - Singular value decomposition
   svdvals - Singular values
   orth - Orthonormal basis of the range
   null_space - Orthonormal basis of the null space
   cholesky - Cholesky factor
   cho_factor - Cholesky factor for cho_solve
   cho_solve - Solve a system with the factor from cho_factor
   cholesky_banded - Cholesky factor of a banded matrix
   cho_solve_banded - Solve with the factor from cholesky_banded
   qr - QR decomposition
   rq - RQ decomposition
   schur - Schur decomposition
   rsf2csf - Real Schur form to complex Schur form
   hessenberg - Hessenberg form
   subspace_angles - Angles between two subspaces
   cossin - Cosine-sine decomposition of a unitary matrix
   qr_multiply - Q @ c or c @ Q for the Q of a QR decomposition
   qr_update - QR of A + u v^H from the QR of A
   qr_insert - QR of A with rows or columns inserted
   qr_delete - QR of A with rows or columns deleted
   cdf2rdf - Complex diagonal form to real block-diagonal form

Structured systems and products
-------------------------------
   solve_circulant - Solve a circulant system by FFT
   solve_toeplitz - Solve a Toeplitz system
   matmul_toeplitz - Toeplitz matrix times a matrix, by FFT

Matrix properties and utilities
-------------------------------
   bandwidth - Lower and upper bandwidth
   issymmetric - Whether a matrix is symmetric
   ishermitian - Whether a matrix is Hermitian
   diagsvd - The S matrix of an SVD from the singular values
   orthogonal_procrustes - Orthogonal Procrustes problem
   expm_cond - Relative condition number of expm
   matrix_balance - Balance a matrix for eigenvalue computations
   clarkson_woodruff_transform - Clarkson-Woodruff (CountSketch) sketch
"""

from sciax.linalg._basic import (
    LinAlgError as LinAlgError, lstsq as lstsq, matrix_rank as matrix_rank,
    norm as norm, null_space as null_space, orth as orth, pinv as pinv,
    pinvh as pinvh, subspace_angles as subspace_angles)
from sciax.linalg._decomp import (
    cholesky as cholesky, eig as eig, eig_banded as eig_banded,
    eigh as eigh, eigh_tridiagonal as eigh_tridiagonal, eigvals as eigvals,
    eigvals_banded as eigvals_banded, eigvalsh as eigvalsh,
    eigvalsh_tridiagonal as eigvalsh_tridiagonal, hessenberg as hessenberg, lu as lu,
    qr as qr, rq as rq, rsf2csf as rsf2csf, schur as schur, svd as svd,
    svdvals as svdvals)
from sciax.linalg._decomp_gen import cossin as cossin
from sciax.linalg._solve import (
    cho_factor as cho_factor, cho_solve as cho_solve,
    cho_solve_banded as cho_solve_banded, cholesky_banded as cholesky_banded,
    det as det, inv as inv, lu_factor as lu_factor, lu_solve as lu_solve,
    slogdet as slogdet, solve as solve, solve_banded as solve_banded,
    solve_triangular as solve_triangular, solveh_banded as solveh_banded)
from sciax.linalg._special_matrices import *  # noqa: F401,F403  block_diag, toeplitz, ...
from sciax.linalg._solvers import *  # noqa: F401,F403  solve_sylvester, solve_*_are, ...
from sciax.linalg._matfuncs import *  # noqa: F401,F403  expm, logm, sqrtm, funm, polar, ...
from sciax.linalg._structure import (bandwidth as bandwidth, ishermitian as ishermitian,
                                     issymmetric as issymmetric)
from sciax.linalg._decomp_helpers import (cdf2rdf as cdf2rdf, diagsvd as diagsvd,
                                          qr_multiply as qr_multiply)
from sciax.linalg._procrustes import orthogonal_procrustes as orthogonal_procrustes
from sciax.linalg._expm_cond import expm_cond as expm_cond
from sciax.linalg._sketches import (
    clarkson_woodruff_transform as clarkson_woodruff_transform)
from sciax.linalg._toeplitz import *  # noqa: F401,F403  solve_toeplitz, ...
from sciax.linalg._balance import matrix_balance as matrix_balance
from sciax.linalg._qr_update import *  # noqa: F401,F403  qr_update, qr_insert, qr_delete

# --- eager calls as one compiled program (issue 13) ----------------------------------
# A sciax.linalg function is tens of operations (a factorisation, loops,
# corrections); eagerly each would dispatch on its own.  As sciax.numpy does,
# every public function runs an eager call as one cached program per signature
# and is traced inline under a transformation.  The wrapper is reached through
# the public sciax.experimental.eager_program: this package uses only the
# public API.  Left direct: functions that answer on the host for concrete
# input (bandwidth, issymmetric, ishermitian), that raise on values they can
# only see eagerly (cdf2rdf, solve_circulant, qr_insert), whose output shape
# depends on values (null_space, orth), and the sketch, whose default draws
# fresh NumPy randomness on every call (a program would freeze it).
import types as _types  # noqa: E402

from sciax.experimental import eager_program as _eager_program  # noqa: E402

_DIRECT = frozenset({"bandwidth", "issymmetric", "ishermitian", "cdf2rdf",
                     "solve_circulant", "qr_insert", "null_space", "orth",
                     "clarkson_woodruff_transform"})
for _name, _value in list(globals().items()):
    if (not _name.startswith("_") and _name not in _DIRECT
            and isinstance(_value, _types.FunctionType)
            and _value.__module__.startswith("sciax.linalg.")):
        globals()[_name] = _eager_program(_value)
del _name, _value
