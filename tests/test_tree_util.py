"""sciax.tree_util: jax.tree_util's names over sciax's pytree registry, with key
paths named as JAX names them."""

from __future__ import annotations

import collections
import dataclasses

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import tree_util as tu


def test_flatten_unflatten_map_leaves_structure():
    tree = {"b": (1, [2, None]), "a": 3}
    leaves, treedef = tu.tree_flatten(tree)
    assert leaves == [3, 1, 2]  # dict keys sorted, None is no leaf (as JAX)
    assert tu.tree_unflatten(treedef, [30, 10, 20]) == {"a": 30, "b": (10, [20, None])}
    assert tu.tree_leaves(tree) == leaves
    assert tu.tree_structure(tree) == treedef
    assert tu.tree_map(lambda x, y: x * y, tree, tree) == {"a": 9, "b": (1, [4, None])}
    assert tu.tree_map(lambda x: x, [[1], 2], is_leaf=lambda x: x == [1]) == [[1], 2]
    assert tu.tree_reduce(lambda a, b: a + b, tree) == 6
    assert tu.tree_reduce(lambda a, b: a + b, [], 5) == 5
    assert tu.tree_all([True, {"x": 1}]) and not tu.tree_all([True, 0])
    assert tu.treedef_is_leaf(tu.tree_structure(1.0))


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


tu.register_pytree_node(Point, lambda p: ((p.x, p.y), "meta"),
                        lambda aux, ch: Point(*ch))


@tu.register_pytree_node_class
class Scaled:
    def __init__(self, v, scale):
        self.v, self.scale = v, scale

    def tree_flatten(self):
        return (self.v,), self.scale

    @classmethod
    def tree_unflatten(cls, scale, children):
        return cls(children[0], scale)


def test_registered_classes_pass_through_jit_grad_and_vmap():
    p = sciax.jit(lambda p: Point(p.y, p.x * 2.0))(Point(1.0, 3.0))
    assert isinstance(p, Point) and (float(p.x), float(p.y)) == (3.0, 2.0)
    g = sciax.grad(lambda s: s.v ** 2 * s.scale)(Scaled(3.0, 2))
    assert isinstance(g, Scaled) and float(g.v) == 12.0 and g.scale == 2
    out = sciax.vmap(lambda s: s.v * s.scale)(Scaled(snp.arange(3.0), 4))
    np.testing.assert_array_equal(np.asarray(out), [0.0, 4.0, 8.0])
    # sciax.tree sees the same registry
    assert sciax.tree.leaves([Point(1, 2)]) == [1, 2]


Pair = collections.namedtuple("Pair", "first second")


@dataclasses.dataclass
class DC:
    w: float
    b: float


tu.register_dataclass(DC)


def test_key_paths_name_dict_sequence_attr_and_flat_index_keys():
    tree = {"d": [1, (2, Pair(3, 4))], "p": Point(5, 6), "c": DC(7.0, 8.0)}
    pairs, treedef = tu.tree_flatten_with_path(tree)
    names = [tu.keystr(p) for p, _ in pairs]
    assert names == ["['c'].w", "['c'].b", "['d'][0]", "['d'][1][0]",
                     "['d'][1][1].first", "['d'][1][1].second",
                     "['p'][<flat index 0>]", "['p'][<flat index 1>]"]
    assert [v for _, v in pairs] == tu.tree_leaves(tree)
    assert treedef == tu.tree_structure(tree)
    k = pairs[2][0]
    assert isinstance(k[0], tu.DictKey) and k[0].key == "d"
    assert isinstance(k[1], tu.SequenceKey) and k[1].idx == 0
    assert isinstance(pairs[4][0][-1], tu.GetAttrKey)
    assert pairs[4][0][-1].name == "first"
    assert tu.tree_leaves_with_path([9]) == [((tu.SequenceKey(0),), 9)]
    out = tu.tree_map_with_path(lambda p, x, y: (tu.keystr(p), x + y),
                                {"a": 1, "b": [2]}, {"a": 10, "b": [20]})
    assert out == {"a": ("['a']", 11), "b": [("['b'][0]", 22)]}


def test_register_with_keys_and_is_leaf_on_paths():
    class KP:
        def __init__(self, a, b):
            self.a, self.b = a, b

    tu.register_pytree_with_keys(
        KP, lambda o: (((tu.GetAttrKey("a"), o.a), (tu.GetAttrKey("b"), o.b)), None),
        lambda aux, ch: KP(*ch))
    pairs, _ = tu.tree_flatten_with_path((KP(1, [2, 3]),),
                                         is_leaf=lambda x: isinstance(x, list))
    assert [(tu.keystr(p), v) for p, v in pairs] == [("[0].a", 1), ("[0].b", [2, 3])]
    assert tu.tree_leaves(KP(1, 2)) == [1, 2]


def test_partial_is_a_pytree_through_jit():
    f = tu.Partial(snp.multiply, snp.array([1.0, 2.0]))
    assert len(tu.tree_leaves(f)) == 1
    out = sciax.jit(lambda g, x: g(x))(f, 3.0)
    np.testing.assert_array_equal(np.asarray(out), [3.0, 6.0])
    nested = tu.Partial(f, 2.0)
    assert nested.func is snp.multiply and len(nested.args) == 2


def test_register_pytree_node_rejects_non_classes():
    with pytest.raises(TypeError, match="expects a class"):
        tu.register_pytree_node(object(), lambda x: ((), None), lambda a, c: None)
