"""Goldens that move tiles of whole rows (or stream rows in column tiles), at the counts where a tiling breaks.

A kernel that loads and stores [tile_rows, cols] windows (instead of one row at a time) must still be
right for one row, for a row count whose last tile holds a single row (the rows past the end are
clipped, not read or written), and for rows whose width is not a whole 32-byte block. The registry's
cases are the cell's shapes; these are the edges between them, run through the golden's own
``make_inputs`` / ``launch`` / ``reference`` on both platforms, with launches that run clean.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import asc.runtime.config as config
from test_goldens import _as_tuple, _copy, _module, compare, launch_reports, simulator  # noqa: F401

KERNELS = Path(__file__).resolve().parents[2] / "golden" / "kernels"
PLATFORMS = ("Ascend950PR_9599", "Ascend910B1")

EDGES = {
    "split_f16": [
        {"id": "one_row", "shape": [1, 40], "sections": [8, 24, 8]},
        # 33 rows over 32 blocks: tiles of 2 rows, the 17th holds the last row alone.
        {"id": "last_tile_one_row", "shape": [33, 48], "sections": [16, 24, 8]},
        {"id": "leading_dims", "shape": [3, 5, 7], "sections": [1, 5, 1]},
    ],
    "broadcast_f16": [
        {"id": "row_one_row", "shape": [1, 24], "kind": "row"},
        {"id": "column_one_row", "shape": [1, 24], "kind": "column"},
        # 33 rows over 32 blocks: tiles of 2 rows, the last holds one row (x's tile reads past its end).
        {"id": "row_last_tile_one_row", "shape": [33, 40], "kind": "row"},
        {"id": "column_last_tile_one_row", "shape": [33, 40], "kind": "column"},
        # the widest rows: two rows of 8192 columns a tile (TILE_ELEMENTS), 33 tiles over 32 blocks.
        {"id": "column_widest", "shape": [65, 8192], "kind": "column"},
    ],
    "reduce_sum_bf16": [
        {"id": "one_row", "shape": [1, 24]},
        {"id": "two_rows", "shape": [2, 8192]},
        # tiles of 2 rows (never one: a one-element store writes a whole 32-byte block); the 17th holds
        # the last row alone, its store clipped to one element.
        {"id": "last_tile_one_row", "shape": [33, 1000]},
        {"id": "widest", "shape": [40, 8192]},
    ],
    "reduce_sum_f16": [
        {"id": "one_row", "shape": [1, 24]},
        {"id": "two_rows", "shape": [2, 8192]},
        {"id": "last_tile_one_row", "shape": [33, 1000]},
        {"id": "widest", "shape": [40, 8192]},
    ],
    "reduce_sum_f32": [
        {"id": "one_row", "shape": [1, 12]},
        {"id": "two_rows", "shape": [2, 8192]},
        {"id": "last_tile_one_row", "shape": [33, 1001]},
        {"id": "widest", "shape": [40, 8192]},
    ],
    "reduce_max_f32": [
        # row 1 of the seeded input is all negative: a padding other than -inf would become its maximum
        {"id": "negative_row_narrower_than_a_block", "shape": [2, 4]},
        {"id": "last_tile_one_row", "shape": [33, 1001]},
        {"id": "widest", "shape": [40, 8192]},
    ],
    "layer_norm_f16": [
        {"id": "one_row", "shape": [1, 24]},
        # 33 rows over 32 blocks: tiles of 2 rows, the last holds one row.
        {"id": "last_tile_one_row", "shape": [33, 24]},
        # the widest rows (MAX_COLS): two a tile, within UB only through reuse_alloc=2.
        {"id": "widest", "shape": [64, 4096]},
    ],
    # tiles spread over every vector core (48 / 32), one tile a block on Ascend910B1 and two on
    # Ascend950PR_9599: one element, and one element past every block's largest tiles on each platform.
    "gelu_f16": [
        {"id": "one_element", "shape": [1]},
        {"id": "past_910b1_blocks", "shape": [48 * 4096 + 1]},
        {"id": "past_950_blocks", "shape": [32 * 2 * 4096 + 1]},
    ],
    "gelu_f32": [
        {"id": "one_element", "shape": [1]},
        {"id": "past_910b1_blocks", "shape": [48 * 4096 + 1]},
        {"id": "past_950_blocks", "shape": [32 * 2 * 4096 + 1]},
    ],
    # groups of rows dividing the row count, over every vector core; unrolled twice on Ascend950PR_9599.
    "softmax_bf16": [
        {"id": "one_row", "shape": [1, 16]},
        # prime: groups of one row, 97 over 32 / 48 blocks (odd trip counts: the unrolled loop's remainder)
        {"id": "prime_rows", "shape": [97, 64]},
        {"id": "widest", "shape": [3, 8192]},
    ],
    # full_row takes any row of at most 4096 columns as one zero-padded tile (real_shape); beyond, split_d.
    "rms_norm_f16": [
        {"id": "one_row_unaligned", "shape": [1, 17]},
        {"id": "rows_past_the_blocks", "shape": [33, 100]},
        {"id": "widest_full_row", "shape": [3, 4096]},
        {"id": "split_d_tail_tile_one_column", "shape": [2, 4097]},
    ],
    "rms_norm_f32": [
        {"id": "one_row_unaligned", "shape": [1, 9]},
        {"id": "widest_full_row", "shape": [3, 4096]},
        {"id": "split_d_tail_tile_one_column", "shape": [2, 4097]},
    ],
    # rms_norm: rows of up to 4096 columns go in tiles of rows (row_tiles), wider ones are streamed in column
    # tiles of SPLIT_TILE_COLS (split_d), whose last may hold one column.
    "rms_norm_bf16": [
        {"id": "one_row_padded", "shape": [1, 24]},
        # 33 rows over 32 blocks: tiles of 2 rows, the last holds one row; 17 columns pad a 32-column tile.
        {"id": "last_tile_one_row", "shape": [33, 17]},
        # the widest rows of row_tiles: two a tile (TILE_ELEMENTS), 33 tiles over 32 blocks.
        {"id": "widest_row_tiles", "shape": [65, 4096]},
        {"id": "tail_tile_one_column", "shape": [3, 4097]},
        {"id": "one_row_three_tiles", "shape": [1, 3 * 4096 - 8]},
    ],
    # one_hot: up to CORE_NUM rows one identity row a block (row kernel), more in tiles of rows.
    "one_hot_i32": [
        {"id": "row_kernel_every_block", "shape": [32, 8]},
        {"id": "row_kernel_widest", "shape": [3, 256]},
        # 33 rows: the tiles kernel, two tiles of 32 rows, the second holding one.
        {"id": "tiles_first_past_row_kernel", "shape": [33, 128]},
        # 16 rows a tile at depth 256: 17 tiles over 32 blocks, the last holds one row.
        {"id": "tiles_widest_last_tile_one_row", "shape": [257, 256]},
    ],
    # batch_norm: a channel's N planes in one [N, plane] tile while N x plane (rounded to 8) <= MAX_RESIDENT,
    # else streamed plane by plane in 1-D tiles.
    "batch_norm_f32": [
        {"id": "batch_of_one_padded", "shape": [1, 3, 5, 5]},
        # 33 channels over 32 blocks: block 0 takes two.
        {"id": "one_channel_past_the_blocks", "shape": [2, 33, 3, 3]},
        {"id": "largest_resident", "shape": [16, 2, 32, 32]},
        {"id": "first_streamed", "shape": [2, 2, 8193, 1]},
    ],
}


def _params():
    return [pytest.param(name, case, platform, id=f"{name}-{case['id']}-{platform}")
            for name, cases in EDGES.items() for case in cases for platform in PLATFORMS]


@pytest.mark.parametrize("name, case, platform", _params())
def test_edge_rows(name, case, platform, simulator, launch_reports):
    config.set_platform(config.Backend.Model, config.Platform(platform))
    module = _module(KERNELS / f"{name}.py")
    inputs = _as_tuple(module.make_inputs(case))
    expected = module.reference(*_copy(inputs))
    outputs = module.launch(*inputs)
    problems = compare(outputs, expected, module.TOLERANCE["atol"], module.TOLERANCE["rtol"])
    assert not problems, f"{name} {case['id']}: " + "; ".join(problems)
    warned = [w for r in launch_reports for w in r["warnings"]]
    assert not warned, f"{name} {case['id']} on {platform} warns: {warned}"


def test_split_rejects_a_section_wider_than_a_tile_row():
    module = _module(KERNELS / "split_f16.py")
    x, _ = module.make_inputs({"shape": [2, module.MAX_TILE + 32], "sections": [1, 1, 1]})
    with pytest.raises(ValueError, match="wider than one UB tile row"):
        module.launch(x, [module.MAX_TILE + 16, 8, 8])
