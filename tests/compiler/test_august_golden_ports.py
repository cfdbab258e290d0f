"""Golden kernels ported to the August 2026 dialect: launched through the golden's own host code (the
kernel symbol swapped for the port), the results are identical and the ticks equal; a port that keeps
the August default (no loop-end barrier) where the April kernel had a barrier is only faster."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import torch

import asc2
import asc.runtime.config as config
from asc.experimental import asctile
from asc.runtime import last_launch_report

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "kernels"
KEPT = Path(__file__).resolve().parents[2] / "golden" / "april" / "ports"


def golden(name):
    """The golden's module, or the April golden's exact translation kept in golden/april/ports/ once the
    golden has moved to a schedule the April kernel (and these ports) do not have."""
    path = KEPT / f"{name}.py" if (KEPT / f"{name}.py").is_file() else GOLDEN / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"august_port_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# -- ports (names and argument lists as in the goldens; bodies in the August spelling) -----------------
# (the rms_norm kernels keep the golden's reuse_alloc=2: pyasc-dev's default allocation counts more
# than the UB for their unrolled loops)
@asc2.jit(always_compile=True)
def softmax_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, num_rows: int,
                   num_cols: asc2.ConstExpr, group_rows: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [num_rows, num_cols])
    out_gm = asc2.global_tensor(out_ptr, [num_rows, num_cols])
    for row0 in range(asc2.block_idx() * group_rows, num_rows, asc2.block_num() * group_rows, unroll_factor=2):
        rows = asc2.copy_in(x_gm, [row0, 0], [group_rows, num_cols])
        asc2.copy_out(asc2.softmax(rows), out_gm, [row0, 0])


@asctile.jit(always_compile=True)
def gelu_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                tile_size: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=2):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size])
        inner = (x + x * x * x * 0.044715) * 0.7978845608028654
        y = x * (asctile.tanh(inner) + 1.0) * 0.5
        asctile.copy_out(y, out_gm, [offset])


@asc2.jit(always_compile=True, reuse_alloc=2)
def rms_norm_full_row_kernel(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress,
                             out_ptr: asc2.GlobalAddress, num_rows: int, epsilon: float, num_cols: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [num_rows, num_cols])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, num_cols])
    out_gm = asc2.global_tensor(out_ptr, [num_rows, num_cols])
    gamma = asc2.copy_in(gamma_gm, [0, 0], [1, num_cols])
    for row in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        x = asc2.copy_in(x_gm, [row, 0], [1, num_cols])
        inv_rms = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) / num_cols + epsilon)
        asc2.copy_out(x * inv_rms * gamma, out_gm, [row, 0])


@asc2.jit(always_compile=True, reuse_alloc=2)
def rms_norm_split_d_kernel(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress,
                            out_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int, num_tiles: int,
                            epsilon: float, tile_cols: asc2.ConstExpr):
    gamma_gm = asc2.global_tensor(gamma_ptr, [num_cols])
    for row in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        x_gm = asc2.global_tensor(x_ptr + row * num_cols, [num_cols])
        out_gm = asc2.global_tensor(out_ptr + row * num_cols, [num_cols])
        acc = asc2.zeros([tile_cols], dtype=asc2.float32)
        for t in range(num_tiles, unroll_factor=2, gm_barrier=True):
            x = asc2.copy_in(x_gm, [t * tile_cols], [tile_cols], pad_value=0)
            acc = acc + x * x
        inv_rms = 1.0 / asc2.sqrt(asc2.reduce_sum(acc) / num_cols + epsilon)
        for t in range(num_tiles, unroll_factor=2):
            col = t * tile_cols
            x = asc2.copy_in(x_gm, [col], [tile_cols])
            gamma = asc2.copy_in(gamma_gm, [col], [tile_cols])
            asc2.copy_out(x * inv_rms * gamma, out_gm, [col])


@asc2.jit(always_compile=True, reuse_alloc=2)
def rms_norm_split_d_no_barrier(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress,
                            out_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int, num_tiles: int,
                            epsilon: float, tile_cols: asc2.ConstExpr):
    gamma_gm = asc2.global_tensor(gamma_ptr, [num_cols])
    for row in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        x_gm = asc2.global_tensor(x_ptr + row * num_cols, [num_cols])
        out_gm = asc2.global_tensor(out_ptr + row * num_cols, [num_cols])
        acc = asc2.zeros([tile_cols], dtype=asc2.float32)
        for t in range(num_tiles, unroll_factor=2, gm_barrier=False):
            x = asc2.copy_in(x_gm, [t * tile_cols], [tile_cols], pad_value=0)
            acc = acc + x * x
        inv_rms = 1.0 / asc2.sqrt(asc2.reduce_sum(acc) / num_cols + epsilon)
        for t in range(num_tiles, unroll_factor=2):
            col = t * tile_cols
            x = asc2.copy_in(x_gm, [col], [tile_cols])
            gamma = asc2.copy_in(gamma_gm, [col], [tile_cols])
            asc2.copy_out(x * inv_rms * gamma, out_gm, [col])


@asc2.jit(always_compile=True)
def matmul_kernel(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                  a_shape: asc2.ConstExpr, b_shape: asc2.ConstExpr, c_shape: asc2.ConstExpr,
                  m_tile: asc2.ConstExpr, m_tiles_per_block: asc2.ConstExpr,
                  n_tile: asc2.ConstExpr, n_tiles_per_block: asc2.ConstExpr):
    a_gm = asc2.global_tensor(a_ptr, a_shape)
    b_gm = asc2.global_tensor(b_ptr, b_shape)
    c_gm = asc2.global_tensor(c_ptr, c_shape)
    block_id = asc2.block_idx()
    m_elems_per_block = m_tile * m_tiles_per_block
    m_base_off = (m_elems_per_block * block_id) % a_shape[0]
    n_base_off = ((m_elems_per_block * block_id) // a_shape[0]) * (n_tile * n_tiles_per_block)
    for j in asc2.static_range(n_tiles_per_block):
        b_offset = n_base_off + j * n_tile
        b_j = asc2.copy_in(b_gm, [0, b_offset], [b_shape[0], n_tile], asc2.TensorLocation.L0B)
        for i in asc2.static_range(m_tiles_per_block):
            a_offset = m_base_off
            if i > 0:
                a_offset = m_base_off + i * m_tile
            a_i = asc2.copy_in(a_gm, [a_offset, 0], [m_tile, a_shape[1]], asc2.TensorLocation.L0A)
            asc2.copy_out(asc2.matmul(a_i, b_j), c_gm, [a_offset, b_offset])


def _run_both(mod, swaps, case):
    """(April output, ticks) and (August output, ticks) of the golden's launch for ``case``."""
    inputs = mod.make_inputs(case)
    out_april = mod.launch(*inputs)
    ticks_april = last_launch_report()["ticks"]
    saved = {name: getattr(mod, name) for name in swaps}
    try:
        for name, port in swaps.items():
            setattr(mod, name, port)
        out_august = mod.launch(*inputs)
        ticks_august = last_launch_report()["ticks"]
    finally:
        for name, k in saved.items():
            setattr(mod, name, k)
    return (out_april, ticks_april), (out_august, ticks_august)


