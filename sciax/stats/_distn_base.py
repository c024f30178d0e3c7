"""The distribution framework: ``rv_continuous``, ``rv_discrete`` and frozen
distributions.

A distribution is a small class that defines its *standardized* functions
(``loc = 0``, ``scale = 1``): ``_logpdf`` (or ``_pdf``), usually ``_cdf`` and
``_ppf``, optionally ``_sf``, ``_logcdf``, ``_logsf``, ``_isf``, ``_stats``,
``_munp``, ``_entropy``, ``_rvs``, its support ``(a, b)`` and the domain of
each shape parameter.  The public methods (SciPy's names and signatures) add
the location/scale transformation, the support masks and the parameter checks
once, here, and each runs as one cached ``jit`` program per argument
signature, so eager calls are fast and everything works under ``jit``,
``vmap`` and ``grad``.

Conventions, as SciPy's: a parameter outside its domain (``scale <= 0``, a
shape outside its range) makes the result NaN, never an exception; ``x``
outside the support gives density 0 (log-density ``-inf``) and CDF 0 or 1;
``q`` outside ``[0, 1]`` gives NaN.  Derivatives never see the masked-out
branches (the arguments of the standardized functions are replaced by a
point inside the support where they are masked).
"""

from __future__ import annotations

import functools
import math

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.random
from sciax import lax

from sciax.special._util import chunked
from sciax.stats import _fit, _sf

_INF = math.inf
# generic discrete entropy: terms per loop trip, and trips at most (2^17 terms)
_ENT_CHUNK, _ENT_TRIPS = 256, 512


# --- argument handling -------------------------------------------------------------


def _float_dtype(*args):
    """The floating dtype of a computation on ``args`` (float32 stays float32,
    integers promote to the default float)."""
    return snp.result_type(*args, 1.0)


def _promote(*args):
    dtype = _float_dtype(*args)
    return [snp.asarray(a, dtype=dtype) for a in args]


def _rough_ndtri(p):
    """``ndtri(p)`` for ``0 < p <= 1/2`` to about 4.5e-4 (Abramowitz and
    Stegun 26.2.23): for the quantile solver's starting guesses, a dozen
    operations where ndtri's rational approximations are 150 (the ppf
    programs are a measured size, test_numeric_quantile)."""
    t = snp.sqrt(-2.0 * snp.log(p))
    return -(t - (2.515517 + t * (0.802853 + t * 0.010328))
             / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))))


def _safe_point(lo, hi):
    """A point inside ``(lo, hi)``: where masked-out arguments are evaluated."""
    lo_f, hi_f = snp.isfinite(lo), snp.isfinite(hi)
    lo0 = snp.where(lo_f, lo, 0.0)
    hi0 = snp.where(hi_f, hi, 0.0)
    return snp.where(lo_f & hi_f, 0.5 * (lo0 + hi0),
                     snp.where(lo_f, lo0 + 1.0, snp.where(hi_f, hi0 - 1.0, 0.0)))


# Tanh-sinh rule on (0, 1) in the variable u = expit(pi sinh t): the generic
# moments and entropy integrate over the quantile function, E[g(X)] =
# int_0^1 g(ppf(u)) du, whose endpoint singularities this rule absorbs.
_TS_H = 1.0 / 32.0
_TS_T = np.arange(-150, 151) * _TS_H
_TS_S = np.pi * np.sinh(_TS_T)
_TS_U = 1.0 / (1.0 + np.exp(-_TS_S))        # u
_TS_V = 1.0 / (1.0 + np.exp(_TS_S))         # 1 - u, without cancellation
_TS_W = _TS_H * np.pi * np.cosh(_TS_T) * _TS_U * _TS_V


def _stats_from_raw(m, central=None):
    """(mean, variance, skewness, excess kurtosis) from the raw moments ``m``
    (or from the mean and the central moments ``central``); an infinite
    moment makes the mean/variance infinite and skewness/kurtosis NaN, as
    SciPy."""
    mu = m[0]
    if central is None:
        mu2 = m[1] - mu * mu
        c3 = m[2] - 3 * mu * m[1] + 2 * mu**3
        c4 = m[3] - 4 * mu * m[2] + 6 * mu * mu * m[1] - 3 * mu**4
    else:
        mu2, c3, c4 = central
    fin = [snp.isfinite(v) for v in m]
    mu2 = snp.where(fin[1] & fin[0], mu2, _INF)
    g1 = snp.where(fin[2] & fin[1], c3 / mu2**1.5, math.nan)
    g2 = snp.where(fin[3] & fin[1], c4 / mu2**2 - 3.0, math.nan)
    return mu, mu2, g1, g2


# --- the common base ---------------------------------------------------------------


