"""vmap of the shape primitives equals a Python loop over the batch: the batch
axis at each position of every operand, unbatched (``None``) operands mixed in
(padding values, concatenated pieces, start indices, updates), batched start
indices (out of range ones clamp per example), size-1 and empty batches, nested
vmap.

Every distinct (primitive, shape) compiles a small XLA program, so the examples
reuse a few shapes; the batch has 5 members so that it differs from every
example axis.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import sciax
from sciax import lax
from sciax.test_util import check_batching

B = 5
RNG = np.random.default_rng(0)


def _floats(*shape: int) -> Callable[[np.random.Generator], np.ndarray]:
    return lambda rng: rng.standard_normal(shape)


def _index(lo: int, hi: int) -> Callable[[np.random.Generator], np.ndarray]:
    """int32 start indices in [lo, hi]: outside [0, n - size] on purpose."""
    return lambda rng: np.int32(rng.integers(lo, hi, endpoint=True))


# name -> (function, one example maker per operand)
CASES: dict[str, tuple[Callable[..., Any], list]] = {
    "broadcast_in_dim": (lambda x: lax.broadcast_in_dim(x, (4, 2, 3), (1, 2)),
                         [_floats(2, 3)]),
    "broadcast_in_dim_unit": (lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (0, 2)),
                              [_floats(2, 1)]),
    "broadcast_in_dim_scalar": (lambda x: lax.broadcast_in_dim(x, (2, 3), ()),
                                [_floats()]),
    "reshape": (lambda x: lax.reshape(x, (3, 2)), [_floats(2, 3)]),
    "reshape_flat": (lambda x: lax.reshape(x, (6,)), [_floats(2, 3)]),
    "transpose": (lambda x: lax.transpose(x, (1, 0)), [_floats(2, 3)]),
    "transpose_3d": (lambda x: lax.transpose(x, (2, 0, 1)), [_floats(2, 1, 3)]),
    "squeeze": (lambda x: lax.squeeze(x, (1,)), [_floats(2, 1, 3)]),
    "expand_dims": (lambda x: lax.expand_dims(x, (1,)), [_floats(2, 3)]),
    "rev": (lambda x: lax.rev(x, (0,)), [_floats(2, 3)]),
    "rev_both": (lambda x: lax.rev(x, (0, 1)), [_floats(2, 3)]),
    "pad": (lambda x, v: lax.pad(x, v, ((1, -1, 1), (0, 2, 0))),
            [_floats(2, 3), _floats()]),
    "pad_negative": (lambda x, v: lax.pad(x, v, ((-1, 0, 0), (-1, -1, 2))),
                     [_floats(2, 3), _floats()]),
    "concatenate": (lambda x, y: lax.concatenate([x, y], 1),
                    [_floats(2, 3), _floats(2, 1)]),
    "concatenate_3": (lambda x, y, z: lax.concatenate([x, y, z], 0),
                      [_floats(2, 3), _floats(1, 3), _floats(2, 3)]),
    "slice": (lambda x: lax.slice(x, (0, 1), (2, 3)), [_floats(2, 3)]),
    "slice_strided": (lambda x: lax.slice(x, (1, 0), (7, 3), (2, 2)), [_floats(7, 3)]),
    "dynamic_slice_static_idx": (lambda x: lax.dynamic_slice(x, (1, 2), (1, 2)),
                                 [_floats(2, 3)]),
    "dynamic_slice": (lambda x, i, j: lax.dynamic_slice(x, (i, j), (1, 2)),
                      [_floats(2, 3), _index(-1, 2), _index(-1, 3)]),
    "dynamic_update_slice": (lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j)),
                             [_floats(2, 3), _floats(1, 2), _index(-1, 2),
                              _index(-1, 3)]),
}


def _stacked(makers: list, n: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    rows = [[m(rng) for m in makers] for _ in range(max(n, 1))]
    return [np.stack([r[k] for r in rows])[:n] for k in range(len(makers))]


def _place(stacked: list[np.ndarray], axes: tuple, unbatched: list | None = None
           ) -> tuple[list, tuple]:
    """Batch axis of operand k (now 0) moved to ``axes[k]`` (``-1``: last; a
    position past the end is clamped), or the operand unbatched (``None``)."""
    args, in_axes = [], []
    for k, (x, ax) in enumerate(zip(stacked, axes)):
        if ax is None:
            args.append(x[0] if unbatched is None else unbatched[k])
            in_axes.append(None)
            continue
        ax = min(ax, x.ndim - 1) if ax >= 0 else x.ndim + ax
        args.append(np.moveaxis(x, 0, ax))
        in_axes.append(ax)
    return args, tuple(in_axes)


def _patterns(n: int) -> list[tuple]:
    pats = [(0,) * n, (1,) * n, (-1,) * n]
    if n > 1:
        pats.append(tuple(range(n)))
        pats += [tuple(None if j == k else -1 for j in range(n)) for k in range(n)]
        pats.append((0,) + (None,) * (n - 1))
    return pats


@pytest.mark.parametrize("name", list(CASES))
def test_vmap_matches_loop(name):
    f, makers = CASES[name]
    stacked = _stacked(makers, B)
    for pattern in _patterns(len(makers)):
        args, in_axes = _place(stacked, pattern)
        check_batching(f, args, in_axes, atol=0)


def test_dynamic_slice_batched_indices_clamp_per_example():
    x = np.arange(20.0).reshape(4, 5)
    # negative starts count from the end (as in JAX), then all clamp to [0, 3]
    starts = np.array([-7, 0, 2, -1, 9], np.int32)  # -> 0, 0, 2, 3, 3
    out = sciax.vmap(lambda i: lax.dynamic_slice(x, (0, i), (4, 2)))(starts)
    np.testing.assert_array_equal(np.asarray(out),
                                  np.stack([x[:, s:s + 2] for s in [0, 0, 2, 3, 3]]))
    upd = np.full((4, 2), -1.0)
    out = sciax.vmap(lambda i: lax.dynamic_update_slice(x, upd, (0, i)))(starts)
    expected = np.stack([x.copy() for _ in range(5)])
    for b, s in enumerate([0, 0, 2, 3, 3]):
        expected[b, :, s:s + 2] = -1.0
    np.testing.assert_array_equal(np.asarray(out), expected)


SELECTED = ["broadcast_in_dim", "reshape", "transpose", "pad", "concatenate",
            "slice_strided", "dynamic_slice", "dynamic_update_slice"]


@pytest.mark.parametrize("name", SELECTED)
def test_size_one_and_empty_batches(name):
    f, makers = CASES[name]
    one = _stacked(makers, 1)
    check_batching(f, one, 0, atol=0)
    example = f(*[x[0] for x in one])
    empty = _stacked(makers, 0)
    pats = [(0,) * len(makers), (-1,) * len(makers)]
    if len(makers) > 1:
        pats.append((0,) + (None,) * (len(makers) - 1))
    for pattern in pats:
        args, in_axes = _place(empty, pattern, unbatched=[x[0] for x in one])
        out = sciax.vmap(f, in_axes=in_axes)(*args)
        assert out.shape == (0, *example.shape), (name, pattern, out.shape)
        assert out.dtype == example.dtype


def test_dynamic_slice_empty_batch_batched_indices():
    f = sciax.vmap(lambda x, i: lax.dynamic_slice(x, (i,), (2,)))
    out = f(np.zeros((0, 3)), np.zeros((0,), np.int32))
    assert out.shape == (0, 2)


@pytest.mark.parametrize("name", ["transpose", "pad", "concatenate", "dynamic_slice",
                                  "dynamic_update_slice"])
def test_nested_vmap(name):
    """vmap(vmap(f, in_axes=0), in_axes=1): out[i, j] = f(x[j, i])."""
    f, makers = CASES[name]
    rng = np.random.default_rng(1)
    rows = [[[m(rng) for m in makers] for _ in range(4)] for _ in range(3)]
    args = [np.stack([np.stack([rows[j][i][k] for i in range(4)]) for j in range(3)])
            for k in range(len(makers))]  # each (3, 4, ...)
    out = sciax.vmap(sciax.vmap(f, in_axes=0), in_axes=1)(*args)
    expected = np.stack([np.stack([np.asarray(f(*rows[j][i])) for j in range(3)])
                         for i in range(4)])
    np.testing.assert_array_equal(np.asarray(out), expected)
    # the operand is mapped by the outer vmap only: None in the inner one
    if len(makers) > 1:
        last = args[-1][0]  # (4, ...): varies only with the outer index
        inner = sciax.vmap(f, in_axes=(0,) * (len(makers) - 1) + (None,))
        out = sciax.vmap(inner, in_axes=(1,) * (len(makers) - 1) + (0,))(
            *args[:-1], last)
        expected = np.stack([np.stack([
            np.asarray(f(*rows[j][i][:-1], rows[0][i][-1])) for j in range(3)])
            for i in range(4)])
        np.testing.assert_array_equal(np.asarray(out), expected)


def test_vmap_of_grad_through_shape_ops():
    # per-example gradients through pad/slice/concatenate/dynamic_slice
    def loss(x, i):
        y = lax.pad(x, 0.0, ((1, -1, 1),))
        y = lax.concatenate([y, lax.slice(x, (0,), (3,), (2,))], 0)
        z = lax.dynamic_slice(y, (i,), (3,))
        return lax.reduce_sum(lax.mul(z, z), (0,))

    xs = RNG.standard_normal((B, 3))
    idx = np.array([0, 1, 2, 3, 9], np.int32)
    g = sciax.vmap(sciax.grad(loss))(xs, idx)
    loop = np.stack([np.asarray(sciax.grad(loss)(x, i)) for x, i in zip(xs, idx)])
    np.testing.assert_array_equal(np.asarray(g), loop)
