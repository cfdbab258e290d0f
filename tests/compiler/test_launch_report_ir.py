"""Launch reports (ticks, pipes, bytes, ASC_LAUNCH_REPORT) and the printed IR of a kernel."""
from __future__ import annotations

import json

import numpy as np
import pytest

import asc
import asc2
import asc.runtime
import asc.runtime.config as config
from asc.ir import verify_function
from asc.ir.verifier import VerificationError

from kernel_checks import randn


@asc2.jit
def add_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int,
               tile_size: asc.ConstExpr[int], tile_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    o_gm = asc2.tensor(out_ptr, [size])
    base = asc2.block_idx() * tile_size * tile_per_block
    for i in asc2.range(tile_per_block, unroll_factor=2, parallel=True):
        off = base + i * tile_size
        asc2.store(asc2.load(x_gm, [tile_size], offsets=[off]) + asc2.load(y_gm, [tile_size], offsets=[off]),
                   o_gm, offsets=[off])


def _launch_add(n=8192, cores=8, tile=256, dtype=np.float32):
    x = randn(n, dtype, seed=61)
    y = randn(n, dtype, seed=62)
    out = np.zeros_like(x)
    add_kernel[cores](x, y, out, n, tile, asc.ceildiv(asc.ceildiv(n, tile), cores))
    np.testing.assert_array_equal(out, x + y)
    return add_kernel.last_launch


def test_launch_report_contents():
    r = _launch_add()
    assert r is asc.runtime.last_launch_report()
    assert r["kernel"] == "add_kernel" and r["platform"] == "Ascend950PR_9599" and r["core_num"] == 8
    assert isinstance(r["ticks"], int) and r["ticks"] > 0
    assert r["bytes_in"] == 2 * 8192 * 4 and r["bytes_out"] == 8192 * 4
    assert {"MTE2", "V", "MTE3"} <= set(r["pipes"]) and all(v > 0 for v in r["pipes"].values())
    assert r["ticks"] > max(r["pipes"].values())
    assert r["peak_ub_bytes"] >= 3 * 256 * 4
    assert r["warnings"] == []
    json.dumps(r)


def test_more_work_per_block_costs_more_ticks():
    small = _launch_add(n=4096, cores=8)["ticks"]
    large = _launch_add(n=32768, cores=8)["ticks"]
    spread = _launch_add(n=32768, cores=32)["ticks"]
    assert small < large
    assert spread < large


def test_ticks_depend_on_the_platform():
    c310 = _launch_add()["ticks"]
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    r = _launch_add()
    assert r["platform"] == "Ascend910B1" and r["ticks"] != c310


def test_asc_launch_report_file_gets_one_json_line_per_launch(tmp_path, monkeypatch):
    path = tmp_path / "reports.jsonl"
    monkeypatch.setenv("ASC_LAUNCH_REPORT", str(path))
    _launch_add(cores=4)
    _launch_add(cores=8)
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    records = [json.loads(line) for line in lines]
    assert [r["core_num"] for r in records] == [4, 8]
    assert all(r["kernel"] == "add_kernel" and r["ticks"] > 0 for r in records)


def test_no_report_file_without_the_variable(tmp_path, monkeypatch):
    monkeypatch.delenv("ASC_LAUNCH_REPORT", raising=False)
    monkeypatch.chdir(tmp_path)
    _launch_add()
    assert list(tmp_path.iterdir()) == []


def test_a_failing_launch_does_not_replace_the_last_report():
    before = _launch_add()
    x = np.zeros(100, np.float32)
    with pytest.raises(RuntimeError, match="larger than"):
        add_kernel[2](x, x, x.copy(), 256, 128, 1)   # tensor larger than the buffers
    assert asc.runtime.last_launch_report() is before


# -- IR ---------------------------------------------------------------------------------------------------------------
def test_ir_text_shows_types_locations_constexprs_and_regions():
    x = np.zeros(1024, np.float16)
    text = add_kernel.ir(x, x, x.copy(), 1024, 128, 2)
    lines = text.splitlines()
    assert lines[0] == "func @add_kernel(%0: ptr<float16>, %1: ptr<float16>, %2: ptr<float16>, %3: int32) {"
    assert lines[1] == "  // constexpr: tile_size=128, tile_per_block=2"
    assert lines[-1] == "}"
    assert "tensor.make(%0, %3) : tensor<?xfloat16>" in text
    assert "scf.for(" in text and "{unroll_factor=2, parallel=True, has_dma=True}" in text
    load = [l for l in lines if "tile.load" in l]
    assert len(load) == 2 and all(": tile<128xfloat16, UB>" in l for l in load)
    assert any("tile.binary(" in l and "{kind='add'}" in l for l in lines)
    # every op carries the source location of the line that produced it
    add_line = next(l for l in lines if "tile.binary(" in l)
    assert f"// {__file__}:" in add_line
    src_line = int(add_line.rsplit(":", 2)[-2])
    import linecache
    assert "asc2.load(x_gm" in linecache.getline(__file__, src_line)


