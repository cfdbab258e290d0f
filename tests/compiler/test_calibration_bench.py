"""The calibration bench's rank check and its split of the C220 unroll_factor=2 excess (bench/ticks_calibration.py)."""
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))  # after every other module
import ticks_calibration  # noqa: E402  (bench/ is not a package)

BASE = "matmul sweep baseline (Python range)"


def test_same_code_pair_is_listed_not_counted_as_kept():
    # camodel puts the baseline 3.7 % above uf1, the model puts them level: the pair compiles to the same code
    rows = [(BASE, 7249, 7423), ("matmul sweep uf1", 7249, 7155), ("matmul sweep uf2", 7109, 6548)]
    kept, checked, same = ticks_calibration.rank_pairs(rows)
    assert same == [(BASE, "matmul sweep uf1")]
    assert (kept, checked) == (2, 2)


def test_a_misordered_pair_outside_same_code_still_fails():
    rows = [("matmul sweep uf1", 7000, 7155), ("matmul sweep uf2", 7109, 6548)]
    assert ticks_calibration.rank_pairs(rows) == (0, 1, [])


def test_a_same_code_pair_within_camodel_jitter_is_neither_checked_nor_listed():
    rows = [(BASE, 7249, 7160), ("matmul sweep uf1", 7249, 7155)]
    assert ticks_calibration.rank_pairs(rows) == (0, 0, [])


def test_uf2_extra_splits_the_excess_per_launch_and_per_group():
    # camodel's extra = the model's + 600 per launch + 100 per unrolled group (rows / 16 blocks / 2)
    scored = []
    for rows, model_uf1, model_extra in ((32, 5000, 700), (64, 7000, 650), (128, 10500, 550), (256, 17400, 400)):
        groups = rows / 32
        scored.append((f"reduce_sum f16 [{rows},4096] uf1", model_uf1, model_uf1 - 300))
        scored.append((f"reduce_sum f16 [{rows},4096] uf2 par", model_uf1 + model_extra,
                       model_uf1 - 300 + model_extra + 600 + 100 * groups))
    split = ticks_calibration.uf2_extra(scored)
    assert split["per_launch"] == pytest.approx(600)
    assert split["per_group"] == pytest.approx(100)
    assert split["model"] == [700, 650, 550, 400]
