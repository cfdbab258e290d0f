"""pyasc v1's framework objects as Ascend C's: TPipe (event ids, reset / destroy / init, buffer pools), the
TQueBind buffer state machine, TBuf, TBufPool and LocalMemAllocator."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.ir.faults import KernelRuntimeError, PipeHangError

N = 256
SEEN = []       # what a kernel body hands back to the test (the body is Python, run per block)


def seen_once(expected):
    """What the kernel body handed back: once, or twice when ASC_REPLAY=verify runs the launch again."""
    return SEEN in (expected, expected * 2)


@pytest.fixture(params=["Ascend910B1", "Ascend950PR_9599"])
def platform(request):
    config.set_platform(config.Backend.Model, getattr(config.Platform, request.param))
    SEEN.clear()
    yield request.param
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


def gm(*ptrs):
    out = []
    for p in ptrs:
        g = asc.GlobalTensor()
        g.set_global_buffer(p)
        out.append(g)
    return out


def line_of(fn, text):
    src, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, s in enumerate(src) if text in s)


# -- the queue state machine -------------------------------------------------------------------------------
@asc.jit(always_compile=True)
def abs_then_double_in_place(x: asc.GlobalAddress, z: asc.GlobalAddress):
    xg, zg = gm(x, z)
    pipe = asc.TPipe()
    qi = asc.TQue(asc.TPosition.VECIN, 1)
    qo = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(qi, 1, N * 4)
    pipe.init_buffer(qo, 1, N * 4)
    a = qi.alloc_tensor(asc.float32)
    asc.data_copy(a, xg, N)
    qi.enque(a)
    b = qi.deque(asc.float32)
    asc.abs(b, b, N)
    qi.enque(b)                  # a dequeued buffer goes back into its queue (Ascend C: DEQUE -> ENQUE)
    b2 = qi.deque(asc.float32)
    c = qo.alloc_tensor(asc.float32)
    asc.muls(c, b2, 2.0, N)
    qo.enque(c)
    qi.free_tensor(b2)
    d = qo.deque(asc.float32)
    asc.data_copy(zg, d, N)
    qo.free_tensor(d)


def test_a_dequeued_tensor_is_enqueued_again_in_place(platform):
    x = np.linspace(-3, 3, N).astype(np.float32)
    z = np.zeros_like(x)
    abs_then_double_in_place[1](x, z)
    np.testing.assert_array_equal(z, np.abs(x) * 2)
    assert abs_then_double_in_place.last_launch["warnings"] == []


@asc.jit(always_compile=True)
def queue_misuse(x: asc.GlobalAddress, what: asc.ConstExpr[str]):
    xg, = gm(x)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    pipe.init_buffer(q, 2, N * 4)
    a = q.alloc_tensor(asc.float32)
    asc.data_copy(a, xg, N)
    if what == "enque_twice":
        q.enque(a)
        q.enque(a)
    elif what == "enque_freed":
        q.enque(a)
        b = q.deque(asc.float32)
        q.free_tensor(b)
        q.enque(b)
    elif what == "over_depth":
        q2 = asc.TQue(asc.TPosition.VECIN, 1)
        pipe.init_buffer(q2, 2, N * 4)
        c = q2.alloc_tensor(asc.float32)
        d = q2.alloc_tensor(asc.float32)
        q2.enque(c)
        q2.enque(d)
    elif what == "copy_after_enque":
        q.enque(a)
        asc.data_copy(a, xg, N)   # after the enque
        b = q.deque(asc.float32)
        asc.abs(b, b, N)
        q.free_tensor(b)


def test_enque_from_a_state_ascend_c_refuses_is_an_error(platform):
    x = np.ones(N, np.float32)
    with pytest.raises(RuntimeError, match="buffer 0 is already enqueued"):
        queue_misuse[1](x, "enque_twice")
    with pytest.raises(RuntimeError, match="buffer 0 is free"):
        queue_misuse[1](x, "enque_freed")


def test_enque_past_the_depth_hangs(platform):
    with pytest.raises(PipeHangError, match=r"already holds 1 tensor\(s\) \(depth 1\)"):
        queue_misuse[1](np.ones(N, np.float32), "over_depth")


def test_a_copy_into_a_tensor_after_its_enque_races_with_the_consumer(platform):
    # enque orders only what was issued before it: the second copy is not ordered before the consumer's read
    with pytest.raises(KernelRuntimeError) as ei:
        queue_misuse[1](np.ones(N, np.float32), "copy_after_enque")
    text = str(ei.value)
    assert "read-after-write race" in text and "between pipes MTE2 and V" in text, text
    assert f"data_copy on MTE2 (line {line_of(queue_misuse, '# after the enque')})" in text, text
    assert f":{line_of(queue_misuse, 'asc.abs(b, b, N)')}:" in text, text


@asc.jit(always_compile=True)
def queue_queries(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    q = asc.TQueBind(asc.TPosition.GM, asc.TPosition.VECIN, 2)
    pipe.init_buffer(que=q, num=2, len=N * 4)
    SEEN.append((q.get_tensor_count_in_que(), q.has_tensor_in_que(), q.vacant_in_que(), q.has_idle_buffer()))
    a = q.alloc_tensor(asc.float32)
    b = asc.LocalTensor(asc.float32)
    q.alloc_tensor(b)                                   # the in-place form
    SEEN.append((q.get_tensor_count_in_que(), q.has_tensor_in_que(), q.vacant_in_que(), q.has_idle_buffer()))
    q.enque(a)
    q.enque(b)
    SEEN.append((q.get_tensor_count_in_que(), q.has_tensor_in_que(), q.vacant_in_que(), q.has_idle_buffer()))
    c = q.deque(asc.float32)
    SEEN.append((c.get_phy_addr(), b.get_phy_addr()))
    q.free_tensor(c)
    q.free_all_event()
    SEEN.append(q.has_idle_buffer())


def test_queue_queries_follow_the_buffer_states(platform):
    queue_queries[1](np.ones(N, np.float32))
    assert SEEN[:3] == [(0, False, True, True), (0, False, True, False), (2, True, False, False)]
    assert SEEN[3] == (0, N * 4)          # the oldest enqueued (the first buffer); the second at N * 4 bytes
    assert SEEN[4] is True


# -- TPipe ---------------------------------------------------------------------------------------------------
@asc.jit(always_compile=True)
def event_ids(x: asc.GlobalAddress, z: asc.GlobalAddress, what: asc.ConstExpr[str]):
    xg, zg = gm(x, z)
    pipe = asc.TPipe()
    if what == "exhaust":
        for _ in range(9):
            pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    elif what == "release_unallocated":
        pipe.release_event_id(3, asc.HardEvent.MTE2_V)
    else:
        first = pipe.fetch_event_id(asc.HardEvent.MTE2_V)
        e0 = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
        e1 = asc.get_tpipe_ptr().alloc_event_id(asc.HardEvent.MTE2_V)
        other = pipe.alloc_event_id()                   # V_S by default: ids of each event are their own
        pipe.release_event_id(e0, asc.HardEvent.MTE2_V)
        again = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
        SEEN.append((first, e0, e1, other, again, pipe.fetch_event_id(asc.HardEvent.MTE2_V)))
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
        c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, N * 4, N)
        asc.data_copy(a, xg, N)
        asc.set_flag(asc.HardEvent.MTE2_V, e1)
        asc.wait_flag(asc.HardEvent.MTE2_V, e1)
        asc.abs(c, a, N)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(zg, c, N)


def test_event_ids_are_allocated_lowest_first_and_released(platform):
    x = np.linspace(-1, 1, N).astype(np.float32)
    z = np.zeros_like(x)
    event_ids[1](x, z, "use")
    assert seen_once([(0, 0, 1, 0, 0, 2)]), SEEN
    np.testing.assert_array_equal(z, np.abs(x))


def test_a_ninth_event_id_or_releasing_a_free_one_is_an_error(platform):
    x = np.zeros(N, np.float32)
    with pytest.raises(RuntimeError, match="HardEvent.MTE2_V: all 8 event ids are allocated"):
        event_ids[1](x, x.copy(), "exhaust")
    with pytest.raises(RuntimeError, match=r"release_event_id\(3, HardEvent.MTE2_V\): the id is not allocated"):
        event_ids[1](x, x.copy(), "release_unallocated")


@asc.jit(always_compile=True)
def pipe_lifecycle(x: asc.GlobalAddress, what: asc.ConstExpr[str]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 1000)             # rounds up to 1024 bytes
    r = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(r, 1, 64)
    SEEN.append(r.alloc_tensor(asc.float32).get_phy_addr())
    if what == "reset":
        pipe.reset()
        pipe.init_buffer(r, 1, 64)            # placed again from the start
        SEEN.append(r.alloc_tensor(asc.float32).get_phy_addr())
    elif what == "destroy":
        pipe.destroy()
        p2 = asc.TPipe()                      # allowed once the first one is destroyed
        p2.init_buffer(r, 1, 64)
        SEEN.append(r.alloc_tensor(asc.float32).get_phy_addr())
        SEEN.append(asc.get_tpipe_ptr() is p2)
        p2.destroy()
        pipe.init()                           # the destroyed pipe, initialised again
        SEEN.append(asc.get_tpipe_ptr() is pipe)
    SEEN.append(pipe.get_base_addr(asc.TPosition.VECIN))


def test_reset_and_destroy_give_the_memory_back(platform):
    x = np.zeros(N, np.float32)
    pipe_lifecycle[1](x, "reset")
    assert seen_once([1024, 0, 0]), SEEN
    SEEN.clear()
    pipe_lifecycle[1](x, "destroy")
    assert seen_once([1024, 0, True, True, 0]), SEEN


# -- TBufPool, TBuf, LocalMemAllocator ---------------------------------------------------------------------
@asc.jit(always_compile=True)
def buf_pools(x: asc.GlobalAddress, z: asc.GlobalAddress, what: asc.ConstExpr[str]):
    xg, zg = gm(x, z)
    pipe = asc.TPipe()
    head = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf=head, len=64)
    pool = asc.TBufPool(asc.TPosition.VECCALC, 2)
    pipe.init_buf_pool(pool, 2 * N * 4)
    shared = asc.TBufPool(asc.TPosition.VECCALC)
    pipe.init_buf_pool(shared, N * 4, pool)
    a = asc.TBuf(asc.TPosition.VECCALC)
    b = asc.TBuf(asc.TPosition.VECCALC)
    pool.init_buffer(buf=a, len=N * 4)
    pool.init_buffer(buf=b, len=N * 4)
    if what == "past_pool":
        pool.init_buffer(buf=asc.TBuf(asc.TPosition.VECCALC), len=32)
    elif what == "buf_ids":
        pool.reset()
        for _ in range(3):
            pool.init_buffer(buf=asc.TBuf(asc.TPosition.VECCALC), len=32)
    elif what == "offset":
        a.get_with_offset(8, 16, asc.float32)
    ta, tb = a.get(asc.float32), b.get(asc.float32)
    c = asc.TBuf(asc.TPosition.VECCALC)
    shared.init_buffer(buf=c, len=N * 4)
    SEEN.append((head.get(asc.float32).get_phy_addr(), ta.get_phy_addr(), tb.get_phy_addr(),
                 c.get(asc.float32).get_phy_addr(), a.get_with_offset(8, 32, asc.float32).get_phy_addr()))
    asc.data_copy(ta, xg, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.abs(tb, ta, N)
    pool.reset()                              # every pipe idle, then the same bytes placed again
    d = asc.TBuf(asc.TPosition.VECCALC)
    pool.init_buffer(buf=d, len=N * 4)
    td = d.get(asc.float32)
    asc.adds(td, tb, 1.0, N)                  # td is ta's bytes: written after abs read them (ordered by reset)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, td, N)


def test_a_buffer_pool_places_its_buffers_and_places_them_again_after_reset(platform):
    x = np.linspace(-2, 2, N).astype(np.float32)
    z = np.zeros_like(x)
    buf_pools[1](x, z, "use")
    assert seen_once([(0, 64, 64 + N * 4, 64, 64 + 32)]), SEEN     # the shared pool starts where the pool does
    np.testing.assert_array_equal(z, np.abs(x) + 1)
    assert buf_pools.last_launch["warnings"] == []


def test_a_pool_refuses_buffers_past_its_bytes_or_its_buffer_count(platform):
    x = np.zeros(N, np.float32)
    with pytest.raises(ValueError, match=rf"needs bytes \[{2 * N * 4}, {2 * N * 4 + 32}\) of TBufPool\(VECCALC\) "
                       rf"of line \d+, which has {2 * N * 4} bytes"):
        buf_pools[1](x, x.copy(), "past_pool")
    with pytest.raises(ValueError, match="holds 3 buffers, its buf_id_size is 2"):
        buf_pools[1](x, x.copy(), "buf_ids")
    with pytest.raises(ValueError, match="buf_offset must be align to 32B"):
        buf_pools[1](x, x.copy(), "offset")


@asc.jit(always_compile=True)
def allocator_copy(x: asc.GlobalAddress, z: asc.GlobalAddress):
    xg, zg = gm(x, z)
    alloc = asc.LocalMemAllocator()
    a = alloc.alloc(asc.TPosition.VECIN, asc.float32, 10)        # 40 bytes: the next tensor starts at 64
    b = alloc.alloc(asc.TPosition.VECOUT, asc.float32, N)
    SEEN.append((a.get_phy_addr(), b.get_phy_addr(), alloc.get_cur_addr()))
    asc.data_copy(b, xg, N)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(zg, b, N)


def test_local_mem_allocator_places_tensors_one_after_another(platform):
    x = np.arange(N, dtype=np.float32)
    z = np.zeros_like(x)
    allocator_copy[1](x, z)
    assert seen_once([(0, 64, 64 + N * 4)]), SEEN
    np.testing.assert_array_equal(z, x)


@asc.jit(always_compile=True)
def upstream_forms(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(q, 2, 100)               # (que, num, len): two buffers of 128 bytes
    pipe.init_buffer(b, 64)                   # (buf, len)
    t = asc.LocalTensor(asc.float16, 512)     # (dtype, addr)
    SEEN.append((len(q.buffers), q.alloc_tensor(asc.float32).get_phy_addr(), b.get(asc.float32).get_phy_addr(),
                 b.get(asc.float32).get_size(), t.get_phy_addr(), t.get_position()))
    if x.dtype == asc.float32:
        pipe.init_buffer(b, 64, 32)


def test_init_buffer_and_local_tensor_take_upstreams_positional_forms(platform):
    with pytest.raises(TypeError, match=r"init_buffer\(TBuf, ...\) takes len"):
        upstream_forms[1](np.zeros(8, np.float32))
    assert seen_once([(2, 0, 256, 16, 512, int(asc.TPosition.VECIN))]), SEEN


@asc.jit(always_compile=True)
def copy_through_a_bound_queue(x: asc.GlobalAddress, z: asc.GlobalAddress):
    xg, zg = gm(x, z)
    pipe = asc.TPipe()
    q = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, 1)     # MTE2 fills it, MTE3 drains it
    pipe.init_buffer(q, 1, N * 4)
    a = q.alloc_tensor(asc.float32)
    asc.data_copy(a, xg, N)
    q.enque(a)
    b = q.deque(asc.float32)
    asc.data_copy(zg, b, N)
    q.free_tensor(b)


def test_a_queue_bound_from_vecin_to_vecout_orders_mte2_before_mte3(platform):
    x = np.arange(N, dtype=np.float32)
    z = np.zeros_like(x)
    copy_through_a_bound_queue[1](x, z)
    np.testing.assert_array_equal(z, x)
    assert copy_through_a_bound_queue.last_launch["warnings"] == []


# -- TBuf's queue methods (upstream's TBuf is a TQueBind from its position to itself) ---------------------
@asc.jit(always_compile=True)
def tbuf_as_queue(x: asc.GlobalAddress, z: asc.GlobalAddress, use_queue: asc.ConstExpr[bool]):
    x_gm, z_gm = gm(x, z)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECIN)
    pipe.init_buffer(buf=buf, len=N * 4)
    a = buf.get(asc.float32)
    SEEN.append((buf.get_tensor_count_in_que(), buf.has_tensor_in_que(), buf.vacant_in_que()))
    asc.data_copy(a, x_gm, N)
    if use_queue:
        buf.enque(a)
        SEEN.append((buf.get_tensor_count_in_que(), buf.has_tensor_in_que()))
        a = buf.deque(asc.float32)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, N * 4, N)
    asc.abs(b, a, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, N)
    buf.free_all_event()
    SEEN.append((buf.get_tensor_count_in_que(), buf.has_idle_buffer()))


def test_a_vecin_tbufs_enque_and_deque_order_the_copy_before_the_vector_read(platform):
    x = -np.arange(N, dtype=np.float32)
    z = np.zeros_like(x)
    tbuf_as_queue[1](x, z, True)
    np.testing.assert_array_equal(z, np.abs(x))
    assert SEEN[:3] == [(0, False, True), (1, True), (0, False)]
    with pytest.raises(KernelRuntimeError, match="read-after-write race .* between pipes MTE2 and V"):
        tbuf_as_queue[1](x, z, False)           # without them the TBuf orders nothing


@asc.jit
def tbuf_deque_empty(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf=buf, len=N * 4)
    buf.deque(asc.float32)


def test_deque_of_a_tbuf_never_enqueued_hangs(platform):
    with pytest.raises(PipeHangError, match="the queue is empty"):
        tbuf_deque_empty[1](np.ones(N, np.float32))
