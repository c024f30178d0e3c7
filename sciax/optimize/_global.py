"""Global minimisation: ``differential_evolution`` and ``basinhopping`` (and the
result object and plumbing that ``dual_annealing`` shares).

Both are one ``lax.while_loop`` over an explicit state, so they run under
``jit`` and ``vmap`` (each lane keeps its own population or walker, counters and
stop reason).  Differential evolution evaluates its whole population in one
``vmap``-ed call per generation (SciPy's ``updating='deferred'``); basin-hopping
calls :func:`sciax.optimize.minimize` inside the loop.  Randomness comes from
``sciax.random`` keys, so a seed gives the same result eagerly and under
``jit``; SciPy's numbers differ (another generator), its minima do not.
User-supplied Python callables (callbacks, ``take_step``, ``accept_test``) run
on the host through :func:`sciax.pure_callback`, inside the same loop.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.random as sr
from sciax import lax

from sciax.optimize._base import (_REASONS, _SUCCESS, OptimizeResult, derived_repr,
                                  register_result)
from sciax.optimize import _constraints as cons
from sciax.optimize._constraints import LinearConstraint, NonlinearConstraint
from sciax.optimize._minimize import _is_dynamic, minimize
from sciax.optimize._util import Bounds

# --- result, messages -----------------------------------------------------------------

_MESSAGES = (
    "Optimization terminated successfully.",
    "Maximum number of iterations has been exceeded.",
    "callback function requested stop early",
    "requested number of basinhopping iterations completed successfully",
    "success condition satisfied",
    "callback function requested stop early byreturning True",  # SciPy's text
    # dual_annealing's (sciax.optimize._dual_annealing)
    "Maximum number of iteration reached",
    "Maximum number of function call reached during annealing",
    "Maximum number of function call reached during local search",
    "Maximum number of function call reached during dual annealing",
    "Callback function requested to stop early by returning True",
    "Stopping algorithm because function create NaN or (+/-) infinity values even "
    "with trying new random parameters",
)
(_DE_OK, _DE_MAXITER, _DE_CALLBACK, _BH_DONE, _BH_SUCCESS, _BH_CALLBACK,
 _DA_MAXITER, _DA_MAXFUN_ANNEAL, _DA_MAXFUN_LS, _DA_MAXFUN_DA, _DA_CALLBACK,
 _DA_NONFINITE) = range(12)
# SciPy's message when differential evolution's answer violates a constraint
_INFEASIBLE = "The solution does not satisfy the constraints, MAXCV = {}"
_RUNNING = -1
# success of a (traced) minimize result, from its private stop reason
_REASON_OK = np.array([r in _SUCCESS for r in _REASONS])


class GlobalResult(OptimizeResult):
    """:class:`OptimizeResult` of the global minimisers: ``message`` comes from a
    private code, ``success`` from a private flag (per lane under ``vmap``).
    basinhopping's ``message`` is a one-element list, as SciPy's."""

    def __getattr__(self, name: str) -> Any:
        if name in ("message", "success"):
            try:
                code = np.asarray(self["_code"])
                ok = np.asarray(self["_ok"])
            except Exception:  # traced: no host value
                return "" if name == "message" else False
            if name == "success":
                return bool(ok) if ok.ndim == 0 else ok
            maxcv = (np.asarray(self["maxcv"]) if "maxcv" in self
                     else np.zeros(code.shape))

            def one(c, cv):
                if cv > 0:
                    return _INFEASIBLE.format(float(cv))
                m = _MESSAGES[int(c)]
                return [m] if int(c) >= _BH_DONE else m
            if code.ndim == 0:
                return one(code, maxcv)
            return [one(c, cv) for c, cv in zip(code.ravel(), maxcv.ravel())]
        return super().__getattr__(name)

    def __repr__(self) -> str:
        return derived_repr(self)

    __str__ = __repr__


register_result(GlobalResult)


def _minres_ok(res):
    """Traced ``success`` of a :func:`minimize` result."""
    if "_reason" in res:
        return snp.asarray(_REASON_OK)[res["_reason"]]
    if "_success_codes" in res:  # SLSQP
        return snp.isin(res["status"], snp.asarray(res["_success_codes"]))
    return snp.asarray(res["status"]) == 0


# --- shared plumbing: keys, args, caching -------------------------------------------


def _make_key(seed, rng):
    """A ``sciax.random`` key from SciPy's ``seed``/``rng`` (an int, a key, a
    NumPy generator, or None for fresh operating-system entropy)."""
    if seed is not None and rng is not None:
        raise ValueError("pass either `seed` or `rng`, not both")
    s = rng if seed is None else seed
    if s is None:
        s = int(np.random.SeedSequence().entropy % (2 ** 32))
    if isinstance(s, (np.random.Generator, np.random.RandomState)):
        s = int(s.integers(2 ** 32) if hasattr(s, "integers") else s.randint(2 ** 32))
    if isinstance(s, (int, np.integer)):
        return sr.PRNGKey(int(s) % (2 ** 32))
    if hasattr(s, "shape") and tuple(s.shape) == (2,) and snp.issubdtype(
            s.dtype, snp.unsignedinteger):
        return s
    if hasattr(s, "shape") and tuple(s.shape) == () and snp.issubdtype(
            s.dtype, snp.integer):
        return sr.PRNGKey(s)  # a traced integer seed
    raise TypeError(f"seed/rng must be None, an int, a sciax.random key or a NumPy "
                    f"generator, got {type(s).__name__}")


def _draw(key, n: int, dtype):
    """``(u, next_key)``: ``n`` uniforms in ``[0, 1)`` and a fresh key from one
    threefry block (each ``sciax.random`` call is one, and each costs about a
    second of XLA compile time on CPU, so a loop body makes exactly one)."""
    b = sr.bits(key, (n + 2,))
    if snp.dtype(dtype) == snp.float64:
        u = b[:n].astype(snp.float64) * 2.0 ** -32
    else:  # 24 bits, so that the float32 value stays below 1
        u = (b[:n] >> 8).astype(dtype) * np.float32(2.0 ** -24)
    return u.astype(dtype), b[n:]


def _split_args(args):
    """``(tree, dyn_pos, dyn, statics)``: float/array leaves are traced inputs of
    the compiled program, the rest (ints, strings...) are compile-time constants."""
    if not isinstance(args, tuple):
        args = (args,)
    leaves, tree = sciax.tree.flatten(args)
    dyn_pos = tuple(_is_dynamic(v) for v in leaves)
    dyn = [v if hasattr(v, "dtype") else snp.asarray(v)
           for v, d in zip(leaves, dyn_pos) if d]
    statics = tuple(v for v, d in zip(leaves, dyn_pos) if not d)
    return tree, dyn_pos, dyn, statics


def _rebuild(tree, dyn_pos, statics, dyn):
    it_d, it_s = iter(dyn), iter(statics)
    return tuple(tree.unflatten([next(it_d) if d else next(it_s) for d in dyn_pos]))


_CACHE: dict = {}
_CACHE_SIZE = 64


def _cached_jit(key, make):
    """The compiled runner for ``key`` (function identity plus every static
    choice), built by ``make`` on a miss; unhashable keys are not cached."""
    try:
        hash(key)
    except TypeError:
        return sciax.jit(make())
    fn = _CACHE.get(key)
    if fn is None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        fn = _CACHE[key] = sciax.jit(make())
    return fn


def _host_stop(fn):
    """Run a host function returning a stop flag inside the compiled loop."""
    def call(*xs):
        return sciax.pure_callback(lambda *a: np.bool_(fn(*a)),
                                   sciax.ShapeDtypeStruct((), snp.bool_), *xs)
    return call


def _takes_intermediate_result(callback) -> bool:
    try:
        return "intermediate_result" in inspect.signature(callback).parameters
    except (TypeError, ValueError):
        return False


# --- differential evolution ----------------------------------------------------------

# strategy -> (mutation rule, number of random members it draws, crossover)
_STRATEGIES = {
    f"{rule}{cx}": (rule, k, cx)
    for rule, k in (("best1", 2), ("rand1", 3), ("randtobest1", 3),
                    ("currenttobest1", 2), ("best2", 4), ("rand2", 5))
    for cx in ("bin", "exp")
}
_INITS = ("latinhypercube", "random", "halton", "sobol")


@dataclasses.dataclass(frozen=True)
class _DEConfig:
    rule: Any  # a named rule, or the user's strategy callable
    nsamp: int
    crossover: str
    dither: bool  # mutation is a (lo, hi) pair drawn each generation
    polish: bool
    init: str  # one of _INITS or 'array'
    S: int
    N: int
    vectorized: bool
    disp: bool
    lb: tuple  # limits (integrality-adjusted), as Python floats
    ub: tuple
    integrality: tuple  # bools, or () for none


def _de_bounds(bounds):
    if isinstance(bounds, Bounds):
        lb, ub = np.broadcast_arrays(np.asarray(bounds.lb, float),
                                     np.asarray(bounds.ub, float))
        lb, ub = np.atleast_1d(lb).astype(float), np.atleast_1d(ub).astype(float)
    else:
        try:
            lim = np.asarray(bounds, dtype=float)
        except (TypeError, ValueError) as e:
            raise ValueError("bounds should be a sequence containing finite real "
                             "valued (min, max) pairs for each value in x") from e
        if lim.ndim != 2 or lim.shape[1] != 2 or lim.shape[0] < 1:
            raise ValueError(f"bounds should be a sequence containing finite real "
                             f"valued (min, max) pairs for each value in x; got "
                             f"shape {lim.shape}")
        lb, ub = lim[:, 0].copy(), lim[:, 1].copy()
    if lb.ndim != 1 or not (np.all(np.isfinite(lb)) and np.all(np.isfinite(ub))):
        raise ValueError("bounds should be a sequence containing finite real valued "
                         "(min, max) pairs for each value in x")
    if np.any(lb > ub):
        bad = np.nonzero(lb > ub)[0].tolist()
        raise ValueError(f"An upper bound is less than the corresponding lower bound "
                         f"(entries {bad[:10]})")
    return lb, ub


def _halton_points(n: int, d: int) -> np.ndarray:
    """Radical inverses of 1..n in the first ``d`` primes, shape (n, d)."""
    primes: list[int] = []
    c = 2
    while len(primes) < d:
        if all(c % p for p in primes):
            primes.append(c)
        c += 1
    out = np.zeros((n, d))
    for j, p in enumerate(primes):
        i, f = np.arange(1, n + 1), 1.0
        while np.any(i > 0):
            f /= p
            out[:, j] += f * (i % p)
            i = i // p
    return out


# Sobol' direction numbers of dimensions 2..21 (Joe and Kuo, "Constructing Sobol
# sequences with better two-dimensional projections", SIAM J. Sci. Comput. 30,
# 2008; file new-joe-kuo-6.21201): (degree s, interior coefficients a, m_1..m_s).
_JOE_KUO = (
    (1, 0, (1,)), (2, 1, (1, 3)), (3, 1, (1, 3, 1)), (3, 2, (1, 1, 1)),
    (4, 1, (1, 1, 3, 3)), (4, 4, (1, 3, 5, 13)), (5, 2, (1, 1, 5, 5, 17)),
    (5, 4, (1, 1, 5, 5, 5)), (5, 7, (1, 1, 7, 11, 19)), (5, 11, (1, 1, 5, 1, 1)),
    (5, 13, (1, 1, 1, 3, 11)), (5, 14, (1, 3, 5, 5, 31)),
    (6, 1, (1, 3, 3, 9, 7, 49)), (6, 13, (1, 1, 1, 15, 21, 21)),
    (6, 16, (1, 3, 1, 13, 27, 49)), (6, 19, (1, 1, 1, 15, 7, 5)),
    (6, 22, (1, 3, 1, 15, 13, 25)), (6, 25, (1, 1, 5, 5, 19, 61)),
    (7, 1, (1, 3, 7, 11, 23, 15, 103)), (7, 4, (1, 3, 7, 13, 13, 15, 69)),
)
SOBOL_MAX_DIM = len(_JOE_KUO) + 1


def _sobol_points(n: int, d: int) -> np.ndarray:
    """The first ``n`` points of the unscrambled ``d``-dimensional Sobol'
    sequence as 32-bit integers (divide by 2**32 for [0, 1)), shape (n, d)."""
    V = np.zeros((d, 32), np.uint64)
    V[0] = [1 << (31 - k) for k in range(32)]
    for j in range(1, d):
        deg, a, m = _JOE_KUO[j - 1]
        for k in range(32):
            if k < deg:
                V[j, k] = m[k] << (31 - k)
                continue
            v = V[j, k - deg] ^ (V[j, k - deg] >> np.uint64(deg))
            for i in range(1, deg):  # a's bits, most significant first
                if (a >> (deg - 1 - i)) & 1:
                    v ^= V[j, k - i]
            V[j, k] = v
    idx = np.arange(n, dtype=np.uint64)
    out = np.zeros((n, d), np.uint64)
    for k in range(max(1, int(n - 1).bit_length())):
        on = ((idx >> np.uint64(k)) & np.uint64(1)).astype(bool)
        out[on] ^= V[:, k]
    return out.astype(np.uint32)


def _de_constraints(constraints, N: int) -> tuple:
    """SciPy's ``constraints`` of differential evolution (one or a sequence of
    NonlinearConstraint, LinearConstraint and Bounds objects) as a tuple of
    ``(fun, lb, ub)``: ``fun`` maps ``x`` of shape ``(N,)`` -- or ``(N, S)``
    for a vectorized search -- to ``(M,)`` (``(M, S)``) values that should lie
    in ``[lb, ub]``."""
    if constraints is None:
        return ()
    if isinstance(constraints, (NonlinearConstraint, LinearConstraint, Bounds,
                                dict)):
        constraints = [constraints]
    out = []
    for c in constraints:
        if isinstance(c, NonlinearConstraint):
            out.append((c.fun, c.lb, c.ub))
        elif isinstance(c, LinearConstraint):
            if c.A.shape[1] != N:
                raise ValueError(f"LinearConstraint: A has {c.A.shape[1]} columns, "
                                 f"the bounds give {N} parameters")
            out.append((_LinearMap(c.A), c.lb, c.ub))
        elif isinstance(c, Bounds):
            out.append((_identity, c.lb, c.ub))
        else:
            raise ValueError(f"differential_evolution: constraints must be "
                             f"NonlinearConstraint, LinearConstraint or Bounds "
                             f"objects (SciPy's rule; dict constraints are for "
                             f"minimize), got {type(c).__name__}")
    return tuple(out)


def _identity(x):
    return x


@dataclasses.dataclass(frozen=True, eq=False)
class _LinearMap:
    A: np.ndarray

    def __call__(self, x):
        return snp.asarray(self.A, x.dtype) @ x


def _de_constraint_key(wrapped) -> tuple:
    """A hashable key of ``_de_constraints``' output: functions by identity,
    matrices and bounds by value."""
    key = []
    for fun, lb, ub in wrapped:
        f = ("A", fun.A.tobytes(), fun.A.shape) if isinstance(fun, _LinearMap) else fun
        key.append((f, lb.tobytes(), lb.shape, ub.tobytes(), ub.shape))
    return tuple(key)


def _violation(wrapped, X, vectorized: bool):
    """Excess violation of every constraint component, ``(S, M)`` for a
    population ``X`` of shape ``(S, N)``: ``max(lb - c, 0) + max(c - ub, 0)``
    per component, as SciPy's ``_ConstraintWrapper.violation``."""
    S = X.shape[0]
    parts = []
    for fun, lb, ub in wrapped:
        if vectorized:
            c = snp.asarray(fun(X.T))
            if c.ndim != 2 or c.shape[1] != S:
                raise ValueError(f"with vectorized=True a constraint function "
                                 f"takes x of shape ({X.shape[1]}, {S}) and must "
                                 f"return an array of shape (M, {S}); got shape "
                                 f"{tuple(c.shape)}")
            c = c.T
        else:
            c = sciax.vmap(lambda x: snp.ravel(snp.asarray(fun(x))))(X)
        c = c.astype(X.dtype)
        lo = snp.asarray(np.broadcast_to(lb, c.shape[1:]), X.dtype)
        hi = snp.asarray(np.broadcast_to(ub, c.shape[1:]), X.dtype)
        parts.append(snp.maximum(lo - c, 0) + snp.maximum(c - hi, 0))
    return snp.concatenate(parts, axis=1)


