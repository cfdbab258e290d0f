"""Simulator speed vs plain numpy, and cold trace + compile time.

    python bench/sim_speed.py

Prints, for each kernel, the median wall time of a repeated launch on the embedded simulator (trace
cached; a launch of a structure that ran before replays its recorded data steps, docs/simulator.md), the
median time of the same computation in plain numpy and their ratio (goal: <= 3x; <= 4x for the loop that
carries a value); then the launch run in full with every check on (``ASC_REPLAY=off``: what the first
launch of a structure costs) and its ratio to numpy; then the full run with ``ASC_CHECKS=off`` (an
internal switch that drops the race / coverage / dependency bookkeeping, for measuring it) and the cost
of the checks in a full run (goal: <= 1.3x). Then the median cold trace + compile time of a golden-sized
kernel. Ratios are measured in one run, the modes interleaved. Indented rows are variants without a goal
of their own (a plain sequential loop, K-tiled matmul). The fixed cost of a launch (a kernel of one
store per block) is printed against the numpy row sum: it bounds how close a small kernel can get to numpy.

The "first" column is what a user's first launch of a kernel costs in a process that imported asc: a
fresh ``@jit`` object over the same function (made outside the timing, as decorating happens at import)
and an empty on-disk cache, so the launch traces and compiles the kernel, runs it in full, records its
replay tape and writes the cache entry (goal: <= 2x numpy for the peer kernels). "cached" is the same
launch with the kernel already in the on-disk cache (the program run a second time: read back, not traced).

numpy's BLAS runs on one thread (``OPENBLAS_NUM_THREADS=1`` unless set): on this shared 2-core machine a
threaded 512^3 GEMM took 1.4-100 ms from run to run; the engine's GEMM runs on the same BLAS, so the
matmul ratio compares like with like. ``--cpu`` times with the process's CPU time instead of the wall
clock (every call then runs on the timing thread, so CPU time is the work done, whatever else the
machine runs).

    python bench/sim_speed.py --cpu
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # (before numpy loads its BLAS)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import asc  # noqa: E402
import asc2  # noqa: E402
import asc.runtime.config as config  # noqa: E402
from asc.runtime.jit import JITFunction  # noqa: E402

CORES = 16
CLOCK = time.process_time if "--cpu" in sys.argv[1:] else time.perf_counter


@asc2.jit
def add_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int,
               tile: asc.ConstExpr[int], tiles_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base = asc2.block_idx() * tile * tiles_per_block
    for i in asc2.range(tiles_per_block, unroll_factor=2, parallel=True):
        off = base + i * tile
        x = asc2.load(x_gm, [tile], offsets=[off])
        y = asc2.load(y_gm, [tile], offsets=[off])
        asc2.store(x + y, out_gm, offsets=[off])


@asc2.jit
def add_kernel_sequential_loop(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                               size: int, tile: asc.ConstExpr[int], tiles_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base = asc2.block_idx() * tile * tiles_per_block
    for i in asc2.range(tiles_per_block):
        off = base + i * tile
        asc2.store(asc2.load(x_gm, [tile], offsets=[off]) + asc2.load(y_gm, [tile], offsets=[off]),
                   out_gm, offsets=[off])


@asc2.jit
def softmax_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=2, parallel=True):
        row = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        asc2.store(asc2.softmax(row), out_gm, offsets=[r, 0])


@asc2.jit
def rms_norm_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int,
                    cols: asc.ConstExpr[int], eps: asc.ConstExpr[float]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    g_gm = asc2.tensor(g_ptr, [1, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=2, parallel=True):
        x = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        inv = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) / cols + eps)
        g = asc2.load(g_gm, [1, cols], offsets=[0, 0])
        asc2.store(x * g * inv, out_gm, offsets=[r, 0])


@asc2.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, a_shape: asc.ConstExpr, b_shape: asc.ConstExpr, c_shape: asc.ConstExpr,
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
        b_j = asc2.load(b_gm, [b_shape[0], n_tile], offsets=[0, b_offset], location=asc2.TileLocation.L0B)
        for i in range(m_tiles_per_block):
            a_offset = m_base_off + i * m_tile
            a_i = asc2.load(a_gm, [m_tile, a_shape[1]], offsets=[a_offset, 0], location=asc2.TileLocation.L0A)
            asc2.store(a_i @ b_j, c_gm, offsets=[a_offset, b_offset])


@asc2.jit
def ktiled_matmul_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                         M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int],
                         TM: asc.ConstExpr[int], TK: asc.ConstExpr[int], TN: asc.ConstExpr[int],
                         STAGE_IN_L1: asc.ConstExpr[bool]):
    a_gm = asc2.tensor(a_ptr, [M, K])
    b_gm = asc2.tensor(b_ptr, [K, N])
    c_gm = asc2.tensor(c_ptr, [M, N])
    m_off = (asc2.block_idx() // (N // TN)) * TM
    n_off = (asc2.block_idx() % (N // TN)) * TN
    acc = asc2.zeros_acc([TM, TN], asc.float32)
    for kk in asc.static_range(K // TK):
        if STAGE_IN_L1:
            a = asc2.copy(asc2.load(a_gm, [TM, TK], offsets=[m_off, kk * TK], location=asc2.TileLocation.L1),
                          location=asc2.TileLocation.L0A)
            b = asc2.copy(asc2.load(b_gm, [TK, TN], offsets=[kk * TK, n_off], location=asc2.TileLocation.L1),
                          location=asc2.TileLocation.L0B)
        else:
            a = asc2.load(a_gm, [TM, TK], offsets=[m_off, kk * TK], location=asc2.TileLocation.L0A)
            b = asc2.load(b_gm, [TK, TN], offsets=[kk * TK, n_off], location=asc2.TileLocation.L0B)
        asc2.matmul_acc(a, b, acc)
    asc2.store(acc, c_gm, offsets=[m_off, n_off])


@asc2.jit
def row_sum_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
                   C: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, 8])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        acc = asc2.zeros([1, C], dtype=asc.float32)
        for j in asc2.range(cols // C):          # carries acc from one column tile to the next
            acc = acc + asc2.load(x_gm, [1, C], offsets=[r, j * C])
        asc2.store(asc2.full([1, 8], asc2.reduce_sum(acc), dtype=asc.float32), out_gm, offsets=[r, 0])


@asc2.jit
def one_store_kernel(out_ptr: asc.GlobalAddress, rows: int):
    """The fixed cost of a launch: one [1, 8] store per block, nothing else."""
    out_gm = asc2.tensor(out_ptr, [rows, 8])
    asc2.store(asc2.full([1, 8], 1.0, dtype=asc.float32), out_gm, offsets=[asc2.block_idx(), 0])


def median_time(fn, repeat=15):
    fn()
    times = []
    for _ in range(repeat):
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return statistics.median(times)


def first_launch_time(kernel, call, repeat=7, disk_cached=False):
    """Median time of a kernel's first launch (``call(k)`` launches ``k``): each time a fresh ``@jit`` object
    over the same function, with an on-disk cache that has nothing yet (or, ``disk_cached``, that holds the
    kernel from an earlier run: a program run again)."""
    saved = os.environ.get("PYASC_CACHE_DIR")
    times = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if disk_cached:
                os.environ["PYASC_CACHE_DIR"] = tmp
                call(JITFunction(kernel.fn, **kernel.options))
            for i in range(repeat):
                fresh = JITFunction(kernel.fn, **kernel.options)
                os.environ["PYASC_CACHE_DIR"] = tmp if disk_cached else os.path.join(tmp, str(i))
                t0 = CLOCK()
                call(fresh)
                times.append(CLOCK() - t0)
    finally:
        if saved is None:
            os.environ.pop("PYASC_CACHE_DIR", None)
        else:
            os.environ["PYASC_CACHE_DIR"] = saved
    return statistics.median(times)


def sim_times(kernel, call, repeat=15):
    """Median launch times of ``call(kernel)``: a repeated launch (back to back, as numpy's are measured), a
    first launch (``first_launch_time``: traced, and read from the on-disk cache), and the launch run in full with the checks on and with
    ``ASC_CHECKS=off`` (those two interleaved so that both see the same machine load)."""
    fn = lambda: call(kernel)  # noqa: E731
    for k in ("ASC_REPLAY", "ASC_CHECKS"):
        os.environ.pop(k, None)
    replayed = median_time(fn, repeat)
    first = first_launch_time(kernel, call, repeat)
    cached = first_launch_time(kernel, call, repeat, disk_cached=True)
    full, off = [], []
    os.environ["ASC_REPLAY"] = "off"
    for mode in ("on", "off"):
        os.environ["ASC_CHECKS"] = mode
        fn()
    for _ in range(repeat):
        for mode, acc in (("on", full), ("off", off)):
            os.environ["ASC_CHECKS"] = mode
            t0 = CLOCK()
            fn()
            acc.append(CLOCK() - t0)
    for k in ("ASC_REPLAY", "ASC_CHECKS"):
        os.environ.pop(k, None)
    return replayed, first, cached, statistics.median(full), statistics.median(off)


def main():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rng = np.random.default_rng(2026)
    rows = []   # (name, replayed s, first launch s, first from the disk cache s, full s, full without checks s,
    #             numpy s, goal or None)

    n, tile = 1 << 20, 1024
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.empty_like(x)
    tpb = asc.ceildiv(asc.ceildiv(n, tile), CORES)
    ref = median_time(lambda: np.add(x, y, out=np.empty_like(x)))
    sim = sim_times(add_kernel, lambda kern: kern[CORES](x, y, out, n, tile, tpb))
    np.testing.assert_array_equal(out, x + y)
    rows.append(("add f32 [1048576], tile 1024", *sim, ref, 3.0))
    out[:] = 0
    sim = sim_times(add_kernel_sequential_loop, lambda kern: kern[CORES](x, y, out, n, tile, tpb))
    np.testing.assert_array_equal(out, x + y)
    rows.append(("  the same with a plain (sequential) asc2.range loop", *sim, ref, None))

    xs = rng.random((256, 1024), dtype=np.float32) * 4 - 2
    outs = np.empty_like(xs)

    def np_softmax():
        e = np.exp(xs - xs.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    ref = median_time(np_softmax)
    sim = sim_times(softmax_kernel, lambda kern: kern[CORES](xs, outs, 256, 1024))
    np.testing.assert_allclose(outs, np_softmax(), rtol=1e-5, atol=1e-6)
    rows.append(("softmax f32 [256, 1024], one row per iteration", *sim, ref, 3.0))

    g = rng.random(1024, dtype=np.float32) + 0.5

    def np_rms():
        return xs / np.sqrt((xs * xs).mean(axis=1, keepdims=True) + 1e-5) * g
    ref = median_time(np_rms)
    sim = sim_times(rms_norm_kernel, lambda kern: kern[CORES](xs, g, outs, 256, 1024, 1e-5))
    np.testing.assert_allclose(outs, np_rms(), rtol=1e-4, atol=1e-5)
    rows.append(("rms_norm f32 [256, 1024], one row per iteration", *sim, ref, 3.0))

    sums = np.empty((256, 8), np.float32)
    ref = ref_row_sum = median_time(lambda: xs.sum(axis=1))
    sim = sim_times(row_sum_kernel, lambda kern: kern[CORES](xs, sums, 256, 1024, 64))
    np.testing.assert_allclose(sums, np.repeat(xs.sum(axis=1, keepdims=True), 8, 1), rtol=1e-4, atol=1e-3)
    rows.append(("row sum f32 [256, 1024] over 16 column tiles (carried acc)", *sim, ref, 4.0))
    big = rng.random((4096, 1024), dtype=np.float32)
    big_sums = np.empty((4096, 8), np.float32)
    big_ref = median_time(lambda: big.sum(axis=1), repeat=7)
    sim = sim_times(row_sum_kernel, lambda kern: kern[CORES](big, big_sums, 4096, 1024, 64), repeat=7)
    np.testing.assert_allclose(big_sums[:, 0], big.sum(axis=1), rtol=1e-4, atol=1e-3)
    rows.append(("  the same over 4096 rows (16 MiB)", *sim, big_ref, None))

    m = k = nn = 512
    a = torch.rand((m, k), dtype=torch.float16)
    b = torch.rand((k, nn), dtype=torch.float16)
    c = torch.zeros((m, nn), dtype=torch.float32)
    mt = nt = 64
    blocks = 64
    mtpb = (m // mt) * (nn // nt) // blocks
    af, bf = a.numpy().astype(np.float32), b.numpy().astype(np.float32)
    ref = median_time(lambda: af @ bf, repeat=31)
    sim = sim_times(matmul_kernel, lambda kern: kern[blocks](a, b, c, a.shape, b.shape, c.shape, mt, mtpb, nt, 1))
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    rows.append(("matmul f16 512x512x512, 64x64 tiles, 64 blocks (vs numpy f32)", *sim, ref, 3.0))
    # Not a goal of their own: the K-tiled forms of the same product (4 K steps of 128).
    for stage, label in ((False, "K-tiled, zeros_acc + matmul_acc"), (True, "K-tiled, staged through L1")):
        sim = sim_times(ktiled_matmul_kernel, lambda kern: kern[blocks](a, b, c, m, k, nn, mt, 128, nt, stage), repeat=7)
        torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
        rows.append((f"  {label}", *sim, ref, None))

    v1_rows(rows, x, y)

    print(f"{'kernel':62s} {'sim ms':>8s} {'numpy ms':>9s} {'ratio':>7s} {'goal':>5s} {'first ms':>8s} {'ratio':>7s} "
          f"{'cached ms':>9s} {'ratio':>7s} {'full ms':>8s} {'ratio':>7s} {'no-check ms':>11s} {'checks':>7s}")
    for name, rep, first, cached, full, off, r, goal in rows:
        print(f"{name:62s} {rep * 1e3:8.3f} {r * 1e3:9.3f} {rep / r:6.2f}x {('<=' + format(goal, 'g')) if goal else '':>5s} "
              f"{first * 1e3:8.3f} {first / r:6.2f}x {cached * 1e3:9.3f} {cached / r:6.2f}x {full * 1e3:8.3f} "
              f"{full / r:6.2f}x {off * 1e3:11.3f} {full / off:6.2f}x")
    print(f"({'CPU' if CLOCK is time.process_time else 'wall'} time) sim: a repeated launch (replayed); first: a "
          "kernel's first launch (traced, run in full, recorded); cached: the same with the kernel in the on-disk "
          "cache (a program run again); full: the launch run in full (ASC_REPLAY=off), as the first launch of a "
          "new structure of a traced kernel runs; goal for checks: <= 1.3x of the full run with ASC_CHECKS=off")
    # The first launch of a structure runs in full and records its steps: what recording adds to it.
    compiled = row_sum_kernel.compile((xs, sums, 256, 1024, 64), {})[0]
    recording, full = [], []
    for _ in range(15):
        compiled.tapes.clear()
        t0 = CLOCK()
        row_sum_kernel[CORES](xs, sums, 256, 1024, 64)
        recording.append(CLOCK() - t0)
        os.environ["ASC_REPLAY"] = "off"
        t0 = CLOCK()
        row_sum_kernel[CORES](xs, sums, 256, 1024, 64)
        full.append(CLOCK() - t0)
        os.environ.pop("ASC_REPLAY")
    print(f"first launch of the row sum, recording: {statistics.median(recording) * 1e3:.3f} ms "
          f"(the full run alone: {statistics.median(full) * 1e3:.3f} ms)")
    ones = np.empty((CORES, 8), np.float32)
    fixed = median_time(lambda: one_store_kernel[CORES](ones, CORES), repeat=101)
    os.environ["ASC_REPLAY"] = "off"
    fixed_full = median_time(lambda: one_store_kernel[CORES](ones, CORES), repeat=101)
    os.environ.pop("ASC_REPLAY")
    print(f"fixed cost of a launch (one store per block, {CORES} blocks): {fixed * 1e3:.3f} ms replayed, "
          f"{fixed_full * 1e3:.3f} ms in full (= {fixed / ref_row_sum:.2f}x / {fixed_full / ref_row_sum:.2f}x the "
          "numpy row sum)")

    # Cold trace + compile: a golden-sized kernel traced from scratch each time (no caches).
    times = []
    for _ in range(30):
        t0 = CLOCK()
        rms_norm_kernel.compile((xs, g, outs, 256, 1024, 1e-5), {"always_compile": True})
        times.append(CLOCK() - t0)
    print(f"cold trace + compile (rms_norm full row): median {statistics.median(times) * 1e3:.2f} ms "
          f"(min {min(times) * 1e3:.2f}, max {max(times) * 1e3:.2f})")


def _upstream_tutorial(name, path):
    """An upstream v1 tutorial module (../shared/upstream/pyasc-v1/tutorials beside the repository), or None."""
    import importlib.util
    from pathlib import Path
    for base in Path(__file__).resolve().parents[1:4]:
        f = base / "shared" / "upstream" / "pyasc-v1" / "tutorials" / path
        if f.is_file():
            spec = importlib.util.spec_from_file_location(name, f)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
    return None


def v1_rows(rows, x, y):
    """pyasc v1 tutorials 01 (flags) and 02 (queues) at 64x their size (1M elements, 8 blocks of 16 tiles).
    A first launch (the "full" column: ``ASC_REPLAY=off`` costs what the first launch of a new structure
    costs, recording included, and takes the same traced path) runs the kernel's Python body once with a
    symbolic block index, block 0's 160 instructions through the race checks and the tick model, and every
    block's data across the blocks (sim/pipes/tracer.py); a repeated launch replays the recorded data ops with
    the blocks as lanes (one numpy add here: copies read through and folded into the add, the 16 trips
    merged), its checks' verdict and ticks reused. The line after the rows times a process's very first
    launch (``cold_v1_launch``). ``bench/v1_paths.py`` prints which path each of upstream's v1 launches takes."""
    t1 = _upstream_tutorial("tutorial_01_add", "01_add/add.py")
    t2 = _upstream_tutorial("tutorial_02_add_framework", "02_add_framework/add_framework.py")
    if t1 is None or t2 is None:
        print("(v1 rows skipped: ../shared/upstream/pyasc-v1 is not beside the repository)")
        return
    z = np.zeros_like(x)
    ref = median_time(lambda: np.add(x, y, out=np.empty_like(x)))
    n = x.size
    sim = sim_times(t1.vadd_kernel, lambda kern: kern[8](x, y, z, n // 8), repeat=7)
    np.testing.assert_array_equal(z, x + y)
    rows.append(("v1 tutorial 01 add f32 [1048576] (flags), 8 blocks", *sim, ref, 5.0))
    z[:] = 0
    sim = sim_times(t2.vadd_kernel, lambda kern: kern[8](x, y, z, n // 8, n // 8 // 16), repeat=7)
    np.testing.assert_array_equal(z, x + y)
    rows.append(("v1 tutorial 02 add f32 [1048576] (queues), 8 blocks", *sim, ref, 5.0))
    print(cold_v1_launch(t1.__file__))


_COLD = """
import time
t0 = time.perf_counter()
import importlib.util, numpy as np, asc, asc.runtime.config as config
t1 = time.perf_counter()
config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
spec = importlib.util.spec_from_file_location("t", {path!r})
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
x = np.random.default_rng(0).random(1 << 20, dtype=np.float32)
z = np.zeros_like(x)
t2 = time.perf_counter()
mod.vadd_kernel[8](x, x, z, x.size // 8)
t3 = time.perf_counter()
mod.vadd_kernel[8](x, x, z, x.size // 16)
t4 = time.perf_counter()
print(t1 - t0, t3 - t2, t4 - t3)
"""


def cold_v1_launch(path):
    """A user's very first launch, in a fresh process: the full column above is the first launch of a
    structure in a process that launched the kernel before (a new structure costs that: measured equal to
    clearing the kernel's recorded launches); the first launch of a process also imports the engine and
    analyses the kernel's source once."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", _COLD.format(path=path)], capture_output=True, text=True, check=True)
    imp, first, second = (float(v) * 1e3 for v in out.stdout.split()[-3:])
    return (f"v1 tutorial 01 in a fresh process: import asc {imp:.0f} ms, first launch {first:.1f} ms (the v1 "
            f"engine's import and the kernel's source analysis included), then a launch of another structure "
            f"{second:.1f} ms")


if __name__ == "__main__":
    main()
