"""sciax.numpy: the NumPy API over sciax.lax.

Functions broadcast and promote as NumPy 2 does (NEP 50: Python scalars are
weak, so ``float32_array * 2.0`` stays float32) and work eagerly and under
``sciax.jit``.  Importing this module also gives :class:`sciax.Array` and
tracers their NumPy operators and methods.
"""

from sciax._src.numpy import array_methods as _array_methods  # noqa: F401
from sciax.numpy import fft as fft  # noqa: E402,F401
from sciax.numpy import linalg as linalg  # noqa: E402,F401
from sciax._src.numpy.creation import (
    arange as arange, array as array, asarray as asarray, empty as empty,
    empty_like as empty_like, eye as eye, full as full, full_like as full_like,
    identity as identity, linspace as linspace, ones as ones, ones_like as ones_like,
    zeros as zeros, zeros_like as zeros_like)
from sciax._src.numpy.indexing import (
    put_along_axis as put_along_axis, take as take, take_along_axis as take_along_axis,
    trace as trace)
from sciax._src.numpy.products import (
    dot as dot, inner as inner, matmul as matmul, outer as outer, vdot as vdot)
from sciax._src.numpy.reductions import (
    all as all, amax as amax, amin as amin, any as any, argmax as argmax,
    argmin as argmin, cumprod as cumprod, cumsum as cumsum, max as max, mean as mean,
    min as min, prod as prod, sum as sum)
from sciax._src.numpy.scalar_types import (
    bfloat16 as bfloat16, bool_ as bool_, can_cast as can_cast, cdouble as cdouble,
    complex64 as complex64, complex128 as complex128, complex_ as complex_,
    complexfloating as complexfloating, csingle as csingle, double as double,
    dtype as dtype, e as e, euler_gamma as euler_gamma, finfo as finfo,
    float16 as float16, float32 as float32, float64 as float64, float_ as float_,
    floating as floating, generic as generic, half as half, iinfo as iinfo,
    inexact as inexact, inf as inf, int8 as int8, int16 as int16, int32 as int32,
    int64 as int64, int_ as int_, integer as integer, issubdtype as issubdtype,
    nan as nan, newaxis as newaxis, number as number, pi as pi,
    result_type as result_type, signedinteger as signedinteger, single as single,
    uint as uint, uint8 as uint8, uint16 as uint16, uint32 as uint32,
    uint64 as uint64, unsignedinteger as unsignedinteger)
from sciax._src.numpy.shape import (
    atleast_1d as atleast_1d, atleast_2d as atleast_2d,
    broadcast_arrays as broadcast_arrays, broadcast_shapes as broadcast_shapes,
    broadcast_to as broadcast_to, concatenate as concatenate,
    expand_dims as expand_dims, hstack as hstack, matrix_transpose as matrix_transpose,
    moveaxis as moveaxis, ndim as ndim, permute_dims as permute_dims, ravel as ravel,
    reshape as reshape, row_stack as row_stack, shape as shape, size as size,
    squeeze as squeeze, stack as stack, swapaxes as swapaxes, transpose as transpose,
    vstack as vstack)
from sciax._src.numpy.ufuncs import (
    abs as abs, absolute as absolute, acos as acos, acosh as acosh, add as add,
    angle as angle, arccos as arccos, arccosh as arccosh, arcsin as arcsin,
    arcsinh as arcsinh, arctan as arctan, arctan2 as arctan2, arctanh as arctanh,
    around as around, asin as asin, asinh as asinh, atan as atan, atan2 as atan2,
    atanh as atanh, bitwise_and as bitwise_and, bitwise_invert as bitwise_invert,
    bitwise_left_shift as bitwise_left_shift, bitwise_not as bitwise_not,
    bitwise_or as bitwise_or, bitwise_right_shift as bitwise_right_shift,
    bitwise_xor as bitwise_xor, cbrt as cbrt, ceil as ceil, clip as clip, conj as conj,
    conjugate as conjugate, copysign as copysign, cos as cos, cosh as cosh,
    deg2rad as deg2rad, degrees as degrees, divide as divide, divmod as divmod,
    equal as equal, exp as exp, exp2 as exp2, expm1 as expm1, fabs as fabs, fix as fix,
    float_power as float_power, floor as floor, floor_divide as floor_divide,
    fmax as fmax, fmin as fmin, fmod as fmod, greater as greater,
    greater_equal as greater_equal, hypot as hypot, imag as imag, invert as invert,
    isfinite as isfinite, isinf as isinf, isnan as isnan, left_shift as left_shift,
    less as less, less_equal as less_equal, log as log, log1p as log1p,
    log2 as log2, log10 as log10, logaddexp as logaddexp, logaddexp2 as logaddexp2,
    logical_and as logical_and, logical_not as logical_not, logical_or as logical_or,
    logical_xor as logical_xor, maximum as maximum, minimum as minimum, mod as mod,
    multiply as multiply, negative as negative, not_equal as not_equal,
    positive as positive, power as power, rad2deg as rad2deg, radians as radians,
    real as real, reciprocal as reciprocal, remainder as remainder,
    right_shift as right_shift, rint as rint, round as round, sign as sign,
    signbit as signbit, sin as sin, sinh as sinh, sqrt as sqrt, square as square,
    subtract as subtract, tan as tan, tanh as tanh, true_divide as true_divide,
    trunc as trunc, where as where)

ndarray = _array_methods.Array
from sciax._src.numpy.creation import *  # noqa: F401,F403,E402
from sciax._src.numpy.reductions import *  # noqa: F401,F403,E402
from sciax._src.numpy.manipulation import *  # noqa: F401,F403,E402
from sciax._src.numpy.sorting import *  # noqa: F401,F403,E402
from sciax._src.numpy.statistics import *  # noqa: F401,F403,E402
from sciax._src.numpy.nan_reductions import *  # noqa: F401,F403,E402
from sciax._src.numpy.mathfuncs import *  # noqa: F401,F403,E402
from sciax._src.numpy.setops import *  # noqa: F401,F403,E402
from sciax._src.numpy.polynomial import *  # noqa: F401,F403,E402
from sciax._src.numpy.einsum import *  # noqa: F401,F403,E402
from sciax._src.numpy.dtype_utils import *  # noqa: F401,F403,E402
from sciax._src.numpy.misc import *  # noqa: F401,F403,E402

# Eager calls of composite functions run as one cached compiled program each
# (sciax/_src/numpy/eager.py); under a transformation they trace inline.
from sciax._src.numpy import eager as _eager  # noqa: E402

_eager.compile_namespace(globals())
