"""Weighted integrals for ``quad(..., weight=...)``.

The methods (documented in :func:`~sciax.integrate.quad`):

* ``'cos'``/``'sin'`` on a finite range: QAGS on ``f(x) cos(ωx)``.
  On ``[a, inf)`` (and ``(-inf, b]`` by reflection): QUADPACK's QAWF scheme — the
  integral over each cycle of length ``(2⌊|ω|⌋ + 1) π / |ω|`` by QAGS (all cycles
  at once, through ``vmap``), then Wynn's epsilon algorithm on the partial sums.
* ``'alg'``, ``'alg-loga'``, ``'alg-logb'``, ``'alg-log'``: QAGS (whose
  extrapolation is made for algebraic and logarithmic end-point singularities) on
  ``f(x) (x-a)^α (b-x)^β [log(x-a)] [log(b-x)]``, instead of QAWS's modified
  Clenshaw–Curtis moments.
* ``'cauchy'``: the principal value by subtracting the singularity,
  ``∫ (f(x) - f(c)) / (x - c) dx + f(c) log((b-c)/(c-a))``, the smooth remainder
  by QAGP with a breakpoint at ``c``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.integrate import _qelg

__all__ = ["cauchy_parts", "oscillatory", "qawf", "algebraic"]


@functools.lru_cache(maxsize=256)
def oscillatory(func: Callable, weight: str) -> Callable:
    """``f(x) cos(ωx)`` (or sin) with ω as the first extra argument (cached per
    ``func`` so that eager calls reuse their compiled program)."""
    trig = snp.cos if weight == "cos" else snp.sin

    def g(x: Any, omega: Any, *args: Any) -> Any:
        return func(x, *args) * trig(omega * x)

    return g


@functools.lru_cache(maxsize=256)
def algebraic(func: Callable, weight: str) -> Callable:
    """``f(x) (x-a)^α (b-x)^β`` times the logarithms of ``weight``, with
    ``(a, b, α, β)`` as the first extra arguments."""
    loga = weight in ("alg-loga", "alg-log")
    logb = weight in ("alg-logb", "alg-log")

    def g(x: Any, a: Any, b: Any, alpha: Any, beta: Any, *args: Any) -> Any:
        u, v = x - a, b - x
        w = u ** alpha * v ** beta
        if loga:
            w = w * snp.log(u)
        if logb:
            w = w * snp.log(v)
        return func(x, *args) * w

    return g


@functools.lru_cache(maxsize=256)
def cauchy_parts(func: Callable) -> Callable:
    """The smooth remainder ``(f(x) - f(c)) / (x - c)``, ``c`` the first extra
    argument."""
    def g(x: Any, c: Any, *args: Any) -> Any:
        return (func(x, *args) - func(c, *args)) / (x - c)

    return g


def qawf(quad: Callable, func: Callable, a: Any, omega: Any, args: tuple, weight: str,
         epsabs: float, limlst: int, limit: int) -> tuple:
    """QUADPACK's QAWF: ``∫_a^inf f(x) w(ωx) dx`` as an extrapolated series of
    integrals over cycles.  ``quad`` is :func:`sciax.integrate.quad`."""
    dtype = snp.asarray(1.0).dtype
    fi = snp.finfo(dtype)
    eps, big = float(fi.eps), float(fi.max)
    g = oscillatory(func, weight)
    om = snp.abs(snp.asarray(omega, dtype))
    cycle = (2.0 * snp.floor(om) + 1.0) * np.pi / om
    ks = snp.arange(limlst, dtype=dtype)
    lo = a + ks * cycle
    hi = lo + cycle
    # every cycle to a tenth of the total tolerance (QUADPACK shrinks it
    # geometrically; a fixed share keeps the tolerance static under vmap)
    tol_c = max(0.1 * epsabs, 1e-300)

    def one(lo_k: Any, hi_k: Any) -> tuple:
        y, e, info = quad(g, lo_k, hi_k, args=(omega,) + tuple(args), full_output=1,
                          epsabs=tol_c, epsrel=0.0 if tol_c > 0 else 1e-12,
                          limit=limit)[:3]
        return y, e, info["ier"]

    rslst, erlst, ierlst = sciax.vmap(one)(lo, hi)
    parts = lax.stop_gradient(rslst)
    psum = snp.cumsum(parts)
    esum = snp.cumsum(lax.stop_gradient(erlst))

    def step(k: Any, st: tuple) -> tuple:
        tab, n, r3, nres, best, berr, lst, done = st
        n = n + 1
        tab = tab.at[n - 1].set(psum[k])
        res, abseps, tab2, n2, r3b, nres2 = _qelg.qelg(tab, n, r3, nres, eps, big)
        use = n >= 3
        tab = snp.where(use, tab2, tab)
        n = snp.where(use, n2, n)
        r3 = snp.where(use, r3b, r3)
        nres = snp.where(use, nres2, nres)
        cand, cerr = snp.where(use, res, psum[k]), snp.where(
            use, abseps + esum[k], esum[k] + snp.abs(parts[k]))
        better = ~done & (cerr < berr)
        best = snp.where(better, cand, best)
        berr = snp.where(better, cerr, berr)
        lst = snp.where(done, lst, k + 1)
        done = done | (berr <= epsabs)
        return tab, n, r3, nres, best, berr, lst, done

    init = (snp.zeros(_qelg.TABLE, dtype), snp.asarray(0, snp.int32),
            snp.zeros(3, dtype), snp.asarray(0, snp.int32), snp.asarray(0.0, dtype),
            snp.asarray(big, dtype), snp.asarray(0, snp.int32), snp.asarray(False))
    st = lax.fori_loop(0, limlst, step, init)
    best, berr, lst, done = st[4], st[5], st[6], st[7]
    total_live = snp.sum(rslst)
    y = best + (total_live - lax.stop_gradient(total_live))
    # QUADPACK's codes for QAWF: 1 the cycle limit, 4 no convergence of the series,
    # 7 a cycle failed
    cyc_bad = snp.any(ierlst[:limlst] != 0)
    ier = snp.where(done, 0, snp.where(cyc_bad, 7, 1))
    info = {"lst": lst, "rslst": rslst, "erlst": erlst, "ierlst": ierlst, "ier": ier,
            "neval": snp.asarray(0)}
    return y, berr, info
