"""Raw cube kernels (Ascend C style: ND -> NZ into L1, load_data into L0A / L0B, mmad, fixpipe) used by the
cube tests and bench/v1_cube.py."""
from __future__ import annotations

import asc


def pad(x, unit=16):
    return -(-x // unit) * unit


@asc.jit(always_compile=True)
def cube_matmul(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, m: asc.ConstExpr[int],
                n: asc.ConstExpr[int], k: asc.ConstExpr[int], k_steps: asc.ConstExpr[int],
                flag_mte1_m: asc.ConstExpr[bool], flag_m_fix: asc.ConstExpr[bool], a_v2: asc.ConstExpr[bool]):
    """C = A . B, A m x k and B k x n row-major; K in ``k_steps`` equal parts accumulated in L0C; ``a_v2``: A's
    step loaded as one LoadData2DParamsV2 window instead of a LoadData2DParams call per M block."""
    c0 = 32 // a.dtype.sizeof()
    mp, np_, kp = pad(m), pad(n), pad(k, c0)
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    a1 = asc.LocalTensor(a.dtype, asc.TPosition.A1, 0, mp * kp)
    b1 = asc.LocalTensor(b.dtype, asc.TPosition.B1, pad(mp * kp * a.dtype.sizeof(), 512), kp * np_)
    a2 = asc.LocalTensor(a.dtype, asc.TPosition.A2, 0, mp * kp)
    b2 = asc.LocalTensor(b.dtype, asc.TPosition.B2, 0, kp * np_)
    c1 = asc.LocalTensor(c.dtype if c.dtype.sizeof() == 4 else asc.float32, asc.TPosition.CO1, 0, mp * np_)
    size = a.dtype.sizeof()
    if m % 16:                    # the NZ copy writes m rows: zero the padding rows the fractals carry
        asc.init_const_value(a1, asc.InitConstValueParams(1, mp * kp * size // 32, 0, 0))
    if k % c0:
        asc.init_const_value(b1, asc.InitConstValueParams(1, kp * np_ * size // 32, 0, 0))
    if m % 16 or k % c0:          # copies of one pipe may complete out of order
        asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.data_copy(a1, ag, asc.Nd2NzParams(1, m, k, 0, k, mp, 1, 0))
    asc.data_copy(b1, bg, asc.Nd2NzParams(1, k, n, 0, n, kp, 1, 0))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    ks = kp // k_steps            # K columns per step (a multiple of c0)
    for s in range(k_steps):
        if s > 0:                 # L0A / L0B are reused: the previous mmad must have read them
            asc.set_flag(asc.HardEvent.M_MTE1, 0)
            asc.wait_flag(asc.HardEvent.M_MTE1, 0)
        if a_v2:                      # the window of M blocks x this step's K blocks, row by row of fractals
            asc.load_data(a2, a1, asc.LoadData2DParamsV2(0, s * (ks // c0), mp // 16, ks // c0, mp // 16, ks // c0))
        for i in range(0 if a_v2 else mp // 16):     # A's step: NZ -> ZZ, one row of ks // c0 fractals per M block
            asc.load_data(a2[i * 16 * ks:], a1, asc.LoadData2DParams(s * (ks // c0) * (mp // 16) + i, ks // c0,
                                                                     mp // 16))
        for j in range(ks // c0):     # B's step: NZ -> ZN, each fractal transposed
            asc.load_data(b2[j * c0 * np_:], b1, asc.LoadData2DParams(s * (ks // c0) + j, np_ // 16, kp // c0, 0,
                                                                       0, c0 == 16))
        if flag_mte1_m:
            asc.set_flag(asc.HardEvent.MTE1_M, 0)
            asc.wait_flag(asc.HardEvent.MTE1_M, 0)
        step = k - s * ks
        if step > ks:
            step = ks
        asc.mmad(c1, a2, b2, asc.MmadParams(m, n, step, 0, False, s == 0))
    if flag_m_fix:
        asc.set_flag(asc.HardEvent.M_FIX, 0)
        asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(cg, c1, asc.FixpipeParamsV220(n, m, mp, n))


@asc.jit
def cube_matmul_db(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, m: asc.ConstExpr[int],
                   n: asc.ConstExpr[int], k: asc.ConstExpr[int], bm: asc.ConstExpr[int], bn: asc.ConstExpr[int],
                   bk: asc.ConstExpr[int]):
    """C = A . B (fp16 in, fp32 out; m, n multiples of bm, bn; k of bk; all multiples of 16) on one cube core,
    base block by base block: each K step's A and B blocks go GM -> L1 (ND -> NZ) and L1 -> L0A / L0B, both
    double-buffered (slot = step % 2), each slot's reuse waiting only for its previous user; the block
    accumulates in L0C and the fixpipe writes it out."""
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    abytes, bbytes = bm * bk * 2, bk * bn * 2
    a1 = [asc.LocalTensor(asc.float16, asc.TPosition.A1, s * (abytes + bbytes), bm * bk) for s in range(2)]
    b1 = [asc.LocalTensor(asc.float16, asc.TPosition.B1, s * (abytes + bbytes) + abytes, bk * bn) for s in range(2)]
    a2 = [asc.LocalTensor(asc.float16, asc.TPosition.A2, s * abytes, bm * bk) for s in range(2)]
    b2 = [asc.LocalTensor(asc.float16, asc.TPosition.B2, s * bbytes, bk * bn) for s in range(2)]
    c1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, bm * bn)
    for s in range(2):            # every slot starts free
        asc.set_flag(asc.HardEvent.MTE1_MTE2, s)
        asc.set_flag(asc.HardEvent.M_MTE1, s)
    asc.set_flag(asc.HardEvent.FIX_M, 0)
    step = asc.get_block_idx() * 0    # 0 as a device value: the loops below make it one, and pyasc keeps
    #                                   one kind through each of them
    for mi in range(m // bm):
        for nj in range(n // bn):
            for kk in range(k // bk):
                s = step % 2
                asc.wait_flag(asc.HardEvent.MTE1_MTE2, s)       # L1 slot s: MTE1 has moved its last contents
                asc.data_copy(a1[s], ag[mi * bm * k + kk * bk:], asc.Nd2NzParams(1, bm, bk, 0, k, bm, 1, 0))
                asc.data_copy(b1[s], bg[kk * bk * n + nj * bn:], asc.Nd2NzParams(1, bk, bn, 0, n, bk, 1, 0))
                asc.set_flag(asc.HardEvent.MTE2_MTE1, s)
                asc.wait_flag(asc.HardEvent.MTE2_MTE1, s)
                asc.wait_flag(asc.HardEvent.M_MTE1, s)          # L0 slot s: the mmad two steps back has read it
                for i in range(bm // 16):
                    asc.load_data(a2[s][i * 16 * bk:], a1[s], asc.LoadData2DParams(i, bk // 16, bm // 16))
                for j in range(bk // 16):
                    asc.load_data(b2[s][j * 16 * bn:], b1[s], asc.LoadData2DParams(j, bn // 16, bk // 16, 0, 0,
                                                                                   True))
                asc.set_flag(asc.HardEvent.MTE1_MTE2, s)
                asc.set_flag(asc.HardEvent.MTE1_M, s)
                asc.wait_flag(asc.HardEvent.MTE1_M, s)
                if kk == 0:
                    asc.wait_flag(asc.HardEvent.FIX_M, 0)       # L0C: the previous block has been written out
                asc.mmad(c1, a2[s], b2[s], asc.MmadParams(bm, bn, bk, 0, False, kk == 0))
                asc.set_flag(asc.HardEvent.M_MTE1, s)
                step += 1
            asc.set_flag(asc.HardEvent.M_FIX, 0)
            asc.wait_flag(asc.HardEvent.M_FIX, 0)
            asc.fixpipe(cg[mi * bm * n + nj * bn:], c1, asc.FixpipeParamsV220(bn, bm, bm, n))
            asc.set_flag(asc.HardEvent.FIX_M, 0)
    for s in range(2):
        asc.wait_flag(asc.HardEvent.MTE1_MTE2, s)
        asc.wait_flag(asc.HardEvent.M_MTE1, s)
    asc.wait_flag(asc.HardEvent.FIX_M, 0)
