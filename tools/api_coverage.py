"""Which of NumPy's main-namespace callables ``sciax.numpy`` provides.

Run ``python tools/api_coverage.py`` for the count, ``--missing`` to list the
names sciax.numpy lacks and ``--present`` for those it has.  A NumPy name
counts as covered when ``sciax.numpy`` has an attribute of that name that is
callable (functions, dtype classes, ``finfo``...).

NumPy's "main-namespace callables" are the public (no leading underscore)
attributes of ``numpy`` that are callable, excluding submodules, warning and
exception classes.  The list depends on the installed NumPy version; the
header line names it.
"""

from __future__ import annotations

import argparse
import os
import sys
import types

import numpy as np

# run from a checkout without installing: the repository root is importable
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def numpy_callables() -> list[str]:
    """The public callables of ``numpy``'s main namespace, sorted."""
    names = []
    for name in dir(np):
        if name.startswith("_"):
            continue
        obj = getattr(np, name, None)
        if obj is None or isinstance(obj, types.ModuleType) or not callable(obj):
            continue
        if isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        names.append(name)
    return sorted(names)


def coverage() -> tuple[list[str], list[str]]:
    """``(present, missing)``: NumPy callables sciax.numpy has and lacks."""
    import sciax.numpy as snp

    present, missing = [], []
    for name in numpy_callables():
        (present if callable(getattr(snp, name, None)) else missing).append(name)
    return present, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="list missing names")
    parser.add_argument("--present", action="store_true", help="list covered names")
    args = parser.parse_args(argv)
    present, missing = coverage()
    total = len(present) + len(missing)
    print(f"sciax.numpy covers {len(present)} of the {total} callables in NumPy "
          f"{np.__version__}'s main namespace ({len(missing)} missing)")
    if args.present:
        print("\n".join(present))
    if args.missing:
        print("\n".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
