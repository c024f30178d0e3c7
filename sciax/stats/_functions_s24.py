"""Session-24 statistical functions: SciPy's resampling configurations
``MonteCarloMethod`` and ``BootstrapMethod``, ``spearmanrho`` (SciPy
1.17's Spearman correlation: Pearson's r of the ranks, with pearsonr's
p-value or a permutation or Monte Carlo test of it), ``CensoredData`` and
the log-rank test.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, NamedTuple

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.special

from sciax.stats._functions_s23 import PermutationMethod
from sciax.stats._resampling import monte_carlo_test, permutation_test
from sciax.stats._stats_py import SignificanceResult, pearsonr, rankdata


class _ResamplingMethod:
    """What SciPy's resampling configurations share: ``n_resamples``,
    ``batch`` (accepted; sciax ``vmap``s all resamples at once) and a key
    (``rng``, a :mod:`sciax.random` key or an integer seed)."""

    _fields: tuple[str, ...] = ()

    def _asdict(self):
        return {f: getattr(self, f) for f in self._fields}

    def __repr__(self):
        args = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({args})"

    def __eq__(self, other):
        return type(self) is type(other) and self._asdict() == other._asdict()


class MonteCarloMethod(_ResamplingMethod):
    """sciax counterpart of :class:`scipy.stats.MonteCarloMethod`: how a
    test's null distribution is simulated.

    Parameters
    ----------
    n_resamples : int
        Monte Carlo samples (default 9999).
    batch : int, optional
        Accepted for SciPy's signature (all samples are ``vmap``-ed).
    rvs : callable or tuple of callables, optional
        Samplers of the null distribution, called as ``rvs(size=shape,
        random_state=key)`` (the ``rvs`` of a sciax.stats distribution); by
        default the test's own (standard normal for :func:`spearmanrho`).
    rng : sciax.random key or int, optional
        The key (or seed) of the draws.  SciPy takes ``rvs`` or ``rng`` (its
        ``rvs`` carry their own generator); sciax's ``rvs`` take the key, so
        both may be given.

    Examples
    --------
    >>> from sciax.stats import MonteCarloMethod
    >>> MonteCarloMethod(n_resamples=99, rng=0)
    MonteCarloMethod(n_resamples=99, batch=None, rvs=None, rng=0)
    """

    _fields = ("n_resamples", "batch", "rvs", "rng")

    def __init__(self, n_resamples=9999, batch=None, rvs=None, rng=None):
        self.n_resamples, self.batch, self.rvs, self.rng = n_resamples, batch, rvs, rng


class BootstrapMethod(_ResamplingMethod):
    """sciax counterpart of :class:`scipy.stats.BootstrapMethod`: how a
    bootstrap confidence interval is taken (the arguments of
    :func:`sciax.stats.bootstrap`).

    Parameters
    ----------
    n_resamples : int
        Bootstrap resamples (default 9999).
    batch : int, optional
        Accepted for SciPy's signature.
    random_state, rng : sciax.random key or int, optional
        The key (or seed) of the resamples (one of the two).
    method : {'BCa', 'percentile', 'basic'}
        The interval's method (default ``'BCa'``).

    Examples
    --------
    >>> from sciax.stats import BootstrapMethod
    >>> BootstrapMethod(method='percentile', rng=1).method
    'percentile'
    """

    _fields = ("n_resamples", "batch", "random_state", "method", "rng")

    def __init__(self, n_resamples=9999, batch=None, random_state=None, method="BCa",
                 *, rng=None):
        if random_state is not None and rng is not None:
            raise ValueError("BootstrapMethod: give `random_state` or `rng`, not both")
        if not isinstance(method, str) or method.lower() not in ("bca", "percentile",
                                                                 "basic"):
            raise ValueError("`method` must be in {'BCa', 'percentile', 'basic'}, "
                             f"got {method!r}")
        self.n_resamples, self.batch, self.method = n_resamples, batch, method
        self.random_state, self.rng = random_state, rng

    def _key(self):
        return self.rng if self.rng is not None else self.random_state


def _pearson_last(x, y, axis=-1):
    """Pearson's r along the last axis (for the resampling tests)."""
    xm = x - snp.mean(x, axis=axis, keepdims=True)
    ym = y - snp.mean(y, axis=axis, keepdims=True)
    num = snp.sum(xm * ym, axis=axis)
    den = snp.sqrt(snp.sum(xm * xm, axis=axis) * snp.sum(ym * ym, axis=axis))
    return snp.clip(num / den, -1.0, 1.0)


