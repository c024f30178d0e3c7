"""Linear-algebra primitives (LAPACK kernels on CPU), one module per theme:

* ``factorizations``: cholesky, triangular_solve, lu (and
  lu_pivots_to_permutation), geqrf, householder_product, qr,
  tridiagonal_solve, plus the helpers the other modules share (LAPACK custom
  calls, batched matrix utilities);
* ``spectral``: eigh, svd, eig, schur;
* ``hessenberg_reduction``: hessenberg, hessenberg_q, hessenberg_hq;
* ``pivoted_qr``: geqp3.

The public index is :mod:`sciax.lax.linalg`; this package re-exports the same
names for the code in ``sciax._src`` that reaches them as ``linalg.<name>``.
"""

from sciax._src.lax.linalg.factorizations import (
    cholesky as cholesky,
    cholesky_p as cholesky_p,
    geqrf as geqrf,
    geqrf_p as geqrf_p,
    householder_product as householder_product,
    householder_product_p as householder_product_p,
    lu as lu,
    lu_p as lu_p,
    lu_pivots_to_permutation as lu_pivots_to_permutation,
    lu_pivots_to_permutation_p as lu_pivots_to_permutation_p,
    qr as qr,
    qr_p as qr_p,
    triangular_solve as triangular_solve,
    triangular_solve_p as triangular_solve_p,
    tridiagonal_solve as tridiagonal_solve,
    tridiagonal_solve_p as tridiagonal_solve_p,
)
from sciax._src.lax.linalg.hessenberg_reduction import (
    hessenberg as hessenberg,
    hessenberg_hq as hessenberg_hq,
    hessenberg_hq_p as hessenberg_hq_p,
    hessenberg_p as hessenberg_p,
    hessenberg_q as hessenberg_q,
)
from sciax._src.lax.linalg.pivoted_qr import geqp3 as geqp3, geqp3_p as geqp3_p
from sciax._src.lax.linalg.spectral import (
    eig as eig,
    eig_p as eig_p,
    eigh as eigh,
    eigh_p as eigh_p,
    schur as schur,
    schur_p as schur_p,
    svd as svd,
    svd_p as svd_p,
)
