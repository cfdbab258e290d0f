"""Region proposals (8 elements: x1 y1 x2 y2 score label and 2 reserved) and the sort helpers against numpy
on both platforms: fields in and out, rp_sort16 / mrg_sort4 by score with ties to the earlier, sort's
per-repeat and full forms, the sort-structure sizes."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("mode", [0, 5])
def test_proposal_concat_fills_one_field_and_keeps_the_others(platform, dtype, mode):
    x = (np.arange(32) + 1).astype(dtype)
    z = np.full(32 * 8 + 16, -7, dtype)            # 32 proposals, then 16 elements past the last repeat

    def body(a, b, m, d):
        asc.proposal_concat(d, a, 2, mode)
    got = run(body, x, None, None, z.copy()).reshape(-1)
    props = got[:256].reshape(32, 8)
    np.testing.assert_array_equal(props[:, mode], x)
    others = np.delete(props, mode, axis=1)
    assert np.all(others == -7) and np.all(got[256:] == -7)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_proposal_extract_reads_the_field_back(platform, dtype):
    props = np.arange(48 * 8).astype(dtype).reshape(48, 8)
    z = np.full(64, -1, dtype)

    def body(a, b, m, d):
        asc.proposal_extract(d, a, 3, 4)          # the scores of 48 proposals
    got = run(body, props.reshape(-1), None, None, z)
    np.testing.assert_array_equal(got[:48], props[:, 4])
    assert np.all(got[48:] == -1)                # one element past the last repeat untouched


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_rp_sort16_sorts_each_16_by_score_ties_to_the_earlier(platform, dtype):
    rng = np.random.default_rng(5)
    props = rng.integers(0, 50, (32, 8)).astype(dtype)
    props[:, 4] = rng.integers(0, 4, 32)          # many equal scores
    props[:, 5] = np.arange(32)                   # the label tells which proposal moved where

    def body(a, b, m, d):
        asc.rp_sort16(d, a, 2)
    got = run(body, props.reshape(-1), None, None, np.zeros(32 * 8, dtype)).reshape(32, 8)
    for r in range(2):
        grp = props[16 * r: 16 * (r + 1)]
        want = grp[np.argsort(-grp[:, 4].astype(np.float64), kind="stable")]
        np.testing.assert_array_equal(got[16 * r: 16 * (r + 1)], want)


def test_mrg_sort4_merges_proposal_lists_ties_to_the_earlier_list(platform):
    lists = [np.array([9, 5, 5, 1]), np.array([7, 5, 2, 0]), np.array([8, 8, 3, 1]), np.array([6, 5, 4, 0])]
    props = np.zeros((16, 8), np.float32)
    for q, s in enumerate(lists):
        props[4 * q: 4 * q + 4, 4] = s
        props[4 * q: 4 * q + 4, 5] = np.arange(4) + 10 * q
    nums = []

    def body(a, b, m, d):
        src = asc.MrgSortSrcList(a, a[32:], a[64:], a[96:])
        asc.mrg_sort4(d, src, asc.MrgSort4Info([4, 4, 4, 4], False, 15, 1))
        nums.append(asc.get_mrg_sort_result())
    got = run(body, props.reshape(-1), None, None, np.zeros(16 * 8, np.float32)).reshape(16, 8)
    want = props[np.argsort(-props[:, 4], kind="stable")]
    np.testing.assert_array_equal(got, want)
    assert nums == [(4, 4, 4, 4)]


def _records(raw, dtype):
    rec = raw.view(np.uint8).reshape(-1, 8)
    return rec[:, :np.dtype(dtype).itemsize].copy().view(dtype).reshape(-1), rec[:, 4:].copy().view(np.uint32)


@pytest.mark.parametrize("full", [False, True])
def test_sort_per_repeat_or_full_ties_keep_the_input_order(platform, full):
    rng = np.random.default_rng(11)
    s = rng.integers(0, 6, 96).astype(np.float32)
    idx = np.arange(96, dtype=np.uint32)

    def body(a, b, m, d):
        tmp = d[96 * 2:]
        asc.sort(d, a, b, tmp, 3, is_full_sort=full)
    got = run(body, s, idx, None, np.zeros(96 * 4, np.float32))
    scores, index = _records(got[:192], np.float32)
    groups = [s] if full else [s[i: i + 32] for i in range(0, 96, 32)]
    want = np.concatenate([g[np.argsort(-g, kind="stable")] for g in groups])
    want_i = np.concatenate([np.argsort(-g, kind="stable") + (0 if full else 32 * k) for k, g in enumerate(groups)])
    np.testing.assert_array_equal(scores, want)
    np.testing.assert_array_equal(index.reshape(-1), want_i)


def test_sort_structure_sizes_are_float_elements_of_8_byte_records():
    assert asc.get_sort_len(100) == 200 and asc.get_sort_offset(10) == 20 and asc.get_sort_len(0) == 0
    with pytest.raises(TypeError, match="elem_count must be an int"):
        asc.get_sort_len(2.5)


def test_proposal_field_past_label_is_refused_at_the_call(platform):
    def body(a, b, m, d):
        asc.proposal_extract(d, a, 1, 6)
    with pytest.raises(ValueError, match=r"mode_number 6 is outside \[0, 5\]"):
        run(body, np.zeros(128, np.float32), None, None, np.zeros(16, np.float32))

