"""Test-suite set-up shared by tests/ and the doctests under sciax/.

Doctest examples are written as a user would after ``import sciax``,
``import sciax.numpy as snp``, ``from sciax import lax`` and ``import numpy as
np``; the fixture below provides those names so examples stay short.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import numpy as np
import pytest

# The suite never writes to the user's compilation cache: before sciax reads its
# configuration, point the cache at a directory of this run (inherited by xdist
# workers and by the subprocesses that tests start), removed at exit by the
# process that made it.
if "SCIAX_TEST_CACHE_OWNER" not in os.environ:
    os.environ["SCIAX_TEST_CACHE_OWNER"] = str(os.getpid())
    os.environ["SCIAX_COMPILATION_CACHE_DIR"] = tempfile.mkdtemp(prefix="sciax-cc-")
    atexit.register(shutil.rmtree, os.environ["SCIAX_COMPILATION_CACHE_DIR"], True)

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from sciax import lax  # noqa: E402

# Type-check every jaxpr that a transformation produces: slower, but it turns a
# malformed jaxpr into an error at the transformation that made it.
sciax.config.update("enable_checks", True)


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict) -> None:
    doctest_namespace.update(sciax=sciax, snp=snp, lax=lax, np=np)
