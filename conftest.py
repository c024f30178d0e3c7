"""Test-suite set-up shared by tests/ and the doctests under sciax/.

Doctest examples are written as a user would after ``import sciax``,
``import sciax.numpy as snp``, ``from sciax import lax`` and ``import numpy as
np``; the fixture below provides those names so examples stay short.
"""

from __future__ import annotations

import numpy as np
import pytest

import sciax
import sciax.numpy as snp
from sciax import lax

# Type-check every jaxpr that a transformation produces: slower, but it turns a
# malformed jaxpr into an error at the transformation that made it.
sciax.config.update("enable_checks", True)


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict) -> None:
    doctest_namespace.update(sciax=sciax, snp=snp, lax=lax, np=np)
