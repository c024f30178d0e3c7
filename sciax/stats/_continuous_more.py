"""More continuous distributions with elementary (or normal-CDF) functions.

Moments and entropies not listed here come from the generic tanh-sinh rule
over the quantile function (:mod:`sciax.stats._distn_base`); quantiles
without a closed form from the bracketing solver with implicit derivatives.
"""

from __future__ import annotations

import math

import sciax.numpy as snp
from sciax import lax

from sciax.special import _util
from sciax.stats import _sf
from sciax.stats._distn_base import rv_continuous

_INF = math.inf
_PI = math.pi
_LOG2 = math.log(2.0)
_LOG2PI = math.log(2.0 * math.pi)
_SQRT2 = math.sqrt(2.0)
_EULER = 0.5772156649015329
_ZETA3 = 1.2020569031595942


def _softplus(x):
    return snp.logaddexp(x, 0.0)


class _NumericQuantile:
    """ppf/isf by the bracketing solver (no closed form)."""

    def _ppf(self, q, *s):
        return self._quantile_numeric(q, 1.0 - q, *s)

    def _isf(self, q, *s):
        return self._quantile_numeric(1.0 - q, q, *s)

    def _quantile(self, u, v, *s):
        # the solver takes both tails itself: one program, not one per tail
        return self._quantile_numeric(u, v, *s)


class anglit_gen(rv_continuous):
    """The anglit distribution on ``[-pi/4, pi/4]``."""

    name, shapes, a, b = "anglit", (), -_PI / 4, _PI / 4

    def _pdf(self, x):
        return snp.cos(2.0 * x)

    def _cdf(self, x):
        return snp.sin(x + _PI / 4) ** 2

    def _sf(self, x):
        return snp.cos(x + _PI / 4) ** 2

    def _ppf(self, q):
        return snp.arcsin(snp.sqrt(q)) - _PI / 4

    def _isf(self, q):
        return snp.arccos(snp.sqrt(q)) - _PI / 4

    def _stats(self):
        return (0.0, _PI**2 / 16 - 0.5, 0.0,
                -2 * (_PI**4 - 96) / (_PI**2 - 8) ** 2)

    def _entropy(self):
        return 1.0 - _LOG2


class bradford_gen(rv_continuous):
    """The Bradford distribution on ``[0, 1]``, shape ``c``."""

    name, shapes, a, b = "bradford", ("c",), 0.0, 1.0

    def _logpdf(self, x, c):
        return snp.log(c) - snp.log(snp.log1p(c)) - snp.log1p(c * x)

    def _cdf(self, x, c):
        return snp.log1p(c * x) / snp.log1p(c)

    def _sf(self, x, c):
        return snp.log1p(c * (1.0 - x) / (1.0 + c * x)) / snp.log1p(c)

    def _ppf(self, q, c):
        return snp.expm1(q * snp.log1p(c)) / c

    def _entropy(self, c):
        k = snp.log1p(c)
        return 0.5 * k - snp.log(c / k)


class cosine_gen(_NumericQuantile, rv_continuous):
    """The cosine distribution on ``[-pi, pi]``."""

    name, shapes, a, b = "cosine", (), -_PI, _PI

    def _pdf(self, x):
        return (1.0 + snp.cos(x)) / (2.0 * _PI)

    @staticmethod
    def _lower(t):
        # (t - sin t) / (2 pi) for t = pi + x, by its series near the lower end
        t2 = t * t
        series = t * t2 / 6.0 * (1.0 - t2 / 20.0 * (1.0 - t2 / 42.0 * (
            1.0 - t2 / 72.0 * (1.0 - t2 / 110.0))))
        return snp.where(t < 0.5, series, t - snp.sin(t)) / (2.0 * _PI)

    # t = pi + x with pi's low part: pi + x is exact near the end, where
    # the cdf ~ t^3 lost 3 |pi - fl(pi)|/t relative (1e-6 at cdf = 1e-30).
    # The barrier keeps XLA from folding (pi + x) + lo into x + fl(pi + lo).
    _PI_LO = 1.2246467991473532e-16

    def _cdf(self, x):
        return self._lower(lax.optimization_barrier(_PI + x) + self._PI_LO)

    def _sf(self, x):
        return self._lower(lax.optimization_barrier(_PI - x) + self._PI_LO)

    def _stats(self):
        return (0.0, _PI**2 / 3 - 2, 0.0,
                -6 * (_PI**4 - 90) / (5 * (_PI**2 - 6) ** 2))

    def _entropy(self):
        return math.log(4 * _PI) - 1.0


