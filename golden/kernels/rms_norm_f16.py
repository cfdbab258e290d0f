#!/usr/bin/env python3
"""Golden kernel: RMS normalisation over the last axis with a weight, float16 (float32 statistics).

Operation
    y[r, :] = x[r, :] / sqrt(mean(x[r, :]^2) + eps) * gamma, eps = 1e-6, for x [rows, cols] and
    gamma [cols], both float16; y float16. Two kernels and a host dispatcher, mirroring CANN's
    C310 rms_norm (KernelRmsNormRegBase / KernelRmsNormRegBaseSplitD):

    full_row  (``rms_norm_full_row_kernel``) -- the row is one [1, tile_cols] UB tile, cols rounded
              up to ALIGN = 16 (32 bytes): widen to float32, reduce the squares, scale by
              1 / sqrt(ms + eps) and by gamma (loaded once per block), round to float16, store.
              Used when cols <= FULL_ROW_MAX_COLS = 4096, aligned or not, so x is read once.
    split_d   (``rms_norm_split_d_kernel``) -- the row is streamed in 1-D tiles of tile_cols =
              min(SPLIT_TILE_COLS = 4096, cols rounded up to 16) columns: a first pass accumulates
              x^2 elementwise into a float32 tile (reduced once per row), a second pass reloads x
              and gamma and writes the scaled tiles. Used for every other shape.

Cell metadata (mirrors capabilities.yaml, rms_norm/float16/Ascend950PR_9599; do not drift)
    shapes      (8, 256) full_row; (8, 1055) full_row (a 1056-column tile, one column of padding);
                (64, 100003) split_d (25 tiles per row, ``full_only``: the quick run skips it).
                tests/golden/test_row_tiles.py adds the edges: one row, 33 rows over 32 blocks, the
                widest full_row (4096) and the first split_d width (4097: a one-column last tile).
    tolerance   atol 5e-2, rtol 5e-2; the full_row case (8, 256) atol 2e-2, rtol 2e-2 (the
                registry's shape_tolerances).
    regime      full_row: whole row in UB; split_d: two streaming passes over the row.
    tail        full_row reads the row's columns with ``real_shape`` and pads the tile with zeros (they
                add nothing to the sum of squares), and writes back only the row's columns. split_d
                addresses each row as its own 1-D tensor (``x_ptr + row * num_cols``), so the last
                tile's load reads only that row's columns (zero-padded) and its store writes only
                them. Both scale the sum by ``inv_cols`` = 1 / cols from the host: a scalar multiply
                where a division would run as software on the scalar unit.
    partitioning
                row r goes to block r % core_num (``range(block_idx, rows, block_num)``),
                launched on min(CORE_NUM, rows) blocks.

Non-obvious constraints
    * August 2026 dialect (``global_tensor`` / ``copy_in`` / ``copy_out``, the builtin ``range``).
      ``golden/april/rms_norm_f16.py`` is the April 2026 kernel this one started from; its exact
      August translation (aligned full_row only, 1024-column split_d tiles) is
      ``golden/april/ports/rms_norm_f16.py``, which tests/golden/test_dialects.py keeps
      identical to it.
      This schedule needs what April lacks: ``real_shape`` (April's load reads whole aligned tiles)
      and ``reuse_alloc`` (4096-column split_d tiles count more than the UB without it).
    * Inputs are torch CPU tensors (numpy buffers were reported to come back zeroed for the
      rms_norm goldens on the C310 CANN simulator).
    * No host-side padding: the reference golden copied x, gamma and the output into column-padded
      buffers; here the kernel clips the tail itself. A 2-D [1, tile] store without ``real_shape``
      that crosses the end of a row is not clipped per row by pyasc (only by the tensor's total
      size); split_d's tiles start mid-row, so it uses 1-D row tensors instead.
    * ``asc2.rms_norm`` is not used: its lowering reserves a 256 KiB temporary buffer, more than
      the 248 KiB of UB.
    * Loop-carried accumulator: ``acc = acc + x * x`` carries a tile through the first split_d
      pass, so that loop is ``unroll_factor=2`` with ``gm_barrier=True``. The row loops and the
      write-back loop are independent per trip: ``unroll_factor=2`` and the default ``gm_barrier=False``.
    * epsilon is a runtime float32 argument; num_cols is a runtime int in both kernels (only the tile
      width is compile-time).
    * The element offset ``row * num_cols`` is an int32: rows * cols must stay below 2^31.
    * UB: pyasc-dev's default allocation (``reuse_alloc=0``) gives every tile of every unrolled copy
      its own buffer, and a runtime trip count with ``unroll_factor=2`` makes three copies (two plus
      the remainder), nested in the row loop's three: full_row at 4096 columns would count
      265 KiB and split_d at 1024 columns 328 KiB, over C310's 248 KiB. Both kernels are
      compiled with ``reuse_alloc=2`` (dead tiles' buffers reused, element-wise results in place):
      81 KiB, and 176 KiB for split_d's 4096-column tiles (within C220's 192 KiB).
    * CORE_NUM = 32: the vector (AIV) core count of Ascend950PR_9599.

Tolerance
    The registry's float16 tolerances, 2e-2 (full_row) and 5e-2 (split_d), cover hardware that
    keeps more of the pipeline in float16 and, for split_d, a different summation order over 100003
    columns. The outputs reach ~10 in magnitude, where a float16 ulp is 2^-7; statistics in float32
    and one final rounding keep this kernel within half an ulp of the float32 torch reference.

Inputs: torch CPU tensors from a ``torch.Generator`` seeded with 2026: x ~ N(0, 1) and gamma ~
N(1, 0.5), generated as float32 and cast to float16.
"""
import argparse
import logging

