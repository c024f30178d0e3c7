"""SciPy's functional front doors (``fmin*``, ``fminbound``, ``brent``,
``golden``, ``bracket``, ``fsolve``, ``leastsq`` and the ``nonlin`` solver
functions) against the SciPy functions on the same problems.

The layers run sciax's solvers, which follow SciPy's algorithms but with exact
derivatives where SciPy takes finite differences, so iterates and counters
differ; the checks are the solutions (to the methods' own tolerances, stated
per test), the return structure (tuple lengths, dict keys, flags on success
and on the failures SciPy also reports) and the printed messages.
"""

from __future__ import annotations

import inspect
import re
import warnings

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
import sciax.optimize as sxo
from sciax.optimize import OptimizeWarning

from scipy.optimize._optimize import BracketError
from sciax.optimize import _legacy

from tests.optimize import mgh
from tests.optimize import root_systems as rs

X0 = [-1.2, 1.0]


_NAMES = ["fmin", "fmin_powell", "fmin_cg", "fmin_bfgs", "fmin_ncg", "fmin_l_bfgs_b",
          "fmin_tnc", "fmin_slsqp", "fminbound", "brent", "golden", "bracket",
          "fsolve", "leastsq", "broyden1", "broyden2", "anderson", "newton_krylov",
          "diagbroyden", "linearmixing", "excitingmixing", "nnls", "lsq_linear"]
# documented differences: fmin_ncg's fprime is optional (exact gradient);
# SciPy's deprecation sentinels (iprint, disp, atol) are None here; nnls takes
# maxiter positionally too (the signature)
_SIG_EXCEPTIONS = {("fmin_ncg", "fprime"), ("fmin_l_bfgs_b", "iprint"),
                   ("fmin_l_bfgs_b", "disp"), ("nnls", "maxiter"), ("nnls", "atol")}


@pytest.mark.parametrize("name", _NAMES)
def test_signatures_are_scipys(name):
    ours = inspect.signature(getattr(sxo, name)).parameters
    ref = inspect.signature(getattr(so, name)).parameters
    assert list(ours) == list(ref)
    for k in ours:
        if (name, k) in _SIG_EXCEPTIONS:
            continue
        assert ours[k].kind == ref[k].kind, k
        da, db = ours[k].default, ref[k].default
        assert da is db or da == db or (isinstance(da, float) and isinstance(
            db, float) and np.isclose(da, db)), (k, da, db)


def _quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **k)


# --- multivariate minimizers ---------------------------------------------------------


def test_fmin_matches_scipy_structure_and_solution():
    ours = sxo.fmin(sxo.rosen, snp.array(X0), xtol=1e-8, ftol=1e-8, full_output=1,
                    disp=0, retall=1)
    ref = so.fmin(so.rosen, X0, xtol=1e-8, ftol=1e-8, full_output=1, disp=0,
                  retall=1)
    assert len(ours) == len(ref) == 6
    # same Nelder-Mead on both sides; xtol 1e-8 leaves the simplex ~1e-8 wide
    np.testing.assert_allclose(np.asarray(ours[0]), ref[0], atol=1e-6)
    assert ours[4] == ref[4] == 0
    allvecs = ours[5]
    # same simplex steps as SciPy: the same iterations, the same iterate list
    assert ours[2] == ref[2] and ours[3] == ref[3]
    assert isinstance(allvecs, list) and len(allvecs) == len(ref[5])
    np.testing.assert_allclose(allvecs[0], X0)


