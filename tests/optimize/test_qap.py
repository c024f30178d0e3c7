"""quadratic_assignment against scipy.optimize.quadratic_assignment and brute force.

Both methods follow SciPy's iterations and draw their random starts from the
same NumPy generator, so from the same seed they return SciPy's ``col_ind``,
``fun`` and ``nit`` exactly (random float instances: no ties in the linear
assignments, whose tie-breaking differs).  2-opt compares full scores summed
in another order than NumPy's, so where two permutations' scores agree to the
last bits one implementation may take one more swap: the random sweep allows
that and checks ``fun`` to 1e-14 then.  Brute force over all ``n!``
permutations (``n <= 7``) bounds both heuristics and checks that a full
``partial_match`` returns the optimum.

QAPLIB's chr12c (the instance of SciPy's tests, optimum 11156) is the
representative default-run case; one FAQ program compiles in ~2 s of CPU.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import OptimizeWarning, quadratic_assignment

SLOW = pytest.mark.slow


def chr12c():
    """QAPLIB chr12c (Christofides and Benavent 1989), as in SciPy's tests."""
    A = np.zeros((12, 12), int)
    for i, j, v in [(0, 1, 90), (0, 2, 10), (1, 3, 23), (2, 4, 43), (3, 5, 88),
                    (4, 6, 26), (5, 7, 16), (6, 8, 1), (7, 9, 96), (8, 10, 29),
                    (9, 11, 37)]:
        A[i, j] = A[j, i] = v
    up = [36, 54, 26, 59, 72, 9, 34, 79, 17, 46, 95, 73, 35, 90, 58, 30, 78, 35, 44,
          79, 36, 21, 10, 97, 58, 66, 69, 61, 54, 63, 93, 12, 46, 40, 37, 48, 68, 85,
          64, 5, 29, 76, 16, 5, 76, 96, 55, 38, 54, 0, 34, 83, 35, 11, 56, 37, 44, 12,
          15, 80, 64, 39, 33, 70, 86, 18]
    B = np.zeros((12, 12), int)
    B[np.triu_indices(12, 1)] = up
    B = B + B.T
    opt = np.array([7, 5, 1, 3, 10, 4, 8, 6, 9, 11, 2, 12]) - 1
    return A, B, opt


def _score(A, B, perm):
    return np.sum(A * B[perm][:, perm])


def _same(r, s, *, exact=True):
    assert np.array_equal(np.asarray(r.col_ind), s.col_ind)
    assert int(r.nit) == s.nit
    if exact:
        assert r.fun == s.fun
    else:
        np.testing.assert_allclose(float(r.fun), s.fun, rtol=1e-14)


def test_chr12c_faq_as_scipy():
    """SciPy's accuracy test on chr12c from the barycenter, and its maxiter
    test (one compiled program: maxiter is an operand)."""
    A, B, opt = chr12c()
    assert _score(A, B, opt) == 11156
    r = quadratic_assignment(A, B)
    _same(r, so.quadratic_assignment(A, B))
    assert int(r.fun) == _score(A, B, np.asarray(r.col_ind))
    assert 11156 <= int(r.fun) < 21000
    r = quadratic_assignment(A, B, options={"maxiter": 5})
    assert int(r.nit) == 5


def test_two_opt_as_scipy_umeyama():
    """SciPy's Umeyama IIIB test: 2-opt from SciPy's seed reaches the global
    optimum 176 (FAQ: 178), the same swaps as SciPy."""
    A = np.array([[0, 5, 8, 6], [5, 0, 5, 1], [8, 5, 0, 2], [6, 1, 2, 0]])
    B = np.array([[0, 1, 8, 4], [1, 0, 5, 2], [8, 5, 0, 5], [4, 2, 5, 0]])
    seed = 4358764578823597324
    r = quadratic_assignment(A, B, "2opt", {"rng": np.random.default_rng(seed)})
    s = so.quadratic_assignment(A, B, "2opt", {"rng": np.random.default_rng(seed)})
    _same(r, s)
    best = min(_score(A, B, np.array(p)) for p in itertools.permutations(range(4)))
    assert int(r.fun) == best == 176


