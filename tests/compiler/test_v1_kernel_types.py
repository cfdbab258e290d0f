"""A kernel's type (``@asc.jit(kernel_type=KernelType.*)``, upstream's ``KernelType``) decides how many of its
blocks share an AI core group and which cores run its code: the sub-block names and the launch's blocks
follow it."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.runtime.config as config
import asc.runtime as rt

KT = config.KernelType
FIELDS = 5


def _kernel(kind):
    @asc.jit(kernel_type=kind)
    def where(z: asc.GlobalAddress):
        z_gm = asc.GlobalTensor()
        z_gm.set_global_buffer(z)
        b = asc.get_block_idx()
        z_gm.set_value(b * FIELDS, b)
        z_gm.set_value(b * FIELDS + 1, asc.get_sub_block_idx())
        z_gm.set_value(b * FIELDS + 2, asc.get_sub_block_num())
        z_gm.set_value(b * FIELDS + 3, asc.get_task_ratio())
        if asc.ascend_is_aic():
            z_gm.set_value(b * FIELDS + 4, 1)
    return where


# kernel type -> (blocks per group, sub-block count, whether the code runs on the cube cores)
TYPES = {KT.AIV_ONLY: (1, 1, False), KT.AIC_ONLY: (1, 1, True), KT.MIX_AIC_1_2: (2, 2, False),
         KT.MIX_AIC_1_1: (1, 1, False), KT.MIX_AIV_1_0: (1, 1, False), KT.MIX_AIC_1_0: (1, 1, True),
         KT.MIX_AIV_HARD_SYNC: (1, 1, False), KT.MIX_AIC_HARD_SYNC: (1, 1, True)}


@pytest.mark.filterwarnings("ignore::asc.UncoveredOutputWarning")   # (the row past the last block)
@pytest.mark.parametrize("kind", list(TYPES), ids=lambda k: k.name)
def test_sub_blocks_and_cores_follow_the_kernel_type(kind):
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    per_group, sub_num, cube = TYPES[kind]
    groups = 3
    blocks = groups * per_group
    z = np.full((blocks + 1) * FIELDS, -1, np.int32)     # one block's fields past the last block stay unwritten
    _kernel(kind)[groups](z)
    rows = z.reshape(-1, FIELDS)
    np.testing.assert_array_equal(rows[:, 0], list(range(blocks)) + [-1])
    np.testing.assert_array_equal(rows[:blocks, 1], [b % per_group for b in range(blocks)])
    assert (rows[:blocks, 2] == sub_num).all() and (rows[:blocks, 3] == sub_num).all()
    assert (rows[:blocks, 4] == (1 if cube else -1)).all()
    report = rt.last_launch_report()
    assert report["blocks"] == blocks and report["core_num"] == groups
    assert report["kernel_type"] == ("MIX" if kind is KT.MIX_AIC_1_2 else kind.name)
