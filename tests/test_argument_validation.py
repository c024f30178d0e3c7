"""Every transform argument is validated at call or trace time (issue 12, item 2).

One table: each row is (the transform applied to a function, the bad call, the
expected exception type, a regex that must appear in the message).  The regex
names the offending argument and its value (or the leaf/branch, by key path),
so a message that only says "invalid" fails.  Then a few checks that the valid
neighbours of these cases still work (negative axes are normalised).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax

X3 = np.arange(3.0)
M23 = np.ones((2, 3))


def sq(x):
    return snp.sum(x ** 2)


def mul(x, y):
    return snp.sum(x * y)


def scale(x, n):
    return x * n


def _custom_jvp(rule, nondiff=()):
    f = sciax.custom_jvp(lambda x: x * 1.0, nondiff_argnums=nondiff)
    if rule is not None:
        f.defjvp(rule)
    return f


def _custom_vjp(fwd, bwd):
    f = sciax.custom_vjp(lambda x: x * 1.0)
    f.defvjp(fwd, bwd)
    return f


_AUTODIFF = ["grad", "value_and_grad", "jacfwd", "jacrev", "hessian"]


def _argnums_rows():
    rows = []
    for name in _AUTODIFF:
        t = getattr(sciax, name)
        rows += [
            pytest.param(lambda t=t: t(sq, argnums=1)(X3), TypeError,
                         r"argnums=1 is out of range for a call with 1 positional",
                         id=f"{name}-argnums-out-of-range"),
            pytest.param(lambda t=t: t(mul, argnums=(0, 0)), ValueError,
                         r"argnums=\(0, 0\) repeats an argument index",
                         id=f"{name}-argnums-duplicate"),
            pytest.param(lambda t=t: t(mul, argnums=(0, -2))(X3, X3), ValueError,
                         r"argnums=\(0, -2\) names the same argument twice",
                         id=f"{name}-argnums-duplicate-negative"),
            pytest.param(lambda t=t: t(sq, argnums=0.0), TypeError,
                         r"argnums=0\.0 is not valid; expected an int",
                         id=f"{name}-argnums-float"),
            pytest.param(lambda t=t: t(sq, argnums="x"), TypeError,
                         r"argnums='x' is not valid", id=f"{name}-argnums-str"),
            pytest.param(lambda t=t: t(sq, has_aux=True)(X3), TypeError,
                         r"has_aux=True must return a pair \(output, aux\); got an "
                         r"array f64\[\]", id=f"{name}-has_aux-not-a-pair"),
            pytest.param(lambda t=t: t(lambda x: (sq(x), 1.0, 2.0), has_aux=True)(X3),
                         TypeError, r"must return a pair.*got a tuple of length 3",
                         id=f"{name}-has_aux-triple"),
        ]
    return rows


CASES = [
    # --- vmap: in_axes / out_axes structure and range, sizes, axis_size -----------
    pytest.param(lambda: sciax.vmap(lambda x: x, in_axes=1)(X3), ValueError,
                 r"in_axes=1 is out of range for argument x of shape \(3,\) \(rank 1\)",
                 id="vmap-in_axes-out-of-range"),
    pytest.param(lambda: sciax.vmap(lambda x: x, in_axes=-2)(X3), ValueError,
                 r"in_axes=-2 is out of range for argument x", id="vmap-in_axes-neg"),
    pytest.param(lambda: sciax.vmap(lambda x: x)(1.0), ValueError,
                 r"in_axes=0 is out of range for argument x of shape \(\) \(rank 0\)",
                 id="vmap-scalar-mapped"),
    pytest.param(lambda: sciax.vmap(lambda p: p["a"], in_axes=({"a": 1},))({"a": X3}),
                 ValueError, r"in_axes=1 is out of range for argument p\['a'\]",
                 id="vmap-in_axes-leaf-path"),
    pytest.param(lambda: sciax.vmap(mul, in_axes=(0,))(X3, X3), ValueError,
                 r"in_axes has 1 entries but the function was called with 2",
                 id="vmap-in_axes-length"),
    pytest.param(lambda: sciax.vmap(lambda t: t, in_axes=({"a": 0},))((X3,)),
                 ValueError, r"in_axes\[0\] specification must be a tree prefix.*"
                 r"\{'a': 0\}.*PyTreeDef\(\(\*,\)\)", id="vmap-in_axes-structure"),
    pytest.param(lambda: sciax.vmap(lambda x: x, in_axes=1.5)(X3), TypeError,
                 r"in_axes must be an int, None or a tuple, got 1\.5",
                 id="vmap-in_axes-float"),
    pytest.param(lambda: sciax.vmap(lambda x: x, in_axes=(1.5,))(X3), TypeError,
                 r"in_axes\[0\]=1\.5 is not valid", id="vmap-in_axes-entry-float"),
    pytest.param(lambda: sciax.vmap(lambda x: x * 2, out_axes=1)(X3), ValueError,
                 r"out_axes=1 is out of range for output 0, of shape \(\) per example "
                 r"\(rank 1 once mapped\)", id="vmap-out_axes-out-of-range"),
    pytest.param(lambda: sciax.vmap(lambda x: x * 2, out_axes=-3)(M23), ValueError,
                 r"out_axes=-3 is out of range for output 0, of shape \(3,\)",
                 id="vmap-out_axes-neg-out-of-range"),
    pytest.param(lambda: sciax.vmap(lambda x: (x, x), out_axes=(0, 0, 0))(X3),
                 ValueError,
                 r"out_axes specification must be a tree prefix.*\(0, 0, 0\)",
                 id="vmap-out_axes-structure"),
    pytest.param(lambda: sciax.vmap(lambda x: x, out_axes=None)(X3), ValueError,
                 r"out_axes=None for an output that is batched",
                 id="vmap-out_axes-none-batched"),
    pytest.param(lambda: sciax.vmap(mul)(X3, np.ones(4)), ValueError,
                 r"vmap got inconsistent sizes for array axes to be mapped: argument x "
                 r"of shape \(3,\) mapped at axis 0 has size 3, argument y of shape "
                 r"\(4,\) mapped at axis 0 has size 4", id="vmap-inconsistent-sizes"),
    pytest.param(lambda: sciax.vmap(lambda p: p["a"])({"a": X3, "b": M23}),
                 ValueError, r"argument p\['a'\] of shape \(3,\) mapped at axis 0 has "
                 r"size 3, argument p\['b'\] of shape \(2, 3\) mapped at axis 0 has "
                 r"size 2", id="vmap-inconsistent-sizes-pytree"),
    pytest.param(lambda: sciax.vmap(lambda x: x, axis_size=4)(X3), ValueError,
                 r"argument x of shape \(3,\) mapped at axis 0 has size 3; axis_size=4",
                 id="vmap-axis_size-disagrees"),
    pytest.param(lambda: sciax.vmap(lambda x: x, axis_size=-1), TypeError,
                 r"axis_size=-1 is not valid; expected a non-negative int",
                 id="vmap-axis_size-negative"),
    pytest.param(lambda: sciax.vmap(lambda x: x, axis_name=["i"]), TypeError,
                 r"vmap axis_name=\['i'\] is not valid; expected a hashable name",
                 id="vmap-axis_name-unhashable"),
    # --- pmap ------------------------------------------------------------------
    pytest.param(lambda: sciax.pmap(lambda x: x, in_axes=1)(np.ones(1)), ValueError,
                 r"pmap in_axes=1 is out of range for argument leaf 0 of shape \(1,\)",
                 id="pmap-in_axes-out-of-range"),
    pytest.param(lambda: sciax.pmap(lambda x: x * 2, out_axes=2)(np.ones(1)),
                 ValueError, r"pmap out_axes=2 is out of range for an output of shape "
                 r"\(\)", id="pmap-out_axes-out-of-range"),
    pytest.param(lambda: sciax.pmap(lambda x: x, in_axes=0.5)(np.ones(1)), TypeError,
                 r"pmap in_axes\[0\]=0\.5 is not valid", id="pmap-in_axes-float"),
    pytest.param(lambda: sciax.pmap(lambda x, y: x * y)(np.ones(1), np.ones(2)),
                 ValueError,
                 r"pmap got inconsistent sizes for array axes to be mapped: "
                 r"argument x of shape \(1,\) mapped at axis 0 has size 1, argument y "
                 r"of shape \(2,\)", id="pmap-inconsistent-sizes"),
    pytest.param(lambda: sciax.pmap(lambda x: x, axis_name={"i": 1}), TypeError,
                 r"pmap axis_name=\{'i': 1\} is not valid", id="pmap-axis_name-dict"),
    pytest.param(lambda: sciax.pmap(lambda v: lax.psum(v, "j"), axis_name="i")(
                 np.ones(1)), NameError, r"unbound axis name: 'j'",
                 id="pmap-psum-wrong-name"),
    pytest.param(lambda: sciax.pmap(lambda x: x, static_broadcasted_argnums=3),
                 ValueError, r"static_broadcasted_argnums=3 is out of range: <lambda> "
                 r"takes 1 positional", id="pmap-static-out-of-range"),
    pytest.param(lambda: sciax.pmap(lambda *a: a[0], static_broadcasted_argnums=2)(
                 np.ones(1)), ValueError, r"static_broadcasted_argnums=\(2,\) is out "
                 r"of range for a call with 1", id="pmap-static-out-of-range-at-call"),
    # --- jit ---------------------------------------------------------------------
    pytest.param(lambda: sciax.jit(scale, static_argnums=2), ValueError,
                 r"static_argnums=2 is out of range: scale takes 2 positional",
                 id="jit-static_argnums-out-of-range"),
    pytest.param(lambda: sciax.jit(scale, static_argnums=-3), ValueError,
                 r"static_argnums=-3 is out of range", id="jit-static_argnums-neg"),
    pytest.param(lambda: sciax.jit(scale, static_argnums=1.0), TypeError,
                 r"static_argnums=1\.0 is not valid; expected an int",
                 id="jit-static_argnums-float"),
    pytest.param(lambda: sciax.jit(scale, static_argnames="m"), ValueError,
                 r"static_argnames='m': 'm' names no parameter of scale, whose "
                 r"parameters are \['n', 'x'\]", id="jit-static_argnames-unknown"),
    pytest.param(lambda: sciax.jit(scale, static_argnames=1), TypeError,
                 r"static_argnames=1 is not valid; expected a str",
                 id="jit-static_argnames-int"),
    pytest.param(lambda: sciax.jit(scale, static_argnums=1)(X3, [2]), TypeError,
                 r"static argument at position 1 of type list is not hashable "
                 r"\(value \[2\]\)", id="jit-static-unhashable"),
    pytest.param(lambda: sciax.jit(scale, static_argnames="n")(X3, n={"a": 1}),
                 TypeError, r"static argument 'n' of type dict is not hashable",
                 id="jit-static-unhashable-keyword"),
    pytest.param(lambda: sciax.make_jaxpr(scale, static_argnums=5), ValueError,
                 r"static_argnums=5 is out of range", id="make_jaxpr-static"),
    pytest.param(lambda: sciax.checkpoint(scale, static_argnums=2), ValueError,
                 r"checkpoint static_argnums=2 is out of range: scale takes 2",
                 id="checkpoint-static-out-of-range"),
    pytest.param(lambda: sciax.checkpoint(scale, static_argnums="n"), TypeError,
                 r"checkpoint static_argnums='n' is not valid",
                 id="checkpoint-static-str"),
    # --- collectives with an unbound axis name ----------------------------------------
    pytest.param(lambda: lax.psum(X3, "i"), NameError, r"unbound axis name: 'i'",
                 id="psum-outside-any-map"),
    pytest.param(lambda: sciax.vmap(lambda v: lax.psum(v, "j"), axis_name="i")(X3),
                 NameError, r"unbound axis name: 'j'", id="psum-wrong-name"),
    pytest.param(lambda: sciax.vmap(lambda v: lax.axis_index("j"), axis_name="i")(X3),
                 NameError, r"unbound axis name: 'j'", id="axis_index-wrong-name"),
    pytest.param(lambda: sciax.jit(lambda v: lax.pmean(v, "k"))(X3), NameError,
                 r"unbound axis name: 'k'", id="pmean-under-jit"),
    # --- custom_jvp / custom_vjp ------------------------------------------------------
    pytest.param(lambda: _custom_jvp(None)(1.0), AttributeError,
                 r"no JVP rule defined for custom_jvp function",
                 id="custom_jvp-no-rule"),
    pytest.param(lambda: sciax.jvp(_custom_jvp(lambda p, t: p[0]), (X3,), (X3,)),
                 TypeError, r"must return a pair \(primal_out, tangent_out\), got "
                 r"\w+", id="custom_jvp-rule-not-a-pair"),
    pytest.param(lambda: sciax.jvp(_custom_jvp(lambda p, t: (p[0], t[0][:1])), (X3,),
                                   (X3,)), ValueError,
                 r"tangent output of shape \(1,\) for a primal output of shape \(3,\)",
                 id="custom_jvp-tangent-shape"),
    pytest.param(lambda: _custom_jvp(None, nondiff=(3,)), ValueError,
                 r"custom_jvp nondiff_argnums=\(3,\) is out of range",
                 id="custom_jvp-nondiff-out-of-range"),
    pytest.param(lambda: _custom_jvp(None, nondiff=(0.5,)), TypeError,
                 r"nondiff_argnums=\(0\.5,\) is not valid",
                 id="custom_jvp-nondiff-float"),
    pytest.param(lambda: sciax.grad(lambda x: snp.sum(_custom_vjp(
                 lambda x: x, lambda r, g: (g,))(x)))(X3), TypeError,
                 r"fwd of <lambda> must return \(output, residuals\), got \w+",
                 id="custom_vjp-fwd-not-a-pair"),
    pytest.param(lambda: sciax.grad(lambda x: snp.sum(_custom_vjp(
                 lambda x: (x, None), lambda r, g: g)(x)))(X3), TypeError,
                 r"bwd of <lambda> must return a tuple with one cotangent per "
                 r"differentiable argument \(1\)", id="custom_vjp-bwd-not-a-tuple"),
    pytest.param(lambda: sciax.grad(lambda x: snp.sum(_custom_vjp(
                 lambda x: (x, None), lambda r, g: (g[:1],))(x)))(X3), ValueError,
                 r"the cotangent for differentiable argument 0 has shape \(1,\), "
                 r"expected the argument's shape \(3,\)", id="custom_vjp-bwd-shape"),
    pytest.param(lambda: sciax.custom_vjp(lambda x: x, nondiff_argnums=(1,)),
                 ValueError, r"custom_vjp nondiff_argnums=\(1,\) is out of range",
                 id="custom_vjp-nondiff-out-of-range"),
    # --- control flow: the branch or carry leaf, by key path --------------------------
    pytest.param(lambda: lax.cond(True, lambda x: {"a": x, "b": x},
                                  lambda x: {"a": x, "b": x[:2]}, X3), TypeError,
                 r"cond: the branches must return the same types.*false_fun "
                 r"output\['b'\] is f64\[2\] but true_fun returns f64\[3\]",
                 id="cond-leaf-shape"),
    pytest.param(lambda: lax.cond(True, lambda x: x, lambda x: x.astype(np.float32),
                                  X3), TypeError,
                 r"false_fun output is f32\[3\] but true_fun returns f64\[3\]",
                 id="cond-dtype"),
    pytest.param(lambda: lax.cond(True, lambda x: (x, x), lambda x: x, X3), TypeError,
                 r"false_fun and true_fun return different tree structures: "
                 r"PyTreeDef\(\*\) and PyTreeDef\(\(\*, \*\)\)", id="cond-structure"),
    pytest.param(lambda: lax.switch(1, [lambda x: x, lambda x: x,
                                        lambda x: x.astype(np.int32)], 1.0), TypeError,
                 r"branch 0 output is f64\[\] \(weakly typed\) but branch 2 returns "
                 r"i32\[\]", id="switch-branch"),
    pytest.param(lambda: lax.while_loop(lambda c: c[0] < 3,
                                        lambda c: (c[0] + 1, c[1][:2]), (0, X3)),
                 TypeError, r"while_loop: body_fun must keep the carry's types.*"
                 r"init_val\[1\] is f64\[3\] but body_fun returns f64\[2\]",
                 id="while-carry-shape"),
    pytest.param(lambda: lax.while_loop(lambda c: c["n"] < 3, lambda c: {
                 "n": c["n"] + 1, "s": c["s"] + 0.5}, {"n": 0, "s": 0}), TypeError,
                 r"init_val\['s'\] is i64\[\] \(weakly typed\) but body_fun returns "
                 r"f64\[\] \(the initial value is weakly typed", id="while-carry-weak"),
    pytest.param(lambda: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1,),
                                        (0, X3)), TypeError,
                 r"body_fun must return the carry's structure PyTreeDef\(\(\*, \*\)\), "
                 r"got PyTreeDef\(\(\*,\)\)", id="while-carry-structure"),
    pytest.param(lambda: lax.while_loop(lambda c: c, lambda c: c + 1, 0), TypeError,
                 r"cond_fun must return a boolean scalar, got \(i64\[\]\)",
                 id="while-cond-not-bool"),
    pytest.param(lambda: lax.scan(lambda c, x: ({"a": c["a"].astype(np.float32)}, x),
                                  {"a": X3}, X3), TypeError,
                 r"scan: f must keep the carry's types.*init\['a'\] is f64\[3\] but f "
                 r"returns f32\[3\]", id="scan-carry-dtype"),
    pytest.param(lambda: lax.scan(lambda c, x: c, 0.0, X3), TypeError,
                 r"scan: f must return a pair \(carry, y\)", id="scan-not-a-pair"),
    pytest.param(lambda: lax.scan(lambda c, x: (c, x), 0.0, (X3, np.ones(4))),
                 ValueError, r"scan got inconsistent lengths.*\[3, 4\]",
                 id="scan-lengths"),
    pytest.param(lambda: lax.fori_loop(0, 3, lambda i, c: (c[0], c[1][:2]), (0.0, X3)),
                 TypeError, r"fori_loop: body_fun must keep the carry's types.*"
                 r"init_val\[1\] is f64\[3\] but body_fun returns f64\[2\]",
                 id="fori-static-bounds"),
    pytest.param(lambda: sciax.jit(lambda n: lax.fori_loop(
                 0, n, lambda i, c: {"v": c["v"][:2]}, {"v": X3}))(3), TypeError,
                 r"fori_loop: .*init_val\['v'\] is f64\[3\] but body_fun returns "
                 r"f64\[2\]", id="fori-traced-bounds"),
    # --- tree -----------------------------------------------------------------------
    pytest.param(lambda: sciax.tree.map(lambda a, b: a + b, {"a": 1, "b": 2},
                                        {"a": 1, "c": 2}), ValueError,
                 r"the first tree is PyTreeDef\(\{'a': \*, 'b': \*\}\) but tree 2 is "
                 r"PyTreeDef\(\{'a': \*, 'c': \*\}\)", id="tree.map-dict-keys"),
    pytest.param(lambda: sciax.tree.map(lambda a, b, c: a, (1, 2), (1, 2), [1, 2]),
                 ValueError, r"the first tree is PyTreeDef\(\(\*, \*\)\) but tree 3 is "
                 r"PyTreeDef\(\[\*, \*\]\)", id="tree.map-list-vs-tuple"),
    *_argnums_rows(),
]


@pytest.mark.parametrize("call, exc, pattern", CASES)
def test_bad_argument_raises_naming_it(call, exc, pattern):
    with pytest.raises(exc) as info:
        call()
    assert re.search(pattern, str(info.value)), str(info.value)


# --- the valid neighbours of the rows above still work ------------------------------

def test_negative_axes_are_normalised():
    x = np.arange(6.0).reshape(2, 3)
    out = sciax.vmap(lambda r: r * 2.0, in_axes=-1, out_axes=-1)(x)
    np.testing.assert_array_equal(np.asarray(out), x * 2.0)
    out = sciax.vmap(lambda r: r * 2.0, in_axes=-1, out_axes=-2)(x)
    np.testing.assert_array_equal(np.asarray(out), (x * 2.0).T)
    g = sciax.grad(lambda a, b: a * b, argnums=-1)(2.0, 5.0)
    assert float(g) == 2.0


def test_valid_static_and_nondiff_arguments_still_accepted():
    assert float(sciax.jit(scale, static_argnums=-1)(2.0, 3)) == 6.0
    g = sciax.grad(lambda x: sciax.checkpoint(scale, static_argnums=-1)(x, 3))(2.0)
    assert float(g) == 3.0
    assert float(sciax.jit(scale, static_argnames="n")(2.0, n=3)) == 6.0
    # a parameter named only through **kwargs cannot be checked, so it is allowed
    f = sciax.jit(lambda x, **kw: x * kw["n"], static_argnames="n")
    assert float(f(2.0, n=3)) == 6.0
    h = sciax.custom_jvp(lambda x, n: x * n, nondiff_argnums=(-1,))
    h.defjvp(lambda n, p, t: (p[0] * n, t[0] * n))
    assert float(sciax.grad(lambda x: h(x, 3.0))(1.0)) == 3.0
    # a weakly typed carry that only gains strength keeps working (as in JAX)
    c, _ = lax.scan(lambda c, x: (c + x, x), 0.0, X3)
    assert float(c) == 3.0
