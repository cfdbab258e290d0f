"""The cube path: matmul / matmul_acc / zeros_acc, L1 staging and copies, fixpipe stores, locations and
capacities, and matmul's argument errors (spec §1.6, §2.2 copy, §2.6)."""
from __future__ import annotations

import inspect
import re

import numpy as np
import pytest
import torch

import asc
import asc2
from asc.frontend.errors import CodegenError

L0A, L0B, L0C, L1, UB, FIX = (asc2.TileLocation.L0A, asc2.TileLocation.L0B, asc2.TileLocation.L0C,
                              asc2.TileLocation.L1, asc2.TileLocation.UB, asc2.TileLocation.FIX)
TORCH = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}


# The seed's matmul pattern, unmodified.
@asc2.jit(always_compile=True)
def matmul_kernel(a_ptr, b_ptr, c_ptr,
                  a_shape: asc.ConstExpr, b_shape: asc.ConstExpr, c_shape: asc.ConstExpr,
                  m_tile: asc.ConstExpr[int], m_tiles_per_block: asc.ConstExpr[int],
                  n_tile: asc.ConstExpr[int], n_tiles_per_block: asc.ConstExpr[int]):
    a_gm = asc2.tensor(a_ptr, a_shape)
    b_gm = asc2.tensor(b_ptr, b_shape)
    c_gm = asc2.tensor(c_ptr, c_shape)
    block_id = asc2.block_idx()
    m_elems_per_block = m_tile * m_tiles_per_block
    m_base_off = (m_elems_per_block * block_id) % a_shape[0]
    n_base_off = ((m_elems_per_block * block_id) // a_shape[0]) * (n_tile * n_tiles_per_block)
    for j in range(n_tiles_per_block):
        b_offset = n_base_off + j * n_tile
        b_j = asc2.load(b_gm, [b_shape[0], n_tile], offsets=[0, b_offset],
                        location=asc2.TileLocation.L0B)
        for i in range(m_tiles_per_block):
            a_offset = m_base_off + i * m_tile
            a_i = asc2.load(a_gm, [m_tile, a_shape[1]], offsets=[a_offset, 0],
                            location=asc2.TileLocation.L0A)
            c_ij = a_i @ b_j
            asc2.store(c_ij, c_gm, offsets=[a_offset, b_offset])


def seed_matmul(m, k, n, dtype, m_tile, n_tile, m_tiles_per_block, n_tiles_per_block, shapes_as_size=False):
    g = torch.Generator().manual_seed(m * 7 + k * 3 + n)
    a = torch.rand((m, k), generator=g).to(dtype)
    b = torch.rand((k, n), generator=g).to(dtype)
    c = torch.zeros((m, n), dtype=torch.float32)
    core_num = (m // (m_tile * m_tiles_per_block)) * (n // (n_tile * n_tiles_per_block))
    shapes = (a.shape, b.shape, c.shape) if shapes_as_size else (tuple(a.shape), tuple(b.shape), tuple(c.shape))
    matmul_kernel[core_num](a, b, c, *shapes, m_tile, m_tiles_per_block, n_tile, n_tiles_per_block)
    return a, b, c


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_seed_matmul_single_core(dtype):
    a, b, c = seed_matmul(16, 16, 16, TORCH[dtype], 16, 16, 1, 1)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("dtype,m,k,n,m_tile,n_tile,mpb,npb,as_size", [
    ("float16", 128, 64, 96, 32, 32, 2, 1, True),
    ("bfloat16", 64, 128, 64, 16, 32, 2, 2, False),
    ("float32", 96, 32, 64, 32, 16, 1, 2, True),
    ("float16", 512, 512, 512, 64, 64, 2, 2, False),
    ("float32", 512, 512, 512, 32, 32, 4, 4, True),
])
def test_seed_matmul_multi_core(dtype, m, k, n, m_tile, n_tile, mpb, npb, as_size):
    a, b, c = seed_matmul(m, k, n, TORCH[dtype], m_tile, n_tile, mpb, npb, shapes_as_size=as_size)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)


def test_matmul_accumulates_in_float32():
    # 512 products of 0.5 * 0.5 = 128 exactly; a float16 accumulator of ones * small would lose the tail.
    a = torch.full((16, 512), 0.5, dtype=torch.float16)
    b = torch.full((512, 16), 0.5, dtype=torch.float16)
    b[0, 0] = 2.0 ** -12
    c = torch.zeros((16, 16), dtype=torch.float32)
    matmul_kernel[1](a, b, c, (16, 512), (512, 16), (16, 16), 16, 1, 16, 1)
    assert torch.equal(c, a.float() @ b.float())
    assert c[0, 0] != c[0, 1]


def test_matmul_result_is_a_float32_l0c_tile():
    a = torch.zeros((16, 32), dtype=torch.float16)
    b = torch.zeros((32, 16), dtype=torch.float16)
    c = torch.zeros((16, 16))
    ir = matmul_kernel.ir(a, b, c, (16, 32), (32, 16), (16, 16), 16, 1, 16, 1)
    assert "tile<16x32xfloat16, L0A>" in ir and "tile<32x16xfloat16, L0B>" in ir
    assert "tile<16x16xfloat32, L0C>" in ir


# -- K tiling with zeros_acc + matmul_acc, L1 staging and copies ----------------------------------------------------
@asc2.jit
def ktiled_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                  M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int],
                  TM: asc.ConstExpr[int], TK: asc.ConstExpr[int], TN: asc.ConstExpr[int],
                  STAGE_IN_L1: asc.ConstExpr[bool], RUNTIME_K_LOOP: asc.ConstExpr[bool]):
    a_gm = asc2.tensor(a_ptr, [M, K])
    b_gm = asc2.tensor(b_ptr, [K, N])
    c_gm = asc2.tensor(c_ptr, [M, N])
    n_blocks_n = N // TN
    m_off = (asc2.block_idx() // n_blocks_n) * TM
    n_off = (asc2.block_idx() % n_blocks_n) * TN
    acc = asc2.zeros_acc([TM, TN], asc.float32)
    if RUNTIME_K_LOOP:
        for kk in asc2.range(K // TK):
            a = asc2.load(a_gm, [TM, TK], offsets=[m_off, kk * TK], location=asc2.TileLocation.L0A)
            b = asc2.load(b_gm, [TK, TN], offsets=[kk * TK, n_off], location=asc2.TileLocation.L0B)
            asc2.matmul_acc(a, b, acc)
    else:
        for kk in asc.static_range(K // TK):
            if STAGE_IN_L1:
                a1 = asc2.load(a_gm, [TM, TK], offsets=[m_off, kk * TK], location=asc2.TileLocation.L1)
                b1 = asc2.load(b_gm, [TK, TN], offsets=[kk * TK, n_off], location=asc2.TileLocation.L1)
                a = asc2.copy(a1, location=asc2.TileLocation.L0A)
                b = asc2.copy(b1, location=asc2.TileLocation.L0B)
            else:
                a = asc2.load(a_gm, [TM, TK], offsets=[m_off, kk * TK], location=asc2.TileLocation.L0A)
                b = asc2.load(b_gm, [TK, TN], offsets=[kk * TK, n_off], location=asc2.TileLocation.L0B)
            asc2.matmul_acc(a, b, acc)
    asc2.store(acc, c_gm, offsets=[m_off, n_off])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("stage,runtime_loop", [(False, False), (True, False), (False, True)],
                         ids=["static-k", "l1-staged", "runtime-k"])
def test_k_tiled_matmul_with_zeros_acc(dtype, stage, runtime_loop):
    M, K, N, TM, TK, TN = 64, 256, 64, 32, 64, 32
    g = torch.Generator().manual_seed(3)
    a = torch.randn((M, K), generator=g).to(TORCH[dtype])
    b = torch.randn((K, N), generator=g).to(TORCH[dtype])
    c = torch.zeros((M, N))
    ktiled_kernel[(M // TM) * (N // TN)](a, b, c, M, K, N, TM, TK, TN, stage, runtime_loop)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    assert ktiled_kernel.last_launch["warnings"] == []


@pytest.mark.parametrize("cast", [False, True], ids=["store", "fused-cast"])
def test_storing_an_accumulator_no_matmul_acc_wrote_is_reported(cast):
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, k_tiles: int,
          CAST: asc.ConstExpr[bool]):
        acc = asc2.zeros_acc([16, 16], asc.float32)
        for kk in asc2.range(k_tiles):
            a = asc2.load(asc2.tensor(a_ptr, [16, 64]), [16, 16], offsets=[0, kk * 16], location=L0A)
            b = asc2.load(asc2.tensor(b_ptr, [64, 16]), [16, 16], offsets=[kk * 16, 0], location=L0B)
            asc2.matmul_acc(a, b, acc)
        if CAST:
            asc2.store(acc.to(asc.float16), asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])
        else:
            asc2.store(acc, asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])
    a = torch.rand((16, 64), dtype=torch.float16)
    b = torch.rand((64, 16), dtype=torch.float16)
    c = torch.full((16, 16), 7.0, dtype=torch.float16 if cast else torch.float32)
    k[1](a, b, c, 4, cast)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    assert k.last_launch["warnings"] == []
    k[1](a, b, c, 0, cast)                               # a K loop of no trips: nothing initialised L0C
    assert torch.all(c == 0)
    (warning,) = k.last_launch["warnings"]
    lines, first = inspect.getsourcelines(k.fn)
    reader = "asc2.store(acc.to(" if cast else "asc2.store(acc,"
    assert warning.startswith(f"{__file__}:{first + next(i for i, l in enumerate(lines) if reader in l)}:")
    assert "read before any matmul_acc" in warning and "stale data" in warning


def test_copy_sub_tile_from_l1_with_offsets():
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
        a1 = asc2.load(asc2.tensor(a_ptr, [32, 64]), [32, 64], offsets=[0, 0], location=asc2.TileLocation.L1)
        b = asc2.load(asc2.tensor(b_ptr, [32, 16]), [32, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
        a = asc2.copy(a1, [16, 32], offsets=[16, 32], location=asc2.TileLocation.L0A)
        asc2.store(a @ b, asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])
    a = torch.randn(32, 64).half()
    b = torch.randn(32, 16).half()
    c = torch.zeros(16, 16)
    k[1](a, b, c)
    torch.testing.assert_close(c, a[16:, 32:].float() @ b.float(), atol=1e-2, rtol=1e-2)


# -- fixpipe stores -----------------------------------------------------------------------------------------------
@asc2.jit
def fused_store_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                       M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int], epilogue: asc.ConstExpr):
    a = asc2.load(asc2.tensor(a_ptr, [M, K]), [M, K], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [K, N]), [K, N], offsets=[0, 0], location=asc2.TileLocation.L0B)
    c = a @ b
    asc2.store(epilogue(c), asc2.tensor(c_ptr, [M, N]), offsets=[0, 0])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("epilogue,out_dtype,ref", [
    (lambda c: asc2.relu(c).to(asc.float16), torch.float16, lambda r: torch.relu(r).half()),
    (lambda c: c.to(asc.float16), torch.float16, lambda r: r.half()),
    (lambda c: c.relu().to(asc.bfloat16), torch.bfloat16, lambda r: torch.relu(r).bfloat16()),
    (lambda c: asc2.relu(c), torch.float32, torch.relu),
], ids=["relu-f16", "cast-f16", "relu-bf16", "relu-f32"])
def test_fused_fixpipe_stores(dtype, epilogue, out_dtype, ref):
    g = torch.Generator().manual_seed(4)
    a = torch.randn((32, 64), generator=g).to(TORCH[dtype])
    b = torch.randn((64, 48), generator=g).to(TORCH[dtype])
    c = torch.zeros((32, 48), dtype=out_dtype)
    fused_store_kernel[1](a, b, c, 32, 64, 48, epilogue)
    raw = a.float() @ b.float()
    assert (raw < 0).any()  # relu has something to clip
    expected = ref(raw)
    torch.testing.assert_close(c.float(), expected.float(), atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("dst,tdtype,lo,hi", [("int8", torch.int8, -128, 127), ("uint8", torch.uint8, 0, 255)])
def test_fixpipe_quantises_float32_to_8_bit(dst, tdtype, lo, hi):
    g = torch.Generator().manual_seed(6)
    a = (torch.randn((32, 64), generator=g) * 8).half()
    b = torch.randn((64, 32), generator=g).half()
    c = torch.zeros((32, 32), dtype=tdtype)
    fused_store_kernel[1](a, b, c, 32, 64, 32, lambda t: t.to(getattr(asc, dst)))
    ref = a.float() @ b.float()
    assert ref.min() < lo or ref.max() > hi or dst == "uint8"
    expected = torch.clamp(torch.round(ref), lo, hi).to(tdtype)
    assert (c.int() - expected.int()).abs().max() <= 1   # round-to-nearest up to float32 summation order


def test_unsupported_quant_mode():
    a = torch.zeros((16, 32), dtype=torch.float16)
    b = torch.zeros((32, 16), dtype=torch.float16)
    with pytest.raises(CodegenError, match="Unsupported quant mode from float32 to int16"):
        fused_store_kernel[1](a, b, torch.zeros((16, 16), dtype=torch.int16), 16, 32, 16, lambda c: c.to(asc.int16))


def test_l0c_store_needs_a_matching_dtype():
    a = torch.zeros((16, 32), dtype=torch.float16)
    b = torch.zeros((32, 16), dtype=torch.float16)
    with pytest.raises(CodegenError, match="failed to verify that all of {base, value} have same element type"):
        fused_store_kernel[1](a, b, torch.zeros((16, 16), dtype=torch.float16), 16, 32, 16, lambda c: c)


def test_copy_from_l0c_to_l1_after_cast_and_back_to_l0a():
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
        a = asc2.load(asc2.tensor(a_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0A)
        b = asc2.load(asc2.tensor(b_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
        ab = asc2.copy((a @ b).to(asc.float16), location=asc2.TileLocation.L1)
        ab0 = asc2.copy(ab, location=asc2.TileLocation.L0A)
        asc2.store(ab0 @ b, asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])
    a = torch.randn(16, 16).half()
    b = torch.randn(16, 16).half()
    c = torch.zeros(16, 16)
    k[1](a, b, c)
    torch.testing.assert_close(c, (a.float() @ b.float()).half().float() @ b.float(), atol=2e-2, rtol=2e-2)


# -- locations ------------------------------------------------------------------------------------------------------
@asc2.jit
def misuse_kernel(a_ptr: asc.GlobalAddress, WHAT: asc.ConstExpr[str]):
    a_gm = asc2.tensor(a_ptr, [32, 32])
    if WHAT == "ub-into-matmul":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0])
        b = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0B)
        c = a @ b
    elif WHAT == "vector-on-l0a":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        c = asc2.exp(a)
    elif WHAT == "add-on-l0a":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        c = a + 1.0
    elif WHAT == "l1-into-vector":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L1)
        c = a * 2.0
    elif WHAT == "l1-into-matmul":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L1)
        b = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0B)
        c = a @ b
    elif WHAT == "store-l1":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L1)
        asc2.store(a, a_gm, offsets=[0, 0])
    elif WHAT == "store-l0a":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        asc2.store(a, a_gm, offsets=[0, 0])
    elif WHAT == "l1-to-ub":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L1)
        c = asc2.copy(a, location=asc2.TileLocation.UB)
    elif WHAT == "l1-to-both":
        a1 = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L1)
        a = asc2.copy(a1, location=asc2.TileLocation.L0A)
        b = asc2.copy(a1, location=asc2.TileLocation.L0B)
    elif WHAT == "ub-copy":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0])
        c = asc2.copy(a)
    elif WHAT == "l0c-math":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        b = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0B)
        c = (a @ b) * 2.0
    elif WHAT == "l0c-f32-copy":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        b = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0B)
        c = asc2.copy(a @ b, location=asc2.TileLocation.L1)
    elif WHAT == "fix":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.FIX)
    elif WHAT == "reduce-l0a":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        c = asc2.reduce_sum(a, 0)
    elif WHAT == "atomic-l0a":
        a = asc2.load(a_gm, [32, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        asc2.atomic_add(a, a_gm, [0, 0])


@pytest.mark.parametrize("what,msg,hint", [
    ("ub-into-matmul", "asc2.matmul (left operand) expects a tile in L0A, got a tile in UB", "location="),
    ("vector-on-l0a", "asc2.exp expects a tile in UB, got a tile in L0A", "L0A/L0B tiles only feed asc2.matmul"),
    ("add-on-l0a", "'+' expects a tile in UB, got a tile in L0A", "L0A/L0B tiles only feed asc2.matmul"),
    ("l1-into-vector", "L1 tile is expected to be used for copy operations only.", "'*' needs a tile in UB"),
    ("l1-into-matmul", "L1 tile is expected to be used for copy operations only.", "asc2.copy"),
    ("store-l1", "L1 tile is expected to be used for copy operations only.", "store needs a tile in UB or L0C"),
    ("l1-to-ub", "L1 tile copy to L0A/L0B location is expected only.", "L0A or L0B"),
    ("l1-to-both", "The same L1 tile should be copied only to tiles in same L0A/L0B location.", "already feeds L0A"),
    ("store-l0a", "store expects a tile in UB or L0C, got a tile in L0A", None),
    ("ub-copy", "dst tile location is not supported", "UB -> UB has no lowering"),
    ("l0c-math", "'*' expects a tile in UB, got a tile in L0C", "stored, copied, cast"),
    ("l0c-f32-copy", "copy from L0C needs a float16 / bfloat16 tile", ".to(asc.float16)"),
    ("fix", "invalid destination location of the tile", None),
    ("reduce-l0a", "asc2.reduce_sum expects a tile in UB, got a tile in L0A", None),
    ("atomic-l0a", "asc2.atomic_add expects a tile in UB, got a tile in L0A", None),
])
def test_location_misuse_is_a_trace_time_error(what, msg, hint):
    a = torch.zeros((32, 32), dtype=torch.float16)
    with pytest.raises(CodegenError, match=re.escape(msg)) as e:
        misuse_kernel[1](a, what)
    text = str(e.value)
    assert msg in text, text
    assert "hint: " in text
    if hint:
        assert hint in text.split("hint: ")[1], text


def test_full_cannot_create_cube_tiles():
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress):
        t = asc2.full([16, 16], 0.0, location=asc2.TileLocation.L0C)
    with pytest.raises(CodegenError, match="asc2.full cannot create a tile in L0C"):
        k[1](torch.zeros(4))


# -- capacities -------------------------------------------------------------------------------------------------------
def test_l0a_capacity_error_names_the_tile_bytes_and_budget():
    a = torch.zeros((64, 1024), dtype=torch.float16)   # 64 * 1024 * 2 = 128 KiB > 64 KiB
    b = torch.zeros((1024, 16), dtype=torch.float16)
    c = torch.zeros((64, 16))
    with pytest.raises(CodegenError, match=re.escape("L0A overflow: tile [64, 1024] x float16 needs 131072 bytes")) as e:
        matmul_kernel[1](a, b, c, (64, 1024), (1024, 16), (64, 16), 64, 1, 16, 1)
    text = str(e.value)
    assert "L0A overflow: tile [64, 1024] x float16 needs 131072 bytes, L0A holds 65536 bytes" in text
    assert "a_i = asc2.load(a_gm, [m_tile, a_shape[1]]" in text
    assert "m_tile * k * elem_size" in text and "zeros_acc" in text


def test_l0b_capacity_error():
    a = torch.zeros((16, 512), dtype=torch.float32)
    b = torch.zeros((512, 64), dtype=torch.float32)    # 512 * 64 * 4 = 128 KiB
    with pytest.raises(CodegenError, match="L0B overflow: tile \\[512, 64\\] x float32 needs 131072 bytes, "
                                           "L0B holds 65536 bytes"):
        matmul_kernel[1](a, b, torch.zeros((16, 64)), (16, 512), (512, 64), (16, 64), 16, 1, 64, 1)


def test_l0c_capacity_error():
    a = torch.zeros((512, 16), dtype=torch.float16)
    b = torch.zeros((16, 256), dtype=torch.float16)
    c = torch.zeros((512, 256))                    # 512 * 256 * 4 = 512 KiB of float32 in L0C (256 KiB on C310)
    with pytest.raises(CodegenError, match=re.escape("L0C overflow: tile [512, 256] x float32 needs 524288 bytes")) as e:
        matmul_kernel[1](a, b, c, (512, 16), (16, 256), (512, 256), 512, 1, 256, 1)
    text = str(e.value)
    assert "L0C overflow: tile [512, 256] x float32 needs 524288 bytes, L0C holds 262144 bytes" in text
    assert "c_ij = a_i @ b_j" in text and "hint: " in text


def test_l1_capacity_error():
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress):
        a1 = asc2.load(asc2.tensor(a_ptr, [512, 1024]), [512, 1024], offsets=[0, 0], location=asc2.TileLocation.L1)
    with pytest.raises(CodegenError, match="L1 overflow: tile \\[512, 1024\\] x float16 needs 1048576 bytes, "
                                           "L1 holds 524288 bytes"):
        k[1](torch.zeros((512, 1024), dtype=torch.float16))


