"""dtype promotion (NumPy 2 / NEP 50), identical eagerly and under jit."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import sciax
import sciax.numpy as snp

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "float32", "float64", "complex64", "complex128"]


def _add_dtype(a, b):
    return snp.add(a, b).dtype


def test_array_promotion_table_matches_numpy():
    for a, b in itertools.product(DTYPES, DTYPES):
        x, y = np.zeros((), a), np.zeros((), b)
        want = np.result_type(x, y)
        assert snp.result_type(a, b) == want, (a, b)
    # the table is what the ufuncs use, eagerly and under jit
    add = sciax.jit(snp.add)
    for a, b in [("int8", "uint8"), ("uint64", "int64"), ("float16", "int32"),
                 ("bool", "float32"), ("complex64", "float64"), ("uint32", "int8")]:
        x, y = np.zeros(2, a), np.zeros(2, b)
        want = np.result_type(x, y)
        assert snp.add(x, y).dtype == want, (a, b)
        assert add(x, y).dtype == want, (a, b)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scalar", [True, 2, 2.5, 1j])
def test_python_scalars_are_weak(dtype, scalar):
    x = np.zeros(2, dtype)
    want = (x + scalar).dtype if dtype != "bool" or type(scalar) is not bool else np.bool_
    assert snp.result_type(x, scalar) == want, (dtype, scalar)


def test_float32_preserved_by_python_float():
    x = snp.ones(3, dtype=snp.float32)
    for y in (x * 2.0, 2.0 * x, x + 1, x / 3, x ** 2, x - 0.5, snp.maximum(x, 0.0)):
        assert y.dtype == np.float32
    assert sciax.jit(lambda v: v * 2.0)(x).dtype == np.float32
    assert (snp.arange(3) + 2.5).dtype == np.float64
    assert (snp.ones(2, dtype=snp.int8) + 1).dtype == np.int8
    assert (snp.ones(2, dtype=snp.int8) * np.int16(3)).dtype == np.int16


def test_weak_type_survives_scalar_only_arithmetic():
    out = snp.add(1.0, 2)
    assert out.weak_type and out.dtype == np.float64
    x = snp.ones(2, dtype=snp.float32)
    assert (x * snp.add(1.0, 2)).dtype == np.float32


@pytest.mark.slow  # long: runs in CI's second step
def test_x64_disabled_narrows_defaults():
    with sciax.config.override(enable_x64=False):
        assert snp.arange(3).dtype == np.int32
        assert snp.zeros(2).dtype == np.float32
        assert (snp.arange(3) / 2).dtype == np.float32
        assert snp.add(np.ones(2, np.float64), 1).dtype == np.float32
