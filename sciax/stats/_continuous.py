"""Continuous distributions whose functions are elementary (or need only the
normal CDF): each class gives the standardized functions of SciPy's
parametrisation; :mod:`sciax.stats._distn_base` adds the rest.

Formulas are the standard ones (SciPy's documentation of each distribution,
Johnson, Kotz and Balakrishnan, *Continuous Univariate Distributions*),
rewritten with ``log1p``/``expm1`` where that keeps precision in the tails.
"""

from __future__ import annotations

import math

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.random
from sciax import lax

from sciax.stats import _sf
from sciax.stats._distn_base import rv_continuous

_INF = math.inf
_NAN = math.nan
_EULER = 0.5772156649015329
_ZETA3 = 1.2020569031595942  # Apery's constant
_LOG2 = math.log(2.0)
_LOG2PI = math.log(2.0 * math.pi)
_PI = math.pi


def _softplus(x):
    return snp.logaddexp(x, 0.0)


def _logit(q):
    return snp.log(q) - snp.log1p(-q)


def _gamma(x):
    return snp.exp(lax.lgamma(x))


def _pos(cond, value, other=_INF):
    """``value`` where ``cond``, else ``other`` (finite-moment guards)."""
    return snp.where(cond, value, other)


# --- location-scale families -------------------------------------------------------


class norm_gen(rv_continuous):
    """The normal distribution."""

    name, shapes = "norm", ()

    def _logpdf(self, x):
        return -0.5 * x * x - 0.5 * _LOG2PI

    def _cdf(self, x):
        return _sf.ndtr(x)

    def _sf(self, x):
        return _sf.ndtr(-x)

    def _logcdf(self, x):
        return _sf.log_ndtr(x)

    def _logsf(self, x):
        return _sf.log_ndtr(-x)

    def _ppf(self, q):
        return _sf.ndtri(q)

    def _isf(self, q):
        return -_sf.ndtri(q)

    def _stats(self):
        return 0.0, 1.0, 0.0, 0.0

    def _entropy(self):
        return 0.5 * (_LOG2PI + 1.0)

    def _rvs(self, key, shape, dtype):
        return sciax.random.normal(key, shape, dtype)

    def _fit_closed_form(self, data, fixed):
        loc = fixed.get("loc", snp.mean(data))
        scale = fixed.get("scale", snp.sqrt(snp.mean((data - loc) ** 2)))
        return loc, scale


class expon_gen(rv_continuous):
    """The exponential distribution."""

    _total_tails = True

    name, shapes, a = "expon", (), 0.0

    def _logpdf(self, x):
        return -x

    def _cdf(self, x):
        return -snp.expm1(-x)

    def _sf(self, x):
        return snp.exp(-x)

    def _logcdf(self, x):
        return snp.log(-snp.expm1(-x))

    def _logsf(self, x):
        return -x

    def _ppf(self, q):
        return -snp.log1p(-q)

    def _isf(self, q):
        return -snp.log(q)

    def _stats(self):
        return 1.0, 1.0, 2.0, 6.0

    def _entropy(self):
        return 1.0

    def _fit_closed_form(self, data, fixed):
        loc = fixed.get("loc", snp.min(data))
        return loc, fixed.get("scale", snp.mean(data) - loc)


class uniform_gen(rv_continuous):
    """The uniform distribution on ``[loc, loc + scale]``."""

    name, shapes, a, b = "uniform", (), 0.0, 1.0

    def _logpdf(self, x):
        return 0.0 * x

    def _cdf(self, x):
        return x

    def _sf(self, x):
        return 1.0 - x

    def _ppf(self, q):
        return q

    def _isf(self, q):
        return 1.0 - q

    def _stats(self):
        return 0.5, 1.0 / 12.0, 0.0, -1.2

    def _entropy(self):
        return 0.0

    def _fit_closed_form(self, data, fixed):
        lo, hi = snp.min(data), snp.max(data)
        if "loc" in fixed and "scale" not in fixed:
            return fixed["loc"], hi - fixed["loc"]
        if "scale" in fixed and "loc" not in fixed:
            return 0.5 * (lo + hi - fixed["scale"]), fixed["scale"]
        return lo, hi - lo


class laplace_gen(rv_continuous):
    """The Laplace (double exponential) distribution."""

    _total_tails = True

    name, shapes = "laplace", ()

    def _logpdf(self, x):
        return -snp.abs(x) - _LOG2

    def _cdf(self, x):
        # one exponential: e^-|x| / 2 is the lower tail, 1 - it the upper
        e = 0.5 * snp.exp(-snp.abs(x))
        return snp.where(x < 0, e, 1.0 - e)

    def _sf(self, x):
        return self._cdf(-x)

    def _logcdf(self, x):
        return snp.where(x < 0, snp.minimum(x, 0.0) - _LOG2,
                         snp.log1p(-0.5 * snp.exp(-snp.maximum(x, 0.0))))

    def _logsf(self, x):
        return self._logcdf(-x)

    def _ppf(self, q):
        return snp.where(q < 0.5, snp.log(2.0 * snp.minimum(q, 0.5)),
                         -snp.log(2.0 - 2.0 * snp.maximum(q, 0.5)))

    def _isf(self, q):
        return -self._ppf(q)

    def _stats(self):
        return 0.0, 2.0, 0.0, 3.0

    def _entropy(self):
        return _LOG2 + 1.0

    def _fit_closed_form(self, data, fixed):
        loc = fixed.get("loc", snp.median(data))
        return loc, fixed.get("scale", snp.mean(snp.abs(data - loc)))


