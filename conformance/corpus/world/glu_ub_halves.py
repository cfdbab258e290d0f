"""GLU (``a * sigmoid(b)`` over the two halves of the last axis, as ops-nn's Glu): each [rows, 2H] row tile is
loaded once and split with on-chip ``copy`` windows of the UB tile (``copy(x, [0, H], [rows, H])``), the
product written as ``a / (1 + exp(0 - b))``; H = 32 and 64, ragged row counts over 16-row tiles, 24 cores.
pyasc-dev's front end and interpreter take the UB -> UB copies (its own docstring shows one); its compiler
refuses them ("Direct data transfer from UB to UB is not supported"), so the kernel cannot run on a device,
and this engine refuses it with that text: load each half with its own copy_in."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "reject"
ERROR = "Direct data transfer from UB to UB is not supported"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-5}
SHAPES = ((33, 32), (100, 64), (1, 32))  # (rows, H)
TILE_ROWS = 16


@asctile.jit
def glu_kernel(x_ptr, y_ptr, rows, h: asctile.ConstExpr[int], tile_rows: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, 2 * h])
    y = asctile.global_tensor(y_ptr, [rows, h])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(rows, tile_rows), asctile.block_num()):
        both = asctile.copy_in(x, [t * tile_rows, 0], [tile_rows, 2 * h], pad_value=0.0)
        a = asctile.copy(both, [0, 0], [tile_rows, h])
        b = asctile.copy(both, [0, h], [tile_rows, h])
        asctile.copy_out(a / (1.0 + asctile.exp(0.0 - b)), y, [t * tile_rows, 0])


def run():
    rng = np.random.default_rng(237)
    pairs = {}
    for rows, h in SHAPES:
        x = rng.standard_normal((rows, 2 * h)).astype(np.float32)
        y = np.zeros((rows, h), np.float32)
        glu_kernel[24](x, y, rows, h, TILE_ROWS)
        pairs[f"{rows}x{h}"] = (y, x[:, :h] / (1 + np.exp(-x[:, h:])))
    return checked(pairs, TOLERANCE)
