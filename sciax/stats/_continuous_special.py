"""Continuous distributions whose CDFs and quantiles are incomplete gamma or
beta functions: the densities and moments work today (log-gamma and digamma
come from :mod:`sciax.lax`); ``cdf``/``sf``/``ppf``/``isf`` call
:mod:`sciax.special` (``gammainc``, ``betainc`` and their inverses) through
:mod:`sciax.stats._sf` and raise ``NotImplementedError`` until it has them.
"""

from __future__ import annotations

import math

import sciax.numpy as snp
import sciax.random
from sciax import lax

from sciax.stats import _sf
from sciax.stats._distn_base import rv_continuous

_INF = math.inf
_NAN = math.nan
_LOG2 = math.log(2.0)
_EULER = 0.5772156649015329


def _gamma(x):
    return snp.exp(lax.lgamma(x))


class gamma_gen(rv_continuous):
    """The gamma distribution, shape ``a``."""

    name, shapes, a = "gamma", ("a",), 0.0

    def _logpdf(self, x, a):
        return _sf.xlogy(a - 1.0, x) - x - lax.lgamma(a)

    def _cdf(self, x, a):
        return _sf.gammainc(a, x)

    def _sf(self, x, a):
        return _sf.gammaincc(a, x)

    def _ppf(self, q, a):
        return _sf.gammaincinv(a, q)

    def _isf(self, q, a):
        return _sf.gammainccinv(a, q)

    def _stats(self, a):
        return a, a, 2.0 / snp.sqrt(a), 6.0 / a

    def _munp(self, n, a):
        return snp.exp(lax.lgamma(a + n) - lax.lgamma(a))

    def _entropy(self, a):
        return a + lax.lgamma(a) + (1.0 - a) * lax.digamma(a)

    def _rvs(self, key, shape, dtype, a):
        x = sciax.random.gamma(key, lax.stop_gradient(a), shape, dtype)
        return self._implicit_reparam(x, a)

    def _fit_closed_form(self, data, fixed):
        """The MLE with ``loc`` fixed (as SciPy's ``gamma.fit(floc=...)``):
        the score equations are ``scale = mean(y) / a`` and ``log(a) -
        digamma(a) = log(mean(y)) - mean(log(y))`` for ``y = data - loc``
        (one scalar root), or ``digamma(a) = mean(log(y)) - log(scale)`` with
        ``scale`` fixed.  NaN where some ``y <= 0`` (SciPy raises)."""
        if "loc" not in fixed:
            return None
        loc = fixed["loc"]
        y = data - loc
        ly = snp.mean(snp.log(y))
        if "a" in fixed:
            a = fixed["a"]
            return a, loc, fixed.get("scale", snp.mean(y) / a)
        if "scale" in fixed:
            scale = fixed["scale"]
            return _inv_digamma(ly - snp.log(scale)), loc, scale
        my = snp.mean(y)
        a = _gamma_shape_mle(snp.log(my) - ly)
        return a, loc, my / a


def _gamma_shape_mle(s):
    """The root ``a`` of ``log(a) - digamma(a) = s`` (``s > 0``): T. Minka's
    starting value (within 1.5% of the root, "Estimating a gamma
    distribution", 2002), then Newton's method, whose iterates approach the
    root of this convex decreasing function from one side: 6 steps are far
    more than machine precision needs from that start."""
    a = (3.0 - s + snp.sqrt((s - 3.0) ** 2 + 24.0 * s)) / (12.0 * s)
    for _ in range(6):
        f = snp.log(a) - lax.digamma(a) - s
        df = 1.0 / a - lax.polygamma(1.0, a)
        a_new = a - f / df
        a = snp.where(a_new > 0, a_new, 0.5 * a)
    return a


def _inv_digamma(m):
    """The root ``a > 0`` of ``digamma(a) = m``: Minka's starting value
    (``exp(m) + 1/2`` for ``m >= -2.22``, else ``-1/(m + euler_gamma)``), then
    Newton's method (digamma is increasing and concave)."""
    a = snp.where(m >= -2.22, snp.exp(m) + 0.5, -1.0 / (m + _EULER))
    for _ in range(6):
        a_new = a - (lax.digamma(a) - m) / lax.polygamma(1.0, a)
        a = snp.where(a_new > 0, a_new, 0.5 * a)
    return a


class erlang_gen(gamma_gen):
    """The Erlang distribution (a gamma distribution with integer shape)."""

    name = "erlang"


