"""``curve_fit``: SciPy's front end over :func:`least_squares`, with ``pcov``
from the exact Jacobian at the solution."""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.linalg

from sciax.optimize._base import OptimizeWarning
from sciax.optimize._least_squares import _JACOBI_MAX_N, _jacobi_svd, least_squares

EPS = float(np.finfo(float).eps)


def _n_params(f):
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError) as e:
        raise ValueError("Unable to determine number of fit parameters; give p0") from e
    ps = [p for p in sig.parameters.values()
          if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind == p.VAR_POSITIONAL for p in sig.parameters.values()) or len(ps) < 2:
        raise ValueError("Unable to determine number of fit parameters; give p0")
    return len(ps) - 1


class _Residual:
    """``(f(xdata, *p) - ydata)`` weighted by ``sigma``; hashable by its
    static parts so ``least_squares`` compiles one program per model."""

    def __init__(self, f, sigma_kind):
        self.f, self.kind = f, sigma_kind

    def __hash__(self):
        return hash((self.f, self.kind))

    def __eq__(self, other):
        return isinstance(other, _Residual) and (self.f, self.kind) == (
            other.f, other.kind)

    def __call__(self, p, xdata, ydata, w):
        r = snp.ravel(snp.asarray(self.f(xdata, *[p[i] for i in range(p.shape[0])]))
                      ) - snp.ravel(ydata)
        if self.kind == 1:
            return r * w
        if self.kind == 2:
            return sciax.linalg.solve_triangular(w, r, lower=True)
        return r


