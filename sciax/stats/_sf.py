"""The special functions that the distributions use, looked up in
:mod:`sciax.special` at call time.

``sciax.special`` is written in parallel with ``sciax.stats``.  Every name here
resolves to ``sciax.special.<name>`` as soon as that function exists; until
then a short fallback written over ``sciax.lax`` stands in where one is easy
and exact enough (``ndtr`` from ``erfc``, ``xlogy``...), and the
distributions that need incomplete gamma/beta functions raise
``NotImplementedError`` naming the missing function.  Nothing here
re-implements an incomplete gamma or beta function.
"""

from __future__ import annotations

import math

import sciax
import sciax.numpy as snp
import sciax.special as _special
from sciax.special._noncentral import _betainc_pair, _gammainc_pair
from sciax import lax

_SQRT2 = math.sqrt(2.0)


def _lookup(name: str):
    return getattr(_special, name, None)


def has(name: str) -> bool:
    """Whether ``sciax.special`` provides ``name`` yet."""
    return _lookup(name) is not None


def _require(name: str):
    fn = _lookup(name)
    if fn is None:
        raise NotImplementedError(
            f"this needs sciax.special.{name}, which sciax.special does not "
            "provide yet")
    return fn


def _dispatch(name: str, fallback=None):
    def f(*args):
        fn = _lookup(name)
        if fn is not None:
            return fn(*args)
        if fallback is None:
            _require(name)
        return fallback(*args)

    f.__name__ = name
    return f


# --- fallbacks over sciax.lax (exact to rounding except where noted) ---------------


def _xlogy(x, y):
    # double where: the unused branch must not poison the gradient with 0*inf
    zero = x == 0
    safe_y = snp.where(zero, 1.0, y)
    return snp.where(zero & ~snp.isnan(y), 0.0, x * snp.log(safe_y))


def _xlog1py(x, y):
    zero = x == 0
    safe_y = snp.where(zero, 0.0, y)
    return snp.where(zero & ~snp.isnan(y), 0.0, x * snp.log1p(safe_y))


def log_power_end(k, at_one):
    """The limit of log(A t^(k - 1)) as t -> 0+: -inf for k > 1, log A
    (``at_one``) at k = 1, +inf for k < 1 -- a log-density at a finite
    support end where its closed form is inf - inf."""
    return snp.where(k > 1.0, -math.inf, snp.where(k == 1.0, at_one, math.inf))


def _ndtr(x):
    return 0.5 * lax.erfc(-x / _SQRT2)


def _log_ndtr(x):
    # log(ndtr(x)); for x < -20 the asymptotic series of erfc (5 terms, good to
    # ~1e-13 relative there) avoids the underflow of erfc
    t = snp.where(x < -20.0, x, -20.0)
    t2 = t * t
    series = 1.0 - 1.0 / t2 + 3.0 / t2**2 - 15.0 / t2**3 + 105.0 / t2**4
    tail = -0.5 * t2 - snp.log(-t) - 0.5 * math.log(2 * math.pi) + snp.log(series)
    mid = snp.where(x < -20.0, 0.0, x)
    direct = snp.where(mid > 5.0, -_ndtr(-mid), snp.log(_ndtr(mid)))
    direct = snp.where(mid > 5.0, snp.log1p(direct), direct)
    return snp.where(x < -20.0, tail, direct)


def _ndtri(q):
    # sqrt(2) erfinv(2q - 1); loses relative accuracy for q below ~1e-3 (the
    # subtraction 2q - 1); sciax.special.ndtri replaces it when it lands
    return _SQRT2 * lax.erf_inv(2.0 * q - 1.0)


def _betaln(a, b):
    return lax.lgamma(a) + lax.lgamma(b) - lax.lgamma(a + b)


def _entr(x):
    return snp.where(x > 0, -_xlogy(x, x), snp.where(x == 0, 0.0, -snp.inf))


def _boxcox1p(x, lmbda):
    # (1+x)^lmbda - 1)/lmbda, -> log1p(x) as lmbda -> 0
    small = snp.abs(lmbda) < 1e-8
    lm = snp.where(small, 1.0, lmbda)
    return snp.where(small, snp.log1p(x), snp.expm1(lm * snp.log1p(x)) / lm)


def _inv_boxcox1p(y, lmbda):
    small = snp.abs(lmbda) < 1e-8
    lm = snp.where(small, 1.0, lmbda)
    return snp.where(small, snp.expm1(y), snp.expm1(snp.log1p(lm * y) / lm))


xlogy = _dispatch("xlogy", _xlogy)
xlog1py = _dispatch("xlog1py", _xlog1py)
ndtr = _dispatch("ndtr", _ndtr)
log_ndtr = _dispatch("log_ndtr", _log_ndtr)
ndtri = _dispatch("ndtri", _ndtri)
gammaln = _dispatch("gammaln", lax.lgamma)
betaln = _dispatch("betaln", _betaln)
digamma = _dispatch("digamma", lax.digamma)
entr = _dispatch("entr", _entr)
boxcox1p = _dispatch("boxcox1p", _boxcox1p)
inv_boxcox1p = _dispatch("inv_boxcox1p", _inv_boxcox1p)

# No fallback: these need sciax.special (incomplete gamma/beta and friends).
gammainc = _dispatch("gammainc")
gammaincc = _dispatch("gammaincc")
gammaincinv = _dispatch("gammaincinv")
gammainccinv = _dispatch("gammainccinv")
betainc = _dispatch("betainc")
betaincc = _dispatch("betaincc")

betaincinv = _dispatch("betaincinv")
betainccinv = _dispatch("betainccinv")
owens_t = _dispatch("owens_t")
erfcx = _dispatch("erfcx")
i0e = _dispatch("i0e")
i1e = _dispatch("i1e")
stdtr = _dispatch("stdtr")
stdtrit = _dispatch("stdtrit")
zeta = _dispatch("zeta")
zetac = _dispatch("zetac")
expn = _dispatch("expn")
exp1 = _dispatch("exp1")


def polygamma(n, x):
    fn = _lookup("polygamma")
    if fn is not None:
        return fn(n, x)
    return lax.polygamma(snp.asarray(n, dtype=snp.asarray(x).dtype) + 0 * x, x)


__all__: list[str] = []
del sciax


# one evaluation of a pair of complementary incomplete functions (shared with
# sciax.special's noncentral kernels)
gammainc_pair = _gammainc_pair
betainc_pair = _betainc_pair
