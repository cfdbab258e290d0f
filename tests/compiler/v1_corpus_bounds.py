"""v1 kernels of the mistakes corpus (``test_v1_mistakes_corpus.py``): bounds, capacities, blocks, event ids and
operand declarations. Each takes a trailing ``fix: ConstExpr[bool]``: False is the mistake, True its rewrite; the
``#@tag`` markers name the lines the reports must point at."""
from __future__ import annotations

import asc

from v1_corpus_flags import T


@asc.jit
def sqrt_tail_tile_past_the_end(x: asc.GlobalAddress, z: asc.GlobalAddress, total: int, fix: asc.ConstExpr[bool]):
    # The last tile is copied with the full tile length although only a tail remains of the argument.
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, total)
    z_gm.set_global_buffer(z, total)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, T)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, T * 4, T)
    tiles = (total + T - 1) // T
    for i in range(tiles):
        count = total * 0 + T       # a device value, as total - i * T below is
        if fix and total - i * T < T:
            count = total - i * T
        asc.data_copy(x_ub, x_gm[i * T:], count)  #@b1.copy_in
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.sqrt(z_ub, x_ub, count)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * T:], z_ub, count)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


BIG_TILE = 24 * 1024     # fp32 elements: three such buffers (288 KiB) fit neither UB (192 / 248 KiB)

SMALL_TILE = 16 * 1024   # three of these (192 KiB) fit both


@asc.jit
def add_static_buffers_past_ub(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                               fix: asc.ConstExpr[bool]):
    # Tile length picked for the largest UB the author had in mind: the third static buffer ends past UB.
    tile = SMALL_TILE if fix else BIG_TILE
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, tile)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, tile * 4, tile)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * tile * 4, tile)  #@b2.z_ub
    for i in range(BIG_TILE * 2 // tile):
        asc.data_copy(x_ub, x_gm[i * tile:], tile)
        asc.data_copy(y_ub, y_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.add(z_ub, x_ub, y_ub, tile)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * tile:], z_ub, tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


@asc.jit
def add_queues_past_ub(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                       fix: asc.ConstExpr[bool]):
    # The same mistake with queues: the output queue's init_buffer runs past UB.
    tile = SMALL_TILE if fix else BIG_TILE
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, 1)
    in_y = asc.TQue(asc.TPosition.VECIN, 1)
    out_z = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_x, num=1, len=tile * 4)
    pipe.init_buffer(que=in_y, num=1, len=tile * 4)
    pipe.init_buffer(que=out_z, num=1, len=tile * 4)  #@b3.init_z
    for i in range(BIG_TILE * 2 // tile):
        xi = in_x.alloc_tensor(asc.float32)
        yi = in_y.alloc_tensor(asc.float32)
        asc.data_copy(xi, x_gm[i * tile:], tile)
        asc.data_copy(yi, y_gm[i * tile:], tile)
        in_x.enque(xi)
        in_y.enque(yi)
        xi = in_x.deque(asc.float32)
        yi = in_y.deque(asc.float32)
        zi = out_z.alloc_tensor(asc.float32)
        asc.add(zi, xi, yi, tile)
        out_z.enque(zi)
        in_x.free_tensor(xi)
        in_y.free_tensor(yi)
        zi = out_z.deque(asc.float32)
        asc.data_copy(z_gm[i * tile:], zi, tile)
        out_z.free_tensor(zi)


@asc.jit
def muls_output_offset_by_tile(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # Each block owns n elements, but the output offset was written with the half-block tile length: block
    # b + 1 writes over the second half of block b's output with different values.
    half = n // 2
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n, n)
    z_gm.set_global_buffer(z + asc.get_block_idx() * (n if fix else half), n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(z_ub, x_ub, 0.5, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)  #@b4.copy_out


@asc.jit
def maxs_event_id_per_tile(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int,
                           fix: asc.ConstExpr[bool]):
    # The tile index is used as the event id: from the ninth tile on it is not an event id.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, 2 * n)
    for i in range(tiles):
        b = i % 2
        eid = b if fix else i
        asc.data_copy(x_ub[b * n:], x_gm[i * n:], n)
        asc.set_flag(asc.HardEvent.MTE2_V, eid)  #@b5.set
        asc.wait_flag(asc.HardEvent.MTE2_V, eid)
        asc.maxs(z_ub[b * n:], x_ub[b * n:], 0.25, n)
        asc.set_flag(asc.HardEvent.V_MTE3, b)
        asc.wait_flag(asc.HardEvent.V_MTE3, b)
        asc.data_copy(z_gm[i * n:], z_ub[b * n:], n)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, b)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, b)


@asc.jit
def add_output_gm_never_set_up(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                               fix: asc.ConstExpr[bool]):
    # Three GlobalTensors are declared, but the set_global_buffer line of the output was lost in an edit.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    if fix:
        z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.data_copy(y_ub, y_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(z_ub, x_ub, y_ub, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)  #@g1.copy_out


@asc.jit
def add_local_tensor_of_the_wrong_dtype(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                        fix: asc.ConstExpr[bool]):
    # The UB tensors are declared half while the GM data is float: DataCopy and Add take one element type for
    # all their operands (the device compiler rejects the mix). The rewrite declares them with x.dtype.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    dt = x.dtype if fix else asc.half
    x_ub = asc.LocalTensor(dt, asc.TPosition.VECIN, 0, n)
    y_ub = asc.LocalTensor(dt, asc.TPosition.VECIN, n * 4, n)
    z_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)  #@g2.copy_x
    asc.data_copy(y_ub, y_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(z_ub, x_ub, y_ub, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def diff_neighbours_unaligned_operand(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                      fix: asc.ConstExpr[bool]):
    # z[i] = x[i + 1] - x[i]. The mistake offsets the UB operand by one element (4 bytes): vector operands
    # start on 32-byte blocks. The rewrite copies the shifted row from GM, where an element offset is fine.
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n + 8)
    z_gm.set_global_buffer(z + b * n, n)
    x0 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n + 8)
    x1 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, (n + 8) * 4, n)
    d = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, (2 * n + 8) * 4, n)
    asc.data_copy(x0, x_gm, n + 8)
    if fix:
        asc.data_copy(x1, x_gm[1:], n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.sub(d, x1 if fix else x0[1:], x0, n)  #@u.sub
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, d, n)


@asc.jit
def relu_fp16_mask_on_fp32(x: asc.GlobalAddress, z: asc.GlobalAddress, fix: asc.ConstExpr[bool]):
    # Mask-form relu ported from an fp16 kernel: mask 128 is a full repeat of fp16, but a repeat holds 64 fp32
    # elements. The rewrite covers the same 128 elements with two 64-lane repeats.
    off = asc.get_block_idx() * 2 * T
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, 2 * T)
    z_gm.set_global_buffer(z + off, 2 * T)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * T)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * T * 4, 2 * T)
    asc.data_copy(x_ub, x_gm, 2 * T)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if fix:
        asc.relu(z_ub, x_ub, 64, 2, asc.UnaryRepeatParams(1, 1, 8, 8))
    else:
        asc.relu(z_ub, x_ub, 128, 1, asc.UnaryRepeatParams(1, 1, 8, 8))  #@mk.relu
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, 2 * T)
