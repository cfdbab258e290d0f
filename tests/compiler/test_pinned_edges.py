"""Exact edges of the checks a user relies on: a tile that ends exactly at the end of a buffer or tensor
passes and one element more fails; a capacity exactly at its limit passes and one unit more fails (UB,
L0A, L0B, L0C, L1); UB sizes are rounded to 32 bytes (exact ``peak_ub_bytes``); and races are reported
in every order of the two accesses (docs/simulator.md, Memory and sanitizers)."""
from __future__ import annotations

import re

import numpy as np
import pytest
import torch

import asc
import asc2
import asc.runtime.config as config
from asc.frontend.errors import CodegenError
from asc.sim.executor import KernelRuntimeError

C310_UB = 248 * 1024
C220_UB = 192 * 1024


# -- buffer and tensor ends -------------------------------------------------------------------------------------
@asc2.jit
def copy_1d(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    off = asc2.block_idx() * T
    asc2.store(asc2.load(x_gm, [T], offsets=[off]) + 1.0, o_gm, offsets=[off])


def guarded(n, pad=32, fill=-7.0):
    """An n-element float32 view into a larger array whose guard elements must stay untouched."""
    base = np.full(n + 2 * pad, fill, np.float32)
    return base, base[pad:pad + n]


def test_a_tensor_exactly_the_size_of_its_buffer_passes():
    x = np.arange(256, dtype=np.float32)
    base, out = guarded(256)
    copy_1d[4](x, out, 256, 64)                   # the last tile ends exactly at the buffer's end
    np.testing.assert_array_equal(out, x + 1)
    assert np.all(base[:32] == -7) and np.all(base[-32:] == -7)


@pytest.mark.parametrize("n", [257, 258, 320])
def test_a_tensor_one_element_past_its_buffer_fails_and_writes_nothing_outside(n):
    x_base, x = guarded(256, fill=5.0)
    base, out = guarded(256)
    with pytest.raises(KernelRuntimeError, match=re.escape("buffer of 256 elements")):
        copy_1d[5](x, out, n, 64)                 # block 4's tile covers elements 256.. of the tensor
    assert np.all(base[:32] == -7) and np.all(base[-32:] == -7)


@asc2.jit
def copy_rows(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, R: asc.ConstExpr[int],
              first: int):
    x_gm = asc2.tensor(x_ptr, [rows, 32])
    o_gm = asc2.tensor(out_ptr, [rows, 32])
    r = first + asc2.block_idx() * R
    asc2.store(asc2.load(x_gm, [R, 32], offsets=[r, 0]), o_gm, offsets=[r, 0])


def test_a_2d_tile_ending_at_the_last_row_passes_and_one_row_more_fails():
    x = np.arange(10 * 32, dtype=np.float32).reshape(10, 32)
    out = np.zeros_like(x)
    copy_rows[1](x, out, 10, 4, 6)                 # rows 6..9: ends exactly at row 10
    np.testing.assert_array_equal(out[6:], x[6:])
    out2 = np.zeros_like(x)
    with pytest.raises(KernelRuntimeError, match=re.escape("rows beyond the tensor's 10 rows")):
        copy_rows[1](x, out2, 10, 4, 7)            # rows 7..10: one row past the end
    assert np.all(out2 == 0)


def test_a_tensor_view_of_all_rows_fits_and_one_row_more_exceeds_the_buffer():
    x = np.arange(8 * 32, dtype=np.float32).reshape(8, 32)
    out = np.zeros_like(x)
    copy_rows[2](x, out, 8, 4, 0)
    np.testing.assert_array_equal(out, x)
    with pytest.raises(KernelRuntimeError, match=re.escape("buffer of 256 elements")):
        copy_rows[1](x, np.zeros_like(x), 9, 1, 8)  # a 9-row tensor over an 8-row buffer, reading row 8


def test_scalar_access_at_the_last_element_passes_and_one_past_fails():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, i: int):
        v = asc2.load(asc2.tensor(x_ptr, [64]), offsets=[i])
        asc2.store(asc2.full([8], v, dtype=asc.float32), asc2.tensor(out_ptr, [8]), offsets=[0])
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(8, np.float32)
    k[1](x, out, 63)
    assert np.all(out == 63)
    with pytest.raises(KernelRuntimeError, match=re.escape("outside the tensor: offsets [64], shape [64]")):
        k[1](x, out, 64)
    with pytest.raises(KernelRuntimeError, match="negative offsets|outside the tensor"):
        k[1](x, out, -1)


