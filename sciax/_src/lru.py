"""Bounded least-recently-used caches for compiled programs and traces.

Every cache that can fill with compiled executables or traced jaxprs (a
jitted function's signatures, the eager one-op executables, the eager
``sciax.numpy`` programs) is an :class:`LRUCache`, so that neither a long loop
with a fixed signature nor a sweep over many shapes grows memory without
limit.  Their sizes follow two options of :data:`sciax.config`:

``jit_cache_size``
    signatures (argument shapes, dtypes, static values, tree structure) whose
    trace and executable a jitted function keeps; also the signatures an eager
    ``sciax.numpy`` function keeps programs for;
``eager_cache_size``
    one-op executables of eagerly run primitives and eagerly run jaxprs, for
    the whole process.

Changing an option resizes the live caches (evicting the least recently used
entries when they shrink).
"""

from __future__ import annotations

import collections
import weakref
from typing import Any

from sciax._src.config import config


class LRUCache(collections.OrderedDict):
    """An ordered dict that keeps at most ``maxsize`` entries.

    ``lookup`` marks a hit as most recently used; ``put`` inserts and evicts
    the least recently used entries beyond ``maxsize``.  Plain ``get`` and item
    access stay dict-speed and do not touch the order (a hot path calls
    ``move_to_end`` itself, and only while the cache holds more than one entry).
    ``removals`` counts the entries that have left (evicted or cleared), so a
    holder of a value outside the cache can tell whether it is still current.

    ``option`` names the :data:`sciax.config` option the size follows.
    """

    def __init__(self, option: str):
        super().__init__()
        self.option = option
        self.maxsize = getattr(config, option)
        # how many entries have left so far (evicted or cleared): a holder of
        # a value outside the cache compares it to know the value is current
        self.removals = 0
        _live[id(self)] = self

    def clear(self) -> None:
        self.removals += len(self)
        super().clear()

    def lookup(self, key: Any, default: Any = None) -> Any:
        value = self.get(key, default)
        if value is not default and len(self) > 1:
            self.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> Any:
        """Insert ``key`` (most recently used) and evict beyond the bound;
        returns ``value``."""
        self[key] = value
        self.move_to_end(key)
        self.shrink()
        return value

    def shrink(self) -> None:
        while len(self) > self.maxsize:
            self.popitem(last=False)
            self.removals += 1


# the live caches by identity (dicts compare by content, so no WeakSet)
_live: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _resize(name: str, value: Any) -> None:
    for cache in list(_live.values()):
        if cache.option == name:
            cache.maxsize = value
            cache.shrink()


config.on_change(_resize)


def clear_all() -> None:
    """Empty every live :class:`LRUCache` (compiled programs and traces)."""
    for cache in list(_live.values()):
        cache.clear()
