"""Build hook for the optional C accelerator of jit's cache-hit path.

Everything else about the package is declared in pyproject.toml.  The
extension (sciax/_src/_fastjit.c) is ``optional``: without a C compiler the
install still succeeds and sciax runs its pure-Python path, which is the
definition of the semantics (see the C file's header).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("sciax._src._fastjit", ["sciax/_src/_fastjit.c"],
                             optional=True)])
