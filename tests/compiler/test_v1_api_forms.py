"""Every v1 instruction form against numpy: count, mask-int and mask-list forms with repeat strides, the
data_copy count round-down and DataCopyParams strides, UB -> UB copies, scalar ops, fp16 rounding."""
from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import asc

F32, F16 = asc.float32, asc.float16


@asc.jit
def unary_case(x: asc.GlobalAddress, z: asc.GlobalAddress, op: asc.ConstExpr[str], n: asc.ConstExpr[int],
               scalar: asc.ConstExpr[float], form: asc.ConstExpr[str]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, n)
    asc.data_copy(a, x_gm, n)
    asc.data_copy(b, z_gm, n)           # the destination starts as z's contents (inactive lanes keep them)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    fn = asc.__dict__[op]             # (a kernel has no getattr: the ConstExpr name looked up in the module)
    args = () if op in ("exp", "sqrt", "abs", "relu", "ln") else (scalar,)
    if form == "count":
        fn(b, a, *args, n)
    elif form == "mask":
        fn(b, a, *args, 20, repeat_times=2, repeat_params=asc.UnaryRepeatParams(1, 1, 8, 8))
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, n)


UNARY = {"exp": np.exp, "sqrt": np.sqrt, "abs": np.abs, "relu": lambda v: np.maximum(v, 0), "ln": np.log}
SCALAR = {"adds": lambda v, s: v + s, "muls": lambda v, s: v * s, "maxs": np.maximum, "mins": np.minimum,
          "leaky_relu": lambda v, s: np.where(v >= 0, v, v * s), "axpy": None}


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op", list(UNARY) + list(SCALAR))
def test_unary_and_scalar_ops_count_form(op, dtype):
    n = 256
    rng = np.random.default_rng(3)
    x = (rng.random(n) * 4 - 2).astype(dtype)
    if op in ("sqrt", "ln"):
        x = np.abs(x) + dtype(0.5)
    z0 = (rng.random(n)).astype(dtype)
    z = z0.copy()
    s = 0.75
    unary_case[1](x, z, op, n, s, "count")
    if op in UNARY:
        want = UNARY[op](x).astype(dtype)
    elif op == "axpy":
        want = ((x * dtype(s)).astype(dtype) + z0).astype(dtype)
    else:
        want = SCALAR[op](x, dtype(s)).astype(dtype)
    np.testing.assert_array_equal(z, want)


def test_mask_int_form_with_repeats_touches_only_the_active_lanes():
    n = 256
    x = np.arange(n, dtype=np.float32)
    z = np.full(n, -1, np.float32)
    unary_case[1](x, z, "adds", n, 1.0, "mask")     # mask 20, 2 repeats of 64 fp32 lanes
    want = np.full(n, -1, np.float32)
    for r in range(2):
        want[r * 64: r * 64 + 20] = x[r * 64: r * 64 + 20] + 1
    np.testing.assert_array_equal(z, want)


@asc.jit
def binary_case(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, op: asc.ConstExpr[str],
                n: asc.ConstExpr[int], form: asc.ConstExpr[str], mask: asc.ConstExpr[object],
                repeats: asc.ConstExpr[int], strides: asc.ConstExpr[tuple]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 16384, n)
    c = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 32768, n)
    asc.data_copy(a, x_gm, n)
    asc.data_copy(b, y_gm, n)
    asc.data_copy(c, z_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    fn = asc.__dict__[op]             # (a kernel has no getattr: the ConstExpr name looked up in the module)
    if form == "count":
        fn(c, a, b, count=n)
    else:
        fn(c, a, b, mask, repeat_times=repeats, repeat_params=asc.BinaryRepeatParams(*strides))
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, c, n)


BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": np.maximum,
          "min": np.minimum}


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op", list(BINARY))
def test_binary_ops_count_form_round_in_their_dtype(op, dtype):
    n = 512
    rng = np.random.default_rng(5)
    x, y = (rng.random(n) + 0.5).astype(dtype), (rng.random(n) + 0.5).astype(dtype)
    z = np.zeros(n, dtype)
    binary_case[1](x, y, z, op, n, "count", 0, 0, ())
    np.testing.assert_array_equal(z, BINARY[op](x, y).astype(dtype))


