"""Keys and random bits: the threefry2x32 counter-based hash.

A key is a ``uint32[2]`` array (JAX's "raw" legacy keys, not typed key
arrays).  Every random number is a pure function of a key and a counter, so
sampling is reproducible eagerly, under ``jit`` and under ``vmap``: nothing
is stateful and everything is written with :mod:`sciax.lax`.

The bits are those of JAX's default (``jax_threefry_partitionable=True``)
threefry implementation, bit for bit: ``key``, ``split``, ``fold_in`` and
``random_bits`` give JAX's numbers for the same seed.
"""

from __future__ import annotations

import contextlib
import math
import operator
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

_U32 = np.dtype(np.uint32)
_MASK32 = 0xFFFFFFFF
# Skein's key-schedule parity constant (Salmon et al. 2011, section 3.2).
_PARITY = 0x1BD11BDA
# Rotation distances of Threefry-2x32, 20 rounds (Salmon et al. 2011, table 4).
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def _aval(x: Any) -> tuple[tuple[int, ...], np.dtype]:
    if isinstance(x, int | float | bool):
        return (), np.asarray(x).dtype
    return tuple(x.shape), np.dtype(x.dtype)


def check_key(name: str, key: Any) -> Any:
    """``key`` as an array, after checking that it is a single ``uint32[2]`` key."""
    shape, dtype = _aval(key)
    if dtype != _U32 or shape != (2,):
        raise TypeError(
            f"{name}: expected a single PRNG key, a uint32 array of shape (2,) as "
            f"made by sciax.random.key; got {dtype}{list(shape)} (use vmap over "
            "split keys for a batch of keys)")
    return snp.asarray(key)


def canonical_shape(name: str, shape: Any) -> tuple[int, ...]:
    """A static shape tuple (an int is a 1-d shape)."""
    if isinstance(shape, int | np.integer):
        shape = (shape,)
    try:
        out = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"{name}: shape must be a sequence of static ints, got "
                        f"{shape!r}") from None
    if any(d < 0 for d in out):
        raise ValueError(f"{name}: negative dimension in shape {out}")
    return out


# --- the hash -------------------------------------------------------------------------

def _rotl(v: Any, r: int) -> Any:
    return lax.bitwise_or(lax.shift_left(v, r), lax.shift_right_logical(v, 32 - r))


def threefry_2x32(k0: Any, k1: Any, x0: Any, x1: Any) -> tuple[Any, Any]:
    """The Threefry-2x32 block cipher, 20 rounds, on counter words ``(x0, x1)``.

    ``k0``, ``k1`` are the two uint32 key words (scalars or the counters'
    shape); ``x0``, ``x1`` uint32 arrays of equal shape.  Returns the two
    ciphertext words.  Additions wrap modulo 2**32 as uint32 arithmetic does.

    Examples
    --------
    >>> from sciax.random._prng import threefry_2x32
    >>> u = lambda v: np.uint32(v)
    >>> [int(w) for w in threefry_2x32(u(0), u(0), u(0), u(0))]  # paper's test vector
    [1797259609, 2579123966]
    """
    shape = _aval(x0)[0]
    k0, k1 = (snp.broadcast_to(snp.asarray(k, _U32), shape) for k in (k0, k1))
    k2 = lax.bitwise_xor(lax.bitwise_xor(k0, k1), _PARITY)
    if _rolled_state.on:
        return _rolled(k0, k1, k2, x0, x1, shape)
    ks = (k0, k1, k2)
    x0, x1 = lax.add(x0, ks[0]), lax.add(x1, ks[1])
    for group in range(5):
        for r in _ROTATIONS[group % 2]:
            x0 = lax.add(x0, x1)
            x1 = lax.bitwise_xor(_rotl(x1, r), x0)
        # key injection: rotate the schedule and add the group number
        x0 = lax.add(x0, ks[(group + 1) % 3])
        x1 = lax.add(lax.add(x1, ks[(group + 2) % 3]), group + 1)
    return x0, x1


class _RolledState(threading.local):
    on = False


_rolled_state = _RolledState()


@contextlib.contextmanager
def rolled_hash() -> Iterator[None]:
    """Trace the hash as a 5-step loop instead of 20 unrolled rounds.

    The numbers are identical; only the program differs.  Inside the bodies
    of rejection-sampling loops the rolled form compiles about twice as fast
    (XLA's CPU compile time grows quickly with a loop body's size), while
    straight-line code compiles faster unrolled.
    """
    prev, _rolled_state.on = _rolled_state.on, True
    try:
        yield
    finally:
        _rolled_state.on = prev


