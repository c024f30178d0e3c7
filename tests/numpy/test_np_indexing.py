"""x[idx] with basic and advanced (integer-array, boolean) indices against NumPy,
eagerly and under jit, plus derivatives, vmap and bad input."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax.test_util import check_batching, check_grads

X = np.arange(24.0).reshape(2, 3, 4)
I0 = np.array([[1, 0], [1, 1]])
CASES = [
    1, -1, (0, slice(None), 2), (slice(None, None, -1), slice(1, 3)), (Ellipsis, None),
    [1, 0], ([0, 1], [2, -1]), ([0, 1], None, [0, 1]),          # split by None: first
    (slice(None), [0, 2], None, [0, 3]), (0, slice(None), [1, 2]),  # int joins
    (I0, Ellipsis, -1), (slice(None, None, -1), [[0], [2]], slice(1, None, 2)),
    (Ellipsis, [3, -4]), (None, 1, None, slice(None, None, -2)), (np.array(1), [0, 2]),
    X[..., 0] > 5, (slice(None), np.array([True, False, True])), True, False,
    (np.array([], int), slice(None)),
]


@pytest.mark.parametrize("idx", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_getitem_matches_numpy(idx):
    want = X[idx]
    got = snp.asarray(X)[idx]
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    if not isinstance(idx, np.ndarray) or idx.dtype != bool:
        np.testing.assert_array_equal(sciax.jit(lambda a: a[idx])(X), want)


def test_traced_index_arrays_and_clamping():
    f = sciax.jit(lambda a, i, j: a[i, :, j])
    i, j = np.array([1, -2, 0]), np.array([0, 3, -1])
    np.testing.assert_array_equal(f(X, i, j), X[i, :, j])
    # out-of-range traced indices are clamped into bounds, as in JAX
    np.testing.assert_array_equal(f(X, np.array([5]), np.array([9])), X[[1], :, [3]])
    g = sciax.jit(lambda a, k: a[k])
    np.testing.assert_array_equal(g(X, np.int64(-1)), X[-1])


def test_getitem_grads_and_vmap():
    x = np.random.default_rng(0).normal(size=(3, 4))
    idx = (np.array([0, 2, 0]), slice(None, None, -2))
    check_grads(lambda a: snp.asarray(a)[idx], (x,), order=2, modes=("fwd", "rev"))
    check_grads(lambda a: snp.asarray(a)[np.array([[1, 1], [0, 2]])], (x,), order=1)
    check_batching(lambda a: snp.asarray(a)[[2, 0], 1:], (np.stack([x, 2 * x]),))
    check_batching(lambda a, i: snp.asarray(a)[i, ::-1],
                   (np.stack([x, x + 1]), np.array([[0, 2], [1, 1]])), in_axes=(0, 0))


def test_bad_indices():
    x = snp.asarray(X)
    with pytest.raises(IndexError, match="dtype float64"):
        x[np.array([0.0, 1.0])]
    with pytest.raises(IndexError, match="float"):
        x[[0.5, 1.0]]
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 3"):
        x[:, [0, 3]]
    with pytest.raises(IndexError, match="out of bounds"):
        x[0, -4]
    with pytest.raises(IndexError, match="boolean index of shape"):
        x[np.array([True, False, True])]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError, match="snp.where"):
        sciax.jit(lambda a: a[a > 3])(X)
    with pytest.raises(TypeError, match=r"\.at\[idx\]"):
        x[0] = 1