class chi2_gen(rv_continuous):
    """The chi-squared distribution, ``df`` degrees of freedom."""

    name, shapes, a = "chi2", ("df",), 0.0

    def _logpdf(self, x, df):
        h = 0.5 * df
        return _sf.xlogy(h - 1.0, x) - 0.5 * x - lax.lgamma(h) - h * _LOG2

    def _cdf(self, x, df):
        return _sf.gammainc(0.5 * df, 0.5 * x)

    def _sf(self, x, df):
        return _sf.gammaincc(0.5 * df, 0.5 * x)

    def _ppf(self, q, df):
        return 2.0 * _sf.gammaincinv(0.5 * df, q)

    def _isf(self, q, df):
        return 2.0 * _sf.gammainccinv(0.5 * df, q)

    def _stats(self, df):
        return df, 2.0 * df, snp.sqrt(8.0 / df), 12.0 / df

    def _entropy(self, df):
        h = 0.5 * df
        return h + _LOG2 + lax.lgamma(h) + (1.0 - h) * lax.digamma(h)

    def _rvs(self, key, shape, dtype, df):
        x = 2.0 * sciax.random.gamma(key, lax.stop_gradient(0.5 * df), shape, dtype)
        return self._implicit_reparam(x, df)


class chi_gen(rv_continuous):
    """The chi distribution, ``df`` degrees of freedom."""

    name, shapes, a = "chi", ("df",), 0.0

    def _logpdf(self, x, df):
        return (_sf.xlogy(df - 1.0, x) - 0.5 * x * x - (0.5 * df - 1.0) * _LOG2
                - lax.lgamma(0.5 * df))

    def _cdf(self, x, df):
        return _sf.gammainc(0.5 * df, 0.5 * x * x)

    def _sf(self, x, df):
        return _sf.gammaincc(0.5 * df, 0.5 * x * x)

    def _ppf(self, q, df):
        return snp.sqrt(2.0 * _sf.gammaincinv(0.5 * df, q))

    def _isf(self, q, df):
        return snp.sqrt(2.0 * _sf.gammainccinv(0.5 * df, q))

    def _munp(self, n, df):
        return 2.0 ** (0.5 * n) * snp.exp(lax.lgamma(0.5 * (df + n))
                                          - lax.lgamma(0.5 * df))

    def _entropy(self, df):
        h = 0.5 * df
        return lax.lgamma(h) + 0.5 * (df - _LOG2 - (df - 1.0) * lax.digamma(h))


class maxwell_gen(rv_continuous):
    """The Maxwell-Boltzmann speed distribution (chi with 3 degrees of freedom)."""

    name, shapes, a = "maxwell", (), 0.0

    def _logpdf(self, x):
        return 0.5 * math.log(2.0 / math.pi) + 2.0 * snp.log(x) - 0.5 * x * x

    def _cdf(self, x):
        return _sf.gammainc(1.5, 0.5 * x * x)

    def _sf(self, x):
        return _sf.gammaincc(1.5, 0.5 * x * x)

    def _ppf(self, q):
        return snp.sqrt(2.0 * _sf.gammaincinv(1.5, q))

    def _isf(self, q):
        return snp.sqrt(2.0 * _sf.gammainccinv(1.5, q))

    def _stats(self):
        pi = math.pi
        return (2.0 * math.sqrt(2.0 / pi), 3.0 - 8.0 / pi,
                2.0 * math.sqrt(2.0) * (16.0 - 5.0 * pi) / (3.0 * pi - 8.0) ** 1.5,
                4.0 * (-96.0 + 40.0 * pi - 3.0 * pi * pi) / (3.0 * pi - 8.0) ** 2)

    def _entropy(self):
        return _EULER + 0.5 * math.log(2.0 * math.pi) - 0.5


class nakagami_gen(rv_continuous):
    """The Nakagami distribution, shape ``nu``."""

    name, shapes, a = "nakagami", ("nu",), 0.0

    def _logpdf(self, x, nu):
        return (_LOG2 + nu * snp.log(nu) - lax.lgamma(nu)
                + _sf.xlogy(2.0 * nu - 1.0, x) - nu * x * x)

    def _cdf(self, x, nu):
        return _sf.gammainc(nu, nu * x * x)

    def _sf(self, x, nu):
        return _sf.gammaincc(nu, nu * x * x)

    def _ppf(self, q, nu):
        return snp.sqrt(_sf.gammaincinv(nu, q) / nu)

    def _isf(self, q, nu):
        return snp.sqrt(_sf.gammainccinv(nu, q) / nu)

    def _munp(self, n, nu):
        return snp.exp(lax.lgamma(nu + 0.5 * n) - lax.lgamma(nu)) / nu ** (0.5 * n)


