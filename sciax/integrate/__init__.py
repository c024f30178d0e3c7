"""
Integration and ODEs (:mod:`sciax.integrate`)
=============================================

SciPy's ``scipy.integrate`` names and conventions, differentiable (``grad``/
``jvp`` with respect to parameters, initial values and limits), batchable
(``vmap``) and compiled (``jit``).

Initial value problems
----------------------
   solve_ivp - Solve an initial value problem (explicit and implicit methods)
   odeint - Integrate an ODE at given times (SciPy's/JAX's ``odeint`` interface)
   OdeSolution - Continuous solution returned with ``dense_output=True``
   OdeResult - Result of ``solve_ivp`` (a pytree)
   RK23, RK45, DOP853, Tsit5, RK4, Euler - Explicit solvers (``METHODS`` maps names)
   BDF, Radau, Kvaerno3, Kvaerno4, Kvaerno5 - Implicit solvers for stiff problems
   KenCarp3, KenCarp4, KenCarp5 - IMEX solvers (``fun=(f_explicit, f_implicit)``)
   LSODA - Automatic switching between RK45 and BDF by a stiffness estimate
   OdeSolver, DenseOutput - SciPy's step-wise interface (``RK45(fun, t0, y0,
   t_bound)`` and the like return a stepper with ``step()``, ``dense_output()``)
   ode, complex_ode - SciPy's legacy class interface (vode, zvode, lsoda, dopri5,
   dop853 mapped onto BDF, LSODA, RK45 and DOP853)

Choosing a solver
-----------------
Start with ``'RK45'`` (or ``'Tsit5'``).  If it takes many more steps than the
solution's features suggest, or stalls with tiny steps, the problem is stiff
(widely separated time scales: chemistry, combustion, circuits, heat flow);
``'LSODA'`` decides this by itself, switching between RK45 and BDF.  Otherwise:

* ``'Radau'`` (order 5) for tight tolerances, and the only one that takes a
  mass matrix (``mass=M`` for ``M y' = f``: DAEs of index 1);
* ``'BDF'`` (orders 1 to 5) for loose tolerances and large systems: the fewest
  LU factorisations;
* ``'Kvaerno5'`` (or 3, 4) when Jacobians are cheap and a one-step method is
  wanted (no history to restart after events);
* ``'KenCarp4'`` (or 3, 5) when only part of the right-hand side is stiff:
  pass ``fun=(f_explicit, f_implicit)`` and only the second is solved for.

Implicit methods differentiate ``fun`` for their Jacobian unless ``jac`` is
given.  For derivatives of a stiff solve use ``adjoint='direct'`` or
``'interpolated'``; ``'backsolve'`` re-integrates the state backwards, which is
unstable when the forward problem is stiff.

Quadrature
----------
   quad - QUADPACK's QAGS/QAGI/QAGP with Wynn extrapolation, and weights
   quad_vec, nquad, dblquad, tplquad - vector-valued and multiple integrals
   cubature - adaptive cubature over a box (product Gauss-Kronrod, Genz-Malik)
   tanhsinh, qmc_quad - double-exponential and quasi-Monte Carlo rules
   nsum - sum of a convergent series (direct part plus an integral tail)
   trapezoid, simpson, romb, cumulative_trapezoid, cumulative_simpson,
   newton_cotes, fixed_quad - sample and fixed rules
   roots_legendre, roots_hermite, roots_laguerre - Gauss nodes and weights
   lebedev_rule - Lebedev-Laikov points and weights on the unit sphere
"""

# ODEs (issue 17)
from sciax.integrate._interp import OdeSolution as OdeSolution
from sciax.integrate._ivp import OdeResult as OdeResult
from sciax.integrate._ivp import solve_ivp as solve_ivp
from sciax.integrate._rk import DOP853 as DOP853
from sciax.integrate._rk import METHODS as METHODS
from sciax.integrate._rk import RK4 as RK4
from sciax.integrate._rk import RK23 as RK23
from sciax.integrate._rk import RK45 as RK45
from sciax.integrate._rk import AbstractExplicitRK as AbstractExplicitRK
from sciax.integrate._rk import AbstractODESolver as AbstractODESolver
from sciax.integrate._rk import Euler as Euler
from sciax.integrate._rk import Tsit5 as Tsit5
from sciax.integrate._odeint import odeint as odeint
from sciax.integrate._bdf import BDF as BDF
from sciax.integrate._radau import Radau as Radau
from sciax.integrate._esdirk import Kvaerno3 as Kvaerno3
from sciax.integrate._esdirk import Kvaerno4 as Kvaerno4
from sciax.integrate._esdirk import Kvaerno5 as Kvaerno5
from sciax.integrate._esdirk import KenCarp3 as KenCarp3
from sciax.integrate._esdirk import KenCarp4 as KenCarp4
from sciax.integrate._esdirk import KenCarp5 as KenCarp5
from sciax.integrate._lsoda import LSODA as LSODA
from sciax.integrate._implicit import AbstractImplicitSolver as AbstractImplicitSolver
from sciax.integrate._odesolver import DenseOutput as DenseOutput
from sciax.integrate._odesolver import OdeSolver as OdeSolver

# --- quadrature (issue 19) ---
from sciax.integrate._quadpack import IntegrationWarning as IntegrationWarning
from sciax.integrate._quadpack import quad as quad
from sciax.integrate._quad_vec import quad_vec as quad_vec
from sciax.integrate._cubature import CubatureRegion as CubatureRegion
from sciax.integrate._cubature import CubatureResult as CubatureResult
from sciax.integrate._cubature import cubature as cubature
from sciax.integrate._multi import dblquad as dblquad
from sciax.integrate._multi import nquad as nquad
from sciax.integrate._multi import tplquad as tplquad
from sciax.integrate._tanhsinh import TanhSinhResult as TanhSinhResult
from sciax.integrate._tanhsinh import tanhsinh as tanhsinh
from sciax.integrate._qmc import QMCQuadResult as QMCQuadResult
from sciax.integrate._qmc import qmc_quad as qmc_quad
from sciax.integrate._nsum import NsumResult as NsumResult
from sciax.integrate._nsum import nsum as nsum
from sciax.integrate._lebedev import lebedev_rule as lebedev_rule
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
from sciax.integrate._bvp import BVPResult, BVPSolution, solve_bvp  # noqa: F401
# branch h24o: SciPy's legacy class interface
from sciax.integrate._ode_legacy import complex_ode as complex_ode  # noqa: E402
from sciax.integrate._ode_legacy import ode as ode  # noqa: E402