def test_fmin_maxiter_warnflag_and_warning():
    with pytest.warns(RuntimeWarning, match="Maximum number of iterations"):
        ours = sxo.fmin(sxo.rosen, snp.array(X0), maxiter=10, full_output=1)
    ref = _quiet(so.fmin, so.rosen, X0, maxiter=10, full_output=1)
    assert ours[4] == ref[4] == 2
    assert ours[2] == 10


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_fmin_powell_structure_and_solution():
    ours = sxo.fmin_powell(sxo.rosen, snp.array(X0), xtol=1e-8, ftol=1e-10,
                           full_output=1, disp=0, retall=1)
    ref = so.fmin_powell(so.rosen, X0, xtol=1e-8, ftol=1e-10, full_output=1, disp=0,
                         retall=1)
    assert len(ours) == len(ref) == 7
    np.testing.assert_allclose(np.asarray(ours[0]), ref[0], atol=1e-5)
    assert np.asarray(ours[2]).shape == ref[2].shape == (2, 2)
    assert ours[5] == ref[5] == 0


@pytest.mark.slow  # compiles a solver per problem: > 2 s
@pytest.mark.parametrize("name,n_out", [("fmin_cg", 5), ("fmin_bfgs", 7),
                                        ("fmin_ncg", 6)])
def test_gradient_methods_on_rosenbrock(name, n_out):
    seen = []
    kw = {"avextol": 1e-8} if name == "fmin_ncg" else {"gtol": 1e-8}
    ours = getattr(sxo, name)(sxo.rosen, snp.array(X0), full_output=1, disp=0,
                              retall=1, callback=seen.append, **kw)
    ref_kw = dict(kw)
    ref = _quiet(getattr(so, name), so.rosen, X0, so.rosen_der, full_output=1,
                 disp=0, retall=1, **ref_kw)
    assert len(ours) == len(ref) == n_out + 1
    # both converge to the minimum (1, 1) to well within 1e-6
    np.testing.assert_allclose(np.asarray(ours[0]), ref[0], atol=1e-6)
    assert ours[n_out - 1] == ref[n_out - 1] == 0  # warnflag
    allvecs = ours[-1]
    assert len(allvecs) == len(seen) + 1
    np.testing.assert_allclose(allvecs[-1], np.asarray(ours[0]), atol=1e-12)


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_fmin_bfgs_full_output_fields_and_user_gradient():
    f = lambda x, a: snp.sum((x - a) ** 2) + x[0] * x[1]  # noqa: E731
    g = lambda x, a: 2.0 * (x - a) + snp.stack([x[1], x[0]])  # noqa: E731
    ours = sxo.fmin_bfgs(f, snp.zeros(2), g, args=(1.0,), full_output=1, disp=0)
    fn = lambda x, a: np.sum((x - a) ** 2) + x[0] * x[1]  # noqa: E731
    ref = so.fmin_bfgs(fn, np.zeros(2), args=(1.0,), full_output=1, disp=0)
    xopt, fopt, gopt, Bopt = ours[:4]
    np.testing.assert_allclose(np.asarray(xopt), [2 / 3, 2 / 3], atol=1e-7)
    np.testing.assert_allclose(float(fopt), ref[1], atol=1e-10)
    assert np.asarray(Bopt).shape == ref[3].shape == (2, 2)
    # the exact inverse Hessian of this quadratic is reached by BFGS's updates
    np.testing.assert_allclose(np.asarray(Bopt), np.linalg.inv([[2, 1], [1, 2]]),
                               atol=1e-6)
    assert np.max(np.abs(np.asarray(gopt))) < 1e-5


