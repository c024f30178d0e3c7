"""lax.dot_general and lax.dot against numpy.einsum, eagerly and under jit."""

from __future__ import annotations

import string

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sciax
from sciax import lax

# every new shape compiles a small XLA program (~0.1 s), so keep examples few
SETTINGS = settings(max_examples=20, deadline=None)


@st.composite
def dot_problem(draw, dtype):
    """Operands with shuffled batch, contracting and free axes, the dimension
    numbers, and the matching einsum spec (output: batch, lhs free, rhs free)."""
    sizes = st.integers(0, 3)
    nb, nc = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    nl, nr = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    b = [draw(sizes) for _ in range(nb)]
    c = [draw(sizes) for _ in range(nc)]
    lf = [draw(sizes) for _ in range(nl)]
    rf = [draw(sizes) for _ in range(nr)]
    letters = iter(string.ascii_letters)
    bl, cl = [next(letters) for _ in b], [next(letters) for _ in c]
    lfl, rfl = [next(letters) for _ in lf], [next(letters) for _ in rf]
    lhs_axes = draw(st.permutations([("b", i) for i in range(nb)] +
                                    [("c", i) for i in range(nc)] +
                                    [("f", i) for i in range(nl)]))
    rhs_axes = draw(st.permutations([("b", i) for i in range(nb)] +
                                    [("c", i) for i in range(nc)] +
                                    [("f", i) for i in range(nr)]))
    size = {"b": b, "c": c}
    label = {"b": bl, "c": cl}

    def build(axes, free, free_labels):
        shape = tuple(free[i] if k == "f" else size[k][i] for k, i in axes)
        spec = "".join(free_labels[i] if k == "f" else label[k][i] for k, i in axes)
        pos = {ax: n for n, ax in enumerate(axes)}
        return shape, spec, pos

    lshape, lspec, lpos = build(lhs_axes, lf, lfl)
    rshape, rspec, rpos = build(rhs_axes, rf, rfl)
    dims = ((tuple(lpos[("c", i)] for i in range(nc)),
             tuple(rpos[("c", i)] for i in range(nc))),
            (tuple(lpos[("b", i)] for i in range(nb)),
             tuple(rpos[("b", i)] for i in range(nb))))
    # lhs free axes appear in the output in their lhs order (likewise rhs)
    lfree = "".join(lspec[n] for n, (k, _) in enumerate(lhs_axes) if k == "f")
    rfree = "".join(rspec[n] for n, (k, _) in enumerate(rhs_axes) if k == "f")
    spec = f"{lspec},{rspec}->{''.join(bl)}{lfree}{rfree}"
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def sample(shape):
        if np.dtype(dtype).kind == "i":
            return rng.integers(-5, 6, shape).astype(dtype)
        x = rng.uniform(-2, 2, shape)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.uniform(-2, 2, shape)
        return x.astype(dtype)

    return sample(lshape), sample(rshape), dims, spec


_EPS = {np.float32: np.finfo(np.float32).eps, np.float64: np.finfo(np.float64).eps,
        np.complex64: np.finfo(np.float32).eps}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
@SETTINGS
@given(data=st.data())
def test_dot_general_matches_einsum(run, dtype, data):
    lhs, rhs, dims, spec = data.draw(dot_problem(dtype))
    got = np.asarray(run(lambda a, b: lax.dot_general(a, b, dims), lhs, rhs))
    ref = np.einsum(spec, lhs.astype(np.complex128 if lhs.dtype.kind == "c" else
                                     np.float64 if lhs.dtype.kind == "f" else lhs.dtype),
                    rhs.astype(np.complex128 if rhs.dtype.kind == "c" else
                               np.float64 if rhs.dtype.kind == "f" else rhs.dtype))
    assert got.dtype == dtype and got.shape == ref.shape
    if dtype == np.int32:
        np.testing.assert_array_equal(got, ref)
    else:
        # a sum of n rounded products errs by at most ~n eps sum(|a||b|); complex
        # products add a few eps more
        n = int(np.prod([lhs.shape[d] for d in dims[0][0]]))
        bound = 4 * max(n, 1) * _EPS[dtype] * np.einsum(spec, np.abs(lhs), np.abs(rhs))
        np.testing.assert_array_less(np.abs(got - ref), bound + 1e-30)


def test_dot_general_layout_batch_then_free():
    a = np.arange(2 * 3 * 4, dtype=np.float64).reshape(3, 2, 4)   # (k, b, i)
    b = np.arange(2 * 3 * 5, dtype=np.float64).reshape(5, 3, 2)   # (j, k, b)
    got = lax.dot_general(a, b, (((0,), (1,)), ((1,), (2,))))
    np.testing.assert_allclose(got, np.einsum("kbi,jkb->bij", a, b), rtol=1e-15)


