"""Every primitive in ``sciax._src.lax`` has all the rules a primitive needs.

The test walks every module of the package, collects the module-level
``*_p`` :class:`Primitive` objects and checks each entry of :data:`RULES`.
JVP and batching rules join the table (one line each) once the autodiff and
batching interpreters require them of every primitive.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

import pytest

import sciax._src.lax
from sciax._src.core.trace import Primitive
from sciax._src.interpreters import lowering


def _lax_modules() -> list[str]:
    pkg = sciax._src.lax
    return sorted(f"{pkg.__name__}.{m.name}"
                  for m in pkgutil.iter_modules(pkg.__path__))


def _primitives() -> dict[str, Primitive]:
    """``{"module:name_p": primitive}``, each primitive once (under the module
    that defines it first in sorted order; re-exports are skipped)."""
    found: dict[int, tuple[str, Primitive]] = {}
    for modname in _lax_modules():
        mod = importlib.import_module(modname)
        for attr, val in sorted(vars(mod).items()):
            if attr.endswith("_p") and isinstance(val, Primitive):
                found.setdefault(id(val), (f"{modname.rsplit('.', 1)[1]}:{attr}", val))
    return dict(found.values())


def _overrides(method: str) -> Callable[[Primitive], bool]:
    """The primitive replaced ``Primitive.<method>`` (the default raises)."""
    def check(prim: Primitive) -> bool:
        fn = getattr(prim, method)
        return getattr(fn, "__func__", None) is not getattr(Primitive, method)
    return check


# rule name -> predicate on the primitive; add a line per new requirement, e.g.
#   "jvp": lambda p: p in ad.primitive_jvps,
#   "batching": lambda p: p in batching.primitive_batchers,
RULES: dict[str, Callable[[Primitive], bool]] = {
    "abstract_eval": _overrides("abstract_eval"),
    "impl": _overrides("impl"),
    "lowering": lowering.has_lowering,
}

PRIMITIVES = _primitives()


def test_modules_import_and_primitives_found():
    assert "sciax._src.lax.elementwise" in _lax_modules()
    names = {p.name for p in PRIMITIVES.values()}
    assert {"add", "sin", "convert_element_type", "select_n"} <= names


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("where", sorted(PRIMITIVES))
def test_primitive_has_rule(where: str, rule: str):
    prim = PRIMITIVES[where]
    assert RULES[rule](prim), f"primitive {prim.name!r} ({where}) has no {rule} rule"
