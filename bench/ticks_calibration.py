"""Tick model vs measured camodel ticks, per platform.

    python bench/ticks_calibration.py

Each kernel reproduces the structure of a measured kernel (tile size, cores, loop settings, the vector
ops it issues); the table prints the model's estimate, the measured ``Total tick`` and their ratio,
then the median and largest absolute relative error per platform. Ascend950PR_9599 rows are the
nightly perf cells of the calibration notes (perf-calibration §2.1); Ascend910B1 rows are camodel
measurements of May 2026 (abs and gelu summed over three launches, the reduce_sum row-count sweep).
"""
from __future__ import annotations

import numpy as np
import torch

import asc
import asc2
import asc.runtime.config as config
from asc.runtime import last_launch_report

SQRT_HALF = float(np.sqrt(0.5))


@asc2.jit(always_compile=True)
def eltwise_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int,
                   num_tiles: int, tile: asc.ConstExpr[int], op: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2, parallel=True):
        off = t * tile
        x = asc2.load(x_gm, [tile], offsets=[off])
        if op == "abs":
            y = asc2.abs(x)
        elif op == "tanh":
            y = asc2.tanh(x)
        elif op == "add":
            y = x + asc2.load(y_gm, [tile], offsets=[off])
        elif op == "dropout":
            y = (x * asc2.load(y_gm, [tile], offsets=[off])) * 2.0
        elif op == "leaky":
            y = asc2.where(x >= 0, x, x * 0.01)
        elif op == "gelu_erf":
            y = x * (asc2.erf(x * SQRT_HALF) + 1.0) * 0.5
        else:  # gelu, tanh form spelled with exp and div
            y = x / (asc2.exp((x * x * x * -0.0713548 + x) * -1.5957691) + 1.0)
        asc2.store(y, out_gm, offsets=[off])


@asc2.jit(always_compile=True)
def adam_kernel(var_ptr: asc.GlobalAddress, m_ptr: asc.GlobalAddress, v_ptr: asc.GlobalAddress,
                g_ptr: asc.GlobalAddress, size: int, num_tiles: int, tile: asc.ConstExpr[int]):
    var_gm = asc2.tensor(var_ptr, [size])
    m_gm = asc2.tensor(m_ptr, [size])
    v_gm = asc2.tensor(v_ptr, [size])
    g_gm = asc2.tensor(g_ptr, [size])
    for t in asc2.range(asc2.block_idx(), num_tiles, asc2.block_num(), parallel=True):
        off = t * tile
        var = asc2.load(var_gm, [tile], offsets=[off])
        m = asc2.load(m_gm, [tile], offsets=[off])
        v = asc2.load(v_gm, [tile], offsets=[off])
        g = asc2.load(g_gm, [tile], offsets=[off])
        m = m * 0.9 + g * 0.1
        v = v * 0.999 + g * g * 0.001
        var = var - (m / (asc2.sqrt(v) + 1e-8)) * 0.001
        asc2.store(m, m_gm, offsets=[off])
        asc2.store(v, v_gm, offsets=[off])
        asc2.store(var, var_gm, offsets=[off])


@asc2.jit(always_compile=True)
def reduce_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
                  pad: asc.ConstExpr[int], uf: asc.ConstExpr[int], par: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, pad])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=uf, parallel=par):
        row = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        asc2.store(asc2.full([1, pad], asc2.reduce_sum(row), dtype=row.dtype), out_gm, offsets=[r, 0])


@asc2.jit(always_compile=True)
def softmax_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
                   block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    start = asc2.block_idx() * block
    asc2.store(asc2.softmax(asc2.load(x_gm, [block, cols], offsets=[start, 0])), out_gm, offsets=[start, 0])


@asc2.jit(always_compile=True)
def rms_norm_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int,
                    eps: float, cols: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    g_gm = asc2.tensor(g_ptr, [1, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    gamma = asc2.load(g_gm, [1, cols], offsets=[0, 0])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=2, parallel=True):
        x = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        inv = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) / cols + eps)
        asc2.store(x * inv * gamma, out_gm, offsets=[r, 0])


@asc2.jit(always_compile=True)
def rms_full_row_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int,
                        eps: float, cols: asc.ConstExpr[int], uf: asc.ConstExpr[int], par: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    g_gm = asc2.tensor(g_ptr, [1, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    gamma = asc2.load(g_gm, [1, cols], offsets=[0, 0])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=uf, parallel=par):
        x = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        inv = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) / cols + eps)
        asc2.store(x * inv * gamma, out_gm, offsets=[r, 0])


