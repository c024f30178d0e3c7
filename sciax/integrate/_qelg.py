"""Gauss–Kronrod rules and Wynn's epsilon algorithm, the two kernels of QUADPACK's
adaptive integrators (Piessens, de Doncker-Kapenga, Überhuber and Kahaner, 1983).

Both are written as plain array code so that they run inside ``lax.while_loop``
and batch under ``vmap``: the epsilon table is a fixed array of 52 entries and
its update loop a ``lax.while_loop`` with at most 25 steps.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax.numpy as snp
from sciax import lax

# Kronrod nodes on [0, 1] (the rules are symmetric), Kronrod weights for those nodes,
# and the Gauss weights of the embedded rule (the Gauss nodes are every other
# Kronrod node, starting at index 1).  Values as tabulated in QUADPACK (dqk15, dqk21).
_XGK21 = np.array([
    0.995657163025808080735527280689003, 0.973906528517171720077964012084452,
    0.930157491355708226001207180059508, 0.865063366688984510732096688423493,
    0.780817726586416897063717578345042, 0.679409568299024406234327365114874,
    0.562757134668604683339000099272694, 0.433395394129247190799265943165784,
    0.294392862701460198131126603103866, 0.148874338981631210884826001129720, 0.0])
_WGK21 = np.array([
    0.011694638867371874278064396062192, 0.032558162307964727478818972459390,
    0.054755896574351996031381300244580, 0.075039674810919952767043140916190,
    0.093125454583697605535065465083366, 0.109387158802297641899210590325805,
    0.123491976262065851077958109831074, 0.134709217311473325928054001771707,
    0.142775938577060080797094273138717, 0.147739104901338491374841515972068,
    0.149445554002916905664936468389821])
_WG10 = np.array([
    0.066671344308688137593568809893332, 0.149451349150580593145776339657697,
    0.219086362515982043995534934228163, 0.269266719309996355091226921569469,
    0.295524224714752870173892994651338])
_XGK15 = np.array([
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144838258730, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.0])
_WGK15 = np.array([
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714])
_WG7 = np.array([
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327])


def _full_rule(xh: np.ndarray, wk: np.ndarray, wg: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unfold a half table into nodes on [-1, 1] and Kronrod and Gauss weights."""
    x = np.concatenate([-xh[:-1], xh[::-1]])
    k = np.concatenate([wk[:-1], wk[::-1]])
    # the Gauss nodes are every other Kronrod node, starting at the second
    g = np.zeros(len(xh))
    g[1::2] = wg
    g_full = np.concatenate([g[:-1], g[::-1]])
    return x, k, g_full


GK21 = _full_rule(_XGK21, _WGK21, _WG10)
GK15 = _full_rule(_XGK15, _WGK15, _WG7)


def table(values: np.ndarray) -> Any:
    """A small constant table as an array built from literals.

    ``snp.asarray`` of a NumPy table makes it a constant of the traced program,
    which a compiled call receives as one more argument buffer (about 0.4 us a
    table per call, and a loop body's copy is another); stacked from literals it
    is folded into the executable."""
    return snp.stack([float(v) for v in np.asarray(values).reshape(-1)])


def rule_nodes(lo: Any, hi: Any, rule: tuple) -> tuple[Any, Any, Any]:
    """Nodes of ``rule`` on intervals ``[lo, hi]`` (any batch shape): returns
    (nodes with a trailing axis of rule points, centres, half-lengths)."""
    centr = 0.5 * (lo + hi)
    hlgth = 0.5 * (hi - lo)
    return centr[..., None] + hlgth[..., None] * table(rule[0]), centr, hlgth


