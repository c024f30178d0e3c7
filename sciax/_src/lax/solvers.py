"""Differentiable solves with user-supplied solvers: ``custom_linear_solve``
and ``custom_root``.

Both differentiate the *equation*, not the solver's iterations (implicit
differentiation).  ``linear_solve_p`` means ``x = A^{-1} b`` for the linear
map ``A = matvec``; ``solve(matvec, b)`` (a CG loop, a factorisation, ...)
only says how to compute it.  Its JVP is ``x' = A^{-1} (b' - A' x)``, which
is again a ``linear_solve_p`` (linear in ``b'``), and its transpose is the
solve with ``A^T`` (``transpose_solve(vecmat, ct)``, or the same solve when
``symmetric``), so forward mode, reverse mode and higher orders never
differentiate through the solver's loop.  ``custom_root`` uses it for the
implicit function theorem: for ``f(x*, theta) = 0``,
``x*' = -(df/dx)^{-1} (df/dtheta) theta'``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sciax._src.backend.pytree import registry
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.core.jaxpr import ClosedJaxpr, close_over_consts, eval_jaxpr
from sciax._src.core.trace import Primitive
from sciax._src.interpreters import ad, batching, lowering
from sciax._src.interpreters import partial_eval as pe

__all__ = ["custom_linear_solve", "custom_root"]


def _trace_vec_fun(name: str, fun: Callable[[list[Any]], list[Any]],
                   avals: list[ShapedArray]) -> tuple[ClosedJaxpr, list[Any]]:
    """``fun`` (flat vector -> flat vector of the same types) as a const-free
    jaxpr whose leading inputs are the values it closes over."""
    jaxpr, consts = close_over_consts(pe.trace_to_jaxpr(lambda *xs: fun(list(xs)),
                                                       avals))
    out = jaxpr.out_avals
    if len(out) != len(avals) or any(
            o.shape != a.shape or o.dtype != a.dtype for o, a in zip(out, avals)):
        raise TypeError(
            f"custom_linear_solve: {name} must map a vector of types "
            f"{[a.str_short() for a in avals]} to the same types, got "
            f"{[o.str_short() for o in out]}")
    return jaxpr, consts


def _split(args: tuple, counts: tuple[int, ...]) -> list[list[Any]]:
    parts, i = [], 0
    for n in counts:
        parts.append(list(args[i:i + n]))
        i += n
    parts.append(list(args[i:]))
    return parts


def _run(jaxpr: ClosedJaxpr, consts: list[Any], vec: list[Any]) -> list[Any]:
    return eval_jaxpr(jaxpr.jaxpr, [], *consts, *vec)


# --- linear_solve_p ----------------------------------------------------------------
# operands: matvec consts, vecmat consts, solve consts, transpose_solve consts, b;
# ``counts`` gives the four const group sizes.  ``vecmat``/``transpose_solve`` are
# None when no transposed solve was given (reverse mode then raises).

linear_solve_p = Primitive("custom_linear_solve", multiple_results=True)


def _ls_abstract_eval(*avals, matvec, vecmat, solve, transpose_solve, counts):
    return list(avals[sum(counts):])


def _ls_impl(*args, matvec, vecmat, solve, transpose_solve, counts):
    _, _, s_c, _, b = _split(args, counts)
    return _run(solve, s_c, b)


def _ls_lowering(ctx, *args, matvec, vecmat, solve, transpose_solve, counts):
    _, _, s_c, _, b = _split(args, counts)
    return lowering.jaxpr_subcomp(ctx.module_ctx, solve.jaxpr, [*s_c, *b])


def _ls_jvp(primals, tangents, *, matvec, vecmat, solve, transpose_solve, counts):
    params = dict(matvec=matvec, vecmat=vecmat, solve=solve,
                  transpose_solve=transpose_solve, counts=counts)
    x = linear_solve_p.bind(*primals, **params)
    mv_c, _, _, _, _ = _split(primals, counts)
    mv_t, _, _, _, b_t = _split(tangents, counts)
    # A' x: the derivative of the matrix, through matvec's closed-over values.
    # The solvers' own closures do not matter: they only compute A^{-1}.
    if any(type(t) is not ad.Zero for t in mv_t):
        _, a_dot_x = ad.jvp_flat(lambda *c: _run(matvec, list(c), x), mv_c, mv_t)
    else:
        a_dot_x = [ad.Zero(get_aval(xi)) for xi in x]
    rhs = []
    for bt, ax in zip(b_t, a_dot_x):
        if type(ax) is ad.Zero:
            rhs.append(bt)
        elif type(bt) is ad.Zero:
            rhs.append(-ax)
        else:
            rhs.append(bt - ax)
    if all(type(r) is ad.Zero for r in rhs):
        return x, [ad.Zero(get_aval(xi)) for xi in x]
    rhs = [ad.instantiate_zeros(r) for r in rhs]
    n_c = sum(counts)
    return x, linear_solve_p.bind(*primals[:n_c], *rhs, **params)


def _ls_transpose(cts, *args, matvec, vecmat, solve, transpose_solve, counts):
    n_c = sum(counts)
    if any(ad.is_undefined_primal(a) for a in args[:n_c]):
        raise NotImplementedError("custom_linear_solve: transposition with respect "
                                  "to the matrix (it is linear only in b)")
    if transpose_solve is None:
        raise TypeError(
            "custom_linear_solve: reverse-mode differentiation (grad, vjp) needs "
            "transpose_solve, or symmetric=True when matvec is symmetric")
    mv_c, vm_c, s_c, ts_c, _ = _split(args, counts)
    cts = [ad.instantiate_zeros(c) for c in cts]
    # A^{-T} ct, as a linear_solve_p with the roles of A and A^T swapped, so its
    # own derivatives are implicit too
    b_ct = linear_solve_p.bind(
        *vm_c, *mv_c, *ts_c, *s_c, *cts, matvec=vecmat, vecmat=matvec,
        solve=transpose_solve, transpose_solve=solve,
        counts=(counts[1], counts[0], counts[3], counts[2]))
    return [None] * n_c + list(b_ct)


def _ls_batch(vals, dims, *, matvec, vecmat, solve, transpose_solve, counts):
    size = batching.batch_size(vals, dims)
    groups = _split(tuple(vals), counts)
    dgroups = _split(tuple(dims), counts)
    b = [batching.bdim_at_front(v, d, size) for v, d in zip(groups[4], dgroups[4])]
    n_vec = len(b)
    new_consts, new_counts, jaxprs = [], [], []
    # every function maps batched vectors to batched vectors (axis 0)
    for jaxpr, consts, cdims in zip((matvec, vecmat, solve, transpose_solve),
                                    groups[:4], dgroups[:4]):
        if jaxpr is None:
            jaxprs.append(None)
            new_counts.append(0)
            continue
        body, extra, _ = batching.batch_jaxpr(jaxpr, [*cdims, *[0] * n_vec], size,
                                              force_out=True)
        # the batched body takes its new consts, then the old ones, then vectors
        jaxprs.append(body)
        group = [*extra, *consts]
        new_consts += group
        new_counts.append(len(group))
    outs = linear_solve_p.bind(*new_consts, *b, matvec=jaxprs[0], vecmat=jaxprs[1],
                               solve=jaxprs[2], transpose_solve=jaxprs[3],
                               counts=tuple(new_counts))
    return outs, [0] * len(outs)


linear_solve_p.def_abstract_eval(_ls_abstract_eval)
linear_solve_p.def_impl(_ls_impl)
lowering.register_lowering(linear_solve_p, _ls_lowering)
ad.primitive_jvps[linear_solve_p] = _ls_jvp
ad.primitive_transposes[linear_solve_p] = _ls_transpose
batching.primitive_batchers[linear_solve_p] = _ls_batch


def _vecmat_of(matvec: ClosedJaxpr, consts: list[Any], avals: list[ShapedArray]
               ) -> Callable[[list[Any]], list[Any]]:
    """The transpose of the linear map ``matvec`` (by transposing its jaxpr)."""
    def vecmat(ct: list[Any]) -> list[Any]:
        args = [*consts, *(ad.UndefinedPrimal(a) for a in avals)]
        cts = ad.backward_pass(matvec.jaxpr, [], list(ct), args=args)
        return [ad.instantiate_zeros(c) if c is not None else ad.zeros_like_aval(a)
                for c, a in zip(cts[len(consts):], avals)]
    return vecmat


def custom_linear_solve(matvec: Callable[[Any], Any], b: Any,
                        solve: Callable[[Callable, Any], Any],
                        transpose_solve: Callable[[Callable, Any], Any] | None = None,
                        symmetric: bool = False, has_aux: bool = False) -> Any:
    """Solve ``matvec(x) = b`` with ``solve``, differentiated implicitly.

    Parameters
    ----------
    matvec : callable
        The linear map ``x -> A x`` (a pytree of arrays to one of the same
        structure); it may close over arrays that are being differentiated.
    b : pytree of arrays
        The right-hand side.
    solve : callable
        ``solve(matvec, b) -> x`` with ``matvec(x) = b`` (any method: a
        factorisation, conjugate gradients in a ``while_loop``, ...).
    transpose_solve : callable, optional
        ``transpose_solve(vecmat, b) -> x`` with ``vecmat(x) = b`` for the
        transposed map; needed for reverse mode unless ``symmetric``.
    symmetric : bool, default False
        ``matvec`` is symmetric, so ``solve`` also solves the transposed system.
    has_aux : bool, default False
        ``solve`` returns ``(x, aux)``; ``aux`` is returned as it is (not
        differentiated).

    Returns
    -------
    x, or (x, aux) with ``has_aux``.

    Notes
    -----
    *Transformations*: derivatives with respect to ``b`` and to the arrays
    ``matvec`` closes over come from ``x' = A^{-1}(b' - A' x)`` (forward) and
    ``b_bar = A^{-T} x_bar`` (reverse), each computed with ``solve`` or
    ``transpose_solve``; the solvers' iterations are never differentiated.
    ``vmap`` batches all four functions.

    Examples
    --------
    >>> a = snp.array([[4.0, 1.0], [1.0, 3.0]])
    >>> def solve(mv, b):
    ...     return snp.linalg.solve(sciax.jacfwd(mv)(b), b)
    >>> def f(s):
    ...     x = lax.custom_linear_solve(lambda v: (s * a) @ v, snp.ones(2), solve,
    ...                                 symmetric=True)
    ...     return x.sum()
    >>> round(float(f(1.0)), 6), round(float(sciax.grad(f)(1.0)), 6)
    (0.454545, -0.454545)
    """
    b_leaves, b_tree = registry.flatten(b)
    avals = [get_aval(x).update(weak_type=False) for x in b_leaves]

    def flat(fun: Callable[[Any], Any]) -> Callable[[list[Any]], list[Any]]:
        def f(xs: list[Any]) -> list[Any]:
            out_leaves, out_tree = registry.flatten(fun(b_tree.unflatten(xs)))
            if out_tree != b_tree:
                raise TypeError(f"custom_linear_solve: matvec must return the "
                                f"structure of b, {b_tree}; got {out_tree}")
            return out_leaves
        return f

    mv_jaxpr, mv_consts = _trace_vec_fun("matvec", flat(matvec), avals)
    aux_box: list[Any] = []

    def solver(which: Callable, mv: Callable[[list[Any]], list[Any]], name: str):
        def f(xs: list[Any]) -> list[Any]:
            op = lambda v: b_tree.unflatten(mv(registry.flatten(v)[0]))  # noqa: E731
            out = which(op, b_tree.unflatten(xs))
            if has_aux:
                out, aux = out
                aux_box.append(aux)
            leaves, tree = registry.flatten(out)
            if tree != b_tree:
                raise TypeError(f"custom_linear_solve: {name} must return the "
                                f"structure of b, {b_tree}; got {tree}")
            return leaves
        return f

    mv_fn = lambda xs: _run(mv_jaxpr, mv_consts, xs)  # noqa: E731
    s_jaxpr, s_consts = _trace_vec_fun("solve", solver(solve, mv_fn, "solve"), avals)
    aux = aux_box[0] if has_aux else None
    vm_jaxpr = ts_jaxpr = None
    vm_consts: list[Any] = []
    ts_consts: list[Any] = []
    if symmetric:
        vm_jaxpr, vm_consts = mv_jaxpr, mv_consts
        ts_jaxpr, ts_consts = s_jaxpr, s_consts
    elif transpose_solve is not None:
        vm_jaxpr, vm_consts = _trace_vec_fun(
            "vecmat", _vecmat_of(mv_jaxpr, mv_consts, avals), avals)
        vm_fn = lambda xs: _run(vm_jaxpr, vm_consts, xs)  # noqa: E731
        aux_box.clear()
        ts_jaxpr, ts_consts = _trace_vec_fun(
            "transpose_solve", solver(transpose_solve, vm_fn, "transpose_solve"),
            avals)
    from sciax._src.lax.elementwise import convert_element_type

    b_leaves = [convert_element_type(x, a.dtype) for x, a in zip(b_leaves, avals)]
    x = linear_solve_p.bind(
        *mv_consts, *vm_consts, *s_consts, *ts_consts, *b_leaves, matvec=mv_jaxpr,
        vecmat=vm_jaxpr, solve=s_jaxpr, transpose_solve=ts_jaxpr,
        counts=(len(mv_consts), len(vm_consts), len(s_consts), len(ts_consts)))
    x = b_tree.unflatten(x)
    return (x, aux) if has_aux else x


# --- custom_root -------------------------------------------------------------------

def custom_root(f: Callable[[Any], Any], initial_guess: Any,
                solve: Callable[[Callable, Any], Any],
                tangent_solve: Callable[[Callable, Any], Any],
                has_aux: bool = False) -> Any:
    """A root of ``f`` found by ``solve``, differentiated implicitly.

    Parameters
    ----------
    f : callable
        The function whose root is sought (a pytree to one of the same
        structure); it may close over arrays that are being differentiated.
    initial_guess : pytree of arrays
        The starting point handed to ``solve``.
    solve : callable
        ``solve(f, initial_guess) -> root`` (Newton, bisection, a
        ``while_loop``: it is never differentiated).
    tangent_solve : callable
        ``tangent_solve(g, y) -> x`` with ``g(x) = y``, for the linear map ``g``
        (the Jacobian of ``f`` at the root), e.g. ``lambda g, y: y / g(1.0)``
        for scalars, or ``lambda g, y: snp.linalg.solve(sciax.jacfwd(g)(y), y)``.
    has_aux : bool, default False
        ``solve`` returns ``(root, aux)``; ``aux`` is not differentiated.

    Returns
    -------
    root, or (root, aux) with ``has_aux``.

    Notes
    -----
    *Transformations*: by the implicit function theorem the derivative of the
    root with respect to the values ``f`` closes over is
    ``-(df/dx)^{-1} (df/dtheta)``, evaluated at the root and solved with
    ``tangent_solve`` (through :func:`custom_linear_solve`, so forward mode,
    reverse mode and higher orders all work without differentiating
    ``solve``'s iterations).  The initial guess gets no derivative.

    Examples
    --------
    >>> def newton(f, x0):
    ...     step = lambda x: x - f(x) / sciax.grad(f)(x)
    ...     return lax.fori_loop(0, 30, lambda i, x: step(x), x0)
    >>> def sqrt(a):
    ...     return lax.custom_root(lambda x: x ** 2 - a, 1.0, newton,
    ...                            lambda g, y: y / g(1.0))
    >>> round(float(sqrt(2.0)), 6), round(float(sciax.grad(sqrt)(2.0)), 6)
    (1.414214, 0.353553)
    """
    from sciax._src.custom_derivatives import custom_jvp
    from sciax._src.core import dtypes

    guess_leaves, tree = registry.flatten(initial_guess)
    avals = [get_aval(x) for x in guess_leaves]

    def f_flat(xs: list[Any]) -> list[Any]:
        out, out_tree = registry.flatten(f(tree.unflatten(xs)))
        if out_tree != tree:
            raise TypeError(f"custom_root: f must return the structure of "
                            f"initial_guess, {tree}; got {out_tree}")
        return out

    f_jaxpr, f_consts = close_over_consts(
        pe.trace_to_jaxpr(lambda *xs: f_flat(list(xs)), avals))
    for o, a in zip(f_jaxpr.out_avals, avals):
        if o.shape != a.shape:
            raise TypeError(f"custom_root: f must map initial_guess to values of the "
                            f"same shapes; got {o.str_short()} for {a.str_short()}")
    # only floating values carry derivatives; the others are closed over
    diff = [dtypes.is_inexact(get_aval(c).dtype) for c in f_consts]
    fixed = [c for c, d in zip(f_consts, diff) if not d]

    def merge(diff_consts: list[Any]) -> list[Any]:
        it_d, it_f = iter(diff_consts), iter(fixed)
        return [next(it_d) if d else next(it_f) for d in diff]

    def f_at(consts: list[Any]) -> Callable[[Any], Any]:
        return lambda x: tree.unflatten(_run(f_jaxpr, consts, registry.flatten(x)[0]))

    def run_solve(diff_consts: list[Any], guess: list[Any]) -> Any:
        out = solve(f_at(merge(diff_consts)), tree.unflatten(guess))
        sol, aux = out if has_aux else (out, None)
        leaves, sol_tree = registry.flatten(sol)
        if sol_tree != tree:
            raise TypeError(f"custom_root: solve must return the structure of "
                            f"initial_guess, {tree}; got {sol_tree}")
        return leaves, aux

    @custom_jvp
    def root(diff_consts: list[Any], guess: list[Any]) -> Any:
        return run_solve(diff_consts, guess)

    @root.defjvp
    def root_jvp(primals, tangents):
        diff_consts, guess = primals
        consts_dot, _ = tangents
        sol, aux = root(diff_consts, guess)
        # df/dtheta . theta' at the root
        _, rhs = ad.jvp_flat(lambda *c: _run(f_jaxpr, merge(list(c)), sol),
                             list(diff_consts), list(consts_dot))
        rhs = [ad.instantiate_zeros(r) for r in rhs]
        consts = merge(list(diff_consts))

        def df_dx(t: Any) -> Any:
            _, out = ad.jvp_flat(lambda *x: _run(f_jaxpr, consts, list(x)), sol,
                                 registry.flatten(t)[0])
            return tree.unflatten([ad.instantiate_zeros(o) for o in out])

        sol_dot = custom_linear_solve(df_dx, tree.unflatten(rhs), tangent_solve,
                                      transpose_solve=tangent_solve)
        aux_dot = registry.flatten(aux)[1].unflatten(
            [ad.zeros_like_aval(get_aval(a)) for a in registry.flatten(aux)[0]])
        return (sol, aux), ([-t for t in registry.flatten(sol_dot)[0]], aux_dot)

    sol, aux = root([c for c, d in zip(f_consts, diff) if d], guess_leaves)
    sol = tree.unflatten(sol)
    return (sol, aux) if has_aux else sol
