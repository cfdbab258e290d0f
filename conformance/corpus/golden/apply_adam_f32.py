"""August-dialect port of golden/kernels/apply_adam_f32.py: one Adam optimiser step, in place on param, m and v, float32."""
import math

import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version

EXPECT = "accept"
OP = "apply_adam"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-5}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]
SEED = 2026
LR, BETA1, BETA2, EPS, STEP = 1e-3, 0.9, 0.999, 1e-8, 10
TILE_SIZE = 1024
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform


@asctile.jit(always_compile=True)
def apply_adam_kernel(param_ptr: asctile.GlobalAddress, m_ptr: asctile.GlobalAddress, v_ptr: asctile.GlobalAddress,
                      grad_ptr: asctile.GlobalAddress, size: int, num_tiles: int, lr_t: float,
                      one_minus_beta1: float, one_minus_beta2: float, eps: float, tile_size: asctile.ConstExpr[int]):
    param_gm = asctile.global_tensor(param_ptr, [size])
    m_gm = asctile.global_tensor(m_ptr, [size])
    v_gm = asctile.global_tensor(v_ptr, [size])
    grad_gm = asctile.global_tensor(grad_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=2):
        offset = t * tile_size
        param = asctile.copy_in(param_gm, [offset], [tile_size])
        m = asctile.copy_in(m_gm, [offset], [tile_size])
        v = asctile.copy_in(v_gm, [offset], [tile_size])
        grad = asctile.copy_in(grad_gm, [offset], [tile_size])
        m = m + (grad - m) * one_minus_beta1
        v = v + (grad * grad - v) * one_minus_beta2
        param = param - m * lr_t / (asctile.sqrt(v) + eps)
        asctile.copy_out(m, m_gm, [offset])
        asctile.copy_out(v, v_gm, [offset])
        asctile.copy_out(param, param_gm, [offset])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    shape = case["shape"]
    param = gen.standard_normal(shape, dtype=np.float32)
    m = gen.standard_normal(shape, dtype=np.float32) * 0.1
    v = gen.random(shape, dtype=np.float32) * 0.01
    grad = gen.standard_normal(shape, dtype=np.float32)
    return (param, m, v, grad, LR, BETA1, BETA2, EPS, STEP)


def _lr_t(lr, beta1, beta2, step):
    return lr * math.sqrt(1.0 - beta2 ** step) / (1.0 - beta1 ** step)


def core_num():
    """Every vector core of the selected platform, as golden/kernels/apply_adam_f32.py launches."""
    return AIV_CORES[get_soc_version().value]


def apply_adam_(param, m, v, grad, lr, beta1, beta2, eps, step):
    """One Adam step on the device, updating param, m and v in place (all contiguous, one shape)."""
    if not param.shape == m.shape == v.shape == grad.shape:
        raise ValueError("param, m, v and grad must have one shape")
    if step < 1:
        raise ValueError(f"step counts from 1, got {step}")
    if not (param.flags.c_contiguous and m.flags.c_contiguous and v.flags.c_contiguous):
        raise ValueError("param, m and v must be contiguous: the kernel writes into their buffers")
    num_tiles = -(-param.size // TILE_SIZE)
    apply_adam_kernel[min(core_num(), num_tiles)](param, m, v, grad, param.size, num_tiles,
                                                   _lr_t(lr, beta1, beta2, step), 1.0 - beta1, 1.0 - beta2, eps,
                                                   TILE_SIZE)
    return param, m, v


def launch(param, m, v, grad, lr, beta1, beta2, eps, step):
    return apply_adam_(param.copy(), m.copy(), v.copy(), grad, lr, beta1, beta2, eps, step)


def reference(param, m, v, grad, lr, beta1, beta2, eps, step):
    m = m + (1.0 - beta1) * (grad - m)
    v = v + (1.0 - beta2) * (grad * grad - v)
    param = param - _lr_t(lr, beta1, beta2, step) * m / (np.sqrt(v) + eps)
    return (param, m, v)
