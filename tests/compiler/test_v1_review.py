"""Edge cases of the v1 paths, each shown by a minimal kernel: the uniform-blocks path (blocks 1.. run as block
0 ran), the replay tape and its read-through/sink steps must leave every buffer and report exactly as running
each block in full (``ASC_V1_BLOCKS=each``, ``ASC_REPLAY=off``) does; user mistakes are located errors; the
checks neither miss nor invent a fault. The cases the engine still gets wrong are strict xfails."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.runtime.config as config

N = 256


@pytest.fixture(autouse=True)
def _platform(monkeypatch):
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.delenv("ASC_V1_BLOCKS", raising=False)
    monkeypatch.delenv("ASC_REPLAY", raising=False)


def _launch(monkeypatch, kernel, blocks, args, env):
    """Launch on copies of ``args`` with the environment ``env``; (the arrays after it, the report)."""
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    kernel.__dict__.pop("_v1_tapes", None)
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        kernel[blocks](*args)
    finally:
        for k in env:
            monkeypatch.delenv(k)
    rep = dict(kernel.last_launch)
    rep.pop("timeline", None)
    return [a for a in args if isinstance(a, np.ndarray)], rep


def _each(monkeypatch, kernel, blocks, args):
    return _launch(monkeypatch, kernel, blocks, args, {"ASC_V1_BLOCKS": "each", "ASC_REPLAY": "off"})


def _assert_same(got, want):
    (g_bufs, g_rep), (w_bufs, w_rep) = got, want
    for g, w in zip(g_bufs, w_bufs):
        np.testing.assert_array_equal(g.view(np.uint8), w.view(np.uint8))
    assert g_rep == w_rep


# -- a held pipe on the uniform path -----------------------------------------------------------------
@asc.jit
def held_vector_pipe(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    b = asc.get_block_idx()
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + b * n, n)
    zg.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)      # V is held until the set below
    asc.adds(c, a, 1.0, n)                      # queued: runs after the copy-in
    asc.data_copy(a, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, c, n)


def test_blocks_after_0_run_a_held_pipes_queue_after_its_set(monkeypatch):
    x = np.arange(4 * N, dtype=np.float32)
    args = (x, np.zeros_like(x), N)
    each = _each(monkeypatch, held_vector_pipe, 4, args)
    np.testing.assert_array_equal(each[0][1], x + 1)      # the reference is right
    _assert_same(_launch(monkeypatch, held_vector_pipe, 4, args, {"ASC_REPLAY": "off"}), each)


# -- mask-form operands: the bytes between the active lanes ------------------------------------------
@asc.jit
def mask_form_reads_written_lanes(z: asc.GlobalAddress, n: int):
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.duplicate(c, 0.0, n)
    asc.duplicate(a, 1.0, 4)                                        # a[0:4]
    asc.duplicate(a[8:], 2.0, 4)                                    # a[8:12]
    asc.adds(c, a, 1.0, 4, 2, asc.UnaryRepeatParams(1, 1, 1, 1))    # mask 4, 2 repeats: a[0:4], a[8:12]
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, c, n)


def test_a_mask_form_reading_only_written_lanes_is_not_an_initcheck_warning():
    z = np.full(N, -1, np.float32)
    mask_form_reads_written_lanes[1](z, N)
    want = np.zeros(N, np.float32)
    want[0:4], want[8:12] = 2.0, 3.0
    np.testing.assert_array_equal(z, want)
    assert mask_form_reads_written_lanes.last_launch["warnings"] == []


@asc.jit
def scalar_store_between_masked_lanes(z: asc.GlobalAddress, n: int):
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.duplicate(a, 1.0, n)
    asc.duplicate(c, 0.0, n)
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    asc.adds(c, a, 1.0, 4, 2, asc.UnaryRepeatParams(1, 1, 1, 1))    # reads a[0:4] and a[8:12]
    a.set_value(5, 7.0)                                             # S writes a[5], which the adds does not read
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, c, n)


def test_a_scalar_store_between_masked_lanes_is_not_a_race():
    z = np.full(N, -1, np.float32)
    scalar_store_between_masked_lanes[1](z, N)
    assert z[0] == 2.0 and z[8] == 2.0 and z[4] == 0.0


# -- arguments that overlap in memory ----------------------------------------------------------------
@asc.jit
def shift_by_one_tile(x: asc.GlobalAddress, y: asc.GlobalAddress, n: int):
    """Block b reads x's tile b and writes y's tile b; launched with y = x[n:], block b + 1 reads what block b
    writes."""
    b = asc.get_block_idx()
    xg, yg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + b * n, n)
    yg.set_global_buffer(y + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.adds(a, a, 1.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(yg, a, n)


def _overlapping():
    base = np.zeros(5 * N, np.float32)
    return base, base[:4 * N], base[N:]


def _outcome(monkeypatch, env):
    base, x, y = _overlapping()
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    shift_by_one_tile.__dict__.pop("_v1_tapes", None)
    try:
        shift_by_one_tile[4](x, y, N)
        return base
    except Exception as e:      # noqa: BLE001  (the outcome compared may be an error)
        return f"{type(e).__name__}: {e}"


def test_a_read_of_another_blocks_write_through_an_overlapping_argument_is_a_race():
    _, x, y = _overlapping()
    with pytest.raises(Exception, match=r"data_copy of 'x' reads data written by block 0 in the same launch "
                       r"\(block 1; block 0's write at line \d+\)") as e:
        shift_by_one_tile[4](x, y, N)
    assert e.value.category == "RaceError"


def test_overlapping_arguments_give_the_uniform_path_each_blocks_result(monkeypatch):
    each = _outcome(monkeypatch, {"ASC_V1_BLOCKS": "each", "ASC_REPLAY": "off"})
    uniform = _outcome(monkeypatch, {"ASC_V1_BLOCKS": "", "ASC_REPLAY": "off"})
    if isinstance(each, str) or isinstance(uniform, str):
        assert uniform == each
    else:
        np.testing.assert_array_equal(uniform, each)


# -- user mistakes that end in an internal traceback -------------------------------------------------
def _located(e):
    """A kernel error names the user's line (this file) and carries a fix."""
    return "test_v1_review.py:" in str(e) and getattr(e, "hint", None) is not None