def _spearman_stat(x, y, axis=-1):
    return _pearson_last(rankdata(x, axis=-1), rankdata(y, axis=-1))


def _normal_rvs(size, random_state):
    return sciax.random.normal(random_state, size, snp.result_type(1.0))


def spearmanrho(x, y, /, *, alternative="two-sided", method=None, axis=0,
                nan_policy="propagate", keepdims=False):
    """sciax implementation of :func:`scipy.stats.spearmanrho`: Spearman's
    rank correlation with a p-value.

    Parameters
    ----------
    x, y : array_like
        Paired observations (broadcastable).
    alternative : {'two-sided', 'less', 'greater'}
    method : PermutationMethod or MonteCarloMethod, optional
        None (default): the p-value of :func:`pearsonr` on the ranks (its
        exact null distribution for normal data, as SciPy);
        ``PermutationMethod``: a permutation test of the ranks' correlation
        (random pairings: sciax does not enumerate all ``n!`` when
        ``n_resamples`` exceeds it, where SciPy does); ``MonteCarloMethod``:
        :func:`monte_carlo_test` with standard normal samples unless ``rvs``
        is given.
    axis : int or None
        The axis of the observations (None: both raveled).
    nan_policy : {'propagate', 'raise'}
        ``'omit'`` is not supported (it would make the sample sizes data
        dependent).
    keepdims : bool
        Keep the reduced axis with length 1.

    Returns
    -------
    SignificanceResult
        ``statistic`` (Spearman's rho) and ``pvalue``.

    Examples
    --------
    >>> from sciax.stats import spearmanrho
    >>> res = spearmanrho(snp.array([1.0, 2.0, 3.0, 4.0, 5.0]),
    ...                   snp.array([5.0, 6.0, 7.0, 8.0, 7.0]))
    >>> print(round(float(res.statistic), 6), round(float(res.pvalue), 6))
    0.820783 0.088587
    """
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError("alternative must be 'two-sided', 'less' or 'greater', got "
                         f"{alternative!r}")
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError(f"nan_policy must be 'propagate', 'raise' or 'omit', got "
                         f"{nan_policy!r}")
    if nan_policy == "omit":
        raise NotImplementedError("spearmanrho: nan_policy='omit' is not supported "
                                  "(use 'propagate' or 'raise')")
    if method is not None and not isinstance(method, (PermutationMethod,
                                                      MonteCarloMethod)):
        raise ValueError("`method` must be None, a PermutationMethod or a "
                         f"MonteCarloMethod, got {method!r}")
    x, y = snp.asarray(x), snp.asarray(y)
    x = x.astype(snp.result_type(x, y, 1.0))
    y = y.astype(x.dtype)
    if axis is None:
        x, y = snp.ravel(x), snp.ravel(y)
        axis = 0
    x, y = snp.broadcast_arrays(x, y)
    x, y = snp.moveaxis(x, axis, -1), snp.moveaxis(y, axis, -1)
    if x.shape[-1] < 2:
        raise ValueError("spearmanrho needs at least 2 observations")
    if nan_policy == "raise" and bool(snp.any(snp.isnan(x)) | snp.any(snp.isnan(y))):
        raise ValueError("The input contains nan values")
    rx, ry, bad = _ranks_and_nans(x, y)
    if method is None:
        # (pearsonr's own program: a jit of the ranks and p-value together
        # took 12 s to compile)
        res = pearsonr(rx, ry, alternative=alternative, axis=-1)
        stat, p = res.statistic, res.pvalue
    else:
        stat, p = _resampled(x, y, method, alternative)
    stat = snp.where(bad, snp.nan, stat)
    p = snp.where(bad, snp.nan, p)
    if keepdims:
        stat = snp.moveaxis(stat[..., None], -1, axis)
        p = snp.moveaxis(p[..., None], -1, axis)
    return SignificanceResult(stat, p)


