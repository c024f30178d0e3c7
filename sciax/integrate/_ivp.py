"""``solve_ivp``: SciPy's interface over the shared stepping loop."""

from __future__ import annotations

import warnings
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

import sciax
import sciax.lax as lax
import sciax.numpy as snp
from sciax.integrate import _adjoint, _bdf, _esdirk, _lsoda, _ode_loop, _radau, _rk
from sciax.integrate._interp import OdeSolution
from sciax.integrate._ravel import Ravel, flat_rhs

EPS = np.finfo(np.float64).eps
_OPTIONS = ("first_step", "max_step", "rtol", "atol", "max_steps", "adjoint",
            "progress", "event_capacity", "jac", "jac_sparsity", "mass")

# The implicit methods live in their own modules (they subclass _rk's solver
# interface), and join the registry here.
_rk.METHODS.update(BDF=_bdf.BDF, Radau=_radau.Radau, Kvaerno3=_esdirk.Kvaerno3,
                   Kvaerno4=_esdirk.Kvaerno4, Kvaerno5=_esdirk.Kvaerno5,
                   KenCarp3=_esdirk.KenCarp3, KenCarp4=_esdirk.KenCarp4,
                   KenCarp5=_esdirk.KenCarp5, LSODA=_lsoda.LSODA)


class OdeResult:
    """Result of :func:`solve_ivp`, a pytree with SciPy's field names.

    Attributes
    ----------
    t : Array
        Times of the output points.
    y : pytree of Array
        The state at ``t``: each leaf has the state's shape plus a trailing
        axis over ``t`` (SciPy's ``(n, n_points)`` for a 1-D state).
    sol : OdeSolution or None
        The continuous solution when ``dense_output=True``.
    t_events, y_events : list or None
        Per event, the times and states at which it occurred (``y_events``
        leaves have a leading axis over the occurrences).
    nfev, njev, nlu : Array
        Right-hand-side evaluations; Jacobian evaluations and LU
        decompositions (always 0 for the explicit methods).
    status : Array
        0 end of the span reached, 1 a terminal event, -1 step size too
        small, -2 ``max_steps`` reached, -3 NaN or inf in the solution.
    n_points : Array
        Number of valid entries of ``t``/``y`` (sciax extra: under ``jit`` the
        buffers are fixed-size and entries past ``n_points`` are NaN).
    n_events : Array or None
        Occurrences per event (sciax extra; the buffers hold at most
        ``event_capacity``).
    message : str
        Host-side description of ``status`` (a list of them under ``vmap``).
    success : bool or Array
        ``status >= 0``.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> res = solve_ivp(lambda t, y: -y, (0.0, 1.0), snp.array([1.0]))
    >>> res.success, int(res.status)
    (True, 0)
    """

    _fields = ("t", "y", "sol", "t_events", "y_events", "nfev", "njev", "nlu",
               "status", "n_points", "n_events")

    def __init__(self, **kw: Any):
        for k in self._fields:
            setattr(self, k, kw.get(k))

    @property
    def message(self) -> Any:
        st = np.asarray(self.status)
        if st.ndim == 0:
            return _ode_loop.MESSAGES.get(int(st), f"unknown status {int(st)}")
        return [_ode_loop.MESSAGES.get(int(s), f"unknown status {int(s)}")
                for s in st.ravel()]

    @property
    def success(self) -> Any:
        st = self.status
        if isinstance(st, sciax.Array) and np.ndim(st) == 0:
            return bool(int(st) >= 0)
        return st >= 0

    def __getitem__(self, key: str) -> Any:
        if key in ("message", "success"):
            return getattr(self, key)
        if key not in self._fields:
            raise KeyError(key)
        return getattr(self, key)

    def keys(self) -> tuple:
        return self._fields + ("message", "success")

    def __repr__(self) -> str:
        parts = [f"{k}: {getattr(self, k)!r:.70}" for k in ("message", "success",
                                                           "status", "nfev")]
        return "OdeResult(" + ", ".join(parts) + ")"


