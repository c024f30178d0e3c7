"""Isotonic regression by the pool adjacent violators algorithm (PAVA).

The blocks are found by the classical stack form of PAVA (Best and Chakravarti,
"Active set algorithms for isotonic regression; a unifying framework", Math.
Programming 47, 1990) in one ``lax.fori_loop`` with an inner
``lax.while_loop`` that pools the top of the stack while it violates the
order.  The fitted values are then re-expressed as weighted block means
through a segment sum over the (fixed) block labels, so ``x`` is
differentiable with respect to ``y`` and ``weights``.
"""

from __future__ import annotations

import numpy as np

import sciax
import sciax.numpy as snp
from sciax import lax

from sciax.optimize._base import OptimizeResult


def _pava_labels(y, w):
    """Block label of each entry and the number of blocks (increasing fit)."""
    n = y.shape[0]

    def push(i, carry):
        bx, bw, bs, k = carry
        bx, bw, bs = bx.at[k].set(y[i]), bw.at[k].set(w[i]), bs.at[k].set(i)
        k = k + 1

        def viol(c):
            bx, bw, _, k = c
            return (k > 1) & (bx[k - 2] >= bx[k - 1])

        def pool(c):
            bx, bw, bs, k = c
            wt = bw[k - 2] + bw[k - 1]
            val = (bw[k - 2] * bx[k - 2] + bw[k - 1] * bx[k - 1]) / wt
            return bx.at[k - 2].set(val), bw.at[k - 2].set(wt), bs, k - 1

        return lax.while_loop(viol, pool, (bx, bw, bs, k))

    z = snp.zeros(n, y.dtype)
    _, _, bs, k = lax.fori_loop(0, n, push, (z, z, snp.zeros(n, snp.int32),
                                             snp.asarray(0, snp.int32)))
    starts = snp.where(snp.arange(n) < k, bs, n)
    labels = snp.searchsorted(starts, snp.arange(n), side="right") - 1
    return labels, k


def _isotonic_core(y, w):
    labels, k = _pava_labels(lax.stop_gradient(y), lax.stop_gradient(w))
    labels = lax.stop_gradient(labels)
    n = y.shape[0]
    sw = snp.zeros(n, y.dtype).at[labels].add(w)
    swy = snp.zeros(n, y.dtype).at[labels].add(w * y)
    safe = snp.where(sw > 0, sw, 1.0)
    return (swy / safe)[labels], sw, labels, k


_ISO_JIT = sciax.jit(_isotonic_core)


def isotonic_regression(y, *, weights=None, increasing=True):
    r"""Nonparametric isotonic regression.

    sciax implementation of :func:`scipy.optimize.isotonic_regression`: the
    monotone sequence ``x`` closest to ``y`` in weighted least squares,

    .. math:: \min_x \sum_i w_i (y_i - x_i)^2 \quad\text{subject to}\quad
              x_1 \le x_2 \le \dots \le x_n

    (``>=`` if ``increasing=False``), by the pool adjacent violators
    algorithm.

    Parameters
    ----------
    y : (N,) array_like
        Response values.
    weights : (N,) array_like, optional
        Strictly positive case weights (default all one).
    increasing : bool, optional
        Fit an increasing (default) or decreasing sequence.

    Returns
    -------
    res : OptimizeResult
        ``x`` (the fit), ``weights`` (the total weight of each block) and
        ``blocks`` (the start indices of the blocks followed by ``N``), as
        SciPy 1.12+.

    Notes
    -----
    Equal neighbouring values are pooled, as SciPy does.  ``x`` is a
    differentiable function of ``y`` and ``weights`` (block means over the
    fixed blocks), and works under ``jit`` and ``vmap``; there the number of
    blocks is not known, so ``weights`` is padded with zeros to length ``N``
    and ``blocks`` with ``N`` to length ``N + 1``.

    Examples
    --------
    >>> from sciax.optimize import isotonic_regression
    >>> res = isotonic_regression([1.0, 3.0, 2.0, 4.0, 3.0, 5.0])
    >>> print(np.asarray(res.x))
    [1.  2.5 2.5 3.5 3.5 5. ]
    >>> print(np.asarray(res.weights), np.asarray(res.blocks))
    [1. 2. 2. 1.] [0 1 3 5 6]
    """
    y = snp.atleast_1d(snp.asarray(y))
    if y.ndim != 1:
        raise ValueError("Input arrays y and w must have one dimension of equal "
                         "length.")
    dt = snp.result_type(y, 1.0)
    y = y.astype(dt)
    n = y.shape[0]
    if weights is None:
        w = snp.ones(n, dt)
    else:
        w = snp.atleast_1d(snp.asarray(weights)).astype(dt)
        if w.ndim != 1 or w.shape[0] != n:
            raise ValueError("Input arrays y and w must have one dimension of "
                             "equal length.")
        try:
            wv = np.asarray(w)
        except Exception:  # traced: not checked
            wv = None
        if wv is not None and np.any(wv <= 0):
            raise ValueError("Weights w must be strictly positive.")
    if not increasing:
        y, w = y[::-1], w[::-1]
    x, sw, labels, k = _ISO_JIT(y, w)
    idx = snp.arange(n + 1)
    # block starts: first index of each label (labels are sorted)
    first = snp.concatenate([snp.asarray([True]), labels[1:] != labels[:-1]])
    pos = snp.where(first, snp.arange(n), n)
    bstarts = snp.sort(pos)
    blocks = snp.concatenate([bstarts, snp.asarray([n])])
    blocks = snp.where(idx <= k, snp.where(idx == k, n, blocks), n)
    if not increasing:
        x = x[::-1]
    try:
        kk = int(k)
    except Exception:  # traced: padded outputs
        if not increasing:
            sw = snp.where(snp.arange(n) < k, snp.roll(sw[::-1], k - n), 0.0)
            blocks = snp.where(idx <= k, n - snp.roll(blocks[::-1], k - n), n)
        return OptimizeResult(x=x, weights=sw, blocks=blocks)
    sw, blocks = sw[:kk], blocks[:kk + 1]
    if not increasing:
        sw = sw[::-1]
        blocks = blocks[-1] - blocks[::-1]
    return OptimizeResult(x=x, weights=sw, blocks=blocks)