class rv_generic:
    """What continuous and discrete distributions share: argument parsing,
    the shape-parameter domains, the program cache and freezing."""

    name: str = "rv"
    shapes: tuple[str, ...] = ()
    # Open interval (lo, hi) of each shape parameter; SciPy's default is > 0.
    _shape_domain: tuple[tuple[float, float], ...] | None = None
    _param_tail: tuple[str, ...] = ("loc", "scale")

    def __init__(self):
        self._programs: dict = {}

    # -- shapes and support --

    def _domains(self):
        if self._shape_domain is not None:
            return self._shape_domain
        return tuple((0.0, _INF) for _ in self.shapes)

    def _argcheck(self, *s):
        ok = True
        for v, (lo, hi) in zip(s, self._domains()):
            ok = ok & (v > lo) & (v < hi)
        return snp.asarray(ok)

    def _support(self, *s):
        return self.a, self.b

    # -- parsing --

    def _parse(self, method, args, kwds, *, tail=None):
        names = self.shapes + (self._param_tail if tail is None else tail)
        if len(args) > len(names):
            raise TypeError(f"{self.name}.{method}() takes at most {len(names)} "
                            f"parameters ({', '.join(names)}), got {len(args)}")
        vals = dict(zip(names, args))
        for k, v in kwds.items():
            if k not in names:
                raise TypeError(f"{self.name}.{method}() got an unexpected keyword "
                                f"argument {k!r} (parameters: {', '.join(names)})")
            if k in vals:
                raise TypeError(f"{self.name}.{method}() got multiple values for "
                                f"argument {k!r}")
            vals[k] = v
        missing = [n for n in self.shapes if n not in vals]
        if missing:
            raise TypeError(f"{self.name}.{method}() missing required shape "
                            f"parameter(s): {', '.join(missing)}")
        defaults = {"loc": 0.0, "scale": 1.0}
        return [vals[n] if n in vals else defaults[n] for n in names]

    def _run(self, key, impl, *arrays, static=()):
        fn = self._programs.get((key, static))
        if fn is None:
            fn = sciax.jit(functools.partial(impl, *static) if static else impl)
            self._programs[(key, static)] = fn
        return fn(*_promote(*arrays))

    def __call__(self, *args, **kwds):
        return self.freeze(*args, **kwds)

    def freeze(self, *args, **kwds):
        """The distribution with its parameters fixed (a pytree)."""
        params = self._parse("freeze", args, kwds)
        return rv_frozen(self, *params)

    def __repr__(self):
        return f"<sciax.stats.{self.name}>"

    # -- quantities that follow from the standardized moments --

    def _stats(self, *s):
        m = [snp.asarray(self._munp(k, *s)) for k in (1, 2, 3, 4)]
        return _stats_from_raw(m)

    def _munp_from_stats(self, n, *s):
        if n > 4:
            raise ValueError(f"{self.name}: moments above order 4 do not follow "
                             "from the mean, variance, skewness and kurtosis")
        mu, mu2, g1, g2 = self._stats(*s)
        if n == 1:
            return mu
        if n == 2:
            return mu2 + mu * mu
        c3 = g1 * mu2**1.5
        if n == 3:
            return c3 + 3 * mu * mu2 + mu**3
        c4 = (g2 + 3.0) * mu2 * mu2
        return c4 + 4 * mu * c3 + 6 * mu * mu * mu2 + mu**4

    def _moment_impl(self, order, *a):
        *s, loc, scale = a if len(self._param_tail) == 2 else (*a, 1.0)
        valid = self._argcheck(*s) & (scale > 0)
        total = 0.0
        for k in range(order + 1):
            mk = 1.0 if k == 0 else self._munp(k, *s)
            coef = math.comb(order, k) * loc ** (order - k) * scale**k
            # (a zero coefficient does not carry a lower moment that does not
            # exist: E[X^5] of yulesimon(5.5) about loc = 0 needs no kurtosis)
            if k < order:  # (selects on the moment, so d/dloc stays exact)
                mk = snp.where(snp.isfinite(mk) | (coef != 0), mk, 0.0)
            total = total + coef * mk
        return snp.where(valid, total, snp.nan)

    def _stats_impl(self, moments, *a):
        *s, loc, scale = a if len(self._param_tail) == 2 else (*a, 1.0)
        valid = self._argcheck(*s) & (scale > 0)
        mu, mu2, g1, g2 = self._stats(*s)
        out = []
        for ch in moments:
            v = {"m": loc + scale * mu, "v": scale * scale * mu2, "s": g1,
                 "k": g2}[ch]
            out.append(snp.where(valid, snp.asarray(v) + 0 * loc, snp.nan))
        return tuple(out)

    def stats(self, *args, moments="mv", **kwds):
        """Mean ('m'), variance ('v'), skewness ('s') and excess kurtosis ('k')."""
        if not isinstance(moments, str) or set(moments) - set("mvsk"):
            raise ValueError(f"moments must be a string of 'm', 'v', 's', 'k', "
                             f"got {moments!r}")
        params = self._parse("stats", args, kwds)
        out = self._run("stats", self._stats_impl, *params, static=(moments,))
        return out[0] if len(out) == 1 else out

    def mean(self, *args, **kwds):
        """The mean."""
        return self.stats(*args, moments="m", **kwds)

    def var(self, *args, **kwds):
        """The variance."""
        return self.stats(*args, moments="v", **kwds)

    def std(self, *args, **kwds):
        """The standard deviation."""
        return snp.sqrt(self.var(*args, **kwds))

    def moment(self, order, *args, **kwds):
        """The non-central moment of integer ``order`` (``E[X**order]``)."""
        if isinstance(order, bool) or not isinstance(order, (int, np.integer)) \
                or order < 0:
            raise ValueError(f"moment order must be a non-negative integer, got "
                             f"{order!r}")
        params = self._parse("moment", args, kwds)
        return self._run("moment", self._moment_impl, *params,
                         static=(int(order),))

    def median(self, *args, **kwds):
        """The median, ``ppf(0.5)``."""
        return self.ppf(0.5, *args, **kwds)

    def interval(self, confidence, *args, **kwds):
        """The central interval holding probability ``confidence``."""
        c = snp.asarray(confidence)
        lo = self.ppf((1.0 - c) / 2.0, *args, **kwds)
        hi = self.ppf((1.0 + c) / 2.0, *args, **kwds)
        return lo, hi

    def _rvs_shape(self, size, params):
        bshape = snp.broadcast_shapes(*[snp.shape(p) for p in params])
        if size is None:
            return tuple(bshape)
        shape = (int(size),) if isinstance(size, (int, np.integer)) else tuple(
            int(n) for n in size)
        if any(n < 0 for n in shape):
            raise ValueError(f"size must hold non-negative integers, got {size!r}")
        try:
            out = snp.broadcast_shapes(shape, bshape)
        except ValueError as e:
            raise ValueError(f"size {shape} does not broadcast with the parameters' "
                             f"shape {tuple(bshape)}") from e
        if tuple(out) != shape:
            raise ValueError(f"size {shape} does not broadcast with the parameters' "
                             f"shape {tuple(bshape)}")
        return shape

    @staticmethod
    def _key(random_state):
        if random_state is None:
            raise ValueError("random_state is required: pass a sciax.random key "
                             "(sciax.random.key(seed)) or an integer seed")
        if isinstance(random_state, (int, np.integer)):
            return sciax.random.key(int(random_state))
        shape = snp.shape(random_state)
        if shape != (2,) or snp.asarray(random_state).dtype != snp.uint32:
            raise TypeError("random_state must be a sciax.random key "
                            "(uint32 array of shape (2,)) or an integer seed, got "
                            f"shape {shape}")
        return random_state


# --- continuous --------------------------------------------------------------------


