"""Discrete distributions (SciPy's parametrisations).

CDFs that are incomplete beta or gamma functions (``binom``, ``nbinom``,
``poisson``) come from :mod:`sciax.special` through :mod:`sciax.stats._sf`;
finite-support distributions without a closed-form CDF sum their PMF.
"""

from __future__ import annotations

import math

import sciax
import sciax.numpy as snp
import sciax.random
from sciax import lax

from sciax.stats import _sf
from sciax.stats._distn_base import _stats_from_raw, rv_discrete

_INF = math.inf
_NAN = math.nan


def _lcomb(n, k):
    """log C(n, k) through log-gamma."""
    return lax.lgamma(n + 1.0) - lax.lgamma(k + 1.0) - lax.lgamma(n - k + 1.0)


def _is_int(v):
    return v == snp.floor(v)


class _SumCDF:
    """CDF, SF and moments by summing the PMF over the (finite or light-tailed)
    support: one ``while_loop`` over k, vectorised over the batch."""

    def _sum_over(self, fn, kmax, *s):
        lo, _ = self._support(*s)
        lo = snp.broadcast_to(lo, snp.shape(kmax + lo))

        def body(c):
            j, acc = c
            lp = self._logpmf(j, *s)
            term = snp.where((j <= kmax) & snp.isfinite(lp), fn(j, snp.exp(lp)), 0.0)
            return j + 1.0, acc + term

        def cond(c):
            j, _ = c
            return snp.any(j <= kmax)

        _, acc = lax.while_loop(cond, body, (lo, snp.zeros_like(kmax + lo)))
        return acc

    def _cdf(self, k, *s):
        return snp.minimum(self._sum_over(lambda j, p: p, k, *s), 1.0)

    def _sf(self, k, *s):
        return snp.maximum(1.0 - self._cdf(k, *s), 0.0)

    def _stats(self, *s):
        _, hi = self._support(*s)
        m = [self._sum_over(lambda j, p, n=n: p * j**n, hi, *s) for n in (1, 2, 3, 4)]
        mu = m[0]
        mu2 = m[1] - mu * mu
        c3 = m[2] - 3 * mu * m[1] + 2 * mu**3
        c4 = m[3] - 4 * mu * m[2] + 6 * mu * mu * m[1] - 3 * mu**4
        return mu, mu2, c3 / mu2**1.5, c4 / mu2**2 - 3.0


class bernoulli_gen(rv_discrete):
    """The Bernoulli distribution, ``p`` in [0, 1]."""

    name, shapes, a, b = "bernoulli", ("p",), 0.0, 1.0

    def _argcheck(self, p):
        return (p >= 0) & (p <= 1)

    def _logpmf(self, k, p):
        return _sf.xlogy(k, p) + _sf.xlog1py(1.0 - k, -p)

    def _cdf(self, k, p):
        return snp.where(k < 1, 1.0 - p, 1.0)

    def _sf(self, k, p):
        return snp.where(k < 1, p, 0.0)

    def _ppf(self, q, p):
        return snp.where(q > 1.0 - p, 1.0, 0.0)

    def _stats(self, p):
        v = p * (1.0 - p)
        return p, v, (1.0 - 2.0 * p) / snp.sqrt(v), (1.0 - 6.0 * v) / v

    def _entropy(self, p):
        return -_sf.xlogy(p, p) - _sf.xlog1py(1.0 - p, -p)

    def _rvs(self, key, shape, dtype, p):
        return (sciax.random.uniform(key, shape, dtype) < p).astype(dtype)


class binom_gen(rv_discrete):
    """The binomial distribution, ``n`` trials with probability ``p``."""

    name, shapes = "binom", ("n", "p")

    def _argcheck(self, n, p):
        return (n >= 0) & _is_int(n) & (p >= 0) & (p <= 1)

    def _support(self, n, p):
        return 0.0 * n, n

    def _logpmf(self, k, n, p):
        return _lcomb(n, k) + _sf.xlogy(k, p) + _sf.xlog1py(n - k, -p)

    def _cdf(self, k, n, p):
        return _sf.betainc(n - k, k + 1.0, 1.0 - p)

    def _sf(self, k, n, p):
        return _sf.betainc(k + 1.0, n - k, p)

    def _ppf_guess(self, q, n, p):
        return n * p

    def _stats(self, n, p):
        v = n * p * (1.0 - p)
        return n * p, v, (1.0 - 2.0 * p) / snp.sqrt(v), (1.0 - 6.0 * p * (1.0 - p)) / v

    def _rvs(self, key, shape, dtype, n, p):
        return sciax.random.binomial(key, n, p, shape, dtype)


