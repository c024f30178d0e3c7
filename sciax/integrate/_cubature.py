"""Adaptive cubature over a box: :func:`scipy.integrate.cubature`'s front door.

The region with the largest error is split into its ``2**ndim`` halves, each
estimated by a nested rule (a product of Gauss-Kronrod rules, or Genz-Malik's
degree-7/5 pair), until the summed error meets ``atol + rtol * |estimate|``.
The regions live in arrays of fixed capacity carried by one
``lax.while_loop``; every subdivision evaluates the integrand once, on the
nodes of all ``2**ndim`` halves stacked.  The estimate's derivative with
respect to ``args`` is the same rule applied to the derivative of the
integrand over the final regions (a custom JVP), so ``grad`` works without
differentiating through the loop.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.integrate._qelg import GK15, GK21
from sciax.integrate._quadpack import _plus_derivative

_CONVERGED, _NOT_CONVERGED = 0, 1
_STATUS = ("converged", "not_converged")


# --- rules: nodes on [-1, 1]^n, the higher rule's weights, and higher - lower -------

def _product_rule(base) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x, wk, wg = base
    return x, wk, wk - wg


def _rule_tables(rule: str, ndim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(nodes (m, ndim), weights (m,), error weights (m,))`` on [-1, 1]^ndim;
    the lower rule's nodes are a subset of the higher one's, so one evaluation
    of the integrand serves both (SciPy evaluates the two node sets apart)."""
    if rule == "genz-malik":
        if ndim < 2:
            raise ValueError("the Genz-Malik rule needs at least 2 dimensions")
        return _genz_malik(ndim)
    bases = {"gk21": GK21, "gauss-kronrod": GK21, "gk15": GK15}
    if rule not in bases:
        raise ValueError(f"unknown rule {rule!r}: expected 'gk21', 'gk15', "
                         "'gauss-kronrod' or 'genz-malik'")
    x, wk, wd = _product_rule(bases[rule])
    nodes = np.array(list(itertools.product(x, repeat=ndim)), float).reshape(-1, ndim)
    w = np.prod(np.array(list(itertools.product(wk, repeat=ndim))).reshape(-1, ndim), 1)
    wg = np.prod(np.array(list(itertools.product(wk - wd, repeat=ndim))).reshape(
        -1, ndim), 1)
    return nodes, w, w - wg


