"""sciax.pmap and the collectives' cross-replica lowerings.

The backend's device count is fixed when it starts (``SCIAX_NUM_CPU_DEVICES``),
and this test session's backend has one device; so the multi-device checks run
in one subprocess started with ``SCIAX_NUM_CPU_DEVICES=4``, and the checks that
need one device or only argument validation run here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(sciax.__file__)))


def run_with_devices(code: str, num_devices: int = 4, timeout: float = 120) -> str:
    """Run ``code`` in a fresh Python whose backend has ``num_devices`` CPU devices."""
    env = dict(os.environ, SCIAX_NUM_CPU_DEVICES=str(num_devices),
               PYTHONPATH=_REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


# --- one device, in this process ------------------------------------------------------

def test_one_device_collectives_are_identities():
    x = np.arange(6.0).reshape(1, 6)
    out = sciax.pmap(lambda v: (lax.psum(v, "i"), lax.pmean(v, "i"), lax.pmax(v, "i"),
                                lax.axis_index("i")), axis_name="i")(x)
    np.testing.assert_array_equal(out[0], x)
    np.testing.assert_array_equal(out[1], x)
    np.testing.assert_array_equal(out[2], x)
    np.testing.assert_array_equal(out[3], [0])
    assert isinstance(out[0], sciax.Array) and out[3].dtype == np.int32


def test_pytrees_static_args_out_axes_and_cache():
    calls = []

    def f(d, k):
        calls.append(k)
        return {"s": d["a"] * k + d["b"], "t": snp.sum(d["a"])}

    g = sciax.pmap(f, in_axes=({"a": 1, "b": None}, None), out_axes={"s": 0, "t": None},
                   static_broadcasted_argnums=1)
    a = np.arange(3.0).reshape(3, 1)
    out = g({"a": a, "b": 1.0}, 2)
    np.testing.assert_allclose(out["s"], a.T * 2 + 1)
    np.testing.assert_allclose(out["t"], 3.0)
    g({"a": a + 1, "b": 1.0}, 2)
    assert calls == [2]  # traced once; the second call hit the cache
    g({"a": a, "b": 1.0}, 3)
    assert calls == [2, 3]  # a new static value compiles again


def test_keeps_dtype_and_weak_type():
    out = sciax.pmap(lambda v: v * 2)(np.ones((1, 2), np.float32))
    assert out.dtype == np.float32
    assert sciax.pmap(lambda v: v + 1)(np.arange(1)).dtype == np.int64


def test_more_items_than_devices():
    with pytest.raises(ValueError, match=r"pmap over 3 items, but only 1 devices"):
        sciax.pmap(lambda v: v)(np.ones((3, 2)))


def test_bad_arguments():
    f = sciax.pmap(lambda x, y: x + y)
    with pytest.raises(ValueError, match=r"inconsistent sizes.*argument x of shape "
                       r"\(1, 2\) mapped at axis 0 has size 1, argument y of shape "
                       r"\(2, 2\) mapped at axis 0 has size 2"):
        f(np.ones((1, 2)), np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"in_axes=2 is out of range.*shape \(1, 2\)"):
        sciax.pmap(lambda x: x, in_axes=2)(np.ones((1, 2)))
    with pytest.raises(ValueError, match=r"in_axes has 1 entries.*2 positional"):
        sciax.pmap(lambda x, y: x, in_axes=(0,))(np.ones(1), np.ones(1))
    with pytest.raises(ValueError, match=r"at least one mapped argument"):
        sciax.pmap(lambda x: x, in_axes=None)(np.ones(1))
    with pytest.raises(ValueError, match=r"tree prefix"):
        sciax.pmap(lambda x: x, in_axes=((0, 0),))(np.ones(1))
    with pytest.raises(TypeError, match="not hashable"):
        sciax.pmap(lambda x, k: x, static_broadcasted_argnums=1)(np.ones(1), [1])


def test_unbound_axis_name():
    with pytest.raises(NameError, match="unbound axis name: 'j'"):
        sciax.pmap(lambda v: lax.psum(v, "j"), axis_name="i")(np.ones(1))
    with pytest.raises(NameError, match="unbound axis name"):
        sciax.pmap(lambda v: lax.psum(v, "i"))(np.ones(1))


def test_under_jit_grad_and_vmap_it_computes_like_vmap():
    x = np.arange(6.0).reshape(3, 2)
    f = sciax.pmap(lambda v: v / lax.psum(v, "i"), axis_name="i")
    np.testing.assert_allclose(sciax.jit(f)(x), x / x.sum(0))
    np.testing.assert_allclose(sciax.vmap(f)(x[None]), (x / x.sum(0))[None])
    loss = lambda v: snp.sum(sciax.pmap(lambda r: r * r)(v))  # noqa: E731
    np.testing.assert_allclose(sciax.grad(loss)(x), 2 * x)


# --- four devices, in a subprocess ----------------------------------------------------

_FOUR_DEVICES = """
import numpy as np
import sciax, sciax.numpy as snp
from sciax import lax
from numpy.testing import assert_allclose, assert_array_equal

