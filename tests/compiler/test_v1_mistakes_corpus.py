"""A corpus of small v1 kernels, each with a synchronisation (or bounds) mistake an Ascend C author makes, next
to its corrected rewrite (the kernels are in ``v1_corpus_{flags,scalar,queues,bounds,valid}.py``). Every kernel
takes a trailing ``fix: ConstExpr[bool]``: ``fix=False`` is the mistake, ``fix=True`` the rewrite, so the two
differ only in the lines under ``if fix`` / ``else``.

For a mistake the engine must stop with the right error class and category, at the user's line (both lines for
a race), naming the two pipes and the fix (the HardEvent pair, or the queue call). The rewrite must run clean,
without launch-report warnings, and match numpy on Ascend910B1 and Ascend950PR_9599. Lines are found by the
``#@tag`` markers at their ends. Cases where the engine's verdict is wrong are strict xfails that say why."""
from __future__ import annotations

import functools
import os
import re

import numpy as np
import pytest

import asc.runtime.config as config
from asc.language.v1.fwk import PipeHangError
from asc.sim.executor import KernelRuntimeError

import v1_corpus_flags
import v1_corpus_scalar
import v1_corpus_queues
import v1_corpus_bounds
import v1_corpus_valid
from v1_corpus_flags import (T, abs_barrier_on_wrong_pipe, abs_even_odd_blocks, abs_tbuf_scratch_without_flags,
                             abs_wait_only_on_block_zero, add_backward_flags_without_prologue, add_flag_between_copies,
                             add_missing_mte2_v, add_swapped_event, add_tiles_without_backward_flags,
                             add_wait_before_compute, adds_in_place_missing_mte3_mte2, adds_set_flag_in_loop,
                             muls_double_buffer_one_event_id, pad_zero_fill_then_copy_in, relu_flag_set_twice,
                             relu_second_half_in_flight, scale_and_keep_a_copy, shift_halo_from_neighbour_block,
                             two_pass_workspace_barrier_mte3)
from v1_corpus_scalar import (bias_set_value_in_gm_then_copy_in, normalise_get_value_without_v_s,
                              ramp_set_value_pipe_barrier_s, scale_get_value_without_mte2_s,
                              weights_set_value_without_s_v)
from v1_corpus_queues import (add_deque_from_the_wrong_queue, adds_free_input_twice, adds_veccalc_queue,
                              exp_copy_out_without_deque, leaky_relu_stages_free_early, muls_enque_into_the_wrong_queue,
                              neg_deque_without_dtype, relu_free_before_copy_out, relu_tiles_without_free,
                              relu_tpipe_per_tile, shift_get_value_after_deque, sub_one_input_queue_one_buffer)
from v1_corpus_bounds import (BIG_TILE, add_local_tensor_of_the_wrong_dtype, add_output_gm_never_set_up,
                              add_queues_past_ub, add_static_buffers_past_ub, diff_neighbours_unaligned_operand,
                              maxs_event_id_per_tile, muls_output_offset_by_tile, relu_fp16_mask_on_fp32,
                              sqrt_tail_tile_past_the_end)
from v1_corpus_valid import (OWN, add_auto_tensors_with_stale_flags, add_double_buffer_preset_backward_flags,
                             mins_deferred_waits_high_ids, relu_wait_issued_before_its_set,
                             relu_windows_overlap_identically, scale_waits_on_the_scalar_unit, sub_full_barriers_only)

PLATFORMS = (config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599)
CORPUS = tuple(m.__file__ for m in (v1_corpus_flags, v1_corpus_scalar, v1_corpus_queues, v1_corpus_bounds,
                                    v1_corpus_valid))


@pytest.fixture(params=PLATFORMS, ids=lambda p: p.value)
def platform(request):
    config.set_platform(config.Backend.Model, request.param)
    return request.param


# -- finding the user's lines and checking reports ---------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _tags():
    out = {}
    for path in CORPUS:
        with open(path) as f:
            for n, src in enumerate(f, 1):
                m = re.search(r"#@([\w.]+)\s*$", src)
                if m:
                    assert m.group(1) not in out, f"tag {m.group(1)} twice"
                    out[m.group(1)] = n
    return out


def line(tag):
    return _tags()[tag]


def reported_line(err):
    """The line an engine error is reported at (its ``file:line:`` prefix, which must be a corpus file)."""
    m = re.match(r"(?P<file>\S+?):(?P<line>\d+): ", str(err))
    assert m, f"no file:line: prefix in\n{err}"
    assert os.path.basename(m.group("file")) in {os.path.basename(p) for p in CORPUS}, str(err)
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