def _genz_malik(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # Genz & Malik (1980): a degree-7 rule with an embedded degree-5 rule on
    # [-1, 1]^n (weights here for that cube's volume 2^n)
    l2, l3, l4, l5 = (math.sqrt(9 / 70), math.sqrt(9 / 10), math.sqrt(9 / 10),
                      math.sqrt(9 / 19))
    pts, w7 = [np.zeros(n)], [(12824 - 9120 * n + 400 * n * n) / 19683]
    w5 = [(729 - 950 * n + 50 * n * n) / 729]
    for lam, a7, a5 in ((l2, 980 / 6561, 245 / 486),
                        (l3, (1820 - 400 * n) / 19683, (265 - 100 * n) / 1458)):
        for i in range(n):
            for s in (1.0, -1.0):
                p = np.zeros(n)
                p[i] = s * lam
                pts.append(p)
                w7.append(a7)
                w5.append(a5)
    for i, j in itertools.combinations(range(n), 2):
        for si, sj in itertools.product((1.0, -1.0), repeat=2):
            p = np.zeros(n)
            p[i], p[j] = si * l4, sj * l4
            pts.append(p)
            w7.append(200 / 19683)
            w5.append(25 / 729)
    for signs in itertools.product((1.0, -1.0), repeat=n):
        pts.append(l5 * np.array(signs))
        w7.append(6859 / 19683 / 2 ** n)
        w5.append(0.0)
    scale = 2.0 ** n
    w7, w5 = np.array(w7) * scale, np.array(w5) * scale
    return np.array(pts), w7, w7 - w5


# --- infinite limits -------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Infinite:
    """``f`` composed with the maps of its infinite coordinates onto finite
    ones, times their Jacobian: ``(-inf, inf)`` by ``x = (1 - |t|) / t`` on
    ``(-1, 1)``, ``[a, inf)`` by ``x = a + (1 - t) / t`` and ``(-inf, b]`` by
    ``x = b - (1 - t) / t`` on ``(0, 1]``.  Hashable (by ``f`` and the maps),
    so the compiled program is reused."""

    f: Callable
    both: tuple
    half: tuple
    base: tuple
    sgn: tuple

    def __call__(self, t, *args):
        both, half = np.array(self.both), np.array(self.half)
        base, sgn = np.array(self.base), np.array(self.sgn)
        x = snp.where(both, (1.0 - snp.abs(t)) / t,
                      snp.where(half, base + sgn * (1.0 - t) / t, t))
        jac = snp.prod(snp.where(both | half, 1.0 / (t * t), 1.0), axis=-1)
        fx = self.f(x, *args)
        return fx * snp.reshape(jac, (-1,) + (1,) * (snp.ndim(fx) - 1))

    def inverse(self, x):
        both, half = np.array(self.both), np.array(self.half)
        base, sgn = np.array(self.base), np.array(self.sgn)
        with np.errstate(divide="ignore"):
            t_both = np.where(x == 0, np.inf, 1.0 / (x + np.sign(x)))
            t_half = 1.0 / (sgn * (x - base) + 1.0)
        return np.where(both, t_both, np.where(half, t_half, x))


def _transform(f, a: np.ndarray, b: np.ndarray):
    """``(f, a, b, points)`` with infinite limits mapped onto finite ones."""
    both = np.isneginf(a) & np.isposinf(b)
    up = np.isfinite(a) & np.isposinf(b)
    down = np.isneginf(a) & np.isfinite(b)
    if not (both | up | down).any():
        return f, a, b, None
    half = up | down
    tr = _Infinite(f, tuple(both.tolist()), tuple(half.tolist()),
                   tuple(np.where(up, a, np.where(down, b, 0.0)).tolist()),
                   tuple(np.where(down, -1.0, 1.0).tolist()))
    ta = np.where(both, -1.0, np.where(half, 0.0, a))
    tb = np.where(both | half, 1.0, b)
    return tr, ta, tb, tr


def _split_at_points(a: np.ndarray, b: np.ndarray, points) -> list:
    """The boxes that ``points`` (each strictly inside a box) cut ``[a, b]``
    into, degenerate pieces dropped (SciPy's ``points`` rule)."""
    boxes = [(a, b)]
    for p in points:
        p = np.asarray(p, float).reshape(-1)
        if not np.all(np.isfinite(p)):
            continue
        new = []
        for lo, hi in boxes:
            inside = (np.all(lo <= p) and np.all(p <= hi)
                      and not (np.all(p == lo) or np.all(p == hi)))
            if not inside:
                new.append((lo, hi))
                continue
            for corner in itertools.product((0, 1), repeat=lo.size):
                c = np.array(corner, bool)
                sl, sh = np.where(c, p, lo), np.where(c, hi, p)
                if np.all(sl < sh):
                    new.append((sl, sh))
        boxes = new
    return boxes


# --- result ----------------------------------------------------------------------------

@dataclasses.dataclass
class CubatureRegion:
    """One box of the final subdivision: its estimate, error and corners."""

    estimate: Any
    error: Any
    a: Any
    b: Any


@sciax.tree.register_dataclass
@dataclasses.dataclass
class CubatureResult:
    """Result of :func:`cubature` (a pytree): ``estimate``, ``error``,
    ``status`` (``'converged'`` or ``'not_converged'``), ``subdivisions``,
    ``atol``, ``rtol`` and ``regions`` (eagerly, a list of
    :class:`CubatureRegion`, as SciPy's)."""

    estimate: Any
    error: Any
    subdivisions: Any
    atol: Any
    rtol: Any
    _code: Any
    _a: Any
    _b: Any
    _est: Any
    _err: Any
    _count: Any

    @property
    def status(self) -> Any:
        code = np.asarray(self._code)
        if code.ndim == 0:
            return _STATUS[int(code)]
        return np.array([_STATUS[int(c)] for c in code.ravel()]).reshape(code.shape)

    @property
    def regions(self) -> list:
        live = np.flatnonzero(np.asarray(self._count))
        return [CubatureRegion(self._est[i], self._err[i], self._a[i], self._b[i])
                for i in live]

    def __repr__(self) -> str:
        return (f"CubatureResult(estimate={self.estimate!r}, error={self.error!r}, "
                f"status={self.status!r}, subdivisions={self.subdivisions!r}, "
                f"atol={self.atol!r}, rtol={self.rtol!r})")


# --- the solver ------------------------------------------------------------------------

def cubature(f: Callable, a: Any, b: Any, *, rule: str = "gk21", rtol: float = 1e-8,
             atol: float = 0.0, max_subdivisions: int = 10000, args: tuple = (),
             workers: Any = 1, points: Any = None) -> CubatureResult:
    """sciax implementation of :func:`scipy.integrate.cubature`.

    Adaptive cubature of a vectorised integrand over a box: the region with
    the largest error estimate is split into its ``2**ndim`` halves until the
    summed error is at most ``atol + rtol * |estimate|`` in every output
    component.

    Parameters
    ----------
    f : callable
        ``f(x, *args) -> array`` for ``x`` of shape ``(npoints, ndim)``,
        returning ``(npoints, *output_shape)``, written with sciax.
    a, b : array_like
        Lower and upper limits (1-D, length ``ndim``); infinite limits are
        mapped onto finite ones, ``a_i > b_i`` flips the sign.
    rule : {'gk21', 'gk15', 'gauss-kronrod', 'genz-malik'}, optional
        Product Gauss-Kronrod rules of 21 or 15 points per dimension (the error
        is the difference from the embedded Gauss rule), or the Genz-Malik
        degree-7 rule with its degree-5 rule (``ndim >= 2``; far fewer nodes in
        high dimension).
    rtol, atol : float, optional
        Relative and absolute tolerances.
    max_subdivisions : int, optional
        Most subdivisions; reaching it gives ``status='not_converged'`` (as
        SciPy, even when the last one met the tolerance).
    args : tuple, optional
        Extra arguments of ``f``; the estimate is differentiable in them.
    workers : optional
        Accepted for SciPy's signature; the halves are evaluated in one
        vectorised call instead.
    points : list of array_like, optional
        Points where ``f`` is singular or discontinuous; the initial box is cut
        through each so that none lies inside a region.  Must be concrete.

    Returns
    -------
    res : CubatureResult
        ``estimate``, ``error``, ``status``, ``subdivisions``, ``atol``,
        ``rtol`` and ``regions``.

    Raises
    ------
    ValueError
        ``a``/``b`` empty, not 1-D or of different lengths; an unknown rule;
        Genz-Malik in one dimension; ``max_subdivisions < 0``.

    Notes
    -----
    The regions are held in arrays sized for ``max_subdivisions``
    subdivisions (``1 + max_subdivisions * (2**ndim - 1)`` boxes), which the
    compiled loop carries; lower ``max_subdivisions`` for large ``ndim``.  The
    limits must be concrete where they are infinite (their finiteness picks
    the transformation).  Under ``vmap`` each lane refines its own regions.
    SciPy 1.17 maps a limit ``(-inf, b]`` onto ``[-b, inf)`` without
    reflecting the integrand; this implementation integrates over
    ``(-inf, b]``.

    Examples
    --------
    A Gaussian over the plane, and a vector of integrals at once:

    >>> from sciax.integrate import cubature
    >>> g = lambda x: snp.exp(-snp.sum(x * x, axis=-1))
    >>> res = cubature(g, [-np.inf, -np.inf], [np.inf, np.inf])
    >>> res.status, round(float(res.estimate), 10), round(np.pi, 10)
    ('converged', 3.1415926536, 3.1415926536)
    >>> h = lambda x, n: x[:, :1] ** n  # x**n on [0, 1], n = 1, 2, 3
    >>> res = cubature(h, [0.0], [1.0], args=(snp.array([1.0, 2.0, 3.0]),))
    >>> np.round(np.asarray(res.estimate), 12)
    array([0.5       , 0.33333333, 0.25      ])
    """
    if not callable(f):
        raise TypeError(f"f must be callable, got {type(f).__name__}")
    max_subdivisions = int(max_subdivisions)
    if max_subdivisions < 0:
        raise ValueError(f"max_subdivisions must be non-negative, got {max_subdivisions}")
    a_arr, b_arr = snp.asarray(a), snp.asarray(b)
    if a_arr.size == 0 or b_arr.size == 0:
        raise ValueError("`a` and `b` must be nonempty")
    if a_arr.ndim != 1 or b_arr.ndim != 1:
        raise ValueError("`a` and `b` must be 1D arrays")
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"`a` and `b` must have the same length, got {a_arr.shape[0]} "
                         f"and {b_arr.shape[0]}")
    ndim = a_arr.shape[0]
    nodes, w, wd = _rule_tables(rule, ndim)
    dtype = snp.result_type(a_arr, b_arr, 1.0)
    if not isinstance(args, tuple):
        args = (args,)
    try:
        a_np, b_np = np.asarray(a_arr, float), np.asarray(b_arr, float)
    except Exception:  # traced limits: taken as finite
        a_np = b_np = None
    sign = snp.prod(snp.where(a_arr > b_arr, -1.0, 1.0)).astype(dtype)
    pts = [np.asarray(p, float).reshape(-1) for p in (points or [])]
    if a_np is not None:
        g, lo_np, hi_np, tr = _transform(f, np.minimum(a_np, b_np), np.maximum(a_np, b_np))
        if tr is not None:
            pts = [tr.inverse(p) for p in pts]
            if any(tr.both):
                pts.append(np.zeros(ndim))
        boxes = _split_at_points(lo_np, hi_np, pts)
        lo0 = snp.asarray(np.array([bx[0] for bx in boxes]), dtype)
        hi0 = snp.asarray(np.array([bx[1] for bx in boxes]), dtype)
    else:
        if pts:
            raise ValueError("cubature: points need concrete limits")
        g = f
        lo0 = snp.minimum(a_arr, b_arr).astype(dtype)[None]
        hi0 = snp.maximum(a_arr, b_arr).astype(dtype)[None]
    est, err, sub, code, ra, rb, re, rr, count = _run(
        lo0, hi0, args, snp.asarray(nodes, dtype), snp.asarray(w, dtype),
        snp.asarray(wd, dtype), snp.asarray(rtol, dtype), snp.asarray(atol, dtype),
        g=g, max_sub=max_subdivisions)
    return CubatureResult(estimate=sign * est, error=err, subdivisions=sub,
                          atol=atol, rtol=rtol, _code=code, _a=ra, _b=rb, _est=re,
                          _err=rr, _count=count)