@pytest.mark.parametrize("lshape,rshape,spec", [
    ((3,), (3,), "i,i->"), ((2, 3), (3,), "ij,j->i"), ((3,), (3, 4), "i,ij->j"),
    ((2, 3), (3, 4), "ij,jk->ik"), ((2, 0), (0, 4), "ij,jk->ik")])
def test_dot(run, lshape, rshape, spec):
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=lshape), rng.normal(size=rshape)
    np.testing.assert_allclose(run(lax.dot, a, b), np.einsum(spec, a, b),
                               rtol=1e-14, atol=1e-14)


def test_preferred_element_type(run):
    a = np.array([[1, 2], [3, 4]], np.int8)
    b = np.array([[100, 0], [0, 100]], np.int8)
    got = run(lambda x, y: lax.dot(x, y, preferred_element_type=np.int32), a, b)
    assert np.asarray(got).dtype == np.int32
    np.testing.assert_array_equal(got, a.astype(np.int32) @ b.astype(np.int32))
    # mixed operand dtypes are allowed with a result dtype that holds both
    f = np.array([0.5, 0.25], np.float32)
    got = run(lambda x, y: lax.dot(x, y, preferred_element_type=np.float64), a, f)
    assert np.asarray(got).dtype == np.float64
    np.testing.assert_allclose(got, a @ f.astype(np.float64), rtol=1e-15)
    got = run(lambda x, y: lax.dot(x, y, preferred_element_type=np.complex64),
              f, np.array([1j, 2.0], np.complex64))
    np.testing.assert_allclose(got, 0.5 + 0.5j, rtol=1e-6)


def test_precision_is_accepted_and_lowered():
    a = np.ones((2, 2), np.float32)
    f = sciax.jit(lambda x: lax.dot(x, x, precision="highest"))
    assert "HIGHEST" in f.lower(a).as_text()
    np.testing.assert_array_equal(f(a), 2 * a)
    np.testing.assert_array_equal(lax.dot(a, a, precision=("default", "high")), 2 * a)
    with pytest.raises(ValueError, match="precision must be None"):
        lax.dot(a, a, precision="fastest")


def test_dot_general_bad_input():
    a, b = np.ones((2, 3)), np.ones((4, 5))
    with pytest.raises(ValueError, match=r"contracting dimensions must have equal "
                       r"sizes.*\(1,\).*\(2, 3\).*\(3,\).*\(0,\).*\(4, 5\).*\(4,\)"):
        lax.dot_general(a, b, (((1,), (0,)), ((), ())))
    with pytest.raises(ValueError, match=r"batch dimensions must have equal sizes"):
        lax.dot_general(np.ones((2, 3)), np.ones((4, 3)), (((1,), (1,)), ((0,), (0,))))
    with pytest.raises(ValueError, match="same number of batch dimensions"):
        lax.dot_general(np.ones((2, 3)), np.ones((2, 3)), (((1,), (1,)), ((0,), ())))
    with pytest.raises(ValueError, match=r"lhs contracting dimension 2 .*out of range "
                       r"for an operand of shape \(2, 3\)"):
        lax.dot_general(np.ones((2, 3)), np.ones((3,)), (((2,), (0,)), ((), ())))
    with pytest.raises(ValueError, match="must be distinct axes"):
        lax.dot_general(np.ones((3, 3)), np.ones((3, 3)), (((0,), (0,)), ((0,), (1,))))
    with pytest.raises(TypeError, match="dimension_numbers must be"):
        lax.dot_general(a, b, ((1, 0), ()))
    with pytest.raises(ValueError, match="equal sizes"):
        sciax.jit(lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ()))))(a, b)


def test_dot_general_bad_dtypes():
    with pytest.raises(TypeError, match="same dtype, got float32 and float64"):
        lax.dot(np.ones(2, np.float32), np.ones(2, np.float64))
    with pytest.raises(TypeError, match="does not accept dtype bool for lhs"):
        lax.dot(np.ones(2, bool), np.ones(2, bool))
    with pytest.raises(TypeError, match="preferred_element_type int32 cannot hold the "
                       "lhs dtype float32"):
        lax.dot(np.ones(2, np.float32), np.ones(2, np.float32),
                preferred_element_type=np.int32)


def test_dot_bad_shapes():
    with pytest.raises(ValueError, match=r"dot: incompatible shapes \(2, 3\) and \(2,\)"):
        lax.dot(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="rank 1 or 2"):
        lax.dot(np.ones((2, 2, 2)), np.ones(2))
