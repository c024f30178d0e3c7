"""sciax.distributed: two processes on 127.0.0.1 sum with a pmapped psum.

Each process is a fresh Python (``initialize`` must come before the backend
exists); every wait is bounded, by jaxlib's connect/shutdown timeouts inside
and by ``subprocess`` timeouts outside, so a lost peer fails the test instead
of hanging CI.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap

import pytest

import sciax

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(sciax.__file__)))

_WORKER = """
import json, sys
import numpy as np
import sciax, sciax.numpy as snp
from sciax import lax

address, pid, local = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sciax.distributed.initialize(address, 2, pid, local_device_count=local, timeout=30)
x = np.full((local, 2), 10.0 * pid) + np.arange(local)[:, None]
f = sciax.pmap(lambda v: (lax.psum(v, "i"), lax.axis_index("i"),
                          lax.all_gather(v[0], "i")), axis_name="i")
total, index, gathered = f(x)
eager = float(snp.sum(snp.ones(3)))  # ordinary computations still run locally
print(json.dumps({"total": np.asarray(total).tolist(),
                  "index": np.asarray(index).tolist(),
                  "gathered": np.asarray(gathered).tolist(), "eager": eager,
                  "count": sciax.distributed.process_count(),
                  "devices": len(sciax.devices())}))
sciax.distributed.shutdown()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run_two(local: int) -> list[dict]:
    address = f"127.0.0.1:{_free_port()}"
    env = dict(os.environ,
               PYTHONPATH=_REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = textwrap.dedent(_WORKER)
    procs = [subprocess.Popen([sys.executable, "-c", code, address, str(pid),
                               str(local)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for pid in (0, 1)]
    results = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=90)
            assert p.returncode == 0, err[-3000:]
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return results


def test_two_processes_psum():
    # two local devices each, so the test also checks that replicas are
    # numbered process by process (one device each works the same way)
    local = 2
    r0, r1 = _run_two(local)
    # members: process 0 holds 0..local-1, process 1 holds 10..10+local-1
    members = [10.0 * p + i for p in (0, 1) for i in range(local)]
    for pid, r in enumerate((r0, r1)):
        assert r["count"] == 2 and r["devices"] == 2 * local
        assert r["total"] == [[sum(members)] * 2] * local
        assert r["index"] == [pid * local + i for i in range(local)]
        assert r["gathered"] == [members] * local
        assert r["eager"] == 3.0


def test_initialize_after_backend_started():
    sciax.numpy.ones(1)  # the backend exists now
    with pytest.raises(RuntimeError, match="before any sciax computation"):
        sciax.distributed.initialize("127.0.0.1:1", 2, 0)


def test_process_defaults():
    assert sciax.distributed.process_count() == 1
    assert sciax.distributed.process_index() == 0
