"""Pytree states as flat vectors, and the checked flat right-hand side."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import sciax
import sciax.numpy as snp


class Ravel:
    """Flattens a pytree of arrays to one 1-D vector and back.

    Hashable by structure, shapes and dtype, so it can be static pytree data.
    """

    def __init__(self, tree: Any, what: str = "y0"):
        leaves, self.treedef = sciax.tree.flatten(tree)
        if not leaves:
            raise ValueError(f"{what} must contain at least one array")
        arrs = [snp.asarray(x) for x in leaves]
        for a in arrs:
            if not (np.issubdtype(a.dtype, np.floating)
                    or np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_):
                raise TypeError(f"{what} must be real, got dtype {a.dtype}")
        self.shapes = tuple(tuple(a.shape) for a in arrs)
        self.sizes = tuple(int(np.prod(s)) for s in self.shapes)
        floats = [a.dtype for a in arrs if np.issubdtype(a.dtype, np.floating)]
        self.dtype = np.result_type(
            np.float64 if sciax.config.enable_x64 else np.float32, *floats)
        self.size = sum(self.sizes)

    def _key(self) -> tuple:
        return (self.treedef, self.shapes, str(self.dtype))

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Ravel) and self._key() == other._key()

    def ravel(self, tree: Any) -> Any:
        leaves = sciax.tree.leaves(tree)
        return snp.concatenate([snp.ravel(snp.asarray(x, self.dtype)) for x in leaves])

    def leading(self, flat: Any) -> Any:
        """Unflatten ``(k, n)`` rows into leaves of shape ``(k, *shape)``."""
        out, i = [], 0
        for shape, size in zip(self.shapes, self.sizes):
            out.append(snp.reshape(flat[:, i:i + size], flat.shape[:1] + shape))
            i += size
        return self.treedef.unflatten(out)

    def __call__(self, flat: Any, trailing: bool = False) -> Any:
        out, i = [], 0
        for shape, size in zip(self.shapes, self.sizes):
            piece = flat[i:i + size]
            new = shape + flat.shape[1:] if trailing else shape
            out.append(snp.reshape(piece, new))
            i += size
        return self.treedef.unflatten(out)


def flat_rhs(fun: Callable, rv: Ravel, args: tuple, name: str = "fun",
             order: str = "ty") -> Callable:
    """``(t, y_flat) -> f_flat`` for ``fun(t, y, *args)`` (or ``fun(y, t, *args)``),
    checking the output's structure, shapes and dtype when traced."""
    def f(t, y):
        tree = rv(y)
        out = fun(t, tree, *args) if order == "ty" else fun(tree, t, *args)
        leaves, treedef = sciax.tree.flatten(out)
        if treedef != rv.treedef:
            raise ValueError(f"`{name}` must return the structure of y0 "
                             f"{rv.treedef}, got {treedef}")
        for a, shape in zip(leaves, rv.shapes):
            a = snp.asarray(a)
            if tuple(a.shape) != shape:
                raise ValueError(f"`{name}` returned an array of shape "
                                 f"{tuple(a.shape)} for a state of shape {shape}")
            if np.issubdtype(a.dtype, np.complexfloating):
                raise TypeError(f"`{name}` returned complex values (dtype {a.dtype}) "
                                f"for a real state")
        return rv.ravel(out)
    return f
