"""``vectorize``: NumPy's generalised-ufunc wrapper, implemented with ``vmap``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from sciax._src.api import vmap
from sciax._src.core.avals import get_aval
from sciax._src.numpy import util

__all__ = ["vectorize"]


# --- vectorize ----------------------------------------------------------------------

_DIMS = r"\((?:\w+(?:,\s*\w+)*)?\)"


def _parse_signature(signature: str) -> tuple[list[tuple[str, ...]],
                                              list[tuple[str, ...]]]:
    sig = signature.replace(" ", "")
    if not re.fullmatch(rf"{_DIMS}(?:,{_DIMS})*->{_DIMS}(?:,{_DIMS})*", sig):
        raise ValueError(f"vectorize: not a valid gufunc signature: {signature!r}")
    ins, outs = sig.split("->")

    def groups(text: str) -> list[tuple[str, ...]]:
        return [tuple(d for d in g.split(",") if d) for g in re.findall(r"\((.*?)\)",
                                                                       text)]
    return groups(ins), groups(outs)


class vectorize:
    """Make a function of scalars (or of core arrays, with a gufunc
    ``signature`` such as ``'(n),(n)->()'``) broadcast over its arguments'
    leading axes, by nested ``vmap``: it traces once and works under jit.

    Arguments named in ``excluded`` (positions or keywords) are passed
    through unchanged.

    Examples
    --------
    >>> f = snp.vectorize(lambda x, y: x * y + 1.0)
    >>> f(snp.arange(3.0), 2.0)
    Array([1., 3., 5.], dtype=float64)
    >>> g = snp.vectorize(lambda u, v: snp.dot(u, v), signature="(n),(n)->()")
    >>> g(snp.ones((4, 3)), snp.ones(3))
    Array([3., 3., 3., 3.], dtype=float64)
    """

    def __init__(self, pyfunc: Callable[..., Any], otypes: Any = None, doc: Any = None,
                 excluded: Any = None, cache: bool = False,
                 signature: str | None = None):
        self.pyfunc = pyfunc
        self.otypes = otypes
        self.excluded = frozenset(excluded or ())
        self.signature = signature
        self._sig = _parse_signature(signature) if signature is not None else None
        functools.update_wrapper(self, pyfunc, updated=())
        if doc is not None:
            self.__doc__ = doc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        excluded_kw = {k: v for k, v in kwargs.items() if k in self.excluded}
        kwargs = {k: v for k, v in kwargs.items() if k not in self.excluded}
        fixed = {i: a for i, a in enumerate(args) if i in self.excluded}
        names = list(kwargs)
        mapped = [util.operand("vectorize", a) for i, a in enumerate(args)
                  if i not in self.excluded] + [util.operand("vectorize", kwargs[k])
                                                for k in names]
        n_pos = len(mapped) - len(names)
        if self._sig is not None:
            cores = [len(c) for c in self._sig[0]]
            if len(cores) != len(mapped):
                raise TypeError(f"vectorize: the signature {self.signature!r} has "
                                f"{len(cores)} inputs but {len(mapped)} were given")
        else:
            cores = [0] * len(mapped)
        for x, c in zip(mapped, cores):
            if util.ndim(x) < c:
                raise ValueError(f"vectorize: an input of shape {get_aval(x).shape} "
                                 "has "
                                 f"fewer dimensions than its core dimensions ({c}) in "
                                 f"the signature {self.signature!r}")
        loops = [get_aval(x).shape[:util.ndim(x) - c] for x, c in zip(mapped, cores)]
        loop = util._broadcast_shapes(*loops, name="vectorize") if loops else ()
        mapped = [util.broadcast_to(x, (*loop, *get_aval(x).shape[len(s):]),
                                    "vectorize") for x, s in zip(mapped, loops)]

        def call(*xs: Any) -> Any:
            pos = iter(xs[:n_pos])
            full = [fixed[i] if i in fixed else next(pos)
                    for i in range(len(args))]
            kw = dict(zip(names, xs[n_pos:]), **excluded_kw)
            out = self.pyfunc(*full, **kw)
            if isinstance(out, tuple):
                return tuple(util.operand("vectorize", o) for o in out)
            return util.operand("vectorize", out)

        fn = call
        for _ in loop:
            fn = vmap(fn)
        if not mapped:
            return call()
        out = fn(*mapped)
        if self.otypes:
            types = list(self.otypes) if not isinstance(self.otypes, str) else \
                list(self.otypes)
            if isinstance(out, tuple):
                out = tuple(util.cast(o, np.dtype(t)) for o, t in zip(out, types))
            else:
                out = util.cast(out, np.dtype(types[0]))
        return out
