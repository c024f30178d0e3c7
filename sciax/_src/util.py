"""Small helpers shared by every layer."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
_zip = builtins.zip
_map = builtins.map


def safe_zip(*args: Sequence[Any]) -> list[tuple[Any, ...]]:
    """``zip`` that insists on equal lengths (a mismatch is an internal bug)."""
    n = len(args[0])
    for a in args[1:]:
        assert len(a) == n, f"length mismatch: {[len(a) for a in args]}"
    return list(_zip(*args))


def safe_map(f: Callable[..., T], *args: Sequence[Any]) -> list[T]:
    """``map`` that insists on equal lengths and returns a list."""
    n = len(args[0])
    for a in args[1:]:
        assert len(a) == n, f"length mismatch: {[len(a) for a in args]}"
    return list(_map(f, *args))


def unzip2(pairs: Iterable[tuple[Any, Any]]) -> tuple[list[Any], list[Any]]:
    xs, ys = [], []
    for x, y in pairs:
        xs.append(x)
        ys.append(y)
    return xs, ys


def split_list(seq: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """Split ``seq`` into consecutive pieces of ``sizes``; the rest is last."""
    out, i = [], 0
    for n in sizes:
        out.append(list(seq[i:i + n]))
        i += n
    out.append(list(seq[i:]))
    return out


def canonicalize_axis(axis: int, ndim: int, what: str = "axis") -> int:
    """Turn a possibly negative ``axis`` into a non-negative one, or raise."""
    import operator

    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {axis!r}") from None
    if not -ndim <= axis < ndim:
        raise ValueError(f"{what} {axis} is out of bounds for an array of rank {ndim}")
    return axis + ndim if axis < 0 else axis


def prod(xs: Iterable[int]) -> int:
    out = 1
    for x in xs:
        out *= int(x)
    return out


def check_argnum_spec(value: Any, what: str, fun: Callable | None = None
                      ) -> tuple[int, ...]:
    """``value`` (an int or an iterable of ints, e.g. ``static_argnums``) as a
    tuple, with a TypeError/ValueError naming ``what`` and the value when an
    entry is not an int or, where ``fun``'s signature fixes the number of
    positional parameters, is out of range.

    Examples
    --------
    >>> from sciax._src.util import check_argnum_spec
    >>> check_argnum_spec(1, "static_argnums", lambda x, n: x)
    (1,)
    """
    import inspect

    if value is None:
        return ()
    try:
        nums = (value,) if isinstance(value, int) else tuple(value)
    except TypeError:
        nums = (value,)
    for n in nums:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"{what}={value!r} is not valid; expected an int or a "
                            "sequence of ints (positional argument indices)")
    try:
        params = list(inspect.signature(fun).parameters.values()) if fun else []
    except (TypeError, ValueError):
        params = []
    if params and not any(p.kind is p.VAR_POSITIONAL for p in params):
        npos = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                   for p in params)
        for n in nums:
            if not -npos <= n < npos:
                raise ValueError(
                    f"{what}={value!r} is out of range: "
                    f"{getattr(fun, '__name__', fun)!s} takes {npos} positional "
                    f"argument(s), so indices must lie in [{-npos}, {npos})")
    return nums
