"""sciax.integrate: integration, sciax's counterpart of :mod:`scipy.integrate`,
differentiable (``grad``/``jvp`` with respect to parameters and limits),
batchable (``vmap``) and compilable (``jit``).

Quadrature (issue 19):

- :func:`quad` (QUADPACK's QAGS/QAGI/QAGP with Wynn extrapolation, weights),
  :func:`quad_vec`, :func:`nquad`, :func:`dblquad`, :func:`tplquad`;
- :func:`tanhsinh`, :func:`qmc_quad`;
- sample and fixed rules: :func:`trapezoid`, :func:`simpson`, :func:`romb`,
  :func:`cumulative_trapezoid`, :func:`cumulative_simpson`, :func:`newton_cotes`,
  :func:`fixed_quad`, and Gauss nodes :func:`roots_legendre`,
  :func:`roots_hermite`, :func:`roots_laguerre`.
"""

# --- quadrature (issue 19) ---
from sciax.integrate._quadpack import IntegrationWarning as IntegrationWarning
from sciax.integrate._quadpack import quad as quad
from sciax.integrate._quad_vec import quad_vec as quad_vec
from sciax.integrate._multi import dblquad as dblquad
from sciax.integrate._multi import nquad as nquad
from sciax.integrate._multi import tplquad as tplquad
from sciax.integrate._tanhsinh import TanhSinhResult as TanhSinhResult
from sciax.integrate._tanhsinh import tanhsinh as tanhsinh
from sciax.integrate._qmc import QMCQuadResult as QMCQuadResult
from sciax.integrate._qmc import qmc_quad as qmc_quad
from sciax.integrate._rules import cumulative_simpson as cumulative_simpson
from sciax.integrate._rules import cumulative_trapezoid as cumulative_trapezoid
from sciax.integrate._rules import fixed_quad as fixed_quad
from sciax.integrate._rules import newton_cotes as newton_cotes
from sciax.integrate._rules import romb as romb
from sciax.integrate._rules import roots_hermite as roots_hermite
from sciax.integrate._rules import roots_laguerre as roots_laguerre
from sciax.integrate._rules import roots_legendre as roots_legendre
from sciax.integrate._rules import simpson as simpson
from sciax.integrate._rules import trapezoid as trapezoid
