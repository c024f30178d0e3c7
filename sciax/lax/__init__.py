"""sciax.lax: primitives that map about 1:1 onto StableHLO operations.

lax is strict: elementwise operations need equal shapes and dtypes (Python
scalars excepted); :mod:`sciax.numpy` adds broadcasting and promotion.

This file is the index of the public lax API: every name is re-exported
explicitly from the module of ``sciax._src.lax`` that defines it, grouped by
family.  Each primitive's rules sit in one block of that module (see "How a
primitive is defined" in the README).
"""

# --- elementwise arithmetic -----------------------------------------------------------
from sciax._src.lax.elementwise import (
    add as add,
    sub as sub,
    mul as mul,
    div as div,
    rem as rem,
    neg as neg,
    abs as abs,
    sign as sign,
    floor as floor,
    ceil as ceil,
    round as round,
    ROUND_AWAY_FROM_ZERO as ROUND_AWAY_FROM_ZERO,
    ROUND_TO_NEAREST_EVEN as ROUND_TO_NEAREST_EVEN,
    max as max,
    min as min,
    clamp as clamp,
    pow as pow,
    integer_pow as integer_pow,
    nextafter as nextafter,
)

# --- elementwise transcendental and special functions ---------------------------------
from sciax._src.lax.elementwise import (
    exp as exp,
    exp2 as exp2,
    expm1 as expm1,
    log as log,
    log1p as log1p,
    sqrt as sqrt,
    rsqrt as rsqrt,
    cbrt as cbrt,
    sin as sin,
    cos as cos,
    tan as tan,
    asin as asin,
    acos as acos,
    atan as atan,
    atan2 as atan2,
    sinh as sinh,
    cosh as cosh,
    tanh as tanh,
    asinh as asinh,
    acosh as acosh,
    atanh as atanh,
    logistic as logistic,
    erf as erf,
    erfc as erfc,
    erf_inv as erf_inv,
    lgamma as lgamma,
    digamma as digamma,
    polygamma as polygamma,
    zeta as zeta,
    is_finite as is_finite,
)

# --- comparisons and selection --------------------------------------------------------
from sciax._src.lax.elementwise import (
    eq as eq,
    ne as ne,
    lt as lt,
    le as le,
    gt as gt,
    ge as ge,
    select as select,
    select_n as select_n,
)

# --- bitwise operations and shifts ----------------------------------------------------
from sciax._src.lax.elementwise import (
    bitwise_and as bitwise_and,
    bitwise_or as bitwise_or,
    bitwise_xor as bitwise_xor,
    bitwise_not as bitwise_not,
    shift_left as shift_left,
    shift_right_arithmetic as shift_right_arithmetic,
    shift_right_logical as shift_right_logical,
    population_count as population_count,
    clz as clz,
)

# --- type conversion and complex parts ------------------------------------------------
from sciax._src.lax.elementwise import (
    convert_element_type as convert_element_type,
    bitcast_convert_type as bitcast_convert_type,
    real as real,
    imag as imag,
    conj as conj,
    complex as complex,
)

# --- differentiation control ----------------------------------------------------------
from sciax._src.lax.elementwise import (
    stop_gradient as stop_gradient,
)

# --- shapes: broadcasting, reshaping, slicing, padding, iota --------------------------
from sciax._src.lax.shape_ops import (
    broadcast_in_dim as broadcast_in_dim,
    broadcast_in_dim_p as broadcast_in_dim_p,
    broadcast as broadcast,
    broadcasted_iota as broadcasted_iota,
    iota as iota,
    iota_p as iota_p,
    reshape as reshape,
    reshape_p as reshape_p,
    transpose as transpose,
    transpose_p as transpose_p,
    squeeze as squeeze,
    squeeze_p as squeeze_p,
    expand_dims as expand_dims,
    rev as rev,
    rev_p as rev_p,
    pad as pad,
    pad_p as pad_p,
    concatenate as concatenate,
    concatenate_p as concatenate_p,
    slice as slice,
    slice_p as slice_p,
    slice_in_dim as slice_in_dim,
    index_in_dim as index_in_dim,
    dynamic_slice as dynamic_slice,
    dynamic_slice_p as dynamic_slice_p,
    dynamic_slice_in_dim as dynamic_slice_in_dim,
    dynamic_index_in_dim as dynamic_index_in_dim,
    dynamic_update_slice as dynamic_update_slice,
    dynamic_update_slice_p as dynamic_update_slice_p,
    dynamic_update_slice_in_dim as dynamic_update_slice_in_dim,
    full as full,
    full_like as full_like,
    zeros_like_array as zeros_like_array,
    ones_like_array as ones_like_array,
)

