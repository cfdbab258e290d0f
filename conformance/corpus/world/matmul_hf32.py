"""float32 matmul with ``hf32=True`` (HF32: the operands cut to 11 mantissa bits, toward zero, before a float32
product: pyasc-dev lowers hf32 to SetHF32Mode(true) + SetHF32TransMode(true), and SetHF32TransMode's
docstring says true rounds toward zero), as MatMul tests with ``enable_hf32`` run it; the reference rounds
the operands the same way, and its tolerance is far below the HF32 rounding error, so a plain float32
product would miss it."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-5}
SHAPES = ((32, 32, 64), (64, 16, 128))  # (M, N, K)


def to_hf32(x):
    bits = x.astype(np.float32).view(np.uint32)
    drop = 12  # float32 keeps 23 mantissa bits, HF32 11: the low 12 are cut (toward zero)
    return (bits & np.uint32(~((1 << drop) - 1) & 0xFFFFFFFF)).view(np.float32)


@asctile.jit
def hf32_kernel(a_ptr, b_ptr, c_ptr, m: asctile.ConstExpr[int], n: asctile.ConstExpr[int], k: asctile.ConstExpr[int]):
    a = asctile.global_tensor(a_ptr, [m, k])
    b = asctile.global_tensor(b_ptr, [k, n])
    c = asctile.global_tensor(c_ptr, [m, n])
    acc = asctile.zeros_acc([m, n], asctile.float32)
    asctile.matmul_acc(acc, asctile.copy_in(a, [0, 0], [m, k], asctile.TensorLocation.L0A),
                       asctile.copy_in(b, [0, 0], [k, n], asctile.TensorLocation.L0B), hf32=True)
    asctile.copy_out(acc, c, [0, 0])


def run():
    rng = np.random.default_rng(227)
    pairs = {}
    for m, n, k in SHAPES:
        a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
        b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
        c = np.zeros((m, n), np.float32)
        hf32_kernel[1](a, b, c, m, n, k)
        want = (to_hf32(a).astype(np.float64) @ to_hf32(b).astype(np.float64)).astype(np.float32)
        assert not np.allclose(want, a.astype(np.float64) @ b, **TOLERANCE)  # the tolerance sees HF32's rounding
        pairs[f"{m}x{n}x{k}"] = (c, want)
    return checked(pairs, TOLERANCE)
