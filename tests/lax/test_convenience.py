"""The small jax.lax conveniences against NumPy, with a derivative each where
the function is differentiable."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax

X = np.arange(24.0).reshape(2, 3, 4) - 5.5


def test_square_reciprocal_values_and_derivatives():
    np.testing.assert_array_equal(np.asarray(lax.square(X)), X * X)
    np.testing.assert_allclose(np.asarray(lax.reciprocal(X)), 1 / X, rtol=1e-15)
    assert float(sciax.grad(lax.square)(3.0)) == 6.0
    assert float(sciax.grad(lax.reciprocal)(2.0)) == -0.25


def test_stack_unstack_split_tile_match_numpy():
    a, b = X[0], X[1]
    for axis in (0, 1, 2, -1):
        np.testing.assert_array_equal(np.asarray(lax.stack([a, b], axis)),
                                      np.stack([a, b], axis))
    parts = lax.unstack(X, axis=1)
    assert len(parts) == 3
    np.testing.assert_array_equal(np.asarray(parts[2]), X[:, 2])
    pieces = lax.split(X, (1, 3), axis=2)
    np.testing.assert_array_equal(np.asarray(pieces[1]), X[:, :, 1:])
    np.testing.assert_array_equal(np.asarray(lax.tile(a, (2, 3))), np.tile(a, (2, 3)))
    with pytest.raises(ValueError, match="sum to the axis length"):
        lax.split(X, (1, 1), axis=2)
    with pytest.raises(ValueError, match="rank"):
        lax.tile(a, (2,))
    g = sciax.grad(lambda v: lax.tile(v, (3,)).sum())(np.ones(2))
    np.testing.assert_array_equal(np.asarray(g), [3.0, 3.0])


def test_collapse_broadcasts_and_shapes():
    assert lax.collapse(X, 1).shape == (2, 12)
    assert lax.collapse(X, 0, 2).shape == (6, 4)
    np.testing.assert_array_equal(np.asarray(lax.collapse(X, 0, 2)), X.reshape(6, 4))
    assert lax.broadcast_to_rank(snp.ones(3), 3).shape == (1, 1, 3)
    np.testing.assert_array_equal(np.asarray(lax.broadcast_like(np.arange(4.0), X)),
                                  np.broadcast_to(np.arange(4.0), X.shape))
    assert lax.broadcast_shapes((2, 1), (1, 3), (3,)) == (2, 3)
    with pytest.raises(ValueError, match="incompatible"):
        lax.broadcast_shapes((2,), (3,))
    e = lax.empty((2, 3), np.float32)
    assert e.shape == (2, 3) and e.dtype == np.float32


def test_dynamic_update_index_in_dim_matches_numpy_including_traced_index():
    ref = X.copy()
    ref[:, 1] = -1.0
    out = lax.dynamic_update_index_in_dim(X, -np.ones((2, 4)), 1, 1)
    np.testing.assert_array_equal(np.asarray(out), ref)
    out = sciax.jit(lambda i: lax.dynamic_update_index_in_dim(X, -np.ones((2, 4)), i, 1)
                    )(1)
    np.testing.assert_array_equal(np.asarray(out), ref)
    ref2 = X.copy()
    ref2[:, -1] = 0.0
    out = lax.dynamic_update_index_in_dim(X, np.zeros((2, 1, 4)), -1, 1)
    np.testing.assert_array_equal(np.asarray(out), ref2)
