"""Derivatives of a solve: through the steps, or by the continuous adjoint."""

from __future__ import annotations

from typing import Any

import sciax
import sciax.numpy as snp

ADJOINTS = ("direct", "backsolve", "interpolated")


def solve(st: Any, adjoint: str, y0: Any, args: tuple, t0: Any, t1: Any, te: Any,
          rtol: Any, atol: Any) -> dict:
    from sciax.integrate import _ivp
    if adjoint not in ADJOINTS:
        raise ValueError(f"`adjoint` must be one of {ADJOINTS}, got {adjoint!r}")
    if adjoint == "direct":
        return _direct(st, y0, args, t0, t1, te, rtol, atol)
    raise NotImplementedError(adjoint)


def _direct(st, y0, args, t0, t1, te, rtol, atol):
    from sciax.integrate._ivp import run

    @sciax.custom_jvp
    def primal(y0, args, t0, t1, te):
        return run(st, "while", y0, args, t0, t1, te, rtol, atol)

    @primal.defjvp
    def _jvp(primals, tangents):
        return sciax.jvp(lambda *p: run(st, "bounded", *p, rtol, atol), primals,
                         tangents)

    return primal(y0, args, t0, t1, te)