assert len(sciax.devices()) == 4
rng = np.random.default_rng(0)
x = rng.normal(size=(4, 3))
P = lambda f, **kw: sciax.pmap(f, axis_name="i", **kw)

assert_allclose(P(lambda v: lax.psum(v, "i"))(x), np.broadcast_to(x.sum(0), x.shape))
assert_allclose(P(lambda v: lax.pmean(v, "i"))(x), np.broadcast_to(x.mean(0), x.shape))
assert_array_equal(P(lambda v: lax.pmax(v, "i"))(x), np.broadcast_to(x.max(0), x.shape))
assert_array_equal(P(lambda v: lax.pmin(v, "i"))(x), np.broadcast_to(x.min(0), x.shape))
i = np.arange(4, dtype=np.int32)
assert_array_equal(P(lambda v: lax.psum(v, "i"))(i), [6, 6, 6, 6])
assert_array_equal(P(lambda v: lax.axis_index("i"))(x), i)
b = x > 0
assert_array_equal(P(lambda v: lax.pmax(v, "i"))(b), np.broadcast_to(b.any(0), b.shape))
assert_array_equal(P(lambda v: lax.all_gather(v, "i"))(x), np.stack([x] * 4))
g = P(lambda v: lax.all_gather(v, "i", axis=1))(x)
assert_array_equal(g, np.stack([x.T] * 4))
t = P(lambda v: lax.all_gather(v, "i", tiled=True))(x)
assert_array_equal(t, np.stack([x.reshape(-1)] * 4))
perm = [(0, 1), (1, 2), (2, 3), (3, 0)]
assert_array_equal(P(lambda v: lax.ppermute(v, "i", perm))(x), np.roll(x, 1, axis=0))
half = P(lambda v: lax.ppermute(v, "i", [(0, 3)]))(x)
assert_array_equal(half, np.stack([np.zeros(3)] * 3 + [x[0]]))
# the same function under vmap with the axis name agrees with pmap
f = lambda v: lax.ppermute(v * lax.axis_index("i"), "i", perm) / lax.psum(v, "i")
assert_allclose(P(f)(x), sciax.vmap(f, axis_name="i")(x), rtol=1e-14)

# pmap of vmap, as in the seed: (4 devices, 32 examples, 128 features)
a, c = rng.normal(size=(2, 4, 32, 128))
dot = P(sciax.vmap(lambda u, w: snp.sum(u * w) / lax.psum(snp.sum(u), "i")))
assert_allclose(dot(a, c), (a * c).sum(-1) / a.sum(-1).sum(0), rtol=1e-12)
norm = P(lambda u: sciax.vmap(lambda r: r - lax.pmean(r, "i"))(u))
assert_allclose(norm(a), a - a.mean(0), atol=1e-14)
grads = P(sciax.grad(lambda w, u: lax.psum(snp.sum(w * u), "i")), in_axes=(None, 0))
# each of the 4 members seeds its psum output, so the cotangent is psum'd (JAX)
assert_allclose(grads(np.ones(128), a[:, 0]), 4 * np.broadcast_to(a[:, 0], (4, 128)))

# fewer items than devices, in_axes/out_axes, a jit inside the body
two = P(lambda v: lax.psum(v, "i"))(x[:2])
assert_allclose(two, np.broadcast_to(x[:2].sum(0), (2, 3)))
body = lambda v: sciax.jit(lambda u: lax.psum(u, "i") * 2)(v)
out = P(body, in_axes=1, out_axes=1)(x.T)
assert_allclose(out, np.broadcast_to(2 * x.sum(0)[:, None], (3, 4)))
try:
    P(lambda v: v)(np.ones((5, 2)))
except ValueError as e:
    assert "pmap over 5 items, but only 4 devices" in str(e), e
else:
    raise AssertionError("no error")
print("OK")
"""


def test_four_devices():
    assert run_with_devices(_FOUR_DEVICES).strip().endswith("OK")
