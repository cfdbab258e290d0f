"""matmul(a, b, bias) with the bias row in BT, and matmul / matmul_acc of float32 operands with hf32=True."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def bias_hf32_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, bias_ptr: asctile.GlobalAddress,
                     x_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress, d_ptr: asctile.GlobalAddress,
                     e_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L0B)
    bias = asctile.copy_in(asctile.global_tensor(bias_ptr, [16]), [0], [16], asctile.TensorLocation.BT)
    asctile.copy_out(asctile.matmul(a, b, bias), asctile.global_tensor(c_ptr, [16, 16]), [0, 0])
    xa = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0A)
    xb = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0B)
    asctile.copy_out(asctile.matmul(xa, xb, hf32=True), asctile.global_tensor(d_ptr, [16, 16]), [0, 0])
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    asctile.matmul_acc(acc, xa, xb, hf32=True)
    asctile.copy_out(acc, asctile.global_tensor(e_ptr, [16, 16]), [0, 0])


def run():
    rng = np.random.default_rng(2026)
    a = (rng.random((16, 32), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((32, 16), dtype=np.float32) - 0.5).astype(np.float16)
    bias = np.linspace(-1, 1, 16, dtype=np.float32)
    x = rng.standard_normal((16, 16), dtype=np.float32)
    c, d, e = (np.zeros((16, 16), np.float32) for _ in range(3))
    bias_hf32_kernel[1](a, b, bias, x, c, d, e)
    return {"c": c, "d": d, "e": e}
