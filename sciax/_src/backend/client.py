"""The PjRt CPU client, created lazily and once, and its devices."""

from __future__ import annotations

import functools
import os

from jaxlib import _jax
from jaxlib import xla_client as xc

from sciax._src.backend import lapack
from sciax._src.config import config

# jaxlib's C++ device_put reads a process-wide x64 flag; sciax passes the flag
# explicitly on every call, but the C++ code insists that the state object exists.
_x64_state = _jax.config.Config(
    "sciax_enable_x64", True, include_in_jit_key=False, include_in_trace_context=False)
_jax.jax_jit.set_enable_x64_state(_x64_state)


def _replicated_hlo_sharding(self, ndim):
    return xc.HloSharding.replicate()


# The C++ sharding class calls back into this Python method when it places data.
if not hasattr(_jax.SingleDeviceSharding, "_to_xla_hlo_sharding"):
    _jax.SingleDeviceSharding._to_xla_hlo_sharding = _replicated_hlo_sharding

Device = _jax.Device


_client: xc.Client | None = None


def get_client() -> xc.Client:
    """The CPU PjRt client (``SCIAX_NUM_CPU_DEVICES`` sets its device count).

    One device runs each program on the calling thread unless
    ``config.cpu_async_dispatch`` is set: handing a small program to a worker
    thread and waking the caller when it is done costs more than the program
    (a 1000-vector ``x + 1``: 14 us asynchronous, 6.5 us inline; 55 us on
    average on a busy 2-core machine, where the wake-up waits for a core).
    Several devices keep asynchronous dispatch: their collectives need every
    device's program running at once.
    """
    global _client
    if _client is None:
        num = int(os.environ.get("SCIAX_NUM_CPU_DEVICES", "1"))
        set_client(xc.make_cpu_client(num_devices=num) if num > 1
                   else xc.make_cpu_client(asynchronous=config.cpu_async_dispatch))
    return _client


def client_created() -> bool:
    return _client is not None


def set_client(client: xc.Client) -> None:
    """Install ``client`` as the backend's client (once, before any use; the
    distributed runtime creates a multi-process client this way)."""
    global _client
    if _client is not None:
        raise RuntimeError("the sciax backend client already exists; configure it "
                           "(e.g. sciax.distributed.initialize) before any array "
                           "operation")

    lapack.register_targets()
    _client = client


def devices() -> list[Device]:
    """The devices of the backend, in order."""
    return list(get_client().devices())


@functools.cache
def device_list(devs: tuple[Device, ...]) -> xc.DeviceList:
    return xc.DeviceList(devs)


@functools.cache
def sharding(device: Device) -> _jax.SingleDeviceSharding:
    return _jax.SingleDeviceSharding(device)


def default_device() -> Device:
    """This process's first device (in a multi-process run, ``devices()[0]``
    may belong to another process)."""
    return get_client().local_devices()[0]


def x64_enabled() -> bool:
    return config.enable_x64