sciax.tree.register_node(
    OdeResult, lambda r: (tuple(getattr(r, k) for k in OdeResult._fields), None),
    lambda _, ch: OdeResult(**dict(zip(OdeResult._fields, ch))))


class _Static(NamedTuple):
    """Everything that is not an array: hashable, so it can key caches."""
    fun: Callable
    rv: Ravel
    solver: Any
    events: tuple          # (fun, terminal count, direction) per event
    max_step: float
    first_step: Any
    max_steps: int
    dense: bool
    save_steps: bool
    has_t_eval: bool
    event_capacity: int
    progress: bool
    order: str             # "ty" (solve_ivp) or "yt" (odeint)
    jac: Any = None        # None, a callable jac(t, y, *args), or a ConstMatrix
    mass: Any = None       # None or a ConstMatrix
    sparsity: Any = None   # None or a ConstMatrix (boolean pattern of df/dy)


class ConstMatrix:
    """A constant matrix (``jac`` or ``mass``) as hashable static data."""

    def __init__(self, a: Any, n: int, name: str):
        if not _is_concrete(a):
            raise TypeError(f"a constant `{name}` must be a concrete array (it is "
                            f"static); pass a callable to use traced values")
        self.array = np.asarray(a, np.float64)
        if self.array.shape != (n, n):
            raise ValueError(f"`{name}` is expected to have shape {(n, n)}, but "
                             f"actually has {self.array.shape}.")
        self._key = (self.array.shape, self.array.tobytes())

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ConstMatrix) and self._key == other._key


def _flat_jac(st: "_Static", args: tuple) -> Any:
    if st.jac is None:
        return None
    if isinstance(st.jac, ConstMatrix):
        return snp.asarray(st.jac.array)
    n = st.rv.user_size

    def jac(t, y):
        J = snp.asarray(st.jac(t, st.rv(y), *args) if st.order == "ty"
                        else st.jac(st.rv(y), t, *args))
        if tuple(J.shape) != (n, n):
            raise ValueError(f"`jac` is expected to have shape {(n, n)}, but "
                             f"actually has {tuple(J.shape)}.")
        if np.issubdtype(J.dtype, np.complexfloating) and not st.rv.is_complex:
            raise TypeError(f"`jac` returned complex values (dtype {J.dtype}) for "
                            f"a real state")
        return st.rv.real_matrix(J)
    return jac


def _config(st: _Static, kind: str, args: tuple, t_eval: Any) -> Any:
    """The loop configuration for one solve (flat right-hand side and events)."""
    split = None
    if isinstance(st.fun, tuple):  # IMEX: (f_explicit, f_implicit)
        split = tuple(flat_rhs(g, st.rv, args, name=nm, order=st.order)
                      for g, nm in zip(st.fun, ("fun[0]", "fun[1]")))
        fun = lambda t, y: split[0](t, y) + split[1](t, y)  # noqa: E731
    else:
        fun = flat_rhs(st.fun, st.rv, args, order=st.order)
    def event(e):
        def g(t, y):
            v = snp.asarray(e(t, st.rv(y), *args))
            if np.issubdtype(v.dtype, np.complexfloating):
                raise TypeError(f"an event function must return a real scalar, got "
                                f"dtype {v.dtype} (take the real part, or abs)")
            return snp.reshape(v, ())
        return g
    events = tuple(_ode_loop.Event(event(e), term, dirn)
                   for e, term, dirn in st.events)
    return _ode_loop.LoopConfig(
        solver=st.solver, fun=fun, max_step=st.max_step, first_step=st.first_step,
        max_steps=st.max_steps, t_eval=t_eval if st.has_t_eval else None,
        save_steps=st.save_steps, dense=st.dense, events=events,
        event_capacity=st.event_capacity, kind=kind, progress=st.progress,
        jac=_flat_jac(st, args),
        mass=None if st.mass is None else snp.asarray(st.mass.array), split=split,
        sparsity=None if st.sparsity is None else st.sparsity.array != 0)


