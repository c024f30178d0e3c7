"""The quadratic assignment problem: ``quadratic_assignment``.

Minimise (or maximise) ``trace(A^T P B P^T)`` over permutation matrices
``P``, as :func:`scipy.optimize.quadratic_assignment` does it: 'faq' is the
Frank-Wolfe method of Vogelstein et al. (2015) on the doubly stochastic
relaxation (each direction a linear assignment, solved by this package's
``linear_sum_assignment`` core, each step an exact line search on the
quadratic), projected onto the permutations at the end; '2opt' is a local
search that swaps pairs of assignments while the objective improves.

Both iterate in one ``lax.while_loop`` (the assignments inside), so they run
under ``jit`` and ``vmap`` over ``A`` and ``B``.  The random choices (a
randomized start, shuffled input, 2-opt's initial permutation) are drawn on
the host from NumPy's generator as SciPy draws them, so a seed gives SciPy's
starting point.
"""

from __future__ import annotations

import itertools
import numbers
import operator
import warnings
from typing import Any

import numpy as np

import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import OptimizeResult, OptimizeWarning
from sciax.optimize._global import _cached_jit
from sciax.optimize._lsap import _lsap_core

_METHODS = ("faq", "2opt")


def quadratic_assignment(A: Any, B: Any, method: str = "faq",
                         options: dict | None = None) -> OptimizeResult:
    r"""sciax implementation of :func:`scipy.optimize.quadratic_assignment`.

    Approximate the quadratic assignment problem

    .. math:: \min_P \operatorname{trace}(A^T P B P^T)

    over permutation matrices :math:`P` (graph matching maximises it).

    Parameters
    ----------
    A, B : (n, n) array_like
        The square matrices (cost and distance, or two adjacency matrices).
    method : {'faq', '2opt'}, optional
        Fast Approximate QAP (Frank-Wolfe on the doubly stochastic matrices,
        default) or the 2-opt local search.
    options : dict, optional
        Both methods: ``maximize`` (bool), ``partial_match`` (``(m, 2)``
        pairs ``A`` node -> ``B`` node that are fixed), ``rng`` (``None``, an
        int seed or a NumPy ``Generator``/``RandomState``, as SciPy's
        ``check_random_state``).  'faq': ``P0`` ('barycenter', 'randomized'
        or a doubly stochastic ``(n - m, n - m)`` matrix), ``shuffle_input``
        (bool), ``maxiter`` (positive int, default 30), ``tol`` (positive,
        default 0.03: stop when ``||P_k - P_{k+1}||_F / sqrt(n - m) < tol``).
        '2opt': ``partial_guess`` (``(m, 2)`` pairs of the starting
        permutation; the rest is random).

    Returns
    -------
    res : OptimizeResult
        ``col_ind`` (node ``i`` of ``A`` goes to node ``col_ind[i]`` of
        ``B``), ``fun`` (the objective there) and ``nit`` (Frank-Wolfe
        iterations, or swaps tried).

    Raises
    ------
    ValueError
        SciPy's: matrices not square or of different sizes, bad
        ``partial_match``/``partial_guess`` rows, ``P0`` of the wrong shape or
        not doubly stochastic, ``maxiter`` or ``tol`` not positive, an
        unknown method.
    TypeError
        A non-integer ``maxiter``.

    Notes
    -----
    The iterations follow SciPy's code, so from the same start (the same
    seed) they reach the same permutation, ``fun`` and ``nit`` -- except
    where a linear assignment has several optima (this package breaks such
    ties by the lowest column, SciPy's C++ otherwise) or two 2-opt scores tie
    to the last bit.  ``A`` and ``B`` may be traced (``jit``, ``vmap``); the
    options are host values, and numeric ones (``maxiter``, ``tol``) are
    operands of the compiled loop.  Unknown options warn
    (:class:`OptimizeWarning`), as in SciPy.

    References
    ----------
    Vogelstein JT et al., Fast approximate quadratic programming for graph
    matching, PLoS ONE 10(4), e0121002 (2015).  Fishkind DE et al., Seeded
    graph matching, Pattern Recognition 87, 203-215 (2019).

    Examples
    --------
    >>> from sciax.optimize import quadratic_assignment
    >>> A = np.array([[0, 80, 150, 170], [80, 0, 130, 100],
    ...               [150, 130, 0, 120], [170, 100, 120, 0]])
    >>> B = np.array([[0, 5, 2, 7], [0, 0, 3, 8],
    ...               [0, 0, 0, 3], [0, 0, 0, 0]])
    >>> res = quadratic_assignment(A, B)
    >>> print(np.asarray(res.col_ind), int(res.fun), int(res.nit))
    [0 3 2 1] 3260 9
    """
    options = dict(options or {})
    method = method.lower()
    if method not in _METHODS:
        raise ValueError(f"method {method} must be in {_METHODS}.")
    if method == "faq":
        return _faq(A, B, **options)
    return _two_opt(A, B, **options)


