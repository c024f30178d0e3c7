"""Iterated integrals: SciPy's ``nquad``, ``dblquad`` and ``tplquad``, each a nest of
:func:`~sciax.integrate.quad` calls.

The inner integrals run inside the outer integral's integrand, which ``quad``
evaluates on all the nodes of a rule at once through ``vmap``: the nest is one
compiled program of nested ``while_loop`` s, and derivatives follow from those of
``quad`` (parameters and finite limits, including limits that depend on the outer
variables).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sciax.numpy as snp
from sciax.integrate._quadpack import quad

__all__ = ["dblquad", "nquad", "tplquad"]

_QUAD_OPTS = ("epsabs", "epsrel", "limit", "points")


def _opts_for(opts: Any, depth: int, outer: tuple, args: tuple) -> dict:
    o = opts[depth] if isinstance(opts, (list, tuple)) else opts
    if callable(o):
        o = o(*outer, *args)
    o = dict(o or {})
    bad = sorted(set(o) - set(_QUAD_OPTS))
    if bad:
        raise ValueError(f"nquad: unsupported options {bad}; expected a subset of "
                         f"{_QUAD_OPTS}")
    return o


def nquad(func: Callable, ranges: Sequence[Any], args: Any = None, opts: Any = None,
          full_output: bool = False) -> tuple:
    """Integrate over several variables: sciax implementation of
    :func:`scipy.integrate.nquad`.

    Parameters
    ----------
    func : callable
        ``func(x0, x1, ..., xn, *args) -> scalar``; ``x0`` is the innermost variable.
    ranges : sequence
        One entry per variable, innermost first: a pair ``(lo, hi)`` or a callable
        ``ranges[i](x_{i+1}, ..., x_n, *args) -> (lo, hi)`` (limits that depend on
        the outer variables).
    args : sequence, optional
        Extra arguments of ``func`` and of callable ranges (differentiable).
    opts : dict, sequence of dicts or callables, optional
        Options of each level's :func:`quad` (``epsabs``, ``epsrel``, ``limit``,
        ``points``), innermost first.
    full_output : bool, optional
        Also return ``{'neval': ...}``, the number of integrand evaluations.

    Returns
    -------
    result : Array
        The integral.
    abserr : Array
        The outer integral's error estimate (as SciPy: the maximum over levels of
        the reported errors is not tracked).
    out_dict : dict
        With ``full_output``.

    Notes
    -----
    *Differences from SciPy*: ``neval`` counts the evaluations that QUADPACK
    reports at the outermost level times those of the inner levels at the last
    node evaluated, a lower bound rather than SciPy's exact count; the error
    estimate is the outermost ``quad``'s.

    *Transformations*: ``jit``, ``vmap`` and ``grad`` (with respect to ``args``
    and finite limits) work, as for :func:`quad`.

    Examples
    --------
    >>> from sciax.integrate import nquad
    >>> f = lambda x, y: x * y
    >>> res, err = nquad(f, [lambda y: (0.0, y), (0.0, 1.0)])
    >>> print(round(float(res), 10))
    0.125
    """
    if not callable(func):
        raise TypeError(f"nquad: func must be callable; got {type(func).__name__}")
    ranges = list(ranges)
    if not ranges:
        raise ValueError("nquad: ranges must have at least one entry")
    args = () if args is None else (tuple(args) if isinstance(args, (list, tuple))
                                    else (args,))
    if isinstance(opts, (list, tuple)) and len(opts) != len(ranges):
        raise ValueError(f"nquad: opts has {len(opts)} entries for {len(ranges)} "
                         f"ranges")
    n = len(ranges)
    counts: list[Any] = []

    def level(depth: int, p: tuple) -> tuple:
        """∫ over variable ``depth``; ``p`` is (x_{depth+1}, ..., x_n, *args).  The
        outer variables travel as quad's ``args`` so that each level sees them as
        arguments, not closed-over values."""
        outer, a = p[:n - 1 - depth], p[n - 1 - depth:]
        rng = ranges[depth]
        lo, hi = rng(*outer, *a) if callable(rng) else rng
        o = _opts_for(opts, depth, outer, a)
        if depth == 0:
            f = func
        else:
            def f(x: Any, *q: Any) -> Any:
                return level(depth - 1, (x,) + q)[0]
        y, err, info = quad(f, lo, hi, args=p, full_output=1, **o)[:3]
        if depth == n - 1:
            counts.append(info["neval"])
        return y, err

    y, err = level(n - 1, args)
    if full_output:
        return y, err, {"neval": counts[0] if counts else snp.asarray(0)}
    return y, err


def dblquad(func: Callable, a: Any, b: Any, gfun: Any, hfun: Any, args: tuple = (),
            epsabs: float = 1.49e-8, epsrel: float = 1.49e-8) -> tuple:
    """Double integral ``∫_a^b ∫_{g(x)}^{h(x)} func(y, x) dy dx``: sciax
    implementation of :func:`scipy.integrate.dblquad`.

    Parameters
    ----------
    func : callable
        ``func(y, x, *args)``; ``y`` is the inner variable.
    a, b : float
        Limits of ``x``.
    gfun, hfun : callable or float
        Limits of ``y`` as functions of ``x`` (or constants).
    args : tuple, optional
        Extra arguments of ``func`` (differentiable).
    epsabs, epsrel : float, optional
        Tolerances passed to each level's :func:`quad`.

    Returns
    -------
    y, abserr : Array
        The integral and the outer error estimate.

    Examples
    --------
    >>> from sciax.integrate import dblquad
    >>> res, err = dblquad(lambda y, x: x * y**2, 0.0, 2.0, 0.0, 1.0)
    >>> print(round(float(res), 10))
    0.6666666667
    """
    g = gfun if callable(gfun) else (lambda x, *p: gfun)
    h = hfun if callable(hfun) else (lambda x, *p: hfun)
    o = {"epsabs": epsabs, "epsrel": epsrel}
    return nquad(func, [lambda x, *p: (g(x), h(x)), (a, b)], args=args, opts=[o, o])


def tplquad(func: Callable, a: Any, b: Any, gfun: Any, hfun: Any, qfun: Any, rfun: Any,
            args: tuple = (), epsabs: float = 1.49e-8, epsrel: float = 1.49e-8
            ) -> tuple:
    """Triple integral ``∫_a^b ∫_{g(x)}^{h(x)} ∫_{q(x,y)}^{r(x,y)} func(z,y,x)``:
    sciax implementation of :func:`scipy.integrate.tplquad`.

    Parameters
    ----------
    func : callable
        ``func(z, y, x, *args)``.
    a, b : float
        Limits of ``x``.
    gfun, hfun : callable or float
        Limits of ``y``: ``gfun(x)``, ``hfun(x)``.
    qfun, rfun : callable or float
        Limits of ``z``: ``qfun(x, y)``, ``rfun(x, y)``.
    args : tuple, optional
        Extra arguments of ``func``.
    epsabs, epsrel : float, optional
        Tolerances of each level.

    Returns
    -------
    y, abserr : Array
        The integral and the outer error estimate.

    Notes
    -----
    Three nested adaptive loops, each batched over the nodes of the level
    outside it (through quad's batching rule: one 21-point rule for every
    node, the adaptive loop only for the nodes it did not settle), make a
    large program: the example below takes about 2.5 minutes to compile and
    run on a 2-core machine, so it is checked by a slow test
    (``tests/integrate/test_quad_multi.py::test_tplquad``) rather than as a
    doctest.

    Examples
    --------
    >>> from sciax.integrate import tplquad
    >>> res, err = tplquad(lambda z, y, x: x + y + z, 0.0, 1.0, 0.0, 1.0,
    ...                    0.0, 1.0)  # doctest: +SKIP
    >>> print(round(float(res), 10))  # doctest: +SKIP
    1.5
    """
    g = gfun if callable(gfun) else (lambda x: gfun)
    h = hfun if callable(hfun) else (lambda x: hfun)
    q = qfun if callable(qfun) else (lambda x, y: qfun)
    r = rfun if callable(rfun) else (lambda x, y: rfun)
    o = {"epsabs": epsabs, "epsrel": epsrel}
    # nquad passes the outer variables innermost-first: (y, x) for the z range
    return nquad(func, [lambda y, x, *p: (q(x, y), r(x, y)),
                        lambda x, *p: (g(x), h(x)), (a, b)], args=args,
                 opts=[o, o, o])