class logistic_gen(rv_continuous):
    """The logistic distribution."""

    _total_tails = True

    name, shapes = "logistic", ()

    def _logpdf(self, x):
        return -snp.abs(x) - 2.0 * snp.log1p(snp.exp(-snp.abs(x)))

    def _cdf(self, x):
        return lax.logistic(x)

    def _sf(self, x):
        return lax.logistic(-x)

    def _logcdf(self, x):
        return -_softplus(-x)

    def _logsf(self, x):
        return -_softplus(x)

    def _ppf(self, q):
        return _logit(q)

    def _isf(self, q):
        return -_logit(q)

    def _stats(self):
        return 0.0, _PI**2 / 3.0, 0.0, 1.2

    def _entropy(self):
        return 2.0


class cauchy_gen(rv_continuous):
    """The Cauchy distribution."""

    _total_tails = True

    name, shapes = "cauchy", ()

    def _logpdf(self, x):
        # log1p(x^2) = 2 log|x| (to 1e-16 relative) past |x| = 1e8, where x^2
        # would overflow from 1.3e154: one log1p either way
        ax = snp.abs(x)
        big = ax > 1e8
        return -math.log(_PI) - snp.where(big, 2.0, 1.0) * snp.log1p(
            snp.where(big, ax - 1.0, x * x))

    def _cdf(self, x):
        # the lower tail as arctan(-1/x) / pi (no cancellation, where 1/2 +
        # arctan(x) / pi would lose it), else 1/2 + arctan(x) / pi; one
        # arctan instead of arctan2(1, -x), which costs ~40% more on the CPU
        low = x < -1.0
        at = snp.arctan(snp.where(low, -1.0 / x, x)) * (1.0 / _PI)
        return snp.where(low, at, 0.5 + at)

    def _sf(self, x):
        return self._cdf(-x)

    def _ppf(self, q):
        # q - 0.5 is exact for q in [0.25, 0.75]; the cotangent forms in the tails
        return snp.where(q < 0.25, -1.0 / snp.tan(_PI * q),
                         snp.where(q > 0.75, 1.0 / snp.tan(_PI * (1.0 - q)),
                                   snp.tan(_PI * (q - 0.5))))

    def _isf(self, q):
        return -self._ppf(q)

    def _stats(self):
        return _NAN, _NAN, _NAN, _NAN

    def _munp(self, n):
        return _NAN if n % 2 else _INF

    def _entropy(self):
        return math.log(4.0 * _PI)


# The Gumbel CDF and SF with the density as their derivative, written so
# that it is 0, not inf * 0, at x = -inf (below x = -10 the density is 0 to
# double precision: exp(-e^10) = exp(-22026)); the values stay the plain
# formulas, which XLA's CPU backend vectorizes best.
@sciax.custom_jvp
def _gumbel_cdf(x):
    return snp.exp(-snp.exp(-x))


@sciax.custom_jvp
def _gumbel_sf(x):
    return -snp.expm1(-snp.exp(-x))


def _gumbel_density(x):
    xc = snp.maximum(x, -10.0)
    return snp.exp(-xc - snp.exp(-xc))


@_gumbel_cdf.defjvp
def _gumbel_cdf_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _gumbel_cdf(x), _gumbel_density(x) * dx


@_gumbel_sf.defjvp
def _gumbel_sf_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _gumbel_sf(x), -_gumbel_density(x) * dx


class gumbel_r_gen(rv_continuous):
    """The right-skewed Gumbel (extreme value type I) distribution."""

    _total_tails = True

    name, shapes = "gumbel_r", ()

    def _logpdf(self, x):
        return -x - snp.exp(-x)

    def _cdf(self, x):
        return _gumbel_cdf(x)

    def _logcdf(self, x):
        return -snp.exp(-x)

    def _sf(self, x):
        return _gumbel_sf(x)

    def _ppf(self, q):
        return -snp.log(-snp.log(q))

    def _isf(self, q):
        return -snp.log(-snp.log1p(-q))

    def _stats(self):
        return (_EULER, _PI**2 / 6.0, 12.0 * math.sqrt(6.0) * _ZETA3 / _PI**3, 2.4)

    def _entropy(self):
        return _EULER + 1.0


class gumbel_l_gen(rv_continuous):
    """The left-skewed Gumbel distribution."""

    name, shapes = "gumbel_l", ()

    def _logpdf(self, x):
        return x - snp.exp(x)

    def _cdf(self, x):
        return -snp.expm1(-snp.exp(x))

    def _sf(self, x):
        return snp.exp(-snp.exp(x))

    def _logsf(self, x):
        return -snp.exp(x)

    def _ppf(self, q):
        return snp.log(-snp.log1p(-q))

    def _isf(self, q):
        return snp.log(-snp.log(q))

    def _stats(self):
        return (-_EULER, _PI**2 / 6.0, -12.0 * math.sqrt(6.0) * _ZETA3 / _PI**3, 2.4)

    def _entropy(self):
        return _EULER + 1.0


class rayleigh_gen(rv_continuous):
    """The Rayleigh distribution."""

    name, shapes, a = "rayleigh", (), 0.0

    def _logpdf(self, x):
        return snp.log(x) - 0.5 * x * x

    def _cdf(self, x):
        return -snp.expm1(-0.5 * x * x)

    def _sf(self, x):
        return snp.exp(-0.5 * x * x)

    def _logsf(self, x):
        return -0.5 * x * x

    def _ppf(self, q):
        return snp.sqrt(-2.0 * snp.log1p(-q))

    def _isf(self, q):
        return snp.sqrt(-2.0 * snp.log(q))

    def _stats(self):
        pi = _PI
        return (math.sqrt(pi / 2), (4 - pi) / 2,
                2 * (pi - 3) * math.sqrt(pi) / (4 - pi) ** 1.5,
                -(6 * pi * pi - 24 * pi + 16) / (4 - pi) ** 2)

    def _entropy(self):
        return _EULER / 2.0 + 1.0 - 0.5 * _LOG2

    def _fit_closed_form(self, data, fixed):
        # with loc fixed, the score equation gives scale^2 = mean((x-loc)^2)/2
        # (SciPy's rayleigh.fit(floc=...)); a free loc needs a root search
        if "loc" not in fixed:
            return None
        loc = fixed["loc"]
        return loc, fixed.get("scale", snp.sqrt(0.5 * snp.mean((data - loc) ** 2)))


