"""sciax.integrate.cubature side by side with scipy.integrate.cubature.

Run ``python benchmarks/cubature.py`` (``--rounds N``, default 5).  Each case
is one call of each library per round, the two taking turns so that machine
load hits both alike; the figure is the median wall time (ms) after one
warm-up call (sciax compiles once per integrand), with the subdivision counts,
which the two libraries share.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
import scipy.integrate as si

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sciax.numpy as snp  # noqa: E402
from sciax.integrate import cubature  # noqa: E402

C3 = np.array([1.0, 2.0, 3.0])
A4 = np.array([5.0, 5.0, 5.0, 5.0])
U4 = np.array([0.3, 0.6, 0.4, 0.5])

CASES = [
    # name, sciax integrand, numpy integrand, a, b, keyword arguments
    ("Gaussian over the plane, gk21",
     lambda x: snp.exp(-snp.sum(x * x, axis=-1)),
     lambda x: np.exp(-np.sum(x * x, axis=-1)),
     [-np.inf, -np.inf], [np.inf, np.inf], {}),
    ("cos(c.x) on the cube, Genz-Malik, rtol 1e-10",
     lambda x: snp.cos(x @ snp.asarray(C3)),
     lambda x: np.cos(x @ C3),
     [0.0] * 3, [1.0] * 3, dict(rule="genz-malik", rtol=1e-10)),
    ("Genz product peak, 4-D, Genz-Malik, rtol 1e-7",
     lambda x: snp.prod(1.0 / (A4 ** -2 + (x - U4) ** 2), axis=-1),
     lambda x: np.prod(1.0 / (A4 ** -2 + (x - U4) ** 2), axis=-1),
     [0.0] * 4, [1.0] * 4, dict(rule="genz-malik", rtol=1e-7)),
]


def _time(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    opts = ap.parse_args()
    print("| case | subdivisions | sciax ms | SciPy ms | SciPy / sciax |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, fs, fn, a, b, kw in CASES:
        an, bn = np.asarray(a, float), np.asarray(b, float)

        def run_sx():
            return float(cubature(fs, a, b, **kw).estimate)

        def run_sp():
            return si.cubature(fn, an, bn, **kw).estimate

        first = _time(run_sx)
        ref = si.cubature(fn, an, bn, **kw)
        res = cubature(fs, a, b, **kw)
        assert abs(float(res.estimate) - ref.estimate) <= 1e-12 * abs(ref.estimate)
        ts, tp = [], []
        for _ in range(opts.rounds):
            ts.append(_time(run_sx))
            tp.append(_time(run_sp))
        ms, mp = 1e3 * statistics.median(ts), 1e3 * statistics.median(tp)
        print(f"| {name} (first call {first:.1f} s) | {int(res.subdivisions)} / "
              f"{ref.subdivisions} | {ms:.2f} | {mp:.2f} | {mp / ms:.1f}x |",
              flush=True)


if __name__ == "__main__":
    main()
