"""Pytrees: nested containers of arrays (tuples, lists, dicts, registered classes)."""

from sciax._src.tree_util import (all_leaves as all_leaves, flatten as flatten, leaves
                                  as leaves, map as map, PyTreeDef as PyTreeDef,
                                  register_dataclass as register_dataclass,
                                  register_node as register_node, structure as
                                  structure, unflatten as unflatten)
