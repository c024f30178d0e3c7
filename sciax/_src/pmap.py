"""``pmap``: one program, one member of the mapped axis per device.

``pmap(f)(x)`` traces ``f`` once for a single member (the mapped axis removed),
lowers it to a StableHLO module with ``n`` replicas, where ``n`` is the size of
the mapped axis, and compiles it for ``n`` devices.  Each call splits the
inputs along their ``in_axes``, places member ``i`` on device ``i``, runs the
program and stacks the per-device results along ``out_axes``.  Collectives over
the pmap's ``axis_name`` (``lax.psum`` ...) lower to cross-replica StableHLO
collectives (see :mod:`sciax._src.lax.parallel`).

After :func:`sciax.distributed.initialize` the replicas are every device of
every process: each process passes its own members (one per local device) and
collectives span all processes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.api import (_broadcast_prefix as bp, _check_axis_name,
                            _leaf_names, vmap)
from sciax._src.backend import multi
from sciax._src.backend.array import Array, device_put
from sciax._src.backend.pytree import registry
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval, ShapedArray
from sciax._src.core.trace import _state, eval_trace, set_current_trace, Tracer
from sciax._src.interpreters import lowering
from sciax._src.interpreters.partial_eval import DynamicJaxprTrace
from sciax._src.lax import parallel
from sciax._src.lru import LRUCache
from sciax._src.tree_util import flatten_fun
from sciax._src.util import check_argnum_spec


class _PmapTrace(DynamicJaxprTrace):
    """The staging trace of a pmap body; it tells collectives the axis size."""

    def __init__(self, axis_name: Any, size: int):
        super().__init__()
        self.axis_sizes = {axis_name: size}


class _AnonymousAxis:
    """The axis name of ``pmap(f)`` without ``axis_name``: no collective can name it."""

    def __repr__(self) -> str:
        return "<unnamed pmap axis>"


def _to_host(x: Any) -> tuple[np.ndarray, bool]:
    """``x`` as a NumPy array of its sciax dtype, and its weak type."""
    if type(x) is Array:
        return x._value(), x.aval.weak_type
    get_aval(x)  # TypeError naming the type for anything that is not array-like
    if dtypes.is_python_scalar(x):
        return (np.asarray(x, dtypes.python_scalar_dtype(x)),
                dtypes.is_weakly_typed(x))
    value = np.asarray(x)
    dt = dtypes.canonicalize_dtype(value.dtype)
    return (value if dt == value.dtype else value.astype(dt)), False


def _broadcast_prefix(prefix: Any, tree: Any, what: str) -> list[Any]:
    return bp(prefix, tree, what)


class _Entry:
    __slots__ = ("exe", "consts", "out_tree", "out_axes")

    def __init__(self, exe, consts, out_tree, out_axes):
        self.exe = exe
        self.consts = consts
        self.out_tree = out_tree
        self.out_axes = out_axes


class PmapWrapped:
    """A function run with one member of the mapped axis per device."""

    def __init__(self, fun: Callable, axis_name: Any, in_axes: Any, out_axes: Any,
                 static_broadcasted_argnums: int | Sequence[int]):
        if not callable(fun):
            raise TypeError(f"pmap expects a callable, got {fun!r}")
        self.fun = fun
        _check_axis_name(axis_name, "pmap")
        self.axis_name = _AnonymousAxis() if axis_name is None else axis_name
        self.in_axes = tuple(in_axes) if isinstance(in_axes, list) else in_axes
        self.out_axes = out_axes
        self._static = check_argnum_spec(static_broadcasted_argnums,
                                         "pmap static_broadcasted_argnums", fun)
        self._cache: LRUCache = LRUCache("jit_cache_size")  # -> _Entry
        functools.update_wrapper(self, fun, updated=())

    def __repr__(self) -> str:
        return f"<pmapped function {getattr(self.fun, '__name__', self.fun)!r}>"

    # -- arguments ------------------------------------------------------------------
    def _split_static(self, args: tuple) -> tuple[tuple, tuple]:
        if not self._static:
            return args, ()
        n = len(args)
        for i in self._static:
            if not -n <= i < n:
                raise ValueError(
                    f"pmap static_broadcasted_argnums={self._static!r} is out of range "
                    f"for a call with {n} positional argument(s)")
        nums = {i + n if i < 0 else i for i in self._static}
        statics, dyn = [], []
        for i, a in enumerate(args):
            if i in nums:
                try:
                    hash(a)
                except TypeError:
                    raise TypeError(
                        f"pmap static_broadcasted_argnums: argument {i} of type "
                        f"{type(a).__name__} is not hashable") from None
                statics.append((i, a))
            else:
                dyn.append(a)
        return tuple(dyn), tuple(statics)

    def _with_static(self, statics: tuple) -> Callable:
        if not statics:
            return self.fun
        pos = dict(statics)

        def fun(*dyn: Any, **kwargs: Any) -> Any:
            it = iter(dyn)
            args = [pos[i] if i in pos else next(it)
                    for i in range(len(dyn) + len(pos))]
            return self.fun(*args, **kwargs)
        return fun

    def _in_axes_for(self, dyn_args: tuple, statics: tuple) -> Any:
        if not isinstance(self.in_axes, tuple) or not statics:
            return self.in_axes
        # in_axes counts every positional argument; drop the static ones' entries
        n = len(dyn_args) + len(statics)
        if len(self.in_axes) != n:
            raise ValueError(f"pmap in_axes has {len(self.in_axes)} entries but the "
                             f"function was called with {n} positional arguments")
        skip = {i for i, _ in statics}
        return tuple(a for i, a in enumerate(self.in_axes) if i not in skip)

    # -- calling --------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        dyn_args, statics = self._split_static(args)
        in_axes = self._in_axes_for(dyn_args, statics)
        fun = self._with_static(statics)
        if _state.trace is not eval_trace:
            return self._under_transformation(fun, in_axes, dyn_args, kwargs)
        if isinstance(in_axes, tuple) and len(in_axes) != len(dyn_args):
            raise ValueError(
                f"pmap in_axes has {len(in_axes)} entries but the function was called "
                f"with {len(dyn_args)} positional arguments; in_axes must be an int, "
                "None or a tuple with one entry per positional argument")
        axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(dyn_args)
        flat_axes: list[Any] = []
        for i, (ax, a) in enumerate(zip(axes, dyn_args)):
            flat_axes.extend(_broadcast_prefix(ax, a, f"pmap in_axes[{i}]"))
        leaves, in_tree = registry.flatten((dyn_args, kwargs))
        flat_axes.extend([0] * (len(leaves) - len(flat_axes)))

        hosts, avals, dims, sizes = [], [], [], []
        for k, (x, ax) in enumerate(zip(leaves, flat_axes)):
            if isinstance(x, Tracer):
                raise TypeError("pmap got a traced value as argument outside any "
                                "transformation (an escaped tracer)")
            value, weak = _to_host(x)
            if ax is not None:
                if not -value.ndim <= ax < value.ndim:
                    raise ValueError(
                        f"pmap in_axes={ax} is out of range for argument leaf {k} of "
                        f"shape {value.shape} (rank {value.ndim}); expected an axis in "
                        f"[{-value.ndim}, {value.ndim}) or None")
                ax %= value.ndim
                sizes.append((k, value.shape, ax))
            shape = value.shape if ax is None else \
                value.shape[:ax] + value.shape[ax + 1:]
            hosts.append(value)
            dims.append(ax)
            avals.append(ShapedArray(shape, value.dtype, weak))
        n = self._check_size(sizes, _leaf_names(self.fun, dyn_args, kwargs)
                             if not statics else None)

        key = (in_tree, statics, tuple(avals), tuple(dims), n)
        entry = self._cache.lookup(key)
        if entry is None:
            entry = self._cache.put(key, self._compile(fun, in_tree, avals, n))
        per_arg = [[c] * n for c in entry.consts]
        for value, ax in zip(hosts, dims):
            per_arg.append([value] * n if ax is None else
                           [np.take(value, i, axis=ax) for i in range(n)])
        outs = entry.exe.execute(per_arg)
        results = []
        for shards, aval, ax in zip(outs, entry.exe.out_avals, entry.out_axes):
            value = shards[0] if ax is None else np.stack(shards, axis=ax)
            results.append(device_put(value, weak_type=aval.weak_type))
        return entry.out_tree.unflatten(results)

    def _check_size(self, sizes: list[tuple[int, tuple, int]],
                    names: list[str] | None) -> int:
        size_set = {shape[ax] for _, shape, ax in sizes}
        if len(size_set) > 1:
            detail = ", ".join(
                f"{names[k] if names else f'argument leaf {k}'} of shape {shape} "
                f"mapped at axis {ax} has size {shape[ax]}" for k, shape, ax in sizes)
            raise ValueError(
                f"pmap got inconsistent sizes for array axes to be mapped: {detail}")
        if not size_set:
            raise ValueError("pmap needs at least one mapped argument (an in_axes "
                             "entry that is not None)")
        n = size_set.pop()
        local = len(multi.local_devices())
        if multi.process_count() > 1:
            if n != local:
                raise ValueError(
                    f"pmap over {n} items in a multi-process run: each process "
                    f"must map exactly its {local} local devices")
        elif n > local:
            raise ValueError(
                f"pmap over {n} items, but only {local} devices are available (the CPU "
                "device count comes from the SCIAX_NUM_CPU_DEVICES environment "
                "variable, read when the backend starts)")
        elif n == 0:
            raise ValueError("pmap over 0 items: the mapped axis is empty")
        return n

    def _compile(self, fun: Callable, in_tree: Any, avals: list[ShapedArray],
                 n: int) -> _Entry:
        if multi.process_count() > 1:
            devices = multi.global_devices()
        else:
            devices = multi.local_devices()[:n]
        size = len(devices)
        trace = _PmapTrace(self.axis_name, size)
        tracers = [trace.new_arg(a) for a in avals]
        flat, out_tree_of = flatten_fun(fun, in_tree, kwargs=True,
                                        what=f"pmapped function {self.__name__!r}")
        with set_current_trace(trace):
            out_leaves = flat(*tracers)
        out_tree = out_tree_of()
        closed = trace.to_jaxpr(out_leaves)
        jaxpr, consts = closed.jaxpr, closed.consts
        dummy = out_tree.unflatten([0] * len(out_leaves))
        out_axes = _broadcast_prefix(self.out_axes, dummy, "pmap out_axes")
        flat_out_axes = []
        for ax, aval in zip(out_axes, jaxpr.out_avals):
            if ax is not None:
                if not -aval.ndim - 1 <= ax <= aval.ndim:
                    raise ValueError(
                        f"pmap out_axes={ax} is out of range for an output of shape "
                        f"{aval.shape} per device (rank {aval.ndim + 1} once mapped); "
                        f"expected an axis in [{-aval.ndim - 1}, {aval.ndim + 1})")
                ax %= aval.ndim + 1
            flat_out_axes.append(ax)
        with parallel.pmap_axis_env(self.axis_name, size):
            module = lowering.lower_jaxpr(jaxpr, f"pmap_{self.__name__}")
        callbacks = lowering.module_host_callbacks(module)
        in_avals = [v.aval for v in [*jaxpr.constvars, *jaxpr.invars]]
        exe = multi.ReplicatedExecutable(module, in_avals, jaxpr.out_avals, devices,
                                         callbacks)
        host_consts = [_to_host(c)[0] for c in consts]
        return _Entry(exe, host_consts, out_tree, flat_out_axes)

    def _under_transformation(self, fun: Callable, in_axes: Any, args: tuple,
                              kwargs: dict) -> Any:
        # Under jit/grad/vmap the arguments are tracers: run the body as a vmap
        # with the same axis name, which computes the same values on one device.

        return vmap(fun, in_axes=in_axes, out_axes=self.out_axes,
                    axis_name=self.axis_name)(*args, **kwargs)


def pmap(fun: Callable, axis_name: Any = None, *, in_axes: Any = 0, out_axes: Any = 0,
         static_broadcasted_argnums: int | Sequence[int] = ()) -> PmapWrapped:
    """Run ``fun`` on several devices at once, one member of a mapped axis each.

    ``pmap(f)(xs)`` is ``vmap(f)(xs)`` computed by ``n`` copies of one XLA
    program, copy ``i`` on device ``i`` getting member ``i`` of the mapped axis
    (``n`` is the size of that axis).  Inside ``fun``, collectives over
    ``axis_name`` (:func:`sciax.lax.psum`, ``pmean``, ``pmax``, ``pmin``,
    ``all_gather``, ``ppermute``, ``axis_index``) communicate between devices.

    Parameters
    ----------
    fun : callable
        A function written for one member; arrays or pytrees of arrays in and out.
    axis_name : hashable, optional
        The name collectives use for the mapped axis.
    in_axes : int, None, or a tuple/pytree prefix of the arguments
        The mapped axis of each argument, as in :func:`sciax.vmap`; ``None``
        sends the whole argument to every device.  Keyword arguments are
        mapped over axis 0.
    out_axes : int, None, or a pytree prefix of the output
        Where the mapped axis goes in each output; ``None`` returns device 0's
        value of an output that is the same on every device.
    static_broadcasted_argnums : int or sequence of ints
        Positional arguments that are compile-time constants (hashable); a new
        value compiles a new program.

    Returns
    -------
    PmapWrapped
        A callable with the signature of ``fun``.  Programs are compiled once per
        argument shapes/dtypes, static values and pytree structure.

    Raises
    ------
    ValueError
        If mapped axes disagree in size, an axis is out of range, ``in_axes``
        does not match the arguments, or the mapped axis is longer than the
        number of devices.

    Notes
    -----
    **Devices.** On CPU the backend has ``SCIAX_NUM_CPU_DEVICES`` devices
    (default 1), read once when the backend starts, so set it before the first
    sciax computation, e.g. ``SCIAX_NUM_CPU_DEVICES=4 python script.py``.

    **Results.** The per-device results are stacked into an ordinary
    :class:`sciax.Array` on the default device (not kept sharded), so results
    compose with all other sciax code; this costs one copy through the host.

    **Several processes.** After :func:`sciax.distributed.initialize`, every
    process calls the pmapped function with as many members as it has local
    devices; collectives span the devices of all processes, and each process
    gets back its own members' results.

    **Transformations.** Called under ``jit``, ``grad`` or ``vmap`` (or nested in
    another ``pmap``), a pmap runs its body as ``vmap(fun, in_axes, out_axes,
    axis_name=axis_name)``: the same values, computed on one device.
    ``lax.all_gather`` needs the axis size while tracing, so it is not
    available inside a ``jit`` nested in a pmap body.

    Examples
    --------
    >>> f = sciax.pmap(lambda x: x / lax.psum(x, "i"), axis_name="i")
    >>> f(snp.array([1.0]))
    Array([1.], dtype=float64)
    """
    return PmapWrapped(fun, axis_name, in_axes, out_axes, static_broadcasted_argnums)