def _expected_mask(x, y, z, mask_bits, repeats, strides, lanes):
    per_blk = lanes // 8
    d_b, s0_b, s1_b, d_r, s0_r, s1_r = strides
    out = z.copy()
    for r in range(repeats):
        for k in np.nonzero(mask_bits)[0]:
            b, e = divmod(int(k), per_blk)
            di, xi, yi = ((r * rr + b * bb) * per_blk + e for bb, rr in ((d_b, d_r), (s0_b, s0_r), (s1_b, s1_r)))
            out[di] = x[xi] + y[yi]
    return out


@pytest.mark.parametrize("dtype,lanes", [(np.float32, 64), (np.float16, 128)])
@pytest.mark.parametrize("strides", [(1, 1, 1, 8, 8, 8), (2, 1, 1, 16, 8, 8), (1, 2, 1, 8, 16, 8), (1, 1, 1, 4, 8, 8)])
def test_mask_list_form_with_block_and_repeat_strides(dtype, lanes, strides):
    n = 1024
    rng = np.random.default_rng(11)
    x, y = rng.random(n).astype(dtype), rng.random(n).astype(dtype)
    z = np.full(n, 7, dtype)
    m0, m1 = 0xF0F0_0000_FFFF_0F0F, 0x0000_FFFF_0000_0001
    bits = np.array([(m0 >> k) & 1 for k in range(64)] + [(m1 >> k) & 1 for k in range(64)], dtype=bool)[:lanes]
    binary_case[1](x, y, z, "add", n, "mask", [m0, m1], 3, strides)
    np.testing.assert_array_equal(z, _expected_mask(x, y, np.full(n, 7, dtype), bits, 3, strides, lanes))


def test_mask_int_binary_form_positional_int_is_the_mask():
    n = 256
    x, y = np.arange(n, dtype=np.float32), np.ones(n, np.float32)
    z = np.zeros(n, np.float32)
    binary_case[1](x, y, z, "add", n, "mask", 64, 2, (1, 1, 1, 8, 8, 8))
    want = np.zeros(n, np.float32)
    want[:128] = x[:128] + 1
    np.testing.assert_array_equal(z, want)


@asc.jit
def copies(x: asc.GlobalAddress, z: asc.GlobalAddress, count: asc.ConstExpr[int], strided: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 1024)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, 1024)
    if strided:
        # 4 runs of 2 blocks (16 fp32), skipping 1 block in GM, packed in UB; written back 2 blocks apart
        asc.data_copy(a, x_gm, repeat_params=asc.DataCopyParams(4, 2, 1, 0))
    else:
        asc.data_copy(a, x_gm, count)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(b, a, 1024)            # UB -> UB on V
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    if strided:
        asc.data_copy(z_gm, b, repeat_params=asc.DataCopyParams(4, 2, 0, 2))
    else:
        asc.data_copy(z_gm, b, count)


def test_count_form_copies_round_down_to_32_bytes():
    x = np.arange(1024, dtype=np.float32) + 1
    z = np.zeros(1024, np.float32)
    copies[1](x, z, 13, False)            # 52 bytes -> 32 bytes: 8 elements
    np.testing.assert_array_equal(z[:8], x[:8])
    assert not z[8:].any()


def test_data_copy_params_strides_count_32_byte_blocks_on_both_sides():
    x = np.arange(1024, dtype=np.float32)
    z = np.zeros(1024, np.float32)
    copies[1](x, z, 0, True)
    want = np.zeros(1024, np.float32)
    for i in range(4):
        want[i * 32: i * 32 + 16] = x[i * 24: i * 24 + 16]
    np.testing.assert_array_equal(z, want)


@asc.jit
def dup(z: asc.GlobalAddress, form: asc.ConstExpr[str]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    b = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 0, 256)
    asc.data_copy(b, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if form == "count":
        asc.duplicate(b, 2.5, 100)
    else:
        asc.duplicate(b, 2.5, 8, 2, 2, 16)     # mask 8, 2 repeats, every other block, repeats 16 blocks apart
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, 256)


