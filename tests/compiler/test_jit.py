"""The JIT: decoration, launch syntax, argument classification, ConstExpr checks and caching (spec §4.1-4.3, §4.7)."""
from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest
import torch

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.runtime.jit import JITFunction

from kernel_checks import randn


@asc2.jit
def copy_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    out_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(asc2.block_idx(), asc.ceildiv(n, T), asc2.block_num()):
        asc2.store(asc2.load(x_gm, [T], offsets=[i * T]), out_gm, offsets=[i * T])


@asc2.jit(always_compile=True)
def fill_kernel(out_ptr: asc.GlobalAddress, s, T: asc.ConstExpr[int]):
    out_gm = asc2.tensor(out_ptr, [T])
    asc2.store(asc2.full([T], s, dtype=out_gm.dtype), out_gm, offsets=[0])


@pytest.fixture
def trace_count(monkeypatch):
    """Number of traces (one per compiled specialisation) made while the test runs."""
    calls = []
    original = JITFunction._trace

    def counting(self, *args, **kwargs):
        calls.append(self.__name__)
        return original(self, *args, **kwargs)
    monkeypatch.setattr(JITFunction, "_trace", counting)
    return calls


# -- decoration ---------------------------------------------------------------------------------
def test_bare_and_keyword_decoration_both_run():
    def body(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        x_gm = asc2.tensor(x_ptr, [n])
        o_gm = asc2.tensor(out_ptr, [n])
        asc2.store(asc2.load(x_gm, [32], offsets=[0]) * 2, o_gm, offsets=[0])
    x = randn(32, np.float32)
    for k in (asc2.jit(body), asc2.jit(always_compile=True, opt_level=2)(body)):
        out = np.zeros_like(x)
        k[1](x, out, 32)
        np.testing.assert_array_equal(out, x * 2)


def test_unknown_option_is_rejected():
    with pytest.raises(RuntimeError, match="The following option names are unknown: colour, speed"):
        @asc2.jit(speed=3, colour="red")
        def k(x_ptr: asc.GlobalAddress):
            pass


@pytest.mark.parametrize("pname", ["debug", "stream", "core_num", "opt_level", "static_alloc"])
def test_parameter_name_conflicting_with_an_option(pname):
    src = f"def k(x_ptr, {pname}: int):\n    pass\n"
    ns = {}
    exec(compile(src, __file__, "exec"), ns)
    with pytest.raises(RuntimeError, match="The following argument names conflict with JIT configuration "
                                           f"options: {pname}"):
        JITFunction(ns["k"])


def test_opt_level_zero_is_rejected():
    x = np.zeros(32, np.float32)
    with pytest.raises(RuntimeError, match="Please check input compile option"):
        copy_kernel[1](x, x.copy(), 32, 32, opt_level=0)


# -- launch syntax ------------------------------------------------------------------------------
def test_launch_with_core_num_and_with_stream():
    x = randn(1000, np.float16)
    out = np.zeros_like(x)
    copy_kernel[4](x, out, x.size, 128)
    np.testing.assert_array_equal(out, x)
    out2 = np.zeros_like(x)
    copy_kernel[4, None](x, out2, x.size, 128)
    np.testing.assert_array_equal(out2, x)


def test_launch_with_keyword_arguments():
    x = randn(256, np.float32)
    out = np.zeros_like(x)
    copy_kernel[2](x_ptr=x, out_ptr=out, n=256, T=64)
    np.testing.assert_array_equal(out, x)


@pytest.mark.parametrize("core_num", [0, -3])
def test_core_num_must_be_positive(core_num):
    x = np.zeros(32, np.float32)
    out = np.full_like(x, 7)
    with pytest.raises(ValueError, match="Core number should be large than 0"):
        copy_kernel[core_num](x, out, 32, 32)
    assert np.all(out == 7)


def test_bad_launch_options():
    with pytest.raises(TypeError, match="Parse user launch options failed"):
        copy_kernel[1, None, 3]


def test_calling_without_core_count_explains_launch_syntax():
    with pytest.raises(TypeError, match=r"copy_kernel\[core_num\]"):
        copy_kernel(np.zeros(4), np.zeros(4), 4, 4)


# -- argument classification ------------------------------------------------------------------
NUMPY_DTYPES = [np.int8, np.int16, np.int32, np.float16, ml_dtypes.bfloat16, np.float32]
TORCH_DTYPES = [torch.int8, torch.int16, torch.int32, torch.float16, torch.bfloat16, torch.float32]


@pytest.mark.parametrize("dtype", NUMPY_DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_arrays_are_pointers_of_their_dtype(dtype):
    x = randn(300, dtype)
    out = np.zeros_like(x)
    assert f"ptr<{np.dtype(dtype).name}>" in copy_kernel.ir(x, out, x.size, 64).splitlines()[0]
    copy_kernel[3](x, out, x.size, 64)
    np.testing.assert_array_equal(out.view(np.uint8), x.view(np.uint8))


@pytest.mark.parametrize("dtype", TORCH_DTYPES, ids=str)
def test_torch_tensors_are_pointers_and_written_in_place(dtype):
    x = torch.arange(-150, 150).to(dtype)
    out = torch.zeros_like(x)
    assert f"ptr<{str(dtype)[6:]}>" in copy_kernel.ir(x, out, x.numel(), 64).splitlines()[0]
    copy_kernel[3](x, out, x.numel(), 64)
    assert torch.equal(out, x)


def test_two_dimensional_torch_tensor_is_written_in_place():
    x = torch.rand(8, 64)
    out = torch.zeros_like(x)
    copy_kernel[2](x, out, x.numel(), 128)
    assert torch.equal(out, x)


@pytest.mark.parametrize("value,ir_type,expected", [
    (3, "int32", 3), (2.5, "float32", 2.5), (True, "int8", 1),
    (np.int16(7), "int16", 7), (np.int8(-3), "int8", -3), (np.float16(1.5), "float16", 1.5),
    (np.float32(2.25), "float32", 2.25), (np.int32(-9), "int32", -9),
    (torch.tensor(4.5), "float32", 4.5), (torch.tensor(3, dtype=torch.int32), "int32", 3),
    (torch.tensor(1.5, dtype=torch.bfloat16), "bfloat16", 1.5), (torch.tensor(0.5, dtype=torch.float16), "float16", 0.5)],
    ids=repr)
def test_scalars_are_typed_from_their_value(value, ir_type, expected):
    out = np.zeros(16, np.int32 if isinstance(expected, int) else np.float32)
    header = fill_kernel.ir(out, value, 16).splitlines()[0]
    assert header.endswith(f"%1: {ir_type}) {{"), header
    fill_kernel[1](out, value, 16)
    assert np.all(out == expected)


def test_scalar_value_change_does_not_retrace(trace_count):
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, s: float):
        o = asc2.tensor(out_ptr, [8])
        asc2.store(asc2.full([8], s, dtype=asc.float32), o, offsets=[0])
    out = np.zeros(8, np.float32)
    for s in (1.0, 2.0, -3.5):
        k[1](out, s)
        assert np.all(out == s)
    assert trace_count == ["k"]


@pytest.mark.parametrize("value", ["abc", [1, 2], (1, 2), {"a": 1}, None])
def test_unsupported_runtime_argument_types(value):
    out = np.zeros(16, np.float32)
    with pytest.raises(TypeError) as e:
        fill_kernel[1](out, value, 16)
    assert str(e.value) == f"Argument type in JIT function is not supported: {type(value).__name__}"   # pyasc's
    assert e.value.__notes__ == [f"hint: {e.value.hint}"]      # and the fix, shown below it
    assert np.all(out == 0)


def test_bool_arrays_are_rejected():
    x = np.ones(16, dtype=bool)
    with pytest.raises(TypeError, match="arrays of bool are not supported"):
        copy_kernel[1](x, x.copy(), 16, 16)
    t = torch.ones(16, dtype=torch.bool)
    with pytest.raises(TypeError, match="tensors of torch.bool are not supported"):
        copy_kernel[1](t, t.clone(), 16, 16)


def test_int_beyond_int32_is_rejected_before_running():
    x = np.zeros(16, np.float32)
    with pytest.raises(OverflowError, match="does not fit the int32"):
        copy_kernel[1](x, x.copy(), 2**40, 16)


def test_too_few_and_too_many_arguments():
    x = np.zeros(16, np.float32)
    out = np.full_like(x, 5)
    with pytest.raises(TypeError, match="missing a required argument: 'T'"):
        copy_kernel[1](x, out, 16)
    with pytest.raises(TypeError, match="too many positional arguments"):
        copy_kernel[1](x, out, 16, 16, 3)
    assert np.all(out == 5)


def test_kernel_parameter_defaults_are_not_applied_at_launch():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int] = 16):
        pass
    with pytest.raises(TypeError, match="missing a required argument: 'T'"):
        k[1](np.zeros(16, np.float32))