class halfnorm_gen(rv_continuous):
    """The half-normal distribution."""

    name, shapes, a = "halfnorm", (), 0.0

    def _logpdf(self, x):
        return 0.5 * math.log(2.0 / _PI) - 0.5 * x * x

    def _cdf(self, x):
        return lax.erf(x / math.sqrt(2.0))

    def _sf(self, x):
        return 2.0 * _sf.ndtr(-x)

    def _logsf(self, x):
        return snp.where(x < 1.0, snp.log1p(-self._cdf(snp.minimum(x, 1.0))),
                         _LOG2 + _sf.log_ndtr(-x))

    def _ppf(self, q):
        return _sf.ndtri(0.5 + 0.5 * q)

    def _isf(self, q):
        return -_sf.ndtri(0.5 * q)

    def _stats(self):
        pi = _PI
        return (math.sqrt(2 / pi), 1 - 2 / pi,
                math.sqrt(2) * (4 - pi) / (pi - 2) ** 1.5, 8 * (pi - 3) / (pi - 2) ** 2)

    def _entropy(self):
        return 0.5 * math.log(_PI / 2.0) + 0.5

    def _fit_closed_form(self, data, fixed):
        # as SciPy's halfnorm.fit: loc at the data's minimum (where the
        # likelihood is largest), scale the root mean square above it
        loc = fixed.get("loc", snp.min(data))
        return loc, fixed.get("scale", snp.sqrt(snp.mean((data - loc) ** 2)))

    def _rvs(self, key, shape, dtype):
        return snp.abs(sciax.random.normal(key, shape, dtype))


class halfcauchy_gen(rv_continuous):
    """The half-Cauchy distribution."""

    name, shapes, a = "halfcauchy", (), 0.0

    def _logpdf(self, x):
        return math.log(2.0 / _PI) - snp.log1p(x * x)

    def _cdf(self, x):
        return 2.0 / _PI * snp.arctan(x)

    def _sf(self, x):
        return 2.0 / _PI * snp.arctan2(1.0, x)

    def _ppf(self, q):
        return snp.tan(0.5 * _PI * q)

    def _isf(self, q):
        return 1.0 / snp.tan(0.5 * _PI * q)

    def _stats(self):
        return _INF, _INF, _NAN, _NAN

    def _munp(self, n):
        return _INF

    def _entropy(self):
        return math.log(2.0 * _PI)


class halflogistic_gen(rv_continuous):
    """The half-logistic distribution."""

    name, shapes, a = "halflogistic", (), 0.0

    def _logpdf(self, x):
        return _LOG2 - x - 2.0 * snp.log1p(snp.exp(-x))

    def _cdf(self, x):
        return snp.tanh(0.5 * x)

    def _sf(self, x):
        return 2.0 * lax.logistic(-x)

    def _logsf(self, x):
        return snp.where(x < 1.0, snp.log1p(-snp.tanh(0.5 * snp.minimum(x, 1.0))),
                         _LOG2 - _softplus(x))

    def _ppf(self, q):
        return 2.0 * snp.arctanh(q)

    def _isf(self, q):
        return snp.log(2.0 - q) - snp.log(q)

    def _munp(self, n):
        # 2 (1 - 2^(1-n)) n! zeta(n) for n > 1
        return {1: 2.0 * _LOG2, 2: _PI**2 / 3.0, 3: 9.0 * _ZETA3,
                4: 7.0 * _PI**4 / 15.0}.get(n) if n <= 4 else (
            2.0 * (1.0 - 2.0 ** (1 - n)) * math.factorial(n) * _sf.zeta(float(n), 1.0))

    def _entropy(self):
        return 2.0 - _LOG2


class levy_gen(rv_continuous):
    """The Levy distribution."""

    name, shapes, a = "levy", (), 0.0

    def _logpdf(self, x):
        return -0.5 * (_LOG2PI + 3.0 * snp.log(x) + 1.0 / x)

    def _cdf(self, x):
        return 2.0 * _sf.ndtr(-1.0 / snp.sqrt(x))

    def _sf(self, x):
        return lax.erf(1.0 / snp.sqrt(2.0 * x))

    def _ppf(self, q):
        return 1.0 / _sf.ndtri(0.5 * q) ** 2

    def _isf(self, q):
        return 0.5 / lax.erf_inv(q) ** 2

    def _stats(self):
        return _INF, _INF, _NAN, _NAN

    def _munp(self, n):
        return _INF

    def _entropy(self):
        return 0.5 * (1.0 + 3.0 * _EULER + math.log(16.0 * _PI))


# --- one shape parameter -----------------------------------------------------------


class pareto_gen(rv_continuous):
    """The Pareto distribution, shape ``b``."""

    name, shapes, a = "pareto", ("b",), 1.0

    def _logpdf(self, x, b):
        return snp.log(b) - (b + 1.0) * snp.log(x)

    def _cdf(self, x, b):
        return -snp.expm1(-b * snp.log(x))

    def _sf(self, x, b):
        return snp.exp(-b * snp.log(x))

    def _logsf(self, x, b):
        return -b * snp.log(x)

    def _ppf(self, q, b):
        return snp.exp(-snp.log1p(-q) / b)

    def _isf(self, q, b):
        return snp.exp(-snp.log(q) / b)

    def _munp(self, n, b):
        return _pos(b > n, b / snp.where(b > n, b - n, 1.0))

    def _stats(self, b):
        mu = _pos(b > 1, b / (b - 1.0))
        mu2 = _pos(b > 2, b / ((b - 1.0) ** 2 * (b - 2.0)))
        g1 = _pos(b > 3, 2 * (1 + b) / (b - 3) * snp.sqrt(snp.abs(b - 2) / b), _NAN)
        g2 = _pos(b > 4, 6 * (b**3 + b**2 - 6 * b - 2) / (b * (b - 3) * (b - 4)), _NAN)
        return mu, mu2, g1, g2

    def _entropy(self, b):
        return 1.0 + 1.0 / b - snp.log(b)


