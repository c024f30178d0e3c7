"""Parity with NumPy of the second breadth batch: math functions, set
operations, polynomials, einsum and friends, dtype utilities and the index /
bit / vectorize helpers, eagerly and under jit; gradients; bad input.

Shapes are reused across tests so the per-op compile caches stay warm.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
import sciax.numpy as snp
from sciax.test_util import check_grads

SETTINGS = settings(max_examples=20, deadline=None)
RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 4))
XI = RNG.integers(-6, 7, (3, 4))
XC = X + 1j * RNG.normal(size=(3, 4))
V3 = RNG.normal(size=3)


def close(got, want, rtol=1e-12, atol=1e-12, dtype=True):
    got = np.asarray(got)
    if dtype and hasattr(want, "dtype"):
        assert got.dtype == np.asarray(want).dtype, (got.dtype, np.asarray(want).dtype)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def both(fn, *args, **kw):
    """``fn`` eagerly and under jit (array arguments traced)."""
    eager = fn(*args, **kw)
    jitted = sciax.jit(lambda *a: fn(*a, **kw))(*args)
    return eager, jitted


# --- math functions ------------------------------------------------------------------

@pytest.mark.parametrize("name,args,kw", [
    ("i0", (np.array([0.0, 0.5, -3.0, 8.0, 9.5, 30.0]),), {}),
    ("sinc", (np.array([0.0, 0.5, -1.25, 3.0]),), {}),
    ("diff", (X,), {}),
    ("diff", (X,), dict(n=2, axis=0)),
    ("diff", (XI,), dict(prepend=0, append=XI[:, :1])),
    ("diff", (X > 0,), {}),
    ("ediff1d", (XI,), dict(to_begin=np.array([-9, -8]), to_end=7)),
    ("gradient", (X,), {}),
    ("gradient", (X, 2.0), dict(axis=1, edge_order=2)),
    ("gradient", (X, np.array([0.0, 1.0, 3.0]), np.array([0.0, 0.5, 1.0, 3.0])), {}),
    ("gradient", (X, np.array([0.0, 1.0, 3.0]), np.array([0.0, 0.5, 1.0, 3.0])),
     dict(edge_order=2)),
    ("gradient", (XI,), dict(axis=0)),
    ("trapezoid", (X,), {}),
    ("trapezoid", (X,), dict(x=np.array([0.0, 1.0, 3.0]), axis=0)),
    ("trapezoid", (X,), dict(dx=0.5)),
    ("trapezoid", (X,), dict(x=2 * X)),
    ("cross", (RNG.normal(size=(4, 3)), V3), {}),
    ("cross", (X[:, :4], RNG.normal(size=(4, 3))), dict(axisa=0, axisc=0)),
    ("unwrap", (np.cumsum(RNG.normal(size=12) * 3),), {}),
    ("unwrap", (5 * X,), dict(axis=0, discont=4.0)),
    ("unwrap", (np.arange(12) * 7 % 10,), dict(period=10)),
    ("isclose", (np.array([1.0, np.nan, np.inf, 1e-9, -np.inf]),
                 np.array([1 + 1e-6, np.nan, np.inf, 0.0, np.inf])), dict(equal_nan=True)),
    ("isclose", (XI, XI + (XI > 2)), {}),
    ("isclose", (XC, XC + 1e-9), dict(rtol=0.0)),
    ("iscomplex", (np.array([1 + 1j, 2 + 0j]),), {}),
    ("isreal", (np.array([1 + 1j, 2 + 0j]),), {}),
    ("isreal", (X,), {}),
    ("nan_to_num", (np.array([np.nan, np.inf, -np.inf, 1.0]),), {}),
    ("nan_to_num", (np.array([np.nan + 1j * np.inf, 1.0]),), dict(nan=1.0, posinf=2.0)),
    ("nan_to_num", (np.array([np.nan, -np.inf], np.float32),), {}),
    ("nan_to_num", (XI,), {}),
    ("gcd", (np.array([12, 20, 0, -9, 0, 7]), np.array([8, 8, 8, 6, 0, 13])), {}),
    ("lcm", (np.array([4, 6, 0, -3, 5, 7]), np.array([10, 10, 1, 7, 0, 13])), {}),
    ("heaviside", (np.array([-1.0, 0.0, 2.0, np.nan]), 0.5), {}),
    ("ldexp", (np.array([1.0, 3.0, 1e-300, 1.0]), np.array([3, -1, 1080, -1020])), {}),
    ("ldexp", (np.array([1.0, 3.0], np.float32), np.array([100, -120])), {}),
    ("frexp", (np.array([8.0, 0.3, 0.0, -5.0, np.inf, 1e300, 2.0 ** -1022]),), {}),
    ("frexp", (np.array([8.0, 0.3, 1e-30, -5.0], np.float32),), {}),
    ("modf", (np.array([2.5, -1.25, np.inf, -2.0, 0.0]),), {}),
    ("spacing", (np.array([1.0, -1.0, 1e10, 3e-300]),), {}),
    ("spacing", (np.array([1.0, -7.5], np.float32),), {}),
    ("nextafter", (np.array([1.0, 0.5]), np.array([2.0, -1.0])), {}),
    ("isneginf", (np.array([-np.inf, 1.0, np.inf]),), {}),
    ("isposinf", (np.array([-np.inf, 1.0, np.inf]),), {}),
    ("bitwise_count", (np.array([0, 7, -8, 255]),), {}),
    ("bitwise_count", (np.array([0, 7, 128], np.uint8),), {}),
    ("pow", (XI, 2), {}),
])
def test_math_vs_numpy(name, args, kw):
    want = getattr(np, name)(*args, **kw)
    for got in both(getattr(snp, name), *args, **kw):
        if isinstance(want, tuple):
            assert len(got) == len(want)
            for g, w in zip(got, want):
                close(g, w)
        else:
            close(got, want)


def test_cross_2d_vectors():
    a, b = RNG.normal(size=(4, 2)), RNG.normal(size=(4, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        close(snp.cross(a, b), np.cross(a, b))
        close(snp.cross(b, a), np.cross(b, a))
        close(snp.cross(a, a[::-1]), np.cross(a, a[::-1]))


@SETTINGS
@given(left=st.sampled_from([None, -9.0]), right=st.sampled_from([None, 9.0]),
       cplx=st.booleans())
@pytest.mark.slow  # long: runs in CI's second step
def test_interp(left, right, cplx):
    xp = np.array([0.0, 1.0, 2.5, 4.0])
    fp = np.array([1.0, -1.0, 3.0, 0.0]) * (1 + 1j if cplx else 1)
    x = np.linspace(-1, 5, 13)
    want = np.interp(x, xp, fp, left=left, right=right)
    for got in both(snp.interp, x, xp, fp, left=left, right=right):
        close(got, want)


def test_interp_period_and_edges():
    x = np.linspace(-7, 400, 13)
    xp, fp = np.array([350.0, 10, 50, 200]), np.array([1.0, 2, 3, 4])
    close(snp.interp(x, xp, fp, period=360), np.interp(x, xp, fp, period=360))
    close(snp.interp(2.0, np.array([2.0]), np.array([5.0])),
          np.interp(2.0, np.array([2.0]), np.array([5.0])), dtype=False)
    close(snp.interp(4.0, xp[1:], fp[1:]), np.interp(4.0, xp[1:], fp[1:]), dtype=False)


def test_closeness_predicates():
    assert bool(snp.allclose(X, X + 1e-10)) and not bool(snp.allclose(X, X + 1e-3))
    assert bool(snp.array_equal(XI, XI)) and not bool(snp.array_equal(XI, XI[:2]))
    nan = np.array([1.0, np.nan])
    assert not bool(snp.array_equal(nan, nan)) and bool(snp.array_equal(nan, nan, True))
    assert bool(snp.array_equiv([1, 2], [[1, 2], [1, 2]]))
    assert not bool(snp.array_equiv([1, 2], [[1, 2, 3]]))
    f = sciax.jit(lambda a, b: (snp.allclose(a, b), snp.array_equal(a, b)))
    assert [bool(v) for v in f(X, X)] == [True, True]
    assert snp.iscomplexobj(XC) and not snp.iscomplexobj(X) and snp.isrealobj(XI)
    assert snp.isscalar(3.0) and snp.isscalar("s") and not snp.isscalar(snp.array(1.0))
    assert not snp.isscalar(np.array(1.0)) and not snp.isscalar([1])


def test_real_if_close():
    a = np.array([2.1 + 4e-14j, 5.2 + 3e-15j])
    close(snp.real_if_close(a, tol=1000), np.real_if_close(a, tol=1000))
    close(snp.real_if_close(a + 1e-3j), np.real_if_close(a + 1e-3j))
    close(snp.real_if_close(X), X)
    with pytest.raises(TypeError, match="real_if_close.*traced"):
        sciax.jit(snp.real_if_close)(a)


@pytest.mark.slow  # long: runs in CI's second step
def test_math_vmap():
    out = sciax.vmap(snp.gcd)(np.array([4, 6, 35]), np.array([6, 9, 14]))
    close(out, np.gcd([4, 6, 35], [6, 9, 14]))
    out = sciax.vmap(lambda y: snp.trapezoid(y, dx=0.5))(X)
    close(out, np.trapezoid(X, dx=0.5))
    out = sciax.vmap(lambda x: snp.interp(x, np.array([0.0, 1.0]), np.array([0.0, 2.0])))(
        X)
    close(out, np.interp(X, [0.0, 1.0], [0.0, 2.0]))


@pytest.mark.slow  # long: runs in CI's second step
def test_math_grads():
    y = np.abs(X) + 0.5
    check_grads(lambda v: snp.trapezoid(v, x=np.array([0.0, 0.5, 2.0, 3.0])), (y,),
                order=2)
    check_grads(lambda v: snp.diff(v, n=2, axis=0, prepend=1.0), (y,), order=1)
    check_grads(lambda v: snp.gradient(v, axis=1, edge_order=2), (y,), order=1)
    xp, fp = np.array([0.0, 1.0, 2.5, 4.0]), np.array([1.0, -1.0, 3.0, 0.0])
    x = np.array([0.3, 1.7, 3.1])  # away from the kinks
    check_grads(lambda a, b: snp.interp(a, xp, b), (x, fp), order=1)
    check_grads(snp.cross, (RNG.normal(size=(2, 3)), V3), order=2)
    check_grads(snp.i0, (np.array([0.5, -2.0, 7.0, 12.0]),), order=1, atol=1e-6)
    check_grads(snp.sinc, (np.array([0.3, -1.2, 2.7]),), order=2)
    check_grads(lambda v: snp.unwrap(v), (np.array([0.0, 3.0, 6.5, 0.2]),), order=1)


def test_math_bad_input():
    with pytest.raises(ValueError, match="diff.*order must be non-negative"):
        snp.diff(X, n=-1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        snp.diff(3.0)
    with pytest.raises(np.exceptions.AxisError):
        snp.diff(X, axis=2)
    with pytest.raises(ValueError, match="gradient.*too small"):
        snp.gradient(np.ones((3, 2)), edge_order=2)
    with pytest.raises(ValueError, match="gradient.*does not match"):
        snp.gradient(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="cross.*dimension must be 2 or 3"):
        snp.cross(np.ones(4), np.ones(3))
    with pytest.raises(ValueError, match="interp.*same length"):
        snp.interp(1.0, np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="interp.*empty"):
        snp.interp(1.0, np.ones(0), np.ones(0))
    with pytest.raises(ValueError, match="period must be a non-zero"):
        snp.interp(1.0, np.ones(2), np.ones(2), period=0)
    with pytest.raises(TypeError, match="gcd.*integers"):
        snp.gcd(1.5, 2)
    with pytest.raises(TypeError, match="ldexp.*integer"):
        snp.ldexp(1.0, 2.0)
    with pytest.raises(TypeError, match="i0.*complex"):
        snp.i0(XC)
    with pytest.raises(TypeError, match="bitwise_count"):
        snp.bitwise_count(X)
    with pytest.raises(TypeError, match="trapezoid requires array-like"):
        snp.trapezoid("abc")
    with pytest.raises(TypeError, match="isposinf.*complex"):
        snp.isposinf(XC)


# --- set operations -------------------------------------------------------------------

SET_A = RNG.integers(0, 8, 12)
SET_B = RNG.integers(3, 12, (2, 5))
SET_F = np.array([1.0, np.nan, 2.0, np.nan, 3.0])
SET_G = np.array([np.nan, 2.0, 5.0])


@pytest.mark.parametrize("a,b", [(SET_A, SET_B), (SET_F, SET_G), (SET_A, SET_F),
                                 (np.array([], np.int64), SET_A)])
@pytest.mark.slow  # long: runs in CI's second step
def test_setops_vs_numpy(a, b):
    for name in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        np.testing.assert_array_equal(getattr(snp, name)(a, b), getattr(np, name)(a, b))
    for invert in (False, True):
        np.testing.assert_array_equal(snp.isin(a, b, invert=invert),
                                      np.isin(a, b, invert=invert))
    for g, w in zip(snp.intersect1d(a, b, return_indices=True),
                    np.intersect1d(a, b, return_indices=True)):
        np.testing.assert_array_equal(g, w)


def test_setops_jit_size():
    a, b = SET_A, SET_B
    f = sciax.jit(lambda x, y: (snp.union1d(x, y, size=14, fill_value=-1),
                                snp.intersect1d(x, y, size=6),
                                snp.setdiff1d(x, y, size=6, fill_value=99),
                                snp.setxor1d(x, y, size=12),
                                snp.isin(x, y),
                                snp.intersect1d(x, y, return_indices=True, size=5)))
    union, inter, diff, xor, isin, (iv, i1, i2) = f(a, b)

    def padded(v, n, fill):
        return np.concatenate([v, np.full(n - len(v), fill)])[:n]

    np.testing.assert_array_equal(union, padded(np.union1d(a, b), 14, -1))
    want = np.intersect1d(a, b)
    np.testing.assert_array_equal(inter, padded(want, 6, want[0]))
    np.testing.assert_array_equal(diff, padded(np.setdiff1d(a, b), 6, 99))
    want = np.setxor1d(a, b)
    np.testing.assert_array_equal(xor, padded(want, 12, want[0]))
    np.testing.assert_array_equal(isin, np.isin(a, b))
    wv, w1, w2 = np.intersect1d(a, b, return_indices=True)
    k = len(wv)
    np.testing.assert_array_equal(iv[:k], wv)
    np.testing.assert_array_equal(i1[:k], w1)
    np.testing.assert_array_equal(i2[:k], w2)
    with pytest.raises(TypeError, match="intersect1d.*size="):
        sciax.jit(snp.intersect1d)(a, b)
    with pytest.raises(TypeError, match="union1d.*size="):
        sciax.jit(snp.union1d)(a, b)


def test_setops_misc():
    c = np.array([1 + 1j, 2, 3j])
    np.testing.assert_array_equal(snp.isin(c, [2, 3j]), np.isin(c, [2, 3j]))
    np.testing.assert_array_equal(snp.isin(X > 0, [True]), np.isin(X > 0, [True]))
    np.testing.assert_array_equal(
        snp.setdiff1d(np.array([5, 1, 3]), np.array([1]), assume_unique=True),
        np.setdiff1d(np.array([5, 1, 3]), np.array([1]), assume_unique=True))
    with pytest.raises(TypeError, match="isin requires array-like"):
        snp.isin(X, "ab")
    with pytest.raises(ValueError, match="kind"):
        snp.isin(X, X, kind="hash")


# --- polynomials ----------------------------------------------------------------------

P = np.array([2.0, -3.0, -1.0, 1.5])
Q = np.array([1.0, 4.0])


@pytest.mark.parametrize("name,args", [
    ("poly", (np.array([1.0, 2.0, 3.0]),)),
    ("poly", (np.array([1j, -1j, 2.0]),)),
    ("poly", (RNG.normal(size=(3, 3)),)),
    ("polyval", (P, X)),
    ("polyval", (np.array([1, 2, 3]), XI)),
    ("polyder", (P,)), ("polyder", (P, 2)), ("polyder", (P, 5)),
    ("polyint", (P,)), ("polyint", (P, 2, [1.0, 2.0])), ("polyint", (P, 2, 3.0)),
    ("polyadd", (P, Q)), ("polysub", (Q, P)), ("polymul", (P, Q)),
    ("polymul", (np.array([1, 2]), np.array([3, 4, 5]))),
])
def test_poly_vs_numpy(name, args):
    want = getattr(np, name)(*args)
    close(getattr(snp, name)(*args), want, rtol=1e-10, atol=1e-10)
    fn = getattr(snp, name)
    if name in ("polyder", "polyint"):  # m and k are static: trace p only
        got = sciax.jit(lambda p: fn(p, *args[1:]))(args[0])
    elif name != "poly":  # poly's real/complex result is decided eagerly
        got = sciax.jit(fn)(*args)
    else:
        return
    close(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("u,v", [(P, Q), (Q, P), (np.array([1.0, 2, 3, 4, 5]),
                                                   np.array([1.0, 0, 1])),
                                 (np.array([1.0, 3, 2]), np.array([1.0, 1]))])
def test_polydiv(u, v):
    wq, wr = np.polydiv(u, v)
    q, r = snp.polydiv(u, v)
    close(q, wq, atol=1e-12)
    close(r, wr, atol=1e-12)
    jq, jr = sciax.jit(snp.polydiv)(u, v)
    close(jq, wq, atol=1e-12)
    # under jit the remainder keeps its fixed length len(v) - 1
    n = max(len(v) - 1, 1) if len(u) >= len(v) else len(u)
    close(jr, np.concatenate([np.zeros(n - len(wr)), wr])[-n:], atol=1e-12)


@pytest.mark.slow  # long: runs in CI's second step
def test_polyfit():
    xs = np.linspace(0, 2, 7)
    ys = np.stack([xs ** 2 - xs, np.cos(xs)], 1)
    close(snp.polyfit(xs, ys[:, 0], 2), np.polyfit(xs, ys[:, 0], 2), atol=1e-12)
    close(snp.polyfit(xs, ys, 3), np.polyfit(xs, ys, 3), rtol=1e-9, atol=1e-10)
    w = xs + 1
    close(snp.polyfit(xs, ys[:, 1], 2, w=w), np.polyfit(xs, ys[:, 1], 2, w=w),
          rtol=1e-10)
    for g, want in zip(snp.polyfit(xs, ys[:, 1], 2, full=True),
                       np.polyfit(xs, ys[:, 1], 2, full=True)):
        close(g, want, rtol=1e-9, atol=1e-12, dtype=False)
    for cov in (True, "unscaled"):
        for y in (ys[:, 1], ys):
            for g, want in zip(snp.polyfit(xs, y, 2, cov=cov),
                               np.polyfit(xs, y, 2, cov=cov)):
                close(g, want, rtol=1e-8, atol=1e-12)
    close(sciax.jit(lambda a, b: snp.polyfit(a, b, 2))(xs, ys[:, 1]),
          np.polyfit(xs, ys[:, 1], 2), rtol=1e-10)


@pytest.mark.parametrize("p", [P, np.array([0.0, 0.0, 1.0, -3.0, 2.0, 0.0, 0.0]),
                               np.array([1.0, 0.0, 1.0]), np.array([5.0]),
                               np.array([0.0, 0.0])])
def test_roots(p):
    got = np.sort_complex(np.asarray(snp.roots(p)))
    want = np.sort_complex(np.roots(p).astype(complex))
    assert got.dtype == np.complex128
    close(got, want, rtol=1e-10, atol=1e-10)


def test_roots_jit_and_poly1d():
    got = np.sort_complex(np.asarray(sciax.jit(snp.roots)(P)))
    close(got, np.sort_complex(np.roots(P).astype(complex)), rtol=1e-10)
    p, n = snp.poly1d([1.0, 2.0, 3.0]), np.poly1d([1.0, 2.0, 3.0])
    for g, w in [(p * p, n * n), (p + 1, n + 1), (2 - p, 2 - n), (p ** 3, n ** 3),
                 (p(p), n(n)), (p.deriv(), n.deriv()), (p.integ(2, 1.0), n.integ(2, 1.0)),
                 (snp.poly1d([0.0, 0.0, 1.0, 2.0]), np.poly1d([0.0, 0.0, 1.0, 2.0])),
                 (snp.poly1d([1, 2], r=True), np.poly1d([1, 2], r=True))]:
        close(g.coeffs, w.coeffs, dtype=False)
    close(p(X), n(X))
    assert p.order == 2 and len(p) == 2 and float(p[0]) == 3.0
    q, r = p / snp.poly1d([1.0, 1.0])
    wq, wr = n / np.poly1d([1.0, 1.0])
    close(q.coeffs, wq.coeffs)
    close(r.coeffs, wr.coeffs)


def test_poly_grads():
    check_grads(snp.polyval, (P, np.array([0.3, -1.1, 2.0])), order=2)
    check_grads(lambda p: snp.polyint(snp.polyder(p), k=1.0), (P,), order=1)
    xs = np.linspace(0, 2, 7)
    check_grads(lambda y: snp.polyfit(xs, y, 2), (np.cos(xs),), order=1,
                modes=("rev",))


def test_poly_bad_input():
    with pytest.raises(ValueError, match="polyder.*positive"):
        snp.polyder(P, -1)
    with pytest.raises(ValueError, match="polyint.*k must be"):
        snp.polyint(P, 2, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="1-d"):
        snp.polyval(X, 1.0)
    with pytest.raises(TypeError, match="polyfit.*1-d vector for x"):
        snp.polyfit(X, X, 1)
    with pytest.raises(TypeError, match="polyfit.*same length"):
        snp.polyfit(np.ones(3), np.ones(4), 1)
    with pytest.raises(ValueError, match="polyfit.*deg >= 0"):
        snp.polyfit(np.ones(3), np.ones(3), -1)
    with pytest.raises(ValueError, match="poly.*square"):
        snp.poly(np.ones((2, 3)))


# --- einsum and products --------------------------------------------------------------

A = RNG.normal(size=(2, 3))
B = RNG.normal(size=(3, 4))
C = RNG.normal(size=(4, 2))
S = RNG.normal(size=(3, 3))
T = RNG.normal(size=(5, 2, 3))
Z = RNG.normal(size=(3, 3)) + 1j * RNG.normal(size=(3, 3))

EINSUM_CASES = [
    ("ij,jk->ik", A, B), ("ij,jk,kl->il", A, B, C), ("ij,jk,ki", A, B, C), ("ii", S),
    ("ii->i", S), ("ij->ji", A), ("ji", A), ("i,i", V3, V3), ("i,j->ij", V3, V3),
    ("...ij,jk->...ik", T, B), ("ij,ij->", A, A), ("i->", V3),
    ("iij->j", RNG.normal(size=(3, 3, 2))), ("i,i->i", np.ones(1), V3),
    ("...,...", T, 2.0), ("", 3.0), ("ab,bc,cd,de->ae", A, B, C, A), ("ij,jk", Z, Z),
    ("i...->...", T), ("abc,cd,a->bd", T, RNG.normal(size=(3, 6)), RNG.normal(size=5)),
    ("ij,kl->", A, C), ("bij,bjk->bik", T, RNG.normal(size=(5, 3, 2))),
]


@pytest.mark.parametrize("case", EINSUM_CASES, ids=[c[0] or "scalar" for c in
                                                    EINSUM_CASES])
def test_einsum(case):
    spec, ops = case[0], case[1:]
    want = np.einsum(spec, *ops)
    close(snp.einsum(spec, *ops), want, dtype=False)
    close(snp.einsum(spec, *ops, optimize=False), want, dtype=False)
    path, report = snp.einsum_path(spec, *ops)
    assert path[0] == "einsum_path" and len(path) == max(len(ops), 1)
    assert "Complete contraction" in report
    close(snp.einsum(spec, *ops, optimize=path), want, dtype=False)
    close(sciax.jit(lambda *o: snp.einsum(spec, *o))(*ops), want, dtype=False)


def test_einsum_forms():
    close(snp.einsum(A, [0, 1], B, [1, 2], [0, 2]), A @ B)
    close(snp.einsum(T, [Ellipsis, 1], [Ellipsis]), np.einsum(T, [Ellipsis, 1],
                                                               [Ellipsis]))
    got = snp.einsum("ij,jk", A > 0, B > 0)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, np.einsum("ij,jk", A > 0, B > 0))
    assert snp.einsum_path("ij,jk,kl->il", A, B, C)[0] == \
        np.einsum_path("ij,jk,kl->il", A, B, C, optimize="greedy")[0]
    for path in (["einsum_path", (0, 1, 2)], ["einsum_path", (0, 2), (0, 1)]):
        close(snp.einsum("ij,jk,kl->il", A, B, C, optimize=path), A @ B @ C)
    close(snp.einsum("ij,jk->ik", A.astype(np.float32), B.astype(np.float32)),
          (A @ B).astype(np.float32), rtol=1e-5)
    out = sciax.vmap(lambda a: snp.einsum("ij,j->i", a, V3))(T)
    close(out, np.einsum("bij,j->bi", T, V3))


def test_einsum_grads():
    check_grads(lambda a, b, c: snp.einsum("ij,jk,kl->il", a, b, c), (A, B, C), order=2)
    check_grads(lambda t: snp.einsum("...ii->...i", t), (RNG.normal(size=(2, 3, 3)),),
                order=1)
    check_grads(lambda a, b: snp.tensordot(a, b, 1), (A, B), order=1)


@pytest.mark.parametrize("bad,match", [
    (("ij,jk", A, A), "size of label 'j'"),
    (("ij", A, B), "name 1 operand"),
    (("ijk", A), "name 3 dimension"),
    (("ij->k", A), "does not appear"),
    (("i-j", A), "invalid subscripts"),
    (("i1", A), "only letters"),
    (("ij->ii", A), "repeats a label"),
    (("...i->i", T), "no '...' ellipsis"),
])
def test_einsum_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        snp.einsum(*bad)


@pytest.mark.slow  # long: runs in CI's second step
def test_products_vs_numpy():
    for x, y, axes in [(RNG.normal(size=(2, 3, 4)), RNG.normal(size=(3, 4, 5)), 2),
                       (RNG.normal(size=(2, 3, 4)), RNG.normal(size=(4, 5)), 1),
                       (A, V3, 0), (A, A.T, ([1, 0], [0, 1])), (A, B, (1, 0))]:
        close(snp.tensordot(x, y, axes), np.tensordot(x, y, axes))
    for x, y in [(A, B), (V3, A), (XI[:2, :2], np.arange(6).reshape(3, 1, 2)), (2, V3)]:
        close(snp.kron(x, y), np.kron(x, y), dtype=False)
    close(snp.vecdot(Z, Z[0]), np.vecdot(Z, Z[0]))
    close(snp.vecdot(T, T, axis=1), np.vecdot(T, T, axis=1))
    close(snp.matvec(T, V3), np.matvec(T, V3))
    close(snp.matvec(Z, Z), np.matvec(Z, Z))
    close(snp.vecmat(V3, B), np.vecmat(V3, B))
    close(snp.vecmat(Z, Z), np.vecmat(Z, Z))
    close(sciax.jit(snp.kron)(A, B), np.kron(A, B))
    with pytest.raises(ValueError, match="tensordot: shape-mismatch"):
        snp.tensordot(A, A, 1)
    with pytest.raises(ValueError, match="vecdot.*differ"):
        snp.vecdot(np.ones(3), np.ones(1))
    with pytest.raises(ValueError, match="matvec.*at least 2"):
        snp.matvec(V3, V3)


# --- dtype utilities ------------------------------------------------------------------

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "float32", "float64", "complex64", "complex128"]


def test_dtype_names_and_promotion():
    for name in ("byte", "short", "intc", "intp", "long", "longlong", "ubyte",
                 "ushort", "uintc", "uintp", "ulong", "ulonglong", "bool"):
        assert np.dtype(getattr(snp, name)) == np.dtype(getattr(np, name)), name
    assert snp.intc(3).dtype == np.int32 and snp.bool(1).dtype == np.bool_
    for a in DTYPES:
        for b in DTYPES:
            assert snp.promote_types(a, b) == np.promote_types(a, b), (a, b)
    assert snp.promote_types(snp.bfloat16, snp.float32) == np.float32
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric", ("bool", "integral"), np.float32]
    for d in DTYPES:
        for k in kinds:
            assert snp.isdtype(getattr(snp, d + ("_" if d == "bool" else "")), k) == \
                np.isdtype(np.dtype(d), k), (d, k)
    assert snp.isdtype(snp.bfloat16, "real floating")
    with pytest.raises(ValueError, match="isdtype: kind"):
        snp.isdtype(snp.float32, "floating")
    with pytest.raises(TypeError, match="isdtype: dtype"):
        snp.isdtype("float32", "numeric")


def test_dtype_helpers():
    for arrays in [(XI,), (XI, np.ones(2, np.float32)), (np.ones(2, np.float16),),
                   (np.ones(2, np.complex64), np.ones(1, np.float32)),
                   (np.ones(2, np.complex64), X)]:
        assert np.dtype(snp.common_type(*arrays)) == np.dtype(np.common_type(*arrays))
    for chars in ("fD", "df", "dF", "S", "ifd", [np.ones(2, np.float32)]):
        assert snp.mintypecode(chars) == np.mintypecode(chars)
    for v in (10, 300, -1, 1.5, 1e100, 3j):
        assert snp.min_scalar_type(v) == np.min_scalar_type(v)
    assert snp.iterable([1]) and snp.iterable(snp.ones(2))
    assert not snp.iterable(3) and not snp.iterable(snp.array(1.0))
    assert issubclass(np.str_, snp.character) and issubclass(np.bytes_, snp.flexible)


# --- index, bit and vectorize helpers --------------------------------------------------

def test_index_helpers():
    for g, w in zip(snp.ix_([0, 2], [True, False, True, False]),
                    np.ix_([0, 2], [True, False, True, False])):
        np.testing.assert_array_equal(g, w)
    mi = (np.array([0, 3, 2]), np.array([3, 0, 1]))
    for order in "CF":
        np.testing.assert_array_equal(
            snp.ravel_multi_index(mi, (4, 4), order=order),
            np.ravel_multi_index(mi, (4, 4), order=order))
        for g, w in zip(snp.unravel_index(np.array([0, 7, 15]), (4, 4), order=order),
                        np.unravel_index(np.array([0, 7, 15]), (4, 4), order=order)):
            np.testing.assert_array_equal(g, w)
    bad = (np.array([5, -1]), np.array([7, 2]))
    np.testing.assert_array_equal(
        snp.ravel_multi_index(bad, (4, 4), mode=("clip", "wrap")),
        np.ravel_multi_index(bad, (4, 4), mode=("clip", "wrap")))
    f = sciax.jit(lambda i: snp.unravel_index(i, (4, 4)))
    np.testing.assert_array_equal(f(np.array([5, 9]))[1], [1, 1])
    with pytest.raises(ValueError, match="ravel_multi_index: invalid entry"):
        snp.ravel_multi_index(bad, (4, 4))
    with pytest.raises(ValueError, match="unravel_index: index 16 is out of bounds"):
        snp.unravel_index(16, (4, 4))


def test_functional_writers():
    a = XI
    for shape, wrap in (((3, 3), False), ((5, 3), True), ((5, 3), False),
                        ((3, 3, 3), False)):
        want = np.zeros(shape)
        np.fill_diagonal(want, [1, 2], wrap=wrap)
        np.testing.assert_array_equal(
            snp.fill_diagonal(np.zeros(shape), np.array([1, 2]), wrap=wrap,
                              inplace=False), want)
    want = a.copy()
    np.put(want, [0, -1, 3], [9, 8])
    np.testing.assert_array_equal(
        snp.put(a, np.array([0, -1, 3]), np.array([9, 8]), inplace=False), want)
    want = a.copy()
    np.put(want, [0, 22], [9, 8], mode="wrap")
    np.testing.assert_array_equal(
        snp.put(a, np.array([0, 22]), np.array([9, 8]), mode="wrap", inplace=False), want)
    want = a.copy()
    np.place(want, a % 3 == 0, [-1, -2, -3])
    fn = lambda x: snp.place(x, x % 3 == 0, np.array([-1, -2, -3]), inplace=False)  # noqa
    for got in (fn(a), sciax.jit(fn)(a)):
        np.testing.assert_array_equal(got, want)
    want = a.copy()
    np.putmask(want, a > 1, [-1, -2, -3])
    np.testing.assert_array_equal(
        snp.putmask(a, a > 1, np.array([-1, -2, -3]), inplace=False), want)
    for name in ("fill_diagonal", "put", "place", "putmask"):
        with pytest.raises(ValueError, match=f"{name}.*inplace=False"):
            getattr(snp, name)(a, a > 0, 1) if name != "put" else snp.put(a, [0], 1)
    with pytest.raises(IndexError, match="put: index 30 is out of bounds"):
        snp.put(a, np.array([30]), np.array([1]), inplace=False)


@pytest.mark.slow  # long: runs in CI's second step
def test_bits():
    b = RNG.integers(0, 2, (3, 11))
    for axis in (None, 0, 1):
        for order in ("big", "little"):
            want = np.packbits(b, axis=axis, bitorder=order)
            np.testing.assert_array_equal(snp.packbits(b, axis=axis, bitorder=order),
                                          want)
            for count in (None, 3, -2, 30):
                np.testing.assert_array_equal(
                    snp.unpackbits(want, axis=axis, count=count, bitorder=order),
                    np.unpackbits(want, axis=axis, count=count, bitorder=order))
    with pytest.raises(TypeError, match="unpackbits.*uint8"):
        snp.unpackbits(b)
    with pytest.raises(TypeError, match="packbits.*integer or boolean"):
        snp.packbits(X)


def test_vectorize():
    f = snp.vectorize(lambda x, y: x * y + 1.0)
    close(f(np.arange(3.0)[:, None], np.ones(4)), np.arange(3.0)[:, None] * np.ones(4) + 1)
    g = snp.vectorize(lambda u, v: snp.dot(u, v), signature="(n),(n)->()")
    close(g(np.ones((2, 4, 3)), np.ones(3)), np.full((2, 4), 3.0))
    h = snp.vectorize(lambda x, n: x ** n, excluded={1})
    close(sciax.jit(lambda x: h(x, 3))(np.arange(3.0)), np.arange(3.0) ** 3)
    o = snp.vectorize(lambda m: (snp.sum(m), snp.max(m)), signature="(n,m)->(),()")
    s, m = o(np.ones((2, 3, 4)))
    close(s, np.full(2, 12.0))
    close(m, np.ones(2))
    with pytest.raises(ValueError, match="signature"):
        snp.vectorize(lambda x: x, signature="(n)->(")
    with pytest.raises(TypeError, match="vectorize: the signature"):
        g(np.ones(3))


def test_printing_and_host_construction():
    assert snp.array_str(np.array([1.0, 2.5])) == np.array_str(np.array([1.0, 2.5]))
    assert snp.array_repr(snp.array([1, 2])) == "Array([1, 2], dtype=int64)"
    assert snp.array2string(snp.arange(3), separator=", ") == "[0, 1, 2]"
    with snp.printoptions(precision=2):
        assert "0.33" in repr(snp.array([1 / 3]))
        assert snp.get_printoptions()["precision"] == 2
    close(snp.frombuffer(np.arange(3, dtype=np.float32).tobytes(), dtype=snp.float32),
          np.arange(3, dtype=np.float32))
    close(snp.fromiter((k * k for k in range(4)), dtype=snp.int32),
          np.array([0, 1, 4, 9], np.int32))
    close(snp.fromstring("1,2", dtype=snp.int32, sep=","), np.array([1, 2], np.int32))


def test_coverage_target():
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    from tools.api_coverage import coverage

    present, _ = coverage()
    assert len(present) >= 381
