"""Compiling StableHLO modules and running the executables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxlib import _jax
from jaxlib import xla_client as xc

import os

from sciax._src.backend import client as _client
from sciax._src.backend import compilation_cache
from sciax._src.backend.mlir import ir
from sciax._src.config import config

_LOOP_OPTION = "xla_cpu_small_while_loop_byte_threshold"


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def with_backend_options(opts: xc.CompileOptions) -> xc.CompileOptions:
    """A copy of ``opts`` with sciax's entries in XLA's backend options (a map that
    jaxlib's Python API does not expose: ``env_option_overrides`` rejects
    it), merged into its serialised ``CompileOptionsProto``: a map entry in
    ``executable_build_options`` (field 3) > ``debug_options`` (3) >
    ``xla_backend_extra_options`` (500), parsed on top of the original, as
    protobuf merges a repeated message field.  Today the one entry is
    :data:`sciax.config`'s ``cpu_loop_kernel_bytes``; a value that the user
    put in ``XLA_FLAGS`` stays."""
    size = config.cpu_loop_kernel_bytes
    if not size or _LOOP_OPTION in os.environ.get("XLA_FLAGS", ""):
        return opts
    entry = _field(1, _LOOP_OPTION.encode()) + _field(2, str(int(size)).encode())
    extra = _field(3, _field(3, _field(500, entry)))
    return xc.CompileOptions.ParseFromString(opts.SerializeAsString() + extra)


def compile_module(module: ir.Module, devices: Sequence[Any],
                   options: xc.CompileOptions | None = None,
                   host_callbacks: Sequence[Callable[..., Any]] = ()) -> Any:
    """Compile a StableHLO ``module`` for ``devices``: jaxlib's loaded executable.

    The one place sciax hands a program to XLA's compiler: eager ops, ``jit``,
    ``Lowered.compile`` and ``pmap`` all come here (through :class:`Executable`
    or :class:`~sciax._src.backend.multi.ReplicatedExecutable`), so a
    compilation cache belongs here.  ``options`` default to
    ``xc.CompileOptions()``; ``host_callbacks`` are the Python functions the
    module's callback custom calls index; sciax's XLA backend options are
    added to them (:func:`with_backend_options`).
    """
    client = _client.get_client()
    opts = with_backend_options(options if options is not None else xc.CompileOptions())
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
