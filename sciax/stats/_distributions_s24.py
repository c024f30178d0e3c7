"""Session-24 distributions: ``rv_histogram``, ``kstwo``, ``levy_stable`` and
``landau``.

Each is SciPy's distribution (names, shapes, parametrisation).  ``kstwo``
follows Simard and L'Ecuyer's choice of method by region (as SciPy's
``kolmogn``), with the Durbin matrix in place of Pomeranz's recursion where
SciPy uses that (both exact); ``levy_stable`` and ``landau`` (a stable law
with ``alpha = beta = 1``) integrate Nolan's real integral representation
with a fixed-node tanh-sinh rule split at the integrand's peak.  Everything
stays jittable and differentiable; quantiles without a closed form come from
the base class's bracketing solver (``_NumericQuantile``).
"""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.random
import sciax.special
from sciax import lax

from sciax.stats._continuous_more import _NumericQuantile
from sciax.stats._continuous_s23 import _DE_U, _DE_V, _DE_W
from sciax.stats._distn_base import _stats_from_raw, rv_continuous
from sciax.stats._multivariate_s10 import (_bartlett, _logdet_chol, _multigammaln,
                                           _whitened, matrix_normal_gen)

_INF = math.inf
_NAN = math.nan
_PI = math.pi
_LOG_2PI = math.log(2.0 * math.pi)


# --- rv_histogram --------------------------------------------------------------------


class rv_histogram(rv_continuous):
    """sciax implementation of :class:`scipy.stats.rv_histogram`: the
    piecewise-uniform distribution of a histogram.

    Parameters
    ----------
    histogram : tuple of array_like
        ``(counts, bin_edges)``, ``n`` values and ``n + 1`` increasing edges
        (what :func:`numpy.histogram` returns).
    density : bool, optional
        False: the values are counts per bin (divided by the bin widths);
        True: they are proportional to a density.  None (default): True, with
        a ``RuntimeWarning`` if the bin widths vary (as SciPy).

    Notes
    -----
    The histogram is host data, fixed when the object is made; every method
    is jittable and differentiable in ``x`` (and in ``loc`` and ``scale``):
    the CDF is the piecewise-linear interpolation of the cumulative bin
    masses, its quantile the inverse interpolation, moments and entropy the
    exact sums over the bins.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax.stats import rv_histogram
    >>> d = rv_histogram((np.array([1.0, 3.0]), np.array([0.0, 1.0, 2.0])))
    >>> float(d.cdf(1.5)), float(d.ppf(0.25)), float(d.mean())
    (0.625, 1.0, 1.25)
    """

    _nan_passes = False

    def __init__(self, histogram, *args, density=None, **kwargs):
        super().__init__()
        if args or kwargs:
            raise TypeError("rv_histogram takes the histogram and `density` only "
                            f"(got {len(args)} more positional and "
                            f"{sorted(kwargs)} keyword arguments)")
        if len(histogram) != 2:
            raise ValueError("Expected length 2 for parameter histogram")
        hpdf = np.asarray(histogram[0], dtype=float)
        bins = np.asarray(histogram[1], dtype=float)
        if hpdf.ndim != 1 or bins.ndim != 1 or len(hpdf) + 1 != len(bins):
            raise ValueError("Number of elements in histogram content and histogram "
                             "boundaries do not match, expected n and n+1.")
        widths = np.diff(bins)
        if len(hpdf) == 0 or np.any(widths <= 0) or np.any(hpdf < 0):
            raise ValueError("rv_histogram needs at least one bin, increasing bin "
                             "edges and non-negative values")
        if density is None and not np.allclose(widths, widths[0]):
            warnings.warn("Bin widths are not constant. Assuming `density=True`."
                          "Specify `density` explicitly to silence this warning.",
                          RuntimeWarning, stacklevel=2)
        elif not density:
            hpdf = hpdf / widths
        hpdf = hpdf / float(np.sum(hpdf * widths))
        self._histogram, self._density = histogram, density
        self._hbins, self._hwidths, self._hdens = bins, widths, hpdf
        self._hcdf = np.concatenate([[0.0], np.cumsum(hpdf * widths)])
        self.a, self.b = float(bins[0]), float(bins[-1])
        self.name = "rv_histogram"

    def _bin(self, x):
        """The bin of ``x`` (clipped to the first and last)."""
        n = len(self._hdens)
        i = snp.searchsorted(snp.asarray(self._hbins), x, side="right") - 1
        return snp.clip(i, 0, n - 1)

    def _pdf(self, x):
        return snp.asarray(self._hdens)[self._bin(x)]

    def _logpdf(self, x):
        return snp.log(self._pdf(x))

    def _cdf(self, x):
        i = self._bin(x)
        c = snp.asarray(self._hcdf)[i] + snp.asarray(self._hdens)[i] * (
            x - snp.asarray(self._hbins)[i])
        return snp.clip(c, 0.0, 1.0)

    def _sf(self, x):
        return 1.0 - self._cdf(x)

    def _ppf(self, q):
        # the last edge whose cumulative mass is <= q: an empty bin (flat
        # CDF) is stepped over, as numpy.interp does
        n = len(self._hdens)
        cdf = snp.asarray(self._hcdf)
        j = snp.clip(snp.searchsorted(cdf, q, side="right") - 1, 0, n - 1)
        mass = cdf[j + 1] - cdf[j]
        frac = snp.where(mass > 0, (q - cdf[j]) / snp.where(mass > 0, mass, 1.0), 0.0)
        return snp.asarray(self._hbins)[j] + frac * snp.asarray(self._hwidths)[j]

    def _isf(self, q):
        return self._ppf(1.0 - q)

    def _quantile(self, u, v):
        return self._ppf(u)

    def _munp(self, n):
        b = self._hbins
        integrals = (b[1:] ** (n + 1) - b[:-1] ** (n + 1)) / (n + 1)
        return float(np.sum(self._hdens * integrals))

    def _entropy(self):
        h = self._hdens
        return float(-np.sum(np.where(h > 0, h * np.log(np.where(h > 0, h, 1.0)), 0.0)
                             * self._hwidths))

    def _fitstart(self, data):
        return ()

    def __repr__(self):
        return f"<sciax.stats.rv_histogram with {len(self._hdens)} bins>"


# --- kstwo ---------------------------------------------------------------------------

# Durbin's matrix H^n is taken at one of two sizes: 47 covers every case
# SciPy sends to an exact method for n <= 7060 (n <= 140: n x^2 <= 4, k =
# ceil(n x) <= 24; above: n x^1.5 <= 1.4), 117 the rest up to n = 10^5
_KS_M_SMALL = 47
_KS_M_BIG = 117
_KS_BITS = 17                      # n <= 10^5 < 2^17 for the matrix method
_STIRLING = np.array([-2.955065359477124183e-2, 6.4102564102564102564e-3,
                      -1.9175269175269175269e-3, 8.4175084175084175084e-4,
                      -5.952380952380952381e-4, 7.9365079365079365079e-4,
                      -2.7777777777777777778e-3, 8.3333333333333333333e-2])


# log(n!) for n <= 256 (host constants: lookups compile to nothing, where
# gammaln's series is most of the program)
_LOG_FACT = np.array([math.lgamma(j + 1.0) for j in range(257)])


def _log_nfact_over_npow(n):
    """``log(n! / n^n)``: a table up to 140, Stirling's series above (its
    ``-n`` exact, so no cancellation of two large logarithms)."""
    small = n <= 140
    ns = snp.where(small, n, 1.0)
    nl = snp.where(small, 200.0, n)
    rn = 1.0 / nl
    poly = snp.zeros_like(nl)
    for c in _STIRLING:
        poly = poly * (rn / nl) + c
    big = 0.5 * snp.log(nl) - nl + 0.5 * _LOG_2PI + rn * poly
    table = snp.asarray(_LOG_FACT)[ns.astype("int32")] - ns * snp.log(ns)
    return snp.where(small, table, big)


