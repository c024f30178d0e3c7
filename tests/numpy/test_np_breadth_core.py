"""Parity of the breadth functions (creation, statistics, sorting, manipulation,
nan-reductions) with NumPy, eagerly and under jit; grads; bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
import sciax.numpy as snp
from sciax.test_util import check_grads

SETTINGS = settings(max_examples=15, deadline=None)
RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 4, 5))
XI = RNG.integers(-4, 5, (3, 4, 5))
XN = X.copy()
XN[0, 1, 2] = np.nan
XN[1] = np.nan
AXES = [None, 0, 1, -1, (0, 2)]


@pytest.mark.slow  # long: runs in CI's second step
@SETTINGS
@given(axis=st.sampled_from(AXES), ddof=st.sampled_from([0, 1]),
       keepdims=st.booleans(), which=st.sampled_from(["f", "i", "c"]))
def test_var_std(axis, ddof, keepdims, which):
    x = {"f": X, "i": XI, "c": X + 1j * XI}[which]
    for name in ("var", "std"):
        want = getattr(np, name)(x, axis=axis, ddof=ddof, keepdims=keepdims)
        got = getattr(snp, name)(x, axis=axis, ddof=ddof, keepdims=keepdims)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-10)


@SETTINGS
@given(axis=st.sampled_from(AXES), q=st.sampled_from([0.0, 0.3, [0.1, 0.5, 1.0]]),
       method=st.sampled_from(["linear", "lower", "higher", "nearest", "midpoint"]),
       keepdims=st.booleans())
@pytest.mark.slow  # long: runs in CI's second step
def test_quantile_family(axis, q, method, keepdims):
    kw = dict(axis=axis, method=method, keepdims=keepdims)
    np.testing.assert_allclose(snp.quantile(X, q, **kw), np.quantile(X, q, **kw))
    np.testing.assert_allclose(snp.percentile(X, np.multiply(q, 100), **kw),
                               np.percentile(X, np.multiply(q, 100), **kw))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(snp.nanquantile(XN, q, **kw),
                                   np.nanquantile(XN, q, **kw))
        np.testing.assert_allclose(snp.nanmedian(XN, axis), np.nanmedian(XN, axis))
    np.testing.assert_allclose(snp.median(XN, axis), np.median(XN, axis))


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean",
                                  "nanvar", "nanstd", "nancumsum", "nancumprod",
                                  "nanargmax", "nanargmin"])
def test_nan_reductions(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for axis in (None, 0, 2):
            try:
                want = getattr(np, name)(XN, axis)
            except ValueError:  # NumPy raises for all-NaN arg reductions
                want = getattr(np, name)(np.where(np.isnan(XN).all(axis, keepdims=True),
                                                  0.0, XN), axis)
                got = getattr(snp, name)(XN, axis)
                np.testing.assert_array_equal(
                    np.where(got == -1, want, got), want)
                continue
            np.testing.assert_allclose(getattr(snp, name)(XN, axis), want)


@pytest.mark.slow  # long: runs in CI's second step
def test_creation():
    np.testing.assert_allclose(snp.logspace(0, 2, 5, base=2.0), np.logspace(0, 2, 5,
                                                                           base=2.0))
    np.testing.assert_allclose(snp.geomspace(-1, -1000, 4), np.geomspace(-1, -1000, 4))
    for k in (-1, 0, 2):
        np.testing.assert_array_equal(snp.diag(np.arange(3), k), np.diag(np.arange(3), k))
        np.testing.assert_array_equal(snp.diag(XI[0], k), np.diag(XI[0], k))
        np.testing.assert_array_equal(snp.tril(XI, k), np.tril(XI, k))
        np.testing.assert_array_equal(snp.triu(XI, k), np.triu(XI, k))
        np.testing.assert_array_equal(snp.tri(3, 4, k), np.tri(3, 4, k))
    np.testing.assert_array_equal(snp.diagonal(XI, 1, 2, 0), np.diagonal(XI, 1, 2, 0))
    for indexing in ("xy", "ij"):
        for a, b in zip(snp.meshgrid(np.arange(3), np.arange(2), indexing=indexing),
                        np.meshgrid(np.arange(3), np.arange(2), indexing=indexing)):
            np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(snp.mgrid[0:3, 0:4:2], np.mgrid[0:3, 0:4:2])
    np.testing.assert_allclose(snp.mgrid[0:1:5j], np.mgrid[0:1:5j])
    np.testing.assert_array_equal(snp.indices((2, 3)), np.indices((2, 3)))
    np.testing.assert_array_equal(snp.fromfunction(lambda i, j: i * j, (2, 3), dtype=int),
                                  np.fromfunction(lambda i, j: i * j, (2, 3), dtype=int))
    np.testing.assert_array_equal(snp.vander(np.arange(4), 3), np.vander(np.arange(4), 3))
    for w in ("bartlett", "blackman", "hamming", "hanning"):
        np.testing.assert_allclose(getattr(snp, w)(6), getattr(np, w)(6), atol=1e-12)


@pytest.mark.slow  # long: runs in CI's second step
@pytest.mark.parametrize("mode", ["constant", "edge", "wrap", "reflect", "symmetric",
                                  "linear_ramp", "mean", "maximum", "minimum",
                                  "median"])
def test_pad_modes(mode):
    x = XI[:2].astype(float)
    for pw in (1, ((1, 2), (0, 3), (6, 1))):
        np.testing.assert_allclose(snp.pad(x, pw, mode), np.pad(x, pw, mode))


@pytest.mark.slow  # long: runs in CI's second step
def test_manipulation():
    x = XI
    for f, args in [("tile", ((2, 1, 1, 2),)), ("repeat", ([1, 0, 2, 1], 1)),
                    ("roll", ((1, -6), (0, 2))), ("rot90", (3, (1, 2))),
                    ("flip", ((0, 2),)), ("delete", ([0, 2], 1)),
                    ("insert", ([1, 0, 3], [7, 8, 9], 2)), ("append", (x,)),
                    ("atleast_3d", ())]:
        np.testing.assert_array_equal(getattr(snp, f)(x, *args), getattr(np, f)(x, *args))
    for f in ("split", "array_split", "hsplit", "vsplit", "dsplit"):
        sec = 2 if f not in ("split", "dsplit") else [1, 3]
        for a, b in zip(getattr(snp, f)(x[:2, :2, :4], sec),
                        getattr(np, f)(x[:2, :2, :4], sec)):
            np.testing.assert_array_equal(a, b)
    A = np.ones((2, 2))
    np.testing.assert_array_equal(snp.block([[A, 2 * A], [3 * A, 4 * A]]),
                                  np.block([[A, 2 * A], [3 * A, 4 * A]]))
    np.testing.assert_array_equal(snp.column_stack([np.arange(3), np.arange(3)]),
                                  np.column_stack([np.arange(3), np.arange(3)]))
    np.testing.assert_array_equal(snp.apply_along_axis(lambda v: v[::-1], 1, x),
                                  np.apply_along_axis(lambda v: v[::-1], 1, x))


@pytest.mark.slow  # long: runs in CI's second step
def test_sorting_and_selection():
    x = XN[0]
    for axis in (None, 0, -1):
        np.testing.assert_array_equal(snp.sort(x, axis), np.sort(x, axis))
        np.testing.assert_array_equal(snp.argsort(x, axis), np.argsort(x, axis,
                                                                       stable=True))
    k = XI[0]
    np.testing.assert_array_equal(snp.lexsort((k[0], k[1])), np.lexsort((k[0], k[1])))
    a = np.sort(XI.ravel())
    for side in ("left", "right"):
        np.testing.assert_array_equal(snp.searchsorted(a, [-5, 0, 2.5, 9], side),
                                      np.searchsorted(a, [-5, 0, 2.5, 9], side))
    for got, want in zip(snp.nonzero(k), np.nonzero(k)):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(snp.argwhere(k), np.argwhere(k))
    for got, want in zip(snp.unique(x, True, True, True), np.unique(x, True, True, True)):
        np.testing.assert_array_equal(got, want)
    u = sciax.jit(lambda v: snp.unique(v, size=30, fill_value=-9))(k)
    want = np.unique(k)
    np.testing.assert_array_equal(u[:len(want)], want)
    assert (np.asarray(u[len(want):]) == -9).all()
    nz = sciax.jit(lambda v: snp.nonzero(v, size=25, fill_value=-1))(k)
    np.testing.assert_array_equal(nz[0][:np.count_nonzero(k)], np.nonzero(k)[0])
    c = [k > 2, k < -2]
    np.testing.assert_array_equal(snp.select(c, [k, -k], 7), np.select(c, [k, -k], 7))
    np.testing.assert_array_equal(snp.choose(np.array([0, 1, 1]), [[1, 2, 3], 5]),
                                  np.choose(np.array([0, 1, 1]), [[1, 2, 3], 5]))
    np.testing.assert_array_equal(snp.compress([0, 1, 1], k, 1), np.compress([0, 1, 1],
                                                                             k, 1))
    np.testing.assert_array_equal(snp.extract(k > 0, k), np.extract(k > 0, k))


@pytest.mark.slow  # long: runs in CI's second step
def test_statistics():
    a = X.ravel()
    for bins in (5, [-1.0, 0.0, 0.5, 2.0]):
        c, e = snp.histogram(a, bins)
        c2, e2 = np.histogram(a, bins)
        np.testing.assert_array_equal(c, c2)
        np.testing.assert_allclose(e, e2)
    np.testing.assert_array_equal(snp.bincount(np.array([0, 1, 1, 5]), minlength=8),
                                  np.bincount(np.array([0, 1, 1, 5]), minlength=8))
    m = X[0]
    np.testing.assert_allclose(snp.cov(m), np.cov(m))
    np.testing.assert_allclose(snp.corrcoef(m), np.corrcoef(m))
    np.testing.assert_allclose(snp.average(m, 1, np.arange(5.0)),
                               np.average(m, 1, np.arange(5.0)))
    for mode in ("full", "same", "valid"):
        np.testing.assert_allclose(snp.convolve(a[:7], a[7:10], mode),
                                   np.convolve(a[:7], a[7:10], mode))
        np.testing.assert_allclose(snp.correlate(a[:3], a[3:9], mode),
                                   np.correlate(a[:3], a[3:9], mode))
    bins = np.array([0.0, 1.0, 2.5])
    np.testing.assert_array_equal(snp.digitize(a, bins), np.digitize(a, bins))


@pytest.mark.slow  # long: runs in CI's second step
def test_jit_matches_eager():
    f = sciax.jit(lambda v: (snp.var(v, 1), snp.median(v, 0), snp.pad(v, 1, "reflect"),
                             snp.sort(v, 0), snp.roll(v, 2, 1), snp.nanmean(v)))
    for got, want in zip(f(X[0]), (np.var(X[0], 1), np.median(X[0], 0),
                                   np.pad(X[0], 1, "reflect"), np.sort(X[0], 0),
                                   np.roll(X[0], 2, 1), np.nanmean(X[0]))):
        np.testing.assert_allclose(got, want)
    v = sciax.vmap(lambda r: snp.quantile(r, 0.25))(X[0])
    np.testing.assert_allclose(v, np.quantile(X[0], 0.25, axis=1))


@pytest.mark.slow  # long: runs in CI's second step
def test_grads():
    x = X[0, 0]
    for f in (lambda v: snp.var(v), lambda v: snp.std(v, ddof=1),
              lambda v: snp.median(v), lambda v: snp.quantile(v, 0.3),
              lambda v: snp.convolve(v, v[:2]).sum(), lambda v: snp.nanmean(v)):
        check_grads(f, (x,), order=1, modes=("rev",))


def test_bad_input():
    with pytest.raises(np.exceptions.AxisError):
        snp.var(X, axis=3)
    with pytest.raises(TypeError, match="size="):
        sciax.jit(lambda v: snp.nonzero(v))(X)
    with pytest.raises(TypeError, match="size="):
        sciax.jit(lambda v: snp.unique(v))(X)
    with pytest.raises(TypeError, match="length="):
        sciax.jit(lambda v: snp.bincount(v))(np.arange(3))
    with pytest.raises(ValueError, match="equal division"):
        snp.split(np.arange(5), 2)
    with pytest.raises(ValueError, match="quantiles must be in the range"):
        snp.quantile(X, 1.5)
    with pytest.raises(ValueError, match="pad_width"):
        snp.pad(X, ((1, 2), (3, 4)) * 2)
