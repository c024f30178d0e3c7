"""``OdeSolution``: the piecewise interpolant of a solve, callable at any t."""

from __future__ import annotations

from typing import Any, Callable

import sciax
import sciax.numpy as snp


class OdeSolution:
    """Continuous solution of an ODE, built from each step's own interpolant.

    sciax counterpart of :class:`scipy.integrate.OdeSolution`.  Call it at a
    scalar ``t`` (gives the state's shape) or at a 1-D array of times (gives
    the state's shape with a trailing time axis, as SciPy's ``(n, len(t))``).
    Outside ``[t_min, t_max]`` the first or last piece extrapolates, as in SciPy.

    Attributes
    ----------
    ts : Array
        Step boundaries, ``n_segments + 1`` of them (under ``jit`` a buffer of
        ``max_steps + 1`` entries of which ``n_segments + 1`` are used).
    n_segments : Array
        Number of valid pieces.
    t_min, t_max : Array
        The span covered.

    Notes
    -----
    It is a pytree (arrays are children, the interpolant rule is static), so it
    can be returned from ``jit`` and ``vmap`` and evaluated there.

    Examples
    --------
    >>> from sciax.integrate import solve_ivp
    >>> res = solve_ivp(lambda t, y: -y, (0.0, 2.0), snp.array([1.0]),
    ...                 dense_output=True, rtol=1e-8, atol=1e-10)
    >>> print(np.round(np.asarray(res.sol(snp.array([0.5, 1.5])))[0], 5))
    [0.60653 0.22313]
    """

    def __init__(self, ts: Any, hs: Any, ys: Any, cs: Any, n_segments: Any,
                 evaluate: Callable, unravel: Callable):
        self.ts, self.hs, self.ys, self.cs = ts, hs, ys, cs
        self.n_segments = n_segments
        self._evaluate = evaluate
        self._unravel = unravel

    @property
    def t_min(self) -> Any:
        return snp.minimum(self.ts[0], self.ts[self.n_segments])

    @property
    def t_max(self) -> Any:
        return snp.maximum(self.ts[0], self.ts[self.n_segments])

    def _flat_at(self, t: Any) -> Any:
        ts, n = self.ts, self.n_segments
        direction = snp.where(ts[n] >= ts[0], 1.0, -1.0)
        # Breakpoints past the last step are padding; searching direction * t
        # keeps the sort order for backward solves.
        idx = snp.arange(ts.shape[0])
        key = snp.where(idx <= n, direction * ts, snp.inf)
        i = snp.searchsorted(key, direction * t, side="left") - 1
        i = snp.clip(i, 0, snp.maximum(n - 1, 0))
        h = self.hs[i]
        theta = (t - ts[i]) / snp.where(h != 0, h, 1)
        return self._evaluate(self.cs[i], self.ys[i], h, theta)

    def __call__(self, t: Any) -> Any:
        t = snp.asarray(t, self.ts.dtype)
        if t.ndim == 0:
            return self._unravel(self._flat_at(t))
        if t.ndim != 1:
            raise ValueError(f"OdeSolution: t must be a scalar or 1-D, got shape "
                             f"{t.shape}")
        flat = sciax.vmap(self._flat_at)(t)  # (len(t), n)
        return self._unravel(flat.T, trailing=True)


def _flatten(s: OdeSolution) -> tuple:
    return (s.ts, s.hs, s.ys, s.cs, s.n_segments), (s._evaluate, s._unravel)


def _unflatten(aux: tuple, children: Any) -> OdeSolution:
    return OdeSolution(*children, *aux)


sciax.tree.register_node(OdeSolution, _flatten, _unflatten)
