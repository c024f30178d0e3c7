"""sciax.linalg.schur(sort=...) vs scipy.linalg.schur: the selected eigenvalues
lead the diagonal, z unitary, z t z^H == a, sdim equal to SciPy's; real and
complex output, named and callable selections, eager, jit, batches, bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
from sciax import linalg
from sciax.linalg._schur_sort import SORTS, selection
from tests.linalg.test_solve import rand

# reordering costs O(n) orthogonal swaps, each exact to a few eps
TOL = {np.float32: 1e-4, np.float64: 1e-10}


def _same_multiset(w, w2, tol):
    w2 = list(w2)
    for x in w:
        i = int(np.argmin(np.abs(np.asarray(w2) - x)))
        assert abs(w2[i] - x) < tol, (w, w2)
        w2.pop(i)
    assert not w2


def check(a, got, output, sort, tol):
    t, z, sdim = (np.asarray(x) for x in got)
    t2, _, sdim2 = sl.schur(a, output, sort=sort)
    assert int(sdim) == sdim2
    n = a.shape[-1]
    np.testing.assert_allclose(z @ t @ z.conj().T, a, atol=tol)
    np.testing.assert_allclose(z.conj().T @ z, np.eye(n), atol=tol)
    assert np.all(np.tril(t, -2) == 0)
    lead = sl.eigvals(t[:sdim, :sdim]) if sdim else []
    _same_multiset(lead, sl.eigvals(t2[:sdim2, :sdim2]) if sdim2 else [], tol * 100)
    if output == "real":  # 2x2 blocks in standard form (equal diagonal, bc < 0)
        for k in np.flatnonzero(np.diagonal(t, -1)):
            assert abs(t[k, k] - t[k + 1, k + 1]) < tol
            assert t[k, k + 1] * t[k + 1, k] < 0


@pytest.mark.slow  # long: runs in CI's second step
def test_real_output_named_sorts_jit():
    # one program for all four selections
    f = sciax.jit(lambda a: [linalg.schur(a, sort=s) for s in SORTS])
    for seed in range(4):  # random 6x6 real matrices: several complex pairs
        a = rand((6, 6), seed=seed)
        for s, got in zip(SORTS, f(a)):
            check(a, got, "real", s, TOL[np.float64])


def _upper(x):  # SciPy passes complex eigenvalues for a complex form
    return x.imag > 1e-8


def test_complex_output_jit_and_callable():
    f = sciax.jit(lambda a: (linalg.schur(a, "complex", sort="iuc"),
                             linalg.schur(a, "complex", sort=_upper)))
    for seed in range(3):
        a = rand((5, 5), np.complex128, seed=seed)
        got, got_upper = f(a)
        check(a, got, "complex", "iuc", TOL[np.float64])
        check(a, got_upper, "complex", _upper, TOL[np.float64])


@pytest.mark.slow  # long: runs in CI's second step
def test_real_callable_eager_batched_float32_nan_empty():
    def real_axis(re, im):  # and (re, im) for a real one
        return im == 0

    a = rand((3, 4, 4), np.float32, seed=7)
    a[2, 0, 0] = np.nan
    t, z, sdim = linalg.schur(a, sort=real_axis)
    assert t.dtype == np.float32 and sdim.shape == (3,)
    for i in range(2):
        check(a[i], (t[i], z[i], sdim[i]), "real", real_axis, TOL[np.float32])
        assert np.all(np.diagonal(np.asarray(t[i]), -1)[:int(sdim[i])] == 0)
    assert np.isnan(np.asarray(t[2])).all()  # the loops end; NaN stays NaN
    t, z, sdim = linalg.schur(np.zeros((0, 0)), sort="lhp")
    assert t.shape == (0, 0) and int(sdim) == 0


def test_named_selections_match_scipy_definitions():
    re = np.array([-1.0, 0.0, 0.6, 2.0])
    im = np.array([0.0, 1.0, -0.8, 0.0])
    x = re + 1j * im
    want = {"lhp": re < 0, "rhp": re >= 0, "iuc": abs(x) <= 1, "ouc": abs(x) > 1}
    for s in SORTS:
        np.testing.assert_array_equal(np.asarray(selection(s)(re, im)), want[s])
        np.testing.assert_array_equal(np.asarray(selection(s)(x)), want[s])


def test_bad_sort():
    for bad in ("xyz", 3):
        with pytest.raises(ValueError, match="'lhp', 'rhp', 'iuc', 'ouc'"):
            linalg.schur(np.eye(2), sort=bad)
