"""Every KernelType a kernel may declare: a cube kernel (matmul_acc, the accumulator copied out) declared
AIC_ONLY, MIX_AIC_1_0 and MIX_AIC_HARD_SYNC; a mixed kernel (matmul_acc, then a vector op on the result)
declared MIX_AIC_1_1, MIX_AIC_1_2, MIX_AIV_1_0 and MIX_AIV_HARD_SYNC. The kind is a hint to the
toolchain: every declaration computes the same result."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


def cube(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def mixed(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    asctile.copy_out(asctile.exp(acc), asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


CUBE = (asctile.KernelType.AIC_ONLY, asctile.KernelType.MIX_AIC_1_0, asctile.KernelType.MIX_AIC_HARD_SYNC)
MIXED = (asctile.KernelType.MIX_AIC_1_1, asctile.KernelType.MIX_AIC_1_2, asctile.KernelType.MIX_AIV_1_0,
         asctile.KernelType.MIX_AIV_HARD_SYNC)


def run():
    rng = np.random.default_rng(26)
    a = ((rng.random((16, 32), dtype=np.float32) - 0.5) / 4).astype(np.float16)
    b = ((rng.random((32, 16), dtype=np.float32) - 0.5) / 4).astype(np.float16)
    out = {}
    for fn, kinds in ((cube, CUBE), (mixed, MIXED)):
        for kind in kinds:
            c = np.zeros((16, 16), np.float32)
            asctile.jit(kernel_type=kind)(fn)[1](a, b, c)
            out[f"{fn.__name__}_{kind.name}"] = c
    return out
