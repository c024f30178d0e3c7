"""A tour of sciax: ``python -m sciax`` prints what each capability computes.

Each section runs one capability and prints its result next to what NumPy
computes, so the tour doubles as a quick end-to-end check of an installation.
It grows as capabilities land; it should finish in well under a minute.
"""

from __future__ import annotations

import dataclasses
import sys
import textwrap
import time

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax
from sciax import optimize, special, stats
from sciax.integrate import solve_ivp


def _section(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 70 - len(title)))


def _show(label: str, value: object) -> None:
    text = str(value)
    if "\n" in text:
        print(f"{label}:")
        print(textwrap.indent(text, "    "))
    else:
        print(f"{label}: {text}")


def devices_and_arrays() -> None:
    _section("devices and arrays")
    _show("sciax.devices()", sciax.devices())
    _show("sciax.config", sciax.config)
    x = sciax.device_put(np.linspace(0.0, 1.0, 5))
    _show("x = sciax.device_put(np.linspace(0, 1, 5))", repr(x))
    _show("x.shape, x.dtype, x.device", (x.shape, x.dtype, x.device))
    _show("np.asarray(x) (a read-only host copy)", repr(np.asarray(x)))
    _show("sciax.device_put(2.0) (Python scalars are weakly typed)",
          repr(sciax.device_put(2.0)))


def eager_lax() -> None:
    _section("eager sciax.lax operations (each is a cached one-op XLA program)")
    x = sciax.device_put(np.array([0.0, 0.5, 1.0]))
    y = lax.add(lax.mul(lax.sin(x), lax.sin(x)), lax.mul(lax.cos(x), lax.cos(x)))
    _show("sin(x)**2 + cos(x)**2", repr(y))
    _show("lax.exp(x) vs np.exp", f"{np.asarray(lax.exp(x))} vs {np.exp(np.asarray(x))}")
    m = sciax.device_put(np.arange(6.0).reshape(2, 3))
    _show("lax.reshape(arange(6), (3, 2))", repr(lax.reshape(m, (3, 2))))
    _show("lax.transpose(m, (1, 0))", repr(lax.transpose(m, (1, 0))))
    _show("lax.erf(x)", repr(lax.erf(x)))
    i = sciax.device_put(np.array([5, 12], np.int32))
    _show("lax.shift_left(int32 [5, 12], 2)", repr(lax.shift_left(i, 2)))


def numpy_layer() -> None:
    _section("sciax.numpy: the NumPy API, with broadcasting and promotion")
    a = snp.arange(6.0).reshape(2, 3)
    _show("a = snp.arange(6.0).reshape(2, 3)", repr(a))
    _show("snp.sum(snp.sin(a), axis=1)", repr(snp.sum(snp.sin(a), axis=1)))
    _show("np.sin(a).sum(axis=1) (NumPy)", repr(np.sin(np.asarray(a)).sum(axis=1)))
    _show("a @ a.T", repr(a @ a.T))
    _show("a + snp.linspace(0, 1, 3) (broadcast)", repr(a + snp.linspace(0.0, 1.0, 3)))
    _show("snp.where(a > 2, a, -1.0)", repr(snp.where(a > 2, a, -1.0)))
    _show("snp.mean(a), snp.sum(a, axis=0)", (snp.mean(a), snp.sum(a, axis=0)))
    _show("snp.ones(2, dtype=snp.float32) * 2.0 (a weak Python scalar)",
          repr(snp.ones(2, dtype=snp.float32) * 2.0))


def staging() -> None:
    _section("make_jaxpr: the program a function traces to")

    def f(x, y):
        return lax.mul(lax.sin(x), lax.add(y, 2.0))

    x = sciax.device_put(np.ones(3))
    _show("make_jaxpr(lambda x, y: sin(x) * (y + 2.0))(x, x)", sciax.make_jaxpr(f)(x, x))


