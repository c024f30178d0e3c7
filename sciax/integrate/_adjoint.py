"""Derivatives of a solve: through the steps, or by the continuous adjoint.

``direct``: a ``custom_jvp`` whose primal is the fast ``while_loop`` solve;
reverse mode transposes its tangent, so ``jvp``, ``jacfwd`` and ``grad`` all
work.  The tangent is, by the inputs' size: (1) few inputs (at most
``FORWARD_MAX_INPUTS`` floats in y0, args and the span's ends; t_eval counts
one): the Jacobian by forward mode through the
``while`` loop (one tangent per input, batched; the implicit methods' roots
get their implicit-function derivative), times the input tangents; reverse
mode then transposes a matrix product only.  (2) explicit methods: the solve
is recorded (accepted step times) by the fast loop and the tangent
differentiates ``_ode_loop.replay``, a straight-line scan over those steps.
(3) implicit methods: the same steps run as nested scans
(``_ode_loop._bounded_loop``).

``backsolve`` and ``interpolated``: a ``custom_vjp`` (reverse mode only).  The
backward pass integrates the adjoint system ``a' = -a^T df/dy``, ``a_p' = -a^T
df/dp`` from the last output time back to ``t0``, adding each output's
cotangent as it passes it (Chen et al. 2018, "Neural ordinary differential
equations", Alg. 1).  ``backsolve`` re-integrates the state backwards with the
adjoint; ``interpolated`` reads the state from the forward solve's dense output
(as CVODES's checkpointed adjoint reads stored trajectories), which avoids the
backward instability of re-integrating a dissipative system.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import sciax
import sciax.lax as lax
import sciax.numpy as snp
from sciax.integrate._ravel import Ravel
from sciax.integrate._interp import OdeSolution

ADJOINTS = ("direct", "backsolve", "interpolated")


def solve(st: Any, adjoint: str, y0: Any, args: tuple, t0: Any, t1: Any, te: Any,
          rtol: Any, atol: Any) -> dict:
    """Dispatch to the adjoint; one compiled program per static configuration.

    Inputs that are concrete arrays here (not tracers of any transformation)
    cannot carry a tangent: ``fixed`` marks them, so that the forward-mode
    Jacobian of ``adjoint='direct'`` takes no direction for them (a constant
    ``t_span`` and ``t_eval``, the common case, then give ``t`` no tangent at
    all, and the derivative program loses every operation on it)."""
    if adjoint not in ADJOINTS:
        raise ValueError(f"`adjoint` must be one of {ADJOINTS}, got {adjoint!r}")
    if adjoint != "direct":
        if te is None:
            raise ValueError(f"adjoint={adjoint!r} needs `t_eval` (the times whose "
                             f"states carry cotangents)")
        if st.mass is not None:
            raise ValueError(f"adjoint={adjoint!r} does not support a mass matrix; "
                             f"use adjoint='direct'")
        if st.events or st.dense:
            raise ValueError(f"adjoint={adjoint!r} does not support events or "
                             f"dense_output; use adjoint='direct'")
    fixed = tuple(isinstance(x, (sciax.Array, np.ndarray, np.generic, float, int))
                  for x in sciax.tree.leaves([y0, args, t0, t1, te]))
    return _solve_jit(st, adjoint, FORWARD_MAX_INPUTS, fixed, y0, args, t0, t1, te,
                      rtol, atol)


@functools.partial(sciax.jit, static_argnums=(0, 1, 2, 3))
def _solve_jit(st, adjoint, forward_max, fixed, y0, args, t0, t1, te, rtol, atol):
    if adjoint == "direct":
        return _direct(st, forward_max, fixed, y0, args, t0, t1, te, rtol, atol)
    return _continuous(st, adjoint, y0, args, t0, t1, te, rtol, atol)


def _direct(st, forward_max, fixed, y0, args, t0, t1, te, rtol, atol):
    # cycle: _ivp imports this module
    from sciax.integrate._ivp import record, replay, replayable, run

    # The tolerances are arguments, not closures: the rule is re-run when an
    # enclosing jit is transformed, and must not capture that trace's values.
    @sciax.custom_jvp
    def primal(y0, args, t0, t1, te, rtol, atol):
        return run(st, "while", y0, args, t0, t1, te, rtol, atol)

    @primal.defjvp
    def _jvp(primals, tangents):
        *p, rtol, atol = primals
        *tp, _, _ = tangents
        if _forward_inputs(p, fixed) <= forward_max:
            # Few inputs: the Jacobian by forward mode through the fast loop
            # (one tangent per input, batched), so reverse mode only has to
            # transpose a matrix product: no residuals and no transposed loop,
            # which makes the derivative program several times smaller.
            return _forward_jacobian_jvp(
                lambda kind, *p: run(st, kind, *p), p, tp, (rtol, atol), fixed)
        if replayable(st):
            # Solve once with the fast loop, recording the accepted steps, and
            # differentiate a straight-line replay of those steps.
            rec = sciax.tree.map(lax.stop_gradient, record(st, *p, rtol, atol))
            return sciax.jvp(lambda *p: replay(st, rec, *p), tuple(p), tuple(tp))
        return sciax.jvp(lambda *p: run(st, "bounded", *p, rtol, atol), tuple(p),
                         tuple(tp))

    return primal(y0, args, t0, t1, te, rtol, atol)


# ``adjoint='direct'`` takes the Jacobian by forward mode when the inputs
# (y0, args, t0, t1, flattened; t_eval counts one) have at most this many
# entries.
FORWARD_MAX_INPUTS = 16


def _is_float(x: Any) -> bool:
    return x is not None and np.issubdtype(np.dtype(snp.asarray(x).dtype), np.inexact)


def _is_complex(x: Any) -> bool:
    return np.issubdtype(np.dtype(snp.asarray(x).dtype), np.complexfloating)


def _float_size(p: Any) -> int:
    """Real entries of the floating leaves (a complex entry counts two)."""
    return sum(int(np.prod(np.shape(x))) * (2 if _is_complex(x) else 1)
               for x in sciax.tree.leaves(p) if _is_float(x))


def _real_parts(x: Any, dtype: Any) -> list:
    """A leaf as real flat pieces: itself, or its real and imaginary parts."""
    x = snp.asarray(x)
    if _is_complex(x):
        return [snp.ravel(snp.real(x)).astype(dtype),
                snp.ravel(snp.imag(x)).astype(dtype)]
    return [snp.ravel(x.astype(dtype))]


def _has_te(te: Any) -> bool:
    return _is_float(te) and int(np.prod(np.shape(te))) > 0


def _forward_inputs(p: list, fixed: tuple | None = None) -> int:
    """Tangent directions ``_forward_jacobian_jvp`` takes for ``p = [y0, args,
    t0, t1, t_eval]``: one per float entry of the first four, one for all of
    ``t_eval``; none for the leaves that ``fixed`` marks constant."""
    leaves = sciax.tree.leaves(list(p[:-1]))
    fixed = fixed or (False,) * (len(leaves) + 1)
    return (_float_size([x for x, c in zip(leaves, fixed) if not c])
            + int(_has_te(p[-1]) and not fixed[len(leaves)]))


def _forward_jacobian_jvp(f: Any, p: list, tp: list, tol: tuple,
                          fixed: tuple | None = None) -> tuple:
    """``(f("forward", *p, *tol), df(p) . tp)`` with the Jacobian ``df``
    formed by forward mode (one tangent per flattened floating input), and
    the tangent a matrix product with it: linear in ``tp`` with nothing else
    to transpose.

    ``p = [y0, args, t0, t1, t_eval]``.  Output point ``j`` depends on
    ``t_eval`` only through ``t_eval[j]`` (the steps do not depend on it), so
    one direction, every ``t_eval`` entry moved together, gives each point's
    derivative along its own time, which scales that point's tangent.

    ``fixed`` (one flag per leaf of ``p``, ``t_eval`` last) marks constant
    inputs: they take no direction, and their (zero) tangents are ignored."""
    *p0, te = p
    leaves, tree = sciax.tree.flatten(list(p0))
    fixed = fixed or (False,) * (len(leaves) + 1)
    has_te = _has_te(te) and not fixed[len(leaves)]
    # A complex input takes two real directions (its real and imaginary
    # parts): the solve is not holomorphic in it (its output is real).
    fl = [i for i, x in enumerate(leaves) if _is_float(x) and not fixed[i]]
    if not fl and not has_te:
        out = f("while", *p, *tol)
        return out, sciax.tree.map(
            lambda o: snp.zeros_like(o) if _is_float(o) else o, out)
    cplx = [_is_complex(leaves[i]) for i in fl]
    sizes = [int(np.prod(np.shape(leaves[i]))) * (2 if c else 1)
             for i, c in zip(fl, cplx)]
    offs = np.cumsum([0] + sizes)
    n_rest = int(offs[-1])
    dtype = np.result_type(*[np.finfo(snp.asarray(leaves[i]).dtype).dtype for i in fl]
                           or [snp.asarray(te).dtype])
    parts = [q for i in fl for q in _real_parts(leaves[i], dtype)]
    v0 = snp.concatenate(parts + ([snp.zeros((1,), dtype)] if has_te else []))

    other = [None if i in fl else x for i, x in enumerate(leaves)]
    shapes = [np.shape(leaves[i]) for i in fl]
    dtypes = [snp.asarray(leaves[i]).dtype for i in fl]

    # Every traced value enters as an argument: custom_jvp reruns its rule
    # when an enclosing transformation retraces, so nothing may be closed over.
    def jacobian(kind):
        def jac(v, te, other, tol):
            def g(v):
                new = list(other)
                for j, i in enumerate(fl):
                    x = v[offs[j]:offs[j + 1]]
                    if cplx[j]:
                        x = lax.complex(x[:sizes[j] // 2], x[sizes[j] // 2:])
                    new[i] = x.reshape(shapes[j]).astype(dtypes[j])
                return f(kind, *tree.unflatten(new),
                         te + v[n_rest] if has_te else te, *tol)

            outs, tans = sciax.vmap(lambda e: sciax.jvp(g, (v,), (e,)))(
                snp.eye(v.shape[0], dtype=dtype))
            return sciax.tree.map(lambda a: a[0], outs), tans
        return jac

    # The Jacobian comes from the forward kind's while loop, which reverse mode
    # cannot differentiate: a derivative of the Jacobian itself (grad of
    # grad) takes the bounded loop's instead (slow to compile, but rare).
    jac = sciax.custom_jvp(jacobian("forward"))
    jac.defjvp(lambda primals, tangents: sciax.jvp(jacobian("bounded"), primals,
                                                   tangents))
    out, tans = jac(v0, te, other, tuple(tol))

    def lin(*q):
        *q0, qte = q
        ql = sciax.tree.leaves(list(q0))
        v = snp.concatenate([q for i in fl for q in _real_parts(ql[i], dtype)])
        dv = v - lax.stop_gradient(v)
        res = {}
        for k, o in out.items():
            if not _is_float(o):
                res[k] = o
                continue
            # dv . tans as a broadcast product and a sum: it fuses with its
            # neighbours (a tensordot was a dot kernel of its own)
            t = tans[k][:n_rest]
            d = snp.sum(dv.reshape((-1,) + (1,) * (t.ndim - 1)) * t, axis=0)
            if has_te and k == "ys_eval":
                dte = qte - lax.stop_gradient(qte)
                d = d + tans[k][n_rest] * dte[:, None]
            res[k] = o + d.astype(o.dtype)
        return res

    return sciax.jvp(lin, tuple(p), tuple(tp))


def _continuous(st, adjoint, y0, args, t0, t1, te, rtol, atol):
    from sciax.integrate._ivp import _Static, run  # cycle: _ivp imports this module
    interpolated = adjoint == "interpolated"
    fwd_st = st._replace(dense=interpolated, save_steps=interpolated)

    @sciax.custom_vjp
    def primal(y0, args, t0, t1, te, rtol, atol):
        return run(fwd_st, "while", y0, args, t0, t1, te, rtol, atol)

    def fwd(y0, args, t0, t1, te, rtol, atol):
        out = run(fwd_st, "while", y0, args, t0, t1, te, rtol, atol)
        return out, (out, y0, args, t0, t1, te, rtol, atol)

    def bwd(res, ct):
        out, y0, args, t0, t1, te, rtol, atol = res
        ct_ys = snp.where(snp.isnan(out["ys_eval"]), 0.0, ct["ys_eval"])
        rv, n = st.rv, y0.shape[0]
        p_rv = Ravel(args, "args", complex_ok=True) if sciax.tree.leaves(args) else None
        p0 = p_rv.ravel(args) if p_rv else snp.zeros((0,), y0.dtype)

        def rhs(t, y, p):
            pa = p_rv(p) if p_rv else ()
            f = st.fun(t, rv(y), *pa) if st.order == "ty" else st.fun(rv(y), t, *pa)
            return rv.ravel(f)

        if interpolated:
            sol = OdeSolution(out["ts"], out["hs"], out["ys"], out["cs"], out["n_acc"],
                              st.solver.dense_eval, lambda v, trailing=False: v)
            state_at = lambda t, z: sol(t)  # noqa: E731
        else:
            state_at = lambda t, z: z[:n]  # noqa: E731

        def aug(t, z, _unused=None):
            y = state_at(t, z)
            a = z[-(n + p0.shape[0]):][:n]
            f, vjp = sciax.vjp(lambda yy, pp: rhs(t, yy, pp), y, p0)
            ga, gp = vjp(a)
            parts = [-ga, -gp] if interpolated else [f, -ga, -gp]
            return snp.concatenate(parts)

        zrv = Ravel(snp.zeros((n * (1 if interpolated else 2) + p0.shape[0],),
                              y0.dtype))
        back = _Static(fun=aug, rv=zrv, solver=st.solver, events=(),
                       max_step=st.max_step, first_step=None, max_steps=st.max_steps,
                       dense=False, save_steps=False, has_t_eval=False,
                       event_capacity=1, progress=False, order="ty")
        atol_s = snp.min(atol)
        t_next = snp.concatenate([t0[None], te[:-1]])

        def seg(carry, i):
            y, a, ap = carry
            a = a + ct_ys[i]
            z = snp.concatenate([a, ap] if interpolated else [y, a, ap])
            o = run(back, "while", z, (), te[i], t_next[i], None, rtol, atol_s)
            z1 = o["y"]
            y1 = out["ys_eval"][i - 1] if not interpolated else y
            y1 = snp.where(i > 0, y1, y0)
            if interpolated:
                return (y1, z1[:n], z1[n:]), None
            return (y1, z1[n:2 * n], z1[2 * n:]), None

        m = te.shape[0]
        init = (out["ys_eval"][m - 1], snp.zeros_like(y0), snp.zeros_like(p0))
        (_, a0, ap0), _ = lax.scan(seg, init, snp.arange(m - 1, -1, -1))
        f_te = sciax.vmap(lambda t, y: rhs(t, y, p0))(te, out["ys_eval"])
        ct_te = snp.sum(ct_ys * f_te, axis=1)
        ct_t0 = -snp.dot(a0, rhs(t0, y0, p0))
        # A complex arg's cotangent is dL/dRe - i dL/dIm (sciax's convention).
        ct_args = sciax.tree.map(snp.conj, p_rv(ap0)) if p_rv else ()
        return (a0, ct_args, ct_t0, snp.zeros_like(t1), ct_te, None, None)

    primal.defvjp(fwd, bwd)
    return primal(y0, args, t0, t1, te, rtol, atol)


