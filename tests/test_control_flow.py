"""sciax.lax control flow: cond, switch, while_loop, fori_loop, scan, map and
associative_scan, eagerly, under jit, vmap, jvp and grad, against Python/NumPy
references and finite differences; and the errors for bad input.

Shapes are reused across tests so that each new signature compiles once.
"""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.test_util import check_grads

# Each behaviour is checked eagerly (every primitive dispatched on its own) and
# compiled as one program.  Eager control flow compiles its primitive on every
# call (the bodies are traced afresh), so eager cases keep to a few calls, and
# derivative checks, which call the function many times, run under jit.
MODES = {"eager": lambda f: f, "jit": sciax.jit}


@pytest.fixture(params=list(MODES), ids=list(MODES))
def mode(request):
    return MODES[request.param]


def prims(f, *args):
    """Names of the top-level equations' primitives of ``make_jaxpr(f)(*args)``."""
    return [e.primitive.name for e in sciax.make_jaxpr(f)(*args).jaxpr.eqns]


def all_prims(jaxpr):
    """Primitive names of ``jaxpr`` and of every jaxpr nested in its params."""
    names = []
    for e in jaxpr.eqns:
        names.append(e.primitive.name)
        for p in e.params.values():
            for sub in p if isinstance(p, tuple) else (p,):
                if hasattr(sub, "jaxpr") and hasattr(sub.jaxpr, "eqns"):
                    names.extend(all_prims(sub.jaxpr))
    return names


X3 = np.array([0.5, -1.25, 2.0])


# --- cond ---------------------------------------------------------------------------

def test_cond_takes_each_branch(mode):
    f = mode(lambda p, x: lax.cond(p, lambda v: v * 2.0 + 1.0, lambda v: snp.sin(v), x))
    np.testing.assert_allclose(np.asarray(f(True, X3)), X3 * 2.0 + 1.0, rtol=1e-15)
    np.testing.assert_allclose(np.asarray(f(False, X3)), np.sin(X3), rtol=1e-15)
    # a traced comparison as predicate, the usual case under jit
    g = mode(lambda x: lax.cond(x > 0, lambda v: v * 2.0, lambda v: -v, x))
    assert float(g(3.0)) == 6.0
    assert float(g(-1.5)) == 1.5


def test_cond_integer_predicate_means_nonzero(mode):
    f = mode(lambda p, x: lax.cond(p, lambda v: v + 1.0, lambda v: v - 1.0, x))
    for p in (0, 5, -2):
        expected = 2.0 + (1.0 if p else -1.0)
        assert float(f(np.int32(p), 2.0)) == expected, p


def test_cond_pytrees_of_operands_and_outputs(mode):
    def true_fun(d, t):
        return {"s": d["a"] + t[0], "p": (d["b"] * t[1], t[0])}

    def false_fun(d, t):
        return {"s": d["a"] - t[0], "p": (d["b"] + t[1], -t[0])}

    f = mode(lambda p, d, t: lax.cond(p, true_fun, false_fun, d, t))
    d = {"a": X3, "b": np.float64(3.0)}
    t = (np.ones(3), np.float64(0.5))
    for p in (True, False):
        out = f(p, d, t)
        ref = (true_fun if p else false_fun)(d, t)
        assert set(out) == {"s", "p"} and isinstance(out["p"], tuple)
        np.testing.assert_allclose(np.asarray(out["s"]), ref["s"], rtol=1e-15)
        for a, b in zip(out["p"], ref["p"]):
            np.testing.assert_allclose(np.asarray(a), b, rtol=1e-15)


def test_cond_branches_close_over_outer_arrays(mode):
    w = snp.array([1.0, 2.0, 3.0])  # a concrete array captured by a branch

    def f(p, x, y):
        # y is a traced argument under jit, captured by the other branch
        return lax.cond(p, lambda v: v * w, lambda v: v + y, x)

    f = mode(f)
    np.testing.assert_allclose(np.asarray(f(True, X3, 10.0)), X3 * [1, 2, 3])
    np.testing.assert_allclose(np.asarray(f(False, X3, 10.0)), X3 + 10.0)


def test_cond_without_operands_and_nested(mode):
    def sign3(x):
        # -1, 0, +1 through two nested conds; the inner one closes over x
        return lax.cond(x > 0, lambda: 1.0,
                        lambda: lax.cond(x < 0, lambda: -1.0, lambda: 0.0))

    f = mode(sign3)
    assert [float(f(v)) for v in (2.0, -3.0, 0.0)] == [1.0, -1.0, 0.0]


def test_make_jaxpr_shows_one_cond_equation():
    def f(x):
        return lax.cond(x > 0, lambda v: snp.sin(v) * 2.0, lambda v: v - 1.0, x)

    names = prims(f, 1.0)
    assert names.count("cond") == 1, names
    text = str(sciax.make_jaxpr(f)(1.0))
    assert "cond[" in text and "sin" in text  # the branches are shown