def _numbers_out(text):
    return re.sub(r"[-+]?\d+(\.\d+)?", "#", text)


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_disp_prints_scipys_report(capsys):
    sxo.fmin_bfgs(sxo.rosen, snp.array(X0))
    ours = capsys.readouterr().out
    so.fmin_bfgs(so.rosen, X0)
    ref = capsys.readouterr().out
    assert _numbers_out(ours) == _numbers_out(ref)
    assert ours.startswith("Optimization terminated successfully.\n")


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_maxiter_warns_optimizewarning_like_scipy():
    with pytest.warns(OptimizeWarning, match="Maximum number of iterations"):
        ours = sxo.fmin_bfgs(sxo.rosen, snp.array(X0), maxiter=3, full_output=1)
    ref = _quiet(so.fmin_bfgs, so.rosen, X0, maxiter=3, full_output=1)
    assert ours[6] == ref[6] == 1


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_fmin_l_bfgs_b_bounds_and_conventions():
    bounds = [(-2.0, 0.5), (1.5, 3.0)]
    xb0 = [-1.2, 2.0]
    x, f, d = sxo.fmin_l_bfgs_b(sxo.rosen, snp.array(xb0), bounds=bounds,
                                pgtol=1e-10, factr=10)
    rx, rf, rd = so.fmin_l_bfgs_b(so.rosen, xb0, so.rosen_der, bounds=bounds,
                                  pgtol=1e-10, factr=10)
    # a bounded minimum at x1 = 1.5 (active); x0 free: both to 1e-6
    np.testing.assert_allclose(np.asarray(x), rx, atol=1e-6)
    np.testing.assert_allclose(float(f), rf, rtol=1e-8)
    assert set(d) == set(rd)
    assert d["warnflag"] == rd["warnflag"] == 0
    assert isinstance(d["task"], str) and d["task"].startswith("CONVERGENCE")
    # SciPy's fprime=None convention: func returns (f, g)
    fg = lambda z: (sxo.rosen(z), sxo.rosen_der(z))  # noqa: E731
    x2, _, d2 = sxo.fmin_l_bfgs_b(fg, snp.array(xb0), bounds=bounds, pgtol=1e-10,
                                  factr=10)
    np.testing.assert_allclose(np.asarray(x2), rx, atol=1e-6)
    x3, _, _ = sxo.fmin_l_bfgs_b(sxo.rosen, snp.array(xb0), approx_grad=True,
                                 bounds=bounds, pgtol=1e-10, factr=10)
    np.testing.assert_allclose(np.asarray(x3), rx, atol=1e-6)


def test_fmin_tnc_returns_x_nfeval_rc():
    bounds = [(-2.0, 0.5), (1.5, 3.0)]
    ours = sxo.fmin_tnc(sxo.rosen, snp.array([-1.2, 2.0]), approx_grad=True,
                        bounds=bounds)
    ref = so.fmin_tnc(so.rosen, [-1.2, 2.0], so.rosen_der, bounds=bounds, disp=0)
    assert len(ours) == len(ref) == 3
    assert isinstance(ours[1], int)
    assert ours[2] in (0, 1, 2) and ref[2] in (0, 1, 2)
    # TNC's default tolerances stop ~1e-4 from the bounded minimum
    np.testing.assert_allclose(np.asarray(ours[0]), ref[0], atol=1e-3)


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_fmin_slsqp_scipy_tutorial_problem(capsys):
    # SciPy's tutorial: max 2xy + 2x - x^2 - 2y^2 s.t. x^3 - y = 0, y - 1 >= 0
    f = lambda x: -(2 * x[0] * x[1] + 2 * x[0] - x[0] ** 2 - 2 * x[1] ** 2)  # noqa
    eq = lambda x: x[0] ** 3 - x[1]  # noqa: E731
    ineq = lambda x: x[1] - 1.0  # noqa: E731
    ours = sxo.fmin_slsqp(f, snp.array([-1.0, 1.0]), eqcons=[eq], ieqcons=[ineq],
                          full_output=1, iprint=0)
    ref = so.fmin_slsqp(f, [-1.0, 1.0], eqcons=[eq], ieqcons=[ineq], full_output=1,
                        iprint=0)
    assert len(ours) == len(ref) == 5
    np.testing.assert_allclose(np.asarray(ours[0]), ref[0], atol=1e-6)
    assert ours[3] == ref[3] == 0 and ours[4] == ref[4]
    capsys.readouterr()
    sxo.fmin_slsqp(f, snp.array([-1.0, 1.0]), f_eqcons=lambda x: snp.stack([eq(x)]),
                   f_ieqcons=lambda x: snp.stack([ineq(x)]))
    out = capsys.readouterr().out
    assert out.startswith("Optimization terminated successfully    (Exit mode 0)")
    assert "Gradient evaluations:" in out