class rv_continuous(rv_generic):
    """Base class of continuous distributions (as :class:`scipy.stats.rv_continuous`).

    A subclass defines ``name``, ``shapes``, the support ``a, b`` (or
    ``_support(*shapes)``), ``_shape_domain`` (open intervals; default
    ``(0, inf)`` for each shape) or ``_argcheck``, and at least ``_logpdf``
    or ``_pdf``; usually ``_cdf`` and ``_ppf``, and, where closed forms
    exist, ``_sf, _logcdf, _logsf, _isf, _stats, _munp, _entropy, _rvs``.
    Everything else is derived.

    The public methods take SciPy's arguments ``(x, *shapes, loc=0, scale=1)``
    (positionally or by keyword), broadcast them, and return NaN where a
    parameter is outside its domain.  ``rvs`` takes ``random_state`` as a
    :mod:`sciax.random` key (or an integer seed); its samples are
    differentiable in the parameters (reparameterisation through the
    quantile function unless a distribution has a direct sampler).
    """

    a: float = -_INF
    b: float = _INF
    # True when the support depends on the shape parameters (fit then uses a
    # penalised likelihood instead of a support-respecting parametrisation).
    _support_depends_on_shapes = False
    # True when ``_cdf`` and ``_sf`` are exact on the closed support with its
    # infinite ends (0 and 1 there, finite derivatives) and map NaN to NaN:
    # ``cdf``/``sf`` then clamp x into the support instead of masking.
    _total_tails = False
    # True when ``_logpdf`` and ``_pdf`` map a NaN x to NaN (every formula
    # does but one whose selects on x end in a constant, as trapezoid's):
    # logpdf and pdf then need no NaN test of their own.
    _nan_passes = True

    # -- standardized defaults --

    def _logpdf(self, x, *s):
        return snp.log(self._pdf(x, *s))

    def _pdf(self, x, *s):
        return snp.exp(self._logpdf(x, *s))

    def _cdf(self, x, *s):
        raise NotImplementedError(f"{self.name} has no cdf")

    def _sf(self, x, *s):
        return 1.0 - self._cdf(x, *s)

    def _logcdf(self, x, *s):
        # log1p(-sf) keeps precision where the CDF is close to 1
        sf = self._sf(x, *s)
        return snp.where(sf < 0.5, snp.log1p(-snp.minimum(sf, 0.5)),
                         snp.log(self._cdf(x, *s)))

    def _logsf(self, x, *s):
        cdf = self._cdf(x, *s)
        return snp.where(cdf < 0.5, snp.log1p(-snp.minimum(cdf, 0.5)),
                         snp.log(self._sf(x, *s)))

    def _ppf(self, q, *s):
        raise NotImplementedError(f"{self.name} has no ppf")

    def _isf(self, q, *s):
        return self._ppf(1.0 - q, *s)

    def _quantile(self, u, v, *s):
        # ppf(u) with 1 - u = v given separately, so both tails keep precision
        return snp.where(u <= 0.5, self._ppf(snp.minimum(u, 0.5), *s),
                         self._isf(snp.minimum(v, 0.5), *s))

    def _quantile_numeric(self, u, v, *s):
        """ppf(u) (with 1 - u = v) by bracketing and bisection on the CDF (or
        the SF in the upper half), differentiable by the implicit function
        theorem: dx = (du - dF/ds . ds) / pdf(x)."""
        fn = self.__dict__.get("_nq")
        if fn is None:
            fn = sciax.custom_jvp(lambda u, v, *s: self._solve_quantile(u, v, *s))

            def jvp(primals, tangents):
                u, v, *s = primals
                du, dv, *ds = tangents
                x = fn(u, v, *s)
                dens = snp.exp(self._logpdf(x, *s))
                if s:
                    _, dfs = sciax.jvp(lambda *ss: self._cdf(x, *ss), tuple(s),
                                       tuple(ds))
                else:
                    dfs = 0.0
                return x, (0.5 * (du - dv) - dfs) / dens

            fn.defjvp(jvp)
            self._nq = fn
        return fn(u, v, *s)

    def _implicit_reparam(self, x, *s):
        """The samples ``x`` (drawn by any sampler) with the implicit
        reparameterisation gradient ``dx = -(dF/ds . ds) / pdf(x)``: the
        derivative of E[g(X)] in the parameters is then exact in expectation
        (Figurnov et al., 2018, "Implicit reparameterization gradients")."""
        fn = self.__dict__.get("_ir")
        if fn is None:
            fn = sciax.custom_jvp(lambda x, *s: x)

            def jvp(primals, tangents):
                x, *s = primals
                dx, *ds = tangents
                _, dfs = sciax.jvp(lambda *ss: self._cdf(x, *ss), tuple(s), tuple(ds))
                return x, dx - dfs / snp.exp(self._logpdf(x, *s))

            fn.defjvp(jvp)
            self._ir = fn
        return fn(lax.stop_gradient(x), *s)

    def _one_tail(self, x, upper, *s):
        """The CDF at ``x`` where ``upper`` is False, the SF where it is True:
        what the quantile solver evaluates at each trial point.  A distribution
        whose two tails come out of one computation overrides this so that the
        solver's program holds that computation once."""
        return snp.where(upper, self._sf(x, *s), self._cdf(x, *s))

    def _quantile_guess(self, u, v, *s):
        """An approximate ``ppf(u)`` (``1 - u = v``) where a family has one
        (a normal approximation, say), for the quantile solver to start from;
        None: the solver starts inside the support and steps out by 1, 2, 4,
        16, ...  A guess that is not finite and inside the support is ignored
        for that element."""
        return None

    def _solve_quantile(self, u, v, *s):
        """``x`` with ``F(x) = u`` (``u <= 1/2``) or ``S(x) = v``.

        One loop whose every step evaluates one tail at one trial point per
        element, so the compiled program holds the tail's code once.  The
        trial points are ``x0`` inside the support, then ``x0 -+ w`` outward
        with ``w = 1, 2, 4, 16, 256, ...`` (1e308 within 11 steps) until the
        root is bracketed (a finite end of the support is a bracket
        end that is never evaluated), then Illinois false position on
        ``r = log F(x) - log u`` (or ``log v - log S(x)``), nearly linear in
        the tails.  Where the bracket spans more than a factor 4 on one side
        of 0 (or reaches an end of the support at 0) the variable is
        ``log |x|``, in which power-law tails are linear and which bisects
        decades.  A false-position point is kept at least an ulp inside the
        bracket, and bisection replaces it where it would leave the bracket or
        an end's residual is not yet finite.  Typically 10-15 tail
        evaluations per element, against about 60 by bisection alone.

        Where the family gives a guess (``_quantile_guess``), ``x0`` is the
        guess and the outward steps are relative to it (``w |x0|``, ``w =
        1/32, 1/16, ...``, or the gap to a finite end shrunk by ``e^-w``): from
        a normal approximation ncx2's and nct's median step count fell from
        12-18 to 8-10.  The loop runs on blocks of ``chunked`` points, each
        stopping at its own slowest element, not the whole batch's."""
        lo, hi = self._support(*s)
        args = snp.broadcast_arrays(u, v, lo, hi, *s)
        args = args[:4] + [lax.stop_gradient(t) for t in args[4:]]
        return chunked(lambda *a: (self._solve_quantile_block(*a),), *args)[0]

    def _solve_quantile_block(self, u, v, lo, hi, *s):
        upper = ~(u <= 0.5)
        log_target = snp.log(snp.where(upper, v, u))
        x0 = _safe_point(lo, hi)
        eps = snp.finfo(x0.dtype).eps
        tiny = snp.finfo(x0.dtype).tiny
        false, inf = snp.zeros(x0.shape, bool), snp.full(x0.shape, _INF, x0.dtype)
        guess = self._quantile_guess(u, v, *s)
        if guess is None:
            have = false
        else:
            have = snp.isfinite(guess) & (guess > lo) & (guess < hi)
            x0 = snp.where(have, guess, x0)
        # from a guess the outward steps are relative (w |x0| from 1/32, or
        # the gap to a finite end shrunk by e^-w), not 1, 2, 4, ...
        lo_f, hi_f = snp.isfinite(lo), snp.isfinite(hi)
        scale = snp.where(x0 != 0, snp.abs(x0), 1.0)
        lo0, hi0 = snp.where(lo_f, lo, 0.0), snp.where(hi_f, hi, 0.0)

        def out_low(width):
            rel = snp.where(lo_f, lo0 + (x0 - lo0) * snp.exp(-width),
                            x0 - width * scale)
            return snp.where(have, rel, x0 - width)

        def out_high(width):
            rel = snp.where(hi_f, hi0 - (hi0 - x0) * snp.exp(-width),
                            x0 + width * scale)
            return snp.where(have, rel, x0 + width)

        def trial(xl, xh, rl, rh):
            pos = (xl > 0) | ((xl == 0) & (lo == 0))
            neg = (xh < 0) | ((xh == 0) & (hi == 0))
            geo = (pos & (xh > 4.0 * xl)) | (neg & (xl < 4.0 * xh))
            sgn = snp.where(neg, -1.0, 1.0)

            def z(x):
                return snp.where(geo, snp.log(snp.maximum(sgn * x, tiny)), x)

            def x(z):
                return snp.where(geo, sgn * snp.exp(z), z)

            zl, zh = z(xl), z(xh)
            zf = zl - rl * ((zh - zl) / (rh - rl))
            # a false-position point at least an ulp inside the bracket (a
            # point rounded onto an end would leave that end where it is)
            gap = eps * snp.maximum(snp.abs(xl), snp.abs(xh))
            xf = snp.clip(x(zf), xl + gap, xh - gap)
            use_fp = (snp.isfinite(rl) & snp.isfinite(rh) & (xh - xl > 4.0 * gap)
                      & ((zf - zl) * (zh - zf) >= 0))
            return snp.where(use_fp, xf, x(0.5 * (zl + zh)))

        def step(c):
            xl, xh, rl, rh, okl, okh, width, last, i = c
            first = i == 0
            bracketed = okl & okh
            t = trial(xl, xh, rl, rh)
            t = snp.where(~okl, out_low(width), snp.where(~okh, out_high(width), t))
            t = snp.where(first, x0, t)
            lt = snp.log(self._one_tail(t, upper, *s))
            r = snp.where(upper, log_target - lt, lt - log_target)
            below = r <= 0  # the root is at or above t
            # Illinois: an end kept twice running has its residual halved
            # (last is 1 after a step that moved the high end, 2 the low one)
            rl = snp.where(bracketed & ~below & (last == 1), 0.5 * rl, rl)
            rh = snp.where(bracketed & below & (last == 2), 0.5 * rh, rh)
            last = snp.where(below, 2, 1).astype("int32")
            xl = snp.where(below, t, snp.where(first, lo, xl))
            xh = snp.where(below, snp.where(first, hi, xh), t)
            xh = snp.where(r == 0, t, xh)  # an exact root ends the search
            rl = snp.where(below, r, snp.where(first, -inf, rl))
            rh = snp.where(below, snp.where(first, inf, rh), r)
            okl = below | okl | (first & lo_f & ~have)
            okh = ~below | okh | (first & hi_f & ~have) | (r == 0)
            # outward steps 1, 2, 4, 16, 256, ...: 1e308 within 11 steps
            width = snp.where(first | (okl & okh), width,
                              snp.maximum(2.0 * width, width * width))
            return xl, xh, rl, rh, okl, okh, width, last, i + 1

        def cond(c):
            xl, xh, _, _, okl, okh, *_, i = c
            wide = (xh - xl) > 2 * eps * snp.maximum(snp.abs(xl), snp.abs(xh))
            return snp.any(~(okl & okh) | (wide & (xh > xl))) & (i < 3300)

        xl, xh, *_ = lax.while_loop(
            cond, step, (x0, x0, -inf, inf, false, false,
                         snp.where(have, 1.0 / 32.0, 1.0),
                         snp.zeros(x0.shape, "int32"), 0))
        return 0.5 * (xl + xh)

    def _munp(self, n, *s):
        if n <= 4 and type(self)._stats is not rv_generic._stats:
            return self._munp_from_stats(n, *s)
        return self._expect_u(lambda x: x**n, *s)

    def _expect_u(self, g, *s):
        """``E[g(X)]`` for the standardized X by the tanh-sinh rule in u."""
        shape = (-1,) + (1,) * max((snp.ndim(v) for v in s), default=0)
        u = snp.asarray(_TS_U).reshape(shape)
        v = snp.asarray(_TS_V).reshape(shape)
        w = snp.asarray(_TS_W).reshape(shape)
        x = self._quantile(u, v, *s)
        gx = g(x)
        return snp.sum(snp.where(w > 0, w * gx, 0.0), axis=0)

    def _entropy(self, *s):
        # a zero density at an end of the support is a null set of the integral
        def logpdf(x):
            lp = self._logpdf(x, *s)
            return snp.where(lp == -_INF, 0.0, lp)

        return -self._expect_u(logpdf, *s)

    def _stats(self, *s):
        if type(self)._munp is not rv_continuous._munp:
            return super()._stats(*s)
        # by quadrature: central moments directly (no cancellation of raw ones)
        mu = self._expect_u(lambda x: x, *s)
        c = [self._expect_u(lambda x, n=n: (x - mu) ** n, *s) for n in (2, 3, 4)]
        m = [mu, c[0] + mu * mu, c[1], c[2]]
        return _stats_from_raw(m, central=c)

    def _rvs(self, key, shape, dtype, *s):
        u = sciax.random.uniform(key, shape, dtype)
        return self._quantile(u, 1.0 - u, *s)

    # -- the location-scale layer --

    def _split(self, a):
        *s, loc, scale = a
        valid = self._argcheck(*s) & (scale > 0)
        lo, hi = self._support(*s)
        return s, loc, scale, valid, lo, hi

    def _std_x(self, x, loc, scale, lo, hi):
        y = (x - loc) / scale
        return y, snp.where((y > lo) & (y < hi), y, _safe_point(lo, hi))

    @staticmethod
    def _outside(y, lo, hi):
        """``(y < lo) | (y > hi)`` (False at NaN) without the comparisons
        against an end that is a static infinity; None when both are."""
        mask = None
        if not (isinstance(lo, (int, float)) and lo == -_INF):
            mask = y < lo
        if not (isinstance(hi, (int, float)) and hi == _INF):
            mask = y > hi if mask is None else mask | (y > hi)
        return mask

    def _density_impl(self, fn, log, x, *a):
        # The density is evaluated at a point inside the support where x is
        # outside (so no inf/NaN reaches its derivatives there), and a NaN x
        # goes through the formula, which maps it to NaN (_nan_passes).  A
        # mask of static infinite ends, and a NaN test that XLA cannot drop,
        # cost chi2.logpdf 11% on 10^6 points (3 compares and 3 selects where
        # one of each does).
        s, loc, scale, valid, lo, hi = self._split(a)
        y = (x - loc) / scale
        out = self._outside(y, lo, hi)
        ys = y if out is None else snp.where(out, _safe_point(lo, hi), y)
        v = fn(ys, *s)
        v = v - snp.log(scale) if log else v / scale
        if out is not None:
            v = snp.where(out, -_INF if log else 0.0, v)
        ok = valid if self._nan_passes else valid & ~snp.isnan(y)
        return snp.where(ok, v, snp.nan)

    def _logpdf_impl(self, x, *a):
        return self._density_impl(self._logpdf, True, x, *a)

    def _pdf_impl(self, x, *a):
        return self._density_impl(self._pdf, False, x, *a)

    def _tail_impl(self, fn, below, above, x, *a, total=False):
        s, loc, scale, valid, lo, hi = self._split(a)
        if total and self._total_tails and type(lo) is float and type(hi) is float:
            # The CDF/SF of a distribution that declares them exact on the
            # closed support, including infinite ends (their limits there,
            # finite derivatives, NaN in -> NaN out): x is clamped into the
            # support and a bad parameter turns it into NaN, so every select
            # is on the input.  XLA's CPU code for a transcendental fusion
            # with selects both before and after it runs ~3x slower
            # (expon.cdf on 10^6 points: 3.5 ms, this way 1.3 ms).
            y = (x - loc) / scale
            if math.isfinite(lo):
                y = snp.where(y < lo, lo, y)
            if math.isfinite(hi):
                y = snp.where(y > hi, hi, y)
            return fn(snp.where(valid, y, snp.nan), *s)
        y, ys = self._std_x(x, loc, scale, lo, hi)
        out = snp.where(y <= lo, below, snp.where(y >= hi, above, fn(ys, *s)))
        return snp.where(valid & ~snp.isnan(y), out, snp.nan)

    def _cdf_impl(self, x, *a):
        return self._tail_impl(self._cdf, 0.0, 1.0, x, *a, total=True)

    def _sf_impl(self, x, *a):
        return self._tail_impl(self._sf, 1.0, 0.0, x, *a, total=True)

    def _logcdf_impl(self, x, *a):
        return self._tail_impl(self._logcdf, -_INF, 0.0, x, *a)

    def _logsf_impl(self, x, *a):
        return self._tail_impl(self._logsf, 0.0, -_INF, x, *a)

    def _quantile_impl(self, fn, upper, q, *a):
        s, loc, scale, valid, lo, hi = self._split(a)
        inside = (q > 0) & (q < 1)
        qs = snp.where(inside, q, 0.5)
        at0, at1 = (hi, lo) if upper else (lo, hi)
        y = snp.where(inside, fn(qs, *s), snp.where(q == 0, at0, at1))
        out = loc + scale * y
        ok = valid & (q >= 0) & (q <= 1)
        return snp.where(ok, out, snp.nan)

    def _ppf_impl(self, q, *a):
        return self._quantile_impl(self._ppf, False, q, *a)

    def _isf_impl(self, q, *a):
        return self._quantile_impl(self._isf, True, q, *a)

    def _entropy_impl(self, *a):
        s, loc, scale, valid, lo, hi = self._split(a)
        return snp.where(valid, self._entropy(*s) + snp.log(scale), snp.nan)

    def _support_impl(self, *a):
        s, loc, scale, valid, lo, hi = self._split(a)

        def end(e):
            # an infinite end stays a constant: scale * inf would give the
            # masked-out branches of reverse mode a 0 * inf = NaN cotangent
            fin = snp.isfinite(e)
            return snp.where(fin, loc + scale * snp.where(fin, e, 0.0), e)

        return (snp.where(valid, end(lo), snp.nan), snp.where(valid, end(hi), snp.nan))

    def _rvs_impl(self, shape, key, *a):
        s, loc, scale, valid, lo, hi = self._split(a)
        dtype = snp.result_type(*a)
        y = self._rvs(key, shape, dtype, *[snp.broadcast_to(v, shape) for v in s])
        return snp.where(valid, loc + scale * y, snp.nan)

    # -- public methods --

    def _method(name):  # noqa: N805 - builds the public methods below
        impl_name = f"_{name}_impl"

        def method(self, x, *args, **kwds):
            params = self._parse(name, args, kwds)
            return self._run(name, getattr(self, impl_name), x, *params)

        method.__name__ = name
        method.__doc__ = (f"``{name}`` at ``x`` (or ``q``) for the given shapes, "
                          "``loc`` and ``scale``.")
        return method

    pdf = _method("pdf")
    logpdf = _method("logpdf")
    cdf = _method("cdf")
    logcdf = _method("logcdf")
    sf = _method("sf")
    logsf = _method("logsf")
    ppf = _method("ppf")
    isf = _method("isf")
    del _method

    def entropy(self, *args, **kwds):
        """The differential entropy (in nats)."""
        params = self._parse("entropy", args, kwds)
        return self._run("entropy", self._entropy_impl, *params)

    def support(self, *args, **kwds):
        """The support ``(lower, upper)`` after location and scale."""
        params = self._parse("support", args, kwds)
        return self._run("support", self._support_impl, *params)

    def rvs(self, *args, size=None, random_state=None, **kwds):
        """Random variates, differentiable in the parameters.

        ``random_state`` is a :mod:`sciax.random` key (or an integer seed);
        ``size`` an int or a shape that the parameters broadcast to (by default
        their broadcast shape).
        """
        params = self._parse("rvs", args, kwds)
        key = self._key(random_state)
        shape = self._rvs_shape(size, params)
        fn = self._programs.get(("rvs", shape))
        if fn is None:
            fn = sciax.jit(functools.partial(self._rvs_impl, shape))
            self._programs[("rvs", shape)] = fn
        return fn(key, *_promote(*params))

    def nnlf(self, theta, x):
        """Negative log-likelihood of the data ``x`` at ``theta = (*shapes, loc,
        scale)``."""
        return -snp.sum(self.logpdf(x, *theta))

    def fit(self, data, *args, return_se=False, **kwds):
        """Maximum-likelihood estimates of the shapes, ``loc`` and ``scale``.

        Parameters are as :meth:`scipy.stats.rv_continuous.fit`: starting
        guesses positionally or by name, parameters fixed with ``f0, f1, ...``,
        ``fa``/``fix_a`` (by shape name), ``floc`` and ``fscale``;
        ``method='MLE'`` only.  The likelihood is maximised by
        :func:`sciax.optimize.minimize` (BFGS with exact gradients) over an
        unconstrained parametrisation that keeps ``scale`` and the shapes in
        their domains and the data inside the support.  Where the MLE has a
        closed form for the pattern of fixed parameters (``norm``, ``expon``,
        ``uniform``, ``laplace``, ``halfnorm``; with ``floc``: ``rayleigh``,
        ``lognorm``, and ``gamma`` by one scalar root), it is used instead,
        as SciPy does.  Each fit is one jitted program per distribution and
        pattern of fixed and guessed parameters (compiled on first use).

        With ``return_se=True`` (a sciax extension) a :class:`FitEstimate` is
        returned: the estimates with standard errors and covariance from the
        inverse of the exact observed information.  Standard errors are only
        meaningful for regular estimates (not for a ``loc`` that sits at the
        data's minimum or maximum, as for ``expon`` or ``uniform``).

        Returns
        -------
        tuple
            The estimates ``(*shapes, loc, scale)``, or a :class:`FitEstimate`.
        """
        return _fit.fit(self, data, args, kwds, return_se)

    def _fitstart(self, data):
        """Starting shapes for ``fit`` (SciPy's default: 1.0, here pulled inside
        each shape's domain)."""
        out = []
        for lo, hi in self._domains():
            if lo < 1.0 < hi:
                out.append(1.0)
            elif math.isfinite(lo) and math.isfinite(hi):
                out.append(0.5 * (lo + hi))
            elif math.isfinite(lo):
                out.append(lo + 1.0)
            else:
                out.append(hi - 1.0)
        return tuple(out)

    # -- closed-form fits (subclasses may return estimates or None) --

    def _fit_closed_form(self, data, fixed):
        return None


