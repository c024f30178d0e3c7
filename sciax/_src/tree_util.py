"""Pytrees: nested containers of arrays, flattened by jaxlib's C++ registry.

Tuples, lists, dicts, namedtuples and None are nodes; anything else is a leaf
unless registered with :func:`register_node` or :func:`register_dataclass`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from sciax._src.backend.pytree import PyTreeDef, registry, treedef_tuple

__all__ = ["PyTreeDef", "flatten", "unflatten", "leaves", "structure", "map",
           "register_node", "register_dataclass", "treedef_tuple", "all_leaves"]


def flatten(tree: Any, is_leaf: Callable[[Any], bool] | None = None
            ) -> tuple[list[Any], PyTreeDef]:
    """Flatten ``tree`` into its leaves and a treedef.

    Examples
    --------
    >>> leaves, treedef = sciax.tree.flatten({"a": 1, "b": (2, 3)})
    >>> leaves
    [1, 2, 3]
    >>> sciax.tree.unflatten(treedef, [4, 5, 6])
    {'a': 4, 'b': (5, 6)}
    """
    return registry.flatten(tree, is_leaf)


def unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Build a tree of structure ``treedef`` from ``leaves`` (see :func:`flatten`)."""
    return treedef.unflatten(leaves)


def leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list[Any]:
    """The leaves of ``tree`` in order.

    Examples
    --------
    >>> sciax.tree.leaves([1, {"x": 2}, None])
    [1, 2]
    """
    return registry.flatten(tree, is_leaf)[0]


def structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    """The treedef of ``tree``.

    Examples
    --------
    >>> sciax.tree.structure((1, [2, 3]))
    PyTreeDef((*, [*, *]))
    """
    return registry.flatten(tree, is_leaf)[1]


def map(f: Callable[..., Any], tree: Any, *rest: Any,
        is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Apply ``f`` leafwise over ``tree`` (and trees of the same structure in ``rest``).

    Examples
    --------
    >>> sciax.tree.map(lambda x, y: x + y, (1, [2]), (10, [20]))
    (11, [22])
    """
    leaves_, treedef = registry.flatten(tree, is_leaf)
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten([f(*xs) for xs in zip(leaves_, *others)])


def all_leaves(iterable: Iterable[Any]) -> bool:
    return all(registry.flatten(x)[1].num_nodes == 1 for x in iterable)


def register_node(cls: type, flatten_fn: Callable[[Any], tuple[Iterable[Any], Any]],
                  unflatten_fn: Callable[[Any, Iterable[Any]], Any]) -> type:
    """Make instances of ``cls`` pytree nodes.

    ``flatten_fn(obj) -> (children, aux_data)``; ``unflatten_fn(aux_data,
    children) -> obj``.  ``aux_data`` must be hashable.

    Examples
    --------
    >>> class Pair:
    ...     def __init__(self, a, b): self.a, self.b = a, b
    >>> _ = sciax.tree.register_node(
    ...     Pair, lambda p: ((p.a, p.b), None), lambda _, ch: Pair(*ch))
    >>> sciax.tree.leaves(Pair(1, 2))
    [1, 2]
    """
    registry.register_node(cls, flatten_fn, unflatten_fn)
    return cls


def register_dataclass(cls: type | None = None, *, meta_fields: Iterable[str] = ()
                       ) -> Any:
    """Make a dataclass a pytree whose fields are children.

    Fields named in ``meta_fields`` (or declared with
    ``dataclasses.field(metadata={"static": True})``) are static metadata
    instead: part of the tree structure, compared on jit cache lookups.
    Usable as a decorator, with or without arguments.

    Examples
    --------
    >>> import dataclasses
    >>> @sciax.tree.register_dataclass
    ... @dataclasses.dataclass
    ... class Params:
    ...     w: float
    ...     b: float
    >>> sciax.tree.leaves(Params(1.0, 2.0))
    [1.0, 2.0]
    """
    def wrap(c: type) -> type:
        if not dataclasses.is_dataclass(c):
            raise TypeError(f"register_dataclass expects a dataclass, got {c!r}")
        meta = set(meta_fields)
        meta |= {f.name for f in dataclasses.fields(c) if f.metadata.get("static")}
        data = [f.name for f in dataclasses.fields(c) if f.name not in meta]
        registry.register_dataclass_node(c, data, sorted(meta))
        return c

    return wrap if cls is None else wrap(cls)
