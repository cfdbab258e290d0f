"""The August 2026 translation of ``golden/april/gelu_f16.py``, spelling for spelling.

``tests/golden/test_dialects.py`` runs both on every quick case and requires identical outputs and
modelled ticks: the two dialects lower to the same ops. The cell's golden (``golden/kernels/gelu_f16.py``)
has since moved to a faster schedule the April API cannot express (see its docstring), so the exact
translation lives here.
"""
import math

import numpy as np

import asc
import asc2

OP = "gelu"
DTYPE = "float16"
TOLERANCE = {"atol": 5e-2, "rtol": 5e-2}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "4x2048", "shape": [4, 2048]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
]

SEED = 2026
TILE_SIZE = 2048
CORE_NUM = 32
SQRT_HALF = math.sqrt(0.5)


@asc2.jit(always_compile=True)
def gelu_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, num_tiles: int,
                tile_size: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2):
        offset = t * tile_size
        x = asc2.copy_in(x_gm, [offset], [tile_size]).to(asc2.float32)
        y = x * (asc2.erf(x * SQRT_HALF) + 1.0) * 0.5
        asc2.copy_out(y.to(asc2.float16), out_gm, [offset])


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    return (x,)


def launch(x):
    out = np.zeros_like(x)
    num_tiles = asc.ceildiv(x.size, TILE_SIZE)
    gelu_kernel[min(CORE_NUM, num_tiles)](x, out, x.size, num_tiles, TILE_SIZE)
    return out


_verf = np.vectorize(math.erf, otypes=[np.float64])


def reference(x):
    x64 = x.astype(np.float64)
    return (0.5 * x64 * (1.0 + _verf(x64 * SQRT_HALF))).astype(np.float16)
