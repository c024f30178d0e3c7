"""``sciax.scipy``: JAX's ``jax.scipy`` layout over sciax's SciPy-style packages.

``sciax.scipy.linalg`` *is* :mod:`sciax.linalg` (the same module object), and
likewise ``optimize``, ``integrate``, ``special``, ``stats``, ``signal``,
``fft`` and ``sparse`` once the package ``sciax.<name>`` exists.  Nothing is
imported until first use: attribute access (``sciax.scipy.optimize``) and
import statements (``import sciax.scipy.linalg``, ``from sciax.scipy.stats
import norm``) both resolve ``sciax.scipy.<name>[.<sub>]`` to
``sciax.<name>[.<sub>]`` on demand.

Examples
--------
>>> import sciax.scipy.linalg
>>> sciax.scipy.linalg is sciax.linalg
True
>>> from sciax.scipy.linalg import det
>>> float(det(snp.eye(2)))
1.0
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

# the sub-packages of jax.scipy that have (or will have) a sciax.<name> twin
_ALIASED = ("linalg", "optimize", "integrate", "special", "stats", "signal", "fft",
            "sparse", "interpolate", "cluster", "ndimage", "spatial")
_PREFIX = __name__ + "."
_TARGET = __name__.rpartition(".")[0] + "."


def _target(fullname: str) -> str | None:
    """``sciax.<rest>`` for ``sciax.scipy.<rest>`` if ``rest`` is aliased."""
    if not fullname.startswith(_PREFIX):
        return None
    rest = fullname[len(_PREFIX):]
    return _TARGET + rest if rest.split(".")[0] in _ALIASED else None


class _AliasLoader(importlib.abc.Loader):
    """Loads ``sciax.scipy.X`` as the existing module ``sciax.X``."""

    def __init__(self, target: str):
        self.target = target
        self._spec: Any = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        # the import system stamps the alias's spec on the module; put the
        # original back in exec_module so sciax.X keeps its own identity
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._spec


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Any, target: Any = None
                  ) -> importlib.machinery.ModuleSpec | None:
        name = _target(fullname)
        if name is None:
            return None
        try:
            if importlib.util.find_spec(name) is None:
                return None
        except (ImportError, ValueError):  # a parent missing; a spec-less stub
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(name))


if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _AliasFinder())


def __getattr__(name: str) -> ModuleType:
    if name in _ALIASED:
        try:
            module = importlib.import_module(_PREFIX + name)
        except ModuleNotFoundError as e:
            if e.name not in (_PREFIX + name, _TARGET + name):
                raise
        else:
            globals()[name] = module
            return module
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}: "
                             f"sciax.{name} does not exist yet")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_ALIASED])
