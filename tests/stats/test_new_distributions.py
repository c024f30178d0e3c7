"""SciPy 1.15's random-variable interface (sciax/stats/_new_distributions.py)
against scipy.stats' own objects of the same names.

Tolerances: closed-form quantities (the named families, shift/scale, exp/log,
truncation, order statistics) 1e-12 relative, as the classic methods they use;
quantities computed by quadrature or a numeric quantile solver (moments and
entropies of derived variables, quantiles of mixtures and folded variables)
1e-10, SciPy's own being numeric as well.  Where SciPy's number is the less
accurate one (a mixture's entropy across the uniform's jumps) the reference
is an independent adaptive quadrature split at the jumps.
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.integrate as si
import scipy.stats as ss

import sciax
import sciax.numpy as snp
from sciax import stats


def close(a, b, rtol=1e-12, atol=0.0):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


X_POINTS = np.array([-3.0, -0.5, 0.2, 1.0, 2.5, 7.0])
# (not below 1e-6: a truncated variable's quantile just above a bound whose
# inner CDF is F loses eps F / p relative, SciPy's as well; at p = 1e-9
# mpmath gives 3.02675195e-9 for the 'truncate(N)' case, sciax 3.02675207e-9,
# SciPy 3.02675163e-9)
P_POINTS = np.array([1e-6, 0.01, 0.3, 0.5, 0.8, 0.999])


def _case(name):
    """(sciax object, SciPy object) for a case name (built in the test, not at
    collection: building some of them compiles programs)."""
    N, Ns = stats.Normal(mu=1.0, sigma=2.0), ss.Normal(mu=1.0, sigma=2.0)
    U, Us = stats.Uniform(a=-1.0, b=3.0), ss.Uniform(a=-1.0, b=3.0)
    build = {
        "normal": lambda: (N, Ns),
        "standard normal": lambda: (stats.Normal(), ss.Normal()),
        "uniform": lambda: (U, Us),
        "logistic": lambda: (stats.Logistic(), ss.Logistic()),
        "2N+1": lambda: (2.0 * N + 1.0, 2.0 * Ns + 1.0),
        "3-N/2": lambda: (3.0 - N / 2.0, 3.0 - Ns / 2.0),
        "abs(N)": lambda: (abs(N), abs(Ns)),
        "exp(N/4)": lambda: (stats.exp(N / 4.0), ss.exp(Ns / 4.0)),
        "log(U+2)": lambda: (stats.log(U + 2.0), ss.log(Us + 2.0)),
        "truncate(N)": lambda: (stats.truncate(N, 0.0, 3.0), ss.truncate(Ns, 0.0, 3.0)),
        "truncate upper tail": lambda: (stats.truncate(N, 9.0), ss.truncate(Ns, 9.0)),
        "order statistic": lambda: (stats.order_statistic(N, r=2, n=5),
                                    ss.order_statistic(Ns, r=2, n=5)),
        "gamma": lambda: (stats.make_distribution(stats.gamma)(a=2.5),
                          ss.make_distribution(ss.gamma)(a=2.5)),
        "mixture": lambda: (
            stats.Mixture([N, stats.Normal(mu=-2.0, sigma=0.5)], weights=[0.4, 0.6]),
            ss.Mixture([Ns, ss.Normal(mu=-2.0, sigma=0.5)], weights=[0.4, 0.6])),
    }
    return build[name]()


_NAMES = ("normal", "standard normal", "uniform", "logistic", "2N+1", "3-N/2",
          "abs(N)", "exp(N/4)", "log(U+2)", "truncate(N)", "truncate upper tail",
          "order statistic", "gamma", "mixture")
# the default run checks two cases; the rest (each compiles its own
# programs: 2-15 s apiece on this VM) run in the slow step
_FAST = ("normal", "2N+1")
PAIRS = [pytest.param(n, marks=() if n in _FAST else pytest.mark.slow) for n in _NAMES]


@pytest.mark.parametrize("name", PAIRS)
def test_tails_and_density(name):
    X, Xs = _case(name)
    x = X_POINTS
    close(X.pdf(x), Xs.pdf(x), atol=1e-300)
    close(X.cdf(x), Xs.cdf(x), rtol=1e-11, atol=1e-300)
    close(X.ccdf(x), Xs.ccdf(x), rtol=1e-11, atol=1e-300)
    inside = np.asarray(Xs.pdf(x)) > 0
    close(np.asarray(X.logpdf(x))[inside], Xs.logpdf(x)[inside], rtol=1e-11, atol=1e-14)
    # the probability of an interval, from whichever tail holds its digits
    # (SciPy returns NaN for some intervals below the support, where it is 0)
    ours, ref = np.asarray(X.cdf(x[:-1], x[1:])), Xs.cdf(x[:-1], x[1:])
    fin = np.isfinite(ref)
    close(ours[fin], ref[fin], rtol=1e-9, atol=1e-15)
    assert np.all(ours[~fin & (x[1:] <= float(Xs.support()[0]))] == 0.0)
    close(X.ccdf(0.2, 2.5), Xs.ccdf(0.2, 2.5), rtol=1e-10)
    lo, hi = X.support()
    slo, shi = Xs.support()
    close(lo, slo)
    close(hi, shi)


@pytest.mark.parametrize("name", PAIRS)
def test_quantiles(name):
    X, Xs = _case(name)
    p = P_POINTS
    q = np.asarray(X.icdf(p))
    # against SciPy, and as the inverse of our own CDF (SciPy's numeric
    # inversions stop at ~1e-10)
    close(q, Xs.icdf(p), rtol=1e-9, atol=1e-12)
    # (the CDF of a variable truncated in its inner upper tail is a
    # difference relative to the kept mass: eps / p relative near the bound)
    close(X.cdf(q), p, rtol=1e-8)
    qc = np.asarray(X.iccdf(p))
    close(X.ccdf(qc), p, rtol=1e-8)
    close(X.ilogcdf(np.log(p)), q, rtol=1e-10, atol=1e-14)
    close(X.median(), Xs.median(), rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("name", PAIRS)
def test_moments(name):
    X, Xs = _case(name)
    close(X.mean(), Xs.mean(), rtol=1e-10, atol=1e-13)
    close(X.variance(), Xs.variance(), rtol=1e-10)
    close(X.standard_deviation(), Xs.standard_deviation(), rtol=1e-10)
    close(X.skewness(), Xs.skewness(), rtol=1e-8, atol=1e-10)
    close(X.kurtosis(), Xs.kurtosis(), rtol=1e-9)
    # (SciPy's Mixture.kurtosis takes no convention)
    close(X.kurtosis(convention="excess"), Xs.kurtosis() - 3.0, rtol=1e-8, atol=1e-10)
    for order in (0, 1, 2, 3):
        for kind in ("raw", "central", "standardized"):
            close(X.moment(order, kind), Xs.moment(order, kind), rtol=1e-9,
                  atol=1e-10)
    close(X.entropy(), Xs.entropy(), rtol=1e-10)


def test_mode_against_closed_forms():
    N = stats.Normal(mu=1.0, sigma=2.0)
    assert float(N.mode()) == 1.0
    assert float(stats.Uniform(a=0.0, b=2.0).mode()) == 1.0
    close((2.0 * N + 1.0).mode(), 3.0)
    B = stats.Binomial(n=snp.array([10.0, 20.0, 9.0]), p=snp.array([0.3, 0.3, 0.5]))
    # floor((n + 1) p): at a tie (n = 9, p = 1/2: 4 and 5) the larger, as SciPy
    close(B.mode(), [3.0, 6.0, 5.0])


@pytest.mark.slow
def test_numeric_mode_against_closed_forms():
    N = stats.Normal(mu=1.0, sigma=2.0)
    close(stats.exp(N).mode(), np.exp(1.0 - 4.0))          # lognormal: e^(mu - s^2)
    close(stats.make_distribution(stats.gamma)(a=2.5).mode(), 1.5)  # a - 1
    assert float(abs(N).mode()) == 0.0  # |N(1, 4)|'s density is highest at 0
    P = stats.make_distribution(stats.poisson)(mu=3.5)
    assert float(P.mode()) == 3.0


def test_binomial_against_scipy():
    B, Bs = stats.Binomial(n=10, p=0.3), ss.Binomial(n=10, p=0.3)
    k = np.array([-1.0, 0.0, 3.0, 3.5, 10.0, 11.0])
    close(B.pmf(k), Bs.pmf(k), atol=1e-300)
    close(B.mean(), Bs.mean())
    close(B.variance(), Bs.variance())
    assert repr(B) == "Binomial(n=10.0, p=0.3)"


@pytest.mark.slow
def test_binomial_tails_against_scipy():
    # (at integers: SciPy 1.17's Binomial.cdf(3.5) is 0.762, between cdf(3)
    # and cdf(4); the classic binom.cdf(3.5) and sciax give cdf(3))
    B, Bs = stats.Binomial(n=10, p=0.3), ss.Binomial(n=10, p=0.3)
    k = np.array([-1.0, 0.0, 3.0, 10.0, 11.0])
    close(B.cdf(k), Bs.cdf(k), rtol=1e-12)
    close(B.ccdf(k), Bs.ccdf(k), rtol=1e-12, atol=1e-300)
    close(B.cdf(3.5), ss.binom.cdf(3, 10, 0.3), rtol=1e-12)
    p = np.array([0.0, 0.1, 0.5, 0.97, 1.0])
    close(B.icdf(p), Bs.icdf(p))
    close(B.iccdf(p), Bs.iccdf(p))
    close(B.entropy(), Bs.entropy(), rtol=1e-12)


@pytest.mark.slow
def test_mixture_entropy_across_jumps():
    # the density jumps at the uniform's ends: SciPy's quadrature gives
    # 1.04124, an adaptive quadrature split at the jumps 1.0411753
    N = stats.Normal(mu=1.0, sigma=2.0)
    M = stats.Mixture([N, stats.Uniform(a=0.0, b=1.0)], weights=[0.3, 0.7])
    n = ss.norm(1.0, 2.0)

    def integrand(x):
        p = 0.3 * n.pdf(x) + 0.7 * ((x >= 0) & (x <= 1))
        return -p * np.log(p)

    ref = sum(si.quad(integrand, a, b, epsabs=1e-14, epsrel=1e-13, limit=200)[0]
              for a, b in [(-40.0, 0.0), (0.0, 1.0), (1.0, 40.0)])
    close(M.entropy(), ref, rtol=1e-10)
    close(M.cdf(0.5), 0.3 * n.cdf(0.5) + 0.35, rtol=1e-13)


def test_repr_and_attributes():
    N = stats.Normal(mu=1.0, sigma=2.0)
    assert repr(N) == "Normal(mu=1.0, sigma=2.0)"
    assert repr(stats.Normal()) == "StandardNormal()"
    assert repr(2.0 * N + 1.0) == "2.0*Normal(mu=1.0, sigma=2.0) + 1.0"
    assert repr(N - 2.0) == "1.0*Normal(mu=1.0, sigma=2.0) - 2.0"
    assert float(N.mu) == 1.0 and float(N.sigma) == 2.0
    U = stats.Uniform(a=0.0, b=2.0)
    assert float(U.a) == 0.0 and float(U.b) == 2.0
    G = stats.make_distribution(stats.gamma)
    assert repr(G(a=2.0)) == "Gamma(a=2.0)"
    assert float(G(a=2.0).a) == 2.0
    T = stats.truncate(N, 0.0, 3.0)
    assert float(T.lb) == 0.0 and float(T.ub) == 3.0
    # a SciPy distribution is taken by its name
    assert repr(stats.make_distribution(ss.beta)(a=2.0, b=3.0)) == "Beta(a=2.0, b=3.0)"


def test_invalid_parameters_give_nan():
    for X in (stats.Normal(sigma=-1.0), stats.Uniform(a=2.0, b=1.0)):
        assert np.isnan(float(X.mean()))
        assert np.isnan(float(X.cdf(0.5)))


@pytest.mark.slow
def test_invalid_parameters_of_derived_variables_give_nan():
    for X in (stats.truncate(stats.Normal(), 1.0, 0.0),
              stats.order_statistic(stats.Normal(), r=6, n=5),
              stats.Mixture([stats.Normal(sigma=-1.0)])):
        assert np.isnan(float(X.mean()))
        assert np.isnan(float(X.cdf(0.5)))


def test_errors():
    with pytest.raises(ValueError, match="a and b"):
        stats.Uniform(a=1.0)
    with pytest.raises(TypeError):
        stats.Normal(1.0, 2.0)
    with pytest.raises(TypeError):
        stats.Normal(mu=1.0, foo=2.0)
    with pytest.raises(ValueError, match="takes the parameters"):
        stats.make_distribution(stats.gamma)(b=2.0)
    with pytest.raises(TypeError, match="make_distribution"):
        stats.make_distribution(object())
    with pytest.raises(ValueError, match="sum to 1"):
        stats.Mixture([stats.Normal()], weights=[2.0])
    with pytest.raises(ValueError, match="continuous"):
        stats.Mixture([stats.Normal(), stats.Binomial(n=3, p=0.5)])
    with pytest.raises(NotImplementedError, match="non-negative"):
        stats.log(stats.Normal())
    with pytest.raises(TypeError, match="arithmetic"):
        stats.Binomial(n=3, p=0.5) * 2.0
    with pytest.raises(NotImplementedError):
        1.0 / stats.Normal()
    with pytest.raises(ValueError, match="kind"):
        stats.Normal().moment(2, "bogus")
    with pytest.raises(ValueError, match="order"):
        stats.Normal().moment(-1)
    with pytest.raises(ValueError, match="convention"):
        stats.Normal().kurtosis(convention="fisher")
    with pytest.raises(ValueError, match="validation_policy"):
        stats.Normal(validation_policy="bogus")
    with pytest.raises(NotImplementedError, match="pmf"):
        stats.Normal().pmf(0.0)


def test_sample_shapes():
    # shape: sample shape, then the parameters' shape
    Y = stats.Normal(mu=snp.array([0.0, 10.0]))
    y = np.asarray(Y.sample((3, 5), rng=0))
    assert y.shape == (3, 5, 2)
    assert np.all(np.abs(y[..., 1] - 10.0) < 6.0) and np.all(np.abs(y[..., 0]) < 6.0)
    with pytest.raises(ValueError, match="random_state"):
        Y.sample(3)


def test_pytree_jit_and_grad():
    N = stats.Normal(mu=1.0, sigma=2.0)
    out = sciax.jit(lambda X, x: X.cdf(x))(N, snp.array([0.0, 1.0]))
    close(out, ss.Normal(mu=1.0, sigma=2.0).cdf([0.0, 1.0]))
    # d/dsigma P(X <= 0) = -phi(z) z / sigma with z = (0 - 1) / 2
    g = sciax.grad(lambda s: stats.Normal(mu=1.0, sigma=s).cdf(0.0))(2.0)
    close(g, ss.norm.pdf(-0.5) * 0.5 / 2.0)


@pytest.mark.slow
def test_sampling_and_ks():
    X = stats.truncate(stats.Normal(mu=1.0, sigma=2.0), 0.0, 3.0)
    x = np.asarray(X.sample(4000, rng=sciax.random.key(3)))
    assert x.shape == (4000,)
    assert x.min() >= 0.0 and x.max() <= 3.0
    assert ss.kstest(x, lambda t: np.asarray(X.cdf(t))).pvalue > 1e-3
    M = stats.Mixture([stats.Normal(mu=-2.0), stats.Normal(mu=2.0)], weights=[0.3, 0.7])
    y = np.asarray(M.sample(4000, rng=7))
    assert ss.kstest(y, lambda t: np.asarray(M.cdf(t))).pvalue > 1e-3


@pytest.mark.slow
def test_transforms_jit_vmap_grad():
    # the objects are pytrees: they pass through jit and vmap, and what they
    # compute is differentiable in the parameters
    f = lambda mu: stats.truncate(stats.Normal(mu=mu), 0.0, 3.0).mean()  # noqa: E731
    ref = ss.truncate(ss.Normal(mu=1.0), 0.0, 3.0).mean()
    close(sciax.jit(f)(1.0), ref, rtol=1e-12)
    h = 1e-5
    fd = (f(1.0 + h) - f(1.0 - h)) / (2 * h)
    close(sciax.grad(f)(1.0), fd, rtol=1e-7)
    N = stats.Normal(mu=1.0, sigma=2.0)
    out = sciax.jit(lambda X, x: X.cdf(x))(N, snp.array([0.0, 1.0]))
    close(out, ss.Normal(mu=1.0, sigma=2.0).cdf([0.0, 1.0]))
    mus = snp.array([0.0, 0.5, 2.0])
    batched = sciax.vmap(lambda m: stats.exp(stats.Normal(mu=m)).icdf(0.3))(mus)
    close(batched, [float(stats.exp(stats.Normal(mu=float(m))).icdf(0.3)) for m in mus])
    # the standard errors of a fit: d/dsigma of a mixture's cdf by autodiff
    g = sciax.grad(lambda s: stats.Mixture(
        [stats.Normal(sigma=s), stats.Normal(mu=1.0)], weights=[0.5, 0.5]).cdf(0.7))(1.5)
    fd = (float(stats.Mixture([stats.Normal(sigma=1.5 + h), stats.Normal(mu=1.0)],
                              weights=[0.5, 0.5]).cdf(0.7))
          - float(stats.Mixture([stats.Normal(sigma=1.5 - h), stats.Normal(mu=1.0)],
                                weights=[0.5, 0.5]).cdf(0.7))) / (2 * h)
    close(g, fd, rtol=1e-7)


def test_structures_share_kernels():
    # objects of one structure with different parameters run the same
    # compiled programs (the kernel is cached by structure)
    a = stats.truncate(stats.Normal(mu=0.0), 0.0, 1.0)
    b = stats.truncate(stats.Normal(mu=3.0, sigma=2.0), -1.0, 5.0)
    assert a._kernel is b._kernel
    assert stats.exp(a)._kernel is stats.exp(b)._kernel


@pytest.mark.slow
@pytest.mark.parametrize("mu,sigma,lb,ub", [(0.0, 1.0, -1.0, 1.0), (5.0, 0.3, 4.0, 9.0),
                                           (0.0, 1.0, 6.0, 8.0), (-2.0, 3.0, -30.0, -1.0)])
def test_truncate_grid(mu, sigma, lb, ub):
    X = stats.truncate(stats.Normal(mu=mu, sigma=sigma), lb, ub)
    Xs = ss.truncate(ss.Normal(mu=mu, sigma=sigma), lb, ub)
    # (not at the bounds themselves, where SciPy 1.17's density is 0 at one
    # end or the other depending on the array it is given, and sciax's, like
    # truncnorm's, is the limit from inside: a null set either way)
    x = np.linspace(lb, ub, 9)[1:-1]
    close(X.cdf(x), Xs.cdf(x), rtol=1e-9, atol=1e-300)
    close(X.pdf(x), Xs.pdf(x), rtol=1e-9)
    # quantiles against mpmath (SciPy's are 2.6e-9 off in the (6, 8) case)
    mp.mp.dps = 40
    F = lambda t: mp.ncdf((t - mu) / sigma)  # noqa: E731
    S = lambda t: mp.ncdf((mu - t) / sigma)  # noqa: E731
    z = F(ub) - F(lb) if F(lb) < 0.5 else S(lb) - S(ub)
    ref = []
    for p in P_POINTS:
        if F(lb) < 0.5:
            g = lambda t, p=p: (F(t) - F(lb)) / z - p  # noqa: E731
        else:
            g = lambda t, p=p: (S(ub) + (1 - p) * z - S(t)) / z  # noqa: E731
        a, b = mp.mpf(lb), mp.mpf(ub)  # g increases: bisect to 2^-160 of the bracket
        for _ in range(160):
            m = (a + b) / 2
            a, b = (m, b) if g(m) < 0 else (a, m)
        ref.append(float((a + b) / 2))
    close(X.icdf(P_POINTS), ref, rtol=1e-11, atol=1e-15)
    close(X.mean(), Xs.mean(), rtol=1e-9, atol=1e-15)
    close(X.variance(), Xs.variance(), rtol=1e-8)
