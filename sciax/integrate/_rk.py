"""Explicit Runge-Kutta solvers as data: a tableau, an error norm, an interpolant.

Every solver is stateless: ``step(fun, t, y, f, h)`` maps the state at ``t``
(with ``f = fun(t, y)``) to the state at ``t + h`` and the stage matrix, so the
one stepping loop in ``_ode_loop.py`` runs them all inside ``lax.while_loop``,
``scan``, ``vmap`` and the derivative transforms.  ``y`` is a flat 1-D vector
here; ``solve_ivp`` ravels pytrees before they reach a solver.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import sciax.lax as lax
import sciax.numpy as snp
from sciax.integrate import _tableaux as tab


def rms(x: Any) -> Any:
    """SciPy's ``norm``: the root mean square over all entries (0 for none)."""
    return snp.sqrt(snp.mean(snp.abs(x) ** 2)) if x.size else snp.zeros((), x.dtype)


class AbstractODESolver:
    """Interface of a one-step ODE solver (never instantiated itself).

    Attributes: ``order`` (of the propagated solution), ``error_estimator_order``
    (sets the step controller's exponent), ``n_stages`` (function evaluations per
    attempted step), ``adaptive`` (False for fixed-step methods), and
    ``dense_nfev`` (extra evaluations an interpolant needs per accepted step).
    """

    order: int
    error_estimator_order: int
    n_stages: int
    adaptive: bool = True
    dense_nfev: int = 0

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        # SciPy's call ``RK45(fun, t0, y0, t_bound, ...)`` gives a stepper over
        # the method; ``RK45()`` stays the stateless solver that solve_ivp takes
        if args or kwargs:
            from sciax.integrate._odesolver import LoopStepper  # cycle: _odesolver -> _ode_loop -> _rk
            return LoopStepper(cls(), *args, **kwargs)
        return super().__new__(cls)

    def step(self, fun: Callable, t: Any, y: Any, f: Any, h: Any
             ) -> tuple[Any, Any, Any]:
        """One step: ``(y_new, f_new, K)`` with ``K`` the stages (and FSAL stage)."""
        raise NotImplementedError(f"{type(self).__name__} must implement step")

    def error_norm(self, K: Any, h: Any, scale: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} has no error estimate")

    def dense_coeffs(self, fun: Callable, t: Any, y: Any, y_new: Any, K: Any,
                     h: Any) -> Any:
        """Coefficients of the step's interpolant, an array ``(m, n)``."""
        raise NotImplementedError(f"{type(self).__name__} must implement dense_coeffs")

    def dense_eval(self, coeffs: Any, y_old: Any, h: Any, theta: Any) -> Any:
        """The interpolant at ``t_old + theta * h`` (scalar ``theta``)."""
        raise NotImplementedError(f"{type(self).__name__} must implement dense_eval")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other: Any) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))


