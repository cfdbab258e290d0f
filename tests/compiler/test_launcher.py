"""The launch report's roofline, FLOPs and pipes, and the launcher's switches (ASC_CHECKS, ASC_BLOCK_ORDER):
exact figures from the platform's rates, so that a wrong term or operator shows."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
import asc.runtime.config as config
from asc.runtime.platforms import hardware
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn


@asc2.jit
def add_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int,
               T: asc.ConstExpr[int]):
    off = asc2.block_idx() * T
    x = asc2.load(asc2.tensor(x_ptr, [n]), [T], offsets=[off])
    y = asc2.load(asc2.tensor(y_ptr, [n]), [T], offsets=[off])
    asc2.store(x + y, asc2.tensor(out_ptr, [n]), offsets=[off])


@asc2.jit
def matmul_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                  M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int]):
    a = asc2.load(asc2.tensor(a_ptr, [M, K]), [M, K], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [K, N]), [K, N], offsets=[0, 0], location=asc2.TileLocation.L0B)
    asc2.store(a @ b, asc2.tensor(c_ptr, [M, N]), offsets=[0, 0])


@pytest.mark.parametrize("blocks", [8, 64])
def test_the_roofline_of_a_dma_bound_add_uses_both_rates_and_the_used_cores(blocks):
    hw = hardware(config.Platform.Ascend950PR_9599)
    T = 512
    n = blocks * T
    x, y = randn(n, np.float32, seed=1), randn(n, np.float32, seed=2)
    add_kernel[blocks](x, y, np.zeros(n, np.float32), n, T)
    r = add_kernel.last_launch
    assert (r["bytes_in"], r["bytes_out"], r["flops"]) == (2 * n * 4, n * 4, 0)
    cores = min(blocks, hw.aiv_cores)                    # 64 blocks run on the 32 vector cores
    ideal = max(2 * n * 4 / hw.mte2_bytes_per_tick, n * 4 / hw.mte3_bytes_per_tick) / cores
    # the two sides differ (two loads per store at different rates): a roofline of one side alone differs
    assert 2 * 4 / hw.mte2_bytes_per_tick != pytest.approx(4 / hw.mte3_bytes_per_tick, rel=0.05)
    assert r["roofline"] == {"bound": "dma", "ideal_ticks": round(ideal, 1),
                             "efficiency": round(ideal / r["ticks"], 4)}
    assert 0 < r["roofline"]["efficiency"] < 1


def test_a_matmul_reports_two_flops_per_multiply_accumulate_and_its_roofline():
    hw = hardware(config.Platform.Ascend950PR_9599)
    M, K, N = 32, 64, 48
    a = np.random.default_rng(3).random((M, K)).astype(np.float16)
    b = np.random.default_rng(4).random((K, N)).astype(np.float16)
    c = np.zeros((M, N), np.float32)
    matmul_kernel[1](a, b, c, M, K, N)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-3, atol=1e-3)
    r = matmul_kernel.last_launch
    assert r["flops"] == 2 * M * K * N
    assert r["pipes"]["M"] > 0
    mma = 2 * M * K * N / (2.0 * hw.mmad_macs_per_tick)
    dma = max((M * K + K * N) * 2 / hw.mte2_bytes_per_tick, M * N * 4 / hw.mte3_bytes_per_tick)
    assert mma < dma
    assert r["roofline"] == {"bound": "dma", "ideal_ticks": round(dma, 1), "efficiency": round(dma / r["ticks"], 4)}


def test_the_pipes_of_a_report_are_the_busy_ones_only():
    add_kernel[4](np.ones(2048, np.float32), np.ones(2048, np.float32), np.zeros(2048, np.float32), 2048, 512)
    pipes = add_kernel.last_launch["pipes"]
    assert {"MTE2", "V", "MTE3"} <= set(pipes) and "M" not in pipes and "MTE1" not in pipes
    assert all(isinstance(v, int) and v > 0 for v in pipes.values())


@asc2.jit
def same_window_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
    # every block stores x + its index over the same window: different values, a race
    t = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0]) + asc2.block_idx()
    asc2.store(t, asc2.tensor(out_ptr, [64]), offsets=[0])


@pytest.mark.parametrize("value,checked", [("on", True), ("0", True), ("false", True), (" OFF ", False), ("off", False)])
def test_only_the_word_off_turns_the_race_checks_off(value, checked, monkeypatch):
    monkeypatch.setenv("ASC_CHECKS", value)
    x, out = np.arange(64, dtype=np.float32), np.zeros(64, np.float32)
    if checked:
        with pytest.raises(KernelRuntimeError, match="two blocks write the same elements"):
            same_window_kernel[2](x, out)
    else:
        same_window_kernel[2](x, out)
        assert np.array_equal(out, x) or np.array_equal(out, x + 1)   # one block's values, unchecked


@pytest.mark.parametrize("spec", ["shuffle:7a", "shuffle:-3", "random", "reverse:3"])
def test_a_block_order_that_is_not_shuffle_with_a_numeric_seed_is_rejected(spec, monkeypatch):
    monkeypatch.setenv("ASC_BLOCK_ORDER", spec)
    with pytest.raises(ValueError, match=re.escape(f"ASC_BLOCK_ORDER={spec!r} is not a block order")):
        add_kernel[2](np.ones(1024, np.float32), np.ones(1024, np.float32), np.zeros(1024, np.float32), 1024, 512)


def test_a_natural_block_order_may_be_spelled_out(monkeypatch):
    monkeypatch.setenv("ASC_BLOCK_ORDER", " natural ")
    out = np.zeros(1024, np.float32)
    add_kernel[2](np.ones(1024, np.float32), np.ones(1024, np.float32), out, 1024, 512)
    assert np.all(out == 2) and "block_order" not in add_kernel.last_launch


@asc2.jit
def reused_operands_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                           M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int], R: asc.ConstExpr[int]):
    """The same operands multiplied R times into one accumulator: FLOPs grow, bytes do not."""
    a = asc2.load(asc2.tensor(a_ptr, [M, K]), [M, K], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [K, N]), [K, N], offsets=[0, 0], location=asc2.TileLocation.L0B)
    acc = asc2.zeros_acc([M, N], asc.float32)
    for _ in asc.static_range(R):
        asc2.matmul_acc(a, b, acc)
    asc2.store(acc, asc2.tensor(c_ptr, [M, N]), offsets=[0, 0])


def test_a_kernel_reusing_its_operands_is_cube_bound_at_the_mmad_rate():
    hw = hardware(config.Platform.Ascend950PR_9599)
    M = K = N = 64
    R = 64
    a = np.full((M, K), 0.5, np.float16)
    b = np.full((K, N), 0.25, np.float16)
    c = np.zeros((M, N), np.float32)
    reused_operands_kernel[1](a, b, c, M, K, N, R)
    np.testing.assert_array_equal(c, np.full((M, N), R * K * 0.125, np.float32))
    r = reused_operands_kernel.last_launch
    assert r["flops"] == 2 * M * K * N * R
    mma = 2 * M * K * N * R / (2.0 * hw.mmad_macs_per_tick)
    dma = max((M * K + K * N) * 2 / hw.mte2_bytes_per_tick, M * N * 4 / hw.mte3_bytes_per_tick)
    assert mma > dma
    assert r["roofline"] == {"bound": "cube", "ideal_ticks": round(mma, 1), "efficiency": round(mma / r["ticks"], 4)}


def test_asc_trace_dir_writes_one_chrome_trace_per_launch(tmp_path, monkeypatch):
    import json
    x = np.ones(1024, np.float32)
    add_kernel[2](x, x, np.zeros(1024, np.float32), 1024, 512)
    assert "timeline" not in add_kernel.last_launch          # not recording: no timeline, no file
    monkeypatch.setenv("ASC_TRACE_DIR", str(tmp_path / "traces"))
    monkeypatch.setenv("ASC_TRACE_PREFIX", "case 1/")
    for _ in range(2):
        add_kernel[2](x, x, np.zeros(1024, np.float32), 1024, 512)
    assert "timeline" in add_kernel.last_launch
    files = sorted(p.name for p in (tmp_path / "traces").iterdir())
    assert len(files) == 2 and all(re.fullmatch(r"case_1_\d{4}-add_kernel\.json", f) for f in files)
    trace = json.loads((tmp_path / "traces" / files[-1]).read_text())
    names = {e.get("name") for e in trace["traceEvents"]}
    assert any(e.get("ph") == "X" for e in trace["traceEvents"]) and names


@asc2.jit
def _copy_row(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
    asc2.store(asc2.load(asc2.tensor(x_ptr, [8]), [8], offsets=[0]), asc2.tensor(out_ptr, [8]), offsets=[0])


def test_a_launcher_replaced_after_a_first_launch_takes_the_next_launches(monkeypatch):
    """Tools swap ``asc.runtime.launcher.launch`` (the harness's trace check records the kernels a file
    launches instead of running them): a kernel launched before the swap must not keep the old one."""
    import asc.runtime.launcher as launcher
    x, out = np.arange(8, dtype=np.float32), np.zeros(8, np.float32)
    _copy_row[1](x, out)
    np.testing.assert_array_equal(out, x)
    seen = []
    monkeypatch.setattr(launcher, "launch", lambda jit_fn, compiled, core_num, runtime: seen.append(jit_fn.__name__))
    out[:] = 0
    _copy_row[1](x, out)
    assert seen == ["_copy_row"] and not out.any()     # the replacement ran instead
    monkeypatch.undo()
    _copy_row[1](x, out)
    np.testing.assert_array_equal(out, x)
