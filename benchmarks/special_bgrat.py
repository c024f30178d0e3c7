"""betainc with and without its BGRAT branch (session 12), in one process.

Run ``python benchmarks/special_bgrat.py`` (``--n`` points, ``--rounds``).
"Without" replaces ``_ibeta_bgrat_use`` by a stub that selects no element,
which is the computation before session 12 (the continued fraction
everywhere); each variant is its own jitted program.  CPU time
(``time.process_time``), the minimum over alternated rounds, on 10^6
points:

- the row of ``benchmarks/special.py`` (a, b uniform on (0.1, 20), x on
  (0, 1)), where ~0.4% of the elements fall in BGRAT's region;
- BGRAT's region itself (a log-uniform on (15, 10^4), b on (0.01, 1), x =
  exp(-u / a) with u log-uniform on (0.1, 30)).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
import sciax.special as ss  # noqa: E402
from sciax.special import _incomplete as inc  # noqa: E402

_REAL = inc._ibeta_bgrat_use


def _none(a, b, x):
    shape = snp.broadcast_shapes(snp.shape(a), snp.shape(b), snp.shape(x))
    return snp.zeros(shape, dtype=bool), x, x


def _variant(on: bool):
    def f(a, b, x):
        inc._ibeta_bgrat_use = _REAL if on else _none
        try:
            return ss.betainc(a, b, x)
        finally:
            inc._ibeta_bgrat_use = _REAL
    return sciax.jit(f)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10 ** 6)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    n = args.n
    rng = np.random.default_rng(0)
    big = 10 ** rng.uniform(np.log10(15), 4, n)
    cases = {
        "special.py's row": (rng.uniform(0.1, 20, n), rng.uniform(0.1, 20, n),
                             rng.uniform(0, 1, n)),
        "BGRAT's region": (big, 10 ** rng.uniform(-2, 0, n),
                           np.exp(-10 ** rng.uniform(-1, np.log10(30), n) / big)),
    }
    fns = {"without": _variant(False), "with": _variant(True)}
    for name, vals in cases.items():
        xs = [snp.asarray(v) for v in vals]
        for f in fns.values():
            np.asarray(f(*xs))                  # compile
        best = dict.fromkeys(fns, np.inf)
        for _ in range(args.rounds):
            for k, f in fns.items():
                t = time.process_time()
                np.asarray(f(*xs))
                best[k] = min(best[k], time.process_time() - t)
        print(f"{name:>18s}: " + ", ".join(f"{k} BGRAT {v * 1e3:.0f} ms"
                                          for k, v in best.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
