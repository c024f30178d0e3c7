"""sciax.tree: flatten/unflatten/map/leaves/structure and registering node types."""

from __future__ import annotations

import collections
import dataclasses

import numpy as np
import pytest

import sciax
from sciax import lax


class Counter:
    def __init__(self, f):
        self.__name__ = f.__name__
        self.f = f
        self.n = 0

    def __call__(self, *args, **kwargs):
        self.n += 1
        return self.f(*args, **kwargs)


Point = collections.namedtuple("Point", "x y")

TREES = [
    1.0,
    (1, 2),
    [1, (2, 3), [4]],
    {"b": 1, "a": (2, [3])},
    Point(1, (2, 3)),
    (None, 1, [None, 2]),
    [],
    {"x": {}, "y": ()},
]


@pytest.mark.parametrize("tree", TREES, ids=repr)
def test_flatten_unflatten_round_trip(tree):
    leaves, treedef = sciax.tree.flatten(tree)
    assert sciax.tree.unflatten(treedef, leaves) == tree
    assert sciax.tree.leaves(tree) == leaves
    assert sciax.tree.structure(tree) == treedef
    assert treedef.num_leaves == len(leaves)


def test_leaf_order_and_none():
    # Dicts flatten in sorted key order, so equal dicts give equal treedefs.
    assert sciax.tree.leaves({"b": 1, "a": 2}) == [2, 1]
    assert sciax.tree.structure({"b": 1, "a": 2}) == sciax.tree.structure({"a": 0, "b": 0})
    # None is an empty node, not a leaf.
    assert sciax.tree.leaves([None, (), {}]) == []
    assert sciax.tree.leaves([1, {"x": 2}, None]) == [1, 2]


def test_structure_distinguishes_containers():
    s = sciax.tree.structure
    assert s((1, 2)) != s([1, 2])
    assert s((1, 2)) != s(Point(1, 2))
    assert s({"a": 1}) != s({"b": 1})
    assert s(Point(1, 2)) == s(Point(5, 6))


def test_map_over_several_trees():
    out = sciax.tree.map(lambda x, y: x + y, {"a": 1, "b": (2, 3)}, {"a": 10, "b": (20, 30)})
    assert out == {"a": 11, "b": (22, 33)}
    assert sciax.tree.map(lambda x: x * 2, Point(1, [2])) == Point(2, [4])


def test_map_with_is_leaf():
    tree = {"p": (1, 2), "q": (3, 4)}
    out = sciax.tree.map(lambda t: sum(t), tree, is_leaf=lambda t: isinstance(t, tuple))
    assert out == {"p": 3, "q": 7}


def test_mismatched_structures_are_errors():
    with pytest.raises(ValueError, match="mismatch|arity"):
        sciax.tree.map(lambda a, b: a, (1, 2), (1,))
    with pytest.raises(ValueError, match="leaves"):
        sciax.tree.unflatten(sciax.tree.structure((1, 2)), [1])


def test_register_node():
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

    sciax.tree.register_node(Pair, lambda p: ((p.a, p.b), "meta"),
                             lambda aux, ch: Pair(*ch))
    leaves, treedef = sciax.tree.flatten(Pair(1, (2, 3)))
    assert leaves == [1, 2, 3]
    back = sciax.tree.unflatten(treedef, [4, 5, 6])
    assert isinstance(back, Pair) and back.a == 4 and back.b == (5, 6)
    doubled = sciax.tree.map(lambda v: 2 * v, Pair(1, 2))
    assert (doubled.a, doubled.b) == (2, 4)


@sciax.tree.register_dataclass
@dataclasses.dataclass
class Params:
    w: object
    b: object
    name: str = dataclasses.field(default="layer", metadata={"static": True})


@sciax.tree.register_dataclass(meta_fields=("n",))
@dataclasses.dataclass(frozen=True)
class Scaled:
    x: object
    n: int


def test_register_dataclass_children_and_static_fields():
    p = Params(1.0, 2.0)
    leaves, treedef = sciax.tree.flatten(p)
    assert leaves == [1.0, 2.0]
    assert sciax.tree.unflatten(treedef, [3.0, 4.0]) == Params(3.0, 4.0)
    # Static fields are part of the structure, not leaves.
    assert sciax.tree.structure(Params(1, 2, "a")) != sciax.tree.structure(Params(1, 2, "b"))
    assert sciax.tree.leaves(Scaled(1.0, 3)) == [1.0]
    assert sciax.tree.map(lambda v: v + 1, Scaled(1.0, 3)) == Scaled(2.0, 3)


def test_register_dataclass_rejects_non_dataclasses():
    with pytest.raises(TypeError, match="dataclass"):
        sciax.tree.register_dataclass(int)


def test_jit_with_a_dataclass_argument_and_result():
    def f(p, x):
        return Params(lax.mul(p.w, x), lax.add(p.b, x), p.name)

    counted = Counter(f)
    jf = sciax.jit(counted)
    x = sciax.device_put(np.array([1.0, 2.0]))
    p = Params(sciax.device_put(np.array([2.0, 3.0])), sciax.device_put(np.array([1.0, 1.0])))
    out = jf(p, x)
    assert isinstance(out, Params) and out.name == "layer"
    assert np.asarray(out.w).tolist() == [2.0, 6.0]
    assert np.asarray(out.b).tolist() == [2.0, 3.0]
    jf(Params(x, x), x)
    assert counted.n == 1
    # A new static field value is a new tree structure: one more trace.
    out = jf(Params(x, x, "other"), x)
    assert out.name == "other" and counted.n == 2


def test_jit_static_dataclass_field_is_a_python_value():
    jf = sciax.jit(lambda s: lax.mul(s.x, float(s.n)))
    assert float(jf(Scaled(sciax.device_put(np.array(2.0)), 3))) == 6.0