def test_cond_jvp_and_grad_follow_the_taken_branch(mode):
    def f(x):
        return lax.cond(x > 0, lambda v: snp.sin(v) * v, lambda v: v * v * v, x)

    df = mode(sciax.grad(f))
    d2f = sciax.jit(sciax.grad(sciax.grad(f)))
    for x in (0.7, -1.3):
        expected = np.cos(x) * x + np.sin(x) if x > 0 else 3 * x * x
        np.testing.assert_allclose(float(df(x)), expected, rtol=1e-13)
        _, t = mode(lambda x: sciax.jvp(f, (x,), (2.0,)))(x)
        np.testing.assert_allclose(float(t), 2.0 * expected, rtol=1e-13)
        second = 2 * np.cos(x) - x * np.sin(x) if x > 0 else 6 * x
        np.testing.assert_allclose(float(d2f(x)), second, rtol=1e-13)


def test_cond_check_grads():
    def f(x, y):
        return lax.cond(x > y, lambda a, b: snp.sin(a) * b, lambda a, b: a * a * b,
                        x, y)

    jf = sciax.jit(f)
    check_grads(jf, (0.7, 0.2), order=1)
    check_grads(jf, (-1.3, 0.2), order=1)


def test_cond_grad_wrt_closed_over_value_and_pytree_operands():
    def f(a, d):
        out = lax.cond(a > 1.0, lambda t: (t[0] * a, t[1]),
                       lambda t: (t[1], t[0] + a), d)
        return out[0] * out[1]

    for a in (2.0, 0.5):
        g = sciax.grad(f, argnums=(0, 1))(a, (3.0, 5.0))
        if a > 1.0:  # f = 3a * 5
            expected = (15.0, (5.0 * a, 3.0 * a))
        else:  # f = 5 * (3 + a)
            expected = (5.0, (5.0, 3.0 + a))
        np.testing.assert_allclose(float(g[0]), expected[0], rtol=1e-15)
        np.testing.assert_allclose([float(v) for v in g[1]], expected[1], rtol=1e-15)


def test_vmap_cond_with_batched_predicate_selects():
    def f(x):
        # log of a negative number is NaN; with a batched predicate both branches
        # run, but the untaken branch's value must not leak through
        return lax.cond(x > 0, lambda v: snp.log(v), lambda v: -v, x)

    xs = np.array([2.0, -3.0, 0.5, -0.25])
    expected = np.where(xs > 0, np.log(np.abs(xs)), -xs)
    for vf in (sciax.vmap(f), sciax.jit(sciax.vmap(f))):
        np.testing.assert_allclose(np.asarray(vf(xs)), expected, rtol=1e-15)
    names = all_prims(sciax.make_jaxpr(sciax.vmap(f))(xs).jaxpr)
    assert "cond" not in names and "select_n" in names, names


def test_vmap_cond_with_unbatched_predicate_keeps_cond():
    def f(p, x):
        return lax.cond(p, lambda v: v * 2.0, lambda v: v + 1.0, x)

    vf = sciax.vmap(f, in_axes=(None, 0))
    for p in (True, False):
        np.testing.assert_allclose(np.asarray(vf(p, X3)), X3 * 2.0 if p else X3 + 1.0)
    assert "cond" in prims(vf, True, X3)
    # batched predicate, unbatched operand; and a batched integer predicate
    vp = sciax.vmap(f, in_axes=(0, None))
    np.testing.assert_allclose(np.asarray(vp(np.array([True, False, True]), 1.5)),
                               [3.0, 2.5, 3.0])
    np.testing.assert_allclose(
        np.asarray(sciax.vmap(f)(np.array([0, 3, -1], np.int32), X3)),
        [X3[0] + 1.0, X3[1] * 2.0, X3[2] * 2.0])


def test_vmap_cond_pytree_and_grad_under_vmap():
    def f(x, y):
        out = lax.cond(x < y, lambda a, b: {"u": a * b, "v": a},
                       lambda a, b: {"u": a + b, "v": b}, x, y)
        return out["u"] * out["v"]

    xs, ys = np.array([1.0, 3.0, -2.0]), np.array([2.0, 1.0, 0.5])
    sciax.test_util.check_batching(f, (xs, ys))
    g = sciax.vmap(sciax.grad(f, argnums=(0, 1)))(xs, ys)
    # x < y: f = x^2 y; else f = (x + y) y
    gx = np.where(xs < ys, 2 * xs * ys, ys)
    gy = np.where(xs < ys, xs * xs, xs + 2 * ys)
    np.testing.assert_allclose(np.asarray(g[0]), gx, rtol=1e-15)
    np.testing.assert_allclose(np.asarray(g[1]), gy, rtol=1e-15)


# --- switch ---------------------------------------------------------------------------

BRANCHES = [lambda x: x + 1.0, lambda x: x * 10.0, lambda x: -x]


def switch_ref(i, x):
    return BRANCHES[min(max(i, 0), len(BRANCHES) - 1)](x)


def test_switch_picks_branch_and_clamps_the_index(mode):
    f = mode(lambda i, x: lax.switch(i, BRANCHES, x))
    indices = (-5, -1, 0, 1, 2, 3, 100) if mode is sciax.jit else (-1, 1, 3)
    for i in indices:
        np.testing.assert_allclose(np.asarray(f(np.int32(i), X3)), switch_ref(i, X3),
                                   err_msg=f"index {i}")


