"""The only package of sciax that imports jaxlib.

Everything else reaches XLA through these modules: :mod:`.client` (the PjRt
client and devices), :mod:`.array` (the Array type and device_put),
:mod:`.compile` (compiling StableHLO and running executables), :mod:`.mlir`
(the MLIR/StableHLO op builders that lowering rules call), :mod:`.pytree`
(jaxlib's C++ pytree registry) and :mod:`.lapack` (LAPACK kernel targets).
"""

import os as _os

# jaxlib's C++ logs an INFO line per client creation to stderr; keep warnings.
_os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
