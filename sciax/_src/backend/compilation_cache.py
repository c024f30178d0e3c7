"""The persistent compilation cache: compiled programs kept on disk between runs.

A script pays XLA's compile time on its first call of every program; with the
cache, a second process reloads the executable instead (a program that took
100 ms to compile reloads in about 2 ms).  The backend compiles through
:func:`compile_and_load`, which looks the program up first.

Entries are files ``<key>.bin`` in ``config.compilation_cache_dir``, where the
key hashes everything that changes the binary: the StableHLO text, the compile
options, the jaxlib version, the platform, device kind and devices, the host
CPU's model and instruction-set flags, and sciax's version.  A file holds a
header (magic, key, payload hash) and jaxlib's serialised executable.  Writes go to a temporary file renamed into place, so a
concurrent reader sees a whole entry or none; anything that fails to read,
check or deserialise is a miss (and is recompiled and overwritten), never an
error.  Reading an entry refreshes its modification time, which orders the
least-recently-used eviction that keeps the directory under
``config.compilation_cache_max_size``.  Programs that compiled in less than
``config.compilation_cache_min_compile_time`` are not stored, nor are programs
with host callbacks (their Python functions cannot be serialised).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from typing import Any

import jaxlib
from jaxlib import xla_client as xc

from sciax._src.version import __version__
from sciax._src.config import config

logger = logging.getLogger("sciax")

_MAGIC = b"SCIAXCC1"
_SUFFIX = ".bin"
# bumped when the entry format or the key's recipe changes
_FORMAT = "2"

# counts since start-up, for tests and the compile log
stats = {"hits": 0, "misses": 0, "stores": 0, "errors": 0, "evictions": 0}
# the latest compile_and_load: seconds in XLA (or reloading) and how it went
# ("compiled", "loaded", "uncached"), read by the compile log
last = {"seconds": 0.0, "source": "uncached"}


def _sciax_version() -> str:
    return __version__


_host_cpu: list[str] = []


def host_cpu() -> str:
    """The host CPU's model and instruction-set flags (from /proc/cpuinfo on
    Linux, else the platform's processor string), as a string.

    XLA compiles CPU programs for the features of the CPU it runs on, so an
    entry written on one CPU (say with AVX-512) must not be loaded on another
    that lacks them: the host CPU is part of every key.  (A cache directory in
    $HOME can outlive a change of machine.)
    """
    if not _host_cpu:
        info = ""
        try:
            with open("/proc/cpuinfo") as f:
                lines = f.read().splitlines()
            wanted = ("model name", "flags", "Features", "CPU part")
            info = "\n".join(sorted({ln.split(":", 1)[1].strip() for ln in lines
                                     if ln.split(":", 1)[0].strip() in wanted}))
        except (OSError, IndexError):
            pass
        if not info:
            import platform  # (stdlib; only where /proc/cpuinfo is missing)
            info = f"{platform.machine()} {platform.processor()}"
        _host_cpu.append(info)
    return _host_cpu[0]


def cache_key(module_text: bytes, devices: Any, options: Any, client: Any) -> str:
    """The hex key of a program: a SHA-256 of all that changes its binary."""
    h = hashlib.sha256()
    devs = list(devices)
    parts = [
        _FORMAT, _sciax_version(), jaxlib.__version__, client.platform,
        client.platform_version, str(client.process_index()), host_cpu(),
        ",".join(f"{d.device_kind}:{d.id}" for d in devs),
    ]
    for p in parts:
        h.update(p.encode())
        h.update(b"\0")
    h.update(options.SerializeAsString())
    h.update(b"\0")
    h.update(module_text)
    return h.hexdigest()


def _path(directory: str, key: str) -> str:
    return os.path.join(directory, key + _SUFFIX)


def get(key: str, client: Any, device_list: Any, options: Any) -> Any | None:
    """The cached executable of ``key``, or None (missing, corrupt, foreign)."""
    directory = config.compilation_cache_dir
    if directory is None:
        return None
    path = _path(directory, key)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(_MAGIC) + 64 + 32
    payload = data[head:]
    if (len(data) <= head or not data.startswith(_MAGIC)
            or data[len(_MAGIC):len(_MAGIC) + 64] != key.encode()
            or data[len(_MAGIC) + 64:head] != hashlib.sha256(payload).digest()):
        stats["errors"] += 1
        logger.debug("compilation cache: ignoring a damaged entry %s", path)
        return None
    try:
        exe = client.deserialize_executable(payload, device_list, options)
    except Exception as e:  # noqa: BLE001 - any failure to reload is a miss
        stats["errors"] += 1
        logger.debug("compilation cache: cannot reload %s: %s", path, e)
        return None
    try:
        os.utime(path)  # most recently used
    except OSError:
        pass
    return exe


def put(key: str, client: Any, executable: Any) -> None:
    """Store ``executable`` under ``key``; failures (disk full, read-only
    directory) are logged and otherwise ignored."""
    directory = config.compilation_cache_dir
    if directory is None:
        return
    try:
        payload = client.serialize_executable(executable)
        os.makedirs(directory, exist_ok=True)
        data = b"".join([_MAGIC, key.encode(), hashlib.sha256(payload).digest(),
                         payload])
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, _path(directory, key))
        except BaseException:
            os.unlink(tmp)
            raise
        stats["stores"] += 1
        evict(directory, config.compilation_cache_max_size)
    except Exception as e:  # noqa: BLE001 - a cache must never break a program
        logger.warning("sciax compilation cache: could not store an entry in %s: %s",
                       directory, e)


def evict(directory: str, max_size: int) -> None:
    """Delete least recently used entries until ``directory`` holds at most
    ``max_size`` bytes."""
    entries = []
    total = 0
    with os.scandir(directory) as it:
        for e in it:
            if not e.name.endswith(_SUFFIX):
                continue
            try:
                st = e.stat()
            except OSError:  # removed by another process meanwhile
                continue
            entries.append((st.st_mtime, st.st_size, e.path))
            total += st.st_size
    if total <= max_size:
        return
    entries.sort()
    for _, size, path in entries:
        try:
            os.unlink(path)
            stats["evictions"] += 1
        except OSError:
            pass
        total -= size
        if total <= max_size:
            break


def compile_and_load(client: Any, module: Any, device_list: Any,
                     options: Any | None = None, host_callbacks: Any = ()) -> Any:
    """``client.compile_and_load(module, ...)``, through the persistent cache.

    ``module`` is an ``ir.Module``.  Programs with host callbacks bypass the
    cache.
    """
    if options is None:
        options = xc.CompileOptions()
    t0 = time.perf_counter()
    if host_callbacks or config.compilation_cache_dir is None:
        if host_callbacks:
            exe = client.compile_and_load(module, device_list, options,
                                          host_callbacks=list(host_callbacks))
        else:
            exe = client.compile_and_load(module, device_list, options)
        last.update(seconds=time.perf_counter() - t0, source="uncached")
        return exe
    text = str(module).encode()
    key = cache_key(text, device_list, options, client)
    exe = get(key, client, device_list, options)
    if exe is not None:
        stats["hits"] += 1
        last.update(seconds=time.perf_counter() - t0, source="loaded")
        return exe
    stats["misses"] += 1
    t1 = time.perf_counter()
    exe = client.compile_and_load(module, device_list, options)
    seconds = time.perf_counter() - t1
    if seconds >= config.compilation_cache_min_compile_time:
        put(key, client, exe)
    last.update(seconds=time.perf_counter() - t0, source="compiled")
    return exe
