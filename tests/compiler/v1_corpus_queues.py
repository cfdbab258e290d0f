"""v1 kernels of the mistakes corpus (``test_v1_mistakes_corpus.py``): TPipe / TQue / TBuf. Each takes a trailing
``fix: ConstExpr[bool]``: False is the mistake, True its rewrite; the ``#@tag`` markers name the lines the reports
must point at."""
from __future__ import annotations

import asc

from v1_corpus_flags import T


@asc.jit
def add_deque_from_the_wrong_queue(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                   fix: asc.ConstExpr[bool]):
    # Copy-paste: y was enqueued on in_y, but the compute stage dequeues it from in_x a second time.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, 1)
    in_y = asc.TQue(asc.TPosition.VECIN, 1)
    out_z = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_x, num=1, len=n * 4)
    pipe.init_buffer(que=in_y, num=1, len=n * 4)
    pipe.init_buffer(que=out_z, num=1, len=n * 4)
    x_ub = in_x.alloc_tensor(asc.float32)
    y_ub = in_y.alloc_tensor(asc.float32)
    asc.data_copy(x_ub, x_gm, n)
    asc.data_copy(y_ub, y_gm, n)
    in_x.enque(x_ub)
    in_y.enque(y_ub)
    xs = in_x.deque(asc.float32)
    ys = in_y.deque(asc.float32) if fix else in_x.deque(asc.float32)  #@q1.deque_y
    zs = out_z.alloc_tensor(asc.float32)
    asc.add(zs, xs, ys, n)
    out_z.enque(zs)
    in_x.free_tensor(xs)
    in_y.free_tensor(ys)
    zs = out_z.deque(asc.float32)
    asc.data_copy(z_gm, zs, n)
    out_z.free_tensor(zs)


@asc.jit
def relu_tiles_without_free(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int,
                            fix: asc.ConstExpr[bool]):
    # The output queue's buffers are never given back: the third tile's alloc_tensor waits for ever.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 2)
    out_q = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(que=in_q, num=2, len=n * 4)
    pipe.init_buffer(que=out_q, num=2, len=n * 4)
    for i in range(tiles):
        xi = in_q.alloc_tensor(asc.float32)
        asc.data_copy(xi, x_gm[i * n:], n)
        in_q.enque(xi)
        xi = in_q.deque(asc.float32)
        zi = out_q.alloc_tensor(asc.float32)  #@q2.alloc_z
        asc.relu(zi, xi, n)
        out_q.enque(zi)
        in_q.free_tensor(xi)
        zi = out_q.deque(asc.float32)
        asc.data_copy(z_gm[i * n:], zi, n)
        if fix:
            out_q.free_tensor(zi)


@asc.jit
def relu_free_before_copy_out(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int,
                              fix: asc.ConstExpr[bool]):
    # free_tensor is called before the copy-out that reads the tensor: the next tile's compute may overwrite
    # the buffer while MTE3 still reads it.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_q, num=1, len=n * 4)
    pipe.init_buffer(que=out_q, num=1, len=n * 4)
    for i in range(tiles):
        xi = in_q.alloc_tensor(asc.float32)
        asc.data_copy(xi, x_gm[i * n:], n)
        in_q.enque(xi)
        xi = in_q.deque(asc.float32)
        zi = out_q.alloc_tensor(asc.float32)
        asc.relu(zi, xi, n)  #@q3.relu
        out_q.enque(zi)
        in_q.free_tensor(xi)
        zi = out_q.deque(asc.float32)
        if not fix:
            out_q.free_tensor(zi)
        asc.data_copy(z_gm[i * n:], zi, n)  #@q3.copy_out
        if fix:
            out_q.free_tensor(zi)


# Tutorial 02's structure: copy-in, compute and copy-out stages as @asc.jit helpers.
@asc.jit
def stage_copy_in(in_q: asc.TQue, x_gm: asc.GlobalTensor, i: int, n: int):
    xi = in_q.alloc_tensor(asc.float32)
    asc.data_copy(xi, x_gm[i * n:], n)
    in_q.enque(xi)


@asc.jit
def stage_compute(in_q: asc.TQue, out_q: asc.TQue, n: int):
    xi = in_q.deque(asc.float32)
    zi = out_q.alloc_tensor(asc.float32)
    asc.leaky_relu(zi, xi, 0.125, n)  #@h2.compute
    out_q.enque(zi)
    in_q.free_tensor(xi)


