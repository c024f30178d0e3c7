"""SciPy's legacy class interface to ODE integrators: ``ode`` and ``complex_ode``.

SciPy's ``ode`` drives Fortran codes (VODE, ZVODE, LSODA, DOPRI5, DOP853)
that keep their state between calls.  sciax keeps SciPy's host-side object
(``set_integrator``, ``set_initial_value``, ``integrate``, ``successful``,
``t``, ``y``, ...) and maps each integrator name onto one of its own methods:

========  ======================================================================
vode      ``method='bdf'``: sciax's ``BDF`` (SciPy's variable-order BDF/NDF);
          ``method='adams'``: sciax's ``LSODA`` (Dormand-Prince on non-stiff
          stretches, BDF on stiff ones; sciax has no Adams method)
zvode     as ``vode``, for a complex state
lsoda     sciax's ``LSODA``
dopri5    ``RK45`` (the same Dormand-Prince 5(4) pair)
dop853    ``DOP853``
========  ======================================================================

``integrate(t)`` runs ``solve_ivp``'s loop (without its step buffers) from
``(self.t, self.y)`` to ``t`` as one compiled program per ``ode`` object (traced on the first call; ``t``, ``y``
and numeric ``f``/``jac`` parameters are its arguments, so later calls do not
trace again).  ``integrate(t, step=True)`` (vode, zvode, lsoda) and
``set_solout`` (dopri5, dop853) step with a stepper of
:mod:`sciax.integrate._odesolver`.
"""

from __future__ import annotations

import re
import warnings
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax.integrate import _ode_loop
from sciax.integrate._bdf import BDF
from sciax.integrate._ivp import _validate_tol
from sciax.integrate._lsoda import LSODA
from sciax.integrate._odesolver import LoopStepper
from sciax.integrate._rk import DOP853, RK45

__all__ = ["complex_ode", "ode"]

_VODE_MESSAGES = {
    -1: "Excess work done on this call. (Perhaps wrong MF.)",
    -2: "Excess accuracy requested. (Tolerances too small.)",
    -3: "Illegal input detected. (See printed message.)",
    -4: "Repeated error test failures. (Check all input.)",
    -5: "Repeated convergence failures. (Perhaps bad Jacobian supplied or wrong "
        "choice of MF or tolerances.)",
    -6: "Error weight became zero during problem. (Solution component i vanished, "
        "and ATOL or ATOL(i) = 0.)",
}
_DOP_MESSAGES = {
    1: "computation successful",
    2: "computation successful (interrupted by solout)",
    -1: "input is not consistent",
    -2: "larger nsteps is needed",
    -3: "step size becomes too small",
    -4: "problem is probably stiff (interrupted)",
}


# --- the integrators: SciPy's names and options, mapped onto sciax's methods ----------


class _Integrator:
    """Options of one named integrator and its return codes."""

    scalar: type = float
    supports_step = False
    supports_run_relax = False
    supports_solout = False
    messages: dict = _VODE_MESSAGES
    ok_code = 2

    def __init__(self, *, rtol: Any, atol: Any, nsteps: int, max_step: float,
                 first_step: float):
        self.rtol, self.atol = rtol, atol
        self.nsteps = int(nsteps)
        if self.nsteps < 1:
            raise ValueError(f"{type(self).__name__[1:]}: nsteps must be positive")
        self.max_step = float(max_step) if max_step else np.inf
        self.first_step = float(first_step) if first_step else None
        self.success = 1
        self.istate = self.ok_code

    def method(self) -> Any:
        raise NotImplementedError

    def code(self, status: int) -> int:
        """sciax's loop status -> this integrator's return code."""
        if status in (_ode_loop.FINISHED, _ode_loop.EVENT):
            return self.ok_code
        if status == _ode_loop.MAX_STEPS:
            return -1
        if status in (_ode_loop.NEWTON_FAILED, _ode_loop.SINGULAR):
            return -5
        return -4

    def key(self) -> tuple:
        return (type(self), self.method_name(), np.asarray(self.rtol).tobytes(),
                np.asarray(self.atol).tobytes(), self.nsteps, self.max_step,
                self.first_step)

    def method_name(self) -> str:
        return type(self.method()).__name__


