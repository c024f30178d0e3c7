"""``root(method='hybr')``: Powell's hybrid method as in MINPACK's ``hybrj``.

The iteration follows MINPACK (Moré, Garbow and Hillstrom, *User guide for
MINPACK-1*, ANL-80-74, 1980, routines ``hybrj`` and ``dogleg``): a dog-leg
step in the norm scaled by ``diag`` (the column norms of the Jacobian), the
trust radius updated from the ratio of actual to predicted reduction, and a
Broyden rank-one update of the Jacobian after each trial step.  The Jacobian
is exact (automatic differentiation, or the user's ``jac``) at the start and
whenever two consecutive steps fail, as MINPACK's restarts.  MINPACK updates
the QR factors in place with Givens rotations (``r1updt``); here the
approximate Jacobian is kept and refactored each step, which gives the same
steps up to rounding.  One loop iteration is one trial step.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

import sciax.linalg
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._root import RUNNING, AbstractRootSolver

_NONFINITE = 6


def _dogleg(R, diag, qtf, delta, eps):
    """MINPACK's ``dogleg``: the convex combination of the Gauss-Newton and the
    scaled steepest-descent directions with ``||diag * p|| <= delta`` (the
    returned ``p`` solves ``R p ~ qtf``; the step is ``-p``)."""
    n = R.shape[0]
    d = snp.diagonal(R)
    upper = snp.triu(snp.abs(R))
    colmax = snp.max(upper, axis=0)
    small = snp.where(colmax == 0, eps, eps * colmax)
    Rs = R + snp.diag(snp.where(d == 0, small, 0.0))
    x = sciax.linalg.solve_triangular(Rs, qtf, lower=False)
    qnorm = snp.linalg.norm(diag * x)
    # scaled gradient direction
    g = (R.T @ qtf) / diag
    gnorm = snp.linalg.norm(g)
    gsafe = snp.where(gnorm == 0, 1.0, gnorm)
    w = (g / gsafe) / diag
    t = snp.linalg.norm(R @ w)
    tsafe = snp.where(t == 0, 1.0, t)
    sgnorm = (gsafe / tsafe) / tsafe
    bnorm = snp.linalg.norm(qtf)
    dq = delta / qnorm
    sd = sgnorm / delta
    temp = (bnorm / gsafe) * (bnorm / qnorm) * sd
    temp = (temp - dq * sd ** 2
            + snp.sqrt((temp - dq) ** 2 + (1 - dq ** 2) * (1 - sd ** 2)))
    alpha_in = snp.where(sgnorm < delta, dq * (1 - sd ** 2) / temp, 0.0)
    alpha = snp.where(gnorm == 0, dq, alpha_in)
    sgnorm = snp.where(gnorm == 0, 0.0, sgnorm)
    mix = (1 - alpha) * snp.minimum(sgnorm, delta) * w + alpha * x
    del n
    return snp.where(qnorm <= delta, x, mix)


@dataclasses.dataclass(frozen=True)
class HybrSolver(AbstractRootSolver):
    """Powell's hybrid method (SciPy's ``root(method='hybr')``, MINPACK's
    ``hybrj``), with the exact Jacobian.

    Parameters
    ----------
    xtol : float
        Stop when the relative error between two iterates is at most ``xtol``
        (at least ``100 * eps`` of the dtype, which matters in float32).
    maxfev : int
        Limit on the calls of ``fun`` (``0``: ``100 * (n + 1)``, ``hybrj``'s).
    factor : float
        Initial trust radius, ``factor * ||diag * x0||``.
    diag : sequence, optional
        Positive scales of the variables (default: the Jacobian's column norms,
        updated at each exact Jacobian).
    col_deriv, band, eps
        Accepted for SciPy compatibility; the Jacobian is exact and dense.

    Examples
    --------
    >>> from sciax.optimize import root, HybrSolver
    >>> f = lambda x: snp.stack([x[0] ** 2 + x[1] ** 2 - 2.0, x[0] - x[1]])
    >>> sol = root(f, snp.array([2.0, 0.5]), method=HybrSolver(xtol=1e-12))
    >>> print(np.round(np.asarray(sol.x), 10), int(sol.status))
    [1. 1.] 1
    """

    xtol: float = 1.49012e-08
    maxfev: int = 0
    factor: float = 100.0
    diag: Any = None
    col_deriv: Any = 0
    band: Any = None
    eps: Any = None

    uses_jac = True
    takes_callback = False

    def __post_init__(self):
        if not self.xtol >= 0:
            raise ValueError(f"root(method='hybr'): xtol must be >= 0, got {self.xtol}")
        if not self.factor > 0:
            raise ValueError(f"root(method='hybr'): factor must be > 0, got "
                             f"{self.factor}")
        if self.diag is not None and np.any(np.asarray(self.diag) <= 0):
            raise ValueError("root(method='hybr'): diag must be positive")

    def _maxfev(self, n):
        return int(self.maxfev) if self.maxfev else 100 * (n + 1)

    def messages(self, n):
        return {0: "Improper input parameters were entered.",
                1: "The solution converged.",
                2: f"The number of calls to function has reached maxfev = "
                   f"{self._maxfev(n)}.",
                3: f"xtol={self.xtol:f} is too small, no further improvement in the "
                   f"approximate\n solution is possible.",
                4: "The iteration is not making good progress, as measured by the \n"
                   " improvement from the last five Jacobian evaluations.",
                5: "The iteration is not making good progress, as measured by the \n"
                   " improvement from the last ten iterations.",
                _NONFINITE: "The function returned NaN or inf at the initial point."}

    def _scales(self, J, old):
        cn = snp.linalg.norm(J, axis=0)
        if self.diag is not None:
            return snp.broadcast_to(snp.asarray(np.asarray(self.diag, float), J.dtype),
                                    cn.shape)
        if old is None:
            return snp.where(cn == 0, 1.0, cn)
        return snp.maximum(old, cn)

    def init(self, prob, x0):
        dt = x0.dtype
        F = prob.F(x0)
        J = prob.dense_jac(x0)
        diag = self._scales(J, None)
        xnorm = snp.linalg.norm(diag * x0)
        delta = self.factor * xnorm
        delta = snp.where(delta == 0, self.factor, delta).astype(dt)
        fin = snp.all(snp.isfinite(F)) & snp.all(snp.isfinite(J))
        i0 = snp.int32(0)
        return dict(x=x0, F=F, fnorm=snp.linalg.norm(F), B=J, diag=diag, delta=delta,
                    xnorm=xnorm, it=snp.int32(1), ncsuc=i0, ncfail=i0, nslow1=i0,
                    nslow2=i0, jeval=snp.asarray(True), nfev=snp.int32(1),
                    njev=snp.int32(1),
                    status=snp.where(fin, RUNNING, _NONFINITE).astype(snp.int32))

    def step(self, prob, c):
        eps = float(np.finfo(np.dtype(c["x"].dtype)).eps)
        x, F, fnorm, B, diag, delta = (c["x"], c["F"], c["fnorm"], c["B"], c["diag"],
                                       c["delta"])
        Q, R = snp.linalg.qr(B)
        qtf = Q.T @ F
        p = -_dogleg(R, diag, qtf, delta, eps)
        xt = x + p
        pnorm = snp.linalg.norm(diag * p)
        delta = snp.where(c["it"] == 1, snp.minimum(delta, pnorm), delta)
        Ft = prob.F(xt)
        nfev = c["nfev"] + 1
        finite = snp.all(snp.isfinite(Ft))
        fnorm1 = snp.linalg.norm(snp.where(finite, Ft, 0.0))
        fsafe = snp.where(fnorm == 0, 1.0, fnorm)
        actred = snp.where(finite & (fnorm1 < fnorm), 1 - (fnorm1 / fsafe) ** 2, -1.0)
        pred = qtf + R @ p
        temp = snp.linalg.norm(pred)
        prered = snp.where(temp < fnorm, 1 - (temp / fsafe) ** 2, 0.0)
        ratio = snp.where(prered > 0, actred / snp.where(prered > 0, prered, 1.0), 0.0)
        # the trust radius (MINPACK's p1 = 0.1, p5 = 0.5)
        fail = ratio < 0.1
        ncsuc = snp.where(fail, 0, c["ncsuc"] + 1)
        ncfail = snp.where(fail, c["ncfail"] + 1, 0)
        grow = snp.where((ratio >= 0.5) | (ncsuc > 1), snp.maximum(delta, pnorm / 0.5),
                         delta)
        grow = snp.where(snp.abs(ratio - 1) <= 0.1, pnorm / 0.5, grow)
        delta = snp.where(fail, 0.5 * delta, grow)
        # a successful iteration (p0001 = 1e-4)
        acc = ratio >= 1e-4
        x_new = snp.where(acc, xt, x)
        F_new = snp.where(acc, Ft, F)
        xnorm = snp.where(acc, snp.linalg.norm(diag * xt), c["xnorm"])
        fnorm_new = snp.where(acc, fnorm1, fnorm)
        it = c["it"] + acc.astype(snp.int32)
        # progress counters (p001 = 1e-3)
        nslow1 = snp.where(actred >= 0.001, 0, c["nslow1"] + 1)
        nslow2 = c["nslow2"] + c["jeval"].astype(snp.int32)
        nslow2 = snp.where(actred >= 0.1, 0, nslow2)
        # stop tests; the later ones win, as in MINPACK
        # in float32 an xtol near eps would stop with status 3 first: raised
        xtol = max(self.xtol, 100 * eps)
        status = snp.where((delta <= xtol * xnorm) | (fnorm_new == 0), 1, RUNNING)
        other = snp.where(nfev >= self._maxfev(x.shape[0]), 2, RUNNING)
        other = snp.where(0.1 * snp.maximum(0.1 * delta, pnorm) <= eps * xnorm, 3,
                          other)
        other = snp.where(nslow2 == 5, 4, other)
        other = snp.where(nslow1 == 10, 5, other)
        status = snp.where(status == RUNNING, other, status).astype(snp.int32)
        # Broyden's rank-one update in the scaled norm, or an exact Jacobian
        # after two failures in a row
        restart = (status == RUNNING) & (ncfail == 2)
        ps = snp.where(pnorm > 0, pnorm, 1.0)
        u = snp.where(finite, Ft - F - B @ p, 0.0)
        B_upd = B + snp.outer(u, diag * diag * p) / ps ** 2
        B_upd = snp.where((pnorm > 0) & finite, B_upd, B)
        B_new, diag_new = lax.cond(
            restart, lambda _: (lambda J: (J, self._scales(J, diag)))(
                prob.dense_jac(x_new)), lambda _: (B_upd, diag), None)
        return dict(x=x_new, F=F_new, fnorm=fnorm_new, B=B_new, diag=diag_new,
                    delta=delta, xnorm=xnorm, it=it, ncsuc=ncsuc, ncfail=ncfail,
                    nslow1=nslow1, nslow2=nslow2, jeval=restart, nfev=nfev,
                    njev=c["njev"] + restart.astype(snp.int32), status=status)

    def fields(self, prob, st):
        Q, R = snp.linalg.qr(st["B"])
        n = R.shape[0]
        rows, cols = np.triu_indices(n)
        return dict(nfev=st["nfev"], njev=st["njev"], fjac=Q.T, r=R[rows, cols],
                    qtf=Q.T @ st["F"])