def _durbin_one(n, x, size):
    """``P(D_n < x)`` for scalar ``n, x`` by Durbin's matrix (Marsaglia, Tsang
    and Wang's form): ``n!/n^n (H^n)_{kk}`` with ``k = ceil(n x)``, ``m = 2k -
    1 <= size`` (the ``m x m`` matrix sits in a ``size x size`` one, zero
    outside, so its powers do too).  ``n!/n^n`` is folded into ``H`` as its
    ``n``-th root, which keeps the powers bounded; ``H^n`` by squaring over
    17 bits."""
    nd = n * x
    # (k and m piecewise constant: no tangent, so that the powers h^m and
    # max(2h - 1, 0)^m have no log(0) term in their derivatives at h = 0)
    k = lax.stop_gradient(snp.ceil(nd))
    h = k - nd
    m = 2.0 * k - 1.0
    r = snp.arange(size, dtype=x.dtype)
    inv_fact = np.exp(-_LOG_FACT[:size + 2])
    # column 0 (and, reversed, row m-1): (1 - h^(j+1)) / (j+1)!, the last
    # (1 - 2 h^m + max(0, 2h-1)^m) / m!
    v = (1.0 - h ** (r + 1.0)) * snp.asarray(inv_fact[1:size + 1])
    last = (1.0 + snp.maximum(2.0 * h - 1.0, 0.0) ** m - 2.0 * h**m) * snp.asarray(
        inv_fact)[snp.clip(m, 0, size + 1).astype("int32")]
    v = snp.where(r == m - 1.0, last, v)
    row, col = r[:, None], r[None, :]
    # below the first superdiagonal: 1/(row - col + 1)!, a constant
    d = np.arange(size)[:, None] - np.arange(size)[None, :] + 1
    body = snp.asarray(np.where(d >= 0, inv_fact[np.clip(d, 0, size + 1)], 0.0))
    vrev = v[snp.clip(m - 1.0 - r, 0, size - 1).astype("int32")]
    H = snp.where(col == 0, v[:, None], snp.where(row == m - 1.0, vrev[None, :], body))
    H = snp.where((row < m) & (col < m), H, 0.0)
    H = H * snp.exp(_log_nfact_over_npow(n) / n)
    bits = n.astype("int32")

    def step(i, c):
        P, A = c
        P = snp.where(((bits >> i) & 1) == 1, P @ A, P)
        # squaring stops with n's bits: H^(2^17) overflows, and a masked inf
        # turns reverse mode's zero cotangent into NaN
        return P, snp.where((bits >> (i + 1)) > 0, A @ A, A)

    P, _ = lax.fori_loop(0, _KS_BITS, step, (snp.eye(size, dtype=x.dtype), H))
    kk = (k - 1.0).astype("int32")
    return P[kk, kk]


def _durbin(n, x):
    """:func:`_durbin_one` over arrays, at the small size unless an element
    needs the big one."""
    shape = snp.shape(x)
    nf, xf = n.reshape(-1), x.reshape(-1)
    big = snp.any(2.0 * snp.ceil(nf * xf) - 1.0 > _KS_M_SMALL)
    def at(size):
        return lambda a, b: sciax.vmap(lambda c, d: _durbin_one(c, d, size))(a, b)

    out = lax.cond(big, at(_KS_M_BIG), at(_KS_M_SMALL), nf, xf)
    return out.reshape(shape)


def _pelz_good(n, x):
    """Pelz and Good's (1976) expansion of ``P(D_n <= x)`` (as SciPy's
    ``_kolmogn_PelzGood``: the same terms, ``ceil(16 z / pi)`` of each sum,
    masked here to a fixed 24)."""
    z = snp.sqrt(n) * x
    z2, z3, z4, z6 = z * z, z**3, z**4, z**6
    q = snp.exp(-_PI**2 / 8.0 / z2)
    pi2, pi4, pi6 = _PI**2, _PI**4, _PI**6
    k1a, k1b = -z2, pi2 / 4.0
    k2a = 6 * z6 + 2 * z4
    k2b = (2 * z4 - 5 * z2) * pi2 / 4.0
    k2c = pi4 * (1 - 2 * z2) / 16.0
    k3d = pi6 * (5 - 30 * z2) / 64.0
    k3c = pi4 * (-60 * z2 + 212 * z4) / 16.0
    k3b = pi2 * (135 * z4 - 96 * z6) / 4.0
    k3a = -30 * z6 - 90 * z**8
    maxk = snp.ceil(16.0 * z / _PI)
    ks = snp.arange(1.0, 25.0).reshape((-1,) + (1,) * snp.ndim(z))
    on = ks <= maxk
    mo = 2.0 * ks - 1.0
    # sum_k c_k q^((2k-1)^2) = q * sum_k c_k q^(4k(k-1))
    w = snp.where(on, snp.exp(4.0 * ks * (ks - 1.0) * snp.log(q)), 0.0)
    K0 = snp.sum(w, axis=0)
    K1 = snp.sum(w * (k1a + k1b * mo**2), axis=0)
    K2 = snp.sum(w * (k2a + k2b * mo**2 + k2c * mo**4), axis=0)
    K3 = snp.sum(w * (k3a + k3b * mo**2 + k3c * mo**4 + k3d * mo**6), axis=0)
    c = q * math.sqrt(2.0 * _PI)
    K0, K1 = c * K0 / z, c * K1 / (6.0 * z4)
    K2, K3 = c * K2 / (72.0 * z**7), c * K3 / (6480.0 * z**10)
    q2 = snp.exp(-pi2 / 2.0 / z2)
    w2 = snp.where(on, snp.exp(ks * ks * snp.log(q2)), 0.0)
    K2 = K2 + snp.sum(ks**2 * w2, axis=0) * pi2 * math.sqrt(2 * _PI) / (-36.0 * z3)
    s3 = snp.sum((math.sqrt(3.0) * z + _PI * ks) * (math.sqrt(3.0) * z - _PI * ks)
                 * ks**2 * w2, axis=0)
    K3 = K3 + s3 * pi2 * math.sqrt(2 * _PI) / (216.0 * z6)
    return K0 + K1 / snp.sqrt(n) + K2 / n + K3 / n**1.5


def _kstwo_tails(x, n):
    """``(cdf, sf)`` of ``D_n`` on ``1/(2n) < x < 1`` by SciPy's regions:
    Ruben and Gambino's closed forms for ``n x <= 1`` and ``n x >= n - 1``,
    ``2 smirnov`` for ``x >= 1/2`` (exact) and in the far tail, Durbin's
    matrix (exact) where SciPy takes it or Pomeranz's recursion, Pelz and
    Good's expansion for large ``n``."""
    x, n = snp.broadcast_arrays(x, n)
    t = n * x
    nx2 = t * x
    # Ruben-Gambino: n!/n^n (2t - 1)^n, and 1 - 2 (1 - x)^n
    low = t <= 1.0
    on = low & (t > 0.5)
    rg = snp.where(on, snp.exp(_log_nfact_over_npow(n)
                               + n * snp.log(snp.where(on, 2 * t - 1, 1.0))), 0.0)
    high = t >= n - 1.0
    rg_hi = 2.0 * (1.0 - x) ** n
    sm = 2.0 * sciax.special.smirnov(n, snp.where(high | low, 0.5, x))
    small_n = n <= 140
    exact = snp.where(small_n, nx2 <= 4.0,
                      (n <= 100000) & (n * x**1.5 <= 1.4) & (nx2 < 18.0))
    exact = exact & ~low & ~high & (x < 0.5)
    # the matrix method where it is wanted (a safe point elsewhere)
    dm = _durbin(snp.where(exact, n, 1.0), snp.where(exact, x, 0.75))
    pg_on = ~small_n & ~exact & (nx2 < 18.0) & ~low & ~high & (x < 0.5)
    pg = _pelz_good(snp.where(pg_on, n, 1000.0), snp.where(pg_on, x, 0.05))
    # 2 smirnov: n <= 140 above n x^2 = 4, and the sf above n x^2 = 2.2
    sm_cdf = (x >= 0.5) | (small_n & ~exact)
    sm_sf = sm_cdf | (~small_n & (nx2 >= 2.2))
    cdf_mid = snp.where(exact, dm, snp.where(sm_cdf, 1.0 - sm,
                                             snp.where(nx2 >= 18.0, 1.0, pg)))
    sf_mid = snp.where(exact, 1.0 - dm, snp.where(sm_sf, sm, 1.0 - pg))
    sf_mid = snp.where(~small_n & (nx2 >= 370.0) & (x < 0.5), 0.0, sf_mid)
    cdf = snp.where(low, rg, snp.where(high, 1.0 - rg_hi, cdf_mid))
    sf = snp.where(low, 1.0 - rg, snp.where(high, rg_hi, sf_mid))
    # (clipped by selects: clip's derivative is 1/2 at a tie, and the
    # density is this CDF's derivative)
    return (snp.where(cdf < 0, 0.0, snp.where(cdf > 1, 1.0, cdf)),
            snp.where(sf < 0, 0.0, snp.where(sf > 1, 1.0, sf)))


