"""v1 kernels of the mistakes corpus (``test_v1_mistakes_corpus.py``): the scalar unit (get_value / set_value on UB
and GM, pipe_barrier(PIPE_S)). Each takes a trailing ``fix: ConstExpr[bool]``: False is the mistake, True its
rewrite; the ``#@tag`` markers name the lines the reports must point at."""
from __future__ import annotations

import asc


@asc.jit
def scale_get_value_without_mte2_s(x: asc.GlobalAddress, s: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                   fix: asc.ConstExpr[bool]):
    # z = x * s[0]: the scale is copied to UB and read by the scalar unit before the copy has landed.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    s_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    s_gm.set_global_buffer(s, 8)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    s_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, 8)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4 + 32, n)
    asc.data_copy(s_ub, s_gm, 8)  #@l.copy_s
    asc.data_copy(x_ub, x_gm, n)
    if fix:
        asc.set_flag(asc.HardEvent.MTE2_S, 0)
        asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    scale = s_ub.get_value(0)  #@l.get
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(z_ub, x_ub, scale, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def weights_set_value_without_s_v(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # A weight table is written element by element by the scalar unit, then multiplied in by V.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    w_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    for k in range(n):
        w_ub.set_value(k, k % 4)  #@m.set_value
    if fix:
        asc.set_flag(asc.HardEvent.S_V, 0)
        asc.wait_flag(asc.HardEvent.S_V, 0)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.mul(z_ub, x_ub, w_ub, n)  #@m.mul
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def normalise_get_value_without_v_s(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # z = x / |x[0]|: V computes |x|, the scalar unit reads its first element before V is done.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    a_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.abs(a_ub, x_ub, n)  #@n.abs
    if fix:
        asc.set_flag(asc.HardEvent.V_S, 0)
        asc.wait_flag(asc.HardEvent.V_S, 0)
    first = a_ub.get_value(0)  #@n.get
    asc.muls(z_ub, x_ub, 1.0 / first, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def bias_set_value_in_gm_then_copy_in(x: asc.GlobalAddress, bias: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                      fix: asc.ConstExpr[bool]):
    # The scalar unit writes this block's bias into a GM scratch row, which MTE2 then copies in: MTE2 must
    # wait for the scalar store (S_MTE2).
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    b_gm.set_global_buffer(bias + b * 8, 8)
    z_gm.set_global_buffer(z + b * n, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    b_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, 8)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4 + 32, n)
    b_gm.set_value(0, b + 1)  #@gs.set_value
    if fix:
        asc.set_flag(asc.HardEvent.S_MTE2, 0)
        asc.wait_flag(asc.HardEvent.S_MTE2, 0)
    asc.data_copy(b_ub, b_gm, 8)  #@gs.copy_in
    asc.data_copy(x_ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    bv = b_ub.get_value(0)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(z_ub, x_ub, bv, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)


@asc.jit
def ramp_set_value_pipe_barrier_s(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # z = x + ramp: the ramp is written by the scalar unit, and the author "flushes" it with
    # pipe_barrier(PIPE_S), which is illegal; V waits for the scalar stores through S_V.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    r_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, n * 4, n)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * n * 4, n)
    asc.data_copy(x_ub, x_gm, n)
    for k in range(n):
        r_ub.set_value(k, k)
    if fix:
        asc.set_flag(asc.HardEvent.S_V, 0)
        asc.wait_flag(asc.HardEvent.S_V, 0)
    else:
        asc.pipe_barrier(asc.PipeID.PIPE_S)  #@ps.barrier
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(z_ub, x_ub, r_ub, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_ub, n)
