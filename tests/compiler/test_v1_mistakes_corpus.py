"""A corpus of small v1 kernels, each with a synchronisation (or bounds) mistake an Ascend C author makes, next
to its corrected rewrite. Every kernel takes a trailing ``fix: ConstExpr[bool]``: ``fix=False`` is the
mistake, ``fix=True`` the rewrite, so the two differ only in the lines under ``if fix`` / ``else``.

For a mistake the engine must stop with the right error class and category, at the user's line (both lines for
a race), naming the two pipes and the fix (the HardEvent pair, or the queue call). The rewrite must run clean,
without launch-report warnings, and match numpy on Ascend910B1 and Ascend950PR_9599. Lines are found by the
``#@tag`` markers at their ends. Cases where the engine's verdict is wrong are strict xfails that say why."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.language.v1.fwk import PipeHangError
from asc.sim.executor import KernelRuntimeError

PLATFORMS = (config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599)
T = 64              # fp32 elements per tile (256 bytes: one vector repeat)
F32 = 4


@pytest.fixture(params=PLATFORMS, ids=lambda p: p.value)
def platform(request):
    config.set_platform(config.Backend.Model, request.param)
    return request.param


# -- finding the user's lines and checking reports ---------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _tags():
    out = {}
    with open(__file__) as f:
        for n, src in enumerate(f, 1):
            m = re.search(r"#@([\w.]+)\s*$", src)
            if m:
                assert m.group(1) not in out, f"tag {m.group(1)} twice"
                out[m.group(1)] = n
    return out


def line(tag):
    return _tags()[tag]


def reported_line(err):
    """The line an engine error is reported at (its ``file:line:`` prefix, which must be this file)."""
    m = re.match(r"(?P<file>\S+?):(?P<line>\d+): ", str(err))
    assert m, f"no file:line: prefix in\n{err}"
    assert m.group("file").endswith("test_v1_mistakes_corpus.py"), str(err)
    return int(m.group("line"))


_KINDS = {"RAW": "read-after-write", "WAR": "write-after-read", "WAW": "write-after-write"}


def assert_race(err, kind, first, second, pipes, event=None, queue=None, where=None):
    """A race reported at the later line ``second``, naming the earlier line ``first``, both pipes (earlier
    first), and the fix: the ``event`` flag pair between the two lines, or the ``queue`` calls."""
    text = str(err)
    assert isinstance(err, KernelRuntimeError), repr(err)
    assert err.category == "RaceError", text
    assert reported_line(err) == line(second), text
    assert f"{_KINDS[kind]} race" in text, text
    assert f"between pipes {pipes[0]} and {pipes[1]}" in text, text
    assert f"on {pipes[1]} (line {line(second)})" in text and f"on {pipes[0]} (line {line(first)})" in text, text
    if where is not None:
        assert where in text, text
    hint = err.hint or ""
    assert f"hint: {hint}" in text
    if event is not None:
        assert (f"asc.set_flag(asc.HardEvent.{event}, id) after line {line(first)} and "
                f"asc.wait_flag(asc.HardEvent.{event}, id) before line {line(second)}") in hint, hint
    if queue is not None:
        assert queue % (line(first), line(second)) in hint, hint


def run(kernel, blocks, *args):
    kernel[blocks](*args)
    return kernel.last_launch


def clean(kernel, blocks, *args):
    """Run the corrected kernel: no error, no launch-report warning."""
    report = run(kernel, blocks, *args)
    assert report["warnings"] == [], report["warnings"]
    return report


def data(n, seed=7):
    g = np.random.default_rng(seed)
    return g.standard_normal(n).astype(np.float32)


# == 1. flags between MTE2, V and MTE3 ===================================================================
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


# == 2. the scalar unit ===================================================================================
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
        w_ub.set_value(k, float(k % 4))  #@m.set_value
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


# == 3. TPipe / TQue =====================================================================================
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
    asc.adds(zi, xi, -first, n)
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


# == 4. bounds, capacities, blocks, event ids ==============================================================
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
        count = min(T, total - i * T) if fix else T
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
        asc.data_copy(w_gm, c, n)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.data_copy(d, w_gm[8:], n)  #@x.read_halo
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy(z_gm, d, n)


# == 5. correct kernels with flags at unusual but valid places ================================================
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


# == the cases ===============================================================================================
class Case:
    """A kernel, how to launch it (``make()`` -> argument list without ``fix``; ``out``: the output's index),
    numpy's result of the corrected kernel, and the verdict its mistake must get (None: a correct kernel)."""

    def __init__(self, kernel, blocks, make, ref, out, exc=None, verdict=None, mistake_marks=(), fixed_marks=()):
        self.kernel, self.blocks, self.make, self.ref, self.out = kernel, blocks, make, ref, out
        self.exc, self.verdict = exc, verdict
        self.mistake_marks, self.fixed_marks = mistake_marks, fixed_marks


def xyz(blocks, n):
    return [data(blocks * n, 1), data(blocks * n, 2), np.zeros(blocks * n, np.float32), n]


def xz(blocks, n, *more):
    return [data(blocks * n * (more[0] if more else 1), 1), np.zeros(blocks * n * (more[0] if more else 1),
                                                                     np.float32), n, *more]


def f32(v):
    return np.asarray(v, np.float32)


def race(kind, first, second, pipes, event=None, queue=None, where=None):
    return lambda err: assert_race(err, kind, first, second, pipes, event=event, queue=queue, where=where)


def hang(at, *texts):
    """A block that can never proceed on the device, reported at line ``at`` with the ``texts``."""
    def check(err):
        assert isinstance(err, PipeHangError) or getattr(err, "category", None) == "PipeHangError", repr(err)
        assert reported_line(err) == line(at), str(err)
        for t in texts:
            assert t in str(err) or t in (err.hint or ""), (t, str(err), err.hint)
        assert err.hint, str(err)
    return check


def bounds(at, *texts):
    """An access past GM or an on-chip memory: its numbers in the message (reported at line ``at``)."""
    def check(err):
        assert err.category == "OutOfBoundsError", str(err)
        if at is not None:
            assert reported_line(err) == line(at), str(err)
        for t in texts:
            assert t in str(err), (t, str(err))
        assert err.hint and f"hint: {err.hint}" in str(err)
    return check


QUEUE_RAW = "the queue protocol is broken: enque after line %d and deque before line %d"
QUEUE_WAR = "the queue protocol is broken: free_tensor after line %d and alloc_tensor (of the next use) before line %d"
ENGINE_ORDER = ("the engine reports the unobserved access on the lowest pipe in PIPES order (V before MTE3) and "
                "suggests V_MTE2; one MTE3_MTE2 pair orders both the V and the MTE3 access (MTE3 waited for V), "
                "while V_MTE2 alone leaves the MTE3 read racing, reported only on the next run")
LOST_SIGNAL = ("a set_flag on a flag that is still set is lost on the device (the engine warns so), yet the engine "
               "keeps the later set's view: the wait after the loop then counts as waiting for every copy, and the "
               "race of V with copies 2..n is missed")

CASES = {
    # 1. flags between MTE2, V and MTE3
    "missing_mte2_v": Case(add_missing_mte2_v, 4, lambda: xyz(4, T), lambda a: a[0] + a[1], 2, KernelRuntimeError,
                           race("RAW", "a.copy_x", "a.add", ("MTE2", "V"), "MTE2_V",
                                where="UB (VECIN, LocalTensor(VECIN) of line")),
    "wait_before_compute": Case(add_wait_before_compute, 4, lambda: xyz(4, T), lambda a: a[0] + a[1], 2,
                                KernelRuntimeError, race("RAW", "b.add", "b.copy_out", ("V", "MTE3"), "V_MTE3")),
    "swapped_event": Case(add_swapped_event, 2, lambda: xyz(2, T), lambda a: a[0] + a[1], 2, KernelRuntimeError,
                          race("RAW", "c.copy_x", "c.add", ("MTE2", "V"), "MTE2_V")),
    "flag_between_copies": Case(add_flag_between_copies, 2, lambda: xyz(2, T), lambda a: a[0] + a[1], 2,
                                KernelRuntimeError, race("RAW", "d.copy_y", "d.add", ("MTE2", "V"), "MTE2_V",
                                                         where=f"bytes [{T * 4}, {2 * T * 4})")),
    "second_half_in_flight": Case(relu_second_half_in_flight, 2, lambda: xz(2, 2 * T)[:2] + [T],
                                  lambda a: np.maximum(a[0], 0), 1, KernelRuntimeError,
                                  race("RAW", "e.copy_hi", "e.relu_hi", ("MTE2", "V"), "MTE2_V",
                                       where=f"bytes [{T * 4}, {2 * T * 4})")),
    "set_flag_in_loop_wait_outside": Case(
        adds_set_flag_in_loop, 2, lambda: xz(2, T, 4), lambda a: a[0] + f32(1), 1, KernelRuntimeError,
        race("RAW", "f.copy", "f.adds", ("MTE2", "V"), "MTE2_V"),
        mistake_marks=(pytest.mark.xfail(strict=True, reason=LOST_SIGNAL),)),
    "double_buffer_one_event_id": Case(muls_double_buffer_one_event_id, 2, lambda: xz(2, T, 4),
                                       lambda a: a[0] * f32(3), 1, KernelRuntimeError,
                                       hang("g.wait", "wait_flag(MTE2_V, 0) waits for a flag no earlier set_flag sets")),
    "in_place_missing_mte3_mte2": Case(
        adds_in_place_missing_mte3_mte2, 2, lambda: xz(2, T, 3), lambda a: a[0] + f32(2), 1, KernelRuntimeError,
        race("WAR", "h.copy_out", "h.copy_in", ("MTE3", "MTE2"), "MTE3_MTE2"),
        mistake_marks=(pytest.mark.xfail(strict=True, reason=ENGINE_ORDER),)),
    "double_buffer_without_backward_flags": Case(
        add_tiles_without_backward_flags, 2, lambda: [data(2 * 4 * T, 1), data(2 * 4 * T, 2),
                                                      np.zeros(2 * 4 * T, np.float32), T, 4],
        lambda a: a[0] + a[1], 2, KernelRuntimeError, race("WAR", "i.add", "i.copy_x", ("V", "MTE2"), "V_MTE2")),
    "barrier_on_wrong_pipe": Case(abs_barrier_on_wrong_pipe, 2, lambda: xz(2, T), lambda a: np.abs(a[0]), 1,
                                  KernelRuntimeError, race("RAW", "j.copy_in", "j.abs", ("MTE2", "V"), "MTE2_V")),
    "workspace_round_trip_barrier_mte3": Case(
        two_pass_workspace_barrier_mte3, 2,
        lambda: [data(2 * T, 1), np.zeros(2 * T, np.float32), np.zeros(2 * T, np.float32), T],
        lambda a: a[0] * f32(2) + f32(1), 2, KernelRuntimeError,
        race("RAW", "k.write_ws", "k.read_ws", ("MTE3", "MTE2"), "MTE3_MTE2", where="GM 'w' bytes [0, 256)")),
    # 2. the scalar unit
    "get_value_without_mte2_s": Case(
        scale_get_value_without_mte2_s, 2,
        lambda: [data(2 * T, 1), f32([1.5, 0, 0, 0, 0, 0, 0, 0]), np.zeros(2 * T, np.float32), T],
        lambda a: a[0] * f32(1.5), 2, KernelRuntimeError,
        race("RAW", "l.copy_s", "l.get", ("MTE2", "S"), "MTE2_S")),
    "set_value_without_s_v": Case(
        weights_set_value_without_s_v, 2, lambda: xz(2, T), lambda a: a[0] * np.tile(f32([0, 1, 2, 3]), 2 * T // 4),
        1, KernelRuntimeError, race("RAW", "m.set_value", "m.mul", ("S", "V"), "S_V")),
    "get_value_without_v_s": Case(
        normalise_get_value_without_v_s, 2, lambda: xz(2, T),
        lambda a: np.concatenate([a[0][b * T:(b + 1) * T] * f32(1.0 / np.abs(a[0][b * T])) for b in range(2)]),
        1, KernelRuntimeError, race("RAW", "n.abs", "n.get", ("V", "S"), "V_S")),
    # 3. TPipe / TQue
    "deque_from_the_wrong_queue": Case(add_deque_from_the_wrong_queue, 2, lambda: xyz(2, T), lambda a: a[0] + a[1],
                                       2, PipeHangError, hang("q1.deque_y", "the queue is empty", "enque a tensor")),
    "alloc_without_free_in_loop": Case(relu_tiles_without_free, 2, lambda: xz(2, T, 4),
                                       lambda a: np.maximum(a[0], 0), 1, PipeHangError,
                                       hang("q2.alloc_z", "all 2 buffer(s) are in use", "free_tensor")),
    "free_before_copy_out": Case(relu_free_before_copy_out, 2, lambda: xz(2, T, 3), lambda a: np.maximum(a[0], 0),
                                 1, KernelRuntimeError,
                                 race("WAR", "q3.copy_out", "q3.relu", ("MTE3", "V"), queue=QUEUE_WAR)),
    "copy_out_without_deque": Case(exp_copy_out_without_deque, 2, lambda: xz(2, T), lambda a: np.exp(a[0]), 1,
                                   KernelRuntimeError,
                                   race("RAW", "q4.exp", "q4.copy_out", ("V", "MTE3"), queue=QUEUE_RAW)),
    "one_input_queue_one_buffer": Case(sub_one_input_queue_one_buffer, 2, lambda: xyz(2, T),
                                       lambda a: a[0] - a[1], 2, PipeHangError,
                                       hang("q5.alloc_y", "all 1 buffer(s) are in use")),
    "veccalc_queue_orders_nothing": Case(
        adds_veccalc_queue, 2, lambda: xz(2, T), lambda a: a[0] + f32(1), 1, KernelRuntimeError,
        race("RAW", "q6.copy_in", "q6.adds", ("MTE2", "V"), "MTE2_V"),
        mistake_marks=(pytest.mark.xfail(strict=True, reason=(
            "the hint blames the queue protocol (enque / deque) for any race on a TQue buffer, but a VECCALC "
            "queue's enque / deque order no pipes: the fix is the MTE2_V flag pair")),)),
    "get_value_after_deque": Case(
        shift_get_value_after_deque, 2, lambda: xz(2, T),
        lambda a: np.concatenate([a[0][b * T:(b + 1) * T] - a[0][b * T] for b in range(2)]), 1, KernelRuntimeError,
        race("RAW", "q7.copy_in", "q7.get", ("MTE2", "S"), "MTE2_S"),
        mistake_marks=(pytest.mark.xfail(strict=True, reason=(
            "the hint says the queue protocol is broken although enque / deque are in place: a VECIN queue orders "
            "MTE2 before V, not before the scalar unit; the fix is the MTE2_S flag pair")),)),
    "deque_without_dtype": Case(
        neg_deque_without_dtype, 2, lambda: xz(2, T), lambda a: -a[0], 1, TypeError,
        lambda err: (reported_line(err) == line("q8.deque") and "deque" in str(err) and err.hint) or
        pytest.fail(str(err)),
        mistake_marks=(pytest.mark.xfail(strict=True, raises=AttributeError, reason=(
            "deque() without a dtype fails inside the engine (AttributeError: 'NoneType' object has no attribute "
            "'sizeof', from TQue._tensor) instead of a clear error at the user's line")),)),
    # 4. bounds, capacities, blocks, event ids
    "tail_tile_past_gm_end": Case(
        sqrt_tail_tile_past_the_end, 1, lambda: [np.abs(data(3 * T + 16, 1)), np.zeros(3 * T + 16, np.float32),
                                                 3 * T + 16],
        lambda a: np.sqrt(a[0]), 1, KernelRuntimeError,
        bounds("b1.copy_in", f"reads bytes [{3 * T * 4}, {4 * T * 4}) of GM 'x'", f"which has {(3 * T + 16) * 4} bytes")),
    "static_buffers_past_ub": Case(
        add_static_buffers_past_ub, 1, lambda: [data(2 * BIG_TILE, 1), data(2 * BIG_TILE, 2),
                                                np.zeros(2 * BIG_TILE, np.float32)],
        lambda a: a[0] + a[1], 2, KernelRuntimeError,
        lambda err: bounds(None, f"LocalTensor(VECOUT) of line {line('b2.z_ub')} spans bytes "
                                 f"[{2 * BIG_TILE * 4}, {3 * BIG_TILE * 4}) of UB")(err)),
    "queues_past_ub": Case(
        add_queues_past_ub, 1, lambda: [data(2 * BIG_TILE, 1), data(2 * BIG_TILE, 2),
                                        np.zeros(2 * BIG_TILE, np.float32)],
        lambda a: a[0] + a[1], 2, KernelRuntimeError,
        bounds("b3.init_z", f"spans bytes [{2 * BIG_TILE * 4}, {3 * BIG_TILE * 4}) of UB"),
        mistake_marks=(pytest.mark.xfail(strict=True, reason=(
            "a capacity error carries no file:line: of the user's code: it names the line that created the TQue "
            "(and a LocalTensor's own line only inside the text), not the init_buffer call that overflows")),)),
    "blocks_overlap_with_different_values": Case(
        muls_output_offset_by_tile, 4, lambda: xz(4, 2 * T), lambda a: a[0] * f32(0.5), 1, KernelRuntimeError,
        lambda err: (err.category == "RaceError" and reported_line(err) == line("b4.copy_out") and
                     "writes elements of GM 'z' that block 0 also wrote, with different values" in str(err) and
                     "disjoint output range" in err.hint) or pytest.fail(str(err))),
    "event_id_out_of_range": Case(
        maxs_event_id_per_tile, 1, lambda: xz(1, T, 10), lambda a: np.maximum(a[0], f32(0.25)), 1, ValueError,
        lambda err: (("event id 8 is outside 0-7" in str(err) and "0..7" in err.hint and
                      f"line {line('b5.set')}" in str(err)) or pytest.fail(str(err))),
        mistake_marks=(pytest.mark.xfail(strict=True, reason=(
            "errors raised through language.core.errors.error() from a v1 call (event id, pipe_barrier(PIPE_S), "
            "alignment, mask) carry neither the user's line nor the hint in their message")),)),
    "strided_read_of_blocks_in_flight": Case(
        abs_even_odd_blocks, 2, lambda: [data(2 * 2 * T, 1), np.zeros(2 * 2 * T, np.float32)],
        lambda a: np.abs(a[0].reshape(2, 8, 2, 8).transpose(0, 2, 1, 3).reshape(-1)), 1, KernelRuntimeError,
        race("RAW", "s.copy_odd", "s.abs_odd", ("MTE2", "V"), "MTE2_V")),
    "halo_read_from_neighbour_block": Case(
        shift_halo_from_neighbour_block, 4,
        lambda: [data(4 * T + 8, 1), np.zeros(4 * T + 8, np.float32), np.zeros(4 * T, np.float32), T],
        lambda a: a[0][8:] * f32(2), 2, KernelRuntimeError,
        lambda err: (err.category == "RaceError" and reported_line(err) == line("x.read_halo") and
                     "block 1" in str(err)) or pytest.fail(str(err)),
        mistake_marks=(pytest.mark.xfail(strict=True, raises=pytest.fail.Exception, reason=(
            "blocks run one after another, so a block reading GM that another block of the same launch writes "
            "(its MTE2 read of w against block 1's MTE3 write) is not reported; docs/simulator.md lists this "
            "under 'Not there yet'")),)),
    # 5. correct kernels with flags at unusual but valid places
    "preset_backward_flags": Case(add_double_buffer_preset_backward_flags, 2,
                                  lambda: [data(2 * 6 * T, 1), data(2 * 6 * T, 2), np.zeros(2 * 6 * T, np.float32),
                                           T, 6], lambda a: a[0] + a[1], 2),
    "deferred_waits_high_ids": Case(mins_deferred_waits_high_ids, 2, lambda: xyz(2, T),
                                    lambda a: np.minimum(a[0], np.minimum(a[1], f32(0))), 2),
    "full_barriers_only": Case(sub_full_barriers_only, 2, lambda: [data(2 * 3 * T, 1), data(2 * 3 * T, 2),
                                                                   np.zeros(2 * 3 * T, np.float32), T, 3],
                               lambda a: a[0] - a[1], 2),
    "windows_overlap_identically": Case(relu_windows_overlap_identically, 4,
                                        lambda: [data(3 * OWN + T, 1), np.zeros(3 * OWN + T, np.float32)],
                                        lambda a: np.maximum(a[0], 0), 1),
    "auto_tensors_with_stale_flags": Case(add_auto_tensors_with_stale_flags, 2, lambda: xyz(2, T),
                                          lambda a: a[0] + a[1], 2),
    "wait_on_scalar_unit_orders_every_pipe": Case(
        scale_waits_on_the_scalar_unit, 2, lambda: xz(2, T),
        lambda a: np.concatenate([a[0][b * T:(b + 1) * T] * a[0][b * T] for b in range(2)]), 1,
        fixed_marks=(pytest.mark.xfail(strict=True, raises=KernelRuntimeError, reason=(
            "a wait_flag(X_S) stalls the scalar unit, which dispatches every pipe's instructions: later V "
            "instructions are ordered after X too (spec 3.2), but the engine joins the view into S only and "
            "reports a read-after-write race between MTE2 and V")),)),
}

MISTAKES = [pytest.param(name, id=name, marks=c.mistake_marks) for name, c in CASES.items() if c.verdict]
FIXED = [pytest.param(name, id=name, marks=c.fixed_marks) for name, c in CASES.items()]


@pytest.mark.parametrize("name", MISTAKES)
def test_mistake_is_reported(name, platform):
    c = CASES[name]
    args = c.make()
    with pytest.raises(c.exc) as ei:
        c.kernel[c.blocks](*args, False)
    c.verdict(ei.value)


@pytest.mark.parametrize("name", FIXED)
def test_corrected_kernel_runs_clean(name, platform):
    c = CASES[name]
    args = c.make()
    clean(c.kernel, c.blocks, *args, True)
    np.testing.assert_allclose(args[c.out], c.ref(args), rtol=1e-6, atol=1e-6)


# == what the table does not cover: the warnings and the form of the reports =================================
def test_set_flag_on_a_set_flag_is_a_launch_warning(platform):
    x, z, n, tiles = xz(1, T, 4)
    report = run(adds_set_flag_in_loop, 1, x, z, n, tiles, False)
    assert any(f"test_v1_mistakes_corpus.py:{line('f.set')}: set_flag(MTE2_V, 0) sets a flag that is already set"
               in w for w in report["warnings"]), report["warnings"]


@pytest.mark.xfail(strict=True, reason=(
    "the wait_flag hang names only the wait and suggests adding a set_flag; the cause is the set_flag at the "
    "previous line whose signal was lost on a flag still set (one event id for two buffers)"))
def test_hang_after_a_lost_signal_names_the_lost_set_flag(platform):
    x, z, n, tiles = xz(1, T, 4)
    with pytest.raises(KernelRuntimeError) as ei:
        muls_double_buffer_one_event_id[1](x, z, n, tiles, False)
    assert f"line {line('g.set')}" in str(ei.value), str(ei.value)


@pytest.mark.xfail(strict=True, reason=(
    "a hang on a queue is a PipeHangError (a RuntimeError without category, its hint only in .hint), a hang on "
    "a flag a KernelRuntimeError with category 'PipeHangError' and the hint in the message: one kind of "
    "error, two classes and two forms"))
def test_hangs_on_queues_and_on_flags_are_one_error(platform):
    errors = []
    for kernel, args in ((relu_tiles_without_free, xz(1, T, 4)), (muls_double_buffer_one_event_id, xz(1, T, 4))):
        with pytest.raises(Exception) as ei:
            kernel[1](*args, False)
        errors.append(ei.value)
    for err in errors:
        assert isinstance(err, PipeHangError) and isinstance(err, KernelRuntimeError), repr(err)
        assert err.category == "PipeHangError" and f"hint: {err.hint}" in str(err), str(err)
