"""Debugging from inside transformed and compiled code."""

from sciax._src.debugging import callback as callback
from sciax._src.debugging import print as print  # noqa: A004
