"""sciax.numpy: the NumPy API over sciax.lax.

Functions broadcast and promote as NumPy 2 does (NEP 50: Python scalars are
weak, so ``float32_array * 2.0`` stays float32) and work eagerly and under
``sciax.jit``.  Importing this module also gives :class:`sciax.Array` and
tracers their NumPy operators and methods.
"""

# importing array_methods gives sciax.Array and tracers their NumPy methods
from sciax._src.numpy import array_methods as _array_methods  # noqa: F401
from sciax.numpy import fft as fft
from sciax.numpy import linalg as linalg

# array creation: from data, ranges, grids, fills, diagonals and triangles, windows
from sciax._src.numpy.creation import (arange as arange, array as array,
    asanyarray as asanyarray, asarray as asarray,
    asarray_chkfinite as asarray_chkfinite, ascontiguousarray as ascontiguousarray,
    astype as astype, bartlett as bartlett, blackman as blackman, copy as copy,
    diag as diag, diag_indices as diag_indices, diag_indices_from as diag_indices_from,
    diagflat as diagflat, diagonal as diagonal, empty as empty,
    empty_like as empty_like, eye as eye, fromfunction as fromfunction, full as full,
    full_like as full_like, geomspace as geomspace, hamming as hamming,
    hanning as hanning, identity as identity, indices as indices, kaiser as kaiser,
    linspace as linspace, logspace as logspace, mask_indices as mask_indices,
    meshgrid as meshgrid, mgrid as mgrid, ogrid as ogrid, ones as ones,
    ones_like as ones_like, tri as tri, tril as tril, tril_indices as tril_indices,
    tril_indices_from as tril_indices_from, triu as triu, triu_indices as triu_indices,
    triu_indices_from as triu_indices_from, vander as vander, zeros as zeros,
    zeros_like as zeros_like)
# shapes and axes: reshape, transpose, broadcast, join, squeeze
from sciax._src.numpy.shape import (atleast_1d as atleast_1d, atleast_2d as atleast_2d,
    broadcast_arrays as broadcast_arrays, broadcast_shapes as broadcast_shapes,
    broadcast_to as broadcast_to, concatenate as concatenate,
    expand_dims as expand_dims, hstack as hstack, matrix_transpose as matrix_transpose,
    moveaxis as moveaxis, ndim as ndim, permute_dims as permute_dims, ravel as ravel,
    reshape as reshape, row_stack as row_stack, shape as shape, size as size,
    squeeze as squeeze, stack as stack, swapaxes as swapaxes, transpose as transpose,
    vstack as vstack)
# rearranging: split, tile, repeat, roll, flip, pad, insert, delete, ...
from sciax._src.numpy.manipulation import (append as append,
    apply_along_axis as apply_along_axis, apply_over_axes as apply_over_axes,
    array_split as array_split, atleast_3d as atleast_3d, block as block,
    column_stack as column_stack, concat as concat, delete as delete, dsplit as dsplit,
    dstack as dstack, flip as flip, fliplr as fliplr, flipud as flipud,
    hsplit as hsplit, insert as insert, pad as pad, repeat as repeat, resize as resize,
    roll as roll, rollaxis as rollaxis, rot90 as rot90, split as split, tile as tile,
    trim_zeros as trim_zeros, unstack as unstack, vsplit as vsplit)
# indexing by arrays: take, take_along_axis, put_along_axis, trace
from sciax._src.numpy.indexing import (put_along_axis as put_along_axis, take as take,
    take_along_axis as take_along_axis, trace as trace)
# index helpers and functional in-place writers
from sciax._src.numpy.index_tricks import (fill_diagonal as fill_diagonal, ix_ as ix_,
    place as place, put as put, putmask as putmask,
    ravel_multi_index as ravel_multi_index, unravel_index as unravel_index)
