"""Parameter grids for the distribution tests: one entry per distribution,
each a list of SciPy parameter tuples ``(*shapes, loc, scale)``, with the
sciax.special functions that the distribution needs (the tests of a
distribution wait for those to land)."""

from __future__ import annotations

CONTINUOUS = {
    "norm": [(0.0, 1.0), (1.5, 0.3)],
    "expon": [(0.0, 1.0), (-1.0, 2.5)],
    "uniform": [(0.0, 1.0), (-2.0, 3.0)],
    "laplace": [(0.0, 1.0), (0.7, 2.0)],
    "logistic": [(0.0, 1.0), (-0.4, 1.7)],
    "cauchy": [(0.0, 1.0), (2.0, 0.5)],
    "gumbel_r": [(0.0, 1.0), (1.0, 2.0)],
    "gumbel_l": [(0.0, 1.0), (1.0, 2.0)],
    "rayleigh": [(0.0, 1.0), (0.5, 1.5)],
    "halfnorm": [(0.0, 1.0), (-1.0, 2.0)],
    "halfcauchy": [(0.0, 1.0), (0.3, 0.8)],
    "halflogistic": [(0.0, 1.0), (1.0, 3.0)],
    "levy": [(0.0, 1.0), (0.2, 0.5)],
    "pareto": [(2.5, 0.0, 1.0), (5.5, -1.0, 2.0)],
    "lomax": [(2.5, 0.0, 1.0), (6.5, 1.0, 0.5)],
    "weibull_min": [(0.7, 0.0, 1.0), (2.3, 1.0, 2.0)],
    "weibull_max": [(0.7, 0.0, 1.0), (2.3, 1.0, 2.0)],
    "lognorm": [(0.5, 0.0, 1.0), (1.3, 1.0, 2.0)],
    "powerlaw": [(0.6, 0.0, 1.0), (3.0, -1.0, 2.0)],
    "fisk": [(3.0, 0.0, 1.0), (5.5, 0.5, 2.0)],
    "dweibull": [(0.8, 0.0, 1.0), (2.2, 1.0, 1.5)],
    "gompertz": [(0.7, 0.0, 1.0), (2.0, 1.0, 0.5)],
    "arcsine": [(0.0, 1.0), (-1.0, 3.0)],
    "triang": [(0.35, 0.0, 1.0), (0.8, -1.0, 2.0)],
    "genpareto": [(0.2, 0.0, 1.0), (-0.3, 1.0, 2.0)],
    "genextreme": [(0.2, 0.0, 1.0), (-0.15, 1.0, 2.0)],
    "burr": [(5.5, 1.5, 0.0, 1.0), (10.5, 0.7, 1.0, 2.0)],
    "burr12": [(2.5, 3.0, 0.0, 1.0), (4.0, 2.5, 1.0, 2.0)],
    "foldnorm": [(0.5, 0.0, 1.0), (2.0, 1.0, 2.0)],
    "skewnorm": [(3.0, 0.0, 1.0), (-1.5, 1.0, 2.0)],
}

# sciax.special functions a distribution's methods need beyond the fallbacks
NEEDS = {
    "skewnorm": ["owens_t"],
    "halflogistic": [],
}

# methods whose accuracy rests on a fallback until sciax.special lands:
# (distribution, method) -> special function
FALLBACK = {"ndtri": {"norm", "lognorm", "halfnorm", "levy"}}

# discrete: parameter tuples (*shapes, loc)
DISCRETE = {
    "bernoulli": [(0.3, 0.0), (0.85, 2.0)],
    "binom": [(9.0, 0.3, 0.0), (25.0, 0.8, -3.0)],
    "poisson": [(0.7, 0.0), (12.5, 1.0)],
    "geom": [(0.3, 0.0), (0.05, -1.0)],
    "nbinom": [(3.0, 0.4, 0.0), (7.5, 0.8, 1.0)],
    "randint": [(2.0, 9.0, 0.0), (-3.0, 4.0, 1.0)],
    "dlaplace": [(0.8, 0.0), (2.1, 3.0)],
    "planck": [(0.6, 0.0), (1.7, 2.0)],
    "boltzmann": [(0.6, 7.0, 0.0), (1.4, 19.0, -2.0)],
    "yulesimon": [(5.5, 0.0), (11.0, 1.0)],
    "logser": [(0.6, 0.0), (0.25, 2.0)],
    "hypergeom": [(20.0, 7.0, 12.0, 0.0), (31.0, 20.0, 9.0, 1.0)],
    "betabinom": [(9.0, 2.3, 1.7, 0.0), (16.0, 0.6, 4.5, -1.0)],
    "zipfian": [(1.2, 15.0, 0.0), (0.5, 8.0, 1.0)],
}
NEEDS.update({"binom": ["betainc"], "nbinom": ["betainc"],
              "poisson": ["gammainc", "gammaincc"]})