class AbstractExplicitRK(AbstractODESolver):
    """An explicit Runge-Kutta method given by its :class:`ButcherTableau`.

    Subclasses set ``tableau``, ``order`` and ``error_estimator_order`` only;
    stepping, error norm (SciPy's RMS norm of ``h K^T E / scale``) and the
    polynomial interpolant ``y0 + h K^T P theta^j`` are shared.
    """

    tableau: tab.ButcherTableau

    @property
    def n_stages(self) -> int:  # type: ignore[override]
        return len(self.tableau.b)

    @property
    def adaptive(self) -> bool:  # type: ignore[override]
        return self.tableau.e is not None

    def step(self, fun, t, y, f, h):
        y_new, f_new, ks = self.stages(fun, t, y, f, h)
        return y_new, f_new, snp.stack(ks)

    def stages(self, fun, t, y, f, h):
        """``step`` with the stages as a list of vectors, not stacked: the loop
        combines them with constant weights, so a stacked array would only be
        sliced apart again (a concatenate and a slice per stage per step)."""
        tb = self.tableau
        ks = [f]
        for s in range(1, len(tb.b)):
            # Only the nonzero coefficients enter, so a sparse row costs no flops.
            dy = _combine(tb.a[s, :s], ks)
            ks.append(fun(t + tb.c[s] * h, y + h * dy))
        y_new = y + h * _combine(tb.b, ks)
        f_new = fun(t + h, y_new)
        return y_new, f_new, ks + [f_new]

    def stages_rolled(self, fun, t, y, f, h):
        """``step`` with the stages as a ``lax.scan`` over the tableau's rows
        (the last row is ``b`` at ``c = 1``, which gives ``f(t + h, y_new)``):
        the right-hand side appears once in the program instead of once per
        stage.  Slower per step than ``stages`` (a loop, and dense rows with
        zeros), but derivative programs built on it are several times
        smaller, so they compile several times faster."""
        tb = self.tableau
        s = len(tb.b)
        rows = np.concatenate([np.asarray(tb.a, float), np.asarray(tb.b, float)[None]])
        nodes = np.append(np.asarray(tb.c, float), 1.0)
        rows = np.pad(rows, ((0, 0), (0, 1)))  # (s + 1, s + 1): K includes f_new
        rows_k = snp.arange(s + 1).reshape((-1,) + (1,) * y.ndim)
        # Rows set by where(): a scatter's derivative adds a gather and a
        # scatter-add (more kernels in the derivative programs).
        K = snp.where(rows_k == 0, f, snp.zeros((s + 1,) + y.shape, y.dtype))

        def stage(K, x):
            i, a, c = x
            y_i = y + h * (snp.asarray(a, y.dtype) @ K)
            return snp.where(rows_k == i, fun(t + c * h, y_i), K), y_i

        K, ys = lax.scan(stage, K, (snp.arange(1, s + 1), snp.asarray(rows[1:]),
                                    snp.asarray(nodes[1:])))
        return ys[-1], K[s], K

    # The error norm is NaN when ``scale`` has a NaN (the loop relies on it
    # to check finiteness in the same reduction).
    norm_propagates_nan = True

    def error_norm(self, K, h, scale):
        err = h * _combine(self.tableau.e, list(K))
        return rms(err / scale)

    def dense_coeffs(self, fun, t, y, y_new, K, h):
        p = self.tableau.p
        return snp.stack([_combine(p[:, j], list(K)) for j in range(p.shape[1])])

    def dense_eval(self, coeffs, y_old, h, theta):
        powers = theta ** snp.arange(1, coeffs.shape[0] + 1, dtype=coeffs.dtype)
        return y_old + h * (powers @ coeffs)


def _combine(w: Any, ks: list) -> Any:
    """``sum_i w[i] ks[i]`` skipping zero weights (the tableaux are sparse)."""
    acc = None
    for wi, k in zip(np.asarray(w, float), ks):
        if wi != 0.0:
            acc = wi * k if acc is None else acc + wi * k
    return snp.zeros_like(ks[0]) if acc is None else acc


class RK23(AbstractExplicitRK):
    """Bogacki-Shampine 3(2) pair with a cubic Hermite interpolant.

    References
    ----------
    P. Bogacki and L. F. Shampine, "A 3(2) pair of Runge-Kutta formulas",
    Appl. Math. Lett. 2 (1989) 321-325.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp, RK23
    >>> sol = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]), method=RK23(),
    ...                 rtol=1e-6)
    >>> print(round(float(sol.y[0, -1]), 3))
    0.368
    """

    tableau = tab.RK23
    order = 3
    error_estimator_order = 2


class RK45(AbstractExplicitRK):
    """Dormand-Prince 5(4) pair with Shampine's quartic interpolant.

    The error norm, step controller (safety 0.9, factors 0.2 to 10) and
    initial step follow SciPy's ``RK45``.

    References
    ----------
    J. R. Dormand and P. J. Prince, "A family of embedded Runge-Kutta
    formulae", J. Comput. Appl. Math. 6 (1980) 19-26; L. F. Shampine, "Some
    practical Runge-Kutta formulas", Math. Comp. 46 (1986) 135-150.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> sol = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]), method="RK45")
    >>> print(round(float(sol.y[0, -1]), 3))
    0.368
    """

    tableau = tab.RK45
    order = 5
    error_estimator_order = 4


class Tsit5(AbstractExplicitRK):
    """Tsitouras' 5(4) pair with its own quartic interpolant.

    References
    ----------
    Ch. Tsitouras, "Runge-Kutta pairs of order 5(4) satisfying only the first
    column simplifying assumption", Comput. Math. Appl. 62 (2011) 770-775.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> sol = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]), method="Tsit5")
    >>> print(round(float(sol.y[0, -1]), 3))
    0.368
    """

    tableau = tab.TSIT5
    order = 5
    error_estimator_order = 4


