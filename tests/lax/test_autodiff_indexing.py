"""Derivatives of lax.gather and the scatter family.

Every configuration is one that NumPy-style indexing produces (np.take along an
axis, point gathers x[i, j], slices through gather, take_along_axis through
batching dims, x.at[i].add/set/mul/min/max with repeated indices).  Each is
checked against central finite differences in float64 at first and second order
in both modes (``check_grads``); the rules' choices that finite differences
cannot see (out-of-bounds windows, which of several repeated updates wins, ties
of min/max, zero factors of scatter_mul) are checked against closed forms.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
from sciax import lax
from sciax._src.core.avals import ShapedArray
from sciax._src.interpreters import ad
from sciax._src.interpreters.partial_eval import trace_to_jaxpr
from sciax.test_util import check_grads

GDN, SDN = lax.GatherDimensionNumbers, lax.ScatterDimensionNumbers
RNG = np.random.default_rng(0)


def _randn(*shape):
    return RNG.standard_normal(shape)


# (name, operand shape, indices, dimension numbers, slice sizes)
GATHERS = [
    # np.take(x, [2, 0, 2], axis=0): repeated rows
    ("take_axis0", (4, 3), np.array([[2], [0], [2]]),
     GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 3)),
    # np.take(x, [1, 1, 0], axis=1)
    ("take_axis1", (2, 3), np.array([[1], [1], [0]]),
     GDN(offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,)), (2, 1)),
    # x[[0, 2, 0], [1, 0, 1]]: point gathers
    ("points", (3, 2), np.array([[0, 1], [2, 0], [0, 1]]),
     GDN(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)), (1, 1)),
    # x[i:i+2, j:j+2] for two start points: overlapping slices
    ("slices", (3, 4), np.array([[0, 1], [1, 2]]),
     GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)), (2, 2)),
    # np.take_along_axis(x, i, axis=1) through batching dims
    ("take_along_axis", (3, 4), np.array([[[3], [0]], [[1], [1]], [[2], [0]]]),
     GDN(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,),
         operand_batching_dims=(0,), start_indices_batching_dims=(0,)), (1, 1)),
]
GATHER_IDS = [g[0] for g in GATHERS]


@pytest.mark.parametrize("name,xshape,idx,dn,sizes", GATHERS, ids=GATHER_IDS)
def test_gather_grads(name, xshape, idx, dn, sizes):
    x = _randn(*xshape)
    check_grads(lambda x: lax.gather(x, idx, dn, sizes), (x,), order=2)


def _take_dn():
    return GATHERS[0][3]


def test_gather_fill_mode_drops_out_of_bounds():
    x = _randn(4, 3)
    idx = np.array([[3], [-1], [4], [1], [3]])
    f = lambda x: lax.gather(x, idx, _take_dn(), (1, 3), mode="fill")
    # the NaN fill of out-of-bounds rows has a zero tangent and no cotangent
    _, t = sciax.jvp(f, (x,), (np.ones_like(x),))
    np.testing.assert_array_equal(np.asarray(t), [[1] * 3, [0] * 3, [0] * 3, [1] * 3,
                                                  [1] * 3])
    w = _randn(5, 3)
    g = sciax.grad(lambda x: _wsum(f(x), w))(x)
    ref = np.zeros_like(x)
    np.add.at(ref, [3, 1, 3], w[[0, 3, 4]])
    np.testing.assert_allclose(np.asarray(g), ref, rtol=1e-12)
    # a finite fill value keeps finite differences meaningful
    check_grads(lambda x: lax.gather(x, idx, _take_dn(), (1, 3), mode="fill",
                                     fill_value=7.0), (x,), order=2)


def _wsum(y, w):
    return lax.reduce_sum(lax.mul(y, w), tuple(range(np.ndim(w))))


def test_gather_clip_mode_sends_cotangent_to_clamped_window():
    x = _randn(4, 3)
    idx = np.array([[7], [-2], [1]])
    w = _randn(3, 3)
    g = sciax.grad(lambda x: _wsum(lax.gather(x, idx, _take_dn(), (1, 3),
                                              mode="clip"), w))(x)
    ref = np.zeros_like(x)
    np.add.at(ref, [3, 0, 1], w)
    np.testing.assert_allclose(np.asarray(g), ref, rtol=1e-12)
    check_grads(lambda x: lax.gather(x, idx, _take_dn(), (1, 3), mode="clip"), (x,),
                order=2)


def test_gather_under_jit_and_indices_not_differentiated():
    x = _randn(4, 3)
    idx = np.array([[2], [0], [2]])
    w = _randn(3, 3)

    def f(x, i):
        return _wsum(lax.gather(x, i, _take_dn(), (1, 3)), w)
    g1 = sciax.jit(sciax.grad(f))(x, idx)
    g2 = sciax.grad(sciax.jit(f))(x, idx)
    ref = np.zeros_like(x)
    np.add.at(ref, [2, 0, 2], w)
    np.testing.assert_allclose(np.asarray(g1), ref, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(g2), ref, rtol=1e-12)
    with pytest.raises(TypeError, match="int"):
        sciax.grad(f, argnums=1)(x, idx)


@pytest.mark.slow  # long: runs in CI's second step
@settings(max_examples=10, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(0, 1), st.data())
def test_take_random_shapes(rows, cols, axis, data):
    shape = (rows, cols)
    n = data.draw(st.integers(1, 4))
    idx = np.array(data.draw(st.lists(st.integers(0, shape[axis] - 1), min_size=n,
                                      max_size=n)))[:, None]
    dn = GDN(offset_dims=(1 - axis,), collapsed_slice_dims=(axis,),
             start_index_map=(axis,))
    sizes = (1, cols) if axis == 0 else (rows, 1)
    x = _randn(*shape)
    f = lambda x: lax.gather(x, idx, dn, sizes)
    np.testing.assert_array_equal(np.asarray(f(x)), np.take(x, idx[:, 0], axis))
    check_grads(f, (x,), order=1)


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.data())
def test_add_at_random_shapes(rows, cols, data):
    # x.at[i].add(u) with random (often repeated) row indices
    n = data.draw(st.integers(1, 4))
    idx = np.array(data.draw(st.lists(st.integers(0, rows - 1), min_size=n,
                                      max_size=n)))[:, None]
    dn = SDN(update_window_dims=(1,), inserted_window_dims=(0,),
             scatter_dims_to_operand_dims=(0,))
    x, u = _randn(rows, cols), _randn(n, cols)
    f = lambda x, u: lax.scatter_add(x, idx, u, dn)
    ref = x.copy()
    np.add.at(ref, idx[:, 0], u)
    np.testing.assert_allclose(np.asarray(f(x, u)), ref, rtol=1e-12)
    check_grads(f, (x, u), order=1)


# --- scatter family ---------------------------------------------------------------

# x.at[i].op(u) on rows of a (4, 3) matrix, with a repeated index
ROW_SDN = SDN(update_window_dims=(1,), inserted_window_dims=(0,),
              scatter_dims_to_operand_dims=(0,))
ROWS = np.array([[2], [0], [2]])
# x.at[i, j].op(u) on points, with a repeated point
POINT_SDN = SDN(update_window_dims=(), inserted_window_dims=(0, 1),
                scatter_dims_to_operand_dims=(0, 1))
POINTS = np.array([[0, 1], [3, 2], [0, 1], [1, 1]])

OPS = ["scatter_add", "scatter_sub", "scatter_mul", "scatter_min", "scatter_max",
       "scatter"]


@pytest.mark.parametrize("name", OPS)
@pytest.mark.parametrize("where", ["rows", "points"])
def test_scatter_grads_repeated_indices(name, where):
    op = getattr(lax, name)
    idx, dn, ushape = (ROWS, ROW_SDN, (3, 3)) if where == "rows" else \
        (POINTS, POINT_SDN, (4,))
    x, u = _randn(4, 3), _randn(*ushape)
    check_grads(lambda x, u: op(x, idx, u, dn), (x, u), order=2)


@pytest.mark.parametrize("name", OPS)
def test_scatter_grads_unique_indices(name):
    op = getattr(lax, name)
    idx = np.array([[3], [0]])
    x, u = _randn(4, 3), _randn(2, 3)
    check_grads(lambda x, u: op(x, idx, u, ROW_SDN, unique_indices=True), (x, u),
                order=2)


@pytest.mark.parametrize("mode", ["fill", "clip"])
def test_scatter_add_out_of_bounds(mode):
    idx = np.array([[5], [1], [-1], [1]])
    x, u, w = _randn(4, 3), _randn(4, 3), _randn(4, 3)
    f = lambda x, u: _wsum(lax.scatter_add(x, idx, u, ROW_SDN, mode=mode), w)
    gx, gu = sciax.grad(f, argnums=(0, 1))(x, u)
    np.testing.assert_allclose(np.asarray(gx), w, rtol=1e-12)
    if mode == "clip":  # 5 and -1 are clamped to rows 3 and 0
        ref = w[[3, 1, 0, 1]]
    else:  # 5 and -1 are dropped
        ref = w[[1, 1, 1, 1]] * np.array([[0], [1], [0], [1]])
    np.testing.assert_allclose(np.asarray(gu), ref, rtol=1e-12)
    check_grads(lambda x, u: lax.scatter_add(x, idx, u, ROW_SDN, mode=mode), (x, u),
                order=2)


def test_scatter_add_matches_add_at():
    # x.at[i].add(u) with repeated indices: d/du_k = w[i_k], d/dx = w
    x, u, w = _randn(4, 3), _randn(3, 3), _randn(4, 3)
    gu = sciax.grad(lambda u: _wsum(lax.scatter_add(x, ROWS, u, ROW_SDN), w))(u)
    np.testing.assert_allclose(np.asarray(gu), w[[2, 0, 2]], rtol=1e-12)
    gs = sciax.grad(lambda u: _wsum(lax.scatter_sub(x, ROWS, u, ROW_SDN), w))(u)
    np.testing.assert_allclose(np.asarray(gs), -w[[2, 0, 2]], rtol=1e-12)


def test_scatter_repeated_indices_tangent_follows_written_update():
    # which repeated update XLA writes is unspecified; the tangent must belong
    # to the update whose value was written
    x, u = _randn(4, 3), _randn(3, 3)
    tx, tu = _randn(4, 3), _randn(3, 3)
    f = lambda x, u: lax.scatter(x, ROWS, u, ROW_SDN)
    out, t = sciax.jvp(f, (x, u), (tx, tu))
    out, t = np.asarray(out), np.asarray(t)
    np.testing.assert_array_equal(out, np.asarray(f(x, u)))
    for row in range(4):
        writers = [k for k in range(3) if ROWS[k, 0] == row]
        if not writers:
            np.testing.assert_array_equal(out[row], x[row])
            np.testing.assert_array_equal(t[row], tx[row])
            continue
        won = [k for k in writers if np.array_equal(out[row], u[k])]
        assert len(won) == 1, (row, out[row], u[writers])
        np.testing.assert_array_equal(t[row], tu[won[0]])
    # reverse mode agrees: the cotangent of the updates goes to the winner only
    w = _randn(4, 3)
    gx, gu = sciax.grad(lambda x, u: _wsum(f(x, u), w), argnums=(0, 1))(x, u)
    lhs = np.sum(np.asarray(gu) * tu) + np.sum(np.asarray(gx) * tx)
    np.testing.assert_allclose(lhs, np.sum(w * t), rtol=1e-12)


def test_scatter_unique_transpose_zeroes_written_rows():
    idx = np.array([[3], [0]])
    x, u, w = _randn(4, 3), _randn(2, 3), _randn(4, 3)
    f = lambda x, u: _wsum(lax.scatter(x, idx, u, ROW_SDN, unique_indices=True), w)
    gx, gu = sciax.grad(f, argnums=(0, 1))(x, u)
    np.testing.assert_allclose(np.asarray(gx), w * np.array([[0], [1], [1], [0]]))
    np.testing.assert_allclose(np.asarray(gu), w[[3, 0]])


def _transpose(f, avals, cts):
    """Transpose the linear ``f`` (all inputs linear) at cotangents ``cts``."""
    closed = trace_to_jaxpr(lambda *a: [f(*a)], avals)
    return ad.backward_pass(closed.jaxpr, closed.consts, cts)


@pytest.mark.parametrize("unique", [False, True])
def test_scatter_transpose_rule(unique):
    # the JVP never emits a non-unique scatter, but its transpose rule must
    # still be the adjoint: <ct, f(x, u)> == <f^T(ct), (x, u)>
    idx = np.array([[3], [0]]) if unique else ROWS
    x, u, ct = _randn(4, 3), _randn(len(idx), 3), _randn(4, 3)
    f = lambda x, u: lax.scatter(x, idx, u, ROW_SDN, unique_indices=unique)
    cx, cu = _transpose(f, [ShapedArray((4, 3), np.dtype("float64")),
                            ShapedArray(u.shape, np.dtype("float64"))], [ct])
    lhs = np.sum(ct * np.asarray(f(x, u)))
    rhs = np.sum(np.asarray(cx) * x) + np.sum(np.asarray(cu) * u)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-12)


def _mul_at_jacobian(x, idx, u):
    """d out / d u for out = np.multiply.at(x, idx, u) on points, by products."""
    jac = np.zeros(x.shape + u.shape)
    for k, p in enumerate(map(tuple, idx)):
        others = [j for j in range(len(u)) if j != k and tuple(idx[j]) == p]
        jac[p + (k,)] = x[p] * np.prod(u[others])
    return jac


@pytest.mark.parametrize("u", [
    np.array([0.5, -2.0, 3.0, 1.5]),   # no zero factor
    np.array([0.0, -2.0, 3.0, 1.5]),   # a zero factor on a repeated point
    np.array([0.0, -2.0, 0.0, 1.5]),   # two zero factors on one point
    np.array([1.5, 0.0, 3.0, 0.0]),    # zero factors on unique points
], ids=["nonzero", "one_zero", "two_zeros", "unique_zeros"])
def test_scatter_mul_zero_factors(u):
    x = _randn(4, 3)
    f = lambda u: lax.scatter_mul(x, POINTS, u, POINT_SDN)
    ref = _mul_at_jacobian(x, POINTS, u)
    np.testing.assert_allclose(np.asarray(sciax.jacfwd(f)(u)), ref, rtol=1e-12,
                               atol=1e-15)
    np.testing.assert_allclose(np.asarray(sciax.jacrev(f)(u)), ref, rtol=1e-12,
                               atol=1e-15)


def test_scatter_mul_unique_zero_safe_and_transpose_error():
    idx = np.array([[3], [0]])
    x, u = _randn(4, 3), np.array([[0.0, 2.0, -1.0], [1.0, 0.0, 0.0]])
    f = lambda u: lax.scatter_mul(x, idx, u, ROW_SDN, unique_indices=True)
    jac = np.asarray(sciax.jacrev(f)(u))
    ref = np.zeros((4, 3, 2, 3))
    for k, r in enumerate([3, 0]):
        ref[r, :, k, :] = np.diag(x[r])
    np.testing.assert_allclose(jac, ref, rtol=1e-12)
    rule = ad.primitive_transposes[lax.scatter_mul_p]
    linear_u = ad.UndefinedPrimal(ShapedArray((2, 3), np.dtype("float64")))
    with pytest.raises(NotImplementedError, match="updates"):
        rule(np.ones((4, 3)), x, idx, linear_u,
             dimension_numbers=ROW_SDN, indices_are_sorted=False,
             unique_indices=True, mode=lax.GatherScatterMode.FILL_OR_DROP)


@pytest.mark.parametrize("name", ["scatter_min", "scatter_max"])
def test_scatter_extremum_ties_share_tangent(name):
    op = getattr(lax, name)
    x = np.array([1.0, 5.0, -3.0])
    # element 0: the operand and two updates tie; element 2: the update wins
    idx = np.array([[0], [0], [2], [1]])
    u = np.array([1.0, 1.0, -3.0 + (1 if name == "scatter_max" else -1), 0.0])
    dn = SDN(update_window_dims=(), inserted_window_dims=(0,),
             scatter_dims_to_operand_dims=(0,))
    tx, tu = np.array([3.0, 7.0, 11.0]), np.array([6.0, 9.0, 13.0, 17.0])
    out, t = sciax.jvp(lambda x, u: op(x, idx, u, dn), (x, u), (tx, tu))
    t = np.asarray(t)
    assert t[0] == pytest.approx((3.0 + 6.0 + 9.0) / 3)
    # element 1: max keeps the operand 5 (tangent 7); min takes the update 0
    assert t[1] == pytest.approx(7.0 if name == "scatter_max" else 17.0)
    assert t[2] == pytest.approx(13.0)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(op(x, idx, u, dn)))


@pytest.mark.parametrize("name", ["gather", "scatter_add", "scatter_mul", "scatter"])
def test_complex(name):
    x = _randn(4, 3) + 1j * _randn(4, 3)
    u = _randn(3, 3) + 1j * _randn(3, 3)
    if name == "gather":
        check_grads(lambda x: lax.gather(x, ROWS, _take_dn(), (1, 3)), (x,), order=1)
    else:
        op = getattr(lax, name)
        check_grads(lambda x, u: op(x, ROWS, u, ROW_SDN), (x, u), order=1)
