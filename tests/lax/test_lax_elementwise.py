"""Elementwise sciax.lax operations against NumPy/SciPy, eagerly and under jit.

Every (record, dtype) pair of ``op_table`` runs on hypothesis-drawn inputs of
a few fixed shapes, 0-d and empty included.  Each eager op compiles once per
(shape, dtype), so the shapes come from a small set and the example count is
small: the value of the test is in the breadth of ops and dtypes.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sciax
from sciax import lax
from sciax._src import test_util as tu

from .op_table import ALL_RECORDS, OpRecord

# (2, 3) first: hypothesis tries the simplest example first, so every case sees
# the 2-d shape, and the second example draws 0-d, empty or 1-d.
SHAPES = [(2, 3), (), (0,), (3,)]
JIT_SHAPE = (2, 3)
# Each new (shape, dtype) costs one XLA compile (~45 ms on an idle core); with
# 2 examples the file makes ~1600 compiles.  1 example (always (2, 3)) cuts it
# to ~1050; 0-d and empty shapes stay covered by the jit test.
EAGER_EXAMPLES = 1

CASES = [pytest.param(rec, dt, id=f"{rec.name}-{dt.name}")
         for rec in ALL_RECORDS for dt in rec.dtypes]


def _check_against_numpy(rec: OpRecord, dtype: np.dtype, args: list[np.ndarray],
                         out, msg: str) -> None:
    expected = rec.reference(*args)
    if rec.bits:
        tu.assert_bits_equal(out, expected, err_msg=msg)
        return
    out_dtype = rec.result_dtype(dtype)
    assert out.dtype == out_dtype, msg
    if not tu.is_inexact(out_dtype):
        expected = expected.astype(out_dtype)
    tu.assert_allclose(out, expected, rtol=rec.tolerance(out_dtype), check_dtype=False,
                       err_msg=msg)


def _describe(rec: OpRecord, args: list[np.ndarray]) -> str:
    return f"{rec.name}({', '.join(f'{a.dtype}{list(a.shape)}' for a in args)})"


@pytest.mark.parametrize("rec, dtype", CASES)
@settings(max_examples=EAGER_EXAMPLES, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2 ** 32 - 1))
def test_eager_against_numpy(rec: OpRecord, dtype: np.dtype, shape, seed):
    args = rec.make_args(np.random.default_rng(seed), shape, dtype)
    out = rec(*args)
    assert isinstance(out, sciax.Array), _describe(rec, args)
    _check_against_numpy(rec, dtype, args, out, _describe(rec, args))


@pytest.mark.parametrize("rec", [pytest.param(r, id=r.name) for r in ALL_RECORDS])
def test_jit_against_numpy_and_eager(rec: OpRecord):
    """One jitted program per record applies the op to operands of every dtype
    and every shape in SHAPES (one XLA compile per record, not per case)."""
    rng = np.random.default_rng(0)
    cases = [(dt, shape, rec.make_args(rng, shape, dt))
             for dt in rec.dtypes for shape in SHAPES]
    outs = sciax.jit(lambda sets: [rec(*args) for args in sets])([c[2] for c in cases])
    for (dt, shape, args), out_jit in zip(cases, outs):
        msg = "jit: " + _describe(rec, args)
        _check_against_numpy(rec, dt, args, out_jit, msg)
        if shape != JIT_SHAPE:
            continue  # eager compiled (2, 3) already in test_eager_against_numpy
        out = np.asarray(rec(*args))
        if rec.exact_jit:
            tu.assert_bits_equal(out_jit, out, err_msg=msg)
        else:
            # the same single op under jit: agreement to a few ulps
            eps = float(tu.finfo(tu.real_dtype(out.dtype)).eps)
            tu.assert_allclose(out_jit, out, rtol=4 * eps, err_msg=msg)


# --- bad input -------------------------------------------------------------------

def test_sin_of_int_names_op_and_dtype():
    with pytest.raises(TypeError, match=r"sin.*int32"):
        lax.sin(np.arange(3, dtype=np.int32))


def test_add_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError, match=r"add.*\(2,\).*\(3,\)"):
        lax.add(np.zeros(2, np.float32), np.zeros(3, np.float32))


def test_add_dtype_mismatch():
    with pytest.raises(TypeError, match=r"add.*float32.*float64"):
        lax.add(np.zeros(2, np.float32), np.zeros(2, np.float64))


def test_errors_under_jit_too():
    f = sciax.jit(lambda x: lax.cos(x))
    with pytest.raises(TypeError, match=r"cos.*int32"):
        f(np.arange(3, dtype=np.int32))


# dtypes outside each op's accepted set: abstract evaluation rejects them before
# anything is compiled, so this sweep is cheap.  Records whose dtype list is
# narrower than what the op accepts (variants, select, conversions) are skipped.
_PROBE_DTYPES = [np.dtype(d) for d in (bool, np.int32, np.uint8, np.float32,
                                        np.complex64)]
_VARIANT_SUFFIXES = ("_complex", "_int_exponent", "_neg3", "_scalar_bounds",
                     "_scalar_predicate")
# variants whose dtype list is a subset of what the op accepts
_SUBSET_RECORDS = ("log", "sqrt", "acosh", "log1p", "rsqrt", "logistic")
_REJECT_CASES = [
    pytest.param(rec, dt, id=f"{rec.name}-{dt.name}")
    for rec in ALL_RECORDS
    if rec.arg_dtypes is None and "convert" not in rec.name
    and not rec.name.endswith(_VARIANT_SUFFIXES) and rec.name not in _SUBSET_RECORDS
    for dt in _PROBE_DTYPES if dt not in rec.dtypes
]


@pytest.mark.parametrize("rec, dtype", _REJECT_CASES)
def test_rejects_dtype(rec: OpRecord, dtype: np.dtype):
    args = [np.zeros((2,), dtype)] * rec.nargs
    op_name = rec.op.__name__.removeprefix("bitwise_")
    with pytest.raises(TypeError, match=op_name) as info:
        rec(*args)
    assert dtype.name in str(info.value) or "complex" in str(info.value)


# --- weak types and Python scalars -------------------------------------------------

def test_weak_scalar_keeps_array_dtype():
    x = np.arange(3, dtype=np.float32)
    out = lax.add(x, 2.0)
    assert out.dtype == np.float32 and not out.weak_type
    np.testing.assert_array_equal(np.asarray(out), x + np.float32(2))
    out = lax.mul(3, np.arange(3, dtype=np.int8))
    assert out.dtype == np.int8 and not out.weak_type


def test_weak_scalar_under_jit():
    out = sciax.jit(lambda x: lax.sub(x, 1.0))(np.ones(2, np.float16))
    assert out.dtype == np.float16 and not out.weak_type
    np.testing.assert_array_equal(np.asarray(out), np.zeros(2, np.float16))


def test_weak_type_propagates_through_unops():
    w = lax.convert_element_type(np.float32(1.5), np.float32, weak_type=True)
    assert w.weak_type
    assert lax.neg(w).weak_type and lax.sin(w).weak_type
    assert not lax.is_finite(w).weak_type  # bool results are never weak
    assert not lax.lt(w, w).weak_type
    assert not lax.add(w, np.float32(1)).weak_type  # strong operand wins


def test_convert_element_type_noop_and_weak():
    x = sciax.device_put(np.arange(3, dtype=np.float32))
    assert lax.convert_element_type(x, np.float32) is x
    y = lax.convert_element_type(x, np.float32, weak_type=True)
    assert y.weak_type and y.dtype == np.float32


def test_python_scalars_only():
    out = lax.add(1.5, 2.0)
    assert float(out) == 3.5
