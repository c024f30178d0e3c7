"""sciax.custom_batching.custom_vmap: the rule replaces the body under vmap only,
composes with jit, nested vmap and differentiation, and checks what it returns."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax.custom_batching import custom_vmap


def _make():
    """``f(x, y) = sum(x) * y`` whose rule records its ``in_batched`` and marks
    its result (+1000) so that a test can tell the rule from the body."""
    seen = []

    @custom_vmap
    def f(x, y):
        return snp.sum(x) * y

    @f.def_vmap
    def _(axis_size, in_batched, x, y):
        seen.append((axis_size, in_batched))
        xs = snp.sum(x, axis=-1)
        return xs * y + 1000.0, any(in_batched)

    return f, seen


def test_body_outside_vmap_rule_inside():
    f, seen = _make()
    x = np.arange(12.0).reshape(3, 4)
    assert float(f(x[0], 2.0)) == 12.0                  # eager: the body
    assert float(sciax.jit(f)(x[0], 2.0)) == 12.0       # jit: the body
    assert seen == []
    out = sciax.vmap(f)(x, np.arange(3.0))
    np.testing.assert_array_equal(out, x.sum(1) * np.arange(3.0) + 1000.0)
    assert seen == [(3, [True, True])]
    out = sciax.vmap(f, in_axes=(0, None))(x, 2.0)
    np.testing.assert_array_equal(out, x.sum(1) * 2.0 + 1000.0)
    assert seen[-1] == (3, [True, False])


def test_batch_axis_moved_first_and_jit_compositions():
    f, seen = _make()
    x = np.arange(12.0).reshape(4, 3)                   # batch along axis 1
    want = x.sum(0) * 2.0 + 1000.0
    np.testing.assert_array_equal(sciax.vmap(f, in_axes=(1, None))(x, 2.0), want)
    np.testing.assert_array_equal(
        sciax.jit(sciax.vmap(f, in_axes=(1, None)))(x, 2.0), want)
    np.testing.assert_array_equal(
        sciax.vmap(sciax.jit(f), in_axes=(1, None))(x, 2.0), want)
    assert all(s == (3, [True, False]) for s in seen) and len(seen) == 3


def test_nested_vmap_and_unbatched_output():
    f, seen = _make()
    x = np.ones((2, 3, 4))
    out = sciax.vmap(sciax.vmap(f))(x, np.ones((2, 3)))
    # the inner vmap's rule ran (+1000); the outer vmap batched the rule's code
    np.testing.assert_array_equal(out, np.full((2, 3), 1004.0))
    assert seen[0] == (3, [True, True])

    @custom_vmap
    def g(x, c):
        return x * c, c + 1.0

    @g.def_vmap
    def _(axis_size, in_batched, x, c):
        assert in_batched == [True, False]
        return (x * c, c + 1.0), (True, False)

    y, c1 = sciax.vmap(g, in_axes=(0, None), out_axes=(0, None))(np.arange(3.0), 2.0)
    np.testing.assert_array_equal(y, [0.0, 2.0, 4.0])
    assert float(c1) == 3.0


def test_differentiation_sees_the_body():
    f, _ = _make()
    x = np.arange(4.0)
    np.testing.assert_array_equal(sciax.grad(f)(x, 3.0), np.full(4, 3.0))
    g = sciax.vmap(sciax.grad(f, argnums=1))(np.ones((3, 4)), np.arange(3.0))
    np.testing.assert_array_equal(g, np.full(3, 4.0))
    _, t = sciax.jvp(lambda y: f(x, y), (2.0,), (1.0,))
    assert float(t) == 6.0


def test_arguments_without_tangents_keep_the_rule():
    f, seen = _make()

    def h(y):
        # the call's inputs carry no tangent: the rule survives vmap(grad)
        v = f(sciax.lax.stop_gradient(snp.ones(4) * y), sciax.lax.stop_gradient(y))
        return sciax.lax.stop_gradient(v) + y * y

    g = sciax.jit(sciax.vmap(sciax.value_and_grad(h)))(np.arange(3.0))
    np.testing.assert_array_equal(g[1], 2.0 * np.arange(3.0))
    np.testing.assert_array_equal(g[0], 4.0 * np.arange(3.0) ** 2 + 1000.0
                                  + np.arange(3.0) ** 2)
    assert seen


def test_batched_closure_falls_back_to_the_body():
    def outer(c):
        @custom_vmap
        def f(x):
            return x * c

        @f.def_vmap
        def _(axis_size, in_batched, x):
            raise AssertionError("the rule cannot see the batched closure")

        return f(2.0)

    np.testing.assert_array_equal(sciax.vmap(outer)(np.arange(3.0)), [0.0, 2.0, 4.0])


def test_errors():
    @custom_vmap
    def f(x):
        return x * 2.0

    with pytest.raises(AttributeError, match="def_vmap"):
        sciax.vmap(f)(np.ones(3))

    @f.def_vmap
    def _(axis_size, in_batched, x):
        return x[0] * 2.0, True               # drops the batch axis

    with pytest.raises(ValueError, match="expected shape"):
        sciax.vmap(f)(np.ones(3))

    @custom_vmap
    def g(x):
        return x * 2.0

    @g.def_vmap
    def _(axis_size, in_batched, x):
        return (x, x), True

    with pytest.raises(TypeError, match="structure"):
        sciax.vmap(g)(np.ones(3))


def test_keyword_arguments_and_methods():
    @custom_vmap
    def f(x, scale=1.0):
        return x * scale

    @f.def_vmap
    def _(axis_size, in_batched, x, scale):
        return x * scale, in_batched[0] or in_batched[1]

    np.testing.assert_array_equal(sciax.vmap(lambda x: f(x, scale=3.0))(np.ones(2)),
                                  [3.0, 3.0])
