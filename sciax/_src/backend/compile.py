"""Compiling StableHLO modules and running the executables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxlib import _jax
from jaxlib import xla_client as xc

from sciax._src.backend import client as _client
from sciax._src.backend import compilation_cache
from sciax._src.backend.mlir import ir


def compile_module(module: ir.Module, devices: Sequence[Any],
                   options: xc.CompileOptions | None = None,
                   host_callbacks: Sequence[Callable[..., Any]] = ()) -> Any:
    """Compile a StableHLO ``module`` for ``devices``: jaxlib's loaded executable.

    The one place sciax hands a program to XLA's compiler: eager ops, ``jit``,
    ``Lowered.compile`` and ``pmap`` all come here (through :class:`Executable`
    or :class:`~sciax._src.backend.multi.ReplicatedExecutable`), so a
    compilation cache belongs here.  ``options`` default to
    ``xc.CompileOptions()``; ``host_callbacks`` are the Python functions the
    module's callback custom calls index.
    """
    client = _client.get_client()
    opts = options if options is not None else xc.CompileOptions()
    dev_list = _client.device_list(tuple(devices))
    if len(devices) == 1:
        # through the persistent cache (which bypasses host-callback programs);
        # replicated programs are not cached: reloading them across processes
        # of a distributed run is not known to be safe
        return compilation_cache.compile_and_load(client, module, dev_list, opts,
                                                  host_callbacks)
    if host_callbacks:
        # Only the overload taking an ir.Module accepts host callbacks.
        return client.compile_and_load(module, dev_list, opts,
                                       host_callbacks=list(host_callbacks))
    return client.compile_and_load(module, dev_list, opts)


class Executable:
    """A compiled XLA program for one device.

    ``execute(buffers)`` takes device buffers (``Array._buf``) and returns the
    output buffers, typed by ``out_avals`` (jaxlib's C++ result handlers build
    them without a round trip through Python).  The hot path of a jitted call
    skips even that method: it calls ``run(buffers)`` (jaxlib's
    ``execute_sharded``) and ``.consume_with_handlers(handlers)`` itself.
    """

    __slots__ = ("_exe", "handlers", "out_avals", "device", "run", "__weakref__")

    def __init__(self, module: ir.Module, out_avals: Sequence[Any], device: Any = None,
                 host_callbacks: Sequence[Any] = ()):
        dev = device if device is not None else _client.default_device()
        self._exe = compile_module(module, (dev,), host_callbacks=host_callbacks)
        self.device = dev
        self.out_avals = tuple(out_avals)
        sharding = _client.sharding(dev)
        self.handlers = [
            _jax.array_result_handler(a, sharding, committed=True, _skip_checks=True)
            for a in self.out_avals
        ]
        self.run = self._exe.execute_sharded

    def execute(self, buffers: list[Any]) -> list[Any]:
        return self.run(buffers).consume_with_handlers(self.handlers)

    def as_text(self) -> str:
        """The optimised HLO that XLA compiled."""
        return "\n".join(m.to_string() for m in self._exe.hlo_modules())
