"""Memory of a launch against the global-memory data it touches, and of a long session of launches.

    python bench/memory.py              # every case, then the session
    python bench/memory.py --case add:16M
    python bench/memory.py --session 1000

Each case runs in a fresh subprocess: the inputs are made and the kernel is traced first, then the
process's peak RSS is reset (``/proc/self/clear_refs``) and the kernel is launched twice (the first
launch runs in full and records its replay tape, the second replays it). A row gives the GM bytes of the
launch's arguments, the peak RSS above the RSS before the launches, and that over the GM bytes (the
multiple docs/simulator.md "Memory" states; goal: a small constant, the fixed overhead aside).

Cases: an August element-wise add (global_tensor / copy_in / copy_out, a grid-stride tile loop) over
1M / 16M / 64M float32 elements, and one element more (``+1``: the last tile is clipped), and a one_hot written element by element (a loop over indices with a
scalar copy_in of the index and a copy_out of its row) and tile-wise (compare against the class row) at
~60M output elements (and the element-by-element one as blocks of contiguous indices, the last block's
run cut by an ``if``).

The session runs ``N`` launches of different kernels (four kernels x forty ConstExpr tile sizes, at
sizes up to 1M elements) in one process and prints RSS every 100 launches, with the sizes of the
compiled-kernel and replay caches (goal: flat once the caches are full).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import asc.runtime.config as config
from asc.experimental import asctile

CORES = 32
M = 1 << 20


@asctile.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    y_gm = asctile.global_tensor(y_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num(), unroll_factor=2):
        x = asctile.copy_in(x_gm, [t * TILE], [TILE])
        y = asctile.copy_in(y_gm, [t * TILE], [TILE])
        asctile.copy_out(x + y, out_gm, [t * TILE])


@asctile.jit
def mul_kernel(x_ptr, y_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    y_gm = asctile.global_tensor(y_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num()):
        x = asctile.copy_in(x_gm, [t * TILE], [TILE])
        y = asctile.copy_in(y_gm, [t * TILE], [TILE])
        asctile.copy_out(asctile.maximum(x * y, 0.0), out_gm, [t * TILE])


@asctile.jit
def scale_kernel(x_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num()):
        x = asctile.copy_in(x_gm, [t * TILE], [TILE])
        asctile.copy_out(asctile.exp(x) * 0.5 + 1.0, out_gm, [t * TILE])


@asctile.jit
def one_hot_loop_kernel(idx_ptr, classes_ptr, out_ptr, n: int, depth: asctile.ConstExpr):
    """One index per trip: a scalar copy_in of the index, a compare against the class row, a row out."""
    idx_gm = asctile.global_tensor(idx_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n, depth])
    classes = asctile.copy_in(asctile.global_tensor(classes_ptr, [1, depth]), [0, 0], [1, depth])
    for i in range(asctile.block_idx(), n, asctile.block_num()):
        k = asctile.copy_in(idx_gm, [i])
        hot = asctile.where(classes == k, asctile.full([1, depth], 1, dtype=asctile.int32),
                            asctile.full([1, depth], 0, dtype=asctile.int32))
        asctile.copy_out(hot, out_gm, [i, 0])


@asctile.jit
def one_hot_blocked_kernel(idx_ptr, classes_ptr, out_ptr, n: int, depth: asctile.ConstExpr):
    """Each block a contiguous run of indices, one per trip, the last block's run cut by an ``if``."""
    idx_gm = asctile.global_tensor(idx_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n, depth])
    classes = asctile.copy_in(asctile.global_tensor(classes_ptr, [1, depth]), [0, 0], [1, depth])
    per_block = asctile.ceildiv(n, asctile.block_num())
    for i in range(per_block):
        row = asctile.block_idx() * per_block + i
        if row < n:
            k = asctile.copy_in(idx_gm, [row])
            hot = asctile.where(classes == k, asctile.full([1, depth], 1, dtype=asctile.int32),
                                asctile.full([1, depth], 0, dtype=asctile.int32))
            asctile.copy_out(hot, out_gm, [row, 0])


