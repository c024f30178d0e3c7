"""SciPy's legacy and functional front doors of ``scipy.optimize``.

``fmin``, ``fmin_powell``, ``fmin_cg``, ``fmin_bfgs``, ``fmin_ncg``,
``fmin_l_bfgs_b``, ``fmin_tnc``, ``fmin_slsqp`` (over :func:`minimize`),
``fminbound``, ``brent``, ``golden`` (over :func:`minimize_scalar`),
``bracket`` (SciPy's downhill bracketing), ``fsolve`` (over ``root`` hybr),
``leastsq`` (over ``least_squares`` lm) and the ``nonlin`` solver functions
``broyden1``, ``broyden2``, ``anderson``, ``newton_krylov``, ``diagbroyden``,
``linearmixing``, ``excitingmixing`` (over ``root``), with SciPy's
signatures, defaults, return tuples, warning flags and printed messages.

These are thin host-side layers: each builds the options, runs the compiled
solver once and rearranges its result.  Gradients are exact: ``fprime=None``
means the gradient by automatic differentiation (SciPy would use finite
differences), and ``approx_grad`` / ``epsilon`` are accepted and ignored.
The per-iteration ``callback(xk)`` and ``retall``'s ``allvecs`` are served by
one module-level collector (a stable function, so the solver compiles once
per problem whether or not a callback is given).
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp

from sciax.optimize._base import OptimizeWarning
from sciax.optimize._least_squares import least_squares
from sciax.optimize._minimize import minimize
from sciax.optimize._root import root
from sciax.optimize._scalar import minimize_scalar

_EPSILON = math.sqrt(np.finfo(float).eps)
_STATUS = {"success": "Optimization terminated successfully.",
           "maxfev": "Maximum number of function evaluations has been exceeded.",
           "maxiter": "Maximum number of iterations has been exceeded.",
           "pr_loss": "Desired error not necessarily achieved due to precision loss.",
           "nan": "NaN result encountered."}


class NoConvergence(Exception):
    """Exception raised when a ``nonlin`` solver does not converge (SciPy's
    :class:`scipy.optimize.NoConvergence`); ``args[0]`` is the last iterate.

    Examples
    --------
    >>> from sciax.optimize import broyden1, NoConvergence
    >>> try:
    ...     broyden1(lambda x: x ** 2 + 1.0, snp.array([1.0]), maxiter=5)
    ... except NoConvergence:
    ...     print("no root")
    no root
    """


# --- shared helpers ----------------------------------------------------------------

_STACK: list = []


def _collector(intermediate_result):
    """The one callback handed to the compiled solvers: appends the iterate to
    the innermost call's ``allvecs`` and calls its user ``callback(xk)``."""
    if not _STACK:
        return
    allvecs, user = _STACK[-1]
    x = np.array(intermediate_result.x, dtype=float, copy=True)
    if allvecs is not None:
        allvecs.append(x)
    if user is not None:
        user(x)


def _concrete(v):
    try:
        return np.asarray(v)
    except Exception:  # a tracer: no host value
        return None


def _pyint(v):
    c = _concrete(v)
    return int(c) if c is not None and c.ndim == 0 else v


def _run(fun, x0, args, method, retall, callback, **kw):
    """``minimize`` with the collector; returns ``(res, allvecs)``."""
    if not isinstance(args, tuple):
        args = (args,)
    x0a = x0 if hasattr(x0, "dtype") else np.asarray(x0, float)
    allvecs = [np.array(x0a, dtype=float).ravel()] if retall else None
    need = bool(retall) or callback is not None
    if need:
        _STACK.append((allvecs, callback))
    try:
        res = minimize(fun, x0a, args=args, method=method,
                       callback=_collector if need else None, **kw)
        _concrete(res["x"])  # wait for the program (and its callbacks)
    finally:
        if need:
            _STACK.pop()
    return res, allvecs


def _ret(res, full, retall, allvecs, fields):
    if full:
        out = tuple(_pyint(res[k]) if k in ("nit", "nfev", "njev", "nhev", "status")
                    else res[k] for k in fields)
        return out + (allvecs,) if retall else out
    return (res["x"], allvecs) if retall else res["x"]


def _report(disp, warnflag, msg, res, counts, warntype=None, stats_on_fail=True):
    """SciPy's end-of-run report: the message (a warning when ``warnflag``),
    then the function value and the counters."""
    if not disp:
        return
    f = _concrete(res["fun"])
    if f is None or f.ndim != 0:
        return  # traced or batched: nothing to print on the host
    if warnflag:
        warnings.warn(msg, warntype or OptimizeWarning, stacklevel=3)
        if not stats_on_fail:
            return
    else:
        print(msg)
    print(f"         Current function value: {float(f):f}")
    for label, key in counts:
        print(f"         {label}: {int(np.asarray(res[key])):d}")


def _lookup(table, flag, default=""):
    """``table[flag]`` for a host integer flag (under jit/vmap: ``default``)."""
    return table.get(flag, default) if isinstance(flag, int) else default


def _jac_arg(fprime):
    return fprime if callable(fprime) else None


# --- multivariate minimizers -------------------------------------------------------


def fmin(func: Callable, x0: Any, args: tuple = (), xtol: float = 1e-4,
         ftol: float = 1e-4, maxiter: int | None = None, maxfun: int | None = None,
         full_output: int = 0, disp: int = 1, retall: int = 0,
         callback: Callable | None = None, initial_simplex: Any = None):
    """Minimize a function using the downhill simplex algorithm.

    sciax implementation of :func:`scipy.optimize.fmin` (Nelder-Mead through
    :func:`minimize`).

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``, written with sciax.
    x0 : array_like
        Initial guess.
    args : tuple, optional
        Extra arguments of ``func``.
    xtol, ftol : float, optional
        Absolute errors in ``xopt`` and ``func(xopt)`` acceptable for
        convergence.
    maxiter, maxfun : int, optional
        Maximum iterations and function evaluations (default ``200 * n``).
    full_output : bool, optional
        Return ``fopt``, ``iter``, ``funcalls`` and ``warnflag`` too.
    disp : bool, optional
        Print convergence messages (default on, as SciPy).
    retall : bool, optional
        Return the list of iterates too.
    callback : callable, optional
        ``callback(xk)`` after each iteration.
    initial_simplex : array_like of shape (n + 1, n), optional
        The initial simplex.

    Returns
    -------
    xopt : Array
    fopt, iter, funcalls, warnflag : only with ``full_output``
        ``warnflag`` is 1 when ``maxfun`` and 2 when ``maxiter`` was reached.
    allvecs : list of ndarray, only with ``retall``

    Examples
    --------
    >>> from sciax.optimize import fmin
    >>> x = fmin(lambda x: snp.sum((x - 1.0) ** 2), snp.zeros(2), xtol=1e-8,
    ...          ftol=1e-8, disp=0)
    >>> print(np.round(np.asarray(x), 6))
    [1. 1.]
    """
    opts = dict(xatol=xtol, fatol=ftol, maxiter=maxiter, maxfev=maxfun)
    if initial_simplex is not None:
        opts["initial_simplex"] = initial_simplex
    res, allvecs = _run(func, x0, args, "Nelder-Mead", retall, callback,
                        options=opts)
    flag = _pyint(res["status"])
    msg = _lookup({0: _STATUS["success"], 1: _STATUS["maxfev"],
                   2: _STATUS["maxiter"]}, flag, _STATUS["nan"])
    _report(disp, flag, msg, res, (("Iterations", "nit"),
                                   ("Function evaluations", "nfev")),
            RuntimeWarning, stats_on_fail=False)
    return _ret(res, full_output, retall, allvecs,
                ("x", "fun", "nit", "nfev", "status"))