@pytest.mark.parametrize("A, B, opts, match", [
    (np.ones((3, 4)), np.ones((3, 3)), {}, "`A` must be square"),
    (np.ones((3, 3)), np.ones((3, 4)), {}, "`B` must be square"),
    (np.ones((3, 3, 3)), np.ones((3, 3, 3)), {}, "`A` and `B` must have exactly two"),
    (np.ones((3, 3)), np.ones((4, 4)), {}, "`A` and `B` matrices must be of equal"),
    (np.eye(3), np.eye(3), {"partial_match": np.zeros((5, 2))},
     "`partial_match` can have only as many seeds as"),
    (np.eye(3), np.eye(3), {"partial_match": np.zeros((2, 3))},
     "`partial_match` must have two columns"),
    (np.eye(3), np.eye(3), {"partial_match": -np.ones((2, 2))},
     "`partial_match` must contain only pos"),
    (np.eye(5), np.eye(5), {"partial_match": 5 * np.ones((2, 2))},
     "`partial_match` entries must be less than number"),
    (np.eye(3), np.eye(3), {"partial_match": np.ones((2, 2))},
     "`partial_match` column entries must be unique"),
    (np.eye(2), np.eye(2), {"P0": "random"}, "Invalid 'P0' parameter"),
    (np.eye(2), np.eye(2), {"maxiter": -1}, "'maxiter' must be a positive integer"),
    (np.eye(2), np.eye(2), {"tol": -1}, "'tol' must be a positive float"),
    (np.eye(4), np.eye(4), {"P0": np.ones((3, 3))}, "`P0` matrix must have shape"),
    (np.eye(3), np.eye(3), {"P0": [[0.4, 0.2, 0.3], [0.3, 0.6, 0.2],
                                   [0.2, 0.2, 0.7]]}, "must be doubly stochastic"),
])
def test_bad_input_as_scipy(A, B, opts, match):
    for qa in (quadratic_assignment, so.quadratic_assignment):
        with pytest.raises(ValueError, match=match):
            qa(A, B, options=opts)


def test_bad_input_more():
    with pytest.raises(TypeError):
        quadratic_assignment(np.eye(2), np.eye(2), options={"maxiter": 1.5})
    with pytest.raises(ValueError, match="`partial_guess` must have two columns"):
        quadratic_assignment(np.eye(3), np.eye(3), "2opt",
                             {"partial_guess": np.zeros((2, 3))})
    with pytest.raises(ValueError, match="method"):
        quadratic_assignment(np.eye(3), np.eye(3), "3opt")


# --- slow step: sweeps against SciPy, brute force, transforms ------------------------

@SLOW
@pytest.mark.parametrize("method", ["faq", "2opt"])
def test_random_instances_as_scipy(method):
    rng = np.random.default_rng(0)
    ties = 0
    for trial in range(24):
        n = int(rng.choice([4, 6, 8]))  # three shapes: three programs per option
        A, B = rng.random((n, n)), rng.random((n, n))
        for maximize in (False, True):
            opts = dict(maximize=maximize)
            r = quadratic_assignment(A, B, method,
                                     dict(opts, rng=np.random.default_rng(trial)))
            s = so.quadratic_assignment(A, B, method,
                                        dict(opts, rng=np.random.default_rng(trial)))
            if method == "2opt" and int(r.nit) != s.nit:
                # scores equal to the last bits: one more or one fewer swap
                ties += 1
                assert abs(int(r.nit) - s.nit) <= 1
                np.testing.assert_allclose(float(r.fun), s.fun, rtol=1e-14)
                continue
            _same(r, s, exact=False)
    assert ties <= 4