import numpy as np
import torch

import asc
import asc.runtime.config as config
import asc2

OP = "rms_norm"
DTYPE = "float16"
TOLERANCE = {"atol": 5e-2, "rtol": 5e-2}
CASES = [
    {"id": "8x256_full_row", "shape": [8, 256], "kernel": "full_row", "atol": 2e-2, "rtol": 2e-2},
    {"id": "8x1055_full_row", "shape": [8, 1055], "kernel": "full_row"},
    {"id": "64x100003_split_d", "shape": [64, 100003], "kernel": "split_d", "full_only": True},
]

SEED = 2026
EPS = 1e-6
CORE_NUM = 32
ALIGN = 16                  # 32 bytes of float16: the full_row tile's last dimension
FULL_ROW_MAX_COLS = 4096    # full_row UB budget
SPLIT_TILE_COLS = 4096      # split_d streaming tile: one DMA setup per 4096 columns


@asc2.jit(always_compile=True, reuse_alloc=2)
def rms_norm_full_row_kernel(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                             num_rows: int, num_cols: int, inv_cols: float, epsilon: float,
                             tile_cols: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [num_rows, num_cols])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, num_cols])
    out_gm = asc2.global_tensor(out_ptr, [num_rows, num_cols])
    row_shape = [1, num_cols]
    gamma = asc2.copy_in(gamma_gm, [0, 0], [1, tile_cols], real_shape=row_shape, pad_value=0).to(asc2.float32)
    for row in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        x = asc2.copy_in(x_gm, [row, 0], [1, tile_cols], real_shape=row_shape, pad_value=0).to(asc2.float32)
        inv_rms = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) * inv_cols + epsilon)
        asc2.copy_out((x * inv_rms * gamma).to(asc2.float16), out_gm, [row, 0], real_shape=row_shape)


@asc2.jit(always_compile=True, reuse_alloc=2)
def rms_norm_split_d_kernel(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                            num_rows: int, num_cols: int, num_tiles: int, inv_cols: float, epsilon: float,
                            tile_cols: asc2.ConstExpr[int]):
    gamma_gm = asc2.global_tensor(gamma_ptr, [num_cols])
    for row in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        x_gm = asc2.global_tensor(x_ptr + row * num_cols, [num_cols])
        out_gm = asc2.global_tensor(out_ptr + row * num_cols, [num_cols])
        acc = asc2.zeros([tile_cols], dtype=asc2.float32)
        for t in range(num_tiles, unroll_factor=2, gm_barrier=True):
            x = asc2.copy_in(x_gm, [t * tile_cols], [tile_cols], pad_value=0).to(asc2.float32)
            acc = acc + x * x
        inv_rms = 1.0 / asc2.sqrt(asc2.reduce_sum(acc) * inv_cols + epsilon)
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
    """The dispatcher: "full_row" when the row fits one UB tile, else "split_d"."""
    return "full_row" if num_cols <= FULL_ROW_MAX_COLS else "split_d"


def _full_row_launch(x, gamma, eps):
    num_rows, num_cols = x.shape
    out = torch.zeros_like(x)
    tile_cols = asc.ceildiv(num_cols, ALIGN) * ALIGN
    rms_norm_full_row_kernel[min(CORE_NUM, num_rows)](x, gamma, out, num_rows, num_cols, 1.0 / num_cols, float(eps),
                                                      tile_cols)
    return out


def _split_d_launch(x, gamma, eps):
    num_rows, num_cols = x.shape
    if num_rows * num_cols >= 2 ** 31:
        raise ValueError(f"{num_rows} x {num_cols} elements exceed the kernel's int32 offsets")
    tile_cols = min(SPLIT_TILE_COLS, asc.ceildiv(num_cols, ALIGN) * ALIGN)
    num_tiles = asc.ceildiv(num_cols, tile_cols)
    out = torch.zeros_like(x)
    rms_norm_split_d_kernel[min(CORE_NUM, num_rows)](x, gamma, out, num_rows, num_cols, num_tiles,
                                                     1.0 / num_cols, float(eps), tile_cols)
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


def run_kernel(backend, platform):
    config.set_platform(backend, platform)
    for case in CASES:
        assert select_kernel(*case["shape"]) == case["kernel"], f"case {case['id']} dispatches to the wrong kernel"
        inputs = make_inputs(case)
        expected = reference(*inputs)
        out = launch(*inputs)
        np.testing.assert_allclose(out.to(torch.float64).numpy(), expected.to(torch.float64).numpy(),
                                   atol=case.get("atol", TOLERANCE["atol"]), rtol=case.get("rtol", TOLERANCE["rtol"]),
                                   err_msg=f"{OP} {DTYPE} case {case['id']}")
        logging.info("[PASS] %s (%s)", case["id"], case["kernel"])


def test_rms_norm_float16(backend, platform):
    run_kernel(backend, platform)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", type=str, default="Model", help="backend: a config.Backend member (Model or NPU)")
    parser.add_argument("-v", type=str, default="Ascend950PR_9599", help="platform: a config.Platform value")
    args = parser.parse_args()
    supported_backends = list(config.Backend.__members__)
    if args.r not in supported_backends:
        raise ValueError(f"Unsupported Backend! Supported: {supported_backends}")
    supported_platforms = [p.value for p in config.Platform]
    if args.v not in supported_platforms:
        raise ValueError(f"Unsupported Platform! Supported: {supported_platforms}")
    run_kernel(config.Backend[args.r], config.Platform(args.v))