def xz(blocks, n, *tiles):
    """x (random) and z (zeros) of blocks * n (* tiles) elements, then n (and tiles, for kernels that take it)."""
    size = blocks * n * (tiles[0] if tiles else 1)
    return [data(size, 1), np.zeros(size, np.float32), n, *tiles]


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


def message(*texts):
    """An error whose message (or hint) carries ``texts``, and a hint."""
    def check(err):
        for t in texts:
            assert t in str(err) or t in (getattr(err, "hint", None) or ""), (t, str(err))
        assert getattr(err, "hint", None), str(err)
    return check


def error_at(at, *texts, category=None):
    """An error reported at line ``at`` (of the given category) whose message or hint carries ``texts``."""
    def check(err):
        if category is not None:
            assert getattr(err, "category", None) == category, str(err)
        assert reported_line(err) == line(at), str(err)
        message(*texts)(err)
    return check


QUEUE_RAW = "the queue protocol is broken: enque after line %d and deque before line %d"
QUEUE_WAR = "the queue protocol is broken: free_tensor after line %d and alloc_tensor (of the next use) before line %d"
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
    "second_half_in_flight": Case(relu_second_half_in_flight, 2,
                                  lambda: [data(4 * T, 1), np.zeros(4 * T, np.float32), T],
                                  lambda a: np.maximum(a[0], 0), 1, KernelRuntimeError,
                                  race("RAW", "e.copy_hi", "e.relu_hi", ("MTE2", "V"), "MTE2_V",
                                       where=f"bytes [{T * 4}, {2 * T * 4})")),
    "set_flag_in_loop_wait_outside": Case(
        adds_set_flag_in_loop, 2, lambda: xz(2, T, 4), lambda a: a[0] + f32(1), 1, KernelRuntimeError,
        race("RAW", "f.copy", "f.adds", ("MTE2", "V"), "MTE2_V")),
    "double_buffer_one_event_id": Case(
        muls_double_buffer_one_event_id, 2, lambda: xz(2, T, 4), lambda a: a[0] * f32(3), 1, KernelRuntimeError,
        hang("g.wait", "wait_flag(MTE2_V, 0) waits for a flag no set_flag sets")),
    "in_place_missing_mte3_mte2": Case(
        adds_in_place_missing_mte3_mte2, 2, lambda: xz(2, T, 3), lambda a: a[0] + f32(2), 1, KernelRuntimeError,
        race("WAR", "h.copy_out", "h.copy_in", ("MTE3", "MTE2"), "MTE3_MTE2")),
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
    "tbuf_shared_without_flags": Case(
        abs_tbuf_scratch_without_flags, 2, lambda: xz(2, T), lambda a: np.abs(a[0]), 1, KernelRuntimeError,
        race("RAW", "t.copy_in", "t.abs", ("MTE2", "V"), "MTE2_V", where="UB (VECCALC, TBuf(VECCALC) of line")),
    "wait_only_on_block_zero": Case(
        abs_wait_only_on_block_zero, 2, lambda: xz(2, T), lambda a: np.abs(a[0]), 1, KernelRuntimeError,
        race("RAW", "w.copy_in", "w.abs", ("MTE2", "V"), "MTE2_V")),
    "zero_fill_then_copy_in": Case(
        pad_zero_fill_then_copy_in, 2, lambda: [data(2 * T, 1), np.zeros(2 * 2 * T, np.float32), T],
        lambda a: np.concatenate([np.concatenate([a[0][b * T:(b + 1) * T] * f32(2), np.zeros(T, np.float32)])
                                  for b in range(2)]), 1, KernelRuntimeError,
        race("WAW", "z.fill", "z.copy_in", ("V", "MTE2"), "V_MTE2")),
    "unaligned_vector_operand": Case(
        diff_neighbours_unaligned_operand, 2, lambda: [data(2 * T + 8, 1), np.zeros(2 * T, np.float32), T],
        lambda a: a[0][1:2 * T + 1] - a[0][:2 * T], 1, ValueError,
        message("sub: the UB operand starts at byte 4, which is not 32-byte aligned", "multiples of 32 bytes")),
    "fp16_mask_on_fp32": Case(
        relu_fp16_mask_on_fp32, 2, lambda: [data(2 * 2 * T, 1), np.zeros(2 * 2 * T, np.float32)],
        lambda a: np.maximum(a[0], 0), 1, ValueError,
        message("mask 128 is outside [1, 64] for 4-byte elements", "64 elements")),
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
    "gm_set_value_then_copy_in": Case(
        bias_set_value_in_gm_then_copy_in, 2,
        lambda: [data(2 * T, 1), np.zeros(2 * 8, np.float32), np.zeros(2 * T, np.float32), T],
        lambda a: a[0] + np.repeat(f32([1, 2]), T), 2, KernelRuntimeError,
        race("RAW", "gs.set_value", "gs.copy_in", ("S", "MTE2"), "S_MTE2", where="GM 'bias' bytes [0, 32)")),
    "pipe_barrier_s_to_flush_scalar_stores": Case(
        ramp_set_value_pipe_barrier_s, 1, lambda: xz(1, T), lambda a: a[0] + np.arange(T, dtype=np.float32), 1,
        ValueError, message("pipe_barrier(PIPE_S) is illegal", "PIPE_ALL")),
    # 3. TPipe / TQue
    "deque_from_the_wrong_queue": Case(add_deque_from_the_wrong_queue, 2, lambda: xyz(2, T), lambda a: a[0] + a[1],
                                       2, PipeHangError, hang("q1.deque_y", "the queue is empty", "enque a tensor")),
    "alloc_without_free_in_loop": Case(relu_tiles_without_free, 2, lambda: xz(2, T, 4),
                                       lambda a: np.maximum(a[0], 0), 1, PipeHangError,
                                       hang("q2.alloc_z", "all 2 buffer(s) are in use", "free_tensor")),
    "free_before_copy_out": Case(relu_free_before_copy_out, 2, lambda: xz(2, T, 3), lambda a: np.maximum(a[0], 0),
                                 1, KernelRuntimeError,
                                 race("WAR", "q3.copy_out", "q3.relu", ("MTE3", "V"), queue=QUEUE_WAR)),
    "free_before_copy_out_in_stage_helpers": Case(
        leaky_relu_stages_free_early, 2, lambda: xz(2, T, 5), lambda a: np.where(a[0] >= 0, a[0], a[0] * f32(0.125)),
        1, KernelRuntimeError, race("WAR", "h2.copy_out", "h2.compute", ("MTE3", "V"), queue=QUEUE_WAR)),
    "copy_out_without_deque": Case(exp_copy_out_without_deque, 2, lambda: xz(2, T), lambda a: np.exp(a[0]), 1,
                                   KernelRuntimeError,
                                   race("RAW", "q4.exp", "q4.copy_out", ("V", "MTE3"), queue=QUEUE_RAW)),
    "one_input_queue_one_buffer": Case(sub_one_input_queue_one_buffer, 2, lambda: xyz(2, T),
                                       lambda a: a[0] - a[1], 2, PipeHangError,
                                       hang("q5.alloc_y", "all 1 buffer(s) are in use")),
    "veccalc_queue_orders_nothing": Case(
        adds_veccalc_queue, 2, lambda: xz(2, T), lambda a: a[0] + f32(1), 1, KernelRuntimeError,
        race("RAW", "q6.copy_in", "q6.adds", ("MTE2", "V"), "MTE2_V")),
    "get_value_after_deque": Case(
        shift_get_value_after_deque, 2, lambda: xz(2, T),
        lambda a: np.concatenate([a[0][b * T:(b + 1) * T] - a[0][b * T] for b in range(2)]), 1, KernelRuntimeError,
        race("RAW", "q7.copy_in", "q7.get", ("MTE2", "S"), "MTE2_S")),
    "deque_without_dtype": Case(
        neg_deque_without_dtype, 2, lambda: xz(2, T), lambda a: -a[0], 1, TypeError,
        error_at("q8.deque", "deque")),
    "free_tensor_twice": Case(
        adds_free_input_twice, 2, lambda: xz(2, T), lambda a: a[0] + f32(0.5), 1, RuntimeError,
        message("free_tensor on TQue(VECIN) of line", "buffer 0 is already free", "free each allocated tensor once")),
    "enque_into_the_wrong_queue": Case(
        muls_enque_into_the_wrong_queue, 2, lambda: xz(2, T), lambda a: a[0] * f32(4), 1, ValueError,
        message("TQue(VECOUT) of line", "the tensor is not one of this queue's buffers", "enque / free_tensor")),
    "tpipe_per_tile": Case(
        relu_tpipe_per_tile, 2, lambda: xz(2, T, 3), lambda a: np.maximum(a[0], 0), 1, Exception,
        error_at("tp.pipe", "TPipe")),
    # 4. bounds, capacities, blocks, event ids
    "tail_tile_past_gm_end": Case(   # the mistake runs (a warning): test_tail_tile_past_the_end_is_a_launch_warning
        sqrt_tail_tile_past_the_end, 1, lambda: [np.abs(data(3 * T + 16, 1)), np.zeros(3 * T + 16, np.float32),
                                                 3 * T + 16],
        lambda a: np.sqrt(a[0]), 1),
    "static_buffers_past_ub": Case(
        add_static_buffers_past_ub, 1, lambda: [data(2 * BIG_TILE, 1), data(2 * BIG_TILE, 2),
                                                np.zeros(2 * BIG_TILE, np.float32)],
        lambda a: a[0] + a[1], 2, KernelRuntimeError,
        bounds(None, f"LocalTensor(VECOUT) of line {line('b2.z_ub')} spans bytes "
                     f"[{2 * BIG_TILE * 4}, {3 * BIG_TILE * 4}) of UB")),
    "queues_past_ub": Case(
        add_queues_past_ub, 1, lambda: [data(2 * BIG_TILE, 1), data(2 * BIG_TILE, 2),
                                        np.zeros(2 * BIG_TILE, np.float32)],
        lambda a: a[0] + a[1], 2, KernelRuntimeError,
        bounds("b3.init_z", f"spans bytes [{2 * BIG_TILE * 4}, {3 * BIG_TILE * 4}) of UB")),
    "blocks_overlap_with_different_values": Case(
        muls_output_offset_by_tile, 4, lambda: xz(4, 2 * T), lambda a: a[0] * f32(0.5), 1, KernelRuntimeError,
        error_at("b4.copy_out", "writes elements of GM 'z' that block 0 also wrote, with different values",
                 "disjoint output range", category="RaceError")),
    "event_id_out_of_range": Case(
        maxs_event_id_per_tile, 1, lambda: xz(1, T, 10), lambda a: np.maximum(a[0], f32(0.25)), 1, ValueError,
        message("event id 8 is outside 0-7", "0..7")),
    "gm_tensor_never_set_up": Case(
        add_output_gm_never_set_up, 2, lambda: xyz(2, T), lambda a: a[0] + a[1], 2, (TypeError, RuntimeError),
        error_at("g1.copy_out", "set_global_buffer")),
    "local_tensor_of_the_wrong_dtype": Case(
        add_local_tensor_of_the_wrong_dtype, 2, lambda: xyz(2, T), lambda a: a[0] + a[1], 2, TypeError,
        error_at("g2.copy_x", "float32", "float16")),
    "strided_read_of_blocks_in_flight": Case(
        abs_even_odd_blocks, 2, lambda: [data(2 * 2 * T, 1), np.zeros(2 * 2 * T, np.float32)],
        lambda a: np.abs(a[0].reshape(2, 8, 2, 8).transpose(0, 2, 1, 3).reshape(-1)), 1, KernelRuntimeError,
        race("RAW", "s.copy_odd", "s.abs_odd", ("MTE2", "V"), "MTE2_V")),
    "halo_read_from_neighbour_block": Case(
        shift_halo_from_neighbour_block, 4,
        lambda: [data(4 * T + 8, 1), np.zeros(4 * T + 8, np.float32), np.zeros(4 * T, np.float32), T],
        lambda a: a[0][8:] * f32(2), 2, KernelRuntimeError,
        # block 0 reads its halo (block 1's first elements) before block 1 writes them: reported at the write
        error_at("x.write_w", "data_copy to 'w' overwrites elements block 0 read in the same launch (block 1; "
                 "block 0's read at line", category="RaceError")),
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
        lambda a: np.concatenate([a[0][b * T:(b + 1) * T] * a[0][b * T] for b in range(2)]), 1),
    "wait_issued_before_its_set": Case(
        relu_wait_issued_before_its_set, 2, lambda: xz(2, T), lambda a: np.maximum(a[0], 0), 1),
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
def test_tail_tile_past_the_end_is_a_launch_warning(platform):
    # as on the device, the DMA past the end of x and z runs: reads there are zeros, writes there are dropped
    x, z, total = np.abs(data(3 * T + 16, 1)), np.zeros(3 * T + 16, np.float32), 3 * T + 16
    report = run(sqrt_tail_tile_past_the_end, 1, x, z, total, False)
    np.testing.assert_allclose(z, np.sqrt(x), rtol=1e-6)
    assert report["warnings"][0].startswith(
        f"v1_corpus_bounds.py:{line('b1.copy_in')}: past-the-end: data_copy (block 0) reads bytes "
        f"[{total * 4}, {4 * T * 4}) past the end of GM 'x', which has {total * 4} bytes"), report["warnings"]
    assert len(report["warnings"]) == 2 and "GM 'z'" in report["warnings"][1], report["warnings"]


