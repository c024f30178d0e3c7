"""nsum against scipy.integrate.nsum, closed forms and mpmath.

The integral tail is this package's tanhsinh, not SciPy's, so sums agree with
SciPy's to the tolerances (the default ``rtol = eps**0.5`` governs the integral
part, which is ~1e-4 of the sum or less here: 1e-10 relative is several times
the difference seen), not to rounding; ``nfev`` is compared only on direct sums
(SciPy's count has one more evaluation, made for input validation).
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import scipy.integrate as si
from scipy import special

import sciax
import sciax.numpy as snp
from sciax.integrate import nsum

INF = np.inf


def power(k, p):
    return (1.0 + k * k) ** (-0.5 * p)


def power_np(k, p):
    return (1.0 + k * k) ** (-0.5 * p)


def test_paths_jit_vmap_against_scipy_and_closed_forms():
    # one compiled program covering each path: a direct sum, sums to +inf, from
    # -inf, over all integers (f(x) + f(-x) folded), and a finite sum too long
    # for maxterms (integral tail ending at a finite b)
    a = np.array([1.0, 1.0, -INF, -INF, 1.0, 0.0])
    b = np.array([50.0, INF, 0.0, INF, INF, 5000.0])
    p = np.array([2.0, 2.0, 2.0, 2.0, 4.0, 2.0])
    res = sciax.jit(sciax.vmap(lambda a, b, p: nsum(power, a, b, args=(p,),
                                                    maxterms=1000)))(a, b, p)
    ref = si.nsum(power_np, a, b, args=(p,), maxterms=1000)
    np.testing.assert_array_equal(np.asarray(res.status), ref.status)
    np.testing.assert_allclose(np.asarray(res.sum), ref.sum, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(res.error), ref.error, rtol=0.5)
    # sum_{k in Z} 1/(1+k^2) = pi coth(pi); sum_{k>=1} is half of that minus 1/2.
    # With maxterms=1000 the tail starts near c = 1000, where the first omitted
    # Euler-Maclaurin term, f'(c)/12 ~ 1/(6 c^3), is ~2e-10 (SciPy's too)
    both = np.pi / np.tanh(np.pi)
    np.testing.assert_allclose(np.asarray(res.sum)[[1, 2, 3]],
                               [(both - 1) / 2, (both + 1) / 2, both], rtol=5e-10)
    assert int(res.nfev[0]) == ref.nfev[0] - 1 == 50


@pytest.mark.slow
def test_zeta_values_and_alternating_series():
    p = np.arange(2.0, 10.0)
    res = nsum(lambda k, p: k ** -p, 1, INF, args=(p,))
    assert np.all(np.asarray(res.success))
    # the tail starts where k^-p < rtol zeta(p): k ~ 17 for p = 7, where the
    # omitted Euler-Maclaurin term p c^(-p-1)/12 is ~1e-10 (SciPy's sums have
    # the same error); the reported error bounds it
    err = np.abs(np.asarray(res.sum) - special.zeta(p, 1))
    assert np.all(err <= np.asarray(res.error)) and np.max(err) < 1e-10
    ref = si.nsum(lambda k, p: k ** -p, 1, INF, args=(p,))
    np.testing.assert_allclose(np.asarray(res.sum), ref.sum, rtol=1e-12)
    # SciPy's estimates: Euler-Maclaurin f(c)/2 plus the integrals' errors
    np.testing.assert_allclose(np.asarray(res.error), ref.error, rtol=0.1)
    # alternating harmonic series as pairs of terms (SciPy's example): log 2
    r = nsum(lambda x: 1 / x - 1 / (x + 1), 1, INF, step=2)
    assert abs(float(r.sum) - np.log(2)) < 1e-12 and int(r.status) == 0


@pytest.mark.slow
def test_geometric_and_step():
    # sum_k q^(a + k step) = q^a / (1 - q^step): direct (small q) and tail
    q = np.array([0.5, 0.9, 0.999])
    res = nsum(lambda x, q: q ** x, 0.5, INF, step=1.5, args=(q,))
    np.testing.assert_allclose(np.asarray(res.sum), q ** 0.5 / (1 - q ** 1.5), rtol=1e-10)
    fin = nsum(lambda x, q: q ** x, 0.0, 9.9, args=(q,))     # terms k = 0..9
    np.testing.assert_allclose(np.asarray(fin.sum), (1 - q ** 10) / (1 - q), rtol=1e-14)


@pytest.mark.slow
def test_log_sums_scale_free():
    # log terms c - 2 log k: exp(c) pi^2/6 overflows / underflows for |c| = 1000
    c = np.array([-1000.0, 0.0, 1000.0])
    res = nsum(lambda k, c: c - 2 * snp.log(k), 1, INF, args=(c,), log=True)
    np.testing.assert_allclose(np.asarray(res.sum), c + np.log(np.pi ** 2 / 6), atol=1e-11)
    ref = si.nsum(lambda k: -2 * np.log(k), 1, INF, log=True)
    np.testing.assert_allclose(np.asarray(res.error)[1], ref.error, atol=0.1)
    fin = nsum(lambda k: -k, 0, 20, log=True)
    assert abs(float(fin.sum) - np.log(np.sum(np.exp(-np.arange(21.0))))) < 1e-14


@pytest.mark.slow
def test_status_codes_as_scipy():
    a = np.array([2.0, 1.0, 1.0, np.nan])
    b = np.array([1.0, 3.0, 3.0, 3.0])
    step = np.array([1.0, 0.0, -1.0, 1.0])
    res = nsum(lambda k: k ** -2.0, a, b, step=step)
    with np.errstate(divide="ignore"):
        ref = si.nsum(lambda k: k ** -2.0, a, b, step=step)
    np.testing.assert_array_equal(np.asarray(res.status), ref.status)   # 0 -1 -1 -1
    np.testing.assert_array_equal(np.asarray(res.sum), ref.sum)          # 0 nan...
    # maxterms too small for the tolerance: -4 with SciPy's estimate
    r, s = (fn(lambda k: k ** -1.1, 1, INF, maxterms=100) for fn in (nsum, si.nsum))
    assert int(r.status) == s.status == -4
    np.testing.assert_allclose(float(r.sum), s.sum, rtol=1e-10)
    # divergent: the integral does not converge
    r = nsum(lambda k: 1 / k, 1, INF)
    assert int(r.status) == -2 and not bool(r.success)


@pytest.mark.slow
def test_derivatives_against_mpmath():
    # d/dp zeta(p) = -sum log k / k^p, forward and reverse mode
    def s(p):
        return nsum(lambda k, p: k ** -p, 1, INF, args=(p,)).sum
    ref = float(mpmath.diff(mpmath.zeta, 3))
    assert abs(float(sciax.grad(s)(3.0)) - ref) < 1e-9 * abs(ref)
    assert abs(float(sciax.jacfwd(s)(3.0)) - ref) < 1e-9 * abs(ref)
    # a finite sum in a (the terms' derivatives)
    d = sciax.grad(lambda a: nsum(lambda k: snp.exp(-k), a, a + 10.0).sum)(0.5)
    np.testing.assert_allclose(float(d), -np.sum(np.exp(-0.5 - np.arange(11.0))), rtol=1e-14)
    # an integer argument beside the differentiated one: d/dc sum c e^{-2k}
    d = sciax.grad(lambda c: nsum(lambda k, c, m: c * snp.exp(-k * m), 0.0, 30.0,
                                  args=(c, snp.int32(2))).sum)(2.0)
    np.testing.assert_allclose(float(d), 1 / (1 - np.exp(-2.0)), rtol=1e-14)
    # log=True: d/dc log sum_k exp(c - k^2 / 50) = 1 (the direct sum's weights)
    dc = sciax.grad(lambda c: nsum(lambda k, c: c - k * k / 50, 0, 40.0, args=(c,),
                                   log=True).sum)(-1000.0)
    assert abs(float(dc) - 1.0) < 1e-13


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="f must be callable"):
        nsum(3.0, 1, 2)
    with pytest.raises(ValueError, match="maxterms"):
        nsum(lambda k: k, 1, 2, maxterms=-1)
    with pytest.raises(ValueError, match="rtol"):
        nsum(lambda k: k, 1, 2, tolerances=dict(rtol=-1.0))
