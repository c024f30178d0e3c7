"""
Statistics (:mod:`sciax.stats`)
===============================

SciPy's ``scipy.stats`` distributions and statistical functions, differentiable
in every continuous parameter, jittable and batchable; written only against
the public API (``sciax``, ``sciax.numpy``, ``sciax.lax``, ``sciax.special``,
``sciax.optimize``).

Distributions (``rv_continuous``/``rv_discrete`` instances, SciPy's names and
parametrisations) have ``pdf/logpdf`` (``pmf/logpmf``), ``cdf, logcdf, sf,
logsf, ppf, isf, mean, var, std, median, moment, stats, entropy, interval,
support``, ``rvs(..., size, random_state=key)`` and, for continuous ones,
``fit``; calling a distribution freezes it (a pytree).  Parameters outside
their domain give NaN, never an exception.  Every method is jittable,
vmappable and differentiable in ``x`` and in every continuous parameter
(quantiles without a closed form by implicit differentiation of the CDF).

``fit(data, ..., return_se=True)`` (a sciax extension) returns a
:class:`FitEstimate` with standard errors and covariance from the inverse of
the exact observed-information hessian.

Special functions come from :mod:`sciax.special` at call time (see
``_sf.py``): CDFs and quantiles that are incomplete gamma/beta functions
raise ``NotImplementedError`` until sciax.special provides them.

SciPy 1.15's random-variable interface is there too: ``Normal(mu=1,
sigma=2).cdf(x)``, ``Uniform``, ``Logistic``, ``Binomial``,
``make_distribution(gamma)(a=2)``, arithmetic (``2 * X + 1``, ``abs(X)``,
``exp(X)``, ``log(X)``), ``truncate``, ``order_statistic`` and ``Mixture``:
objects that hold their parameters (pytrees), built on the distributions
above, with every method jittable and differentiable in the parameters.

Also: ``multivariate_normal`` (with :class:`Covariance` objects),
``dirichlet``, ``multinomial``; descriptive statistics, correlation,
regression and tests (``describe ... chisquare``); ``bootstrap`` and
``permutation_test`` vmapped over resamples drawn with sciax.random keys;
``power`` by simulation; ``CensoredData`` and ``logrank``; random-matrix
samplers (``ortho_group``, ``special_ortho_group``, ``unitary_group``,
``uniform_direction``, ``random_correlation``, ``random_table``) taking a
key or an integer seed as ``random_state``.
"""

from __future__ import annotations

from sciax.stats._fit import FitEstimate as FitEstimate
from sciax.stats._distn_base import rv_continuous as rv_continuous
from sciax.stats._distn_base import rv_discrete as rv_discrete
from sciax.stats._distn_base import rv_frozen as rv_frozen
from sciax.stats._continuous import *  # noqa: F401,F403
from sciax.stats._discrete import *  # noqa: F401,F403
from sciax.stats._multivariate import *  # noqa: F401,F403
from sciax.stats._continuous_special import *  # noqa: F401,F403
from sciax.stats._stats_py import *  # noqa: F401,F403
from sciax.stats._resampling import *  # noqa: F401,F403
from sciax.stats._continuous_more import *  # noqa: F401,F403
from sciax.stats._tests_more import *  # noqa: F401,F403
from sciax.stats._descriptive_more import *  # noqa: F401,F403
from sciax.stats._kde import *  # noqa: F401,F403
from sciax.stats._continuous_extra import *  # noqa: F401,F403
from sciax.stats._transforms import *  # noqa: F401,F403
# SciPy 1.15's random-variable interface (Normal(mu=0, sigma=1).cdf(x), ...)
from sciax.stats._new_distributions import Binomial as Binomial
from sciax.stats._new_distributions import ContinuousDistribution as ContinuousDistribution
from sciax.stats._new_distributions import DiscreteDistribution as DiscreteDistribution
from sciax.stats._new_distributions import Logistic as Logistic
from sciax.stats._new_distributions import Mixture as Mixture
from sciax.stats._new_distributions import Normal as Normal
from sciax.stats._new_distributions import Uniform as Uniform
from sciax.stats._new_distributions import abs_ as abs  # noqa: A001 - SciPy's name
from sciax.stats._new_distributions import exp as exp
from sciax.stats._new_distributions import log as log
from sciax.stats._new_distributions import make_distribution as make_distribution
from sciax.stats._new_distributions import order_statistic as order_statistic
from sciax.stats._new_distributions import truncate as truncate
from sciax.stats._multivariate_more import *  # noqa: F401,F403
from sciax.stats._tests_extra import *  # noqa: F401,F403
from sciax.stats._continuous_s10 import *  # noqa: F401,F403
from sciax.stats._multivariate_s10 import *  # noqa: F401,F403
from sciax.stats._studentized_range import *  # noqa: F401,F403
from sciax.stats._functions_s21 import *  # noqa: F401,F403
from sciax.stats._continuous_s21 import *  # noqa: F401,F403
from sciax.stats._discrete_s23 import *  # noqa: F401,F403
from sciax.stats._functions_s23 import *  # noqa: F401,F403
from sciax.stats._continuous_s23 import *  # noqa: F401,F403
from sciax.stats._distributions_s24 import *  # noqa: F401,F403
from sciax.stats._functions_s24 import *  # noqa: F401,F403