class invgamma_gen(rv_continuous):
    """The inverse gamma distribution, shape ``a``."""

    name, shapes, a = "invgamma", ("a",), 0.0

    def _logpdf(self, x, a):
        return -(a + 1.0) * snp.log(x) - lax.lgamma(a) - 1.0 / x

    def _cdf(self, x, a):
        return _sf.gammaincc(a, 1.0 / x)

    def _sf(self, x, a):
        return _sf.gammainc(a, 1.0 / x)

    def _ppf(self, q, a):
        return 1.0 / _sf.gammainccinv(a, q)

    def _isf(self, q, a):
        return 1.0 / _sf.gammaincinv(a, q)

    def _munp(self, n, a):
        ok = a > n
        return snp.where(ok, snp.exp(lax.lgamma(snp.where(ok, a - n, 1.0))
                                     - lax.lgamma(a)), _INF)

    def _entropy(self, a):
        return a - (a + 1.0) * lax.digamma(a) + lax.lgamma(a)


class gennorm_gen(rv_continuous):
    """The generalized normal (exponential power) distribution, shape ``beta``."""

    name, shapes = "gennorm", ("beta",)

    def _logpdf(self, x, beta):
        return snp.log(0.5 * beta) - lax.lgamma(1.0 / beta) - snp.abs(x) ** beta

    def _cdf(self, x, beta):
        tail = 0.5 * _sf.gammaincc(1.0 / beta, snp.abs(x) ** beta)
        return snp.where(x < 0, tail, 1.0 - tail)

    def _sf(self, x, beta):
        return self._cdf(-x, beta)

    def _ppf(self, q, beta):
        lower = q < 0.5
        t = snp.where(lower, 2.0 * q, 2.0 * (1.0 - q))
        y = _sf.gammainccinv(1.0 / beta, t) ** (1.0 / beta)
        return snp.where(lower, -y, y)

    def _isf(self, q, beta):
        return -self._ppf(q, beta)

    def _stats(self, beta):
        c1, c3, c5 = (lax.lgamma(k / beta) for k in (1.0, 3.0, 5.0))
        return 0.0 * beta, snp.exp(c3 - c1), 0.0 * beta, snp.exp(c5 + c1 - 2 * c3) - 3.0

    def _entropy(self, beta):
        return 1.0 / beta - snp.log(0.5 * beta) + lax.lgamma(1.0 / beta)


class loggamma_gen(rv_continuous):
    """The log-gamma distribution (log of a gamma variate), shape ``c``."""

    name, shapes = "loggamma", ("c",)

    def _logpdf(self, x, c):
        return c * x - snp.exp(x) - lax.lgamma(c)

    def _cdf(self, x, c):
        return _sf.gammainc(c, snp.exp(x))

    def _logcdf(self, x, c):
        # P(c, y) = y^c e^-y / Gamma(c + 1) (1 + y/(c + 1) + ...), y = e^x:
        # below x = -30 (y < 1e-13) log P = c x - lgamma(c + 1) - c y/(c + 1)
        # to O(y^2), finite where y^c underflows (x = -987 at c = 0.7)
        low = x < -30.0
        y = snp.exp(x)
        series = c * x - lax.lgamma(c + 1.0) - c * y / (c + 1.0)
        return snp.where(low, series, super()._logcdf(snp.where(low, 0.0, x), c))

    def _sf(self, x, c):
        return _sf.gammaincc(c, snp.exp(x))

    def _ppf(self, q, c):
        return snp.log(_sf.gammaincinv(c, q))

    def _isf(self, q, c):
        return snp.log(_sf.gammainccinv(c, q))

    def _stats(self, c):
        p1, p2, p3 = (_sf.polygamma(k, c) for k in (1, 2, 3))
        return lax.digamma(c), p1, p2 / p1**1.5, p3 / p1**2