def test_switch_vmap_with_batched_and_unbatched_index():
    idx = np.array([-2, 0, 1, 2, 7], np.int32)
    xs = np.linspace(-1.0, 1.0, 5)
    out = sciax.vmap(lambda i, x: lax.switch(i, BRANCHES, x))(idx, xs)
    np.testing.assert_allclose(np.asarray(out),
                               [switch_ref(int(i), x) for i, x in zip(idx, xs)])
    out = sciax.vmap(lambda i, x: lax.switch(i, BRANCHES, x), in_axes=(None, 0))(
        np.int32(1), xs)
    np.testing.assert_allclose(np.asarray(out), xs * 10.0)


def test_switch_grad_and_jvp():
    fs = [lambda x: snp.sin(x), lambda x: x * x, lambda x: snp.exp(x)]
    derivs = [np.cos, lambda x: 2 * x, np.exp]
    def f(i, x):
        return lax.switch(i, fs, x)

    df = sciax.jit(sciax.grad(f, argnums=1))
    for i in range(3):
        np.testing.assert_allclose(float(df(np.int32(i), 0.3)), derivs[i](0.3),
                                   rtol=1e-14)
    i1 = sciax.device_put(np.int32(1))
    check_grads(sciax.jit(lambda x: f(i1, x)), (0.3,), order=1)


# --- while_loop -----------------------------------------------------------------------

def newton_sqrt(a):
    """sqrt(a) by Newton's method, at most 60 steps (a safety bound)."""
    def cond_fun(c):
        x, i = c
        return snp.logical_and(snp.abs(x * x - a) > 1e-13 * a, i < 60)

    def body_fun(c):
        x, i = c
        return 0.5 * (x + a / x), i + 1

    return lax.while_loop(cond_fun, body_fun, (a, 0))[0]


def test_while_newton_sqrt_eager_and_jit(mode):
    f = mode(newton_sqrt)
    for a in (2.0, 0.01, 1e4):
        np.testing.assert_allclose(float(f(a)), np.sqrt(a), rtol=1e-13)
    assert "while" in prims(newton_sqrt, 2.0)


def test_while_newton_sqrt_vmapped_over_1000_inputs():
    a = np.geomspace(1e-3, 1e3, 1000)
    for f in (sciax.jit(sciax.vmap(newton_sqrt)), sciax.vmap(newton_sqrt)):
        np.testing.assert_allclose(np.asarray(f(a)), np.sqrt(a), rtol=1e-13)


def test_while_jvp_matches_analytic_derivative():
    a = np.array([0.25, 2.0, 9.0, 1e3])
    for x in a:
        p, t = sciax.jvp(newton_sqrt, (x,), (1.0,))
        np.testing.assert_allclose(float(p), np.sqrt(x), rtol=1e-13)
        # Newton's iterate converges quadratically, and so does its tangent
        np.testing.assert_allclose(float(t), 0.5 / np.sqrt(x), rtol=1e-10)
    # jit(vmap(jvp)) and jacfwd
    dt = sciax.jit(sciax.vmap(lambda x: sciax.jvp(newton_sqrt, (x,), (1.0,))[1]))(a)
    np.testing.assert_allclose(np.asarray(dt), 0.5 / np.sqrt(a), rtol=1e-10)
    np.testing.assert_allclose(float(sciax.jacfwd(newton_sqrt)(2.0)),
                               0.5 / np.sqrt(2.0), rtol=1e-10)


def test_while_grad_raises_and_points_to_fori_loop_and_scan():
    for g in (sciax.grad(newton_sqrt), sciax.jit(sciax.grad(newton_sqrt))):
        with pytest.raises(TypeError, match="while_loop") as e:
            g(2.0)
        msg = str(e.value)
        assert "fori_loop" in msg and "scan" in msg, msg


def test_while_pytree_carry_and_closure(mode):
    w = snp.array([1.0, -2.0, 0.5])

    def f(x0, limit):
        def body(c):
            return {"x": c["x"] + w, "n": c["n"] + 1}
        return lax.while_loop(lambda c: c["n"] < limit, body, {"x": x0, "n": 0})

    out = mode(f)(X3, 4)
    assert int(out["n"]) == 4
    np.testing.assert_allclose(np.asarray(out["x"]),
                               X3 + 4 * np.array([1.0, -2.0, 0.5]))
    out = mode(f)(X3, 0)  # the body never runs
    assert int(out["n"]) == 0
    np.testing.assert_allclose(np.asarray(out["x"]), X3)


def test_vmap_while_batched_predicate_freezes_finished_members():
    # member k needs n[k] steps; every member keeps the carry it had when its
    # own predicate became false, although the loop runs max(n) times
    def f(n):
        def body(c):
            i, p, steps = c
            return i + 1, p * 2.0, steps + 1
        return lax.while_loop(lambda c: c[0] < n, body, (0, 1.0, 0))

    n = np.array([3, 0, 7, 1, 5], np.int32)
    for vf in (sciax.vmap(f), sciax.jit(sciax.vmap(f))):
        i, p, steps = vf(n)
        np.testing.assert_array_equal(np.asarray(i), n)
        np.testing.assert_array_equal(np.asarray(steps), n)
        np.testing.assert_array_equal(np.asarray(p), 2.0 ** n)


