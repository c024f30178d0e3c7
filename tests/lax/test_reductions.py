"""lax reductions, argmax/argmin and cumulative reductions against NumPy, eagerly
and under jit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sciax
from sciax import lax

# every new shape compiles a small XLA program (~0.1 s), so keep examples few
SETTINGS = settings(max_examples=15, deadline=None)
EPS = {np.dtype(np.float32): np.finfo(np.float32).eps,
       np.dtype(np.float64): np.finfo(np.float64).eps,
       np.dtype(np.complex64): np.finfo(np.float32).eps}


def _elements(dtype: np.dtype, lo: float = -10, hi: float = 10):
    if dtype == np.bool_:
        return st.booleans()
    if dtype.kind == "i":
        return st.integers(int(lo), int(hi))
    # XLA CPU flushes subnormals to zero, NumPy keeps them: leave them out
    floats = st.floats(lo, hi, width=32, allow_subnormal=False)
    if dtype.kind == "c":
        return st.builds(complex, floats, floats)
    return floats


@st.composite
def array_and_axes(draw, dtype, lo=-10, hi=10, min_side=0):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=min_side,
                                  max_side=4))
    x = draw(hnp.arrays(dtype, shape, elements=_elements(np.dtype(dtype), lo, hi)))
    axes = tuple(draw(st.permutations(range(len(shape))))[:draw(
        st.integers(0, len(shape)))])
    return x, axes


def _check_sum_like(got, ref, x, axes, dtype):
    """Float sums of n terms err by at most about n * eps * sum(|x|)."""
    got = np.asarray(got)
    assert got.dtype == dtype and got.shape == np.shape(ref)
    if dtype.kind in "fc":
        n = int(np.prod([x.shape[a] for a in axes]))
        bound = 2 * max(n, 1) * EPS[dtype] * np.sum(np.abs(x.astype(np.complex128)),
                                                    axis=axes)
        np.testing.assert_array_less(np.abs(got - ref), bound + 1e-30)
    else:
        np.testing.assert_array_equal(got, ref)


# --- reduce_sum / reduce_prod ---------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
@SETTINGS
@given(data=st.data())
def test_reduce_sum(run, dtype, data):
    x, axes = data.draw(array_and_axes(dtype))
    got = run(lambda a: lax.reduce_sum(a, axes), x)
    ref = np.sum(x.astype(np.complex128 if x.dtype.kind == "c" else
                          np.float64 if x.dtype.kind == "f" else x.dtype), axis=axes)
    _check_sum_like(got, ref, x, axes, np.dtype(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
@SETTINGS
@given(data=st.data())
def test_reduce_prod(run, dtype, data):
    # factors in [0.5, 2] keep products of up to 64 factors finite; integer
    # products wrap mod 2**32 in both sciax and NumPy (dtype=int32), exactly
    x, axes = data.draw(array_and_axes(dtype, lo=0.5, hi=2) if dtype != np.int32
                        else array_and_axes(dtype, lo=-3, hi=3))
    got = np.asarray(run(lambda a: lax.reduce_prod(a, axes), x))
    assert got.dtype == dtype
    if np.dtype(dtype).kind in "fc":
        ref = np.prod(x.astype(np.complex128), axis=axes)
        n = int(np.prod([x.shape[a] for a in axes]))
        # each rounded multiply adds a relative error of at most eps (complex:
        # a few eps), so the product is within ~4 n eps relative
        np.testing.assert_allclose(got, ref, rtol=4 * max(n, 1) * EPS[np.dtype(dtype)])
    else:
        np.testing.assert_array_equal(got, np.prod(x, axis=axes, dtype=x.dtype))


# --- reduce_max / reduce_min ----------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.bool_])
@SETTINGS
@given(data=st.data())
def test_reduce_max_min(run, dtype, data):
    x, axes = data.draw(array_and_axes(dtype))
    if dtype == np.bool_:
        lo, hi = False, True
    elif np.dtype(dtype).kind == "i":
        lo, hi = np.iinfo(dtype).min, np.iinfo(dtype).max
    else:
        lo, hi = -np.inf, np.inf
    # an empty reduction gives the identity, NumPy's `initial`
    got_max, got_min = run(lambda a: (lax.reduce_max(a, axes), lax.reduce_min(a, axes)),
                           x)
    assert np.asarray(got_max).dtype == dtype
    np.testing.assert_array_equal(got_max, np.max(x, axis=axes, initial=lo))
    np.testing.assert_array_equal(got_min, np.min(x, axis=axes, initial=hi))


def test_reduce_max_min_propagate_nan(run):
    x = np.array([[1.0, np.nan, 3.0], [-np.inf, 2.0, np.inf]], np.float32)
    np.testing.assert_array_equal(run(lambda a: lax.reduce_max(a, (1,)), x),
                                  np.max(x, axis=1))
    np.testing.assert_array_equal(run(lambda a: lax.reduce_min(a, (1,)), x),
                                  np.min(x, axis=1))
    np.testing.assert_array_equal(run(lambda a: lax.reduce_max(a, (0,)), x),
                                  np.max(x, axis=0))


def test_reduce_max_min_complex_lexicographic(run):
    x = np.array([[1 + 5j, 2 - 1j, 2 + 0j], [0j, -1 + 9j, 0 - 1j]], np.complex64)
    for axes in [(0,), (1,), (0, 1)]:
        np.testing.assert_array_equal(run(lambda a: lax.reduce_max(a, axes), x),
                                      np.max(x, axis=axes))
        np.testing.assert_array_equal(run(lambda a: lax.reduce_min(a, axes), x),
                                      np.min(x, axis=axes))


# --- reduce_and / reduce_or / reduce_xor ---------------------------------------------

@pytest.mark.parametrize("dtype", [np.bool_, np.int32])
@SETTINGS
@given(data=st.data())
def test_reduce_logical_bitwise(run, dtype, data):
    x, axes = data.draw(array_and_axes(dtype, lo=-100, hi=100))
    outs = run(lambda a: [f(a, axes) for f in (lax.reduce_and, lax.reduce_or,
                                               lax.reduce_xor)], x)
    for got, ref in zip(outs, (np.bitwise_and, np.bitwise_or, np.bitwise_xor)):
        assert np.asarray(got).dtype == dtype
        np.testing.assert_array_equal(got, ref.reduce(x, axis=axes))
    if dtype == np.bool_:
        np.testing.assert_array_equal(outs[0], np.all(x, axis=axes))
        np.testing.assert_array_equal(outs[1], np.any(x, axis=axes))


def test_reduce_over_no_axes_is_identity(run):
    x = np.float32(2.5)
    assert float(run(lambda a: lax.reduce_sum(a, ()), x)) == 2.5
    y = np.arange(6, dtype=np.int32).reshape(2, 3)
    np.testing.assert_array_equal(run(lambda a: lax.reduce_max(a, ()), y), y)


def test_reduce_keeps_weak_type():
    from sciax._src.core.avals import ShapedArray

    out = lax.reduce_sum_p.abstract_eval(ShapedArray((3,), np.float64, True), axes=(0,))
    assert out.weak_type and out.shape == ()


@pytest.mark.parametrize("fn", [lax.reduce_sum, lax.reduce_max, lax.reduce_and])
def test_reduce_bad_axes(fn):
    x = np.zeros((2, 3), np.int32)
    with pytest.raises(ValueError, match=r"axis 2 .*out of range.*\(2, 3\)"):
        fn(x, (2,))
    with pytest.raises(ValueError, match=r"axis -1 .*non-negative"):
        fn(x, (-1,))
    with pytest.raises(ValueError, match=r"axes \(1, 1\) contain a duplicate"):
        fn(x, (1, 1))
    with pytest.raises(TypeError, match="axes must be a sequence of integers"):
        fn(x, (0.5,))
    with pytest.raises(ValueError, match="out of range"):
        sciax.jit(lambda a: fn(a, (5,)))(x)


def test_reduce_bad_dtypes():
    with pytest.raises(TypeError, match="reduce_sum does not accept dtype bool"):
        lax.reduce_sum(np.array([True]), (0,))
    with pytest.raises(TypeError, match="reduce_or does not accept dtype float64"):
        lax.reduce_or(np.array([1.0]), (0,))


# --- argmax / argmin ----------------------------------------------------------------

@st.composite
def array_and_axis(draw, elements, dtype):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    x = draw(hnp.arrays(dtype, shape, elements=elements))
    return x, draw(st.integers(0, len(shape) - 1))


# few distinct values make ties common; NaN must win as the first NaN does in NumPy
_ARG_CASES = {
    "float32": (st.sampled_from([0.0, 1.0, 2.0, -np.inf, np.inf, np.nan]), np.float32),
    "float64": (st.sampled_from([0.0, 1.0, 2.0, np.nan]), np.float64),
    "int32": (st.integers(-2, 2), np.int32),
    "bool": (st.booleans(), np.bool_),
    "complex64": (st.sampled_from([0j, 1 + 0j, 1j, 1 + 1j, complex(np.nan, 0),
                                   complex(0, np.nan)]), np.complex64),
}


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("case", list(_ARG_CASES))
@SETTINGS
@given(data=st.data())
def test_argmax_argmin(run, case, data):
    elements, dtype = _ARG_CASES[case]
    x, axis = data.draw(array_and_axis(elements, dtype))
    index_dtype = data.draw(st.sampled_from([np.int32, np.int64]))
    outs = run(lambda a: (lax.argmax(a, axis, index_dtype),
                          lax.argmin(a, axis, index_dtype)), x)
    for got, ref in zip(outs, (np.argmax, np.argmin)):
        assert np.asarray(got).dtype == index_dtype
        np.testing.assert_array_equal(got, ref(x, axis=axis))


def test_argmax_first_nan_and_first_tie():
    x = np.array([1.0, np.nan, 5.0, np.nan, 5.0])
    assert int(lax.argmax(x, 0, np.int32)) == 1
    assert int(lax.argmin(x, 0, np.int32)) == 1
    y = np.array([[3, 7, 7, 1, 1]], np.int32)
    assert np.asarray(lax.argmax(y, 1, np.int32))[0] == 1
    assert np.asarray(lax.argmin(y, 1, np.int32))[0] == 3


def test_argmax_bad_input():
    x = np.zeros((2, 3))
    with pytest.raises(ValueError, match=r"argmax: axis 2 .*out of range.*\(2, 3\)"):
        lax.argmax(x, 2, np.int32)
    with pytest.raises(ValueError, match=r"argmin: cannot take the argmin of an empty"):
        lax.argmin(np.zeros((2, 0)), 1, np.int32)
    with pytest.raises(TypeError, match="index_dtype must be an integer dtype"):
        lax.argmax(x, 0, np.float32)


# --- cumulative reductions ----------------------------------------------------------

@st.composite
def array_axis_reverse(draw, dtype, lo=-10, hi=10):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5))
    x = draw(hnp.arrays(dtype, shape, elements=_elements(np.dtype(dtype), lo, hi)))
    return x, draw(st.integers(0, len(shape) - 1)), draw(st.booleans())


def _accumulate(ref, x, axis, reverse):
    if not reverse:
        return ref(x, axis)
    return np.flip(ref(np.flip(x, axis), axis), axis)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
@SETTINGS
@given(data=st.data())
def test_cumsum(run, dtype, data):
    x, axis, reverse = data.draw(array_axis_reverse(dtype))
    got = np.asarray(run(lambda a: lax.cumsum(a, axis, reverse), x))
    assert got.dtype == dtype and got.shape == x.shape
    ref = _accumulate(lambda v, ax: np.cumsum(v, ax, dtype=v.dtype), x, axis, reverse)
    if np.dtype(dtype).kind in "fc":
        # a prefix of k terms errs by at most ~k eps sum(|terms|) <= n eps ...
        n = x.shape[axis]
        bound = 2 * n * EPS[np.dtype(dtype)] * _accumulate(
            lambda v, ax: np.cumsum(v, ax), np.abs(x.astype(np.complex128)), axis,
            reverse)
        np.testing.assert_array_less(np.abs(got - ref), bound + 1e-30)
    else:
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@SETTINGS
@given(data=st.data())
def test_cumprod(run, dtype, data):
    x, axis, reverse = data.draw(array_axis_reverse(dtype, 0.5, 2) if dtype != np.int32
                                 else array_axis_reverse(dtype, -3, 3))
    got = np.asarray(run(lambda a: lax.cumprod(a, axis, reverse), x))
    ref = _accumulate(lambda v, ax: np.cumprod(v, ax, dtype=v.dtype), x, axis, reverse)
    if np.dtype(dtype).kind == "f":
        # <= n rounded multiplies, each a relative error of at most eps
        np.testing.assert_allclose(got, ref, rtol=2 * max(x.shape[axis], 1)
                                   * EPS[np.dtype(dtype)])
    else:
        np.testing.assert_array_equal(got, ref)


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
@SETTINGS
@given(data=st.data())
def test_cummax_cummin(run, dtype, data):
    x, axis, reverse = data.draw(array_axis_reverse(dtype))
    outs = run(lambda a: (lax.cummax(a, axis, reverse), lax.cummin(a, axis, reverse)),
               x)
    for got, ufunc in zip(outs, (np.maximum, np.minimum)):
        np.testing.assert_array_equal(
            got, _accumulate(lambda v, ax: ufunc.accumulate(v, ax), x, axis, reverse))


def test_cummax_propagates_nan(run):
    x = np.array([1.0, 3.0, np.nan, 5.0, 2.0])
    np.testing.assert_array_equal(run(lambda a: lax.cummax(a), x),
                                  np.maximum.accumulate(x))
    np.testing.assert_array_equal(run(lambda a: lax.cummin(a, 0, True), x),
                                  np.minimum.accumulate(x[::-1])[::-1])


@SETTINGS
@given(data=st.data())
def test_cumlogsumexp(data):
    x, axis, reverse = data.draw(array_axis_reverse(np.float64, -50, 50))
    got = lax.cumlogsumexp(x, axis, reverse)
    ref = _accumulate(lambda v, ax: np.logaddexp.accumulate(v, ax), x, axis, reverse)
    # each logaddexp step is accurate to a few ulps of its result (|x| <= 50
    # plus log n), so errors grow to ~n steps of eps * 60
    np.testing.assert_allclose(got, ref, rtol=0, atol=10 * max(x.shape[axis], 1)
                               * 60 * EPS[np.dtype(np.float64)])


def test_cumlogsumexp_infinities():
    x = np.array([-np.inf, -np.inf, 0.0, np.inf, 1.0])
    np.testing.assert_array_equal(lax.cumlogsumexp(x), np.logaddexp.accumulate(x))


def test_cumulative_bad_input():
    x = np.zeros((2, 3))
    with pytest.raises(ValueError, match=r"cumsum: axis 2 .*out of range.*\(2, 3\)"):
        lax.cumsum(x, 2)
    with pytest.raises(ValueError, match=r"cumprod: axis -1 .*non-negative"):
        lax.cumprod(x, -1)
    with pytest.raises(ValueError, match="out of range"):
        lax.cummax(np.float64(1.0), 0)
    with pytest.raises(TypeError, match="cumlogsumexp does not accept dtype int32"):
        lax.cumlogsumexp(np.zeros(3, np.int32))
    with pytest.raises(TypeError, match="cumsum does not accept dtype bool"):
        lax.cumsum(np.zeros(3, bool))


def test_cumsum_lowers_to_reduce_window():
    text = sciax.jit(lambda a: lax.cumsum(a, 1)).lower(np.zeros((2, 5))).as_text()
    assert "stablehlo.reduce_window" in text
