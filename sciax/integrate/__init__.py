"""
Integration and ODEs (:mod:`sciax.integrate`)
=============================================

SciPy's ``scipy.integrate`` names and conventions, differentiable, batchable
and compiled.

Initial value problems
----------------------
   solve_ivp - Solve an initial value problem (explicit Runge-Kutta methods)
   odeint - Integrate an ODE at given times (SciPy's/JAX's ``odeint`` interface)
   OdeSolution - Continuous solution returned with ``dense_output=True``
   OdeResult - Result of ``solve_ivp`` (a pytree)
   RK23, RK45, DOP853, Tsit5, RK4, Euler - Solvers (``METHODS`` maps names)
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
