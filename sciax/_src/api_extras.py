"""JAX's smaller top-level API: ``ShapeDtypeStruct``, ``eval_shape``,
``block_until_ready``, ``device_get``, device and process queries,
``linear_transpose`` and a few context managers.

These are what scripts written for JAX reach for around the transforms:
shape inference without computing, waiting for asynchronous results, and
copying results to the host.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from sciax._src import lru
from sciax._src.backend.array import Array
from sciax._src.backend.pytree import registry
from sciax._src.core import avals as _avals_mod
from sciax._src.core import dtypes
from sciax._src.core.avals import ShapedArray, get_aval
from sciax._src.api import vjp
from sciax._src.backend.client import get_client
from sciax._src.config import config
from sciax._src.interpreters import ad
from sciax._src.interpreters import partial_eval as pe

__all__ = ["ShapeDtypeStruct", "eval_shape", "block_until_ready", "device_get",
           "device_count", "local_device_count", "local_devices", "process_index",
           "process_count", "default_backend", "typeof", "linear_transpose",
           "named_call", "named_scope", "enable_x64"]


class ShapeDtypeStruct:
    """A shape and a dtype standing in for an array (no data).

    Pass it to :func:`eval_shape` or to ``jit(f).lower(...)`` in place of an
    argument; :func:`eval_shape` returns them for the outputs.  It holds no
    values, so computing with it (``jit(f)(s)``, ``snp.sin(s)``) raises.

    Examples
    --------
    >>> s = sciax.ShapeDtypeStruct((2, 3), np.float32)
    >>> s.shape, s.dtype, s.ndim, s.size
    ((2, 3), dtype('float32'), 2, 6)
    """

    __slots__ = ("shape", "dtype", "weak_type", "sharding")

    def __init__(self, shape: Any, dtype: Any, *, weak_type: bool = False,
                 sharding: Any = None):
        try:
            self.shape = tuple(int(d) for d in shape)
        except TypeError:
            raise TypeError(f"ShapeDtypeStruct: shape must be a sequence of ints, "
                            f"got {shape!r}") from None
        if dtype is None:
            raise TypeError("ShapeDtypeStruct: dtype must be given, got None")
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)
        self.sharding = sharding

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ShapeDtypeStruct) and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type
                and self.sharding == other.sharding)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type))

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise TypeError(f"{self!r} has a shape and dtype but no values: pass it to "
                        "sciax.eval_shape or jit(f).lower, or give an array")


def _leaf_aval(x: Any) -> ShapedArray:
    if isinstance(x, ShapeDtypeStruct):
        return ShapedArray(x.shape, dtypes.canonicalize_dtype(x.dtype), x.weak_type)
    try:
        return get_aval(x)
    except TypeError:
        # duck-typed stand-ins (anything with .shape and .dtype), as JAX accepts
        if hasattr(x, "shape") and hasattr(x, "dtype"):
            return ShapedArray(tuple(x.shape), dtypes.canonicalize_dtype(x.dtype))
        raise TypeError(f"eval_shape: argument leaf {x!r:.60} is neither an array, "
                        "a ShapeDtypeStruct nor an object with .shape and .dtype"
                        ) from None


# abstract values of ShapeDtypeStructs, so tracing entry points (jit(f).lower,
# make_jaxpr) accept them like arrays
_avals_mod.pytype_aval_mappings[ShapeDtypeStruct] = _leaf_aval


def eval_shape(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The shapes and dtypes of ``fun(*args, **kwargs)``, found by tracing,
    without computing anything.

    Argument leaves may be arrays, :class:`ShapeDtypeStruct` objects or
    anything with ``.shape`` and ``.dtype``.  The result has ``fun``'s output
    structure, with a :class:`ShapeDtypeStruct` at each leaf.

    Examples
    --------
    >>> x = sciax.ShapeDtypeStruct((1000, 3), np.float64)
    >>> sciax.eval_shape(lambda a: snp.sum(a @ a.T, axis=0), x)
    ShapeDtypeStruct(shape=(1000,), dtype=float64)
    """
    leaves, in_tree = registry.flatten((args, kwargs))
    avals = [_leaf_aval(x) for x in leaves]
    out_tree_box = []

    def flat_fun(*xs: Any) -> list[Any]:
        a, kw = in_tree.unflatten(xs)
        out_leaves, out_tree = registry.flatten(fun(*a, **kw))
        out_tree_box.append(out_tree)
        return out_leaves

    closed = pe.trace_to_jaxpr(flat_fun, avals)
    return out_tree_box[0].unflatten(
        [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)
         for a in closed.out_avals])


def block_until_ready(x: Any) -> Any:
    """Wait until every array in the pytree ``x`` has been computed; returns ``x``.

    Examples
    --------
    >>> out = sciax.block_until_ready({"y": snp.ones(2) * 3.0})
    >>> out["y"]
    Array([3., 3.], dtype=float64)
    """
    for leaf in registry.flatten(x)[0]:
        wait = getattr(leaf, "block_until_ready", None)
        if wait is not None:
            wait()
    return x