def _ks_pieces(fn, n):
    """The integrals over ``D_n``'s support of the functions ``fn(x)`` returns
    (a tuple), by the tanh-sinh rule on each ``[j/(2n), (j+1)/(2n)]`` between
    the density's kinks, up to where the upper tail (``< 2 e^{-2 n x^2}``) is
    below 1e-17 of the total."""
    count = snp.minimum(2.0 * n - 1.0, snp.ceil(2.0 * n * snp.sqrt(21.0 / n)))
    width = 0.5 / n
    u = snp.asarray(_DE_U).reshape((-1,) + (1,) * snp.ndim(n))
    v = snp.asarray(_DE_V).reshape(u.shape)
    w = snp.asarray(_DE_W).reshape(u.shape)

    def body(j, acc):
        jj = j.astype(n.dtype) + 1.0
        x = snp.where(u <= 0.5, jj + u, jj + 1.0 - v) * width
        on = (w > 0) & (jj <= count)
        return tuple(a + snp.sum(snp.where(on, w * f, 0.0), axis=0) * width
                     for a, f in zip(acc, fn(x)))

    zero = snp.zeros(snp.shape(n), n.dtype)
    nout = len(fn(snp.full((1,) + snp.shape(n), 0.75, n.dtype)))
    return lax.fori_loop(0, snp.max(count).astype("int32"), body, (zero,) * nout)


class kstwo_gen(_NumericQuantile, rv_continuous):
    r"""sciax implementation of :data:`scipy.stats.kstwo`: the law of the
    two-sided Kolmogorov-Smirnov statistic ``D_n`` for a sample of size
    ``n`` (a positive integer), on ``[1/(2n), 1]``.

    Notes
    -----
    The CDF and SF take SciPy's method in each region (Simard and L'Ecuyer,
    2011): Ruben and Gambino's closed forms for ``n x <= 1`` and ``n x >= n
    - 1``, ``2 smirnov(n, x)`` for ``x >= 1/2`` and in the upper tail, the
    exact Durbin matrix ``n!/n^n (H^n)_{kk}`` where SciPy uses it or
    Pomeranz's recursion (also exact), and Pelz and Good's expansion for
    ``n > 140`` beyond the matrix method's range.  The density is the exact
    derivative of the smaller tail (SciPy differentiates its CDF numerically
    in the middle range, 3e-3 off at ``sf = 1e-6`` for ``n = 141``);
    quantiles by the bracketing solver, moments and entropy by the tanh-sinh
    rule between the density's kinks at ``j/(2n)``.  ``n`` above
    ``10^5`` takes the expansion everywhere in the middle range (as SciPy).

    Examples
    --------
    >>> from sciax.stats import kstwo
    >>> round(float(kstwo.cdf(0.3, 10)), 10)
    0.7294644252
    """

    name, shapes = "kstwo", ("n",)
    a, b = 0.0, 1.0
    _support_depends_on_shapes = True

    def _argcheck(self, n):
        return snp.asarray((n >= 1) & (n == snp.floor(n)))

    def _support(self, n):
        return 0.5 / n, 1.0

    def _cdf(self, x, n):
        return _kstwo_tails(x, n)[0]

    def _sf(self, x, n):
        return _kstwo_tails(x, n)[1]

    def _one_tail(self, x, upper, n):
        c, s = _kstwo_tails(x, n)
        return snp.where(upper, s, c)

    def _pdf(self, x, n):
        x, n = snp.broadcast_arrays(x, n)
        # the derivative of the smaller tail: in the upper one the SF (2
        # smirnov) is the accurate side, the CDF a Pelz-Good expansion or 1
        (c, sf), (dc, dsf) = sciax.jvp(lambda v: _kstwo_tails(v, n), (x,),
                                       (snp.ones_like(x),))
        return snp.maximum(snp.where(sf < c, -dsf, dc), 0.0)

    def _quantile_guess(self, u, v, n):
        g = sciax.special.kolmogi(snp.clip(v, 1e-300, 1.0)) / snp.sqrt(n)
        return snp.clip(g, 0.5 / n + 1e-3 / n, 1.0 - 1e-12)

    def _munp(self, k, n):
        return _ks_pieces(lambda x: (x**k * self._pdf(x, n),), n)[0]

    def _stats(self, n):
        # the four raw moments in one pass over the pieces
        def f(x):
            p = self._pdf(x, n)
            return tuple(x**k * p for k in (1, 2, 3, 4))

        m = _ks_pieces(f, n)
        return _stats_from_raw(list(m))

    def _entropy(self, n):
        def f(x):
            p = self._pdf(x, n)
            return (-p * snp.log(snp.where(p > 0, p, 1.0)),)

        return _ks_pieces(f, n)[0]

    def _fitstart(self, data):
        return (10.0,)


# --- levy_stable and landau -----------------------------------------------------------

# the cuts: log g = -40 (g e^-g < e^-40) at the small-g end, g = 60 (e^-g <
# 1e-26) at the large-g end, each relative to the peak where g does not
# reach 1
_STABLE_LOG_SMALL = -40.0
_STABLE_BISECT = 60


def _stable_setup(x, alpha, beta):
    """Nolan's S0 quantities for ``x > zeta`` (``alpha != 1``) or ``beta > 0``
    (``alpha == 1``), with the inputs reflected by the caller: ``(xi, log g,
    c2)`` with ``log g(theta)`` the log of the integrand's ``g`` on
    ``(-xi, pi/2)``."""
    one = alpha == 1.0
    am1 = snp.where(one, 0.5, alpha - 1.0)
    zeta = -beta * snp.tan(0.5 * _PI * snp.where(one, 0.5, alpha))
    xi = snp.where(one, 0.5 * _PI, snp.arctan(-zeta) / snp.where(one, 1.0, alpha))
    bs = snp.where(one & (beta != 0), beta, 1.0)
    dx = snp.where(one, 1.0, snp.maximum(x - zeta, 1e-300))
    lx = alpha / am1 * snp.log(dx)
    lcax = snp.log(snp.cos(alpha * xi)) / am1

    # the formulas are 0/0 at the ends: a node that rounds onto one takes
    # the value 1e-12 of the width inside (its weight is negligible)
    edge = 1e-12 * (0.5 * _PI + xi)

    def log_g(th):
        th = snp.clip(th, -xi + edge, 0.5 * _PI - edge)
        c = snp.cos(th)
        lc = snp.log(snp.maximum(c, 1e-300))
        # alpha != 1: V = cos(a xi)^(1/(a-1)) (cos t / sin a(xi+t))^(a/(a-1))
        #                 cos(a xi + (a-1) t) / cos t
        s_ = snp.sin(alpha * (xi + th))
        lv = (lcax + alpha / am1 * (lc - snp.log(snp.maximum(s_, 1e-300)))
              + snp.log(snp.maximum(snp.cos(alpha * xi + am1 * th), 1e-300)) - lc)
        # alpha == 1: V = 2/pi (pi/2 + b t)/cos t exp((pi/2 + b t) tan t / b)
        pb = 0.5 * _PI + bs * th
        lv1 = (math.log(2.0 / _PI) + snp.log(snp.maximum(pb, 1e-300)) - lc
               + pb * snp.tan(th) / bs)
        return snp.where(one, -0.5 * _PI * x / bs + lv1, lx + lv)

    c2 = snp.where(one, 0.5 / snp.abs(bs), alpha / (_PI * snp.abs(am1) * dx))
    return xi, log_g, c2


