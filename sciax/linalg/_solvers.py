"""Matrix equations: solve_sylvester, solve_continuous_lyapunov (solve_lyapunov),
solve_discrete_lyapunov, solve_continuous_are, solve_discrete_are.

* Sylvester and continuous Lyapunov equations: Bartels-Stewart on the complex
  Schur forms (LAPACK gees), the triangular equation solved column by column
  in a ``fori_loop`` of triangular solves, O(n^3).  The Schur decomposition
  has no derivative, so ``solve_sylvester`` carries a ``custom_jvp``: the
  tangent solves the same equation, ``A dX + dX B = dQ - dA X - X dB``, with
  the Schur factors already computed (one more O(n^3) sweep, linear in the
  tangents, hence transposable for reverse mode).
* Discrete Lyapunov: SciPy's methods, the Kronecker-vectorised solve
  ("direct", the default for n < 10) or the bilinear map to a continuous one.
* Riccati equations: iterations written in sciax.numpy, so derivatives come
  by tracing: the Newton iteration for the matrix sign function of the
  Hamiltonian (continuous) and the structured doubling algorithm (discrete),
  both quadratically convergent, run in a fixed-length loop whose steps are
  skipped (``lax.cond``) once converged so that reverse mode works.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax.linalg import _util

__all__ = ["solve_sylvester", "solve_continuous_lyapunov", "solve_lyapunov",
           "solve_discrete_lyapunov", "solve_continuous_are", "solve_discrete_are"]


def _mT(x: Any) -> Any:
    return snp.swapaxes(x, -1, -2)


def _mH(x: Any) -> Any:
    return snp.conj(_mT(x)) if _util.is_complex(x) else _mT(x)


def _complex(x: Any) -> Any:
    return x if _util.is_complex(x) else x.astype(snp.result_type(x.dtype, snp.complex64))


def _eye(n: int, dtype: Any) -> Any:
    return snp.eye(n, dtype=dtype)


def _norm1(x: Any) -> Any:
    """Max column sum, per matrix of a batch."""
    return snp.max(snp.sum(snp.abs(x), axis=-2), axis=-1)


# --- triangular Sylvester equations ------------------------------------------------

def triangular_sylvester(t: Any, s: Any, c: Any) -> Any:
    """Solve ``T Y + Y S = C`` for upper triangular ``T`` (n, n) and ``S`` (m, m).

    Column ``k`` of ``Y`` solves ``(T + S[k, k] I) y_k = c_k - Y[:, :k] S[:k, k]``,
    an O(n^2) triangular solve, so the loop is O(n^2 m + n m^2); it is linear
    in ``c`` (so its tangent and transpose are the same kind of sweep).  All
    arguments share the batch shape and the (complex) dtype.
    """
    n, m = c.shape[-2], c.shape[-1]
    dtype = c.dtype
    eye_n = _eye(n, dtype)
    s_diag = snp.diagonal(s, 0, -2, -1)

    def column(k, y):
        ek = (snp.arange(m) == k).astype(dtype)
        skk = snp.sum(s_diag * ek, axis=-1)
        rhs = snp.matmul(c, ek[:, None]) - snp.matmul(y, snp.matmul(s, ek[:, None]))
        col = lax.linalg.triangular_solve(t + skk[..., None, None] * eye_n, rhs,
                                          left_side=True, lower=False)
        return y + col * ek
    return lax.fori_loop(0, m, column, snp.zeros_like(c))


def _schur_c(a: Any) -> tuple[Any, Any]:
    """Complex Schur form ``a = z t z^H`` (t upper triangular)."""
    t, z = lax.linalg.schur(_complex(a))
    return t, z


def _sylvester_in_schur(ta, za, tb, zb, q, real: bool) -> Any:
    y = triangular_sylvester(ta, tb, snp.matmul(_mH(za), snp.matmul(_complex(q), zb)))
    x = snp.matmul(za, snp.matmul(y, _mH(zb)))
    return snp.real(x) if real else x


@sciax.custom_jvp
def _sylvester(a: Any, b: Any, q: Any) -> Any:
    real = not _util.is_complex(q)
    ta, za = _schur_c(a)
    tb, zb = _schur_c(b)
    return _sylvester_in_schur(ta, za, tb, zb, q, real)


@_sylvester.defjvp
def _sylvester_jvp(primals, tangents):
    a, b, q = primals
    da, db, dq = tangents
    real = not _util.is_complex(q)
    ta, za = _schur_c(a)
    tb, zb = _schur_c(b)
    x = _sylvester_in_schur(ta, za, tb, zb, q, real)
    rhs = dq - snp.matmul(da, x) - snp.matmul(x, db)
    return x, _sylvester_in_schur(ta, za, tb, zb, rhs, real)


def _square(name: str, x: Any, what: str) -> Any:
    return _util.matrix(name, x, square=True, what=what)


def solve_sylvester(a: Any, b: Any, q: Any) -> Any:
    """Solve the Sylvester equation ``A X + X B = Q``.

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    b : array_like, shape (..., N, N)
    q : array_like, shape (..., M, N)
        Leading axes are batch axes and broadcast together.

    Returns
    -------
    x : Array, shape (..., M, N)
        Real for real input (SciPy's dtype rules: integers compute in float64).

    Notes
    -----
    Bartels-Stewart, as SciPy: complex Schur forms ``A = U T U^H``, ``B = V S
    V^H``, then the triangular equation ``T Y + Y S = U^H Q V`` column by
    column (``lax.fori_loop`` of triangular solves) and ``X = U Y V^H``.  When
    ``A`` and ``-B`` share an eigenvalue the equation is singular; SciPy may
    still return a (meaningless) finite answer, here infs/NaNs appear.

    Works under jit and vmap.  Differentiable in ``a``, ``b`` and ``q``
    (forward and reverse) through a custom JVP: the tangent solves the same
    equation with ``dQ - dA X - X dB``, reusing the Schur factors.

    Examples
    --------
    >>> import sciax.linalg
    >>> a = np.array([[-3.0, -2.0], [0.0, -1.0]])
    >>> b = np.array([[2.0, 0.0], [0.0, 4.0]])
    >>> q = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> x = sciax.linalg.solve_sylvester(a, b, q)
    >>> np.allclose(a @ x + x @ b, q)
    True
    """
    a, b, q = _util.inexact("solve_sylvester", a, b, q)
    _square("solve_sylvester", a, "a")
    _square("solve_sylvester", b, "b")
    _util.matrix("solve_sylvester", q, what="q")
    m, n = a.shape[-1], b.shape[-1]
    if q.shape[-2:] != (m, n):
        raise ValueError(f"solve_sylvester: q must have shape (..., {m}, {n}) to match "
                         f"a {a.shape} and b {b.shape}, got {q.shape}")
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2], q.shape[:-2]))
    a = snp.broadcast_to(a, batch + a.shape[-2:])
    b = snp.broadcast_to(b, batch + b.shape[-2:])
    q = snp.broadcast_to(q, batch + q.shape[-2:])
    if 0 in (m, n):
        return snp.zeros_like(q)
    return _sylvester(a, b, q)


def solve_continuous_lyapunov(a: Any, q: Any) -> Any:
    """Solve the continuous Lyapunov equation ``A X + X A^H = Q``.

    Parameters
    ----------
    a, q : array_like, shape (..., M, M)

    Returns
    -------
    x : Array, shape (..., M, M)

    Notes
    -----
    :func:`solve_sylvester` with ``B = A^H`` (Bartels-Stewart, as SciPy), so
    jit, vmap and derivatives behave as there.  ``solve_lyapunov`` is the
    same function (SciPy's old name).

    Examples
    --------
    >>> import sciax.linalg
    >>> a = np.array([[-1.0, 2.0], [0.0, -3.0]])
    >>> x = sciax.linalg.solve_continuous_lyapunov(a, -np.eye(2))
    >>> np.allclose(a @ x + x @ a.T, -np.eye(2))
    True
    """
    a, q = _util.inexact("solve_continuous_lyapunov", a, q)
    _square("solve_continuous_lyapunov", a, "a")
    _square("solve_continuous_lyapunov", q, "q")
    if a.shape[-1] != q.shape[-1]:
        raise ValueError("solve_continuous_lyapunov: a and q must have the same shape, "
                         f"got {a.shape} and {q.shape}")
    return solve_sylvester(a, _mH(a), q)


solve_lyapunov = solve_continuous_lyapunov


def _lyap_direct(a: Any, q: Any) -> Any:
    # X - A X A^H = Q  <=>  (I - A (x) conj(A)) vec_r(X) = vec_r(Q)
    n = a.shape[-1]
    ac = snp.conj(a) if _util.is_complex(a) else a
    k = (a[..., :, None, :, None] * ac[..., None, :, None, :]).reshape(
        a.shape[:-2] + (n * n, n * n))
    lhs = _eye(n * n, a.dtype) - k
    x = snp.linalg.solve(lhs, q.reshape(q.shape[:-2] + (n * n, 1)))
    return x.reshape(q.shape)


def _lyap_bilinear(a: Any, q: Any) -> Any:
    # SciPy's map to A' X + X A'^H = Q' with A' = (A^H - I)(A^H + I)^{-1} ...
    eye = _eye(a.shape[-1], a.dtype)
    ah = _mH(a)
    ahi_inv = snp.linalg.inv(ah + eye)
    b = snp.matmul(ah - eye, ahi_inv)
    c = 2 * snp.matmul(snp.linalg.solve(a + eye, q), ahi_inv)
    return solve_continuous_lyapunov(_mH(b), -c)


def solve_discrete_lyapunov(a: Any, q: Any, method: str | None = None) -> Any:
    """Solve the discrete Lyapunov equation ``A X A^H - X + Q = 0``.

    Parameters
    ----------
    a, q : array_like, shape (..., M, M)
    method : {None, "direct", "bilinear"}
        ``"direct"``: the Kronecker-vectorised ``M^2 x M^2`` system, O(M^6);
        ``"bilinear"``: the Cayley map to a continuous Lyapunov equation,
        O(M^3).  Default (SciPy's): direct for ``M < 10``, else bilinear.

    Returns
    -------
    x : Array, shape (..., M, M)

    Notes
    -----
    Both methods are sciax.numpy code over LU solves and (bilinear) the
    Bartels-Stewart solver, so jit, vmap and derivatives work.  The equation
    is singular when two eigenvalues of ``A`` multiply to 1 (e.g. an
    eigenvalue on the unit circle); the result is then infs/NaNs or garbage,
    as in SciPy.

    Examples
    --------
    >>> import sciax.linalg
    >>> a = np.array([[0.2, 0.5], [0.7, -0.9]])
    >>> x = sciax.linalg.solve_discrete_lyapunov(a, np.eye(2))
    >>> np.allclose(a @ x @ a.T - x + np.eye(2), 0.0)
    True
    """
    a, q = _util.inexact("solve_discrete_lyapunov", a, q)
    _square("solve_discrete_lyapunov", a, "a")
    _square("solve_discrete_lyapunov", q, "q")
    if a.shape[-1] != q.shape[-1]:
        raise ValueError("solve_discrete_lyapunov: a and q must have the same shape, "
                         f"got {a.shape} and {q.shape}")
    if method is None:
        method = "direct" if a.shape[-1] < 10 else "bilinear"
    if method not in ("direct", "bilinear"):
        raise ValueError(f"solve_discrete_lyapunov: unknown solver {method!r}; use "
                         "'direct' or 'bilinear'")
    batch = tuple(np.broadcast_shapes(a.shape[:-2], q.shape[:-2]))
    a = snp.broadcast_to(a, batch + a.shape[-2:])
    q = snp.broadcast_to(q, batch + q.shape[-2:])
    return _lyap_direct(a, q) if method == "direct" else _lyap_bilinear(a, q)


# --- Riccati equations ---------------------------------------------------------------

def _converging_loop(step, init, diff, max_iter: int, tol: float):
    """Apply ``step`` until ``diff(old, new) <= tol`` (then the iterate of a
    quadratically convergent method is accurate to ~tol^2), at most
    ``max_iter`` times.  A fixed-length ``fori_loop`` whose finished steps are
    skipped by ``lax.cond``, so reverse-mode derivatives work; under vmap the
    steps of finished members are computed and discarded."""
    def body(_, carry):
        state, done = carry

        def advance(state):
            new = step(state)
            return new, diff(state, new) <= tol
        return lax.cond(done, lambda s: (s, done), advance, state)
    done0 = snp.zeros((), dtype=bool)
    state, _ = lax.fori_loop(0, max_iter, body, (init, done0))
    return state


def _rel_change(old: Any, new: Any) -> Any:
    return snp.max(_norm1(new - old) / snp.maximum(_norm1(new), 1e-300))


def _riccati_args(name: str, a, b, q, r, e, s, discrete: bool):
    args = [a, b, q, r] + [x for x in (e, s) if x is not None]
    arrs = _util.inexact(name, *args)
    a, b, q, r = arrs[:4]
    rest = arrs[4:]
    e = rest.pop(0) if e is not None else None
    s = rest.pop(0) if s is not None else None
    for x, what in ((a, "a"), (q, "q"), (r, "r")):
        _square(name, x, what)
    _util.matrix(name, b, what="b")
    n, m = a.shape[-1], b.shape[-1]
    if b.shape[-2] != n or q.shape[-1] != n or r.shape[-1] != m:
        raise ValueError(f"{name}: incompatible shapes: a {a.shape}, b {b.shape}, "
                         f"q {q.shape}, r {r.shape} (need a, q (n, n), b (n, m), "
                         "r (m, m))")
    if e is not None and e.shape[-2:] != (n, n):
        raise ValueError(f"{name}: e must be ({n}, {n}) like a, got {e.shape}")
    if s is not None and s.shape[-2:] != (n, m):
        raise ValueError(f"{name}: s must be ({n}, {m}) like b, got {s.shape}")
    # Reduce to the standard equation in Y = E^H X E with A~ = E^-1 A,
    # B~ = E^-1 B and the cross term folded in: A^ = A~ - B~ R^-1 S^H,
    # Q^ = Q - S R^-1 S^H.
    if e is not None:
        a = snp.linalg.solve(e, a)
        b = snp.linalg.solve(e, b)
    if s is not None:
        rinv_sh = snp.linalg.solve(r, _mH(s))
        a = a - snp.matmul(b, rinv_sh)
        q = q - snp.matmul(s, rinv_sh)
    g = snp.matmul(b, snp.linalg.solve(r, _mH(b)))
    return a, g, q, e


def _from_y(y: Any, e: Any) -> Any:
    if e is None:
        return y
    # X = E^-H Y E^-1
    w = snp.linalg.solve(_mH(e), y)
    return _mH(snp.linalg.solve(_mH(e), _mH(w)))


def _hermitian(x: Any) -> Any:
    return (x + _mH(x)) / 2


def solve_continuous_are(a: Any, b: Any, q: Any, r: Any, e: Any = None, s: Any = None,
                         balanced: bool = True) -> Any:
    """Solve the continuous-time algebraic Riccati equation.

    ``A^H X + X A - (X B + S) R^-1 (B^H X + S^H) + Q = 0``, or with ``e``:
    ``E^H X A + A^H X E - (E^H X B + S) R^-1 (B^H X E + S^H) + Q = 0``, for the
    stabilising solution ``X``.

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    b : array_like, shape (..., M, N)
    q : array_like, shape (..., M, M)
    r : array_like, shape (..., N, N), nonsingular
    e : array_like, shape (..., M, M), optional, nonsingular
    s : array_like, shape (..., M, N), optional
    balanced : bool
        Accepted for SciPy compatibility; no balancing is done.

    Returns
    -------
    x : Array, shape (..., M, M)
        Hermitian (symmetrised).

    Notes
    -----
    SciPy uses the ordered Schur form of the Hamiltonian pencil, which LAPACK
    kernels with a selection callback provide and jaxlib's do not.  Here the
    Hamiltonian ``H = [[A, -G], [-Q, -A^H]]`` (``G = B R^-1 B^H``, after
    folding ``e`` and ``s`` in) has its matrix sign function computed by the
    determinant-scaled Newton iteration ``Z <- (mu Z + (mu Z)^-1) / 2``
    (Roberts 1971; Byers 1987), and ``X`` from the least-squares solve of
    ``[W12; W22 + I] X = -[W11 + I; W21]``, ``W = sign(H)``.  The iteration
    converges when the equation has a stabilising solution (no eigenvalue of
    ``H`` on the imaginary axis); otherwise the result holds NaNs or garbage
    where SciPy raises LinAlgError.

    jit and vmap work, and derivatives come by differentiating the
    iteration (at most 100 Newton steps; converged steps are skipped).

    Examples
    --------
    >>> import sciax.linalg
    >>> a = np.array([[4.0, 3.0], [-4.5, -3.5]])
    >>> b = np.array([[1.0], [-1.0]])
    >>> q = np.array([[9.0, 6.0], [6.0, 4.0]])
    >>> x = sciax.linalg.solve_continuous_are(a, b, q, np.eye(1))
    >>> res = a.T @ x + x @ a - x @ b @ b.T @ x + q
    >>> bool(np.abs(np.asarray(res)).max() < 1e-8)
    True
    """
    del balanced
    a, g, q, e = _riccati_args("solve_continuous_are", a, b, q, r, e, s, False)
    n = a.shape[-1]
    batch = tuple(np.broadcast_shapes(a.shape[:-2], g.shape[:-2], q.shape[:-2]))
    a, g, q = (snp.broadcast_to(x, batch + (n, n)) for x in (a, g, q))
    h = snp.concatenate([snp.concatenate([a, -g], axis=-1),
                         snp.concatenate([-q, -_mH(a)], axis=-1)], axis=-2)
    eps = float(snp.finfo(_util.real_dtype(h)).eps)

    def newton(z):
        _, logdet = snp.linalg.slogdet(z)
        mu = snp.exp(-logdet / (2 * n)).astype(z.dtype)[..., None, None]
        return (mu * z + snp.linalg.inv(mu * z)) / 2
    w = _converging_loop(newton, h, _rel_change, 100, np.sqrt(eps))
    eye = _eye(n, h.dtype)
    lhs = snp.concatenate([w[..., :n, n:], w[..., n:, n:] + eye], axis=-2)
    rhs = -snp.concatenate([w[..., :n, :n] + eye, w[..., n:, :n]], axis=-2)
    qq, rr = snp.linalg.qr(lhs)
    y = lax.linalg.triangular_solve(rr, snp.matmul(_mH(qq), rhs), left_side=True,
                                    lower=False)
    return _hermitian(_from_y(_hermitian(y), e))


def solve_discrete_are(a: Any, b: Any, q: Any, r: Any, e: Any = None, s: Any = None,
                       balanced: bool = True) -> Any:
    """Solve the discrete-time algebraic Riccati equation.

    ``A^H X A - X - (A^H X B + S) (R + B^H X B)^-1 (B^H X A + S^H) + Q = 0``, or
    with ``e`` the same with ``E^H X E`` for ``X``, for the stabilising
    solution ``X``.

    Parameters
    ----------
    a : array_like, shape (..., M, M)
    b : array_like, shape (..., M, N)
    q : array_like, shape (..., M, M)
    r : array_like, shape (..., N, N), nonsingular
    e : array_like, shape (..., M, M), optional, nonsingular
    s : array_like, shape (..., M, N), optional
    balanced : bool
        Accepted for SciPy compatibility; no balancing is done.

    Returns
    -------
    x : Array, shape (..., M, M)
        Hermitian (symmetrised).

    Notes
    -----
    ``r`` (and ``e``) must be invertible here: SciPy's extended pencil also
    handles a singular ``r``, which gives NaNs here.
    SciPy uses the ordered generalized Schur form of the symplectic pencil
    (not available from jaxlib's kernels).  Here the structured doubling
    algorithm (Chu, Fan, Lin 2005) iterates ``A_k, G_k, H_k`` from ``A, G =
    B R^-1 B^H, Q`` (after folding ``e`` and ``s`` in) with one LU solve per
    step; ``H_k`` converges quadratically to ``X`` when a stabilising solution
    exists.  Otherwise the result holds NaNs or garbage where SciPy raises.
    jit, vmap and derivatives (through the iteration, at most 100 steps)
    work.

    Examples
    --------
    >>> import sciax.linalg
    >>> a = np.array([[0.0, 1.0], [0.0, -1.0]])
    >>> b = np.array([[1.0, 0.0], [2.0, 1.0]])
    >>> q = np.array([[4.0, 1.0], [1.0, 7.0]])
    >>> r = np.array([[9.0, 3.0], [3.0, 2.0]])
    >>> x = sciax.linalg.solve_discrete_are(a, b, q, r)
    >>> res = (a.T @ x @ a - x - a.T @ x @ b @ np.linalg.solve(r + b.T @ x @ b,
    ...        b.T @ x @ a) + q)
    >>> bool(np.abs(np.asarray(res)).max() < 1e-8)
    True
    """
    del balanced
    a, g, q, e = _riccati_args("solve_discrete_are", a, b, q, r, e, s, True)
    n = a.shape[-1]
    batch = tuple(np.broadcast_shapes(a.shape[:-2], g.shape[:-2], q.shape[:-2]))
    a, g, q = (snp.broadcast_to(x, batch + (n, n)) for x in (a, g, q))
    eye = _eye(n, a.dtype)
    eps = float(snp.finfo(_util.real_dtype(a)).eps)

    def doubling(state):
        ak, gk, hk = state
        w = eye + snp.matmul(gk, hk)
        # one LU of W for W^-1 A_k and W^-1 G_k
        sol = snp.linalg.solve(w, snp.concatenate([ak, gk], axis=-1))
        wa, wg = sol[..., :n], sol[..., n:]
        akh = _mH(ak)
        return (snp.matmul(ak, wa),
                gk + snp.matmul(ak, snp.matmul(wg, akh)),
                hk + snp.matmul(akh, snp.matmul(hk, wa)))

    def diff(old, new):
        return _rel_change(old[2], new[2])
    _, _, y = _converging_loop(doubling, (a, g, q), diff, 100, np.sqrt(eps))
    return _hermitian(_from_y(_hermitian(y), e))