def fmin_powell(func: Callable, x0: Any, args: tuple = (), xtol: float = 1e-4,
                ftol: float = 1e-4, maxiter: int | None = None,
                maxfun: int | None = None, full_output: int = 0, disp: int = 1,
                retall: int = 0, callback: Callable | None = None,
                direc: Any = None):
    """Minimize a function using modified Powell's method.

    sciax implementation of :func:`scipy.optimize.fmin_powell`.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``.
    x0 : array_like
        Initial guess.
    args : tuple, optional
        Extra arguments of ``func``.
    xtol, ftol : float, optional
        Line-search and relative function-value tolerances.
    maxiter, maxfun : int, optional
        Limits (default ``1000 * n`` each).
    full_output, disp, retall, callback
        As :func:`fmin`.
    direc : array_like, optional
        Initial direction set (rows).

    Returns
    -------
    xopt : Array
    fopt, direc, iter, funcalls, warnflag : only with ``full_output``
        ``warnflag``: 1 ``maxfun``, 2 ``maxiter``, 3 NaN.
    allvecs : list, only with ``retall``

    Examples
    --------
    >>> from sciax.optimize import fmin_powell
    >>> x = fmin_powell(lambda x: snp.sum((x - 2.0) ** 2), snp.zeros(2), disp=0)
    >>> print(np.round(np.asarray(x), 6))
    [2. 2.]
    """
    opts = dict(xtol=xtol, ftol=ftol, maxiter=maxiter, maxfev=maxfun)
    if direc is not None:
        opts["direc"] = direc
    res, allvecs = _run(func, x0, args, "Powell", retall, callback, options=opts)
    flag = _pyint(res["status"])
    msg = _lookup({0: _STATUS["success"], 1: _STATUS["maxfev"],
                   2: _STATUS["maxiter"], 3: _STATUS["nan"]}, flag)
    _report(disp, flag, msg, res, (("Iterations", "nit"),
                                   ("Function evaluations", "nfev")),
            RuntimeWarning)
    return _ret(res, full_output, retall, allvecs,
                ("x", "fun", "direc", "nit", "nfev", "status"))


_GRAD_MSG = {0: _STATUS["success"], 1: _STATUS["maxiter"], 2: _STATUS["pr_loss"],
             3: _STATUS["nan"]}


def fmin_cg(f: Callable, x0: Any, fprime: Callable | None = None, args: tuple = (),
            gtol: float = 1e-5, norm: float = np.inf, epsilon: Any = _EPSILON,
            maxiter: int | None = None, full_output: int = 0, disp: int = 1,
            retall: int = 0, callback: Callable | None = None, c1: float = 1e-4,
            c2: float = 0.4):
    """Minimize a function using a nonlinear conjugate gradient algorithm.

    sciax implementation of :func:`scipy.optimize.fmin_cg` (Polak-Ribiere).

    Parameters
    ----------
    f : callable
        ``f(x, *args) -> float``.
    x0 : array_like
        Initial guess.
    fprime : callable, optional
        Gradient ``fprime(x, *args)``; by default the exact gradient (automatic
        differentiation, not finite differences).
    args : tuple, optional
        Extra arguments.
    gtol : float, optional
        Stop when the ``norm`` of the gradient is below ``gtol``.
    norm : float, optional
        Order of the gradient norm (default ``inf``).
    epsilon : float, optional
        Accepted for SciPy compatibility (no finite differences are taken).
    maxiter : int, optional
        Default ``200 * n``.
    full_output, disp, retall, callback
        As :func:`fmin`.
    c1, c2 : float, optional
        Wolfe line-search parameters.

    Returns
    -------
    xopt : Array
    fopt, func_calls, grad_calls, warnflag : only with ``full_output``
        ``warnflag``: 1 ``maxiter``, 2 precision loss, 3 NaN.
    allvecs : list, only with ``retall``

    Examples
    --------
    >>> from sciax.optimize import fmin_cg
    >>> f = lambda x, a: snp.sum((x - a) ** 2) + x[0] * x[1]
    >>> x = fmin_cg(f, snp.zeros(2), args=(1.0,), disp=0)
    >>> print(np.round(np.asarray(x), 6))
    [0.666667 0.666667]
    """
    del epsilon
    res, allvecs = _run(f, x0, args, "CG", retall, callback, jac=_jac_arg(fprime),
                        options=dict(gtol=gtol, norm=norm, maxiter=maxiter, c1=c1,
                                     c2=c2))
    flag = _pyint(res["status"])
    _report(disp, flag, _lookup(_GRAD_MSG, flag), res,
            (("Iterations", "nit"), ("Function evaluations", "nfev"),
             ("Gradient evaluations", "njev")))
    return _ret(res, full_output, retall, allvecs,
                ("x", "fun", "nfev", "njev", "status"))


def fmin_bfgs(f: Callable, x0: Any, fprime: Callable | None = None, args: tuple = (),
              gtol: float = 1e-5, norm: float = np.inf, epsilon: Any = _EPSILON,
              maxiter: int | None = None, full_output: int = 0, disp: int = 1,
              retall: int = 0, callback: Callable | None = None, xrtol: float = 0,
              c1: float = 1e-4, c2: float = 0.9, hess_inv0: Any = None):
    """Minimize a function using the BFGS algorithm.

    sciax implementation of :func:`scipy.optimize.fmin_bfgs`.

    Parameters
    ----------
    f : callable
        ``f(x, *args) -> float``.
    x0 : array_like
        Initial guess.
    fprime : callable, optional
        Gradient; by default the exact gradient.
    args : tuple, optional
        Extra arguments.
    gtol, norm, epsilon, maxiter, full_output, disp, retall, callback
        As :func:`fmin_cg`.
    xrtol : float, optional
        Relative tolerance on ``x``.
    c1, c2 : float, optional
        Wolfe line-search parameters.
    hess_inv0 : array_like, optional
        Initial inverse Hessian.

    Returns
    -------
    xopt : Array
    fopt, gopt, Bopt, func_calls, grad_calls, warnflag : with ``full_output``
    allvecs : list, only with ``retall``

    Examples
    --------
    >>> from sciax.optimize import fmin_bfgs, rosen
    >>> x = fmin_bfgs(rosen, snp.array([-1.2, 1.0]))  # doctest: +ELLIPSIS
    Optimization terminated successfully.
             Current function value: 0.000000
             Iterations: ...
             Function evaluations: ...
             Gradient evaluations: ...
    >>> print(np.round(np.asarray(x), 5))
    [1. 1.]
    """
    del epsilon
    opts = dict(gtol=gtol, norm=norm, maxiter=maxiter, xrtol=xrtol, c1=c1, c2=c2)
    if hess_inv0 is not None:
        opts["hess_inv0"] = hess_inv0
    res, allvecs = _run(f, x0, args, "BFGS", retall, callback, jac=_jac_arg(fprime),
                        options=opts)
    flag = _pyint(res["status"])
    _report(disp, flag, _lookup(_GRAD_MSG, flag), res,
            (("Iterations", "nit"), ("Function evaluations", "nfev"),
             ("Gradient evaluations", "njev")))
    return _ret(res, full_output, retall, allvecs,
                ("x", "fun", "jac", "hess_inv", "nfev", "njev", "status"))


