"""SciPy 1.15's random-variable interface: ``Normal(mu=0, sigma=1).cdf(x)``.

SciPy added a second way to work with distributions (``scipy.stats.Normal``,
``make_distribution``, ``truncate``, ``order_statistic``, ``Mixture``, and
arithmetic on random variables: ``2 * X + 1``, ``abs(X)``, ``exp(X)``,
``log(X)``).  A distribution object holds its parameters and its methods take
only the point: ``pdf(x)``, ``cdf(x)`` or ``cdf(x, y)`` (the probability of
``x < X <= y``), ``icdf(p)`` (the quantile), ``moment(order, kind)``,
``sample(shape, rng=key)``, and so on.

Here every such object is a thin layer over the classic distributions of
:mod:`sciax.stats` (the ``rv_continuous``/``rv_discrete`` instances, whose
methods take the parameters as arguments): an object is a *kernel* (one of
those instances) and the tuple of its parameter arrays.  A transformed
variable is a kernel built from the kernel of the variable it transforms (a
truncated distribution's density is the inner density over the mass kept,
and so on), whose parameters are the inner parameters followed by its own;
what has no closed form (the quantiles of a mixture, the moments of a
truncated variable) comes from the classic layer's numeric quantile solver
and tanh-sinh expectations.  Kernels are cached by structure, so two objects
of the same structure with different parameter values run the same compiled
programs, and the objects are pytrees of their parameters: they pass through
``jit`` and ``vmap``, and everything they compute is differentiable in the
parameters.
"""

from __future__ import annotations

import importlib
import math
import numbers
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.random
import sciax.special as sc
from sciax import lax
from sciax.stats._continuous import logistic, norm, uniform
from sciax.stats._continuous_more import _NumericQuantile
from sciax.stats._discrete import binom
from sciax.stats._distn_base import _TS_U, _TS_V, _TS_W, _stats_from_raw
from sciax.stats._distn_base import rv_continuous, rv_discrete, rv_generic

_INF = math.inf

_KINDS = ("raw", "central", "standardized")
_CONVENTIONS = ("non-excess", "excess")
_VALIDATION = (None, "skip_all")
_CACHE = (None, "no_cache")


def _concrete(v: Any):
    """``v`` as a NumPy array when it is concrete, else None (a tracer)."""
    try:
        return np.asarray(v)
    except Exception:  # a tracer: its value is not known while tracing
        return None


# --- kernels: classic distributions built from other kernels -------------------------


def _n_tail(kernel: rv_generic) -> int:
    return len(kernel._param_tail)


def _n_args(kernel: rv_generic) -> int:
    return len(kernel.shapes) + _n_tail(kernel)


def _valid(kernel: rv_generic, args) -> Any:
    """Whether the parameters ``args`` (shapes, loc[, scale]) are in the domain."""
    s = args[:len(kernel.shapes)]
    ok = kernel._argcheck(*s)
    if _n_tail(kernel) == 2:
        ok = ok & (args[-1] > 0)
    return ok


class _Composite(_NumericQuantile, rv_continuous):
    """A continuous kernel whose shapes are an inner kernel's parameters
    (``inner_args``: its shapes, loc and scale) followed by ``extra`` own ones;
    its own loc and scale are the outer layer's."""

    extra: tuple[str, ...] = ()
    _support_depends_on_shapes = True

    def __init__(self, inner: rv_generic, tag: str):
        super().__init__()
        self.inner = inner
        self.k = _n_args(inner)
        self.shapes = tuple(f"p{i}" for i in range(self.k)) + self.extra
        self.name = f"{tag}({inner.name})"

    def _split_inner(self, s):
        return tuple(s[:self.k]), tuple(s[self.k:])

    def _argcheck(self, *s):
        inner, own = self._split_inner(s)
        return snp.asarray(_valid(self.inner, inner) & self._own_check(*own))

    def _own_check(self, *own):
        return True

    def _inner_support(self, inner):
        return self.inner._support_impl(*inner)

    # the inner distribution, location and scale included
    def _ilogpdf(self, x, inner):
        return self.inner._logpdf_impl(x, *inner)

    def _icdf(self, x, inner):
        return self.inner._cdf_impl(x, *inner)

    def _isf_in(self, x, inner):
        return self.inner._sf_impl(x, *inner)

    def _ippf(self, q, inner):
        return self.inner._ppf_impl(q, *inner)

    def _iisf(self, q, inner):
        return self.inner._isf_impl(q, *inner)

    def _stats(self, *s):
        # the four moments from one set of quantile nodes (the classic layer
        # evaluates the quantile function once per moment)
        nodes = (-1,) + (1,) * max((snp.ndim(v) for v in s), default=0)
        w = snp.asarray(_TS_W).reshape(nodes)
        x = self._quantile(snp.asarray(_TS_U).reshape(nodes),
                           snp.asarray(_TS_V).reshape(nodes), *s)

        def expect(g):
            return snp.sum(snp.where(w > 0, w * g, 0.0), axis=0)

        mu = expect(x)
        d = x - mu
        c = [expect(d ** n) for n in (2, 3, 4)]
        return _stats_from_raw([mu, c[0] + mu * mu, c[1], c[2]], central=c)


class _Signed(_Composite):
    """``sign * Y`` with ``sign`` = +1 or -1 (a reflection where -1)."""

    extra = ("sign",)

    def _own_check(self, sgn):
        return (sgn == 1) | (sgn == -1)

    def _support(self, *s):
        inner, (sgn,) = self._split_inner(s)
        lo, hi = self._inner_support(inner)
        return snp.where(sgn > 0, lo, -hi), snp.where(sgn > 0, hi, -lo)

    def _logpdf(self, x, *s):
        inner, (sgn,) = self._split_inner(s)
        return self._ilogpdf(sgn * x, inner)

    def _cdf(self, x, *s):
        inner, (sgn,) = self._split_inner(s)
        return snp.where(sgn > 0, self._icdf(x, inner), self._isf_in(-x, inner))

    def _sf(self, x, *s):
        inner, (sgn,) = self._split_inner(s)
        return snp.where(sgn > 0, self._isf_in(x, inner), self._icdf(-x, inner))

    def _ppf(self, q, *s):
        inner, (sgn,) = self._split_inner(s)
        return snp.where(sgn > 0, self._ippf(q, inner), -self._iisf(q, inner))

    def _isf(self, q, *s):
        inner, (sgn,) = self._split_inner(s)
        return snp.where(sgn > 0, self._iisf(q, inner), -self._ippf(q, inner))

    def _quantile(self, u, v, *s):
        return snp.where(u <= 0.5, self._ppf(snp.minimum(u, 0.5), *s),
                         self._isf(snp.minimum(v, 0.5), *s))

    def _munp(self, n, *s):
        inner, (sgn,) = self._split_inner(s)
        return sgn ** n * self.inner._moment_impl(n, *inner)

    def _stats(self, *s):
        inner, (sgn,) = self._split_inner(s)
        m, v, g1, g2 = self.inner._stats_impl("mvsk", *inner)
        return sgn * m, v, sgn * g1, g2

    def _entropy(self, *s):
        inner, _ = self._split_inner(s)
        return self.inner._entropy_impl(*inner)

    def _rvs(self, key, shape, dtype, *s):
        inner, (sgn,) = self._split_inner(s)
        return sgn * self.inner._rvs_impl(shape, key, *inner)


