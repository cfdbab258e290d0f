"""A vector op reading a matmul result in an August kernel: pyasc-dev's front end casts every vector operand
to UB and its LocationCastToCopy pass turns the cast of an L0C tile into an L0C -> UB copy at that line
(checked by running its passes on such kernels), so the kernel runs as if it had written
``copy(c, location=TensorLocation.UB)`` there, at the same cost (the FIX pipe). Tiles with no path to UB
(L1, L0A, L0B) fail with its FulfillDataTransfer text; April kernels keep requiring a UB tile."""
from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError

from kernel_checks import assert_reported, randn

L0A, L0B, UB = asctile.TensorLocation.L0A, asctile.TensorLocation.L0B, asctile.TensorLocation.UB


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


def f32(x):
    return x.astype(np.float32)


@asctile.jit
def scores(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, x_ptr: asctile.GlobalAddress,
           o_ptr: asctile.GlobalAddress, explicit: asctile.ConstExpr):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 64]), [0, 0], [32, 64], L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [64, 32]), [0, 0], [64, 32], L0B)
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [32, 32]), [0, 0], [32, 32], UB)
    c = asctile.matmul(a, b)
    if explicit:
        c = asctile.copy(c, location=UB)
    asctile.copy_out(c * 0.5 + x, asctile.global_tensor(o_ptr, [32, 32]), [0, 0])


def test_a_binary_op_on_a_matmul_result_copies_it_to_ub_at_that_line_as_an_explicit_copy_costs():
    a, b, x = randn((32, 64), np.float16, seed=1), randn((64, 32), np.float16, seed=2), randn((32, 32), np.float32, 3)
    out = np.zeros((32, 32), np.float32)
    scores[1](a, b, x, out, False)
    auto = asc.runtime.last_launch_report()
    np.testing.assert_allclose(out, (f32(a) @ f32(b)) * 0.5 + x, rtol=1e-5, atol=1e-4)
    ir = scores.ir(a, b, x, out, False)
    [copy] = [l for l in ir.splitlines() if "tile.copy(" in l]
    assert "tile<32x32xfloat32, UB>" in copy and copy.endswith(f":{line_of(scores, 'c * 0.5 + x')}:21"), copy
    out2 = np.zeros_like(out)
    scores[1](a, b, x, out2, True)
    explicit = asc.runtime.last_launch_report()
    np.testing.assert_array_equal(out, out2)
    assert auto["ticks"] == explicit["ticks"] and auto["pipes"] == explicit["pipes"]
    assert auto["pipes"]["FIX"] > 0


@asctile.jit
def attention_row(q_ptr: asctile.GlobalAddress, k_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress,
                  s_ptr: asctile.GlobalAddress, m_ptr: asctile.GlobalAddress):
    q = asctile.copy_in(asctile.global_tensor(q_ptr, [16, 32]), [0, 0], [16, 32])
    k = asctile.copy_in(asctile.global_tensor(k_ptr, [32, 64]), [0, 0], [32, 64])
    s = q @ k
    asctile.copy_out(asctile.softmax(s), asctile.global_tensor(o_ptr, [16, 64]), [0, 0])
    asctile.copy_out(asctile.where(s > 0.0, s, 0.0), asctile.global_tensor(s_ptr, [16, 64]), [0, 0])
    asctile.copy_out(asctile.reduce_max(s, 1), asctile.global_tensor(m_ptr, [16]), [0])


def test_unary_reduction_comparison_and_where_read_a_matmul_result():
    q, k = randn((16, 32), np.float16, seed=4), randn((32, 64), np.float16, seed=5)
    o, s, m = np.zeros((16, 64), np.float32), np.zeros((16, 64), np.float32), np.zeros(16, np.float32)
    attention_row[1](q, k, o, s, m)
    ref = f32(q) @ f32(k)
    e = np.exp(ref - ref.max(axis=1, keepdims=True))
    np.testing.assert_allclose(o, e / e.sum(axis=1, keepdims=True), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(s, np.maximum(ref, 0), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(m, ref.max(axis=1), rtol=1e-5, atol=1e-4)
    ir = attention_row.ir(q, k, o, s, m)
    assert len(re.findall(r"tile\.copy\(.*tile<16x64xfloat32, UB>", ir)) == 4  # one per reading op, as upstream


@asctile.jit
def scaled_accumulator(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress,
                       p_ptr: asctile.GlobalAddress, tiles: asctile.ConstExpr):
    acc = asctile.zeros_acc([16, 32], asctile.float32)
    partial = asctile.global_tensor(p_ptr, [tiles * 16, 32])
    for t in range(tiles):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, tiles * 32]), [0, t * 32], [16, 32], L0A)
        b = asctile.copy_in(asctile.global_tensor(b_ptr, [tiles * 32, 32]), [t * 32, 0], [32, 32], L0B)
        asctile.matmul_acc(acc, a, b)
        asctile.copy_out(acc + 0.0, partial, [t * 16, 0])  # a snapshot: later updates do not reach it
    asctile.copy_out(acc.to(UB) * 2.0, asctile.global_tensor(o_ptr, [16, 32]), [0, 0])


