"""Two-sample Kolmogorov-Smirnov, Anderson-Darling and Shapiro-Wilk tests,
robust line fits, binned statistics and entropy estimators, with SciPy's
names, signatures and result objects (named tuples, so they are pytrees).

Everything here keeps static shapes: what SciPy decides from the data
(the exact two-sample KS lattice count for the observed distance, the
number of distinct slopes, bin membership) is computed with ``where``,
gathers and loops of static length, so every function runs under ``jit``
and ``vmap``.  What depends only on the sample sizes (Shapiro-Wilk's
coefficients, Anderson-Darling's critical values) is computed once on the
host from the static shapes.
"""

from __future__ import annotations

import functools
import math
import statistics
import warnings
from typing import Any, NamedTuple

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax, special

from sciax.stats._continuous import expon, norm
from sciax.stats._stats_py import SignificanceResult, _alternative, _arr
from sciax.stats._tests_more import (KstestResult, _keep, _kstwo_sf, _last, _method,
                                     _nan_policy, _tie_counts)


class AndersonResult(NamedTuple):
    statistic: Any
    critical_values: Any
    significance_level: Any


class ShapiroResult(NamedTuple):
    statistic: Any
    pvalue: Any


class TheilslopesResult(NamedTuple):
    slope: Any
    intercept: Any
    low_slope: Any
    high_slope: Any


class SiegelslopesResult(NamedTuple):
    slope: Any
    intercept: Any


class BinnedStatisticResult(NamedTuple):
    statistic: Any
    bin_edges: Any
    binnumber: Any


# --- two-sample Kolmogorov-Smirnov ------------------------------------------------


def _ks2_exact_sf(h, m, n, two_sided):
    """P(D >= h / lcm(m, n)) under the null, for integer ``h`` (traced).

    The fraction of the monotone lattice paths from (0, 0) to (m, n) that
    touch a cell with ``|ng i - mg j| >= h`` (two-sided) or ``ng i - mg j >=
    h`` (one-sided), ``ng, mg = n/g, m/g``.  Column ``i`` of that fraction
    is ``A(i, j) = (i A(i-1, j) + j A(i, j-1)) / (i + j)`` inside the band
    and 1 outside (Hodges' inside method in Viehmann's form for ``1 - p``):
    an affine recurrence along ``j``, done by an associative scan, so ``h``
    may be traced; the columns run in a ``fori_loop``."""
    g = math.gcd(m, n)
    mg, ng = m // g, n // g
    dt = h.dtype
    j = snp.arange(n + 1, dtype=dt)

    def outside(i):
        t = ng * i - mg * j
        return (snp.abs(t) >= h) if two_sided else (t >= h)

    def combine(first, second):
        b1, a1 = first
        b2, a2 = second
        return b2 * b1, a2 + b2 * a1

    def column(i, prev):
        fi = i.astype(dt)
        out = outside(fi)
        a = snp.where(out, 1.0, prev * fi / (fi + j))
        b = snp.where(out, 0.0, j / (fi + j))
        return lax.associative_scan(combine, (b, a))[1]

    first = snp.where(outside(snp.zeros((), dt)), 1.0, 0.0)
    return lax.fori_loop(1, m + 1, column, first)[n]