@SLOW
def test_chr12c_options_as_scipy():
    """chr12c with every option of SciPy's tests, from the same seeds."""
    A, B, opt = chr12c()
    seed_cost = np.array([4, 8, 10])
    match = np.asarray([seed_cost, opt[seed_cost]]).T
    K = np.full((12, 12), 1 / 12)
    cases = [("faq", {"maximize": True}),
             ("faq", {"partial_match": match}), ("faq", {"shuffle_input": True}),
             ("faq", {"P0": "randomized"}), ("faq", {"P0": K}),
             ("faq", {"tol": 1e-6, "maxiter": 100}),
             ("2opt", {}), ("2opt", {"maximize": True}),
             ("2opt", {"partial_match": match})]
    for method, opts in cases:
        r = quadratic_assignment(A, B, method, dict(opts, rng=np.random.default_rng(7)))
        s = so.quadratic_assignment(A, B, method,
                                    dict(opts, rng=np.random.default_rng(7)))
        _same(r, s)
        if "partial_match" in opts:
            assert np.array_equal(np.asarray(r.col_ind)[seed_cost], opt[seed_cost])
    full = np.asarray([np.arange(12), opt]).T
    for method in ("faq", "2opt"):
        r = quadratic_assignment(A, B, method, {"partial_match": full})
        assert np.array_equal(np.asarray(r.col_ind), opt)
        assert int(r.fun) == 11156 and int(r.nit) == 0
        r = quadratic_assignment(np.empty((0, 0)), np.empty((0, 0)), method)
        assert int(r.nit) == 0 and float(r.fun) == 0
    with pytest.warns(OptimizeWarning):
        quadratic_assignment(A, B, options={"ekki-ekki": True})


@SLOW
def test_brute_force_bounds_and_partial_guess():
    """Against all n! permutations (n <= 7): neither heuristic beats the
    optimum, 2-opt ends in a swap-local optimum, and 2-opt started at the
    optimum (partial_guess) stays there after trying each swap once."""
    rng = np.random.default_rng(3)
    for n in (4, 5, 6, 7):
        A = rng.integers(0, 10, (n, n))
        B = rng.integers(0, 10, (n, n))
        perms = np.array(list(itertools.permutations(range(n))))
        scores = np.array([_score(A, B, p) for p in perms])
        best = perms[np.argmin(scores)]
        for method in ("faq", "2opt"):
            r = quadratic_assignment(A, B, method, {"rng": 1})
            col = np.asarray(r.col_ind)
            assert int(r.fun) == _score(A, B, col) >= scores.min()
            assert sorted(col.tolist()) == list(range(n))
        col = np.asarray(r.col_ind)  # 2-opt: no single swap improves
        for i, j in itertools.combinations(range(n), 2):
            sw = col.copy()
            sw[[i, j]] = sw[[j, i]]
            assert _score(A, B, sw) >= int(r.fun)
        guess = np.asarray([np.arange(n), best]).T
        r = quadratic_assignment(A, B, "2opt", {"partial_guess": guess, "rng": 1})
        assert int(r.fun) == scores.min() and int(r.nit) == n * (n + 1) // 2
        fix = [0, 2]
        r = quadratic_assignment(A, B, "2opt", {"partial_guess": guess, "rng": 1,
                                                "partial_match": guess[fix]})
        assert int(r.nit) == (n - 2) * (n - 1) // 2


@SLOW
def test_jit_and_vmap_equal_scipy():
    rng = np.random.default_rng(5)
    As, Bs = rng.random((3, 6, 6)), rng.random((3, 6, 6))
    for method, opts in (("faq", {}), ("2opt", {"rng": 0})):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # SciPy's int-seed note
            ss = [so.quadratic_assignment(a, b, method, dict(opts)) for a, b in
                  zip(As, Bs)]
        res = sciax.vmap(lambda a, b: quadratic_assignment(a, b, method, dict(opts)))(
            snp.asarray(As), snp.asarray(Bs))
        jitted = sciax.jit(lambda a, b: quadratic_assignment(a, b, method, dict(opts)))
        for k, s in enumerate(ss):
            assert np.array_equal(np.asarray(res.col_ind)[k], s.col_ind)
            assert int(np.asarray(res.nit)[k]) == s.nit
            _same(jitted(As[k], Bs[k]), s, exact=False)
