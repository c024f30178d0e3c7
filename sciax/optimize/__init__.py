"""
Optimization (:mod:`sciax.optimize`)
====================================

SciPy's ``scipy.optimize`` names, signatures and result objects, with exact
derivatives (automatic differentiation instead of finite differences), every
method compiled with ``jit``, batched with ``vmap``, and ``minimize(...).x``
differentiable with respect to ``args`` by the implicit function theorem.
Written only against the public API (``sciax``, ``sciax.numpy``,
``sciax.lax``, ``sciax.linalg``).

Minimization
------------
   minimize - Minimize a scalar function of one or more variables
   minimize_scalar - Minimize a scalar function of one variable
   line_search - Strong-Wolfe line search
   OptimizeResult - Result object (a pytree)
   OptimizeWarning - Warning for bad options and inputs
   Bounds - Box constraints
   NonlinearConstraint, LinearConstraint - constraints for SLSQP
   show_options - Options of each method

Roots, least squares, fitting
-----------------------------
   root - Systems of equations (hybr, lm, broyden1/2, anderson, krylov,
          df-sane, linearmixing, diagbroyden, excitingmixing)
   root_scalar, brentq, brenth, bisect, ridder, toms748, newton - scalar roots
   least_squares (trf, dogbox, lm), curve_fit, fixed_point

Solvers (``method=`` accepts these classes or instances)
--------------------------------------------------------
   AbstractMinimizer - init / step / terminate / postprocess interface
   BFGSMinimizer, CGMinimizer, NewtonCGMinimizer, LBFGSBMinimizer,
   TrustNCGMinimizer, TrustExactMinimizer, DoglegMinimizer, NelderMeadMinimizer,
   PowellMinimizer, TrustKrylovMinimizer, TNCMinimizer
   SLSQPSolver - SLSQP's options (``method=SLSQPSolver(ftol=...)``)
   AbstractRootSolver, HybrSolver, BroydenSolver, Broyden2Solver, AndersonSolver,
   KrylovSolver, DFSaneSolver, LinearMixingSolver, DiagBroydenSolver,
   ExcitingMixingSolver, NonlinSolver - root's methods as solver objects
   LbfgsInvHessProduct - L-BFGS-B's ``hess_inv`` operator (matvec, todense)
   Status - stop reasons; each value is SciPy's message

Helpers
-------
   approx_fprime, check_grad, rosen, rosen_der, rosen_hess, rosen_hess_prod
   HessianUpdateStrategy, BFGS, SR1 - quasi-Newton update objects (SciPy's)

Global optimization
-------------------
   differential_evolution - Population search over a box (one batched
                            evaluation per generation)
   basinhopping - Random hops between local minima (Metropolis test)
   dual_annealing - Generalised simulated annealing with local searches
   direct - DIRECT / DIRECT-L: deterministic division of the box into
            hyperrectangles (SciPy's divisions, nfev and nit)
   shgo - Simplicial homology global optimisation over Sobol/Halton samples
          (nearest-neighbour stars, batched SLSQP local searches)

Linear and mixed-integer programming
------------------------------------
   linprog - Linear programs (homogeneous self-dual interior-point method)
   milp - Mixed-integer linear programs (compiled branch and bound)

Assignment
----------
   linear_sum_assignment - Linear assignment (shortest augmenting paths)
   quadratic_assignment - Quadratic assignment / graph matching ('faq', '2opt')

Legacy and functional interfaces, linear least squares
------------------------------------------------------
   fmin, fmin_powell, fmin_cg, fmin_bfgs, fmin_ncg, fmin_l_bfgs_b, fmin_tnc,
   fmin_slsqp - SciPy's functional minimizers (tuples, warnflags, disp)
   fminbound, brent, golden, bracket - scalar minimization
   fsolve, leastsq - MINPACK-style roots and least squares
   broyden1, broyden2, anderson, newton_krylov, diagbroyden, linearmixing,
   excitingmixing, NoConvergence - the nonlin solver functions
   BroydenFirst, KrylovJacobian, InverseJacobian - nonlin Jacobian
          approximations (setup/update/solve/matvec; preconditioners)
   nnls, lsq_linear - non-negative and bounded linear least squares

Constrained trust region and COBYLA
-----------------------------------
   TrustConstrSolver - ``minimize(method='trust-constr')``'s options: SciPy's
                       Byrd-Omojokun SQP and barrier interior-point method
   COBYLASolver - ``minimize(method='COBYLA')``'s options: Powell's
                  derivative-free linear-approximation trust region
"""

from __future__ import annotations

