"""Linear programming: ``linprog`` by a homogeneous self-dual interior-point method.

SciPy's default ``method='highs'`` calls the HiGHS C++ library.  sciax solves
every method name with one dense primal-dual interior-point method on the
homogeneous self-dual embedding (Andersen and Andersen, "The MOSEK interior
point optimizer for linear programming: an implementation of the homogeneous
algorithm", *High Performance Optimization*, 2000, section 4; the algorithm of
SciPy's former ``method='interior-point'``), with Mehrotra's predictor-corrector,
inside one ``lax.while_loop``, so it runs under ``jit`` and ``vmap``.

The problem is brought to the standard form ``min c'x, A x = b, x >= 0`` on
the host from the (static) bounds: a variable with a finite lower bound is
shifted, one with only an upper bound reflected, a free one split, a finite
upper bound stays a bound of the shifted column, and each inequality row gets
a slack.  The embedding's ``tau`` and ``kappa`` certify infeasibility
(``b'y > 0`` as ``tau -> 0``) or unboundedness (``c'x < 0``) instead of
iterating on garbage.

Finite upper bounds stay implicit (``x + w = u``, Andersen and Andersen's
section 5), so they add no rows.  Each iteration factors the normal matrix
``A D A'`` once by Cholesky (with a
tiny diagonal shift and one step of iterative refinement, so redundant
equality rows do not break it) and solves the predictor and corrector with it.
"""

from __future__ import annotations

import warnings

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.linalg import cho_factor, cho_solve

from sciax.optimize._base import OptimizeResult, OptimizeWarning, StatusCodedResult
from sciax.optimize._base import register_result
from sciax.optimize._util import Bounds

_MESSAGES = {
    0: "Optimization terminated successfully.",
    1: "Iteration limit reached.",
    2: "The problem is infeasible.",
    3: "The problem is unbounded.",
    4: "Numerical difficulties encountered.",
}

_METHODS = ("highs", "highs-ipm", "highs-ds", "interior-point")


class LinprogResult(StatusCodedResult):
    """:class:`OptimizeResult` of :func:`linprog`: ``message`` follows
    ``status`` and ``success`` is ``status == 0`` (per lane under ``vmap``)."""

    status_messages = _MESSAGES

    def _succeeded(self, status):
        return status == 0


register_result(LinprogResult)


# --- the interior-point iteration on the standard form -------------------------------


def _max_step(v, dv):
    """Largest ``a <= 1`` with ``v + a dv >= 0`` (``v > 0``)."""
    ratio = snp.where(dv < 0, -v / snp.where(dv < 0, dv, -1.0), snp.inf)
    return snp.minimum(1.0, snp.min(ratio, initial=snp.inf))


