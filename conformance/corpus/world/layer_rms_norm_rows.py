"""LayerNorm and RMSNorm over the last axis with gamma / beta, rows per tile from the UB budget, the last row
tile ragged (``real_shape``; its padding rows are normalised and dropped by the store), 20 cores; shapes
from the norm regression suites ([33, 128], [100, 64], [1, 1024]), epsilon a runtime float."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ub_bytes

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-4}
SHAPES = ((33, 128), (100, 64), (1, 1024))


@asctile.jit
def norm_kernel(x_ptr, g_ptr, b_ptr, ln_ptr, rms_ptr, rows, cols: asctile.ConstExpr[int],
                tile_rows: asctile.ConstExpr[int], eps):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    ln = asctile.global_tensor(ln_ptr, [rows, cols])
    rms = asctile.global_tensor(rms_ptr, [rows, cols])
    gamma = asctile.copy_in(asctile.global_tensor(g_ptr, [cols]), [0], [cols])
    beta = asctile.copy_in(asctile.global_tensor(b_ptr, [cols]), [0], [cols])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(rows, tile_rows), asctile.block_num()):
        real = [min(tile_rows, rows - t * tile_rows), cols]
        a = asctile.copy_in(x, [t * tile_rows, 0], [tile_rows, cols], real_shape=real, pad_value=1.0)
        y, mean, rstd = asctile.layer_norm(a, gamma, beta, eps)
        asctile.copy_out(y, ln, [t * tile_rows, 0], real_shape=real)
        asctile.copy_out(asctile.rms_norm(a, gamma, eps), rms, [t * tile_rows, 0], real_shape=real)


def run():
    rng = np.random.default_rng(219)
    pairs = {}
    eps = 1e-5
    for rows, cols in SHAPES:
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        g = rng.uniform(0.5, 1.5, cols).astype(np.float32)
        b = rng.standard_normal(cols).astype(np.float32)
        ln, rms = np.zeros_like(x), np.zeros_like(x)
        tile_rows = max(1, min(rows, 16, ub_bytes() // (2 * 6 * cols * 4)))
        norm_kernel[20](x, g, b, ln, rms, rows, cols, tile_rows, eps)
        mu, var = x.mean(axis=1, keepdims=True), x.var(axis=1, keepdims=True)
        pairs[f"ln_{rows}x{cols}"] = (ln, (x - mu) / np.sqrt(var + eps) * g + b)
        pairs[f"rms_{rows}x{cols}"] = (rms, x / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps) * g)
    return checked(pairs, TOLERANCE)
