"""addcdiv float16's golden widens to float32 and rounds once: where float16 arithmetic (the quotient, the
product, the sum each rounded to half) leaves the cell's tolerance, the golden must still meet its float32
reference. The quotient past float16's range with a finite product, a large quotient cancelled by input,
and a divisor near zero cancelled by input."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import asc.runtime.config as config
from test_goldens import _module, simulator  # noqa: F401

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "kernels" / "addcdiv_f16.py"
H = torch.float16


def _edges(module):
    """(x, t1, t2) of 1024 elements (one minimum tile): the edges, then the cell's own inputs."""
    x, t1, t2, _ = module.make_inputs({"shape": [1024]})
    t1[:3], t2[:3] = torch.tensor([2.0, 13.797, -1.2705], dtype=H), torch.tensor([2e-5, 0.8218, 2e-5], dtype=H)
    q = module.VALUE * t1[:3].float() / t2[:3].float()
    x[0] = 0.0                      # t1 / t2 ~ 99865 overflows half; value * t1 / t2 = 49920 does not
    x[1:3] = (-q[1:3]).to(H)        # input cancels value * t1 / t2: quotients 16.8 and -63440
    return x, t1, t2


@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950PR_9599"])
def test_float32_arithmetic_where_half_arithmetic_fails(platform, simulator):
    config.set_platform(config.Backend.Model, config.Platform(platform))
    module = _module(GOLDEN)
    x, t1, t2 = _edges(module)
    want = module.reference(x, t1, t2, module.VALUE).double().numpy()
    half = (x + t1 / t2 * torch.tensor(module.VALUE, dtype=H)).double().numpy()
    tol = module.TOLERANCE
    assert not np.allclose(half[:3], want[:3], atol=tol["atol"], rtol=tol["rtol"])   # the edges do tell
    assert np.isfinite(want[0]) and want[0] == 49920.0
    got = module.launch(x, t1, t2, module.VALUE).double().numpy()
    np.testing.assert_allclose(got, want, atol=tol["atol"], rtol=tol["rtol"])