# --- discrete ----------------------------------------------------------------------


class rv_discrete(rv_generic):
    """Base class of discrete distributions on the integers (as
    :class:`scipy.stats.rv_discrete`), with a location ``loc`` only.

    A subclass defines ``name``, ``shapes``, the support ``a, b`` (or
    ``_support``), ``_shape_domain``/``_argcheck``, ``_logpmf`` (or
    ``_pmf``), ``_cdf``, and where it can ``_sf, _ppf, _stats, _entropy,
    _rvs``.  The ``_cdf``/``_sf`` of the subclass is called at integers only.
    The generic ``_ppf`` searches the CDF (bracket, then bisection over the
    integers).
    """

    a: float = 0.0
    b: float = _INF
    _param_tail = ("loc",)

    def _logpmf(self, k, *s):
        return snp.log(self._pmf(k, *s))

    def _pmf(self, k, *s):
        return snp.exp(self._logpmf(k, *s))

    def _sf(self, k, *s):
        return 1.0 - self._cdf(k, *s)

    # a distribution whose cdf or sf underflows where its log does not
    # (geom's sf (1 - p)^k) overrides these
    def _logcdf(self, k, *s):
        return snp.log(self._cdf(k, *s))

    def _logsf(self, k, *s):
        return snp.log(self._sf(k, *s))

    def _ppf_guess(self, q, *s):
        lo, hi = self._support(*s)
        return snp.where(snp.isfinite(lo), lo, snp.where(snp.isfinite(hi), hi, 0.0))

    def _ppf(self, q, *s):
        """Smallest integer k in the support with cdf(k) >= q, by search."""
        lo, hi = self._support(*s)
        q, lo, hi, *s = snp.broadcast_arrays(q, lo, hi, *s)
        k0 = snp.clip(snp.floor(self._ppf_guess(q, *s)), lo, hi)
        # Each trace of _cdf is compiled once per call site, and a CDF such
        # as skellam's (two ncx2 series) or binom's (betainc) takes seconds
        # to compile: the CDFs at both ends of the bracket are one call on
        # the two stacked, carried from the loop body to its condition, which
        # used to trace them again (six call sites, now three).
        c3 = self._cdf(snp.stack([k0 - 1.0, k0, k0 + 1.0]), *s)
        ok0 = c3[1] >= q
        # expand a bracket (kl, kh] with cdf(kl) < q <= cdf(kh), by doubling steps
        kl = snp.where(ok0, k0 - 1.0, k0)
        kh = snp.where(ok0, k0, k0 + 1.0)
        cl = snp.where(ok0, c3[0], c3[1])
        ch = snp.where(ok0, c3[1], c3[2])

        def bad(kl, cl, ch):
            return (cl >= q) & (kl >= lo), ch < q

        def expand(c):
            kl, kh, cl, ch, step, i = c
            lo_bad, hi_bad = bad(kl, cl, ch)
            kl = snp.where(lo_bad, snp.maximum(kl - step, lo - 1.0), kl)
            kh = snp.where(hi_bad, snp.minimum(kh + step, hi), kh)
            c2 = self._cdf(snp.stack([kl, kh]), *s)
            return kl, kh, c2[0], c2[1], step * 2.0, i + 1

        def expand_cond(c):
            kl, kh, cl, ch, step, i = c
            lo_bad, hi_bad = bad(kl, cl, ch)
            return snp.any(lo_bad | hi_bad) & (i < 1100)

        kl, kh, _, _, _, _ = lax.while_loop(
            expand_cond, expand, (kl, kh, cl, ch, snp.ones_like(kl), 0))

        def bisect(c):
            kl, kh = c
            mid = snp.floor(0.5 * (kl + kh))
            up = self._cdf(mid, *s) >= q
            narrow = kh - kl > 1
            kh = snp.where(narrow & up, mid, kh)
            kl = snp.where(narrow & ~up, mid, kl)
            return kl, kh

        kl, kh = lax.while_loop(lambda c: snp.any(c[1] - c[0] > 1), bisect, (kl, kh))
        return kh

    def _isf(self, q, *s):
        """Smallest integer k with sf(k) <= q."""
        return self._ppf(1.0 - q, *s)

    def _entropy_start(self, lo, *s):
        """Where the entropy's sum starts: the lower end of the support, or
        where the mass below is negligible (here the 1e-17 quantile; a
        distribution whose ppf is costly can give a cheaper bound)."""
        return snp.where(snp.isfinite(lo), lo, self._ppf(1e-17, *s))

    def _entropy(self, *s):
        # -sum pmf log pmf over the support (see _support_sum)
        acc, k_end, go, hi, s = self._support_sum(lambda k, lp: -snp.exp(lp) * lp, *s)
        return acc + snp.where(go, self._entropy_tail(k_end, hi, *s), 0.0)

    def _support_sum(self, term, *s):
        """``sum_k term(k, logpmf(k))`` over the support, _ENT_CHUNK terms a
        trip from the lower end (or the 1e-17 quantile), until a chunk past
        the mode adds less than 1e-17 of the sum.  (The entropy's old test of
        sf(k) > 1e-18 never ended where sf is 1 - cdf (a floor of ~1e-16:
        logser) and ran its 100,000 one-term trips, each an O(k) cdf.)
        Returns the sum, where the loop stopped, whether it ran out of trips
        there, the upper end and the shapes (with a trailing axis)."""
        lo, hi = self._support(*s)
        start = self._entropy_start(lo, *s)
        start, hi, *s = snp.broadcast_arrays(start, hi, *s)
        s = [v[..., None] for v in s]
        offs = snp.arange(_ENT_CHUNK, dtype=start.dtype)

        def body(c):
            k0, acc, go, i = c
            k = k0[..., None] + offs
            lp = self._logpmf(k, *s)
            t = snp.sum(snp.where(snp.isfinite(lp) & (k <= hi[..., None]), term(k, lp), 0.0),
                        axis=-1)
            acc1 = acc + snp.where(go, t, 0.0)
            # past the mode the chunk ends lower than it starts, or the pmf has
            # underflowed to 0 all along it (-inf >= -inf would never stop: skellam
            # ran all 512 trips, 11 s, its ive out to k = 131,072)
            falling = ~(lp[..., -1] >= lp[..., 0]) | ((t == 0) & (acc1 > 0))
            done = (k0 + _ENT_CHUNK > hi) | (falling & (snp.abs(t) <= 1e-17 * snp.abs(acc1)))
            return k0 + _ENT_CHUNK, acc1, go & ~done, i + 1

        def cond(c):
            return snp.any(c[2]) & (c[3] < _ENT_TRIPS)

        init = (start, snp.zeros_like(start), snp.ones(start.shape, bool), 0)
        k_end, acc, go, _ = lax.while_loop(cond, body, init)
        return acc, k_end, go, hi, s

    def _entropy_tail(self, K, hi, *s):
        """The rest of the entropy's sum, from K on, where the loop ran out of
        trips (a power-law tail: yulesimon with small alpha; 2^17 terms left
        9.5e-5 of its entropy at alpha = 1, 1.5% at 0.5).  The pmf is taken as
        the power law p(k) = p(K) (k/K)^-b through the last chunk's two ends,
        and f = -p log p summed by Euler-Maclaurin: the integral from K,
        p(K) K (-log p(K) / (b - 1) + b / (b - 1)^2), plus f(K)/2 - f'(K)/12,
        f'(K) = p(K) b (1 + log p(K)) / K.  A geometric tail fits a large b
        and a tail near f(K) / b; the fit's error is the pmf's departure from
        a power law over the tail, O(1/K) relative for yulesimon."""
        ok, b, lpk, kk = self._tail_fit(K, hi, 1.0, *s)
        pk = snp.exp(lpk)
        tail = pk * (kk * (-lpk / (b - 1.0) + b / (b - 1.0) ** 2) - 0.5 * lpk
                     - b * (1.0 + lpk) / (12.0 * kk))
        return snp.where(ok, tail, 0.0)

    def _tail_fit(self, K, hi, b_min, *s):
        """The power law ``p(k) = p(K) (k/K)^-b`` through the pmf at the ends
        of the last chunk before ``K`` (the shapes with a trailing axis, as
        :meth:`_support_sum` returns them): whether it fits with ``b > b_min``,
        ``b``, ``log p(K)`` and ``K`` (safe values where it does not)."""
        s = [v[..., 0] for v in s]
        ka, kb = K - _ENT_CHUNK, K - 1.0
        lp = self._logpmf(snp.stack([ka, kb]), *s)
        ok = (ka > 0) & (K < hi) & snp.isfinite(lp[0]) & snp.isfinite(lp[1])
        la, lb = snp.log(snp.where(ok, ka, 1.0)), snp.log(snp.where(ok, kb, 2.0))
        b = (lp[0] - lp[1]) / (lb - la)
        ok = ok & (b > b_min)
        b = snp.where(ok, b, b_min + 1.0)
        lk = snp.log(snp.where(ok, K, 2.0))
        lpk = snp.where(ok, lp[1] - b * (lk - lb), -1.0)
        return ok, b, lpk, snp.where(ok, K, 2.0)

    def _munp(self, n, *s):
        """``E[K**n]``: from the family's mean, variance, skewness and
        kurtosis up to n = 4, else summed over the support (see
        :meth:`_support_sum`); a sum that has not converged when its trips run
        out (a power-law tail too heavy for the moment: zipf with a <= n + 1)
        is infinite on a non-negative support, as SciPy's, and NaN otherwise."""
        if n <= 4 and type(self)._stats is not rv_generic._stats:
            return self._munp_from_stats(n, *s)
        acc, k_end, go, hi, st = self._support_sum(lambda k, lp: k ** n * snp.exp(lp), *s)
        # a tail left where the trips ran out: the power law through the last
        # chunk, summed by Euler-Maclaurin (integral, f(K)/2, -f'(K)/12) when
        # b > n + 1; a heavier tail has no moment of order n
        ok, b, lpk, kk = self._tail_fit(k_end, hi, n + 1.0, *st)
        e = n - b
        tail = snp.exp(lpk + n * snp.log(kk)) * (kk / (b - n - 1.0) + 0.5 - e / (12.0 * kk))
        lo, _ = self._support(*s)
        diverged = snp.where(lo >= 0, _INF, snp.nan)
        return snp.where(go, snp.where(ok, acc + tail, diverged), acc)

    def _rvs(self, key, shape, dtype, *s):
        u = sciax.random.uniform(key, shape, dtype)
        return self._ppf(u, *s)

    def _split(self, a):
        *s, loc = a
        valid = self._argcheck(*s)
        lo, hi = self._support(*s)
        return s, loc, valid, lo, hi

    def _logpmf_impl(self, k, *a):
        s, loc, valid, lo, hi = self._split(a)
        y = k - loc
        inside = (y >= lo) & (y <= hi) & (y == snp.floor(y))
        ys = snp.where(inside, y, _safe_point(lo, hi))
        ys = snp.floor(ys)
        out = snp.where(inside, self._logpmf(ys, *s), -_INF)
        return snp.where(valid & ~snp.isnan(y), out, snp.nan)

    def _pmf_impl(self, k, *a):
        return snp.exp(self._logpmf_impl(k, *a))

    def _tail_impl(self, fn, below, above, k, *a):
        s, loc, valid, lo, hi = self._split(a)
        y = snp.floor(k - loc)
        inside = (y >= lo) & (y < hi)
        ys = snp.floor(snp.where(inside, y, _safe_point(lo, hi)))
        out = snp.where(y < lo, below, snp.where(y >= hi, above, fn(ys, *s)))
        return snp.where(valid & ~snp.isnan(y), out, snp.nan)

    def _cdf_impl(self, k, *a):
        return self._tail_impl(self._cdf, 0.0, 1.0, k, *a)

    def _sf_impl(self, k, *a):
        return self._tail_impl(self._sf, 1.0, 0.0, k, *a)

    def _logcdf_impl(self, k, *a):
        return self._tail_impl(self._logcdf, -_INF, 0.0, k, *a)

    def _logsf_impl(self, k, *a):
        return self._tail_impl(self._logsf, 0.0, -_INF, k, *a)

    def _quantile_impl(self, fn, upper, q, *a):
        s, loc, valid, lo, hi = self._split(a)
        inside = (q > 0) & (q < 1)
        qs = snp.where(inside, q, 0.5)
        at0, at1 = (hi, lo - 1.0) if upper else (lo - 1.0, hi)
        y = snp.where(inside, fn(qs, *s), snp.where(q == 0, at0, at1))
        return snp.where(valid & (q >= 0) & (q <= 1), y + loc, snp.nan)

    def _ppf_impl(self, q, *a):
        return self._quantile_impl(self._ppf, False, q, *a)

    def _isf_impl(self, q, *a):
        return self._quantile_impl(self._isf, True, q, *a)

    def _entropy_impl(self, *a):
        s, loc, valid, lo, hi = self._split(a)
        return snp.where(valid, self._entropy(*s) + 0 * loc, snp.nan)

    def _support_impl(self, *a):
        s, loc, valid, lo, hi = self._split(a)
        return (snp.where(valid, loc + lo, snp.nan), snp.where(valid, loc + hi, snp.nan))

    def _rvs_impl(self, shape, key, *a):
        s, loc, valid, lo, hi = self._split(a)
        dtype = snp.result_type(*a)
        y = self._rvs(key, shape, dtype, *[snp.broadcast_to(v, shape) for v in s])
        return snp.where(valid, loc + y, snp.nan)

    def _method(name):  # noqa: N805
        impl_name = f"_{name}_impl"

        def method(self, k, *args, **kwds):
            params = self._parse(name, args, kwds)
            return self._run(name, getattr(self, impl_name), k, *params)

        method.__name__ = name
        method.__doc__ = f"``{name}`` at ``k`` (or ``q``) for the given shapes and ``loc``."
        return method

    pmf = _method("pmf")
    logpmf = _method("logpmf")
    cdf = _method("cdf")
    logcdf = _method("logcdf")
    sf = _method("sf")
    logsf = _method("logsf")
    ppf = _method("ppf")
    isf = _method("isf")
    del _method

    entropy = rv_continuous.entropy
    support = rv_continuous.support
    rvs = rv_continuous.rvs


