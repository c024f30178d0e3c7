"""Registry of accuracy grids for ``tools/special_accuracy.py``.

Each family keeps its own table in a module of this package (``gamma.py``,
``error.py``, ... ; the Bessel/zeta/elliptic/hypergeometric families add
theirs the same way) and registers entries with :func:`register`; the tool
imports every module here, so adding a family never touches another
family's file.

An entry is ``(name, grid, reference, fn)``:

* ``grid()`` returns a tuple of NumPy float64 arrays (broadcastable), the
  arguments;
* ``reference(*args)`` returns the exact-enough values (default
  ``scipy.special.<name>``; use :func:`mp` to wrap an mpmath function where
  SciPy is known to be weak);
* ``fn`` is the sciax callable (default ``sciax.special.<name>``); a function
  returning a tuple is compared output by output;
* ``atol``: errors are relative to ``max(|ref|, atol)`` (functions with zeros);
* ``jit``: whether the tool calls ``fn`` under ``sciax.jit`` (False for a
  wrapper that mixes sciax with NumPy, e.g. to divide by an envelope).
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any, Callable

import numpy as np


@dataclasses.dataclass(frozen=True)
class Entry:
    name: str
    family: str
    grid: Callable[[], tuple]
    reference: Callable[..., Any] | None = None
    fn: Callable[..., Any] | None = None
    note: str = ""
    atol: float = 0.0
    jit: bool = True


REGISTRY: list[Entry] = []


def register(name: str, family: str, grid: Callable[[], tuple],
             reference: Callable[..., Any] | None = None,
             fn: Callable[..., Any] | None = None, note: str = "",
             atol: float = 0.0, jit: bool = True) -> None:
    """Add one function's grid to the registry (``atol``: errors are
    measured relative to ``max(|ref|, atol)``, for functions with zeros;
    ``jit=False``: ``fn`` is called as it is, not under ``sciax.jit``)."""
    REGISTRY.append(Entry(name, family, grid, reference, fn, note, atol, jit))


def mp(f: Callable[..., Any], dps: int = 30) -> Callable[..., np.ndarray]:
    """A NumPy-vectorised reference from an mpmath function of mpf arguments."""
    def ref(*args):
        import mpmath

        with mpmath.workdps(dps):
            return np.vectorize(
                lambda *v: float(f(*(mpmath.mpf(float(t)) for t in v))),
                otypes=[np.float64])(*args)
    return ref


def logspace_signed(lo: float, hi: float, n: int) -> np.ndarray:
    """``n`` magnitudes from ``10**lo`` to ``10**hi``, both signs, and 0."""
    m = np.logspace(lo, hi, n)
    return np.concatenate([-m[::-1], [0.0], m])


def mesh(*axes: np.ndarray) -> tuple:
    """All combinations of the axes, flattened."""
    return tuple(a.ravel() for a in np.meshgrid(*axes, indexing="ij"))


def load_all() -> list[Entry]:
    """Import every family module of this package; returns the registry."""
    if not REGISTRY:
        for info in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{info.name}")
    return REGISTRY
