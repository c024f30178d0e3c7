"""Orthogonal polynomials, their Gauss quadrature rules, associated Legendre
functions and spherical harmonics.

``eval_*`` run the three-term recurrence in a ``while_loop`` up to the largest
degree in the batch (degrees are data, so ``vmap`` and ``jit`` see one
program).  Their derivatives in ``x`` and in the parameters (``alpha``,
``beta``) are forward-mode derivatives of the recurrence taken inside a
``custom_jvp`` rule and multiplied by the tangents there, so reverse mode
works too (a ``while_loop`` itself cannot be transposed).

``roots_*`` take a static degree: the nodes are eigenvalues of the Jacobi
matrix (Golub and Welsch), polished by Newton's method on the orthonormal
recurrence, and the weights are the Christoffel numbers ``1 / sum_k q_k(x)^2``
(a sum of squares, so small weights keep their relative accuracy).  They are
computed with NumPy at trace time and returned as constants.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.special import _util
from sciax.special._gamma import binom
from sciax.special._util import promote

__all__ = ["eval_legendre", "eval_chebyt", "eval_chebyu", "eval_chebys",
           "eval_chebyc", "eval_sh_legendre", "eval_sh_chebyt", "eval_sh_chebyu",
           "eval_hermite", "eval_hermitenorm", "eval_laguerre", "eval_genlaguerre",
           "eval_jacobi", "eval_sh_jacobi", "eval_gegenbauer", "roots_legendre",
           "roots_chebyt", "roots_chebyu", "roots_hermite", "roots_hermitenorm",
           "roots_laguerre", "roots_genlaguerre", "roots_jacobi",
           "roots_gegenbauer", "lpmv", "sph_harm_y"]


def _recurrence(n: Any, x: Any, p1: Any, coef: Callable) -> Any:
    """``p_n(x)`` from ``p_0 = 1``, ``p_1``, and ``p_{k+1} = (A_k x + B_k) p_k -
    C_k p_{k-1}`` with ``(A_k, B_k, C_k) = coef(k)``; NaN for non-integer or
    negative ``n``."""
    bad = (n < 0) | (n != snp.floor(n))
    ns = _util.safe(~bad, n, 0.0)

    def cond(c):
        return snp.any(c[0] < ns)

    def body(c):
        k, pm, p = c
        a, b, cc = coef(k)
        pn = (a * x + b) * p - cc * pm
        go = k < ns
        return k + 1.0, snp.where(go, p, pm), snp.where(go, pn, p)

    one = snp.ones_like(x)
    _, _, p = lax.while_loop(cond, body, (snp.ones_like(x), one, p1))
    out = snp.where(ns == 0, one, p)
    return snp.where(bad, snp.nan, out)


def _with_partials(f: Callable, nondiff: int) -> Callable:
    """``f`` with a ``custom_jvp`` whose tangent is ``sum_i (df/dx_i) t_i``: the
    partials come from forward mode through ``f`` (loops included) with the
    primals held constant, so the tangent map is plain multiplication and
    transposes.  The first ``nondiff`` arguments (degrees) get no tangent."""
    g = sciax.custom_jvp(f)

    @g.defjvp
    def g_jvp(primals, tangents):
        ps = [lax.stop_gradient(p) for p in primals]
        y = g(*primals)
        t = snp.zeros_like(y)
        for i in range(nondiff, len(ps)):
            unit = [snp.zeros_like(p) for p in ps]
            unit[i] = snp.ones_like(ps[i])
            _, d = sciax.jvp(f, tuple(ps), tuple(unit))
            t = t + d * tangents[i]
        return y, t

    return g


def _legendre(n, x):
    return _recurrence(n, x, x, lambda k: ((2 * k + 1) / (k + 1), 0.0, k / (k + 1)))


def _chebyt(n, x):
    return _recurrence(n, x, x, lambda k: (2.0, 0.0, 1.0))


def _chebyu(n, x):
    return _recurrence(n, x, 2 * x, lambda k: (2.0, 0.0, 1.0))


def _hermite(n, x):
    return _recurrence(n, x, 2 * x, lambda k: (2.0, 0.0, 2 * k))


def _hermitenorm(n, x):
    return _recurrence(n, x, x, lambda k: (1.0, 0.0, k))


def _genlaguerre(n, alpha, x):
    return _recurrence(n, x, 1.0 + alpha - x,
                       lambda k: (-1.0 / (k + 1), (2 * k + 1 + alpha) / (k + 1),
                                  (k + alpha) / (k + 1)))


def _jacobi(n, a, b, x):
    p1 = 0.5 * (a - b) + 0.5 * (a + b + 2.0) * x

    def coef(k):
        s = 2 * k + a + b
        d = 2 * (k + 1) * (k + a + b + 1) * s
        return ((s + 1) * (s + 2) * s / d, (s + 1) * (a * a - b * b) / d,
                2 * (k + a) * (k + b) * (s + 2) / d)

    return _recurrence(n, x, p1, coef)


def _gegenbauer(n, alpha, x):
    return _recurrence(n, x, 2 * alpha * x,
                       lambda k: (2 * (k + alpha) / (k + 1), 0.0,
                                  (k + 2 * alpha - 1) / (k + 1)))


_legendre_cj = _with_partials(_legendre, 1)
_chebyt_cj = _with_partials(_chebyt, 1)
_chebyu_cj = _with_partials(_chebyu, 1)
_hermite_cj = _with_partials(_hermite, 1)
_hermitenorm_cj = _with_partials(_hermitenorm, 1)
_genlaguerre_cj = _with_partials(_genlaguerre, 1)
_jacobi_cj = _with_partials(_jacobi, 1)
_gegenbauer_cj = _with_partials(_gegenbauer, 1)

_EVAL_NOTES = """
    Notes
    -----
    Three-term recurrence up to the largest degree in the batch.  Integer
    degrees only (*differences from SciPy*: a non-integer degree gives NaN;
    SciPy evaluates it through ``hyp2f1``).  Differentiable in ``x`` and the
    real parameters; the degree is not differentiated.