class t_gen(rv_continuous):
    """Student's t distribution, ``df`` degrees of freedom.

    ``df = inf`` is allowed and gives the standard normal distribution, as in
    SciPy (every method switches to the normal's formula there; the finite
    branch is evaluated at a harmless ``df`` so derivatives stay finite).
    """

    name, shapes = "t", ("df",)

    def _argcheck(self, df):
        return snp.asarray(df > 0)

    @staticmethod
    def _split_df(df):
        inf = snp.isinf(df)
        return inf, snp.where(inf, 1.0, df)

    def _logpdf(self, x, df):
        inf, d = self._split_df(df)
        lp = (lax.lgamma(0.5 * (d + 1.0)) - lax.lgamma(0.5 * d)
              - 0.5 * snp.log(d * math.pi) - 0.5 * (d + 1.0) * snp.log1p(x * x / d))
        return snp.where(inf, -0.5 * x * x - 0.5 * math.log(2 * math.pi), lp)

    def _tail(self, x, df):
        # P(T > |x|) = I_{df/(df+x^2)}(df/2, 1/2) / 2
        return 0.5 * _sf.betainc(0.5 * df, 0.5, df / (df + x * x))

    def _cdf(self, x, df):
        # For |x| <= 1, 1/2 + sign(x) I_{x^2/(df+x^2)}(1/2, df/2) / 2: the tail
        # form's df/(df + x^2) rounds to 1 near x = 0 (2e-10 relative error at
        # x = 9e-7, df = 4.5).  Beyond, the tail form, which never cancels.
        # One betainc call with the parameters of either form.
        inf, d = self._split_df(df)
        x2 = x * x
        centre = x2 <= 1.0
        i = _sf.betainc(snp.where(centre, 0.5, 0.5 * d), snp.where(centre, 0.5 * d, 0.5),
                        snp.where(centre, x2, d) / (d + x2))
        v = snp.where(centre, 0.5 + 0.5 * snp.sign(x) * i,
                      snp.where(x < 0, 0.5 * i, 1.0 - 0.5 * i))
        return snp.where(inf, _sf.ndtr(x), v)

    def _sf(self, x, df):
        return self._cdf(-x, df)

    def _ppf(self, q, df):
        inf, d = self._split_df(df)
        lower = q < 0.5
        p = snp.where(lower, 2.0 * q, 2.0 * (1.0 - q))
        z = _sf.betaincinv(0.5 * d, 0.5, p)
        y = snp.sqrt(d * (1.0 - z) / z)
        return snp.where(inf, _sf.ndtri(q), snp.where(lower, -y, y))

    def _isf(self, q, df):
        return -self._ppf(q, df)

    def _stats(self, df):
        inf = snp.isinf(df)
        mu = snp.where(df > 1, 0.0, _NAN)
        mu2 = snp.where(df > 2, df / snp.where((df > 2) & ~inf, df - 2.0, 1.0),
                        snp.where(df > 1, _INF, _NAN))
        mu2 = snp.where(inf, 1.0, mu2)
        g1 = snp.where(df > 3, 0.0, _NAN)
        g2 = snp.where(df > 4, 6.0 / snp.where(df > 4, df - 4.0, 1.0),
                       snp.where(df > 2, _INF, _NAN))
        return mu, mu2, g1, g2

    def _entropy(self, df):
        inf, d = self._split_df(df)
        h = 0.5 * (d + 1.0)
        ent = (h * (lax.digamma(h) - lax.digamma(0.5 * d))
               + 0.5 * snp.log(d) + _sf.betaln(0.5 * d, 0.5))
        return snp.where(inf, 0.5 * math.log(2 * math.pi * math.e), ent)

    def _rvs(self, key, shape, dtype, df):
        inf, d = self._split_df(df)
        # the finite-df stream is unchanged (the key goes to random.t as before)
        z = sciax.random.normal(sciax.random.split(key)[1], shape, dtype)
        return snp.where(inf, z, sciax.random.t(key, d, shape, dtype))


