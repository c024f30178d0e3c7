"""Differentiation API: jvp, linearize, vjp, grad, value_and_grad, jacfwd,
jacrev, hessian.

These handle argnums, pytrees and the checks that give users clear errors;
the machinery is in :mod:`sciax._src.interpreters.ad`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sciax._src.backend.array import device_put
from sciax._src.backend.pytree import registry
from sciax._src.core import dtypes
from sciax._src.core.avals import get_aval, is_arraylike
from sciax._src.core.jaxpr import eval_jaxpr
from sciax._src.interpreters import ad, batching
from sciax._src.lax._rules import scalar_array
from sciax._src.lax.shape_ops import reshape, slice_in_dim, transpose
from sciax._src.tree_util import OutTree, flatten_fun, keystr
from sciax._src.util import safe_zip


class _OutStore(OutTree):
    """:class:`OutTree` plus what a flattened ``has_aux`` function learned about
    its aux outputs (the aux variant of :func:`flatten_fun`, used by ``_flat_fun``)."""

    __slots__ = ("aux_tree", "n_out", "aux_static")

    def __init__(self) -> None:
        super().__init__()
        self.aux_tree = None
        self.n_out = 0
        # aux leaves that are not arrays (strings, ...): passed through as they are
        self.aux_static: list[tuple[int, Any]] = []

    def aux(self, array_leaves: Sequence[Any]) -> Any:
        if self.aux_tree is None:
            return None
        leaves = list(array_leaves)
        for i, v in self.aux_static:
            leaves.insert(i, v)
        return self.aux_tree.unflatten(leaves)

    def split(self, leaves: Sequence[Any]) -> tuple[Any, Any]:
        """(output tree, aux tree or None) from the flat outputs."""
        return self.tree.unflatten(leaves[:self.n_out]), self.aux(leaves[self.n_out:])


class _OneArg:
    """A treedef stand-in whose ``unflatten`` gives the single argument tuple
    ``(tree.unflatten(leaves),)``."""

    def __init__(self, tree: Any):
        self.tree = tree

    def unflatten(self, leaves: Sequence[Any]) -> tuple:
        return (self.tree.unflatten(leaves),)


def _flat_fun(fun: Callable, in_tree: Any, store: _OutStore,
              has_aux: bool = False) -> Callable:
    """``fun`` on flat leaves.  With ``has_aux`` the aux leaves are appended to
    the outputs, so transformations hand back their primal values."""
    def flat(*leaves: Any) -> list[Any]:
        out = fun(*in_tree.unflatten(leaves))
        aux_leaves: list[Any] = []
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise TypeError("a function differentiated with has_aux=True must "
                                f"return a pair (output, aux); got {_describe(out)}")
            out, aux = out
            all_aux, store.aux_tree = registry.flatten(aux)
            store.aux_static = [(i, v) for i, v in enumerate(all_aux)
                                if not is_arraylike(v)]
            aux_leaves = [v for v in all_aux if is_arraylike(v)]
        out_leaves, store.tree = registry.flatten(out)
        store.n_out = len(out_leaves)
        return [*out_leaves, *aux_leaves]
    return flat


def _check_tangent(p: Any, t: Any, i: int) -> None:
    pa, ta = get_aval(p), get_aval(t)
    if pa.shape != ta.shape:
        raise ValueError(f"jvp: primal {i} has shape {pa.shape} but its tangent has "
                         f"shape {ta.shape}")
    if dtypes.is_inexact(pa.dtype) and pa.dtype != ta.dtype and not ta.weak_type:
        raise TypeError(f"jvp: primal {i} has dtype {pa.dtype} but its tangent has "
                        f"dtype {ta.dtype}")


def jvp(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any],
        has_aux: bool = False) -> tuple[Any, ...]:
    """Forward-mode derivative: ``(fun(*primals), J @ tangents)``.

    Examples
    --------
    >>> y, dy = sciax.jvp(snp.sin, (0.5,), (1.0,))
    >>> print(f"{float(y):.6f} {float(dy):.6f}")
    0.479426 0.877583
    """
    if not isinstance(primals, tuple | list) or not isinstance(tangents, tuple | list):
        raise TypeError("jvp expects primals and tangents as tuples (or lists), got "
                        f"{type(primals).__name__} and {type(tangents).__name__}")
    p_leaves, p_tree = registry.flatten(tuple(primals))
    t_leaves, t_tree = registry.flatten(tuple(tangents))
    if p_tree != t_tree:
        raise TypeError(f"jvp: primal and tangent trees differ: {p_tree} vs {t_tree}")
    for i, (p, t) in enumerate(safe_zip(p_leaves, t_leaves)):
        _check_tangent(p, t, i)
    store = _OutStore()
    out_p, out_t = ad.jvp_flat(_flat_fun(fun, p_tree, store, has_aux), p_leaves, t_leaves)
    out_t = [ad.instantiate_zeros(t) for t in out_t[:store.n_out]]
    out, aux = store.split(out_p)
    res = (out, store.tree.unflatten(out_t))
    return (*res, aux) if has_aux else res


def linearize(fun: Callable, *primals: Any) -> tuple[Any, Callable]:
    """``(fun(*primals), f_jvp)`` where ``f_jvp(*tangents)`` applies the Jacobian.

    Examples
    --------
    >>> y, f_jvp = sciax.linearize(snp.exp, 0.0)
    >>> float(f_jvp(2.0))
    2.0
    """
    p_leaves, p_tree = registry.flatten(primals)
    store = _OutStore()
    out, lin, _ = ad.linearize_flat(_flat_fun(fun, p_tree, store), p_leaves)

    def f_jvp(*tangents: Any) -> Any:
        t_leaves, t_tree = registry.flatten(tangents)
        if t_tree != p_tree:
            raise TypeError(f"linearized function expects tangents of structure {p_tree},"
                            f" got {t_tree}")

        return store.tree.unflatten(eval_jaxpr(lin.jaxpr, lin.consts, *t_leaves))

    return store.tree.unflatten(out), f_jvp


def vjp(fun: Callable, *primals: Any, has_aux: bool = False) -> tuple[Any, ...]:
    """Reverse-mode derivative: ``(fun(*primals), vjp_fn)`` with
    ``vjp_fn(ct) = ct @ J`` returning one cotangent per primal.

    Examples
    --------
    >>> y, f_vjp = sciax.vjp(lambda x, y: x * y, 2.0, 3.0)
    >>> [float(c) for c in f_vjp(1.0)]
    [3.0, 2.0]
    """
    p_leaves, p_tree = registry.flatten(primals)
    store = _OutStore()
    outs, lin, _ = ad.linearize_flat(_flat_fun(fun, p_tree, store, has_aux), p_leaves)
    tree = store.tree
    out, aux = store.split(outs)
    out_avals = [get_aval(o) for o in outs]
    aux_zeros = [ad.Zero(a) for a in out_avals[store.n_out:]]

    def vjp_fn(ct: Any) -> tuple[Any, ...]:
        ct_leaves, ct_tree = registry.flatten(ct)
        if ct_tree != tree:
            raise TypeError(f"vjp function expects a cotangent of structure {tree}, "
                            f"got {ct_tree}")
        for c, a in safe_zip(ct_leaves, out_avals[:store.n_out]):
            ca = get_aval(c)
            if ca.shape != a.shape:
                raise ValueError(f"vjp: cotangent of shape {ca.shape} given for an "
                                 f"output of shape {a.shape}")
        cts = ad.backward_pass(lin.jaxpr, lin.consts, [*ct_leaves, *aux_zeros])
        cts = [ad.instantiate_zeros(c) for c in cts]
        return p_tree.unflatten(cts)

    res = (out, vjp_fn)
    return (*res, aux) if has_aux else res


def _check_argnums(argnums: Any, fname: str) -> None:
    """Type and duplicate checks on ``argnums``, at transform time (the range
    needs the call's arguments: see :func:`_argnums_tuple`)."""
    nums = (argnums,) if isinstance(argnums, int) else argnums
    if not isinstance(nums, tuple | list) or not nums or any(
            isinstance(n, bool) or not isinstance(n, int) for n in nums):
        raise TypeError(f"{fname}: argnums={argnums!r} is not valid; expected an int "
                        "or a non-empty tuple of ints (positional argument indices)")
    if len(set(nums)) != len(nums):
        raise ValueError(f"{fname}: argnums={argnums!r} repeats an argument index; "
                         "expected distinct indices")


def _argnums_tuple(argnums: int | Sequence[int], nargs: int, fname: str) -> tuple[int, ...]:
    _check_argnums(argnums, fname)
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for n in nums:
        if not -nargs <= n < nargs:
            raise TypeError(f"{fname}: argnums={argnums!r} is out of range for a call "
                            f"with {nargs} positional argument(s); expected indices in "
                            f"[{-nargs}, {nargs})")
    out = tuple(n % nargs for n in nums)
    if len(set(out)) != len(out):  # e.g. (0, -2) with two arguments
        raise ValueError(f"{fname}: argnums={argnums!r} names the same argument twice "
                         f"for a call with {nargs} positional argument(s)")
    return out


def _describe(x: Any) -> str:
    """A short description of a value for error messages."""
    if isinstance(x, tuple | list):
        return f"a {type(x).__name__} of length {len(x)}"
    if is_arraylike(x):
        return f"an array {get_aval(x).str_short()}"
    return f"a {type(x).__name__}"


def _check_input_dtypes(fname: str, leaves: list[Any], holomorphic: bool,
                        allow_int: bool) -> None:
    for x in leaves:
        dt = get_aval(x).dtype
        if holomorphic and not dtypes.is_complex(dt):
            raise TypeError(f"{fname} with holomorphic=True requires complex inputs, "
                            f"got dtype {dt}")
        if not allow_int and not dtypes.is_inexact(dt):
            raise TypeError(
                f"{fname} requires real- or complex-valued (floating) inputs, got an "
                f"input of dtype {dt}. For integer or bool inputs use vjp, or set "
                "allow_int=True.")


def value_and_grad(fun: Callable, argnums: int | Sequence[int] = 0,
                   has_aux: bool = False, holomorphic: bool = False,
                   allow_int: bool = False) -> Callable:
    """A function returning ``(fun(*args), grad)``; see :func:`grad`.

    Examples
    --------
    >>> v, g = sciax.value_and_grad(lambda x: x ** 2)(3.0)
    >>> float(v), float(g)
    (9.0, 6.0)
    """
    _check_argnums(argnums, "grad")

    @functools.wraps(fun)
    def value_and_grad_f(*args: Any, **kwargs: Any) -> Any:
        nums = _argnums_tuple(argnums, len(args), "grad")
        dyn = [args[i] for i in nums]
        _check_input_dtypes("grad", registry.flatten(dyn)[0], holomorphic, allow_int)

        def f_dyn(*dyn_args: Any) -> Any:
            full = list(args)
            for i, a in zip(nums, dyn_args):
                full[i] = a
            return fun(*full, **kwargs)

        res = vjp(f_dyn, *dyn, has_aux=has_aux)
        ans, vjp_fn = res[0], res[1]
        leaves = registry.flatten(ans)[0]
        aval = get_aval(ans) if len(leaves) == 1 and leaves[0] is ans else None
        if aval is None:
            raise TypeError("grad requires the function to return a single scalar "
                            f"array, got {type(ans).__name__}; use jacrev or vjp")
        if aval.shape != ():
            raise TypeError(
                f"grad requires a scalar output, but the function returned shape "
                f"{aval.shape}; use jacrev (or vjp) for non-scalar outputs")
        if not holomorphic and not dtypes.is_float(aval.dtype):
            raise TypeError(f"grad requires a real-valued scalar output, got dtype "
                            f"{aval.dtype}; use holomorphic=True or vjp")

        g = vjp_fn(scalar_array(1, aval.dtype))
        g = g[0] if isinstance(argnums, int) else tuple(g)
        return ((ans, res[2]), g) if has_aux else (ans, g)

    return value_and_grad_f


def grad(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
         holomorphic: bool = False, allow_int: bool = False) -> Callable:
    """The gradient of a scalar function, by reverse mode.

    Parameters
    ----------
    fun : callable
        Returns a scalar (real unless ``holomorphic``).
    argnums : int or tuple of ints
        Which positional arguments to differentiate with respect to.
    has_aux : bool
        ``fun`` returns ``(output, aux)``; the gradient function then returns
        ``(grad, aux)``.
    holomorphic : bool
        ``fun`` is complex-differentiable with complex inputs and output.

    Examples
    --------
    >>> print(f"{float(sciax.grad(snp.tanh)(2.0)):.9f}")
    0.070650825
    >>> float(sciax.grad(sciax.grad(lambda x: x ** 3))(2.0))
    12.0
    """
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def grad_f(*args: Any, **kwargs: Any) -> Any:
        (ans_or_pair, g) = vg(*args, **kwargs)
        return (g, ans_or_pair[1]) if has_aux else g

    return grad_f


def _std_basis(avals: list[Any]) -> tuple[list[Any], int]:
    """Rows of the identity over the flattened, concatenated ``avals``: one
    array of shape ``(N, *aval.shape)`` per leaf, ``N`` the total size."""
    sizes = [int(np.prod(a.shape)) for a in avals]
    n = sum(sizes)
    out, offset = [], 0
    for a, k in zip(avals, sizes):
        block = np.zeros((n, k), dtype=a.dtype)
        block[offset:offset + k] = np.eye(k, dtype=a.dtype)
        out.append(device_put(block.reshape((n, *a.shape))))
        offset += k
    return out, n


def _split_rows(x: Any, sizes: list[int], shapes: list[tuple], rest: tuple,
                in_first: bool) -> list[Any]:
    """Split ``x`` of shape ``(N, *rest)`` into pieces of ``sizes`` rows and
    reshape piece k to ``rest + shapes[k]`` (in_first=False: rows go last) or
    ``shapes[k] + rest``."""
    out, offset = [], 0
    for k, shape in zip(sizes, shapes):
        piece = slice_in_dim(x, offset, offset + k, 1, 0)
        offset += k
        piece = reshape(piece, (*shape, *rest))
        if not in_first and shape and rest:
            nd, nr = len(shape), len(rest)
            piece = transpose(piece, (*range(nd, nd + nr), *range(nd)))
        elif not in_first:
            piece = reshape(piece, (*rest, *shape))
        out.append(piece)
    return out


def jacfwd(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False) -> Callable:
    """The Jacobian of ``fun`` by forward mode: JVPs of the standard basis,
    batched with ``vmap``.

    The result has shape ``out.shape + in.shape`` for each output/input leaf.

    Examples
    --------
    >>> J = sciax.jacfwd(lambda x: x * x)(snp.arange(3.0))
    >>> np.asarray(J)
    array([[0., 0., 0.],
           [0., 2., 0.],
           [0., 0., 4.]])
    """
    return _jacobian(fun, argnums, has_aux, holomorphic, False, "jacfwd", forward=True)


def jacrev(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False, allow_int: bool = False) -> Callable:
    """The Jacobian of ``fun`` by reverse mode: VJPs of the standard basis of
    the output, batched with ``vmap``.

    Examples
    --------
    >>> J = sciax.jacrev(lambda x: snp.sum(x ** 2))(snp.arange(3.0))
    >>> np.asarray(J)
    array([0., 2., 4.])
    """
    return _jacobian(fun, argnums, has_aux, holomorphic, allow_int, "jacrev",
                     forward=False)


def _jacobian(fun: Callable, argnums: Any, has_aux: bool, holomorphic: bool,
              allow_int: bool, name: str, forward: bool) -> Callable:
    _check_argnums(argnums, name)

    @functools.wraps(fun)
    def jac_f(*args: Any, **kwargs: Any) -> Any:
        nums = _argnums_tuple(argnums, len(args), name)
        single = isinstance(argnums, int)
        dyn = tuple(args[i] for i in nums)
        in_leaves, in_tree = registry.flatten(dyn[0] if single else dyn)
        _check_input_dtypes(name, in_leaves, holomorphic, allow_int)
        store = _OutStore()

        def f_args(*vals_in: Any) -> Any:
            full = list(args)
            for i, a in zip(nums, (vals_in[0],) if single else vals_in[0]):
                full[i] = a
            return fun(*full, **kwargs)

        f_flat = _flat_fun(f_args, _OneArg(in_tree), store, has_aux)
        in_avals = [get_aval(x) for x in in_leaves]
        in_sizes = [int(np.prod(a.shape)) for a in in_avals]
        in_shapes = [a.shape for a in in_avals]
        if forward:
            basis, n = _std_basis(in_avals)
            primal_box: list = []

            def push(*ts: Any) -> list[Any]:
                outs, t_outs = ad.jvp_flat(f_flat, in_leaves, list(ts))
                primal_box.append(outs)
                # aux values do not depend on the tangents: they come out unbatched
                return [*(ad.instantiate_zeros(t) for t in t_outs[:store.n_out]),
                        *outs[store.n_out:]]

            res = batching.vmap_flat(
                push, basis, [0] * len(basis),
                lambda k: [0] * store.n_out + [None] * (k - store.n_out), n)
            cols, aux_leaves = res[:store.n_out], res[store.n_out:]
            out_avals = [get_aval(o) for o in primal_box[0][:store.n_out]]
            rows = [_split_rows(c, in_sizes, in_shapes, oa.shape, in_first=False)
                    for c, oa in zip(cols, out_avals)]
        else:
            outs, lin, _ = ad.linearize_flat(f_flat, in_leaves)
            out_avals = [get_aval(o) for o in outs[:store.n_out]]
            aux_leaves = outs[store.n_out:]
            aux_zeros = [ad.Zero(get_aval(o)) for o in aux_leaves]
            basis, m = _std_basis(out_avals)

            def pull(*cts: Any) -> list[Any]:
                res = ad.backward_pass(lin.jaxpr, lin.consts, [*cts, *aux_zeros])
                return [ad.instantiate_zeros(c) for c in res]

            cts = batching.vmap_flat(pull, basis, [0] * len(basis),
                                     lambda k: [0] * k, m)
            out_sizes = [int(np.prod(a.shape)) for a in out_avals]
            per_in = [_split_rows(c, out_sizes, [a.shape for a in out_avals],
                                  ia.shape, in_first=True)
                      for c, ia in zip(cts, in_avals)]
            rows = [[per_in[i][o] for i in range(len(in_avals))]
                    for o in range(len(out_avals))]
        jac = store.tree.unflatten([in_tree.unflatten(r) for r in rows])
        return (jac, store.aux(aux_leaves)) if has_aux else jac

    return jac_f


def hessian(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
            holomorphic: bool = False) -> Callable:
    """The Hessian of a scalar function, as ``jacfwd(jacrev(fun))``.

    Examples
    --------
    >>> H = sciax.hessian(lambda x: snp.sum(x ** 3))(snp.arange(3.0))
    >>> np.asarray(H)
    array([[ 0.,  0.,  0.],
           [ 0.,  6.,  0.],
           [ 0.,  0., 12.]])
    """
    _check_argnums(argnums, "hessian")
    return jacfwd(jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic),
                  argnums, has_aux=has_aux, holomorphic=holomorphic)



