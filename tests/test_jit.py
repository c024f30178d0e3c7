"""sciax.jit and sciax.make_jaxpr: caching, static arguments, pytrees, lowering, errors."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import sciax
from sciax import lax
from sciax._src.core.trace import ConcretizationTypeError


class Counter:
    """Wraps ``f`` and counts how often it runs, i.e. how often jit traces it."""

    def __init__(self, f):
        functools.update_wrapper(self, f)
        self.f = f
        self.n = 0

    def __call__(self, *args, **kwargs):
        self.n += 1
        return self.f(*args, **kwargs)


def arr(x, dtype=None):
    return sciax.device_put(np.asarray(x, dtype=dtype))


# --- tracing happens once per new signature -----------------------------------------

def test_retraces_once_per_new_shape_and_dtype_never_on_repeats():
    f = Counter(lambda x: lax.add(x, x))
    jf = sciax.jit(f)
    signatures = [np.zeros(3), np.zeros(4), np.zeros((2, 2)), np.zeros(3, np.float32),
                  np.zeros(3, np.int32), np.zeros((), np.float64)]
    for i, x in enumerate(signatures, 1):
        for _ in range(3):
            np.testing.assert_array_equal(np.asarray(jf(arr(x))), x + x)
        assert f.n == i, f"signature {i} ({x.shape}, {x.dtype}) traced {f.n} times"
    # Every signature seen before is a cache hit: no trace at all.
    for x in signatures:
        jf(arr(x))
        jf(x)  # a NumPy argument of the same type hits the same entry
    assert f.n == len(signatures)


def test_same_values_different_arrays_hit_the_cache():
    f = Counter(lambda x: lax.mul(x, 2.0))
    jf = sciax.jit(f)
    for v in range(5):
        assert float(jf(arr(float(v)))) == 2.0 * v
    assert f.n == 1


def test_weak_type_is_part_of_the_key():
    f = Counter(lambda x: lax.mul(x, x))
    jf = sciax.jit(f)
    jf(2.0)                   # a Python float: weakly typed float64
    jf(3.0)
    assert f.n == 1
    out = jf(np.float64(2.0))  # a NumPy scalar is strongly typed
    assert f.n == 2
    assert not out.weak_type
    assert jf(4.0).weak_type
    assert f.n == 2


def power(x, n, scale=1.0):
    """``scale * x**n`` by a Python loop: ``n`` must be a concrete int."""
    acc = x
    for _ in range(n - 1):
        acc = lax.mul(acc, x)
    return lax.mul(acc, scale)


def test_retraces_once_per_new_static_value():
    f = Counter(power)
    jf = sciax.jit(f, static_argnums=1)
    x = arr([1.0, 2.0, 3.0])
    for n in (2, 3, 2, 3, 2):
        np.testing.assert_allclose(np.asarray(jf(x, n)), np.asarray(x) ** n)
    assert f.n == 2


def test_retraces_once_per_new_pytree_structure():
    f = Counter(lambda t: sciax.tree.map(lambda v: lax.neg(v), t))
    jf = sciax.jit(f)
    x = arr([1.0, 2.0])
    trees = [(x, x), [x, x], {"a": x, "b": x}, {"a": x, "c": x}, (x, (x,)), (x, None)]
    for i, t in enumerate(trees, 1):
        out = jf(t)
        out = jf(t)
        assert sciax.tree.structure(out) == sciax.tree.structure(t)
        assert f.n == i
    jf(trees[0])
    assert f.n == len(trees)


def test_keyword_and_positional_calls_are_different_structures_but_agree():
    f = Counter(lambda x, y: lax.sub(x, y))
    jf = sciax.jit(f)
    x, y = arr(5.0), arr(3.0)
    assert float(jf(x, y)) == float(jf(x, y=y)) == float(jf(y=y, x=x)) == 2.0


# --- static arguments ----------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    dict(static_argnums=1), dict(static_argnums=(1,)), dict(static_argnames="n"),
    dict(static_argnames=("n",)), dict(static_argnums=1, static_argnames="n"),
])
def test_static_argnums_and_argnames(kwargs):
    f = Counter(power)
    jf = sciax.jit(f, **kwargs)
    x = arr(2.0)  # scale stays dynamic: a 0-d operand of lax.mul
    assert float(jf(x, 3, 1.0)) == 8.0
    assert float(jf(x, 3, 0.5)) == 4.0
    assert f.n == 1
    # A static parameter passed by keyword is static too (as in JAX).
    assert float(jf(x, n=3, scale=1.0)) == 8.0
    assert float(jf(x, scale=1.0, n=2)) == 4.0
    assert float(jf(x, 2, 1.0)) == 4.0


def test_negative_static_argnums_count_from_the_last_positional_argument():
    f = Counter(power)
    jf = sciax.jit(f, static_argnums=-2)
    x = arr(2.0)
    assert float(jf(x, 3, 1.0)) == 8.0
    assert float(jf(x, 2, 1.0)) == 4.0
    assert float(jf(x, 2, 3.0)) == 12.0
    assert f.n == 2
    g = sciax.jit(lambda x, n: power(x, n), static_argnums=-1)
    assert float(g(x, 4)) == 16.0


def test_static_argnames_by_keyword_and_by_position():
    f = Counter(lambda x, y, scale: lax.mul(lax.add(x, y), scale))
    jf = sciax.jit(f, static_argnames="scale")
    x, y = arr([1.0, 2.0]), arr([0.0, 0.0])
    assert np.asarray(jf(x, y, scale=3.0)).tolist() == [3.0, 6.0]
    assert np.asarray(jf(x, y, 3.0)).tolist() == [3.0, 6.0]
    assert np.asarray(jf(x, y, scale=2.0)).tolist() == [2.0, 4.0]
    # y stays dynamic: a new value of it does not retrace.
    n = f.n
    assert np.asarray(jf(x, x, scale=2.0)).tolist() == [4.0, 8.0]
    assert f.n == n


def test_static_argument_values_that_are_equal_share_a_trace():
    f = Counter(lambda x, shape: lax.reshape(x, shape))
    jf = sciax.jit(f, static_argnums=1)
    x = arr(np.arange(6.0))
    assert jf(x, (2, 3)).shape == (2, 3)
    assert jf(x, (2, 3)).shape == (2, 3)
    assert jf(x, (3, 2)).shape == (3, 2)
    assert f.n == 2


@pytest.mark.parametrize("bad, where", [([1, 2], "position 1"), ({"a": 1}, "position 1"),
                                        (np.arange(2), "position 1")])
def test_unhashable_static_argument_is_a_type_error_naming_it(bad, where):
    jf = sciax.jit(lambda x, n: x, static_argnums=1)
    with pytest.raises(TypeError, match=where) as info:
        jf(arr(1.0), bad)
    msg = str(info.value)
    assert "hashable" in msg and type(bad).__name__ in msg


def test_unhashable_static_keyword_names_it():
    jf = sciax.jit(lambda x, opts: x, static_argnames="opts")
    with pytest.raises(TypeError, match="'opts'.*list.*hashable"):
        jf(arr(1.0), opts=[1])


# --- pytrees in and out --------------------------------------------------------------

def test_pytrees_in_and_out():
    @sciax.jit
    def f(params, xs):
        w, b = params["w"], params["b"]
        return {"y": [lax.add(lax.mul(w, x), b) for x in xs], "w": w}, None

    params = {"w": arr(2.0), "b": arr(1.0)}
    out, none = f(params, (arr(1.0), arr(2.0)))
    assert none is None
    assert sorted(out) == ["w", "y"]
    assert [float(v) for v in out["y"]] == [3.0, 5.0]
    assert float(out["w"]) == 2.0


def test_constant_and_input_outputs():
    f = sciax.jit(lambda x: (x, 3.0, np.arange(2.0)))
    x = arr([1.0])
    a, b, c = f(x)
    assert np.asarray(a).tolist() == [1.0]
    assert float(b) == 3.0
    assert np.asarray(c).tolist() == [0.0, 1.0]


def test_non_array_output_is_a_type_error():
    with pytest.raises(TypeError, match="non-array output"):
        sciax.jit(lambda x: (x, "label"))(arr(1.0))


# --- lowering, nesting, make_jaxpr ---------------------------------------------------

def test_lower_shows_stablehlo():
    jf = sciax.jit(lambda x: lax.sin(lax.add(x, x)))
    text = jf.lower(arr(np.zeros(3, np.float32))).as_text()
    assert "stablehlo" in text
    assert "stablehlo.sine" in text and "stablehlo.add" in text
    assert "tensor<3xf32>" in text
    compiled = jf.lower(arr(np.zeros(3, np.float32))).compile()
    np.testing.assert_allclose(np.asarray(compiled(np.ones(3, np.float32))),
                               np.sin(2 * np.ones(3, np.float32)))


def test_nested_jit():
    inner_count = Counter(lambda x: lax.mul(x, 3.0))
    inner = sciax.jit(inner_count)
    outer = sciax.jit(lambda x: lax.add(inner(x), inner(lax.neg(x))))
    x = arr([1.0, 2.0])
    assert np.asarray(outer(x)).tolist() == [0.0, 0.0]
    assert np.asarray(outer(x)).tolist() == [0.0, 0.0]
    # One trace of the inner function serves both calls inside one outer trace.
    assert inner_count.n == 1
    assert "jit" in str(sciax.make_jaxpr(lambda x: inner(x))(x))
    assert float(sciax.jit(lambda x: inner(inner(x)))(arr(1.0))) == 9.0


def test_make_jaxpr_prints_the_program():
    jaxpr = sciax.make_jaxpr(lambda x, y: lax.mul(lax.sin(x), y))(
        arr(np.zeros(3)), arr(np.zeros(3, np.float64)))
    text = str(jaxpr)
    assert text.splitlines()[0].startswith("{ lambda ; a:f64[3] b:f64[3]. let")
    assert "sin a" in text and "mul" in text
    assert text.rstrip().endswith("}")
    assert len(jaxpr.jaxpr.eqns) == 2


def test_make_jaxpr_with_static_argnums_and_literals():
    jaxpr = sciax.make_jaxpr(lambda x, shape: lax.reshape(lax.add(x, 2.0), shape),
                             static_argnums=1)(arr(np.zeros(6, np.float32)), (2, 3))
    text = str(jaxpr)
    assert "f32[6]" in text and "f32[2,3]" in text and "reshape" in text
    assert "2.0" in text


# --- errors --------------------------------------------------------------------------

def test_python_if_on_a_traced_value_explains_what_to_do():
    def f(x):
        if lax.gt(x, 0.0):
            return x
        return lax.neg(x)

    with pytest.raises(TypeError) as info:
        sciax.jit(f)(arr(np.ones((2, 3))))
    assert isinstance(info.value, ConcretizationTypeError)
    msg = str(info.value)
    assert "(2, 3)" in msg and "bool" in msg
    assert "lax.cond" in msg and "where" in msg and "static_argnums" in msg


@pytest.mark.parametrize("conv", [float, int, bool])
def test_python_scalar_conversion_of_a_traced_value_is_a_type_error(conv):
    with pytest.raises(TypeError, match=r"traced value of shape \(\)"):
        sciax.jit(lambda x: conv(x))(arr(1.0))


@pytest.mark.parametrize("bad", ["abc", object(), np.array(["a"]),
                                 np.array([object()]), {1, 2}, [1.0, "a"]])
def test_non_array_arguments_are_type_errors(bad):
    with pytest.raises(TypeError) as info:
        sciax.jit(lambda x: x)(bad)
    msg = str(info.value)
    leaf = bad[1] if isinstance(bad, list) else bad
    assert type(leaf).__name__ in msg or str(getattr(leaf, "dtype", "")) in msg


def test_nested_jit_of_a_callable_without_a_name():
    inner = sciax.jit(functools.partial(lax.mul, 3.0))
    assert float(sciax.jit(lambda x: inner(x))(arr(2.0))) == 6.0


def test_not_callable():
    with pytest.raises(TypeError, match="callable"):
        sciax.jit(3)


# --- jit under grad, jvp and vmap: the body is transformed as a whole ------------

def _loss(x, y):
    h = sciax.numpy.tanh(x @ y)
    return sciax.numpy.sum(h ** 2) + sciax.numpy.sum(sciax.numpy.sin(x))


_X = np.random.default_rng(0).standard_normal((4, 3))
_Y = np.random.default_rng(1).standard_normal((3, 5))


def test_transformations_of_jit_equal_those_of_the_function():
    jf = sciax.jit(_loss)
    np.testing.assert_allclose(
        np.asarray(sciax.grad(jf, argnums=1)(_X, _Y)),
        np.asarray(sciax.grad(_loss, argnums=1)(_X, _Y)), rtol=1e-12)
    np.testing.assert_allclose(
        np.asarray(sciax.hessian(lambda x: jf(x, _Y))(_X)),
        np.asarray(sciax.hessian(lambda x: _loss(x, _Y))(_X)), rtol=1e-12, atol=1e-12)
    p, t = sciax.jvp(jf, (_X, _Y), (np.ones_like(_X), np.zeros_like(_Y)))
    p2, t2 = sciax.jvp(_loss, (_X, _Y), (np.ones_like(_X), np.zeros_like(_Y)))
    np.testing.assert_allclose([float(p), float(t)], [float(p2), float(t2)], rtol=1e-12)
    xs = np.stack([_X, 2 * _X, -_X])
    np.testing.assert_allclose(
        np.asarray(sciax.vmap(sciax.grad(jf), in_axes=(0, None))(xs, _Y)),
        np.stack([np.asarray(sciax.grad(_loss)(x, _Y)) for x in xs]), rtol=1e-12)


def test_grad_and_vmap_of_jit_stage_jit_calls_not_the_body():
    # the forward and backward passes (and the batched body) are jit calls of
    # the transformed body, so eager use runs one program per pass
    jf = sciax.jit(_loss)
    jaxpr = sciax.make_jaxpr(sciax.grad(jf))(_X, _Y)
    assert [e.primitive.name for e in jaxpr.eqns] == ["jit", "jit"]
    jaxpr = sciax.make_jaxpr(sciax.vmap(jf, in_axes=(0, None)))(np.stack([_X, _X]), _Y)
    assert [e.primitive.name for e in jaxpr.eqns] == ["jit"]
    jaxpr = sciax.make_jaxpr(lambda x, t: sciax.jvp(jf, (x, _Y), (t, _Y)))(_X, _X)
    assert [e.primitive.name for e in jaxpr.eqns] == ["jit"]


def test_jit_with_a_collective_under_vmap_jvp_and_grad():
    # a collective's axis belongs to the enclosing vmap: the body is inlined
    f = sciax.jit(lambda x: x * lax.psum(x, "i"))
    xs = np.arange(1.0, 4.0)
    np.testing.assert_allclose(np.asarray(sciax.vmap(f, axis_name="i")(xs)), xs * 6.0)
    ts = np.array([1.0, 0.0, 2.0])
    _, t = sciax.vmap(lambda x, t: sciax.jvp(f, (x,), (t,)), axis_name="i")(xs, ts)
    # d(x_j sum(x)) = t_j sum(x) + x_j sum(t)
    np.testing.assert_allclose(np.asarray(t), ts * 6.0 + xs * 3.0)
    # reverse mode seeds every member's output: the gradient of
    # sum_j x_j sum(x) = sum(x)^2, i.e. 2 sum(x), in every member (as in JAX)
    g = sciax.vmap(sciax.grad(f), axis_name="i")(xs)
    np.testing.assert_allclose(np.asarray(g), np.full(3, 12.0))
    g = sciax.vmap(sciax.grad(lambda x: lax.psum(x, "i")), axis_name="i")(xs)
    np.testing.assert_allclose(np.asarray(g), np.full(3, 3.0))


# -- small programs of many outputs: one kernel (sciax/_src/interpreters/lowering.py) --

def _one_kernel_and_separate(fun, *args):
    """``fun`` jitted as lowered by default (one kernel) and with the rule off
    (XLA's separate kernels): the results must agree bit for bit."""
    from sciax._src.interpreters import lowering
    f = sciax.jit(fun)
    assert "xla_cpu_small_call" in f.lower(*args).as_text()
    a = f(*args)
    old = lowering._SEQUENTIAL_KERNELS
    lowering._SEQUENTIAL_KERNELS = 10 ** 9
    try:
        g = sciax.jit(fun)
        assert "xla_cpu_small_call" not in g.lower(*args).as_text()
        b = g(*args)
    finally:
        lowering._SEQUENTIAL_KERNELS = old
    la, ta = sciax.tree_util.tree_flatten(a)
    lb, tb = sciax.tree_util.tree_flatten(b)
    assert ta == tb
    for x, y in zip(la, lb):
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)  # NaNs in the same places
        assert np.array_equal(np.signbit(x), np.signbit(y))