def collatz_steps_ref(v):
    k = 0
    while v != 1:
        v = v // 2 if v % 2 == 0 else 3 * v + 1
        k += 1
    return k


def test_vmap_while_data_dependent_stop_matches_python():
    def steps(v):
        def body(c):
            x, k = c
            x = snp.where(x % 2 == 0, x // 2, 3 * x + 1)
            return x, k + 1
        return lax.while_loop(lambda c: c[0] != 1, body, (v, 0))[1]

    v = np.arange(1, 41, dtype=np.int32)
    out = sciax.jit(sciax.vmap(steps))(v)
    np.testing.assert_array_equal(np.asarray(out),
                                  [collatz_steps_ref(int(x)) for x in v])


def test_vmap_while_unbatched_predicate_batched_carry():
    def f(x):
        return lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * x),
                              (0, 1.0))

    out = sciax.vmap(f)(X3)
    np.testing.assert_array_equal(np.asarray(out[0]), [5, 5, 5])
    np.testing.assert_allclose(np.asarray(out[1]), X3 ** 5, rtol=1e-15)
    names = all_prims(sciax.make_jaxpr(sciax.vmap(f))(X3).jaxpr)
    assert "reduce_or" not in names, names  # no any() over the batch needed


def test_vmap_jvp_while_with_batched_predicate():
    # tangents of finished members are frozen too
    def f(x, n):
        return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * x),
                              (0, 1.0))[1]

    n = np.array([1, 4, 2], np.int32)
    p, t = sciax.vmap(lambda x, n: sciax.jvp(lambda y: f(y, n), (x,), (1.0,)))(X3, n)
    np.testing.assert_allclose(np.asarray(p), X3 ** n, rtol=1e-15)
    np.testing.assert_allclose(np.asarray(t), n * X3 ** (n - 1), rtol=1e-15)


# --- fori_loop ------------------------------------------------------------------------

def test_fori_loop_static_bounds_is_a_differentiable_scan(mode):
    def f(a, x):
        return lax.fori_loop(1, 5, lambda i, v: v * a + i, x)

    def ref(a, x):
        for i in range(1, 5):
            x = x * a + i
        return x

    np.testing.assert_allclose(float(mode(f)(1.5, 0.25)), ref(1.5, 0.25), rtol=1e-15)
    assert "scan" in prims(f, 1.5, 0.25)
    g = mode(sciax.grad(f, argnums=(0, 1)))(1.5, 0.25)
    # ref = x a^4 + a^3 + 2 a^2 + 3 a + 4
    np.testing.assert_allclose(float(g[0]),
                               4 * 0.25 * 1.5 ** 3 + 3 * 1.5 ** 2 + 4 * 1.5 + 3,
                               rtol=1e-14)
    np.testing.assert_allclose(float(g[1]), 1.5 ** 4, rtol=1e-14)
    check_grads(sciax.jit(f), (1.5, 0.25), order=1)
    # an empty range returns the initial value
    empty = mode(lambda x: lax.fori_loop(3, 3, lambda i, v: v + 1.0, x))
    assert float(empty(2.0)) == 2.0


def test_fori_loop_traced_bounds_is_a_while(mode):
    def f(n, x):
        return lax.fori_loop(0, n, lambda i, v: v + i * x, 0.0)

    # (NumPy integer scalars count as static bounds; device arrays are traced)
    for n in (0, 1, 6):
        out = mode(f)(sciax.device_put(np.int32(n)), 2.0)
        np.testing.assert_allclose(float(out), 2.0 * sum(range(n)))
    four = sciax.device_put(np.int32(4))
    assert "while" in prims(f, four, 2.0)
    _, t = sciax.jvp(lambda x: f(four, x), (2.0,), (1.0,))
    assert float(t) == 6.0
    with pytest.raises(TypeError, match="fori_loop"):
        sciax.grad(lambda x: f(four, x))(2.0)
    # batched traced bound: members run different trip counts
    out = sciax.vmap(f, in_axes=(0, None))(np.array([0, 2, 5], np.int32), 1.0)
    np.testing.assert_allclose(np.asarray(out), [0.0, 1.0, 10.0])


# --- scan -----------------------------------------------------------------------------

XS = np.array([1.0, -2.0, 0.5, 3.0, 0.25])


def test_scan_cumulative_sum_with_ys(mode):
    def f(xs):
        return lax.scan(lambda c, x: (c + x, c * 2.0), 0.0, xs)

    c, ys = mode(f)(XS)
    np.testing.assert_allclose(float(c), XS.sum(), rtol=1e-15)
    np.testing.assert_allclose(np.asarray(ys),
                               2.0 * np.concatenate([[0], np.cumsum(XS)[:-1]]))
    assert "scan" in prims(f, XS)


def test_scan_reverse(mode):
    def f(xs):
        return lax.scan(lambda c, x: (c * 0.5 + x, c), 1.0, xs, reverse=True)

    c, ys = mode(f)(XS)
    ref_c, ref_ys = 1.0, np.zeros(5)
    for k in reversed(range(5)):
        ref_ys[k] = ref_c
        ref_c = ref_c * 0.5 + XS[k]
    np.testing.assert_allclose(float(c), ref_c, rtol=1e-15)
    np.testing.assert_allclose(np.asarray(ys), ref_ys, rtol=1e-15)


