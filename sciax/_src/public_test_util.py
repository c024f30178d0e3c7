"""Derivative and batching checks for users and for sciax's own tests.

Derivatives are checked in one random direction against central finite
differences: a JVP directly, a VJP through the identity
``<ct, J t> == <J^T ct, t>``.  Higher orders apply the same checks to the
derivative functions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src import api
from sciax._src.backend.pytree import registry

EPS = 1e-4
# Central differences with step eps have truncation error ~eps**2 * |f'''| and
# rounding error ~ulp(f) / eps; these defaults leave a margin over both for
# well-scaled functions.
_default_tol = {np.dtype(np.float16): 5e-2, np.dtype(np.float32): 2e-2,
                np.dtype(np.float64): 1e-5, np.dtype(np.complex64): 2e-2,
                np.dtype(np.complex128): 1e-5}


def _np(x: Any) -> np.ndarray:
    return np.asarray(x)


def _tol(tol: float | None, leaves: Sequence[Any]) -> float:
    if tol is not None:
        return tol
    return max([_default_tol.get(_np(x).dtype, 1e-5) for x in leaves] or [1e-5])


def _rand_like(rng: np.random.Generator, x: Any) -> Any:
    arr = _np(x)
    out = rng.standard_normal(arr.shape)
    if np.iscomplexobj(arr):
        out = out + 1j * rng.standard_normal(arr.shape)
    out = out.astype(arr.dtype)
    return out.item() if isinstance(x, float | complex) else out


def _tree_map(f: Callable, *trees: Any) -> Any:
    leaves, tree = registry.flatten(trees[0])
    rest = [tree.flatten_up_to(t) for t in trees[1:]]
    return tree.unflatten([f(*xs) for xs in zip(leaves, *rest)])


def _axpy(a: float, x: Any, y: Any) -> Any:
    def f(xi, yi):
        yv = _np(yi)
        out = yv + np.asarray(a, dtype=yv.dtype) * _np(xi).astype(yv.dtype)
        return out.item() if isinstance(yi, float | complex) else out
    return _tree_map(f, x, y)


def numerical_jvp(f: Callable, primals: Sequence[Any], tangents: Sequence[Any],
                  eps: float = EPS) -> Any:
    """Central-difference estimate of the JVP of ``f`` at ``primals``."""
    f_pos = f(*_axpy(eps, tangents, tuple(primals)))
    f_neg = f(*_axpy(-eps, tangents, tuple(primals)))

    def diff(p, n):
        p, n = _np(p), _np(n)
        with np.errstate(invalid="ignore"):
            d = np.where(p == n, 0, p - n)
        return (d / (2 * eps)).astype(p.dtype) if d.dtype.kind in "fc" else d
    return _tree_map(diff, f_pos, f_neg)


def _inner(xs: Any, ys: Any) -> float:
    xl = registry.flatten(xs)[0]
    yl = registry.flatten(ys)[0]
    return float(sum(np.real(np.vdot(_np(x).ravel(), _np(y).ravel()))
                     for x, y in zip(xl, yl)))


def _assert_close(actual: Any, expected: Any, tol: float, what: str) -> None:
    al = registry.flatten(actual)[0]
    el = registry.flatten(expected)[0]
    assert len(al) == len(el), f"{what}: {len(al)} outputs vs {len(el)} expected"
    for a, e in zip(al, el):
        np.testing.assert_allclose(_np(a), _np(e), rtol=tol, atol=tol, err_msg=what)


def check_jvp(f: Callable, args: Sequence[Any], *, atol: float | None = None,
              eps: float = EPS, err_msg: str = "") -> None:
    """Check ``sciax.jvp(f)`` at ``args`` against finite differences."""
    rng = np.random.default_rng(0)
    args = tuple(args)
    tangents = _tree_map(functools.partial(_rand_like, rng), args)
    out, t_out = api.jvp(f, args, tangents)
    tol = _tol(atol, registry.flatten(args)[0])
    _assert_close(out, f(*args), tol, f"{err_msg} primal")
    _assert_close(t_out, numerical_jvp(f, args, tangents, eps), tol,
                  f"{err_msg} tangent")


def check_vjp(f: Callable, args: Sequence[Any], *, atol: float | None = None,
              eps: float = EPS, err_msg: str = "") -> None:
    """Check ``sciax.vjp(f)`` at ``args`` through ``<ct, J t> = <J^T ct, t>``."""
    rng = np.random.default_rng(1)
    args = tuple(args)
    out, vjp_fn = api.vjp(f, *args)
    tol = _tol(atol, registry.flatten(args)[0])
    _assert_close(out, f(*args), tol, f"{err_msg} primal")
    tangents = _tree_map(functools.partial(_rand_like, rng), args)
    t_out = numerical_jvp(f, args, tangents, eps)
    ct = _tree_map(functools.partial(_rand_like, rng), out)
    conj = functools.partial(_tree_map, lambda x: np.conj(_np(x)))
    ct_in = conj(vjp_fn(conj(ct)))
    lhs, rhs = _inner(tangents, ct_in), _inner(t_out, ct)
    scale = max(1.0, abs(rhs))
    assert abs(lhs - rhs) <= tol * scale * 10, (
        f"{err_msg} cotangent projection: {lhs} != {rhs} (tol {tol})")


def check_grads(f: Callable, args: Sequence[Any], order: int,
                modes: Sequence[str] = ("fwd", "rev"), atol: float | None = None,
                eps: float | None = None) -> None:
    """Check forward- and/or reverse-mode derivatives of ``f`` up to ``order``.

    Examples
    --------
    >>> from sciax.test_util import check_grads
    >>> check_grads(snp.sin, (0.3,), order=2)
    """
    eps = eps or EPS

    def rec(fun: Callable, fargs: tuple, k: int, msg: str) -> None:
        if "fwd" in modes:
            m = f"JVP of {msg}" if msg else "JVP"
            check_jvp(fun, fargs, atol=atol, eps=eps, err_msg=m)
            if k > 1:
                def fjvp(primals, tangents):
                    return api.jvp(fun, primals, tangents)
                rec(fjvp, (fargs, fargs), k - 1, m)
        if "rev" in modes:
            m = f"VJP of {msg}" if msg else "VJP"
            check_vjp(fun, fargs, atol=atol, eps=eps, err_msg=m)
            if k > 1:
                def fvjp(*xs):
                    out, vjp_fn = api.vjp(fun, *xs)
                    return vjp_fn(out)
                rec(fvjp, fargs, k - 1, m)

    rec(f, tuple(args), order, "")


def check_batching(f: Callable, args: Sequence[Any], in_axes: Any = 0,
                   atol: float = 1e-6) -> None:
    """Check ``vmap(f, in_axes)(*args)`` against a Python loop over the batch."""
    args = tuple(args)
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    sizes = {_np(a).shape[ax] for a, ax in zip(args, axes) if ax is not None}
    assert len(sizes) == 1, f"inconsistent batch sizes {sizes}"
    n = sizes.pop()
    batched = api.vmap(f, in_axes=axes)(*args)
    rows = []
    for i in range(n):
        row_args = [a if ax is None else np.take(_np(a), i, axis=ax)
                    for a, ax in zip(args, axes)]
        rows.append(f(*row_args))
    expected = _tree_map(lambda *xs: np.stack([_np(x) for x in xs]), *rows)
    _assert_close(batched, expected, atol, "vmap vs loop")