def _check_random_state(rng):
    """SciPy's ``check_random_state``: None -> NumPy's global RandomState,
    an int -> a new RandomState, a Generator or RandomState as it is."""
    if rng is None or rng is np.random:
        return np.random.mtrand._rand
    if isinstance(rng, (numbers.Integral, np.integer)):
        return np.random.RandomState(int(rng))
    if isinstance(rng, (np.random.Generator, np.random.RandomState)):
        return rng
    raise ValueError(f"{rng!r} cannot be used to seed a numpy.random.RandomState "
                     "instance")


def _unknown(opts: dict) -> None:
    if opts:
        warnings.warn(f"Unknown solver options: {', '.join(map(str, opts))}",
                      OptimizeWarning, stacklevel=3)


def _pairs(x, name: str, n: int) -> np.ndarray:
    """``partial_match``/``partial_guess`` as an ``(m, 2)`` int array, with
    SciPy's checks and messages."""
    p = np.array([[], []]).T if x is None else x
    p = np.atleast_2d(np.asarray(p)).astype(int)
    seeds = "seeds" if name == "partial_match" else "entries"
    msg = None
    if p.shape[0] > n:
        msg = f"`{name}` can have only as many {seeds} as there are nodes"
    elif p.ndim != 2:
        msg = f"`{name}` must have exactly two dimensions"
    elif p.shape[1] != 2:
        msg = f"`{name}` must have two columns"
    elif (p < 0).any():
        msg = f"`{name}` must contain only positive indices"
    elif (p >= n).any():
        msg = f"`{name}` entries must be less than number of nodes"
    elif (len(set(p[:, 0])) != len(p[:, 0]) or len(set(p[:, 1])) != len(p[:, 1])):
        msg = f"`{name}` column entries must be unique"
    if msg is not None:
        raise ValueError(msg)
    return p


def _matrices(A, B, partial_match):
    A, B = snp.atleast_2d(snp.asarray(A)), snp.atleast_2d(snp.asarray(B))
    msg = None
    if A.ndim != 2 or B.ndim != 2:
        msg = "`A` and `B` must have exactly two dimensions"
    elif A.shape[0] != A.shape[1]:
        msg = "`A` must be square"
    elif B.shape[0] != B.shape[1]:
        msg = "`B` must be square"
    elif A.shape != B.shape:
        msg = "`A` and `B` matrices must be of equal size"
    if msg is not None:
        raise ValueError(msg)
    return A, B, _pairs(partial_match, "partial_match", A.shape[0])


def _score(A, B, perm):
    """``trace(A^T P B P^T)`` without the matrix products (SciPy's)."""
    return snp.sum(A * B[perm][:, perm])


def _trivial(A, B, pm) -> OptimizeResult:
    col = snp.asarray(pm[:, 1])
    fun = _score(A, B, col) if A.shape[0] else snp.asarray(0.0)
    return OptimizeResult(col_ind=col, fun=fun, nit=snp.int32(0))