class exponweib_gen(rv_continuous):
    """The exponentiated Weibull distribution, shapes ``a, c``."""

    name, shapes, a = "exponweib", ("a", "c"), 0.0

    def _logpdf(self, x, a, c):
        xc = x**c
        return (snp.log(a) + snp.log(c) + _sf.xlogy(a - 1.0, -snp.expm1(-xc)) - xc
                + _sf.xlogy(c - 1.0, x))

    def _logcdf(self, x, a, c):
        # log(1 - e^-u), u = x^c: log(-expm1(-u)) below u = log 2, else
        # log1p(-e^-u), which keeps e^-u where 1 - e^-u rounds to 1
        u = x**c
        near = u < _LOG2
        return a * snp.where(near, snp.log(-snp.expm1(-snp.where(near, u, 1.0))),
                             snp.log1p(-snp.exp(-u)))

    def _logsf(self, x, a, c):
        # sf = 1 - (1 - e^-u)^a = a e^-u (1 - (a - 1) e^-u / 2 + ...): past
        # u = 40 (e^-u < 4.3e-18) log sf = log a - u, which stays finite
        # where e^-u underflows
        u = x**c
        far = u > 40.0
        xs = snp.where(far, 1.0, x)
        return snp.where(far, snp.log(a) - u,
                         snp.log(-snp.expm1(self._logcdf(xs, a, c))))

    def _cdf(self, x, a, c):
        return snp.exp(self._logcdf(x, a, c))

    def _sf(self, x, a, c):
        return -snp.expm1(self._logcdf(x, a, c))

    def _ppf(self, q, a, c):
        return (-snp.log1p(-(q ** (1.0 / a)))) ** (1.0 / c)

    def _isf(self, q, a, c):
        return (-snp.log(-snp.expm1(snp.log1p(-q) / a))) ** (1.0 / c)


class exponpow_gen(rv_continuous):
    """The exponential power distribution, shape ``b``."""

    name, shapes, a = "exponpow", ("b",), 0.0

    def _logpdf(self, x, b):
        xb = x**b
        return snp.log(b) + _sf.xlogy(b - 1.0, x) + 1.0 + xb - snp.exp(xb)

    def _cdf(self, x, b):
        return -snp.expm1(-snp.expm1(x**b))

    def _sf(self, x, b):
        return snp.exp(-snp.expm1(x**b))

    def _logsf(self, x, b):
        return -snp.expm1(x**b)

    def _ppf(self, q, b):
        return snp.log1p(-snp.log1p(-q)) ** (1.0 / b)

    def _isf(self, q, b):
        return snp.log1p(-snp.log(q)) ** (1.0 / b)


class genlogistic_gen(rv_continuous):
    """The generalized logistic (type I) distribution, shape ``c``."""

    name, shapes = "genlogistic", ("c",)

    def _logpdf(self, x, c):
        return snp.log(c) - x - (c + 1.0) * _softplus(-x)

    def _logcdf(self, x, c):
        return -c * _softplus(-x)

    def _cdf(self, x, c):
        return snp.exp(-c * _softplus(-x))

    def _sf(self, x, c):
        return -snp.expm1(-c * _softplus(-x))

    def _ppf(self, q, c):
        return -snp.log(snp.expm1(-snp.log(q) / c))

    def _isf(self, q, c):
        return -snp.log(snp.expm1(-snp.log1p(-q) / c))

    def _stats(self, c):
        var = _PI**2 / 6.0 + _sf.polygamma(1, c)
        return (_EULER + lax.digamma(c), var,
                (_sf.polygamma(2, c) + 2.0 * _ZETA3) / var**1.5,
                (_PI**4 / 15.0 + _sf.polygamma(3, c)) / var**2)


class gibrat_gen(rv_continuous):
    """The Gibrat (standard log-normal) distribution."""

    name, shapes, a = "gibrat", (), 0.0

    def _logpdf(self, x):
        lx = snp.log(x)
        return -lx - 0.5 * _LOG2PI - 0.5 * lx * lx

    def _cdf(self, x):
        return _sf.ndtr(snp.log(x))

    def _sf(self, x):
        return _sf.ndtr(-snp.log(x))

    def _logcdf(self, x):
        return _sf.log_ndtr(snp.log(x))

    def _logsf(self, x):
        return _sf.log_ndtr(-snp.log(x))

    def _ppf(self, q):
        return snp.exp(_sf.ndtri(q))

    def _isf(self, q):
        return snp.exp(-_sf.ndtri(q))

    def _stats(self):
        e = math.e
        return (math.sqrt(e), e * (e - 1), (e + 2) * math.sqrt(e - 1),
                e**4 + 2 * e**3 + 3 * e**2 - 6)

    def _entropy(self):
        return 0.5 * _LOG2PI + 0.5


class hypsecant_gen(rv_continuous):
    """The hyperbolic secant distribution."""

    name, shapes = "hypsecant", ()

    def _logpdf(self, x):
        ax = snp.abs(x)
        return -math.log(_PI) - (ax + snp.log1p(snp.exp(-2.0 * ax)) - _LOG2)

    def _cdf(self, x):
        return 2.0 / _PI * snp.arctan(snp.exp(x))

    def _sf(self, x):
        return 2.0 / _PI * snp.arctan(snp.exp(-x))

    def _ppf(self, q):
        return snp.log(snp.tan(0.5 * _PI * q))

    def _isf(self, q):
        return -snp.log(snp.tan(0.5 * _PI * q))

    def _stats(self):
        return 0.0, _PI**2 / 4, 0.0, 2.0

    def _entropy(self):
        return math.log(2 * _PI)


class loglaplace_gen(rv_continuous):
    """The log-Laplace distribution, shape ``c``."""

    name, shapes, a = "loglaplace", ("c",), 0.0

    def _logpdf(self, x, c):
        lx = snp.log(x)
        return snp.log(0.5 * c) + snp.where(x < 1, (c - 1.0) * lx, (-c - 1.0) * lx)

    def _cdf(self, x, c):
        return snp.where(x < 1, 0.5 * x**c, 1.0 - 0.5 * x ** (-c))

    def _sf(self, x, c):
        return snp.where(x < 1, 1.0 - 0.5 * x**c, 0.5 * x ** (-c))

    def _ppf(self, q, c):
        return snp.where(q < 0.5, (2.0 * q) ** (1.0 / c), (2.0 * (1.0 - q)) ** (-1.0 / c))

    def _isf(self, q, c):
        return snp.where(q > 0.5, (2.0 * (1.0 - q)) ** (1.0 / c), (2.0 * q) ** (-1.0 / c))

    def _munp(self, n, c):
        ok = c > n
        cc = snp.where(ok, c, 2.0 * n)
        return snp.where(ok, cc * cc / (cc * cc - n * n), _INF)

    def _entropy(self, c):
        return snp.log(2.0 / c) + 1.0


