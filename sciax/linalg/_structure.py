"""Structure tests of ``scipy.linalg``: ``bandwidth``, ``issymmetric`` and
``ishermitian``.

They answer with Python values when their input is concrete, as SciPy does;
under ``jit``/``vmap`` the same computation returns arrays (a traced value
cannot become a Python ``bool``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import sciax.numpy as snp
from sciax.linalg import _util

__all__ = ["bandwidth", "issymmetric", "ishermitian"]


def _namespace(a: Any) -> tuple[Any, Any]:
    """NumPy and the host array for a concrete ``a`` (SciPy's answer costs no
    compilation), else sciax.numpy and the traced array."""
    h = _util.host_value(a)
    return (np, h) if h is not None else (snp, snp.asarray(a))


def _python(x: Any) -> Any:
    """0-d NumPy results as Python scalars; stacks and traced values as they are."""
    if isinstance(x, np.generic) or (isinstance(x, np.ndarray) and x.ndim == 0):
        return x.item()
    return x


# --- structure tests ------------------------------------------------------------------
# Written once for both namespaces: NumPy for concrete input, sciax.numpy under
# jit/vmap, where the answer has to stay an array.

def bandwidth(a: Any) -> tuple[Any, Any]:
    """Lower and upper bandwidth of a matrix: how far below and above the
    diagonal its nonzero entries reach.

    Parameters
    ----------
    a : array_like, shape (..., N, M)

    Returns
    -------
    lu : tuple of 2 ints
        ``(lower, upper)``; ``0`` means nothing below (above) the diagonal.
        For a stack of matrices, two integer NumPy arrays of the batch shape.
        Under ``jit`` or ``vmap`` two int32 arrays (a traced value cannot
        become a Python int).

    Examples
    --------
    >>> from sciax import linalg
    >>> a = np.array([[3., 0., 0.], [1., 4., 2.], [8., 0., 5.]])
    >>> linalg.bandwidth(a)
    (2, 1)
    """
    xp, a = _namespace(a)
    if a.ndim < 2:
        raise ValueError(f"bandwidth: input array must be a 2D array (or a stack of "
                         f"them), got shape {a.shape}")
    n, m = a.shape[-2:]
    offset = (np.arange(n, dtype=np.int32)[:, None]
              - np.arange(m, dtype=np.int32)[None, :])
    nonzero = a != 0
    lower = xp.max(xp.where(nonzero, offset, 0), axis=(-2, -1), initial=0)
    upper = xp.max(xp.where(nonzero, -offset, 0), axis=(-2, -1), initial=0)
    return _python(lower), _python(upper)


def _symmetric(name: str, a: Any, atol: Any, rtol: Any, conjugate: bool) -> Any:
    xp, a = _namespace(a)
    if a.ndim < 2:
        raise ValueError(f"{name}: input array must be a 2D array (or a stack of "
                         f"them), got shape {a.shape}")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: input array must be square, got shape {a.shape}")
    b = xp.swapaxes(a, -1, -2)
    cplx = xp.iscomplexobj(a)
    if conjugate and cplx:
        b = xp.conj(b)
    if atol is None and rtol is None:
        same = a == b
        diag = np.eye(a.shape[-1], dtype=bool)
        if conjugate and cplx:
            # a Hermitian diagonal is real; its real part is not compared, so
            # NaNs there are ignored as in SciPy
            same = xp.where(diag, xp.imag(a) == 0, same)
        else:
            same = same | diag  # the diagonal is not scanned (SciPy)
        ok = xp.all(same, axis=(-2, -1))
    else:
        atol = 0.0 if atol is None else atol
        rtol = 0.0 if rtol is None else rtol
        ok = xp.all(xp.abs(a - b) <= atol + rtol * xp.abs(b), axis=(-2, -1))
    return _python(ok)


def issymmetric(a: Any, atol: Any = None, rtol: Any = None) -> Any:
    """Whether a square matrix equals its transpose.

    Parameters
    ----------
    a : array_like, shape (..., N, N)
    atol, rtol : float, optional
        Tolerances of ``numpy.allclose(a, a.T)`` (the other one defaults to 0
        when only one is given).  Without either the comparison is exact and
        the diagonal is not looked at.

    Returns
    -------
    sym : bool
        A Python bool (a NumPy bool array for a stack of matrices).  Under
        ``jit`` or ``vmap`` a bool array.  Complex matrices are tested for
        symmetry, not for being Hermitian.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.issymmetric(np.array([[1.0, 2.0], [2.0, 3.0]]))
    True
    >>> linalg.issymmetric(np.array([[1.0, 2.0], [2.1, 3.0]]), atol=0.2)
    True
    """
    return _symmetric("issymmetric", a, atol, rtol, conjugate=False)


def ishermitian(a: Any, atol: Any = None, rtol: Any = None) -> Any:
    """Whether a square matrix equals its conjugate transpose.

    Parameters
    ----------
    a : array_like, shape (..., N, N)
    atol, rtol : float, optional
        As for :func:`issymmetric`.

    Returns
    -------
    her : bool
        A Python bool (a NumPy bool array for a stack of matrices); under
        ``jit`` or ``vmap`` a bool array.

    Examples
    --------
    >>> from sciax import linalg
    >>> linalg.ishermitian(np.array([[1.0, 2 + 3j], [2 - 3j, 4.0]]))
    True
    >>> linalg.ishermitian(np.array([[1 + 1j, 3j], [3j, 2.0]]))
    False
    """
    return _symmetric("ishermitian", a, atol, rtol, conjugate=True)
