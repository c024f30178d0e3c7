"""cubature against scipy.integrate.cubature and closed forms.

sciax refines the same regions in the same order as SciPy (the largest error
first, split into 2**ndim halves), so the subdivision counts are compared
exactly and the estimates to rounding; the lower rule's nodes are evaluated
once with the higher rule's (SciPy evaluates both sets), which changes the
error estimates in their last bits only.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate as si

import sciax
import sciax.numpy as snp
from sciax.integrate import cubature


def gauss(x):
    return snp.exp(-snp.sum(x * x, axis=-1))


def cosdot(x, c):
    return snp.cos(x @ c)


def cosdot_exact(c):
    # Re prod_k (e^{i c_k} - 1) / (i c_k) over the unit cube
    return float(np.real(np.prod((np.exp(1j * c) - 1) / (1j * c))))


def test_gaussian_over_the_plane_as_scipy():
    inf = np.inf
    res = cubature(gauss, [-inf, -inf], [inf, inf])
    ref = si.cubature(lambda x: np.exp(-np.sum(x * x, axis=-1)), np.array([-inf, -inf]),
                      np.array([inf, inf]))
    assert res.status == ref.status == "converged"
    assert int(res.subdivisions) == ref.subdivisions
    np.testing.assert_allclose(float(res.estimate), np.pi, rtol=1e-13)
    np.testing.assert_allclose(float(res.error), ref.error, rtol=1e-6)
    assert len(res.regions) == len(ref.regions)


@pytest.mark.parametrize("rule", ["gk21", "gk15", "genz-malik"])
def test_three_dimensional_rules_match_scipy_and_the_closed_form(rule):
    c = np.array([1.0, 2.0, 3.0])
    res = cubature(cosdot, [0.0] * 3, [1.0] * 3, rule=rule, args=(snp.asarray(c),),
                   rtol=1e-10)
    ref = si.cubature(lambda x, c: np.cos(x @ c), np.zeros(3), np.ones(3), rule=rule,
                      args=(c,), rtol=1e-10)
    assert int(res.subdivisions) == ref.subdivisions
    assert res.status == ref.status
    np.testing.assert_allclose(float(res.estimate), ref.estimate, rtol=1e-13)
    np.testing.assert_allclose(float(res.estimate), cosdot_exact(c), rtol=1e-10)


def test_vector_output_reversed_limits_and_semi_infinite_ranges():
    n = snp.array([1.0, 2.0, 3.0])
    res = cubature(lambda x, n: x[:, :1] ** n, [1.0], [0.0], args=(n,))
    np.testing.assert_allclose(np.asarray(res.estimate), [-1 / 2, -1 / 3, -1 / 4],
                               rtol=1e-14)
    up = cubature(lambda x: snp.exp(-x[:, 0]), [0.0], [np.inf])
    np.testing.assert_allclose(float(up.estimate), 1.0, rtol=1e-10)
    # (-inf, 1]: e; SciPy 1.17 integrates e^x over [-1, inf) here (inf)
    down = cubature(lambda x: snp.exp(x[:, 0]), [-np.inf], [1.0])
    np.testing.assert_allclose(float(down.estimate), np.e, rtol=1e-10)
    shifted = cubature(lambda x: snp.exp(-(x[:, 0] - 2.0) ** 2), [-np.inf], [1.0])
    from scipy.special import erfc
    np.testing.assert_allclose(float(shifted.estimate), 0.5 * np.sqrt(np.pi) * erfc(1.0),
                               rtol=1e-9)


def test_points_and_max_subdivisions_as_scipy():
    f = lambda x: snp.abs(x[:, 0] - 0.3) * snp.abs(x[:, 1] - 0.6)  # noqa: E731
    fn = lambda x: np.abs(x[:, 0] - 0.3) * np.abs(x[:, 1] - 0.6)  # noqa: E731
    with_pts = cubature(f, [0.0, 0.0], [1.0, 1.0], points=[np.array([0.3, 0.6])])
    ref = si.cubature(fn, np.zeros(2), np.ones(2), points=[np.array([0.3, 0.6])])
    assert int(with_pts.subdivisions) == ref.subdivisions == 0
    exact = (0.3 ** 2 + 0.7 ** 2) / 2 * (0.6 ** 2 + 0.4 ** 2) / 2
    np.testing.assert_allclose(float(with_pts.estimate), exact, rtol=1e-14)
    capped = cubature(f, [0.0, 0.0], [1.0, 1.0], max_subdivisions=5)
    ref = si.cubature(fn, np.zeros(2), np.ones(2), max_subdivisions=5)
    assert capped.status == ref.status == "not_converged"
    assert int(capped.subdivisions) == ref.subdivisions == 5
    np.testing.assert_allclose(float(capped.estimate), ref.estimate, rtol=1e-13)


@pytest.mark.parametrize("max_sub", [30, pytest.param(10000, marks=pytest.mark.slow)])
def test_derivatives_jit_and_vmap(max_sub):
    # the derivative sums the rule over the final regions: with the default
    # capacity (70,001 boxes in 3-D) the dead ones are skipped in groups
    c = snp.array([1.0, 2.0, 0.5])
    lo, hi = [0.0] * 3, [1.0] * 3

    def est(c):
        return cubature(cosdot, lo, hi, args=(c,), rtol=1e-10,
                        max_subdivisions=max_sub).estimate

    g = sciax.grad(est)(c)
    h = 1e-6
    fd = [(float(est(c.at[i].add(h))) - float(est(c.at[i].add(-h)))) / (2 * h)
          for i in range(3)]
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-7, atol=1e-9)
    _, t = sciax.jvp(est, (c,), (snp.array([1.0, 0.0, 0.0]),))
    np.testing.assert_allclose(float(t), float(g[0]), rtol=1e-12)
    np.testing.assert_allclose(float(sciax.jit(est)(c)), float(est(c)), rtol=1e-14)
    cs = snp.array([[1.0, 2.0, 0.5], [0.3, 0.2, 4.0]])
    batch = sciax.vmap(est)(cs)
    for i in range(2):
        np.testing.assert_allclose(float(batch[i]), cosdot_exact(np.asarray(cs[i])),
                                   rtol=1e-10)


@pytest.mark.parametrize("kw, exc, match", [
    (dict(a=[0.0], b=[1.0], rule="simpson"), ValueError, "unknown rule"),
    (dict(a=[0.0], b=[1.0], rule="genz-malik"), ValueError, "2 dimensions"),
    (dict(a=[0.0, 0.0], b=[1.0]), ValueError, "same length"),
    (dict(a=[[0.0]], b=[[1.0]]), ValueError, "1D"),
    (dict(a=[], b=[]), ValueError, "nonempty"),
    (dict(a=[0.0], b=[1.0], max_subdivisions=-1), ValueError, "non-negative"),
])
def test_bad_input(kw, exc, match):
    with pytest.raises(exc, match=match):
        cubature(lambda x: x[:, 0], **kw)
