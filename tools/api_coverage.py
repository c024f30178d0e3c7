"""Which of NumPy's main-namespace callables ``sciax.numpy`` provides (and,
with ``--scipy-linalg``, which of ``scipy.linalg``'s ``sciax.linalg`` provides).

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


def public_callables(module: types.ModuleType) -> list[str]:
    """The public callables of ``module``'s namespace, sorted (no submodules,
    warnings or exception classes)."""
    names = []
    for name in dir(module):
        if name.startswith("_"):
            continue
        obj = getattr(module, name, None)
        if obj is None or isinstance(obj, types.ModuleType) or not callable(obj):
            continue
        if isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        names.append(name)
    return sorted(names)


def numpy_callables() -> list[str]:
    """The public callables of ``numpy``'s main namespace, sorted."""
    return public_callables(np)


def coverage(scipy_linalg: bool = False) -> tuple[list[str], list[str]]:
    """``(present, missing)``: the reference's callables that sciax has and lacks."""
    if scipy_linalg:
        import scipy.linalg as ref

        import sciax.linalg as ours
    else:
        ref = np
        import sciax.numpy as ours

    present, missing = [], []
    for name in public_callables(ref):
        (present if callable(getattr(ours, name, None)) else missing).append(name)
    return present, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="list missing names")
    parser.add_argument("--present", action="store_true", help="list covered names")
    parser.add_argument("--scipy-linalg", action="store_true",
                        help="count sciax.linalg against scipy.linalg instead")
    args = parser.parse_args(argv)
    present, missing = coverage(args.scipy_linalg)
    total = len(present) + len(missing)
    if args.scipy_linalg:
        import scipy

        print(f"sciax.linalg covers {len(present)} of the {total} callables in "
              f"scipy.linalg {scipy.__version__} ({len(missing)} missing)")
    else:
        print(f"sciax.numpy covers {len(present)} of the {total} callables in NumPy "
              f"{np.__version__}'s main namespace ({len(missing)} missing)")
    if args.present:
        print("\n".join(present))
    if args.missing:
        print("\n".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
