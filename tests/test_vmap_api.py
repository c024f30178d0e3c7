"""The vmap API: the issue's seed example, per-example gradients, in_axes and
out_axes as ints, negative ints, None and pytree prefixes, keyword arguments,
nesting, composition with jit, axis_size, named-axis collectives, and clear
errors for misuse.
"""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax

RNG = np.random.default_rng(0)


def _close(a, b, rtol=1e-13):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-13)


# --- the seed example -----------------------------------------------------------------

def foo(tree):
    x, (y, z) = tree  # per example: x (2, 3), y (3, 4), z (4, 5)
    return snp.tanh(x @ y) @ z


def test_seed_in_axes_pytree_prefix():
    x = RNG.standard_normal((6, 2, 3))
    y = RNG.standard_normal((3, 6, 4))
    z = RNG.standard_normal((4, 5, 6))
    out = sciax.vmap(foo, in_axes=((0, (1, 2)),))((x, (y, z)))
    assert out.shape == (6, 2, 5)
    loop = np.stack([np.tanh(x[i] @ y[:, i]) @ z[:, :, i] for i in range(6)])
    _close(out, loop)
    # the same prefix under jit, and with an outer jit
    _close(sciax.jit(sciax.vmap(foo, in_axes=((0, (1, 2)),)))((x, (y, z))), loop)
    # a shorter prefix: (y, z) both at axis 1 after moving z's batch axis there
    out = sciax.vmap(foo, in_axes=((0, 1),))((x, (y, np.moveaxis(z, 2, 1))))
    _close(out, loop)


# --- per-example gradients ------------------------------------------------------------

def loss(params, x, y):
    w, b = params
    pred = snp.tanh(x @ w + b)
    return snp.sum((pred - y) ** 2)


