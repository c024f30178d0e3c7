"""The numeric quantile solver shared by distributions without a closed-form
ppf (``rv_continuous._solve_quantile``).

It must hit its target to what the tail resolves, from q = 1e-100 to the
middle, on both tails, and its compiled program must hold the tail's code once
(compile time is a measured target: ncx2.ppf's program was 8 tails' worth,
17,909 equations, and its slow test took 15 minutes at XLA -O0)."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
from sciax import stats

Q = np.array([1e-100, 1e-30, 1e-12, 1e-3, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999])

# (name, shape parameters): every _NumericQuantile family with a cheap tail,
# and the noncentral ones whose tails are series
CASES = [("ncx2", (0.8, 20.0)), ("ncx2", (3.0, 2.0)), ("rice", (3.0,)),
         ("nct", (5.0, 1.0)), ("nct", (1.5, -3.0)), ("ncf", (3.0, 7.0, 2.0)),
         ("cosine", ()), ("semicircular", ()), ("invgauss", (0.3,)),
         ("exponnorm", (2.0,)), ("vonmises", (2.0,)), ("genexpon", (9.0, 16.0, 3.0)),
         ("foldcauchy", (4.0,))]


def _count(jaxpr) -> int:
    """Equations in ``jaxpr`` and in every sub-jaxpr its equations hold."""
    n = 0
    for eqn in jaxpr.eqns:
        n += 1
        for v in eqn.params.values():
            for sub in v if isinstance(v, (tuple, list)) else [v]:
                inner = getattr(sub, "jaxpr", sub)
                if hasattr(inner, "eqns"):
                    n += _count(inner)
    return n


# the series families compile for seconds each: the slow step runs them
_SERIES = {"ncx2", "rice", "nct", "ncf"}


@pytest.mark.parametrize("name,p", [
    pytest.param(n, p, id=f"{n}{p}", marks=[pytest.mark.slow] if n in _SERIES else [])
    for n, p in CASES])
@pytest.mark.parametrize("method", ["ppf", "isf"])
def test_hits_target(name, p, method):
    """The target lies between the tail at 4 ulp either side of the solved x
    (up to the tail's own rounding, 1e-13 relative unless said): x is within
    4 ulp of the root of the tail as computed, at every q down to 1e-100."""
    d = getattr(stats, name)
    x = np.asarray(sciax.jit(lambda q: getattr(d, method)(q, *p))(Q))
    lo, hi = (float(v) for v in d.support(*p))
    below, above = x.copy(), x.copy()
    for _ in range(4):
        below, above = np.nextafter(below, -np.inf), np.nextafter(above, np.inf)
    below, above = np.maximum(below, lo), np.minimum(above, hi)
    if method == "ppf":
        t_lo, t_hi = np.asarray(d.cdf(below, *p)), np.asarray(d.cdf(above, *p))
    else:
        t_lo, t_hi = np.asarray(d.sf(above, *p)), np.asarray(d.sf(below, *p))
    # exponnorm's lower tail is a difference of two terms: 1.6e-12 off mpmath
    # at 1e-100 and not monotone at that level
    slack = 3e-12 if name == "exponnorm" else 1e-13
    ok = (t_lo <= Q * (1 + slack)) & (Q * (1 - slack) <= t_hi)
    assert ok.all(), (Q[~ok], x[~ok], t_lo[~ok], t_hi[~ok])


def test_foldcauchy_cdf_near_zero():
    """F(x) = (arctan(x - c) + arctan(x + c)) / pi cancels near 0; the series
    F(x) = 2x / (pi (1 + c^2)) + O(x^3) is its value there."""
    x, c = np.array([3e-11, 1e-6, 1e-4]), 4.0
    ref = 2 * x / (np.pi * (1 + c * c)) * (1 + x * x * (3 * c * c - 1) / (3 * (1 + c * c) ** 2))
    np.testing.assert_allclose(np.asarray(stats.foldcauchy.cdf(x, c)), ref, rtol=1e-14)


@pytest.mark.parametrize("name,p", [
    ("ncx2", (0.8, 20.0)), ("rice", (3.0,)),
    # tracing these takes seconds
    pytest.param("nct", (5.0, 1.0), marks=pytest.mark.slow),
    pytest.param("ncf", (3.0, 7.0, 2.0), marks=pytest.mark.slow)])
def test_program_holds_one_tail(name, p):
    """ppf's program is the tail's plus the loop's bookkeeping (< 1.2x cdf's):
    one tail evaluation per step, not cdf and sf both, not one solver per half."""
    d = getattr(stats, name)
    cdf = _count(sciax.make_jaxpr(lambda x: d.cdf(x, *p))(Q).jaxpr)
    for method in ("ppf", "isf"):
        n = _count(sciax.make_jaxpr(lambda q: getattr(d, method)(q, *p))(Q).jaxpr)
        assert n < 1.2 * cdf, (method, n, cdf)


@pytest.mark.slow
def test_quantile_gradient_still_implicit():
    """d ppf / d nc by the implicit function theorem against central
    differences of the solved quantile."""
    f = lambda nc: stats.ncx2.ppf(0.3, 3.0, nc)  # noqa: E731
    g = float(sciax.grad(f)(2.0))
    h = 1e-5
    fd = (float(f(2.0 + h)) - float(f(2.0 - h))) / (2 * h)
    assert abs(g - fd) < 1e-7 * (1 + abs(fd))