def _init_population(cfg: _DEConfig, key, dtype):
    """``(population in the unit box, next key)``."""
    S, N = cfg.S, cfg.N
    if cfg.init == "latinhypercube":
        # one uniform point in each of S equal segments, per coordinate, then an
        # independent random permutation of the segments in each column
        u, key = _draw(key, 2 * S * N, dtype)
        seg = (u[:S * N].reshape(S, N) + np.arange(S)[:, None]) / S
        perm = snp.argsort(u[S * N:].reshape(S, N), axis=0)
        return snp.take_along_axis(seg, perm, axis=0), key
    if cfg.init == "random":
        u, key = _draw(key, S * N, dtype)
        return u.reshape(S, N), key
    if cfg.init == "sobol":
        # the net of the first S = 2**m points under a random digital shift
        # (XOR of each coordinate's bits); SciPy scrambles the matrices too
        b = sr.bits(key, (N + 2,))
        x = snp.asarray(_sobol_points(S, N)) ^ b[None, :N]
        if snp.dtype(dtype) == snp.float64:
            return x.astype(dtype) * 2.0 ** -32, b[N:]
        return (x >> 8).astype(dtype) * np.float32(2.0 ** -24), b[N:]
    # halton: the deterministic point set under a random shift modulo 1
    # (Cranley-Patterson rotation); SciPy scrambles its digits instead
    u, key = _draw(key, N, dtype)
    return (_halton_points(S, N).astype(dtype) + u[None, :]) % 1.0, key