def _hsd_core(A, b, c, u, ub, maxiter, tol):
    """Homogeneous self-dual IPM for ``min c'x, A x = b, 0 <= x <= u``, the
    upper bounds only where the mask ``ub`` is 1 (``u`` is 0 elsewhere).

    The bounds are kept implicit (Andersen and Andersen's ``x + w = u tau``
    with dual ``s``), so they add no rows to the normal matrix.  Returns the
    final ``x, y, z, s, tau, kappa``, the iteration count and the status (0
    optimal, 1 iteration limit, 2 infeasible, 3 unbounded, 4 numerical
    difficulties)."""
    m, n = A.shape
    dt = A.dtype
    alpha0 = 0.99995
    e = snp.ones(n, dt)
    one = snp.asarray(1.0, dt)
    nvar = n + snp.sum(ub) + 1
    # relative measures as SciPy's _indicators: against the blind start
    nrp0 = snp.maximum(1.0, snp.sqrt(snp.sum((b - A @ e) ** 2)
                                     + snp.sum((ub * (u - 2.0)) ** 2)))
    nrd0 = snp.maximum(1.0, snp.linalg.norm(c - e + ub))
    nrg0 = snp.maximum(1.0, snp.abs(1.0 + snp.sum(c) + u @ ub))
    eye = snp.eye(m, dtype=dt)

    def indicators(x, w, y, z, s, tau, kappa):
        rp = b * tau - A @ x
        ru = ub * (u * tau - x - w)
        rd = c * tau - A.T @ y - z + s
        dual = b @ y - u @ s
        rg = kappa + c @ x - dual
        mu = (x @ z + w @ s + tau * kappa) / nvar
        rho_p = snp.sqrt(rp @ rp + ru @ ru) / nrp0
        rho_d = snp.linalg.norm(rd) / nrd0
        rho_A = snp.abs(c @ x - dual) / (tau + snp.abs(dual))
        rho_g = snp.abs(rg) / nrg0
        return rp, ru, rd, rg, mu, rho_p, rho_d, rho_A, rho_g

    def classify(x, w, y, z, s, tau, kappa):
        *_, mu, rho_p, rho_d, rho_A, rho_g = indicators(x, w, y, z, s, tau, kappa)
        optimal = (rho_p <= tol) & (rho_d <= tol) & (rho_A <= tol)
        inf1 = ((rho_p < tol) & (rho_d < tol) & (rho_g < tol)
                & (tau < tol * snp.maximum(1.0, kappa)))
        inf2 = (mu < tol) & (tau < tol * snp.minimum(1.0, kappa))
        kind = snp.where(b @ y - u @ s > tol, 2, 3)
        return snp.where(optimal, 0, snp.where(inf1 | inf2, kind, -1))

    def body(state):
        x, w, y, z, s, tau, kappa, it, _ = state
        rp, ru, rd, rg, mu, *_ = indicators(x, w, y, z, s, tau, kappa)
        sw = s / w  # zero off the mask (s = 0 there)
        d = 1.0 / (z / x + sw)
        M = (A * d[None, :]) @ A.T
        shift = 1e-13 * (1.0 + snp.max(snp.diagonal(M), initial=0.0))
        fac = cho_factor(M + shift * eye)

        def msolve(r):  # one step of iterative refinement against the shift
            t = cho_solve(fac, r)
            return t + cho_solve(fac, r - M @ t)

        c_hat = c - sw * u
        c_til = c + sw * u
        q = msolve(b + A @ (d * c_hat))
        v = d * (A.T @ q - c_hat)
        den = c_til @ v - b @ q - u @ (sw * u) - kappa / tau

        def direction(eta, r_xz, r_ws, r_tk):
            h = (r_ws - s * eta * ru) / w  # zero off the mask
            g = r_xz / x - h - eta * rd
            p = msolve(eta * rp - A @ (d * g))
            u1 = d * (A.T @ p + g)
            dtau = (-eta * rg - c_til @ u1 + b @ p - u @ h - r_tk / tau) / den
            dx = u1 + dtau * v
            dy = p + dtau * q
            dz = (r_xz - z * dx) / x
            dw = ub * (eta * ru + u * dtau - dx)
            ds = ub * (r_ws - s * dw) / w
            dkappa = (r_tk - kappa * dtau) / tau
            return dx, dw, dy, dz, ds, dtau, dkappa

        def step(dx, dw, dz, ds, dtau, dkappa, a0):
            a = snp.minimum(_max_step(x, dx), _max_step(z, dz))
            a = snp.minimum(a, snp.minimum(_max_step(w, dw), _max_step(
                snp.where(ub > 0, s, 1.0), ds)))
            a = snp.minimum(a, _max_step(snp.reshape(tau, (1,)),
                                         snp.reshape(dtau, (1,))))
            a = snp.minimum(a, _max_step(snp.reshape(kappa, (1,)),
                                         snp.reshape(dkappa, (1,))))
            return snp.minimum(1.0, a0 * a)

        # predictor (affine scaling, gamma = 0)
        dx, dw, dy, dz, ds, dtau, dkappa = direction(
            one, -x * z, -ub * w * s, -tau * kappa)
        a = step(dx, dw, dz, ds, dtau, dkappa, 1.0)
        # Andersen and Andersen's centring heuristic, as SciPy's 'interior-point'
        gamma = (1.0 - a) ** 2 * snp.minimum(0.1, 1.0 - a)
        eta = 1.0 - gamma
        r_xz = gamma * mu - x * z - dx * dz
        r_ws = ub * (gamma * mu - w * s - dw * ds)
        r_tk = gamma * mu - tau * kappa - dtau * dkappa
        dx, dw, dy, dz, ds, dtau, dkappa = direction(eta, r_xz, r_ws, r_tk)
        a = step(dx, dw, dz, ds, dtau, dkappa, alpha0)
        new = (x + a * dx, w + a * dw, y + a * dy, z + a * dz, s + a * ds,
               tau + a * dtau, kappa + a * dkappa)
        finite = snp.all(snp.asarray([snp.all(snp.isfinite(t)) for t in new]))
        bad = (~finite) | (a < 1e-14) | (new[5] <= 0) | (new[6] <= 0)
        new = tuple(snp.where(bad, o, nw) for o, nw in
                    zip((x, w, y, z, s, tau, kappa), new))
        st = classify(*new)
        st = snp.where(bad, 4, st)
        st = snp.where((st < 0) & (it + 1 >= maxiter), 1, st)
        return (*new, it + 1, st.astype(snp.int32))

    def cond(state):
        return state[-1] < 0

    x0, w0, z0, y0, s0 = e, e, e, snp.zeros(m, dt), ub.astype(dt)
    st0 = classify(x0, w0, y0, z0, s0, one, one)
    st0 = snp.where((st0 < 0) & (maxiter <= 0), 1, st0)
    state = (x0, w0, y0, z0, s0, one, one, snp.asarray(0, snp.int32),
             snp.asarray(st0, snp.int32))
    x, w, y, z, s, tau, kappa, it, st = lax.while_loop(cond, body, state)
    return x, y, z, s, tau, kappa, it, st


