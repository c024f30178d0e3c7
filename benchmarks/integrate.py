"""solve_ivp side by side with SciPy and diffrax (JAX) in one process.

Run ``python benchmarks/integrate.py`` (``--quick`` for a smoke run).  Measures,
on the Lorenz system (sigma, rho, beta = 10, 28, 8/3) at rtol = atol = 1e-8
with Dormand-Prince 5(4) everywhere (SciPy RK45, sciax RK45, diffrax Dopri5 with
a PID controller at the same tolerances):

* (a) one solve from t = 0 to 10, keeping y(10): time per call (compiled for
  sciax and diffrax, SciPy's Python loop), each compiled call right after a
  SciPy solve (so both libraries start from the same state), and back to back
  ("warm": 30 consecutive calls, alternating the libraries in blocks of 10);
* (b) 1,000 initial conditions: ``jit(vmap(solve))`` for sciax and diffrax, a
  Python loop for SciPy (timed on the first 20 and scaled to 1,000);
* (c) first-call (trace + compile) time of ``jit(grad(loss))`` with loss the sum
  of y(1), for sciax (adjoint='direct') and diffrax (its default
  RecursiveCheckpointAdjoint), and the steady-state gradient time.

Stiff problems (``--stiff``, or ``--only-stiff`` to skip Lorenz), rtol = 1e-6,
atol = 1e-10 (HIRES: rtol = 1e-7, atol = 1e-9):

* (d) Robertson to t = 1e11, per solve: sciax BDF, Radau, Kvaerno5 and LSODA vs
  SciPy LSODA, BDF and Radau, and diffrax Kvaerno5 with a PID controller;
* (e) HIRES to t = 321.8122, per solve (same methods);
* (f) first-call time of ``jit(grad(loss))``, loss = y1(40) of Robertson as a
  function of its rate constants (sciax BDF and Kvaerno5, diffrax Kvaerno5),
  and the steady-state gradient time.

Timings alternate the libraries round by round and report medians.  Run with
``SCIAX_COMPILATION_CACHE=0`` for honest first-call times (otherwise a second
run loads sciax's compiled programs from its disk cache).  JAX is
imported after sciax has created its client; it is needed only here.
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
from sciax.integrate import solve_ivp  # noqa: E402

RTOL = ATOL = 1e-8
Y0 = np.array([1.0, 1.0, 1.0])


def lorenz_sx(t, y):
    return snp.stack([10.0 * (y[1] - y[0]), y[0] * (28.0 - y[2]) - y[1],
                      y[0] * y[1] - 8.0 / 3.0 * y[2]])


def lorenz_np(t, y):
    return np.array([10.0 * (y[1] - y[0]), y[0] * (28.0 - y[2]) - y[1],
                     y[0] * y[1] - 8.0 / 3.0 * y[2]])


def _block(x: Any) -> Any:
    for leaf in (x if isinstance(x, (list, tuple)) else [x]):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
    return x


def _first(fn: Callable, cpu: dict, key: str) -> float:
    """Time a first call (wall), recording its process CPU time in ``cpu``:
    on a shared machine CPU seconds move less with the load than walls."""
    c = time.process_time()
    w = _time(fn, 1)
    cpu[key] = time.process_time() - c
    return w



def _diffrax_lorenz(diffrax: Any, jnp: Any, y0: Any, t1: float) -> Any:
    """diffrax's Dopri5 on Lorenz from 0 to ``t1``, saving y(t1): the yardstick
    of rows (a)-(c)."""
    term = diffrax.ODETerm(lambda t, y, args: jnp.stack([
        10.0 * (y[1] - y[0]), y[0] * (28.0 - y[2]) - y[1],
        y[0] * y[1] - 8.0 / 3.0 * y[2]]))
    return diffrax.diffeqsolve(
        term, diffrax.Dopri5(), 0.0, t1, None, y0,
        stepsize_controller=diffrax.PIDController(rtol=RTOL, atol=ATOL),
        saveat=diffrax.SaveAt(t1=True), max_steps=16384).ys

def _time(fn: Callable, reps: int) -> float:
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        _block(fn())
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--stiff", action="store_true", help="also the stiff problems")
    ap.add_argument("--only-stiff", action="store_true")
    ap.add_argument("--only-grad", action="store_true",
                    help="only the first calls and steady times of the gradients, "
                         "(c) and (f), each library's solve compiled first")
    a = ap.parse_args()
    if a.only_grad:
        grads(3 if a.quick else 7)
        return
    if a.only_stiff:
        stiff(3 if a.quick else 7)
        return
    reps = 3 if a.quick else 7
    batch = 50 if a.quick else a.batch
    import scipy.integrate as si

    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        import diffrax
        import jax.numpy as jnp
    except ImportError:  # diffrax is optional
        diffrax = None

    # sciax
    te10 = snp.array([10.0])
    sx_one = sciax.jit(lambda y0: solve_ivp(lorenz_sx, (0.0, 10.0), y0, t_eval=te10,
                                            rtol=RTOL, atol=ATOL).y)
    sx_batch = sciax.jit(sciax.vmap(lambda y0: solve_ivp(
        lorenz_sx, (0.0, 10.0), y0, t_eval=te10, rtol=RTOL, atol=ATOL).y))

    def sx_loss(y0):
        return snp.sum(solve_ivp(lorenz_sx, (0.0, 1.0), y0, t_eval=snp.array([1.0]),
                                 rtol=RTOL, atol=ATOL, max_steps=1024).y)

    rng = np.random.default_rng(0)
    y0s = Y0 + 0.1 * rng.standard_normal((batch, 3))
    res: dict[str, Any] = {}
    res["sciax first call (a)"] = _time(lambda: sx_one(snp.asarray(Y0)), 1)
    res["sciax first call (b)"] = _time(lambda: sx_batch(snp.asarray(y0s)), 1)

    if diffrax is not None:
        def dfx_solve(y0, t1=10.0):
            return _diffrax_lorenz(diffrax, jnp, y0, t1)
        dfx_one = jax.jit(dfx_solve)
        dfx_batch = jax.jit(jax.vmap(dfx_solve))
        res["diffrax first call (a)"] = _time(lambda: dfx_one(jnp.asarray(Y0)), 1)
        res["diffrax first call (b)"] = _time(lambda: dfx_batch(jnp.asarray(y0s)), 1)

    ref = si.solve_ivp(lorenz_np, (0.0, 10.0), Y0, rtol=RTOL, atol=ATOL)
    print(f"steps: scipy RK45 {ref.t.size - 1}, nfev {ref.nfev}")
    n_loop = 5 if a.quick else 20
    times: dict[str, list] = {}
    one = {"sciax (a)": lambda: sx_one(snp.asarray(Y0))}
    if diffrax is not None:
        one["diffrax (a)"] = lambda: dfx_one(jnp.asarray(Y0))
    for _ in range(reps):  # alternate the libraries round by round
        # Each compiled call comes right after a SciPy solve, so each starts in
        # the same state: a call right after another library's compiled call
        # finds the runtime's threads awake and its caches warm and gains ~0.3 ms
        # (a trivial jitted program costs 0.3-0.4 ms after SciPy's 50 ms Python
        # solve and 0.04-0.06 ms back to back, in both libraries).
        for k, fn in one.items():
            times.setdefault("scipy (a)", []).append(_time(
                lambda: si.solve_ivp(lorenz_np, (0.0, 10.0), Y0, rtol=RTOL,
                                     atol=ATOL), 1))
            times.setdefault(k, []).append(_time(fn, 1))
    for _ in range(3):  # back to back: the solve itself, without the wake-up
        for k, fn in one.items():
            _block(fn())
            times.setdefault(k[:-4] + " warm (a)", []).extend(
                _time(fn, 1) for _ in range(10))
    for _ in range(max(2, reps // 2)):
        t = time.perf_counter()
        for y in y0s[:n_loop]:
            si.solve_ivp(lorenz_np, (0.0, 10.0), y, rtol=RTOL, atol=ATOL)
        times.setdefault("scipy (b)", []).append(
            (time.perf_counter() - t) * batch / n_loop)
        times.setdefault("sciax (b)", []).append(
            _time(lambda: sx_batch(snp.asarray(y0s)), 1))
        if diffrax is not None:
            times.setdefault("diffrax (b)", []).append(
                _time(lambda: dfx_batch(jnp.asarray(y0s)), 1))
    for k, v in times.items():
        res[k] = statistics.median(v)
        if k.endswith("(a)"):
            res[k[:-4] + " min (a)"] = min(v)

    sx_g = sciax.jit(sciax.grad(sx_loss))
    res["sciax grad first call (c)"] = _time(lambda: sx_g(snp.asarray(Y0)), 1)
    res["sciax grad (c)"] = _time(lambda: sx_g(snp.asarray(Y0)), reps)
    if diffrax is not None:
        dfx_g = jax.jit(jax.grad(lambda y0: jnp.sum(dfx_solve(y0, 1.0))))
        res["diffrax grad first call (c)"] = _time(lambda: dfx_g(jnp.asarray(Y0)), 1)
        res["diffrax grad (c)"] = _time(lambda: dfx_g(jnp.asarray(Y0)), reps)
        gs = np.asarray(sx_g(snp.asarray(Y0)))
        gd = np.asarray(dfx_g(jnp.asarray(Y0)))
        print(f"gradient agreement sciax vs diffrax: {np.max(np.abs(gs - gd)):.2e}")

    for k, v in res.items():
        print(f"{k:32s} {v * 1e3:10.2f} ms")
    r = res
    print(f"(a) scipy / sciax = {r['scipy (a)'] / r['sciax (a)']:.1f}x "
          f"(minima: {r['scipy min (a)'] / r['sciax min (a)']:.1f}x)")
    print(f"(b) scipy loop / sciax batch = {r['scipy (b)'] / r['sciax (b)']:.1f}x")
    if diffrax is not None:
        print(f"(a) sciax / diffrax = {r['sciax (a)'] / r['diffrax (a)']:.2f}x "
              f"(minima: {r['sciax min (a)'] / r['diffrax min (a)']:.2f}x); "
              f"back to back {r['sciax warm (a)'] / r['diffrax warm (a)']:.2f}x "
              f"(minima: {r['sciax warm min (a)'] / r['diffrax warm min (a)']:.2f}x)")
        print(f"(b) sciax / diffrax = {r['sciax (b)'] / r['diffrax (b)']:.2f}x")
        print(f"(c) first-call sciax / diffrax = "
              f"{r['sciax grad first call (c)'] / r['diffrax grad first call (c)']:.2f}"
              "x")
    if a.stiff:
        stiff(reps)


K_ROB = np.array([0.04, 3e7, 1e4])
HIRES_T = 321.8122
HIRES_Y0 = np.array([1, 0, 0, 0, 0, 0, 0, 0.0057])


def rober(t, y, k, xp=snp):
    r1, r2, r3 = k[0] * y[0], k[1] * y[1] ** 2, k[2] * y[1] * y[2]
    return xp.stack([-r1 + r3, r1 - r3 - r2, r2])


def hires(t, y, xp=snp):
    return xp.stack([
        -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007,
        1.71 * y[0] - 8.75 * y[1],
        -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4],
        8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3],
        -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6],
        -280 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6],
        280 * y[5] * y[7] - 1.81 * y[6],
        -280 * y[5] * y[7] + 1.81 * y[6]])


def stiff(reps: int) -> None:
    """Robertson and HIRES (see the module docstring, (d) to (f))."""
    import scipy.integrate as si
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        import diffrax
        import jax.numpy as jnp
    except ImportError:
        diffrax = None
    problems = {
        "Robertson": (lambda t, y, k: rober(t, y, k),
                      lambda t, y: rober(t, y, K_ROB, np),
                      1e11, np.array([1.0, 0.0, 0.0]), dict(rtol=1e-6, atol=1e-10)),
        "HIRES": (lambda t, y, k: hires(t, y), lambda t, y: hires(t, y, np), HIRES_T,
                  HIRES_Y0, dict(rtol=1e-7, atol=1e-9)),
    }
    res: dict[str, Any] = {}
    for name, (f_sx, f_np, t1, y0, tol) in problems.items():
        te = snp.array([t1])
        calls: dict[str, Callable] = {}
        for m in ("BDF", "Radau", "Kvaerno5", "LSODA"):
            fn = sciax.jit(lambda y0, k, m=m: solve_ivp(
                f_sx, (0.0, t1), y0, method=m, args=(k,), t_eval=te, max_steps=4000,
                **tol).y)
            res[f"{name} sciax {m} first call"] = _time(
                lambda fn=fn: fn(snp.asarray(y0), snp.asarray(K_ROB)), 1)
            calls[f"sciax {m}"] = lambda fn=fn: fn(snp.asarray(y0), snp.asarray(K_ROB))
        for m in ("LSODA", "BDF", "Radau"):
            calls[f"scipy {m}"] = lambda m=m: si.solve_ivp(
                f_np, (0.0, t1), y0, method=m, **tol)
        if diffrax is not None:
            def dfx_solve(y0, k, f_np=f_np, t1=t1, tol=tol, name=name):
                if name == "Robertson":
                    vf = lambda t, y, k: rober(t, y, k, jnp)  # noqa: E731
                else:
                    vf = lambda t, y, k: hires(t, y, jnp)  # noqa: E731
                return diffrax.diffeqsolve(
                    diffrax.ODETerm(vf), diffrax.Kvaerno5(), 0.0, t1, None, y0, args=k,
                    stepsize_controller=diffrax.PIDController(**tol),
                    saveat=diffrax.SaveAt(t1=True), max_steps=100_000).ys
            dfx = jax.jit(dfx_solve)
            res[f"{name} diffrax Kvaerno5 first call"] = _time(
                lambda: dfx(jnp.asarray(y0), jnp.asarray(K_ROB)), 1)
            calls["diffrax Kvaerno5"] = lambda dfx=dfx: dfx(jnp.asarray(y0),
                                                            jnp.asarray(K_ROB))
        times: dict[str, list] = {}
        for _ in range(reps):
            for k, fn in calls.items():
                times.setdefault(k, []).append(_time(fn, 1))
        for k, v in times.items():
            res[f"{name} {k}"] = statistics.median(v)
        for k, fn in calls.items():
            out = fn()
            yend = np.asarray(out.y[:, -1] if hasattr(out, "nfev") else out).ravel()
            print(f"{name} {k}: y(t1) = {np.array2string(yend, precision=6)}")
        best = min(res[name + " sciax BDF"], res[name + " sciax Radau"])
        print(f"{name}: best sciax (BDF, Radau) / scipy LSODA = "
              f"{best / res[name + ' scipy LSODA']:.2f}x; "
              f"sciax Radau / scipy Radau = "
              f"{res[name + ' sciax Radau'] / res[name + ' scipy Radau']:.3f}x")
        if diffrax is not None:
            best = min(res[name + " sciax BDF"], res[name + " sciax Radau"],
                       res[name + " sciax Kvaerno5"])
            print(f"{name}: best sciax / diffrax Kvaerno5 = "
                  f"{best / res[name + ' diffrax Kvaerno5']:.2f}x")

    rober_grads(reps, res, diffrax and (jax, diffrax, jnp))


def rober_grads(reps: int, res: dict, dfx: Any) -> None:
    """(f): first call and steady time of ``jit(grad(loss))``, loss = y1(40)
    of Robertson w.r.t. its rate constants; first-call CPU seconds too."""
    cpu: dict[str, float] = {}
    te40 = snp.array([40.0])
    for m in ("BDF", "Kvaerno5"):
        def sx_loss(k, m=m):
            return solve_ivp(rober, (0.0, 40.0), snp.array([1.0, 0.0, 0.0]), method=m,
                             args=(k,), t_eval=te40, rtol=1e-6, atol=1e-10,
                             max_steps=512).y[0, -1]
        sx_g = sciax.jit(sciax.grad(sx_loss))
        key = f"grad sciax {m} first call (f)"
        res[key] = _first(lambda: sx_g(snp.asarray(K_ROB)), cpu, key)
        res[f"grad sciax {m} (f)"] = _time(lambda: sx_g(snp.asarray(K_ROB)), reps)
        print(f"grad sciax {m}: {np.asarray(sx_g(snp.asarray(K_ROB)))}")
    if dfx:
        jax, diffrax, jnp = dfx

        def dfx_loss(k):
            vf = lambda t, y, k: rober(t, y, k, jnp)  # noqa: E731
            return diffrax.diffeqsolve(
                diffrax.ODETerm(vf), diffrax.Kvaerno5(), 0.0, 40.0, None,
                jnp.array([1.0, 0.0, 0.0]), args=k,
                stepsize_controller=diffrax.PIDController(rtol=1e-6, atol=1e-10),
                saveat=diffrax.SaveAt(t1=True), max_steps=4096).ys[0, 0]
        dfx_g = jax.jit(jax.grad(dfx_loss))
        key = "grad diffrax Kvaerno5 first call (f)"
        res[key] = _first(lambda: dfx_g(jnp.asarray(K_ROB)), cpu, key)
        res["grad diffrax Kvaerno5 (f)"] = _time(lambda: dfx_g(jnp.asarray(K_ROB)),
                                                 reps)
        print(f"grad diffrax Kvaerno5: {np.asarray(dfx_g(jnp.asarray(K_ROB)))}")
    for k, v in res.items():
        extra = f"   (CPU {cpu[k]:.2f} s)" if k in cpu else ""
        print(f"{k:44s} {v * 1e3:10.2f} ms{extra}")
    if dfx:
        d = "grad diffrax Kvaerno5 first call (f)"
        for m in ("BDF", "Kvaerno5"):
            k = f"grad sciax {m} first call (f)"
            print(f"(f) first-call sciax {m} / diffrax Kvaerno5 = "
                  f"{res[k] / res[d]:.2f}x wall, {cpu[k] / cpu[d]:.2f}x CPU")
    print(f"load average {os.getloadavg()}")


def grads(reps: int) -> None:
    """(c) and (f) alone: each library's solve compiled and run first (so the
    first calls of the gradients measure the gradients, not start-up)."""
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        import diffrax
        import jax.numpy as jnp
    except ImportError:
        jax = diffrax = jnp = None
    cpu: dict[str, float] = {}
    res: dict[str, Any] = {}
    y0 = snp.asarray(Y0)
    sciax.jit(lambda y0: solve_ivp(lorenz_sx, (0.0, 1.0), y0, rtol=RTOL,
                                   atol=ATOL).y)(y0)

    def sx_loss(y0):
        return snp.sum(solve_ivp(lorenz_sx, (0.0, 1.0), y0, t_eval=snp.array([1.0]),
                                 rtol=RTOL, atol=ATOL, max_steps=1024).y)
    sx_g = sciax.jit(sciax.grad(sx_loss))
    res["sciax grad first call (c)"] = _first(lambda: sx_g(y0), cpu,
                                              "sciax grad first call (c)")
    res["sciax grad (c)"] = _time(lambda: sx_g(y0), reps)
    if diffrax is not None:
        def dfx_solve(y0, t1=1.0):
            return _diffrax_lorenz(diffrax, jnp, y0, t1)
        jax.jit(dfx_solve)(jnp.asarray(Y0))
        dfx_g = jax.jit(jax.grad(lambda y0: jnp.sum(dfx_solve(y0))))
        res["diffrax grad first call (c)"] = _first(
            lambda: dfx_g(jnp.asarray(Y0)), cpu, "diffrax grad first call (c)")
        res["diffrax grad (c)"] = _time(lambda: dfx_g(jnp.asarray(Y0)), reps)
        k, d = "sciax grad first call (c)", "diffrax grad first call (c)"
        print(f"(c) first-call sciax / diffrax = {res[k] / res[d]:.2f}x wall, "
              f"{cpu[k] / cpu[d]:.2f}x CPU ({cpu[k]:.2f} vs {cpu[d]:.2f} s)")
    rober_grads(reps, res, diffrax and (jax, diffrax, jnp))


if __name__ == "__main__":
    main()
