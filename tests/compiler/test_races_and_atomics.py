"""Global-memory races between blocks and atomic updates (spec §2.12); offsets, tails, alignment, scalar
access and bounds are in test_memory.py."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import asc
import asc2
from asc.frontend.errors import CodegenError
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn


# -- races ----------------------------------------------------------------------------------------------------------
def test_two_blocks_storing_the_same_elements_is_a_race():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, step: int):
        o_gm = asc2.tensor(out_ptr, [256])
        asc2.store(asc2.full([64], 1.0) + asc2.block_idx(), o_gm, offsets=[asc2.block_idx() * step])
    out = np.zeros(256, np.float32)
    k[4](out, 64)                    # disjoint: fine
    np.testing.assert_array_equal(out, np.repeat(np.arange(1, 5, dtype=np.float32), 64))
    with pytest.raises(KernelRuntimeError, match="store to 'out_ptr'") as e:
        k[4](out, 32)                # windows overlap by half
    text = str(e.value)
    assert "store to 'out_ptr'" in text and "block" in text and "atomic_add" in text


def test_reading_what_another_block_wrote_is_a_race():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress):
        g = asc2.tensor(buf_ptr, [128])
        b = asc2.block_idx()
        asc2.store(asc2.full([64], 1.0), g, offsets=[b * 64])
        t = asc2.load(g, [64], offsets=[(1 - b) * 64])
        asc2.store(t, g, offsets=[b * 64])
    with pytest.raises(KernelRuntimeError, match="reads data written by block"):
        k[2](np.zeros(128, np.float32))


def test_reading_what_another_block_overwrites_later_is_a_race():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress):
        g = asc2.tensor(buf_ptr, [asc2.block_num() * 64])
        b = asc2.block_idx()
        t = asc2.load(g, [64], offsets=[((b + 1) % asc2.block_num()) * 64])   # the neighbour's region
        asc2.store(t + 1.0, g, offsets=[b * 64])                               # which another block reads
    with pytest.raises(KernelRuntimeError, match="store to 'buf_ptr' overwrites elements block 3 read in the same launch") as e:
        k[4](np.arange(256, dtype=np.float32))
    text = str(e.value)
    assert "store to 'buf_ptr' overwrites elements block 3 read in the same launch" in text  # block 0's region
    assert "in block(s) [0, 1, 2, 3]" in text and "two kernel launches" in text


def test_overwriting_a_region_two_blocks_read_is_a_race():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, WRITE_SHARED: asc.ConstExpr[bool]):
        g = asc2.tensor(buf_ptr, [asc2.block_num() * 64 + 64])
        o = asc2.tensor(out_ptr, [asc2.block_num() * 64])
        b = asc2.block_idx()
        table = asc2.load(g, [64], offsets=[0])                     # every block reads the shared head
        mine = asc2.load(g, [64], offsets=[(b + 1) * 64])
        asc2.store(table + mine, o, offsets=[b * 64])
        if WRITE_SHARED:
            if b == 0:
                asc2.store(table * 0.0, g, offsets=[0])             # block 0 clears what the others read
        else:
            asc2.store(mine * 2.0, g, offsets=[(b + 1) * 64])       # each block rewrites its own part
    buf = np.arange(5 * 64, dtype=np.float32)
    out = np.zeros(4 * 64, np.float32)
    k[4](buf, out, False)
    np.testing.assert_array_equal(out, np.tile(np.arange(64, dtype=np.float32), 4) + np.arange(64, 5 * 64))
    np.testing.assert_array_equal(buf[64:], 2 * np.arange(64, 5 * 64))
    with pytest.raises(KernelRuntimeError, match=r"overwrites elements block [123] read in the same launch"):
        k[4](np.arange(5 * 64, dtype=np.float32), out, True)


def test_the_same_array_as_input_and_output_shares_race_checks():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, shift: int):
        n = asc2.block_num() * 64
        b = asc2.block_idx()
        t = asc2.load(asc2.tensor(x_ptr, [n]), [64], offsets=[((b + shift) % asc2.block_num()) * 64])
        asc2.store(t + 1.0, asc2.tensor(out_ptr, [n]), offsets=[b * 64])
    x = np.arange(256, dtype=np.float32)
    k[4](x, x, 0)                                        # each block updates its own part in place
    np.testing.assert_array_equal(x, np.arange(256) + 1)
    with pytest.raises(KernelRuntimeError, match="store to 'out_ptr' overwrites elements block 3 read"):
        k[4](x, x, 1)                                    # block 0 overwrites the part block 3 read (as x)


def test_in_place_update_of_the_same_tiles_by_other_blocks_is_a_race():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, REVERSED: asc.ConstExpr[bool]):
        g = asc2.tensor(x_ptr, [asc2.block_num() * 64])
        b = asc2.block_idx()
        t = asc2.load(g, [64], offsets=[b * 64])
        dst = (asc2.block_num() - 1 - b) * 64 if REVERSED else b * 64
        asc2.store(t * 2.0, g, offsets=[dst])            # the same set of tiles, maybe each by another block
    x = np.arange(256, dtype=np.float32)
    k[4](x, False)
    np.testing.assert_array_equal(x, 2 * np.arange(256))
    with pytest.raises(KernelRuntimeError, match="overwrites elements block 0 read in the same launch"):
        k[4](x, True)                                     # block 3 writes tile 0, which block 0 read


def test_a_block_may_reread_its_own_output():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress):
        g = asc2.tensor(buf_ptr, [128])
        off = asc2.block_idx() * 64
        asc2.store(asc2.full([64], 2.0), g, offsets=[off])
        asc2.store(asc2.load(g, [64], offsets=[off]) * 3.0, g, offsets=[off])
    buf = np.zeros(128, np.float32)
    k[2](buf)
    assert np.all(buf == 6)


# -- atomics --------------------------------------------------------------------------------------------------------
@asc2.jit
def atomic_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, R: asc.ConstExpr[int],
                  C: asc.ConstExpr[int], fn: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, [asc2.block_num() * R, C])
    o_gm = asc2.tensor(out_ptr, [R, C])
    fn(asc2.load(x_gm, [R, C], offsets=[asc2.block_idx() * R, 0]), o_gm, [0, 0])


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("kind", ["add", "max", "min"])
def test_atomics_from_many_blocks_are_exact(kind, dtype):
    blocks = 16
    x = np.random.default_rng(35).integers(-50, 50, (blocks * 2, 32)).astype(dtype)
    init = np.random.default_rng(36).integers(-50, 50, (2, 32)).astype(dtype)
    out = init.copy()
    atomic_kernel[blocks](x, out, 2, 32, getattr(asc2, f"atomic_{kind}"))
    per_block = x.reshape(blocks, 2, 32).astype(np.int64)
    expected = {"add": init + per_block.sum(axis=0), "max": np.maximum(init, per_block.max(axis=0)),
                "min": np.minimum(init, per_block.min(axis=0))}[kind]
    np.testing.assert_array_equal(out.astype(np.int64), expected)


def test_atomic_and_plain_store_on_the_same_elements_is_a_race():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o_gm = asc2.tensor(out_ptr, [32])
        if asc2.block_idx() == 0:
            asc2.store(asc2.full([32], 1.0), o_gm, offsets=[0])
        else:
            asc2.atomic_add(asc2.full([32], 1.0), o_gm, [0])
    with pytest.raises(KernelRuntimeError, match="overlaps elements written by"):
        k[2](np.zeros(32, np.float32))


def test_atomic_dtype_must_match():
    x = np.zeros((2, 32), np.float32)
    with pytest.raises(CodegenError, match="same element type"):
        atomic_kernel[1](x, np.zeros((2, 32), np.float16), 2, 32, asc2.atomic_add)


@pytest.mark.parametrize("lib", ["numpy", "torch"])
def test_the_same_array_passed_as_input_and_output(lib):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        asc2.store(x * 2.0, asc2.tensor(out_ptr, [64]), offsets=[0])
        asc2.store(x + 1.0, asc2.tensor(y_ptr, [64]), offsets=[0])   # the tile loaded before the store
    a = np.arange(64, dtype=np.float32)
    orig = a.copy()
    y = np.zeros(64, np.float32)
    if lib == "torch":
        a, y = torch.from_numpy(a), torch.from_numpy(y)
    k[1](a, a, y)
    np.testing.assert_array_equal(np.asarray(a), orig * 2)
    np.testing.assert_array_equal(np.asarray(y), orig + 1)


def test_in_place_elementwise_kernel():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [n])
        o_gm = asc2.tensor(out_ptr, [n])
        for i in asc2.range(asc2.block_idx(), asc.ceildiv(n, T), asc2.block_num(), unroll_factor=2, parallel=True):
            asc2.store(asc2.abs(asc2.load(x_gm, [T], offsets=[i * T])) + 1.0, o_gm, offsets=[i * T])
    x = randn(1000, np.float32, seed=37)
    expected = np.abs(x) + 1
    k[4](x, x, x.size, 128)
    np.testing.assert_array_equal(x, expected)
