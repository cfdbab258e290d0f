"""bmm's two kernels at the edges of its dispatcher: one work item a block with the whole K (as many
blocks as items, each operand at most ITEM_OPERAND_BYTES) and the K-tiled loop over items, run through
the golden's own ``make_inputs`` / ``launch`` / ``reference`` on both platforms, with launches that run
clean."""
from __future__ import annotations

from pathlib import Path

import pytest

import asc.runtime.config as config
from test_goldens import _as_tuple, _copy, _module, compare, launch_reports, simulator  # noqa: F401

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "kernels" / "bmm_f16.py"
PLATFORMS = ("Ascend950PR_9599", "Ascend910B1")

EDGES = [
    # the item kernel at its limits: 16 items on the 16 cube cores, [64, 256] float16 operands (32 KiB)
    ({"id": "item_every_core", "shape": [16, 64, 256, 64]}, "item"),
    # one batch more: 17 items do not fit one a core, so the K-tiled loop takes them (block 0 runs two)
    ({"id": "k_tiled_one_item_past", "shape": [17, 64, 256, 64]}, "k_tiled"),
    # K = 272 makes a [64, K] operand 34 KiB: K-tiled with k_tile 16 (17 steps), a batch of one
    ({"id": "k_tiled_batch_of_one_odd_k", "shape": [1, 64, 272, 64]}, "k_tiled"),
    # N = 96: 32-column tiles, 18 items over 16 blocks
    ({"id": "k_tiled_uneven_items", "shape": [3, 128, 512, 96]}, "k_tiled"),
]


@pytest.mark.parametrize("case, kernel, platform",
                         [pytest.param(c, k, p, id=f"{c['id']}-{p}") for c, k in EDGES for p in PLATFORMS])
def test_bmm_edges(case, kernel, platform, simulator, launch_reports):
    config.set_platform(config.Backend.Model, config.Platform(platform))
    module = _module(GOLDEN)
    assert module.select_kernel(*case["shape"]) == kernel
    inputs = _as_tuple(module.make_inputs(case))
    expected = module.reference(*_copy(inputs))
    problems = compare(module.launch(*inputs), expected, module.TOLERANCE["atol"], module.TOLERANCE["rtol"])
    assert not problems, f"bmm {case['id']}: " + "; ".join(problems)
    warned = [w for r in launch_reports for w in r["warnings"]]
    assert not warned, f"bmm {case['id']} on {platform} warns: {warned}"


def test_bmm_rejects_k_past_the_l1_slab():
    module = _module(GOLDEN)
    a, b = module.make_inputs({"shape": [1, 64, 528, 64]})
    with pytest.raises(ValueError, match="K <= 512"):
        module.launch(a, b)
