"""The v1 race detector: each race class in a kernel that has it (reported at the later instruction's line,
naming both lines, the pipes, the buffer and the fix) and the corrected kernel (reporting nothing)."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.runtime as rt
from asc.sim.executor import KernelRuntimeError

N = 256    # elements per tile (fp32: 1 KiB)


def _line(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


@asc.jit
def copy_add_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, tiles: int, flag_in: asc.ConstExpr[bool],
                  flag_out: asc.ConstExpr[bool], flag_back: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, N * 4, N)
    for i in range(tiles):
        asc.data_copy(x_ub, x_gm[i * N:], N)                       # line: copy in
        if flag_in:
            asc.set_flag(asc.HardEvent.MTE2_V, 0)
            asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.adds(z_ub, x_ub, 1.0, N)                                # line: compute
        if flag_out:
            asc.set_flag(asc.HardEvent.V_MTE3, 0)
            asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * N:], z_ub, N)                        # line: copy out
        if flag_back:
            asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
            asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


def _run(kernel, *flags, tiles=3, cores=1):
    x = np.arange(N * tiles * cores, dtype=np.float32)
    z = np.zeros_like(x)
    kernel[cores](x, z, tiles, *flags)
    return x, z


def test_the_fully_flagged_kernel_reports_nothing_and_computes():
    x, z = _run(copy_add_copy, True, True, True)
    np.testing.assert_array_equal(z, x + 1)
    assert rt.last_launch_report()["warnings"] == []


def test_read_after_write_between_mte2_and_v_names_lines_pipes_buffer_and_flag():
    with pytest.raises(KernelRuntimeError) as e:
        _run(copy_add_copy, False, True, True)
    text = str(e.value)
    copy_in, compute = _line(copy_add_copy.fn, "# line: copy in"), _line(copy_add_copy.fn, "# line: compute")
    assert f":{compute}: read-after-write race on UB (VECIN" in text
    assert "bytes [0, 1024)" in text and "between pipes MTE2 and V" in text
    assert f"(line {copy_in})" in text and f"(line {compute})" in text
    assert f"asc.set_flag(asc.HardEvent.MTE2_V, id) after line {copy_in}" in text
    assert f"asc.wait_flag(asc.HardEvent.MTE2_V, id) before line {compute}" in text


def test_read_after_write_between_v_and_mte3():
    with pytest.raises(KernelRuntimeError, match=r"read-after-write race on UB \(VECOUT.*between pipes V and MTE3"):
        _run(copy_add_copy, True, False, True)


def test_write_after_read_when_the_next_copy_in_overwrites_what_v_reads():
    # without MTE3_MTE2 nothing tells MTE2 that V finished reading x_ub before tile 1 overwrites it
    with pytest.raises(KernelRuntimeError) as e:
        _run(copy_add_copy, True, True, False)
    text = str(e.value)
    assert "write-after-read race on UB (VECIN" in text and "between pipes V and MTE2" in text
    assert "HardEvent.V_MTE2" in text
    assert f":{_line(copy_add_copy.fn, '# line: copy in')}:" in text


def test_one_tile_needs_no_back_flag():
    x, z = _run(copy_add_copy, True, True, False, tiles=1)
    np.testing.assert_array_equal(z, x + 1)


@asc.jit
def overwrite(x: asc.GlobalAddress, z: asc.GlobalAddress, flag: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    ub = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, N)
    asc.data_copy(ub, x_gm, N)
    if flag:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.duplicate(ub, 3.0, N)                # overwrites the whole copy
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, ub, N)


def test_write_after_write_between_mte2_and_v():
    x, z = np.ones(N, np.float32), np.zeros(N, np.float32)
    with pytest.raises(KernelRuntimeError, match="write-after-write race on UB .*between pipes MTE2 and V"):
        overwrite[1](x, z, False)
    overwrite[1](x, z, True)
    np.testing.assert_array_equal(z, np.full(N, 3.0, np.float32))


@asc.jit
def round_trip(x: asc.GlobalAddress, z: asc.GlobalAddress, flag: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, N * 4, N)
    asc.data_copy(a, x_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, a, N)                 # GM z written by MTE3 ...
    if flag:
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)
    asc.data_copy(b, z_gm, N)                 # ... and read back by MTE2
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 1)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 1)
    asc.data_copy(z_gm[N:], b, N)


def test_gm_round_trip_from_mte3_to_mte2_needs_its_flag():
    x, z = np.arange(N, dtype=np.float32), np.zeros(2 * N, np.float32)
    with pytest.raises(KernelRuntimeError, match=r"read-after-write race on GM 'z' bytes \[0, 1024\) between pipes "
                       r"MTE3 and MTE2[\s\S]*HardEvent.MTE3_MTE2"):
        round_trip[1](x, z, False)
    round_trip[1](x, z, True)
    np.testing.assert_array_equal(z, np.concatenate([x, x]))


@asc.jit
def scalar_read(x: asc.GlobalAddress, z: asc.GlobalAddress, flag: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    asc.data_copy(a, x_gm, N)
    if flag:
        asc.set_flag(asc.HardEvent.MTE2_S, 0)
        asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    v = a.get_value(5)
    z_gm.set_value(0, v)


def test_scalar_reads_of_ub_need_the_mte2_s_flag():
    x, z = np.arange(N, dtype=np.float32), np.zeros(8, np.float32)
    with pytest.raises(KernelRuntimeError, match=r"read-after-write race .*between pipes MTE2 and S[\s\S]*MTE2_S"):
        scalar_read[1](x, z, False)
    scalar_read[1](x, z, True)
    assert z[0] == 5.0


# -- hangs and protocol errors -------------------------------------------------------------------------
@asc.jit
def waits_for_nothing(x: asc.GlobalAddress):
    asc.wait_flag(asc.HardEvent.MTE2_V, 3)


def test_a_wait_flag_nobody_sets_is_a_hang_error_not_a_hang():
    with pytest.raises(KernelRuntimeError, match=r"wait_flag\(MTE2_V, 3\) waits for a flag no set_flag sets"):
        waits_for_nothing[1](np.zeros(8, np.float32))


@asc.jit
def queue_misuse(x: asc.GlobalAddress, mode: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, N * 4)
    if mode == 0:
        t = q.deque(asc.float32)
    else:
        a = q.alloc_tensor(asc.float32)
        b = q.alloc_tensor(asc.float32)


def test_deque_on_an_empty_queue_and_alloc_on_a_full_one_are_errors():
    from asc.language.v1 import PipeHangError
    with pytest.raises(PipeHangError, match="deque on TQue.VECIN. of line .*: the queue is empty"):
        queue_misuse[1](np.zeros(N, np.float32), 0)
    with pytest.raises(PipeHangError, match=r"alloc_tensor on TQue.*all 1 buffer\(s\) are in use"):
        queue_misuse[1](np.zeros(N, np.float32), 1)


@asc.jit
def flag_misuse(x: asc.GlobalAddress, mode: asc.ConstExpr[int]):
    if mode == 0:
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
    elif mode == 1:
        asc.set_flag(asc.HardEvent.V_MTE3, 8)
    else:
        asc.pipe_barrier(asc.PipeID.PIPE_S)


def test_unwaited_flags_warn_and_bad_ids_or_barriers_fail():
    x = np.zeros(8, np.float32)
    flag_misuse[1](x, 0)
    assert any("set_flag(V_MTE3, 0) is never waited for" in w for w in rt.last_launch_report()["warnings"])
    with pytest.raises(ValueError, match="event id 8 is outside 0-7"):
        flag_misuse[1](x, 1)
    with pytest.raises(ValueError, match=r"pipe_barrier\(PIPE_S\) is illegal"):
        flag_misuse[1](x, 2)


# -- across blocks and out of bounds ----------------------------------------------------------------------
@asc.jit
def every_block_writes_row_0(x: asc.GlobalAddress, z: asc.GlobalAddress, per_block: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    src = x + asc.get_block_idx() * N if per_block else x
    x_gm.set_global_buffer(src)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    asc.data_copy(a, x_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, a, N)


def test_blocks_writing_different_values_to_one_gm_range_race_identical_values_do_not():
    x, z = np.arange(2 * N, dtype=np.float32), np.zeros(N, np.float32)
    every_block_writes_row_0[2](x, z, False)     # both blocks write x[:N]
    np.testing.assert_array_equal(z, x[:N])
    with pytest.raises(KernelRuntimeError, match="writes elements of GM 'z' that block 0 also wrote, with different"):
        every_block_writes_row_0[2](x, z, True)


@asc.jit
def shift_through_gm(z: asc.GlobalAddress, src_block: asc.ConstExpr[int]):
    """Block b writes z[b], then reads z[src] back (its own row: ordered by the flag; another block's: a
    cross-core race, as in the tile engine)."""
    b = asc.get_block_idx()
    mine, other = asc.GlobalTensor(), asc.GlobalTensor()
    mine.set_global_buffer(z + b * N, N)
    other.set_global_buffer(z + (b if src_block < 0 else src_block) * N, N)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    asc.duplicate(a, b + 1, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(mine, a, N)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)
    asc.data_copy(a, other, N)                                   # line: read back


def test_a_block_reading_gm_another_block_writes_races_its_own_rows_do_not():
    z = np.zeros(2 * N, np.float32)
    shift_through_gm[2](z, -1)                   # each block reads back what it wrote itself
    np.testing.assert_array_equal(z, np.repeat(np.float32([1, 2]), N))
    line = _line(shift_through_gm.fn, "# line: read back")
    # block 1 reads row 0, which block 0 wrote (blocks run concurrently on the device)
    write = _line(shift_through_gm.fn, "asc.data_copy(mine, a, N)")
    with pytest.raises(KernelRuntimeError, match=r"data_copy of 'z' reads data written by block 0 in the same "
                       rf"launch \(block 1; block 0's write at line {write}\)") as e:
        shift_through_gm[2](z, 0)
    assert e.value.category == "RaceError" and f":{line}:" in str(e.value)
    # block 0 reads row 1 before block 1 writes it: the write then overwrites what another block read
    with pytest.raises(KernelRuntimeError, match=r"data_copy to 'z' overwrites elements block 0 read in the same "
                       rf"launch \(block 1; block 0's read at line {line}\)") as e:
        shift_through_gm[2](z, 1)
    assert f":{write}:" in str(e.value)


@asc.jit
def ragged_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, count: int):
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 1024)
    b = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 2048, 1024)
    asc.data_copy(a, x_gm, count)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(b, a, 1.0, count)                                    # line: compute
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, 1024)                                  # line: copy out


def test_reading_on_chip_bytes_no_instruction_wrote_warns_at_the_reader():
    """data_copy's count form moves whole 32-byte blocks: 1000 halves are 2000 bytes, of which 1984 land; the
    add then reads 16 bytes nobody wrote, and the copy-out 48 more (msSanitizer's initcheck)."""
    x = np.arange(1024, dtype=np.float16)
    z = np.zeros_like(x)
    ragged_copy[1](x, z, 1000)
    warnings = rt.last_launch_report()["warnings"]
    compute, out = _line(ragged_copy.fn, "# line: compute"), _line(ragged_copy.fn, "# line: copy out")
    assert len(warnings) == 2
    assert warnings[0].startswith(f"test_v1_races.py:{compute}: adds reads 16 bytes of UB (VECIN, ")
    assert "in [1984, 2000) that no instruction of block 0 wrote" in warnings[0]
    assert "a data_copy count rounds down to 32 bytes" in warnings[0]
    assert warnings[1].startswith(f"test_v1_races.py:{out}: data_copy reads 48 bytes of UB (VECOUT, ")
    np.testing.assert_array_equal(z[:992], x[:992] + 1)
    ragged_copy[1](x, z, 1024)                   # whole blocks: nothing to report
    assert rt.last_launch_report()["warnings"] == []
    np.testing.assert_array_equal(z, x + 1)


@asc.jit
def floor_tiled(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tile: asc.ConstExpr[int]):
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, tile)
    for i in range(n // tile):                  # floor division: the tail is never copied
        asc.data_copy(a, x_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy(z_gm[i * tile:], a, tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


def test_output_elements_no_block_wrote_are_a_coverage_warning():
    x = np.arange(3 * N + 8, dtype=np.float32)
    z = np.zeros_like(x)
    floor_tiled[1](x, z, x.size, N)
    assert rt.last_launch_report()["warnings"] == [
        f"'z': 8 of {x.size} element(s) were never written by any block (the first uncovered range is "
        f"[{3 * N}, {x.size})); if this is an output, check that the tiling covers all of it (e.g. a loop bound "
        "from a floor division drops the tail: use asc.ceildiv)"]
    floor_tiled[1](x[:3 * N].copy(), z[:3 * N], 3 * N, N)
    assert rt.last_launch_report()["warnings"] == []


@asc.jit
def too_far(x: asc.GlobalAddress, where: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    if where == 0:
        x_gm.get_value(N)
    else:
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 1024 * 1024, N)


def test_accesses_past_gm_or_past_ub_name_the_numbers():
    x = np.zeros(N, np.float32)
    with pytest.raises(KernelRuntimeError, match=r"reads bytes \[1024, 1028\) of GM 'x', which has 1024 bytes"):
        too_far[1](x, 0)
    with pytest.raises(KernelRuntimeError, match=r"spans bytes \[1048576, 1049600\) of UB, which has 2\d+ bytes"):
        too_far[1](x, 1)


# -- correct kernels stay silent -----------------------------------------------------------------------------
@asc.jit
def barriers_instead_of_flags(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int):
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    y_gm.set_global_buffer(y + offset, block_length)
    z_gm.set_global_buffer(z + offset, block_length)
    tile = block_length // 16
    x_local = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, tile * 2)
    y_local = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, tile * 8, tile * 2)
    z_local = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, tile * 16, tile * 2)
    for i in range(16):
        b = i % 2
        asc.data_copy(x_local[b * tile:], x_gm[i * tile:], tile)
        asc.data_copy(y_local[b * tile:], y_gm[i * tile:], tile)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.add(z_local[b * tile:], x_local[b * tile:], y_local[b * tile:], tile)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(z_gm[i * tile:], z_local[b * tile:], tile)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def test_tutorial_01_with_every_flag_pair_a_full_barrier_reports_nothing():
    rng = np.random.default_rng(1)
    x, y = rng.random(8 * 2048, dtype=np.float32), rng.random(8 * 2048, dtype=np.float32)
    z = np.zeros_like(x)
    barriers_instead_of_flags[8](x, y, z, 2048)
    np.testing.assert_array_equal(z, x + y)
    assert rt.last_launch_report()["warnings"] == []


