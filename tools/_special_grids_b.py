"""Accuracy grids for the Bessel, zeta, elliptic and hypergeometric families.

A plain table for ``tools/special_accuracy.py`` to import: each entry is
``(name, sciax function, reference function, argument grids)``.  The grids are
1-D arrays combined by ``numpy.meshgrid``; the reference is SciPy where it is
accurate, mpmath (wrapped elementwise, ``mp.dps = 30``) where SciPy is known
to be weak (large-order Bessel functions, ``hyperu``, ``hyp1f1`` with
negative ``b``, Lambert W near its branch point).  Oscillating functions are
reported relative to their envelope by the tool (``ENVELOPE`` lists them with
the function giving the envelope).

Run standalone (``python tools/_special_grids_b.py``) it prints the worst
relative error per function.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _mp(fname):
    """Elementwise mpmath reference (30 digits), real part as float."""
    def ref(*args):
        import mpmath as mp
        mp.mp.dps = 30
        f = getattr(mp, fname)
        flat = np.broadcast_arrays(*[np.asarray(a, float) for a in args])
        out = np.array([float(mp.re(f(*[mp.mpf(float(t)) for t in v])))
                        for v in zip(*[a.ravel() for a in flat])])
        return out.reshape(flat[0].shape)
    ref.__name__ = f"mpmath.{fname}"
    return ref


def _grids():
    import scipy.special as sc

    from sciax import special as S

    order = np.array([-7.5, -2.3, -1.0, -0.5, 0.0, 0.3, 1.0, 2.5, 10.0, 30.7, 100.0])
    xb = np.array([1e-8, 1e-3, 0.1, 0.5, 1.9, 2.0, 2.1, 5.0, 10.0, 25.0, 40.0, 100.0,
                   1e3, 1e4])
    x1 = np.array([0.0, 1e-5, 0.7, 3.0, 20.0, 700.0])
    xa = np.array([-1e3, -30.0, -3.0, -2.0, -0.1, 0.0, 0.5, 1.01, 7.0, 30.0, 100.0])
    xa_far = np.concatenate([[-1e6, -3.3e4], xa])
    s = np.array([-40.5, -7.0, -3.3, -1.0, -0.5, 0.0, 0.3, 0.999, 1.001, 1.5, 2.0,
                  3.0, 10.0, 40.0, 100.0])
    xe = np.array([1e-10, 1e-3, 0.5, 1.0, 1.0001, 2.0, 10.0, 39.0, 41.0, 100.0, 700.0])
    g3 = np.array([0.0, 1e-150, 1e-10, 0.3, 1.0, 2.5, 1e5, 1e150])
    m = np.array([-1e5, -1.0, 0.0, 1e-10, 0.3, 0.5, 0.9, 1 - 1e-10, 1.0])
    return [
        ("jv", S.jv, sc.jv, [order, xb]),
        ("yv", S.yv, sc.yv, [order, xb]),
        ("iv", S.iv, sc.iv, [order, xb]),
        ("kv", S.kv, sc.kv, [order, xb]),
        ("ive", S.ive, sc.ive, [order, xb]),
        ("kve", S.kve, sc.kve, [order, xb]),
        ("jv (large order)", S.jv, _mp("besselj"),
         [np.array([50.0, 100.0, 200.0]), np.array([150.0, 1e3, 3e3])]),
        ("j0", S.j0, sc.j0, [x1]), ("j1", S.j1, sc.j1, [x1]),
        ("y0", S.y0, sc.y0, [x1[1:]]), ("y1", S.y1, sc.y1, [x1[1:]]),
        ("i0", S.i0, sc.i0, [x1]), ("i1", S.i1, sc.i1, [x1]),
        ("i0e", S.i0e, sc.i0e, [x1]), ("i1e", S.i1e, sc.i1e, [x1]),
        ("k0", S.k0, sc.k0, [x1[1:]]), ("k1", S.k1, sc.k1, [x1[1:]]),
        ("k0e", S.k0e, sc.k0e, [x1[1:]]), ("k1e", S.k1e, sc.k1e, [x1[1:]]),
        ("spherical_jn", S.spherical_jn, sc.spherical_jn,
         [np.array([0, 1, 2, 5, 20]), np.array([-3.0, 0.0, 1e-3, 0.5, 1.5, 7.0, 30.0, 200.0])]),
        ("spherical_yn", S.spherical_yn, sc.spherical_yn,
         [np.array([0, 1, 2, 5, 20]), np.array([-3.0, 1e-3, 0.5, 1.5, 7.0, 30.0, 200.0])]),
        ("spherical_in", S.spherical_in, sc.spherical_in,
         [np.array([0, 1, 2, 5, 20]), np.array([-3.0, 0.0, 1e-3, 0.5, 1.5, 7.0, 30.0, 200.0])]),
        ("spherical_kn", S.spherical_kn, sc.spherical_kn,
         [np.array([0, 1, 2, 5, 20]), np.array([-3.0, 1e-3, 0.5, 1.5, 7.0, 30.0, 200.0])]),
        ("airy Ai", lambda x: S.airy(x)[0], _mp("airyai"), [xa_far]),
        ("airy Bi", lambda x: S.airy(x)[2], _mp("airybi"), [xa_far]),
        ("struve", S.struve, sc.struve,
         [np.array([0.0, 0.5, 1.0, 2.5, -0.3, 3.2, 10.0]),
          np.array([1e-3, 0.5, 3.0, 6.1, 10.0, 30.0, 100.0])]),
        ("modstruve", S.modstruve, sc.modstruve,
         [np.array([0.0, 0.5, 1.0, 2.5, -0.3, 3.2, 10.0]),
          np.array([1e-3, 0.5, 3.0, 6.1, 10.0, 30.0, 100.0])]),
        ("zeta", S.zeta, sc.zeta, [s]),
        ("zeta (Hurwitz)", S.zeta, sc.zeta,
         [np.array([1.001, 1.5, 2.0, 3.7, 10.0, 60.0]),
          np.array([1e-3, 0.3, 1.0, 2.5, 9.9, 10.0, 100.0, 1e5])]),
        ("zetac", S.zetac, sc.zetac, [s]),
        ("exp1", S.exp1, sc.exp1, [xe]), ("expi", S.expi, sc.expi, [np.r_[-xe, xe]]),
        ("expn", S.expn, sc.expn, [np.array([0, 1, 2, 5, 30]), xe]),
        ("sici Si", lambda x: S.sici(x)[0], lambda x: sc.sici(x)[0], [np.r_[-xe, xe, 1e10]]),
        ("sici Ci", lambda x: S.sici(x)[1], lambda x: sc.sici(x)[1], [np.r_[xe, 1e10]]),
        ("shichi Shi", lambda x: S.shichi(x)[0], lambda x: sc.shichi(x)[0], [xe]),
        ("shichi Chi", lambda x: S.shichi(x)[1], lambda x: sc.shichi(x)[1], [xe]),
        ("spence", S.spence, sc.spence, [np.array([0.0, 1e-10, 0.1, 0.5, 0.7, 1.0, 1.5,
                                                   2.0, 3.0, 10.0, 1e5])]),
        ("lambertw", lambda z: S.lambertw(z).real, lambda z: sc.lambertw(z).real,
         [np.array([-0.36, -0.3, -0.1, 0.0, 1e-8, 0.5, 1.0, 10.0, 1e5, 1e300])]),
        ("wrightomega", S.wrightomega, sc.wrightomega,
         [np.array([-1e3, -50.0, -2.0, -1.0, 0.0, 0.5, 1.0, 2.0, 10.0, 1e3, 1e10])]),
        ("elliprf", S.elliprf, sc.elliprf, [g3, g3, g3]),
        ("elliprd", S.elliprd, sc.elliprd, [g3, g3, g3]),
        ("elliprg", S.elliprg, sc.elliprg, [g3, g3, g3]),
        ("elliprj", S.elliprj, sc.elliprj,
         [np.array([1e-10, 0.3, 1.0, 2.5, 1e5])] * 3
         + [np.array([-2.0, -1e-3, 1e-3, 0.7, 5.0, 1e4])]),
        ("elliprc", S.elliprc, sc.elliprc,
         [np.array([0.0, 1e-10, 0.3, 1.0, 2.5, 1e5]),
          np.array([-3.0, -1e-3, 1e-10, 0.3, 1.0, 2.5, 1e5])]),
        ("ellipk", S.ellipk, sc.ellipk, [m]), ("ellipe", S.ellipe, sc.ellipe, [m]),
        ("ellipkm1", S.ellipkm1, sc.ellipkm1, [np.array([1e-300, 1e-10, 0.3, 1.0, 2.0, 1e5])]),
        ("ellipkinc", S.ellipkinc, sc.ellipkinc,
         [np.array([-10.0, -2.0, -0.3, 1e-8, 0.3, 1.5, 2.0, 10.0, 100.0]), m[1:-1]]),
        ("ellipeinc", S.ellipeinc, sc.ellipeinc,
         [np.array([-10.0, -2.0, -0.3, 1e-8, 0.3, 1.5, 2.0, 10.0, 100.0]), m[1:-1]]),
        ("hyp0f1", S.hyp0f1, sc.hyp0f1,
         [np.array([-2.5, 0.5, 1.0, 2.5, 10.0, 50.0]),
          np.array([-1e4, -100.0, -5.0, -0.5, 0.0, 0.3, 10.0, 100.0, 1e4])]),
        ("hyp1f1", S.hyp1f1, _mp("hyp1f1"),
         [np.array([-3.0, -0.5, 0.5, 1.0, 2.5, 10.0]), np.array([-2.5, 0.5, 1.0, 3.7, 20.0]),
          np.array([-800.0, -50.0, -5.0, -0.5, 0.3, 2.0, 20.0, 100.0, 650.0])]),
        ("hyp2f1", S.hyp2f1, sc.hyp2f1,
         [np.array([-3.0, 0.5, 1.5]), np.array([-0.5, 1.0, 2.5]), np.array([0.5, 3.7, 10.0]),
          np.array([-50.0, -2.0, -0.5, 0.0, 0.3, 0.7, 0.95, 1.0])]),
        ("hyperu", S.hyperu, _mp("hyperu"),
         [np.array([-2.0, -0.5, 0.5, 1.0, 2.5, 10.0]), np.array([-1.5, 0.5, 1.0, 2.0, 3.7]),
          np.array([0.01, 0.5, 2.0, 20.0, 100.0])]),
    ]


def _jy_envelope(v, x):
    """hypot(J, Y)"""
    import scipy.special as sc
    return np.hypot(sc.jv(v, x), sc.yv(v, x))


def _airy_envelope(x):
    """hypot(Ai, Bi) for x <= 0, |Ai| for x > 0"""
    import scipy.special as sc
    ai, _, bi, _ = sc.airy(x)
    return np.where(x > 0, np.abs(ai), np.hypot(ai, bi))


# Oscillating functions are compared relative to this envelope.
ENVELOPE = {"jv": _jy_envelope, "yv": _jy_envelope, "jv (large order)": _jy_envelope,
            "airy Ai": _airy_envelope}

# Notes for the table, where the worst point is the reference's error (checked
# against mpmath at 40 digits).
NOTES = {
    "jv": "SciPy's error: at (100, 1000) vs mpmath ours 1.6e-14, SciPy 3.6e-13",
    "j0": "SciPy's error: at 700 vs mpmath ours 1.4e-16, SciPy 1.5e-13",
    "y1": "SciPy's error: at 700 vs mpmath ours 1.4e-16, SciPy 9.5e-14",
    "airy Ai": "vs mpmath: SciPy is off by 6.0e-14 at 100 (its e^-zeta carries zeta's "
               "rounding) and by 1.6e-12 at -1e3 and 3.9e-8 at -1e6 relative to the "
               "envelope (the phase zeta rounded); ours takes zeta in double-double",
    "airy Bi": "vs mpmath: SciPy is off by 3.8e-14 at 100, 1.1e-12 at -1e3 and 4.9e-9 "
               "at -1e6 (envelope-relative)",
}


def grids():
    """The table: list of (name, sciax function, reference, [1-D grids])."""
    return _grids()


def worst_errors():
    """[(name, worst relative error)] over every grid of the table."""
    out = []
    for name, f, ref, axes in grids():
        args = [a.ravel() for a in np.meshgrid(*axes)]
        got = np.asarray(f(*args), np.float64)
        want = np.asarray(ref(*args), np.float64)
        env = np.abs(want)
        if name in ENVELOPE:
            env = np.maximum(env, ENVELOPE[name](*args))
        with np.errstate(all="ignore"):
            err = np.abs(got - want) / env
        err = np.where(got == want, 0.0, err)
        err = np.where(np.isnan(got) & np.isnan(want), 0.0, err)
        out.append((name, float(np.nanmax(np.where(np.isnan(err), np.inf, err)))))
    return out


if __name__ == "__main__":
    for name, e in worst_errors():
        print(f"{name:24s} {e:9.2e}")