def test_august_kernels_apply_parameter_defaults_at_launch_as_pyasc_dev():
    @asctile.jit
    def k(out_ptr, n, T: asctile.ConstExpr[int] = 16, fill=2.5):
        asctile.copy_out(asctile.full([T], fill, asctile.float32), asctile.global_tensor(out_ptr, [n]), [0])
    out = np.zeros(32, np.float32)
    k[1](out, 32)  # T = 16, fill = 2.5: element 16, one past the tile, stays 0
    assert out[:16].tolist() == [2.5] * 16 and not out[16:].any()
    k[1](out, 32, 32, fill=1.0)
    assert (out == 1.0).all()


def test_non_contiguous_and_read_only_arrays_are_rejected():
    x = np.zeros(64, np.float32)
    with pytest.raises(ValueError, match="not C-contiguous"):
        copy_kernel[1](x, np.zeros(128, np.float32)[::2], 64, 64)
    ro = np.zeros(64, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        copy_kernel[1](x, ro, 64, 64)


# -- ConstExpr ------------------------------------------------------------------------------------
def test_constexpr_type_check_message():
    x = np.zeros(16, np.float32)
    with pytest.raises(TypeError, match=re.escape("ConstExpr[int] is required for 'T' argument")) as e:
        copy_kernel[1](x, x.copy(), 16, "16")
    # pyasc's text: the class's name and the value as str() prints it
    assert str(e.value).startswith("ConstExpr[int] is required for 'T' argument, str was provided: 16")


def test_constexpr_union_message_and_bool_passes_int():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, v: asc.ConstExpr[int, float]):
        o = asc2.tensor(out_ptr, [8])
        asc2.store(asc2.full([8], v, dtype=asc.float32), o, offsets=[0])
    out = np.zeros(8, np.float32)
    k[1](out, True)
    assert np.all(out == 1)
    k[1](out, 2.5)
    assert np.all(out == 2.5)
    with pytest.raises(TypeError, match=r"ConstExpr\[int \| float\] is required for 'v' argument, "
                                        r"str was provided: x"):
        k[1](out, "x")