# --- the host-side transformation to the standard form --------------------------------


def _parse_bounds(bounds, n):
    """SciPy's accepted forms -> ``(lb, ub)`` float arrays with infinities."""
    if bounds is None:
        lb, ub = np.zeros(n), np.full(n, np.inf)
        return lb, ub
    if isinstance(bounds, Bounds):
        lb = np.broadcast_to(np.asarray(bounds.lb, float), (n,)).copy()
        ub = np.broadcast_to(np.asarray(bounds.ub, float), (n,)).copy()
        return lb, ub
    try:
        arr = np.array(bounds, dtype=object)
    except Exception as err:  # pragma: no cover - ragged input
        raise ValueError("Invalid input for linprog: unable to interpret "
                         "bounds.") from err
    if arr.ndim == 1 and arr.shape[0] == 2 and not isinstance(
            bounds[0], (tuple, list, np.ndarray)):
        arr = np.broadcast_to(arr, (n, 2))
    elif arr.shape == (1, 2):
        arr = np.broadcast_to(arr, (n, 2))
    if arr.shape != (n, 2):
        raise ValueError("Invalid input for linprog: unable to interpret bounds "
                         f"with this dimension tuple: {arr.shape}.")
    lb = np.array([-np.inf if v is None else float(v) for v in arr[:, 0]])
    ub = np.array([np.inf if v is None else float(v) for v in arr[:, 1]])
    if np.any(np.isnan(lb)) or np.any(np.isnan(ub)):
        raise ValueError("Invalid input for linprog: bounds must not be NaN.")
    return lb, ub