def _de_runner(func, cfg: _DEConfig, callback, tree, dyn_pos, statics,
               constraints=(), wrapped=()):
    S, N = cfg.S, cfg.N
    has_cons = bool(wrapped)
    lb, ub = np.array(cfg.lb), np.array(cfg.ub)
    c1, c2 = 0.5 * (lb + ub), np.abs(lb - ub)
    with np.errstate(divide="ignore"):
        rc2 = np.where(c2 > 0, 1.0 / np.where(c2 > 0, c2, 1.0), 0.0)
    integ = np.array(cfg.integrality, bool) if cfg.integrality else None
    new_style = callback is not None and _takes_intermediate_result(callback)

    def scale(t):
        x = c1 + (t - 0.5) * c2
        return snp.where(integ, snp.round(x), x) if integ is not None else x

    def unscale(x):
        return (x - c1) * rc2 + 0.5

    def energies(pop, args):
        X = scale(pop)
        if cfg.vectorized:
            e = snp.atleast_1d(snp.asarray(func(X.T, *args)))
            if e.shape != (S,):
                raise ValueError(f"a vectorized func must return shape ({S},) for x "
                                 f"of shape ({N}, {S}); got {tuple(e.shape)}")
            return e.astype(X.dtype), 1
        def one(x):
            v = snp.asarray(func(x, *args))
            if v.size != 1:
                raise ValueError(f"func(x, *args) must return a scalar value, got "
                                 f"shape {tuple(v.shape)}")
            return v.reshape(()).astype(x.dtype)
        return sciax.vmap(one)(X), S

    def evaluate(pop, args):
        """``(energies, evaluations, feasible, violations)``.  With
        constraints (Lampinen's approach, as SciPy): infeasible members get
        energy ``inf`` and are not counted as evaluations (``func`` still runs
        on them inside the batched call; its values there are discarded)."""
        E, nf = energies(pop, args)
        if not has_cons:
            return E, nf, None, None
        cv = _violation(wrapped, scale(pop), cfg.vectorized)
        feas = snp.all(cv <= 0, axis=1)
        count = snp.any(feas) if cfg.vectorized else snp.sum(feas)
        return snp.where(feas, E, snp.inf), count.astype(snp.int32), feas, cv

    def promote(pop, E, feas=None, cv=None):
        """Swap the best member into place 0: the lowest energy, or with
        constraints the lowest feasible energy, or when none is feasible the
        smallest total violation."""
        i = snp.argmin(E)
        if has_cons:
            i = snp.where(feas[i], i, snp.argmax(feas))  # all feasible energies inf
            i = snp.where(snp.any(feas), i, snp.argmin(snp.sum(cv, axis=1)))
        order = snp.arange(S)
        order = snp.where(order == 0, i, snp.where(order == i, 0, order))
        if has_cons:
            return pop[order], E[order], feas[order], cv[order]
        return pop[order], E[order], None, None

    def accept(Et, feas_t, cv_t, E, feas, cv):
        if not has_cons:
            return Et <= E
        return ((feas & feas_t & (Et <= E)) | (feas_t & ~feas)
                | (~feas_t & snp.all(cv_t <= cv, axis=1)))

    def mutate_custom(pop, u, prm):
        """The user's ``strategy(candidate, population, rng=key)`` per member,
        batched with ``vmap`` (``population`` in the user's units)."""
        keys = u.reshape(S, 2)
        P = scale(pop)

        def one(c, k):
            t = snp.asarray(cfg.rule(c, P, rng=k))
            if t.shape != (N,):
                raise ValueError(f"strategy must have signature f(candidate: int, "
                                 f"population: array, rng=key) returning an array "
                                 f"of shape ({N},); got shape {tuple(t.shape)}")
            return t.astype(P.dtype)
        return unscale(sciax.vmap(one)(snp.arange(S, dtype=snp.int32), keys))

    def converged(E, prm):
        return (~snp.any(snp.isinf(E))) & (
            snp.std(E) <= prm["atol"] + prm["tol"] * snp.abs(snp.mean(E)))

    def trials(pop, u, prm, kbits=None):
        uF, us, uf, uc, uo = snp.split(u, np.cumsum([1, S * S, S, S * N]).tolist())
        if callable(cfg.rule):
            t = mutate_custom(pop, kbits, prm)
            return snp.where((t > 1) | (t < 0), uo.reshape(S, N), t)
        lo, hi = prm["mutation"][0], prm["mutation"][1]
        F = lo + (hi - lo) * uF[0] if cfg.dither else lo
        # nsamp distinct members, none the candidate itself: the first columns
        # of a random ordering of each row with the diagonal pushed last
        r = snp.argsort(us.reshape(S, S) + 2.0 * snp.eye(S), axis=1)[:, :cfg.nsamp]
        p = [pop[r[:, j]] for j in range(cfg.nsamp)]
        best = pop[0][None, :]
        if cfg.rule == "best1":
            b = best + F * (p[0] - p[1])
        elif cfg.rule == "rand1":
            b = p[0] + F * (p[1] - p[2])
        elif cfg.rule == "randtobest1":
            b = p[0] + F * (best - p[0]) + F * (p[1] - p[2])
        elif cfg.rule == "currenttobest1":
            b = pop + F * (best - pop + p[0] - p[1])
        elif cfg.rule == "best2":
            b = best + F * (p[0] + p[1] - p[2] - p[3])
        else:  # rand2
            b = p[0] + F * (p[1] + p[2] - p[3] - p[4])
        fill = snp.minimum(snp.floor(uf * N).astype(snp.int32), N - 1)
        cross = uc.reshape(S, N) < prm["recombination"]
        cols = snp.arange(N)[None, :]
        if cfg.crossover == "bin":
            # the fill point always comes from the mutant
            take = cross | (cols == fill[:, None])
        else:
            # a run of consecutive coordinates (cyclically) from the fill point,
            # one plus as long as the draws after the first stay below CR
            run = 1 + snp.sum(snp.cumprod(cross[:, 1:].astype(snp.int32), axis=1),
                              axis=1)
            take = ((cols - fill[:, None]) % N) < run[:, None]
        t = snp.where(take, b, pop)
        # out-of-range coordinates are redrawn uniformly in the unit box
        return snp.where((t > 1) | (t < 0), uo.reshape(S, N), t)

    def run(key, init_pop, x0, dyn, prm):
        args = _rebuild(tree, dyn_pos, statics, dyn)
        dt = snp.result_type(1.0)
        if init_pop is None:
            pop, key = _init_population(cfg, key, dt)
        else:
            pop = init_pop.astype(dt)
        if x0 is not None:
            pop = pop.at[0].set(unscale(x0))
        E, nf, feas, cv = evaluate(pop, args)
        pop, E, feas, cv = promote(pop, E, feas, cv)
        code0 = snp.where(prm["maxiter"] <= 0, _DE_MAXITER, _RUNNING).astype(
            snp.int32)

        def body(c):
            pop, E, key, nit, nfev, _, feas, cv = c
            if callable(cfg.rule):  # 2 S more words: one key per member
                b = sr.bits(key, (2 * S + 2,))
                kbits, key = b[:2 * S], b[2 * S:]
            else:
                kbits = None
            u, key = _draw(key, 1 + S * S + S + 2 * S * N, pop.dtype)
            T = trials(pop, u, prm, kbits)
            Et, nf, feas_t, cv_t = evaluate(T, args)
            better = accept(Et, feas_t, cv_t, E, feas, cv)
            pop = snp.where(better[:, None], T, pop)
            E = snp.where(better, Et, E)
            if has_cons:
                feas = snp.where(better, feas_t, feas)
                cv = snp.where(better[:, None], cv_t, cv)
            pop, E, feas, cv = promote(pop, E, feas, cv)
            nit, nfev = nit + 1, nfev + nf
            if cfg.disp:
                sciax.debug.callback(_print_de, nit, E[0])
            stop = snp.bool_(False)
            if callback is not None:
                conv = prm["tol"] / (snp.std(E) / (snp.abs(snp.mean(E)) + 2.220446e-16)
                                  + 2.220446e-16)
                stop = _host_stop(_de_callback(callback, new_style))(
                    scale(pop[0]), E[0], nit, nfev, conv, scale(pop), E)
            code = snp.where(stop, _DE_CALLBACK, snp.where(
                converged(E, prm), _DE_OK, snp.where(nit >= prm["maxiter"], _DE_MAXITER,
                                                 _RUNNING)))
            return pop, E, key, nit, nfev, code.astype(snp.int32), feas, cv

        c0 = (pop, E, key, snp.int32(0), snp.asarray(nf, snp.int32), code0, feas, cv)
        pop, E, key, nit, nfev, code, feas, cv = lax.while_loop(
            lambda c: c[5] == _RUNNING, body, c0)
        x, fun = scale(pop[0]), E[0]
        res = GlobalResult(x=x, fun=fun, nit=nit, nfev=nfev, _code=code,
                           _ok=code == _DE_OK)
        if cfg.polish:
            x, fun, pop, E, nfev, jac = _polish(func, cfg, args, x, fun, pop, E, nfev,
                                                unscale, integ, lb, ub, constraints)
            res.update(x=x, fun=fun, nfev=nfev, jac=jac)
        res.update(population=scale(pop), population_energies=E)
        if has_cons:
            constr = [_violation(((f, lo, hi),), x[None, :], False)[0]
                      for f, lo, hi in wrapped]
            maxcv = snp.max(snp.concatenate(constr)) if sum(
                c.shape[0] for c in constr) else snp.zeros((), x.dtype)
            res.update(constr=constr, constr_violation=maxcv, maxcv=maxcv,
                       _ok=res["_ok"] & (maxcv <= 0))
        return res

    return run


