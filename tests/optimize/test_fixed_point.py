"""fixed_point against scipy.optimize.fixed_point; implicit derivative vs FD."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

import sciax
import sciax.numpy as snp
from sciax.optimize import fixed_point


@pytest.mark.slow  # two compilations (about 5 s on the shared VM)
@pytest.mark.parametrize("method", ["del2", "iteration"])
def test_matches_scipy_and_fd(method):
    c1, c2 = np.array([10.0, 12.0]), np.array([3.0, 5.0])
    f = lambda x, a, b: snp.sqrt(a / (x + b))  # noqa: E731
    g = lambda x, a, b: np.sqrt(a / (x + b))  # noqa: E731
    x = fixed_point(f, snp.array([1.2, 1.3]), args=(snp.asarray(c1), snp.asarray(c2)),
                    method=method)
    xs = so.fixed_point(g, [1.2, 1.3], args=(c1, c2), method=method)
    np.testing.assert_allclose(np.asarray(x), xs, rtol=1e-8)
    # d x*/d c1 against central differences of SciPy's (xtol 1e-12) solution.
    jac = sciax.jacrev(lambda a: fixed_point(f, snp.array([1.2, 1.3]),
                                             args=(a, snp.asarray(c2)),
                                             method=method))(snp.asarray(c1))
    h = 1e-5
    fd = [(so.fixed_point(g, [1.2, 1.3], args=(c1 + e, c2), xtol=1e-13)
           - so.fixed_point(g, [1.2, 1.3], args=(c1 - e, c2), xtol=1e-13)) / (2 * h)
          for e in np.eye(2) * h]
    np.testing.assert_allclose(np.asarray(jac), np.array(fd).T, rtol=1e-6, atol=1e-9)
    with pytest.raises(RuntimeError, match="Failed to converge"):
        fixed_point(f, snp.array([1.2, 1.3]), args=(snp.asarray(c1), snp.asarray(c2)),
                    method=method, maxiter=1)
    with pytest.raises(ValueError, match="method"):
        fixed_point(f, [1.0], method="nope")