def _std_layout(lb, ub):
    """Columns of the standard form for each variable, ``x = T x' + o``:
    shifted (finite lower bound, with ``width = ub - lb`` as the column's
    upper bound), reflected (only an upper bound) or split (free)."""
    n = lb.size
    cols, offset = [], np.zeros(n)
    width, lower_cols, upper_cols, refl_cols = [], [], [], []
    for i in range(n):
        if np.isfinite(lb[i]):
            offset[i] = lb[i]
            lower_cols.append((i, len(cols)))
            if np.isfinite(ub[i]):
                upper_cols.append((i, len(cols)))
            cols.append((i, 1.0))
            width.append(ub[i] - lb[i])
        elif np.isfinite(ub[i]):
            offset[i] = ub[i]
            refl_cols.append((i, len(cols)))
            cols.append((i, -1.0))
            width.append(np.inf)
        else:
            cols += [(i, 1.0), (i, -1.0)]
            width += [np.inf, np.inf]
    T = np.zeros((n, len(cols)))
    for j, (i, sgn) in enumerate(cols):
        T[i, j] = sgn
    return T, offset, np.asarray(width), (lower_cols, upper_cols, refl_cols)


def _as_array(v, dt=None):
    if v is None:
        return None
    a = v if isinstance(v, sciax.Array) or hasattr(v, "aval") else snp.asarray(
        np.asarray(v, float))
    return a.astype(dt) if dt is not None else a


def _build(c, A_ub, b_ub, A_eq, b_eq, T, offset, dt):
    """The standard-form ``(A, b, cs)`` and the objective constant."""
    n, nc = T.shape
    Tj = snp.asarray(T, dt)
    oj = snp.asarray(offset, dt)
    m_ub = 0 if A_ub is None else A_ub.shape[0]
    m_eq = 0 if A_eq is None else A_eq.shape[0]
    N = nc + m_ub
    blocks, rhs = [], []
    if m_ub:
        blocks.append(snp.concatenate([A_ub @ Tj, snp.eye(m_ub, dtype=dt)],
                                      axis=1))
        rhs.append(b_ub - A_ub @ oj)
    if m_eq:
        blocks.append(snp.concatenate([A_eq @ Tj, snp.zeros((m_eq, m_ub), dt)],
                                      axis=1))
        rhs.append(b_eq - A_eq @ oj)
    if not blocks:  # no rows at all: one empty row keeps the algebra uniform
        blocks.append(snp.zeros((1, N), dt))
        rhs.append(snp.zeros((1,), dt))
    A = snp.concatenate(blocks, axis=0)
    b = snp.concatenate(rhs)
    cs = snp.concatenate([Tj.T @ c, snp.zeros(m_ub, dt)])
    return A, b, cs, c @ oj