def _polish(func, cfg, args, x, fun, pop, E, nfev, unscale, integ, lb, ub,
            constraints=()):
    """L-BFGS-B from the best member within the limits (trust-constr with the
    constraints, when there are any); integer coordinates are held at their
    values (SciPy sets their bounds equal); the result replaces the best member
    only if it is a successful improvement inside the limits."""
    method = "trust-constr" if constraints else "L-BFGS-B"
    if cfg.disp:
        # after the loop: the best member is an operand, so XLA cannot hoist it
        sciax.debug.callback(
            lambda _: print(f"Polishing solution with '{method}'"), x)

    def fp(z, xb, *a):
        if integ is not None:
            z = snp.where(integ, xb, z)
        if cfg.vectorized:
            return snp.asarray(func(z[:, None], *a)).reshape(-1)[0]
        return func(z, *a)

    r = minimize(fp, x, args=(x,) + tuple(args), method=method,
                 bounds=Bounds(lb, ub), **({"constraints": constraints}
                                           if constraints else {}))
    ok = (_minres_ok(r) & (r.fun < fun) & snp.all(r.x <= ub) & snp.all(r.x >= lb))
    # (trust-constr's ``jac`` holds the constraints' Jacobians, ``grad`` f's)
    g = r.grad if method == "trust-constr" else r.jac
    jac = snp.where(ok, g, sciax.grad(fp)(x, x, *args))
    x = snp.where(ok, r.x, x)
    fun = snp.where(ok, r.fun, fun)
    pop = pop.at[0].set(snp.where(ok, unscale(x), pop[0]))
    E = E.at[0].set(fun)
    return x, fun, pop, E, nfev + r.nfev, jac


