"""Hock-Schittkowski test problems with their published starts and optima.

W. Hock and K. Schittkowski, *Test Examples for Nonlinear Programming Codes*,
Lecture Notes in Economics and Mathematical Systems 187, Springer 1981
(problem numbers as there).  Each ``Problem`` gives the objective and the
constraints as SciPy's dicts (``'eq'``: ``c(x) = 0``, ``'ineq'``:
``c(x) >= 0``), written with the array module ``m`` so the same formulas feed
sciax and SciPy; ``fstar`` and ``xstar`` are the book's solution.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np


@dataclasses.dataclass(frozen=True)
class Problem:
    name: str
    fun: Callable            # fun(x, m)
    eq: tuple                # of c(x, m) -> 1-D
    ineq: tuple
    bounds: tuple | None     # ((lo, hi), ...) with None for no bound
    x0: tuple
    fstar: float
    xstar: tuple

    def constraints(self, m):
        out = [{"type": "eq", "fun": (lambda c: lambda x: c(x, m))(c)} for c in self.eq]
        out += [{"type": "ineq", "fun": (lambda c: lambda x: c(x, m))(c)}
                for c in self.ineq]
        return out


def _s(m, *v):
    return m.stack(list(v))


HS = {
    "hs6": Problem("hs6", lambda x, m: (1 - x[0]) ** 2,
                   (lambda x, m: _s(m, 10 * (x[1] - x[0] ** 2)),), (), None,
                   (-1.2, 1.0), 0.0, (1.0, 1.0)),
    "hs7": Problem("hs7", lambda x, m: m.log(1 + x[0] ** 2) - x[1],
                   (lambda x, m: _s(m, (1 + x[0] ** 2) ** 2 + x[1] ** 2 - 4),), (),
                   None, (2.0, 2.0), -np.sqrt(3.0), (0.0, np.sqrt(3.0))),
    "hs21": Problem("hs21", lambda x, m: 0.01 * x[0] ** 2 + x[1] ** 2 - 100, (),
                    (lambda x, m: _s(m, 10 * x[0] - x[1] - 10),),
                    ((2, 50), (-50, 50)), (-1.0, -1.0), -99.96, (2.0, 0.0)),
    "hs35": Problem("hs35", lambda x, m: (9 - 8 * x[0] - 6 * x[1] - 4 * x[2]
                                          + 2 * x[0] ** 2 + 2 * x[1] ** 2 + x[2] ** 2
                                          + 2 * x[0] * x[1] + 2 * x[0] * x[2]), (),
                    (lambda x, m: _s(m, 3 - x[0] - x[1] - 2 * x[2]),),
                    ((0, None),) * 3, (0.5, 0.5, 0.5), 1.0 / 9.0,
                    (4.0 / 3.0, 7.0 / 9.0, 4.0 / 9.0)),
    "hs39": Problem("hs39", lambda x, m: -x[0],
                    (lambda x, m: _s(m, x[1] - x[0] ** 3 - x[2] ** 2),
                     lambda x, m: _s(m, x[0] ** 2 - x[1] - x[3] ** 2)), (), None,
                    (2.0, 2.0, 2.0, 2.0), -1.0, (1.0, 1.0, 0.0, 0.0)),
    "hs71": Problem("hs71", lambda x, m: x[0] * x[3] * (x[0] + x[1] + x[2]) + x[2],
                    (lambda x, m: _s(m, x[0] ** 2 + x[1] ** 2 + x[2] ** 2 + x[3] ** 2
                                     - 40),),
                    (lambda x, m: _s(m, x[0] * x[1] * x[2] * x[3] - 25),),
                    ((1, 5),) * 4, (1.0, 5.0, 5.0, 1.0), 17.0140173,
                    (1.0, 4.7429994, 3.8211503, 1.3794082)),
    "hs76": Problem("hs76", lambda x, m: (x[0] ** 2 + 0.5 * x[1] ** 2 + x[2] ** 2
                                          + 0.5 * x[3] ** 2 - x[0] * x[2] + x[2] * x[3]
                                          - x[0] - 3 * x[1] + x[2] - x[3]), (),
                    (lambda x, m: _s(m, 5 - x[0] - 2 * x[1] - x[2] - x[3]),
                     lambda x, m: _s(m, 4 - 3 * x[0] - x[1] - 2 * x[2] + x[3]),
                     lambda x, m: _s(m, x[1] + 4 * x[2] - 1.5)),
                    ((0, None),) * 4, (0.5, 0.5, 0.5, 0.5), -4.681818181,
                    (0.2727273, 2.090909, 0.0, 0.5454545)),
}