def _solve_std(c, A_ub, b_ub, A_eq, b_eq, *, T, offset, width, lower_cols,
               upper_cols, refl_cols, maxiter, tol):
    dt = c.dtype
    n, nc = T.shape
    m_ub = 0 if A_ub is None else A_ub.shape[0]
    m_eq = 0 if A_eq is None else A_eq.shape[0]
    # the loop sees constants; ``fun`` gets its derivative from the
    # Lagrangian at the solution (below)
    cd, A_ubd, b_ubd, A_eqd, b_eqd = c, A_ub, b_ub, A_eq, b_eq
    sg = lax.stop_gradient
    c = sg(c)
    A_ub, b_ub = (None, None) if A_ub is None else (sg(A_ub), sg(b_ub))
    A_eq, b_eq = (None, None) if A_eq is None else (sg(A_eq), sg(b_eq))
    A, b, cs, c0 = _build(c, A_ub, b_ub, A_eq, b_eq, T, offset, dt)
    N = cs.shape[0]
    has_u = np.zeros(N)
    uvec = np.zeros(N)
    has_u[:nc] = np.isfinite(width)
    uvec[:nc] = np.where(np.isfinite(width), width, 0.0)
    # row equilibration: unit row norms (zero rows left alone)
    rn = snp.linalg.norm(A, axis=1)
    rn = snp.where(rn > 0, rn, 1.0)
    As, bs = A / rn[:, None], b / rn
    xs, ys, zs, ss, tau, kappa, nit, status = _hsd_core(
        As, bs, cs, snp.asarray(uvec, dt), snp.asarray(has_u, dt), maxiter, tol)
    xstd = xs / tau
    y = ys / tau / rn
    z = zs / tau
    sdual = ss / tau
    x = snp.asarray(T, dt) @ xstd[:nc] + snp.asarray(offset, dt)
    nanify = (status == 2) | (status == 3)
    x = snp.where(nanify, snp.nan, x)
    fun = c @ x
    out = {"x": x, "fun": fun, "nit": nit, "status": status}
    if m_ub:
        out["slack"] = b_ub - A_ub @ x
        out["ineqlin_marginals"] = snp.where(nanify, snp.nan, y[:m_ub])
    else:
        out["slack"] = snp.zeros((0,), dt)
        out["ineqlin_marginals"] = snp.zeros((0,), dt)
    if m_eq:
        out["con"] = b_eq - A_eq @ x
        out["eqlin_marginals"] = snp.where(nanify, snp.nan,
                                           y[m_ub:m_ub + m_eq])
    else:
        out["con"] = snp.zeros((0,), dt)
        out["eqlin_marginals"] = snp.zeros((0,), dt)
    # bound marginals, d fun / d lb and d fun / d ub: z on a shifted column,
    # -s on its upper bound, -z on a reflected (upper-only) column
    lower = snp.zeros(n, dt)
    upper = snp.zeros(n, dt)
    lc, uc, rc = (np.asarray(v, int) for v in (lower_cols, upper_cols, refl_cols))
    if lc.size:
        lower = lower.at[lc[:, 0]].set(z[lc[:, 1]])
    if uc.size:
        upper = upper.at[uc[:, 0]].set(-sdual[uc[:, 1]])
    if rc.size:
        upper = upper.at[rc[:, 0]].set(-z[rc[:, 1]])
    out["lower_marginals"] = snp.where(nanify, snp.nan, lower)
    out["upper_marginals"] = snp.where(nanify, snp.nan, upper)
    # envelope theorem: d fun = x'dc + y_ub'(db_ub - dA_ub x) + y_eq'(...)
    lag = cd @ x
    if m_ub:
        lag = lag + out["ineqlin_marginals"] @ (b_ubd - A_ubd @ x)
    if m_eq:
        lag = lag + out["eqlin_marginals"] @ (b_eqd - A_eqd @ x)
    out["fun"] = fun + (lag - sg(lag))
    return out


def _print_message(res):
    """``disp``: the result's message, where it has a host value."""
    try:
        print(res.message)
    except Exception:  # traced
        pass


_SOLVE_JIT = {}


def _get_solver(lb, ub, maxiter, tol):
    key = (lb.tobytes(), ub.tobytes(), maxiter, tol)
    fn = _SOLVE_JIT.get(key)
    if fn is None:
        T, offset, width, (lc, uc, rc) = _std_layout(lb, ub)

        def run(c, A_ub, b_ub, A_eq, b_eq):
            return _solve_std(c, A_ub, b_ub, A_eq, b_eq, T=T, offset=offset,
                              width=width, lower_cols=lc, upper_cols=uc,
                              refl_cols=rc, maxiter=maxiter, tol=tol)

        fn = sciax.jit(run)
        if len(_SOLVE_JIT) > 64:
            _SOLVE_JIT.clear()
        _SOLVE_JIT[key] = fn
    return fn


_KNOWN_OPTIONS = {"maxiter", "disp", "tol", "presolve", "time_limit",
                  "dual_feasibility_tolerance", "primal_feasibility_tolerance",
                  "ipm_optimality_tolerance", "simplex_dual_edge_weight_strategy",
                  "mip_rel_gap", "autoscale", "rr", "rr_method", "sparse",
                  "lstsq", "sym_pos", "cholesky", "pc", "ip", "permc_spec",
                  "alpha0", "beta"}


