"""Start-up: ``import sciax`` loads little, the rest loads on first use."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap

import pytest

import sciax


def _fresh(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, env=dict(os.environ),
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_import_sciax_loads_no_subpackage_no_scipy_no_jaxlib():
    out = _fresh("""
        import sys
        import sciax
        loaded = [m for m in ("scipy", "jaxlib", "numpy", "sciax.numpy", "sciax.lax",
                              "sciax.linalg", "sciax.random", "sciax._src.jit")
                  if m in sys.modules]
        print(loaded)
    """)
    assert out.strip() == "[]"


def test_numpy_programs_do_not_import_scipy():
    # SciPy enters only with the LAPACK kernels (jaxlib binds them from it).
    out = _fresh("""
        import sys
        import sciax, sciax.numpy as snp
        y = sciax.jit(lambda v: snp.sin(v) @ v)(snp.arange(3.0))
        print(float(y), "scipy" in sys.modules)
    """)
    value, has_scipy = out.split()
    assert abs(float(value) - sum(math.sin(i) * i for i in range(3))) < 1e-12
    assert has_scipy == "False"


def test_lazy_names_resolve():
    import sciax.numpy as snp
    from sciax import jit, lax

    assert sciax.numpy is snp and sciax.lax is lax and sciax.jit is jit
    for name in ("grad", "vmap", "hessian", "custom_vjp", "Array", "linalg", "random",
                 "tree", "debug", "distributed", "pmap", "checkpoint", "devices"):
        assert name in dir(sciax)
        assert getattr(sciax, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        sciax.not_a_name  # noqa: B018


def test_lapack_programs_leave_scipy_linalg_importable():
    # The LAPACK kernels are bound without running scipy/linalg/__init__.py;
    # afterwards scipy.linalg must import and work as usual.
    out = _fresh("""
        import sys, time
        import numpy as np
        import sciax, sciax.numpy as snp
        a = np.array([[4.0, 1.0], [1.0, 3.0]])
        x = sciax.jit(snp.linalg.solve)(a, np.ones(2))
        print("scipy.linalg" in sys.modules)
        import scipy.linalg, scipy.linalg.cython_lapack
        print(np.abs(np.asarray(x) - scipy.linalg.solve(a, np.ones(2))).max() < 1e-14,
              scipy.linalg.cython_lapack.__name__)
    """)
    assert out.split() == ["False", "True", "scipy.linalg.cython_lapack"]
