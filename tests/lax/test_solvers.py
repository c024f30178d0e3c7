"""lax.custom_linear_solve, lax.custom_root, lax.reduce and lax.map(batch_size=):
values against NumPy, derivatives against NumPy closed forms and finite
differences, in forward and reverse mode, under jit and vmap."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax

RNG = np.random.default_rng(1)
A0 = RNG.normal(size=(3, 3)) + 4 * np.eye(3)
B0 = RNG.normal(size=3)
W = np.array([1.0, -2.0, 0.5])


def dense_solve(mv, b):
    return snp.linalg.solve(sciax.jacfwd(mv)(b), b)


def cg(mv, b):
    # a plain conjugate-gradient loop: its iterations must never be differentiated
    def body(i, s):
        x, r, p = s
        ap = mv(p)
        alpha = (r @ r) / (p @ ap)
        x2, r2 = x + alpha * p, r - alpha * ap
        return x2, r2, r2 + ((r2 @ r2) / (r @ r)) * p
    return lax.fori_loop(0, b.shape[0], body, (snp.zeros_like(b), b, b))[0]


def ls(a, b):
    return lax.custom_linear_solve(lambda v: a @ v, b, dense_solve,
                                   transpose_solve=dense_solve)


def test_custom_linear_solve_values_and_derivatives_match_numpy_solve():
    np.testing.assert_allclose(np.asarray(ls(A0, B0)), np.linalg.solve(A0, B0),
                               rtol=1e-13)
    ainv = np.linalg.inv(A0)
    x = ainv @ B0
    # d(w.x)/db = A^-T w, d(w.x)/dA = -(A^-T w) x^T
    ga, gb = sciax.jit(sciax.grad(lambda a, b: ls(a, b) @ W, argnums=(0, 1)))(A0, B0)
    np.testing.assert_allclose(np.asarray(gb), ainv.T @ W, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(ga), -np.outer(ainv.T @ W, x), rtol=1e-12)
    jf = sciax.jit(sciax.jacfwd(ls, argnums=1))(A0, B0)
    np.testing.assert_allclose(np.asarray(jf), ainv, rtol=1e-12, atol=1e-15)


@pytest.mark.slow
def test_custom_linear_solve_hessian_matches_direct_solve():
    # second order through the implicit rule equals the direct solve's
    h = sciax.jit(sciax.hessian(lambda a: ls(a, B0) @ W))(A0)
    h_ref = sciax.jit(sciax.hessian(lambda a: snp.linalg.solve(a, B0) @ W))(A0)
    np.testing.assert_allclose(np.asarray(h), np.asarray(h_ref), rtol=1e-10,
                               atol=1e-13)


def test_custom_linear_solve_symmetric_cg_is_differentiated_implicitly():
    spd = A0 @ A0.T

    def f(s, b):
        return lax.custom_linear_solve(lambda v: (s * spd) @ v, b, cg,
                                       symmetric=True) @ W

    x = np.linalg.solve(spd, B0)
    assert abs(float(f(1.0, B0)) - x @ W) < 1e-10
    # d/ds of w.(s A)^-1 b at s = 1 is -w.x
    assert abs(float(sciax.jit(sciax.grad(f))(1.0, B0)) + x @ W) < 1e-10
    np.testing.assert_allclose(np.asarray(sciax.grad(f, argnums=1)(1.0, B0)),
                               np.linalg.solve(spd, W), rtol=1e-9)


def test_custom_linear_solve_vmap_pytrees_aux_and_errors():
    a_s = np.stack([A0, A0 + np.eye(3)])
    b_s = np.stack([B0, 2 * B0])
    np.testing.assert_allclose(np.asarray(sciax.vmap(ls)(a_s, b_s)),
                               np.linalg.solve(a_s, b_s[..., None])[..., 0], rtol=1e-12)
    np.testing.assert_allclose(np.asarray(sciax.vmap(ls, (0, None))(a_s, B0)),
                               np.linalg.solve(a_s, B0), rtol=1e-12)
    # a pytree right-hand side, and a solve with aux output
    out, aux = lax.custom_linear_solve(
        lambda t: {"u": 2.0 * t["u"], "v": 4.0 * t["v"]},
        {"u": snp.ones(2), "v": 8.0},
        lambda mv, b: ({"u": b["u"] / 2.0, "v": b["v"] / 4.0}, "info"), has_aux=True)
    assert aux == "info" and float(out["v"]) == 2.0
    np.testing.assert_array_equal(np.asarray(out["u"]), [0.5, 0.5])
    with pytest.raises(TypeError, match="transpose_solve"):
        sciax.grad(lambda b: lax.custom_linear_solve(
            lambda v: A0 @ v, b, dense_solve).sum())(B0)
    with pytest.raises(TypeError, match="matvec"):
        lax.custom_linear_solve(lambda v: v[:2], B0, dense_solve)


def newton(f, x0):
    return lax.fori_loop(0, 40, lambda i, x: x - f(x) / sciax.grad(f)(x), x0)


def cbrt(a):
    return lax.custom_root(lambda x: x ** 3 - a, 1.0, newton, lambda g, y: y / g(1.0))


def test_custom_root_scalar_values_and_derivatives_of_all_orders():
    a = 5.0
    r = a ** (1 / 3)
    assert abs(float(cbrt(a)) - r) < 1e-14
    assert abs(float(sciax.grad(cbrt)(a)) - r / (3 * a)) < 1e-14
    assert abs(float(sciax.grad(sciax.grad(cbrt))(a)) + 2 * r / (9 * a * a)) < 1e-14
    _, t = sciax.jvp(cbrt, (a,), (1.0,))
    assert abs(float(t) - r / (3 * a)) < 1e-14
    xs = np.array([1.0, 8.0, 27.0])
    np.testing.assert_allclose(np.asarray(sciax.jit(sciax.vmap(sciax.grad(cbrt)))(xs)),
                               xs ** (1 / 3) / (3 * xs), rtol=1e-13)


def test_custom_root_vector_system_jacobian_matches_implicit_function_theorem():
    def f(x, p):
        return snp.stack([x[0] ** 2 + x[1] - p[0], x[0] - x[1] * p[1]])

    def solve(fn, x0):
        jac = sciax.jacfwd(fn)
        return lax.fori_loop(0, 40, lambda i, x: x - snp.linalg.solve(jac(x), fn(x)),
                             x0)

    def root(p):
        return lax.custom_root(lambda x: f(x, p), snp.ones(2), solve,
                               lambda g, y: snp.linalg.solve(sciax.jacfwd(g)(y), y))

    p = np.array([3.0, 0.5])
    root = sciax.jit(root)
    x = np.asarray(root(p))
    np.testing.assert_allclose(np.asarray(f(x, p)), 0, atol=1e-12)
    fx = np.asarray(sciax.jacfwd(lambda x: f(x, p))(x))
    fp = np.asarray(sciax.jacfwd(lambda q: f(x, q))(p))
    ift = -np.linalg.solve(fx, fp)
    np.testing.assert_allclose(np.asarray(sciax.jit(sciax.jacrev(root))(p)), ift,
                               rtol=1e-12)
    np.testing.assert_allclose(np.asarray(sciax.jit(sciax.jacfwd(root))(p)), ift,
                               rtol=1e-12)
    # finite differences as an independent check
    eps = 1e-6
    fd = np.stack([(np.asarray(root(p + eps * e)) - np.asarray(root(p - eps * e)))
                   / (2 * eps) for e in np.eye(2)], axis=1)
    np.testing.assert_allclose(ift, fd, rtol=1e-6, atol=1e-8)


def test_custom_root_aux_and_bad_structure():
    r, aux = lax.custom_root(lambda x: x - 2.0, 0.0, lambda f, x0: (x0 - f(x0), 7),
                             lambda g, y: y / g(1.0), has_aux=True)
    assert float(r) == 2.0 and aux == 7
    with pytest.raises(TypeError, match="solve must return"):
        lax.custom_root(lambda x: x, 0.0, lambda f, x0: (x0, x0),
                        lambda g, y: y)


def test_reduce_matches_numpy_for_monoids_and_general_functions():
    x = np.arange(24.0).reshape(2, 3, 4) - 7.0
    np.testing.assert_array_equal(np.asarray(lax.reduce(x, 0.0, lax.add, (1,))),
                                  x.sum(1))
    np.testing.assert_array_equal(np.asarray(lax.reduce(x, -np.inf, lax.max, (0, 2))),
                                  x.max((0, 2)))
    # a lambda (not a known monoid): the balanced-tree path, odd lengths too
    for dims in ((0,), (1,), (2,), (0, 1, 2)):
        np.testing.assert_allclose(
            np.asarray(lax.reduce(x, 1.0, lambda a, b: a * b, dims)), x.prod(dims))
    # a reduction over a pair of arrays: max with its index
    v = np.array([3.0, 9.0, 4.0, 9.5, 1.0])

    def pick(a, b):
        take = a[0] >= b[0]
        return lax.select(take, a[0], b[0]), lax.select(take, a[1], b[1])
    m, i = lax.reduce((v, np.arange(5)), (-np.inf, 0), pick, (0,))
    assert (float(m), int(i)) == (9.5, 3)
    # empty axis gives the init value
    np.testing.assert_array_equal(
        np.asarray(lax.reduce(np.zeros((2, 0)), 5.0, lambda a, b: a + b, (1,))), [5, 5])


def test_reduce_gradient_vmap_and_errors():
    x = np.array([1.5, -2.0, 3.0, 0.5])
    g = sciax.grad(lambda v: lax.reduce(v, 1.0, lambda a, b: a * b, (0,)))(x)
    np.testing.assert_allclose(np.asarray(g), np.prod(x) / x, rtol=1e-14)
    m = np.arange(6.0).reshape(2, 3)
    row_sum = sciax.vmap(lambda r: lax.reduce(r, 0.0, lambda a, b: a + b, (0,)))
    np.testing.assert_array_equal(np.asarray(row_sum(m)), m.sum(1))
    with pytest.raises(ValueError, match="out of range"):
        lax.reduce(m, 0.0, lax.add, (2,))
    with pytest.raises(TypeError, match="structure"):
        lax.reduce((m, m), 0.0, lax.add, (0,))


def test_map_batch_size_matches_unbatched_map_and_numpy():
    x = np.arange(14.0).reshape(7, 2)
    for bs in (1, 3, 7, 10):
        out = lax.map(lambda r: {"s": r.sum(), "d": r * 2.0}, x, batch_size=bs)
        np.testing.assert_array_equal(np.asarray(out["s"]), x.sum(1))
        np.testing.assert_array_equal(np.asarray(out["d"]), x * 2)
    g = sciax.grad(lambda v: lax.map(snp.sin, v, batch_size=2).sum())(np.arange(5.0))
    np.testing.assert_allclose(np.asarray(g), np.cos(np.arange(5.0)), rtol=1e-15)
    with pytest.raises(ValueError, match="batch_size"):
        lax.map(snp.sin, x, batch_size=0)