@sciax.jit
def _ranks_and_nans(x, y):
    """The ranks along the last axis and where a pair holds a NaN."""
    bad = snp.any(snp.isnan(x), axis=-1) | snp.any(snp.isnan(y), axis=-1)
    return rankdata(x, axis=-1), rankdata(y, axis=-1), bad


def _resampled(x, y, method, alternative):
    """The permutation or Monte Carlo test of rho, one 1-D pair at a time
    (``vmap``-ed over the batch axes)."""
    opts = method._asdict()
    batch_shape = x.shape[:-1]
    xf, yf = x.reshape((-1, x.shape[-1])), y.reshape((-1, y.shape[-1]))
    n_res = int(opts["n_resamples"])
    if isinstance(method, PermutationMethod):
        seed = opts["rng"] if opts["rng"] is not None else opts["random_state"]
        if seed is None:
            raise ValueError("spearmanrho: the random permutations need a key: "
                             "method=PermutationMethod(rng=sciax.random.key(seed))")

        def one(a, b):
            r = permutation_test((a, b), _spearman_stat, permutation_type="pairings",
                                 n_resamples=n_res, alternative=alternative,
                                 random_state=seed)
            return r.statistic, r.pvalue
    else:
        rvs = opts["rvs"]
        if rvs is None:
            rvs = (_normal_rvs, _normal_rvs)
        elif callable(rvs):
            rvs = (rvs, rvs)
        seed = opts["rng"]
        if seed is None:
            raise ValueError("spearmanrho: the Monte Carlo samples need a key: "
                             "method=MonteCarloMethod(rng=sciax.random.key(seed))")

        def one(a, b):
            r = monte_carlo_test((a, b), rvs, _spearman_stat, vectorized=True,
                                 n_resamples=n_res, alternative=alternative,
                                 random_state=seed)
            return r.statistic, r.pvalue

    stat, p = sciax.jit(sciax.vmap(one))(xf, yf)
    return stat.reshape(batch_shape), p.reshape(batch_shape)


# --- CensoredData and logrank ------------------------------------------------------


def _validate_1d(a, name, allow_inf=False):
    a = np.asarray(a, dtype=float)
    if a.ndim != 1:
        raise ValueError(f"`{name}` must be a one-dimensional sequence.")
    if np.isnan(a).any():
        raise ValueError(f"`{name}` must not contain nan.")
    if not allow_inf and np.isinf(a).any():
        raise ValueError(f"`{name}` must contain only finite values.")
    return a


def _split_intervals(interval):
    """SciPy's ``_validate_interval``: rows ``(low, high)`` with equal ends
    are uncensored, ``-inf`` lows left-censored, ``inf`` highs
    right-censored, the rest intervals."""
    iv = np.asarray(interval, dtype=float)
    if iv.size == 0:
        iv = iv.reshape(0, 2)
    if iv.ndim != 2 or iv.shape[-1] != 2:
        raise ValueError("`interval` must be a two-dimensional array with shape "
                         "(m, 2), where m is the number of intervals.  Got "
                         f"{iv.shape}.")
    if np.isnan(iv).any():
        raise ValueError("`interval` must not contain nan.")
    lo, hi = iv[:, 0], iv[:, 1]
    if np.any((np.isinf(lo) & np.isinf(hi))):
        raise ValueError("In each interval, at least one of the endpoints must "
                         "be finite.")
    if np.any(lo > hi):
        raise ValueError("In each interval, low must be less than or equal to high.")
    unc = lo == hi
    left = np.isinf(lo) & ~unc
    right = np.isinf(hi) & ~unc
    rest = ~(unc | left | right)
    return lo[unc], hi[left], lo[right], iv[rest]