def _apply(g, lo, hi, args, nodes, w, wd):
    """Estimates and errors of the boxes ``[lo_k, hi_k]`` (stacked), from one
    evaluation of ``g`` on all their nodes."""
    k, ndim = lo.shape
    half = (hi - lo) * 0.5
    x = (nodes[None, :, :] + 1.0) * half[:, None, :] + lo[:, None, :]
    fx = snp.asarray(g(snp.reshape(x, (-1, ndim)), *args))
    fx = snp.reshape(fx, (k, nodes.shape[0]) + fx.shape[1:])
    scale = snp.prod(half, axis=1)
    extra = (1,) * (fx.ndim - 2)
    est = snp.sum(fx * snp.reshape(w, (1, -1) + extra), axis=1)
    dif = snp.sum(fx * snp.reshape(wd, (1, -1) + extra), axis=1)
    s = snp.reshape(scale, (-1,) + extra)
    return est * s, snp.abs(dif * s)


def _adaptive(lo0, hi0, args, nodes, w, wd, rtol, atol, *, g, max_sub):
    """The subdivision loop (on ``stop_gradient(args)``), and the estimate's
    derivatives in ``args``: the rule applied to ``g``'s over the final
    regions, a loop-free sum that reverse mode can transpose."""
    k0, ndim = lo0.shape
    nsub = 2 ** ndim
    # capacity in whole blocks; the block maxima of the regions' errors make
    # picking the worst region O(blocks + block) instead of O(capacity)
    blk = 1024
    cap = -(-(k0 + max_sub * nsub) // blk) * blk
    nblk = cap // blk
    corners = np.array(list(itertools.product((0, 1), repeat=ndim)), bool)
    sg_args = lax.stop_gradient(args)
    e0, r0 = _apply(g, lo0, hi0, sg_args, nodes, w, wd)
    out_shape = e0.shape[1:]
    A = snp.zeros((cap, ndim), lo0.dtype).at[:k0].set(lo0)
    B = snp.zeros((cap, ndim), lo0.dtype).at[:k0].set(hi0)
    E = snp.zeros((cap,) + out_shape, e0.dtype).at[:k0].set(e0)
    R = snp.zeros((cap,) + out_shape, r0.dtype).at[:k0].set(r0)
    W = snp.full((cap,), -snp.inf, r0.dtype).at[:k0].set(
        snp.max(snp.reshape(r0, (k0, -1)), axis=1))
    M = snp.max(snp.reshape(W, (nblk, blk)), axis=1)

    def unmet(s):
        return snp.any(s["err"] > atol + rtol * snp.abs(s["est"]))

    def block_max(W, D, k):
        w_k = lax.dynamic_slice(W, (k * blk,), (blk,))
        return snp.where(lax.dynamic_slice(D, (k * blk,), (blk,)), -snp.inf, w_k)

    def flush(s):
        # write the previous trip's halves: loop-carried small arrays, so each
        # update fuses with nothing but its own array and stays in place (a
        # copy of all four arrays every trip, when the new rows were computed
        # from reads of the other arrays in the same trip)
        m, p = s["count"], s["pend"]

        def put(arr, new):
            return lax.dynamic_update_slice(arr, new, (m,) + (0,) * (arr.ndim - 1))

        W = put(s["W"], p["w"])
        D = lax.dynamic_update_slice(s["D"], p["dead"][None], (p["i"],))
        M = s["M"]
        for slot in (p["i"], m, m + nsub - 1):  # the blocks that changed
            k = slot // blk
            M = lax.dynamic_update_slice(M, snp.max(block_max(W, D, k))[None], (k,))
        return dict(s, A=put(s["A"], p["lo"]), B=put(s["B"], p["hi"]),
                    E=put(s["E"], p["e"]), R=put(s["R"], p["r"]), W=W, D=D, M=M,
                    count=m + snp.where(p["dead"], nsub, 0).astype(snp.int32))

    def body(s):
        s = flush(s)
        b = snp.argmax(s["M"])
        i = b * blk + snp.argmax(block_max(s["W"], s["D"], b))
        row = lambda arr: lax.dynamic_index_in_dim(arr, i, keepdims=False)  # noqa: E731
        a_i, b_i = row(s["A"]), row(s["B"])
        mid = (a_i + b_i) * 0.5
        sub_lo = snp.where(corners, mid, a_i)
        sub_hi = snp.where(corners, b_i, mid)
        es, rs = _apply(g, sub_lo, sub_hi, sg_args, nodes, w, wd)
        est = s["est"] - row(s["E"]) + snp.sum(es, axis=0)
        err = s["err"] - row(s["R"]) + snp.sum(rs, axis=0)
        sub = s["sub"] + 1
        # the halves are appended and the split box is marked dead (one slice
        # update per array: two updates of one array also made XLA copy it)
        pend = dict(lo=sub_lo, hi=sub_hi, e=es, r=rs,
                    w=snp.max(snp.reshape(rs, (nsub, -1)), axis=1), i=i.astype(snp.int32),
                    dead=snp.bool_(True))
        return dict(s, est=est, err=err, sub=sub, stop=sub >= max_sub, pend=pend)

    pend0 = dict(lo=snp.zeros((nsub, ndim), lo0.dtype), hi=snp.zeros((nsub, ndim), lo0.dtype),
                 e=snp.zeros((nsub,) + out_shape, e0.dtype),
                 r=snp.zeros((nsub,) + out_shape, r0.dtype),
                 w=snp.full((nsub,), -snp.inf, r0.dtype), i=snp.int32(0),
                 dead=snp.bool_(False))
    s = dict(A=A, B=B, E=E, R=R, W=W, D=snp.zeros((cap,), bool), M=M,
             count=snp.int32(k0), est=snp.sum(e0, axis=0), err=snp.sum(r0, axis=0),
             sub=snp.int32(0), stop=snp.bool_(max_sub == 0), pend=pend0)
    s = flush(lax.while_loop(lambda s: unmet(s) & ~s["stop"], body, s))
    # SciPy: reaching max_subdivisions is failure even if that step converged
    code = snp.where(s["stop"] & (s["sub"] > 0) | unmet(s), _NOT_CONVERGED,
                     _CONVERGED).astype(snp.int32)
    live = (snp.arange(cap) < s["count"]) & ~s["D"]
    est = _plus_derivative(s["est"], _final_sum(g, s["A"], s["B"], s["count"], live,
                                                args, nodes, w, wd))
    return est, s["err"], s["sub"], code, s["A"], s["B"], s["E"], s["R"], live


# one compiled program per integrand, rule size and capacity (a primal call
# then drops the derivative sum, which eager evaluation would compute)
_run = sciax.jit(_adaptive, static_argnames=("g", "max_sub"))


def _traced_one(v):
    """A 1 of ``v``'s dtype that XLA cannot fold: ``v / v`` where that is 1."""
    r = v / v
    return snp.where(r == 1.0, r, snp.ones_like(r))


def _final_sum(g, A, B, count, alive, args, nodes, w, wd):
    """The rule's estimate over the first ``count`` regions (only derivatives
    use it: a primal program drops it).  Regions go in chunks of about 2**16
    nodes, the chunks in groups of up to 64; a group or a chunk wholly past
    ``count`` is skipped by a ``cond``, so a large capacity costs little."""
    cap = A.shape[0]
    chunk = max(1, min(cap, (1 << 16) // nodes.shape[0]))
    nchunks = -(-cap // chunk)
    inner = min(64, nchunks)
    outer = -(-nchunks // inner)
    total = outer * inner * chunk
    A, B = (snp.concatenate([lax.stop_gradient(v), snp.zeros((total - cap, v.shape[1]),
                                                             v.dtype)])
            for v in (A, B))
    A = snp.reshape(A, (outer, inner, chunk, -1))
    B = snp.reshape(B, (outer, inner, chunk, -1))
    live = snp.concatenate([alive, snp.zeros((total - cap,), bool)]).reshape(
        outer, inner, chunk)
    started = snp.arange(total).reshape(outer, inner, chunk) < count

    def one(acc, blk):
        lo, hi, ok, used = blk

        def add(acc):
            # dead boxes of a live chunk become [0, 1]^n, then weigh nothing
            e, _ = _apply(g, snp.where(ok[:, None], lo, 0.0),
                          snp.where(ok[:, None], hi, 1.0), args, nodes, w, wd)
            e = snp.where(snp.reshape(ok, (-1,) + (1,) * (e.ndim - 1)), e, 0.0)
            return acc + snp.sum(e, axis=0)

        return lax.cond(used[0], add, lambda acc: acc, acc), None

    # rematerialised: reverse mode keeps each chunk's inputs, not its nodes
    one = sciax.checkpoint(one)

    def group(acc, blk):
        return lax.cond(blk[3][0, 0], lambda acc: lax.scan(one, acc, blk)[0],
                        lambda acc: acc, acc), None

    e1, _ = _apply(g, A[0, 0, :1], B[0, 0, :1] + 1.0, lax.stop_gradient(args), nodes, w,
                   wd)
    acc, _ = lax.scan(group, snp.zeros(e1.shape[1:], e1.dtype), (A, B, live, started))
    return acc
