"""sciax: NumPy/SciPy-style scientific computing with exact derivatives,
batching and compilation through XLA."""

from sciax._src.config import config as config
from sciax._src.backend.array import Array as Array
from sciax._src.backend.client import devices as devices
from sciax._src.jit import device_put as device_put
from sciax._src.jit import jit as jit
from sciax._src.jit import make_jaxpr as make_jaxpr
from sciax._src.api import grad as grad
from sciax._src.api import value_and_grad as value_and_grad
from sciax._src.api import jvp as jvp
from sciax._src.api import vjp as vjp
from sciax._src.api import linearize as linearize
from sciax._src.api import jacfwd as jacfwd
from sciax._src.api import jacrev as jacrev
from sciax._src.api import hessian as hessian
from sciax._src.api import vmap as vmap
from sciax._src.pmap import pmap as pmap
from sciax._src.custom_derivatives import custom_jvp as custom_jvp
from sciax._src.custom_derivatives import custom_vjp as custom_vjp
from sciax._src.checkpoint import checkpoint as checkpoint
from sciax._src.checkpoint import remat as remat
from sciax import tree as tree
from sciax import debug as debug
from sciax import distributed as distributed
from sciax import lax as lax
from sciax import numpy as numpy
from sciax import random as random
from sciax import linalg as linalg

__version__ = "0.1.0"

# --- JAX's API where users reach for it (issue 12, item 3) ---------------------------
# ``import sciax as jax`` runs scripts written for JAX: jax.tree_util, jax.nn,
# jax.scipy (a lazy alias of sciax.linalg/optimize/...), jax.experimental and
# the small top-level helpers.
from sciax._src.api_extras import ShapeDtypeStruct as ShapeDtypeStruct
from sciax._src.api_extras import block_until_ready as block_until_ready
from sciax._src.api_extras import device_get as device_get
from sciax._src.api_extras import eval_shape as eval_shape
from sciax._src.api_extras import default_backend as default_backend
from sciax._src.api_extras import device_count as device_count
from sciax._src.api_extras import enable_x64 as enable_x64
from sciax._src.api_extras import linear_transpose as linear_transpose
from sciax._src.api_extras import local_device_count as local_device_count
from sciax._src.api_extras import local_devices as local_devices
from sciax._src.api_extras import named_call as named_call
from sciax._src.api_extras import named_scope as named_scope
from sciax._src.api_extras import process_count as process_count
from sciax._src.api_extras import process_index as process_index
from sciax._src.api_extras import typeof as typeof
from sciax._src.api import jacrev as jacobian
from sciax._src.debugging import pure_callback as pure_callback
from sciax import experimental as experimental
from sciax import nn as nn
from sciax import scipy as scipy
from sciax import tree_util as tree_util