def test_set_flag_on_a_set_flag_is_a_launch_warning(platform):
    x, z, n = xz(2, T)
    report = run(relu_flag_set_twice, 2, x, z, n, False)
    np.testing.assert_array_equal(z, np.maximum(x, 0))
    lost = (f"v1_corpus_flags.py:{line('tw.set_again')}: set_flag(MTE2_V, 0) sets a flag that is already set "
            "(a lost signal): wait for it before setting it again")
    assert report["warnings"] == [lost], report["warnings"]
    x, z, n = xz(2, T)
    clean(relu_flag_set_twice, 2, x, z, n, True)
    np.testing.assert_array_equal(z, np.maximum(x, 0))


def test_hang_after_a_lost_signal_names_the_lost_set_flag(platform):
    x, z, n, tiles = xz(1, T, 4)
    with pytest.raises(KernelRuntimeError) as ei:
        muls_double_buffer_one_event_id[1](x, z, n, tiles, False)
    assert f"line {line('g.set')}" in str(ei.value), str(ei.value)


def test_hangs_on_queues_and_on_flags_are_one_error(platform):
    errors = []
    for kernel, args in ((relu_tiles_without_free, xz(1, T, 4)), (muls_double_buffer_one_event_id, xz(1, T, 4))):
        with pytest.raises(Exception) as ei:
            kernel[1](*args, False)
        errors.append(ei.value)
    for err in errors:
        assert isinstance(err, PipeHangError) and isinstance(err, KernelRuntimeError), repr(err)
        assert err.category == "PipeHangError" and f"hint: {err.hint}" in str(err), str(err)


