"""Derivatives of sciax.special in every continuous argument against mpmath
(issue 20).

Each case differentiates one function in one argument at a handful of points
(large, tiny, negative where defined, and points where the formula cancels)
with ``jit(vmap(grad))`` and with a forward-mode ``jvp``, and compares both
with ``mpmath.diff`` of the mpmath function at 30 digits (or mpmath's closed
form of the derivative, where ``diff`` of an implicit function would need a
root finder: ndtri).  An eager ``grad`` at the first point must equal the
batched compiled one.

Tolerances (relative, ``|g - ref| <= rtol max(|ref|, floor)``):

* ``CLOSED`` = 1e-13 where the derivative has a closed form in functions that
  sciax evaluates to a few ulp (gamma * digamma, 2/sqrt(pi) e^-x^2, log y, ...)
  and the JVP uses it: a handful of roundings of O(1)-conditioned terms.
* ``HARD`` = 1e-10 where the derivative is a parameter derivative with no
  closed form (the order of a Bessel function, ``a`` of gammainc, ``s`` of
  zeta, the parameters of hyp1f1/hyp2f1), differentiated through a series or
  a quadrature: the issue's "about 1e-10".
* Between them, a per-case figure with its reason in the table.

``floor`` is an absolute scale for derivatives that cross zero near a point
(oscillating Bessel functions): the local amplitude of the derivative.

Cases of one function with the same points form a group: one compiled
``vmap(grad)`` in all of its arguments and one compiled ``jvp`` vmapped over
the unit tangents.  The default run covers the cheap gamma functions and the
digamma difference behind the beta/binom/poch JVPs; beta, binom, poch (10-30
s of compilation each) and every other function are in the slow part
(``-m slow``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import sciax
import sciax.numpy as snp
from sciax import special as ss

mp = mpmath.mp
CLOSED = 1e-13
HARD = 1e-10


@dataclass
class Case:
    name: str
    fn: Callable            # sciax function
    ref: Callable           # mpmath function of the same arguments (mpf in, mpf out)
    argnum: int             # argument differentiated
    points: list            # tuples of all arguments
    rtol: float
    floor: float = 0.0
    slow: bool = True
    dref: Callable | None = None   # closed-form derivative (mpmath), else diff
    why: str = ""
    kw: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.name}-d{self.argnum}"


def _mp_log_abs(f):
    return lambda *a: mp.log(abs(f(*a)))


def _mp_ndtri(p):
    x0 = float(sc.ndtri(float(p)))
    return mp.findroot(lambda x: mp.ncdf(x) - p, mp.mpf(x0))


def _mp_erfcx(x):
    return mp.exp(x * x) * mp.erfc(x)


def _mp_dawsn(x):
    return mp.sqrt(mp.pi) / 2 * mp.exp(-x * x) * mp.erfi(x)


def _mp_xlogy(x, y):
    return x * mp.log(y)


def _mp_xlog1py(x, y):
    return x * mp.log1p(y)


def _mp_boxcox(x, lm):
    if lm == 0:
        return mp.log(x)
    return mp.expm1(lm * mp.log(x)) / lm


def _mp_owens_t(h, a):
    return mp.quad(lambda t: mp.exp(-h * h * (1 + t * t) / 2) / (1 + t * t),
                   [0, a]) / (2 * mp.pi)


def _d_owens_t(argnum, h, a):
    if argnum == 1:
        return mp.exp(-h * h * (1 + a * a) / 2) / (2 * mp.pi * (1 + a * a))
    return -mp.npdf(h) * mp.erf(a * h / mp.sqrt(2)) / 2


def _mp_ellipk(m):
    return mp.ellipk(m)


def _mp_ellipe(m):
    return mp.ellipe(m)


def _mp_binom(n, k):
    return mp.binomial(n, k)


G = [  # gamma/beta family: default run
    Case("gamma", ss.gamma, mp.gamma, 0,
         [(0.5,), (1.4616321449683622,), (3.7,), (30.5,), (60.3,), (150.2,),
          (1e-8,), (-0.5,), (-2.7,), (-30.2,), (-150.5,)], CLOSED, slow=False,
         why="gamma * digamma"),
    Case("gammaln", ss.gammaln, _mp_log_abs(mp.gamma), 0,
         [(0.5,), (2.0,), (30.5,), (1e5,), (1e-8,), (-0.5,), (-2.7,), (-150.5,)],
         CLOSED, slow=False, why="digamma"),
    Case("loggamma", ss.loggamma, mp.loggamma, 0,
         [(0.5,), (3.2,), (1e5,), (1e-8,)], CLOSED, slow=False, why="digamma"),
    Case("rgamma", ss.rgamma, mp.rgamma, 0,
         [(0.5,), (2.5,), (100.3,), (171.5,), (180.2,), (1e-8,), (-0.5,), (-3.3,),
          (-50.5,)], CLOSED, slow=False, why="-digamma / gamma"),
    Case("digamma", ss.digamma, mp.digamma, 0,
         [(0.5,), (1.4616321449683622,), (9.9,), (10.1,), (1e3,), (1e-8,), (-0.5,),
          (-2.7,), (-30.2,)], CLOSED, slow=False, why="trigamma"),
    Case("polygamma1", lambda x: ss.polygamma(1, x), lambda x: mp.polygamma(1, x),
         0, [(0.5,), (3.2,), (25.0,), (1e-3,), (-2.5,)], CLOSED, slow=False,
         why="polygamma(2, x)"),
    Case("polygamma3", lambda x: ss.polygamma(3, x), lambda x: mp.polygamma(3, x),
         0, [(0.5,), (3.2,), (25.0,)], CLOSED, slow=False, why="polygamma(4, x)"),
    # x < 0: polygamma(4, x) reflects (psi^(4)(1 - x) and a polynomial in
    # cot(pi x)); the recurrence it summed before cancelled: 7e-12 at -2.5
    Case("polygamma3neg", lambda x: ss.polygamma(3, x),
         lambda x: mp.polygamma(3, x), 0, [(-2.5,), (-0.7,), (-40.3,)], CLOSED, slow=False,
         why="polygamma(4, x), x < 0"),
]
# beta, binom and poch compile for 10-30 s each (their primal programs are
# large: double-double logarithms, exact products, reflection): slow part
_HEAVY = True
_BETA_PTS = [(2.5, 3.5), (0.3, 40.0), (100.5, 200.3), (500.2, 700.7),
             (1e6, 2.5), (2.5, 1e6), (-2.5, 3.2), (1e-5, 2.0), (30.0, 1e-3),
             (-20.3, 6.2966)]
for _i in (0, 1):
    G += [
        Case("beta", ss.beta, mp.beta, _i, _BETA_PTS, CLOSED, slow=_HEAVY,
             why="B (psi(a) - psi(a + b)), the difference formed without "
                 "cancellation"),
        Case("betaln", ss.betaln, _mp_log_abs(mp.beta), _i, _BETA_PTS, CLOSED,
             slow=False, why="psi(a) - psi(a + b)"),
        Case("binom", ss.binom, _mp_binom, _i,
             [(10.5, 3.3), (2000.0, 200.0), (2000.0, 1800.0), (50.5, 20.25),
              (10.0, 3.0), (7.5, 2.0), (-3.5, 2.2), (-30.5, 5.0), (-1.5, 12.3),
              (1e6, 3.5), (0.5, 100.5), (4.0, 0.0), (3.7, 0.0), (3.0, 5.0),
              (3.5, 5.5), (2.5, -3.0), (-3.5, 2.0), (-0.999, 3.5), (150.5, 20.0)],
             CLOSED, slow=_HEAVY, why="binom (psi differences)"),
        Case("poch", ss.poch, mp.rf, _i,
             [(3.2, 2.5), (100.5, 0.3), (1e4, 50.5), (1e6, 1e-3), (-2.5, 1.3),
              (0.5, 1e-5), (20.3, -5.2), (5.0, 3.0), (2.5, 0.0), (-2.5, 2.0)],
             CLOSED, slow=_HEAVY, why="poch (psi(z + m) - psi(z))"),
    ]

S = []  # everything else: slow
for _i in (0, 1):
    S += [
        Case("gammainc", ss.gammainc,
             lambda a, x: mp.gammainc(a, 0, x, regularized=True), _i,
             [(0.5, 0.3), (2.5, 3.1), (30.0, 25.0), (100.0, 110.0), (1e-3, 0.5),
              (5.0, 0.01), (1e3, 1e3)], HARD if _i == 0 else CLOSED,
             why="d/da: series/continued fraction; d/dx: x^(a-1) e^-x / Gamma(a)"),
        Case("gammaincc", ss.gammaincc,
             lambda a, x: mp.gammainc(a, x, mp.inf, regularized=True), _i,
             [(0.5, 0.3), (2.5, 3.1), (30.0, 25.0), (100.0, 110.0), (1e-3, 0.5),
              (5.0, 20.0)], HARD if _i == 0 else CLOSED, why="as gammainc"),
    ]
for _i in (0, 1, 2):
    S.append(Case("betainc", ss.betainc,
                  lambda a, b, x: mp.betainc(a, b, 0, x, regularized=True), _i,
                  [(2.5, 3.5, 0.3), (0.5, 0.5, 0.9), (30.0, 40.0, 0.45),
                   (1.5, 200.0, 0.01), (0.1, 5.0, 0.2)],
                  HARD if _i < 2 else CLOSED,
                  why="d/da, d/db: continued fraction; d/dx: x^(a-1)(1-x)^(b-1)/B"))
S += [
    Case("erf", ss.erf, mp.erf, 0, [(0.1,), (1.2,), (3.5,), (-2.0,), (1e-8,),
                                     (5.9,)], CLOSED),
    Case("erfc", ss.erfc, mp.erfc, 0, [(0.1,), (1.2,), (-2.0,), (10.0,), (26.0,)],
         CLOSED),
    Case("erfcx", ss.erfcx, _mp_erfcx, 0,
         [(-3.0,), (0.5,), (1.99,), (2.0,), (5.0,), (11.9,), (12.0,), (100.0,),
          (1e5,)], CLOSED, why="2x erfcx - 2/sqrt(pi)"
         " cancels for large x: its relative error grows as x^2 eps"),
    Case("erfi", ss.erfi, mp.erfi, 0, [(0.1,), (1.5,), (5.0,), (-3.0,)], CLOSED),
    Case("dawsn", ss.dawsn, _mp_dawsn, 0,
         [(0.3,), (1.0,), (2.5,), (10.0,), (1e3,), (-4.0,)], CLOSED,
         why="1 - 2x F(x), cancels for large x"),
    # (-37.5: phi is 5e-307, still normal; XLA flushes subnormals)
    Case("ndtr", ss.ndtr, mp.ncdf, 0,
         [(-37.5,), (-10.0,), (-2.0,), (0.3,), (5.0,), (8.0,)], CLOSED),
    # closed form phi/Phi: at 30 digits, log(ncdf(30)) = log(1 - 5e-198)
    # rounds to 0 and diff sees a constant
    Case("log_ndtr", ss.log_ndtr, lambda x: mp.log(mp.ncdf(x)), 0,
         [(-40.0,), (-10.0,), (-1.0,), (0.5,), (6.0,), (30.0,)], CLOSED,
         dref=lambda x: mp.npdf(x) / mp.ncdf(x)),
    Case("ndtri", ss.ndtri, _mp_ndtri, 0,
         [(1e-300,), (1e-20,), (0.01,), (0.3,), (0.7,), (0.999999,)], CLOSED,
         dref=lambda p: 1 / mp.npdf(_mp_ndtri(p))),
    Case("expi", ss.expi, mp.ei, 0,
         [(-30.0,), (-1.0,), (0.1,), (0.3725,), (5.0,), (50.0,), (700.0,)], CLOSED),
    Case("exp1", ss.exp1, mp.e1, 0, [(1e-8,), (0.5,), (3.0,), (50.0,), (600.0,)],
         CLOSED),
    Case("expn2", lambda x: ss.expn(2, x), lambda x: mp.expint(2, x), 0,
         [(0.1,), (1.5,), (20.0,)], CLOSED),
    Case("expn5", lambda x: ss.expn(5, x), lambda x: mp.expint(5, x), 0,
         [(0.1,), (1.5,), (20.0,)], CLOSED),
    Case("ellipk", ss.ellipk, _mp_ellipk, 0,
         [(0.1,), (0.5,), (0.9,), (0.999999,), (-5.0,), (1e-8,)], CLOSED),
    Case("ellipe", ss.ellipe, _mp_ellipe, 0,
         [(0.1,), (0.5,), (0.9,), (0.999999,), (-5.0,), (1e-8,)], CLOSED),
    Case("lambertw", lambda x: snp.real(ss.lambertw(x)),
         lambda x: mp.re(mp.lambertw(x)), 0,
         [(1e-8,), (0.5,), (10.0,), (1e5,), (-0.3,), (-0.36,)], CLOSED),
    Case("entr", ss.entr, lambda x: -x * mp.log(x), 0,
         [(0.5,), (1e-10,), (3.0,), (1.0,)], CLOSED),
]
for _i in (0, 1):
    S += [
        Case("zeta", ss.zeta, lambda s, q: mp.zeta(s, q), _i,
             [(2.5, 1.0), (1.5, 3.3), (10.2, 0.7), (30.0, 2.1), (1.01, 1.0)],
             HARD if _i == 0 else CLOSED, why="d/ds series; d/dq -s zeta(s+1, q)"),
        Case("jv", ss.jv, mp.besselj, _i,
             [(0.5, 1.2), (2.3, 10.5), (10.2, 3.1), (0.0, 50.3), (30.5, 40.2),
              (-1.5, 2.2), (-2.0, 3.1), (-0.5, 7.7)], HARD,
             why="d/dv no closed form; d/dx recurrences"),
        Case("yv", ss.yv, mp.bessely, _i,
             [(0.5, 1.2), (2.3, 10.5), (10.2, 3.1), (0.0, 50.3), (-1.5, 2.2),
              (-2.0, 3.1), (-0.5, 7.7)], HARD),
        # (d/dv I_v at v = 0 is -K_0(x), 2.5e-23 at x = 50.3, 43 orders below
        # I_0(50.3): the v-slope's rounding, eps I_0, is all any evaluation
        # gives there (measured -7.3e6 = 2.5e-14 I_0 at LLVM -O0), so that
        # point is in the x-derivative only)
        Case("iv", ss.iv, mp.besseli, _i,
             [(0.5, 1.2), (2.3, 10.5), (10.2, 3.1), (-1.5, 2.2), (-2.0, 3.1),
              (-1.0, 0.4)] + ([] if _i == 0 else [(0.0, 50.3)]), HARD),
        Case("kv", ss.kv, mp.besselk, _i,
             [(0.5, 1.2), (2.3, 10.5), (10.2, 3.1), (1.5, 1e-3), (-2.5, 3.0)]
             + ([] if _i == 0 else [(0.0, 50.3)]), HARD),
        Case("struve", ss.struve, mp.struveh, _i,
             [(0.5, 1.2), (1.5, 10.3), (3.2, 30.5)], HARD),
        # closed forms (diff would step y = 1e-300 below 0)
        Case("xlogy", ss.xlogy, _mp_xlogy, _i,
             [(2.5, 3.5), (1e-10, 0.1), (3.0, 1e-300), (-2.0, 7.0)], CLOSED,
             dref=(lambda x, y, _i=_i: x / y if _i else mp.log(y))),
        Case("xlog1py", ss.xlog1py, _mp_xlog1py, _i,
             [(2.0, 1e-10), (3.0, -0.5), (0.5, 5.0)], CLOSED),
        Case("kl_div", ss.kl_div, lambda x, y: x * mp.log(x / y) - x + y, _i,
             [(2.0, 3.0), (0.5, 1e-3), (1e-5, 2.0)], CLOSED),
        Case("rel_entr", ss.rel_entr, lambda x, y: x * mp.log(x / y), _i,
             [(2.0, 3.0), (0.5, 1e-3), (1e-5, 2.0)], CLOSED),
        Case("boxcox", ss.boxcox, _mp_boxcox, _i,
             [(2.5, 0.5), (0.3, -1.2), (10.0, 1e-8), (1.5, 0.0), (100.0, 3.0),
              (2.0, -1.5), (0.5, 1e-300)], CLOSED),
        Case("boxcox1p", ss.boxcox1p,
             lambda x, lm: _mp_boxcox(1 + x, lm), _i,
             [(1.5, 0.5), (1e-10, -1.2), (9.0, 1e-8), (0.5, 0.0), (-0.5, 3.0)],
             CLOSED),
        Case("owens_t", ss.owens_t, _mp_owens_t, _i,
             [(0.5, 0.3), (2.0, 1.5), (-1.2, 5.0), (10.0, 0.5)], CLOSED,
             dref=(lambda h, a, _i=_i: _d_owens_t(_i, h, a))),
    ]
# K_v is even in v: d/dv at v = 0 is exactly 0; ours is a rounding error,
# bounded by 1e-13 of K_0(50.3) = 1.3e-23
S.append(Case("kv0", ss.kv, mp.besselk, 0, [(0.0, 50.3)], 1e-13, floor=1.3e-23))
for _i in (0, 1, 2):
    S.append(Case("hyp1f1", ss.hyp1f1, mp.hyp1f1, _i,
                  [(0.5, 1.5, 2.0), (-2.5, 3.3, 1.5), (2.0, 5.5, -3.0),
                   (10.3, 2.2, 10.0)], HARD if _i < 2 else CLOSED))
# (x = 1, Gauss's sum, for the parameters only: mpmath.diff in x would
# step past the branch point)
for _i in (0, 1, 2, 3):
    S.append(Case("hyp2f1", ss.hyp2f1, mp.hyp2f1, _i,
                  [(0.5, 1.5, 2.5, 0.3), (1.2, -0.7, 3.3, -0.6),
                   (2.0, 3.5, 1.5, 0.8)] + ([(0.3, 0.4, 2.5, 1.0)] if _i < 3 else []), HARD if _i < 3 else CLOSED))

CASES = G + S


@dataclass
class Group:
    """The cases of one function that share their points: one compiled
    gradient (all their arguments at once) and one compiled forward-mode
    program (a jvp vmapped over the unit tangents)."""
    cases: list

    @property
    def id(self) -> str:
        c = self.cases[0]
        return c.name if len(self.cases) > 1 else c.id

    @property
    def slow(self) -> bool:
        return self.cases[0].slow


def _groups(cases: list, group: type | None = None) -> list:
    """The cases of one function with the same points, as ``group`` (part b
    passes its own class)."""
    out: dict = {}
    for c in cases:
        out.setdefault((c.name, tuple(c.points)), []).append(c)
    return [(group or Group)(v) for v in out.values()]


GROUPS = _groups(CASES)


def reference(case: Case) -> np.ndarray:
    out = []
    with mp.workdps(30):
        for p in case.points:
            args = [mp.mpf(v) for v in p]
            if case.dref is not None:
                d = case.dref(*args)
            else:
                def g(t, args=args):
                    a = list(args)
                    a[case.argnum] = t
                    return case.ref(*a)
                d = mp.diff(g, args[case.argnum])
            out.append(float(d))
    return np.array(out)


def ours(group: Group) -> tuple[list, list]:
    """``(grads, jvps)``, one array per case of the group."""
    c0 = group.cases[0]
    cols = [snp.asarray(np.array(c, dtype=np.float64)) for c in zip(*c0.points)]
    idx = tuple(c.argnum for c in group.cases)
    g = sciax.jit(sciax.vmap(sciax.grad(c0.fn, argnums=idx)))(*cols)

    def fwd(cols, basis):
        def one(e):
            tans = [snp.zeros_like(x) for x in cols]
            for j, i in enumerate(idx):
                tans[i] = e[j] * snp.ones_like(cols[i])
            return sciax.jvp(c0.fn, tuple(cols), tuple(tans))[1]
        return sciax.vmap(one)(basis)

    t = sciax.jit(fwd)(cols, snp.eye(len(idx)))
    return [np.asarray(v) for v in g], [np.asarray(v) for v in t]


def eager(group: Group) -> list:
    c0 = group.cases[0]
    idx = tuple(c.argnum for c in group.cases)
    return [float(v) for v in sciax.grad(c0.fn, argnums=idx)(*c0.points[0])]


def rel(g: np.ndarray, ref: np.ndarray, floor: float = 0.0) -> np.ndarray:
    with np.errstate(all="ignore"):
        e = np.abs(g - ref) / np.maximum(np.abs(ref), floor)
    return np.where(g == ref, 0.0, np.where(np.isnan(e), np.inf, e))


def check_references(group: Any, gs: list, ts: list,
                     label: Callable = lambda c: c.id) -> None:
    """Each case's gradients ``gs`` and forward derivatives ``ts`` against
    mpmath, within the case's tolerance (both parts)."""
    for case, g, t in zip(group.cases, gs, ts):
        ref = reference(case)
        for what, v in (("grad", g), ("jvp", t)):
            e = rel(v, ref, case.floor)
            bad = e > case.rtol
            assert not bad.any(), (
                f"{label(case)} {what}: {bad.sum()} of {len(e)} outside {case.rtol}: "
                + ", ".join(f"{case.points[j]} ours {v[j]!r} ref {ref[j]!r} rel "
                            f"{e[j]:.1e}" for j in np.flatnonzero(bad)))


