"""sciax.special convenience functions against SciPy, with gradients at the
edges (no NaN from the unused side of a where)."""

from __future__ import annotations

import mpmath
import numpy as np
import scipy.special as sc

import sciax
import sciax.numpy as snp
from sciax import special as ss
from tests.special._helpers import assert_close

RNG = np.random.default_rng(3)
X = np.concatenate([np.linspace(-50, 50, 201), np.logspace(-300, 300, 40),
                    -np.logspace(-300, 300, 40), [0.0, np.inf, -np.inf, np.nan]])
P = np.concatenate([np.linspace(0, 1, 101), np.logspace(-300, -1, 40),
                    1 - np.logspace(-16, -1, 20), [np.nan]])
U = RNG.uniform(-3, 3, 200)
V = np.concatenate([RNG.uniform(-3, 3, 150), np.zeros(25), RNG.uniform(0, 1e-8, 25)])
W = np.abs(RNG.normal(0, 2, 200))
W[::17] = 0.0

ONE = ["expit", "log_expit", "sinc", "cosm1", "exp2", "exp10", "cbrt", "round",
       "expm1", "log1p", "exprel", "entr", "sindg", "cosdg"]
TWO = ["xlogy", "xlog1py", "rel_entr", "kl_div", "huber", "pseudo_huber", "boxcox",
       "boxcox1p", "inv_boxcox", "inv_boxcox1p", "powm1", "agm"]


def _two_args(name):
    if name in ("xlogy", "rel_entr", "kl_div"):
        return np.concatenate([W, [0, 0, 1]]), np.concatenate([W[::-1], [0, np.nan, 0]])
    if name in ("huber", "pseudo_huber"):
        return np.concatenate([W, [-1.0]]), np.concatenate([U, [1.0]])
    if name in ("boxcox", "powm1", "agm"):
        return np.concatenate([W, [-2.0, -2.0, 0]]), np.concatenate([V, [3.0, 0.5, -1]])
    return W * 0.3, V


def test_one_argument_vs_scipy():
    outs = sciax.jit(lambda x, p: [getattr(ss, n)(x) for n in ONE] + [ss.logit(p)])(
        snp.asarray(X), snp.asarray(P))
    for n, o in zip(ONE + ["logit"], outs):
        arg = P if n == "logit" else X
        with np.errstate(all="ignore"):
            ref = getattr(sc, n)(arg)
        # sinc: ours is exactly 0 at the integers, NumPy's is not (1e-16)
        atol = 2e-16 if n == "sinc" else 1e-300
        # cosm1: SciPy forms cos(x) - 1 for |x| > pi/4, which cancels near
        # multiples of 2 pi; ours is -2 sin(x/2)^2
        rtol = {"exp10": 1e-15, "cosm1": 1e-12}.get(n, 6e-16)
        assert_close(o, ref, rtol, atol, arg, name=n)


def test_two_argument_vs_scipy():
    args = {n: _two_args(n) for n in TWO}
    outs = sciax.jit(lambda d: {n: getattr(ss, n)(*d[n]) for n in TWO})(
        {n: tuple(snp.asarray(a) for a in v) for n, v in args.items()})
    for n in TWO:
        with np.errstate(all="ignore"):
            ref = getattr(sc, n)(*args[n])
        if n == "kl_div":
            # SciPy's x log(x/y) - x + y cancels for x ~ y (1.2e-12 here vs
            # mpmath; ours is -x log1pmx((y - x)/x) there): mpmath is the
            # reference at positive points, SciPy at the edges
            x, y = args[n]
            pos = (x > 0) & (y > 0)
            ref = np.where(pos, _kl_div_mp(np.where(pos, x, 1), np.where(pos, y, 1))[0],
                           ref)
        # rel_entr: SciPy's log(x / y) amplifies the rounding of x / y when
        # x ~ y (ours uses log1p((x - y) / y) there)
        rtol = {"rel_entr": 1e-13}.get(n, 2e-15)
        assert_close(outs[n], ref, rtol, 1e-300, *args[n], name=n)


def _kl_div_mp(x, y):
    """``x log(x/y) - x + y`` and its partials ``log(x/y)``, ``1 - x/y`` at
    40 digits, for positive float arguments."""
    def one(a, b):
        with mpmath.workdps(40):
            a, b = mpmath.mpf(float(a)), mpmath.mpf(float(b))
            return (float(a * mpmath.log(a / b) - a + b), float(mpmath.log(a / b)),
                    float(1 - a / b))
    return np.array([one(a, b) for a, b in zip(x, y)]).T


