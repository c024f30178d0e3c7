"""Reduction to upper Hessenberg form: the ``hessenberg`` primitive (LAPACK
gehrd) and ``hessenberg_q``, which forms the unitary factor from gehrd's
Householder reflectors.
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
from sciax._src.lax.linalg import eye as _eye, front_batcher, householder_product
from sciax._src.lax.linalg_eig import (_cast, _check_operand, _full, _i32,
                                       _input_has_no_nan, _lapack_call,
                                       _nan_where_failed, _not_differentiable,
                                       _success)

ArrayLike = Any

__all__ = ["hessenberg", "hessenberg_q", "hessenberg_p"]


# --- hessenberg ---------------------------------------------------------------------

def hessenberg(x: ArrayLike) -> tuple[Any, Any]:
    """Reduction to upper Hessenberg form ``x = q @ h @ q^H`` (LAPACK gehrd).

    Parameters
    ----------
    x : array_like, shape (..., n, n)
        float32, float64, complex64 or complex128.

    Returns
    -------
    a : Array, shape (..., n, n)
        LAPACK's packed result: ``h`` on and above the first subdiagonal, the
        Householder vectors of ``q`` below it.
    taus : Array, shape (..., n - 1)
        The Householder scalars: ``q = H_1 ... H_{n-1}``, ``H_i = I - tau_i
        v_i v_i^H`` with ``v_i[:i] = 0``, ``v_i[i] = 1`` and ``v_i[i+1:] =
        a[i+1:, i-1]`` (1-based ``i``).

    Notes
    -----
    Not differentiable yet (a JVP raises NotImplementedError).

    Examples
    --------
    >>> import numpy as np
    >>> a, taus = lax.linalg.hessenberg(np.eye(3))
    >>> taus.shape
    (2,)
    """
    a, taus = hessenberg_p.bind(x)
    return a, taus


def _hessenberg_abstract_eval(x: ShapedArray) -> list[ShapedArray]:
    _check_operand("hessenberg", x)
    n = x.shape[-1]
    return [ShapedArray(x.shape, x.dtype),
            ShapedArray((*x.shape[:-2], max(n - 1, 0)), x.dtype)]


def _hessenberg_lowering(ctx, x):
    (a,), (a_aval, tau_aval) = ctx.avals_in, ctx.avals_out
    if 0 in a.shape:
        return [x, _full(tau_aval, 0)]
    batch, n = a.shape[:-2], a.shape[-1]
    info_aval = ShapedArray(batch, np.dtype(np.int32))
    no_nan = _input_has_no_nan(ctx, x)
    out, taus, info = _lapack_call("gehrd", a.dtype, [x], [a],
                                   [a_aval, tau_aval, info_aval], {0: 0},
                                   low=_i32(1), high=_i32(n))
    ok = _success(no_nan, info, batch)
    return [_nan_where_failed(ok, batch, out, a_aval),
            _nan_where_failed(ok, batch, taus, tau_aval)]


hessenberg_p = multi_result_primitive(_hessenberg_abstract_eval, "hessenberg")
ad.primitive_jvps[hessenberg_p] = _not_differentiable(
    "hessenberg", "differentiate through a Hessenberg decomposition built from "
    "differentiable pieces instead")
batching.primitive_batchers[hessenberg_p] = front_batcher(hessenberg_p)
register_lowering(hessenberg_p, _hessenberg_lowering)


def hessenberg_q(a: ArrayLike, taus: ArrayLike) -> Any:
    """The unitary ``q`` of ``x = q @ h @ q^H`` from :func:`hessenberg`'s output.

    LAPACK's orghr/unghr, done with ``householder_product`` (orgqr/ungqr) on
    the reflectors below the first subdiagonal: ``q = diag(1, q')``.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    >>> a, taus = lax.linalg.hessenberg(x)
    >>> q = np.asarray(lax.linalg.hessenberg_q(a, taus))
    >>> h = np.triu(np.asarray(a), -1)
    >>> np.allclose(q @ h @ q.T, x)
    True
    """
    aval = get_aval(a)
    _check_operand("hessenberg_q", aval)
    *batch, n, _ = aval.shape
    if n <= 1:
        return _eye(aval.shape, aval.dtype)
    nd = aval.ndim
    # the reflectors of the (n-1) x (n-1) block below the first row; the
    # entries above its diagonal are ignored by orgqr
    block = shape_ops.slice(a, (0,) * (nd - 2) + (1, 0), (*batch, n, n - 1))
    q = householder_product(block, taus)
    zero = shape_ops.full((), 0, aval.dtype)
    q = shape_ops.pad(q, zero, [(0, 0, 0)] * (nd - 2) + [(1, 0, 0), (1, 0, 0)])
    # plus the 1 in the top-left corner (where row + column == 0)
    corner = ew.eq(ew.add(shape_ops.broadcasted_iota(np.int32, aval.shape, nd - 2),
                          shape_ops.broadcasted_iota(np.int32, aval.shape, nd - 1)), 0)
    return ew.add(q, _cast(corner, aval.dtype))
