"""Fixtures shared by the lax tests."""

import pytest

import sciax


@pytest.fixture(params=["eager", "jit"], scope="module")
def run(request):
    """Call ``f(*args)`` directly or through a fresh ``sciax.jit``."""
    if request.param == "eager":
        return lambda f, *args: f(*args)
    return lambda f, *args: sciax.jit(f)(*args)