def _check(group: Group) -> None:
    gs, ts = ours(group)
    check_references(group, gs, ts)
    # eager grad at the first point equals the compiled batched one, to a
    # few ulp (XLA fuses and reassociates the compiled program) or, for the
    # HARD cases, 1% of their tolerance: a derivative by finite differences
    # (Bessel orders: 1.5e-13 between eager and jit for jv(2.3, 10.5))
    # amplifies those roundings by |f| / (h |f'|)
    for case, e0, g in zip(group.cases, eager(group), gs):
        tol = max(1e-14, case.rtol / 100)
        assert rel(np.array([e0]), g[:1])[0] <= tol, (case.id, e0, g[0])


def test_psi_diff_vs_mpmath():
    # psi(x + d) - psi(x), the core of the beta/betaln/binom/poch JVPs, where
    # the plain difference cancels (|d| << x, tiny x, d < 0) and where it
    # does not; every term of its sum has the sign of d, so a few ulp
    from sciax.special._gamma import _psi_diff
    pts = [(2.0, 1e-5), (1e6, 2.5), (2.5, 1e6), (1e-5, 2.0), (30.0, 1e-3),
           (0.3, 40.0), (100.5, 200.3), (500.2, -400.1), (1e-8, 1e-8),
           (5.0, -4.5), (12.0, -3.0), (1e300, 1e290), (9.99, 0.02),
           (-2.5, 0.7), (3.0, 0.0)]
    x, d = (np.array(c) for c in zip(*pts))
    got = np.asarray(sciax.jit(_psi_diff)(snp.asarray(x), snp.asarray(d)))
    with mp.workdps(30):
        ref = np.array([float(mp.digamma(mp.mpf(a) + mp.mpf(b)) - mp.digamma(a))
                        for a, b in pts])
    e = rel(got, ref)
    assert (e <= 1e-15).all(), [(p, v) for p, v in zip(pts, e) if v > 1e-15]


