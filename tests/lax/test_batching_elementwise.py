"""vmap of every elementwise lax primitive equals a Python loop over the batch:
the batch axis at each position, unbatched (``in_axes=None``) operands mixed in,
operands batched at different axes, size-1 and empty batches, nested vmap.

The records (operations, their domains and dtypes) come from ``op_table.py``;
each record runs with one dtype (float64 where it is accepted).  Examples have
shape (2, 3) so that a batch axis can sit before, between or after their axes.
Every distinct (primitive, shape) compiles a small XLA program, so shapes are few.
"""

from __future__ import annotations

import numpy as np
import pytest

import sciax
from sciax import lax
from sciax.test_util import check_batching

from .op_table import BITCAST_RECORDS, CONVERT_RECORDS, RECORDS, OpRecord

EXAMPLE = (2, 3)
f64, i32 = np.dtype(np.float64), np.dtype(np.int32)


def _dtype(rec: OpRecord) -> np.dtype:
    for dt in (f64, i32, np.dtype(np.complex128), np.dtype(np.uint32), np.dtype(bool)):
        if dt in rec.dtypes:
            return dt
    return rec.dtypes[0]


def _convert_record_dtype(rec: OpRecord) -> np.dtype:
    return i32 if rec.params["new_dtype"] == f64 else f64


# convert_element_type to a few targets (from float64, or from int32 into float64)
# and bitcasts that keep, narrow (adds an axis) and widen (consumes one) the width.
_CONVERTS = [r for r in CONVERT_RECORDS if r.params["new_dtype"].name in
             ("float64", "float32", "int32", "bool", "complex128", "uint8")]
_BITCASTS = [r for r in BITCAST_RECORDS if r.name.endswith(
    ("float64_to_int64", "float32_to_uint8", "uint8_to_float32"))]
# The complex variants of unary functions (log_complex ...) share the real
# records' batching rule and only add compile time: left out.
CASES = ([(r, _dtype(r)) for r in RECORDS if not r.name.endswith("_complex")] +
         [(r, _convert_record_dtype(r)) for r in _CONVERTS] +
         [(r, r.dtypes[0]) for r in _BITCASTS])
IDS = [r.name for r, _ in CASES]


def _examples(rec: OpRecord, dtype: np.dtype, n: int, seed: int = 0
              ) -> list[np.ndarray]:
    """``n`` examples of each operand, stacked on a new leading axis."""
    rng = np.random.default_rng(seed)
    rows = [rec.make_args(rng, EXAMPLE, dtype) for _ in range(max(n, 1))]
    return [np.stack([r[k] for r in rows])[:n] for k in range(rec.nargs)]


def _place(stacked: list[np.ndarray], axes: tuple, unbatched: list | None = None
           ) -> tuple[list, tuple]:
    """Move each operand's batch axis (now 0) to ``axes[k]`` (an int, ``-1`` for
    last, or None: the operand is unbatched, ``unbatched[k]`` or the first
    example)."""
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


def _tol(rec: OpRecord, dtype: np.dtype) -> float:
    # XLA may pick a different (vectorised) kernel for a transcendental function
    # on the batched shape: a few ulps; everything else must match exactly.
    return 0.0 if rec.exact_jit else rec.tolerance(dtype)


def _patterns(rec: OpRecord) -> list[tuple]:
    """Batch axes per operand: first, middle and last position for every
    operand, operands at different positions, one operand unbatched."""
    n = rec.nargs
    if n == 1:
        return [(0,), (1,), (-1,)]
    return [(0,) * n, (-1,) * n, tuple(range(n)), (None,) + (1,) * (n - 1),
            (-1,) * (n - 1) + (None,)]


@pytest.mark.parametrize("rec,dtype", CASES, ids=IDS)
def test_vmap_matches_loop(rec, dtype):
    stacked = _examples(rec, dtype, 5)  # 5: no example axis has this size
    for pattern in _patterns(rec):
        args, in_axes = _place(stacked, pattern)
        check_batching(rec, args, in_axes, atol=_tol(rec, dtype))


SELECTED = ["add", "div", "pow", "integer_pow_5", "sin", "max", "clamp",
            "clamp_scalar_bounds", "select_n_bool", "select_n_scalar_predicate", "lt",
            "shift_left", "complex", "abs", "convert_element_type_to_float32",
            "bitcast_convert_type_float32_to_uint8"]
SELECTED_CASES = [c for c in CASES if c[0].name in SELECTED]
SELECTED_IDS = [r.name for r, _ in SELECTED_CASES]


@pytest.mark.parametrize("rec,dtype", SELECTED_CASES, ids=SELECTED_IDS)
def test_size_one_and_empty_batches(rec, dtype):
    one = _examples(rec, dtype, 1)
    check_batching(rec, one, 0, atol=_tol(rec, dtype))
    if rec.nargs > 1:
        args, in_axes = _place(one, (None,) + (-1,) * (rec.nargs - 1))
        check_batching(rec, args, in_axes, atol=_tol(rec, dtype))
    # empty batch: the result is empty, with the per-example shape and dtype
    example = rec(*[x[0] for x in one])
    empty = _examples(rec, dtype, 0)
    pats = [(0,) * rec.nargs, (-1,) * rec.nargs]
    if rec.nargs > 1:
        pats.append((None,) + (1,) * (rec.nargs - 1))
    for pattern in pats:
        args, in_axes = _place(empty, pattern, unbatched=[x[0] for x in one])
        out = sciax.vmap(rec, in_axes=in_axes)(*args)
        assert out.shape == (0, *example.shape), (pattern, out.shape)
        assert out.dtype == example.dtype


def test_widening_bitcast_batched_last_axis():
    x = np.arange(60, dtype=np.uint8).reshape(3, 4, 5)  # 5 examples of (3, 4)
    f = lambda x: lax.bitcast_convert_type(x, np.float32)  # noqa: E731
    out = sciax.vmap(f, in_axes=-1)(x)
    np.testing.assert_array_equal(np.asarray(out), np.stack(
        [np.asarray(f(x[..., i])) for i in range(5)]))


@pytest.mark.parametrize("rec,dtype", SELECTED_CASES[:8], ids=SELECTED_IDS[:8])
def test_nested_vmap(rec, dtype):
    """vmap(vmap(f, in_axes=0), in_axes=1): out[i, j] = f(x[j, i])."""
    rng = np.random.default_rng(0)
    rows = [[rec.make_args(rng, EXAMPLE, dtype) for _ in range(4)] for _ in range(3)]
    args = [np.stack([np.stack([rows[j][i][k] for i in range(4)]) for j in range(3)])
            for k in range(rec.nargs)]  # (3, 4, ...)
    out = sciax.vmap(sciax.vmap(rec, in_axes=0), in_axes=1)(*args)
    expected = np.stack([np.stack([np.asarray(rec(*rows[j][i])) for j in range(3)])
                         for i in range(4)])
    np.testing.assert_allclose(np.asarray(out), expected, rtol=_tol(rec, dtype))
    # the first operand is mapped by the inner vmap only (None in the outer one)
    if rec.nargs > 1:
        first = args[0][:, 0]  # (3, ...): varies only with the inner index
        f = sciax.vmap(sciax.vmap(rec, in_axes=(0,) * rec.nargs),
                       in_axes=(None,) + (1,) * (rec.nargs - 1))
        out = f(first, *args[1:])
        expected = np.stack([np.stack([
            np.asarray(rec(rows[j][0][0], *rows[j][i][1:])) for j in range(3)])
            for i in range(4)])
        np.testing.assert_allclose(np.asarray(out), expected, rtol=_tol(rec, dtype))