@asc2.jit(always_compile=True)
def rms_split_d_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int,
                       cols: int, num_tiles: int, eps: float, tile_cols: asc.ConstExpr[int], uf: asc.ConstExpr[int],
                       par: asc.ConstExpr[bool]):
    g_gm = asc2.tensor(g_ptr, [cols])
    for row in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=uf, parallel=par):
        x_gm = asc2.tensor(x_ptr + row * cols, [cols])
        out_gm = asc2.tensor(out_ptr + row * cols, [cols])
        acc = asc2.zeros([tile_cols], dtype=asc.float32)
        for t in asc2.range(num_tiles, unroll_factor=2):
            x = asc2.load(x_gm, [tile_cols], offsets=[t * tile_cols], pad_value=0)
            acc = acc + x * x
        inv = 1.0 / asc2.sqrt(asc2.reduce_sum(acc) / cols + eps)
        for t in asc2.range(num_tiles, unroll_factor=uf, parallel=par):
            x = asc2.load(x_gm, [tile_cols], offsets=[t * tile_cols])
            g = asc2.load(g_gm, [tile_cols], offsets=[t * tile_cols])
            asc2.store(x * inv * g, out_gm, offsets=[t * tile_cols])


@asc2.jit(always_compile=True)
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


def _eltwise(x, out, tile, op, cores=16):
    n = x.size
    tiles = -(-n // tile)
    return lambda: eltwise_kernel[min(cores, tiles)](x, x, out, n, tiles, tile, op)


def c310_rows():
    rng = np.random.default_rng(2026)
    n = 32 * 4096
    x16 = (rng.random(n, dtype=np.float32) * 10 - 5).astype(np.float16)
    x32 = rng.random(n, dtype=np.float32) * 10 - 5
    o16, o32 = np.empty_like(x16), np.empty_like(x32)
    adam = [np.abs(x32.copy()) for _ in range(4)]
    a = torch.rand((32, 32), dtype=torch.float16)
    c = torch.zeros((32, 32), dtype=torch.float32)
    g = np.ones((1, 256), np.float32)
    return [
        ("abs f16 TILE 2048 x4", 4692, _eltwise(x16, o16, 2048, "abs")),
        ("abs f32 TILE 128 x64", 21991, _eltwise(x32, o32, 128, "abs")),
        ("tanh f16 TILE 2048 x4", 5281, _eltwise(x16, o16, 2048, "tanh")),
        ("add f16 TILE 2048 x4", 6307, _eltwise(x16, o16, 2048, "add")),
        ("drop_out_do_mask f16 TILE 2048 x4", 6399, _eltwise(x16, o16, 2048, "dropout")),
        ("apply_adam f32 TILE 2048 x4 (uf1)", 17667,
         lambda: adam_kernel[16](*adam, n, n // 2048, 2048)),
        ("gelu f16 (erf) TILE 128 x64", 26329, _eltwise(x16, o16, 128, "gelu_erf")),
        ("gelu f32 (exp, div) TILE 64 x128", 44759, _eltwise(x32, o32, 64, "gelu")),
        ("leaky_relu f16 TILE 128 x64", 25302, _eltwise(x16, o16, 128, "leaky")),
        ("reduce_sum f16 [32,4096]", 4175,
         lambda: reduce_kernel[16](x16.reshape(32, 4096), np.zeros((32, 16), np.float16), 32, 4096, 16, 2, True)),
        ("reduce_sum f32 [32,4096]", 5101,
         lambda: reduce_kernel[16](x32.reshape(32, 4096), np.zeros((32, 8), np.float32), 32, 4096, 8, 2, True)),
        ("softmax f16 [32,4096], [2,4096] per core", 5405,
         lambda: softmax_kernel[16](x16.reshape(32, 4096), o16.reshape(32, 4096), 32, 4096, 2)),
        ("rms_norm f32 [8,256], 8 cores", 4888,
         lambda: rms_norm_kernel[8](x32[:2048].reshape(8, 256), g, o32[:2048].reshape(8, 256), 8, 1e-6, 256)),
        ("matmul f16 32x32x32, 16x16 tiles, 1 core", 4873,
         lambda: matmul_kernel[1](a, a, c, a.shape, a.shape, c.shape, 16, 16)),
    ]


def _three(x, out, tile, op):
    """One launch per size 128, 8192, 131072 (the abs / gelu measurements sum the three)."""
    fns = [_eltwise(np.ascontiguousarray(x[:s]), np.ascontiguousarray(out[:s]), tile, op) for s in (128, 8192, 131072)]
    return fns


def c220_rows():
    rng = np.random.default_rng(2026)
    n = 32 * 4096
    x16 = (rng.random(n, dtype=np.float32) * 10 - 5).astype(np.float16)
    x32 = rng.random(n, dtype=np.float32) * 10 - 5
    rows = [("abs f16 TILE 128, 3 launches", 118368, _three(x16, np.empty_like(x16), 128, "abs")),
            ("gelu f32 TILE 64, 3 launches", 179708, _three(x32, np.empty_like(x32), 64, "gelu"))]
    big = (rng.random(256 * 4096, dtype=np.float32) * 10 - 5).astype(np.float16).reshape(256, 4096)
    rows.append(("reduce_sum f16 [32,4096]", 6566,
                 lambda: reduce_kernel[16](big[:32], np.zeros((32, 16), np.float16), 32, 4096, 16, 2, True)))
    for (uf, par), figures in (((1, False), (4938, 6530, 9694, 15913)), ((2, True), (6440, 8130, 11334, 18009))):
        for r, measured in zip((32, 64, 128, 256), figures):
            rows.append((f"reduce_sum f16 [{r},4096] uf{uf}{' par' if par else ''}", measured,
                         lambda r=r, uf=uf, par=par: reduce_kernel[16](
                             big[:r], np.zeros((r, 16), np.float16), r, 4096, 16, uf, par)))
    return rows


def rms_sweep():
    """The C310 ``asc2.range`` sweep (perf-calibration §2.4): rms_norm full_row (8, 256) plus split_d
    (8, 1055 padded to 1088), f32, 8 cores, summed; measured per (unroll_factor, parallel)."""
    x = np.ones(8 * 1088, np.float32)
    o = np.empty_like(x)
    g = np.ones(1088, np.float32)
    measured = {(1, False): 38593, (1, True): 30868, (2, False): 33111, (2, True): 30028}
    out = []
    for (uf, par), m in measured.items():
        fns = [lambda uf=uf, par=par: rms_full_row_kernel[8](x[:2048], g[:256], o[:2048], 8, 1e-6, 256, uf, par),
               lambda uf=uf, par=par: rms_split_d_kernel[8](x, g, o, 8, 1088, 17, 1e-6, 64, uf, par)]
        out.append((f"rms_norm f32 sweep uf{uf}{' par' if par else ''}", m, fns))
    return out


PLATFORMS = {config.Platform.Ascend950PR_9599: c310_rows, config.Platform.Ascend910B1: c220_rows}


def model_ticks(fn):
    total = 0
    for f in fn if isinstance(fn, list) else [fn]:
        f()
        total += last_launch_report()["ticks"]
    return total


def evaluate(platform, verbose=True):
    """(name, model, measured) per row of ``platform``."""
    config.set_platform(config.Backend.Model, platform)
    out = []
    for name, measured, fn in PLATFORMS[platform]():
        t = model_ticks(fn)
        out.append((name, t, measured))
        if verbose:
            print(f"  {name:44s} {t:8d} {measured:8d} {t / measured:7.2f}")
    return out


def summary(rows):
    errs = np.array([abs(t / m - 1) for _, t, m in rows])
    return float(np.median(errs)), float(errs.max())


def main():
    for platform in PLATFORMS:
        print(f"{platform.value}: {'kernel':37s} {'model':>8s} {'camodel':>8s} {'ratio':>7s}")
        med, worst = summary(evaluate(platform))
        print(f"  median absolute error {med * 100:.1f}%, largest {worst * 100:.1f}%\n")
    # not fitted: the loop-option sweep, for the direction and size of each lever
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    print("Ascend950PR_9599 loop-option sweep (not fitted):")
    rows = [(name, model_ticks(fn), m) for name, m, fn in rms_sweep()]
    for name, t, m in rows:
        print(f"  {name:44s} {t:8d} {m:8d} {t / m:7.2f}")
    model_rank = [n for n, _, _ in sorted(rows, key=lambda r: r[1])]
    real_rank = [n for n, _, _ in sorted(rows, key=lambda r: r[2])]
    print(f"  median absolute error {summary(rows)[0] * 100:.1f}%, rank order {'kept' if model_rank == real_rank else 'differs'}")


if __name__ == "__main__":
    main()
