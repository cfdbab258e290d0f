"""The August 2026 translation of ``golden/april/rms_norm_f16.py``, spelling for spelling.

``tests/golden/test_dialects.py`` runs both on every quick case and requires identical outputs and
modelled ticks: the two dialects lower to the same ops. The cell's golden (``golden/kernels/rms_norm_f16.py``)
has since moved to a faster schedule the April API cannot express (see its docstring), so the exact
translation lives here.
"""
import torch

import asc
import asc2

OP = "rms_norm"
DTYPE = "float16"
TOLERANCE = {"atol": 5e-2, "rtol": 5e-2}
CASES = [
    {"id": "8x256_full_row", "shape": [8, 256], "kernel": "full_row", "atol": 2e-2, "rtol": 2e-2},
    {"id": "8x1055_split_d", "shape": [8, 1055], "kernel": "split_d"},
    {"id": "64x100003_split_d", "shape": [64, 100003], "kernel": "split_d", "full_only": True},
]

SEED = 2026
EPS = 1e-6
CORE_NUM = 32
ALIGN = 16                  # 32 bytes of float16: the full_row tile's last dimension
FULL_ROW_MAX_COLS = 4096    # full_row UB budget
SPLIT_TILE_COLS = 1024      # split_d streaming tile (float32 intermediates of 4 KiB)


@asc2.jit(always_compile=True, reuse_alloc=2)
def rms_norm_full_row_kernel(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                             num_rows: int, epsilon: float, num_cols: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [num_rows, num_cols])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, num_cols])
    out_gm = asc2.global_tensor(out_ptr, [num_rows, num_cols])
    gamma = asc2.copy_in(gamma_gm, [0, 0], [1, num_cols]).to(asc2.float32)
    for row in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        x = asc2.copy_in(x_gm, [row, 0], [1, num_cols]).to(asc2.float32)
        inv_rms = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) / num_cols + epsilon)
        asc2.copy_out((x * inv_rms * gamma).to(asc2.float16), out_gm, [row, 0])


@asc2.jit(always_compile=True, reuse_alloc=2)
def rms_norm_split_d_kernel(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                            num_rows: int, num_cols: int, num_tiles: int, epsilon: float,
                            tile_cols: asc2.ConstExpr[int]):
    gamma_gm = asc2.global_tensor(gamma_ptr, [num_cols])
    for row in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        x_gm = asc2.global_tensor(x_ptr + row * num_cols, [num_cols])
        out_gm = asc2.global_tensor(out_ptr + row * num_cols, [num_cols])
        acc = asc2.zeros([tile_cols], dtype=asc2.float32)
        for t in range(num_tiles, unroll_factor=2, gm_barrier=True):
            x = asc2.copy_in(x_gm, [t * tile_cols], [tile_cols], pad_value=0).to(asc2.float32)
            acc = acc + x * x
        inv_rms = 1.0 / asc2.sqrt(asc2.reduce_sum(acc) / num_cols + epsilon)
        for t in range(num_tiles, unroll_factor=2):
            col = t * tile_cols
            x = asc2.copy_in(x_gm, [col], [tile_cols]).to(asc2.float32)
            gamma = asc2.copy_in(gamma_gm, [col], [tile_cols]).to(asc2.float32)
            asc2.copy_out((x * inv_rms * gamma).to(asc2.float16), out_gm, [col])


def make_inputs(case):
    num_rows, num_cols = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    x = torch.randn((num_rows, num_cols), generator=gen, dtype=torch.float32).to(torch.float16)
    gamma = (torch.randn((num_cols,), generator=gen, dtype=torch.float32) * 0.5 + 1.0).to(torch.float16)
    return (x, gamma, EPS)


def select_kernel(num_rows, num_cols):
    """The dispatcher: "full_row" when the row is one aligned UB tile, else "split_d"."""
    return "full_row" if num_cols % ALIGN == 0 and num_cols <= FULL_ROW_MAX_COLS else "split_d"


def _full_row_launch(x, gamma, eps):
    num_rows, num_cols = x.shape
    out = torch.zeros_like(x)
    rms_norm_full_row_kernel[min(CORE_NUM, num_rows)](x, gamma, out, num_rows, float(eps), num_cols)
    return out


def _split_d_launch(x, gamma, eps):
    num_rows, num_cols = x.shape
    if num_rows * num_cols >= 2 ** 31:
        raise ValueError(f"{num_rows} x {num_cols} elements exceed the kernel's int32 offsets")
    tile_cols = min(SPLIT_TILE_COLS, asc.ceildiv(num_cols, ALIGN) * ALIGN)
    num_tiles = asc.ceildiv(num_cols, tile_cols)
    out = torch.zeros_like(x)
    rms_norm_split_d_kernel[min(CORE_NUM, num_rows)](x, gamma, out, num_rows, num_cols, num_tiles, float(eps),
                                                     tile_cols)
    return out


def rms_norm_launch(x, gamma, eps=EPS):
    if x.dim() != 2 or gamma.shape != (x.shape[1],):
        raise ValueError(f"expected x [rows, cols] and gamma [cols], got {tuple(x.shape)} and {tuple(gamma.shape)}")
    x, gamma = x.contiguous(), gamma.contiguous()
    if select_kernel(*x.shape) == "full_row":
        return _full_row_launch(x, gamma, eps)
    return _split_d_launch(x, gamma, eps)


def launch(x, gamma, eps):
    return rms_norm_launch(x, gamma, eps)


def reference(x, gamma, eps):
    x32 = x.to(torch.float32)
    mean_sq = torch.mean(x32 * x32, dim=-1, keepdim=True)
    return (x32 * torch.rsqrt(mean_sq + eps) * gamma.to(torch.float32)).to(x.dtype)
