"""QR with column pivoting: the ``geqp3`` primitive (LAPACK geqp3).

``sciax.linalg.qr(a, pivoting=True)`` takes only the permutation from it and
recomputes the factors with the differentiable ``qr`` on the permuted
columns, so this primitive itself has no JVP.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax import elementwise as ew
from sciax._src.lax import shape_ops
from sciax._src.lax._rules import multi_result_primitive
from sciax._src.lax.linalg.factorizations import (_not_differentiable, check_matrix, front_batcher,
                                   lapack_call, lapack_target, lower_with_lax)
from sciax._src.lax.linalg.spectral import _full

ArrayLike = Any

__all__ = ["geqp3", "geqp3_p"]


def geqp3(x: ArrayLike, jpvt: ArrayLike) -> tuple[Any, Any, Any]:
    """Householder QR with column pivoting (LAPACK geqp3): ``x[..., :, p] = q @ r``.

    Parameters
    ----------
    x : array_like, shape (..., m, n)
        float32, float64, complex64 or complex128.
    jpvt : array_like of int32, shape (..., n)
        LAPACK's initial pivots: a nonzero ``jpvt[j]`` moves column ``j`` to
        the front before the factorisation starts; zeros leave a column free.
        Pass zeros for ordinary pivoting.

    Returns
    -------
    a : Array, shape (..., m, n)
        ``r`` in the upper triangle, the Householder reflectors of ``q``
        below it (as :func:`geqrf`).
    jpvt : Array of int32, shape (..., n)
        The permutation, 1-based as LAPACK gives it: ``p = jpvt - 1``.
    taus : Array, shape (..., min(m, n))
        The Householder scalars.

    Notes
    -----
    Not differentiable (the permutation is piecewise constant; differentiate
    ``qr`` of the permuted columns instead).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 10.0], [0.0, 1.0]])
    >>> a, jpvt, taus = lax.linalg.geqp3(x, np.zeros(2, np.int32))
    >>> jpvt
    Array([2, 1], dtype=int32)
    """
    a, p, taus = geqp3_p.bind(x, jpvt)
    return a, p, taus


def _geqp3_abstract_eval(x: ShapedArray, jpvt: ShapedArray) -> list[ShapedArray]:
    *batch, m, n = check_matrix("geqp3", x)
    if np.dtype(jpvt.dtype) != np.dtype(np.int32):
        raise TypeError(f"geqp3: jpvt must have dtype int32, got {jpvt.dtype}")
    if tuple(jpvt.shape) != (*batch, n):
        raise ValueError(f"geqp3: jpvt must have shape {(*batch, n)} (x's batch "
                         f"dimensions and its column count), got shapes {x.shape} "
                         f"and {jpvt.shape}")
    return [ShapedArray(x.shape, x.dtype), ShapedArray(jpvt.shape, jpvt.dtype),
            ShapedArray((*batch, min(m, n)), x.dtype)]


def _free_in_place(jpvt: Any) -> Any:
    aval = get_aval(jpvt)
    own = ew.add(shape_ops.broadcasted_iota(np.int32, aval.shape, aval.ndim - 1),
                 shape_ops.full(aval.shape, 1, np.int32))
    return ew.select(ew.eq(jpvt, shape_ops.full(aval.shape, 0, np.int32)), own, jpvt)


def _geqp3_lowering(ctx, x, jpvt):
    x_aval, _ = ctx.avals_in
    if 0 in x_aval.shape[-2:]:
        # nothing to factor (LAPACK would reject the zero leading dimension):
        # the free columns keep their places, as geqp3 leaves them
        (p,) = lower_with_lax(ctx, _free_in_place, ctx.avals_in[1:], jpvt,
                              multiple_results=False)
        return [x, p, _full(ctx.avals_out[2], 0)]
    return lapack_call(lapack_target("geqp3", x_aval.dtype), [x, jpvt], ctx.avals_in,
                       ctx.avals_out, aliases={0: 0, 1: 1})


geqp3_p = multi_result_primitive(_geqp3_abstract_eval, "geqp3")
ad.primitive_jvps[geqp3_p] = _not_differentiable("geqp3")
batching.primitive_batchers[geqp3_p] = front_batcher(geqp3_p)
register_lowering(geqp3_p, _geqp3_lowering)