def jit_section() -> None:
    _section("jit: trace once per signature, compile with XLA")
    traces = []

    def power(x, n):
        traces.append(n)  # runs only while tracing
        acc = x
        for _ in range(n - 1):
            acc = lax.mul(acc, x)
        return acc

    fast = sciax.jit(power, static_argnums=1)
    x = sciax.device_put(np.array([1.0, 2.0, 3.0]))
    _show("jit(power, static_argnums=1)(x, 3)", repr(fast(x, 3)))
    fast(x, 3)
    fast(sciax.device_put(np.array([4.0, 5.0, 6.0])), 3)  # same signature: no trace
    fast(x, 2)
    _show("4 calls (n = 3, 3, 3, 2) traced for n in", traces)
    small = sciax.jit(lambda v: lax.add(lax.mul(v, v), 1.0))
    _show("StableHLO of jit(lambda v: v*v + 1)(float32[2])",
          small.lower(sciax.device_put(np.zeros(2, np.float32))).as_text().strip())
    big = sciax.device_put(np.random.default_rng(0).standard_normal(100_000))
    g = sciax.jit(lambda v: lax.div(lax.sin(v), lax.add(lax.mul(v, v), 1.0)))
    g(big).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(10):
        out = g(big)
    out.block_until_ready()
    ms = (time.perf_counter() - t0) / 10 * 1e3
    ref = np.sin(np.asarray(big)) / (np.asarray(big) ** 2 + 1)
    err = float(np.max(np.abs(np.asarray(out) - ref)))
    _show("sin(v)/(v*v+1) on 100k points", f"{ms:.3f} ms per call, max |err| vs NumPy {err:.1e}")


@sciax.tree.register_dataclass
@dataclasses.dataclass
class Line:
    slope: object
    intercept: object
    name: str = dataclasses.field(default="line", metadata={"static": True})


def pytrees() -> None:
    _section("pytrees: nested containers and dataclasses through jit")
    params = {"w": sciax.device_put(np.array([1.0, -1.0])), "b": (0.5, None)}
    leaves, treedef = sciax.tree.flatten(params)
    _show("sciax.tree.flatten({'w': w, 'b': (0.5, None)})", (leaves, treedef))
    _show("sciax.tree.map(lambda v: v * 2, ...)",
          sciax.tree.map(lambda v: lax.mul(v, 2.0), params))

    @sciax.jit
    def predict(line: Line, x):
        return Line(lax.add(lax.mul(line.slope, x), line.intercept),
                    line.slope, line.name + "'")

    line = Line(sciax.device_put(2.0), sciax.device_put(1.0))
    _show("jit(predict)(Line(2, 1), 3.0)", predict(line, 3.0))


def float32_mode() -> None:
    _section("config: float64 by default, 32-bit on request")
    f = sciax.jit(lambda v: lax.mul(v, 2.0))
    _show("jit(v * 2.0)(np.ones(2))", repr(f(np.ones(2))))
    with sciax.config.override(enable_x64=False):
        _show("with config.override(enable_x64=False)", repr(sciax.device_put(np.ones(2))))
        _show("  make_jaxpr(v * 2.0)(1.0)", sciax.make_jaxpr(lambda v: lax.mul(v, 2.0))(1.0))
    half = sciax.device_put(np.ones(2, np.float16))
    _show("float16 array * 2.0 stays float16 (weak scalar)", repr(lax.mul(half, 2.0)))
    print("(also: SCIAX_ENABLE_X64=0 python -m sciax)")


