"""Brute-force minimisation over a grid: ``brute``.

The grid is built as SciPy's (``np.mgrid`` from slices, or ``Ns`` points per
``(low, high)`` range) and the objective is evaluated on all points at once
with ``vmap`` (one compiled batched call instead of one Python call per
point).  The best grid point is then polished by ``finish`` (default
:func:`sciax.optimize.fmin`).
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np

import sciax
import sciax.numpy as snp

from sciax.optimize._legacy import fmin


def _grid(ranges, Ns):
    N = len(ranges)
    lrange = list(ranges)
    for k in range(N):
        if not isinstance(lrange[k], slice):
            if len(lrange[k]) < 3:
                lrange[k] = tuple(lrange[k]) + (complex(Ns),)
            lrange[k] = slice(*lrange[k])
    if N == 1:
        return np.mgrid[lrange[0]]
    return np.mgrid[tuple(lrange)]


def brute(func, ranges, args=(), Ns=20, full_output=False, finish=fmin,
          disp=False, workers=1):
    """Minimize a function over a given range by brute force.

    sciax implementation of :func:`scipy.optimize.brute`: evaluate ``func``
    at each point of a multidimensional grid and return the best point,
    optionally polished by a local minimizer.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``; ``x`` is a 1-D array of the grid
        coordinates (a 0-d array for a one-dimensional problem, as SciPy).  It
        must be traceable with ``sciax.numpy``: the whole grid is evaluated
        with one ``vmap``.
    ranges : tuple
        One ``slice`` or ``(low, high)`` pair per dimension (a pair gets
        ``Ns`` points, both ends included).
    args : tuple, optional
        Extra arguments of ``func``.
    Ns : int, optional
        Grid points per ``(low, high)`` range (default 20).
    full_output : bool, optional
        Also return the minimum value, the grid and the values on it.
    finish : callable, optional
        Polishes the best grid point: called as ``finish(func, x0,
        args=args)``, plus ``full_output=1`` and ``disp`` when it takes them
        (SciPy's legacy ``fmin*`` interface), or returning an
        :class:`OptimizeResult`; default :func:`sciax.optimize.fmin`.
        ``None`` skips polishing.
    disp : bool, optional
        Passed to ``finish``.
    workers : int, optional
        Accepted for compatibility; the grid is batched with ``vmap`` instead
        of a process pool.

    Returns
    -------
    x0 : ndarray
        The minimizer (polished by ``finish`` when it succeeds).
    fval : float
        The value at ``x0`` (``full_output`` only).
    grid : ndarray
        The grid, shape ``(N, Ns, ..., Ns)`` (``(Ns,)`` for ``N = 1``).
    Jout : ndarray
        ``func`` on the grid.

    Notes
    -----
    As SciPy, the polished point may lie outside the grid's ranges; a
    ``finish`` that reports failure gives a ``RuntimeWarning`` and its point
    is still returned.

    Examples
    --------
    >>> from sciax.optimize import brute
    >>> f = lambda z, a: (z[0] - a) ** 2 + (z[1] + 1.0) ** 2
    >>> x0 = brute(f, ((-4, 4), (-4, 4)), args=(1.5,), Ns=9)
    >>> print(np.round(np.asarray(x0), 4))
    [ 1.5 -1. ]
    """
    N = len(ranges)
    if N > 40:
        raise ValueError("Brute Force not possible with more than 40 variables.")
    grid = _grid(ranges, Ns)
    if N == 1:
        pts = grid.reshape(-1)
        fx = sciax.vmap(lambda p: snp.asarray(func(p, *args)))
        J = np.asarray(fx(snp.asarray(pts)), float).reshape(grid.shape)
    else:
        pts = grid.reshape(N, -1).T
        fx = sciax.vmap(lambda p: snp.asarray(func(p, *args)))
        J = np.asarray(fx(snp.asarray(pts)), float).reshape(grid.shape[1:])
    Jflat = J.ravel()
    k = int(np.nanargmin(Jflat))
    if N == 1:
        xmin = np.asarray(pts[k])
    else:
        xmin = pts[k].copy()
    Jmin = Jflat[k]
    if callable(finish):
        try:
            names = inspect.signature(finish).parameters
        except (TypeError, ValueError):
            names = {}
        kw = {}
        if "full_output" in names:
            kw["full_output"] = 1
        if "disp" in names:
            kw["disp"] = disp
        res = finish(func, xmin, args=args, **kw)
        if hasattr(res, "keys"):
            xmin, Jmin = np.asarray(res["x"]), float(res["fun"])
            ok = bool(res.success)
        else:
            xmin, Jmin = np.asarray(res[0]), float(res[1])
            ok = int(res[-1]) == 0
        if not ok:
            warnings.warn("Either final optimization did not succeed or `finish` "
                          "does not return `statuscode` as its last argument.",
                          RuntimeWarning, stacklevel=2)
        if N == 1:
            xmin = np.atleast_1d(xmin)
    if full_output:
        return snp.asarray(xmin), float(Jmin), grid, J
    return snp.asarray(xmin)
