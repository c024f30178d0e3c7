"""Which of NumPy's main-namespace callables ``sciax.numpy`` provides (and,
with ``--scipy-linalg``, which of ``scipy.linalg``'s ``sciax.linalg`` provides;
with ``--scipy-stats``, which of ``scipy.stats``'s ``sciax.stats`` provides;
with ``--jax``, which of ``jax``'s and ``jax.lax``'s ``sciax`` and ``sciax.lax``
provide).

Run ``python tools/api_coverage.py`` for the count, ``--missing`` to list the
names sciax.numpy lacks and ``--present`` for those it has.  A NumPy name
counts as covered when ``sciax.numpy`` has an attribute of that name that is
callable (functions, dtype classes, ``finfo``...).

NumPy's "main-namespace callables" are the public (no leading underscore)
attributes of ``numpy`` that are callable, excluding submodules, warning and
exception classes.  The list depends on the installed NumPy version; the
header line names it.

``--jax`` reads jax's names from the installed ``jax`` package when it can be
imported, else from ``tools/jax_api_names.txt``, a list written once by
``python tools/api_coverage.py --write-jax-names`` (its header names the jax
version).  sciax itself never imports jax; only this tool does.
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


JAX_NAMES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "jax_api_names.txt")


def jax_callables(source: str = "auto") -> tuple[dict[str, list[str]], str]:
    """``({"jax": names, "jax.lax": names}, version)``: the public callables of
    jax and jax.lax, from the installed jax (``source="installed"``), from
    :data:`JAX_NAMES` (``"list"``), or the first that works (``"auto"``)."""
    if source in ("auto", "installed"):
        try:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                import jax
                import jax.lax

                return ({"jax": public_callables(jax),
                         "jax.lax": public_callables(jax.lax)}, jax.__version__)
        except ImportError:
            if source == "installed":
                raise
    names: dict[str, list[str]] = {"jax": [], "jax.lax": []}
    version = "?"
    with open(JAX_NAMES) as f:
        for line in f:
            line = line.strip()
            if line.startswith("# jax "):
                version = line.split()[2].rstrip(":")
            if not line or line.startswith("#"):
                continue
            module, _, name = line.rpartition(".")
            names[module].append(name)
    return names, version


def write_jax_names() -> str:
    """Write :data:`JAX_NAMES` from the installed jax; returns its version."""
    names, version = jax_callables("installed")
    with open(JAX_NAMES, "w") as f:
        f.write(f"# jax {version}: public callables of jax and jax.lax\n"
                "# written by `python tools/api_coverage.py --write-jax-names`; read "
                "by --jax when jax is not installed\n")
        for module in ("jax", "jax.lax"):
            f.writelines(f"{module}.{n}\n" for n in names[module])
    return version


def jax_coverage(source: str = "auto"
                 ) -> tuple[dict[str, tuple[list[str], list[str]]], str]:
    """``({"jax": (present, missing), "jax.lax": (...)}, jax version)``."""
    import sciax
    import sciax.lax

    names, version = jax_callables(source)
    out = {}
    for module, ours in (("jax", sciax), ("jax.lax", sciax.lax)):
        present, missing = [], []
        for name in names[module]:
            (present if callable(getattr(ours, name, None)) else missing).append(name)
        out[module] = (present, missing)
    return out, version


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


def scipy_stats_coverage() -> tuple[list[str], list[str]]:
    """``(present, missing)`` for scipy.stats's callables (distributions
    included) in sciax.stats."""
    import scipy.stats as ref

    import sciax.stats as ours

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
    parser.add_argument("--jax", action="store_true",
                        help="count sciax and sciax.lax against jax and jax.lax")
    parser.add_argument("--write-jax-names", action="store_true",
                        help=f"write {os.path.basename(JAX_NAMES)} from the "
                             "installed jax")
    parser.add_argument("--scipy-stats", action="store_true",
                        help="count sciax.stats against scipy.stats instead")
    args = parser.parse_args(argv)
    if args.scipy_stats:
        import scipy

        present, missing = scipy_stats_coverage()
        print(f"sciax.stats covers {len(present)} of the {len(present) + len(missing)}"
              f" callables in scipy.stats {scipy.__version__} ({len(missing)} missing)")
        if args.present:
            print("\n".join(present))
        if args.missing:
            print("\n".join(missing))
        return 0
    if args.write_jax_names:
        print(f"wrote {JAX_NAMES} from jax {write_jax_names()}")
        return 0
    if args.jax:
        result, version = jax_coverage()
        total_p = sum(len(p) for p, _ in result.values())
        total = sum(len(p) + len(m) for p, m in result.values())
        print(f"sciax covers {total_p} of the {total} public callables of jax "
              f"{version}'s jax and jax.lax namespaces: "
              + "; ".join(f"{len(p)} of {len(p) + len(m)} in {mod}"
                          for mod, (p, m) in result.items()))
        for mod, (p, m) in result.items():
            if args.present:
                print("\n".join(f"{mod}.{n}" for n in p))
            if args.missing:
                print("\n".join(f"{mod}.{n}" for n in m))
        return 0
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
