"""Integration: quadrature (``quad`` and the fixed rules) and, from the ODE
modules, ``solve_ivp``; sciax's counterpart of :mod:`scipy.integrate`."""

# --- quadrature (issue 19) ---
from sciax.integrate._quadpack import IntegrationWarning as IntegrationWarning
from sciax.integrate._quadpack import quad as quad
