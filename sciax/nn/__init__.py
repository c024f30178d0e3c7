"""``sciax.nn``: the activation and normalisation functions of ``jax.nn``.

Each is numerically stable over the whole float range (no overflow in
``exp``, no cancellation in ``log(1 + exp(x))``) and has the derivative a
user expects at the kinks and in the tails: ``relu'(0) = 0``,
``softplus''(0) = 1/4``, ``sigmoid'(±1000) = 0``, all written with
:mod:`sciax.numpy` and :mod:`sciax.lax`, so they work under ``jit``, ``vmap``
and ``grad``.

Examples
--------
>>> import sciax.nn as nn
>>> np.round(np.asarray(nn.softmax(snp.array([1.0, 2.0, 3.0]))), 4)
array([0.09  , 0.2447, 0.6652])
"""

from sciax.nn._functions import (
    gelu as gelu, log_sigmoid as log_sigmoid, log_softmax as log_softmax,
    logsumexp as logsumexp, one_hot as one_hot, relu as relu, sigmoid as sigmoid,
    silu as silu, softmax as softmax, softplus as softplus, standardize as standardize,
    swish as swish)
