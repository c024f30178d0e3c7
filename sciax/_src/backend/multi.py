"""Running one program on several devices, and the multi-process runtime.

:class:`ReplicatedExecutable` compiles a StableHLO module once for ``n``
replicas (one per device; cross-replica collectives such as
``stablehlo.all_reduce`` connect them) and runs it on per-device host arrays.
The per-device inputs travel as one multi-device jaxlib array built from
single-device buffers, and the outputs come back through the ``_arrays`` of
jaxlib's multi-device result arrays, so no ``jax`` Python code is involved.

The distributed half wraps jaxlib's distributed runtime (a coordination
service in process 0, a client in every process) and its gloo TCP CPU
collectives; :func:`install_distributed_client` makes the backend's CPU client
a multi-process one.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
from jaxlib import _jax
from jaxlib import xla_client as xc

from sciax._src.backend import client as _client
from sciax._src.backend.array import host_copy
from sciax._src.backend.compile import compile_module
from sciax._src.backend.mlir import ir
from sciax._src.core.avals import ShapedArray


def local_devices() -> list[Any]:
    """The devices this process can address, in order."""
    return list(_client.get_client().local_devices())


def global_devices() -> list[Any]:
    """Every device of every process, in order (the same list in each process)."""
    return list(_client.get_client().devices())


def process_index() -> int:
    return _client.get_client().process_index()


def process_count() -> int:
    return len({d.process_index for d in global_devices()})


@functools.cache
def _replicated_sharding(devs: tuple[Any, ...]) -> Any:
    # A sharding object whose device list is the executable's local devices;
    # jaxlib uses it only to know where each per-device buffer lives.
    return _jax.GSPMDSharding(list(devs), xc.HloSharding.replicate())


class ReplicatedExecutable:
    """A module compiled for ``len(devices)`` replicas, replica ``r`` on ``devices[r]``.

    ``devices`` may include other processes' devices (multi-process runs); each
    process then feeds and reads only its own, :attr:`local_devices`.
    ``execute(per_arg_shards)`` takes, for every argument, one NumPy array per
    local device (already of the argument's dtype) and returns, for every
    output, one NumPy array per local device.
    """

    def __init__(self, module: ir.Module, in_avals: Sequence[ShapedArray],
                 out_avals: Sequence[ShapedArray], devices: Sequence[Any],
                 host_callbacks: Sequence[Any] = ()):
        n = len(devices)
        with module.context:
            i32 = ir.IntegerType.get_signless(32)
            attrs = module.operation.attributes
            attrs["mhlo.num_replicas"] = ir.IntegerAttr.get(i32, n)
            attrs["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, 1)
        opts = xc.CompileOptions()
        opts.num_replicas = n
        opts.num_partitions = 1
        opts.device_assignment = xc.DeviceAssignment.create(
            np.array([[d.id] for d in devices], dtype=np.int32))
        self._exe = compile_module(module, devices, opts, host_callbacks)
        self.devices = tuple(devices)
        # replica order restricted to this process: buffers are matched to them
        self.local_devices = tuple(self._exe.local_devices())
        self.in_avals = tuple(in_avals)
        self.out_avals = tuple(out_avals)
        self._sharding = _replicated_sharding(self.local_devices)
        self._handlers = [
            _jax.array_result_handler(a, self._sharding, True, _skip_checks=True)
            for a in self.out_avals
        ]

    def execute(self, per_arg_shards: Sequence[Sequence[np.ndarray]]
                ) -> list[list[np.ndarray]]:
        m = len(self.local_devices)
        args = []
        for aval, shards in zip(self.in_avals, per_arg_shards, strict=True):
            if len(shards) != m:
                raise ValueError(f"expected {m} per-device shards, got {len(shards)}")
            bufs = [_jax.batched_device_put(aval, _client.sharding(d), [s], [d], True,
                                            enable_x64=True)
                    for s, d in zip(shards, self.local_devices)]
            stacked = ShapedArray((m, *aval.shape), aval.dtype, aval.weak_type)
            args.append(_jax.ArrayImpl(stacked, self._sharding, bufs, True,
                                       _skip_checks=True))
        outs = self._exe.execute_sharded(args).consume_with_handlers(self._handlers)
        # Reading every result to the host also keeps executions in order: the
        # CPU client's in-process collectives can deadlock when many launches
        # of one replicated program are queued at once.
        return [[np.asarray(host_copy(b))
                 for b in out._arrays] for out in outs]

    def as_text(self) -> str:
        return "\n".join(m.to_string() for m in self._exe.hlo_modules())


# --- the distributed runtime ----------------------------------------------------------

def start_service(address: str, num_processes: int, timeout_s: int) -> Any:
    """The coordination service (process 0 only); keep the object alive."""
    return _jax.get_distributed_runtime_service(
        address, num_processes, cluster_register_timeout=timeout_s,
        shutdown_timeout=timeout_s)


def connect_client(address: str, process_id: int, timeout_s: int) -> Any:
    """A connected distributed-runtime client; raises if the service is unreachable."""
    dc = _jax.get_distributed_runtime_client(
        address, process_id, init_timeout=timeout_s, shutdown_timeout=timeout_s,
        shutdown_on_destruction=False)
    dc.connect()
    return dc


def client_created() -> bool:
    return _client.client_created()


def install_distributed_client(dc: Any, process_id: int, num_processes: int,
                               num_local_devices: int | None = None) -> Any:
    """Create the multi-process CPU client and make it the backend's client.

    Must run before anything has created the default client.
    """
    collectives = _jax.make_gloo_tcp_collectives(distributed_client=dc)
    num = num_local_devices or int(os.environ.get("SCIAX_NUM_CPU_DEVICES", "1"))
    new = xc.make_cpu_client(distributed_client=dc, node_id=process_id,
                             num_nodes=num_processes, collectives=collectives,
                             num_devices=num)
    _client.set_client(new)
    return new