def test_exactly_64_kib_fits_l0a():
    a = torch.rand((64, 512), dtype=torch.float16)
    b = torch.rand((512, 16), dtype=torch.float16)
    c = torch.zeros((64, 16))
    matmul_kernel[1](a, b, c, (64, 512), (512, 16), (64, 16), 64, 1, 16, 1)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)


def test_ub_overflow_is_reported_at_launch():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [64, 1024])
        t = asc2.load(x_gm, [64, 1024], offsets=[0, 0])   # 256 KiB of float32
        asc2.store(t, x_gm, offsets=[0, 0])
    with pytest.raises(RuntimeError, match="UB overflow: 253952 is available, 262144 is used."):
        k[1](np.zeros((64, 1024), np.float32))


def test_ub_capacity_depends_on_the_platform():
    import asc.runtime.config as config

    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [50, 1024])
        asc2.store(asc2.load(x_gm, [50, 1024], offsets=[0, 0]), x_gm, offsets=[0, 0])   # 200 KiB
    x = np.zeros((50, 1024), np.float32)
    k[1](x)   # fits the 248 KiB of Ascend950PR_9599
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(RuntimeError, match="UB overflow: 196608 is available"):
        k[1](x)


# -- matmul argument errors -------------------------------------------------------------------------------------------
@asc2.jit
def bad_matmul_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, SA: asc.ConstExpr, SB: asc.ConstExpr,
                      WHAT: asc.ConstExpr[str]):
    a = asc2.load(asc2.tensor(a_ptr, SA), list(SA), offsets=[0] * len(SA), location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, SB), list(SB), offsets=[0] * len(SB), location=asc2.TileLocation.L0B)
    if WHAT == "matmul":
        c = asc2.matmul(a, b)
    elif WHAT == "acc-not-from-zeros-acc":
        acc = a @ b
        asc2.matmul_acc(a, b, acc)
    elif WHAT == "acc-is-ub":
        acc = asc2.zeros([SA[0], SB[1]], dtype=asc.float32)
        asc2.matmul_acc(a, b, acc)
    elif WHAT == "acc-f16":
        acc = asc2.zeros_acc([SA[0], SB[1]], asc.float16)
        asc2.matmul_acc(a, b, acc)
    elif WHAT == "acc-1d":
        acc = asc2.zeros_acc([SA[0]], asc.float32)
    elif WHAT == "acc-shape":
        acc = asc2.zeros_acc([SA[0], SB[1] * 2], asc.float32)
        asc2.matmul_acc(a, b, acc)
    elif WHAT == "scalar":
        c = a @ 2.0


