"""Cast kernels as the Cast regression suite has them: float32 -> float16 (ties to even, values past float16's
range to infinity), float16 -> float32, int32 -> float32 and integral float32 -> int32, each a ragged
1-D length over 16 cores, the block's window past the end clipped."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv

EXPECT = "accept"
SIZES = (7, 1000, 4097)


@asctile.jit
def cast_kernel(f32_ptr, i32_ptr, f16_ptr, widened_ptr, to_f32_ptr, to_i32_ptr, n, per_block: asctile.ConstExpr[int]):
    f32 = asctile.global_tensor(f32_ptr, [n])
    i32 = asctile.global_tensor(i32_ptr, [n])
    f16 = asctile.global_tensor(f16_ptr, [n])
    widened = asctile.global_tensor(widened_ptr, [n])
    to_f32 = asctile.global_tensor(to_f32_ptr, [n])
    to_i32 = asctile.global_tensor(to_i32_ptr, [n])
    off = asctile.block_idx() * per_block
    a = asctile.copy_in(f32, [off], [per_block])
    half = a.to(asctile.float16)
    asctile.copy_out(half, f16, [off])
    asctile.copy_out(half.to(asctile.float32), widened, [off])
    k = asctile.copy_in(i32, [off], [per_block])
    as_float = k.to(asctile.float32)
    asctile.copy_out(as_float, to_f32, [off])
    asctile.copy_out((as_float + 1.0).to(asctile.int32), to_i32, [off])


def run():
    rng = np.random.default_rng(216)
    pairs = {}
    for n in SIZES:
        f32 = rng.uniform(-70000, 70000, n).astype(np.float32)
        f32[: min(n, 4)] = [1.00048828125, 2049.0, -0.000030517578125, 65520.0][: min(n, 4)]  # ties, overflow
        i32 = rng.integers(-(2 ** 24), 2 ** 24, n).astype(np.int32)
        outs = [np.zeros(n, np.float16), np.zeros(n, np.float32), np.zeros(n, np.float32), np.zeros(n, np.int32)]
        cast_kernel[16](f32, i32, *outs, n, ceildiv(ceildiv(n, 16), 8) * 8)
        half = f32.astype(np.float16)
        for name, got, want in zip(("f16", "widened", "to_f32", "to_i32"), outs,
                                   (half, half.astype(np.float32), i32.astype(np.float32), i32 + 1)):
            pairs[f"{name}_{n}"] = (got, want)
    return checked(pairs, {"atol": 0.0, "rtol": 0.0})
