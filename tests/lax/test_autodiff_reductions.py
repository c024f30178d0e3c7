"""Derivatives of reductions, cumulative ops, dot_general, sort and top_k: forward
and reverse mode against central differences (first and second order, float64),
exact values at ties and zeros, and the closed-form Rosenbrock Hessian.

Every distinct (primitive, shape) compiles a small XLA program (~0.1 s), so the
tests reuse a handful of shapes.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sciax
from sciax import lax
from sciax.test_util import check_grads

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 4))
Y = RNG.standard_normal((2, 3, 4))
V = RNG.standard_normal((3, 4))


def _with_zeros(x: np.ndarray, *where: tuple[int, ...]) -> np.ndarray:
    x = x.copy()
    for w in where:
        x[w] = 0.0
    return x


# --- reduce_sum, reduce_max, reduce_min, reduce_prod ------------------------------

@pytest.mark.parametrize("axes", [(), (1,), (0, 2), (0, 1, 2)])
def test_reduce_sum_grads(axes):
    check_grads(lambda x: lax.reduce_sum(x, axes), (X,), order=2)


def test_reduce_sum_complex_and_0d():
    check_grads(lambda z: lax.reduce_sum(z, (0, 2)), (X + 1j * Y,), order=2)
    check_grads(lambda x: lax.reduce_sum(x, ()), (np.float64(1.5),), order=2)


def test_reduce_sum_vjp_broadcasts_back():
    _, vjp = sciax.vjp(lambda x: lax.reduce_sum(x, (0, 2)), X)
    (ct,) = vjp(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(np.asarray(ct),
                                  np.broadcast_to([[1.0], [2.0], [3.0]], X.shape))


@pytest.mark.parametrize("op", [lax.reduce_max, lax.reduce_min])
@pytest.mark.parametrize("axes", [(1,), (0, 2)])
def test_reduce_max_min_grads(op, axes):
    # random normal values have no ties, where the derivative is well defined
    check_grads(lambda x: op(x, axes), (X,), order=2)


def test_reduce_max_min_ties_share_the_tangent():
    x = np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]])
    t = np.array([[1.0, 2.0, 4.0], [8.0, 16.0, 32.0]])
    _, dy = sciax.jvp(lambda x: lax.reduce_max(x, (1,)), (x,), (t,))
    np.testing.assert_allclose(np.asarray(dy), [3.0, 20.0])
    _, dy = sciax.jvp(lambda x: lax.reduce_min(x, (0,)), (x,), (t,))
    np.testing.assert_allclose(np.asarray(dy), [1.0, 16.0, 32.0])
    g = sciax.grad(lambda x: lax.reduce_sum(lax.reduce_max(x, (1,)), (0,)))(x)
    np.testing.assert_allclose(np.asarray(g), [[0, 0.5, 0.5], [0.5, 0, 0.5]])


@pytest.mark.parametrize("x,axes", [
    (X, (0, 2)),
    (_with_zeros(X, (0, 1, 2)), (0, 2)),              # one zero in a product
    (_with_zeros(X, (0, 1, 0), (1, 1, 3)), (0, 2)),   # two zeros in one product
], ids=["two-axes", "one-zero", "two-zeros"])
@pytest.mark.slow  # long: runs in CI's second step
def test_reduce_prod_grads(x, axes):
    check_grads(lambda x: lax.reduce_prod(x, axes), (x,), order=2)


def test_reduce_prod_closed_form_at_zeros():
    f = lambda x: lax.reduce_prod(x, (0,))  # noqa: E731
    np.testing.assert_array_equal(np.asarray(sciax.grad(f)(np.array([2.0, 0.0, 3.0]))),
                                  [0.0, 6.0, 0.0])
    np.testing.assert_array_equal(np.asarray(sciax.grad(f)(np.array([0.0, 0.0, 3.0]))),
                                  [0.0, 0.0, 0.0])
    # the second derivative at two zeros is the product of the other factors
    np.testing.assert_array_equal(
        np.asarray(sciax.hessian(f)(np.array([0.0, 0.0, 3.0]))),
        [[0.0, 3.0, 0.0], [3.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, (2, 3),
                  elements=st.sampled_from([-2.0, -1.0, 0.0, 0.5, 1.0, 3.0])))
def test_reduce_prod_grad_matches_product_of_the_others(x):
    g = np.asarray(sciax.grad(lambda x: lax.reduce_sum(lax.reduce_prod(x, (1,)),
                                                       (0,)))(x))
    expected = np.array([[np.prod(np.delete(row, j)) for j in range(3)] for row in x])
    np.testing.assert_array_equal(g, expected)


def test_zero_tangent_ops():
    # boolean/integer results have zero tangents; they still work inside
    # differentiated functions
    xi = np.array([[3, 1, 2], [6, 5, 4]], np.int32)
    for f in (lambda x: lax.reduce_and(x, (1,)), lambda x: lax.reduce_or(x, (0,)),
              lambda x: lax.reduce_xor(x, (1,)),
              lambda x: lax.argmax(x, 1, np.int32),
              lambda x: lax.argmin(x, 0, np.int32)):
        out, dout = sciax.jvp(f, (xi,), (np.ones_like(xi),))
        np.testing.assert_array_equal(np.asarray(dout), np.zeros_like(np.asarray(out)))

    def pick_max(x):  # x at its argmax, written with a one-hot mask
        idx = lax.argmax(x, 0, np.int32)
        onehot = lax.eq(lax.iota(np.int32, 4), lax.broadcast_in_dim(idx, (4,), ()))
        return lax.reduce_sum(lax.mul(x, lax.convert_element_type(onehot, x.dtype)),
                              (0,))

    np.testing.assert_array_equal(
        np.asarray(sciax.grad(pick_max)(np.array([1.0, 5.0, 2.0, 0.0]))),
        [0.0, 1.0, 0.0, 0.0])


# --- cumulative reductions --------------------------------------------------------

CUMULATIVE = ["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"]


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("op", CUMULATIVE)
@pytest.mark.parametrize("axis,reverse", [(2, False), (1, True)])
def test_cumulative_grads(op, axis, reverse):
    f = getattr(lax, op)
    check_grads(lambda x: f(x, axis, reverse=reverse), (X,), order=2)


def test_cumprod_grads_with_zeros():
    x = _with_zeros(X, (0, 0, 1), (1, 2, 0), (1, 2, 2))
    check_grads(lambda x: lax.cumprod(x, 2), (x,), order=2)


def test_cumsum_transpose_is_reverse_cumsum():
    ct = np.arange(1.0, 5.0)
    for reverse in (False, True):
        _, vjp = sciax.vjp(lambda x: lax.cumsum(x, 0, reverse=reverse), ct)
        expected = np.cumsum(ct[::-1])[::-1] if not reverse else np.cumsum(ct)
        np.testing.assert_allclose(np.asarray(vjp(ct)[0]), expected)


def test_cumlogsumexp_grad_with_minus_inf():
    # d/dx_j sum_i cumlogsumexp(x)_i = sum_{i >= j} softmax(x[:i+1])_j: exp(-inf)
    # contributes nothing to later outputs, but the first output is x_0 itself
    x = np.array([-np.inf, 0.0, 1.0])
    g = np.asarray(sciax.grad(lambda x: lax.reduce_sum(lax.cumlogsumexp(x), (0,)))(x))
    e = np.exp(x)
    expected = [1.0] + [sum(e[j] / e[:i + 1].sum() for i in range(j, 3))
                        for j in range(1, 3)]
    np.testing.assert_allclose(g, expected, rtol=1e-14)


# --- dot_general ------------------------------------------------------------------

DOT_CASES = {
    # name: (lhs shape, rhs shape, dimension numbers)
    "matmul": ((3, 4), (4, 2), (((1,), (0,)), ((), ()))),
    "batch-shuffled": ((4, 2, 3), (3, 4, 2), (((2,), (0,)), ((0,), (1,)))),
    "two-contracting": ((2, 3, 4), (4, 2, 2), (((0, 2), (2, 0)), ((), ()))),
    "outer": ((2, 3), (4,), (((), ()), ((), ()))),
    "to-scalar": ((2, 3), (3, 2), (((0, 1), (1, 0)), ((), ()))),
    "two-batch-swapped": ((2, 3, 4), (3, 2, 4, 2), (((2,), (2,)), ((0, 1), (1, 0)))),
}


@pytest.mark.parametrize("case", list(DOT_CASES))
def test_dot_general_grads(case):
    ls, rs, dn = DOT_CASES[case]
    lhs, rhs = RNG.standard_normal(ls), RNG.standard_normal(rs)
    check_grads(lambda a, b: lax.dot_general(a, b, dn), (lhs, rhs), order=2)


def test_dot_general_complex_grads():
    ls, rs, dn = DOT_CASES["batch-shuffled"]
    lhs = RNG.standard_normal(ls) + 1j * RNG.standard_normal(ls)
    rhs = RNG.standard_normal(rs) + 1j * RNG.standard_normal(rs)
    check_grads(lambda a, b: lax.dot_general(a, b, dn), (lhs, rhs), order=2)


def test_dot_general_preferred_element_type_cotangents():
    dn = (((1,), (0,)), ((), ()))
    a32 = RNG.standard_normal((3, 4)).astype(np.float32)
    b = RNG.standard_normal((4, 2))
    ct = RNG.standard_normal((3, 2))
    # float32 x float64 accumulated in float64: each cotangent has its operand's dtype
    _, vjp = sciax.vjp(lambda a, b: lax.dot_general(a, b, dn,
                                                     preferred_element_type=np.float64),
                       a32, b)
    da, db = vjp(ct)
    assert np.asarray(da).dtype == np.float32 and np.asarray(db).dtype == np.float64
    np.testing.assert_allclose(np.asarray(da), ct @ b.T, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(db), a32.astype(np.float64).T @ ct,
                               rtol=1e-12)
    # integer rhs: only lhs is differentiable
    bi = np.arange(8, dtype=np.int32).reshape(4, 2)
    g = sciax.grad(lambda a: lax.reduce_sum(
        lax.dot_general(a, bi, dn, preferred_element_type=np.float64), (0, 1)))(a32)
    np.testing.assert_allclose(np.asarray(g), np.ones((3, 2)) @ bi.T)
    # real lhs, complex result: the lhs cotangent is the real part
    bc = b + 1j * RNG.standard_normal((4, 2))
    a = a32.astype(np.float64)
    _, vjp = sciax.vjp(lambda a: lax.dot_general(a, bc, dn,
                                                 preferred_element_type=np.complex128),
                       a)
    (da,) = vjp(ct + 1j * ct)
    assert np.asarray(da).dtype == np.float64
    np.testing.assert_allclose(np.asarray(da), ((ct + 1j * ct) @ bc.T).real, rtol=1e-12)


def test_dot_grads():
    check_grads(lambda a, b: lax.dot(a, b), (V, V[0]), order=2)


# --- sort, top_k ------------------------------------------------------------------

@pytest.mark.parametrize("dimension", [0, 1])
def test_sort_grads(dimension):
    check_grads(lambda x: lax.sort(x, dimension), (V,), order=2)


def test_sort_multiple_operands_grads():
    keys = np.array([[2, 0, 2, 1], [1, 1, 0, 0], [3, 3, 3, 3]], np.int32)
    check_grads(lambda k, v: lax.sort((k, v), num_keys=1), (V, V[::-1]), order=2)
    # an integer first key with ties, broken by a float second key
    check_grads(lambda v: lax.sort((keys, v), num_keys=2)[1], (V,), order=2)


def test_sort_tangents_follow_the_stable_permutation():
    x = np.array([2.0, 1.0, 2.0, 0.0, 1.0])
    t = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    out, dout = sciax.jvp(lambda x: lax.sort(x), (x,), (t,))
    np.testing.assert_array_equal(np.asarray(out), np.sort(x))
    np.testing.assert_array_equal(np.asarray(dout), t[np.argsort(x, kind="stable")])
    g = sciax.grad(lambda x: lax.reduce_sum(lax.mul(lax.sort(x), t), (0,)))(x)
    expected = np.empty(5)
    expected[np.argsort(x, kind="stable")] = t
    np.testing.assert_array_equal(np.asarray(g), expected)


def test_top_k_grads():
    check_grads(lambda x: lax.top_k(x, 2)[0], (V,), order=2)
    t = RNG.standard_normal(V.shape)
    (_, idx), (dv, _) = sciax.jvp(lambda x: lax.top_k(x, 3), (V,), (t,))
    np.testing.assert_array_equal(np.asarray(idx), np.argsort(-V, axis=1)[:, :3])
    np.testing.assert_array_equal(np.asarray(dv),
                                  np.take_along_axis(t, np.asarray(idx), axis=1))


# --- Rosenbrock -------------------------------------------------------------------

def _rosenbrock(x):
    head, tail = lax.slice_in_dim(x, 0, -1), lax.slice_in_dim(x, 1, None)
    one = lax.full_like(head, 1.0)
    terms = lax.add(lax.mul(lax.full_like(head, 100.0),
                            lax.integer_pow(lax.sub(tail, lax.mul(head, head)), 2)),
                    lax.integer_pow(lax.sub(one, head), 2))
    return lax.reduce_sum(terms, (0,))


def _rosenbrock_hessian(x):
    n = len(x)
    h = np.zeros((n, n))
    for i in range(n - 1):
        h[i, i] += 1200 * x[i] ** 2 - 400 * x[i + 1] + 2
        h[i + 1, i + 1] += 200
        h[i, i + 1] = h[i + 1, i] = -400 * x[i]
    return h


@pytest.mark.slow  # long: runs in CI's second step
def test_rosenbrock_hessian_closed_form():
    x = np.random.default_rng(1).uniform(-2, 2, 100)
    h = np.asarray(sciax.hessian(_rosenbrock)(x))
    np.testing.assert_allclose(h, _rosenbrock_hessian(x), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(np.asarray(sciax.jit(sciax.hessian(_rosenbrock))(x)),
                               _rosenbrock_hessian(x), rtol=1e-12, atol=1e-9)
