"""SciPy's orthogonal polynomial objects: ``legendre(n)``, ``jacobi(n, a, b)``...

``scipy.special.legendre(n)`` and its siblings return an ``orthopoly1d``, a
:class:`numpy.poly1d` subclass that also carries the Gauss quadrature rule of
the polynomial (``weights``: nodes, weights and weights over the weight
function), the weight function, the interval and the norm.  These are
**host-side objects**, as SciPy's are: the coefficients are NumPy floats,
computed once when the object is built (from the nodes of
``sciax.special.roots_*``), and the ``n``, ``alpha``... are Python numbers, not
traced.  Calling the object on an array evaluates the polynomial with
``sciax.special.eval_*`` (so that call is jittable and differentiable in
``x``; the coefficients, as in SciPy, lose accuracy for large ``n``), and on
a ``poly1d`` composes polynomials with NumPy.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

import sciax.numpy as snp
# cycle: the public (compiled) roots_*/eval_*, looked up at call time
import sciax.special as _special

__all__ = ["orthopoly1d", "legendre", "chebyt", "chebyu", "chebyc", "chebys", "jacobi",
           "laguerre", "genlaguerre", "hermite", "hermitenorm", "gegenbauer",
           "sh_legendre", "sh_chebyt", "sh_chebyu", "sh_jacobi"]


class orthopoly1d(np.poly1d):
    """A :class:`numpy.poly1d` with the Gauss quadrature rule of an orthogonal
    polynomial (SciPy's ``scipy.special.orthopoly1d``).

    Parameters
    ----------
    roots : array_like
        The polynomial's roots (the quadrature nodes).
    weights : array_like
        The quadrature weights.
    hn : float
        The squared norm ``int w(x) p(x)^2 dx``.
    kn : float
        The leading coefficient.
    wfunc : callable
        The weight function (NumPy, host-side).
    limits : tuple
        The interval of orthogonality.
    monic : bool
        Scale to leading coefficient 1.
    eval_func : callable, optional
        Evaluates the polynomial accurately (a ``sciax.special.eval_*``).

    Attributes
    ----------
    weights : ndarray, shape (n, 3)
        Rows ``(node, weight, weight / wfunc(node))``.
    weight_func, limits, normcoef
        As SciPy's.

    Notes
    -----
    Host-side: the coefficients and the rule are NumPy arrays, built
    eagerly; only the call on an array (``eval_func``) runs in sciax.

    Examples
    --------
    >>> from sciax.special import legendre
    >>> p = legendre(2)
    >>> p.coeffs.round(6)
    array([ 1.5,  0. , -0.5])
    """

    def __init__(self, roots: Any, weights: Any = None, hn: float = 1.0,
                 kn: float = 1.0, wfunc: Callable | None = None,
                 limits: tuple | None = None, monic: bool = False,
                 eval_func: Callable | None = None) -> None:
        roots = np.asarray(roots, dtype=float)
        weights = np.asarray(weights if weights is not None else np.ones_like(roots),
                             dtype=float)
        equiv = [weights[k] / wfunc(roots[k]) for k in range(len(roots))]
        mu = math.sqrt(hn)
        if monic:
            evf = eval_func
            if evf:
                knn = kn

                def eval_func(x):
                    return evf(x) / knn
            mu = mu / abs(kn)
            kn = 1.0
        poly = np.poly1d(roots, r=True)
        np.poly1d.__init__(self, poly.coeffs * float(kn))
        self.weights = np.array(list(zip(roots, weights, equiv)))
        self.weight_func = wfunc
        self.limits = limits
        self.normcoef = mu
        # (dropped by poly1d arithmetic, as SciPy's)
        self._eval_func = eval_func

    def __call__(self, v: Any) -> Any:
        if self._eval_func and not isinstance(v, np.poly1d):
            return self._eval_func(v)
        return np.poly1d.__call__(self, v)

    def _scale(self, p: float) -> None:
        if p == 1.0:
            return
        self._coeffs *= p
        evf = self._eval_func
        if evf:
            self._eval_func = lambda x: evf(x) * p
        self.normcoef *= p


def _check_n(n: int) -> None:
    if n < 0:
        raise ValueError("n must be nonnegative.")


def _rule(roots: Callable, n: int, *a: Any) -> tuple:
    """Nodes and weights of ``roots(max(n, 1), *a)`` as NumPy arrays, empty
    for ``n = 0`` (SciPy's convention)."""
    if n == 0:
        return [], []
    x, w = roots(n, *a)
    return np.asarray(x), np.asarray(w)


_gam = math.gamma


def legendre(n: int, monic: bool = False) -> orthopoly1d:
    """Legendre polynomial ``P_n`` as an :class:`orthopoly1d` (host-side).

    sciax implementation of :func:`scipy.special.legendre`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import legendre
    >>> p = legendre(3)
    >>> p.coeffs.round(6)
    array([ 2.5,  0. , -1.5,  0. ])
    >>> float(p(0.5))
    -0.4375
    """
    _check_n(n)
    x, w = _rule(_special.roots_legendre, n)
    hn = 2.0 / (2 * n + 1)
    kn = _gam(2 * n + 1) / _gam(n + 1) ** 2 / 2.0 ** n
    return orthopoly1d(x, w, hn, kn, wfunc=lambda x: 1.0, limits=(-1, 1), monic=monic,
                       eval_func=lambda x: _special.eval_legendre(n, x))


def chebyt(n: int, monic: bool = False) -> orthopoly1d:
    """Chebyshev polynomial of the first kind ``T_n`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.chebyt`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import chebyt
    >>> chebyt(3).coeffs.round(6)
    array([ 4.,  0., -3.,  0.])
    """
    _check_n(n)

    def wfunc(x):
        return 1.0 / np.sqrt(1 - x * x)

    ev = lambda x: _special.eval_chebyt(n, x)   # noqa: E731
    if n == 0:
        return orthopoly1d([], [], math.pi, 1.0, wfunc, (-1, 1), monic, ev)
    x, w = _rule(_special.roots_chebyt, n)
    return orthopoly1d(x, w, math.pi / 2, 2.0 ** (n - 1), wfunc, (-1, 1), monic, ev)


def jacobi(n: int, alpha: float, beta: float, monic: bool = False) -> orthopoly1d:
    """Jacobi polynomial ``P_n^(alpha, beta)`` (host-side :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.jacobi`.

    Parameters
    ----------
    n : int
        Degree.
    alpha, beta : float
        Parameters (``> -1``).
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import jacobi
    >>> jacobi(2, 0.5, 1.5).coeffs.round(6)
    array([ 3.75 , -1.25 , -0.625])
    """
    _check_n(n)

    def wfunc(x):
        return (1 - x) ** alpha * (1 + x) ** beta

    if n == 0:
        return orthopoly1d([], [], 1.0, 1.0, wfunc, (-1, 1), monic,
                           eval_func=snp.ones_like)
    x, w = _rule(_special.roots_jacobi, n, alpha, beta)
    ab1 = alpha + beta + 1.0
    hn = 2 ** ab1 / (2 * n + ab1) * _gam(n + alpha + 1)
    hn *= _gam(n + beta + 1.0) / _gam(n + 1) / _gam(n + ab1)
    kn = _gam(2 * n + ab1) / 2.0 ** n / _gam(n + 1) / _gam(n + ab1)
    return orthopoly1d(x, w, hn, kn, wfunc, (-1, 1), monic,
                       lambda x: _special.eval_jacobi(n, alpha, beta, x))


def genlaguerre(n: int, alpha: float, monic: bool = False) -> orthopoly1d:
    """Generalized Laguerre polynomial ``L_n^(alpha)`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.genlaguerre`.

    Parameters
    ----------
    n : int
        Degree.
    alpha : float
        Parameter (``> -1``).
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import genlaguerre
    >>> genlaguerre(2, 0.5).coeffs.round(6)
    array([ 0.5  , -2.5  ,  1.875])
    """
    if alpha <= -1:
        raise ValueError("alpha must be > -1")
    _check_n(n)
    x, w = _rule(_special.roots_genlaguerre, n, alpha)

    def wfunc(x):
        return np.exp(-x) * x ** alpha

    hn = _gam(n + alpha + 1) / _gam(n + 1)
    kn = (-1) ** n / _gam(n + 1)
    return orthopoly1d(x, w, hn, kn, wfunc, (0, np.inf), monic,
                       lambda x: _special.eval_genlaguerre(n, alpha, x))


def laguerre(n: int, monic: bool = False) -> orthopoly1d:
    """Laguerre polynomial ``L_n`` (host-side :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.laguerre`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import laguerre
    >>> laguerre(2).coeffs.round(6)
    array([ 0.5, -2. ,  1. ])
    """
    _check_n(n)
    x, w = _rule(_special.roots_laguerre, n)
    kn = (-1) ** n / _gam(n + 1)
    return orthopoly1d(x, w, 1.0, kn, lambda x: np.exp(-x), (0, np.inf), monic,
                       lambda x: _special.eval_laguerre(n, x))


def hermite(n: int, monic: bool = False) -> orthopoly1d:
    """Physicists' Hermite polynomial ``H_n`` (host-side :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.hermite`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import hermite
    >>> hermite(3).coeffs.round(6)
    array([  8.,   0., -12.,   0.])
    """
    _check_n(n)
    x, w = _rule(_special.roots_hermite, n)
    hn = 2 ** n * _gam(n + 1) * math.sqrt(math.pi)
    return orthopoly1d(x, w, hn, 2.0 ** n, lambda x: np.exp(-x * x), (-np.inf, np.inf),
                       monic, lambda x: _special.eval_hermite(n, x))


def hermitenorm(n: int, monic: bool = False) -> orthopoly1d:
    """Probabilists' Hermite polynomial ``He_n`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.hermitenorm`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import hermitenorm
    >>> hermitenorm(3).coeffs.round(6)
    array([ 1.,  0., -3.,  0.])
    """
    _check_n(n)
    x, w = _rule(_special.roots_hermitenorm, n)
    hn = math.sqrt(2 * math.pi) * _gam(n + 1)
    return orthopoly1d(x, w, hn, 1.0, lambda x: np.exp(-x * x / 2.0), (-np.inf, np.inf),
                       monic, lambda x: _special.eval_hermitenorm(n, x))


def gegenbauer(n: int, alpha: float, monic: bool = False) -> orthopoly1d:
    """Gegenbauer (ultraspherical) polynomial ``C_n^(alpha)`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.gegenbauer`.

    Parameters
    ----------
    n : int
        Degree.
    alpha : float
        Parameter (``> -1/2``).
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import gegenbauer
    >>> gegenbauer(2, 1.5).coeffs.round(6)
    array([ 7.5,  0. , -1.5])
    """
    if not np.isfinite(alpha) or alpha <= -0.5:
        raise ValueError("`alpha` must be a finite number greater than -1/2")
    base = jacobi(n, alpha - 0.5, alpha - 0.5, monic=monic)
    if monic or n == 0:
        return base
    # Abramowitz and Stegun 22.5.20
    factor = (_gam(2 * alpha + n) * _gam(alpha + 0.5)
              / _gam(2 * alpha) / _gam(alpha + 0.5 + n))
    base._scale(factor)
    base.__dict__["_eval_func"] = lambda x: _special.eval_gegenbauer(float(n), alpha, x)
    return base


def chebyu(n: int, monic: bool = False) -> orthopoly1d:
    """Chebyshev polynomial of the second kind ``U_n`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.chebyu`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import chebyu
    >>> chebyu(2).coeffs.round(6)
    array([ 4.,  0., -1.])
    """
    base = jacobi(n, 0.5, 0.5, monic=monic)
    if monic:
        return base
    base._scale(math.sqrt(math.pi) / 2.0 * _gam(n + 2) / _gam(n + 1.5))
    return base


def chebyc(n: int, monic: bool = False) -> orthopoly1d:
    """Chebyshev polynomial ``C_n(x) = 2 T_n(x/2)`` on ``[-2, 2]`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.chebyc`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import chebyc
    >>> chebyc(2).coeffs.round(6)
    array([ 1.,  0., -2.])
    """
    _check_n(n)
    x, w = _rule(_special.roots_chebyc, n)
    p = orthopoly1d(x, w, 4 * math.pi * ((n == 0) + 1), 1.0,
                    wfunc=lambda x: 1.0 / np.sqrt(1 - x * x / 4.0), limits=(-2, 2),
                    monic=monic)
    if not monic:
        p._scale(2.0 / p(2))
        p.__dict__["_eval_func"] = lambda x: _special.eval_chebyc(n, x)
    return p


def chebys(n: int, monic: bool = False) -> orthopoly1d:
    """Chebyshev polynomial ``S_n(x) = U_n(x/2)`` on ``[-2, 2]`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.chebys`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import chebys
    >>> chebys(2).coeffs.round(6)
    array([ 1.,  0., -1.])
    """
    _check_n(n)
    x, w = _rule(_special.roots_chebys, n)
    p = orthopoly1d(x, w, math.pi, 1.0, wfunc=lambda x: np.sqrt(1 - x * x / 4.0),
                    limits=(-2, 2), monic=monic)
    if not monic:
        p._scale((n + 1.0) / p(2))
        p.__dict__["_eval_func"] = lambda x: _special.eval_chebys(n, x)
    return p


def sh_jacobi(n: int, p: float, q: float, monic: bool = False) -> orthopoly1d:
    """Shifted Jacobi polynomial ``G_n^(p, q)`` on ``[0, 1]`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.sh_jacobi`.

    Parameters
    ----------
    n : int
        Degree.
    p, q : float
        Parameters (``p - q > -1``, ``q > 0``).
    monic : bool, optional
        Scale to leading coefficient 1 (it is already 1).

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import sh_jacobi
    >>> sh_jacobi(2, 2.0, 1.5).coeffs.round(6)
    array([ 1.    , -1.    ,  0.1875])
    """
    _check_n(n)

    def wfunc(x):
        return (1.0 - x) ** (p - q) * x ** (q - 1.0)

    if n == 0:
        return orthopoly1d([], [], 1.0, 1.0, wfunc, (-1, 1), monic,
                           eval_func=snp.ones_like)
    x, w = _rule(_special.roots_sh_jacobi, n, p, q)
    hn = _gam(n + 1) * _gam(n + q) * _gam(n + p) * _gam(n + p - q + 1)
    hn /= (2 * n + p) * (_gam(2 * n + p) ** 2)
    return orthopoly1d(x, w, hn, 1.0, wfunc=wfunc, limits=(0, 1), monic=monic,
                       eval_func=lambda x: _special.eval_sh_jacobi(n, p, q, x))


def sh_legendre(n: int, monic: bool = False) -> orthopoly1d:
    """Shifted Legendre polynomial ``P*_n(x) = P_n(2x - 1)`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.sh_legendre`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import sh_legendre
    >>> sh_legendre(2).coeffs.round(6)
    array([ 6., -6.,  1.])
    """
    _check_n(n)

    def wfunc(x):
        return 0.0 * x + 1.0

    ev = lambda x: _special.eval_sh_legendre(n, x)   # noqa: E731
    if n == 0:
        return orthopoly1d([], [], 1.0, 1.0, wfunc, (0, 1), monic, ev)
    x, w = _rule(_special.roots_sh_legendre, n)
    hn = 1.0 / (2 * n + 1.0)
    kn = _gam(2 * n + 1) / _gam(n + 1) ** 2
    return orthopoly1d(x, w, hn, kn, wfunc, limits=(0, 1), monic=monic, eval_func=ev)


def sh_chebyt(n: int, monic: bool = False) -> orthopoly1d:
    """Shifted Chebyshev polynomial ``T*_n(x) = T_n(2x - 1)`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.sh_chebyt`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import sh_chebyt
    >>> sh_chebyt(2).coeffs.round(6)
    array([ 8., -8.,  1.])
    """
    base = sh_jacobi(n, 0.0, 0.5, monic=monic)
    if monic:
        return base
    base._scale(4 ** n / 2.0 if n > 0 else 1.0)
    return base


def sh_chebyu(n: int, monic: bool = False) -> orthopoly1d:
    """Shifted Chebyshev polynomial ``U*_n(x) = U_n(2x - 1)`` (host-side
    :class:`orthopoly1d`).

    sciax implementation of :func:`scipy.special.sh_chebyu`.

    Parameters
    ----------
    n : int
        Degree.
    monic : bool, optional
        Scale to leading coefficient 1.

    Returns
    -------
    orthopoly1d

    Examples
    --------
    >>> from sciax.special import sh_chebyu
    >>> sh_chebyu(2).coeffs.round(6)
    array([ 16., -16.,   3.])
    """
    base = sh_jacobi(n, 2.0, 1.5, monic=monic)
    if monic:
        return base
    base._scale(4 ** n)
    return base