class poisson_gen(rv_discrete):
    """The Poisson distribution with mean ``mu``."""

    name, shapes = "poisson", ("mu",)

    def _argcheck(self, mu):
        return mu >= 0

    def _logpmf(self, k, mu):
        return _sf.xlogy(k, mu) - lax.lgamma(k + 1.0) - mu

    def _cdf(self, k, mu):
        return _sf.gammaincc(k + 1.0, mu)

    def _sf(self, k, mu):
        return _sf.gammainc(k + 1.0, mu)

    def _ppf_guess(self, q, mu):
        return mu

    def _stats(self, mu):
        return mu, mu, 1.0 / snp.sqrt(mu), 1.0 / mu

    def _rvs(self, key, shape, dtype, mu):
        return sciax.random.poisson(key, mu, shape).astype(dtype)


class geom_gen(rv_discrete):
    """The geometric distribution on ``1, 2, ...``, success probability ``p``."""

    name, shapes, a = "geom", ("p",), 1.0

    def _argcheck(self, p):
        return (p > 0) & (p <= 1)

    def _logpmf(self, k, p):
        return _sf.xlog1py(k - 1.0, -p) + snp.log(p)

    def _cdf(self, k, p):
        return -snp.expm1(_sf.xlog1py(k, -p))

    def _sf(self, k, p):
        return snp.exp(_sf.xlog1py(k, -p))

    def _logsf(self, k, p):
        return _sf.xlog1py(k, -p)

    def _ppf(self, q, p):
        v = snp.ceil(snp.log1p(-q) / snp.log1p(-p))
        below = self._cdf(v - 1.0, p)
        return snp.where((below >= q) & (v > 1), v - 1.0, snp.maximum(v, 1.0))

    def _stats(self, p):
        return (1.0 / p, (1.0 - p) / p**2, (2.0 - p) / snp.sqrt(1.0 - p),
                (p * p - 6.0 * p + 6.0) / (1.0 - p))

    def _entropy(self, p):
        return (-_sf.xlogy(p, p) - _sf.xlog1py(1.0 - p, -p)) / p


class nbinom_gen(rv_discrete):
    """The negative binomial distribution: failures before ``n`` successes."""

    name, shapes = "nbinom", ("n", "p")

    def _argcheck(self, n, p):
        return (n > 0) & (p > 0) & (p <= 1)

    def _logpmf(self, k, n, p):
        return (lax.lgamma(n + k) - lax.lgamma(k + 1.0) - lax.lgamma(n)
                + n * snp.log(p) + _sf.xlog1py(k, -p))

    def _cdf(self, k, n, p):
        return _sf.betainc(n, k + 1.0, p)

    def _sf(self, k, n, p):
        return _sf.betainc(k + 1.0, n, 1.0 - p)

    def _ppf_guess(self, q, n, p):
        return n * (1.0 - p) / p

    def _stats(self, n, p):
        q = 1.0 - p
        return (n * q / p, n * q / p**2, (2.0 - p) / snp.sqrt(n * q),
                6.0 / n + p * p / (n * q))