class CensoredData:
    """sciax counterpart of :class:`scipy.stats.CensoredData`: a sample with
    uncensored, left-, right- and interval-censored observations (host data,
    as SciPy's).

    Parameters
    ----------
    uncensored, left, right : array_like, optional
        1-D observed values, and upper (left-censored) or lower
        (right-censored) bounds.
    interval : array_like, optional
        ``(m, 2)`` rows ``(low, high)``; equal ends count as uncensored and
        an infinite end as left or right censoring (as SciPy).

    Examples
    --------
    >>> from sciax.stats import CensoredData
    >>> d = CensoredData.right_censored([1.0, 2.5, 3.0], [False, True, False])
    >>> len(d), d.num_censored()
    (3, 1)
    """

    def __init__(self, uncensored=None, *, left=None, right=None, interval=None):
        unc = _validate_1d([] if uncensored is None else uncensored, "uncensored")
        lft = _validate_1d([] if left is None else left, "left")
        rgt = _validate_1d([] if right is None else right, "right")
        u2, l2, r2, iv = _split_intervals(np.empty((0, 2)) if interval is None
                                          else interval)
        self._uncensored = np.concatenate((unc, u2))
        self._left = np.concatenate((lft, l2))
        self._right = np.concatenate((rgt, r2))
        self._interval = iv

    @staticmethod
    def _x_censored(x, censored):
        x = _validate_1d(x, "x", allow_inf=False)
        c = np.asarray(censored)
        if c.ndim != 1 or len(c) != len(x):
            raise ValueError("`x` and `censored` must have the same length.")
        if c.dtype != bool:
            if not np.isin(c, [0, 1]).all():
                raise ValueError("`censored` must be boolean.")
            c = c.astype(bool)
        return x, c

    @classmethod
    def right_censored(cls, x, censored):
        """Observations ``x`` right-censored where ``censored`` is True."""
        x, c = cls._x_censored(x, censored)
        return cls(uncensored=x[~c], right=x[c])

    @classmethod
    def left_censored(cls, x, censored):
        """Observations ``x`` left-censored where ``censored`` is True."""
        x, c = cls._x_censored(x, censored)
        return cls(uncensored=x[~c], left=x[c])

    @classmethod
    def interval_censored(cls, low, high):
        """Intervals ``[low, high]`` (equal ends: uncensored; an infinite end:
        left or right censoring)."""
        lo = _validate_1d(low, "low", allow_inf=True)
        hi = _validate_1d(high, "high", allow_inf=True)
        if len(lo) != len(hi):
            raise ValueError("`low` and `high` must have the same length.")
        u, lft, rgt, iv = _split_intervals(np.column_stack((lo, hi)))
        return cls(uncensored=u, left=lft, right=rgt, interval=iv)

    def __len__(self):
        return (len(self._uncensored) + len(self._left) + len(self._right)
                + len(self._interval))

    def num_censored(self):
        """The number of censored values."""
        return len(self._left) + len(self._right) + len(self._interval)

    def __repr__(self):
        parts = [" ".join(np.array_repr(a).split()) for a in
                 (self._uncensored, self._left, self._right, self._interval)]
        return ("CensoredData(uncensored={}, left={}, right={}, interval={})"
                .format(*parts))

    def _uncensor(self):
        """Every value as if observed (SciPy's: interval midpoints)."""
        return np.concatenate((self._uncensored, self._left, self._right,
                               self._interval.mean(axis=1)))


class LogRankResult(NamedTuple):
    """``statistic`` and ``pvalue`` of :func:`logrank`."""
    statistic: Any
    pvalue: Any


def _as_right_censored(sample, name):
    if not isinstance(sample, CensoredData):
        sample = CensoredData(uncensored=sample)
    if len(sample._left) or len(sample._interval):
        raise ValueError(f"`{name}` must be right-censored (no left- or "
                         "interval-censored values)")
    if len(sample._uncensored) + len(sample._right) == 0:
        raise ValueError(f"`{name}` must hold at least one observation")
    return sample


@functools.partial(sciax.jit, static_argnums=3)
def _logrank_core(times, event, in_x, alternative):
    """The log-rank statistic on the pooled sample: at each distinct event
    time, the numbers at risk (time >= t) in both groups and the events,
    each distinct time counted once (the first event at it)."""
    ge = times[None, :] >= times[:, None]           # [j, i]: t_i >= t_j
    at_risk = snp.sum(ge, axis=1).astype(times.dtype)
    at_risk_x = snp.sum(ge & in_x[None, :], axis=1).astype(times.dtype)
    same = (times[None, :] == times[:, None]) & event[None, :]
    deaths = snp.sum(same, axis=1).astype(times.dtype)
    n = times.shape[0]
    earlier = snp.arange(n)[None, :] < snp.arange(n)[:, None]
    first = event & ~snp.any(same & earlier, axis=1)
    at_risk_y = at_risk - at_risk_x
    safe = snp.where(at_risk > 1, at_risk, 2.0)
    var = snp.where(first & (at_risk > 1), at_risk_x * at_risk_y * deaths
                    * (at_risk - deaths) / (safe * safe * (safe - 1.0)), 0.0)
    expected = snp.sum(snp.where(first, at_risk_x * deaths / snp.where(
        at_risk > 0, at_risk, 1.0), 0.0))
    observed = snp.sum(event & in_x).astype(times.dtype)
    z = (observed - expected) / snp.sqrt(snp.sum(var))
    if alternative == "less":
        p = sciax.special.ndtr(z)
    elif alternative == "greater":
        p = sciax.special.ndtr(-z)
    else:
        p = 2.0 * sciax.special.ndtr(-snp.abs(z))
    return z, p