@pytest.mark.parametrize("name, at", [("event_id_out_of_range", "b5.set"),
                                      ("pipe_barrier_s_to_flush_scalar_stores", "ps.barrier"),
                                      ("free_tensor_twice", "q9.free_again"),
                                      ("enque_into_the_wrong_queue", "q10.enque"),
                                      ("unaligned_vector_operand", "u.sub"), ("fp16_mask_on_fp32", "mk.relu")])
def test_errors_of_v1_calls_name_the_users_line(name, at, platform):
    c = CASES[name]
    with pytest.raises(c.exc) as ei:
        c.kernel[c.blocks](*c.make(), False)
    assert reported_line(ei.value) == line(at)
    assert f"hint: {ei.value.hint}" in str(ei.value)


def test_in_place_launch_of_a_kernel_that_rereads_its_input(platform):
    x = data(2 * T, 1)
    copy = np.zeros_like(x)
    with pytest.raises(KernelRuntimeError) as ei:
        scale_and_keep_a_copy[2](x, x, copy, T, False)
    assert_race(ei.value, "RAW", "al.write_scaled", "al.read_x", ("MTE3", "MTE2"), "MTE3_MTE2")


def test_launch_of_a_kernel_that_rereads_its_input_on_distinct_buffers(platform):
    x = data(2 * T, 1)
    scaled, copy = np.zeros_like(x), np.zeros_like(x)
    clean(scale_and_keep_a_copy, 2, x, scaled, copy, T, False)
    np.testing.assert_array_equal(scaled, x * np.float32(2))
    np.testing.assert_array_equal(copy, x)