class randint_gen(rv_discrete):
    """Uniform integers in ``[low, high)``."""

    name, shapes = "randint", ("low", "high")

    def _argcheck(self, low, high):
        return (high > low) & _is_int(low) & _is_int(high)

    def _support(self, low, high):
        return low, high - 1.0

    def _logpmf(self, k, low, high):
        return -snp.log(high - low) + 0.0 * k

    def _cdf(self, k, low, high):
        return (snp.floor(k) - low + 1.0) / (high - low)

    def _sf(self, k, low, high):
        return (high - snp.floor(k) - 1.0) / (high - low)

    def _ppf(self, q, low, high):
        v = snp.ceil(q * (high - low) + low) - 1.0
        v1 = snp.maximum(v - 1.0, low)
        return snp.where(self._cdf(v1, low, high) >= q, v1, v)

    def _stats(self, low, high):
        d = high - low
        return ((high + low - 1.0) / 2.0, (d * d - 1.0) / 12.0, 0.0 * d,
                -6.0 / 5.0 * (d * d + 1.0) / (d * d - 1.0))

    def _entropy(self, low, high):
        return snp.log(high - low)


class dlaplace_gen(rv_discrete):
    """The discrete Laplacian distribution on the integers, shape ``a > 0``."""

    name, shapes, a = "dlaplace", ("a",), -_INF

    def _logpmf(self, k, a):
        return snp.log(snp.tanh(0.5 * a)) - a * snp.abs(k)

    def _cdf(self, k, a):
        # P(X <= k): 1 - e^{-a(k+1)}/(1+e^{-a}) for k >= 0, e^{a(k+1)}/(1+e^a) below
        kp = snp.maximum(k, 0.0)
        kn = snp.minimum(k, -1.0)
        return snp.where(k >= 0, 1.0 - snp.exp(-a * kp) / (snp.exp(a) + 1.0),
                         snp.exp(a * (kn + 1.0)) / (snp.exp(a) + 1.0))

    def _sf(self, k, a):
        return self._cdf(-k - 1.0, a)

    def _logcdf(self, k, a):
        # k < 0: a (k + 1) - log1p(e^a), exact where the cdf underflows;
        # k >= 0: log1p(-e^(-a k)/(1 + e^a)) (SciPy's value at k = 33,
        # a = 0.8 is 4e-5 relative off: exp(-27.57) / (1 + e^a) is its tail)
        kn = snp.minimum(k, -1.0)
        kp = snp.maximum(k, 0.0)
        l1pe = snp.logaddexp(0.0, a)
        return snp.where(k >= 0, snp.log1p(-snp.exp(-a * kp - l1pe)),
                         a * (kn + 1.0) - l1pe)

    def _logsf(self, k, a):
        return self._logcdf(-k - 1.0, a)

    def _ppf_guess(self, q, a):
        return 0.0 * q

    def _stats(self, a):
        ea = snp.exp(a)
        mu2 = 2.0 * ea / (ea - 1.0) ** 2
        mu4 = 2.0 * ea * (ea**2 + 10.0 * ea + 1.0) / (ea - 1.0) ** 4
        return 0.0 * a, mu2, 0.0 * a, mu4 / mu2**2 - 3.0

    def _entropy(self, a):
        return a / snp.sinh(a) - snp.log(snp.tanh(0.5 * a))


class planck_gen(rv_discrete):
    """The Planck (discrete exponential) distribution, shape ``lambda_ > 0``."""

    name, shapes = "planck", ("lambda_",)

    def _logpmf(self, k, lam):
        return snp.log(-snp.expm1(-lam)) - lam * k

    def _cdf(self, k, lam):
        return -snp.expm1(-lam * (k + 1.0))

    def _sf(self, k, lam):
        return snp.exp(-lam * (k + 1.0))

    def _ppf(self, q, lam):
        v = snp.ceil(-snp.log1p(-q) / lam - 1.0)
        v1 = snp.maximum(v - 1.0, 0.0)
        return snp.where(self._cdf(v1, lam) >= q, v1, snp.maximum(v, 0.0))

    def _stats(self, lam):
        mu = 1.0 / snp.expm1(lam)
        var = snp.exp(-lam) / snp.expm1(-lam) ** 2
        return mu, var, 2.0 * snp.cosh(0.5 * lam), 4.0 + 2.0 * snp.cosh(lam)

    def _entropy(self, lam):
        c = -snp.expm1(-lam)
        return lam * snp.exp(-lam) / c - snp.log(c)