def curve_fit(f: Callable, xdata: Any, ydata: Any, p0: Any = None, sigma: Any = None,
              absolute_sigma: bool = False, check_finite: bool | None = None,
              bounds: Any = (-np.inf, np.inf), method: str | None = None,
              jac: Any = None, *, full_output: bool = False,
              nan_policy: str | None = None, **kwargs) -> Any:
    """Use non-linear least squares to fit a function to data.

    sciax implementation of :func:`scipy.optimize.curve_fit`, built on
    :func:`least_squares`.

    Parameters
    ----------
    f : callable
        The model ``f(xdata, *params)``, written with sciax.
    xdata : array_like or pytree
        Independent variable(s), passed to ``f`` unchanged.
    ydata : array_like
        Dependent data.
    p0 : array_like, optional
        Initial parameters (default all ones, their number read from ``f``'s
        signature).
    sigma : array_like, optional
        1-D: standard deviations of ``ydata`` (residuals are divided by it);
        2-D: their covariance matrix.
    absolute_sigma : bool, optional
        ``True``: ``pcov`` from ``sigma`` as given; ``False``: scaled by the
        reduced chi-square of the fit.
    check_finite : bool, optional
        Raise ``ValueError`` on NaN or inf in the data (default ``True``
        unless ``nan_policy`` is set; only checked on concrete data).
    bounds : 2-tuple or Bounds, optional
        Bounds on the parameters.
    method : {'lm', 'trf'}, optional
        Default ``'lm'`` without bounds, ``'trf'`` with.
    jac : callable or str, optional
        As :func:`least_squares` (the Jacobian is exact in any case).
    full_output : bool, optional
        Also return ``infodict``, ``mesg`` and ``ier``.
    nan_policy : {None, 'raise', 'omit'}, optional
        ``'omit'`` drops data points with NaN (concrete data only).
    **kwargs
        Passed to :func:`least_squares` (``ftol``, ``max_nfev``...;
        ``maxfev`` is accepted for ``lm`` as SciPy's ``leastsq``).

    Returns
    -------
    popt : Array
        Optimal parameters.
    pcov : Array
        Estimated covariance of ``popt`` from the exact Jacobian ``J`` at the
        solution: ``(J^T J)^+`` (pseudo-inverse by SVD, as SciPy), times the
        reduced chi-square unless ``absolute_sigma``.
    infodict, mesg, ier
        With ``full_output=True``: ``infodict`` has ``nfev`` and ``fvec``.

    Notes
    -----
    Works under ``jit`` and ``vmap`` (e.g. many fits of one model to
    different data in one call).  ``popt`` is differentiable with respect to
    float ``xdata``, ``ydata`` and ``sigma`` by the implicit function theorem.

    Examples
    --------
    >>> from sciax.optimize import curve_fit
    >>> model = lambda x, a, b: a * snp.exp(-b * x)
    >>> x = snp.linspace(0.0, 4.0, 20)
    >>> y = model(x, 2.5, 1.3) + 0.01 * snp.sin(7 * x)
    >>> popt, pcov = curve_fit(model, x, y)
    >>> print(np.round(np.asarray(popt), 3), np.asarray(pcov).shape)
    [2.503 1.301] (2, 2)
    """
    if not callable(f):
        raise TypeError(f"f must be callable, got {type(f).__name__}")
    if p0 is None:
        n = _n_params(f)
        p0 = np.ones(n)
    if not _float_array(p0, 1):  # (an eager op each: only where needed)
        p0 = p0 if hasattr(p0, "dtype") else np.asarray(p0, float)
        if type(p0) is np.ndarray and p0.ndim <= 1:  # one host-to-device copy
            p0 = snp.asarray(np.atleast_1d(p0).astype(float))
        else:
            p0 = snp.atleast_1d(snp.asarray(p0)).astype(float)
    if p0.ndim != 1:
        raise ValueError(f"p0 must be 1-D, got shape {tuple(p0.shape)}")
    n = p0.shape[0]
    if _no_bounds(bounds):
        bounded = False  # and least_squares takes its fast path for the default
    else:
        lb = np.broadcast_to(np.asarray(getattr(bounds, "lb", bounds[0]), float),
                             (n,))
        ub = np.broadcast_to(np.asarray(getattr(bounds, "ub", bounds[1]), float),
                             (n,))
        bounded = bool(np.any(np.isfinite(lb)) or np.any(np.isfinite(ub)))
        bounds = (lb, ub)
    if method is None:
        method = "trf" if bounded else "lm"
    if method == "lm" and bounded:
        raise ValueError("Method 'lm' only works for unconstrained problems. Use "
                         "'trf' or 'dogbox' instead.")
    if method not in ("lm", "trf"):
        raise ValueError(f"method must be 'lm' or 'trf' ('dogbox' is not "
                         f"implemented), got {method!r}")
    if nan_policy not in (None, "raise", "omit", "propagate"):
        raise ValueError(f"nan_policy must be None, 'raise', 'omit' or 'propagate', "
                         f"got {nan_policy!r}")
    if check_finite is None:
        check_finite = nan_policy is None
    ydata = ydata if hasattr(ydata, "dtype") else np.asarray(ydata, float)
    # Concrete Arrays are checked for NaN/inf inside the one program below
    # (read back with its other flags) instead of copied to the host here.
    in_program = (not bounded and nan_policy != "omit" and type(p0) is sciax.Array
                  and type(ydata) is sciax.Array and type(xdata) is sciax.Array)
    yc = xc = None
    if not in_program:
        yc = _concrete(ydata)
        xc = _concrete(xdata) if hasattr(xdata, "shape") or isinstance(
            xdata, (list, np.ndarray)) else None
    if check_finite or nan_policy == "raise":
        for name, v in (("ydata", yc), ("xdata", xc)):
            if v is not None and v.dtype.kind in "fc" and not np.all(np.isfinite(v)):
                raise ValueError(f"{name} must not contain NaN or inf (check_finite)")
    if nan_policy == "omit":
        if yc is None or xc is None:
            raise ValueError("nan_policy='omit' needs concrete xdata and ydata "
                             "(outside jit)")
        keep = ~np.isnan(yc) & ~np.any(np.isnan(xc.reshape(-1, yc.shape[-1])), axis=0)
        xdata, ydata = xc[..., keep], yc[keep]
    if not _float_array(ydata):
        ydata = snp.asarray(ydata).astype(float)
    xdata = xdata if hasattr(xdata, "dtype") else snp.asarray(np.asarray(xdata, float))
    m = int(np.prod(ydata.shape))
    if m == 0:
        raise ValueError("`ydata` must not be empty!")
    kind, w = 0, _constant(0.0)
    if sigma is not None:
        sig = sigma if hasattr(sigma, "dtype") else snp.asarray(np.asarray(sigma,
                                                                           float))
        if sig.ndim == 1 or (sig.ndim == ydata.ndim and sig.shape == ydata.shape):
            if int(np.prod(sig.shape)) != m:
                raise ValueError(f"`sigma` has {int(np.prod(sig.shape))} entries; "
                                 f"expected one per entry of ydata ({m})")
            kind, w = 1, 1.0 / snp.ravel(sig)
        elif sig.ndim == 2 and sig.shape == (m, m):
            kind, w = 2, sciax.linalg.cholesky(sig, lower=True)
        else:
            raise ValueError(f"`sigma` has incorrect shape {tuple(sig.shape)}: "
                             f"expected ({m},) or ({m}, {m})")
    if m < n and method == "lm":
        raise TypeError(f"The number of func parameters={n} must not exceed the "
                        f"number of data points={m}")
    ls_kw = dict(kwargs)
    if "maxfev" in ls_kw:
        ls_kw["max_nfev"] = ls_kw.pop("maxfev")
    if method == "lm":
        # SciPy's leastsq defaults.
        ls_kw.setdefault("ftol", 1.49012e-08)
        ls_kw.setdefault("xtol", 1.49012e-08)
        # leastsq's gtol=0 (no gradient test); least_squares' lm needs > eps.
        ls_kw.setdefault("gtol", 1e-15)
        ls_kw.setdefault("max_nfev", 200 * (n + 1))
    jac_arg = "2-point" if not callable(jac) else _wrap_jac(jac, kind)
    prog = None
    if in_program and type(w) is sciax.Array:
        key = (f, kind, jac_arg, method, tuple(sorted(ls_kw.items())),
               bool(absolute_sigma), bool(check_finite or nan_policy == "raise"))
        try:
            prog = _PROGRAMS.get(key)
            if prog is None:
                prog = _PROGRAMS[key] = _fit_program(*key)
                if len(_PROGRAMS) > 128:
                    _PROGRAMS.pop(next(iter(_PROGRAMS)))
        except TypeError:  # an option that cannot key a cache
            prog = None
    if prog is not None:
        res, pcov, flags = prog(p0, xdata, ydata, w)
        ok = np.asarray(flags)  # the one read back: [ydata, xdata, f(p0), pcov]
        for name, i in (("ydata", 0), ("xdata", 1)):
            if not ok[i]:
                raise ValueError(f"{name} must not contain NaN or inf (check_finite)")
        if not ok[2]:
            raise ValueError("Residuals are not finite in the initial point.")
        pc_ok = bool(ok[3])
    else:
        res = least_squares(_Residual(f, kind), p0, jac=jac_arg, bounds=bounds,
                            method=method, args=(xdata, ydata, w), **ls_kw)
        pcov = _PCOV[bool(absolute_sigma)](res.jac, res.cost, _constant(m - n))
        pc = _concrete(pcov)
        pc_ok = pc is None or bool(np.all(np.isfinite(pc)))
    popt = res.x
    if not pc_ok:
        warnings.warn("Covariance of the parameters could not be estimated",
                      OptimizeWarning, stacklevel=2)
    if full_output:
        info = {"nfev": res.nfev, "fvec": res.fun}
        return popt, pcov, info, res.message, res.status
    return popt, pcov


