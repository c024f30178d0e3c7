"""JAX's API where users reach for it: a script written for JAX runs with
``import sciax as jax``; eval_shape/ShapeDtypeStruct, block_until_ready,
device_get, jit's donation arguments, sciax.scipy as a lazy alias package and
random.wrap_key_data."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

import sciax
import sciax.numpy as snp


def test_a_jax_script_runs_with_import_sciax_as_jax():
    import sciax as jax
    import sciax.numpy as jnp
    from sciax.tree_util import register_pytree_node_class, tree_map

    @register_pytree_node_class
    class Params:
        def __init__(self, w, b):
            self.w, self.b = w, b

        def tree_flatten(self):
            return (self.w, self.b), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    @jax.jit
    def loss(p, x, y):
        logits = x @ p.w + p.b
        return -jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(y.shape[0]), y])

    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (8, 3))
    y = jnp.array([0, 1, 2, 0, 1, 2, 0, 1])
    p = Params(jnp.zeros((3, 3)), jnp.zeros(3))
    g = jax.grad(loss)(p, x, y)
    p2 = tree_map(lambda a, b: a - 0.1 * b, p, g)
    assert float(loss(p2, x, y)) < float(loss(p, x, y))
    # at zero weights the loss is log(3) (uniform softmax)
    assert abs(float(loss(p, x, y)) - np.log(3)) < 1e-14
    shapes = jax.eval_shape(loss, p, x, y)
    assert shapes.shape == () and shapes.dtype == np.float64
    out = jax.block_until_ready(jax.device_get({"g": g.w}))
    assert isinstance(out["g"], np.ndarray)


def test_eval_shape_with_shape_dtype_structs_and_pytrees():
    def f(a, d):
        return {"m": a @ a.T, "s": snp.sum(d["v"]).astype(snp.float32), "n": a.shape}

    out = sciax.eval_shape(f, sciax.ShapeDtypeStruct((5, 3), np.float64),
                           {"v": np.ones(4, np.int32)})
    assert out["m"] == sciax.ShapeDtypeStruct((5, 5), np.float64)
    assert out["s"] == sciax.ShapeDtypeStruct((), np.float32)
    # static Python values in the output are traced as weak scalars
    assert out["n"][0].shape == ()
    s = sciax.ShapeDtypeStruct((2, 3), "float32")
    assert (s.ndim, s.size, len(s), repr(s)) == (
        2, 6, 2, "ShapeDtypeStruct(shape=(2, 3), dtype=float32)")
    assert hash(s) == hash(sciax.ShapeDtypeStruct((2, 3), np.float32))
    duck = types.SimpleNamespace(shape=(3,), dtype=np.dtype("float64"))
    assert sciax.eval_shape(lambda v: v * 2, duck).shape == (3,)
    with pytest.raises(TypeError, match="eval_shape"):
        sciax.eval_shape(lambda v: v, object())
    with pytest.raises(TypeError, match="shape"):
        sciax.ShapeDtypeStruct(3, np.float64)


def test_block_until_ready_and_device_get():
    tree = {"a": snp.ones(2) * 2.0, "b": (3, "x")}
    assert sciax.block_until_ready(tree) is tree
    host = sciax.device_get(tree)
    assert isinstance(host["a"], np.ndarray) and host["b"] == (3, "x")
    host["a"][0] = 5.0  # a writable host copy
    np.testing.assert_array_equal(np.asarray(tree["a"]), [2.0, 2.0])


def test_jit_donation_arguments_are_validated_and_accepted():
    f = sciax.jit(lambda x, y: x + y, donate_argnums=0)
    assert float(f(1.0, 2.0)) == 3.0 and f.donate_argnums == (0,)
    x = snp.ones(3)
    g = sciax.jit(lambda x, y: x * y, donate_argnames="y")
    np.testing.assert_array_equal(np.asarray(g(x, y=x)), np.ones(3))
    assert g.donate_argnums == (1,)
    np.testing.assert_array_equal(np.asarray(x), np.ones(3))  # still valid
    with pytest.raises(ValueError, match="donate_argnums=2 is out of range"):
        sciax.jit(lambda x, y: x, donate_argnums=2)
    with pytest.raises(ValueError, match="names no parameter"):
        sciax.jit(lambda x, y: x, donate_argnames="z")
    with pytest.raises(TypeError, match="donate_argnums"):
        sciax.jit(lambda x: x, donate_argnums=1.5)
    with pytest.raises(ValueError, match="both static and donated"):
        sciax.jit(lambda x, n: x, static_argnums=1, donate_argnums=1)
    # *args accepts any position
    sciax.jit(lambda *xs: xs[0], donate_argnums=(0, 3))


def test_scipy_alias_is_the_same_module_lazily():
    import sciax.scipy.linalg

    assert sciax.scipy.linalg is sciax.linalg
    from sciax.scipy.linalg import solve
    assert solve is sciax.linalg.solve
    assert sciax.linalg.__spec__.name == "sciax.linalg"  # not re-stamped
    assert "linalg" in dir(sciax.scipy)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        sciax.scipy.nonsense  # noqa: B018


def test_scipy_alias_resolves_packages_that_appear_later():
    # optimize/special/... are being written; a package that appears later
    # resolves on first access with no change to sciax.scipy
    script = textwrap.dedent("""
        import importlib.machinery, sys, types
        import sciax.scipy
        try:
            import sciax.special
            existed = True
        except ModuleNotFoundError:
            existed = False
            mod = types.ModuleType("sciax.special")
            mod.__spec__ = importlib.machinery.ModuleSpec("sciax.special", None)
            mod.erf = lambda x: "erf"
            sys.modules["sciax.special"] = mod
        import sciax.scipy.special as sp
        assert sp is sys.modules["sciax.special"]
        assert sciax.scipy.special is sp
        from sciax.scipy.special import erf
        print("ok", existed)
    """)
    root = pathlib.Path(sciax.__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", script], capture_output=True,
                         text=True, timeout=300, cwd=str(root))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")


def test_random_wrap_key_data_round_trips():
    k = sciax.random.key(42)
    data = sciax.random.key_data(k)
    k2 = sciax.random.wrap_key_data(data)
    np.testing.assert_array_equal(np.asarray(sciax.random.normal(k2, (3,))),
                                  np.asarray(sciax.random.normal(k, (3,))))
    keys = sciax.random.wrap_key_data(sciax.random.key_data(sciax.random.split(k, 4)))
    assert keys.shape == (4, 2)
    with pytest.raises(TypeError, match="uint32"):
        sciax.random.wrap_key_data(np.zeros(2, np.int32))
    with pytest.raises(ValueError, match="impl"):
        sciax.random.wrap_key_data(data, impl="rbg")



def test_device_and_process_queries():
    assert sciax.device_count() == len(sciax.devices()) >= 1
    assert sciax.local_device_count() == len(sciax.local_devices()) >= 1
    assert sciax.process_index() == 0 and sciax.process_count() == 1
    assert sciax.default_backend() == "cpu"


def test_jacobian_typeof_linear_transpose_pure_callback_and_contexts():
    f = lambda v: snp.sin(v) * v  # noqa: E731
    x = np.array([0.3, 1.2])
    np.testing.assert_allclose(np.asarray(sciax.jacobian(f)(x)),
                               np.diag(np.cos(x) * x + np.sin(x)), rtol=1e-14)
    assert sciax.typeof(np.ones((2, 3), np.float32)).shape == (2, 3)
    m = np.array([[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]])
    (ct,) = sciax.linear_transpose(lambda v: snp.asarray(m) @ v, np.zeros(3))(
        np.array([1.0, -1.0]))
    np.testing.assert_allclose(np.asarray(ct), m.T @ np.array([1.0, -1.0]))
    out = sciax.jit(lambda v: sciax.pure_callback(np.cos, v, v))(x)
    np.testing.assert_allclose(np.asarray(out), np.cos(x), rtol=1e-15)
    with pytest.raises(ValueError, match="vmap_method"):
        sciax.pure_callback(np.cos, x, x, vmap_method="bogus")
    with sciax.enable_x64(False):
        assert snp.ones(1).dtype == np.float32
    assert snp.ones(1).dtype == np.float64
    with sciax.named_scope("block"):
        assert sciax.named_call(f, name="f") is f


def test_shape_dtype_struct_lowers_but_does_not_compute():
    s = sciax.ShapeDtypeStruct((3,), np.float32)
    text = sciax.jit(lambda x: snp.sin(x) * 2).lower(s).as_text()
    assert "tensor<3xf32>" in text
    assert "f32[3]" in str(sciax.make_jaxpr(lambda x: x + 1)(s))
    with pytest.raises(TypeError, match="no values"):
        sciax.jit(lambda x: x * 2)(s)