class boltzmann_gen(rv_discrete):
    """The truncated Planck (Boltzmann) distribution on ``0..N-1``."""

    name, shapes = "boltzmann", ("lambda_", "N")

    def _argcheck(self, lam, n):
        return (lam > 0) & (n > 0) & _is_int(n)

    def _support(self, lam, n):
        return 0.0 * n, n - 1.0

    def _logpmf(self, k, lam, n):
        return snp.log(-snp.expm1(-lam)) - snp.log(-snp.expm1(-lam * n)) - lam * k

    def _cdf(self, k, lam, n):
        return snp.expm1(-lam * (k + 1.0)) / snp.expm1(-lam * n)

    def _sf(self, k, lam, n):
        return (snp.exp(-lam * (k + 1.0)) - snp.exp(-lam * n)) / (-snp.expm1(-lam * n))

    def _ppf(self, q, lam, n):
        z = -snp.expm1(-lam * n)
        v = snp.ceil(-snp.log1p(-q * z) / lam - 1.0)
        v1 = snp.maximum(v - 1.0, 0.0)
        return snp.minimum(snp.where(self._cdf(v1, lam, n) >= q, v1, v), n - 1.0)

    def _stats(self, lam, n):
        z = snp.exp(-lam)
        zn = snp.exp(-lam * n)
        mu = z / (1.0 - z) - n * zn / (1.0 - zn)
        var = z / (1.0 - z) ** 2 - n * n * zn / (1.0 - zn) ** 2
        trm = (1.0 - zn) / (1.0 - z)
        trm2 = z * trm**2 - n * n * zn
        g1 = (z * (1 + z) * trm**3 - n**3 * zn * (1 + zn)) / trm2**1.5
        g2 = (z * (1 + 4 * z + z * z) * trm**4
              - n**4 * zn * (1 + 4 * zn + zn * zn)) / trm2 / trm2
        return mu, var, g1, g2


class yulesimon_gen(rv_discrete):
    """The Yule-Simon distribution on ``1, 2, ...``, shape ``alpha > 0``."""

    name, shapes, a = "yulesimon", ("alpha",), 1.0

    def _logpmf(self, k, alpha):
        return snp.log(alpha) + _sf.betaln(k, alpha + 1.0)

    def _sf(self, k, alpha):
        return snp.exp(snp.log(k) + _sf.betaln(k, alpha + 1.0))

    def _cdf(self, k, alpha):
        return -snp.expm1(snp.log(k) + _sf.betaln(k, alpha + 1.0))

    def _ppf_guess(self, q, alpha):
        return 1.0 + 0.0 * q

    def _stats(self, alpha):
        a = alpha
        mu = snp.where(a > 1, a / snp.where(a > 1, a - 1.0, 1.0), _INF)
        var = snp.where(a > 2, a * a / ((a - 1.0) ** 2 * (a - 2.0)), _INF)
        g1 = snp.where(a > 3, snp.sqrt(snp.abs(a - 2.0)) * (a + 1.0) ** 2
                       / (a * (a - 3.0)), _NAN)
        g2 = snp.where(a > 4, a + 3.0 + (11.0 * a**3 - 49.0 * a - 22.0)
                       / (a * (a - 4.0) * (a - 3.0)), _NAN)
        return mu, var, g1, g2