@pytest.mark.slow  # long: runs in CI's second step
def test_per_example_gradients_equal_a_loop():
    params = (RNG.standard_normal((3, 2)), RNG.standard_normal(2))
    xs, ys = RNG.standard_normal((7, 3)), RNG.standard_normal((7, 2))
    gw, gb = sciax.vmap(sciax.grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    assert gw.shape == (7, 3, 2) and gb.shape == (7, 2)
    for i in range(7):
        lw, lb = sciax.grad(loss)(params, xs[i], ys[i])
        _close(gw[i], lw)
        _close(gb[i], lb)
    # jit outside, and the batch mean equals the gradient of the mean loss
    per_example = sciax.vmap(sciax.grad(loss), in_axes=(None, 0, 0))
    jw, jb = sciax.jit(per_example)(params, xs, ys)
    _close(jw, gw)

    def mean_loss(p):
        return snp.mean(sciax.vmap(loss, in_axes=(None, 0, 0))(p, xs, ys))

    mw, mb = sciax.grad(mean_loss)(params)
    _close(mw, np.asarray(gw).mean(0))
    _close(mb, np.asarray(gb).mean(0))


@pytest.mark.slow  # long: runs in CI's second step
def test_per_example_jacobians_and_hessians():
    xs = RNG.standard_normal((4, 3))
    f = lambda x: snp.sum(snp.sin(x) * x[0])  # noqa: E731
    H = sciax.vmap(sciax.hessian(f))(xs)
    assert H.shape == (4, 3, 3)
    for i in range(4):
        _close(H[i], sciax.hessian(f)(xs[i]))
    J = sciax.vmap(sciax.jacrev(snp.sin))(xs)
    _close(J, np.stack([np.diag(np.cos(x)) for x in xs]))


# --- in_axes / out_axes ---------------------------------------------------------------

X = RNG.standard_normal((4, 3))
Y = RNG.standard_normal((3, 4))


def test_in_axes_ints_negative_and_none():
    f = lambda a, b: a * b  # noqa: E731
    _close(sciax.vmap(f, in_axes=(0, 1))(X, Y), X * Y.T)
    _close(sciax.vmap(f, in_axes=(-2, -1))(X, Y), X * Y.T)
    _close(sciax.vmap(f, in_axes=(0, None))(X, Y[:, 0]), X * Y[:, 0])
    _close(sciax.vmap(f, in_axes=[None, 1])(X[0], Y), X[0] * Y.T)  # a list works too
    _close(sciax.vmap(f, in_axes=1)(Y, Y), (Y * Y).T)  # one int for every argument
    # a 0-d example: the batch axis is the only axis
    _close(sciax.vmap(lambda s, v: s * v, in_axes=(0, None))(X[:, 0], Y[:, 0]),
           X[:, :1] * Y[:, 0])


def test_out_axes():
    f = lambda a: (a * 2.0, snp.sum(a))  # noqa: E731
    a, s = sciax.vmap(f, out_axes=(1, 0))(X)
    _close(a, (X * 2).T)
    _close(s, X.sum(1))
    a, s = sciax.vmap(f, out_axes=-1)(X)
    _close(a, (X * 2).T)
    _close(s, X.sum(1))
    # an output that does not depend on the batch may be unmapped (None) ...
    c, v = sciax.vmap(lambda a, c: (c, a + c), in_axes=(0, None), out_axes=(None, 0))(
        X, Y[:, 0])
    _close(c, Y[:, 0])
    _close(v, X + Y[:, 0])
    # ... and a constant output is broadcast when mapped
    out = sciax.vmap(lambda a: 1.0)(X)
    _close(out, np.ones(4))
    with pytest.raises(ValueError, match="out_axes=None.*batched"):
        sciax.vmap(lambda a: a, out_axes=None)(X)
    # dict outputs with a dict prefix
    d = sciax.vmap(lambda a: {"x": a, "s": snp.sum(a)}, out_axes={"x": 1, "s": 0})(X)
    _close(d["x"], X.T)
    _close(d["s"], X.sum(1))


def test_dict_args_and_prefixes():
    params = {"w": RNG.standard_normal((5, 3)), "b": RNG.standard_normal(3),
              "scale": np.float64(2.0)}

    def f(p, x):
        return (x @ p["w"] + p["b"]) * p["scale"]

    xs = RNG.standard_normal((4, 5))
    in_axes = ({"w": None, "b": None, "scale": None}, 0)
    out = sciax.vmap(f, in_axes=in_axes)(params, xs)
    _close(out, (xs @ params["w"] + params["b"]) * 2.0)
    # batch only some leaves of the dict: a batch of biases
    bs = RNG.standard_normal((4, 3))
    out = sciax.vmap(f, in_axes=({"w": None, "b": 0, "scale": None}, 0))(
        {**params, "b": bs}, xs)
    _close(out, (xs @ params["w"] + bs) * 2.0)
    # nested tuple prefixes
    g = lambda t: t[0] + t[1][0] * t[1][1]  # noqa: E731
    out = sciax.vmap(g, in_axes=((0, (None, 1)),))((X, (X[0], Y)))
    _close(out, X + X[0] * Y.T)


def test_kwargs_are_mapped_over_axis_0():
    f = lambda a, *, b: a - b  # noqa: E731
    _close(sciax.vmap(f, in_axes=(None,))(X[0], b=X), X[0] - X)
    _close(sciax.vmap(f)(X, b=X[::-1]), X - X[::-1])
    with pytest.raises(ValueError, match="inconsistent sizes"):
        sciax.vmap(f)(X, b=Y)


def test_nested_vmap():
    A = RNG.standard_normal((4, 5, 3))
    B = RNG.standard_normal((3, 5))
    # outer over A's axis 1 (5) with B's axis 1; inner over A's axis 0 (4), B fixed
    f = sciax.vmap(sciax.vmap(lambda a, b: snp.dot(a, b), in_axes=(0, None)),
                   in_axes=(1, 1))
    out = f(A, B)
    assert out.shape == (5, 4)
    _close(out, np.einsum("ijk,kj->ji", A, B))
    # out_axes on both levels
    g = sciax.vmap(sciax.vmap(lambda a: a * 2.0, out_axes=1), in_axes=2, out_axes=0)
    out = g(A)  # outer over axis 2 (3), inner over axis 0 (4): inner out at axis 1
    assert out.shape == (3, 5, 4)
    _close(out, np.transpose(A, (2, 1, 0)) * 2.0)
    # three levels
    h = sciax.vmap(sciax.vmap(sciax.vmap(lambda s: s ** 2)))
    _close(h(A), A ** 2)


def test_vmap_with_jit_inside_and_outside():
    f = lambda a, b: snp.sum(snp.sin(a) * b)  # noqa: E731
    expected = np.sin(X) @ Y[:, 0]
    _close(sciax.vmap(sciax.jit(f), in_axes=(0, None))(X, Y[:, 0]), expected)
    _close(sciax.jit(sciax.vmap(f, in_axes=(0, None)))(X, Y[:, 0]), expected)
    _close(sciax.jit(sciax.vmap(sciax.jit(f), in_axes=(0, None)))(X, Y[:, 0]), expected)
    _close(sciax.vmap(sciax.jit(sciax.grad(f)), in_axes=(0, None))(X, Y[:, 0]),
           np.cos(X) * Y[:, 0])
    _close(sciax.grad(lambda a: snp.sum(sciax.vmap(sciax.jit(f), in_axes=(0, None))(
        a, Y[:, 0])))(X), np.cos(X) * Y[:, 0])


def test_axis_size_with_no_mapped_input():
    out = sciax.vmap(lambda c: c * 2.0, in_axes=None, axis_size=3)(np.arange(2.0))
    _close(out, np.tile(np.arange(2.0) * 2, (3, 1)))
    out = sciax.vmap(lambda: snp.ones(2), axis_size=4)()
    _close(out, np.ones((4, 2)))
    # axis_size agrees with the mapped sizes, or it is an error
    _close(sciax.vmap(lambda a: a, axis_size=4)(X), X)
    with pytest.raises(ValueError, match=r"axis_size=5"):
        sciax.vmap(lambda a: a, axis_size=5)(X)


# --- collectives ----------------------------------------------------------------------

def test_collectives_under_vmap():
    v = np.array([3.0, -1.0, 4.0, 2.0])
    n = v.size
    for op, expected in [(lax.psum, v.sum()), (lax.pmean, v.mean()), (lax.pmax, 4.0),
                         (lax.pmin, -1.0)]:
        out = sciax.vmap(lambda x: op(x, "i"), axis_name="i")(v)
        _close(out, np.full(n, expected))
    _close(sciax.vmap(lambda x: x / lax.psum(x, "i"), axis_name="i")(v), v / v.sum())
    idx = sciax.vmap(lambda x: lax.axis_index("i"), axis_name="i")(v)
    np.testing.assert_array_equal(np.asarray(idx), np.arange(n))
    gathered = sciax.vmap(lambda x: lax.all_gather(x, "i"), axis_name="i")(X)
    assert gathered.shape == (4, 4, 3)
    for i in range(4):
        _close(gathered[i], X)
    perm = [(j, (j + 1) % n) for j in range(n)]  # each member sends to the next
    shifted = sciax.vmap(lambda x: lax.ppermute(x, "i", perm), axis_name="i")(v)
    _close(shifted, np.roll(v, 1))
    # members that receive nothing get zeros
    partial = sciax.vmap(lambda x: lax.ppermute(x, "i", [(0, 1)]), axis_name="i")(v)
    _close(partial, [0.0, 3.0, 0.0, 0.0])
    # pytrees, and an unbatched operand counts once per member
    s = sciax.vmap(lambda x, c: lax.psum((x, c), "i"), in_axes=(0, None),
                   axis_name="i")(v, 1.5)
    _close(s[0], np.full(n, v.sum()))
    _close(s[1], np.full(n, 1.5 * n))


def test_collectives_nested_axes_and_grad():
    A = RNG.standard_normal((3, 4))
    f = sciax.vmap(sciax.vmap(lambda x: lax.psum(x, "j") - lax.psum(x, "i"),
                              axis_name="j"), axis_name="i")
    _close(f(A), A.sum(1, keepdims=True) - A.sum(0, keepdims=True))
    both = sciax.vmap(sciax.vmap(lambda x: lax.psum(x, ("i", "j")), axis_name="j"),
                      axis_name="i")(A)
    _close(both, np.full(A.shape, A.sum()))
    # softmax normalisation across the mapped axis, differentiated
    v = np.array([0.1, -0.3, 0.7])

    def total(v):
        p = sciax.vmap(lambda x: snp.exp(x) / lax.psum(snp.exp(x), "i"),
                       axis_name="i")(v)
        return snp.sum(p * np.array([1.0, 2.0, 3.0]))

    e = np.exp(v)
    p = e / e.sum()
    c = np.array([1.0, 2.0, 3.0])
    _close(sciax.grad(total)(v), p * (c - p @ c), rtol=1e-12)


def test_unbound_axis_name():
    with pytest.raises(NameError, match="unbound axis name: 'k'"):
        sciax.vmap(lambda x: lax.psum(x, "k"), axis_name="i")(X)


# --- errors ---------------------------------------------------------------------------

def test_mismatched_batch_sizes():
    with pytest.raises(ValueError, match=r"inconsistent sizes.*argument a of shape "
                       r"\(4, 3\) mapped at axis 0 has size 4, argument b of shape "
                       r"\(3, 4\) mapped at axis 0 has size 3"):
        sciax.vmap(lambda a, b: a)(X, Y)


def test_in_axes_tree_not_matching_arguments():
    with pytest.raises(ValueError, match=r"in_axes has 2 entries.*3 positional"):
        sciax.vmap(lambda a, b, c: a, in_axes=(0, 0))(X, X, X)
    with pytest.raises(ValueError, match=r"in_axes\[0\].*tree prefix"):
        sciax.vmap(lambda t: t[0], in_axes=((0, 0, 0),))((X, X))
    with pytest.raises(ValueError, match=r"in_axes\[0\].*tree prefix"):
        sciax.vmap(lambda d: d["a"], in_axes=({"b": 0},))({"a": X})
    with pytest.raises(TypeError, match="in_axes must be"):
        sciax.vmap(lambda a: a, in_axes="0")(X)


def test_axis_out_of_range():
    with pytest.raises(ValueError, match=r"in_axes=2 is out of range.*\(4, 3\)"):
        sciax.vmap(lambda a: a, in_axes=2)(X)
    with pytest.raises(ValueError, match=r"in_axes=-3 is out of range"):
        sciax.vmap(lambda a: a, in_axes=-3)(X)
    with pytest.raises(ValueError, match=r"out of range.*shape \(\)"):
        sciax.vmap(lambda a: a)(1.0)


def test_no_mapped_input_without_axis_size():
    with pytest.raises(ValueError, match="at least one mapped argument.*axis_size"):
        sciax.vmap(lambda a: a, in_axes=None)(X)
    with pytest.raises(ValueError, match="at least one mapped argument.*axis_size"):
        sciax.vmap(lambda: 1.0)()