def _print_de(nit, f):
    for n, v in zip(np.atleast_1d(nit), np.atleast_1d(f)):
        print(f"differential_evolution step {int(n)}: f(x)= {float(v)}")


def _de_callback(callback, new_style):
    def host(x, fun, nit, nfev, conv, pop, E):
        try:
            if new_style:
                ir = OptimizeResult(x=x, fun=fun, nit=int(nit), nfev=int(nfev),
                                    convergence=float(conv), population=pop,
                                    population_energies=E,
                                    _message="in progress", _success=True)
                out = callback(intermediate_result=ir)
            else:
                out = callback(x, convergence=float(conv))
        except StopIteration:
            return True
        return bool(out)
    return host


def differential_evolution(func: Callable, bounds: Any, args: Any = (),
                           strategy: str = "best1bin", maxiter: int = 1000,
                           popsize: int = 15, tol: float = 0.01,
                           mutation: Any = (0.5, 1), recombination: float = 0.7,
                           seed: Any = None, rng: Any = None,
                           callback: Callable | None = None, disp: bool = False,
                           polish: bool = True, init: Any = "latinhypercube",
                           atol: float = 0, updating: str = "immediate",
                           workers: Any = 1, constraints: Any = (), x0: Any = None,
                           *, integrality: Any = None, vectorized: bool = False
                           ) -> OptimizeResult:
    """sciax implementation of :func:`scipy.optimize.differential_evolution`.

    Find the global minimum of a function over a box by differential evolution
    (Storn and Price): each generation mutates every population member with
    differences of other members, crosses it over with its parent, and keeps
    whichever of parent and trial has the lower energy.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float`` written with sciax, ``x`` of shape ``(N,)``.
    bounds : Bounds or sequence of (min, max) pairs
        Finite bounds for each of the ``N`` coordinates.
    args : tuple, optional
        Extra arguments of ``func``; float and array leaves are traced (one
        compilation serves all values, and ``vmap`` may batch them).
    strategy : str or callable, optional
        ``'best1bin'`` (default), ``'best1exp'``, ``'rand1bin'``, ``'rand1exp'``,
        ``'rand2bin'``, ``'rand2exp'``, ``'best2bin'``, ``'best2exp'``,
        ``'currenttobest1bin'``, ``'currenttobest1exp'``,
        ``'randtobest1bin'``, ``'randtobest1exp'``; or
        ``strategy(candidate, population, rng=key) -> trial`` as in SciPy,
        returning the trial vector of shape ``(N,)`` for member ``candidate``
        of ``population`` (shape ``(S, N)``, the user's units).  It is traced
        and batched over the members with ``vmap``: ``candidate`` is a traced
        integer and ``rng`` a ``sciax.random`` key (one per member and
        generation), not a NumPy generator.
    maxiter : int, optional
        Maximum number of generations.
    popsize : int, optional
        Population size multiplier: ``max(5, popsize * (N - N_equal))``
        members (``N_equal``: coordinates with equal bounds).  ``'sobol'``
        rounds up to a power of two; an ``init`` array sets the size itself.
    tol, atol : float, optional
        Stop when ``std(energies) <= atol + tol * abs(mean(energies))``.
    mutation : float or (float, float), optional
        Differential weight ``F`` in ``[0, 2)``; a pair ``(min, max)`` dithers:
        ``F ~ U[min, max)`` drawn afresh each generation.
    recombination : float, optional
        Crossover probability ``CR``.
    seed, rng : int, sciax.random key or numpy Generator, optional
        Randomness (give one of them).  The same seed gives the same result
        eagerly and under ``jit``; ``None`` draws fresh entropy from the
        operating system at the call (under ``jit``, at trace time: pass a key).
    callback : callable, optional
        ``callback(intermediate_result=OptimizeResult)`` (fields ``x``,
        ``fun``, ``nit``, ``nfev``, ``convergence``, ``population``,
        ``population_energies``) or SciPy's older ``callback(x,
        convergence=val)``, after each generation; returning ``True`` or
        raising ``StopIteration`` stops the search (polishing still runs).  It
        runs on the host, also under ``jit`` (once per lane under ``vmap``).
    disp : bool, optional
        Print the best energy of each generation.
    polish : bool, optional
        Finish with :func:`minimize` (``'L-BFGS-B'`` within the bounds, exact
        gradients) from the best member; kept only if it improves ``fun``.
    init : str or array_like, optional
        ``'latinhypercube'`` (default), ``'random'``, ``'sobol'`` (up to 21
        parameters; the population grows to a power of two), ``'halton'``, or
        an ``(S, N)`` array (clipped to the bounds) as the initial population.
    updating : {'immediate', 'deferred'}, optional
        Accepted; sciax always updates once per generation (SciPy's
        ``'deferred'``), which is what lets the population be evaluated in one
        batched call.
    workers : int or map-like, optional
        Ignored: the population is evaluated by one ``vmap``-ed call.
    constraints : NonlinearConstraint, LinearConstraint, Bounds or a sequence
        Constraints beyond the bounds, handled as SciPy does (Lampinen's
        rules): a feasible trial replaces an infeasible member, two feasible
        ones compare energies, and an infeasible trial replaces its parent
        only if it violates no component more; infeasible members get energy
        ``inf`` and do not count as evaluations.  With ``vectorized=True`` a
        constraint function takes ``x`` of shape ``(N, S)`` and returns
        ``(M, S)``.  Polishing then uses ``'trust-constr'``.  The result gains
        ``constr`` (each constraint's violation at ``x``), ``constr_violation``
        and ``maxcv``; a result that violates a constraint is not a success.
    x0 : array_like, optional
        Replaces the first population member (must lie within the bounds).
    integrality : array_like of bool, optional
        Coordinates restricted to integers (rounded as SciPy does); they are
        held fixed while polishing.
    vectorized : bool, optional
        ``func`` takes ``x`` of shape ``(N, S)`` and returns ``(S,)``; each call
        counts as one evaluation, as SciPy.

    Returns
    -------
    res : OptimizeResult
        ``x``, ``fun``, ``nit``, ``nfev``, ``success``, ``message``,
        ``population``, ``population_energies``, when polishing ``jac``
        (the gradient at ``x``), and with constraints ``constr``,
        ``constr_violation`` and ``maxcv``.

    Raises
    ------
    ValueError
        Bounds of the wrong shape, not finite, or with a lower bound above an
        upper one; an unknown strategy, init or updating value; ``popsize < 1``;
        a mutation outside ``[0, 2)``; an ``init`` array or ``x0`` of the wrong
        shape, ``x0`` outside the bounds; integer coordinates without an integer
        between their bounds; constraints that are not constraint objects (or
        whose shapes do not fit); a callable strategy returning the wrong shape.
    NotImplementedError
        ``init='sobol'`` with more than 21 parameters.

    Notes
    -----
    Differences from SciPy: the population is updated once per generation
    (SciPy's ``updating='deferred'``) whatever ``updating`` says; the random
    numbers come from ``sciax.random``, so the iterates differ from SciPy's
    (its minima do not); ``'sobol'`` and ``'halton'`` are randomly shifted
    (digitally for Sobol'), not scrambled, point sets.  With constraints,
    ``func`` is evaluated on the whole population in one batched call, also
    on infeasible members (their values are discarded), so it should return a
    number (not raise) anywhere in the bounds; SciPy's warning that polishing
    starts from an infeasible point is not issued.

    Transformations: the generation loop is one ``lax.while_loop``, so the
    whole search works under ``jit`` and ``vmap`` (over ``args``, ``x0`` or
    the key; each lane keeps its own population, ``nit`` and stop reason).
    Eager calls compile once per function, strategy and argument shapes
    (numeric options such as ``maxiter``, ``tol`` or ``mutation`` are operands
    and do not recompile).  The search is not differentiable (reverse mode
    raises at the loop); the derivative of the minimum value with respect to
    ``args`` is that of ``func(res.x, *args)`` with ``res.x`` held fixed
    (envelope theorem).

    Examples
    --------
    >>> from sciax.optimize import differential_evolution, rosen
    >>> res = differential_evolution(rosen, [(0, 2)] * 3, seed=1, polish=False)
    >>> print(np.round(np.asarray(res.x), 5), res.success, res.message)
    [1. 1. 1.] True Optimization terminated successfully.

    Ackley's function has a local minimum at every integer point; batched
    over shifted centres with ``vmap``:

    >>> def ackley(x, c):
    ...     y = x - c
    ...     a = -20 * snp.exp(-0.2 * snp.sqrt(0.5 * snp.sum(y ** 2)))
    ...     return a - snp.exp(0.5 * snp.sum(snp.cos(2 * snp.pi * y))) + snp.e + 20
    >>> cs = snp.array([[0.0, 0.0], [1.5, -2.25]])
    >>> res = sciax.vmap(lambda c: differential_evolution(
    ...     ackley, [(-5, 5), (-5, 5)], args=(c,), seed=2, polish=False))(cs)
    >>> print(np.round(np.asarray(res.x), 6) + 0.0)
    [[ 0.    0.  ]
     [ 1.5  -2.25]]

    A linear constraint ``x0 + x1 <= 1`` cuts the box; the minimum of
    ``(x0 - 0.8)^2 + (x1 - 0.8)^2`` moves to the line:

    >>> from sciax.optimize import LinearConstraint
    >>> res = differential_evolution(
    ...     lambda x: snp.sum((x - 0.8) ** 2), [(0, 1), (0, 1)], seed=3,
    ...     constraints=LinearConstraint([[1.0, 1.0]], -np.inf, 1.0), polish=False,
    ...     tol=1e-10)
    >>> print(np.round(np.asarray(res.x), 3), res.success, float(res.maxcv))
    [0.5 0.5] True 0.0
    """
    if not callable(func):
        raise TypeError(f"func must be callable, got {type(func).__name__}")
    if not callable(strategy) and strategy not in _STRATEGIES:
        raise ValueError(f"Please select a valid mutation strategy; got {strategy!r}, "
                         f"expected one of {sorted(_STRATEGIES)}")
    if updating not in ("immediate", "deferred"):
        raise ValueError(f"updating must be 'immediate' or 'deferred', got "
                         f"{updating!r}")
    popsize = int(popsize)
    if popsize < 1:
        raise ValueError(f"popsize must be at least 1, got {popsize}")
    maxiter = 1000 if maxiter is None else int(maxiter)
    mut = np.atleast_1d(np.asarray(mutation, float))
    if mut.size not in (1, 2) or not np.all(np.isfinite(mut)) or np.any(
            mut >= 2) or np.any(mut < 0):
        raise ValueError("The mutation constant must be a float in U[0, 2), or "
                         "specified as a tuple(min, max) where min < max and min, "
                         "max are in U[0, 2).")
    mut = tuple(sorted(float(m) for m in mut))
    lb, ub = _de_bounds(bounds)
    N = lb.shape[0]
    integ = ()
    if integrality is not None and np.any(integrality):
        im = np.broadcast_to(np.asarray(integrality, bool), (N,))
        ilb, iub = np.ceil(lb), np.floor(ub)
        if not np.all(ilb[im] <= iub[im]):
            raise ValueError("One of the integrality constraints does not have any "
                             "possible integer values between the lower/upper "
                             "bounds.")
        # each integer owns the interval that rounds to it
        lb[im] = np.nextafter(ilb[im] - 0.5, np.inf)
        ub[im] = np.nextafter(iub[im] + 0.5, -np.inf)
        integ = tuple(bool(b) for b in im)
    n_eq = int(np.count_nonzero(lb == ub))
    S = max(5, popsize * max(1, N - n_eq))
    init_pop = None
    if isinstance(init, str):
        if init not in _INITS:
            raise ValueError(f"The population initialization method must be one of "
                             f"'latinhypercube', 'random', 'halton' or 'sobol', or "
                             f"an array of shape (S, N); got {init!r}")
        if init == "sobol":
            if N > SOBOL_MAX_DIM:
                raise NotImplementedError(
                    f"differential_evolution: init='sobol' has direction numbers "
                    f"for up to {SOBOL_MAX_DIM} parameters, got {N}; use 'halton' "
                    f"or 'latinhypercube'")
            S = int(2 ** np.ceil(np.log2(S)))
        init_kind = init
    else:
        ia = snp.asarray(init)
        if ia.ndim != 2 or ia.shape[0] < 5 or ia.shape[1] != N:
            raise ValueError(f"The population supplied needs to have shape "
                             f"(S, len(x)), "
                             f"where S > 4; got {tuple(ia.shape)} for len(x) = {N}")
        S = int(ia.shape[0])
        c1, c2 = 0.5 * (lb + ub), np.abs(lb - ub)
        rc2 = np.where(c2 > 0, 1.0 / np.where(c2 > 0, c2, 1.0), 0.0)
        init_pop = snp.clip((ia.astype(snp.result_type(ia, 1.0)) - c1) * rc2 + 0.5,
                            0.0, 1.0)
        init_kind = "array"
    x0a = None
    if x0 is not None:
        x0a = snp.asarray(x0)
        x0a = x0a.astype(snp.result_type(x0a, 1.0))
        if tuple(x0a.shape) != (N,):
            raise ValueError(f"x0 must have shape ({N},), got {tuple(x0a.shape)}")
        try:
            xn = np.asarray(x0a)
        except Exception:  # traced: no check
            xn = None
        if xn is not None and np.any((xn < lb) | (xn > ub)):
            raise ValueError("Some entries in x0 lay outside the specified bounds")
    wrapped = _de_constraints(constraints, N)
    # what polishing hands to minimize('trust-constr')
    polish_cons = [LinearConstraint(f.A, lo, hi) if isinstance(f, _LinearMap)
                   else NonlinearConstraint(f, lo, hi) for f, lo, hi in wrapped]
    key = _make_key(seed, rng)
    rule, nsamp, cx = (strategy, 0, "") if callable(strategy) else _STRATEGIES[strategy]
    cfg = _DEConfig(rule=rule, nsamp=nsamp, crossover=cx, dither=len(mut) == 2,
                    polish=bool(polish) and not (integ and all(integ)),
                    init=init_kind, S=S, N=N, vectorized=bool(vectorized),
                    disp=bool(disp), lb=tuple(lb.tolist()), ub=tuple(ub.tolist()),
                    integrality=integ)
    tree, dyn_pos, dyn, statics = _split_args(args)
    run = _cached_jit(("de", func, cfg, callback, tree, dyn_pos, statics,
                       _de_constraint_key(wrapped)),
                      lambda: _de_runner(func, cfg, callback, tree, dyn_pos, statics,
                                         polish_cons, wrapped))
    # numeric options are operands, so changing them does not recompile
    prm = dict(maxiter=np.int32(maxiter), tol=np.float64(tol), atol=np.float64(atol),
               mutation=np.array(mut * (3 - len(mut)))[:2],
               recombination=np.float64(recombination))
    return run(key, init_pop, x0a, dyn, prm)


