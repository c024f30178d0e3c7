"""The jaxlib backend: client, buffers, executables and LAPACK targets."""

import numpy as np

import sciax
from sciax._src.backend import client, lapack
from sciax._src.backend.array import Array
from sciax._src.backend.compile import Executable
from sciax._src.backend.mlir import aval_to_ir_type, func, ir, make_context
from sciax._src.core.avals import ShapedArray


def test_client_is_created_once():
    assert client.get_client() is client.get_client()
    assert sciax.devices()[0].platform == "cpu"


def test_lapack_targets_registered():
    names = lapack.register_targets()
    for base in ("getrf", "geqrf", "potrf", "gesdd", "trsm", "geev"):
        for prefix in "sdcz":
            assert f"lapack_{prefix}{base}_ffi" in names
    for name in ("lapack_dsyevd_ffi", "lapack_zheevd_ffi"):
        assert name in names


def _potrf_module(n):
    a = ShapedArray((n, n), np.float64)
    info = ShapedArray((), np.int32)
    with make_context(), ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            fn = func.FuncOp("main", ir.FunctionType.get(
                [aval_to_ir_type(a)], [aval_to_ir_type(a), aval_to_ir_type(info)]))
            fn.attributes["sym_visibility"] = ir.StringAttr.get("public")
            block = fn.add_entry_block()
            with ir.InsertionPoint(block):
                outs = lapack.custom_call(
                    "lapack_dpotrf_ffi", [aval_to_ir_type(a), aval_to_ir_type(info)],
                    [block.arguments[0]],
                    backend_config={"uplo": ir.IntegerAttr.get(
                        ir.IntegerType.get_unsigned(8), ord("L"))},
                    operand_layouts=[[0, 1]], result_layouts=[[0, 1], []],
                    output_operand_aliases={0: 0})
                func.ReturnOp(outs)
    return module, [a, info]


def test_lapack_potrf_custom_call_matches_numpy():
    rng = np.random.default_rng(0)
    m = rng.normal(size=(4, 4))
    spd = m @ m.T + 4 * np.eye(4)
    module, avals = _potrf_module(4)
    exe = Executable(module, avals)
    out, info = exe.execute([sciax.device_put(spd)._buf])
    lower = np.tril(np.asarray(Array(out, avals[0])))
    np.testing.assert_allclose(lower, np.linalg.cholesky(spd), rtol=1e-12)
    assert int(Array(info, avals[1])) == 0


def test_device_put_roundtrip_dtypes():
    for dt in (np.float32, np.float64, np.int8, np.uint64, np.complex64, np.bool_):
        x = (np.arange(6) % 3).astype(dt).reshape(2, 3)
        y = sciax.device_put(x)
        assert y.dtype == x.dtype and y.shape == x.shape
        np.testing.assert_array_equal(np.asarray(y), x)


def test_single_device_runs_programs_inline_by_default():
    # config.cpu_async_dispatch is off: a call returns with its result computed
    # (no worker-thread hand-off); host callbacks still run from inside programs
    if sciax.config.cpu_async_dispatch or sciax.device_count() > 1:
        return  # the environment asked for asynchronous dispatch
    x = sciax.numpy.arange(1000.0)
    f = sciax.jit(lambda v: sciax.numpy.cumsum(v * 2.0))
    for _ in range(20):
        y = f(x)
        assert y.is_ready()
    seen = []
    g = sciax.jit(lambda v: sciax.debug.callback(lambda a: seen.append(float(a)), v[3])
                  or v + 1.0)
    np.testing.assert_array_equal(np.asarray(g(x)), np.arange(1000.0) + 1.0)
    assert seen == [3.0]


def _loop_program_text():
    def f(x):
        body = lambda c: (c[0] + 1, sciax.numpy.sin(c[1]) * 1.5 + c[1][::-1])  # noqa: E731
        return sciax.lax.while_loop(lambda c: c[0] < 100, body, (0, x))[1]
    return sciax.jit(f).lower(np.ones(64)).compile().as_text()


def test_small_loops_compile_to_one_kernel_and_the_option_turns_it_off(monkeypatch):
    """config.cpu_loop_kernel_bytes reaches XLA's CPU compiler through the
    compile options (the whole loop becomes a call that XLA marks
    ``xla_cpu_small_call``); 0 keeps XLA's default, under which this loop's
    body (over 1 kB) runs as separate kernels."""
    import jaxlib.xla_client as xc

    from sciax._src.backend.compile import with_backend_options
    monkeypatch.delenv("XLA_FLAGS", raising=False)
    before = sciax.config.cpu_loop_kernel_bytes
    opts = with_backend_options(xc.CompileOptions())
    assert b"xla_cpu_small_while_loop_byte_threshold" in opts.SerializeAsString()
    assert str(before).encode() in opts.SerializeAsString()
    try:
        assert "xla_cpu_small_call" in _loop_program_text()
        sciax.config.update("cpu_loop_kernel_bytes", 0)
        plain = with_backend_options(xc.CompileOptions()).SerializeAsString()
        assert b"small_while_loop" not in plain
        assert "xla_cpu_small_call" not in _loop_program_text()
    finally:
        sciax.config.update("cpu_loop_kernel_bytes", before)
    # other options survive the merge
    o = xc.CompileOptions()
    o.num_replicas = 3
    assert with_backend_options(o).num_replicas == 3