def test_ir_of_a_cube_kernel_shows_memory_locations():
    import torch

    @asc2.jit
    def k(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
        a = asc2.load(asc2.tensor(a_ptr, [16, 32]), [16, 32], offsets=[0, 0], location=asc2.TileLocation.L1)
        b = asc2.load(asc2.tensor(b_ptr, [32, 16]), [32, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
        acc = asc2.zeros_acc([16, 16], asc.float32)
        asc2.matmul_acc(asc2.copy(a, location=asc2.TileLocation.L0A), b, acc)
        asc2.store(asc2.relu(acc).to(asc.float16), asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])
    a, b, c = torch.zeros(16, 32).half(), torch.zeros(32, 16).half(), torch.zeros(16, 16).half()
    text = k.ir(a, b, c)
    for t in ("tile<16x32xfloat16, L1>", "tile<16x32xfloat16, L0A>", "tile<32x16xfloat16, L0B>",
              "tile<16x16xfloat32, L0C>", "tile<16x16xfloat16, L0C>"):
        assert t in text, t
    assert "tile.zeros_acc" in text and "tile.matmul_acc" in text and "tile.copy" in text


def test_ir_of_runtime_if_and_while_shows_both_regions_and_yields():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        o = asc2.tensor(out_ptr, [8])
        v = asc2.zeros([8], dtype=asc.int32)
        i = n * 1
        while i > 0:
            i = i - 1
            if i > 3:
                v = v + 2
            else:
                v = v + 1
        asc2.store(v, o, offsets=[0])
    out = np.zeros(8, np.int32)
    k[1](out, 6)
    assert np.all(out == 2 + 2 + 1 + 1 + 1 + 1)
    text = k.ir(out, 6)
    assert "scf.while(" in text and "scf.condition(" in text and "scf.if(" in text
    assert text.count("} {") == 2   # the second region of the while and of the if
    assert text.count("scf.yield(") == 3


def test_verifier_rejects_a_use_before_definition():
    from asc.ir import Block, Function, ScalarType, Value
    from asc.ir.core import Op
    from asc.language.core import dtype as dt
    body = Block()
    dangling = Value(ScalarType(dt.int32))
    body.ops.append(Op("scalar.binary", [dangling, dangling], [ScalarType(dt.int32)], {"kind": "add"}))
    with pytest.raises(VerificationError, match="used before it is defined"):
        verify_function(Function("f", [], [], body))


# -- UB planning ---------------------------------------------------------------------------------------------------
def _chain_kernel(**opts):
    @asc2.jit(**opts)
    def chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int],
              UF: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [n])
        o_gm = asc2.tensor(out_ptr, [n])
        for i in asc2.range(asc.ceildiv(n, T), unroll_factor=UF):
            x = asc2.load(x_gm, [T], offsets=[i * T])
            y = x * 2.0
            z = y + 1.0
            asc2.store(z, o_gm, offsets=[i * T])
    return chain


@pytest.mark.parametrize("opts,uf,expected", [
    ({}, 1, 3 * 4096), ({}, 2, 2 * 3 * 4096),                     # C310 static allocation: every tile, every copy
    ({"reuse_ub": True}, 2, 2 * 4096), ({"static_alloc": False}, 2, 2 * 4096),   # peak of live tiles
])
def test_peak_ub_bytes_follow_the_allocation_scheme(opts, uf, expected):
    k = _chain_kernel(**opts)
    x = randn(4096, np.float32, seed=63)
    out = np.zeros_like(x)
    k[1](x, out, x.size, 1024, uf)
    np.testing.assert_array_equal(out, x * 2 + 1)
    assert k.last_launch["peak_ub_bytes"] == expected


def test_reuse_ub_avoids_an_overflow():
    x = randn(3 * 25600, np.float32, seed=64)          # three live-at-once-free tiles of 100 KiB each
    out = np.zeros_like(x)
    with pytest.raises(RuntimeError, match="UB overflow: 253952 is available, 307200 is used."):
        _chain_kernel()[1](x, out, x.size, 25600, 1)
    _chain_kernel(reuse_ub=True)[1](x, out, x.size, 25600, 1)
    np.testing.assert_array_equal(out, x * 2 + 1)
