"""Placeholder: filled in next."""

from __future__ import annotations


def cholesky(*args, **kwargs):
    raise NotImplementedError('cholesky')


def cossin(*args, **kwargs):
    raise NotImplementedError('cossin')


def eig(*args, **kwargs):
    raise NotImplementedError('eig')


def eig_banded(*args, **kwargs):
    raise NotImplementedError('eig_banded')


def eigh(*args, **kwargs):
    raise NotImplementedError('eigh')


def eigh_tridiagonal(*args, **kwargs):
    raise NotImplementedError('eigh_tridiagonal')


def eigvals(*args, **kwargs):
    raise NotImplementedError('eigvals')


def eigvals_banded(*args, **kwargs):
    raise NotImplementedError('eigvals_banded')


def eigvalsh(*args, **kwargs):
    raise NotImplementedError('eigvalsh')


def eigvalsh_tridiagonal(*args, **kwargs):
    raise NotImplementedError('eigvalsh_tridiagonal')


def hessenberg(*args, **kwargs):
    raise NotImplementedError('hessenberg')


def lu(*args, **kwargs):
    raise NotImplementedError('lu')


def qr(*args, **kwargs):
    raise NotImplementedError('qr')


def rq(*args, **kwargs):
    raise NotImplementedError('rq')


def rsf2csf(*args, **kwargs):
    raise NotImplementedError('rsf2csf')


def schur(*args, **kwargs):
    raise NotImplementedError('schur')


def svd(*args, **kwargs):
    raise NotImplementedError('svd')


def svdvals(*args, **kwargs):
    raise NotImplementedError('svdvals')

