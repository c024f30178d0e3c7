"""End to end through the public API, and the tour (``python -m sciax``) itself."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest

import sciax
from sciax import lax

REPO = pathlib.Path(__file__).resolve().parent.parent


def test_tour_runs_quickly_and_prints_each_capability():
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sciax"], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    elapsed = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    for expected in ("sciax.devices()", "CpuDevice", "Array(", "{ lambda ;", "stablehlo",
                     "traced for n in: [3, 2]", "PyTreeDef", "dtype=float32",
                     "hessian(f)(1.0)", "vmap(", "lax.scan", "tour finished"):
        assert expected in out, f"the tour's output lacks {expected!r}"
    assert "Traceback" not in proc.stderr
    assert elapsed < 60, f"the tour took {elapsed:.0f} s; it must stay under a minute"


def test_public_api_end_to_end():
    # A tiny least-squares fit: eager ops, jit, pytrees and grad together.
    rng = np.random.default_rng(0)
    xs = rng.standard_normal(8)
    ys = 3.0 * xs + 0.5
    params = {"w": sciax.device_put(0.0), "b": sciax.device_put(0.0)}

    def loss(p, x, y):
        # x and y are tuples of 0-d arrays: a pytree argument, scalar-only ops.
        total = 0.0
        for xi, yi in zip(x, y):
            err = lax.sub(lax.add(lax.mul(p["w"], xi), p["b"]), yi)
            total = lax.add(lax.mul(err, err), total)
        return total

    @sciax.jit
    def step(p, x, y):
        g = sciax.grad(loss)(p, x, y)
        return sciax.tree.map(lambda v, dv: lax.sub(v, lax.mul(dv, 0.05)), p, g)

    x, y = sciax.device_put(tuple(xs)), sciax.device_put(tuple(ys))
    assert float(loss(params, x, y)) == pytest.approx(np.sum(ys**2), rel=1e-14)
    for _ in range(200):
        params = step(params, x, y)
    assert abs(float(params["w"]) - 3.0) < 1e-6
    assert abs(float(params["b"]) - 0.5) < 1e-6