def test_scan_pytree_carry_and_xs(mode):
    def step(carry, x):
        s, (p, n) = carry["s"], carry["pn"]
        s = s + x["a"] * x["b"]
        return {"s": s, "pn": (p * x["a"], n + 1)}, {"s": s, "sq": x["b"] ** 2}

    def f(a, b, s0, p0):
        return lax.scan(step, {"s": s0, "pn": (p0, 0)}, {"a": a, "b": b})

    b = np.stack([XS, XS[::-1]], axis=1)  # a (5, 2) leaf: slices are (2,)
    a = XS[:, None] * np.ones(2)
    c, ys = mode(f)(a, b, np.zeros(2), np.ones(2))
    np.testing.assert_allclose(np.asarray(c["s"]), (a * b).sum(0), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(c["pn"][0]), np.prod(a, 0), rtol=1e-14)
    assert int(c["pn"][1]) == 5
    np.testing.assert_allclose(np.asarray(ys["s"]), np.cumsum(a * b, 0), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(ys["sq"]), b ** 2)


def test_scan_without_xs_and_without_ys(mode):
    # xs=None needs length; f gets x=None; ys=None comes back as None
    def f(c0):
        return lax.scan(lambda c, x: (c * 2.0 if x is None else c, None), c0, None,
                        length=5)

    c, ys = mode(f)(1.5)
    assert float(c) == 1.5 * 32 and ys is None

    def g(c0):  # ys stacked from a carry-only loop
        return lax.scan(lambda c, _: (c + 1.0, c), c0, length=5)[1]

    np.testing.assert_allclose(np.asarray(mode(g)(0.0)), np.arange(5.0))


def test_scan_of_length_zero_returns_the_init_carry(mode):
    f = mode(lambda c0: lax.scan(lambda c, _: (c * 2.0, None), c0, None, length=0)[0])
    assert float(f(1.5)) == 1.5
    c, ys = mode(lambda c0, xs: lax.scan(lambda c, x: (c + x, c), c0, xs))(
        1.5, snp.zeros(0))
    assert float(c) == 1.5 and np.asarray(ys).shape == (0,)


def test_scan_closure_and_vmap(mode):
    w = snp.array(XS)

    def f(c0, xs):
        # closes over a concrete array (w) and a traced value (c0) inside the body
        return lax.scan(lambda c, x: (c * x + w[0] + c0, c), c0, xs)

    def ref(c0, xs):
        c, ys = c0, []
        for x in xs:
            ys.append(c)
            c = c * x + XS[0] + c0
        return c, np.array(ys)

    c, ys = mode(f)(0.5, XS)
    rc, rys = ref(0.5, XS)
    np.testing.assert_allclose(float(c), rc, rtol=1e-15)
    np.testing.assert_allclose(np.asarray(ys), rys, rtol=1e-15)
    # batched carry only, batched xs only, both
    c0s = np.array([0.5, -1.0, 2.0])
    xss = np.stack([XS, XS * 0.5, -XS])
    for in_axes in ((0, None), (None, 0), (0, 0)):
        args = (c0s if in_axes[0] == 0 else 0.5, xss if in_axes[1] == 0 else XS)
        cb, ysb = mode(sciax.vmap(f, in_axes=in_axes))(*args)
        for k in range(3):
            rc, rys = ref(*(a[k] if ax == 0 else a for a, ax in zip(args, in_axes)))
            np.testing.assert_allclose(float(cb[k]), rc, rtol=1e-14)
            np.testing.assert_allclose(np.asarray(ysb[k]), rys, rtol=1e-14)


# An Elman RNN, h <- tanh(W h + U x + b), reading xs of shape (T, D) and emitting
# a per-step output; the scalar loss sums the final state and the outputs.
H, D, T = 3, 2, 5
RNG = np.random.default_rng(0)
W = RNG.standard_normal((H, H)) * 0.5
U = RNG.standard_normal((H, D)) * 0.5
B = RNG.standard_normal(H) * 0.1
RNN_XS = RNG.standard_normal((T, D))
H0 = np.array([0.1, -0.2, 0.3])


def rnn(w, u, b, xs, h0):
    def cell(h, x):
        h = snp.tanh(w @ h + u @ x + b)
        return h, snp.sum(h * h)

    return lax.scan(cell, h0, xs)


def rnn_loss(w, u, b, xs):
    h, ys = rnn(w, u, b, xs, H0)
    return snp.sum(h) + snp.sum(ys)


def rnn_loss_np(w, u, b, xs):
    h, total = H0, 0.0
    for x in xs:
        h = np.tanh(w @ h + u @ x + b)
        total += np.sum(h * h)
    return np.sum(h) + total


def central_differences(f, args, eps=1e-5):
    """d f / d args[k][i] for every entry, by central differences in NumPy."""
    grads = []
    for k, a in enumerate(args):
        g = np.zeros_like(a)
        for i in np.ndindex(a.shape):
            hi, lo = list(args), list(args)
            hi[k], lo[k] = a.copy(), a.copy()
            hi[k][i] += eps
            lo[k][i] -= eps
            g[i] = (f(*hi) - f(*lo)) / (2 * eps)
        grads.append(g)
    return grads