class _Folded(_Composite):
    """``|Y|``."""

    def _support(self, *s):
        lo, hi = self._inner_support(s)
        return (snp.where(lo >= 0, lo, snp.where(hi <= 0, -hi, 0.0)),
                snp.where(lo >= 0, hi, snp.where(hi <= 0, -lo, snp.maximum(-lo, hi))))

    def _logpdf(self, x, *s):
        return snp.logaddexp(self._ilogpdf(x, s), self._ilogpdf(-x, s))

    def _sf(self, x, *s):
        return self._isf_in(x, s) + self._icdf(-x, s)

    def _cdf(self, x, *s):
        sf = self._sf(x, *s)
        return snp.where(sf < 0.5, 1.0 - sf, self._icdf(x, s) - self._icdf(-x, s))

    def _rvs(self, key, shape, dtype, *s):
        return snp.abs(self.inner._rvs_impl(shape, key, *s))


class _Monotonic(_Composite):
    """``g(Y)`` for ``exp`` or ``log`` (increasing maps)."""

    def __init__(self, inner, tag, g, ginv, log_dginv):
        self.g, self.ginv, self.log_dginv = g, ginv, log_dginv
        super().__init__(inner, tag)

    def _support(self, *s):
        lo, hi = self._inner_support(s)
        return _finite_map(self.g, lo), _finite_map(self.g, hi)

    def _logpdf(self, y, *s):
        return self._ilogpdf(self.ginv(y), s) + self.log_dginv(y)

    def _cdf(self, y, *s):
        return self._icdf(self.ginv(y), s)

    def _sf(self, y, *s):
        return self._isf_in(self.ginv(y), s)

    def _ppf(self, q, *s):
        return self.g(self._ippf(q, s))

    def _isf(self, q, *s):
        return self.g(self._iisf(q, s))

    def _quantile(self, u, v, *s):
        return snp.where(u <= 0.5, self._ppf(snp.minimum(u, 0.5), *s),
                         self._isf(snp.minimum(v, 0.5), *s))

    def _rvs(self, key, shape, dtype, *s):
        return self.g(self.inner._rvs_impl(shape, key, *s))


def _finite_map(g, e):
    """``g(e)``, a constant where it is infinite (``log 0``), so that reverse
    mode sends no ``0 * inf`` through the support's masked-out uses."""
    y = g(e)
    fin = snp.isfinite(y)
    return snp.where(fin, g(snp.where(fin, e, 1.0)), y)


class _Truncated(_Composite):
    """``Y`` conditioned on ``lb <= Y <= ub``."""

    extra = ("lb", "ub")

    def _own_check(self, lb, ub):
        return lb < ub

    def _support(self, *s):
        inner, (lb, ub) = self._split_inner(s)
        lo, hi = self._inner_support(inner)
        return snp.maximum(lo, lb), snp.minimum(hi, ub)

    def _ends(self, inner, lb, ub):
        """``F(lb)``, ``S(ub)`` and the mass kept, from the tail that holds it
        more precisely."""
        fl, su = self._icdf(lb, inner), self._isf_in(ub, inner)
        sl, fu = self._isf_in(lb, inner), self._icdf(ub, inner)
        z = snp.where(fl > 0.5, sl - su, fu - fl)
        return fl, su, z

    def _logpdf(self, x, *s):
        inner, (lb, ub) = self._split_inner(s)
        _, _, z = self._ends(inner, lb, ub)
        return self._ilogpdf(x, inner) - snp.log(z)

    def _cdf(self, x, *s):
        inner, (lb, ub) = self._split_inner(s)
        fl, su, z = self._ends(inner, lb, ub)
        c = snp.where(fl > 0.5, 1.0 - (self._isf_in(x, inner) - su) / z,
                      (self._icdf(x, inner) - fl) / z)
        return snp.clip(c, 0.0, 1.0)

    def _sf(self, x, *s):
        inner, (lb, ub) = self._split_inner(s)
        fl, su, z = self._ends(inner, lb, ub)
        c = snp.where(fl > 0.5, (self._isf_in(x, inner) - su) / z,
                      1.0 - (self._icdf(x, inner) - fl) / z)
        return snp.clip(c, 0.0, 1.0)

    def _quantile(self, u, v, *s):
        # the inner quantile at F = F(lb) + u z, taken from the tail that holds
        # it: the inner isf of S(ub) + v z where that F is above 1/2
        inner, (lb, ub) = self._split_inner(s)
        fl, su, z = self._ends(inner, lb, ub)
        lo, hi = self._support(*s)
        t = fl + u * z
        low = t <= 0.5
        x = snp.where(low, self._ippf(snp.where(low, t, 0.5), inner),
                      self._iisf(snp.where(low, 0.5, su + v * z), inner))
        return snp.clip(x, lo, hi)

    def _ppf(self, q, *s):
        return self._quantile(q, 1.0 - q, *s)

    def _isf(self, q, *s):
        return self._quantile(1.0 - q, q, *s)


def _times_log(a, log_v):
    """``a log v`` with ``0 log 0 = 0``."""
    return snp.where(a == 0, 0.0, a * log_v)


