"""Start-up costs of sciax and JAX: import, and the first call of real programs.

Run ``python benchmarks/startup.py`` (``--quick`` for one round, ``--repeats N``
for more, ``--tour`` to also time two runs of ``python -m sciax``).  Every
figure comes from a fresh Python process, and the libraries take turns round
by round, so both see the same machine load; the tables give medians.

* **import**: seconds spent in the import statement (interpreter start-up not
  included): ``import sciax``, ``import sciax, sciax.numpy``, ``import jax``,
  ``import jax, jax.numpy`` and ``import scipy.optimize, scipy.integrate``.
* **first call** of four programs, each ``jit``-compiled and called once on
  NumPy inputs: an MLP gradient step, ``jit(hessian(rosen))`` at n = 100, the
  gradient of a ``scan`` RNN, and a ``while_loop`` Newton solve (with a
  ``jacfwd`` Jacobian and a linear solve).  ``cold``: sciax with an empty
  persistent compilation cache, JAX as installed (its persistent cache is off
  by default).  ``warm``: sciax with the cache a previous process filled;
  JAX with its persistent cache switched on (``jax_compilation_cache_dir``,
  minimum compile time 0) and filled by a previous process, for fairness.
  ``proc`` is the wall time of the whole process (start-up, import, first
  call: the time to the first number).
* **trace + lower**: of the cold first call, the seconds spent tracing to a
  jaxpr and lowering to StableHLO (sciax: its ``log_compiles`` records; JAX:
  its ``jax.monitoring`` duration events), and XLA's compile time.

Python bytecode caching is switched on in the child processes (some
environments set PYTHONDONTWRITEBYTECODE, which makes every import recompile
the sources) and one untimed import of each library runs first.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

IMPORTS = {
    "sciax": "import sciax",
    "sciax+numpy": "import sciax, sciax.numpy",
    "jax": "import jax",
    "jax+numpy": "import jax, jax.numpy",
    "scipy.optimize+integrate": "import scipy.optimize, scipy.integrate",
}

PROGRAMS = ("mlp_grad_step", "hessian_rosen_100", "scan_rnn_grad", "newton_while")

# The programs, written once against a module namespace ``L`` with ``jit``,
# ``grad``, ``hessian``, ``jacfwd``, ``np`` (the numpy API) and ``lax``.
PROGRAM_SOURCE = '''
def mlp_grad_step(L):
    rng = numpy.random.default_rng(0)
    sizes = [16, 64, 64, 1]
    params = [(rng.standard_normal((m, n)) / m ** 0.5, numpy.zeros(n))
              for m, n in zip(sizes[:-1], sizes[1:])]
    x = rng.standard_normal((128, 16))
    y = rng.standard_normal((128, 1))

    def loss(p, x, y):
        h = x
        for w, b in p[:-1]:
            h = L.np.tanh(h @ w + b)
        w, b = p[-1]
        return L.np.mean((h @ w + b - y) ** 2)

    def step(p, x, y):
        g = L.grad(loss)(p, x, y)
        return [(w - 0.1 * gw, b - 0.1 * gb) for (w, b), (gw, gb) in zip(p, g)]

    return L.jit(step), (params, x, y)


def hessian_rosen_100(L):
    def rosen(x):
        return L.np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

    return L.jit(L.hessian(rosen)), (numpy.linspace(-1.0, 2.0, 100),)


def scan_rnn_grad(L):
    rng = numpy.random.default_rng(1)
    w = rng.standard_normal((32, 32)) / 32 ** 0.5
    u = rng.standard_normal((8, 32)) / 8 ** 0.5
    xs = rng.standard_normal((50, 8))

    def loss(w, u, xs):
        def cell(h, x):
            h = L.np.tanh(h @ w + x @ u)
            return h, L.np.sum(h)

        h, outs = L.lax.scan(cell, L.np.zeros(32), xs)
        return L.np.sum(h ** 2) + L.np.sum(outs)

    return L.jit(L.grad(loss, argnums=(0, 1))), (w, u, xs)


def newton_while(L):
    rng = numpy.random.default_rng(2)
    a = numpy.eye(20) * 4 + rng.standard_normal((20, 20)) * 0.1
    b = rng.standard_normal(20)

    def residual(x):
        return a @ x + x ** 3 - b

    def solve(x0):
        def cond(s):
            x, i = s
            return (L.np.max(L.np.abs(residual(x))) > 1e-12) & (i < 50)

        def body(s):
            x, i = s
            return x - L.np.linalg.solve(L.jacfwd(residual)(x), residual(x)), i + 1

        return L.lax.while_loop(cond, body, (x0, 0))

    return L.jit(solve), (numpy.zeros(20),)
'''

CHILD = r'''
import json, os, sys, time
lib, program = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
import numpy
timings = []
if lib == "sciax":
    import logging
    import sciax, sciax.numpy as snp
    from sciax import lax

    class _Grab(logging.Handler):
        def emit(self, record):
            if hasattr(record, "sciax_timings"):
                timings.append(record.sciax_timings)

    log = logging.getLogger("sciax")
    log.addHandler(_Grab())
    log.propagate = False
    sciax.config.update("log_compiles", True)

    class L:
        jit, grad, hessian, jacfwd = sciax.jit, sciax.grad, sciax.hessian, sciax.jacfwd
        np, lax = snp, lax
else:
    import jax, jax.numpy as jnp
    from jax import lax, monitoring
    jax.config.update("jax_enable_x64", True)
    if os.environ.get("BENCH_JAX_CACHE"):
        jax.config.update("jax_compilation_cache_dir", os.environ["BENCH_JAX_CACHE"])
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    names = {"/jax/core/compile/jaxpr_trace_duration": "trace",
             "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
             "/jax/core/compile/backend_compile_duration": "compile"}

    def _listen(event, duration, **kw):
        if event in names:
            timings.append({names[event]: duration})

    monitoring.register_event_duration_secs_listener(_listen)

    class L:
        jit, grad, hessian, jacfwd = jax.jit, jax.grad, jax.hessian, jax.jacfwd
        np, lax = jnp, lax
t_import = time.perf_counter() - t0
exec(SOURCE)
fn, args = globals()[program](L)
numpy.asarray(numpy.zeros(1))
t1 = time.perf_counter()
out = fn(*args)
for leaf in (out if isinstance(out, (list, tuple)) else [out]):
    for x in (leaf if isinstance(leaf, (list, tuple)) else [leaf]):
        numpy.asarray(x)
t_first = time.perf_counter() - t1
split = {k: sum(t.get(k, 0.0) for t in timings) for k in ("trace", "lower", "compile")}
print(json.dumps({"import": t_import, "first_call": t_first, **split}))
'''


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env.update(extra)
    return env


def _run(code: str, *argv: str, **env: str) -> tuple[dict, float]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                          text=True, env=_env(**env), cwd=REPO, timeout=600)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"child {argv} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1]), wall


def time_import(stmt: str) -> float:
    code = ("import time; t = time.perf_counter(); " + stmt +
            "; import json; print(json.dumps({'s': time.perf_counter() - t}))")
    return _run(code)[0]["s"]


def first_call(lib: str, program: str, cache: str | None, jax_cache: str | None
               ) -> dict:
    code = CHILD.replace("exec(SOURCE)", "exec(" + repr(PROGRAM_SOURCE) + ")")
    env = {}
    if cache is None:
        env["SCIAX_COMPILATION_CACHE"] = "0"
    else:
        env["SCIAX_COMPILATION_CACHE_DIR"] = cache
    if jax_cache is not None:
        env["BENCH_JAX_CACHE"] = jax_cache
    out, wall = _run(code, lib, program, **env)
    out["proc"] = wall
    return out


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def run_tour(tmp: str) -> tuple[float, float]:
    cache = os.path.join(tmp, "tour")
    times = []
    for _ in range(2):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sciax"], capture_output=True, cwd=REPO,
                       env=_env(SCIAX_COMPILATION_CACHE_DIR=cache), check=True,
                       timeout=900)
        times.append(time.perf_counter() - t0)
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one round")
    parser.add_argument("--tour", action="store_true",
                        help="also time two runs of python -m sciax")
    parser.add_argument("--programs", nargs="*", default=list(PROGRAMS))
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    tmp = tempfile.mkdtemp(prefix="sciax-startup-")
    try:
        for stmt in IMPORTS.values():  # write bytecode caches, untimed
            time_import(stmt)
        imports = {k: [] for k in IMPORTS}
        for _ in range(max(repeats, 3)):
            for name, stmt in IMPORTS.items():
                imports[name].append(time_import(stmt))
        now = datetime.datetime.now(datetime.timezone.utc)
        print(f"# {now:%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} "
              f"CPUs, load {os.getloadavg()[0]:.1f}")
        print("\n| import | median s | vs jax |\n| --- | ---: | ---: |")
        ref = median(imports["jax"])
        for name, xs in imports.items():
            print(f"| `{IMPORTS[name]}` | {median(xs):.3f} | {median(xs) / ref:.2f}x |")

        rows = {}
        for program in args.programs:
            res = {k: [] for k in ("sciax cold", "sciax warm", "jax cold", "jax warm")}
            for r in range(repeats):
                sc = os.path.join(tmp, f"{program}-{r}-sciax")
                jc = os.path.join(tmp, f"{program}-{r}-jax")
                res["sciax cold"].append(first_call("sciax", program, sc, None))
                res["jax cold"].append(first_call("jax", program, None, None))
                res["sciax warm"].append(first_call("sciax", program, sc, None))
                first_call("jax", program, None, jc)  # fills JAX's cache
                res["jax warm"].append(first_call("jax", program, None, jc))
            rows[program] = res
        print("\n| program | sciax cold s | sciax warm s | jax cold s | jax warm s "
              "| warm/cold | sciax warm/jax cold | sciax proc cold / warm s "
              "| jax proc cold s |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for program, res in rows.items():
            m = {k: median([x["first_call"] for x in v]) for k, v in res.items()}
            p = {k: median([x["proc"] for x in v]) for k, v in res.items()}
            print(f"| {program} | {m['sciax cold']:.3f} | {m['sciax warm']:.3f} | "
                  f"{m['jax cold']:.3f} | {m['jax warm']:.3f} | "
                  f"{m['sciax warm'] / m['sciax cold']:.2f}x | "
                  f"{m['sciax warm'] / m['jax cold']:.2f}x | "
                  f"{p['sciax cold']:.2f} / {p['sciax warm']:.2f} | "
                  f"{p['jax cold']:.2f} |")
        print("\n| program (cold first call) | sciax trace+lower s | jax trace+lower s "
              "| ratio | sciax trace / lower s | jax trace / lower s "
              "| sciax XLA s | jax XLA s |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for program, res in rows.items():
            s = {k: median([x[k] for x in res["sciax cold"]])
                 for k in ("trace", "lower", "compile")}
            j = {k: median([x[k] for x in res["jax cold"]])
                 for k in ("trace", "lower", "compile")}
            st, jt = s["trace"] + s["lower"], j["trace"] + j["lower"]
            print(f"| {program} | {st:.3f} | {jt:.3f} | {st / jt:.2f}x | "
                  f"{s['trace']:.3f} / {s['lower']:.3f} | "
                  f"{j['trace']:.3f} / {j['lower']:.3f} | "
                  f"{s['compile']:.3f} | {j['compile']:.3f} |")
        if args.tour:
            cold, warm = run_tour(tmp)
            print(f"\n`python -m sciax`: first run {cold:.1f} s (empty cache), second "
                  f"run {warm:.1f} s ({cold / warm:.1f}x faster)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