def test_backward_flag_without_its_prologue_hangs_at_the_first_wait(platform):
    args = [data(2 * 4 * T, 1), data(2 * 4 * T, 2), np.zeros(2 * 4 * T, np.float32), T, 4]
    with pytest.raises(KernelRuntimeError) as ei:
        add_backward_flags_without_prologue[2](*args, False)
    hang("p.wait_free", "wait_flag(V_MTE2, 0) waits for a flag no set_flag sets",
         "asc.set_flag(asc.HardEvent.V_MTE2, 0) on the source pipe before this wait")(ei.value)


def test_backward_flags_without_their_epilogue_are_launch_warnings(platform):
    args = [data(2 * 4 * T, 1), data(2 * 4 * T, 2), np.zeros(2 * 4 * T, np.float32), T, 4]
    report = run(add_backward_flags_without_prologue, 2, *args, True)
    np.testing.assert_array_equal(args[2], args[0] + args[1])
    for tag, text in (("p.set_free_in", "V_MTE2, 0"), ("p.set_free_in", "V_MTE2, 1"),
                      ("p.set_free_out", "MTE3_V, 0"), ("p.set_free_out", "MTE3_V, 1")):
        assert (f"v1_corpus_flags.py:{line(tag)}: set_flag({text}) is never waited for: set and wait flags in pairs"
                in report["warnings"]), report["warnings"]