@pytest.mark.parametrize("sa,sb,da,db,what,msg", [
    ((16, 32), (64, 16), torch.float16, torch.float16, "matmul",
     "Input tiles have incompatible shapes: [16, 32], [64, 16]"),
    ((16, 32), (32, 16), torch.float16, torch.float32, "matmul",
     "Input tiles must have the same types, got float16 and float32"),
    ((16, 64), (64, 32), torch.int8, torch.int8, "matmul", "Input tiles have unsupported types: int8"),
    ((16, 32), (32, 16), torch.int32, torch.int32, "matmul", "Input tiles have unsupported types: int32"),
    ((32,), (32, 16), torch.float16, torch.float16, "matmul", "Input tiles must have two dims, got 1 and 2"),
    ((16, 32), (32, 16), torch.float16, torch.float16, "acc-not-from-zeros-acc",
     "Incorrect use of accumulator in matmul operation."),
    ((16, 32), (32, 16), torch.float16, torch.float16, "acc-is-ub", "Incorrect use of accumulator in matmul operation."),
    ((16, 32), (32, 16), torch.float16, torch.float16, "acc-f16", "Accumulation tile have unsupported types: float16"),
    ((16, 32), (32, 16), torch.float16, torch.float16, "acc-1d", "Accumulation tile must have two dims, got 1"),
    ((16, 32), (32, 16), torch.float16, torch.float16, "acc-shape", "Accumulation tile shape [16, 32] does not match"),
], ids=["k-mismatch", "mixed-dtypes", "int8", "int32", "1d", "acc-not-zeros-acc", "acc-ub", "acc-f16", "acc-1d",
        "acc-shape"])
