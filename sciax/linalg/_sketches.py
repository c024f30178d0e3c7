"""``clarkson_woodruff_transform``: the Clarkson-Woodruff sparse sketch of a
matrix.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax.linalg import _util

__all__ = ["clarkson_woodruff_transform"]


# --- Clarkson-Woodruff sketch ---------------------------------------------------------

def _generator(rng: Any, seed: Any) -> Any:
    if seed is not None:
        if rng is not None:
            raise TypeError("clarkson_woodruff_transform: pass rng or the legacy "
                            "seed, not both")
        # SciPy's legacy keyword: np.random.RandomState semantics
        if isinstance(seed, (np.random.Generator, np.random.RandomState)):
            return seed
        return np.random.RandomState(seed)
    return np.random.default_rng(rng)


def clarkson_woodruff_transform(input_matrix: Any, sketch_size: int, rng: Any = None,
                                *, seed: Any = None) -> Any:
    """The Clarkson-Woodruff (CountSketch) transform ``S @ input_matrix``.

    ``S`` is ``sketch_size x n`` with one random ``+-1`` per column in a
    random row, so ``E[||S x||^2] = ||x||^2`` for every ``x``.

    Parameters
    ----------
    input_matrix : array_like, shape (..., n, d)
    sketch_size : int
        Rows of the sketch (static).
    rng : None, int or numpy.random.Generator, optional
        Seeds ``numpy.random.default_rng``.
    seed : None, int, numpy.random.RandomState or Generator, optional
        SciPy's legacy keyword (``RandomState`` semantics); give ``rng`` or
        ``seed``, not both.

    Returns
    -------
    A' : Array, shape (..., sketch_size, d)

    Notes
    -----
    The signs and rows are drawn with NumPy on the host when the function is
    called (or traced): under ``jit`` they are constants of the compiled
    program, so call it outside ``jit`` for a fresh sketch per call.  The
    draw is not SciPy's.  Computed as a scatter-add of the signed rows, in
    ``O(n d)``; linear, hence differentiable, in ``input_matrix``.

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.arange(12.0).reshape(6, 2)
    >>> linalg.clarkson_woodruff_transform(a, 3, rng=0).shape
    (3, 2)
    """
    (x,) = _util.inexact("clarkson_woodruff_transform", input_matrix)
    if x.ndim < 2:
        raise ValueError("clarkson_woodruff_transform: input_matrix must be at least "
                         f"2-D, got shape {x.shape}")
    sketch_size = int(sketch_size)
    if sketch_size < 1:
        raise ValueError("clarkson_woodruff_transform: sketch_size must be positive, "
                         f"got {sketch_size}")
    gen = _generator(rng, seed)
    n = x.shape[-2]
    if isinstance(gen, np.random.RandomState):
        rows = gen.randint(0, sketch_size, n)
    else:
        rows = gen.integers(0, sketch_size, n)
    signs = gen.choice([1, -1], n)
    return _sketch(x, rows.astype(np.int32), signs.astype(x.dtype),
                   sketch_size=sketch_size)


@functools.partial(sciax.jit, static_argnames=("sketch_size",))
def _sketch(x: Any, rows: Any, signs: Any, *, sketch_size: int) -> Any:
    xt = snp.moveaxis(x, -2, 0) * signs.reshape((-1,) + (1,) * (x.ndim - 1))
    out = snp.zeros((sketch_size,) + xt.shape[1:], x.dtype).at[rows].add(xt)
    return snp.moveaxis(out, 0, -2)
