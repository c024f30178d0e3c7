"""Registration audit: no primitive of ``sciax._src.lax`` is half-defined.

The test walks every module of the package, collects the module-level ``*_p``
:class:`Primitive` objects and checks, for each one:

1. the rules every primitive needs: a shape/dtype rule (``abstract_eval``), an
   eager ``impl`` and a lowering;
2. a JVP rule, a transpose rule if the primitive is linear (:data:`LINEAR`)
   and a batching rule, unless an exception list below names the primitive
   with the reason;
3. that a test exercises each rule.  Elementwise primitives are covered by the
   op table (``op_table.py``): ``test_lax_elementwise.py`` runs every record
   eagerly and under jit against NumPy/SciPy, ``test_batching_elementwise.py``
   compares vmap with a loop, and ``test_autodiff_elementwise.py`` checks
   forward and reverse mode against finite differences.  The audit traces the
   functions those files test and collects the primitives they reach.  Every
   other primitive is listed in :data:`TESTED_ELSEWHERE` with the files that
   test it; the audit checks that they exist and call it.

A new primitive therefore needs its rules and either an op-table record (and
an autodiff case) or an entry in :data:`TESTED_ELSEWHERE`.
"""

from __future__ import annotations

import importlib
import pathlib
import pkgutil
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pytest

import sciax
import sciax._src.lax
from sciax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from sciax._src.core.trace import Primitive
from sciax._src.interpreters import ad, batching, lowering

from . import op_table, test_autodiff_elementwise, test_batching_elementwise

TESTS = pathlib.Path(__file__).resolve().parents[1]