from sciax.optimize._base import AbstractMinimizer as AbstractMinimizer
from sciax.optimize._base import OptimizeResult as OptimizeResult
from sciax.optimize._base import OptimizeWarning as OptimizeWarning
from sciax.optimize._base import Status as Status
from sciax.optimize._linesearch import line_search as line_search
from sciax.optimize._linesearch_methods import BFGSMinimizer as BFGSMinimizer
from sciax.optimize._linesearch_methods import CGMinimizer as CGMinimizer
from sciax.optimize._linesearch_methods import NewtonCGMinimizer as NewtonCGMinimizer
from sciax.optimize._lbfgsb import LBFGSBMinimizer as LBFGSBMinimizer
from sciax.optimize._lbfgsb import LbfgsInvHessProduct as LbfgsInvHessProduct
from sciax.optimize._minimize import minimize as minimize
from sciax.optimize._minimize import register_method as _register
from sciax.optimize._neldermead import NelderMeadMinimizer as NelderMeadMinimizer
from sciax.optimize._scalar import minimize_scalar as minimize_scalar
from sciax.optimize._trust import DoglegMinimizer as DoglegMinimizer
from sciax.optimize._trust import TrustExactMinimizer as TrustExactMinimizer
from sciax.optimize._trust import TrustNCGMinimizer as TrustNCGMinimizer
from sciax.optimize._util import BFGS as BFGS
from sciax.optimize._util import SR1 as SR1
from sciax.optimize._util import Bounds as Bounds
from sciax.optimize._util import HessianUpdateStrategy as HessianUpdateStrategy
from sciax.optimize._util import approx_fprime as approx_fprime
from sciax.optimize._util import check_grad as check_grad
from sciax.optimize._util import rosen as rosen
from sciax.optimize._util import rosen_der as rosen_der
from sciax.optimize._util import rosen_hess as rosen_hess
from sciax.optimize._util import rosen_hess_prod as rosen_hess_prod
from sciax.optimize._util import show_options as show_options

_register("BFGS", BFGSMinimizer)
_register("CG", CGMinimizer)
_register("Newton-CG", NewtonCGMinimizer)
_register("L-BFGS-B", LBFGSBMinimizer)
_register("trust-ncg", TrustNCGMinimizer)
_register("trust-exact", TrustExactMinimizer)
_register("dogleg", DoglegMinimizer)
_register("Nelder-Mead", NelderMeadMinimizer)
from sciax.optimize._powell import PowellMinimizer as PowellMinimizer  # noqa: E402

_register("Powell", PowellMinimizer)
from sciax.optimize._trust import TrustKrylovMinimizer as TrustKrylovMinimizer  # noqa

_register("trust-krylov", TrustKrylovMinimizer)
from sciax.optimize._tnc import TNCMinimizer as TNCMinimizer  # noqa: E402

_register("TNC", TNCMinimizer)

# --- part 2 (issue 16): roots, least squares, curve fitting --------------------------
from sciax.optimize._root_scalar import RootResults as RootResults  # noqa: E402
from sciax.optimize._root_scalar import bisect as bisect  # noqa: E402
from sciax.optimize._root_scalar import brenth as brenth  # noqa: E402
from sciax.optimize._root_scalar import brentq as brentq  # noqa: E402
from sciax.optimize._root_scalar import newton as newton  # noqa: E402
from sciax.optimize._root_scalar import ridder as ridder  # noqa: E402
from sciax.optimize._root_scalar import root_scalar as root_scalar  # noqa: E402
from sciax.optimize._root_scalar import toms748 as toms748  # noqa: E402
from sciax.optimize._least_squares import least_squares as least_squares  # noqa: E402
from sciax.optimize._curve_fit import curve_fit as curve_fit  # noqa: E402
from sciax.optimize._fixed_point import fixed_point as fixed_point  # noqa: E402
from sciax.optimize._root import root as root  # noqa: E402
from sciax.optimize._root import AbstractRootSolver as AbstractRootSolver  # noqa: E402
from sciax.optimize._root import register_root_method as _register_root  # noqa: E402
from sciax.optimize._hybr import HybrSolver as HybrSolver  # noqa: E402
from sciax.optimize._nonlin import AndersonSolver as AndersonSolver  # noqa: E402
from sciax.optimize._nonlin import Broyden2Solver as Broyden2Solver  # noqa: E402
from sciax.optimize._nonlin import BroydenSolver as BroydenSolver  # noqa: E402
from sciax.optimize._nonlin import DFSaneSolver as DFSaneSolver  # noqa: E402
from sciax.optimize._nonlin import DiagBroydenSolver as DiagBroydenSolver  # noqa: E402
from sciax.optimize._nonlin import ExcitingMixingSolver as ExcitingMixingSolver  # noqa
from sciax.optimize._nonlin import KrylovSolver as KrylovSolver  # noqa: E402
from sciax.optimize._nonlin import LinearMixingSolver as LinearMixingSolver  # noqa
from sciax.optimize._nonlin import NonlinSolver as NonlinSolver  # noqa: E402

