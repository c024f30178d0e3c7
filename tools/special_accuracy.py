"""Worst relative error of each ``sciax.special`` function against SciPy (or
mpmath, where SciPy is known to be weak) on grids covering its domain.

Run ``python tools/special_accuracy.py`` for the table (``--family gamma`` or
``--names gamma,erf`` to select, ``--markdown`` for a table to paste into the
docs).  Grids live in ``tools/special_grids/<family>.py``; a family registers
its entries there with ``special_grids.register`` (see that package's
docstring), so families never edit each other's files.

The error is ``|ours - ref| / |ref|`` over points where the reference is
finite and normal (XLA on CPU flushes subnormals to zero); points where one
side is NaN/inf and the other is not are counted separately as mismatches.
Each function is evaluated once, jitted, over its whole grid.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TINY = np.finfo(np.float64).tiny


def compare(ours: Any, ref: Any, atol: float = 0.0) -> tuple[float, int, int]:
    """``(worst relative error, index of it, number of NaN/inf mismatches)``;
    the error is relative to ``max(|ref|, atol)``."""
    ours = np.asarray(ours)
    ref = np.asarray(ref)
    ours, ref = np.broadcast_arrays(ours, ref)
    with np.errstate(all="ignore"):
        fin = np.isfinite(ref) & (np.abs(ref) >= TINY) | (ref == 0)
        mism = (np.isnan(ours) != np.isnan(ref)) | (np.isinf(ref) & (ours != ref))
        mism &= ~((ref != 0) & (np.abs(ref) < TINY))
        scale = np.maximum(np.abs(ref), atol)
        err = np.where(fin & (scale != 0), np.abs(ours - ref) / scale,
                       np.where(fin & (ref == 0), np.abs(ours), 0.0))
    err = np.where(np.isnan(err), np.inf, err)
    i = int(np.argmax(err)) if err.size else 0
    return (float(err.flat[i]) if err.size else 0.0), i, int(mism.sum())


def evaluate(entry: Any) -> list[dict]:
    """Rows (one per output) for one registry entry."""
    import scipy.special as sc

    import sciax
    import sciax.numpy as snp
    import sciax.special as ss

    args = entry.grid()
    fn = entry.fn or getattr(ss, entry.name)
    ref_fn = entry.reference or getattr(sc, entry.name)
    t0 = time.perf_counter()
    ours = (sciax.jit(fn) if entry.jit else fn)(*(snp.asarray(a) for a in args))
    elapsed = time.perf_counter() - t0
    with np.errstate(all="ignore"):
        ref = ref_fn(*args)
    outs = ours if isinstance(ours, tuple) else (ours,)
    refs = ref if isinstance(ref, tuple) else (ref,)
    rows = []
    bargs = np.broadcast_arrays(*args)
    for k, (o, r) in enumerate(zip(outs, refs)):
        o = np.asarray(o)
        if np.iscomplexobj(o) or np.iscomplexobj(r):
            r = np.asarray(r)
            with np.errstate(all="ignore"):
                e = np.abs(o - r) / np.abs(r)
            e = np.where(np.isfinite(e), e, 0.0)
            worst, i, mism = float(e.max()), int(e.argmax()), 0
        else:
            worst, i, mism = compare(o, r, entry.atol)
        at = tuple(complex(a.flat[i]) if np.iscomplexobj(a) else float(a.flat[i])
                   for a in bargs)
        name = entry.name + (f"[{k}]" if len(outs) > 1 else "")
        rows.append(dict(name=name, family=entry.family, n=int(bargs[0].size),
                         worst=worst, at=at, mismatches=mism, seconds=elapsed,
                         note=entry.note,
                         ref="custom" if entry.reference else "scipy"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", help="only this family (gamma, error, ...)")
    parser.add_argument("--names", help="comma-separated function names")
    parser.add_argument("--markdown", action="store_true", help="markdown table")
    args = parser.parse_args(argv)
    import special_grids

    entries = special_grids.load_all()
    if args.family:
        entries = [e for e in entries if e.family == args.family]
    if args.names:
        wanted = set(args.names.split(","))
        entries = [e for e in entries if e.name in wanted]
    rows = []
    for e in entries:
        try:
            rows.extend(evaluate(e))
        except Exception as exc:  # report and go on: one broken entry is a row
            rows.append(dict(name=e.name, family=e.family, n=0, worst=float("nan"),
                             at=(), mismatches=-1, seconds=0.0, ref="",
                             note=f"error: {type(exc).__name__}: {exc}"[:120]))
    if args.markdown:
        print("| function | family | points | worst rel. error | reference | note |")
        print("|---|---|---:|---:|---|---|")
        for r in rows:
            note = r["note"].replace("|", "\\|")  # a pipe would end the cell
            print(f"| `{r['name']}` | {r['family']} | {r['n']} | {r['worst']:.1e} | "
                  f"{r['ref']} | {note} |")
    else:
        for r in rows:
            at = ", ".join(f"{v:.6g}" for v in r["at"])
            mm = f"  {r['mismatches']} nan/inf mismatches" if r["mismatches"] else ""
            print(f"{r['name']:>16s} {r['family']:>12s} {r['n']:6d}  "
                  f"worst {r['worst']:9.2e} at ({at}) vs {r['ref']}{mm}"
                  f"  {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
