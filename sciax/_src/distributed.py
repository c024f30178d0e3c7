"""Several processes as one program: jaxlib's distributed runtime.

Process 0 runs the coordination service; every process connects a client to
it, and the backend's CPU client is then created with that client and gloo
TCP collectives, so that it sees the devices of every process.  A ``pmap``
whose collectives span all of those devices then communicates between
processes (see :func:`sciax.pmap`).
"""

from __future__ import annotations

import atexit
from typing import Any

from sciax._src.backend import multi

_state: dict[str, Any] = {}


def initialize(coordinator_address: str, num_processes: int, process_id: int, *,
               local_device_count: int | None = None, timeout: int = 60) -> None:
    """Join a multi-process run; call it first, before any sciax computation.

    Parameters
    ----------
    coordinator_address : str
        ``"host:port"`` where process 0 serves and every process connects.
    num_processes : int
        The number of processes in the run.
    process_id : int
        This process's index, ``0 <= process_id < num_processes``.
    local_device_count : int, optional
        CPU devices in this process (default: ``SCIAX_NUM_CPU_DEVICES``, or 1).
    timeout : int
        Seconds to wait for the other processes to connect (and, at shutdown,
        to leave) before raising, so that a lost process cannot hang the run.

    Raises
    ------
    RuntimeError
        If sciax's backend already exists (any array was created or computed
        before this call), or if this process already joined a run.
    ValueError
        If ``process_id`` is out of range.

    Notes
    -----
    Every process must call ``initialize`` with the same address and
    ``num_processes``.  Afterwards :func:`sciax.devices` lists every process's
    devices, and new arrays live on this process's first device.

    Examples
    --------
    Run in each of two processes (``process_id`` 0 and 1)::

        sciax.distributed.initialize("127.0.0.1:12345", 2, process_id)
        total = sciax.pmap(lambda x: lax.psum(x, "i"), "i")(snp.ones(1))
        sciax.distributed.shutdown()
    """
    if "client" in _state:
        raise RuntimeError("sciax.distributed.initialize was already called in this "
                           "process")
    if multi.client_created():
        raise RuntimeError(
            "sciax.distributed.initialize must be called before any sciax computation: "
            "the backend already exists, so it cannot be made multi-process")
    if not 0 <= process_id < num_processes:
        raise ValueError(f"process_id {process_id} is out of range for "
                         f"num_processes={num_processes}")
    if process_id == 0:
        _state["service"] = multi.start_service(coordinator_address, num_processes,
                                                timeout)
    dc = multi.connect_client(coordinator_address, process_id, timeout)
    _state["client"] = dc
    multi.install_distributed_client(dc, process_id, num_processes, local_device_count)
    atexit.register(shutdown)


def shutdown() -> None:
    """Leave the multi-process run (waits for the other processes to leave too).

    The backend stays multi-process: a process cannot rejoin a run.
    """
    dc = _state.pop("client", None)
    if dc is not None:
        dc.shutdown()
    svc = _state.pop("service", None)
    if svc is not None:
        svc.shutdown()


def process_index() -> int:
    """This process's index in the run (0 without :func:`initialize`)."""
    return multi.process_index()


def process_count() -> int:
    """The number of processes in the run (1 without :func:`initialize`)."""
    return multi.process_count()
