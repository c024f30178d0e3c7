"""Maximum-likelihood fitting of continuous distributions.

The free parameters are mapped to unconstrained coordinates ``z`` so that
BFGS (:func:`sciax.optimize.minimize`, exact gradients) never leaves the
region where the likelihood is finite:

* a shape with domain ``(lo, inf)`` is ``lo + exp(z)``, ``(-inf, hi)`` is
  ``hi - exp(z)``, ``(lo, hi)`` is ``lo + (hi - lo) expit(z)``;
* ``scale`` is ``exp(z)``, or, when ``loc`` is fixed and the support has a
  finite endpoint, bounded so the data stay inside the support;
* ``loc`` with a support ``(a, b)`` that has finite endpoints is placed
  below ``min(data) - scale a`` and/or above ``max(data) - scale b`` by a
  positive gap ``exp(z)``.

Where the support moves with the shape parameters (``genextreme``,
``genpareto``...) ``loc`` and ``scale`` are mapped plainly and points
outside the support make the objective ``+inf``, which the line search
rejects.  Standard errors are the square roots of the diagonal of the
inverse hessian of the negative log-likelihood in the natural parameters.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

import sciax
import sciax.numpy as snp
import sciax.optimize



class FitEstimate(NamedTuple):
    """Maximum-likelihood estimates with their standard errors (a pytree).

    ``params`` are the estimates in SciPy's order (shapes, ``loc``,
    ``scale``); ``se`` their standard errors from the inverse of the exact
    observed information (the hessian of the negative log-likelihood at the
    estimate), 0 for a fixed parameter; ``cov`` the full covariance matrix in
    the same order (zero rows and columns for fixed parameters); ``nllf`` the
    negative log-likelihood at the estimate.
    """

    params: tuple
    se: tuple
    cov: Any
    nllf: Any


def _parse_fit_args(dist, args, kwds):
    names = dist.shapes + ("loc", "scale")
    kwds = dict(kwds)
    method = kwds.pop("method", "MLE")
    if not isinstance(method, str) or method.upper() != "MLE":
        raise ValueError(f"method must be 'MLE' (the only method sciax fits), "
                         f"got {method!r}")
    if kwds.pop("optimizer", None) is not None:
        raise ValueError("a custom optimizer is not supported: sciax fits with "
                         "sciax.optimize.minimize (BFGS, exact gradients)")
    if len(args) > len(names):
        raise TypeError(f"{dist.name}.fit() takes at most {len(names)} starting "
                        f"values ({', '.join(names)}), got {len(args)}")
    guesses = dict(zip(names, args))
    fixed = {}
    for k, v in kwds.items():
        if k in ("floc", "fscale"):
            fixed[k[1:]] = v
        elif k.startswith("fix_") and k[4:] in dist.shapes:
            fixed[k[4:]] = v
        elif k[:1] == "f" and k[1:].isdigit() and int(k[1:]) < len(dist.shapes):
            fixed[dist.shapes[int(k[1:])]] = v
        elif k[:1] == "f" and k[1:] in dist.shapes:
            fixed[k[1:]] = v
        elif k in names:
            guesses[k] = v
        else:
            raise TypeError(f"{dist.name}.fit() got an unexpected keyword argument "
                            f"{k!r}")
    if len(fixed) == len(names):
        raise ValueError("All parameters fixed. There is nothing to optimize.")
    return names, guesses, fixed


def _start(dist, data, guesses, fixed):
    """Starting values: the given guesses and fixed values, the distribution's
    ``_fitstart`` shapes, and loc/scale matched to the data's quartiles."""
    s0 = list(dist._fitstart(data))
    shapes = [snp.asarray(fixed.get(n, guesses.get(n, s0[i])), dtype=data.dtype)
              for i, n in enumerate(dist.shapes)]
    dq = snp.quantile(data, snp.asarray([0.25, 0.5, 0.75], dtype=data.dtype))
    try:
        q = dist._ppf(snp.asarray([0.25, 0.5, 0.75], dtype=data.dtype), *shapes)
    except NotImplementedError:  # the quantile needs a sciax.special function
        mu, mu2 = dist._stats(*shapes)[:2]
        q = snp.stack([mu - snp.sqrt(mu2), mu, mu + snp.sqrt(mu2)])
        dq = snp.stack([snp.mean(data) - snp.std(data), snp.mean(data),
                        snp.mean(data) + snp.std(data)])
    spread = q[2] - q[0]
    scale = snp.where(spread > 0, (dq[2] - dq[0]) / spread, snp.std(data))
    scale = snp.where(scale > 0, scale, 1.0)
    scale = fixed.get("scale", guesses.get("scale", scale))
    loc = fixed.get("loc", guesses.get("loc", dq[1] - scale * q[1]))
    return shapes, snp.asarray(loc, dtype=data.dtype), snp.asarray(scale,
                                                                   dtype=data.dtype)


