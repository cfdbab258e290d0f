"""The v1 fuzzer's block and address families (brcb, gatherb, scatter, transpose, sort, proposal_*): their numpy
models at the edges the docstrings state or the model names (blocks written over each other by stride 0,
offsets in bytes past a base, the later of two scattered elements staying, ties in a full sort), their drawing
and rendering, and the classification of a stated field range (always run, no pyasc-dev needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings

from asc_harness.conform import v1_blocks, v1_diff, v1_strategies


def _ref(spec, x, z0, y=None):
    arrays = {"x": np.asarray(x), "z0": np.asarray(z0)}
    if y is not None:
        arrays["y"] = np.asarray(y)
    return v1_blocks.reference(spec, arrays)["zbytes"].view(z0.dtype)


def test_brcb_broadcasts_each_element_over_its_block_and_stride_0_leaves_the_last():
    x = np.arange(16, dtype=np.float32) + 1
    spec = {"op": "brcb", "dtype": "float32", "repeat_times": 2, "dst_blk": 1, "dst_rep": 8}
    z = _ref(spec, x, np.zeros(128, np.float32)).reshape(16, 8)
    assert (z[:, 0] == x).all() and (z[9] == 10).all()
    same = _ref(dict(spec, dst_blk=0, dst_rep=0), x, np.zeros(64, np.float32)).reshape(8, 8)
    assert (same[0] == 16).all() and (same[1] == 0).all()      # every block onto block 0: the last stays


def test_gatherb_takes_whole_blocks_at_byte_offsets_into_the_repeats_strided_blocks():
    x = np.arange(64, dtype=np.float16)                         # 4 blocks of 16
    offs = np.array([96, 0, 32, 32, 64, 0, 0, 0], np.uint32)
    spec = {"op": "gatherb", "dtype": "float16", "repeat_times": 1, "dst_blk": 2, "dst_rep": 8}
    z = _ref(spec, x, np.full(256, -1, np.float16), offs).reshape(16, 16)
    assert z[0, 0] == 48 and z[2, 15] == 15 and z[4, 0] == 16 and z[8, 0] == 32 and (z[1] == -1).all()


def test_scatter_sends_elements_past_the_base_and_the_later_of_two_stays():
    spec = {"op": "scatter", "dtype": "float32", "form": "count", "count": 3, "base": 8}
    z = _ref(spec, np.array([1, 2, 3], np.float32), np.zeros(8, np.float32), np.array([4, 0, 4], np.uint32))
    assert z.tolist() == [0, 0, 2, 3, 0, 0, 0, 0]               # base 8 bytes: element 2; offset 4: element 3
    masked = dict(spec, form="mask_int", mask=1, repeat_times=2, src_rep=8)
    x = np.arange(128, dtype=np.float32)
    offs = np.zeros(128, np.uint32)
    offs[64] = 4                                                # repeat 1's lane 0 uses offset 64 (r * lanes + l)
    z = _ref(masked, x, np.zeros(8, np.float32), offs)
    assert z[2] == 0 and z[3] == 64


def test_a_full_sort_orders_every_repeat_together_ties_to_the_earlier_element():
    scores = np.zeros(64, np.float32)
    scores[[40, 3]] = 5
    spec = {"op": "sort", "dtype": "float32", "repeat_times": 2, "full": True}
    index = np.arange(64, dtype=np.uint32)
    rec = v1_blocks._sort_ref(spec, scores, index, np.zeros(128, np.float32)).reshape(-1, 8)
    assert [int(r[4:].view(np.uint32)[0]) for r in rec[:3]] == [3, 40, 0]
    per = v1_blocks._sort_ref(dict(spec, full=False), scores, index, np.zeros(128, np.float32)).reshape(-1, 8)
    assert int(per[32, 4:].view(np.uint32)[0]) == 40             # each repeat alone: 40 heads the second


def test_proposal_concat_fills_one_field_and_keeps_the_others():
    spec = {"op": "proposal_concat", "dtype": "float16", "repeat_times": 1, "mode": 4}
    z = _ref(spec, np.arange(16, dtype=np.float16), np.full(128, -1, np.float16)).reshape(16, 8)
    assert (z[:, 4] == np.arange(16)).all() and (z[:, 5] == -1).all()
    back = _ref(dict(spec, op="proposal_extract"), z.reshape(-1), np.zeros(16, np.float16))
    assert (back == np.arange(16)).all()


@settings(max_examples=80, deadline=None)
@given(v1_strategies.blocks_strategy())
def test_every_drawn_form_renders_a_kernel_whose_operands_hold_what_its_model_reads(spec):
    source = v1_blocks.render(spec, "t")
    compile(source, "case.py", "exec")
    assert f"asc.{spec['op']}(" in source
    if v1_blocks.fits(spec):
        arrays = v1_blocks.inputs(spec)
        arrays["z0"] = arrays["z"].copy()
        assert v1_blocks.reference(spec, arrays)["zbytes"].size == arrays["z"].nbytes


def test_a_proposal_field_beyond_the_six_is_a_stated_rule_and_another_range_is_not():
    case, ok = v1_diff.Case("t/x", Path("x.py"), None, None), {"verdict": "accepted", "message": None}
    e = v1_diff.classify(case, ok, {"verdict": "rejected", "message": "ValueError: x.py:3: proposal_extract: "
                                    "mode_number 6 is outside [0, 5]"})
    assert e["outcome"] == "hardware-rule"
    e = v1_diff.classify(case, ok, {"verdict": "rejected", "message": "ValueError: x.py:3: proposal_extract: "
                                    "mode_number 6 is outside [0, 7]"})
    assert e["outcome"] == "verdict"