RNN_FD = central_differences(rnn_loss_np, (W, U, B, RNN_XS))


def test_rnn_scan_gradients_match_finite_differences(mode):
    # every entry of the gradient wrt the weights and the inputs; the central
    # differences' error is ~eps**2 * f''' + ulp(f) / eps, about 1e-10 here
    g = mode(sciax.grad(rnn_loss, argnums=(0, 1, 2, 3)))(W, U, B, RNN_XS)
    for name, a, r in zip("W U b xs".split(), g, RNN_FD):
        np.testing.assert_allclose(np.asarray(a), r, rtol=1e-7, atol=1e-8, err_msg=name)


def test_rnn_scan_check_grads():
    # the whole (carry, ys) output, both modes, in random directions
    check_grads(sciax.jit(rnn), (W, U, B, RNN_XS, H0), order=1, modes=["rev", "fwd"])


@pytest.mark.slow  # long: runs in CI's second step
def test_rnn_scan_gradients_under_vmap():
    # a batch of three sequences against shared weights
    xs = np.stack([RNN_XS, -RNN_XS, 0.5 * RNN_XS])
    vrnn = sciax.vmap(rnn, in_axes=(None, None, None, 0, None))
    check_grads(sciax.jit(vrnn), (W, U, B, xs, H0), order=1, modes=["rev"])

    # vmap of grad: per-example gradients, each against finite differences
    per_example = sciax.jit(sciax.vmap(sciax.grad(rnn_loss, argnums=(0, 3)),
                                       in_axes=(None, None, None, 0)))(W, U, B, xs)
    for k in range(3):
        fd = central_differences(rnn_loss_np, (W, U, B, xs[k]))
        for name, a, r in zip(("W", "xs"), per_example, (fd[0], fd[3])):
            np.testing.assert_allclose(np.asarray(a[k]), r, rtol=1e-7, atol=1e-8,
                                       err_msg=f"example {k}: {name}")


def test_scan_reverse_gradients():
    def f(a, xs):
        return lax.scan(lambda c, x: (snp.sin(c * a + x), c), 0.3, xs, reverse=True)

    check_grads(f, (0.7, XS), order=1, modes=["rev", "fwd"])


def test_map(mode):
    f = mode(lambda xs: lax.map(lambda x: {"sq": x * x, "neg": -x}, xs))
    out = f(XS)
    np.testing.assert_allclose(np.asarray(out["sq"]), XS ** 2)
    np.testing.assert_allclose(np.asarray(out["neg"]), -XS)
    m = np.arange(15.0).reshape(5, 3)
    np.testing.assert_allclose(np.asarray(mode(lambda a: lax.map(snp.sin, a))(m)),
                               np.sin(m), rtol=1e-15)


# --- nested control flow --------------------------------------------------------------

def cond_in_scan(x):  # closes over x inside the cond branch
    def step(c, a):
        return lax.cond(a > 1.0, lambda q: q * x, lambda q: q + x, c), None
    return lax.scan(step, 1.0, snp.arange(4.0))[0]


def scan_in_cond(x):
    return lax.cond(x > 0, lambda v: lax.fori_loop(0, 3, lambda i, c: c * v, 1.0),
                    lambda v: v, x)


def cond_in_cond(x):
    return lax.cond(x > 0, lambda v: lax.cond(v > 1, lambda w: w * v, lambda w: w, v),
                    lambda v: v, x)


def scan_in_scan(x):
    def outer(c, _):
        return lax.scan(lambda d, _: (d * x, None), c, None, length=2)[0], None
    return lax.scan(outer, 1.0, None, length=2)[0]


# (value, derivative) for x > 1
NESTED = {cond_in_scan: (lambda x: (1 + 2 * x) * x * x,
                         lambda x: 2 * x * x + 2 * x * (1 + 2 * x)),
          scan_in_cond: (lambda x: x ** 3, lambda x: 3 * x * x),
          cond_in_cond: (lambda x: x * x, lambda x: 2 * x),
          scan_in_scan: (lambda x: x ** 4, lambda x: 4 * x ** 3)}


