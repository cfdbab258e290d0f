"""v1 kernels of the mistakes corpus (``test_v1_mistakes_corpus.py``): flags between MTE2, V and MTE3 (and the
pipes' use of GM and UB buffers). Each takes a trailing ``fix: ConstExpr[bool]``: False is the mistake, True its
rewrite; the ``#@tag`` markers name the lines the reports must point at."""
from __future__ import annotations

import asc

T = 64              # fp32 elements per tile (256 bytes: one vector repeat)


@asc.jit
def add_missing_mte2_v(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                       fix: asc.ConstExpr[bool]):
    # z = x + y, one tile per block; the author forgot that V must wait for the copies to land.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)  #@a.copy_x
    asc.data_copy(y_ub, y_gm, n)
    if fix:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(z_ub, x_ub, y_ub, n)  #@a.add
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def add_wait_before_compute(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                            fix: asc.ConstExpr[bool]):
    # The V_MTE3 pair is there, but the author placed it before the add instead of after it.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.data_copy(y_ub, y_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if not fix:
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.add(z_ub, x_ub, y_ub, n)  #@b.add
    if fix:
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)  #@b.copy_out


@asc.jit
def add_swapped_event(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                      fix: asc.ConstExpr[bool]):
    # V_MTE2 ("MTE2 waits for V") written where MTE2_V ("V waits for MTE2") was meant.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)  #@c.copy_x
    asc.data_copy(y_ub, y_gm, n)
    event = asc.HardEvent.MTE2_V if fix else asc.HardEvent.V_MTE2
    asc.set_flag(event, 0)
    asc.wait_flag(event, 0)
    asc.add(z_ub, x_ub, y_ub, n)  #@c.add
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def add_flag_between_copies(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                            fix: asc.ConstExpr[bool]):
    # The MTE2_V flag is set after the first copy only: V then waits for x but not for y.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    if not fix:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(y_ub, y_gm, n)  #@d.copy_y
    if fix:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(z_ub, x_ub, y_ub, n)  #@d.add
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def relu_second_half_in_flight(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # Both halves are copied in up front so the first half's compute overlaps the second half's copy; the
    # second half is then read at a sub-tensor offset while its copy is still unwaited.
    off = asc.get_block_idx() * 2 * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, 2 * n)
    z_gm.set_global_buffer(z + off, 2 * n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, 2 * n)
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(x_ub[n:], x_gm[n:], n)  #@e.copy_hi
    if fix:
        asc.set_flag(asc.HardEvent.MTE2_V, 1)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.relu(z_ub, x_ub, n)
    if fix:
        asc.wait_flag(asc.HardEvent.MTE2_V, 1)
    asc.relu(z_ub[n:], x_ub[n:], n)  #@e.relu_hi
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, 2 * n)


@asc.jit
def abs_even_odd_blocks(x: asc.GlobalAddress, z: asc.GlobalAddress, fix: asc.ConstExpr[bool]):
    # De-interleave 32-byte blocks: the even blocks are copied in (strided) and computed with a source block
    # stride of 2 while the odd blocks are still being copied. The mistake computes the odd blocks before
    # waiting for their copy.
    off = asc.get_block_idx() * 2 * T
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, 2 * T)
    z_gm.set_global_buffer(z + off, 2 * T)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * T)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * T * 4, 2 * T)
    every_other = asc.DataCopyParams(8, 1, 1, 1)
    asc.data_copy(x_ub, x_gm, repeat_params=every_other)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(x_ub[8:], x_gm[8:], repeat_params=every_other)  #@s.copy_odd
    asc.set_flag(asc.HardEvent.MTE2_V, 1)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.abs(z_ub, x_ub, 64, 1, asc.UnaryRepeatParams(1, 2, 8, 16))
    if fix:
        asc.wait_flag(asc.HardEvent.MTE2_V, 1)
    asc.abs(z_ub[T:], x_ub[8:], 64, 1, asc.UnaryRepeatParams(1, 2, 8, 16))  #@s.abs_odd
    if not fix:
        asc.wait_flag(asc.HardEvent.MTE2_V, 1)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, 2 * T)


@asc.jit
def adds_set_flag_in_loop(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int,
                          fix: asc.ConstExpr[bool]):
    # Every tile's copy sets MTE2_V, but the one wait is after the loop: the flag is already set from the
    # first tile on, so the later sets are lost and the wait only orders V after the first copy.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n * tiles)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * tiles * 4, n * tiles)
    for i in range(tiles):
        asc.data_copy(x_ub[i * n:], x_gm[i * n:], n)  #@f.copy
        if not fix:
            asc.set_flag(asc.HardEvent.MTE2_V, 0)  #@f.set
    if fix:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(z_ub, x_ub, 1.0, n * tiles)  #@f.adds
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n * tiles)


