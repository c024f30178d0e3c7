"""Derivatives of the shape primitives (broadcast_in_dim, reshape, transpose,
squeeze, expand_dims, rev, pad, concatenate, slice, dynamic_slice,
dynamic_update_slice): forward and reverse mode against central differences at
first and second order in float64, with parameters drawn to fit the drawn
operand shape.

These ops are linear, so finite differences are exact up to rounding; the checks
exercise the transpose rules (negative and interior padding, strided slices,
clamped dynamic indices) and their second-order (JVP-of-transpose) paths.
Shapes come from a small fixed set because every distinct (primitive, shape,
parameters) compiles a small XLA program.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
from sciax import lax
from sciax.test_util import check_grads

SHAPES = [(), (3,), (2, 3), (0,)]
RANKED = [(3,), (2, 3), (0,)]  # ops that need an axis
SETTINGS = settings(max_examples=5, deadline=None, database=None)


def _x(data, shape):
    seed = data.draw(st.integers(0, 2 ** 32 - 1), label="seed")
    return np.random.default_rng(seed).standard_normal(shape)


def _grads(f, *args):
    check_grads(f, args, order=2, modes=("fwd", "rev"))


@SETTINGS
@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_broadcast_in_dim(shape, data):
    x = _x(data, shape)
    lead = data.draw(st.sampled_from([(), (2,)]), label="new leading axes")
    out = (*lead, *shape, 2)
    dims = tuple(range(len(lead), len(lead) + len(shape)))
    _grads(lambda x: lax.broadcast_in_dim(x, out, dims), x)


def test_broadcast_in_dim_size_one_axes():
    # size-1 operand axes stretch: the transpose sums over them
    x = np.random.default_rng(0).standard_normal((3, 1))
    _grads(lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (1, 2)), x)
    _, vjp = sciax.vjp(lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (1, 2)), x)
    (ct,) = vjp(np.ones((2, 3, 4)))
    np.testing.assert_array_equal(np.asarray(ct), np.full((3, 1), 8.0))


@SETTINGS
@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_reshape(shape, data):
    x = _x(data, shape)
    n = int(np.prod(shape))
    new = data.draw(st.sampled_from([(n,), (1, n), (n, 1)] +
                                    ([(3, 2)] if n == 6 else [])), label="new_sizes")
    _grads(lambda x: lax.reshape(x, new), x)


@SETTINGS
@given(shape=st.sampled_from(SHAPES + [(2, 1, 3)]), data=st.data())
def test_transpose(shape, data):
    x = _x(data, shape)
    perm = tuple(data.draw(st.permutations(range(len(shape))), label="permutation"))
    _grads(lambda x: lax.transpose(x, perm), x)


@SETTINGS
@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_squeeze(shape, data):
    pos = data.draw(st.integers(0, len(shape)), label="unit axis")
    full = (*shape[:pos], 1, *shape[pos:])
    x = _x(data, full)
    _grads(lambda x: lax.squeeze(x, (pos,)), x)


@SETTINGS
@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_expand_dims(shape, data):
    x = _x(data, shape)
    dims = data.draw(st.sampled_from([(0,), (len(shape),), (0, len(shape) + 1)]),
                     label="dimensions")
    _grads(lambda x: lax.expand_dims(x, dims), x)


@SETTINGS
@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_rev(shape, data):
    x = _x(data, shape)
    dims = tuple(sorted(data.draw(st.sets(st.sampled_from(range(len(shape))))
                                  if shape else st.just(set()), label="dimensions")))
    _grads(lambda x: lax.rev(x, dims), x)


def _pad_configs(shape):
    def axis(n):
        lo_hi = st.integers(-1, 2) if n > 1 else st.integers(0, 2)
        return st.tuples(lo_hi, lo_hi, st.integers(0, 2))
    return st.tuples(*[axis(n) for n in shape])


@SETTINGS
@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_pad(shape, data):
    """Negative edges remove elements; interior padding goes between them.  The
    padding value is differentiated too (its cotangent sums the padded slots)."""
    x = _x(data, shape)
    config = data.draw(_pad_configs(shape), label="padding_config")
    v = np.float64(data.draw(st.floats(-2, 2), label="padding_value"))
    _grads(lambda x, v: lax.pad(x, v, config), x, v)


@pytest.mark.parametrize("config", [((-1, -1, 0),), ((-2, 1, 1),), ((1, -3, 2),),
                                    ((0, 0, 0),)])
def test_pad_negative_and_interior_cotangent(config):
    x = np.arange(1.0, 5.0)
    y, vjp = sciax.vjp(lambda x, v: lax.pad(x, v, config), x, np.float64(0.5))
    ct = np.arange(1.0, np.asarray(y).size + 1)
    gx, gv = vjp(ct)
    # reference: the Jacobian of pad, built column by column
    cols = [np.asarray(lax.pad(np.eye(4)[i], 0.0, config)) for i in range(4)]
    np.testing.assert_array_equal(np.asarray(gx), [c @ ct for c in cols])
    in_pad = np.asarray(lax.pad(np.zeros(4), 1.0, config))
    np.testing.assert_array_equal(float(gv), in_pad @ ct)


@SETTINGS
@given(shape=st.sampled_from(RANKED), data=st.data())
def test_concatenate(shape, data):
    dim = data.draw(st.integers(0, len(shape) - 1), label="dimension")
    sizes = data.draw(st.lists(st.integers(0, 2), min_size=2, max_size=3),
                      label="sizes")
    xs = [_x(data, (*shape[:dim], k, *shape[dim + 1:])) for k in sizes]
    _grads(lambda *xs: lax.concatenate(xs, dim), *xs)


@st.composite
def _slice_params(draw, shape):
    start, limit, strides = [], [], []
    for n in shape:
        lo = draw(st.integers(0, n))
        start.append(lo)
        limit.append(draw(st.integers(lo, n)))
        strides.append(draw(st.integers(1, 3)))
    return tuple(start), tuple(limit), tuple(strides)


@SETTINGS
@given(shape=st.sampled_from(SHAPES + [(5,)]), data=st.data())
def test_slice(shape, data):
    x = _x(data, shape)
    start, limit, strides = data.draw(_slice_params(shape), label="slice")
    _grads(lambda x: lax.slice(x, start, limit, strides), x)


def test_slice_strided_cotangent():
    x = np.arange(7.0)
    _, vjp = sciax.vjp(lambda x: lax.slice(x, (1,), (7,), (2,)), x)
    (ct,) = vjp(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(np.asarray(ct), [0, 1, 0, 2, 0, 3, 0])


@SETTINGS
@given(shape=st.sampled_from(RANKED), data=st.data())
def test_dynamic_slice(shape, data):
    """Start indices may be out of range: XLA clamps them, and the derivative
    follows the clamped window."""
    x = _x(data, shape)
    sizes = tuple(data.draw(st.integers(0, n), label="size") for n in shape)
    idx = tuple(np.int32(data.draw(st.integers(-2, n + 1), label="start"))
                for n in shape)
    _grads(lambda x: lax.dynamic_slice(x, idx, sizes), x)


@SETTINGS
@given(shape=st.sampled_from(RANKED), data=st.data())
def test_dynamic_update_slice(shape, data):
    x = _x(data, shape)
    upd = _x(data, tuple(data.draw(st.integers(0, n), label="size") for n in shape))
    idx = tuple(np.int32(data.draw(st.integers(-2, n + 1), label="start"))
                for n in shape)
    _grads(lambda x, u: lax.dynamic_update_slice(x, u, idx), x, upd)


def test_dynamic_slice_traced_indices_under_jit():
    # indices as traced values (jit arguments): gradients flow to the operand only
    x = np.arange(12.0).reshape(3, 4)

    @sciax.jit
    def f(x, i, j):
        return lax.reduce_sum(lax.integer_pow(lax.dynamic_slice(x, (i, j), (2, 2)), 2),
                              (0, 1))

    g = np.asarray(sciax.grad(f)(x, np.int32(1), np.int32(5)))  # j clamps to 2
    expected = np.zeros_like(x)
    expected[1:3, 2:4] = 2 * x[1:3, 2:4]
    np.testing.assert_array_equal(g, expected)

    def h(x, u, i):
        y = lax.dynamic_update_slice(x, u, (i, 0))
        return lax.reduce_sum(lax.integer_pow(y, 2), (0, 1))
    u = np.ones((1, 4))
    gx, gu = sciax.grad(sciax.jit(h), argnums=(0, 1))(x, u, np.int32(2))
    expected = 2 * x
    expected[2] = 0.0
    np.testing.assert_array_equal(np.asarray(gx), expected)
    np.testing.assert_array_equal(np.asarray(gu), 2 * u)
