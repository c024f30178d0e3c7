"""Placeholder: filled in next."""

from __future__ import annotations


def cho_factor(*args, **kwargs):
    raise NotImplementedError('cho_factor')


def cho_solve(*args, **kwargs):
    raise NotImplementedError('cho_solve')


def cho_solve_banded(*args, **kwargs):
    raise NotImplementedError('cho_solve_banded')


def cholesky_banded(*args, **kwargs):
    raise NotImplementedError('cholesky_banded')


def det(*args, **kwargs):
    raise NotImplementedError('det')


def inv(*args, **kwargs):
    raise NotImplementedError('inv')


def lu_factor(*args, **kwargs):
    raise NotImplementedError('lu_factor')


def lu_solve(*args, **kwargs):
    raise NotImplementedError('lu_solve')


def slogdet(*args, **kwargs):
    raise NotImplementedError('slogdet')


def solve(*args, **kwargs):
    raise NotImplementedError('solve')


def solve_banded(*args, **kwargs):
    raise NotImplementedError('solve_banded')


def solve_triangular(*args, **kwargs):
    raise NotImplementedError('solve_triangular')


def solveh_banded(*args, **kwargs):
    raise NotImplementedError('solveh_banded')