def test_constexpr_accepts_tuples_sizes_dtypes_and_functions():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, shape: asc.ConstExpr, dtype: asc.ConstExpr,
          fn: asc.ConstExpr):
        x_gm = asc2.tensor(x_ptr, shape)
        o_gm = asc2.tensor(out_ptr, shape)
        t = asc2.load(x_gm, [shape[0], shape[1]], offsets=[0, 0])
        asc2.store(fn(t.to(dtype), t.to(dtype)).to(o_gm.dtype), o_gm, offsets=[0, 0])
    x = torch.rand(4, 16)
    out = torch.zeros_like(x)
    k[1](x, out, x.shape, asc.float32, asc2.add)
    torch.testing.assert_close(out, x + x)
    k[1](x, out, (4, 16), asc.float32, asc2.maximum)
    torch.testing.assert_close(out, x)


def test_a_constexpr_value_makes_any_parameter_compile_time():
    # pyasc's split_args: a ConstExpr argument is compile-time whatever the annotation, so one kernel file runs
    # "static" and "dynamic".
    x = np.arange(40, dtype=np.float32)
    out = np.zeros_like(x)
    copy_kernel[2](x, out, asc.ConstExpr(40), 16)
    np.testing.assert_array_equal(out, x)
    assert "constexpr: n=40, T=16" in copy_kernel.ir(x, out, asc.ConstExpr(40), 16)
    assert "constexpr: T=16" in copy_kernel.ir(x, out, 40, 16)   # the same parameter as a runtime value
    out[:] = 0
    copy_kernel[2](x, out, 40, asc.ConstExpr(16))   # an annotated parameter may be wrapped too
    np.testing.assert_array_equal(out, x)
    for _ in range(2):   # repeated launches (the relaunch fast path) keep the two specialisations apart
        out[:] = 0
        copy_kernel[2](x[:24], out[:24], asc.ConstExpr(24), 16)
        np.testing.assert_array_equal(out[:24], x[:24])
        assert np.all(out[24:] == 0)
        copy_kernel[2](x, out, 40, 16)
        np.testing.assert_array_equal(out, x)


