"""BroydenFirst, KrylovJacobian and InverseJacobian against SciPy's objects.

BroydenFirst keeps SciPy's update on a dense inverse, so a sequence of
setup / update / solve / matvec / rsolve / rmatvec / todense calls agrees with
SciPy's low-rank object to rounding (1e-12).  KrylovJacobian's products are
exact where SciPy differentiates numerically (step ~1.5e-8, so SciPy's side
is good to ~1e-7); its solve is checked against a dense solve.  As a
preconditioner, InverseJacobian(BroydenFirst()) must leave newton_krylov's
root unchanged (the same root as SciPy's, to the tolerance).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import (BroydenFirst, InverseJacobian, KrylovJacobian,
                            newton_krylov, root)

SLOW = pytest.mark.slow


def F(x):
    return snp.tanh(x) + 0.1 * x ** 3 - snp.arange(1.0, x.shape[0] + 1.0)


def F_np(x):
    return np.tanh(x) + 0.1 * x ** 3 - np.arange(1.0, x.shape[0] + 1.0)


@pytest.mark.parametrize("max_rank", [None, 2])
def test_broyden_first_as_scipy(max_rank):
    rng = np.random.default_rng(0)
    x = rng.normal(size=4)
    mine, ref = BroydenFirst(max_rank=max_rank), so.BroydenFirst(max_rank=max_rank)
    mine.setup(snp.asarray(x), F(snp.asarray(x)), F)
    ref.setup(x, F_np(x), F_np)
    np.testing.assert_allclose(float(mine.alpha), ref.alpha, rtol=1e-15)
    for _ in range(4):  # Broyden steps (rank 4 > max_rank: restarts)
        dx_m = mine.solve(F(snp.asarray(x)))
        dx_r = ref.solve(F_np(x))
        np.testing.assert_allclose(np.asarray(dx_m), dx_r, rtol=1e-12, atol=1e-14)
        x = x - 0.5 * dx_r
        mine.update(snp.asarray(x), F(snp.asarray(x)))
        ref.update(x, F_np(x))
    v = rng.normal(size=4)
    for name in ("solve", "matvec", "rsolve", "rmatvec"):
        np.testing.assert_allclose(np.asarray(getattr(mine, name)(snp.asarray(v))),
                                   getattr(ref, name)(v), rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(np.asarray(mine.todense()), ref.todense(), rtol=1e-11,
                               atol=1e-13)
    inv = mine.aspreconditioner()
    assert isinstance(inv, InverseJacobian) and inv.shape == (4, 4)
    np.testing.assert_allclose(np.asarray(inv.matvec(snp.asarray(v))), ref.solve(v),
                               rtol=1e-11, atol=1e-13)


def test_krylov_jacobian_and_bad_input():
    x = snp.array([0.3, -1.2, 2.0, 0.7])
    J, ref = KrylovJacobian(), so.KrylovJacobian()
    J.setup(x, F(x), F)
    xn = np.asarray(x)
    ref.setup(xn, F_np(xn), F_np)
    dense = np.asarray(sciax.jacfwd(F)(x))
    v = np.array([1.0, -2.0, 0.5, 3.0])
    np.testing.assert_allclose(np.asarray(J.matvec(snp.asarray(v))), dense @ v,
                               rtol=1e-14)
    np.testing.assert_allclose(np.asarray(J.matvec(snp.asarray(v))), ref.matvec(v),
                               rtol=1e-6)
    np.testing.assert_allclose(np.asarray(J.solve(snp.asarray(v), tol=1e-13)),
                               np.linalg.solve(dense, v), rtol=1e-10)
    with pytest.raises(ValueError, match="Unknown parameter"):
        KrylovJacobian(bogus=1)
    with pytest.raises(ValueError, match="Unknown rank reduction method"):
        BroydenFirst(reduction_method="bogus")
    with pytest.raises(ValueError, match="restart"):
        BroydenFirst(reduction_method="svd")


@SLOW
def test_preconditioned_newton_krylov_as_scipy():
    x0 = np.zeros(4)
    ref = so.newton_krylov(F_np, x0, inner_M=so.InverseJacobian(so.BroydenFirst()),
                           f_tol=1e-11)
    x = newton_krylov(F, snp.asarray(x0), inner_M=InverseJacobian(BroydenFirst()),
                      f_tol=1e-11)
    np.testing.assert_allclose(np.asarray(x), ref, rtol=1e-10)
    # the preconditioner inside root(method='krylov') under jit
    sol = sciax.jit(lambda x0: root(F, x0, method="krylov", options=dict(
        fatol=1e-11, jac_options={"inner_M": InverseJacobian(BroydenFirst())})).x)(
        snp.asarray(x0))
    np.testing.assert_allclose(np.asarray(sol), ref, rtol=1e-10)
    # a preconditioned KrylovJacobian used by hand: its solve is still J^-1 v
    J = KrylovJacobian(inner_M=InverseJacobian(BroydenFirst()))
    xs = snp.asarray(ref) + 0.1
    J.setup(xs, F(xs), F)
    J.update(xs + 0.01, F(xs + 0.01))
    dense = np.asarray(sciax.jacfwd(F)(xs + 0.01))
    v = np.arange(1.0, 5.0)
    np.testing.assert_allclose(np.asarray(J.solve(snp.asarray(v), tol=1e-13)),
                               np.linalg.solve(dense, v), rtol=1e-9)