def test_many_small_outputs_run_as_one_kernel_with_the_same_bits():
    import sciax.numpy as snp
    rng = np.random.default_rng(0)
    shapes = [(3,), (), (2, 5), (0,), (4,), (7,), (1,), (3, 3), (6,), (2,)]
    ps = tuple(rng.standard_normal(s) for s in shapes)
    gs = tuple(rng.standard_normal(s) for s in shapes)

    def step(ps, gs, lr):  # a pytree of parameters updated leaf by leaf
        m = [0.9 * g + 0.1 * g * g for g in gs]
        return tuple(p - lr * u / (snp.sqrt(snp.abs(u)) + 1e-8) for p, u in zip(ps, m))
    _one_kernel_and_separate(step, ps, gs, 0.1)
    # arguments no instruction reads (XLA aborted on those before the call
    # returned its parameters), pass-through, duplicated and constant outputs
    _one_kernel_and_separate(lambda ps: tuple(ps[0] + i for i in range(10)), ps)
    _one_kernel_and_separate(lambda ps: (2.0,) * 9 + (np.arange(3.0), snp.ones(2)), ps)
    _one_kernel_and_separate(lambda ps: ps + (ps[0] * 2,) * 3, ps)
    _one_kernel_and_separate(
        sciax.grad(lambda ps: sum(snp.sum(p * 3.0) for p in ps)), ps)
    # special values, rounding and conversions, layout operations
    v = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 2.5, -2.5, 0.5, 1.5, 3e9, -3e9,
                  1e300, -1e-310, 5e-324])
    for dt in (np.float64, np.float32):
        with np.errstate(over="ignore"):
            xs = (v.astype(dt),) * 10
        _one_kernel_and_separate(lambda xs: (
            xs[0].astype(np.int32), xs[1].astype(np.uint32), snp.round(xs[2]),
            snp.sign(xs[3]), snp.maximum(xs[4], 0.0), snp.minimum(xs[5], xs[5][0]),
            snp.sqrt(xs[6]), xs[7] / xs[8][3], snp.floor(xs[9]), xs[0].astype(np.int64),
            snp.clip(xs[2], -1.0, 1.0), (xs[3] > xs[4]).astype(np.int8),
            snp.where(xs[1] > 0, xs[1], -xs[1])), xs)
    m = tuple(rng.standard_normal((4, 3)).astype(np.float32) for _ in range(10))
    _one_kernel_and_separate(lambda m: (
        m[0].T, m[1].reshape(12), m[2][1:3, ::2], snp.concatenate([m[3], m[4]]),
        snp.broadcast_to(m[5][0], (2, 4, 3)), lax.iota(np.int32, 5) + 1, m[6][:, 0],
        snp.expand_dims(m[7], 0), m[8] * 2, m[9][None]), m)
    ints = tuple(rng.integers(-5, 5, size=4).astype(np.int32) for _ in range(10))
    _one_kernel_and_separate(lambda xs: (
        xs[0] + 1, xs[1] * 2, -xs[2], abs(xs[3]), xs[4] > 0, (xs[5] & 3) | 1,
        snp.maximum(xs[6], 0), lax.div(xs[7], xs[7] - xs[7]), lax.div(xs[8], 3),
        lax.div(xs[9] * 0 + np.int32(-2 ** 31), xs[9] * 0 - 1)), ints)


