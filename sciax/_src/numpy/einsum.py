"""Tensor products: einsum (with a contraction-path optimiser), einsum_path,
tensordot, kron, vecdot, matvec and vecmat.

``einsum`` parses the subscripts (explicit ``->`` output, implicit output,
``...`` broadcasting, repeated labels for diagonals, or NumPy's interleaved
operand/sublist form), takes diagonals and sums out labels that only one
operand carries, then contracts the operands pairwise with
``lax.dot_general`` in a greedy order: each step picks the pair whose result
is smallest relative to its inputs (NumPy's "greedy" heuristic).  An explicit
path from :func:`einsum_path` can be passed as ``optimize``.
"""

from __future__ import annotations

import math
import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from sciax import lax
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval
from sciax._src.numpy import ufuncs, util
from sciax._src.numpy.indexing import diagonal
from sciax._src.numpy.products import _dot_general, _operands, matmul

ArrayLike = Any
Label = Any  # a subscript letter, or an int for an ellipsis dimension

__all__ = ["einsum", "einsum_path", "tensordot", "kron", "vecdot", "matvec", "vecmat"]


# --- parsing -------------------------------------------------------------------------

def _interleaved(args: Sequence[Any]) -> tuple[str, list[Any]]:
    """NumPy's ``einsum(op0, sublist0, op1, sublist1, ..., [sublistout])``
    form as a subscript string and the operands."""
    ops, subs = list(args[0::2]), list(args[1::2])
    out = None
    if len(ops) > len(subs):  # a trailing output sublist
        out = ops.pop()
        if hasattr(out, "aval") or isinstance(out, np.ndarray):
            raise ValueError("einsum: in the sublist form, operands and sublists must "
                             "alternate")

    def letters(sub: Sequence[Any]) -> str:
        text = ""
        for s in sub:
            if s is Ellipsis:
                text += "..."
            else:
                try:
                    k = int(s)
                except (TypeError, ValueError):
                    raise TypeError(f"einsum: sublist entries must be integers or "
                                    f"Ellipsis, got {s!r}") from None
                if not 0 <= k < 52:
                    raise ValueError(f"einsum: subscript {k} is not in [0, 52)")
                text += string.ascii_letters[k]
        return text

    spec = ",".join(letters(s) for s in subs)
    if out is not None:
        spec += "->" + letters(out)
    return spec, ops


def _parse_term(term: str, ndim: int | None, n_ell: int) -> list[Label]:
    """Labels of one subscript term; ``...`` becomes the ellipsis labels
    ``n_ell - k, ..., n_ell - 1`` (right-aligned, as broadcasting)."""
    if term.count("...") > 1 or term.replace("...", "").count("."):
        raise ValueError(f"einsum: invalid subscript term {term!r} (at most one "
                         f"'...' ellipsis, no other periods)")
    for ch in term.replace("...", ""):
        if ch not in string.ascii_letters:
            raise ValueError(f"einsum: invalid subscript {ch!r} in {term!r}; only "
                             f"letters a-z and A-Z are allowed")
    if "..." not in term:
        return list(term)
    head, tail = term.split("...")
    k = (ndim - len(head) - len(tail)) if ndim is not None else n_ell
    return [*head, *range(n_ell - k, n_ell), *tail]


