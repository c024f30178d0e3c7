"""sciax's own instance of jaxlib's C++ pytree registry.

sciax keeps a registry of its own rather than jaxlib's default one, so that its
node registrations never collide with another library using jaxlib in the same
process.
"""

from __future__ import annotations

from jaxlib._jax import pytree as _pytree

registry = _pytree.PyTreeRegistry(
    enable_none=True, enable_tuple=True, enable_namedtuple=True,
    enable_list=True, enable_dict=True)
PyTreeDef = _pytree.PyTreeDef
treedef_tuple = _pytree.treedef_tuple
