"""Undefined elements through matmul (a tail tile of A, B or the bias) and through the row-wise norms
whose gamma is a tail tile: which output elements stay undefined (so a clipped store runs clean and an
unclipped one warns with the exact count), and which reads mix undefined elements into defined results
(warned at the op, with the count)."""
from __future__ import annotations

import inspect

import numpy as np

import asc2
from asc.runtime import last_launch_report


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


def undefined_warnings():
    return [w for w in last_launch_report()["warnings"] if "undefined" in w]


@asc2.jit
def mm_tail(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, bias_ptr: asc2.GlobalAddress,
            c_ptr: asc2.GlobalAddress, m: int, k: int, n: int, nb: int, cm: int, cn: int,
            with_bias: asc2.ConstExpr[bool]):
    # UB loads (moved to the cube at the matmul) keep their clipped part undefined; loads into L1 / L0
    # would pad it with zeros, as pyasc-dev lowers them
    a = asc2.copy_in(asc2.global_tensor(a_ptr, [m, k]), [0, 0], [16, 16], asc2.TensorLocation.UB)
    b = asc2.copy_in(asc2.global_tensor(b_ptr, [k, n]), [0, 0], [16, 16], asc2.TensorLocation.UB)
    if with_bias:
        bias = asc2.copy_in(asc2.global_tensor(bias_ptr, [nb]), [0], [16])
        c = asc2.matmul(a, b, bias)
    else:
        c = asc2.matmul(a, b)
    asc2.copy_out(c, asc2.global_tensor(c_ptr, [cm, cn]), [0, 0], real_shape=[cm, cn])


def run_mm(m, k, n, cm, cn, nb=16, with_bias=False):
    rng = np.random.default_rng(m * 100 + k * 10 + n)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    bias = rng.standard_normal(nb).astype(np.float32)
    c = np.zeros((cm, cn), np.float32)
    mm_tail[1](a, b, bias, c, m, k, n, nb, cm, cn, with_bias)
    return a, b, bias, c


def test_a_tail_tile_of_a_leaves_its_rows_of_c_undefined_and_a_clipped_store_runs_clean():
    a, b, _, c = run_mm(12, 16, 16, 12, 16)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    assert undefined_warnings() == []


def test_a_tail_tile_of_b_leaves_its_columns_of_c_undefined_and_a_clipped_store_runs_clean():
    a, b, _, c = run_mm(16, 16, 12, 16, 12)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    assert undefined_warnings() == []


def test_the_undefined_rows_of_c_stored_inside_the_tensor_warn_at_the_store_with_their_count():
    run_mm(12, 16, 16, 16, 16)   # rows 12..15 of C (4 x 16) land inside a 16 x 16 tensor
    ws = undefined_warnings()
    line = line_of(mm_tail, "asc2.copy_out(c,")
    assert len(ws) == 1 and f".py:{line}:" in ws[0].split(" ")[0], ws
    assert "writes 64 undefined element(s) inside the tensor" in ws[0], ws


def test_undefined_rows_of_a_and_columns_of_b_together_leave_exactly_their_union_undefined():
    run_mm(12, 16, 14, 16, 16)   # 4 rows of C and 2 columns: 4 * 16 + 16 * 2 - 4 * 2 elements
    ws = undefined_warnings()
    assert len(ws) == 1 and "writes 88 undefined element(s)" in ws[0], ws


def test_an_undefined_tail_of_the_contracted_dimension_mixes_into_every_element_and_warns_at_the_matmul():
    run_mm(16, 12, 16, 16, 16)   # A: 16 rows x 4 undefined columns; B: 4 undefined rows x 16 columns
    ws = undefined_warnings()
    line = line_of(mm_tail, "c = asc2.matmul(a, b)")
    assert ws and f".py:{line}:" in ws[0].split(" ")[0] and "matmul reads 128 undefined element(s)" in ws[0], ws
    assert "pass pad_value=..., or real_shape" in ws[0]


