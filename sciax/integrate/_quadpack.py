"""``quad``: QUADPACK's adaptive Gauss–Kronrod integration with Wynn extrapolation,
as traceable array code.

The adaptive loop (QAGS for finite ranges, QAGI for infinite ones, QAGS started
from a partition at the user's ``points`` for QAGP) runs in one
``lax.while_loop`` over a fixed-capacity store of ``limit`` intervals, entered
only when the first rule application has not decided the integral, so ``quad``
jits.  Under ``vmap`` a batching rule (``custom_vmap``) applies the first rule to
every member at once and runs the loop only for the undecided members, a group
at a time (``_looped``).

Derivatives are not taken through the loop.  The loop runs on values with their
derivatives stopped; the derivatives of the result with respect to ``args`` are
those of ``S``, the same Kronrod rule summed over the loop's final partition with
the live parameters: the integral of the integrand's derivative, computed by the
same rule (differentiation under the integral sign), to every order.  A
``custom_jvp`` on ``args`` evaluates ``S`` only under differentiation, so a plain
call pays nothing for it.  When the integrand closes over traced values (which a
rule on ``args`` cannot see) the result is instead ``y_loop`` in value with the
derivatives of ``y_loop + S`` (``_plus_derivative``, a ``custom_jvp`` whose primal
program leaves ``S`` unused, so XLA drops it); this gives the right derivatives
through the closure in forward mode (reverse mode through such a closure reaches
the ``while_loop`` and raises, so pass parameters in ``args``).  Traced limits
enter through ``∫_{stop_gradient(b)}^{b} f`` by 2-point Gauss–Legendre, which is
zero in value and has the derivatives of Leibniz's rule (``f(b) db``,
``f'(b) db²``, ...) up to fourth order.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.custom_batching import custom_vmap
from sciax.integrate import _qelg
from sciax.integrate._qelg import GK15, GK21
from sciax.integrate import _weights

__all__ = ["IntegrationWarning", "quad"]


class IntegrationWarning(UserWarning):
    """Warning on issues during integration (as SciPy's ``IntegrationWarning``)."""


MESSAGES = {
    0: "The integral was computed to the requested accuracy.",
    1: "The maximum number of subdivisions ({limit}) has been achieved.\n  If "
       "increasing the limit yields no improvement it is advised to analyze \n  the "
       "integrand in order to determine the difficulties.  If the position of a \n  "
       "local difficulty can be determined (singularity, discontinuity) one will \n  "
       "probably gain from splitting up the interval and calling the integrator \n  "
       "on the subranges.  Perhaps a special-purpose integrator should be used.",
    2: "The occurrence of roundoff error is detected, which prevents \n  the "
       "requested tolerance from being achieved.  The error may be \n  "
       "underestimated.",
    3: "Extremely bad integrand behavior occurs at some points of the\n  "
       "integration interval.",
    4: "The algorithm does not converge.  Roundoff error is detected\n  in the "
       "extrapolation table.  It is assumed that the requested tolerance\n  cannot "
       "be achieved, and that the returned result (if full_output = 1) is \n  the "
       "best which can be obtained.",
    5: "The integral is probably divergent, or slowly convergent.",
    6: "The input is invalid.",
    7: "Abnormal termination of the routine (a cycle of the Fourier integral "
       "failed).  The estimates for result\n  and error are less reliable.",
    8: "The integrand returned a non-finite value (nan or inf) at a quadrature "
       "node; the integration was stopped.",
}


def initial_partition(lo: Any, hi: Any, points: Any, dtype: Any) -> Any:
    """The limits with the sorted breakpoints between them (QAGP's start).

    Breakpoints outside (a, b) are ignored, as QUADPACK does: they collapse
    onto a limit, where their empty intervals integrate to zero.
    """
    if points is None:
        return snp.stack([lo, hi])
    p = snp.asarray(points, dtype).reshape(-1)
    inside = (p > snp.minimum(lo, hi)) & (p < snp.maximum(lo, hi))
    p = snp.sort(snp.where(inside, p, snp.minimum(lo, hi)))
    p = snp.where(hi >= lo, p, p[::-1])
    return snp.concatenate([snp.stack([lo]), p, snp.stack([hi])])


def message(ier: int, limit: int = 50) -> str:
    """SciPy's text for the status code ``ier`` of :func:`quad`."""
    return MESSAGES.get(int(ier), "Unknown error.").format(limit=limit)


def _concrete(x: Any) -> Any:
    """``x`` as a NumPy value if it is known at trace time, else ``None``."""
    if isinstance(x, (int, float, np.number, np.ndarray)):
        return np.asarray(x)
    if isinstance(x, sciax.Array):
        return np.asarray(x)
    return None


def _check_limit(name: str, x: Any) -> Any:
    if isinstance(x, (str, bytes, complex, np.complexfloating)) or x is None:
        raise TypeError(f"quad: {name} must be a real number (float or a 0-d real "
                        f"array); got {type(x).__name__} {x!r}")
    arr = snp.asarray(x)
    if arr.shape != ():
        raise TypeError(f"quad: {name} must be a scalar; got an array of shape "
                        f"{arr.shape} (vmap over quad to integrate over many limits)")
    if snp.issubdtype(arr.dtype, snp.complexfloating) or arr.dtype == snp.bool_:
        raise TypeError(f"quad: {name} must be real; got dtype {arr.dtype}")
    return x


# --- integrand transformations --------------------------------------------------------

def _integrand(func: Callable, args: tuple, kind: int, bound: Any) -> Callable:
    """The function the rule integrates: ``f`` on a finite range (``kind`` 0), or
    QAGI's ``f(bound ± (1-t)/t) / t²`` on (0, 1] (``kind`` 1: (bound, inf),
    -1: (-inf, bound), 2: the whole line, folded at 0)."""
    def scalar(x: Any) -> Any:
        return snp.asarray(func(x, *args))

    def vec(x: Any) -> Any:
        flat = x.reshape(-1)
        out = sciax.vmap(scalar)(flat)
        if out.shape != flat.shape:
            raise TypeError(f"quad: func must return a scalar; got shape "
                            f"{out.shape[1:]} (use quad_vec for vector-valued "
                            f"integrands)")
        return out.reshape(x.shape)

    if kind == 0:
        return vec

    def g(t: Any) -> Any:
        u = (1.0 - t) / t
        if kind == 2:
            val = vec(u) + vec(-u)
        else:
            val = vec(bound + kind * u)
        return val / (t * t)

    return g


# --- the adaptive loop ----------------------------------------------------------------

# the longest axis that ``_sums`` adds up element by element (longer ones are
# reduced: the program grows with the count, and past 64 doubles the runtime
# cost below is moot, see ``_matvec``)
_UNROLL = 64


def _sums(x: Any) -> Any:
    """Sums over the last axis of ``x``, in order, as a chain of adds of its
    elements: elementwise code that XLA fuses into one kernel.

    quad's compiled program has no reductions (``sum``, ``argmax``, ``any``, ...):
    XLA's CPU runtime sets up the buffers of every reduction's reducer on every
    call of a program, whether the reduction runs or not (measured, per call:
    about 0.5 us a ``sum``, 1.4-1.7 us an ``argmax``, even in a loop body that
    runs zero times).  A small dot has no reducer, but XLA rewrites one with a single
    row into a reduction; a sum by pairwise halving is split into several
    kernels.  Booleans and integers count exactly (in floating point)."""
    n = x.shape[-1]
    if n > _UNROLL:
        return snp.sum(x, axis=-1)
    acc = x[..., 0]
    for i in range(1, n):
        acc = acc + x[..., i]
    return acc


def _matvec(rows: list, v: Any) -> list:
    """``[row @ v for row in rows]`` without a reduction or a dot (``_sums``).

    Row by row, not as one stacked array: XLA's CPU runtime runs a loop body's
    kernels one after the other only while every buffer they touch is at most
    512 bytes (64 doubles, ``limit`` 50 fits); a larger one makes it schedule
    them on its thread pool, which costs more than the kernels (quad's loop
    body ran 2-3x slower with the counts stacked)."""
    return [_sums(snp.asarray(r).astype(v.dtype) * v) for r in rows]


def _ranks(err: Any, n: Any) -> Any:
    """Position of each of the first ``n`` intervals in the descending order of the
    errors (ties by index; inactive slots rank last).  A pairwise count rather
    than a sort: XLA compiles a sort inside a while loop slowly."""
    size = err.shape[0]
    if size == 1:
        return snp.zeros(1, snp.int32)
    idx = snp.arange(size)
    act = idx < n
    e = snp.where(act, err, -1.0)
    before = (e[None, :] > e[:, None]) | ((e[None, :] == e[:, None])
                                          & (idx[None, :] < idx[:, None]))
    return _sums(before.astype(err.dtype)).astype(snp.int32)


def _rerank(order: Any, err: Any, m: Any, j: Any, n: Any, extra: Any) -> tuple:
    """``_ranks(err, n)`` after a bisection, from the ranks ``order`` of the
    previous partition: interval ``m`` was split into the new ``err[m]`` and
    ``err[j]`` (slot ``j = n - 1`` was empty).  O(n) instead of O(n²); the same
    ranks (descending error, ties by index).  Also returns the count of the
    boolean vector ``extra`` (counted with the new ranks)."""
    idx = snp.arange(err.shape[0])
    act = idx < n

    def before(k: Any) -> tuple:
        # is k ranked before each slot, and is each slot ranked before k
        ek = err[k]
        return ((ek > err) | ((ek == err) & (k < idx)),
                (err > ek) | ((err == ek) & (idx < k)))

    m_before, before_m = before(m)
    j_before, before_j = before(j)
    one = lambda b: b.astype(snp.int32)  # noqa: E731
    # the others keep their relative order: drop the old m, insert the new pair
    kept = order - one(order > order[m]) + one(m_before) + one(j_before)
    rank_m, rank_j, n_extra = [c.astype(snp.int32) for c in _matvec(
        [before_m & act & (idx != m), before_j & act & (idx != j), extra],
        snp.ones(err.shape[0], err.dtype))]
    new = snp.where(idx == m, rank_m, snp.where(idx == j, rank_j, kept))
    return snp.where(act, new, idx).astype(snp.int32), n_extra


def _at_rank(ranks: Any, *r: Any) -> Any:
    """The intervals of ranks ``r`` (one-hot sums: see ``_sums``)."""
    n = ranks.shape[0]
    if n == 1:
        out = [snp.asarray(0, snp.int32) for _ in r]
    else:
        idx = lax.iota(snp.asarray(1.0).dtype, n)
        out = [k.astype(snp.int32) for k in _matvec([ranks == k for k in r], idx)]
    return out[0] if len(r) == 1 else out


# the loop's outputs that quad reads
_OUT_KEYS = ("result", "abserr", "ier", "last", "alist", "blist", "rlist", "elist",
             "order")


def _adaptive(g: Callable, pts: Any, limit: int, epsabs: float, epsrel: float,
              rule: tuple, dtype: Any, loop: bool = True) -> dict:
    """QUADPACK's QAGS/QAGI loop on the partition of the sorted breakpoints ``pts``
    (QAGP when there are more than two).  Returns the final state's ``_OUT_KEYS``
    (a dict).

    The loop is entered only when the first rule application has not decided the
    integral (a ``cond``: a cheap integral costs one rule application and no
    loop).  With ``loop=False`` it is not built at all: the state after the first
    rule application, final where ``done`` (the batching rule's vectorised first
    pass)."""
    fi = snp.finfo(dtype)
    eps, tiny, big = float(fi.eps), float(fi.tiny), float(fi.max)
    n0 = pts.shape[0] - 1
    L = limit
    idx = snp.arange(L)

    def evaluate(lo: Any, hi: Any) -> tuple:
        x, _, hl = _qelg.rule_nodes(lo, hi, rule)
        return _qelg.rule_apply(g(x), hl, rule, eps, tiny)

    lo0, hi0 = pts[:-1], pts[1:]
    r0, e0, ra0, rs0, fin0 = evaluate(lo0, hi0)
    # the totals over the initial intervals (no reductions: see ``_sums``)
    if n0 == 1:
        result, abserr, defabs, resasc = r0[0], e0[0], ra0[0], rs0[0]
        nonfinite = ~fin0[0]
    else:
        result, abserr, defabs, resasc, nbad = _matvec([r0, e0, ra0, rs0, ~fin0],
                                                       snp.ones(n0, dtype))
        nonfinite = nbad > 0
    dres = snp.abs(result)
    errbnd = snp.maximum(epsabs, epsrel * dres)
    ier = snp.asarray(0, snp.int32)
    ier = snp.where((abserr <= 100.0 * eps * defabs) & (abserr > errbnd), 2, ier)
    ier = snp.where(L == n0, 1, ier)
    ier = snp.where(nonfinite, 8, ier)
    done0 = ((ier != 0) | ((abserr <= errbnd) & (abserr != resasc)) | (abserr == 0))
    ksgn = snp.where(dres >= (1.0 - 50.0 * eps) * defabs, 1, -1)
    zero = snp.asarray(0.0, dtype)

    def init() -> dict:
        # the loop's state, built inside the branches of the cond below (built
        # before it, its set-up would run on every call, a few more kernels)
        pad = lambda v, fill: snp.concatenate(  # noqa: E731
            [v, snp.full((L - n0,), fill, v.dtype)])
        alist, blist = pad(lo0, 0.0), pad(hi0, 0.0)
        # unused slots hold copies of the first interval so that re-evaluating
        # the rule on them (for derivatives) stays finite
        alist = snp.where(idx < n0, alist, alist[0])
        blist = snp.where(idx < n0, blist, blist[0])
        rlist, elist = pad(r0, 0.0), pad(e0, 0.0)
        level = snp.zeros(L, snp.int32)
        # the ranks of the n0 initial intervals (all of them when there are no
        # breakpoints); empty slots rank after them, by index
        order = snp.concatenate([_ranks(e0, n0),
                                 snp.arange(n0, L, dtype=snp.int32)])
        maxerr = snp.asarray(0, snp.int32) if n0 == 1 else _at_rank(order, 0)

        i0 = snp.asarray(0, snp.int32)
        s = dict(alist=alist, blist=blist, rlist=rlist, elist=elist, level=level,
                 order=order, last=snp.asarray(n0, snp.int32), maxerr=maxerr,
                 errmax=elist[maxerr], nrmax=snp.asarray(1, snp.int32),
                 area=result, errsum=abserr, result=result,
                 abserr=snp.asarray(big, dtype), ertest=errbnd, erlarg=abserr,
                 correc=zero, extrap=snp.asarray(False), noext=snp.asarray(False),
                 ktmin=i0, iroff1=i0, iroff2=i0, iroff3=i0, ierro=i0, ier=ier,
                 levmax=snp.asarray(1, snp.int32),
                 rlist2=snp.zeros(_qelg.TABLE, dtype).at[0].set(result),
                 numrl2=snp.asarray(2, snp.int32), res3la=snp.zeros(3, dtype),
                 nres=i0, done=done0, mode=i0)
        return s

    def body(s: dict) -> dict:
        s = dict(s)
        last = s["last"] + 1
        m = s["maxerr"]
        a1, b2 = s["alist"][m], s["blist"][m]
        b1 = 0.5 * (a1 + b2)
        a2 = b1
        lev = s["level"][m] + 1
        erlast, errmax = s["errmax"], s["errmax"]
        r, e, ra, rs, fin = evaluate(snp.stack([a1, a2]), snp.stack([b1, b2]))
        # divided by a 1 that XLA cannot see is one (``last`` >= 1): a division
        # is an expensive operation to XLA, which then computes the estimates
        # once instead of fusing the rule's sums into each of their ~20 users
        # (the loop body ran ~15% faster); exact, as x / 1 = x
        one = snp.minimum(s["last"], 1).astype(r.dtype)
        r, e, ra, rs = r / one, e / one, ra / one, rs / one
        area1, area2, error1, error2 = r[0], r[1], e[0], e[1]
        bad = ~(fin[0] & fin[1])
        area12, erro12 = area1 + area2, error1 + error2
        errsum = s["errsum"] + erro12 - errmax
        area = s["area"] + area12 - s["rlist"][m]
        # roundoff detection, as QUADPACK: the bisection did not reduce the error
        counted = (ra[0] != error1) & (ra[1] != error2)
        roff = (counted & (snp.abs(s["rlist"][m] - area12) <= 1e-5 * snp.abs(area12))
                & (erro12 >= 0.99 * errmax))
        iroff1 = s["iroff1"] + (roff & ~s["extrap"])
        iroff2 = s["iroff2"] + (roff & s["extrap"])
        iroff3 = s["iroff3"] + (counted & (last > 10) & (erro12 > errmax))
        errbnd = snp.maximum(epsabs, epsrel * snp.abs(area))
        ier = s["ier"]
        ier = snp.where((iroff1 + iroff2 >= 10) | (iroff3 >= 20), 2, ier)
        ierro = snp.where(iroff2 >= 5, 3, s["ierro"])
        ier = snp.where(last == L, 1, ier)
        tiny_int = (snp.maximum(snp.abs(a1), snp.abs(b2))
                    <= (1.0 + 100.0 * eps) * (snp.abs(a2) + 1000.0 * tiny))
        ier = snp.where(tiny_int, 4, ier)
        ier = snp.where(bad, 8, ier)
        # the half with the larger error keeps slot m, the other takes slot last-1
        sw = error2 > error1
        j = last - 1
        pick = lambda x, y: (snp.where(sw, y, x), snp.where(sw, x, y))  # noqa: E731
        am, an = pick(a1, a2)
        bm, bn = pick(b1, b2)
        rm, rn = pick(area1, area2)
        em, en = pick(error1, error2)
        alist = s["alist"].at[m].set(am).at[j].set(an)
        blist = s["blist"].at[m].set(bm).at[j].set(bn)
        rlist = s["rlist"].at[m].set(rm).at[j].set(rn)
        elist = s["elist"].at[m].set(em).at[j].set(en)
        level = s["level"].at[m].set(lev).at[j].set(lev)
        # dqpsrt keeps the errors in descending order; a full sort gives the same
        # order, and the cursor nrmax moves up past intervals whose error is now
        # smaller than the bisected one's
        nrmax = s["nrmax"]
        above = (s["order"] < nrmax - 1) & (elist < elist[m])
        order, n_above = _rerank(s["order"], elist, m, j, last, above)
        nrmax = nrmax - n_above
        maxerr, top = _at_rank(order, nrmax - 1, 0)
        errmax = elist[maxerr]

        conv = errsum <= errbnd
        stop = ~conv & (ier != 0)
        live = ~conv & ~stop
        first = live & (last == n0 + 1)
        go = live & ~first & ~s["noext"]
        levmax = s["levmax"]
        erlarg = s["erlarg"] - erlast + snp.where(lev <= levmax, erro12, 0.0)
        check = go & ~s["extrap"]
        cont1 = check & (level[maxerr] <= levmax)
        extrap = s["extrap"] | (check & ~cont1)
        nrmax = snp.where(check & ~cont1, 2, nrmax)
        go2 = go & ~cont1
        # before extrapolating, bisect the large intervals with the largest errors
        tryskip = go2 & (ierro != 3) & (erlarg > s["ertest"])
        jupbnd = snp.where(last > 2 + L // 2, L + 3 - last, last).astype(snp.int32)

        # QUADPACK's walk down the error order from position nrmax to jupbnd, to
        # the first interval that is not at the deepest level (a loop, not a
        # reduction over all slots: see ``_sums``); zero steps unless tryskip
        def walk_cond(c: tuple) -> Any:
            k, hit, _ = c
            return (k <= jupbnd) & ~hit

        def walk(c: tuple) -> tuple:
            k, _, _ = c
            slot = _at_rank(order, k - 1)
            hit = level[slot] <= levmax
            return snp.where(hit, k, k + 1).astype(snp.int32), hit, slot

        k0 = snp.where(tryskip, nrmax, jupbnd + 1).astype(snp.int32)
        kf, found, best = lax.while_loop(walk_cond, walk,
                                         (k0, snp.asarray(False), maxerr))
        nrmax = snp.where(found, kf, nrmax)
        maxerr = snp.where(found, best, maxerr)
        errmax = elist[maxerr]
        doext = go2 & ~found

        numrl2 = s["numrl2"] + 1
        rlist2 = s["rlist2"].at[numrl2 - 1].set(area)

        def extrapolate(op: tuple) -> tuple:
            return _qelg.qelg(*op[:4], eps, big, active=op[4])

        def skip(op: tuple) -> tuple:
            tab, n, r3, nres, _ = op
            return zero, snp.asarray(big, dtype), tab, n, r3, nres

        # (under vmap both branches run: the table loop then steps only for the
        # members that extrapolate)
        reseps, abseps, rlist2x, numrl2x, res3la, nres = lax.cond(
            doext, extrapolate, skip,
            (rlist2, numrl2, s["res3la"], s["nres"], doext))
        ktmin = s["ktmin"] + 1
        ier_x = snp.where((ktmin > 5) & (s["abserr"] < 1e-3 * errsum), 5, ier)
        better = abseps < s["abserr"]
        ktmin = snp.where(better, 0, ktmin)
        abserr = snp.where(better, abseps, s["abserr"])
        result = snp.where(better, reseps, s["result"])
        correc = snp.where(better, erlarg, s["correc"])
        ertest_x = snp.where(better, snp.maximum(epsabs, epsrel * snp.abs(reseps)),
                             s["ertest"])
        done_a = better & (abserr <= ertest_x)
        noext_x = s["noext"] | (numrl2x == 1)
        done_b = ~done_a & (ier_x == 5)

        def upd(key: str, val_ext: Any, val_other: Any) -> None:
            s[key] = snp.where(doext, val_ext, val_other)

        upd("ktmin", ktmin, s["ktmin"])
        upd("abserr", abserr, s["abserr"])
        upd("result", result, s["result"])
        upd("correc", correc, s["correc"])
        upd("ertest", ertest_x, snp.where(first, errbnd, s["ertest"]))
        upd("noext", noext_x, s["noext"])
        upd("rlist2", rlist2x, snp.where(first, s["rlist2"].at[1].set(area),
                                         s["rlist2"]))
        upd("numrl2", numrl2x, s["numrl2"])
        upd("res3la", res3la, s["res3la"])
        upd("nres", nres, s["nres"])
        ier = snp.where(doext, ier_x, ier)
        reset = doext & ~done_a & ~done_b
        s["maxerr"] = snp.where(reset, top, maxerr)
        s["errmax"] = elist[s["maxerr"]]
        s["nrmax"] = snp.where(reset, 1, nrmax)
        s["extrap"] = snp.where(reset, False, extrap)
        s["levmax"] = snp.where(reset, levmax + 1, levmax)
        erlarg = snp.where(first, errsum, snp.where(go, erlarg, s["erlarg"]))
        s["erlarg"] = snp.where(reset, errsum, erlarg)
        s.update(alist=alist, blist=blist, rlist=rlist, elist=elist, level=level,
                 order=order, last=last, area=area, errsum=errsum, iroff1=iroff1,
                 iroff2=iroff2, iroff3=iroff3, ierro=ierro, ier=ier)
        ext_done = doext & (done_a | done_b)
        s["done"] = conv | stop | ext_done | (last >= L)
        s["mode"] = snp.where(conv, 1, 0)
        return s

    def typed_body(s: dict) -> dict:
        # keep the carry's dtypes fixed (index arithmetic promotes int32 to int64)
        new = body(s)
        return {k: snp.asarray(v).astype(s[k].dtype) for k, v in new.items()}

    def outputs(s: dict) -> dict:
        keep = _OUT_KEYS if loop else _OUT_KEYS + ("done",)
        return {k: v for k, v in s.items() if k in keep}

    def decided(_: Any) -> dict:
        # where done0, _finish keeps the first estimates and status
        return outputs(dict(init(), result=result, abserr=abserr))

    def adapt(_: Any) -> dict:
        s = lax.while_loop(lambda s: ~s["done"], typed_body, init())
        return outputs(_finish(s, done0, result, abserr, ksgn, defabs, n0))

    if not loop:
        return decided(None)
    # only the outputs pass through the cond: XLA drops those the caller does
    # not use, and a decided integral copies nothing else
    return lax.cond(done0, decided, adapt, result)


def _finish(s: dict, done0: Any, result0: Any, abserr0: Any, ksgn: Any, defabs: Any,
            n0: int) -> dict:
    """QUADPACK's exit logic (labels 100-130 of dqagse): choose between the
    extrapolated result and the plain sum, and detect divergence."""
    big = float(snp.finfo(s["rlist"].dtype).max)
    last, ier, ierro = s["last"], s["ier"], s["ierro"]
    result, abserr, area, errsum = s["result"], s["abserr"], s["area"], s["errsum"]
    live = snp.arange(s["rlist"].shape[0]) < last
    total = _matvec([snp.where(live, s["rlist"], 0.0)],
                    snp.ones(s["rlist"].shape[0], s["rlist"].dtype))[0]
    nonfin = ier == 8
    to115 = (s["mode"] == 1) | (abserr == big)
    flagged = ~to115 & (ier + ierro != 0)
    abserr = snp.where(flagged & (ierro == 3), abserr + s["correc"], abserr)
    ier = snp.where(flagged & (ier == 0), 3, ier)
    both = (result != 0) & (area != 0)
    # path: flagged -> (both: 105) | (abserr > errsum: 115) | (area == 0: 130) | 110
    to105 = (~to115 & ~flagged) | (flagged & both)
    to115 = to115 | (flagged & ~both & (abserr > errsum))
    to130 = flagged & ~both & ~(abserr > errsum) & (area == 0)
    to110 = flagged & ~both & ~(abserr > errsum) & (area != 0)
    safe_r = snp.where(result == 0, 1.0, snp.abs(result))
    safe_a = snp.where(area == 0, 1.0, snp.abs(area))
    worse = abserr / safe_r > errsum / safe_a
    to115 = to115 | (to105 & worse)
    to110 = to110 | (to105 & ~worse)
    ratio = result / safe_a * snp.sign(snp.where(area == 0, 1.0, area))
    small_res = (ksgn == -1) & (snp.maximum(snp.abs(result), snp.abs(area))
                                <= defabs * 0.01)
    diverge = to110 & ~small_res & ((ratio < 0.01) | (ratio > 100.0)
                                    | (errsum > snp.abs(area)))
    ier = snp.where(diverge, 6, ier)
    del to130
    result = snp.where(to115, total, result)
    abserr = snp.where(to115, errsum, abserr)
    ier = snp.where((ier > 2) & ~nonfin, ier - 1, ier)
    result = snp.where(nonfin, snp.nan, result)
    # an integral decided by the first rule application keeps its estimates
    result = snp.where(done0, result0, result)
    abserr = snp.where(done0, abserr0, abserr)
    ier = snp.where(done0, s["ier"], ier)
    out = dict(s)
    out.update(result=result, abserr=abserr, ier=ier, last=last)
    return out


# --- batching: the first rule application for all members, the loop for the rest ------

# Members per group in the batched loop over the members the first rule application
# did not decide (0: by backend).  On the CPU one at a time: the plain loop costs
# little per operation there, while batching it turns its indexing into gathers and
# scatters (400 integrals of sin(cx)^2 log x, all undecided: 41-75 ms one at a
# time, 59-147 ms in groups of 16, SciPy 142-250 ms).  Accelerators want groups.
GROUP = 0


def _group_size(size: int) -> int:
    group = GROUP or (1 if sciax.default_backend() == "cpu" else 64)
    return min(group, size)


def _looped(func: Callable, kind: int, limit: int, epsabs: float, epsrel: float,
            rule: tuple, dtype: Any) -> Callable:
    """The adaptive integration as a function of ``(pts, bound, args)`` (those
    without derivatives), with a batching rule.

    ``vmap`` of the plain loop would run every member until the slowest has
    converged, each carrying its interval store, though most integrals of a batch
    are usually decided by the first rule application.  Under ``vmap`` the rule
    instead applies the first Kronrod rule to all members at once (one vectorised
    evaluation of ``func``), and runs the adaptive loop only for the members it did
    not decide, ``_group_size`` at a time: gathered by a prefix sum over the
    undecided mask, integrated by the loop batched over the group, scattered back
    (on the CPU the group is one member and the loop the plain one).  The results
    are the same as integrating each member alone."""

    def run(pts: Any, bound: Any, args: tuple, loop: bool = True) -> dict:
        g = _integrand(func, args, kind, bound)
        return _adaptive(g, pts, limit, epsabs, epsrel, rule, dtype, loop=loop)

    looped = custom_vmap(lambda pts, bound, args: run(pts, bound, args))

    @looped.def_vmap
    def _batched(size: int, in_batched: list, pts: Any, bound: Any, args: tuple
                 ) -> tuple:
        leaves, tree = sciax.tree.flatten((pts, bound, args))
        axes = tuple(0 if b else None for b in sciax.tree.leaves(tuple(in_batched)))

        def run_flat(*xs: Any, loop: bool = True) -> dict:
            return run(*sciax.tree.unflatten(tree, xs), loop=loop)

        first = sciax.vmap(lambda *xs: run_flat(*xs, loop=False), in_axes=axes)(*leaves)
        done = first.pop("done")
        group = _group_size(size)

        def body1(c: tuple) -> tuple:
            # one member at a time: the plain loop, no batched indexing
            out, done = c
            i = snp.argmax(~done).astype(snp.int32)
            res = run_flat(*[x if ax is None else x[i] for x, ax in zip(leaves, axes)])
            out = {k: v.at[i].set(res[k]) for k, v in out.items()}
            return out, done.at[i].set(True)

        def body(c: tuple) -> tuple:
            out, done = c
            live = ~done
            # the first ``group`` undecided members, padded with the first of them
            pos = snp.cumsum(live.astype(snp.int32)) - 1
            slot = snp.where(live & (pos < group), pos, group)
            idx = snp.full((group + 1,), snp.argmax(live).astype(snp.int32))
            idx = idx.at[slot].set(snp.arange(size, dtype=snp.int32))[:group]
            sub = [x if ax is None else x[idx] for x, ax in zip(leaves, axes)]
            res = sciax.vmap(run_flat, in_axes=axes)(*sub)
            out = {k: v.at[idx].set(res[k]) for k, v in out.items()}
            return out, done.at[idx].set(True)

        out, _ = lax.while_loop(lambda c: ~snp.all(c[1]), body1 if group == 1 else body,
                                (first, done))
        return out, True

    return looped


# --- derivatives: the rule on the final partition, and Leibniz's rule -----------------

_GL2 = (0.5 - 0.5 / np.sqrt(3.0), 0.5 + 0.5 / np.sqrt(3.0))


def _partition_sum(g: Callable, alist: Any, blist: Any, live: Any, rule: tuple) -> Any:
    """The Kronrod rule summed over the intervals of the partition where ``live``."""
    x, _, hl = _qelg.rule_nodes(alist, blist, rule)
    rk = snp.sum(g(x) * _qelg.table(rule[1]), axis=-1) * hl
    return snp.sum(snp.where(live, rk, 0.0))


def _closes_over_traced(func: Callable, args: tuple, dtype: Any) -> bool:
    """Whether ``func`` closes over traced values (which may carry derivatives
    that only the rule on the live partition, not a ``custom_jvp`` on ``args``,
    can see)."""
    probe = sciax.make_jaxpr(lambda x, *p: func(x, *p))(snp.asarray(0.5, dtype), *args)
    return any(not isinstance(c, (sciax.Array, np.ndarray, np.generic, int, float,
                                  bool, complex)) for c in probe.consts)


def _attach_rule_fun(g_of: Callable, rule: tuple, result: Any, ops: tuple) -> Any:
    """``result`` in value; under differentiation with respect to ``ops``, the
    derivative of the Kronrod rule summed over the final partition."""
    return result


def _attach_rule_jvp(g_of: Callable, rule: tuple, primals: tuple, tangents: tuple
                     ) -> tuple:
    result, ops = primals
    ops_t = tangents[1]
    alist, blist, live, bound, args = ops

    def total(args: tuple) -> Any:
        return _partition_sum(g_of(args, bound), alist, blist, live, rule)

    _, dy = sciax.jvp(total, (args,), (ops_t[4],))
    return result, dy


_attach_rule = sciax.custom_jvp(_attach_rule_fun, nondiff_argnums=(0, 1))
_attach_rule.defjvp(_attach_rule_jvp)


@sciax.custom_jvp
def _plus_derivative(y: Any, s: Any) -> Any:
    """``y`` in value, with the derivatives of ``y + s``.

    Unlike ``y + (s - stop_gradient(s))`` a primal program does not use ``s`` at
    all, so XLA drops its computation (for a nested ``quad``, the inner integral
    at every node of the outer partition)."""
    return y


@_plus_derivative.defjvp
def _plus_derivative_jvp(primals: tuple, tangents: tuple) -> tuple:
    y, s = primals
    dy, ds = tangents
    # the primal output keeps s's derivative for an enclosing differentiation
    return _plus_derivative(y, s), dy + ds


def _endpoint(f: Callable, c: Any, safe: Any = 0.0) -> Any:
    """``∫_{stop_gradient(c)}^{c} f``: zero in value; its derivatives in ``c`` are
    Leibniz's ``f(c)``, ``f'(c)``, ... (exact to fourth order by 2-point
    Gauss–Legendre).  Where ``f(c)`` is not finite the derivative is nan."""
    c0 = lax.stop_gradient(c)
    h = c - c0
    f0 = lax.stop_gradient(f(snp.stack([c0]))[0])
    ok = snp.all(snp.isfinite(f0))
    # where f(c) is infinite, evaluate at ``safe`` (a point where the integrand was
    # finite) so that the unused branch's derivative is not nan
    node = snp.where(ok, c0, lax.stop_gradient(safe))
    vals = f(snp.stack([node + _GL2[0] * h, node + _GL2[1] * h]))
    gl = h * 0.5 * (vals[0] + vals[1])
    # sqrt(h*h) is 0 with a nan derivative at h = 0: an infinite integrand at a
    # differentiated limit gives a nan derivative, not a silent zero
    hh = snp.where(ok, 1.0, h * h)
    return snp.where(ok, gl, snp.sqrt(hh) * 0.0)


def _quad_real(func: Callable, a: Any, b: Any, args: tuple, kinds: tuple,
               epsabs: float, epsrel: float, limit: int, points: Any) -> tuple:
    kind = kinds[0]
    dtype = snp.asarray(1.0).dtype
    sg_args = lax.stop_gradient(args)
    if kind == 0:
        lo, hi = snp.asarray(a, dtype), snp.asarray(b, dtype)
        pts = lax.stop_gradient(initial_partition(lo, hi, points, dtype))
        rule = GK21
        bound = None
    else:
        pts = snp.asarray([0.0, 1.0], dtype)
        rule = GK15
        bound = None if kind == 2 else lax.stop_gradient(
            snp.asarray(a if kind == 1 else b, dtype))
    st = _looped(func, kind, limit, epsabs, epsrel, rule, dtype)(pts, bound, sg_args)
    st = lax.stop_gradient(st)
    live = snp.arange(limit) < st["last"]
    y = st["result"]
    if _closes_over_traced(func, args, dtype):
        # derivatives may come through the closure: the rule on the live partition
        # in the program itself (zero in value), as forward mode sees any tracer
        g_live = _integrand(func, args, kind, bound)
        s_live = _partition_sum(g_live, st["alist"], st["blist"], live, rule)
        y = _plus_derivative(y, s_live)
    elif sciax.tree.leaves(args):
        # only under differentiation with respect to args is the rule evaluated on
        # the final partition (a primal call costs nothing for it)
        g_of = lambda p, bd: _integrand(func, p, kind, bd)  # noqa: E731
        y = _attach_rule(g_of, rule, y, (st["alist"], st["blist"], live, bound, args))
    ends = []
    if kind in (0, -1):
        ends.append((1.0, b))
    if kind in (0, 1):
        ends.append((-1.0, a))
    # Leibniz's terms for limits that can carry derivatives (traced ones)
    ends = [(sgn, c) for sgn, c in ends if _concrete(c) is None]
    if ends:
        f_live = _integrand(func, args, 0, None)
        # the centre of the first interval: a node where the loop found f finite
        mid = 0.5 * (st["alist"][0] + st["blist"][0])
        if kind != 0:
            mid = (bound if kind != 2 else 0.0) + kind * (1.0 - mid) / mid
        for sgn, c in ends:
            y = _plus_derivative(y, sgn * _endpoint(f_live, snp.asarray(c, dtype), mid))
    per = 21 if kind == 0 else 15
    if kind == 0 and points is not None:
        neval = per * (pts.shape[0] - 1) + 2 * per * (st["last"] - (pts.shape[0] - 1))
    else:
        # QUADPACK counts both evaluations of the folded integrand on (-inf, inf)
        neval = (2 * per * st["last"] - per) * (2 if kind == 2 else 1)
    info = {"neval": neval, "last": st["last"], "alist": st["alist"],
            "blist": st["blist"], "rlist": st["rlist"], "elist": st["elist"],
            "iord": _iord(st["order"], st["last"]), "ier": st["ier"]}
    return y, st["abserr"], info


def _quad_impl(static: tuple, a: Any, b: Any, args: tuple, points: Any) -> tuple:
    func, kind, epsabs, epsrel, limit, complex_func = static
    if complex_func:
        re = lambda x, *p: snp.real(func(x, *p))  # noqa: E731
        im = lambda x, *p: snp.imag(func(x, *p))  # noqa: E731
        yr, er, ir = _quad_real(re, a, b, args, (kind,), epsabs, epsrel, limit, points)
        yi, ei, ii = _quad_real(im, a, b, args, (kind,), epsabs, epsrel, limit, points)
        return yr + 1j * yi, snp.hypot(er, ei), {"real": ir, "imag": ii}
    return _quad_real(func, a, b, args, (kind,), epsabs, epsrel, limit, points)


_quad_jit = sciax.jit(_quad_impl, static_argnums=(0,))


def _iord(ranks: Any, last: Any) -> Any:
    """QUADPACK's ``iord`` (1-based interval numbers by decreasing error) from the
    ranks; entries past ``last`` are 0."""
    n = ranks.shape[0]
    pos = snp.arange(n)
    if n > _UNROLL:
        which = snp.argmax(ranks[None, :] == pos[:, None], axis=1) + 1
    else:
        # the slot of each rank as a sum of one-hot vectors (see ``_sums``), slot
        # by slot: no n x n array (a buffer over 512 bytes, see ``_matvec``)
        which = snp.zeros(n, snp.int32)
        for i in range(n):
            which = which + snp.where(ranks[i] == pos, i + 1, 0).astype(snp.int32)
    return snp.where(pos < last, which, 0)


def _classify(a: Any, b: Any) -> tuple[int, Any, Any, float]:
    """Static range type: (kind, a, b, sign) with kind 0 finite, 1 (a, inf),
    -1 (-inf, b), 2 (-inf, inf); infinite limits must be known at trace time."""
    ca, cb = _concrete(a), _concrete(b)
    ia = ca is not None and np.isinf(ca)
    ib = cb is not None and np.isinf(cb)
    if not ia and not ib:
        return 0, a, b, 1.0
    if ia and ib:
        if ca == cb:
            raise ValueError(f"quad: both limits are {float(ca)}; an integral from an "
                             f"infinity to the same infinity is not defined")
        return 2, a, b, (1.0 if ca < cb else -1.0)
    if ib:
        return (1, a, b, 1.0) if cb > 0 else (-1, b, a, -1.0)
    return (-1, a, b, 1.0) if ca < 0 else (1, b, a, -1.0)


def quad(func: Callable, a: Any, b: Any, args: Any = (), full_output: int = 0,
         epsabs: float = 1.49e-8, epsrel: float = 1.49e-8, limit: int = 50,
         points: Any = None, weight: str | None = None, wvar: Any = None,
         wopts: Any = None, maxp1: int = 50, limlst: int = 50,
         complex_func: bool = False) -> tuple:
    """Compute a definite integral: sciax implementation of
    :func:`scipy.integrate.quad`.

    Integrates ``func(x, *args)`` from ``a`` to ``b`` (possibly infinite) by
    QUADPACK's adaptive 21-point Gauss–Kronrod bisection with Wynn's epsilon
    extrapolation (QAGS); infinite ranges are mapped onto (0, 1] and integrated
    with the 15-point rule (QAGI); ``points`` starts the bisection from a partition
    at those breakpoints (as QAGP).

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> scalar``, written in sciax.numpy; it is evaluated on many
        nodes at once through ``vmap``.
    a, b : float or 0-d array
        Limits of integration; ``-inf``/``inf`` allowed when known at trace time
        (Python floats or NumPy values).  Finite limits may be traced (``jit``,
        ``vmap``, ``grad``).
    args : tuple, optional
        Extra arguments of ``func``: any pytrees of arrays, differentiable.
    full_output : int, optional
        Non-zero: also return the ``infodict`` (and, when eager and the integration
        did not succeed, SciPy's message).
    epsabs, epsrel : float, optional
        Absolute and relative error tolerances (static).
    limit : int, optional
        Capacity of the interval store: the maximum number of subintervals.
    points : sequence of float, optional
        Breakpoints in ``(a, b)`` where the integrand is known to be irregular
        (finite ranges only).
    weight : {None, 'cos', 'sin', 'alg', 'alg-loga', 'alg-logb', 'alg-log', 'cauchy'}
        Weight function multiplying ``func``: ``cos(wvar x)``, ``sin(wvar x)``;
        ``(x-a)^α (b-x)^β`` with ``wvar = (α, β)`` (times ``log(x-a)``,
        ``log(b-x)`` or both); ``1/(x - wvar)`` (Cauchy principal value).
    wvar : float or tuple, optional
        The weight's parameters (traceable and differentiable).
    wopts, maxp1
        Accepted for compatibility; the methods below need no moment tables.
    limlst : int, optional
        Number of cycles of a Fourier integral (``'cos'``/``'sin'`` on an infinite
        range).
    complex_func : bool, optional
        Integrate a complex-valued ``func`` as real and imaginary parts.

    Returns
    -------
    y : Array
        The integral.
    abserr : Array
        An estimate of the absolute error.
    infodict : dict
        With ``full_output``: ``neval``, ``last``, ``alist``, ``blist``, ``rlist``,
        ``elist``, ``iord`` (1-based, as SciPy's) and ``ier`` (the status code).
    message : str
        With ``full_output``, eager, when ``ier != 0``: SciPy's explanation.

    Raises
    ------
    TypeError
        If ``a`` or ``b`` is not a real scalar, or ``func`` is not scalar-valued.
    ValueError
        If ``limit < 1``, the tolerances cannot be met (QUADPACK's ``ier = 6``),
        or ``points`` is used with an infinite range.

    Notes
    -----
    *Status codes* (``infodict['ier']``) are SciPy's: 0 success, 1 the limit was
    reached, 2 roundoff, 3 bad integrand behaviour, 4 no convergence of the
    extrapolation, 5 probably divergent; and 8 (sciax) the integrand returned nan
    or inf at a node (the result is nan).  When eager, a non-zero status also
    emits an :class:`IntegrationWarning`, as SciPy does.

    *Differences from SciPy*: the subinterval list is kept fully sorted instead of
    QUADPACK's partially sorted one, and the "small interval" test of the
    extrapolation uses the bisection level; ``neval`` can differ slightly.  With
    ``points`` the QAGS logic starts from the breakpoint partition.  Weights use
    simpler methods than QUADPACK's QAWO/QAWS/QAWC (same results, more
    evaluations): ``'cos'``/``'sin'`` on a finite range and the algebraic weights
    apply QAGS to the product ``func * weight`` (raise ``limit`` for
    ``|ω (b - a)|`` above a few hundred); on ``[a, inf)`` the QAWF scheme (cycles of
    length ``(2⌊|ω|⌋+1)π/|ω|`` by QAGS, Wynn extrapolation of their partial sums,
    ``infodict`` with ``lst``, ``rslst``, ``erlst``, ``ierlst``); ``'cauchy'``
    subtracts the pole, ``∫ (f(x) - f(c))/(x - c) + f(c) log|(b-c)/(a-c)|``.
    Derivatives of a Fourier integral sum the cycles' derivatives (no
    extrapolation), and with an algebraic weight a limit where the weight is
    infinite (``β < 0`` at ``b``) has a nan derivative.

    *Transformations*: ``jit`` and ``vmap`` (over ``args`` and finite limits) work.
    Under ``vmap`` the first Kronrod rule is applied to all members at once and
    the adaptive loop runs only for the members it did not decide (one at a time
    on the CPU, in groups on accelerators), each exactly as it would alone (a
    ``func`` that closes over a batched value instead batches the whole loop,
    which runs until the slowest member has converged: pass such values in
    ``args``).  ``grad``/``jvp`` with respect to ``args`` give the integral of the
    integrand's derivative by the same rule on the final partition; with respect
    to finite limits Leibniz's rule, ``f(b) db - f(a) da`` (infinite limits are
    held fixed).  The parameter derivative is not
    extrapolated: for an integrand whose derivative has an end-point singularity
    (e.g. ``d/dp x^(p-1)``) it is only as good as the partition's plain sum (about
    1% for ``p = 0.6``).  Parameters closed over by ``func`` are
    differentiable in forward mode only; pass them in ``args``.

    References
    ----------
    R. Piessens, E. de Doncker-Kapenga, C. W. Überhuber and D. K. Kahaner,
    *QUADPACK: A Subroutine Package for Automatic Integration*, Springer, 1983.

    Examples
    --------
    >>> from sciax.integrate import quad
    >>> y, err = quad(lambda x, s: snp.exp(-x**2 / (2 * s**2)), -snp.inf, snp.inf,
    ...               args=(2.0,))
    >>> print(round(float(y), 8), round(float(2.0 * np.sqrt(2 * np.pi)), 8))
    5.01325655 5.01325655
    >>> dy = sciax.grad(lambda s: quad(lambda x, s: snp.exp(-x**2 / (2 * s**2)),
    ...                                -snp.inf, snp.inf, args=(s,))[0])(2.0)
    >>> print(round(float(dy), 8), round(float(np.sqrt(2 * np.pi)), 8))
    2.50662827 2.50662827
    """
    if not callable(func):
        raise TypeError(f"quad: func must be callable; got {type(func).__name__}")
    _check_limit("a", a)
    _check_limit("b", b)
    if not isinstance(args, tuple):
        args = (args,)
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)):
        raise TypeError(f"quad: limit must be a Python int; got {limit!r}")
    if limit < 1:
        raise ValueError(f"quad: limit must be at least 1; got {limit}")
    eps = float(snp.finfo(snp.asarray(1.0).dtype).eps)
    if epsabs <= 0 and epsrel < max(50 * eps, 5e-29):
        raise ValueError(f"quad: invalid tolerances (QUADPACK ier=6): with epsabs <= "
                         f"0, epsrel must be at least {max(50 * eps, 5e-29):.3g}; got "
                         f"epsabs={epsabs}, epsrel={epsrel}")
    if weight is not None:
        known = ("cos", "sin", "alg", "alg-loga", "alg-logb", "alg-log", "cauchy")
        if weight not in known:
            raise ValueError(f"quad: unknown weight {weight!r}; expected one of "
                             f"{known} or None")
        return _weighted(func, a, b, args, full_output, epsabs, epsrel, limit, weight,
                         wvar, limlst, complex_func)
    kind, a2, b2, sign = _classify(a, b)
    if points is not None:
        if kind != 0:
            raise ValueError("quad: points can only be used with a finite range")
        npts = np.size(points) if _concrete(points) is not None else len(points)
        if limit < npts + 1:
            raise ValueError(f"quad: limit ({limit}) must exceed the number of "
                             f"points ({npts})")
    static = (func, kind, float(epsabs), float(epsrel), int(limit), bool(complex_func))
    operands = (a2, b2, args, points)
    leaves = sciax.tree.leaves(operands)
    # eager call: compile once per integrand (SciPy-style repeated calls hit the
    # cache), instead of dispatching the loop op by op
    eager = all(_concrete(x) is not None for x in leaves)
    try:
        y, err, info = (_quad_jit if eager else _quad_impl)(static, *operands)
    except TypeError as e:
        if "Reverse-mode differentiation does not work for lax.while_loop" in str(e):
            raise TypeError(
                "quad: reverse-mode differentiation with respect to a value that "
                "func closes over is not supported (it would differentiate the "
                "adaptive loop); pass the value through args=(...), which "
                "quad differentiates under the integral sign") from e
        raise
    y = sign * y
    ier_any = info["real"]["ier"] | info["imag"]["ier"] if complex_func else info["ier"]
    ier = _concrete(ier_any) if isinstance(ier_any, sciax.Array) else None
    if ier is not None and int(ier) != 0:
        msg = message(int(ier), limit)
        warnings.warn(msg, IntegrationWarning, stacklevel=2)
        if full_output:
            return y, err, info, msg
    if full_output:
        return y, err, info
    return y, err