# --- basin-hopping -----------------------------------------------------------------


def basinhopping(func: Callable, x0: Any, niter: int = 100, T: float = 1.0,
                 stepsize: float = 0.5, minimizer_kwargs: dict | None = None,
                 take_step: Callable | None = None,
                 accept_test: Callable | None = None,
                 callback: Callable | None = None, interval: int = 50,
                 disp: bool = False, niter_success: int | None = None,
                 seed: Any = None, *, target_accept_rate: float = 0.5,
                 stepwise_factor: float = 0.9, rng: Any = None) -> OptimizeResult:
    """sciax implementation of :func:`scipy.optimize.basinhopping`.

    Find the global minimum of a function by basin-hopping: a random
    displacement of the current point, a local minimisation from there, and a
    Metropolis test at temperature ``T`` that accepts or rejects the new
    minimum; the lowest minimum seen is returned.

    Parameters
    ----------
    func : callable
        ``func(x, *args) -> float`` written with sciax (``args`` come from
        ``minimizer_kwargs``).
    x0 : array_like
        Initial guess.
    niter : int, optional
        Number of basin-hopping steps (``niter + 1`` local minimisations).
    T : float, optional
        Temperature of the Metropolis test (``0``: only downhill moves).
    stepsize : float, optional
        Initial half-width of the uniform random displacement.
    minimizer_kwargs : dict, optional
        Keyword arguments of :func:`sciax.optimize.minimize` (``method``
        defaults to BFGS, ``args``, ``jac``, ``bounds``, ``options``...).
    take_step : callable, optional
        ``take_step(x) -> x_new`` replacing the random displacement; if it has
        a ``stepsize`` attribute, that attribute is adapted as SciPy does.
    accept_test : callable, optional
        ``accept_test(f_new=, x_new=, f_old=, x_old=)`` (or with keyword-only
        ``res_new``, ``res_old``) returning ``True``, ``False`` or
        ``"force accept"``, combined with the Metropolis test.
    callback : callable, optional
        ``callback(x, f, accept)`` for every minimum found; returning ``True``
        stops the search.
    interval : int, optional
        Steps between step-size updates.
    disp : bool, optional
        Print the energy after each step.
    niter_success : int, optional
        Stop when the lowest minimum has not improved for this many steps.
    seed, rng : int, sciax.random key or numpy Generator, optional
        Randomness of the default displacement and of the Metropolis test
        (give one of them); ``None`` draws fresh operating-system entropy.
    target_accept_rate : float, optional
        Acceptance rate the step size is steered to, in ``(0, 1)``.
    stepwise_factor : float, optional
        Factor in ``(0, 1)`` that multiplies or divides the step size at each
        update.

    Returns
    -------
    res : OptimizeResult
        ``x``, ``fun``, ``nit``, ``nfev`` (and ``njev``/``nhev`` when the local
        method reports them), ``minimization_failures``,
        ``lowest_optimization_result``, ``message`` (a one-element list, as
        SciPy) and ``success`` (of the lowest local minimisation).

    Raises
    ------
    ValueError
        ``target_accept_rate`` or ``stepwise_factor`` outside ``(0, 1)``,
        ``niter < 0``, ``interval < 1``.
    TypeError
        ``take_step`` or ``accept_test`` not callable.

    Notes
    -----
    The whole search is one ``lax.while_loop`` with the local minimisation
    inside, so it works under ``jit`` and ``vmap`` (e.g. over ``x0`` or
    ``args``).  ``take_step``, ``accept_test`` and ``callback`` are Python
    functions of NumPy arrays run on the host inside that loop (through
    :func:`sciax.pure_callback`; once per lane under ``vmap``).  The random
    numbers come from ``sciax.random``, so the walk differs from SciPy's.
    Numeric options (``niter``, ``T``, ``stepsize``...) are operands of the
    compiled program, so changing them does not recompile.  The search is not
    differentiable (reverse mode raises at the loop); differentiate a final
    :func:`minimize` started from ``res.x`` instead.

    Examples
    --------
    >>> from sciax.optimize import basinhopping
    >>> func = lambda x: snp.cos(14.5 * x[0] - 0.3) + (x[0] + 0.2) * x[0]
    >>> ret = basinhopping(func, [1.0], niter=200, seed=0)
    >>> print(np.round(np.asarray(ret.x), 4), round(float(ret.fun), 4))
    [-0.1951] -1.0009
    """
    if not 0.0 < target_accept_rate < 1.0:
        raise ValueError("target_accept_rate has to be in range (0, 1)")
    if not 0.0 < stepwise_factor < 1.0:
        raise ValueError("stepwise_factor has to be in range (0, 1)")
    if not callable(func):
        raise TypeError(f"func must be callable, got {type(func).__name__}")
    if take_step is not None and not callable(take_step):
        raise TypeError("take_step must be callable")
    if accept_test is not None and not callable(accept_test):
        raise TypeError("accept_test must be callable")
    niter, interval = int(niter), int(interval)
    if niter < 0:
        raise ValueError(f"niter must be non-negative, got {niter}")
    if interval < 1:
        raise ValueError(f"interval must be at least 1, got {interval}")
    niter_success = niter + 2 if niter_success is None else int(niter_success)
    mkw = dict(minimizer_kwargs or {})
    args = mkw.pop("args", ())
    x0a = snp.atleast_1d(snp.asarray(x0))  # as SciPy's minimize sees it
    x0a = x0a.astype(snp.result_type(x0a, 1.0))
    key = _make_key(seed, rng)
    tree, dyn_pos, dyn, statics = _split_args(args)
    cfg = (bool(disp),)
    # numeric options are operands, so changing them does not recompile
    prm = dict(niter=np.int32(niter), beta=np.float64(1.0 / T if T != 0 else np.inf),
               stepsize=np.float64(stepsize), interval=np.int32(interval),
               niter_success=np.int32(min(niter_success, 2 ** 31 - 1)),
               target=np.float64(target_accept_rate),
               factor=np.float64(stepwise_factor))
    try:
        mkey = tuple(sorted((k, _hashable(v)) for k, v in mkw.items()))
    except TypeError:
        mkey = [0]  # unhashable: not cached
    run = _cached_jit(("bh", func, cfg, mkey, take_step, accept_test, callback, tree,
                       dyn_pos, statics),
                      lambda: _bh_runner(func, cfg, mkw, take_step, accept_test,
                                         callback, tree, dyn_pos, statics))
    return run(key, x0a, dyn, prm)