class lomax_gen(rv_continuous):
    """The Lomax (Pareto type II) distribution, shape ``c``."""

    name, shapes, a = "lomax", ("c",), 0.0

    def _logpdf(self, x, c):
        return snp.log(c) - (c + 1.0) * snp.log1p(x)

    def _cdf(self, x, c):
        return -snp.expm1(-c * snp.log1p(x))

    def _sf(self, x, c):
        return snp.exp(-c * snp.log1p(x))

    def _logsf(self, x, c):
        return -c * snp.log1p(x)

    def _ppf(self, q, c):
        return snp.expm1(-snp.log1p(-q) / c)

    def _isf(self, q, c):
        return snp.expm1(-snp.log(q) / c)

    def _stats(self, c):
        mu, mu2, g1, g2 = pareto._stats(c)
        return _pos(c > 1, mu - 1.0), mu2, g1, g2

    def _entropy(self, c):
        return 1.0 + 1.0 / c - snp.log(c)


class weibull_min_gen(rv_continuous):
    """The Weibull minimum distribution, shape ``c``."""

    name, shapes, a = "weibull_min", ("c",), 0.0

    def _logpdf(self, x, c):
        return snp.log(c) + _sf.xlogy(c - 1.0, x) - x**c

    def _cdf(self, x, c):
        return -snp.expm1(-(x**c))

    def _sf(self, x, c):
        return snp.exp(-(x**c))

    def _logsf(self, x, c):
        return -(x**c)

    def _ppf(self, q, c):
        return (-snp.log1p(-q)) ** (1.0 / c)

    def _isf(self, q, c):
        return (-snp.log(q)) ** (1.0 / c)

    def _munp(self, n, c):
        return _gamma(1.0 + n / c)

    def _entropy(self, c):
        return -snp.log(c) + _EULER * (1.0 - 1.0 / c) + 1.0

    def _rvs(self, key, shape, dtype, c):
        return sciax.random.exponential(key, shape, dtype) ** (1.0 / c)


class weibull_max_gen(rv_continuous):
    """The Weibull maximum distribution, shape ``c``."""

    name, shapes, b = "weibull_max", ("c",), 0.0

    def _logpdf(self, x, c):
        return snp.log(c) + _sf.xlogy(c - 1.0, -x) - (-x) ** c

    def _cdf(self, x, c):
        return snp.exp(-((-x) ** c))

    def _logcdf(self, x, c):
        return -((-x) ** c)

    def _sf(self, x, c):
        return -snp.expm1(-((-x) ** c))

    def _ppf(self, q, c):
        return -((-snp.log(q)) ** (1.0 / c))

    def _isf(self, q, c):
        return -((-snp.log1p(-q)) ** (1.0 / c))

    def _munp(self, n, c):
        return (-1.0) ** n * _gamma(1.0 + n / c)

    def _entropy(self, c):
        return -snp.log(c) + _EULER * (1.0 - 1.0 / c) + 1.0


class lognorm_gen(rv_continuous):
    """The log-normal distribution, shape ``s`` (the log's standard deviation)."""

    name, shapes, a = "lognorm", ("s",), 0.0

    def _logpdf(self, x, s):
        # -inf at x = 0, where -(log x / s)^2/2 outgrows -log x (inf - inf)
        zero = x == 0.0
        lx = snp.log(snp.where(zero, 1.0, x))
        return snp.where(zero, -_INF, -lx - snp.log(s) - 0.5 * _LOG2PI - 0.5 * (lx / s) ** 2)

    def _cdf(self, x, s):
        return _sf.ndtr(snp.log(x) / s)

    def _sf(self, x, s):
        return _sf.ndtr(-snp.log(x) / s)

    def _logcdf(self, x, s):
        return _sf.log_ndtr(snp.log(x) / s)

    def _logsf(self, x, s):
        return _sf.log_ndtr(-snp.log(x) / s)

    def _ppf(self, q, s):
        return snp.exp(s * _sf.ndtri(q))

    def _isf(self, q, s):
        return snp.exp(-s * _sf.ndtri(q))

    def _munp(self, n, s):
        return snp.exp(0.5 * (n * s) ** 2)

    def _stats(self, s):
        p = snp.exp(s * s)
        return (snp.sqrt(p), p * (p - 1.0), (p + 2.0) * snp.sqrt(p - 1.0),
                p**4 + 2 * p**3 + 3 * p**2 - 6.0)

    def _entropy(self, s):
        return 0.5 * (1.0 + _LOG2PI) + snp.log(s)

    def _rvs(self, key, shape, dtype, s):
        return snp.exp(s * sciax.random.normal(key, shape, dtype))

    def _fit_closed_form(self, data, fixed):
        # with loc fixed, log(x - loc) is normal(log(scale), s): its mean and
        # root-mean-square deviation (SciPy's lognorm.fit(floc=...))
        if "loc" not in fixed:
            return None
        loc = fixed["loc"]
        ly = snp.log(data - loc)
        scale = fixed.get("scale", snp.exp(snp.mean(ly)))
        s = fixed.get("s", snp.sqrt(snp.mean((ly - snp.log(scale)) ** 2)))
        return s, loc, scale


