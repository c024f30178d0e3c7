"""Result object, status codes, the minimizer interface and the one driver loop.

Every method of :func:`sciax.optimize.minimize` is an ``AbstractMinimizer``:
``init`` builds an explicit pytree state, ``step`` maps state to state,
``terminate`` says whether the state has converged, ``postprocess`` fills an
:class:`OptimizeResult`.  :func:`iterative_solve` is the single
``lax.while_loop`` that drives them, so iteration limits, non-finite checks,
callbacks and per-lane status under ``vmap`` are written once.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import inspect
from typing import Any, Callable

import numpy as np

import sciax
import sciax.debug
import sciax.numpy as snp
from sciax import lax


class OptimizeWarning(UserWarning):
    """Warning for bad options or inputs, as :class:`scipy.optimize.OptimizeWarning`."""


class Status(enum.Enum):
    """Why an optimizer stopped; each value is the message SciPy prints.

    The integer stored in :attr:`OptimizeResult.status` is SciPy's code for the
    method (see :data:`_SCIPY_CODE`), the enum member is recovered from the
    private ``_reason`` index, so messages also work on results returned from
    ``jit``.
    """

    RUNNING = "Running."
    SUCCESS = "Optimization terminated successfully."
    MAX_ITER = "Maximum number of iterations has been exceeded."
    MAX_FEV = "Maximum number of function evaluations has been exceeded."
    PRECISION_LOSS = "Desired error not necessarily achieved due to precision loss."
    NONFINITE = "NaN result encountered."
    LBFGSB_PGTOL = "CONVERGENCE: NORM OF PROJECTED GRADIENT <= PGTOL"
    LBFGSB_FTOL = "CONVERGENCE: RELATIVE REDUCTION OF F <= FACTR*EPSMCH"
    LBFGSB_MAXFEV = "STOP: TOTAL NO. OF F,G EVALUATIONS EXCEEDS LIMIT"
    LBFGSB_MAXITER = "STOP: TOTAL NO. OF ITERATIONS REACHED LIMIT"
    LBFGSB_ABNORMAL = "ABNORMAL: "
    TRUST_NOT_PD = "A bad approximation caused failure to predict improvement."
    XTOL = "`xtol` termination condition is satisfied."
    TNC_LOCAL_MIN = "Local minimum reached (|pg| ~= 0)"
    TNC_MAXFUN = "Max. number of function evaluations reached"
    TNC_LINESEARCH = "Linear search failed"
    TNC_FCONV = "Converged (|f_n-f_(n-1)| ~= 0)"
    TNC_XCONV = "Converged (|x_n-x_(n-1)| ~= 0)"
    TRUST_LINALG = "A linalg error occurred, such as a non-psd Hessian."
    CALLBACK = "`callback` raised `StopIteration`."
    # Newton-CG's own wording of the two (SciPy prefixes them)
    NEWTON_MAX_ITER = "Warning: Maximum number of iterations has been exceeded."
    NEWTON_PR_LOSS = ("Warning: Desired error not necessarily achieved due to "
                      "precision loss.")
    NEWTON_CG_NOT_PD = ("Warning: CG iterations didn't converge. The Hessian is not "
                        "positive definite.")


_REASONS = list(Status)
_INDEX = {s: i for i, s in enumerate(_REASONS)}
# SciPy's integer ``status`` for each reason (BFGS numbering, L-BFGS-B's own).
_SCIPY_CODE = {
    Status.RUNNING: -1, Status.SUCCESS: 0, Status.MAX_ITER: 1, Status.MAX_FEV: 1,
    Status.PRECISION_LOSS: 2, Status.NONFINITE: 3, Status.LBFGSB_PGTOL: 0,
    Status.LBFGSB_FTOL: 0, Status.LBFGSB_MAXFEV: 1, Status.LBFGSB_MAXITER: 1,
    Status.LBFGSB_ABNORMAL: 2, Status.TRUST_NOT_PD: 2, Status.XTOL: 0,
    Status.TNC_LOCAL_MIN: 0, Status.TNC_MAXFUN: 3, Status.TNC_LINESEARCH: 4,
    Status.TNC_FCONV: 1, Status.TNC_XCONV: 2, Status.TRUST_LINALG: 3,
    Status.CALLBACK: 99, Status.NEWTON_MAX_ITER: 1, Status.NEWTON_PR_LOSS: 2,
    Status.NEWTON_CG_NOT_PD: 3,
}
_SUCCESS = {Status.SUCCESS, Status.LBFGSB_PGTOL, Status.LBFGSB_FTOL, Status.XTOL,
            Status.TNC_LOCAL_MIN, Status.TNC_FCONV, Status.TNC_XCONV}
_CODES = np.array([_SCIPY_CODE[s] for s in _REASONS], np.int32)


def reason_index(status: Status) -> int:
    """The position of ``status`` in :class:`Status` (the traced representation)."""
    return _INDEX[status]


class OptimizeResult(dict):
    """The result of an optimization, with SciPy's field names.

    A ``dict`` with attribute access, as :class:`scipy.optimize.OptimizeResult`,
    and a registered pytree, so it can be returned from ``jit`` and ``vmap``.
    ``message`` and ``success`` are derived on the host from the stop reason, so
    they are not pytree leaves.

    Examples
    --------
    >>> from sciax.optimize import minimize, rosen
    >>> res = minimize(rosen, snp.array([-1.2, 1.0]))
    >>> print(res.success, res.message)
    True Optimization terminated successfully.
    >>> print(np.round(np.asarray(res.x), 6))
    [1. 1.]
    """

    def __getattr__(self, name: str) -> Any:
        if name == "message":
            return self._messages()
        if name == "success":
            return self._success()
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(name) from e

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __dir__(self) -> list[str]:
        return list(self.keys()) + ["message", "success"]

    def _reason_array(self) -> np.ndarray | None:
        r = self.get("_reason")
        if r is None:
            return None
        try:
            return np.asarray(r)
        except Exception:  # a tracer: no host value
            return None

    def _messages(self) -> Any:
        r = self._reason_array()
        if r is None:
            return self.get("_message", "")
        if r.ndim == 0:
            return _REASONS[int(r)].value
        return [_REASONS[int(i)].value for i in r.ravel()]

    def _success(self) -> Any:
        r = self._reason_array()
        if r is None:
            return self.get("_success", False)
        ok = np.vectorize(lambda i: _REASONS[int(i)] in _SUCCESS, otypes=[bool])(r)
        return bool(ok) if r.ndim == 0 else ok

    def __repr__(self) -> str:
        keys = [k for k in self.keys() if not k.startswith("_")]
        items = [("message", self.message), ("success", self.success)] + [
            (k, self[k]) for k in keys]
        width = max(len(k) for k, _ in items) + 1
        lines = []
        for k, v in items:
            if isinstance(v, sciax.Array):
                a = np.asarray(v)
                # scalars print bare, arrays as NumPy does (SciPy's layout)
                text = repr(a.item()) if a.ndim == 0 else repr(a)
            else:
                text = repr(v)
            text = text.replace("\n", "\n" + " " * (width + 2))
            lines.append(f"{k.rjust(width)}: {text}")
        return "\n".join(lines)

    __str__ = __repr__


def register_result(cls: type, static: tuple = (str, bool)) -> type:
    """Register a result ``dict`` subclass as a pytree: values of the ``static``
    types ride in the aux data (hashable), everything else is a leaf."""

    def flatten(r):
        keys = tuple(sorted(k for k, v in r.items() if not isinstance(v, static)))
        statics = tuple(sorted((k, v) for k, v in r.items() if isinstance(v, static)))
        return [r[k] for k in keys], (keys, statics)

    def unflatten(aux, children):
        keys, statics = aux
        out = cls(zip(keys, children))
        out.update(statics)
        return out

    sciax.tree.register_node(cls, flatten, unflatten)
    return cls


def derived_repr(res: OptimizeResult) -> str:
    """``repr`` of a result whose ``message``/``success`` are derived from its
    private fields: a plain :class:`OptimizeResult` without the ``_`` keys, with
    the two derived values filled in."""
    plain = OptimizeResult((k, v) for k, v in res.items() if not k.startswith("_"))
    plain["_message"], plain["_success"] = res.message, res.success
    return repr(plain)


class StatusCodedResult(OptimizeResult):
    """An :class:`OptimizeResult` whose ``message`` and ``success`` follow its
    ``status`` code: by default through the class's ``status_messages``, with
    ``success`` meaning ``status > 0`` (SciPy's least-squares solvers); per lane
    under ``vmap``; empty and False while traced."""

    status_messages: dict = {}

    def _succeeded(self, status: np.ndarray) -> Any:
        return status > 0

    def _message_for(self, code: int) -> str:
        return self.status_messages[code]

    def __getattr__(self, name: str) -> Any:
        if name in ("message", "success"):
            try:
                st = np.asarray(self["status"])
            except Exception:  # traced
                return "" if name == "message" else False
            if name == "success":
                ok = self._succeeded(st)
                return bool(ok) if st.ndim == 0 else ok
            msgs = [self._message_for(int(c)) for c in st.ravel()]
            return msgs[0] if st.ndim == 0 else msgs
        return super().__getattr__(name)


register_result(OptimizeResult)


# --- the objective: value, gradient, hessian-vector products, dense hessian ----------


@dataclasses.dataclass(frozen=True)
class Objective:
    """``fun`` and its derivatives on a flat float vector, with ``args`` bound.

    ``jac`` follows :func:`minimize`: ``None`` (exact reverse mode), ``True``
    (``fun`` returns ``(f, g)``), or a callable.  ``unravel`` maps the flat
    vector back to the user's pytree.
    """

    fun: Callable
    args: tuple
    unravel: Callable
    jac: Any = None
    hess: Any = None
    hessp: Any = None

    def _f(self, x):
        out = self.fun(self.unravel(x), *self.args)
        if self.jac is True:
            out = out[0]
        return _as_scalar(out)

    def value(self, x):
        return self._f(x)

    def value_and_grad(self, x):
        if self.jac is True:
            f, g = self.fun(self.unravel(x), *self.args)
            return _as_scalar(f), _ravel(g, x)
        if callable(self.jac):
            return self._f(x), _ravel(self.jac(self.unravel(x), *self.args), x)
        return sciax.value_and_grad(self._f)(x)

    def grad(self, x):
        return self.value_and_grad(x)[1]

    def hvp(self, x, v):
        if self.hessp is not None:
            return _ravel(self.hessp(self.unravel(x), self.unravel(v), *self.args), x)
        if callable(self.hess):
            return self.dense_hess(x) @ v
        # Forward-over-reverse: one jvp of the reverse-mode gradient.
        return sciax.jvp(self.grad, (x,), (v,))[1]

    def dense_hess(self, x):
        if callable(self.hess):
            h = snp.asarray(self.hess(self.unravel(x), *self.args), dtype=x.dtype)
            return h.reshape(x.shape[0], x.shape[0])
        if self.hessp is not None:
            eye = snp.eye(x.shape[0], dtype=x.dtype)
            return sciax.vmap(lambda e: self.hvp(x, e))(eye)
        return sciax.jacfwd(self.grad)(x)


def _as_scalar(f):
    f = snp.asarray(f)
    if f.size != 1:
        raise ValueError(f"the objective function must return a scalar, got an array "
                         f"of shape {tuple(f.shape)}")
    return f.reshape(()).astype(snp.result_type(f, 1.0))


def _ravel(g, like):
    leaves = sciax.tree.leaves(g)
    flat = snp.concatenate([snp.ravel(snp.asarray(v)) for v in leaves]) if len(
        leaves) > 1 else snp.ravel(snp.asarray(leaves[0]))
    if flat.shape != like.shape:
        raise ValueError(f"the gradient has {flat.shape[0]} entries, expected "
                         f"{like.shape[0]} (one per entry of x0)")
    return flat.astype(like.dtype)


# --- solvers and the driver ----------------------------------------------------------


class AbstractMinimizer:
    """A minimization method as pure functions over an explicit pytree state.

    Subclasses are frozen dataclasses whose fields are SciPy's options for the
    method (so they are hashable and can key compilation caches).  The state
    must carry ``x``, ``f``, ``g``, ``nfev``, ``njev`` and ``nhev`` leaves.
    """

    #: SciPy's name, lower case.
    name = "abstract"
    #: does the method use ``jac``, ``hess``/``hessp``, bounds?
    uses_jac = True
    uses_hess = False
    takes_bounds = False
    maxiter_status = Status.MAX_ITER
    status_codes: dict = {}
    nit_offset = 0
    #: does a step that stops the method with a failure (its ``step``'s own
    #: reason) count as an iteration?  SciPy's Newton-CG leaves its loop before
    #: counting one.
    failed_step_counts = True
    #: may ``step`` be handed a zero gradient for a lane that has stopped?
    #: (see :func:`iterative_solve`)
    idle_on_zero_gradient = False
    #: is this the variant :meth:`for_batched` made (set on that copy only)?
    batched = False
    #: does :meth:`for_batched` give a different program than ``self``?
    has_batched_form = False

    def max_iter(self, n: int) -> int:
        m = getattr(self, "maxiter", None)
        return 200 * n if m is None else int(m)

    def init(self, obj: Objective, x0, lb, ub) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.init")

    def step(self, obj: Objective, state, lb, ub) -> tuple[Any, Any]:
        """One iteration: returns ``(new_state, reason)`` where ``reason`` is the
        :class:`Status` index to stop with, or ``RUNNING``'s index to go on."""
        raise NotImplementedError(f"{type(self).__name__}.step")

    def terminate(self, obj: Objective, state, lb, ub) -> Any:
        """The reason index (``RUNNING`` to continue) for ``state``; also used
        before the first step."""
        raise NotImplementedError(f"{type(self).__name__}.terminate")

    def postprocess(self, obj: Objective, state) -> dict:
        """Method-specific result fields (``hess_inv``, ``hess``...)."""
        return {}

    def for_unbounded(self) -> "AbstractMinimizer":
        """The solver to run when ``minimize`` was given no bounds (the bounds
        are then infinite constants of the program): ``self``, or a variant
        that skips work which infinite bounds make void."""
        return self

    def for_batched(self) -> "AbstractMinimizer":
        """The solver to run for a batch of problems under ``vmap``: a copy
        with ``batched`` set, whose loops may take a form that is faster when
        every trip computes all lanes (``minimize``'s batching rule runs it off
        the CPU; BFGS, CG and Newton-CG: see ``wolfe12``'s ``batched``).  The
        searches and iterates are those of ``self``."""
        if not self.has_batched_form:
            return self
        new = copy.copy(self)
        object.__setattr__(new, "batched", True)
        return new

    def extra_stop(self, state) -> Any:
        """An evaluation-count limit: the reason index, or ``RUNNING``."""
        return snp.int32(_INDEX[Status.RUNNING])


RUNNING = _INDEX[Status.RUNNING]


def _finite(state) -> Any:
    g = state.g
    if snp.size(g) == 0:
        return snp.isfinite(state.f)
    # max |g| is NaN or inf exactly when some element is (XLA's max propagates
    # NaN); it is the same reduction as the infinity-norm gradient test of
    # BFGS and CG, which XLA then computes once: one reduction fewer to
    # compile in the loop kernel, where LLVM unrolls each over n elements.
    return snp.isfinite(state.f) & snp.isfinite(snp.max(snp.abs(g)))


def in_loop_kernel(fun: Callable, *args) -> Any:
    """``fun(*args)``, computed in a ``while`` loop that makes one trip.

    XLA's CPU compiler turns a small loop into one kernel (see
    ``sciax.config.cpu_loop_kernel_bytes``) but compiles each fusion outside
    loops as a kernel of its own, ~10-20 ms each; a solver's start (the first
    evaluation, norms, stopping tests: a dozen fusions) compiles ~0.05 s
    faster at n = 100 as one.  The trip count is a carried flag, which XLA
    does not fold away.  The values are those of ``fun(*args)``.

    The loop's initial value of an array output is a NumPy zero array (up
    to :data:`_CONST_DUMMY_BYTES`), which the program takes as a constant
    input: a traced ``zeros`` is a broadcast, which XLA compiles as one more
    kernel outside the loop (~5 ms each).
    """
    shapes = sciax.eval_shape(fun, *args)
    dummy = sciax.tree.map(_dummy, shapes)
    out = lax.while_loop(lambda c: ~c[0], lambda c: (snp.bool_(True), fun(*args)),
                         (snp.bool_(False), dummy))
    return out[1]


#: the largest array whose dummy in :func:`in_loop_kernel` is a constant
_CONST_DUMMY_BYTES = 1 << 16


def _dummy(a):
    if a.ndim and a.size * snp.dtype(a.dtype).itemsize <= _CONST_DUMMY_BYTES:
        return np.zeros(a.shape, a.dtype)
    return snp.zeros(a.shape, a.dtype)


def iterative_solve(solver: AbstractMinimizer, obj: Objective, x0, lb, ub,
                    callback: Callable | None = None, disp: bool = False):
    """Run ``solver`` from ``x0`` to a stop reason in one ``lax.while_loop``.

    Returns ``(state, nit, reason, status)``, ``status`` being SciPy's code
    for ``reason`` (:func:`scipy_status`).  Each stop test is written once
    here: the iteration limit, non-finite values, the solver's own ``terminate``.
    Under ``vmap`` the loop's predicate is per lane and finished lanes are
    frozen, so each lane keeps its own iterate, status and counters
    (``minimize`` batches it by its own rule: see ``_minimize._solve``).
    """
    maxiter = solver.max_iter(x0.shape[0])

    def start(x0):
        state = solver.init(obj, x0, lb, ub)
        reason0 = snp.where(_finite(state), solver.terminate(obj, state, lb, ub),
                            _INDEX[Status.NONFINITE]).astype(snp.int32)
        reason0 = snp.where((reason0 == RUNNING) & (maxiter <= 0),
                            _INDEX[solver.maxiter_status], reason0)
        return state, reason0

    def cond(carry):
        return carry[2] == RUNNING

    def body(carry):
        st, nit, prev = carry
        if solver.idle_on_zero_gradient:
            # Under vmap the body also runs for lanes that have stopped (their
            # results are discarded); with a zero gradient a line-search
            # method finds no descent direction and its searches take no trip
            # for them.  Otherwise every trip repeats each stopped lane's next
            # search, and the batch waits for the longest: of 1,000 10-D
            # Rosenbrock problems, one final point's search takes 37 More-Thuente
            # evaluations, fails and takes 12 more in the fallback, in every
            # trip (3.5x optimistix's time).  Outside vmap the body never sees a
            # stopped state and the select is inert.
            st = dataclasses.replace(st, g=snp.where(prev == RUNNING, st.g, 0.0))
        st, reason = solver.step(obj, st, lb, ub)
        reason = snp.asarray(reason, snp.int32)
        if solver.failed_step_counts:
            nit = nit + 1
        else:
            nit = nit + (reason == RUNNING).astype(nit.dtype)
        term = solver.terminate(obj, st, lb, ub)
        reason = snp.where(reason == RUNNING, term, reason)
        reason = snp.where(_finite(st), reason, _INDEX[Status.NONFINITE])
        reason = snp.where(reason == RUNNING, solver.extra_stop(st), reason)
        reason = snp.where((reason == RUNNING) & (nit >= maxiter),
                           _INDEX[solver.maxiter_status], reason).astype(snp.int32)
        if callback is not None:
            stop = callback_stop(callback, obj.unravel, st.x, st.f)
            reason = snp.where(stop, _INDEX[Status.CALLBACK], reason)
        if disp:
            sciax.debug.callback(_print_iter, nit, st.f)
        return st, nit, reason

    def first(x0):
        state, reason0 = start(x0)
        return state, snp.int32(0), reason0

    (state, nit, reason), status = packed_while_loop(
        cond, body, init=(first, x0), finish=lambda c: scipy_status(c[2], solver))
    if disp:
        sciax.debug.callback(_print_final, reason, nit, state.f, state.nfev, state.njev)
    return state, nit, reason, status


def takes_intermediate_result(callback) -> bool:
    """SciPy's rule: a callback whose only parameter is named
    ``intermediate_result`` gets an :class:`OptimizeResult`; any other gets
    the iterate ``xk`` (trust-constr's: ``xk`` and the state)."""
    try:
        params = inspect.signature(callback).parameters
    except (TypeError, ValueError):
        return False
    return list(params) == ["intermediate_result"]


def callback_stop(callback, unravel, x, f, *, legacy_state: bool = False,
                  stop_on_true: bool = False):
    """Call the user's ``callback`` on the host with the iterate ``x`` (flat)
    and ``f``, inside a compiled loop; the traced result is True when it
    raised ``StopIteration`` (or, with ``stop_on_true``, returned something
    true, as trust-constr allows): SciPy's way to stop a minimiser.  Under
    ``vmap`` it runs once per lane, each lane getting its own flag."""
    new_style = takes_intermediate_result(callback)

    def host(x, f):
        xu = np.array(unravel(snp.asarray(x)), copy=True)
        res = OptimizeResult(x=xu, fun=np.asarray(f))
        try:
            if new_style:
                out = callback(intermediate_result=res)
            elif legacy_state:
                out = callback(xu, res)
            else:
                out = callback(xu)
        except StopIteration:
            return np.bool_(True)
        return np.bool_(bool(out) if stop_on_true else False)

    return sciax.pure_callback(host, sciax.ShapeDtypeStruct((), snp.bool_), x, f)


def _print_iter(nit, f):
    print(f"iteration {int(np.max(nit))}: f = {np.asarray(f)}")


def _print_final(reason, nit, f, nfev, njev):
    for i, r in enumerate(np.atleast_1d(reason)):
        pick = (lambda a: np.atleast_1d(a)[i])
        print(_REASONS[int(r)].value)
        print(f"         Current function value: {float(pick(f)):.6f}")
        print(f"         Iterations: {int(pick(nit))}")
        print(f"         Function evaluations: {int(pick(nfev))}")
        print(f"         Gradient evaluations: {int(pick(njev))}")


def scipy_status(reason, solver=None):
    """SciPy's integer status for a (traced) reason index (some methods number
    their failures differently: ``solver.status_codes`` overrides)."""
    codes = _CODES.copy()
    for st, code in getattr(solver, "status_codes", {}).items():
        codes[_INDEX[st]] = code
    return snp.asarray(codes)[reason]


# --- a while loop whose scalar state travels as one vector --------------------------


# Scalars per packed vector: XLA's CPU compiler builds a vector of up to about
# eight computed scalars in one kernel, a longer one from a kernel per scalar
# (each ~25 ms of compile in BFGS's line search; see packed_while_loop).
_PACK = 8


def packed_while_loop(cond: Callable, body: Callable, carry: Any = None, *,
                      init: tuple | None = None, finish: Callable | None = None) -> Any:
    """``lax.while_loop(cond, body, carry)`` with the carry's 0-d leaves packed
    into one vector per dtype (booleans ride with the int32 ones).

    A solver's loop state is mostly scalars (step lengths, counters, flags).
    XLA's CPU backend gives each carried buffer of a loop its own copies at
    the loop's boundaries; packed, the scalars are one buffer per dtype.  In
    the line searches of BFGS this took about 15% off a compiled solve of
    2-D Rosenbrock.  The values, and so the iterates, are exactly those of the
    plain loop: only the layout of the carry changes.

    ``init=(fun, args)`` instead of ``carry``: the initial carry is
    ``fun(*args)``, computed and packed in one one-trip loop
    (:func:`in_loop_kernel`), and the result's scalars are unpacked in
    another, so that the loop's ends add no kernels outside loops (packing
    and unpacking are a concatenate and a slice per scalar, each a kernel of
    its own that XLA compiles in ~5 ms).  ``finish(carry)``, with ``init``,
    computes 0-d values from the final carry in that second loop too; the
    result is then ``(carry, finish(carry))``.
    """
    if init is not None:
        fun0, *args0 = init
        carry = sciax.eval_shape(fun0, *args0)
    leaves, tree = sciax.tree.flatten(carry)
    if init is None:
        leaves = [snp.asarray(v) for v in leaves]
    slots = []  # per leaf: None (kept as is) or (group, position)
    groups: list = []  # per group: its dtype and its leaves' dtypes
    open_group: dict = {}  # the group of each dtype being filled
    for v in leaves:
        if v.ndim != 0:
            slots.append(None)
            continue
        dt = snp.dtype(v.dtype)
        gd = snp.dtype(snp.int32) if dt in (snp.dtype(bool), snp.dtype(
            snp.int32)) else dt
        gi = open_group.get(gd)
        if gi is None or len(groups[gi][1]) == _PACK:
            gi = open_group[gd] = len(groups)
            groups.append((gd, []))
        slots.append((gi, len(groups[gi][1])))
        groups[gi][1].append(dt)
    if sum(len(g[1]) for g in groups) < 2:
        if init is not None:
            carry = in_loop_kernel(fun0, *args0)
        out = lax.while_loop(cond, body, carry)
        return out if finish is None else (out, finish(out))

    def pack(vals):
        parts = [[None] * len(g[1]) for g in groups]
        arrays = []
        for v, s in zip(vals, slots):
            if s is None:
                arrays.append(v)
            else:
                parts[s[0]][s[1]] = snp.asarray(v).astype(groups[s[0]][0])
        return arrays, [snp.stack(p) for p in parts]

    def scalars(vecs):
        out = []
        for s in slots:
            if s is not None:
                v = vecs[s[0]][s[1]]
                dt = groups[s[0]][1][s[1]]
                out.append(v != 0 if dt == snp.dtype(bool) else v.astype(dt))
        return out

    def unpack(packed, unpacked=None):
        arrays, vecs = packed
        it, sc = iter(arrays), iter(scalars(vecs) if unpacked is None else unpacked)
        return tree.unflatten([next(it) if s is None else next(sc) for s in slots])

    def pbody(packed):
        return pack(sciax.tree.leaves(body(unpack(packed))))

    if init is None:
        packed0 = pack(leaves)
    else:
        packed0 = in_loop_kernel(lambda *a: pack(sciax.tree.leaves(fun0(*a))), *args0)
    out = lax.while_loop(lambda p: cond(unpack(p)), pbody, packed0)
    if init is None:
        return unpack(out)

    def last(vecs):
        sc = scalars(vecs)
        return sc, (None if finish is None else finish(unpack((out[0], vecs), sc)))

    sc, extra = in_loop_kernel(last, out[1])
    return unpack(out, sc) if finish is None else (unpack(out, sc), extra)
