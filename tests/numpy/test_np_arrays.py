"""Creation functions, Array/Tracer operators and methods, basic indexing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
import sciax.numpy as snp


def test_array_and_asarray():
    assert snp.array([[1, 2], [3, 4]]).dtype == np.int64
    assert snp.array([1, 2.5]).dtype == np.float64
    assert snp.array(np.ones(2, np.float32)).dtype == np.float32
    assert snp.array([1, 2], dtype=snp.float32).dtype == np.float32
    x = snp.arange(3)
    assert snp.asarray(x) is x
    assert snp.array(2.0).weak_type
    np.testing.assert_array_equal(snp.array([x, x + 1]), [[0, 1, 2], [1, 2, 3]])
    assert snp.array(3, ndmin=2).shape == (1, 1)
    for bad in (["a", "b"], np.array(["x"]), [object()], None, {"k": 1}):
        with pytest.raises(TypeError, match="array"):
            snp.array(bad)
    with pytest.raises(NotImplementedError, match="order"):
        snp.array([1], order="F")


def test_filled_creation():
    np.testing.assert_array_equal(snp.zeros((2, 3)), np.zeros((2, 3)))
    np.testing.assert_array_equal(snp.ones(3, dtype=snp.int8), np.ones(3, np.int8))
    assert snp.ones(3, dtype=snp.int8).dtype == np.int8
    np.testing.assert_array_equal(snp.full((2,), 7), np.full((2,), 7))
    assert snp.full((2,), 7).dtype == np.full((2,), 7).dtype
    np.testing.assert_array_equal(snp.full((2, 3), np.arange(3)), np.full((2, 3), np.arange(3)))
    np.testing.assert_array_equal(snp.empty(0), np.empty(0))
    x = np.ones((2, 2), np.float32)
    for name in ("zeros_like", "ones_like"):
        got = getattr(snp, name)(x)
        assert got.dtype == np.float32 and got.shape == (2, 2)
    np.testing.assert_array_equal(snp.full_like(x, 3, dtype=int), np.full_like(x, 3, int))
    with pytest.raises(ValueError, match="negative"):
        snp.zeros((2, -1))
    with pytest.raises(TypeError, match="shape"):
        snp.zeros("abc")


@settings(max_examples=25, deadline=None)
@given(start=st.integers(-5, 5), stop=st.integers(-5, 10), step=st.sampled_from([1, 2, 3, -1, -2]))
def test_arange_ints(start, stop, step):
    want = np.arange(start, stop, step)
    got = snp.arange(start, stop, step)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.slow  # long: runs in CI's second step
def test_arange_floats_linspace_eye():
    for args in [(5.0,), (0.5, 3), (1, 2, 0.1), (3, 0, -0.7)]:
        np.testing.assert_array_equal(snp.arange(*args), np.arange(*args))
    assert snp.arange(4, dtype=snp.float32).dtype == np.float32
    with pytest.raises(ValueError, match="step"):
        snp.arange(0, 3, 0)
    for kw in [dict(num=5), dict(num=1), dict(num=0), dict(num=4, endpoint=False),
               dict(num=7, dtype=int)]:
        np.testing.assert_allclose(snp.linspace(-1, 2, **kw), np.linspace(-1, 2, **kw),
                                   rtol=1e-15)
    y, step = snp.linspace(0, 1, 5, retstep=True)
    assert float(step) == 0.25
    np.testing.assert_allclose(snp.linspace([0, 1], 2, 3, axis=1),
                               np.linspace([0, 1], 2, 3, axis=1))
    assert snp.linspace(np.float32(0), 1, 3).dtype == np.float32
    for args in [(3,), (2, 4), (4, 3, -1), (3, 3, 5)]:
        np.testing.assert_array_equal(snp.eye(*args), np.eye(*args))
    np.testing.assert_array_equal(snp.identity(2, dtype=int), np.identity(2, int))


def test_shape_functions():
    x = np.arange(24).reshape(2, 3, 4)
    np.testing.assert_array_equal(snp.reshape(x, (4, -1)), x.reshape(4, -1))
    np.testing.assert_array_equal(snp.ravel(x), x.ravel())
    np.testing.assert_array_equal(snp.transpose(x, (2, 0, 1)), x.transpose(2, 0, 1))
    np.testing.assert_array_equal(snp.swapaxes(x, 0, -1), np.swapaxes(x, 0, -1))
    np.testing.assert_array_equal(snp.moveaxis(x, 0, -1), np.moveaxis(x, 0, -1))
    np.testing.assert_array_equal(snp.moveaxis(x, (0, 1), (2, 0)), np.moveaxis(x, (0, 1), (2, 0)))
    np.testing.assert_array_equal(snp.expand_dims(x, (0, -1)), np.expand_dims(x, (0, -1)))
    np.testing.assert_array_equal(snp.squeeze(np.ones((1, 2, 1))), np.ones(2))
    np.testing.assert_array_equal(snp.broadcast_to(np.arange(3), (2, 3)),
                                  np.broadcast_to(np.arange(3), (2, 3)))
    a, b = np.ones((2, 3)), np.zeros((1, 3), np.float32)
    np.testing.assert_array_equal(snp.concatenate([a, b]), np.concatenate([a, b]))
    np.testing.assert_array_equal(snp.concatenate([a, b], axis=None),
                                  np.concatenate([a, b], axis=None))
    np.testing.assert_array_equal(snp.stack([a, a], axis=-1), np.stack([a, a], axis=-1))
    np.testing.assert_array_equal(snp.hstack([a, a]), np.hstack([a, a]))
    np.testing.assert_array_equal(snp.hstack([np.ones(2), np.zeros(1)]),
                                  np.hstack([np.ones(2), np.zeros(1)]))
    np.testing.assert_array_equal(snp.vstack([np.ones(3), a]), np.vstack([np.ones(3), a]))
    assert (snp.shape(x), snp.ndim(x), snp.size(x), snp.size(x, 1)) == ((2, 3, 4), 3, 24, 3)
    with pytest.raises(ValueError, match=r"\(3,\).*\(2, 4\)"):
        snp.broadcast_to(np.arange(3), (2, 4))
    with pytest.raises(ValueError, match="cannot reshape"):
        snp.reshape(x, (5, -1))
    with pytest.raises(NotImplementedError, match="order"):
        snp.reshape(x, (24,), order="F")
    with pytest.raises(ValueError, match="must match exactly"):
        snp.concatenate([a, np.ones((2, 2))])
    with pytest.raises(ValueError, match="same shape"):
        snp.stack([a, b])
    with pytest.raises(ValueError, match="size not equal to one"):
        snp.squeeze(x, 0)


def test_dtype_objects_and_constants():
    assert np.dtype(snp.float32) == np.float32
    assert snp.float32 == np.float32 and snp.zeros(2, snp.int16).dtype == np.int16
    assert snp.float32(2.5).dtype == np.float32 and float(snp.float32(2.5)) == 2.5
    assert snp.finfo(snp.float32).eps == np.finfo(np.float32).eps
    assert snp.finfo(snp.bfloat16).bits == 16
    assert snp.iinfo(snp.int8).min == -128
    assert snp.issubdtype(snp.bfloat16, snp.floating)
    assert snp.pi == np.pi and np.isinf(snp.inf) and np.isnan(snp.nan)
    assert snp.newaxis is None


def _both(fn, *args):
    return fn(*args), sciax.jit(fn)(*args)


@pytest.mark.slow  # long: runs in CI's second step
def test_operators_match_numpy():
    a = np.arange(1, 7).reshape(2, 3)
    b = np.array([2, -3, 4])
    x, y = snp.asarray(a), snp.asarray(b)
    ops = [lambda p, q: p + q, lambda p, q: p - q, lambda p, q: p * q,
           lambda p, q: p / q, lambda p, q: p // q, lambda p, q: p % q,
           lambda p, q: p ** 2, lambda p, q: 2 ** q.clip(0, 4), lambda p, q: p & q,
           lambda p, q: p | q, lambda p, q: p ^ q, lambda p, q: p << 1,
           lambda p, q: p >> 1, lambda p, q: p == q, lambda p, q: p != q,
           lambda p, q: p < q, lambda p, q: p <= q, lambda p, q: p > q,
           lambda p, q: p >= q, lambda p, q: -p, lambda p, q: +p, lambda p, q: abs(q),
           lambda p, q: ~p, lambda p, q: p @ abs(q), lambda p, q: 1.5 - p,
           lambda p, q: 7 // q, lambda p, q: 7 % q, lambda p, q: [1, 2, 3] + p]
    for op in ops:
        want = op(a, b)
        for got in _both(op, x, y):
            np.testing.assert_allclose(np.asarray(got), want)
            assert np.asarray(got).dtype == np.asarray(want).dtype


@pytest.mark.slow  # long: runs in CI's second step
def test_methods_match_numpy():
    a = np.arange(24.0).reshape(2, 3, 4) - 5
    x = snp.asarray(a)
    checks = [
        (lambda v: v.sum(axis=1), lambda v: v.sum(axis=1)),
        (lambda v: v.mean(), lambda v: v.mean()),
        (lambda v: v.max(axis=(0, 2), keepdims=True), lambda v: v.max(axis=(0, 2), keepdims=True)),
        (lambda v: v.min(0), lambda v: v.min(0)),
        (lambda v: v.prod(-1), lambda v: v.prod(-1)),
        (lambda v: v.all(1), lambda v: v.all(1)), (lambda v: v.any(), lambda v: v.any()),
        (lambda v: v.argmax(1), lambda v: v.argmax(1)),
        (lambda v: v.argmin(), lambda v: v.argmin()),
        (lambda v: v.reshape(4, 6), lambda v: v.reshape(4, 6)),
        (lambda v: v.reshape((4, -1)), lambda v: v.reshape((4, -1))),
        (lambda v: v.transpose(), lambda v: v.transpose()),
        (lambda v: v.transpose(1, 0, 2), lambda v: v.transpose(1, 0, 2)),
        (lambda v: v.T, lambda v: v.T), (lambda v: v.mT, lambda v: v.mT),
        (lambda v: v.ravel(), lambda v: v.ravel()), (lambda v: v.flatten(), lambda v: v.flatten()),
        (lambda v: v[:1].squeeze(), lambda v: v[:1].squeeze()),
        (lambda v: v.astype(np.int32), lambda v: v.astype(np.int32)),
        (lambda v: v.clip(0, 3), lambda v: v.clip(0, 3)),
        (lambda v: v[0].dot(v[1].T), lambda v: v[0].dot(v[1].T)),
        (lambda v: v.cumsum(1), lambda v: v.cumsum(1)),
        (lambda v: (v + 1j * v).conj(), lambda v: (v + 1j * v).conj()),
        (lambda v: (v + 2j).imag, lambda v: (v + 2j).imag),
        (lambda v: v.real, lambda v: v.real),
        (lambda v: v.round(1), lambda v: v.round(1)),
    ]
    for ours, ref in checks:
        want = ref(a)
        for got in _both(ours, x):
            np.testing.assert_allclose(np.asarray(got), want)
            assert np.asarray(got).dtype == np.asarray(want).dtype


def test_operators_reject_foreign_types():
    x = snp.arange(3)
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x + None
    assert (x == None) is False  # noqa: E711
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)


INDICES = [0, -1, 1, slice(None), slice(1, None), slice(None, None, -1), slice(-1, 0, -2),
           slice(5, 1, -1), slice(0, 0), slice(None, None, 2), None, Ellipsis]


@settings(max_examples=30, deadline=None)
@given(idx=st.lists(st.sampled_from(INDICES), min_size=0, max_size=4))
def test_basic_indexing_matches_numpy(idx):
    a = np.arange(60).reshape(3, 4, 5)
    idx = tuple(idx)
    try:
        want = a[idx]
    except IndexError:
        with pytest.raises(IndexError):
            snp.asarray(a)[idx]
        return
    np.testing.assert_array_equal(snp.asarray(a)[idx], want)


def test_indexing_under_jit_and_traced_index():
    a = np.arange(12.0).reshape(3, 4)
    f = sciax.jit(lambda v: v[1:, ::-2][..., None])
    np.testing.assert_array_equal(f(a), a[1:, ::-2][..., None])
    g = sciax.jit(lambda v, i: v[i, 1:])
    for i in (0, 2, -1):
        np.testing.assert_array_equal(g(a, i), a[i, 1:])
    assert [float(r.sum()) for r in snp.asarray(a)] == list(a.sum(1))


def test_bad_indices():
    x = snp.arange(6).reshape(2, 3)
    with pytest.raises(IndexError, match="out of bounds"):
        x[2]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="valid indices"):
        x[1.5]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    np.testing.assert_array_equal(np.asarray(x[np.array([0, 1])]),
                                  np.asarray(x)[np.array([0, 1])])
    with pytest.raises(TypeError, match="immutable"):
        x[0] = 1