@asc.jit
def relu_flag_set_twice(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # The copy-in helper sets MTE2_V and so does its caller: the second set lands on a flag still set and is
    # lost. The first set already covers the copy, so the result is right; whether the flag is left set at the
    # end depends on when V's wait runs. The launch report warns.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    if not fix:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)  #@tw.set_again
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.relu(z_ub, x_ub, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def muls_double_buffer_one_event_id(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int,
                                    fix: asc.ConstExpr[bool]):
    # Software-pipelined double buffering: tile i+1 is copied in before tile i is computed. Both buffers
    # signal MTE2_V with event id 0, so the second set lands on a flag that is still set.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    for i in range(tiles):
        if i + 1 < tiles:
            nxt = (i + 1) % 2
            if i > 0:
                asc.wait_flag(asc.HardEvent.V_MTE2, 0)      # tile i - 1's compute has left buffer nxt
            asc.data_copy(x_ub[nxt * n:], x_gm[(i + 1) * n:], n)
            asc.set_flag(asc.HardEvent.MTE2_V, nxt if fix else 0)  #@g.set
        asc.wait_flag(asc.HardEvent.MTE2_V, i % 2 if fix else 0)  #@g.wait
        asc.muls(z_ub, x_ub[(i % 2) * n:], 3.0, n)
        if i + 2 < tiles:
            asc.set_flag(asc.HardEvent.V_MTE2, 0)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * n:], z_ub, n)
        asc.set_flag(asc.HardEvent.MTE3_V, 0)
        asc.wait_flag(asc.HardEvent.MTE3_V, 0)


@asc.jit
def adds_in_place_missing_mte3_mte2(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int,
                                    fix: asc.ConstExpr[bool]):
    # One UB buffer per tile, computed in place: the next tile's copy-in overwrites the buffer the
    # previous tile's copy-out (MTE3) may still be reading.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    buf = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, n)
    for i in range(tiles):
        asc.data_copy(buf, x_gm[i * n:], n)  #@h.copy_in
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.adds(buf, buf, 2.0, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * n:], buf, n)  #@h.copy_out
        if fix:
            asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
            asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


@asc.jit
def add_tiles_without_backward_flags(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                     tiles: int, fix: asc.ConstExpr[bool]):
    # Tutorial 01's double buffering with its MTE3_MTE2 pair dropped: tile i+2's copy-in overwrites the
    # buffer V read for tile i, and nothing made MTE2 wait for V.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    y_gm.set_global_buffer(y + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 2 * n * 4, 2 * n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4 * n * 4, 2 * n)
    for i in range(tiles):
        b = i % 2
        asc.data_copy(x_ub[b * n:], x_gm[i * n:], n)  #@i.copy_x
        asc.data_copy(y_ub[b * n:], y_gm[i * n:], n)
        asc.set_flag(asc.HardEvent.MTE2_V, b)
        asc.wait_flag(asc.HardEvent.MTE2_V, b)
        asc.add(z_ub[b * n:], x_ub[b * n:], y_ub[b * n:], n)  #@i.add
        asc.set_flag(asc.HardEvent.V_MTE3, b)
        asc.wait_flag(asc.HardEvent.V_MTE3, b)
        asc.data_copy(z_gm[i * n:], z_ub[b * n:], n)
        if fix:
            asc.set_flag(asc.HardEvent.MTE3_MTE2, b)
            asc.wait_flag(asc.HardEvent.MTE3_MTE2, b)


@asc.jit
def add_backward_flags_without_prologue(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                        tiles: int, fix: asc.ConstExpr[bool]):
    # The preset-backward-flags idiom with its prologue forgotten: the first wait for "buffer free" waits for
    # a set_flag that only the end of that buffer's first use would issue. With ``fix`` the prologue is there
    # but the epilogue that drains the flags is still missing (the launch report warns).
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    y_gm.set_global_buffer(y + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 2 * n * 4, 2 * n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4 * n * 4, 2 * n)
    if fix:
        for b in range(2):
            asc.set_flag(asc.HardEvent.V_MTE2, b)
            asc.set_flag(asc.HardEvent.MTE3_V, b)
    for i in range(tiles):
        b = i % 2
        asc.wait_flag(asc.HardEvent.V_MTE2, b)  #@p.wait_free
        asc.data_copy(x_ub[b * n:], x_gm[i * n:], n)
        asc.data_copy(y_ub[b * n:], y_gm[i * n:], n)
        asc.set_flag(asc.HardEvent.MTE2_V, b)
        asc.wait_flag(asc.HardEvent.MTE2_V, b)
        asc.wait_flag(asc.HardEvent.MTE3_V, b)
        asc.add(z_ub[b * n:], x_ub[b * n:], y_ub[b * n:], n)
        asc.set_flag(asc.HardEvent.V_MTE2, b)  #@p.set_free_in
        asc.set_flag(asc.HardEvent.V_MTE3, b)
        asc.wait_flag(asc.HardEvent.V_MTE3, b)
        asc.data_copy(z_gm[i * n:], z_ub[b * n:], n)
        asc.set_flag(asc.HardEvent.MTE3_V, b)  #@p.set_free_out


