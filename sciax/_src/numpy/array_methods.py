"""NumPy operators, methods and properties of :class:`~sciax.Array` and of
:class:`~sciax._src.core.trace.Tracer`.

Both classes get the very same functions, so a value behaves identically
eagerly and under a transformation.  Every operator is a sciax.numpy function:
broadcasting and promotion live in :mod:`sciax._src.numpy.util` only.
Importing :mod:`sciax.numpy` calls :func:`register` once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.arrays import Array, scalar_array
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.core.trace import Tracer
from sciax._src.numpy import (eager, indexing, manipulation, products, reductions,
                              shape, sorting, ufuncs, util)


def _binary(fn: Callable[[Any, Any], Any], reflected: bool = False
            ) -> Callable[[Any, Any], Any]:
    # Returning NotImplemented for foreign types lets Python try the other
    # operand's reflected method, and raise its usual TypeError otherwise.
    # An eager call runs as sciax.numpy's one cached program (broadcast,
    # convert and the operation together), as ``snp.multiply(x, 2.0)`` does;
    # a Python float operand becomes the weakly typed 0-d Array that the
    # program would make of it (one device buffer per value, kept by
    # ``scalar_array``), so the call takes the all-Arrays fast paths of both the
    # eager wrapper and jit.  Under a transformation ``prog`` is ``fn``.
    prog = eager.program(fn)
    if reflected:
        def op(self: Any, other: Any) -> Any:
            if type(other) is float and type(self) is Array:
                other = scalar_array(other)
            elif not util.is_arraylike(other):
                return NotImplemented
            return prog(other, self)
    else:
        def op(self: Any, other: Any) -> Any:
            if type(other) is float and type(self) is Array:
                other = scalar_array(other)
            elif not util.is_arraylike(other):
                return NotImplemented
            return prog(self, other)
    return op


def _reshape(self: Any, *args: Any, order: str = "C", **kwargs: Any) -> Any:
    """``x.reshape(2, 3)`` or ``x.reshape((2, 3))``."""
    if "shape" in kwargs:
        newshape = kwargs.pop("shape")
    elif len(args) == 1 and not isinstance(args[0], int):
        newshape = args[0]
    else:
        newshape = args
    if kwargs:
        raise TypeError(f"reshape got unexpected keyword arguments {sorted(kwargs)}")
    return shape.reshape(self, newshape, order=order)


def _transpose(self: Any, *axes: Any) -> Any:
    """``x.transpose()``, ``x.transpose(1, 0)`` or ``x.transpose((1, 0))``."""
    if not axes or (len(axes) == 1 and axes[0] is None):
        return shape.transpose(self)
    if len(axes) == 1 and not isinstance(axes[0], int):
        axes = tuple(axes[0])
    return shape.transpose(self, axes)


def _astype(self: Any, dtype: Any, copy: bool = True, device: Any = None) -> Any:
    """The array converted to ``dtype`` (a new array; ``copy`` is accepted for
    NumPy compatibility: sciax arrays are immutable)."""
    return util.cast(util.as_operand("astype", self),
                     dtypes.canonicalize_dtype(np.dtype(dtype)))


def _flatten(self: Any, order: str = "C") -> Any:
    return shape.ravel(self, order)


def _round(self: Any, decimals: int = 0, out: None = None) -> Any:
    return ufuncs.round(self, decimals)


def _dunder_round(self: Any, ndigits: int | None = None) -> Any:
    out = ufuncs.round(self, 0 if ndigits is None else ndigits)
    if ndigits is None and get_aval(self).shape == ():
        return int(out)
    return out


def _mT(self: Any) -> Any:
    return shape.matrix_transpose(self)


def _at(self: Any) -> indexing._IndexUpdateHelper:
    """``x.at[idx].set(v)`` and friends: functional updates (see
    :class:`sciax._src.numpy.indexing._IndexUpdateRef`)."""
    return indexing._IndexUpdateHelper(self)


def _view(self: Any, dtype: Any = None, type: Any = None) -> Any:
    """The same bits read as ``dtype`` (which must have the same itemsize)."""
    if type is not None:
        raise TypeError("view: the 'type' argument is not supported")
    if dtype is None:
        return self
    dt = dtypes.canonicalize_dtype(np.dtype(dtype))
    src = get_aval(self).dtype
    if dt.itemsize != src.itemsize:
        raise ValueError(f"view: changing the itemsize ({src} -> {dt}) is not "
                         "supported; only dtypes of equal itemsize can be viewed")
    if dt == dtypes.bool_ or src == dtypes.bool_:
        # bool has no bit pattern of its own in XLA; go through uint8
        if dt == src:
            return self
        if src == dtypes.bool_:
            return lax.bitcast_convert_type(util.cast(self, np.uint8), dt)
        return util.cast(lax.bitcast_convert_type(self, np.uint8), dt)
    return lax.bitcast_convert_type(self, dt)


def _contains(self: Any, value: Any) -> bool:
    return bool(reductions.any(ufuncs.equal(self, value)))


def _take(self: Any, indices: Any, axis: int | None = None, out: None = None,
          mode: str | None = None, **kwargs: Any) -> Any:
    return indexing.take(self, indices, axis=axis, out=out, mode=mode, **kwargs)


def _diagonal(self: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    return indexing.diagonal(self, offset, axis1, axis2)


def _trace(self: Any, offset: int = 0, axis1: int = 0, axis2: int = 1,
           dtype: Any = None, out: None = None) -> Any:
    return indexing.trace(self, offset, axis1, axis2, dtype, out)


def _copy(self: Any) -> Any:
    return self


_operators: dict[str, Callable[..., Any]] = {
    "__add__": _binary(ufuncs.add), "__radd__": _binary(ufuncs.add, True),
    "__sub__": _binary(ufuncs.subtract), "__rsub__": _binary(ufuncs.subtract, True),
    "__mul__": _binary(ufuncs.multiply), "__rmul__": _binary(ufuncs.multiply, True),
    "__truediv__": _binary(ufuncs.divide),
    "__rtruediv__": _binary(ufuncs.divide, True),
    "__floordiv__": _binary(ufuncs.floor_divide),
    "__rfloordiv__": _binary(ufuncs.floor_divide, True),
    "__mod__": _binary(ufuncs.remainder), "__rmod__": _binary(ufuncs.remainder, True),
    "__divmod__": _binary(ufuncs.divmod), "__rdivmod__": _binary(ufuncs.divmod, True),
    "__pow__": _binary(ufuncs.power), "__rpow__": _binary(ufuncs.power, True),
    "__matmul__": _binary(products.matmul),
    "__rmatmul__": _binary(products.matmul, True),
    "__and__": _binary(ufuncs.bitwise_and), "__rand__": _binary(ufuncs.bitwise_and, True),
    "__or__": _binary(ufuncs.bitwise_or), "__ror__": _binary(ufuncs.bitwise_or, True),
    "__xor__": _binary(ufuncs.bitwise_xor), "__rxor__": _binary(ufuncs.bitwise_xor, True),
    "__lshift__": _binary(ufuncs.left_shift),
    "__rlshift__": _binary(ufuncs.left_shift, True),
    "__rshift__": _binary(ufuncs.right_shift),
    "__rrshift__": _binary(ufuncs.right_shift, True),
    "__eq__": _binary(ufuncs.equal), "__ne__": _binary(ufuncs.not_equal),
    "__lt__": _binary(ufuncs.less), "__le__": _binary(ufuncs.less_equal),
    "__gt__": _binary(ufuncs.greater), "__ge__": _binary(ufuncs.greater_equal),
    "__neg__": ufuncs.negative, "__pos__": ufuncs.positive, "__abs__": ufuncs.absolute,
    "__invert__": ufuncs.bitwise_not, "__round__": _dunder_round,
    "__getitem__": indexing.getitem,
}

# the methods that are composite sciax.numpy functions share their eager
# programs (``x.std()`` runs as ``snp.std(x)`` does: one cached program)
_p = eager.program
_methods: dict[str, Callable[..., Any]] = {
    "sum": _p(reductions.sum), "prod": _p(reductions.prod),
    "mean": _p(reductions.mean), "max": _p(reductions.max), "min": _p(reductions.min),
    "all": _p(reductions.all), "any": _p(reductions.any),
    "argmax": _p(reductions.argmax), "argmin": _p(reductions.argmin),
    "cumsum": _p(reductions.cumsum), "cumprod": _p(reductions.cumprod),
    "reshape": _reshape, "transpose": _transpose, "ravel": shape.ravel,
    "flatten": _flatten, "squeeze": shape.squeeze, "swapaxes": shape.swapaxes,
    "astype": _astype, "conj": ufuncs.conjugate, "conjugate": ufuncs.conjugate,
    "clip": _p(ufuncs.clip), "dot": _p(products.dot), "round": _round,
    "var": _p(reductions.var), "std": _p(reductions.std), "ptp": _p(reductions.ptp),
    "sort": _p(sorting.sort), "argsort": _p(sorting.argsort),
    "nonzero": sorting.nonzero, "repeat": manipulation.repeat,
    "searchsorted": _p(sorting.searchsorted), "compress": sorting.compress,
    "choose": sorting.choose, "partition": _p(sorting.partition),
    "argpartition": _p(sorting.argpartition),
    "take": _take,
    "diagonal": _diagonal, "trace": _trace, "view": _view,
    "__contains__": _contains,
}

# only where the class lacks them (sciax.Array has its own)
_tracer_extras: dict[str, Callable[..., Any]] = {"copy": _copy}

_properties: dict[str, Callable[[Any], Any]] = {
    "T": _transpose, "mT": _mT, "real": ufuncs.real, "imag": ufuncs.imag, "at": _at,
}


def register(cls: type) -> None:
    """Attach the operators, methods and properties to ``cls``."""
    for name, fn in _operators.items():
        setattr(cls, name, fn)
    for name, fn in _methods.items():
        setattr(cls, name, fn)
    for name, fn in _properties.items():
        setattr(cls, name, property(fn))
    for name, fn in _tracer_extras.items():
        if not hasattr(cls, name):
            setattr(cls, name, fn)
    # defining __eq__ would otherwise reset __hash__; arrays stay unhashable
    cls.__hash__ = None  # type: ignore[assignment]


for _cls in (Array, Tracer):
    register(_cls)
del _cls