# --- scalar --------------------------------------------------------------------------


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_fminbound_brent_golden():
    f = lambda x: (x - 1.0) ** 2 + 0.1 * x ** 4  # noqa: E731
    ours = sxo.fminbound(f, -3.0, 4.0, full_output=1)
    ref = so.fminbound(f, -3.0, 4.0, full_output=1)
    assert len(ours) == len(ref) == 4 and ours[2] == ref[2] == 0
    assert ours[3] == ref[3]
    np.testing.assert_allclose(float(ours[0]), ref[0], atol=1e-5)  # xtol 1e-5
    b = sxo.brent(f, brack=(-1.0, 0.0), full_output=1)
    rb = so.brent(f, brack=(-1.0, 0.0), full_output=1)
    assert len(b) == len(rb) == 4
    np.testing.assert_allclose(float(b[0]), rb[0], rtol=1e-7)
    g = sxo.golden(f, brack=(-1.0, 0.5, 2.0), full_output=1)
    rg = so.golden(f, brack=(-1.0, 0.5, 2.0), full_output=1)
    assert len(g) == len(rg) == 3
    np.testing.assert_allclose(float(g[0]), rg[0], rtol=1e-7)
    np.testing.assert_allclose(float(g[1]), rg[1], rtol=1e-12)
    # same algorithms as SciPy's: the same iteration and evaluation counts
    for br in (None, (-1.0, 0.0), (-1.0, 0.5, 2.0)):
        ob, rb = sxo.brent(f, brack=br, full_output=1), so.brent(f, brack=br,
                                                                full_output=1)
        assert ob[2:] == rb[2:]
        og, rg = sxo.golden(f, brack=br, full_output=1), so.golden(f, brack=br,
                                                                  full_output=1)
        assert og[2] == rg[2]
        np.testing.assert_allclose(float(ob[0]), rb[0], rtol=1e-7)
        np.testing.assert_allclose(float(og[0]), rg[0], rtol=1e-7)
    # maxfun reached: flag 1 and SciPy's warning, at the same point
    with pytest.warns(OptimizeWarning, match="Maximum number of function"):
        ob = sxo.fminbound(snp.sin, 0.0, 10.0, maxfun=5, full_output=1)
    rb = _quiet(so.fminbound, np.sin, 0.0, 10.0, maxfun=5, full_output=1)
    assert ob[2:] == rb[2:] == (1, 5)
    np.testing.assert_allclose(float(ob[0]), rb[0], rtol=1e-12)
    assert float(sxo.fminbound(f, 2.0, 3.0)) == pytest.approx(2.0, abs=1e-5)
    with pytest.raises(ValueError, match="lower bound exceeds"):
        sxo.fminbound(f, 3.0, 2.0)
    with pytest.raises(ValueError, match="do not fulfill"):
        sxo.brent(f, brack=(-1.0, 3.0, 4.0))


@pytest.mark.parametrize("fun,xa,xb", [
    (lambda x: (x - 3.0) ** 2, 0.0, 1.0),
    (lambda x: (x + 7.5) ** 2 + 1.0, 0.0, 1.0),
    (lambda x: x ** 4 - 2.0 * x ** 2, 0.2, 0.3),
    (lambda x: -x * snp.exp(-x), 5.0, 4.0),
])
def test_bracket_equals_scipy(fun, xa, xb):
    ours = sxo.bracket(fun, xa, xb)
    ref = so.bracket(lambda x: float(fun(x)), xa, xb)
    assert len(ours) == 7
    np.testing.assert_allclose(ours[:6], ref[:6], rtol=1e-12)
    assert ours[6] == ref[6]


