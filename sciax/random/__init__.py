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
    key_data as key_data, random_bits as random_bits, split as split)
# continuous distributions
from sciax.random._continuous import (beta as beta, cauchy as cauchy,
    chisquare as chisquare, exponential as exponential, f as f, gamma as gamma,
    gumbel as gumbel, laplace as laplace, loggamma as loggamma, logistic as logistic,
    lognormal as lognormal, normal as normal, pareto as pareto, rayleigh as rayleigh,
    t as t, truncated_normal as truncated_normal, uniform as uniform,
    weibull_min as weibull_min)
# discrete distributions and reorderings
from sciax.random._discrete import (bernoulli as bernoulli, binomial as binomial,
    categorical as categorical, choice as choice, geometric as geometric,
    permutation as permutation, poisson as poisson, rademacher as rademacher,
    randint as randint, shuffle as shuffle)
# multivariate distributions
from sciax.random._multivariate import (dirichlet as dirichlet,
    multivariate_normal as multivariate_normal, orthogonal as orthogonal)