def _weighted(func: Callable, a: Any, b: Any, args: tuple, full_output: int,
              epsabs: float, epsrel: float, limit: int, weight: str, wvar: Any,
              limlst: int, complex_func: bool) -> tuple:
    """``quad`` with a weight function: reduced to plain ``quad`` calls (see
    ``_weights``)."""

    if complex_func:
        raise NotImplementedError("quad: complex_func with a weight is not supported")
    if wvar is None:
        raise ValueError(f"quad: weight={weight!r} needs wvar")
    kind, _, _, _ = _classify(a, b)
    opts = dict(full_output=full_output, epsabs=epsabs, epsrel=epsrel, limit=limit)
    if weight in ("cos", "sin"):
        if kind == 0:
            return quad(_weights.oscillatory(func, weight), a, b,
                        args=(wvar,) + args, **opts)
        if kind == 2:
            raise ValueError("quad: cannot integrate with a 'cos'/'sin' weight from "
                             "-inf to inf; split the range")
        if epsabs <= 0:
            raise ValueError("quad: a Fourier integral (weight 'cos'/'sin' on an "
                             "infinite range) needs epsabs > 0")
        if kind == 1:
            f, lo = func, a
        else:
            s = -1.0 if weight == "sin" else 1.0
            f, lo = (lambda x, *p: s * func(-x, *p)), -snp.asarray(b)
        y, err, info = _weights.qawf(quad, f, lo, wvar, args, weight, epsabs,
                                     int(limlst), limit)
        return _finish_eager(y, err, info, full_output, limit)
    if kind != 0:
        raise ValueError(f"quad: weight={weight!r} needs a finite range")
    if weight == "cauchy":
        c = wvar
        cc, ca, cb = _concrete(c), _concrete(a), _concrete(b)
        if cc is not None and ca is not None and cb is not None and not (
                min(ca, cb) < cc < max(ca, cb)):
            raise ValueError(f"quad: the Cauchy weight's wvar ({float(cc)}) must lie "
                             f"strictly between a and b")
        out = quad(_weights.cauchy_parts(func), a, b, args=(c,) + args, points=[c],
                   **opts)
        fc = snp.asarray(func(snp.asarray(c, snp.asarray(1.0).dtype), *args))
        add = fc * snp.log(snp.abs(b - c) / snp.abs(c - a))
        return (out[0] + add,) + tuple(out[1:])
    alpha, beta = wvar
    ca, cb = _concrete(alpha), _concrete(beta)
    if (ca is not None and ca <= -1) or (cb is not None and cb <= -1):
        raise ValueError(f"quad: the algebraic weight needs wvar = (alpha, beta) with "
                         f"both > -1; got {wvar}")
    return quad(_weights.algebraic(func, weight), a, b,
                args=(a, b, alpha, beta) + args, **opts)


def _finish_eager(y: Any, err: Any, info: dict, full_output: int, limit: int) -> tuple:
    ier = _concrete(info["ier"]) if isinstance(info["ier"], sciax.Array) else None
    if ier is not None and int(ier) != 0:
        msg = message(int(ier), limit)
        warnings.warn(msg, IntegrationWarning, stacklevel=3)
        if full_output:
            return y, err, info, msg
    return (y, err, info) if full_output else (y, err)
