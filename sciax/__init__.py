"""sciax: NumPy/SciPy-style scientific computing with exact derivatives,
batching and compilation through XLA.

``import sciax`` loads only the configuration; everything else (the transforms,
the XLA backend, the public subpackages) is imported on first use of its name,
so a script pays only for what it touches.  ``sciax.numpy``, ``sciax.lax`` and
the other subpackages are reachable as attributes and as ``import sciax.numpy``.
"""

from __future__ import annotations

import importlib as _importlib
from typing import TYPE_CHECKING, Any

from sciax._src.config import config as config

from sciax._src.version import __version__ as __version__

# Public names defined in private modules: name -> (module, attribute).
_LAZY_ATTRS: dict[str, tuple[str, str]] = {
    "Array": ("sciax._src.backend.array", "Array"),
    "devices": ("sciax._src.backend.client", "devices"),
    "device_put": ("sciax._src.jit", "device_put"),
    "jit": ("sciax._src.jit", "jit"),
    "make_jaxpr": ("sciax._src.jit", "make_jaxpr"),
    "grad": ("sciax._src.api", "grad"),
    "value_and_grad": ("sciax._src.api", "value_and_grad"),
    "jvp": ("sciax._src.api", "jvp"),
    "vjp": ("sciax._src.api", "vjp"),
    "linearize": ("sciax._src.api", "linearize"),
    "jacfwd": ("sciax._src.api", "jacfwd"),
    "jacrev": ("sciax._src.api", "jacrev"),
    "hessian": ("sciax._src.api", "hessian"),
    "vmap": ("sciax._src.api", "vmap"),
    "pmap": ("sciax._src.pmap", "pmap"),
    "custom_jvp": ("sciax._src.custom_derivatives", "custom_jvp"),
    "custom_vjp": ("sciax._src.custom_derivatives", "custom_vjp"),
    "checkpoint": ("sciax._src.checkpoint", "checkpoint"),
    "remat": ("sciax._src.checkpoint", "remat"),
    # JAX's API where users reach for it (issue 12): ``import sciax as jax``
    "jacobian": ("sciax._src.api", "jacrev"),
    "pure_callback": ("sciax._src.debugging", "pure_callback"),
    **{n: ("sciax._src.api_extras", n) for n in (
        "ShapeDtypeStruct", "block_until_ready", "clear_caches", "device_get", "eval_shape",
        "default_backend", "device_count", "enable_x64", "linear_transpose",
        "local_device_count", "local_devices", "named_call", "named_scope",
        "process_count", "process_index", "typeof")},
}

# Public subpackages, imported on first attribute access (``sciax.linalg``).
# To add one, add its name here.
_LAZY_SUBMODULES: set[str] = {
    "tree", "debug", "distributed", "lax", "numpy", "random", "linalg",
    "experimental", "nn", "scipy", "tree_util", "optimize", "integrate",
    "special", "stats", "custom_batching",
}


def __getattr__(name: str) -> Any:
    target = _LAZY_ATTRS.get(name)
    if target is not None:
        # Arrays and tracers get their operators and NumPy-style methods from
        # sciax._src.numpy; whatever makes or transforms arrays needs them.
        _importlib.import_module("sciax._src.numpy.array_methods")
        value = getattr(_importlib.import_module(target[0]), target[1])
    elif name in _LAZY_SUBMODULES:
        value = _importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module 'sciax' has no attribute {name!r}")
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_ATTRS, *_LAZY_SUBMODULES})


if TYPE_CHECKING:  # what the lazy names are, for type checkers and IDEs
    from sciax import debug, distributed, lax, linalg, numpy, random, tree  # noqa: F401
    from sciax._src.api import (grad, hessian, jacfwd, jacrev, jvp,  # noqa: F401
                                linearize, value_and_grad, vjp, vmap)
    from sciax._src.backend.array import Array  # noqa: F401
    from sciax._src.backend.client import devices  # noqa: F401
    from sciax._src.checkpoint import checkpoint, remat  # noqa: F401
    from sciax._src.custom_derivatives import custom_jvp, custom_vjp  # noqa: F401
    from sciax._src.jit import device_put, jit, make_jaxpr  # noqa: F401
    from sciax._src.pmap import pmap  # noqa: F401
