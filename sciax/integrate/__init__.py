"""Integration: quadrature (``quad`` and the fixed rules) and, from the ODE
modules, ``solve_ivp``; sciax's counterpart of :mod:`scipy.integrate`."""

# --- quadrature (issue 19) ---
from sciax.integrate._quadpack import IntegrationWarning as IntegrationWarning
from sciax.integrate._quadpack import quad as quad
from sciax.integrate._rules import cumulative_simpson as cumulative_simpson
from sciax.integrate._rules import cumulative_trapezoid as cumulative_trapezoid
from sciax.integrate._rules import fixed_quad as fixed_quad
from sciax.integrate._rules import newton_cotes as newton_cotes
from sciax.integrate._rules import romb as romb
from sciax.integrate._rules import roots_legendre as roots_legendre
from sciax.integrate._rules import simpson as simpson
from sciax.integrate._rules import trapezoid as trapezoid
from sciax.integrate._multi import dblquad as dblquad
from sciax.integrate._multi import nquad as nquad
from sciax.integrate._multi import tplquad as tplquad
from sciax.integrate._quad_vec import quad_vec as quad_vec
from sciax.integrate._qmc import QMCQuadResult as QMCQuadResult
from sciax.integrate._qmc import qmc_quad as qmc_quad
from sciax.integrate._tanhsinh import TanhSinhResult as TanhSinhResult
from sciax.integrate._tanhsinh import tanhsinh as tanhsinh
