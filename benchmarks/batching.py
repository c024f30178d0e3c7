"""Per-example gradients, ``jit(vmap(grad(loss)))``, side by side with JAX.

Logistic regression on 10,000 examples x 100 features: the gradient of each
example's loss with respect to the weights, batched with ``vmap`` and
compiled with ``jit``.  Both libraries run in float64 on the same jaxlib, in
one process (JAX, from the ``bench`` extra, is imported after sciax).

Run ``python benchmarks/batching.py`` (``--quick`` for a smoke run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402


def _steady(fn: Callable[[], Any], repeats: int, number: int) -> float:
    fn().block_until_ready()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            out = fn()
        out.block_until_ready()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def _first(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn().block_until_ready()
    return time.perf_counter() - t0


def _loss(np_mod: Any, log1p: Callable, exp: Callable):
    def loss(w, x, y):
        z = np_mod.dot(x, w)
        # log(1 + exp(-y z)), stable for large |z|
        return np_mod.maximum(-y * z, 0.0) + log1p(exp(-np_mod.abs(y * z)))
    return loss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    repeats, number = (3, 3) if args.quick else (7, 10)
    rng = np.random.default_rng(0)
    n, d = 10_000, 100
    x = rng.normal(size=(n, d))
    y = np.sign(rng.normal(size=n))
    w = rng.normal(size=d) / 10

    s_loss = _loss(snp, snp.log1p, snp.exp)
    s_fn = sciax.jit(sciax.vmap(sciax.grad(s_loss), in_axes=(None, 0, 0)))
    sw, sx, sy = (sciax.device_put(v) for v in (w, x, y))
    s_first = _first(lambda: s_fn(sw, sx, sy))
    s_time = _steady(lambda: s_fn(sw, sx, sy), repeats, number)
    s_out = np.asarray(s_fn(sw, sx, sy))
    # closed form: d/dw log(1 + exp(-y x.w)) = -y x sigmoid(-y x.w)
    z = -y * (x @ w)
    expected = (-y / (1 + np.exp(-z)))[:, None] * x
    np.testing.assert_allclose(s_out, expected, rtol=1e-10, atol=1e-12)

    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        jax = None
    if jax is not None:
        jax.config.update("jax_enable_x64", True)
        j_loss = _loss(jnp, jnp.log1p, jnp.exp)
        j_fn = jax.jit(jax.vmap(jax.grad(j_loss), in_axes=(None, 0, 0)))
        jw, jx, jy = (jax.device_put(v) for v in (w, x, y))
        j_first = _first(lambda: j_fn(jw, jx, jy))
        j_time = _steady(lambda: j_fn(jw, jx, jy), repeats, number)
        np.testing.assert_allclose(np.asarray(j_fn(jw, jx, jy)), s_out, rtol=1e-12)
    else:
        j_first = j_time = None

    print(f"{'per-example grads, 10000 x 100':38s} {'sciax':>10s} {'jax':>10s} "
          f"{'sciax/jax':>10s}")
    for name, s, j in (("compiled call (ms)", s_time * 1e3, j_time and j_time * 1e3),
                       ("trace + compile, first call (s)", s_first, j_first)):
        jtxt = f"{j:10.3f}" if j else f"{'n/a':>10s}"
        ratio = f"{s / j:10.2f}" if j else f"{'-':>10s}"
        print(f"{name:38s} {s:10.3f} {jtxt} {ratio}")


if __name__ == "__main__":
    main()