_KEEP = ("t", "y", "nfev", "njev", "nlu", "status", "n_acc", "i_eval", "ys_eval",
         "ts", "ys", "hs", "cs", "ev_t", "ev_y", "ev_n")


def run(st: _Static, kind: str, y0: Any, args: tuple, t0: Any, t1: Any,
        t_eval: Any, rtol: Any, atol: Any) -> dict:
    """One solve with the array inputs explicit (the unit the adjoints wrap)."""
    s = _ode_loop.integrate(_config(st, kind, args, t_eval), t0, t1, y0, rtol, atol)
    return {k: s[k] for k in _KEEP if k in s}


def replayable(st: _Static) -> bool:
    """Whether ``replay`` can rerun this configuration's recorded steps."""
    return not st.events and _ode_loop.replayable(st.solver)


def record(st: _Static, y0: Any, args: tuple, t0: Any, t1: Any, t_eval: Any,
           rtol: Any, atol: Any) -> dict:
    """``run`` (the fast ``while`` kind) keeping what ``replay`` needs: the
    accepted steps' end times."""
    # No t_eval and no dense output: the replay interpolates them itself.
    cfg = _config(st._replace(save_steps=True, has_t_eval=False, dense=False),
                  "while", args, None)
    cfg = cfg._replace(record=True)
    s = _ode_loop.integrate(cfg, t0, t1, y0, rtol, atol)
    return {k: s[k] for k in _KEEP if k in s}


def replay(st: _Static, rec: dict, y0: Any, args: tuple, t0: Any, t1: Any,
           t_eval: Any) -> dict:
    """The output of ``run(st, ...)`` recomputed from a ``record`` as one
    straight-line scan over its accepted steps: what derivatives
    differentiate (no step-size controller, no conditionals)."""
    cfg = _config(st, "replay", args, t_eval)
    s = _ode_loop.replay(cfg, rec, t0, t1, y0)
    keep = [k for k in _KEEP if k in s or (k in rec and k not in ("ts", "ys"))]
    return {k: s[k] if k in s else rec[k] for k in keep}


def _is_concrete(*xs: Any) -> bool:
    return all(isinstance(x, (sciax.Array, np.ndarray, float, int))
               for x in sciax.tree.leaves(xs))


def _validate_tol(rtol: Any, atol: Any, n: int, rv: Ravel | None = None
                  ) -> tuple[Any, Any]:
    """Checked tolerances; per-element arrays have the user's ``n`` entries
    and are expanded by ``rv`` to its real layout (complex leaves)."""
    rtol_np = np.asarray(rtol) if _is_concrete(rtol) else None
    if rtol_np is not None:
        if rtol_np.ndim > 0 and rtol_np.shape != (n,):
            raise ValueError(f"`rtol` must be a scalar or have shape ({n},), got "
                             f"{rtol_np.shape}")
        if np.any(rtol_np < 100 * EPS):
            warnings.warn("At least one element of `rtol` is too small. Setting "
                          "`rtol = np.maximum(rtol, 100 * EPS)`.", stacklevel=3)
            rtol = np.maximum(rtol_np, 100 * EPS)
    if _is_concrete(atol):
        atol_np = np.asarray(atol)
        if atol_np.ndim > 0 and atol_np.shape != (n,):
            raise ValueError(f"`atol` has wrong shape: a scalar or ({n},) (the "
                             f"flattened state) was expected, got {atol_np.shape}")
        if np.any(atol_np < 0):
            raise ValueError("`atol` must be positive.")
    rtol, atol = snp.asarray(rtol, np.float64), snp.asarray(atol, np.float64)
    if rv is not None:
        rtol = rtol if rtol.ndim == 0 else rv.expand(rtol)
        atol = atol if atol.ndim == 0 else rv.expand(atol)
    return lax.stop_gradient(rtol), lax.stop_gradient(atol)


