"""``root`` for systems of equations; so far method ``'lm'`` (a
Levenberg-Marquardt least-squares solve of ``f(x) = 0`` with
:func:`least_squares`).  ``'hybr'`` (Powell's dog-leg) and the quasi-Newton
and Krylov methods are not implemented yet."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import sciax.numpy as snp

from sciax.optimize._least_squares import LeastSquaresResult, least_squares

_LATER = ("hybr", "broyden1", "broyden2", "anderson", "linearmixing",
          "diagbroyden", "excitingmixing", "krylov", "df-sane")


def root(fun: Callable, x0: Any, args: Any = (), method: str = "hybr",
         jac: Any = None, tol: float | None = None, callback: Any = None,
         options: dict | None = None) -> LeastSquaresResult:
    """Find a root of a vector function.

    sciax implementation of :func:`scipy.optimize.root` for ``method='lm'``:
    ``f(x) = 0`` is solved as the least-squares problem ``min ||f(x)||``
    with the Levenberg-Marquardt trust region of :func:`least_squares`,
    on the exact Jacobian.

    Parameters
    ----------
    fun : callable
        ``fun(x, *args)`` returning an array with as many entries as ``x``.
    x0 : array_like
        Initial guess.
    args : tuple, optional
        Extra arguments; float leaves are traced and differentiable.
    method : str
        ``'lm'``.  SciPy's default ``'hybr'`` and the other methods are not
        implemented yet and raise ``ValueError``.
    jac : callable, optional
        Jacobian of ``fun`` (default: exact, by automatic differentiation).
    tol : float, optional
        Sets ``ftol``, ``xtol`` and ``gtol``.
    options : dict, optional
        ``ftol``, ``xtol``, ``gtol``, ``maxiter`` (mapped to ``max_nfev``),
        ``col_deriv`` and ``factor`` (ignored).

    Returns
    -------
    sol : OptimizeResult
        ``x``, ``fun``, ``jac``, ``success``, ``status``, ``message``,
        ``nfev``, ``njev`` (and ``least_squares``' other fields).

    Notes
    -----
    ``sol.x`` is differentiable with respect to float ``args`` by the
    implicit function theorem (``dx/da = -f_x^{-1} f_a`` at a root).

    Examples
    --------
    >>> from sciax.optimize import root
    >>> f = lambda x: snp.stack([x[0] + 0.5 * (x[0] - x[1]) ** 3 - 1.0,
    ...                          0.5 * (x[1] - x[0]) ** 3 + x[1]])
    >>> sol = root(f, snp.array([0.0, 0.0]), method="lm")
    >>> print(np.round(np.asarray(sol.x), 8), sol.success)
    [0.8411639 0.1588361] True
    """
    meth = method.lower() if isinstance(method, str) else method
    if meth in _LATER:
        raise ValueError(f"root: method {method!r} is not implemented in sciax yet; "
                         f"use method='lm'")
    if meth != "lm":
        raise ValueError(f"Unknown solver {method!r}")
    opts = dict(options or {})
    kw = {}
    for k in ("ftol", "xtol", "gtol"):
        if k in opts:
            kw[k] = float(opts.pop(k))
        elif tol is not None:
            kw[k] = float(tol)
        else:
            kw[k] = 1.49012e-08 if k != "gtol" else 1e-15
    if "maxiter" in opts:
        kw["max_nfev"] = int(opts.pop("maxiter"))
    opts.pop("col_deriv", None)
    opts.pop("factor", None)
    opts.pop("diag", None)
    opts.pop("epsfcn", None)
    if opts:
        raise ValueError(f"root(method='lm'): unknown options {sorted(opts)}")
    x = x0 if hasattr(x0, "dtype") else snp.asarray(np.asarray(x0, float))
    res = least_squares(fun, snp.ravel(x), jac=jac if callable(jac) else "2-point",
                        method="lm", args=args if isinstance(args, tuple) else (args,),
                        **kw)
    return res
