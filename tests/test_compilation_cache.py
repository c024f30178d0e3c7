"""The persistent compilation cache: reload across processes, damaged entries,
the size bound, turning it off, and that tests never touch the user's cache."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax._src.backend import compilation_cache as cc


@pytest.fixture
def cache_dir(tmp_path):
    """A fresh cache directory that stores every program, however fast its compile."""
    with sciax.config.override(compilation_cache_dir=str(tmp_path),
                               compilation_cache_min_compile_time=0.0):
        yield tmp_path


def _entries(directory) -> list[str]:
    return sorted(p for p in os.listdir(directory) if p.endswith(".bin"))


def _program(x):
    # A fresh jit object each time, so the in-memory caches cannot answer.
    return sciax.jit(lambda v: snp.sin(v) * 3.0 + snp.cumsum(v))(x)


def _expected(x):
    return np.sin(x) * 3.0 + np.cumsum(x)


def test_suite_uses_a_temporary_cache():
    directory = sciax.config.compilation_cache_dir
    if directory is None:  # SCIAX_COMPILATION_CACHE=0: nothing is written at all
        return
    real = os.path.realpath(directory)
    assert real.startswith(os.path.realpath(tempfile.gettempdir()))
    home_cache = os.path.realpath(os.path.expanduser("~/.cache/sciax"))
    assert not real.startswith(home_cache)


@pytest.mark.slow  # two fresh processes
def test_reload_in_a_new_process_gives_identical_results(tmp_path):
    code = textwrap.dedent("""
        import numpy as np, sciax, sciax.numpy as snp
        from sciax._src.backend import compilation_cache as cc
        def rosen(x):
            return snp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
        h = np.asarray(sciax.jit(sciax.hessian(rosen))(np.linspace(-1.0, 2.0, 7)))
        print(cc.stats["hits"], cc.stats["misses"], h.tobytes().hex())
    """)
    env = {**os.environ, "SCIAX_COMPILATION_CACHE_DIR": str(tmp_path),
           "SCIAX_COMPILATION_CACHE_MIN_COMPILE_TIME": "0"}

    def run():
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                              text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        hits, misses, hexval = proc.stdout.split()
        return int(hits), int(misses), hexval

    hits1, misses1, first = run()
    assert misses1 > 0 and _entries(tmp_path)
    hits2, misses2, second = run()
    assert misses2 == 0 and hits2 == hits1 + misses1
    assert second == first  # bit for bit
    # and right: Rosenbrock's Hessian in closed form
    x = np.linspace(-1.0, 2.0, 7)
    h = np.frombuffer(bytes.fromhex(second)).reshape(7, 7)
    diag = np.r_[1200 * x[:-1] ** 2 - 400 * x[1:] + 2, 0.0] + np.r_[0.0, [200] * 6]
    ref = np.diag(diag)
    ref += np.diag(-400 * x[:-1], 1) + np.diag(-400 * x[:-1], -1)
    np.testing.assert_allclose(h, ref, rtol=1e-12, atol=1e-9)


def test_hit_in_the_same_process(cache_dir):
    x = np.linspace(0.0, 1.0, 5)
    _program(x)
    assert len(_entries(cache_dir)) >= 1
    hits = cc.stats["hits"]
    np.testing.assert_allclose(_program(x), _expected(x), rtol=1e-14)
    assert cc.stats["hits"] > hits


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "foreign", "empty"])
def test_damaged_entry_is_recompiled(cache_dir, damage):
    x = np.linspace(0.0, 1.0, 6)
    _program(x)
    names = _entries(cache_dir)
    paths = [os.path.join(cache_dir, n) for n in names]
    blobs = {p: open(p, "rb").read() for p in paths}
    for p, data in blobs.items():
        if damage == "truncate":
            data = data[: len(data) // 2]
        elif damage == "flip":
            data = data[:-10] + bytes(b ^ 0xFF for b in data[-10:])
        elif damage == "garbage":
            data = os.urandom(len(data))
        elif damage == "foreign":  # a whole, valid entry, but of another program
            data = blobs[paths[(paths.index(p) + 1) % len(paths)]]
            if len(paths) == 1:
                data = data.replace(data[8:72], b"0" * 64)
        else:
            data = b""
        with open(p, "wb") as f:
            f.write(data)
    errors = cc.stats["errors"]
    np.testing.assert_allclose(_program(x), _expected(x), rtol=1e-14)
    assert cc.stats["errors"] >= errors + 1
    # the recompiled programs replaced the damaged entries
    for p, data in blobs.items():
        assert open(p, "rb").read()[:72] == data[:72]


def test_deserialisation_failure_is_a_miss(cache_dir, monkeypatch):
    x = np.arange(4.0)
    _program(x)

    def broken(*args, **kwargs):
        raise RuntimeError("incompatible executable")

    client = sciax._src.backend.client.get_client()
    monkeypatch.setattr(type(client), "deserialize_executable", broken, raising=False)
    errors = cc.stats["errors"]
    np.testing.assert_allclose(_program(x), _expected(x), rtol=1e-14)
    assert cc.stats["errors"] > errors


def test_evict_removes_least_recently_used(tmp_path):
    for i in range(5):
        p = tmp_path / f"{i:064x}.bin"
        p.write_bytes(b"x" * 100)
        os.utime(p, (1000 + i, 1000 + i))
    (tmp_path / "unrelated.txt").write_bytes(b"y" * 1000)
    cc.evict(str(tmp_path), 250)
    assert _entries(tmp_path) == [f"{3:064x}.bin", f"{4:064x}.bin"]
    assert (tmp_path / "unrelated.txt").exists()
    cc.evict(str(tmp_path), 10_000)  # under the bound: nothing goes
    assert len(_entries(tmp_path)) == 2


def test_size_bound_evicts_while_compiling(cache_dir):
    x = np.arange(3.0)
    _program(x)
    size = max(os.path.getsize(os.path.join(cache_dir, n)) for n in _entries(cache_dir))
    with sciax.config.override(compilation_cache_max_size=size):
        for k in range(3):
            sciax.jit(lambda v, k=k: snp.cos(v) + k)(x)
            total = sum(os.path.getsize(os.path.join(cache_dir, n))
                        for n in _entries(cache_dir))
            assert total <= size
    assert len(_entries(cache_dir)) == 1


def test_cache_can_be_turned_off(tmp_path):
    with sciax.config.override(compilation_cache_dir=None,
                               compilation_cache_min_compile_time=0.0):
        before = dict(cc.stats)
        x = np.arange(3.0)
        np.testing.assert_allclose(_program(x), _expected(x), rtol=1e-14)
        assert cc.stats == before
    assert not os.listdir(tmp_path)


def test_environment_turns_the_cache_off():
    env = {**os.environ, "SCIAX_COMPILATION_CACHE": "0"}
    proc = subprocess.run(
        [sys.executable, "-c",
         "import sciax; print(sciax.config.compilation_cache_dir)"],
        capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "None"


def test_host_callback_programs_are_not_stored(cache_dir):
    seen = []

    def f(v):
        sciax.debug.callback(lambda a: seen.append(np.asarray(a)), v)
        return v * 2.0

    x = sciax.device_put(np.arange(3.0))
    before = _entries(cache_dir)
    np.testing.assert_allclose(sciax.jit(f)(x), [0.0, 2.0, 4.0])
    assert len(seen) == 1
    assert _entries(cache_dir) == before


def test_bad_cache_options_name_the_problem():
    with pytest.raises(TypeError, match="compilation_cache_max_size.*bytes"):
        sciax.config.update("compilation_cache_max_size", -1)
    with pytest.raises(TypeError, match="compilation_cache_dir.*None"):
        sciax.config.update("compilation_cache_dir", 3)
    with pytest.raises(TypeError, match="min_compile_time.*seconds"):
        sciax.config.update("compilation_cache_min_compile_time", "fast")


def test_log_compiles_splits_the_first_call(caplog, cache_dir):
    f = sciax.jit(lambda v: snp.tanh(v) @ v)
    x = np.linspace(0.0, 1.0, 4)
    with sciax.config.override(log_compiles=True), caplog.at_level("WARNING", "sciax"):
        np.testing.assert_allclose(f(x), np.tanh(x) @ x, rtol=1e-14)
        f(x)  # a cache hit in memory: not logged again
    records = [r for r in caplog.records if hasattr(r, "sciax_timings")]
    assert len(records) == 1
    assert "first call of <lambda>(f64[4])" in records[0].getMessage()
    t = records[0].sciax_timings
    assert set(t) == {"trace", "lower", "compile", "run", "source"}
    assert all(t[k] >= 0 for k in ("trace", "lower", "compile", "run"))
    assert t["source"] in ("compiled", "loaded")


def test_entries_written_on_another_cpu_are_not_loaded(cache_dir, monkeypatch):
    """XLA compiles for the host CPU's features: the key holds the CPU, so an
    entry from a machine with other instruction sets is a miss, not a crash."""
    f = sciax.jit(lambda x: snp.cos(x) * 3.0 - x)
    x = snp.arange(4.0)
    want = np.asarray(f(x))
    hits = cc.stats["hits"]
    same = sciax.jit(lambda x: snp.cos(x) * 3.0 - x)  # traced anew: a hit
    np.testing.assert_array_equal(np.asarray(same(x)), want)
    assert cc.stats["hits"] == hits + 1
    monkeypatch.setattr(cc, "_host_cpu", ["some other CPU\nflags without avx"])
    misses = cc.stats["misses"]
    g = sciax.jit(lambda x: snp.cos(x) * 3.0 - x)  # the same program, traced anew
    np.testing.assert_array_equal(np.asarray(g(x)), want)
    assert cc.stats["misses"] == misses + 1
