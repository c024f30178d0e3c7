"""Fixed quadrature rules on samples and on functions: SciPy's ``trapezoid``,
``simpson``, ``romb``, ``cumulative_trapezoid``, ``cumulative_simpson``,
``newton_cotes``, ``fixed_quad`` and the Gauss–Legendre nodes ``roots_legendre``.

All sample rules are weighted sums of the samples, so they are differentiable in
``y`` and ``x`` and batch under ``vmap`` with no special rules.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

import sciax.numpy as snp

__all__ = ["cumulative_simpson", "cumulative_trapezoid", "fixed_quad", "newton_cotes",
           "roots_hermite", "roots_laguerre", "roots_legendre", "romb", "simpson",
           "trapezoid"]


def _last(y: Any, axis: int) -> Any:
    y = snp.asarray(y)
    if not snp.issubdtype(y.dtype, snp.inexact):
        y = y.astype(snp.asarray(1.0).dtype)
    try:
        return snp.moveaxis(y, axis, -1)
    except Exception:
        raise ValueError(f"axis={axis} is not valid for y with ndim={y.ndim}") from None


def _spacing(y: Any, x: Any, dx: Any, name: str) -> Any:
    """Interval widths along the last axis of ``y``: ``y.shape[:-1] + (n-1,)``."""
    n = y.shape[-1]
    if x is None:
        return snp.broadcast_to(snp.asarray(dx, y.dtype), y.shape[:-1] + (n - 1,))
    x = snp.asarray(x)
    if x.ndim == 1:
        if x.shape[0] != n:
            raise ValueError(f"{name}: x has {x.shape[0]} points but y has {n} along "
                             f"the integration axis")
        return snp.diff(x)
    if x.shape != y.shape:
        raise ValueError(f"{name}: x must be 1-d or have y's shape; got {x.shape} and "
                         f"{y.shape}")
    return snp.diff(x, axis=-1)


def _moved(x: Any, axis: int, ndim: int) -> Any:
    if x is None or snp.asarray(x).ndim == 1:
        return x
    return snp.moveaxis(snp.asarray(x), axis, -1)


def trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Any:
    """Integrate samples by the composite trapezoidal rule: sciax implementation of
    :func:`scipy.integrate.trapezoid`.

    Parameters
    ----------
    y : array_like
        Samples.
    x : array_like, optional
        Sample points (1-d along ``axis``, or ``y``'s shape); ``dx`` if absent.
    dx : float, optional
        Spacing when ``x`` is None.
    axis : int, optional
        The axis to integrate along.

    Returns
    -------
    Array
        The integral, with ``axis`` removed.

    Notes
    -----
    Differentiable in ``y`` and ``x``; jit/vmap as any array code.

    Examples
    --------
    >>> from sciax.integrate import trapezoid
    >>> x = snp.linspace(0.0, 1.0, 5)
    >>> print(round(float(trapezoid(x**2, x)), 6))
    0.34375
    """
    y = _last(y, axis)
    h = _spacing(y, _moved(x, axis, y.ndim), dx, "trapezoid")
    return snp.sum(h * 0.5 * (y[..., 1:] + y[..., :-1]), axis=-1)


def cumulative_trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1,
                         initial: Any = None) -> Any:
    """Running integral by the trapezoidal rule: sciax implementation of
    :func:`scipy.integrate.cumulative_trapezoid`.

    Parameters
    ----------
    y, x, dx, axis
        As :func:`trapezoid`.
    initial : scalar, optional
        If given, prepended to the result (so it has ``y``'s length) and added to
        every entry, as SciPy does.

    Returns
    -------
    Array
        ``y.shape`` with one point fewer along ``axis`` (unless ``initial``).

    Examples
    --------
    >>> from sciax.integrate import cumulative_trapezoid
    >>> print(np.round(np.asarray(cumulative_trapezoid(snp.ones(4), initial=0)), 6))
    [0. 1. 2. 3.]
    """
    y = _last(y, axis)
    h = _spacing(y, _moved(x, axis, y.ndim), dx, "cumulative_trapezoid")
    out = snp.cumsum(h * 0.5 * (y[..., 1:] + y[..., :-1]), axis=-1)
    out = _initial(out, initial)
    return snp.moveaxis(out, -1, axis)


def _initial(out: Any, initial: Any) -> Any:
    if initial is None:
        return out
    init = snp.broadcast_to(snp.asarray(initial, out.dtype), out.shape[:-1] + (1,))
    return snp.concatenate([init, out + init], axis=-1)


def _quad_first(h1: Any, h2: Any, f1: Any, f2: Any, f3: Any) -> Any:
    """∫ over [x1, x2] of the parabola through (x1,f1), (x2,f2), (x3,f3), with
    h1 = x2 - x1, h2 = x3 - x2 (Cartwright 2017, eq. 8)."""
    r = h1 / (h1 + h2)
    q = h1 * h1 / ((h1 + h2) * h2)
    return h1 / 6.0 * ((3.0 - r) * f1 + (3.0 + q + r) * f2 - q * f3)


def simpson(y: Any, x: Any = None, *, dx: float = 1.0, axis: int = -1) -> Any:
    """Integrate samples by the composite Simpson rule: sciax implementation of
    :func:`scipy.integrate.simpson`.

    Parameters
    ----------
    y, x, dx, axis
        As :func:`trapezoid`; ``x`` may be unevenly spaced.

    Returns
    -------
    Array
        The integral.

    Notes
    -----
    With an even number of samples the last interval uses the parabola through the
    last three points (Cartwright's correction), as SciPy >= 1.11.

    Examples
    --------
    >>> from sciax.integrate import simpson
    >>> x = snp.linspace(0.0, 1.0, 6)
    >>> print(round(float(simpson(x**3, x=x)), 6))
    0.25
    """
    y = _last(y, axis)
    h = _spacing(y, _moved(x, axis, y.ndim), dx, "simpson")
    n = y.shape[-1]
    if n < 2:
        return snp.zeros(y.shape[:-1], y.dtype)
    if n == 2:
        return h[..., 0] * 0.5 * (y[..., 0] + y[..., 1])
    m = n if n % 2 == 1 else n - 1
    h0, h1 = h[..., 0:m - 1:2], h[..., 1:m - 1:2]
    y0, y1, y2 = y[..., 0:m - 2:2], y[..., 1:m - 1:2], y[..., 2:m:2]
    hs = h0 + h1
    panel = hs / 6.0 * ((2.0 - h1 / h0) * y0 + hs * hs / (h0 * h1) * y1
                        + (2.0 - h0 / h1) * y2)
    total = snp.sum(panel, axis=-1)
    if n % 2 == 0:
        # the last interval, from the parabola through the last three points
        total = total + _quad_first(h[..., -1], h[..., -2], y[..., -1], y[..., -2],
                                    y[..., -3])
    return total


def cumulative_simpson(y: Any, *, x: Any = None, dx: float = 1.0, axis: int = -1,
                       initial: Any = None) -> Any:
    """Running integral by Simpson's rule: sciax implementation of
    :func:`scipy.integrate.cumulative_simpson`.

    Each interval integrates the parabola through it and a neighbouring point: the
    next one for even-numbered intervals, the previous one for odd-numbered
    intervals and for the last interval (SciPy's choice).

    Parameters
    ----------
    y, x, dx, axis, initial
        As :func:`cumulative_trapezoid`.

    Returns
    -------
    Array
        The running integral.

    Examples
    --------
    >>> from sciax.integrate import cumulative_simpson
    >>> x = snp.linspace(0.0, 2.0, 5)
    >>> print(np.round(np.asarray(cumulative_simpson(x**2, x=x)), 6))
    [0.041667 0.333333 1.125    2.666667]
    """
    y = _last(y, axis)
    n = y.shape[-1]
    if n < 3:
        out = cumulative_trapezoid(y, _moved(x, axis, y.ndim), dx, -1, initial)
        return snp.moveaxis(out, -1, axis)
    h = _spacing(y, _moved(x, axis, y.ndim), dx, "cumulative_simpson")
    # forward: interval i with points i, i+1, i+2; backward: with i-1, i, i+1
    fwd = _quad_first(h[..., :-1], h[..., 1:], y[..., :-2], y[..., 1:-1], y[..., 2:])
    bwd = _quad_first(h[..., 1:], h[..., :-1], y[..., 2:], y[..., 1:-1], y[..., :-2])
    i = np.arange(n - 1)
    use_fwd = (i % 2 == 0) & (i < n - 2)
    parts = snp.where(snp.asarray(use_fwd),
                      snp.concatenate([fwd, fwd[..., -1:]], axis=-1),
                      snp.concatenate([bwd[..., :1], bwd], axis=-1))
    out = _initial(snp.cumsum(parts, axis=-1), initial)
    return snp.moveaxis(out, -1, axis)


def romb(y: Any, dx: float = 1.0, axis: int = -1, show: bool = False) -> Any:
    """Romberg integration of ``2**k + 1`` equally spaced samples: sciax
    implementation of :func:`scipy.integrate.romb`.

    Parameters
    ----------
    y : array_like
        Samples; the length along ``axis`` must be ``2**k + 1``.
    dx : float, optional
        Sample spacing.
    axis : int, optional
        The axis to integrate along.
    show : bool, optional
        Not supported (SciPy prints the Richardson table); must be False.

    Returns
    -------
    Array
        The extrapolated integral.

    Examples
    --------
    >>> from sciax.integrate import romb
    >>> x = snp.linspace(0.0, 1.0, 9)
    >>> print(round(float(romb(x**4, dx=0.125)), 10))
    0.2
    """
    if show:
        raise NotImplementedError("romb: show=True is not supported")
    y = _last(y, axis)
    n = y.shape[-1]
    k = int(round(math.log2(n - 1))) if n > 1 else -1
    if n < 2 or 2 ** k + 1 != n:
        raise ValueError(f"romb: the number of samples must be 2**k + 1; got {n}")
    h = (n - 1) * dx
    rows = [h * 0.5 * (y[..., 0] + y[..., -1])]
    step = n - 1
    for _ in range(k):
        step //= 2
        h /= 2.0
        prev = rows
        mids = snp.sum(y[..., step::2 * step], axis=-1)
        rows = [0.5 * prev[0] + h * mids]
        for j, p in enumerate(prev, start=1):
            rows.append(rows[-1] + (rows[-1] - p) / (4.0 ** j - 1.0))
    return rows[-1]


def newton_cotes(rn: Any, equal: int = 0) -> tuple[np.ndarray, float]:
    """Weights and error coefficient of the Newton–Cotes rule: as
    :func:`scipy.integrate.newton_cotes`.

    Parameters
    ----------
    rn : int or sequence of int
        The order ``N`` (``N + 1`` equally spaced points), or the sample positions
        ``0 = rn[0] < ... < rn[-1] = N`` (integers).
    equal : int, optional
        Non-zero: the samples are equally spaced regardless of ``rn``.

    Returns
    -------
    an : numpy.ndarray
        Weights: ``∫ f ≈ dx * sum(an * f(x_i))``.
    B : float
        Error coefficient: the error is ``B * dx**(p + 2) * f^(p+1)(ξ)``.

    Notes
    -----
    Equally spaced weights are computed exactly in rational arithmetic; unequal
    positions by a Vandermonde solve in float64.  The result is static data
    (NumPy), like SciPy's.

    Examples
    --------
    >>> from sciax.integrate import newton_cotes
    >>> an, B = newton_cotes(2, 1)
    >>> print(np.round(an * 3, 6), round(B, 6))
    [1. 4. 1.] -0.011111
    """
    if isinstance(rn, (int, np.integer)):
        n = int(rn)
        pos = list(range(n + 1))
        equal = 1
    else:
        pos = [int(v) for v in np.asarray(rn).reshape(-1)]
        n = len(pos) - 1
        if equal:
            pos = list(range(n + 1))
        elif all(pos[i + 1] - pos[i] == 1 for i in range(n)):
            equal = 1
    if n < 1:
        raise ValueError(f"newton_cotes: need at least 2 points; got order {n}")
    if pos[0] != 0 or pos[-1] != n:
        raise ValueError("newton_cotes: the sample positions must start at 0 and end "
                         "at N")
    # ∫_0^N t^k dt = N^(k+1)/(k+1) matched by sum_i a_i pos_i^k, k = 0..N
    a = _solve_moments([Fraction(p) for p in pos], n)
    an = np.array([float(v) for v in a])
    power = n + 2 if (n % 2 == 0 and equal) else n + 1
    moment = Fraction(n) ** (power + 1) / (power + 1)
    resid = moment - sum(ai * Fraction(p) ** power for ai, p in zip(a, pos))
    return an, float(resid / math.factorial(power))


def _solve_moments(pos: list, n: int) -> list:
    """Exact Gauss–Jordan solve of the moment equations (Fractions)."""
    m = [[p ** k for p in pos] + [Fraction(n) ** (k + 1) / (k + 1)]
         for k in range(n + 1)]
    for c in range(n + 1):
        piv = next(r for r in range(c, n + 1) if m[r][c] != 0)
        m[c], m[piv] = m[piv], m[c]
        inv = 1 / m[c][c]
        m[c] = [v * inv for v in m[c]]
        for r in range(n + 1):
            if r != c and m[r][c] != 0:
                f = m[r][c]
                m[r] = [v - f * w for v, w in zip(m[r], m[c])]
    return [m[r][-1] for r in range(n + 1)]


def roots_legendre(n: int, mu: bool = False) -> tuple:
    """Gauss–Legendre nodes and weights: as :func:`scipy.special.roots_legendre`.

    Computed by the Golub–Welsch eigenvalue method (the Jacobi matrix of the
    Legendre recurrence) and polished by two Newton steps on the three-term
    recurrence, in float64.

    Parameters
    ----------
    n : int
        Number of nodes.
    mu : bool, optional
        Also return the sum of the weights (2).

    Returns
    -------
    x, w : Array
        Nodes (ascending) and weights.

    Examples
    --------
    >>> from sciax.integrate import roots_legendre
    >>> x, w = roots_legendre(3)
    >>> print(np.round(np.asarray(x), 6), np.round(np.asarray(w), 6))
    [-0.774597  0.        0.774597] [0.555556 0.888889 0.555556]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"roots_legendre: n must be a positive int; got {n!r}")
    x, w = _legendre_np(int(n))
    out = (snp.asarray(x), snp.asarray(w))
    return out + (snp.asarray(2.0),) if mu else out


def _golub_welsch(diag: np.ndarray, off: np.ndarray, mu0: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights from the Jacobi matrix of a three-term recurrence: the
    eigenvalues, and ``mu0`` times the squared first components of the
    eigenvectors (Golub and Welsch, 1969)."""
    x, v = np.linalg.eigh(np.diag(diag) + np.diag(off, 1) + np.diag(off, -1))
    return x, mu0 * v[0] ** 2


def _check_n(name: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name}: n must be a positive int; got {n!r}")
    return int(n)


def roots_hermite(n: int, mu: bool = False) -> tuple:
    """Gauss–Hermite nodes and weights (weight ``exp(-x²)`` on the line): as
    :func:`scipy.special.roots_hermite`, by the Golub–Welsch method.

    Parameters
    ----------
    n : int
        Number of nodes.
    mu : bool, optional
        Also return the sum of the weights (``√π``).

    Returns
    -------
    x, w : Array
        Nodes (ascending) and weights.

    Examples
    --------
    >>> from sciax.integrate import roots_hermite
    >>> x, w = roots_hermite(3)
    >>> print(round(float(snp.sum(w * x**2)), 10), round(float(np.sqrt(np.pi) / 2), 10))
    0.8862269255 0.8862269255
    """
    n = _check_n("roots_hermite", n)
    k = np.arange(1, n)
    x, w = _golub_welsch(np.zeros(n), np.sqrt(k / 2.0), np.sqrt(np.pi))
    x = 0.5 * (x - x[::-1])
    w = 0.5 * (w + w[::-1])
    out = (snp.asarray(x), snp.asarray(w))
    return out + (snp.asarray(np.sqrt(np.pi)),) if mu else out


def roots_laguerre(n: int, mu: bool = False) -> tuple:
    """Gauss–Laguerre nodes and weights (weight ``exp(-x)`` on ``[0, inf)``): as
    :func:`scipy.special.roots_laguerre`, by the Golub–Welsch method.

    Parameters
    ----------
    n : int
        Number of nodes.
    mu : bool, optional
        Also return the sum of the weights (1).

    Returns
    -------
    x, w : Array
        Nodes (ascending) and weights.

    Examples
    --------
    >>> from sciax.integrate import roots_laguerre
    >>> x, w = roots_laguerre(4)
    >>> print(round(float(snp.sum(w * x**3)), 10))
    6.0
    """
    n = _check_n("roots_laguerre", n)
    k = np.arange(1, n)
    x, w = _golub_welsch(2.0 * np.arange(n) + 1.0, k.astype(float), 1.0)
    out = (snp.asarray(x), snp.asarray(w))
    return out + (snp.asarray(1.0),) if mu else out


def _legendre_np(n: int) -> tuple[np.ndarray, np.ndarray]:
    k = np.arange(1, n)
    off = k / np.sqrt(4.0 * k * k - 1.0)
    x = np.linalg.eigvalsh(np.diag(off, 1) + np.diag(off, -1)) if n > 1 else np.zeros(1)
    for _ in range(2):
        p0, p1 = np.ones_like(x), x.copy()
        for j in range(2, n + 1):
            p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
        dp = n * (x * p1 - p0) / (x * x - 1.0) if n > 1 else np.ones_like(x)
        x = x - (p1 / dp if n > 1 else x)
    p0, p1 = np.ones_like(x), x.copy()
    for j in range(2, n + 1):
        p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
    dp = n * (x * p1 - p0) / (x * x - 1.0) if n > 1 else np.ones_like(x)
    w = 2.0 / ((1.0 - x * x) * dp * dp)
    x = 0.5 * (x - x[::-1])   # exact symmetry
    w = 0.5 * (w + w[::-1])
    return x, w


def fixed_quad(func: Callable, a: Any, b: Any, args: tuple = (), n: int = 5
               ) -> tuple[Any, None]:
    """Fixed-order Gauss–Legendre quadrature: sciax implementation of
    :func:`scipy.integrate.fixed_quad`.

    Parameters
    ----------
    func : callable
        ``func(x, *args)``, vectorized over ``x`` (an array of nodes); for a
        vector-valued integrand the nodes run along the last axis.
    a, b : float or array
        Limits (differentiable; arrays give a batch of integrals).
    args : tuple, optional
        Extra arguments of ``func`` (differentiable).
    n : int, optional
        Number of nodes (static).

    Returns
    -------
    val : Array
        The integral.
    none : None
        Always None (SciPy's second output).

    Examples
    --------
    >>> from sciax.integrate import fixed_quad
    >>> val, _ = fixed_quad(snp.cos, 0.0, snp.pi / 2, n=5)
    >>> print(round(float(val), 8))
    1.0
    """
    x, w = _legendre_np(int(n))
    a, b = snp.asarray(a), snp.asarray(b)
    a, b = a[..., None], b[..., None]
    nodes = (b - a) * (snp.asarray(x) + 1.0) / 2.0 + a
    vals = snp.asarray(func(nodes, *args))
    return (b[..., 0] - a[..., 0]) / 2.0 * snp.sum(snp.asarray(w) * vals, axis=-1), None