class moyal_gen(rv_continuous):
    """The Moyal distribution."""

    name, shapes = "moyal", ()

    def _logpdf(self, x):
        return -0.5 * (x + snp.exp(-x)) - 0.5 * _LOG2PI

    def _cdf(self, x):
        return lax.erfc(snp.exp(-0.5 * x) / math.sqrt(2.0))

    def _sf(self, x):
        return lax.erf(snp.exp(-0.5 * x) / math.sqrt(2.0))

    def _ppf(self, q):
        # erfc(u / sqrt 2) = q  <=>  u = -ndtri(q / 2)
        return -2.0 * snp.log(-_sf.ndtri(0.5 * q))

    def _isf(self, q):
        return -2.0 * snp.log(math.sqrt(2.0) * lax.erf_inv(q))

    def _stats(self):
        return (_EULER + _LOG2, _PI**2 / 2, 28 * math.sqrt(2) * _ZETA3 / _PI**3, 4.0)

    def _entropy(self):
        return 0.5 * (1.0 + _EULER + math.log(4 * _PI))


class powerlognorm_gen(rv_continuous):
    """The power log-normal distribution, shapes ``c, s``."""

    name, shapes, a = "powerlognorm", ("c", "s"), 0.0

    def _logpdf(self, x, c, s):
        # at x = 0 the log-normal factor's -z^2/2 wins over -log x: -inf
        zero = x == 0.0
        xs = snp.where(zero, 1.0, x)
        z = snp.log(xs) / s
        return snp.where(zero, -_INF,
                         snp.log(c) - snp.log(xs) - snp.log(s) - 0.5 * _LOG2PI
                         - 0.5 * z * z + (c - 1.0) * _sf.log_ndtr(-z))

    def _logsf(self, x, c, s):
        return c * _sf.log_ndtr(-snp.log(x) / s)

    def _sf(self, x, c, s):
        return snp.exp(self._logsf(x, c, s))

    def _cdf(self, x, c, s):
        return -snp.expm1(self._logsf(x, c, s))

    def _ppf(self, q, c, s):
        # ndtri(1 - t) = -ndtri(t), t = 1 - (1 - q)^(1/c) without cancellation
        return snp.exp(s * _sf.ndtri(-snp.expm1(snp.log1p(-q) / c)))

    def _isf(self, q, c, s):
        return snp.exp(-s * _sf.ndtri(q ** (1.0 / c)))


class powernorm_gen(rv_continuous):
    """The power normal distribution, shape ``c``."""

    name, shapes = "powernorm", ("c",)

    def _logpdf(self, x, c):
        return snp.log(c) - 0.5 * x * x - 0.5 * _LOG2PI + (c - 1.0) * _sf.log_ndtr(-x)

    def _logsf(self, x, c):
        return c * _sf.log_ndtr(-x)

    def _sf(self, x, c):
        return snp.exp(self._logsf(x, c))

    def _cdf(self, x, c):
        return -snp.expm1(self._logsf(x, c))

    def _ppf(self, q, c):
        return _sf.ndtri(-snp.expm1(snp.log1p(-q) / c))

    def _isf(self, q, c):
        return -_sf.ndtri(q ** (1.0 / c))


class semicircular_gen(_NumericQuantile, rv_continuous):
    """The semicircular (Wigner) distribution on ``[-1, 1]``."""

    name, shapes, a, b = "semicircular", (), -1.0, 1.0

    def _logpdf(self, x):
        return math.log(2.0 / _PI) + 0.5 * snp.log1p(-x * x)

    @staticmethod
    def _lower(t):
        # cdf(-1 + t) = (acos(1 - t) - (1 - t) sqrt(t (2 - t))) / pi, t exact.
        # The two terms agree to O(t) relative, so below t = 0.02 the cdf is
        # the integral of the density's series instead: (2 sqrt 2/pi)
        # int_0^t s^(1/2) (1 - s/2)^(1/2) ds = (2 sqrt 2/pi) t^(3/2)
        # sum_k c_k t^k/(k + 3/2), c_k = binom(1/2, k) (-1/2)^k; the first
        # omitted term (k = 7) is 2e-17 relative there.  (The difference lost
        # 1.7e-11 relative at cdf = 1e-10, up to ~1/t eps in principle.)
        small = t < 0.02
        ts = snp.where(small, t, 0.0)
        c = (1.0, -1.0 / 4, -1.0 / 32, -1.0 / 128, -5.0 / 2048, -7.0 / 8192,
             -21.0 / 65536)
        series = 0.0
        for k in reversed(range(len(c))):
            series = series * ts + c[k] / (k + 1.5)
        series = (2.0 * math.sqrt(2.0) / _PI) * ts * snp.sqrt(ts) * series
        tl = snp.where(small, 0.5, t)
        direct = (2.0 * snp.arcsin(snp.sqrt(0.5 * tl))
                  - (1.0 - tl) * snp.sqrt(tl * (2.0 - tl))) / _PI
        return snp.where(small, series, direct)

    def _cdf(self, x):
        return snp.where(x < 0, self._lower(1.0 + x), 1.0 - self._lower(1.0 - x))

    def _sf(self, x):
        return self._cdf(-x)

    def _stats(self):
        return 0.0, 0.25, 0.0, -1.0

    def _entropy(self):
        return math.log(_PI) - 0.5