# --- vmap ----------------------------------------------------------------------------

def _broadcast_prefix(prefix: Any, tree: Any, what: str) -> list[Any]:
    """One entry of ``prefix`` (a tree prefix of ``tree`` whose leaves are ints or
    None) per leaf of ``tree``."""
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(registry.flatten(tree)[0])
    p_level = registry.flatten_one_level(prefix)
    if p_level is None:
        raise TypeError(f"{what}={prefix!r} is not valid; expected an int axis, None "
                        "or a tree prefix of the value with ints/None at its leaves")
    t_level = registry.flatten_one_level(tree)
    if p_level is None or t_level is None or type(prefix) is not type(tree) or \
            len(list(p_level[0])) != len(list(t_level[0])) or \
            (isinstance(prefix, dict) and sorted(prefix) != sorted(tree)):
        raise ValueError(
            f"{what} specification must be a tree prefix of the corresponding value: "
            f"got {prefix!r} for a value with structure {registry.flatten(tree)[1]}")
    out = []
    for p, t in zip(p_level[0], t_level[0]):
        out.extend(_broadcast_prefix(p, t, what))
    return out


def _check_axis_name(axis_name: Any, who: str) -> None:
    """Collectives look axis names up by equality: they must be hashable."""
    try:
        hash(axis_name)
    except TypeError:
        raise TypeError(f"{who} axis_name={axis_name!r} is not valid; expected a "
                        "hashable name such as a string") from None


