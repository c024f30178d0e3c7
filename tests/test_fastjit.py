"""The C cache-hit path of ``jit`` (sciax/_src/_fastjit.c) against the Python one.

``JitWrapped._call`` defines a jitted call; the C base class only repeats its
cache-hit steps for positional Arrays and tuples/lists of Arrays.  Every test
here calls both ways and compares, so a difference in keys, outputs, trees,
constants or cache order shows up as a failure.  When the extension is not
built (no C compiler at install time) ``JitWrapped`` has no C base, and the
same comparisons hold trivially; ``test_the_extension_is_built_here`` says
whether this machine built it.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import sysconfig
import weakref

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax._src import jit as jit_mod


def _same(a, b):
    la, ta = sciax.tree_util.tree_flatten(a)
    lb, tb = sciax.tree_util.tree_flatten(b)
    assert ta == tb
    for x, y in zip(la, lb):
        assert type(x) is type(y)
        assert x.aval == y.aval
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


def _both(f, *args, **kwargs):
    fast = f(*args, **kwargs)
    fast2 = f(*args, **kwargs)  # the second call is a cache hit
    slow = f._call(*args, **kwargs)
    _same(fast, slow)
    _same(fast2, slow)
    return fast2


def test_the_extension_is_built_here():
    """The install builds it wherever a C compiler and Python's headers are
    (setup.py marks it optional, so an install without them still works)."""
    if not os.path.exists(sysconfig.get_paths()["include"] + "/Python.h"):
        pytest.skip("no Python headers: the extension is optional and not built")
    if os.environ.get("SCIAX_NO_FASTJIT", "") not in ("", "0"):
        pytest.skip("SCIAX_NO_FASTJIT is set: the Python path was asked for")
    assert jit_mod._fastjit is not None
    assert jit_mod.JitWrapped.__mro__[1] is jit_mod._fastjit.FastJit


@pytest.mark.parametrize("shape", [(), (3,), (2, 0), (2, 3)])
def test_one_array_argument(shape):
    f = sciax.jit(lambda x: x * 2 + 1)
    x = snp.ones(shape, snp.float32)
    out = _both(f, x)
    assert out.dtype == np.float32 and out.shape == shape


def test_several_arguments_dtypes_and_weak_types():
    f = sciax.jit(lambda a, b, c: (a + b, c.astype(a.dtype) * a))
    a = snp.arange(4.0)
    b = sciax.device_put(2.0)  # weakly typed
    c = snp.arange(4, dtype=snp.int32)
    _both(f, a, b, c)
    _both(f, a, a, c)
    assert len(f._cache) == 2  # weak and strong b: two signatures


def test_tuples_and_lists_of_arrays_in_and_pytrees_out():
    def f(xs, y):
        leaves = sciax.tree_util.tree_leaves(xs)
        return {"s": sum(leaves), "p": [x * y for x in leaves]}
    f = sciax.jit(f)
    xs = tuple(snp.arange(3.0) + i for i in range(3))
    y = snp.asarray(2.0)
    _both(f, xs, y)
    _both(f, list(xs), y)  # a list is another structure
    _both(f, ((xs[0], xs[1]), xs[2]), y)
    assert len(f._cache) == 3


def test_other_arguments_take_the_python_path_with_the_same_result():
    f = sciax.jit(lambda x, y: x - y)
    x = snp.arange(3.0)
    for y in (1.5, np.float64(2.0), np.arange(3.0), [x, x][0]):
        _both(f, x, y)
    _both(f, x, y=x)  # keywords
    g = sciax.jit(lambda d: d["a"] + 1.0)  # dicts go through the registry
    _both(g, {"a": x})
    h = sciax.jit(lambda x, n: x ** n, static_argnums=1)
    _both(h, x, 3)


def test_constants_captured_by_the_function():
    c = snp.arange(3.0) * 10
    f = sciax.jit(lambda x: x + c)
    out = _both(f, snp.ones(3))
    np.testing.assert_array_equal(out, [1.0, 11.0, 21.0])


def test_least_recently_used_order_follows_hits():
    f = sciax.jit(lambda x: x + 1)
    a, b, c = snp.ones(1), snp.ones(2), snp.ones(3)
    f(a), f(b)
    f(a)  # a hit: a becomes the most recently used
    assert [k[1] for k in f._cache] == [b.aval.key, a.aval.key]
    old = f._cache.maxsize
    f._cache.maxsize = 2
    try:
        f(c)  # evicts b, the least recently used
    finally:
        f._cache.maxsize = old
    assert [k[1] for k in f._cache] == [a.aval.key, c.aval.key]


def test_repeated_hits_keep_the_order_and_see_evictions_and_clears():
    """The C path remembers its last hit and skips the lookup and the move
    for the same signature; order, evictions and clears stay as on the
    Python path."""
    compiled = []
    f = sciax.jit(lambda x: compiled.append(x.shape) or x + 1)
    a, b, c = snp.ones(1), snp.ones(2), snp.ones(3)
    for x in (a, b, a, a, a, b, b):
        _same(f(x), f._call(x))
    assert [k[1] for k in f._cache] == [a.aval.key, b.aval.key]
    f(a), f(a)  # repeated hits: a is the most recently used
    assert [k[1] for k in f._cache] == [b.aval.key, a.aval.key]
    old = f._cache.maxsize
    f._cache.maxsize = 2
    try:
        f(c)  # evicts b
        f(c)
        assert [k[1] for k in f._cache] == [a.aval.key, c.aval.key]
        f(a), f(a)
        assert [k[1] for k in f._cache] == [c.aval.key, a.aval.key]
    finally:
        f._cache.maxsize = old
    assert compiled == [(1,), (2,), (3,)]
    f(a), f(a)
    (stale,) = (e for k, e in f._cache.items() if k[1] == a.aval.key)

    def boom(bufs):
        raise AssertionError("a cleared entry ran")
    stale.fast = (boom, *stale.fast[1:])
    f._cache.clear()  # the remembered entry is gone: compiled again
    _same(f(a), a + 1)
    _same(f(a), a + 1)
    assert len(f._cache) == 1
    entry = next(iter(f._cache.values()))  # a replaced fast tuple is read each call
    assert entry is not stale
    real = entry.fast
    entry.fast = (lambda bufs: real[0](bufs), *real[1:])
    try:
        _same(f(a), a + 1)
    finally:
        entry.fast = real


def test_tuple_results_are_built_in_c_other_trees_by_the_registry():
    import collections
    pair = collections.namedtuple("pair", "p q")
    xs = (snp.arange(3.0), snp.ones(()))
    cases = [lambda xs: (xs[0] + 1, xs[1] * 2), lambda xs: (xs[0],),
             lambda xs: (), lambda xs: [xs[0] + 1, xs[1]],
             lambda xs: pair(xs[0], xs[1]), lambda xs: (xs[0], (xs[1],)),
             lambda xs: ((xs[0] + xs[1]),) * 3]
    for fun in cases:
        f = sciax.jit(fun)
        out = _both(f, xs)
        assert type(out) is type(fun(xs))
        _same(f(xs), out)


def test_under_transformations_the_python_path_traces():
    f = sciax.jit(lambda x: snp.sin(x) * x)
    x = snp.asarray(0.7)
    f(x), f(x)
    g = sciax.grad(f)(x)
    np.testing.assert_allclose(g, np.cos(0.7) * 0.7 + np.sin(0.7), rtol=1e-15)
    v = sciax.vmap(f)(snp.arange(3.0))
    _same(v, f._call(snp.arange(3.0)))


def test_errors_from_the_executable_propagate():
    f = sciax.jit(lambda x: x + 1)
    x = snp.ones(2)
    f(x)
    entry = next(iter(f._cache.values()))
    real, real_run = entry.fast, entry.run

    def boom(bufs):
        raise RuntimeError("executable failed")
    entry.fast, entry.run = (boom, *real[1:]), boom  # the C and the Python path
    try:
        with pytest.raises(RuntimeError, match="executable failed"):
            f(x)
    finally:
        entry.fast, entry.run = real, real_run
    _both(f, x)


def test_no_reference_leaks_per_call():
    f = sciax.jit(lambda xs: (xs[0] + 1, xs[1] * 2))
    xs = (snp.ones(3), snp.ones(()))
    f(xs), f(xs)
    before = [sys.getrefcount(x) for x in xs] + [sys.getrefcount(x._buf) for x in xs]
    for _ in range(1000):
        out = f(xs)
    del out
    gc.collect()
    after = [sys.getrefcount(x) for x in xs] + [sys.getrefcount(x._buf) for x in xs]
    assert after == before


def test_jitted_functions_are_collected():
    f = sciax.jit(lambda x: x + 1)
    f(snp.ones(2)), f(snp.ones(2))
    ref = weakref.ref(f)
    del f
    gc.collect()
    assert ref() is None


def test_pure_python_path_when_turned_off():
    code = ("import sciax, sciax.numpy as snp\n"
            "from sciax._src.jit import JitWrapped\n"
            "assert JitWrapped.__mro__[1] is object\n"
            "f = sciax.jit(lambda xs: [x + 1 for x in xs])\n"
            "xs = (snp.ones(2), snp.arange(2.0))\n"
            "print(f(xs)[1].tolist(), f(xs)[1].tolist())\n")
    env = dict(os.environ, SCIAX_NO_FASTJIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[1.0,", "2.0]", "[1.0,", "2.0]"]


def test_python_scalars_become_their_cached_arrays_on_both_paths():
    f = sciax.jit(lambda x, p: x * p)
    x = snp.arange(3.0)
    for p in (1.5, -0.0, 2, True, 1 + 2j):
        out = _both(f, x, p)
        assert out.dtype == (x * p).dtype
    g = sciax.jit(lambda p: p + 1)
    for p in (0.25, 3, False):
        _both(g, p)
    h = sciax.jit(lambda ps: ps[0] * ps[1][0])
    _both(h, (2.0, [snp.ones(2)]))
    _both(h, (2, [3.0]))


def test_numpy_arrays_are_transferred_on_both_paths():
    """NumPy arguments take the C path too: one transfer each, keyed by the
    canonical abstract value, as the Python path keys them."""
    f = sciax.jit(lambda x, ys: x * 2 + ys[0] - ys[1])
    x = np.arange(6.0).reshape(2, 3)
    ys = (np.ones(3, np.float32), np.arange(3))  # promotion, an int argument
    out = _both(f, x, ys)
    np.testing.assert_array_equal(out, x * 2 + 1 - np.arange(3))
    _both(f, x.T.copy().T, ys)  # a non-contiguous array: same signature
    _both(f, snp.asarray(x), ys)  # an Array of the same type: same signature
    assert len(f._cache) == 1
    _both(f, x.astype(np.int32), ys)
    assert len(f._cache) == 2
    g = sciax.jit(lambda a: a + 1)
    _both(g, np.array(2.5))  # 0-d
    _both(g, np.zeros((0, 2)))
    with pytest.raises(TypeError):
        g(np.array(["a"]))
    with pytest.raises(TypeError):
        g._call(np.array(["a"]))
    sciax.config.update("enable_x64", False)
    try:
        out = _both(g, np.arange(3.0))  # narrowed to 32 bits after the change
        assert out.dtype == np.float32
    finally:
        sciax.config.update("enable_x64", True)
    assert g(np.arange(3.0)).dtype == np.float64
    from sciax._src.backend.array import device_put
    w = device_put(np.arange(3.0), weak_type=True)  # the backend's keeps weak types
    assert w.aval.weak_type and not device_put(np.arange(3.0)).aval.weak_type


def test_a_scalar_out_of_range_raises_as_on_the_python_path():
    f = sciax.jit(lambda n: n + 1)
    f(1), f(2)
    with pytest.raises(OverflowError):
        f(2 ** 70)
    with pytest.raises(OverflowError):
        f._call(2 ** 70)


# -- the eager sciax.numpy hit path (sciax/_src/numpy/eager.py: _hit_path) ------------

@pytest.mark.parametrize("c_path", [True, False])
def test_eager_hit_path_c_and_python_agree(c_path):
    from sciax._src.numpy import eager
    if c_path and eager._FastBase is object:
        pytest.skip("the extension is not built or is turned off")
    saved = eager._FastBase
    if not c_path:
        eager._FastBase = object
    try:
        cache = eager.LRUCache("jit_cache_size")
        arrays: dict = {}
        hit = eager._hit_path(arrays, cache)
    finally:
        eager._FastBase = saved
    prog = sciax.jit(lambda a, b: a * b + 1)
    x, y = snp.arange(3.0), snp.ones(3)
    assert hit((x, y), {}) is eager._MISS  # nothing remembered yet
    cache.put("sig", prog)
    cache.put("other", None)
    arrays[2] = ("sig", prog, cache.removals)
    _same(hit((x, y), {}), prog(x, y))
    assert list(cache) == ["other", "sig"]  # a hit is the most recently used
    assert hit((x, y), {"k": 1}) is eager._MISS  # not remembered with this keyword
    kw = {"mode": "a", "n": 1, "flag": True, "none": None}
    arrays[eager._memo_key((x, y), kw)[0]] = ("sig", prog, cache.removals)
    _same(hit((x, y), dict(kw)), prog(x, y))  # static keywords: remembered
    assert hit((x, y), dict(kw, n=True)) is eager._MISS  # True is not 1 here
    assert hit((x, y), dict(kw, n=2)) is eager._MISS
    assert hit((x, y), {"mode": 1.5}) is eager._MISS  # a float keyword: not remembered
    assert eager._memo_key((x, y), {"mode": 1.5}) is None
    # static and dynamic positional arguments: the program gets the dynamic ones
    mixed = (x, 2, "s", None, (3, 4), 2.5, y)
    key, dyn = eager._memo_key(mixed, {})
    assert dyn == (x, 2.5, y)
    three = sciax.jit(lambda a, c, b: a * c + b)
    arrays[key] = ("sig", three, cache.removals)
    _same(hit(mixed, {}), three(x, 2.5, y))
    for other in ((x, True, "s", None, (3, 4), 2.5, y), (x, 2, "s", None, (3, 5), 2.5, y),
                  (x, 2, "s", None, (3, 4), 2.5, np.ones(3)),  # a NumPy array: not remembered
                  (x, 2, "s", None, (3, 4.0), 2.5, y), (x, 2, "s", None, [3, 4], 2.5, y)):
        assert hit(other, {}) is eager._MISS
    assert eager._memo_key((x, (3, True)), {}) is None  # (3, True) == (3, 1): excluded
    _same(hit((x, 2, "s", None, (3, 4), -1.0, y), {}), three(x, -1.0, y))  # new float
    seen = []
    sciax.vmap(lambda v: seen.append(hit((v, v), {}) is eager._MISS) or v)(x)
    assert seen == [True]
    cache.clear()  # the remembered program is no longer current
    assert hit((x, y), {}) is eager._MISS
    # a failing program: the entry is dropped and the slow path decides
    bad = sciax.jit(lambda a, b: a @ b.reshape(1, 3))
    cache.put("bad", bad)
    arrays[2] = ("bad", bad, cache.removals)
    assert hit((x, y), {}) is eager._MISS
    assert 2 not in arrays


def test_eager_calls_with_static_keywords_hit_and_agree():
    import sciax.linalg as sla
    from sciax._src.numpy import eager
    a = snp.asarray(np.array([[4.0, 1.0], [1.0, 3.0]]))
    b = snp.asarray(np.array([1.0, 2.0]))
    ref = np.linalg.solve(np.asarray(a), np.asarray(b))
    for _ in range(4):  # op by op, compile, then remembered hits
        np.testing.assert_allclose(np.asarray(sla.solve(a, b, assume_a="pos")), ref,
                                   rtol=1e-14)
        np.testing.assert_allclose(np.asarray(sla.solve(a, b, assume_a="pos", lower=True)),
                                   ref, rtol=1e-14)
    x = snp.arange(6.0).reshape(2, 3)
    for axis in (0, 1, None, 0, 1, None, -1):
        np.testing.assert_array_equal(np.asarray(snp.sum(x, axis=axis)),
                                      np.asarray(x).sum(axis=axis))
    assert any(isinstance(k, tuple) and k[1] == "axis" for k in snp.sum._eager_memo)
    assert eager._memo_key((a, b), {"assume_a": "pos"})[0] in sla.solve._eager_memo
    for n in (5, 7, 5, 7, 5):  # positional static ints: remembered too
        np.testing.assert_array_equal(np.asarray(snp.arange(n)), np.arange(n))
        np.testing.assert_array_equal(np.asarray(snp.zeros((2, n))), np.zeros((2, n)))
        np.testing.assert_allclose(np.asarray(snp.clip(x, 0.5, float(n))),
                                   np.clip(np.asarray(x), 0.5, n), rtol=0)
    assert eager._memo_key((7,), {})[0] in snp.arange._eager_memo
    assert eager._memo_key((x, 0.5, 7.0), {})[0] in snp.clip._eager_memo


def test_eager_wrapper_results_and_refcounts():
    v = snp.linspace(0.0, 1.0, 5)
    ref = np.sin(np.asarray(v))
    for _ in range(3):
        np.testing.assert_allclose(np.asarray(snp.sin(v)), ref, rtol=1e-15, atol=0)
    before = (sys.getrefcount(v), sys.getrefcount(v._buf))
    for _ in range(500):
        out = snp.sin(v)
    del out
    gc.collect()
    assert (sys.getrefcount(v), sys.getrefcount(v._buf)) == before
