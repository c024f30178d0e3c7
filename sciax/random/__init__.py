"""sciax.random: counter-based pseudo-random numbers with explicit keys.

Keys are ``uint32[2]`` arrays (JAX's raw ``PRNGKey`` layout) made by
:func:`key`, never reused: :func:`split` and :func:`fold_in` derive new ones.
Random bits come from the threefry2x32 hash (Salmon et al. 2011) of a key and
a counter, bit-for-bit as JAX's default implementation, so every sampler is a
pure function: the same key gives the same numbers eagerly, under ``jit`` and
under ``vmap`` over keys.

Examples
--------
>>> import sciax.random as sr
>>> k1, k2 = sr.split(sr.key(0))
>>> sr.normal(k1, (2, 3)).shape
(2, 3)
"""

from sciax.random._prng import (
    PRNGKey as PRNGKey, bits as bits, fold_in as fold_in, key as key,
    key_data as key_data, random_bits as random_bits, split as split,
    wrap_key_data as wrap_key_data)
from sciax.random._distributions import (
    bernoulli as bernoulli, beta as beta, binomial as binomial, categorical as categorical,
    cauchy as cauchy, chisquare as chisquare, choice as choice, dirichlet as dirichlet,
    exponential as exponential, f as f, gamma as gamma, geometric as geometric,
    gumbel as gumbel, laplace as laplace, loggamma as loggamma, logistic as logistic,
    lognormal as lognormal, multivariate_normal as multivariate_normal, normal as normal,
    orthogonal as orthogonal, pareto as pareto, permutation as permutation,
    poisson as poisson, rademacher as rademacher, randint as randint,
    rayleigh as rayleigh, shuffle as shuffle, t as t, truncated_normal as truncated_normal,
    uniform as uniform, weibull_min as weibull_min)
