"""TensorLocation.Auto: a copy_in left at the default location goes where its uses need it, as pyasc's
ResolveAutoLocation pass decides: only the cube reads it -> L0A / L0B (MTE2 to L1, MTE1 on), or L1 when
the cube reads windows of it; a vector op reads it too -> UB, and the cube's uses copy UB -> L1 -> L0."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
from asc.experimental import asctile

from kernel_checks import randn


def ticks():
    return asc.runtime.last_launch_report()["ticks"]


def load_locations(ir):
    return re.findall(r"tile\.load\(.*: tile<[^,]+, (\w+)>", ir)


@asctile.jit
def mm(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
       m: asctile.ConstExpr, k: asctile.ConstExpr, n: asctile.ConstExpr, explicit: asctile.ConstExpr):
    a_gm = asctile.global_tensor(a_ptr, [m, k])
    b_gm = asctile.global_tensor(b_ptr, [k, n])
    if explicit:
        a = asctile.copy_in(a_gm, [0, 0], [m, k], asctile.TensorLocation.L0A)
        b = asctile.copy_in(b_gm, [0, 0], [k, n], asctile.TensorLocation.L0B)
    else:
        a = asctile.copy_in(a_gm, [0, 0], [m, k])
        b = asctile.copy_in(b_gm, [0, 0], [k, n])
    asctile.copy_out(a @ b, asctile.global_tensor(c_ptr, [m, n]), [0, 0])


def test_auto_operands_of_matmul_load_into_l0a_l0b_like_explicit_ones():
    a, b = randn((32, 64), np.float16, seed=1), randn((64, 48), np.float16, seed=2)
    c = np.zeros((32, 48), np.float32)
    mm[1](a, b, c, 32, 64, 48, False)
    auto_ticks = ticks()
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-4)
    assert load_locations(mm.ir(a, b, c, 32, 64, 48, False)) == ["L0A", "L0B"]
    c2 = np.zeros_like(c)
    mm[1](a, b, c2, 32, 64, 48, True)
    assert auto_ticks == ticks()  # the same path: MTE2 into L1, MTE1 into L0A / L0B
    np.testing.assert_array_equal(c, c2)


@asctile.jit
def mm_acc_tiled(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                 m: asctile.ConstExpr, k: asctile.ConstExpr, n: asctile.ConstExpr, tk: asctile.ConstExpr):
    a_gm = asctile.global_tensor(a_ptr, [m, k])
    b_gm = asctile.global_tensor(b_ptr, [k, n])
    acc = asctile.zeros_acc([m, n], asctile.float32)
    for kt in range(k // tk):
        a = asctile.copy_in(a_gm, [0, kt * tk], [m, tk])
        b = asctile.copy_in(b_gm, [kt * tk, 0], [tk, n])
        asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [m, n]), [0, 0])


def test_auto_operands_of_matmul_acc_in_a_loop():
    a, b = randn((16, 128), np.float32, seed=3), randn((128, 32), np.float32, seed=4)
    c = np.zeros((16, 32), np.float32)
    mm_acc_tiled[1](a, b, c, 16, 128, 32, 32)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-4)
    assert load_locations(mm_acc_tiled.ir(a, b, c, 16, 128, 32, 32)) == ["L0A", "L0B"]


@asctile.jit
def cube_and_vector(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                    d_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 32]), [0, 0], [32, 32])
    asctile.copy_out(asctile.matmul(a, b), asctile.global_tensor(c_ptr, [32, 32]), [0, 0])
    asctile.copy_out(asctile.exp(a), asctile.global_tensor(d_ptr, [32, 32]), [0, 0])


def test_a_tile_the_cube_and_a_vector_op_read_stays_in_ub_and_is_copied_to_the_cube():
    a, b = randn((32, 32), np.float16, seed=5), randn((32, 32), np.float16, seed=6)
    c, d = np.zeros((32, 32), np.float32), np.zeros((32, 32), np.float16)
    cube_and_vector[1](a, b, c, d)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(d.astype(np.float32), np.exp(a.astype(np.float32)), rtol=1e-3)
    ir = cube_and_vector.ir(a, b, c, d)
    assert load_locations(ir) == ["UB", "L0B"]  # as pyasc: UB for the vector op, B straight to L0B
    copies = re.findall(r"tile\.copy\(.*: tile<[^,]+, (\w+)>", ir)
    assert copies == ["L1", "L0A"]


@asctile.jit
def auto_windows(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a_big = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 64]), [0, 0], [16, 64])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16])
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    for kt in range(2):
        a = asctile.copy(a_big, [0, kt * 32], [16, 32], asctile.TensorLocation.L0A)
        asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def test_an_auto_tile_copied_to_l0a_in_windows_is_staged_in_l1():
    a, b = randn((16, 64), np.float16, seed=7), randn((32, 16), np.float16, seed=8)
    c = np.zeros((16, 16), np.float32)
    auto_windows[1](a, b, c)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    np.testing.assert_allclose(c, af[:, :32] @ bf + af[:, 32:] @ bf, rtol=1e-5, atol=1e-4)
    assert load_locations(auto_windows.ir(a, b, c)) == ["L1", "L0B"]


@asctile.jit
def vector_only(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 32]), [0, 0], [8, 32])
    asctile.copy_out(x + x, asctile.global_tensor(y_ptr, [8, 32]), [0, 0])


def test_an_auto_tile_of_vector_ops_is_in_ub():
    x, y = randn((8, 32), np.float32, seed=9), np.zeros((8, 32), np.float32)
    vector_only[1](x, y)
    np.testing.assert_array_equal(y, x + x)
    assert load_locations(vector_only.ir(x, y)) == ["UB"]


@asctile.jit
def ub_into_cube(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                 d_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.UB)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.UB)
    c_gm = asctile.global_tensor(c_ptr, [32, 32])
    asctile.copy_out(asctile.matmul(asctile.exp(a), b), c_gm, [0, 0])
    a0 = asctile.copy(a, location=asctile.TensorLocation.L0A)
    asctile.copy_out(asctile.matmul(a0, b), asctile.global_tensor(d_ptr, [32, 32]), [0, 0])


def test_ub_tiles_reach_the_cube_through_l1_in_august_kernels():
    a, b = randn((32, 32), np.float16, seed=10) / 4, randn((32, 32), np.float16, seed=11)
    c, d = np.zeros((32, 32), np.float32), np.zeros((32, 32), np.float32)
    ub_into_cube[1](a, b, c, d)
    ea = np.exp(a.astype(np.float32)).astype(np.float16).astype(np.float32)
    np.testing.assert_allclose(c, ea @ b.astype(np.float32), rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(d, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-4)
    copies = re.findall(r"tile\.copy\(.*: tile<[^,]+, (\w+)>", ub_into_cube.ir(a, b, c, d))
    assert copies == ["L1", "L0A", "L1", "L0B", "L1", "L0A", "L1", "L0B"]


@asctile.jit
def too_big_for_l0a(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [128, 256]), [0, 0], [128, 256])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [256, 16]), [0, 0], [256, 16])
    asctile.copy_out(a @ b, asctile.global_tensor(c_ptr, [128, 16]), [0, 0])


def test_the_memory_plan_counts_an_auto_tile_in_the_buffer_it_resolved_to():
    from asc.frontend.errors import CompilationError
    with pytest.raises(CompilationError, match=r"L0A overflow: tile \[128, 256\] x float32 needs 131072 bytes") as e:
        too_big_for_l0a[1](np.zeros((128, 256), np.float32), np.zeros((256, 16), np.float32),
                           np.zeros((128, 16), np.float32))
    assert "a = asctile.copy_in(asctile.global_tensor(a_ptr, [128, 256])" in str(e.value)


@asctile.jit
def auto_bias(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, bias_ptr: asctile.GlobalAddress,
              c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16])
    bias = asctile.copy_in(asctile.global_tensor(bias_ptr, [16]), [0], [16])
    asctile.copy_out(asctile.matmul(a, b, bias), asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def test_an_auto_bias_row_loads_into_bt():
    a, b = randn((16, 32), np.float16, seed=12), randn((32, 16), np.float16, seed=13)
    bias = randn(16, np.float32, seed=14)
    c = np.zeros((16, 16), np.float32)
    auto_bias[1](a, b, bias, c)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32) + bias, rtol=1e-5, atol=1e-4)
    assert load_locations(auto_bias.ir(a, b, bias, c)) == ["L0A", "L0B", "BT"]


@asctile.jit
def l1_and_ub_operands(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, bias_ptr: asctile.GlobalAddress,
                       c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L1)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L1)
    bias = asctile.copy_in(asctile.global_tensor(bias_ptr, [16]), [0], [16], asctile.TensorLocation.UB)
    asctile.copy_out(asctile.matmul(a, b, bias), asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def test_l1_operands_and_a_ub_bias_are_copied_to_the_cube_as_pyasc_does():
    a, b = randn((16, 32), np.float16, seed=15), randn((32, 16), np.float16, seed=16)
    bias = randn(16, np.float32, seed=17)
    c = np.zeros((16, 16), np.float32)
    l1_and_ub_operands[1](a, b, bias, c)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32) + bias, rtol=1e-5, atol=1e-4)
    copies = re.findall(r"tile\.copy\(.*: tile<[^,]+, (\w+)>", l1_and_ub_operands.ir(a, b, bias, c))
    assert copies == ["L0A", "L0B", "L1", "BT"]