def _shape_maps(dom):
    lo, hi = dom
    if math.isfinite(lo) and math.isfinite(hi):
        return (lambda z: lo + (hi - lo) * sciax.nn.sigmoid(z),
                lambda v: snp.log((v - lo) / (hi - v)))
    if math.isfinite(lo):
        return lambda z: lo + snp.exp(z), lambda v: snp.log(v - lo)
    if math.isfinite(hi):
        return lambda z: hi - snp.exp(z), lambda v: snp.log(hi - v)
    return (lambda z: z), (lambda v: v)


class _Param:
    """The map between the free natural parameters and ``z`` for one pattern of
    fixed parameters; built once per distribution and pattern."""

    def __init__(self, dist, free):
        self.dist, self.free = dist, free  # free: tuple of bools per parameter
        ns = len(dist.shapes)
        self.ns = ns
        self.maps = [_shape_maps(d) for d in dist._domains()]
        plain = dist._support_depends_on_shapes
        self.a = -math.inf if plain else float(dist.a)
        self.b = math.inf if plain else float(dist.b)

    def _loc_scale(self, zl, zs, loc_f, scale_f, lo_d, hi_d):
        """(loc, scale) from their coordinates (None where fixed)."""
        a, b = self.a, self.b
        fa, fb = math.isfinite(a), math.isfinite(b)
        rng = hi_d - lo_d
        if zs is not None and zl is not None:
            if fa and fb:
                g1, g2 = snp.exp(zl), snp.exp(zs)
                scale = (rng + g1 + g2) / (b - a)
                return lo_d - scale * a - g1, scale
            scale = snp.exp(zs)
            if fa:
                return lo_d - scale * a - snp.exp(zl), scale
            if fb:
                return hi_d - scale * b + snp.exp(zl), scale
            return zl, scale
        if zl is not None:
            scale = scale_f
            if fa and fb:
                lo_l, hi_l = hi_d - scale * b, lo_d - scale * a
                return lo_l + (hi_l - lo_l) * sciax.nn.sigmoid(zl), scale
            if fa:
                return lo_d - scale * a - snp.exp(zl), scale
            if fb:
                return hi_d - scale * b + snp.exp(zl), scale
            return zl, scale
        if zs is not None:
            lo_s, hi_s = self._scale_bounds(loc_f, lo_d, hi_d)
            if hi_s is None:
                return loc_f, lo_s + snp.exp(zs)
            return loc_f, lo_s + (hi_s - lo_s) * sciax.nn.sigmoid(zs)
        return loc_f, scale_f

    def _scale_bounds(self, loc, lo_d, hi_d):
        """Scale bounds that keep the data inside the support for a fixed loc."""
        a, b = self.a, self.b
        lo_s, hi_s = snp.zeros_like(loc), None
        if math.isfinite(a) and a < 0:
            lo_s = snp.maximum(lo_s, (loc - lo_d) / (-a))
        if math.isfinite(b) and b > 0:
            lo_s = snp.maximum(lo_s, (hi_d - loc) / b)
        if math.isfinite(a) and a > 0:
            hi_s = (lo_d - loc) / a
        return lo_s, hi_s

    def theta(self, z, fixed_vals, lo_d, hi_d):
        """All natural parameters (shapes, loc, scale) from z and the fixed
        values (``fixed_vals`` holds every parameter; free entries unused)."""
        zi = iter(range(z.shape[0]))
        out = []
        for i in range(self.ns):
            out.append(self.maps[i][0](z[next(zi)]) if self.free[i] else fixed_vals[i])
        zl = z[next(zi)] if self.free[self.ns] else None
        zs = z[next(zi)] if self.free[self.ns + 1] else None
        loc, scale = self._loc_scale(zl, zs, fixed_vals[self.ns],
                                     fixed_vals[self.ns + 1], lo_d, hi_d)
        return out + [loc, scale]

    def z_of(self, theta, lo_d, hi_d):
        """Coordinates of a starting point, moved inside the feasible region."""
        ns = self.ns
        zs_list = [self.maps[i][1](theta[i]) for i in range(ns) if self.free[i]]
        loc, scale = theta[ns], theta[ns + 1]
        a, b = self.a, self.b
        fa, fb = math.isfinite(a), math.isfinite(b)
        rng = hi_d - lo_d
        eps = 0.05 * rng + 1e-3 * snp.abs(lo_d) + 1e-8
        lf, sf = self.free[ns], self.free[ns + 1]
        if lf and sf:
            if fa and fb:
                g1 = snp.maximum(lo_d - scale * a - loc, eps)
                g2 = snp.maximum(scale * (b - a) - rng - g1, eps)
                zs_list += [snp.log(g1), snp.log(g2)]
            elif fa:
                zs_list += [snp.log(snp.maximum(lo_d - scale * a - loc, eps)),
                            snp.log(scale)]
            elif fb:
                zs_list += [snp.log(snp.maximum(loc + scale * b - hi_d, eps)),
                            snp.log(scale)]
            else:
                zs_list += [loc, snp.log(scale)]
        elif lf:
            if fa and fb:
                zs_list.append(snp.zeros_like(loc))
            elif fa:
                zs_list.append(snp.log(snp.maximum(lo_d - scale * a - loc, eps)))
            elif fb:
                zs_list.append(snp.log(snp.maximum(loc + scale * b - hi_d, eps)))
            else:
                zs_list.append(loc)
        elif sf:
            lo_s, hi_s = self._scale_bounds(loc, lo_d, hi_d)
            if hi_s is None:
                zs_list.append(snp.log(snp.maximum(scale - lo_s, 0.05 * scale + 1e-8)))
            else:
                zs_list.append(snp.zeros_like(loc))
        return snp.stack([snp.asarray(v) for v in zs_list])