def rule_apply(fv: Any, hlgth: Any, rule: tuple, eps: float, tiny: float
               ) -> tuple[Any, Any, Any, Any, Any]:
    """QUADPACK's dqk* estimates from the integrand values ``fv`` (trailing axis the
    rule's points): (integral, error estimate, integral of |f|, integral of
    |f - mean|, whether all values are finite), the third and fourth as
    QUADPACK's ``resabs`` and ``resasc``.

    The sums run over the rule's points one by one, in QUADPACK's order (the
    centre, then the symmetric pairs of Gauss nodes, then the Kronrod-only
    pairs): elementwise array code that XLA fuses with the integrand into one
    pass over the values of a whole batch of rules (weighted reductions stream
    them once per sum), and whose rounding does not depend on the batch.  The
    loop must use the same sums as the first application: QUADPACK's roundoff
    test compares an interval's estimate with the sum of its halves'."""
    _, wk, wg = rule
    n = len(wk)
    c = n // 2
    f = [fv[..., i] for i in range(n)]
    fc = f[c]
    resk = float(wk[c]) * fc
    resg = float(wg[c]) * fc if wg[c] != 0 else snp.zeros_like(fc)
    resabs = snp.abs(resk)
    gauss = [j for j in range(c) if wg[j] != 0]
    kronrod = [j for j in range(c) if wg[j] == 0]
    for j in gauss + kronrod:
        f1, f2 = f[j], f[n - 1 - j]
        fsum = f1 + f2
        if wg[j] != 0:
            resg = resg + float(wg[j]) * fsum
        resk = resk + float(wk[j]) * fsum
        resabs = resabs + float(wk[j]) * (snp.abs(f1) + snp.abs(f2))
    reskh = 0.5 * resk
    resasc = float(wk[c]) * snp.abs(fc - reskh)
    for j in range(c):
        resasc = resasc + float(wk[j]) * (snp.abs(f[j] - reskh)
                                          + snp.abs(f[n - 1 - j] - reskh))
    finite = snp.isfinite(fc)
    for j in range(c):
        finite = finite & snp.isfinite(f[j]) & snp.isfinite(f[n - 1 - j])
    ah = snp.abs(hlgth)
    resabs = resabs * ah
    resasc = resasc * ah
    abserr = snp.abs((resk - resg) * hlgth)
    # QUADPACK's scaling of the raw Gauss-Kronrod difference: pessimistic for
    # coarse panels, optimistic (power 1.5) once the two rules agree
    safe = snp.where(resasc == 0, 1.0, resasc)
    scaled = resasc * snp.minimum(1.0, (200.0 * abserr / safe) ** 1.5)
    abserr = snp.where((resasc != 0) & (abserr != 0), scaled, abserr)
    floor = eps * 50.0 * resabs
    abserr = snp.where(resabs > tiny / (50.0 * eps), snp.maximum(floor, abserr), abserr)
    return resk * hlgth, abserr, resabs, resasc, finite


# --- Wynn's epsilon algorithm (QUADPACK's dqelg) --------------------------------------

LIMEXP = 50
TABLE = LIMEXP + 2


