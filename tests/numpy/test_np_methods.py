"""Array methods and properties against NumPy's, on Arrays and under jit."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp

X = np.random.default_rng(0).normal(size=(3, 4))
C = X + 1j * X[::-1]


@pytest.mark.parametrize("name,args,kwargs", [
    ("var", (), {}), ("var", (1,), {"ddof": 1}), ("std", (0,), {}),
    ("argsort", (), {}), ("argsort", (0,), {}), ("repeat", (2, 1), {}),
    ("take", ([1, 0], 1), {}), ("diagonal", (1,), {}), ("trace", (), {}),
    ("cumsum", (1,), {}), ("clip", (-0.5, 0.5), {}), ("round", (2,), {}),
    ("flatten", (), {}), ("ravel", (), {}), ("swapaxes", (0, 1), {}),
    ("transpose", (), {}), ("astype", (np.float32,), {}), ("any", (), {}),
    ("all", (0,), {}), ("dot", (X.T,), {}), ("squeeze", (), {}),
])
def test_methods_match_numpy(name, args, kwargs):
    want = getattr(X, name)(*args, **kwargs)
    got = getattr(snp.asarray(X), name)(*args, **kwargs)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_more_methods_and_properties():
    a = snp.asarray(X)
    np.testing.assert_allclose(a.sort(0), np.sort(X, 0))
    np.testing.assert_allclose(a.ptp(1), np.ptp(X, 1))
    np.testing.assert_array_equal(a.T, X.T)
    np.testing.assert_array_equal(snp.ones((2, 3, 4)).mT.shape, (2, 4, 3))
    c = snp.asarray(C)
    np.testing.assert_array_equal(c.real, C.real)
    np.testing.assert_array_equal(c.imag, C.imag)
    np.testing.assert_array_equal(c.conj(), C.conj())
    np.testing.assert_array_equal(a.view(np.int64), X.view(np.int64))
    np.testing.assert_array_equal(snp.asarray(np.array([1, 0], np.uint8)).view(bool),
                                  [True, False])
    assert a.tolist() == X.tolist() and a[0, 0].item() == X[0, 0]
    nz = snp.asarray(X > 0).nonzero()
    for g, w in zip(nz, np.nonzero(X > 0)):
        np.testing.assert_array_equal(g, w)
    assert float(X[1, 2]) in a and 123.0 not in a
    with pytest.raises(ValueError, match="itemsize"):
        a.view(np.int32)


def test_methods_under_jit():
    f = sciax.jit(lambda a: (a.var(0), a.argsort(1), a.diagonal(), a.at[0].add(1.0),
                             a.mT, a.astype(np.int32), a.repeat(2, 0)))
    var, order, diag, upd, mt, ints, rep = f(X)
    np.testing.assert_allclose(var, X.var(0))
    np.testing.assert_array_equal(order, X.argsort(1))
    np.testing.assert_array_equal(diag, X.diagonal())
    np.testing.assert_allclose(upd[0], X[0] + 1)
    np.testing.assert_array_equal(mt, X.T)
    np.testing.assert_array_equal(ints, X.astype(np.int32))
    np.testing.assert_array_equal(rep, X.repeat(2, 0))
    with pytest.raises(TypeError):
        sciax.jit(lambda a: a.tolist())(X)
