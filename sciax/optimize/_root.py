"""``root`` for square systems of equations ``F(x) = 0``.

Methods are solvers as data, as for :func:`minimize`: a frozen dataclass of
SciPy's options with ``init`` (an explicit pytree state, a dict) and ``step``
(state to state, setting ``status`` when it stops), driven by one
``lax.while_loop`` in :func:`root_solve`.  ``'hybr'`` (Powell's hybrid
dog-leg, as MINPACK's ``hybrj``) lives in ``_hybr.py``; the quasi-Newton,
mixing and Newton-Krylov methods of SciPy's ``nonlin`` module and
``'df-sane'`` in ``_nonlin.py``; ``'lm'`` is :func:`least_squares`.

The root is differentiable with respect to float ``args`` by the implicit
function theorem, ``dx/da = -F_x^{-1} F_a`` at the root, attached by a
``custom_jvp`` so forward and reverse mode both work.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any, Callable

import numpy as np

import sciax
import sciax.debug
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import (OptimizeResult, StatusCodedResult, derived_repr,
                                  register_result)
from sciax.optimize._least_squares import least_squares
from sciax.optimize._root_scalar import _cached, _rebuild, _split_args

RUNNING = -2


class AbstractRootSolver:
    """A root-finding method as pure functions over an explicit state.

    Subclasses are frozen dataclasses whose fields are SciPy's options (so
    they key the compilation cache).  ``init(prob, x0)`` returns a dict state
    holding at least ``x``, ``F`` and ``status``; ``step(prob, state)``
    returns the next state, with ``status`` left at ``RUNNING`` (-2) to go
    on.  ``fields(prob, state)`` gives the result fields beyond ``x``,
    ``fun`` and ``status``; ``messages(n)`` maps each status to SciPy's
    message and ``success`` lists the successful statuses.
    """

    name = "abstract"
    success = (1,)
    #: does the method use the Jacobian (exact, or ``jac``)?
    uses_jac = False
    takes_callback = True

    def init(self, prob: "System", x0) -> dict:
        raise NotImplementedError(f"{type(self).__name__}.init")

    def step(self, prob: "System", state: dict) -> dict:
        raise NotImplementedError(f"{type(self).__name__}.step")

    def fields(self, prob: "System", state: dict) -> dict:
        return {}

    def messages(self, n: int) -> dict:
        raise NotImplementedError(f"{type(self).__name__}.messages")


@dataclasses.dataclass(frozen=True)
class System:
    """``F`` on a flat vector with ``args`` bound: values, exact Jacobian-vector
    products and the dense Jacobian (the user's ``jac`` where given)."""

    fun: Callable
    jac: Any = None

    def F(self, x):
        return self.fun(x)

    def jvp(self, x, v):
        return sciax.jvp(self.fun, (x,), (v,))[1]

    def dense_jac(self, x):
        if callable(self.jac):
            return self.jac(x)
        return sciax.jacfwd(self.fun)(x)


def root_solve(solver: AbstractRootSolver, prob: System, x0,
               callback: Callable | None = None) -> dict:
    """Run ``solver`` from ``x0`` until its ``status`` leaves ``RUNNING``, in one
    ``lax.while_loop`` (per-lane under ``vmap``: finished lanes are frozen)."""
    state = solver.init(prob, x0)

    def body(st):
        st = solver.step(prob, st)
        if callback is not None:
            sciax.debug.callback(_host_callback(callback), st["x"], st["F"])
        return st

    return lax.while_loop(lambda st: st["status"] == RUNNING, body, state)


def _host_callback(callback):
    def host(x, f):
        x, f = np.asarray(x), np.asarray(f)
        if x.ndim > 1:  # under vmap the host sees the whole batch
            for xi, fi in zip(x, f):
                callback(xi, fi)
        else:
            callback(x, f)
    return host


def safe_norm(v):
    """``||v||``, or ``inf`` when ``v`` has a NaN or inf (SciPy's ``_safe_norm``)."""
    ok = snp.all(snp.isfinite(v))
    return snp.where(ok, snp.linalg.norm(snp.where(ok, v, 0.0)), snp.inf)


# --- the result object ---------------------------------------------------------------

_METHODS: dict[str, type] = {}


class RootResult(StatusCodedResult):
    """:class:`OptimizeResult` of :func:`root`: ``message`` and ``success`` come
    from the method's status codes (per lane under ``vmap``)."""

    def _succeeded(self, status: np.ndarray) -> Any:
        return np.isin(status, self["_success_codes"])

    def _message_for(self, code: int) -> str:
        return dict(self["_messages"]).get(code, "An error occurred.")

    def __repr__(self) -> str:
        return derived_repr(self)

    __str__ = __repr__


# the method's name and its message table (a tuple of pairs) ride in the aux data
register_result(RootResult, (str, bool, tuple))


# --- implicit differentiation -------------------------------------------------------


def _attach_implicit(F_of, x, dyn):
    """``x`` whose tangent w.r.t. the float leaves ``dyn`` of ``args`` is
    ``-F_x^{-1} (F_a . da)`` at the root (a ``custom_jvp``; reverse mode
    transposes the linear solve)."""

    @sciax.custom_jvp
    def ident(x, dyn):
        return x

    @ident.defjvp
    def _jvp(primals, tangents):
        xs, d = primals
        _, dd = tangents
        _, f_a = sciax.jvp(lambda d_: F_of(xs, d_), (d,), (dd,))
        J = sciax.jacfwd(lambda xx: F_of(xx, d))(xs)
        return xs, -snp.linalg.solve(J, f_a)

    return ident(lax.stop_gradient(x), dyn)


# --- front door ---------------------------------------------------------------------


def register_root_method(name: str, cls: type) -> None:
    """Add ``cls`` to :func:`root`'s registry under SciPy's (lower-case) ``name``."""
    _METHODS[name.lower()] = cls
    cls.name = name.lower()


_TOL_OPTIONS = {"hybr": ("xtol",), "df-sane": ("ftol",)}
_NONLIN = ("broyden1", "broyden2", "anderson", "linearmixing", "diagbroyden",
           "excitingmixing", "krylov")


def _apply_tol(name, options, tol):
    if tol is None:
        return options
    if name in _NONLIN:
        for k, v in (("xtol", tol), ("xatol", np.inf), ("ftol", np.inf),
                     ("fatol", np.inf)):
            options.setdefault(k, v)
    else:
        for k in _TOL_OPTIONS.get(name, ()):
            options.setdefault(k, tol)
    return options


def _build(cls, instance, options):
    fields = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(k for k in options if k not in fields)
    if unknown:
        raise ValueError(f"root(method={cls.name!r}): unknown options {unknown}; "
                         f"it takes {sorted(fields)}")
    kw = {k: (tuple(np.ravel(np.asarray(v, float)).tolist())
              if isinstance(v, (np.ndarray, list, sciax.Array)) else v)
          for k, v in options.items()}
    if instance is not None:
        return dataclasses.replace(instance, **kw) if kw else instance
    return cls(**kw)


def _root_lm(fun, x, args, jac, tol, options):
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
    for k in ("col_deriv", "factor", "diag", "epsfcn"):
        opts.pop(k, None)
    if opts:
        raise ValueError(f"root(method='lm'): unknown options {sorted(opts)}")
    return least_squares(fun, snp.ravel(x), jac=jac if callable(jac) else "2-point",
                         method="lm", args=args, **kw)


def root(fun: Callable, x0: Any, args: Any = (), method: Any = "hybr",
         jac: Any = None, tol: float | None = None, callback: Any = None,
         options: dict | None = None) -> OptimizeResult:
    """Find a root of a vector function.

    sciax implementation of :func:`scipy.optimize.root`: solve ``F(x) = 0``
    for square systems, compiled, batchable with ``vmap`` and with a root
    differentiable with respect to ``args``.

    Parameters
    ----------
    fun : callable
        ``fun(x, *args)`` written with sciax, returning as many values as ``x``
        has entries.
    x0 : array_like
        Initial guess (any shape; ``fun`` sees this shape).
    args : tuple, optional
        Extra arguments; float array leaves are traced (one compilation serves
        all their values) and differentiable.
    method : str or solver, optional
        ``'hybr'`` (default; Powell's hybrid dog-leg as MINPACK's ``hybrj``
        with the exact Jacobian), ``'lm'``, ``'broyden1'``, ``'broyden2'``,
        ``'anderson'``, ``'linearmixing'``, ``'diagbroyden'``,
        ``'excitingmixing'``, ``'krylov'`` (Newton-Krylov: GMRES on exact
        Jacobian-vector products) or ``'df-sane'``; or a solver class or
        instance (``HybrSolver``, ``BroydenSolver``...).
    jac : callable or bool, optional
        Jacobian ``jac(x, *args)`` for ``'hybr'`` and ``'lm'``; ``True`` means
        ``fun`` returns ``(F, J)``.  By default the exact Jacobian by forward
        mode.  The other methods do not use it (SciPy warns, so does sciax).
    tol : float, optional
        Sets each method's main tolerance, as SciPy (``xtol`` for ``hybr``;
        ``xtol`` with the absolute and ``f`` tolerances off for the ``nonlin``
        methods; ``ftol`` for ``df-sane``).
    callback : callable, optional
        ``callback(x, f)`` after each iteration of the ``nonlin`` methods and
        ``df-sane`` (also under ``jit``).
    options : dict, optional
        SciPy's options of the method (``xtol``, ``maxfev``, ``factor``,
        ``diag`` for ``hybr``; ``maxiter``, ``ftol``, ``fatol``, ``xtol``,
        ``xatol``, ``tol_norm``, ``line_search``, ``jac_options`` for the
        ``nonlin`` methods; ``ftol``, ``fatol``, ``maxfev``, ``fnorm``, ``M``,
        ``eta_strategy``, ``sigma_eps``, ``sigma_0``, ``line_search`` for
        ``df-sane``).

    Returns
    -------
    sol : OptimizeResult
        ``x``, ``fun``, ``success``, ``status``, ``message`` and the method's
        fields: ``nfev``, ``njev``, ``fjac``, ``r``, ``qtf`` (``hybr``);
        ``nit`` (``nonlin`` methods); ``nfev``, ``nit`` (``df-sane``).

    Notes
    -----
    Statuses are SciPy's; sciax adds one for a function that is NaN or inf
    where the method cannot step around it (``hybr``: 6 at the initial point;
    the ``nonlin`` methods: 3; ``df-sane``: 3).  ``df-sane`` has ``status``
    1 (converged) or 2 (too many evaluations), which SciPy's result lacks.
    Under ``vmap`` each lane keeps its own status and counters.
    ``sol.x`` is differentiable (forward and reverse mode) with respect to
    float ``args`` by the implicit function theorem at the root.

    Examples
    --------
    >>> from sciax.optimize import root
    >>> f = lambda x: snp.stack([x[0] + 0.5 * (x[0] - x[1]) ** 3 - 1.0,
    ...                          0.5 * (x[1] - x[0]) ** 3 + x[1]])
    >>> sol = root(f, snp.array([0.0, 0.0]))
    >>> print(np.round(np.asarray(sol.x), 8), sol.success, sol.message)
    [0.8411639 0.1588361] True The solution converged.

    The root as a function of a parameter, differentiated exactly:

    >>> g = lambda x, a: x ** 3 + x - a
    >>> dx = sciax.grad(lambda a: root(g, snp.array([1.0]), args=(a,)).x[0])
    >>> print(round(float(dx(2.0)), 6))  # 1 / (3 x^2 + 1) at x = 1
    0.25
    """
    if not callable(fun):
        raise TypeError(f"fun must be callable, got {type(fun).__name__}")
    if not isinstance(args, tuple):
        args = (args,)
    options = dict(options or {})
    if isinstance(method, str):
        name = method.lower()
        if name == "lm":
            x = x0 if hasattr(x0, "dtype") else snp.asarray(np.asarray(x0, float))
            return _root_lm(fun, x, args, jac, tol, options)
        if name not in _METHODS:
            raise ValueError(f"Unknown solver {method!r}; sciax.optimize.root knows "
                             f"{sorted(list(_METHODS) + ['lm'])} (or pass a solver)")
        cls, instance = _METHODS[name], None
    elif isinstance(method, type) and issubclass(method, AbstractRootSolver):
        cls, instance = method, None
    elif isinstance(method, AbstractRootSolver):
        cls, instance = type(method), method
    else:
        raise TypeError(f"method must be a name, a root solver class or instance, "
                        f"got {type(method).__name__}")
    solver = _build(cls, instance, _apply_tol(cls.name, options, tol))
    if jac is not None and jac is not False and not cls.uses_jac:
        warnings.warn(f"Method {cls.name} does not use the jacobian (jac).",
                      RuntimeWarning, stacklevel=2)
    if jac is not None and jac is not True and jac is not False and not callable(jac):
        raise TypeError(f"jac must be a callable or a bool, got {type(jac).__name__}")
    if callback is not None and not cls.takes_callback:
        warnings.warn(f"Method {cls.name} does not accept callback.", RuntimeWarning,
                      stacklevel=2)
        callback = None
    x = x0 if hasattr(x0, "dtype") else snp.asarray(np.asarray(x0, float))
    x = x.astype(snp.result_type(x, 1.0))
    if x.size == 0:
        raise ValueError("x0 is empty: it must hold at least one number")
    dyn, akey = _split_args(args)
    key = ("root", fun, jac, solver, callback, akey, tuple(x.shape))
    return _cached(key, lambda: _make_runner(fun, jac, solver, callback, akey,
                                             tuple(x.shape)))(x, dyn)


def _make_runner(fun, jac, solver, callback, akey, shape):
    n = int(np.prod(shape))

    def F_of(x, dyn):
        out = fun(x.reshape(shape), *_rebuild(akey, dyn))
        if jac is True:
            out = out[0]
        v = snp.ravel(snp.asarray(out))
        if v.shape[0] != n:
            raise ValueError(f"root: there is a mismatch between the input and output "
                             f"shape of `fun`: x has {n} entries, fun(x) has "
                             f"{v.shape[0]} (the system must be square)")
        return v.astype(x.dtype)

    def J_of(dyn):
        if jac is True:
            return lambda x: snp.asarray(fun(x.reshape(shape), *_rebuild(akey, dyn))[1],
                                         x.dtype).reshape(n, n)
        if callable(jac):
            return lambda x: snp.asarray(jac(x.reshape(shape), *_rebuild(akey, dyn)),
                                         x.dtype).reshape(n, n)
        return None

    def run(x0, dyn):
        dyn_nd = [lax.stop_gradient(d) for d in dyn]
        prob = System(lambda x: F_of(x, dyn_nd), J_of(dyn_nd))
        st = root_solve(solver, prob, snp.ravel(x0), callback)
        x = st["x"]
        fval = st["F"]
        float_ok = bool(dyn) and all(snp.issubdtype(snp.asarray(d).dtype, snp.inexact)
                                     for d in dyn)
        if float_ok:
            x = _attach_implicit(F_of, x, list(dyn))
            fval = F_of(x, list(dyn))
        res = RootResult(x=x.reshape(shape), fun=fval, status=st["status"],
                         method=solver.name,
                         _messages=tuple(sorted(solver.messages(n).items())),
                         _success_codes=tuple(solver.success))
        res.update(solver.fields(prob, st))
        return res

    return run