def _parse(spec: str, shapes: list[tuple[int, ...]]
           ) -> tuple[list[list[Label]], list[Label], dict[Label, int]]:
    """(labels per operand, output labels, size per label) for ``spec``."""
    spec = spec.replace(" ", "")
    if "->" in spec:
        lhs, rhs = spec.split("->", 1)
        if "->" in rhs or "-" in rhs.replace("->", "") or ">" in rhs:
            raise ValueError(f"einsum: invalid subscripts {spec!r} (more than one "
                             "'->')")
    else:
        if "-" in spec or ">" in spec:
            raise ValueError(f"einsum: invalid subscripts {spec!r} (a lone '-' or '>')")
        lhs, rhs = spec, None
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: the subscripts {spec!r} name {len(terms)} "
                         "operand(s) "
                         f"but {len(shapes)} were given")
    n_ell = 0
    for term, shape in zip(terms, shapes):
        named = len(term.replace("...", ""))
        if "..." in term:
            if named > len(shape):
                raise ValueError(f"einsum: operand of shape {shape} has fewer "
                                 "dimensions "
                                 f"than the subscripts {term!r} name")
            n_ell = max(n_ell, len(shape) - named)
        elif named != len(shape):
            raise ValueError(
                f"einsum: the subscripts {term!r} name {named} dimension(s) but the "
                f"operand has shape {shape} (use '...' to broadcast extra dimensions)")
    labels = [_parse_term(t, len(s), n_ell) for t, s in zip(terms, shapes)]
    sizes: dict[Label, int] = {}
    for term, labs, shape in zip(terms, labels, shapes):
        for lab, d in zip(labs, shape):
            old = sizes.get(lab, 1)
            if d != old and 1 not in (d, old):
                what = f"'{lab}'" if isinstance(lab, str) else "'...'"
                raise ValueError(f"einsum: size of label {what} for operand {term!r} "
                                 f"({d}) does not match previous terms ({old})")
            sizes[lab] = max(d, old)
    if rhs is None:
        counts: dict[Label, int] = {}
        for labs in labels:
            for lab in labs:
                counts[lab] = counts.get(lab, 0) + 1
        out = list(range(n_ell)) + sorted(
            lab for lab, c in counts.items() if isinstance(lab, str) and c == 1)
    else:
        if "..." not in rhs and n_ell and any(sizes[i] != 1 for i in range(n_ell)):
            raise ValueError("einsum: output has more dimensions than subscripts given "
                             "in einstein sum, but no '...' ellipsis provided to "
                             "broadcast the extra dimensions")
        out = _parse_term(rhs, None, n_ell) if "..." in rhs else list(rhs)
        for ch in rhs.replace("...", ""):
            if ch not in string.ascii_letters:
                raise ValueError(f"einsum: invalid output subscript {ch!r}")
        if len(set(out)) != len(out):
            raise ValueError(f"einsum: output subscript {rhs!r} repeats a label")
        for lab in out:
            if lab not in sizes:
                raise ValueError(f"einsum: output subscript {lab!r} does not appear in "
                                 f"the input subscripts")
    return labels, out, sizes


# --- planning ------------------------------------------------------------------------

def _size(labels: Sequence[Label], sizes: dict[Label, int]) -> int:
    return math.prod(sizes[lab] for lab in labels)


def _pair_result(i: int, j: int, ops: list[tuple[Label, ...]], out: list[Label]
                 ) -> tuple[Label, ...]:
    """Labels the contraction of operands ``i`` and ``j`` keeps: those in the
    output or in another operand."""
    keep = set(out)
    for k, labs in enumerate(ops):
        if k not in (i, j):
            keep.update(labs)
    seen: list[Label] = []
    for lab in (*ops[i], *ops[j]):
        if lab in keep and lab not in seen:
            seen.append(lab)
    return tuple(seen)


def _greedy_path(ops: list[tuple[Label, ...]], out: list[Label],
                 sizes: dict[Label, int]) -> list[tuple[int, int]]:
    """Pairs to contract, NumPy-path style (indices into the current list;
    the result goes to the end)."""
    ops = list(ops)
    path = []
    while len(ops) > 1:
        best = None
        for i in range(len(ops)):
            for j in range(i + 1, len(ops)):
                res = _pair_result(i, j, ops, out)
                shared = bool(set(ops[i]) & set(ops[j]))
                cost = (_size(res, sizes) - _size(ops[i], sizes) - _size(ops[j], sizes))
                key = (not shared, cost, i, j)
                if best is None or key < best[0]:
                    best = (key, i, j, res)
        _, i, j, res = best
        path.append((i, j))
        ops = [o for k, o in enumerate(ops) if k not in (i, j)] + [res]
    return path


def _dedup(labels: Sequence[Label]) -> tuple[Label, ...]:
    return tuple(dict.fromkeys(labels))