@asctile.jit
def one_hot_tile_kernel(idx_ptr, classes_ptr, out_ptr, n: int, depth: asctile.ConstExpr, ROWS: asctile.ConstExpr):
    """ROWS indices per trip: a column of indices broadcast against the class row, one flat copy_out."""
    idx_gm = asctile.global_tensor(idx_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n * depth])
    classes = asctile.copy_in(asctile.global_tensor(classes_ptr, [1, depth]), [0, 0], [1, depth])
    classes = classes.broadcast_to(ROWS, depth)
    for t in range(asctile.block_idx(), asctile.ceildiv(n, ROWS), asctile.block_num(), unroll_factor=2):
        idx = asctile.copy_in(idx_gm, [t * ROWS], [ROWS]).reshape(ROWS, 1).broadcast_to(ROWS, depth)
        hot = asctile.where(idx == classes, asctile.full([ROWS, depth], 1, dtype=asctile.int32),
                            asctile.full([ROWS, depth], 0, dtype=asctile.int32))
        asctile.copy_out(hot.reshape(ROWS * depth), out_gm, [t * ROWS * depth])


def _rss():
    """(current RSS, peak RSS) of this process in bytes."""
    cur = peak = 0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                cur = int(line.split()[1]) << 10
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) << 10
    return cur, peak


def _reset_peak():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def _case_launch(case):
    """(kernel, core count, args, GM bytes, check) of a case ``name:elements``."""
    name, _, size = case.partition(":")
    size, _, extra = size.partition("+")          # add:16M+1: a clipped tail tile
    n = (int(size[:-1]) * M if size.endswith("M") else int(size)) + int(extra or 0)
    rng = np.random.default_rng(2026)
    if name == "add":
        x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
        out = np.empty_like(x)
        return add_kernel, CORES, (x, y, out, n, asctile.ConstExpr(4096)), 3 * x.nbytes, \
            lambda: np.testing.assert_array_equal(out, x + y)
    if name in ("one_hot_loop", "one_hot_blocked", "one_hot_tile"):
        depth = 16
        rows = n // depth
        idx = rng.integers(0, depth, rows, dtype=np.int32)
        classes = np.arange(depth, dtype=np.int32).reshape(1, depth)
        out = np.empty((rows, depth), dtype=np.int32)
        extra = (asctile.ConstExpr(depth),) if name != "one_hot_tile" else (asctile.ConstExpr(depth), asctile.ConstExpr(64))
        kernel = {"one_hot_loop": one_hot_loop_kernel, "one_hot_blocked": one_hot_blocked_kernel,
                  "one_hot_tile": one_hot_tile_kernel}[name]
        return kernel, CORES, (idx, classes, out, rows) + extra, idx.nbytes + classes.nbytes + out.nbytes, \
            lambda: np.testing.assert_array_equal(out, (idx[:, None] == classes).astype(np.int32))
    raise SystemExit(f"unknown case {case!r}")