def test_runtime_annotation_is_ignored_value_decides():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, s: int):
        o = asc2.tensor(out_ptr, [8])
        asc2.store(asc2.full([8], s, dtype=asc.float32), o, offsets=[0])
    out = np.zeros(8, np.float32)
    k[1](out, 2.75)  # annotated int, passed a float: typed float32 from the value
    assert np.all(out == 2.75)


# -- caching --------------------------------------------------------------------------------------
def test_one_trace_per_specialisation(trace_count):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [n])
        o_gm = asc2.tensor(out_ptr, [n])
        asc2.store(asc2.load(x_gm, [T], offsets=[0]) + 1, o_gm, offsets=[0])
    f32, f16 = np.zeros(64, np.float32), np.zeros(64, np.float16)
    for _ in range(3):
        k[1](f32, f32.copy(), 64, 32)
        k[1](f32, f32.copy(), 48, 32)  # another runtime int: same specialisation
    assert trace_count == ["k"]
    k[1](f32, f32.copy(), 64, 64)      # another ConstExpr value
    k[1](f16, f16.copy(), 64, 64)      # another dtype
    k[1](f16, f16.copy(), 64, 64)
    assert trace_count == ["k"] * 3
    t16 = torch.zeros(64, dtype=torch.float16)
    k[1](t16, t16.clone(), 64, 64)     # a torch tensor of the same dtype is the same specialisation
    assert len(trace_count) == 3


def test_relaunch_with_another_argument_kind_respecialises(trace_count):
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, s, T: asc.ConstExpr):
        o = asc2.tensor(out_ptr, [T])
        asc2.store(asc2.full([T], s * 3, dtype=asc.float32), o, offsets=[0])
    out = np.zeros(16, np.float32)
    for s, T, expected in [(2, 8, 6.0), (2, 8, 6.0), (2.5, 8, 7.5),
                           (True, 8, "Arithmetic cast from int8 to float32 is not supported"), (2, 16, 6.0),
                           (2, 8.0, "Tensor dimension should be RuntimeInt, got <class 'float'>"),
                           (np.float16(0.5), 8, 1.5), (torch.tensor(1.5), 8, 4.5)]:
        out[:] = 0
        if isinstance(expected, str):  # an int8 scalar / a float shape: not the cached int32 / int trace
            with pytest.raises(CodegenError, match=re.escape(expected)):
                k[1](out, s, T)
            continue
        k[1](out, s, T)
        assert np.all(out[:T] == expected) and np.all(out[T:] == 0), (s, T)
    assert len(trace_count) == 6  # a 0-d float32 tensor is the float scalar's specialisation


def test_cache_key_includes_compile_options(trace_count):
    x = np.zeros(64, np.float32)
    copy_kernel[1](x, x.copy(), 64, 16, opt_level=2)
    copy_kernel[1](x, x.copy(), 64, 16, opt_level=1)
    copy_kernel[1](x, x.copy(), 64, 16, opt_level=1)
    assert len(trace_count) == 2


def test_always_compile_traces_every_launch(trace_count):
    out = np.zeros(16, np.float32)
    for _ in range(3):
        fill_kernel[1](out, 1.0, 16)
    assert trace_count == ["fill_kernel"] * 3


def _kernel_from_source(body_expr, always_compile=False):
    """A kernel named ``src_kernel`` defined in a generated module, so that two versions share a name."""
    import linecache
    import sys
    import types
    src = (
        "import asc, asc2\n"
        f"@asc2.jit(always_compile={always_compile})\n"
        "def src_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):\n"
        "    x_gm = asc2.tensor(x_ptr, [32])\n"
        "    o_gm = asc2.tensor(out_ptr, [32])\n"
        "    x = asc2.load(x_gm, [32], offsets=[0])\n"
        f"    asc2.store({body_expr}, o_gm, offsets=[0])\n")
    fname = f"<generated-kernel-{abs(hash(src))}>"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    mod = types.ModuleType("generated_kernels")
    mod.__file__ = fname
    sys.modules.setdefault("generated_kernels", mod)
    exec(compile(src, fname, "exec"), mod.__dict__)
    return mod.__dict__["src_kernel"]