def fmin_ncg(f: Callable, x0: Any, fprime: Callable | None = None,
             fhess_p: Callable | None = None, fhess: Callable | None = None,
             args: tuple = (), avextol: float = 1e-5, epsilon: Any = _EPSILON,
             maxiter: int | None = None, full_output: int = 0, disp: int = 1,
             retall: int = 0, callback: Callable | None = None, c1: float = 1e-4,
             c2: float = 0.9):
    """Unconstrained minimization using the Newton-CG method.

    sciax implementation of :func:`scipy.optimize.fmin_ncg`.  ``fprime`` is
    optional here (SciPy requires it): by default the exact gradient, and the
    exact Hessian-vector products unless ``fhess_p`` or ``fhess`` is given.

    Parameters
    ----------
    f : callable
        ``f(x, *args) -> float``.
    x0 : array_like
        Initial guess.
    fprime, fhess_p, fhess : callable, optional
        Gradient, Hessian-vector product ``fhess_p(x, p, *args)`` and Hessian.
    args : tuple, optional
        Extra arguments.
    avextol : float, optional
        Stop when the average relative error in the minimizer is below it.
    epsilon, maxiter, full_output, disp, retall, callback, c1, c2
        As :func:`fmin_bfgs`.

    Returns
    -------
    xopt : Array
    fopt, fcalls, gcalls, hcalls, warnflag : with ``full_output``
        ``warnflag``: 1 ``maxiter``, 2 precision loss, 3 NaN.
    allvecs : list, only with ``retall``

    Examples
    --------
    >>> from sciax.optimize import fmin_ncg, rosen
    >>> x = fmin_ncg(rosen, snp.array([-1.2, 1.0]), avextol=1e-8, disp=0)
    >>> print(np.round(np.asarray(x), 5))
    [1. 1.]
    """
    del epsilon
    res, allvecs = _run(f, x0, args, "Newton-CG", retall, callback,
                        jac=_jac_arg(fprime), hess=fhess, hessp=fhess_p,
                        options=dict(xtol=avextol, maxiter=maxiter, c1=c1, c2=c2))
    flag = _pyint(res["status"])
    msg = _lookup({1: "Warning: " + _STATUS["maxiter"],
                   2: "Warning: " + _STATUS["pr_loss"]}, flag,
                  _lookup(_GRAD_MSG, flag))
    _report(disp, flag, msg, res,
            (("Iterations", "nit"), ("Function evaluations", "nfev"),
             ("Gradient evaluations", "njev"), ("Hessian evaluations", "nhev")))
    return _ret(res, full_output, retall, allvecs,
                ("x", "fun", "nfev", "njev", "nhev", "status"))


def _value_and_grad_fun(func, x0, args):
    """SciPy's ``fprime=None`` convention of ``fmin_l_bfgs_b``/``fmin_tnc``:
    ``func`` returns ``(f, g)``; a ``func`` returning ``f`` alone gets the
    exact gradient instead.  Returns ``(fun, jac)`` for :func:`minimize`."""
    x = x0 if hasattr(x0, "dtype") else snp.asarray(np.asarray(x0, float))
    try:
        out = sciax.eval_shape(lambda z: func(z, *args), x)
    except Exception:  # let minimize report the problem
        return func, None
    if isinstance(out, (tuple, list)) and len(out) == 2:
        return func, True
    return func, None


def fmin_l_bfgs_b(func: Callable, x0: Any, fprime: Callable | None = None,
                  args: tuple = (), approx_grad: int = 0, bounds: Any = None,
                  m: int = 10, factr: float = 1e7, pgtol: float = 1e-5,
                  epsilon: float = 1e-8, iprint: Any = None, maxfun: int = 15000,
                  maxiter: int = 15000, disp: Any = None,
                  callback: Callable | None = None, maxls: int = 20):
    """Minimize a function subject to bounds with L-BFGS-B.

    sciax implementation of :func:`scipy.optimize.fmin_l_bfgs_b`.

    Parameters
    ----------
    func : callable
        ``func(x, *args)``: the value, or ``(f, g)`` when ``fprime`` is None
        and ``approx_grad`` is false (SciPy's convention); a ``func`` that
        returns the value alone then gets the exact gradient.
    x0 : array_like
        Initial guess.
    fprime : callable, optional
        Gradient.
    args : tuple, optional
        Extra arguments.
    approx_grad : bool, optional
        ``func`` returns the value only (the gradient is then exact, not a
        finite difference).
    bounds : sequence of (min, max) pairs, optional
        ``None`` for no bound on that side.
    m : int, optional
        Number of stored corrections.
    factr : float, optional
        Stop when the relative reduction of ``f`` is below ``factr * eps``.
    pgtol : float, optional
        Stop when the projected gradient's max norm is below ``pgtol``.
    epsilon, iprint, disp
        Accepted for SciPy compatibility (nothing is printed).
    maxfun, maxiter, maxls : int, optional
        Limits on evaluations, iterations and line-search steps.
    callback : callable, optional
        ``callback(xk)`` after each iteration.

    Returns
    -------
    x : Array
    f : Array
    d : dict
        ``grad``, ``task`` (the message), ``funcalls``, ``nit`` and
        ``warnflag`` (0 converged, 1 too many evaluations or iterations, 2
        another stop, see ``task``).

    Examples
    --------
    >>> from sciax.optimize import fmin_l_bfgs_b
    >>> f = lambda x: snp.sum((x - 3.0) ** 2)
    >>> x, fx, d = fmin_l_bfgs_b(f, snp.zeros(2), bounds=[(0, 2), (0, None)])
    >>> print(np.round(np.asarray(x), 6), d["warnflag"])
    [2. 3.] 0
    """
    del epsilon, iprint, disp
    if approx_grad or fprime is not None:
        fun, jac = func, _jac_arg(fprime)
    else:
        fun, jac = _value_and_grad_fun(func, x0, args if isinstance(args, tuple)
                                       else (args,))
    res, _ = _run(fun, x0, args, "L-BFGS-B", False, callback, jac=jac,
                  bounds=bounds, options=dict(maxcor=m, ftol=factr * np.finfo(
                      float).eps, gtol=pgtol, maxfun=maxfun, maxiter=maxiter,
                      maxls=maxls))
    d = {"grad": res["jac"], "task": res.message, "funcalls": _pyint(res["nfev"]),
         "nit": _pyint(res["nit"]), "warnflag": _pyint(res["status"])}
    return res["x"], res["fun"], d


