"""sciax.debug.print and sciax.debug.callback: host output from eager code,
compiled code and loops, under vmap and grad."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax


def lines(capsys):
    return capsys.readouterr().out.splitlines()


def test_print_eagerly(capsys):
    sciax.debug.print("x = {x}, y = {}", 2.5, x=snp.arange(3))
    assert lines(capsys) == ["x = [0 1 2], y = 2.5"]


def test_print_under_jit_runs_at_run_time_not_trace_time(capsys):
    f = sciax.jit(lambda x: (sciax.debug.print("x = {x}", x=x), x * 2.0)[1])
    assert float(f(2.0)) == 4.0
    assert float(f(3.0)) == 6.0  # a cache hit still prints
    assert lines(capsys) == ["x = 2.0", "x = 3.0"]


def test_print_inside_while_inside_jit_once_per_iteration_in_order(capsys):
    def newton_sqrt(a):
        def body(c):
            x, i = c
            sciax.debug.print("iter {i}: x = {x:.6f}", i=i, x=x)
            return 0.5 * (x + a / x), i + 1
        return lax.while_loop(lambda c: snp.abs(c[0] * c[0] - a) > 1e-9, body, (a, 0))

    x, n = sciax.jit(newton_sqrt)(2.0)
    # the same iteration in Python
    ref, xr = [], 2.0
    while abs(xr * xr - 2.0) > 1e-9:
        ref.append(f"iter {len(ref)}: x = {xr:.6f}")
        xr = 0.5 * (xr + 2.0 / xr)
    assert int(n) == len(ref) == 4
    assert lines(capsys) == ref


def test_print_inside_scan_and_fori_loop(capsys):
    def f(xs):
        def step(c, x):
            sciax.debug.print("c={} x={}", c, x)
            return c + x, None
        return lax.scan(step, 0.0, xs)[0]

    for g in (f, sciax.jit(f)):
        assert float(g(snp.arange(1.0, 4.0))) == 6.0
        assert lines(capsys) == ["c=0.0 x=1.0", "c=1.0 x=2.0", "c=3.0 x=3.0"]

    def h(x):
        def body(i, v):
            sciax.debug.print("i={}", i)
            return v * 2.0
        return lax.fori_loop(0, 3, body, x)

    assert float(sciax.jit(h)(1.0)) == 8.0
    assert lines(capsys) == ["i=0", "i=1", "i=2"]


def test_print_under_vmap_shows_the_batch(capsys):
    def f(x):
        sciax.debug.print("x={}", x)
        return x * 2.0

    out = sciax.vmap(f)(np.array([1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(out), [2.0, 4.0])
    sciax.jit(sciax.vmap(f))(np.array([1.0, 2.0]))
    assert lines(capsys) == ["x=[1. 2.]"] * 2


def test_print_in_vmapped_while_with_batched_predicate(capsys):
    # the loop runs max(n) times; a finished member shows its frozen carry
    def f(n):
        def body(i):
            sciax.debug.print("i={}", i)
            return i + 1
        return lax.while_loop(lambda i: i < n, body, 0)

    out = sciax.jit(sciax.vmap(f))(np.array([1, 3], np.int32))
    np.testing.assert_array_equal(np.asarray(out), [1, 3])
    assert lines(capsys) == ["i=[0 0]", "i=[1 1]", "i=[1 2]"]


def test_print_under_grad_shows_primal_values_once(capsys):
    def f(x):
        sciax.debug.print("x={}", x)
        y = snp.sin(x)
        sciax.debug.print("y={:.6f}", y)
        return y * x

    for g in (sciax.grad(f), sciax.jit(sciax.grad(f))):
        np.testing.assert_allclose(float(g(2.0)), np.cos(2.0) * 2.0 + np.sin(2.0),
                                   rtol=1e-15)
        assert lines(capsys) == ["x=2.0", f"y={np.sin(2.0):.6f}"]
    _, t = sciax.jvp(f, (2.0,), (1.0,))
    assert lines(capsys) == ["x=2.0", f"y={np.sin(2.0):.6f}"]


def test_print_inside_differentiated_scan(capsys):
    def g(a):
        def step(c, x):
            sciax.debug.print("c={} x={}", c, x)
            return c * a + x, None
        return lax.scan(step, 1.0, snp.arange(3.0))[0]

    # c = ((1 a + 0) a + 1) a + 2 = a^3 + a + 2
    assert float(sciax.jit(sciax.grad(g))(2.0)) == 3 * 4.0 + 1
    assert lines(capsys) == ["c=1.0 x=0.0", "c=2.0 x=1.0", "c=5.0 x=2.0"]


def test_callback_receives_numpy_arrays():
    seen = []

    def record(a, b, s, *, k):
        seen.append((a, b, s, k))

    def f(x):
        sciax.debug.callback(record, x, x.astype(np.int32), "static", k=(x * 2.0,))
        return x

    x = np.array([0.5, 1.5, 2.5], np.float32)
    for g in (f, sciax.jit(f)):
        g(x)
        a, b, s, k = seen.pop()
        assert type(a) is np.ndarray and a.dtype == np.float32 and a.shape == (3,)
        np.testing.assert_array_equal(a, x)
        assert type(b) is np.ndarray and b.dtype == np.int32
        np.testing.assert_array_equal(b, [0, 1, 2])
        assert s == "static"  # a non-array leaf is passed through as is
        assert isinstance(k, tuple) and type(k[0]) is np.ndarray
        np.testing.assert_array_equal(k[0], x * 2)
    assert not seen


def test_callback_once_per_loop_iteration_under_jit():
    seen = []

    def f(xs):
        def step(c, x):
            sciax.debug.callback(lambda c, x: seen.append((float(c), x.tolist())), c, x)
            return c + x[0], None
        return lax.scan(step, 0.0, xs)[0]

    xs = np.arange(6.0).reshape(3, 2)
    assert float(sciax.jit(f)(xs)) == 6.0
    assert seen == [(0.0, [0.0, 1.0]), (0.0, [2.0, 3.0]), (2.0, [4.0, 5.0])]


def test_callback_errors_reach_the_caller():
    def boom(x):
        raise ValueError(f"bad value {x}")

    with pytest.raises(ValueError, match="bad value 1.0"):
        sciax.debug.callback(boom, 1.0)
    # compiled, the error comes back wrapped by the runtime, message included
    with pytest.raises(Exception, match="bad value 1.0"):
        sciax.jit(lambda x: sciax.debug.callback(boom, x))(1.0)


# BUG: several debug.print calls inside one while_loop iteration under jit come out
# in a different order from the program (e.g. "b", "a", "c"), since the callbacks
# have no data or token dependence between them.  Only one print per iteration is
# ordered (across iterations) today, so that case is left out:
#
#     def body(c):
#         sciax.debug.print("a {}", c[0]); sciax.debug.print("b {}", c[1])
#         return c[0] + 1, c[1] * 2.0
#     sciax.jit(lambda x: lax.while_loop(lambda c: c[0] < 4, body, (0, x)))(1.0)
