"""lax.gather and the scatter family against NumPy indexing (np.take, fancy
indexing, np.ufunc.at) and against a loop transcription of the StableHLO spec,
eagerly and under jit, in every out-of-bounds mode.

Values are small integers (in every dtype), so sums and products are exact and
all comparisons are exact whatever order XLA combines duplicates in.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sciax
from sciax import lax

SETTINGS = settings(max_examples=20, deadline=None)
DTYPES = [np.dtype(t) for t in ("float32", "float64", "int32", "bool", "complex64")]
GDN, SDN = lax.GatherDimensionNumbers, lax.ScatterDimensionNumbers


def _elements(dtype: np.dtype):
    if dtype == np.bool_:
        return st.booleans()
    ints = st.integers(-9, 9)
    if dtype.kind == "c":
        return st.builds(complex, ints, ints)
    return ints


def _array(data, shape, dtype):
    return data.draw(hnp.arrays(dtype, shape, elements=_elements(np.dtype(dtype))))


def _check(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    np.testing.assert_array_equal(got, ref)


# --- spec transcriptions (index vectors on the last axis) ----------------------------

def _ref_gather(x, idx, dn, sizes, mode="clip", fill=None):
    batch_shape = idx.shape[:-1]
    window = [s for d, s in enumerate(sizes)
              if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims]
    out_rank = len(batch_shape) + len(window)
    it_w, it_b = iter(window), iter(batch_shape)
    out_shape = tuple(next(it_w) if d in dn.offset_dims else next(it_b)
                      for d in range(out_rank))
    out = np.zeros(out_shape, x.dtype)
    window_axes = [d for d in range(x.ndim) if d not in dn.collapsed_slice_dims
                   and d not in dn.operand_batching_dims]
    for o in itertools.product(*map(range, out_shape)):
        b = tuple(o[d] for d in range(out_rank) if d not in dn.offset_dims)
        start = [0] * x.ndim
        inside = True
        for k, d in enumerate(dn.start_index_map):
            s = int(idx[b][k])
            inside &= 0 <= s <= x.shape[d] - sizes[d]
            start[d] = min(max(s, 0), x.shape[d] - sizes[d])
        for od, idd in zip(dn.operand_batching_dims, dn.start_indices_batching_dims):
            start[od] = b[idd]
        for d, w in zip(window_axes, (o[d] for d in dn.offset_dims)):
            start[d] += w
        out[o] = x[tuple(start)] if inside or mode == "clip" else fill
    return out


def _ref_scatter(x, idx, upd, dn, combine, mode="drop"):
    out = x.copy()
    window_axes = [d for d in range(x.ndim) if d not in dn.inserted_window_dims
                   and d not in dn.operand_batching_dims]
    wsize = [1] * x.ndim
    for d, u in zip(window_axes, dn.update_window_dims):
        wsize[d] = upd.shape[u]
    for u in itertools.product(*map(range, upd.shape)):
        b = tuple(u[d] for d in range(upd.ndim) if d not in dn.update_window_dims)
        pos = [0] * x.ndim
        inside = True
        for k, d in enumerate(dn.scatter_dims_to_operand_dims):
            s = int(idx[b][k])
            inside &= 0 <= s <= x.shape[d] - wsize[d]
            pos[d] = min(max(s, 0), x.shape[d] - wsize[d]) if mode == "clip" else s
        for od, idd in zip(dn.operand_batching_dims, dn.scatter_indices_batching_dims):
            pos[od] = b[idd]
        for d, w in zip(window_axes, dn.update_window_dims):
            pos[d] += u[w]
        if inside or mode == "clip":
            out[tuple(pos)] = combine(out[tuple(pos)], upd[u])
    return out


# --- gather --------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_gather_take_along_axis(run, data):
    """``np.take(x, i, axis)`` is a gather that collapses ``axis``."""
    dtype = data.draw(st.sampled_from(DTYPES))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    x = _array(data, shape, dtype)
    axis = data.draw(st.integers(0, x.ndim - 1))
    ishape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    i = data.draw(hnp.arrays(np.int32, ishape,
                             elements=st.integers(0, x.shape[axis] - 1)))
    nb = i.ndim
    offset_dims = tuple(d for d in range(x.ndim - 1 + nb) if not axis <= d < axis + nb)
    dn = GDN(offset_dims=offset_dims, collapsed_slice_dims=(axis,),
             start_index_map=(axis,))
    sizes = tuple(1 if d == axis else n for d, n in enumerate(x.shape))
    mode = data.draw(st.sampled_from([None, "clip", "promise_in_bounds"]))
    got = run(lambda x, i: lax.gather(x, i[..., None], dn, sizes, mode=mode), x, i)
    _check(got, np.take(x, i, axis=axis))


@pytest.mark.slow  # long: runs in CI's second step
@SETTINGS
@given(data=st.data())
def test_gather_fancy_index_out_of_bounds(run, data):
    """``x[i, j]`` with indices that may leave the array: clip matches NumPy's
    clipped take, fill gives NaN / iinfo.min / True (or ``fill_value``)."""
    dtype = data.draw(st.sampled_from(DTYPES))
    shape = data.draw(hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=4))
    x = _array(data, shape, dtype)
    k = data.draw(st.integers(0, 5))
    idx = data.draw(hnp.arrays(np.int32, (k, 2), elements=st.integers(-5, 5)))
    dn = GDN(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
    clipped = x[np.clip(idx[:, 0], 0, shape[0] - 1),
                np.clip(idx[:, 1], 0, shape[1] - 1)]
    _check(run(lambda x, i: lax.gather(x, i, dn, (1, 1), mode="clip"), x, idx), clipped)
    inside = ((idx >= 0) & (idx < np.array(shape))).all(axis=1)
    default = {"f": np.nan, "c": np.nan, "i": np.iinfo(np.int32).min, "b": True}
    ref = np.where(inside, clipped, np.asarray(default[dtype.kind]).astype(dtype))
    _check(run(lambda x, i: lax.gather(x, i, dn, (1, 1)), x, idx), ref)
    fill = dtype.type(3) if dtype != np.bool_ else np.False_
    ref = np.where(inside, clipped, fill)
    _check(run(lambda x, i: lax.gather(x, i, dn, (1, 1), mode="fill", fill_value=fill),
               x, idx), ref)


GATHER_CASES = [
    # windows of size (2, 3) at (row, col) start pairs; index vector swapped
    ((4, 5), (3, 2), GDN((1, 2), (), (1, 0)), (2, 3)),
    # row windows, batch axes after the window axis
    ((5, 3), (2, 2, 1), GDN((0,), (1,), (1,)), (5, 1)),
    # batching: out[b, k] = x[b, i[b, k]] (np.take_along_axis)
    ((3, 4), (3, 2, 1), GDN((), (1,), (1,), (0,), (0,)), (1, 1)),
    # batching on a later indices axis, with a window
    ((2, 6, 3), (4, 2, 1), GDN((2,), (1,), (1,), (0,), (1,)), (1, 1, 2)),
    # an empty index vector: every batch element reads the same window
    ((3, 3), (2, 0), GDN((1, 2), (), ()), (2, 2)),
]


@pytest.mark.parametrize("xshape,ishape,dn,sizes", GATHER_CASES)
@pytest.mark.parametrize("mode", ["clip", "fill"])
def test_gather_against_spec(run, xshape, ishape, dn, sizes, mode):
    rng = np.random.default_rng(0)
    x = rng.integers(-9, 9, xshape).astype(np.float64)
    hi = max(xshape) + 1
    idx = rng.integers(-1, hi, ishape).astype(np.int32)
    for od, idd in zip(dn.operand_batching_dims, dn.start_indices_batching_dims):
        assert ishape[idd] == xshape[od]
    got = run(lambda x, i: lax.gather(x, i, dn, sizes, mode=mode), x, idx)
    _check(got, _ref_gather(x, idx, dn, sizes, mode, np.nan))


def test_gather_take_along_axis_batching():
    x = np.arange(12.0).reshape(3, 4)
    i = np.array([[3, 0], [1, 1], [2, 0]])
    dn = GDN((), (1,), (1,), (0,), (0,))
    _check(lax.gather(x, i[..., None], dn, (1, 1)), np.take_along_axis(x, i, 1))


def test_gather_empty(run):
    x = np.arange(6.0).reshape(3, 2)
    dn = GDN((1,), (0,), (0,))
    none = np.zeros((0, 1), np.int32)
    _check(run(lambda x, i: lax.gather(x, i, dn, (1, 2)), x, none), np.zeros((0, 2)))
    # an empty operand axis: every window is out of bounds
    e = np.zeros((0, 2))
    zeros = np.zeros((3, 1), np.int32)
    _check(run(lambda x, i: lax.gather(x, i, dn, (0, 2)), e, zeros),
           np.full((3, 2), np.nan))
    _check(run(lambda x, i: lax.gather(x, i, dn, (1, 0)), x, zeros),
           np.zeros((3, 0)))


def test_gather_weak_type_and_jaxpr():
    x = lax.full((3,), 1.0)
    dn = GDN((), (0,), (0,))
    out = lax.gather(x, np.array([[1]], np.int32), dn, (1,), mode="clip")
    assert out.weak_type
    jaxpr = sciax.make_jaxpr(lambda x, i: lax.gather(x, i, dn, (1,)))(
        np.zeros(3), np.zeros((2, 1), np.int32))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["gather"]


# --- scatter -------------------------------------------------------------------------

SCATTERS = {
    "scatter_add": (lax.scatter_add, np.add),
    "scatter_mul": (lax.scatter_mul, np.multiply),
    "scatter_min": (lax.scatter_min, np.minimum),
    "scatter_max": (lax.scatter_max, np.maximum),
    "scatter_sub": (lax.scatter_sub, np.subtract),
}


@pytest.mark.slow  # long: runs in CI's second step
@SETTINGS
@given(data=st.data(), name=st.sampled_from(sorted(SCATTERS)))
def test_scatter_ufunc_at(run, data, name):
    """Row updates ``ufunc.at(x, i, u)``; out-of-bounds rows are dropped by
    default and clamped with ``mode='clip'``."""
    op, ufunc = SCATTERS[name]
    dtypes = [d for d in DTYPES if not (d == np.bool_ and name == "scatter_sub")]
    dtype = data.draw(st.sampled_from(dtypes))
    if dtype.kind == "c" and name in ("scatter_min", "scatter_max"):
        # complex max/min (lexicographic) are checked in test_scatter_against_spec
        dtype = np.dtype(np.float32)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    x = _array(data, shape, dtype)
    k = data.draw(st.integers(0, 6))
    i = data.draw(hnp.arrays(np.int32, (k,), elements=st.integers(-2, shape[0] + 1)))
    u = _array(data, (k, *shape[1:]), dtype)
    dn = SDN(update_window_dims=tuple(range(1, x.ndim)), inserted_window_dims=(0,),
             scatter_dims_to_operand_dims=(0,))
    ok = (i >= 0) & (i < shape[0])
    ref = x.copy()
    ufunc.at(ref, i[ok], u[ok])
    _check(run(lambda x, i, u: op(x, i[:, None], u, dn), x, i, u), ref)
    ref = x.copy()
    ufunc.at(ref, np.clip(i, 0, shape[0] - 1), u)
    _check(run(lambda x, i, u: op(x, i[:, None], u, dn, mode="clip"), x, i, u), ref)


@SETTINGS
@given(data=st.data())
def test_scatter_unique_is_assignment(run, data):
    dtype = data.draw(st.sampled_from(DTYPES))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=5))
    x = _array(data, shape, dtype)
    i = np.array(data.draw(st.lists(st.integers(0, shape[0] - 1), unique=True)),
                 np.int32)
    u = _array(data, (len(i), *shape[1:]), dtype)
    dn = SDN(tuple(range(1, x.ndim)), (0,), (0,))
    ref = x.copy()
    ref[i] = u
    _check(run(lambda x, i, u: lax.scatter(x, i[:, None], u, dn, unique_indices=True),
               x, i, u), ref)


def _max(a, b):
    return b if (b.real, b.imag) > (a.real, a.imag) else a


SCATTER_CASES = [
    # 2x2 windows at (row, col) starts, index vector swapped
    ((4, 5), (3, 2), (3, 2, 2), SDN((1, 2), (), (1, 0))),
    # column windows, window axis first in updates
    ((3, 4), (2, 1), (3, 2), SDN((0,), (1,), (1,))),
    # batching: x[b, i[b, k]] op= u[b, k]
    ((3, 4), (3, 2, 1), (3, 2), SDN((), (1,), (1,), (0,), (0,))),
    # both index components collapsed
    ((3, 3), (5, 2), (5,), SDN((), (0, 1), (0, 1))),
]


@pytest.mark.parametrize("xshape,ishape,ushape,dn", SCATTER_CASES)
@pytest.mark.parametrize("mode", ["clip", "drop"])
@pytest.mark.parametrize("name", ["scatter_add", "scatter_max"])
def test_scatter_against_spec(run, xshape, ishape, ushape, dn, mode, name):
    rng = np.random.default_rng(1)
    x = (rng.integers(-9, 9, xshape) + 1j * rng.integers(-9, 9, xshape)
         ).astype(np.complex64)
    u = (rng.integers(-9, 9, ushape) + 1j * rng.integers(-9, 9, ushape)
         ).astype(np.complex64)
    idx = rng.integers(-1, max(xshape) + 1, ishape).astype(np.int32)
    combine = np.add if name == "scatter_add" else _max
    op = getattr(lax, name)
    got = run(lambda x, i, u: op(x, i, u, dn, mode=mode), x, idx, u)
    _check(got, _ref_scatter(x, idx, u, dn, combine, mode))


def test_scatter_empty_and_bool(run):
    dn = SDN((1,), (0,), (0,))
    x = np.arange(6.0).reshape(3, 2)
    _check(run(lambda x, i, u: lax.scatter_add(x, i, u, dn), x,
               np.zeros((0, 1), np.int32), np.zeros((0, 2))), x)
    e = np.zeros((0, 2))
    _check(run(lambda x, i, u: lax.scatter_add(x, i, u, dn), e,
               np.zeros((2, 1), np.int32), np.ones((2, 2))), e)
    b = np.array([False, True, False])
    dn1 = SDN((), (0,), (0,))
    i, u = np.array([[0], [0], [1]]), np.array([True, False, False])
    _check(run(lambda *a: lax.scatter_add(*a, dn1), b, i, u), [True, True, False])
    _check(run(lambda *a: lax.scatter_mul(*a, dn1), b, i, u), [False, False, False])


# --- bad input -----------------------------------------------------------------------

def _raises(exc, match, f, *args):
    with pytest.raises(exc, match=match):
        f(*args)
    with pytest.raises(exc, match=match):
        sciax.jit(f)(*args)


def test_gather_errors():
    x, i = np.zeros((3, 4), np.float32), np.zeros((2, 1), np.int32)
    dn = GDN((1,), (0,), (0,))
    _raises(TypeError, "gather: indices must have an integer dtype, got float32",
            lambda x, i: lax.gather(x, i, dn, (1, 4)), x, i.astype(np.float32))
    _raises(ValueError, r"gather: slice_sizes \(1,\) need one entry per axis",
            lambda x, i: lax.gather(x, i, dn, (1,)), x, i)
    _raises(ValueError, r"gather: slice_sizes \(1, 5\) must lie between 0 and",
            lambda x, i: lax.gather(x, i, dn, (1, 5)), x, i)
    _raises(ValueError, "gather: slice_sizes .* must be 0 or 1 on collapsed",
            lambda x, i: lax.gather(x, i, dn, (2, 4)), x, i)
    _raises(ValueError, "gather: start_index_map .* one entry per index component",
            lambda x, i: lax.gather(x, i, GDN((1,), (0,), (0, 1)), (1, 4)), x, i)
    _raises(ValueError, r"gather: offset_dims \(2,\) must be sorted",
            lambda x, i: lax.gather(x, i, GDN((2,), (0,), (0,)), (1, 4)), x, i)
    _raises(ValueError, "gather: .* must account for every axis",
            lambda x, i: lax.gather(x, i, GDN((), (0,), (0,)), (1, 4)), x, i)
    _raises(ValueError, "gather: batching axes differ in size",
            lambda x, i: lax.gather(x, i, GDN((), (1,), (1,), (0,), (0,)), (1, 1)),
            x, i)
    with pytest.raises(ValueError, match="unknown gather/scatter mode 'wrap'"):
        lax.gather(x, i, dn, (1, 4), mode="wrap")
    with pytest.raises(TypeError, match="dimension_numbers must be a "
                       "GatherDimensionNumbers, got ScatterDimensionNumbers"):
        lax.gather(x, i, SDN((1,), (0,), (0,)), (1, 4))


def test_scatter_errors():
    x, i, u = np.zeros((3, 4), np.float32), np.zeros((2, 1), np.int32), np.zeros(
        (2, 4), np.float32)
    dn = SDN((1,), (0,), (0,))
    _raises(TypeError, "scatter_add: updates dtype int32 must equal the operand dtype "
            "float32", lambda *a: lax.scatter_add(*a, dn), x, i, u.astype(np.int32))
    _raises(TypeError, "scatter_add: indices must have an integer dtype",
            lambda *a: lax.scatter_add(*a, dn), x, i.astype(np.float32), u)
    _raises(ValueError, r"scatter_add: updates shape \(3, 4\) has scatter axes of "
            r"shape \(3,\)", lambda *a: lax.scatter_add(*a, dn), x, i, np.zeros(
                (3, 4), np.float32))
    _raises(ValueError, "scatter: update window .* does not fit",
            lambda *a: lax.scatter(*a, dn), x, i, np.zeros((2, 5), np.float32))
    _raises(ValueError, "scatter: scatter_dims_to_operand_dims .* one entry per index",
            lambda *a: lax.scatter(*a, SDN((1,), (0,), (0, 1))), x, i, u)
    _raises(TypeError, "scatter_sub does not accept dtype bool",
            lambda *a: lax.scatter_sub(*a, dn), x.astype(bool), i, u.astype(bool))