def fmin_tnc(func: Callable, x0: Any, fprime: Callable | None = None,
             args: tuple = (), approx_grad: int = 0, bounds: Any = None,
             epsilon: float = 1e-8, scale: Any = None, offset: Any = None,
             messages: int = 15, maxCGit: int = -1, maxfun: int | None = None,
             eta: float = -1, stepmx: float = 0, accuracy: float = 0,
             fmin: float = 0, ftol: float = -1, xtol: float = -1,
             pgtol: float = -1, rescale: float = -1, disp: Any = None,
             callback: Callable | None = None):
    """Minimize a function with bounds by a truncated Newton algorithm.

    sciax implementation of :func:`scipy.optimize.fmin_tnc`.

    Parameters
    ----------
    func : callable
        ``func(x, *args)``: the value, or ``(f, g)`` when ``fprime`` is None
        and ``approx_grad`` is false (SciPy's convention); a ``func`` that
        returns the value alone then gets the exact gradient.
    x0 : array_like
        Initial guess.
    fprime : callable, optional
        Gradient.
    args : tuple, optional
        Extra arguments.
    approx_grad : bool, optional
        ``func`` returns the value only (the gradient is exact).
    bounds : sequence of (min, max) pairs, optional
    epsilon, messages, disp
        Accepted for SciPy compatibility (nothing is printed).
    scale, offset, maxCGit, maxfun, eta, stepmx, accuracy, fmin, ftol, xtol,
    pgtol, rescale
        TNC's options, as SciPy.
    callback : callable, optional
        ``callback(xk)`` after each iteration.

    Returns
    -------
    x : Array
    nfeval : int
    rc : int
        TNC's return code (0 local minimum, 1 ``f`` converged, 2 ``x``
        converged, 3 ``maxfun`` reached, 4 line search failed).

    Examples
    --------
    >>> from sciax.optimize import fmin_tnc
    >>> f = lambda x: snp.sum((x - 3.0) ** 2)
    >>> x, nfeval, rc = fmin_tnc(f, snp.zeros(2), bounds=[(0, 2), (0, 10)])
    >>> print(np.round(np.asarray(x), 5), rc in (0, 1, 2))
    [2. 3.] True
    """
    del epsilon, messages, disp
    if approx_grad or fprime is not None:
        fun, jac = func, _jac_arg(fprime)
    else:
        fun, jac = _value_and_grad_fun(func, x0, args if isinstance(args, tuple)
                                       else (args,))
    opts = dict(maxCGit=maxCGit, maxfun=maxfun, eta=eta, stepmx=stepmx,
                accuracy=accuracy, minfev=fmin, ftol=ftol, xtol=xtol, gtol=pgtol,
                rescale=rescale)
    if scale is not None:
        opts["scale"] = scale
    if offset is not None:
        opts["offset"] = offset
    res, _ = _run(fun, x0, args, "TNC", False, callback, jac=jac, bounds=bounds,
                  options=opts)
    return res["x"], _pyint(res["nfev"]), _pyint(res["status"])


def fmin_slsqp(func: Callable, x0: Any, eqcons: Any = (), f_eqcons: Any = None,
               ieqcons: Any = (), f_ieqcons: Any = None, bounds: Any = (),
               fprime: Any = None, fprime_eqcons: Any = None,
               fprime_ieqcons: Any = None, args: tuple = (), iter: int = 100,
               acc: float = 1.0e-6, iprint: int = 1, disp: Any = None,
               full_output: int = 0, epsilon: float = _EPSILON,
               callback: Callable | None = None):
    """Minimize a function using Sequential Least Squares Programming.

    sciax implementation of :func:`scipy.optimize.fmin_slsqp`.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``.
    x0 : array_like
        Initial guess.
    eqcons, ieqcons : list of callables, optional
        Scalar constraints ``c(x, *args) == 0`` and ``c(x, *args) >= 0``.
    f_eqcons, f_ieqcons : callable, optional
        Vector constraints (used instead of ``eqcons``/``ieqcons``' role for
        arrays), with optional Jacobians ``fprime_eqcons``/``fprime_ieqcons``.
    bounds : sequence of (min, max) pairs, optional
    fprime : callable, optional
        Gradient of ``func``; by default exact.
    args : tuple, optional
        Extra arguments of ``func`` and of the constraints.
    iter : int, optional
        Maximum iterations.
    acc : float, optional
        Requested accuracy.
    iprint, disp : int, optional
        ``disp`` overrides ``iprint``; at 1 or more the exit message and
        counters are printed, as SciPy.
    full_output : bool, optional
        Return ``fx``, ``its``, ``imode``, ``smode`` too.
    epsilon : float, optional
        Accepted for SciPy compatibility.
    callback : callable, optional
        ``callback(xk)`` after each iteration.

    Returns
    -------
    out : Array
    fx, its, imode, smode : only with ``full_output``
        ``imode`` is SLSQP's exit mode (0 success), ``smode`` its message.

    Examples
    --------
    >>> from sciax.optimize import fmin_slsqp
    >>> f = lambda x: x[0] ** 2 + x[1] ** 2
    >>> x = fmin_slsqp(f, snp.array([1.0, 1.0]),
    ...                eqcons=[lambda x: x[0] + x[1] - 1.0], iprint=0)
    >>> print(np.round(np.asarray(x), 6))
    [0.5 0.5]
    """
    del epsilon
    if disp is not None:
        iprint = disp
    if not isinstance(args, tuple):
        args = (args,)
    cons = tuple({"type": "eq", "fun": c, "args": args} for c in eqcons)
    cons += tuple({"type": "ineq", "fun": c, "args": args} for c in ieqcons)
    if f_eqcons:
        c = {"type": "eq", "fun": f_eqcons, "args": args}
        if fprime_eqcons is not None:
            c["jac"] = fprime_eqcons
        cons += (c,)
    if f_ieqcons:
        c = {"type": "ineq", "fun": f_ieqcons, "args": args}
        if fprime_ieqcons is not None:
            c["jac"] = fprime_ieqcons
        cons += (c,)
    res, _ = _run(func, x0, args, "SLSQP", False, callback, jac=_jac_arg(fprime),
                  bounds=bounds if bounds is not None and len(bounds) else None,
                  constraints=cons, options=dict(maxiter=iter, ftol=acc))
    mode = _pyint(res["status"])
    if iprint is not None and iprint >= 1:
        fx = _concrete(res["fun"])
        if fx is not None and fx.ndim == 0:
            print(res.message + f"    (Exit mode {mode})")
            print("            Current function value:", float(fx))
            print("            Iterations:", _pyint(res["nit"]))
            print("            Function evaluations:", _pyint(res["nfev"]))
            print("            Gradient evaluations:", _pyint(res["njev"]))
    if full_output:
        return res["x"], res["fun"], _pyint(res["nit"]), mode, res.message
    return res["x"]


# --- scalar minimizers --------------------------------------------------------------

_GOLD = 1.618034
_VERYSMALL = 1e-21


class BracketError(RuntimeError):
    """:func:`bracket` found no valid bracket (SciPy's ``BracketError``); its
    ``data`` holds ``(xa, xb, xc, fa, fb, fc, funcalls)``."""


def _fval(func, args):
    def f(x):
        return float(np.asarray(func(x, *args)).reshape(()))
    return f