# elementwise arithmetic, comparison, logic, exponents, trigonometry (ufuncs)
from sciax._src.numpy.ufuncs import (abs as abs, absolute as absolute, acos as acos,
    acosh as acosh, add as add, angle as angle, arccos as arccos, arccosh as arccosh,
    arcsin as arcsin, arcsinh as arcsinh, arctan as arctan, arctan2 as arctan2,
    arctanh as arctanh, around as around, asin as asin, asinh as asinh, atan as atan,
    atan2 as atan2, atanh as atanh, bitwise_and as bitwise_and,
    bitwise_invert as bitwise_invert, bitwise_left_shift as bitwise_left_shift,
    bitwise_not as bitwise_not, bitwise_or as bitwise_or,
    bitwise_right_shift as bitwise_right_shift, bitwise_xor as bitwise_xor,
    cbrt as cbrt, ceil as ceil, clip as clip, conj as conj, conjugate as conjugate,
    copysign as copysign, cos as cos, cosh as cosh, deg2rad as deg2rad,
    degrees as degrees, divide as divide, divmod as divmod, equal as equal, exp as exp,
    exp2 as exp2, expm1 as expm1, fabs as fabs, fix as fix, float_power as float_power,
    floor as floor, floor_divide as floor_divide, fmax as fmax, fmin as fmin,
    fmod as fmod, greater as greater, greater_equal as greater_equal, hypot as hypot,
    imag as imag, invert as invert, isfinite as isfinite, isinf as isinf,
    isnan as isnan, left_shift as left_shift, less as less, less_equal as less_equal,
    log as log, log10 as log10, log1p as log1p, log2 as log2, logaddexp as logaddexp,
    logaddexp2 as logaddexp2, logical_and as logical_and, logical_not as logical_not,
    logical_or as logical_or, logical_xor as logical_xor, maximum as maximum,
    minimum as minimum, mod as mod, multiply as multiply, negative as negative,
    not_equal as not_equal, positive as positive, power as power, rad2deg as rad2deg,
    radians as radians, real as real, reciprocal as reciprocal, remainder as remainder,
    right_shift as right_shift, rint as rint, round as round, sign as sign,
    signbit as signbit, sin as sin, sinh as sinh, sqrt as sqrt, square as square,
    subtract as subtract, tan as tan, tanh as tanh, true_divide as true_divide,
    trunc as trunc, where as where)
# elementwise functions beyond the ufuncs: i0, sinc, gcd/lcm, float helpers
from sciax._src.numpy.elementary import (bitwise_count as bitwise_count, frexp as frexp,
    gcd as gcd, heaviside as heaviside, i0 as i0, lcm as lcm, ldexp as ldexp,
    modf as modf, nextafter as nextafter, pow as pow, sinc as sinc, spacing as spacing)
# differences, integrals and interpolation
from sciax._src.numpy.calculus import (cross as cross, diff as diff, ediff1d as ediff1d,
    gradient as gradient, interp as interp, trapezoid as trapezoid, unwrap as unwrap)
# closeness tests, value and type predicates, nan_to_num
from sciax._src.numpy.comparisons import (allclose as allclose,
    array_equal as array_equal, array_equiv as array_equiv, isclose as isclose,
    iscomplex as iscomplex, iscomplexobj as iscomplexobj, isneginf as isneginf,
    isposinf as isposinf, isreal as isreal, isrealobj as isrealobj,
    isscalar as isscalar, nan_to_num as nan_to_num, real_if_close as real_if_close)
# reductions: sum, prod, mean, var, min/max, cumulative
from sciax._src.numpy.reductions import (all as all, amax as amax, amin as amin,
    any as any, argmax as argmax, argmin as argmin, average as average,
    count_nonzero as count_nonzero, cumprod as cumprod, cumsum as cumsum,
    cumulative_prod as cumulative_prod, cumulative_sum as cumulative_sum, max as max,
    mean as mean, min as min, prod as prod, ptp as ptp, std as std, sum as sum,
    var as var)
# NaN-ignoring reductions
from sciax._src.numpy.nan_reductions import (nanargmax as nanargmax,
    nanargmin as nanargmin, nancumprod as nancumprod, nancumsum as nancumsum,
    nanmax as nanmax, nanmean as nanmean, nanmin as nanmin, nanprod as nanprod,
    nanstd as nanstd, nansum as nansum, nanvar as nanvar)
# statistics: quantiles, histograms, averages, correlation, convolution
from sciax._src.numpy.statistics import (bincount as bincount, convolve as convolve,
    corrcoef as corrcoef, correlate as correlate, cov as cov, digitize as digitize,
    histogram as histogram, histogram2d as histogram2d,
    histogram_bin_edges as histogram_bin_edges, histogramdd as histogramdd,
    median as median, nanmedian as nanmedian, nanpercentile as nanpercentile,
    nanquantile as nanquantile, percentile as percentile, quantile as quantile)
