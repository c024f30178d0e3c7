"""The non-stiff DETEST problems, classes A-E, and a few classic orbits.

Source: T. E. Hull, W. H. Enright, B. M. Fellen and A. E. Sedgwick, "Comparing
numerical methods for ordinary differential equations", SIAM J. Numer. Anal. 9
(1972) 603-637 (problem set as restated by W. H. Enright and J. D. Pryce,
"Two FORTRAN packages for assessing initial value methods", ACM TOMS 13 (1987)
1-27).  Every problem runs over t in [0, 20].  C5 (the five outer planets) is
left out: its masses and initial data are long tables.

Each problem is ``(name, rhs, y0, t1)`` with ``rhs(t, y, xp)`` written once for
both NumPy (``xp = np``) and sciax (``xp = sciax.numpy``).
"""

from __future__ import annotations

import numpy as np


def _stack(xp, *xs):
    return xp.stack(list(xs))


def a1(t, y, xp):
    return -y


def a2(t, y, xp):
    return -0.5 * y ** 3


def a3(t, y, xp):
    return y * xp.cos(t)


def a4(t, y, xp):
    return 0.25 * y * (1 - y / 20)


def a5(t, y, xp):
    return (y - t) / (y + t)


def b1(t, y, xp):
    return _stack(xp, 2 * (y[0] - y[0] * y[1]), -(y[1] - y[0] * y[1]))


def b2(t, y, xp):
    return _stack(xp, -y[0] + y[1], y[0] - 2 * y[1] + y[2], y[1] - y[2])


def b3(t, y, xp):
    return _stack(xp, -y[0], y[0] - y[1] ** 2, y[1] ** 2)


def b4(t, y, xp):
    r = xp.sqrt(y[0] ** 2 + y[1] ** 2)
    return _stack(xp, -y[1] - y[0] * y[2] / r, y[0] - y[1] * y[2] / r, y[0] / r)


def b5(t, y, xp):
    return _stack(xp, y[1] * y[2], -y[0] * y[2], -0.51 * y[0] * y[1])


def c1(t, y, xp):
    return xp.concatenate([-y[:1], y[:-2] - y[1:-1], y[-2:-1]])


def c2(t, y, xp):
    i = xp.arange(1, 10, dtype=y.dtype)
    mid = xp.concatenate([xp.zeros((1,), y.dtype), (i[:-1]) * y[:8]]) - i * y[:9]
    return xp.concatenate([mid, 9 * y[8:9]])


def _tridiag(y, xp):
    z = xp.zeros((1,), y.dtype)
    return xp.concatenate([z, y[:-1]]) - 2 * y + xp.concatenate([y[1:], z])


def c3(t, y, xp):
    return _tridiag(y, xp)


def c4(t, y, xp):
    return _tridiag(y, xp)


def _kepler(t, y, xp):
    r3 = (y[0] ** 2 + y[1] ** 2) ** 1.5
    return _stack(xp, y[2], y[3], -y[0] / r3, -y[1] / r3)


def _kepler_y0(e):
    return np.array([1 - e, 0.0, 0.0, np.sqrt((1 + e) / (1 - e))])


def e1(t, y, xp):
    return _stack(xp, y[1], -(y[1] / (t + 1) + (1 - 0.25 / (t + 1) ** 2) * y[0]))


def e2(t, y, xp):
    return _stack(xp, y[1], (1 - y[0] ** 2) * y[1] - y[0])


def e3(t, y, xp):
    return _stack(xp, y[1], y[0] ** 3 / 6 - y[0] + 2 * xp.sin(2.78535 * t))


def e4(t, y, xp):
    return _stack(xp, y[1], 0.032 - 0.4 * y[1] ** 2)


def e5(t, y, xp):
    return _stack(xp, y[1], xp.sqrt(1 + y[1] ** 2) / (25 - t))


DETEST = [
    ("A1", a1, np.array([1.0]), 20.0),
    ("A2", a2, np.array([1.0]), 20.0),
    ("A3", a3, np.array([1.0]), 20.0),
    ("A4", a4, np.array([1.0]), 20.0),
    ("A5", a5, np.array([4.0]), 20.0),
    ("B1", b1, np.array([1.0, 3.0]), 20.0),
    ("B2", b2, np.array([2.0, 0.0, 1.0]), 20.0),
    ("B3", b3, np.array([1.0, 0.0, 0.0]), 20.0),
    ("B4", b4, np.array([3.0, 0.0, 0.0]), 20.0),
    ("B5", b5, np.array([0.0, 1.0, 1.0]), 20.0),
    ("C1", c1, np.eye(10)[0], 20.0),
    ("C2", c2, np.eye(10)[0], 20.0),
    ("C3", c3, np.eye(10)[0], 20.0),
    ("C4", c4, np.eye(51)[0], 20.0),
] + [(f"D{i + 1}", _kepler, _kepler_y0(e), 20.0)
     for i, e in enumerate((0.1, 0.3, 0.5, 0.7, 0.9))] + [
    ("E1", e1, np.array([0.6713967071418030, 0.09540051444747446]), 20.0),
    ("E2", e2, np.array([2.0, 0.0]), 20.0),
    ("E3", e3, np.array([0.0, 0.0]), 20.0),
    ("E4", e4, np.array([30.0, 0.0]), 20.0),
    ("E5", e5, np.array([0.0, 0.0]), 20.0),
]


def lorenz(t, y, xp):
    return _stack(xp, 10 * (y[1] - y[0]), y[0] * (28 - y[2]) - y[1],
                  y[0] * y[1] - 8 / 3 * y[2])


def arenstorf(t, y, xp):
    # Restricted three-body problem (Hairer, Norsett and Wanner, Sec. II.0).
    mu = 0.012277471
    mup = 1 - mu
    d1 = ((y[0] + mu) ** 2 + y[1] ** 2) ** 1.5
    d2 = ((y[0] - mup) ** 2 + y[1] ** 2) ** 1.5
    return _stack(xp, y[2], y[3],
                  y[0] + 2 * y[3] - mup * (y[0] + mu) / d1 - mu * (y[0] - mup) / d2,
                  y[1] - 2 * y[2] - mup * y[1] / d1 - mu * y[1] / d2)


ARENSTORF_T = 17.0652165601579625588917206249
OTHERS = [
    ("Lorenz", lorenz, np.array([1.0, 1.0, 1.0]), 10.0),
    ("Kepler e=0.5", _kepler, _kepler_y0(0.5), 20.0),
    ("Arenstorf", arenstorf,
     np.array([0.994, 0.0, 0.0, -2.00158510637908252240537862224]), ARENSTORF_T),
    ("VdP mu=1", e2, np.array([2.0, 0.0]), 20.0),
]
