"""sciax.special functions of _extra_s23 (cdflib's inverses in a parameter, the
noncentral distribution functions) against SciPy and mpmath.

An inverse is checked two ways: by its round trip through an accurate forward
function (SciPy's Boost-based ``ncfdtr``/``nctdtr``/``chndtr``, ``gdtr``...,
or mpmath's incomplete beta function where SciPy's forward floors ``k``),
which must give back ``p`` to near rounding, and against SciPy's own inverse.
SciPy's inverses are cdflib's: its root finder stops at a relative tolerance
of 1e-8 and its noncentral F and chi-square sums at ~1e-5, so SciPy is the
less accurate side there (its ``ncfdtrinc(3, 4, 0.3, 2)`` gives back
``ncfdtr = 0.3000053``; ours ``0.3`` to 1e-16) and the comparison with it has
the tolerance of its method.  The round trip is compared in the tail it is
taken in (``1 - p`` for ``p > 1/2``), relative to that tail.

Derivatives (implicit, ``custom_jvp``) are compared with central differences
of the inverse itself (step 1e-5 relative: truncation ~1e-10, rounding of an
inverse accurate to ~1e-15 over 1e-5: ~1e-10; tolerance 1e-7).

The default run compiles only the cheap (incomplete gamma) inverses; the
beta-based and noncentral ones take 2-6 s each to compile and are ``slow``.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import sciax
import sciax.numpy as snp
from sciax import special as S
from tests.special._relerr import rel_err


def _tail_err(fwd, x, p):
    """``|F(x) - p|`` relative to the tail ``min(p, 1 - p)`` (``fwd`` gives
    ``(F, 1 - F)``)."""
    f, q = fwd(x)
    p = np.asarray(p, float)
    return np.where(p <= 0.5, np.abs(f - p) / p, np.abs(q - (1.0 - p)) / (1.0 - p))


def _mp_betainc(a, b, x):
    """``(I_x(a, b), 1 - I_x(a, b))`` by mpmath at 30 digits."""
    with mpmath.workdps(30):
        i = [mpmath.betainc(ai, bi, 0, xi, regularized=True)
             for ai, bi, xi in np.broadcast(a, b, x)]
        return (np.array([float(v) for v in i]), np.array([float(1 - v) for v in i]))


# --- default run: the incomplete gamma inverses and the normal closed forms ---------

P = np.array([1e-12, 0.01, 0.3, 0.5, 0.8, 0.999, 1 - 1e-9])


def test_gamma_inverses():
    # chdtriv, pdtrik (gdtria, gdtrib: slow): round trips to 1e-12 of the tail (the
    # incomplete gamma function is accurate to ~1e-14 relative; the tail's
    # slope in the parameter multiplies that by at most ~10 here), and SciPy
    # (cdflib, 1e-8 stopping tolerance) within 1e-6
    x = np.array([0.5, 2.0, 3.0, 10.0, 1.5, 7.0, 40.0])
    v = np.asarray(S.chdtriv(P, x))
    assert _tail_err(lambda v: (sc.chdtr(v, x), sc.chdtrc(v, x)), v, P).max() < 1e-12
    assert rel_err(v, sc.chdtriv(P, x)).max() < 1e-6
    # pdtrik: k real, P(N <= k) = Q(k + 1, m); p above pdtr(0, m) only
    m = np.array([0.5, 2.0, 3.0, 10.0, 1.5, 7.0, 40.0])
    pk = np.array([0.7, 0.5, 0.3, 0.5, 0.8, 0.999, 0.1])
    k = np.asarray(S.pdtrik(pk, m))
    assert _tail_err(lambda k: (sc.gammaincc(k + 1, m), sc.gammainc(k + 1, m)), k,
                     pk).max() < 1e-12
    assert rel_err(k, sc.pdtrik(pk, m)).max() < 1e-6


def test_normal_closed_forms():
    p = np.array([0.01, 0.3, 0.5, 0.9])
    assert rel_err(S.nrdtrimn(p, 2.0, 1.0), sc.nrdtrimn(p, 2.0, 1.0)).max() < 1e-15
    p2 = np.array([0.01, 0.3, 0.7, 0.9])
    assert rel_err(S.nrdtrisd(1.0, p2, 3.0), sc.nrdtrisd(1.0, p2, 3.0)).max() < 1e-15


@pytest.mark.slow
def test_gdtria_gdtrib():
    x = np.array([0.5, 2.0, 3.0, 10.0, 1.5, 7.0, 40.0])
    b = np.array([0.5, 3.0, 1.0, 2.0, 8.0, 0.3, 30.0])
    a = np.asarray(S.gdtria(P, b, x))
    assert _tail_err(lambda a: (sc.gdtr(a, b, x), sc.gdtrc(a, b, x)), a,
                     P).max() < 1e-12
    assert rel_err(a, sc.gdtria(P, b, x)).max() < 1e-6
    bb = np.asarray(S.gdtrib(2.0, P, x))
    assert _tail_err(lambda b: (sc.gdtr(2.0, b, x), sc.gdtrc(2.0, b, x)), bb,
                     P).max() < 1e-12
    assert rel_err(bb, sc.gdtrib(2.0, P, x)).max() < 1e-6
    # below pdtr(0, m) = e^-m no k >= 0 reaches p: cdflib's bound 0, as SciPy
    assert float(S.pdtrik(0.1, 2.0)) == sc.pdtrik(0.1, 2.0) == 0.0
    assert np.isnan(S.chdtriv(1.5, 2.0)) and np.isnan(S.gdtria(0.5, -1.0, 2.0))


@pytest.mark.slow
def test_gdtria_gradient_vs_mpmath():
    # the implicit derivative of gdtria in p: 1 / (dgdtr/da) = 1 / (x
    # pdf_gamma(a x; b)) at the root, against mpmath
    a = float(S.gdtria(0.3, 2.5, 1.5))
    g = float(sciax.grad(lambda p: S.gdtria(p, 2.5, 1.5))(0.3))
    with mpmath.workdps(30):
        dens = 1.5 * (a * 1.5) ** 1.5 * mpmath.exp(-a * 1.5) / mpmath.gamma(2.5)
    assert abs(g * float(dens) - 1.0) < 1e-12


# --- slow: the beta-based inverses ----------------------------------------------------

@pytest.mark.slow
def test_beta_inverses():
    p = np.array([1e-10, 0.01, 0.3, 0.5, 0.8, 0.99, 1 - 1e-8])
    # btdtria / btdtrib: round trip through mpmath's I_x(a, b)
    b, x = np.array([2.0, 0.5, 3.0, 10.0, 1.0, 0.7, 4.0]), 0.3
    a = np.asarray(S.btdtria(p, b, x))
    assert _tail_err(lambda a: _mp_betainc(a, b, x), a, p).max() < 1e-12
    assert rel_err(a, sc.btdtria(p, b, x)).max() < 1e-6
    a2 = np.array([2.0, 0.5, 3.0, 10.0, 1.0, 0.7, 4.0])
    bb = np.asarray(S.btdtrib(a2, p, 0.6))
    assert _tail_err(lambda b: _mp_betainc(a2, b, 0.6), bb, p).max() < 1e-12
    assert rel_err(bb, sc.btdtrib(a2, p, 0.6)).max() < 1e-6
    # bdtrik / bdtrin (k, n real: cumbin = I_{1-p}(n - k, k + 1)); SciPy's
    # bdtr floors k, so the round trip is through mpmath
    n, pr = 20.0, np.array([0.1, 0.3, 0.5, 0.5, 0.7, 0.2, 0.6])
    y = np.array([0.2, 0.01, 0.3, 0.5, 0.8, 0.99, 0.6])
    k = np.asarray(S.bdtrik(y, n, pr))
    assert _tail_err(lambda k: _mp_betainc(n - k, k + 1, 1 - pr), k,
                     y).max() < 1e-11
    assert rel_err(k, sc.bdtrik(y, n, pr)).max() < 1e-6
    kk = np.array([0.0, 2.0, 3.0, 5.5, 10.0, 1.0, 4.0])
    nn = np.asarray(S.bdtrin(kk, y, pr))
    assert _tail_err(lambda n: _mp_betainc(n - kk, kk + 1, 1 - pr), nn, y).max() < 1e-11
    assert rel_err(nn, sc.bdtrin(kk, y, pr)).max() < 1e-6
    # nbdtrik / nbdtrin: I_p(n, k + 1)
    kn = np.asarray(S.nbdtrik(y, 3.0, pr))
    ok = kn > 0                     # cdflib's bound 0 where y < nbdtr(0), as SciPy
    assert (sc.nbdtrik(y, 3.0, pr)[~ok] == 0).all()
    assert _tail_err(lambda k: _mp_betainc(3.0, k + 1, pr), kn, y)[ok].max() < 1e-11
    assert rel_err(kn[ok], sc.nbdtrik(y, 3.0, pr)[ok]).max() < 1e-6
    nb = np.asarray(S.nbdtrin(kk, y, pr))
    assert _tail_err(lambda n: _mp_betainc(n, kk + 1, pr), nb, y).max() < 1e-11
    assert rel_err(nb, sc.nbdtrin(kk, y, pr)).max() < 1e-6


@pytest.mark.slow
def test_f_and_t_inverses():
    p = np.array([0.01, 0.3, 0.5, 0.8, 0.99])
    dfn, x = np.array([3.0, 1.0, 10.0, 5.0, 2.0]), np.array([1.2, 0.5, 2.0, 3.0, 20.0])
    d = np.asarray(S.fdtridfd(dfn, p, x))
    ok = ~np.isnan(sc.fdtridfd(dfn, p, x))
    assert _tail_err(lambda d: (sc.fdtr(dfn, d, x), sc.fdtrc(dfn, d, x)), d,
                     p)[ok].max() < 1e-11
    assert rel_err(d[ok], sc.fdtridfd(dfn, p, x)[ok]).max() < 1e-6
    # stdtridf: t > 0 reaches p in (1/2, Phi(t)) only
    t, pt = np.array([1.5, 2.0, 3.0, -1.0]), np.array([0.8, 0.9, 0.99, 0.2])
    df = np.asarray(S.stdtridf(pt, t))
    assert _tail_err(lambda v: (sc.stdtr(v, t), sc.stdtr(v, -t)), df, pt).max() < 1e-11
    assert rel_err(df, sc.stdtridf(pt, t)).max() < 1e-6


# --- slow: the noncentral functions and their inverses -----------------------------

@pytest.mark.slow
def test_noncentral_cdfs():
    # SciPy's chndtr/nctdtr/ncfdtr are Boost's (accurate): 1e-12, the
    # distributions' own tests' tolerance for these kernels
    x = np.array([0.5, 3.0, 10.0, 40.0])
    df, nc = np.array([2.0, 0.5, 5.0, 20.0]), np.array([1.5, 0.0, 10.0, 3.0])
    assert rel_err(S.chndtr(x, df, nc), sc.chndtr(x, df, nc)).max() < 1e-12
    t = np.array([-2.0, 0.5, 2.0, 6.0])
    assert rel_err(S.nctdtr(df + 1, nc - 2, t),
                   sc.nctdtr(df + 1, nc - 2, t)).max() < 1e-12
    assert rel_err(S.ncfdtr(3.0, df + 1, nc, x / 4),
                   sc.ncfdtr(3.0, df + 1, nc, x / 4)).max() < 1e-12
    assert np.isnan(S.chndtr(1.0, -1.0, 1.0)) and float(S.chndtr(-1.0, 2.0, 1.0)) == 0.0


def _chk(got, fwd, p, ref):
    # round trip through SciPy's Boost forward to 1e-11 of the tail (its 1 -
    # F for the upper tail: p <= 0.999 keeps 13 digits there), and SciPy's
    # own round trip no better.  SciPy's inverse (cdflib's own sums, ~1e-5
    # relative in F, divided by the slope of F in the parameter: 1.8e-4 in
    # dfn where ncfdtr flattens towards its limit 0.736) within 1e-3
    got = np.asarray(got)
    ours = _tail_err(fwd, got, p)
    assert ours.max() < 1e-11
    assert (ours <= np.maximum(_tail_err(fwd, np.asarray(ref), p), 1e-11)).all()
    mid = (p >= 1e-4) & (p <= 1 - 1e-4)     # (in the deep tails cdflib is further off:
    assert rel_err(got[mid], ref[mid]).max() < 1e-3   # 1e-3 in nctdtrinc at p = 1e-6)


def _two(f):
    def tails(*a):
        v = f(*a)
        return v, 1.0 - v
    return tails


@pytest.mark.slow
def test_noncentral_inverses():
    chn, ncf, nct = _two(sc.chndtr), _two(sc.ncfdtr), _two(sc.nctdtr)
    p = np.array([1e-6, 0.2, 0.5, 0.9, 0.999])
    df, nc, x = 2.5, 1.5, 3.0
    _chk(S.chndtrix(p, df, nc), lambda v: chn(v, df, nc), p, sc.chndtrix(p, df, nc))
    # chndtr(3, df, 1.5) falls from 0.81 (df -> 0) to 0 in df, and in nc from
    # chdtr(2.5, 3) = 0.70
    q = np.array([1e-6, 0.2, 0.4])
    _chk(S.chndtridf(x, q, nc), lambda v: chn(x, v, nc), q, sc.chndtridf(x, q, nc))
    q = np.array([1e-6, 0.2, 0.5, 0.69])
    _chk(S.chndtrinc(x, df, q), lambda v: chn(x, df, v), q, sc.chndtrinc(x, df, q))
    dfn, dfd, f = 3.0, 4.0, 2.0
    _chk(S.ncfdtri(dfn, dfd, nc, p), lambda v: ncf(dfn, dfd, nc, v), p,
         sc.ncfdtri(dfn, dfd, nc, p))
    # ncfdtr(3, dfd, 1.5, 2) rises from 0 (dfd -> 0) to 0.74; in dfn from
    # 0.47 to 0.74; in nc it falls from ncfdtr(3, 4, 0, 2) = 0.74.  Not p =
    # 1e-6 for dfd: there dfd = 1.2e-7 and the forward functions (ours and
    # Boost's) are 1-2e-10 off mpmath's sum (I_w(a, b) at b = 6e-8)
    q = np.array([0.01, 0.2, 0.5, 0.7])
    _chk(S.ncfdtridfd(dfn, q, nc, f), lambda v: ncf(dfn, v, nc, f), q,
         sc.ncfdtridfd(dfn, q, nc, f))
    q = np.array([0.5, 0.6, 0.7])
    _chk(S.ncfdtridfn(q, dfd, nc, f), lambda v: ncf(v, dfd, nc, f), q,
         sc.ncfdtridfn(q, dfd, nc, f))
    q = np.array([1e-6, 0.2, 0.5, 0.7])
    _chk(S.ncfdtrinc(dfn, dfd, q, f), lambda v: ncf(dfn, dfd, v, f), q,
         sc.ncfdtrinc(dfn, dfd, q, f))
    q = np.array([1e-6, 0.2, 0.5, 0.9, 0.999])
    _chk(S.nctdtrit(5.0, 1.0, q), lambda v: nct(5.0, 1.0, v), q,
         sc.nctdtrit(5.0, 1.0, q))
    _chk(S.nctdtrinc(5.0, q, 2.0), lambda v: nct(5.0, v, 2.0), q,
         sc.nctdtrinc(5.0, q, 2.0))
    # nctdtr(df, 1, 2) runs from Phi(-1) = 0.16 (df -> 0) to Phi(1) = 0.84 in df
    q = np.array([0.55, 0.7, 0.8])
    _chk(S.nctdtridf(q, 1.0, 2.0), lambda v: nct(v, 1.0, 2.0), q,
         sc.nctdtridf(q, 1.0, 2.0))


# --- slow: implicit derivatives and transformations ---------------------------------

def _central(f, args, i, h=1e-5):
    a = [np.float64(v) for v in args]
    step = h * max(abs(a[i]), 1.0)
    up, dn = list(a), list(a)
    up[i] += step
    dn[i] -= step
    return (float(f(*up)) - float(f(*dn))) / (2 * step)


_GRAD_CASES = [
    (S.bdtrik, (0.4, 20.0, 0.3)), (S.bdtrin, (3.0, 0.4, 0.3)),
    (S.btdtria, (0.4, 2.0, 0.3)), (S.btdtrib, (2.0, 0.4, 0.3)),
    (S.chdtriv, (0.4, 3.0)), (S.gdtrib, (2.0, 0.4, 1.0)), (S.pdtrik, (0.4, 2.0)),
    (S.nbdtrik, (0.4, 3.0, 0.4)), (S.nbdtrin, (2.0, 0.4, 0.4)),
    (S.fdtridfd, (3.0, 0.4, 1.2)), (S.stdtridf, (0.8, 1.5)),
    # one noncentral chi-square and one noncentral t inverse: every
    # argument's partial is a forward derivative through the kernel, and
    # these programs take 1-3 minutes each at -O0 (ncfdtri, nctdtrinc,
    # chndtridf, chndtrinc passed here too, and use the same _inverse rule)
    (S.chndtrix, (0.4, 2.0, 1.5)), (S.nctdtrit, (5.0, 1.0, 0.4)),
    (S.chndtr, (3.0, 2.0, 1.5)),
]


@pytest.mark.slow
@pytest.mark.parametrize("f,args", _GRAD_CASES,
                         ids=[c[0].__name__ for c in _GRAD_CASES])
def test_implicit_derivatives(f, args):
    # reverse mode through the custom_jvp, every argument
    g = sciax.grad(f, argnums=tuple(range(len(args))))(*map(np.float64, args))
    for i in range(len(args)):
        fd = _central(f, args, i)
        assert abs(float(g[i]) - fd) <= 1e-7 * max(abs(fd), 1e-3), (i, float(g[i]), fd)


@pytest.mark.slow
def test_jit_vmap_float32_and_bounds():
    p = snp.asarray([0.1, 0.5, 0.9])
    v = sciax.vmap(lambda q: S.btdtria(q, 2.0, 0.3))(p)
    j = sciax.jit(S.btdtria)(p, 2.0, 0.3)
    assert rel_err(v, j).max() < 4e-15        # (two programs: 1.5e-15 at -O0)
    f32 = S.btdtria(np.float32(0.5), np.float32(2.0), np.float32(0.3))
    assert f32.dtype == np.float32
    # where no a reaches p (betainc(a, 2, 0.3) < 1 for all a; p = 1): cdflib's
    # lower bound
    assert np.isnan(S.btdtria(0.5, 2.0, 1.5)) and np.isnan(S.bdtrik(0.5, -1.0, 0.3))
    assert float(S.bdtrik(0.01, 10.0, 0.3)) == sc.bdtrik(0.01, 10.0, 0.3) == 0.0
    assert float(S.bdtrik(1.0, 10.0, 0.3)) == sc.bdtrik(1.0, 10.0, 0.3) == 10.0


# --- orthopoly1d constructors (host-side) --------------------------------------------

_POLYS = [("legendre", (5,)), ("chebyt", (4,)), ("chebyu", (4,)), ("chebyc", (3,)),
          ("chebys", (3,)), ("jacobi", (4, 0.5, 1.5)), ("laguerre", (4,)),
          ("genlaguerre", (3, 0.7)), ("hermite", (5,)), ("hermitenorm", (5,)),
          ("gegenbauer", (4, 1.3)), ("sh_legendre", (3,)), ("sh_chebyt", (3,)),
          ("sh_chebyu", (3,)), ("sh_jacobi", (3, 2.5, 1.5))]


def _same_poly(ours, ref):
    # coefficients relative to the largest (zero ones are rounding-level in
    # both: SciPy builds them from the roots too), the rule (nodes, weights,
    # weights / w(x)) from Golub-Welsch in both within 1e-14, and the norm
    assert isinstance(ours, np.poly1d) and ours.order == ref.order
    scale = max(np.abs(ref.coeffs).max(), 1e-300)
    assert np.abs(ours.coeffs - ref.coeffs).max() <= 1e-14 * scale
    assert ours.weights.shape == ref.weights.shape
    if ref.weights.size:
        assert rel_err(ours.weights, ref.weights, 1e-300).max() < 1e-13
    assert abs(ours.normcoef - ref.normcoef) <= 1e-14 * abs(ref.normcoef)
    assert ours.limits == ref.limits


@pytest.mark.parametrize("monic", [False, True])
def test_orthopoly1d_constructors(monic):
    for name, args in _POLYS:
        for a in (args, (0,) + args[1:]):
            _same_poly(getattr(S, name)(*a, monic=monic),
                       getattr(sc, name)(*a, monic=monic))
    # calls: on a number through eval_* (compiled), on a poly1d by NumPy
    p = S.legendre(4)
    assert abs(float(p(0.3)) - sc.eval_legendre(4, 0.3)) < 1e-15
    assert np.allclose((p(np.poly1d([1.0, 0.0]))).coeffs, p.coeffs, rtol=0, atol=1e-15)
    with pytest.raises(ValueError):
        S.hermite(-1)
    with pytest.raises(ValueError):
        S.genlaguerre(2, -1.5)


# --- the Legendre functions of SciPy 1.15 ------------------------------------------

Z = np.array([-1.0, -0.9, -0.3, 0.0, 0.4, 0.99, 1.0])
TH = np.array([0.0, 0.3, 1.2, 2.0, np.pi, -0.4, 4.0])


def test_legendre_p_and_sph_harm_y_all():
    # the values and their first two derivatives to ~2 ulp of the largest
    # (the normalized recurrence rounds at each of its n steps; n <= 10 here)
    n = np.array([0, 1, 2, 5, 10, 3, 4])
    got, ref = S.legendre_p(n, Z, diff_n=2), sc.legendre_p(n, Z, diff_n=2)
    assert got.shape == ref.shape == (3, 7)
    assert rel_err(got, ref, 1.0).max() < 1e-14
    y = S.sph_harm_y_all(3, 2, TH[:5], 0.7, diff_n=2)
    r = sc.sph_harm_y_all(3, 2, TH[:5], 0.7, diff_n=2)
    for a, b in zip(y, r):
        assert a.shape == b.shape and rel_err(a, b, 1.0).max() < 1e-14
    with pytest.raises(TypeError):
        S.legendre_p(2.0, 0.5)
    with pytest.raises(NotImplementedError):
        S.legendre_p(2, 0.5, diff_n=3)


def _lqn_mp(n, z):
    """``Q_0..Q_n`` and derivatives in mpmath: the upward recurrence from
    ``Q_0 = atanh(z)`` (``acoth`` beyond 1) at 150 digits, which covers the
    ~55 digits it loses at ``z = 100`` (growth ``(z + sqrt(z^2 - 1))^(2n)``)."""
    with mpmath.workdps(150):
        z = mpmath.mpf(z)
        q = [mpmath.atanh(z) if abs(z) < 1 else mpmath.acoth(z)]
        q.append(z * q[0] - 1)
        for k in range(1, n):
            q.append(((2 * k + 1) * z * q[k] - k * q[k - 1]) / (k + 1))
        d = [1 / (1 - z * z)] + [k * (z * q[k] - q[k - 1]) / (z * z - 1)
                                 for k in range(1, n + 1)]
        return [float(v) for v in q[:n + 1]], [float(v) for v in d]


def test_lqn_vs_mpmath():
    # |z| < 1 upward, |z| > 1 downward (Miller's algorithm): 2e-14 (about n
    # ulp for n = 12).  SciPy is 3e-3 off at z = -2 (for k = 12), so the
    # reference is mpmath's
    z = np.array([-0.9, 0.0, 0.5, 0.999, 1.0001, 1.5, 3.0, -2.0, 100.0, 1.0])
    q, dq = S.lqn(12, z)
    ref = np.array([_lqn_mp(12, v) for v in z[:-1]])       # (point, q/d, k)
    assert rel_err(q[:, :-1], ref[:, 0].T).max() < 2e-14
    assert rel_err(dq[:, :-1], ref[:, 1].T).max() < 1e-12
    qs, ds = sc.lqn(12, z)
    assert rel_err(q[:, :4], qs[:, :4]).max() < 1e-14
    # z = 1: SciPy's 1e300 for both
    assert (np.asarray(q[:, -1]) == qs[:, -1]).all()
    assert (np.asarray(dq[:, -1]) == ds[:, -1]).all()


@pytest.mark.slow
@pytest.mark.parametrize("d", [0, 1, 2])
def test_legendre_all_forms(d):
    z = Z[1:-1]
    assert rel_err(S.legendre_p_all(6, z, diff_n=d), sc.legendre_p_all(6, z, diff_n=d),
                   1.0).max() < 1e-14
    for norm in (False, True):
        a = S.assoc_legendre_p_all(5, 3, z, norm=norm, diff_n=d)
        r = sc.assoc_legendre_p_all(5, 3, z, norm=norm, diff_n=d)
        assert a.shape == r.shape
        assert rel_err(a, r, np.abs(r).max()).max() < 1e-14
    zo = np.array([1.1, 1.5, 3.0, -2.0])
    a = S.assoc_legendre_p_all(4, 2, zo, branch_cut=3, diff_n=d)
    r = sc.assoc_legendre_p_all(4, 2, zo, branch_cut=3, diff_n=d)
    assert rel_err(a, r, np.abs(np.nan_to_num(r)).max()).max() < 1e-14
    a = S.sph_legendre_p_all(4, 3, TH, diff_n=d)
    r = sc.sph_legendre_p_all(4, 3, TH, diff_n=d)
    assert a.shape == r.shape and rel_err(a, r, 1.0).max() < 1e-14
    n, m = np.array([3, 3, 4, 2, 6, 1]), np.array([1, -2, 0, 3, -5, 1])
    x = np.array([0.5, -0.2, 0.7, 0.1, 0.3, -0.8])
    assert rel_err(S.assoc_legendre_p(n, m, x, diff_n=d),
                   sc.assoc_legendre_p(n, m, x, diff_n=d), 1.0).max() < 1e-14
    th = TH[:6]
    assert rel_err(S.sph_legendre_p(n, m, th, diff_n=d),
                   sc.sph_legendre_p(n, m, th, diff_n=d), 1.0).max() < 1e-14
    if d == 0:
        # lqmn: the order recurrence from lqn's orders 0 and 1 (2e-14: it
        # cancels at z = -0.3 by ~10x)
        zq = np.array([0.5, 1.5, -0.3, 3.0, 1.0, -0.99, 1.01, -2.5])
        for a, r in zip(S.lqmn(4, 5, zq), sc.lqmn(4, 5, zq)):
            assert a.shape == r.shape and rel_err(a, r).max() < 2e-14


@pytest.mark.slow
def test_legendre_reverse_mode():
    # grad of the outputs (through the custom_jvp: the kernel's loop has no
    # reverse mode) equals the next derivative the function itself returns
    g = sciax.grad(lambda z: S.legendre_p(7, z, diff_n=1)[1])(0.3)
    assert abs(float(g) - float(S.legendre_p(7, 0.3, diff_n=2)[2])) < 1e-13
    g = sciax.grad(lambda t: S.sph_legendre_p(4, 2, t)[0])(0.8)
    assert abs(float(g) - float(S.sph_legendre_p(4, 2, 0.8, diff_n=1)[1])) < 1e-13
    g = sciax.grad(lambda z: S.assoc_legendre_p_all(3, 2, z).sum())(0.4)
    d1 = float(S.assoc_legendre_p_all(3, 2, 0.4, diff_n=1)[1].sum())
    assert abs(float(g) - d1) < 1e-12


# --- modified Fresnel integrals, besselpoly, Airy zeros ------------------------------

def _modfresnel_mp(x):
    """``int_x^inf exp(i t^2) dt = sqrt(pi)/2 e^(i pi/4) erfc(e^(-i pi/4) x)``
    and ``K+``, in mpmath at 30 digits."""
    with mpmath.workdps(30):
        f = (mpmath.sqrt(mpmath.pi) / 2 * mpmath.exp(1j * mpmath.pi / 4)
             * mpmath.erfc(mpmath.exp(-1j * mpmath.pi / 4) * x))
        k = f * mpmath.exp(-1j * (x * x + mpmath.pi / 4)) / mpmath.sqrt(mpmath.pi)
        return complex(f), complex(k)


def test_modfresnel_and_besselpoly():
    # against mpmath's erfc closed form, 1e-15 (4e-14 for K+ at -30: its
    # phase exp(-i x^2) at x^2 = 900); SciPy's fp is wrong for x < 0 (0.7
    # relative error), its kp agrees
    x = np.array([-30.0, -3.0, -1.3, -0.2, 0.0, 0.5, 1.0, 2.5, 10.0, 100.0])
    fp, kp = S.modfresnelp(x)
    ref = np.array([_modfresnel_mp(v) for v in x])
    assert rel_err(fp, ref[:, 0]).max() < 1e-15
    assert rel_err(kp, ref[:, 1]).max() < 4e-14
    fm, km = S.modfresnelm(x)
    assert (np.asarray(fm) == np.conj(fp)).all()
    assert (np.asarray(km) == np.conj(kp)).all()
    # besselpoly: SciPy's series (cephes), 1e-13 (the series for a = 5
    # cancels ~4 digits in both); a < 0 with integer order: mpmath's quad
    a = np.array([0.0, 0.5, 2.0, 5.0, 0.0, 1.0, -1.5])
    lmb = np.array([1.5, 0.0, 1.5, 0.5, 2.0, 0.0, 2.0])
    nu = np.array([0.5, 0.0, 0.5, 2.0, 0.0, -2.0, 1.0])
    got = np.asarray(S.besselpoly(a, lmb, nu))
    assert rel_err(got[:-1], sc.besselpoly(a, lmb, nu)[:-1]).max() < 1e-13
    ref = float(mpmath.quad(lambda t: t ** 2 * mpmath.besselj(1, -3.0 * t), [0, 1]))
    assert abs(got[-1] / ref - 1) < 1e-14


def test_airy_zeros_vs_mpmath():
    # mpmath's airyaizero/airybizero: ours to 1e-15 relative (SciPy's
    # specfun zeros are 1e-12 off, its Bi'(b) 1.4e-11); the values at the
    # zeros to 1e-13 of their size
    with mpmath.workdps(30):
        za = [mpmath.airyaizero(k) for k in range(1, 11)]
        zap = [mpmath.airyaizero(k, 1) for k in range(1, 11)]
        zb = [mpmath.airybizero(k) for k in range(1, 11)]
        zbp = [mpmath.airybizero(k, 1) for k in range(1, 11)]
        ref_a = [np.array([float(v) for v in z]) for z in (za, zap)]
        ref_a += [np.array([float(mpmath.airyai(v)) for v in zap]),
                  np.array([float(mpmath.airyai(v, 1)) for v in za])]
        ref_b = [np.array([float(v) for v in z]) for z in (zb, zbp)]
        ref_b += [np.array([float(mpmath.airybi(v)) for v in zbp]),
                  np.array([float(mpmath.airybi(v, 1)) for v in zb])]
    for got, ref in zip(S.ai_zeros(10) + S.bi_zeros(10), ref_a + ref_b):
        assert rel_err(got, ref).max() < 1e-13
    with pytest.raises(ValueError):
        S.ai_zeros(0)


@pytest.mark.slow
def test_erf_and_fresnel_zeros_vs_mpmath():
    # each zero against mpmath's findroot started from it at 30 digits:
    # 1e-14 relative (the residual |f(z)| of a double z is ~|f'(z)| eps |z|,
    # and |f'| grows like e^(pi x y) along the zeros); SciPy's within 1e-13
    def check(got, f, ref):
        got = np.asarray(got)
        with mpmath.workdps(30):
            mp = np.array([complex(mpmath.findroot(f, mpmath.mpc(z))) for z in got])
        assert (np.abs(got - mp) / np.abs(mp)).max() < 1e-14
        assert (np.abs(got - ref) / np.abs(ref)).max() < 1e-13

    check(S.erf_zeros(12), mpmath.erf, sc.erf_zeros(12))
    zs, zc = S.fresnel_zeros(12)
    rs, rc = sc.fresnel_zeros(12)
    check(zs, mpmath.fresnels, rs)
    check(zc, mpmath.fresnelc, rc)
    assert (np.asarray(S.fresnelc_zeros(12)) == np.asarray(zc)).all()


@pytest.mark.slow
def test_lmbda_vs_mpmath():
    # (slow: hyp0f1's program compiles for ~5 s)
    # lmbda: Lambda_n = 0F1(; n + 1; -x^2/4) in mpmath; relative to the
    # largest (Lambda oscillates through zeros for x = 15), 1e-14; SciPy
    # agrees at x = 1.3 to 1e-15
    vl, dl = S.lmbda(7.2, np.array([1.3, 15.0, 1e-8]))
    with mpmath.workdps(30):
        ref = np.array([[float(mpmath.hyp0f1(0.2 + k + 1, -v * v / 4))
                         for v in (1.3, 15.0, 1e-8)] for k in range(9)])
    assert rel_err(vl, ref[:8], np.abs(ref).max(axis=0)).max() < 1e-14
    dref = -np.array([1.3, 15.0, 1e-8]) / (2 * (np.arange(8)[:, None] + 1.2)) * ref[1:]
    assert rel_err(dl, dref, np.abs(ref).max(axis=0)).max() < 1e-14
    assert rel_err(S.lmbda(7.2, 1.3)[0], sc.lmbda(7.2, 1.3)[0]).max() < 1e-15