def derivatives() -> None:
    _section("derivatives: grad, hessian, jvp, jacrev")

    def f(x):
        return snp.sin(x) * x

    exact = np.cos(1.0) * 1.0 + np.sin(1.0)
    _show("grad(x sin x)(1.0)", f"{float(sciax.grad(f)(1.0)):.12f} (exact {exact:.12f})")
    _show("jit(grad(f))(1.0)", f"{float(sciax.jit(sciax.grad(f))(1.0)):.12f}")
    _show("hessian(f)(1.0)", f"{float(sciax.hessian(f)(1.0)):.12f} "
          f"(exact {2 * np.cos(1.0) - np.sin(1.0):.12f})")
    x = snp.array([0.0, 1.0])
    primal, tangent = sciax.jvp(snp.sin, (x,), (snp.ones(2),))
    _show("jvp(snp.sin, ([0, 1],), ([1, 1],))", (primal, tangent))
    _show("jacrev(lambda x: snp.sum(x ** 2) * x)([0, 1])",
          repr(sciax.jacrev(lambda v: snp.sum(v ** 2) * v)(x)))
    _show("make_jaxpr(grad(f))(1.0)", sciax.make_jaxpr(sciax.grad(f))(1.0))


def batching() -> None:
    _section("vmap: batching by a transformation, not by a loop")
    m = snp.arange(6.0).reshape(2, 3)
    _show("vmap(lambda r: snp.dot(r, r))(arange(6).reshape(2, 3))",
          repr(sciax.vmap(lambda r: snp.dot(r, r))(m)))
    _show("per-example gradients: vmap(grad(lambda w: snp.sum(snp.sin(w))))(m)",
          repr(sciax.vmap(sciax.grad(lambda w: snp.sum(snp.sin(w))))(m)))


def control_flow() -> None:
    _section("lax control flow: cond, while_loop, scan (under jit, vmap and grad)")

    def sqrt_newton(a):
        def body(carry):
            x, i = carry
            return 0.5 * (x + a / x), i + 1

        return lax.while_loop(lambda c: c[1] < 30, body, (a, 0))[0]

    a = snp.array([2.0, 9.0, 10.0])
    _show("jit(vmap(Newton sqrt by while_loop))([2, 9, 10])",
          repr(sciax.jit(sciax.vmap(sqrt_newton))(a)))
    _show("lax.cond(x > 0, sin, cos, x) at x = 1.0",
          float(lax.cond(1.0 > 0, lambda v: snp.sin(v), lambda v: snp.cos(v), 1.0)))
    _show("lax.scan running sum of arange(5.0)",
          lax.scan(lambda c, v: (c + v, c + v), 0.0, snp.arange(5.0)))
    _show("grad of sum(scan running sum)([0, 1, 2, 3])",
          repr(sciax.grad(lambda xs: snp.sum(
              lax.scan(lambda c, v: (c + v, c + v), 0.0, xs)[1]))(snp.arange(4.0))))


def custom_rules() -> None:
    _section("custom derivative rules, checkpointing, debugging inside jit")

    @sciax.custom_jvp
    def log1pexp(x):
        return snp.log1p(snp.exp(x))

    @log1pexp.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return log1pexp(x), t * lax.logistic(x)

    _show("grad(log1pexp)(1000.0) with a custom_jvp rule (naive: nan)",
          float(sciax.grad(log1pexp)(1000.0)))
    f = sciax.checkpoint(lambda x: snp.sin(snp.sin(x)))
    _show("grad(checkpoint(sin o sin))(1.0), intermediates recomputed",
          float(sciax.grad(f)(1.0)))

    def loop(x):
        def body(c):
            sciax.debug.print("    debug.print inside jit(while_loop): i={} x={}",
                              c[0], c[1])
            return c[0] + 1, c[1] * 2.0
        return lax.while_loop(lambda c: c[0] < 3, body, (0, x))[1]

    _show("jit(loop)(1.0)", float(sciax.jit(loop)(1.0)))