def _event_specs(events: Any) -> tuple:
    if events is None:
        return ()
    if callable(events):
        events = [events]
    specs = []
    for e in events:
        if not callable(e):
            raise TypeError(f"each event must be callable, got {type(e).__name__}")
        term = getattr(e, "terminal", False)
        if isinstance(term, (bool, np.bool_)):
            count = 1 if term else 0
        elif isinstance(term, (int, np.integer)) and term > 0:
            count = int(term)
        else:
            raise ValueError(f"event.terminal must be a bool or a positive int, got "
                             f"{term!r}")
        specs.append((e, count, float(getattr(e, "direction", 0.0))))
    return tuple(specs)


def solve_ivp(fun: Callable, t_span: Sequence[Any], y0: Any, method: Any = "RK45",
              t_eval: Any = None, dense_output: bool = False, events: Any = None,
              vectorized: bool = False, args: Any = None, **options: Any
              ) -> OdeResult:
    """Solve an initial value problem for a system of ODEs.

    sciax implementation of :func:`scipy.integrate.solve_ivp` for non-stiff
    problems, differentiable, batchable and compiled.

    Parameters
    ----------
    fun : callable or pair of callables
        ``fun(t, y, *args)`` returning ``dy/dt`` with ``y``'s structure and
        shapes (``y`` may be any pytree of real or complex arrays).  For the
        IMEX methods ``'KenCarp3/4/5'``, a pair ``(f_explicit, f_implicit)``
        whose sum is ``dy/dt``: only ``f_implicit`` (the stiff part) is
        treated implicitly.
    t_span : pair of floats
        ``(t0, t1)``; ``t1 < t0`` integrates backwards.
    y0 : array_like or pytree
        Initial state.  Leaves may be complex (every method but ``'LSODA'``,
        which raises as in SciPy): ``fun`` then returns complex values for
        them, and the output keeps each leaf's dtype.
    method : str, solver class or solver instance
        One of ``METHODS``: the explicit ``'RK45'`` (default), ``'RK23'``,
        ``'DOP853'``, ``'Tsit5'``, the fixed-step ``'RK4'`` and ``'Euler'``
        (which need ``first_step``), and for stiff problems the implicit
        ``'BDF'``, ``'Radau'``, ``'Kvaerno3'``, ``'Kvaerno4'``, ``'Kvaerno5'``,
        the IMEX ``'KenCarp3'``, ``'KenCarp4'``, ``'KenCarp5'``, and
        ``'LSODA'`` (switching between RK45 and BDF by a stiffness estimate).
    t_eval : array_like, optional
        Times at which to report the solution, sorted along the direction of
        integration and inside ``t_span``; they are interpolated as the steps
        pass them.
    dense_output : bool
        Whether to return ``sol``, an :class:`OdeSolution`.
    events : callable or list of callables
        ``event(t, y, *args)`` with optional attributes ``terminal`` (bool, or
        the number of occurrences after which to stop) and ``direction``.
    vectorized : bool
        Accepted for compatibility; sciax always calls ``fun`` on one state
        (use ``sciax.vmap`` for batches).
    args : tuple, optional
        Extra arguments for ``fun`` and the events.
    **options
        ``first_step``, ``max_step`` (default inf), ``rtol`` (1e-3) and ``atol``
        (1e-6), scalars or arrays of the flattened state's length (a complex
        entry counts once and applies to both its parts); and the
        sciax extras ``max_steps`` (4096: the bound on attempted steps that
        ``jit`` needs), ``adjoint`` (``'direct'``, ``'backsolve'`` or
        ``'interpolated'``), ``event_capacity`` (64 occurrences per event kept)
        and ``progress`` (a text progress bar on stderr).  Implicit methods
        also take ``jac``: ``None`` (default: the exact Jacobian by autodiff),
        a callable ``jac(t, y, *args)`` returning the ``(n, n)`` Jacobian of
        the flattened state, or a constant ``(n, n)`` array (for a complex
        state, the complex Jacobian of a holomorphic ``fun``, as SciPy
        assumes); and ``'Radau'`` takes ``mass``, a constant (possibly
        singular, possibly complex) ``(n, n)`` matrix ``M`` for
        ``M y' = fun(t, y)`` (index-1 DAEs; give consistent ``y0``).
        ``jac_sparsity`` (an ``(n, n)`` pattern, nonzero where ``df_i/dy_j``
        may be nonzero) lets the autodiff Jacobian take one derivative per
        group of structurally independent columns instead of one per column.

    Returns
    -------
    OdeResult
        ``t, y, sol, t_events, y_events, nfev, njev, nlu, status, message,
        success`` (see :class:`OdeResult`).

    Raises
    ------
    ValueError, TypeError
        At trace time, for a bad ``t_span``, ``t_eval``, ``y0``, tolerance,
        method, or a ``fun`` whose output does not match ``y0``.

    Notes
    -----
    *Differences from SciPy.*  Failures (``max_steps`` reached, step size
    underflow, NaN/inf) set ``status`` (< 0) and ``success=False``, as SciPy's
    step failures do; for the implicit methods a step-size underflow says
    whether Newton kept diverging (-4) or the iteration matrix was singular
    (-5).  ``BDF`` and ``Radau`` follow SciPy's algorithms (same steps and
    counts up to rounding); sparse Jacobians are used in dense form.  Eagerly
    the output is trimmed as in SciPy.  Under ``jit`` or ``vmap`` shapes are
    static: with ``t_eval`` the output has exactly ``len(t_eval)`` points (NaN
    past a terminal event); without it ``t``/``y`` are buffers of
    ``max_steps + 1`` points of which ``n_points`` are valid (NaN after), and
    ``t_events``/``y_events`` are buffers of ``event_capacity`` entries per
    event with ``n_events`` valid.  ``rtol`` below ``100 * eps`` warns and is
    clipped, as in SciPy.  A zero of an event function exactly at the start of
    a step is not reported again.

    *Complex states.*  A complex leaf is integrated as the real system of its
    real and imaginary parts (a user ``jac`` or ``mass`` ``A`` enters as the
    real block form ``[[Re A, -Im A], [Im A, Re A]]``), so the error norm is
    the RMS over the ``2n`` parts, each scaled by ``atol + rtol * |part|``,
    where SciPy takes it over the ``n`` complex moduli: step sequences and
    ``nfev`` differ slightly from SciPy's (within 10-20% on Schroedinger-type
    test problems), and the accuracy is that of the tolerances.  Event
    functions must return real values (for example ``y[0].real``).
    Derivatives with respect to real parameters follow by construction; a
    gradient with respect to a complex ``y0`` uses sciax's convention
    (``dL/dRe - i dL/dIm`` for a real ``L``).  ``odeint`` rejects complex
    states, as SciPy's does.

    *Transformations.*  ``vmap`` over ``y0``/``args`` gives every lane its own
    step sizes, counts and status; the batch runs until its slowest lane
    finishes (a lane that is done idles).  Derivatives with respect to ``y0``,
    ``args``, the ``t_span`` endpoints and ``t_eval``:

    * ``adjoint='direct'`` (default): forward mode (``jvp``, ``jacfwd``) and reverse
      mode differentiate through the steps (step sizes are treated as constants, as
      in diffrax).  The primal runs as a ``while_loop``.  When the inputs are few
      (``y0``, ``args`` and the ``t_span`` endpoints, flattened, at most
      ``_adjoint.FORWARD_MAX_INPUTS`` = 16 entries, with ``t_eval`` counting one
      whatever its length) a derivative takes the whole Jacobian by forward mode
      through that loop, one tangent per input, and reverse mode only transposes a
      product with it: no residuals are stored and the program compiles fast.  With
      more inputs, the explicit methods record the accepted steps in the fast loop
      and reverse mode differentiates a replay of them (a scan of ``max_steps``
      slots with no step-size control, in checkpointed chunks of
      ``ceil(sqrt(max_steps))`` steps, finished chunks skipped), and the implicit
      methods rerun their steps as two nested scans that reverse mode differentiates
      (residuals for ``max_steps`` step slots: keep ``max_steps`` near the steps
      needed).
    * ``adjoint='backsolve'``: reverse mode only; the continuous adjoint
      system is integrated backwards together with the state (memory
      independent of the number of steps; needs ``t_eval`` or uses ``t1``).
    * ``adjoint='interpolated'``: reverse mode only; the forward solve keeps its
      dense output and the backward adjoint system reads the state from it
      instead of re-integrating it (more memory, no backward instability).

    Values captured by closure in ``fun`` are constants for the derivatives:
    pass parameters through ``args``.  Event times are differentiated by the
    implicit function theorem at the crossing.

    References
    ----------
    E. Hairer, S. P. Norsett and G. Wanner, "Solving Ordinary Differential
    Equations I: Nonstiff Problems", 2nd ed., Springer (1993).

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> def decay(t, y, k):
    ...     return -k * y
    >>> res = solve_ivp(decay, (0.0, 2.0), snp.array([1.0, 2.0]), args=(0.5,),
    ...                 t_eval=snp.array([1.0, 2.0]), rtol=1e-8, atol=1e-10)
    >>> print(np.round(np.asarray(res.y), 6))
    [[0.606531 0.367879]
     [1.213061 0.735759]]
    >>> y1 = lambda k: solve_ivp(decay, (0.0, 1.0), snp.array([1.0]), args=(k,),
    ...     t_eval=snp.array([1.0]), rtol=1e-10, atol=1e-12, max_steps=128).y[0, 0]
    >>> _, dk = sciax.jvp(y1, (0.5,), (1.0,))  # sciax.grad(y1) works too
    >>> print(round(float(dk), 6))  # d/dk exp(-k) = -exp(-k)
    -0.606531

    A complex state, ``psi' = -i H psi`` (two-level Rabi oscillation):

    >>> H = snp.array([[0.0, 1.0], [1.0, 0.0]])
    >>> res = solve_ivp(lambda t, psi: -1j * (H @ psi), (0.0, np.pi / 4),
    ...                 snp.array([1.0 + 0j, 0.0]), t_eval=snp.array([np.pi / 4]),
    ...                 rtol=1e-10, atol=1e-12)
    >>> psi = np.asarray(res.y[:, 0])  # (cos t, -i sin t) at t = pi/4
    >>> print(psi.dtype, np.round(psi, 6))
    complex128 [0.707107+0.j       0.      -0.707107j]
    """
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        warnings.warn(f"The following arguments have no effect for a chosen solver: "
                      f"{', '.join(unknown)}.", stacklevel=2)
    solver = _rk.resolve_method(method)
    if isinstance(fun, tuple):
        if not getattr(solver, "imex", False):
            raise ValueError(f"`fun` as a pair (f_explicit, f_implicit) needs an IMEX "
                             f"method (KenCarp3/4/5), not {type(solver).__name__}")
        if len(fun) != 2 or not all(callable(g) for g in fun):
            raise TypeError("an IMEX `fun` must be a pair of callables "
                            "(f_explicit, f_implicit)")
        if options.get("adjoint", "direct") != "direct":
            raise ValueError("an IMEX split supports adjoint='direct' only")
    if len(t_span) != 2:
        raise ValueError(f"`t_span` must be a pair (t0, t1), got {len(t_span)} values")
    t0 = snp.asarray(t_span[0], np.float64)
    t1 = snp.asarray(t_span[1], np.float64)
    if t0.shape != () or t1.shape != ():
        raise ValueError(f"`t_span` entries must be scalars, got shapes {t0.shape} "
                         f"and {t1.shape}")
    if _is_concrete(t0, t1) and not (np.isfinite(float(t0)) and np.isfinite(float(t1))):
        raise ValueError("`t_span` must be finite")
    if args is not None and not isinstance(args, tuple):
        args = (args,)
    args = () if args is None else args
    rv = Ravel(y0, complex_ok=True)
    if rv.is_complex and isinstance(solver, _lsoda.LSODA):  # as SciPy
        raise ValueError(f"`y0` is complex, but the chosen solver "
                         f"({type(solver).__name__}) does not support integration "
                         f"in a complex domain.")
    y0f = rv.ravel(y0)
    if _is_concrete(y0f) and not np.all(np.isfinite(np.asarray(y0f))):
        raise ValueError("`y0` must be finite (it holds NaN or inf)")
    rtol, atol = _validate_tol(options.get("rtol", 1e-3), options.get("atol", 1e-6),
                               rv.user_size, rv)
    te = None
    if t_eval is not None:
        te = snp.asarray(t_eval, np.float64)
        if te.ndim != 1:
            raise ValueError(f"`t_eval` must be 1-dimensional, got shape {te.shape}")
        if _is_concrete(te, t0, t1):
            ten, a, b = np.asarray(te), float(t0), float(t1)
            if np.any(ten < min(a, b)) or np.any(ten > max(a, b)):
                raise ValueError("Values in `t_eval` are not within `t_span`.")
            d = np.diff(ten)
            if (b >= a and np.any(d <= 0)) or (b < a and np.any(d >= 0)):
                raise ValueError("Values in `t_eval` are not properly sorted.")
    max_step = float(options.get("max_step", np.inf))
    if max_step <= 0:
        raise ValueError("`max_step` must be positive.")
    first_step = options.get("first_step")
    if first_step is not None:
        if not _is_concrete(first_step):
            raise TypeError("`first_step` must be a concrete number (it is static)")
        first_step = float(first_step)
        if first_step <= 0:
            raise ValueError("`first_step` must be positive.")
    if not solver.adaptive and first_step is None:
        raise ValueError(f"the fixed-step method {type(solver).__name__} needs "
                         f"`first_step` (the step size)")
    max_steps = int(options.get("max_steps", 4096))
    if max_steps < 1:
        raise ValueError(f"`max_steps` must be a positive int, got {max_steps}")
    adjoint = options.get("adjoint", "direct")
    jac, mass = _implicit_options(solver, options, rv)
    if rv.size == 0 and getattr(solver, "stateful", False):
        # An empty state has nothing to solve: any method gives the same (empty)
        # solution, and the implicit methods' linear algebra has no 0 x 0 case.
        solver, jac, mass = _rk.resolve_method("RK45"), None, None
        options = {k: v for k, v in options.items() if k != "jac_sparsity"}
    sparsity = options.get("jac_sparsity")
    if sparsity is not None:
        if jac is not None or not getattr(solver, "stateful", False):
            warnings.warn("`jac_sparsity` has no effect with a given `jac` or an "
                          "explicit method.", stacklevel=2)
            sparsity = None
        else:
            sparsity = ConstMatrix(_real_const(np.asarray(sparsity) != 0, rv,
                                               "jac_sparsity"), rv.size, "jac_sparsity")
    st = _Static(fun=fun, rv=rv, solver=solver, events=_event_specs(events),
                 max_step=max_step, first_step=first_step, max_steps=max_steps,
                 dense=bool(dense_output), save_steps=te is None or bool(dense_output),
                 has_t_eval=te is not None,
                 event_capacity=int(options.get("event_capacity", 64)),
                 progress=bool(options.get("progress", False)), order="ty",
                 jac=jac, mass=mass, sparsity=sparsity)
    out = _adjoint.solve(st, adjoint, y0f, args, t0, t1, te, rtol, atol)
    return _result(st, out, te, t0)