def _stable_integrals(x, alpha, beta):
    """``(P, I1, I2)``: ``int g e^-g``, ``int e^-g`` and ``int (1 - e^-g)``
    over ``(-xi, pi/2)`` by the tanh-sinh rule on the two sides of the peak
    ``g = 1``, each cut where ``g e^-g`` is below ``e^-40`` (``log g``
    is monotone: increasing for ``alpha <= 1``), the pieces beyond counted
    as ``e^-g = 1`` or ``0``.  The cut points are found by bisection
    (outside the derivative: the integrand is continuous at the split and
    negligible at the cuts)."""
    xi, log_g, c2 = _stable_setup(x, alpha, beta)
    inc = alpha <= 1.0
    lo0, hi0 = -xi, snp.full(snp.shape(xi), 0.5 * _PI)
    los, his = lax.stop_gradient(lo0), lax.stop_gradient(hi0)
    log_gs = _stable_setup(*(lax.stop_gradient(v) for v in (x, alpha, beta)))[1]

    def bisect(level):
        def step(_, c):
            lo, hi = c
            m = 0.5 * (lo + hi)
            below = log_gs(m) < level
            go_right = below == inc
            return snp.where(go_right, m, lo), snp.where(go_right, hi, m)

        lo, hi = lax.fori_loop(0, _STABLE_BISECT, step, (los, his))
        return 0.5 * (lo + hi)

    # ends: the small-g end is -xi when increasing (differentiable in xi)
    end_small = snp.where(inc, lo0, hi0)
    end_big = snp.where(inc, hi0, lo0)
    # where g does not reach 0 or infinity at an end (alpha > 1 far out,
    # g >= g_min > 1), the cuts are relative to the peak there
    # (log g's limits at the ends, from 1e-9 of the width inside: the
    # formula is 0/0 at an end)
    inward = 1e-9 * (his - los)
    lg_small_end = log_gs(snp.where(inc, los + inward, his - inward))
    lg_big_end = log_gs(snp.where(inc, his - inward, los + inward))
    small_level = snp.minimum(_STABLE_LOG_SMALL, lg_big_end + _STABLE_LOG_SMALL)
    g_small_end = snp.exp(snp.minimum(lg_small_end, 700.0))
    big_level = snp.log(snp.maximum(60.0, g_small_end + 46.0))
    t_small, t_star, t_big = (bisect(v) for v in (small_level, 0.0, big_level))
    # a level that g does not cross: the cut is the end itself
    at_small = lg_small_end >= small_level
    at_big = lg_big_end <= big_level
    a = snp.where(at_small, end_small, t_small)
    b = snp.where(at_big, end_big, t_big)
    axis = (-1,) + (1,) * snp.ndim(xi)
    u, v, w = (snp.asarray(c).reshape(axis) for c in (_DE_U, _DE_V, _DE_W))
    out = [0.0, 0.0, 0.0]
    for p, q in ((a, t_star), (t_star, b)):
        width = q - p
        th = snp.where(u <= 0.5, p + width * u, q - width * v)
        lg = log_g(th)
        g = snp.exp(snp.minimum(lg, 700.0))
        ok = w > 0
        ww = w * snp.abs(width)
        out[0] = out[0] + snp.sum(snp.where(ok, ww * snp.exp(lg - g), 0.0), axis=0)
        out[1] = out[1] + snp.sum(snp.where(ok, ww * snp.exp(-g), 0.0), axis=0)
        out[2] = out[2] + snp.sum(snp.where(ok, ww * -snp.expm1(-g), 0.0), axis=0)
    out[1] = out[1] + snp.abs(a - end_small)
    out[2] = out[2] + snp.abs(end_big - b)
    return c2 * out[0], out[1], out[2], xi


def _stable_s0(x0, alpha, beta):
    """``(pdf, cdf, sf)`` of the standard S0 stable law (Nolan, 1997): the
    inputs reflected to ``x0 > zeta`` (``beta > 0`` for ``alpha = 1``),
    Cauchy's closed forms at ``alpha = 1, beta = 0`` and the value at
    ``x0 = zeta`` by Nolan's formula."""
    one = alpha == 1.0
    zeta = snp.where(one, 0.0, -beta * snp.tan(0.5 * _PI * snp.where(one, 0.5, alpha)))
    flip = snp.where(one, beta < 0, x0 < zeta)
    xr = snp.where(flip, -x0, x0)
    br = snp.where(flip, -beta, beta)
    cauchy = one & (beta == 0)
    at_zeta = ~one & (x0 == zeta)
    safe = cauchy | at_zeta
    xs = snp.where(safe, snp.where(one, 1.0, -zeta + 1.0), xr)
    bs = snp.where(cauchy, 1.0, snp.where(at_zeta, -beta, br))
    pdf, i1, i2, xi = _stable_integrals(xs, alpha, bs)
    # Nolan: F = c1 + sign(1 - a)/pi int e^-g, c1 = 1/2 - xi/pi (a < 1), 1
    # (a > 1), 0 (a = 1); written with the complementary integral where
    # that is the small one
    lt1 = alpha < 1.0
    c1 = snp.where(lt1, 0.5 - xi / _PI, snp.where(one, 0.0, 1.0))
    cdf_r = snp.where(lt1 | one, c1 + i1 / _PI, 0.5 - xi / _PI + i2 / _PI)
    sf_r = snp.where(lt1 | one, i2 / _PI, i1 / _PI)
    cdf = snp.where(flip, sf_r, cdf_r)
    sf = snp.where(flip, cdf_r, sf_r)
    # x0 = zeta, alpha != 1 (xi at the original beta)
    xiz = snp.arctan(-zeta) / snp.where(one, 1.0, alpha)
    pz = (snp.exp(sciax.special.gammaln(1.0 + 1.0 / alpha)) * snp.cos(xiz)
          / (_PI * (1.0 + zeta**2) ** (0.5 / alpha)))
    pdf = snp.where(at_zeta, pz, pdf)
    cdf = snp.where(at_zeta, 0.5 - xiz / _PI, cdf)
    sf = snp.where(at_zeta, 0.5 + xiz / _PI, sf)
    xc = snp.where(cauchy, x0, 0.0)
    pdf = snp.where(cauchy, 1.0 / (_PI * (1.0 + xc * xc)), pdf)
    cdf = snp.where(cauchy, 0.5 + snp.arctan(xc) / _PI, cdf)
    sf = snp.where(cauchy, 0.5 - snp.arctan(xc) / _PI, sf)
    return pdf, snp.clip(cdf, 0.0, 1.0), snp.clip(sf, 0.0, 1.0)


def _stable_s1(x, alpha, beta):
    """:func:`_stable_s0` at SciPy's S1 argument (``x0 = x + zeta`` for
    ``alpha != 1``)."""
    one = alpha == 1.0
    zeta = -beta * snp.tan(0.5 * _PI * snp.where(one, 0.5, alpha))
    return _stable_s0(snp.where(one, x, x + zeta), alpha, beta)


def _stable_rvs(key, shape, dtype, alpha, beta):
    """Chambers, Mallows and Stuck's (1976) variates in S1 (SciPy's
    ``_rvs_Z1``)."""
    k1, k2 = sciax.random.split(key)
    th = sciax.random.uniform(k1, shape, dtype, -0.5 * _PI, 0.5 * _PI)
    w = sciax.random.exponential(k2, shape, dtype)
    one = alpha == 1.0
    a = snp.where(one, 0.5, alpha)
    cos, tan = snp.cos(th), snp.tan(th)
    pb = 0.5 * _PI + beta * th
    r1 = 2.0 / _PI * (pb * tan - beta * snp.log(0.5 * _PI * w * cos / pb))
    val0 = beta * snp.tan(0.5 * _PI * a)
    th0 = snp.arctan(val0) / a
    at = a * th
    r = (w / (cos / snp.tan(a * (th0 + th)) + snp.sin(th))
         * ((snp.cos(at) + snp.sin(at) * tan - val0 * (snp.sin(at) - snp.cos(at) * tan))
            / w) ** (1.0 / a))
    return snp.where(one, r1, r)