class _vode(_Integrator):
    supports_step = True
    supports_run_relax = True

    def __init__(self, method: str = "adams", with_jacobian: bool = False,
                 rtol: Any = 1e-6, atol: Any = 1e-12, lband: Any = None,
                 uband: Any = None, order: int = 12, nsteps: int = 500,
                 max_step: float = 0.0, min_step: float = 0.0,
                 first_step: float = 0.0):
        if re.match(method, r"adams", re.I):
            self.meth = 1
        elif re.match(method, r"bdf", re.I):
            self.meth = 2
        else:
            raise ValueError(f"Unknown integration method {method}")
        self.with_jacobian = with_jacobian
        self.ml, self.mu, self.order, self.min_step = lband, uband, order, min_step
        super().__init__(rtol=rtol, atol=atol, nsteps=nsteps, max_step=max_step,
                         first_step=first_step)

    def method(self) -> Any:
        return BDF() if self.meth == 2 else LSODA()


class _zvode(_vode):
    scalar = complex


class _lsoda(_Integrator):
    supports_step = True
    supports_run_relax = True
    messages = {2: "Integration successful.",
                -1: "Excess work done on this call (perhaps wrong Dfun type).",
                -2: "Excess accuracy requested (tolerances too small).",
                -3: "Illegal input detected (internal error).",
                -4: "Repeated error test failures (internal error).",
                -5: "Repeated convergence failures (perhaps bad Jacobian or "
                    "tolerances).",
                -6: "Error weight became zero during problem.",
                -7: "Internal workspace insufficient to finish (internal error)."}

    def __init__(self, with_jacobian: bool = False, rtol: Any = 1e-6,
                 atol: Any = 1e-12, lband: Any = None, uband: Any = None,
                 nsteps: int = 500, max_step: float = 0.0, min_step: float = 0.0,
                 first_step: float = 0.0, ixpr: int = 0, max_hnil: int = 0,
                 max_order_ns: int = 12, max_order_s: int = 5, method: Any = None):
        self.with_jacobian, self.ml, self.mu, self.min_step = (with_jacobian, lband,
                                                               uband, min_step)
        super().__init__(rtol=rtol, atol=atol, nsteps=nsteps, max_step=max_step,
                         first_step=first_step)

    def method(self) -> Any:
        return LSODA()


class _dopri5(_Integrator):
    supports_solout = True
    messages = _DOP_MESSAGES
    ok_code = 1

    def __init__(self, rtol: Any = 1e-6, atol: Any = 1e-12, nsteps: int = 500,
                 max_step: float = 0.0, first_step: float = 0.0, safety: float = 0.9,
                 ifactor: float = 10.0, dfactor: float = 0.2, beta: float = 0.0,
                 method: Any = None, verbosity: int = -1):
        self.safety, self.ifactor, self.dfactor, self.beta = (safety, ifactor,
                                                              dfactor, beta)
        self.verbosity = verbosity
        self.solout, self.solout_cmplx = None, False
        super().__init__(rtol=rtol, atol=atol, nsteps=nsteps, max_step=max_step,
                         first_step=first_step)

    def set_solout(self, solout: Callable | None, complex: bool = False) -> None:
        self.solout, self.solout_cmplx = solout, complex

    def method(self) -> Any:
        return RK45()

    def code(self, status: int) -> int:
        if status in (_ode_loop.FINISHED, _ode_loop.EVENT):
            return 1
        return -2 if status == _ode_loop.MAX_STEPS else -3


class _dop853(_dopri5):
    def __init__(self, rtol: Any = 1e-6, atol: Any = 1e-12, nsteps: int = 500,
                 max_step: float = 0.0, first_step: float = 0.0, safety: float = 0.9,
                 ifactor: float = 6.0, dfactor: float = 0.3, beta: float = 0.0,
                 method: Any = None, verbosity: int = -1):
        super().__init__(rtol, atol, nsteps, max_step, first_step, safety, ifactor,
                         dfactor, beta, method, verbosity)

    def method(self) -> Any:
        return DOP853()


# SciPy's order: find_integrator('') picks vode
_INTEGRATORS = {"vode": _vode, "zvode": _zvode, "dopri5": _dopri5,
                "dop853": _dop853, "lsoda": _lsoda}


def _find_integrator(name: str) -> type | None:
    for key, cls in _INTEGRATORS.items():
        if re.match(name, key, re.I):
            return cls
    return None