class _OrderStatistic(_Composite):
    """The ``r``-th smallest of ``n`` independent draws of ``Y``."""

    extra = ("r", "n")

    def _own_check(self, r, n):
        return (r >= 1) & (r <= n) & (r == snp.floor(r)) & (n == snp.floor(n))

    def _support(self, *s):
        inner, _ = self._split_inner(s)
        return self._inner_support(inner)

    def _logpdf(self, x, *s):
        inner, (r, n) = self._split_inner(s)
        logf = self.inner._logcdf_impl(x, *inner)
        logs = self.inner._logsf_impl(x, *inner)
        return (self._ilogpdf(x, inner) + _times_log(r - 1, logf)
                + _times_log(n - r, logs) - sc.betaln(r, n - r + 1))

    def _cdf(self, x, *s):
        inner, (r, n) = self._split_inner(s)
        return sc.betainc(r, n - r + 1, self._icdf(x, inner))

    def _sf(self, x, *s):
        inner, (r, n) = self._split_inner(s)
        return sc.betainc(n - r + 1, r, self._isf_in(x, inner))

    def _quantile(self, u, v, *s):
        # the inner quantile at the beta quantile w (and 1 - w, from the
        # complementary beta), from the inner tail that holds it
        inner, (r, n) = self._split_inner(s)
        w = sc.betaincinv(r, n - r + 1, u)
        wc = sc.betaincinv(n - r + 1, r, v)
        low = w <= 0.5
        return snp.where(low, self._ippf(snp.where(low, w, 0.5), inner),
                         self._iisf(snp.where(low, 0.5, wc), inner))

    def _ppf(self, q, *s):
        return self._quantile(q, 1.0 - q, *s)

    def _isf(self, q, *s):
        return self._quantile(1.0 - q, q, *s)


class _Mixture(_NumericQuantile, rv_continuous):
    """``sum_i w_i f_i``: the shapes are every component's parameters, then
    the weights."""

    _support_depends_on_shapes = True

    def __init__(self, kernels):
        super().__init__()
        self.kernels = tuple(kernels)
        self.sizes = tuple(_n_args(k) for k in kernels)
        total = sum(self.sizes)
        self.shapes = (tuple(f"p{i}" for i in range(total))
                       + tuple(f"w{i}" for i in range(len(kernels))))
        self.name = "Mixture(" + ", ".join(k.name for k in kernels) + ")"

    def _parts(self, s):
        out, i = [], 0
        for n in self.sizes:
            out.append(tuple(s[i:i + n]))
            i += n
        return out, s[i:]

    def _argcheck(self, *s):
        parts, w = self._parts(s)
        ok = True
        for k, a in zip(self.kernels, parts):
            ok = ok & _valid(k, a)
        for v in w:
            ok = ok & (v >= 0)
        return snp.asarray(ok)

    def _support(self, *s):
        parts, _ = self._parts(s)
        ends = [k._support_impl(*a) for k, a in zip(self.kernels, parts)]
        lo, hi = ends[0]
        for a, b in ends[1:]:
            lo, hi = snp.minimum(lo, a), snp.maximum(hi, b)
        return lo, hi

    def _sum(self, method, x, s):
        parts, w = self._parts(s)
        return sum(wi * getattr(k, method)(x, *a)
                   for k, a, wi in zip(self.kernels, parts, w))

    def _logpdf(self, x, *s):
        parts, w = self._parts(s)
        terms = [snp.log(wi) + k._logpdf_impl(x, *a)
                 for k, a, wi in zip(self.kernels, parts, w)]
        return sc.logsumexp(snp.stack(snp.broadcast_arrays(*terms)), axis=0)

    def _cdf(self, x, *s):
        return self._sum("_cdf_impl", x, s)

    def _sf(self, x, *s):
        return self._sum("_sf_impl", x, s)

    def _munp(self, n, *s):
        parts, w = self._parts(s)
        return sum(wi * k._moment_impl(n, *a) for k, a, wi in zip(self.kernels, parts, w))

    def _stats(self, *s):
        # the mixture's central moments from each component's mean and central
        # moments (no cancellation of raw moments about a distant origin)
        parts, w = self._parts(s)
        comp = [k._stats_impl("mvsk", *a) for k, a in zip(self.kernels, parts)]
        mu = sum(wi * c[0] for wi, c in zip(w, comp))
        c2 = c3 = c4 = 0.0
        for wi, (m, v, g1, g2) in zip(w, comp):
            d = m - mu
            k3 = g1 * v ** 1.5
            k4 = (g2 + 3.0) * v * v
            c2 = c2 + wi * (v + d * d)
            c3 = c3 + wi * (k3 + 3 * d * v + d ** 3)
            c4 = c4 + wi * (k4 + 4 * d * k3 + 6 * d * d * v + d ** 4)
        return _stats_from_raw([mu, c2 + mu * mu, c3, c4], central=(c2, c3, c4))

    def _entropy(self, *s):
        # -sum_i w_i E_i[log f(X_i)], each expectation in component i's own
        # quantile variable and split where another component's support
        # ends (the mixture's density jumps there: one tanh-sinh rule across
        # a jump loses digits, 1.5% on a normal-uniform mixture)
        parts, w = self._parts(s)
        ends = []
        for k, a in zip(self.kernels, parts):
            lo, hi = k._support_impl(*a)
            ends += [lo, hi]

        def log_f(x):
            lf = self._logpdf(x, *s)
            return snp.where(lf == -_INF, 0.0, lf)

        total = 0.0
        for k, a, wi in zip(self.kernels, parts, w):
            cuts = [k._cdf_impl(e, *a) for e in ends]
            cuts = [snp.where(snp.isfinite(c), c, 0.0) for c in cuts]
            us = snp.sort(snp.stack(snp.broadcast_arrays(0.0, 1.0, *cuts)), axis=0)
            part = 0.0
            for j in range(us.shape[0] - 1):
                part = part + _expect_piece(k, a, us[j], us[j + 1], log_f)
            total = total + wi * part
        return -total

    def _rvs(self, key, shape, dtype, *s):
        parts, w = self._parts(s)
        keys = sciax.random.split(key, len(self.kernels) + 1)
        ws = snp.stack(snp.broadcast_arrays(*w), axis=-1)
        choice = sciax.random.categorical(keys[0], snp.log(ws), shape=shape)
        draws = [k._rvs_impl(shape, kk, *a)
                 for k, kk, a in zip(self.kernels, keys[1:], parts)]
        return snp.choose(choice, draws)