@pytest.mark.parametrize("group", [g for g in GROUPS if not g.slow],
                         ids=lambda g: g.id)
def test_derivative(group):
    _check(group)


@pytest.mark.slow
@pytest.mark.parametrize("group", [g for g in GROUPS if g.slow], ids=lambda g: g.id)
def test_derivative_slow(group):
    _check(group)


def survey(groups: list, ours: Callable, reference: Callable,
           label: Callable = lambda c: c.id, names: tuple = ()) -> None:
    """Print each case's worst error of grad and jvp (both parts' ``__main__``:
    ``python -m tests.special.test_derivative_sweep[_b] [names]``)."""
    import time
    for gr in groups:
        if names and gr.cases[0].name not in names:
            continue
        t0 = time.time()
        try:
            gs, ts = ours(gr)
            refs = [reference(c) for c in gr.cases]
        except Exception as ex:  # noqa: BLE001
            print(f"{gr.id:16s} ERROR {type(ex).__name__}: {str(ex)[:300]}", flush=True)
            continue
        dt = time.time() - t0
        for c, g, t, ref in zip(gr.cases, gs, ts, refs):
            eg, et = rel(g, ref, c.floor), rel(t, ref, c.floor)
            worst = int(np.argmax(np.maximum(eg, et)))
            flag = "FAIL" if max(eg.max(), et.max()) > c.rtol else "ok"
            print(f"{label(c):22s} {flag:4s} grad {eg.max():.1e} jvp {et.max():.1e} "
                  f"worst {c.points[worst]} {dt:.1f}s", flush=True)
            if flag == "FAIL":
                for j in np.flatnonzero(np.maximum(eg, et) > c.rtol):
                    print(f"      {c.points[j]} g {g[j]!r} t {t[j]!r} "
                          f"ref {ref[j]!r} eg {eg[j]:.1e} et {et[j]:.1e}")


if __name__ == "__main__":
    import sys
    survey(GROUPS, ours, reference, names=tuple(sys.argv[1:]))