def _split_params(params: tuple) -> tuple[tuple, tuple]:
    """Numeric parameters become traced arguments (``(index, array)``); the
    others stay static, in the cache key (``(index, value)``)."""
    dyn, static = [], []
    for i, p in enumerate(params):
        try:
            a = np.asarray(p) if not isinstance(p, sciax.Array) else p
            numeric = a.dtype.kind in "biufc"
        except Exception:  # noqa: BLE001 - anything NumPy cannot take is static
            numeric = False
        (dyn if numeric else static).append((i, p))
    return tuple(dyn), tuple(static)


def _static_key(static: tuple) -> tuple:
    out = []
    for i, p in static:
        try:
            hash(p)
            out.append((i, p))
        except TypeError:
            out.append((i, id(p)))
    return tuple(out)


# --- the ode class --------------------------------------------------------------------


class ode:
    """A generic interface class to numeric integrators: SciPy's
    :class:`scipy.integrate.ode`.

    Solves ``y'(t) = f(t, y)`` with an optional Jacobian ``jac = df/dy``.

    Parameters
    ----------
    f : callable ``f(t, y, *f_args)``
        Right-hand side; ``t`` is a scalar and ``y.shape == (n,)``.  It is
        traced, so write it with ``sciax.numpy`` (it may return a list).
        ``f_args`` are set by :meth:`set_f_params`.
    jac : callable ``jac(t, y, *jac_args)``, optional
        Jacobian ``jac[i, j] = d f[i] / d y[j]`` (implicit methods; without
        it they differentiate ``f``).  ``jac_args`` by :meth:`set_jac_params`.

    Attributes
    ----------
    t : float
        Current time.
    y : ndarray
        Current state.

    Notes
    -----
    Integrators (:meth:`set_integrator`), with SciPy's options and defaults
    (``rtol=1e-6``, ``atol=1e-12``, ``nsteps=500``, ``max_step``,
    ``first_step``):

    - ``'vode'`` (``method='adams'`` or ``'bdf'``), ``'zvode'`` (complex
      ``y``), ``'lsoda'``: implicit BDF (``'bdf'``) or the LSODA-style switching
      method (``'adams'``, ``'lsoda'``); support ``integrate(t, step=True)``.
    - ``'dopri5'``, ``'dop853'``: the explicit Dormand-Prince pairs RK45 and
      DOP853; support :meth:`set_solout`.

    *Differences from SciPy.*  The methods are sciax's (module docstring),
    so the internal steps differ from the Fortran codes', and the values
    agree to the tolerances, not to rounding.  Each ``integrate(t)`` call
    starts a fresh integration from ``(t, y)`` (the Fortran codes carry their
    step size and history over; VODE's ``itask=1`` also overshoots and
    interpolates).  ``step=True`` takes one step of at most ``t - self.t``
    (VODE may step past ``t``), and ``relax=True`` stops at ``t`` exactly.
    ``nsteps`` bounds the attempted steps of one call (rejected ones
    included).  ``order``, ``min_step``, ``with_jacobian``, banded-Jacobian
    (``lband``, ``uband``) and step-control options (``safety``, ``ifactor``,
    ``dfactor``, ``beta``) are accepted and ignored (a given ``jac`` must
    return the full ``(n, n)`` matrix).  ``get_return_code`` gives the
    integrator's codes (2 or 1 on success; -1 "excess work" for ``nsteps``
    reached with vode/lsoda, -2 with dopri; step-size failures -4 or -3).

    *Transformations.*  ``ode`` is a host-side object (its state lives in
    it): it cannot be traced, and ``y`` comes back as a NumPy array.  Use
    :func:`solve_ivp` for jit, vmap and grad.

    Examples
    --------
    >>> from sciax.integrate import ode
    >>> r = ode(lambda t, y, k: -k * y).set_integrator("dopri5", rtol=1e-10)
    >>> r = r.set_initial_value([1.0], 0.0).set_f_params(0.5)
    >>> while r.successful() and r.t < 2.0:
    ...     y = r.integrate(r.t + 1.0)
    >>> print(r.t, f"{y[0]:.9f}", f"{np.exp(-1.0):.9f}", r.get_return_code())
    2.0 0.367879441 0.367879441 1
    """

    def __init__(self, f: Callable, jac: Callable | None = None):
        self.stiff = 0
        self.f = f
        self.jac = jac
        self.f_params: tuple = ()
        self.jac_params: tuple = ()
        self._y: Any = []
        self._runners: dict = {}
        self._stepper: Any = None

    @property
    def y(self) -> Any:
        return self._y

    def set_initial_value(self, y: Any, t: Any = 0.0) -> "ode":
        """Set initial conditions ``y(t) = y``."""
        if np.isscalar(y):
            y = [y]
        if not len(self._y):
            self.set_integrator("")
        self._y = np.array(y, self._integrator.scalar)
        if self._y.ndim != 1:
            raise ValueError(f"`y` must be 1-dimensional, got shape {self._y.shape}")
        self.t = float(t)
        self._reset()
        return self

    def set_integrator(self, name: str, **integrator_params: Any) -> "ode":
        """Set the integrator by name (``'vode'``, ``'zvode'``, ``'lsoda'``,
        ``'dopri5'``, ``'dop853'``; SciPy's prefix match) and its options."""
        cls = _find_integrator(name)
        if cls is None:
            warnings.warn(f"No integrator name match with {name!r} or is not "
                          "available.", stacklevel=2)
            return self
        self._integrator = cls(**integrator_params)
        dtype = complex if self._is_complex() else self._integrator.scalar
        if not len(self._y):
            self.t = 0.0
            self._y = np.array([0.0], dtype)
        else:
            self._y = np.asarray(self._y, dtype)
        self._reset()
        return self

    def _reset(self) -> None:
        self._integrator.success = 1
        self._integrator.istate = self._integrator.ok_code
        self._stepper = None

    def set_f_params(self, *args: Any) -> "ode":
        """Set extra parameters for ``f``."""
        self.f_params = args
        self._stepper = None
        return self

    def set_jac_params(self, *args: Any) -> "ode":
        """Set extra parameters for ``jac``."""
        self.jac_params = args
        self._stepper = None
        return self

    def set_solout(self, solout: Callable) -> None:
        """Set ``solout(t, y)``, called after every accepted step (and at the
        initial point, as DOPRI5's); returning ``-1`` stops the integration.
        Only ``'dopri5'`` and ``'dop853'``."""
        if self._integrator.supports_solout:
            self._integrator.set_solout(solout)
            self._reset()
        else:
            raise ValueError("selected integrator does not support solout, choose "
                             "another one")

    def successful(self) -> bool:
        """Whether the last integration succeeded."""
        if not hasattr(self, "_integrator"):
            self.set_integrator("")
        return self._integrator.success == 1

    def get_return_code(self) -> int:
        """The integrator's return code (> 0 success, < 0 failure; SciPy's
        tables in :meth:`scipy.integrate.ode.get_return_code`)."""
        if not hasattr(self, "_integrator"):
            self.set_integrator("")
        return self._integrator.istate

    # -- the real-valued system the methods see -------------------------------------

    def _is_complex(self) -> bool:
        return self._integrator.scalar is complex

    def _real_rhs(self, f_layout: tuple, j_layout: tuple) -> tuple[Callable, Any]:
        """``fun(t, yr, fdyn, jdyn)`` and ``jac`` on the real state (a complex
        state interleaves real and imaginary parts, as SciPy's complex_ode).
        ``*_layout`` is ``(indices of the traced parameters, ((index, value), ...)
        of the static ones)``."""
        f, jac, cplx = self.f, self.jac, self._is_complex()

        def merge(values: tuple, layout: tuple) -> tuple:
            idx, static = layout
            out = dict(static)
            out.update(zip(idx, values))
            return tuple(out[i] for i in range(len(out)))

        def user_y(y: Any) -> Any:
            return y[::2] + 1j * y[1::2] if cplx else y

        def fun(t: Any, y: Any, fdyn: tuple, jdyn: tuple) -> Any:
            v = snp.asarray(f(t, user_y(y), *merge(fdyn, f_layout)))
            if v.ndim == 0:
                v = snp.reshape(v, (1,))
            if cplx:
                v = snp.stack([snp.real(v), snp.imag(v)], axis=1).reshape(-1)
            return v.astype(y.dtype)

        if jac is None:
            return fun, None

        def jw(t: Any, y: Any, fdyn: tuple, jdyn: tuple) -> Any:
            J = snp.atleast_2d(snp.asarray(jac(t, user_y(y), *merge(jdyn, j_layout))))
            if not cplx:
                return J.astype(y.dtype)
            re_, im_ = snp.real(J), snp.imag(J)
            n = J.shape[0]
            blocks = snp.stack([snp.stack([re_, -im_], axis=-1),
                                snp.stack([im_, re_], axis=-1)], axis=1)
            return blocks.reshape(2 * n, 2 * n).astype(y.dtype)

        return fun, jw

    def _real_y(self) -> np.ndarray:
        y = np.asarray(self._y)
        if self._is_complex():
            out = np.empty(2 * y.size)
            out[::2], out[1::2] = y.real, y.imag
            return out
        return y.astype(np.float64)

    def _set_real_y(self, yr: Any) -> None:
        yr = np.asarray(yr, np.float64)
        self._y = yr[::2] + 1j * yr[1::2] if self._is_complex() else yr.copy()

    # -- integration ----------------------------------------------------------------

    def integrate(self, t: Any, step: bool = False, relax: bool = False) -> Any:
        """Integrate to ``t`` (or take one step toward it, ``step=True``), set
        the result as the new initial condition and return ``y``."""
        if not hasattr(self, "_integrator"):
            self.set_integrator("")
        ig = self._integrator
        t = float(t)
        if step and ig.supports_step:
            self._step_to(t)
        elif getattr(ig, "solout", None) is not None:
            self._run_solout(t)
        else:
            self._run(t)
        return self._y

    def _finish(self, status: int) -> None:
        ig = self._integrator
        ig.istate = ig.code(status)
        if ig.istate < 0:
            msg = ig.messages.get(ig.istate, f"Unexpected istate={ig.istate:d}")
            warnings.warn(f"{type(ig).__name__[1:]}: {msg}", stacklevel=3)
            ig.success = 0
        else:
            ig.success = 1

    def _run(self, t1: float) -> None:
        ig = self._integrator
        fdyn, fstat = _split_params(self.f_params)
        jdyn, jstat = _split_params(self.jac_params)
        key = (ig.key(), tuple(i for i, _ in fdyn), _static_key(fstat),
               tuple(i for i, _ in jdyn), _static_key(jstat))
        run = self._runners.get(key)
        if run is None:
            fun, jac = self._real_rhs((tuple(i for i, _ in fdyn), fstat),
                                      (tuple(i for i, _ in jdyn), jstat))
            method = ig.method()
            tols = _validate_tol(ig.rtol, ig.atol, self._real_y().size)
            use_jac = jac is not None and getattr(method, "stateful", False)

            def go(t0: Any, t1: Any, y0: Any, fd: tuple, jd: tuple) -> tuple:
                # solve_ivp's loop without its step buffers: only the end state
                cfg = _ode_loop.LoopConfig(
                    solver=method, fun=lambda t, y: fun(t, y, fd, jd),
                    max_step=ig.max_step, first_step=ig.first_step,
                    max_steps=ig.nsteps, t_eval=None, save_steps=False, dense=False,
                    events=(), event_capacity=0, kind="while", progress=False,
                    jac=(lambda t, y: jac(t, y, fd, jd)) if use_jac else None)
                s = _ode_loop.integrate(cfg, t0, t1, y0, *tols)
                return s["t"], s["y"], s["status"]

            run = self._runners[key] = sciax.jit(go)
        if t1 == self.t:
            self._finish(_ode_loop.FINISHED)
            return
        tt, yy, status = run(self.t, t1, self._real_y(),
                             tuple(v for _, v in fdyn), tuple(v for _, v in jdyn))
        status = int(status)
        tt = float(tt)
        if status in (_ode_loop.FINISHED, _ode_loop.EVENT):
            tt = t1
        self.t = tt
        self._set_real_y(yy)
        self._finish(status)

    def _new_stepper(self, t_bound: float) -> LoopStepper:
        ig = self._integrator
        fdyn, fstat = _split_params(self.f_params)
        jdyn, jstat = _split_params(self.jac_params)
        fun, jac = self._real_rhs((tuple(i for i, _ in fdyn), fstat),
                                  (tuple(i for i, _ in jdyn), jstat))
        fd, jd = tuple(v for _, v in fdyn), tuple(v for _, v in jdyn)
        method = ig.method()
        opts = dict(rtol=ig.rtol, atol=ig.atol, max_step=ig.max_step,
                    first_step=ig.first_step)
        if jac is not None and getattr(method, "stateful", False):
            opts["jac"] = lambda t, y: jac(t, y, fd, jd)
        return LoopStepper(method, lambda t, y: fun(t, y, fd, jd), self.t,
                           self._real_y(), t_bound, **opts)

    def _step_to(self, t1: float) -> None:
        s = self._stepper
        if s is None or s.t != self.t or s.t_bound != t1 or s.status != "running":
            if t1 == self.t:
                self._finish(_ode_loop.FINISHED)
                return
            s = self._stepper = self._new_stepper(t1)
        msg = s.step()
        self.t = s.t
        self._set_real_y(s.y)
        self._finish(_ode_loop.STEP_TOO_SMALL if msg is not None
                     and s.status == "failed" else _ode_loop.FINISHED)

    def _run_solout(self, t1: float) -> None:
        ig = self._integrator

        def user(y: Any) -> Any:
            y = np.asarray(y, np.float64)
            return y[::2] + 1j * y[1::2] if (self._is_complex() or ig.solout_cmplx) \
                else y

        if ig.solout(self.t, user(self._real_y())) == -1:
            ig.istate, ig.success = 2, 1
            return
        if t1 == self.t:
            self._finish(_ode_loop.FINISHED)
            return
        s = self._new_stepper(t1)
        steps = 0
        while s.status == "running":
            if steps >= ig.nsteps:
                self._finish(_ode_loop.MAX_STEPS)
                return
            msg = s.step()
            steps += 1
            if s.status == "failed":
                self._finish(_ode_loop.STEP_TOO_SMALL if msg else _ode_loop.NONFINITE)
                return
            self.t = s.t
            self._set_real_y(s.y)
            if ig.solout(self.t, user(self._real_y())) == -1:
                ig.istate, ig.success = 2, 1
                return
        self._finish(_ode_loop.FINISHED)