class logser_gen(_SumCDF, rv_discrete):
    """The logarithmic series distribution on ``1, 2, ...``, ``0 < p < 1``."""

    name, shapes, a = "logser", ("p",), 1.0
    _shape_domain = ((0.0, 1.0),)

    def _logpmf(self, k, p):
        return k * snp.log(p) - snp.log(k) - snp.log(-snp.log1p(-p))

    def _cdf(self, k, p):
        # the sum stops where the rest, below p^(j+1)/(1 - p), is under 1e-18:
        # it ran to k itself (k = 1e8 took 5 s, k = 1e20 never ended)
        stop = snp.ceil(snp.log(1e-18 * (1.0 - p)) / snp.log(p))
        return super()._cdf(snp.minimum(k, snp.maximum(stop, 1.0)), p)

    def _log_tail(self, k, p):
        # log sf and where it holds.  1 - cdf where the tail is large, and
        # where it is small the tail itself, sum_{j > k} p^j / j, 256 terms a
        # trip until a chunk adds < 1e-17 of it (1 - cdf lost 2.7e-10 relative
        # at sf = 1e-6), scaled by its first term p^(k+1)/(k+1), whose log is
        # added back (the tail underflowed from k ~ 1400 at p = 0.6).
        rest = snp.maximum(1.0 - self._cdf(k, p), 0.0)
        k, p, rest = snp.broadcast_arrays(k, p, rest)
        offs = snp.arange(0.0, 256.0, dtype=rest.dtype)
        lp = snp.log(p)
        j1 = k + 1.0
        shift = j1 * lp - snp.log(j1)

        def body(c):
            n0, acc, go, i = c
            n = n0[..., None] + offs
            t = snp.sum(snp.exp(n * lp[..., None] - snp.log1p(n / j1[..., None])), axis=-1)
            acc1 = acc + snp.where(go, t, 0.0)
            return n0 + 256.0, acc1, go & (t > 1e-17 * acc1), i + 1

        init = (snp.zeros_like(rest), snp.zeros_like(rest), rest < 0.5, 0)
        _, acc, _, _ = lax.while_loop(lambda c: snp.any(c[2]) & (c[3] < 512), body, init)
        small = rest < 0.5
        lt = shift + snp.log(snp.where(small, acc, 1.0)) - snp.log(-snp.log1p(-p))
        return small, lt, rest

    def _sf(self, k, p):
        small, lt, rest = self._log_tail(k, p)
        return snp.where(small, snp.exp(lt), rest)

    def _logsf(self, k, p):
        small, lt, rest = self._log_tail(k, p)
        return snp.where(small, lt, snp.log(rest))

    def _logcdf(self, k, p):
        small, lt, rest = self._log_tail(k, p)
        return snp.where(small, snp.log1p(-snp.exp(lt)), snp.log1p(-rest))

    def _stats(self, p):
        r = snp.log1p(-p)
        mu = p / (p - 1.0) / r
        mu2p = -p / r / (p - 1.0) ** 2
        var = mu2p - mu * mu
        mu3p = -p / r * (1.0 + p) / (1.0 - p) ** 3
        mu3 = mu3p - 3.0 * mu * mu2p + 2.0 * mu**3
        mu4p = -p / r * (1.0 / (p - 1) ** 2 - 6 * p / (p - 1) ** 3 + 6 * p * p / (p - 1) ** 4)
        mu4 = mu4p - 4.0 * mu3p * mu + 6.0 * mu2p * mu * mu - 3.0 * mu**4
        return mu, var, mu3 / var**1.5, mu4 / var**2 - 3.0


class hypergeom_gen(_SumCDF, rv_discrete):
    """The hypergeometric distribution: ``N`` draws without replacement from
    ``M`` objects of which ``n`` are of the counted type."""

    name, shapes = "hypergeom", ("M", "n", "N")

    def _argcheck(self, M, n, N):
        return ((M >= 0) & (n >= 0) & (N >= 0) & (n <= M) & (N <= M)
                & _is_int(M) & _is_int(n) & _is_int(N))

    def _support(self, M, n, N):
        return snp.maximum(N - (M - n), 0.0), snp.minimum(n, N)

    def _logpmf(self, k, M, n, N):
        return _lcomb(n, k) + _lcomb(M - n, N - k) - _lcomb(M, N)

    def _ppf_guess(self, q, M, n, N):
        lo, _ = self._support(M, n, N)
        return lo


class betabinom_gen(_SumCDF, rv_discrete):
    """The beta-binomial distribution, ``n`` trials with a Beta(a, b) probability."""

    name, shapes = "betabinom", ("n", "a", "b")

    def _argcheck(self, n, a, b):
        return (n >= 0) & _is_int(n) & (a > 0) & (b > 0)

    def _support(self, n, a, b):
        return 0.0 * n, n

    def _logpmf(self, k, n, a, b):
        return _lcomb(n, k) + _sf.betaln(k + a, n - k + b) - _sf.betaln(a, b)