@asc.jit
def auto_tensors(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    for i in range(4):
        a = asc.LocalTensorAuto(asc.float32, n)
        b = asc.LocalTensorAuto(asc.float32, n)
        asc.data_copy(a, x_gm[i * n:], n)
        v = a.get_value(0)
        asc.muls(b, a, 2.0, n)
        asc.adds(b, b, v, n)
        asc.data_copy(z_gm[i * n:], b, n)


def test_local_tensor_auto_kernels_are_synchronised_like_insert_sync():
    x = np.arange(4 * 64, dtype=np.float32)
    z = np.zeros_like(x)
    auto_tensors[1](x, z, 64)
    np.testing.assert_array_equal(z, x * 2 + np.repeat(x[::64], 64))
    assert rt.last_launch_report()["warnings"] == []


@asc.jit
def queue_use_after_free(x: asc.GlobalAddress, z: asc.GlobalAddress, late_read: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    qin = asc.TQue(asc.TPosition.VECIN, 1)
    qout = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(qin, 1, N * 4)
    pipe.init_buffer(qout, 1, N * 4)
    for i in range(2):
        a = qin.alloc_tensor(asc.float32)
        asc.data_copy(a, x_gm[i * N:], N)                  # line: refill
        qin.enque(a)
        b = qin.deque(asc.float32)
        c = qout.alloc_tensor(asc.float32)
        if late_read:
            qin.free_tensor(b)
            asc.adds(c, b, 1.0, N)                          # line: late read
        else:
            asc.adds(c, b, 1.0, N)
            qin.free_tensor(b)
        qout.enque(c)
        d = qout.deque(asc.float32)
        asc.data_copy(z_gm[i * N:], d, N)
        qout.free_tensor(d)


def test_reading_a_queue_buffer_after_free_tensor_races_with_its_refill():
    x, z = np.arange(2 * N, dtype=np.float32), np.zeros(2 * N, np.float32)
    queue_use_after_free[1](x, z, False)
    np.testing.assert_array_equal(z, x + 1)
    with pytest.raises(KernelRuntimeError) as e:
        queue_use_after_free[1](x, z, True)
    text = str(e.value)
    refill, late = _line(queue_use_after_free.fn, "# line: refill"), _line(queue_use_after_free.fn, "# line: late read")
    assert f":{refill}: write-after-read race on UB (VECIN, TQue(VECIN)" in text
    assert f"(line {late})" in text and "between pipes V and MTE2" in text
    assert "free_tensor after line" in text and "queue protocol" in text


@asc.jit
def misaligned(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    asc.data_copy(a[3:], x_gm, 64)


def test_local_operands_must_start_on_32_bytes():
    with pytest.raises(ValueError, match=r"data_copy: the UB operand starts at byte 12, which is not 32-byte aligned"):
        misaligned[1](np.zeros(N, np.float32))


@asc.jit
def wait_first(x: asc.GlobalAddress, z: asc.GlobalAddress, order: asc.ConstExpr[str]):
    """relu of one tile with V's wait_flag(MTE2_V) issued before ("wait_first") or after the copy and its
    set; "never": the set never comes; "barrier": a full barrier between the wait and its set."""
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, N * 4, N)
    if order != "set_first":
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)                       # line: early wait
    if order == "barrier":
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)                        # line: barrier
    asc.data_copy(a, x_gm, N)
    if order != "never":
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
    if order == "set_first":
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.relu(b, a, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, N)