class powerlaw_gen(rv_continuous):
    """The power-function distribution on ``[0, 1]``, shape ``a``."""

    name, shapes, a, b = "powerlaw", ("a",), 0.0, 1.0

    def _logpdf(self, x, a):
        return snp.log(a) + _sf.xlogy(a - 1.0, x)

    def _cdf(self, x, a):
        return x**a

    def _logcdf(self, x, a):
        return a * snp.log(x)

    def _sf(self, x, a):
        return -snp.expm1(a * snp.log(x))

    def _ppf(self, q, a):
        return q ** (1.0 / a)

    def _isf(self, q, a):
        return snp.exp(snp.log1p(-q) / a)

    def _munp(self, n, a):
        return a / (a + n)

    def _entropy(self, a):
        return 1.0 - 1.0 / a - snp.log(a)


class fisk_gen(rv_continuous):
    """The Fisk (log-logistic) distribution, shape ``c``."""

    name, shapes, a = "fisk", ("c",), 0.0

    def _logpdf(self, x, c):
        # at x = 0 the density ~ c x^(c - 1) (inf - inf in this form)
        zero = x == 0.0
        lx = snp.log(snp.where(zero, 1.0, x))
        return snp.where(zero, _sf.log_power_end(c, snp.log(c)),
                         snp.log(c) - lx - _softplus(c * lx) - _softplus(-c * lx))

    def _cdf(self, x, c):
        return lax.logistic(c * snp.log(x))

    def _sf(self, x, c):
        return lax.logistic(-c * snp.log(x))

    def _logcdf(self, x, c):
        return -_softplus(-c * snp.log(x))

    def _logsf(self, x, c):
        return -_softplus(c * snp.log(x))

    def _ppf(self, q, c):
        return snp.exp(_logit(q) / c)

    def _isf(self, q, c):
        return snp.exp(-_logit(q) / c)

    def _munp(self, n, c):
        t = _PI * n / snp.where(c > n, c, 2.0 * n)
        return _pos(c > n, t / snp.sin(t))

    def _entropy(self, c):
        return 2.0 - snp.log(c)


class dweibull_gen(rv_continuous):
    """The double Weibull distribution, shape ``c``."""

    name, shapes = "dweibull", ("c",)

    def _logpdf(self, x, c):
        ax = snp.abs(x)
        return snp.log(0.5 * c) + _sf.xlogy(c - 1.0, ax) - ax**c

    def _cdf(self, x, c):
        half = 0.5 * snp.exp(-(snp.abs(x) ** c))
        return snp.where(x > 0, 1.0 - half, half)

    def _sf(self, x, c):
        return self._cdf(-x, c)

    def _ppf(self, q, c):
        lower = q < 0.5
        t = snp.where(lower, 2.0 * q, 2.0 * (1.0 - q))
        y = (-snp.log(t)) ** (1.0 / c)
        return snp.where(lower, -y, y)

    def _isf(self, q, c):
        return -self._ppf(q, c)

    def _munp(self, n, c):
        return 0.0 * c if n % 2 else _gamma(1.0 + n / c)

    def _entropy(self, c):
        return _LOG2 - snp.log(c) + _EULER * (1.0 - 1.0 / c) + 1.0


class gompertz_gen(rv_continuous):
    """The Gompertz (truncated Gumbel) distribution, shape ``c``."""

    name, shapes, a = "gompertz", ("c",), 0.0

    def _logpdf(self, x, c):
        return snp.log(c) + x - c * snp.expm1(x)

    def _cdf(self, x, c):
        return -snp.expm1(-c * snp.expm1(x))

    def _sf(self, x, c):
        return snp.exp(-c * snp.expm1(x))

    def _logsf(self, x, c):
        return -c * snp.expm1(x)

    def _ppf(self, q, c):
        return snp.log1p(-snp.log1p(-q) / c)

    def _isf(self, q, c):
        return snp.log1p(-snp.log(q) / c)


class arcsine_gen(rv_continuous):
    """The arcsine distribution on ``[0, 1]``."""

    name, shapes, a, b = "arcsine", (), 0.0, 1.0

    def _logpdf(self, x):
        return -math.log(_PI) - 0.5 * (snp.log(x) + snp.log1p(-x))

    def _cdf(self, x):
        # asin(sqrt x) = acos(sqrt(1 - x)): each form where its argument is exact
        return 2.0 / _PI * snp.where(x < 0.5, snp.arcsin(snp.sqrt(x)),
                                     snp.arccos(snp.sqrt(1.0 - x)))

    def _sf(self, x):
        return 2.0 / _PI * snp.where(x < 0.5, snp.arccos(snp.sqrt(x)),
                                     snp.arcsin(snp.sqrt(1.0 - x)))

    def _ppf(self, q):
        return snp.sin(0.5 * _PI * q) ** 2

    def _isf(self, q):
        return snp.cos(0.5 * _PI * q) ** 2

    def _stats(self):
        return 0.5, 0.125, 0.0, -1.5

    def _entropy(self):
        return math.log(_PI / 4.0)