"""


def _deg(n: Any) -> Any:
    return lax.stop_gradient(n)


def eval_legendre(n: Any, x: Any) -> Any:
    """Legendre polynomial ``P_n(x)``.

    sciax implementation of :func:`scipy.special.eval_legendre`.

    Parameters
    ----------
    n : array_like
        Degree (non-negative integer).
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_legendre
    >>> eval_legendre(snp.array([0, 2, 5]), 0.5).round(6)
    Array([ 1.      , -0.125   ,  0.089844], dtype=float64)
    """
    n, x = promote("eval_legendre", n, x)
    return _legendre_cj(_deg(n), x)


def eval_sh_legendre(n: Any, x: Any) -> Any:
    """Shifted Legendre polynomial ``P_n(2x - 1)``.

    sciax implementation of :func:`scipy.special.eval_sh_legendre`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_sh_legendre
    >>> float(eval_sh_legendre(2, 0.75))
    -0.125
    """
    n, x = promote("eval_sh_legendre", n, x)
    return _legendre_cj(_deg(n), 2.0 * x - 1.0)


def eval_chebyt(n: Any, x: Any) -> Any:
    """Chebyshev polynomial of the first kind ``T_n(x)``.

    sciax implementation of :func:`scipy.special.eval_chebyt`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_chebyt
    >>> eval_chebyt(snp.array([2, 3]), 0.5).round(6)
    Array([-0.5, -1. ], dtype=float64)
    """
    n, x = promote("eval_chebyt", n, x)
    return _chebyt_cj(_deg(n), x)


def eval_chebyu(n: Any, x: Any) -> Any:
    """Chebyshev polynomial of the second kind ``U_n(x)``.

    sciax implementation of :func:`scipy.special.eval_chebyu`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_chebyu
    >>> eval_chebyu(snp.array([2, 3]), 0.5).round(6)
    Array([ 0., -1.], dtype=float64)
    """
    n, x = promote("eval_chebyu", n, x)
    return _chebyu_cj(_deg(n), x)


def eval_chebys(n: Any, x: Any) -> Any:
    """Chebyshev S polynomial ``S_n(x) = U_n(x/2)``.

    sciax implementation of :func:`scipy.special.eval_chebys`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_chebys
    >>> float(eval_chebys(2, 1.0))
    0.0
    """
    n, x = promote("eval_chebys", n, x)
    return _chebyu_cj(_deg(n), 0.5 * x)


def eval_chebyc(n: Any, x: Any) -> Any:
    """Chebyshev C polynomial ``C_n(x) = 2 T_n(x/2)``.

    sciax implementation of :func:`scipy.special.eval_chebyc`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_chebyc
    >>> float(eval_chebyc(2, 1.0))
    -1.0
    """
    n, x = promote("eval_chebyc", n, x)
    return 2.0 * _chebyt_cj(_deg(n), 0.5 * x)


def eval_sh_chebyt(n: Any, x: Any) -> Any:
    """Shifted Chebyshev polynomial of the first kind ``T_n(2x - 1)``.

    sciax implementation of :func:`scipy.special.eval_sh_chebyt`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_sh_chebyt
    >>> float(eval_sh_chebyt(2, 0.75))
    -0.5
    """
    n, x = promote("eval_sh_chebyt", n, x)
    return _chebyt_cj(_deg(n), 2.0 * x - 1.0)


def eval_sh_chebyu(n: Any, x: Any) -> Any:
    """Shifted Chebyshev polynomial of the second kind ``U_n(2x - 1)``.

    sciax implementation of :func:`scipy.special.eval_sh_chebyu`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_sh_chebyu
    >>> float(eval_sh_chebyu(2, 0.75))
    0.0
    """
    n, x = promote("eval_sh_chebyu", n, x)
    return _chebyu_cj(_deg(n), 2.0 * x - 1.0)


def eval_hermite(n: Any, x: Any) -> Any:
    """Physicists' Hermite polynomial ``H_n(x)``.

    sciax implementation of :func:`scipy.special.eval_hermite`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_hermite
    >>> eval_hermite(snp.array([2, 3]), 1.0)
    Array([ 2., -4.], dtype=float64)
    """
    n, x = promote("eval_hermite", n, x)
    return _hermite_cj(_deg(n), x)


def eval_hermitenorm(n: Any, x: Any) -> Any:
    """Probabilists' Hermite polynomial ``He_n(x)``.

    sciax implementation of :func:`scipy.special.eval_hermitenorm`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_hermitenorm
    >>> eval_hermitenorm(snp.array([2, 3]), 2.0)
    Array([3., 2.], dtype=float64)
    """
    n, x = promote("eval_hermitenorm", n, x)
    return _hermitenorm_cj(_deg(n), x)


def eval_laguerre(n: Any, x: Any) -> Any:
    """Laguerre polynomial ``L_n(x)``.

    sciax implementation of :func:`scipy.special.eval_laguerre`.

    Parameters
    ----------
    n : array_like
        Degree.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_laguerre
    >>> eval_laguerre(snp.array([1, 2]), 1.0)
    Array([ 0. , -0.5], dtype=float64)
    """
    n, x = promote("eval_laguerre", n, x)
    return _genlaguerre_cj(_deg(n), snp.zeros_like(x), x)


def eval_genlaguerre(n: Any, alpha: Any, x: Any) -> Any:
    """Generalized Laguerre polynomial ``L_n^alpha(x)``.

    sciax implementation of :func:`scipy.special.eval_genlaguerre`.

    Parameters
    ----------
    n : array_like
        Degree.
    alpha : array_like
        Parameter (``> -1``).
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_genlaguerre
    >>> float(eval_genlaguerre(2, 0.5, 1.0))
    -0.125
    """
    n, alpha, x = promote("eval_genlaguerre", n, alpha, x)
    return _genlaguerre_cj(_deg(n), alpha, x)


def eval_jacobi(n: Any, alpha: Any, beta: Any, x: Any) -> Any:
    """Jacobi polynomial ``P_n^(alpha, beta)(x)``.

    sciax implementation of :func:`scipy.special.eval_jacobi`.

    Parameters
    ----------
    n : array_like
        Degree.
    alpha, beta : array_like
        Parameters.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_jacobi
    >>> float(eval_jacobi(2, 0.5, 1.5, 0.3))
    -0.6625
    """
    n, alpha, beta, x = promote("eval_jacobi", n, alpha, beta, x)
    return _jacobi_cj(_deg(n), alpha, beta, x)


def eval_sh_jacobi(n: Any, p: Any, q: Any, x: Any) -> Any:
    """Shifted Jacobi polynomial ``G_n^(p, q)(x)``, SciPy's normalization:
    ``P_n^(p-q, q-1)(2x - 1) / binom(2n + p - 1, n)``.

    sciax implementation of :func:`scipy.special.eval_sh_jacobi`.

    Parameters
    ----------
    n : array_like
        Degree.
    p, q : array_like
        Parameters.
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_sh_jacobi
    >>> float(eval_sh_jacobi(2, 3.0, 2.0, 0.5).round(6))
    -0.05
    """
    n, p, q, x = promote("eval_sh_jacobi", n, p, q, x)
    n = _deg(n)
    return _jacobi_cj(n, p - q, q - 1.0, 2.0 * x - 1.0) / binom(2.0 * n + p - 1.0, n)


def eval_gegenbauer(n: Any, alpha: Any, x: Any) -> Any:
    """Gegenbauer (ultraspherical) polynomial ``C_n^alpha(x)``.

    sciax implementation of :func:`scipy.special.eval_gegenbauer`.

    Parameters
    ----------
    n : array_like
        Degree.
    alpha : array_like
        Parameter (``> -1/2``).
    x : array_like
        Argument.

    Returns
    -------
    Array
    {notes}
    Examples
    --------
    >>> from sciax.special import eval_gegenbauer
    >>> float(eval_gegenbauer(2, 1.5, 0.5))
    0.375
    """
    n, alpha, x = promote("eval_gegenbauer", n, alpha, x)
    return _gegenbauer_cj(_deg(n), alpha, x)


for _f in (eval_legendre, eval_sh_legendre, eval_chebyt, eval_chebyu, eval_chebys,
           eval_chebyc, eval_sh_chebyt, eval_sh_chebyu, eval_hermite,
           eval_hermitenorm, eval_laguerre, eval_genlaguerre, eval_jacobi,
           eval_sh_jacobi, eval_gegenbauer):
    _f.__doc__ = _f.__doc__.replace("    {notes}\n", _EVAL_NOTES)


# --- Gauss quadrature rules --------------------------------------------------------

def _check_n(name: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name}: n must be a positive Python integer (the "
                         f"number of nodes is a static size), got {n!r}")
    return int(n)


def _gauss(diag: np.ndarray, off: np.ndarray, mu0: float) -> tuple:
    """Nodes and weights of the Gauss rule of the Jacobi matrix (``diag``,
    ``off``) whose weight function has total mass ``mu0``."""
    n = diag.size
    jac = np.diag(diag) + np.diag(off, 1) + np.diag(off, -1)
    x = np.linalg.eigvalsh(jac)

    def orthonormal(x):
        # q_0 = 1 / sqrt(mu0); off[k] q_{k+1} = (x - diag[k]) q_k - off[k-1] q_{k-1}
        q_prev = np.zeros_like(x)
        q = np.full_like(x, 1.0 / math.sqrt(mu0))
        dq_prev, dq = np.zeros_like(x), np.zeros_like(x)
        s = q * q
        for k in range(n):
            b_prev = off[k - 1] if k > 0 else 0.0
            b = off[k] if k < n - 1 else 1.0
            q_next = ((x - diag[k]) * q - b_prev * q_prev) / b
            dq_next = (q + (x - diag[k]) * dq - b_prev * dq_prev) / b
            q_prev, q, dq_prev, dq = q, q_next, dq, dq_next
            if k < n - 1:
                s = s + q * q
        return q, dq, s

    for _ in range(3):                      # Newton on q_n polishes the nodes
        q, dq, _ = orthonormal(x)
        x = x - q / dq
    _, _, s = orthonormal(x)
    return x, 1.0 / s


def _rule(x: np.ndarray, w: np.ndarray, mu0: float, mu: bool) -> tuple:
    out = (snp.asarray(x), snp.asarray(w))
    return out + (mu0,) if mu else out


def roots_legendre(n: int, mu: bool = False) -> tuple:
    """Gauss-Legendre nodes and weights on ``[-1, 1]``.

    sciax implementation of :func:`scipy.special.roots_legendre`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    mu : bool, default False
        Also return the total weight, 2.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Notes
    -----
    Computed with NumPy when traced (Golub-Welsch, Newton-polished nodes,
    Christoffel weights) and returned as constants.

    Examples
    --------
    >>> from sciax.special import roots_legendre
    >>> x, w = roots_legendre(3)
    >>> x.round(6), w.round(6)
    (Array([-0.774597,  0.      ,  0.774597], dtype=float64), Array([0.555556, 0.888889, 0.555556], dtype=float64))
    """
    n = _check_n("roots_legendre", n)
    k = np.arange(1, n)
    x, w = _gauss(np.zeros(n), k / np.sqrt(4.0 * k * k - 1.0), 2.0)
    return _rule(x, w, 2.0, mu)


def roots_chebyt(n: int, mu: bool = False) -> tuple:
    """Gauss-Chebyshev (first kind) nodes and weights: ``cos((2i-1) pi/2n)``,
    ``pi / n``.

    sciax implementation of :func:`scipy.special.roots_chebyt`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    mu : bool, default False
        Also return the total weight, ``pi``.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Examples
    --------
    >>> from sciax.special import roots_chebyt
    >>> roots_chebyt(2)[0].round(6)
    Array([-0.707107,  0.707107], dtype=float64)
    """
    n = _check_n("roots_chebyt", n)
    x = np.sin(np.pi * (2.0 * np.arange(n) - n + 1) / (2.0 * n))
    return _rule(x, np.full(n, np.pi / n), np.pi, mu)


def roots_chebyu(n: int, mu: bool = False) -> tuple:
    """Gauss-Chebyshev (second kind) nodes and weights.

    sciax implementation of :func:`scipy.special.roots_chebyu`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    mu : bool, default False
        Also return the total weight, ``pi / 2``.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Examples
    --------
    >>> from sciax.special import roots_chebyu
    >>> roots_chebyu(2)[1].round(6)
    Array([0.785398, 0.785398], dtype=float64)
    """
    n = _check_n("roots_chebyu", n)
    t = np.pi * np.arange(n, 0, -1) / (n + 1)
    x = np.cos(t)
    return _rule(x, np.pi / (n + 1) * np.sin(t) ** 2, np.pi / 2, mu)


def roots_hermite(n: int, mu: bool = False) -> tuple:
    """Gauss-Hermite nodes and weights (weight ``exp(-x^2)``).

    sciax implementation of :func:`scipy.special.roots_hermite`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    mu : bool, default False
        Also return the total weight, ``sqrt(pi)``.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Examples
    --------
    >>> from sciax.special import roots_hermite
    >>> roots_hermite(2)[0].round(6)
    Array([-0.707107,  0.707107], dtype=float64)
    """
    n = _check_n("roots_hermite", n)
    mu0 = math.sqrt(math.pi)
    x, w = _gauss(np.zeros(n), np.sqrt(np.arange(1, n) / 2.0), mu0)
    return _rule(x, w, mu0, mu)


def roots_hermitenorm(n: int, mu: bool = False) -> tuple:
    """Gauss-Hermite nodes and weights for the weight ``exp(-x^2/2)``.

    sciax implementation of :func:`scipy.special.roots_hermitenorm`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    mu : bool, default False
        Also return the total weight, ``sqrt(2 pi)``.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Examples
    --------
    >>> from sciax.special import roots_hermitenorm
    >>> roots_hermitenorm(2)[0]
    Array([-1.,  1.], dtype=float64)
    """
    n = _check_n("roots_hermitenorm", n)
    mu0 = math.sqrt(2 * math.pi)
    x, w = _gauss(np.zeros(n), np.sqrt(np.arange(1.0, n)), mu0)
    return _rule(x, w, mu0, mu)


def roots_genlaguerre(n: int, alpha: float, mu: bool = False) -> tuple:
    """Gauss-Laguerre nodes and weights for the weight ``x^alpha exp(-x)``.

    sciax implementation of :func:`scipy.special.roots_genlaguerre`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    alpha : float
        Parameter (``> -1``; a Python number).
    mu : bool, default False
        Also return the total weight, ``Gamma(alpha + 1)``.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Examples
    --------
    >>> from sciax.special import roots_genlaguerre
    >>> roots_genlaguerre(2, 1.0)[0].round(6)
    Array([1.267949, 4.732051], dtype=float64)
    """
    n = _check_n("roots_genlaguerre", n)
    alpha = float(alpha)
    if not alpha > -1:
        raise ValueError(f"roots_genlaguerre: alpha must be > -1, got {alpha}")
    k = np.arange(n)
    mu0 = math.gamma(alpha + 1.0)
    kk = np.arange(1, n)
    x, w = _gauss(2.0 * k + alpha + 1.0, np.sqrt(kk * (kk + alpha)), mu0)
    return _rule(x, w, mu0, mu)


def roots_laguerre(n: int, mu: bool = False) -> tuple:
    """Gauss-Laguerre nodes and weights (weight ``exp(-x)`` on ``[0, inf)``).

    sciax implementation of :func:`scipy.special.roots_laguerre`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    mu : bool, default False
        Also return the total weight, 1.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Examples
    --------
    >>> from sciax.special import roots_laguerre
    >>> roots_laguerre(2)[0].round(6)
    Array([0.585786, 3.414214], dtype=float64)
    """
    return roots_genlaguerre(n, 0.0, mu)


def roots_jacobi(n: int, alpha: float, beta: float, mu: bool = False) -> tuple:
    """Gauss-Jacobi nodes and weights for ``(1 - x)^alpha (1 + x)^beta``.

    sciax implementation of :func:`scipy.special.roots_jacobi`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    alpha, beta : float
        Parameters (``> -1``; Python numbers).
    mu : bool, default False
        Also return the total weight.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Examples
    --------
    >>> from sciax.special import roots_jacobi
    >>> roots_jacobi(2, 0.5, 0.5)[0].round(6)
    Array([-0.5,  0.5], dtype=float64)
    """
    n = _check_n("roots_jacobi", n)
    a, b = float(alpha), float(beta)
    if not (a > -1 and b > -1):
        raise ValueError(f"roots_jacobi: alpha and beta must be > -1, got {a}, {b}")
    k = np.arange(n, dtype=float)
    s = 2 * k + a + b
    with np.errstate(invalid="ignore", divide="ignore"):
        diag = (b * b - a * a) / (s * (s + 2))
    diag[0] = (b - a) / (a + b + 2)
    kk = np.arange(1, n, dtype=float)
    sk = 2 * kk + a + b
    off = (2.0 / sk) * np.sqrt(kk * (kk + a) * (kk + b) * (kk + a + b)
                               / ((sk - 1) * (sk + 1)))
    mu0 = 2.0 ** (a + b + 1) * math.exp(math.lgamma(a + 1) + math.lgamma(b + 1)
                                        - math.lgamma(a + b + 2))
    x, w = _gauss(diag, off, mu0)
    return _rule(x, w, mu0, mu)


def roots_gegenbauer(n: int, alpha: float, mu: bool = False) -> tuple:
    """Gauss-Gegenbauer nodes and weights for ``(1 - x^2)^(alpha - 1/2)``.

    sciax implementation of :func:`scipy.special.roots_gegenbauer`.

    Parameters
    ----------
    n : int
        Number of nodes (static).
    alpha : float
        Parameter (``> -1/2``).
    mu : bool, default False
        Also return the total weight.

    Returns
    -------
    x, w : Array
    mu : float, optional

    Examples
    --------
    >>> from sciax.special import roots_gegenbauer
    >>> roots_gegenbauer(2, 1.0)[0].round(6)
    Array([-0.5,  0.5], dtype=float64)
    """
    alpha = float(alpha)
    if not alpha > -0.5:
        raise ValueError(f"roots_gegenbauer: alpha must be > -1/2, got {alpha}")
    return roots_jacobi(n, alpha - 0.5, alpha - 0.5, mu)


# --- associated Legendre functions and spherical harmonics ------------------------

def _assoc_legendre_normalized(n: Any, m: Any, x: Any, s: Any) -> Any:
    """Fully normalized ``sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!) P_n^m(x)`` for
    ``0 <= m <= n`` (Condon-Shortley phase), by the recurrence in the degree
    that never forms the factorials; ``s = sqrt(1 - x^2)``."""
    # P_m^m: (-1)^m sqrt((2m+1)/(4pi) prod_{k<=m} (2k-1)/(2k)) s^m
    def body_mm(k, p):
        kf = k.astype(x.dtype) + 1.0
        return snp.where(kf <= m, -p * s * snp.sqrt((2 * kf - 1) / (2 * kf)), p)

    pmm = lax.fori_loop(0, 0, body_mm, snp.full_like(x, 1.0))  # replaced below
    del pmm

    def cond_m(c):
        return snp.any(c[0] <= m)

    def step_m(c):
        k, p = c
        go = k <= m
        return k + 1.0, snp.where(go, -p * s * snp.sqrt((2 * k - 1) / (2 * k)), p)

    _, pmm = lax.while_loop(cond_m, step_m, (snp.ones_like(x),
                                             snp.full_like(x, 1.0)))
    pmm = pmm * snp.sqrt((2 * m + 1) / (4 * math.pi))

    def cond(c):
        return snp.any(c[0] < n)

    def step(c):
        l, pm2, pm1 = c
        ln = l + 1.0
        a = snp.sqrt((4 * ln * ln - 1) / (ln * ln - m * m))
        b = snp.sqrt(((ln - 1) ** 2 - m * m) / (4 * (ln - 1) ** 2 - 1))
        pn = a * (x * pm1 - b * pm2)
        go = l < n
        return ln, snp.where(go, pm1, pm2), snp.where(go, pn, pm1)

    _, _, p = lax.while_loop(cond, step, (m, snp.zeros_like(x), pmm))
    return p


def lpmv(m: Any, v: Any, x: Any) -> Any:
    """Associated Legendre function ``P_v^m(x)`` of integer order and degree
    (Condon-Shortley phase).

    sciax implementation of :func:`scipy.special.lpmv`.

    Parameters
    ----------
    m : array_like
        Order (integer).
    v : array_like
        Degree (integer, ``>= 0``).
    x : array_like
        Argument in ``[-1, 1]``.

    Returns
    -------
    Array

    Notes
    -----
    The normalized recurrence in the degree, rescaled by
    ``sqrt(4 pi (v+m)! / ((2v+1)(v-m)!))`` at the end.  *Differences from
    SciPy*: non-integer degrees give NaN (SciPy evaluates them through the
    hypergeometric function).

    Examples
    --------
    >>> from sciax.special import lpmv
    >>> lpmv(snp.array([0, 1, 2]), 2, 0.5).round(6)
    Array([-0.125   , -1.299038,  2.25    ], dtype=float64)
    """
    m, v, x = promote("lpmv", m, v, x)
    m, v = lax.stop_gradient(m), lax.stop_gradient(v)
    am = snp.abs(m)
    ok = (v == snp.floor(v)) & (m == snp.floor(m)) & (v >= 0) & (am <= v)
    ams = _util.safe(ok, am, 0.0)
    vs = _util.safe(ok, v, 0.0)
    s = snp.sqrt(snp.maximum((1.0 - x) * (1.0 + x), 0.0))
    pn = _assoc_legendre_normalized(vs, ams, x, s)
    # undo the normalization: P = pn * sqrt(4 pi / (2v+1) * (v+m)!/(v-m)!)
    lr = lax.lgamma(vs + ams + 1.0) - lax.lgamma(vs - ams + 1.0)
    p = pn * snp.sqrt(4 * math.pi / (2 * vs + 1.0)) * snp.exp(0.5 * lr)
    # negative order: P_v^{-m} = (-1)^m (v-m)!/(v+m)! P_v^m
    neg = m < 0
    p = snp.where(neg, snp.where(snp.remainder(ams, 2.0) == 0, 1.0, -1.0)
                  * snp.exp(-lr) * p, p)
    bad = ~((v == snp.floor(v)) & (m == snp.floor(m))) | (v < 0)
    p = snp.where(am > v, 0.0, p)
    return snp.where(bad | (snp.abs(x) > 1), snp.nan, p)


def sph_harm_y(n: Any, m: Any, theta: Any, phi: Any) -> Any:
    """Spherical harmonic ``Y_n^m(theta, phi)`` (``theta`` polar, ``phi``
    azimuthal), orthonormal on the sphere with the Condon-Shortley phase.

    sciax implementation of :func:`scipy.special.sph_harm_y` (without the
    ``diff_n`` argument).

    Parameters
    ----------
    n, m : array_like
        Degree and order (integers, ``|m| <= n``).
    theta, phi : array_like
        Polar and azimuthal angles.

    Returns
    -------
    Array
        Complex.

    Notes
    -----
    The fully normalized recurrence in the degree (no factorials, so high
    degrees do not overflow); ``Y_n^{-m} = (-1)^m conj(Y_n^m)``.  Differentiable
    in the angles.

    Examples
    --------
    >>> from sciax.special import sph_harm_y
    >>> print(f"{complex(sph_harm_y(1, 1, 0.5, 0.3)).real:.6f}")
    -0.158241
    """
    n, m, theta, phi = promote("sph_harm_y", n, m, theta, phi)
    n, m = lax.stop_gradient(n), lax.stop_gradient(m)
    am = snp.abs(m)
    ok = (n == snp.floor(n)) & (m == snp.floor(m)) & (n >= 0) & (am <= n)
    ams = _util.safe(ok, am, 0.0)
    ns = _util.safe(ok, n, 0.0)
    x, s = snp.cos(theta), snp.abs(snp.sin(theta))
    pn = _assoc_legendre_normalized(ns, ams, x, s)
    ctype = _util.complex_dtype(theta)
    y = pn.astype(ctype) * snp.exp(1j * (ams * phi).astype(ctype))
    sign = snp.where(snp.remainder(ams, 2.0) == 0, 1.0, -1.0).astype(ctype)
    y = snp.where(m < 0, sign * snp.conj(y), y)
    return snp.where(ok, y, snp.nan)