def linear_algebra_and_random() -> None:
    _section("linear algebra (LAPACK through XLA), FFT and random numbers")
    a = snp.array([[4.0, 1.0], [1.0, 3.0]])
    _show("lax.linalg.cholesky([[4, 1], [1, 3]])", repr(lax.linalg.cholesky(a)))
    _show("snp.linalg.solve(a, [1, 2])", repr(snp.linalg.solve(a, snp.array([1.0, 2.0]))))
    _show("grad(logdet)(a) = inv(a).T",
          repr(sciax.grad(lambda m: snp.linalg.slogdet(m)[1])(a)))
    _show("eigh eigenvalues", repr(lax.linalg.eigh(a)[1]))
    _show("snp.fft.rfft([1, 2, 3, 4])", repr(snp.fft.rfft(snp.arange(1.0, 5.0))))
    key = sciax.random.key(0)
    k1, k2 = sciax.random.split(key)
    _show("random.normal(key, (3,)) (threefry2x32, same bits as JAX)",
          repr(sciax.random.normal(k1, (3,))))
    _show("vmap over split keys, uniform",
          repr(sciax.vmap(lambda k: sciax.random.uniform(k))(sciax.random.split(k2, 3))))


def optimization() -> None:
    _section("sciax.optimize: SciPy's minimize, exact derivatives, differentiable")

    # One compiled solve (BFGS) serves both the minimiser and its derivative.
    f = lambda x, a: snp.sum((x - a) ** 2) + 0.1 * snp.sum(x ** 4)  # noqa: E731
    x0, dx0 = sciax.value_and_grad(
        lambda a: optimize.minimize(f, snp.zeros(2), args=(a,)).x[0])(
            snp.array([0.5, -1.0]))
    _show("minimize(f, x0, args=(a,)).x[0] for f = |x - a|^2 + 0.1 |x|^4",
          f"{float(x0):.6f}")
    _show("its gradient w.r.t. a (implicit function theorem, no unrolling)",
          repr(dx0))


def ode_section() -> None:
    _section("ODEs: sciax.integrate.solve_ivp (SciPy's steps, differentiable)")

    def decay(t, y, k):
        return -k * y

    def y1(k):
        r = solve_ivp(decay, (0.0, 1.0), snp.array([1.0]), args=(k,),
                      t_eval=snp.array([1.0]), rtol=1e-8, atol=1e-10, max_steps=128)
        return r.y[0, -1]

    _show("solve_ivp(y' = -k y, k = 2): y(1) vs exp(-2)",
          f"{float(y1(2.0)):.8f} vs {np.exp(-2.0):.8f}")
    # jvp(y1) and grad(y1) work too (see solve_ivp's docstring); they are left
    # out here because compiling a differentiated solve takes seconds.


def special_and_stats() -> None:
    _section("sciax.special and sciax.stats: SciPy's functions, with derivatives")
    _show("special.gammainc(2.5, 1.7) and its derivative in the shape a",
          f"{float(special.gammainc(2.5, 1.7)):.10f}, "
          f"{float(sciax.grad(special.gammainc)(2.5, 1.7)):.10f}")
    sigma_grad = sciax.grad(lambda s: stats.norm.logpdf(1.3, 0.0, s))(2.0)
    _show("d/dsigma of norm.logpdf(1.3, 0, sigma) at sigma = 2 (closed form: "
          "x^2/s^3 - 1/s)", f"{float(sigma_grad):.6f} vs {1.3 ** 2 / 8 - 0.5:.6f}")


COMING = ["faster small solves (optimize at n < 10, quad's cheap single integrals)",
          "shorter compile times for stiff ODE gradients and the optimisers",
          "see the open issues and benchmarks/README.md"]


def main() -> int:
    start = time.perf_counter()
    print(f"sciax {sciax.__version__} tour (Python {sys.version.split()[0]}, "
          f"NumPy {np.__version__})")
    for step in (devices_and_arrays, eager_lax, numpy_layer, staging, jit_section,
                 pytrees, float32_mode, derivatives, batching, control_flow,
                 custom_rules, linear_algebra_and_random, optimization, ode_section,
                 special_and_stats):
        step()
    _section("coming next")
    print(", ".join(COMING))
    print(f"\ntour finished in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
