"""The public names of asc2 / asc / asc.runtime.config, and the option dataclasses (spec §1)."""
from __future__ import annotations

import dataclasses

import ml_dtypes
import numpy as np
import pytest

import asc
import asc2
import asc.runtime.config as config
from asc.experimental import asctile

ASC2_NAMES = [
    "tensor", "TileLocation", "range", "atomic_add", "atomic_max", "atomic_min",
    "add", "div", "equal", "greater", "greater_equal", "left_shift", "less", "less_equal", "matmul",
    "matmul_acc", "maximum", "minimum", "mul", "not_equal", "right_shift", "sub",
    "concat", "full", "full_like", "zeros", "zeros_acc", "zeros_like",
    "copy", "load", "store",
    "block_idx", "block_num", "num_tiles",
    "broadcast_to", "expand_dims", "ravel", "reshape", "squeeze",
    "abs", "ceil", "cos", "cosh", "erf", "exp", "exp2", "floor", "log", "log2", "negative", "relu",
    "rms_norm", "rsqrt", "sin", "sinh", "softmax", "sqrt", "tan", "tanh",
    "mask", "where",
    "reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
    "jit",
]

PLATFORMS = {
    "Ascend910B1": "Ascend910B1", "Ascend910B2": "Ascend910B2", "Ascend910B2C": "Ascend910B2C",
    "Ascend910B3": "Ascend910B3", "Ascend910B4": "Ascend910B4", "Ascend910B4_1": "Ascend910B4-1",
    "Ascend910_9362": "Ascend910_9362", "Ascend910_9372": "Ascend910_9372", "Ascend910_9381": "Ascend910_9381",
    "Ascend910_9382": "Ascend910_9382", "Ascend910_9391": "Ascend910_9391", "Ascend910_9392": "Ascend910_9392",
    "Ascend910_9579": "Ascend910_9579", "Ascend910_9589": "Ascend910_9589", "Ascend910_9599": "Ascend910_9599",
    "Ascend950PR_950z": "Ascend950PR_950z", "Ascend950PR_9579": "Ascend950PR_9579",
    "Ascend950PR_957b": "Ascend950PR_957b", "Ascend950PR_957c": "Ascend950PR_957c",
    "Ascend950PR_957d": "Ascend950PR_957d", "Ascend950PR_9589": "Ascend950PR_9589",
    "Ascend950PR_958b": "Ascend950PR_958b", "Ascend950PR_9599": "Ascend950PR_9599",
}


# The August 2026 names asc2 adds (and asc.experimental.asctile spells without the April ones).
AUGUST_NAMES = ["global_tensor", "copy_in", "copy_out", "TensorLocation", "DistribMode", "GlobalAddress", "GlobalTensor",
                "LocalTensor", "cast", "ConstExpr", "static_range", "ceildiv", "number", "DataType", "int8",
                "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16", "float32",
                "float64", "half", "float_", "double", "int_",
                # pyasc-dev's asctile additions
                "bool_", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnuz", "bitwise_and", "bitwise_or",
                "bitwise_xor", "bitwise_not", "pow", "device_print", "device_assert", "static_print",
                "static_assert", "DistribMode", "cv_strategy", "sub_block_idx", "sub_block_num", "empty",
                "empty_like", "inline", "inline_vf", "to_asc", "from_asc", "layer_norm", "gather", "scatter",
                "broadcast_shapes", "broadcast_tensors", "transpose", "RoundMode"]


def test_asc2_exports_the_66_april_names_and_the_august_ones():
    assert len(ASC2_NAMES) == 66
    assert sorted(asc2.__all__) == sorted(set(ASC2_NAMES) | set(AUGUST_NAMES))
    for name in ASC2_NAMES + AUGUST_NAMES:
        assert getattr(asc2, name) is not None, name
    assert asc2.GlobalAddress is asc.GlobalAddress and asc2.ConstExpr is asc.ConstExpr
    assert asc2.float16 is asc.float16 and asc2.int_ is asc.int32