def _leaf_names(fun: Callable, args: tuple, kwargs: dict) -> list[str]:
    """'argument x[0]'-style names for the leaves of ``(args, kwargs)``, using
    ``fun``'s parameter names where its signature gives them."""
    try:
        params = [p.name for p in inspect.signature(fun).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    out = []
    for path, _ in registry.flatten_with_path((args, kwargs))[0]:
        first = path[1].idx if hasattr(path[1], "idx") else path[1].key
        if path[0].idx == 0:
            first = params[first] if first < len(params) else f"args[{first}]"
        out.append(f"argument {first}{keystr(path[2:])}")
    return out


def vmap(fun: Callable, in_axes: Any = 0, out_axes: Any = 0,
         axis_size: int | None = None, axis_name: Any = None) -> Callable:
    """Vectorise ``fun`` over a batch axis of its arguments.

    Parameters
    ----------
    fun : callable
        A function written for one example.
    in_axes : int, None, or a tuple/pytree prefix of the arguments
        The axis to map over in each argument (None: not mapped, broadcast).
        A tuple gives one entry per positional argument; entries may
        themselves be pytree prefixes.  Keyword arguments are mapped over
        axis 0.
    out_axes : int, None, or a pytree prefix of the output
        Where the batch axis goes in each output.
    axis_size : int, optional
        The batch size, needed when no argument is mapped.
    axis_name : hashable, optional
        A name for collectives (``lax.psum`` ...) inside ``fun``.

    Examples
    --------
    >>> f = sciax.vmap(lambda x, y: snp.dot(x, y), in_axes=(0, None))
    >>> f(snp.ones((4, 3)), snp.arange(3.0)).shape
    (4,)
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    _check_axis_name(axis_name, "vmap")
    if axis_size is not None and (isinstance(axis_size, bool) or not isinstance(
            axis_size, int | np.integer) or axis_size < 0):
        raise TypeError(f"vmap axis_size={axis_size!r} is not valid; expected a "
                        "non-negative int or None")
    if not (in_axes is None or isinstance(in_axes, int | tuple | dict)) and \
            registry.flatten_one_level(in_axes) is None:
        raise TypeError(f"vmap in_axes must be an int, None or a tuple, got {in_axes!r}")

    @functools.wraps(fun)
    def vmapped(*args: Any, **kwargs: Any) -> Any:
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(
                f"vmap in_axes has {len(in_axes)} entries but the function was called "
                f"with {len(args)} positional arguments; in_axes must be an int, None "
                "or a tuple with one entry per positional argument")
        axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
        flat_axes: list = []
        for i, (ax, a) in enumerate(zip(axes, args)):
            flat_axes.extend(_broadcast_prefix(ax, a, f"vmap in_axes[{i}]"))
        leaves, in_tree = registry.flatten((args, kwargs))
        names = _leaf_names(fun, args, kwargs)  # which argument each leaf is
        flat_axes.extend([0] * (len(leaves) - len(flat_axes)))
        dims, sizes = [], []
        for k, (x, ax) in enumerate(zip(leaves, flat_axes)):
            if ax is None:
                dims.append(None)
                continue
            shape = get_aval(x).shape
            if not -len(shape) <= ax < len(shape):
                raise ValueError(
                    f"vmap in_axes={ax} is out of range for {names[k]} of shape "
                    f"{shape} (rank {len(shape)}); expected an axis in "
                    f"[{-len(shape)}, {len(shape)}) or None")
            ax %= len(shape)
            dims.append(ax)
            sizes.append((k, shape, ax))
        size_set = {shape[ax] for _, shape, ax in sizes}
        if axis_size is not None:
            size_set.add(axis_size)
        if len(size_set) > 1:
            detail = ", ".join(
                f"{names[k]} of shape {shape} mapped at axis {ax} has size {shape[ax]}"
                for k, shape, ax in sizes)
            raise ValueError(
                "vmap got inconsistent sizes for array axes to be mapped: "
                f"{detail}" + (f"; axis_size={axis_size}" if axis_size is not None else ""))
        if not size_set:
            raise ValueError("vmap needs at least one mapped argument (an in_axes entry "
                             "that is not None) or an explicit axis_size")
        size = size_set.pop()
        flat, out_tree = flatten_fun(fun, in_tree, kwargs=True)

        def out_dims(n: int) -> list[Any]:
            dummy = out_tree().unflatten([0] * n)
            return _broadcast_prefix(out_axes, dummy, "vmap out_axes")


        outs = batching.vmap_flat(flat, leaves, dims, out_dims, size, axis_name)
        return out_tree().unflatten(outs)

    return vmapped
