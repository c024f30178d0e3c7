"""Write the API reference pages (``docs/api/*.rst``) from the modules themselves.

Each public module gets one page: an ``autosummary`` table (with a generated stub
page per name) of its public functions and classes, and a plain table of its other
public names (constants, dtypes, primitives).  The names come from the module's
``__all__`` when it has one, else from ``dir(module)`` less private names, so a
function added to a package appears in the reference without editing the docs.  A
module with no public names yet (a package skeleton) gets no page.

conf.py calls :func:`write_api_pages` before Sphinx reads any source, so that
autosummary sees the pages it must generate stubs for.
"""

from __future__ import annotations

import importlib
import inspect
import types
from pathlib import Path

# (module, one-line description).  The order is the order of the reference index.
MODULES: list[tuple[str, str]] = [
    ("sciax", "transformations (jit, grad, vmap, ...), arrays and devices"),
    ("sciax.numpy", "NumPy's API on sciax arrays"),
    ("sciax.numpy.fft", "discrete Fourier transforms"),
    ("sciax.numpy.linalg", "NumPy's linear algebra"),
    ("sciax.lax", "primitives: strict shapes and dtypes, control flow"),
    ("sciax.lax.linalg", "LAPACK-backed linear algebra primitives"),
    ("sciax.random", "counter-based (threefry) random numbers"),
    ("sciax.linalg", "SciPy's linear algebra"),
    ("sciax.optimize", "SciPy's optimisation, root finding and curve fitting"),
    ("sciax.integrate", "SciPy's ODE solvers and quadrature"),
    ("sciax.special", "SciPy's special functions"),
    ("sciax.stats", "SciPy's distributions and statistics"),
    ("sciax.tree", "pytree utilities"),
    ("sciax.custom_batching", "functions with user-defined batching rules"),
    ("sciax.debug", "printing and callbacks from compiled code"),
    ("sciax.distributed", "several processes over jaxlib's distributed runtime"),
]


def public_names(module: types.ModuleType) -> list[str]:
    """The public names of ``module``: ``__all__``, else ``dir`` less ``_`` names."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return sorted(set(names), key=lambda n: (n.lower(), n))


def _is_documented(obj: object) -> bool:
    """Functions, classes and callable objects written in sciax get an autosummary
    entry, and so do other sciax objects with a docstring of their own (e.g. a
    distribution instance); plain instances (primitives, constants) do not."""
    if isinstance(obj, types.ModuleType):
        return False
    owner = getattr(obj, "__module__", None) or ""
    if not (owner == "sciax" or owner.startswith("sciax.")):
        return False
    if inspect.isclass(obj) or callable(obj):
        return True
    doc = getattr(obj, "__doc__", None)
    return bool(doc) and doc is not getattr(type(obj), "__doc__", None)


def classify(modname: str) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """Split a module's public names into (documented, other names, submodules)."""
    module = importlib.import_module(modname)
    documented, others, submodules = [], [], []
    for name in public_names(module):
        obj = getattr(module, name)
        if isinstance(obj, types.ModuleType):
            if obj.__name__ == f"{modname}.{name}":
                submodules.append(obj.__name__)
        elif _is_documented(obj):
            documented.append(name)
        elif modname == "sciax" and not getattr(obj, "__module__", "").startswith(
                "sciax") and not isinstance(obj, (int, float, complex, type(None))):
            continue  # typing/__future__ helpers that leak into the package namespace
        elif type(obj).__name__ != "_Feature":  # ``from __future__ import annotations``
            others.append((name, _describe(obj)))
    return documented, others, submodules


def _describe(obj: object) -> str:
    if inspect.isclass(obj):
        return f"type ``{obj.__module__}.{obj.__qualname__}``"
    if isinstance(obj, (int, float, complex, bool, type(None))):
        return f"constant ``{obj!r}``"
    return f"instance of ``{type(obj).__name__}``"


def _page(modname: str, description: str, documented, others, submodules,
          with_page: set[str]) -> str:
    title = f":mod:`{modname}`"
    lines = [f".. _api-{modname}:", "", title, "=" * len(title), "",
             f".. module:: {modname}", "", description[0].upper() + description[1:] + ".",
             ""]
    subs = [s for s in submodules if s in with_page]
    if subs:
        lines += ["Submodules: " + ", ".join(f":mod:`{s}`" for s in subs) + ".", ""]
    if documented:
        lines += [".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
        lines += [f"   {name}" for name in documented]
        lines += [""]
    if others:
        lines += ["Other public names", "-" * 18, "", ".. list-table::",
                  "   :header-rows: 1", "   :widths: 25 75", "",
                  "   * - name", "     - what it is"]
        for name, what in others:
            lines += [f"   * - ``{name}``", f"     - {what}"]
        lines += [""]
    return "\n".join(lines)


def write_api_pages(outdir: Path) -> list[str]:
    """Write one page per module with public names, and ``index.rst``; return them."""
    outdir.mkdir(parents=True, exist_ok=True)
    contents = {}
    for modname, description in MODULES:
        documented, others, submodules = classify(modname)
        if documented or others:
            contents[modname] = (description, documented, others, submodules)
    pages = {}
    for modname, (description, documented, others, submodules) in contents.items():
        pages[modname] = _page(modname, description, documented, others,
                               submodules, set(contents))
    index = ["API reference", "=============", "",
             "Generated from each module's public names (its ``__all__``, or its",
             "namespace less private names) and their numpydoc docstrings; every",
             "``Examples`` section runs as a doctest in the test suite.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    index += [f"   {m}" for m in pages]
    index += [""]
    pages["index"] = "\n".join(index)
    for name, text in pages.items():
        path = outdir / f"{name}.rst"
        if not path.exists() or path.read_text() != text:  # keep mtimes: incremental builds
            path.write_text(text)
    for stale in outdir.glob("*.rst"):
        if stale.stem not in pages:
            stale.unlink()
    return list(pages)
