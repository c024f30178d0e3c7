"""Session 12 accuracy fixes of ``sciax.special`` (issue 20), checked against
mpmath at points where the old code was worst: ``betainc``/``betaincc`` with
one shape large and the other small (DiDonato and Morris' BGRAT series), and
``beta``/``binom`` where the rounding of a sum of the arguments moved the
value, and ``betainc``'s big-shape prefactor, whose ``c = b x - a y`` lost
its rounding in the deep tails.  Each test fails on the code before session 12 (figures in the
comments); one compiled call per test."""

from __future__ import annotations

import mpmath
import numpy as np

import sciax
import sciax.numpy as snp
import sciax.special as ss

mpmath.mp.dps = 40


def _rel(ours, ref):
    ours = np.asarray(ours, dtype=np.float64)
    ref = np.asarray([float(r) for r in ref])
    return np.abs(ours - ref) / np.abs(ref)


def test_betainc_one_shape_large_one_small():
    # a >> b, x near 1 (and the mirror, a << b, x near 0): the continued
    # fraction's odd partial denominators nearly cancel.  The old code lost
    # (I, 1 - I) = 3.7e-13 (issue 20's point), 3.3e-13, 8.3e-13, 2.6e-11 (in
    # 1 - I), 2.3e-13 (1 - I), 6.8e-13, 9.4e-13, 1.6e-12, 5.3e-12, 3.3e-13
    # (1 - I).  BGRAT measures <= 5.5e-15 here (u = -T log x <= 15, so the
    # exponent's rounding costs a few ulp): 2e-14.
    pts = [(1e4, 0.01, 0.999), (1e4, 5.336699231206307, 0.999),
           (1.279e4, 0.006332, 0.999921), (0.00391, 2.114e4, 4.10226e-05),
           (0.019, 3197.0, 4.4e-4), (7.905e4, 1.072, 0.999962),
           (11.61, 9.422e4, 0.000134018), (3.204e4, 1.338, 0.999887),
           (7.591e4, 31.49, 0.99952), (12.14, 3.48e4, 0.000744215)]
    # two more points, both shapes large, deep in a tail (3e-218): the
    # prefactor's c = b x - a y lost 1.7e-13 (1 - I at x = 0.7) and 1.3e-13
    # (I at x = 0.3, where 1 - x rounds) to its rounding; now 1.7e-15 and
    # 3.8e-14.  The exponent is ~500, so its own half-ulp is 2.8e-14: 8e-14.
    deep = [(2848.035868435799, 2848.035868435799, 0.7),
            (2848.035868435799, 2848.035868435799, 0.3)]
    a, b, x = (np.array(v) for v in zip(*(pts + deep)))
    i, ic = sciax.jit(lambda a, b, x: (ss.betainc(a, b, x), ss.betaincc(a, b, x)))(
        snp.asarray(a), snp.asarray(b), snp.asarray(x))
    i, ic = np.asarray(i), np.asarray(ic)
    ref, refc = [], []
    for ai, bi, xi in pts:
        A, B, X = mpmath.mpf(ai), mpmath.mpf(bi), mpmath.mpf(xi)
        # each tail as its own integral (1 - X is exact in mpmath)
        ref.append(mpmath.betainc(A, B, 0, X, regularized=True))
        refc.append(mpmath.betainc(B, A, 0, 1 - X, regularized=True))
    n = len(pts)
    assert _rel(i[:n], ref).max() < 2e-14
    assert _rel(ic[:n], refc).max() < 2e-14
    # (the small tail only: mpmath's hypergeometric sum fails on the other)
    A = mpmath.mpf(deep[0][0])
    r_deep = [mpmath.betainc(A, A, 0, 1 - mpmath.mpf(0.7), regularized=True),
              mpmath.betainc(A, A, 0, mpmath.mpf(0.3), regularized=True)]
    assert _rel([ic[n], i[n + 1]], r_deep).max() < 8e-14


def test_beta_binom_argument_rounding():
    # beta: the rounding of a + b moved rgamma(a + b) by digamma(a + b) ulp:
    # 2.6e-13 at (-20.3, 6.2966) (a + b 0.0034 from the pole at -14) and
    # 3.4e-14 at (54.5, 57.9); now <= 4.5e-15.  binom with n < -1 and
    # integer k went through beta(1 + n - k, 1 + k) of a negative argument:
    # 2.6e-13 at (-30.5, 200), 1.4e-9 at n = -1.0000094, 3.7e-13 at (-221,
    # 364); now <= 2.2e-14 (|log binom| up to 384 there: the exponent's
    # rounding alone is ~4e-14).  Tolerances 2e-14 and 1e-13.
    ba = np.array([-20.3, 54.46206896551725, -14.762068965517242, 5.1])
    bb = np.array([6.29655172413793, 57.93448275862068, 16.624137931034483, -5.0999])
    na = np.array([-30.5, -1.000009395459911, -2.5, -221.34122432805242, -17.25])
    nk = np.array([200.0, 228.0, 25.0, 364.0, 41.0])
    vb, vn = sciax.jit(lambda a, b, n, k: (ss.beta(a, b), ss.binom(n, k)))(
        *map(snp.asarray, (ba, bb, na, nk)))
    rb = [mpmath.beta(mpmath.mpf(u), mpmath.mpf(v)) for u, v in zip(ba, bb)]
    rn = [mpmath.binomial(mpmath.mpf(u), mpmath.mpf(v)) for u, v in zip(na, nk)]
    assert _rel(vb, rb).max() < 2e-14
    assert _rel(vn, rn).max() < 1e-13