class truncexpon_gen(rv_continuous):
    """The exponential distribution truncated to ``[0, b]``."""

    name, shapes, a = "truncexpon", ("b",), 0.0
    _support_depends_on_shapes = True

    def _support(self, b):
        return 0.0 * b, b

    def _logpdf(self, x, b):
        return -x - snp.log(-snp.expm1(-b))

    def _cdf(self, x, b):
        return snp.expm1(-x) / snp.expm1(-b)

    def _sf(self, x, b):
        return (snp.exp(-x) - snp.exp(-b)) / (-snp.expm1(-b))

    def _ppf(self, q, b):
        return -snp.log1p(q * snp.expm1(-b))

    def _isf(self, q, b):
        # x = -log(1 - (1 - q)(1 - e^-b)), with log1p where q is near 1
        return snp.where(q > 0.5, -snp.log1p((1.0 - q) * snp.expm1(-b)),
                         -snp.log(snp.exp(-b) - q * snp.expm1(-b)))

    def _fitstart(self, data):
        return (2.0,)


class truncnorm_gen(rv_continuous):
    """The normal distribution truncated to ``[a, b]`` (standardized bounds)."""

    name, shapes = "truncnorm", ("a", "b")
    _support_depends_on_shapes = True

    def _argcheck(self, a, b):
        return a < b

    def _support(self, a, b):
        return a, b

    @staticmethod
    def _mass(a, b):
        """Phi(b) - Phi(a) for a <= b, without the cancellation of the
        difference where b - a is small.

        The difference is taken from the upper tails where both bounds are
        positive.  It loses eps Phi/(Phi(b) - Phi(a)) relative, 4e-7 at the
        grid's cdf(a + 3e-10) point, so where h (|m| + 3) < 0.2 (h = b - a,
        m = (a + b)/2) the mass is the midpoint series instead,
        int_{-h/2}^{h/2} phi(m + s) ds = phi(m) h sum_k He_k(m) (h/2)^k/(k+1)!
        over even k <= 8: |He_10(m)| <= (|m| + 3)^10, so the first omitted
        term is below 0.2^10/(2^10 11!) = 3e-18 relative; outside that band
        the difference loses at most ~20 eps (Phi(b)/(Phi(b) - Phi(a)) <= 20).
        """
        upper = a > 0
        direct = snp.where(upper, _sf.ndtr(-a) - _sf.ndtr(-b), _sf.ndtr(b) - _sf.ndtr(a))
        h, m = b - a, 0.5 * (a + b)
        near = snp.isfinite(h) & (h * (snp.abs(m) + 3.0) < 0.2)
        # masked arguments keep an infinite bound out of the unused branch's
        # derivative
        h, m = snp.where(near, h, 0.0), snp.where(near, m, 0.0)
        m2, t = m * m, 0.25 * h * h
        he = (m2 - 1.0, (m2 - 6.0) * m2 + 3.0, ((m2 - 15.0) * m2 + 45.0) * m2 - 15.0,
              (((m2 - 28.0) * m2 + 210.0) * m2 - 420.0) * m2 + 105.0)
        series = 1.0 + t * (he[0] / 6.0 + t * (he[1] / 120.0 + t * (
            he[2] / 5040.0 + t * he[3] / 362880.0)))
        near_mass = h * snp.exp(-0.5 * m2 - 0.5 * _LOG2PI) * series
        return snp.where(near, near_mass, direct)

    def _logpdf(self, x, a, b):
        return -0.5 * x * x - 0.5 * _LOG2PI - snp.log(self._mass(a, b))

    def _cdf(self, x, a, b):
        return self._mass(a, x) / self._mass(a, b)

    def _sf(self, x, a, b):
        return self._mass(x, b) / self._mass(a, b)

    def _ppf(self, q, a, b):
        return self._quantile_numeric(q, 1.0 - q, a, b)

    def _isf(self, q, a, b):
        return self._quantile_numeric(1.0 - q, q, a, b)

    @staticmethod
    def _edge(t, c, k):
        # (t - c)^k phi(t), 0 at an infinite bound (with a finite argument
        # there, so no NaN reaches a derivative)
        fin = snp.isfinite(t)
        ts = snp.where(fin, t, 0.0)
        return snp.where(fin, (ts - c) ** k * snp.exp(-0.5 * ts * ts - 0.5 * _LOG2PI), 0.0)

    def _stats(self, a, b):
        # Central moments M_k = E[(Y - mu)^k] by the recurrence from
        # integrating d/dy[(y - mu)^(k-1) phi(y)] over [a, b]:
        # M_k = (k - 1) M_{k-2} - mu M_{k-1} - [(b - mu)^(k-1) phi(b)
        # - (a - mu)^(k-1) phi(a)] / Z, M_0 = 1, M_1 = 0.  About the mean,
        # not from raw moments, so the variance of a narrow interval far from
        # 0 keeps its digits (the closed forms replace a 301-point quadrature
        # over the numeric quantile, ~150 s of compile).  The skewness and
        # kurtosis of a narrow interval still cancel (mpmath: 1e-8 relative
        # kurtosis on [-3, -2.9], as SciPy's 8e-8); to 1e-14 on the test grid.
        z = self._mass(a, b)
        mu = (self._edge(a, 0.0, 0) - self._edge(b, 0.0, 0)) / z

        def edge(k):
            return (self._edge(b, mu, k) - self._edge(a, mu, k)) / z

        m2 = 1.0 - edge(1)
        m3 = -mu * m2 - edge(2)
        m4 = 3.0 * m2 - mu * m3 - edge(3)
        return mu, m2, m3 / m2**1.5, m4 / (m2 * m2) - 3.0

    def _entropy(self, a, b):
        # -E[log f] = E[Y^2]/2 + log(sqrt(2 pi) Z), E[Y^2] = 1 + (a phi(a) - b phi(b))/Z
        z = self._mass(a, b)
        ey2 = 1.0 + (self._edge(a, 0.0, 1) - self._edge(b, 0.0, 1)) / z
        return 0.5 * ey2 + 0.5 * _LOG2PI + snp.log(z)

    def _fitstart(self, data):
        return (-1.0, 1.0)