class zipfian_gen(_SumCDF, rv_discrete):
    """The Zipfian distribution on ``1..n``, exponent ``a >= 0``."""

    name, shapes, a = "zipfian", ("a", "n"), 1.0

    def _argcheck(self, a, n):
        return (a >= 0) & (n > 0) & _is_int(n)

    def _support(self, a, n):
        return 1.0 + 0.0 * n, n

    def _logpmf(self, k, a, n):
        # normalised by the generalized harmonic number H(n, a), one loop
        a, n = snp.broadcast_arrays(a, n)

        def body(c):
            j, acc = c
            return j + 1.0, acc + snp.where(j <= n, j ** (-a), 0.0)

        _, h = lax.while_loop(lambda c: snp.any(c[0] <= n), body,
                              (snp.ones_like(n), snp.zeros_like(n)))
        return -a * snp.log(k) - snp.log(h)


class nhypergeom_gen(_SumCDF, rv_discrete):
    """The negative hypergeometric distribution: red balls drawn (of ``n`` red
    among ``M``) before the ``r``-th blue one."""

    name, shapes = "nhypergeom", ("M", "n", "r")

    def _argcheck(self, M, n, r):
        return ((n >= 0) & (n <= M) & (r >= 0) & (r <= M - n)
                & _is_int(M) & _is_int(n) & _is_int(r))

    def _support(self, M, n, r):
        return 0.0 * n, n

    def _logpmf(self, k, M, n, r):
        return (_lcomb(k + r - 1.0, k) + _lcomb(M - r - k, n - k) - _lcomb(M, n))


class zipf_gen(_SumCDF, rv_discrete):
    """The Zipf (zeta) distribution on ``1, 2, ...``, exponent ``a > 1``.  Its
    normalisation needs :func:`sciax.special.zeta`."""

    name, shapes, a = "zipf", ("a",), 1.0
    _shape_domain = ((1.0, _INF),)

    def _logpmf(self, k, a):
        return -a * snp.log(k) - snp.log(_sf.zeta(a, 1.0))

    def _sf(self, k, a):
        # the tail itself, zeta(a, k + 1) / zeta(a): 1 - cdf lost 2.5e-9 at 1e-6
        return _sf.zeta(a, k + 1.0) / _sf.zeta(a, 1.0)

    def _ppf_guess(self, q, a):
        return 1.0 + 0.0 * q

    def _entropy(self, a):
        # With p_k = k^-a / zeta(a), -log p_k = a log k + log zeta(a) and
        # sum_k k^-a log k = -zeta'(a), so H = log zeta(a) - a zeta'(a) / zeta(a)
        # (the generic sum's 2^17 terms left 3.3e-7 of this power-law tail).
        # zeta - 1 (summed from k = 2) keeps log zeta = log1p(zetac) and
        # zeta' = zetac' to full precision where zeta is close to 1 (large a).
        zc, dzc = sciax.jvp(_sf.zetac, (a,), (snp.ones_like(a),))
        return snp.log1p(zc) - a * dzc / (1.0 + zc)

    def _stats(self, a):
        z = _sf.zeta(a, 1.0)
        m = [snp.where(a > n + 1, _sf.zeta(snp.where(a > n + 1, a - n, 2.0), 1.0) / z,
                       _INF) for n in (1, 2, 3, 4)]
        return _stats_from_raw(m)


bernoulli = bernoulli_gen()
binom = binom_gen()
poisson = poisson_gen()
geom = geom_gen()
nbinom = nbinom_gen()
randint = randint_gen()
dlaplace = dlaplace_gen()
planck = planck_gen()
boltzmann = boltzmann_gen()
yulesimon = yulesimon_gen()
logser = logser_gen()
hypergeom = hypergeom_gen()
betabinom = betabinom_gen()
zipfian = zipfian_gen()
nhypergeom = nhypergeom_gen()
zipf = zipf_gen()

__all__ = ["bernoulli", "binom", "poisson", "geom", "nbinom", "randint", "dlaplace",
           "planck", "boltzmann", "yulesimon", "logser", "hypergeom", "betabinom",
           "zipfian", "nhypergeom", "zipf"]
