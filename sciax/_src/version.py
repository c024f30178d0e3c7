"""sciax's version, in the base layer so that the backend (whose persistent
compilation cache keys on it) need not import the top-level package."""

__version__ = "0.1.0"