def test_asctile_exports_the_august_names_only():
    from asc.experimental import asctile
    not_upstream = ("number", "half", "double", "uint8", "uint16", "uint32", "uint64")  # asc2 only
    for name in [n for n in AUGUST_NAMES if n not in not_upstream] + ["range", "copy", "matmul_acc", "zeros", "jit",
                                                                       "set_platform", "Platform", "profiling",
                                                                       "runtime"]:
        assert hasattr(asctile, name), name
    for name in ("tensor", "load", "store", "TileLocation", "num_tiles") + not_upstream:
        assert not hasattr(asctile, name), name
    assert asctile.copy_in is asc2.copy_in and asctile.range is not asc2.range


def test_asc2_range_is_a_class_and_tile_location_members():
    assert isinstance(asc2.range, type)
    loc = asc2.TileLocation
    assert loc is asc2.TensorLocation
    assert {m.name: m.value for m in loc} == {"L0A": 23, "L0B": 24, "L0C": 25, "UB": 26, "L1": 27, "FIX": 28,
                                              "BT": 29, "Auto": 30}


def test_asc2_jit_returns_a_jit_function_with_asc2_defaults():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        pass
    assert isinstance(k, asc.JITFunction)
    assert k.options["custom_builtins"] == {"range": asc2.range}
    assert k.options["insert_sync"] is True and k.options["run_asc2_passes"] is True

    @asc.jit
    def v1(x_ptr: asc.GlobalAddress):
        pass
    assert v1.options["custom_builtins"] == {"range": asc.range}
    assert "run_asc2_passes" not in v1.options


def test_asc2_jit_options_can_be_overridden():
    @asc2.jit(insert_sync=False, custom_builtins={})
    def k(x_ptr: asc.GlobalAddress):
        pass
    assert k.options["insert_sync"] is False and k.options["custom_builtins"] == {}


@pytest.mark.parametrize("name", [
    "DataType", "void", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "half", "float_", "double", "int_",
    "GlobalAddress", "ConstExpr", "ceildiv", "number", "static_range", "range", "jit",
    "CodegenOptions", "CompileOptions", "LaunchOptions", "get_block_idx", "get_block_num"])
def test_asc_names(name):
    assert hasattr(asc, name)


def test_asc_does_not_export_int1_or_bool():
    assert not hasattr(asc, "int1") and not hasattr(asc, "bit") and not hasattr(asc, "bool_")


def test_dtype_aliases_and_equality_by_name():
    assert asc.half == asc.float16 and asc.float_ == asc.float32
    assert asc.double == asc.float64 and asc.int_ == asc.int32
    assert asc.DataType("float16") == asc.float16
    assert asc.float16 != asc.bfloat16
    assert str(asc.bfloat16) == "bfloat16"
    with pytest.raises(TypeError, match="unhashable type"):
        hash(asc.float32)  # pyasc's DataType defines __eq__ without __hash__


@pytest.mark.parametrize("name,kind,bits,size", [
    ("int8", "Int", 8, 1), ("int16", "Int", 16, 2), ("int32", "Int", 32, 4), ("int64", "Int", 64, 8),
    ("uint8", "UInt", 8, 1), ("uint64", "UInt", 64, 8), ("float16", "Float", 16, 2),
    ("bfloat16", "Float", 16, 2), ("float32", "Float", 32, 4), ("float64", "Float", 64, 8)])
def test_dtype_predicates(name, kind, bits, size):
    d = getattr(asc, name)
    assert d.kind == kind and d.bitwidth == bits and d.sizeof() == size
    assert d.is_numeric() and not d.is_void()
    assert d.is_float() == (kind == "Float")
    assert d.is_int() == (kind != "Float")
    assert d.is_signed() == (kind == "Int") and d.is_unsigned() == (kind == "UInt")


def test_dtype_sizeof_errors():
    with pytest.raises(ValueError, match="DataType does not have a bitwidth: void"):
        asc.void.sizeof()
    assert asc.void.is_void() and not asc.void.is_numeric()
    with pytest.raises(ValueError, match="DataType bitwidth does not fit an integer number of bytes: 1"):
        asc.DataType("int1").sizeof()
    assert asc.DataType("int1").is_signed()
    assert asc.DataType("bool").kind == "Any"


def test_bfloat16_is_backed_by_ml_dtypes():
    assert asc.bfloat16.to_numpy() == np.dtype(ml_dtypes.bfloat16)
    assert asc.float16.to_numpy() == np.float16