def test_a_tail_tile_of_the_bias_leaves_its_columns_of_c_undefined():
    a, b, bias, c = run_mm(16, 16, 16, 16, 12, nb=12, with_bias=True)
    np.testing.assert_allclose(c, (a @ b)[:, :12] + bias, rtol=1e-5, atol=1e-5)
    assert undefined_warnings() == []
    run_mm(16, 16, 16, 16, 16, nb=12, with_bias=True)   # columns 12..15 of every row inside the tensor
    ws = undefined_warnings()
    line = line_of(mm_tail, "asc2.copy_out(c,")
    assert len(ws) == 1 and f".py:{line}:" in ws[0].split(" ")[0], ws
    assert "writes 64 undefined element(s) inside the tensor" in ws[0], ws


@asc2.jit
def norm_tail(x_ptr: asc2.GlobalAddress, g_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
              rows: int, cols: int, layer: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [rows, 16])
    out_gm = asc2.global_tensor(out_ptr, [rows, 16])
    x = asc2.copy_in(x_gm, [0, 0], [8, 16])
    g = asc2.copy_in(asc2.global_tensor(g_ptr, [cols]), [0], [16])
    if layer:
        y, mean, rstd = asc2.layer_norm(x, g, g, 1e-5)
    else:
        y = asc2.rms_norm(x, g, 1e-5)
    asc2.copy_out(y, out_gm, [0, 0], real_shape=[rows, 16])


def test_a_norm_whose_gamma_has_an_undefined_tail_warns_at_the_norm_even_when_the_input_has_undefined_rows():
    x = np.ones((6, 16), np.float32)   # rows 6 and 7 of the tile are undefined (the tile's tail rows)
    for layer, what in ((False, "rms_norm reads"), (True, "layer_norm reads")):
        norm_tail[1](x, np.ones(12, np.float32), np.zeros_like(x), 6, 12, layer)
        ws = undefined_warnings()
        line = line_of(norm_tail, "asc2.layer_norm(" if layer else "asc2.rms_norm(")
        assert ws and f".py:{line}:" in ws[0].split(" ")[0] and what in ws[0], ws


def test_a_norm_of_a_tile_whose_tail_rows_are_undefined_with_a_whole_gamma_runs_clean():
    x = np.random.default_rng(3).standard_normal((6, 16)).astype(np.float32)
    out = np.zeros_like(x)
    norm_tail[1](x, np.ones(16, np.float32), out, 6, 16, False)
    np.testing.assert_allclose(out, x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5), rtol=1e-5)
    assert undefined_warnings() == []


@asc2.jit
def mm_bias_blocks(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, bias_ptr: asc2.GlobalAddress,
                   c_ptr: asc2.GlobalAddress, nb: int, cn: int):
    col = asc2.block_idx() * 16
    a = asc2.copy_in(asc2.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16])
    b = asc2.copy_in(asc2.global_tensor(b_ptr, [16, 32]), [0, col], [16, 16])
    bias = asc2.copy_in(asc2.global_tensor(bias_ptr, [nb]), [col], [16])
    k = asc2.number(16, asc2.int32)
    if cn - col < 16:
        k = cn - col
    asc2.copy_out(asc2.matmul(a, b, bias), asc2.global_tensor(c_ptr, [16, cn]), [0, col], real_shape=[16, k])


def test_blocks_whose_bias_tiles_differ_keep_each_blocks_undefined_columns():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((16, 16)).astype(np.float32)
    b = rng.standard_normal((16, 32)).astype(np.float32)
    bias = rng.standard_normal(28).astype(np.float32)   # block 1's bias tile: 12 values, 4 undefined
    c = np.zeros((16, 28), np.float32)
    mm_bias_blocks[2](a, b, bias, c, 28, 28)
    np.testing.assert_allclose(c, (a @ b)[:, :28] + bias, rtol=1e-5, atol=1e-5)
    assert undefined_warnings() == []
    c = np.zeros((16, 32), np.float32)
    mm_bias_blocks[2](a, b, bias, c, 28, 32)   # block 1 writes its 4 undefined columns inside the tensor
    ws = undefined_warnings()
    assert len(ws) == 1 and "writes 64 undefined element(s) inside the tensor" in ws[0], ws
