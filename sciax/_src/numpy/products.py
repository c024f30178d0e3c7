"""Products of arrays: dot, matmul (``@``), vdot, inner, outer."""

from __future__ import annotations

from typing import Any

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.numpy import util
from sciax._src.numpy.ufuncs import multiply

ArrayLike = Any


def _dot_general(a: Any, b: Any, dims: Any) -> Any:
    """lax.dot_general on promoted operands; bools are summed as ints and
    tested for nonzero (NumPy's logical dot)."""
    if get_aval(a).dtype == dtypes.bool_:
        a, b = util.cast(a, dtypes.int32), util.cast(b, dtypes.int32)
        out = lax.dot_general(a, b, dims)
        return lax.ne(out, lax.full_like(out, 0))
    return lax.dot_general(a, b, dims)


def _operands(name: str, a: Any, b: Any) -> list[Any]:
    util.check_arraylike(name, a, b)
    a, b = (util.as_operand(name, x) for x in (a, b))
    return util.promote_dtypes(a, b)


def _mismatch(name: str, a: Any, b: Any, ax_a: int, ax_b: int) -> ValueError:
    sa, sb = get_aval(a).shape, get_aval(b).shape
    return ValueError(f"{name}: shapes {sa} and {sb} are not aligned: {sa[ax_a]} "
                      f"(dim {ax_a}) != {sb[ax_b]} (dim {ax_b})")


def dot(a: ArrayLike, b: ArrayLike) -> Any:
    """NumPy's ``dot``: a sum product over the last axis of ``a`` and the
    second-to-last of ``b`` (the only axis of a 1-d ``b``); scalars multiply.

    Examples
    --------
    >>> a = snp.arange(6.0).reshape(2, 3)
    >>> snp.dot(a, snp.ones(3))
    Array([ 3., 12.], dtype=float64)
    """
    a, b = _operands("dot", a, b)
    na, nb = util.ndim(a), util.ndim(b)
    if na == 0 or nb == 0:
        return multiply(a, b)
    ax_b = 0 if nb == 1 else nb - 2
    if get_aval(a).shape[-1] != get_aval(b).shape[ax_b]:
        raise _mismatch("dot", a, b, na - 1, ax_b)
    return _dot_general(a, b, (((na - 1,), (ax_b,)), ((), ())))


def matmul(a: ArrayLike, b: ArrayLike, /) -> Any:
    """Matrix product with broadcasting over leading (batch) axes (``@``).

    A 1-d ``a`` is a row vector and a 1-d ``b`` a column vector; the added axis
    is removed from the result.  Scalars are rejected, as in NumPy.

    Examples
    --------
    >>> a = snp.ones((5, 2, 3))
    >>> b = snp.ones((3, 4))
    >>> (a @ b).shape
    (5, 2, 4)
    """
    a, b = _operands("matmul", a, b)
    sa, sb = get_aval(a).shape, get_aval(b).shape
    if not sa or not sb:
        raise ValueError(f"matmul: input operands must have at least 1 dimension, got "
                         f"shapes {sa} and {sb} (use multiply or * for scalars)")
    a_vec, b_vec = len(sa) == 1, len(sb) == 1
    if (a_vec or b_vec) and len(sa) <= 2 and len(sb) <= 2 and sa[-1] == sb[0]:
        # vector-matrix, matrix-vector or vector-vector: one dot_general that
        # contracts the vector's axis directly, without reshaping it to a 1-row
        # matrix and back (fewer ops for XLA, and for reverse mode no size-1
        # contraction that makes an outer product a dot)
        return _dot_general(a, b, (((len(sa) - 1,), (0,)), ((), ())))
    if a_vec:
        a = lax.reshape(a, (1, sa[0]))
    if b_vec:
        b = lax.reshape(b, (sb[0], 1))
    sa, sb = get_aval(a).shape, get_aval(b).shape
    if sa[-1] != sb[-2]:
        raise ValueError(
            f"matmul: input operand 1 has a mismatch in its core dimension 0 "
            f"(size {sb[-2]} is different from {sa[-1]}): shapes "
            f"{tuple(get_aval(x).shape for x in (a, b))}")
    batch = util._broadcast_shapes(sa[:-2], sb[:-2], name="matmul")
    a = util.broadcast_to(a, (*batch, *sa[-2:]), "matmul")
    b = util.broadcast_to(b, (*batch, *sb[-2:]), "matmul")
    nbatch = len(batch)
    bdims = tuple(range(nbatch))
    out = _dot_general(a, b, (((nbatch + 1,), (nbatch,)), (bdims, bdims)))
    shape = get_aval(out).shape
    if a_vec and b_vec:
        return lax.reshape(out, shape[:-2])
    if a_vec:
        return lax.reshape(out, (*shape[:-2], shape[-1]))
    if b_vec:
        return lax.reshape(out, shape[:-1])
    return out


def vdot(a: ArrayLike, b: ArrayLike, /) -> Any:
    """``sum(conj(a) * b)`` over the flattened inputs."""
    a, b = _operands("vdot", a, b)
    sa, sb = get_aval(a).shape, get_aval(b).shape
    na, nb = get_aval(a).size, get_aval(b).size
    if na != nb:
        raise ValueError(f"vdot: inputs must have the same number of elements, got "
                         f"shapes {sa} and {sb}")
    if dtypes.is_complex(get_aval(a).dtype):
        a = lax.conj(a)
    return _dot_general(lax.reshape(a, (na,)), lax.reshape(b, (nb,)),
                        (((0,), (0,)), ((), ())))


def inner(a: ArrayLike, b: ArrayLike, /) -> Any:
    """Sum product over the last axes of ``a`` and ``b``."""
    a, b = _operands("inner", a, b)
    na, nb = util.ndim(a), util.ndim(b)
    if na == 0 or nb == 0:
        return multiply(a, b)
    if get_aval(a).shape[-1] != get_aval(b).shape[-1]:
        raise _mismatch("inner", a, b, na - 1, nb - 1)
    return _dot_general(a, b, (((na - 1,), (nb - 1,)), ((), ())))


def outer(a: ArrayLike, b: ArrayLike, out: None = None) -> Any:
    """``a.ravel()[:, None] * b.ravel()[None, :]``."""
    if out is not None:
        raise NotImplementedError("outer: the out argument is not supported")
    a, b = _operands("outer", a, b)
    na, nb = get_aval(a).size, get_aval(b).size

    return multiply(lax.reshape(a, (na, 1)), lax.reshape(b, (1, nb)))
