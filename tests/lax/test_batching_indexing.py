"""vmap of lax.gather and the scatter family against a Python loop.

Each primitive is batched over the operand only, the indices only (and for
scatter the updates only), and all of them, with batch axes not in front, in
each out-of-bounds mode; indices include out-of-bounds and repeated entries.
Also: per-example gradients (vmap of grad), jacfwd/jacrev (which vmap the
rules' own output), vmap under jit, and size-1 and empty batches.
"""

from __future__ import annotations

import numpy as np
import pytest

import sciax
from sciax import lax
from sciax.test_util import check_batching

GDN, SDN = lax.GatherDimensionNumbers, lax.ScatterDimensionNumbers
RNG = np.random.default_rng(0)
B = 3

# (name, operand shape, unbatched indices shape, index upper bound, dnums, sizes)
GATHERS = [
    ("take_axis0", (4, 3), (2, 1), 5,
     GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 3)),
    ("points", (3, 2), (4, 2), 3,
     GDN(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)), (1, 1)),
    ("slices", (3, 4), (2, 2), 3,
     GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)), (2, 2)),
    ("take_along_axis", (3, 4), (3, 2, 1), 4,
     GDN(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,),
         operand_batching_dims=(0,), start_indices_batching_dims=(0,)), (1, 1)),
]


def _idx(shape, hi):
    # -1 and hi are out of bounds (hi may be in bounds for a smaller window)
    return RNG.integers(-1, hi + 1, shape)


def _cases(x, xb, i, ib):
    """(in_axes, args) batching the operand, the indices, both, and both at
    axes other than 0."""
    return [((0, None), (xb, i)), ((None, 0), (x, ib)), ((0, 0), (xb, ib)),
            ((x.ndim, 1), (np.moveaxis(xb, 0, -1), np.moveaxis(ib, 0, 1)))]


@pytest.mark.parametrize("mode", ["fill", "clip"])
@pytest.mark.parametrize("name,xshape,ishape,hi,dn,sizes", GATHERS,
                         ids=[g[0] for g in GATHERS])
def test_gather_batching(name, xshape, ishape, hi, dn, sizes, mode):
    xb = RNG.standard_normal((B, *xshape))
    ib = _idx((B, *ishape), hi)
    f = lambda x, i: lax.gather(x, i, dn, sizes, mode=mode, fill_value=-9.0)
    for axes, args in _cases(xb[0], xb, ib[0], ib):
        check_batching(f, args, in_axes=axes, atol=0)


# x.at[i].op(u) on rows and x.at[i, j].op(u) on points (unbatched shapes)
SCATTERS = [
    ("rows", (4, 3), (3, 1), (3, 3), SDN(update_window_dims=(1,),
                                         inserted_window_dims=(0,),
                                         scatter_dims_to_operand_dims=(0,))),
    ("points", (4, 3), (5, 2), (5,), SDN(update_window_dims=(),
                                        inserted_window_dims=(0, 1),
                                        scatter_dims_to_operand_dims=(0, 1))),
    ("batched_rows", (2, 4, 3), (2, 2, 1), (2, 2, 3),
     SDN(update_window_dims=(2,), inserted_window_dims=(1,),
         scatter_dims_to_operand_dims=(1,), operand_batching_dims=(0,),
         scatter_indices_batching_dims=(0,))),
]
OPS = ["scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min",
       "scatter_max"]