def bracket(func: Callable, xa: float = 0.0, xb: float = 1.0, args: tuple = (),
            grow_limit: float = 110.0, maxiter: int = 1000):
    """Bracket the minimum of a function.

    sciax implementation of :func:`scipy.optimize.bracket`: SciPy's downhill
    search (golden-ratio expansion with parabolic extrapolation limited by
    ``grow_limit``), run on the host with ``func`` evaluated eagerly.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``.
    xa, xb : float, optional
        Two distinct starting points (default 0 and 1).
    args : tuple, optional
        Extra arguments.
    grow_limit : float, optional
        Maximum grow factor of a parabolic step.
    maxiter : int, optional
        Maximum number of iterations.

    Returns
    -------
    xa, xb, xc : float
        ``xb`` between ``xa`` and ``xc`` with ``f(xb) < f(xa)``, ``f(xb) <
        f(xc)`` (or ``<=`` at one end, as SciPy).
    fa, fb, fc : float
    funcalls : int

    Raises
    ------
    RuntimeError
        No valid bracket within ``maxiter`` iterations.
    BracketError
        The search ended on an invalid bracket (a subclass of RuntimeError).

    Examples
    --------
    >>> from sciax.optimize import bracket
    >>> xa, xb, xc, fa, fb, fc, n = bracket(lambda x: (x - 3.0) ** 2, 0.0, 1.0)
    >>> print(xa < xb < xc, fb < fa and fb < fc)
    True True
    """
    if not isinstance(args, tuple):
        args = (args,)
    f = _fval(func, args)
    xa, xb = float(xa), float(xb)
    fa, fb = f(xa), f(xb)
    if fa < fb:
        xa, xb, fa, fb = xb, xa, fb, fa
    xc = xb + _GOLD * (xb - xa)
    fc = f(xc)
    funcalls, it = 3, 0
    while fc < fb:
        tmp1 = (xb - xa) * (fb - fc)
        tmp2 = (xb - xc) * (fb - fa)
        val = tmp2 - tmp1
        denom = 2.0 * _VERYSMALL if abs(val) < _VERYSMALL else 2.0 * val
        w = xb - ((xb - xc) * tmp2 - (xb - xa) * tmp1) / denom
        wlim = xb + grow_limit * (xc - xb)
        if it > maxiter:
            raise RuntimeError("No valid bracket was found before the iteration limit "
                               "was reached. Consider trying different initial points "
                               "or increasing `maxiter`.")
        it += 1
        if (w - xc) * (xb - w) > 0.0:
            fw = f(w)
            funcalls += 1
            if fw < fc:
                xa, xb, fa, fb = xb, w, fb, fw
                break
            if fw > fb:
                xc, fc = w, fw
                break
            w = xc + _GOLD * (xc - xb)
            fw = f(w)
            funcalls += 1
        elif (w - wlim) * (wlim - xc) >= 0.0:
            w = wlim
            fw = f(w)
            funcalls += 1
        elif (w - wlim) * (xc - w) > 0.0:
            fw = f(w)
            funcalls += 1
            if fw < fc:
                xb, xc = xc, w
                w = xc + _GOLD * (xc - xb)
                fb, fc = fc, fw
                fw = f(w)
                funcalls += 1
        else:
            w = xc + _GOLD * (xc - xb)
            fw = f(w)
            funcalls += 1
        xa, xb, xc = xb, xc, w
        fa, fb, fc = fb, fc, fw
    cond1 = (fb < fc and fb <= fa) or (fb < fa and fb <= fc)
    cond2 = xa < xb < xc or xc < xb < xa
    cond3 = np.isfinite(xa) and np.isfinite(xb) and np.isfinite(xc)
    if not (cond1 and cond2 and cond3):
        e = BracketError("The algorithm terminated without finding a valid bracket. "
                         "Consider trying different initial points.")
        e.data = (xa, xb, xc, fa, fb, fc, funcalls)
        raise e
    return xa, xb, xc, fa, fb, fc, funcalls


def _three_point_bracket(func, args, brack):
    """SciPy's ``Brent.get_bracket_info``: ``(xa, xb, xc, funcalls)``."""
    if brack is None:
        xa, xb, xc, _, _, _, n = bracket(func, args=args)
    elif len(brack) == 2:
        xa, xb, xc, _, _, _, n = bracket(func, xa=brack[0], xb=brack[1], args=args)
    elif len(brack) == 3:
        xa, xb, xc = (float(v) for v in brack)
        if xa > xc:
            xc, xa = xa, xc
        if not (xa < xb < xc):
            raise ValueError("Bracketing values (xa, xb, xc) do not fulfill this "
                             "requirement: (xa < xb) and (xb < xc)")
        f = _fval(func, args)
        fa, fb, fc = f(xa), f(xb), f(xc)
        if not (fb < fa and fb < fc):
            raise ValueError("Bracketing values (xa, xb, xc) do not fulfill this "
                             "requirement: (f(xb) < f(xa)) and (f(xb) < f(xc))")
        n = 3
    else:
        raise ValueError("Bracketing interval must be length 2 or 3 sequence.")
    return xa, xb, xc, n


def brent(func: Callable, args: tuple = (), brack: Any = None, tol: float = 1.48e-8,
          full_output: int = 0, maxiter: int = 500):
    """Minimize a function of one variable by Brent's method.

    sciax implementation of :func:`scipy.optimize.brent`: :func:`bracket` (or
    the given three-point bracket, checked as SciPy), then Brent's parabolic
    interpolation through :func:`minimize_scalar`.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``.
    args : tuple, optional
        Extra arguments.
    brack : tuple, optional
        ``(xa, xb)`` to start :func:`bracket` or ``(xa, xb, xc)``.
    tol : float, optional
        Relative error in ``xmin``.
    full_output : bool, optional
        Return ``fval``, ``iter`` and ``funcalls`` too.
    maxiter : int, optional
        Maximum iterations.

    Returns
    -------
    xmin : Array
    fval, iter, funcalls : only with ``full_output``

    Examples
    --------
    >>> from sciax.optimize import brent
    >>> x = brent(lambda x: (x - 1.0) ** 2, brack=(-1.0, 0.5, 2.0))
    >>> print(round(float(x), 6))
    1.0
    """
    if not isinstance(args, tuple):
        args = (args,)
    if tol < 0:
        raise ValueError(f"tolerance should be >= 0, got {tol!r}")
    xa, xb, xc, n = _three_point_bracket(func, args, brack)
    res = minimize_scalar(func, bracket=(xa, xb, xc), args=args, method="brent",
                          options=dict(xtol=tol, maxiter=maxiter))
    if full_output:
        return res["x"], res["fun"], _pyint(res["nit"]), _pyint(res["nfev"]) + n - 1
    return res["x"]


