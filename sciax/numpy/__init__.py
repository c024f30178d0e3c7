"""sciax.numpy: the NumPy API over sciax.lax."""