class beta_gen(rv_continuous):
    """The beta distribution on ``[0, 1]``, shapes ``a, b``."""

    name, shapes, a, b = "beta", ("a", "b"), 0.0, 1.0

    def _logpdf(self, x, a, b):
        return _sf.xlogy(a - 1.0, x) + _sf.xlog1py(b - 1.0, -x) - _sf.betaln(a, b)

    def _cdf(self, x, a, b):
        return _sf.betainc(a, b, x)

    def _sf(self, x, a, b):
        return _sf.betainc(b, a, 1.0 - x)

    def _ppf(self, q, a, b):
        return _sf.betaincinv(a, b, q)

    def _isf(self, q, a, b):
        return 1.0 - _sf.betaincinv(b, a, q)

    def _stats(self, a, b):
        s = a + b
        return (a / s, a * b / (s * s * (s + 1.0)),
                2.0 * (b - a) * snp.sqrt(s + 1.0) / ((s + 2.0) * snp.sqrt(a * b)),
                6.0 * ((a - b) ** 2 * (s + 1.0) - a * b * (s + 2.0))
                / (a * b * (s + 2.0) * (s + 3.0)))

    def _entropy(self, a, b):
        return (_sf.betaln(a, b) - (a - 1.0) * lax.digamma(a)
                - (b - 1.0) * lax.digamma(b) + (a + b - 2.0) * lax.digamma(a + b))

    def _rvs(self, key, shape, dtype, a, b):
        x = sciax.random.beta(key, lax.stop_gradient(a), lax.stop_gradient(b), shape,
                              dtype)
        return self._implicit_reparam(x, a, b)


class betaprime_gen(rv_continuous):
    """The beta prime (beta of the second kind) distribution, shapes ``a, b``."""

    name, shapes, a = "betaprime", ("a", "b"), 0.0

    def _logpdf(self, x, a, b):
        return _sf.xlogy(a - 1.0, x) - (a + b) * snp.log1p(x) - _sf.betaln(a, b)

    def _cdf(self, x, a, b):
        return _sf.betainc(a, b, x / (1.0 + x))

    def _sf(self, x, a, b):
        return _sf.betainc(b, a, 1.0 / (1.0 + x))

    def _ppf(self, q, a, b):
        z = _sf.betaincinv(a, b, q)
        return z / (1.0 - z)

    def _isf(self, q, a, b):
        z = _sf.betaincinv(b, a, q)
        return (1.0 - z) / z

    def _munp(self, n, a, b):
        ok = b > n
        bn = snp.where(ok, b - n, 1.0)
        return snp.where(ok, snp.exp(_sf.betaln(a + n, bn) - _sf.betaln(a, b)), _INF)


class f_gen(rv_continuous):
    """The F distribution, ``dfn`` and ``dfd`` degrees of freedom."""

    name, shapes, a = "f", ("dfn", "dfd"), 0.0

    def _logpdf(self, x, m, n):
        return (0.5 * m * snp.log(m) + 0.5 * n * snp.log(n) + _sf.xlogy(0.5 * m - 1.0, x)
                - 0.5 * (m + n) * snp.log(n + m * x) - _sf.betaln(0.5 * m, 0.5 * n))

    def _cdf(self, x, m, n):
        return _sf.betainc(0.5 * m, 0.5 * n, m * x / (m * x + n))

    def _sf(self, x, m, n):
        return _sf.betainc(0.5 * n, 0.5 * m, n / (n + m * x))

    def _ppf(self, q, m, n):
        z = _sf.betaincinv(0.5 * m, 0.5 * n, q)
        return n * z / (m * (1.0 - z))

    def _isf(self, q, m, n):
        z = _sf.betaincinv(0.5 * n, 0.5 * m, q)
        return n * (1.0 - z) / (m * z)

    def _stats(self, m, n):
        def guard(cond, v, other=_NAN):
            return snp.where(cond, v, other)

        n2, n4, n6, n8 = (snp.where(n > k, n - k, 1.0) for k in (2.0, 4.0, 6.0, 8.0))
        mu = guard(n > 2, n / n2, _INF)
        mu2 = guard(n > 4, 2 * n * n * (m + n - 2) / (m * n2**2 * n4), _INF)
        g1 = guard(n > 6, (2 * m + n - 2) * snp.sqrt(8 * n4)
                   / (n6 * snp.sqrt(m * (m + n - 2))))
        g2 = guard(n > 8, 12 * (m * (5 * n - 22) * (m + n - 2) + n4 * n2**2)
                   / (m * n6 * n8 * (m + n - 2)))
        return mu, mu2, g1, g2


gamma = gamma_gen()
erlang = erlang_gen()
chi2 = chi2_gen()
chi = chi_gen()
maxwell = maxwell_gen()
nakagami = nakagami_gen()
invgamma = invgamma_gen()
gennorm = gennorm_gen()
loggamma = loggamma_gen()
t = t_gen()
beta = beta_gen()
betaprime = betaprime_gen()
f = f_gen()

__all__ = ["gamma", "erlang", "chi2", "chi", "maxwell", "nakagami", "invgamma",
           "gennorm", "loggamma", "t", "beta", "betaprime", "f"]
