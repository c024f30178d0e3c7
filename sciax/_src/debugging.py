"""``sciax.debug`` and ``io_callback``: host callbacks from inside compiled code.

``debug_callback_p`` has no outputs and a side effect.  Eagerly it calls the
Python function at once; compiled, it lowers to jaxlib's CPU Python-callback
custom call, so the function runs on the host each time the program reaches it
(once per loop iteration inside ``while_loop``/``scan``).  ``io_callback_p``
is the same with results: the function's return values flow back into the
program.

Ordering: every callback custom call of a block takes the block's ordering
token (``!stablehlo.token``) as an operand and returns the next one, so XLA
sees a data dependency from each callback to the next and runs them in
program order, e.g. several ``debug.print`` calls in one loop iteration.  The
chain is per block (a loop body, a branch, the function body): a loop's
iterations run one after another, so its body's callbacks are ordered across
iterations too, but the token does not (yet) pass into and out of nested
control flow, so the order of a callback *around* a loop relative to those
inside it is XLA's choice: it may run a callback written after a loop before
the loop (a ``stablehlo.optimization_barrier`` on the token does not prevent
that; XLA removes barriers before scheduling).  Threading the token through
the ``while``/``case`` carries would fix it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from sciax._src.backend.mlir import aval_to_ir_type, hlo, ir
from sciax._src.backend.pytree import registry
from sciax._src.backend.array import device_put
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, is_arraylike
from sciax._src.core.jaxpr import side_effecting
from sciax._src.core.trace import Primitive
from sciax._src.interpreters import ad, batching, lowering

debug_callback_p = Primitive("debug_callback", multiple_results=True)
side_effecting.add(debug_callback_p)


class _Callback:
    """Hashable holder of the user's function (equations need hashable params)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[..., Any]):
        self.fn = fn

    def __call__(self, *args: Any) -> None:
        self.fn(*args)

    def __repr__(self) -> str:
        return getattr(self.fn, "__name__", "callback")


def _debug_callback_impl(*args: Any, callback: _Callback) -> list:
    callback(*(np.asarray(a) for a in args))
    return []


def emit_host_callback(ctx: lowering.LoweringRuleContext,
                       host_fn: Callable[..., tuple], operands: list[ir.Value],
                       result_avals: list[ShapedArray]) -> list[ir.Value]:
    """Emit a call of ``host_fn(*numpy_operands) -> tuple_of_results`` on the
    host, ordered after the block's previous callbacks (see the module notes)."""
    block = ir.InsertionPoint.current.block
    tokens = ctx.module_ctx.effect_tokens
    token = tokens.get(block)
    if token is None:
        token = hlo.create_token()

    def with_token(tok: Any, *arrays: np.ndarray) -> tuple:
        # the token reaches the host as None and is handed back unchanged
        return (tok, *host_fn(*arrays))

    index = ctx.module_ctx.add_host_callback(with_token)
    op = hlo.CustomCallOp(
        [hlo.TokenType.get(), *(aval_to_ir_type(a) for a in result_avals)],
        [token, *operands],
        call_target_name=ir.StringAttr.get("xla_ffi_python_cpu_callback"),
        has_side_effect=ir.BoolAttr.get(True),
        api_version=ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 4),
        backend_config=ir.DictAttr.get({"index": ir.IntegerAttr.get(
            ir.IntegerType.get_unsigned(64), index)}))
    tokens[block], *results = op.results
    return results


def _debug_callback_lowering(ctx: lowering.LoweringRuleContext, *args: ir.Value,
                             callback: _Callback) -> list:
    def host_fn(*arrays: np.ndarray) -> tuple:
        callback(*arrays)
        return ()

    return emit_host_callback(ctx, host_fn, list(args), [])


def _debug_callback_jvp(primals, tangents, *, callback):
    return debug_callback_p.bind(*primals, callback=callback), []


def _debug_callback_batch(vals, dims, *, callback):
    vals = [batching.bdim_at_front(v, d, batching.batch_size(vals, dims))
            for v, d in zip(vals, dims)]
    return debug_callback_p.bind(*vals, callback=callback), []


debug_callback_p.def_abstract_eval(lambda *avals, callback: [])
debug_callback_p.def_impl(_debug_callback_impl)
lowering.register_lowering(debug_callback_p, _debug_callback_lowering)
ad.primitive_jvps[debug_callback_p] = _debug_callback_jvp
batching.primitive_batchers[debug_callback_p] = _debug_callback_batch


