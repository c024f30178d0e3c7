"""The compile log: with ``config.log_compiles`` on, every first call of a jitted
function for a new signature logs where its time went (JAX's
``jax_log_compiles`` in spirit), e.g.::

    sciax: first call of loss(f64[100]): trace 12.0 ms, lower 3.1 ms,
    compile 85.2 ms (compiled), run 0.2 ms

``compile`` is XLA's time, or the time to reload the program from the
persistent cache ("loaded"); ``run`` is the first execution's dispatch.  The
record carries the numbers as ``record.sciax_timings`` (a dict, in seconds)
for tools such as ``benchmarks/startup.py``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from sciax._src.backend import compilation_cache

logger = logging.getLogger("sciax")


def log_first_call(entry: Any, name: str, avals: Sequence[Any], trace_s: float,
                   lower_compile_s: float) -> None:
    """Log the split of ``entry``'s first call once it has run (the entry's
    ``run`` is wrapped for one call, then restored)."""
    last = compilation_cache.last
    compile_s = min(last["seconds"], lower_compile_s)
    timings = {"trace": trace_s, "lower": lower_compile_s - compile_s,
               "compile": compile_s, "source": last["source"]}
    raw = entry.run

    def first_run(bufs: Any) -> Any:
        t0 = time.perf_counter()
        out = raw(bufs)
        timings["run"] = time.perf_counter() - t0
        entry.run = raw
        sig = ", ".join(a.str_short() for a in avals)
        logger.warning(
            "sciax: first call of %s(%s): trace %.1f ms, lower %.1f ms, compile "
            "%.1f ms (%s), run %.1f ms", name, sig, 1e3 * timings["trace"],
            1e3 * timings["lower"], 1e3 * timings["compile"], timings["source"],
            1e3 * timings["run"], extra={"sciax_timings": timings})
        return out

    entry.run = first_run
