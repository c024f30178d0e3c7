"""sciax.numpy ufuncs against NumPy: broadcasting on drawn shape pairs (0-d and
empty included), eagerly and under jit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
import sciax.numpy as snp

# Each eager op compiles once per shape (about 0.1 s on CPU): few examples.
SETTINGS = settings(max_examples=3, deadline=None)


# A small pool of shape pairs (0-d, empty, size-1 and rank-changing broadcasts):
# eager ops compile once per shape, so drawing from a pool keeps the suite fast.
SHAPE_PAIRS = [((), ()), ((3,), ()), ((), (2, 3)), ((2, 1), (3,)), ((0,), (1,)),
               ((2, 0), (2, 1)), ((1, 3), (2, 1)), ((4,), (4,))]
SHAPES = [(), (3,), (0,), (2, 3), (1, 0, 2)]
_jitted: dict = {}


def _jit(name, fn):
    if name not in _jitted:
        _jitted[name] = sciax.jit(fn)
    return _jitted[name]


def _values(rng, shape, dtype, positive=False):
    if np.dtype(dtype) == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        lo = 1 if positive else (-5 if np.issubdtype(dtype, np.signedinteger) else 0)
        return rng.integers(lo, 6, shape).astype(dtype)
    x = rng.uniform(0.5 if positive else -3, 3, shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.uniform(-3, 3, shape)
    return x.astype(dtype)


def _tol(dtype):
    return {np.float32: 1e-5, np.complex64: 1e-5, np.float16: 1e-2}.get(
        np.dtype(dtype).type, 1e-12)


def _check(got, want, dtype=None, check_dtype=True):
    got_np = np.asarray(got)
    assert got_np.shape == np.shape(want)
    if check_dtype:
        assert got_np.dtype == np.asarray(want).dtype, (got_np.dtype, np.asarray(want).dtype)
    tol = _tol(dtype or np.asarray(want).dtype)
    np.testing.assert_allclose(got_np, want, rtol=tol, atol=tol)


# name, numpy reference, dtypes, needs a nonzero (positive) second operand
BINARY = [
    ("add", np.add, ["int32", "float32", "float64", "complex64", "bool"], False),
    ("subtract", np.subtract, ["int64", "float64", "complex128"], False),
    ("multiply", np.multiply, ["int8", "uint8", "float32", "complex64", "bool"], False),
    ("divide", np.divide, ["float32", "float64", "complex128"], True),
    ("floor_divide", np.floor_divide, ["int32", "float64"], True),
    ("remainder", np.remainder, ["int32", "int64", "float32", "float64"], True),
    ("power", np.power, ["float64"], True),
    ("maximum", np.maximum, ["int16", "float32", "bool"], False),
    ("minimum", np.minimum, ["uint16", "float64"], False),
    ("fmax", np.fmax, ["float64"], False),
    ("fmin", np.fmin, ["float32"], False),
    ("arctan2", np.arctan2, ["float32", "float64"], False),
    ("hypot", np.hypot, ["float64"], False),
    ("logaddexp", np.logaddexp, ["float64"], False),
    ("copysign", np.copysign, ["float64"], False),
    ("equal", np.equal, ["int32", "float64", "complex64", "bool"], False),
    ("not_equal", np.not_equal, ["int32", "float64"], False),
    ("less", np.less, ["int32", "float64", "uint8"], False),
    ("less_equal", np.less_equal, ["float32"], False),
    ("greater", np.greater, ["int64", "bool"], False),
    ("greater_equal", np.greater_equal, ["float64"], False),
    ("logical_and", np.logical_and, ["int32", "bool", "float64"], False),
    ("logical_or", np.logical_or, ["bool", "float32"], False),
    ("logical_xor", np.logical_xor, ["bool", "int8"], False),
    ("bitwise_and", np.bitwise_and, ["int32", "uint8", "bool"], False),
    ("bitwise_or", np.bitwise_or, ["int64", "bool"], False),
    ("bitwise_xor", np.bitwise_xor, ["int16", "bool"], False),
    ("left_shift", np.left_shift, ["int32", "uint8"], True),
    ("right_shift", np.right_shift, ["int32", "uint16"], True),
]


@pytest.mark.parametrize("name,ref,dts,positive", BINARY, ids=[b[0] for b in BINARY])
@SETTINGS
@given(shapes=st.sampled_from(SHAPE_PAIRS), seed=st.integers(0, 2**16), data=st.data())
def test_binary_broadcasting(name, ref, dts, positive, shapes, seed, data):
    dtype = data.draw(st.sampled_from(dts))
    rng = np.random.default_rng(seed)
    x = _values(rng, shapes[0], dtype)
    y = _values(rng, shapes[1], dtype, positive)
    if name == "power" and np.issubdtype(dtype, np.integer):
        x = np.clip(x, -3, 3)
    want = ref(x, y)
    fn = getattr(snp, name)
    _check(fn(x, y), want, dtype)
    _check(_jit(name, fn)(x, y), want, dtype)


UNARY = [
    ("negative", np.negative, ["int32", "float32", "complex64"], False),
    ("absolute", np.absolute, ["int8", "float64", "complex128", "uint8"], False),
    ("sign", np.sign, ["int32", "float64"], False),
    ("floor", np.floor, ["float32", "int32"], False),
    ("ceil", np.ceil, ["float64"], False),
    ("trunc", np.trunc, ["float64"], False),
    ("rint", np.rint, ["float32", "float64"], False),
    ("exp", np.exp, ["float32", "float64", "complex128"], False),
    ("exp2", np.exp2, ["float64"], False),
    ("expm1", np.expm1, ["float64"], False),
    ("log", np.log, ["float32", "float64", "complex128"], True),
    ("log2", np.log2, ["float64"], True),
    ("log10", np.log10, ["float64"], True),
    ("log1p", np.log1p, ["float64"], True),
    ("sqrt", np.sqrt, ["float32", "float64"], True),
    ("cbrt", np.cbrt, ["float64"], False),
    ("square", np.square, ["int32", "float64", "complex64"], False),
    ("reciprocal", np.reciprocal, ["float64"], True),
    ("sin", np.sin, ["float32", "float64"], False),
    ("cos", np.cos, ["float64"], False),
    ("tan", np.tan, ["float64"], False),
    ("arcsin", lambda x: np.arcsin(x / 3), ["float64"], False),
    ("arccos", lambda x: np.arccos(x / 3), ["float64"], False),
    ("arctan", np.arctan, ["float64"], False),
    ("sinh", np.sinh, ["float64"], False),
    ("cosh", np.cosh, ["float64"], False),
    ("tanh", np.tanh, ["float32"], False),
    ("arcsinh", np.arcsinh, ["float64"], False),
    ("arccosh", lambda x: np.arccosh(x + 1), ["float64"], True),
    ("arctanh", lambda x: np.arctanh(x / 4), ["float64"], False),
    ("deg2rad", np.deg2rad, ["float64"], False),
    ("rad2deg", np.rad2deg, ["float32"], False),
    ("logical_not", np.logical_not, ["bool", "int32", "float64"], False),
    ("bitwise_not", np.bitwise_not, ["int32", "uint8", "bool"], False),
    ("isfinite", np.isfinite, ["float64", "int32"], False),
    ("isnan", np.isnan, ["float64", "complex64"], False),
    ("isinf", np.isinf, ["float32"], False),
    ("signbit", np.signbit, ["float64", "int32"], False),
    ("real", np.real, ["complex64", "float64"], False),
    ("imag", np.imag, ["complex128"], False),
    ("conj", np.conj, ["complex64", "float32"], False),
    ("angle", np.angle, ["complex128"], False),
]
_wrapped = {"arcsin": lambda f: lambda x: f(x / 3), "arccos": lambda f: lambda x: f(x / 3),
            "arccosh": lambda f: lambda x: f(x + 1), "arctanh": lambda f: lambda x: f(x / 4)}


@pytest.mark.parametrize("name,ref,dts,positive", UNARY, ids=[u[0] for u in UNARY])
@SETTINGS
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**16),
       data=st.data())
def test_unary(name, ref, dts, positive, shape, seed, data):
    dtype = data.draw(st.sampled_from(dts))
    x = _values(np.random.default_rng(seed), tuple(shape), dtype, positive)
    if name in ("isnan", "isinf", "isfinite") and x.size and x.dtype.kind in "fc":
        x.flat[0] = np.nan
        x.flat[-1] = np.inf
    want = ref(x)
    fn = getattr(snp, name)
    fn = _wrapped.get(name, lambda f: f)(fn)
    _check(fn(x), want, dtype)
    _check(_jit(name, fn)(x), want, dtype)


def test_integer_input_to_float_functions_uses_default_float():
    x = np.arange(1, 4, dtype=np.int32)
    assert snp.sin(x).dtype == np.float64
    assert snp.divide(x, x).dtype == np.float64
    np.testing.assert_allclose(snp.sqrt(x), np.sqrt(x))


def test_remainder_sign_follows_divisor():
    a = np.array([-7, -1, 0, 1, 7])
    for b in (3, -3):
        np.testing.assert_array_equal(snp.remainder(a, b), np.remainder(a, b))
        np.testing.assert_array_equal(snp.floor_divide(a, b), np.floor_divide(a, b))
    af = a.astype(float) + 0.5
    np.testing.assert_allclose(snp.remainder(af, -2.0), np.remainder(af, -2.0))
    np.testing.assert_allclose(snp.floor_divide(af, -2.0), np.floor_divide(af, -2.0))


def test_round_half_to_even_and_decimals():
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 1.2345])
    np.testing.assert_array_equal(snp.round(x), np.round(x))
    np.testing.assert_allclose(snp.round(x, 2), np.round(x, 2))
    np.testing.assert_allclose(snp.round(x * 100, -1), np.round(x * 100, -1))
    i = np.array([-25, -15, 15, 25, 35, 44])
    np.testing.assert_array_equal(snp.round(i, -1), np.round(i, -1))


def test_power_integer_rules():
    x = np.arange(-3, 4)
    np.testing.assert_array_equal(snp.power(x, 3), x ** 3)
    np.testing.assert_array_equal(snp.power(x, np.arange(7)), x ** np.arange(7))
    with pytest.raises(ValueError, match="negative integer powers"):
        snp.power(x, -1)
    np.testing.assert_allclose(snp.power(2.0, np.array([-1.0, 0.5])), [0.5, 2 ** 0.5])


def test_maximum_propagates_nan_fmax_ignores_it():
    x, y = np.array([1.0, np.nan, np.nan]), np.array([np.nan, 2.0, np.nan])
    np.testing.assert_array_equal(snp.maximum(x, y), np.maximum(x, y))
    np.testing.assert_array_equal(snp.fmax(x, y), np.fmax(x, y))
    np.testing.assert_array_equal(snp.fmin(x, y), np.fmin(x, y))


def test_where_and_clip():
    c = np.array([True, False, True])
    np.testing.assert_array_equal(snp.where(c, 1, np.zeros((2, 3))),
                                  np.where(c, 1, np.zeros((2, 3))))
    assert snp.where(c, np.float32(1), 2.0).dtype == np.float32
    x = np.arange(-3.0, 4.0)
    np.testing.assert_array_equal(snp.clip(x, -1, 2), np.clip(x, -1, 2))
    np.testing.assert_array_equal(snp.clip(x, max=1), np.clip(x, None, 1))
    np.testing.assert_array_equal(sciax.jit(snp.clip)(x, 0, 1), np.clip(x, 0, 1))
    with pytest.raises(NotImplementedError, match="nonzero"):
        snp.where(c)


def test_mismatched_shapes_name_both():
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4,\)"):
        snp.add(np.ones((2, 3)), np.ones(4))
    with pytest.raises(ValueError, match=r"\(3,\).*\(2,\)"):
        snp.ones(3) * snp.ones(2)


@pytest.mark.parametrize("bad", [None, "abc", np.array(["a", "b"]), [object()],
                                 {"a": 1}, np.array([1, None], dtype=object)])
def test_non_arrays_raise_type_error_naming_function(bad):
    with pytest.raises(TypeError, match="add"):
        snp.add(bad, 1.0)
    with pytest.raises(TypeError, match="sin"):
        snp.sin(bad)


def test_bad_dtypes_raise():
    with pytest.raises(TypeError, match="bitwise_and"):
        snp.bitwise_and(np.ones(2), 1)
    with pytest.raises(TypeError, match="subtract"):
        snp.subtract(np.array([True]), np.array([False]))
    with pytest.raises(TypeError, match="less"):
        snp.less(np.ones(2, complex), 1)


def test_lists_are_accepted_like_numpy():
    np.testing.assert_array_equal(snp.add([1, 2], 3), np.add([1, 2], 3))
    np.testing.assert_allclose(snp.sin([[0.0, 1.0]]), np.sin([[0.0, 1.0]]))
