"""minimize: result object, input checking, failure statuses, bounds,
transforms (jit, vmap, eager cache), callbacks and implicit derivatives."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax import optimize as sopt
from sciax.optimize import OptimizeWarning, minimize, rosen


def quad(x, a):
    # A convex quartic-plus-quadratic with minimiser depending smoothly on a.
    return snp.sum((x - a) ** 2) + 0.1 * snp.sum(x ** 4)


def test_result_fields_and_scipy_parity_on_rosenbrock():
    res = minimize(rosen, snp.array([-1.2, 1.0]))
    ref = so.minimize(so.rosen, [-1.2, 1.0], jac=so.rosen_der, method="BFGS")
    np.testing.assert_allclose(np.asarray(res.x), ref.x, atol=1e-5)
    assert res.success and int(res.status) == 0
    assert res.message == ref.message
    assert np.asarray(res.hess_inv).shape == (2, 2)
    assert int(res.nit) <= 1.5 * ref.nit and int(res.nfev) <= 1.5 * ref.nfev
    text = repr(res)
    for key in ("message", "success", "fun", "x", "nit", "nfev", "njev", "hess_inv"):
        assert key in text
    # a pytree: leaves are arrays, message/success derived on the host
    assert all(isinstance(v, sciax.Array) for v in sciax.tree.leaves(res))


@pytest.mark.slow
def test_jac_variants_and_pytree_x0():
    a = snp.array([0.5, -1.0])
    ref = minimize(quad, snp.zeros(2), args=(a,))
    g = sciax.grad(quad)
    for jac in (True, g, "2-point", "3-point", "cs"):
        fun = (lambda x, a: (quad(x, a), g(x, a))) if jac is True else quad
        r = minimize(fun, snp.zeros(2), args=(a,), jac=jac)
        np.testing.assert_allclose(np.asarray(r.x), np.asarray(ref.x), atol=1e-7)
    tree = {"u": snp.zeros(()), "v": snp.zeros(1)}
    r = minimize(lambda t, a: quad(snp.concatenate([t["u"][None], t["v"]]), a), tree,
                 args=(a,))
    assert set(r.x) == {"u", "v"} and r.x["v"].shape == (1,)
    np.testing.assert_allclose(float(r.x["u"]), float(ref.x[0]), atol=1e-7)


def test_bad_input_errors_and_warnings():
    x0 = snp.zeros(2)
    with pytest.raises(ValueError, match="bfgs"):
        minimize(rosen, x0, method="no-such-method")
    with pytest.warns(OptimizeWarning, match="gtoll"):
        minimize(rosen, x0, options={"gtoll": 1e-3})
    with pytest.raises(ValueError, match="pairs"):
        minimize(rosen, x0, bounds=[(0, 1)])
    with pytest.raises(ValueError, match="lower bound"):
        minimize(rosen, x0, bounds=[(0, 1), (2, 1)])
    with pytest.raises(ValueError, match="scalar"):
        minimize(lambda x: x * 2, x0)
    with pytest.raises(ValueError, match="Constraint dict has no callable"):
        minimize(rosen, x0, constraints=[{"type": "eq"}])


@pytest.mark.slow
def test_x0_outside_bounds_is_clipped_with_a_warning():
    with pytest.warns(UserWarning, match="bounds"):
        r = minimize(lambda x: snp.sum((x - 0.5) ** 2), snp.array([3.0, 0.2]),
                     bounds=[(0, 1), (0, 1)])
    np.testing.assert_allclose(np.asarray(r.x), [0.5, 0.5], atol=1e-6)


@pytest.mark.slow
def test_failures_have_status_and_message():
    r = minimize(rosen, snp.array([-1.2, 1.0]), options={"maxiter": 3})
    assert int(r.status) == 1 and not r.success and "iterations" in r.message
    # NaN appearing mid-run: SciPy's status 3.
    r = minimize(lambda x: snp.where(x[0] > 0.5, snp.nan, snp.sum((x - 1) ** 2)),
                 snp.zeros(2))
    assert not r.success
    r = minimize(lambda x: snp.sum(x) * snp.nan, snp.zeros(2))
    assert int(r.status) == 3 and r.message == "NaN result encountered."


@pytest.mark.slow
def test_lbfgsb_active_bounds_match_scipy_and_never_leave_the_box():
    lb, ub = np.array([-2.0, 1.5, -2.0]), np.array([0.5, 2.0, 2.0])
    outside = []

    def spy(x):
        if np.any(x < lb) or np.any(x > ub):
            outside.append(np.array(x))

    def fun(x):
        sciax.debug.callback(spy, x)
        bad = snp.any((x < lb) | (x > ub))
        return snp.where(bad, snp.nan, rosen(x))

    x0 = np.array([-1.2, 1.8, 1.0])
    r = minimize(fun, snp.asarray(x0), method="L-BFGS-B", bounds=list(zip(lb, ub)))
    ref = so.minimize(so.rosen, x0, jac=so.rosen_der, method="L-BFGS-B",
                      bounds=list(zip(lb, ub)))
    assert not outside
    assert r.success
    np.testing.assert_allclose(np.asarray(r.x), ref.x, atol=1e-5)
    assert float(r.x[1]) == 1.5  # the active bound is hit exactly
    H = r.hess_inv
    np.testing.assert_allclose(np.asarray(H.todense() @ snp.ones(3)),
                               np.asarray(H.matvec(snp.ones(3))), rtol=1e-12)


def _fd(solve, a, eps=1e-5):
    a = np.asarray(a, float)
    cols = []
    for i in range(a.size):
        e = np.zeros_like(a)
        e[i] = eps
        cols.append((np.asarray(solve(a + e)) - np.asarray(solve(a - e))) / (2 * eps))
    return np.stack(cols, -1)


IFT_CASES = {
    # name: (fun, x0, a, method, bounds)
    "quartic": (quad, np.zeros(2), np.array([0.5, -1.0]), "BFGS", None),
    "rosen_param": (lambda x, a: (a[0] - x[0]) ** 2 + a[1] * (x[1] - x[0] ** 2) ** 2,
                    np.array([-1.0, 1.0]), np.array([1.3, 20.0]), "trust-exact", None),
    "active_bounds": (quad, np.zeros(3), np.array([0.5, 2.0, -0.3]), "L-BFGS-B",
                      [(0.0, 1.0)] * 3),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(IFT_CASES))
def test_implicit_derivatives_match_finite_differences(case):
    fun, x0, a, method, bounds = IFT_CASES[case]
    opts = {"gtol": 1e-12} if method != "L-BFGS-B" else {"gtol": 1e-12, "ftol": 0}

    def solve(a, field="x"):
        r = minimize(fun, snp.asarray(x0), args=(snp.asarray(a),), method=method,
                     bounds=bounds, options=opts)
        return getattr(r, field)

    J = sciax.jacrev(solve)(snp.asarray(a))
    np.testing.assert_allclose(np.asarray(J), _fd(solve, a), atol=1e-6)
    gf = sciax.grad(lambda a: solve(a, "fun"))(snp.asarray(a))
    np.testing.assert_allclose(np.asarray(gf), _fd(lambda a: solve(a, "fun"), a),
                               atol=1e-6)


def _starts(n, seed=0):
    return np.random.default_rng(seed).uniform(-2.0, 2.0, (n, 2))


def _vmap_equals_loop(n, method=None):
    x0s = _starts(n)
    batched = sciax.vmap(lambda x0: minimize(rosen, x0, method=method))(
        snp.asarray(x0s))
    same_nit = []
    for i, x0 in enumerate(x0s):
        r = minimize(rosen, snp.asarray(x0), method=method)
        # On the CPU each lane is the single-problem program (bitwise equal);
        # elsewhere the batched form's kernels round differently and
        # Rosenbrock amplifies that, so x agrees to the tolerance.
        np.testing.assert_allclose(np.asarray(batched.x[i]), np.asarray(r.x),
                                   atol=1e-6)
        assert int(batched.status[i]) == int(r.status)
        same_nit.append(int(batched.nit[i]) == int(r.nit))
        assert abs(int(batched.nit[i]) - int(r.nit)) <= 5
    assert all(batched.success)
    assert np.mean(same_nit) >= 0.9


@pytest.mark.parametrize("method", ["BFGS", "CG"])
def test_vmap_solves_each_problem_as_alone(method):
    # vmap over x0, then over args: each lane's x, status and counters are
    # those of the problem solved alone
    x0s = _starts(6, seed=3)
    rb = sciax.vmap(lambda x0: minimize(rosen, x0, method=method))(snp.asarray(x0s))
    for i, x0 in enumerate(x0s):
        r = minimize(rosen, snp.asarray(x0), method=method)
        np.testing.assert_array_equal(np.asarray(rb.x[i]), np.asarray(r.x))
        for key in ("status", "nit", "nfev", "njev"):
            assert int(rb[key][i]) == int(r[key])
    As = snp.asarray(x0s)
    xa = sciax.vmap(lambda a: minimize(quad, snp.zeros(2), args=(a,),
                                       method=method).x)(As)
    for i in range(len(x0s)):
        xi = minimize(quad, snp.zeros(2), args=(As[i],), method=method).x
        np.testing.assert_array_equal(np.asarray(xa[i]), np.asarray(xi))


def test_batched_form_off_the_cpu_equals_a_loop(monkeypatch):
    # On other backends vmap runs BFGS's batched form (the line search's first
    # trial before its loop, no cond): the same searches as single solves.
    monkeypatch.setattr(sciax, "default_backend", lambda: "gpu")
    _vmap_equals_loop(8)


@pytest.mark.slow
def test_vmap_over_starting_points_equals_a_loop():
    _vmap_equals_loop(50)


@pytest.mark.slow
def test_vmap_over_1000_starting_points_equals_a_loop():
    _vmap_equals_loop(1000)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["CG", "Newton-CG", "L-BFGS-B"])
def test_vmap_equals_a_loop_for_other_line_search_methods(method):
    # Stopped lanes idle on a zero gradient (CG, Newton-CG); L-BFGS-B's
    # hess_inv operator is rebuilt by vmap around placeholders.
    _vmap_equals_loop(20, method)


@pytest.mark.slow
def test_jit_vmap_args_and_eager_cache():
    traces = []

    def f(x, a):
        traces.append(1)
        return quad(x, a)

    a = snp.array([0.5, -1.0])
    r1 = minimize(f, snp.zeros(2), args=(a,))
    n = len(traces)
    r2 = minimize(f, snp.ones(2), args=(a + 1.0,))
    assert len(traces) == n  # same function and shapes: no retrace
    assert not np.allclose(np.asarray(r1.x), np.asarray(r2.x))
    xj = sciax.jit(lambda a: minimize(quad, snp.zeros(2), args=(a,)).x)(a)
    np.testing.assert_allclose(np.asarray(xj), np.asarray(r1.x), atol=1e-12)
    As = snp.stack([a, a + 1.0])
    xs = sciax.vmap(lambda a: minimize(quad, snp.zeros(2), args=(a,)).x)(As)
    r3 = minimize(quad, snp.zeros(2), args=(a + 1.0,))  # same start as the lane
    np.testing.assert_allclose(np.asarray(xs[1]), np.asarray(r3.x), atol=1e-8)


@pytest.mark.slow
def test_callback_and_disp_eager_and_under_jit(capsys):
    seen = []
    def cb(intermediate_result):
        seen.append(float(intermediate_result.fun))
    r = minimize(rosen, snp.array([-1.2, 1.0]), callback=cb)
    assert len(seen) == int(r.nit) and seen[-1] == pytest.approx(float(r.fun))
    seen.clear()
    sciax.jit(lambda x0: minimize(rosen, x0, callback=cb).x)(snp.array([-1.2, 1.0]))
    assert len(seen) == int(r.nit)
    minimize(rosen, snp.array([-1.2, 1.0]), options={"disp": True})
    out = capsys.readouterr().out
    assert "Optimization terminated successfully." in out and "Iterations" in out


@pytest.mark.slow
def test_method_objects_registry_and_show_options():
    r = minimize(rosen, snp.array([-1.2, 1.0]), method=sopt.BFGSMinimizer(gtol=1e-3))
    assert r.success and float(r.fun) < 1e-4
    r2 = minimize(rosen, snp.array([-1.2, 1.0]), method="bfgs", options={"gtol": 1e-3})
    assert int(r2.nit) == int(r.nit)
    assert "maxcor" in sopt.show_options("minimize", "L-BFGS-B", disp=False)


@pytest.mark.slow
def test_line_search_satisfies_strong_wolfe():
    x = snp.array([-1.2, 1.0])
    p = -sopt.rosen_der(x)
    alpha, fc, gc, fnew, fold, slope = sopt.line_search(rosen, sopt.rosen_der, x, p)
    g0p = float(sopt.rosen_der(x) @ p)
    assert float(fnew) <= float(fold) + 1e-4 * alpha * g0p
    assert abs(float(slope)) <= 0.9 * abs(g0p)
    ref = so.line_search(so.rosen, so.rosen_der, np.asarray(x), np.asarray(p))
    assert ref[0] is not None


@pytest.mark.slow
def test_helpers_match_scipy():
    x = np.array([0.3, -0.7, 1.1, 0.5])
    np.testing.assert_allclose(np.asarray(sopt.rosen(snp.asarray(x))), so.rosen(x))
    np.testing.assert_allclose(np.asarray(sopt.rosen_der(snp.asarray(x))),
                               so.rosen_der(x))
    np.testing.assert_allclose(np.asarray(sopt.rosen_hess(snp.asarray(x))),
                               so.rosen_hess(x))
    p = np.array([1.0, 2.0, -1.0, 0.5])
    np.testing.assert_allclose(np.asarray(sopt.rosen_hess_prod(snp.asarray(x),
                                                               snp.asarray(p))),
                               so.rosen_hess_prod(x, p))
    fd = sopt.approx_fprime(snp.asarray(x), sopt.rosen)
    np.testing.assert_allclose(np.asarray(fd),
                               so.approx_fprime(x, so.rosen), rtol=1e-6)
    assert float(sopt.check_grad(sopt.rosen, sopt.rosen_der, snp.asarray(x))) < 1e-4
    for ours, theirs in ((sopt.BFGS(), so.BFGS()), (sopt.SR1(), so.SR1())):
        for kind in ("hess", "inv_hess"):
            ours.initialize(2, kind)
            theirs.initialize(2, kind)
            for s, y in (([1.0, 0.2], [2.0, 0.1]), ([0.1, 1.0], [0.3, 3.0])):
                ours.update(snp.array(s), snp.array(y))
                theirs.update(np.array(s), np.array(y))
            np.testing.assert_allclose(np.asarray(ours.get_matrix()),
                                       theirs.get_matrix(), rtol=1e-12)


@pytest.mark.slow
def test_nelder_mead_with_bounds_and_limits_matches_scipy():
    for x0, b, opts in (([-1.2, 1.0], [(-2, 0.5), (-2, 2)], None),
                        ([-1.2, 1.0], None, {"maxiter": 20})):
        r = minimize(rosen, snp.array(x0), method="Nelder-Mead", bounds=b, options=opts)
        s = so.minimize(so.rosen, x0, method="Nelder-Mead", bounds=b, options=opts)
        np.testing.assert_allclose(np.asarray(r.x), s.x, atol=1e-8)
        assert (int(r.nit), int(r.nfev), int(r.status)) == (s.nit, s.nfev, s.status)
        assert r.message == s.message


def test_float32_line_search_limits_stay_in_range():
    # the searches' 1e-100 / 1e100 step limits are held within float32's range:
    # no overflow-on-cast warning, and the minimum is found in float32
    with sciax.enable_x64(False), warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        r = minimize(rosen, snp.asarray([-1.2, 1.0], "float32"), method="BFGS")
    assert r.x.dtype == np.float32 and int(r.status) == 0
    np.testing.assert_allclose(np.asarray(r.x), [1.0, 1.0], atol=1e-3)


def test_newton_cg_stops_as_scipy():
    # Newton-CG words its failures as SciPy's does ("Warning: ..."), stops with
    # status 3 before the line search when the inner CG runs all 20 n
    # iterations, counts no iteration for a failed step, and ends with success
    # at an exact stationary point (g = 0) instead of a failed search along 0.
    # hessp below is not symmetric (positive curvature p.Ap = |p|^2, but CG's
    # residuals never vanish), so CG exhausts its iterations.
    A = np.array([[1.0, 10.0], [-10.0, 1.0]])
    x0 = np.array([3.0, -2.0])
    r = minimize(lambda x: snp.sum(x ** 2), snp.asarray(x0), method="Newton-CG",
                 hessp=lambda x, p: snp.asarray(A) @ p)
    s = so.minimize(lambda x: np.sum(x ** 2), x0, jac=lambda x: 2 * x,
                    hessp=lambda x, p: A @ p, method="Newton-CG")
    assert (int(r.status), r.message, int(r.nit), int(r.nhev)) == (
        s.status, s.message, s.nit, s.nhev)
    np.testing.assert_array_equal(np.asarray(r.x), x0)
    r = minimize(rosen, snp.array([-1.2, 1.0]), method="Newton-CG",
                 options={"maxiter": 3})
    s = so.minimize(so.rosen, [-1.2, 1.0], jac=so.rosen_der, hess=so.rosen_hess,
                    method="Newton-CG", options={"maxiter": 3})
    assert (int(r.status), r.message, int(r.nit)) == (s.status, s.message, s.nit)
    # xtol = 1e-30 ends only on a zero update: x reaches the minimiser of this
    # quartic exactly, g = 0 there, and both report success
    f = lambda x, m: m.sum(x ** 4) + 1e-3 * m.sum(x)  # noqa: E731
    x0 = np.array([1.0, -2.0, 0.5])
    r = minimize(lambda x: f(x, snp), snp.asarray(x0), method="Newton-CG",
                 options={"xtol": 1e-30})
    s = so.minimize(lambda x: f(x, np), x0, jac=lambda x: 4 * x ** 3 + 1e-3,
                    hess=lambda x: np.diag(12 * x ** 2), method="Newton-CG",
                    options={"xtol": 1e-30})
    assert (int(r.status), r.message) == (s.status, s.message) and r.success
    np.testing.assert_allclose(np.asarray(r.x), s.x, rtol=1e-12)