def logrank(x, y, alternative="two-sided"):
    """sciax implementation of :func:`scipy.stats.logrank`: the log-rank test
    that two (right-censored) samples of survival times come from the same
    distribution.

    Parameters
    ----------
    x, y : array_like or CensoredData
        The samples (uncensored and right-censored values).
    alternative : {'two-sided', 'less', 'greater'}
        'less': ``x``'s survival function is below ``y``'s (events in ``x``
        come earlier); 'greater' the opposite.

    Returns
    -------
    LogRankResult
        ``statistic``, ``(O - E)/sqrt(V)`` for ``x`` (the square root of
        the usual chi-square form), and ``pvalue`` from the standard normal.

    Examples
    --------
    >>> from sciax.stats import CensoredData, logrank
    >>> x = CensoredData.right_censored([1.0, 3.0, 4.0, 6.0], [0, 0, 1, 0])
    >>> y = CensoredData.right_censored([2.0, 5.0, 7.0, 8.0], [0, 1, 0, 0])
    >>> res = logrank(x, y)
    >>> print(round(float(res.statistic), 6), round(float(res.pvalue), 6))
    1.258966 0.208043
    """
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError("alternative must be 'two-sided', 'less' or 'greater', got "
                         f"{alternative!r}")
    x, y = _as_right_censored(x, "x"), _as_right_censored(y, "y")
    times = np.concatenate((x._uncensored, x._right, y._uncensored, y._right))
    event = np.concatenate([np.full(len(a), flag) for a, flag in (
        (x._uncensored, True), (x._right, False), (y._uncensored, True),
        (y._right, False))])
    in_x = np.arange(len(times)) < len(x)
    z, p = _logrank_core(snp.asarray(times), snp.asarray(event), snp.asarray(in_x),
                         alternative)
    return LogRankResult(z, p)


# --- power --------------------------------------------------------------------------


class PowerResult(NamedTuple):
    """``power`` and the simulated ``pvalues`` of :func:`power`."""
    power: Any
    pvalues: Any


