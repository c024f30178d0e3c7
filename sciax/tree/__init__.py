"""Pytrees: nested containers of arrays (tuples, lists, dicts, registered classes)."""

from sciax._src.core.pytree import (PyTreeDef as PyTreeDef, all_leaves as all_leaves,
                                    flatten as flatten, leaves as leaves, map as map,
                                    register_dataclass as register_dataclass,
                                    register_node as register_node,
                                    structure as structure, unflatten as unflatten)
