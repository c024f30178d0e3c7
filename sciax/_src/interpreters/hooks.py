"""The few array operations the interpreters perform themselves.

The interpreters sit below ``sciax.lax`` in the layering, so they do not
import it; :mod:`sciax._src.lax` installs these functions when it defines its
primitives (``sciax`` always imports lax, so they are set before any use).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _missing(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("sciax.lax has not been imported; import sciax first")


# (x, y) -> x + y, same shapes and dtypes
add: Callable[[Any, Any], Any] = _missing
# (aval) -> an array of zeros of that shape and dtype
zeros_like_aval: Callable[[Any], Any] = _missing
# lax.broadcast_in_dim(x, shape, broadcast_dimensions)
broadcast_in_dim: Callable[[Any, Any, Any], Any] = _missing
# lax.transpose(x, permutation)
transpose: Callable[[Any, Any], Any] = _missing
