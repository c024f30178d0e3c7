"""The functions of :mod:`sciax.nn`, written against the public API only."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

__all__ = ["sigmoid", "softplus", "relu", "gelu", "silu", "swish", "log_sigmoid",
           "softmax", "log_softmax", "logsumexp", "one_hot", "standardize"]


def _float_dtype() -> Any:
    """The default float dtype (float64, or float32 with x64 off)."""
    return snp.asarray(1.0).dtype


def _inexact(name: str, x: Any) -> Any:
    """``x`` as an array of a floating (or complex) dtype."""
    x = snp.asarray(x)
    if x.dtype == bool or not snp.issubdtype(x.dtype, snp.inexact):
        if not snp.issubdtype(x.dtype, snp.number) and x.dtype != bool:
            raise TypeError(f"{name}: expected a numeric array, got dtype {x.dtype}")
        x = x.astype(_float_dtype())
    return x


def sigmoid(x: Any) -> Any:
    """The logistic sigmoid ``1 / (1 + exp(-x))``, without overflow.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> [float(nn.sigmoid(v)) for v in (0.0, -1000.0)]
    [0.5, 0.0]
    >>> float(sciax.grad(nn.sigmoid)(0.0))
    0.25
    """
    return lax.logistic(_inexact("sigmoid", x))


@sciax.custom_jvp
def _softplus(x: Any) -> Any:
    # log(1 + e^x) = max(x, 0) + log1p(e^-|x|): the exponent is never positive
    return snp.maximum(x, 0) + snp.log1p(snp.exp(-snp.abs(x)))


@_softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    # d/dx softplus = sigmoid, smooth everywhere (the max/abs kinks cancel), so
    # the second derivative at 0 is sigmoid'(0) = 1/4, not the kinks' 0
    return _softplus(x), t * lax.logistic(x)


def softplus(x: Any) -> Any:
    """``log(1 + exp(x))``, stable for large ``|x|``, derivative ``sigmoid(x)``.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> float(nn.softplus(1000.0)), float(nn.softplus(-1000.0))
    (1000.0, 0.0)
    >>> float(sciax.grad(sciax.grad(nn.softplus))(0.0))
    0.25
    """
    return _softplus(_inexact("softplus", x))


def log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x)) = -softplus(-x)``, finite for large negative ``x``.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> float(nn.log_sigmoid(-1000.0))
    -1000.0
    """
    return -_softplus(-_inexact("log_sigmoid", x))


@sciax.custom_jvp
def _relu(x: Any) -> Any:
    return snp.maximum(x, 0)


@_relu.defjvp
def _relu_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    # the subgradient 0 at x = 0 (as JAX), rather than maximum's tie value 1/2
    return _relu(x), snp.where(x > 0, t, snp.zeros_like(t))


def relu(x: Any) -> Any:
    """``max(x, 0)``; its derivative at 0 is taken as 0 (as in JAX).

    Examples
    --------
    >>> import sciax.nn as nn
    >>> nn.relu(snp.array([-1.0, 0.0, 2.0]))
    Array([0., 0., 2.], dtype=float64)
    >>> float(sciax.grad(nn.relu)(0.0))
    0.0
    """
    return _relu(snp.asarray(x))


def gelu(x: Any, approximate: bool = True) -> Any:
    """The Gaussian error linear unit ``x * Phi(x)``.

    Parameters
    ----------
    x : array_like
    approximate : bool, default True
        If True, the tanh approximation
        ``x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`` (JAX's default);
        if False the exact ``x/2 * erfc(-x / sqrt(2))``.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> round(float(nn.gelu(1.0, approximate=False)), 6)
    0.841345
    >>> round(float(nn.gelu(1.0)), 6)
    0.841192
    """
    x = _inexact("gelu", x)
    if approximate:
        z = math.sqrt(2 / math.pi) * (x + 0.044715 * (x * x * x))
        # x/2 (1 + tanh z) = x sigmoid(2z): one stable function, no cancellation
        return x * lax.logistic(2 * z)
    # erfc keeps the left tail's relative accuracy (1 + erf(x) cancels there)
    return 0.5 * x * lax.erfc(-x / math.sqrt(2))


def silu(x: Any) -> Any:
    """The sigmoid linear unit (swish) ``x * sigmoid(x)``.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> round(float(nn.silu(1.0)), 6)
    0.731059
    """
    x = _inexact("silu", x)
    return x * lax.logistic(x)


swish = silu


def _axes(name: str, axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int | np.integer) else tuple(axis)
    out = []
    for a in axes:
        a = operator.index(a)
        if not -ndim <= a < max(ndim, 1):
            raise ValueError(f"{name}: axis {a} is out of range for an array of "
                             f"rank {ndim}")
        out.append(a % ndim if ndim else 0)
    return tuple(out)


def _masked_max(x: Any, axes: tuple[int, ...], where: Any) -> Any:
    if where is not None:
        x = snp.where(where, x, -snp.inf)
    return snp.max(x, axis=axes, keepdims=True)


def softmax(x: Any, axis: Any = -1, where: Any = None) -> Any:
    """``exp(x) / sum(exp(x))`` along ``axis``, shifted by the maximum so it
    never overflows.

    Entries masked out by ``where`` get probability 0.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> nn.softmax(snp.array([1000.0, 1000.0]))
    Array([0.5, 0.5], dtype=float64)
    """
    x = _inexact("softmax", x)
    axes = _axes("softmax", axis, x.ndim)
    # the shift cancels mathematically, so no derivative flows through it
    m = lax.stop_gradient(_masked_max(x, axes, where))
    e = snp.exp(x - m)
    if where is not None:
        e = snp.where(where, e, 0)
    return e / snp.sum(e, axis=axes, keepdims=True)