# --- frozen ------------------------------------------------------------------------


class rv_frozen:
    """A distribution with fixed parameters, ``dist(*shapes, loc, scale)``.

    A pytree (the parameters are its leaves), so frozen distributions pass
    through ``jit`` and ``vmap`` and can be differentiated in their parameters.
    """

    def __init__(self, dist, *params):
        self.dist = dist
        self.params = tuple(params)

    @property
    def args(self):
        return self.params[:len(self.dist.shapes)]

    @property
    def kwds(self):
        tail = self.dist._param_tail
        return dict(zip(tail, self.params[len(self.dist.shapes):]))

    def __repr__(self):
        return f"<frozen sciax.stats.{self.dist.name}{self.params}>"

    def _call(name):  # noqa: N805
        def method(self, x):
            return getattr(self.dist, name)(x, *self.params)

        method.__name__ = name
        method.__doc__ = f"``{name}`` of the frozen distribution."
        return method

    pdf, logpdf = _call("pdf"), _call("logpdf")
    pmf, logpmf = _call("pmf"), _call("logpmf")
    cdf, logcdf = _call("cdf"), _call("logcdf")
    sf, logsf = _call("sf"), _call("logsf")
    ppf, isf = _call("ppf"), _call("isf")
    del _call

    def mean(self):
        return self.dist.mean(*self.params)

    def var(self):
        return self.dist.var(*self.params)

    def std(self):
        return self.dist.std(*self.params)

    def median(self):
        return self.dist.median(*self.params)

    def entropy(self):
        return self.dist.entropy(*self.params)

    def support(self):
        return self.dist.support(*self.params)

    def stats(self, moments="mv"):
        return self.dist.stats(*self.params, moments=moments)

    def moment(self, order):
        return self.dist.moment(order, *self.params)

    def interval(self, confidence):
        return self.dist.interval(confidence, *self.params)

    def rvs(self, size=None, random_state=None):
        return self.dist.rvs(*self.params, size=size, random_state=random_state)


sciax.tree_util.register_pytree_node(
    rv_frozen, lambda f: (f.params, f.dist),
    lambda dist, params: rv_frozen(dist, *params))


__all__ = ["rv_continuous", "rv_discrete", "rv_frozen"]
