"""Flat memory over eager calls (issue 13): calling a public function again
with the same signature compiles nothing, grows no cache and no memory; a
sweep over many shapes stays within the LRU bounds (sciax._src.lru).

The slow test runs every public sciax.numpy, sciax.numpy.linalg,
sciax.numpy.fft and sciax.linalg function; the default ones check the bounds
on a few functions with small cache sizes."""

from __future__ import annotations

import gc
import os
import tracemalloc
import warnings

import numpy as np
import pytest

import sciax
import sciax.linalg
import sciax.numpy as snp
from sciax import lax
from sciax._src import dispatch, lru
from sciax._src.jit import JitWrapped
from tests.numpy.test_np_eager_programs import (CANDIDATES, M, V, _executables,
                                                _public_functions, _sample)


def _cache_entries() -> int:
    """Entries over every live bounded cache of the process."""
    return sum(len(c) for c in list(lru._live.values()))


def _rss() -> int | None:
    """Resident set size in bytes (Linux), or None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


# sciax.linalg's functions take square matrices, matrix/vector pairs, sizes
M3 = snp.asarray(np.asarray(M) @ np.asarray(M).T + np.eye(3))  # SPD
LINALG_CANDIDATES = [(M3,), (M3, M3), (M3, V[:3]), (V[:3],), (V[:3], V[:3]),
                     (M3, M3, M3), (M3, 1), (4,)]


def _linalg_sample(fn, name):
    for args in LINALG_CANDIDATES:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                getattr(fn, "__wrapped__", fn)(*args)
        except Exception:
            continue
        return args
    return None


# NumPy's process-wide settings: calling them with sample arguments would leak
# into later tests in the same worker (set_printoptions(6) once changed how a
# doctest in another module printed)
_GLOBAL_STATE = {"set_printoptions", "printoptions", "seterr", "seterrcall", "errstate",
                 "setbufsize"}


def _calls():
    """``(name, thunk)`` for every public function that accepts a sample."""
    out = []
    for module in (snp, snp.linalg, snp.fft):
        names = sorted(n for n in vars(module) if not n.startswith("_")
                       and n not in _GLOBAL_STATE
                       and callable(getattr(module, n))
                       and not isinstance(getattr(module, n), type))
        for name in names:
            fn = getattr(module, name)
            args, _ = (_sample(fn, name) if hasattr(fn, "_eager_cache")
                       else _sample_direct(fn, name))
            if args is not None:
                out.append((f"{module.__name__}.{name}", fn, args))
    for name in _public_functions(sciax.linalg):
        fn = getattr(sciax.linalg, name)
        args = _linalg_sample(fn, name)
        if args is not None:
            out.append((f"sciax.linalg.{name}", fn, args))
    return out


def _sample_direct(fn, name):
    for args in CANDIDATES:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = fn(*args)
        except Exception:
            continue
        return args, want
    return None, None


def _run(calls, times):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(times):
            for _, fn, args in calls:
                fn(*args)


@pytest.mark.slow  # compiles a program for each of ~400 functions
def test_every_public_function_repeated_compiles_and_grows_nothing(monkeypatch):
    calls = _calls()
    assert len(calls) > 300, len(calls)
    _run(calls, 3)  # op by op, then compiled, then a cache hit
    gc.collect()
    count = _executables(monkeypatch)
    entries = _cache_entries()
    rss0 = _rss()
    tracemalloc.start()
    _run(calls, 1)
    gc.collect()
    before = tracemalloc.take_snapshot()
    _run(calls, 4)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    rss1 = _rss()
    new = count[0]
    # per function: which ones still compile on a repeated call
    if new:
        culprits = []
        for name, fn, args in calls:
            n0 = count[0]
            _run([(name, fn, args)], 1)
            if count[0] != n0:
                culprits.append(name)
        pytest.fail(f"{new} executables compiled on repeated calls: {culprits}")
    assert _cache_entries() == entries
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    print(f"{len(calls)} functions x 4 calls: {new} compiles, {entries} cache "
          f"entries kept, Python memory {grown:+d} B, RSS "
          f"{'-' if rss0 is None else f'{(rss1 - rss0) / 2**20:+.1f} MB'}")
    # 4 x ~400 calls: a leak of even 1 KB per call would be ~1.6 MB; allow
    # interpreter noise (free lists, interned objects) of a few hundred KB
    assert grown < 256 * 1024, f"Python memory grew by {grown} bytes"
    if rss0 is not None:
        # the process as a whole (XLA's buffers and executables included):
        # allocator noise of a few MB, not a per-call leak
        assert rss1 - rss0 < 24 << 20, f"RSS grew by {(rss1 - rss0) >> 20} MB"


@sciax.custom_jvp
def _softplus(x):
    return snp.logaddexp(x, 0.0)


@_softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _softplus(x), t * lax.logistic(x)


def test_repeated_eager_calls_grow_no_cache(monkeypatch):
    a = snp.asarray(np.arange(1.0, 10.0).reshape(3, 3) + 5 * np.eye(3))
    calls = [("std", snp.std, (V,)), ("norm", snp.linalg.norm, (V,)),
             ("det", sciax.linalg.det, (a,)),
             ("custom_jvp", _softplus, (V,))]
    _run(calls, 3)
    count = _executables(monkeypatch)
    entries = _cache_entries()
    _run(calls, 20)
    assert count[0] == 0
    assert _cache_entries() == entries


def test_sweep_over_shapes_stays_within_the_bounds():
    f = sciax.jit(lambda x: lax.sin(x) * 2.0)
    with sciax.config.override(jit_cache_size=3, eager_cache_size=5):
        for n in range(1, 7):
            x = snp.ones(n + 100)  # shapes no other test uses
            f(x)
            snp.ptp(x), snp.ptp(x)  # the second call compiles a program
            lax.cos(x)
            assert len(f._cache) <= 3 and len(f._trace_cache) <= 3
            (prog,) = [p for p in snp.ptp._eager_cache.values()
                       if isinstance(p, JitWrapped)]
            assert len(prog._cache) <= 3
            assert len(dispatch._primitive_cache) <= 5
        # least recently used goes first: the latest shapes are kept
        assert all(k[-1][0] == (n + 100,) for k, n in zip(f._cache, (4, 5, 6)))
    assert snp.ptp._eager_cache.maxsize == sciax.config.jit_cache_size


def test_cache_size_options_validate():
    with pytest.raises(TypeError, match="jit_cache_size"):
        sciax.config.update("jit_cache_size", 0)
    with pytest.raises(TypeError, match="eager_cache_size"):
        sciax.config.update("eager_cache_size", 2.5)
