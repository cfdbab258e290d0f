"""The v1 fuzzer's reduction, compare, select, cast, gather and sort families: their numpy models at the edges
the docstrings state (half sums stopping at 65504, the first extreme's lane, ties in sorts, rounding ties and
saturation in casts, NaN in compares), their drawing and rendering, and the differential's classification
of what they found (always run, no pyasc-dev needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings

from asc_harness.conform import v1_diff, v1_families, v1_models as m, v1_strategies

FULL = (1 << 64) - 1


def _reduce(op, x, mask, reps=1, dtype="float16", z0=None, **kw):
    spec = {"op": op, "dtype": dtype, "form": "mask_int", "mask": mask, "repeat_times": reps, "src_blk": 1,
            "src_rep": 8, "dst_rep": 1, **kw}
    dt = m.NP[dtype]
    z0 = np.full(16, -7.25, dt) if z0 is None else z0
    return m.reduce_ref(spec, np.asarray(x, dt), z0)


# -- reductions --------------------------------------------------------------------------------------------
def test_a_half_sum_stops_at_65504_level_by_level_as_the_docstring_example():
    x = np.zeros(128, np.float16)
    x[:4] = [60000, 60000, -30000, 100]
    got = _reduce("whole_reduce_sum", x, 4).view(np.float16)
    # 60000 + 60000 stops at 65504; -30000 + 100 is -29904 in half; 65504 - 29904 = 35600, a tie between halves
    # rounded to even: 35584 (the docstring writes the unrounded 35604)
    assert got[0] == 35584 and got[1] == np.float16(-7.25)       # one result, the next element untouched
    assert _reduce("whole_reduce_sum", x, 4, dtype="float32").view(np.float32)[0] == 90100   # float: no cap


def test_whole_reduce_max_takes_the_first_lane_of_a_tie_in_the_order_asked():
    x = np.zeros(128, np.float16)
    x[[5, 9]] = 3
    out = _reduce("whole_reduce_max", x, 128, order="ORDER_INDEX_VALUE")
    assert out[:2].view(np.uint16)[0] == 5 and out[2:4].view(np.float16)[0] == 3
    masked = _reduce("whole_reduce_max", x, 9)                  # lane 9 outside the mask: lane 5 still
    assert masked[2:4].view(np.uint16)[0] == 5


def test_a_block_or_pair_with_no_active_lane_keeps_dst():
    x = np.arange(128, dtype=np.float16)
    got = _reduce("block_reduce_sum", x, 16).view(np.float16)   # the first block of 16 only
    assert got[0] == sum(range(16)) and (got[1:8] == np.float16(-7.25)).all()
    pairs = _reduce("pair_reduce_sum", x, 3, z0=np.full(64, -1, np.float16)).view(np.float16)
    assert pairs[:3].tolist() == [1, 2, -1]                     # lane 2 alone, the pair of lanes 4-5 none


def test_a_level_2_reduction_of_no_repeat_leaves_dst_and_a_count_indexes_the_element():
    spec = {"op": "reduce_max", "dtype": "float32", "form": "mask_int", "mask": 64, "repeat_times": 0,
            "src_rep": 8}
    z0 = np.full(2, 5.0, np.float32)
    assert (m.reduce_ref(spec, np.zeros(64, np.float32), z0).view(np.float32) == 5).all()
    x = np.zeros(200, np.float32)
    x[[70, 130]] = 9
    spec = {"op": "reduce_max", "dtype": "float32", "form": "count", "count": 131, "cal_index": True}
    out = m.reduce_ref(spec, x, z0)
    assert out[:4].view(np.float32)[0] == 9 and out[4:8].view(np.uint32)[0] == 70


# -- compare and select ------------------------------------------------------------------------------------
def test_compare_packs_little_endian_bits_nan_compares_unequal_and_masked_lanes_give_0():
    x = np.array([1, np.nan, 2, 2] + [0] * 60, np.float32)
    y = np.array([2, np.nan, 2, 1] + [0] * 60, np.float32)
    spec = {"op": "compare", "dtype": "float32", "form": "count", "count": 64, "cmp": "NE"}
    assert m.compare_ref(spec, x, y, np.zeros(32, np.uint8))[0] == 0b1011
    spec = dict(spec, form="mask_int", mask=1, repeat_times=1, strides=[[1, 8]] * 3, cmp="LT")
    assert m.compare_ref(spec, x, y, np.full(32, 0xFF, np.uint8))[:2].tolist() == [1, 0]


def test_select_mode_0_reads_the_first_repeats_bits_again_modes_1_and_2_one_per_element():
    x, y = np.arange(128, dtype=np.float32), -np.ones(128, np.float32)
    sel = np.zeros(16, np.uint8)
    sel[0], sel[8] = 1, 1                                       # bit 0 and bit 64
    spec = {"op": "select", "dtype": "float32", "form": "count", "count": 128, "sel_mode": 0}
    z = m.select_ref(spec, x, y, sel, np.zeros(128, np.float32))
    assert z[0] == 0 and z[64] == 64 and z[1] == -1
    z = m.select_ref(dict(spec, sel_mode=1, scalar=0.5), x, None, np.r_[[2], np.zeros(15)].astype(np.uint8),
                     np.zeros(128, np.float32))
    assert z[:3].tolist() == [0.5, 1, 0.5] and z[65] == 0.5


# -- cast --------------------------------------------------------------------------------------------------
def test_cast_rounding_ties_directed_modes_and_saturation():
    ties = np.array([2.5, -2.5, 0.5, 1.5], np.float32)
    assert m.convert(ties, "float32", "int32", "CAST_RINT").tolist() == [2, -2, 0, 2]
    assert m.convert(ties, "float32", "int32", "CAST_ROUND").tolist() == [3, -3, 1, 2]
    assert m.convert(np.array([40000.5, -1e9, np.nan], np.float32), "float32", "int16", "CAST_TRUNC").tolist() == \
        [32767, -32768, 0]
    big = np.array([2147483647, 16777217], np.int32)
    assert m.convert(big, "int32", "float32", "CAST_TRUNC").astype(np.int64).tolist() == [2147483520, 16777216]
    assert m.convert(big, "int32", "float32", "CAST_CEIL").astype(np.int64).tolist() == [2147483648, 16777218]
    # 1 + 2**-11 lies halfway between two halves: to odd picks the one whose last bit is 1
    odd = m.convert(np.array([1 + 2 ** -11, 70000.0], np.float32), "float32", "float16", "CAST_ODD")
    assert odd.view(np.uint16)[0] == 0x3C01 and np.isinf(m.convert(np.array([70000.0], np.float32), "float32",
                                                                    "float16", "CAST_RINT")[0])
    minus_zero = m.convert(np.array([-0.3], np.float32), "float32", "float32", "CAST_NONE")
    assert minus_zero[0] == 0 and np.signbit(minus_zero[0])


# -- gather, gather_mask, sort32 ---------------------------------------------------------------------------
def test_gather_reads_at_byte_offsets_past_the_base():
    spec = {"op": "gather", "dtype": "float16", "form": "count", "count": 3, "base": 32}
    x = np.arange(64, dtype=np.float16)
    z = m.gather_ref(spec, x, np.array([0, 2, 30], np.uint32), np.zeros(16, np.float16))
    assert z[:4].tolist() == [16, 17, 31, 0]


def test_gather_mask_fixed_patterns_pack_the_picked_lanes_across_repeats():
    spec = {"op": "gather_mask", "dtype": "float32", "form": "pattern", "pattern": 4, "repeat_times": 2,
            "src_blk": 1, "src_rep": 8}
    z, kept = m.gather_mask_ref(spec, np.arange(128, dtype=np.float32), None, np.zeros(128, np.float32))
    assert kept == 32 and z[:3].tolist() == [1, 5, 9] and z[16] == 65 and z[32] == 0


def test_sort32_puts_the_earlier_of_equal_scores_first_with_its_index_after_the_score():
    scores = np.zeros(32, np.float16)
    scores[[3, 7]] = 5
    index = np.arange(32, dtype=np.uint32) + 100
    rec = m.sort32_ref({"dtype": "float16", "repeat_times": 1}, scores, index, np.zeros(128, np.float16))
    rec = rec.reshape(-1, 8)
    assert rec[0, :2].view(np.float16)[0] == 5 and rec[0, 2:4].tolist() == [0, 0]
    assert [int(r[4:].view(np.uint32)[0]) for r in rec[:3]] == [103, 107, 100]


def test_mrg_sort_repeats_move_src_and_dst_by_the_lists_total_also_when_suspension_stops_short():
    # lists of one record each: repeat r reads list j at record 16 * j + 2 * r (the total of 2 further on)
    scores = np.zeros(40, np.float32)
    scores[[0, 16, 2, 18]] = [5, 3, 4, 9]
    rec = np.zeros((40, 8), np.uint8)
    rec[:, :4] = scores.view(np.uint8).reshape(40, 4)
    rec[:, 4:] = np.arange(40, dtype=np.uint32).view(np.uint8).reshape(40, 4)
    spec = {"dtype": "float32", "counts": [1, 1], "valid": 0b11, "suspend": True, "repeat_times": 2}
    out = m.mrg_sort_ref(spec, rec.reshape(-1).view(np.float32), np.full(16, -7.25, np.float32)).reshape(-1, 8)
    # each repeat takes its higher head and stops (a list used up): repeat 1 writes record 2, record 1 kept
    assert [int(r[4:].view(np.uint32)[0]) for r in out[[0, 2]]] == [0, 18]
    assert out[1, :4].view(np.float32)[0] == -7.25 and out[3, :4].view(np.float32)[0] == -7.25


def test_counter_mode_runs_the_repeats_its_count_needs_the_last_one_partial():
    spec = {"op": "whole_reduce_sum", "dtype": "float32", "form": "counter", "mask": 65, "repeat_times": 7,
            "src_blk": 1, "src_rep": 8, "dst_rep": 1}
    on = m.lanes_on(spec, 64)
    assert on.shape == (2, 64) and on[1].sum() == 1 and m.repeats(spec, 64) == 2     # repeat_times ignored
    got = m.reduce_ref(spec, np.ones(192, np.float32), np.full(8, -7.25, np.float32)).view(np.float32)
    assert got[:3].tolist() == [64, 1, -7.25]
    reg = dict(spec, form="register", register={"len": 64, "mode": "COUNTER"})
    assert m.reduce_ref(reg, np.ones(192, np.float32), np.full(8, -7.25, np.float32)).view(np.float32)[1] == -7.25


# -- drawing, rendering, classification --------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(v1_strategies.spec_strategy())
def test_every_drawn_form_renders_a_kernel_whose_operands_hold_what_its_model_reads(spec):
    source = v1_families.render(spec, "t")
    compile(source, "case.py", "exec")
    assert f"asc.{spec['op']}(" in source
    if v1_families.fits(spec):
        arrays = v1_families.inputs(spec)
        arrays["z0"] = arrays["z"].copy()
        ref = v1_families.reference(spec, arrays)
        assert ref["zbytes"].size == arrays["z"].nbytes


def _case():
    return v1_diff.Case("t/x", Path("x.py"), None, None)


def test_the_new_families_refusals_by_stated_and_device_rules_and_compares_dispatcher_name():
    ok = {"verdict": "accepted", "message": None}
    e = v1_diff.classify(_case(), ok, {"verdict": "rejected", "message": "ValueError: compare: count 6 of float32 "
                                       "is 24 bytes, not a multiple of 256 (the count form compares whole repeats)"})
    assert e["outcome"] == "hardware-rule"
    e = v1_diff.classify(_case(), ok, {"verdict": "rejected", "message": "ValueError: cast: CAST_ODD rounds "
                                       "float32 to float16 only, not int32 to float32"})
    assert e["outcome"] == "device-rule"
    up = {"verdict": "rejected", "message": "CodegenError: RuntimeError: No viable candidates were found to "
                                            "dispatch asc.language.basic.vec_cmpsel()"}
    e = v1_diff.classify(_case(), up, {"verdict": "rejected", "message": "TypeError: x.py:3: compare: unexpected "
                                       "arguments  ['params']"})
    assert e["outcome"] == "same-mistake"
    e = v1_diff.classify(_case(), up, {"verdict": "rejected", "message": "TypeError: x.py:3: cast: unexpected "
                                       "arguments  ['params']"})
    assert e["outcome"] == "message"                          # another instruction's mistake is not the same
