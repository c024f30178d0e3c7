"""``sciax.numpy.linalg``: NumPy's linear-algebra functions."""

from sciax._src.numpy.linalg import (  # noqa: F401
    LinAlgError as LinAlgError, cholesky as cholesky, cond as cond, cross as cross,
    det as det, diagonal as diagonal, eig as eig, eigh as eigh, eigvals as eigvals,
    eigvalsh as eigvalsh, inv as inv, lstsq as lstsq, matmul as matmul,
    matrix_norm as matrix_norm, matrix_power as matrix_power,
    matrix_rank as matrix_rank, matrix_transpose as matrix_transpose,
    multi_dot as multi_dot, norm as norm, outer as outer, pinv as pinv, qr as qr,
    slogdet as slogdet, solve as solve, svd as svd, svdvals as svdvals,
    tensordot as tensordot, tensorinv as tensorinv, tensorsolve as tensorsolve,
    trace as trace, vecdot as vecdot, vector_norm as vector_norm)

from sciax._src.numpy import eager as _eager  # noqa: E402

_eager.compile_namespace(globals())  # one compiled program per eager call