def test_constexpr_value_unwrap_and_repr():
    c = asc.ConstExpr(128)
    assert c.value == 128 and asc.ConstExpr.unwrap(c) == 128 and asc.ConstExpr.unwrap(5) == 5
    assert repr(c) == "ConstExpr[int](128)"
    assert asc.ConstExpr(asc.ConstExpr((1, 2))).value == (1, 2)


def test_ceildiv_on_host():
    assert asc.ceildiv(10, 3) == 4 and asc.ceildiv(9, 3) == 3 and asc.ceildiv(1, 128) == 1


def test_static_range_is_a_python_loop_on_host():
    assert list(asc.static_range(2, 8, 3)) == [2, 5]


# -- asc.runtime.config -------------------------------------------------------------------------
def test_platform_has_23_members_with_pyasc_values():
    assert {m.name: m.value for m in config.Platform} == PLATFORMS
    assert len(config.Platform) == 23
    assert config.Platform("Ascend910B4-1") is config.Platform.Ascend910B4_1


def test_backend_arch_and_kernel_type_enums():
    assert {m.name: m.value for m in config.Backend} == {"Model": "Model", "NPU": "NPU"}
    assert {m.name: m.value for m in config.CompilationArch} == {"C220": "c220", "C310": "c310"}
    assert str(config.CompilationArch.C310) == "c310"
    assert [(m.name, m.value) for m in config.KernelType] == [
        ("AIV_ONLY", 0), ("AIC_ONLY", 1), ("MIX_AIV_HARD_SYNC", 2), ("MIX_AIC_HARD_SYNC", 3),
        ("MIX_AIV_1_0", 4), ("MIX_AIC_1_0", 5), ("MIX_AIC_1_1", 6), ("MIX_AIC_1_2", 7)]


@pytest.mark.parametrize("platform", list(config.Platform), ids=lambda p: p.name)
def test_platform_to_arch(platform):
    expected = config.CompilationArch.C220 if platform.value.startswith(("Ascend910B", "Ascend910_93")) \
        else config.CompilationArch.C310
    assert config.platform_to_arch(platform) is expected


def test_platform_to_arch_families():
    assert config.platform_to_arch(config.Platform.Ascend910B4_1) is config.CompilationArch.C220
    assert config.platform_to_arch(config.Platform.Ascend910_9392) is config.CompilationArch.C220
    assert config.platform_to_arch(config.Platform.Ascend910_9579) is config.CompilationArch.C310
    assert config.platform_to_arch(config.Platform.Ascend950PR_950z) is config.CompilationArch.C310
    with pytest.raises(ValueError, match="There is no compilation arch for 'Ascend310P' platform"):
        config.platform_to_arch("Ascend310P")


def test_set_platform_accepts_strings_and_rejects_npu_without_runtime():
    config.set_platform("Model", "Ascend910B1")
    assert config.current_platform() is config.Platform.Ascend910B1
    config.set_platform(config.Backend.Model)
    assert config.current_platform() is config.Platform.Ascend910B1  # Model defaults to 910B1
    with pytest.raises(RuntimeError, match="Runtime library is not available!"):
        config.set_platform(config.Backend.NPU, config.Platform.Ascend910B1)
    with pytest.raises(ValueError, match="'Ascend999' is not a valid Platform"):
        config.set_platform(config.Backend.Model, "Ascend999")


def test_platform_hardware_tables():
    from asc.runtime.platforms import hardware
    c310 = hardware(config.Platform.Ascend950PR_9599)
    c220 = hardware(config.Platform.Ascend910B1)
    assert c310.ub_bytes == 248 * 1024 and c220.ub_bytes == 192 * 1024
    assert hardware(config.Platform.Ascend910_9391).ub_bytes == 192 * 1024
    assert hardware(config.Platform.Ascend910_9589).ub_bytes == 248 * 1024
    for hw in (c310, c220):
        assert hw.l0a_bytes == hw.l0b_bytes == 64 * 1024
        assert hw.vector_bytes == 256
        assert hw.l1_bytes > 0 and hw.l0c_bytes > 0 and hw.aiv_cores > 0 and hw.aic_cores > 0


# -- option dataclasses ---------------------------------------------------------------------------
def _fields(cls):
    return [(f.name, f.default if f.default is not dataclasses.MISSING else f.default_factory())
            for f in dataclasses.fields(cls)]


def test_codegen_options_fields_and_defaults():
    assert _fields(asc.CodegenOptions) == [("capture_exceptions", True), ("ir_multithreading", True),
                                           ("custom_builtins", {})]


