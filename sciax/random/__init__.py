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


# --- eager calls as one compiled program -------------------------------------------
# A sampler is tens of primitives (the threefry rounds, the transform to the
# distribution); eagerly each would dispatch on its own.  Wrapped in jit, an
# eager call runs one cached program per signature and, under a transformation,
# binds one call.  Structural arguments are static; a list given for a shape is
# taken as the tuple it means (static arguments must be hashable).
import functools as _functools  # noqa: E402
import inspect as _inspect  # noqa: E402

import sciax as _sciax  # noqa: E402

_STRUCTURAL = ("shape", "dtype", "num", "bit_width", "axis", "independent",
               "replace", "mode", "method")


def _program(fun, extra=()):
    params = list(_inspect.signature(fun).parameters)
    static = tuple(p for p in params if p in _STRUCTURAL or p in extra)
    where = {params.index(p): p for p in static}
    jitted = _sciax.jit(fun, static_argnames=static)

    @_functools.wraps(fun)
    def call(*args, **kwargs):
        if any(type(args[i]) is list for i in where if i < len(args)):
            args = tuple(tuple(a) if i in where and type(a) is list else a
                         for i, a in enumerate(args))
        for name in static:
            if type(kwargs.get(name)) is list:
                kwargs[name] = tuple(kwargs[name])
        return jitted(*args, **kwargs)

    return call


for _name in ("split", "fold_in", "random_bits", "bits", "uniform", "normal",
              "truncated_normal", "bernoulli", "randint", "categorical",
              "exponential", "laplace", "cauchy", "logistic", "gumbel", "lognormal",
              "rademacher", "pareto", "rayleigh", "weibull_min", "geometric", "gamma",
              "loggamma", "beta", "dirichlet", "chisquare", "t", "f", "poisson",
              "binomial", "multivariate_normal"):
    globals()[_name] = _program(globals()[_name])
del _name
# orthogonal's n and m are matrix sizes (binomial's n, by contrast, is data)
orthogonal = _program(orthogonal, extra=("n", "m"))
