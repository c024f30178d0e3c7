"""Python lists and tuples of traced values are array-likes (issue 12).

NumPy accepts a list of arrays wherever it accepts an array; sciax.numpy must
accept a list of traced values (inside ``grad``, ``vmap``, ``jit``) the same
way, stacking them as ``snp.array`` would.  The reference for each call is the
same function applied to the stacked array.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import sciax
import sciax.numpy as snp


def _total(out):
    """A float scalar summarising any (pytree) result, for grad and vmap."""
    leaves = [v for v in sciax.tree.leaves(out) if hasattr(v, "dtype")]
    # start from a float 0: some functions (shape, ndim, isscalar) return
    # Python values, whose summary is a constant
    return sum((snp.sum(snp.real(snp.asarray(v)).astype(float)) for v in leaves),
               snp.zeros(()))


def _check(call, x=1.5):
    """``call(as_list)`` against ``call(as_array)``: value, grad and vmap."""
    via_list = lambda t: _total(call(lambda *v: list(v), t))  # noqa: E731
    via_array = lambda t: _total(call(lambda *v: snp.stack(v), t))  # noqa: E731
    np.testing.assert_allclose(sciax.grad(via_list)(x), sciax.grad(via_array)(x),
                               rtol=1e-12, atol=1e-12)
    xs = snp.array([x, -0.5])
    np.testing.assert_allclose(sciax.vmap(via_list)(xs), sciax.vmap(via_array)(xs),
                               rtol=1e-12, atol=1e-12)


def test_issue_examples():
    g = sciax.grad(lambda x: snp.mean([x, x + 2.0]))(0.0)
    assert float(g) == 1.0
    # d/dx std([x, x + 2]) = 0: the spread does not depend on x
    assert float(sciax.grad(lambda x: snp.std([x, x + 2.0]))(0.0)) == 0.0
    assert float(sciax.grad(lambda x: snp.var((x, 2 * x)))(1.0)) == 0.5
    assert float(sciax.grad(lambda x: snp.sum(snp.append([x], [x, 1.0])))(0.0)) == 2.0
    np.testing.assert_allclose(sciax.grad(lambda x: snp.linalg.norm([x, 2 * x]))(1.0),
                               np.sqrt(5.0), rtol=1e-14)


_slow = pytest.mark.slow
_CALLS = [
    ("mean", lambda L, x: snp.mean(L(x, x + 2.0)), ()),
    ("std", lambda L, x: snp.std(L(x, 2.0 * x, 1.0)), ()),
    ("append", lambda L, x: snp.append(L(x, 1.0), L(x * x)), ()),
    ("norm", lambda L, x: snp.linalg.norm(L(x, 3.0)), ()),
    ("sin", lambda L, x: snp.sin(L(x, 2.0)), ()),
    ("maximum", lambda L, x: snp.maximum(L(x, 2.0), L(1.0, x)), ()),
    ("where", lambda L, x: snp.where(L(True, False), L(x, 1.0), L(2.0, x)), ()),
    ("concatenate", lambda L, x: snp.concatenate([L(x, 1.0), L(x)]), ()),
    ("dot", lambda L, x: snp.dot(L(x, 1.0), L(2.0, x)), ()),
    ("einsum", lambda L, x: snp.einsum("i,i->", L(x, 1.0), L(2.0, x)), ()),
    ("polyval", lambda L, x: snp.polyval(L(x, 1.0), 2.0), ()),
    ("cumsum", lambda L, x: snp.cumsum(L(x, x)), ()),
    ("interp", lambda L, x: snp.interp(0.5, L(0.0, 1.0), L(x, 2.0 * x)), _slow),
    ("quantile", lambda L, x: snp.quantile(L(x, 1.0, 3.0), 0.5), _slow),
    ("det", lambda L, x: snp.linalg.det(L(L(x + 3.0, 1.0), L(1.0, x + 2.0))), _slow),
    ("eigvalsh", lambda L, x: snp.linalg.eigvalsh(L(L(x + 3.0, 1.0),
                                                    L(1.0, x + 2.0))), _slow),
    ("solve", lambda L, x: snp.linalg.solve(L(L(x + 3.0, 1.0), L(1.0, 2.0)),
                                            L(x, 1.0)), _slow),
]


@pytest.mark.parametrize("call", [pytest.param(c, id=n, marks=m)
                                  for n, c, m in _CALLS])
def test_list_of_tracers(call):
    _check(call)


def test_nested_tuples_and_mixed_numbers_promote_like_numpy():
    def f(x):
        a = snp.asarray(((x, 1), (2, x)))
        assert a.shape == (2, 2) and a.dtype == np.float64
        return snp.sum(a)
    assert float(sciax.grad(f)(1.0)) == 2.0
    with pytest.raises(ValueError, match="different shapes"):
        sciax.grad(lambda x: snp.sum(snp.sin([x, [x, x]])))(1.0)
    with pytest.raises(TypeError, match="array-like"):
        sciax.grad(lambda x: snp.sum(snp.sin([x, "a"])))(1.0)


# Functions that cannot take traced values at all (their output shape depends on
# the values, or they print/inspect them): not applicable to this sweep.
_VALUE_DEPENDENT = {
    "argwhere", "flatnonzero", "nonzero", "trim_zeros", "unique", "unique_all",
    "unique_counts", "unique_inverse", "unique_values", "asarray_chkfinite",
    "array2string", "array_repr", "array_str", "min_scalar_type",
}
_NOT_ARRAY_FUNCTIONS = {
    "load", "frombuffer", "fromstring", "fromiter", "fromfunction", "vectorize",
    "piecewise", "apply_along_axis", "apply_over_axes", "printoptions",
    "set_printoptions", "get_printoptions",
}


def _unary_sweep():
    names = []
    for name in sorted(dir(snp)):
        fn = getattr(snp, name)
        if (name.startswith("_") or name in _VALUE_DEPENDENT | _NOT_ARRAY_FUNCTIONS
                or not callable(fn) or inspect.isclass(fn) or inspect.ismodule(fn)):
            continue
        try:
            fn([1.0, 3.0])  # takes one array-like (on concrete values)
        except Exception:  # noqa: BLE001 - needs other arguments: not in this sweep
            continue
        names.append(name)
    return names


@pytest.mark.slow
def test_every_one_argument_function_accepts_a_list_of_tracers():
    names = _unary_sweep()
    assert len(names) > 100
    failed = []
    for name in names:
        fn = getattr(snp, name)
        try:
            _check(lambda L, x: fn(L(x, x + 2.0)))
        except Exception as err:  # noqa: BLE001 - collect every failure
            failed.append(f"{name}: {type(err).__name__}: {str(err)[:100]}")
    assert not failed, "\n".join(failed)


@pytest.mark.slow
def test_every_two_argument_function_accepts_lists_of_tracers():
    failed, count = [], 0
    for name in sorted(dir(snp)):
        fn = getattr(snp, name)
        if (name.startswith("_") or name in _VALUE_DEPENDENT | _NOT_ARRAY_FUNCTIONS
                or name in _unary_sweep_cache() or not callable(fn)
                or inspect.isclass(fn) or inspect.ismodule(fn)):
            continue
        try:
            fn([1.0, 3.0], [2.0, 0.5])
        except Exception:  # noqa: BLE001 - other signatures: not in this sweep
            continue
        count += 1
        try:
            # a list of tracers as the first argument (the second may be an
            # index, shift or count that must stay static)
            _check(lambda L, x: fn(L(x, x + 2.0), [2.0, 0.5]))
        except Exception as err:  # noqa: BLE001
            if "size of the result depends on the values" not in str(err):
                failed.append(f"{name}: {type(err).__name__}: {str(err)[:100]}")
    assert count > 60
    assert not failed, "\n".join(failed)


_cache: list = []


def _unary_sweep_cache():
    if not _cache:
        _cache.append(set(_unary_sweep()))
    return _cache[0]


@pytest.mark.slow
@pytest.mark.parametrize("module,make", [
    (snp.fft, lambda L, x: L(x, x + 2.0, 1.0, 0.5)),
    (snp.linalg, lambda L, x: L(L(x + 3.0, 1.0), L(1.0, x + 2.0))),
], ids=["fft", "linalg"])
def test_fft_and_linalg_functions_accept_nested_lists_of_tracers(module, make):
    failed, count = [], 0
    for name in sorted(dir(module)):
        fn = getattr(module, name)
        if name.startswith("_") or not callable(fn) or inspect.isclass(fn):
            continue
        try:
            fn(make(lambda *v: list(v), 1.0))
        except Exception:  # noqa: BLE001 - needs other arguments
            continue
        count += 1
        try:
            _check(lambda L, x: fn(make(L, x)))
        except Exception as err:  # noqa: BLE001
            failed.append(f"{name}: {type(err).__name__}: {str(err)[:100]}")
    assert count > 10
    assert not failed, "\n".join(failed)