def callback(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Call ``fn(*args, **kwargs)`` on the host with the arrays' values, also
    from inside ``jit`` and loops.

    Array leaves of the arguments arrive as NumPy arrays; other leaves are
    passed through unchanged.  Under ``vmap`` the function sees the batched
    arrays.

    Examples
    --------
    >>> import builtins
    >>> sciax.debug.callback(lambda x: builtins.print("got", x), snp.arange(3))
    got [0 1 2]
    """
    leaves, tree = registry.flatten((args, kwargs))

    is_arr = [is_arraylike(x) and not isinstance(x, str) for x in leaves]
    arrays = [x for x, a in zip(leaves, is_arr) if a]
    statics = [x for x, a in zip(leaves, is_arr) if not a]

    def host(*vals: np.ndarray) -> None:
        it_v, it_s = iter(vals), iter(statics)
        full = [next(it_v) if a else next(it_s) for a in is_arr]
        a, kw = tree.unflatten(full)
        fn(*a, **kw)

    functools.update_wrapper(host, fn, updated=())
    debug_callback_p.bind(*arrays, callback=_Callback(host))


def print(fmt: str, *args: Any, **kwargs: Any) -> None:  # noqa: A001
    """Print ``fmt.format(*args, **kwargs)`` with the arrays' runtime values, also
    from inside ``jit`` and loops (once per iteration, in order).

    Examples
    --------
    >>> sciax.jit(lambda x: sciax.debug.print("x = {x}", x=x))(2.0)
    x = 2.0
    """
    def show(*a: Any, **kw: Any) -> None:
        import builtins

        builtins.print(fmt.format(*a, **kw))

    callback(show, *args, **kwargs)


# --- io_callback ------------------------------------------------------------------
# ``io_callback_p.bind(*arrays, callback=..., result_avals=..., ordered=...)``: a
# host function with results.  It is side-effecting (never removed as dead code,
# never duplicated by a transformation) and every one is ordered by the block's
# token, so ``ordered`` only records the user's request.

io_callback_p = Primitive("io_callback", multiple_results=True)
side_effecting.add(io_callback_p)


def _host_results(name: str, outs: Any, avals: tuple[ShapedArray, ...]) -> tuple:
    leaves = registry.flatten(outs)[0]
    if len(leaves) != len(avals):
        raise RuntimeError(f"{name}: the callback returned {len(leaves)} arrays, "
                           f"result_shape_dtypes declares {len(avals)}")
    results = []
    for i, (v, a) in enumerate(zip(leaves, avals)):
        arr = np.asarray(v)
        if arr.shape != a.shape or not np.can_cast(arr.dtype, a.dtype, "same_kind"):
            raise RuntimeError(
                f"{name}: result {i} of the callback is {arr.dtype}{list(arr.shape)}, "
                f"result_shape_dtypes declares {a.str_short()}")
        results.append(np.asarray(arr, dtype=a.dtype))
    return tuple(results)


def _io_callback_impl(*args: Any, callback: _Callback,
                      result_avals: tuple[ShapedArray, ...], ordered: bool) -> list:
    outs = callback.fn(*(np.asarray(a) for a in args))
    return [device_put(o) for o in outs]


def _io_callback_lowering(ctx: lowering.LoweringRuleContext, *args: ir.Value,
                          callback: _Callback, result_avals: tuple[ShapedArray, ...],
                          ordered: bool) -> list:
    return emit_host_callback(ctx, callback.fn, list(args), list(result_avals))


def _io_callback_jvp(primals, tangents, *, callback, result_avals, ordered):
    raise ValueError(
        "io_callback is not differentiable: sciax cannot see inside the host "
        "function. Wrap the call in sciax.custom_jvp or sciax.custom_vjp with "
        "a rule of your own, or apply lax.stop_gradient to its inputs.")


def _io_callback_batch(vals, dims, *, callback, result_avals, ordered):
    # one host call per batch element, in order: the callback is written for
    # unbatched values, and a side effect per element is what the loop means
    size = batching.batch_size(vals, dims)
    batched = tuple(d is not None for d in dims)
    vals = [batching.bdim_at_front(v, d, size) if b else v
            for v, d, b in zip(vals, dims, batched)]

    def looped(*arrays: np.ndarray) -> tuple:
        per_elem = [callback.fn(*(x[i] if b else x for x, b in zip(arrays, batched)))
                    for i in range(size)]
        return tuple(np.stack([r[k] for r in per_elem]) if per_elem
                     else np.zeros((0, *a.shape), a.dtype)
                     for k, a in enumerate(result_avals))

    functools.update_wrapper(looped, callback.fn, updated=())
    out_avals = tuple(ShapedArray((size, *a.shape), a.dtype) for a in result_avals)
    outs = io_callback_p.bind(*vals, callback=_Callback(looped),
                              result_avals=out_avals, ordered=ordered)
    return outs, [0] * len(outs)


io_callback_p.def_abstract_eval(
    lambda *avals, callback, result_avals, ordered: list(result_avals))
io_callback_p.def_impl(_io_callback_impl)
lowering.register_lowering(io_callback_p, _io_callback_lowering)
ad.primitive_jvps[io_callback_p] = _io_callback_jvp
batching.primitive_batchers[io_callback_p] = _io_callback_batch


def _result_aval(x: Any) -> ShapedArray:
    try:
        return ShapedArray(tuple(x.shape), dtypes.canonicalize_dtype(x.dtype))
    except (AttributeError, TypeError):
        raise TypeError(
            "io_callback: result_shape_dtypes must be a pytree of objects with "
            "shape and dtype (sciax.ShapeDtypeStruct or arrays); got a leaf "
            f"{x!r:.60}") from None


def io_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args: Any,
                sharding: Any = None, ordered: bool = False, **kwargs: Any) -> Any:
    """Call ``callback(*args, **kwargs)`` on the host, also from inside ``jit``
    and loops, and return its results into the program.

    Parameters
    ----------
    callback : callable
        A Python function of NumPy arrays (array leaves of ``args`` and
        ``kwargs`` arrive as NumPy arrays; other leaves unchanged) returning a
        pytree with the structure of ``result_shape_dtypes``.
    result_shape_dtypes : pytree
        Shapes and dtypes of the results (:class:`sciax.ShapeDtypeStruct` or
        arrays as examples); ``None`` or ``()`` for no results.
    *args, **kwargs
        The callback's arguments (pytrees).
    sharding : None
        Accepted for JAX compatibility; callbacks run on the host.
    ordered : bool, default False
        As in JAX, asks that calls run in program order.  sciax orders every
        host callback of a block (see Notes), so both values behave alike.

    Returns
    -------
    pytree
        The callback's results as arrays, structured as ``result_shape_dtypes``.

    Notes
    -----
    *Transformations*: ``jit`` compiles a host call; ``vmap`` calls the callback
    once per batch element, in order, and stacks the results; differentiation
    raises (the host function is opaque; give it a ``custom_jvp``/``custom_vjp``).
    The callback runs each time the program reaches it (once per loop
    iteration) and is never removed as dead code.

    Examples
    --------
    >>> from sciax.experimental import io_callback
    >>> def host_cumsum(x):
    ...     return np.cumsum(x)
    >>> f = sciax.jit(lambda x: io_callback(host_cumsum, x, x) * 2.0)
    >>> f(snp.array([1.0, 2.0, 3.0]))
    Array([ 2.,  6., 12.], dtype=float64)
    """
    if not callable(callback):
        raise TypeError(f"io_callback: callback must be callable, got {callback!r}")
    if sharding is not None:
        raise NotImplementedError("io_callback: sharding is not supported; host "
                                  "callbacks run on the host for one device")
    out_leaves, out_tree = registry.flatten(result_shape_dtypes)
    result_avals = tuple(_result_aval(x) for x in out_leaves)
    leaves, tree = registry.flatten((args, kwargs))
    is_arr = [is_arraylike(x) and not isinstance(x, str) for x in leaves]
    arrays = [x for x, a in zip(leaves, is_arr) if a]
    statics = [x for x, a in zip(leaves, is_arr) if not a]

    def host(*vals: np.ndarray) -> tuple:
        it_v, it_s = iter(vals), iter(statics)
        a, kw = tree.unflatten([next(it_v) if arr else next(it_s) for arr in is_arr])
        return _host_results("io_callback", callback(*a, **kw), result_avals)

    functools.update_wrapper(host, callback, updated=())
    outs = io_callback_p.bind(*arrays, callback=_Callback(host),
                              result_avals=result_avals, ordered=bool(ordered))
    return out_tree.unflatten(outs)


_VMAP_METHODS = (None, "sequential", "sequential_unrolled", "expand_dims",
                 "broadcast_all", "legacy_vectorized")


def pure_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args: Any,
                  sharding: Any = None, vmap_method: str | None = None,
                  **kwargs: Any) -> Any:
    """Call a side-effect-free host function from inside ``jit`` and loops
    (as ``jax.pure_callback``).

    The arguments are those of :func:`io_callback`.  sciax runs it exactly as
    :func:`io_callback` (so it is never removed or duplicated) and, under
    ``vmap``, calls it once per batch element whatever ``vmap_method`` says.

    Examples
    --------
    >>> f = sciax.jit(lambda x: sciax.pure_callback(np.sin, x, x) + 1.0)
    >>> round(float(f(0.5)), 6)
    1.479426
    """
    if vmap_method not in _VMAP_METHODS:
        raise ValueError(f"pure_callback: vmap_method must be one of {_VMAP_METHODS}, "
                         f"got {vmap_method!r}")
    return io_callback(callback, result_shape_dtypes, *args, sharding=sharding,
                       **kwargs)
