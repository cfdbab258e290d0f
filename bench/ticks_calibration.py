"""Tick model vs measured camodel ticks (Ascend950PR_9599, docs/spec perf calibration table).

    python bench/ticks_calibration.py

Each kernel reproduces the structure of a measured row (tile size, cores, loop settings); the table
prints the simulator's estimate, the measured ``Total tick`` and their ratio.
"""
from __future__ import annotations

import numpy as np
import torch

import asc
import asc2
import asc.runtime.config as config
from asc.runtime import last_launch_report

GELU_K = float(np.sqrt(2.0 / np.pi))


@asc2.jit
def unary_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, tile: asc.ConstExpr[int],
                 tpb: asc.ConstExpr[int], op: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base = asc2.block_idx() * tile * tpb
    for i in asc2.range(tpb, unroll_factor=2, parallel=True):
        off = base + i * tile
        x = asc2.load(x_gm, [tile], offsets=[off])
        if op == "abs":
            y = asc2.abs(x)
        elif op == "leaky":
            y = asc2.where(x >= 0, x, x * 0.01)
        else:
            y = x * (asc2.tanh((x + x * x * x * 0.044715) * GELU_K) + 1.0) * 0.5
        asc2.store(y, out_gm, offsets=[off])


@asc2.jit
def add_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int,
               tile: asc.ConstExpr[int], tpb: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base = asc2.block_idx() * tile * tpb
    for i in asc2.range(tpb, unroll_factor=2, parallel=True):
        off = base + i * tile
        asc2.store(asc2.load(x_gm, [tile], offsets=[off]) + asc2.load(y_gm, [tile], offsets=[off]), out_gm,
                   offsets=[off])


@asc2.jit
def reduce_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
                  pad: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, pad])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=2, parallel=True):
        row = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        asc2.store(asc2.full([1, pad], asc2.reduce_sum(row), dtype=row.dtype), out_gm, offsets=[r, 0])


@asc2.jit
def softmax_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
                   block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    start = asc2.block_idx() * block
    asc2.store(asc2.softmax(asc2.load(x_gm, [block, cols], offsets=[start, 0])), out_gm, offsets=[start, 0])


@asc2.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, a_shape: asc.ConstExpr, b_shape: asc.ConstExpr, c_shape: asc.ConstExpr,
                  m_tile: asc.ConstExpr[int], n_tile: asc.ConstExpr[int]):
    a_gm = asc2.tensor(a_ptr, a_shape)
    b_gm = asc2.tensor(b_ptr, b_shape)
    c_gm = asc2.tensor(c_ptr, c_shape)
    for j in asc.static_range(c_shape[1] // n_tile):
        b_j = asc2.load(b_gm, [b_shape[0], n_tile], offsets=[0, j * n_tile], location=asc2.TileLocation.L0B)
        for i in asc.static_range(c_shape[0] // m_tile):
            a_i = asc2.load(a_gm, [m_tile, a_shape[1]], offsets=[i * m_tile, 0], location=asc2.TileLocation.L0A)
            asc2.store(a_i @ b_j, c_gm, offsets=[i * m_tile, j * n_tile])


def ticks(fn):
    fn()
    return last_launch_report()["ticks"]


def main():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rng = np.random.default_rng(2026)
    n = 32 * 4096
    x16 = (rng.random(n, dtype=np.float32) * 4 - 2).astype(np.float16)
    x32 = rng.random(n, dtype=np.float32) * 4 - 2
    o16, o32 = np.empty_like(x16), np.empty_like(x32)
    rows = [
        ("abs f16 TILE 2048 x4, 16 cores", 4692, lambda: unary_kernel[16](x16, o16, n, 2048, 4, "abs")),
        ("abs f32 TILE 128 x64, 16 cores", 21991, lambda: unary_kernel[16](x32, o32, n, 128, 64, "abs")),
        ("add f16 TILE 2048 x4, 16 cores", 6307, lambda: add_kernel[16](x16, x16, o16, n, 2048, 4)),
        ("leaky_relu f16 TILE 128 x64", 25302, lambda: unary_kernel[16](x16, o16, n, 128, 64, "leaky")),
        ("gelu f32 (tanh) TILE 64 x128", 44759, lambda: unary_kernel[16](x32, o32, n, 64, 128, "gelu")),
        ("reduce_sum f16 [32,4096], 16 cores", 4175,
         lambda: reduce_kernel[16](x16.reshape(32, 4096), np.zeros((32, 16), np.float16), 32, 4096, 16)),
        ("reduce_sum f32 [32,4096], 16 cores", 5101,
         lambda: reduce_kernel[16](x32.reshape(32, 4096), np.zeros((32, 8), np.float32), 32, 4096, 8)),
        ("softmax f16 [32,4096], [2,4096] per core", 5405,
         lambda: softmax_kernel[16](x16.reshape(32, 4096), o16.reshape(32, 4096), 32, 4096, 2)),
    ]
    a = torch.rand((32, 32), dtype=torch.float16)
    c = torch.zeros((32, 32), dtype=torch.float32)
    rows.append(("matmul f16 32x32x32, 16x16 tiles, 1 core", 4873,
                 lambda: matmul_kernel[1](a, a, c, a.shape, a.shape, c.shape, 16, 16)))
    print(f"{'kernel':44s} {'model':>8s} {'camodel':>8s} {'model/camodel':>14s}")
    errs = []
    for name, measured, fn in rows:
        t = ticks(fn)
        errs.append(abs(t / measured - 1))
        print(f"{name:44s} {t:8d} {measured:8d} {t / measured:14.2f}")
    print(f"mean absolute relative error: {np.mean(errs) * 100:.0f}%")


if __name__ == "__main__":
    main()
