"""sciax.lax: primitives that map about 1:1 onto StableHLO operations.

lax is strict: elementwise operations need equal shapes and dtypes (Python
scalars excepted); :mod:`sciax.numpy` adds broadcasting and promotion.
"""

from sciax._src.lax.elementwise import *  # noqa: F401,F403
from sciax._src.lax.shape_ops import *  # noqa: F401,F403
from sciax._src.lax.reductions import *  # noqa: F401,F403
from sciax._src.lax.dot import *  # noqa: F401,F403
from sciax._src.lax.sort import *  # noqa: F401,F403
from sciax._src.lax.indexing import *  # noqa: F401,F403
from sciax._src.lax.control_flow import *  # noqa: F401,F403
from sciax._src.lax.parallel import *  # noqa: F401,F403
from sciax.lax import linalg as linalg  # noqa: E402,F401
from sciax._src.lax.fft import *  # noqa: F401,F403

# --- JAX's lax names (issue 12, item 3): implicit solves, reduce, conveniences ----
from sciax._src.lax.solvers import custom_linear_solve as custom_linear_solve
from sciax._src.lax.solvers import custom_root as custom_root
from sciax._src.lax.scan_extras import reduce as reduce  # noqa: A004
from sciax._src.lax.convenience import *  # noqa: F401,F403
