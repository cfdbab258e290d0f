"""K tails of August matmuls: a copy_in into L1 / L0A / L0B whose window runs past K holds zeros there
(pyasc-dev lowers the load as Nd2Nz plus a Fill of the clipped fractals with the load's pad value, 0 by
default), so a K that is not a multiple of the L1 step gives numpy's product; a UB load keeps its
clipped part undefined, and a product reading it warns at the matmul naming the load's line."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from asc.experimental import asctile
from asc.runtime import last_launch_report

from kernel_checks import randn

L = asctile.TensorLocation


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


@asctile.jit
def k_stepped(a_ptr: asctile.GlobalAddress, bt_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
              m: asctile.ConstExpr, n: asctile.ConstExpr, k: asctile.ConstExpr, bk: asctile.ConstExpr,
              where: asctile.ConstExpr):
    """C = A @ B^T, K in L1 steps of ``bk`` (the last one clipped at K), each step fed to the cube in
    64-wide L0 windows; ``where``: the location of the L1-step loads (L1, or Auto resolving to L1)."""
    a_gm, bt_gm = asctile.global_tensor(a_ptr, [m, k]), asctile.global_tensor(bt_ptr, [n, k])
    acc = asctile.zeros_acc([m, n], asctile.float32)
    for kk in range(asctile.ceildiv(k, bk)):
        if where == "L1":
            a_l1 = asctile.copy_in(a_gm, [0, kk * bk], [m, bk], L.L1)
            bt_l1 = asctile.copy_in(bt_gm, [0, kk * bk], [n, bk], L.L1)
        else:
            a_l1 = asctile.copy_in(a_gm, [0, kk * bk], [m, bk])
            bt_l1 = asctile.copy_in(bt_gm, [0, kk * bk], [n, bk])
        for j in range(bk // 64):
            a0 = asctile.copy(a_l1, [0, j * 64], [m, 64], L.L0A)
            b0 = asctile.copy(bt_l1, [0, j * 64], [n, 64], L.L0B).T
            asctile.matmul_acc(acc, a0, b0)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [m, n]), [0, 0])


@pytest.mark.parametrize("k", [257, 800, 100])
@pytest.mark.parametrize("where", ["L1", "Auto"])
def test_k_not_a_multiple_of_the_l1_step_matches_numpy(k, where):
    m, n = 32, 48
    a, bt = randn((m, k), np.float16, seed=k), randn((n, k), np.float16, seed=k + 1)
    c = np.full((m, n), np.nan, np.float32)
    k_stepped[1](a, bt, c, m, n, k, 256, where)  # K = 257: the last step holds one element of K
    np.testing.assert_allclose(c, a.astype(np.float32) @ bt.astype(np.float32).T, rtol=1e-5, atol=1e-3)
    assert last_launch_report()["warnings"] == []


@asctile.jit
def l0_tail(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    """A GM -> L0A / L0B load straight past K = 40 (a [16, 64] x [64, 32] product)."""
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 40]), [0, 0], [16, 64], L.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [40, 32]), [0, 0], [64, 32], L.L0B)
    asctile.copy_out(a @ b, asctile.global_tensor(c_ptr, [16, 32]), [0, 0])


def test_l0a_and_l0b_loads_past_k_pad_with_zeros():
    a, b = randn((16, 40), np.float32, seed=7), randn((40, 32), np.float32, seed=8)
    c = np.zeros((16, 32), np.float32)
    l0_tail[1](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-4)


@asctile.jit
def ub_k_tail(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    """A UB load past K = 40 moved to the cube: its clipped columns are undefined (DataCopyPad)."""
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 40]), [0, 0], [16, 64], L.UB)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [40, 32]), [0, 0], [64, 32], L.L0B)
    asctile.copy_out(asctile.matmul(a.to(L.L1), b), asctile.global_tensor(c_ptr, [16, 32]), [0, 0])


def test_a_ub_load_past_k_warns_at_the_matmul_naming_the_load():
    a, b = randn((16, 40), np.float32, seed=9), randn((40, 32), np.float32, seed=10)
    ub_k_tail[1](a, b, np.zeros((16, 32), np.float32))
    ws = [w for w in last_launch_report()["warnings"] if "undefined" in w]
    use, load = line_of(ub_k_tail, "asctile.matmul("), line_of(ub_k_tail, "L.UB)")
    assert ws and f".py:{use}:" in ws[0].split(" ")[0] and f".py:{load}:" in ws[0], ws


@asctile.jit
def auto_vector_tail(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    """An Auto load a vector op reads stays in UB: its clipped part stays undefined (no cube padding)."""
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 40]), [0, 0], [8, 64])
    asctile.copy_out(asctile.reduce_sum(x, 1), asctile.global_tensor(out_ptr, [8]), [0])


def test_an_auto_load_resolved_to_ub_keeps_its_tail_undefined():
    auto_vector_tail[1](randn((8, 40), np.float32, seed=11), np.zeros(8, np.float32))
    ws = [w for w in last_launch_report()["warnings"] if "undefined" in w]
    assert ws and f".py:{line_of(auto_vector_tail, 'asctile.copy_in(')}:" in ws[0], ws