@asc.jit
def pad_zero_fill_then_copy_in(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # A padded row: V zero-fills the whole UB row, MTE2 copies the n valid elements over its start. The copy
    # must wait for the fill (V_MTE2), or the fill may land after it.
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * 2 * n, 2 * n)
    row = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * n)
    out = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, 2 * n)
    asc.duplicate(row, 0.0, 2 * n)  #@z.fill
    if fix:
        asc.set_flag(asc.HardEvent.V_MTE2, 0)
        asc.wait_flag(asc.HardEvent.V_MTE2, 0)
    asc.data_copy(row, x_gm, n)  #@z.copy_in
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(out, row, 2.0, 2 * n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, out, 2 * n)


@asc.jit
def abs_barrier_on_wrong_pipe(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # pipe_barrier(PIPE_V) only orders V after earlier V instructions, not after the MTE2 copy.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.data_copy(x_ub, x_gm, n)  #@j.copy_in
    asc.pipe_barrier(asc.PipeID.PIPE_ALL if fix else asc.PipeID.PIPE_V)
    asc.abs(z_ub, x_ub, n)  #@j.abs
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def two_pass_workspace_barrier_mte3(x: asc.GlobalAddress, w: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                    fix: asc.ConstExpr[bool]):
    # Pass 1 writes 2x to a GM workspace, pass 2 reads it back and adds 1. pipe_barrier(PIPE_MTE3) waits for
    # earlier MTE3 instructions only on MTE3: the MTE2 read-back is not ordered after the write.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    w_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    w_gm.set_global_buffer(w + off, n)
    z_gm.set_global_buffer(z + off, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 2 * n * 4, n)
    d = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 3 * n * 4, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(b, a, 2.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(w_gm, b, n)  #@k.write_ws
    if fix:
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)
    else:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE3)
    asc.data_copy(c, w_gm, n)  #@k.read_ws
    asc.set_flag(asc.HardEvent.MTE2_V, 1)
    asc.wait_flag(asc.HardEvent.MTE2_V, 1)
    asc.adds(d, c, 1.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 1)
    asc.wait_flag(asc.HardEvent.V_MTE3, 1)
    asc.data_copy(z_gm, d, n)


@asc.jit
def abs_tbuf_scratch_without_flags(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # One TBuf holds both the input and the result; a TBuf has no queue protocol, so its users' pipes need
    # the user's flags.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    scratch = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf=scratch, num=2 * n * 4)
    t = scratch.get(asc.float32)
    asc.data_copy(t, x_gm, n)  #@t.copy_in
    if fix:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.abs(t[n:], t, n)  #@t.abs
    if fix:
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, t[n:], n)  #@t.copy_out


@asc.jit
def abs_wait_only_on_block_zero(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # The wait sits under a branch on the block index ("only the first core needs to wait"): the other
    # blocks read the tile before it has landed (and leave the flag set).
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.data_copy(x_ub, x_gm, n)  #@w.copy_in
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    if fix or b == 0:
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.abs(z_ub, x_ub, n)  #@w.abs
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def shift_halo_from_neighbour_block(x: asc.GlobalAddress, w: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                    fix: asc.ConstExpr[bool]):
    # z[i] = 2 * x[i + 8] (a shift by one 32-byte block). Each block writes w = 2 * x for its range to a GM
    # workspace and reads its output window back from w, the last 8 elements from the next block's part of
    # w. The MTE3_MTE2 pair orders this block's own write; nothing orders the other block's write (blocks
    # run concurrently). The rewrite computes its window from x, which no block writes.
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    w_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n + 8)
    w_gm.set_global_buffer(w + b * n, n + 8)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n + 8)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, (n + 8) * 4, n + 8)
    d = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 2 * (n + 8) * 4, n + 8)
    asc.data_copy(a, x_gm, n + 8 if fix else n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(c, a, 2.0, n + 8)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    if fix:
        asc.data_copy(z_gm, c[8:], n)
    else:
        asc.data_copy(w_gm, c, n)  #@x.write_w
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.data_copy(d, w_gm[8:], n)  #@x.read_halo
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy(z_gm, d, n)


@asc.jit
def scale_and_keep_a_copy(x: asc.GlobalAddress, scaled: asc.GlobalAddress, copy: asc.GlobalAddress, n: int,
                          fix: asc.ConstExpr[bool]):
    # scaled = 2x, then copy = x. x and scaled are different buffers to the kernel, so it needs no
    # MTE3_MTE2 between writing scaled and reading x again; launched in place (scaled is x) it races.
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    s_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    s_gm.set_global_buffer(scaled + b * n, n)
    c_gm.set_global_buffer(copy + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    s = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 2 * n * 4, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(s, a, 2.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(s_gm, s, n)  #@al.write_scaled
    asc.data_copy(c, x_gm, n)  #@al.read_x
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(c_gm, c, n)