def device_get(x: Any) -> Any:
    """Copy every array in the pytree ``x`` to the host as a NumPy array (other
    leaves are returned as they are).

    Examples
    --------
    >>> sciax.device_get({"w": snp.arange(3.0), "n": 5})
    {'n': 5, 'w': array([0., 1., 2.])}
    """
    leaves, tree = registry.flatten(x)
    return tree.unflatten([np.array(leaf) if isinstance(leaf, Array) else leaf
                           for leaf in leaves])


def _client() -> Any:

    return get_client()


def device_count() -> int:
    """The number of devices of every process.

    Examples
    --------
    >>> sciax.device_count() >= 1
    True
    """
    return len(_client().devices())


def local_device_count() -> int:
    """The number of this process's devices.

    Examples
    --------
    >>> sciax.local_device_count() >= 1
    True
    """
    return len(_client().local_devices())


def local_devices() -> list[Any]:
    """This process's devices.

    Examples
    --------
    >>> len(sciax.local_devices()) == sciax.local_device_count()
    True
    """
    return list(_client().local_devices())


def process_index() -> int:
    """This process's index in a multi-process run (0 otherwise).

    Examples
    --------
    >>> sciax.process_index()
    0
    """
    return int(_client().process_index())


def process_count() -> int:
    """The number of processes in the run.

    Examples
    --------
    >>> sciax.process_count()
    1
    """
    return len({d.process_index for d in _client().devices()})


def default_backend() -> str:
    """The platform the backend runs on (``"cpu"``).

    Examples
    --------
    >>> sciax.default_backend()
    'cpu'
    """
    return str(_client().platform)


# --- small transforms ----------------------------------------------------------------

def typeof(x: Any) -> ShapedArray:
    """The abstract value (shape, dtype, weak type) of an array-like or tracer.

    Examples
    --------
    >>> sciax.typeof(snp.ones((2, 3), np.float32)).str_short()
    'f32[2,3]'
    """
    return get_aval(x)


def linear_transpose(fun: Callable[..., Any], *primals: Any) -> Callable[..., Any]:
    """The transpose of the linear function ``fun``; ``primals`` give the
    argument types (their values are not used).

    The transposed function takes an output cotangent and returns a tuple
    with one cotangent per argument.

    Examples
    --------
    >>> ft = sciax.linear_transpose(lambda x: snp.array([[1.0, 2.0], [3.0, 4.0]]) @ x,
    ...                             snp.zeros(2))
    >>> ft(snp.array([1.0, 0.0]))
    (Array([1., 2.], dtype=float64),)
    """

    leaves, tree = registry.flatten(primals)
    zeros = tree.unflatten([ad.zeros_like_aval(get_aval(x)) for x in leaves])

    def transposed(ct: Any) -> tuple:
        # a linear function's vjp at any point is its transpose; zeros keep the
        # forward pass cheap and free of the user's values
        _, pullback = vjp(fun, *zeros)
        return tuple(pullback(ct))

    return transposed


def named_call(fun: Callable[..., Any], *, name: str | None = None
               ) -> Callable[..., Any]:
    """``fun`` itself (JAX uses the name for profiler scopes; sciax has none).

    Examples
    --------
    >>> float(sciax.named_call(snp.sin, name="s")(0.0))
    0.0
    """
    return fun


@contextlib.contextmanager
def named_scope(name: str) -> Iterator[None]:
    """A context manager that names a region for profilers (a no-op in sciax).

    Examples
    --------
    >>> with sciax.named_scope("layer1"):
    ...     y = snp.ones(2) * 2.0
    """
    if not isinstance(name, str):
        raise TypeError(f"named_scope: name must be a str, got {name!r}")
    yield


def enable_x64(new_val: bool = True) -> Any:
    """A context manager turning 64-bit mode on or off inside its block.

    Examples
    --------
    >>> with sciax.enable_x64(False):
    ...     print(snp.ones(1).dtype)
    float32
    """

    return config.override(enable_x64=bool(new_val))


def clear_caches() -> None:
    """Drop every compiled program and trace that sciax keeps in memory.

    Jitted functions, the eager one-op executables, the eager ``sciax.numpy``
    programs and the transformed-body caches of ``jit`` are emptied; the next
    call of each traces and compiles again (the persistent compilation cache
    on disk is untouched, so recompiling may be a reload).  Arrays stay valid.

    Examples
    --------
    >>> f = sciax.jit(lambda x: x + 1.0)
    >>> float(f(1.0))
    2.0
    >>> sciax.clear_caches()
    >>> float(f(1.0))  # traced and compiled again
    2.0
    """
    lru.clear_all()
    # functools caches of transformed bodies (not the backend's: the client
    # and the LAPACK registrations are process-wide singletons)
    for name, module in list(sys.modules.items()):
        if (module is None or not name.startswith("sciax._src.")
                or name.startswith("sciax._src.backend")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