@asc.jit
def stage_copy_out(out_q: asc.TQue, z_gm: asc.GlobalTensor, i: int, n: int, fix: asc.ConstExpr[bool]):
    zi = out_q.deque(asc.float32)
    if not fix:
        out_q.free_tensor(zi)
    asc.data_copy(z_gm[i * n:], zi, n)  #@h2.copy_out
    if fix:
        out_q.free_tensor(zi)


@asc.jit
def leaky_relu_stages_free_early(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int,
                                 fix: asc.ConstExpr[bool]):
    # The copy-out stage frees its tensor before copying it out (as in relu_free_before_copy_out), here inside
    # helpers: the report points into them.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 2)
    out_q = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(que=in_q, num=2, len=n * 4)
    pipe.init_buffer(que=out_q, num=2, len=n * 4)
    for i in range(tiles):
        stage_copy_in(in_q, x_gm, i, n)
        stage_compute(in_q, out_q, n)
        stage_copy_out(out_q, z_gm, i, n, fix)


@asc.jit
def exp_copy_out_without_deque(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # The result is enqueued and then copied out from the same tensor, without the deque that waits for V.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_q, num=1, len=n * 4)
    pipe.init_buffer(que=out_q, num=1, len=n * 4)
    xi = in_q.alloc_tensor(asc.float32)
    asc.data_copy(xi, x_gm, n)
    in_q.enque(xi)
    xi = in_q.deque(asc.float32)
    zi = out_q.alloc_tensor(asc.float32)
    asc.exp(zi, xi, n)  #@q4.exp
    out_q.enque(zi)
    in_q.free_tensor(xi)
    if fix:
        zi = out_q.deque(asc.float32)
    asc.data_copy(z_gm, zi, n)  #@q4.copy_out
    out_q.free_tensor(zi)


@asc.jit
def sub_one_input_queue_one_buffer(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                                   fix: asc.ConstExpr[bool]):
    # Both inputs share one VECIN queue that was given a single buffer: the second alloc_tensor never returns.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    y_gm.set_global_buffer(y + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 2 if fix else 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_q, num=2 if fix else 1, len=n * 4)
    pipe.init_buffer(que=out_q, num=1, len=n * 4)
    xi = in_q.alloc_tensor(asc.float32)
    yi = in_q.alloc_tensor(asc.float32)  #@q5.alloc_y
    asc.data_copy(xi, x_gm, n)
    asc.data_copy(yi, y_gm, n)
    in_q.enque(xi)
    in_q.enque(yi)
    xi = in_q.deque(asc.float32)
    yi = in_q.deque(asc.float32)
    zi = out_q.alloc_tensor(asc.float32)
    asc.sub(zi, xi, yi, n)
    out_q.enque(zi)
    in_q.free_tensor(xi)
    in_q.free_tensor(yi)
    zi = out_q.deque(asc.float32)
    asc.data_copy(z_gm, zi, n)
    out_q.free_tensor(zi)


@asc.jit
def adds_veccalc_queue(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # The input is copied into a VECCALC queue's buffer: enque / deque of a VECCALC queue order no pipes, so
    # V may read before MTE2 has written. The fix is the user's MTE2_V flag (or a VECIN queue).
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    calc_q = asc.TQue(asc.TPosition.VECCALC, 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=calc_q, num=1, len=n * 4)
    pipe.init_buffer(que=out_q, num=1, len=n * 4)
    xi = calc_q.alloc_tensor(asc.float32)
    asc.data_copy(xi, x_gm, n)  #@q6.copy_in
    calc_q.enque(xi)
    xi = calc_q.deque(asc.float32)
    if fix:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    zi = out_q.alloc_tensor(asc.float32)
    asc.adds(zi, xi, 1.0, n)  #@q6.adds
    out_q.enque(zi)
    calc_q.free_tensor(xi)
    zi = out_q.deque(asc.float32)
    asc.data_copy(z_gm, zi, n)
    out_q.free_tensor(zi)


@asc.jit
def shift_get_value_after_deque(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # z = x - x[0]: the deque makes V wait for the copy, not the scalar unit that reads x[0].
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_q, num=1, len=n * 4)
    pipe.init_buffer(que=out_q, num=1, len=n * 4)
    xi = in_q.alloc_tensor(asc.float32)
    asc.data_copy(xi, x_gm, n)  #@q7.copy_in
    if fix:
        asc.set_flag(asc.HardEvent.MTE2_S, 0)
        asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    in_q.enque(xi)
    xi = in_q.deque(asc.float32)
    first = xi.get_value(0)  #@q7.get
    zi = out_q.alloc_tensor(asc.float32)
    asc.adds(zi, xi, 0.0 - first, n)     # (pyasc has no unary minus of a float device value)
    out_q.enque(zi)
    in_q.free_tensor(xi)
    zi = out_q.deque(asc.float32)
    asc.data_copy(z_gm, zi, n)
    out_q.free_tensor(zi)


@asc.jit
def neg_deque_without_dtype(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # deque() written as Ascend C's DeQue<T>() without its type: pyasc's deque needs the dtype.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_q, num=1, len=n * 4)
    pipe.init_buffer(que=out_q, num=1, len=n * 4)
    xi = in_q.alloc_tensor(asc.float32)
    asc.data_copy(xi, x_gm, n)
    in_q.enque(xi)
    xi = in_q.deque(asc.float32) if fix else in_q.deque()  #@q8.deque
    zi = out_q.alloc_tensor(asc.float32)
    asc.muls(zi, xi, -1.0, n)
    out_q.enque(zi)
    in_q.free_tensor(xi)
    zi = out_q.deque(asc.float32)
    asc.data_copy(z_gm, zi, n)
    out_q.free_tensor(zi)


@asc.jit
def adds_free_input_twice(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # The compute stage frees its input, and the clean-up at the end frees it again.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_q, num=1, len=n * 4)
    pipe.init_buffer(que=out_q, num=1, len=n * 4)
    xi = in_q.alloc_tensor(asc.float32)
    asc.data_copy(xi, x_gm, n)
    in_q.enque(xi)
    xi = in_q.deque(asc.float32)
    zi = out_q.alloc_tensor(asc.float32)
    asc.adds(zi, xi, 0.5, n)
    out_q.enque(zi)
    in_q.free_tensor(xi)
    zi = out_q.deque(asc.float32)
    asc.data_copy(z_gm, zi, n)
    out_q.free_tensor(zi)
    if not fix:
        in_q.free_tensor(xi)  #@q9.free_again


@asc.jit
def muls_enque_into_the_wrong_queue(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, fix: asc.ConstExpr[bool]):
    # The result is computed into the output queue's tensor, but the input tensor is enqueued on the output
    # queue.
    off = asc.get_block_idx() * n
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n)
    z_gm.set_global_buffer(z + off, n)
    pipe = asc.TPipe()
    in_q = asc.TQue(asc.TPosition.VECIN, 1)
    out_q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=in_q, num=1, len=n * 4)
    pipe.init_buffer(que=out_q, num=1, len=n * 4)
    xi = in_q.alloc_tensor(asc.float32)
    asc.data_copy(xi, x_gm, n)
    in_q.enque(xi)
    xi = in_q.deque(asc.float32)
    zi = out_q.alloc_tensor(asc.float32)
    asc.muls(zi, xi, 4.0, n)
    out_q.enque(zi if fix else xi)  #@q10.enque
    in_q.free_tensor(xi)
    zi = out_q.deque(asc.float32)
    asc.data_copy(z_gm, zi, n)
    out_q.free_tensor(zi)


@asc.jit
def relu_tpipe_per_tile(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int, fix: asc.ConstExpr[bool]):
    # The set-up was moved into the per-tile body: a TPipe (and its buffers) is created for every tile. A
    # kernel has one TPipe; a second one starts allocating UB from the start again, over the first one's
    # buffers.
    off = asc.get_block_idx() * n * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off, n * tiles)
    z_gm.set_global_buffer(z + off, n * tiles)
    if fix:
        pipe = asc.TPipe()
        in_q = asc.TQue(asc.TPosition.VECIN, 1)
        out_q = asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(que=in_q, num=1, len=n * 4)
        pipe.init_buffer(que=out_q, num=1, len=n * 4)
    for i in range(tiles):
        if not fix:
            pipe = asc.TPipe()  #@tp.pipe
            in_q = asc.TQue(asc.TPosition.VECIN, 1)
            out_q = asc.TQue(asc.TPosition.VECOUT, 1)
            pipe.init_buffer(que=in_q, num=1, len=n * 4)
            pipe.init_buffer(que=out_q, num=1, len=n * 4)
        xi = in_q.alloc_tensor(asc.float32)
        asc.data_copy(xi, x_gm[i * n:], n)
        in_q.enque(xi)
        xi = in_q.deque(asc.float32)
        zi = out_q.alloc_tensor(asc.float32)
        asc.relu(zi, xi, n)
        out_q.enque(zi)
        in_q.free_tensor(xi)
        zi = out_q.deque(asc.float32)
        asc.data_copy(z_gm[i * n:], zi, n)
        out_q.free_tensor(zi)