def test_matmul_bad_inputs(sa, sb, da, db, what, msg):
    a = torch.zeros(sa, dtype=da)
    b = torch.zeros(sb, dtype=db)
    with pytest.raises(CodegenError, match=re.escape(msg)) as e:
        bad_matmul_kernel[1](a, b, sa, sb, what)
    text = str(e.value)
    assert msg in text, text
    assert "hint: " in text, text
    assert "test_cube.py:" in text


def test_matmul_with_a_scalar_is_rejected():
    a = torch.zeros((16, 32), dtype=torch.float16)
    b = torch.zeros((32, 16), dtype=torch.float16)
    with pytest.raises(CodegenError, match="unsupported operand type"):
        bad_matmul_kernel[1](a, b, (16, 32), (32, 16), "scalar")


def test_accumulator_survives_a_runtime_loop_and_is_checked_through_it():
    # An accumulator carried through a runtime K loop still counts as coming from zeros_acc (runtime-k above);
    # a matmul result carried the same way does not.
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, n: int):
        a = asc2.load(asc2.tensor(a_ptr, [16, 32]), [16, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        b = asc2.load(asc2.tensor(b_ptr, [32, 16]), [32, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
        acc = a @ b
        for i in range(n):
            asc2.matmul_acc(a, b, acc)
    with pytest.raises(CodegenError, match="Incorrect use of accumulator in matmul operation."):
        k[1](torch.zeros((16, 32), dtype=torch.float16), torch.zeros((32, 16), dtype=torch.float16), 2)