def log_softmax(x: Any, axis: Any = -1, where: Any = None) -> Any:
    """``x - logsumexp(x)`` along ``axis``, without overflow.

    Entries masked out by ``where`` are ``-inf``.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> np.round(np.asarray(nn.log_softmax(snp.array([0.0, 1000.0]))), 6)
    array([-1000.,     0.])
    """
    x = _inexact("log_softmax", x)
    axes = _axes("log_softmax", axis, x.ndim)
    shifted = x - lax.stop_gradient(_masked_max(x, axes, where))
    e = snp.exp(shifted)
    if where is not None:
        e = snp.where(where, e, 0)
    out = shifted - snp.log(snp.sum(e, axis=axes, keepdims=True))
    return out if where is None else snp.where(where, out, -snp.inf)


def logsumexp(a: Any, axis: Any = None, b: Any = None, keepdims: bool = False,
              return_sign: bool = False, where: Any = None) -> Any:
    """``log(sum(b * exp(a)))`` along ``axis``, without overflow (as
    :func:`scipy.special.logsumexp`).

    Parameters
    ----------
    a : array_like
    axis : int or tuple of ints, optional
        Axes to reduce; all by default.
    b : array_like, optional
        Weights, broadcast against ``a``; may be negative.
    keepdims : bool, default False
    return_sign : bool, default False
        If True return ``(log|s|, sign(s))``; otherwise a negative sum gives nan.
    where : array_like of bool, optional
        Entries to include.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> round(float(nn.logsumexp(snp.array([1000.0, 1000.0]))), 6)
    1000.693147
    >>> nn.logsumexp(snp.array([0.0, 0.0]), b=snp.array([1.0, -2.0]),
    ...              return_sign=True)
    (Array(0., dtype=float64), Array(-1., dtype=float64))
    """
    a = _inexact("logsumexp", a)
    if b is not None:
        a, b = snp.broadcast_arrays(a, snp.asarray(b, dtype=a.dtype))
    axes = _axes("logsumexp", axis, a.ndim)
    m = _masked_max(a, axes, where)
    # an all -inf (or empty) slice has a non-finite max; shift by 0 there
    m = lax.stop_gradient(snp.where(snp.isfinite(m), m, snp.zeros_like(m)))
    e = snp.exp(a - m)
    if b is not None:
        e = b * e
    if where is not None:
        e = snp.where(where, e, 0)
    s = snp.sum(e, axis=axes, keepdims=True)
    sign = snp.sign(s)
    out = snp.log(snp.abs(s)) + m
    if not keepdims:
        out, sign = snp.squeeze(out, axes), snp.squeeze(sign, axes)
    if return_sign:
        return out, sign
    return out if b is None else snp.where(sign < 0, snp.nan, out)


def one_hot(x: Any, num_classes: int, *, dtype: Any = None, axis: int = -1) -> Any:
    """One-hot encoding of the integers ``x``: a new axis of length
    ``num_classes`` at ``axis``; out-of-range values encode as all zeros.

    Examples
    --------
    >>> import sciax.nn as nn
    >>> nn.one_hot(snp.array([0, 2, 5]), 3)
    Array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 0., 0.]], dtype=float64)
    """
    try:
        num_classes = operator.index(num_classes)
    except TypeError:
        raise TypeError(f"one_hot: num_classes must be a static int, got "
                        f"{num_classes!r}") from None
    if num_classes < 0:
        raise ValueError(f"one_hot: num_classes must be >= 0, got {num_classes}")
    x = snp.asarray(x)
    out_axis = _axes("one_hot", axis, x.ndim + 1)[0]
    shape = [1] * (x.ndim + 1)
    shape[out_axis] = num_classes
    classes = snp.arange(num_classes).reshape(shape)
    hot = snp.expand_dims(x, out_axis) == classes
    return hot.astype(_float_dtype() if dtype is None else dtype)


def standardize(x: Any, axis: Any = -1, mean: Any = None, variance: Any = None,
                epsilon: float = 1e-5, where: Any = None) -> Any:
    """``(x - mean) / sqrt(variance + epsilon)`` along ``axis``.

    The variance is the mean squared deviation from the mean (computed from
    the centred values, so it does not cancel for large offsets).

    Examples
    --------
    >>> import sciax.nn as nn
    >>> np.round(np.asarray(nn.standardize(snp.array([1.0, 2.0, 3.0]),
    ...                                     epsilon=0.0)), 6)
    array([-1.224745,  0.      ,  1.224745])
    """
    x = _inexact("standardize", x)
    axes = _axes("standardize", axis, x.ndim)

    def masked_mean(v: Any) -> Any:
        if where is None:
            return snp.mean(v, axis=axes, keepdims=True)
        w = snp.broadcast_to(snp.asarray(where), v.shape)
        return (snp.sum(snp.where(w, v, 0), axis=axes, keepdims=True)
                / snp.sum(w, axis=axes, keepdims=True))

    if mean is None:
        mean = masked_mean(x)
    if variance is None:
        d = x - mean
        variance = masked_mean(snp.real(d * snp.conj(d)))
    return (x - mean) * lax.rsqrt(variance + epsilon)