def _as_np(x):
    return x.numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


PORTS = [
    ("softmax_f32", {"softmax_kernel": softmax_kernel}),
    ("gelu_f32", {"gelu_kernel": gelu_kernel}),
    ("rms_norm_f32", {"rms_norm_full_row_kernel": rms_norm_full_row_kernel,
                      "rms_norm_split_d_kernel": rms_norm_split_d_kernel}),
    ("matmul_f16", {"matmul_kernel": matmul_kernel}),
]


@pytest.mark.parametrize("platform", [config.Platform.Ascend950PR_9599, config.Platform.Ascend910B1])
@pytest.mark.parametrize("name,swaps", PORTS, ids=[p[0] for p in PORTS])
def test_august_port_matches_the_golden_exactly(name, swaps, platform):
    config.set_platform(config.Backend.Model, platform)
    mod = golden(name)
    cases = [c for c in mod.CASES if not c.get("full_only")][:2]
    for case in cases:
        (a, ta), (b, tb) = _run_both(mod, swaps, case)
        np.testing.assert_array_equal(_as_np(b), _as_np(a), err_msg=f"{name} {case['id']}")
        assert tb == ta, f"{name} {case['id']}: {tb} ticks, the April kernel {ta}"


def test_split_d_port_with_the_august_default_loses_only_the_barrier():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    mod = golden("rms_norm_f32")
    case = next(c for c in mod.CASES if c["id"] == "8x1055_split_d")
    (a, ta), (b, tb) = _run_both(mod, {"rms_norm_split_d_kernel": rms_norm_split_d_no_barrier}, case)
    np.testing.assert_array_equal(_as_np(b), _as_np(a))  # the carried sum stays sequential
    assert tb <= ta  # the loop only loads: its barrier orders no store, so it may cost nothing
