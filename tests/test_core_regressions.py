"""Regressions at the edges of the transform core: custom rules and closures,
host callbacks in cond branches, checkpoint with non-float carries, and
custom rules under vmap."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax


# --- custom_jvp / custom_vjp closing over traced values ------------------------------

def _closing_jvp(p, rule_scale=None):
    """g(x) = sin(x) * p with p closed over; the rule is exact for x, or (with
    ``rule_scale``) deliberately ``rule_scale * t`` so its use is visible."""
    g = sciax.custom_jvp(lambda x: snp.sin(x) * p)

    @g.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        tx = snp.cos(x) * p * t if rule_scale is None else rule_scale * t
        return g(x), tx

    return g


def test_custom_jvp_closure_tangent_is_not_dropped():
    # f(p) = sin(p) * p: the rule covers the argument, the body the closure.
    f = lambda p: _closing_jvp(p)(p)  # noqa: E731
    p = 0.7
    want = np.cos(p) * p + np.sin(p)
    assert float(sciax.grad(f)(p)) == pytest.approx(want, rel=1e-12)
    assert float(sciax.jit(sciax.grad(f))(p)) == pytest.approx(want, rel=1e-12)
    _, t = sciax.jvp(f, (p,), (1.0,))
    assert float(t) == pytest.approx(want, rel=1e-12)


def test_custom_jvp_closure_only_and_rule_still_used():
    # Only the closed-over value varies: d/dp sin(3) p = sin(3).
    f = lambda p: _closing_jvp(p)(3.0)  # noqa: E731
    assert float(sciax.grad(f)(2.0)) == pytest.approx(np.sin(3.0), rel=1e-12)
    # Both vary, with a rule that says 10 t: 10 from the rule plus sin(p) from
    # the body's own derivative with respect to the closed-over p.
    h = lambda p: _closing_jvp(p, rule_scale=10.0)(p)  # noqa: E731
    assert float(sciax.grad(h)(0.4)) == pytest.approx(10.0 + np.sin(0.4), rel=1e-12)


def test_custom_jvp_closure_rule_without_the_closed_value():
    # A rule that never touches p used to give d/dp = 0 silently.
    def f(p):
        g = sciax.custom_jvp(lambda x: x * p)
        g.defjvp(lambda pr, tg: (pr[0] * p, tg[0] * 5.0))
        return g(3.0)

    assert float(sciax.grad(f)(2.0)) == pytest.approx(3.0, rel=1e-12)


def test_custom_vjp_closure_raises_instead_of_dropping():
    def f(p):
        g = sciax.custom_vjp(lambda x: x * p)
        g.defvjp(lambda x: (x * 2.0, None), lambda r, c: (c * 2.0,))
        return g(3.0)

    with pytest.raises(TypeError, match="closes over.*as an argument"):
        sciax.grad(f)(2.0)
    # Closing over a value that is not differentiated stays fine.
    g = lambda x, p: f(p) * x  # noqa: E731
    assert float(sciax.grad(g)(1.0, 2.0)) == pytest.approx(6.0)


# --- host callbacks inside cond branches ---------------------------------------------

def _cond_printing(x):
    return lax.cond(x > 0, lambda x: (sciax.debug.print("pos {}", x), x)[1],
                    lambda x: x, x)


@pytest.mark.parametrize("wrap", ["eager", "jit", "grad", "jit_grad"])
def test_print_in_cond_branch_runs(capsys, wrap):
    f = {"eager": _cond_printing, "jit": sciax.jit(_cond_printing),
         "grad": sciax.grad(_cond_printing),
         "jit_grad": sciax.jit(sciax.grad(_cond_printing))}[wrap]
    assert float(f(1.0)) == 1.0
    assert capsys.readouterr().out.splitlines() == ["pos 1.0"]
    f(-1.0)
    assert capsys.readouterr().out == ""


def test_callback_in_cond_whose_result_is_unused():
    seen = []

    def f(x):
        # The cond's only effect is the callback; its output is dropped.
        lax.cond(x > 0, lambda x: sciax.debug.callback(seen.append, x),
                 lambda x: None, x)
        return 2.0 * x

    assert float(sciax.jit(f)(3.0)) == 6.0
    assert float(sciax.grad(f)(3.0)) == 2.0
    assert [float(s) for s in seen] == [3.0, 3.0]


# --- checkpoint around loops with non-float values; cond around checkpoint -----------

def _fd(f, x, h=1e-6):
    # central difference: truncation ~h^2 f''' and rounding ~1e-16/h, both far
    # below the 1e-6 relative tolerance used with it
    return (float(f(x + h)) - float(f(x - h))) / (2 * h)


def _scan_with_predicate(c):
    # the carry's second part drives a boolean used with where (t5 of the
    # integrate engineer's repros): it has no tangent of its own
    def one(c, _):
        new = (c[0] * 1.1 + snp.sin(c[0]), c[1] + lax.stop_gradient(0.3 + 0 * c[0]))
        p = c[1] < 1.0
        return tuple(snp.where(p, a, b) for a, b in zip(new, c)), None

    return lax.scan(one, c, None, length=3)[0]


def _scan_with_bool_carry(c):
    def one(c, _):
        x, on = c
        new = snp.where(on, x * 1.1 + snp.sin(x), x)
        return (new, on & (new < 2.0)), None

    return lax.scan(one, c, None, length=4)[0]


@pytest.mark.parametrize("chunk", [_scan_with_predicate, _scan_with_bool_carry])
def test_checkpointed_scan_inside_scan_differentiates(chunk):
    second = 0.0 if chunk is _scan_with_predicate else True
    ck = sciax.checkpoint(chunk)

    def f(x, ck=ck):
        def outer(c, _):
            return ck(c), None
        return lax.scan(outer, (x, second), None, length=3)[0][0]

    want = _fd(f, 0.5)
    assert float(sciax.grad(f)(0.5)) == pytest.approx(want, rel=1e-6)
    assert float(sciax.jit(sciax.grad(f))(0.5)) == pytest.approx(want, rel=1e-6)
    # and the checkpoint changes nothing against the plain function
    plain = lambda x: f(x, ck=chunk)  # noqa: E731
    assert float(sciax.grad(f)(0.5)) == pytest.approx(float(sciax.grad(plain)(0.5)),
                                                      rel=1e-12)


_ck_loop = sciax.checkpoint(
    lambda x: lax.scan(lambda c, _: (snp.sin(c) + c, None), x, None, length=2)[0])


@pytest.mark.parametrize("f", [
    # predicate computed from a checkpoint's output
    lambda x: lax.cond(_ck_loop(x) > 0, lambda y: 2.0 * y, lambda y: -y, _ck_loop(x)),
    # checkpoint inside a branch, next to a primal use of the operand
    lambda x: lax.cond(x > 0, lambda y: _ck_loop(y) * y, lambda y: -y, x),
    # cond around a checkpoint inside a loop
    lambda x: lax.fori_loop(0, 2, lambda i, c: lax.cond(c > 0, _ck_loop,
                                                         lambda y: y, c), x),
], ids=["pred_from_checkpoint", "checkpoint_in_branch", "cond_in_loop"])
def test_cond_around_checkpoint_differentiates(f):
    want = _fd(f, 0.3)
    assert float(sciax.grad(f)(0.3)) == pytest.approx(want, rel=1e-6)
    assert float(sciax.jit(sciax.grad(f))(0.3)) == pytest.approx(want, rel=1e-6)


# --- custom rules under vmap -------------------------------------------------------

def _marked_vjp():
    # sin with a deliberately different (but valid) reverse rule: 3 * ct, so a
    # gradient of 3 shows the rule was used and cos(x) that the body was.
    @sciax.custom_vjp
    def f(x, y):
        return snp.sin(x) * y

    f.defvjp(lambda x, y: (f(x, y), (y,)), lambda r, ct: (3.0 * ct * r[0], None))
    return f


def _marked_jvp():
    @sciax.custom_jvp
    def f(x):
        return snp.sin(x)

    f.defjvp(lambda p, t: (f(p[0]), 5.0 * t[0]))
    return f


def test_custom_vjp_rule_kept_under_vmap():
    f = _marked_vjp()
    xs = snp.array([0.1, 0.2, 0.3])
    loss = lambda xs, y: snp.sum(sciax.vmap(f, in_axes=(0, None))(xs, y))  # noqa: E731
    np.testing.assert_allclose(sciax.grad(loss)(xs, 2.0), [6.0] * 3, rtol=1e-15)
    np.testing.assert_allclose(sciax.jit(sciax.grad(loss))(xs, 2.0), [6.0] * 3,
                               rtol=1e-15)
    # the other order, and the values themselves
    np.testing.assert_allclose(sciax.vmap(sciax.grad(f), (0, None))(xs, 2.0),
                               [6.0] * 3, rtol=1e-15)
    np.testing.assert_allclose(sciax.vmap(f, (0, None))(xs, 2.0), 2.0 * np.sin(xs),
                               rtol=1e-15)
    # None from bwd for a batched argument is a zero cotangent
    ys = snp.array([1.0, 2.0, 3.0])
    gy = sciax.grad(lambda y: snp.sum(sciax.vmap(f)(xs, y)))(ys)
    np.testing.assert_allclose(gy, [0.0] * 3)


def test_custom_jvp_rule_kept_under_vmap():
    f = _marked_jvp()
    xs = snp.array([0.1, 0.2, 0.3])
    loss = lambda xs: snp.sum(sciax.vmap(f)(xs))  # noqa: E731
    np.testing.assert_allclose(sciax.grad(loss)(xs), [5.0] * 3, rtol=1e-15)
    np.testing.assert_allclose(sciax.jit(sciax.grad(loss))(xs), [5.0] * 3, rtol=1e-15)
    _, t = sciax.jvp(sciax.vmap(f), (xs,), (snp.ones(3),))
    np.testing.assert_allclose(t, [5.0] * 3, rtol=1e-15)
    np.testing.assert_allclose(sciax.vmap(f)(xs), np.sin(xs), rtol=1e-15)


def test_rule_closing_over_a_vmapped_value_raises_clearly():
    # The rule runs apart from the vmap (bwd in the backward pass), so a
    # vmapped value it closes over cannot reach it: an error, never the body's
    # derivative in the rule's place.
    def f(x, a):
        g = sciax.custom_vjp(lambda x: x * 2.0)
        g.defvjp(lambda x: (x * 2.0, None), lambda r, ct: (ct * a,))
        return g(x)

    xs, a = snp.ones(3), snp.array([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="closes over.*as an argument"):
        sciax.grad(lambda xs: snp.sum(sciax.vmap(f)(xs, a)))(xs)
    # vmap of grad differentiates per example, inside the vmap: fine
    np.testing.assert_allclose(sciax.vmap(sciax.grad(f))(xs, a), a)


@pytest.mark.slow  # ~13 s: compiles minimize, its vmap and its gradient
def test_grad_of_vmapped_minimize_uses_its_implicit_rule():
    # minimize attaches implicit derivatives with a custom_vjp whose body is the
    # identity on the optimum: inlining it under vmap gave zero gradients.
    from sciax.optimize import minimize

    def q(x, a):
        return snp.sum((x - a) ** 2 * snp.array([1.0, 3.0])) + 0.1 * snp.sum(x ** 4)

    def loss(a):
        return snp.sum(minimize(q, snp.zeros(2), args=(a,)).x ** 2)

    As = snp.array([[0.5, 1.0], [1.5, -0.3]])
    g = sciax.grad(lambda A: snp.sum(sciax.vmap(loss)(A)))(As)
    loop = np.stack([np.asarray(sciax.grad(loss)(a)) for a in As])
    np.testing.assert_allclose(g, loop, rtol=1e-10)
    # minimize's default gtol leaves ~1e-5 of error against finite differences
    h = 1e-6
    fd = [[(float(loss(a.at[j].add(h))) - float(loss(a.at[j].add(-h)))) / (2 * h)
           for j in range(2)] for a in As]
    np.testing.assert_allclose(g, fd, rtol=1e-4, atol=1e-6)


def test_clear_caches_drops_programs_and_results_stay_right():
    traces = []

    @sciax.jit
    def f(x):
        traces.append(1)
        return snp.sin(x) * 2.0

    a = f(snp.arange(3.0))
    f(snp.arange(3.0))
    assert len(traces) == 1
    sciax.clear_caches()
    b = f(snp.arange(3.0))
    assert len(traces) == 2  # traced again after the caches were dropped
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    # grad of a jitted function (the transformed-body caches) still works
    g = sciax.grad(lambda x: f(x).sum())(snp.arange(3.0))
    np.testing.assert_allclose(np.asarray(g), 2 * np.cos(np.arange(3.0)))


def test_python_scalar_arguments_reuse_buffers_without_mixing_values():
    # dispatch keeps one device buffer per Python scalar; values that compare
    # equal but differ (0.0 / -0.0, 1 / True / 1.0) must not share one
    f = sciax.jit(lambda a, b: a * b)
    x = snp.ones(3)
    for _ in range(2):
        assert np.signbit(np.asarray(f(x, -0.0))).all()
        assert not np.signbit(np.asarray(f(x, 0.0))).any()
        assert np.isnan(np.asarray(f(x, float("nan")))).all()
    ident = sciax.jit(lambda a: a)
    assert ident(True).dtype == np.bool_ and ident(1).dtype == snp.int64
    assert ident(1.0).dtype == snp.float64 and ident(1j).dtype == snp.complex128
    np.testing.assert_array_equal(np.asarray(x * 2.0 + x * 3), [5.0, 5.0, 5.0])
    # the cache holds weak types of the current x64 mode only
    with sciax.enable_x64(False):
        assert ident(1.5).dtype == np.float32
    assert ident(1.5).dtype == np.float64