_PROGRAMS: dict = {}


def _fit_program(f, kind, jac_arg, method, ls_items, absolute, check):
    """One compiled program for an eager ``curve_fit`` of concrete Arrays:
    the fit, ``pcov`` and the finiteness flags the front door reads back
    together (two programs and four host reads before)."""
    pcov_of = _pcov_of(absolute)

    def run(p0, xdata, ydata, w):
        res = least_squares(_Residual(f, kind), p0, jac=jac_arg, method=method,
                            args=(xdata, ydata, w), **dict(ls_items))
        m, n = int(np.prod(ydata.shape)), p0.shape[0]
        pcov = pcov_of(res.jac, res.cost, m - n)
        yes = snp.asarray(True)
        fin = (lambda v: snp.all(snp.isfinite(v)) if check else yes)  # noqa: E731
        f0 = snp.all(snp.isfinite(_Residual(f, kind)(p0, xdata, ydata, w)))
        return res, pcov, snp.stack([fin(ydata), fin(xdata), f0, fin(pcov)])

    return sciax.jit(run)


def _pcov_fn(absolute):
    # One compiled program (eager calls would dispatch op by op).
    return sciax.jit(_pcov_of(absolute))


def _pcov_of(absolute):
    def pcov_of(J, cost, dof):
        # SciPy's rule: pseudo-inverse of J^T J by SVD, singular values below
        # eps * max(J.shape) * s_max dropped.
        if J.shape[1] <= _JACOBI_MAX_N:  # no LAPACK call (one per lane under vmap)
            s, vt = _jacobi_svd(J, snp.eye(J.shape[1], dtype=J.dtype))
        else:
            _, s, vt = snp.linalg.svd(J, full_matrices=False)
        thr = EPS * max(J.shape) * snp.max(s)
        inv2 = snp.where(s > thr, 1.0 / snp.where(s > thr, s, 1.0) ** 2, 0.0)
        pcov = (vt.T * inv2) @ vt
        if absolute:
            return pcov
        # Scaled by the reduced chi-square; no degrees of freedom: inf.
        return snp.where(dof > 0, pcov * (2 * cost / snp.where(dof > 0, dof, 1)),
                         snp.inf)
    return pcov_of


