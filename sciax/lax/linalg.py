"""sciax.lax.linalg: linear-algebra primitives (LAPACK kernels on CPU).

Each takes a batch of matrices ``(..., m, n)`` and has JVP, transpose (where
linear) and batching rules; ``sciax.linalg`` builds SciPy's API on them.
"""

# --- triangular and LU factorizations, solves -------------------------------------
from sciax._src.lax.linalg.factorizations import cholesky as cholesky
from sciax._src.lax.linalg.factorizations import cholesky_p as cholesky_p
from sciax._src.lax.linalg.factorizations import lu as lu
from sciax._src.lax.linalg.factorizations import lu_p as lu_p
from sciax._src.lax.linalg.factorizations import (
    lu_pivots_to_permutation as lu_pivots_to_permutation)
from sciax._src.lax.linalg.factorizations import (
    lu_pivots_to_permutation_p as lu_pivots_to_permutation_p)
from sciax._src.lax.linalg.factorizations import triangular_solve as triangular_solve
from sciax._src.lax.linalg.factorizations import (
    triangular_solve_p as triangular_solve_p)
from sciax._src.lax.linalg.factorizations import tridiagonal_solve as tridiagonal_solve
from sciax._src.lax.linalg.factorizations import (
    tridiagonal_solve_p as tridiagonal_solve_p)

# --- QR ---------------------------------------------------------------------------
from sciax._src.lax.linalg.factorizations import geqrf as geqrf
from sciax._src.lax.linalg.factorizations import geqrf_p as geqrf_p
from sciax._src.lax.linalg.factorizations import (
    householder_product as householder_product)
from sciax._src.lax.linalg.factorizations import (
    householder_product_p as householder_product_p)
from sciax._src.lax.linalg.factorizations import qr as qr
from sciax._src.lax.linalg.factorizations import qr_p as qr_p
from sciax._src.lax.linalg.pivoted_qr import geqp3 as geqp3
from sciax._src.lax.linalg.pivoted_qr import geqp3_p as geqp3_p

# --- eigenvalues, singular values, Schur form -------------------------------------
from sciax._src.lax.linalg.spectral import eig as eig
from sciax._src.lax.linalg.spectral import eig_p as eig_p
from sciax._src.lax.linalg.spectral import eigh as eigh
from sciax._src.lax.linalg.spectral import eigh_p as eigh_p
from sciax._src.lax.linalg.spectral import schur as schur
from sciax._src.lax.linalg.spectral import schur_p as schur_p
from sciax._src.lax.linalg.spectral import svd as svd
from sciax._src.lax.linalg.spectral import svd_p as svd_p

# --- Hessenberg reduction ---------------------------------------------------------
from sciax._src.lax.linalg.hessenberg_reduction import hessenberg as hessenberg
from sciax._src.lax.linalg.hessenberg_reduction import hessenberg_hq as hessenberg_hq
from sciax._src.lax.linalg.hessenberg_reduction import (
    hessenberg_hq_p as hessenberg_hq_p)
from sciax._src.lax.linalg.hessenberg_reduction import hessenberg_p as hessenberg_p
from sciax._src.lax.linalg.hessenberg_reduction import hessenberg_q as hessenberg_q
