"""``sciax.tree_util``: JAX's ``jax.tree_util`` names over :mod:`sciax.tree`.

Scripts written for JAX (``from jax.tree_util import tree_map``) run with
``sciax`` in its place.  Everything here works on sciax's own pytree registry,
so a class registered with :func:`register_pytree_node` is a node for
``jit``, ``grad``, ``vmap`` and :mod:`sciax.tree` alike.

Key paths (:func:`tree_flatten_with_path`, :func:`tree_map_with_path`,
:func:`keystr`) name each leaf by the keys that lead to it: :class:`DictKey`
for dict entries, :class:`SequenceKey` for list/tuple positions,
:class:`GetAttrKey` for namedtuple and dataclass fields and
:class:`FlattenedIndexKey` for children of nodes registered without keys.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable
from typing import Any

from sciax._src.backend.pytree import PyTreeDef, _pytree, registry
from sciax._src import tree_util as _tree

DictKey = _pytree.DictKey
SequenceKey = _pytree.SequenceKey
GetAttrKey = _pytree.GetAttrKey
FlattenedIndexKey = _pytree.FlattenedIndexKey

__all__ = ["PyTreeDef", "DictKey", "SequenceKey", "GetAttrKey", "FlattenedIndexKey",
           "Partial", "register_pytree_node", "register_pytree_node_class",
           "register_pytree_with_keys", "register_pytree_with_keys_class",
           "register_dataclass", "tree_map", "tree_flatten", "tree_unflatten",
           "tree_leaves", "tree_structure", "tree_reduce", "tree_all",
           "tree_flatten_with_path", "tree_leaves_with_path", "tree_map_with_path",
           "keystr", "treedef_is_leaf", "all_leaves"]

_MISSING = object()

tree_flatten = _tree.flatten
tree_unflatten = _tree.unflatten
tree_leaves = _tree.leaves
tree_structure = _tree.structure
tree_map = _tree.map
register_dataclass = _tree.register_dataclass
all_leaves = _tree.all_leaves


def register_pytree_node(nodetype: type, flatten_func: Callable[[Any], Any],
                         unflatten_func: Callable[[Any, Any], Any],
                         flatten_with_keys_func: Callable[[Any], Any] | None = None
                         ) -> None:
    """Make instances of ``nodetype`` pytree nodes (as ``jax.tree_util``).

    Parameters
    ----------
    nodetype : type
        The class to register.
    flatten_func : callable
        ``flatten_func(obj) -> (children, aux_data)``; ``aux_data`` must be
        hashable (it is compared on ``jit`` cache lookups).
    unflatten_func : callable
        ``unflatten_func(aux_data, children) -> obj``.
    flatten_with_keys_func : callable, optional
        ``obj -> (((key, child), ...), aux_data)``, giving the keys that
        :func:`tree_flatten_with_path` reports; without it children are named
        by :class:`FlattenedIndexKey`.

    Examples
    --------
    >>> from sciax.tree_util import register_pytree_node, tree_leaves
    >>> class Box:
    ...     def __init__(self, x, y): self.x, self.y = x, y
    >>> register_pytree_node(Box, lambda b: ((b.x, b.y), None),
    ...                      lambda aux, ch: Box(*ch))
    >>> tree_leaves([Box(1, 2), 3])
    [1, 2, 3]
    """
    if not isinstance(nodetype, type):
        raise TypeError(f"register_pytree_node expects a class, got {nodetype!r}")
    if flatten_with_keys_func is None:
        registry.register_node(nodetype, flatten_func, unflatten_func)
    else:
        registry.register_node(nodetype, flatten_func, unflatten_func,
                               flatten_with_keys_func)


def register_pytree_with_keys(nodetype: type,
                              flatten_with_keys: Callable[[Any], Any],
                              unflatten_func: Callable[[Any, Any], Any],
                              flatten_func: Callable[[Any], Any] | None = None
                              ) -> None:
    """Register ``nodetype`` with a flatten function that names its children.

    ``flatten_with_keys(obj) -> (((key, child), ...), aux_data)``.

    Examples
    --------
    >>> from sciax.tree_util import (GetAttrKey, register_pytree_with_keys,
    ...                              tree_flatten_with_path, keystr)
    >>> class Pt:
    ...     def __init__(self, x, y): self.x, self.y = x, y
    >>> register_pytree_with_keys(
    ...     Pt, lambda p: (((GetAttrKey("x"), p.x), (GetAttrKey("y"), p.y)), None),
    ...     lambda aux, ch: Pt(*ch))
    >>> [keystr(k) for k, _ in tree_flatten_with_path(Pt(1, 2))[0]]
    ['.x', '.y']
    """
    if flatten_func is None:
        def flatten_func(obj: Any) -> tuple[list[Any], Any]:
            pairs, aux = flatten_with_keys(obj)
            return [c for _, c in pairs], aux
    register_pytree_node(nodetype, flatten_func, unflatten_func, flatten_with_keys)


def register_pytree_node_class(cls: type) -> type:
    """Class decorator: ``cls.tree_flatten()`` and ``cls.tree_unflatten(aux,
    children)`` (a classmethod) make its instances pytree nodes.

    Examples
    --------
    >>> from sciax.tree_util import register_pytree_node_class
    >>> @register_pytree_node_class
    ... class Scaled:
    ...     def __init__(self, v, scale): self.v, self.scale = v, scale
    ...     def tree_flatten(self): return (self.v,), self.scale
    ...     @classmethod
    ...     def tree_unflatten(cls, scale, children): return cls(children[0], scale)
    >>> out = sciax.jit(lambda s: Scaled(s.v * s.scale, s.scale))(Scaled(2.0, 3))
    >>> float(out.v), out.scale
    (6.0, 3)
    """
    register_pytree_node(cls, operator.methodcaller("tree_flatten"),
                         cls.tree_unflatten)
    return cls


def register_pytree_with_keys_class(cls: type) -> type:
    """Class decorator: as :func:`register_pytree_node_class`, with
    ``cls.tree_flatten_with_keys()`` naming the children.

    Examples
    --------
    >>> from sciax.tree_util import (GetAttrKey, register_pytree_with_keys_class,
    ...                              tree_flatten_with_path, keystr)
    >>> @register_pytree_with_keys_class
    ... class W:
    ...     def __init__(self, a): self.a = a
    ...     def tree_flatten_with_keys(self): return ((GetAttrKey("a"), self.a),), None
    ...     @classmethod
    ...     def tree_unflatten(cls, aux, ch): return cls(*ch)
    >>> keystr(tree_flatten_with_path(W(1.0))[0][0][0])
    '.a'
    """
    flatten = getattr(cls, "tree_flatten", None)
    register_pytree_with_keys(
        cls, operator.methodcaller("tree_flatten_with_keys"), cls.tree_unflatten,
        operator.methodcaller("tree_flatten") if flatten is not None else None)
    return cls


def tree_reduce(function: Callable[[Any, Any], Any], tree: Any,
                initializer: Any = _MISSING,
                is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """``functools.reduce(function, tree_leaves(tree), initializer)``.

    Examples
    --------
    >>> import operator
    >>> sciax.tree_util.tree_reduce(operator.add, {"a": 1, "b": (2, 3)})
    6
    """
    leaves = _tree.leaves(tree, is_leaf)
    if initializer is _MISSING:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def tree_all(tree: Any, *, is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Whether every leaf of ``tree`` is truthy.

    Examples
    --------
    >>> sciax.tree_util.tree_all([True, (1, 2.0)])
    True
    """
    return all(_tree.leaves(tree, is_leaf))


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """Whether ``treedef`` is the structure of a single leaf.

    Examples
    --------
    >>> from sciax.tree_util import tree_structure, treedef_is_leaf
    >>> treedef_is_leaf(tree_structure(1.0)), treedef_is_leaf(tree_structure((1.0,)))
    (True, False)
    """
    return treedef.num_nodes == 1 and treedef.num_leaves == 1


