"""eigh, eigvalsh and cholesky follow JAX's ``symmetrize_input=True`` convention
by default (issue 12): they decompose ``(a + a^H) / 2``, so the gradient with
respect to ``a`` is symmetric and a gradient step keeps ``a`` symmetric;
``symmetrize_input=False`` reads one triangle, as NumPy and SciPy do."""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import linalg

RNG = np.random.default_rng(12)
_B = RNG.standard_normal((3, 3))
A = _B @ _B.T + 3 * np.eye(3)           # symmetric positive definite
W = RNG.standard_normal((3, 3))          # fixed weights for scalar objectives
E_SYM = (lambda m: (m + m.T) / 2)(RNG.standard_normal((3, 3)))
E_ANY = RNG.standard_normal((3, 3))


def _projector(v):
    # v0 v0^T does not depend on the eigenvector's sign
    return snp.outer(v[:, 0], v[:, 0])


# (name, function of (a, **kw), keyword for "read one triangle")
CASES = [
    ("snp.eigvalsh", lambda a, **k: snp.linalg.eigvalsh(a, **k) @ snp.arange(1.0, 4.0)),
    ("snp.eigh", lambda a, **k: snp.sum(_projector(snp.linalg.eigh(a, **k)[1]) * W)),
    ("snp.cholesky", lambda a, **k: snp.sum(snp.linalg.cholesky(a, **k) * W)),
    ("snp.cholesky upper",
     lambda a, **k: snp.sum(snp.linalg.cholesky(a, upper=True, **k) * W)),
    ("linalg.eigvalsh", lambda a, **k: linalg.eigvalsh(a, **k) @ snp.arange(1.0, 4.0)),
    ("linalg.eigh", lambda a, **k: snp.sum(_projector(linalg.eigh(a, **k)[1]) * W)),
    ("linalg.eigh generalized", lambda a, **k: linalg.eigh(
        a, np.eye(3) + 0.1, eigvals_only=True, **k) @ snp.arange(1.0, 4.0)),
    ("linalg.cholesky", lambda a, **k: snp.sum(linalg.cholesky(a, **k) * W)),
    ("linalg.cholesky lower",
     lambda a, **k: snp.sum(linalg.cholesky(a, lower=True, **k) * W)),
]
IDS = [c[0] for c in CASES]


def _fd(f, a, e, h=1e-5):
    # central difference, error O(h^2 |f'''|) ~ 1e-10 for these smooth maps
    return (float(f(a + h * e)) - float(f(a - h * e))) / (2 * h)


@pytest.mark.parametrize("name,f", CASES, ids=IDS)
def test_gradient_is_symmetric_and_matches_finite_differences(name, f):
    g = np.asarray(sciax.grad(f)(A))
    np.testing.assert_allclose(g, g.T, rtol=1e-12, atol=1e-12)
    # the function depends on (a + a^T) / 2 only: any perturbation, symmetric
    # or not, is predicted by the (symmetric) gradient
    for e in (E_SYM, E_ANY):
        np.testing.assert_allclose(np.sum(g * e), _fd(f, A, e), rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize("name,f", CASES, ids=IDS)
def test_reading_one_triangle_on_request(name, f):
    g = np.asarray(sciax.grad(lambda a: f(a, symmetrize_input=False))(A))
    # the lower triangle is read, except by SciPy's cholesky(lower=False)
    tri = np.tril(g, -1) if name == "linalg.cholesky" else np.triu(g, 1)
    assert np.all(tri == 0), g
    np.testing.assert_allclose(
        np.sum(g * E_ANY), _fd(lambda a: f(a, symmetrize_input=False), A, E_ANY),
        rtol=1e-7, atol=1e-8)
    # both conventions agree in value on a symmetric matrix
    np.testing.assert_allclose(float(f(A, symmetrize_input=False)), float(f(A)),
                               rtol=1e-12)


def test_values_on_a_nonsymmetric_matrix():
    m = A + np.triu(RNG.standard_normal((3, 3)), 1)   # upper triangle perturbed
    np.testing.assert_allclose(snp.linalg.eigvalsh(m),
                               np.linalg.eigvalsh((m + m.T) / 2), rtol=1e-12)
    np.testing.assert_allclose(snp.linalg.eigvalsh(m, symmetrize_input=False),
                               np.linalg.eigvalsh(m), rtol=1e-12)
    np.testing.assert_allclose(snp.linalg.cholesky(m, symmetrize_input=False),
                               np.linalg.cholesky(m), rtol=1e-12)


def test_gradient_step_keeps_the_matrix_symmetric():
    step = sciax.grad(lambda a: snp.sum(snp.log(snp.linalg.eigvalsh(a))))(A)
    a1 = np.asarray(A - 0.1 * step)
    np.testing.assert_array_equal(a1, a1.T)


@pytest.mark.parametrize("which", ["eigvalsh", "cholesky"])
def test_same_gradient_as_jax(which):
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    jax.config.update("jax_enable_x64", True)
    m = A + np.triu(RNG.standard_normal((3, 3)), 1)   # not symmetric
    if which == "eigvalsh":
        ours = sciax.grad(lambda a: snp.linalg.eigvalsh(a) @ snp.arange(1.0, 4.0))(m)
        theirs = jax.grad(lambda a: jnp.linalg.eigvalsh(a) @ jnp.arange(1.0, 4.0))(m)
    else:
        ours = sciax.grad(lambda a: snp.sum(snp.linalg.cholesky(a) * W))(m)
        theirs = jax.grad(lambda a: jnp.sum(jnp.linalg.cholesky(a) * W))(m)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-10,
                               atol=1e-12)
