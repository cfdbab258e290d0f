"""v1 kernels of the mistakes corpus (``test_v1_mistakes_corpus.py``): correct kernels with flags at unusual but
valid places, which must run clean. Each takes ``fix: ConstExpr[bool]`` like the others (ignored)."""
from __future__ import annotations

import asc

from v1_corpus_flags import T


@asc.jit
def add_double_buffer_preset_backward_flags(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                                            n: int, tiles: int, fix: asc.ConstExpr[bool]):
    # The Ascend C idiom: the backward flags (V_MTE2: the input buffer is free; MTE3_V: the output buffer is
    # free) are set once before the loop for both buffers, waited for at the top of each use, set again after
    # it, and drained after the loop. Forward flags use one event id per buffer.
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
    for b in range(2):
        asc.set_flag(asc.HardEvent.V_MTE2, b)
        asc.set_flag(asc.HardEvent.MTE3_V, b)
    for i in range(tiles):
        b = i % 2
        asc.wait_flag(asc.HardEvent.V_MTE2, b)
        asc.data_copy(x_ub[b * n:], x_gm[i * n:], n)
        asc.data_copy(y_ub[b * n:], y_gm[i * n:], n)
        asc.set_flag(asc.HardEvent.MTE2_V, b)
        asc.wait_flag(asc.HardEvent.MTE2_V, b)
        asc.wait_flag(asc.HardEvent.MTE3_V, b)
        asc.add(z_ub[b * n:], x_ub[b * n:], y_ub[b * n:], n)
        asc.set_flag(asc.HardEvent.V_MTE2, b)
        asc.set_flag(asc.HardEvent.V_MTE3, b)
        asc.wait_flag(asc.HardEvent.V_MTE3, b)
        asc.data_copy(z_gm[i * n:], z_ub[b * n:], n)
        asc.set_flag(asc.HardEvent.MTE3_V, b)
    for b in range(2):
        asc.wait_flag(asc.HardEvent.V_MTE2, b)
        asc.wait_flag(asc.HardEvent.MTE3_V, b)


@asc.jit
def mins_deferred_waits_high_ids(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                 fix: asc.ConstExpr[bool]):
    # Flags set right after their copies with event ids 6 and 7, waited for much later, with unrelated V work
    # (a duplicate into a scratch buffer) between; y's flag is waited for before x's.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, n)
    t_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 2 * n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 3 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 7)
    asc.data_copy(y_ub, y_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 6)
    asc.duplicate(t_ub, 0.0, n)
    asc.wait_flag(asc.HardEvent.MTE2_V, 6)
    asc.min(t_ub, t_ub, y_ub, n)
    asc.wait_flag(asc.HardEvent.MTE2_V, 7)
    asc.min(z_ub, x_ub, t_ub, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 7)
    asc.wait_flag(asc.HardEvent.V_MTE3, 7)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def relu_wait_issued_before_its_set(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # The compute stage is written first: V's wait_flag(MTE2_V) is issued before the copy and its set_flag.
    # A wait only holds its own pipe's queue (V), the scalar unit goes on issuing, MTE2 copies and sets the
    # flag, and V proceeds: no hang, and the relu reads the landed tile.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.relu(z_ub, x_ub, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def sub_full_barriers_only(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int,
                           fix: asc.ConstExpr[bool]):
    # No flags at all: pipe_barrier(PIPE_ALL) between the stages (slow, but correct).
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    y_gm.set_global_buffer(y + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    y_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    for i in range(tiles):
        asc.data_copy(x_ub, x_gm[i * n:], n)
        asc.data_copy(y_ub, y_gm[i * n:], n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.sub(z_ub, x_ub, y_ub, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(z_gm[i * n:], z_ub, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


OWN = 60     # elements each block owns in the overlapping-windows kernel; it copies a 64-element window


@asc.jit
def relu_windows_overlap_identically(x: asc.GlobalAddress, z: asc.GlobalAddress, fix: asc.ConstExpr[bool]):
    # Upstream's generalization tests do this: every block copies a 32-byte-multiple window that reaches into
    # its neighbour's range; the neighbours write the very same values on the shared elements.
    off = asc.get_block_idx() * OWN
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, T)
    z_gm.set_global_buffer(z + off, T)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, T)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, T * 4, T)
    asc.data_copy(x_ub, x_gm, T)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.relu(z_ub, x_ub, T)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, T)


@asc.jit
def add_auto_tensors_with_stale_flags(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                      fix: asc.ConstExpr[bool]):
    # Ported to LocalTensorAuto but the manual flags of the old version were left in (one of them a wait
    # nobody sets): pyasc's insert-sync pass erases the user's flags and places its own.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensorAuto(asc.float32, n)
    y_ub = asc.LocalTensorAuto(asc.float32, n)
    z_ub = asc.LocalTensorAuto(asc.float32, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.data_copy(y_ub, y_gm, n)
    asc.wait_flag(asc.HardEvent.MTE2_V, 3)
    asc.add(z_ub, x_ub, y_ub, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def scale_waits_on_the_scalar_unit(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # z = x * x[0]. The scalar unit waits for the copy (MTE2_S) before reading x[0]; while it waits it
    # dispatches nothing, so the vector instruction after it is issued only once the copy has landed: the
    # MTE2_S wait orders V too, and no MTE2_V pair is needed.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    first = x_ub.get_value(0)
    asc.muls(z_ub, x_ub, first, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)
