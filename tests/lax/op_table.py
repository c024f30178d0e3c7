"""The table of sciax.lax elementwise operations and their NumPy references.

Each :class:`OpRecord` says how to call one lax function (positional operands
plus static ``params``), which dtypes it accepts, how to draw valid inputs
(the op's domain: ``log`` gets positive inputs, ``erf_inv`` inputs in (-1, 1),
shifts get amounts below the bit width ...), the NumPy/SciPy reference and
the tolerance of the comparison.  ``test_lax_elementwise.py`` runs every
record; other test files (autodiff, batching) can reuse the table.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.special

from sciax import lax
from sciax._src import test_util as tu

Shape = tuple[int, ...]

bool_ = np.dtype(bool)
bf16, f16, f32, f64 = tu.bfloat16, *map(np.dtype, ("float16", "float32", "float64"))
c64, c128 = np.dtype("complex64"), np.dtype("complex128")
i8, i16, i32, i64 = map(np.dtype, ("int8", "int16", "int32", "int64"))
u8, u16, u32, u64 = map(np.dtype, ("uint8", "uint16", "uint32", "uint64"))

floats = tuple(tu.float_dtypes)
complexes = tuple(tu.complex_dtypes)
inexact = floats + complexes
ints = tuple(tu.int_dtypes)
signed = tuple(tu.signed_dtypes)
unsigned = tuple(tu.unsigned_dtypes)
numbers = ints + inexact
all_dtypes = (bool_,) + numbers
int_or_bool = (bool_,) + ints
reals = ints + floats
ordered = (bool_,) + reals  # dtypes with a total order (no complex)

# Tolerance tables (see sciax._src.test_util for the justification).
EXACT = tu.default_tolerance
TRANS = tu.transcendental_tolerance


@dataclasses.dataclass(frozen=True)
class OpRecord:
    """How to test one elementwise lax operation.

    Attributes
    ----------
    name : str
        Test id (the lax function name, with a suffix for variants).
    op : callable
        The lax function, called as ``op(*operands, **params)``.
    nargs : int
        Number of array operands.
    dtypes : tuple of numpy.dtype
        Dtypes the op is tested with (the "main" dtype of each test case).
    rng_factory : rng factory or tuple of them (one per operand)
        See :mod:`sciax._src.test_util`.
    tol : dict
        Relative (and absolute) tolerance per output dtype for the comparison
        with NumPy; integer and bool outputs are always compared exactly.
    numpy_ref : callable
        The reference, called with NumPy operands (upcast to float64 /
        complex128 when ``upcast``), returning the expected values.
    params : dict
        Static keyword arguments of ``op``.
    arg_dtypes : callable
        ``dtype -> tuple of operand dtypes`` (default: all operands ``dtype``).
    arg_shapes : callable
        ``shape -> tuple of operand shapes`` (default: all operands ``shape``).
    out_dtype : callable
        ``dtype -> expected result dtype`` (default: ``dtype``).
    upcast : bool
        Evaluate the reference in float64/complex128 (so it is the exact
        answer for the rounded inputs).  Off for ops whose result depends on
        the dtype's bit layout (nextafter, bitcasts).
    exact_jit : bool
        ``jit`` must reproduce eager results bit for bit.  True for everything
        that is not a transcendental approximation (XLA may pick different
        kernels or fuse differently under jit, but both programs contain the
        same single op, so in practice even those agree to an ulp or two).
    bits : bool
        Compare bit patterns rather than values (bitcasts).
    """

    name: str
    op: Callable[..., Any]
    nargs: int
    dtypes: tuple[np.dtype, ...]
    rng_factory: Any
    tol: dict
    numpy_ref: Callable[..., Any]
    params: dict = dataclasses.field(default_factory=dict)
    arg_dtypes: Callable[[np.dtype], tuple[np.dtype, ...]] | None = None
    arg_shapes: Callable[[Shape], tuple[Shape, ...]] | None = None
    out_dtype: Callable[[np.dtype], np.dtype] | None = None
    upcast: bool = True
    exact_jit: bool = True
    bits: bool = False

    def operand_dtypes(self, dtype: np.dtype) -> tuple[np.dtype, ...]:
        if self.arg_dtypes is not None:
            return tuple(map(np.dtype, self.arg_dtypes(dtype)))
        return (np.dtype(dtype),) * self.nargs

    def operand_shapes(self, shape: Shape) -> tuple[Shape, ...]:
        if self.arg_shapes is not None:
            return tuple(self.arg_shapes(shape))
        return (tuple(shape),) * self.nargs

    def result_dtype(self, dtype: np.dtype) -> np.dtype:
        return np.dtype(self.out_dtype(dtype) if self.out_dtype else dtype)

    def make_args(self, rng: np.random.Generator, shape: Shape, dtype: np.dtype
                  ) -> list[np.ndarray]:
        factories = (self.rng_factory if isinstance(self.rng_factory, tuple)
                     else (self.rng_factory,) * self.nargs)
        return [np.asarray(f(rng)(s, d), dtype=d) for f, s, d in zip(
            factories, self.operand_shapes(shape), self.operand_dtypes(dtype))]

    def reference(self, *args: np.ndarray) -> np.ndarray:
        if self.upcast:
            args = tuple(_upcast(a) for a in args)
        with np.errstate(all="ignore"):
            return np.asarray(self.numpy_ref(*args, **self.params))

    def tolerance(self, dtype: np.dtype) -> float:
        return tu.tolerance(dtype, self.tol)

    def __call__(self, *args: Any) -> Any:
        return self.op(*args, **self.params)


def _upcast(x: np.ndarray) -> np.ndarray:
    if tu.is_complex(x.dtype):
        return x.astype(np.complex128)
    if tu.is_float(x.dtype):
        return x.astype(np.float64)
    return x


def op_record(name: str, nargs: int, dtypes: Sequence[Any], rng_factory: Any,
              tol: dict | None, numpy_ref: Callable[..., Any], *,
              op: Callable[..., Any] | None = None, **kwargs: Any) -> OpRecord:
    """An :class:`OpRecord`; ``op`` defaults to ``sciax.lax.<name>`` and ``tol``
    to :data:`EXACT`."""
    return OpRecord(name, op if op is not None else getattr(lax, name), nargs,
                    tuple(map(np.dtype, dtypes)), rng_factory,
                    EXACT if tol is None else tol, numpy_ref, **kwargs)


# --- references that differ from NumPy's defaults ----------------------------------

def _div_ref(x, y):
    if x.dtype.kind in "iu":  # XLA (and C) integer division truncates toward zero
        q = x // y
        fix = (x % y != 0) & ((x < 0) != (y < 0))
        return np.where(fix, q + 1, q).astype(x.dtype)
    return x / y


def _round_afz_ref(x, **_):
    # exact: x - trunc(x) is representable, so no double rounding at the ties
    t = np.trunc(x)
    return t + np.where(np.abs(x - t) >= 0.5, np.sign(x), 0.0)


def _signed_view(x):
    return x.view(np.dtype(f"i{x.dtype.itemsize}"))


def _unsigned_view(x):
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def _shift_right_arithmetic_ref(x, y):
    # XLA's arithmetic shift fills with the top bit of the pattern for unsigned too
    return np.right_shift(_signed_view(x), _signed_view(y)).view(x.dtype)


def _shift_right_logical_ref(x, y):
    return np.right_shift(_unsigned_view(x), _unsigned_view(y)).view(x.dtype)


def _popcount_ref(x):
    return np.bitwise_count(_unsigned_view(x)).astype(x.dtype)


def _clz_ref(x):
    bits = 8 * x.dtype.itemsize
    u = _unsigned_view(x)
    out = np.array([bits - int(v).bit_length() for v in u.ravel()], dtype=np.int64)
    return out.reshape(x.shape).astype(x.dtype)


def _sign_ref(x):
    if x.dtype.kind == "u":
        return (x != 0).astype(x.dtype)
    return np.sign(x)


def _integer_pow_ref(x, *, y):
    if x.dtype.kind in "iu":
        out = np.ones_like(x)
        for _ in range(y):
            out = out * x  # wraps like XLA's repeated multiplication
        return out
    return x ** float(y) if x.dtype.kind == "f" else x ** y


def _complex_ref(x, y):
    return x + 1j * y


def _real(dt):
    return tu.real_dtype(dt)


def _to_bool(dt):
    return bool_


# --- the table -------------------------------------------------------------------

R = op_record
rd, rs, rp, rnz = tu.rand_default, tu.rand_small, tu.rand_positive, tu.rand_nonzero
ru = tu.rand_uniform

RECORDS: list[OpRecord] = [
    # arithmetic: results are correctly rounded, so EXACT tolerances apply
    R("add", 2, numbers, rd, None, np.add),
    R("sub", 2, numbers, rd, None, np.subtract),
    R("mul", 2, numbers, rd, None, np.multiply),
    R("div", 2, numbers, (rd, rnz), None, _div_ref),
    R("rem", 2, reals, (rd, rnz), None, np.fmod),
    R("pow", 2, inexact, (rp, rs), TRANS, np.power),
    R("pow_int_exponent", 2, inexact,
      (rd, functools.partial(tu.rand_int, low=-3, high=3)),
      TRANS, lambda x, y: x ** y.astype(np.float64), op=lax.pow,
      arg_dtypes=lambda dt: (dt, i32)),
    # repeated squaring rounds up to log2(y) + popcount(y) times: a few ulps
    R("integer_pow_0", 1, numbers, rd, None, _integer_pow_ref, op=lax.integer_pow,
      params={"y": 0}),
    R("integer_pow_5", 1, numbers, rd, TRANS, _integer_pow_ref, op=lax.integer_pow,
      params={"y": 5}),
    R("integer_pow_neg3", 1, inexact, rnz, TRANS, _integer_pow_ref,
      op=lax.integer_pow, params={"y": -3}),
    R("neg", 1, numbers, tu.rand_full_range, None, np.negative),
    R("sign", 1, numbers, rd, None, _sign_ref),
    R("floor", 1, floats, tu.rand_ties, None, np.floor),
    R("ceil", 1, floats, tu.rand_ties, None, np.ceil),
    R("round_away_from_zero", 1, floats, tu.rand_ties, None, _round_afz_ref,
      op=lax.round, params={"rounding_method": lax.ROUND_AWAY_FROM_ZERO}),
    R("round_to_nearest_even", 1, floats, tu.rand_ties, None,
      lambda x, **_: np.round(x),
      op=lax.round, params={"rounding_method": lax.ROUND_TO_NEAREST_EVEN}),
    R("abs", 1, numbers, tu.rand_full_range, None, np.abs, out_dtype=_real),
    R("max", 2, all_dtypes, tu.rand_some_equal, None, np.maximum),
    R("min", 2, all_dtypes, tu.rand_some_equal, None, np.minimum),
    R("clamp", 3, ordered, tu.rand_some_equal, None,
      lambda lo, x, hi: np.minimum(np.maximum(x, lo), hi)),
    R("clamp_scalar_bounds", 3, ordered, tu.rand_some_equal, None,
      lambda lo, x, hi: np.minimum(np.maximum(x, lo), hi), op=lax.clamp,
      arg_shapes=lambda s: ((), s, ())),
    # ties (x == y) and zeros (-> the smallest subnormal) on purpose
    R("nextafter", 2, floats, tu.rand_some_equal, None, np.nextafter, upcast=False),

    # transcendental and special functions
    R("exp", 1, inexact, rd, TRANS, np.exp, exact_jit=False),
    R("exp2", 1, inexact, rd, TRANS, np.exp2, exact_jit=False),
    R("expm1", 1, inexact, rd, TRANS, np.expm1, exact_jit=False),
    R("log", 1, floats, rp, TRANS, np.log, exact_jit=False),
    R("log_complex", 1, complexes, rd, TRANS, np.log, op=lax.log, exact_jit=False),
    R("log1p", 1, floats, lambda rng: ru(rng, -0.9, 3.0), TRANS, np.log1p,
      exact_jit=False),
    R("log1p_complex", 1, complexes, rd, TRANS, np.log1p, op=lax.log1p,
      exact_jit=False),
    R("sin", 1, inexact, rd, TRANS, np.sin, exact_jit=False),
    R("cos", 1, inexact, rd, TRANS, np.cos, exact_jit=False),
    # away from the poles at +-pi/2, where tan is ill-conditioned
    R("tan", 1, inexact, lambda rng: ru(rng, -1.3, 1.3), TRANS, np.tan,
      exact_jit=False),
    R("asin", 1, inexact, lambda rng: ru(rng, -1.0, 1.0), TRANS, np.arcsin,
      exact_jit=False),
    R("acos", 1, inexact, lambda rng: ru(rng, -1.0, 1.0), TRANS, np.arccos,
      exact_jit=False),
    R("atan", 1, inexact, rd, TRANS, np.arctan, exact_jit=False),
    R("atan2", 2, floats, rnz, TRANS, np.arctan2, exact_jit=False),
    R("sinh", 1, inexact, rd, TRANS, np.sinh, exact_jit=False),
    R("cosh", 1, inexact, rd, TRANS, np.cosh, exact_jit=False),
    R("tanh", 1, inexact, rd, TRANS, np.tanh, exact_jit=False),
    R("asinh", 1, inexact, rd, TRANS, np.arcsinh, exact_jit=False),
    R("acosh", 1, floats, lambda rng: ru(rng, 1.0, 5.0, closed=True), TRANS, np.arccosh,
      exact_jit=False),
    R("acosh_complex", 1, complexes, rd, TRANS, np.arccosh, op=lax.acosh,
      exact_jit=False),
    R("atanh", 1, inexact, lambda rng: ru(rng, -1.0, 1.0), TRANS, np.arctanh,
      exact_jit=False),
    R("sqrt", 1, floats, rp, None, np.sqrt),  # IEEE: correctly rounded
    R("sqrt_complex", 1, complexes, rd, TRANS, np.sqrt, op=lax.sqrt, exact_jit=False),
    R("rsqrt", 1, floats, rp, TRANS, lambda x: 1 / np.sqrt(x), exact_jit=False),
    R("rsqrt_complex", 1, complexes, rd, TRANS, lambda x: 1 / np.sqrt(x), op=lax.rsqrt,
      exact_jit=False),
    R("cbrt", 1, floats, rd, TRANS, np.cbrt, exact_jit=False),
    R("logistic", 1, floats, rd, TRANS, scipy.special.expit, exact_jit=False),
    # complex logistic has poles at i*pi*(2k+1): stay inside |z| < sqrt(2)
    R("logistic_complex", 1, complexes, rs, TRANS, lambda z: 1 / (1 + np.exp(-z)),
      op=lax.logistic, exact_jit=False),
    R("erf", 1, floats, rd, TRANS, scipy.special.erf, exact_jit=False),
    R("erfc", 1, floats, rd, TRANS, scipy.special.erfc, exact_jit=False),
    R("erf_inv", 1, floats, lambda rng: ru(rng, -1.0, 1.0), TRANS, scipy.special.erfinv,
      exact_jit=False),
    # positive arguments: lgamma and digamma have poles at 0, -1, -2, ...
    R("lgamma", 1, floats, rp, TRANS, scipy.special.gammaln, exact_jit=False),
    R("digamma", 1, floats, rp, TRANS, scipy.special.psi, exact_jit=False),
    # integer orders m (as floats) 0..2; float32/float64 only (the accuracy of
    # the 16-bit formats is not characterised here)
    R("polygamma", 2, (f32, f64), (functools.partial(tu.rand_int, low=0, high=2), rp),
      TRANS, lambda m, x: scipy.special.polygamma(m.astype(int), x), exact_jit=False),
    # Hurwitz zeta(s, q) on s in (1.5, 6), q in (0.5, 4): CHLO's domain
    R("zeta", 2, (f32, f64), (lambda rng: ru(rng, 1.5, 6.0), lambda rng: ru(rng, 0.5, 4.0)),
      TRANS, scipy.special.zeta, exact_jit=False),
    R("is_finite", 1, floats, tu.rand_some_inf_and_nan, None, np.isfinite,
      out_dtype=_to_bool),

    # comparisons (rand_some_equal makes ties likely)
    R("eq", 2, all_dtypes, tu.rand_some_equal, None, np.equal, out_dtype=_to_bool),
    R("ne", 2, all_dtypes, tu.rand_some_equal, None, np.not_equal, out_dtype=_to_bool),
    R("lt", 2, ordered, tu.rand_some_equal, None, np.less, out_dtype=_to_bool),
    R("le", 2, ordered, tu.rand_some_equal, None, np.less_equal, out_dtype=_to_bool),
    R("gt", 2, ordered, tu.rand_some_equal, None, np.greater, out_dtype=_to_bool),
    R("ge", 2, ordered, tu.rand_some_equal, None, np.greater_equal, out_dtype=_to_bool),

    # select
    R("select_n_bool", 3, all_dtypes, (tu.rand_bool, rd, rd), None,
      lambda w, a, b: np.where(w, b, a), op=lax.select_n,
      arg_dtypes=lambda dt: (bool_, dt, dt)),
    R("select_n_int32", 4, all_dtypes,
      (functools.partial(tu.rand_int, low=0, high=2), rd, rd, rd), None,
      lambda w, *cases: np.choose(w, cases), op=lax.select_n,
      arg_dtypes=lambda dt: (i32, dt, dt, dt)),
    R("select_n_scalar_predicate", 3, (f32, i32), (tu.rand_bool, rd, rd), None,
      lambda w, a, b: np.where(w, b, a), op=lax.select_n,
      arg_dtypes=lambda dt: (bool_, dt, dt), arg_shapes=lambda s: ((), s, s)),
    R("select", 3, all_dtypes, (tu.rand_bool, rd, rd), None, np.where,
      arg_dtypes=lambda dt: (bool_, dt, dt)),

    # bitwise and shifts: full-range integers exercise the sign bit
    R("bitwise_and", 2, int_or_bool, tu.rand_full_range, None, np.bitwise_and),
    R("bitwise_or", 2, int_or_bool, tu.rand_full_range, None, np.bitwise_or),
    R("bitwise_xor", 2, int_or_bool, tu.rand_full_range, None, np.bitwise_xor),
    R("bitwise_not", 1, int_or_bool, tu.rand_full_range, None, np.invert),
    R("shift_left", 2, ints, (tu.rand_full_range, tu.rand_shift), None, np.left_shift),
    R("shift_right_arithmetic", 2, ints, (tu.rand_full_range, tu.rand_shift), None,
      _shift_right_arithmetic_ref),
    R("shift_right_logical", 2, ints, (tu.rand_full_range, tu.rand_shift), None,
      _shift_right_logical_ref),
    R("population_count", 1, ints, tu.rand_full_range, None, _popcount_ref),
    R("clz", 1, ints, tu.rand_full_range, None, _clz_ref),

    # complex parts
    R("real", 1, complexes, rd, None, np.real, out_dtype=_real),
    R("imag", 1, complexes, rd, None, np.imag, out_dtype=_real),
    R("conj", 1, complexes, rd, None, np.conj),
    R("complex", 2, (f32, f64), rd, None, _complex_ref, out_dtype=lambda dt: (
        c128 if dt == f64 else c64)),

    # the identity (its zero derivative is checked in test_autodiff_elementwise)
    R("stop_gradient", 1, all_dtypes, rd, None, lambda x: x),
]


# --- convert_element_type --------------------------------------------------------

CONVERT_DTYPES = (bool_, i8, i32, i64, u8, u32, f16, bf16, f32, f64, c64, c128)


def _convert_rng(new_dtype: np.dtype) -> Callable[[np.random.Generator], Any]:
    """Inputs whose conversion is defined in both NumPy and XLA: no NaN/inf,
    floats only within the target's integer range (truncation toward zero),
    integers only within what the target float holds without overflow.
    Integer-to-integer narrowing uses the full range: two's-complement
    wrap-around is defined on both sides."""
    new_dtype = np.dtype(new_dtype)

    def factory(rng: np.random.Generator) -> Callable[[Shape, Any], np.ndarray]:
        def fn(shape: Shape, dtype: Any) -> np.ndarray:
            dt = np.dtype(dtype)
            if dt == bool_:
                return rng.random(shape) < 0.5
            if dt.kind in "iu":
                if new_dtype.kind in "iub":
                    return tu.rand_full_range(rng)(shape, dt)
                # int -> float: 2**24 fits float32 exactly, so bfloat16 rounds
                # once; float16 overflows past 65504
                bound = 60000 if new_dtype == f16 else 2 ** 24
                return tu.rand_int(rng, -bound, bound)(shape, dt)
            lo = 0.0 if new_dtype.kind == "u" else -100.0
            x = rng.uniform(lo, 100.0, shape)
            # exact zeros (-> False) and integers (exact conversions)
            x = np.where(rng.random(shape) < 0.2, 0.0, x)
            x = np.where(rng.random(shape) < 0.2, np.trunc(x), x)
            if dt.kind == "c":
                y = rng.uniform(-100.0, 100.0, shape)
                return (x + 1j * y).astype(dt)
            return x.astype(dt)
        return fn
    return factory


def _convert_ref(x: np.ndarray, *, new_dtype: np.dtype, weak_type: bool = False
                 ) -> np.ndarray:
    # complex -> real keeps the real part (documented; as jax.lax)
    if x.dtype.kind == "c" and new_dtype.kind != "c":
        x = np.real(x)
    return x.astype(new_dtype)


CONVERT_RECORDS = [
    R(f"convert_element_type_to_{np.dtype(dst).name}", 1, CONVERT_DTYPES,
      _convert_rng(dst), None, _convert_ref, op=lax.convert_element_type,
      params={"new_dtype": np.dtype(dst)}, out_dtype=lambda dt, dst=dst: np.dtype(dst),
      upcast=False)
    for dst in CONVERT_DTYPES
]


# --- bitcast_convert_type --------------------------------------------------------

def _bitcast_ref(x: np.ndarray, *, new_dtype: np.dtype) -> np.ndarray:
    old, new = x.dtype.itemsize, np.dtype(new_dtype).itemsize
    if old == new:
        return x.view(new_dtype)
    if old > new:  # adds a trailing axis of old // new, little-endian order
        return np.ascontiguousarray(x).view(new_dtype).reshape(*x.shape, old // new)
    return np.ascontiguousarray(x).view(new_dtype).reshape(x.shape[:-1])


# (source, target) pairs: all same-size classes, then narrowing and widening
_BITCAST_SAME = [(f32, i32), (i32, f32), (f32, u32), (f64, i64), (i64, f64),
                 (u64, f64), (f16, i16), (i16, f16), (bf16, u16), (u16, bf16),
                 (f16, bf16), (i8, u8), (u8, i8)]
_BITCAST_NARROW = [(f32, u8), (f64, i32), (i64, f16), (u32, i16), (f64, u8)]
_BITCAST_WIDEN = [(u8, f32), (i32, f64), (f16, i64), (i16, u32), (u8, f64)]


def _bitcast_shapes(src: np.dtype, dst: np.dtype) -> Callable[[Shape], tuple[Shape]]:
    ratio = np.dtype(dst).itemsize // np.dtype(src).itemsize
    if ratio > 1:  # widening consumes a trailing axis of size ``ratio``
        return lambda s: ((*s, ratio),)
    return lambda s: (s,)


BITCAST_RECORDS = [
    R(f"bitcast_convert_type_{np.dtype(src).name}_to_{np.dtype(dst).name}", 1, (src,),
      tu.rand_bits, None, _bitcast_ref, op=lax.bitcast_convert_type,
      params={"new_dtype": np.dtype(dst)}, out_dtype=lambda dt, dst=dst: np.dtype(dst),
      arg_shapes=_bitcast_shapes(src, dst), upcast=False, bits=True)
    for src, dst in _BITCAST_SAME + _BITCAST_NARROW + _BITCAST_WIDEN
]

ALL_RECORDS = RECORDS + CONVERT_RECORDS + BITCAST_RECORDS
