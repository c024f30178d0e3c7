"""sciax.nn against closed forms and SciPy: values over the whole float range and
derivatives at the kinks, at 0 and in the tails (where naive formulas give nan,
inf or the wrong one-sided value)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.special as sps

import sciax
import sciax.nn as nn
import sciax.numpy as snp

XS = np.array([-1000.0, -40.0, -3.0, -1e-3, 0.0, 1e-3, 2.5, 40.0, 1000.0])


def _sig(x):
    return sps.expit(x)


def grad_at(f, xs, order=1):
    g = f
    for _ in range(order):
        g = sciax.grad(g)
    # one compiled program for all points (eager grads dispatch op by op)
    return np.asarray(sciax.jit(sciax.vmap(g))(np.asarray(xs, dtype=float)))


def test_sigmoid_and_derivatives_match_closed_forms():
    np.testing.assert_allclose(np.asarray(nn.sigmoid(XS)), _sig(XS), rtol=1e-15)
    # s' = s(x) s(-x) and s'' = s' (s(-x) - s(x)): written with 1 - s, the
    # reference itself cancels to 0 at x = 40 (the derivative is 4.2e-18)
    s, sm = _sig(XS), _sig(-XS)
    np.testing.assert_allclose(grad_at(nn.sigmoid, XS), s * sm, rtol=1e-12,
                               atol=1e-300)
    np.testing.assert_allclose(grad_at(nn.sigmoid, XS, 2), s * sm * (sm - s),
                               rtol=1e-9, atol=1e-300)


def test_softplus_is_stable_and_its_second_derivative_at_zero_is_a_quarter():
    # log1p(exp(x)) evaluated stably by NumPy's logaddexp(0, x)
    np.testing.assert_allclose(np.asarray(nn.softplus(XS)), np.logaddexp(0.0, XS),
                               rtol=1e-15)
    np.testing.assert_allclose(grad_at(nn.softplus, XS), _sig(XS), rtol=1e-14)
    np.testing.assert_allclose(grad_at(nn.softplus, XS, 2), _sig(XS) * _sig(-XS),
                               rtol=1e-12)
    assert float(sciax.grad(sciax.grad(nn.softplus))(0.0)) == 0.25


def test_log_sigmoid_tails_and_derivative():
    np.testing.assert_allclose(np.asarray(nn.log_sigmoid(XS)), -np.logaddexp(0, -XS),
                               rtol=1e-15)
    assert float(nn.log_sigmoid(-1000.0)) == -1000.0
    np.testing.assert_allclose(grad_at(nn.log_sigmoid, XS), _sig(-XS), rtol=1e-14)


def test_relu_value_and_subgradient_zero_at_zero():
    np.testing.assert_array_equal(np.asarray(nn.relu(XS)), np.maximum(XS, 0))
    np.testing.assert_array_equal(grad_at(nn.relu, XS), (XS > 0).astype(float))
    assert float(sciax.grad(nn.relu)(0.0)) == 0.0
    assert float(sciax.grad(sciax.grad(nn.relu))(1.0)) == 0.0
    # vmap over the custom rule
    np.testing.assert_array_equal(np.asarray(sciax.vmap(sciax.grad(nn.relu))(XS)),
                                  (XS > 0).astype(float))


def test_gelu_exact_matches_erf_form_and_its_derivative():
    x = np.linspace(-8, 8, 33)
    phi = np.exp(-x * x / 2) / math.sqrt(2 * math.pi)
    cdf = 0.5 * sps.erfc(-x / math.sqrt(2))
    np.testing.assert_allclose(np.asarray(nn.gelu(x, approximate=False)), x * cdf,
                               rtol=1e-14, atol=1e-300)
    np.testing.assert_allclose(
        np.asarray(sciax.vmap(sciax.grad(lambda v: nn.gelu(v, approximate=False)))(x)),
        cdf + x * phi, rtol=1e-13, atol=1e-16)
    # far tails: exactly 0 / x, derivatives 0 / 1, no nan
    assert float(nn.gelu(-1000.0, approximate=False)) == 0.0
    assert float(nn.gelu(1000.0, approximate=False)) == 1000.0
    tails = grad_at(lambda v: nn.gelu(v, approximate=False), [-1000.0, 1000.0])
    assert tails.tolist() == [0.0, 1.0]


def test_gelu_tanh_approximation_and_derivative():
    x = np.linspace(-8, 8, 33)
    c = math.sqrt(2 / math.pi)
    u = c * (x + 0.044715 * x ** 3)
    # (1 + tanh u) / 2 = expit(2u) and 1 - tanh(u)^2 = 4 expit(2u) expit(-2u):
    # the same closed forms without the cancellation of 1 + tanh u in the tail
    half = sps.expit(2 * u)
    ref = x * half
    np.testing.assert_allclose(np.asarray(nn.gelu(x)), ref, rtol=1e-13, atol=1e-300)
    dref = half + 0.5 * x * (4 * half * sps.expit(-2 * u)) * c * (
        1 + 3 * 0.044715 * x ** 2)
    np.testing.assert_allclose(np.asarray(sciax.vmap(sciax.grad(nn.gelu))(x)), dref,
                               rtol=1e-12, atol=1e-15)
    assert grad_at(nn.gelu, [-1000.0, 1000.0]).tolist() == [0.0, 1.0]


def test_silu():
    np.testing.assert_allclose(np.asarray(nn.silu(XS)), XS * _sig(XS), rtol=1e-15)
    s = _sig(XS)
    np.testing.assert_allclose(grad_at(nn.silu, XS), s + XS * s * (1 - s), rtol=1e-12,
                               atol=1e-300)
    assert nn.swish is nn.silu


def test_softmax_and_log_softmax_large_values_axes_and_mask():
    x = np.array([[1000.0, 1001.0, 999.0], [-5.0, 0.0, 5.0]])
    ref = sps.softmax(x, axis=-1)
    np.testing.assert_allclose(np.asarray(nn.softmax(x)), ref, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(nn.softmax(x, axis=0)), sps.softmax(x, 0),
                               rtol=1e-14)
    np.testing.assert_allclose(np.asarray(nn.log_softmax(x)), sps.log_softmax(x, -1),
                               rtol=1e-14)
    mask = np.array([[True, False, True], [True, True, False]])
    sm = np.asarray(nn.softmax(x, where=mask))
    ref_m = np.where(mask, np.exp(x - x.max(1, keepdims=True)), 0)
    np.testing.assert_allclose(sm, ref_m / ref_m.sum(1, keepdims=True), rtol=1e-14)
    ls = np.asarray(nn.log_softmax(x, where=mask))
    assert np.all(np.isneginf(ls[~mask]))
    np.testing.assert_allclose(ls[mask], np.log(sm[mask]), rtol=1e-13)


def test_softmax_jacobian_is_diag_minus_outer():
    x = np.array([0.3, -1.2, 2.0])
    s = sps.softmax(x)
    np.testing.assert_allclose(np.asarray(sciax.jacrev(nn.softmax)(x)),
                               np.diag(s) - np.outer(s, s), rtol=1e-13, atol=1e-16)
    np.testing.assert_allclose(np.asarray(sciax.jacfwd(nn.log_softmax)(x)),
                               np.eye(3) - s[None, :], rtol=1e-13, atol=1e-16)


def test_logsumexp_matches_scipy_with_weights_sign_and_infinities():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(3, 4)) * 300
    for axis, keepdims in ((None, False), (1, True), ((0, 1), False)):
        if True:
            np.testing.assert_allclose(
                np.asarray(nn.logsumexp(a, axis=axis, keepdims=keepdims)),
                sps.logsumexp(a, axis=axis, keepdims=keepdims), rtol=1e-14)
    b = rng.normal(size=(3, 4))
    out, sign = nn.logsumexp(a, axis=1, b=b, return_sign=True)
    r_out, r_sign = sps.logsumexp(a, axis=1, b=b, return_sign=True)
    np.testing.assert_allclose(np.asarray(out), r_out, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(sign), r_sign)
    assert float(nn.logsumexp(np.array([-np.inf, -np.inf]))) == -np.inf
    assert float(nn.logsumexp(np.array([-np.inf, 0.0]))) == 0.0
    # the gradient is softmax, finite with -inf entries
    g = np.asarray(sciax.grad(nn.logsumexp)(np.array([-np.inf, 1.0, 1.0])))
    np.testing.assert_array_equal(g, [0.0, 0.5, 0.5])


def test_one_hot_matches_numpy_eye_and_validates():
    x = np.array([[0, 3], [2, 7]])
    ref = np.eye(4)[np.clip(x, 0, 3)] * (x < 4)[..., None]
    np.testing.assert_array_equal(np.asarray(nn.one_hot(x, 4)), ref)
    np.testing.assert_array_equal(np.asarray(nn.one_hot(x, 4, axis=0)),
                                  np.moveaxis(ref, -1, 0))
    assert nn.one_hot(x, 4, dtype=snp.int32).dtype == np.int32
    np.testing.assert_array_equal(np.asarray(nn.one_hot(np.array([-1, 1]), 2)),
                                  [[0, 0], [0, 1]])
    with pytest.raises(TypeError, match="num_classes"):
        nn.one_hot(x, 4.5)
    np.testing.assert_array_equal(
        np.asarray(sciax.jit(lambda v: nn.one_hot(v, 3))(np.array([1]))), [[0, 1, 0]])


def test_standardize_is_stable_for_large_offsets_and_has_numpy_values():
    x = 1e8 + np.array([[1.0, 2.0, 4.0], [0.5, 0.25, 0.125]])
    ref = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(np.asarray(nn.standardize(x)), ref, rtol=1e-7)
    y = np.array([[1.0, 2.0, 4.0], [0.5, 0.25, 0.125]])
    np.testing.assert_allclose(
        np.asarray(nn.standardize(y, axis=0, epsilon=0.0)),
        (y - y.mean(0)) / y.std(0), rtol=1e-13)
    w = np.array([True, True, False])
    out = np.asarray(nn.standardize(y[0], where=w, epsilon=0.0))
    np.testing.assert_allclose(out[:2], [-1.0, 1.0], rtol=1e-13)
    # a size-1 axis: constant zero output, zero (not nan) gradient
    g = sciax.grad(lambda v: nn.standardize(v).sum())(np.array([3.0]))
    assert np.isfinite(np.asarray(g)).all()


def test_integer_inputs_are_promoted_and_bad_axes_raise():
    assert nn.sigmoid(np.array([0, 1])).dtype == np.float64
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        nn.softmax(np.ones((2, 2)), axis=2)