class levy_stable_gen(_NumericQuantile, rv_continuous):
    r"""sciax implementation of :data:`scipy.stats.levy_stable`: the stable
    law with index ``0 < alpha <= 2`` and skewness ``-1 <= beta <= 1`` in
    SciPy's default S1 parametrisation (Nolan's ``S``).

    Notes
    -----
    Density and CDF by Nolan's (1997) integral representation (SciPy's
    ``'piecewise'`` method): the integral of ``g e^{-g}`` (density) and of
    ``e^{-g}`` or ``1 - e^{-g}`` (each tail from the integral that does not
    cancel) over ``theta in (-xi, pi/2)``, by the tanh-sinh rule on both
    sides of the peak ``g = 1`` with cuts where the integrand is below
    ``e^-40``.  SciPy rounds ``|alpha - 1| < 0.005`` to 1 and ``x`` within
    ``0.005 alpha^(1/alpha)`` of ``zeta`` to ``zeta``; sciax does not (the
    formulas are used as they are, so values differ from SciPy's there).
    At ``alpha = 1`` in S1 a ``scale`` other than 1 shifts ``loc`` by ``2
    beta scale log(scale)/pi`` (as SciPy).  Far in a power-law tail the peak
    of the integrand moves to within ``|x|^-1`` of ``pi/2``, where ``cos``
    has only absolute precision: at ``alpha = 1`` the density is 1e-5
    relative off at ``|x| = 1e6`` (SciPy's is wrong by a factor 0.37 from
    ``|x| = 1e3``).  Quantiles by the bracketing
    solver; variates by Chambers, Mallows and Stuck (1976), as SciPy.
    Not supported: SciPy's ``parameterization = "S0"`` switch and its other
    ``pdf_default_method``\ s (``'dni'``, ``'fft-simpson'``), and fitting.

    Examples
    --------
    >>> from sciax.stats import levy_stable
    >>> round(float(levy_stable.pdf(0.5, 1.5, 0.3)), 10)
    0.2243991555
    """

    name, shapes = "levy_stable", ("alpha", "beta")

    def _argcheck(self, alpha, beta):
        return snp.asarray((alpha > 0) & (alpha <= 2) & (beta >= -1) & (beta <= 1))

    def _split(self, a):
        s, loc, scale, valid, lo, hi = super()._split(a)
        alpha, beta = s
        sc = snp.where(scale > 0, scale, 1.0)
        loc = loc + snp.where(alpha == 1.0, 2.0 * beta * scale * snp.log(sc) / _PI, 0.0)
        return s, loc, scale, valid, lo, hi

    def _pdf(self, x, alpha, beta):
        return _stable_s1(x, alpha, beta)[0]

    def _cdf(self, x, alpha, beta):
        return _stable_s1(x, alpha, beta)[1]

    def _sf(self, x, alpha, beta):
        return _stable_s1(x, alpha, beta)[2]

    def _one_tail(self, x, upper, alpha, beta):
        _, c, s = _stable_s1(x, alpha, beta)
        return snp.where(upper, s, c)

    def _rvs(self, key, shape, dtype, alpha, beta):
        return _stable_rvs(key, shape, dtype, alpha, beta)

    def _stats(self, alpha, beta):
        two = alpha == 2.0
        return (snp.where(alpha > 1, 0.0, _NAN), snp.where(two, 2.0, _INF),
                snp.where(two, 0.0, _NAN), snp.where(two, 0.0, _NAN))

    def _entropy(self, alpha, beta):
        def f(x):
            p = self._pdf(x, alpha, beta)
            return snp.log(snp.where(p > 0, p, 1.0))

        return -self._expect_u(f, alpha, beta)

    def _fitstart(self, data):
        return (1.5, 0.0)


class landau_gen(_NumericQuantile, rv_continuous):
    r"""sciax implementation of :data:`scipy.stats.landau`: Landau's
    distribution, ``p(x) = (1/pi) int_0^inf e^{-t log t - x t} sin(pi t) dt``.

    Notes
    -----
    SciPy's Landau law is the standard stable law with ``alpha = beta = 1``
    (S1), so its density and CDF here are Nolan's integrals of
    :data:`levy_stable` (SciPy evaluates Boost's rational approximations);
    quantiles by the bracketing solver, variates by Chambers, Mallows and
    Stuck's formula (as SciPy).  Mean and higher moments do not exist (NaN);
    the entropy is SciPy's constant.

    Examples
    --------
    >>> from sciax.stats import landau
    >>> round(float(landau.pdf(0.5)), 10)
    0.2123184677
    """

    name = "landau"

    @staticmethod
    def _s0(x):
        # (S1 = S0 at alpha = 1)
        return _stable_s0(x, snp.ones_like(x), snp.ones_like(x))

    def _pdf(self, x):
        return self._s0(x)[0]

    def _cdf(self, x):
        return self._s0(x)[1]

    def _sf(self, x):
        return self._s0(x)[2]

    def _one_tail(self, x, upper):
        _, c, s = self._s0(x)
        return snp.where(upper, s, c)

    def _stats(self):
        return _NAN, _NAN, _NAN, _NAN

    def _munp(self, n):
        return _NAN

    def _entropy(self):
        return 2.37263644000448182

    def _rvs(self, key, shape, dtype):
        one = snp.ones(shape, dtype)
        return _stable_rvs(key, shape, dtype, one, one)

    def _fitstart(self, data):
        return ()


# --- random-matrix samplers ---------------------------------------------------------


def _haar_q(key, dim, n, dtype, complex_):
    """``n`` Haar-distributed orthogonal (unitary) matrices: the QR
    factorisation of a Gaussian (complex Gaussian) matrix, each column of
    ``Q`` multiplied by the phase of ``R``'s diagonal entry (Mezzadri,
    2007), which makes the law exactly Haar."""
    if complex_:
        kr, ki = sciax.random.split(key)
        z = (sciax.random.normal(kr, (n, dim, dim), dtype)
             + 1j * sciax.random.normal(ki, (n, dim, dim), dtype)) / math.sqrt(2.0)
    else:
        z = sciax.random.normal(key, (n, dim, dim), dtype)
    q, r = snp.linalg.qr(z)
    d = snp.diagonal(r, axis1=-2, axis2=-1)
    ad = snp.abs(d)
    ph = snp.where(ad > 0, d / snp.where(ad > 0, ad, 1.0), 1.0)
    return q * ph[:, None, :]


def _check_dim(dim, name):
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)) or dim < 1:
        raise ValueError(f"{name}: dimension of rotation must be specified, and "
                         f"must be a scalar greater than 1 (got {dim!r})")
    return int(dim)


class _GroupSampler:
    """A random-matrix sampler with SciPy's ``rvs(dim, size=1,
    random_state=None)``: one ``(dim, dim)`` matrix for ``size=1``, else
    ``(size, dim, dim)``; ``random_state`` a :mod:`sciax.random` key or an
    integer seed.  Calling it (``ortho_group(dim, seed)``) freezes ``dim``."""

    name = ""
    _min_dim = 2

    def __init__(self):
        self._programs = {}

    def __call__(self, dim=None, seed=None):
        return _FrozenSampler(self, dim, seed)

    def _draw(self, key, dim, n):
        raise NotImplementedError

    def _program(self, dim, n):
        """``_draw`` jitted for one ``(dim, n)``, cached."""
        fn = self._programs.get((dim, n))
        if fn is None:
            fn = self._programs[(dim, n)] = sciax.jit(
                lambda key: self._draw(key, dim, n))
        return fn

    def rvs(self, dim, size=1, random_state=None):
        dim = _check_dim(dim, self.name)
        if dim < self._min_dim:
            raise ValueError(f"{self.name}: dim must be at least {self._min_dim}, "
                             f"got {dim}")
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) \
                or size < 1:
            raise ValueError(f"{self.name}: size must be a positive integer, got "
                             f"{size!r}")
        key = rv_continuous._key(random_state)
        out = self._program(dim, int(size))(key)
        return out[0] if size == 1 else out


class _FrozenSampler:
    def __init__(self, dist, dim, seed):
        self.dist, self.dim, self.seed = dist, dim, seed

    def rvs(self, size=1, random_state=None):
        rs = self.seed if random_state is None else random_state
        return self.dist.rvs(self.dim, size=size, random_state=rs)