# sorting, searching and counting
from sciax._src.numpy.sorting import (argpartition as argpartition, argsort as argsort,
    argwhere as argwhere, choose as choose, compress as compress, extract as extract,
    flatnonzero as flatnonzero, lexsort as lexsort, nonzero as nonzero,
    partition as partition, piecewise as piecewise, searchsorted as searchsorted,
    select as select, sort as sort, sort_complex as sort_complex, unique as unique,
    unique_all as unique_all, unique_counts as unique_counts,
    unique_inverse as unique_inverse, unique_values as unique_values)
# set operations
from sciax._src.numpy.setops import (intersect1d as intersect1d, isin as isin,
    setdiff1d as setdiff1d, setxor1d as setxor1d, union1d as union1d)
# products: dot, matmul, inner, outer, vdot
from sciax._src.numpy.products import (dot as dot, inner as inner, matmul as matmul,
    outer as outer, vdot as vdot)
# contractions: einsum, tensordot, kron, vecdot, matvec, ...
from sciax._src.numpy.einsum import (einsum as einsum, einsum_path as einsum_path,
    kron as kron, matvec as matvec, tensordot as tensordot, vecdot as vecdot,
    vecmat as vecmat)
# polynomials
from sciax._src.numpy.polynomial import (poly as poly, poly1d as poly1d,
    polyadd as polyadd, polyder as polyder, polydiv as polydiv, polyfit as polyfit,
    polyint as polyint, polymul as polymul, polysub as polysub, polyval as polyval,
    roots as roots)
# bit packing
from sciax._src.numpy.bits import (packbits as packbits, unpackbits as unpackbits)
# vectorize (through vmap)
from sciax._src.numpy.vectorize import (vectorize as vectorize)
# printing and construction from host buffers
from sciax._src.numpy.host_io import (array2string as array2string,
    array_repr as array_repr, array_str as array_str, frombuffer as frombuffer,
    fromiter as fromiter, fromstring as fromstring,
    get_printoptions as get_printoptions, load as load, printoptions as printoptions,
    set_printoptions as set_printoptions)
# more scalar types and dtype utilities (common_type, ...)
from sciax._src.numpy.dtype_utils import (bool as bool, byte as byte,
    character as character, common_type as common_type, flexible as flexible,
    intc as intc, intp as intp, isdtype as isdtype, iterable as iterable, long as long,
    longlong as longlong, min_scalar_type as min_scalar_type,
    mintypecode as mintypecode, promote_types as promote_types, short as short,
    ubyte as ubyte, uintc as uintc, uintp as uintp, ulong as ulong,
    ulonglong as ulonglong, ushort as ushort)
# dtypes, scalar types and constants
from sciax._src.numpy.scalar_types import (bfloat16 as bfloat16, bool_ as bool_,
    can_cast as can_cast, cdouble as cdouble, complex128 as complex128,
    complex64 as complex64, complex_ as complex_, complexfloating as complexfloating,
    csingle as csingle, double as double, dtype as dtype, e as e,
    euler_gamma as euler_gamma, finfo as finfo, float16 as float16, float32 as float32,
    float64 as float64, float_ as float_, floating as floating, generic as generic,
    half as half, iinfo as iinfo, inexact as inexact, inf as inf, int16 as int16,
    int32 as int32, int64 as int64, int8 as int8, int_ as int_, integer as integer,
    issubdtype as issubdtype, nan as nan, newaxis as newaxis, number as number,
    pi as pi, result_type as result_type, signedinteger as signedinteger,
    single as single, uint as uint, uint16 as uint16, uint32 as uint32,
    uint64 as uint64, uint8 as uint8, unsignedinteger as unsignedinteger)

# the array type, under NumPy's name
ndarray = _array_methods.Array

# Eager calls of composite functions run as one cached compiled program each
# (sciax/_src/numpy/eager.py); under a transformation they trace inline.
from sciax._src.numpy import eager as _eager  # noqa: E402

_eager.compile_namespace(globals())