class triang_gen(rv_continuous):
    """The triangular distribution on ``[0, 1]`` with mode ``c``."""

    name, shapes, a, b = "triang", ("c",), 0.0, 1.0

    def _argcheck(self, c):
        return (c >= 0) & (c <= 1)

    def _pdf(self, x, c):
        left = x < c
        cl = snp.where(c > 0, c, 1.0)
        cr = snp.where(c < 1, 1.0 - c, 1.0)
        return snp.where(left, 2.0 * x / cl, 2.0 * (1.0 - x) / cr)

    def _logpdf(self, x, c):
        return snp.log(self._pdf(x, c))

    def _cdf(self, x, c):
        cl = snp.where(c > 0, c, 1.0)
        cr = snp.where(c < 1, 1.0 - c, 1.0)
        return snp.where(x < c, x * x / cl, 1.0 - (1.0 - x) ** 2 / cr)

    def _sf(self, x, c):
        cl = snp.where(c > 0, c, 1.0)
        cr = snp.where(c < 1, 1.0 - c, 1.0)
        return snp.where(x < c, 1.0 - x * x / cl, (1.0 - x) ** 2 / cr)

    def _ppf(self, q, c):
        return snp.where(q < c, snp.sqrt(c * q), 1.0 - snp.sqrt((1.0 - c) * (1.0 - q)))

    def _isf(self, q, c):
        return snp.where(q > 1.0 - c, snp.sqrt(c * (1.0 - q)),
                         1.0 - snp.sqrt((1.0 - c) * q))

    def _stats(self, c):
        d = 1.0 - c + c * c
        return ((1.0 + c) / 3.0, d / 18.0,
                math.sqrt(2.0) * (2 * c - 1) * (c + 1) * (c - 2) / (5.0 * d**1.5),
                -0.6 + 0.0 * c)

    def _entropy(self, c):
        return 0.5 - _LOG2 + 0.0 * c

    def _fitstart(self, data):
        return (0.5,)


class genpareto_gen(rv_continuous):
    """The generalized Pareto distribution, shape ``c`` (any real)."""

    name, shapes, a = "genpareto", ("c",), 0.0
    _shape_domain = ((-_INF, _INF),)
    _support_depends_on_shapes = True

    def _support(self, c):
        return 0.0 * c, snp.where(c < 0, -1.0 / snp.where(c < 0, c, -1.0), _INF)

    @staticmethod
    def _log1pcx_c(x, c):
        # log1p(c x) / c, -> x as c -> 0
        small = snp.abs(c) < 1e-12
        cs = snp.where(small, 1.0, c)
        return snp.where(small, x, snp.log1p(cs * x) / cs)

    def _logpdf(self, x, c):
        return -(c + 1.0) * self._log1pcx_c(x, c)

    def _cdf(self, x, c):
        return -snp.expm1(-self._log1pcx_c(x, c))

    def _sf(self, x, c):
        return snp.exp(-self._log1pcx_c(x, c))

    def _logsf(self, x, c):
        return -self._log1pcx_c(x, c)

    @staticmethod
    def _expm1_c(t, c):
        # expm1(c t) / c, -> t as c -> 0
        small = snp.abs(c) < 1e-12
        cs = snp.where(small, 1.0, c)
        return snp.where(small, t, snp.expm1(cs * t) / cs)

    def _ppf(self, q, c):
        return self._expm1_c(-snp.log1p(-q), c)

    def _isf(self, q, c):
        return self._expm1_c(-snp.log(q), c)

    def _stats(self, c):
        mu = _pos(c < 1, 1.0 / (1.0 - c))
        mu2 = _pos(c < 0.5, 1.0 / ((1.0 - c) ** 2 * (1.0 - 2.0 * c)))
        g1 = _pos(c < 1.0 / 3, 2 * (1 + c) * snp.sqrt(snp.abs(1 - 2 * c)) / (1 - 3 * c),
                  _NAN)
        g2 = _pos(c < 0.25, 3 * (1 - 2 * c) * (2 * c * c + c + 3)
                  / ((1 - 3 * c) * (1 - 4 * c)) - 3.0, _NAN)
        return mu, mu2, g1, g2

    def _entropy(self, c):
        return 1.0 + c

    def _fitstart(self, data):
        return (0.1,)


class genextreme_gen(rv_continuous):
    """The generalized extreme value distribution, shape ``c`` (SciPy's sign:
    ``c > 0`` is bounded above)."""

    name, shapes = "genextreme", ("c",)
    _shape_domain = ((-_INF, _INF),)
    _support_depends_on_shapes = True

    def _support(self, c):
        cs = snp.where(c == 0, 1.0, c)
        return (snp.where(c < 0, 1.0 / cs, -_INF), snp.where(c > 0, 1.0 / cs, _INF))

    @staticmethod
    def _t(x, c):
        # -log1p(-c x) / c, -> x as c -> 0
        small = snp.abs(c) < 1e-12
        cs = snp.where(small, 1.0, c)
        return snp.where(small, x, -snp.log1p(-cs * x) / cs)

    def _logpdf(self, x, c):
        # -t - log1p(-c x) = (1/c - 1) log1p(-c x); at the finite end
        # x = 1/c that is inf - inf, so the limit there: -inf for c < 1 (and
        # c < 0, where exp(-t) -> inf wins), 0 at c = 1, +inf for c > 1
        t = self._t(x, c)
        end = c * x == 1.0
        xs = snp.where(end, 0.0, x)
        ts = snp.where(end, 0.0, t)
        lim = snp.where(c < 0.0, -_INF, _sf.log_power_end(1.0 / c, 0.0))
        return snp.where(end, lim, -snp.exp(-ts) - ts - snp.log1p(-c * xs))

    def _cdf(self, x, c):
        return snp.exp(-snp.exp(-self._t(x, c)))

    def _logcdf(self, x, c):
        return -snp.exp(-self._t(x, c))

    def _sf(self, x, c):
        return -snp.expm1(-snp.exp(-self._t(x, c)))

    @staticmethod
    def _from_t(t, c):
        # the x with -log1p(-c x)/c = t: -expm1(-c t) / c
        small = snp.abs(c) < 1e-12
        cs = snp.where(small, 1.0, c)
        return snp.where(small, t, -snp.expm1(-cs * t) / cs)

    def _ppf(self, q, c):
        return self._from_t(-snp.log(-snp.log(q)), c)

    def _isf(self, q, c):
        return self._from_t(-snp.log(-snp.log1p(-q)), c)

    def _munp(self, n, c):
        # E[X^n] = sum_k C(n,k) (-1)^k Gamma(1 + k c) / c^n, finite for c > -1/n
        small = snp.abs(c) < 1e-12
        cs = snp.where(small, 1.0, c)
        total = 0.0
        for k in range(n + 1):
            total = total + math.comb(n, k) * (-1.0) ** k * _gamma(1.0 + k * cs)
        return _pos(c * n > -1, total / cs**n, _NAN)

    def _entropy(self, c):
        return _EULER * (1.0 - c) + 1.0

    def _fitstart(self, data):
        return (0.1,)


