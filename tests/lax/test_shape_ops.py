"""lax shape primitives (transpose, squeeze, rev, pad, concatenate, slice,
dynamic_slice, dynamic_update_slice, iota) and their wrappers against NumPy,
eagerly and under jit.

These operations only move or copy elements, so every comparison is exact.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sciax
from sciax import lax

SETTINGS = settings(max_examples=20, deadline=None)
DTYPES = [np.dtype(t) for t in ("float32", "float64", "int32", "bool", "complex64")]


def _elements(dtype: np.dtype):
    if dtype == np.bool_:
        return st.booleans()
    ints = st.integers(-50, 50)
    if dtype.kind == "c":
        return st.builds(complex, ints, ints)
    return ints


@st.composite
def arrays(draw, min_dims=0, max_dims=3, min_side=0, max_side=4, dtype=None):
    dtype = draw(st.sampled_from(DTYPES)) if dtype is None else np.dtype(dtype)
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims,
                                  min_side=min_side, max_side=max_side))
    return draw(hnp.arrays(dtype, shape, elements=_elements(dtype)))


def _check(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    np.testing.assert_array_equal(got, ref)


# --- transpose, squeeze, expand_dims, rev ------------------------------------------

@SETTINGS
@given(data=st.data())
def test_transpose(run, data):
    x = data.draw(arrays())
    perm = tuple(data.draw(st.permutations(range(x.ndim))))
    _check(run(lambda x: lax.transpose(x, perm), x), np.transpose(x, perm))


@SETTINGS
@given(data=st.data())
def test_squeeze(run, data):
    x = data.draw(arrays(max_side=2))
    ones = [d for d in range(x.ndim) if x.shape[d] == 1]
    dims = data.draw(st.lists(st.sampled_from(ones), unique=True) if ones
                     else st.just([]))
    dims = tuple(d - x.ndim if data.draw(st.booleans()) else d for d in dims)
    _check(run(lambda x: lax.squeeze(x, dims), x), np.squeeze(x, dims))


@SETTINGS
@given(data=st.data())
def test_expand_dims(run, data):
    x = data.draw(arrays(max_dims=2))
    n = data.draw(st.integers(1, 2))
    out_ndim = x.ndim + n
    dims = tuple(data.draw(st.lists(st.integers(-out_ndim, out_ndim - 1), min_size=n,
                                    max_size=n, unique_by=lambda d: d % out_ndim)))
    _check(run(lambda x: lax.expand_dims(x, dims), x), np.expand_dims(x, dims))


@SETTINGS
@given(data=st.data())
def test_rev(run, data):
    x = data.draw(arrays())
    dims = tuple(data.draw(st.permutations(range(x.ndim)))[:data.draw(
        st.integers(0, x.ndim))])
    _check(run(lambda x: lax.rev(x, dims), x), np.flip(x, dims))


# --- pad -----------------------------------------------------------------------------

def _np_pad(x: np.ndarray, value, config) -> np.ndarray:
    """Interior padding by scattering into a larger array, then edge padding
    (negative edges slice instead)."""
    for axis, (lo, hi, interior) in enumerate(config):
        n = x.shape[axis]
        size = n + max(n - 1, 0) * interior
        out = np.full((*x.shape[:axis], size, *x.shape[axis + 1:]), value, x.dtype)
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(0, size, interior + 1)
        out[tuple(idx)] = x
        widths = [(0, 0)] * x.ndim
        widths[axis] = (max(lo, 0), max(hi, 0))
        out = np.pad(out, widths, constant_values=value)
        idx[axis] = slice(-min(lo, 0), out.shape[axis] + min(hi, 0))
        x = out[tuple(idx)]
    return x


@SETTINGS
@given(data=st.data())
def test_pad(run, data):
    x = data.draw(arrays())
    config = []
    for n in x.shape:
        interior = data.draw(st.integers(0, 2))
        base = n + max(n - 1, 0) * interior
        lo = data.draw(st.integers(-base, 3))
        hi = data.draw(st.integers(-(base + lo), 3))
        config.append((lo, hi, interior))
    value = x.dtype.type(7) if x.dtype != np.bool_ else np.True_
    got = run(lambda x, v: lax.pad(x, v, config), x, np.asarray(value))
    _check(got, _np_pad(x, value, config))


def test_pad_python_scalar_value_and_example():
    _check(lax.pad(np.array([1, 2, 3], np.int32), 0, [(1, -1, 1)]),
           np.array([0, 1, 0, 2, 0], np.int32))
    _check(lax.pad(np.float32(2.0), 1.0, []), np.float32(2.0))


# --- concatenate ---------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_concatenate(run, data):
    x = data.draw(arrays(min_dims=1))
    axis = data.draw(st.integers(0, x.ndim - 1))
    k = data.draw(st.integers(1, 3))
    xs = [x]
    for _ in range(k - 1):
        shape = list(x.shape)
        shape[axis] = data.draw(st.integers(0, 3))
        xs.append(data.draw(hnp.arrays(x.dtype, shape, elements=_elements(x.dtype))))
    _check(run(lambda *xs: lax.concatenate(xs, axis), *xs), np.concatenate(xs, axis))


# --- slice ---------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_slice(run, data):
    x = data.draw(arrays())
    start, limit, strides = [], [], []
    for n in x.shape:
        lo = data.draw(st.integers(0, n))
        start.append(lo)
        limit.append(data.draw(st.integers(lo, n)))
        strides.append(data.draw(st.integers(1, 3)))
    use_strides = data.draw(st.booleans())
    got = run(lambda x: lax.slice(x, start, limit, strides if use_strides else None), x)
    ref = x[tuple(slice(a, b, s if use_strides else 1)
                  for a, b, s in zip(start, limit, strides))]
    _check(got, ref)


def test_slice_in_dim_and_index_in_dim(run):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    _check(run(lambda x: lax.slice_in_dim(x, 1, None, 2, axis=-1), x), x[:, :, 1::2])
    _check(run(lambda x: lax.slice_in_dim(x, -2, -1, axis=1), x), x[:, -2:-1])
    _check(run(lambda x: lax.index_in_dim(x, -1, axis=1, keepdims=False), x), x[:, -1])
    _check(run(lambda x: lax.index_in_dim(x, 0, axis=0), x), x[:1])


# --- dynamic_slice / dynamic_update_slice --------------------------------------------

def _np_start(s: int, n: int, size: int) -> int:
    """JAX's default: negative indices count from the end, then XLA's clamp."""
    s = s + n if s < 0 else s
    return min(max(s, 0), n - size)


@SETTINGS
@given(data=st.data())
def test_dynamic_slice(run, data):
    x = data.draw(arrays())
    sizes = [data.draw(st.integers(0, n)) for n in x.shape]
    starts = [np.int32(data.draw(st.integers(-n - 2, n + 2))) for n in x.shape]
    got = run(lambda x, *idx: lax.dynamic_slice(x, idx, sizes), x, *starts)
    ref = x[tuple(slice(_np_start(int(s), n, k), _np_start(int(s), n, k) + k)
                  for s, n, k in zip(starts, x.shape, sizes))]
    _check(got, ref)
    # Python int indices, and a 1-d index array
    _check(lax.dynamic_slice(x, [int(s) for s in starts], sizes), ref)
    if x.ndim:
        _check(run(lambda x, i: lax.dynamic_slice(x, i, sizes), x,
                   np.array(starts, np.int32)), ref)


@SETTINGS
@given(data=st.data())
def test_dynamic_update_slice(run, data):
    x = data.draw(arrays())
    sizes = [data.draw(st.integers(0, n)) for n in x.shape]
    update = data.draw(hnp.arrays(x.dtype, sizes, elements=_elements(x.dtype)))
    starts = [np.int64(data.draw(st.integers(-n - 2, n + 2))) for n in x.shape]
    got = run(lambda x, u, *idx: lax.dynamic_update_slice(x, u, idx), x, update,
              *starts)
    ref = x.copy()
    ref[tuple(slice(_np_start(int(s), n, k), _np_start(int(s), n, k) + k)
              for s, n, k in zip(starts, x.shape, sizes))] = update
    _check(got, ref)


def test_dynamic_slice_no_negative_wrap_and_in_dim(run):
    x = np.arange(10, dtype=np.float64)
    got = run(lambda x, i: lax.dynamic_slice(x, (i,), (3,),
                                             allow_negative_indices=False),
              x, np.int32(-2))
    _check(got, x[:3])
    _check(run(lambda x, i: lax.dynamic_slice_in_dim(x, i, 2), x, np.int32(4)), x[4:6])
    _check(run(lambda x, i: lax.dynamic_index_in_dim(x, i, keepdims=False), x,
               np.int32(12)), x[9])
    _check(run(lambda x, i: lax.dynamic_update_slice_in_dim(
        x, np.zeros(2), i, axis=0), x, np.int32(1)),
        np.concatenate([x[:1], np.zeros(2), x[3:]]))


# --- iota, broadcast, full ------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "uint8"])
def test_iota(run, dtype):
    _check(run(lambda: lax.iota(dtype, 5)), np.arange(5, dtype=dtype))
    _check(run(lambda: lax.iota(dtype, 0)), np.arange(0, dtype=dtype))
    ref = np.broadcast_to(np.arange(3, dtype=dtype)[:, None], (3, 2))
    _check(run(lambda: lax.broadcasted_iota(dtype, (3, 2), 0)), ref)


@SETTINGS
@given(x=arrays(max_dims=2), sizes=hnp.array_shapes(min_dims=0, max_dims=2,
                                                       min_side=0, max_side=3))
def test_broadcast(run, x, sizes):
    _check(run(lambda x: lax.broadcast(x, sizes), x),
           np.broadcast_to(x, (*sizes, *x.shape)))


def test_full_and_full_like(run):
    _check(run(lambda: lax.full((2, 3), 1.5, np.float32)),
           np.full((2, 3), 1.5, np.float32))
    _check(run(lambda: lax.full((), True)), np.array(True))
    _check(run(lambda: lax.full((0, 2), 3, np.int32)), np.zeros((0, 2), np.int32))
    x = np.zeros((2, 2), np.complex64)
    _check(run(lambda x: lax.full_like(x, 2), x), np.full((2, 2), 2, np.complex64))
    _check(run(lambda x: lax.full_like(x, 2, np.int32, (3,)), x),
           np.full(3, 2, np.int32))
    _check(run(lambda x: lax.zeros_like_array(x), x), np.zeros_like(x))
    _check(run(lambda x: lax.ones_like_array(x), x), np.ones_like(x))
    # dtype=None keeps the weak type of a Python scalar, as in JAX
    assert lax.full((2,), 3.0).weak_type
    assert not lax.full((2,), 3.0, "float64").weak_type
    assert lax.full((2,), 3.0).dtype == np.float64


def test_identity_transpose_and_empty_rev_emit_nothing():
    jaxpr = sciax.make_jaxpr(lambda x: lax.rev(lax.transpose(x, (0, 1)), ()))(
        np.zeros((2, 3)))
    assert not jaxpr.jaxpr.eqns


def test_index_operands_keep_operand_weak_type():
    x = lax.full((4,), 1.0)
    assert lax.dynamic_slice(x, (np.int32(1),), (2,)).weak_type


# --- bad input -----------------------------------------------------------------------

def _raises(exc, match, f, *args):
    with pytest.raises(exc, match=match):
        f(*args)
    with pytest.raises(exc, match=match):  # the same check runs while tracing
        sciax.jit(f)(*args)


def test_errors_transpose_squeeze_rev():
    x = np.zeros((2, 1, 3), np.float32)
    _raises(ValueError, r"transpose: permutation \(0, 0, 1\)",
            lambda x: lax.transpose(x, (0, 0, 1)), x)
    _raises(ValueError, r"transpose: permutation \(1, 0\).*\(2, 1, 3\)",
            lambda x: lax.transpose(x, (1, 0)), x)
    _raises(ValueError, r"squeeze: cannot squeeze axes \(0,\).*size 1",
            lambda x: lax.squeeze(x, (0,)), x)
    _raises(ValueError, "squeeze: dimensions .* out of range",
            lambda x: lax.squeeze(x, (3,)), x)
    _raises(ValueError, "expand_dims: dimensions .* repeated",
            lambda x: lax.expand_dims(x, (0, 0)), x)
    _raises(ValueError, "rev: dimensions", lambda x: lax.rev(x, (0, 0)), x)
    _raises(ValueError, "rev: dimensions", lambda x: lax.rev(x, (3,)), x)


def test_concatenate_with_empty_operands_in_one_program():
    # zero-size operands are dropped in the lowering (an XLA CPU abort was
    # triggered by slicing a concatenation that had one)
    a, e = np.arange(2.0), np.zeros(0)
    got = sciax.jit(lambda a, e: (lax.slice(lax.concatenate([a, e], 0), (2,), (2,)),
                                  lax.concatenate([e, a, e], 0),
                                  lax.concatenate([e, e], 0)))(a, e)
    assert [np.asarray(g).shape for g in got] == [(0,), (2,), (0,)]
    np.testing.assert_array_equal(np.asarray(got[1]), a)
    wide = sciax.jit(lambda z: lax.concatenate([z, z], 1))(np.zeros((0, 3)))
    assert wide.shape == (0, 6)


def test_errors_concatenate():
    a, b = np.zeros((2, 3), np.float32), np.zeros((3, 3), np.float32)
    _raises(ValueError, r"concatenate: operand shapes \[\(2, 3\), \(3, 3\)\]",
            lambda a, b: lax.concatenate([a, b], 1), a, b)
    _raises(TypeError, "concatenate: operands must have equal dtypes, got float32, "
            "int32", lambda a, b: lax.concatenate([a, b], 0), a, b.astype(np.int32))
    _raises(ValueError, "concatenate: dimension 2 out of range",
            lambda a, b: lax.concatenate([a, b], 2), a, b)
    with pytest.raises(ValueError, match="concatenate: needs at least one operand"):
        lax.concatenate([], 0)


def test_errors_slice_and_pad():
    x = np.zeros((4, 5), np.int32)
    _raises(ValueError, r"slice: indices out of range.*\(4, 5\)",
            lambda x: lax.slice(x, (0, 0), (5, 5)), x)
    _raises(ValueError, "slice: indices out of range",
            lambda x: lax.slice(x, (3, 0), (2, 5)), x)
    _raises(ValueError, "slice: start_indices .* one entry per axis",
            lambda x: lax.slice(x, (0,), (1,)), x)
    _raises(ValueError, "slice: strides .* positive",
            lambda x: lax.slice(x, (0, 0), (1, 1), (0, 1)), x)
    _raises(ValueError, "pad: interior padding must be >= 0",
            lambda x: lax.pad(x, 0, [(0, 0, -1), (0, 0, 0)]), x)
    _raises(ValueError, "pad: padding_config .* negative dimension",
            lambda x: lax.pad(x, 0, [(-3, -2, 0), (0, 0, 0)]), x)
    _raises(ValueError, "pad: padding_config has 1 entries",
            lambda x: lax.pad(x, 0, [(0, 0, 0)]), x)
    _raises(TypeError, "pad: padding_value dtype float32 must equal the operand dtype "
            "int32", lambda x: lax.pad(x, np.float32(0), [(0, 0, 0)] * 2), x)


def test_errors_dynamic_slice_and_iota():
    x = np.zeros((4, 5), np.float32)
    _raises(ValueError, r"dynamic_slice: slice_sizes \(5, 1\)",
            lambda x: lax.dynamic_slice(x, (0, 0), (5, 1)), x)
    _raises(ValueError, "dynamic_slice: got 1 start indices",
            lambda x: lax.dynamic_slice(x, (0,), (1, 1)), x)
    _raises(TypeError, "dynamic_slice: start indices must be integer scalars",
            lambda x: lax.dynamic_slice(x, (np.float32(0), 0), (1, 1)), x)
    _raises(ValueError, r"dynamic_update_slice: update shape \(5, 1\)",
            lambda x: lax.dynamic_update_slice(x, np.zeros((5, 1), np.float32),
                                               (0, 0)), x)
    _raises(TypeError, "dynamic_update_slice: update dtype int32",
            lambda x: lax.dynamic_update_slice(x, np.zeros((1, 1), np.int32),
                                               (0, 0)), x)
    with pytest.raises(TypeError, match="iota does not accept dtype bool"):
        lax.iota(bool, 3)
    with pytest.raises(ValueError, match="iota: dimension 2 out of range"):
        lax.broadcasted_iota(np.int32, (2, 2), 2)
    with pytest.raises(ValueError, match="full: fill_value must be a scalar"):
        lax.full((2,), np.zeros(2))