# --- reductions, arg-reductions and cumulative reductions -----------------------------
from sciax._src.lax.reductions import (
    reduce_sum as reduce_sum,
    reduce_sum_p as reduce_sum_p,
    reduce_prod as reduce_prod,
    reduce_prod_p as reduce_prod_p,
    reduce_max as reduce_max,
    reduce_max_p as reduce_max_p,
    reduce_min as reduce_min,
    reduce_min_p as reduce_min_p,
    reduce_and as reduce_and,
    reduce_and_p as reduce_and_p,
    reduce_or as reduce_or,
    reduce_or_p as reduce_or_p,
    reduce_xor as reduce_xor,
    reduce_xor_p as reduce_xor_p,
    argmax as argmax,
    argmax_p as argmax_p,
    argmin as argmin,
    argmin_p as argmin_p,
    cumsum as cumsum,
    cumsum_p as cumsum_p,
    cumprod as cumprod,
    cumprod_p as cumprod_p,
    cummax as cummax,
    cummax_p as cummax_p,
    cummin as cummin,
    cummin_p as cummin_p,
    cumlogsumexp as cumlogsumexp,
    cumlogsumexp_p as cumlogsumexp_p,
)

# --- contractions ---------------------------------------------------------------------
from sciax._src.lax.dot import (
    dot as dot,
    dot_general as dot_general,
    dot_general_p as dot_general_p,
)

# --- sorting --------------------------------------------------------------------------
from sciax._src.lax.sort import (
    sort as sort,
    sort_p as sort_p,
    sort_key_val as sort_key_val,
    top_k as top_k,
    top_k_p as top_k_p,
)

# --- gather and scatter ---------------------------------------------------------------
from sciax._src.lax.indexing import (
    GatherDimensionNumbers as GatherDimensionNumbers,
    GatherScatterMode as GatherScatterMode,
    ScatterDimensionNumbers as ScatterDimensionNumbers,
    gather as gather,
    gather_p as gather_p,
    scatter as scatter,
    scatter_p as scatter_p,
    scatter_add as scatter_add,
    scatter_add_p as scatter_add_p,
    scatter_sub as scatter_sub,
    scatter_sub_p as scatter_sub_p,
    scatter_mul as scatter_mul,
    scatter_mul_p as scatter_mul_p,
    scatter_min as scatter_min,
    scatter_min_p as scatter_min_p,
    scatter_max as scatter_max,
    scatter_max_p as scatter_max_p,
)

# --- control flow ---------------------------------------------------------------------
from sciax._src.lax.control_flow import (
    cond as cond,
    cond_p as cond_p,
    switch as switch,
    while_loop as while_loop,
    while_p as while_p,
    fori_loop as fori_loop,
    scan as scan,
    scan_p as scan_p,
    map as map,
    associative_scan as associative_scan,
    optimization_barrier as optimization_barrier,
    optimization_barrier_p as optimization_barrier_p,
)

# --- collectives over named axes (vmap/pmap) ------------------------------------------
from sciax._src.lax.parallel import (
    psum as psum,
    psum_p as psum_p,
    pmax as pmax,
    pmax_p as pmax_p,
    pmin as pmin,
    pmin_p as pmin_p,
    pmean as pmean,
    all_gather as all_gather,
    all_gather_p as all_gather_p,
    ppermute as ppermute,
    ppermute_p as ppermute_p,
    axis_index as axis_index,
    axis_index_p as axis_index_p,
    pmap_axis_env as pmap_axis_env,
)

# --- fast Fourier transform -----------------------------------------------------------
from sciax._src.lax.fft import (
    FftType as FftType,
    fft as fft,
    fft_p as fft_p,
)

# --- linear algebra (a namespace: lax.linalg.cholesky, ...) -------------------------
from sciax.lax import linalg as linalg

# --- JAX's lax names (issue 12, item 3): implicit solves, reduce, conveniences ----
from sciax._src.lax.solvers import (
    custom_linear_solve as custom_linear_solve,
    custom_root as custom_root,
)
from sciax._src.lax.scan_extras import reduce as reduce  # noqa: A004
from sciax._src.lax.convenience import (
    square as square,
    reciprocal as reciprocal,
    stack as stack,
    unstack as unstack,
    split as split,
    tile as tile,
    collapse as collapse,
    broadcast_to_rank as broadcast_to_rank,
    broadcast_like as broadcast_like,
    broadcast_shapes as broadcast_shapes,
    empty as empty,
    dynamic_update_index_in_dim as dynamic_update_index_in_dim,
)