class burr_gen(rv_continuous):
    """The Burr (type III) distribution, shapes ``c, d``."""

    name, shapes, a = "burr", ("c", "d"), 0.0

    def _logpdf(self, x, c, d):
        # at x = 0 the density ~ c d x^(c d - 1) (inf - inf in this form)
        zero = x == 0.0
        lx = snp.log(snp.where(zero, 1.0, x))
        lcd = snp.log(c) + snp.log(d)
        return snp.where(zero, _sf.log_power_end(c * d, lcd),
                         lcd - (c + 1.0) * lx - (d + 1.0) * _softplus(-c * lx))

    def _cdf(self, x, c, d):
        return snp.exp(self._logcdf(x, c, d))

    def _logcdf(self, x, c, d):
        return -d * _softplus(-c * snp.log(x))

    def _sf(self, x, c, d):
        return -snp.expm1(self._logcdf(x, c, d))

    def _ppf(self, q, c, d):
        return snp.expm1(-snp.log(q) / d) ** (-1.0 / c)

    def _isf(self, q, c, d):
        return snp.expm1(-snp.log1p(-q) / d) ** (-1.0 / c)

    def _munp(self, n, c, d):
        ok = c > n
        nc = n / snp.where(ok, c, 2.0 * n)
        return _pos(ok, d * snp.exp(lax.lgamma(d + nc) + lax.lgamma(1.0 - nc)
                                    - lax.lgamma(d + 1.0)))


class burr12_gen(rv_continuous):
    """The Burr type XII (Singh-Maddala) distribution, shapes ``c, d``."""

    name, shapes, a = "burr12", ("c", "d"), 0.0

    def _logpdf(self, x, c, d):
        lx = snp.log(x)
        return (snp.log(c) + snp.log(d) + (c - 1.0) * lx
                - (d + 1.0) * _softplus(c * lx))

    def _logsf(self, x, c, d):
        return -d * _softplus(c * snp.log(x))

    def _sf(self, x, c, d):
        return snp.exp(self._logsf(x, c, d))

    def _cdf(self, x, c, d):
        return -snp.expm1(self._logsf(x, c, d))

    def _ppf(self, q, c, d):
        return snp.expm1(-snp.log1p(-q) / d) ** (1.0 / c)

    def _isf(self, q, c, d):
        return snp.expm1(-snp.log(q) / d) ** (1.0 / c)

    def _munp(self, n, c, d):
        ok = c * d > n
        nc = n / c
        return _pos(ok, d * snp.exp(lax.lgamma(snp.where(ok, d - nc, 1.0))
                                    + lax.lgamma(1.0 + nc) - lax.lgamma(d + 1.0)))


class foldnorm_gen(rv_continuous):
    """The folded normal distribution, shape ``c >= 0``."""

    name, shapes, a = "foldnorm", ("c",), 0.0

    def _argcheck(self, c):
        return c >= 0

    def _logpdf(self, x, c):
        return snp.logaddexp(-0.5 * (x - c) ** 2, -0.5 * (x + c) ** 2) - 0.5 * _LOG2PI

    def _cdf(self, x, c):
        # Below x (1 + c) = 0.05 the difference cancels (1.4e-6 relative at
        # cdf = 1e-12): there 2 phi(c) int_0^x e^(-t^2/2) cosh(c t) dt by
        # its series to x^9 (the next term is below 3e-18 relative there)
        small = x * (1.0 + c) < 0.05
        xs = snp.where(small, x, 0.0)
        c2, x2 = c * c, xs * xs
        k8 = ((((c2 - 28.0) * c2 + 210.0) * c2 - 420.0) * c2 + 105.0) / 362880.0
        k6 = (((c2 - 15.0) * c2 + 45.0) * c2 - 15.0) / 5040.0
        k4 = ((c2 - 6.0) * c2 + 3.0) / 120.0
        poly = 1.0 + x2 * ((c2 - 1.0) / 6.0 + x2 * (k4 + x2 * (k6 + x2 * k8)))
        series = 2.0 * snp.exp(-0.5 * c2 - 0.5 * _LOG2PI) * xs * poly
        return snp.where(small, series, _sf.ndtr(x - c) - _sf.ndtr(-x - c))

    def _sf(self, x, c):
        return _sf.ndtr(c - x) + _sf.ndtr(-x - c)

    def _ppf(self, q, c):
        return self._quantile_numeric(q, 1.0 - q, c)

    def _isf(self, q, c):
        return self._quantile_numeric(1.0 - q, q, c)

    def _munp(self, n, c):
        # moments of |Y|, Y ~ N(c, 1); even ones are the normal's
        e = math.sqrt(2.0 / _PI) * snp.exp(-0.5 * c * c)
        erf = lax.erf(c / math.sqrt(2.0))
        table = {1: e + c * erf, 2: c * c + 1.0,
                 3: (c * c + 2.0) * e + c * (c * c + 3.0) * erf,
                 4: c**4 + 6.0 * c * c + 3.0}
        if n in table:
            return table[n]
        return super()._munp(n, c)

    def _rvs(self, key, shape, dtype, c):
        return snp.abs(sciax.random.normal(key, shape, dtype) + c)

    def _fitstart(self, data):
        return (1.0,)