def golden(func: Callable, args: tuple = (), brack: Any = None,
           tol: float = _EPSILON, full_output: int = 0, maxiter: int = 5000):
    """Minimize a function of one variable by the golden section method.

    sciax implementation of :func:`scipy.optimize.golden`.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``.
    args : tuple, optional
        Extra arguments.
    brack : tuple, optional
        ``(xa, xb)`` to start :func:`bracket` or ``(xa, xb, xc)``.
    tol : float, optional
        Relative tolerance on ``x``.
    full_output : bool, optional
        Return ``fval`` and ``funcalls`` too.
    maxiter : int, optional
        Maximum iterations.

    Returns
    -------
    xmin : Array
    fval, funcalls : only with ``full_output``

    Examples
    --------
    >>> from sciax.optimize import golden
    >>> x = golden(lambda x: (x - 1.0) ** 2, brack=(-1.0, 0.5, 2.0))
    >>> print(round(float(x), 6))
    1.0
    """
    if not isinstance(args, tuple):
        args = (args,)
    xa, xb, xc, n = _three_point_bracket(func, args, brack)
    res = minimize_scalar(func, bracket=(xa, xb, xc), args=args, method="golden",
                          options=dict(xtol=tol, maxiter=maxiter))
    if full_output:
        return res["x"], res["fun"], _pyint(res["nfev"]) + n
    return res["x"]


def fminbound(func: Callable, x1: float, x2: float, args: tuple = (),
              xtol: float = 1e-5, maxfun: int = 500, full_output: int = 0,
              disp: int = 1):
    """Bounded minimization of a function of one variable.

    sciax implementation of :func:`scipy.optimize.fminbound` (Brent's bounded
    method through ``minimize_scalar(method='bounded')``).

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``.
    x1, x2 : float
        The bounds.
    args : tuple, optional
        Extra arguments.
    xtol : float, optional
        Absolute convergence tolerance.
    maxfun : int, optional
        Maximum number of function evaluations.
    full_output : bool, optional
        Return ``fval``, ``ierr`` and ``numfunc`` too.
    disp : int, optional
        0 silent, 1 (default) a warning when ``maxfun`` is reached, 2 also the
        success message.

    Returns
    -------
    xopt : Array
    fval, ierr, numfunc : only with ``full_output``
        ``ierr`` is 0 on success, 1 when ``maxfun`` was reached.

    Examples
    --------
    >>> from sciax.optimize import fminbound
    >>> x = fminbound(lambda x: (x - 1.0) ** 2, 3.0, 4.0)
    >>> print(round(float(x), 4))
    3.0
    """
    if not (np.ndim(x1) == 0 and np.ndim(x2) == 0):
        raise ValueError("Optimization bounds must be scalars or array scalars.")
    if float(x1) > float(x2):
        raise ValueError("The lower bound exceeds the upper bound.")
    res = minimize_scalar(func, bounds=(x1, x2), args=args, method="bounded",
                          options=dict(xatol=xtol, maxiter=int(maxfun)))
    flag = _pyint(res["status"])
    fx = _concrete(res["fun"])
    if fx is not None and fx.ndim == 0 and np.isnan(fx):
        flag = 2
    if disp and isinstance(flag, int):
        if flag == 0 and disp > 1:
            print("\nOptimization terminated successfully;\n"
                  "The returned value satisfies the termination criteria\n"
                  "(using xtol = ", xtol, ")")
        elif flag == 1:
            warnings.warn("\nMaximum number of function evaluations exceeded --- "
                          "increase maxfun argument.\n", OptimizeWarning,
                          stacklevel=2)
        elif flag == 2:
            warnings.warn(f"\n{_STATUS['nan']}", OptimizeWarning, stacklevel=2)
    if full_output:
        return res["x"], res["fun"], flag, _pyint(res["nfev"])
    return res["x"]


# --- equations: fsolve, leastsq ------------------------------------------------------

_WRAPS: dict = {}


def _wrapped(kind, f):
    """A cached wrapper of ``f`` (so the compiled solver is reused across
    calls): ``'T'`` transposes the Jacobian (``col_deriv``)."""
    key = (kind, f)
    w = _WRAPS.get(key)
    if w is None:
        if kind == "T":
            def w(x, *args):
                return snp.transpose(snp.asarray(f(x, *args)))
        if len(_WRAPS) > 256:
            _WRAPS.pop(next(iter(_WRAPS)))
        _WRAPS[key] = w
    return w


def fsolve(func: Callable, x0: Any, args: tuple = (), fprime: Callable | None = None,
           full_output: int = 0, col_deriv: int = 0, xtol: float = 1.49012e-08,
           maxfev: int = 0, band: Any = None, epsfcn: Any = None,
           factor: float = 100, diag: Any = None):
    """Find the roots of a function.

    sciax implementation of :func:`scipy.optimize.fsolve`: Powell's hybrid
    method (MINPACK's ``hybrj``) through ``root(method='hybr')``, with the
    exact Jacobian when ``fprime`` is None.

    Parameters
    ----------
    func : callable
        ``func(x, *args)`` returning as many values as ``x`` has.
    x0 : array_like
        Initial guess (raveled; ``func`` sees a 1-d ``x``).
    args : tuple, optional
        Extra arguments.
    fprime : callable, optional
        Jacobian ``fprime(x, *args)`` (rows are equations, or columns with
        ``col_deriv``).
    full_output : bool, optional
        Return ``infodict``, ``ier`` and ``mesg`` too.
    col_deriv : bool, optional
        ``fprime`` returns the transposed Jacobian.
    xtol : float, optional
        Relative error between two iterates at convergence.
    maxfev : int, optional
        Maximum calls of ``func`` (0: ``100 * (n + 1)``).
    band, epsfcn : optional
        Accepted for SciPy compatibility (the Jacobian is exact and dense).
    factor : float, optional
        Initial step bound.
    diag : sequence, optional
        Scale factors of the variables.

    Returns
    -------
    x : Array
    infodict : dict, only with ``full_output``
        ``nfev``, ``njev``, ``fvec``, ``fjac``, ``r``, ``qtf``.
    ier : int, only with ``full_output``
        1 when a solution was found, else MINPACK's code (2 to 5; sciax adds
        6 for a non-finite function at ``x0``).
    mesg : str, only with ``full_output``

    Warns
    -----
    RuntimeWarning
        Without ``full_output``, when ``ier`` is not 1.

    Examples
    --------
    >>> from sciax.optimize import fsolve
    >>> f = lambda x: snp.stack([x[0] * snp.cos(x[1]) - 4.0,
    ...                          x[1] * x[0] - x[1] - 5.0])
    >>> print(np.round(np.asarray(fsolve(f, [1.0, 1.0])), 6))
    [6.504097 0.908414]
    """
    if not isinstance(args, tuple):
        args = (args,)
    x = x0 if hasattr(x0, "dtype") else snp.asarray(np.asarray(x0, float))
    x = snp.ravel(x)
    jac = fprime if callable(fprime) else None
    if jac is not None and col_deriv:
        jac = _wrapped("T", jac)
    opts = dict(xtol=xtol, maxfev=maxfev, factor=factor)
    if diag is not None:
        opts["diag"] = diag
    res = root(func, x, args=args, method="hybr", jac=jac, options=opts)
    status = _pyint(res["status"])
    msg = res.message
    if full_output:
        info = {k: res[k] for k in ("nfev", "njev", "fjac", "r", "qtf")}
        info["nfev"], info["njev"] = _pyint(info["nfev"]), _pyint(info["njev"])
        info["fvec"] = res["fun"]
        return res["x"], info, status, msg
    if isinstance(status, int):  # eager (under jit/vmap: no host status)
        if status == 0:
            raise TypeError(msg)
        if status != 1:
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
    return res["x"]


# least_squares' status -> MINPACK's info
_LM_IER = {2: 1, 3: 2, 4: 3, 1: 4, 0: 5, -1: 0}


