"""lax.sort, sort_key_val and top_k against NumPy, eagerly and under jit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sciax
from sciax import lax

# every new shape compiles a small XLA program (~0.1 s), so keep examples few
SETTINGS = settings(max_examples=20, deadline=None)
nan, inf = np.nan, np.inf


# few distinct values make ties (stability), signed zeros and NaNs common
_CASES = {
    "float32": (st.sampled_from([0.0, -0.0, 1.0, -2.5, inf, -inf, nan]), np.float32),
    "float64": (st.sampled_from([0.0, -0.0, 1.0, 3.0, -1.0, nan, -nan]), np.float64),
    "int32": (st.integers(-3, 3), np.int32),
    "bool": (st.booleans(), np.bool_),
    "complex64": (st.sampled_from([0j, 1 + 0j, 1j, 1 - 1j, complex(nan, 0),
                                   complex(0, nan), complex(1, nan),
                                   complex(nan, nan), complex(nan, -1)]),
                  np.complex64),
}


@st.composite
def array_and_dimension(draw, elements, dtype):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5))
    x = draw(hnp.arrays(dtype, shape, elements=elements))
    return x, draw(st.integers(-len(shape), len(shape) - 1))


def _iota(shape, axis):
    """Positions along ``axis``, broadcast to ``shape`` (an argsort's payload)."""
    pos = np.arange(shape[axis], dtype=np.int32).reshape(
        [-1 if i == axis % len(shape) else 1 for i in range(len(shape))])
    return np.ascontiguousarray(np.broadcast_to(pos, shape))


@pytest.mark.parametrize("case", list(_CASES))
@SETTINGS
@given(data=st.data())
def test_sort_and_argsort_match_numpy_stable(run, case, data):
    elements, dtype = _CASES[case]
    x, dim = data.draw(array_and_dimension(elements, dtype))
    got = run(lambda a: lax.sort(a, dimension=dim), x)
    assert np.asarray(got).dtype == dtype
    np.testing.assert_array_equal(got, np.sort(x, axis=dim, kind="stable"))
    # the permutation tells -0.0 from 0.0 and checks stability exactly
    keys, perm = run(lambda a, i: lax.sort((a, i), dimension=dim, num_keys=1),
                     x, _iota(x.shape, dim))
    np.testing.assert_array_equal(perm, np.argsort(x, axis=dim, kind="stable"))
    np.testing.assert_array_equal(keys, np.sort(x, axis=dim, kind="stable"))


@SETTINGS
@given(data=st.data())
def test_sort_two_keys_lexicographic(data):
    n = data.draw(st.integers(0, 8))
    k1 = data.draw(hnp.arrays(np.int32, (n,), elements=st.integers(0, 2)))
    k2 = data.draw(hnp.arrays(np.float64, (n,),
                              elements=st.sampled_from([0.0, 1.0, nan])))
    vals = np.arange(n, dtype=np.float32)
    s1, s2, v = lax.sort((k1, k2, vals), num_keys=2)
    order = np.lexsort((k2, k1))   # lexsort: last key is primary; stable
    np.testing.assert_array_equal(s1, k1[order])
    np.testing.assert_array_equal(s2, k2[order])
    np.testing.assert_array_equal(v, vals[order])


def test_sort_returns_array_for_array_and_tuple_for_sequence():
    x = np.array([2.0, 1.0])
    assert isinstance(lax.sort(x), sciax.Array)
    out = lax.sort([x, x])
    assert isinstance(out, tuple) and len(out) == 2


def test_sort_unstable_sorts(run):
    x = np.array([3, 1, 2, 1, 0], np.int32)
    np.testing.assert_array_equal(run(lambda a: lax.sort(a, is_stable=False), x),
                                  np.sort(x))


def test_sort_key_val(run):
    keys = np.array([[3.0, nan, 1.0], [0.0, -1.0, -1.0]])
    vals = np.array([[0, 1, 2], [3, 4, 5]], np.int32)
    k, v = run(lambda a, b: lax.sort_key_val(a, b), keys, vals)
    np.testing.assert_array_equal(k, np.sort(keys, axis=-1))
    np.testing.assert_array_equal(v, np.take_along_axis(
        vals, np.argsort(keys, axis=-1, kind="stable"), axis=-1))
    k, v = lax.sort_key_val(keys, vals, dimension=0)
    np.testing.assert_array_equal(v, np.take_along_axis(
        vals, np.argsort(keys, axis=0, kind="stable"), axis=0))


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@SETTINGS
@given(data=st.data())
def test_top_k(run, dtype, data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=6))
    x = data.draw(hnp.arrays(dtype, shape, elements=st.integers(-3, 3)))
    k = data.draw(st.integers(0, shape[-1]))
    vals, idx = run(lambda a: lax.top_k(a, k), x)
    # largest first, ties by lower index: a stable argsort of -x
    order = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
    assert np.asarray(idx).dtype == np.int32
    np.testing.assert_array_equal(idx, order)
    np.testing.assert_array_equal(vals, np.take_along_axis(x, order, axis=-1))


def test_sort_bad_input():
    with pytest.raises(ValueError, match=r"same shape, got shapes \(3,\), \(4,\)"):
        lax.sort((np.zeros(3), np.zeros(4)))
    with pytest.raises(ValueError, match=r"same shape, got shapes \(2, 3\), \(3, 2\)"):
        sciax.jit(lambda a, b: lax.sort((a, b)))(np.zeros((2, 3)), np.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"dimension 2 is out of range .*rank 2"):
        lax.sort(np.zeros((2, 3)), dimension=2)
    with pytest.raises(ValueError, match=r"rank 1 or more"):
        lax.sort(np.float64(1.0))
    with pytest.raises(ValueError, match="num_keys must be between 1 and .*2.*got 3"):
        lax.sort((np.zeros(3), np.zeros(3)), num_keys=3)
    with pytest.raises(ValueError, match="at least one operand"):
        lax.sort(())


def test_top_k_bad_input():
    with pytest.raises(ValueError, match=r"k=4 .*last axis of the operand shape \(2, 3\)"):
        lax.top_k(np.zeros((2, 3)), 4)
    with pytest.raises(TypeError, match="top_k does not accept dtype complex64"):
        lax.top_k(np.zeros(3, np.complex64), 1)
    with pytest.raises(ValueError, match=r"rank 1 or more"):
        lax.top_k(np.float32(1.0), 1)


def test_top_k_nan_counts_as_largest():
    vals, idx = lax.top_k(np.array([1.0, nan, -inf, 3.0, nan]), 3)
    np.testing.assert_array_equal(vals, [nan, nan, 3.0])
    np.testing.assert_array_equal(idx, [1, 4, 3])
