"""Test-suite set-up shared by tests/ and the doctests under sciax/.

Doctest examples are written as a user would after ``import sciax``,
``import sciax.numpy as snp``, ``from sciax import lax`` and ``import numpy as
np``; the fixture below provides those names so examples stay short.
"""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import tempfile
from pathlib import Path

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
    # ...and stores nothing there except in the tests of the cache itself (which
    # lower the threshold): jaxlib's serialize_executable segfaulted once, after
    # hundreds of large solver programs in one process (2026-12-01, not yet
    # reproduced alone), and a crash would take a whole test worker with it.
    os.environ.setdefault("SCIAX_COMPILATION_CACHE_MIN_COMPILE_TIME", "1e9")

import sciax  # noqa: E402
import sciax.numpy as snp  # noqa: E402
from sciax import lax  # noqa: E402

# Type-check every jaxpr that a transformation produces: slower, but it turns a
# malformed jaxpr into an error at the transformation that made it.  CI's slow step
# sets SCIAX_TEST_CHECKS=0 (.ci/run): its solver programs are the same rules the
# default run checks, composed, and the checks cost ~6% of its time.
sciax.config.update("enable_checks", os.environ.get("SCIAX_TEST_CHECKS", "1") != "0")


@pytest.fixture(autouse=True, scope="module")
def _fresh_caches_per_module():
    """Empty sciax's in-memory caches after each test module.

    Every cache is bounded (sciax._src.lru), but the bounds are sized for one
    program's working set, not for thousands of unrelated tests in one xdist
    worker: over CI's slow step a worker's memory grew past several GB
    (compiled solvers and the constants their traces close over) and a worker
    died.  Tests that check caching do so within one module."""
    yield
    sciax.clear_caches()
    gc.collect()


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict):
    doctest_namespace.update(sciax=sciax, snp=snp, lax=lax, np=np)
    # a test that changes NumPy's print options must not change how a later
    # doctest in the same worker prints
    saved = np.get_printoptions()
    yield
    if np.get_printoptions() != saved:
        np.set_printoptions(**saved)


# Doctest examples that compile a whole solver (nested adaptive quadrature, an
# ODE solve, a minimisation) take many seconds each on two cores: they run in
# CI's second step with the other slow tests, not in the default run.
SLOW_DOCTESTS = {
    "sciax.integrate._multi.nquad", "sciax.integrate._multi.dblquad",
    "sciax.integrate._multi.tplquad", "sciax.integrate._tanhsinh.tanhsinh",
    "sciax.integrate._quadpack.quad", "sciax.integrate._quad_vec.quad_vec",
    "sciax.integrate._qmc.qmc_quad", "sciax.integrate._interp.OdeSolution",
    "sciax.integrate._ivp.solve_ivp", "sciax.optimize._lbfgsb.LbfgsInvHessProduct",
    "sciax.optimize._minimize.minimize", "sciax.optimize._curve_fit.curve_fit",
    # stiff solvers: each example compiles a solve (tests/integrate/test_stiff.py
    # keeps a few in the default run)
    "sciax.integrate._bdf.BDF", "sciax.integrate._radau.Radau",
    # special functions whose examples compile several loop-heavy kernels
    "sciax.special._bessel.airy", "sciax.special._bessel.airye",
    "sciax.integrate._esdirk.Kvaerno3", "sciax.integrate._esdirk.Kvaerno4",
    "sciax.integrate._esdirk.Kvaerno5", "sciax.integrate._esdirk.KenCarp3",
    "sciax.integrate._esdirk.KenCarp4", "sciax.integrate._esdirk.KenCarp5",
    "sciax.integrate._lsoda.LSODA",
}
# branch legacy: the functional front doors whose examples compile a solver
SLOW_DOCTESTS |= {f"sciax.optimize._legacy.{name}" for name in (
    "fmin_l_bfgs_b", "fmin_slsqp", "fmin_bfgs", "fmin_cg", "fmin_powell", "fmin_ncg",
    "leastsq", "fsolve", "newton_krylov", "anderson", "broyden1", "broyden2",
    "diagbroyden", "excitingmixing")} | {"sciax.optimize._lsq_linear.lsq_linear",
                                          "sciax.optimize._fmin_cobyla.fmin_cobyla"}
# examples that compile for 4-6 s each (measured 2026-12-03)
SLOW_DOCTESTS |= {"sciax.stats._kde.gaussian_kde", "sciax.stats._tests_more.kendalltau",
                  "sciax.stats._tests_more.fligner",
                  # the two-level quadrature compiles for ~10 s (2026-12-03)
                  "sciax.stats._studentized_range.studentized_range_gen"}


# Node ids measured at >= 2.5 s each in the default run (the list says when and how).
_SLOW_LIST = Path(__file__).parent / "tests" / "slow_tests.txt"
SLOW_NODEIDS = {line.split("#")[0].strip() for line in _SLOW_LIST.read_text().splitlines()
                if line.split("#")[0].strip()}


# Tests that run for minutes each (measured in CI's slow step, 2026-12-03): they
# start first, so that the two xdist workers are not left with one of them at the
# end while the other idles.  (test_tplquad took 298 s at -O0 until session 20's
# quad change, 40 s since; first is still a fine place for it.)
LONG_FIRST = (
    "tests/test_tutorials.py::test_docs_build",
    "tests/integrate/test_quad_multi.py::test_tplquad",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    for item in items:
        if (isinstance(item, pytest.DoctestItem) and item.name in SLOW_DOCTESTS
                or item.nodeid in SLOW_NODEIDS):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.nodeid not in LONG_FIRST)