def _hashable(v):
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(w)) for k, w in v.items()))
    if isinstance(v, list):
        return tuple(_hashable(w) for w in v)
    hash(v)
    return v


def _bh_runner(func, cfg, mkw, take_step, accept_test, callback, tree, dyn_pos,
               statics):
    (disp,) = cfg
    adaptive = take_step is None or hasattr(take_step, "stepsize")

    def run(key, x0, dyn, prm):
        args = _rebuild(tree, dyn_pos, statics, dyn)
        niter, interval = prm["niter"], prm["interval"]
        target, factor = prm["target"], prm["factor"]

        def local(x):
            r = minimize(func, x, args=args, **mkw)
            return r, _minres_ok(r)

        def counts(r):
            return [r[k] if k in r else snp.int32(0) for k in ("nfev", "njev", "nhev")]

        r0, ok0 = local(x0)
        if callback is not None:
            _host_stop(lambda x, f, a: callback(x, f, bool(a)))(
                r0.x, r0.fun, snp.bool_(True))
        if disp:
            sciax.debug.callback(lambda n, f: print(
                f"basinhopping step {0}: f {float(np.ravel(f)[0]):g}"), 0, r0.fun)
        c0 = dict(x=r0.x, f=r0.fun, ok=ok0, low=r0, low_ok=ok0,
                  step=snp.asarray(prm["stepsize"], x0.dtype), nacc=snp.int32(0),
                  key=key,
                  i=snp.int32(0), count=snp.int32(0),
                  code=snp.where(niter <= 0, _BH_DONE, _RUNNING).astype(snp.int32),
                  n=counts(r0), fails=(~ok0).astype(snp.int32))

        def body(c):
            i = c["i"] + 1
            step = c["step"]
            if adaptive:
                rate = c["nacc"] / i
                step = snp.where(i % interval == 0,
                                 snp.where(rate > target, step / factor, step * factor),
                                 step)
            u, key = _draw(c["key"], c["x"].size + 1, c["x"].dtype)
            if take_step is None:
                xs = c["x"] + step * (2.0 * u[1:].reshape(c["x"].shape) - 1.0)
            else:
                xs = _host_take_step(take_step, c["x"], step)
            r, ok = local(xs)
            # Metropolis: accept downhill always, uphill with exp(-beta * df)
            df = r.fun - c["f"]
            prod = snp.where(df == 0, 0.0, -df * prm["beta"])
            w = snp.exp(snp.minimum(0.0, prod))
            metro = (w >= u[0]) & (ok | ~c["ok"])
            if accept_test is None:
                accept = metro
            else:
                t = _host_accept(accept_test, r.x, r.fun, ok, c["x"], c["f"], c["ok"])
                accept = (t == 2) | ((t == 1) & metro)
            new_low = accept & ok & ((r.fun < c["low"].fun) | ~c["low_ok"])
            pick = lambda a, b, p: sciax.tree.map(lambda u, v: snp.where(p, u, v), a, b)
            stop = snp.bool_(False)
            if callback is not None:
                stop = _host_stop(lambda x, f, a: callback(x, f, bool(a)))(
                    r.x, r.fun, accept)
            if disp:
                sciax.debug.callback(_print_bh, i, snp.where(accept, r.fun, c["f"]),
                                     r.fun, accept, snp.where(new_low, r.fun,
                                                              c["low"].fun))
            count = snp.where(new_low, 0, c["count"] + 1)
            code = snp.where(stop, _BH_CALLBACK, snp.where(
                ~new_low & (count > prm["niter_success"]), _BH_SUCCESS,
                snp.where(i >= niter, _BH_DONE, _RUNNING)))
            return dict(x=pick(r.x, c["x"], accept), f=snp.where(accept, r.fun, c["f"]),
                        ok=snp.where(accept, ok, c["ok"]),
                        low=pick(r, c["low"], new_low),
                        low_ok=snp.where(new_low, ok, c["low_ok"]), step=step,
                        nacc=c["nacc"] + accept.astype(snp.int32), key=key, i=i,
                        count=count, code=code.astype(snp.int32),
                        n=[a + b for a, b in zip(c["n"], counts(r))],
                        fails=c["fails"] + (~ok).astype(snp.int32))

        c = lax.while_loop(lambda c: c["code"] == _RUNNING, body, c0)
        low = c["low"]
        res = GlobalResult(x=low.x, fun=low.fun, nit=snp.maximum(c["i"], 1),
                           nfev=c["n"][0], minimization_failures=c["fails"],
                           lowest_optimization_result=low, _code=c["code"],
                           _ok=c["low_ok"])
        for k, v in zip(("njev", "nhev"), c["n"][1:]):
            if k in low:
                res[k] = v
        return res

    return run