def _rolled(k0, k1, k2, x0, x1, shape):
    # The same 5 groups of 4 rounds as a loop (a 5x smaller program, which
    # XLA compiles faster): the carry holds the rotated key schedule and the
    # rotation distances of this group and the next.
    def rotl(v, r):
        r = snp.broadcast_to(r, shape)
        return lax.bitwise_or(lax.shift_left(v, r), lax.shift_right_logical(v, 32 - r))

    def group(i, c):
        x0, x1, ka, kb, kc, ra, rb = c
        for j in range(4):
            x0 = lax.add(x0, x1)
            x1 = lax.bitwise_xor(rotl(x1, ra[j]), x0)
        x0 = lax.add(x0, ka)
        x1 = lax.add(lax.add(x1, kb), snp.broadcast_to((i + 1).astype(_U32), shape))
        return x0, x1, kb, kc, ka, rb, ra

    rots = [snp.asarray(np.array(r, _U32)) for r in _ROTATIONS]
    init = (lax.add(x0, k0), lax.add(x1, k1), k1, k2, k0, rots[0], rots[1])
    out = lax.fori_loop(0, 5, group, init)
    return out[0], out[1]


def _counters(shape: tuple[int, ...]) -> tuple[Any, Any]:
    """High and low uint32 words of the row-major flat index of each element."""
    size = math.prod(shape)
    if size >= 2 ** 32:
        raise NotImplementedError(f"random bits for {size} >= 2**32 elements")
    lo = lax.iota(_U32, size)
    lo = lax.reshape(lo, shape) if shape != (size,) else lo
    return lax.full(shape, 0, _U32), lo


# --- keys -----------------------------------------------------------------------------

def key(seed: Any) -> Any:
    """A PRNG key (``uint32[2]``) from an integer seed.

    A 64-bit seed fills both words (high word first); a 32-bit seed leaves the
    high word zero, as JAX's ``PRNGKey``.  The seed may be traced (under
    ``jit``).  Keys are plain arrays: ``vmap`` over a stack of them, compare
    them with ``==``; :func:`key_data` is the identity.

    Examples
    --------
    >>> sciax.random.key(42)
    Array([ 0, 42], dtype=uint32)
    """
    if isinstance(seed, bool | np.bool_):
        raise TypeError(f"PRNG key seed must be an integer; got {seed!r}")
    if isinstance(seed, int | np.integer):
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 64:
            raise OverflowError(f"PRNG key seed {seed} does not fit in 64 bits")
        if not sciax.config.enable_x64:
            # 32-bit mode: the seed is an int32/uint32; high word zero
            if not -2 ** 31 <= seed < 2 ** 32:
                raise OverflowError(f"PRNG key seed {seed} does not fit in 32 bits "
                                    "(enable_x64 is off)")
            return snp.asarray(np.array([0, seed & _MASK32], _U32))
        return snp.asarray(np.array([(seed >> 32) & _MASK32, seed & _MASK32], _U32))
    shape, dtype = _aval(seed)
    if shape != ():
        raise TypeError(f"PRNG key seed must be a scalar; got shape {shape}")
    if dtype.kind not in "iu":
        raise TypeError(f"PRNG key seed must be an integer; got dtype {dtype}")
    lo = lax.convert_element_type(seed, _U32)
    if dtype.itemsize == 8:
        hi = lax.convert_element_type(lax.shift_right_logical(seed, 32), _U32)
    else:
        hi = lax.full((), 0, _U32)
    return snp.stack([hi, lo])


PRNGKey = key


def key_data(keys: Any) -> Any:
    """The ``uint32[..., 2]`` words of ``keys`` (raw keys are their own data)."""
    shape, dtype = _aval(keys)
    if dtype != _U32 or not shape or shape[-1] != 2:
        raise TypeError(f"key_data: expected uint32 keys of shape (..., 2); got "
                        f"{dtype}{list(shape)}")
    return snp.asarray(keys)


def wrap_key_data(key_bits_array: Any, *, impl: Any = None) -> Any:
    """Keys from their ``uint32[..., 2]`` words (the inverse of :func:`key_data`).

    sciax keys are raw ``uint32[2]`` arrays, so this checks the words and
    returns them.  ``impl`` may be None or ``"threefry2x32"``, the only
    implementation.

    Examples
    --------
    >>> k = sciax.random.key(7)
    >>> k2 = sciax.random.wrap_key_data(sciax.random.key_data(k))
    >>> bool((sciax.random.uniform(k2) == sciax.random.uniform(k)).all())
    True
    """
    if impl not in (None, "threefry2x32"):
        raise ValueError(f"wrap_key_data: impl must be None or 'threefry2x32' (the "
                         f"only PRNG implementation), got {impl!r}")
    shape, dtype = _aval(key_bits_array)
    if dtype != _U32 or not shape or shape[-1] != 2:
        raise TypeError(f"wrap_key_data: expected uint32 key data of shape (..., 2); "
                        f"got {dtype}{list(shape)}")
    return snp.asarray(key_bits_array)