def _real_const(a: Any, rv: Ravel, name: str) -> Any:
    """A constant ``(n, n)`` matrix of the user's flattened state as a NumPy
    array in ``rv``'s real layout (``Ravel.real_matrix``; for a sparsity
    pattern, both blocks keep the pattern)."""
    if not _is_concrete(a):
        raise TypeError(f"a constant `{name}` must be a concrete array (it is "
                        f"static); pass a callable to use traced values")
    a = np.asarray(a)
    if not rv.is_complex:
        if np.iscomplexobj(a):
            raise TypeError(f"`{name}` is complex (dtype {a.dtype}) for a real state")
        return a
    n = rv.user_size
    if a.shape != (n, n):
        raise ValueError(f"`{name}` is expected to have shape {(n, n)}, but "
                         f"actually has {a.shape}.")
    if a.dtype == np.bool_:  # a pattern: nonzero in both blocks
        return rv.real_matrix(a * (1 + 1j), np) != 0
    return rv.real_matrix(a.astype(np.complex128), np)


def _implicit_options(solver: Any, options: dict, rv: Ravel) -> tuple[Any, Any]:
    """``jac`` and ``mass`` as static data, checked against the method; for a
    complex state, converted to the real layout of ``rv``."""
    n = rv.size
    stateful = getattr(solver, "stateful", False)
    jac, mass = options.get("jac"), options.get("mass")
    if jac is not None and not stateful:
        warnings.warn(f"The following arguments have no effect for a chosen solver: "
                      f"jac.", stacklevel=3)
        jac = None
    if jac is not None and not callable(jac):
        jac = ConstMatrix(_real_const(jac, rv, "jac"), n, "jac")
    if mass is not None:
        if not getattr(solver, "supports_mass", False):
            raise ValueError(f"a mass matrix is supported by method 'Radau' only, "
                             f"not {type(solver).__name__}")
        mass = ConstMatrix(_real_const(mass, rv, "mass"), n, "mass")
    return jac, mass