def test_one_kernel_only_for_small_exact_programs():
    from sciax._src.interpreters import lowering
    x = np.ones(3)
    def lowered(f, *a):
        return "xla_cpu_small_call" in sciax.jit(f).lower(*a).as_text()
    assert lowered(lambda x: (x + 1,) * 9, x)
    assert not lowered(lambda x: (x + 1,) * 8, x)  # XLA runs these in sequence
    assert not lowered(lambda x: (lax.exp(x),) * 9, x)  # not an exact operation
    assert not lowered(lambda x: (x.sum(),) * 9, x)  # reductions: XLA's kernels
    assert not lowered(lambda x: (x + 1,) * 9, np.ones(1 << 14))  # 128 kB values
    assert not lowered(lambda x: (x + 1,) * 9, np.ones(3, np.complex128))
    old = sciax.config.cpu_loop_kernel_bytes
    sciax.config.update("cpu_loop_kernel_bytes", 0)
    try:
        assert not lowered(lambda x: (x + 1,) * 9, x)  # turned off
    finally:
        sciax.config.update("cpu_loop_kernel_bytes", old)
    assert lowering._SEQUENTIAL_KERNELS == 8


def test_constants_of_dead_code_are_not_passed():
    import sciax.numpy as snp
    big = snp.arange(1000.0)
    used = snp.arange(3.0)

    def f(x):
        _ = x * big.sum()  # dead: its constant is not an argument of the program
        return x + used
    jf = sciax.jit(f)
    np.testing.assert_array_equal(np.asarray(jf(np.ones(3))), [1.0, 2.0, 3.0])
    entry = next(iter(jf._cache.values()))
    assert [np.asarray(b).shape for b in entry.const_bufs] in ([(3,)], [])
    g = sciax.jit(sciax.grad(lambda a: snp.linalg.slogdet(a)[1]))
    a = np.eye(4) * 3 + np.ones((4, 4))
    np.testing.assert_allclose(np.asarray(g(a)), np.linalg.inv(a).T, rtol=1e-13)
