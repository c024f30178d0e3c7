"""sciax.lax.linalg: linear-algebra primitives (LAPACK kernels on CPU).

Each takes a batch of matrices ``(..., m, n)`` and has JVP, transpose (where
linear) and batching rules; ``sciax.linalg`` builds SciPy's API on them.
"""

from sciax._src.lax.linalg import (
    cholesky as cholesky, cholesky_p as cholesky_p, geqrf as geqrf, geqrf_p as geqrf_p,
    householder_product as householder_product,
    householder_product_p as householder_product_p, lu as lu, lu_p as lu_p,
    lu_pivots_to_permutation as lu_pivots_to_permutation,
    lu_pivots_to_permutation_p as lu_pivots_to_permutation_p, qr as qr, qr_p as qr_p,
    triangular_solve as triangular_solve, triangular_solve_p as triangular_solve_p,
    tridiagonal_solve as tridiagonal_solve, tridiagonal_solve_p as tridiagonal_solve_p)
from sciax._src.lax.linalg_eig import *  # noqa: F401,F403  eigh, svd, eig, schur, ...
from sciax._src.lax.linalg_hessenberg import *  # noqa: F401,F403  hessenberg(_q, _hq)
from sciax._src.lax.linalg_geqp3 import geqp3 as geqp3, geqp3_p as geqp3_p