def _plan(spec: str, shapes: list[tuple[int, ...]], optimize: Any
          ) -> tuple[list[list[Label]], list[Label], dict[Label, int],
                     list[tuple[int, ...]]]:
    labels, out, sizes = _parse(spec, shapes)
    ops = [_dedup(labs) for labs in labels]
    if isinstance(optimize, list | tuple) and optimize and \
            optimize[0] == "einsum_path":
        path = [tuple(int(k) for k in step) for step in optimize[1:]]
        n = len(ops)
        for step in path:
            if not step or any(not 0 <= k < n for k in step) or len(set(step)) != \
                    len(step):
                raise ValueError(f"einsum: invalid contraction {step} in the given "
                                 "path "
                                 f"(with {n} operands left)")
            n -= len(step) - 1
        if n != 1 and len(ops) > 1:
            raise ValueError("einsum: the given path does not contract every operand")
    elif optimize is False or optimize is None or optimize == "none":
        path = [(0, 1)] * (len(ops) - 1)
    elif optimize in (True, "greedy", "optimal", "auto", "dp", "branch-2",
                      "branch-all"):
        path = _greedy_path(ops, out, sizes)
    else:
        raise ValueError(f"einsum: optimize must be a bool, 'greedy', 'optimal' or an "
                         f"einsum_path list, got {optimize!r}")
    return labels, out, sizes, path


# --- execution -----------------------------------------------------------------------

def _diagonals(x: Any, labs: list[Label]) -> tuple[Any, list[Label]]:
    """Take the diagonal for each label repeated within one operand."""
    labs = list(labs)
    while len(set(labs)) != len(labs):
        lab = next(lab for lab in labs if labs.count(lab) > 1)
        i = labs.index(lab)
        j = labs.index(lab, i + 1)
        x = diagonal(x, 0, i, j)
        labs = [lb for k, lb in enumerate(labs) if k not in (i, j)] + [lab]
    return x, labs


def _sum_out(x: Any, labs: list[Label], keep: set[Label]) -> tuple[Any, list[Label]]:
    axes = tuple(k for k, lab in enumerate(labs) if lab not in keep)
    if not axes:
        return x, labs
    if get_aval(x).dtype == dtypes.bool_:
        x = lax.reduce_or(x, axes)
    else:
        x = lax.reduce_sum(x, axes)
    return x, [lab for k, lab in enumerate(labs) if k not in axes]


def _contract(a: Any, la: list[Label], b: Any, lb: list[Label], keep: set[Label]
              ) -> tuple[Any, list[Label]]:
    batch = [lab for lab in la if lab in lb and lab in keep]
    contract = [lab for lab in la if lab in lb and lab not in keep]
    dims = ((tuple(la.index(c) for c in contract),
             tuple(lb.index(c) for c in contract)),
            (tuple(la.index(c) for c in batch), tuple(lb.index(c) for c in batch)))
    out = _dot_general(a, b, dims)
    labs = batch + [lab for lab in la if lab not in lb] + \
        [lab for lab in lb if lab not in la]
    return out, labs


