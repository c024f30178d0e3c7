"""Coverage audit of sciax.linalg: every public function that no other test
differentiates or batches gets a small case here.

For each case, at n = 3 in float64 (complex128 where cheap):

* ``test_grads``: JVP and VJP against central differences
  (``check_grads(order=1, modes=("fwd", "rev"))``);
* ``test_vmap_equals_a_loop``: ``sciax.vmap`` over a batch of 2 against a
  Python loop.

Eigenvectors, singular vectors and Schur/QR-type factors are only unique up
to a gauge (a phase per vector, a rotation of a basis), so they are checked
through gauge-invariant functions: the orthogonal projector
``v v^H / (v^H v)`` onto each eigenvector, ``u_k v_k^H`` for each singular
triple, ``Q Q^H`` for a basis, or factors with the signs fixed (stated where
used). Spectra are well separated: derivatives at repeated eigenvalues are
the business of tests/lax/test_linalg_eig.py.

Not covered here on purpose:

* schur, hessenberg, qr(pivoting=True), eig/eigvals with ``b``, cossin:
  under active work elsewhere (tests/lax/test_linalg_{schur_jvp,hessenberg}.py,
  tests/linalg/test_{qr_pivoting,schur_sort,decomp_gen}.py);
* hilbert, invhilbert, pascal, invpascal, hadamard, dft, helmert: the only
  argument is a static integer size, so there is nothing to differentiate
  or to map over;
* matrix_rank: integer output, piecewise constant (no derivative); its
  vmap is checked below;
* orth, null_space: their output's shape depends on the rank, a value, so
  ``vmap`` raises TypeError by design (documented); their leading batch axes
  are checked against a loop instead, and their derivatives eagerly;
* functions that other tests already differentiate and batch (solve, inv,
  det, lstsq, pinv, norm, cholesky, qr, lu_factor, lu_solve, solve_sylvester,
  solve_discrete_lyapunov, solve_*_are, expm, sqrtm, logm, toeplitz, ...).

Bugs found (``xfail(strict=True)``, so a fix turns them into failures to
remove the mark): ``det`` has a NaN derivative at a singular matrix.

Not bugs, and so not tested: pinv, pinvh, lstsq, orth and null_space at a
rank-deficient matrix and polar's ``P`` at a singular one are not
differentiable there (the rank, or a square root at 0, jumps under any
perturbation), so central differences have nothing to agree with.

Each case is jitted once and that function serves the loop and the finite
differences; ``sciax.jvp``/``vjp`` of a jitted function still run primitive
by primitive (one small compile each), which is most of this file's time
(80-130 s on 2 shared CPU cores; hence ``slow``).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
import pytest
import scipy.linalg as sl

import sciax
import sciax.linalg as sla
import sciax.numpy as snp
from sciax.test_util import check_batching, check_grads

pytestmark = pytest.mark.slow


# --- inputs ---------------------------------------------------------------------------

def _rand(shape, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _general(seed, dtype=np.float64, n=3):
    # eigenvalues near 4, 0, -4: real and well separated for real input
    return _rand((n, n), dtype, seed) * 0.5 + np.diag([4.0, 0.0, -4.0][:n])


def _hermitian(seed, dtype=np.float64, n=3):
    # eigenvalues near 1, 4, 7 (gaps of ~3 keep eigenvector derivatives tame)
    q = np.linalg.qr(_rand((n, n), dtype, seed))[0]
    return (q * np.array([1.0, 4.0, 7.0][:n])) @ q.conj().T


def _band_upper(seed, dtype=np.float64, n=4):
    # upper banded storage, one superdiagonal, dominant positive diagonal
    ab = _rand((2, n), dtype, seed)
    ab[1] = np.abs(ab[1].real) + 4.0
    ab[0, 0] = 0.0  # unused corner
    return ab


def _band_lower(seed, dtype=np.float64, n=4):
    # the same kind of matrix in lower storage: diagonal first, then the
    # subdiagonal (its last entry unused)
    ab = _band_upper(seed, dtype, n)
    return np.stack([ab[1], np.append(ab[0, 1:], 0)])


def _tridiag(seed):
    rng = np.random.default_rng(seed)
    return np.array([3.0, 0.0, -3.0]) + 0.3 * rng.standard_normal(3), \
        rng.standard_normal(2)


def _spd(seed, dtype=np.float64, n=3):
    a = _rand((n, n), dtype, seed)
    return a @ a.conj().T + n * np.eye(n)


# --- gauge-invariant views ------------------------------------------------------------

def _projectors(v):
    """``v_k v_k^H / (v_k^H v_k)`` for each column: free of each column's scale
    and phase."""
    vv = snp.conj(v)[..., :, None, :] * v[..., None, :, :]  # (..., n, n, k)
    norms = snp.sum(snp.abs(v) ** 2, axis=-2)[..., None, None, :]
    return snp.moveaxis(vv / norms, -1, -3)


def _rank_one_triples(u, vh):
    """``u_k v_k^H`` for each singular triple: a joint phase cancels."""
    return snp.moveaxis(u[..., :, None, :] * snp.swapaxes(vh, -1, -2)[..., None, :, :],
                        -1, -3)


def _range_projector(q):
    return q @ snp.conj(snp.swapaxes(q, -1, -2))


def _unit_phase(d):
    # sign for real, d / |d| for complex: the factor that makes d real positive
    return d / snp.abs(d)


# --- cases ----------------------------------------------------------------------------

@dataclasses.dataclass
class Case:
    f: Callable
    make: Callable[[int], tuple]  # seed -> arguments of one (unbatched) call
    grads: bool = True
    vmap: bool = True
    jit: bool = True
    vmap_atol: float = 1e-9

    def __post_init__(self):
        self.compiled = sciax.jit(self.f) if self.jit else self.f


def _xfail(reason):
    return pytest.mark.xfail(strict=True, reason=f"BUG: {reason}")


CASES: dict[str, Case] = {}
XFAIL_GRADS: dict[str, str] = {}
XFAIL_VMAP: dict[str, str] = {}


def case(name, f, make, **kw):
    assert name not in CASES, name
    CASES[name] = Case(f, make, **kw)


# Basics
case("solve_triangular",
     lambda a, b: sla.solve_triangular(a, b, lower=True, trans="C"),
     lambda s: (_general(s, np.complex128), _rand((3, 2), np.complex128, s + 9)),
     grads=True)  # real grads: test_solve.py; complex and trans="C" here
case("solve_banded",
     lambda ab, b: sla.solve_banded((1, 1), ab, b),
     lambda s: (_rand((3, 3), seed=s) + np.array([[0.0], [5.0], [0.0]]),
                _rand(3, seed=s + 9)),
     grads=False)  # differentiated in test_solve.py
case("solveh_banded",
     lambda ab, b: sla.solveh_banded(ab, b),
     lambda s: (_band_upper(s, n=3), _rand(3, seed=s + 9)))
case("solveh_banded_complex_lower",
     lambda ab, b: sla.solveh_banded(ab, b, lower=True),
     lambda s: (_band_lower(s, np.complex128, n=3),
                _rand(3, np.complex128, s + 9)))
case("slogdet", sla.slogdet, lambda s: (_general(s, np.complex128),), grads=False)
# det is a polynomial: at a singular matrix d det = tr(adj(a) da) is finite
# (here adj(a) != 0, rank 2); LU's exactly zero pivot switches to an SVD
case("det_at_singular_matrix", sla.det,
     lambda s: (np.array([[1.0, 2.0, 0.5], [2.0, 4.0, 1.0], [0.3, -1.0, 2.0]]),),
     vmap=False)
case("pinvh", sla.pinvh, lambda s: (_hermitian(s),), grads=False)
case("subspace_angles", sla.subspace_angles,
     lambda s: (_rand((5, 2), seed=s), _rand((5, 2), seed=s + 9)), grads=False)
# matrix_rank: integer output, no derivative; vmap only
case("matrix_rank", sla.matrix_rank,
     lambda s: (np.outer(_rand(3, seed=s), _rand(3, seed=s + 9))
                + np.outer(_rand(3, seed=s + 1), _rand(3, seed=s + 2)),),
     grads=False, vmap_atol=0)
case("cho_factor_solve",
     lambda a, b: sla.cho_solve(sla.cho_factor(a, lower=True), b),
     lambda s: (_spd(s, np.complex128), _rand((3, 2), np.complex128, s + 9)))
case("cho_factor", lambda a: sla.cho_factor(a)[0], lambda s: (_spd(s),))

# Eigenproblems: eigenvalues directly, eigenvectors as projectors
case("eig_values_vectors",
     lambda a: (lambda w, v: (w, _projectors(v)))(*sla.eig(a)),
     lambda s: (_general(s),))
case("eig_complex_left",
     lambda a: (lambda w, vl, vr: (w, _projectors(vl), _projectors(vr)))(
         *sla.eig(a, left=True)),
     lambda s: (_general(s, np.complex128),))
case("eig_real_input_complex_pair",
     lambda a: (lambda w, v: (w, _projectors(v)))(*sla.eig(a)),
     lambda s: (np.array([[0.0, 2.0, 0.0], [-2.0, 0.0, 0.0], [0.0, 0.0, 3.0]])
                + 0.3 * _rand((3, 3), seed=s),),
     vmap=False)  # real input, complex output; batches: eig_values_vectors
case("eigvals", sla.eigvals, lambda s: (_general(s, np.complex128),))
case("eigh_vectors",
     lambda a: (lambda w, v: (w, _projectors(v)))(*sla.eigh(a)),
     lambda s: (_hermitian(s, np.complex128),))
case("eigvalsh", sla.eigvalsh, lambda s: (_hermitian(s),), grads=False)
case("eig_banded",
     lambda ab: (lambda w, v: (w, _projectors(v)))(*sla.eig_banded(ab)),
     lambda s: (_band_upper(s, n=3) - np.array([[0.0], [4.0]])
                + np.array([[0.0, 0.0, 0.0], [3.0, 0.0, -3.0]]),))
case("eig_banded_complex_lower",
     lambda ab: (lambda w, v: (w, _projectors(v)))(*sla.eig_banded(ab, lower=True)),
     lambda s: (np.array([[3.0, 0.0, -3.0], [0.0, 0.0, 0.0]])
                + 0.5 * _rand((2, 3), np.complex128, s) * np.array([[0], [1]])
                + 0.3 * _rand((2, 3), seed=s + 9) * np.array([[1], [0]]),))
case("eigvals_banded", sla.eigvals_banded,
     lambda s: (_band_upper(s, n=3) + np.array([[0.0, 0.0, 0.0], [3.0, 0.0, -3.0]]),))
case("eigh_tridiagonal",
     lambda d, e: (lambda w, v: (w, _projectors(v)))(*sla.eigh_tridiagonal(d, e)),
     _tridiag)
case("eigvalsh_tridiagonal", sla.eigvalsh_tridiagonal, _tridiag)

# Decompositions
case("lu", lambda a: sla.lu(a)[1:], lambda s: (_general(s, np.complex128),),
     vmap=False)  # P is constant near a; batches: test_decomp.py
case("svd",
     lambda a: (lambda u, s, vh: (s, _rank_one_triples(u, vh)))(*sla.svd(a)),
     lambda s: (_rand((3, 3), np.complex128, s) + np.diag([3.0, 0.0, -3.0]),),
     vmap=False)  # batches: test_decomp.py
case("svd_economic_real",
     lambda a: (lambda u, s, vh: (s, _rank_one_triples(u, vh)))(
         *sla.svd(a, full_matrices=False)),
     lambda s: (_rand((4, 3), seed=s) + np.eye(4, 3) * np.array([3.0, 0.0, -3.0]),),
     vmap=False)
case("svdvals", sla.svdvals, lambda s: (_rand((4, 3), seed=s) + 3 * np.eye(4, 3),),
     grads=False)


def _rq_positive(a):
    # A = R Q; R D^H, D Q with D = phase(diag R) makes diag(R) real positive:
    # the factors are then unique for a nonsingular A
    r, q = sla.rq(a)
    d = _unit_phase(snp.diagonal(r, axis1=-2, axis2=-1))
    return r * snp.conj(d)[..., None, :], d[..., :, None] * q


case("rq", _rq_positive, lambda s: (_general(s),))
case("rq_complex", _rq_positive, lambda s: (_general(s, np.complex128),))


def _real_schur_with_pair(seed):
    # a 3x3 real matrix with one complex pair; the Schur form's 2x2 block sits
    # wherever LAPACK puts it, so the mask of its structure comes from t
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((3, 3)) + np.array([[0, 2.0, 0], [-2.0, 0, 0], [0, 0, 3]])
    t, z = sl.schur(a)
    mask = np.triu(np.ones((3, 3))) + np.diag(np.abs(np.diag(t, -1)) > 0, -1)
    return t, z, mask


_MASK = _real_schur_with_pair(0)[2]
assert np.array_equal(_MASK, _real_schur_with_pair(1)[2])  # one mask for the batch

# rsf2csf is a fixed sequence of Givens rotations (no gauge left to choose);
# t is perturbed only within its quasi-triangular structure
case("rsf2csf", lambda t, z: sla.rsf2csf(t * _MASK, z),
     lambda s: _real_schur_with_pair(s)[:2])
case("orth", lambda a: _range_projector(sla.orth(a)),
     lambda s: (_rand((3, 2), seed=s),), vmap=False, jit=False)
case("null_space", lambda a: _range_projector(sla.null_space(a)),
     lambda s: (_rand((2, 3), seed=s),), vmap=False, jit=False)
case("cholesky_banded", sla.cholesky_banded, lambda s: (_band_upper(s),))
case("cholesky_banded_lower_complex", lambda ab: sla.cholesky_banded(ab, lower=True),
     lambda s: (_band_lower(s, np.complex128),))
case("cho_solve_banded",
     lambda cb, b: sla.cho_solve_banded((cb, False), b),
     lambda s: (_band_upper(s), _rand((4, 2), seed=s + 9)))

# Special matrices (linear in their inputs: cheap, but covered once)
case("block_diag", lambda a, b: sla.block_diag(a, b),
     lambda s: (_rand((2, 1), seed=s), _rand((1, 3), np.complex128, s + 9)))
case("hankel", sla.hankel, lambda s: (_rand(3, seed=s), _rand(4, seed=s + 9)))
case("circulant", sla.circulant, lambda s: (_rand(3, np.complex128, s),), grads=False)
case("leslie", sla.leslie, lambda s: (_rand(3, seed=s), _rand(2, seed=s + 9)))
case("fiedler", sla.fiedler, lambda s: (_rand(3, seed=s),))
case("fiedler_companion", sla.fiedler_companion,
     lambda s: (_rand(4, seed=s) + np.array([3.0, 0, 0, 0]),))
case("companion", sla.companion,
     lambda s: (_rand(4, seed=s) + np.array([3.0, 0, 0, 0]),), grads=False)
case("convolution_matrix", lambda a: sla.convolution_matrix(a, 4, "same"),
     lambda s: (_rand(3, seed=s),))
case("kron", sla.kron, lambda s: (_rand((2, 2), seed=s), _rand((1, 3), seed=s + 9)))
case("khatri_rao", sla.khatri_rao,
     lambda s: (_rand((2, 3), seed=s), _rand((2, 3), np.complex128, s + 9)))

# Matrix equations
case("solve_continuous_lyapunov", sla.solve_continuous_lyapunov,
     lambda s: (_general(s) - 6 * np.eye(3), _rand((3, 3), seed=s + 9)))
case("solve_lyapunov_complex", sla.solve_lyapunov,
     lambda s: (_general(s, np.complex128) - 6 * np.eye(3),
                _rand((3, 3), np.complex128, s + 9)))

# Matrix functions
case("expm_frechet", sla.expm_frechet,
     lambda s: (0.5 * _rand((3, 3), seed=s), _rand((3, 3), seed=s + 9)))
# the six expm-based functions in one program: one compile instead of six (the
# failure message names the output by its index in this order)
_TRIG = ("cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm")
case("cosm_sinm_tanm_coshm_sinhm_tanhm",
     lambda a: tuple(getattr(sla, name)(a) for name in _TRIG),
     lambda s: (0.4 * _rand((3, 3), seed=s),))
case("sinm_complex", sla.sinm, lambda s: (0.4 * _rand((3, 3), np.complex128, s),))
case("fractional_matrix_power",
     lambda a, t: sla.fractional_matrix_power(a, t),
     lambda s: (_spd(s), 0.3 + 0.1 * s))
case("fractional_matrix_power_int", lambda a: sla.fractional_matrix_power(a, -2),
     lambda s: (_general(s),))
case("funm", lambda a: sla.funm(a, snp.exp), lambda s: (_general(s),))
case("funm_complex", lambda a: sla.funm(a, snp.sin),
     lambda s: (0.5 * _general(s, np.complex128),))
case("signm", sla.signm, lambda s: (_general(s),))
case("polar", lambda a: sla.polar(a), lambda s: (_rand((3, 3), np.complex128, s),),
     grads=False)


# --- tests ----------------------------------------------------------------------------

def _params(kind, xfails):
    out = []
    for name, c in CASES.items():
        if not getattr(c, kind):
            continue
        marks = [_xfail(xfails[name])] if name in xfails else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", _params("grads", XFAIL_GRADS))
def test_grads(name):
    c = CASES[name]
    check_grads(c.compiled, c.make(0), order=1, modes=("fwd", "rev"))


@pytest.mark.parametrize("name", _params("vmap", XFAIL_VMAP))
def test_vmap_equals_a_loop(name):
    c = CASES[name]
    args = tuple(np.stack([np.asarray(x), np.asarray(y)])
                 for x, y in zip(c.make(0), c.make(1)))
    check_batching(c.compiled, args, atol=c.vmap_atol)


def test_orth_null_space_batches_equal_a_loop():
    # no vmap by design (see the module docstring): leading batch axes instead
    a = np.stack([_rand((3, 2), seed=0), _rand((3, 2), seed=1)])
    for f, x in ((sla.orth, a), (sla.null_space, np.swapaxes(a, -1, -2))):
        got = np.asarray(_range_projector(f(x)))
        for i in range(2):
            np.testing.assert_allclose(got[i], np.asarray(_range_projector(f(x[i]))),
                                       atol=1e-12)


def test_eig_banded_matches_scipy():
    # no other test compares eig_banded with SciPy
    for lower, ab in ((False, CASES["eig_banded"].make(0)[0]),
                      (True, CASES["eig_banded_complex_lower"].make(0)[0])):
        w, v = sla.eig_banded(ab, lower=lower)
        w2, v2 = sl.eig_banded(ab, lower=lower)
        np.testing.assert_allclose(np.asarray(w), w2, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(np.asarray(_projectors(v)),
                                   np.asarray(_projectors(v2)), atol=1e-12)
        np.testing.assert_allclose(np.asarray(sla.eig_banded(ab, lower=lower,
                                                             eigvals_only=True)),
                                   w2, rtol=1e-12, atol=1e-12)


def test_matrix_rank_matches_numpy():
    a = CASES["matrix_rank"].make(0)[0]
    assert int(sla.matrix_rank(a)) == np.linalg.matrix_rank(a) == 2
    assert int(sla.matrix_rank(_hermitian(0), hermitian=True)) == 3
