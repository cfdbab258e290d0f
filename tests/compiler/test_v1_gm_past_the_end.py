"""A v1 DMA past the end of a GM argument runs as on the device (no bounds check there): reads past the end
read zeros, writes past the end land nowhere, and each such access is a "past-the-end" launch warning naming
the line, the block, the argument and the bytes."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.ir.faults import KernelRuntimeError

TILE = 512      # upstream's device tests copy a fixed tile whatever the tensor's size


@pytest.fixture(params=["Ascend910B1", "Ascend950PR_9599"])
def platform(request):
    config.set_platform(config.Backend.Model, getattr(config.Platform, request.param))
    yield request.param
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


@asc.jit
def add_fixed_tile(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int):
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    y_gm.set_global_buffer(y + offset, block_length)
    z_gm.set_global_buffer(z + offset, block_length)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, TILE)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, TILE * 4, TILE)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, TILE * 8, TILE)
    asc.data_copy(a, x_gm, TILE)
    asc.data_copy(b, y_gm, TILE)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(c, a, b, TILE)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, c, TILE)


COPY_LINE = inspect.getsourcelines(add_fixed_tile.fn)[1] + 12
STORE_LINE = COPY_LINE + 7


def test_a_fixed_tile_over_a_small_tensor_runs_and_computes_every_element(platform):
    # 4 blocks of 40 elements each copy 512: each block reads and writes past the end of every argument, and
    # the blocks write the elements of the later ones with identical values (allowed, as on the device)
    n, blocks = 160, 4
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, np.float32)
    z = np.zeros(n, np.float32)
    add_fixed_tile[blocks](x, y, z, n // blocks)
    np.testing.assert_array_equal(z, x + y)
    warnings = add_fixed_tile.last_launch["warnings"]
    past = [w for w in warnings if "past-the-end" in w]
    assert len(past) == 3 * blocks, warnings          # one per access: x, y read and z written, per block
    for b in range(blocks):
        end = b * 40 * 4 + TILE * 4
        for arg, line, verb in (("x", COPY_LINE, "reads"), ("y", COPY_LINE + 1, "reads"), ("z", STORE_LINE, "writes")):
            assert any(w.startswith(f"test_v1_gm_past_the_end.py:{line}: past-the-end: data_copy (block {b}) {verb} "
                                    f"bytes [{n * 4}, {end}) past the end of GM '{arg}', which has {n * 4} bytes "
                                    f"({n} elements)") for w in past), (b, arg, past)
    assert all(w.startswith("test_v1_gm_past_the_end.py:") for w in past)


def test_an_access_ending_at_the_last_byte_is_not_past_the_end(platform):
    n = TILE
    x, y, z = np.ones(n, np.float32), np.ones(n, np.float32), np.zeros(n, np.float32)
    add_fixed_tile[1](x, y, z, n)
    assert add_fixed_tile.last_launch["warnings"] == []
    np.testing.assert_array_equal(z, 2)


def test_one_granule_past_the_end_is_reported_with_its_bytes(platform):
    n = TILE - 8      # the copy's last 32 bytes lie past the end
    x, y, z = np.ones(n, np.float32), np.ones(n, np.float32), np.zeros(n, np.float32)
    add_fixed_tile[1](x, y, z, n)
    past = [w for w in add_fixed_tile.last_launch["warnings"] if "past-the-end" in w]
    assert len(past) == 3 and all(f"bytes [{n * 4}, {TILE * 4}) past the end" in w for w in past), past
    np.testing.assert_array_equal(z, 2)


@asc.jit
def copy_through(x: asc.GlobalAddress, z: asc.GlobalAddress, count: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, count)
    asc.data_copy(a, x_gm, count)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, a, count)


def test_reads_past_the_end_are_zeros_and_writes_past_the_end_land_nowhere(platform):
    host = np.full(64, 7.0, np.float32)            # z is the first 8 elements of a larger host array
    x = np.arange(1, 9, dtype=np.float32)
    copy_through[1](x, host[:8], 16)
    np.testing.assert_array_equal(host[:8], x)
    np.testing.assert_array_equal(host[8:], 7.0)    # the 8 elements written past z's end did not reach the host
    # what was read past x's end is zeros: copy 16 from an 8-element x into a 16-element z
    z = np.full(16, 7.0, np.float32)
    copy_through[1](x, z, 16)
    np.testing.assert_array_equal(z, np.concatenate([x, np.zeros(8, np.float32)]))


@asc.jit
def overlapping_blocks_different_values(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * 8)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 16)
    asc.data_copy(a, x_gm, 16)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, a, 16)


def test_blocks_writing_different_values_over_each_other_stay_an_error(platform):
    x = np.arange(24, dtype=np.float32)
    z = np.zeros(16, np.float32)
    with pytest.raises(KernelRuntimeError, match="with different values"):
        overlapping_blocks_different_values[2](x, z)


@asc.jit
def scalar_past_the_end(x: asc.GlobalAddress, i: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    x_gm.set_value(i, 1.0)


def test_scalar_accesses_past_the_end_stay_an_error(platform):
    x = np.zeros(8, np.float32)
    scalar_past_the_end[1](x, 7)
    assert x[7] == 1.0
    with pytest.raises(KernelRuntimeError, match=r"writes bytes \[32, 36\) of GM 'x', which has 32 bytes"):
        scalar_past_the_end[1](x, 8)