@functools.partial(sciax.jit, static_argnames=("alternative", "mode"))
def _ks2_core(d1, d2, *, alternative, mode):
    n1, n2 = d1.shape[-1], d2.shape[-1]

    def one(a, b):
        a, b = snp.sort(a), snp.sort(b)
        both = snp.concatenate([a, b])
        # k / n read from host tables: XLA's vectorised division on the CPU is
        # not correctly rounded, and SciPy's argmin/argmax among equal
        # differences depends on the rounding of its quotients
        frac1 = snp.asarray(np.arange(n1 + 1) / n1)
        frac2 = snp.asarray(np.arange(n2 + 1) / n2)
        cdd = (frac1[snp.searchsorted(a, both, side="right")]
               - frac2[snp.searchsorted(b, both, side="right")])
        imin, imax = snp.argmin(cdd), snp.argmax(cdd)
        mins = snp.clip(-cdd[imin], 0.0, 1.0)
        maxs = cdd[imax]
        if alternative == "less":
            use_min = snp.asarray(True)
        elif alternative == "greater":
            use_min = snp.asarray(False)
        else:
            use_min = mins > maxs
        d = snp.where(use_min, mins, maxs)
        loc = snp.where(use_min, both[imin], both[imax])
        sign = snp.where(use_min, -1, 1).astype(snp.int8)
        if mode == "exact":
            lcm = (n1 // math.gcd(n1, n2)) * n2
            h = snp.round(d * lcm)
            d = h / lcm
            m, n = max(n1, n2), min(n1, n2)
            p = _ks2_exact_sf(h, m, n, alternative == "two-sided")
        else:
            m, n = float(max(n1, n2)), float(min(n1, n2))
            en = m * n / (m + n)
            if alternative == "two-sided":
                p = _kstwo_sf(d, int(np.round(en)))
            else:
                z = math.sqrt(en) * d
                c = (m + 2.0 * n) / math.sqrt(m * n * (m + n)) / 3.0
                p = snp.exp(-2.0 * z * z - 2.0 * z * c)
        return d, snp.clip(p, 0.0, 1.0), loc, sign

    batch = d1.shape[:-1]
    flat = [snp.reshape(v, (-1, v.shape[-1])) for v in (d1, d2)]
    out = sciax.vmap(one)(*flat)
    return tuple(snp.reshape(o, batch) for o in out)


def ks_2samp(data1, data2, alternative="two-sided", method="auto", *, axis=0,
             nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.ks_2samp`, the two-sample
    Kolmogorov-Smirnov test.

    Parameters
    ----------
    data1, data2 : array_like
        The samples (along ``axis``; other axes broadcast).
    alternative : {'two-sided', 'less', 'greater'}
    method : {'auto', 'exact', 'asymp'}
        ``'exact'``: the exact null distribution of the rounded statistic
        (lattice paths); ``'asymp'``: the one-sample two-sided distribution
        at ``n = round(n1 n2 / (n1 + n2))`` or Hodges' one-sided formula;
        ``'auto'``: exact when both sizes are at most 10,000.
    axis : int or None
    nan_policy : str
    keepdims : bool

    Returns
    -------
    KstestResult
        ``statistic``, ``pvalue``, ``statistic_location`` and
        ``statistic_sign`` (+1 when the first sample's ECDF is above).

    Notes
    -----
    SciPy's fallbacks from the exact to the asymptotic p-value are decided
    from the sizes as SciPy decides them (``lcm(n1, n2)`` beyond int32, and
    for one-sided tests of unequal sizes ``binom(n1 + n2, n1)`` beyond
    float64), with the same ``RuntimeWarning``.  The exact computation
    takes ``O(n1 n2 log n)`` work for any statistic and is vmapped over
    batches.  *Differences from SciPy*: SciPy's other data-dependent
    fallback (a one-sided path count that loses its accuracy) does not
    arise: the normalised recursion never overflows.  *Transformations*:
    jit and vmap.

    Examples
    --------
    >>> from sciax.stats import ks_2samp
    >>> x = snp.array([0.61, -1.3, 0.2, 1.1, -0.4, 0.05, 2.1, -0.8])
    >>> y = snp.array([1.9, 0.7, 2.5, 1.2, 0.3, 3.1, 1.6])
    >>> r = ks_2samp(x, y)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.625 0.055944
    """
    _nan_policy(nan_policy)
    _alternative(alternative)
    _method(method, ("auto", "exact", "asymp"))
    d1, d2 = _last(data1, axis), _last(data2, axis)
    batch = np.broadcast_shapes(d1.shape[:-1], d2.shape[:-1])
    d1 = snp.broadcast_to(d1, batch + d1.shape[-1:])
    d2 = snp.broadcast_to(d2, batch + d2.shape[-1:])
    n1, n2 = d1.shape[-1], d2.shape[-1]
    if min(n1, n2) == 0:
        raise ValueError("Data passed to ks_2samp must not be empty")
    g = math.gcd(n1, n2)
    mode = method
    if mode == "auto":
        mode = "exact" if max(n1, n2) <= 10000 else "asymp"
    elif mode == "exact" and n1 // g >= np.iinfo(np.int32).max / (n2 // g):
        mode = "asymp"
        warnings.warn(f"Exact ks_2samp calculation not possible with samples sizes "
                      f"{n1} and {n2}. Switching to 'asymp'.", RuntimeWarning,
                      stacklevel=2)
    if (mode == "exact" and alternative != "two-sided" and n1 != n2
            and _log_binom(n1 + n2, n1) > math.log(np.finfo(np.float64).max)):
        # SciPy counts the paths in floats: binom(n1 + n2, n1) overflows
        mode = "asymp"
        warnings.warn("ks_2samp: Exact calculation unsuccessful. Switching to "
                      "method=asymp.", RuntimeWarning, stacklevel=2)
    d, p, loc, sign = _ks2_core(d1, d2, alternative=alternative, mode=mode)
    return KstestResult(_keep(d, keepdims), _keep(p, keepdims), _keep(loc, keepdims),
                        _keep(sign, keepdims))


def _log_binom(n, k):
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


# --- Anderson-Darling -------------------------------------------------------------

# Stephens (1974), as SciPy's table: the critical values at 15, 10, 5, 2.5, 1 %
# Stephens' (1974, 1977, 1979) asymptotic critical values and the small-sample
# factors SciPy applies to them, per significance level (percent)
_AVALS = {"norm": (0.561, 0.631, 0.752, 0.873, 1.035),
          "expon": (0.916, 1.062, 1.321, 1.591, 1.959),
          "logistic": (0.426, 0.563, 0.660, 0.769, 0.906, 1.010),
          "gumbel_l": (0.474, 0.637, 0.757, 0.877, 1.038),
          "gumbel_r": (0.474, 0.637, 0.757, 0.877, 1.038)}
_SIGS = {"norm": (15.0, 10.0, 5.0, 2.5, 1.0), "expon": (15.0, 10.0, 5.0, 2.5, 1.0),
         "logistic": (25.0, 10.0, 5.0, 2.5, 1.0, 0.5),
         "gumbel_l": (25.0, 10.0, 5.0, 2.5, 1.0), "gumbel_r": (25.0, 10.0, 5.0, 2.5, 1.0)}
_SIG = _SIGS["norm"]


def _anderson_critical(dist, n):
    avals = np.asarray(_AVALS[dist])
    factor = {"norm": 1.0 + 0.75 / n + 2.25 / n / n, "expon": 1.0 + 0.6 / n,
              "logistic": 1.0 + 0.25 / n}.get(dist, 1.0 + 0.2 / math.sqrt(n))
    return np.around(avals / factor, 3)


def _gumbel_r_fit(x):
    """Maximum-likelihood (loc, scale) of gumbel_r: the scale solves
    mean(x) - s - sum(x w) / sum(w) = 0 with w = exp(-x / s) (Newton from the
    moment estimate, a fixed number of steps), then loc = -s log(mean(w))."""
    shift = snp.max(x)
    z = x - shift  # <= 0: the weights exp(-z/s) >= 1 stay finite for moderate s

    def g(s):
        w = snp.exp(-(z - snp.min(z)) / s)
        return snp.mean(z) - s - snp.sum(z * w) / snp.sum(w)

    def newton(_, s):
        return s - g(s) / sciax.grad(g)(s)

    s = lax.fori_loop(0, 40, newton, snp.std(x) * math.sqrt(6.0) / math.pi)
    loc = shift + snp.min(z) - s * snp.log(snp.mean(snp.exp(-(z - snp.min(z)) / s)))
    return loc, s


def _logistic_fit(x):
    """SciPy's anderson root for the logistic: sum(1 / (1 + e^t)) = n/2 and
    sum(t (1 - e^t) / (1 + e^t)) = -n with t = (x - a) / b.  Newton in
    (a, log b) from (mean, std(ddof=1)), each step halved until the residual
    shrinks (at most 30 halvings), a fixed number of steps."""
    n = x.shape[0]

    def eqs(u):
        t = (x - u[0]) / snp.exp(u[1])
        return snp.stack([snp.sum(special.expit(-t)) - 0.5 * n,
                          snp.sum(t * snp.tanh(-t / 2.0)) + n]) / n

    def norm2(u):
        r = eqs(u)
        return snp.where(snp.all(snp.isfinite(r)), snp.sum(r * r), snp.inf)

    def newton(_, u):
        r = eqs(u)
        step = snp.linalg.solve(sciax.jacfwd(eqs)(u), r)
        step = snp.where(snp.all(snp.isfinite(step)), step, 0.0)
        f0 = snp.sum(r * r)

        def shrink(c):
            k, lam = c
            return k + 1, lam * 0.5

        def worse(c):
            k, lam = c
            return (k < 30) & (norm2(u - lam * step) > f0)

        _, lam = lax.while_loop(worse, shrink, (0, 1.0))
        return snp.where(norm2(u - lam * step) <= f0, u - lam * step, u)

    u = lax.fori_loop(0, 40, newton,
                      snp.stack([snp.mean(x), snp.log(snp.std(x, ddof=1))]))
    return u[0], snp.exp(u[1])


# Lockhart & Stephens (1994), "Estimation and tests of fit for the three-parameter
# Weibull distribution", JRSS B 56, table 1: asymptotic critical values (columns:
# the levels of _WEIBULL_SIGS) for c = 1/shape = 0, 0.05, ..., 0.5 (rows), read
# by linear interpolation in c and held at the last row beyond 0.5, as SciPy.
_WEIBULL_AVALS = np.array([
    [0.292, 0.395, 0.467, 0.522, 0.617, 0.711, 0.836, 0.931],
    [0.295, 0.399, 0.471, 0.527, 0.623, 0.719, 0.845, 0.941],
    [0.298, 0.403, 0.476, 0.534, 0.631, 0.728, 0.856, 0.954],
    [0.301, 0.408, 0.483, 0.541, 0.640, 0.738, 0.869, 0.969],
    [0.305, 0.414, 0.490, 0.549, 0.650, 0.751, 0.885, 0.986],
    [0.309, 0.421, 0.498, 0.559, 0.662, 0.765, 0.902, 1.007],
    [0.314, 0.429, 0.508, 0.570, 0.676, 0.782, 0.923, 1.030],
    [0.320, 0.438, 0.519, 0.583, 0.692, 0.802, 0.947, 1.057],
    [0.327, 0.448, 0.532, 0.598, 0.711, 0.824, 0.974, 1.089],
    [0.334, 0.469, 0.547, 0.615, 0.732, 0.850, 1.006, 1.125],
    [0.342, 0.472, 0.563, 0.636, 0.757, 0.879, 1.043, 1.167]])
_WEIBULL_C = np.linspace(0.0, 0.5, 11)
# SciPy gives these levels as fractions (the other families' in percent)
_WEIBULL_SIGS = (0.5, 0.75, 0.85, 0.9, 0.95, 0.975, 0.99, 0.995)


def _weibull_skew(c):
    g1, g2, g3 = (snp.exp(lax.lgamma(1.0 + j / c)) for j in (1.0, 2.0, 3.0))
    return (2.0 * g1**3 - 3.0 * g1 * g2 + g3) / (g2 - g1 * g1) ** 1.5


def _weibull_fit(x):
    """The three-parameter Weibull (shape ``m``, location ``u``, scale ``s``)
    at the stationary point of the likelihood that SciPy's anderson
    reaches: from SciPy's moment start (the shape whose skewness is the
    sample's, by bisection on ``[0.02, 1e4]``), damped Newton on the
    likelihood profiled over the scale, ``n log(mean(z^m)) - n log m -
    (m - 1) sum(log z)`` with ``z = x - u``, in ``(log m, log(min(x) - u))``
    (50 steps, then 4 plain Newton steps on the gradient, where the line
    search stalls on rounding), then ``s = mean(z^m)^(1/m)``.  Returns
    ``(m, u, s, ok)``; ``ok`` is False where SciPy raises (the location at
    the sample minimum, a shape below 1, or no stationary point found)."""
    n = x.shape[0]
    lo, sd = snp.min(x), snp.std(x)
    y = (x - lo) / sd                         # the profile is scale-free
    d = y - snp.mean(y)
    g1 = snp.mean(d**3) / snp.mean(d * d) ** 1.5

    def bisect(_, b):
        a, c = b
        mid = snp.sqrt(a * c)
        up = _weibull_skew(mid) > g1          # skewness falls as c grows
        return snp.where(up, mid, a), snp.where(up, c, mid)

    a, c = lax.fori_loop(0, 80, bisect, (snp.asarray(0.02, y.dtype),
                                         snp.asarray(1e4, y.dtype)))
    m0 = snp.sqrt(a * c)
    ga, gb = snp.exp(lax.lgamma(1.0 + 1.0 / m0)), snp.exp(lax.lgamma(1.0 + 2.0 / m0))
    s0 = snp.sqrt(snp.var(y) / (gb - ga * ga))
    gap0 = snp.maximum(s0 * ga - snp.mean(y), 1e-3)   # min(y) - u = -u

    def prof(th):
        m, z = snp.exp(th[0]), y + snp.exp(th[1])
        lz = snp.log(z)
        return (n * snp.log(snp.mean(snp.exp(m * lz))) - n * th[0]
                - (m - 1.0) * snp.sum(lz)) / n

    grad, hess = sciax.grad(prof), sciax.hessian(prof)

    def newton(_, th):
        g, h = grad(th), hess(th)
        step = snp.linalg.solve(h, g)
        descent = (snp.sum(step * g) > 0) & snp.all(snp.isfinite(step))
        step = snp.where(descent, step, g)
        f0 = prof(th)

        def shrink(c):
            k, lam = c
            return k + 1, lam * 0.5

        def worse(c):
            k, lam = c
            f1 = prof(th - lam * step)
            return (k < 40) & ~(f1 <= f0)

        _, lam = lax.while_loop(worse, shrink, (0, 1.0))
        th1 = th - lam * step
        return snp.where(prof(th1) <= f0, th1, th)

    def polish(_, th):
        # plain Newton steps on the gradient: near the optimum the likelihood
        # changes by less than its rounding, so the line search stalls there
        th1 = th - snp.linalg.solve(hess(th), grad(th))
        better = snp.max(snp.abs(grad(th1))) < snp.max(snp.abs(grad(th)))
        return snp.where(snp.all(snp.isfinite(th1)) & better, th1, th)

    th0 = snp.stack([snp.log(m0), snp.log(gap0)])
    th = lax.fori_loop(0, 50, newton, th0)
    th = lax.fori_loop(0, 4, polish, th)
    m, gap = snp.exp(th[0]), snp.exp(th[1])
    z = y + gap
    s = snp.mean(z**m) ** (1.0 / m)
    u = lo - sd * gap
    ok = ((snp.abs(u - lo) > 1e-8 + 1e-5 * snp.abs(lo)) & (m >= 1.0)
          & (snp.max(snp.abs(grad(th))) < 1e-8) & snp.isfinite(m))
    return m, u, sd * s, ok


@sciax.jit
def _anderson_weibull(x):
    n = x.shape[0]
    m, u, s, ok = _weibull_fit(x)
    w = (snp.sort(x) - u) / s
    wm = w**m
    logcdf, logsf = snp.log(-snp.expm1(-wm)), -wm
    i = snp.arange(1.0, n + 1.0)
    a2 = -n - snp.sum((2.0 * i - 1.0) / n * (logcdf + logsf[::-1]))
    table = snp.asarray(_WEIBULL_AVALS)
    crit = snp.stack([snp.interp(1.0 / m, snp.asarray(_WEIBULL_C), table[:, j])
                      for j in range(table.shape[1])])
    # SciPy rounds up ("be conservative"): np.round(critical + 0.0005, 3), i.e.
    # rint(1000 y) / 1000; the thousandths come from a host table, since XLA
    # turns the division by 1000 into a multiplication (an ulp off)
    milli = snp.rint((crit + 0.0005) * 1000.0).astype(snp.int32)
    crit = snp.asarray(np.arange(1500) / 1000.0)[milli]
    return snp.where(ok, a2, snp.nan), crit


def anderson(x, dist="norm", *, method=None):
    """sciax implementation of :func:`scipy.stats.anderson`, the
    Anderson-Darling test that ``x`` comes from a normal, exponential,
    logistic, Gumbel or Weibull distribution with estimated parameters.

    Parameters
    ----------
    x : array_like
        1-D sample (``vmap`` over others).
    dist : {'norm', 'expon', 'logistic', 'gumbel', 'gumbel_l', 'gumbel_r', 'extreme1', 'weibull_min'}
        ('gumbel' and 'extreme1' are 'gumbel_l', as in SciPy).
    method : None or 'interpolate'
        ``None``: return the critical values at SciPy's significance levels;
        ``'interpolate'``: the p-value interpolated in that table.

    Returns
    -------
    AndersonResult or SignificanceResult
        ``statistic, critical_values, significance_level`` (``method=None``;
        the levels in percent, as SciPy) or ``statistic, pvalue``.

    Notes
    -----
    ``dist='weibull_min'`` fits all three parameters (as SciPy: from the
    moment estimate, to the stationary point of the likelihood, here by
    damped Newton on the likelihood profiled over the scale) and reads the
    critical values of Lockhart & Stephens (1994) at ``c = 1 / shape``,
    rounded up, at the levels ``0.5 ... 0.995`` (fractions, as SciPy).

    *Differences from SciPy*: the result for ``method=None`` has no
    ``fit_result`` and no ``FutureWarning``.  Where SciPy raises for
    ``weibull_min`` (a fit at the sample minimum, a shape below 1, no
    stationary point) this raises ``ValueError`` too when called eagerly,
    and returns a NaN statistic under ``jit``/``vmap``.  The logistic and
    Gumbel parameters are solved to convergence (Newton, a fixed number of steps under jit), where SciPy's
    logistic root stops at ``fsolve``'s ``xtol=1e-5``: statistics differ from
    SciPy's by up to about 1e-6 relative there.  *Transformations*: jit, vmap, and the statistic is
    differentiable in the data.

    Examples
    --------
    >>> from sciax.stats import anderson
    >>> x = snp.array([0.3, -1.1, 0.8, 2.0, -0.2, 0.5, 1.4, -0.7, 0.1, 0.9])
    >>> r = anderson(x)
    >>> print(round(float(r.statistic), 6), np.asarray(r.critical_values))
    0.101696 [0.511 0.575 0.685 0.795 0.943]
    >>> print(round(float(anderson(x, method="interpolate").pvalue), 3))
    0.15
    """
    dist = dist.lower()
    dist = {"gumbel": "gumbel_l", "extreme1": "gumbel_l"}.get(dist, dist)
    if dist not in _AVALS and dist != "weibull_min":
        raise ValueError("Invalid distribution; dist must be in "
                         f"{set(_AVALS) | {'weibull_min'}}.")
    if method not in (None, "interpolate"):
        raise ValueError("`method` must be either 'interpolate' or None (sciax has "
                         "no MonteCarloMethod)")
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("anderson takes a 1-D sample; vmap over other axes")
    n = x.shape[0]
    if dist == "weibull_min":
        return _anderson_weibull_result(x, n, method)
    a2 = _anderson_statistic(x, dist=dist)
    critical = _anderson_critical(dist, n)
    sig = np.asarray(_SIGS[dist])
    if method is None:
        return AndersonResult(a2, snp.asarray(critical), snp.asarray(sig))
    return SignificanceResult(a2, snp.interp(a2, snp.asarray(critical),
                                             snp.asarray(sig / 100.0)))


def _anderson_weibull_result(x, n, method):
    if n < 10:
        warnings.warn("Critical values of the test statistic are given for the "
                      "asymptotic distribution. These may not be accurate for "
                      "samples with fewer than 10 observations.", stacklevel=3)
    a2, crit = _anderson_weibull(x)
    try:
        failed = bool(np.isnan(np.asarray(a2)))
    except Exception:  # traced: the NaN statistic says it
        failed = False
    if failed:
        raise ValueError("Maximum likelihood estimation of the three-parameter "
                         "Weibull distribution converged to a location at the "
                         "sample minimum or a shape below 1, or found no "
                         "stationary point; the table of critical values does "
                         "not cover this case (as SciPy, which raises too).")
    sig = np.asarray(_WEIBULL_SIGS)
    if method is None:
        return AndersonResult(a2, crit, snp.asarray(sig))
    return SignificanceResult(a2, snp.interp(a2, crit, snp.asarray(1.0 - sig)))


@functools.partial(sciax.jit, static_argnames=("dist",))
def _anderson_statistic(x, *, dist):
    n = x.shape[0]
    y = snp.sort(x)
    xbar = snp.mean(x)
    if dist == "norm":
        w = (y - xbar) / snp.std(x, ddof=1)
        logcdf, logsf = norm.logcdf(w), norm.logsf(w)
    elif dist == "expon":
        w = y / xbar
        logcdf, logsf = expon.logcdf(w), expon.logsf(w)
    elif dist == "logistic":
        a, b = _logistic_fit(x)
        w = (y - a) / b
        # log F and log(1 - F) of the standard logistic
        logcdf, logsf = -snp.logaddexp(0.0, -w), -snp.logaddexp(0.0, w)
    else:
        # gumbel_l is gumbel_r of -x: F_l(w) = 1 - F_r(-w)
        sign = 1.0 if dist == "gumbel_r" else -1.0
        loc, s = _gumbel_r_fit(sign * x)
        wr = (sign * y - loc) / s
        log_fr, log_sr = -snp.exp(-wr), snp.log(-snp.expm1(-snp.exp(-wr)))
        logcdf, logsf = (log_fr, log_sr) if sign > 0 else (log_sr, log_fr)
    i = snp.arange(1.0, n + 1.0)
    return -n - snp.sum((2.0 * i - 1.0) / n * (logcdf + logsf[::-1]))


# --- Shapiro-Wilk -----------------------------------------------------------------


def _poly(c, x):
    """c[0] + c[1] x + c[2] x^2 + ... (host floats)."""
    return sum(ci * x**k for k, ci in enumerate(c))


def _ppnd7(p):
    """Wichura's AS 111 normal quantile (about 7 digits), which AS R94's
    coefficients are defined with: SciPy's W agrees with it, not with an
    exact quantile."""
    q = p - 0.5
    if abs(q) <= 0.42:
        r = q * q
        num = ((-25.44106049637 * r + 41.39119773534) * r - 18.61500062529) * r \
            + 2.50662823884
        den = (((3.13082909833 * r - 21.06224101826) * r + 23.08336743743) * r
               - 8.47351093090) * r + 1.0
        return q * num / den
    r = 1.0 - p if q > 0 else p
    if r <= 0:
        return 0.0
    r = math.sqrt(-math.log(r))
    t = (((2.32121276858 * r + 4.85014127135) * r - 2.29796479134) * r
         - 2.78718931138) / ((1.63706781897 * r + 3.54388924762) * r + 1.0)
    return -t if q < 0 else t


@functools.lru_cache(maxsize=64)
def _swilk_coefficients(n):
    """Royston's (1995, AS R94) coefficients of the ordered sample, length
    ``n`` (antisymmetric), and the constants of the p-value's normalising
    transformation, all functions of ``n`` only."""
    nn2 = n // 2
    if n == 3:
        a = [math.sqrt(0.5)]
    else:
        m = [_ppnd7((i + 1 - 0.375) / (n + 0.25)) for i in range(nn2)]
        summ2 = 2.0 * sum(v * v for v in m)
        ssumm2 = math.sqrt(summ2)
        rsn = 1.0 / math.sqrt(n)
        c1 = (0.0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056)
        c2 = (0.0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633)
        a1 = _poly(c1, rsn) - m[0] / ssumm2
        if n > 5:
            a2 = -m[1] / ssumm2 + _poly(c2, rsn)
            fac = math.sqrt((summ2 - 2.0 * m[0] ** 2 - 2.0 * m[1] ** 2)
                            / (1.0 - 2.0 * a1**2 - 2.0 * a2**2))
            a = [a1, a2] + [-v / fac for v in m[2:]]
        else:
            fac = math.sqrt((summ2 - 2.0 * m[0] ** 2) / (1.0 - 2.0 * a1**2))
            a = [a1] + [-v / fac for v in m[1:]]
    coef = np.zeros(n)
    for i in range(n):
        k = n - 1 - i
        if i < k:
            coef[i] = -a[i]
        elif i > k:
            coef[i] = a[k]
    sa = float(np.sum(coef)) / n
    an = float(n)
    if n <= 11:
        gamma = _poly((-2.273, 0.459), an)
        mu = _poly((0.5440, -0.39978, 0.025054, -0.6714e-3), an)
        sigma = math.exp(_poly((1.3822, -0.77857, 0.062767, -0.20322e-2), an))
    else:
        lx = math.log(an)
        gamma = math.inf
        mu = _poly((-1.5861, -0.31082, -0.083751, 0.0038915), lx)
        sigma = math.exp(_poly((-0.4803, -0.082676, 0.0030302), lx))
    return coef - sa, gamma, mu, sigma


def _alnorm_upper(x):
    """Hill's AS 66 upper normal tail (about 9 digits), as AS R94 uses it."""
    upper = x > 0
    z = snp.abs(x)
    y = 0.5 * z * z
    near = 0.5 - z * (0.398942280444 - 0.399903438504 * y
                      / (y + 5.75885480458 - 29.8213557808
                         / (y + 2.62433121679 + 48.6959930692 / (y + 5.92885724438))))
    far = 0.398942280385 * snp.exp(-y) / (
        z - 3.8052e-8 + 1.00000615302 / (
            z + 3.98064794e-4 + 1.98615381364 / (
                z - 0.151679116635 + 5.29330324926 / (
                    z + 4.8385912808 - 15.1508972451 / (
                        z + 0.742380924027 + 30.789933034 / (z + 3.99019417011))))))
    temp = snp.where(z <= 1.28, near, far)
    temp = snp.where(upper, snp.where(z <= 38.0, temp, 0.0),
                     snp.where(z <= 7.0, 1.0 - temp, 1.0))
    return temp


def shapiro(x):
    """sciax implementation of :func:`scipy.stats.shapiro`, the Shapiro-Wilk
    test for normality (Royston's AS R94, as SciPy).

    Parameters
    ----------
    x : array_like
        The sample (flattened, as SciPy), at least 3 values.

    Returns
    -------
    ShapiroResult
        ``statistic`` (W) and ``pvalue``.

    Notes
    -----
    The coefficients of the ordered sample and the constants of Royston's
    normalising transformation depend only on ``n`` and are computed once
    per size on the host, with AS R94's own approximations (AS 111 normal
    quantiles, AS 66 normal tail) so that W and the p-value agree with
    SciPy's to rounding.  W is computed as ``1 - W`` from a difference of
    squares, as AS R94 does.  A sample of zero range gives W = 1, p = 1
    (SciPy warns).  *Transformations*: jit and vmap; W is differentiable in
    the data.

    Examples
    --------
    >>> from sciax.stats import shapiro
    >>> x = snp.array([2.1, 3.4, 1.9, 5.6, 2.8, 3.3, 4.0, 2.2, 3.9, 3.1, 2.7])
    >>> r = shapiro(x)
    >>> print(round(float(r.statistic), 6), round(float(r.pvalue), 6))
    0.921885 0.334651
    """
    x = snp.ravel(_arr(x))
    n = x.shape[0]
    if n < 3:
        raise ValueError("Data must be at least length 3.")
    return _shapiro_core(x)


@sciax.jit
def _shapiro_core(x):
    n = x.shape[0]
    coef, gamma, mu, sigma = _swilk_coefficients(n)
    # SciPy shifts by the element at n // 2 of the unsorted data (gh-15777)
    y = snp.sort(x) - x[n // 2]
    rng = y[-1] - y[0]
    safe = rng >= 1e-19
    xs = y / snp.where(safe, rng, 1.0)
    xsx = xs - snp.mean(xs)
    asa = snp.asarray(coef)
    ssa = float(np.sum(coef * coef))
    ssx = snp.sum(xsx * xsx)
    sax = snp.sum(asa * xsx)
    r = snp.sqrt(ssa * ssx)
    w1 = (r - sax) * (r + sax) / (ssa * ssx)
    w = 1.0 - w1
    if n == 3:
        pw = 1.0 - 6.0 / math.pi * snp.arccos(snp.sqrt(snp.maximum(w, 0.75)))
        pw = snp.where(w < 0.75, 0.0, pw)
        w = snp.maximum(w, 0.75)
    else:
        yl = snp.log(w1)
        if n <= 11:
            small = yl >= gamma
            yl = -snp.log(snp.where(small, 1.0, gamma - yl))
        pw = _alnorm_upper((yl - mu) / sigma)
        if n <= 11:
            pw = snp.where(small, 1e-19, pw)
    w = snp.where(safe, w, 1.0)
    pw = snp.where(safe, pw, 1.0)
    return ShapiroResult(w, pw)


# --- robust lines -----------------------------------------------------------------


def _sorted_median(v, k):
    """Median of the first ``k`` (traced) entries of the sorted ``v``."""
    lo = snp.take(v, snp.maximum((k - 1) // 2, 0), mode="clip")
    hi = snp.take(v, k // 2, mode="clip")
    return (lo + hi) / 2.0


def theilslopes(y, x=None, alpha=0.95, method="separate"):
    """sciax implementation of :func:`scipy.stats.theilslopes`, the
    Theil-Sen estimator of a line with the confidence interval of its slope.

    Parameters
    ----------
    y : array_like
        1-D responses.
    x : array_like, optional
        1-D abscissae (default ``arange(len(y))``).
    alpha : float
        Confidence level of the slope's interval (``alpha`` or ``1 - alpha``,
        as SciPy).
    method : {'separate', 'joint'}
        Intercept ``median(y) - slope median(x)`` or ``median(y - slope x)``.

    Returns
    -------
    TheilslopesResult
        ``slope, intercept, low_slope, high_slope``.

    Notes
    -----
    The ``n (n - 1) / 2`` pairwise slopes with distinct ``x`` are sorted
    with the others pushed to the end; the median and the interval's order
    statistics are gathers at indices computed from their count and the tie
    correction, so ties in ``x`` and ``y`` need no host round trip.
    *Transformations*: jit, vmap; differentiable in ``y`` (and ``x``) where
    the order of the slopes does not change.

    Examples
    --------
    >>> from sciax.stats import theilslopes
    >>> y = snp.array([1.0, 2.1, 2.9, 4.2, 5.0, 5.8, 7.3, 9.0])
    >>> r = theilslopes(y)
    >>> print(round(float(r.slope), 6), round(float(r.intercept), 6))
    1.05 0.925
    >>> print(round(float(r.low_slope), 6), round(float(r.high_slope), 6))
    0.95 1.22
    """
    if method not in ("joint", "separate"):
        raise ValueError(f"method must be either 'joint' or 'separate'.'{method}' is "
                         "invalid.")
    y = snp.ravel(_arr(y))
    n = y.shape[0]
    x = snp.arange(n, dtype=y.dtype) if x is None else snp.ravel(_arr(x))
    if x.shape[0] != n:
        raise ValueError(f"Incompatible lengths ! ({n}<>{x.shape[0]})")
    return _theil_core(y, x, alpha=float(alpha), method=method)


# one program per size and options: op by op, the first call compiled ~50 ops
@functools.partial(sciax.jit, static_argnames=("alpha", "method"))
def _theil_core(y, x, *, alpha, method):
    n = y.shape[0]
    iu, ju = np.triu_indices(n, 1)
    dx = x[ju] - x[iu]
    dy = y[ju] - y[iu]
    # SciPy keeps the pairs with deltax > 0 of the full matrix: each unordered
    # pair with distinct x once, with the sign of its own difference
    valid = dx != 0
    slopes = snp.sort(snp.where(valid, dy / snp.where(valid, dx, 1.0), snp.inf))
    nt = snp.sum(valid)
    medslope = _sorted_median(slopes, nt)
    if method == "joint":
        medinter = snp.median(y - medslope * x)
    else:
        medinter = snp.median(y) - medslope * snp.median(x)
    if alpha > 0.5:
        alpha = 1.0 - alpha
    # a host constant (AS 241, full double accuracy), also under jit
    z = statistics.NormalDist().inv_cdf(alpha / 2.0)

    def ties(v):
        t = _tie_counts(v)
        return snp.sum((t - 1.0) * (2.0 * t + 5.0))

    sigsq = (n * (n - 1.0) * (2.0 * n + 5.0) - ties(x) - ties(y)) / 18.0
    sigma = snp.sqrt(sigsq)
    ntf = nt.astype(y.dtype)
    ru = snp.minimum(snp.round((ntf - z * sigma) / 2.0), ntf - 1.0).astype(snp.int32)
    rl = snp.maximum(snp.round((ntf + z * sigma) / 2.0) - 1.0, 0.0).astype(snp.int32)
    low = snp.take(slopes, snp.clip(rl, 0, slopes.shape[0] - 1))
    high = snp.take(slopes, snp.clip(ru, 0, slopes.shape[0] - 1))
    return TheilslopesResult(medslope, medinter, low, high)


def siegelslopes(y, x=None, method="hierarchical"):
    """sciax implementation of :func:`scipy.stats.siegelslopes`, Siegel's
    repeated-medians line.

    Parameters
    ----------
    y : array_like
    x : array_like, optional
        Default ``arange(len(y))``.
    method : {'hierarchical', 'separate'}
        Intercept ``median(y - slope x)`` or the median of the per-point
        median intercepts.

    Returns
    -------
    SiegelslopesResult
        ``slope, intercept``.

    Notes
    -----
    Each point's median over the others with a different ``x`` is read from
    its sorted row of slopes at indices from the row's count (static
    ``(n, n)`` shapes).  *Transformations*: jit and vmap.

    Examples
    --------
    >>> from sciax.stats import siegelslopes
    >>> y = snp.array([1.0, 2.1, 2.9, 4.2, 5.0, 5.8, 7.3, 9.0])
    >>> r = siegelslopes(y)
    >>> print(round(float(r.slope), 6), round(float(r.intercept), 6))
    1.05 1.0
    """
    if method not in ("hierarchical", "separate"):
        raise ValueError("method can only be 'hierarchical' or 'separate'")
    y = snp.ravel(_arr(y))
    n = y.shape[0]
    x = snp.arange(n, dtype=y.dtype) if x is None else snp.ravel(_arr(x))
    if x.shape[0] != n:
        raise ValueError(f"Incompatible lengths ! ({n}<>{x.shape[0]})")
    return _siegel_core(y, x, method=method)


@functools.partial(sciax.jit, static_argnames=("method",))
def _siegel_core(y, x, *, method):
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    valid = dx != 0
    safe = snp.where(valid, dx, 1.0)
    k = snp.sum(valid, axis=1)

    def row_medians(v):
        v = snp.sort(snp.where(valid, v, snp.inf), axis=1)
        return sciax.vmap(_sorted_median)(v, k)

    medslope = snp.median(row_medians(dy / safe))
    if method == "separate":
        z = (y[None, :] * x[:, None] - y[:, None] * x[None, :]) / safe
        medinter = snp.median(row_medians(z))
    else:
        medinter = snp.median(y - medslope * x)
    return SiegelslopesResult(medslope, medinter)


# --- binned statistics ------------------------------------------------------------


def _np_around(x, decimals):
    """``numpy.around(x, decimals)`` for a traced integer ``decimals``."""
    # exact powers of ten from a table: XLA's pow(10, 6) is not always 1e6,
    # and the array and the edge must round alike
    powers = snp.asarray([10.0**k for k in range(309)])
    scale = powers[snp.clip(snp.abs(decimals), 0, 308).astype(snp.int32)]
    return snp.where(decimals >= 0, snp.round(x * scale) / scale,
                     snp.round(x / scale) * scale)


def binned_values(values, n: int, statistic) -> tuple:
    """``(values, shape, rows)`` of the binned statistics' ``values``: a
    sequence is stacked, and ``rows`` holds one row of ``n`` values per
    statistic computed (SciPy's error when the lengths differ)."""
    if isinstance(values, (list, tuple)):
        values = snp.stack([snp.asarray(v) for v in values])
    values = _arr(values)
    vshape = values.shape
    vals = snp.reshape(values, (-1, vshape[-1])) if values.ndim else values[None, None]
    if statistic != "count" and vals.shape[-1] != n:
        raise AttributeError("The number of `values` elements must match the length "
                             "of each `sample` dimension.")
    return values, vshape, vals


def binned_statistic(x, values, statistic="mean", bins=10, range=None):  # noqa: A002
    """sciax implementation of :func:`scipy.stats.binned_statistic`.

    Parameters
    ----------
    x : array_like
        1-D positions.
    values : array_like
        Values at ``x``, shape ``(n,)`` or ``(k, n)`` (or a list of such
        arrays); ignored for ``'count'``.
    statistic : {'mean', 'sum', 'count', 'std', 'median', 'min', 'max'}
        Empty bins are NaN except for ``'sum'`` and ``'count'`` (0).
    bins : int or array_like
        Number of equal bins over ``range`` (default the data's extent) or
        the monotonically increasing edges.
    range : (float, float), optional

    Returns
    -------
    BinnedStatisticResult
        ``statistic`` (shape ``values.shape[:-1] + (nbins,)``),
        ``bin_edges`` and ``binnumber`` (1-based; 0 and ``nbins + 1`` for
        points outside, as SciPy).

    Notes
    -----
    Bins are assigned as SciPy does, including its rounding rule that puts
    points equal to the last edge to ``10**-(6 - log10(width))`` into the
    last bin; sums and counts are scatter-adds, the median a lexicographic
    sort by bin then value.  *Differences from SciPy*: a callable
    ``statistic`` is not supported (it would need the bins' contents as
    ragged arrays).  *Transformations*: jit and vmap (``bins`` must be
    static); 'mean', 'sum' and 'std' are differentiable in ``values``.

    Examples
    --------
    >>> from sciax.stats import binned_statistic
    >>> x = snp.array([0.1, 0.4, 0.45, 1.2, 1.9, 2.0, 2.5, 3.0])
    >>> v = snp.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    >>> r = binned_statistic(x, v, "mean", bins=3)
    >>> print(np.asarray(r.statistic), np.asarray(r.binnumber))
    [2.  5.  7.5] [1 1 1 2 2 2 3 3]
    """
    known = ("mean", "median", "count", "sum", "std", "min", "max")
    if callable(statistic):
        raise NotImplementedError("binned_statistic: a callable statistic is not "
                                  "supported; use one of " + ", ".join(known))
    if statistic not in known:
        raise ValueError(f"invalid statistic {statistic!r}")
    x = snp.ravel(_arr(x))
    n = x.shape[0]
    values, vshape, vals = binned_values(values, n, statistic)
    lo = hi = edges = None
    if np.ndim(bins) == 0:
        nb = int(bins)
        if range is not None:
            lo, hi = range
            if hi < lo:
                raise ValueError("In range, start must be <= stop")
            lo, hi = snp.asarray(lo, x.dtype), snp.asarray(hi, x.dtype)
    else:
        edges = snp.asarray(bins, x.dtype)
        nb = edges.shape[0] - 1
    out, edges, binnum = _binned_core(x, vals, lo, hi, edges, statistic=statistic,
                                      nb=nb)
    out = snp.reshape(out, tuple(vshape[:-1]) + (nb,)) if values.ndim else out[0]
    return BinnedStatisticResult(out, edges, binnum)


def dim_bins(x, lo, hi, edges, nb):
    """Edges and 0..nb+1 bin numbers of one dimension, as SciPy assigns them
    (edges from ``lo``/``hi`` or the data's range when ``edges`` is None;
    values on the last edge, to its rounding, go to the last bin)."""
    if edges is None:
        if lo is None:
            lo, hi = snp.min(x), snp.max(x)
        same = lo == hi
        lo, hi = snp.where(same, lo - 0.5, lo), snp.where(same, hi + 0.5, hi)
        # the last edge exactly ``hi``, as numpy.linspace sets it (the data's
        # maximum must fall on it, not past it)
        edges = snp.linspace(lo, hi, nb + 1).at[-1].set(hi)
    num = snp.digitize(x, edges)
    decimal = snp.trunc(-snp.log10(snp.min(snp.diff(edges)))) + 6
    on_edge = (x >= edges[-1]) & (_np_around(x, decimal)
                                  == _np_around(edges[-1], decimal))
    return edges, snp.where(on_edge, num - 1, num).astype(snp.int32)


@functools.partial(sciax.jit, static_argnames=("statistic", "nb"))
def _binned_core(x, vals, lo, hi, edges, *, statistic, nb):
    num = nb + 2
    edges, binnum = dim_bins(x, lo, hi, edges, nb)

    count = snp.zeros(num, vals.dtype).at[binnum].add(1.0)
    has = count > 0

    def seg_sum(v):
        return snp.zeros(num, v.dtype).at[binnum].add(v)

    if statistic == "count":
        out = snp.broadcast_to(count, (vals.shape[0], num))
    elif statistic == "sum":
        out = sciax.vmap(seg_sum)(vals)
    elif statistic in ("mean", "std"):
        total = sciax.vmap(seg_sum)(vals)
        mean = total / snp.where(has, count, 1.0)
        if statistic == "std":
            dev = vals - mean[:, binnum]
            mean = snp.sqrt(sciax.vmap(seg_sum)(dev * dev) / snp.where(has, count, 1.0))
        out = snp.where(has, mean, snp.nan)
    elif statistic in ("min", "max"):
        fill = snp.inf if statistic == "min" else -snp.inf

        def seg(v):
            z = snp.full(num, fill, v.dtype).at[binnum]
            return z.min(v) if statistic == "min" else z.max(v)

        out = snp.where(has, sciax.vmap(seg)(vals), snp.nan)
    else:
        start = snp.cumsum(count) - count

        def med(v):
            order = snp.lexsort((v, binnum))
            sv = v[order]
            a = (start + snp.floor((count - 1.0) / 2.0)).astype(snp.int32)
            b = (start + snp.ceil((count - 1.0) / 2.0)).astype(snp.int32)
            return (snp.take(sv, a, mode="clip") + snp.take(sv, b, mode="clip")) / 2.0

        out = snp.where(has, sciax.vmap(med)(vals), snp.nan)
    return out[:, 1:-1], edges, binnum


# --- differential entropy ---------------------------------------------------------


def _pad(x, m):
    shape = x.shape[:-1] + (m,)
    return snp.concatenate([snp.broadcast_to(x[..., :1], shape), x,
                            snp.broadcast_to(x[..., -1:], shape)], axis=-1)


def differential_entropy(values, *, window_length=None, base=None, axis=0,
                         method="auto", nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.differential_entropy`,
    spacing estimates of the differential entropy of a sample.

    Parameters
    ----------
    values : array_like
    window_length : int, optional
        ``m``; default ``floor(sqrt(n) + 0.5)``; ``2 <= 2 m < n``.
    base : float, optional
        Logarithm base (default e).
    axis : int
    method : {'auto', 'vasicek', 'van es', 'ebrahimi', 'correa'}
        ``'auto'``: van Es for n <= 10, Ebrahimi for n <= 1000, else
        Vasicek (SciPy's choice).
    nan_policy : str
    keepdims : bool

    Returns
    -------
    Array
        The estimate, one per sample.

    Notes
    -----
    *Transformations*: jit, vmap, and differentiable in the data (the
    spacings of the sorted sample).

    Examples
    --------
    >>> from sciax.stats import differential_entropy
    >>> x = snp.array([-1.6, -1.0, -0.6, -0.3, 0.0, 0.2, 0.5, 0.8, 1.1, 1.4, 2.0, 2.6])
    >>> print(round(float(differential_entropy(x)), 6))
    1.491214
    >>> print(round(float(differential_entropy(x, method="vasicek")), 6))
    1.277726
    """
    _nan_policy(nan_policy)
    x = _last(values, axis)
    n = x.shape[-1]
    if window_length is None:
        window_length = math.floor(math.sqrt(n) + 0.5)
    m = int(window_length)
    if not 2 <= 2 * m < n:
        raise ValueError(f"Window length ({m}) must be positive and less than half the "
                         f"sample size ({n}).")
    if base is not None and base <= 0:
        raise ValueError("`base` must be a positive number or `None`.")
    method = method.lower()
    if method not in ("vasicek", "van es", "correa", "ebrahimi", "auto"):
        raise ValueError("`method` must be one of {'vasicek', 'van es', 'correa', "
                         "'ebrahimi', 'auto'}")
    if method == "auto":
        method = "van es" if n <= 10 else ("ebrahimi" if n <= 1000 else "vasicek")
    res = _entropy_core(x, m=m, method=method)
    if base is not None:
        res = res / math.log(base)
    return _keep(res, keepdims)


@functools.partial(sciax.jit, static_argnames=("m", "method"))
def _entropy_core(x, *, m, method):
    n = x.shape[-1]
    x = snp.sort(x, axis=-1)
    if method == "vasicek":
        p = _pad(x, m)
        spacing = p[..., 2 * m:] - p[..., :-2 * m]
        res = snp.mean(snp.log(n / (2.0 * m) * spacing), axis=-1)
    elif method == "van es":
        diff = x[..., m:] - x[..., :-m]
        term1 = snp.sum(snp.log((n + 1.0) / m * diff), axis=-1) / (n - m)
        res = term1 + math.fsum(1.0 / k for k in range(m, n + 1)) + math.log(m) \
            - math.log(n + 1.0)
    elif method == "ebrahimi":
        p = _pad(x, m)
        i = np.arange(1.0, n + 1.0)
        ci = np.where(i <= m, 1.0 + (i - 1.0) / m, 2.0)
        ci = np.where(i >= n - m + 1, 1.0 + (n - i) / m, ci)
        res = snp.mean(snp.log(n * (p[..., 2 * m:] - p[..., :-2 * m])
                               / (snp.asarray(ci) * m)), axis=-1)
    else:
        p = _pad(x, m)
        dj = np.arange(-m, m + 1)[:, None]
        j0 = np.arange(1, n + 1)[None, :] + dj + m - 1
        win = p[..., j0]
        diff = win - snp.mean(win, axis=-2, keepdims=True)
        num = snp.sum(diff * snp.asarray(dj, x.dtype), axis=-2)
        den = n * snp.sum(diff * diff, axis=-2)
        res = -snp.mean(snp.log(num / den), axis=-1)
    return res


__all__ = ["AndersonResult", "ShapiroResult", "TheilslopesResult",
           "SiegelslopesResult", "BinnedStatisticResult", "ks_2samp", "anderson",
           "shapiro", "theilslopes", "siegelslopes", "binned_statistic",
           "differential_entropy"]