def einsum(subscripts: Any, /, *operands: ArrayLike, out: None = None,
           optimize: Any = "auto", precision: Any = None,
           preferred_element_type: Any = None) -> Any:
    """Einstein summation over ``operands`` as described by ``subscripts``.

    Supports explicit (``'ij,jk->ik'``) and implicit (``'ij,jk'``) outputs,
    ``...`` broadcasting, repeated labels (diagonals), size-1 broadcasting
    and NumPy's interleaved form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``.
    Operands are contracted pairwise with ``lax.dot_general`` in a greedy
    order (``optimize=False`` contracts left to right; a path from
    :func:`einsum_path` is followed as given).  Differentiable and
    jit-compatible.

    Examples
    --------
    >>> a = snp.arange(6.0).reshape(2, 3)
    >>> snp.einsum("ij,j->i", a, snp.ones(3))
    Array([ 3., 12.], dtype=float64)
    >>> snp.einsum("ii", snp.arange(9).reshape(3, 3))
    Array(12, dtype=int64)
    >>> snp.einsum("...ij->...ji", snp.ones((4, 2, 3))).shape
    (4, 3, 2)
    """
    if out is not None:
        raise NotImplementedError("einsum: the out argument is not supported (arrays "
                                  "are immutable)")
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts, *operands))
    if not operands:
        raise ValueError("einsum: at least one operand is required")
    util.check_arraylike("einsum", *operands)
    ops = [util.as_operand("einsum", x) for x in operands]
    ops = util.promote_dtypes(*ops) if len(ops) > 1 else ops
    ops = [util.cast(x, dtypes.python_scalar_dtype(x)) if dtypes.is_python_scalar(x)
           else x for x in ops]
    shapes = [get_aval(x).shape for x in ops]
    labels, out_labs, sizes, path = _plan(subscripts, shapes, optimize)
    work: list[tuple[Any, list[Label]]] = []
    for x, labs in zip(ops, labels):
        x, labs = _diagonals(x, labs)
        # a size-1 axis broadcast against a longer one: the operand does not
        # depend on that label, so drop the axis
        squeeze = tuple(k for k, lab in enumerate(labs)
                        if get_aval(x).shape[k] == 1 and sizes[lab] != 1)
        if squeeze:
            x = lax.reshape(x, tuple(d for k, d in enumerate(get_aval(x).shape)
                                     if k not in squeeze))
            labs = [lab for k, lab in enumerate(labs) if k not in squeeze]
        work.append((x, labs))

    def keep_for(skip: Sequence[int]) -> set[Label]:
        keep = set(out_labs)
        for k, (_, labs) in enumerate(work):
            if k not in skip:
                keep.update(labs)
        return keep

    for step in path:
        step = sorted(step)
        # sum out labels only this operand carries before contracting
        for k in step:
            x, labs = work[k]
            work[k] = _sum_out(x, labs, keep_for([k]))
        x, labs = work[step[0]]
        for pos, k in enumerate(step[1:], 2):
            # labels still needed: by the output, other operands, or the
            # operands of this step not contracted yet
            keep = keep_for(step).union(*(work[s][1] for s in step[pos:]))
            x, labs = _contract(x, labs, *work[k], keep)
        work = [w for k, w in enumerate(work) if k not in step] + [(x, labs)]
    (x, labs), = work
    x, labs = _sum_out(x, labs, set(out_labs))
    missing = [lab for lab in out_labs if lab not in labs]
    if missing:  # labels of size 1 squeezed everywhere
        x = lax.reshape(x, (*get_aval(x).shape, *(1 for _ in missing)))
        labs = labs + missing
    perm = tuple(labs.index(lab) for lab in out_labs)
    if perm != tuple(range(len(perm))):
        x = lax.transpose(x, perm)
    if preferred_element_type is not None:
        x = util.cast(x, np.dtype(preferred_element_type))
    return x


def _label_text(labs: Sequence[Label], letters: dict[Label, str]) -> str:
    return "".join(letters[lab] for lab in labs)