@pytest.mark.parametrize("fn", list(NESTED), ids=lambda f: f.__name__)
def test_nested_control_flow_forward_mode_and_vmap(fn):
    value, deriv = NESTED[fn]
    xs = np.array([1.5, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(sciax.jit(sciax.vmap(fn))(xs)), value(xs),
                               rtol=1e-14)
    p, t = sciax.jit(sciax.vmap(lambda x: sciax.jvp(fn, (x,), (1.0,))))(xs)
    np.testing.assert_allclose(np.asarray(p), value(xs), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(t), deriv(xs), rtol=1e-14)


def test_nested_cond_in_cond_reverse_mode():
    np.testing.assert_allclose(float(sciax.jit(sciax.grad(cond_in_cond))(2.0)), 4.0)


@pytest.mark.parametrize("fn", list(NESTED), ids=lambda f: f.__name__)
def test_nested_control_flow_reverse_mode(fn):
    _, deriv = NESTED[fn]
    xs = np.array([1.5, 2.0, 3.0])
    got = [float(sciax.grad(fn)(x)) for x in xs[:1]]
    np.testing.assert_allclose(got, deriv(xs[:1]), rtol=1e-12)
    got = sciax.jit(sciax.vmap(sciax.grad(fn)))(xs)
    np.testing.assert_allclose(np.asarray(got), deriv(xs), rtol=1e-12)


def _deep_nest(depth, salt):
    """scan(fori_loop(scan(...cond...))) nested ``depth`` deep; ``salt`` makes
    the traced bodies differ from every other test's (the trace caches are
    keyed on structure)."""
    def level(d, v):
        if d == 0:
            return lax.cond(v[0] > salt, lambda u: snp.sin(u) * salt,
                            lambda u: snp.cos(u) + salt, v)
        if d % 2:
            return lax.scan(lambda c, _: (level(d - 1, c), None), v, None, length=2)[0]
        return lax.fori_loop(0, 2, lambda i, c: level(d - 1, c), v)
    return lambda x: snp.sum(level(depth, x))


def test_reverse_mode_trace_cost_is_linear_in_nesting_depth(monkeypatch):
    # Partial evaluation and JVP of a loop or cond body used to re-trace it
    # (and so every body nested in it) two or three times per level: tracing
    # grad of a 6-deep nest staged ~3**6 copies of the innermost branch.  Count
    # how often the innermost branch's ``sin`` is staged while tracing grad.
    from sciax._src.interpreters import partial_eval as pe
    staged = pe.DynamicJaxprTrace.process_primitive
    count = [0]

    def counting(self, primitive, args, params):
        count[0] += primitive.name == "sin"
        return staged(self, primitive, args, params)
    monkeypatch.setattr(pe.DynamicJaxprTrace, "process_primitive", counting)
    x = snp.array([0.3, -0.2, 0.5])
    counts = {}
    for depth in (1, 3, 6):
        count[0] = 0
        sciax.make_jaxpr(sciax.grad(_deep_nest(depth, 0.125 + 0.001 * depth)))(x)
        counts[depth] = count[0]
    # linear growth allows a few stagings per level; the old cost was 3**depth
    assert counts[6] <= counts[1] + 4 * 5, counts


# --- associative_scan -----------------------------------------------------------------

@sciax.jit
def _assoc_scans(x, m):
    return (lax.associative_scan(lax.add, x),
            lax.associative_scan(lax.mul, x),
            lax.associative_scan(lax.add, x, reverse=True),
            lax.associative_scan(lax.max, x),
            lax.associative_scan(lax.add, m, axis=1),
            lax.associative_scan(lax.mul, m, reverse=True, axis=1))


@pytest.mark.parametrize("n", range(1, 10))
def test_associative_scan_against_numpy(n):
    rng = np.random.default_rng(n)
    x = rng.uniform(0.5, 1.5, n)
    m = rng.uniform(0.5, 1.5, (2, n))
    s, p, rs, mx, ms, mp = _assoc_scans(x, m)
    np.testing.assert_allclose(np.asarray(s), np.cumsum(x), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(p), np.cumprod(x), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(rs), np.cumsum(x[::-1])[::-1], rtol=1e-14)
    np.testing.assert_array_equal(np.asarray(mx), np.maximum.accumulate(x))
    np.testing.assert_allclose(np.asarray(ms), np.cumsum(m, axis=1), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(mp), np.cumprod(m[:, ::-1], axis=1)[:, ::-1],
                               rtol=1e-14)


def test_associative_scan_pytree_linear_recurrence():
    # x_k = a_k x_{k-1} + b_k composed as affine maps (a, b): an associative operator
    def compose(f, g):
        return g[0] * f[0], g[0] * f[1] + g[1]

    a, b = np.linspace(0.5, 1.5, 7), np.linspace(-1.0, 1.0, 7)
    _, out = sciax.jit(lambda a, b: lax.associative_scan(compose, (a, b)))(a, b)
    ref, x = [], 0.0
    for ak, bk in zip(a, b):
        x = ak * x + bk
        ref.append(x)
    np.testing.assert_allclose(np.asarray(out), ref, rtol=1e-14, atol=1e-15)


# --- bad input ------------------------------------------------------------------------

def test_cond_branches_with_different_types_name_both():
    with pytest.raises(TypeError, match="cond") as e:
        lax.cond(True, lambda x: x, lambda x: snp.stack([x, x]), 1.0)
    assert "f64[]" in str(e.value) and "f64[2]" in str(e.value), str(e.value)
    with pytest.raises(TypeError) as e:
        sciax.jit(lambda x: lax.cond(x > 0, lambda v: v, lambda v: v.astype(np.float32),
                                     x))(1.0)
    assert "f64[]" in str(e.value) and "f32[]" in str(e.value), str(e.value)
    with pytest.raises(TypeError, match="structure"):
        lax.cond(True, lambda x: (x, x), lambda x: x, 1.0)
    with pytest.raises(TypeError) as e:
        lax.switch(0, [lambda x: x, lambda x: x, lambda x: x.astype(np.int32)], 1.0)
    msg = str(e.value)
    assert "switch" in msg and "branch 2" in msg and "i32[]" in msg, msg


def test_cond_predicate_must_be_a_boolean_or_integer_scalar():
    with pytest.raises(TypeError, match="bool") as e:
        lax.cond(1.0, lambda: 1.0, lambda: 0.0)
    assert "float64" in str(e.value) or "f64" in str(e.value), str(e.value)
    with pytest.raises(TypeError, match="float"):
        sciax.jit(lambda x: lax.cond(x, lambda: 1.0, lambda: 0.0))(0.5)
    with pytest.raises(TypeError, match="scalar") as e:
        lax.cond(snp.array([True, False]), lambda: 1.0, lambda: 0.0)
    assert "(2,)" in str(e.value), str(e.value)
    with pytest.raises(TypeError, match="integer"):
        lax.switch(1.0, BRANCHES, 1.0)
    with pytest.raises(TypeError, match="scalar"):
        lax.switch(np.zeros(2, np.int32), BRANCHES, 1.0)
    with pytest.raises(ValueError, match="branch"):
        lax.switch(0, [], 1.0)


def test_while_bad_carry_and_predicate():
    with pytest.raises(TypeError) as e:
        lax.while_loop(lambda c: c[0] < 3, lambda c: snp.concatenate([c, c]),
                       snp.zeros(2))
    msg = str(e.value)
    assert "f64[2]" in msg and "f64[4]" in msg, msg
    with pytest.raises(TypeError) as e:
        lax.while_loop(lambda c: c < 3.0, lambda c: c.astype(np.float32), 0.0)
    assert "f32[]" in str(e.value) and "f64[]" in str(e.value), str(e.value)
    with pytest.raises(TypeError, match="structure"):
        lax.while_loop(lambda c: c < 3.0, lambda c: (c, c), 0.0)
    with pytest.raises(TypeError, match="boolean scalar") as e:
        lax.while_loop(lambda c: c, lambda c: c + 1.0, 0.0)
    assert "f64[]" in str(e.value), str(e.value)
    with pytest.raises(TypeError, match="boolean scalar") as e:
        lax.while_loop(lambda c: c > 0, lambda c: c - 1.0, X3)
    assert "bool[3]" in str(e.value), str(e.value)


def test_scan_bad_input():
    with pytest.raises(ValueError, match="length") as e:
        lax.scan(lambda c, x: (c, x), 0.0, (np.zeros(3), np.zeros(4)))
    assert "[3, 4]" in str(e.value), str(e.value)
    with pytest.raises(ValueError, match="length"):
        lax.scan(lambda c, x: (c, x), 0.0, np.zeros(3), length=5)
    with pytest.raises(ValueError, match="length"):
        lax.scan(lambda c, x: (c, x), 0.0, None)
    with pytest.raises(ValueError, match="leading axis"):
        lax.scan(lambda c, x: (c, x), 0.0, 1.0)
    with pytest.raises(TypeError, match="pair"):
        lax.scan(lambda c, x: c + x, 0.0, XS)
    with pytest.raises(TypeError, match="pair"):
        lax.scan(lambda c, x: [c + x, x], 0.0, XS)
    with pytest.raises(TypeError) as e:
        lax.scan(lambda c, x: (snp.stack([c, x]), x), 0.0, XS)
    assert "f64[]" in str(e.value) and "f64[2]" in str(e.value), str(e.value)
    with pytest.raises(TypeError, match="structure"):
        lax.scan(lambda c, x: ((c, c), x), 0.0, XS)


# --- optimization_barrier ---------------------------------------------------------------

def test_optimization_barrier_is_the_identity_under_transforms():
    x = snp.asarray(np.array([0.5, -1.25, 2.0]))
    tree_in = {"a": x, "b": (snp.int32(3), snp.float32(1.5))}
    out = lax.optimization_barrier(tree_in)
    assert sciax.tree.structure(out) == sciax.tree.structure(tree_in)
    for got, want in zip(sciax.tree.leaves(out), sciax.tree.leaves(tree_in)):
        assert np.asarray(got).dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(got, want)
    assert lax.optimization_barrier(()) == ()

    def f(t):
        u, v = lax.optimization_barrier((snp.sin(t), t * t))
        return snp.sum(u * v)

    def f_ref(t):
        return snp.sum(snp.sin(t) * t * t)

    lowered = sciax.jit(f).lower(x).as_text()
    assert "optimization_barrier" in lowered
    np.testing.assert_allclose(sciax.jit(f)(x), f_ref(x), rtol=1e-15)
    np.testing.assert_allclose(sciax.grad(f)(x), sciax.grad(f_ref)(x), rtol=1e-15)
    np.testing.assert_allclose(sciax.jit(sciax.hessian(f))(x), sciax.hessian(f_ref)(x),
                               rtol=1e-14)
    batch = snp.asarray(np.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(sciax.vmap(f)(batch), sciax.vmap(f_ref)(batch), rtol=1e-15)
    _, t_out = sciax.jvp(f, (x,), (snp.ones(3),))
    _, t_ref = sciax.jvp(f_ref, (x,), (snp.ones(3),))
    np.testing.assert_allclose(t_out, t_ref, rtol=1e-15)
