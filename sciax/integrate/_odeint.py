"""``odeint``: SciPy's and JAX's fixed-output interface over ``solve_ivp``."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax.integrate import _adjoint, _rk
from sciax.integrate._ivp import _implicit_options, _Static, _validate_tol
from sciax.integrate._ravel import Ravel


def odeint(func: Callable, y0: Any, t: Any, *args: Any, rtol: float = 1.4e-8,
           atol: float = 1.4e-8, mxstep: int = 10_000, hmax: float = np.inf,
           method: Any = "RK45", adjoint: str = "direct", Dfun: Any = None) -> Any:
    """Integrate ``dy/dt = func(y, t, *args)`` and return ``y`` at the times ``t``.

    sciax counterpart of :func:`scipy.integrate.odeint` and
    ``jax.experimental.ode.odeint`` (Dormand-Prince 5(4) by default).

    Parameters
    ----------
    func : callable
        ``func(y, t, *args)`` (note the argument order, as in SciPy's odeint).
    y0 : array_like or pytree
        State at ``t[0]``.
    t : array_like
        Increasing or decreasing output times; ``t[0]`` is the initial time.
    *args
        Extra arguments of ``func`` (differentiable).
    rtol, atol : float
        Tolerances (SciPy's odeint defaults).
    mxstep : int
        Bound on the attempted steps over the whole interval (static).
    hmax : float
        Largest step allowed.
    method, adjoint : str
        sciax extras, as in :func:`solve_ivp` (``method='BDF'``, ``'Radau'`` or
        ``'Kvaerno5'`` for stiff problems).
    Dfun : callable, optional
        ``Dfun(y, t, *args)``, the Jacobian ``d func / d y`` (implicit methods
        only; by default they differentiate ``func``).

    Returns
    -------
    Array or pytree
        The state at each of ``t``: leaves get a leading axis of ``len(t)``.
        Points that could not be reached (a failed solve) are NaN.

    Notes
    -----
    *Differences from SciPy.*  No ``full_output``; a failure gives NaN
    rather than a warning.  *Transformations*: as :func:`solve_ivp`
    (``jit``, ``vmap``, ``jvp``, ``grad`` with respect to ``y0``, ``t`` and
    ``args``).

    Examples
    --------
    >>> from sciax.integrate import odeint
    >>> ys = odeint(lambda y, t, k: -k * y, snp.array([1.0]),
    ...             snp.array([0.0, 1.0, 2.0]), 1.0)
    >>> print(np.round(np.asarray(ys[:, 0]), 6))
    [1.       0.367879 0.135335]
    """
    t = snp.asarray(t, np.float64)
    if t.ndim != 1 or t.shape[0] < 1:
        raise ValueError(f"odeint: t must be a non-empty 1-D array, got shape "
                         f"{t.shape}")
    solver = _rk.resolve_method(method)
    if any(np.issubdtype(snp.asarray(x).dtype, np.complexfloating)
           for x in sciax.tree.leaves(y0)):
        raise TypeError("odeint does not support complex y0 (neither does SciPy's "
                        "odeint); use solve_ivp, which does")
    rv = Ravel(y0)
    y0f = rv.ravel(y0)
    rtol_a, atol_a = _validate_tol(rtol, atol, rv.size)
    st = _Static(fun=func, rv=rv, solver=solver, events=(), max_step=float(hmax),
                 first_step=None, max_steps=int(mxstep), dense=False, save_steps=False,
                 has_t_eval=True, event_capacity=1, progress=False, order="yt",
                 jac=_implicit_options(solver, {"jac": Dfun}, rv)[0])
    out = _adjoint.solve(st, adjoint, y0f, tuple(args), t[0], t[-1], t, rtol_a, atol_a)
    return rv.leading(out["ys_eval"])
