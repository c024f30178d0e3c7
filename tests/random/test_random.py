"""sciax.random: keys, bits (vs JAX's threefry known answers), every sampler
against scipy.stats, reproducibility eagerly / under jit / under vmap, shapes,
dtypes, gradients and bad input.

Statistical tests use one fixed key and N = 3000 samples, so they are
deterministic; the threshold p > 1e-3 rejects a wrong distribution (a KS test
at N = 3000 detects a CDF error of about 0.04) without flakiness.  Each
sampler is jitted once at one shape to keep the compile count down.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sp
import scipy.stats as st

import sciax
import sciax.numpy as snp
import sciax.random as sr

N = 3000
P_MIN = 1e-3
KEY = sr.key(0)


# --- keys and bits ---------------------------------------------------------------

def test_threefry_known_answer():
    # Random123's known-answer vectors for threefry2x32 with 20 rounds
    from sciax.random._prng import threefry_2x32
    u = np.uint32
    out = threefry_2x32(u(0), u(0), u(0), u(0))
    assert [int(w) for w in out] == [0x6B200159, 0x99BA4EFE]
    f = u(0xFFFFFFFF)
    assert [int(w) for w in threefry_2x32(f, f, f, f)] == [0x1CB996FC, 0xBB002BE7]
    out = threefry_2x32(u(0x13198A2E), u(0x03707344), u(0x243F6A88), u(0x85A308D3))
    assert [int(w) for w in out] == [0xC4923A9C, 0x483DF7A0]


def test_keys_match_jax_values():
    # recorded from jax 0.10.2 (jax.random.PRNGKey / split / fold_in / bits, x64)
    assert np.asarray(sr.key(42)).tolist() == [0, 42]
    assert np.asarray(sr.PRNGKey(2 ** 40 + 7)).tolist() == [256, 7]
    k = sr.key(1234)
    assert np.asarray(sr.split(k, 2)).tolist() == [[1264997412, 2518116175],
                                                   [2877103387, 1697627890]]
    assert sr.split(k, (2, 3)).shape == (2, 3, 2)
    assert sr.split(k).dtype == np.uint32
    assert (np.asarray(sr.key_data(k)) == np.asarray(k)).all()


def test_split_and_fold_in_give_distinct_uncorrelated_streams():
    keys = np.asarray(sr.split(KEY, 64))
    assert len({tuple(k) for k in keys.tolist()}) == 64
    folds = np.asarray(sciax.vmap(lambda i: sr.fold_in(KEY, i))(snp.arange(64)))
    assert len({tuple(k) for k in folds.tolist()}) == 64
    a = np.asarray(sr.uniform(sr.fold_in(KEY, 1), (N,)))
    b = np.asarray(sr.uniform(sr.fold_in(KEY, 2), (N,)))
    assert abs(np.corrcoef(a, b)[0, 1]) < 4 / np.sqrt(N)
    c = np.asarray(sr.uniform(sr.split(KEY)[0], (N,)))
    assert abs(np.corrcoef(a, c)[0, 1]) < 4 / np.sqrt(N)


def test_bits_dtypes_and_uniformity():
    for dt in (np.uint8, np.uint16, np.uint32, np.uint64):
        b = sr.bits(KEY, (7,), dt)
        assert b.dtype == dt and b.shape == (7,)
    b = np.asarray(sr.bits(KEY, (N,)))
    ones = np.unpackbits(b.view(np.uint8)).mean()
    assert abs(ones - 0.5) < 0.01


# --- distributions vs scipy.stats -------------------------------------------------

def _ks(x, cdf):
    x = np.asarray(x, np.float64)
    assert np.isfinite(x).all()
    p = st.kstest(x, cdf).pvalue
    assert p > P_MIN, p


def _chi2(x, pmf, support):
    x = np.asarray(x)
    counts = np.array([(x == s).sum() for s in support], float)
    expected = pmf * len(x)
    keep = expected > 5
    obs = np.append(counts[keep], len(x) - counts[keep].sum())
    exp = np.append(expected[keep], len(x) - expected[keep].sum())
    if exp[-1] < 1e-6:
        obs, exp = obs[:-1], exp[:-1]
    p = st.chisquare(obs, exp).pvalue
    assert p > P_MIN, p


CONTINUOUS = {
    "uniform": (lambda k: sr.uniform(k, (N,), minval=-1.0, maxval=2.0),
                st.uniform(-1, 3).cdf),
    "normal": (lambda k: sr.normal(k, (N,)), st.norm.cdf),
    "normal32": (lambda k: sr.normal(k, (N,), np.float32), st.norm.cdf),
    "truncated_normal": (lambda k: sr.truncated_normal(k, -1.0, 2.0, (N,)),
                         st.truncnorm(-1, 2).cdf),
    "exponential": (lambda k: sr.exponential(k, (N,)), st.expon.cdf),
    "laplace": (lambda k: sr.laplace(k, (N,)), st.laplace.cdf),
    "cauchy": (lambda k: sr.cauchy(k, (N,)), st.cauchy.cdf),
    "logistic": (lambda k: sr.logistic(k, (N,)), st.logistic.cdf),
    "gumbel": (lambda k: sr.gumbel(k, (N,)), st.gumbel_r.cdf),
    "lognormal": (lambda k: sr.lognormal(k, 0.5, (N,)), st.lognorm(0.5).cdf),
    "gamma_small": (lambda k: sr.gamma(k, 0.3, (N,)), st.gamma(0.3).cdf),
    "gamma": (lambda k: sr.gamma(k, 4.5, (N,)), st.gamma(4.5).cdf),
    "beta": (lambda k: sr.beta(k, 0.5, 3.0, (N,)), st.beta(0.5, 3).cdf),
    "dirichlet_marginal": (lambda k: sr.dirichlet(k, snp.asarray([0.5, 1.0, 2.0]),
                                                  (N,))[:, 0], st.beta(0.5, 3).cdf),
    "t": (lambda k: sr.t(k, 4.0, (N,)), st.t(4).cdf),
    "chisquare": (lambda k: sr.chisquare(k, 3.0, (N,)), st.chi2(3).cdf),
    "f": (lambda k: sr.f(k, 3.0, 7.0, (N,)), st.f(3, 7).cdf),
    "pareto": (lambda k: sr.pareto(k, 3.0, (N,)), st.pareto(3).cdf),
    "rayleigh": (lambda k: sr.rayleigh(k, 2.0, (N,)), st.rayleigh(scale=2).cdf),
    "weibull_min": (lambda k: sr.weibull_min(k, 1.5, 2.0, (N,)),
                    st.weibull_min(2.0, scale=1.5).cdf),
    "mvn_projection": (lambda k: sr.multivariate_normal(
        k, snp.asarray([1.0, 2.0]), snp.asarray([[2.0, 0.6], [0.6, 1.0]]), (N,)
    ) @ snp.asarray([1.0, -1.0]), st.norm(-1, np.sqrt(2 + 1 - 1.2)).cdf),
    "mvn_eigh_projection": (lambda k: sr.multivariate_normal(
        k, snp.zeros(2), snp.asarray([[2.0, 0.6], [0.6, 1.0]]), (N,), method="eigh"
    ) @ snp.asarray([1.0, -1.0]), st.norm(0, np.sqrt(2 + 1 - 1.2)).cdf),
}


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_continuous_ks(name):
    sample, cdf = CONTINUOUS[name]
    _ks(sciax.jit(sample)(KEY), cdf)


_PR = np.array([0.1, 0.0, 0.6, 0.3])
DISCRETE = {
    "poisson_knuth": (lambda k: sr.poisson(k, 2.5, (N,)), st.poisson(2.5).pmf,
                      np.arange(30)),
    "poisson_ptrs": (lambda k: sr.poisson(k, 60.0, (N,)), st.poisson(60).pmf,
                     np.arange(200)),
    "binomial_inversion": (lambda k: sr.binomial(k, 20.0, 0.7, (N,)),
                           st.binom(20, 0.7).pmf, np.arange(21)),
    "binomial_btrs": (lambda k: sr.binomial(k, 300.0, 0.4, (N,)),
                      st.binom(300, 0.4).pmf, np.arange(301)),
    "randint": (lambda k: sr.randint(k, (N,), -2, 5), lambda s: np.full(len(s), 1 / 7),
                np.arange(-2, 5)),
    "bernoulli": (lambda k: sr.bernoulli(k, 0.3, (N,)).astype(np.int32),
                  st.bernoulli(0.3).pmf, np.arange(2)),
    "geometric": (lambda k: sr.geometric(k, 0.3, (N,)), st.geom(0.3).pmf,
                  np.arange(1, 40)),
    "categorical": (lambda k: sr.categorical(k, snp.log(snp.asarray(_PR)), shape=(N,)),
                    lambda s: _PR, np.arange(4)),
    "choice_p": (lambda k: sr.choice(k, 4, (N,), p=snp.asarray(_PR)), lambda s: _PR,
                 np.arange(4)),
    "choice_array": (lambda k: sr.choice(k, snp.asarray([10, 20, 30]), (N,)),
                     lambda s: np.full(3, 1 / 3), np.array([10, 20, 30])),
}


@pytest.mark.parametrize("name", sorted(DISCRETE))
def test_discrete_chi2(name):
    sample, pmf, support = DISCRETE[name]
    _chi2(sciax.jit(sample)(KEY), pmf(support), support)


def test_permutations_are_uniform_over_orderings():
    # all 6 orderings of 3 items about equally often, over vmapped keys
    keys = sr.split(KEY, 1200)
    perms = np.asarray(sciax.jit(sciax.vmap(lambda k: sr.permutation(k, 3)))(keys))
    codes = perms @ np.array([9, 3, 1])
    support = np.unique(codes)
    assert len(support) == 6
    _chi2(codes, np.full(6, 1 / 6), support)


@pytest.mark.slow  # long: runs in CI's second step
def test_permutation_shuffle_and_choice_without_replacement():
    x = snp.arange(12).reshape(4, 3)
    p = np.asarray(sr.permutation(KEY, x))
    assert sorted(map(tuple, p.tolist())) == sorted(map(tuple, np.asarray(x).tolist()))
    q = np.asarray(sr.permutation(KEY, x, axis=1, independent=True))
    assert (np.sort(q, axis=1) == np.asarray(x)).all()
    s = np.asarray(sr.shuffle(KEY, snp.arange(10)))
    assert sorted(s.tolist()) == list(range(10))
    c = np.asarray(sr.choice(KEY, 10, (6,), replace=False))
    assert len(set(c.tolist())) == 6
    w = np.asarray(sr.choice(KEY, snp.arange(8.0) * 2, (2, 2), replace=False,
                             p=snp.ones(8) / 8))
    assert w.shape == (2, 2) and len(set(w.ravel().tolist())) == 4
    # zero-probability items are never drawn without replacement either
    z = np.asarray(sr.choice(KEY, 4, (2,), replace=False, p=snp.asarray(_PR)))
    assert 1 not in z.tolist()
    c = np.asarray(sr.categorical(KEY, snp.zeros((2, 5)), shape=(3, 2), replace=False))
    assert all(len(set(c[:, j])) == 3 for j in range(2))


@pytest.mark.slow  # long: runs in CI's second step
def test_orthogonal():
    q = np.asarray(sr.orthogonal(KEY, 4, (2,)))
    assert q.shape == (2, 4, 4)
    np.testing.assert_allclose(q @ np.swapaxes(q, -1, -2), np.broadcast_to(np.eye(4),
                               (2, 4, 4)), atol=1e-12)
    r = np.asarray(sr.orthogonal(KEY, 2, m=5))
    np.testing.assert_allclose(r @ r.T, np.eye(2), atol=1e-12)
    # Haar: the (0, 0) entry of a 3x3 is distributed as sign * sqrt(Beta(1/2, 1))
    qs = np.asarray(sciax.jit(sciax.vmap(lambda k: sr.orthogonal(k, 3)))(
        sr.split(KEY, 1500)))
    _ks(qs[:, 0, 0] ** 2, st.beta(0.5, 1.0).cdf)


# --- reproducibility: eager, jit, vmap -----------------------------------------------

# one sampler per mechanism: bits -> floats, integer arithmetic, sorting, Gumbel
# argmax, a fori_loop factorisation, and the while_loop rejection samplers
REPRO = {
    "uniform": lambda k: sr.uniform(k, (5,)),
    "normal": lambda k: sr.normal(k, (5,)),
    "randint": lambda k: sr.randint(k, (4,), 0, 100),
    "permutation": lambda k: sr.permutation(k, 6),
    "categorical": lambda k: sr.categorical(k, snp.zeros((2, 3))),
    "multivariate_normal": lambda k: sr.multivariate_normal(k, snp.zeros(2), snp.eye(2)),
    "gamma": lambda k: sr.gamma(k, snp.asarray([0.5, 3.0])),
    "poisson": lambda k: sr.poisson(k, snp.asarray([1.0, 40.0])),
}


@pytest.mark.parametrize("name", sorted(REPRO))
@pytest.mark.slow  # long: runs in CI's second step
def test_same_key_same_numbers_eager_jit_vmap(name):
    fn = REPRO[name]
    keys = sr.split(KEY, 3)
    eager = [np.asarray(fn(k)) for k in keys]
    jitted = [np.asarray(sciax.jit(fn)(k)) for k in keys]
    batched = np.asarray(sciax.vmap(fn)(keys))
    for i in range(3):
        np.testing.assert_array_equal(eager[i], jitted[i])
        # vmapped programs may fuse transcendental ops differently: a few ulps
        np.testing.assert_allclose(batched[i], eager[i], rtol=1e-13, atol=0)
    assert not np.array_equal(eager[0], eager[1])


def test_jit_over_the_seed():
    f = sciax.jit(lambda s: sr.normal(sr.key(s), (3,)))
    np.testing.assert_array_equal(np.asarray(f(7)), np.asarray(sr.normal(sr.key(7), (3,))))


# --- shapes and dtypes -----------------------------------------------------------------

def _out_shape(fn):
    # traced, not compiled: shape rules without the compile cost
    (aval,) = sciax.make_jaxpr(fn)(KEY).out_avals
    return aval.shape, aval.dtype


def test_dtypes_follow_x64():
    assert _out_shape(lambda k: sr.normal(k, (2,)))[1] == np.float64
    assert _out_shape(lambda k: sr.uniform(k, (2,), np.float32))[1] == np.float32
    assert _out_shape(lambda k: sr.normal(k, (2,), np.complex64))[1] == np.complex64
    assert _out_shape(lambda k: sr.poisson(k, 2.0, (2,)))[1] == np.int64
    with sciax.config.override(enable_x64=False):
        assert _out_shape(lambda k: sr.normal(k, (2,)))[1] == np.float32
        assert _out_shape(lambda k: sr.randint(k, (2,), 0, 3))[1] == np.int32
        assert _out_shape(lambda k: sr.gamma(k, 2.0, (2,)))[1] == np.float32
        assert sr.uniform(KEY, (3,)).dtype == np.float32


@pytest.mark.slow  # long: runs in CI's second step
def test_shapes_broadcast_parameters():
    assert _out_shape(lambda k: sr.gamma(k, snp.ones((2, 1)), (3, 2, 4)))[0] == (3, 2, 4)
    assert _out_shape(lambda k: sr.gamma(k, snp.ones((2, 3))))[0] == (2, 3)
    assert _out_shape(lambda k: sr.uniform(k, (2,), minval=snp.zeros(2)))[0] == (2,)
    assert _out_shape(lambda k: sr.dirichlet(k, snp.ones(4), (5,)))[0] == (5, 4)
    mvn = _out_shape(lambda k: sr.multivariate_normal(k, snp.zeros((3, 2)), snp.eye(2)))
    assert mvn[0] == (3, 2)
    assert _out_shape(lambda k: sr.binomial(k, snp.ones(3), 0.5))[0] == (3,)
    assert _out_shape(lambda k: sr.randint(k, (5,), 0, 256, np.uint8)) == ((5,), np.uint8)
    assert sr.normal(KEY, ()).shape == ()
    assert sr.uniform(KEY, (0, 3)).shape == (0, 3)
    r = np.asarray(sr.randint(KEY, (2000,), 0, 256, np.uint8))
    assert r.min() == 0 and r.max() == 255


# --- gradients ---------------------------------------------------------------------

@pytest.mark.slow  # long: runs in CI's second step
def test_reparameterised_gradients_of_location_scale_transforms():
    def f(mu, sigma):
        return snp.sum(mu + sigma * sr.normal(KEY, (4,)))
    z = np.asarray(sr.normal(KEY, (4,)))
    g = sciax.grad(f, argnums=(0, 1))(1.0, 2.0)
    np.testing.assert_allclose([float(g[0]), float(g[1])], [4.0, z.sum()], rtol=1e-12)
    u = np.asarray(sr.uniform(KEY, (3,)))
    gl = sciax.grad(lambda lo: snp.sum(sr.uniform(KEY, (3,), minval=lo, maxval=5.0)))(1.0)
    np.testing.assert_allclose(float(gl), np.sum(1 - u), rtol=1e-12)
    gs = sciax.grad(lambda s: snp.sum(sr.lognormal(KEY, s, (4,))))(0.5)
    np.testing.assert_allclose(float(gs), np.sum(z * np.exp(0.5 * z)), rtol=1e-12)


def _gamma_dx_da_reference(a, x):
    # implicit function theorem on the CDF, with dP/da by central differences
    h = 1e-5 * a
    dp = (sp.gammainc(a + h, x) - sp.gammainc(a - h, x)) / (2 * h)
    return -dp / st.gamma(a).pdf(x)


@pytest.mark.slow  # long: runs in CI's second step
def test_gamma_implicit_gradient_vs_cdf_finite_differences():
    # series (x < a + 1), continued fraction (x > a + 1) and, above a = 800,
    # the differentiated Wilson-Hilferty form (relative error ~1e-6)
    a = np.repeat(np.array([0.05, 0.4, 1.0, 3.0, 30.0, 300.0, 2000.0]), 20)

    def f(a):
        return sciax.jvp(lambda a: sr.gamma(KEY, a), (a,), (snp.ones_like(a),))
    x, dx = (np.asarray(v) for v in sciax.jit(f)(a))
    ref = _gamma_dx_da_reference(a, x)
    exact = a < 800
    np.testing.assert_allclose(dx[exact], ref[exact], rtol=1e-7)
    np.testing.assert_allclose(dx[~exact], ref[~exact], rtol=2e-5)


@pytest.mark.slow  # long: runs in CI's second step
def test_gradients_through_gamma_based_samplers():
    g = sciax.grad(lambda a: sr.gamma(KEY, a))(2.0)
    x = float(sr.gamma(KEY, 2.0))
    np.testing.assert_allclose(float(g), _gamma_dx_da_reference(2.0, x), rtol=1e-6)
    # beta = X / (X + Y): d/da is Y / (X + Y)**2 * dX/da with X's implicit gradient
    # (finite differences of the sampler itself would differentiate the
    # Marsaglia-Tsang path, a different per-sample estimator)
    gb = sciax.grad(lambda a: sr.beta(KEY, a, 3.0))(2.0)
    ka, kb = sr.split(KEY)
    xa, xb = float(sr.gamma(ka, 2.0)), float(sr.gamma(kb, 3.0))
    want = xb / (xa + xb) ** 2 * _gamma_dx_da_reference(2.0, xa)
    np.testing.assert_allclose(float(gb), want, rtol=1e-6)
    gd = sciax.grad(lambda a: sr.dirichlet(KEY, snp.stack([a, 1.0, 2.0]))[0])(1.5)
    assert np.isfinite(float(gd)) and float(gd) > 0


# --- bad input ----------------------------------------------------------------------

def test_bad_input_errors():
    with pytest.raises(TypeError, match="single PRNG key"):
        sr.normal(np.zeros(2, np.int32), (2,))
    with pytest.raises(TypeError, match="single PRNG key"):
        sr.uniform(sr.split(KEY, 3), (2,))
    with pytest.raises(TypeError, match="floating"):
        sr.normal(KEY, (2,), np.int32)
    with pytest.raises(TypeError, match="integer dtype"):
        sr.randint(KEY, (2,), 0, 3, np.float32)
    with pytest.raises(ValueError, match="broadcast"):
        sr.gamma(KEY, snp.ones(3), (4,))
    with pytest.raises(ValueError, match="without replacement"):
        sr.choice(KEY, 3, (4,), replace=False)
    with pytest.raises(ValueError, match="p must have shape"):
        sr.choice(KEY, 3, (2,), p=snp.ones(4) / 4)
    with pytest.raises(TypeError, match="seed must be an integer"):
        sr.key(1.5)
    with pytest.raises(TypeError, match="bit_width"):
        sr.random_bits(KEY, 12, (2,))
    with pytest.raises(ValueError, match="out of bounds"):
        sr.permutation(KEY, snp.ones(3), axis=2)
    with pytest.raises(ValueError, match="mean must be"):
        sr.multivariate_normal(KEY, snp.zeros(2), snp.eye(3))
    with pytest.raises(TypeError, match="shape must be"):
        sr.normal(KEY, (2.5,))
