"""leaky_relu's golden computes max(x, alpha * x) for alpha <= 1 and min(x, alpha * x) above: both forms, and
the slopes where they meet or turn (1, above 1, negative), must still be leaky ReLU, in both dialects."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import asc.runtime.config as config
from test_goldens import _module, simulator  # noqa: F401

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


@pytest.mark.parametrize("dialect", ["kernels", "april"])
@pytest.mark.parametrize("alpha", [0.01, 1.0, 1.5, -0.5, 0.0])
def test_slopes(dialect, alpha, simulator):
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    module = _module(GOLDEN / dialect / "leaky_relu_f16.py")
    x, _ = module.make_inputs({"shape": [3000]})
    x[:4] = [0.0, -0.0, -1.0, 1.0]
    got = module.launch(x, alpha)
    want = module.reference(x, alpha)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), atol=1e-3, rtol=1e-3)
