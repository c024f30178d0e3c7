"""``sciax.experimental``: JAX's ``jax.experimental`` names that sciax has."""

from sciax._src.debugging import io_callback as io_callback
