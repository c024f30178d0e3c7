"""Reduction to upper Hessenberg form: the ``hessenberg`` primitive (LAPACK
gehrd), ``hessenberg_q``, which forms the unitary factor from gehrd's
Householder reflectors, and the differentiable ``hessenberg_hq``, which
returns both factors ``(h, q)`` and has a JVP rule.

The packed ``hessenberg`` output (reflectors and taus) has no useful
derivative, as for ``geqrf``; ``hessenberg_hq`` is a composite of the two
above with its own JVP, as ``qr`` is of ``geqrf`` and ``householder_product``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters.lowering import register_lowering
from sciax._src.lax import control_flow
from sciax._src.lax import elementwise as ew
from sciax._src.lax import shape_ops
from sciax._src.lax._rules import multi_result_primitive
from sciax._src.lax.linalg.factorizations import (adjoint, eye as _eye, front_batcher,
                                   householder_product, matmul, triu)
from sciax._src.lax.linalg.spectral import (_cast, _check_operand, _full, _i32,
                                       _input_has_no_nan, _lapack_call,
                                       _nan_where_failed, _not_differentiable,
                                       _success)

ArrayLike = Any

__all__ = ["hessenberg", "hessenberg_q", "hessenberg_hq", "hessenberg_p",
           "hessenberg_hq_p"]


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
    Not differentiable (a JVP raises NotImplementedError): the reflectors are
    an internal representation.  Use :func:`hessenberg_hq` for derivatives.

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
    ok, _ = _success(no_nan, info, batch)  # gehrd only reports bad arguments
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


# --- hessenberg_hq (differentiable) -------------------------------------------------

def hessenberg_hq(x: ArrayLike) -> tuple[Any, Any]:
    """Hessenberg decomposition ``x = q @ h @ q^H`` as the two factors, with
    derivatives.

    Parameters
    ----------
    x : array_like, shape (..., n, n)
        float32, float64, complex64 or complex128.

    Returns
    -------
    h : Array, shape (..., n, n)
        Upper Hessenberg (zero below the first subdiagonal), as LAPACK's gehrd
        gives it; for complex input its subdiagonal is real.
    q : Array, shape (..., n, n)
        Unitary, with ``q[..., :, 0] = q[..., 0, :] = e_1`` (orghr/unghr).

    Notes
    -----
    Differentiable (forward and reverse mode).  With ``Omega = q^H dq``
    (skew-Hermitian, zero first row and column since ``q e_1 = e_1``) and
    ``C = q^H dx q``: ``dq = q Omega`` and ``dh = C + h Omega - Omega h``,
    where ``Omega`` is fixed column by column by ``dh`` staying upper
    Hessenberg (and, for complex input, its subdiagonal staying real, which
    fixes Omega's imaginary diagonal).  Each column divides by a subdiagonal
    entry ``h[j+1, j]``, so the derivative exists only for an *unreduced*
    Hessenberg form (no zero subdiagonal entry).  Where a subdiagonal entry is
    exactly zero the factors are not differentiable; the division by it is
    replaced by zero, so the tangents stay finite (one valid choice among
    many, not the limit of nearby matrices) instead of inf or NaN.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    >>> h, q = lax.linalg.hessenberg_hq(x)
    >>> bool(np.allclose(np.asarray(q @ h @ q.T), x))
    True
    >>> dh, dq = sciax.jvp(lax.linalg.hessenberg_hq, (x,), (np.eye(3),))[1]
    >>> float(abs(np.asarray(dh)[2, 0])) < 1e-12  # dh stays Hessenberg
    True
    """
    h, q = hessenberg_hq_p.bind(x)
    return h, q


def _hessenberg_hq_abstract_eval(x: ShapedArray) -> list[ShapedArray]:
    _check_operand("hessenberg_hq", x)
    return [ShapedArray(x.shape, x.dtype), ShapedArray(x.shape, x.dtype)]


def _hessenberg_hq_composite(x: Any) -> list[Any]:
    packed, taus = hessenberg(x)
    return [triu(packed, -1), hessenberg_q(packed, taus)]


def _hessenberg_omega(h: Any, c: Any) -> Any:
    """``Omega = q^H dq`` for a batch ``(..., n, n)``: for j = 0 .. n-2 the
    entries ``i >= j + 2`` of column j of ``C + h Omega - Omega h`` vanish,
    which gives column j+1 of Omega below its diagonal from columns <= j:

        Omega[i, j+1] = (C + h Omega - Omega[:, :j+1] h[:j+1, :])[i, j] / h[j+1, j].

    For complex input, ``Im dh[j+1, j] = 0`` gives ``Omega[j+1, j+1] = i theta``
    with ``theta = Im(rest[j+1]) / h[j+1, j]``, ``rest`` the same vector
    (Omega[j+1, j+1] is still zero in it, and h's subdiagonal is real)."""
    aval = get_aval(h)
    *batch, n, _ = aval.shape
    nd, dtype = aval.ndim, aval.dtype
    complex_ = dtypes.is_complex(dtype)
    col_shape = (*batch, n, 1)
    rows = shape_ops.broadcasted_iota(np.int32, col_shape, nd - 2)
    cols = shape_ops.broadcasted_iota(np.int32, (*batch, 1, n), nd - 1)
    zero_col = shape_ops.full(col_shape, 0, dtype)

    def body(j, omega):
        j = ew.convert_element_type(j, np.int32)
        h_j = shape_ops.dynamic_index_in_dim(h, j, nd - 1)          # (..., n, 1)
        c_j = shape_ops.dynamic_index_in_dim(c, j, nd - 1)
        om_j = shape_ops.dynamic_index_in_dim(omega, j, nd - 1)
        jb = shape_ops.broadcast_in_dim(j, col_shape, ())
        h_upper = ew.select(ew.le(rows, jb), h_j, zero_col)         # h[k, j], k <= j
        rest = ew.sub(ew.add(c_j, matmul(h, om_j)), matmul(omega, h_upper))
        sub = shape_ops.dynamic_index_in_dim(h_j, ew.add(j, 1), nd - 2)  # (..., 1, 1)
        # a zero subdiagonal entry: no derivative; divide by it as by infinity
        # so the tangent stays finite (a gauge choice, see hessenberg_hq)
        is_zero = ew.eq(sub, shape_ops.full_like(sub, 0))
        inv = ew.select(is_zero, shape_ops.full_like(sub, 0),
                        ew.div(shape_ops.full_like(sub, 1),
                               ew.select(is_zero, shape_ops.full_like(sub, 1), sub)))
        inv = shape_ops.broadcast_in_dim(inv, col_shape, tuple(range(nd)))
        v = ew.select(ew.ge(rows, ew.add(jb, 2)), ew.mul(rest, inv), zero_col)
        if complex_:
            # i Im(rest) / h[j+1, j] at row j+1; halved because X - X^H below
            # doubles a purely imaginary diagonal entry
            im = ew.sub(rest, ew.convert_element_type(ew.real(rest), dtype))
            half = ew.mul(ew.mul(im, inv), shape_ops.full(col_shape, 0.5, dtype))
            v = ew.select(ew.eq(rows, ew.add(jb, 1)), half, v)
        e = ew.convert_element_type(
            ew.eq(cols, shape_ops.broadcast_in_dim(ew.add(j, 1), (*batch, 1, n), ())),
            dtype)
        outer = matmul(v, e)                                        # v in column j+1
        return ew.add(omega, ew.sub(outer, adjoint(outer)))

    return control_flow.fori_loop(0, n - 1, body, shape_ops.full_like(c, 0))


def _hessenberg_hq_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    h, q = hessenberg_hq_p.bind(x)
    dx = ad.instantiate_zeros(dx)
    c = matmul(matmul(adjoint(q), dx), q)
    if get_aval(x).shape[-1] <= 1:
        return [h, q], [c, shape_ops.full_like(q, 0)]
    omega = _hessenberg_omega(h, c)
    dq = matmul(q, omega)
    # zero below the subdiagonal up to rounding; the mask makes it exact
    dh = triu(ew.add(c, ew.sub(matmul(h, omega), matmul(omega, h))), -1)
    return [h, q], [dh, dq]


hessenberg_hq_p = multi_result_primitive(_hessenberg_hq_abstract_eval, "hessenberg_hq")
ad.primitive_jvps[hessenberg_hq_p] = _hessenberg_hq_jvp
batching.primitive_batchers[hessenberg_hq_p] = front_batcher(hessenberg_hq_p)
register_lowering(hessenberg_hq_p,
                  lowering.lower_fun(_hessenberg_hq_composite, multiple_results=True))
