"""SciPy's step-wise ODE interface: ``OdeSolver`` and ``DenseOutput``.

``OdeSolver`` is SciPy's template (``step()`` keeps ``status``, ``t``,
``t_old``, and calls ``_step_impl``; ``dense_output()`` calls
``_dense_output_impl``), so a subclass written for SciPy works here.  The
built-in methods keep their solver-as-data classes: ``RK45()`` is still the
stateless solver that ``solve_ivp`` takes, and ``RK45(fun, t0, y0, t_bound,
...)`` (SciPy's call) returns a :class:`LoopStepper` over it.  A stepper holds
the state of ``solve_ivp``'s loop (``_ode_loop.integrate``) and advances it one
accepted step per ``step()`` with one compiled program, traced once per
stepper; ``dense_output()`` is that step's interpolant.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.integrate import _ivp, _ode_loop

__all__ = ["ConstantDenseOutput", "DenseOutput", "LoopStepper", "OdeSolver"]

# attempts per run of a stepper's step program (step() reruns it while the
# attempts are all rejected); also the size of its dense-output buffer
_ATTEMPTS = 8
_OPTIONS = {"rtol", "atol", "max_step", "first_step", "jac", "jac_sparsity"}


class OdeSolver:
    """Base class of step-wise ODE solvers: SciPy's :class:`scipy.integrate.OdeSolver`.

    Parameters
    ----------
    fun : callable
        Right-hand side ``fun(t, y)`` for a 1-D state ``y``.
    t0 : float
        Initial time.
    y0 : array_like, shape (n,)
        Initial state.
    t_bound : float
        Boundary time: the integration does not go past it, and it sets the
        direction.
    vectorized : bool
        Whether ``fun`` may be called with ``y`` of shape ``(n, k)`` (kept for
        SciPy's interface).
    support_complex : bool, optional
        Whether the solver supports complex states (default False).

    Attributes
    ----------
    n : int
        Number of equations.
    status : str
        ``'running'``, ``'finished'`` or ``'failed'``.
    t_bound, direction, t, y, t_old, step_size
        As in SciPy (``t_old`` and ``step_size`` are None before the first step).
    nfev, njev, nlu : int
        Evaluations of ``fun``, of the Jacobian, and LU decompositions.

    Notes
    -----
    A subclass implements ``_step_impl() -> (success, message)`` (advancing
    ``self.t`` and ``self.y``; calls of ``self.fun`` count in ``nfev``) and
    ``_dense_output_impl() -> DenseOutput``, as for SciPy.  The built-in methods are reached as ``RK45(fun, t0, y0,
    t_bound, ...)`` and the like (:class:`LoopStepper`).  A stepper is a host
    object (it runs compiled steps; it is not itself traced).

    Examples
    --------
    >>> from sciax.integrate import RK45
    >>> s = RK45(lambda t, y: -y, 0.0, snp.array([1.0]), 1.0, rtol=1e-8, atol=1e-10)
    >>> while s.status == "running":
    ...     s.step()
    >>> print(s.status, s.t, f"{float(s.y[0]):.8f}", f"{np.exp(-1):.8f}")
    finished 1.0 0.36787944 0.36787944
    """

    TOO_SMALL_STEP = "Required step size is less than spacing between numbers."

    def __init__(self, fun: Callable, t0: Any, y0: Any, t_bound: Any, vectorized: bool,
                 support_complex: bool = False):
        self.t_old = None
        self.t = float(t0)
        y0 = np.asarray(y0)
        if y0.ndim != 1:
            raise ValueError(f"`y0` must be 1-dimensional, got shape {y0.shape}")
        if np.iscomplexobj(y0) and not support_complex:
            raise ValueError("`y0` is complex, but the chosen solver does not support "
                             "integration in a complex domain.")
        self.y = snp.asarray(y0 if np.iscomplexobj(y0) else y0.astype(np.float64))
        self.t_bound = float(t_bound)
        self.vectorized = vectorized
        # as SciPy: fun_single takes y of shape (n,), fun_vectorized (n, k), and
        # self.fun counts its calls in nfev
        if vectorized:
            self.fun_vectorized = fun
            self.fun_single = lambda t, y: fun(t, y[:, None])[:, 0]  # noqa: E731
        else:
            self.fun_single = fun
            self.fun_vectorized = lambda t, y: snp.stack(  # noqa: E731
                [fun(t, y[:, i]) for i in range(y.shape[1])], axis=1)

        def counted(t: Any, y: Any) -> Any:
            self.nfev += 1
            return self.fun_single(t, y)
        self.fun = counted
        self.direction = float(np.sign(self.t_bound - self.t)) if self.t_bound != self.t \
            else 1.0
        self.n = self.y.size
        self.status = "running"
        self.nfev = 0
        self.njev = 0
        self.nlu = 0

    @property
    def step_size(self) -> float | None:
        return None if self.t_old is None else abs(self.t - self.t_old)

    def step(self) -> str | None:
        """Advance one step; returns None or the failure's message."""
        if self.status != "running":
            raise RuntimeError("Attempt to step on a failed or finished solver.")
        if self.n == 0 or self.t == self.t_bound:
            # as SciPy: nothing to integrate, jump to the end
            self.t_old = self.t
            self.t = self.t_bound
            self.status = "finished"
            return None
        t = self.t
        success, message = self._step_impl()
        if not success:
            self.status = "failed"
        else:
            self.t_old = t
            if self.direction * (self.t - self.t_bound) >= 0:
                self.status = "finished"
        return message

    def dense_output(self) -> DenseOutput:
        """The interpolant over the last step."""
        if self.t_old is None:
            raise RuntimeError("Dense output is available after a successful step was "
                               "made.")
        if self.n == 0 or self.t == self.t_old:
            return ConstantDenseOutput(self.t_old, self.t, self.y)
        return self._dense_output_impl()

    def _step_impl(self) -> tuple[bool, str | None]:
        raise NotImplementedError(f"{type(self).__name__} must implement _step_impl")

    def _dense_output_impl(self) -> DenseOutput:
        raise NotImplementedError(f"{type(self).__name__} must implement "
                                  f"_dense_output_impl")


class DenseOutput:
    """Interpolant over one step: SciPy's :class:`scipy.integrate.DenseOutput`.

    ``__call__(t)`` evaluates at a scalar ``t`` (shape ``(n,)``) or a 1-D
    array (shape ``(n, len(t))``); subclasses implement ``_call_impl``.

    Examples
    --------
    A linear interpolant between two states (the built-in solvers' come from
    ``dense_output()`` after a ``step()``):

    >>> from sciax.integrate import DenseOutput
    >>> class Linear(DenseOutput):
    ...     def __init__(self, t_old, t, y_old, y):
    ...         super().__init__(t_old, t)
    ...         self.y_old, self.y = y_old, y
    ...     def _call_impl(self, t):
    ...         x = (t - self.t_old) / (self.t - self.t_old)
    ...         y0, y1 = (self.y_old, self.y) if x.ndim == 0 else (
    ...             self.y_old[:, None], self.y[:, None])
    ...         return y0 * (1 - x) + y1 * x
    >>> d = Linear(0.0, 2.0, snp.array([0.0, 1.0]), snp.array([2.0, 3.0]))
    >>> print(np.asarray(d(0.5)), np.asarray(d(snp.array([0.0, 1.0]))).tolist())
    [0.5 1.5] [[0.0, 1.0], [1.0, 2.0]]
    """

    def __init__(self, t_old: Any, t: Any):
        self.t_old = t_old
        self.t = t
        self.t_min = min(t, t_old)
        self.t_max = max(t, t_old)

    def __call__(self, t: Any) -> Any:
        t = snp.asarray(t)
        if t.ndim > 1:
            raise ValueError("`t` must be a float or a 1-D array.")
        return self._call_impl(t)

    def _call_impl(self, t: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement _call_impl")


class ConstantDenseOutput(DenseOutput):
    """A constant value over the step (SciPy's, for an empty step or state)."""

    def __init__(self, t_old: Any, t: Any, value: Any):
        super().__init__(t_old, t)
        self.value = snp.asarray(value)

    def _call_impl(self, t: Any) -> Any:
        if t.ndim == 0:
            return self.value
        return snp.broadcast_to(self.value[:, None], (self.value.shape[0], t.shape[0]))


class _StepInterpolant(DenseOutput):
    """A built-in solver's interpolant over its last step."""

    def __init__(self, t_old: float, t: float, evaluate: Callable, coeffs: Any,
                 y_old: Any, h: Any):
        super().__init__(t_old, t)
        self._eval, self._args = evaluate, (coeffs, y_old, h, t_old)

    def _call_impl(self, t: Any) -> Any:
        if t.ndim == 0:
            return self._eval(*self._args, t)
        return sciax.vmap(self._eval, in_axes=(None, None, None, None, 0),
                          out_axes=1)(*self._args, t)


class LoopStepper(OdeSolver):
    """A built-in method stepped as SciPy's solvers are: what ``RK45(fun, t0,
    y0, t_bound, ...)`` (and ``BDF(...)``, ``Radau(...)``, ...) return.

    Parameters
    ----------
    solver : AbstractODESolver
        The method (an instance, e.g. ``RK45()``).
    fun, t0, y0, t_bound, vectorized
        As for :class:`OdeSolver`.
    rtol, atol, max_step, first_step : optional
        SciPy's options (defaults 1e-3, 1e-6, inf, None).
    jac : callable or array_like, optional
        Implicit methods: the Jacobian ``jac(t, y)`` or a constant matrix
        (default: by automatic differentiation).
    **extraneous
        Other options warn, as in SciPy.

    Notes
    -----
    The state is that of ``solve_ivp``'s loop, so the steps, ``nfev``,
    ``njev`` and ``nlu`` are ``solve_ivp``'s.  ``step()`` runs one compiled
    program (traced on the first call; the solver's state stays on the
    device between calls) and reads ``t`` and ``status`` back.  ``DOP853``
    builds its interpolant on every step here (3 evaluations more per step
    than SciPy, which builds it in ``dense_output()``).

    Examples
    --------
    >>> from sciax.integrate import BDF
    >>> s = BDF(lambda t, y: -50.0 * (y - snp.cos(t)), 0.0, snp.array([0.0]), 1.0)
    >>> for _ in range(3):
    ...     s.step()
    >>> print(s.status, s.t_old < s.t, s.nfev > 0, s.nlu > 0)
    running True True True
    """

    def __init__(self, solver: Any, fun: Callable, t0: Any, y0: Any, t_bound: Any,
                 vectorized: bool = False, *, rtol: Any = 1e-3, atol: Any = 1e-6,
                 max_step: Any = np.inf, first_step: Any = None, **extraneous: Any):
        jac = extraneous.pop("jac", None)
        extraneous.pop("jac_sparsity", None)
        if extraneous:
            warnings.warn(f"The following arguments have no effect for a chosen solver: "
                          f"{', '.join(f'`{k}`' for k in extraneous)}.", stacklevel=3)
        super().__init__(fun, t0, y0, t_bound, vectorized)
        if not np.asarray(max_step) > 0:
            raise ValueError("`max_step` must be positive.")
        if first_step is not None:
            if not first_step > 0:
                raise ValueError("`first_step` must be positive.")
            if first_step > abs(self.t_bound - self.t):
                raise ValueError("`first_step` exceeds bounds.")
        self.solver = solver
        dtype, n = self.y.dtype, self.n

        def flat(t: Any, y: Any) -> Any:
            f = snp.asarray(fun(t, y), dtype)
            if f.shape != (n,):
                raise ValueError(f"`fun` must return shape ({n},) for y of shape "
                                 f"({n},), got {f.shape}")
            return f
        if jac is not None and not callable(jac):
            jac = snp.asarray(jac, dtype)
        elif jac is not None:
            user_jac = jac
            jac = lambda t, y: snp.asarray(user_jac(t, y), dtype)  # noqa: E731
        self._cfg = _ode_loop.LoopConfig(
            solver=solver, fun=flat, max_step=float(max_step), first_step=first_step,
            max_steps=_ATTEMPTS, t_eval=None, save_steps=False, dense=True, events=(),
            event_capacity=0, kind="while", progress=False,
            jac=jac if getattr(solver, "stateful", False) else None)
        self._tol = _ivp._validate_tol(rtol, atol, n)
        t1 = snp.asarray(self.t_bound, dtype)
        self._t1 = t1
        # the state's types as the step program returns them (no weak types),
        # so that the second step does not trace again
        init = sciax.jit(lambda t0, y0, rtol, atol: sciax.tree_util.tree_map(
            lambda x: lax.convert_element_type(x, x.dtype), _ode_loop.integrate(
                self._cfg, t0, t1, y0, rtol, atol, mode="init")))
        def run(s: dict, rtol: Any, atol: Any) -> tuple[dict, Any]:
            s = dict(s, n_acc=snp.zeros_like(s["n_acc"]),
                     n_iter=snp.zeros_like(s["n_iter"]))
            s = _ode_loop.integrate(self._cfg, s["t"], t1, s["y"], rtol, atol,
                                    mode="step", state=s)
            return s, _summary(s)
        self._run = sciax.jit(run)
        self._state = init(snp.asarray(self.t, dtype), self.y, *self._tol)
        self._counters(np.asarray(sciax.jit(_summary)(self._state)))
        self._y_old = self.y

    def _counters(self, info: np.ndarray) -> None:
        self.nfev, self.njev, self.nlu = (int(v) for v in info[3:])

    def _step_impl(self) -> tuple[bool, str | None]:
        s = self._state
        y_old = self.y
        while True:
            # one program per try, and one read back (t, status, counters)
            s, info = self._run(s, *self._tol)
            info = np.asarray(info)
            status = int(info[1])
            if info[2] or status != _ode_loop.RUNNING:
                break
        self._state = s
        self._counters(info)
        if status not in (_ode_loop.RUNNING, _ode_loop.FINISHED):
            return False, _ode_loop.MESSAGES.get(status, self.TOO_SMALL_STEP)
        self._y_old = y_old
        self.t = float(info[0])
        self.y = s["y"]
        return True, None

    def _dense_output_impl(self) -> DenseOutput:
        s = self._state
        return _StepInterpolant(self.t_old, self.t, _dense_eval(self.solver),
                                s["cs"][0], self._y_old, s["hs"][0])


def _summary(s: dict) -> Any:
    """``[t, status, accepted steps, nfev, njev, nlu]`` of a loop state, as one
    float64 vector (read back to the host at once)."""
    extra = s.get("ss")
    nfev = s["nfev"] + (extra["nfev"] if extra else 0)
    njev, nlu = (extra["njev"], extra["nlu"]) if extra else (0, 0)
    return snp.stack([snp.asarray(v, np.float64)
                      for v in (s["t"], s["status"], s["n_acc"], nfev, njev, nlu)])


_EVALUATORS: dict = {}


def _dense_eval(solver: Any) -> Callable:
    """The solver's interpolant at ``t`` as one compiled function (per solver)."""
    if solver not in _EVALUATORS:
        _EVALUATORS[solver] = sciax.jit(
            lambda coeffs, y_old, h, t_old, t: solver.dense_eval(coeffs, y_old, h,
                                                                 (t - t_old) / h))
    return _EVALUATORS[solver]