def _path_leaf(is_leaf: Callable[[Any], bool] | None):
    return None if is_leaf is None else (lambda _key, x: is_leaf(x))


def tree_flatten_with_path(tree: Any, is_leaf: Callable[[Any], bool] | None = None
                           ) -> tuple[list[tuple[tuple[Any, ...], Any]], PyTreeDef]:
    """The leaves of ``tree``, each with its key path, and the treedef.

    Examples
    --------
    >>> from sciax.tree_util import tree_flatten_with_path, keystr
    >>> pairs, _ = tree_flatten_with_path({"w": [1.0, 2.0], "b": 3.0})
    >>> [(keystr(p), v) for p, v in pairs]
    [("['b']", 3.0), ("['w'][0]", 1.0), ("['w'][1]", 2.0)]
    """
    return registry.flatten_with_path(tree, _path_leaf(is_leaf))


def tree_leaves_with_path(tree: Any, is_leaf: Callable[[Any], bool] | None = None
                          ) -> list[tuple[tuple[Any, ...], Any]]:
    """``(key_path, leaf)`` pairs of ``tree`` (see :func:`tree_flatten_with_path`).

    Examples
    --------
    >>> from sciax.tree_util import tree_leaves_with_path
    >>> tree_leaves_with_path((7,))
    [((SequenceKey(idx=0),), 7)]
    """
    return registry.flatten_with_path(tree, _path_leaf(is_leaf))[0]


def tree_map_with_path(f: Callable[..., Any], tree: Any, *rest: Any,
                       is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """``f(key_path, leaf, *others)`` over ``tree`` (and trees of its structure
    in ``rest``).

    Examples
    --------
    >>> from sciax.tree_util import tree_map_with_path, keystr
    >>> tree_map_with_path(lambda p, x: f"{keystr(p)}={x}", {"a": 1, "b": [2]})
    {'a': "['a']=1", 'b': ["['b'][0]=2"]}
    """
    pairs, treedef = registry.flatten_with_path(tree, _path_leaf(is_leaf))
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten([f(p, x, *xs) for (p, x), *xs
                              in zip(pairs, *others)])


def keystr(keys: Iterable[Any]) -> str:
    """A key path as a string: ``['a'][0].field``.

    Examples
    --------
    >>> from sciax.tree_util import DictKey, SequenceKey, keystr
    >>> keystr((DictKey("a"), SequenceKey(0)))
    "['a'][0]"
    """
    return "".join(str(k) for k in keys)


class Partial(functools.partial):
    """A ``functools.partial`` that is a pytree: its bound arguments are
    children, the function is static, so it can be passed into ``jit``.

    Examples
    --------
    >>> from sciax.tree_util import Partial
    >>> add = Partial(snp.add, snp.ones(2))
    >>> sciax.jit(lambda f, x: f(x))(add, 1.0)
    Array([2., 2.], dtype=float64)
    """

    def __new__(cls, func: Callable[..., Any], *args: Any, **kw: Any) -> Partial:
        # a Partial of a Partial flattens into one, so the function stays static
        if isinstance(func, functools.partial):
            args, kw = func.args + args, {**func.keywords, **kw}
            func = func.func
        return super().__new__(cls, func, *args, **kw)


register_pytree_node(
    Partial, lambda p: ((p.args, p.keywords), p.func),
    lambda func, ch: Partial(func, *ch[0], **ch[1]))