class trapezoid_gen(rv_continuous):
    """The trapezoidal distribution on ``[0, 1]`` with corners ``c <= d``."""

    name, shapes, a, b = "trapezoid", ("c", "d"), 0.0, 1.0
    _nan_passes = False  # a NaN x lands in its pdf's constant middle branch

    def _argcheck(self, c, d):
        return (c >= 0) & (c <= 1) & (d >= 0) & (d <= 1) & (d >= c)

    @staticmethod
    def _safe(c, d):
        return snp.where(c > 0, c, 1.0), snp.where(d < 1, 1.0 - d, 1.0)

    def _pdf(self, x, c, d):
        u = 2.0 / (d - c + 1.0)
        cs, ds = self._safe(c, d)
        return snp.where(x < c, u * x / cs, snp.where(x > d, u * (1.0 - x) / ds, u))

    def _logpdf(self, x, c, d):
        return snp.log(self._pdf(x, c, d))

    def _cdf(self, x, c, d):
        u = 2.0 / (d - c + 1.0)
        cs, ds = self._safe(c, d)
        return snp.where(x < c, 0.5 * u * x * x / cs,
                         snp.where(x > d, 1.0 - 0.5 * u * (1.0 - x) ** 2 / ds,
                                   u * (0.5 * c + x - c)))

    def _sf(self, x, c, d):
        u = 2.0 / (d - c + 1.0)
        cs, ds = self._safe(c, d)
        return snp.where(x < c, 1.0 - 0.5 * u * x * x / cs,
                         snp.where(x > d, 0.5 * u * (1.0 - x) ** 2 / ds,
                                   1.0 - u * (0.5 * c + x - c)))

    def _ppf(self, q, c, d):
        u = 2.0 / (d - c + 1.0)
        qc, qd = 0.5 * u * c, 1.0 - 0.5 * u * (1.0 - d)
        return snp.where(q < qc, snp.sqrt(2.0 * c * q / u),
                         snp.where(q > qd, 1.0 - snp.sqrt(2.0 * (1.0 - d) * (1.0 - q) / u),
                                   (q - qc) / u + c))

    def _isf(self, q, c, d):
        u = 2.0 / (d - c + 1.0)
        qc, qd = 0.5 * u * c, 0.5 * u * (1.0 - d)
        return snp.where(q < qd, 1.0 - snp.sqrt(2.0 * (1.0 - d) * q / u),
                         snp.where(q > 1.0 - qc, snp.sqrt(2.0 * c * (1.0 - q) / u),
                                   (1.0 - q - qc) / u + c))

    def _munp(self, n, c, d):
        # the three pieces of the density integrated against x^n
        u = 2.0 / (d - c + 1.0)
        ds = snp.where(d < 1, 1.0 - d, 1.0)
        right = snp.where(d < 1, ((1.0 - d ** (n + 1)) / (n + 1)
                                  - (1.0 - d ** (n + 2)) / (n + 2)) / ds, 0.0)
        return u * (c ** (n + 1) / (n + 2) + (d ** (n + 1) - c ** (n + 1)) / (n + 1)
                    + right)

    def _entropy(self, c, d):
        # -int f log f: the ramps give u/4 (c + 1 - d), the total -log u
        u = 2.0 / (d - c + 1.0)
        return -snp.log(u) + 0.25 * u * (c + 1.0 - d)

    def _fitstart(self, data):
        return (0.3, 0.7)


class reciprocal_gen(rv_continuous):
    """The log-uniform (reciprocal) distribution on ``[a, b]``."""

    name, shapes = "loguniform", ("a", "b")
    _support_depends_on_shapes = True

    def _argcheck(self, a, b):
        return (a > 0) & (b > a)

    def _support(self, a, b):
        return a, b

    def _logpdf(self, x, a, b):
        return -snp.log(x) - snp.log(snp.log(b) - snp.log(a))

    # log(x/a) as log1p((x - a)/a), x - a exact near a (log x - log a lost
    # eps/(x/a - 1) relative: 3e-7 at sf = 1e-12, 1e-3 at 1e-15)
    def _cdf(self, x, a, b):
        return snp.log1p((x - a) / a) / (snp.log(b) - snp.log(a))

    def _sf(self, x, a, b):
        return -snp.log1p((x - b) / b) / (snp.log(b) - snp.log(a))

    def _ppf(self, q, a, b):
        return snp.exp(snp.log(a) + q * (snp.log(b) - snp.log(a)))

    def _isf(self, q, a, b):
        return snp.exp(snp.log(b) - q * (snp.log(b) - snp.log(a)))

    def _munp(self, n, a, b):
        return (b**n - a**n) / (n * (snp.log(b) - snp.log(a)))

    def _entropy(self, a, b):
        return 0.5 * (snp.log(a) + snp.log(b)) + snp.log(snp.log(b) - snp.log(a))

    def _fitstart(self, data):
        return (0.5, 2.0)


