"""Compiling StableHLO modules and running the executables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxlib import _jax
from jaxlib import xla_client as xc

from sciax._src.backend import client as _client
from sciax._src.backend import compilation_cache
from sciax._src.backend.mlir import ir


class Executable:
    """A compiled XLA program for one device.

    ``execute(buffers)`` takes device buffers (``Array._buf``) and returns the
    output buffers, typed by ``out_avals`` (jaxlib's C++ result handlers build
    them without a round trip through Python).
    """

    __slots__ = ("_exe", "_handlers", "out_avals", "device", "_execute", "__weakref__")

    def __init__(self, module: ir.Module, out_avals: Sequence[Any], device: Any = None,
                 host_callbacks: Sequence[Any] = ()):
        dev = device if device is not None else _client.default_device()
        # through the persistent cache (which bypasses host-callback programs)
        self._exe = compilation_cache.compile_and_load(
            _client.get_client(), module, _client.device_list((dev,)),
            xc.CompileOptions(), host_callbacks)
        self.device = dev
        self.out_avals = tuple(out_avals)
        sharding = _client.sharding(dev)
        self._handlers = [
            _jax.array_result_handler(a, sharding, committed=True, _skip_checks=True)
            for a in self.out_avals
        ]
        self._execute = self._exe.execute_sharded

    def execute(self, buffers: list[Any]) -> list[Any]:
        return self._execute(buffers).consume_with_handlers(self._handlers)

    def as_text(self) -> str:
        """The optimised HLO that XLA compiled."""
        return "\n".join(m.to_string() for m in self._exe.hlo_modules())