def _faq(A, B, maximize=False, partial_match=None, rng=None, P0="barycenter",
         shuffle_input=False, maxiter=30, tol=0.03, **unknown):
    _unknown(unknown)
    maxiter = operator.index(maxiter)
    A, B, pm = _matrices(A, B, partial_match)
    if isinstance(P0, str) and P0 not in {"barycenter", "randomized"}:
        raise ValueError("Invalid 'P0' parameter string")
    if maxiter <= 0:
        raise ValueError("'maxiter' must be a positive integer")
    if tol <= 0:
        raise ValueError("'tol' must be a positive float")
    rng = _check_random_state(rng)
    n, ns = A.shape[0], pm.shape[0]
    m = n - ns
    if not isinstance(P0, str):
        P0 = snp.atleast_2d(snp.asarray(P0))
        if tuple(P0.shape) != (m, m):
            raise ValueError("`P0` matrix must have shape m' x m', where m'=n-m")
        try:
            p = np.asarray(P0)
        except Exception:  # traced: no check
            p = None
        if p is not None and ((p < 0).any() or not np.allclose(p.sum(axis=0), 1)
                              or not np.allclose(p.sum(axis=1), 1)):
            raise ValueError("`P0` matrix must be doubly stochastic")
    elif P0 == "barycenter":
        P0 = np.ones((m, m)) / m
    else:  # 'randomized', drawn as SciPy draws it
        J = np.ones((m, m)) / m
        P0 = (J + _doubly_stochastic(rng.uniform(size=(m, m)))) / 2
    if n == 0 or ns == n:
        return _trivial(A, B, pm)
    nonseed_B = np.setdiff1d(range(n), pm[:, 1])
    if shuffle_input:
        nonseed_B = rng.permutation(nonseed_B)
    perm_A = np.concatenate([pm[:, 0], np.setdiff1d(range(n), pm[:, 0])])
    perm_B = np.concatenate([pm[:, 1], nonseed_B])
    run = _cached_jit(("qap-faq", n, ns, bool(maximize)),
                      lambda: _faq_runner(n, ns, bool(maximize)))
    return run(A, B, snp.asarray(P0), perm_A, perm_B,
               dict(maxiter=np.int32(maxiter), tol=np.float64(tol)))


def _faq_runner(n: int, ns: int, maximize: bool):
    m = n - ns
    s = -1.0 if maximize else 1.0

    def split(X):
        return X[:ns, :ns], X[:ns, ns:], X[ns:, :ns], X[ns:, ns:]

    def run(A0, B0, P0, perm_A, perm_B, prm):
        dt = snp.result_type(A0, B0, P0, 1.0)
        A = A0[perm_A][:, perm_A].astype(dt)
        B = B0[perm_B][:, perm_B].astype(dt)
        _, A12, A21, A22 = split(A)
        _, B12, B21, B22 = split(B)
        const = A21 @ B21.T + A12.T @ B12
        eye = snp.eye(m, dtype=dt)

        def body(c):
            P, k, _ = c
            grad = const + A22 @ P @ B22.T + A22.T @ P @ B22
            cols, _ = _lsap_core(-grad if maximize else grad)
            Q = eye[cols]
            # the objective along P + x (Q - P) is a x^2 + b x + c (SciPy's
            # expansion: trace(X Y) = (X^T * Y).sum())
            R = P - Q
            b21 = snp.sum((R.T @ A21) * B21)
            b12 = snp.sum((R.T @ A12.T) * B12.T)
            AR22 = A22.T @ R
            BR22 = B22 @ R.T
            b22a = snp.sum(AR22 * B22.T[cols])
            b22b = snp.sum(A22 * BR22[cols])
            a = snp.sum(AR22.T * BR22)
            b = b21 + b12 + b22a + b22b
            safe = snp.where(a == 0, 1.0, a)
            x = -b / (2 * safe)
            inner = (a * s > 0) & (0 <= x) & (x <= 1)
            alpha = snp.where(inner, x, snp.where((b + a) * s < 0, 1.0, 0.0))
            P1 = alpha * P + (1 - alpha) * Q
            done = snp.sqrt(snp.sum((P - P1) ** 2)) / np.sqrt(m) < prm["tol"]
            return P1, k + 1, done

        P, nit, _ = lax.while_loop(
            lambda c: ~c[2] & (c[1] < prm["maxiter"]), body,
            (P0.astype(dt), snp.int32(0), snp.bool_(False)))
        col, _ = _lsap_core(-P)
        perm = snp.concatenate([snp.arange(ns), col + ns])
        col_ind = snp.zeros((n,), perm_B.dtype).at[perm_A].set(perm_B[perm])
        return OptimizeResult(col_ind=col_ind, fun=_score(A0, B0, col_ind), nit=nit)

    return run


