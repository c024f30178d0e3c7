"""The one configuration object of sciax.

The environment is read here and only here, once, at import.  Code elsewhere
reads ``config.enable_x64`` and friends; tests override values with
``config.override(...)``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    val = raw.strip().lower()
    if val in ("1", "true", "yes", "on"):
        return True
    if val in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"environment variable {name}={raw!r}: expected 0/1/true/false")


class Config:
    """Global options.  Read them as attributes, change them with :meth:`update`.

    Options
    -------
    enable_x64 : bool
        64-bit types (float64, int64, complex128) are the defaults when True (the
        default, as scientists expect); with False, 64-bit requests are narrowed
        to 32 bits.  Environment variable ``SCIAX_ENABLE_X64``.
    enable_checks : bool
        Type-check every jaxpr that a transformation produces (slower; on in the
        test suite).  Environment variable ``SCIAX_ENABLE_CHECKS``.
    """

    _defaults = {
        "enable_x64": ("SCIAX_ENABLE_X64", True),
        "enable_checks": ("SCIAX_ENABLE_CHECKS", False),
    }

    def __init__(self) -> None:
        values = {k: _env_bool(env, d) for k, (env, d) in self._defaults.items()}
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_listeners", [])

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"sciax.config has no option {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("use sciax.config.update(name, value)")

    def update(self, name: str, value: Any) -> None:
        """Set option ``name`` to ``value`` (see the class docstring for names)."""
        if name.startswith("sciax_"):
            name = name[len("sciax_"):]
        if name not in self._values:
            valid = ", ".join(sorted(self._values))
            raise ValueError(f"unknown config option {name!r}; valid options: {valid}")
        if not isinstance(value, bool):
            raise TypeError(f"config option {name!r} takes a bool, got {value!r}")
        if self._values[name] != value:
            self._values[name] = value
            for fn in self._listeners:
                fn(name, value)

    def on_change(self, fn: Callable[[str, Any], None]) -> None:
        """Register ``fn(name, value)`` to run whenever an option changes."""
        self._listeners.append(fn)

    @contextlib.contextmanager
    def override(self, **options: Any) -> Iterator[None]:
        """Temporarily set options: ``with config.override(enable_x64=False): ...``."""
        old = {k: getattr(self, k) for k in options}
        try:
            for k, v in options.items():
                self.update(k, v)
            yield
        finally:
            for k, v in old.items():
                self.update(k, v)

    def __repr__(self) -> str:
        return f"Config({self._values})"


config = Config()
