"""differential_evolution and basinhopping against scipy.optimize.

Each call compiles one program (about 1 s for differential evolution, 5-10 s
with a local minimiser inside: polishing or basin-hopping), so most tests are
marked slow; the default run keeps one of each kind.

The random streams differ from SciPy's (sciax.random keys, not NumPy's
generator), so the tests compare what does not depend on them: the global
minimum found, and (averaged over seeds) how many generations a strategy
needs.  Determinism is exact: the same seed gives the same result eagerly, under
``jit`` and in each lane of ``vmap``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
import sciax.random as sr
from sciax.optimize import (Bounds, LinearConstraint, NonlinearConstraint, basinhopping,
                            differential_evolution, rosen)

SLOW = pytest.mark.slow
STRATEGIES = ["best1bin", "best1exp", "rand1bin", "rand1exp", "rand2bin", "rand2exp",
              "best2bin", "best2exp", "currenttobest1bin", "currenttobest1exp",
              "randtobest1bin", "randtobest1exp"]


def sphere(x):
    return snp.sum((x - 0.3) ** 2)


def rastrigin(x, c):
    y = x - c
    return 10.0 * y.shape[0] + snp.sum(y ** 2 - 10.0 * snp.cos(2 * snp.pi * y))


def ackley(x):
    a = -20.0 * snp.exp(-0.2 * snp.sqrt(0.5 * snp.sum(x ** 2)))
    return a - snp.exp(0.5 * snp.sum(snp.cos(2 * snp.pi * x))) + snp.e + 20.0


def eggholder(x):
    return (-(x[1] + 47) * snp.sin(snp.sqrt(snp.abs(x[0] / 2 + (x[1] + 47))))
            - x[0] * snp.sin(snp.sqrt(snp.abs(x[0] - (x[1] + 47)))))


def eggholder_np(x):
    return (-(x[1] + 47) * np.sin(np.sqrt(abs(x[0] / 2 + (x[1] + 47))))
            - x[0] * np.sin(np.sqrt(abs(x[0] - (x[1] + 47)))))


def a(v):
    return np.asarray(v)


# --- differential evolution: minima ---------------------------------------------------


@SLOW
def test_de_rosenbrock_2d():
    r = differential_evolution(rosen, [(0, 2), (0, 2)], seed=0, polish=False)
    s = so.differential_evolution(so.rosen, [(0, 2), (0, 2)], rng=0, polish=False)
    # Convergence means std(E) <= 0.01 |mean(E)| with E -> 0: the whole
    # population collapses onto the minimum (1, 1), as SciPy's does.
    np.testing.assert_allclose(a(r.x), [1.0, 1.0], atol=1e-6)
    np.testing.assert_allclose(a(r.x), s.x, atol=1e-6)
    assert r.success and r.message == "Optimization terminated successfully."
    assert int(r.nfev) == (int(r.nit) + 1) * 30  # S = 15 * 2 per generation, + init
    assert a(r.population).shape == (30, 2) and a(r.population_energies).shape == (30,)
    assert float(r.fun) == float(a(r.population_energies)[0]) == float(rosen(r.x))


@SLOW
def test_de_rosenbrock_5d_polished_matches_scipy():
    r = differential_evolution(rosen, [(0, 2)] * 5, seed=1)
    s = so.differential_evolution(so.rosen, [(0, 2)] * 5, rng=1)
    np.testing.assert_allclose(a(r.x), np.ones(5), atol=1e-7)
    np.testing.assert_allclose(a(r.x), s.x, atol=1e-7)
    assert float(r.fun) < 1e-12 and r.success
    np.testing.assert_allclose(a(r.jac), a(sciax.grad(rosen)(r.x)), atol=1e-12)


@SLOW
def test_de_ackley_2d():
    r = differential_evolution(ackley, [(-5, 5), (-5, 5)], seed=3, polish=False)
    np.testing.assert_allclose(a(r.x), [0.0, 0.0], atol=1e-7)
    assert float(r.fun) < 1e-6 and r.success


def test_de_rastrigin_2d_global_minimum():
    c = snp.zeros(2)
    r = differential_evolution(rastrigin, [(-5.12, 5.12)] * 2, args=(c,), seed=1,
                               polish=False)
    np.testing.assert_allclose(a(r.x), [0.0, 0.0], atol=1e-6)
    assert float(r.fun) < 1e-9


@SLOW
def test_de_eggholder_same_global_minimum_as_scipy():
    # Eggholder's global minimum -959.6407 at (512, 404.2318) sits on the
    # boundary among many deep local minima; with the default popsize both
    # SciPy and sciax often stop in one of them (the same ones: -956.918,
    # -935.338, -894.579...).  A larger population and the best of 4 seeds
    # finds it for both.
    bounds = [(-512, 512), (-512, 512)]
    keys = sr.split(sr.PRNGKey(0), 4)
    r = sciax.vmap(lambda k: differential_evolution(eggholder, bounds, seed=k,
                                                    popsize=40, tol=1e-3))(keys)
    best = int(np.argmin(a(r.fun)))
    s = min((so.differential_evolution(eggholder_np, bounds, rng=i, popsize=40,
                                       tol=1e-3) for i in range(4)),
            key=lambda s: s.fun)
    np.testing.assert_allclose(float(a(r.fun)[best]), s.fun, rtol=1e-9)
    np.testing.assert_allclose(a(r.x)[best], s.x, atol=1e-5)
    np.testing.assert_allclose(s.fun, -959.6406627, atol=1e-6)


# --- differential evolution: strategies --------------------------------------------


@pytest.mark.parametrize("strategy", [
    s if s == "best1bin" else pytest.param(s, marks=SLOW)
    for s in STRATEGIES])
def test_de_each_strategy_converges(strategy):
    r = differential_evolution(sphere, [(-2, 2)] * 3, strategy=strategy, seed=0,
                               polish=False)
    np.testing.assert_allclose(a(r.x), [0.3] * 3, atol=1e-6)
    assert r.success


@SLOW
@pytest.mark.parametrize("strategy", ["best1bin", "rand1exp", "rand2bin",
                                      "currenttobest1exp", "randtobest1bin"])
def test_de_generations_match_scipy_on_average(strategy):
    # Same algorithm, different random numbers: the number of generations to
    # converge is a random variable with the same law.  Over 8 seeds its mean
    # has a relative spread of ~2% (nit's own is ~6%): allow 12%.
    keys = sr.split(sr.PRNGKey(7), 8)
    nit = sciax.vmap(lambda k: differential_evolution(
        sphere, [(-2, 2)] * 3, strategy=strategy, seed=k, polish=False).nit)(keys)
    ref = [so.differential_evolution(lambda x: np.sum((x - 0.3) ** 2), [(-2, 2)] * 3,
                                     strategy=strategy, rng=i, polish=False,
                                     updating="deferred").nit for i in range(8)]
    assert abs(np.mean(a(nit)) / np.mean(ref) - 1) < 0.12


# --- differential evolution: transformations ----------------------------------------


def test_de_jit_equals_eager():
    c = snp.array([0.5, -0.3])
    kw = dict(args=(c,), seed=5, polish=False)
    eager = differential_evolution(rastrigin, [(-5.12, 5.12)] * 2, **kw)
    jitted = sciax.jit(lambda: differential_evolution(
        rastrigin, [(-5.12, 5.12)] * 2, **kw))()
    np.testing.assert_array_equal(a(jitted.x), a(eager.x))
    assert int(jitted.nit) == int(eager.nit) and int(jitted.nfev) == int(eager.nfev)
    np.testing.assert_array_equal(a(jitted.population), a(eager.population))
    assert jitted.message == eager.message


@SLOW
def test_de_vmap_over_args_equals_loop():
    cs = snp.array([[0.5, -0.3], [1.0, 1.0], [-2.0, 0.25]])
    kw = dict(seed=3, polish=False)
    bounds = [(-5.12, 5.12)] * 2
    rv = sciax.vmap(lambda c: differential_evolution(rastrigin, bounds, args=(c,),
                                                     **kw))(cs)
    for i in range(3):
        r = differential_evolution(rastrigin, bounds, args=(cs[i],), **kw)
        np.testing.assert_array_equal(a(rv.x)[i], a(r.x))
        assert int(a(rv.nit)[i]) == int(r.nit)
        assert rv.message[i] == r.message
    assert a(rv.success).shape == (3,)


def test_de_key_seed_and_int_seed():
    r1 = differential_evolution(sphere, [(-2, 2)] * 3, seed=4, polish=False)
    r2 = differential_evolution(sphere, [(-2, 2)] * 3, rng=sr.PRNGKey(4), polish=False)
    np.testing.assert_array_equal(a(r1.population), a(r2.population))
    # (after 2 generations: converged populations all sit at the minimum)
    r4 = differential_evolution(sphere, [(-2, 2)] * 3, seed=4, polish=False, maxiter=2)
    r5 = differential_evolution(sphere, [(-2, 2)] * 3, seed=5, polish=False, maxiter=2)
    assert not np.array_equal(a(r4.population), a(r5.population))
    # SciPy's other forms: a NumPy generator, or None (fresh entropy)
    for rng in (np.random.default_rng(0), None):
        r = differential_evolution(sphere, [(-2, 2)] * 3, rng=rng, polish=False)
        np.testing.assert_allclose(a(r.x), [0.3] * 3, atol=1e-6)


@SLOW
def test_de_disp_prints_each_generation(capsys):
    r = differential_evolution(sphere, [(-2, 2)] * 3, seed=0, maxiter=3, disp=True)
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [f"differential_evolution step {i}: f(x)= "
                       f"{float(v)}" for i, v in zip((1, 2, 3), out_values(out))]
    assert out[3] == "Polishing solution with 'L-BFGS-B'"
    assert "message: 'Maximum number of iterations has been exceeded.'" in repr(r)


def out_values(lines):
    return [float(line.rsplit(" ", 1)[1]) for line in lines[:3]]


# --- differential evolution: options ------------------------------------------------


def test_de_maxiter_message_and_counts():
    r = differential_evolution(sphere, [(-2, 2)] * 3, seed=0, polish=False,
                               maxiter=4)
    assert int(r.nit) == 4 and not r.success
    assert r.message == "Maximum number of iterations has been exceeded."
    assert int(r.nfev) == 5 * 45
    r0 = differential_evolution(sphere, [(-2, 2)] * 3, seed=0, polish=False,
                                maxiter=0)
    assert int(r0.nit) == 0 and int(r0.nfev) == 45 and not r0.success


@SLOW
@pytest.mark.parametrize("init", ["random", "halton", "sobol"])
def test_de_inits(init):
    r = differential_evolution(sphere, [(-2, 2)] * 3, init=init, seed=0,
                               polish=False)
    np.testing.assert_allclose(a(r.x), [0.3] * 3, atol=1e-6)
    # sobol rounds 15 * 3 up to a power of two, as SciPy
    assert a(r.population).shape == ((64, 3) if init == "sobol" else (45, 3))


@pytest.mark.parametrize("d", [1, 2, 7, 21])
def test_sobol_points_match_scipy(d):
    from scipy.stats import qmc

    from sciax.optimize._global import _sobol_points
    # the first 2**m points of a Sobol' sequence are the same set in any
    # (Gray code or natural) order: compare them as sets
    mine = _sobol_points(128, d).astype(np.float64) / 2 ** 32
    ref = qmc.Sobol(d, scramble=False).random(128)
    assert set(map(tuple, mine)) == set(map(tuple, ref))


@SLOW
def test_de_init_array_and_x0():
    rng = np.random.default_rng(0)
    pop = rng.uniform(-3, 3, size=(12, 3))  # clipped to the bounds, as SciPy
    r = differential_evolution(sphere, [(-2, 2)] * 3, init=pop, seed=0, polish=False,
                               maxiter=0, x0=[0.3, 0.3, 0.3])
    P = a(r.population)
    assert P.shape == (12, 3) and P.min() >= -2 and P.max() <= 2
    # x0 replaced member 0 and, being the minimum, stays the best
    np.testing.assert_allclose(a(r.x), [0.3] * 3, atol=1e-15)
    assert float(r.fun) < 1e-30  # 0.3 is not exact in binary: scaled and back
    np.testing.assert_allclose(np.sort(a(r.population_energies)),
                               np.sort([float(sphere(snp.asarray(p))) for p in P]))


@SLOW
def test_de_callback_stops_early():
    seen = []

    def cb(intermediate_result):
        seen.append((intermediate_result.nit, float(intermediate_result.fun)))
        return intermediate_result.nit >= 3

    r = differential_evolution(sphere, [(-2, 2)] * 3, seed=0, polish=False,
                               callback=cb)
    assert int(r.nit) == 3 and [s[0] for s in seen] == [1, 2, 3]
    assert not r.success and r.message == "callback function requested stop early"

    def old_style(x, convergence):
        assert x.shape == (3,) and convergence >= 0
        raise StopIteration

    r = differential_evolution(sphere, [(-2, 2)] * 3, seed=0, polish=False,
                               callback=old_style)
    assert int(r.nit) == 1


@SLOW
def test_de_vectorized():
    def vsphere(x):  # x: (N, S)
        return snp.sum((x - 0.3) ** 2, axis=0)

    r = differential_evolution(vsphere, [(-2, 2)] * 3, seed=0, polish=False,
                               vectorized=True)
    s = differential_evolution(sphere, [(-2, 2)] * 3, seed=0, polish=False)
    np.testing.assert_allclose(a(r.population), a(s.population), atol=1e-14)
    assert int(r.nfev) == int(r.nit) + 1  # one call per generation, as SciPy


@SLOW
def test_de_integrality():
    # minimum of (x0 - 1.7)^2 + (x1 - 0.3)^2 with x0 integer: (2, 0.3)
    f = lambda x: (x[0] - 1.7) ** 2 + (x[1] - 0.3) ** 2  # noqa: E731
    r = differential_evolution(f, [(-3, 3), (-3, 3)], integrality=[True, False],
                               seed=0, polish=False)
    # unpolished: std(E) <= 0.01 * mean(E) ~ 1e-3 near E = 0.09 leaves the
    # continuous coordinate within ~sqrt(1e-3) of 0.3
    assert float(a(r.x)[0]) == 2.0
    np.testing.assert_allclose(a(r.x)[1], 0.3, atol=0.03)
    assert np.all(a(r.population)[:, 0] == np.round(a(r.population)[:, 0]))
    with pytest.raises(ValueError, match="integrality"):
        differential_evolution(f, [(0.2, 0.8), (0, 1)], integrality=[True, False])


@SLOW
def test_de_integrality_polish_keeps_integers():
    f = lambda x: (x[0] - 1.7) ** 2 + (x[1] - 0.3) ** 2  # noqa: E731
    r = differential_evolution(f, [(-3, 3), (-3, 3)], integrality=[True, False],
                               seed=0)
    s = so.differential_evolution(lambda x: (x[0] - 1.7) ** 2 + (x[1] - 0.3) ** 2,
                                  [(-3, 3), (-3, 3)], integrality=[True, False],
                                  rng=0)
    # L-BFGS-B stops at |projected gradient| = 2 |x1 - 0.3| <= 1e-5
    np.testing.assert_allclose(a(r.x), s.x, atol=5e-6)
    assert float(a(r.x)[0]) == 2.0


@SLOW
def test_de_equal_bounds_and_bounds_object():
    # a fixed coordinate does not count towards the population (SciPy's N_equal)
    b = [(-2, 2), (1.0, 1.0), (-2, 2)]
    r = differential_evolution(sphere, b, seed=0)
    s = so.differential_evolution(lambda x: np.sum((x - 0.3) ** 2), b, rng=0)
    assert a(r.population).shape == s.population.shape == (30, 3)
    np.testing.assert_allclose(a(r.x), s.x, atol=1e-5)  # polish's gtol 1e-5
    np.testing.assert_allclose(float(r.fun), 0.49, atol=1e-10)
    r = differential_evolution(sphere, Bounds([-2, -2], [2, 2]), seed=0, polish=False)
    np.testing.assert_allclose(a(r.x), [0.3, 0.3], atol=1e-6)


# --- differential evolution: errors -------------------------------------------------


@pytest.mark.parametrize("kw,exc,match", [
    (dict(bounds=[(0, 1, 2)]), ValueError, "bounds"),
    (dict(bounds=[(1, 0), (0, 1)]), ValueError, "lower bound"),
    (dict(bounds=[(0, np.inf)]), ValueError, "finite"),
    (dict(strategy="best3bin"), ValueError, "strategy"),
    (dict(popsize=0), ValueError, "popsize"),
    (dict(mutation=2.0), ValueError, "mutation"),
    (dict(mutation=(0.5, 2.5)), ValueError, "mutation"),
    (dict(mutation=-0.1), ValueError, "mutation"),
    (dict(init="nonsense"), ValueError, "initialization"),
    (dict(init=np.zeros((3, 2))), ValueError, "population"),
    (dict(x0=[5.0, 0.0]), ValueError, "outside"),
    (dict(x0=[0.0]), ValueError, "shape"),
    (dict(updating="sometimes"), ValueError, "updating"),
    (dict(seed=1, rng=2), ValueError, "both"),
    (dict(constraints=[object()]), ValueError, "constraints"),
    (dict(constraints={"type": "ineq", "fun": sphere}), ValueError, "dict"),
    (dict(constraints=LinearConstraint([[1.0, 1.0, 1.0]], 0, 1)), ValueError,
     "columns"),
    (dict(bounds=[(0, 1)] * 22, init="sobol"), NotImplementedError, "sobol"),
    (dict(strategy=lambda c, p, rng=None: p), ValueError, "shape"),
])
def test_de_errors(kw, exc, match):
    kw = {"bounds": [(0, 1), (0, 1)], **kw}
    with pytest.raises(exc, match=match):
        differential_evolution(sphere, **kw)


# --- differential evolution with constraints (Lampinen's rules, as SciPy) ----------


def _corner(x):
    return snp.sum((x - 0.8) ** 2)


def test_de_linear_and_bounds_constraints_reach_the_kkt_point():
    # min (x0-.8)^2 + (x1-.8)^2 on [0,1]^2 with x0 + x1 <= 1 and x0 <= 0.4: the
    # KKT point is (0.4, 0.6) (multipliers 0.4 and 0.4, both positive)
    cons = [LinearConstraint([[1.0, 1.0]], -np.inf, 1.0), Bounds([0.0, 0.0], [0.4, 1.0])]
    res = differential_evolution(_corner, [(0, 1), (0, 1)], constraints=cons, seed=3,
                                 tol=1e-10, polish=False, maxiter=2000)
    np.testing.assert_allclose(a(res.x), [0.4, 0.6], atol=2e-3)
    assert res.success and res.maxcv == 0.0 and res.constr_violation == 0.0
    assert [c.shape for c in res.constr] == [(1,), (2,)]
    # every member of the final population is feasible, with a finite energy
    P = a(res.population)
    assert np.all(P.sum(1) <= 1 + 1e-12) and np.all(P[:, 0] <= 0.4 + 1e-12)
    assert np.all(np.isfinite(a(res.population_energies)))


def test_de_infeasible_problem_reports_maxcv_as_scipy():
    # x0 + x1 >= 5 cannot hold on [0, 1]^2: the least infeasible point (1, 1)
    # violates it by 3; SciPy then reports fun = inf, success False and MAXCV
    nlc = NonlinearConstraint(lambda x: x[0] + x[1], 5.0, np.inf)
    res = differential_evolution(sphere, [(0, 1), (0, 1)], constraints=nlc, seed=1,
                                 polish=False, maxiter=200)
    ref = so.differential_evolution(
        lambda x: np.sum((x - 0.3) ** 2), [(0, 1), (0, 1)], polish=False, rng=1,
        maxiter=200, constraints=so.NonlinearConstraint(lambda x: x[0] + x[1], 5.0,
                                                        np.inf))
    assert ref.maxcv == pytest.approx(3.0, abs=1e-6)
    assert float(res.maxcv) == pytest.approx(ref.maxcv, abs=1e-6)
    assert np.isinf(float(res.fun)) and np.isinf(ref.fun)
    assert not res.success and not ref.success
    assert res.message.startswith("The solution does not satisfy the constraints, MAXCV")
    # no member was ever feasible, so no evaluation was counted
    assert int(res.nfev) == 0


@SLOW
def test_de_constrained_rosenbrock_matches_scipy():
    # SciPy's docstring example: Rosenbrock with x0^2 + x1 <= 1.9, polished by
    # trust-constr from the best feasible member
    nlc = NonlinearConstraint(lambda x: x[0] ** 2 + x[1], -np.inf, 1.9)
    res = differential_evolution(rosen, [(0, 2), (0, 2)], constraints=(nlc,), seed=1)
    ref = so.differential_evolution(
        so.rosen, [(0, 2), (0, 2)], rng=1,
        constraints=(so.NonlinearConstraint(lambda x: x[0] ** 2 + x[1], -np.inf, 1.9),))
    np.testing.assert_allclose(a(res.x), ref.x, atol=1e-4)
    assert float(res.fun) <= ref.fun * (1 + 1e-3)
    assert res.success and ref.success and float(res.maxcv) <= 1e-12
    assert a(res.x)[0] ** 2 + a(res.x)[1] <= 1.9 + 1e-8
    np.testing.assert_allclose(a(res.jac), a(sciax.grad(rosen)(res.x)), rtol=1e-12)


@SLOW
def test_de_constraints_vectorized_and_vmap():
    # vectorized: func and the constraint take x of shape (N, S)
    def fv(X):
        return snp.sum((X - 0.8) ** 2, axis=0)
    nlc = NonlinearConstraint(lambda X: X[:1] + X[1:], -np.inf, 1.0)  # (1, S)
    res = differential_evolution(fv, [(0, 1), (0, 1)], constraints=nlc, seed=5,
                                 vectorized=True, polish=False, tol=1e-10,
                                 maxiter=2000)
    np.testing.assert_allclose(a(res.x), [0.5, 0.5], atol=2e-3)
    assert res.success
    with pytest.raises(ValueError, match="shape"):  # (S,), not (M, S): as SciPy
        differential_evolution(fv, [(0, 1), (0, 1)], vectorized=True, polish=False,
                               constraints=NonlinearConstraint(
                                   lambda X: X[0] + X[1], -np.inf, 1.0))

    # vmap over the constraint's right-hand side through args-free closures:
    # batch over the objective's centre instead, equal to a loop
    def f(x, c):
        return snp.sum((x - c) ** 2)
    lin = LinearConstraint([[1.0, 1.0]], -np.inf, 1.0)
    cs = snp.array([0.8, 0.9, 0.2])

    def one(c):
        return differential_evolution(f, [(0, 1), (0, 1)], args=(c,), constraints=lin,
                                      seed=4, polish=False, maxiter=300)
    batched = sciax.vmap(one)(cs)
    for i, c in enumerate(np.asarray(cs)):
        r = one(float(c))
        np.testing.assert_array_equal(a(batched.x)[i], a(r.x))
        assert int(a(batched.nit)[i]) == int(r.nit)
        assert int(a(batched.nfev)[i]) == int(r.nfev)


def test_de_callable_strategy():
    # rand/1 without crossover, written with sciax.random (rng is a key)
    def rand1(candidate, population, rng=None):
        i = sr.choice(rng, population.shape[0], (3,), replace=False)
        return population[i[0]] + 0.6 * (population[i[1]] - population[i[2]])

    res = differential_evolution(sphere, [(-1, 1), (-1, 1)], strategy=rand1, seed=2,
                                 polish=False, tol=1e-8, maxiter=500)
    np.testing.assert_allclose(a(res.x), [0.3, 0.3], atol=1e-3)
    assert res.success
    # the strategy sees the population in the user's units and its own index
    seen = []

    def spy(candidate, population, rng=None):
        seen.append((tuple(candidate.shape), tuple(population.shape)))
        return population[candidate]
    differential_evolution(sphere, [(-1, 1), (-1, 1)], strategy=spy, seed=2,
                           polish=False, maxiter=1)
    assert seen[0] == ((), (30, 2))


# --- basin-hopping ----------------------------------------------------------------


def func1d(x):
    return snp.cos(14.5 * x[0] - 0.3) + (x[0] + 0.2) * x[0]


def func2d(x):
    f = snp.cos(14.5 * x[0] - 0.3) + (x[1] + 0.2) * x[1] + (x[0] + 0.2) * x[0]
    df = snp.stack([-14.5 * snp.sin(14.5 * x[0] - 0.3) + 2. * x[0] + 0.2,
                    2. * x[1] + 0.2])
    return f, df


@SLOW
def test_bh_scipy_1d_example():
    r = basinhopping(func1d, [1.0], minimizer_kwargs={"method": "BFGS"}, niter=200,
                     seed=1)
    s = so.basinhopping(lambda x: np.cos(14.5 * x[0] - 0.3) + (x[0] + 0.2) * x[0],
                        [1.0], minimizer_kwargs={"method": "BFGS"}, niter=200, rng=1)
    np.testing.assert_allclose(a(r.x), s.x, atol=1e-6)
    np.testing.assert_allclose(float(r.fun), s.fun, rtol=1e-10)
    np.testing.assert_allclose(a(r.x), [-0.19506755], atol=1e-6)
    assert r.success and int(r.nit) == 200
    assert r.message == ["requested number of basinhopping iterations completed "
                         "successfully"]
    low = r.lowest_optimization_result
    assert float(low.fun) == float(r.fun) and low.success
    assert int(r.nfev) > 200 and int(r.minimization_failures) >= 0


@SLOW
def test_bh_scipy_2d_example():
    mk = {"method": "L-BFGS-B", "jac": True}
    r = basinhopping(func2d, [1.0, 1.0], minimizer_kwargs=mk, niter=200, seed=2)

    def f2(x):
        return (np.cos(14.5 * x[0] - 0.3) + (x[1] + 0.2) * x[1] + (x[0] + 0.2) * x[0],
                np.array([-14.5 * np.sin(14.5 * x[0] - 0.3) + 2. * x[0] + 0.2,
                          2. * x[1] + 0.2]))

    s = so.basinhopping(f2, [1.0, 1.0], minimizer_kwargs=mk, niter=200, rng=2)
    np.testing.assert_allclose(a(r.x), s.x, atol=1e-5)
    np.testing.assert_allclose(float(r.fun), s.fun, rtol=1e-9)
    np.testing.assert_allclose(a(r.x), [-0.1951, -0.1], atol=1e-4)


@SLOW
def test_bh_jit_and_vmap_equal_eager():
    kw = dict(minimizer_kwargs={"method": "BFGS"}, niter=30, seed=3)
    eager = basinhopping(func1d, [1.0], **kw)
    jitted = sciax.jit(lambda x0: basinhopping(func1d, x0, **kw))(snp.array([1.0]))
    # The same accepted hops and counters; x to rounding, not bitwise: eager runs
    # its own compiled programs, and LLVM forms multiply-adds differently at other
    # optimisation levels (5.6e-17 apart at -O0, CI's slow step).
    np.testing.assert_allclose(a(jitted.x), a(eager.x), rtol=1e-14)
    assert int(jitted.nfev) == int(eager.nfev)
    x0s = snp.array([[1.0], [-0.5], [0.3]])
    rv = sciax.vmap(lambda x0: basinhopping(func1d, x0, **kw))(x0s)
    for i in range(3):
        r = basinhopping(func1d, x0s[i], **kw)
        np.testing.assert_allclose(a(rv.x)[i], a(r.x), rtol=1e-14)
        assert int(a(rv.nfev)[i]) == int(r.nfev)
        assert rv.message[i] == r.message


def shifted1d(x, c):
    return func1d(x - c)


@SLOW
def test_bh_vmap_over_args_equals_loop():
    cs = snp.array([0.0, 0.7, -1.3])
    kw = dict(niter=25, seed=4)
    rv = sciax.vmap(lambda c: basinhopping(shifted1d, [1.0],
                                           minimizer_kwargs={"args": (c,)}, **kw))(cs)
    for i in range(3):
        r = basinhopping(shifted1d, [1.0], minimizer_kwargs={"args": (cs[i],)}, **kw)
        # Same iterates and counters lane by lane; x to rounding, not bitwise: the
        # batched and the single program are compiled separately, and XLA's CPU
        # backend compiles a small while loop as one kernel (config
        # cpu_loop_kernel_bytes) with its own order of operations (1 ulp seen).
        np.testing.assert_allclose(a(rv.x)[i], a(r.x), rtol=1e-14)
        assert int(a(rv.nit)[i]) == int(r.nit) and int(a(rv.njev)[i]) == int(r.njev)
    # each lane found its shifted copy of the global minimum -0.1951 (f -1.0009)
    np.testing.assert_allclose(a(rv.x)[:, 0] - a(cs), -0.19506755, atol=1e-6)


@SLOW
def test_bh_python_callables_and_stops():
    mk = {"method": "BFGS"}
    seen, steps = [], []

    def cb(x, f, accept):
        seen.append(float(f))
        return len(seen) >= 6

    class Step:  # has a stepsize: basinhopping adapts it
        stepsize = 0.5

        def __call__(self, x):
            steps.append(self.stepsize)
            return x + np.random.default_rng(len(steps)).uniform(
                -self.stepsize, self.stepsize, x.shape)

    tests = []

    def accept(f_new, x_new, f_old, x_old):
        tests.append(f_new)
        return "force accept" if f_new < f_old else True

    r = basinhopping(func1d, [1.0], minimizer_kwargs=mk, niter=50, seed=0,
                     callback=cb, take_step=Step(), accept_test=accept, interval=2)
    # the first callback reports the starting minimisation; the sixth stops
    assert len(seen) == 6 and int(r.nit) == 5 and len(tests) == 5
    assert r.message == ["callback function requested stop early byreturning True"]
    assert len(steps) == 5 and steps[0] == 0.5 and steps[1] != 0.5  # adapted at 2
    # no improvement for niter_success steps ends the run
    r = basinhopping(func1d, [1.0], minimizer_kwargs=mk, niter=200, seed=0,
                     niter_success=3)
    assert int(r.nit) < 200 and r.message == ["success condition satisfied"]


@SLOW
def test_bh_with_constrained_local_minimizer_matches_scipy():
    # SLSQP as the local method, with x0 >= -0.1 cutting off the global minimum
    f = lambda x: snp.cos(14.5 * x[0] - 0.3) + (x[0] + 0.2) * x[0] + x[1] ** 2  # noqa
    mk = {"method": "SLSQP", "constraints": {"type": "ineq",
                                             "fun": lambda x: x[0] + 0.1}}
    r = basinhopping(f, [1.0, 0.5], niter=20, seed=0, minimizer_kwargs=mk)
    s = so.basinhopping(
        lambda x: np.cos(14.5 * x[0] - 0.3) + (x[0] + 0.2) * x[0] + x[1] ** 2,
        [1.0, 0.5], niter=20, rng=0,
        minimizer_kwargs={"method": "SLSQP",
                          "constraints": {"type": "ineq", "fun": lambda x: x[0] + 0.1}})
    # both stop at SLSQP's ftol 1e-6 on f; x within sqrt(1e-6 / f'') ~ 1e-4
    np.testing.assert_allclose(float(r.fun), s.fun, atol=1e-6)
    np.testing.assert_allclose(a(r.x), s.x, atol=1e-4)
    assert r.success


def test_bh_errors():
    for kw, exc in [(dict(target_accept_rate=1.0), ValueError),
                    (dict(stepwise_factor=0.0), ValueError),
                    (dict(take_step=3), TypeError), (dict(accept_test="x"), TypeError),
                    (dict(niter=-1), ValueError), (dict(interval=0), ValueError),
                    (dict(seed=1, rng=1), ValueError)]:
        with pytest.raises(exc):
            basinhopping(func1d, [1.0], **kw)
