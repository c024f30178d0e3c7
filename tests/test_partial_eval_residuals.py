"""Residuals of reverse mode through control flow (issue 13, expm's gradient):
cond branches share residual slots by type, and scalar constants broadcast
into arrays are recomputed in the backward pass rather than saved."""

from __future__ import annotations

import re

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

X = np.linspace(0.5, 1.5, 9).reshape(3, 3)


def _branches():
    # residual matrices per branch: 0, 1 and 3 (the powers of x that the
    # tangent is multiplied by)
    return [lambda x: x,
            lambda x: 3.0 * (x @ x),
            lambda x: (x @ x) @ (x @ x) + 2.0 * x]


def _switch(x, i):
    return snp.sum(lax.switch(i, _branches(), x) ** 2)


def _outputs_of_first(prim: str, jaxpr: str) -> list[str]:
    line = next(ln for ln in jaxpr.splitlines() if f"= {prim}[" in ln)
    return re.findall(r"\w+:f64\[[\d,]*\]", line.split("=")[0])


def test_switch_gradient_with_shared_residual_slots():
    for i in range(3):
        g = sciax.grad(_switch)(X, i)
        f = _branches()[i]
        # central differences on each entry, against the gradient
        eps = 1e-6
        fd = np.zeros_like(X)
        for k in np.ndindex(X.shape):
            e = np.zeros_like(X)
            e[k] = eps
            fd[k] = (np.sum(np.asarray(f(X + e)) ** 2)
                     - np.sum(np.asarray(f(X - e)) ** 2)) / (2 * eps)
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-6)
    jaxpr = str(sciax.make_jaxpr(sciax.grad(_switch))(X, 1))
    # the forward cond: 1 output and the residual slots; the branch with the
    # most residuals needs 3 matrices (x@x, x@x again as the other factor, and
    # x), not the 0 + 1 + 3 of all branches side by side, and the broadcast
    # constants 3.0 and 2.0 are not among them
    outs = _outputs_of_first("cond", jaxpr)
    assert len([o for o in outs if o.endswith("f64[3,3]")]) <= 1 + 3, outs


def test_broadcast_constants_are_not_stacked_residuals_of_a_scan():
    def f(x):
        return snp.sum(lax.fori_loop(0, 4, lambda i, c: (2.0 * c) * c, x))

    x = np.array([0.3, 0.5, 0.7])
    g = sciax.grad(f)(x)
    # c_{k+1} = 2 c_k^2, so d c_4 / d c_0 = prod 4 c_k
    c, d = x.copy(), np.ones_like(x)
    for _ in range(4):
        d *= 4 * c
        c = 2 * c * c
    np.testing.assert_allclose(g, d, rtol=1e-12)
    jaxpr = str(sciax.make_jaxpr(sciax.grad(f))(x))
    stacked = [o for o in _outputs_of_first("scan", jaxpr) if o.endswith("f64[4,3]")]
    # per iteration: 2c and c (the factors of the product); the broadcast 2.0
    # is recomputed in the backward pass
    assert len(stacked) <= 2, stacked