def test_a_wait_issued_before_its_set_holds_only_its_pipe():
    """On the device a wait_flag holds its own pipe's queue while the scalar unit goes on issuing: V's relu
    runs once MTE2's later set_flag fires, as when the wait follows the set (same result, same ticks)."""
    x = np.arange(N, dtype=np.float32) - N / 2
    ticks = {}
    for order in ("wait_first", "set_first"):
        z = np.zeros_like(x)
        wait_first[1](x, z, order)
        report = rt.last_launch_report()
        assert report["warnings"] == []
        np.testing.assert_array_equal(z, np.maximum(x, 0))
        ticks[order] = report["ticks"]
    assert ticks["wait_first"] == ticks["set_first"]
    # the set never comes: the held pipe hangs, reported at the wait when the block ends
    with pytest.raises(KernelRuntimeError, match=r"wait_flag\(MTE2_V, 0\) waits for a flag no set_flag sets") as e:
        wait_first[1](x, np.zeros_like(x), "never")
    assert e.value.category == "PipeHangError" and f":{_line(wait_first.fn, '# line: early wait')}:" in str(e.value)
    # a full barrier waits for the held pipe, which waits for a set behind the barrier: a hang at the barrier
    with pytest.raises(KernelRuntimeError, match=r"pipe_barrier\(PIPE_ALL\) waits for every pipe, and pipe V waits") \
            as e:
        wait_first[1](x, np.zeros_like(x), "barrier")
    assert f":{_line(wait_first.fn, '# line: barrier')}:" in str(e.value)