def test_disk_cache_is_keyed_by_source(trace_count, tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))
    x = np.arange(32, dtype=np.float32)
    out = np.zeros_like(x)
    _kernel_from_source("x + 1")[1](x, out)
    np.testing.assert_array_equal(out, x + 1)
    assert len(trace_count) == 1
    assert list(tmp_path.rglob("*src_kernel.pkl")), "no cache file under PYASC_CACHE_DIR"
    # The same source in a fresh JITFunction is served from the disk cache.
    _kernel_from_source("x + 1")[1](x, out)
    assert len(trace_count) == 1
    # Edited source with the same name: traced again, and computes the new body.
    _kernel_from_source("x * 3")[1](x, out)
    np.testing.assert_array_equal(out, x * 3)
    assert len(trace_count) == 2


def test_always_compile_neither_reads_nor_writes_the_disk_cache(trace_count, tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))
    x = np.arange(32, dtype=np.float32)
    out = np.zeros_like(x)
    _kernel_from_source("x - 1", always_compile=True)[1](x, out)
    assert not list(tmp_path.rglob("*src_kernel.pkl"))
    _kernel_from_source("x - 1")[1](x, out)          # populate the cache
    assert len(list(tmp_path.rglob("*src_kernel.pkl"))) == 1
    _kernel_from_source("x - 1", always_compile=True)[1](x, out)
    np.testing.assert_array_equal(out, x - 1)
    assert len(trace_count) == 3


def test_ir_is_available_for_given_arguments():
    x = np.zeros(256, np.float16)
    text = copy_kernel.ir(x, x.copy(), 256, 128)
    assert text.startswith("func @copy_kernel(%0: ptr<float16>, %1: ptr<float16>, %2: int32)")
    assert "// constexpr: T=128" in text
    assert "tile.load" in text and "tile<128xfloat16, UB>" in text and "tile.store" in text
    assert "scf.for" in text


def test_v1_asc_jit_kernel_with_block_helpers_and_plain_range():
    @asc.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        o = asc2.tensor(out_ptr, [asc.get_block_num() * 8])
        acc = asc2.zeros([8], dtype=asc.int32)
        for i in range(n):
            acc = acc + i
        asc2.store(acc + asc.get_block_idx() * 100, o, offsets=[asc.get_block_idx() * 8])
    out = np.zeros(24, np.int32)
    k[3](out, 4)
    np.testing.assert_array_equal(out, np.repeat([6, 106, 206], 8))

    @asc.jit
    def k2(out_ptr: asc.GlobalAddress, n: int):
        for i in range(n, unroll_factor=2):
            pass
    with pytest.raises(CodegenError, match="unexpected keyword argument .unroll_factor."):
        k2[1](out, 4)


def test_compile_options_may_be_given_at_launch(trace_count):
    x = np.zeros(64, np.float32)
    copy_kernel[1](x, x.copy(), 64, 32, always_compile=True)
    copy_kernel[1](x, x.copy(), 64, 32, always_compile=True)
    assert len(trace_count) == 2


@pytest.mark.parametrize("future", [False, True], ids=["evaluated-annotations", "string-annotations"])
def test_constexpr_annotations_with_and_without_postponed_evaluation(future):
    import linecache
    src = ("from __future__ import annotations\n" if future else "") + (
        "import asc, asc2\n"
        "def kern(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int],\n"
        "         S: asc.ConstExpr):\n"
        "    x_gm = asc2.tensor(x_ptr, [n])\n"
        "    o_gm = asc2.tensor(out_ptr, [n])\n"
        "    asc2.store(asc2.load(x_gm, [T], offsets=[0]) * S[0], o_gm, offsets=[0])\n")
    fname = f"/virtual/tests/compiler/test_annotations_{future}.py"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {"__name__": f"annotations_{future}"}
    exec(compile(src, fname, "exec"), ns)
    k = asc2.jit(ns["kern"])
    x = randn(64, np.float32)
    out = np.zeros_like(x)
    k[1](x, out, 64, 64, (3.0,))
    np.testing.assert_array_equal(out, x * 3)
    assert k.ir(x, out, 64, 64, (3.0,)).splitlines()[0].endswith("%2: int32) {")
    with pytest.raises(TypeError, match="ConstExpr\\[int\\] is required for 'T' argument"):
        k[1](x, out, 64, 64.0, (3.0,))