CONTINUOUS.update({
    "gamma": [(0.7, 0.0, 1.0), (4.5, 1.0, 2.0)],
    "erlang": [(1.0, 0.0, 1.0), (4.0, 1.0, 2.0)],
    "chi2": [(1.5, 0.0, 1.0), (9.0, 1.0, 2.0)],
    "chi": [(1.5, 0.0, 1.0), (5.0, 1.0, 2.0)],
    "maxwell": [(0.0, 1.0), (1.0, 2.0)],
    "nakagami": [(0.7, 0.0, 1.0), (3.0, 1.0, 2.0)],
    "invgamma": [(2.5, 0.0, 1.0), (9.5, 1.0, 2.0)],
    "gennorm": [(0.8, 0.0, 1.0), (3.0, 1.0, 2.0)],
    "loggamma": [(0.7, 0.0, 1.0), (4.0, 1.0, 2.0)],
    "t": [(2.5, 0.0, 1.0), (9.5, 1.0, 2.0)],
    "beta": [(0.7, 1.5, 0.0, 1.0), (3.0, 2.5, 1.0, 2.0)],
    "betaprime": [(2.5, 5.5, 0.0, 1.0), (1.5, 9.5, 1.0, 2.0)],
    "f": [(3.0, 9.5, 0.0, 1.0), (7.0, 12.0, 1.0, 2.0)],
})
_GAMMA = ["gammainc", "gammaincc", "gammaincinv", "gammainccinv"]
_BETA = ["betainc", "betaincinv"]
NEEDS.update({n: _GAMMA for n in ("gamma", "erlang", "chi2", "chi", "maxwell",
                                  "nakagami", "invgamma", "gennorm", "loggamma")})
NEEDS.update({n: _BETA for n in ("t", "beta", "betaprime", "f")})

CONTINUOUS.update({
    "anglit": [(0.0, 1.0), (1.0, 2.0)],
    "bradford": [(0.7, 0.0, 1.0), (5.0, 1.0, 2.0)],
    "cosine": [(0.0, 1.0), (1.0, 2.0)],
    "exponweib": [(2.5, 0.8, 0.0, 1.0), (0.7, 2.0, 1.0, 2.0)],
    "exponpow": [(0.8, 0.0, 1.0), (2.5, 1.0, 2.0)],
    "genlogistic": [(0.7, 0.0, 1.0), (3.0, 1.0, 2.0)],
    "gibrat": [(0.0, 1.0), (1.0, 2.0)],
    "hypsecant": [(0.0, 1.0), (1.0, 2.0)],
    "loglaplace": [(5.5, 0.0, 1.0), (9.0, 1.0, 2.0)],
    "moyal": [(0.0, 1.0), (1.0, 2.0)],
    "powerlognorm": [(2.1, 0.5, 0.0, 1.0), (0.8, 1.2, 1.0, 2.0)],
    "powernorm": [(2.1, 0.0, 1.0), (0.7, 1.0, 2.0)],
    "semicircular": [(0.0, 1.0), (1.0, 2.0)],
    "truncexpon": [(1.5, 0.0, 1.0), (4.0, 1.0, 2.0)],
    "truncnorm": [(-1.0, 2.0, 0.0, 1.0), (0.5, 3.0, 1.0, 2.0)],
    "trapezoid": [(0.2, 0.7, 0.0, 1.0), (0.4, 0.5, 1.0, 2.0)],
    "loguniform": [(0.5, 4.0, 0.0, 1.0), (1.0, 30.0, 1.0, 2.0)],
    "invgauss": [(0.4, 0.0, 1.0), (2.0, 1.0, 2.0)],
    "wald": [(0.0, 1.0), (1.0, 2.0)],
    "fatiguelife": [(0.6, 0.0, 1.0), (2.0, 1.0, 2.0)],
    "johnsonsu": [(0.5, 1.5, 0.0, 1.0), (-1.0, 3.0, 1.0, 2.0)],
    "johnsonsb": [(0.5, 1.5, 0.0, 1.0), (-1.0, 3.0, 1.0, 2.0)],
    "exponnorm": [(0.7, 0.0, 1.0), (2.5, 1.0, 2.0)],
    "genhalflogistic": [(0.6, 0.0, 1.0), (1.5, 1.0, 2.0)],
    "wrapcauchy": [(0.3, 0.0, 1.0), (0.8, 1.0, 2.0)],
})
FALLBACK["ndtri"] |= {"gibrat", "moyal", "powerlognorm", "powernorm", "fatiguelife",
                      "johnsonsu", "johnsonsb"}

# generic moments and entropies integrate over the quantile function, whose
# normal-quantile fallback is not accurate in the far tails
NEEDS.update({n: ["ndtri"] for n in ("powerlognorm", "powernorm", "johnsonsu",
                                     "johnsonsb", "fatiguelife")})

DISCRETE.update({"nhypergeom": [(20.0, 7.0, 8.0, 0.0), (31.0, 12.0, 5.0, 1.0)],
                 "zipf": [(2.5, 0.0), (6.5, 1.0)]})
NEEDS["zipf"] = ["zeta"]
