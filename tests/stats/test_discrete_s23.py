"""betanbinom, nchypergeom_fisher, nchypergeom_wallenius and poisson_binom
(issue 21) against SciPy 1.17, and where SciPy is the inaccurate side against
exact references.

Tolerances: PMF, CDF and SF 1e-12 relative to SciPy where both sum the same
terms (SciPy's BiasedUrn keeps 1e-12 of accuracy and drops terms below it,
so its far tails are compared with the exact Wallenius recursion in
mpmath instead: sciax agrees with it to 1e-12 in log, SciPy is off by up to
0.3 there); quantiles exactly; moments 1e-10.  The default run checks
PMF/SF of each (one jitted bundle) and poisson_binom's whole interface;
the sweeps, quantiles, entropy, rvs and gradients are slow (the ppf
programs take 4-10 s each to compile).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss

import sciax
import sciax.numpy as snp
import sciax.stats as xs

CASES = {
    "betanbinom": [(5.0, 5.5, 2.3), (2.0, 9.0, 0.7)],
    "nchypergeom_fisher": [(20.0, 7.0, 12.0, 2.5), (31.0, 20.0, 9.0, 0.3)],
    "nchypergeom_wallenius": [(20.0, 7.0, 12.0, 2.5), (31.0, 20.0, 9.0, 0.3)],
}
Q = np.array([1e-6, 0.02, 0.3, 0.5, 0.77, 0.98, 1.0 - 1e-6])


def _close(got, want, rtol, atol=0.0, msg=""):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(want, float),
                               rtol=rtol, atol=atol, err_msg=msg)


def test_pmf_vs_scipy():
    k = np.arange(-1.0, 12.0)
    args = {n: CASES[n][0] for n in CASES}

    # the pmf of each, and Fisher's sf (a sum over the support; the other
    # distributions' sums are in the slow sweep)
    @sciax.jit
    def f(k):
        out = {n: getattr(xs, n).pmf(k, *a) for n, a in args.items()}
        out["sf"] = xs.nchypergeom_fisher.sf(k, *args["nchypergeom_fisher"])
        return out

    out = f(k)
    for n, a in args.items():
        _close(out[n], getattr(ss, n).pmf(k, *a), 1e-12, 1e-300, n + ".pmf")
    # SciPy's sf is 1 - cdf: 1e-15 absolute as well
    _close(out["sf"], ss.nchypergeom_fisher.sf(k, *args["nchypergeom_fisher"]), 1e-12,
           1e-15)


def test_poisson_binom():
    p = np.array([[0.1, 0.5, 0.7, 0.95], [0.2, 0.2, 0.6, 0.01]])
    k = np.array([[-1.0], [0.0], [1.5], [2.0], [4.0], [5.0]])
    d, ref = xs.poisson_binom, ss.poisson_binom

    @sciax.jit      # one program for the bundle
    def f(k, p, q):
        return dict(pmf=d.pmf(k, p), logpmf=d.logpmf(k, p), cdf=d.cdf(k, p),
                    sf=d.sf(k, p),
                    loc=d.pmf(1.0, p[:, :3], loc=snp.array([[0.0], [1.0]])),
                    ppf=d.ppf(q, p), mvsk=d.stats(p, moments="mvsk"),
                    entropy=d.entropy(p), bad=d.pmf(1.0, snp.array([0.2, 1.5])))

    out = f(k, p, Q[:, None])
    for m in ("pmf", "logpmf", "cdf", "sf"):
        _close(out[m], getattr(ref, m)(k, p), 1e-13, 1e-16, m)
    _close(out["loc"], ref.pmf(1, p[:, :3], loc=[[0], [1]]), 1e-13)
    _close(out["ppf"], ref.ppf(Q[:, None], p), 0)
    for got, want in zip(out["mvsk"], ref.stats(p, moments="mvsk")):
        _close(got, want, 1e-12)
    _close(out["entropy"], ref.entropy(p), 1e-12)
    assert np.isnan(out["bad"])
    with pytest.raises(ValueError, match="last axis"):
        d.pmf(1.0, 0.3)


def test_dirichlet_multinomial():
    d, ref = xs.dirichlet_multinomial, ss.dirichlet_multinomial
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [4.0, 5.0, 5.0]])
    alpha = np.array([[1.0, 2.0, 3.0], [4.0, 5.5, 0.6], [0.3, 2.0, 9.0]])
    n = np.array([6.0, 15.0, 15.0])
    _close(d.logpmf(x, alpha, n), ref.logpmf(x, alpha, n), 1e-13)   # -inf: sum(x) != n
    a2, n2 = alpha[None, :2], np.array([[6.0], [7.0]])
    _close(d.cov(a2, n2), ref.cov(a2, n2), 1e-13)
    with pytest.raises(ValueError, match="alpha"):
        d.pmf([1, 2], [0.0, 1.0], 3)


@pytest.mark.slow
def test_poisson_binom_more():
    p = np.array([[0.1, 0.5, 0.7, 0.95], [0.2, 0.2, 0.6, 0.01]])
    d, ref = xs.poisson_binom, ss.poisson_binom
    _close(d.isf(Q[:, None], p), ref.isf(Q[:, None], p), 0)
    _close(d.moment(3, p, loc=1.0), ref.moment(3, p, loc=1.0), 1e-12)
    _close(d(p).median(), ref(p).median(), 0)
    _close(d.interval(0.9, p), ref.interval(0.9, p), 0)
    assert d.rvs(p, size=(5, 2), random_state=1).shape == (5, 2)
    # the tails of many small probabilities, to relative rounding
    q = np.full(30, 0.01)
    _close(d.sf(25.0, q), ss.binom.sf(25, 30, 0.01), 1e-12)
    _close(d.cdf(0.0, q), ss.binom.cdf(0, 30, 0.01), 1e-13)


@pytest.mark.slow  # ~60 s: every method's program, incl. the ppf searches
@pytest.mark.parametrize("name", sorted(CASES))
def test_methods_vs_scipy(name):
    d, ref = getattr(xs, name), getattr(ss, name)
    p = np.array(CASES[name]).T[..., None]
    k = np.floor(ref.ppf(Q, *p))
    k = np.concatenate([k, k + 0.5], axis=1)
    kf = np.floor(k)
    # SciPy's sf is 1 - (a sum of up to ~40 pmf terms): 5e-15 absolute
    for m, rtol, atol in [("pmf", 1e-12, 1e-300), ("logpmf", 1e-12, 0),
                          ("cdf", 1e-12, 5e-15), ("sf", 1e-12, 5e-15)]:
        want = getattr(ref, m)(kf if m in ("cdf", "sf") else k, *p)
        _close(getattr(d, m)(k, *p), want, rtol, atol, f"{name}.{m}")
    _close(d.ppf(Q, *p), ref.ppf(Q, *p), 0, 0, name + ".ppf")
    _close(d.isf(Q, *p), ref.isf(Q, *p), 0, 0, name + ".isf")
    p0 = p[..., 0]
    # SciPy returns only mean and variance of the noncentral hypergeometrics and
    # integrates skewness and kurtosis from them: 1e-10
    for i, (got, want) in enumerate(zip(d.stats(*p0, moments="mvsk"),
                                        ref.stats(*p0, moments="mvsk"))):
        _close(got, want, 1e-10, 0, f"{name}.stats[{i}]")
    if name != "betanbinom":
        _close(d.entropy(*p0), ref.entropy(*p0), 1e-12, 0, name + ".entropy")
    _close(d.median(*p0), ref.median(*p0), 0)
    _close(d.moment(3, *p0), ref.moment(3, *p0), 1e-10, 0, name + ".moment")
    _close(d.support(*p0), ref.support(*p0), 0)


@pytest.mark.slow
def test_betanbinom_entropy_and_tail_vs_mpmath():
    # SciPy's entropy sums 1,000 terms of a power-law tail (3.7e-9 low at
    # a = 5.5) and its sf is 1 - cdf; references are mpmath sums.
    import mpmath as mp

    n, a, b = 5, 5.5, 2.3
    with mp.workdps(30):
        am, bm = mp.mpf(a), mp.mpf(b)

        def lp(k):
            return (mp.log(mp.binomial(n + k - 1, k)) + mp.log(mp.beta(am + n, bm + k))
                    - mp.log(mp.beta(am, bm)))

        h = mp.nsum(lambda k: -mp.exp(lp(k)) * lp(k), [0, mp.inf])
        # 1 - the head's sum at 30 digits (nsum's extrapolation of the
        # power-law tail itself was 4e-9 off at k = 400)
        tail = [1 - mp.fsum(mp.exp(lp(j)) for j in range(k + 1)) for k in (40, 400)]
    _close(xs.betanbinom.entropy(n, a, b), float(h), 1e-13)
    _close(xs.betanbinom.sf(np.array([40.0, 400.0]), n, a, b), [float(t) for t in tail],
           1e-12)


def _wallenius_exact(M, n, N, w):
    # the urn drawn one ball at a time, in mpmath: the PMF exactly
    import mpmath as mp

    with mp.workdps(50):
        w = mp.mpf(w)
        f = {0: mp.mpf(1)}
        for d in range(N):
            g = {}
            for r, pr in f.items():
                red, white = n - r, M - n - (d - r)
                tot = w * red + white
                if red > 0:
                    g[r + 1] = g.get(r + 1, 0) + pr * w * red / tot
                if white > 0:
                    g[r] = g.get(r, 0) + pr * white / tot
            f = g
        ks = sorted(f)
        return np.array(ks, float), np.array([float(mp.log(f[k])) for k in ks])


@pytest.mark.slow
@pytest.mark.parametrize("case", [(500, 100, 50, 100.0), (30, 10, 25, 1e-3),
                                  (30, 10, 25, 1e3), (60, 25, 40, 7.0),
                                  (200, 30, 150, 0.05)])
def test_wallenius_vs_exact_recursion(case):
    # The trapezoidal rule in the log variable against the exact recursion,
    # over the whole support (down to pmf 1e-72, where SciPy's BiasedUrn
    # returns 0 or is off by up to 0.32 in log); lgamma's rounding in the
    # binomial coefficients bounds the agreement (~1e-13 in log).
    k, want = _wallenius_exact(*case)
    got = sciax.jit(xs.nchypergeom_wallenius.logpmf)(k, *map(float, case))
    _close(got, want, 0, 1e-12)
    _close(np.sum(np.exp(want)), 1.0, 1e-14)


@pytest.mark.slow
def test_fisher_vs_exact_and_large():
    # Fisher's PMF as exact rationals (binomials and odds 5/2) for a large case,
    # and the odds = 1 cases against hypergeom.
    from fractions import Fraction
    from math import comb

    M, n, N, w = 300, 120, 140, Fraction(5, 2)
    terms = {x: comb(n, x) * comb(M - n, N - x) * w**x for x in range(0, 121)}
    z = sum(terms.values())
    k = np.array([0.0, 20.0, 60.0, 95.0, 120.0])
    want = [float(terms[int(x)] / z) for x in k]
    _close(xs.nchypergeom_fisher.pmf(k, M, n, N, 2.5), want, 1e-12)
    cdf = [float(sum(terms[j] for j in range(int(x) + 1)) / z) for x in k]
    _close(xs.nchypergeom_fisher.cdf(k, M, n, N, 2.5), cdf, 1e-12)
    k = np.arange(0.0, 8.0)
    for d in (xs.nchypergeom_fisher, xs.nchypergeom_wallenius):
        _close(d.pmf(k, 20, 7, 12, 1.0), ss.hypergeom.pmf(k, 20, 7, 12), 1e-12)


@pytest.mark.slow
def test_dirichlet_multinomial_more():
    d, ref = xs.dirichlet_multinomial, ss.dirichlet_multinomial
    alpha = np.array([[1.0, 2.0, 3.0], [4.0, 5.5, 0.6]])
    n = np.array([[6.0], [7.0]])
    for m in ("mean", "var"):
        _close(getattr(d, m)(alpha, n), getattr(ref, m)(alpha, n), 1e-13, 0, m)
    _close(d(alpha[0], 6.0).cov(), ref(alpha[0], 6).cov(), 1e-13)
    _close(d.pmf(alpha[0], alpha[0], 6.0), ref.pmf(alpha[0], alpha[0], 6), 1e-13)
    x = np.array([1.0, 2.0, 3.0])
    # differentiable in alpha
    g = sciax.grad(lambda a: d.logpmf(x, a, 6.0))(alpha[0])
    h = 1e-6
    fd = [(ref.logpmf(x, alpha[0] + h * e, 6) - ref.logpmf(x, alpha[0] - h * e, 6))
          / (2 * h) for e in np.eye(3)]
    _close(g, fd, 1e-7)
    with pytest.raises(ValueError, match="non-negative integers"):
        d.pmf([1.5, 2], [1.0, 1.0], 3.0)


@pytest.mark.slow
def test_rvs_and_gradients():
    key = sciax.random.key(23)
    for name, a in [("betanbinom", (5.0, 5.5, 2.3)),
                    ("nchypergeom_fisher", (20.0, 7.0, 12.0, 2.5)),
                    ("nchypergeom_wallenius", (20.0, 7.0, 12.0, 2.5))]:
        x = np.asarray(getattr(xs, name).rvs(*a, size=3000, random_state=key))
        ks = np.arange(0, 9)
        ref = getattr(ss, name)
        counts = np.array([(x <= 0).sum()] + [(x == k).sum() for k in ks[1:]]
                          + [(x > 8).sum()])
        probs = np.concatenate([[ref.cdf(0, *a)], ref.pmf(ks[1:], *a), [ref.sf(8, *a)]])
        keep = probs * x.size > 5
        expected = probs[keep] / probs[keep].sum() * counts[keep].sum()
        assert ss.chisquare(counts[keep], expected).pvalue > 1e-3
    p = snp.array([0.1, 0.5, 0.7])
    x = np.asarray(xs.poisson_binom.rvs(p, size=4000, random_state=key))
    counts = np.array([(x == k).sum() for k in range(4)])
    expected = ss.poisson_binom.pmf(np.arange(4), p) * x.size
    assert ss.chisquare(counts, expected).pvalue > 1e-3
    for name, a, i in [("nchypergeom_fisher", [20.0, 7.0, 12.0, 2.5], 3),
                       ("nchypergeom_wallenius", [20.0, 7.0, 12.0, 2.5], 3),
                       ("betanbinom", [5.0, 5.5, 2.3], 1)]:
        def f(v, name=name, a=a, i=i):
            b = list(a)
            b[i] = v
            return getattr(xs, name).logpmf(4.0, *b)

        h = 1e-5
        fd = (getattr(ss, name).logpmf(4, *a[:i], a[i] + h, *a[i + 1:])
              - getattr(ss, name).logpmf(4, *a[:i], a[i] - h, *a[i + 1:])) / (2 * h)
        # the support loops are while_loops: forward mode (reverse mode cannot
        # store a loop of unknown length)
        _close(sciax.jacfwd(f)(a[i]), fd, 1e-6, 0, name)
    g = sciax.grad(lambda q: xs.poisson_binom.cdf(1.0, q))(p)
    # Wallenius' integral is a fixed-size rule: reverse mode too
    def lw(w):
        return xs.nchypergeom_wallenius.logpmf(4.0, 20.0, 7.0, 12.0, w)

    fw = sciax.grad(lw)(2.5)
    _close(fw, sciax.jacfwd(lw)(2.5), 1e-12)
    eps = 1e-6
    p0 = np.asarray(p)
    cdf = ss.poisson_binom.cdf
    fd = [(cdf(1, p0 + eps * e) - cdf(1, p0 - eps * e)) / (2 * eps) for e in np.eye(3)]
    _close(g, fd, 1e-7)