class invgauss_gen(_NumericQuantile, rv_continuous):
    """The inverse Gaussian distribution, shape ``mu``."""

    name, shapes, a = "invgauss", ("mu",), 0.0

    def _logpdf(self, x, mu):
        return -0.5 * _LOG2PI - 1.5 * snp.log(x) - (x - mu) ** 2 / (2.0 * x * mu * mu)

    def _terms(self, x, mu):
        r = 1.0 / snp.sqrt(x)
        return r * (x / mu - 1.0), 2.0 / mu + _sf.log_ndtr(-r * (x / mu + 1.0))

    def _cdf(self, x, mu):
        z, lg = self._terms(x, mu)
        return _sf.ndtr(z) + snp.exp(lg)

    def _sf(self, x, mu):
        z, lg = self._terms(x, mu)
        plain = _sf.ndtr(-z) - snp.exp(lg)
        # x > mu: both terms are phi(z1) times a Mills ratio (z2^2/2 = z1^2/2 +
        # 2/mu), so sf = e^(-z1^2/2) (erfcx(z1/sqrt2) - erfcx(z2/sqrt2)) / 2 with
        # the exponent in double-double.  The plain difference cancels by
        # about x / (2 mu) and carried exp(lg)'s |lg| eps: 1.7e-12 at sf =
        # 1e-100 (x = 40.6, mu = 0.3); this form carries a few ulp of erfcx.
        far, dd, eh, el, diff, _ = self._far(x, mu)
        mills = 0.5 * snp.where(dd, snp.exp(-eh) * (1.0 - el), snp.exp(-eh)) * diff
        return snp.where(far, mills, plain)

    def _logsf(self, x, mu):
        far, dd, eh, el, _, ldiff = self._far(x, mu)
        # below 2 mu: log1p(-cdf) while the cdf < 1/2, else log sf
        xs = snp.where(far, mu, x)
        cdf = invgauss_gen._cdf(self, xs, mu)
        near = snp.where(cdf < 0.5, snp.log1p(-snp.minimum(cdf, 0.5)),
                         snp.log(invgauss_gen._sf(self, xs, mu)))
        return snp.where(far, -eh - snp.where(dd, el, 0.0) - _LOG2 + ldiff, near)

    @staticmethod
    def _far(x, mu):
        # Past x = 2 mu: the exponent z1^2/2 = (x - mu)^2/(2 x mu^2) (eh + el,
        # in double-double below x = 1e100 where its products stay finite,
        # else eh alone, whose few ulp only matter to the log) and the
        # difference of the Mills ratios erfcx(z1/sqrt2) - erfcx(z2/sqrt2).
        # That difference cancels by (z2 - z1)/z1 ~ 2 mu/x and reaches 0 at
        # x ~ 1e32 (log sf was -inf at wald x = 1e8, NaN from x ~ 1e248 by
        # the double-double's overflow), so from z1 = 30 it is the asymptotic
        # series R(z) = sum_m (-1)^m (2m-1)!! z^-(2m+1) with each
        # z1^-n - z2^-n = (1/z1 - 1/z2) sum_k z1^-k z2^-(n-1-k) formed
        # without cancellation (1/z1 - 1/z2 = 2 r/(z1 z2)); 9 terms leave
        # 17!!/30^18 = 1e-19.
        far = x > 2.0 * mu
        xs, ms = snp.where(far, x, 1.0), snp.where(far, mu, 0.25)
        dd = xs < 1e100
        xd = snp.where(dd, xs, 3.0 * ms)
        dh, dl = _util.two_sum(xd, -ms)
        nh, nl = _util.dd_mul(dh, dl, dh, dl)
        mh, ml = _util.two_prod(ms, ms)
        bh, bl = _util.dd_mul(mh, ml, 2.0 * xd, snp.zeros_like(xd))
        eh, el = _util.dd_div(nh, nl, bh, bl)          # z1^2 / 2
        q = (xs - ms) / ms
        eh = snp.where(dd, eh, 0.5 * q * (q / xs))
        r = 1.0 / snp.sqrt(xs)
        z1, z2 = r * (xs / ms - 1.0), r * (xs / ms + 1.0)
        asym = z1 > 30.0
        z1e, z2e = snp.where(asym, 1.0, z1), snp.where(asym, 1.0, z2)
        diff = _sf.erfcx(z1e / _SQRT2) - _sf.erfcx(z2e / _SQRT2)
        z1a, z2a = snp.where(asym, z1, 40.0), snp.where(asym, z2, 41.0)
        a1, a2 = 1.0 / z1a, 1.0 / z2a
        p, sn, series, coef = a1, 1.0, 1.0, 1.0    # a1^n, S_n, sum / d, (2m-1)!!
        for n in range(2, 18):
            sn = p + a2 * sn
            p = p * a1
            if n % 2:
                coef = -coef * (n - 2)
                series = series + coef * sn
        series = math.sqrt(2.0 / _PI) * series
        # d = 2 r/(z1 z2) underflows from x ~ 1e123: its log by parts
        ldiff = snp.where(asym, snp.log(2.0 * r * series) - snp.log(z1a) - snp.log(z2a),
                          snp.log(diff))
        diff = snp.where(asym, 2.0 * r * a1 * a2 * series, diff)
        return far, dd, eh, el, diff, ldiff

    def _stats(self, mu):
        return mu, mu**3, 3.0 * snp.sqrt(mu), 15.0 * mu


