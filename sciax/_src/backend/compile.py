"""Compiling StableHLO modules and running the executables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxlib import _jax
from jaxlib import xla_client as xc

from sciax._src.backend import client as _client
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
        client = _client.get_client()
        if host_callbacks:
            # Only the overload taking an ir.Module accepts host callbacks.
            self._exe = client.compile_and_load(
                module, _client.device_list((dev,)), xc.CompileOptions(),
                host_callbacks=list(host_callbacks))
        else:
            self._exe = client.compile_and_load(
                module, _client.device_list((dev,)), xc.CompileOptions())
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
