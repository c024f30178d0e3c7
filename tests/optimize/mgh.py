"""Moré-Garbow-Hillstrom test problems with their standard starting points.

J. J. Moré, B. S. Garbow and K. E. Hillstrom, "Testing unconstrained
optimization software", ACM Trans. Math. Software 7 (1981) 17-41.  Each
problem is a sum of squares ``f = sum_i f_i(x)^2``; the residuals ``f_i`` are
typed here from the paper (problem numbers as there), written with sciax so
they can be differentiated exactly.  ``fmin`` is the paper's reported minimum
(``None`` where the paper gives several or none for this ``n``).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

import sciax.numpy as snp


@dataclasses.dataclass(frozen=True)
class Problem:
    name: str
    residuals: Callable
    x0: tuple
    fmin: float | None

    def fun(self, x):
        r = self.residuals(x)
        return snp.sum(r * r)

    @property
    def n(self):
        return len(self.x0)


def _rosenbrock(x):  # (1) and (21), extended
    return snp.concatenate([10.0 * (x[1::2] - x[0::2] ** 2), 1.0 - x[0::2]])


def _freudenstein_roth(x):  # (2)
    return snp.stack([-13.0 + x[0] + ((5.0 - x[1]) * x[1] - 2.0) * x[1],
                      -29.0 + x[0] + ((x[1] + 1.0) * x[1] - 14.0) * x[1]])


def _powell_badly_scaled(x):  # (3)
    return snp.stack([1e4 * x[0] * x[1] - 1.0,
                      snp.exp(-x[0]) + snp.exp(-x[1]) - 1.0001])


def _brown_badly_scaled(x):  # (4)
    return snp.stack([x[0] - 1e6, x[1] - 2e-6, x[0] * x[1] - 2.0])


def _beale(x):  # (5)
    y = snp.array([1.5, 2.25, 2.625])
    i = snp.arange(1.0, 4.0)
    return y - x[0] * (1.0 - x[1] ** i)


def _jennrich_sampson(x):  # (6), m = 10
    i = snp.arange(1.0, 11.0)
    return 2.0 + 2.0 * i - (snp.exp(i * x[0]) + snp.exp(i * x[1]))


def _helical_valley(x):  # (7)
    theta = (snp.arctan(x[1] / x[0]) / (2 * np.pi)
             + snp.where(x[0] < 0, 0.5, 0.0))
    return snp.stack([10.0 * (x[2] - 10.0 * theta),
                      10.0 * (snp.sqrt(x[0] ** 2 + x[1] ** 2) - 1.0), x[2]])


def _box3d(x):  # (12), m = 10
    t = 0.1 * snp.arange(1.0, 11.0)
    return (snp.exp(-t * x[0]) - snp.exp(-t * x[1])
            - x[2] * (snp.exp(-t) - snp.exp(-10.0 * t)))


def _powell_singular(x):  # (13), and (22) extended
    a, b, c, d = x[0::4], x[1::4], x[2::4], x[3::4]
    return snp.concatenate([a + 10.0 * b, np.sqrt(5.0) * (c - d), (b - 2.0 * c) ** 2,
                            np.sqrt(10.0) * (a - d) ** 2])


def _wood(x):  # (14)
    return snp.stack([10.0 * (x[1] - x[0] ** 2), 1.0 - x[0],
                      np.sqrt(90.0) * (x[3] - x[2] ** 2), 1.0 - x[2],
                      np.sqrt(10.0) * (x[1] + x[3] - 2.0),
                      (x[1] - x[3]) / np.sqrt(10.0)])


def _watson(x):  # (20), m = 31
    n = x.shape[0]
    t = snp.arange(1.0, 30.0) / 29.0
    j = snp.arange(n)
    pw = t[:, None] ** j[None, :]
    s1 = (pw[:, :-1] * (j[1:] * x[1:])).sum(axis=1)
    s2 = pw @ x
    return snp.concatenate([s1 - s2 ** 2 - 1.0, x[:1], (x[1] - x[0] ** 2 - 1.0)[None]])


def _penalty1(x):  # (23), m = n + 1
    return snp.concatenate([np.sqrt(1e-5) * (x - 1.0),
                            (snp.sum(x * x) - 0.25)[None]])


def _trigonometric(x):  # (26), m = n
    n = x.shape[0]
    i = snp.arange(1.0, n + 1.0)
    return n - snp.sum(snp.cos(x)) + i * (1.0 - snp.cos(x)) - snp.sin(x)


def _ext_rosen_x0(n):
    return tuple(-1.2 if k % 2 == 0 else 1.0 for k in range(n))


PROBLEMS = {
    "rosenbrock": Problem("rosenbrock", _rosenbrock, (-1.2, 1.0), 0.0),
    "ext_rosenbrock_100": Problem("ext_rosenbrock_100", _rosenbrock,
                                  _ext_rosen_x0(100), 0.0),
    "freudenstein_roth": Problem("freudenstein_roth", _freudenstein_roth,
                                 (0.5, -2.0), None),
    "brown_badly_scaled": Problem("brown_badly_scaled", _brown_badly_scaled,
                                  (1.0, 1.0), 0.0),
    "beale": Problem("beale", _beale, (1.0, 1.0), 0.0),
    "jennrich_sampson": Problem("jennrich_sampson", _jennrich_sampson, (0.3, 0.4),
                                124.362),
    "helical_valley": Problem("helical_valley", _helical_valley, (-1.0, 0.0, 0.0), 0.0),
    "box3d": Problem("box3d", _box3d, (0.0, 10.0, 20.0), 0.0),
    "powell_singular": Problem("powell_singular", _powell_singular,
                               (3.0, -1.0, 0.0, 1.0), 0.0),
    "wood": Problem("wood", _wood, (-3.0, -1.0, -3.0, -1.0), 0.0),
    "watson_6": Problem("watson_6", _watson, (0.0,) * 6, 2.28767e-3),
    "ext_powell_12": Problem("ext_powell_12", _powell_singular,
                             (3.0, -1.0, 0.0, 1.0) * 3, 0.0),
    "penalty1_4": Problem("penalty1_4", _penalty1, (1.0, 2.0, 3.0, 4.0), 2.24997e-5),
    "trigonometric_10": Problem("trigonometric_10", _trigonometric, (0.1,) * 10, 0.0),
}