def run_case(case):
    """One case in this process: prints a JSON line."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    kernel, cores, args, gm, check = _case_launch(case)
    args[2].fill(0)   # the output's pages resident: the baseline holds all of the GM data
    t0 = time.perf_counter()
    kernel.ir(*args)   # trace (a fixed cost, not the launch's)
    trace_s = time.perf_counter() - t0
    base, _ = _rss()
    _reset_peak()
    t0 = time.perf_counter()
    kernel[cores](*args)
    first_s = time.perf_counter() - t0
    _, peak1 = _rss()
    check()
    args[2].fill(0)
    _reset_peak()
    t0 = time.perf_counter()
    kernel[cores](*args)
    second_s = time.perf_counter() - t0
    _, peak2 = _rss()
    check()
    print(json.dumps({"case": case, "gm_bytes": gm, "base": base, "peak_first": peak1 - base,
                      "peak_second": peak2 - base, "trace_s": round(trace_s, 2),
                      "first_s": round(first_s, 2), "second_s": round(second_s, 2)}))


SESSION_KERNELS = ("add", "mul", "scale", "one_hot_tile")
SESSION_TILES = [128 * (i + 1) for i in range(40)]   # the largest fits UB as pyasc-dev allocates it (9 tiles)


def run_session(launches):
    """``launches`` launches of different kernels and ConstExpr tiles in this process; RSS every 100."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    try:
        from asc.runtime.caches import cache_sizes
    except ImportError:   # (before the caches were bounded)
        cache_sizes = dict
    rng = np.random.default_rng(7)
    sizes = [M, M // 2, 300_000, 65_536]
    data = {n: (rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32),
                np.empty(n, dtype=np.float32)) for n in sizes}
    classes = np.arange(16, dtype=np.int32).reshape(1, 16)
    idx = {n: rng.integers(0, 16, n // 16, dtype=np.int32) for n in sizes}
    hot = {n: np.empty((n // 16, 16), dtype=np.int32) for n in sizes}
    t0 = time.perf_counter()
    rows = []
    for i in range(launches):
        kind = SESSION_KERNELS[i % len(SESSION_KERNELS)]
        tile = SESSION_TILES[(i // len(SESSION_KERNELS)) % len(SESSION_TILES)]
        n = sizes[(i // (len(SESSION_KERNELS) * len(SESSION_TILES))) % len(sizes)]
        x, y, out = data[n]
        if kind == "add":
            add_kernel[CORES](x, y, out, n, asctile.ConstExpr(tile))
        elif kind == "mul":
            mul_kernel[CORES](x, y, out, n, asctile.ConstExpr(tile))
        elif kind == "scale":
            scale_kernel[CORES](x, out, n, asctile.ConstExpr(tile))
        else:
            one_hot_tile_kernel[CORES](idx[n], classes, hot[n], n // 16, asctile.ConstExpr(16),
                                       asctile.ConstExpr(min(64, tile // 16 // 8 * 8) or 8))
        if (i + 1) % 100 == 0:
            cur, _ = _rss()
            sizes_now = cache_sizes()
            rows.append({"launches": i + 1, "rss_mb": round(cur / M), "s": round(time.perf_counter() - t0, 1),
                         **sizes_now})
            print(json.dumps(rows[-1]), flush=True)


def _child(args, env):
    out = subprocess.run([sys.executable, __file__] + args, capture_output=True, text=True, env=env)
    if out.returncode:
        sys.stderr.write(out.stderr)
        raise SystemExit(f"{' '.join(args)} failed ({out.returncode})")
    return out.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", help="run one case in this process (add:16M, one_hot_loop:60M, ...)")
    parser.add_argument("--session", type=int, help="run a session of N launches in this process")
    parser.add_argument("--cases", default="add:1M,add:16M,add:64M,add:1M+1,add:16M+1,add:64M+1,"
                                           "one_hot_tile:60M,one_hot_loop:60M,one_hot_blocked:60M")
    parser.add_argument("--session-launches", type=int, default=1000)
    a = parser.parse_args()
    if a.case:
        return run_case(a.case)
    if a.session:
        return run_session(a.session)
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        env["PYASC_CACHE_DIR"] = cache   # a cold on-disk cache: every case traces
        print(f"{'case':18} {'GM MB':>8} {'base MB':>8} {'peak1 MB':>9} {'x GM':>6} {'peak2 MB':>9} {'x GM':>6}"
              f" {'1st s':>6} {'2nd s':>6}")
        for case in a.cases.split(","):
            r = json.loads(_child(["--case", case], env).strip().splitlines()[-1])
            gm = r["gm_bytes"]
            print(f"{case:18} {gm / M:8.0f} {r['base'] / M:8.0f} {r['peak_first'] / M:9.0f} "
                  f"{r['peak_first'] / gm:6.2f} {r['peak_second'] / M:9.0f} {r['peak_second'] / gm:6.2f}"
                  f" {r['first_s']:6.1f} {r['second_s']:6.1f}", flush=True)
        if a.session_launches:
            print(f"session: {a.session_launches} launches of {len(SESSION_KERNELS)} kernels x "
                  f"{len(SESSION_TILES)} tile sizes")
            sys.stdout.write(_child(["--session", str(a.session_launches)], env))


if __name__ == "__main__":
    main()
