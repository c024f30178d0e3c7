"""``sciax.experimental``: JAX's ``jax.experimental`` names that sciax has, and
sciax's own experimental helpers."""

from collections.abc import Callable as _Callable

from sciax._src.debugging import io_callback as io_callback
from sciax._src.numpy import eager as _eager


def eager_program(fun: _Callable) -> _Callable:
    """``fun``, run eagerly as one cached compiled program per signature.

    A function built from many array operations dispatches each of them on
    its own when called outside any transformation.  Wrapped, its eager calls
    run as one compiled XLA program per signature instead (compiled on the
    second call of a signature, so a signature used once costs nothing
    extra), while under ``jit``, ``grad``, ``vmap`` or control flow it is
    traced inline exactly as before.  This is what every composite
    ``sciax.numpy`` and ``sciax.linalg`` function does.

    The signature of a call is its argument tree with arrays and Python
    floats as operands (new values reuse the program) and Python ints, bools,
    strings and other hashable values as compile-time constants.  A call with
    a callable or an unhashable argument, or a function that cannot be traced
    for a signature (its output shape depends on values, or it returns
    non-array values), runs directly, op by op.  The programs are kept in
    least-recently-used caches bounded by ``sciax.config.jit_cache_size``.

    Parameters
    ----------
    fun : callable
        A function of arrays (pytrees of arrays) and static Python values.

    Returns
    -------
    callable
        ``fun`` with the same name, docstring and signature
        (``__wrapped__`` is ``fun``).

    Examples
    --------
    >>> from sciax.experimental import eager_program
    >>> @eager_program
    ... def rms(x, axis=None):
    ...     return snp.sqrt(snp.mean(x * x, axis=axis))
    >>> x = snp.arange(4.0)
    >>> [round(float(rms(x)), 4) for _ in range(3)]  # 3rd call: cached program
    [1.8708, 1.8708, 1.8708]
    """
    return _eager.program(fun)
