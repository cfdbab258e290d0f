"""pyasc v1's remaining enums and parameter records, ``get_shape_size`` and ``static_assert``: upstream's
member values and defaults, and what a kernel sees when it uses them."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
from asc.language.v1.names import NotSupportedByEngineError

N = 64
SEEN = []


def test_enum_values_are_upstreams_including_the_gaps():
    # the hardware's numbering has gaps a 0, 1, 2, ... enumeration would get wrong
    assert [int(m) for m in asc.AippInputFormat] == [0, 1, 4, 9]
    assert asc.AippInputFormat.YUV400_U8 == 9 and asc.AippInputFormat.RGB888_U8 == 4
    assert asc.pad_t.PAD_NONE == 0 and asc.pad_t.PAD_MODE8 == 8 and len(asc.pad_t) == 9
    assert asc.DeqScale.DEQ_NONE == 0 and asc.DeqScale.VDEQ16 == 6
    assert asc.BlockMode.BLOCK_MODE_DEPTHWISE == 4 and asc.DataFormat.NHWC == 4
    assert asc.SoftmaxMode.SOFTMAX_OUTPUT_WITHOUT_BRC == 1


def test_record_defaults_are_upstreams():
    e = asc.DataCopyEnhancedParams()
    assert (e.block_mode, e.deq_scale, e.is_relu_in, e.pad_mode_in) == (asc.BlockMode.BLOCK_MODE_NORMAL,
                                                                         asc.DeqScale.DEQ_NONE, False,
                                                                         asc.pad_t.PAD_NONE)
    s = asc.SliceInfo()
    assert (s.start_index, s.end_index, s.stride, s.burst_len, s.shape_value) == (0, 31, 0, 32, 0)
    assert asc.SliceInfo(2, 9, 1, 8, 4).end_index == 9
    assert asc.LoadData3DParamsV2Pro().filter_config == 0x10101010101
    v1 = asc.LoadData3DParamsV1()
    assert (v1.pad_list, v1.jump_stride, v1.repeat_time) == ((0, 0, 0, 0), 1, 1)
    assert asc.CheckLocalMemoryIAParam(start_addr=64).end_addr == 0
    ok = asc.VdeqInfo([1.0] * 16, [0] * 16, [True] * 16)
    assert ok.sign_mode[15] is True
    with pytest.raises(ValueError, match="exactly 16 elements per field"):
        asc.VdeqInfo([1.0] * 16, [0] * 15, [True] * 16)        # one offset short


@asc.jit(always_compile=True)
def shape_sizes(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    a.set_shape_info(asc.ShapeInfo(asc.array(asc.int32, [2, 4, 8])))
    asc.data_copy(a, x_gm, N)
    SEEN.append((asc.get_shape_size(a.get_shape_info()), asc.get_shape_size(asc.ShapeInfo([])),
                 asc.get_shape_size(asc.ShapeInfo([7, 0, 3])), a.get_shape_info().data_format))


def test_get_shape_size_multiplies_the_dimensions():
    SEEN.clear()
    shape_sizes[1](np.zeros(N, np.float32))
    assert SEEN[0] == (64, 1, 0, asc.DataFormat.ND)


@asc.jit(always_compile=True)
def asserts(x: asc.GlobalAddress, n: int):
    asc.static_assert(n % 16 == 0, "n must be a multiple of 16")
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    SEEN.append(n)


@asc.jit
def asserts_on_a_value(x: asc.GlobalAddress, n: int):
    asc.static_assert(n)


def test_static_assert_stops_the_compile_at_its_line():
    SEEN.clear()
    asserts[1](np.zeros(8, np.float32), 32)
    assert SEEN and SEEN[0] == 32
    line = inspect.getsourcelines(asserts.fn)[1] + 2
    with pytest.raises(AssertionError, match=rf"test_v1_records.py:{line}.*n must be a multiple of 16"):
        asserts[1](np.zeros(8, np.float32), 17)
    with pytest.raises(TypeError, match="expected bool, got int"):
        asserts_on_a_value[1](np.zeros(8, np.float32), 3)


@asc.jit
def enhanced_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, relu: bool):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    params = asc.DataCopyParams(2, 3, 1, 1)        # two runs of 3 blocks, one block skipped after each
    asc.data_copy(a, x_gm, params, asc.DataCopyEnhancedParams(is_relu_in=relu))
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, a, params, asc.DataCopyEnhancedParams())


@pytest.mark.filterwarnings("ignore:.*never written")
def test_data_copy_with_default_enhanced_params_is_the_plain_copy():
    x = np.arange(N, dtype=np.float32) - 20
    z = np.full(N, -1, np.float32)
    enhanced_copy[1](x, z, False)
    want = np.full(N, -1, np.float32)
    want[0:24], want[32:56] = x[0:24], x[32:56]      # the skipped blocks are untouched
    np.testing.assert_array_equal(z, want)
    with pytest.raises(NotSupportedByEngineError, match="DataCopyEnhancedParams other than the default"):
        enhanced_copy[1](x, z, True)


@asc.jit
def load_v1(x: asc.GlobalAddress):
    a1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, 256)
    a2 = asc.LocalTensor(asc.float16, asc.TPosition.A2, 0, 256)
    asc.load_data(a2, a1, asc.LoadData3DParamsV1())


def test_load_data_refuses_the_records_it_does_not_run():
    with pytest.raises(NotSupportedByEngineError, match="load_data with LoadData3DParamsV1"):
        load_v1[1](np.zeros(8, np.float32))