def _unique_rows(shape, n_rows, batch):
    """Indices (batch, *shape) whose index vectors are distinct within each
    member and each (sub)batch, so overwriting scatter is deterministic."""
    out = np.empty((batch, *shape), np.int64)
    for b in range(batch):
        for k in np.ndindex(*shape[:-2]):
            vecs = RNG.permutation(n_rows)[:shape[-2]]
            out[(b, *k)] = vecs[:, None] if shape[-1] == 1 else \
                np.stack([vecs % 4, vecs // 4], -1)
    return out


# each configuration in fill mode, two of them in clip mode too (keeps it fast)
SCATTER_MODES = [(*s, m) for s in SCATTERS for m in ("fill", "clip")
                 if m == "fill" or s[0] != "points"]


@pytest.mark.parametrize("name", OPS)
@pytest.mark.parametrize("where,xshape,ishape,ushape,dn,mode", SCATTER_MODES,
                         ids=[f"{s[0]}-{s[-1]}" for s in SCATTER_MODES])
def test_scatter_batching(where, xshape, ishape, ushape, dn, mode, name):
    op = getattr(lax, name)
    xb = RNG.integers(-5, 6, (B, *xshape)).astype(np.float64)
    ub = RNG.integers(-5, 6, (B, *ushape)).astype(np.float64)
    if name == "scatter":
        ib = _unique_rows(ishape, 12 if where == "points" else 4, B)
    else:  # repeated and out-of-bounds entries
        ib = RNG.integers(-1, 5 if where != "points" else 4, (B, *ishape))
    x, i, u = xb[0], ib[0], ub[0]
    f = lambda x, i, u: op(x, i, u, dn, mode=mode, unique_indices=name == "scatter")
    cases = [((0, None, None), (xb, i, u)), ((None, 0, None), (x, ib, u)),
             ((None, None, 0), (x, i, ub)), ((None, 0, 0), (x, ib, ub)),
             ((0, 0, 0), (xb, ib, ub)),
             ((x.ndim, 1, u.ndim), (np.moveaxis(xb, 0, -1), np.moveaxis(ib, 0, 1),
                                    np.moveaxis(ub, 0, -1)))]
    for axes, args in cases:
        # small integers: products and sums are exact in any order
        check_batching(f, args, in_axes=axes, atol=0)


def test_per_example_gradients():
    # vmap(grad) of a loss that gathers rows and scatter-adds them back
    dn = GATHERS[0][4]
    sdn = SDN(update_window_dims=(1,), inserted_window_dims=(0,),
              scatter_dims_to_operand_dims=(0,))
    w = RNG.standard_normal((4, 3))
    ib = RNG.integers(0, 4, (B, 3, 1))

    def loss(w, i):
        rows = lax.gather(w, i, dn, (1, 3))
        back = lax.scatter_add(w, i, lax.mul(rows, rows), sdn)
        return lax.reduce_sum(lax.mul(back, back), (0, 1))
    per_example = sciax.vmap(sciax.grad(loss), in_axes=(None, 0))(w, ib)
    loop = np.stack([np.asarray(sciax.grad(loss)(w, ib[b])) for b in range(B)])
    np.testing.assert_allclose(np.asarray(per_example), loop, rtol=1e-12)
    jitted = sciax.jit(sciax.vmap(sciax.grad(loss), in_axes=(None, 0)))(w, ib)
    np.testing.assert_allclose(np.asarray(jitted), loop, rtol=1e-12)


@pytest.mark.parametrize("name", OPS)
def test_jacobians(name):
    # jacfwd/jacrev batch the rules' own output over the standard basis
    op = getattr(lax, name)
    sdn = SCATTERS[1][4]
    idx = np.array([[0, 1], [3, 2], [0, 1], [1, 1]])  # a repeated point
    x = RNG.standard_normal((4, 3))
    u = RNG.standard_normal(len(idx))
    f = lambda x, u: op(x, idx, u, sdn)
    jf = sciax.jacfwd(f, argnums=(0, 1))(x, u)
    jr = sciax.jacrev(f, argnums=(0, 1))(x, u)
    for a, b in zip(jf, jr):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12,
                                   atol=1e-15)


@pytest.mark.parametrize("size", [0, 1])
def test_small_batches(size):
    dn = GATHERS[0][4]
    sdn = SCATTERS[0][4]
    xb = RNG.standard_normal((size, 4, 3))
    ib = RNG.integers(0, 4, (size, 2, 1))
    ub = RNG.standard_normal((size, 2, 3))
    g = sciax.vmap(lambda x, i: lax.gather(x, i, dn, (1, 3)))(xb, ib)
    s = sciax.vmap(lambda x, i, u: lax.scatter_add(x, i, u, sdn))(xb, ib, ub)
    assert np.shape(g) == (size, 2, 3) and np.shape(s) == (size, 4, 3)
    for b in range(size):
        np.testing.assert_array_equal(np.asarray(g)[b], xb[b][ib[b, :, 0]])
        ref = xb[b].copy()
        np.add.at(ref, ib[b, :, 0], ub[b])
        np.testing.assert_allclose(np.asarray(s)[b], ref, rtol=1e-12)


def test_nested_vmap():
    dn = GATHERS[0][4]
    xb = RNG.standard_normal((2, B, 4, 3))
    ib = RNG.integers(0, 4, (B, 2, 2, 1))
    f = sciax.vmap(sciax.vmap(lambda x, i: lax.gather(x, i, dn, (1, 3))),
                   in_axes=(0, 1))
    out = np.asarray(f(xb, ib))
    for a in range(2):
        for b in range(B):
            np.testing.assert_array_equal(out[a, b], xb[a, b][ib[b, a, :, 0]])
