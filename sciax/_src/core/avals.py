"""Abstract values: what a transformation knows about an array it cannot see."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from sciax._src.core import dtypes
from sciax._src.util import prod


def canonicalize_shape(shape: Any, name: str) -> tuple[int, ...]:
    """``shape`` (an int, or a sequence of ints) as a tuple of non-negative ints.

    The one shape canonicaliser of the core: TypeError for anything that is not
    static integers, ValueError for a negative dimension, both naming ``name``.

    Examples
    --------
    >>> from sciax._src.core.avals import canonicalize_shape
    >>> canonicalize_shape(3, "zeros"), canonicalize_shape([2, np.int64(4)], "ones")
    ((3,), (2, 4))
    """
    if isinstance(shape, int | np.integer):
        shape = (shape,)
    try:
        out = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"{name}: shape must be an integer or a sequence of integers, "
                        f"got {shape!r}") from None
    if any(d < 0 for d in out):
        raise ValueError(f"{name}: negative dimensions are not allowed (shape {out})")
    return out


class ShapedArray:
    """An array of known shape and dtype, with a ``weak_type`` flag.

    Weakly typed values come from Python scalars; they yield to the dtype of the
    arrays they meet (see :mod:`sciax._src.core.dtypes`).
    """

    __slots__ = ("shape", "dtype", "weak_type", "_hash", "key")
    array_abstraction_level = 1

    def __init__(self, shape: tuple[int, ...], dtype: Any, weak_type: bool = False):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)
        # ``(shape, dtype, weak_type)``: what the aval is, as a plain tuple that
        # hashes and compares in C (jit's cache keys are built from these)
        self.key = (self.shape, self.dtype, self.weak_type)
        self._hash = hash(self.key)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return prod(self.shape)

    def update(self, shape=None, dtype=None, weak_type=None) -> ShapedArray:
        return ShapedArray(
            self.shape if shape is None else shape,
            self.dtype if dtype is None else dtype,
            self.weak_type if weak_type is None else weak_type,
        )

    def strip_weak_type(self) -> ShapedArray:
        return self.update(weak_type=False) if self.weak_type else self

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is ShapedArray
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
        )

    def __hash__(self) -> int:
        return self._hash

    def str_short(self) -> str:
        dims = ",".join(map(str, self.shape))
        return f"{dtypes.short_name(self.dtype)}[{dims}]"

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.str_short()}{weak})"


class HasAval:
    """Array metadata read off ``self.aval``: the shared surface of concrete
    arrays (:class:`sciax.Array`) and tracers."""

    __slots__ = ()
    aval: ShapedArray

    @property
    def shape(self) -> tuple[int, ...]:
        return self.aval.shape

    @property
    def dtype(self) -> np.dtype:
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        return self.aval.size

    @property
    def weak_type(self) -> bool:
        return self.aval.weak_type

    @property
    def itemsize(self) -> int:
        return self.aval.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.aval.size * self.aval.dtype.itemsize

    def __len__(self) -> int:
        if not self.aval.shape:
            raise TypeError("len() of unsized object (a 0-d array)")
        return self.aval.shape[0]


def raise_to_shaped(aval: ShapedArray, weak_type: bool | None = None) -> ShapedArray:
    if weak_type is None or weak_type == aval.weak_type:
        return aval
    return aval.update(weak_type=weak_type)


# Types that know their abstract value: filled in by the modules that define
# array-like types (backend.array for Array).  Tracers answer through ``.aval``.
pytype_aval_mappings: dict[type, Any] = {}


def get_aval(x: Any) -> ShapedArray:
    """The abstract value of an array-like, or TypeError naming what ``x`` is."""
    fn = pytype_aval_mappings.get(type(x))
    if fn is not None:
        return fn(x)
    # cycle: core.trace imports avals at import time (Tracer subclasses HasAval)
    from sciax._src.core.trace import Tracer

    if isinstance(x, Tracer):
        return x.aval
    if dtypes.is_python_scalar(x):
        return ShapedArray((), dtypes.python_scalar_dtype(x), dtypes.is_weakly_typed(x))
    if isinstance(x, np.ndarray | np.generic):
        return ShapedArray(np.shape(x), dtypes.canonicalize_dtype(x.dtype))
    raise TypeError(
        f"value of type {type(x).__name__} is not a valid sciax array type: expected "
        "a sciax Array, a NumPy array or a Python scalar (bool, int, float, "
        "complex)" + (f"; got {x!r}" if len(repr(x)) < 80 else ""))


def is_arraylike(x: Any) -> bool:
    try:
        get_aval(x)
    except TypeError:
        return False
    return True