class ortho_group_gen(_GroupSampler):
    """sciax implementation of :data:`scipy.stats.ortho_group`: Haar-random
    orthogonal matrices (the QR of a Gaussian matrix with ``R``'s diagonal
    signs moved into ``Q``; SciPy uses Householder reflections, the same
    law).

    Examples
    --------
    >>> import numpy as np
    >>> from sciax.stats import ortho_group
    >>> q = np.asarray(ortho_group.rvs(3, random_state=0))
    >>> bool(np.allclose(q @ q.T, np.eye(3)))
    True
    """

    name = "ortho_group"

    def _draw(self, key, dim, n):
        return _haar_q(key, dim, n, snp.result_type(1.0), False)


class special_ortho_group_gen(_GroupSampler):
    """sciax implementation of :data:`scipy.stats.special_ortho_group`:
    Haar-random rotations (determinant +1): a Haar orthogonal matrix with its
    first column negated where the determinant is -1.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax.stats import special_ortho_group
    >>> q = np.asarray(special_ortho_group.rvs(3, random_state=0))
    >>> round(float(np.linalg.det(q)), 12)
    1.0
    """

    name = "special_ortho_group"

    def _draw(self, key, dim, n):
        q = ortho_group._draw(key, dim, n)
        sign = snp.sign(snp.linalg.det(q))
        return q.at[:, :, 0].multiply(sign[:, None])


class unitary_group_gen(_GroupSampler):
    """sciax implementation of :data:`scipy.stats.unitary_group`: Haar-random
    unitary matrices (Mezzadri's QR of a complex Gaussian matrix, as SciPy).

    Examples
    --------
    >>> import numpy as np
    >>> from sciax.stats import unitary_group
    >>> u = np.asarray(unitary_group.rvs(2, random_state=0))
    >>> bool(np.allclose(u @ u.conj().T, np.eye(2)))
    True
    """

    name = "unitary_group"
    _min_dim = 1

    def _draw(self, key, dim, n):
        return _haar_q(key, dim, n, snp.result_type(1.0), True)


@functools.partial(sciax.jit, static_argnums=1)
def _unit_normals(key, shape):
    z = sciax.random.normal(key, shape, snp.result_type(1.0))
    return z / snp.linalg.norm(z, axis=-1, keepdims=True)


class uniform_direction_gen:
    """sciax implementation of :data:`scipy.stats.uniform_direction`: points
    uniform on the unit sphere in ``R^dim`` (normalised Gaussian vectors).
    ``rvs(dim, size=None, random_state=None)`` returns ``size + (dim,)``
    (``(dim,)`` for ``size=None``).

    Examples
    --------
    >>> import numpy as np
    >>> from sciax.stats import uniform_direction
    >>> x = np.asarray(uniform_direction.rvs(3, size=4, random_state=0))
    >>> x.shape, bool(np.allclose(np.linalg.norm(x, axis=-1), 1.0))
    ((4, 3), True)
    """

    name = "uniform_direction"

    def __call__(self, dim=None, seed=None):
        return _FrozenSampler(self, dim, seed)

    def rvs(self, dim, size=None, random_state=None):
        dim = _check_dim(dim, self.name)
        shape = () if size is None else ((int(size),) if isinstance(
            size, (int, np.integer)) else tuple(int(v) for v in size))
        return _unit_normals(rv_continuous._key(random_state), shape + (dim,))


@sciax.jit
def _to_corr(m):
    """Davies and Higham's (2000) rotations to a unit diagonal (SciPy's
    ``_to_corr``): for each ``i``, the first ``j > i`` whose diagonal entry
    is on the other side of 1 (else the last), and the Givens rotation of
    rows and columns ``i, j`` that makes ``m_ii = 1``."""
    d = m.shape[0]
    idx = snp.arange(d)

    def body(i, m):
        diag = snp.diagonal(m)
        mii = diag[i]
        other = snp.where(mii > 1, diag < 1, diag > 1) & (idx > i)
        j = snp.where(snp.any(other), snp.argmax(other), d - 1)
        ajj, aij = diag[j], m[i, j]
        aiid, ajjd = mii - 1.0, ajj - 1.0
        dd = snp.sqrt(snp.maximum(aij * aij - aiid * ajjd, 0.0))
        t = (aij + snp.where(aij >= 0, dd, -dd)) / snp.where(ajjd == 0, 1.0, ajjd)
        c = 1.0 / snp.sqrt(1.0 + t * t)
        sn = snp.where(c == 0, 1.0, c * t)
        c, sn = snp.where(ajjd == 0, 0.0, c), snp.where(ajjd == 0, 1.0, sn)
        skip = mii == 1.0
        c, sn = snp.where(skip, 1.0, c), snp.where(skip, 0.0, sn)
        ri, rj = m[i], m[j]
        m = m.at[i].set(c * ri - sn * rj).at[j].set(c * rj + sn * ri)
        ci, cj = m[:, i], m[:, j]
        return m.at[:, i].set(c * ci - sn * cj).at[:, j].set(c * cj + sn * ci)

    return lax.fori_loop(0, d - 1, body, m)


class random_correlation_gen:
    """sciax implementation of :data:`scipy.stats.random_correlation`: random
    correlation matrices with given eigenvalues (Davies and Higham, 2000):
    ``Q diag(eigs) Q^T`` for a Haar-random orthogonal ``Q``, rotated to a
    unit diagonal by Givens rotations (SciPy's algorithm, step for step).

    ``rvs(eigs, random_state=key, tol=1e-13, diag_tol=1e-7)`` returns one
    ``(dim, dim)`` matrix; ``eigs`` must be non-negative and sum to ``dim``.

    Examples
    --------
    >>> import numpy as np
    >>> from sciax.stats import random_correlation
    >>> c = np.asarray(random_correlation.rvs((0.5, 0.8, 1.2, 1.5), random_state=0))
    >>> bool(np.allclose(np.diag(c), 1.0)), bool(np.allclose(np.linalg.eigvalsh(c),
    ...                                                       [0.5, 0.8, 1.2, 1.5]))
    (True, True)
    """

    name = "random_correlation"

    def __call__(self, eigs, seed=None, tol=1e-13, diag_tol=1e-7):
        return _FrozenCorr(self, eigs, seed, tol, diag_tol)

    @staticmethod
    def _eigs(eigs, tol):
        e = np.asarray(eigs, dtype=float)
        if e.ndim != 1 or e.shape[0] <= 1:
            raise ValueError("Array 'eigs' must be a vector of length greater than 1.")
        if abs(e.sum() - e.shape[0]) > tol:
            raise ValueError("Sum of eigenvalues must equal dimensionality.")
        if np.any(e < -tol):
            raise ValueError("All eigenvalues must be non-negative.")
        return e

    def rvs(self, eigs, random_state=None, tol=1e-13, diag_tol=1e-7):
        """One random correlation matrix with eigenvalues ``eigs``."""
        e = self._eigs(eigs, tol)
        q = ortho_group.rvs(len(e), random_state=random_state)
        m = _to_corr((q * snp.asarray(e)) @ q.T)
        if float(snp.max(snp.abs(snp.diagonal(m) - 1.0))) > diag_tol:
            raise RuntimeError("Failed to generate a valid correlation matrix")
        return m


class _FrozenCorr:
    def __init__(self, dist, eigs, seed, tol, diag_tol):
        self.dist, self.eigs, self.seed = dist, eigs, seed
        self.tol, self.diag_tol = tol, diag_tol

    def rvs(self, random_state=None):
        rs = self.seed if random_state is None else random_state
        return self.dist.rvs(self.eigs, random_state=rs, tol=self.tol,
                             diag_tol=self.diag_tol)


# --- random_table ---------------------------------------------------------------------


@functools.partial(sciax.jit, static_argnums=(1, 2, 3))
def _boyett(key, rows, cols, count):
    """``count`` tables with margins ``rows``, ``cols`` by Boyett's (1979)
    method: the ``n`` items' row labels against a random permutation of
    their column labels, counted."""
    rl = np.repeat(np.arange(len(rows)), rows)
    cl = snp.asarray(np.repeat(np.arange(len(cols)), cols))
    cell = snp.asarray(rl * len(cols))

    def one(k):
        idx = cell + cl[sciax.random.permutation(k, len(rl))]
        return snp.zeros(len(rows) * len(cols), "int32").at[idx].add(1)

    out = sciax.vmap(one)(sciax.random.split(key, count))
    return out.reshape((count, len(rows), len(cols)))


