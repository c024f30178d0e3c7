"""Pytree states as flat real vectors, and the checked flat right-hand side.

A complex leaf is stored as its real parts followed by its imaginary parts
(each in the leaf's C order), so the solvers only ever see a real vector of
``size`` entries; the user's flattened state has ``user_size`` entries.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import sciax
import sciax.lax as lax
import sciax.numpy as snp


class Ravel:
    """Flattens a pytree of arrays to one real 1-D vector and back.

    Hashable by structure, shapes and dtypes, so it can be static pytree data.
    With ``complex_ok`` a complex leaf takes two blocks of the vector (its
    real, then its imaginary parts) and comes back complex.
    """

    def __init__(self, tree: Any, what: str = "y0", complex_ok: bool = False):
        leaves, self.treedef = sciax.tree.flatten(tree)
        if not leaves:
            raise ValueError(f"{what} must contain at least one array")
        arrs = [snp.asarray(x) for x in leaves]
        for a in arrs:
            if np.issubdtype(a.dtype, np.complexfloating) and not complex_ok:
                raise TypeError(f"{what} must be real, got dtype {a.dtype}")
            if not (np.issubdtype(a.dtype, np.inexact)
                    or np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_):
                raise TypeError(f"{what} must be real or complex, got dtype "
                                f"{a.dtype}")
        self.shapes = tuple(tuple(a.shape) for a in arrs)
        self.sizes = tuple(int(np.prod(s)) for s in self.shapes)
        self.cplx = tuple(bool(np.issubdtype(a.dtype, np.complexfloating))
                          for a in arrs)
        floats = [np.finfo(a.dtype).dtype for a in arrs
                  if np.issubdtype(a.dtype, np.inexact)]
        self.dtype = np.result_type(
            np.float64 if sciax.config.enable_x64 else np.float32, *floats)
        self.cdtype = np.result_type(self.dtype, np.complex64)
        self.is_complex = any(self.cplx)
        self.user_size = sum(self.sizes)
        self.size = sum(s * (2 if c else 1) for s, c in zip(self.sizes, self.cplx))
        # Real-layout position -> index into [Re(all n user entries), Im(all)]
        # (so ``% user_size`` gives the user's element).
        idx, off, n = [], 0, self.user_size
        for s, c in zip(self.sizes, self.cplx):
            idx.append(np.arange(off, off + s))
            if c:
                idx.append(np.arange(n + off, n + off + s))
            off += s
        self.perm = np.concatenate(idx)
        self.src = self.perm % n

    def _key(self) -> tuple:
        return (self.treedef, self.shapes, self.cplx, str(self.dtype))

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Ravel) and self._key() == other._key()

    def ravel(self, tree: Any) -> Any:
        parts = []
        for x, c in zip(sciax.tree.leaves(tree), self.cplx):
            x = snp.asarray(x)
            if c:
                parts += [snp.ravel(snp.real(x)).astype(self.dtype),
                          snp.ravel(snp.imag(x)).astype(self.dtype)]
            else:
                parts.append(snp.ravel(snp.asarray(x, self.dtype)))
        return snp.concatenate(parts)

    def _pieces(self, take: Callable) -> list:
        """Each leaf's flat block(s) via ``take(start, stop)``, made complex."""
        out, i = [], 0
        for size, c in zip(self.sizes, self.cplx):
            if c:
                out.append(lax.complex(take(i, i + size), take(i + size, i + 2 * size)))
                i += 2 * size
            else:
                out.append(take(i, i + size))
                i += size
        return out

    def leading(self, flat: Any) -> Any:
        """Unflatten ``(k, size)`` rows into leaves of shape ``(k, *shape)``."""
        pieces = self._pieces(lambda a, b: flat[:, a:b])
        return self.treedef.unflatten([snp.reshape(p, flat.shape[:1] + shape)
                                       for p, shape in zip(pieces, self.shapes)])

    def __call__(self, flat: Any, trailing: bool = False) -> Any:
        pieces = self._pieces(lambda a, b: flat[a:b])
        return self.treedef.unflatten([
            snp.reshape(p, shape + flat.shape[1:] if trailing else shape)
            for p, shape in zip(pieces, self.shapes)])

    def expand(self, v: Any) -> Any:
        """A per-element vector of ``user_size`` entries (tolerances) in the
        real layout: both parts of a complex entry get its value."""
        return v if not self.is_complex else v[self.src]

    def real_matrix(self, a: Any, xp: Any = snp) -> Any:
        """The ``(size, size)`` real form of a complex-linear map given as a
        ``(user_size, user_size)`` matrix ``A`` (a holomorphic right-hand
        side's Jacobian, or a mass matrix): ``[[Re A, -Im A], [Im A, Re A]]``
        in the real layout.  ``xp`` is ``np`` for constant matrices."""
        if not self.is_complex:
            return xp.real(a) if np.issubdtype(a.dtype, np.complexfloating) else a
        re, im = xp.real(a), xp.imag(a)
        full = xp.concatenate([xp.concatenate([re, -im], axis=1),
                               xp.concatenate([im, re], axis=1)], axis=0)
        return full[self.perm][:, self.perm]


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
        for a, shape, c in zip(leaves, rv.shapes, rv.cplx):
            a = snp.asarray(a)
            if tuple(a.shape) != shape:
                raise ValueError(f"`{name}` returned an array of shape "
                                 f"{tuple(a.shape)} for a state of shape {shape}")
            if np.issubdtype(a.dtype, np.complexfloating) and not c:
                raise TypeError(f"`{name}` returned complex values (dtype {a.dtype}) "
                                f"for a real state (make that leaf of y0 complex "
                                f"to integrate in the complex domain)")
        return rv.ravel(out)
    return f