def qelg(epstab: Any, n: Any, res3la: Any, nres: Any, eps: float, big: float,
         active: Any = True) -> tuple[Any, Any, Any, Any, Any, Any]:
    """One step of the epsilon algorithm on the table ``epstab`` holding ``n``
    partial sums (``n >= 1``; 1-based counts as in QUADPACK).

    Returns ``(result, abserr, epstab, n, res3la, nres)``: the extrapolated limit,
    an error estimate from the last three results, and the updated table.
    Where ``active`` is false the table loop does no steps (the outputs are then
    meaningless): under ``vmap`` a ``cond`` around this call runs it for every
    member, and members that do not extrapolate should not keep the loop going.
    """
    nres = nres + 1
    result0 = epstab[n - 1]
    orig = epstab
    epstab = epstab.at[n + 1].set(epstab[n - 1]).at[n - 1].set(big)
    newelm = (n - 1) // 2
    num = n

    def cond(c: tuple) -> Any:
        i, _, _, _, _, _, stop, _ = c
        return (i <= newelm) & ~stop

    def body(c: tuple) -> tuple:
        i, k1, tab, result, abserr, nn, stop, conv = c
        e0, e1, res = tab[k1 - 3], tab[k1 - 2], tab[k1 + 1]
        e2 = res
        e1abs = snp.abs(e1)
        delta2, delta3 = e2 - e1, e1 - e0
        err2, err3 = snp.abs(delta2), snp.abs(delta3)
        tol2 = snp.maximum(snp.abs(e2), e1abs) * eps
        tol3 = snp.maximum(e1abs, snp.abs(e0)) * eps
        # e0, e1, e2 agree to machine accuracy: convergence is assumed
        converged = (err2 <= tol2) & (err3 <= tol3)
        e3 = tab[k1 - 1]
        delta1 = e1 - e3
        err1 = snp.abs(delta1)
        tol1 = snp.maximum(e1abs, snp.abs(e3)) * eps
        irregular = (err1 <= tol1) | (err2 <= tol2) | (err3 <= tol3)
        safe = lambda d: snp.where(d == 0, 1.0, d)  # noqa: E731
        ss = 1.0 / safe(delta1) + 1.0 / safe(delta2) - 1.0 / safe(delta3)
        irregular = irregular | (snp.abs(ss * e1) <= 1e-4)
        new = e1 + 1.0 / snp.where(ss == 0, 1.0, ss)
        error = err2 + snp.abs(new - e2) + err3
        tab_c = tab.at[k1 - 1].set(e1)
        tab_n = tab.at[k1 - 1].set(new)
        better = error <= abserr
        result_n = snp.where(better, new, result)
        abserr_n = snp.where(better, error, abserr)
        tab = snp.where(converged, tab, snp.where(irregular, tab_c, tab_n))
        result = snp.where(converged, res, snp.where(irregular, result, result_n))
        abserr = snp.where(converged, err2 + err3,
                           snp.where(irregular, abserr, abserr_n))
        nn = snp.where(~converged & irregular, 2 * i - 1, nn)
        stop = converged | irregular
        return (i + 1, snp.where(stop, k1, k1 - 2), tab, result, abserr, nn, stop,
                converged)

    init = (snp.asarray(1), n, epstab, result0, snp.asarray(big, result0.dtype), n,
            (n < 3) | ~snp.asarray(active), snp.asarray(False))
    _, _, tab, result, abserr, nn, _, conv = lax.while_loop(cond, body, init)

    # shift the table (only when the loop did not find convergence)
    nn = snp.where(nn == LIMEXP, 2 * (LIMEXP // 2) - 1, nn)
    idx = snp.arange(TABLE)
    ib = snp.where(num % 2 == 1, 0, 1)
    ie = newelm + 1
    k = (idx - ib) // 2
    shifted = (idx >= ib) & ((idx - ib) % 2 == 0) & (k < ie)
    src = snp.where(shifted, snp.minimum(idx + 2, TABLE - 1), idx)
    tab2 = tab[src]
    moved = (idx < nn) & (num != nn)
    src2 = snp.where(moved, snp.minimum(idx + num - nn, TABLE - 1), idx)
    tab2 = tab2[src2]
    early = nres < 4
    slot = snp.clip(nres - 1, 0, 2)
    r3_early = res3la.at[slot].set(result)
    # QUADPACK's order; written out, not a reduction (see quad's ``_sums``)
    err_late = (snp.abs(result - res3la[2]) + snp.abs(result - res3la[1])
                + snp.abs(result - res3la[0]))
    r3_late = snp.stack([res3la[1], res3la[2], result])
    abserr2 = snp.where(early, big, err_late)
    res3la2 = snp.where(early, r3_early, r3_late)
    small = n < 3   # too few terms: no extrapolation, the table is unchanged
    keep = conv | small
    tab = snp.where(keep, snp.where(small, orig, tab), tab2)
    n_out = snp.where(keep, n, nn)
    abserr = snp.where(keep, abserr, abserr2)
    res3la = snp.where(keep, res3la, res3la2)
    abserr = snp.maximum(abserr, 5.0 * eps * snp.abs(result))
    return result, abserr, tab, n_out, res3la, nres