@sciax.jit
def _table_logpmf(x, r, c, const):
    xf = x.astype(snp.result_type(1.0))
    ok = (snp.all(snp.sum(xf, axis=-1) == r.astype(xf.dtype), axis=-1)
          & snp.all(snp.sum(xf, axis=-2) == c.astype(xf.dtype), axis=-1)
          & snp.all(xf >= 0, axis=(-2, -1)))
    val = const - snp.sum(lax.lgamma(snp.maximum(xf, 0.0) + 1.0), axis=(-2, -1))
    return snp.where(ok, val, -_INF)


class random_table_gen:
    """sciax implementation of :data:`scipy.stats.random_table`: contingency
    tables uniformly distributed given their row and column sums (the
    hypergeometric law of a table under independence).

    ``logpmf/pmf(x, row, col)`` (``-inf``/0 where ``x``'s margins differ),
    ``mean(row, col) = outer(row, col)/n`` and ``rvs(row, col, size=None,
    method=None, random_state=key)``.  Variates come from Boyett's method
    (a random permutation of the ``n`` items' column labels, counted) for
    either ``method``: SciPy's ``'patefield'`` draws the same law cell by
    cell, faster for large ``n``; here ``n`` is the permutation's length,
    one program per margins.

    Examples
    --------
    >>> from sciax.stats import random_table
    >>> round(float(random_table.logpmf([[1, 2], [0, 2]], [3, 2], [1, 4])), 10)
    -0.5108256238
    """

    name = "random_table"

    def __call__(self, row, col, *, seed=None):
        return _FrozenTable(self, row, col, seed)

    @staticmethod
    def _margins(row, col):
        r, c = np.asarray(row), np.asarray(col)
        if r.ndim != 1:
            raise ValueError("`row` must be one-dimensional")
        if c.ndim != 1:
            raise ValueError("`col` must be one-dimensional")
        if np.any(r < 0) or np.any(c < 0):
            raise ValueError("each element of `row` and `col` must be non-negative")
        if np.any(r != np.round(r)) or np.any(c != np.round(c)):
            raise ValueError("each element of `row` and `col` must be an integer")
        r, c = r.astype(np.int64), c.astype(np.int64)
        if r.sum() != c.sum():
            raise ValueError("sums over `row` and `col` must be equal")
        return r, c, int(r.sum())

    def logpmf(self, x, row, col):
        """The log-probability of the table(s) ``x`` (last two axes)."""
        r, c, n = self._margins(row, col)
        x = snp.asarray(x)
        if x.ndim < 2:
            raise ValueError("`x` must be at least two-dimensional")
        if x.shape[-2:] != (len(r), len(c)):
            raise ValueError("shape of `x` must agree with `row` and `col`")
        const = float(np.sum([math.lgamma(v + 1.0) for v in r])
                      + np.sum([math.lgamma(v + 1.0) for v in c])
                      - math.lgamma(n + 1.0))
        return _table_logpmf(x, snp.asarray(r), snp.asarray(c), const)

    def pmf(self, x, row, col):
        """The probability of the table(s) ``x``."""
        return snp.exp(self.logpmf(x, row, col))

    def mean(self, row, col):
        """``outer(row, col) / n``."""
        r, c, n = self._margins(row, col)
        return snp.asarray(np.outer(r, c) / n)

    def rvs(self, row, col, *, size=None, method=None, random_state=None):
        """Random tables (``size + (len(row), len(col))``)."""
        if method not in (None, "boyett", "patefield"):
            raise ValueError(f"'{method}' not recognized, must be one of "
                             "{None, 'boyett', 'patefield'}")
        r, c, n = self._margins(row, col)
        shape = () if size is None else ((int(size),) if isinstance(
            size, (int, np.integer)) else tuple(int(v) for v in size))
        count = int(np.prod(shape)) if shape else 1
        out = _boyett(rv_continuous._key(random_state), tuple(int(v) for v in r),
                      tuple(int(v) for v in c), count)
        return out.reshape(shape + (len(r), len(c)))


class _FrozenTable:
    def __init__(self, dist, row, col, seed):
        self.dist, self.row, self.col, self.seed = dist, row, col, seed

    def logpmf(self, x):
        return self.dist.logpmf(x, self.row, self.col)

    def pmf(self, x):
        return self.dist.pmf(x, self.row, self.col)

    def mean(self):
        return self.dist.mean(self.row, self.col)

    def rvs(self, size=None, method=None, random_state=None):
        rs = self.seed if random_state is None else random_state
        return self.dist.rvs(self.row, self.col, size=size, method=method,
                             random_state=rs)


# --- normal_inverse_gamma -------------------------------------------------------------


@sciax.jit
def _nig_logpdf(x, s2, mu, lmbda, a, b):
    valid = (lmbda > 0) & (a > 0) & (b > 0)
    pos = s2 > 0
    ss2 = snp.where(pos, s2, 1.0)
    lp = (0.5 * (snp.log(lmbda) - snp.log(2.0 * _PI * ss2)) + a * snp.log(b)
          - sciax.special.gammaln(a) - (a + 1.0) * snp.log(ss2)
          - (2.0 * b + lmbda * (x - mu) ** 2) / (2.0 * ss2))
    return snp.where(valid, snp.where(pos, lp, -_INF), _NAN)


@sciax.jit
def _nig_moments(mu, lmbda, a, b):
    mu, lmbda, a, b = snp.broadcast_arrays(mu, lmbda, a, b)
    valid = (lmbda > 0) & (a > 0) & (b > 0)
    am1 = snp.where(a > 1, a - 1.0, 1.0)
    am2 = snp.where(a > 2, a - 2.0, 1.0)
    m1 = valid & (a > 1)
    mean = (snp.where(m1, mu + 0.0 * b, _NAN), snp.where(m1, b / am1, _NAN))
    var = (snp.where(m1, b / (am1 * lmbda), _NAN),
           snp.where(valid & (a > 2), b * b / (am1 * am1 * am2), _NAN))
    return mean, var


@functools.partial(sciax.jit, static_argnums=1)
def _nig_rvs(key, shape, mu, lmbda, a, b):
    kg, kn = sciax.random.split(key)
    dtype = snp.result_type(mu, lmbda, a, b, 1.0)
    ga = sciax.random.gamma(kg, snp.broadcast_to(a, shape).astype(dtype), shape, dtype)
    s2 = b / ga
    x = mu + snp.sqrt(s2 / lmbda) * sciax.random.normal(kn, shape, dtype)
    return x, s2


class normal_inverse_gamma_gen:
    r"""sciax implementation of :data:`scipy.stats.normal_inverse_gamma`: the
    conjugate prior of a normal law's mean and variance,
    ``sigma^2 ~ invgamma(a, scale=b)`` and ``x | sigma^2 ~ N(mu,
    sigma^2/lambda)``.

    .. math::

        f(x, \sigma^2) = \sqrt{\frac{\lambda}{2\pi\sigma^2}}
        \frac{b^a}{\Gamma(a)} \sigma^{-2(a+1)}
        \exp\left(-\frac{2b + \lambda (x - \mu)^2}{2\sigma^2}\right)

    Methods ``pdf/logpdf(x, s2, mu=0, lmbda=1, a=1, b=1)``, ``mean`` and
    ``var`` (each a pair ``(x, s2)``, NaN where the moment does not exist),
    ``rvs(mu, lmbda, a, b, size=None, random_state=key)`` (a pair of arrays,
    differentiable in the parameters: the gamma variate's implicit
    derivative); calling it freezes the parameters.  ``s2 <= 0`` gives a log
    density of ``-inf``, a parameter outside its domain NaN (as SciPy).

    Examples
    --------
    >>> from sciax.stats import normal_inverse_gamma
    >>> round(float(normal_inverse_gamma.logpdf(0.5, 1.2, 0.0, 2.0, 3.0, 2.0)), 10)
    -1.8815175874
    """

    name = "normal_inverse_gamma"

    def __call__(self, mu=0, lmbda=1, a=1, b=1, seed=None):
        return _FrozenNIG(self, (mu, lmbda, a, b), seed)

    @staticmethod
    def _args(*args):
        arrs = [snp.asarray(v) for v in args]
        dtype = snp.result_type(*arrs, 1.0)
        return [v.astype(dtype) for v in arrs]

    def logpdf(self, x, s2, mu=0, lmbda=1, a=1, b=1):
        """The log-density at ``(x, s2)``."""
        return _nig_logpdf(*self._args(x, s2, mu, lmbda, a, b))

    def pdf(self, x, s2, mu=0, lmbda=1, a=1, b=1):
        """The density at ``(x, s2)``."""
        return snp.exp(self.logpdf(x, s2, mu, lmbda, a, b))

    def mean(self, mu=0, lmbda=1, a=1, b=1):
        """``(E[x], E[s2])`` (NaN unless ``a > 1``)."""
        return _nig_moments(*self._args(mu, lmbda, a, b))[0]

    def var(self, mu=0, lmbda=1, a=1, b=1):
        """``(Var[x], Var[s2])`` (NaN unless ``a > 1``, ``a > 2``)."""
        return _nig_moments(*self._args(mu, lmbda, a, b))[1]

    def rvs(self, mu=0, lmbda=1, a=1, b=1, size=None, random_state=None):
        """Variates ``(x, s2)`` of shape ``size`` (by default the parameters'
        broadcast shape)."""
        p = self._args(mu, lmbda, a, b)
        bshape = snp.broadcast_shapes(*[v.shape for v in p])
        shape = bshape if size is None else ((int(size),) if isinstance(
            size, (int, np.integer)) else tuple(int(v) for v in size))
        return _nig_rvs(rv_continuous._key(random_state), tuple(shape), *p)