def _host_take_step(take_step, x, step):
    def host(x, s):
        if hasattr(take_step, "stepsize"):
            take_step.stepsize = float(s)
        return np.asarray(take_step(np.array(x)), dtype=x.dtype).reshape(x.shape)
    return sciax.pure_callback(host, sciax.ShapeDtypeStruct(x.shape, x.dtype), x, step)


def _host_accept(accept_test, x_new, f_new, ok_new, x_old, f_old, ok_old):
    try:
        ps = inspect.signature(accept_test).parameters
        new_style = set(ps) == {"res_new", "res_old"}
    except (TypeError, ValueError):
        new_style = False

    def host(xn, fn, okn, xo, fo, oko):
        if new_style:
            t = accept_test(res_new=OptimizeResult(x=xn, fun=fn, _success=bool(okn)),
                            res_old=OptimizeResult(x=xo, fun=fo, _success=bool(oko)))
        else:
            t = accept_test(f_new=fn, x_new=xn, f_old=fo, x_old=xo)
        if isinstance(t, str) and t == "force accept":
            return np.int32(2)
        if t is None:
            raise ValueError("accept_tests must return True, False, or 'force accept'")
        return np.int32(1 if t else 0)
    return sciax.pure_callback(host, sciax.ShapeDtypeStruct((), snp.int32), x_new,
                               f_new, ok_new, x_old, f_old, ok_old)


def _print_bh(i, f, f_trial, accept, f_low):
    for v in zip(*(np.atleast_1d(a) for a in (i, f, f_trial, accept, f_low))):
        print(f"basinhopping step {int(v[0])}: f {float(v[1]):g} trial_f "
              f"{float(v[2]):g} accepted {bool(v[3])} lowest_f {float(v[4]):g}")