def test_compile_options_fields_defaults_and_order():
    assert _fields(asc.CompileOptions) == [
        ("debug", False), ("strip_loc", False), ("verify_sync", False), ("print_ir_before_all", False),
        ("run_passes", True), ("kernel_type", None), ("auto_sync", True), ("auto_sync_log", ""),
        ("matmul_cube_only", False), ("always_compile", False), ("bisheng_options", None), ("opt_level", 3),
        ("run_asc2_passes", False), ("densify_load_store", False), ("insert_sync", None), ("reuse_ub", False),
        ("reuse_ub_in_out", False), ("static_alloc", None), ("vf_fusion", False),
        ("reuse_alloc", None), ("cv_ratio", 1), ("vf_vec_len", None)]


def test_launch_options_is_frozen():
    assert _fields(asc.LaunchOptions) == [("core_num", None), ("stream", None)]   # None: every core
    opts = asc.LaunchOptions(4)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'core_num'"):
        opts.core_num = 8


def test_asc2_ops_outside_a_kernel_fail_clearly():
    with pytest.raises(RuntimeError, match="only be used inside a function decorated with @asc2.jit"):
        asc2.full([8], 1.0)


def test_tile_methods_are_pyasc_s_and_no_more():
    from asc.language.tile.tile import Tile
    from asc.language.tile.tensor import Tensor
    present = ["to", "__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__lshift__", "__rshift__",
               "__matmul__", "__eq__", "__ne__", "__gt__", "__ge__", "__lt__", "__le__", "__neg__", "__pos__",
               "sum", "max", "min", "prod", "sin", "cos", "tan", "sinh", "cosh", "tanh", "exp", "exp2", "log", "log2",
               "floor", "ceil", "abs", "erf", "sqrt", "rsqrt", "relu", "softmax", "broadcast_to", "reshape", "ravel",
               "expand_dims", "squeeze", "shape", "dtype", "size",
               # pyasc-dev's LocalTensor (August); an April kernel's visitor refuses these operators
               "__pow__", "__and__", "__or__", "__xor__", "__invert__", "transpose"]
    absent = ["__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmatmul__", "__mod__",
              "__abs__", "__getitem__", "__setitem__",
              "__len__", "__iter__", "maximum", "minimum", "where", "rms_norm", "copy", "store"]
    def defines(cls, name):
        return any(name in vars(c) for c in cls.__mro__ if c is not object)
    assert [n for n in present if not defines(Tile, n)] == []
    assert [n for n in absent if defines(Tile, n)] == []
    assert Tile.__hash__ is None
    assert not hasattr(Tensor, "size") and not hasattr(Tensor, "__getitem__")
    assert "Tile" not in asc2.__all__ and "Tensor" not in asc2.__all__


def test_plain_value_has_reflected_operators():
    from asc.language.core.ir_value import PlainValue
    for n in ("__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__", "__rlshift__",
              "__rrshift__", "__rand__", "__ror__", "__rxor__", "__req__", "__rne__", "__rgt__", "__rge__",
              "__rlt__", "__rle__", "cast", "ceildiv", "logical_and", "logical_or"):
        assert hasattr(PlainValue, n), n


def test_august_tile_attributes_exist_in_august_kernels_only():
    """pyasc-dev's LocalTensor has rank, location and T; April's Tile has none (an April kernel fails as there)."""
    from asc.frontend.errors import CodegenError

    @asctile.jit
    def august(x_ptr, y_ptr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16])
        asctile.static_assert(x.rank == 2)
        asctile.static_assert(x.location != asctile.TensorLocation.L1)
        asctile.copy_out(x.T, asctile.global_tensor(y_ptr, [16, 16]), [0, 0])

    x = np.arange(256, dtype=np.float32).reshape(16, 16)
    y = np.zeros_like(x)
    august[1](x, y)
    np.testing.assert_array_equal(y, x.T)

    @asc2.jit
    def april(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, asc.float32, [16, 16]), [16, 16], offsets=[0, 0])
        asc2.store(x.T, asc2.tensor(y_ptr, asc.float32, [16, 16]), offsets=[0, 0])

    with pytest.raises(CodegenError, match="has no attribute 'T'") as e:
        april[1](x, y)
    assert "asc2.store(x.T" in str(e.value)