class _FrozenNIG:
    def __init__(self, dist, params, seed):
        self.dist, self.params, self.seed = dist, params, seed

    def logpdf(self, x, s2):
        return self.dist.logpdf(x, s2, *self.params)

    def pdf(self, x, s2):
        return self.dist.pdf(x, s2, *self.params)

    def mean(self):
        return self.dist.mean(*self.params)

    def var(self):
        return self.dist.var(*self.params)

    def rvs(self, size=None, random_state=None):
        rs = self.seed if random_state is None else random_state
        return self.dist.rvs(*self.params, size=size, random_state=rs)


# --- matrix_t ----------------------------------------------------------------------


@sciax.jit
def _matt_logpdf(x, m, u, v, df):
    nr, nc = m.shape
    cu, cv = snp.linalg.cholesky(u), snp.linalg.cholesky(v)
    # |I_n + V^-1 D^T U^-1 D| = |I + B B^T| with B = L_V^-1 D^T L_U^-T
    b = _whitened(x - m, cu, cv)
    g = snp.eye(nc, dtype=m.dtype) + b @ snp.swapaxes(b, -1, -2)
    logdet = _logdet_chol(snp.linalg.cholesky(g))
    h = 0.5 * (df + nr + nc - 1.0)
    lognorm = (_multigammaln(h, nc) - _multigammaln(0.5 * (df + nc - 1.0), nc)
               - 0.5 * nr * nc * math.log(_PI) - 0.5 * nc * _logdet_chol(cu)
               - 0.5 * nr * _logdet_chol(cv))
    return snp.where(df > 0, lognorm - h * logdet, _NAN)


@functools.partial(sciax.jit, static_argnums=1)
def _matt_rvs(key, size, m, u, v, df):
    """``M + chol(S) Z chol(V)^T`` with ``S ~ invwishart(df + m - 1, U)`` (the
    row covariance; Gupta and Nagar's construction), ``S = W^-1`` from a
    Bartlett factor of ``W ~ wishart(df + m - 1, U^-1)``."""
    nr, nc = m.shape
    kw, kz = sciax.random.split(key)
    lu_inv = snp.linalg.cholesky(snp.linalg.inv(u))
    a = _bartlett(kw, df + nr - 1.0, nr, size, m.dtype)
    la = lu_inv @ a                                   # W = la la^T
    # chol(W^-1): W^-1 = la^-T la^-1, so chol(W^-1) = la^-T up to a flip
    s = snp.linalg.inv(la @ snp.swapaxes(la, -1, -2))
    cs = snp.linalg.cholesky(0.5 * (s + snp.swapaxes(s, -1, -2)))
    z = sciax.random.normal(kz, (size, nr, nc), m.dtype)
    return m + cs @ z @ snp.linalg.cholesky(v).T


class matrix_t_gen:
    r"""sciax implementation of :data:`scipy.stats.matrix_t`: the matrix
    variate t distribution with mean ``M`` (``m x n``), row spread ``U``,
    column spread ``V`` and degrees of freedom ``df``.

    .. math::

        f(X) = \frac{\Gamma_n(\frac{\nu+m+n-1}{2})}
        {\Gamma_n(\frac{\nu+n-1}{2}) \pi^{mn/2} |U|^{n/2} |V|^{m/2}}
        \left|I_n + V^{-1}(X-M)^T U^{-1}(X-M)\right|^{-\frac{\nu+m+n-1}{2}}

    ``logpdf/pdf(X, mean, row_spread, col_spread, df=1)`` (``X`` may carry
    leading batch axes) and ``rvs(..., size=1, random_state=key)``
    (``M + chol(S) Z chol(V)^T`` with the row covariance ``S ~
    invwishart(df + m - 1, U)``, the law SciPy draws through the smaller
    dimension's inverse Wishart); calling it freezes the parameters.
    Parameters are processed as :data:`matrix_normal`'s.

    Examples
    --------
    >>> from sciax.stats import matrix_t
    >>> round(float(matrix_t.logpdf([[0.5, -0.2]], mean=[[0.0, 0.0]],
    ...                             col_spread=[[1.0, 0.3], [0.3, 2.0]], df=3)), 10)
    -1.7457651765
    """

    name = "matrix_t"

    def __call__(self, mean=None, row_spread=1, col_spread=1, df=None, seed=None):
        params = (mean, row_spread, col_spread, 1 if df is None else df)
        return _FrozenMatT(self, params, seed)

    @staticmethod
    def _params(mean, row_spread, col_spread, df):
        m, u, v = matrix_normal_gen._params(mean, row_spread, col_spread)
        return m, u, v, snp.asarray(df, m.dtype)

    def logpdf(self, X, mean=None, row_spread=1, col_spread=1, df=1):
        """Log-density at ``X`` (``(m, n)`` or ``(..., m, n)``)."""
        m, u, v, d = self._params(mean, row_spread, col_spread, df)
        x = snp.asarray(X, m.dtype)
        if x.ndim < 2:
            x = x.reshape(m.shape)
        return _matt_logpdf(x, m, u, v, d)

    def pdf(self, X, mean=None, row_spread=1, col_spread=1, df=1):
        """The density at ``X``."""
        return snp.exp(self.logpdf(X, mean, row_spread, col_spread, df))

    def rvs(self, mean=None, row_spread=1, col_spread=1, df=1, size=1,
            random_state=None):
        """``size`` variates (one ``(m, n)`` matrix for ``size=1``)."""
        m, u, v, d = self._params(mean, row_spread, col_spread, df)
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) \
                or size < 1:
            raise ValueError(f"matrix_t: size must be a positive integer, got {size!r}")
        out = _matt_rvs(rv_continuous._key(random_state), int(size), m, u, v, d)
        return out[0] if size == 1 else out


class _FrozenMatT:
    def __init__(self, dist, params, seed):
        self.dist, self.params, self.seed = dist, params, seed

    def logpdf(self, X):
        return self.dist.logpdf(X, *self.params)

    def pdf(self, X):
        return self.dist.pdf(X, *self.params)

    def rvs(self, size=1, random_state=None):
        rs = self.seed if random_state is None else random_state
        return self.dist.rvs(*self.params, size=size, random_state=rs)


__all__ = ["rv_histogram", "kstwo", "levy_stable", "landau", "ortho_group",
           "special_ortho_group", "unitary_group", "uniform_direction",
           "normal_inverse_gamma", "matrix_t", "random_correlation",
           "random_table"]

kstwo = kstwo_gen()
levy_stable = levy_stable_gen()
landau = landau_gen()
ortho_group = ortho_group_gen()
special_ortho_group = special_ortho_group_gen()
unitary_group = unitary_group_gen()
uniform_direction = uniform_direction_gen()
normal_inverse_gamma = normal_inverse_gamma_gen()
matrix_t = matrix_t_gen()
random_correlation = random_correlation_gen()
random_table = random_table_gen()