class wald_gen(invgauss_gen):
    """The Wald distribution (inverse Gaussian with ``mu = 1``)."""

    name, shapes = "wald", ()

    def _logpdf(self, x):
        return super()._logpdf(x, 1.0)

    def _cdf(self, x):
        return super()._cdf(x, 1.0)

    def _sf(self, x):
        return super()._sf(x, 1.0)

    def _logsf(self, x):
        return super()._logsf(x, 1.0)

    def _stats(self):
        return 1.0, 1.0, 3.0, 15.0


class fatiguelife_gen(rv_continuous):
    """The fatigue-life (Birnbaum-Saunders) distribution, shape ``c``."""

    name, shapes, a = "fatiguelife", ("c",), 0.0

    def _logpdf(self, x, c):
        return (snp.log(x + 1.0) - snp.log(2.0 * c) - 0.5 * _LOG2PI - 1.5 * snp.log(x)
                - (x - 1.0) ** 2 / (2.0 * x * c * c))

    def _z(self, x, c):
        return (snp.sqrt(x) - 1.0 / snp.sqrt(x)) / c

    def _cdf(self, x, c):
        return _sf.ndtr(self._z(x, c))

    def _sf(self, x, c):
        return _sf.ndtr(-self._z(x, c))

    def _logcdf(self, x, c):
        return _sf.log_ndtr(self._z(x, c))

    def _logsf(self, x, c):
        return _sf.log_ndtr(-self._z(x, c))

    def _ppf(self, q, c):
        t = c * _sf.ndtri(q)
        return 0.25 * (t + snp.sqrt(t * t + 4.0)) ** 2

    def _isf(self, q, c):
        t = -c * _sf.ndtri(q)
        return 0.25 * (t + snp.sqrt(t * t + 4.0)) ** 2

    def _stats(self, c):
        c2 = c * c
        den = 5.0 * c2 + 4.0
        return (c2 / 2.0 + 1.0, c2 * den / 4.0,
                4.0 * c * (11.0 * c2 + 6.0) / den**1.5,
                6.0 * c2 * (93.0 * c2 + 40.0) / den**2)


class johnsonsu_gen(rv_continuous):
    """Johnson's S_U distribution, shapes ``a`` (real) and ``b > 0``."""

    name, shapes = "johnsonsu", ("a", "b")
    _shape_domain = ((-_INF, _INF), (0.0, _INF))

    def _z(self, x, a, b):
        return a + b * snp.arcsinh(x)

    def _logpdf(self, x, a, b):
        z = self._z(x, a, b)
        return snp.log(b) - 0.5 * snp.log1p(x * x) - 0.5 * z * z - 0.5 * _LOG2PI

    def _cdf(self, x, a, b):
        return _sf.ndtr(self._z(x, a, b))

    def _sf(self, x, a, b):
        return _sf.ndtr(-self._z(x, a, b))

    def _ppf(self, q, a, b):
        return snp.sinh((_sf.ndtri(q) - a) / b)

    def _isf(self, q, a, b):
        return snp.sinh((-_sf.ndtri(q) - a) / b)


class johnsonsb_gen(rv_continuous):
    """Johnson's S_B distribution on ``[0, 1]``, shapes ``a`` (real) and ``b > 0``."""

    name, shapes, a, b = "johnsonsb", ("a", "b"), 0.0, 1.0
    _shape_domain = ((-_INF, _INF), (0.0, _INF))

    def _z(self, x, a, b):
        return a + b * (snp.log(x) - snp.log1p(-x))

    def _logpdf(self, x, a, b):
        z = self._z(x, a, b)
        return (snp.log(b) - snp.log(x) - snp.log1p(-x) - 0.5 * z * z - 0.5 * _LOG2PI)

    def _cdf(self, x, a, b):
        return _sf.ndtr(self._z(x, a, b))

    def _sf(self, x, a, b):
        return _sf.ndtr(-self._z(x, a, b))

    def _ppf(self, q, a, b):
        return lax.logistic((_sf.ndtri(q) - a) / b)

    def _isf(self, q, a, b):
        return lax.logistic((-_sf.ndtri(q) - a) / b)


class exponnorm_gen(_NumericQuantile, rv_continuous):
    """The exponentially modified normal distribution, shape ``K``."""

    name, shapes = "exponnorm", ("K",)

    def _logpdf(self, x, k):
        return (-snp.log(k) + 0.5 / (k * k) - x / k + _sf.log_ndtr(x - 1.0 / k))

    def _cdf(self, x, k):
        return _sf.ndtr(x) - snp.exp(0.5 / (k * k) - x / k + _sf.log_ndtr(x - 1.0 / k))

    def _sf(self, x, k):
        return _sf.ndtr(-x) + snp.exp(0.5 / (k * k) - x / k + _sf.log_ndtr(x - 1.0 / k))

    def _stats(self, k):
        k2 = k * k
        return (k, 1.0 + k2, 2.0 * k * k2 / (1.0 + k2) ** 1.5,
                6.0 * k2 * k2 / (1.0 + k2) ** 2)