@asc.jit
def inside_one_block(x: asc.GlobalAddress, case: asc.ConstExpr[str]):
    """Accesses of V and S inside one 32-byte block (8 floats) with no flag between them."""
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    if case == "before":
        asc.duplicate(a, 1.0, 8)                 # an earlier V write that does cover element 6
    asc.duplicate(a, 2.0, 4)                                                  # line: fill
    a.set_value(6, 5.0)                                                       # line: scalar
    if case == "overlap":
        a.set_value(2, 5.0)                                                   # line: overlapping


def test_accesses_inside_one_32_byte_block_race_only_on_shared_bytes():
    """The detector tracks 32-byte blocks, but a race needs a shared byte: V writing elements 0..3 and S
    writing element 6 of one block do not race; element 2 does; and an earlier unordered V write that covers
    element 6 races although the block's latest V write does not."""
    x = np.zeros(64, np.float32)
    inside_one_block[1](x, "apart")
    with pytest.raises(KernelRuntimeError, match=r"write-after-write race on UB .* between pipes V and S") as e:
        inside_one_block[1](x, "overlap")
    assert f"duplicate on V (line {_line(inside_one_block.fn, '# line: fill')})" in str(e.value)
    with pytest.raises(KernelRuntimeError, match=r"write-after-write race") as e:
        inside_one_block[1](x, "before")
    line = _line(inside_one_block.fn, "# an earlier V write")
    assert f"duplicate on V (line {line})" in str(e.value)
    assert f":{_line(inside_one_block.fn, '# line: scalar')}:" in str(e.value)


