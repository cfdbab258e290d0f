"""Transposed cube operands in August kernels (``copy(l1, offsets, shape, TensorLocation.L0B).T``): the
product against numpy for non-square windows at non-zero offsets, the cost of a transposed load (an MTE1
load, no vector work), and the forms pyasc-dev's CubeTransposeToLoad pass refuses; April keeps UB-only."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError

from kernel_checks import assert_reported, randn

L = asctile.TensorLocation


@asctile.jit
def bt_windows(a_ptr: asctile.GlobalAddress, bt_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
               m: asctile.ConstExpr, n: asctile.ConstExpr, k: asctile.ConstExpr, bn: asctile.ConstExpr,
               bk: asctile.ConstExpr, transposed: asctile.ConstExpr):
    """C = A @ B with B given transposed ([n, k] in GM); each [bn, bk] window of B^T is copied into L0B
    and transposed there (``transposed``), or B^T is transposed as a whole L1 tile first."""
    a_l1 = asctile.copy_in(asctile.global_tensor(a_ptr, [m, k]), [0, 0], [m, k], L.L1)
    bt_l1 = asctile.copy_in(asctile.global_tensor(bt_ptr, [n, k]), [0, 0], [n, k], L.L1)
    if not transposed:
        b_l1 = bt_l1.T
    c_gm = asctile.global_tensor(c_ptr, [m, n])
    for j in range(n // bn):
        acc = asctile.zeros_acc([m, bn], asctile.float32)
        for kk in range(k // bk):
            a0 = asctile.copy(a_l1, [0, kk * bk], [m, bk], L.L0A)
            if transposed:
                b0 = asctile.copy(bt_l1, [j * bn, kk * bk], [bn, bk], L.L0B).T
            else:
                b0 = asctile.copy(b_l1, [kk * bk, j * bn], [bk, bn], L.L0B)
            asctile.matmul_acc(acc, a0, b0)
        asctile.copy_out(acc, c_gm, [0, j * bn])


@pytest.mark.parametrize("transposed", [True, False], ids=["L0B window .T", "L1 tile .T"])
def test_transposed_non_square_b_windows_match_numpy(transposed):
    m, n, k = 32, 96, 128
    a, bt = randn((m, k), np.float16, seed=1), randn((n, k), np.float16, seed=2)
    c = np.full((m, n), np.nan, np.float32)
    # [32, 64] windows of B^T at row offsets 0, 32, 64 and column offsets 0, 64 -> [64, 32] L0B operands
    bt_windows[1](a, bt, c, m, n, k, 32, 64, transposed)
    np.testing.assert_allclose(c, a.astype(np.float32) @ bt.astype(np.float32).T, rtol=1e-5, atol=1e-4)
    pipes = asc.runtime.last_launch_report()["pipes"]
    assert "V" not in pipes, pipes  # the transpose is part of the MTE1 load, no vector instruction


def test_a_transposed_l0b_load_costs_what_the_plain_load_costs():
    m, n, k = 32, 64, 128
    a, bt = randn((m, k), np.float16, seed=3), randn((n, k), np.float16, seed=4)
    c = np.zeros((m, n), np.float32)
    bt_windows[1](a, bt, c, m, n, k, 64, 64, True)
    window_t = asc.runtime.last_launch_report()["pipes"]
    bt_windows[1](a, bt, c, m, n, k, 64, 64, False)
    whole_t = asc.runtime.last_launch_report()["pipes"]
    assert window_t["MTE1"] == whole_t["MTE1"] and window_t["M"] == whole_t["M"]


@asctile.jit
def l0a_transposed(at_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    """A given transposed ([k, m]): its L0A load is transposed, and a GM -> L0B load of B as well."""
    at = asctile.copy_in(asctile.global_tensor(at_ptr, [64, 32]), [0, 0], [64, 32], L.L1)
    a0 = asctile.copy(at, [0, 0], [64, 32], L.L0A).transpose()
    b0 = asctile.copy_in(asctile.global_tensor(b_ptr, [48, 64]), [0, 0], [48, 64], L.L0B).transpose(1, 0)
    asctile.copy_out(a0 @ b0, asctile.global_tensor(c_ptr, [32, 48]), [0, 0])


def test_transposed_l0a_and_gm_to_l0b_loads_match_numpy():
    at, bt = randn((64, 32), np.float32, seed=5), randn((48, 64), np.float32, seed=6)
    c = np.zeros((32, 48), np.float32)
    l0a_transposed[1](at, bt, c)
    np.testing.assert_allclose(c, at.T @ bt.T, rtol=1e-5, atol=1e-4)


@asctile.jit
def transposed_and_plain(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a0 = asctile.copy_in(asctile.global_tensor(a_ptr, [64, 64]), [0, 0], [64, 64], L.L0A)
    b_l1 = asctile.copy_in(asctile.global_tensor(b_ptr, [64, 64]), [0, 0], [64, 64], L.L1)
    b0 = asctile.copy(b_l1, [0, 0], [64, 64], L.L0B)
    acc = asctile.zeros_acc([64, 64], asctile.float32)
    asctile.matmul_acc(acc, a0, b0.T)
    asctile.matmul_acc(acc, a0, b0)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [64, 64]), [0, 0])


@asctile.jit
def transposed_twice(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a0 = asctile.copy_in(asctile.global_tensor(a_ptr, [64, 64]), [0, 0], [64, 64], L.L0A)
    b_l1 = asctile.copy_in(asctile.global_tensor(b_ptr, [64, 64]), [0, 0], [64, 64], L.L1)
    asctile.copy_out(a0 @ asctile.copy(b_l1, [0, 0], [64, 64], L.L0B).T.T, asctile.global_tensor(c_ptr, [64, 64]),
                     [0, 0])


@pytest.mark.parametrize("kernel, fragment", [(transposed_and_plain, "b0.T"), (transposed_twice, ".T.T")])
def test_l0_transposes_the_load_cannot_absorb_are_refused_at_the_line(kernel, fragment):
    x = np.zeros((64, 64), np.float16)
    with pytest.raises(CodegenError) as e:
        kernel[1](x, x.copy(), np.zeros((64, 64), np.float32))
    assert_reported(e.value, "'asctile.transpose' op not supported on cube", fragment)


@asctile.jit
def l1_transposed_and_plain(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a0 = asctile.copy_in(asctile.global_tensor(a_ptr, [64, 64]), [0, 0], [64, 64], L.L0A)
    b_l1 = asctile.copy_in(asctile.global_tensor(b_ptr, [64, 64]), [0, 0], [64, 64], L.L1)
    acc = asctile.zeros_acc([64, 64], asctile.float32)
    asctile.matmul_acc(acc, a0, asctile.copy(b_l1.T, [0, 0], [64, 64], L.L0B))
    asctile.matmul_acc(acc, a0, asctile.copy(b_l1, [0, 0], [64, 64], L.L0B))
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [64, 64]), [0, 0])


def test_an_l1_tile_read_transposed_and_plain_is_refused():
    x = np.zeros((64, 64), np.float16)
    with pytest.raises(CodegenError) as e:
        l1_transposed_and_plain[1](x, x.copy(), np.zeros((64, 64), np.float32))
    assert_reported(e.value, "failed to legalize operation 'asctile.transpose'", "b_l1.T")


@asc2.jit
def april_l0b_transpose(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
    a = asc2.load(asc2.tensor(a_ptr, [64, 64]), [64, 64], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [64, 64]), [64, 64], offsets=[0, 0], location=asc2.TileLocation.L0B)
    asc2.store(asc2.matmul(a, b.transpose()), asc2.tensor(c_ptr, [64, 64]), offsets=[0, 0])


def test_april_kernels_keep_transposing_ub_tiles_only():
    x = np.zeros((64, 64), np.float16)
    with pytest.raises(CodegenError) as e:
        april_l0b_transpose[1](x, x.copy(), np.zeros((64, 64), np.float32))
    assert_reported(e.value, "transpose works on UB tiles only", "b.transpose()")


@asctile.jit
def auto_transposed(a_ptr: asctile.GlobalAddress, bt_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                    d_ptr: asctile.GlobalAddress, also_vector: asctile.ConstExpr):
    """B^T [40, 64] loaded at TensorLocation.Auto and transposed for the cube: a [64, 40] operand whose
    rows (80 bytes) a UB transpose could not hold; read by a vector op too, it stays in UB."""
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 64]), [0, 0], [32, 64])
    bt = asctile.copy_in(asctile.global_tensor(bt_ptr, [40, 64]), [0, 0], [40, 64])
    asctile.copy_out(a @ bt.T, asctile.global_tensor(c_ptr, [32, 40]), [0, 0])
    if also_vector:
        asctile.copy_out(bt * 2.0, asctile.global_tensor(d_ptr, [40, 64]), [0, 0])


@pytest.mark.parametrize("also_vector", [False, True])
def test_an_auto_load_transposed_for_the_cube_is_loaded_into_l1(also_vector):
    a, bt = randn((32, 64), np.float16, seed=7), randn((40, 64), np.float16, seed=8)
    c, d = np.zeros((32, 40), np.float32), np.zeros((40, 64), np.float16)
    auto_transposed[1](a, bt, c, d, also_vector)
    np.testing.assert_allclose(c, a.astype(np.float32) @ bt.astype(np.float32).T, rtol=1e-5, atol=1e-4)
    report = asc.runtime.last_launch_report()
    if also_vector:
        np.testing.assert_array_equal(d, bt * 2)
        assert report["peak_ub_bytes"] > 0 and "V" in report["pipes"]
    else:
        assert report["peak_ub_bytes"] == 0 and "V" not in report["pipes"], report