def _nll(dist, theta, data):
    lp = dist._logpdf_impl(data, *theta)
    return -snp.sum(snp.where(snp.isnan(lp), -math.inf, lp))


def _program(dist, free, guessed, return_se):
    """The jitted fit for one distribution, pattern of fixed parameters, set
    of guessed parameters and ``return_se``: the closed form (where the
    distribution has one for that pattern) or the starting point and BFGS,
    then the standard errors, in one program, so that a fit is one dispatch
    (session 14: the eager quartiles, starting point and closed form before
    the call made ``norm.fit`` on 10^4 points 3.1 ms)."""
    key = ("fit", free, guessed, return_se)
    fn = dist._programs.get(key)
    if fn is not None:
        return fn
    par = _Param(dist, free)
    names = dist.shapes + ("loc", "scale")

    def objective(z, data, fixed_vals, lo_d, hi_d):
        return _nll(dist, par.theta(z, fixed_vals, lo_d, hi_d), data)

    def run(data, guesses, fixed):
        closed = dist._fit_closed_form(data, fixed)
        if closed is None:
            shapes, loc, scale = _start(dist, data, guesses, fixed)
            start = [*shapes, loc, scale]
            fixed_vals = [fixed.get(n, start[i]) for i, n in enumerate(names)]
            lo_d, hi_d = snp.min(data), snp.max(data)
            z0 = par.z_of(start, lo_d, hi_d)
            res = sciax.optimize.minimize(objective, z0,
                                          args=(data, fixed_vals, lo_d, hi_d),
                                          method="BFGS", options={"maxiter": 1000})
            theta = par.theta(res.x, fixed_vals, lo_d, hi_d)
        else:
            theta = [snp.asarray(v, dtype=data.dtype) for v in closed]
        if not return_se:
            return tuple(theta)
        idx = [i for i, f in enumerate(free) if f]

        def nll_free(v):
            th = list(theta)
            for j, i in enumerate(idx):
                th[i] = v[j]
            return _nll(dist, th, data)

        v0 = snp.stack([theta[i] for i in idx])
        h = sciax.hessian(nll_free)(v0)
        cov_free = snp.linalg.inv(h)
        n = len(free)
        sel = np.zeros((n, len(idx)))
        sel[idx, range(len(idx))] = 1.0
        sel = snp.asarray(sel, dtype=data.dtype)
        cov = sel @ cov_free @ sel.T
        se = snp.sqrt(snp.diagonal(cov))
        return FitEstimate(tuple(theta), tuple(se[i] for i in range(n)), cov,
                           _nll(dist, theta, data))

    fn = sciax.jit(run)
    dist._programs[key] = fn
    return fn


def fit(dist, data, args, kwds, return_se):
    names, guesses, fixed = _parse_fit_args(dist, args, kwds)
    try:
        # a NumPy array, list or concrete sciax Array: checked on the host
        # and handed to the program as it is
        concrete = np.ravel(np.asarray(data))
    except Exception:  # traced data: the checks below need values
        concrete = None
    if concrete is not None:
        if concrete.size == 0:
            raise ValueError("fit needs at least one data point")
        if concrete.dtype.kind not in "f":
            concrete = concrete.astype(np.result_type(concrete, 1.0))
        if not np.all(np.isfinite(concrete)):
            raise ValueError("The data contains non-finite values.")
        data = concrete
        dtype = concrete.dtype
    else:
        data = snp.ravel(snp.asarray(data))
        if not snp.issubdtype(data.dtype, snp.floating):
            data = data.astype(snp.result_type(data, 1.0))
        dtype = data.dtype
    free = tuple(n not in fixed for n in names)
    guessed = tuple(sorted(guesses))

    def arr(v):
        try:
            return np.asarray(v, dtype=dtype)
        except Exception:  # a tracer
            return snp.asarray(v, dtype=dtype)

    return _program(dist, free, guessed, return_se)(
        data, {n: arr(v) for n, v in guesses.items()},
        {n: arr(v) for n, v in fixed.items()})
