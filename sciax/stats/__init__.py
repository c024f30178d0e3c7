"""
Statistics (:mod:`sciax.stats`)
===============================

SciPy's ``scipy.stats`` distributions and statistical functions, differentiable
in every continuous parameter, jittable and batchable; written only against
the public API (``sciax``, ``sciax.numpy``, ``sciax.lax``, ``sciax.special``,
``sciax.optimize``).
"""

from __future__ import annotations