@asc.jit
def negative_copy_count(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, -8)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, n)


def test_a_negative_data_copy_count_is_a_located_error():
    x = np.arange(N, dtype=np.float32)
    with pytest.raises(Exception) as e:
        negative_copy_count[1](x, np.zeros_like(x), N)
    assert _located(e.value), repr(e.value)


@asc.jit
def negative_vector_count(z: asc.GlobalAddress, n: int):
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 0, n)
    asc.duplicate(c, 1.0, -4)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, c, n)


def test_a_negative_vector_count_is_a_located_error():
    with pytest.raises(Exception) as e:
        negative_vector_count[1](np.zeros(N, np.float32), N)
    assert _located(e.value), repr(e.value)


@asc.jit
def int16_scalar_out_of_range(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.adds(a, a, 100000, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, n)


def test_a_scalar_outside_the_dtype_is_a_located_error():
    x = np.arange(N, dtype=np.int16)
    with pytest.raises(Exception) as e:
        int16_scalar_out_of_range[1](x, np.zeros_like(x), N)
    assert _located(e.value), repr(e.value)


# -- the replay's structure key ----------------------------------------------------------------------
FACTORS = (2.0, 1.0)      # a module-level tuple of numbers the kernel reads


@asc.jit
def scaled_by_module_tuple(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    b = asc.get_block_idx()
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + b * n, n)
    zg.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.muls(a, a, FACTORS[0], n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, n)


def test_a_rebound_module_tuple_is_another_structure(monkeypatch):
    scaled_by_module_tuple.__dict__.pop("_v1_tapes", None)
    x = np.ones(2 * N, np.float32)
    z = np.zeros_like(x)
    scaled_by_module_tuple[2](x, z, N)
    assert z[0] == 2.0
    monkeypatch.setitem(globals(), "FACTORS", (3.0, 1.0))
    scaled_by_module_tuple[2](x, z, N)
    np.testing.assert_array_equal(z, 3.0)


# -- blocks writing identical values -------------------------------------------------------------------
@asc.jit
def every_block_copies_one_tile(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, n)


def test_blocks_writing_identical_nan_bits_are_allowed():
    x = np.arange(N, dtype=np.float32)
    x[3] = np.nan
    z = np.zeros_like(x)
    every_block_copies_one_tile[2](x, z, N)        # finite values: allowed; the same with a NaN must be too
    np.testing.assert_array_equal(z.view(np.uint32), x.view(np.uint32))


# -- a held pipe and a queue -------------------------------------------------------------------------
@asc.jit
def deque_while_the_enque_is_held(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    pipe = asc.TPipe()
    qout = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(qout, 1, n * 4)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 2 * n * 4, n)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)   # V is held until the set below
    c = qout.alloc_tensor(asc.float32)
    asc.adds(c, a, 1.0, n)                   # queued on V
    qout.enque(c)                            # its SetFlag<V_MTE3>: queued on V too
    c = qout.deque(asc.float32)              # WaitFlag<V_MTE3> on MTE3: holds MTE3 until V's enque fires
    asc.data_copy(zg, c, n)                  # queued on MTE3
    asc.data_copy(a, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)    # V runs adds and the enque; MTE3 then copies out
    qout.free_tensor(c)


