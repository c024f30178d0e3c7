"""Test integrals for ``quad``: the parameterised test families of QUADPACK's book,
R. Piessens, E. de Doncker-Kapenga, C. W. Überhuber and D. K. Kahaner, *QUADPACK:
A Subroutine Package for Automatic Integration*, Springer (1983), ch. 4 (the same
families are used by the GSL port's test suite), plus the standard difficulties the
issue names.  Each entry is (name, f(x, alpha) in sciax.numpy, f in NumPy, a, b,
alphas, exact(alpha) or None, points).

The closed forms are checked against scipy.integrate.quad in the tests as well, so
a typing error here fails loudly.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.special as sps

import sciax.numpy as snp


def _case(name, f, fn, a, b, alphas, exact, points=None):
    return dict(name=name, f=f, fn=fn, a=a, b=b, alphas=alphas, exact=exact,
                points=points)


BATTERY = [
    # x^a log(1/x) on [0, 1]: endpoint singularity for a < 0; exact 1/(1+a)^2
    _case("xa_log", lambda x, a: x ** a * snp.log(1.0 / x),
          lambda x, a: x ** a * np.log(1.0 / x), 0.0, 1.0, (-0.5, 0.0, 1.0, 2.6),
          lambda a: 1.0 / (1.0 + a) ** 2),
    # 4^-a / ((x - pi/4)^2 + 16^-a): an interior peak, sharper as a grows
    _case("peak", lambda x, a: 4.0 ** -a / ((x - math.pi / 4) ** 2 + 16.0 ** -a),
          lambda x, a: 4.0 ** -a / ((x - math.pi / 4) ** 2 + 16.0 ** -a), 0.0, 1.0,
          (0.0, 1.0, 2.0, 4.0),
          lambda a: math.atan((4 - math.pi) * 4 ** (a - 1)) + math.atan(
              math.pi * 4 ** (a - 1))),
    # cos(2^a sin x) on [0, pi]: oscillatory; exact pi J0(2^a)
    _case("cos_sin", lambda x, a: snp.cos(2.0 ** a * snp.sin(x)),
          lambda x, a: np.cos(2.0 ** a * np.sin(x)), 0.0, math.pi, (0.0, 2.0, 4.0),
          lambda a: math.pi * sps.j0(2.0 ** a)),
    # log(1/x)^(a-1) on [0, 1]: singular at both ends for a < 1; exact Gamma(a)
    _case("log_pow", lambda x, a: snp.log(1.0 / x) ** (a - 1.0),
          lambda x, a: np.log(1.0 / x) ** (a - 1.0), 0.0, 1.0, (0.6, 1.5, 3.0),
          lambda a: math.gamma(a)),
    # x^-1/2 and log x: the endpoint singularities
    _case("inv_sqrt", lambda x, a: a * x ** -0.5, lambda x, a: a * x ** -0.5, 0.0, 1.0,
          (1.0, 3.0), lambda a: 2.0 * a),
    _case("log", lambda x, a: a * snp.log(x), lambda x, a: a * np.log(x), 0.0, 1.0,
          (1.0,), lambda a: -a),
    # x^2 exp(-2^-a x) on [0, inf): exact 2 * 8^a
    _case("x2_exp", lambda x, a: x * x * snp.exp(-(2.0 ** -a) * x),
          lambda x, a: x * x * np.exp(-(2.0 ** -a) * x), 0.0, np.inf, (0.0, 1.0),
          lambda a: 2.0 * 8.0 ** a),
    # x^(a-1) / (1 + 10x)^2 on [0, inf): exact (1-a) pi / (10^a sin(pi a))
    _case("mellin", lambda x, a: x ** (a - 1.0) / (1.0 + 10.0 * x) ** 2,
          lambda x, a: x ** (a - 1.0) / (1.0 + 10.0 * x) ** 2, 0.0, np.inf,
          (0.3, 0.5, 0.8),
          lambda a: (1.0 - a) * math.pi / (10.0 ** a * math.sin(math.pi * a))),
    # log(x) / (1 + 100 x^2) on [0, inf): exact -pi log(10) / 20
    _case("log_lorentz", lambda x, a: a * snp.log(x) / (1.0 + 100.0 * x * x),
          lambda x, a: a * np.log(x) / (1.0 + 100.0 * x * x), 0.0, np.inf, (1.0,),
          lambda a: -a * math.pi * math.log(10.0) / 20.0),
    # x^3 log|(x^2-1)(x^2-2)| on [0, 3], log singularities at 1 and sqrt 2 (QAGP)
    _case("log_kinks", lambda x, a: a * x ** 3 * snp.log(
              snp.abs((x * x - 1.0) * (x * x - 2.0))),
          lambda x, a: a * x ** 3 * np.log(abs((x * x - 1.0) * (x * x - 2.0))),
          0.0, 3.0, (1.0,),
          lambda a: a * (61 * math.log(2) + 77 / 4 * math.log(7) - 27),
          points=(1.0, math.sqrt(2.0))),
    # |x - 1/3| with a kink given in points
    _case("kink", lambda x, a: snp.abs(x - a), lambda x, a: abs(x - a), 0.0, 1.0,
          (1 / 3,), lambda a: (a * a + (1 - a) ** 2) / 2, points=(1 / 3,)),
    # smooth; the Gaussian on the whole line
    _case("exp", lambda x, a: snp.exp(a * x), lambda x, a: np.exp(a * x), 0.0, 1.0,
          (1.0, -3.0), lambda a: (math.exp(a) - 1.0) / a),
    _case("gauss", lambda x, a: snp.exp(-x * x / (2 * a * a)),
          lambda x, a: np.exp(-x * x / (2 * a * a)), -np.inf, np.inf, (0.5, 2.0),
          lambda a: a * math.sqrt(2 * math.pi)),
    _case("lorentz_neg", lambda x, a: 1.0 / (a * a + x * x),
          lambda x, a: 1.0 / (a * a + x * x), -np.inf, 0.0, (1.0, 3.0),
          lambda a: math.pi / (2 * a)),
]
