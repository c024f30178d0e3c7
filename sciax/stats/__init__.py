"""
Statistics (:mod:`sciax.stats`)
===============================

SciPy's ``scipy.stats`` distributions and statistical functions, differentiable
in every continuous parameter, jittable and batchable; written only against
the public API (``sciax``, ``sciax.numpy``, ``sciax.lax``, ``sciax.special``,
``sciax.optimize``).
"""

from __future__ import annotations

from sciax.stats._distn_base import FitEstimate as FitEstimate
from sciax.stats._distn_base import rv_continuous as rv_continuous
from sciax.stats._distn_base import rv_discrete as rv_discrete
from sciax.stats._distn_base import rv_frozen as rv_frozen
from sciax.stats._continuous import *  # noqa: F401,F403
from sciax.stats._discrete import *  # noqa: F401,F403
from sciax.stats._multivariate import *  # noqa: F401,F403
from sciax.stats._continuous_special import *  # noqa: F401,F403
from sciax.stats._stats_py import *  # noqa: F401,F403
from sciax.stats._resampling import *  # noqa: F401,F403
from sciax.stats._continuous_more import *  # noqa: F401,F403
