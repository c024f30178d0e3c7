"""sciax.config: 64-bit by default, the 32-bit switch, weak types of Python scalars."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sciax
from sciax import lax


@pytest.fixture
def x32():
    """Run a test with enable_x64 off, and restore it even if the test fails."""
    with sciax.config.override(enable_x64=False):
        yield
    assert sciax.config.enable_x64


def test_float64_by_default():
    assert sciax.config.enable_x64
    assert sciax.device_put(np.arange(3.0)).dtype == np.float64
    assert sciax.device_put(1.0).dtype == np.float64
    assert sciax.device_put(1).dtype == np.int64
    assert sciax.device_put(1j).dtype == np.complex128
    assert lax.add(sciax.device_put(1.0), 2.0).dtype == np.float64


def test_update_enable_x64_false_gives_32_bits(x32):
    assert not sciax.config.enable_x64
    assert sciax.device_put(np.arange(3.0)).dtype == np.float32
    assert sciax.device_put(np.arange(3)).dtype == np.int32
    assert sciax.device_put(np.ones(2, np.complex128)).dtype == np.complex64
    assert sciax.device_put(1.0).dtype == np.float32
    out = sciax.jit(lambda v: lax.add(v, 1.0))(np.ones(2))
    assert out.dtype == np.float32
    assert "f32[]" in str(sciax.make_jaxpr(lambda v: lax.add(v, 1.0))(1.0))
    # Narrow types are untouched.
    assert sciax.device_put(np.ones(2, np.float16)).dtype == np.float16


def test_update_and_override_restore():
    with sciax.config.override(enable_x64=False):
        assert sciax.device_put(1.0).dtype == np.float32
    assert sciax.device_put(1.0).dtype == np.float64
    sciax.config.update("enable_x64", False)
    try:
        assert sciax.device_put(1.0).dtype == np.float32
    finally:
        sciax.config.update("sciax_enable_x64", True)  # the JAX-style name works too
    assert sciax.config.enable_x64


def test_bad_updates_name_the_problem():
    with pytest.raises(ValueError, match="'nope'.*enable_x64"):
        sciax.config.update("nope", True)
    with pytest.raises(TypeError, match="enable_x64.*bool"):
        sciax.config.update("enable_x64", 0)
    with pytest.raises(AttributeError, match="update"):
        sciax.config.enable_x64 = False
    with pytest.raises(AttributeError, match="no option"):
        sciax.config.not_an_option  # noqa: B018


def _run(code: str, **env: str) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **env}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, env=full_env, timeout=120)


def test_environment_variable_switches_to_32_bits():
    proc = _run("""
        import numpy as np, sciax
        from sciax import lax
        assert not sciax.config.enable_x64
        x = sciax.device_put(np.arange(3.0))
        print(x.dtype, sciax.jit(lambda v: lax.mul(v, 2.0))(x).dtype)
    """, SCIAX_ENABLE_X64="0")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["float32", "float32"]


def test_bad_environment_value_is_a_clear_error():
    proc = _run("import sciax", SCIAX_ENABLE_X64="maybe")
    assert proc.returncode != 0
    assert "SCIAX_ENABLE_X64" in proc.stderr and "maybe" in proc.stderr


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8, np.int32, np.uint8,
                                   np.complex64])
def test_python_scalars_are_weakly_typed(dtype):
    x = sciax.device_put(np.array([1, 2], dtype))
    scalar = 2 if np.issubdtype(dtype, np.integer) else 2.0
    for out in (lax.mul(x, scalar), lax.mul(scalar, x),
                sciax.jit(lambda v: lax.mul(v, scalar))(x)):
        assert out.dtype == dtype, f"{dtype.__name__} * {scalar!r} gave {out.dtype}"
        assert not out.weak_type
        np.testing.assert_array_equal(np.asarray(out), np.array([2, 4], dtype))


def test_weak_type_survives_operations_between_python_scalars():
    out = lax.add(sciax.device_put(1.0), 2.0)
    assert out.dtype == np.float64 and out.weak_type
    assert not lax.add(sciax.device_put(np.float64(1.0)), 2.0).weak_type


def test_checks_are_on_in_the_test_suite():
    assert sciax.config.enable_checks


def test_jit_cache_respects_a_change_of_enable_x64():
    jf = sciax.jit(lambda v: lax.convert_element_type(v, np.float64))
    x = sciax.device_put(np.arange(2, dtype=np.int32))
    assert jf(x).dtype == np.float64
    with sciax.config.override(enable_x64=False):
        assert jf(x).dtype == np.float32
