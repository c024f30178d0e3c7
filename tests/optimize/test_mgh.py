"""Moré-Garbow-Hillstrom problems (tests/optimize/mgh.py) from their standard
starting points, each method against ``scipy.optimize.minimize`` with the same
method, given the same exact gradient (and hessian for Newton-type methods).

A method passes a problem when its final objective is at least as low as
SciPy's, to ``1e-6`` relative and ``1e-7`` absolute: both stop on the same
gradient tolerance, which on problems with a singular minimum (extended Powell,
``f ~ |x|^4``) fixes ``f`` only to about that level.  Iteration and evaluation
counts, ours beside SciPy's, are tabulated in benchmarks/README.md (section
"sciax.optimize"), produced by ``python -m tests.optimize.test_mgh``.  The
default run covers one small case; the full matrix is marked slow.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax import optimize as sopt

from tests.optimize.mgh import PROBLEMS

METHODS = ["BFGS", "CG", "Newton-CG", "L-BFGS-B", "trust-ncg", "trust-exact", "dogleg",
           "Nelder-Mead", "Powell", "trust-krylov", "TNC"]
NEEDS_HESS = {"Newton-CG", "trust-ncg", "trust-exact", "dogleg", "trust-krylov"}


def solve_pair(pname, method, options=None):
    p = PROBLEMS[pname]
    x0 = np.array(p.x0, float)
    ours = sopt.minimize(p.fun, snp.asarray(x0), method=method, options=options)
    g = sciax.jit(sciax.grad(p.fun))
    h = sciax.jit(sciax.hessian(p.fun))
    kw = {}
    if method not in ("Nelder-Mead", "Powell"):
        kw["jac"] = lambda x: np.asarray(g(snp.asarray(x)))
    if method in NEEDS_HESS:
        kw["hess"] = lambda x: np.asarray(h(snp.asarray(x)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ref = so.minimize(lambda x: float(p.fun(snp.asarray(x))), x0, method=method,
                              options=options, **kw)
        except (np.linalg.LinAlgError, ValueError):  # dogleg on an indefinite hessian
            ref = None
    return ours, ref


def _check(pname, method):
    ours, ref = solve_pair(pname, method, CAP_LIMITED.get((pname, method)))
    if ref is None:
        pytest.skip(f"SciPy's {method} raises on {pname}")
    f, fr = float(ours.fun), float(ref.fun)
    assert np.isfinite(f)
    if np.isnan(fr):  # SciPy ended on NaN (Powell on the helical valley)
        fr = np.inf
    if (pname, method) in GTOL_LIMITED:
        _check_gtol_limited(pname, ours, ref)
        return
    if (pname, method) in CAPPED and not bool(ours.success):
        _check_capped(pname, ours, ref)
        return
    assert f <= fr + 1e-6 * abs(fr) + 1e-7, (pname, method, f, fr, ours.message)


# Cells where both libraries stop on the gradient tolerance at points that part by
# rounding, on a problem whose hessian is so ill-conditioned that the tolerance
# fixes f only loosely.  Near a minimum x* with hessian H, f(x) - f(x*) is about
# g^T H^-1 g / 2 <= |g|^2 / (2 lambda_min): two stopping points with gradients
# g1, g2 may differ in f by up to the larger of the two bounds.  The check is that
# both converged and the f values differ by no more than that.
GTOL_LIMITED = {
    # penalty1_4: smallest hessian eigenvalue ~7e-5 at the stopping point, CG's
    # gtol 1e-5 (|g| 1.2e-5): the bound is ~1e-6 against f ~ 2.3e-5.  Measured: ours 2.3188e-5 (103
    # iterations) or 2.3409e-5 (95) as XLA's loop kernels round, SciPy's 2.3229e-5
    # (98), the minimum 2.24997e-5.
    ("penalty1_4", "CG"),
}


# Cells where SciPy stops at an iteration or evaluation cap, far from the minimum,
# on a trajectory that rounding changes: which of the two libraries is lower at
# the cap is chance.  At XLA's default level ours ends lower than SciPy's
# (194.9 vs 202.1); compiled at LLVM -O0 (CI's slow step) ours stopped at 206.7
# (2026-12-03).  What both methods guarantee there is the cap's status and a
# descent from x0; a run of ours that converges is checked as any other.
CAPPED = {
    ("ext_rosenbrock_100", "Nelder-Mead"),  # maxfev 20000: f 1210 -> ~200
}


def _check_capped(pname, ours, ref):
    p = PROBLEMS[pname]
    assert not ref.success and int(ours.status) == ref.status, (ours.message, ref.message)
    assert ours.message == ref.message
    f0 = float(p.fun(snp.asarray(np.array(p.x0, float))))
    assert float(ours.fun) < 0.5 * f0, (float(ours.fun), f0)


# Cells where SciPy's default iteration cap falls while both libraries are still
# descending, so that the f values at the cap compare two points of a descent
# rather than two results; they are compared with a cap that both converge under.
CAP_LIMITED = {
    # Newton-CG's iterates crawl along Wood's saddle (f ~ 7.876) for hundreds of
    # iterations and leave it at an iteration that rounding decides: ours and
    # SciPy's part at the 16th digit at the second iteration (where XLA contracts
    # a multiply-add into an FMA moves with the program's fusions).  Measured
    # (2026-12-03) with the default cap 800: SciPy converges at 805 iterations
    # (f = 0.0038 at 800), sciax at 792 to 1,048 depending on the build; with
    # 2,000 both converge to f < 1e-12.
    ("wood", "Newton-CG"): {"maxiter": 2000},
}


def _check_gtol_limited(pname, ours, ref):
    p = PROBLEMS[pname]
    assert bool(ours.success) and ref.success, (ours.message, ref.message)
    h = np.asarray(sciax.hessian(p.fun)(snp.asarray(ours.x)))
    lam = np.linalg.eigvalsh(h)[0]
    assert lam > 0, lam
    gn = max(np.linalg.norm(np.asarray(ours.jac)), np.linalg.norm(ref.jac))
    bound = gn**2 / (2 * lam)
    assert abs(float(ours.fun) - ref.fun) <= bound, (float(ours.fun), ref.fun, bound)


@pytest.mark.parametrize("pname,method", [
    ("rosenbrock", "BFGS"), pytest.param("beale", "trust-ncg", marks=pytest.mark.slow),
    pytest.param("rosenbrock", "trust-krylov", marks=pytest.mark.slow),
    pytest.param("rosenbrock", "Powell", marks=pytest.mark.slow)])
def test_mgh_small(pname, method):
    _check(pname, method)


# Known shortfalls, each diagnosed (benchmarks/README.md, section sciax.optimize);
# all are runs where the two libraries' iterates part by rounding or by a
# documented difference of algorithm, not a defect of the sciax solver.
KNOWN = {
    ("ext_powell_12", "Nelder-Mead"): "the three identical blocks of x0 tie vertex "
    "values; numpy's argsort (introsort) orders ties differently from sciax's stable "
    "sort, and SciPy itself with argsort(kind='stable') gives exactly ours (1745 "
    "iterations, maxfev 2400, f = 4.93e-6) instead of converging at 2335 evaluations",
    ("penalty1_4", "trust-krylov"): "both stop on SciPy's default gtol = 1e-4 "
    "(18 vs 20 iterations), which on this ill-conditioned problem (smallest hessian "
    "eigenvalue ~2e-5) fixes f only to ~|g|^2/lambda ~ 1e-4 relative; ours at "
    "2.28207e-5, SciPy's (GLTR, another Krylov subproblem tolerance) at 2.26818e-5, "
    "minimum 2.24997e-5",
    # TNC (sciax's: exact hessian-vector products, no diagonal preconditioner;
    # SciPy's tnc: finite-difference products and a BFGS-diagonal preconditioner)
    ("brown_badly_scaled", "TNC"): "both stop at maxfun (100), unconverged; ours "
    "at f = 1.0e12, SciPy's (preconditioned) at 5.1e11",
    ("wood", "TNC"): "both stop at maxfun (100); ours near Wood's saddle "
    "(f = 7.877), SciPy's (preconditioned) at 0.0013",
}


def _matrix_params():
    for pname in sorted(PROBLEMS):
        for method in METHODS:
            reason = KNOWN.get((pname, method))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            yield pytest.param(pname, method, marks=marks, id=f"{pname}-{method}")


@pytest.fixture
def _drop_programs():
    # Each cell compiles its own programs (minimize's, and the jitted gradient and
    # hessian handed to SciPy) and none is reused by another cell; without this
    # a worker's memory grows ~17 MB a cell (measured 2026-12-01), so an xdist
    # worker running the whole slow step accumulates gigabytes.
    yield
    sciax.clear_caches()


@pytest.mark.slow
@pytest.mark.parametrize("pname,method", list(_matrix_params()))
def test_mgh_matrix(pname, method, _drop_programs):
    _check(pname, method)


def table() -> str:
    """Markdown table: nit and nfev, sciax / SciPy, per problem and method."""
    rows = ["| problem | " + " | ".join(METHODS) + " |",
            "| --- | " + " | ".join("---" for _ in METHODS) + " |"]
    for pname in PROBLEMS:
        cells = []
        for m in METHODS:
            ours, ref = solve_pair(pname, m)
            if ref is None:
                cells.append(f"{int(ours.nit)}/{int(ours.nfev)} (SciPy raises)")
                continue
            fr = float(ref.fun)
            ok = "" if float(ours.fun) <= fr + 1e-6 * abs(fr) + 1e-7 else " !"
            cells.append(
                f"{int(ours.nit)}/{int(ours.nfev)} vs {ref.nit}/{ref.nfev}{ok}")
        rows.append(f"| {pname} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