def split(key: Any, num: int | Sequence[int] = 2) -> Any:
    """``num`` new keys (shape ``(num, 2)``, or ``(*num, 2)`` for a tuple).

    The new keys are independent of each other and of ``key``; do not use
    ``key`` again after splitting it.

    Examples
    --------
    >>> k1, k2 = sciax.random.split(sciax.random.key(0))
    >>> bool((k1 != k2).any())
    True
    """
    key = check_key("split", key)
    shape = canonical_shape("split", num)
    hi, lo = _counters(shape)
    b0, b1 = threefry_2x32(key[0], key[1], hi, lo)
    return snp.stack([b0, b1], axis=len(shape))


def fold_in(key: Any, data: Any) -> Any:
    """A new key determined by ``key`` and the integer ``data`` (taken mod 2**32).

    Examples
    --------
    >>> k = sciax.random.key(0)
    >>> bool((sciax.random.fold_in(k, 1) != sciax.random.fold_in(k, 2)).any())
    True
    """
    key = check_key("fold_in", key)
    if isinstance(data, int | np.integer) and not isinstance(data, bool):
        data = snp.asarray(np.uint32(int(data) & _MASK32))
    else:
        shape, dtype = _aval(data)
        if shape != () or dtype.kind not in "iub":
            raise TypeError(f"fold_in: data must be an integer scalar, got "
                            f"{dtype}{list(shape)}")
        data = lax.convert_element_type(data, _U32)
    zero = lax.full((), 0, _U32)
    # the counter block is the seed-style pair (0, data)
    b0, b1 = threefry_2x32(key[0], key[1], zero, data)
    return snp.stack([b0, b1])


#: draws of at least this many words put their key behind an optimization barrier
_BARRIER_SIZE = 64

_UINT = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: _U32,
         64: np.dtype(np.uint64)}


def random_bits(key: Any, bit_width: int = 32, shape: Sequence[int] = ()) -> Any:
    """Uniform random unsigned integers of ``bit_width`` bits (8, 16, 32, 64).

    Element ``i`` (row-major) is the threefry hash of the counter ``i``, so
    a prefix of a longer draw is not the same as a shorter draw only through
    the shape: equal shapes give equal numbers.

    Examples
    --------
    >>> sciax.random.bits(sciax.random.key(0), (3,)).dtype
    dtype('uint32')
    """
    key = check_key("random_bits", key)
    if bit_width not in _UINT:
        raise TypeError(f"random_bits: bit_width must be 8, 16, 32 or 64, got "
                        f"{bit_width!r}")
    if bit_width == 64 and not sciax.config.enable_x64:
        raise TypeError("random_bits: 64-bit values need enable_x64")
    shape = canonical_shape("random_bits", shape)
    if math.prod(shape) == 0:
        return snp.zeros(shape, _UINT[bit_width])
    if math.prod(shape) >= _BARRIER_SIZE:
        # a key computed in the same program (split, fold_in) stays one
        # computation instead of being fused into every element's hash
        key = lax.optimization_barrier(key)
    hi, lo = _counters(shape)
    b0, b1 = threefry_2x32(key[0], key[1], hi, lo)
    if bit_width == 64:
        u64 = _UINT[64]
        return lax.bitwise_or(lax.shift_left(lax.convert_element_type(b0, u64), 32),
                              lax.convert_element_type(b1, u64))
    out = lax.bitwise_xor(b0, b1)
    return out if bit_width == 32 else lax.convert_element_type(out, _UINT[bit_width])


def bits(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Random unsigned integers filling every bit of ``dtype`` (default uint32).

    Examples
    --------
    >>> sciax.random.bits(sciax.random.key(1), (2,), np.uint8).dtype
    dtype('uint8')
    """
    dtype = _U32 if dtype is None else np.dtype(dtype)
    if dtype.kind != "u":
        raise TypeError(f"bits: dtype must be an unsigned integer dtype, got {dtype}")
    return random_bits(key, dtype.itemsize * 8, shape)