def _doubly_stochastic(P, tol=1e-3):
    """Sinkhorn-Knopp balancing of a positive matrix (SciPy's, on the host:
    it shapes the 'randomized' start)."""
    c = 1 / P.sum(axis=0)
    r = 1 / (P @ c)
    P_eps = P
    for _ in range(1000):
        if ((np.abs(P_eps.sum(axis=1) - 1) < tol).all()
                and (np.abs(P_eps.sum(axis=0) - 1) < tol).all()):
            break
        c = 1 / (r @ P)
        r = 1 / (P @ c)
        P_eps = r[:, None] * P * c
    return P_eps


def _two_opt(A, B, maximize=False, rng=None, partial_match=None, partial_guess=None,
             **unknown):
    _unknown(unknown)
    rng = _check_random_state(rng)
    A, B, pm = _matrices(A, B, partial_match)
    N = A.shape[0]
    if N == 0 or pm.shape[0] == N:
        return _trivial(A, B, pm)
    pg = _pairs(partial_guess, "partial_guess", N)
    fixed = np.zeros(N, dtype=bool)
    if pm.size or pg.size:  # the guess and match first, the rest at random
        guess_rows = np.zeros(N, dtype=bool)
        guess_cols = np.zeros(N, dtype=bool)
        fixed_cols = np.zeros(N, dtype=bool)
        perm = np.zeros(N, dtype=int)
        guess_rows[pg[:, 0]] = True
        guess_cols[pg[:, 1]] = True
        perm[guess_rows] = pg[:, 1]
        fixed[pm[:, 0]] = True
        fixed_cols[pm[:, 1]] = True
        perm[fixed] = pm[:, 1]
        perm[~fixed & ~guess_rows] = rng.permutation(
            np.arange(N)[~fixed_cols & ~guess_cols])
    else:
        perm = rng.permutation(np.arange(N))
    # the swaps in SciPy's order: i <= j over the free rows
    pairs = np.array(list(itertools.combinations_with_replacement(
        np.arange(N)[~fixed], 2)), dtype=np.int32).reshape(-1, 2)
    run = _cached_jit(("qap-2opt", N, pairs.shape[0], bool(maximize)),
                      lambda: _two_opt_runner(bool(maximize)))
    return run(A, B, perm, pairs)


def _two_opt_runner(maximize: bool):

    def run(A, B, perm0, pairs):
        npairs = pairs.shape[0]

        def body(c):
            perm, best, q, nit = c
            i, j = pairs[q, 0], pairs[q, 1]
            trial = perm.at[i].set(perm[j]).at[j].set(perm[i])
            score = _score(A, B, trial)
            better = score > best if maximize else score < best
            return (snp.where(better, trial, perm), snp.where(better, score, best),
                    snp.where(better, 0, q + 1), nit + 1)

        perm, best, _, nit = lax.while_loop(
            lambda c: c[2] < npairs, body,
            (perm0, _score(A, B, perm0), snp.int32(0), snp.int32(0)))
        return OptimizeResult(col_ind=perm, fun=best, nit=nit)

    return run