def _expect_piece(kernel, args, ua, ub, g):
    """``int_ua^ub g(Q(u)) du`` for the kernel's quantile function ``Q`` (its
    loc and scale included) by the classic layer's tanh-sinh nodes mapped onto
    ``[ua, ub]``; ``1 - u`` is formed from ``1 - ub`` so that upper pieces
    keep their digits."""
    nodes = (-1,) + (1,) * snp.ndim(ua)
    t_u = snp.asarray(_TS_U).reshape(nodes)
    t_v = snp.asarray(_TS_V).reshape(nodes)
    t_w = snp.asarray(_TS_W).reshape(nodes)
    width = ub - ua
    u = ua + width * t_u
    v = (1.0 - ub) + width * t_v
    lower = u <= 0.5
    x = snp.where(lower, kernel._ppf_impl(snp.where(lower, u, 0.5), *args),
                  kernel._isf_impl(snp.where(lower, 0.5, v), *args))
    gx = g(x)
    return width * snp.sum(snp.where((t_w > 0) & (width > 0), t_w * gx, 0.0), axis=0)


_KERNELS: dict = {}


def _kernel(cls, inner, tag, *extra):
    """One kernel per structure, so equal structures share compiled programs."""
    key = (cls, inner, tag) + extra
    k = _KERNELS.get(key)
    if k is None:
        k = cls(inner, tag, *extra) if cls is not _Mixture else cls(inner)
        _KERNELS[key] = k
    return k


# --- the random-variable objects ---------------------------------------------------


def _as_array(v):
    return snp.asarray(v, dtype=float) if not hasattr(v, "dtype") else snp.asarray(v)


def _fmt(v):
    c = _concrete(v)
    if c is None:
        return "<traced>"
    if c.ndim == 0:
        return repr(float(c)) if c.dtype.kind == "f" else repr(c.item())
    return np.array2string(c, separator=", ")


def _check_keywords(method, tol, validation_policy, cache_policy):
    if validation_policy not in _VALIDATION:
        raise ValueError(f"validation_policy must be None or 'skip_all', got "
                         f"{validation_policy!r}")
    if cache_policy not in _CACHE:
        raise ValueError(f"cache_policy must be None or 'no_cache', got "
                         f"{cache_policy!r}")


