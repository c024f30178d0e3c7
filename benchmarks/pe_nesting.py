"""Trace-time cost of reverse mode through nested control flow.

Times ``sciax.make_jaxpr(sciax.grad(loss))`` (tracing + partial evaluation
only, no XLA) for a synthetic scan(fori_loop(cond(...))) nest of growing
depth, a tiny 3-state ``odeint`` solve and the Robertson ``solve_ivp``
gradient of ``benchmarks/integrate.py`` (f), and counts primitive binds with
cProfile.

    python benchmarks/pe_nesting.py [ode]   # ode: also the ODE solves

Each case runs in a fresh process, so that no trace cache is warm.
"""
import cProfile
import os
import pstats
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sciax
import sciax.numpy as snp
from sciax import lax


def nested(depth):
    def f(x):
        def level(d, v):
            if d == 0:
                return lax.cond(v[0] > 0, lambda u: snp.sin(u) * u,
                                lambda u: snp.cos(u) + u, v)
            if d % 2:
                return lax.scan(lambda c, _: (level(d - 1, c), None), v, None,
                                length=3)[0]
            return lax.fori_loop(0, 2, lambda i, c: level(d - 1, c), v)
        return snp.sum(level(depth, x))
    return f


def ode_loss(theta):
    def rhs(y, t, k):
        return snp.stack([-k[0] * y[0] + k[2] * y[1] * y[2],
                          k[0] * y[0] - k[2] * y[1] * y[2] - k[1] * y[1] ** 2,
                          k[1] * y[1] ** 2])
    ys = sciax.integrate.odeint(rhs, snp.array([1.0, 0.0, 0.0]),
                                snp.array([0.0, 0.1]), theta, rtol=1e-4, atol=1e-6)
    return snp.sum(ys[-1])


def rober_loss(method):
    def loss(k):
        def rober(t, y, k):
            r1, r2, r3 = k[0] * y[0], k[1] * y[1] ** 2, k[2] * y[1] * y[2]
            return snp.stack([-r1 + r3, r1 - r3 - r2, r2])
        return sciax.integrate.solve_ivp(
            rober, (0.0, 40.0), snp.array([1.0, 0.0, 0.0]), method=method, args=(k,),
            t_eval=snp.array([40.0]), rtol=1e-6, atol=1e-10, max_steps=512).y[0, -1]
    return loss


def measure(name, fun, x):
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    jaxpr = sciax.make_jaxpr(sciax.grad(fun))(x)
    prof.disable()
    dt = time.perf_counter() - t0
    st = pstats.Stats(prof)
    binds = sum(v[1] for k, v in st.stats.items() if k[2] == "bind")
    n_eqns = len(jaxpr.jaxpr.eqns) if hasattr(jaxpr, "jaxpr") else -1
    print(f"{name:28s} {dt:8.2f} s  binds={binds:8d}  top-level eqns={n_eqns}",
          flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        case = sys.argv[2]
        if case == "ode":
            measure("odeint RK45 3-state", ode_loss, snp.array([0.04, 3e7, 1e4]))
        elif case in ("RK45", "BDF"):
            measure(f"Robertson solve_ivp {case}", rober_loss(case),
                    snp.array([0.04, 3e7, 1e4]))
        else:
            measure(f"nested depth {case}", nested(int(case)),
                    snp.array([0.3, -0.2, 0.5]))
    else:
        cases = [str(d) for d in range(1, 7)] + (["ode", "RK45", "BDF"] if "ode" in sys.argv else [])
        for case in cases:
            subprocess.run([sys.executable, __file__, "--one", case], check=True)
