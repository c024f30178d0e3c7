"""Pytrees: nested containers of arrays, flattened by jaxlib's C++ registry.

Tuples, lists, dicts, namedtuples and None are nodes; anything else is a leaf
unless registered with :func:`register_node` or :func:`register_dataclass`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from sciax._src.backend.pytree import PyTreeDef, registry, treedef_tuple
from sciax._src.core.avals import get_aval

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
    others = []
    for i, r in enumerate(rest):
        try:
            others.append(treedef.flatten_up_to(r))
        except ValueError as e:
            raise ValueError(
                f"tree.map: every tree must have the structure of the first one (or "
                f"have it as a prefix); the first tree is {treedef} but tree {i + 2} "
                f"is {registry.flatten(r, is_leaf)[1]} ({e})"
            ) from None
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


# --- functions on flat leaves ------------------------------------------------------
# Every transformation traces a function of flat leaves (jit, vmap, grad, scan,
# custom_jvp, checkpoint, ...) and unflattens the outputs afterwards with the
# output treedef seen while tracing: that pattern lives here, once.

class OutTree:
    """The output treedef of a flattened function, known once it has run.

    Call it (``out_tree()``) for the treedef; assign ``.tree`` to record one.
    """

    __slots__ = ("tree",)

    def __init__(self) -> None:
        self.tree: PyTreeDef | None = None

    def __call__(self) -> PyTreeDef:
        if self.tree is None:
            raise RuntimeError("the output tree is read before the flattened "
                               "function ran")
        return self.tree


def check_output_leaves(leaves: Iterable[Any], what: str) -> None:
    """TypeError naming ``what`` (e.g. "jit-compiled function 'f'") if an output
    leaf is not an array."""
    for leaf in leaves:
        try:
            get_aval(leaf)
        except TypeError as e:
            raise TypeError(f"{what} returned a non-array output: {e}") from None


def flatten_fun(fun: Callable[..., Any], in_tree: PyTreeDef, *, kwargs: bool = False,
                what: str | None = None) -> tuple[Callable[..., list[Any]], OutTree]:
    """``fun`` as a function of flat leaves, and the :class:`OutTree` it fills.

    The leaves are unflattened with ``in_tree`` into the positional arguments
    (``kwargs=True``: into an ``(args, kwargs)`` pair); the result is flattened
    and its treedef recorded.  With ``what`` set, the output leaves are checked
    to be arrays (:func:`check_output_leaves`).

    Examples
    --------
    >>> from sciax._src.tree_util import flatten, flatten_fun
    >>> leaves, in_tree = flatten(((1.0, 2.0),))
    >>> flat, out_tree = flatten_fun(lambda p: {"s": p[0] + p[1]}, in_tree)
    >>> flat(*leaves)
    [3.0]
    >>> out_tree().unflatten([4.0])
    {'s': 4.0}
    """
    store = OutTree()

    def flat(*leaves: Any) -> list[Any]:
        if kwargs:
            args, kw = in_tree.unflatten(leaves)
            out = fun(*args, **kw)
        else:
            out = fun(*in_tree.unflatten(leaves))
        out_leaves, store.tree = registry.flatten(out)
        if what is not None:
            check_output_leaves(out_leaves, what)
        return out_leaves

    return flat, store


# --- key paths, for error messages -------------------------------------------------

def keystr(path: Iterable[Any]) -> str:
    """A key path from ``registry.flatten_with_path`` as Python indexing text.

    Examples
    --------
    >>> from sciax._src.tree_util import keystr
    >>> from sciax._src.backend.pytree import registry
    >>> [keystr(p) for p, _ in registry.flatten_with_path({"a": (1, 2)})[0]]
    ["['a'][0]", "['a'][1]"]
    """
    parts = []
    for k in path:
        if hasattr(k, "idx"):
            parts.append(f"[{k.idx}]")
        elif hasattr(k, "key"):
            parts.append(f"[{k.key!r}]")
        elif hasattr(k, "name"):
            parts.append(f".{k.name}")
        else:
            parts.append(f"[{k!r}]")
    return "".join(parts)


def leaf_paths(tree: Any) -> list[str]:
    """:func:`keystr` of every leaf's key path in ``tree``, in leaf order."""
    return [keystr(p) for p, _ in registry.flatten_with_path(tree)[0]]