_PCOV = {False: _pcov_fn(False), True: _pcov_fn(True)}


def _wrap_jac(jac, kind):
    return _Jac(jac, kind)


class _Jac:
    def __init__(self, jac, kind):
        self.jac, self.kind = jac, kind

    def __hash__(self):
        return hash((self.jac, self.kind))

    def __eq__(self, o):
        return isinstance(o, _Jac) and (self.jac, self.kind) == (o.jac, o.kind)

    def __call__(self, p, xdata, ydata, w):
        J = snp.asarray(self.jac(xdata, *[p[i] for i in range(p.shape[0])]))
        J = J.reshape(-1, p.shape[0])
        if self.kind == 1:
            return J * w[:, None]
        if self.kind == 2:
            return sciax.linalg.solve_triangular(w, J, lower=True)
        return J


def _float_array(v, ndim=None) -> bool:
    """Is ``v`` already a float64 sciax Array (of ``ndim`` dimensions)?"""
    return (type(v) is sciax.Array and v.dtype == np.float64
            and (ndim is None or v.ndim == ndim))


def _no_bounds(bounds) -> bool:
    """Is ``bounds`` the default ``(-inf, inf)`` pair of floats?"""
    return (type(bounds) is tuple and len(bounds) == 2 and type(bounds[0]) is float
            and type(bounds[1]) is float and bounds[0] == -np.inf
            and bounds[1] == np.inf)


_CONSTANTS: dict = {}


def _constant(v):
    """A 0-d sciax Array of the Python number ``v``, made once (an eager
    ``snp.asarray`` is a host-to-device copy on every call)."""
    key = (type(v), v)
    if key not in _CONSTANTS:
        if len(_CONSTANTS) > 256:
            _CONSTANTS.clear()
        _CONSTANTS[key] = snp.asarray(v)
    return _CONSTANTS[key]


def _concrete(v):
    try:
        return np.asarray(v)
    except Exception:  # a tracer
        return None
