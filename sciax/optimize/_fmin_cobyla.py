"""``fmin_cobyla``: SciPy's functional front door to COBYLA.

A thin driver over ``minimize(method='COBYLA')`` (sciax's PRIMA-style
COBYLA in :mod:`sciax.optimize._cobyla`), with SciPy's argument names and
return value (the solution only).
"""

from __future__ import annotations

from sciax.optimize._minimize import minimize


def fmin_cobyla(func, x0, cons, args=(), consargs=None, rhobeg=1.0, rhoend=1e-4,
                maxfun=1000, disp=None, catol=2e-4, *, callback=None):
    """Minimize a function using the Constrained Optimization By Linear
    Approximation (COBYLA) method.

    sciax implementation of :func:`scipy.optimize.fmin_cobyla`.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float``, written with ``sciax.numpy``.
    x0 : ndarray
        Initial guess.
    cons : callable or sequence of callables
        Inequality constraints ``con(x, *consargs) >= 0``.
    args : tuple, optional
        Extra arguments of ``func``.
    consargs : tuple, optional
        Extra arguments of the constraints (default ``args``).
    rhobeg, rhoend : float, optional
        Initial and final trust radius (defaults 1 and 1e-4).
    maxfun : int, optional
        Maximum number of function evaluations (default 1000).
    disp : bool, optional
        Print a message when COBYLA fails.
    catol : float, optional
        Tolerance on the constraint violation (default 2e-4).
    callback : callable, optional
        Passed to :func:`minimize`.

    Returns
    -------
    x : ndarray
        The minimizer.

    Notes
    -----
    The iterates are sciax's COBYLA's (see ``minimize(method='COBYLA')``),
    not PRIMA's; the solutions agree to within the final radius ``rhoend``.

    Examples
    --------
    SciPy's example (the constraints may be violated by up to ``catol``, so
    the point is ``(-1, 1)/sqrt(2)`` to about 1e-4, as SciPy's).  It compiles
    COBYLA (about a minute on two loaded cores), so this example runs in the
    slow test step (``conftest.py``'s ``SLOW_DOCTESTS``).

    >>> from sciax.optimize import fmin_cobyla
    >>> x = fmin_cobyla(lambda x: x[0] * x[1], [0.0, 0.1],
    ...                 [lambda x: 1 - x[0] ** 2 - x[1] ** 2, lambda x: x[1]],
    ...                 rhoend=1e-7)
    >>> print(np.round(np.asarray(x), 3))
    [-0.707  0.707]
    """
    err = ("cons must be a sequence of callable functions or a single callable "
           "function.")
    try:
        len(cons)
    except TypeError as e:
        if callable(cons):
            cons = [cons]
        else:
            raise TypeError(err) from e
    else:
        for thisfunc in cons:
            if not callable(thisfunc):
                raise TypeError(err)
    if consargs is None:
        consargs = args
    con = tuple({"type": "ineq", "fun": c, "args": consargs} for c in cons)
    opts = {"rhobeg": rhobeg, "tol": rhoend, "maxiter": maxfun, "catol": catol}
    sol = minimize(func, x0, args, method="COBYLA", constraints=con,
                   options=opts, callback=callback)
    if disp:
        try:
            ok = bool(sol.success)
        except Exception:  # traced
            ok = True
        if not ok:
            print(f"COBYLA failed to find a solution: {sol.message}")
    return sol.x