class DOP853(AbstractExplicitRK):
    """Dormand-Prince 8(5,3) with its 7th-order dense output.

    The error norm combines the 5th- and 3rd-order estimates as in Hairer's
    code and SciPy; the interpolant costs three extra evaluations per accepted
    step, spent only when dense output, ``t_eval`` or events need it.

    References
    ----------
    E. Hairer, S. P. Norsett and G. Wanner, "Solving Ordinary Differential
    Equations I: Nonstiff Problems", 2nd ed., Springer (1993), Sec. II.10.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> sol = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]),
    ...                 method="DOP853")
    >>> print(round(float(sol.y[0, -1]), 6))
    0.367879
    """

    tableau = tab.DOP853
    order = 8
    error_estimator_order = 7
    dense_nfev = 3

    @property
    def adaptive(self) -> bool:  # type: ignore[override]
        return True

    norm_propagates_nan = False  # maps a zero or NaN denominator to 0

    def error_norm(self, K, h, scale):
        ks = list(K)
        err5 = _combine(tab.DOP853_E5, ks) / scale
        err3 = _combine(tab.DOP853_E3, ks) / scale
        e5, e3 = snp.sum(err5 ** 2), snp.sum(err3 ** 2)
        denom = e5 + 0.01 * e3
        safe = snp.where(denom > 0, denom, 1.0)
        return snp.where(denom > 0, snp.abs(h) * e5 / snp.sqrt(safe * scale.size), 0.0)

    def dense_coeffs(self, fun, t, y, y_new, K, h):
        ks = list(K)
        a_x = np.asarray(tab.DOP853_A_EXTRA)
        for c, a in zip(tab.DOP853_C_EXTRA, a_x):
            ks.append(fun(t + c * h, y + h * _combine(a[:len(ks)], ks)))
        dy = y_new - y
        f_old, f_new = ks[0], ks[12]
        rows = [dy, h * f_old - dy, 2 * dy - h * (f_new + f_old)]
        rows += [h * _combine(d, ks) for d in np.asarray(tab.DOP853_D)]
        return snp.stack(rows)

    def dense_eval(self, coeffs, y_old, h, theta):
        # Hairer's contd8 form: alternately multiply by theta and (1 - theta).
        y = snp.zeros_like(y_old)
        for i in range(coeffs.shape[0] - 1, -1, -1):
            y = y + coeffs[i]
            y = y * (theta if (coeffs.shape[0] - 1 - i) % 2 == 0 else 1 - theta)
        return y + y_old


class RK4(AbstractExplicitRK):
    """Classical fixed-step 4th-order Runge-Kutta (set the step with ``first_step``).

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> sol = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]), method="RK4",
    ...                 first_step=0.1)
    >>> print(round(float(sol.y[0, -1]), 6))
    0.367880
    """

    tableau = tab.RK4
    order = 4
    error_estimator_order = 3


class Euler(AbstractExplicitRK):
    """Forward Euler, fixed step (set the step with ``first_step``).

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> sol = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]),
    ...                 method="Euler", first_step=0.5)
    >>> print(float(sol.y[0, -1]))
    0.25
    """

    tableau = tab.EULER
    order = 1
    error_estimator_order = 0


METHODS: dict[str, type[AbstractODESolver]] = {
    "RK23": RK23, "RK45": RK45, "DOP853": DOP853, "Tsit5": Tsit5, "RK4": RK4,
    "Euler": Euler,
}


def resolve_method(method: Any) -> AbstractODESolver:
    """A solver instance from a name, a solver class or a solver instance."""
    if isinstance(method, str):
        if method not in METHODS:
            raise ValueError(f"`method` must be one of {sorted(METHODS)} or an "
                             f"AbstractODESolver, got {method!r}")
        return METHODS[method]()
    if isinstance(method, type) and issubclass(method, AbstractODESolver):
        return method()
    if isinstance(method, AbstractODESolver):
        return method
    raise ValueError(f"`method` must be one of {sorted(METHODS)} or an "
                     f"AbstractODESolver, got {method!r}")
