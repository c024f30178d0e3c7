"""Host callbacks in program order: debug.print/debug.callback/io_callback calls
of one block are chained by an ordering token, so several calls in one loop
iteration under jit run in the order written, every time."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.experimental import io_callback


def test_three_prints_in_one_fori_loop_iteration_in_order_100_times(capsys):
    def body(i, c):
        sciax.debug.print("a {}", i)
        sciax.debug.print("b {}", c)
        sciax.debug.print("c {}", i * 10)
        return c + 1.0

    f = sciax.jit(lambda x: lax.fori_loop(0, 3, body, x))
    expected = [line for i in range(3)
                for line in (f"a {i}", f"b {float(i)}", f"c {i * 10}")]
    for _ in range(100):
        assert float(f(0.0)) == 3.0
        assert capsys.readouterr().out.splitlines() == expected


def test_callbacks_in_a_block_are_chained_by_one_token():
    def body(i, c):
        sciax.debug.callback(lambda v: None, i)
        sciax.debug.print("{}", c)
        io_callback(lambda v: None, None, c, ordered=True)
        return c

    text = sciax.jit(lambda x: lax.fori_loop(0, 2, body, x)).lower(1.0).as_text()
    calls = [ln for ln in text.splitlines() if "xla_ffi_python_cpu_callback" in ln]
    assert len(calls) == 3
    # each call consumes the token the previous one produced
    produced = [ln.split("=")[0].strip() for ln in calls]
    for prev, call in zip(produced, calls[1:]):
        assert f"callback({prev}," in call
    assert text.count("stablehlo.create_token") == 1  # one chain, in the body
    assert all("-> !stablehlo.token" in ln or "(!stablehlo.token" in ln
               for ln in calls)


def test_io_callback_values_order_and_results_under_jit_and_loops():
    log = []

    def record(tag):
        def fn(v):
            log.append((tag, int(v)))
            return np.int64(v) * 2
        return fn

    def body(i, c):
        a = io_callback(record("x"), sciax.ShapeDtypeStruct((), np.int64), i,
                        ordered=True)
        b = io_callback(record("y"), sciax.ShapeDtypeStruct((), np.int64), i + 100,
                        ordered=True)
        return c + a + b

    f = sciax.jit(lambda: lax.fori_loop(0, 4, body, 0))
    for _ in range(20):
        log.clear()
        assert int(f()) == sum(2 * i + 2 * (i + 100) for i in range(4))
        assert log == [(t, v) for i in range(4) for t, v in (("x", i), ("y", i + 100))]


def test_io_callback_eager_pytrees_kwargs_and_result_checks():
    out = io_callback(lambda d, scale: {"s": d["a"].sum() * scale, "n": d["a"] * 0},
                      {"s": sciax.ShapeDtypeStruct((), np.float64),
                       "n": sciax.ShapeDtypeStruct((3,), np.float64)},
                      {"a": snp.arange(3.0)}, scale=2.0)
    assert float(out["s"]) == 6.0 and out["n"].shape == (3,)
    with pytest.raises(RuntimeError, match="result 0 of the callback"):
        io_callback(lambda x: x[:1], snp.ones(3), snp.ones(3))
    with pytest.raises(TypeError, match="result_shape_dtypes"):
        io_callback(lambda x: x, [object()], 1.0)
    with pytest.raises(TypeError, match="callable"):
        io_callback(3, None)


def test_io_callback_vmap_calls_once_per_element_and_grad_raises():
    seen = []

    def host(v):
        seen.append(float(v.sum()))
        return v * v

    xs = snp.arange(6.0).reshape(3, 2)
    out = sciax.jit(sciax.vmap(lambda x: io_callback(host, x, x)))(xs)
    np.testing.assert_array_equal(np.asarray(out), np.arange(6.0).reshape(3, 2) ** 2)
    assert seen == [1.0, 5.0, 9.0]
    with pytest.raises(ValueError, match="not differentiable"):
        sciax.grad(lambda x: io_callback(np.sin, x, x))(1.0)


def test_io_callback_is_not_removed_as_dead_code():
    calls = []
    f = sciax.jit(lambda x: (io_callback(lambda v: calls.append(1) or v, x, x), x)[1])
    f(1.0)
    f(2.0)
    assert len(calls) == 2


def test_loops_and_branches_whose_results_are_unused_still_print_under_jit(capsys):
    # dead-code elimination keeps an equation whose nested jaxpr has an effect
    def f(x):
        sciax.debug.print("start")
        lax.scan(lambda c, t: (sciax.debug.print("scan {}", t), (c, None))[1], 0.0,
                 snp.arange(2.0))
        lax.fori_loop(0, 2, lambda i, c: (sciax.debug.print("fori {}", i), c)[1], x)
        lax.cond(x > 0, lambda v: (sciax.debug.print("pos"), v)[1], lambda v: v, x)
        sciax.debug.print("end")
        return x

    sciax.jit(f)(1.0)
    out = capsys.readouterr().out.splitlines()
    # each block's callbacks in order; the order *between* a loop and the
    # callbacks around it is XLA's choice (the token is not threaded through
    # nested control flow), so it is not asserted here
    assert sorted(out) == sorted(["start", "scan 0.0", "scan 1.0", "fori 0", "fori 1",
                                  "pos", "end"])
    assert out.index("start") < out.index("end")
    assert out.index("scan 0.0") < out.index("scan 1.0")
    assert out.index("fori 0") < out.index("fori 1")