def test_duplicate_count_and_mask_forms():
    z = np.zeros(256, np.float32)
    dup[1](z, "count")
    np.testing.assert_array_equal(z, np.r_[np.full(100, 2.5), np.zeros(156)].astype(np.float32))
    z = np.zeros(256, np.float32)
    dup[1](z, "mask")
    want = np.zeros(256, np.float32)
    want[0:8] = 2.5
    want[128:136] = 2.5
    np.testing.assert_array_equal(z, want)


@asc.jit
def copy_blocks(x: asc.GlobalAddress, count: asc.ConstExpr[int], length: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 8 * 4096)
    asc.data_copy(a, x_gm, repeat_params=asc.DataCopyParams(count, length, 0, 0))   # line: copy


@asc.jit
def strided_add(x: asc.GlobalAddress, stride: asc.ConstExpr[int]):
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64 * 256)
    asc.duplicate(a, 1.0, 64)
    asc.add(a, a, a, 64, 1, asc.BinaryRepeatParams(1, 1, 1, stride, 8, 8))           # line: add


def _line(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, t in enumerate(lines) if text in t)


def test_instruction_fields_outside_their_hardware_range_fail_at_the_line():
    """DataCopyParams fields are uint16 (block_count 1..4095), BinaryRepeatParams fields uint8."""
    x = np.zeros(8 * 4096, np.float32)
    copy_blocks[1](x, 4095, 1)                   # the largest block count fits
    strided_add[1](x, 255)
    for args, text in (((0, 1), "DataCopyParams.block_count = 0 is outside [1, 4095]"),
                       ((4096, 1), "DataCopyParams.block_count = 4096 is outside [1, 4095]"),
                       ((1, 0), "DataCopyParams.block_len = 0 is outside [1, 65535]")):
        with pytest.raises(ValueError, match=re.escape(text)) as e:
            copy_blocks[1](x, *args)
        assert f"test_v1_api_forms.py:{_line(copy_blocks, '# line: copy')}: " in str(e.value)
    with pytest.raises(ValueError, match=re.escape("BinaryRepeatParams.dst_rep_stride = 256 is outside [0, 255]")):
        strided_add[1](x, 256)


@asc.jit
def one_add(x: asc.GlobalAddress, form: asc.ConstExpr[str], dtype: asc.ConstExpr):
    a = asc.LocalTensor(dtype, asc.TPosition.VECIN, 0, 256)
    asc.duplicate(a, 1, 64)
    if form == "no count":
        asc.add(a, a, a)                                                      # line: add
    elif form == "float count":
        asc.add(a, a, a, 128 / 2)
    elif form == "div":
        asc.div(a, a, a, 64)
    else:
        asc.add(a, a, a, 64)


def test_binary_instructions_need_an_int_count_and_upstreams_dtypes():
    x = np.zeros(256, np.float32)
    one_add[1](x, "ok", asc.int32)                   # add takes int32 (and int16, float16, float32)
    with pytest.raises(TypeError, match=r"add needs an element count or a mask form") as e:
        one_add[1](x, "no count", asc.float32)
    assert f"test_v1_api_forms.py:{_line(one_add, '# line: add')}: " in str(e.value)
    with pytest.raises(TypeError, match=r"add: count must be an int, got 64\.0"):
        one_add[1](x, "float count", asc.float32)
    with pytest.raises(TypeError, match=r"Invalid dst data type, got int32, expect one of float16, float32"):
        one_add[1](x, "div", asc.int32)            # div: floats only
    with pytest.raises(TypeError, match=r"Invalid dst data type, got uint8"):
        one_add[1](x, "ok", asc.uint8)


@asc.jit
def declaration_mistakes(x: asc.GlobalAddress, case: asc.ConstExpr[str]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    if case == "negative address":
        asc.LocalTensor(asc.float32, asc.TPosition.VECIN, -32, 64)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    if case == "count and params":
        asc.data_copy(a, x_gm, 64, asc.DataCopyParams(1, 8, 0, 0))


def test_a_negative_local_address_and_a_copy_with_count_and_params_are_errors():
    x = np.zeros(64, np.float32)
    with pytest.raises(ValueError, match="LocalTensor at byte -32 of 64 elements: neither may be negative"):
        declaration_mistakes[1](x, "negative address")
    with pytest.raises(TypeError, match="data_copy takes a count or repeat_params, not both"):
        declaration_mistakes[1](x, "count and params")


@asc.jit
def via_tpipe_ptr(x: asc.GlobalAddress, z: asc.GlobalAddress, create: asc.ConstExpr[bool]):
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    if create:
        asc.TPipe()
    que = asc.TQue(asc.TPosition.VECIN, 1)
    asc.get_tpipe_ptr().init_buffer(que, 1, 64 * 4)
    a = que.alloc_tensor(asc.float32)
    asc.data_copy(a, x_gm, 64)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, 64)


