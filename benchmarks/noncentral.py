"""sciax.stats' noncentral distributions (nct, ncf, ncx2, rice) against SciPy:
time and agreement.

Run ``python benchmarks/noncentral.py`` (``--n`` points per row, default
10^5; ``--methods`` from pdf, cdf, sf, ppf, isf; ``--dists`` to pick rows).
Each row times one method of one parameter set on ``n`` points spread over
the bulk and both tails (SciPy's ``ppf`` of a uniform grid of probabilities
in ``[1e-8, 1 - 1e-8]``; ppf and isf take that grid itself): sciax jitted (steady
state; the first call, trace and compile included, is printed apart) and
SciPy, best of ``--rounds`` alternating rounds of the median of ``--reps``
calls (as ``benchmarks/stats.py``), plus the largest relative difference
from SciPy.  float64.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import scipy.stats as ss  # noqa: E402

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from sciax import stats  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats import _steady  # noqa: E402  (benchmarks/stats.py's timer)

ROWS = [("nct", (5.0, 0.5)), ("nct", (30.0, 3.0)), ("nct", (2.5, -1.5)),
        ("nct", (10.0, 20.0)), ("ncf", (3.0, 10.0, 1.5)), ("ncf", (7.0, 25.0, 80.0)),
        ("ncx2", (3.0, 2.0)), ("ncx2", (0.8, 20.0)), ("rice", (3.0,))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--methods", default="pdf,cdf,sf")
    ap.add_argument("--dists", default="nct,ncf")
    args = ap.parse_args()
    print(f"{args.n} points; ms, best of {args.rounds} rounds of the median of "
          f"{args.reps}; err = max |sciax - SciPy| / |SciPy|")
    print(f"{'dist':4s} {'params':18s} {'method':6s} {'sciax':>9s} {'scipy':>9s} "
          f"{'ratio':>7s} {'1st call s':>10s} {'err':>9s}")
    for name, p in ROWS:
        if name not in args.dists.split(","):
            continue
        ref = getattr(ss, name)
        grid = np.linspace(1e-8, 1 - 1e-8, args.n)
        for m in args.methods.split(","):
            x = grid if m in ("ppf", "isf") else ref.ppf(grid, *p)
            xs = snp.asarray(x)
            f = sciax.jit(lambda v, m=m, d=getattr(stats, name): getattr(d, m)(v, *p))
            t0 = time.perf_counter()
            ours = np.asarray(f(xs))
            first = time.perf_counter() - t0
            r = getattr(ref, m)(x, *p)
            with np.errstate(invalid="ignore", divide="ignore"):
                err = np.nanmax(np.where(ours == r, 0.0, np.abs(ours - r) / np.abs(r)))
            best = [float("inf")] * 2
            for _ in range(args.rounds):
                best[0] = min(best[0], _steady(lambda: f(xs), args.reps))
                best[1] = min(best[1], _steady(lambda: getattr(ref, m)(x, *p),
                                               args.reps))
            print(f"{name:4s} {str(p):18s} {m:6s} {best[0] * 1e3:9.1f} "
                  f"{best[1] * 1e3:9.1f} {best[0] / best[1]:6.1f}x {first:10.2f} "
                  f"{err:9.1e}", flush=True)


if __name__ == "__main__":
    main()
