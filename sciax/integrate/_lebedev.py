"""``lebedev_rule``: Lebedev-Laikov quadrature on the unit sphere, as SciPy
1.15's :func:`scipy.integrate.lebedev_rule`.

A rule of order ``n`` integrates every polynomial of degree ``<= n`` in
``x, y, z`` exactly over the sphere.  Its points are a union of orbits of the
octahedral group (48 rotations and reflections of the cube), each with one
weight, so the tables hold one point per orbit: ``_lebedev_data.txt``, written
from SciPy's installed tables by ``tools/gen_lebedev.py`` (numbers only; see
that file).  Expanding the orbits in SciPy's order gives SciPy's points and
weights exactly.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

import sciax.numpy as snp

__all__ = ["lebedev_rule"]

_DATA = Path(__file__).with_name("_lebedev_data.txt")


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[dict, dict]:
    """``patterns[kind] = (perms (k, 3), signs (k, 3))`` and
    ``rules[n] = [(kind, point (3,), weight)]``."""
    patterns, rules = {}, {}
    for line in _DATA.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        head, kind, *rest = line.split()
        if head == "pattern":
            perms = np.array([[int(c) for c in item[:3]] for item in rest])
            signs = np.array([[1.0 if c == "+" else -1.0 for c in item[3:]] for item in rest])
            patterns[kind] = (perms, signs)
        else:
            vals = [float(v) for v in rest]
            rules.setdefault(int(head), []).append((kind, np.array(vals[:3]), vals[3]))
    return patterns, rules


@functools.lru_cache(maxsize=None)
def _rule_np(n: int) -> tuple[np.ndarray, np.ndarray]:
    patterns, rules = _tables()
    points, weights = [], []
    for kind, p, w in rules[n]:
        perms, signs = patterns[kind]
        points.append(signs * p[perms])
        weights.append(np.full(len(perms), w))
    return np.concatenate(points).T, np.concatenate(weights)


def lebedev_rule(n: int) -> tuple:
    """Lebedev quadrature on the unit sphere: sciax implementation of SciPy
    1.15's :func:`scipy.integrate.lebedev_rule`.

    Parameters
    ----------
    n : int
        Order: the rule integrates polynomials in ``x, y, z`` of degree up to
        ``n`` exactly.  One of 3, 5, 7, ..., 31 (odd), 35, 41, 47, ..., 131
        (steps of 6).

    Returns
    -------
    x : Array of shape (3, m)
        Points on the unit sphere (Cartesian coordinates).
    w : Array of shape (m,)
        Weights (they sum to the sphere's area, ``4π``).

    Notes
    -----
    The tables are SciPy's (Lebedev and Laikov, 1999, via R. Parrish's
    ``getLebedevSphere``), stored as one point per orbit of the octahedral
    group; the points and weights equal SciPy's, in SciPy's order.  The rule
    is host data: it does not depend on traced values, and integrals
    ``w @ f(x)`` are differentiable in whatever ``f`` depends on.

    Examples
    --------
    >>> from sciax.integrate import lebedev_rule
    >>> x, w = lebedev_rule(7)          # exact for degree <= 7: ∫ z^2 = 4π/3
    >>> print(x.shape, f"{float(w @ x[2] ** 2):.12f}", f"{4 * np.pi / 3:.12f}")
    (3, 26) 4.188790204786 4.188790204786
    """
    rules = _tables()[1]
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or int(n) not in rules:
        raise ValueError(f"lebedev_rule: order n must be one of {sorted(rules)}; got {n!r}")
    x, w = _rule_np(int(n))
    return snp.asarray(x), snp.asarray(w)