def _result(st: _Static, out: dict, te: Any, t0: Any) -> OdeResult:
    rv = st.rv
    eager = _is_concrete(out)
    n_pts = out["i_eval"] if te is not None else out["n_acc"] + 1
    if te is not None:
        t, ys = te, out["ys_eval"]
    else:
        t, ys = out["ts"], out["ys"]
    if eager:
        k = int(n_pts)
        t, ys = t[:k], ys[:k]
    sol = None
    if st.dense:
        n_seg = out["n_acc"]
        ts, hs, ys_s, cs = out["ts"], out["hs"], out["ys"], out["cs"]
        if eager:
            k = int(n_seg)
            ts, hs, ys_s, cs = ts[:k + 1], hs[:max(k, 1)], ys_s[:k + 1], cs[:max(k, 1)]
        sol = OdeSolution(ts, hs, ys_s, cs, n_seg, st.solver.dense_eval, rv)
    t_events = y_events = n_events = None
    if st.events:
        n_events = out["ev_n"]
        t_events, y_events = [], []
        for i in range(len(st.events)):
            et, ey = out["ev_t"][i], out["ev_y"][i]
            if eager:
                k = int(n_events[i])
                et, ey = et[:k], ey[:k]
            t_events.append(et)
            y_events.append(rv.leading(ey))
    zero = snp.zeros((), np.int32)
    return OdeResult(t=t, y=rv(ys.T, trailing=True), sol=sol, t_events=t_events,
                     y_events=y_events, nfev=out["nfev"],
                     njev=out.get("njev", zero), nlu=out.get("nlu", zero),
                     status=out["status"], n_points=n_pts, n_events=n_events)
