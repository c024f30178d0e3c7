"""Reductions over drawn axes with keepdims, and dot/matmul, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
import sciax.numpy as snp

SETTINGS = settings(max_examples=6, deadline=None)
X = np.random.default_rng(0).uniform(-2, 2, (2, 3, 4))
XI = np.random.default_rng(1).integers(-5, 5, (2, 3, 4)).astype(np.int32)
AXES = [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2), ()]


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min", "all", "any"])
@SETTINGS
@given(axis=st.sampled_from(AXES), keepdims=st.booleans(), integer=st.booleans())
def test_reductions_over_axes(name, axis, keepdims, integer):
    x = XI if integer else X
    want = getattr(np, name)(x, axis=axis, keepdims=keepdims)
    got = getattr(snp, name)(x, axis=axis, keepdims=keepdims)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)
    method = getattr(snp.asarray(x), name)(axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(np.asarray(method), want, rtol=1e-12)


def test_reductions_under_jit_and_dtypes():
    f = sciax.jit(lambda v: (v.sum(axis=1), v.mean(), v.max(0), snp.argmax(v, 2)))
    s, m, mx, am = f(X)
    np.testing.assert_allclose(s, X.sum(1))
    np.testing.assert_allclose(m, X.mean())
    np.testing.assert_allclose(mx, X.max(0))
    np.testing.assert_array_equal(am, X.argmax(2))
    b = np.array([True, False, True])
    assert snp.sum(b).dtype == np.sum(b).dtype and int(snp.sum(b)) == 2
    u = np.arange(4, dtype=np.uint8)
    assert snp.sum(u).dtype == np.sum(u).dtype
    assert snp.sum(u, dtype=np.float32).dtype == np.float32
    assert snp.mean(np.ones(3, np.float32)).dtype == np.float32


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_argmax_argmin(name, axis):
    for keepdims in (False, True):
        want = getattr(np, name)(XI, axis=axis, keepdims=keepdims)
        got = getattr(snp, name)(XI, axis=axis, keepdims=keepdims)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype


@pytest.mark.parametrize("axis", [None, 0, 2, -2])
def test_cumulative(axis):
    np.testing.assert_allclose(snp.cumsum(X, axis), np.cumsum(X, axis))
    np.testing.assert_allclose(snp.cumprod(X, axis), np.cumprod(X, axis))
    got = snp.cumsum(XI.astype(np.int8), axis)
    assert got.dtype == np.cumsum(XI.astype(np.int8), axis).dtype


def test_empty_reductions():
    e = np.zeros((0, 3))
    np.testing.assert_array_equal(snp.sum(e, 0), np.sum(e, 0))
    np.testing.assert_array_equal(snp.prod(e, 0), np.prod(e, 0))
    np.testing.assert_array_equal(snp.max(e, axis=1), np.max(e, axis=1))
    with pytest.raises(ValueError, match="zero-size array"):
        snp.max(e, axis=0)
    np.testing.assert_array_equal(snp.max(e, axis=0, initial=-1.0), [-1.0] * 3)
    with pytest.raises(ValueError, match="empty"):
        snp.argmax(e)


def test_axis_errors():
    with pytest.raises(np.exceptions.AxisError, match="axis 3 is out of bounds"):
        snp.sum(X, axis=3)
    with pytest.raises(ValueError, match="duplicate"):
        snp.sum(X, axis=(0, -3))
    with pytest.raises(np.exceptions.AxisError):
        snp.concatenate([X, X], axis=5)


MATMUL_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
                 ((5, 2, 3), (3, 4)), ((1, 2, 3), (4, 3, 2)), ((2, 1, 2, 3), (3, 3, 1)),
                 ((0, 3), (3, 2))]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul_and_dot(sa, sb):
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    np.testing.assert_allclose(snp.matmul(a, b), np.matmul(a, b), atol=1e-12)
    np.testing.assert_allclose(snp.asarray(a) @ b, a @ b, atol=1e-12)
    if len(sb) <= 2:
        np.testing.assert_allclose(snp.dot(a, b), np.dot(a, b), atol=1e-12)


def test_products_misc():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(2, 3)), rng.normal(size=(4, 3))
    np.testing.assert_allclose(snp.inner(a, b), np.inner(a, b))
    np.testing.assert_allclose(snp.outer(a, b), np.outer(a, b))
    z = a + 1j * a[::-1]
    np.testing.assert_allclose(snp.vdot(z, z), np.vdot(z, z))
    np.testing.assert_allclose(snp.dot(2.0, a), 2.0 * a)
    np.testing.assert_array_equal(snp.matmul(np.eye(2, dtype=bool), np.ones((2, 2), bool)),
                                  np.matmul(np.eye(2, dtype=bool), np.ones((2, 2), bool)))
    assert snp.matmul(np.ones((2, 2), np.float32), np.ones(2, np.int8)).dtype == np.float32
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4, 3\)|mismatch"):
        snp.matmul(a, b)
    with pytest.raises(ValueError, match="not aligned"):
        snp.dot(a, b)
    with pytest.raises(ValueError, match="at least 1 dimension"):
        snp.matmul(2.0, a)