def linprog(c, A_ub=None, b_ub=None, A_eq=None, b_eq=None, bounds=(0, None),
            method="highs", callback=None, options=None, x0=None,
            integrality=None):
    r"""Linear programming: minimize a linear objective subject to linear
    equality and inequality constraints and bounds.

    sciax implementation of :func:`scipy.optimize.linprog`::

        min_x  c @ x
        such that  A_ub @ x <= b_ub,  A_eq @ x == b_eq,  lb <= x <= ub.

    Parameters
    ----------
    c : 1-D array_like
        Coefficients of the linear objective.
    A_ub, b_ub : 2-D and 1-D array_like, optional
        Inequality constraints ``A_ub @ x <= b_ub`` (dense).
    A_eq, b_eq : 2-D and 1-D array_like, optional
        Equality constraints ``A_eq @ x == b_eq`` (dense).
    bounds : sequence or Bounds, optional
        ``(min, max)`` for all variables, or one pair per variable; ``None``
        means no bound.  Default ``(0, None)``.  Bounds must be concrete
        (they fix the standard form's shape).
    method : {'highs', 'highs-ipm', 'highs-ds', 'interior-point'}, optional
        All four run the same solver: a dense homogeneous self-dual
        primal-dual interior-point method with Mehrotra's predictor-corrector
        (Andersen and Andersen, 2000; SciPy's former ``'interior-point'``).
        SciPy's ``'highs*'`` methods call the HiGHS C++ library (simplex or
        IPM with crossover); sciax has no crossover, so on a degenerate
        problem with several optimal ``x`` it may return a different optimal
        point (in the relative interior of the optimal face) with the same
        ``fun``.
    callback : None
        Not supported (as with SciPy's HiGHS methods).
    options : dict, optional
        ``maxiter`` (default 1000), ``tol`` (default 1e-10: the relative
        primal, dual and gap residuals of the stopping rule), ``disp``
        (prints the message).  HiGHS's and the old interior-point's other
        options are accepted and ignored; unknown ones warn.
    x0 : None
        Ignored with an :class:`OptimizeWarning`, as in SciPy.
    integrality : None
        Integer variables (MILP) are not supported.

    Returns
    -------
    res : OptimizeResult
        ``x``, ``fun``, ``slack`` (``b_ub - A_ub @ x``), ``con``
        (``b_eq - A_eq @ x``), ``ineqlin``, ``eqlin``, ``lower``, ``upper``
        (each with ``residual`` and ``marginals``, the derivatives of ``fun``
        with respect to the right-hand sides and bounds, as HiGHS's),
        ``status`` (0 optimal, 1 iteration limit, 2 infeasible, 3 unbounded,
        4 numerical difficulties), ``message``, ``nit``, ``success``.  For an
        infeasible or unbounded problem ``x``, ``fun``, ``slack``, ``con`` and
        the marginals are NaN (SciPy returns ``None``; arrays keep the result a
        fixed-shape pytree).

    Notes
    -----
    Derivatives: ``fun`` is differentiable with respect to ``c``, ``A_ub``,
    ``b_ub``, ``A_eq`` and ``b_eq`` by the envelope theorem (its gradient is
    ``x``, the marginals and ``-marginals x'``; valid where the optimal duals
    are unique, i.e. away from degenerate problems).  ``x``, ``slack``,
    ``con`` and the marginals carry no derivative (they are piecewise
    constant or jump with the optimal basis; use the marginals instead).

    ``c``, ``A_ub``, ``b_ub``, ``A_eq`` and ``b_eq`` may be traced: the solver
    runs in one ``lax.while_loop``, so ``linprog`` works under ``jit`` and
    ``vmap`` (e.g. over a batch of cost vectors).  It is dense: each iteration
    factors an ``m x m`` matrix (``m`` counts inequality rows, equality rows
    and finite upper bounds).

    Examples
    --------
    >>> from sciax.optimize import linprog
    >>> c = [-1, 4]
    >>> A = [[-3, 1], [1, 2]]
    >>> b = [6, 4]
    >>> res = linprog(c, A_ub=A, b_ub=b, bounds=[(None, None), (-3, None)])
    >>> print(res.status, round(float(res.fun), 8))
    0 -22.0
    >>> print(np.round(np.asarray(res.x), 8))
    [10. -3.]
    >>> print(res.message)
    Optimization terminated successfully.
    """
    meth = str(method).lower()
    if meth in ("simplex", "revised simplex"):
        raise ValueError(f"Method '{method}' has been removed from SciPy; "
                         "use 'highs' (sciax runs its interior-point method)")
    if meth not in _METHODS:
        raise ValueError(f"Unknown solver {method}")
    if callback is not None:
        raise NotImplementedError("HiGHS solvers do not support the callback "
                                  "interface.")
    if x0 is not None:
        warnings.warn("x0 is used only when method is 'revised simplex'. ",
                      OptimizeWarning, stacklevel=2)
    if integrality is not None and np.any(np.asarray(integrality) != 0):
        raise NotImplementedError("linprog: integrality (MILP) is not supported "
                                  "by sciax")
    options = dict(options or {})
    unknown = set(options) - _KNOWN_OPTIONS
    if unknown:
        warnings.warn(f"Unrecognized options detected: {unknown}. These will "
                      "be passed to HiGHS verbatim.", OptimizeWarning,
                      stacklevel=2)
    maxiter = int(options.get("maxiter", 1000))
    tol = float(options.get("tol", 1e-10))
    disp = bool(options.get("disp", False))

    c = snp.atleast_1d(_as_array(c))
    if c.ndim != 1:
        raise ValueError("Invalid input for linprog: c must be a 1-D array")
    n = c.shape[0]
    dt = snp.result_type(c, 1.0)
    c = c.astype(dt)

    def rows(A, b, name):
        if A is None and b is None:
            return None, None
        if A is None or b is None:
            raise ValueError(f"Invalid input for linprog: A_{name} and b_{name} "
                             "must both be given")
        A = _as_array(A, dt)
        if A.ndim == 1:
            A = snp.reshape(A, (1, -1))
        b = snp.atleast_1d(_as_array(b, dt))
        if A.ndim != 2 or A.shape[1] != n:
            raise ValueError(f"Invalid input for linprog: A_{name} must have "
                             f"exactly two dimensions, and the number of columns "
                             f"in A_{name} must be equal to the size of c")
        if b.ndim != 1 or b.shape[0] != A.shape[0]:
            raise ValueError(f"Invalid input for linprog: b_{name} must be a 1-D "
                             f"array with as many entries as rows of A_{name}")
        if A.shape[0] == 0:
            return None, None
        return A, b

    A_ub, b_ub = rows(A_ub, b_ub, "ub")
    A_eq, b_eq = rows(A_eq, b_eq, "eq")
    lb, ub = _parse_bounds(bounds, n)
    if np.any(lb == np.inf) or np.any(ub == -np.inf):
        raise ValueError("Invalid input for linprog: bounds of +inf below or "
                         "-inf above")
    if np.any(lb > ub):
        # trivially infeasible, as SciPy's presolve reports
        nanv = snp.full(n, snp.nan, dt)
        m_ub = 0 if A_ub is None else A_ub.shape[0]
        m_eq = 0 if A_eq is None else A_eq.shape[0]
        res = LinprogResult(
            x=nanv, fun=snp.asarray(snp.nan, dt),
            slack=snp.full(m_ub, snp.nan, dt), con=snp.full(m_eq, snp.nan, dt),
            status=snp.asarray(2, snp.int32), nit=snp.asarray(0, snp.int32))
        return res
    out = _get_solver(lb, ub, maxiter, tol)(c, A_ub, b_ub, A_eq, b_eq)
    res = LinprogResult(
        x=out["x"], fun=out["fun"], slack=out["slack"], con=out["con"],
        status=out["status"], nit=out["nit"],
        ineqlin=OptimizeResult(residual=out["slack"],
                               marginals=out["ineqlin_marginals"]),
        eqlin=OptimizeResult(residual=out["con"],
                             marginals=out["eqlin_marginals"]),
        lower=OptimizeResult(residual=out["x"] - snp.asarray(lb, dt),
            marginals=out["lower_marginals"]),
        upper=OptimizeResult(residual=snp.asarray(ub, dt) - out["x"],
            marginals=out["upper_marginals"]))
    if disp:
        _print_message(res)
    return res
