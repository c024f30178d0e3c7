"""x.at[idx] updates against NumPy's in-place assignment and ufunc.at, eagerly and
under jit; modes; derivatives to both operands; vmap."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax.test_util import check_batching, check_grads

X = np.arange(24.0).reshape(2, 3, 4) / 7
IDX = [1, (slice(None), 1), ([0, 1, 0], None, [0, 1, 0]), (0, slice(None), [1, 2, 1]),
       (Ellipsis, [3, -1]), (slice(None, None, -1), [[0], [2]], slice(1, None, 2)),
       X > 1.5]
UFUNC = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
         "min": np.minimum, "max": np.maximum}


@pytest.mark.parametrize("k", range(len(IDX)))
@pytest.mark.parametrize("op", ["set", "add", "subtract", "multiply", "min", "max"])
def test_updates_match_numpy(op, k):
    idx = IDX[k]
    v = 0.75
    want = X.copy()
    if op == "set":
        want[idx] = v
    else:
        UFUNC[op].at(want, idx, v)
    got = getattr(snp.asarray(X).at[idx], op)(v)
    np.testing.assert_allclose(got, want, rtol=1e-15)
    if op in ("set", "add") and not (isinstance(idx, np.ndarray)):
        jitted = sciax.jit(lambda a, v: getattr(a.at[idx], op)(v))(X, v)
        np.testing.assert_allclose(jitted, want, rtol=1e-15)


def test_divide_power_get_and_broadcast_values():
    x = snp.full(4, 2.0)
    i = np.array([0, 0, 3])
    np.testing.assert_allclose(x.at[i].divide(2.0), [0.5, 2, 2, 1])
    np.testing.assert_allclose(x.at[i].power(2.0), [16, 2, 2, 4])
    rows = snp.zeros((3, 2)).at[np.array([2, 0])].set(np.array([1.0, 5.0]))
    np.testing.assert_allclose(rows, [[1, 5], [0, 0], [1, 5]])
    np.testing.assert_allclose(snp.asarray(X).at[0, 1].get(), X[0, 1])
    assert snp.zeros(3, np.int32).at[1].set(2.7).dtype == np.int32


def test_modes():
    x = snp.zeros(3)
    i = np.array([0, 5, -1, -7])
    np.testing.assert_allclose(x.at[i].add(1.0), [1, 0, 1])            # drop (default)
    np.testing.assert_allclose(x.at[i].add(1.0, mode="drop"), [1, 0, 1])
    np.testing.assert_allclose(x.at[i].add(1.0, mode="clip"), [2, 0, 2])
    y = snp.arange(3.0)
    np.testing.assert_allclose(y.at[i].get(mode="fill", fill_value=-1), [0, -1, 2, -1])
    np.testing.assert_allclose(y.at[i].get(mode="clip"), [0, 2, 2, 0])
    np.testing.assert_allclose(
        y.at[np.array([0, 2])].set(9.0, unique_indices=True, indices_are_sorted=True),
        [9, 1, 9])
    with pytest.raises(ValueError, match="unknown gather/scatter mode"):
        x.at[0].set(1.0, mode="wrap")


@pytest.mark.slow  # long: runs in CI's second step
def test_at_grads_and_vmap():
    rng = np.random.default_rng(0)
    x, v = rng.normal(size=(4, 3)), rng.normal(size=(2, 3))
    i = np.array([2, 2])
    S = snp.asarray
    check_grads(lambda a, b: S(a).at[i].add(b), (x, v), order=2, modes=("fwd", "rev"))
    check_grads(lambda a, b: S(a).at[np.array([1, 3])].set(b), (x, v), order=1)
    check_grads(lambda a, b: S(a).at[np.array([1, 3]), 1:].multiply(b[:, 1:]),
                (x, v), order=1)
    check_batching(lambda a, b: S(a).at[i].add(b), (np.stack([x, x]),
                                                    np.stack([v, v])))
    check_batching(lambda a, j: S(a).at[j].set(0.0), (np.stack([x, x]),
                   np.array([[0, 1], [3, 3]])))


def test_take_along_axis_put_along_axis():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 4))
    i = np.argsort(x, axis=1)
    np.testing.assert_array_equal(snp.take_along_axis(x, i, axis=1),
                                  np.take_along_axis(x, i, axis=1))
    np.testing.assert_array_equal(snp.take(x, [[2, 0]], axis=1),
                                  np.take(x, [[2, 0]], axis=1))
    np.testing.assert_array_equal(snp.take(x, [5, -1], mode="wrap"),
                                  np.take(x, [5, -1], mode="wrap"))
    w = x.copy()
    np.put_along_axis(w, i[:, :1], -1.0, axis=1)
    np.testing.assert_array_equal(snp.put_along_axis(x, i[:, :1], -1.0, axis=1), w)
    with pytest.raises(IndexError, match="integer"):
        snp.take(x, np.array([0.5]))
    with pytest.raises(ValueError, match="same number of dimensions"):
        snp.take_along_axis(x, np.array([0]), axis=1)
