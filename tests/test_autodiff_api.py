"""The differentiation API (grad, value_and_grad, jvp, vjp, linearize, jacfwd,
jacrev, hessian, custom_jvp, custom_vjp, checkpoint, check_grads): the issue's
seed examples, closed forms, finite differences, argnums/has_aux/holomorphic/
pytrees, composition with jit and with each other, symbolic zeros, and clear
errors for misuse.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.test_util import check_grads

RNG = np.random.default_rng(0)


# --- the seed examples ----------------------------------------------------------------

T2 = np.tanh(2.0)
SECH2 = 1.0 - T2 ** 2  # tanh' = sech^2 = 1 - tanh^2
TANH_DERIVS = [
    SECH2,                             # tanh'
    -2.0 * T2 * SECH2,                 # tanh'' = -2 tanh sech^2
    SECH2 * (6.0 * T2 ** 2 - 2.0),     # tanh''' = sech^2 (6 tanh^2 - 2)
]
SEED_PRINTED = [0.070650816, -0.13621868, 0.25265405]  # the float32 printout


def _nth_grad(f, n):
    for _ in range(n):
        f = sciax.grad(f)
    return f


@pytest.mark.parametrize("n", [1, 2, 3])
def test_seed_tanh_derivatives(n):
    g = float(_nth_grad(snp.tanh, n)(2.0))
    assert abs(g - TANH_DERIVS[n - 1]) <= 1e-12 * abs(TANH_DERIVS[n - 1])
    # the seed printed float32 results: they agree to 7 significant digits
    np.testing.assert_allclose(g, SEED_PRINTED[n - 1], rtol=2e-7)
    g32 = _nth_grad(snp.tanh, n)(np.float32(2.0))
    assert np.asarray(g32).dtype == np.float32
    np.testing.assert_allclose(float(g32), SEED_PRINTED[n - 1], rtol=1e-6)


def test_seed_under_jit():
    for n in (1, 2, 3):
        g = float(sciax.jit(_nth_grad(snp.tanh, n))(2.0))
        np.testing.assert_allclose(g, TANH_DERIVS[n - 1], rtol=1e-12)


def py_abs(x):
    if x >= 0:
        return x
    return -x


def test_grad_of_python_control_flow_both_branches():
    assert float(sciax.grad(py_abs)(3.0)) == 1.0
    assert float(sciax.grad(py_abs)(-3.0)) == -1.0
    assert float(sciax.grad(py_abs)(0.0)) == 1.0  # the x >= 0 branch
    # a loop and recursion written in Python
    def power(x, n):
        return 1.0 if n == 0 else x * power(x, n - 1)
    assert float(sciax.grad(power)(2.0, 5)) == 5 * 2.0 ** 4
    assert float(sciax.grad(sciax.grad(power))(2.0, 5)) == 20 * 2.0 ** 3


# --- Jacobians and Hessians -----------------------------------------------------------

def scalar_fn(x):
    return snp.sum(snp.sin(x) * x ** 2) + snp.prod(x) + snp.exp(x[0] * x[1])


def vector_fn(x):  # R^3 -> R^4
    return snp.stack([x[0] * x[1], snp.sin(x[2]) * x[0], snp.exp(x[1]) - x[2] ** 3,
                      snp.log1p(x[0] ** 2)])


def fd_jacobian(f, x, eps=1e-6):
    cols = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        cols.append((np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * eps))
    return np.stack(cols, axis=-1)


X3 = np.array([0.3, -0.7, 1.1])


def test_jacobians_agree_with_finite_differences():
    expected = fd_jacobian(vector_fn, X3)
    for jac in (sciax.jacfwd, sciax.jacrev):
        J = np.asarray(jac(vector_fn)(X3))
        assert J.shape == (4, 3)
        np.testing.assert_allclose(J, expected, rtol=1e-8, atol=1e-8)


def test_jacobian_shapes_for_array_inputs_and_outputs():
    x = RNG.standard_normal((2, 3))
    f = lambda x: snp.sin(x).T * 2.0  # (2, 3) -> (3, 2)  # noqa: E731
    for jac in (sciax.jacfwd, sciax.jacrev):
        J = np.asarray(jac(f)(x))
        assert J.shape == (3, 2, 2, 3)
        expected = np.zeros((3, 2, 2, 3))
        for i in range(2):
            for j in range(3):
                expected[j, i, i, j] = 2 * np.cos(x[i, j])
        np.testing.assert_allclose(J, expected, rtol=1e-14)


@pytest.mark.slow  # long: runs in CI's second step
def test_second_derivatives_agree():
    H1 = np.asarray(sciax.jacfwd(sciax.jacrev(scalar_fn))(X3))
    H2 = np.asarray(sciax.jacrev(sciax.jacfwd(scalar_fn))(X3))
    H3 = np.asarray(sciax.hessian(scalar_fn)(X3))
    H4 = np.asarray(sciax.jacrev(sciax.jacrev(scalar_fn))(X3))
    np.testing.assert_allclose(H1, H2, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(H1, H3, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(H1, H4, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(H1, H1.T, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(H1, fd_jacobian(sciax.grad(scalar_fn), X3),
                               rtol=1e-7, atol=1e-7)


def rosenbrock(x):
    return snp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def rosenbrock_hessian(x):
    n = x.size
    H = np.zeros((n, n))
    i = np.arange(n - 1)
    H[i, i] += 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    H[i + 1, i + 1] += 200
    H[i, i + 1] = H[i + 1, i] = -400 * x[:-1]
    return H


@pytest.mark.slow  # long: runs in CI's second step
def test_rosenbrock_hessian_n100_closed_form():
    x = np.random.default_rng(1).uniform(-2, 2, 100)
    H = np.asarray(sciax.hessian(rosenbrock)(x))
    expected = rosenbrock_hessian(x)
    np.testing.assert_allclose(H, expected, rtol=1e-12, atol=1e-9)
    assert np.count_nonzero(np.triu(H, 2)) == 0  # tridiagonal
    np.testing.assert_allclose(np.asarray(sciax.jit(sciax.hessian(rosenbrock))(x)),
                               expected, rtol=1e-12, atol=1e-9)


# --- argnums, has_aux, holomorphic, pytrees -------------------------------------------

def test_argnums_int_and_tuple():
    f = lambda x, y, z: x * y ** 2 + snp.sin(z)  # noqa: E731
    args = (2.0, 3.0, 0.5)
    assert float(sciax.grad(f)(*args)) == 9.0
    assert float(sciax.grad(f, argnums=1)(*args)) == 12.0
    assert float(sciax.grad(f, argnums=-1)(*args)) == pytest.approx(np.cos(0.5), 1e-15)
    gx, gz = sciax.grad(f, argnums=(0, 2))(*args)
    assert (float(gx), float(gz)) == (9.0, pytest.approx(np.cos(0.5), 1e-15))
    (gy,) = sciax.grad(f, argnums=(1,))(*args)  # a tuple of one stays a tuple
    assert float(gy) == 12.0
    v, (gx, gy) = sciax.value_and_grad(f, argnums=(0, 1))(*args)
    assert (float(v), float(gx), float(gy)) == (18.0 + np.sin(0.5), 9.0, 12.0)
    J = sciax.jacfwd(f, argnums=(0, 1))(*args)
    assert (float(J[0]), float(J[1])) == (9.0, 12.0)
    J = sciax.jacrev(f, argnums=1)(*args)
    assert float(J) == 12.0


def _loss_with_aux(x):
    y = snp.sum(x ** 2)
    return y, {"norm": snp.sqrt(y), "tag": "sq"}


def test_has_aux():
    f = _loss_with_aux
    x = np.array([3.0, 4.0])
    g, aux = sciax.grad(f, has_aux=True)(x)
    np.testing.assert_array_equal(np.asarray(g), 2 * x)
    assert float(aux["norm"]) == 5.0 and aux["tag"] == "sq"
    (v, aux), g = sciax.value_and_grad(f, has_aux=True)(x)
    assert float(v) == 25.0 and float(aux["norm"]) == 5.0
    J, aux = sciax.jacrev(f, has_aux=True)(x)
    np.testing.assert_array_equal(np.asarray(J), 2 * x)
    J, aux = sciax.jacfwd(f, has_aux=True)(x)
    np.testing.assert_array_equal(np.asarray(J), 2 * x)
    assert float(aux["norm"]) == 5.0
    y, vjp_fn, aux = sciax.vjp(f, x, has_aux=True)
    np.testing.assert_array_equal(np.asarray(vjp_fn(1.0)[0]), 2 * x)
    y, dy, aux = sciax.jvp(f, (x,), (np.array([1.0, 0.0]),), has_aux=True)
    assert float(dy) == 6.0 and float(aux["norm"]) == 5.0
    with pytest.raises(TypeError, match="has_aux=True must return a pair"):
        sciax.grad(lambda x: x * 2.0, has_aux=True)(1.0)


@pytest.mark.parametrize("transform", ["grad", "vjp", "jvp", "jacfwd"])
def test_has_aux_depending_on_input(transform):
    def f(x):
        y = snp.sum(x ** 2)
        return y, snp.sqrt(y)

    x = np.array([3.0, 4.0])
    aux = {"grad": lambda: sciax.grad(f, has_aux=True)(x)[1],
           "vjp": lambda: sciax.vjp(f, x, has_aux=True)[2],
           "jvp": lambda: sciax.jvp(f, (x,), (x,), has_aux=True)[2],
           "jacfwd": lambda: sciax.jacfwd(f, has_aux=True)(x)[1]}[transform]()
    assert float(aux) == 5.0


def test_holomorphic():
    f = lambda z: z ** 3 + snp.exp(2j * z)  # noqa: E731
    df = lambda z: 3 * z ** 2 + 2j * np.exp(2j * z)  # noqa: E731
    z = np.complex128(0.4 - 0.3j)
    np.testing.assert_allclose(complex(sciax.grad(f, holomorphic=True)(z)), df(z),
                               rtol=1e-14)
    zs = np.array([0.4 - 0.3j, -1.0 + 0.5j])
    g = lambda z: f(z) * z  # noqa: E731
    expected = np.diag(df(zs) * zs + f(zs))
    for jac in (sciax.jacfwd, sciax.jacrev):
        np.testing.assert_allclose(np.asarray(jac(g, holomorphic=True)(zs)), expected,
                                   rtol=1e-14)
    check_grads(f, (zs,), order=2)
    with pytest.raises(TypeError, match="holomorphic=True requires complex inputs"):
        sciax.grad(f, holomorphic=True)(1.0)
    with pytest.raises(TypeError, match="real-valued scalar output.*holomorphic"):
        sciax.grad(f)(z)


def test_pytree_inputs_and_outputs():
    params = {"w": np.array([[1.0, 2.0], [3.0, 4.0]]), "b": (np.array([0.5, -0.5]),
                                                             np.float64(2.0))}
    x = np.array([1.0, -1.0])

    def loss(p, x):
        h = snp.tanh(p["w"] @ x + p["b"][0]) * p["b"][1]
        return snp.sum(h ** 2)

    g = sciax.grad(loss)(params, x)
    assert set(g) == {"w", "b"} and isinstance(g["b"], tuple)
    eps = 1e-6
    for path, leaf in [(("w",), params["w"]), (("b", 0), params["b"][0])]:
        num = np.zeros_like(leaf)
        for idx in np.ndindex(leaf.shape):
            def bump(d):
                p = {"w": params["w"].copy(),
                     "b": (params["b"][0].copy(), params["b"][1])}
                tgt = p["w"] if path == ("w",) else p["b"][0]
                tgt[idx] += d
                return float(loss(p, x))
            num[idx] = (bump(eps) - bump(-eps)) / (2 * eps)
        got = g["w"] if path == ("w",) else g["b"][0]
        np.testing.assert_allclose(np.asarray(got), num, rtol=1e-7, atol=1e-8)

    def f(tree):  # pytree in, pytree out
        a, (b, c) = tree["a"], tree["bc"]
        return {"sum": a + b, "prod": (a * c, snp.sin(b))}

    tree = {"a": np.float64(1.5), "bc": (np.float64(-0.5), np.float64(2.0))}
    J = sciax.jacrev(f)(tree)
    assert float(J["prod"][0]["bc"][1]) == 1.5
    assert float(J["sum"]["bc"][0]) == 1.0
    assert float(J["prod"][1]["a"]) == 0.0
    Jf = sciax.jacfwd(f)(tree)
    for a, b in zip(sciax.tree.leaves(J), sciax.tree.leaves(Jf)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-15)
    out, tangent = sciax.jvp(f, (tree,), (
        {"a": 1.0, "bc": (0.0, 0.0)},))
    assert float(tangent["prod"][0]) == 2.0
    check_grads(f, (tree,), order=2)


# --- composition with jit and each other ----------------------------------------------

def test_nesting_with_jit():
    f = lambda x: snp.sin(x) * snp.exp(-x ** 2)  # noqa: E731
    x = 0.7
    d1 = float(sciax.grad(f)(x))
    d2 = float(sciax.grad(sciax.grad(f))(x))
    d3 = float(sciax.grad(sciax.grad(sciax.grad(f)))(x))
    assert float(sciax.jit(sciax.grad(f))(x)) == pytest.approx(d1, rel=1e-14)
    assert float(sciax.grad(sciax.jit(f))(x)) == pytest.approx(d1, rel=1e-14)
    assert float(sciax.jit(sciax.grad(sciax.jit(sciax.grad(f))))(x)) == \
        pytest.approx(d2, rel=1e-14)
    assert float(sciax.grad(sciax.jit(sciax.grad(sciax.jit(sciax.grad(f)))))(x)) == \
        pytest.approx(d3, rel=1e-13)
    # closed forms: f = sin(x) e^{-x^2}
    e = np.exp(-x ** 2)
    s, c = np.sin(x), np.cos(x)
    assert d1 == pytest.approx(e * (c - 2 * x * s), rel=1e-14)
    assert d2 == pytest.approx(e * (-s - 4 * x * c + (4 * x ** 2 - 2) * s), rel=1e-13)
    H = sciax.jit(sciax.jacfwd(sciax.jacrev(scalar_fn)))(X3)
    np.testing.assert_allclose(np.asarray(H), np.asarray(sciax.hessian(scalar_fn)(X3)),
                               rtol=1e-13, atol=1e-13)
    Hj = sciax.jacfwd(sciax.jit(sciax.jacrev(sciax.jit(scalar_fn))))(X3)
    np.testing.assert_allclose(np.asarray(Hj), np.asarray(H), rtol=1e-13, atol=1e-13)


def test_linearize_matches_jvp():
    y, f_jvp = sciax.linearize(scalar_fn, X3)
    t = np.array([1.0, -2.0, 0.5])
    _, dy = sciax.jvp(scalar_fn, (X3,), (t,))
    assert float(f_jvp(t)) == pytest.approx(float(dy), rel=1e-14)
    assert float(y) == pytest.approx(float(scalar_fn(X3)), rel=1e-15)


# --- symbolic zeros -------------------------------------------------------------------

def _prims(closed) -> list[str]:
    return [e.primitive.name for e in closed.jaxpr.eqns]


def test_symbolic_zeros_unused_input_costs_nothing():
    f = lambda x, y: snp.sin(x) * snp.cos(x)  # noqa: E731
    jaxpr = sciax.make_jaxpr(sciax.grad(f, argnums=1))(1.0, 2.0)
    assert len(jaxpr.jaxpr.eqns) == 0, jaxpr  # the zero is a literal
    x = np.ones(3)
    jaxpr = sciax.make_jaxpr(sciax.grad(lambda x, y: snp.sum(snp.sin(x)), argnums=1))(
        x, x)
    assert _prims(jaxpr) in ([], ["broadcast_in_dim"]), jaxpr
    # grads with respect to both: nothing is computed for y, no multiplication by 0
    jaxpr = sciax.make_jaxpr(sciax.grad(lambda x, y: snp.sum(snp.sin(x)),
                                        argnums=(0, 1)))(x, x)
    # cos(x) times the seed for x, a broadcast zero for y: nothing else
    prims = _prims(jaxpr)
    assert prims.count("cos") == 1 and prims.count("mul") <= 1, jaxpr
    assert len(prims) <= 4, jaxpr
    gx, gy = sciax.grad(lambda x, y: snp.sum(snp.sin(x)), argnums=(0, 1))(x, x)
    np.testing.assert_array_equal(np.asarray(gy), np.zeros(3))


def test_symbolic_zeros_stop_gradient():
    def f(x):
        return x * lax.stop_gradient(snp.sin(x) * snp.exp(x))

    jaxpr = sciax.make_jaxpr(sciax.grad(f))(1.0)
    prims = _prims(jaxpr)
    # the stopped branch is evaluated for its value only: no cos, no JVP of exp
    assert "cos" not in prims and prims.count("exp") == 1, jaxpr
    assert prims.count("mul") <= 2, jaxpr  # sin * exp, and the cotangent times it
    assert float(sciax.grad(f)(1.0)) == pytest.approx(np.sin(1.0) * np.e, rel=1e-15)
    # a function whose output does not depend on x through any differentiable path
    jaxpr = sciax.make_jaxpr(sciax.grad(lambda x: lax.stop_gradient(x) * 2.0))(1.0)
    assert _prims(jaxpr) == [], jaxpr


# --- custom_jvp / custom_vjp ----------------------------------------------------------

@sciax.custom_jvp
def softplus(x):
    return snp.log1p(snp.exp(x))


@softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return softplus(x), t * lax.logistic(x)


def test_custom_jvp_everywhere():
    x = np.array([-1.0, 0.5, 800.0])  # the traced rule would give nan at 800
    g = sciax.grad(lambda x: snp.sum(softplus(x)))(x)
    np.testing.assert_allclose(np.asarray(g), 1 / (1 + np.exp(-x)), rtol=1e-15)
    gj = sciax.jit(sciax.grad(lambda x: snp.sum(softplus(x))))(x)
    np.testing.assert_allclose(np.asarray(gj), np.asarray(g), rtol=1e-15)
    gv = sciax.vmap(sciax.grad(softplus))(x)
    np.testing.assert_allclose(np.asarray(gv), np.asarray(g), rtol=1e-15)
    h = sciax.vmap(sciax.grad(sciax.grad(softplus)))(x[:2])
    s = 1 / (1 + np.exp(-x[:2]))
    np.testing.assert_allclose(np.asarray(h), s * (1 - s), rtol=1e-14)
    check_grads(softplus, (x[:2],), order=2)
    check_grads(sciax.jit(softplus), (x[:2],), order=1)


@functools.partial(sciax.custom_jvp, nondiff_argnums=(0,))
def scaled_sin(k, x):
    return snp.sin(k * x)


@scaled_sin.defjvp
def _scaled_sin_jvp(k, primals, tangents):
    (x,), (t,) = primals, tangents
    return scaled_sin(k, x), k * snp.cos(k * x) * t


def test_custom_jvp_nondiff_argnums():
    x = 0.3
    assert float(sciax.grad(scaled_sin, argnums=1)(3.0, x)) == \
        pytest.approx(3 * np.cos(0.9), rel=1e-15)
    assert float(sciax.jit(sciax.grad(lambda x: scaled_sin(3.0, x)))(x)) == \
        pytest.approx(3 * np.cos(0.9), rel=1e-15)
    xs = np.array([0.1, 0.2])
    gv = sciax.vmap(sciax.grad(lambda x: scaled_sin(2.0, x)))(xs)
    np.testing.assert_allclose(np.asarray(gv), 2 * np.cos(2 * xs), rtol=1e-15)


@sciax.custom_vjp
def clip_gradient(x, lo, hi):
    return x


def _clip_fwd(x, lo, hi):
    return x, (lo, hi)


def _clip_bwd(res, g):
    lo, hi = res
    return (snp.clip(g, lo, hi), None, None)


clip_gradient.defvjp(_clip_fwd, _clip_bwd)


def test_custom_vjp_everywhere():
    f = lambda x: snp.sum(clip_gradient(x, -1.0, 1.0) * 5.0)  # noqa: E731
    x = np.array([1.0, 2.0])
    np.testing.assert_array_equal(np.asarray(sciax.grad(f)(x)), [1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(sciax.jit(sciax.grad(f))(x)), [1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(sciax.grad(sciax.jit(f))(x)), [1.0, 1.0])
    g = sciax.vmap(sciax.grad(lambda x: clip_gradient(x, -1.0, 1.0) * x * 0.1))(x)
    # d/dx (c(x) * x * 0.1) = 0.1 x * clip(1) ... with the clip on c's cotangent
    np.testing.assert_allclose(np.asarray(g), np.clip(0.1 * x, -1, 1) + 0.1 * x,
                               rtol=1e-15)
    with pytest.raises(TypeError, match="forward-mode"):
        sciax.jvp(lambda x: clip_gradient(x, -1.0, 1.0), (1.0,), (1.0,))


@functools.partial(sciax.custom_vjp, nondiff_argnums=(1,))
def scale_grad(x, k):
    return x


scale_grad.defvjp(lambda x, k: (x, None), lambda k, _, g: (g * k,))


def test_custom_vjp_nondiff_argnums():
    f = lambda x: scale_grad(x, 3.0) ** 2  # noqa: E731
    assert float(sciax.grad(f)(2.0)) == 12.0
    assert float(sciax.jit(sciax.grad(f))(2.0)) == 12.0
    np.testing.assert_array_equal(
        np.asarray(sciax.vmap(sciax.grad(f))(np.array([1.0, 2.0]))), [6.0, 12.0])


def test_check_grads_catches_a_wrong_rule():
    @sciax.custom_jvp
    def bad_sin(x):
        return snp.sin(x)

    @bad_sin.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return bad_sin(x), t * snp.sin(x)  # should be cos

    with pytest.raises(AssertionError):
        check_grads(bad_sin, (0.4,), order=1, modes=("fwd",))
    with pytest.raises(AssertionError):
        check_grads(bad_sin, (0.4,), order=1, modes=("rev",))

    @sciax.custom_jvp
    def bad_second(x):  # right first derivative, wrong second
        return x ** 3

    @bad_second.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return x ** 3, t * 3.0 * lax.stop_gradient(x) ** 2

    check_grads(bad_second, (0.8,), order=1)
    with pytest.raises(AssertionError):
        check_grads(bad_second, (0.8,), order=2)

    @sciax.custom_vjp
    def bad_vjp(x):
        return 2.0 * x

    bad_vjp.defvjp(lambda x: (2.0 * x, None), lambda _, g: (3.0 * g,))
    with pytest.raises(AssertionError):
        check_grads(bad_vjp, (np.array([0.5, 1.0]),), order=1, modes=("rev",))


# --- checkpoint -----------------------------------------------------------------------

def _count(closed, name: str) -> int:
    return _prims(closed).count(name)


def test_checkpoint_same_gradients_and_recomputes():
    def f(x):
        for _ in range(3):
            x = snp.sin(x) * 1.5
        return snp.sum(x)

    x = np.array([0.3, -0.2, 1.0])
    cf = sciax.checkpoint(f)
    for tr in (sciax.grad, lambda g: sciax.jit(sciax.grad(g)), sciax.hessian):
        np.testing.assert_allclose(np.asarray(tr(cf)(x)), np.asarray(tr(f)(x)),
                                   rtol=1e-14)
    np.testing.assert_allclose(np.asarray(sciax.vmap(sciax.grad(cf))(x)),
                               np.asarray(sciax.vmap(sciax.grad(f))(x)), rtol=1e-14)
    check_grads(cf, (x,), order=2)
    # the backward pass recomputes the forward sines instead of storing them
    plain = sciax.make_jaxpr(sciax.value_and_grad(f))(x)
    remat = sciax.make_jaxpr(sciax.value_and_grad(cf))(x)
    assert _count(plain, "sin") == 3
    assert _count(remat, "sin") > 3, remat
    assert sciax.remat is sciax.checkpoint


# --- misuse ---------------------------------------------------------------------------

def test_grad_of_non_scalar_output():
    with pytest.raises(TypeError, match=r"scalar output.*shape \(3,\).*jacrev"):
        sciax.grad(lambda x: x * 2.0)(np.ones(3))
    with pytest.raises(TypeError, match="single scalar.*jacrev or vjp"):
        sciax.grad(lambda x: (x, x))(1.0)


@pytest.mark.parametrize("x", [np.int32(3), 3, np.array([1, 2], np.int64), True])
def test_grad_wrt_integer_input(x):
    with pytest.raises(TypeError, match=r"int|bool"):
        sciax.grad(lambda x: snp.sum(x * 1.0))(x)


def test_grad_integer_input_other_arg_is_fine():
    # only the differentiated argument must be inexact
    assert float(sciax.grad(lambda x, n: x ** n)(2.0, 3)) == 12.0


@pytest.mark.parametrize("argnums", [2, -3, (0, 5)])
def test_argnums_out_of_range(argnums):
    with pytest.raises(TypeError, match=r"argnums.*out of range.*2 positional"):
        sciax.grad(lambda x, y: x * y, argnums=argnums)(1.0, 2.0)
    with pytest.raises(TypeError, match=r"argnums.*out of range"):
        sciax.jacrev(lambda x, y: x * y, argnums=argnums)(1.0, 2.0)


def test_jvp_and_vjp_misuse():
    with pytest.raises(ValueError, match=r"tangent has shape"):
        sciax.jvp(snp.sin, (np.ones(3),), (np.ones(2),))
    with pytest.raises(TypeError, match="tuples"):
        sciax.jvp(snp.sin, 1.0, 1.0)
    _, vjp_fn = sciax.vjp(snp.sin, np.ones(3))
    with pytest.raises(ValueError, match=r"cotangent of shape \(2,\).*\(3,\)"):
        vjp_fn(np.ones(2))