class complex_ode(ode):
    """A wrapper of :class:`ode` for complex systems: SciPy's
    :class:`scipy.integrate.complex_ode`.

    As :class:`ode`, but ``y`` and ``f`` (and ``jac``) are complex; the
    integrators see the real system of the interleaved real and imaginary
    parts, as SciPy's do.  ``'zvode'`` is not allowed here (use it with
    :class:`ode`).

    Parameters
    ----------
    f : callable ``f(t, y, *f_args)``
        Complex right-hand side (traced; ``sciax.numpy``).
    jac : callable ``jac(t, y, *jac_args)``, optional
        Complex Jacobian.

    Examples
    --------
    ``y' = i y``, ``y(0) = 1``: ``y(t) = exp(i t)``.

    >>> from sciax.integrate import complex_ode
    >>> r = complex_ode(lambda t, y: 1j * y).set_integrator("dop853", rtol=1e-10)
    >>> y = r.set_initial_value([1.0 + 0j], 0.0).integrate(np.pi / 2)
    >>> print(np.round(y, 8), r.successful())
    [0.+1.j] True
    """

    def __init__(self, f: Callable, jac: Callable | None = None):
        super().__init__(f, jac)
        self.cf, self.cjac = f, jac

    @property
    def y(self) -> Any:
        return self._y

    def set_integrator(self, name: str, **integrator_params: Any) -> "complex_ode":
        """Set the integrator by name (not ``'zvode'``)."""
        if name == "zvode":
            raise ValueError("zvode must be used with ode, not complex_ode")
        super().set_integrator(name, **integrator_params)
        return self

    def _is_complex(self) -> bool:
        return True

    def set_initial_value(self, y: Any, t: Any = 0.0) -> "complex_ode":
        """Set initial conditions ``y(t) = y`` (complex)."""
        if np.isscalar(y):
            y = [y]
        if not hasattr(self, "_integrator"):
            self.set_integrator("")
        self._y = np.array(y, complex)
        if self._y.ndim != 1:
            raise ValueError(f"`y` must be 1-dimensional, got shape {self._y.shape}")
        self.t = float(t)
        self._reset()
        return self

    def set_solout(self, solout: Callable) -> None:
        """Set ``solout(t, y)`` (complex ``y``); only ``'dopri5'`` and
        ``'dop853'``."""
        if self._integrator.supports_solout:
            self._integrator.set_solout(solout, complex=True)
            self._reset()
        else:
            raise TypeError("selected integrator does not support solouta, choose "
                            "another one")