def test_an_accumulator_read_in_the_loop_is_a_snapshot_and_to_a_location_copies_it():
    a, b = randn((16, 96), np.float16, seed=6), randn((96, 32), np.float16, seed=7)
    o, p = np.zeros((16, 32), np.float32), np.zeros((48, 32), np.float32)
    scaled_accumulator[1](a, b, o, p, 3)
    for t in range(3):
        ref = f32(a[:, :(t + 1) * 32]) @ f32(b[:(t + 1) * 32])
        np.testing.assert_allclose(p[t * 16:(t + 1) * 16], ref, rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(o, 2 * (f32(a) @ f32(b)), rtol=1e-5, atol=1e-3)


@asctile.jit
def to_locations(a_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], UB)
    same = a.to("UB")
    staged = a.to(asctile.TensorLocation.L1)
    asctile.copy_out(asctile.matmul(staged, same.to(L0B)), asctile.global_tensor(o_ptr, [16, 16]), [0, 0])


def test_to_a_location_copies_there_and_returns_a_tile_already_there():
    a = randn((16, 16), np.float16, seed=8)
    o = np.zeros((16, 16), np.float32)
    to_locations[1](a, o)
    np.testing.assert_allclose(o, f32(a) @ f32(a), rtol=1e-5, atol=1e-4)
    ir = to_locations.ir(a, o)
    line = line_of(to_locations, 'a.to("UB")')
    assert f":{line}:" not in ir  # no op for the tile already in UB
    copies = re.findall(r"tile\.copy\(.*tile<16x16xfloat16, (\w+)>  // .*:(\d+):\d+$", ir, re.M)
    # .to(L1) copies UB -> L1; .to(L0B) goes through L1 as every UB -> L0B copy; matmul copies L1 -> L0A
    assert copies == [("L1", str(line + 1)), ("L1", str(line + 2)), ("L0B", str(line + 2)), ("L0A", str(line + 2))]


@asctile.jit
def l1_into_exp(a_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L1)
    asctile.copy_out(asctile.exp(a), asctile.global_tensor(o_ptr, [16, 16]), [0, 0])


@asctile.jit
def l0a_into_add(a_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], L0A)
    asctile.copy_out(a + 1.0, asctile.global_tensor(o_ptr, [16, 16]), [0, 0])


@pytest.mark.parametrize("kernel, source, line", [(l1_into_exp, "L1", "asctile.exp(a)"),
                                                  (l0a_into_add, "L0A", "a + 1.0")])
def test_a_tile_with_no_path_to_ub_fails_with_upstreams_text_at_the_users_line(kernel, source, line):
    text = (f"Direct data transfer from {source} to UB is not supported. Please call copy() with explicit "
            "locations to fulfill the requested data flow.")
    with pytest.raises(CodegenError, match=re.escape(f"RuntimeError: {text}")) as e:
        kernel[1](np.zeros((16, 16), np.float16), np.zeros((16, 16), np.float16))
    assert_reported(e.value, text, line)


@asc2.jit
def april_scores(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, o_ptr: asc.GlobalAddress):
    a = asc2.load(asc2.tensor(a_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
    c = asc2.matmul(a, b)
    asc2.store(c + 1.0, asc2.tensor(o_ptr, [16, 16]), offsets=[0, 0])


def test_april_kernels_keep_requiring_a_ub_tile_for_vector_ops():
    a = np.zeros((16, 16), np.float16)
    with pytest.raises(CodegenError, match=re.escape("'+' expects a tile in UB, got a tile in L0C")) as e:
        april_scores[1](a, a.copy(), np.zeros((16, 16), np.float32))
    assert_reported(e.value, "expects a tile in UB, got a tile in L0C", "asc2.store(c + 1.0")