def _lax_modules() -> list[str]:
    pkg = sciax._src.lax
    return sorted(m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."))


def _primitives() -> dict[str, Primitive]:
    """``{"module:name_p": primitive}``, each primitive once (under the module
    that defines it first in sorted order; re-exports are skipped)."""
    found: dict[int, tuple[str, Primitive]] = {}
    for modname in _lax_modules():
        mod = importlib.import_module(modname)
        for attr, val in sorted(vars(mod).items()):
            if attr.endswith("_p") and isinstance(val, Primitive):
                where = modname.removeprefix("sciax._src.lax.")
                found.setdefault(id(val), (f"{where}:{attr}", val))
    return dict(found.values())


PRIMITIVES = _primitives()
BY_NAME = {p.name: p for p in PRIMITIVES.values()}


# --- 1 and 2: the rules -------------------------------------------------------------

# Primitives that are linear in (some of) their operands, so reverse mode needs
# a transpose rule.  Kept by hand (not derived from the registry) so that a
# linear primitive registered without its transpose fails the audit;
# test_transposes_only_on_linear_primitives keeps the list complete.
LINEAR = {
    # elementwise
    "add", "sub", "neg", "mul", "div", "real", "imag", "conj", "complex",
    "convert_element_type", "select_n",
    # shapes
    "broadcast_in_dim", "reshape", "transpose", "squeeze", "rev", "pad", "concatenate",
    "slice", "dynamic_slice", "dynamic_update_slice",
    # reductions, contractions, indexing, sorting (a permutation of the values)
    "reduce_sum", "cumsum", "dot_general", "gather", "scatter", "scatter_add",
    "scatter_sub", "scatter_mul", "sort",
    # control flow (linear in the carried/branch values), fft, collectives
    "cond", "scan", "fft", "psum", "ppermute", "all_gather",
    # linear in the right-hand side
    "triangular_solve", "tridiagonal_solve", "custom_linear_solve",
}

# Exceptions, each with its reason.
NO_JVP = {
    "all_gather": "not written yet: gradients through all_gather are unsupported "
                  "(linear, so its JVP and transpose are each a collective)",
}
NO_TRANSPOSE = {
    "all_gather": "not written yet (see NO_JVP)",
}
NO_BATCHING = {
    "iota": "no operands, so it is never applied to a batched value",
}


def _overrides(method: str) -> Callable[[Primitive], bool]:
    """The primitive replaced ``Primitive.<method>`` (the default raises)."""
    def check(prim: Primitive) -> bool:
        fn = getattr(prim, method)
        return getattr(fn, "__func__", None) is not getattr(Primitive, method)
    return check


RULES: dict[str, Callable[[Primitive], bool]] = {
    "abstract_eval": _overrides("abstract_eval"),
    "impl": _overrides("impl"),
    "lowering": lowering.has_lowering,
    "jvp": lambda p: p in ad.primitive_jvps or p.name in NO_JVP,
    "transpose": lambda p: (p.name not in LINEAR or p in ad.primitive_transposes
                            or p.name in NO_TRANSPOSE),
    "batching": lambda p: p in batching.primitive_batchers or p.name in NO_BATCHING,
}


def test_modules_import_and_primitives_found():
    assert "sciax._src.lax.elementwise" in _lax_modules()
    assert "sciax._src.lax.linalg.spectral" in _lax_modules()
    assert {"add", "sin", "convert_element_type", "select_n", "eigh"} <= set(BY_NAME)


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("where", sorted(PRIMITIVES))
def test_primitive_has_rule(where: str, rule: str):
    prim = PRIMITIVES[where]
    assert RULES[rule](prim), f"primitive {prim.name!r} ({where}) has no {rule} rule"


def test_transposes_only_on_linear_primitives():
    transposed = {p.name for p in ad.primitive_transposes if p.name in BY_NAME}
    assert transposed <= LINEAR, f"add to LINEAR: {sorted(transposed - LINEAR)}"
    assert LINEAR <= set(BY_NAME), f"unknown in LINEAR: {sorted(LINEAR - set(BY_NAME))}"


@pytest.mark.parametrize("exceptions, table", [
    (NO_JVP, ad.primitive_jvps), (NO_TRANSPOSE, ad.primitive_transposes),
    (NO_BATCHING, batching.primitive_batchers)])
def test_exceptions_are_current(exceptions: dict, table: dict):
    """An exception names a registered primitive that still lacks the rule (a
    stale entry would hide a later regression)."""
    for name in exceptions:
        assert name in BY_NAME, f"{name!r} is not a lax primitive"
        assert BY_NAME[name] not in table, f"{name!r} has the rule now: drop the entry"


# --- 3: a test exercises every rule ---------------------------------------------------

def _jaxprs_in(value: Any) -> Iterable[Jaxpr]:
    if isinstance(value, ClosedJaxpr):
        yield value.jaxpr
    elif isinstance(value, Jaxpr):
        yield value
    elif isinstance(value, tuple | list):
        for v in value:
            yield from _jaxprs_in(v)


def _names(jaxpr: Jaxpr) -> set[str]:
    out = set()
    for eqn in jaxpr.eqns:
        out.add(eqn.primitive.name)
        for value in eqn.params.values():
            for sub in _jaxprs_in(value):
                out |= _names(sub)
    return out


def _reached(fun: Callable[..., Any], args: list[np.ndarray]) -> set[str]:
    """The primitives ``fun(*args)`` binds (tracing only: nothing compiles)."""
    return _names(sciax.make_jaxpr(fun)(*args).jaxpr)


def _record_prims(records: Iterable[tuple[op_table.OpRecord, np.dtype]]) -> set[str]:
    out: set[str] = set()
    for rec, dtype in records:
        args = rec.make_args(np.random.default_rng(0), (2, 3), dtype)
        out |= _reached(lambda *a, rec=rec: rec(*a), args)
    return out


def _autodiff_prims() -> set[str]:
    mod = test_autodiff_elementwise
    out: set[str] = set()
    for case in mod.REAL_CASES + mod.COMPLEX_CASES:
        out |= _reached(case.fun, case.args(0, (2, 3)))
    (zero_tangent_funs,) = [m.args[1] for m in mod.test_zero_tangent_ops.pytestmark
                            if m.name == "parametrize"]
    for fun in zero_tangent_funs:
        out |= _reached(fun, [mod.X])
    return out


# Elementwise primitives whose derivative rule a dedicated test checks, not a
# Case of test_autodiff_elementwise.py: name -> that test's function name.
AUTODIFF_DEDICATED = {
    "select_n": "test_select_n_grads",
    "complex": "test_complex_from_parts_grads",
    "convert_element_type": "test_convert_element_type_grads",
    "gt": "test_comparison_tangent_is_zero",
}
# Elementwise primitives that are not differentiated in the tests, and why.  Their
# JVP rule is ``defjvp_zero``: they are integer/bool-valued or step functions.
NOT_DIFFERENTIATED = {
    **dict.fromkeys(["and", "or", "xor", "not", "shift_left", "shift_right_arithmetic",
                     "shift_right_logical", "population_count", "clz"],
                    "integer/bool-valued: grad rejects integer inputs"),
    **dict.fromkeys(["ne", "le", "ge"],
                    "bool-valued, as the comparisons differentiated in "
                    "test_zero_tangent_ops and test_comparison_tangent_is_zero"),
    "nextafter": "a step of one ulp: piecewise constant, zero derivative",
    "bitcast_convert_type": "reinterprets bits: not a differentiable map",
}

# Primitives outside the op table: name -> (files under tests/, the text that
# shows the file calls the primitive).  Each family's files check eager/jit
# values against NumPy/SciPy, derivatives against finite differences
# (check_grads) and vmap against a loop, as the file names say.
_SHAPES = ("lax/test_shape_ops.py", "lax/test_autodiff_shape_ops.py",
           "lax/test_batching_shape_ops.py")
_REDUCTIONS = ("lax/test_reductions.py", "lax/test_autodiff_reductions.py",
               "lax/test_batching_reductions.py")
_INDEXING = ("lax/test_indexing.py", "lax/test_autodiff_indexing.py",
             "lax/test_batching_indexing.py")
_COLLECTIVES = ("test_vmap_api.py", "test_pmap.py")
_LINALG = ("lax/test_linalg_primitives.py",)
_EIG = ("lax/test_linalg_eig.py", "lax/test_linalg_info.py")
TESTED_ELSEWHERE: dict[str, tuple[tuple[str, ...], str]] = {
    # implicit solves: jvp/vjp/jit/vmap against NumPy and the IFT
    "custom_linear_solve": (("lax/test_solvers.py",), "custom_linear_solve"),
    # test_shape_ops.py reaches broadcast_in_dim through lax.broadcast
    "broadcast_in_dim": (_SHAPES, "broadcast"),
    **{n: (_SHAPES, n) for n in ("reshape", "transpose", "squeeze",
                                 "rev", "pad", "concatenate", "slice", "dynamic_slice",
                                 "dynamic_update_slice")},
    "iota": (("lax/test_shape_ops.py",), "iota"),  # no operands: no derivative
    **{n: (_REDUCTIONS, n) for n in ("reduce_sum", "reduce_prod", "reduce_max",
                                     "reduce_min", "argmax", "argmin", "cumsum",
                                     "cumprod", "cummax", "cummin", "cumlogsumexp")},
    **{n: (("lax/test_reductions.py", "lax/test_batching_reductions.py"), n)
       for n in ("reduce_and", "reduce_or", "reduce_xor")},  # bitwise: no derivative
    **{n: (_INDEXING, n) for n in ("gather", "scatter", "scatter_add", "scatter_sub",
                                   "scatter_mul", "scatter_min", "scatter_max")},
    "sort": (("lax/test_sort.py", "lax/test_autodiff_reductions.py",
              "lax/test_batching_reductions.py"), "sort"),
    "top_k": (("lax/test_sort.py", "lax/test_autodiff_reductions.py",
               "lax/test_batching_reductions.py"), "top_k"),
    "dot_general": (("lax/test_dot.py", "lax/test_autodiff_reductions.py",
                     "lax/test_batching_reductions.py"), "dot_general"),
    "fft": (("numpy/test_np_fft.py",), "fft"),
    "cond": (("test_control_flow.py",), "cond"),
    "while": (("test_control_flow.py",), "while_loop"),
    "scan": (("test_control_flow.py",), "scan"),
    "optimization_barrier": (("test_control_flow.py",), "optimization_barrier"),
    **{n: (_COLLECTIVES, n) for n in ("psum", "pmax", "pmin", "all_gather", "ppermute",
                                       "axis_index")},
    **{n: (_LINALG, n) for n in ("cholesky", "triangular_solve", "lu",
                                 "lu_pivots_to_permutation", "qr", "tridiagonal_solve")},
    # qr is geqrf followed by householder_product: the qr tests run both
    "geqrf": (("lax/test_linalg_primitives.py",), "qr"),
    "householder_product": (("lax/test_linalg_primitives.py",), "qr"),
    **{n: (_EIG, n) for n in ("eigh", "svd", "eig", "schur")},
    "hessenberg": (("lax/test_linalg_hessenberg.py",), "hessenberg"),
    "hessenberg_hq": (("lax/test_linalg_hessenberg.py",), "hessenberg_hq"),
    "geqp3": (("linalg/test_qr_pivoting.py",), "qr"),  # sciax.linalg.qr(pivoting=True)
}


@pytest.fixture(scope="module")
def op_table_coverage() -> dict[str, set[str]]:
    """The primitives each op-table test file reaches, per rule it checks."""
    bat = test_batching_elementwise
    return {
        "eager and jit vs NumPy": _record_prims(
            (rec, dt) for rec in op_table.ALL_RECORDS for dt in rec.dtypes[:1]),
        "vmap vs a loop": _record_prims(bat.CASES),
        "jvp and vjp vs finite differences": _autodiff_prims(),
    }


ELEMENTWISE = sorted(n for w, n in ((w, p.name) for w, p in PRIMITIVES.items())
                     if w.startswith("elementwise:"))


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_op_table_exercises_every_rule(name: str, op_table_coverage):
    assert name not in TESTED_ELSEWHERE
    for what, reached in op_table_coverage.items():
        if what.startswith("jvp"):
            if name in NOT_DIFFERENTIATED:
                continue
            if name in AUTODIFF_DEDICATED:
                assert hasattr(test_autodiff_elementwise, AUTODIFF_DEDICATED[name])
                continue
        assert name in reached, f"no op-table test checks {what} of {name!r}"


@pytest.mark.parametrize("name", sorted(set(BY_NAME) - set(ELEMENTWISE)))
def test_other_primitives_tested_elsewhere(name: str):
    assert name in TESTED_ELSEWHERE, \
        f"{name!r}: add an op-table record or a TESTED_ELSEWHERE entry"
    files, text = TESTED_ELSEWHERE[name]
    for rel in files:
        path = TESTS / rel
        assert path.is_file(), f"{name!r}: {rel} does not exist"
        assert text in path.read_text(), f"{rel} does not call {text!r}"


def test_exception_lists_name_primitives():
    for table in (AUTODIFF_DEDICATED, NOT_DIFFERENTIATED):
        assert set(table) <= set(ELEMENTWISE)
    assert set(TESTED_ELSEWHERE) <= set(BY_NAME) - set(ELEMENTWISE)
