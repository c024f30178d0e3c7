"""Autodiff side by side with JAX 0.10.2 on the same XLA, in one process.

Run ``python benchmarks/autodiff.py`` (``--quick`` for a smoke run).  Measures

* (a) a training step ``jit(grad(loss))`` of a 784-512-512-10 tanh MLP with a
  softmax cross-entropy loss on a batch of 128;
* (b) ``jit(hessian(rosenbrock))`` at n = 100;
* (c) trace + compile time of both (the first call), and the steady-state
  compiled time per call (median of repeats);
* (d) ``grad(jit(loss))`` called eagerly on a small MLP (8-32-32-1, batch 16):
  the transformation of a jitted function, outside any jit, where Python-side
  tracing and dispatch dominate.

Both libraries run in float64 (JAX with ``jax_enable_x64``).  JAX is imported
after sciax has created its client; it is needed only here (``bench`` extra).
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


def _block(x: Any) -> None:
    for leaf in sciax.tree.leaves(x) if not hasattr(x, "block_until_ready") else [x]:
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()


def _time_first(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    _block(fn())
    return time.perf_counter() - t0


def _time_steady(fn: Callable[[], Any], repeats: int, number: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            out = fn()
        _block(out)
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def _mlp_params(rng: np.random.Generator, sizes: list[int]) -> list[tuple[Any, Any]]:
    return [(rng.normal(size=(m, n)) / np.sqrt(m), np.zeros(n))
            for m, n in zip(sizes[:-1], sizes[1:])]


def _make_losses(np_mod: Any, tanh: Callable, logsumexp: Callable):
    def mlp_loss(params, x, y):
        h = x
        for w, b in params[:-1]:
            h = tanh(h @ w + b)
        w, b = params[-1]
        logits = h @ w + b
        return -np_mod.mean(np_mod.sum(y * (logits - logsumexp(logits)), axis=-1))

    def rosenbrock(x):
        return np_mod.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)

    return mlp_loss, rosenbrock


def _sciax_logsumexp(z):
    m = snp.max(z, axis=-1, keepdims=True)
    return m + snp.log(snp.sum(snp.exp(z - m), axis=-1, keepdims=True))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    repeats, number = (3, 3) if args.quick else (7, 10)
    rng = np.random.default_rng(0)
    sizes = [784, 512, 512, 10]
    params_np = _mlp_params(rng, sizes)
    x_np = rng.normal(size=(128, 784))
    y_np = np.eye(10)[rng.integers(0, 10, size=128)]
    r_np = rng.normal(size=100)

    rows: list[tuple[str, float, float | None]] = []

    s_loss, s_rosen = _make_losses(snp, snp.tanh, _sciax_logsumexp)
    s_params = sciax.device_put(params_np)
    s_x, s_y, s_r = (sciax.device_put(v) for v in (x_np, y_np, r_np))
    s_step = sciax.jit(sciax.grad(s_loss))
    s_hess = sciax.jit(sciax.hessian(s_rosen))
    s_first_mlp = _time_first(lambda: s_step(s_params, s_x, s_y))
    s_first_hess = _time_first(lambda: s_hess(s_r))
    s_mlp = _time_steady(lambda: s_step(s_params, s_x, s_y), repeats, number)
    s_h = _time_steady(lambda: s_hess(s_r), repeats, number)
    g_s = s_step(s_params, s_x, s_y)
    h_s = np.asarray(s_hess(s_r))
    small_np = _mlp_params(rng, [8, 32, 32, 1])
    xs_np, ys_np = rng.normal(size=(16, 8)), rng.normal(size=(16, 1))
    s_small = sciax.device_put(small_np)
    s_xs, s_ys = sciax.device_put(xs_np), sciax.device_put(ys_np)
    s_eager = sciax.grad(sciax.jit(s_loss))
    s_eager(s_small, s_xs, s_ys)
    s_ge = _time_steady(lambda: s_eager(s_small, s_xs, s_ys), repeats, number)

    try:
        import jax
        import jax.numpy as jnp
        from jax.scipy.special import logsumexp as jlse
    except ImportError:
        jax = None
    if jax is not None:
        jax.config.update("jax_enable_x64", True)
        j_loss, j_rosen = _make_losses(
            jnp, jnp.tanh, lambda z: jlse(z, axis=-1, keepdims=True))
        j_params = jax.device_put(params_np)
        j_x, j_y, j_r = (jax.device_put(v) for v in (x_np, y_np, r_np))
        j_step = jax.jit(jax.grad(j_loss))
        j_hess = jax.jit(jax.hessian(j_rosen))
        j_first_mlp = _time_first(lambda: j_step(j_params, j_x, j_y))
        j_first_hess = _time_first(lambda: j_hess(j_r))
        j_mlp = _time_steady(lambda: j_step(j_params, j_x, j_y), repeats, number)
        j_h = _time_steady(lambda: j_hess(j_r), repeats, number)
        g_j = j_step(j_params, j_x, j_y)
        for (gw, gb), (jw, jb) in zip(g_s, g_j):
            np.testing.assert_allclose(np.asarray(gw), np.asarray(jw), rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(h_s, np.asarray(j_hess(j_r)), rtol=1e-10)
        j_small = jax.device_put(small_np)
        j_xs, j_ys = jax.device_put(xs_np), jax.device_put(ys_np)
        j_eager = jax.grad(jax.jit(j_loss))
        j_eager(j_small, j_xs, j_ys)
        j_ge = _time_steady(lambda: j_eager(j_small, j_xs, j_ys), repeats, number)
    else:
        j_first_mlp = j_first_hess = j_mlp = j_h = j_ge = None

    rows = [
        ("MLP step jit(grad), compiled (ms)", s_mlp * 1e3, j_mlp and j_mlp * 1e3),
        ("hessian(rosenbrock n=100), compiled (ms)", s_h * 1e3, j_h and j_h * 1e3),
        ("MLP step trace+compile, first call (s)", s_first_mlp, j_first_mlp),
        ("hessian trace+compile, first call (s)", s_first_hess, j_first_hess),
        ("eager grad(jit(loss)), small MLP (ms)", s_ge * 1e3, j_ge and j_ge * 1e3),
    ]
    print(f"{'benchmark':44s} {'sciax':>10s} {'jax':>10s} {'sciax/jax':>10s}")
    for name, s, j in rows:
        ratio = f"{s / j:10.2f}" if j else f"{'-':>10s}"
        jtxt = f"{j:10.3f}" if j else f"{'n/a':>10s}"
        print(f"{name:44s} {s:10.3f} {jtxt} {ratio}")


if __name__ == "__main__":
    main()
