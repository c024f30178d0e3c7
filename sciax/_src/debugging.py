"""``sciax.debug``: printing and host callbacks from inside compiled code.

``debug_callback_p`` has no outputs and a side effect.  Eagerly it calls the
Python function at once; compiled, it lowers to jaxlib's CPU Python-callback
custom call, so the function runs on the host each time the program reaches it
(once per loop iteration inside ``while_loop``/``scan``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from sciax._src.backend.mlir import hlo, ir
from sciax._src.backend.pytree import registry
from sciax._src.core.avals import is_arraylike
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


def _debug_callback_lowering(ctx: lowering.LoweringRuleContext, *args: ir.Value,
                             callback: _Callback) -> list:
    def host_fn(*arrays: np.ndarray) -> tuple:
        callback(*arrays)
        return ()

    index = ctx.module_ctx.add_host_callback(host_fn)
    hlo.CustomCallOp(
        [], list(args),
        call_target_name=ir.StringAttr.get("xla_ffi_python_cpu_callback"),
        has_side_effect=ir.BoolAttr.get(True),
        api_version=ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 4),
        backend_config=ir.DictAttr.get({"index": ir.IntegerAttr.get(
            ir.IntegerType.get_unsigned(64), index)}))
    return []


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