def leastsq(func: Callable, x0: Any, args: tuple = (), Dfun: Callable | None = None,
            full_output: bool = False, col_deriv: bool = False,
            ftol: float = 1.49012e-8, xtol: float = 1.49012e-8, gtol: float = 0.0,
            maxfev: int = 0, epsfcn: Any = None, factor: float = 100,
            diag: Any = None):
    """Minimize the sum of squares of a set of equations.

    sciax implementation of :func:`scipy.optimize.leastsq`: Levenberg-Marquardt
    through ``least_squares(method='lm')`` with the exact Jacobian when
    ``Dfun`` is None.

    Parameters
    ----------
    func : callable
        ``func(x, *args)`` returning ``m >= n`` residuals.
    x0 : array_like
        Initial guess (raveled).
    args : tuple, optional
        Extra arguments.
    Dfun : callable, optional
        Jacobian (rows are residuals, or columns with ``col_deriv``).
    full_output : bool, optional
        Return ``cov_x``, ``infodict``, ``mesg`` and ``ier``.
    col_deriv : bool, optional
        ``Dfun`` returns the transposed Jacobian.
    ftol, xtol, gtol : float, optional
        Relative tolerances on the sum of squares, on ``x``, and on the cosine
        between ``func(x)`` and the Jacobian's columns (values below machine
        epsilon are raised to it).
    maxfev : int, optional
        Maximum calls (0: ``200 * (n + 1)``, or ``100 * (n + 1)`` with
        ``Dfun``).
    epsfcn, factor, diag
        Accepted for SciPy compatibility.

    Returns
    -------
    x : Array
    cov_x : ndarray or None, only with ``full_output``
        The inverse of ``J^T J`` at the solution (None when it is singular);
        multiply by the residual variance for the parameters' covariance.
    infodict : dict, only with ``full_output``
        ``nfev``, ``fvec``, ``fjac``, ``ipvt``, ``qtf``: ``fjac`` holds the
        triangular factor ``R`` of an unpivoted QR of the final Jacobian as
        MINPACK's layout (``triu(fjac.T[:n]) = R``, ``ipvt = arange(n)``), so
        SciPy's formulas on them apply; ``qtf`` is ``(Q^T fvec)[:n]``.
    mesg : str, only with ``full_output``
    ier : int
        1 to 4 on success (MINPACK's ``info``), 5 when ``maxfev`` was reached.

    Examples
    --------
    >>> from sciax.optimize import leastsq
    >>> t = snp.linspace(0.0, 1.0, 5)
    >>> y = 2.0 * snp.exp(-1.5 * t)
    >>> res = lambda p: p[0] * snp.exp(-p[1] * t) - y
    >>> x, ier = leastsq(res, [1.0, 1.0])
    >>> print(np.round(np.asarray(x), 6), ier in (1, 2, 3, 4))
    [2.  1.5] True
    """
    if not isinstance(args, tuple):
        args = (args,)
    x = x0 if hasattr(x0, "dtype") else snp.asarray(np.asarray(x0, float))
    x = snp.ravel(x).astype(snp.result_type(x, 1.0))
    n = x.shape[0]
    eps = float(np.finfo(np.dtype(x.dtype)).eps)
    jac = "2-point"
    if callable(Dfun):
        jac = _wrapped("T", Dfun) if col_deriv else Dfun
    if maxfev == 0:
        maxfev = 100 * (n + 1) if callable(Dfun) else 200 * (n + 1)
    res = least_squares(func, x, jac=jac, method="lm", ftol=max(ftol, eps),
                        xtol=max(xtol, eps), gtol=max(gtol, eps), max_nfev=maxfev,
                        args=args)
    st = _pyint(res["status"])
    ier = _LM_IER.get(st, 0) if isinstance(st, int) else snp.asarray(
        np.array([_LM_IER[k] for k in range(-1, 5)], np.int32))[st + 1]
    errors = {0: "Improper input parameters.",
              1: "Both actual and predicted relative reductions in the sum of "
                 f"squares\n  are at most {ftol:f}",
              2: f"The relative error between two consecutive iterates is at most "
                 f"{xtol:f}",
              3: "Both actual and predicted relative reductions in the sum of "
                 f"squares\n  are at most {ftol:f} and the relative error between "
                 f"two consecutive iterates is at \n  most {xtol:f}",
              4: "The cosine of the angle between func(x) and any column of the\n"
                 f"  Jacobian is at most {gtol:f} in absolute value",
              5: f"Number of calls to function has reached maxfev = {maxfev}."}
    concrete = isinstance(ier, int)  # False under jit/vmap
    if not full_output:
        if concrete and ier == 5:
            warnings.warn(errors[5], RuntimeWarning, stacklevel=2)
        elif concrete and ier == 0:
            raise TypeError(errors[0])
        return res["x"], ier
    J = res["jac"]
    m = J.shape[0]
    Q, R = snp.linalg.qr(J)
    fjac = snp.concatenate([R, snp.zeros((m - n, n), R.dtype)], axis=0).T
    info = {"nfev": _pyint(res["nfev"]), "fvec": res["fun"], "fjac": fjac,
            "ipvt": np.arange(n, dtype=np.int32), "qtf": (Q.T @ res["fun"])[:n]}
    cov_x = None
    if concrete and ier in (1, 2, 3, 4):
        Rn = _concrete(R)
        if Rn is not None:
            d = np.abs(np.diag(Rn))
            if np.all(np.isfinite(Rn)) and d.min() > n * eps * max(d.max(), 1e-300):
                Ri = np.linalg.inv(np.triu(Rn))
                cov_x = Ri @ Ri.T
    return res["x"], cov_x, info, errors.get(ier, "") if concrete else "", ier


# --- the nonlin solver functions -----------------------------------------------------


def _nonlin(method, F, xin, iter, verbose, maxiter, f_tol, f_rtol, x_tol, x_rtol,
            tol_norm, line_search, callback, jac_options):
    opts = {"nit": iter, "maxiter": maxiter, "fatol": f_tol, "ftol": f_rtol,
            "xatol": x_tol, "xtol": x_rtol, "tol_norm": tol_norm,
            "line_search": line_search, "disp": bool(verbose)}
    opts = {k: v for k, v in opts.items() if v is not None or k == "line_search"}
    jo = {k: v for k, v in jac_options.items() if v is not None}
    if jo:
        opts["jac_options"] = jo
    x = xin if hasattr(xin, "dtype") else snp.asarray(np.asarray(xin, float))
    sol = root(F, x, method=method, callback=callback, options=opts)
    st = _pyint(sol["status"])
    if isinstance(st, int) and st != 1 and not (iter is not None and st == 2):
        raise NoConvergence(sol["x"])
    return sol["x"]


def _check_kw(name, kw, allowed=()):
    bad = sorted(k for k in kw if k not in allowed)
    if bad:
        raise TypeError(f"{name}() got unexpected keyword arguments {bad}")


