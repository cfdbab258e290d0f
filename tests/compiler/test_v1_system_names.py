"""pyasc v1's system, debug and scalar names as they behave for one kernel on one card, the LocalTensor /
GlobalTensor methods of the docstrings, and the module paths upstream code imports."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.ir.faults import KernelRuntimeError

N = 64
SEEN = []


def seen_once(expected):
    """What the kernel body handed back: once, or twice when ASC_REPLAY=verify runs the launch again."""
    return SEEN in (expected, expected * 2)


@pytest.fixture(params=["Ascend910B1", "Ascend950PR_9599"])
def platform(request):
    config.set_platform(config.Backend.Model, getattr(config.Platform, request.param))
    SEEN.clear()
    yield request.param
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


# -- scalar bit helpers (upstream's docstring examples, then the edges) ----------------------------------
def test_scalar_bit_helpers_count_64_bit_words():
    assert asc.scalar_get_sff_value(28, 1) == 2 and asc.scalar_get_sff_value(28, 0) == 0
    assert asc.scalar_get_sff_value(0, 1) == -1 and asc.scalar_get_sff_value(2**64 - 1, 0) == -1
    assert asc.scalar_get_sff_value(1 << 63, 1) == 63
    assert asc.scalar_get_count_of_value(0xFFFF, 1) == 16 and asc.scalar_get_count_of_value(0xFFFF, 0) == 48
    assert asc.scalar_get_count_of_value(-1, 1) == 64          # -1 is all ones as a uint64
    assert asc.scalar_count_leading_zero(0x0FFFFFFFFFFFFFFF) == 4
    assert asc.scalar_count_leading_zero(0) == 64 and asc.scalar_count_leading_zero(1 << 63) == 0
    assert asc.count_bits_cnt_same_as_sign_bit(0x0F00000000000000) == 3
    assert asc.count_bits_cnt_same_as_sign_bit(0) == -1 and asc.count_bits_cnt_same_as_sign_bit(-1) == -1
    assert asc.count_bits_cnt_same_as_sign_bit(-2) == 62 and asc.count_bits_cnt_same_as_sign_bit(1) == 62
    with pytest.raises(ValueError, match="count_value=2"):
        asc.scalar_get_count_of_value(5, 2)


# -- system values -----------------------------------------------------------------------------------------
@asc.jit(always_compile=True)
def system_values(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    asc.init_soc_state()
    asc.icache_preload(2)
    asc.data_cache_preload(x_gm, 0)
    asc.metrics_prof_start()
    before = asc.get_sys_workspace()
    asc.set_sys_workspace(x)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    c0 = asc.get_system_cycle()
    asc.data_copy(a, x_gm, N)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    c1 = asc.get_system_cycle()
    asc.data_sync_barrier(asc.MemDsbT.ALL)
    asc.data_cache_clean_and_invalid(asc.CacheLine.ENTIRE_DATA_CACHE, z_gm, asc.DcciDst.CACHELINE_OUT)
    asc.data_copy(z_gm, a, N)
    asc.metrics_prof_stop()
    SEEN.append(dict(before=before, workspace=asc.get_sys_workspace() is x, hccl=asc.get_hccl_context(0),
                     status=asc.get_icache_preload_status(), block_bytes=asc.get_data_block_size_in_bytes(),
                     sub=(asc.get_sub_block_idx(), asc.get_sub_block_num(), asc.get_task_ratio()),
                     arch=asc.get_arch_version(0), cycles=(c0, c1), pc=asc.get_program_counter()))


def test_system_names_give_the_values_of_one_kernel_on_one_card(platform):
    x = np.arange(N, dtype=np.float32)
    z = np.zeros_like(x)
    system_values[1](x, z)
    np.testing.assert_array_equal(z, x)
    s = SEEN[0]
    assert s["before"] == 0 and s["workspace"] and s["hccl"] == 0 and s["status"] == 0
    assert s["block_bytes"] == 32 and s["sub"] == (0, 1, 1)
    assert s["arch"] == (220 if platform == "Ascend910B1" else 310)
    c0, c1 = s["cycles"]
    assert 0 <= c0 < c1                # the copy and the barrier took modelled time (a 50 MHz counter)
    assert s["pc"] > 0
    assert system_values.last_launch["warnings"] == []


@asc.jit
def traps(x: asc.GlobalAddress):
    if asc.get_block_idx() == 1:
        asc.trap()


def test_trap_stops_the_kernel_at_its_line(platform):
    line = inspect.getsourcelines(traps.fn)[1] + 3
    with pytest.raises(KernelRuntimeError, match=rf"test_v1_system_names.py:{line}: asc.trap\(\): the kernel "
                       "stopped here"):
        traps[2](np.zeros(8, np.float32))
    traps[1](np.zeros(8, np.float32))      # block 0 does not trap


# -- debug output ----------------------------------------------------------------------------------------
@asc.jit
def dumps(x: asc.GlobalAddress, path: asc.ConstExpr[str], synced: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 16)
    asc.data_copy(a, x_gm, 16)
    if synced:
        asc.set_flag(asc.HardEvent.MTE2_S, 0)
        asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    asc.printf("block %d of %d\n", asc.get_block_idx(), asc.get_block_num())
    asc.dump_tensor(a, 7, 8)
    a.print(8)
    a.to_file(path)


def test_dumps_print_the_values_and_read_on_the_scalar_unit(platform, tmp_path, capsys):
    x = np.arange(16, dtype=np.float32)
    path = str(tmp_path / "a.bin")
    dumps[1](x, path, True)
    out = capsys.readouterr().out
    assert "block 0 of 1\n" in out
    assert "DumpTensor: desc=7, addr=0, data_type=float32, position=VECIN\n[0. 1. 2. 3. 4. 5. 6. 7.]" in out
    assert "0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0\n" in out           # Print: one 32-byte block per line
    np.testing.assert_array_equal(np.fromfile(path, np.float32), x)
    # a dump reads on the scalar unit: without the MTE2 -> S flag it races with the copy
    with pytest.raises(KernelRuntimeError, match="read-after-write race .* between pipes MTE2 and S"):
        dumps[1](x, path, False)


# -- tensor methods ---------------------------------------------------------------------------------------
@asc.jit(always_compile=True)
def tensor_methods(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    whole = asc.GlobalTensor()
    whole.set_global_buffer(x, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(x_gm.get_phy_addr(8) + 0)        # an address a GlobalTensor can be set to
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf=buf, len=N * 4)
    t = buf.get(asc.float32)
    h = asc.LocalTensor(asc.float16)
    h.set_addr_with_offset(t, 8)                           # 8 float32 elements on: byte 32
    t.set_user_tag(5)
    SEEN.append(dict(sizes=(x_gm.get_size(), whole.get_size()), phy=h.get_phy_addr(), h_size=h.get_size(),
                     tag=t.get_user_tag(), pos=t.get_position(), length=t.get_length()))
    t.set_buffer_len(64)
    SEEN.append((t.get_size(), t.get_length()))
    t.set_size(N)
    whole.set_shape_info(asc.ShapeInfo(asc.array(asc.int32, (8, 8))))
    whole.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_LAST, asc.CacheRwMode.READ)     # a hint: no value changes
    SEEN.append((whole.get_shape_info().shape, asc.array(asc.int32, 3, 7).values))
    asc.data_copy(t, z_gm, N - 8)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    out = asc.GlobalTensor()
    out.set_global_buffer(z)
    asc.data_copy(out, t, N - 8)


def test_tensor_methods_follow_the_docstrings(platform):
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N - 8, np.float32)
    tensor_methods[1](x, z)
    first, (size, length), shape = SEEN[:3]
    assert first["sizes"] == (0, N)          # get_size is 0 when set_global_buffer had only the address
    assert first["phy"] == 32 and first["h_size"] == (N - 8) * 2      # the rest of t, as float16 elements
    assert first["tag"] == 5 and first["pos"] == int(asc.TPosition.VECCALC) and first["length"] == N * 4
    assert (size, length) == (16, 64)
    assert shape == ((8, 8), (7, 7, 7))      # asc.array(dtype, length, fill_value)
    np.testing.assert_array_equal(z, x[8:])


# -- module paths and mock arguments ---------------------------------------------------------------------
def test_upstream_module_paths_import():
    from asc.language.core.dtype import KnownTypes
    from asc.language.fwk import TBuf, TBufPool, TPipe, TQue, TQueBind, get_tpipe_ptr  # noqa: F401
    from asc.language.basic import data_copy, mmad, load_image_to_local
    from asc.language.core import GlobalTensor, TPosition
    from asc.runtime.jit import MockTensor, MockValue  # noqa: F401
    assert KnownTypes.half is asc.float16 and KnownTypes.int_ is asc.int32 and KnownTypes.bool_ is asc.int8
    assert TPipe is asc.TPipe and data_copy is asc.data_copy and GlobalTensor is asc.GlobalTensor
    assert TPosition is asc.TPosition and mmad is asc.mmad
    from asc.language.v1.names import NotSupportedByEngineError
    with pytest.raises(NotSupportedByEngineError, match=r"asc\.load_image_to_local is not supported by this engine"):
        load_image_to_local(None, None, None)


@asc.jit(always_compile=True)
def mocked(x: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 16)
    asc.data_copy(a, x_gm, 16)
    SEEN.append(n)


def test_mock_arguments_launch_as_an_empty_gm_argument_and_a_zero(platform):
    from asc.runtime.jit import MockTensor, MockValue
    mocked[1](MockTensor(asc.float16), MockValue(asc.int32))
    assert seen_once([0]), SEEN
    warnings = mocked.last_launch["warnings"]
    assert len(warnings) == 1 and "past-the-end: data_copy (block 0) reads bytes [0, 32) past the end of GM " \
        "'x', which has 0 bytes" in warnings[0], warnings
