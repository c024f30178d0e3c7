"""Placeholder: filled in next."""

from __future__ import annotations


import numpy as np

LinAlgError = np.linalg.LinAlgError


def lstsq(*args, **kwargs):
    raise NotImplementedError('lstsq')


def matrix_rank(*args, **kwargs):
    raise NotImplementedError('matrix_rank')


def norm(*args, **kwargs):
    raise NotImplementedError('norm')


def null_space(*args, **kwargs):
    raise NotImplementedError('null_space')


def orth(*args, **kwargs):
    raise NotImplementedError('orth')


def pinv(*args, **kwargs):
    raise NotImplementedError('pinv')


def pinvh(*args, **kwargs):
    raise NotImplementedError('pinvh')


def subspace_angles(*args, **kwargs):
    raise NotImplementedError('subspace_angles')