_NONLIN_DOC = """Find a root of a function, using {what}.

    sciax implementation of :func:`scipy.optimize.{name}` (through
    ``root(method='{method}')``).

    Parameters
    ----------
    F : callable
        ``F(x)`` with the shape of ``x``.
    xin : array_like
        Initial guess.
    iter : int, optional
        Number of iterations to make (then stop without raising).
{extra}    verbose : bool, optional
        Accepted (progress is not printed).
    maxiter : int, optional
        Maximum iterations (``NoConvergence`` beyond them).
    f_tol, f_rtol : float, optional
        Absolute (default ``6e-6``) and relative tolerance on the residual's
        ``tol_norm``.
    x_tol, x_rtol : float, optional
        Absolute and relative tolerance on the step.
    tol_norm : callable, optional
        Norm of the tests (default: the maximum norm).
    line_search : {{'armijo', None}}, optional
        Backtracking on ``||F||^2`` (default) or the full step.
    callback : callable, optional
        ``callback(x, f)`` after each iteration.

    Returns
    -------
    sol : Array
        The root, with the shape of ``xin``.

    Raises
    ------
    NoConvergence
        When no solution was found (eagerly; under ``jit`` the last iterate is
        returned).

    Examples
    --------
    >>> from sciax.optimize import {name}
    >>> f = lambda x: snp.stack([0.5 * snp.cos(x[1]) - x[0],
    ...                          0.5 * snp.sin(x[0]) - x[1]])
    >>> x = {name}(f, snp.zeros(2), f_tol=1e-10)
    >>> print(np.round(np.asarray(x), 6))
    [0.486405 0.233726]
    """

_ALPHA = "    alpha : float, optional\n        Initial Jacobian is ``-1/alpha``.\n"


def broyden1(F, xin, iter=None, alpha=None, reduction_method="restart",
             max_rank=None, verbose=False, maxiter=None, f_tol=None, f_rtol=None,
             x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo",
             callback=None, **kw):
    _check_kw("broyden1", kw)
    return _nonlin("broyden1", F, xin, iter, verbose, maxiter, f_tol, f_rtol, x_tol,
                   x_rtol, tol_norm, line_search, callback,
                   dict(alpha=alpha, reduction_method=reduction_method,
                        max_rank=max_rank))


def broyden2(F, xin, iter=None, alpha=None, reduction_method="restart",
             max_rank=None, verbose=False, maxiter=None, f_tol=None, f_rtol=None,
             x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo",
             callback=None, **kw):
    _check_kw("broyden2", kw)
    return _nonlin("broyden2", F, xin, iter, verbose, maxiter, f_tol, f_rtol, x_tol,
                   x_rtol, tol_norm, line_search, callback,
                   dict(alpha=alpha, reduction_method=reduction_method,
                        max_rank=max_rank))


def anderson(F, xin, iter=None, alpha=None, w0=0.01, M=5, verbose=False,
             maxiter=None, f_tol=None, f_rtol=None, x_tol=None, x_rtol=None,
             tol_norm=None, line_search="armijo", callback=None, **kw):
    _check_kw("anderson", kw)
    return _nonlin("anderson", F, xin, iter, verbose, maxiter, f_tol, f_rtol, x_tol,
                   x_rtol, tol_norm, line_search, callback,
                   dict(alpha=alpha, w0=w0, M=M))


def linearmixing(F, xin, iter=None, alpha=None, verbose=False, maxiter=None,
                 f_tol=None, f_rtol=None, x_tol=None, x_rtol=None, tol_norm=None,
                 line_search="armijo", callback=None, **kw):
    _check_kw("linearmixing", kw)
    return _nonlin("linearmixing", F, xin, iter, verbose, maxiter, f_tol, f_rtol,
                   x_tol, x_rtol, tol_norm, line_search, callback, dict(alpha=alpha))


def diagbroyden(F, xin, iter=None, alpha=None, verbose=False, maxiter=None,
                f_tol=None, f_rtol=None, x_tol=None, x_rtol=None, tol_norm=None,
                line_search="armijo", callback=None, **kw):
    _check_kw("diagbroyden", kw)
    return _nonlin("diagbroyden", F, xin, iter, verbose, maxiter, f_tol, f_rtol,
                   x_tol, x_rtol, tol_norm, line_search, callback, dict(alpha=alpha))


def excitingmixing(F, xin, iter=None, alpha=None, alphamax=1.0, verbose=False,
                   maxiter=None, f_tol=None, f_rtol=None, x_tol=None, x_rtol=None,
                   tol_norm=None, line_search="armijo", callback=None, **kw):
    _check_kw("excitingmixing", kw)
    return _nonlin("excitingmixing", F, xin, iter, verbose, maxiter, f_tol, f_rtol,
                   x_tol, x_rtol, tol_norm, line_search, callback,
                   dict(alpha=alpha, alphamax=alphamax))


def newton_krylov(F, xin, iter=None, rdiff=None, method="lgmres", inner_maxiter=20,
                  inner_M=None, outer_k=10, verbose=False, maxiter=None, f_tol=None,
                  f_rtol=None, x_tol=None, x_rtol=None, tol_norm=None,
                  line_search="armijo", callback=None, **kw):
    inner = {k: v for k, v in kw.items() if k.startswith("inner_")}
    _check_kw("newton_krylov", kw, allowed=tuple(inner))
    jo = dict(rdiff=rdiff, method=method, inner_maxiter=inner_maxiter,
              inner_M=inner_M, outer_k=outer_k)
    if "inner_m" in inner:
        jo["inner_m"] = inner["inner_m"]
    return _nonlin("krylov", F, xin, iter, verbose, maxiter, f_tol, f_rtol, x_tol,
                   x_rtol, tol_norm, line_search, callback, jo)


def _doc(fn, what, method, extra):
    fn.__doc__ = _NONLIN_DOC.format(what=what, name=fn.__name__, method=method,
                                    extra=extra)


_doc(broyden1, "Broyden's first Jacobian approximation", "broyden1",
     _ALPHA + "    reduction_method : {'restart'}, optional\n"
              "        How to keep the rank of the update bounded.\n"
              "    max_rank : int, optional\n        Maximum rank of the update.\n")
_doc(broyden2, "Broyden's second Jacobian approximation", "broyden2",
     _ALPHA + "    reduction_method : {'restart'}, optional\n"
              "        How to keep the rank of the update bounded.\n"
              "    max_rank : int, optional\n        Maximum rank of the update.\n")
_doc(anderson, "(extended) Anderson mixing", "anderson",
     _ALPHA + "    w0 : float, optional\n        Regularization parameter.\n"
              "    M : int, optional\n        Number of previous vectors kept.\n")
_doc(linearmixing, "a scalar Jacobian approximation", "linearmixing", _ALPHA)
_doc(diagbroyden, "a diagonal Broyden Jacobian approximation", "diagbroyden",
     _ALPHA)
_doc(excitingmixing, "a tuned diagonal Jacobian approximation", "excitingmixing",
     _ALPHA + "    alphamax : float, optional\n"
              "        Upper bound of the diagonal entries.\n")
_doc(newton_krylov, "Newton-Krylov (GMRES on exact Jacobian-vector products)",
     "krylov",
     "    rdiff, method, inner_M, outer_k : optional\n"
     "        Accepted for SciPy compatibility (products are exact, the inner\n"
     "        solver is GMRES).\n"
     "    inner_maxiter : int, optional\n        GMRES restart cycles.\n")