def test_a_deque_whose_enque_is_held_waits_instead_of_hanging():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros_like(x)
    deque_while_the_enque_is_held[1](x, z, N)
    np.testing.assert_array_equal(z, x + 1)


@asc.jit
def scale_by(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, s: float):
    b = asc.get_block_idx()
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + b * n, n)
    zg.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.muls(a, a, s, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, n)


def test_a_negative_zero_scalar_is_another_structure():
    scale_by.__dict__.pop("_v1_tapes", None)
    x = np.ones(2 * N, np.float32)
    z = np.zeros_like(x)
    scale_by[2](x, z, N, 0.0)
    assert not np.signbit(z).any()
    scale_by[2](x, z, N, -0.0)
    assert np.signbit(z).all()         # 1.0 * -0.0 is -0.0, as ASC_REPLAY=off computes


# -- operands a vector instruction does not take -----------------------------------------------------
@asc.jit
def vector_operand_mistake(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, case: asc.ConstExpr[str]):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    if case == "gm dst":
        asc.adds(zg, a, 1.0, n)         # upstream: adds(dst: LocalTensor, src: LocalTensor, ...)
    elif case == "gm src":
        asc.adds(a, xg, 1.0, n)
    elif case == "str scalar":
        asc.adds(a, a, "1", n)          # upstream: scalar: Union[int, float]
    else:
        asc.adds(a, a, None, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, n)


@pytest.mark.parametrize("case", ["gm dst", "gm src", "str scalar", "None scalar"])
def test_a_vector_operand_of_the_wrong_kind_is_a_located_error(case):
    x = np.arange(N, dtype=np.float32)
    with pytest.raises(Exception) as e:
        vector_operand_mistake[1](x, np.zeros_like(x), N, case)
    assert _located(e.value), repr(e.value)


@asc.jit
def fractional_gm_offset(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + n / 2, 64)         # 127.5 elements for n = 255: a pointer takes whole elements
    zg.set_global_buffer(z, 64)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    asc.data_copy(a, xg, 64)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, 64)


def test_a_fractional_gm_offset_is_a_located_error():
    """``n / 2`` of a compile-time n is Python's 127.5 (of a device int it is pyasc's integer division)."""
    x = np.arange(N, dtype=np.float32)
    with pytest.raises(Exception) as e:
        fractional_gm_offset[1](x, np.zeros(64, np.float32), 255)
    assert _located(e.value), repr(e.value)


@asc.jit
def reads_between_masked_writes(z: asc.GlobalAddress, n: int):
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.duplicate(c, 0.0, n)
    asc.duplicate(a, 1.0, 4, 2, 1, 1)          # mask 4, 2 repeats, repeat stride 1: a[0:4] and a[8:12]
    asc.adds(c, a, 1.0, 12)                    # reads a[4:8], which nothing wrote
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, c, n)


def test_reading_the_lanes_a_mask_form_write_skipped_is_an_initcheck_warning():
    z = np.zeros(N, np.float32)
    reads_between_masked_writes[1](z, N)
    warnings = reads_between_masked_writes.last_launch["warnings"]
    assert any("no instruction of block 0 wrote" in w and "[16, 32)" in w for w in warnings), warnings
