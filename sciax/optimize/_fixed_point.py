"""``fixed_point``: SciPy's iteration with Steffensen's (Aitken ``del2``)
acceleration, one ``lax.while_loop``; the fixed point is differentiable with
respect to float ``args`` by the implicit function theorem on ``x = g(x, a)``:
``dx/da = (I - g_x)^{-1} g_a``."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._root_scalar import _cached, _concrete, _rebuild, _split_args


def _attach(g_of, x, dyn):
    @sciax.custom_jvp
    def ident(x, dyn):
        return x

    @ident.defjvp
    def _jvp(primals, tangents):
        xs, d = primals
        _, dd = tangents
        _, g_a = sciax.jvp(lambda dd_: g_of(xs, dd_), (d,), (dd,))
        flat = xs.reshape(-1)
        gx = sciax.jacfwd(lambda v: g_of(v.reshape(xs.shape), d).reshape(-1))(flat)
        eye = snp.eye(flat.shape[0], dtype=flat.dtype)
        dx = snp.linalg.solve(eye - gx, g_a.reshape(-1))
        return xs, dx.reshape(xs.shape)

    return ident(lax.stop_gradient(x), dyn)


def fixed_point(func: Callable, x0: Any, args: Any = (), xtol: float = 1e-08,
                maxiter: int = 500, method: str = "del2") -> Any:
    """Find a fixed point ``x = func(x, *args)`` of a function.

    sciax implementation of :func:`scipy.optimize.fixed_point`.

    Parameters
    ----------
    func : callable
        ``func(x, *args)`` returning an array of the shape of ``x``.
    x0 : array_like
        Initial guess.
    args : tuple, optional
        Extra arguments; float leaves are traced and differentiable.
    xtol : float, optional
        Stop when every relative change ``|(p - p0) / p0|`` is below ``xtol``.
    maxiter : int, optional
        Iteration limit.
    method : {'del2', 'iteration'}, optional
        Steffensen's method with Aitken's extrapolation (default) or plain
        iteration.

    Returns
    -------
    x : Array
        The fixed point.

    Raises
    ------
    RuntimeError
        Not converged within ``maxiter`` (outside ``jit``; inside it the last
        iterate is returned).

    Examples
    --------
    >>> from sciax.optimize import fixed_point
    >>> f = lambda x, c1, c2: snp.sqrt(c1 / (x + c2))
    >>> x = fixed_point(f, snp.array([1.2, 1.3]), args=(snp.array([10.0, 12.0]),
    ...                                              snp.array([3.0, 5.0])))
    >>> print(np.round(np.asarray(x), 8))
    [1.4920333  1.37228132]
    """
    if method not in ("del2", "iteration"):
        raise ValueError(f"method must be 'del2' or 'iteration', got {method!r}")
    if not callable(func):
        raise TypeError(f"func must be callable, got {type(func).__name__}")
    x = x0 if hasattr(x0, "dtype") else snp.asarray(np.asarray(x0, float))
    x = x.astype(snp.result_type(x, 1.0))
    dyn, akey = _split_args(args)
    float_ok = bool(dyn) and all(snp.issubdtype(snp.asarray(d).dtype, snp.inexact)
                                 for d in dyn)
    accel = method == "del2"

    def build():
        def run(x0, dyn):
            def g_of(v, d):
                out = snp.asarray(func(v, *_rebuild(akey, d)))
                return out.reshape(v.shape).astype(v.dtype)

            dyn_nd = [lax.stop_gradient(d) for d in dyn]

            def body(c):
                p0, _, i = c
                p1 = g_of(p0, dyn_nd)
                if accel:
                    p2 = g_of(p1, dyn_nd)
                    d = p2 - 2.0 * p1 + p0
                    p = snp.where(d != 0, p0 - (p1 - p0) ** 2 / snp.where(
                        d != 0, d, 1.0), p2)
                else:
                    p = p1
                rel = snp.where(p0 != 0, (p - p0) / snp.where(p0 != 0, p0, 1.0), p)
                return p, snp.all(snp.abs(rel) < xtol), i + 1

            def cond(c):
                return ~c[1] & (c[2] < maxiter)

            p, ok, _ = lax.while_loop(cond, body, (x0, snp.asarray(False),
                                                   snp.int32(0)))
            if float_ok:
                p = _attach(g_of, p, list(dyn))
            return p, ok
        return run

    key = ("fixed_point", func, float(xtol), int(maxiter), method, akey)
    p, ok = _cached(key, build)(x, dyn)
    okc = _concrete(ok)
    if okc is not None and not bool(okc):
        raise RuntimeError(f"Failed to converge after {maxiter} iterations, value is "
                           f"{np.asarray(p)}")
    return p