class genhalflogistic_gen(rv_continuous):
    """The generalized half-logistic distribution on ``[0, 1/c]``, shape ``c``."""

    name, shapes, a = "genhalflogistic", ("c",), 0.0
    _support_depends_on_shapes = True

    def _support(self, c):
        return 0.0 * c, 1.0 / c

    def _logpdf(self, x, c):
        # at the end x = 1/c, lt - log1p(-c x) = (1/c - 1) log(0): its limit
        # -inf for c < 1, log 2 at c = 1, +inf for c > 1
        end = c * x == 1.0
        xs = snp.where(end, 0.0, x)
        lt = snp.log1p(-c * xs) / c  # log of t = (1 - c x)^(1/c)
        lim = _sf.log_power_end(1.0 / c, _LOG2)
        return snp.where(end, lim,
                         _LOG2 + lt - snp.log1p(-c * xs) - 2.0 * _softplus(lt))

    @staticmethod
    def _lt(x, c):
        # log t = log(1 - c x)/c, 1 - c x from the exact product past c x =
        # 1/2 (near x = 1/c the rounded c x cost eps/(1 - c x) relative: 2e-11
        # at sf = 1e-12), log1p below
        p, e = _util.two_prod(c, x)
        near = p > 0.5
        return snp.where(near, snp.log(snp.where(near, (1.0 - p) - e, 1.0)),
                         snp.log1p(-snp.where(near, 0.0, p))) / c

    def _cdf(self, x, c):
        # 1 - t by expm1 (it cancelled near 0: 6.7e-7 relative at cdf =
        # 1e-12, c = 1.5)
        lt = self._lt(x, c)
        return -snp.expm1(lt) / (1.0 + snp.exp(lt))

    def _sf(self, x, c):
        t = snp.exp(self._lt(x, c))
        return 2.0 * t / (1.0 + t)

    def _ppf(self, q, c):
        return (1.0 - ((1.0 - q) / (1.0 + q)) ** c) / c

    def _isf(self, q, c):
        return (1.0 - (q / (2.0 - q)) ** c) / c

    def _entropy(self, c):
        return 2.0 - (2.0 * c + 1.0) * _LOG2


class wrapcauchy_gen(rv_continuous):
    """The wrapped Cauchy distribution on ``[0, 2 pi]``, shape ``0 < c < 1``."""

    name, shapes, a, b = "wrapcauchy", ("c",), 0.0, 2.0 * _PI
    _shape_domain = ((0.0, 1.0),)

    def _logpdf(self, x, c):
        return (snp.log1p(-c * c) - math.log(2.0 * _PI)
                - snp.log(1.0 + c * c - 2.0 * c * snp.cos(x)))

    def _cdf(self, x, c):
        r = (1.0 + c) / (1.0 - c)
        lower = snp.arctan(r * snp.tan(0.5 * x)) / _PI
        upper = 1.0 - snp.arctan(r * snp.tan(0.5 * (2.0 * _PI - x))) / _PI
        return snp.where(x < _PI, lower, upper)

    def _sf(self, x, c):
        return 1.0 - self._cdf(x, c)

    def _ppf(self, q, c):
        r = (1.0 - c) / (1.0 + c)
        return snp.where(q < 0.5, 2.0 * snp.arctan(r * snp.tan(_PI * q)),
                         2.0 * _PI - 2.0 * snp.arctan(r * snp.tan(_PI * (1.0 - q))))

    def _entropy(self, c):
        return snp.log(2.0 * _PI * (1.0 - c * c))

    def _fitstart(self, data):
        return (0.5,)


anglit = anglit_gen()
bradford = bradford_gen()
cosine = cosine_gen()
exponweib = exponweib_gen()
exponpow = exponpow_gen()
genlogistic = genlogistic_gen()
gibrat = gibrat_gen()
hypsecant = hypsecant_gen()
loglaplace = loglaplace_gen()
moyal = moyal_gen()
powerlognorm = powerlognorm_gen()
powernorm = powernorm_gen()
semicircular = semicircular_gen()
truncexpon = truncexpon_gen()
truncnorm = truncnorm_gen()
trapezoid = trapezoid_gen()
loguniform = reciprocal_gen()
reciprocal = reciprocal_gen()
reciprocal.name = "reciprocal"
invgauss = invgauss_gen()
wald = wald_gen()
fatiguelife = fatiguelife_gen()
johnsonsu = johnsonsu_gen()
johnsonsb = johnsonsb_gen()
exponnorm = exponnorm_gen()
genhalflogistic = genhalflogistic_gen()
wrapcauchy = wrapcauchy_gen()

__all__ = ["anglit", "bradford", "cosine", "exponweib", "exponpow", "genlogistic",
           "gibrat", "hypsecant", "loglaplace", "moyal", "powerlognorm", "powernorm",
           "semicircular", "truncexpon", "truncnorm", "trapezoid", "loguniform",
           "reciprocal", "invgauss", "wald", "fatiguelife", "johnsonsu", "johnsonsb",
           "exponnorm", "genhalflogistic", "wrapcauchy"]