_register_root("hybr", HybrSolver)
_register_root("broyden1", BroydenSolver)
_register_root("broyden2", Broyden2Solver)
_register_root("anderson", AndersonSolver)
_register_root("linearmixing", LinearMixingSolver)
_register_root("diagbroyden", DiagBroydenSolver)
_register_root("excitingmixing", ExcitingMixingSolver)
_register_root("krylov", KrylovSolver)
_register_root("df-sane", DFSaneSolver)
from sciax.optimize._constraints import LinearConstraint as LinearConstraint  # noqa
from sciax.optimize._constraints import (  # noqa: E402
    NonlinearConstraint as NonlinearConstraint)
from sciax.optimize._slsqp import SLSQPSolver as SLSQPSolver  # noqa: E402

# --- branch glob (issue 16): global minimisation -------------------------------------
from sciax.optimize._global import basinhopping as basinhopping  # noqa: E402
from sciax.optimize._global import (  # noqa: E402
    differential_evolution as differential_evolution)
from sciax.optimize._dual_annealing import dual_annealing as dual_annealing  # noqa
# --- branch legacy (issue 16): functional front doors, nnls, lsq_linear -----------
from sciax.optimize._legacy import NoConvergence as NoConvergence  # noqa: E402
from sciax.optimize._legacy import anderson as anderson  # noqa: E402
from sciax.optimize._legacy import bracket as bracket  # noqa: E402
from sciax.optimize._legacy import brent as brent  # noqa: E402
from sciax.optimize._legacy import broyden1 as broyden1  # noqa: E402
from sciax.optimize._legacy import broyden2 as broyden2  # noqa: E402
from sciax.optimize._legacy import diagbroyden as diagbroyden  # noqa: E402
from sciax.optimize._legacy import excitingmixing as excitingmixing  # noqa: E402
from sciax.optimize._legacy import fmin as fmin  # noqa: E402
from sciax.optimize._legacy import fmin_bfgs as fmin_bfgs  # noqa: E402
from sciax.optimize._legacy import fmin_cg as fmin_cg  # noqa: E402
from sciax.optimize._legacy import fmin_l_bfgs_b as fmin_l_bfgs_b  # noqa: E402
from sciax.optimize._legacy import fmin_ncg as fmin_ncg  # noqa: E402
from sciax.optimize._legacy import fmin_powell as fmin_powell  # noqa: E402
from sciax.optimize._legacy import fmin_slsqp as fmin_slsqp  # noqa: E402
from sciax.optimize._legacy import fmin_tnc as fmin_tnc  # noqa: E402
from sciax.optimize._legacy import fminbound as fminbound  # noqa: E402
from sciax.optimize._legacy import fsolve as fsolve  # noqa: E402
from sciax.optimize._legacy import golden as golden  # noqa: E402
from sciax.optimize._legacy import leastsq as leastsq  # noqa: E402
from sciax.optimize._legacy import linearmixing as linearmixing  # noqa: E402
from sciax.optimize._legacy import newton_krylov as newton_krylov  # noqa: E402
from sciax.optimize._lsq_linear import lsq_linear as lsq_linear  # noqa: E402
from sciax.optimize._lsq_linear import nnls as nnls  # noqa: E402

# --- branch tconstr: minimize(method='trust-constr') and COBYLA ---
from sciax.optimize._trust_constr import TrustConstrSolver as TrustConstrSolver  # noqa
from sciax.optimize._trust_constr import (  # noqa: E402
    run_from_minimize as _run_trust_constr)
from sciax.optimize._minimize import (  # noqa: E402
    register_constrained_method as _register_constrained)

_register_constrained("trust-constr", TrustConstrSolver, _run_trust_constr)
from sciax.optimize._cobyla import COBYLASolver as COBYLASolver  # noqa: E402
from sciax.optimize._cobyla import run_from_minimize as _run_cobyla  # noqa: E402

_register_constrained("cobyla", COBYLASolver, _run_cobyla)

# --- branch optb: linear programming and more of scipy.optimize's surface ---
from sciax.optimize._linprog import linprog as linprog  # noqa: E402
from sciax.optimize._lsap import linear_sum_assignment as linear_sum_assignment  # noqa
from sciax.optimize._isotonic import isotonic_regression as isotonic_regression  # noqa
from sciax.optimize._brute import brute as brute  # noqa: E402
from sciax.optimize._fmin_cobyla import fmin_cobyla as fmin_cobyla  # noqa: E402

# --- branch h23o (issue 16): DIRECT, quadratic assignment ---
from sciax.optimize._direct import direct as direct  # noqa: E402
from sciax.optimize._qap import quadratic_assignment as quadratic_assignment  # noqa
from sciax.optimize._jacobians import BroydenFirst as BroydenFirst  # noqa: E402
from sciax.optimize._jacobians import InverseJacobian as InverseJacobian  # noqa: E402
from sciax.optimize._jacobians import KrylovJacobian as KrylovJacobian  # noqa: E402

# --- branch h24o: mixed-integer linear programming, simplicial homology global opt ---
from sciax.optimize._milp import milp as milp  # noqa: E402
from sciax.optimize._shgo import shgo as shgo  # noqa: E402
