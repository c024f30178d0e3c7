"""vmap of reductions, argmax/argmin, cumulative ops, dot_general, sort and top_k
equals a Python loop over the batch, with the batch axis at every position,
unbatched (``None``) operands mixed in, size-1 and empty batches, and per-example
gradients.

Every distinct (primitive, shape) compiles a small XLA program (~0.1 s), so the
tests reuse a handful of shapes.
"""

from __future__ import annotations

import numpy as np
import pytest

import sciax
from sciax import lax
from sciax.test_util import check_batching

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 4))  # batched along any axis: rank-2 examples
XI = RNG.integers(-8, 8, (2, 3, 4)).astype(np.int32)


@pytest.mark.parametrize("op", ["reduce_sum", "reduce_prod", "reduce_max",
                                "reduce_min"])
@pytest.mark.parametrize("in_axis,axes", [(0, (1,)), (1, (0,)), (2, (0, 1)), (1, ())])
def test_reduce(op, in_axis, axes):
    f = getattr(lax, op)
    check_batching(lambda x: f(x, axes), (X,), in_axis)


@pytest.mark.parametrize("op", ["reduce_and", "reduce_or", "reduce_xor"])
@pytest.mark.parametrize("in_axis,axes", [(0, (1,)), (2, (0, 1))])
def test_reduce_bitwise(op, in_axis, axes):
    f = getattr(lax, op)
    check_batching(lambda x: f(x, axes), (XI,), in_axis)


@pytest.mark.parametrize("op", [lax.argmax, lax.argmin])
@pytest.mark.parametrize("in_axis,axis", [(0, 1), (1, 0), (2, 1), (1, 1)])
def test_argmax_argmin(op, in_axis, axis):
    check_batching(lambda x: op(x, axis, np.int32), (X,), in_axis)


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummax", "cummin",
                                "cumlogsumexp"])
@pytest.mark.parametrize("in_axis,axis,reverse", [(0, 1, False), (2, 0, True),
                                                  (1, 1, False)])
def test_cumulative(op, in_axis, axis, reverse):
    f = getattr(lax, op)
    check_batching(lambda x: f(x, axis, reverse=reverse), (X,), in_axis)


# (lhs per-example shape, rhs per-example shape, dimension numbers)
DOT = {
    "matmul": ((3, 4), (4, 2), (((1,), (0,)), ((), ()))),
    "batch-shuffled": ((4, 2, 3), (3, 4, 2), (((2,), (0,)), ((0,), (1,)))),
    "two-contracting": ((2, 3, 4), (4, 2, 2), (((0, 2), (2, 0)), ((), ()))),
}


def _batched(shape, axis, size=3):
    shape = list(shape)
    shape.insert(axis, size)
    return RNG.standard_normal(shape)


@pytest.mark.parametrize("case", list(DOT))
@pytest.mark.parametrize("in_axes", [(0, 0), (1, None), (None, 2), (2, 1), (None, 0)])
def test_dot_general(case, in_axes):
    ls, rs, dn = DOT[case]
    la, ra = in_axes
    lhs = RNG.standard_normal(ls) if la is None else _batched(ls, la)
    rhs = RNG.standard_normal(rs) if ra is None else _batched(rs, ra)
    check_batching(lambda a, b: lax.dot_general(a, b, dn), (lhs, rhs), in_axes,
                   atol=1e-12)


def test_dot_and_nested_vmap():
    a, b = RNG.standard_normal((2, 3, 4, 5)), RNG.standard_normal((5, 3))
    out = sciax.vmap(sciax.vmap(lax.dot, in_axes=(0, None)), in_axes=(0, None))(a, b)
    np.testing.assert_allclose(np.asarray(out), a @ b, rtol=1e-12)


@pytest.mark.parametrize("in_axis,dimension", [(0, 0), (1, 1), (2, 0)])
def test_sort(in_axis, dimension):
    check_batching(lambda x: lax.sort(x, dimension), (X,), in_axis)


def test_sort_multiple_operands_mixed_axes():
    keys = RNG.integers(0, 3, (3, 4)).astype(np.int32)
    # the batch axes differ, or an operand is unbatched: all move to the front
    check_batching(lambda k, v: lax.sort((k, v), 1, num_keys=1),
                   (np.stack([keys] * 2, 2), X), (2, 0))
    check_batching(lambda k, v: lax.sort((k, v), 1, num_keys=1), (keys, X), (None, 0))
    check_batching(lambda k, v: lax.sort((k, v), 0, num_keys=2), (keys, X), (None, 0))


@pytest.mark.parametrize("in_axis", [0, 1, 2])
def test_top_k(in_axis):
    check_batching(lambda x: lax.top_k(x, 2), (X,), in_axis)


def test_size_one_and_empty_batches():
    f = lambda x: lax.cumsum(lax.reduce_max(x, (1,)), 0)  # noqa: E731
    check_batching(f, (X[:1],), 0)
    out = sciax.vmap(f)(np.zeros((0, 3, 4)))
    assert np.asarray(out).shape == (0, 3)
    g = lambda a: lax.dot_general(a, X[0], (((1,), (0,)), ((), ())))  # noqa: E731
    assert np.asarray(sciax.vmap(g)(np.zeros((0, 2, 3)))).shape == (0, 2, 4)
    vals, idx = sciax.vmap(lambda x: lax.top_k(x, 2))(np.zeros((0, 3, 4)))
    assert np.asarray(vals).shape == np.asarray(idx).shape == (0, 3, 2)


def test_per_example_gradients():
    def loss(w, x):
        y = lax.dot_general(x, w, (((0,), (0,)), ((), ())))
        return lax.add(lax.reduce_sum(lax.cumlogsumexp(y, 0), (0,)),
                       lax.reduce_prod(lax.sort(y, 0), (0,)))

    w = RNG.standard_normal((4, 3))
    xs = RNG.standard_normal((5, 4)) * 0.5
    per_example = sciax.vmap(sciax.grad(loss), in_axes=(None, 0))(w, xs)
    loop = np.stack([np.asarray(sciax.grad(loss)(w, x)) for x in xs])
    np.testing.assert_allclose(np.asarray(per_example), loop, rtol=1e-12)