def test_kl_div_vs_mpmath():
    # y/x = 1 +- 1e-8..1e-1 (where x log(x/y) - x + y cancels: SciPy's is
    # off by 2e-8 relative at 1 - 1e-4 and has no correct digit at 1 +- 1e-8),
    # the ends of the log1pmx range
    # (y/x = 0.4, 2.5) and of log_ratio's (0.5, 1.5), far ratios, and random
    # pairs, at magnitudes 1e-200..1e200
    k = np.linspace(-8, -1, 15)
    r = np.concatenate([1 + 10 ** k, 1 - 10 ** k, [1.0, 0.39, 0.4, 0.41, 0.5, 1.5,
                                                   2.49, 2.5, 2.51, 1e-3, 7.0, 1e3]])
    x0 = np.concatenate([[1e-200, 1e-100, 1e-3, 1.0, 1e100, 1e200],
                         RNG.uniform(0.1, 10, 4)])
    x, y = (a.ravel() for a in np.meshgrid(x0, r, indexing="ij"))
    y = x * y
    x, y = np.concatenate([x, W[W > 0]]), np.concatenate([y, W[::-1][W > 0] + 0.5])
    val, dx, dy = _kl_div_mp(x, y)
    f = sciax.jit(sciax.vmap(sciax.value_and_grad(ss.kl_div, argnums=(0, 1))))
    v, (gx, gy) = f(snp.asarray(x), snp.asarray(y))
    # value: t = (y - x)/x carries <= 2 roundings, amplified <= 2.8-fold in
    # log1pmx(t) for -0.6 < t < 1.5, plus ~4 in the series and 1 in the
    # product; outside that range the terms cancel <= 4-fold over ~3
    # roundings: <= 12 units of 2^-53 = 1.3e-15 (measured 6.7e-16)
    assert_close(v, val, 1.5e-15, 0.0, x, y, name="kl_div")
    # d/dx = log(x/y) by log1p((x - y)/y) (<= 3 roundings) or log(x / y) with
    # |log| > log 1.5 (one rounding amplified <= 2.5-fold); d/dy = (y - x)/y,
    # two roundings and no cancellation, so a relative tolerance holds even
    # where 1 - x/y itself would cancel (measured 2.8e-16, 2.1e-16)
    assert_close(gx, dx, 1e-15, 0.0, x, y, name="d kl_div / dx")
    assert_close(gy, dy, 1e-15, 0.0, x, y, name="d kl_div / dy")


def test_reductions_vs_scipy():
    a = RNG.normal(0, 30, (3, 4, 5))
    b = RNG.uniform(-1, 1, (3, 4, 5))
    for axis in (None, 1, (0, 2)):
        assert_close(ss.logsumexp(snp.asarray(a), axis=axis),
                     sc.logsumexp(a, axis=axis), 1e-14, name="logsumexp")
        assert_close(ss.softmax(snp.asarray(a), axis=axis), sc.softmax(a, axis=axis),
                     1e-13, 1e-300, name="softmax")
        assert_close(ss.log_softmax(snp.asarray(a), axis=axis),
                     sc.log_softmax(a, axis=axis), 1e-13, 1e-12, name="log_softmax")
    v, s = ss.logsumexp(snp.asarray(a), axis=2, b=snp.asarray(b), keepdims=True,
                        return_sign=True)
    rv, rs = sc.logsumexp(a, axis=2, b=b, keepdims=True, return_sign=True)
    assert_close(v, rv, 1e-13, name="logsumexp b")
    np.testing.assert_array_equal(np.asarray(s), rs)


def test_gradients_at_edges():
    g = sciax.grad(lambda x, y: ss.xlogy(x, y), argnums=(0, 1))
    gx, gy = g(0.0, 0.0)
    assert float(gx) == -np.inf or np.isfinite(float(gy))
    gx, gy = sciax.grad(lambda x, y: ss.xlogy(x, y), argnums=(0, 1))(0.0, 2.0)
    assert abs(float(gx) - np.log(2.0)) < 1e-15 and float(gy) == 0.0
    d = sciax.vmap(sciax.grad(ss.entr))(snp.asarray([0.5, 2.0]))
    assert_close(d, -np.log([0.5, 2.0]) - 1, 1e-15, name="d entr")
    d = sciax.vmap(sciax.grad(ss.boxcox, argnums=1))(snp.asarray([2.0, 3.0]),
                                                     snp.asarray([0.5, 1e-3]))
    x, lam = np.array([2.0, 3.0]), np.array([0.5, 1e-3])
    ref = (lam * x ** lam * np.log(x) - (x ** lam - 1)) / lam ** 2
    assert_close(d, ref, 1e-9, name="d boxcox / d lmbda")