def _accepts(fn, kwargs):
    """The entries of ``kwargs`` that ``fn`` takes (SciPy's ``_wrap_kwargs``)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return kwargs
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return kwargs
    return {k: v for k, v in kwargs.items() if k in params}


def power(test, rvs, n_observations, *, significance=0.01, vectorized=None,
          n_resamples=10000, batch=None, kwargs=None, random_state=None):
    """sciax implementation of :func:`scipy.stats.power`: the power of a
    test by simulation, the fraction of samples drawn from ``rvs`` on which
    ``test``'s p-value is below ``significance``.

    Parameters
    ----------
    test : callable
        ``test(*samples, **kwargs, axis=-1)`` returning an object with
        ``pvalue`` (or the p-values), e.g. :func:`sciax.stats.ttest_ind`;
        without an ``axis`` parameter (or ``vectorized=False``) it is
        ``vmap``-ed over the resamples.
    rvs : callable or sequence of callables
        Samplers called as ``rvs(size=shape, random_state=key, **kwargs)``
        (the ``rvs`` of a sciax.stats distribution; ``functools.partial``
        fixes its parameters).
    n_observations : int array_like or sequence of them
        Sample sizes (one per sampler), broadcast together with ``kwargs``'
        values; each combination is simulated separately.
    significance : float array_like
        Levels in ``[0, 1]`` (the result's leading axes).
    vectorized : bool, optional
    n_resamples : int
        Simulated samples per combination (default 10000).
    batch : int, optional
        Accepted for SciPy's signature (each combination is one draw).
    kwargs : dict, optional
        Keyword arrays passed to ``rvs`` and ``test`` (those each accepts).
    random_state : sciax.random key or int
        Required (SciPy's samplers carry their own generators; sciax's take
        this key, split per combination and sampler).

    Returns
    -------
    PowerResult
        ``power`` (shape ``significance.shape + broadcast shape``) and
        ``pvalues``.

    Examples
    --------
    >>> import functools
    >>> from sciax.stats import norm, power
    >>> def ztest(x, axis=-1):
    ...     z = snp.mean(x, axis=axis) * np.sqrt(x.shape[axis])
    ...     return 2 * norm.sf(abs(z))
    >>> rvs = functools.partial(norm.rvs, loc=0.5)
    >>> res = power(ztest, rvs, 20, significance=0.05, n_resamples=4000, random_state=0)
    >>> bool(abs(float(res.power) - 0.6088) < 0.03)    # the exact power
    True
    """
    if vectorized not in (True, False, None):
        raise ValueError("`vectorized` must be `True`, `False`, or `None`.")
    if callable(rvs):
        rvs, n_observations = (rvs,), (n_observations,)
    rvs = tuple(rvs)
    if not all(callable(r) for r in rvs):
        raise TypeError("`rvs` must be callable or sequence of callables.")
    if len(rvs) != len(n_observations):
        raise ValueError("If `rvs` is a sequence, `len(rvs)` must equal "
                         "`len(n_observations)`.")
    kwargs = {} if kwargs is None else kwargs
    if not isinstance(kwargs, dict):
        raise TypeError("`kwargs` must be a dictionary that maps keywords to arrays.")
    if not callable(test):
        raise TypeError("`test` must be callable.")
    sig = np.asarray(significance)
    if not np.issubdtype(sig.dtype, np.floating) or sig.min() < 0 or sig.max() > 1:
        raise ValueError("`significance` must contain floats between 0 and 1.")
    n_res = int(n_resamples)
    if n_res != n_resamples or n_res <= 0:
        raise ValueError("`n_resamples` must be a positive integer.")
    if random_state is None:
        raise ValueError("power: random_state is required (a sciax.random key or an "
                         "integer seed)")
    key = sciax.random.key(int(random_state)) if isinstance(
        random_state, (int, np.integer)) else random_state
    if vectorized is None:
        try:
            vectorized = "axis" in inspect.signature(test).parameters
        except (TypeError, ValueError):
            vectorized = False
    keys_ = list(kwargs)
    grid = np.broadcast_arrays(*[np.asarray(n) for n in n_observations],
                               *[np.asarray(kwargs[k]) for k in keys_])
    shape = grid[0].shape
    flat = [g.reshape(-1) for g in grid]
    pvalues = []
    for i in range(flat[0].size if flat[0].ndim else 1):
        nobs = [int(f[i]) for f in flat[:len(rvs)]]
        kw = {k: f[i] for k, f in zip(keys_, flat[len(rvs):])}
        ks = sciax.random.split(sciax.random.fold_in(key, i), len(rvs))
        samples = [r(size=(n_res, n), random_state=ks[j], **_accepts(r, kw))
                   for j, (r, n) in enumerate(zip(rvs, nobs))]
        tkw = _accepts(test, kw)
        if vectorized:
            res = test(*samples, **tkw, axis=-1)
            p = getattr(res, "pvalue", res)
        else:
            p = sciax.vmap(lambda *a: getattr(test(*a, **tkw), "pvalue",
                                              test(*a, **tkw)))(*samples)
            p = snp.moveaxis(snp.asarray(p), 0, -1)
        pvalues.append(snp.asarray(p))
    pvalues = snp.stack(pvalues).reshape(shape + pvalues[0].shape)
    sg = snp.asarray(sig).reshape(sig.shape + (1,) * pvalues.ndim)
    powers = snp.mean((pvalues < sg).astype(snp.result_type(pvalues, 1.0)), axis=-1)
    return PowerResult(powers, pvalues)


__all__ = ["MonteCarloMethod", "BootstrapMethod", "spearmanrho", "CensoredData",
           "logrank", "power"]
