"""Square systems ``F(x) = 0`` from MINPACK's test set, with standard starts.

J. J. Moré, B. S. Garbow and K. E. Hillstrom, "Testing unconstrained
optimization software", ACM Trans. Math. Software 7 (1981) 17-41, the
problems with ``m = n`` (numbers as there), as used by MINPACK-1's tests of
``hybrd``/``hybrj`` (Moré, Garbow, Hillstrom, ANL-80-74, 1980).  Each
``F(x, m)`` takes the array module ``m`` (``sciax.numpy`` or ``numpy``), so
the same formula feeds sciax and SciPy.
"""

from __future__ import annotations

import numpy as np


def rosenbrock(x, m):  # (1)
    return m.stack([10.0 * (x[1] - x[0] ** 2), 1.0 - x[0]])


def powell_singular(x, m):  # (13)
    return m.stack([x[0] + 10.0 * x[1], np.sqrt(5.0) * (x[2] - x[3]),
                    (x[1] - 2.0 * x[2]) ** 2, np.sqrt(10.0) * (x[0] - x[3]) ** 2])


def powell_badly_scaled(x, m):  # (3)
    return m.stack([1e4 * x[0] * x[1] - 1.0, m.exp(-x[0]) + m.exp(-x[1]) - 1.0001])


def helical_valley(x, m):  # (7)
    th = m.arctan2(x[1], x[0]) / (2 * np.pi)
    return m.stack([10.0 * (x[2] - 10.0 * th),
                    10.0 * (m.sqrt(x[0] ** 2 + x[1] ** 2) - 1.0), x[2]])


def trigonometric(x, m):  # (26)
    n = x.shape[0]
    i = m.arange(1.0, n + 1.0)
    return n - m.sum(m.cos(x)) + i * (1.0 - m.cos(x)) - m.sin(x)


def brown_almost_linear(x, m):  # (27)
    n = x.shape[0]
    head = x[:-1] + m.sum(x) - (n + 1.0)
    return m.concatenate([head, m.reshape(m.prod(x) - 1.0, (1,))])


def _grid(n, m):
    h = 1.0 / (n + 1)
    return h, m.arange(1.0, n + 1.0) * h


def discrete_bvp(x, m):  # (28)
    n = x.shape[0]
    h, t = _grid(n, m)
    z = m.zeros((1,), dtype=x.dtype)
    left = m.concatenate([z, x[:-1]])
    right = m.concatenate([x[1:], z])
    return 2.0 * x - left - right + h * h * (x + t + 1.0) ** 3 / 2.0


def discrete_integral(x, m):  # (29)
    n = x.shape[0]
    h, t = _grid(n, m)
    c = (x + t + 1.0) ** 3
    lo = m.cumsum(t * c)  # sum over j <= i
    hi = m.sum((1.0 - t) * c) - m.cumsum((1.0 - t) * c)  # sum over j > i
    return x + h * ((1.0 - t) * lo + t * hi) / 2.0


def variably_dimensioned(x, m):  # (25), as a system (MINPACK's vecfcn)
    n = x.shape[0]
    j = m.arange(1.0, n + 1.0)
    s = m.sum(j * (x - 1.0))
    return x - 1.0 + j * s * (1.0 + 2.0 * s * s)


def broyden_tridiagonal(x, m):  # (30)
    z = m.zeros((1,), dtype=x.dtype)
    left = m.concatenate([z, x[:-1]])
    right = m.concatenate([x[1:], z])
    return (3.0 - 2.0 * x) * x - left - 2.0 * right + 1.0


def broyden_banded(x, m):  # (31): ml = 5, mu = 1
    n = x.shape[0]
    i = np.arange(n)
    band = ((i[None, :] >= i[:, None] - 5) & (i[None, :] <= i[:, None] + 1)
            & (i[None, :] != i[:, None])).astype(float)
    return x * (2.0 + 5.0 * x * x) + 1.0 - m.asarray(band) @ (x * (1.0 + x))


def chebyquad(x, m):  # (35)
    n = x.shape[0]
    y = 2.0 * x - 1.0
    rows, t0, t1 = [], m.ones_like(y), y
    for i in range(1, n + 1):
        integral = -1.0 / (i * i - 1.0) if i % 2 == 0 else 0.0
        rows.append(m.mean(t1) - integral)
        t0, t1 = t1, 2.0 * y * t1 - t0
    return m.stack(rows)


def _start(name, n):
    if name in ("discrete_bvp", "discrete_integral"):
        t = np.arange(1, n + 1) / (n + 1)
        return t * (t - 1)
    if name == "trigonometric":
        return np.full(n, 1.0 / n)
    if name == "brown_almost_linear":
        return np.full(n, 0.5)
    if name == "variably_dimensioned":
        return 1.0 - np.arange(1, n + 1) / n
    if name in ("broyden_tridiagonal", "broyden_banded"):
        return np.full(n, -1.0)
    if name == "chebyquad":
        return np.arange(1, n + 1) / (n + 1)
    raise KeyError(name)


FIXED = {"rosenbrock": (rosenbrock, [-1.2, 1.0]),
         "powell_singular": (powell_singular, [3.0, -1.0, 0.0, 1.0]),
         "powell_badly_scaled": (powell_badly_scaled, [0.0, 1.0]),
         "helical_valley": (helical_valley, [-1.0, 0.0, 0.0])}
SCALABLE = {f.__name__: f for f in (trigonometric, brown_almost_linear, discrete_bvp,
                                    discrete_integral, variably_dimensioned,
                                    broyden_tridiagonal, broyden_banded, chebyquad)}


def problem(name, n=None):
    """``(F, x0)`` for a named system (``n`` for the scalable ones)."""
    if name in FIXED:
        f, x0 = FIXED[name]
        return f, np.asarray(x0, float)
    return SCALABLE[name], _start(name, n)
