"""Relu / LeakyRelu / Abs as the ops-nn activation tests call them on float16 and float32: ``relu``,
``maximum(x, alpha * x)`` with a runtime ``alpha``, ``abs``; lengths 1, 7, 33, 4097 over 48 cores with the
CANN block loop (windows wholly past the end on the last blocks: nothing written)."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv, tile_from_budget

EXPECT = "accept"
SIZES = (1, 7, 33, 4097)
CORES = 48


@asctile.jit
def act_kernel(x_ptr, relu_ptr, leaky_ptr, abs_ptr, n, alpha, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    relu = asctile.global_tensor(relu_ptr, [n])
    leaky = asctile.global_tensor(leaky_ptr, [n])
    absolute = asctile.global_tensor(abs_ptr, [n])
    per_block = asctile.ceildiv(n, asctile.block_num())
    for i in asctile.range(asctile.ceildiv(per_block, tile)):
        off = asctile.block_idx() * per_block + i * tile
        a = asctile.copy_in(x, [off], [tile])
        asctile.copy_out(asctile.relu(a), relu, [off])
        asctile.copy_out(asctile.maximum(a, a * alpha), leaky, [off])
        asctile.copy_out(asctile.abs(a), absolute, [off])


def run():
    rng = np.random.default_rng(217)
    pairs = {}
    for dtype in (np.float32, np.float16):
        for n in SIZES:
            x = rng.uniform(-5, 5, n).astype(dtype)
            outs = [np.zeros_like(x) for _ in range(3)]
            tile = tile_from_budget(ceildiv(n, CORES), x.itemsize, live_tiles=5)
            act_kernel[CORES](x, *outs, n, 0.01, tile)
            wants = (np.maximum(x, 0), np.maximum(x, x * dtype(0.01)), np.abs(x))
            for name, got, want in zip(("relu", "leaky", "abs"), outs, wants):
                pairs[f"{name}_{np.dtype(dtype).name}_{n}"] = (got, want)
    return checked(pairs, {"atol": 1e-3, "rtol": 1e-3})