def einsum_path(subscripts: Any, /, *operands: ArrayLike, optimize: Any = "greedy",
                einsum_call: bool = False) -> tuple[list[Any], str]:
    """The contraction order :func:`einsum` would use, as NumPy's
    ``(['einsum_path', (i, j), ...], report)``; pass the list back as
    ``einsum(..., optimize=path)``.

    Examples
    --------
    >>> a, b, c = snp.ones((2, 3)), snp.ones((3, 4)), snp.ones((4, 5))
    >>> snp.einsum_path("ij,jk,kl->il", a, b, c)[0]
    ['einsum_path', (1, 2), (0, 1)]
    """
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts, *operands))
    shapes = [tuple(np.shape(x)) if not hasattr(x, "aval") else get_aval(x).shape
              for x in operands]
    labels, out, sizes, path = _plan(subscripts, shapes, optimize)
    # readable letters for ellipsis labels in the report
    used = {lab for labs in labels for lab in labs if isinstance(lab, str)}
    spare = iter(c for c in string.ascii_letters if c not in used)
    letters = {lab: lab if isinstance(lab, str) else next(spare) for lab in sizes}
    ops = [_dedup(labs) for labs in labels]
    every = _dedup([lab for labs in labels for lab in labs])
    naive = _size(every, sizes) * max(len(ops), 1)
    rows, total, largest = [], 0, 0
    for step in path:
        step = sorted(step)
        keep = set(out)
        for k, labs in enumerate(ops):
            if k not in step:
                keep.update(labs)
        inputs = [ops[k] for k in step]
        touched = _dedup([lab for labs in inputs for lab in labs])
        res = tuple(lab for lab in touched if lab in keep)
        total += _size(touched, sizes) * max(len(step), 1)
        largest = max(largest, _size(res, sizes))
        ops = [o for k, o in enumerate(ops) if k not in step] + [res]
        current = ",".join(_label_text(i, letters) for i in inputs) + "->" + \
            _label_text(res, letters)
        remaining = ",".join(_label_text(o, letters) for o in ops) + "->" + \
            _label_text(out, letters)
        rows.append(f"{len(touched):>4}    {current:>24}    {remaining:>40}")
    spec = ",".join(_label_text(labs, letters) for labs in labels) + "->" + \
        _label_text(out, letters)
    total = max(total, 1)
    report = "\n".join([
        f"  Complete contraction:  {spec}",
        f"         Naive scaling:  {len(every)}",
        f"     Optimized scaling:  {max((int(r.split()[0]) for r in rows), default=0)}",
        f"      Naive FLOP count:  {naive:.3e}",
        f"  Optimized FLOP count:  {total:.3e}",
        f"   Theoretical speedup:  {naive / total:.3f}",
        f"  Largest intermediate:  {largest:.3e} elements",
        "-" * 74,
        f"{'scaling':<12}{'current':>24}{'remaining':>40}",
        "-" * 74, *rows])
    return ["einsum_path", *path], report


# --- other products ------------------------------------------------------------------

def tensordot(a: ArrayLike, b: ArrayLike, axes: Any = 2, *, precision: Any = None,
              preferred_element_type: Any = None) -> Any:
    """Sum products over the last ``axes`` axes of ``a`` and the first of
    ``b`` (an int), or over the axis lists ``axes = (a_axes, b_axes)``.

    Examples
    --------
    >>> snp.tensordot(snp.ones((2, 3, 4)), snp.ones((3, 4, 5))).shape
    (2, 5)
    >>> snp.tensordot(snp.ones((2, 3)), snp.ones((3, 2)), axes=([1, 0], [0, 1]))
    Array(6., dtype=float64)
    """
    a, b = _operands("tensordot", a, b)
    na, nb = util.ndim(a), util.ndim(b)
    sa, sb = get_aval(a).shape, get_aval(b).shape
    if isinstance(axes, int | np.integer):
        n = int(axes)
        if n < 0 or n > min(na, nb):
            raise ValueError(f"tensordot: axes={n} must be between 0 and the smaller "
                             f"rank of the inputs (shapes {sa} and {sb})")
        ax_a, ax_b = tuple(range(na - n, na)), tuple(range(n))
    else:
        try:
            xa, xb = axes
        except (TypeError, ValueError):
            raise TypeError(f"tensordot: axes must be an int or a pair of axis lists, "
                            f"got {axes!r}") from None
        xa = [xa] if isinstance(xa, int | np.integer) else list(xa)
        xb = [xb] if isinstance(xb, int | np.integer) else list(xb)
        if len(xa) != len(xb):
            raise ValueError(f"tensordot: the axis lists {xa} and {xb} have different "
                             f"lengths")
        ax_a = tuple(util.canonicalize_axis(x, na) for x in xa)
        ax_b = tuple(util.canonicalize_axis(x, nb) for x in xb)
    for i, j in zip(ax_a, ax_b):
        if sa[i] != sb[j]:
            raise ValueError(f"tensordot: shape-mismatch for sum: axis {i} of a (shape "
                             f"{sa}) has length {sa[i]}, axis {j} of b (shape {sb}) "
                             "has "
                             f"{sb[j]}")
    out = _dot_general(a, b, ((ax_a, ax_b), ((), ())))
    if preferred_element_type is not None:
        out = util.cast(out, np.dtype(preferred_element_type))
    return out


