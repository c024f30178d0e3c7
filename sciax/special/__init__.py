"""
Special functions (:mod:`sciax.special`)
=================================
SciPy's ``scipy.special`` names, signatures and broadcasting, written over
``sciax.lax`` and ``sciax.numpy`` so that every function runs under ``jit``,
``vmap`` and ``grad``, with derivatives in every continuous argument.

The functions are grouped by family, one private module each:

   _gamma        gamma, beta, their logarithms, combinatorics
   _incomplete   incomplete gamma/beta and their inverses
   _error        error functions, Faddeeva, Fresnel, normal distribution
   _convenience  expit/logit, xlogy, entropy helpers, Box-Cox, sinc, ...
   _cdflib       distribution functions (stdtr, chdtr, bdtr, ...)
   _orthogonal   orthogonal polynomials and Gauss quadrature rules
   _bessel       Bessel, Airy, Struve and spherical Bessel functions
   _zeta         zeta, exponential/sine/cosine integrals, Lambert W, ...
   _elliptic     Legendre and Carlson elliptic integrals
   _hyper        hypergeometric functions
   _extra_s21    Bessel derivatives (jvp, ...), Kelvin functions, Bessel and
                 Kelvin zeros, Riccati-Bessel, Wright's Bessel, stirling2,
                 bernoulli, euler, tklmbda, itj0y0/iti0k0, roots aliases
   _noncentral   kernels of the noncentral chi-square, t and F laws (shared
                 with sciax.stats)
   _extra_s23    cdflib's inverses in a parameter (bdtrik, chdtriv, ...) and
                 the noncentral distribution functions (chndtr, nctdtr, ...)
   _orthopoly1d  SciPy's host-side polynomial objects (legendre(n), jacobi,
                 ...: numpy poly1d subclasses with Gauss rules)
   _legendre_s23 SciPy 1.15's Legendre functions with derivatives
                 (legendre_p, assoc_legendre_p, sph_legendre_p, *_all,
                 sph_harm_y_all), lqn and lqmn
   _misc_s23     modified Fresnel integrals, besselpoly, lmbda, Airy, erf and Fresnel
                 zeros
   _mathieu      Mathieu functions: characteristic values, Fourier coefficients,
                 ce/se and the modified (radial) functions
   _spheroidal   spheroidal wave functions: characteristic values and the
                 angular functions of the first kind
   _extra_s24    parabolic cylinder functions (pbdv, pbvv, pbwa, sequences),
                 integrals of Airy and Struve functions, jnjnp_zeros, and
                 SciPy's error-handling API (errstate, geterr, seterr)
"""

from __future__ import annotations

# Each family module lists its public names in ``__all__``; the imports below
# are kept one line per module so that families can be added independently.
from sciax.special._gamma import *  # noqa: F401,F403
from sciax.special._incomplete import *  # noqa: F401,F403
from sciax.special._bessel import *  # noqa: F401,F403
from sciax.special._error import *  # noqa: F401,F403
from sciax.special._zeta import *  # noqa: F401,F403
from sciax.special._elliptic import *  # noqa: F401,F403
from sciax.special._convenience import *  # noqa: F401,F403
from sciax.special._cdflib import *  # noqa: F401,F403
from sciax.special._orthogonal import *  # noqa: F401,F403
from sciax.special._hyper import *  # noqa: F401,F403
from sciax.special._extra_s21 import *  # noqa: F401,F403
from sciax.special._extra_s23 import *  # noqa: F401,F403
from sciax.special._orthopoly1d import *  # noqa: F401,F403
from sciax.special._legendre_s23 import *  # noqa: F401,F403
from sciax.special._misc_s23 import *  # noqa: F401,F403
from sciax.special._mathieu import *  # noqa: F401,F403
from sciax.special._spheroidal import *  # noqa: F401,F403
from sciax.special._extra_s24 import *  # noqa: F401,F403

# Every public function runs an eager call as one cached compiled program per
# signature (as sciax.numpy and sciax.linalg do) and is traced inline under a
# transformation: a special function is hundreds of primitives (series,
# recurrences, loops), so op-by-op eager dispatch cost milliseconds to a second
# per call.  A function that cannot be one program (host-side answers, output
# shapes from values) falls back to running directly, by itself.  One whose
# output SHAPE depends on a value it can also trace (the number of Mathieu
# coefficients is SciPy's estimate from a concrete q, a static one when q is
# traced) is left out: a program would fix the traced shape.
import types as _types  # noqa: E402

from sciax.experimental import eager_program as _eager_program  # noqa: E402

_VALUE_SHAPED = frozenset({"mathieu_even_coef", "mathieu_odd_coef"})
for _name, _value in list(globals().items()):
    if (not _name.startswith("_") and isinstance(_value, _types.FunctionType)
            and _value.__module__.startswith("sciax.special.")
            and _name not in _VALUE_SHAPED):
        globals()[_name] = _eager_program(_value)
del _name, _value
