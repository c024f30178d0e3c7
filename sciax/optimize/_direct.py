"""Global minimisation over a box by DIRECT: ``direct``.

DIviding RECTangles (Jones, Perttunen and Stuckman 1993), and its locally
biased form DIRECT-L (Gablonsky and Kelley 2001), as SciPy runs them: the
box is scaled to the unit cube, whose centre is sampled and then trisected
along its longest sides; every iteration picks the *potentially optimal*
hyperrectangles (those on the lower-right convex hull of centre value
against size, by at least ``eps`` below the best value) and trisects them.

The algorithm follows Gablonsky's DIRECT 2.0.4 code (SciPy's C
translation) step by step, so that ``nfev``, ``nit`` and the points sampled
are the same: the same size measures (``levels``), the same order of
divisions, of the two points of a pair and of ties among equal values.
Instead of Gablonsky's linked lists of rectangles of one size, sorted by
value, every rectangle here carries its size class and an insertion key,
and a list's order is the order by ``(value, key)``: the pair insertion in
``divide`` reproduces the one insertion of the C code that is not stable.
Only each list's head is kept (updated on every insertion, found again by a
scan when the head is divided), since DIRECT chooses among heads.

The search is one ``lax.while_loop`` over iterations (an inner loop divides
the chosen rectangles one by one) over fixed-size buffers of centres, side
lengths and values, whose capacity is SciPy's (``1.5 maxfun + 1000``), so it
runs under ``jit`` and ``vmap``.  SciPy's C code evaluates one point at a
time with Python calls between; here every step is compiled, but each
division also updates buffers of the full capacity, so for a cheap function
SciPy is ~1.7x faster (Hartmann 6, 733 evaluations: ~11 ms against ~6.4 ms of
CPU on a loaded 2-core machine); the compiled loop pays off for costly
functions and under ``vmap``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import StatusCodedResult, derived_repr, register_result
from sciax.optimize._global import _cached_jit, _rebuild, _split_args
from sciax.optimize._util import Bounds

# SciPy's messages (scipy/optimize/_direct_py.py)
_ERROR_MESSAGES = (
    "Number of function evaluations done is larger than maxfun={}",
    "Number of iterations is larger than maxiter={}",
    "u[i] < l[i] for some i",
    "maxfun is too large",
    "Initialization failed",
    "There was an error in the creation of the sample points",
    "An error occurred while the function was sampled",
    "Maximum number of levels has been reached.",
    "Forced stop",
    "Invalid arguments",
    "Out of memory",
)
_SUCCESS_MESSAGES = (
    "The best function value found is within a relative error={} of the (known) "
    "global optimum f_min",
    "The volume of the hyperrectangle containing the lowest function value found "
    "is below vol_tol={}",
    "The side length measure of the hyperrectangle containing the lowest function "
    "value found is below len_tol={}",
)
# the C code's return codes that this implementation can produce
_MAXFUN, _MAXITER, _GLOBAL, _VOLTOL, _SIGMATOL = 1, 2, 3, 4, 5
_NO_ROOM, _MAXLEVELS = -4, -6
_RUNNING = 100
#: the C code's capacity of its list of rectangles to divide (``MAXDIV``)
_MAXDIV = 5000
#: DIRECT's memory cap (1 GiB) on its buffers (``MAXMEMORY``)
_MAXMEMORY = 1073741824
#: values closer than this to the best of a size class are divided with it
#: (original DIRECT, ``DIRDoubleInsert``)
_TIE = 1e-13
#: rows a scan for the new head of a class reads per step (it reads only the
#: rows in use, chunk by chunk, not the whole capacity)
_CHUNK = 256


class DirectResult(StatusCodedResult):
    """:func:`direct`'s result: ``message`` is SciPy's text for ``status``
    with the option it names; ``success`` means ``status > 2``."""

    def _succeeded(self, status):
        return status > 2

    def _message_for(self, code: int) -> str:
        vals = self["_formats"].split("|")
        if code > 2:
            return _SUCCESS_MESSAGES[code - 3].format(vals[code - 1])
        if code > 0:
            return _ERROR_MESSAGES[code - 1].format(vals[code - 1])
        return _ERROR_MESSAGES[abs(code) + 1]

    def __repr__(self) -> str:
        return derived_repr(self)

    __str__ = __repr__


register_result(DirectResult)


@dataclasses.dataclass(frozen=True)
class _Config:
    n: int
    jones: bool  # locally biased (Gablonsky's DIRECT-L): size = longest side
    cap: int  # rectangles the buffers hold (the C code's MAXFUNC - 1)
    nlev: int  # size classes tracked
    maxdeep: int  # the C code's MAXDEEP: dividing class maxdeep - 1 stops
    maxt: int  # iterations: the loop runs t = 2 .. maxt - 1
    maxf: int  # evaluation budget, checked after each iteration
    lb: tuple
    ub: tuple
    callback: Any


def _tables(n: int, nlev: int, jones: bool) -> tuple[np.ndarray, np.ndarray]:
    """``thirds[k] = 3**-k`` and ``levels[k]``, the size measure of class
    ``k``, computed as the C code does (``DIRInit``), in double precision
    (``thirds`` also covers the volume classes, up to ``nlev n``)."""
    m = nlev + 2
    thirds = np.ones(nlev * n + 2)
    h = 3.0
    for i in range(1, thirds.size):
        thirds[i] = 1.0 / h
        h *= 3.0
    if jones:  # half the longest side, in units of the box
        return thirds, thirds[:m].copy()
    # original DIRECT: half the diagonal; class k n + j has j of its n sides
    # trisected k + 1 times and the others k times
    w = np.array([np.sqrt(n - j + j / 9.0) * 0.5 for j in range(n)])
    levels = np.ones(m)
    h = 1.0
    for i in range((m + n - 1) // n):
        for j in range(n):
            if i * n + j < m:
                levels[i * n + j] = w[j] / h
        h *= 3.0
    return thirds, levels


def _level(ln, jones: bool):
    """The size class of rectangles with trisection counts ``ln`` (last axis
    the dimensions): the fewest trisections (DIRECT-L), or ``k n + p``, the
    count of sides trisected once more than the fewest ``k`` (``DIRgetlevel``)."""
    k = snp.min(ln, axis=-1)
    if jones:
        return k
    n = ln.shape[-1]
    first = ln[..., 0]
    p = snp.sum(ln == first[..., None], axis=-1)
    return snp.where(k == first, k * n + n - p, k * n + p).astype(snp.int32)


def _lexmin(mask, *keys):
    """Index of the lexicographically smallest ``keys`` among ``mask``
    (``-1`` if the mask is empty)."""
    m = mask
    for k in keys:
        big = snp.asarray(snp.inf if snp.issubdtype(k.dtype, snp.floating)
                          else np.iinfo(np.int32).max, k.dtype)
        best = snp.min(snp.where(m, k, big))
        m = m & (k == best)
    idx = snp.arange(mask.shape[0], dtype=snp.int32)
    return snp.where(snp.any(mask), snp.min(snp.where(m, idx, mask.shape[0])),
                     -1).astype(snp.int32)


def direct(func: Callable, bounds: Any, *, args: Any = (), eps: float = 1e-4,
           maxfun: int | None = None, maxiter: int = 1000,
           locally_biased: bool = True, f_min: float = -np.inf,
           f_min_rtol: float = 1e-4, vol_tol: float = 1e-16,
           len_tol: float = 1e-6, callback: Callable | None = None) -> DirectResult:
    """sciax implementation of :func:`scipy.optimize.direct`.

    Find the global minimum of a function in a box with the DIRECT
    algorithm: the box, scaled to the unit cube, is divided into ever smaller
    hyperrectangles by trisecting, in each iteration, those that are
    *potentially optimal* -- the lowest centre value for some Lipschitz
    constant, and by at least ``eps`` relative below the best value.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``, written with sciax (called once per
        point, inside the compiled loop).
    bounds : sequence of (min, max) pairs or Bounds
        The search box; every bound finite, ``min < max``.
    args : tuple, optional
        Extra arguments of ``func`` (float and array leaves are traced
        operands: new values do not recompile).
    eps : float, optional
        Minimal relative improvement over the best value that a rectangle
        must promise to be divided: smaller values make the search more local.
        A negative value ``-e`` uses Jones' update ``max(1e-4 |f_best|, e)``
        after every iteration.
    maxfun : int or None, optional
        Approximate budget of function evaluations, checked after each
        iteration (default ``1000 n``).  It also sizes the buffers of
        rectangles (``1.5 maxfun + 1000`` of them).
    maxiter : int, optional
        Maximum number of iterations.
    locally_biased : bool, optional
        ``True`` (default) runs DIRECT-L (Gablonsky): the size of a rectangle
        is its longest side and one rectangle per size is divided.
        ``False`` runs the original DIRECT: the size is the half diagonal,
        and rectangles tied in value with a chosen one are divided too.
    f_min : float, optional
        The known global minimum; the search stops when ``fun`` is within
        ``f_min_rtol`` of it (relative to ``|f_min|``, absolute if 0).
    f_min_rtol : float, optional
        Tolerance of the ``f_min`` test, in ``[0, 1]``.
    vol_tol : float, optional
        Stop when the volume of the rectangle of the best point, relative to
        the box, is at most this; in ``[0, 1]``.
    len_tol : float, optional
        Stop when the size measure of that rectangle (half its longest side,
        or half its diagonal when ``locally_biased=False``, in units of the
        box) is at most this; in ``[0, 1]``.
    callback : callable, optional
        ``callback(xk)`` after each iteration, with the best point found so
        far (a NumPy array); its return value is ignored, as in SciPy.

    Returns
    -------
    res : OptimizeResult
        ``x``, ``fun``, ``nfev``, ``nit``, ``status`` (SciPy's codes: 1
        ``maxfun``, 2 ``maxiter``, 3 ``f_min`` reached, 4 ``vol_tol``, 5
        ``len_tol``, -4 the buffers are full, -6 too many size classes or ties),
        ``success`` (``status > 2``) and ``message`` (SciPy's text).

    Raises
    ------
    ValueError
        As SciPy: bounds that are not a sequence or Bounds, not finite or not
        ordered; tolerances outside ``[0, 1]``; ``maxfun`` or ``maxiter`` not
        a non-negative int; ``locally_biased`` not a bool.
    TypeError
        ``func`` or ``callback`` not callable.

    Notes
    -----
    The divisions, their order and the tie-breaking are those of SciPy's C
    code, so on the same function the same points are sampled and ``nfev``,
    ``nit`` and ``x`` agree with SciPy's (up to the last bits of ``func`` as
    XLA evaluates it: exact ties between values decide some choices).  That
    includes a quirk of the C code: a head whose convex-hull slopes do not
    fit (no Lipschitz constant makes it optimal) is divided anyway, without
    the ``eps`` test (the ``goto`` that would skip it sits under an
    ``if (logfile)`` whose print was commented out), so more rectangles are
    divided than the textbook rule says.
    ``maxfun`` and ``maxiter`` size the compiled buffers and loops (new
    values recompile); the tolerances and ``eps`` are operands.  A ``NaN``
    value ranks as ``+inf`` (SciPy compares NaNs as its C code happens to).
    SciPy hands ``callback`` the point evaluated last rather than the best
    one its documentation promises; here it gets the best one.  Under
    ``vmap`` (over ``args``) every lane runs its own search.  The search is
    not differentiable.

    References
    ----------
    Jones DR, Perttunen CD, Stuckman BE, Lipschitzian optimization without
    the Lipschitz constant, J Optim Theory Appl 79, 157-181 (1993).
    Gablonsky JM, Kelley CT, A locally-biased form of the DIRECT algorithm,
    J Global Optim 21, 27-37 (2001).

    Examples
    --------
    The Styblinski-Tang function, with four local minima in the box:

    >>> from sciax.optimize import direct
    >>> def styblinski_tang(p):
    ...     return 0.5 * snp.sum(p ** 4 - 16 * p ** 2 + 5 * p)
    >>> res = direct(styblinski_tang, [(-4.0, 4.0)] * 2, len_tol=1e-3)
    >>> print(np.round(np.asarray(res.x), 4), round(float(res.fun), 4))
    [-2.9044 -2.9044] -78.3323
    >>> int(res.nfev), int(res.nit), res.message
    (207, 19, 'The side length measure of the hyperrectangle containing the lowest function value found is below len_tol=0.001')
    """
    if not callable(func):
        raise TypeError(f"func must be callable, got {type(func).__name__}")
    if callback is not None and not callable(callback):
        raise TypeError("callback must be callable")
    if isinstance(bounds, (list, tuple)):
        try:
            pairs = np.array([[np.nan if v is None else v for v in b] for b in bounds],
                             dtype=float).reshape(-1, 2)
        except (TypeError, ValueError):
            raise ValueError("bounds must be a sequence of (min, max) pairs") from None
        lb, ub = pairs[:, 0], pairs[:, 1]
        # None means unbounded (SciPy's old_bound_to_new)
        lb = np.where(np.isnan(lb), -np.inf, lb)
        ub = np.where(np.isnan(ub), np.inf, ub)
    elif isinstance(bounds, Bounds) or (hasattr(bounds, "lb") and hasattr(bounds, "ub")):
        lb, ub = np.broadcast_arrays(np.atleast_1d(np.asarray(bounds.lb, float)),
                                     np.atleast_1d(np.asarray(bounds.ub, float)))
    else:
        raise ValueError("bounds must be a sequence or instance of Bounds class")
    lb, ub = np.array(lb, float).ravel(), np.array(ub, float).ravel()
    if not np.all(lb < ub):
        raise ValueError("Bounds are not consistent min < max")
    if np.any(np.isinf(lb)) or np.any(np.isinf(ub)):
        raise ValueError("Bounds must not be inf.")
    n = lb.size
    if n < 1:
        raise ValueError(f"DIRECT requires at least one dimension, got {n}")
    for name, v in (("vol_tol", vol_tol), ("len_tol", len_tol),
                    ("f_min_rtol", f_min_rtol)):
        if v < 0 or v > 1:
            raise ValueError(f"{name} must be between 0 and 1.")
    if maxfun is None:
        maxfun = 1000 * n
    for name, v in (("maxfun", maxfun), ("maxiter", maxiter)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise ValueError(f"{name} must be of type int.")
        if v < 0:
            raise ValueError(f"{name} must be > 0.")
    if not isinstance(locally_biased, bool):
        raise ValueError("locally_biased must be True or False.")
    cfg = _config(n, bool(locally_biased), int(maxfun), int(maxiter),
                  lb, ub, callback)
    # the C code's conventions for disabled tests
    vol = float(vol_tol) if vol_tol > 0 else -1.0
    sig = float(len_tol) if len_tol > 0 else -1.0
    fgl, fglper = float(f_min), float(f_min_rtol)
    if fgl == -np.inf:
        fglper = 0.0
    eps = float(eps)
    epschange = eps < 0
    prm = dict(eps=np.float64(abs(eps)), epsfix=np.float64(-eps if epschange else 1e100),
               epschange=np.bool_(epschange), fglobal=np.float64(fgl),
               divfactor=np.float64(1.0 if fgl == 0 else abs(fgl)),
               fglper=np.float64(fglper), volper=np.float64(vol),
               sigmaper=np.float64(sig))
    tree, dyn_pos, dyn, statics = _split_args(args)
    run = _cached_jit(("direct", func, cfg, tree, dyn_pos, statics),
                      lambda: _runner(func, cfg, tree, dyn_pos, statics))
    res = run(dyn, prm)
    res["_formats"] = "|".join(str(v) for v in (maxfun, maxiter, f_min_rtol,
                                                vol_tol, len_tol))
    return res


def _config(n, jones, maxfun, maxiter, lb, ub, callback) -> _Config:
    """Buffer sizes and budgets as ``direct_direct_`` derives them."""
    if maxfun <= 0:
        maxfunc = 101000
    else:
        maxfunc = maxfun + 1000 + maxfun // 2
    per = n * (8 + 4) + (8 * 2 + 4)  # bytes per rectangle in the C code
    if maxfunc * per > _MAXMEMORY:
        maxfunc = _MAXMEMORY // per
    maxf = maxfunc - 1000 if maxfun <= 0 else 2 * (maxfunc - 1000) // 3
    maxdeep = maxfunc // 5 if maxiter <= 0 else maxiter + 1000
    per = 8 * 2 + 4
    if maxdeep * per + 2 * (8 + 4) > _MAXMEMORY:
        maxdeep = (_MAXMEMORY - 2 * (8 + 4)) // per
    maxt = maxdeep if maxiter <= 0 else maxdeep - 1000
    cap = maxfunc - 1
    # a rectangle of class k took >= 2 n k (DIRECT-L) or >= 2 k (DIRECT)
    # evaluations along its history: no class beyond these can occur
    bound = (cap // (2 * n) if jones else cap // 2 + n) + 2
    nlev = min(maxdeep + n + 2, bound)
    return _Config(n=n, jones=jones, cap=cap, nlev=nlev, maxdeep=maxdeep,
                   maxt=maxt, maxf=maxf, lb=tuple(lb.tolist()),
                   ub=tuple(ub.tolist()), callback=callback)


def _runner(func, cfg: _Config, tree, dyn_pos, statics):
    n, jones, cap, nlev = cfg.n, cfg.jones, cfg.cap, cfg.nlev
    thirds_np, levels_np = _tables(n, nlev, jones)
    lb, ub = np.array(cfg.lb), np.array(cfg.ub)
    c1_np = ub - lb  # DIRpreprc's scaling: x = (c + c2) * c1
    c2_np = lb / c1_np
    big = np.iinfo(np.int32).max
    # room for a whole division's block past the end, and for a last chunk
    rows = cap + 2 * n + _CHUNK

    def run(dyn, prm):
        args = _rebuild(tree, dyn_pos, statics, dyn)
        dt = snp.float64
        thirds, levels = snp.asarray(thirds_np, dt), snp.asarray(levels_np, dt)
        c1, c2 = snp.asarray(c1_np, dt), snp.asarray(c2_np, dt)
        idx = snp.arange(rows, dtype=snp.int32)
        eye = snp.eye(n, dtype=dt)
        dims = snp.arange(n, dtype=snp.int32)

        def evaluate(x):
            # DIRInfcn's scaling, rounded as the C code rounds it
            f = snp.asarray(func((x + c2) * c1, *args), dt).reshape(())
            return snp.where(snp.isnan(f), snp.inf, f)

        def flush(s):
            """Write the previous division's new rows of ``c`` and ``ln`` and
            the divided rectangle's new lengths.  A division reads ``c[p]`` and
            ``ln[p]``; were its writes computed from those reads in the same
            trip, XLA would copy both 10^4-row buffers at every division (the
            cost of a whole solve on a cheap function).  Written a trip late,
            each update's operands are loop-carried blocks."""
            c = lax.dynamic_update_slice(s["c"], s["pc"], (s["pst"], 0))
            ln = lax.dynamic_update_slice(s["ln"], s["pl"], (s["pst"], 0))
            return dict(s, c=c, ln=ln.at[s["pp"]].set(s["plnew"]))

        def divide(s, p):
            """Trisect rectangle ``p`` along its longest sides (DIRSamplepoints,
            DIRSamplef, DIRDivide, DIRInsertList)."""
            s = flush(s)
            lnp = s["ln"][p]
            k = snp.min(lnp)
            on = lnp == k
            maxi = snp.sum(on).astype(snp.int32)
            delta = thirds[k + 1]
            # the chosen dimensions first, in increasing order: pairs (+, -)
            order = snp.argsort(snp.where(on, dims, n + dims))
            cp = s["c"][p]
            d = eye[order] * delta
            blk = snp.stack([cp + d, cp - d], axis=1).reshape(2 * n, n)
            # one call per new point (2 maxi of them), in the C code's order
            fb = lax.fori_loop(0, 2 * maxi, lambda i, fb: fb.at[i].set(evaluate(blk[i])),
                               snp.full((2 * n,), snp.inf, dt))
            # the best value so far: the first new point strictly below it
            m = snp.min(fb)
            first = snp.argmin(fb).astype(snp.int32)
            better = m < s["minf"]
            # DIRDivide: sort the chosen dimensions by the better value of
            # their pair (stable), and give the pair of the j-th one the
            # lengths of the first j trisected
            w = snp.minimum(fb[1::2], fb[0::2])  # per slot of ``order``
            slot_on = snp.arange(n) < maxi
            wj = snp.where(slot_on, w, snp.inf)
            rank = snp.sum((wj[None, :] < wj[:, None]) |
                           ((wj[None, :] == wj[:, None]) &
                            (snp.arange(n)[None, :] < snp.arange(n)[:, None])), axis=1)
            rank = snp.where(slot_on, rank, n)
            # lengths of the pair of slot i: dims of slots with rank <= rank_i
            dim_rank = snp.full((n,), n, snp.int32).at[order].set(rank.astype(snp.int32))
            lpair = snp.where((dim_rank[None, :] <= rank[:, None]) & on[None, :],
                              k + 1, lnp[None, :]).astype(snp.int32)
            lblk = snp.repeat(lpair, 2, axis=0)
            start = s["cnt"]
            f = lax.dynamic_update_slice(s["f"], fb, (start,))
            # out of its list while divided (new rows are in none yet)
            L0 = s["lvl"][p]
            # (the new rows' classes are -1 already: rows are used once, in
            # order, and start at -1)
            lvl = s["lvl"].at[p].set(-1)
            key, nkey = s["key"], s["nkey"]
            heads = (s["hf"], s["hk"], s["hi"])
            lost = (L0 >= 0) & (s["hi"][snp.maximum(L0, 0)] == p)
            # (a scan of no rows when the head stays)
            new, lvl, f, key = _rehead(heads, snp.maximum(L0, 0), lvl, f, key,
                                       snp.where(lost, start, 0))
            heads = tuple(snp.where(lost, a, b) for a, b in zip(new, heads))
            lvl_pair = _level(lpair, jones)

            def insert(j, carry):
                lvl, key, nkey, heads, f = carry
                L = lvl_pair[j]
                i1, i2 = start + 2 * j, start + 2 * j + 1
                f1, f2 = f[i1], f[i2]
                fm, kmin = heads[0][L], heads[1][L]
                # the C code puts the second point before the list's head
                # when that head ties with it and the first point is better
                jump = (heads[2][L] >= 0) & (f1 < fm) & (f2 == fm)
                k2 = snp.where(jump, kmin - 1, nkey + 1)
                lvl = lvl.at[i1].set(L).at[i2].set(L)
                key = key.at[i1].set(nkey).at[i2].set(k2)
                heads = _push(_push(heads, L, f1, nkey, i1), L, f2, k2, i2)
                return lvl, key, nkey + 2, heads, f

            lvl, key, nkey, heads, f = lax.fori_loop(0, maxi, insert,
                                                     (lvl, key, nkey, heads, f))
            lnew = snp.where(on, k + 1, lnp).astype(snp.int32)
            Lp = _level(lnew, jones)
            heads = _push(heads, Lp, f[p], nkey, p)
            return dict(s, pc=blk, pl=lblk, pst=start, pp=p, plnew=lnew, f=f,
                        lvl=lvl.at[p].set(Lp),
                        key=key.at[p].set(nkey), nkey=nkey + 1, hf=heads[0],
                        hk=heads[1], hi=heads[2], cnt=start + 2 * maxi,
                        nfev=s["nfev"] + 2 * maxi,
                        minf=snp.where(better, m, s["minf"]),
                        minpos=snp.where(better, start + first, s["minpos"]))

        def _push(heads, L, fv, kv, iv):
            """Insert a rectangle in the list of class ``L``: it heads the list
            if it comes first in the ``(value, key)`` order."""
            hf, hk, hi = heads
            first = (fv < hf[L]) | ((fv == hf[L]) & (kv < hk[L]))
            return (hf.at[L].set(snp.where(first, fv, hf[L])),
                    hk.at[L].set(snp.where(first, kv, hk[L])),
                    hi.at[L].set(snp.where(first, iv, hi[L])))

        def _rehead(heads, L, lvl, f, key, cnt):
            """The new head of class ``L`` after its head left it: the first
            member in the ``(value, key)`` order, among the ``cnt`` rows in
            use (read ``_CHUNK`` rows at a time).  The buffers ride through
            the loop and come back, so that XLA need not copy them."""
            hf, hk, hi = heads
            at = snp.arange(_CHUNK, dtype=snp.int32)

            def chunk(c):
                pos, bf, bk, bi, lvl, f, key = c
                lv = lax.dynamic_slice(lvl, (pos,), (_CHUNK,))
                fv = lax.dynamic_slice(f, (pos,), (_CHUNK,))
                kv = lax.dynamic_slice(key, (pos,), (_CHUNK,))
                member = (lv == L) & (pos + at < cnt)
                fm = snp.min(snp.where(member, fv, snp.inf))
                top = member & (fv == fm)
                km = snp.min(snp.where(top, kv, big))
                im = pos + snp.min(snp.where(top & (kv == km), at, _CHUNK))
                some = snp.any(top)
                first = some & ((fm < bf) | ((fm == bf) & (km < bk)) | (bi < 0))
                return (pos + _CHUNK, snp.where(first, fm, bf),
                        snp.where(first, km, bk), snp.where(first, im, bi), lvl, f, key)

            _, fm, km, im, lvl, f, key = lax.while_loop(
                lambda c: c[0] < cnt, chunk,
                (snp.int32(0), snp.asarray(snp.inf, dt), snp.int32(big), snp.int32(-1),
                 lvl, f, key))
            return (hf.at[L].set(fm), hk.at[L].set(km), hi.at[L].set(im)), lvl, f, key

        def choose(s):
            """DIRChoose (and DIRDoubleInsert): the rectangles to divide,
            as a mask and a division order."""
            anchor = s["hi"][:nlev]
            active = anchor >= 0
            fa = s["hf"][:nlev]
            dl = levels[:nlev]
            lev = snp.arange(nlev, dtype=snp.int32)
            minf = s["minf"]
            thresh = snp.minimum(minf - s["eps"] * snp.abs(minf), minf)

            def step(cr):
                prev, surv = cr
                j = snp.max(snp.where(active & (lev < prev), lev, -1))
                slope = (fa - fa[j]) / (dl - dl[j])
                ok = ~snp.isnan(slope)
                lower = active & (lev < j)
                upper = surv & (lev > j)
                bad = snp.any((lower | upper) & (slope <= 0))
                hl = snp.min(snp.where(lower & ok, slope, snp.inf))
                hg = snp.maximum(0.0, snp.max(snp.where(upper & ok, slope, -snp.inf)))
                # SciPy's C code keeps a rectangle whose hull slopes do not
                # fit (hg > hl): the ``goto`` that drops it there is under an
                # ``if (logfile)`` whose print was commented out
                keep = ~bad & ~((hg <= hl) & (fa[j] - hl * dl[j] > thresh))
                return j, surv.at[j].set(keep)

            _, surv = lax.while_loop(
                lambda cr: snp.any(active & (lev < cr[0])), step,
                (snp.int32(nlev), snp.zeros((nlev,), bool)))
            nlist = snp.sum(active)
            if jones:  # no ties to divide: a dummy mask
                return surv, anchor, snp.zeros((1,), bool), snp.bool_(False)
            # the original DIRECT also divides the ties of a chosen head
            member = s["lvl"] >= 0
            L = snp.where(member, s["lvl"], nlev)
            sL = snp.concatenate([surv, snp.zeros((1,), bool)])
            fL = snp.concatenate([fa, snp.zeros((1,), dt)])
            tie = member & sL[L] & (idx != s["hi"][L]) & (s["f"] - fL[L] <= _TIE)
            return surv, anchor, tie, nlist + snp.sum(tie) > _MAXDIV

        def iteration(s):
            """One pass of the main loop: choose, divide, test.  The pass with
            ``t == 1`` is DIRInit's division of the centre, without tests."""
            init = s["t"] == 1
            surv, anchor, tie, over = choose(s)
            lev = snp.arange(nlev, dtype=snp.int32)
            # DIRInit divides the centre, in no list yet
            surv = snp.where(init, lev == 0, surv)
            anchor = snp.where(init, 0, anchor)
            over = over & ~init

            def pick(s, surv, tie):
                """The next rectangle: the chosen heads by class, then the
                ties (class, value, key); whether dividing it must stop the
                search (too deep, or no room)."""
                heads_left = snp.any(surv)
                L = snp.minimum(snp.min(snp.where(surv, lev, nlev)), nlev - 1)
                q = (snp.int32(0) if jones  # no ties in DIRECT-L
                     else _lexmin(tie, s["lvl"], s["f"], s["key"]))
                p = snp.where(heads_left, anchor[L], q)
                Lp = snp.where(heads_left, L, s["lvl"][snp.maximum(q, 0)])
                deep = Lp + 1 >= cfg.maxdeep
                full = s["cnt"] + 2 * snp.sum(s["ln"][p] == snp.min(s["ln"][p])) > cap
                code = snp.where(deep, _MAXLEVELS, snp.where(full, _NO_ROOM, _RUNNING))
                return heads_left, L, p, code.astype(snp.int32)

            # the stop tests run in the loop's condition, so that the body
            # (and the large buffers it updates in place) is unconditional
            def div_cond(cr):
                s, surv, tie = cr
                left = snp.any(surv) | snp.any(tie)
                return left & (s["status"] == _RUNNING) & (pick(s, surv, tie)[3]
                                                           == _RUNNING)

            def div_body(cr):
                s, surv, tie = cr
                heads_left, L, p, _ = pick(s, surv, tie)
                s = divide(s, p)
                surv = snp.where(heads_left, surv.at[L].set(False), surv)
                if not jones:
                    tie = snp.where(heads_left, tie, tie.at[p].set(False))
                return s, surv, tie

            s = dict(s, status=snp.where(over, _MAXLEVELS, s["status"]).astype(
                snp.int32))
            s, surv, tie = lax.while_loop(div_cond, div_body, (s, surv, tie))
            s = flush(s)
            left = (snp.any(surv) | snp.any(tie)) & (s["status"] == _RUNNING)
            s["status"] = snp.where(left, pick(s, surv, tie)[3], s["status"])
            mp = s["minpos"]
            lnm = s["ln"][mp]
            code = s["status"]
            run_ = (code == _RUNNING) & ~init
            code = snp.where(run_ & (thirds[snp.minimum(_level(lnm, False),
                                                        thirds.shape[0] - 1)]
                                     <= prm["volper"]), _VOLTOL, code)
            run_ = (code == _RUNNING) & ~init
            code = snp.where(run_ & (levels[snp.minimum(_level(lnm, jones), nlev + 1)]
                                     <= prm["sigmaper"]), _SIGMATOL, code)
            run_ = (code == _RUNNING) & ~init
            code = snp.where(run_ & ((s["minf"] - prm["fglobal"]) / prm["divfactor"]
                                     <= prm["fglper"]), _GLOBAL, code)
            run_ = (code == _RUNNING) & ~init
            eps = snp.where(run_ & prm["epschange"],
                            snp.maximum(snp.abs(s["minf"]) * 1e-4, prm["epsfix"]),
                            s["eps"])
            code = snp.where(run_ & (s["nfev"] > cfg.maxf), _MAXFUN, code)
            run_ = (code == _RUNNING) & ~init
            if cfg.callback is not None:
                cb = cfg.callback
                sciax.debug.callback(
                    lambda x, go: cb(np.array(x)) if bool(go) else None,
                    s["c"][mp] * c1 + c1 * c2, run_)
            go = (code == _RUNNING)
            t = snp.where(go, s["t"] + 1, s["t"])
            code = snp.where(go & (t > cfg.maxt - 1), _MAXITER, code)
            return dict(s, status=code.astype(snp.int32), t=t, eps=eps)

        centre = snp.full((n,), 0.5, dt)
        f0 = evaluate(centre)
        s = dict(c=snp.zeros((rows, n), dt).at[0].set(centre),
                 ln=snp.zeros((rows, n), snp.int32),
                 f=snp.full((rows,), snp.inf, dt).at[0].set(f0),
                 lvl=snp.full((rows,), -1, snp.int32),
                 key=snp.zeros((rows,), snp.int32),
                 hf=snp.full((nlev,), snp.inf, dt), hk=snp.full((nlev,), big, snp.int32),
                 hi=snp.full((nlev,), -1, snp.int32),
                 # the pending writes (flush): zeros into free rows at first
                 pc=snp.zeros((2 * n, n), dt), pl=snp.zeros((2 * n, n), snp.int32),
                 pst=snp.int32(1), pp=snp.int32(0), plnew=snp.zeros((n,), snp.int32),
                 cnt=snp.int32(1), nkey=snp.int32(0), nfev=snp.int32(1),
                 minf=f0, minpos=snp.int32(0), t=snp.int32(1),
                 eps=snp.asarray(prm["eps"], dt), status=snp.int32(_RUNNING))
        s = lax.while_loop(lambda s: s["status"] == _RUNNING, iteration, s)
        mp = s["minpos"]
        return DirectResult(x=s["c"][mp] * c1 + c1 * c2, fun=s["minf"],
                            status=s["status"], nfev=s["nfev"], nit=s["t"])

    return run