def test_get_tpipe_ptr_is_the_kernels_one_tpipe():
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    via_tpipe_ptr[1](x, z, True)
    np.testing.assert_array_equal(z, x)
    with pytest.raises(RuntimeError, match=r"TPipe instance is not initialized, use TPipe\(\) to create it"):
        via_tpipe_ptr[1](x, z, False)


@asc.jit
def one_unary(x: asc.GlobalAddress, op: asc.ConstExpr[str], dtype: asc.ConstExpr[object]):
    a = asc.LocalTensor(dtype, asc.TPosition.VECIN, 0, 128)
    b = asc.LocalTensor(dtype, asc.TPosition.VECOUT, 1024, 128)
    asc.__dict__[op](b, a, 128)                                  # line: unary


@pytest.mark.parametrize("op,dtype", [("exp", asc.int16), ("ln", asc.int32), ("sqrt", asc.int16),
                                      ("relu", asc.int16), ("abs", asc.uint16)])
def test_unary_instructions_refuse_element_types_ascend_c_does_not_instantiate(op, dtype):
    """exp of an int16 tensor used to run and leave zeros: Ascend C's Exp has half / float only."""
    x = np.zeros(256, np.float32)
    with pytest.raises(TypeError, match=rf"Invalid dst data type, got {dtype}, expect one of") as e:
        one_unary[1](x, op, dtype)
    assert f"test_v1_api_forms.py:{_line(one_unary, '# line: unary')}: " in str(e.value)
    one_unary[1](x, op, asc.float16)                             # the float types still run


@asc.jit
def mask_form_without_params(x: asc.GlobalAddress, op: asc.ConstExpr[str]):
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 256)
    b = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 1024, 256)
    if op == "add":
        asc.add(b, a, a, 128, 2)                                  # line: add
    elif op == "exp":
        asc.exp(b, a, mask=128, repeat_times=2)                   # line: exp
    else:
        asc.adds(b, a, 2.0, [0xFFFF, 0], 1)                       # line: adds


@pytest.mark.parametrize("op", ["add", "exp", "adds"])
def test_the_mask_form_without_repeat_params_is_refused_as_upstream_does(op):
    """pyasc's dispatcher has no mask overload without repeat_params; the engine used to default it."""
    with pytest.raises(TypeError, match=rf"{op}: the mask form needs mask, repeat_times and repeat_params") as e:
        mask_form_without_params[1](np.zeros(16, np.float32), op)
    assert "pass repeat_params=asc." in str(e.value)
    assert f"test_v1_api_forms.py:{_line(mask_form_without_params, f'# line: {op}')}: " in str(e.value)


@asc.jit
def int_scalar_ops(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w)
    a = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, 128)
    b = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 1024, 128)
    c = asc.LocalTensor(asc.int32, asc.TPosition.VECOUT, 2048, 64)
    asc.data_copy(a, x_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(b, a, -1.5, 128)
    asc.duplicate(c, 2.7, 64)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, 128)
    asc.data_copy(w_gm, c, 64)


def test_a_float_scalar_for_an_integer_tensor_truncates_toward_zero_as_pyasc_materialises_it():
    """pyasc-dev emits ``Adds<int16_t>(..., -1)`` for -1.5 and ``Duplicate<int32_t>(..., 2)`` for 2.7; the engine
    used to refuse both."""
    x = np.arange(-64, 64, dtype=np.int16)
    z, w = np.zeros(128, np.int16), np.zeros(64, np.int32)
    int_scalar_ops[1](x, z, w)
    np.testing.assert_array_equal(z, x - 1)                       # toward zero: -1, not -2 (floor) or -2 (RINT)
    np.testing.assert_array_equal(w, np.full(64, 2, np.int32))    # 2, not 3 (round to nearest)