@asc.jit
def two_loads(x: asc.GlobalAddress, z: asc.GlobalAddress, between: asc.ConstExpr[str]):
    """Two copies into overlapping UB bytes (a halo reload), then the sum of the window copied out."""
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * N)
    asc.data_copy(a, x_gm, N)                                          # line: first copy
    if between == "barrier":
        asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    elif between == "flags":
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.set_flag(asc.HardEvent.V_MTE2, 0)
        asc.wait_flag(asc.HardEvent.V_MTE2, 0)
    asc.data_copy(a[N // 2:], x_gm[N:], N)                             # line: second copy
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, N + N // 2)


def test_copies_of_one_pipe_into_overlapping_bytes_need_a_barrier_of_that_pipe():
    """DataCopy's constraint: DMAs of one pipe may complete out of order, so the second copy may land
    first; pipe_barrier(PIPE_MTE2), or a flag chain through another pipe, orders them."""
    x = np.arange(2 * N, dtype=np.float32)
    z = np.zeros(N + N // 2, np.float32)
    first, second = _line(two_loads.fn, "# line: first copy"), _line(two_loads.fn, "# line: second copy")
    two_loads[1](x, z, "nothing")
    assert rt.last_launch_report()["warnings"] == [
        f"test_v1_races.py:{second}: data_copy on MTE2 writes bytes [{N // 2 * 4}, {N // 2 * 4 + N * 4}) of UB "
        f"(VECIN, LocalTensor(VECIN) of line {first - 1}) that the data_copy at line {first}, also on MTE2, writes, "
        f"and nothing makes that one complete first: copies of one pipe may complete out of order; add "
        f"asc.pipe_barrier(asc.PipeID.PIPE_MTE2) between line {first} and line {second}"]
    np.testing.assert_array_equal(z, np.concatenate([x[:N // 2], x[N:2 * N]]))
    for between in ("barrier", "flags"):
        two_loads[1](x, z, between)
        assert rt.last_launch_report()["warnings"] == []


@asc.jit
def held_write_then_scalar_read(x: asc.GlobalAddress, z: asc.GlobalAddress):
    """V waits early (held), queues a write of `a`; the scalar unit reads `a` before V runs, with no flag."""
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, N * 4, N)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.duplicate(a, 1.0, N)                                          # line: held write
    v = a.get_value(0)                                                # line: scalar read
    asc.data_copy(b, x_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)


def test_a_race_with_a_held_instruction_is_told_in_program_order():
    """The held duplicate runs after the scalar read, but comes first in the program: the report is the read
    racing with the earlier write, and the fix is a V_S flag between them (not one before the earlier line)."""
    w, r = _line(held_write_then_scalar_read.fn, "# line: held write"), _line(held_write_then_scalar_read.fn,
                                                                             "# line: scalar read")
    with pytest.raises(KernelRuntimeError, match=r"read-after-write race on UB .* between pipes V and S: get_value "
                       rf"on S \(line {r}\) reads what duplicate on V \(line {w}\) writes") as e:
        held_write_then_scalar_read[1](np.zeros(N, np.float32), np.zeros(N, np.float32))
    assert f":{r}: " in str(e.value)
    assert f"add asc.set_flag(asc.HardEvent.V_S, id) after line {w} and asc.wait_flag(asc.HardEvent.V_S, id) " \
           f"before line {r}" in str(e.value)