def kron(a: ArrayLike, b: ArrayLike) -> Any:
    """The Kronecker product: blocks ``a[i, j] * b``.

    Examples
    --------
    >>> snp.kron(snp.array([1, 10]), snp.array([1, 2, 3]))
    Array([ 1,  2,  3, 10, 20, 30], dtype=int64)
    """
    util.check_arraylike("kron", a, b)
    a, b = util.as_operand("kron", a), util.as_operand("kron", b)
    a, b = util.promote_dtypes(a, b)
    a, b = (util.cast(x, dtypes.python_scalar_dtype(x)) if dtypes.is_python_scalar(x)
            else x for x in (a, b))
    nd = max(util.ndim(a), util.ndim(b))
    sa = (1,) * (nd - util.ndim(a)) + get_aval(a).shape
    sb = (1,) * (nd - util.ndim(b)) + get_aval(b).shape
    a = lax.reshape(a, tuple(d for s in sa for d in (s, 1)))
    b = lax.reshape(b, tuple(d for s in sb for d in (1, s)))
    out = ufuncs.multiply(a, b)
    return lax.reshape(out, tuple(x * y for x, y in zip(sa, sb)))


def _core(name: str, x: Any, k: int, what: str) -> None:
    if util.ndim(x) < k:
        raise ValueError(f"{name}: {what} must have at least {k} dimension(s), got "
                         "shape "
                         f"{get_aval(x).shape}")


def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> Any:
    """The vector dot product ``sum(conj(x1) * x2)`` along ``axis``,
    broadcasting the other axes.

    Examples
    --------
    >>> snp.vecdot(snp.array([[1.0, 2.0], [3.0, 4.0]]), snp.array([1.0, 1.0]))
    Array([3., 7.], dtype=float64)
    """
    # cycle: numpy.linalg imports einsum at import time (tensordot)
    from sciax._src.numpy.linalg import vecdot as _vecdot

    util.check_arraylike("vecdot", x1, x2)
    a, b = util.as_operand("vecdot", x1), util.as_operand("vecdot", x2)
    _core("vecdot", a, 1, "x1")
    _core("vecdot", b, 1, "x2")
    na = get_aval(a).shape[util.canonicalize_axis(axis, util.ndim(a))]
    nb = get_aval(b).shape[util.canonicalize_axis(axis, util.ndim(b))]
    if na != nb:
        raise ValueError(f"vecdot: the vector axes differ in length ({na} and {nb}; "
                         f"shapes {get_aval(a).shape} and {get_aval(b).shape})")
    return _vecdot(a, b, axis=axis)


def matvec(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Matrix-vector products ``x1 @ x2`` over the last axes, broadcasting
    the leading ones: ``(..., m, n), (..., n) -> (..., m)``.

    Examples
    --------
    >>> snp.matvec(snp.eye(2) * 2, snp.array([1.0, 3.0]))
    Array([2., 6.], dtype=float64)
    """
    util.check_arraylike("matvec", x1, x2)
    a, b = util.as_operand("matvec", x1), util.as_operand("matvec", x2)
    _core("matvec", a, 2, "x1")
    _core("matvec", b, 1, "x2")
    out = matmul(a, lax.expand_dims(b, (util.ndim(b),)))
    return lax.squeeze(out, (util.ndim(out) - 1,))


def vecmat(x1: ArrayLike, x2: ArrayLike, /) -> Any:
    """Vector-matrix products ``conj(x1) @ x2`` over the last axes:
    ``(..., n), (..., n, m) -> (..., m)``.

    Examples
    --------
    >>> snp.vecmat(snp.array([1.0, 3.0]), snp.eye(2) * 2)
    Array([2., 6.], dtype=float64)
    """
    util.check_arraylike("vecmat", x1, x2)
    a, b = util.as_operand("vecmat", x1), util.as_operand("vecmat", x2)
    _core("vecmat", a, 1, "x1")
    _core("vecmat", b, 2, "x2")
    a, b = util.promote_dtypes(a, b)
    if dtypes.is_complex(get_aval(a).dtype):
        a = lax.conj(a)
    out = matmul(lax.expand_dims(a, (util.ndim(a) - 1,)), b)
    return lax.squeeze(out, (util.ndim(out) - 2,))
