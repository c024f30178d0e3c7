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


def _env_number(name: str, default: float, kind: type) -> Any:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ValueError(f"environment variable {name}={raw!r}: expected a "
                         f"{kind.__name__}") from None


def _default_cache_dir() -> str | None:
    # SCIAX_COMPILATION_CACHE=0 turns the cache off; an explicit directory wins
    # over the XDG default.
    if not _env_bool("SCIAX_COMPILATION_CACHE", True):
        return None
    explicit = os.environ.get("SCIAX_COMPILATION_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "sciax")


def _check_cache_dir(value: Any) -> bool:
    return value is None or isinstance(value, (str, os.PathLike))


def _check_size(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_count(value: Any) -> bool:
    return _check_size(value) and value >= 1


def _check_seconds(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and value >= 0)


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
    log_compiles : bool
        Log (``logging`` at WARNING level, logger ``sciax``) the time that each
        compilation spends tracing, lowering and compiling, and the first run.
        Environment variable ``SCIAX_LOG_COMPILES``.
    cpu_async_dispatch : bool
        Run programs on the single CPU device asynchronously (a call returns
        before its result is computed, as JAX does) instead of on the calling
        thread (the default: faster for the small programs of eager and
        interactive work, and Python rarely has other work to overlap on the
        CPU).  Read when the backend starts: set it, or
        ``SCIAX_CPU_ASYNC_DISPATCH=1``, before the first array is made.
    compilation_cache_dir : str or None
        Directory of the persistent compilation cache, where compiled programs
        are kept between processes; None turns the cache off.  Default
        ``$XDG_CACHE_HOME/sciax`` (``~/.cache/sciax``).  Environment variables
        ``SCIAX_COMPILATION_CACHE_DIR``, and ``SCIAX_COMPILATION_CACHE=0`` to
        turn it off.
    compilation_cache_max_size : int
        Bound, in bytes, on the cache's total size; the least recently used
        entries go first.  Default 1 GiB (``SCIAX_COMPILATION_CACHE_MAX_SIZE``).
    compilation_cache_min_compile_time : float
        Programs that compiled faster than this many seconds are not stored
        (reading them back would save little).  Default 0.01
        (``SCIAX_COMPILATION_CACHE_MIN_COMPILE_TIME``).
    jit_cache_size : int
        Signatures (argument shapes and dtypes, static values, tree structure)
        for which a jitted function keeps its trace and compiled program, the
        least recently used going first; the same bound holds for the programs
        an eager ``sciax.numpy`` function keeps.  Default 256
        (``SCIAX_JIT_CACHE_SIZE``).
    eager_cache_size : int
        Compiled one-operation programs of eagerly run primitives kept by the
        process, least recently used going first.  Default 4096
        (``SCIAX_EAGER_CACHE_SIZE``).
    cpu_loop_kernel_bytes : int
        XLA's CPU compiler turns a ``while`` loop whose body touches at most
        this many bytes (and holds no sort, scatter, FFT or library call) into
        one kernel, instead of running each operation of each trip as a kernel
        of its own.  sciax's solvers are such loops: raising XLA's default of
        1 kB to 1 MiB (the default here) runs a Lorenz ``solve_ivp`` or a BFGS
        ``minimize`` several times faster and compiles them faster; larger
        loop bodies keep XLA's multithreaded kernels.  0 keeps XLA's default.
        A jitted program of more than 8 outputs computed by exact elementwise
        and layout operations on values of at most this many bytes (and
        64 kB) is compiled as one kernel too (0: as XLA chooses).
        Applies to programs compiled after it is set; a value in ``XLA_FLAGS``
        (``--xla_backend_extra_options=xla_cpu_small_while_loop_byte_threshold=N``)
        takes precedence (``SCIAX_CPU_LOOP_KERNEL_BYTES``).
    """

    _defaults = {
        "enable_x64": ("SCIAX_ENABLE_X64", True),
        "enable_checks": ("SCIAX_ENABLE_CHECKS", False),
        "log_compiles": ("SCIAX_LOG_COMPILES", False),
        "cpu_async_dispatch": ("SCIAX_CPU_ASYNC_DISPATCH", False),
    }

    # options that are not bools: name -> (read the default, check a value,
    # what a value must be)
    _typed = {
        "compilation_cache_dir": (_default_cache_dir, _check_cache_dir,
                                  "a directory path or None"),
        "compilation_cache_max_size": (
            lambda: _env_number("SCIAX_COMPILATION_CACHE_MAX_SIZE", 1 << 30, int),
            _check_size, "a number of bytes >= 0"),
        "compilation_cache_min_compile_time": (
            lambda: _env_number("SCIAX_COMPILATION_CACHE_MIN_COMPILE_TIME", 0.01,
                                float),
            _check_seconds, "a number of seconds >= 0"),
        "jit_cache_size": (lambda: _env_number("SCIAX_JIT_CACHE_SIZE", 256, int),
                           _check_count, "an int >= 1"),
        "eager_cache_size": (lambda: _env_number("SCIAX_EAGER_CACHE_SIZE", 4096, int),
                             _check_count, "an int >= 1"),
        "cpu_loop_kernel_bytes": (
            lambda: _env_number("SCIAX_CPU_LOOP_KERNEL_BYTES", 1 << 20, int),
            _check_size, "a number of bytes >= 0"),
    }

    def __init__(self) -> None:
        values = {k: _env_bool(env, d) for k, (env, d) in self._defaults.items()}
        values.update({k: read() for k, (read, _, _) in self._typed.items()})
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
        typed = self._typed.get(name)
        if typed is not None:
            if not typed[1](value):
                raise TypeError(f"config option {name!r} takes {typed[2]}, "
                                f"got {value!r}")
            if isinstance(value, os.PathLike):
                value = os.fspath(value)
        elif not isinstance(value, bool):
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
