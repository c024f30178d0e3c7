"""JVP/VJP of reductions, dot_general, sort, cumulative ops and gather against
finite differences, first and second order, on hypothesis-drawn shapes, axes
and dimension numbers (float64, some complex)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sciax import lax
from sciax.test_util import check_grads

SETTINGS = settings(max_examples=6, deadline=None)


@st.composite
def shape_and_axes(draw, max_rank=3):
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=max_rank)))
    axes = draw(st.sets(st.integers(0, len(shape) - 1), min_size=1))
    return shape, tuple(sorted(axes))


def _values(shape, seed, complex_=False):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
    if complex_:
        x = x + 1j * rng.uniform(-1.0, 1.0, shape)
    return x


@pytest.mark.slow  # long: runs in CI's second step
@SETTINGS
@given(shape_and_axes(), st.sampled_from(["sum", "max", "min", "prod"]),
       st.integers(0, 2 ** 16))
def test_reductions_over_drawn_axes(sa, op, seed):
    shape, axes = sa
    fn = {"sum": lax.reduce_sum, "max": lax.reduce_max, "min": lax.reduce_min,
          "prod": lax.reduce_prod}[op]
    # distinct magnitudes keep max/min away from ties, where they are not smooth
    x = _values(shape, seed) * (1.0 + np.arange(np.prod(shape)).reshape(shape) / 10)
    check_grads(lambda v: fn(v, axes), (x,), order=2, modes=("fwd", "rev"))


@SETTINGS
@given(shape_and_axes(), st.integers(0, 2 ** 16))
def test_complex_reduce_sum_over_drawn_axes(sa, seed):
    shape, axes = sa
    check_grads(lambda v: lax.reduce_sum(v, axes), (_values(shape, seed, True),),
                order=2, modes=("fwd", "rev"))


@pytest.mark.slow  # long: runs in CI's second step
@SETTINGS
@given(st.integers(0, 2), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3),
       st.booleans(), st.integers(0, 2 ** 16))
def test_dot_general_with_drawn_batch_and_contracting_dims(nb, m, k, n, cplx, seed):
    batch = (2,) * nb
    lhs = _values((*batch, m, k), seed, cplx)
    rhs = _values((*batch, k, n), seed + 1, cplx)
    b = tuple(range(nb))
    dims = (((nb + 1,), (nb,)), (b, b))
    check_grads(lambda a, c: lax.dot_general(a, c, dims), (lhs, rhs), order=2,
                modes=("fwd", "rev"))


@pytest.mark.slow  # long: runs in CI's second step
@SETTINGS
@given(st.lists(st.integers(1, 4), min_size=1, max_size=2), st.integers(0, 2 ** 16),
       st.sampled_from(["cumsum", "cumprod", "cummax"]))
def test_cumulative_and_sort_on_drawn_shapes(shape, seed, op):
    shape = tuple(shape)
    x = _values(shape, seed) * (1.0 + np.arange(np.prod(shape)).reshape(shape) / 7)
    axis = len(shape) - 1
    fn = getattr(lax, op)
    check_grads(lambda v: fn(v, axis), (x,), order=2, modes=("fwd", "rev"))
    check_grads(lambda v: lax.sort(v, dimension=axis), (x,), order=2,
                modes=("fwd", "rev"))


@SETTINGS
@given(st.integers(2, 5), st.lists(st.integers(0, 4), min_size=1, max_size=4),
       st.integers(0, 2 ** 16))
def test_take_and_add_at_with_drawn_indices(n, idx, seed):
    idx = np.array([i % n for i in idx], np.int32)
    x = _values((n, 2), seed)
    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
                                    start_index_map=(0,))
    take = lambda v: lax.gather(v, idx[:, None], dn, (1, 2))  # noqa: E731
    check_grads(take, (x,), order=2, modes=("fwd", "rev"))
    sdn = lax.ScatterDimensionNumbers(update_window_dims=(1,),
                                      inserted_window_dims=(0,),
                                      scatter_dims_to_operand_dims=(0,))
    upd = _values((len(idx), 2), seed + 1)
    check_grads(lambda v, u: lax.scatter_add(v, idx[:, None], u, sdn), (x, upd),
                order=2, modes=("fwd", "rev"))
