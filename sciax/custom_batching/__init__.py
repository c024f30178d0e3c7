"""Functions with user-defined batching rules (as ``jax.custom_batching``)."""

from sciax._src.custom_batching import custom_vmap as custom_vmap

__all__ = ["custom_vmap"]
