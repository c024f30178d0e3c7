"""nquad/dblquad/tplquad, quad_vec and qmc_quad vs SciPy and closed forms, with
derivatives.  Each case compiles a nested adaptive loop, so most are slow-marked."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.integrate as si

import sciax
import sciax.numpy as snp
from sciax.integrate import dblquad, nquad, qmc_quad, quad_vec, tplquad


@pytest.mark.slow
def test_dblquad_variable_limits_and_grad():
    # ∫_0^1 ∫_0^x exp(-c(x²+y²)) dy dx and its c-derivative vs SciPy (central
    # difference, step 1e-5: truncation ~1e-10)
    f = lambda c: dblquad(lambda y, x, c: snp.exp(-c * (x * x + y * y)),  # noqa
                          0.0, 1.0, lambda x: 0.0, lambda x: x, args=(c,))[0]
    ref = lambda c: si.dblquad(lambda y, x: np.exp(-c * (x * x + y * y)), 0, 1,  # noqa
                               lambda x: 0, lambda x: x)[0]
    val, d = sciax.value_and_grad(f)(1.5)
    assert abs(float(val) - ref(1.5)) < 1e-12
    assert abs(float(d) - (ref(1.5 + 1e-5) - ref(1.5 - 1e-5)) / 2e-5) < 1e-8


@pytest.mark.slow  # ~2.5 minutes on 2 cores, mostly XLA compiling three nested loops
def test_tplquad():
    """Once skipped (three nested batched adaptive loops asked XLA for 27 GB);
    quad's own batching rule (the first rule for every member, the adaptive
    loop only for the unsettled ones) made it run in bounded memory."""
    res, _ = tplquad(lambda z, y, x: x * y * z, 0.0, 1.0, lambda x: 0.0,
                     lambda x: x, lambda x, y: 0.0, lambda x, y: y)
    # ∫_0^1 x ∫_0^x y ∫_0^y z = ∫ x ∫ y³/2 = ∫ x⁵/8 = 1/48
    assert abs(float(res) - 1 / 48) < 1e-13


@pytest.mark.slow
def test_nquad_variable_range_and_args():
    # nquad with a range depending on the outer variable and args
    r, _ = nquad(lambda x, y, c: c * x * y, [lambda y, c: (0.0, y), (0.0, 1.0)],
                 args=(2.0,))
    assert abs(float(r) - 0.25) < 1e-13


@pytest.mark.slow
def test_quad_vec_vs_scipy_and_grad():
    f = lambda x, c: snp.exp(-c * x) * snp.arange(1.0, 4.0)  # noqa: E731
    res, err = quad_vec(f, 0.0, 2.0, args=(1.3,))
    ref, _ = si.quad_vec(lambda x: np.exp(-1.3 * x) * np.arange(1.0, 4.0), 0, 2)
    np.testing.assert_allclose(res, ref, rtol=1e-12)
    exact = (1 - math.exp(-2.6)) / 1.3 * np.arange(1.0, 4.0)
    assert np.linalg.norm(np.asarray(res) - exact) <= float(err) + 1e-15
    jac = sciax.jacfwd(lambda c: quad_vec(f, 0.0, 2.0, args=(c,))[0])(1.3)
    d = ((2.6 + 1) * math.exp(-2.6) - 1) / 1.69 * np.arange(1.0, 4.0)
    np.testing.assert_allclose(jac, d, rtol=1e-10)
    r2, _ = quad_vec(lambda x: snp.stack([snp.exp(-x * x), 1 / (1 + x * x)]),
                     -np.inf, np.inf)
    np.testing.assert_allclose(r2, [math.sqrt(math.pi), math.pi], rtol=1e-8)


@pytest.mark.slow
def test_qmc_quad():
    # ∫_[0,1]³ exp(-|x|²) = (√π/2 erf 1)³; the estimate is random: allow 5
    # standard errors
    f = lambda x: snp.exp(-snp.sum(x * x, axis=0))  # noqa: E731
    exact = (0.5 * math.sqrt(math.pi) * math.erf(1.0)) ** 3
    r = qmc_quad(f, snp.zeros(3), snp.ones(3), key=sciax.random.key(3))
    assert abs(float(r.integral) - exact) < 5 * float(r.standard_error)
    assert float(r.standard_error) < 1e-3
    rl = qmc_quad(lambda x: -snp.sum(x * x, axis=0), snp.zeros(3), snp.ones(3),
                  log=True, key=sciax.random.key(3))
    assert abs(math.exp(float(rl.integral)) - float(r.integral)) < 1e-12
    with pytest.raises(NotImplementedError):
        qmc_quad(f, snp.zeros(3), snp.ones(3), qrng=object())