class _RandomVariable:
    """What continuous and discrete random variables share (see the module
    docstring).  Subclasses set ``_kernel``, ``_args`` (a tuple of arrays:
    the kernel's shapes, then loc and, for continuous kernels, scale) and
    ``_repr``."""

    _kernel: rv_generic
    _args: tuple
    _repr: str = "RandomVariable()"
    _params: dict = {}
    _extra_fields: tuple[str, ...] = ()

    # -- construction helpers --

    def _setup(self, kernel, args, params, text):
        self._kernel = kernel
        self._args = tuple(_as_array(a) for a in args)
        self._params = dict(params)
        self._repr = text
        self.tol = None
        self.validation_policy = None
        self.cache_policy = None

    def __getattr__(self, name):
        params = self.__dict__.get("_params", {})
        if name in params:
            return params[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __repr__(self):
        return self._repr

    def reset_cache(self):
        """Nothing to reset: sciax keeps no per-object cache (the compiled
        programs are cached per structure)."""

    # -- the pieces every method uses --

    def _call(self, name, *front, **kw):
        return getattr(self._kernel, name)(*front, *self._args, **kw)

    @staticmethod
    def _check_method(method):
        if method is not None and not isinstance(method, str):
            raise TypeError(f"method must be None or a string, got {method!r}")

    def support(self):
        """The support ``(lower, upper)`` (arrays of the parameters' shape)."""
        return self._call("support")

    def median(self, *, method=None):
        """The median, ``icdf(0.5)``."""
        self._check_method(method)
        return self.icdf(0.5)

    def _mvsk(self):
        # one compiled program for the four (a derived variable's come from
        # one set of quadrature nodes)
        return self._call("stats", moments="mvsk")

    def mean(self, *, method=None):
        """The mean."""
        self._check_method(method)
        return self._mvsk()[0]

    def variance(self, *, method=None):
        """The variance."""
        self._check_method(method)
        return self._mvsk()[1]

    def standard_deviation(self, *, method=None):
        """The standard deviation."""
        return snp.sqrt(self.variance(method=method))

    def skewness(self, *, method=None):
        """The skewness (third standardized moment)."""
        self._check_method(method)
        return self._mvsk()[2]

    def kurtosis(self, *, method=None, convention="non-excess"):
        """The kurtosis: fourth standardized moment (``convention='non-excess'``,
        3 for a normal distribution) or that minus 3 (``'excess'``)."""
        self._check_method(method)
        if convention not in _CONVENTIONS:
            raise ValueError(f"convention must be one of {_CONVENTIONS}, got "
                             f"{convention!r}")
        k = self._mvsk()[3]
        return k if convention == "excess" else k + 3.0

    def moment(self, order=1, kind="raw", *, method=None):
        """The moment of integer ``order``: ``'raw'`` (``E[X**order]``),
        ``'central'`` (about the mean) or ``'standardized'`` (central over
        ``sigma**order``)."""
        self._check_method(method)
        if isinstance(order, bool) or not isinstance(order, numbers.Integral) \
                or order < 0:
            raise ValueError(f"order must be a non-negative integer, got {order!r}")
        if kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}")
        order = int(order)
        if order <= 4:
            # from the mean and the central moments of one program
            m, v, s, k = self._mvsk()
            cm = [snp.ones_like(m), snp.zeros_like(m), v, s * v ** 1.5,
                  (k + 3.0) * v * v]
            if kind == "raw":
                return sum(math.comb(order, j) * cm[j] * m ** (order - j)
                           for j in range(order + 1) if j != 1)
            central = cm[order]
        elif kind == "raw":
            return self._call("moment", order)
        else:
            m = self.mean()
            raw = [snp.ones_like(m)] + [self._call("moment", j)
                                        for j in range(1, order + 1)]
            central = sum(math.comb(order, j) * raw[j] * (-m) ** (order - j)
                          for j in range(order + 1))
            v = self.variance()
        if kind == "central":
            return central
        return central / v ** (order / 2)

    def logentropy(self, *, method=None):
        """The logarithm of the entropy, complex where the entropy is negative
        (as SciPy's)."""
        return snp.log(snp.asarray(self.entropy(method=method)) + 0j)

    def entropy(self, *, method=None):
        """The (differential) entropy in nats."""
        self._check_method(method)
        return self._call("entropy")

    # -- tails --

    def _two(self, x, y, log, complement):
        """``P(x < X <= y)`` (or its complement) from whichever tail keeps
        the digits."""
        fx, fy = self._call("cdf", x), self._call("cdf", y)
        sx, sy = self._call("sf", x), self._call("sf", y)
        p = snp.where(fx > 0.5, sx - sy, fy - fx)
        if complement:
            p = snp.where(fx > 0.5, 1.0 - (sx - sy), fx + sy)
        return snp.log(p + 0j) if log else p

    def cdf(self, x, y=None, /, *, method=None):
        """``P(X <= x)``, or with ``y`` the probability ``P(x < X <= y)``."""
        self._check_method(method)
        if y is None:
            return self._call("cdf", x)
        return self._two(x, y, False, False)

    def ccdf(self, x, y=None, /, *, method=None):
        """``P(X > x)``, or with ``y`` the probability outside ``(x, y]``."""
        self._check_method(method)
        if y is None:
            return self._call("sf", x)
        return self._two(x, y, False, True)

    def logcdf(self, x, y=None, /, *, method=None):
        """``log P(X <= x)``; with ``y`` the (complex) logarithm of
        ``P(x < X <= y)``, as SciPy's."""
        self._check_method(method)
        if y is None:
            return self._call("logcdf", x)
        return self._two(x, y, True, False)

    def logccdf(self, x, y=None, /, *, method=None):
        """``log P(X > x)``; with ``y`` the (complex) logarithm of the
        probability outside ``(x, y]``."""
        self._check_method(method)
        if y is None:
            return self._call("logsf", x)
        return self._two(x, y, True, True)

    def icdf(self, p, /, *, method=None):
        """The quantile: the smallest ``x`` with ``cdf(x) >= p``."""
        self._check_method(method)
        return self._call("ppf", p)

    def iccdf(self, p, /, *, method=None):
        """The inverse of ``ccdf``: ``x`` with ``ccdf(x) = p``."""
        self._check_method(method)
        return self._call("isf", p)

    def ilogcdf(self, logp, /, *, method=None):
        """The inverse of ``logcdf`` (``icdf(exp(logp))``; below ``log`` of the
        smallest normal number the argument underflows)."""
        return self.icdf(snp.exp(logp), method=method)

    def ilogccdf(self, logp, /, *, method=None):
        """The inverse of ``logccdf``."""
        return self.iccdf(snp.exp(logp), method=method)

    # -- sampling and plotting --

    def sample(self, shape=(), *, method=None, rng=None):
        """Draws of shape ``shape + `` the parameters' shape.

        ``rng`` is a :mod:`sciax.random` key or an integer seed (required:
        sciax has no global random state).  Continuous samples are
        differentiable in the parameters (reparameterisation)."""
        self._check_method(method)
        shape = (int(shape),) if isinstance(shape, numbers.Integral) else tuple(
            int(n) for n in shape)
        bshape = snp.broadcast_shapes(*[snp.shape(a) for a in self._args])
        return self._call("rvs", size=shape + tuple(bshape), random_state=rng)

    def plot(self, x="x", y=None, *, t=None, ax=None):
        """Plot ``y`` (``'pdf'``/``'pmf'``, ``'cdf'``, ``'ccdf'``, ``'logpdf'``,
        ...) against ``x`` (``'x'``, or a quantity such as ``'cdf'``) for
        ``t = (var, lo, hi)`` (default: ``('cdf', 0.0005, 0.9995)``) on the
        matplotlib Axes ``ax`` (default: the current one).  Needs matplotlib."""
        y = y or ("pmf" if isinstance(self, DiscreteDistribution) else "pdf")
        var, lo, hi = t if t is not None else ("cdf", 0.0005, 0.9995)
        if var in ("x",):
            grid = np.linspace(float(lo), float(hi), 200)
        elif var in ("cdf", "icdf"):
            grid = np.asarray(self.icdf(snp.linspace(float(lo), float(hi), 200)))
        else:
            raise ValueError(f"t[0] must be 'x' or 'cdf', got {var!r}")
        if ax is None:
            plt = importlib.import_module("matplotlib.pyplot")
            ax = plt.gca()

        def value(name):
            if name == "x":
                return grid
            if not hasattr(self, name):
                raise ValueError(f"unknown quantity {name!r}")
            return np.asarray(getattr(self, name)(snp.asarray(grid)))

        ax.plot(value(x), value(y))
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        return ax

    # -- arithmetic --

    def _shift_scale(self, shift, scale):
        raise TypeError(f"arithmetic is not defined for {type(self).__name__}")

    def __add__(self, other):
        return self._shift_scale(other, 1.0)

    __radd__ = __add__

    def __sub__(self, other):
        return self._shift_scale(-_as_array(other), 1.0)

    def __rsub__(self, other):
        return self._shift_scale(0.0, -1.0)._shift_scale(other, 1.0)

    def __mul__(self, other):
        return self._shift_scale(0.0, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self._shift_scale(0.0, 1.0 / _as_array(other))

    def __rtruediv__(self, other):
        raise NotImplementedError("division by a random variable is not "
                                  "implemented in sciax")

    def __neg__(self):
        return self._shift_scale(0.0, -1.0)

    def __pos__(self):
        return self

    def __abs__(self):
        return abs_(self)


class ContinuousDistribution(_RandomVariable):
    """A continuous random variable (base of :class:`Normal`, the objects of
    :func:`make_distribution`, :func:`truncate`, ...)."""

    def pdf(self, x, /, *, method=None):
        """The probability density at ``x``."""
        self._check_method(method)
        return self._call("pdf", x)

    def logpdf(self, x, /, *, method=None):
        """The logarithm of the density at ``x``."""
        self._check_method(method)
        return self._call("logpdf", x)

    def pmf(self, x, /, *, method=None):
        raise NotImplementedError("a continuous distribution has no pmf; use pdf")

    logpmf = pmf

    def mode(self, *, method=None):
        """The mode: the maximiser of the density, by a grid over the central
        99.9% of the mass, then bisection on the sign of the exact derivative
        of ``logpdf`` (families with a closed form override it).  A
        multimodal density gives its highest grid peak's local maximum."""
        self._check_method(method)
        return _numeric_mode(self)

    def _shift_scale(self, shift, scale):
        return ShiftedScaledDistribution(self, shift, scale)


class DiscreteDistribution(_RandomVariable):
    """A discrete random variable on the integers (base of :class:`Binomial`
    and the discrete objects of :func:`make_distribution`)."""

    def pmf(self, x, /, *, method=None):
        """The probability mass at ``x`` (0 off the integers)."""
        self._check_method(method)
        return self._call("pmf", x)

    def logpmf(self, x, /, *, method=None):
        """The logarithm of the probability mass at ``x``."""
        self._check_method(method)
        return self._call("logpmf", x)

    def icdf(self, p, /, *, method=None):
        """The quantile: the smallest integer ``k`` of the support with
        ``cdf(k) >= p`` (the support's lower end at ``p = 0``)."""
        self._check_method(method)
        lo, _ = self.support()
        return snp.maximum(self._call("ppf", p), lo)

    def iccdf(self, p, /, *, method=None):
        """The smallest integer ``k`` of the support with ``ccdf(k) <= p``."""
        self._check_method(method)
        lo, _ = self.support()
        return snp.maximum(self._call("isf", p), lo)

    def pdf(self, x, /, *, method=None):
        raise NotImplementedError("a discrete distribution has no density; use pmf")

    logpdf = pdf

    def mode(self, *, method=None):
        """The mode: the most probable integer (the smallest one at a tie),
        searched over the integers from ``icdf(1e-4)`` to ``icdf(1 - 1e-4)``
        (at most 4,096 of them) when the family has no closed form."""
        self._check_method(method)
        lo, hi = self.icdf(1e-4), self.icdf(1 - 1e-4)
        count = 4096
        k = snp.arange(count, dtype=snp.asarray(lo).dtype).reshape(
            (count,) + (1,) * snp.ndim(lo))
        xs = lo + k
        lp = snp.where(xs <= hi, self.logpmf(xs), -_INF)
        return lo + snp.argmax(lp, axis=0).astype(xs.dtype)


def _numeric_mode(X):
    lo, hi = X.icdf(5e-4), X.icdf(1 - 5e-4)
    s_lo, s_hi = X.support()
    lo = snp.where(snp.isfinite(s_lo), s_lo, lo)
    hi = snp.where(snp.isfinite(s_hi), s_hi, hi)
    n = 257
    t = snp.linspace(0.0, 1.0, n)
    shape = snp.shape(lo)
    tt = t.reshape((n,) + (1,) * len(shape))
    xs = lo + (hi - lo) * tt
    lp = X.logpdf(xs)
    lp = snp.where(snp.isnan(lp), -_INF, lp)
    i = snp.argmax(lp, axis=0)
    step = (hi - lo) / (n - 1)
    best = lo + step * i
    a = snp.maximum(best - step, lo)
    b = snp.minimum(best + step, hi)

    def score(x):
        # d/dx log f: elementwise, so one forward pass with unit tangents
        _, d = sciax.jvp(X.logpdf, (x,), (snp.ones_like(x),))
        return d

    def body(_, c):
        a, b = c
        m = 0.5 * (a + b)
        up = score(m) > 0  # the maximum is to the right of m
        return snp.where(up, m, a), snp.where(up, b, m)

    a, b = lax.fori_loop(0, 100, body, (a, b))
    m = 0.5 * (a + b)
    # an end of the support holds the maximum (a density unbounded there)
    lp_m = snp.nan_to_num(X.logpdf(m), nan=-_INF)
    at_lo = snp.isfinite(s_lo) & (snp.nan_to_num(X.logpdf(s_lo), nan=-_INF) >= lp_m)
    at_hi = snp.isfinite(s_hi) & (snp.nan_to_num(X.logpdf(s_hi), nan=-_INF) > lp_m)
    return snp.where(at_lo, s_lo, snp.where(at_hi, s_hi, m))


class _FromKernel(ContinuousDistribution):
    """A continuous object from a kernel and its full argument tuple."""

    def __init__(self, kernel, args, params, text):
        self._setup(kernel, args, params, text)


class _DiscreteFromKernel(DiscreteDistribution):
    def __init__(self, kernel, args, params, text):
        self._setup(kernel, args, params, text)


def _flatten(X):
    """Leaves: the kernel's arguments, the named parameters and the pieces
    a derived object keeps (``_extra_fields``); no computation on unflatten."""
    extra = tuple(getattr(X, n) for n in type(X)._extra_fields)
    return ((X._args, tuple(X._params.values()), extra),
            (type(X), X._kernel, tuple(X._params), X._repr))


def _unflatten(aux, children):
    cls, kernel, names, text = aux
    args, values, extra = children
    obj = object.__new__(cls)
    obj.__dict__.update(_kernel=kernel, _args=tuple(args),
                        _params=dict(zip(names, values)), _repr=text, tol=None,
                        validation_policy=None, cache_policy=None)
    for n, v in zip(cls._extra_fields, extra):
        setattr(obj, n, v)
    return obj


# --- the named families --------------------------------------------------------------


class Normal(ContinuousDistribution):
    """The normal distribution ``N(mu, sigma**2)`` in SciPy's random-variable
    interface.

    Parameters
    ----------
    mu : array_like, optional
        Mean (default 0).
    sigma : array_like, optional
        Standard deviation, positive (default 1).
    tol, validation_policy, cache_policy
        Accepted for SciPy's signature; sciax's methods are exact or
        converge to machine precision.

    Examples
    --------
    >>> from sciax import stats
    >>> X = stats.Normal(mu=1.0, sigma=2.0)
    >>> print(round(float(X.cdf(1.0)), 6), round(float(X.cdf(-1.0, 3.0)), 6))
    0.5 0.682689
    >>> print(float(X.moment(2, kind='central')))
    4.0
    """

    def __init__(self, *, mu=None, sigma=None, tol=None, validation_policy=None,
                 cache_policy=None):
        _check_keywords("Normal", tol, validation_policy, cache_policy)
        params = {}
        if mu is not None or sigma is not None:
            mu = 0.0 if mu is None else mu
            sigma = 1.0 if sigma is None else sigma
            params = {"mu": _as_array(mu), "sigma": _as_array(sigma)}
            text = f"Normal(mu={_fmt(mu)}, sigma={_fmt(sigma)})"
            args = (params["mu"], params["sigma"])
        else:
            text = "StandardNormal()"
            args = (0.0, 1.0)
        self._setup(norm, args, params, text)

    def mode(self, *, method=None):
        self._check_method(method)
        return self.mean() + 0.0


class Uniform(ContinuousDistribution):
    """The uniform distribution on ``[a, b]`` in SciPy's random-variable
    interface.

    Examples
    --------
    >>> from sciax import stats
    >>> X = stats.Uniform(a=0.0, b=2.0)
    >>> print(float(X.cdf(0.5)), float(X.variance()), float(X.mode()))
    0.25 0.3333333333333333 1.0
    """

    def __init__(self, *, a=None, b=None, tol=None, validation_policy=None,
                 cache_policy=None):
        _check_keywords("Uniform", tol, validation_policy, cache_policy)
        if a is None or b is None:
            raise ValueError("Uniform requires the parameters a and b")
        a, b = _as_array(a), _as_array(b)
        width = snp.where(b > a, b - a, snp.nan)
        self._setup(uniform, (a, width), {"a": a, "b": b},
                    f"Uniform(a={_fmt(a)}, b={_fmt(b)})")

    def mode(self, *, method=None):
        self._check_method(method)
        lo, hi = self.support()
        return 0.5 * (lo + hi)


class Logistic(ContinuousDistribution):
    """The standard logistic distribution (density ``e^-x / (1 + e^-x)^2``)
    in SciPy's random-variable interface; location and scale by arithmetic
    (``2 * Logistic() + 1``).

    Examples
    --------
    >>> from sciax import stats
    >>> X = stats.Logistic()
    >>> print(float(X.cdf(0.0)), round(float(X.variance()), 6))
    0.5 3.289868
    """

    def __init__(self, *, tol=None, validation_policy=None, cache_policy=None):
        _check_keywords("Logistic", tol, validation_policy, cache_policy)
        self._setup(logistic, (0.0, 1.0), {}, "Logistic()")

    def mode(self, *, method=None):
        self._check_method(method)
        return self.mean() + 0.0


class Binomial(DiscreteDistribution):
    """The binomial distribution (``n`` trials of probability ``p``) in
    SciPy's random-variable interface.

    Examples
    --------
    >>> from sciax import stats
    >>> X = stats.Binomial(n=10, p=0.3)
    >>> print(round(float(X.pmf(3)), 6), float(X.mode()), float(X.mean()))
    0.266828 3.0 3.0
    """

    def __init__(self, *, n, p, tol=None, validation_policy=None, cache_policy=None):
        _check_keywords("Binomial", tol, validation_policy, cache_policy)
        n, p = _as_array(n), _as_array(p)
        self._setup(binom, (n, p, 0.0), {"n": n, "p": p},
                    f"Binomial(n={_fmt(n)}, p={_fmt(p)})")

    def mode(self, *, method=None):
        # floor((n + 1) p), the larger of two modes at a tie (as SciPy); n at p = 1
        self._check_method(method)
        n, p = self._args[0], self._args[1]
        m = snp.minimum(snp.floor((n + 1) * p), n)
        ok = (n >= 0) & (n == snp.floor(n)) & (p >= 0) & (p <= 1)
        return snp.where(ok, m, snp.nan)


# --- derived variables -----------------------------------------------------------


class ShiftedScaledDistribution(ContinuousDistribution):
    """``scale * X + shift`` (from arithmetic on a random variable)."""

    _extra_fields = ("_base", "_shift", "_scale")

    def __init__(self, X, shift, scale):
        shift, scale = _as_array(shift), _as_array(scale)
        if isinstance(X, ShiftedScaledDistribution):  # compose the two maps
            X, shift, scale = X._base, shift + scale * X._shift, scale * X._scale
        self._base, self._shift, self._scale = X, shift, scale
        sc_ = _concrete(scale)
        if sc_ is not None and np.all(sc_ > 0):
            kernel, args = _kernel(_Signed, X._kernel, "sign"), (*X._args, 1.0)
        else:
            kernel = _kernel(_Signed, X._kernel, "sign")
            args = (*X._args, snp.where(scale < 0, -1.0, snp.where(scale > 0, 1.0,
                                                                 snp.nan)))
        text = f"{_fmt(scale)}*{X!r}"
        sh = _concrete(shift)
        if sh is None or np.any(sh != 0):
            neg = sh is not None and sh.ndim == 0 and float(sh) < 0
            text += (f" - {_fmt(-shift)}" if neg else f" + {_fmt(shift)}")
        self._setup(kernel, (*args, shift, snp.abs(scale)), {}, text)

    def mode(self, *, method=None):
        self._check_method(method)
        return self._shift + self._scale * self._base.mode()


def abs_(X):
    """The distribution of ``|X|`` (also ``abs(X)``)."""
    _continuous_only(X, "abs")
    return _FromKernel(_kernel(_Folded, X._kernel, "abs"), (*X._args, 0.0, 1.0), {},
                       f"abs({X!r})")


def exp(X):
    """The distribution of ``exp(X)`` for a continuous random variable ``X``.

    Examples
    --------
    >>> from sciax import stats
    >>> Y = stats.exp(stats.Normal(mu=0.0, sigma=0.5))   # a lognormal
    >>> print(round(float(Y.mean()), 10), round(float(Y.icdf(0.5)), 10))
    1.1331484531 1.0
    """
    _continuous_only(X, "exp")
    k = _kernel(_Monotonic, X._kernel, "exp", snp.exp, snp.log, _neg_log)
    return _FromKernel(k, (*X._args, 0.0, 1.0), {}, f"exp({X!r})")


def log(X):
    """The distribution of ``log(X)`` for a random variable ``X`` on a
    non-negative support (a ``NotImplementedError`` otherwise, as SciPy's)."""
    _continuous_only(X, "log")
    lo = _concrete(X.support()[0])
    if lo is not None and np.any(lo < 0):
        raise NotImplementedError("the logarithm of a random variable is only "
                                  "implemented when its support is non-negative")
    k = _kernel(_Monotonic, X._kernel, "log", snp.log, snp.exp, _identity)
    return _FromKernel(k, (*X._args, 0.0, 1.0), {}, f"log({X!r})")


def _neg_log(y):
    return -snp.log(y)


def _identity(y):
    return y


def _continuous_only(X, what):
    if not isinstance(X, ContinuousDistribution):
        raise TypeError(f"{what} takes a continuous random variable of "
                        f"sciax.stats (Normal(...), make_distribution(...)(...)), got "
                        f"{type(X).__name__}")


def truncate(X, lb=-_INF, ub=_INF):
    """The distribution of ``X`` conditioned on ``lb <= X <= ub``.

    Examples
    --------
    >>> from sciax import stats
    >>> T = stats.truncate(stats.Normal(), 0.0)      # a half-normal
    >>> print(round(float(T.mean()), 10), round(float(T.cdf(1.0)), 10))
    0.7978845608 0.6826894921
    """
    _continuous_only(X, "truncate")
    lb, ub = _as_array(lb), _as_array(ub)
    k = _kernel(_Truncated, X._kernel, "truncate")
    return _FromKernel(k, (*X._args, lb, ub, 0.0, 1.0), {"lb": lb, "ub": ub},
                       f"truncate({X!r}, lb={_fmt(lb)}, ub={_fmt(ub)})")


def order_statistic(X, /, *, r, n):
    """The distribution of the ``r``-th smallest of ``n`` independent draws of
    ``X`` (``1 <= r <= n``, integers; NaN otherwise).

    Examples
    --------
    >>> from sciax import stats
    >>> M = stats.order_statistic(stats.Uniform(a=0.0, b=1.0), r=2, n=5)
    >>> print(round(float(M.cdf(0.5)), 12))   # P(at least 2 of 5 below 1/2)
    0.8125
    """
    _continuous_only(X, "order_statistic")
    r, n = _as_array(r), _as_array(n)
    k = _kernel(_OrderStatistic, X._kernel, "order_statistic")
    return _FromKernel(k, (*X._args, r, n, 0.0, 1.0), {"r": r, "n": n},
                       f"order_statistic({X!r}, r={_fmt(r)}, n={_fmt(n)})")


class Mixture(ContinuousDistribution):
    """A mixture of continuous random variables: density ``sum_i w_i f_i``.

    Parameters
    ----------
    components : sequence of continuous random variables
    weights : array_like, optional
        Non-negative, summing to 1 (default: equal weights).

    Examples
    --------
    >>> from sciax import stats
    >>> M = stats.Mixture([stats.Normal(mu=-1.0), stats.Normal(mu=1.0)],
    ...                   weights=[0.25, 0.75])
    >>> print(float(M.mean()), float(M.variance()), round(float(M.cdf(0.0)), 6))
    0.5 1.75 0.329328
    """

    _extra_fields = ("_components", "_weights")

    def __init__(self, components, *, weights=None):
        comps = list(components)
        if not comps:
            raise ValueError("Mixture needs at least one component")
        for c in comps:
            if not isinstance(c, ContinuousDistribution):
                raise ValueError("each element of components must be a continuous "
                                 f"random variable, got {type(c).__name__}")
        if weights is None:
            w = np.full(len(comps), 1.0 / len(comps))
        else:
            w = weights
        wc = _concrete(w)
        if wc is not None:
            if wc.shape != (len(comps),):
                raise ValueError(f"weights must have one entry per component "
                                 f"({len(comps)}), got shape {wc.shape}")
            if np.any(wc < 0) or not np.isclose(wc.sum(), 1.0, rtol=1e-12, atol=0):
                raise ValueError("weights must be non-negative and sum to 1")
        w = _as_array(w)
        self._components, self._weights = tuple(comps), w
        kernel = _mixture_kernel(tuple(c._kernel for c in comps))
        args = [a for c in comps for a in c._args] + [w[i] for i in range(len(comps))]
        body = ",\n".join(f"        {c!r}" for c in comps)
        text = f"Mixture(\n    [\n{body},\n    ],\n    weights={_fmt(w)},\n)"
        self._setup(kernel, (*args, 0.0, 1.0), {}, text)

    @property
    def components(self):
        return list(self._components)

    @property
    def weights(self):
        return self._weights


def _mixture_kernel(kernels):
    key = (_Mixture, kernels)
    k = _KERNELS.get(key)
    if k is None:
        k = _KERNELS[key] = _Mixture(kernels)
    return k


def make_distribution(dist):
    """A random-variable class from a classic distribution of
    :mod:`sciax.stats` (``sciax.stats.gamma``; a SciPy distribution such as
    ``scipy.stats.gamma`` is taken by its name).  Its parameters are the
    distribution's shapes, by keyword; location and scale come from
    arithmetic (``2 * X + 1``).

    Examples
    --------
    >>> from sciax import stats
    >>> Gamma = stats.make_distribution(stats.gamma)
    >>> X = Gamma(a=2.0)
    >>> print(X, float(X.mean()), round(float(X.cdf(1.0)), 10))
    Gamma(a=2.0) 2.0 0.2642411177
    """
    if not isinstance(dist, rv_generic):
        name = getattr(dist, "name", None)
        stats = importlib.import_module("sciax.stats")
        cand = getattr(stats, name, None) if isinstance(name, str) else None
        if not isinstance(cand, rv_generic):
            raise TypeError("make_distribution takes a distribution of sciax.stats "
                            f"(or a SciPy one that sciax has), got {dist!r}")
        dist = cand
    title = "".join(p.capitalize() for p in dist.name.split("_")) or "Distribution"
    shapes = tuple(dist.shapes)
    discrete = isinstance(dist, rv_discrete)
    base = _DiscreteFromKernel if discrete else _FromKernel

    def __init__(self, *, tol=None, validation_policy=None, cache_policy=None,
                 **parameters):
        _check_keywords(title, tol, validation_policy, cache_policy)
        unknown = set(parameters) - set(shapes)
        missing = [s for s in shapes if s not in parameters]
        if unknown or missing:
            raise ValueError(f"{title} takes the parameters {shapes}, got "
                             f"{tuple(parameters)}")
        vals = {s: _as_array(parameters[s]) for s in shapes}
        inner = ", ".join(f"{s}={_fmt(v)}" for s, v in vals.items())
        base.__init__(self, dist, (*vals.values(), *(
            (0.0,) if discrete else (0.0, 1.0))), vals, f"{title}({inner})")

    cls = type(title, (base,), {"__init__": __init__,
                                "__doc__": f"{title} ({dist.name} of sciax.stats) in "
                                           "SciPy's random-variable interface."})
    sciax.tree_util.register_pytree_node(cls, _flatten, _unflatten)
    return cls


for _cls in (_FromKernel, _DiscreteFromKernel, Normal, Uniform, Logistic, Binomial,
             ShiftedScaledDistribution, Mixture):
    sciax.tree_util.register_pytree_node(_cls, _flatten, _unflatten)
del _cls


__all__ = ["ContinuousDistribution", "DiscreteDistribution", "Normal", "Uniform",
           "Logistic", "Binomial", "Mixture", "make_distribution", "truncate",
           "order_statistic", "abs_", "exp", "log"]