class skewnorm_gen(rv_continuous):
    """The skew-normal distribution, shape ``a`` (any real).  Its CDF needs
    :func:`sciax.special.owens_t`."""

    name, shapes = "skewnorm", ("a",)
    _shape_domain = ((-_INF, _INF),)

    def _logpdf(self, x, a):
        return _LOG2 - 0.5 * x * x - 0.5 * _LOG2PI + _sf.log_ndtr(a * x)

    def _cdf(self, x, a):
        return _sf.ndtr(x) - 2.0 * _sf.owens_t(x, a)

    def _sf(self, x, a):
        return _sf.ndtr(-x) + 2.0 * _sf.owens_t(x, a)

    # 32-point Gauss-Laguerre rule for the far tail below (host constants)
    _LAG_W, _LAG_WT = (tuple(float(v) for v in r)
                       for r in np.polynomial.laguerre.laggauss(32))

    def _logcdf(self, x, a):
        # Where a^2 x^2 >= 6, with h = -|x|, b = |a|: cdf(h; b) = 2 (T(h, inf)
        # - T(h, b)) = (1/pi) int_b^inf exp(-h^2 (1 + t^2)/2)/(1 + t^2) dt,
        # without the cancellation of ndtr(x) - 2 T(x, a) (which lost all
        # digits, and went negative (NaN) below x = -8 at a = 3).  With
        # t^2 = b^2 + 2v/h^2 it is exp(-(1 + b^2) h^2/2)/pi int_0^inf e^-v
        # dv / (h^2 t (1 + t^2)), whose integrand's branch point v = -b^2 h^2/2
        # lies >= 3 from 0: the 32-point Laguerre rule is good to ~1e-15
        # there (against mpmath).  Its log L serves all four sign cases:
        # a x < 0: log cdf(-|x|) = L; a x > 0: cdf(x; a) + cdf(x; -a) =
        # 2 ndtr(x) gives log(2 ndtr(-|x|) - e^L) = m + log1p(-e^(L - m)).
        # Those are log cdf for x < 0 and log sf for x > 0 (sf(x; a) =
        # cdf(-x; -a)).  Below a^2 x^2 = 6 the plain form loses at most a
        # factor 1/ndtr(-sqrt 6) = 140.
        far = a * a * x * x >= 6.0
        h = -snp.abs(snp.where(far, x, 1.0))
        b = snp.abs(snp.where(far, a, 10.0))
        hh = h * h
        w = snp.asarray(self._LAG_W)
        t2 = b[..., None] ** 2 + 2.0 * w / hh[..., None]
        quad = snp.sum(snp.asarray(self._LAG_WT)
                       / (hh[..., None] * snp.sqrt(t2) * (1.0 + t2)), axis=-1)
        lt = -0.5 * (1.0 + b * b) * hh - math.log(_PI) + snp.log(quad)
        m = _LOG2 + _sf.log_ndtr(h)
        # (both -inf past |x| ~ 1e154, where h^2 overflows: m then)
        d = lt - m
        ls = snp.where(a * x > 0, m + snp.where(d >= -40.0, snp.log1p(-snp.exp(d)), 0.0), lt)
        use = far & ((x < 0) | (ls < -_LOG2))
        xs = snp.where(use, 0.0, x)
        plain = super()._logcdf(xs, a)
        return snp.where(use, snp.where(x < 0, ls, snp.log1p(-snp.exp(ls))), plain)

    def _logsf(self, x, a):
        return self._logcdf(-x, -a)

    def _ppf(self, q, a):
        return self._quantile_numeric(q, 1.0 - q, a)

    def _isf(self, q, a):
        return self._quantile_numeric(1.0 - q, q, a)

    def _stats(self, a):
        d = a / snp.sqrt(1.0 + a * a)
        m = d * math.sqrt(2.0 / _PI)
        v = 1.0 - m * m
        return (m, v, 0.5 * (4.0 - _PI) * m**3 / v**1.5,
                2.0 * (_PI - 3.0) * m**4 / v**2)

    def _rvs(self, key, shape, dtype, a):
        k1, k2 = sciax.random.split(key)
        u0 = sciax.random.normal(k1, shape, dtype)
        u1 = sciax.random.normal(k2, shape, dtype)
        d = a / snp.sqrt(1.0 + a * a)
        return d * snp.abs(u0) + snp.sqrt(1.0 - d * d) * u1

    def _fitstart(self, data):
        return (0.5,)


norm = norm_gen()
expon = expon_gen()
uniform = uniform_gen()
laplace = laplace_gen()
logistic = logistic_gen()
cauchy = cauchy_gen()
gumbel_r = gumbel_r_gen()
gumbel_l = gumbel_l_gen()
rayleigh = rayleigh_gen()
halfnorm = halfnorm_gen()
halfcauchy = halfcauchy_gen()
halflogistic = halflogistic_gen()
levy = levy_gen()
pareto = pareto_gen()
lomax = lomax_gen()
weibull_min = weibull_min_gen()
weibull_max = weibull_max_gen()
lognorm = lognorm_gen()
powerlaw = powerlaw_gen()
fisk = fisk_gen()
dweibull = dweibull_gen()
gompertz = gompertz_gen()
arcsine = arcsine_gen()
triang = triang_gen()
genpareto = genpareto_gen()
genextreme = genextreme_gen()
burr = burr_gen()
burr12 = burr12_gen()
foldnorm = foldnorm_gen()
skewnorm = skewnorm_gen()

__all__ = ["norm", "expon", "uniform", "laplace", "logistic", "cauchy", "gumbel_r",
           "gumbel_l", "rayleigh", "halfnorm", "halfcauchy", "halflogistic", "levy",
           "pareto", "lomax", "weibull_min", "weibull_max", "lognorm", "powerlaw",
           "fisk", "dweibull", "gompertz", "arcsine", "triang", "genpareto",
           "genextreme", "burr", "burr12", "foldnorm", "skewnorm"]