# -- UB capacity and 32-byte rounding -----------------------------------------------------------------------------
@asc2.jit
def ub_1d(x_ptr: asc.GlobalAddress, N: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [N])
    asc2.store(asc2.load(x_gm, [N], offsets=[0]), x_gm, offsets=[0])


@pytest.mark.parametrize("dtype,n,peak", [
    (np.float32, C310_UB // 4, C310_UB),           # exactly the UB
    (np.float32, C310_UB // 4 - 7, C310_UB),       # 28 bytes less still takes the whole last 32-byte block
    (np.int8, 1, 32), (np.int8, 32, 32), (np.int8, 33, 64), (np.float16, 17, 64), (np.float32, 9, 64),
])
def test_ub_tiles_are_rounded_up_to_32_bytes(dtype, n, peak):
    x = np.ones(n, dtype)
    ub_1d[1](x, n)
    assert ub_1d.last_launch["peak_ub_bytes"] == peak


@pytest.mark.parametrize("dtype,n,used", [(np.float32, C310_UB // 4 + 1, C310_UB + 32),
                                          (np.int8, C310_UB + 1, C310_UB + 32)])
def test_one_byte_over_the_ub_is_an_overflow(dtype, n, used):
    x = np.ones(n, dtype)
    with pytest.raises(RuntimeError, match=re.escape(f"UB overflow: {C310_UB} is available, {used} is used.")):
        ub_1d[1](x, n)
    assert np.all(x == 1)


def test_ub_limit_of_the_c220_platform_is_exact():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.ones(C220_UB // 4, np.float32)
    ub_1d[1](x, x.size)
    assert ub_1d.last_launch["peak_ub_bytes"] == C220_UB
    y = np.ones(C220_UB // 4 + 8, np.float32)
    with pytest.raises(RuntimeError, match=re.escape(f"UB overflow: {C220_UB} is available, {C220_UB + 32} is used.")):
        ub_1d[1](y, y.size)


@asc2.jit
def two_tiles(x_ptr: asc.GlobalAddress, A: asc.ConstExpr[int], B: asc.ConstExpr[int]):
    a = asc2.load(asc2.tensor(x_ptr, [A]), [A], offsets=[0])
    b = asc2.load(asc2.tensor(x_ptr, [B]), [B], offsets=[0])
    asc2.store(a, asc2.tensor(x_ptr, [A]), offsets=[0])
    asc2.store(b, asc2.tensor(x_ptr, [B]), offsets=[0])


def test_each_tile_is_rounded_on_its_own():
    x = np.ones(64, np.int8)
    two_tiles[1](x, 1, 33)                         # 1 -> 32 and 33 -> 64: 96, not round(34) = 64
    assert two_tiles.last_launch["peak_ub_bytes"] == 96


# -- fused row ops: their temporaries take UB too -------------------------------------------------------------
@asc2.jit
def row_op(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, R: asc.ConstExpr[int],
           C: asc.ConstExpr[int], RMS: asc.ConstExpr[bool]):
    x = asc2.load(asc2.tensor(x_ptr, [R, C]), [R, C], offsets=[0, 0])
    if RMS:
        g = asc2.load(asc2.tensor(g_ptr, [1, C]), [1, C], offsets=[0, 0])
        y = asc2.rms_norm(x, g, 1e-5)
    else:
        y = asc2.softmax(x)
    asc2.store(y, asc2.tensor(out_ptr, [R, C]), offsets=[0, 0])


@pytest.mark.parametrize("rms", [False, True], ids=["softmax", "rms_norm"])
def test_row_op_temporaries_count_towards_ub(rms):
    g = np.ones((1, 1024), np.float32)
    x = np.random.default_rng(3).standard_normal((8, 1024)).astype(np.float32)
    out = np.zeros_like(x)
    row_op[1](x, g, out, 8, 1024, rms)            # input + result + two result-sized temporaries
    assert row_op.last_launch["peak_ub_bytes"] == 4 * 8 * 4096 + (4096 if rms else 0)
    x = np.zeros((16, 1024), np.float32)           # 64 KiB in, 64 KiB out, 128 KiB of temporaries
    used = 4 * 16 * 4096 + (4096 if rms else 0)
    with pytest.raises(RuntimeError, match=re.escape(f"UB overflow: {C310_UB} is available, {used} is used.")):
        row_op[1](x, g, np.zeros_like(x), 16, 1024, rms)


# -- L1 / L0A / L0B / L0C: exactly the capacity passes, one row more fails ------------------------------------------
@asc2.jit(always_compile=True)
def cube_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int], STAGE: asc.ConstExpr[bool]):
    a_gm = asc2.tensor(a_ptr, [M, K])
    b_gm = asc2.tensor(b_ptr, [K, N])
    if STAGE:
        a1 = asc2.load(a_gm, [M, K], offsets=[0, 0], location=asc2.TileLocation.L1)
        a = asc2.copy(a1, location=asc2.TileLocation.L0A)
    else:
        a = asc2.load(a_gm, [M, K], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(b_gm, [K, N], offsets=[0, 0], location=asc2.TileLocation.L0B)
    asc2.store(a @ b, asc2.tensor(c_ptr, [M, N]), offsets=[0, 0])


def _cube(M, K, N, stage=False, dtype=torch.float16):
    g = torch.Generator().manual_seed(M + K + N)
    a = torch.rand((M, K), generator=g).to(dtype)
    b = torch.rand((K, N), generator=g).to(dtype)
    c = torch.zeros((M, N))
    cube_kernel[1](a, b, c, M, K, N, stage)
    return a, b, c


@pytest.mark.parametrize("M,K,N,where,need,cap", [
    (64, 512, 16, "L0A", None, 65536),              # A: 64 x 512 x 2 bytes = 64 KiB exactly
    (16, 512, 64, "L0B", None, 65536),              # B: 512 x 64 x 2 bytes = 64 KiB exactly
    (256, 16, 256, "L0C", None, 262144),            # C: 256 x 256 x 4 bytes = 256 KiB exactly (C310)
])
def test_cube_buffers_exactly_at_capacity_pass(M, K, N, where, need, cap):
    a, b, c = _cube(M, K, N)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("M,K,N,msg", [
    (80, 512, 16, "L0A overflow: tile [80, 512] x float16 needs 81920 bytes, L0A holds 65536 bytes"),
    (64, 528, 16, "L0A overflow: tile [64, 528] x float16 needs 67584 bytes, L0A holds 65536 bytes"),
    (16, 528, 64, "L0B overflow: tile [528, 64] x float16 needs 67584 bytes, L0B holds 65536 bytes"),
    (16, 512, 80, "L0B overflow: tile [512, 80] x float16 needs 81920 bytes, L0B holds 65536 bytes"),
    (272, 16, 256, "L0C overflow: tile [272, 256] x float32 needs 278528 bytes, L0C holds 262144 bytes"),
    (256, 16, 272, "L0C overflow: tile [256, 272] x float32 needs 278528 bytes, L0C holds 262144 bytes"),
])
def test_cube_buffers_one_step_over_capacity_fail(M, K, N, msg):
    with pytest.raises(CodegenError, match=re.escape(msg)):
        _cube(M, K, N)


def test_l0c_limit_of_the_c220_platform_is_exact():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    a, b, c = _cube(128, 16, 256)                                    # 128 KiB of float32
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    with pytest.raises(CodegenError, match=re.escape("L0C overflow: tile [144, 256] x float32 needs 147456 bytes, "
                                                     "L0C holds 131072 bytes")):
        _cube(144, 16, 256)


@asc2.jit(always_compile=True)
def l1_kernel(a_ptr: asc.GlobalAddress, R: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    a1 = asc2.load(asc2.tensor(a_ptr, [R, C]), [R, C], offsets=[0, 0], location=asc2.TileLocation.L1)


def test_l1_exactly_at_capacity_passes_and_one_row_more_fails():
    l1_kernel[1](torch.zeros((512, 512), dtype=torch.float16), 512, 512)     # 512 KiB exactly
    with pytest.raises(CodegenError, match=re.escape("L1 overflow: tile [513, 512] x float16 needs 525312 bytes, "
                                                     "L1 holds 524288 bytes")):
        l1_kernel[1](torch.zeros((513, 512), dtype=torch.float16), 513, 512)


def test_staging_through_l1_at_the_l0a_limit():
    a, b, c = _cube(64, 512, 16, stage=True)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    with pytest.raises(CodegenError, match=re.escape("L0A overflow: tile [80, 512] x float16 needs 81920 bytes")):
        _cube(80, 512, 16, stage=True)


@asc2.jit(always_compile=True)
def one_buffer(x_ptr: asc.GlobalAddress, C: asc.ConstExpr[int], LOC: asc.ConstExpr):
    """A [1, C] tile in LOC: int8 data into L0A / L0B / L1, a float32 accumulator in L0C."""
    if LOC == asc2.TileLocation.L0C:
        asc2.store(asc2.zeros_acc([1, C], asc.float32), asc2.tensor(x_ptr, [1, C]), offsets=[0, 0])
    else:
        asc2.load(asc2.tensor(x_ptr, [1, C]), [1, C], offsets=[0, 0], location=LOC)


@pytest.mark.parametrize("platform,loc,cap", [
    (config.Platform.Ascend950PR_9599, "L0A", 64 * 1024), (config.Platform.Ascend950PR_9599, "L0B", 64 * 1024),
    (config.Platform.Ascend950PR_9599, "L0C", 256 * 1024), (config.Platform.Ascend950PR_9599, "L1", 512 * 1024),
    (config.Platform.Ascend910B1, "L0A", 64 * 1024), (config.Platform.Ascend910B1, "L0B", 64 * 1024),
    (config.Platform.Ascend910B1, "L0C", 128 * 1024), (config.Platform.Ascend910B1, "L1", 512 * 1024),
], ids=lambda v: getattr(v, "value", v))
def test_each_cube_buffer_of_each_platform_holds_exactly_its_capacity(platform, loc, cap):
    """Exactly the capacity passes; 32 bytes more (the smallest step of a tile's size) is an overflow."""
    config.set_platform(config.Backend.Model, platform)
    dtype, size = (torch.float32, 4) if loc == "L0C" else (torch.int8, 1)
    x = torch.ones((1, cap // size), dtype=dtype)
    one_buffer[1](x, cap // size, getattr(asc2.TileLocation, loc))
    if loc == "L0C":
        assert torch.all(x == 0)                      # the accumulator was stored
    over = cap // size + 32 // size
    with pytest.raises(CodegenError, match=re.escape(
            f"{loc} overflow: tile [1, {over}] x {'float32' if loc == 'L0C' else 'int8'} needs {cap + 32} bytes, "
            f"{loc} holds {cap} bytes")):
        one_buffer[1](torch.ones((1, over), dtype=dtype), over, getattr(asc2.TileLocation, loc))


# -- races in both orders -----------------------------------------------------------------------------------------
@asc2.jit
def order_kernel(buf_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, FIRST: asc.ConstExpr, SECOND: asc.ConstExpr,
                 SWAP: asc.ConstExpr[bool]):
    """Block 0 does FIRST, then block 1 does SECOND on the same 64 elements (or the other way round with SWAP:
    the program order inside each block is the same, only which block does which changes)."""
    g = asc2.tensor(buf_ptr, [64])
    o = asc2.tensor(out_ptr, [128])
    b = asc2.block_idx()
    me = 1 - b if SWAP else b
    if me == 0:
        FIRST(g, o, b)
    else:
        SECOND(g, o, b)


def _store(g, o, b):
    # a value per block: two blocks storing over each other race (identical values would not)
    asc2.store(asc2.full([64], 2.0) + b, g, offsets=[0])


def _atomic(g, o, b):
    asc2.atomic_add(asc2.full([64], 1.0), g, [0])


def _read(g, o, b):
    asc2.store(asc2.load(g, [64], offsets=[0]), o, offsets=[b * 64])


@pytest.mark.parametrize("swap", [False, True], ids=["block0-first", "block1-first"])
@pytest.mark.parametrize("first,second,msg", [
    (_atomic, _store, "overlaps elements written by"),          # atomic then store
    (_store, _atomic, "overlaps elements written by"),          # store then atomic
    (_store, _store, "overlaps elements written by"),           # store then store
    (_read, _store, "overwrites elements block [01] read"),     # read then write
    (_store, _read, "reads data written by block"),             # write then read
], ids=["atomic-store", "store-atomic", "store-store", "read-write", "write-read"])
def test_conflicting_accesses_of_two_blocks_are_races_in_either_order(first, second, msg, swap):
    buf = np.zeros(64, np.float32)
    with pytest.raises(KernelRuntimeError, match=msg):
        order_kernel[2](buf, np.zeros(128, np.float32), first, second, swap)


@pytest.mark.parametrize("first,second", [(_atomic, _atomic), (_read, _read)], ids=["atomic-atomic", "read-read"])
def test_accesses_that_do_not_conflict_are_not_races(first, second):
    buf = np.full(64, 3.0, np.float32)
    out = np.zeros(128, np.float32)
    order_kernel[2](buf, out, first, second, False)
    if first is _atomic:
        assert np.all(buf == 5)
    else:
        assert np.all(out == 3) and np.all(buf == 3)


@pytest.mark.parametrize("ops", [(_store, _read), (_read, _store), (_atomic, _read), (_store, _store)],
                         ids=["store-read", "read-store", "atomic-read", "store-store"])
def test_one_block_may_reread_and_rewrite_its_own_elements(ops):
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, A: asc.ConstExpr, B: asc.ConstExpr):
        g = asc2.tensor(buf_ptr, [64])
        o = asc2.tensor(out_ptr, [128])
        A(g, o, 0)
        B(g, o, 0)
    buf = np.zeros(64, np.float32)
    out = np.zeros(128, np.float32)
    k[1](buf, out, *ops)
    value = {_store: 2.0, _atomic: 1.0, _read: 0.0}
    assert np.all(buf == max(value[ops[0]], value[ops[1]]))
    if _read in ops:                               # the read sees what the block wrote before it
        assert np.all(out[:64] == (value[ops[0]] if ops[1] is _read else 0.0))


def test_disjoint_neighbours_touching_at_the_boundary_are_not_races():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, T: asc.ConstExpr[int], SHIFT: int):
        g = asc2.tensor(buf_ptr, [asc2.block_num() * T + 1])
        asc2.store(asc2.full([T], 1.0), g, offsets=[asc2.block_idx() * T + SHIFT])
    buf = np.zeros(4 * 64 + 1, np.float32)
    k[4](buf, 64, 0)                               # block b writes [64 b, 64 b + 63]: adjacent, no overlap
    assert np.all(buf[:256] == 1) and buf[256] == 0

    @asc2.jit
    def k2(buf_ptr: asc.GlobalAddress, T: asc.ConstExpr[int]):
        g = asc2.tensor(buf_ptr, [asc2.block_num() * T + 1])
        # one element of overlap, written with each block's own value
        asc2.store(asc2.full([T + 1], 1.0) * asc2.block_idx(), g, offsets=[asc2.block_idx() * T])
    for blocks in (2, 4):
        with pytest.raises(KernelRuntimeError, match="two blocks write the same elements|overlaps elements written by"):
            k2[blocks](np.zeros(blocks * 64 + 1, np.float32), 64)


# -- liveness (reuse_ub / the queue allocator): a tile's space is free right after its last use ---------------
@pytest.mark.parametrize("opts,peak", [({"reuse_ub": True}, 2 * 4096), ({"static_alloc": False}, 2 * 4096),
                                       ({}, 4 * 4096)])
def test_a_chain_of_tile_ops_holds_two_tiles_at_a_time(opts, peak):
    @asc2.jit(**opts)
    def chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t1 = asc2.load(asc2.tensor(x_ptr, [1024]), [1024], offsets=[0])
        t2 = asc2.abs(t1)
        t3 = asc2.exp(t2)
        t4 = asc2.abs(t3)
        asc2.store(t4, asc2.tensor(out_ptr, [1024]), offsets=[0])
    x = np.linspace(-2, 2, 1024, dtype=np.float32)
    out = np.zeros_like(x)
    chain[1](x, out)
    np.testing.assert_allclose(out, np.exp(np.abs(x)), rtol=1e-6)
    assert chain.last_launch["peak_ub_bytes"] == peak


# The expected figures are pyasc-dev's own (its compiler's memory_consumed for the same kernels).
@pytest.mark.parametrize("level,peak", [(0, 4 * 4096), (1, 4096), (2, 4096)])
def test_reuse_alloc_levels_outside_loops(level, peak):
    # levels 1 and 2: each element-wise result overwrites the operand it last reads (one buffer)
    @asc2.jit(reuse_alloc=level, always_compile=True)
    def chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t1 = asc2.load(asc2.tensor(x_ptr, [1024]), [1024], offsets=[0])
        t2 = asc2.abs(t1)
        t3 = asc2.exp(t2)
        t4 = asc2.abs(t3)
        asc2.store(t4, asc2.tensor(out_ptr, [1024]), offsets=[0])
    x = np.linspace(-2, 2, 1024, dtype=np.float32)
    out = np.zeros_like(x)
    chain[1](x, out)
    np.testing.assert_allclose(out, np.exp(np.abs(x)), rtol=1e-6)
    assert chain.last_launch["peak_ub_bytes"] == peak


@pytest.mark.parametrize("level,peak", [(1, 2 * 4096), (2, 2 * 4096)])
def test_reuse_alloc_hoists_a_constant_tile_over_the_loop(level, peak):
    # The loop's tiles share one buffer (abs and exp in place); the constant tile stored after the loop
    # is hoisted to the kernel's start, so it does not reuse that buffer: two buffers.
    @asc2.jit(reuse_alloc=level, always_compile=True)
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        x_gm = asc2.tensor(x_ptr, [n * 1024])
        o_gm = asc2.tensor(out_ptr, [n * 1024 + 1024])
        for i in range(n):
            a = asc2.load(x_gm, [1024], offsets=[i * 1024])
            b = asc2.abs(a)
            asc2.store(asc2.exp(b), o_gm, offsets=[i * 1024])
        asc2.store(asc2.full([1024], 7.0), o_gm, offsets=[n * 1024])
    x = np.linspace(-2, 2, 2 * 1024, dtype=np.float32)
    out = np.zeros(3 * 1024, np.float32)
    k[1](x, out, 2)
    np.testing.assert_allclose(out[:2048], np.exp(np.abs(x)), rtol=1e-6)
    assert np.all(out[2048:] == 7)
    assert k.last_launch["peak_ub_bytes"] == peak


@pytest.mark.parametrize("level,peak", [(0, 10 * 4096), (1, 3 * 4096), (2, 3 * 4096)])
def test_reuse_alloc_gives_each_unrolled_copy_of_a_loop_its_own_tiles(level, peak):
    # unroll_factor=2 over a runtime trip count: two copies in the loop plus one for the remainder.
    # Level 0 keeps every tile (3 x 3, plus the constant); levels 1 and 2 give each copy in the loop
    # its own buffer (one per copy, the ops in place) and the remainder reuses them; plus the constant.
    @asc2.jit(reuse_alloc=level, always_compile=True)
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        x_gm = asc2.tensor(x_ptr, [n * 1024])
        o_gm = asc2.tensor(out_ptr, [n * 1024 + 1024])
        for i in asc2.range(n, unroll_factor=2):
            a = asc2.load(x_gm, [1024], offsets=[i * 1024])
            b = asc2.abs(a)
            asc2.store(asc2.exp(b), o_gm, offsets=[i * 1024])
        asc2.store(asc2.full([1024], 7.0), o_gm, offsets=[n * 1024])
    x = np.linspace(-2, 2, 4 * 1024, dtype=np.float32)
    out = np.zeros(5 * 1024, np.float32)
    k[1](x, out, 4)
    np.testing.assert_allclose(out[:4096], np.exp(np.abs(x)), rtol=1e-6)
    assert np.all(out[4096:] == 7)
    assert k.last_launch["peak_ub_bytes"] == peak


@asc2.jit
def atomic_rows_kernel(buf_ptr: asc.GlobalAddress, R: int, C: asc.ConstExpr[int], col: int):
    g = asc2.tensor(buf_ptr, [R, C])
    asc2.atomic_add(asc2.full([2, 32], 1.0), g, [asc2.block_idx() * 2, asc2.block_idx() * col])


def test_a_2d_atomic_update_ending_at_the_row_end_lands_and_one_column_more_is_an_error():
    buf = np.zeros((4, 64), np.float32)
    atomic_rows_kernel[2](buf, 4, 64, 32)                 # block 1: columns 32..63 of rows 2, 3, the row's end
    assert np.all(buf[:2, :32] == 1) and np.all(buf[2:, 32:] == 1) and np.all(buf[:2, 32:] == 0)
    buf = np.zeros((4, 64), np.float32)
    with pytest.raises(KernelRuntimeError, match=r"2-D atomic_add of a \[2, 32\] tile to tensor 'buf_ptr' \(shape "
                                                 r"\[4, 64\]\) at offsets \[2, 33\] runs past the end of the row"):
        atomic_rows_kernel[2](buf, 4, 64, 33)             # block 1 only: the report names its offsets
    assert np.all(buf[2:] == 0)                           # nothing lands in the next row
