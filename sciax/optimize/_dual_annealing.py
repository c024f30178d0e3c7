"""Global minimisation by dual annealing (generalised simulated annealing).

The method of Tsallis and Stariolo (1996) with the local search of Xiang et al.
(1997), as :func:`scipy.optimize.dual_annealing` runs it: a Markov chain of
``2 n`` visits per temperature (first moving every coordinate, then one at a
time) drawn from the distorted Cauchy-Lorentz visiting distribution, the
generalised Metropolis test of acceptance parameter ``accept``, a local
minimisation from the best point whenever a chain improved it, and a restart
from a random point when the temperature falls below ``restart_temp_ratio``
times the initial one.

The whole search is one ``lax.while_loop`` (the chain an inner loop, the two
possible local searches one ``minimize`` call in a two-trip loop), so it runs
under ``jit`` and ``vmap`` with per-lane counters and stop reasons.  Its
random numbers come from ``sciax.random``: a seed gives the same walk eagerly
and compiled, while SciPy's walk (another generator) differs.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._global import (_DA_CALLBACK, _DA_MAXFUN_ANNEAL, _DA_MAXFUN_DA,
                                    _DA_MAXFUN_LS, _DA_MAXITER, _DA_NONFINITE, _RUNNING,
                                    GlobalResult, _cached_jit, _draw, _hashable,
                                    _host_stop, _make_key, _rebuild, _split_args)
from sciax.optimize._minimize import minimize
from sciax.optimize._util import Bounds

#: visits beyond this distance are redrawn uniformly inside it (SciPy's limit)
_TAIL_LIMIT = 1e8
#: a visit closer than this to a lower bound is moved up by it
_MIN_VISIT_BOUND = 1e-10
#: random restarts of a starting point whose energy is not finite
_MAX_REINIT = 1000
#: local searches of the default L-BFGS-B take max(6 n, 100) <= 1000 iterations
_LS_RATIO, _LS_MIN, _LS_MAX = 6, 100, 1000


def _box(bounds) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(bounds, Bounds):
        lb, ub = (np.atleast_1d(np.asarray(v, float)) for v in (bounds.lb, bounds.ub))
        lb, ub = np.broadcast_arrays(lb, ub)
    else:
        try:
            pairs = [tuple(b) for b in bounds]
        except TypeError:
            raise TypeError("bounds must be a sequence of (min, max) pairs or a "
                            f"Bounds object, got {type(bounds).__name__}") from None
        if not pairs or any(len(p) != 2 for p in pairs):
            raise ValueError("bounds must be a non-empty sequence of (min, max) pairs")
        lb, ub = (np.array(v, float) for v in zip(*pairs))
    if lb.shape != ub.shape:
        raise ValueError("Bounds do not have the same dimensions")
    if not (np.all(np.isfinite(lb)) and np.all(np.isfinite(ub))):
        raise ValueError("Some bounds values are inf values or nan values")
    if not np.all(lb < ub):
        raise ValueError("Bounds are not consistent min < max")
    return lb.copy(), ub.copy()


def dual_annealing(func: Callable, bounds: Any, args: Any = (), maxiter: int = 1000,
                   minimizer_kwargs: dict | None = None, initial_temp: float = 5230.0,
                   restart_temp_ratio: float = 2e-5, visit: float = 2.62,
                   accept: float = -5.0, maxfun: float = 1e7, rng: Any = None,
                   no_local_search: bool = False, callback: Callable | None = None,
                   x0: Any = None, *, seed: Any = None) -> GlobalResult:
    """sciax implementation of :func:`scipy.optimize.dual_annealing`.

    Find the global minimum of a function in a box by dual annealing:
    generalised simulated annealing (a heavy-tailed visiting distribution
    whose width follows the temperature, and a generalised Metropolis test)
    combined with local minimisation of the best points found.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``, written with sciax.
    bounds : sequence of (min, max) pairs or Bounds
        The search box; every bound finite, ``min < max``.
    args : tuple, optional
        Extra arguments of ``func`` (float and array leaves are traced
        operands: new values do not recompile).
    maxiter : int, optional
        Number of temperature steps (chains), restarts not counted.
    minimizer_kwargs : dict, optional
        Keyword arguments of :func:`sciax.optimize.minimize` for the local
        searches.  By default L-BFGS-B within ``bounds`` with
        ``maxiter = min(max(6 n, 100), 1000)``, as SciPy.  Given, they are used
        as they are (add ``bounds`` yourself); ``args`` in them is ignored.
    initial_temp : float, optional
        Initial temperature; higher values spread the search.
    restart_temp_ratio : float, optional
        The search restarts from a random point when the temperature falls
        below ``initial_temp * restart_temp_ratio``; in ``(0, 1)``.
    visit : float, optional
        Parameter ``q_v`` of the visiting distribution, in ``(1, 3)``; larger
        values give heavier tails and longer jumps.
    accept : float, optional
        Parameter ``q_a < 1`` of the acceptance test (SciPy recommends
        ``(-1e4, -5]``); lower values accept fewer uphill moves.
    maxfun : float, optional
        Soft limit on objective evaluations (checked after each visit and each
        local search).
    rng, seed : int, sciax.random key or numpy Generator, optional
        Randomness of the walk (give one of them); ``None`` draws fresh
        operating-system entropy.
    no_local_search : bool, optional
        ``True`` runs plain generalised simulated annealing.
    callback : callable, optional
        ``callback(x, f, context)`` for each new best point (``context``: 0 in
        the annealing chain, 1 after the local search of an improved chain,
        2 after a local search of a chain that has not improved for long);
        returning ``True`` stops the search.
    x0 : array_like, optional
        Starting point (default: uniform in the box).

    Returns
    -------
    res : OptimizeResult
        ``x``, ``fun``, ``nit`` (temperature steps), ``nfev`` (objective
        evaluations, local searches included), ``njev``, ``nhev``, ``status``
        (0, as SciPy), ``message`` (a one-element list) and ``success``
        (``False`` when ``maxfun`` or the callback stopped the search).

    Raises
    ------
    ValueError
        Bounds that are not finite or not ordered, ``x0`` of another length
        than ``bounds``, ``restart_temp_ratio`` outside ``(0, 1)``, ``visit``
        outside ``(1, 3)`` or ``accept >= 1``.
    TypeError
        ``func`` or ``callback`` not callable.

    Notes
    -----
    Numeric options (``maxiter``, temperatures, ``visit``, ``accept``,
    ``maxfun``) are operands of the compiled program; the bounds and
    ``minimizer_kwargs`` are part of it.  Under ``vmap`` (over ``x0``, ``args``
    or seeds) every lane runs its own walk, and the local searches of all
    lanes run whenever one lane needs one.  SciPy raises when 1,000 random
    starting points all give a non-finite energy; here the search stops with
    ``success=False`` and SciPy's message instead.  SciPy skips a random
    local-search test that its constant ``K = 100 n`` never passes; so does
    this implementation.  The search is not differentiable; differentiate a
    final :func:`minimize` started from ``res.x``.

    References
    ----------
    Tsallis C, Stariolo DA, Generalized simulated annealing, Physica A 233,
    395-406 (1996).  Xiang Y, Sun DY, Fan W, Gong XG, Generalized simulated
    annealing algorithm and its application to the Thomson model, Physics
    Letters A 233, 216-220 (1997).

    Examples
    --------
    The 10-dimensional Rastrigin function, whose global minimum is 0 at the
    origin among ~10^10 local minima:

    >>> from sciax.optimize import dual_annealing
    >>> def rastrigin(x):
    ...     return 10 * x.size + snp.sum(x * x - 10 * snp.cos(2 * np.pi * x))
    >>> res = dual_annealing(rastrigin, [(-5.12, 5.12)] * 10, seed=42)
    >>> float(res.fun) < 1e-10, bool(np.all(np.abs(np.asarray(res.x)) < 1e-6))
    (True, True)
    """
    if not callable(func):
        raise TypeError(f"func must be callable, got {type(func).__name__}")
    if callback is not None and not callable(callback):
        raise TypeError("callback must be callable")
    lb, ub = _box(bounds)
    n = lb.size
    if x0 is not None and np.size(x0) != n:
        raise ValueError("Bounds size does not match x0")
    if not 0.0 < restart_temp_ratio < 1.0:
        raise ValueError("Restart temperature ratio has to be in range (0, 1)")
    if not 1.0 < visit < 3.0:
        raise ValueError(f"visit must be in (1, 3), got {visit}")
    if not accept < 1.0:
        raise ValueError(f"accept must be below 1, got {accept}")
    maxiter = int(maxiter)
    if maxiter < 0:
        raise ValueError(f"maxiter must be non-negative, got {maxiter}")
    mkw = dict(minimizer_kwargs or {})
    mkw.pop("args", None)
    if not mkw:
        mkw = dict(method="L-BFGS-B", bounds=list(zip(lb.tolist(), ub.tolist())),
                   options={"maxiter": min(max(n * _LS_RATIO, _LS_MIN), _LS_MAX)})
    dtype = (np.result_type(snp.asarray(x0).dtype, 1.0) if x0 is not None
             else np.dtype(np.float64 if sciax.config.enable_x64 else np.float32))
    have_x0 = x0 is not None
    x0a = (snp.reshape(snp.asarray(x0, dtype), (n,)) if have_x0
           else snp.zeros((n,), dtype))
    key = _make_key(seed, rng)
    tree, dyn_pos, dyn, statics = _split_args(args)
    f4p, f6, t1 = _visit_factors(float(visit))
    prm = dict(maxiter=np.int32(maxiter), t0=np.float64(initial_temp),
               t_restart=np.float64(initial_temp * restart_temp_ratio),
               visit=np.float64(visit), accept=np.float64(accept),
               maxfun=np.float64(maxfun), f4p=np.float64(f4p), f6=np.float64(f6),
               t1=np.float64(t1))
    try:
        mkey = _hashable(mkw)
    except TypeError:
        mkey = [0]  # unhashable: not cached
    box = (tuple(lb.tolist()), tuple(ub.tolist()))
    cfg = (box, bool(no_local_search), have_x0)
    run = _cached_jit(("da", func, cfg, mkey, callback, tree, dyn_pos, statics),
                      lambda: _da_runner(func, cfg, mkw, callback, tree, dyn_pos,
                                         statics))
    # Inside an outer jit the operands would be constants, and XLA would fold
    # arithmetic on them with other roundings than its kernels': the barrier
    # keeps the walk the same as an eager call's, bit for bit.
    return run(*lax.optimization_barrier((key, x0a, dyn, prm)))


def _visit_factors(q: float) -> tuple[float, float, float]:
    """The temperature-independent constants of the visiting distribution and
    of the temperature schedule, computed on the host (so that a walk is the
    same whether these are constants of an outer ``jit`` or operands)."""
    f2 = math.exp((4.0 - q) * math.log(q - 1.0))
    f3 = math.exp((2.0 - q) * math.log(2.0) / (q - 1.0))
    f4p = math.sqrt(math.pi) * f2 / (f3 * (3.0 - q))
    f5 = 1.0 / (q - 1.0) - 0.5
    f6 = math.pi * (1.0 - f5) / math.sin(math.pi * (1.0 - f5)) / math.exp(
        math.lgamma(2.0 - f5))
    t1 = math.exp((q - 1.0) * math.log(2.0)) - 1.0
    return f4p, f6, t1


def _da_runner(func, cfg, mkw, callback, tree, dyn_pos, statics):
    (lb_t, ub_t), no_local_search, have_x0 = cfg
    have_x0 = snp.bool_(have_x0)

    def run(key, x0, dyn, prm):
        args = _rebuild(tree, dyn_pos, statics, dyn)
        dtype = x0.dtype
        n = x0.shape[0]
        lb, ub = snp.asarray(lb_t, dtype), snp.asarray(ub_t, dtype)
        width = ub - lb
        q, qa = prm["visit"].astype(dtype), prm["accept"].astype(dtype)
        maxfun = prm["maxfun"]
        f4p, f6, t1, t0, t_restart = (prm[k].astype(dtype) for k in (
            "f4p", "f6", "t1", "t0", "t_restart"))
        idx = snp.arange(n)

        def energy(x):
            e = snp.asarray(func(x, *args))
            if e.shape not in ((), (1,)):
                raise ValueError(f"func must return a scalar, got shape {e.shape}")
            return snp.reshape(e, ()).astype(dtype)

        def stop_cb(x, e, context):
            if callback is None:
                return snp.bool_(False)
            return _host_stop(lambda x, f, c: callback(x, f, int(c)))(
                x, e, snp.int32(context))

        def starting_point(key, x, use_x):
            # SciPy's reset: x (or a uniform point), redrawn while its energy
            # is not finite, at most _MAX_REINIT times
            def draw(c):
                u, k = _draw(c[3], n, dtype)
                xs = snp.where(use_x & (c[2] == 0), x, lb + u * width)
                return xs, energy(xs), c[2] + 1, k

            c = (x, snp.asarray(np.nan, dtype), snp.int32(0), key)
            c = lax.while_loop(lambda c: ~snp.isfinite(c[1]) & (c[2] <= _MAX_REINIT),
                               draw, c)
            return c[0], c[1], c[3], c[2]

        def chain(s, T):
            # 2 n visits at temperature T; SciPy's StrategyChain.run
            tstep = T / (s["i"] + 1).astype(dtype)
            f4 = f4p * snp.exp(snp.log(T) / (q - 1.0))
            scale = snp.exp(-(q - 1.0) * snp.log(f6 / f4) / (3.0 - q))
            s = dict(s, nii=s["nii"] + 1, improved=s["i"] == 0, j=snp.int32(0))

            def visit_step(s):
                j = s["j"]
                u, key = _draw(s["key"], 2 * n + 3, dtype)
                # Box-Muller: n pairs of independent normals
                rad = snp.sqrt(-2.0 * snp.log1p(-u[:n]))
                ang = 2.0 * np.pi * u[n:2 * n]
                v = rad * snp.cos(ang) * scale / snp.exp(
                    (q - 1.0) * snp.log(snp.abs(rad * snp.sin(ang))) / (3.0 - q))
                v = snp.where(v > _TAIL_LIMIT, _TAIL_LIMIT * u[2 * n], v)
                v = snp.where(v < -_TAIL_LIMIT, -_TAIL_LIMIT * u[2 * n + 1], v)
                xc = s["xc"]
                w = snp.fmod(snp.fmod(xc + v - lb, width) + width, width) + lb
                w = snp.where(snp.abs(w - lb) < _MIN_VISIT_BOUND, w + _MIN_VISIT_BOUND,
                              w)
                xv = snp.where((j < n) | (idx == j - n), w, xc)
                e = energy(xv)
                better = e < s["ec"]
                best = better & (e < s["eb"])
                ptemp = 1.0 - (1.0 - qa) * (e - s["ec"]) / tstep
                pqv = snp.where(ptemp > 0, snp.exp(snp.log(snp.where(ptemp > 0, ptemp,
                                                                     1.0)) / (1.0 - qa)),
                                0.0)
                took = ~better & (u[2 * n + 2] <= pqv)
                moved = better | took
                xc1 = snp.where(moved, xv, xc)
                ec1 = snp.where(moved, e, s["ec"])
                xm = snp.where(took, xv, s["xm"])
                low = ~better & (s["nii"] >= s["nimax"]) & ((j == 0) | (ec1 < s["em"]))
                stop = lax.cond(best, lambda: stop_cb(xv, e, 0),
                                lambda: snp.bool_(False))
                nfev = s["nfev"] + 1
                code = snp.where(stop, _DA_CALLBACK, snp.where(
                    nfev >= maxfun, _DA_MAXFUN_ANNEAL, _RUNNING))
                return dict(s, xc=xc1, ec=ec1, xb=snp.where(best, xv, s["xb"]),
                            eb=snp.where(best, e, s["eb"]),
                            xm=snp.where(low, xc1, xm), em=snp.where(low, ec1, s["em"]),
                            improved=s["improved"] | best,
                            nii=snp.where(best, 0, s["nii"]), key=key, nfev=nfev,
                            code=code.astype(snp.int32), j=j + 1)

            return lax.while_loop(lambda s: (s["j"] < 2 * n) & (s["code"] == _RUNNING),
                                  visit_step, s)

        def local(x, e):
            # SciPy's LocalSearchWrapper: keep the local minimum only if it is
            # finite, inside the box and lower than e
            r = minimize(func, x, args=args, **mkw)
            rx = snp.reshape(r.x, (n,)).astype(dtype)
            rf = snp.reshape(r.fun, ()).astype(dtype)
            ok = (snp.all(snp.isfinite(rx)) & snp.isfinite(rf) & snp.all(rx >= lb)
                  & snp.all(rx <= ub) & (rf < e))
            cnt = [snp.asarray(r[k]).astype(snp.int32) if k in r else snp.int32(0)
                   for k in ("nfev", "njev", "nhev")]
            return snp.where(ok, rf, e), snp.where(ok, rx, x), cnt

        def searches(s):
            # stage 0: from the best point when the chain improved it;
            # stage 1: from the chain's (xmin, emin) when nothing improved for
            # not_improved_max_idx chains.  One traced minimize for both.
            def stage(k, s):
                first = k == 0
                need = snp.where(first, s["improved"], s["nii"] >= s["nimax"]) & (
                    s["code"] == _RUNNING)
                xs = snp.where(first, s["xb"], s["xm"])
                es = snp.where(first, s["eb"], s["em"])
                e, x, cnt = lax.cond(
                    need, local, lambda x, e: (e, x, [snp.int32(0)] * 3), xs, es)
                best = need & (e < s["eb"])
                stop = lax.cond(best, lambda: stop_cb(x, e, k + 1),
                                lambda: snp.bool_(False))
                nfev = s["nfev"] + cnt[0]
                second = need & ~first
                code = snp.where(stop, _DA_CALLBACK, snp.where(
                    need & (nfev >= maxfun),
                    snp.where(first, _DA_MAXFUN_LS, _DA_MAXFUN_DA), s["code"]))
                return dict(s, xb=snp.where(best, x, s["xb"]),
                            eb=snp.where(best, e, s["eb"]),
                            xc=snp.where(best, x, s["xc"]), ec=snp.where(best, e, s["ec"]),
                            xm=snp.where(second, x, s["xm"]),
                            em=snp.where(second, e, s["em"]),
                            nii=snp.where(best | second, 0, s["nii"]),
                            nimax=snp.where(second, n, s["nimax"]),
                            nfev=nfev, njev=s["njev"] + cnt[1], nhev=s["nhev"] + cnt[2],
                            code=code.astype(snp.int32))

            return lax.fori_loop(0, 2, stage, s)

        def temperature_step(s, T):
            s = chain(s, T)
            if not no_local_search:
                s = searches(s)
            go = s["code"] == _RUNNING
            return dict(s, it=s["it"] + go.astype(snp.int32),
                        i=s["i"] + go.astype(snp.int32))

        def restart(s):
            # also the first start (s["fresh"]), from x0 when one was given
            fresh = s["fresh"]
            x, e, key, evals = starting_point(s["key"], s["xc"], fresh & have_x0)
            keep = lambda a, b: snp.where(fresh, a, b)  # noqa: E731
            return dict(s, xc=x, ec=e, xb=keep(x, s["xb"]), eb=keep(e, s["eb"]),
                        xm=keep(x, s["xm"]), em=keep(e, s["em"]), key=key,
                        nfev=s["nfev"] + evals, i=snp.int32(0), fresh=snp.bool_(False),
                        code=snp.where(snp.isfinite(e), s["code"],
                                       _DA_NONFINITE).astype(snp.int32))

        def body(s):
            T = t0 * t1 / (snp.exp((q - 1.0) * snp.log(s["i"].astype(dtype) + 2.0)) - 1.0)
            done = ~s["fresh"] & (s["it"] >= prm["maxiter"])
            again = ~done & ((T < t_restart) | s["fresh"])
            s = lax.cond(again, restart, lambda s: s, s)
            s = lax.cond(~done & ~again, lambda s: temperature_step(s, T),
                         lambda s: s, s)
            return dict(s, code=snp.where(done, _DA_MAXITER, s["code"]).astype(snp.int32))

        i0 = snp.int32(0)
        nan = snp.asarray(np.nan, dtype)
        s = dict(xc=x0, ec=nan, xb=x0, eb=nan, xm=x0, em=nan, improved=snp.bool_(False),
                 nii=i0, nimax=snp.int32(1000), key=key, nfev=i0, njev=i0, nhev=i0,
                 it=i0, i=i0, j=i0, fresh=snp.bool_(True), code=snp.int32(_RUNNING))
        s = lax.while_loop(lambda s: s["code"] == _RUNNING, body, s)
        ok = (s["code"] == _DA_MAXITER)
        return GlobalResult(x=s["xb"], fun=s["eb"], nit=s["it"], nfev=s["nfev"],
                            njev=s["njev"], nhev=s["nhev"],
                            status=snp.zeros_like(s["it"]), _code=s["code"], _ok=ok)

    return run