def test_bracket_failures_as_scipy():
    with pytest.raises(RuntimeError, match="No valid bracket"):
        so.bracket(lambda x: -x, 0.0, 1.0, maxiter=5)
    with pytest.raises(RuntimeError, match="No valid bracket"):
        sxo.bracket(lambda x: -x, 0.0, 1.0, maxiter=5)
    f = lambda x: 0.0 * x  # flat: no point is lower than both ends  # noqa: E731
    with pytest.raises(BracketError):  # not exported by SciPy
        so.bracket(lambda x: float(f(x)), 0.0, 1.0)
    with pytest.raises(_legacy.BracketError) as e:
        sxo.bracket(f, 0.0, 1.0)
    assert len(e.value.data) == 7


# --- fsolve, leastsq -----------------------------------------------------------------


@pytest.mark.slow  # compiles a solver per problem: > 2 s
@pytest.mark.parametrize("name,n", [("rosenbrock", None), ("helical_valley", None),
                                    ("powell_badly_scaled", None),
                                    ("variably_dimensioned", 5), ("discrete_bvp", 5),
                                    ("broyden_tridiagonal", 5)])
def test_fsolve_root_systems(name, n):
    F, x0 = rs.problem(name, n)
    x, info, ier, mesg = sxo.fsolve(lambda z: F(z, snp), x0, full_output=1)
    rx, rinfo, rier, rmesg = so.fsolve(lambda z: F(z, np), x0, full_output=1)
    assert ier == rier == 1 and mesg == rmesg == "The solution converged."
    assert set(rinfo) <= set(info)
    assert {"nfev", "njev", "fvec", "fjac", "r", "qtf"} == set(info)
    # both stop at xtol = 1.49e-8 relative; powell_badly_scaled's root has a
    # 1e-5 entry and an ill-conditioned Jacobian (1e-8 absolute there)
    np.testing.assert_allclose(np.asarray(x), rx, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(np.asarray(info["fvec"]), 0.0, atol=1e-7)
    nn = x0.shape[0]
    assert np.asarray(info["r"]).shape == rinfo["r"].shape == (nn * (nn + 1) // 2,)


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_fsolve_warns_and_user_jacobian():
    F = lambda x: snp.stack([x[0] ** 2 + x[1] ** 2 - 2.0, x[0] - x[1]])  # noqa
    J = lambda x: snp.array([[2 * x[0], 2 * x[1]], [1.0, -1.0]])  # noqa: E731
    x = sxo.fsolve(F, [2.0, 0.5], fprime=J)
    np.testing.assert_allclose(np.asarray(x), [1.0, 1.0], atol=1e-10)
    xt = sxo.fsolve(F, [2.0, 0.5], fprime=lambda x: J(x).T, col_deriv=1)
    np.testing.assert_allclose(np.asarray(xt), [1.0, 1.0], atol=1e-10)
    # x^2 + 1 has no real root: SciPy and sciax warn (not converging)
    with pytest.warns(RuntimeWarning):
        so.fsolve(lambda z: z ** 2 + 1.0, [1.0])
    with pytest.warns(RuntimeWarning):
        sxo.fsolve(lambda z: z ** 2 + 1.0, [1.0])


@pytest.mark.slow  # compiles a solver per problem: > 2 s
@pytest.mark.parametrize("name", ["rosenbrock", "beale", "jennrich_sampson",
                                  "box3d", "freudenstein_roth"])
def test_leastsq_mgh(name):
    p = mgh.PROBLEMS[name]
    x0 = np.asarray(p.x0)
    ours = sxo.leastsq(p.residuals, x0, full_output=True)
    ref = so.leastsq(lambda z: np.asarray(p.residuals(snp.asarray(z))), x0,
                     full_output=True)
    assert len(ours) == len(ref) == 5
    x, cov, info, mesg, ier = ours
    assert ier in (1, 2, 3, 4) and ref[4] in (1, 2, 3, 4)
    assert set(info) == set(ref[2])
    # the sums of squares agree to ~ftol; the minimizers to ~1e-6 relative,
    # except on the two ill-conditioned minima (Jennrich-Sampson's columns are
    # nearly equal at x0 = x1; Freudenstein-Roth's local minimum lies in a flat
    # valley): there ftol = 1.49e-8 on the cost leaves x within ~sqrt(ftol)
    ssq = float(np.sum(np.asarray(info["fvec"]) ** 2))
    np.testing.assert_allclose(ssq, np.sum(ref[2]["fvec"] ** 2), rtol=1e-8,
                               atol=1e-20)
    loose = name in ("jennrich_sampson", "freudenstein_roth")
    np.testing.assert_allclose(np.asarray(x), ref[0], rtol=1e-4 if loose else 2e-6,
                               atol=1e-7)
    # cov_x is (J^T J)^-1 with the exact Jacobian at our solution (to the
    # rounding of inverting J^T J: a relative error of ~eps * cond(J^T J))
    J = np.asarray(sciax.jacfwd(p.residuals)(snp.asarray(np.asarray(x))))
    JtJ = J.T @ J
    tol = max(1e-10, 100 * np.finfo(float).eps * np.linalg.cond(JtJ))
    np.testing.assert_allclose(cov, np.linalg.inv(JtJ), rtol=tol)
    if not loose:
        # and SciPy's: J differs by SciPy's forward differences (~1e-7
        # relative), amplified by the conditioning of J^T J; on the two
        # ill-conditioned minima cov_x changes by O(1) within the solutions'
        # spread, so it is only compared on the others
        np.testing.assert_allclose(cov, ref[1], rtol=1e-3,
                                   atol=1e-6 * np.max(np.abs(ref[1])))
    # qtf = (Q^T fvec)[:n] of the same factorization: R^T qtf = J^T fvec
    np.testing.assert_allclose(np.triu(np.asarray(info["fjac"]).T[:x0.shape[0]]).T
                               @ np.asarray(info["qtf"]),
                               J.T @ np.asarray(info["fvec"]), atol=1e-12 * max(
                                   1.0, np.abs(J).max() * np.abs(info["fvec"]).max()))
    # SciPy's formula on (fjac, ipvt) gives cov_x back
    n = x0.shape[0]
    r = np.triu(np.asarray(info["fjac"]).T[:n, :])
    Ri = np.linalg.inv(r)
    Ri[info["ipvt"]] = Ri.copy()
    np.testing.assert_allclose(Ri @ Ri.T, cov, rtol=1e-10, atol=1e-14)
    assert isinstance(mesg, str) and mesg


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_leastsq_short_form_and_singular_cov():
    t = np.linspace(0.0, 1.0, 6)
    res = lambda p: p[0] * t + p[1] - (2 * t + 1)  # noqa: E731
    x, ier = sxo.leastsq(res, [0.0, 0.0])
    np.testing.assert_allclose(np.asarray(x), [2.0, 1.0], atol=1e-10)
    assert ier in (1, 2, 3, 4)
    # two parameters that enter only as a sum: J^T J is singular
    sing = lambda p: (p[0] + p[1]) * t - 2 * t  # noqa: E731
    out = sxo.leastsq(sing, [0.0, 0.0], full_output=True)
    ref = so.leastsq(lambda p: (p[0] + p[1]) * t - 2 * t, [0.0, 0.0],
                     full_output=True)
    # MINPACK's pivoted R keeps a rounding-sized pivot, so SciPy returns a
    # covariance of ~1e19 there; sciax tests R's diagonal against n * eps
    assert out[1] is None and np.max(np.abs(ref[1])) > 1e15


# --- nonlin --------------------------------------------------------------------------

_NONLIN = ["broyden1", "broyden2", "anderson", "newton_krylov", "diagbroyden",
           "linearmixing", "excitingmixing"]


@pytest.mark.parametrize("name", [n if n == "linearmixing" else pytest.param(
    n, marks=pytest.mark.slow) for n in _NONLIN])  # each compiles: ~2 s
def test_nonlin_functions(name):
    F = lambda x: snp.stack([0.5 * snp.cos(x[1]) - x[0],  # noqa: E731
                             0.5 * snp.sin(x[0]) - x[1]])
    Fn = lambda x: np.array([0.5 * np.cos(x[1]) - x[0], 0.5 * np.sin(x[0]) - x[1]])
    x = getattr(sxo, name)(F, snp.zeros(2), f_tol=1e-10)
    ref = getattr(so, name)(Fn, np.zeros(2), f_tol=1e-10)
    # both stop at max|F| <= 1e-10 on a contraction with |J^-1| < 2
    np.testing.assert_allclose(np.asarray(x), ref, atol=3e-10)
    assert np.asarray(x).shape == (2,)


@pytest.mark.slow  # compiles a solver per problem: > 2 s
@pytest.mark.parametrize("name", ["broyden1", "anderson", "newton_krylov"])
def test_nonlin_on_root_system(name):
    F, x0 = rs.problem("broyden_tridiagonal", 6)
    x = getattr(sxo, name)(lambda z: F(z, snp), x0, f_tol=1e-11)
    ref = getattr(so, name)(lambda z: F(z, np), x0, f_tol=1e-11)
    np.testing.assert_allclose(np.asarray(x), ref, atol=1e-9)


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_nonlin_no_convergence_and_iter():
    with pytest.raises(so.NoConvergence):
        so.broyden1(lambda x: x ** 2 + 1.0, np.array([1.0]), maxiter=5)
    with pytest.raises(sxo.NoConvergence) as e:
        sxo.broyden1(lambda x: x ** 2 + 1.0, snp.array([1.0]), maxiter=5)
    assert issubclass(sxo.NoConvergence, Exception)
    assert np.asarray(e.value.args[0]).shape == (1,)
    # iter: that many steps, no exception (SciPy's backward-compatible mode)
    x = sxo.anderson(lambda x: x ** 2 + 1.0, snp.array([1.0]), iter=3)
    xs = so.anderson(lambda x: x ** 2 + 1.0, np.array([1.0]), iter=3)
    assert np.asarray(x).shape == np.asarray(xs).shape
    with pytest.raises(TypeError):
        sxo.broyden1(lambda x: x, snp.array([1.0]), bogus=1)


@pytest.mark.slow  # compiles a solver per problem: > 2 s
def test_front_doors_under_jit_vmap_grad():
    # x0 = x1 = x with x^3 + x = a: x = 1 at a = 2, dx/da = 1 / (3 x^2 + 1)
    F = lambda x, a: snp.stack([x[0] ** 3 + x[1] - a, x[0] - x[1]])  # noqa: E731
    x0 = snp.array([0.5, 0.5])
    solve = lambda a: sxo.fsolve(F, x0, args=(a,))  # noqa: E731
    np.testing.assert_allclose(np.asarray(sciax.jit(solve)(2.0)), [1.0, 1.0],
                               atol=1e-10)
    np.testing.assert_allclose(np.asarray(sciax.vmap(solve)(snp.array([2.0, 10.0]))),
                               [[1.0, 1.0], [2.0, 2.0]], atol=1e-10)
    assert float(sciax.grad(lambda a: solve(a)[0])(2.0)) == pytest.approx(0.25,
                                                                          rel=1e-10)
    # argmin of |x - a|^2 + x0 x1 is x0 = x1 = 2a/3
    f = lambda x, a: snp.sum((x - a) ** 2) + x[0] * x[1]  # noqa: E731
    out = sciax.jit(lambda a: sxo.fmin_bfgs(f, snp.zeros(2), args=(a,),
                                            full_output=1))(1.5)
    np.testing.assert_allclose(np.asarray(out[0]), [1.0, 1.0], atol=1e-8)
    assert int(out[-1]) == 0
    g = sciax.grad(lambda a: sxo.fmin_bfgs(f, snp.zeros(2), args=(a,), disp=0)[0])
    assert float(g(1.5)) == pytest.approx(2.0 / 3.0, rel=1e-8)
    t = snp.linspace(0.0, 1.0, 5)
    r = lambda p, tt: p[0] * snp.exp(-p[1] * tt) - 2.0 * snp.exp(-1.5 * tt)  # noqa
    x, ier = sciax.jit(lambda tt: sxo.leastsq(r, snp.array([1.0, 1.0]),
                                              args=(tt,)))(t)
    np.testing.assert_allclose(np.asarray(x), [2.0, 1.5], atol=1e-8)
    assert int(ier) in (1, 2, 3, 4)


_MGH_KNOWN = {"beale": [3.0, 0.5], "helical_valley": [1.0, 0.0, 0.0],
              "wood": [1.0, 1.0, 1.0, 1.0]}
# (our call, SciPy's call, tolerance on x): each run to tight tolerances, so
# the minimizers agree to what the stop tests allow (gradient methods ~1e-6
# with SciPy's finite-difference gradients; the simplex/Powell ones ~1e-4)
_FRONT = {
    "fmin_bfgs": (lambda f, x0: sxo.fmin_bfgs(f, x0, gtol=1e-9, disp=0),
                  lambda f, x0: so.fmin_bfgs(f, x0, gtol=1e-7, disp=0), 1e-5),
    "fmin_cg": (lambda f, x0: sxo.fmin_cg(f, x0, gtol=1e-9, disp=0),
                lambda f, x0: so.fmin_cg(f, x0, gtol=1e-7, disp=0), 1e-5),
    "fmin_l_bfgs_b": (lambda f, x0: sxo.fmin_l_bfgs_b(f, x0, approx_grad=1,
                                                      factr=10, pgtol=1e-10)[0],
                      lambda f, x0: so.fmin_l_bfgs_b(f, x0, approx_grad=1,
                                                     factr=10, pgtol=1e-8)[0], 1e-4),
    "fmin": (lambda f, x0: sxo.fmin(f, x0, xtol=1e-10, ftol=1e-14, maxiter=20000,
                                    maxfun=20000, disp=0),
             lambda f, x0: so.fmin(f, x0, xtol=1e-10, ftol=1e-14, maxiter=20000,
                                   maxfun=20000, disp=0), 1e-4),
    "fmin_powell": (lambda f, x0: sxo.fmin_powell(f, x0, xtol=1e-10, ftol=1e-14,
                                                  disp=0),
                    lambda f, x0: so.fmin_powell(f, x0, xtol=1e-10, ftol=1e-14,
                                                 disp=0), 1e-4),
}


@pytest.mark.slow  # compiles a solver per problem: > 2 s
@pytest.mark.parametrize("front", sorted(_FRONT))
@pytest.mark.parametrize("name", sorted(_MGH_KNOWN))
def test_front_doors_on_mgh(front, name):
    p = mgh.PROBLEMS[name]
    ours_call, ref_call, tol = _FRONT[front]
    x = np.asarray(_quiet(ours_call, p.fun, snp.asarray(p.x0)))
    fn = lambda z: float(p.fun(snp.asarray(z)))  # noqa: E731
    ref = np.asarray(_quiet(ref_call, fn, np.asarray(p.x0)))
    np.testing.assert_allclose(x, _MGH_KNOWN[name], atol=tol)
    if (front, name) == ("fmin_powell", "helical_valley"):
        # SciPy's Powell line search steps onto x0 = 0, where the MGH formula
        # (arctan(x1 / x0)) is NaN, and returns NaN; sciax's steps differ
        assert np.all(np.isnan(ref))
        return
    np.testing.assert_allclose(x, ref, atol=2 * tol)
