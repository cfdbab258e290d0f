"""sort32 and mrg_sort against numpy on both platforms: records highest score first with ties to the earlier
element / list, half records' layout, the suspension that stops at the first list used up."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)


def _records(raw, dtype):
    rec = raw.view(np.uint8).reshape(-1, 8)
    scores = rec[:, :np.dtype(dtype).itemsize].copy().view(dtype).reshape(-1)
    return scores, rec[:, 4:].copy().view(np.uint32).reshape(-1)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_sort32_sorts_each_repeat_highest_first_ties_keep_order(platform, dtype):
    rng = np.random.default_rng(31)
    s = rng.integers(0, 8, 64).astype(dtype)          # many ties
    idx = np.arange(64, dtype=np.uint32) + 100

    def body(a, b, m, d):
        asc.sort32(d, a, b, 2)
    got = run(body, s, idx, None, np.zeros(64 * 8 // np.dtype(dtype).itemsize, dtype))
    scores, index = _records(got, dtype)
    for r in range(2):
        order = np.argsort(-s[r * 32:(r + 1) * 32].astype(np.float64), kind="stable")
        np.testing.assert_array_equal(scores[r * 32:(r + 1) * 32], s[r * 32:(r + 1) * 32][order])
        np.testing.assert_array_equal(index[r * 32:(r + 1) * 32], idx[r * 32:(r + 1) * 32][order])


def _list(scores, start):
    rec = np.zeros((len(scores), 2), np.float32)
    rec[:, 0] = scores
    rec[:, 1] = (np.arange(len(scores), dtype=np.uint32) + start).view(np.float32)
    return rec.reshape(-1)


def test_mrg_sort_merges_lists_ties_to_the_earlier_list(platform):
    a = np.sort(np.array([9, 7, 7, 3, 1, 0, 0, 0], np.float32))[::-1]
    b = np.sort(np.array([8, 7, 5, 5, 2, 0, 0, 0], np.float32))[::-1]
    src = np.concatenate([_list(a, 0), _list(b, 100)])       # list 1 at element 0, list 2 at element 16
    nums = []

    def body(x, y, m, d):
        counts = [8, 8]
        sorted_num = [0, 0, 0, 0]
        asc.mrg_sort(d, asc.MrgSortSrcList(asc.float32, x, x[16:]), counts, sorted_num, 0b11, 1)
        nums.append(asc.get_mrg_sort_result())
    got = run(body, src, None, None, np.zeros(32, np.float32))
    scores, index = _records(got, np.float32)
    keys = np.concatenate([a, b])
    ids = np.concatenate([np.arange(8), np.arange(8) + 100]).astype(np.uint32)
    order = np.argsort(-keys, kind="stable")
    np.testing.assert_array_equal(scores, keys[order])
    np.testing.assert_array_equal(index, ids[order])
    assert nums == [(8, 8, 0, 0)]


def test_mrg_sort_with_suspension_stops_when_a_list_runs_out(platform):
    a = np.array([9, 8, 7, 6], np.float32)
    b = np.array([5, 4, 3, 2], np.float32)
    src = np.concatenate([_list(a, 0), _list(b, 100)])
    nums = []

    def body(x, y, m, d):
        asc.mrg_sort(d, asc.MrgSortSrcList(asc.float32, x, x[8:]), asc.MrgSort4Info([4, 4], True, 0b11, 1))
        nums.append(asc.get_mrg_sort_result())
    got = run(body, src, None, None, np.full(16, -1, np.float32))
    scores, _ = _records(got[:8], np.float32)
    np.testing.assert_array_equal(scores, a)                # list 1 runs out first: the merge stops there
    assert nums == [(4, 0, 0, 0)]
    assert (got[8:] == -1).all()


def test_mrg_sort_valid_bit_is_a_mask_naming_the_lists_it_merges(platform):
    a = np.array([9, 4, 1, 0], np.float32)
    b = np.array([8, 7, 6, 5], np.float32)
    c = np.array([4, 3, 0, 0], np.float32)
    src = np.concatenate([_list(a, 0), _list(b, 100), _list(c, 200)])
    nums = []

    def body(x, y, m, d):
        # lists 1 and 3 (bit 0 and bit 2): list 2 is not read; the 4 ties to the earlier list
        asc.mrg_sort(d, asc.MrgSortSrcList(asc.float32, x, x[8:], x[16:]), [3, 4, 2], [0, 0, 0, 0], 0b101, 1)
        nums.append(asc.get_mrg_sort_result())
    got = run(body, src, None, None, np.full(16, -1, np.float32))
    scores, index = _records(got[:10], np.float32)
    assert scores.tolist() == [9, 4, 4, 3, 1] and index.tolist() == [0, 1, 200, 201, 2]
    assert (got[10:] == -1).all() and nums == [(3, 0, 2, 0)]


def test_mrg_sort_repeats_write_each_repeat_the_lists_total_on_even_when_suspension_stops_short(platform):
    # two repeats of lists of 2 records (list 2 at record 8): repeat 1 reads both lists 4 records further on
    # and writes its output 4 records further on, whatever the first repeat's suspension left out
    a0, b0, a1, b1 = [9, 8], [5, 4], [3, 1], [7, 6]
    gap = np.zeros(4, np.float32)                           # two records no list reads
    src = np.concatenate([_list(a0, 0), gap, _list(a1, 10), gap, _list(b0, 100), gap, _list(b1, 110), gap])

    def body(x, y, m, d):
        asc.mrg_sort(d, asc.MrgSortSrcList(asc.float32, x, x[16:]), asc.MrgSort4Info([2, 2], True, 0b11, 2))
    got = run(body, src, None, None, np.full(16, -1, np.float32))
    scores, index = _records(got, np.float32)
    # repeat 0 takes 9, 8 (list 1 used up: stop); repeat 1 at record 4 takes 7, 6; records 2, 3, 6, 7 kept
    assert scores[[0, 1, 4, 5]].tolist() == [9, 8, 7, 6] and index[[4, 5]].tolist() == [110, 111]
    assert (got[4:8] == -1).all() and (got[12:] == -1).all()
