"""sciax.linalg matrix functions vs scipy.linalg: expm and friends, sqrtm, logm,
fractional powers, funm, signm, polar (dtypes, jit, batches vs a loop,
derivatives vs finite differences, documented edge cases, bad input)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
import sciax.linalg as sla
import sciax.numpy as snp
from sciax.test_util import check_grads

RNG = np.random.default_rng(7)


def _rel(x, y):
    x = np.asarray(x)
    return np.abs(x - y).max() / max(np.abs(y).max(), 1e-300)


def _mat(n=4, complex_=False, batch=()):
    x = RNG.normal(size=batch + (n, n))
    return x + 1j * RNG.normal(size=batch + (n, n)) if complex_ else x


def _spd(n=4):
    x = RNG.normal(size=(n, n))
    return x @ x.T + n * np.eye(n)


@pytest.mark.parametrize("scale", [1e-3, 0.2, 1.0, 4.0, 50.0])
@pytest.mark.parametrize("complex_", [False, True])
def test_expm_matches_scipy_across_pade_degrees(scale, complex_):
    # the scales reach each Pade degree and the squarings
    a = scale * _mat(complex_=complex_)
    want = sl.expm(a)
    got = sla.expm(a)
    assert np.asarray(got).dtype == want.dtype
    assert _rel(got, want) < 1e-12


@pytest.mark.slow  # long: runs in CI's second step
def test_expm_jit_float32_and_batches():
    a = _mat(batch=(3,))
    want = np.stack([sl.expm(x) for x in a])
    assert _rel(sciax.jit(sla.expm)(a[0]), want[0]) < 1e-13
    assert _rel(sla.expm(a), want) < 1e-13
    assert _rel(sciax.vmap(sla.expm)(a), want) < 1e-13
    got32 = sla.expm(a[0].astype(np.float32))
    assert np.asarray(got32).dtype == np.float32
    assert _rel(got32, want[0]) < 1e-5


def test_expm_beyond_max_squarings_is_nan_and_can_be_raised():
    a = np.diag([-1e6, -2e6])
    assert np.isnan(np.asarray(sla.expm(a))).all()
    np.testing.assert_allclose(sla.expm(a, max_squarings=24), sl.expm(a), atol=1e-300)


@pytest.mark.slow  # long: runs in CI's second step
def test_expm_grads():
    a = _mat(3)
    check_grads(sla.expm, (a,), order=1, modes=("fwd", "rev"))
    check_grads(sla.expm, (3.0 * a,), order=1, modes=("rev",))  # with squarings


@pytest.mark.slow  # long: runs in CI's second step
def test_expm_frechet():
    a, e = _mat(), _mat()
    ea, l = sla.expm_frechet(a, e)
    want_ea, want_l = sl.expm_frechet(a, e)
    assert _rel(ea, want_ea) < 1e-12 and _rel(l, want_l) < 1e-12
    assert _rel(sla.expm_frechet(a, e, compute_expm=False), want_l) < 1e-12
    # the Frechet derivative is the JVP of expm
    _, jvp = sciax.jvp(sla.expm, (a,), (e,))
    assert _rel(jvp, want_l) < 1e-12


@pytest.mark.parametrize("name", ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm"])
@pytest.mark.parametrize("complex_", [False, True])
def test_trig_and_hyperbolic(name, complex_):
    a = 0.5 * _mat(complex_=complex_)
    got = getattr(sla, name)(a)
    want = getattr(sl, name)(a)
    assert np.asarray(got).dtype == want.dtype
    assert _rel(got, want) < 1e-12


@pytest.mark.slow  # long: runs in CI's second step
def test_sqrtm_matches_scipy():
    for a in (_spd(), _mat() + 4 * np.eye(4), _mat(complex_=True)):
        want = sl.sqrtm(a)
        got = sla.sqrtm(a)
        assert np.asarray(got).dtype == want.dtype
        assert _rel(got, want) < 1e-12
    spd = _spd()
    assert _rel(sciax.jit(sla.sqrtm)(spd), sl.sqrtm(spd)) < 1e-12


@pytest.mark.slow  # long: runs in CI's second step
def test_sqrtm_documented_cases():
    # not diagonalisable: the Schur recurrence handles it
    np.testing.assert_allclose(sla.sqrtm(np.array([[1.0, 1.0], [0.0, 1.0]])),
                               [[1.0, 0.5], [0.0, 1.0]], atol=1e-15)
    # a real matrix with a negative eigenvalue: NaN (SciPy: complex), complex in
    assert np.isnan(np.asarray(sla.sqrtm(-np.eye(2)))).all()
    assert _rel(sla.sqrtm(-np.eye(2) + 0j), 1j * np.eye(2)) < 1e-15
    x, err = sla.sqrtm(_spd(), disp=False)
    assert float(err) < 1e-13


@pytest.mark.slow  # long: runs in CI's second step
def test_sqrtm_and_logm_batched_equal_a_loop():
    a = np.stack([_spd(3) for _ in range(3)])
    for ours, theirs in ((sla.sqrtm, sl.sqrtm), (sla.logm, sl.logm)):
        want = np.stack([theirs(x) for x in a])
        assert _rel(ours(a), want) < 1e-12
        assert _rel(sciax.vmap(ours)(a), want) < 1e-12


@pytest.mark.slow  # long: runs in CI's second step
def test_sqrtm_grads_spd():
    check_grads(sla.sqrtm, (_spd(3),), order=1, modes=("fwd", "rev"))


@pytest.mark.slow  # long: runs in CI's second step
def test_logm_matches_scipy():
    for a in (_spd(), _mat() + 4 * np.eye(4), _mat(complex_=True), 1e3 * _spd()):
        want = sl.logm(a)
        got = sla.logm(a)
        assert np.asarray(got).dtype == want.dtype
        assert _rel(got, want) < 1e-11
    spd = _spd()
    assert _rel(sciax.jit(sla.logm)(spd), sl.logm(spd)) < 1e-11
    assert _rel(sla.expm(sla.logm(spd)), spd) < 1e-12
    _, err = sla.logm(spd, disp=False)
    assert float(err) < 1e-12
    assert np.isnan(np.asarray(sla.logm(-np.eye(2)))).all()


@pytest.mark.slow  # long: runs in CI's second step
def test_logm_grads_spd():
    check_grads(sla.logm, (_spd(3),), order=1, modes=("fwd", "rev"))


@pytest.mark.slow  # long: runs in CI's second step
def test_fractional_matrix_power():
    spd, a = _spd(), _mat() + 4 * np.eye(4)
    for t in (0.5, -0.3, 1.7):
        assert _rel(sla.fractional_matrix_power(spd, t),
                    sl.fractional_matrix_power(spd, t)) < 1e-11
    for t in (3, -2, 0):
        assert _rel(sla.fractional_matrix_power(a, t),
                    sl.fractional_matrix_power(a, t)) < 1e-12
    # a traced exponent
    f = sciax.jit(sla.fractional_matrix_power)
    assert _rel(f(spd, 0.5), sl.sqrtm(spd)) < 1e-11


@pytest.mark.slow  # long: runs in CI's second step
def test_funm_and_signm():
    a = _mat()
    assert _rel(sla.funm(a, snp.exp), sl.expm(a)) < 1e-12
    assert _rel(sla.funm(a, snp.sin), sl.funm(a, np.sin)) < 1e-12
    ac = _mat(complex_=True)
    assert _rel(sla.funm(ac, snp.cos), sl.funm(ac, np.cos)) < 1e-12
    f, err = sla.funm(a, snp.exp, disp=False)
    assert float(err) < 1e-12
    assert _rel(sla.signm(a), sl.signm(a)) < 1e-12
    s = sla.signm(_mat(batch=(2,)))
    assert _rel(s @ s, np.broadcast_to(np.eye(4), (2, 4, 4))) < 1e-12


@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
def test_polar_matches_scipy(side, shape):
    for a in (RNG.normal(size=shape), RNG.normal(size=shape) + 1j * RNG.normal(size=shape)):
        u, p = sla.polar(a, side)
        want_u, want_p = sl.polar(a, side)
        assert _rel(u, want_u) < 1e-12 and _rel(p, want_p) < 1e-12


def test_polar_grads():
    a = _mat(3)
    check_grads(lambda x: sla.polar(x)[0], (a,), order=1, modes=("fwd", "rev"))
    check_grads(lambda x: sla.polar(x, "left")[1], (a,), order=1, modes=("fwd", "rev"))


def test_bad_input():
    with pytest.raises(ValueError, match="expm: expected A to be a square"):
        sla.expm(np.ones((2, 3)))
    with pytest.raises(ValueError, match="sqrtm: expected A to be at least 2-D"):
        sla.sqrtm(np.ones(3))
    with pytest.raises(ValueError, match="expm_frechet: expected A and E to be the same"):
        sla.expm_frechet(np.eye(2), np.eye(3))
    with pytest.raises(ValueError, match="polar: side must be"):
        sla.polar(np.eye(2), side="up")
    with pytest.raises(TypeError, match="funm: func must be callable"):
        sla.funm(np.eye(2), 3.0)
    with pytest.raises(ValueError, match="fractional_matrix_power: t must be a scalar"):
        sla.fractional_matrix_power(np.eye(2), np.ones(2) * 0.5)
    # NaN input propagates
    assert np.isnan(np.asarray(sla.expm(np.full((2, 2), np.nan)))).all()
