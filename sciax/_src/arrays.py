"""The array type and host-to-device transfer, as the layers above lax see them.

``sciax._src.numpy`` is plain array code over lax and does not import the
backend (tests/test_layering.py); it reaches :class:`Array` (for ``isinstance``
checks) and the array-level ``device_put`` (one host value to one Array, not
the pytree-level ``sciax.device_put``) through this module.
"""

from __future__ import annotations

from sciax._src.backend.array import Array as Array
from sciax._src.backend.array import device_put as device_put
from sciax._src.backend.array import scalar_array as scalar_array

__all__ = ["Array", "device_put", "scalar_array"]
